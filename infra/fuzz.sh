#!/usr/bin/env bash
# Runs each fuzz target for a bounded time, failing on the first crash: the Xfcc envelope
# reader (shared/xfcc/fuzz, target `envelope`) and the archive reader (shared/archive/fuzz,
# target `reader`), each from its committed seeds. cargo-fuzz is installed first when it is
# missing, from crates.io into infra/.tools (MISSIVE_TOOLS), so no PATH or nightly toolchain is
# needed: the stable compiler takes the fuzzer's flags with RUSTC_BOOTSTRAP=1.
#
#   MISSIVE_FUZZ_SECONDS   seconds per target (default 60)
#   MISSIVE_TOOLS          where cargo-fuzz is installed (default infra/.tools)
set -euo pipefail
cd "$(dirname "$0")/.."

seconds="${MISSIVE_FUZZ_SECONDS:-60}"
tools="${MISSIVE_TOOLS:-$PWD/infra/.tools}"
cargo_fuzz="$tools/bin/cargo-fuzz"
if [[ ! -x "$cargo_fuzz" ]]; then
    echo "installing cargo-fuzz into $tools" >&2
    cargo install --locked --quiet --root "$tools" cargo-fuzz
fi
export RUSTC_BOOTSTRAP=1

# fuzz CRATE_DIR TARGET: runs TARGET of CRATE_DIR/fuzz for $seconds seconds; new inputs go
# to CRATE_DIR/fuzz/corpus/TARGET, a crash's input to CRATE_DIR/fuzz/artifacts/TARGET.
fuzz() {
    local crate="$1" target="$2"
    local corpus="fuzz/corpus/$target"
    echo "fuzzing $crate: $target for ${seconds}s" >&2
    (
        cd "$crate"
        mkdir -p "$corpus"
        "$cargo_fuzz" run "$target" "$corpus" fuzz/seeds -- \
            -max_total_time="$seconds" -timeout=10 -rss_limit_mb=2048
    )
}

fuzz shared/xfcc envelope
fuzz shared/archive reader
