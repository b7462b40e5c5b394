#!/usr/bin/env bash
# bench/export_day.sh owns the benchmark of `export` over a day of 100
# pipelines: a sandbox with `--extra-pipelines 95` (its 5 ordinary
# pipelines and 95 more, each run about hourly), `export otlp --since 1d`
# of all 100 to stdout, to a loopback OTLP/HTTP receiver and `export
# openlineage` to a loopback OpenLineage endpoint, cold (an empty cache
# directory) and warm (the runs' bases kept). For each: wall time
# (hyperfine median), peak RSS, requests to the service (counted from
# `-v`'s request lines: the sandbox's own request log keeps only the last
# 1000), requests to the receiver, runs and spans or events. Prints a
# Markdown table; BENCHMARKS.md holds the last run.
#
#   bench/export_day.sh BINARY [EXTRA]     EXTRA pipelines (default 95)
#
# Environment: BENCH_RUNS (hyperfine runs per case, default 3). Needs
# hyperfine, jq, curl, python3 and /usr/bin/time. Only 127.0.0.1 is ever
# contacted; the receivers are this script's own (Python's http.server),
# so the bench needs no package beyond the standard library.
set -euo pipefail
BIN=$(realpath "${1:?usage: bench/export_day.sh BINARY [EXTRA]}")
EXTRA=${2:-95}
RUNS=${BENCH_RUNS:-3}
# Proxies from the environment must not divert loopback traffic.
unset http_proxy https_proxy HTTP_PROXY HTTPS_PROXY ALL_PROXY all_proxy
export NO_PROXY=127.0.0.1 no_proxy=127.0.0.1
export LC_ALL=C
# The exporter's own variables would redirect it: only the flags count.
unset OTEL_EXPORTER_OTLP_ENDPOINT OTEL_EXPORTER_OTLP_TRACES_ENDPOINT \
    OTEL_EXPORTER_OTLP_PROTOCOL OPENLINEAGE_URL OPENLINEAGE_NAMESPACE

for t in hyperfine jq curl python3 /usr/bin/time; do
    command -v "$t" >/dev/null || {
        echo "bench: missing $t (apt-get install hyperfine jq curl python3 time)" >&2
        exit 1
    }
done

WORK=$(mktemp -d)
PIDS=()
cleanup() {
    for p in "${PIDS[@]}"; do kill "$p" 2>/dev/null || true; done
    for p in "${PIDS[@]}"; do wait "$p" 2>/dev/null || true; done
    rm -rf "$WORK"
}
trap cleanup EXIT
CFG=$WORK/config
export YLEM_CONFIG_DIR=$CFG

# Wait (at most 30 s: 100 pipelines' history is seeded at start) for a
# line matching $2 in file $1; print the match.
wait_for() {
    local i
    for i in $(seq 300); do
        if grep -m1 -E "$2" "$1" 2>/dev/null; then return 0; fi
        sleep 0.1
    done
    echo "bench: timed out waiting for '$2' in $1" >&2
    cat "$1" >&2
    exit 1
}

# As bench/run.sh's: a sandbox on a free port, its banner read as JSON
# (`-o json`: one object on its first line); sets SB_URL, SB_PID.
start_sandbox() {
    local banner=$WORK/sandbox.json log=$WORK/sandbox.log
    "$BIN" sandbox --listen 127.0.0.1:0 -o json "$@" >"$banner" 2>"$log" &
    SB_PID=$!
    PIDS+=("$SB_PID")
    wait_for "$banner" '"base_url"' >/dev/null
    SB_URL=$(head -1 "$banner" | jq -r .base_url)
    export YLEM_BASE_URL=$SB_URL
    YLEM_CLIENT_ID=$(head -1 "$banner" | jq -r .client_id)
    YLEM_CLIENT_SECRET=$(head -1 "$banner" | jq -r .client_secret)
    export YLEM_CLIENT_ID YLEM_CLIENT_SECRET
    mapfile -t IDS < <(head -1 "$banner" | jq -r '.pipelines[].uuid')
}

# The receiver: 200 to POST /v1/traces (an empty ExportTraceServiceResponse,
# in the request's encoding: no partial success), 201 to POST
# /api/v1/lineage, 404 to anything else; counts requests, bytes, spans of
# OTLP JSON and lineage events; GET /_stats reads the counts, /_reset
# zeroes them. Threads, and HTTP/1.1 so a client keeps its connection.
cat >"$WORK/receiver.py" <<'EOF'
import json, sys, threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

ZERO = {"posts": 0, "bytes": 0, "traces": 0, "spans": 0, "events": 0, "other": 0}
stats, lock = dict(ZERO), threading.Lock()

class H(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"

    def log_message(self, *args):
        pass

    def reply(self, code, body=b"", ctype="application/json"):
        self.send_response(code)
        self.send_header("Content-Type", ctype)
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def count(self, **n):
        with lock:
            for k, v in n.items():
                stats[k] += v

    def do_POST(self):
        body = self.rfile.read(int(self.headers.get("Content-Length") or 0))
        self.count(posts=1, bytes=len(body))
        ctype = self.headers.get("Content-Type", "")
        if self.path == "/v1/traces" and ctype.startswith("application/json"):
            d = json.loads(body)
            spans = sum(len(s.get("spans", [])) for r in d.get("resourceSpans", []) for s in r.get("scopeSpans", []))
            self.count(traces=1, spans=spans)
            self.reply(200, b"{}")
        elif self.path == "/v1/traces":
            self.count(traces=1)
            self.reply(200, b"", "application/x-protobuf")
        elif self.path == "/api/v1/lineage":
            json.loads(body)
            self.count(events=1)
            self.reply(201)
        else:
            self.count(other=1)
            self.reply(404)

    def do_GET(self):
        global stats
        if self.path == "/_stats":
            with lock:
                body = json.dumps(stats).encode()
            self.reply(200, body)
        elif self.path == "/_reset":
            with lock:
                stats = dict(ZERO)
            self.reply(200, b"{}")
        else:
            self.reply(404)

srv = ThreadingHTTPServer(("127.0.0.1", 0), H)
with open(sys.argv[1] + ".tmp", "w") as f:
    f.write(str(srv.server_address[1]))
import os
os.rename(sys.argv[1] + ".tmp", sys.argv[1])
srv.serve_forever()
EOF
python3 "$WORK/receiver.py" "$WORK/rx.port" &
PIDS+=($!)
for _ in $(seq 100); do [[ -s $WORK/rx.port ]] && break; sleep 0.1; done
RX=http://127.0.0.1:$(cat "$WORK/rx.port")
rx_stats() { curl -sf "$RX/_stats"; }

T0=$(date +%s.%N)
start_sandbox --extra-pipelines "$EXTRA"
START_S=$(awk -v a="$T0" -v b="$(date +%s.%N)" 'BEGIN { printf "%.2f", b - a }')
echo "bench: sandbox up in ${START_S} s with ${#IDS[@]} pipelines" >&2

# The cases: a name and the export's arguments after `BIN export`.
NAMES=(stdout otlp otlp-json lineage)
declare -A ARGS=(
    [stdout]="otlp --since 1d"
    [otlp]="otlp --since 1d --endpoint $RX"
    [otlp-json]="otlp --since 1d --endpoint $RX --protocol http/json"
    [lineage]="openlineage --since 1d --url $RX"
)
declare -A LABEL=(
    [stdout]='`export otlp` → stdout (OTLP JSON lines)'
    [otlp]='`export otlp --endpoint` (http/protobuf)'
    [otlp-json]='`export otlp --endpoint --protocol http/json`'
    [lineage]='`export openlineage --url`'
)

# One export (cache cold or warm), with -v: its stderr's request lines
# counted (`GET /v1/...`, `POST /v1/oauth/token`), the receiver's counts
# read. Prints "service-requests log-requests rx-posts rx-spans rx-events
# runs items" and keeps stdout in $WORK/$1-$2.out.
measure() {
    local name=$1 pass=$2 err=$WORK/$1-$2.err out=$WORK/$1-$2.out
    [[ $pass == cold ]] && rm -rf "$CFG/cache"
    curl -sf "$RX/_reset" >/dev/null
    # shellcheck disable=SC2086
    "$BIN" export ${ARGS[$name]} "${IDS[@]}" -v >"$out" 2>"$err"
    local svc logs
    svc=$(grep -cE '^(GET|POST) /v1/' "$err" || true)
    logs=$(grep -cE '^GET /v1/.*/logs/' "$err" || true)
    local s
    s=$(rx_stats)
    # `exported 12 runs (57 spans) to ...` / `(24 events)`; stdout too.
    local summary runs items
    summary=$(grep -E '^exported [0-9]+ runs' "$err" | tail -1)
    runs=$(sed -E 's/^exported ([0-9]+) runs.*/\1/' <<<"$summary")
    items=$(sed -E 's/^exported [0-9]+ runs \(([0-9]+) .*/\1/' <<<"$summary")
    echo "$svc $logs $(jq -r '"\(.posts) \(.spans) \(.events)"' <<<"$s") ${runs:-?} ${items:-?}"
}

# Check first what `-v` prints for a request, so the counts mean something.
measure stdout cold >/dev/null
if ! grep -qE '^(GET|POST) /v1/' "$WORK/stdout-cold.err"; then
    echo "bench: -v printed no request lines; first lines of its stderr:" >&2
    head -5 "$WORK/stdout-cold.err" >&2
    exit 1
fi
LINES=$(wc -l <"$WORK/stdout-cold.out")
SPANS=$(jq -s '[.[].resourceSpans[].scopeSpans[].spans | length] | add' "$WORK/stdout-cold.out")

ms_or_s() { awk -v s="$1" 'BEGIN { if (s < 1) printf "%.0f ms", s * 1000; else printf "%.2f s", s }'; }
echo "| export of a day, ${#IDS[@]} pipelines | cache | wall time (median of $RUNS, min-max) | peak RSS | service requests (logs) | receiver requests | runs | spans / events |"
echo "|---|---|---|---|---|---|---|---|"
for name in "${NAMES[@]}"; do
    for pass in cold warm; do
        read -r svc logs posts rxspans events runs items < <(measure "$name" "$pass")
        # Peak RSS of one more run, as cold or warm as the measured one.
        [[ $pass == cold ]] && rm -rf "$CFG/cache"
        # shellcheck disable=SC2086
        rss=$(/usr/bin/time -f %M "$BIN" export ${ARGS[$name]} "${IDS[@]}" 2>&1 >/dev/null | tail -1)
        prep=true
        [[ $pass == cold ]] && prep="rm -rf $CFG/cache"
        # shellcheck disable=SC2086
        hyperfine -N --style none --runs "$RUNS" --prepare "$prep" \
            --export-json "$WORK/$name-$pass.json" \
            "$BIN export ${ARGS[$name]} ${IDS[*]}" >/dev/null 2>&1
        read -r med lo hi < <(jq -r '.results[0] | "\(.median) \(.min) \(.max)"' "$WORK/$name-$pass.json")
        case $name in
            stdout) rx="-" ;;
            *) rx=$posts ;;
        esac
        case $name in
            otlp-json) what="$items spans ($rxspans at the receiver)" ;;
            lineage) what="$items events ($events at the receiver)" ;;
            *) what="$items spans" ;;
        esac
        printf '| %s | %s | %s (%s-%s) | %.1f MB | %s (%s) | %s | %s | %s |\n' \
            "${LABEL[$name]}" "$pass" "$(ms_or_s "$med")" "$(ms_or_s "$lo")" "$(ms_or_s "$hi")" \
            "$(awk -v k="$rss" 'BEGIN { print k / 1024 }')" "$svc" "$logs" "$rx" "$runs" "$what"
    done
done
SB_HWM=$(awk '/VmHWM/ { printf "%.1f MB", $2 / 1024 }' "/proc/$SB_PID/status")
echo
echo "stdout: $LINES lines (one per run), $SPANS spans; sandbox: up in $START_S s, peak RSS $SB_HWM; load average $(cut -d' ' -f1-3 /proc/loadavg)"
