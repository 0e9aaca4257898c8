#!/usr/bin/env bash
# Builds the Lambda artifacts the way `sam build` does (template.yaml: BuildMethod
# rust-cargolambda): `cargo lambda build --release --arm64 --bin NAME` from the workspace
# root, for provided.al2023 on arm64, each binary zipped as Lambda takes it
# (target/lambda/NAME/bootstrap.zip). Prints each zip's size and checks that the notifier,
# the sweeper and the inbound function link neither axum nor SQLite.
#
# Needs Rust (rust-toolchain.toml) with the aarch64-unknown-linux-gnu target, cargo-lambda,
# and zig, which cargo-lambda links with. Installs what is missing: the target with rustup,
# cargo-lambda and zig from PyPI (`pip install cargo-lambda ziglang`). The ziglang package
# puts zig inside its own folder, not on PATH: this script adds that folder to PATH, and
# `sam build` needs the same (run it from a shell where `zig` is found, e.g. after
# `export PATH="$(python3 -c 'import ziglang, os; print(os.path.dirname(ziglang.__file__))'):$PATH"`).
set -euo pipefail
cd "$(dirname "$0")/.."

python="${MISSIVE_PYTHON:-python3}"
functions=(api notifier sweeper inbound)

if ! rustup target list --installed | grep -qx aarch64-unknown-linux-gnu; then
    echo "adding the aarch64-unknown-linux-gnu target" >&2
    rustup target add aarch64-unknown-linux-gnu >&2
fi
if ! command -v cargo-lambda >/dev/null; then
    echo "installing cargo-lambda from PyPI" >&2
    "$python" -m pip install --quiet --disable-pip-version-check cargo-lambda
fi
if ! command -v zig >/dev/null; then
    if ! "$python" -c 'import ziglang' 2>/dev/null; then
        echo "installing zig (ziglang) from PyPI" >&2
        "$python" -m pip install --quiet --disable-pip-version-check ziglang
    fi
    PATH="$("$python" -c 'import ziglang, os; print(os.path.dirname(ziglang.__file__))'):$PATH"
    export PATH
fi

for function in "${functions[@]}"; do
    cargo lambda build --release --arm64 --locked --output-format zip --bin "$function" >&2
done

status=0
for function in "${functions[@]}"; do
    zip="target/lambda/$function/bootstrap.zip"
    printf '%-9s %9d bytes zipped  %s\n' "$function" "$(stat -c %s "$zip")" "$zip"
done
for function in notifier sweeper inbound; do
    binary="$(mktemp)"
    unzip -p "target/lambda/$function/bootstrap.zip" bootstrap >"$binary"
    for linked in 'axum::' 'sqlite3_open'; do
        if grep -a -q "$linked" "$binary"; then
            echo "$function links ${linked%::}: it should not" >&2
            status=1
        fi
    done
    rm -f "$binary"
done
exit "$status"
