#!/usr/bin/env bash
# Whether `metrics serve` memory grows with scrapes (not with time): a
# sandbox (ylem dialect) on loopback, the exporter with --cache 0s (every
# scrape a fetch of 8 IDs), then N scrapes as fast as they are answered,
# on one kept-alive connection or a new connection each (`new`), with RSS
# and open files every N/10. Bounded by N. Usage:
#   bench/scrape_stress.sh [BINARY] [N] [keep|new] [SANDBOX FLAGS...]
#   e.g. bench/scrape_stress.sh target/release/ylemctl 20000 keep --fail-rate 0.5 --token-ttl 2s
set -euo pipefail
B=$(realpath "${1:-target/release/ylemctl}")
N=${2:-20000}
MODE=${3:-keep}
shift $(( $# < 3 ? $# : 3 ))
W=$(mktemp -d)
cd "$W"
pids=()
trap 'for p in "${pids[@]}"; do kill "$p" 2>/dev/null || true; done; rm -rf "$W"' EXIT
"$B" sandbox --listen 127.0.0.1:0 --dialect ylem "$@" > banner.txt 2>&1 & pids+=($!)
for _ in $(seq 100); do grep -q '^Serving' banner.txt && break; sleep 0.1; done
export YLEM_BASE_URL=$(awk '/base URL/{print $3; exit}' banner.txt)
export YLEM_CLIENT_ID=$(awk '/client id/{print $3; exit}' banner.txt)
export YLEM_CLIENT_SECRET=$(awk '/client secret/{print $3; exit}' banner.txt)
export YLEM_CONFIG_DIR=$W/cfg
IDS="$(awk '/^Pipelines:/{on=1; next} /^Pipelines that/{on=0} on && /^  [0-9a-f]/ && length($1) == 36 {print $1}' banner.txt | head -4) $(awk '/^    task /{print "task:"$2}' banner.txt | head -4)"
"$B" metrics serve --listen 127.0.0.1:0 --cache 0s --retries 0 $IDS > ex.out 2> ex.err & EX=$!; pids+=($EX)
for _ in $(seq 100); do grep -q '^Serving' ex.out && break; sleep 0.1; done
PORT=$(sed -n 's#^Serving http://127.0.0.1:\([0-9]*\)/.*#\1#p' ex.out)
python3 - "$PORT" "$EX" "$N" "$MODE" <<'PY'
import http.client, os, sys, time
port, pid, n, mode = int(sys.argv[1]), sys.argv[2], int(sys.argv[3]), sys.argv[4]
def rss():
    for l in open(f"/proc/{pid}/status"):
        if l.startswith("VmRSS"):
            return int(l.split()[1])
conn = lambda: http.client.HTTPConnection("127.0.0.1", port, timeout=10)
c = conn(); t0 = time.time(); bad = 0
print("scrapes rss_kb fds seconds")
for i in range(n + 1):
    if i % max(n // 10, 1) == 0:
        print(i, rss(), len(os.listdir(f"/proc/{pid}/fd")), round(time.time() - t0, 1), flush=True)
    if mode == "new":
        c = conn()
    c.request("GET", "/metrics"); r = c.getresponse(); body = r.read()
    bad += r.status != 200 or b"ylem_up" not in body
print("bad scrapes", bad)
PY
echo "exporter log lines: $(wc -l < ex.err) ($(grep -c '^error:' ex.err || true) starts of failing, $(grep -c 'recovered after' ex.err || true) recoveries)"
