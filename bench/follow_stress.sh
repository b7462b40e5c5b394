#!/usr/bin/env bash
# Whether `logs --follow` memory grows with the entries it has followed:
# a sandbox (ylem dialect, 10 ms task seconds) on loopback, a follow of one
# pipeline, then three bursts of N runs started one after another, each
# followed by 150 s of quiet; the follow's RSS after every N/5 runs and
# after each quiet spell. Bounded: 3 x N runs. Usage:
#   bench/follow_stress.sh [BINARY] [N]        e.g. bench/follow_stress.sh target/release/ylemctl 500
set -euo pipefail
B=$(realpath "${1:-target/release/ylemctl}")
N=${2:-500}
W=$(mktemp -d)
cd "$W"
pids=()
trap 'for p in "${pids[@]}"; do kill "$p" 2>/dev/null || true; done; rm -rf "$W"' EXIT
"$B" sandbox --listen 127.0.0.1:0 --dialect ylem --task-delay 10ms > banner.txt 2>&1 & pids+=($!)
for _ in $(seq 100); do grep -q '^Serving' banner.txt && break; sleep 0.1; done
export YLEM_BASE_URL=$(awk '/base URL/{print $3; exit}' banner.txt)
export YLEM_CLIENT_ID=$(awk '/client id/{print $3; exit}' banner.txt)
export YLEM_CLIENT_SECRET=$(awk '/client secret/{print $3; exit}' banner.txt)
export YLEM_CONFIG_DIR=$W/cfg
P=$(awk '/^Pipelines:/{on=1; next} on && /^  [0-9a-f]/ && length($1) == 36 {print $1; exit}' banner.txt)
"$B" logs "$P" --follow --since now -o jsonl > follow.jsonl 2> follow.err & FO=$!; pids+=($FO)
sleep 1
rss() { awk '/^VmRSS/{print $2}' /proc/$FO/status; }
echo "round runs entries_printed rss_kb"
echo "0 0 0 $(rss)"
for round in 1 2 3; do
    for i in $(seq "$N"); do
        "$B" run pipeline "$P" -o json > /dev/null 2>&1 || true
        if [ $((i % (N / 5))) = 0 ]; then sleep 5; echo "$round $i $(wc -l < follow.jsonl) $(rss)"; fi
    done
    sleep 150
    echo "$round quiet $(wc -l < follow.jsonl) $(rss)"
done
