#!/usr/bin/env bash
# Build times of the current checkout, measured the same way before and
# after a restructure (issue 34): a clean debug build, two incremental debug
# builds after a comment is appended to a file (one "leaf" command file, one
# file deep in the HTTP layer), and a clean release build with the binary's
# size. CPU seconds (user+sys) are the main figure because the machine is
# shared and wall time depends on the neighbours; wall is context.
#
# Usage: scripts/build-times.sh [LEAF_FILE [DEEP_FILE]]
#   defaults: src/commands/stats/range.rs and crates/ylem-client/src/http/transport.rs (pass the
#   files' new paths after a move).
# Environment: CARGO_TARGET_DIR (default: a new temporary directory, which
#   is removed at the end: the builds must start empty), NICE (default 15),
#   KEEP_BIN=PATH to keep a copy of the release binary, NO_DEFAULT=1 to also
#   measure the size of a --no-default-features release (step e), STEPS to
#   choose steps (default "a b c b2 c2 d"; b2 and c2 put the comment after
#   the file's first line instead, so that every line of it moves).
set -euo pipefail
cd "$(dirname "$0")/.."

leaf=${1:-src/commands/stats/range.rs}
deep=${2:-crates/ylem-client/src/http/transport.rs}
nice_n=${NICE:-15}
steps=${STEPS:-a b c b2 c2 d}
[ "${NO_DEFAULT:-}" != 1 ] || steps="$steps e"
for f in "$leaf" "$deep"; do
    [ -f "$f" ] || { echo "build-times: no such file: $f" >&2; exit 2; }
done
[ -x /usr/bin/time ] || { echo "build-times: needs /usr/bin/time (apt-get install time)" >&2; exit 2; }

own_target=
if [ -z "${CARGO_TARGET_DIR:-}" ]; then
    CARGO_TARGET_DIR=$(mktemp -d "${TMPDIR:-/tmp}/build-times.XXXXXX")
    own_target=1
fi
export CARGO_TARGET_DIR
export CARGO_TERM_COLOR=never
log=$(mktemp)
# Whatever happens, the touched files get their content back.
cleanup() {
    for f in "$leaf" "$deep"; do git checkout -q -- "$f" 2>/dev/null || true; done
    rm -f "$log"
    [ -z "$own_target" ] || rm -rf "$CARGO_TARGET_DIR"
}
trap cleanup EXIT

rows=()
# measure NAME CMD...: runs CMD under /usr/bin/time -v and nice, keeps
# user+sys and wall seconds as one table row.
measure() {
    local name=$1
    shift
    echo "== $name: $*" >&2
    /usr/bin/time -v -o "$log" nice -n "$nice_n" "$@" >&2
    local user sys wall rss
    user=$(awk -F': ' '/User time/ {print $2}' "$log")
    sys=$(awk -F': ' '/System time/ {print $2}' "$log")
    # Elapsed is h:mm:ss or m:ss.ss; turned into seconds.
    wall=$(awk -F': ' '/Elapsed \(wall clock\)/ {n=split($2,a,":"); s=0; for(i=1;i<=n;i++) s=s*60+a[i]; print s}' "$log")
    rss=$(awk -F': ' '/Maximum resident/ {printf "%d", $2/1024}' "$log")
    rows+=("$(printf '%-48s %9.1f %9.1f %9.1f %8s' "$name" "$(awk -v u="$user" -v s="$sys" 'BEGIN {print u + s}')" "$user" "$wall" "$rss")")
}

# a. clean debug build (the workspace's default members)
# has STEP: whether STEP is in $STEPS.
has() { [[ " $steps " == *" $1 "* ]]; }
# touch MODE FILE: a comment appended (end: no line of code moves, the
# floor of an incremental build) or put after the first line (top: every
# line of the file moves, so its code and debug info are made again).
touch_file() {
    if [ "$1" = end ]; then echo '// x' >>"$2"; else sed -i '1a // x' "$2"; fi
}

size= slim=
# a. clean debug build (the workspace's default members)
if has a; then
    rm -rf "$CARGO_TARGET_DIR/debug"
    measure "a. clean debug build" cargo build
fi
# b. and c. incremental debug builds after a comment line (b2, c2: at the top)
for step in b c b2 c2; do
    has "$step" || continue
    f=$leaf mode=end
    case $step in c*) f=$deep ;; esac
    case $step in *2) mode=top ;; esac
    nice -n "$nice_n" cargo build -q >&2  # a built tree to start from
    touch_file "$mode" "$f"
    measure "$step. incremental ($mode): $f" cargo build
    git checkout -q -- "$f"
done
# d. clean release build and the binary's size
if has d; then
    rm -rf "$CARGO_TARGET_DIR/release"
    measure "d. clean release build" cargo build --release
    size=$(stat -c %s "$CARGO_TARGET_DIR/release/ylemctl")
    # KEEP_BIN=PATH keeps a copy of that binary (e.g. for scripts/same-output.sh).
    [ -z "${KEEP_BIN:-}" ] || { mkdir -p "$(dirname "$KEEP_BIN")"; cp "$CARGO_TARGET_DIR/release/ylemctl" "$KEEP_BIN"; }
fi
# e. the size of the build without the sandbox (release, on top of d)
if has e; then
    measure "e. release --no-default-features" cargo build --release --no-default-features
    slim=$(stat -c %s "$CARGO_TARGET_DIR/release/ylemctl")
fi

echo
echo "$(date -u '+%F %T UTC'), $(git rev-parse --short HEAD), nproc $(nproc), load $(cut -d' ' -f1-3 /proc/loadavg), nice $nice_n"
printf '%-48s %9s %9s %9s %8s\n' build "cpu s" "user s" "wall s" "MaxRSS MB"
printf '%s\n' "${rows[@]}"
[ -z "$size" ] || echo "release binary: $size bytes"
[ -z "$slim" ] || echo "release binary --no-default-features: $slim bytes"
