#!/usr/bin/env bash
# The fuzz smoke CI runs: each differential target for a few seconds (15 by
# default, or $1) on the committed seeds, where cargo-fuzz is installed;
# with a nightly toolchain if there is one, else stable told to accept the
# nightly flags (RUSTC_BOOTSTRAP). Skipped, with a message, without
# cargo-fuzz: installing it is not worth CI's time. A disagreement with
# serde_json or a panic fails (libFuzzer's exit code), and the input is
# left in fuzz/artifacts/. The build goes to a directory kept between runs
# (YLEM_FUZZ_TARGET), so only the first run on a machine builds it all; in
# CI, without such a build, the smoke is skipped with a message.
set -euo pipefail
cd "$(dirname "$0")"
secs=${1:-15}
if ! cargo fuzz --version >/dev/null 2>&1; then
    echo "fuzz smoke skipped: cargo-fuzz is not installed ('cargo install cargo-fuzz'; TESTING.md, Fuzzing)"
    exit 0
fi
if cargo +nightly --version >/dev/null 2>&1; then
    fuzz=(cargo +nightly fuzz)
else
    fuzz=(env RUSTC_BOOTSTRAP=1 cargo fuzz)
fi
target=${YLEM_FUZZ_TARGET:-$HOME/.cache/ylemctl/fuzz-target}
# No sanitizer: the decoders are safe Rust; the fuzzing is for disagreements
# with serde_json and panics, and runs about twice as fast without ASan.
host=$(rustc -vV | sed -n 's/^host: //p')
# A first build takes minutes (12 measured on a busy 2-core machine: the
# client's whole dependency tree, optimised); CI, which gives the smoke a
# minute or two, only rebuilds what changed in a build made before.
if [ -n "${CI:-}" ] && [ ! -x "$target/$host/release/entry_scan" ]; then
    echo "fuzz smoke skipped: no fuzz build in $target yet (run 'bash fuzz/smoke.sh' once outside CI)"
    exit 0
fi
"${fuzz[@]}" build -s none --target-dir "$target"
log=$(mktemp)
trap 'rm -f "$log"' EXIT
for t in entry_scan array_stream canonical; do
    mkdir -p "corpus/$t" "artifacts/$t"
    # The binary itself, not `cargo fuzz run`, which would build again.
    if ! "$target/$host/release/$t" "corpus/$t" "seeds/$t" -max_total_time="$secs" \
        -print_final_stats=1 -artifact_prefix="artifacts/$t/" >"$log" 2>&1; then
        tail -n 40 "$log" >&2
        echo "fuzz target $t failed: the input is in fuzz/artifacts/$t/" >&2
        exit 1
    fi
    runs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log")
    echo "fuzz $t: ${runs:-?} inputs in ${secs} s, corpus $(ls "corpus/$t" | wc -l) files, no disagreement, no panic"
done
