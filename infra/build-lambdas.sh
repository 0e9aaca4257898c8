#!/usr/bin/env bash
# Builds the Lambda artifacts the way `sam build` does (template.yaml: BuildMethod
# rust-cargolambda): `cargo lambda build --release --arm64 --bin NAME` from the workspace
# root, for provided.al2023 on arm64, each binary zipped as Lambda takes it
# ("${CARGO_TARGET_DIR:-target}/lambda/NAME/bootstrap.zip"; a relative CARGO_TARGET_DIR is
# taken from the workspace root, where this script runs cargo). Prints each function's
# size, zipped and unpacked, in bytes and MiB, and checks that the notifier, the sweeper
# and the inbound function link neither axum nor SQLite.
#
# `build-lambdas.sh --check-only BINARY...` runs that check alone on unpacked binaries
# (any, whatever their function), without building anything.
#
# `build-lambdas.sh --x86-64` builds the same functions for x86_64 instead (`cargo lambda
# build --release --x86-64`; the template deploys arm64, so these are for measuring where
# the arm64 target cannot be installed, or for a stack changed to x86_64).
#
# Needs Rust (rust-toolchain.toml) with the aarch64-unknown-linux-gnu target (for arm64),
# cargo-lambda, and zig, which cargo-lambda links with. Installs what is missing: the
# target with rustup, cargo-lambda and zig from PyPI (`pip install cargo-lambda ziglang`).
# The ziglang package puts zig inside its own folder, not on PATH: this script adds that
# folder to PATH, and `sam build` needs the same (run it from a shell where `zig` is
# found, e.g. after `export PATH="$(python3 -c 'import ziglang, os; print(os.path.dirname(ziglang.__file__))'):$PATH"`).
set -euo pipefail

# Whether the unpacked binary $2 (named $1 in messages) links neither axum nor SQLite, by
# strings that stay in a stripped release binary: axum's paths in its panic and type
# names, SQLite's file header and its schema table's name.
links_no_server() {
    local name="$1" binary="$2" clean=0 linked marker
    if [[ ! -f "$binary" || ! -r "$binary" ]]; then
        echo "$name: no readable file to check" >&2
        return 1
    fi
    for marker in 'axum::' 'SQLite format 3' 'sqlite_master'; do
        if grep -a -q -F -e "$marker" -- "$binary"; then
            case "$marker" in
                axum::) linked=axum ;;
                *) linked=SQLite ;;
            esac
            echo "$name links $linked (\"$marker\" found): it should not" >&2
            clean=1
        fi
    done
    return "$clean"
}

if [[ "${1:-}" == --check-only ]]; then
    shift
    if [[ $# -eq 0 ]]; then
        echo "usage: $0 --check-only BINARY..." >&2
        exit 2
    fi
    status=0
    for binary in "$@"; do
        links_no_server "$binary" "$binary" || status=1
    done
    exit "$status"
fi

cd "$(dirname "$0")/.."
target="${CARGO_TARGET_DIR:-target}"

python="${MISSIVE_PYTHON:-python3}"
functions=(api notifier sweeper inbound)
arch=--arm64
if [[ "${1:-}" == --x86-64 ]]; then
    arch=--x86-64
elif [[ $# -gt 0 ]]; then
    echo "usage: $0 [--x86-64 | --check-only BINARY...]" >&2
    exit 2
fi

if [[ "$arch" == --arm64 ]] && ! rustup target list --installed | grep -qx aarch64-unknown-linux-gnu; then
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
    cargo lambda build --release "$arch" --locked --output-format zip --bin "$function" >&2
done

# $1 bytes in MiB, to two decimals.
mib() {
    awk -v bytes="$1" 'BEGIN { printf "%.2f", bytes / 1048576 }'
}

status=0
binary="$(mktemp)"
trap 'rm -f "$binary"' EXIT
for function in "${functions[@]}"; do
    zip="$target/lambda/$function/bootstrap.zip"
    unzip -p "$zip" bootstrap >"$binary"
    zipped="$(stat -c %s "$zip")"
    unpacked="$(stat -c %s "$binary")"
    printf '%-9s %9d bytes (%6s MiB) zipped, %9d bytes (%6s MiB) unpacked  %s\n' \
        "$function" "$zipped" "$(mib "$zipped")" "$unpacked" "$(mib "$unpacked")" "$zip"
    if [[ "$function" != api ]]; then
        links_no_server "$function" "$binary" || status=1
    fi
done
exit "$status"
