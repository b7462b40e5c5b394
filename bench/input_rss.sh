#!/bin/bash
# Peak RSS of `run pipeline --input` with a 50 MB input against the sandbox
# (ylem dialect), measured with /usr/bin/time -v. Usage:
#   bench/input_rss.sh path/to/ylemctl [work dir]
set -e
B=$(realpath "${1:?path to the ylemctl binary}")
W=${2:-$(mktemp -d)}
mkdir -p "$W" && cd "$W"
# About 50 MB of JSON: one object with an array of orders.
[ -f big.json ] || python3 - <<'PY'
import json
with open('big.json', 'w') as f:
    f.write('{"orders":[\n')
    i, size = 0, 0
    while size < 50_000_000:
        line = json.dumps({"order_id": i, "customer": f"c{i}@example.com",
                           "items": [{"sku": f"SKU-{i % 997:04d}", "qty": i % 5 + 1,
                                      "price": round(i * 0.37 % 100, 2)}], "note": "é" * 5})
        f.write((',\n' if i else '') + line)
        size += len(line) + 2
        i += 1
    f.write('\n]}\n')
PY
ls -l big.json
$B sandbox --listen 127.0.0.1:7392 --dialect ylem > banner.txt & SB=$!
trap "kill $SB" EXIT
sleep 2
export YLEM_BASE_URL=http://127.0.0.1:7392 YLEM_CONFIG_DIR=$W/cfg
export YLEM_CLIENT_ID=$(awk '/client id/{print $3; exit}' banner.txt) YLEM_CLIENT_SECRET=$(awk '/client secret/{print $3; exit}' banner.txt)
P=$(awk '/order-intake-webhook/{print $1; exit}' banner.txt)
# A second pipeline for the two-ID case (another trigger-first one in seed 1).
P2=$(awk '/external trigger/ && !/order-intake-webhook/{print $1; exit}' banner.txt)
P2=${P2:-$P}
rss() { /usr/bin/time -v "$@" 2>&1 >/dev/null | awk -F': ' '/Maximum resident/{print $2" KB"} /Elapsed/{print "  wall "$2} /^error/{print}'; }
echo "no input:";            rss $B run pipeline $P
echo "--input @big.json:";   rss $B run pipeline $P --input @big.json
echo "--input @big.json, 2 IDs:"; rss $B run pipeline $P $P2 --input @big.json
echo "--input - < big.json:"; rss sh -c "$B run pipeline $P --input - < big.json"
echo "--input @big.json -vv (stderr bytes):"; $B run pipeline $P --input @big.json -vv 2>&1 >/dev/null | wc -c
echo "sandbox (holds every run's input):"; grep -E "VmHWM" /proc/$SB/status
