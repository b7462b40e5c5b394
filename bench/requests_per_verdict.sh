#!/usr/bin/env bash
# Requests per verdict (issue 42): for each dialect, a sandbox on loopback
# (its request log, GET /_sandbox/requests, counts what reached it), and
# last-run, check, status and runs --run of one pipeline's last run, each
# run twice with one config directory: cold (an empty cache directory) and
# with the basis kept. Prints one line per command: dialect, command,
# requests cold, requests warm (token requests included), and how many of
# them were log requests. Usage:
#   bench/requests_per_verdict.sh [BINARY]     (default target/debug/ylemctl)
set -euo pipefail
B=$(realpath "${1:-target/debug/ylemctl}")
W=$(mktemp -d)
trap 'kill "${pids[@]}" 2>/dev/null || true; rm -rf "$W"' EXIT
pids=()
count() { # base: requests so far (all, logs)
    curl -s "$1/_sandbox/requests" | python3 -c 'import json,sys; r=json.load(sys.stdin); print(len(r), sum("/logs/" in x for x in r))'
}
for d in ylem spec; do
    "$B" sandbox --listen 127.0.0.1:0 --dialect "$d" -o json --task-delay 100ms >"$W/sb-$d.json" 2>/dev/null &
    pids+=($!)
    for _ in $(seq 50); do [ -s "$W/sb-$d.json" ] && break; sleep 0.1; done
    read -r base id secret p < <(head -1 "$W/sb-$d.json" | python3 -c 'import json,sys; b=json.load(sys.stdin); p=[x["uuid"] for x in b["pipelines"] if x["name"]=="customer-churn-alerts"][0]; print(b["base_url"], b["client_id"], b["client_secret"], p)')
    export YLEM_BASE_URL=$base YLEM_CLIENT_ID=$id YLEM_CLIENT_SECRET=$secret
    run=$(YLEM_CONFIG_DIR=$W/probe "$B" last-run pipeline "$p" -o json --jq .run_uuid)
    for c in "last-run pipeline $p" "check pipeline $p" "status $p" "runs $p --run $run" "runs $p --run $run --since 3d"; do
        export YLEM_CONFIG_DIR=$W/cfg-$d-$RANDOM
        out=()
        for pass in cold warm; do
            read -r n0 l0 < <(count "$base")
            # shellcheck disable=SC2086
            "$B" $c >/dev/null 2>&1 || true
            read -r n1 l1 < <(count "$base")
            out+=("$pass $((n1 - n0)) ($((l1 - l0)) logs)")
        done
        printf '%s\t%s\t%s\t%s\n' "$d" "${c//$p/P}" "${out[0]}" "${out[1]}" | sed "s/$run/R/"
    done
done
