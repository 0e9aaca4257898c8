#!/usr/bin/env bash
# Runs each fuzz target of shared/fuzz for a bounded time, failing on the first crash: the
# Xfcc envelope reader (target `envelope`) and the archive reader (target `reader`), each
# from its committed seeds (shared/fuzz/seeds/TARGET). cargo-fuzz is installed first when it
# is missing, from crates.io into infra/.tools (MISSIVE_TOOLS), so no PATH or nightly
# toolchain is needed: the stable compiler takes the fuzzer's flags with RUSTC_BOOTSTRAP=1.
#
# Both targets are one package, built once (in 16 codegen units), then fuzzed side by side,
# one core each. No sanitizer is compiled in: the readers are safe Rust (no `unsafe`), so
# what the fuzzer hunts is a panic, an overflow (debug assertions and overflow checks are
# on), a hang or a runaway allocation, and AddressSanitizer would only slow each run.
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
build=(--fuzz-dir shared/fuzz --sanitizer none --codegen-units 16)
dir=shared/fuzz
targets=(envelope reader)

"$cargo_fuzz" build "${build[@]}"

# fuzz TARGET: runs TARGET for $seconds seconds; new inputs go to shared/fuzz/corpus/TARGET,
# a crash's input to shared/fuzz/artifacts/TARGET, the fuzzer's output to its log.
fuzz() {
    local target="$1"
    mkdir -p "$dir/corpus/$target" "$dir/artifacts"
    "$cargo_fuzz" run "${build[@]}" "$target" "$dir/corpus/$target" "$dir/seeds/$target" -- \
        -max_total_time="$seconds" -timeout=10 -rss_limit_mb=2048 >"$dir/artifacts/$target.log" 2>&1
}

declare -A runs
for target in "${targets[@]}"; do
    echo "fuzzing $target for ${seconds}s" >&2
    fuzz "$target" &
    runs[$target]=$!
done
failed=0
for target in "${targets[@]}"; do
    if wait "${runs[$target]}"; then
        echo "$target: $(grep -E '^Done [0-9]+ runs' "$dir/artifacts/$target.log" || echo done)" >&2
    else
        echo "$target failed; its fuzzer's output:" >&2
        tail -n 60 "$dir/artifacts/$target.log" >&2
        failed=1
    fi
done
exit "$failed"
