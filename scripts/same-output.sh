#!/usr/bin/env bash
# Compares what two ylemctl binaries print for the README's read-only
# examples, in every output format and in a fitted 80-column table on a
# pseudo-terminal, against one sandbox; and the help (--help, -h, help) of
# every command and subcommand, and the usage errors clap reports: a
# refactoring keeps outputs byte for byte.
# Usage: scripts/same-output.sh OLD_BINARY NEW_BINARY
set -euo pipefail
work=$(mktemp -d)
# Both called ylemctl, whatever their files are named: clap's usage lines
# name the program as it was called.
mkdir "$work/old" "$work/new"
ln -s "$(realpath "$1")" "$work/old/ylemctl"
ln -s "$(realpath "$2")" "$work/new/ylemctl"
old=$work/old/ylemctl new=$work/new/ylemctl
trap 'kill $sb 2>/dev/null || true; rm -rf "$work"' EXIT
env -i PATH="$PATH" "$old" sandbox --listen 127.0.0.1:0 --seed 7 --dialect "${DIALECT:-ylem}" >"$work/banner" 2>/dev/null &
sb=$!
for _ in $(seq 100); do grep -q '^Serving' "$work/banner" 2>/dev/null && break; sleep 0.1; done
base=$(awk '/^  base URL/ {print $3}' "$work/banner")
id=$(awk '/^  client id/ {print $3}' "$work/banner")
secret=$(awk '/^  client secret/ {print $3}' "$work/banner")
mapfile -t pipes < <(awk '/^Pipelines:/ {p=1; next} /^Workflows/ {p=0} p && length($1)==36 {print $1}' "$work/banner")
wf=$(awk '/^Workflows/ {w=1; next} w && length($1)==36 {print $1; exit}' "$work/banner")
p=${pipes[0]} q=${pipes[1]}
# Only what is set here reaches ylemctl: nothing of the caller's
# environment (a stale YLEM_CLIENT_ID, a TZ, a profile) takes part.
clean=(env -i PATH="$PATH" HOME="$work" TZ=UTC NO_COLOR=1 TERM=xterm
  YLEM_BASE_URL="$base" YLEM_CLIENT_ID="$id" YLEM_CLIENT_SECRET="$secret")
examples=(
  "stats pipeline $p --since 7d"
  "stats pipeline $p $q --since 30d"
  "aggregate pipeline $p --period week --count 8"
  "aggregate pipeline $p --period week --count 8 --chart"
  "aggregate workflow $wf --period month --count 3"
  "last-run pipeline $p"
  "last-run pipeline $p $q"
  "last-run workflow $wf"
  "logs $p --since 1d"
  "logs $p --since 1d --failed --decode"
  "runs $p --since 1d"
  "runs $p --since 1d --failed"
  "runs $p --run latest-failed --since 2d"
  "status pipeline:$p pipeline:$q workflow:$wf"
  "status pipeline:$p pipeline:$q --fields name,last_run,age,failure"
  "check pipeline $p --max-age 25h,49h --max-failure-rate 10,25 --window 7d"
)
# status's last_run_age counts milliseconds up to now, its table shows it
# to the second ("24m 14s ago") and check's performance data in seconds
# (age=4655s), and a window ending now in a URL an error names: the
# values that may differ between two runs a moment apart.
norm() {
  python3 -c '
import csv, io, re, sys
t = sys.stdin.read()
t = re.sub(r"\"last_run_age\":\s*[0-9]+", "\"last_run_age\":N", t)
t = re.sub(r"(?:[0-9]+[dhms] )*[0-9]+[dhms] ago", "AGE ago", t)
t = re.sub(r"\bage=[0-9]+s", "age=Ns", t)
t = re.sub(r"[0-9]{4}-[0-9]{2}-[0-9]{2}%20[0-9]{2}:[0-9]{2}:[0-9]{2}", "TIME", t)
lines = t.split("\n")
head = [k for k, l in enumerate(lines) if "last_run_age" in l.split(",")]
if head:
    k = head[0]
    rows = list(csv.reader(io.StringIO("\n".join(lines[k:]))))
    i = rows[0].index("last_run_age")
    out = io.StringIO()
    w = csv.writer(out, lineterminator="\n")
    for r in rows:
        w.writerow(r[:i] + ["N"] + r[i + 1:] if len(r) > i else r)
    t = "\n".join(lines[:k]) + "\n" + out.getvalue()
sys.stdout.write(t)'
}
differ=0 n=0 failed=0
for e in "${examples[@]}"; do
  for fmt in table json jsonl csv; do
    case "$fmt:$e" in csv:*--chart* | json*:*--chart* | *:check*) [ "$fmt" = table ] || continue ;; esac
    n=$((n + 1))
    read -ra args <<<"$e"
    a=$("${clean[@]}" "$old" "${args[@]}" -o "$fmt" 2>&1 | norm; echo "exit ${PIPESTATUS[0]}")
    case "$a" in *"exit 0") ;; *) failed=$((failed + 1)); [ -n "${SHOW:-}" ] && echo "$e -o $fmt: $a" ;; esac
    b=$("${clean[@]}" "$new" "${args[@]}" -o "$fmt" 2>&1 | norm; echo "exit ${PIPESTATUS[0]}")
    if [ "$a" != "$b" ]; then
      differ=$((differ + 1)); echo "DIFFERS: ylemctl $e -o $fmt"; diff <(echo "$a") <(echo "$b") | head -10 || true
    fi
  done
  # A table fitted to an 80-column terminal.
  n=$((n + 1))
  a=$("${clean[@]}" COLUMNS=80 script -qec "$old $e" /dev/null 2>&1 | norm || true)
  b=$("${clean[@]}" COLUMNS=80 script -qec "$new $e" /dev/null 2>&1 | norm || true)
  if [ "$a" != "$b" ]; then
    differ=$((differ + 1)); echo "DIFFERS (80 columns): ylemctl $e"; diff <(echo "$a") <(echo "$b") | head -10 || true
  fi
done
# Help and usage errors: stdout, stderr and exit status of both, off a
# terminal (clap's default width) and at 80 columns. The commands are the
# ones the old binary's help lists, so a command gone is a difference too.
compare() {
  local cols=$1 a b; shift
  local e=("${clean[@]}")
  [ -n "$cols" ] && e+=(COLUMNS="$cols")
  n=$((n + 1))
  a=$("${e[@]}" "$old" "$@" 2>"$work/err"; echo "exit $?"; echo "stderr:"; cat "$work/err")
  b=$("${e[@]}" "$new" "$@" 2>"$work/err"; echo "exit $?"; echo "stderr:"; cat "$work/err")
  if [ "$a" != "$b" ]; then
    differ=$((differ + 1)); echo "DIFFERS: ${cols:+COLUMNS=$cols }ylemctl $*"; diff <(echo "$a") <(echo "$b") | head -10 || true
  fi
}
# The commands a help text lists, but `help`.
subcommands() {
  awk '/^Commands:/ {c=1; next} c && /^$/ {exit} c && /^  [a-z]/ && $1 != "help" {print $1}'
}
paths=("")
mapfile -t top < <("${clean[@]}" "$old" --help | subcommands)
for c in "${top[@]}"; do
  paths+=("$c")
  mapfile -t subs < <("${clean[@]}" "$old" "$c" --help | subcommands)
  for s in "${subs[@]}"; do paths+=("$c $s"); done
done
helps=0
for path in "${paths[@]}"; do
  read -ra words <<<"$path"
  helps=$((helps + 1))
  for cols in "" 80; do
    compare "$cols" "${words[@]}" --help
    compare "$cols" "${words[@]}" -h
  done
  compare "" help "${words[@]}"
done
# Usage errors found before anything is sent: a missing argument or
# subcommand, a flag that needs another, an unknown flag and its advice,
# a bad value (check's own UNKNOWN status line), JSON errors.
usage=(
  "" "bogus" "run" "run pipeline" "run pipeline $p --poll 1s" "run pipeline $p --heartbeat 1s"
  "run pipeline $p --decrypt-key-file" "run pipeline $p --rerun x --input {}"
  "logs" "logs $p --poll 1s" "logs $p --since 1d --from today" "logs $p --json"
  "runs" "runs $p --poll 1s" "runs $p --heartbeat 1s" "runs $p --exit-status" "runs $p --failed --run latest"
  "stats" "stats pipeline" "stats pipeline $p --json" "stats pipeline $p -o json --nope" "stats nothing $p"
  "aggregate pipeline $p --since 7d" "aggregate pipeline $p --since 7d -o json" "aggregate pipeline $p --count 0"
  "last-run" "last-run pipeline $p --running-ok"
  "check" "check pipeline" "check pipeline $p --max-age soon" "check pipeline $p --max-age soon -o json" "check pipeline $p --json"
  "status --watch" "watch --interval 0s" "doctor --nope"
  "metrics" "metrics serve --listen nowhere" "auth" "auth token --min-ttl soon" "alias" "alias set" "alias remove"
  "completions" "completions tcsh" "sandbox --dialect other" "login --store nowhere" "logout extra" "demo extra"
)
for e in "${usage[@]}"; do
  read -ra words <<<"$e"
  compare "" "${words[@]}"
  compare "" "${words[@]}" -o json
done
echo "$helps commands' help; $n outputs compared ($failed of the examples a non-zero exit, as the README shows), $differ differ"
[ "$differ" = 0 ]
