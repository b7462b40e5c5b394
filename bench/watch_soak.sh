#!/usr/bin/env bash
# Soak of `watch` at scale (issue 35), on loopback only and bounded in time:
# a sandbox (ylem dialect) answering every request 100 ms late, `watch` of
# 200 entities (the sandbox's 5 pipelines and 3 workflows, and 192 pipeline
# UUIDs it does not know, which cost a request each all the same) at the
# default 15 s interval as an event stream, and a run started every 30 s so
# logs are read too. Every 60 s: the watch's RSS and peak RSS. At the end:
# how long each refresh took (from `watch -v`), the requests per interval
# (from `watch -v`), and the events. Usage:
#   bench/watch_soak.sh DURATION [BINARY] [WORK_DIR]     e.g. bench/watch_soak.sh 60m
# DURATION: Nm or Nh (2m to 3h). Knobs (environment): WATCH_ENTITIES (200),
# WATCH_INTERVAL (15s), WATCH_LATENCY (100ms), WATCH_RUN_EVERY (30, seconds).
set -euo pipefail
DUR=${1:?duration, e.g. 60m}
B=$(realpath "${2:-target/release/ylemctl}")
W=${3:-$(mktemp -d)}
N=${WATCH_ENTITIES:-200}
INTERVAL=${WATCH_INTERVAL:-15s}
LATENCY=${WATCH_LATENCY:-100ms}
RUN_EVERY=${WATCH_RUN_EVERY:-30}
case $DUR in
*h) SECS=$((${DUR%h} * 3600)) ;;
*m) SECS=$((${DUR%m} * 60)) ;;
*) echo "duration: Nm or Nh" >&2; exit 2 ;;
esac
[ "$SECS" -ge 120 ] && [ "$SECS" -le 10800 ] || { echo "duration: 2m to 3h" >&2; exit 2; }
mkdir -p "$W" && cd "$W"
export YLEM_CONFIG_DIR=$W/cfg

pids=()
cleanup() { for p in "${pids[@]}"; do kill "$p" 2>/dev/null || true; done; }
trap cleanup EXIT

"$B" sandbox --listen 127.0.0.1:0 --dialect ylem --latency "$LATENCY" --task-delay 1s -o json \
    > banner.json 2> sandbox.err &
pids+=("$!")
for _ in $(seq 200); do [ -s banner.json ] && break; sleep 0.1; done
read -r BASE CID SECRET PIPES WFS < <(python3 - <<'EOF'
import json
d = json.loads(open("banner.json").readline())
p = [x["uuid"] if isinstance(x, dict) else x for x in d["pipelines"]]
w = [x["uuid"] if isinstance(x, dict) else x for x in d["workflows"]]
print(d["base_url"], d["client_id"], d["client_secret"], ",".join(p), ",".join(w))
EOF
)
case $BASE in http://127.0.0.1:*) ;; *) echo "not loopback: $BASE" >&2; exit 1 ;; esac
export YLEM_BASE_URL=$BASE YLEM_CLIENT_ID=$CID YLEM_CLIENT_SECRET=$SECRET
IDS=()
for p in ${PIPES//,/ }; do IDS+=("pipeline:$p"); done
for w in ${WFS//,/ }; do IDS+=("workflow:$w"); done
# The rest: pipeline UUIDs the service does not know (fixed, for reruns).
while read -r u; do IDS+=("pipeline:$u"); done < <(python3 -c "
import uuid, random
r = random.Random(35)
for _ in range(max(0, $N - ${#IDS[@]})): print(uuid.UUID(int=r.getrandbits(128), version=4))")
echo "${#IDS[@]} entities, interval $INTERVAL, latency $LATENCY, $DUR, $($B --version)" | tee summary.txt

"$B" watch "${IDS[@]}" --interval "$INTERVAL" -o jsonl -v > events.jsonl 2> watch.err &
WP=$!; pids+=("$WP")
echo "elapsed_s,rss_kb,peak_kb" > samples.csv
T0=$(date +%s); next_sample=60; next_run=$RUN_EVERY; runs=0
P1=${PIPES%%,*}
while :; do
    now=$(($(date +%s) - T0))
    [ "$now" -ge "$SECS" ] && break
    [ -d /proc/$WP ] || { echo "watch ended early" >&2; cat watch.err >&2; exit 1; }
    if [ "$now" -ge "$next_sample" ]; then
        echo "$now,$(awk '/^VmRSS/{r=$2} /^VmHWM/{h=$2} END{print r","h}' /proc/$WP/status)" >> samples.csv
        next_sample=$((next_sample + 60))
    fi
    if [ "$now" -ge "$next_run" ]; then
        "$B" run pipeline "$P1" -q > /dev/null 2>> runs.err && runs=$((runs + 1)) || true
        next_run=$((next_run + RUN_EVERY))
    fi
    sleep 1
done
echo "$(($(date +%s) - T0)),$(awk '/^VmRSS/{r=$2} /^VmHWM/{h=$2} END{print r","h}' /proc/$WP/status)" >> samples.csv
kill -TERM "$WP"; rc=0; wait "$WP" || rc=$?
python3 - "$runs" "$rc" "$SECS" "${INTERVAL%s}" <<'EOF' | tee -a summary.txt
import json, re, statistics, sys
runs, rc, secs, interval = int(sys.argv[1]), int(sys.argv[2]), int(sys.argv[3]), float(sys.argv[4])
rows = [l.strip().split(",") for l in open("samples.csv")][1:]
first, last = rows[0], rows[-1]
print(f"exit after SIGTERM: {rc}")
print(f"RSS at {first[0]} s: {int(first[1])/1024:.1f} MB (peak {int(first[2])/1024:.1f} MB); "
      f"at {last[0]} s: {int(last[1])/1024:.1f} MB (peak {int(last[2])/1024:.1f} MB); "
      f"peak grew {(int(last[2])-int(first[2]))/1024:.1f} MB")
ms = []
for l in open("watch.err"):
    m = re.search(r"refreshed .* in ([0-9.]+)(ms|s)\b", l)
    if m:
        ms.append(float(m.group(1)) * (1 if m.group(2) == "ms" else 1000))
if ms:
    ms.sort()
    print(f"refreshes: {len(ms)}, median {statistics.median(ms):.0f} ms, "
          f"95th {ms[int(len(ms)*0.95)-1]:.0f} ms, max {ms[-1]:.0f} ms (interval {interval*1000:.0f} ms)")
# `watch -v` says each request it sent on a line of its own.
sent = [l for l in open("watch.err") if re.match(r"^(GET|POST) /", l)]
logs = sum(1 for l in sent if "/logs/" in l)
if ms:
    print(f"requests sent: {len(sent)} over {len(ms)} refreshes: {len(sent)/len(ms):.1f} per refresh, "
          f"of which log requests {logs} ({logs/len(ms):.2f} per refresh)")
ev = {}
for l in open("events.jsonl"):
    e = json.loads(l)["event"]
    ev[e] = ev.get(e, 0) + 1
print(f"runs started: {runs}; events: {ev}")
EOF
echo "work dir: $W"
