#!/usr/bin/env bash
# Benchmark of ylemctl against curl (and curl | jq): start-up, a single stats
# call, a large log served by nginx to CSV, JSON lines, JSON, --decode and
# --decrypt-key-file (time as a ratio to the bare transfer's from the same
# server, and peak memory), 100 IDs against a slow service, binary size and
# clean build time. Prints a markdown table; BENCHMARKS.md holds the last
# full run. Needs nginx (run as the current user, from a config of its own
# in the temporary directory) and python3's cryptography (the sealed log).
#
#   bench/run.sh            full run: release build, 200 000-entry log, targets checked
#   bench/run.sh --quick    small sizes, few runs, debug build, no clean
#                           build, no assertions (CI runs this so it cannot rot)
#
# Environment: BENCH_SKIP_CLEAN_BUILD=1 skips the clean release build (it
# takes minutes); BENCH_PROFILE=release|dev overrides the profile;
# CARGO_TARGET_DIR is honoured. Only 127.0.0.1 is ever contacted.
set -euo pipefail
cd "$(dirname "$0")/.."
ROOT=$PWD

QUICK=0
case "${1:-}" in
    --quick) QUICK=1 ;;
    "") ;;
    *) echo "usage: bench/run.sh [--quick]" >&2; exit 2 ;;
esac

if [[ $QUICK == 1 ]]; then
    PROFILE=${BENCH_PROFILE:-dev}
    BIG=2000 SMALL=200 RUNS=3 SLOW_RUNS=1 IDS=20 HUGE_MIB=2
else
    PROFILE=${BENCH_PROFILE:-release}
    BIG=200000 SMALL=20000 RUNS=20 SLOW_RUNS=3 IDS=100 HUGE_MIB=50
fi
# Proxies from the environment must not divert loopback traffic.
unset http_proxy https_proxy HTTP_PROXY HTTPS_PROXY ALL_PROXY all_proxy
export NO_PROXY=127.0.0.1 no_proxy=127.0.0.1
export LC_ALL=C

# --- tools ---------------------------------------------------------------
missing=()
command -v hyperfine >/dev/null || missing+=(hyperfine)
[[ -x /usr/bin/time ]] || missing+=(time)
command -v jq >/dev/null || missing+=(jq)
command -v curl >/dev/null || missing+=(curl)
command -v python3 >/dev/null || missing+=(python3)
python3 -c 'import cryptography' 2>/dev/null || missing+=(python3-cryptography)
command -v nginx >/dev/null || [[ -x /usr/sbin/nginx ]] || missing+=(nginx)
if ((${#missing[@]})); then
    if [[ $(id -u) != 0 ]]; then
        echo "bench: missing ${missing[*]}: install them (apt-get install ${missing[*]})" >&2
        exit 1
    fi
    echo "bench: installing ${missing[*]}" >&2
    apt-get update -qq >&2
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${missing[@]}" >&2
fi
NGINX=$(command -v nginx || echo /usr/sbin/nginx)

WORK=$(mktemp -d)
PIDS=()
cleanup() {
    for p in "${PIDS[@]}"; do kill "$p" 2>/dev/null || true; done
    for p in "${PIDS[@]}"; do wait "$p" 2>/dev/null || true; done
    rm -rf "$WORK"
}
trap cleanup EXIT

# --- build ---------------------------------------------------------------
export CARGO_TARGET_DIR=${CARGO_TARGET_DIR:-$ROOT/target}
if [[ $PROFILE == release ]]; then
    cargo build --release --quiet
    BIN=$CARGO_TARGET_DIR/release/ylemctl
else
    cargo build --quiet
    BIN=$CARGO_TARGET_DIR/debug/ylemctl
fi
export YLEM_CONFIG_DIR=$WORK/config

# Wait (at most 10 s) for a line matching $2 in file $1; print the match.
wait_for() {
    local i
    for i in $(seq 100); do
        if grep -m1 -E "$2" "$1" 2>/dev/null; then return 0; fi
        sleep 0.1
    done
    echo "bench: timed out waiting for '$2' in $1" >&2
    cat "$1" >&2
    exit 1
}

# Start a sandbox on a free loopback port; sets SB_URL, SB_ID, SB_SECRET, SB_PIPE.
# The banner is read as JSON (`-o json`: one object on its first line).
start_sandbox() {
    local banner=$WORK/sandbox-$1.json log=$WORK/sandbox-$1.log
    shift
    "$BIN" sandbox --listen 127.0.0.1:0 -o json "$@" >"$banner" 2>"$log" &
    PIDS+=($!)
    wait_for "$banner" '"base_url"' >/dev/null
    SB_URL=$(jq -r .base_url "$banner")
    SB_ID=$(jq -r .client_id "$banner")
    SB_SECRET=$(jq -r .client_secret "$banner")
    SB_PIPE=$(jq -r '.pipelines[0].uuid' "$banner")
}

# A token from the sandbox's token endpoint, as an operator would get one.
token_of() {
    curl -sf -X POST "$SB_URL/v1/oauth/token?grant_type=client_credentials&client_id=$SB_ID&client_secret=$SB_SECRET" |
        jq -r .access_token
}

# Median seconds of command number $2 (0-based) in hyperfine's JSON $1.
median() { jq -r ".results[$2].median" "$1"; }
ratio() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.2f", a / b }'; }
ms() { awk -v s="$1" 'BEGIN { printf "%.1f ms", s * 1000 }'; }
secs() { awk -v s="$1" 'BEGIN { printf "%.2f s", s }'; }
# Peak RSS in MB of a shell command (the largest of its processes).
peak_mb() {
    /usr/bin/time -v bash -c "$1" 2>&1 >/dev/null | awk -F': ' '/Maximum resident/ { printf "%.1f", $2 / 1024 }'
}

ROWS=()
MISSED=()
row() { ROWS+=("| $1 | $2 | $3 | $4 | $5 |"); }
# verdict NAME OK(0/1): sets V, and records a missed target (asserted only
# in a full run).
verdict() {
    if [[ $QUICK == 1 ]]; then
        V="not checked (--quick)"
    elif [[ $2 == 1 ]]; then
        V=met
    else
        MISSED+=("$1")
        V="**missed**"
    fi
}

FROM='2024-01-13 00:00:00'
TO='2024-01-14 00:00:00'
PATH_WIN='2024-01-13%2000:00:00/2024-01-14%2000:00:00'

# --- a. start-up and one stats call ----------------------------------------
echo "bench: a. start-up and one stats call" >&2
start_sandbox fast
export YLEM_BASE_URL=$SB_URL
YLEM_TOKEN=$(token_of)
export YLEM_TOKEN
STATS_URL="$SB_URL/v1/stats/pipelines/$SB_PIPE/stats/$PATH_WIN"
# Same answer both ways, before timing anything.
"$BIN" stats pipeline "$SB_PIPE" --from "$FROM" --to "$TO" -o json | jq -e .num_of_successes >/dev/null
curl -sf -H "Authorization: Bearer $YLEM_TOKEN" "$STATS_URL" | jq -e .num_of_successes >/dev/null
hyperfine -N --warmup 3 --runs "$((RUNS * 2))" --style none --export-json "$WORK/a.json" \
    "$BIN --version" \
    "$BIN stats pipeline $SB_PIPE --from '$FROM' --to '$TO' -o json" \
    "curl -s -H 'Authorization: Bearer $YLEM_TOKEN' $STATS_URL" >&2
A_VER=$(median "$WORK/a.json" 0)
A_STATS=$(median "$WORK/a.json" 1)
A_CURL=$(median "$WORK/a.json" 2)
A_R=$(ratio "$A_STATS" "$A_CURL")
row "a. \`ylemctl --version\`" "$(ms "$A_VER")" "" "" ""
verdict a-stats "$(awk -v r="$A_R" 'BEGIN { print (r <= 1.5) }')"
row "a. \`stats pipeline ID -o json\` vs \`curl\`" "$(ms "$A_STATS")" "$(ms "$A_CURL")" "${A_R}x" "≤ 1.5x: $V"

# --- b. a large log: conversion time over the transfer's own --------------
# The headline: ylemctl's time divided by `curl -o /dev/null`'s for the
# same response in the same run (absolute times vary across machines; the
# ratio holds), for each format and for --decode; and peak memory. The logs
# are files served by nginx, which sends them with sendfile much faster
# than any client converts them, so the ratio measures the client, not the
# server. Python's file server (the old reference, several times slower)
# is timed once more for history.
echo "bench: b. generating logs of $SMALL and $BIG entries, one with a $HUGE_MIB MiB output, one sealed with AES-256-GCM" >&2
LOGPIPE=6d1f0c2e-4b8a-4f3e-9c7d-2a5b8e1f0d34
LOG_FILE="v1/stats/pipelines/$LOGPIPE/logs/$FROM/$TO"
LOG_PATH="/v1/stats/pipelines/$LOGPIPE/logs/$PATH_WIN"
# Write a generated log (gen_log.py arguments) under directory www-$1.
gen_dir() {
    local dir=$WORK/www-$1
    shift
    mkdir -p "$(dirname "$dir/$LOG_FILE")"
    python3 "$ROOT/bench/gen_log.py" "$1" "$dir/$LOG_FILE" "${@:2}"
}
gen_dir big "$BIG"
gen_dir small "$SMALL"
gen_dir huge "$SMALL" 1 "$HUGE_MIB"
gen_dir aes "$BIG" 1 --aes-key-file "$WORK/aes.key"

# A free loopback port (nginx cannot be told to pick one and say which).
free_port() {
    python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'
}
# One nginx, in the foreground (stopped by cleanup), as the current user,
# with its config, pid file, logs and temporary paths under $WORK/nginx;
# a server (port) per log directory. Sets PORT_<name>.
NGX=$WORK/nginx
mkdir -p "$NGX"
{
    echo "daemon off; worker_processes 1; pid $NGX/nginx.pid; error_log $NGX/error.log warn;"
    echo "user $(id -un) $(id -gn);"
    echo "events { worker_connections 64; }"
    echo "http {"
    echo "  access_log off; default_type application/json; sendfile on; tcp_nopush on;"
    for t in client_body proxy fastcgi uwsgi scgi; do echo "  ${t}_temp_path $NGX/$t;"; done
    for name in big small huge aes; do
        port=$(free_port)
        declare "PORT_$name=$port"
        echo "  server { listen 127.0.0.1:$port; root $WORK/www-$name; }"
    done
    echo "}"
} >"$NGX/nginx.conf"
"$NGINX" -p "$NGX" -c "$NGX/nginx.conf" -e "$NGX/error.log" >"$NGX/stdout.log" 2>&1 &
PIDS+=($!)
for i in $(seq 100); do
    curl -sf -o /dev/null "http://127.0.0.1:$PORT_small$LOG_PATH" && break
    [[ $i == 100 ]] && { echo "bench: nginx did not start" >&2; cat "$NGX/error.log" >&2; exit 1; }
    sleep 0.1
done
BIG_URL=http://127.0.0.1:$PORT_big SMALL_URL=http://127.0.0.1:$PORT_small
HUGE_URL=http://127.0.0.1:$PORT_huge AES_URL=http://127.0.0.1:$PORT_aes
# The old reference: python's file server, for the history row only.
python3 -u -m http.server 0 --bind 127.0.0.1 --directory "$WORK/www-big" >"$WORK/py.log" 2>&1 &
PIDS+=($!)
PY_URL="http://127.0.0.1:$(wait_for "$WORK/py.log" 'Serving HTTP' | sed -E 's/.* port ([0-9]+).*/\1/')"
BIG_BYTES=$(stat -c %s "$WORK/www-big/$LOG_FILE")
AES_BYTES=$(stat -c %s "$WORK/www-aes/$LOG_FILE")
BIG_MB=$(awk -v b="$BIG_BYTES" 'BEGIN { printf "%.0f", b / 1e6 }')
CSV_JQ='.[] | [.workflow_run_uuid, .task_uuid, .task_type, .is_successful, .duration, .output, .metric_value, .executed_at] | @csv'
# `env` so that hyperfine can run it without a shell (-N); output goes to
# /dev/null either way.
ylem_logs() { echo "env YLEM_BASE_URL=$1 $BIN logs $LOGPIPE --from '$FROM' --to '$TO' -o $2"; }
curl_raw() { echo "curl -s -o /dev/null -H 'Authorization: Bearer $YLEM_TOKEN' $1$LOG_PATH"; }
curl_jq() { echo "curl -s -H 'Authorization: Bearer $YLEM_TOKEN' $1$LOG_PATH | jq $2"; }
AES_DEC="jsonl --decrypt-key-file $WORK/aes.key"

# The JSON lines must be exactly what jq makes of the same log.
eval "$(ylem_logs "$SMALL_URL" jsonl)" >"$WORK/ylem.jsonl"
eval "$(curl_jq "$SMALL_URL" "-c '.[]'")" >"$WORK/jq.jsonl"
cmp -s "$WORK/ylem.jsonl" "$WORK/jq.jsonl" || { echo "bench: jsonl differs from jq -c" >&2; exit 1; }
[[ $(wc -l <"$WORK/ylem.jsonl") == "$SMALL" ]] || { echo "bench: wrong row count" >&2; exit 1; }
# --decode turns every output into its JSON rows (gen_log.py writes JSON),
# and the key opens every sealed one.
eval "$(ylem_logs "$SMALL_URL" "jsonl --decode")" | head -1 | jq -e '.output[0].id and .decode_error == null' >/dev/null ||
    { echo "bench: --decode did not decode" >&2; exit 1; }
eval "$(ylem_logs "$AES_URL" "$AES_DEC")" | jq -se 'length == '"$BIG"' and all(.output[0].id and .decode_error == null)' >/dev/null ||
    { echo "bench: --decrypt-key-file did not decrypt every output" >&2; exit 1; }

echo "bench: b. timing the $BIG-entry log ($BIG_MB MB)" >&2
hyperfine -N --warmup 2 --runs "$((RUNS / 2 + 2))" --style none --export-json "$WORK/b.json" \
    "$(curl_raw "$BIG_URL")" \
    "$(ylem_logs "$BIG_URL" csv)" \
    "$(ylem_logs "$BIG_URL" jsonl)" \
    "$(ylem_logs "$BIG_URL" json)" \
    "$(ylem_logs "$BIG_URL" "jsonl --decode")" \
    "$(curl_raw "$AES_URL")" \
    "$(ylem_logs "$AES_URL" "$AES_DEC")" \
    "$(curl_raw "$PY_URL")" >&2
B_CURL=$(median "$WORK/b.json" 0)
B_CSV=$(median "$WORK/b.json" 1) B_JL=$(median "$WORK/b.json" 2)
B_JSON=$(median "$WORK/b.json" 3) B_DEC=$(median "$WORK/b.json" 4)
B_AESCURL=$(median "$WORK/b.json" 5) B_AES=$(median "$WORK/b.json" 6)
B_PY=$(median "$WORK/b.json" 7)
# For scale: the same conversions by curl | jq (slow: a few runs).
hyperfine --runs "$((RUNS / 10 + 1))" --style none --export-json "$WORK/bjq.json" \
    "$(curl_jq "$BIG_URL" "-r '$CSV_JQ'") >/dev/null" \
    "$(curl_jq "$BIG_URL" "-c '.[]'") >/dev/null" >&2
B_CSVJQ=$(median "$WORK/bjq.json" 0) B_JLJQ=$(median "$WORK/bjq.json" 1)

echo "bench: b. peak memory" >&2
M_CSV=$(peak_mb "$(ylem_logs "$BIG_URL" csv)")
M_JL=$(peak_mb "$(ylem_logs "$BIG_URL" jsonl)")
M_JSON=$(peak_mb "$(ylem_logs "$BIG_URL" json)")
M_DEC=$(peak_mb "$(ylem_logs "$BIG_URL" "jsonl --decode")")
M_AES=$(peak_mb "$(ylem_logs "$AES_URL" "$AES_DEC")")
M_SMALL=$(peak_mb "$(ylem_logs "$SMALL_URL" jsonl)")
M_HUGE=$(peak_mb "$(ylem_logs "$HUGE_URL" jsonl)")
M_CURL=$(peak_mb "$(curl_raw "$BIG_URL")")
mbps() { awk -v b="$1" -v s="$2" 'BEGIN { printf "%.0f MB/s", b / s / 1e6 }'; }
row "b. raw transfer: \`curl -o /dev/null\` of the $BIG_MB MB log from nginx (the reference of every ratio below)" "" "$(secs "$B_CURL"), $(mbps "$BIG_BYTES" "$B_CURL")" "" ""
row "b. history: the same from \`python3 -m http.server\` (the old reference)" "" "$(secs "$B_PY"), $(mbps "$BIG_BYTES" "$B_PY")" "$(ratio "$B_PY" "$B_CURL")x nginx's" ""
within() { awk -v r="$1" -v t="$2" 'BEGIN { print (r <= t) }'; }
small() { awk -v m="$1" 'BEGIN { print (m < 16) }'; }
for f in csv jsonl json decode aes; do
    case $f in
        csv) T=$B_CSV M=$M_CSV C=$B_CURL L=2 W="→ csv" ;;
        jsonl) T=$B_JL M=$M_JL C=$B_CURL L=2 W="→ jsonl" ;;
        json) T=$B_JSON M=$M_JSON C=$B_CURL L=2 W="→ json" ;;
        decode) T=$B_DEC M=$M_DEC C=$B_CURL L=4 W="→ jsonl --decode (Base64 → JSON rows)" ;;
        aes) T=$B_AES M=$M_AES C=$B_AESCURL L=4 W="sealed with AES-256-GCM ($(awk -v b="$AES_BYTES" 'BEGIN { printf "%.0f", b / 1e6 }') MB) → jsonl --decrypt-key-file" ;;
    esac
    R=$(ratio "$T" "$C")
    verdict "b-$f-ratio" "$(within "$R" "$L")"
    row "b. **log $BIG entries $W: ylemctl ÷ \`curl -o /dev/null\`**" "$(secs "$T")" "$(secs "$C")" "**${R}x**" "≤ ${L}x: $V"
    verdict "b-$f-rss" "$(small "$M")"
    row "b. peak RSS, $f, $BIG entries" "$M MB" "$M_CURL MB" "" "< 16 MB: $V"
done
# One output of $HUGE_MIB MiB may cost its own size once, not a multiple.
verdict b-huge-rss "$(awk -v m="$M_HUGE" -v h="$HUGE_MIB" 'BEGIN { print (m < 16 + 1.25 * h * 1.048576) }')"
row "b. peak RSS, jsonl, $SMALL entries and one $HUGE_MIB MiB output ($SMALL entries alone: $M_SMALL MB)" "$M_HUGE MB" "" "" "< 16 MB + 1.25 × output: $V"
row "b. for scale: \`curl \| jq @csv\`, \`curl \| jq -c '.[]'\`" "" "$(secs "$B_CSVJQ"), $(secs "$B_JLJQ")" \
    "ylemctl $(ratio "$B_CSVJQ" "$B_CSV")x, $(ratio "$B_JLJQ" "$B_JL")x faster" ""
# For scale: the project's own server. The sandbox serves only its own
# seeded data (not the generated log), built whole before it is sent: its
# first pipeline's whole history, through the latency-free sandbox of a.
SB_LOG_PATH="/v1/stats/pipelines/$SB_PIPE/logs/2020-01-01%2000:00:00/2030-01-01%2000:00:00"
SB_BYTES=$(curl -sf -H "Authorization: Bearer $YLEM_TOKEN" "$SB_URL$SB_LOG_PATH" | wc -c)
hyperfine -N --warmup 2 --runs "$RUNS" --style none --export-json "$WORK/bsb.json" \
    "curl -s -o /dev/null -H 'Authorization: Bearer $YLEM_TOKEN' $SB_URL$SB_LOG_PATH" \
    "env YLEM_BASE_URL=$SB_URL $BIN logs $SB_PIPE --from '2020-01-01 00:00:00' --to '2030-01-01 00:00:00' -o csv" >&2
B_SBCURL=$(median "$WORK/bsb.json" 0) B_SB=$(median "$WORK/bsb.json" 1)
row "b. for scale: the sandbox's own log (one pipeline's whole history, $(awk -v b="$SB_BYTES" 'BEGIN { printf "%.1f", b / 1e6 }') MB) → csv, ÷ \`curl -o /dev/null\` from the sandbox" \
    "$(ms "$B_SB")" "$(ms "$B_SBCURL")" "$(ratio "$B_SB" "$B_SBCURL")x" ""

# --- c. many IDs against a slow service ------------------------------------
echo "bench: c. $IDS IDs, 100 ms latency" >&2
start_sandbox slow --latency 100ms
SLOW_URL=$SB_URL
SLOW_TOKEN=$(token_of)
UUIDS=$(python3 -c "import uuid, random; r = random.Random(7); print(' '.join(str(uuid.UUID(int=r.getrandbits(128), version=4)) for _ in range($IDS)))")
# Unknown pipelines answer zero statistics: one row per ID, all succeeded.
got=$(YLEM_BASE_URL=$SLOW_URL YLEM_TOKEN=$SLOW_TOKEN "$BIN" stats pipeline $UUIDS --from "$FROM" --to "$TO" -o csv --no-header | wc -l)
[[ $got == "$IDS" ]] || { echo "bench: expected $IDS rows, got $got" >&2; exit 1; }
cat >"$WORK/loop.sh" <<EOF
for id in $UUIDS; do
    curl -s -H 'Authorization: Bearer $SLOW_TOKEN' "$SLOW_URL/v1/stats/pipelines/\$id/stats/$PATH_WIN"
done
EOF
hyperfine --runs "$SLOW_RUNS" --style none --export-json "$WORK/c.json" \
    "YLEM_BASE_URL=$SLOW_URL YLEM_TOKEN=$SLOW_TOKEN $BIN stats pipeline $UUIDS --from '$FROM' --to '$TO' -o csv >/dev/null" \
    "bash $WORK/loop.sh >/dev/null" >&2
C_Y=$(median "$WORK/c.json" 0) C_LOOP=$(median "$WORK/c.json" 1)
verdict c-ids "$(awk -v s="$C_Y" 'BEGIN { print (s < 1.5) }')"
row "c. \`stats pipeline\` × $IDS IDs, 100 ms latency vs sequential \`curl\` loop" \
    "$(secs "$C_Y")" "$(secs "$C_LOOP")" "$(ratio "$C_LOOP" "$C_Y")x faster" "< 1.5 s: $V"

# --- d. size and clean build -------------------------------------------------
SIZE=$(stat -c %s "$BIN")
row "d. binary size ($PROFILE)" "$(awk -v b="$SIZE" 'BEGIN { printf "%.1f MiB", b / 1048576 }')" "" "" ""
if [[ $QUICK == 0 && -z ${BENCH_SKIP_CLEAN_BUILD:-} ]]; then
    echo "bench: d. clean release build (minutes)" >&2
    CLEAN=$WORK/clean-target
    start=$(date +%s.%N)
    CARGO_TARGET_DIR=$CLEAN cargo build --release --quiet
    end=$(date +%s.%N)
    row "d. clean release build, $(nproc) cores" "$(awk -v a="$start" -v b="$end" 'BEGIN { printf "%.0f s", b - a }')" "" "" ""
    rm -rf "$CLEAN"
fi

# --- report ----------------------------------------------------------------
echo
echo "| measurement | ylemctl | curl (\\| jq) | ratio | target |"
echo "|---|---|---|---|---|"
printf '%s\n' "${ROWS[@]}"
echo
echo "Medians of hyperfine runs; peak RSS from /usr/bin/time -v. $(nproc) cores, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ //'), profile $PROFILE."
if [[ $QUICK == 0 && ${#MISSED[@]} -gt 0 ]]; then
    echo "bench: targets missed: ${MISSED[*]}" >&2
    exit 1
fi
