#!/usr/bin/env bash
# Soak test of the long-running modes (issue 26), on loopback only and
# bounded in time: a sandbox (ylem dialect) with faults and short tokens,
# `metrics serve` scraped every second, and `logs --follow` beside it while
# runs are started. Every 30 s: the exporter's and the follow's RSS and open
# files. At the end: failed or malformed scrapes, token requests per
# renewal, and entries the follow missed or printed twice (against a final
# `logs` read and the sandbox's ground truth). Usage:
#   bench/soak.sh DURATION [BINARY] [WORK_DIR]      e.g. bench/soak.sh 30m
# DURATION: Ns, Nm or Nh (at most 24h). Knobs (environment): SOAK_FAIL_RATE
# (0.05), SOAK_TOKEN_TTL (20s), SOAK_CACHE (5s), SOAK_RUN_EVERY (15, seconds).
set -euo pipefail
DUR=${1:?duration, e.g. 30m}
B=$(realpath "${2:-target/release/ylemctl}")
REPO=$(cd "$(dirname "$0")/.." && pwd)
REV=$(git -C "$REPO" rev-parse --short HEAD 2>/dev/null || echo '?')
W=${3:-$(mktemp -d)}
FAIL=${SOAK_FAIL_RATE:-0.05}
TTL=${SOAK_TOKEN_TTL:-20s}
CACHE=${SOAK_CACHE:-5s}
RUN_EVERY=${SOAK_RUN_EVERY:-15}
case $DUR in
*h) SECS=$((${DUR%h} * 3600)) ;;
*m) SECS=$((${DUR%m} * 60)) ;;
*s) SECS=${DUR%s} ;;
*) echo "duration: Ns, Nm or Nh" >&2; exit 2 ;;
esac
[ "$SECS" -ge 120 ] && [ "$SECS" -le 86400 ] || { echo "duration: 2m to 24h" >&2; exit 2; }
mkdir -p "$W" && cd "$W"
export YLEM_CONFIG_DIR=$W/cfg

pids=()
cleanup() { for p in "${pids[@]}"; do kill "$p" 2>/dev/null || true; done; }
trap cleanup EXIT

# Wait (at most 20 s) for a line matching $2 in file $1.
wait_line() {
    for _ in $(seq 200); do grep -q "$2" "$1" 2>/dev/null && return 0; sleep 0.1; done
    echo "never saw '$2' in $1" >&2; exit 1
}

"$B" sandbox --listen 127.0.0.1:0 --dialect ylem --fail-rate "$FAIL" --token-ttl "$TTL" \
    --task-delay 100ms > banner.txt 2>&1 &
SB=$!; pids+=("$SB")
wait_line banner.txt '^Serving'
export YLEM_BASE_URL=$(awk '/base URL/{print $3; exit}' banner.txt)
export YLEM_CLIENT_ID=$(awk '/client id/{print $3; exit}' banner.txt)
export YLEM_CLIENT_SECRET=$(awk '/client secret/{print $3; exit}' banner.txt)
case $YLEM_BASE_URL in http://127.0.0.1:*) ;; *) echo "not loopback: $YLEM_BASE_URL" >&2; exit 1 ;; esac
# The first four pipelines and four tasks of the banner.
PIPES=$(awk '/^Pipelines:/{on=1; next} /^Pipelines that/{on=0} on && /^  [0-9a-f]/ && length($1) == 36 {print $1}' banner.txt | head -4)
TASKS=$(awk '/^    task /{print "task:"$2}' banner.txt | head -4)
IDS="$PIPES $TASKS"
NIDS=$(echo $IDS | wc -w)
P=$(echo $PIPES | awk '{print $1}')

"$B" metrics serve --listen 127.0.0.1:0 --cache "$CACHE" -v $IDS > exporter.out 2> exporter.err &
EX=$!; pids+=("$EX")
wait_line exporter.out '^Serving'
MADDR=$(sed -n 's#^Serving http://\([^/]*\)/metrics.*#\1#p' exporter.out)
case $MADDR in 127.0.0.1:*) ;; *) echo "not loopback: $MADDR" >&2; exit 1 ;; esac

START=$(date -u '+%Y-%m-%d %H:%M:%S')
"$B" logs "$P" --follow --since now -o jsonl > follow.jsonl 2> follow.err &
FO=$!; pids+=("$FO")

sample() { # elapsed s, then RSS kB, peak kB and open files of the exporter and the follow
    local row="$1"
    for p in "$EX" "$FO"; do
        if [ -d /proc/$p ]; then
            row="$row,$(awk '/^VmRSS/{r=$2} /^VmHWM/{h=$2} END{print r","h}' /proc/$p/status),$(ls /proc/$p/fd | wc -l)"
        else
            row="$row,gone,gone,gone"
        fi
    done
    echo "$row,$(grep -c '^POST /v1/oauth/token' exporter.err || true),$ok,$bad" >> samples.csv
}
echo "elapsed_s,exporter_rss_kb,exporter_peak_kb,exporter_fds,follow_rss_kb,follow_peak_kb,follow_fds,exporter_token_requests,scrapes_ok,scrapes_bad" > samples.csv
ok=0; bad=0; n=0; : > runs.txt; : > bad_scrapes.txt
T0=$(date +%s); next_sample=0; next_run=5
while :; do
    el=$(( $(date +%s) - T0 ))
    [ "$el" -ge "$SECS" ] && break
    if [ "$el" -ge "$next_sample" ]; then sample "$el"; next_sample=$((next_sample + 30)); fi
    # Runs for the follow to see, stopping a minute before the end so that
    # the follow has caught up with all of them when it is stopped.
    if [ "$el" -ge "$next_run" ] && [ "$el" -lt $((SECS - 60)) ]; then
        "$B" run pipeline "$P" --jq .run_uuid --retries 0 2>/dev/null \
            >> runs.txt 2>/dev/null || true
        next_run=$((next_run + RUN_EVERY))
    fi
    n=$((n + 1))
    code=$(curl -s -o scrape.txt -w '%{http_code}' --max-time 10 "http://$MADDR/metrics" || echo 000)
    # Whole and well formed: HTTP 200, one ylem_up per ID, every line a
    # comment or a sample; promtool on every 60th.
    if [ "$code" = 200 ] && [ "$(grep -c '^ylem_up{' scrape.txt)" = "$NIDS" ] \
        && ! grep -vqE '^(#.*|[a-z_]+(\{[^}]*\})? -?[0-9.eE+-]+|[a-z_]+(\{[^}]*\})? NaN)$' scrape.txt \
        && { [ $((n % 60)) != 0 ] || promtool check metrics < scrape.txt > /dev/null 2>&1; }; then
        ok=$((ok + 1))
    else
        bad=$((bad + 1)); { echo "scrape $n at ${el}s: HTTP $code"; head -5 scrape.txt; } >> bad_scrapes.txt
    fi
    sleep 1
done
sample "$(( $(date +%s) - T0 ))"

# Stop the follow and the exporter as a supervisor does.
kill -TERM "$FO"; fo_code=0; wait "$FO" || fo_code=$?
kill -TERM "$EX"; ex_code=0; wait "$EX" || ex_code=$?

# The log as a final read sees it (retried through the faults).
for _ in 1 2 3 4 5; do
    "$B" logs "$P" --from "$START" --to now -o jsonl --retries 10 > final.jsonl 2> final.err && break
done
python3 - "$W" > follow_check.txt <<'PY'
import json, sys, urllib.request, os
w = sys.argv[1]
base = os.environ["YLEM_BASE_URL"]
runs = [l.strip() for l in open(f"{w}/runs.txt") if l.strip()]
key = lambda e: (e["workflow_run_uuid"], e["task_uuid"], e["executed_at"])
follow = [json.loads(l) for l in open(f"{w}/follow.jsonl") if l.strip()]
final = [json.loads(l) for l in open(f"{w}/final.jsonl") if l.strip()]
fk = [key(e) for e in follow if e["workflow_run_uuid"] in runs]
want = {key(e) for e in final if e["workflow_run_uuid"] in runs}
truth = 0
for r in runs:
    t = json.load(urllib.request.urlopen(f"{base}/_sandbox/runs/{r}", timeout=10))
    truth += t["reported"]
print(f"runs started {len(runs)}; entries: truth {truth}, final read {len(want)}, follow {len(fk)}; "
      f"missing {len(want - set(fk))}; repeated {len(fk) - len(set(fk))}; "
      f"follow beyond truth {len(set(fk) - want)}")
PY

tok_all=$(grep -c '^POST /v1/oauth/token' exporter.err || true)
tok_ok=$(grep -E '^POST /v1/oauth/token.* 200 ' -c exporter.err || true)
errors=$(grep -c '^error:' exporter.err || true)
recovered=$(grep -c 'recovered after failing' exporter.err || true)
{
    echo "soak $DUR: $REV $B"
    echo "sandbox: ylem, --fail-rate $FAIL, --token-ttl $TTL; exporter: $NIDS IDs, --cache $CACHE, scraped every 1 s"
    echo "scrapes: $n, ok $ok, failed or malformed $bad"
    echo "exporter token requests: $tok_all, answered 200: $tok_ok (requests per renewal: $(python3 -c "print(round($tok_all/max($tok_ok,1),2))"))"
    echo "exporter log: $errors 'error:' lines (an ID starting to fail), $recovered recoveries"
    echo "exit codes after SIGTERM: follow $fo_code, exporter $ex_code"
    cat follow_check.txt
    echo
    column -s, -t < samples.csv
} | tee summary.txt
echo "work dir: $W"
