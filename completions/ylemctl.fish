# Print an optspec for argparse to handle cmd's options that are independent of any subcommand.
function __fish_ylemctl_global_optspecs
    string join \n p/profile= base-url= o/output= jq= fields= no-header csv-raw output-file= local connect-timeout= timeout= max-time= settle= retries= concurrency= color= v/verbose q/quiet h/help V/version
end

function __fish_ylemctl_needs_command
    # Figure out if the current invocation already has a command.
    set -l cmd (commandline -opc)
    set -e cmd[1]
    argparse -s (__fish_ylemctl_global_optspecs) -- $cmd 2>/dev/null
    or return
    if set -q argv[1]
        # Also print the command, so this can be used to figure out what it is.
        echo $argv[1]
        return 1
    end
    return 0
end

function __fish_ylemctl_using_subcommand
    set -l cmd (__fish_ylemctl_needs_command)
    test -z "$cmd"
    and return 1
    contains -- $cmd[1] $argv
end

complete -c ylemctl -n "__fish_ylemctl_needs_command" -s p -l profile -d 'Profile to use' -r
complete -c ylemctl -n "__fish_ylemctl_needs_command" -l base-url -d 'Base URL of the service (a profile\'s credentials go only to its own)' -r
complete -c ylemctl -n "__fish_ylemctl_needs_command" -s o -l output -d 'Output format (prometheus: stats, last-run, status and check; junit: run pipeline --wait and runs --run)' -r -f -a "table\t''
json\t''
jsonl\t''
csv\t''
prometheus\t''
junit\t''"
complete -c ylemctl -n "__fish_ylemctl_needs_command" -l jq -d 'Filter the JSON output with a jq expression, as gh --jq: strings raw (escaped on a terminal; off it a string may span lines: use tojson for one a line), other values compact, one a line; each row of logs, runs and -o jsonl on its own (implies -o json; exit 2 for a bad expression, before any request)' -r
complete -c ylemctl -n "__fish_ylemctl_needs_command" -l fields -d 'Columns or keys to keep, in this order (comma-separated); a table never leaves them out to fit the terminal' -r
complete -c ylemctl -n "__fish_ylemctl_needs_command" -l output-file -d 'With -o prometheus: write the exposition to PATH atomically (a temporary file in the same directory, then renamed), for node_exporter\'s textfile collector' -r -F
complete -c ylemctl -n "__fish_ylemctl_needs_command" -l connect-timeout -d 'Longest time to connect (TCP and TLS) [default: 10s]' -r
complete -c ylemctl -n "__fish_ylemctl_needs_command" -l timeout -d 'Longest wait for the server with no progress: the first byte, any stall between bytes; a body that keeps arriving is never cut [default: 60s]' -r
complete -c ylemctl -n "__fish_ylemctl_needs_command" -l max-time -d 'Longest time for the whole command, retries and waits included (off by default; `check` defaults to 50s, inside a monitoring plugin\'s 60 s)' -r
complete -c ylemctl -n "__fish_ylemctl_needs_command" -l settle -d 'The settle time of every command that judges a run (run --wait, runs, last-run, check, status, watch, metrics serve, logs -f --run): a pipeline run without a known task set has finished when no new task reported for this long, a workflow\'s success counts after it (also YLEM_SETTLE, or the profile\'s settle) [default: a pipeline\'s 3x the longest gap between two tasks of its past runs, at least 10s, 10m without history; a workflow\'s 10m]' -r
complete -c ylemctl -n "__fish_ylemctl_needs_command" -l retries -d 'Retries of idempotent requests (GET, token); a run start is never retried [default: 2]' -r
complete -c ylemctl -n "__fish_ylemctl_needs_command" -l concurrency -d 'Requests in flight at once when several IDs are given [default: 8]' -r
complete -c ylemctl -n "__fish_ylemctl_needs_command" -l color -d 'When to use colour (NO_COLOR turns it off even with always; CLICOLOR_FORCE on in auto)' -r -f -a "auto\t''
always\t''
never\t''"
complete -c ylemctl -n "__fish_ylemctl_needs_command" -l no-header -d 'No header row (table, csv)'
complete -c ylemctl -n "__fish_ylemctl_needs_command" -l csv-raw -d 'With -o csv: text cells as sent (by default one starting with = + - @, tab or CR gets a \' in front, so a spreadsheet does not run it as a formula, and control characters are escaped as in tables)'
complete -c ylemctl -n "__fish_ylemctl_needs_command" -l local -d 'Read naive times and show times in the local time zone (also YLEM_TZ=local)'
complete -c ylemctl -n "__fish_ylemctl_needs_command" -s v -l verbose -d '-v: one line per HTTP request on stderr; -vv: also headers and bodies (secrets redacted)'
complete -c ylemctl -n "__fish_ylemctl_needs_command" -s q -l quiet -d 'No spinner, notes or warnings'
complete -c ylemctl -n "__fish_ylemctl_needs_command" -s h -l help -d 'Print help'
complete -c ylemctl -n "__fish_ylemctl_needs_command" -s V -l version -d 'Print version'
complete -c ylemctl -n "__fish_ylemctl_needs_command" -f -a "run" -d 'Start runs of pipelines or workflows (runs are not idempotent: never retried)'
complete -c ylemctl -n "__fish_ylemctl_needs_command" -f -a "logs" -d 'Show a pipeline\'s run log over a time window'
complete -c ylemctl -n "__fish_ylemctl_needs_command" -f -a "runs" -d 'A pipeline\'s runs over a time window, newest first, with their result; or one run whole (--run)'
complete -c ylemctl -n "__fish_ylemctl_needs_command" -f -a "stats" -d 'Consolidated statistics over a time window (default: the last 24 hours)'
complete -c ylemctl -n "__fish_ylemctl_needs_command" -f -a "aggregate" -d 'Statistics per day, week, month, quarter or year'
complete -c ylemctl -n "__fish_ylemctl_needs_command" -f -a "last-run" -d 'Statistics of the last run'
complete -c ylemctl -n "__fish_ylemctl_needs_command" -f -a "check" -d 'A monitoring check (Nagios, Icinga, Zabbix, cron): one status line, exit 0 OK, 1 WARNING, 2 CRITICAL, 3 UNKNOWN'
complete -c ylemctl -n "__fish_ylemctl_needs_command" -f -a "status" -d 'One row per pipeline, workflow or task: last run, runs and failures in 24 h, a 7-day failure sparkline'
complete -c ylemctl -n "__fish_ylemctl_needs_command" -f -a "doctor" -d 'Say why the tool cannot talk to the service, and what to do: set-up, network and TLS, clock, credentials, the API, aliases'
complete -c ylemctl -n "__fish_ylemctl_needs_command" -f -a "watch" -d 'Watch pipelines, workflows and tasks live: a board on a terminal, an event stream (JSON lines) for scripts'
complete -c ylemctl -n "__fish_ylemctl_needs_command" -f -a "metrics" -d 'A Prometheus exporter: serve /metrics for IDs and aliases'
complete -c ylemctl -n "__fish_ylemctl_needs_command" -f -a "export" -d 'Export finished runs: each a trace (OpenTelemetry) or run events (OpenLineage)'
complete -c ylemctl -n "__fish_ylemctl_needs_command" -f -a "sandbox" -d 'Serve the whole API on loopback from memory, for trying ylemctl and testing scripts'
complete -c ylemctl -n "__fish_ylemctl_needs_command" -f -a "demo" -d 'Start a sandbox in-process and walk through every command against it'
complete -c ylemctl -n "__fish_ylemctl_needs_command" -f -a "login" -d 'Log in with an OAuth client: check it by fetching a token, then save it in the profile'
complete -c ylemctl -n "__fish_ylemctl_needs_command" -f -a "logout" -d 'Remove the profile\'s stored secret and token (its base URL and client id stay)'
complete -c ylemctl -n "__fish_ylemctl_needs_command" -f -a "auth" -d 'Show the login state, or print a token for other tools'
complete -c ylemctl -n "__fish_ylemctl_needs_command" -f -a "alias" -d 'Names for UUIDs, usable wherever an ID is'
complete -c ylemctl -n "__fish_ylemctl_needs_command" -f -a "completions" -d 'Print a shell completion script'
complete -c ylemctl -n "__fish_ylemctl_needs_command" -f -a "help" -d 'Print this message or the help of the given subcommand(s)'
complete -c ylemctl -n "__fish_ylemctl_using_subcommand run" -l input -d 'The pipeline run\'s input: JSON text, @FILE (a file\'s contents) or - (standard input)' -r
complete -c ylemctl -n "__fish_ylemctl_using_subcommand run" -l rerun -d 'Start the pipeline with the same input as its run RUN_UUID: the output of that run\'s external trigger entry, byte for byte' -r
complete -c ylemctl -n "__fish_ylemctl_using_subcommand run" -l since -d 'With --rerun: start of the window to find the run in, e.g. 7d, or a TIME (the window then ends now)' -r
complete -c ylemctl -n "__fish_ylemctl_using_subcommand run" -l from -d 'With --rerun: start of the window to find the run in' -r
complete -c ylemctl -n "__fish_ylemctl_using_subcommand run" -l to -d 'With --rerun: end of the window to find the run in (inclusive)' -r
complete -c ylemctl -n "__fish_ylemctl_using_subcommand run" -l wait-timeout -d 'Longest time to wait for the runs to finish' -r
complete -c ylemctl -n "__fish_ylemctl_using_subcommand run" -l expect-tasks -d 'A pipeline run has finished when this many tasks reported (and no more for one --poll), whatever its history says' -r
complete -c ylemctl -n "__fish_ylemctl_using_subcommand run" -l poll -d 'Longest pause between two looks at a run being waited for' -r
complete -c ylemctl -n "__fish_ylemctl_using_subcommand run" -l heartbeat -d 'Without a terminal on stderr (cron, CI), say "still waiting" on stderr this often while waiting' -r
complete -c ylemctl -n "__fish_ylemctl_using_subcommand run" -l decrypt-key-file -d 'Key file (32 bytes, hex or Base64) that opens encrypted task outputs, to say why a run failed, with --wait, and to read the input of the run --rerun names (also YLEM_DECRYPT_KEY_FILE, or the profile\'s decrypt_key_file)' -r -F
complete -c ylemctl -n "__fish_ylemctl_using_subcommand run" -s p -l profile -d 'Profile to use' -r
complete -c ylemctl -n "__fish_ylemctl_using_subcommand run" -l base-url -d 'Base URL of the service (a profile\'s credentials go only to its own)' -r
complete -c ylemctl -n "__fish_ylemctl_using_subcommand run" -s o -l output -d 'Output format (prometheus: stats, last-run, status and check; junit: run pipeline --wait and runs --run)' -r -f -a "table\t''
json\t''
jsonl\t''
csv\t''
prometheus\t''
junit\t''"
complete -c ylemctl -n "__fish_ylemctl_using_subcommand run" -l jq -d 'Filter the JSON output with a jq expression, as gh --jq: strings raw (escaped on a terminal; off it a string may span lines: use tojson for one a line), other values compact, one a line; each row of logs, runs and -o jsonl on its own (implies -o json; exit 2 for a bad expression, before any request)' -r
complete -c ylemctl -n "__fish_ylemctl_using_subcommand run" -l fields -d 'Columns or keys to keep, in this order (comma-separated); a table never leaves them out to fit the terminal' -r
complete -c ylemctl -n "__fish_ylemctl_using_subcommand run" -l output-file -d 'With -o prometheus: write the exposition to PATH atomically (a temporary file in the same directory, then renamed), for node_exporter\'s textfile collector' -r -F
complete -c ylemctl -n "__fish_ylemctl_using_subcommand run" -l connect-timeout -d 'Longest time to connect (TCP and TLS) [default: 10s]' -r
complete -c ylemctl -n "__fish_ylemctl_using_subcommand run" -l timeout -d 'Longest wait for the server with no progress: the first byte, any stall between bytes; a body that keeps arriving is never cut [default: 60s]' -r
complete -c ylemctl -n "__fish_ylemctl_using_subcommand run" -l max-time -d 'Longest time for the whole command, retries and waits included (off by default; `check` defaults to 50s, inside a monitoring plugin\'s 60 s)' -r
complete -c ylemctl -n "__fish_ylemctl_using_subcommand run" -l settle -d 'The settle time of every command that judges a run (run --wait, runs, last-run, check, status, watch, metrics serve, logs -f --run): a pipeline run without a known task set has finished when no new task reported for this long, a workflow\'s success counts after it (also YLEM_SETTLE, or the profile\'s settle) [default: a pipeline\'s 3x the longest gap between two tasks of its past runs, at least 10s, 10m without history; a workflow\'s 10m]' -r
complete -c ylemctl -n "__fish_ylemctl_using_subcommand run" -l retries -d 'Retries of idempotent requests (GET, token); a run start is never retried [default: 2]' -r
complete -c ylemctl -n "__fish_ylemctl_using_subcommand run" -l concurrency -d 'Requests in flight at once when several IDs are given [default: 8]' -r
complete -c ylemctl -n "__fish_ylemctl_using_subcommand run" -l color -d 'When to use colour (NO_COLOR turns it off even with always; CLICOLOR_FORCE on in auto)' -r -f -a "auto\t''
always\t''
never\t''"
complete -c ylemctl -n "__fish_ylemctl_using_subcommand run" -l wait -d 'Follow the runs until they finish: exit 0 when they succeeded (on evidence: see --settle and --expect-tasks), 7 when a task failed, 8 when --wait-timeout ran out. `completion` says which rule decided: history, expected_tasks, settled, failed_task, timed_out; for a workflow (no log) statistics_settled or statistics_failed, and no elapsed (the wait\'s time is not the run\'s)'
complete -c ylemctl -n "__fish_ylemctl_using_subcommand run" -l no-header -d 'No header row (table, csv)'
complete -c ylemctl -n "__fish_ylemctl_using_subcommand run" -l csv-raw -d 'With -o csv: text cells as sent (by default one starting with = + - @, tab or CR gets a \' in front, so a spreadsheet does not run it as a formula, and control characters are escaped as in tables)'
complete -c ylemctl -n "__fish_ylemctl_using_subcommand run" -l local -d 'Read naive times and show times in the local time zone (also YLEM_TZ=local)'
complete -c ylemctl -n "__fish_ylemctl_using_subcommand run" -s v -l verbose -d '-v: one line per HTTP request on stderr; -vv: also headers and bodies (secrets redacted)'
complete -c ylemctl -n "__fish_ylemctl_using_subcommand run" -s q -l quiet -d 'No spinner, notes or warnings'
complete -c ylemctl -n "__fish_ylemctl_using_subcommand run" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c ylemctl -n "__fish_ylemctl_using_subcommand run" -s V -l version -d 'Print version'
complete -c ylemctl -n "__fish_ylemctl_using_subcommand logs" -l from -d 'Start: YYYY-MM-DD[ HH:MM:SS], ISO 8601, now, today, yesterday, or an age such as 7d' -r
complete -c ylemctl -n "__fish_ylemctl_using_subcommand logs" -l to -d 'End (inclusive; a bare date means the end of that day)' -r
complete -c ylemctl -n "__fish_ylemctl_using_subcommand logs" -l since -d 'Start of a window that ends now, e.g. 90m, 24h, 7d, 2w, or a TIME' -r
complete -c ylemctl -n "__fish_ylemctl_using_subcommand logs" -l run -d 'Only entries of this run' -r
complete -c ylemctl -n "__fish_ylemctl_using_subcommand logs" -l task -d 'Only entries of this task (UUID or alias); repeat for several' -r
complete -c ylemctl -n "__fish_ylemctl_using_subcommand logs" -l decrypt-key-file -d 'Decrypt `output` (AES-256-GCM, 12-byte nonce first) with the key in FILE: 32 raw bytes, hex or Base64' -r -F
complete -c ylemctl -n "__fish_ylemctl_using_subcommand logs" -l tail -d 'The newest N entries only (the log comes newest first: they are printed as they come, nothing is held); with -f, the newest N of the last hour, oldest first, then follow' -r
complete -c ylemctl -n "__fish_ylemctl_using_subcommand logs" -l poll -d 'With -f: look at the log every DURATION (default: after 2s, the pause growing to 30s while nothing changes, 6s at most with --run)' -r
complete -c ylemctl -n "__fish_ylemctl_using_subcommand logs" -l concurrency -d 'Requests in flight at once when several IDs are given [default: 8]' -r
complete -c ylemctl -n "__fish_ylemctl_using_subcommand logs" -s p -l profile -d 'Profile to use' -r
complete -c ylemctl -n "__fish_ylemctl_using_subcommand logs" -l base-url -d 'Base URL of the service (a profile\'s credentials go only to its own)' -r
complete -c ylemctl -n "__fish_ylemctl_using_subcommand logs" -s o -l output -d 'Output format (prometheus: stats, last-run, status and check; junit: run pipeline --wait and runs --run)' -r -f -a "table\t''
json\t''
jsonl\t''
csv\t''
prometheus\t''
junit\t''"
complete -c ylemctl -n "__fish_ylemctl_using_subcommand logs" -l jq -d 'Filter the JSON output with a jq expression, as gh --jq: strings raw (escaped on a terminal; off it a string may span lines: use tojson for one a line), other values compact, one a line; each row of logs, runs and -o jsonl on its own (implies -o json; exit 2 for a bad expression, before any request)' -r
complete -c ylemctl -n "__fish_ylemctl_using_subcommand logs" -l fields -d 'Columns or keys to keep, in this order (comma-separated); a table never leaves them out to fit the terminal' -r
complete -c ylemctl -n "__fish_ylemctl_using_subcommand logs" -l output-file -d 'With -o prometheus: write the exposition to PATH atomically (a temporary file in the same directory, then renamed), for node_exporter\'s textfile collector' -r -F
complete -c ylemctl -n "__fish_ylemctl_using_subcommand logs" -l connect-timeout -d 'Longest time to connect (TCP and TLS) [default: 10s]' -r
complete -c ylemctl -n "__fish_ylemctl_using_subcommand logs" -l timeout -d 'Longest wait for the server with no progress: the first byte, any stall between bytes; a body that keeps arriving is never cut [default: 60s]' -r
complete -c ylemctl -n "__fish_ylemctl_using_subcommand logs" -l max-time -d 'Longest time for the whole command, retries and waits included (off by default; `check` defaults to 50s, inside a monitoring plugin\'s 60 s)' -r
complete -c ylemctl -n "__fish_ylemctl_using_subcommand logs" -l settle -d 'The settle time of every command that judges a run (run --wait, runs, last-run, check, status, watch, metrics serve, logs -f --run): a pipeline run without a known task set has finished when no new task reported for this long, a workflow\'s success counts after it (also YLEM_SETTLE, or the profile\'s settle) [default: a pipeline\'s 3x the longest gap between two tasks of its past runs, at least 10s, 10m without history; a workflow\'s 10m]' -r
complete -c ylemctl -n "__fish_ylemctl_using_subcommand logs" -l retries -d 'Retries of idempotent requests (GET, token); a run start is never retried [default: 2]' -r
complete -c ylemctl -n "__fish_ylemctl_using_subcommand logs" -l color -d 'When to use colour (NO_COLOR turns it off even with always; CLICOLOR_FORCE on in auto)' -r -f -a "auto\t''
always\t''
never\t''"
complete -c ylemctl -n "__fish_ylemctl_using_subcommand logs" -l failed -d 'Only failed entries'
complete -c ylemctl -n "__fish_ylemctl_using_subcommand logs" -l decode -d 'Decode `output` from Base64 to text (JSON is pretty-printed in tables, embedded in json/jsonl)'
complete -c ylemctl -n "__fish_ylemctl_using_subcommand logs" -s f -l follow -d 'Keep printing entries as they appear, oldest first, until Ctrl-C, --max-time, or (with --run) the run is complete; --since sets the start (default: now, after the newest 10 entries of the last hour: see --tail)'
complete -c ylemctl -n "__fish_ylemctl_using_subcommand logs" -l no-header -d 'No header row (table, csv)'
complete -c ylemctl -n "__fish_ylemctl_using_subcommand logs" -l csv-raw -d 'With -o csv: text cells as sent (by default one starting with = + - @, tab or CR gets a \' in front, so a spreadsheet does not run it as a formula, and control characters are escaped as in tables)'
complete -c ylemctl -n "__fish_ylemctl_using_subcommand logs" -l local -d 'Read naive times and show times in the local time zone (also YLEM_TZ=local)'
complete -c ylemctl -n "__fish_ylemctl_using_subcommand logs" -s v -l verbose -d '-v: one line per HTTP request on stderr; -vv: also headers and bodies (secrets redacted)'
complete -c ylemctl -n "__fish_ylemctl_using_subcommand logs" -s q -l quiet -d 'No spinner, notes or warnings'
complete -c ylemctl -n "__fish_ylemctl_using_subcommand logs" -s h -l help -d 'Print help'
complete -c ylemctl -n "__fish_ylemctl_using_subcommand logs" -s V -l version -d 'Print version'
complete -c ylemctl -n "__fish_ylemctl_using_subcommand runs" -l from -d 'Start: YYYY-MM-DD[ HH:MM:SS], ISO 8601, now, today, yesterday, or an age such as 7d' -r
complete -c ylemctl -n "__fish_ylemctl_using_subcommand runs" -l to -d 'End (inclusive; a bare date means the end of that day)' -r
complete -c ylemctl -n "__fish_ylemctl_using_subcommand runs" -l since -d 'Start of a window that ends now, e.g. 90m, 24h, 7d, 2w, or a TIME' -r
complete -c ylemctl -n "__fish_ylemctl_using_subcommand runs" -l result -d 'Only runs with this result: running (not finished on evidence yet), succeeded or failed' -r -f -a "running\t''
succeeded\t''
failed\t''"
complete -c ylemctl -n "__fish_ylemctl_using_subcommand runs" -l limit -d 'The newest N runs only' -r
complete -c ylemctl -n "__fish_ylemctl_using_subcommand runs" -l run -d 'Show one run whole: a run UUID, `latest` or `latest-failed`' -r
complete -c ylemctl -n "__fish_ylemctl_using_subcommand runs" -l wait-timeout -d 'Longest time to wait for the run to finish' -r
complete -c ylemctl -n "__fish_ylemctl_using_subcommand runs" -l poll -d 'Longest pause between two looks at the run (as run --poll)' -r
complete -c ylemctl -n "__fish_ylemctl_using_subcommand runs" -l heartbeat -d 'Without a terminal on stderr (cron, CI), say "still waiting" on stderr this often while waiting' -r
complete -c ylemctl -n "__fish_ylemctl_using_subcommand runs" -l decrypt-key-file -d 'Key file (32 bytes, hex or Base64) that opens encrypted task outputs, to say why a run failed (also YLEM_DECRYPT_KEY_FILE, or the profile\'s decrypt_key_file)' -r -F
complete -c ylemctl -n "__fish_ylemctl_using_subcommand runs" -s p -l profile -d 'Profile to use' -r
complete -c ylemctl -n "__fish_ylemctl_using_subcommand runs" -l base-url -d 'Base URL of the service (a profile\'s credentials go only to its own)' -r
complete -c ylemctl -n "__fish_ylemctl_using_subcommand runs" -s o -l output -d 'Output format (prometheus: stats, last-run, status and check; junit: run pipeline --wait and runs --run)' -r -f -a "table\t''
json\t''
jsonl\t''
csv\t''
prometheus\t''
junit\t''"
complete -c ylemctl -n "__fish_ylemctl_using_subcommand runs" -l jq -d 'Filter the JSON output with a jq expression, as gh --jq: strings raw (escaped on a terminal; off it a string may span lines: use tojson for one a line), other values compact, one a line; each row of logs, runs and -o jsonl on its own (implies -o json; exit 2 for a bad expression, before any request)' -r
complete -c ylemctl -n "__fish_ylemctl_using_subcommand runs" -l fields -d 'Columns or keys to keep, in this order (comma-separated); a table never leaves them out to fit the terminal' -r
complete -c ylemctl -n "__fish_ylemctl_using_subcommand runs" -l output-file -d 'With -o prometheus: write the exposition to PATH atomically (a temporary file in the same directory, then renamed), for node_exporter\'s textfile collector' -r -F
complete -c ylemctl -n "__fish_ylemctl_using_subcommand runs" -l connect-timeout -d 'Longest time to connect (TCP and TLS) [default: 10s]' -r
complete -c ylemctl -n "__fish_ylemctl_using_subcommand runs" -l timeout -d 'Longest wait for the server with no progress: the first byte, any stall between bytes; a body that keeps arriving is never cut [default: 60s]' -r
complete -c ylemctl -n "__fish_ylemctl_using_subcommand runs" -l max-time -d 'Longest time for the whole command, retries and waits included (off by default; `check` defaults to 50s, inside a monitoring plugin\'s 60 s)' -r
complete -c ylemctl -n "__fish_ylemctl_using_subcommand runs" -l settle -d 'The settle time of every command that judges a run (run --wait, runs, last-run, check, status, watch, metrics serve, logs -f --run): a pipeline run without a known task set has finished when no new task reported for this long, a workflow\'s success counts after it (also YLEM_SETTLE, or the profile\'s settle) [default: a pipeline\'s 3x the longest gap between two tasks of its past runs, at least 10s, 10m without history; a workflow\'s 10m]' -r
complete -c ylemctl -n "__fish_ylemctl_using_subcommand runs" -l retries -d 'Retries of idempotent requests (GET, token); a run start is never retried [default: 2]' -r
complete -c ylemctl -n "__fish_ylemctl_using_subcommand runs" -l concurrency -d 'Requests in flight at once when several IDs are given [default: 8]' -r
complete -c ylemctl -n "__fish_ylemctl_using_subcommand runs" -l color -d 'When to use colour (NO_COLOR turns it off even with always; CLICOLOR_FORCE on in auto)' -r -f -a "auto\t''
always\t''
never\t''"
complete -c ylemctl -n "__fish_ylemctl_using_subcommand runs" -l failed -d 'Only failed runs (as --result failed)'
complete -c ylemctl -n "__fish_ylemctl_using_subcommand runs" -l exit-status -d 'With --run: exit 0 only when the run succeeded on evidence, 7 when it failed, 8 when it is still running or its end cannot be established (also: no entry of it yet, or --wait-timeout ran out)'
complete -c ylemctl -n "__fish_ylemctl_using_subcommand runs" -l wait -d 'With --run RUN or latest: follow the run to its verdict as `run --wait` does (a run started elsewhere, or before a SIGTERM); a run with no entry yet is waited for. `latest` is the newest run with an entry in the window when the wait begins'
complete -c ylemctl -n "__fish_ylemctl_using_subcommand runs" -l no-header -d 'No header row (table, csv)'
complete -c ylemctl -n "__fish_ylemctl_using_subcommand runs" -l csv-raw -d 'With -o csv: text cells as sent (by default one starting with = + - @, tab or CR gets a \' in front, so a spreadsheet does not run it as a formula, and control characters are escaped as in tables)'
complete -c ylemctl -n "__fish_ylemctl_using_subcommand runs" -l local -d 'Read naive times and show times in the local time zone (also YLEM_TZ=local)'
complete -c ylemctl -n "__fish_ylemctl_using_subcommand runs" -s v -l verbose -d '-v: one line per HTTP request on stderr; -vv: also headers and bodies (secrets redacted)'
complete -c ylemctl -n "__fish_ylemctl_using_subcommand runs" -s q -l quiet -d 'No spinner, notes or warnings'
complete -c ylemctl -n "__fish_ylemctl_using_subcommand runs" -s h -l help -d 'Print help'
complete -c ylemctl -n "__fish_ylemctl_using_subcommand runs" -s V -l version -d 'Print version'
complete -c ylemctl -n "__fish_ylemctl_using_subcommand stats" -l from -d 'Start: YYYY-MM-DD[ HH:MM:SS], ISO 8601, now, today, yesterday, or an age such as 7d' -r
complete -c ylemctl -n "__fish_ylemctl_using_subcommand stats" -l to -d 'End (inclusive; a bare date means the end of that day)' -r
complete -c ylemctl -n "__fish_ylemctl_using_subcommand stats" -l since -d 'Start of a window that ends now, e.g. 90m, 24h, 7d, 2w, or a TIME' -r
complete -c ylemctl -n "__fish_ylemctl_using_subcommand stats" -s p -l profile -d 'Profile to use' -r
complete -c ylemctl -n "__fish_ylemctl_using_subcommand stats" -l base-url -d 'Base URL of the service (a profile\'s credentials go only to its own)' -r
complete -c ylemctl -n "__fish_ylemctl_using_subcommand stats" -s o -l output -d 'Output format (prometheus: stats, last-run, status and check; junit: run pipeline --wait and runs --run)' -r -f -a "table\t''
json\t''
jsonl\t''
csv\t''
prometheus\t''
junit\t''"
complete -c ylemctl -n "__fish_ylemctl_using_subcommand stats" -l jq -d 'Filter the JSON output with a jq expression, as gh --jq: strings raw (escaped on a terminal; off it a string may span lines: use tojson for one a line), other values compact, one a line; each row of logs, runs and -o jsonl on its own (implies -o json; exit 2 for a bad expression, before any request)' -r
complete -c ylemctl -n "__fish_ylemctl_using_subcommand stats" -l fields -d 'Columns or keys to keep, in this order (comma-separated); a table never leaves them out to fit the terminal' -r
complete -c ylemctl -n "__fish_ylemctl_using_subcommand stats" -l output-file -d 'With -o prometheus: write the exposition to PATH atomically (a temporary file in the same directory, then renamed), for node_exporter\'s textfile collector' -r -F
complete -c ylemctl -n "__fish_ylemctl_using_subcommand stats" -l connect-timeout -d 'Longest time to connect (TCP and TLS) [default: 10s]' -r
complete -c ylemctl -n "__fish_ylemctl_using_subcommand stats" -l timeout -d 'Longest wait for the server with no progress: the first byte, any stall between bytes; a body that keeps arriving is never cut [default: 60s]' -r
complete -c ylemctl -n "__fish_ylemctl_using_subcommand stats" -l max-time -d 'Longest time for the whole command, retries and waits included (off by default; `check` defaults to 50s, inside a monitoring plugin\'s 60 s)' -r
complete -c ylemctl -n "__fish_ylemctl_using_subcommand stats" -l settle -d 'The settle time of every command that judges a run (run --wait, runs, last-run, check, status, watch, metrics serve, logs -f --run): a pipeline run without a known task set has finished when no new task reported for this long, a workflow\'s success counts after it (also YLEM_SETTLE, or the profile\'s settle) [default: a pipeline\'s 3x the longest gap between two tasks of its past runs, at least 10s, 10m without history; a workflow\'s 10m]' -r
complete -c ylemctl -n "__fish_ylemctl_using_subcommand stats" -l retries -d 'Retries of idempotent requests (GET, token); a run start is never retried [default: 2]' -r
complete -c ylemctl -n "__fish_ylemctl_using_subcommand stats" -l concurrency -d 'Requests in flight at once when several IDs are given [default: 8]' -r
complete -c ylemctl -n "__fish_ylemctl_using_subcommand stats" -l color -d 'When to use colour (NO_COLOR turns it off even with always; CLICOLOR_FORCE on in auto)' -r -f -a "auto\t''
always\t''
never\t''"
complete -c ylemctl -n "__fish_ylemctl_using_subcommand stats" -l no-header -d 'No header row (table, csv)'
complete -c ylemctl -n "__fish_ylemctl_using_subcommand stats" -l csv-raw -d 'With -o csv: text cells as sent (by default one starting with = + - @, tab or CR gets a \' in front, so a spreadsheet does not run it as a formula, and control characters are escaped as in tables)'
complete -c ylemctl -n "__fish_ylemctl_using_subcommand stats" -l local -d 'Read naive times and show times in the local time zone (also YLEM_TZ=local)'
complete -c ylemctl -n "__fish_ylemctl_using_subcommand stats" -s v -l verbose -d '-v: one line per HTTP request on stderr; -vv: also headers and bodies (secrets redacted)'
complete -c ylemctl -n "__fish_ylemctl_using_subcommand stats" -s q -l quiet -d 'No spinner, notes or warnings'
complete -c ylemctl -n "__fish_ylemctl_using_subcommand stats" -s h -l help -d 'Print help'
complete -c ylemctl -n "__fish_ylemctl_using_subcommand stats" -s V -l version -d 'Print version'
complete -c ylemctl -n "__fish_ylemctl_using_subcommand aggregate" -l from -d 'Start of the first period (default: so that the last period is the current one)' -r
complete -c ylemctl -n "__fish_ylemctl_using_subcommand aggregate" -l period -d 'Length of each period' -r -f -a "day\t''
week\t''
month\t''
quarter\t''
year\t''"
complete -c ylemctl -n "__fish_ylemctl_using_subcommand aggregate" -l count -d 'Number of periods (1 or more)' -r
complete -c ylemctl -n "__fish_ylemctl_using_subcommand aggregate" -s p -l profile -d 'Profile to use' -r
complete -c ylemctl -n "__fish_ylemctl_using_subcommand aggregate" -l base-url -d 'Base URL of the service (a profile\'s credentials go only to its own)' -r
complete -c ylemctl -n "__fish_ylemctl_using_subcommand aggregate" -s o -l output -d 'Output format (prometheus: stats, last-run, status and check; junit: run pipeline --wait and runs --run)' -r -f -a "table\t''
json\t''
jsonl\t''
csv\t''
prometheus\t''
junit\t''"
complete -c ylemctl -n "__fish_ylemctl_using_subcommand aggregate" -l jq -d 'Filter the JSON output with a jq expression, as gh --jq: strings raw (escaped on a terminal; off it a string may span lines: use tojson for one a line), other values compact, one a line; each row of logs, runs and -o jsonl on its own (implies -o json; exit 2 for a bad expression, before any request)' -r
complete -c ylemctl -n "__fish_ylemctl_using_subcommand aggregate" -l fields -d 'Columns or keys to keep, in this order (comma-separated); a table never leaves them out to fit the terminal' -r
complete -c ylemctl -n "__fish_ylemctl_using_subcommand aggregate" -l output-file -d 'With -o prometheus: write the exposition to PATH atomically (a temporary file in the same directory, then renamed), for node_exporter\'s textfile collector' -r -F
complete -c ylemctl -n "__fish_ylemctl_using_subcommand aggregate" -l connect-timeout -d 'Longest time to connect (TCP and TLS) [default: 10s]' -r
complete -c ylemctl -n "__fish_ylemctl_using_subcommand aggregate" -l timeout -d 'Longest wait for the server with no progress: the first byte, any stall between bytes; a body that keeps arriving is never cut [default: 60s]' -r
complete -c ylemctl -n "__fish_ylemctl_using_subcommand aggregate" -l max-time -d 'Longest time for the whole command, retries and waits included (off by default; `check` defaults to 50s, inside a monitoring plugin\'s 60 s)' -r
complete -c ylemctl -n "__fish_ylemctl_using_subcommand aggregate" -l settle -d 'The settle time of every command that judges a run (run --wait, runs, last-run, check, status, watch, metrics serve, logs -f --run): a pipeline run without a known task set has finished when no new task reported for this long, a workflow\'s success counts after it (also YLEM_SETTLE, or the profile\'s settle) [default: a pipeline\'s 3x the longest gap between two tasks of its past runs, at least 10s, 10m without history; a workflow\'s 10m]' -r
complete -c ylemctl -n "__fish_ylemctl_using_subcommand aggregate" -l retries -d 'Retries of idempotent requests (GET, token); a run start is never retried [default: 2]' -r
complete -c ylemctl -n "__fish_ylemctl_using_subcommand aggregate" -l concurrency -d 'Requests in flight at once when several IDs are given [default: 8]' -r
complete -c ylemctl -n "__fish_ylemctl_using_subcommand aggregate" -l color -d 'When to use colour (NO_COLOR turns it off even with always; CLICOLOR_FORCE on in auto)' -r -f -a "auto\t''
always\t''
never\t''"
complete -c ylemctl -n "__fish_ylemctl_using_subcommand aggregate" -l chart -d 'Draw successes and failures per period as a bar chart'
complete -c ylemctl -n "__fish_ylemctl_using_subcommand aggregate" -l no-header -d 'No header row (table, csv)'
complete -c ylemctl -n "__fish_ylemctl_using_subcommand aggregate" -l csv-raw -d 'With -o csv: text cells as sent (by default one starting with = + - @, tab or CR gets a \' in front, so a spreadsheet does not run it as a formula, and control characters are escaped as in tables)'
complete -c ylemctl -n "__fish_ylemctl_using_subcommand aggregate" -l local -d 'Read naive times and show times in the local time zone (also YLEM_TZ=local)'
complete -c ylemctl -n "__fish_ylemctl_using_subcommand aggregate" -s v -l verbose -d '-v: one line per HTTP request on stderr; -vv: also headers and bodies (secrets redacted)'
complete -c ylemctl -n "__fish_ylemctl_using_subcommand aggregate" -s q -l quiet -d 'No spinner, notes or warnings'
complete -c ylemctl -n "__fish_ylemctl_using_subcommand aggregate" -s h -l help -d 'Print help'
complete -c ylemctl -n "__fish_ylemctl_using_subcommand aggregate" -s V -l version -d 'Print version'
complete -c ylemctl -n "__fish_ylemctl_using_subcommand last-run" -l decrypt-key-file -d 'Key file (32 bytes, hex or Base64) that opens encrypted task outputs, to say why a run failed (also YLEM_DECRYPT_KEY_FILE, or the profile\'s decrypt_key_file)' -r -F
complete -c ylemctl -n "__fish_ylemctl_using_subcommand last-run" -s p -l profile -d 'Profile to use' -r
complete -c ylemctl -n "__fish_ylemctl_using_subcommand last-run" -l base-url -d 'Base URL of the service (a profile\'s credentials go only to its own)' -r
complete -c ylemctl -n "__fish_ylemctl_using_subcommand last-run" -s o -l output -d 'Output format (prometheus: stats, last-run, status and check; junit: run pipeline --wait and runs --run)' -r -f -a "table\t''
json\t''
jsonl\t''
csv\t''
prometheus\t''
junit\t''"
complete -c ylemctl -n "__fish_ylemctl_using_subcommand last-run" -l jq -d 'Filter the JSON output with a jq expression, as gh --jq: strings raw (escaped on a terminal; off it a string may span lines: use tojson for one a line), other values compact, one a line; each row of logs, runs and -o jsonl on its own (implies -o json; exit 2 for a bad expression, before any request)' -r
complete -c ylemctl -n "__fish_ylemctl_using_subcommand last-run" -l fields -d 'Columns or keys to keep, in this order (comma-separated); a table never leaves them out to fit the terminal' -r
complete -c ylemctl -n "__fish_ylemctl_using_subcommand last-run" -l output-file -d 'With -o prometheus: write the exposition to PATH atomically (a temporary file in the same directory, then renamed), for node_exporter\'s textfile collector' -r -F
complete -c ylemctl -n "__fish_ylemctl_using_subcommand last-run" -l connect-timeout -d 'Longest time to connect (TCP and TLS) [default: 10s]' -r
complete -c ylemctl -n "__fish_ylemctl_using_subcommand last-run" -l timeout -d 'Longest wait for the server with no progress: the first byte, any stall between bytes; a body that keeps arriving is never cut [default: 60s]' -r
complete -c ylemctl -n "__fish_ylemctl_using_subcommand last-run" -l max-time -d 'Longest time for the whole command, retries and waits included (off by default; `check` defaults to 50s, inside a monitoring plugin\'s 60 s)' -r
complete -c ylemctl -n "__fish_ylemctl_using_subcommand last-run" -l settle -d 'The settle time of every command that judges a run (run --wait, runs, last-run, check, status, watch, metrics serve, logs -f --run): a pipeline run without a known task set has finished when no new task reported for this long, a workflow\'s success counts after it (also YLEM_SETTLE, or the profile\'s settle) [default: a pipeline\'s 3x the longest gap between two tasks of its past runs, at least 10s, 10m without history; a workflow\'s 10m]' -r
complete -c ylemctl -n "__fish_ylemctl_using_subcommand last-run" -l retries -d 'Retries of idempotent requests (GET, token); a run start is never retried [default: 2]' -r
complete -c ylemctl -n "__fish_ylemctl_using_subcommand last-run" -l concurrency -d 'Requests in flight at once when several IDs are given [default: 8]' -r
complete -c ylemctl -n "__fish_ylemctl_using_subcommand last-run" -l color -d 'When to use colour (NO_COLOR turns it off even with always; CLICOLOR_FORCE on in auto)' -r -f -a "auto\t''
always\t''
never\t''"
complete -c ylemctl -n "__fish_ylemctl_using_subcommand last-run" -l fail-on-failure -d 'Exit 7 when a last run failed, 8 when it has not finished (for `cron && ...` chains)'
complete -c ylemctl -n "__fish_ylemctl_using_subcommand last-run" -l running-ok -d 'With --fail-on-failure: a last run not finished yet exits 0 with a note instead of 8, so a cron job landing mid-run raises no alert (the run is judged at the next one); a failed run still exits 7'
complete -c ylemctl -n "__fish_ylemctl_using_subcommand last-run" -l no-header -d 'No header row (table, csv)'
complete -c ylemctl -n "__fish_ylemctl_using_subcommand last-run" -l csv-raw -d 'With -o csv: text cells as sent (by default one starting with = + - @, tab or CR gets a \' in front, so a spreadsheet does not run it as a formula, and control characters are escaped as in tables)'
complete -c ylemctl -n "__fish_ylemctl_using_subcommand last-run" -l local -d 'Read naive times and show times in the local time zone (also YLEM_TZ=local)'
complete -c ylemctl -n "__fish_ylemctl_using_subcommand last-run" -s v -l verbose -d '-v: one line per HTTP request on stderr; -vv: also headers and bodies (secrets redacted)'
complete -c ylemctl -n "__fish_ylemctl_using_subcommand last-run" -s q -l quiet -d 'No spinner, notes or warnings'
complete -c ylemctl -n "__fish_ylemctl_using_subcommand last-run" -s h -l help -d 'Print help'
complete -c ylemctl -n "__fish_ylemctl_using_subcommand last-run" -s V -l version -d 'Print version'
complete -c ylemctl -n "__fish_ylemctl_using_subcommand check" -l max-age -d 'Stale when the last run is older: CRIT or WARN,CRIT, e.g. 25h,49h' -r
complete -c ylemctl -n "__fish_ylemctl_using_subcommand check" -l max-failure-rate -d 'Failed share of runs in --window, in percent: CRIT or WARN,CRIT, e.g. 10,25' -r
complete -c ylemctl -n "__fish_ylemctl_using_subcommand check" -l window -d 'Window of --max-failure-rate (at least 1s)' -r
complete -c ylemctl -n "__fish_ylemctl_using_subcommand check" -l max-duration -d 'Longest acceptable last run: CRIT or WARN,CRIT, e.g. 5m,15m' -r
complete -c ylemctl -n "__fish_ylemctl_using_subcommand check" -l decrypt-key-file -d 'Key file (32 bytes, hex or Base64) that opens encrypted task outputs, to say why a run failed (also YLEM_DECRYPT_KEY_FILE, or the profile\'s decrypt_key_file)' -r -F
complete -c ylemctl -n "__fish_ylemctl_using_subcommand check" -l fields -d 'Columns or keys to keep, in this order (comma-separated); a table never leaves them out to fit the terminal' -r
complete -c ylemctl -n "__fish_ylemctl_using_subcommand check" -l concurrency -d 'Requests in flight at once when several IDs are given [default: 8]' -r
complete -c ylemctl -n "__fish_ylemctl_using_subcommand check" -l jq -d 'Filter the JSON output with a jq expression, as gh --jq: strings raw (escaped on a terminal; off it a string may span lines: use tojson for one a line), other values compact, one a line; each row of logs, runs and -o jsonl on its own (implies -o json; exit 2 for a bad expression, before any request)' -r
complete -c ylemctl -n "__fish_ylemctl_using_subcommand check" -s o -l output -d 'Output: table (the plugin\'s status line, the default), json ({state, message, perfdata}) or prometheus' -r -f -a "table\t''
json\t''
jsonl\t''
csv\t''
prometheus\t''
junit\t''"
complete -c ylemctl -n "__fish_ylemctl_using_subcommand check" -s p -l profile -d 'Profile to use' -r
complete -c ylemctl -n "__fish_ylemctl_using_subcommand check" -l base-url -d 'Base URL of the service (a profile\'s credentials go only to its own)' -r
complete -c ylemctl -n "__fish_ylemctl_using_subcommand check" -l output-file -d 'With -o prometheus: write the exposition to PATH atomically (a temporary file in the same directory, then renamed), for node_exporter\'s textfile collector' -r -F
complete -c ylemctl -n "__fish_ylemctl_using_subcommand check" -l connect-timeout -d 'Longest time to connect (TCP and TLS) [default: 10s]' -r
complete -c ylemctl -n "__fish_ylemctl_using_subcommand check" -l timeout -d 'Longest wait for the server with no progress: the first byte, any stall between bytes; a body that keeps arriving is never cut [default: 60s]' -r
complete -c ylemctl -n "__fish_ylemctl_using_subcommand check" -l max-time -d 'Longest time for the whole command, retries and waits included (off by default; `check` defaults to 50s, inside a monitoring plugin\'s 60 s)' -r
complete -c ylemctl -n "__fish_ylemctl_using_subcommand check" -l settle -d 'The settle time of every command that judges a run (run --wait, runs, last-run, check, status, watch, metrics serve, logs -f --run): a pipeline run without a known task set has finished when no new task reported for this long, a workflow\'s success counts after it (also YLEM_SETTLE, or the profile\'s settle) [default: a pipeline\'s 3x the longest gap between two tasks of its past runs, at least 10s, 10m without history; a workflow\'s 10m]' -r
complete -c ylemctl -n "__fish_ylemctl_using_subcommand check" -l retries -d 'Retries of idempotent requests (GET, token); a run start is never retried [default: 2]' -r
complete -c ylemctl -n "__fish_ylemctl_using_subcommand check" -l color -d 'When to use colour (NO_COLOR turns it off even with always; CLICOLOR_FORCE on in auto)' -r -f -a "auto\t''
always\t''
never\t''"
complete -c ylemctl -n "__fish_ylemctl_using_subcommand check" -l no-header -d 'No header row (table, csv)'
complete -c ylemctl -n "__fish_ylemctl_using_subcommand check" -l csv-raw -d 'With -o csv: text cells as sent (by default one starting with = + - @, tab or CR gets a \' in front, so a spreadsheet does not run it as a formula, and control characters are escaped as in tables)'
complete -c ylemctl -n "__fish_ylemctl_using_subcommand check" -l local -d 'Read naive times and show times in the local time zone (also YLEM_TZ=local)'
complete -c ylemctl -n "__fish_ylemctl_using_subcommand check" -s v -l verbose -d '-v: one line per HTTP request on stderr; -vv: also headers and bodies (secrets redacted)'
complete -c ylemctl -n "__fish_ylemctl_using_subcommand check" -s q -l quiet -d 'No spinner, notes or warnings'
complete -c ylemctl -n "__fish_ylemctl_using_subcommand check" -s h -l help -d 'Print help'
complete -c ylemctl -n "__fish_ylemctl_using_subcommand check" -s V -l version -d 'Print version'
complete -c ylemctl -n "__fish_ylemctl_using_subcommand status" -s p -l profile -d 'Profile to use' -r
complete -c ylemctl -n "__fish_ylemctl_using_subcommand status" -l base-url -d 'Base URL of the service (a profile\'s credentials go only to its own)' -r
complete -c ylemctl -n "__fish_ylemctl_using_subcommand status" -s o -l output -d 'Output format (prometheus: stats, last-run, status and check; junit: run pipeline --wait and runs --run)' -r -f -a "table\t''
json\t''
jsonl\t''
csv\t''
prometheus\t''
junit\t''"
complete -c ylemctl -n "__fish_ylemctl_using_subcommand status" -l jq -d 'Filter the JSON output with a jq expression, as gh --jq: strings raw (escaped on a terminal; off it a string may span lines: use tojson for one a line), other values compact, one a line; each row of logs, runs and -o jsonl on its own (implies -o json; exit 2 for a bad expression, before any request)' -r
complete -c ylemctl -n "__fish_ylemctl_using_subcommand status" -l fields -d 'Columns or keys to keep, in this order (comma-separated); a table never leaves them out to fit the terminal' -r
complete -c ylemctl -n "__fish_ylemctl_using_subcommand status" -l output-file -d 'With -o prometheus: write the exposition to PATH atomically (a temporary file in the same directory, then renamed), for node_exporter\'s textfile collector' -r -F
complete -c ylemctl -n "__fish_ylemctl_using_subcommand status" -l connect-timeout -d 'Longest time to connect (TCP and TLS) [default: 10s]' -r
complete -c ylemctl -n "__fish_ylemctl_using_subcommand status" -l timeout -d 'Longest wait for the server with no progress: the first byte, any stall between bytes; a body that keeps arriving is never cut [default: 60s]' -r
complete -c ylemctl -n "__fish_ylemctl_using_subcommand status" -l max-time -d 'Longest time for the whole command, retries and waits included (off by default; `check` defaults to 50s, inside a monitoring plugin\'s 60 s)' -r
complete -c ylemctl -n "__fish_ylemctl_using_subcommand status" -l settle -d 'The settle time of every command that judges a run (run --wait, runs, last-run, check, status, watch, metrics serve, logs -f --run): a pipeline run without a known task set has finished when no new task reported for this long, a workflow\'s success counts after it (also YLEM_SETTLE, or the profile\'s settle) [default: a pipeline\'s 3x the longest gap between two tasks of its past runs, at least 10s, 10m without history; a workflow\'s 10m]' -r
complete -c ylemctl -n "__fish_ylemctl_using_subcommand status" -l retries -d 'Retries of idempotent requests (GET, token); a run start is never retried [default: 2]' -r
complete -c ylemctl -n "__fish_ylemctl_using_subcommand status" -l concurrency -d 'Requests in flight at once when several IDs are given [default: 8]' -r
complete -c ylemctl -n "__fish_ylemctl_using_subcommand status" -l color -d 'When to use colour (NO_COLOR turns it off even with always; CLICOLOR_FORCE on in auto)' -r -f -a "auto\t''
always\t''
never\t''"
complete -c ylemctl -n "__fish_ylemctl_using_subcommand status" -l no-header -d 'No header row (table, csv)'
complete -c ylemctl -n "__fish_ylemctl_using_subcommand status" -l csv-raw -d 'With -o csv: text cells as sent (by default one starting with = + - @, tab or CR gets a \' in front, so a spreadsheet does not run it as a formula, and control characters are escaped as in tables)'
complete -c ylemctl -n "__fish_ylemctl_using_subcommand status" -l local -d 'Read naive times and show times in the local time zone (also YLEM_TZ=local)'
complete -c ylemctl -n "__fish_ylemctl_using_subcommand status" -s v -l verbose -d '-v: one line per HTTP request on stderr; -vv: also headers and bodies (secrets redacted)'
complete -c ylemctl -n "__fish_ylemctl_using_subcommand status" -s q -l quiet -d 'No spinner, notes or warnings'
complete -c ylemctl -n "__fish_ylemctl_using_subcommand status" -s h -l help -d 'Print help'
complete -c ylemctl -n "__fish_ylemctl_using_subcommand status" -s V -l version -d 'Print version'
complete -c ylemctl -n "__fish_ylemctl_using_subcommand doctor" -l fields -d 'Columns or keys to keep, in this order (comma-separated); a table never leaves them out to fit the terminal' -r
complete -c ylemctl -n "__fish_ylemctl_using_subcommand doctor" -l concurrency -d 'Requests in flight at once when several IDs are given [default: 8]' -r
complete -c ylemctl -n "__fish_ylemctl_using_subcommand doctor" -s p -l profile -d 'Profile to use' -r
complete -c ylemctl -n "__fish_ylemctl_using_subcommand doctor" -l base-url -d 'Base URL of the service (a profile\'s credentials go only to its own)' -r
complete -c ylemctl -n "__fish_ylemctl_using_subcommand doctor" -s o -l output -d 'Output format (prometheus: stats, last-run, status and check; junit: run pipeline --wait and runs --run)' -r -f -a "table\t''
json\t''
jsonl\t''
csv\t''
prometheus\t''
junit\t''"
complete -c ylemctl -n "__fish_ylemctl_using_subcommand doctor" -l jq -d 'Filter the JSON output with a jq expression, as gh --jq: strings raw (escaped on a terminal; off it a string may span lines: use tojson for one a line), other values compact, one a line; each row of logs, runs and -o jsonl on its own (implies -o json; exit 2 for a bad expression, before any request)' -r
complete -c ylemctl -n "__fish_ylemctl_using_subcommand doctor" -l output-file -d 'With -o prometheus: write the exposition to PATH atomically (a temporary file in the same directory, then renamed), for node_exporter\'s textfile collector' -r -F
complete -c ylemctl -n "__fish_ylemctl_using_subcommand doctor" -l connect-timeout -d 'Longest time to connect (TCP and TLS) [default: 10s]' -r
complete -c ylemctl -n "__fish_ylemctl_using_subcommand doctor" -l timeout -d 'Longest wait for the server with no progress: the first byte, any stall between bytes; a body that keeps arriving is never cut [default: 60s]' -r
complete -c ylemctl -n "__fish_ylemctl_using_subcommand doctor" -l max-time -d 'Longest time for the whole command, retries and waits included (off by default; `check` defaults to 50s, inside a monitoring plugin\'s 60 s)' -r
complete -c ylemctl -n "__fish_ylemctl_using_subcommand doctor" -l settle -d 'The settle time of every command that judges a run (run --wait, runs, last-run, check, status, watch, metrics serve, logs -f --run): a pipeline run without a known task set has finished when no new task reported for this long, a workflow\'s success counts after it (also YLEM_SETTLE, or the profile\'s settle) [default: a pipeline\'s 3x the longest gap between two tasks of its past runs, at least 10s, 10m without history; a workflow\'s 10m]' -r
complete -c ylemctl -n "__fish_ylemctl_using_subcommand doctor" -l retries -d 'Retries of idempotent requests (GET, token); a run start is never retried [default: 2]' -r
complete -c ylemctl -n "__fish_ylemctl_using_subcommand doctor" -l color -d 'When to use colour (NO_COLOR turns it off even with always; CLICOLOR_FORCE on in auto)' -r -f -a "auto\t''
always\t''
never\t''"
complete -c ylemctl -n "__fish_ylemctl_using_subcommand doctor" -l no-header -d 'No header row (table, csv)'
complete -c ylemctl -n "__fish_ylemctl_using_subcommand doctor" -l csv-raw -d 'With -o csv: text cells as sent (by default one starting with = + - @, tab or CR gets a \' in front, so a spreadsheet does not run it as a formula, and control characters are escaped as in tables)'
complete -c ylemctl -n "__fish_ylemctl_using_subcommand doctor" -l local -d 'Read naive times and show times in the local time zone (also YLEM_TZ=local)'
complete -c ylemctl -n "__fish_ylemctl_using_subcommand doctor" -s v -l verbose -d '-v: one line per HTTP request on stderr; -vv: also headers and bodies (secrets redacted)'
complete -c ylemctl -n "__fish_ylemctl_using_subcommand doctor" -s q -l quiet -d 'No spinner, notes or warnings'
complete -c ylemctl -n "__fish_ylemctl_using_subcommand doctor" -s h -l help -d 'Print help'
complete -c ylemctl -n "__fish_ylemctl_using_subcommand doctor" -s V -l version -d 'Print version'
complete -c ylemctl -n "__fish_ylemctl_using_subcommand watch" -l interval -d 'How often each entity is looked at' -r
complete -c ylemctl -n "__fish_ylemctl_using_subcommand watch" -l since -d 'Replay first the runs that ended within D (default: none, only what happens from now)' -r
complete -c ylemctl -n "__fish_ylemctl_using_subcommand watch" -l decrypt-key-file -d 'Key file (32 bytes, hex or Base64) that opens encrypted task outputs, to say why a run failed (also YLEM_DECRYPT_KEY_FILE, or the profile\'s decrypt_key_file)' -r -F
complete -c ylemctl -n "__fish_ylemctl_using_subcommand watch" -s p -l profile -d 'Profile to use' -r
complete -c ylemctl -n "__fish_ylemctl_using_subcommand watch" -l base-url -d 'Base URL of the service (a profile\'s credentials go only to its own)' -r
complete -c ylemctl -n "__fish_ylemctl_using_subcommand watch" -s o -l output -d 'Output format (prometheus: stats, last-run, status and check; junit: run pipeline --wait and runs --run)' -r -f -a "table\t''
json\t''
jsonl\t''
csv\t''
prometheus\t''
junit\t''"
complete -c ylemctl -n "__fish_ylemctl_using_subcommand watch" -l jq -d 'Filter the JSON output with a jq expression, as gh --jq: strings raw (escaped on a terminal; off it a string may span lines: use tojson for one a line), other values compact, one a line; each row of logs, runs and -o jsonl on its own (implies -o json; exit 2 for a bad expression, before any request)' -r
complete -c ylemctl -n "__fish_ylemctl_using_subcommand watch" -l fields -d 'Columns or keys to keep, in this order (comma-separated); a table never leaves them out to fit the terminal' -r
complete -c ylemctl -n "__fish_ylemctl_using_subcommand watch" -l output-file -d 'With -o prometheus: write the exposition to PATH atomically (a temporary file in the same directory, then renamed), for node_exporter\'s textfile collector' -r -F
complete -c ylemctl -n "__fish_ylemctl_using_subcommand watch" -l connect-timeout -d 'Longest time to connect (TCP and TLS) [default: 10s]' -r
complete -c ylemctl -n "__fish_ylemctl_using_subcommand watch" -l timeout -d 'Longest wait for the server with no progress: the first byte, any stall between bytes; a body that keeps arriving is never cut [default: 60s]' -r
complete -c ylemctl -n "__fish_ylemctl_using_subcommand watch" -l max-time -d 'Longest time for the whole command, retries and waits included (off by default; `check` defaults to 50s, inside a monitoring plugin\'s 60 s)' -r
complete -c ylemctl -n "__fish_ylemctl_using_subcommand watch" -l settle -d 'The settle time of every command that judges a run (run --wait, runs, last-run, check, status, watch, metrics serve, logs -f --run): a pipeline run without a known task set has finished when no new task reported for this long, a workflow\'s success counts after it (also YLEM_SETTLE, or the profile\'s settle) [default: a pipeline\'s 3x the longest gap between two tasks of its past runs, at least 10s, 10m without history; a workflow\'s 10m]' -r
complete -c ylemctl -n "__fish_ylemctl_using_subcommand watch" -l retries -d 'Retries of idempotent requests (GET, token); a run start is never retried [default: 2]' -r
complete -c ylemctl -n "__fish_ylemctl_using_subcommand watch" -l concurrency -d 'Requests in flight at once when several IDs are given [default: 8]' -r
complete -c ylemctl -n "__fish_ylemctl_using_subcommand watch" -l color -d 'When to use colour (NO_COLOR turns it off even with always; CLICOLOR_FORCE on in auto)' -r -f -a "auto\t''
always\t''
never\t''"
complete -c ylemctl -n "__fish_ylemctl_using_subcommand watch" -l no-header -d 'No header row (table, csv)'
complete -c ylemctl -n "__fish_ylemctl_using_subcommand watch" -l csv-raw -d 'With -o csv: text cells as sent (by default one starting with = + - @, tab or CR gets a \' in front, so a spreadsheet does not run it as a formula, and control characters are escaped as in tables)'
complete -c ylemctl -n "__fish_ylemctl_using_subcommand watch" -l local -d 'Read naive times and show times in the local time zone (also YLEM_TZ=local)'
complete -c ylemctl -n "__fish_ylemctl_using_subcommand watch" -s v -l verbose -d '-v: one line per HTTP request on stderr; -vv: also headers and bodies (secrets redacted)'
complete -c ylemctl -n "__fish_ylemctl_using_subcommand watch" -s q -l quiet -d 'No spinner, notes or warnings'
complete -c ylemctl -n "__fish_ylemctl_using_subcommand watch" -s h -l help -d 'Print help'
complete -c ylemctl -n "__fish_ylemctl_using_subcommand watch" -s V -l version -d 'Print version'
complete -c ylemctl -n "__fish_ylemctl_using_subcommand metrics; and not __fish_seen_subcommand_from serve help" -s p -l profile -d 'Profile to use' -r
complete -c ylemctl -n "__fish_ylemctl_using_subcommand metrics; and not __fish_seen_subcommand_from serve help" -l base-url -d 'Base URL of the service (a profile\'s credentials go only to its own)' -r
complete -c ylemctl -n "__fish_ylemctl_using_subcommand metrics; and not __fish_seen_subcommand_from serve help" -s o -l output -d 'Output format (prometheus: stats, last-run, status and check; junit: run pipeline --wait and runs --run)' -r -f -a "table\t''
json\t''
jsonl\t''
csv\t''
prometheus\t''
junit\t''"
complete -c ylemctl -n "__fish_ylemctl_using_subcommand metrics; and not __fish_seen_subcommand_from serve help" -l jq -d 'Filter the JSON output with a jq expression, as gh --jq: strings raw (escaped on a terminal; off it a string may span lines: use tojson for one a line), other values compact, one a line; each row of logs, runs and -o jsonl on its own (implies -o json; exit 2 for a bad expression, before any request)' -r
complete -c ylemctl -n "__fish_ylemctl_using_subcommand metrics; and not __fish_seen_subcommand_from serve help" -l fields -d 'Columns or keys to keep, in this order (comma-separated); a table never leaves them out to fit the terminal' -r
complete -c ylemctl -n "__fish_ylemctl_using_subcommand metrics; and not __fish_seen_subcommand_from serve help" -l output-file -d 'With -o prometheus: write the exposition to PATH atomically (a temporary file in the same directory, then renamed), for node_exporter\'s textfile collector' -r -F
complete -c ylemctl -n "__fish_ylemctl_using_subcommand metrics; and not __fish_seen_subcommand_from serve help" -l connect-timeout -d 'Longest time to connect (TCP and TLS) [default: 10s]' -r
complete -c ylemctl -n "__fish_ylemctl_using_subcommand metrics; and not __fish_seen_subcommand_from serve help" -l timeout -d 'Longest wait for the server with no progress: the first byte, any stall between bytes; a body that keeps arriving is never cut [default: 60s]' -r
complete -c ylemctl -n "__fish_ylemctl_using_subcommand metrics; and not __fish_seen_subcommand_from serve help" -l max-time -d 'Longest time for the whole command, retries and waits included (off by default; `check` defaults to 50s, inside a monitoring plugin\'s 60 s)' -r
complete -c ylemctl -n "__fish_ylemctl_using_subcommand metrics; and not __fish_seen_subcommand_from serve help" -l settle -d 'The settle time of every command that judges a run (run --wait, runs, last-run, check, status, watch, metrics serve, logs -f --run): a pipeline run without a known task set has finished when no new task reported for this long, a workflow\'s success counts after it (also YLEM_SETTLE, or the profile\'s settle) [default: a pipeline\'s 3x the longest gap between two tasks of its past runs, at least 10s, 10m without history; a workflow\'s 10m]' -r
complete -c ylemctl -n "__fish_ylemctl_using_subcommand metrics; and not __fish_seen_subcommand_from serve help" -l retries -d 'Retries of idempotent requests (GET, token); a run start is never retried [default: 2]' -r
complete -c ylemctl -n "__fish_ylemctl_using_subcommand metrics; and not __fish_seen_subcommand_from serve help" -l concurrency -d 'Requests in flight at once when several IDs are given [default: 8]' -r
complete -c ylemctl -n "__fish_ylemctl_using_subcommand metrics; and not __fish_seen_subcommand_from serve help" -l color -d 'When to use colour (NO_COLOR turns it off even with always; CLICOLOR_FORCE on in auto)' -r -f -a "auto\t''
always\t''
never\t''"
complete -c ylemctl -n "__fish_ylemctl_using_subcommand metrics; and not __fish_seen_subcommand_from serve help" -l no-header -d 'No header row (table, csv)'
complete -c ylemctl -n "__fish_ylemctl_using_subcommand metrics; and not __fish_seen_subcommand_from serve help" -l csv-raw -d 'With -o csv: text cells as sent (by default one starting with = + - @, tab or CR gets a \' in front, so a spreadsheet does not run it as a formula, and control characters are escaped as in tables)'
complete -c ylemctl -n "__fish_ylemctl_using_subcommand metrics; and not __fish_seen_subcommand_from serve help" -l local -d 'Read naive times and show times in the local time zone (also YLEM_TZ=local)'
complete -c ylemctl -n "__fish_ylemctl_using_subcommand metrics; and not __fish_seen_subcommand_from serve help" -s v -l verbose -d '-v: one line per HTTP request on stderr; -vv: also headers and bodies (secrets redacted)'
complete -c ylemctl -n "__fish_ylemctl_using_subcommand metrics; and not __fish_seen_subcommand_from serve help" -s q -l quiet -d 'No spinner, notes or warnings'
complete -c ylemctl -n "__fish_ylemctl_using_subcommand metrics; and not __fish_seen_subcommand_from serve help" -s h -l help -d 'Print help'
complete -c ylemctl -n "__fish_ylemctl_using_subcommand metrics; and not __fish_seen_subcommand_from serve help" -s V -l version -d 'Print version'
complete -c ylemctl -n "__fish_ylemctl_using_subcommand metrics; and not __fish_seen_subcommand_from serve help" -f -a "serve" -d 'Serve /metrics (Prometheus text format) and / until Ctrl-C or SIGTERM, fetching on scrape'
complete -c ylemctl -n "__fish_ylemctl_using_subcommand metrics; and not __fish_seen_subcommand_from serve help" -f -a "help" -d 'Print this message or the help of the given subcommand(s)'
complete -c ylemctl -n "__fish_ylemctl_using_subcommand metrics; and __fish_seen_subcommand_from serve" -l listen -d 'Address to listen on, HOST:PORT (a host name is resolved, e.g. localhost:9339); a non-loopback one needs --allow-remote' -r
complete -c ylemctl -n "__fish_ylemctl_using_subcommand metrics; and __fish_seen_subcommand_from serve" -l cache -d 'Serve the same figures for this long before asking the service again' -r
complete -c ylemctl -n "__fish_ylemctl_using_subcommand metrics; and __fish_seen_subcommand_from serve" -l scrape-timeout -d 'Answer every scrape within this long: an ID not answered by then is ylem_up 0 for that scrape (Prometheus\' own scrape timeout, less 0.5s, when that is shorter)' -r
complete -c ylemctl -n "__fish_ylemctl_using_subcommand metrics; and __fish_seen_subcommand_from serve" -l web-config-file -d 'TLS and basic auth, in the Prometheus exporter-toolkit\'s web configuration format (checked at start; read again when it changes)' -r -F
complete -c ylemctl -n "__fish_ylemctl_using_subcommand metrics; and __fish_seen_subcommand_from serve" -s p -l profile -d 'Profile to use' -r
complete -c ylemctl -n "__fish_ylemctl_using_subcommand metrics; and __fish_seen_subcommand_from serve" -l base-url -d 'Base URL of the service (a profile\'s credentials go only to its own)' -r
complete -c ylemctl -n "__fish_ylemctl_using_subcommand metrics; and __fish_seen_subcommand_from serve" -s o -l output -d 'Output format (prometheus: stats, last-run, status and check; junit: run pipeline --wait and runs --run)' -r -f -a "table\t''
json\t''
jsonl\t''
csv\t''
prometheus\t''
junit\t''"
complete -c ylemctl -n "__fish_ylemctl_using_subcommand metrics; and __fish_seen_subcommand_from serve" -l jq -d 'Filter the JSON output with a jq expression, as gh --jq: strings raw (escaped on a terminal; off it a string may span lines: use tojson for one a line), other values compact, one a line; each row of logs, runs and -o jsonl on its own (implies -o json; exit 2 for a bad expression, before any request)' -r
complete -c ylemctl -n "__fish_ylemctl_using_subcommand metrics; and __fish_seen_subcommand_from serve" -l fields -d 'Columns or keys to keep, in this order (comma-separated); a table never leaves them out to fit the terminal' -r
complete -c ylemctl -n "__fish_ylemctl_using_subcommand metrics; and __fish_seen_subcommand_from serve" -l output-file -d 'With -o prometheus: write the exposition to PATH atomically (a temporary file in the same directory, then renamed), for node_exporter\'s textfile collector' -r -F
complete -c ylemctl -n "__fish_ylemctl_using_subcommand metrics; and __fish_seen_subcommand_from serve" -l connect-timeout -d 'Longest time to connect (TCP and TLS) [default: 10s]' -r
complete -c ylemctl -n "__fish_ylemctl_using_subcommand metrics; and __fish_seen_subcommand_from serve" -l timeout -d 'Longest wait for the server with no progress: the first byte, any stall between bytes; a body that keeps arriving is never cut [default: 60s]' -r
complete -c ylemctl -n "__fish_ylemctl_using_subcommand metrics; and __fish_seen_subcommand_from serve" -l max-time -d 'Longest time for the whole command, retries and waits included (off by default; `check` defaults to 50s, inside a monitoring plugin\'s 60 s)' -r
complete -c ylemctl -n "__fish_ylemctl_using_subcommand metrics; and __fish_seen_subcommand_from serve" -l settle -d 'The settle time of every command that judges a run (run --wait, runs, last-run, check, status, watch, metrics serve, logs -f --run): a pipeline run without a known task set has finished when no new task reported for this long, a workflow\'s success counts after it (also YLEM_SETTLE, or the profile\'s settle) [default: a pipeline\'s 3x the longest gap between two tasks of its past runs, at least 10s, 10m without history; a workflow\'s 10m]' -r
complete -c ylemctl -n "__fish_ylemctl_using_subcommand metrics; and __fish_seen_subcommand_from serve" -l retries -d 'Retries of idempotent requests (GET, token); a run start is never retried [default: 2]' -r
complete -c ylemctl -n "__fish_ylemctl_using_subcommand metrics; and __fish_seen_subcommand_from serve" -l concurrency -d 'Requests in flight at once when several IDs are given [default: 8]' -r
complete -c ylemctl -n "__fish_ylemctl_using_subcommand metrics; and __fish_seen_subcommand_from serve" -l color -d 'When to use colour (NO_COLOR turns it off even with always; CLICOLOR_FORCE on in auto)' -r -f -a "auto\t''
always\t''
never\t''"
complete -c ylemctl -n "__fish_ylemctl_using_subcommand metrics; and __fish_seen_subcommand_from serve" -l allow-remote -d 'Listen on a non-loopback address (anyone who reaches it sees the metrics)'
complete -c ylemctl -n "__fish_ylemctl_using_subcommand metrics; and __fish_seen_subcommand_from serve" -l no-header -d 'No header row (table, csv)'
complete -c ylemctl -n "__fish_ylemctl_using_subcommand metrics; and __fish_seen_subcommand_from serve" -l csv-raw -d 'With -o csv: text cells as sent (by default one starting with = + - @, tab or CR gets a \' in front, so a spreadsheet does not run it as a formula, and control characters are escaped as in tables)'
complete -c ylemctl -n "__fish_ylemctl_using_subcommand metrics; and __fish_seen_subcommand_from serve" -l local -d 'Read naive times and show times in the local time zone (also YLEM_TZ=local)'
complete -c ylemctl -n "__fish_ylemctl_using_subcommand metrics; and __fish_seen_subcommand_from serve" -s v -l verbose -d '-v: one line per HTTP request on stderr; -vv: also headers and bodies (secrets redacted)'
complete -c ylemctl -n "__fish_ylemctl_using_subcommand metrics; and __fish_seen_subcommand_from serve" -s q -l quiet -d 'No spinner, notes or warnings'
complete -c ylemctl -n "__fish_ylemctl_using_subcommand metrics; and __fish_seen_subcommand_from serve" -s h -l help -d 'Print help'
complete -c ylemctl -n "__fish_ylemctl_using_subcommand metrics; and __fish_seen_subcommand_from serve" -s V -l version -d 'Print version'
complete -c ylemctl -n "__fish_ylemctl_using_subcommand metrics; and __fish_seen_subcommand_from help" -f -a "serve" -d 'Serve /metrics (Prometheus text format) and / until Ctrl-C or SIGTERM, fetching on scrape'
complete -c ylemctl -n "__fish_ylemctl_using_subcommand metrics; and __fish_seen_subcommand_from help" -f -a "help" -d 'Print this message or the help of the given subcommand(s)'
complete -c ylemctl -n "__fish_ylemctl_using_subcommand export; and not __fish_seen_subcommand_from otlp openlineage help" -s p -l profile -d 'Profile to use' -r
complete -c ylemctl -n "__fish_ylemctl_using_subcommand export; and not __fish_seen_subcommand_from otlp openlineage help" -l base-url -d 'Base URL of the service (a profile\'s credentials go only to its own)' -r
complete -c ylemctl -n "__fish_ylemctl_using_subcommand export; and not __fish_seen_subcommand_from otlp openlineage help" -s o -l output -d 'Output format (prometheus: stats, last-run, status and check; junit: run pipeline --wait and runs --run)' -r -f -a "table\t''
json\t''
jsonl\t''
csv\t''
prometheus\t''
junit\t''"
complete -c ylemctl -n "__fish_ylemctl_using_subcommand export; and not __fish_seen_subcommand_from otlp openlineage help" -l jq -d 'Filter the JSON output with a jq expression, as gh --jq: strings raw (escaped on a terminal; off it a string may span lines: use tojson for one a line), other values compact, one a line; each row of logs, runs and -o jsonl on its own (implies -o json; exit 2 for a bad expression, before any request)' -r
complete -c ylemctl -n "__fish_ylemctl_using_subcommand export; and not __fish_seen_subcommand_from otlp openlineage help" -l fields -d 'Columns or keys to keep, in this order (comma-separated); a table never leaves them out to fit the terminal' -r
complete -c ylemctl -n "__fish_ylemctl_using_subcommand export; and not __fish_seen_subcommand_from otlp openlineage help" -l output-file -d 'With -o prometheus: write the exposition to PATH atomically (a temporary file in the same directory, then renamed), for node_exporter\'s textfile collector' -r -F
complete -c ylemctl -n "__fish_ylemctl_using_subcommand export; and not __fish_seen_subcommand_from otlp openlineage help" -l connect-timeout -d 'Longest time to connect (TCP and TLS) [default: 10s]' -r
complete -c ylemctl -n "__fish_ylemctl_using_subcommand export; and not __fish_seen_subcommand_from otlp openlineage help" -l timeout -d 'Longest wait for the server with no progress: the first byte, any stall between bytes; a body that keeps arriving is never cut [default: 60s]' -r
complete -c ylemctl -n "__fish_ylemctl_using_subcommand export; and not __fish_seen_subcommand_from otlp openlineage help" -l max-time -d 'Longest time for the whole command, retries and waits included (off by default; `check` defaults to 50s, inside a monitoring plugin\'s 60 s)' -r
complete -c ylemctl -n "__fish_ylemctl_using_subcommand export; and not __fish_seen_subcommand_from otlp openlineage help" -l settle -d 'The settle time of every command that judges a run (run --wait, runs, last-run, check, status, watch, metrics serve, logs -f --run): a pipeline run without a known task set has finished when no new task reported for this long, a workflow\'s success counts after it (also YLEM_SETTLE, or the profile\'s settle) [default: a pipeline\'s 3x the longest gap between two tasks of its past runs, at least 10s, 10m without history; a workflow\'s 10m]' -r
complete -c ylemctl -n "__fish_ylemctl_using_subcommand export; and not __fish_seen_subcommand_from otlp openlineage help" -l retries -d 'Retries of idempotent requests (GET, token); a run start is never retried [default: 2]' -r
complete -c ylemctl -n "__fish_ylemctl_using_subcommand export; and not __fish_seen_subcommand_from otlp openlineage help" -l concurrency -d 'Requests in flight at once when several IDs are given [default: 8]' -r
complete -c ylemctl -n "__fish_ylemctl_using_subcommand export; and not __fish_seen_subcommand_from otlp openlineage help" -l color -d 'When to use colour (NO_COLOR turns it off even with always; CLICOLOR_FORCE on in auto)' -r -f -a "auto\t''
always\t''
never\t''"
complete -c ylemctl -n "__fish_ylemctl_using_subcommand export; and not __fish_seen_subcommand_from otlp openlineage help" -l no-header -d 'No header row (table, csv)'
complete -c ylemctl -n "__fish_ylemctl_using_subcommand export; and not __fish_seen_subcommand_from otlp openlineage help" -l csv-raw -d 'With -o csv: text cells as sent (by default one starting with = + - @, tab or CR gets a \' in front, so a spreadsheet does not run it as a formula, and control characters are escaped as in tables)'
complete -c ylemctl -n "__fish_ylemctl_using_subcommand export; and not __fish_seen_subcommand_from otlp openlineage help" -l local -d 'Read naive times and show times in the local time zone (also YLEM_TZ=local)'
complete -c ylemctl -n "__fish_ylemctl_using_subcommand export; and not __fish_seen_subcommand_from otlp openlineage help" -s v -l verbose -d '-v: one line per HTTP request on stderr; -vv: also headers and bodies (secrets redacted)'
complete -c ylemctl -n "__fish_ylemctl_using_subcommand export; and not __fish_seen_subcommand_from otlp openlineage help" -s q -l quiet -d 'No spinner, notes or warnings'
complete -c ylemctl -n "__fish_ylemctl_using_subcommand export; and not __fish_seen_subcommand_from otlp openlineage help" -s h -l help -d 'Print help'
complete -c ylemctl -n "__fish_ylemctl_using_subcommand export; and not __fish_seen_subcommand_from otlp openlineage help" -s V -l version -d 'Print version'
complete -c ylemctl -n "__fish_ylemctl_using_subcommand export; and not __fish_seen_subcommand_from otlp openlineage help" -f -a "otlp" -d 'Each finished pipeline run as one OpenTelemetry trace, by OTLP/HTTP (or OTLP JSON lines on stdout)'
complete -c ylemctl -n "__fish_ylemctl_using_subcommand export; and not __fish_seen_subcommand_from otlp openlineage help" -f -a "openlineage" -d 'Each finished pipeline run as an OpenLineage START and COMPLETE or FAIL event (POSTed, or JSON lines on stdout)'
complete -c ylemctl -n "__fish_ylemctl_using_subcommand export; and not __fish_seen_subcommand_from otlp openlineage help" -f -a "help" -d 'Print this message or the help of the given subcommand(s)'
complete -c ylemctl -n "__fish_ylemctl_using_subcommand export; and __fish_seen_subcommand_from otlp" -l from -d 'Start: YYYY-MM-DD[ HH:MM:SS], ISO 8601, now, today, yesterday, or an age such as 7d' -r
complete -c ylemctl -n "__fish_ylemctl_using_subcommand export; and __fish_seen_subcommand_from otlp" -l to -d 'End (inclusive; a bare date means the end of that day)' -r
complete -c ylemctl -n "__fish_ylemctl_using_subcommand export; and __fish_seen_subcommand_from otlp" -l since -d 'Start of a window that ends now, e.g. 90m, 24h, 7d, 2w, or a TIME' -r
complete -c ylemctl -n "__fish_ylemctl_using_subcommand export; and __fish_seen_subcommand_from otlp" -l poll -d 'With --follow: how often to look for runs that finished' -r
complete -c ylemctl -n "__fish_ylemctl_using_subcommand export; and __fish_seen_subcommand_from otlp" -l decrypt-key-file -d 'Key file (32 bytes, hex or Base64) that opens encrypted task outputs, to say why a run failed (also YLEM_DECRYPT_KEY_FILE, or the profile\'s decrypt_key_file)' -r -F
complete -c ylemctl -n "__fish_ylemctl_using_subcommand export; and __fish_seen_subcommand_from otlp" -l endpoint -d 'The OTLP/HTTP receiver: a base URL (/v1/traces is appended, as for OTEL_EXPORTER_OTLP_ENDPOINT) or the traces URL itself; without one (nor the variables), OTLP JSON lines on stdout' -r
complete -c ylemctl -n "__fish_ylemctl_using_subcommand export; and __fish_seen_subcommand_from otlp" -l protocol -d 'How the traces are encoded (default: OTEL_EXPORTER_OTLP_PROTOCOL, else http/protobuf)' -r -f -a "http/protobuf\t''
http/json\t''"
complete -c ylemctl -n "__fish_ylemctl_using_subcommand export; and __fish_seen_subcommand_from otlp" -s p -l profile -d 'Profile to use' -r
complete -c ylemctl -n "__fish_ylemctl_using_subcommand export; and __fish_seen_subcommand_from otlp" -l base-url -d 'Base URL of the service (a profile\'s credentials go only to its own)' -r
complete -c ylemctl -n "__fish_ylemctl_using_subcommand export; and __fish_seen_subcommand_from otlp" -s o -l output -d 'Output format (prometheus: stats, last-run, status and check; junit: run pipeline --wait and runs --run)' -r -f -a "table\t''
json\t''
jsonl\t''
csv\t''
prometheus\t''
junit\t''"
complete -c ylemctl -n "__fish_ylemctl_using_subcommand export; and __fish_seen_subcommand_from otlp" -l jq -d 'Filter the JSON output with a jq expression, as gh --jq: strings raw (escaped on a terminal; off it a string may span lines: use tojson for one a line), other values compact, one a line; each row of logs, runs and -o jsonl on its own (implies -o json; exit 2 for a bad expression, before any request)' -r
complete -c ylemctl -n "__fish_ylemctl_using_subcommand export; and __fish_seen_subcommand_from otlp" -l fields -d 'Columns or keys to keep, in this order (comma-separated); a table never leaves them out to fit the terminal' -r
complete -c ylemctl -n "__fish_ylemctl_using_subcommand export; and __fish_seen_subcommand_from otlp" -l output-file -d 'With -o prometheus: write the exposition to PATH atomically (a temporary file in the same directory, then renamed), for node_exporter\'s textfile collector' -r -F
complete -c ylemctl -n "__fish_ylemctl_using_subcommand export; and __fish_seen_subcommand_from otlp" -l connect-timeout -d 'Longest time to connect (TCP and TLS) [default: 10s]' -r
complete -c ylemctl -n "__fish_ylemctl_using_subcommand export; and __fish_seen_subcommand_from otlp" -l timeout -d 'Longest wait for the server with no progress: the first byte, any stall between bytes; a body that keeps arriving is never cut [default: 60s]' -r
complete -c ylemctl -n "__fish_ylemctl_using_subcommand export; and __fish_seen_subcommand_from otlp" -l max-time -d 'Longest time for the whole command, retries and waits included (off by default; `check` defaults to 50s, inside a monitoring plugin\'s 60 s)' -r
complete -c ylemctl -n "__fish_ylemctl_using_subcommand export; and __fish_seen_subcommand_from otlp" -l settle -d 'The settle time of every command that judges a run (run --wait, runs, last-run, check, status, watch, metrics serve, logs -f --run): a pipeline run without a known task set has finished when no new task reported for this long, a workflow\'s success counts after it (also YLEM_SETTLE, or the profile\'s settle) [default: a pipeline\'s 3x the longest gap between two tasks of its past runs, at least 10s, 10m without history; a workflow\'s 10m]' -r
complete -c ylemctl -n "__fish_ylemctl_using_subcommand export; and __fish_seen_subcommand_from otlp" -l retries -d 'Retries of idempotent requests (GET, token); a run start is never retried [default: 2]' -r
complete -c ylemctl -n "__fish_ylemctl_using_subcommand export; and __fish_seen_subcommand_from otlp" -l concurrency -d 'Requests in flight at once when several IDs are given [default: 8]' -r
complete -c ylemctl -n "__fish_ylemctl_using_subcommand export; and __fish_seen_subcommand_from otlp" -l color -d 'When to use colour (NO_COLOR turns it off even with always; CLICOLOR_FORCE on in auto)' -r -f -a "auto\t''
always\t''
never\t''"
complete -c ylemctl -n "__fish_ylemctl_using_subcommand export; and __fish_seen_subcommand_from otlp" -l follow -d 'Keep exporting runs as they finish, until Ctrl-C or SIGTERM'
complete -c ylemctl -n "__fish_ylemctl_using_subcommand export; and __fish_seen_subcommand_from otlp" -l no-header -d 'No header row (table, csv)'
complete -c ylemctl -n "__fish_ylemctl_using_subcommand export; and __fish_seen_subcommand_from otlp" -l csv-raw -d 'With -o csv: text cells as sent (by default one starting with = + - @, tab or CR gets a \' in front, so a spreadsheet does not run it as a formula, and control characters are escaped as in tables)'
complete -c ylemctl -n "__fish_ylemctl_using_subcommand export; and __fish_seen_subcommand_from otlp" -l local -d 'Read naive times and show times in the local time zone (also YLEM_TZ=local)'
complete -c ylemctl -n "__fish_ylemctl_using_subcommand export; and __fish_seen_subcommand_from otlp" -s v -l verbose -d '-v: one line per HTTP request on stderr; -vv: also headers and bodies (secrets redacted)'
complete -c ylemctl -n "__fish_ylemctl_using_subcommand export; and __fish_seen_subcommand_from otlp" -s q -l quiet -d 'No spinner, notes or warnings'
complete -c ylemctl -n "__fish_ylemctl_using_subcommand export; and __fish_seen_subcommand_from otlp" -s h -l help -d 'Print help'
complete -c ylemctl -n "__fish_ylemctl_using_subcommand export; and __fish_seen_subcommand_from otlp" -s V -l version -d 'Print version'
complete -c ylemctl -n "__fish_ylemctl_using_subcommand export; and __fish_seen_subcommand_from openlineage" -l from -d 'Start: YYYY-MM-DD[ HH:MM:SS], ISO 8601, now, today, yesterday, or an age such as 7d' -r
complete -c ylemctl -n "__fish_ylemctl_using_subcommand export; and __fish_seen_subcommand_from openlineage" -l to -d 'End (inclusive; a bare date means the end of that day)' -r
complete -c ylemctl -n "__fish_ylemctl_using_subcommand export; and __fish_seen_subcommand_from openlineage" -l since -d 'Start of a window that ends now, e.g. 90m, 24h, 7d, 2w, or a TIME' -r
complete -c ylemctl -n "__fish_ylemctl_using_subcommand export; and __fish_seen_subcommand_from openlineage" -l poll -d 'With --follow: how often to look for runs that finished' -r
complete -c ylemctl -n "__fish_ylemctl_using_subcommand export; and __fish_seen_subcommand_from openlineage" -l decrypt-key-file -d 'Key file (32 bytes, hex or Base64) that opens encrypted task outputs, to say why a run failed (also YLEM_DECRYPT_KEY_FILE, or the profile\'s decrypt_key_file)' -r -F
complete -c ylemctl -n "__fish_ylemctl_using_subcommand export; and __fish_seen_subcommand_from openlineage" -l url -d 'The OpenLineage HTTP endpoint: a base URL (/api/v1/lineage is appended) or the endpoint itself; without one (nor OPENLINEAGE_URL), JSON lines on stdout' -r
complete -c ylemctl -n "__fish_ylemctl_using_subcommand export; and __fish_seen_subcommand_from openlineage" -l namespace -d 'The jobs\' namespace (default: OPENLINEAGE_NAMESPACE, else the service\'s host)' -r
complete -c ylemctl -n "__fish_ylemctl_using_subcommand export; and __fish_seen_subcommand_from openlineage" -s p -l profile -d 'Profile to use' -r
complete -c ylemctl -n "__fish_ylemctl_using_subcommand export; and __fish_seen_subcommand_from openlineage" -l base-url -d 'Base URL of the service (a profile\'s credentials go only to its own)' -r
complete -c ylemctl -n "__fish_ylemctl_using_subcommand export; and __fish_seen_subcommand_from openlineage" -s o -l output -d 'Output format (prometheus: stats, last-run, status and check; junit: run pipeline --wait and runs --run)' -r -f -a "table\t''
json\t''
jsonl\t''
csv\t''
prometheus\t''
junit\t''"
complete -c ylemctl -n "__fish_ylemctl_using_subcommand export; and __fish_seen_subcommand_from openlineage" -l jq -d 'Filter the JSON output with a jq expression, as gh --jq: strings raw (escaped on a terminal; off it a string may span lines: use tojson for one a line), other values compact, one a line; each row of logs, runs and -o jsonl on its own (implies -o json; exit 2 for a bad expression, before any request)' -r
complete -c ylemctl -n "__fish_ylemctl_using_subcommand export; and __fish_seen_subcommand_from openlineage" -l fields -d 'Columns or keys to keep, in this order (comma-separated); a table never leaves them out to fit the terminal' -r
complete -c ylemctl -n "__fish_ylemctl_using_subcommand export; and __fish_seen_subcommand_from openlineage" -l output-file -d 'With -o prometheus: write the exposition to PATH atomically (a temporary file in the same directory, then renamed), for node_exporter\'s textfile collector' -r -F
complete -c ylemctl -n "__fish_ylemctl_using_subcommand export; and __fish_seen_subcommand_from openlineage" -l connect-timeout -d 'Longest time to connect (TCP and TLS) [default: 10s]' -r
complete -c ylemctl -n "__fish_ylemctl_using_subcommand export; and __fish_seen_subcommand_from openlineage" -l timeout -d 'Longest wait for the server with no progress: the first byte, any stall between bytes; a body that keeps arriving is never cut [default: 60s]' -r
complete -c ylemctl -n "__fish_ylemctl_using_subcommand export; and __fish_seen_subcommand_from openlineage" -l max-time -d 'Longest time for the whole command, retries and waits included (off by default; `check` defaults to 50s, inside a monitoring plugin\'s 60 s)' -r
complete -c ylemctl -n "__fish_ylemctl_using_subcommand export; and __fish_seen_subcommand_from openlineage" -l settle -d 'The settle time of every command that judges a run (run --wait, runs, last-run, check, status, watch, metrics serve, logs -f --run): a pipeline run without a known task set has finished when no new task reported for this long, a workflow\'s success counts after it (also YLEM_SETTLE, or the profile\'s settle) [default: a pipeline\'s 3x the longest gap between two tasks of its past runs, at least 10s, 10m without history; a workflow\'s 10m]' -r
complete -c ylemctl -n "__fish_ylemctl_using_subcommand export; and __fish_seen_subcommand_from openlineage" -l retries -d 'Retries of idempotent requests (GET, token); a run start is never retried [default: 2]' -r
complete -c ylemctl -n "__fish_ylemctl_using_subcommand export; and __fish_seen_subcommand_from openlineage" -l concurrency -d 'Requests in flight at once when several IDs are given [default: 8]' -r
complete -c ylemctl -n "__fish_ylemctl_using_subcommand export; and __fish_seen_subcommand_from openlineage" -l color -d 'When to use colour (NO_COLOR turns it off even with always; CLICOLOR_FORCE on in auto)' -r -f -a "auto\t''
always\t''
never\t''"
complete -c ylemctl -n "__fish_ylemctl_using_subcommand export; and __fish_seen_subcommand_from openlineage" -l follow -d 'Keep exporting runs as they finish, until Ctrl-C or SIGTERM'
complete -c ylemctl -n "__fish_ylemctl_using_subcommand export; and __fish_seen_subcommand_from openlineage" -l no-header -d 'No header row (table, csv)'
complete -c ylemctl -n "__fish_ylemctl_using_subcommand export; and __fish_seen_subcommand_from openlineage" -l csv-raw -d 'With -o csv: text cells as sent (by default one starting with = + - @, tab or CR gets a \' in front, so a spreadsheet does not run it as a formula, and control characters are escaped as in tables)'
complete -c ylemctl -n "__fish_ylemctl_using_subcommand export; and __fish_seen_subcommand_from openlineage" -l local -d 'Read naive times and show times in the local time zone (also YLEM_TZ=local)'
complete -c ylemctl -n "__fish_ylemctl_using_subcommand export; and __fish_seen_subcommand_from openlineage" -s v -l verbose -d '-v: one line per HTTP request on stderr; -vv: also headers and bodies (secrets redacted)'
complete -c ylemctl -n "__fish_ylemctl_using_subcommand export; and __fish_seen_subcommand_from openlineage" -s q -l quiet -d 'No spinner, notes or warnings'
complete -c ylemctl -n "__fish_ylemctl_using_subcommand export; and __fish_seen_subcommand_from openlineage" -s h -l help -d 'Print help'
complete -c ylemctl -n "__fish_ylemctl_using_subcommand export; and __fish_seen_subcommand_from openlineage" -s V -l version -d 'Print version'
complete -c ylemctl -n "__fish_ylemctl_using_subcommand export; and __fish_seen_subcommand_from help" -f -a "otlp" -d 'Each finished pipeline run as one OpenTelemetry trace, by OTLP/HTTP (or OTLP JSON lines on stdout)'
complete -c ylemctl -n "__fish_ylemctl_using_subcommand export; and __fish_seen_subcommand_from help" -f -a "openlineage" -d 'Each finished pipeline run as an OpenLineage START and COMPLETE or FAIL event (POSTed, or JSON lines on stdout)'
complete -c ylemctl -n "__fish_ylemctl_using_subcommand export; and __fish_seen_subcommand_from help" -f -a "help" -d 'Print this message or the help of the given subcommand(s)'
complete -c ylemctl -n "__fish_ylemctl_using_subcommand sandbox" -l listen -d 'Loopback address to listen on (port 0 picks a free one)' -r
complete -c ylemctl -n "__fish_ylemctl_using_subcommand sandbox" -l seed -d 'Seed of the generated pipelines, workflows, tasks and history' -r
complete -c ylemctl -n "__fish_ylemctl_using_subcommand sandbox" -l dialect -d 'Behave as the specification says, or as the open-source server does' -r -f -a "spec\t'As the service specification says'
ylem\t'As the open-source Ylem server behaves'"
complete -c ylemctl -n "__fish_ylemctl_using_subcommand sandbox" -l latency -d 'Delay added before every response, e.g. 100ms' -r
complete -c ylemctl -n "__fish_ylemctl_using_subcommand sandbox" -l fail-rate -d 'Share of requests answered with a fault, from 0 to 1 (spec: 503; ylem: 500 with a JSON body, or 502-504)' -r
complete -c ylemctl -n "__fish_ylemctl_using_subcommand sandbox" -l token-ttl -d 'Lifetime of issued tokens' -r
complete -c ylemctl -n "__fish_ylemctl_using_subcommand sandbox" -l task-delay -d 'Live time of one second of task time: each task of a started run reports after its duration times this' -r
complete -c ylemctl -n "__fish_ylemctl_using_subcommand sandbox" -l token-params -d 'Where the token endpoint reads its parameters (query: the spec\'s form only, as a server that ignores a form body)' -r -f -a "both\t'A form-encoded body and the query string'
body\t'A form-encoded body only'
query\t'The query string only'"
complete -c ylemctl -n "__fish_ylemctl_using_subcommand sandbox" -l clock-skew -d 'Put every response\'s Date header this far off the true time, ahead or behind (-), e.g. 90s, -10m' -r
complete -c ylemctl -n "__fish_ylemctl_using_subcommand sandbox" -l scopes -d 'Scopes tokens grant, enforced with 403: comma-separated, of stats:read, pipelines:run and workflows:run ("" grants none); not given, all are granted' -r
complete -c ylemctl -n "__fish_ylemctl_using_subcommand sandbox" -l extra-pipelines -d 'Benchmark scale: N more ordinary pipelines, after all the others (which keep their UUIDs), each run about hourly over 14 days' -r
complete -c ylemctl -n "__fish_ylemctl_using_subcommand sandbox" -s p -l profile -d 'Profile to use' -r
complete -c ylemctl -n "__fish_ylemctl_using_subcommand sandbox" -l base-url -d 'Base URL of the service (a profile\'s credentials go only to its own)' -r
complete -c ylemctl -n "__fish_ylemctl_using_subcommand sandbox" -l fields -d 'Columns or keys to keep, in this order (comma-separated); a table never leaves them out to fit the terminal' -r
complete -c ylemctl -n "__fish_ylemctl_using_subcommand sandbox" -l connect-timeout -d 'Longest time to connect (TCP and TLS) [default: 10s]' -r
complete -c ylemctl -n "__fish_ylemctl_using_subcommand sandbox" -l timeout -d 'Longest wait for the server with no progress: the first byte, any stall between bytes; a body that keeps arriving is never cut [default: 60s]' -r
complete -c ylemctl -n "__fish_ylemctl_using_subcommand sandbox" -l max-time -d 'Longest time for the whole command, retries and waits included (off by default; `check` defaults to 50s, inside a monitoring plugin\'s 60 s)' -r
complete -c ylemctl -n "__fish_ylemctl_using_subcommand sandbox" -l retries -d 'Retries of idempotent requests (GET, token); a run start is never retried [default: 2]' -r
complete -c ylemctl -n "__fish_ylemctl_using_subcommand sandbox" -l concurrency -d 'Requests in flight at once when several IDs are given [default: 8]' -r
complete -c ylemctl -n "__fish_ylemctl_using_subcommand sandbox" -s o -l output -d 'Output format (prometheus: stats, last-run, status and check; junit: run pipeline --wait and runs --run)' -r -f -a "table\t''
json\t''
jsonl\t''
csv\t''
prometheus\t''
junit\t''"
complete -c ylemctl -n "__fish_ylemctl_using_subcommand sandbox" -l jq -d 'Filter the JSON output with a jq expression, as gh --jq: strings raw (escaped on a terminal; off it a string may span lines: use tojson for one a line), other values compact, one a line; each row of logs, runs and -o jsonl on its own (implies -o json; exit 2 for a bad expression, before any request)' -r
complete -c ylemctl -n "__fish_ylemctl_using_subcommand sandbox" -l output-file -d 'With -o prometheus: write the exposition to PATH atomically (a temporary file in the same directory, then renamed), for node_exporter\'s textfile collector' -r -F
complete -c ylemctl -n "__fish_ylemctl_using_subcommand sandbox" -l settle -d 'The settle time of every command that judges a run (run --wait, runs, last-run, check, status, watch, metrics serve, logs -f --run): a pipeline run without a known task set has finished when no new task reported for this long, a workflow\'s success counts after it (also YLEM_SETTLE, or the profile\'s settle) [default: a pipeline\'s 3x the longest gap between two tasks of its past runs, at least 10s, 10m without history; a workflow\'s 10m]' -r
complete -c ylemctl -n "__fish_ylemctl_using_subcommand sandbox" -l color -d 'When to use colour (NO_COLOR turns it off even with always; CLICOLOR_FORCE on in auto)' -r -f -a "auto\t''
always\t''
never\t''"
complete -c ylemctl -n "__fish_ylemctl_using_subcommand sandbox" -l plan-disabled -d 'Answer 401 on every authenticated endpoint, even with a fresh token, as a plan with the API switched off'
complete -c ylemctl -n "__fish_ylemctl_using_subcommand sandbox" -l failing-workflows -d 'Test-only: every started workflow run fails (on its last task), for a failed workflow run on demand'
complete -c ylemctl -n "__fish_ylemctl_using_subcommand sandbox" -l no-header -d 'No header row (table, csv)'
complete -c ylemctl -n "__fish_ylemctl_using_subcommand sandbox" -l csv-raw -d 'With -o csv: text cells as sent (by default one starting with = + - @, tab or CR gets a \' in front, so a spreadsheet does not run it as a formula, and control characters are escaped as in tables)'
complete -c ylemctl -n "__fish_ylemctl_using_subcommand sandbox" -l local -d 'Read naive times and show times in the local time zone (also YLEM_TZ=local)'
complete -c ylemctl -n "__fish_ylemctl_using_subcommand sandbox" -s v -l verbose -d '-v: one line per HTTP request on stderr; -vv: also headers and bodies (secrets redacted)'
complete -c ylemctl -n "__fish_ylemctl_using_subcommand sandbox" -s q -l quiet -d 'No spinner, notes or warnings'
complete -c ylemctl -n "__fish_ylemctl_using_subcommand sandbox" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c ylemctl -n "__fish_ylemctl_using_subcommand sandbox" -s V -l version -d 'Print version'
complete -c ylemctl -n "__fish_ylemctl_using_subcommand demo" -s p -l profile -d 'Profile to use' -r
complete -c ylemctl -n "__fish_ylemctl_using_subcommand demo" -l base-url -d 'Base URL of the service (a profile\'s credentials go only to its own)' -r
complete -c ylemctl -n "__fish_ylemctl_using_subcommand demo" -s o -l output -d 'Output format (prometheus: stats, last-run, status and check; junit: run pipeline --wait and runs --run)' -r -f -a "table\t''
json\t''
jsonl\t''
csv\t''
prometheus\t''
junit\t''"
complete -c ylemctl -n "__fish_ylemctl_using_subcommand demo" -l jq -d 'Filter the JSON output with a jq expression, as gh --jq: strings raw (escaped on a terminal; off it a string may span lines: use tojson for one a line), other values compact, one a line; each row of logs, runs and -o jsonl on its own (implies -o json; exit 2 for a bad expression, before any request)' -r
complete -c ylemctl -n "__fish_ylemctl_using_subcommand demo" -l fields -d 'Columns or keys to keep, in this order (comma-separated); a table never leaves them out to fit the terminal' -r
complete -c ylemctl -n "__fish_ylemctl_using_subcommand demo" -l connect-timeout -d 'Longest time to connect (TCP and TLS) [default: 10s]' -r
complete -c ylemctl -n "__fish_ylemctl_using_subcommand demo" -l timeout -d 'Longest wait for the server with no progress: the first byte, any stall between bytes; a body that keeps arriving is never cut [default: 60s]' -r
complete -c ylemctl -n "__fish_ylemctl_using_subcommand demo" -l max-time -d 'Longest time for the whole command, retries and waits included (off by default; `check` defaults to 50s, inside a monitoring plugin\'s 60 s)' -r
complete -c ylemctl -n "__fish_ylemctl_using_subcommand demo" -l retries -d 'Retries of idempotent requests (GET, token); a run start is never retried [default: 2]' -r
complete -c ylemctl -n "__fish_ylemctl_using_subcommand demo" -l concurrency -d 'Requests in flight at once when several IDs are given [default: 8]' -r
complete -c ylemctl -n "__fish_ylemctl_using_subcommand demo" -l output-file -d 'With -o prometheus: write the exposition to PATH atomically (a temporary file in the same directory, then renamed), for node_exporter\'s textfile collector' -r -F
complete -c ylemctl -n "__fish_ylemctl_using_subcommand demo" -l settle -d 'The settle time of every command that judges a run (run --wait, runs, last-run, check, status, watch, metrics serve, logs -f --run): a pipeline run without a known task set has finished when no new task reported for this long, a workflow\'s success counts after it (also YLEM_SETTLE, or the profile\'s settle) [default: a pipeline\'s 3x the longest gap between two tasks of its past runs, at least 10s, 10m without history; a workflow\'s 10m]' -r
complete -c ylemctl -n "__fish_ylemctl_using_subcommand demo" -l color -d 'When to use colour (NO_COLOR turns it off even with always; CLICOLOR_FORCE on in auto)' -r -f -a "auto\t''
always\t''
never\t''"
complete -c ylemctl -n "__fish_ylemctl_using_subcommand demo" -l no-header -d 'No header row (table, csv)'
complete -c ylemctl -n "__fish_ylemctl_using_subcommand demo" -l csv-raw -d 'With -o csv: text cells as sent (by default one starting with = + - @, tab or CR gets a \' in front, so a spreadsheet does not run it as a formula, and control characters are escaped as in tables)'
complete -c ylemctl -n "__fish_ylemctl_using_subcommand demo" -l local -d 'Read naive times and show times in the local time zone (also YLEM_TZ=local)'
complete -c ylemctl -n "__fish_ylemctl_using_subcommand demo" -s v -l verbose -d '-v: one line per HTTP request on stderr; -vv: also headers and bodies (secrets redacted)'
complete -c ylemctl -n "__fish_ylemctl_using_subcommand demo" -s q -l quiet -d 'No spinner, notes or warnings'
complete -c ylemctl -n "__fish_ylemctl_using_subcommand demo" -s h -l help -d 'Print help'
complete -c ylemctl -n "__fish_ylemctl_using_subcommand demo" -s V -l version -d 'Print version'
complete -c ylemctl -n "__fish_ylemctl_using_subcommand login" -l client-id -d 'OAuth client id (asked for on a terminal when missing)' -r
complete -c ylemctl -n "__fish_ylemctl_using_subcommand login" -l store -d 'Where to keep the secret and tokens (default auto; also YLEM_CREDENTIAL_STORE)' -r -f -a "auto\t'The OS keyring if it answers within 3 s, else the file'
keyring\t'The OS keyring (Secret Service, macOS Keychain, Windows Credential Manager)'
file\t'A file of mode 0600 in a 0700 directory under the config directory'"
complete -c ylemctl -n "__fish_ylemctl_using_subcommand login" -l fields -d 'Columns or keys to keep, in this order (comma-separated); a table never leaves them out to fit the terminal' -r
complete -c ylemctl -n "__fish_ylemctl_using_subcommand login" -l concurrency -d 'Requests in flight at once when several IDs are given [default: 8]' -r
complete -c ylemctl -n "__fish_ylemctl_using_subcommand login" -l jq -d 'Filter the JSON output with a jq expression, as gh --jq: strings raw (escaped on a terminal; off it a string may span lines: use tojson for one a line), other values compact, one a line; each row of logs, runs and -o jsonl on its own (implies -o json; exit 2 for a bad expression, before any request)' -r
complete -c ylemctl -n "__fish_ylemctl_using_subcommand login" -s p -l profile -d 'Profile to use' -r
complete -c ylemctl -n "__fish_ylemctl_using_subcommand login" -l base-url -d 'Base URL of the service (a profile\'s credentials go only to its own)' -r
complete -c ylemctl -n "__fish_ylemctl_using_subcommand login" -s o -l output -d 'Output format (prometheus: stats, last-run, status and check; junit: run pipeline --wait and runs --run)' -r -f -a "table\t''
json\t''
jsonl\t''
csv\t''
prometheus\t''
junit\t''"
complete -c ylemctl -n "__fish_ylemctl_using_subcommand login" -l output-file -d 'With -o prometheus: write the exposition to PATH atomically (a temporary file in the same directory, then renamed), for node_exporter\'s textfile collector' -r -F
complete -c ylemctl -n "__fish_ylemctl_using_subcommand login" -l connect-timeout -d 'Longest time to connect (TCP and TLS) [default: 10s]' -r
complete -c ylemctl -n "__fish_ylemctl_using_subcommand login" -l timeout -d 'Longest wait for the server with no progress: the first byte, any stall between bytes; a body that keeps arriving is never cut [default: 60s]' -r
complete -c ylemctl -n "__fish_ylemctl_using_subcommand login" -l max-time -d 'Longest time for the whole command, retries and waits included (off by default; `check` defaults to 50s, inside a monitoring plugin\'s 60 s)' -r
complete -c ylemctl -n "__fish_ylemctl_using_subcommand login" -l settle -d 'The settle time of every command that judges a run (run --wait, runs, last-run, check, status, watch, metrics serve, logs -f --run): a pipeline run without a known task set has finished when no new task reported for this long, a workflow\'s success counts after it (also YLEM_SETTLE, or the profile\'s settle) [default: a pipeline\'s 3x the longest gap between two tasks of its past runs, at least 10s, 10m without history; a workflow\'s 10m]' -r
complete -c ylemctl -n "__fish_ylemctl_using_subcommand login" -l retries -d 'Retries of idempotent requests (GET, token); a run start is never retried [default: 2]' -r
complete -c ylemctl -n "__fish_ylemctl_using_subcommand login" -l color -d 'When to use colour (NO_COLOR turns it off even with always; CLICOLOR_FORCE on in auto)' -r -f -a "auto\t''
always\t''
never\t''"
complete -c ylemctl -n "__fish_ylemctl_using_subcommand login" -l client-secret-stdin -d 'Read the client secret from standard input instead of asking'
complete -c ylemctl -n "__fish_ylemctl_using_subcommand login" -l no-header -d 'No header row (table, csv)'
complete -c ylemctl -n "__fish_ylemctl_using_subcommand login" -l csv-raw -d 'With -o csv: text cells as sent (by default one starting with = + - @, tab or CR gets a \' in front, so a spreadsheet does not run it as a formula, and control characters are escaped as in tables)'
complete -c ylemctl -n "__fish_ylemctl_using_subcommand login" -l local -d 'Read naive times and show times in the local time zone (also YLEM_TZ=local)'
complete -c ylemctl -n "__fish_ylemctl_using_subcommand login" -s v -l verbose -d '-v: one line per HTTP request on stderr; -vv: also headers and bodies (secrets redacted)'
complete -c ylemctl -n "__fish_ylemctl_using_subcommand login" -s q -l quiet -d 'No spinner, notes or warnings'
complete -c ylemctl -n "__fish_ylemctl_using_subcommand login" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c ylemctl -n "__fish_ylemctl_using_subcommand login" -s V -l version -d 'Print version'
complete -c ylemctl -n "__fish_ylemctl_using_subcommand logout" -l fields -d 'Columns or keys to keep, in this order (comma-separated); a table never leaves them out to fit the terminal' -r
complete -c ylemctl -n "__fish_ylemctl_using_subcommand logout" -l concurrency -d 'Requests in flight at once when several IDs are given [default: 8]' -r
complete -c ylemctl -n "__fish_ylemctl_using_subcommand logout" -l jq -d 'Filter the JSON output with a jq expression, as gh --jq: strings raw (escaped on a terminal; off it a string may span lines: use tojson for one a line), other values compact, one a line; each row of logs, runs and -o jsonl on its own (implies -o json; exit 2 for a bad expression, before any request)' -r
complete -c ylemctl -n "__fish_ylemctl_using_subcommand logout" -s p -l profile -d 'Profile to use' -r
complete -c ylemctl -n "__fish_ylemctl_using_subcommand logout" -l base-url -d 'Base URL of the service (a profile\'s credentials go only to its own)' -r
complete -c ylemctl -n "__fish_ylemctl_using_subcommand logout" -s o -l output -d 'Output format (prometheus: stats, last-run, status and check; junit: run pipeline --wait and runs --run)' -r -f -a "table\t''
json\t''
jsonl\t''
csv\t''
prometheus\t''
junit\t''"
complete -c ylemctl -n "__fish_ylemctl_using_subcommand logout" -l output-file -d 'With -o prometheus: write the exposition to PATH atomically (a temporary file in the same directory, then renamed), for node_exporter\'s textfile collector' -r -F
complete -c ylemctl -n "__fish_ylemctl_using_subcommand logout" -l connect-timeout -d 'Longest time to connect (TCP and TLS) [default: 10s]' -r
complete -c ylemctl -n "__fish_ylemctl_using_subcommand logout" -l timeout -d 'Longest wait for the server with no progress: the first byte, any stall between bytes; a body that keeps arriving is never cut [default: 60s]' -r
complete -c ylemctl -n "__fish_ylemctl_using_subcommand logout" -l max-time -d 'Longest time for the whole command, retries and waits included (off by default; `check` defaults to 50s, inside a monitoring plugin\'s 60 s)' -r
complete -c ylemctl -n "__fish_ylemctl_using_subcommand logout" -l settle -d 'The settle time of every command that judges a run (run --wait, runs, last-run, check, status, watch, metrics serve, logs -f --run): a pipeline run without a known task set has finished when no new task reported for this long, a workflow\'s success counts after it (also YLEM_SETTLE, or the profile\'s settle) [default: a pipeline\'s 3x the longest gap between two tasks of its past runs, at least 10s, 10m without history; a workflow\'s 10m]' -r
complete -c ylemctl -n "__fish_ylemctl_using_subcommand logout" -l retries -d 'Retries of idempotent requests (GET, token); a run start is never retried [default: 2]' -r
complete -c ylemctl -n "__fish_ylemctl_using_subcommand logout" -l color -d 'When to use colour (NO_COLOR turns it off even with always; CLICOLOR_FORCE on in auto)' -r -f -a "auto\t''
always\t''
never\t''"
complete -c ylemctl -n "__fish_ylemctl_using_subcommand logout" -l no-header -d 'No header row (table, csv)'
complete -c ylemctl -n "__fish_ylemctl_using_subcommand logout" -l csv-raw -d 'With -o csv: text cells as sent (by default one starting with = + - @, tab or CR gets a \' in front, so a spreadsheet does not run it as a formula, and control characters are escaped as in tables)'
complete -c ylemctl -n "__fish_ylemctl_using_subcommand logout" -l local -d 'Read naive times and show times in the local time zone (also YLEM_TZ=local)'
complete -c ylemctl -n "__fish_ylemctl_using_subcommand logout" -s v -l verbose -d '-v: one line per HTTP request on stderr; -vv: also headers and bodies (secrets redacted)'
complete -c ylemctl -n "__fish_ylemctl_using_subcommand logout" -s q -l quiet -d 'No spinner, notes or warnings'
complete -c ylemctl -n "__fish_ylemctl_using_subcommand logout" -s h -l help -d 'Print help'
complete -c ylemctl -n "__fish_ylemctl_using_subcommand logout" -s V -l version -d 'Print version'
complete -c ylemctl -n "__fish_ylemctl_using_subcommand auth; and not __fish_seen_subcommand_from status token help" -s p -l profile -d 'Profile to use' -r
complete -c ylemctl -n "__fish_ylemctl_using_subcommand auth; and not __fish_seen_subcommand_from status token help" -l base-url -d 'Base URL of the service (a profile\'s credentials go only to its own)' -r
complete -c ylemctl -n "__fish_ylemctl_using_subcommand auth; and not __fish_seen_subcommand_from status token help" -s o -l output -d 'Output format (prometheus: stats, last-run, status and check; junit: run pipeline --wait and runs --run)' -r -f -a "table\t''
json\t''
jsonl\t''
csv\t''
prometheus\t''
junit\t''"
complete -c ylemctl -n "__fish_ylemctl_using_subcommand auth; and not __fish_seen_subcommand_from status token help" -l jq -d 'Filter the JSON output with a jq expression, as gh --jq: strings raw (escaped on a terminal; off it a string may span lines: use tojson for one a line), other values compact, one a line; each row of logs, runs and -o jsonl on its own (implies -o json; exit 2 for a bad expression, before any request)' -r
complete -c ylemctl -n "__fish_ylemctl_using_subcommand auth; and not __fish_seen_subcommand_from status token help" -l fields -d 'Columns or keys to keep, in this order (comma-separated); a table never leaves them out to fit the terminal' -r
complete -c ylemctl -n "__fish_ylemctl_using_subcommand auth; and not __fish_seen_subcommand_from status token help" -l output-file -d 'With -o prometheus: write the exposition to PATH atomically (a temporary file in the same directory, then renamed), for node_exporter\'s textfile collector' -r -F
complete -c ylemctl -n "__fish_ylemctl_using_subcommand auth; and not __fish_seen_subcommand_from status token help" -l connect-timeout -d 'Longest time to connect (TCP and TLS) [default: 10s]' -r
complete -c ylemctl -n "__fish_ylemctl_using_subcommand auth; and not __fish_seen_subcommand_from status token help" -l timeout -d 'Longest wait for the server with no progress: the first byte, any stall between bytes; a body that keeps arriving is never cut [default: 60s]' -r
complete -c ylemctl -n "__fish_ylemctl_using_subcommand auth; and not __fish_seen_subcommand_from status token help" -l max-time -d 'Longest time for the whole command, retries and waits included (off by default; `check` defaults to 50s, inside a monitoring plugin\'s 60 s)' -r
complete -c ylemctl -n "__fish_ylemctl_using_subcommand auth; and not __fish_seen_subcommand_from status token help" -l settle -d 'The settle time of every command that judges a run (run --wait, runs, last-run, check, status, watch, metrics serve, logs -f --run): a pipeline run without a known task set has finished when no new task reported for this long, a workflow\'s success counts after it (also YLEM_SETTLE, or the profile\'s settle) [default: a pipeline\'s 3x the longest gap between two tasks of its past runs, at least 10s, 10m without history; a workflow\'s 10m]' -r
complete -c ylemctl -n "__fish_ylemctl_using_subcommand auth; and not __fish_seen_subcommand_from status token help" -l retries -d 'Retries of idempotent requests (GET, token); a run start is never retried [default: 2]' -r
complete -c ylemctl -n "__fish_ylemctl_using_subcommand auth; and not __fish_seen_subcommand_from status token help" -l concurrency -d 'Requests in flight at once when several IDs are given [default: 8]' -r
complete -c ylemctl -n "__fish_ylemctl_using_subcommand auth; and not __fish_seen_subcommand_from status token help" -l color -d 'When to use colour (NO_COLOR turns it off even with always; CLICOLOR_FORCE on in auto)' -r -f -a "auto\t''
always\t''
never\t''"
complete -c ylemctl -n "__fish_ylemctl_using_subcommand auth; and not __fish_seen_subcommand_from status token help" -l no-header -d 'No header row (table, csv)'
complete -c ylemctl -n "__fish_ylemctl_using_subcommand auth; and not __fish_seen_subcommand_from status token help" -l csv-raw -d 'With -o csv: text cells as sent (by default one starting with = + - @, tab or CR gets a \' in front, so a spreadsheet does not run it as a formula, and control characters are escaped as in tables)'
complete -c ylemctl -n "__fish_ylemctl_using_subcommand auth; and not __fish_seen_subcommand_from status token help" -l local -d 'Read naive times and show times in the local time zone (also YLEM_TZ=local)'
complete -c ylemctl -n "__fish_ylemctl_using_subcommand auth; and not __fish_seen_subcommand_from status token help" -s v -l verbose -d '-v: one line per HTTP request on stderr; -vv: also headers and bodies (secrets redacted)'
complete -c ylemctl -n "__fish_ylemctl_using_subcommand auth; and not __fish_seen_subcommand_from status token help" -s q -l quiet -d 'No spinner, notes or warnings'
complete -c ylemctl -n "__fish_ylemctl_using_subcommand auth; and not __fish_seen_subcommand_from status token help" -s h -l help -d 'Print help'
complete -c ylemctl -n "__fish_ylemctl_using_subcommand auth; and not __fish_seen_subcommand_from status token help" -s V -l version -d 'Print version'
complete -c ylemctl -n "__fish_ylemctl_using_subcommand auth; and not __fish_seen_subcommand_from status token help" -f -a "status" -d 'Profile, base URL, client id, the URL its credentials are bound to, store and token expiry (never the token)'
complete -c ylemctl -n "__fish_ylemctl_using_subcommand auth; and not __fish_seen_subcommand_from status token help" -f -a "token" -d 'Print a valid access token on standard output, for other tools'
complete -c ylemctl -n "__fish_ylemctl_using_subcommand auth; and not __fish_seen_subcommand_from status token help" -f -a "help" -d 'Print this message or the help of the given subcommand(s)'
complete -c ylemctl -n "__fish_ylemctl_using_subcommand auth; and __fish_seen_subcommand_from status" -s p -l profile -d 'Profile to use' -r
complete -c ylemctl -n "__fish_ylemctl_using_subcommand auth; and __fish_seen_subcommand_from status" -l base-url -d 'Base URL of the service (a profile\'s credentials go only to its own)' -r
complete -c ylemctl -n "__fish_ylemctl_using_subcommand auth; and __fish_seen_subcommand_from status" -s o -l output -d 'Output format (prometheus: stats, last-run, status and check; junit: run pipeline --wait and runs --run)' -r -f -a "table\t''
json\t''
jsonl\t''
csv\t''
prometheus\t''
junit\t''"
complete -c ylemctl -n "__fish_ylemctl_using_subcommand auth; and __fish_seen_subcommand_from status" -l jq -d 'Filter the JSON output with a jq expression, as gh --jq: strings raw (escaped on a terminal; off it a string may span lines: use tojson for one a line), other values compact, one a line; each row of logs, runs and -o jsonl on its own (implies -o json; exit 2 for a bad expression, before any request)' -r
complete -c ylemctl -n "__fish_ylemctl_using_subcommand auth; and __fish_seen_subcommand_from status" -l fields -d 'Columns or keys to keep, in this order (comma-separated); a table never leaves them out to fit the terminal' -r
complete -c ylemctl -n "__fish_ylemctl_using_subcommand auth; and __fish_seen_subcommand_from status" -l output-file -d 'With -o prometheus: write the exposition to PATH atomically (a temporary file in the same directory, then renamed), for node_exporter\'s textfile collector' -r -F
complete -c ylemctl -n "__fish_ylemctl_using_subcommand auth; and __fish_seen_subcommand_from status" -l connect-timeout -d 'Longest time to connect (TCP and TLS) [default: 10s]' -r
complete -c ylemctl -n "__fish_ylemctl_using_subcommand auth; and __fish_seen_subcommand_from status" -l timeout -d 'Longest wait for the server with no progress: the first byte, any stall between bytes; a body that keeps arriving is never cut [default: 60s]' -r
complete -c ylemctl -n "__fish_ylemctl_using_subcommand auth; and __fish_seen_subcommand_from status" -l max-time -d 'Longest time for the whole command, retries and waits included (off by default; `check` defaults to 50s, inside a monitoring plugin\'s 60 s)' -r
complete -c ylemctl -n "__fish_ylemctl_using_subcommand auth; and __fish_seen_subcommand_from status" -l settle -d 'The settle time of every command that judges a run (run --wait, runs, last-run, check, status, watch, metrics serve, logs -f --run): a pipeline run without a known task set has finished when no new task reported for this long, a workflow\'s success counts after it (also YLEM_SETTLE, or the profile\'s settle) [default: a pipeline\'s 3x the longest gap between two tasks of its past runs, at least 10s, 10m without history; a workflow\'s 10m]' -r
complete -c ylemctl -n "__fish_ylemctl_using_subcommand auth; and __fish_seen_subcommand_from status" -l retries -d 'Retries of idempotent requests (GET, token); a run start is never retried [default: 2]' -r
complete -c ylemctl -n "__fish_ylemctl_using_subcommand auth; and __fish_seen_subcommand_from status" -l concurrency -d 'Requests in flight at once when several IDs are given [default: 8]' -r
complete -c ylemctl -n "__fish_ylemctl_using_subcommand auth; and __fish_seen_subcommand_from status" -l color -d 'When to use colour (NO_COLOR turns it off even with always; CLICOLOR_FORCE on in auto)' -r -f -a "auto\t''
always\t''
never\t''"
complete -c ylemctl -n "__fish_ylemctl_using_subcommand auth; and __fish_seen_subcommand_from status" -l no-header -d 'No header row (table, csv)'
complete -c ylemctl -n "__fish_ylemctl_using_subcommand auth; and __fish_seen_subcommand_from status" -l csv-raw -d 'With -o csv: text cells as sent (by default one starting with = + - @, tab or CR gets a \' in front, so a spreadsheet does not run it as a formula, and control characters are escaped as in tables)'
complete -c ylemctl -n "__fish_ylemctl_using_subcommand auth; and __fish_seen_subcommand_from status" -l local -d 'Read naive times and show times in the local time zone (also YLEM_TZ=local)'
complete -c ylemctl -n "__fish_ylemctl_using_subcommand auth; and __fish_seen_subcommand_from status" -s v -l verbose -d '-v: one line per HTTP request on stderr; -vv: also headers and bodies (secrets redacted)'
complete -c ylemctl -n "__fish_ylemctl_using_subcommand auth; and __fish_seen_subcommand_from status" -s q -l quiet -d 'No spinner, notes or warnings'
complete -c ylemctl -n "__fish_ylemctl_using_subcommand auth; and __fish_seen_subcommand_from status" -s h -l help -d 'Print help'
complete -c ylemctl -n "__fish_ylemctl_using_subcommand auth; and __fish_seen_subcommand_from status" -s V -l version -d 'Print version'
complete -c ylemctl -n "__fish_ylemctl_using_subcommand auth; and __fish_seen_subcommand_from token" -l min-ttl -d 'Fetch a new token unless the cached one stays valid this long, e.g. 10m' -r
complete -c ylemctl -n "__fish_ylemctl_using_subcommand auth; and __fish_seen_subcommand_from token" -s p -l profile -d 'Profile to use' -r
complete -c ylemctl -n "__fish_ylemctl_using_subcommand auth; and __fish_seen_subcommand_from token" -l base-url -d 'Base URL of the service (a profile\'s credentials go only to its own)' -r
complete -c ylemctl -n "__fish_ylemctl_using_subcommand auth; and __fish_seen_subcommand_from token" -s o -l output -d 'Output format (prometheus: stats, last-run, status and check; junit: run pipeline --wait and runs --run)' -r -f -a "table\t''
json\t''
jsonl\t''
csv\t''
prometheus\t''
junit\t''"
complete -c ylemctl -n "__fish_ylemctl_using_subcommand auth; and __fish_seen_subcommand_from token" -l jq -d 'Filter the JSON output with a jq expression, as gh --jq: strings raw (escaped on a terminal; off it a string may span lines: use tojson for one a line), other values compact, one a line; each row of logs, runs and -o jsonl on its own (implies -o json; exit 2 for a bad expression, before any request)' -r
complete -c ylemctl -n "__fish_ylemctl_using_subcommand auth; and __fish_seen_subcommand_from token" -l fields -d 'Columns or keys to keep, in this order (comma-separated); a table never leaves them out to fit the terminal' -r
complete -c ylemctl -n "__fish_ylemctl_using_subcommand auth; and __fish_seen_subcommand_from token" -l output-file -d 'With -o prometheus: write the exposition to PATH atomically (a temporary file in the same directory, then renamed), for node_exporter\'s textfile collector' -r -F
complete -c ylemctl -n "__fish_ylemctl_using_subcommand auth; and __fish_seen_subcommand_from token" -l connect-timeout -d 'Longest time to connect (TCP and TLS) [default: 10s]' -r
complete -c ylemctl -n "__fish_ylemctl_using_subcommand auth; and __fish_seen_subcommand_from token" -l timeout -d 'Longest wait for the server with no progress: the first byte, any stall between bytes; a body that keeps arriving is never cut [default: 60s]' -r
complete -c ylemctl -n "__fish_ylemctl_using_subcommand auth; and __fish_seen_subcommand_from token" -l max-time -d 'Longest time for the whole command, retries and waits included (off by default; `check` defaults to 50s, inside a monitoring plugin\'s 60 s)' -r
complete -c ylemctl -n "__fish_ylemctl_using_subcommand auth; and __fish_seen_subcommand_from token" -l settle -d 'The settle time of every command that judges a run (run --wait, runs, last-run, check, status, watch, metrics serve, logs -f --run): a pipeline run without a known task set has finished when no new task reported for this long, a workflow\'s success counts after it (also YLEM_SETTLE, or the profile\'s settle) [default: a pipeline\'s 3x the longest gap between two tasks of its past runs, at least 10s, 10m without history; a workflow\'s 10m]' -r
complete -c ylemctl -n "__fish_ylemctl_using_subcommand auth; and __fish_seen_subcommand_from token" -l retries -d 'Retries of idempotent requests (GET, token); a run start is never retried [default: 2]' -r
complete -c ylemctl -n "__fish_ylemctl_using_subcommand auth; and __fish_seen_subcommand_from token" -l concurrency -d 'Requests in flight at once when several IDs are given [default: 8]' -r
complete -c ylemctl -n "__fish_ylemctl_using_subcommand auth; and __fish_seen_subcommand_from token" -l color -d 'When to use colour (NO_COLOR turns it off even with always; CLICOLOR_FORCE on in auto)' -r -f -a "auto\t''
always\t''
never\t''"
complete -c ylemctl -n "__fish_ylemctl_using_subcommand auth; and __fish_seen_subcommand_from token" -l no-header -d 'No header row (table, csv)'
complete -c ylemctl -n "__fish_ylemctl_using_subcommand auth; and __fish_seen_subcommand_from token" -l csv-raw -d 'With -o csv: text cells as sent (by default one starting with = + - @, tab or CR gets a \' in front, so a spreadsheet does not run it as a formula, and control characters are escaped as in tables)'
complete -c ylemctl -n "__fish_ylemctl_using_subcommand auth; and __fish_seen_subcommand_from token" -l local -d 'Read naive times and show times in the local time zone (also YLEM_TZ=local)'
complete -c ylemctl -n "__fish_ylemctl_using_subcommand auth; and __fish_seen_subcommand_from token" -s v -l verbose -d '-v: one line per HTTP request on stderr; -vv: also headers and bodies (secrets redacted)'
complete -c ylemctl -n "__fish_ylemctl_using_subcommand auth; and __fish_seen_subcommand_from token" -s q -l quiet -d 'No spinner, notes or warnings'
complete -c ylemctl -n "__fish_ylemctl_using_subcommand auth; and __fish_seen_subcommand_from token" -s h -l help -d 'Print help'
complete -c ylemctl -n "__fish_ylemctl_using_subcommand auth; and __fish_seen_subcommand_from token" -s V -l version -d 'Print version'
complete -c ylemctl -n "__fish_ylemctl_using_subcommand auth; and __fish_seen_subcommand_from help" -f -a "status" -d 'Profile, base URL, client id, the URL its credentials are bound to, store and token expiry (never the token)'
complete -c ylemctl -n "__fish_ylemctl_using_subcommand auth; and __fish_seen_subcommand_from help" -f -a "token" -d 'Print a valid access token on standard output, for other tools'
complete -c ylemctl -n "__fish_ylemctl_using_subcommand auth; and __fish_seen_subcommand_from help" -f -a "help" -d 'Print this message or the help of the given subcommand(s)'
complete -c ylemctl -n "__fish_ylemctl_using_subcommand alias; and not __fish_seen_subcommand_from set list remove help" -s p -l profile -d 'Profile to use' -r
complete -c ylemctl -n "__fish_ylemctl_using_subcommand alias; and not __fish_seen_subcommand_from set list remove help" -l base-url -d 'Base URL of the service (a profile\'s credentials go only to its own)' -r
complete -c ylemctl -n "__fish_ylemctl_using_subcommand alias; and not __fish_seen_subcommand_from set list remove help" -s o -l output -d 'Output format (prometheus: stats, last-run, status and check; junit: run pipeline --wait and runs --run)' -r -f -a "table\t''
json\t''
jsonl\t''
csv\t''
prometheus\t''
junit\t''"
complete -c ylemctl -n "__fish_ylemctl_using_subcommand alias; and not __fish_seen_subcommand_from set list remove help" -l jq -d 'Filter the JSON output with a jq expression, as gh --jq: strings raw (escaped on a terminal; off it a string may span lines: use tojson for one a line), other values compact, one a line; each row of logs, runs and -o jsonl on its own (implies -o json; exit 2 for a bad expression, before any request)' -r
complete -c ylemctl -n "__fish_ylemctl_using_subcommand alias; and not __fish_seen_subcommand_from set list remove help" -l fields -d 'Columns or keys to keep, in this order (comma-separated); a table never leaves them out to fit the terminal' -r
complete -c ylemctl -n "__fish_ylemctl_using_subcommand alias; and not __fish_seen_subcommand_from set list remove help" -l output-file -d 'With -o prometheus: write the exposition to PATH atomically (a temporary file in the same directory, then renamed), for node_exporter\'s textfile collector' -r -F
complete -c ylemctl -n "__fish_ylemctl_using_subcommand alias; and not __fish_seen_subcommand_from set list remove help" -l connect-timeout -d 'Longest time to connect (TCP and TLS) [default: 10s]' -r
complete -c ylemctl -n "__fish_ylemctl_using_subcommand alias; and not __fish_seen_subcommand_from set list remove help" -l timeout -d 'Longest wait for the server with no progress: the first byte, any stall between bytes; a body that keeps arriving is never cut [default: 60s]' -r
complete -c ylemctl -n "__fish_ylemctl_using_subcommand alias; and not __fish_seen_subcommand_from set list remove help" -l max-time -d 'Longest time for the whole command, retries and waits included (off by default; `check` defaults to 50s, inside a monitoring plugin\'s 60 s)' -r
complete -c ylemctl -n "__fish_ylemctl_using_subcommand alias; and not __fish_seen_subcommand_from set list remove help" -l settle -d 'The settle time of every command that judges a run (run --wait, runs, last-run, check, status, watch, metrics serve, logs -f --run): a pipeline run without a known task set has finished when no new task reported for this long, a workflow\'s success counts after it (also YLEM_SETTLE, or the profile\'s settle) [default: a pipeline\'s 3x the longest gap between two tasks of its past runs, at least 10s, 10m without history; a workflow\'s 10m]' -r
complete -c ylemctl -n "__fish_ylemctl_using_subcommand alias; and not __fish_seen_subcommand_from set list remove help" -l retries -d 'Retries of idempotent requests (GET, token); a run start is never retried [default: 2]' -r
complete -c ylemctl -n "__fish_ylemctl_using_subcommand alias; and not __fish_seen_subcommand_from set list remove help" -l concurrency -d 'Requests in flight at once when several IDs are given [default: 8]' -r
complete -c ylemctl -n "__fish_ylemctl_using_subcommand alias; and not __fish_seen_subcommand_from set list remove help" -l color -d 'When to use colour (NO_COLOR turns it off even with always; CLICOLOR_FORCE on in auto)' -r -f -a "auto\t''
always\t''
never\t''"
complete -c ylemctl -n "__fish_ylemctl_using_subcommand alias; and not __fish_seen_subcommand_from set list remove help" -l no-header -d 'No header row (table, csv)'
complete -c ylemctl -n "__fish_ylemctl_using_subcommand alias; and not __fish_seen_subcommand_from set list remove help" -l csv-raw -d 'With -o csv: text cells as sent (by default one starting with = + - @, tab or CR gets a \' in front, so a spreadsheet does not run it as a formula, and control characters are escaped as in tables)'
complete -c ylemctl -n "__fish_ylemctl_using_subcommand alias; and not __fish_seen_subcommand_from set list remove help" -l local -d 'Read naive times and show times in the local time zone (also YLEM_TZ=local)'
complete -c ylemctl -n "__fish_ylemctl_using_subcommand alias; and not __fish_seen_subcommand_from set list remove help" -s v -l verbose -d '-v: one line per HTTP request on stderr; -vv: also headers and bodies (secrets redacted)'
complete -c ylemctl -n "__fish_ylemctl_using_subcommand alias; and not __fish_seen_subcommand_from set list remove help" -s q -l quiet -d 'No spinner, notes or warnings'
complete -c ylemctl -n "__fish_ylemctl_using_subcommand alias; and not __fish_seen_subcommand_from set list remove help" -s h -l help -d 'Print help'
complete -c ylemctl -n "__fish_ylemctl_using_subcommand alias; and not __fish_seen_subcommand_from set list remove help" -s V -l version -d 'Print version'
complete -c ylemctl -n "__fish_ylemctl_using_subcommand alias; and not __fish_seen_subcommand_from set list remove help" -f -a "set" -d 'Name a UUID (replaces an alias of the same name)'
complete -c ylemctl -n "__fish_ylemctl_using_subcommand alias; and not __fish_seen_subcommand_from set list remove help" -f -a "list" -d 'List the aliases'
complete -c ylemctl -n "__fish_ylemctl_using_subcommand alias; and not __fish_seen_subcommand_from set list remove help" -f -a "remove" -d 'Remove an alias'
complete -c ylemctl -n "__fish_ylemctl_using_subcommand alias; and not __fish_seen_subcommand_from set list remove help" -f -a "help" -d 'Print this message or the help of the given subcommand(s)'
complete -c ylemctl -n "__fish_ylemctl_using_subcommand alias; and __fish_seen_subcommand_from set" -s p -l profile -d 'Profile to use' -r
complete -c ylemctl -n "__fish_ylemctl_using_subcommand alias; and __fish_seen_subcommand_from set" -l base-url -d 'Base URL of the service (a profile\'s credentials go only to its own)' -r
complete -c ylemctl -n "__fish_ylemctl_using_subcommand alias; and __fish_seen_subcommand_from set" -s o -l output -d 'Output format (prometheus: stats, last-run, status and check; junit: run pipeline --wait and runs --run)' -r -f -a "table\t''
json\t''
jsonl\t''
csv\t''
prometheus\t''
junit\t''"
complete -c ylemctl -n "__fish_ylemctl_using_subcommand alias; and __fish_seen_subcommand_from set" -l jq -d 'Filter the JSON output with a jq expression, as gh --jq: strings raw (escaped on a terminal; off it a string may span lines: use tojson for one a line), other values compact, one a line; each row of logs, runs and -o jsonl on its own (implies -o json; exit 2 for a bad expression, before any request)' -r
complete -c ylemctl -n "__fish_ylemctl_using_subcommand alias; and __fish_seen_subcommand_from set" -l fields -d 'Columns or keys to keep, in this order (comma-separated); a table never leaves them out to fit the terminal' -r
complete -c ylemctl -n "__fish_ylemctl_using_subcommand alias; and __fish_seen_subcommand_from set" -l output-file -d 'With -o prometheus: write the exposition to PATH atomically (a temporary file in the same directory, then renamed), for node_exporter\'s textfile collector' -r -F
complete -c ylemctl -n "__fish_ylemctl_using_subcommand alias; and __fish_seen_subcommand_from set" -l connect-timeout -d 'Longest time to connect (TCP and TLS) [default: 10s]' -r
complete -c ylemctl -n "__fish_ylemctl_using_subcommand alias; and __fish_seen_subcommand_from set" -l timeout -d 'Longest wait for the server with no progress: the first byte, any stall between bytes; a body that keeps arriving is never cut [default: 60s]' -r
complete -c ylemctl -n "__fish_ylemctl_using_subcommand alias; and __fish_seen_subcommand_from set" -l max-time -d 'Longest time for the whole command, retries and waits included (off by default; `check` defaults to 50s, inside a monitoring plugin\'s 60 s)' -r
complete -c ylemctl -n "__fish_ylemctl_using_subcommand alias; and __fish_seen_subcommand_from set" -l settle -d 'The settle time of every command that judges a run (run --wait, runs, last-run, check, status, watch, metrics serve, logs -f --run): a pipeline run without a known task set has finished when no new task reported for this long, a workflow\'s success counts after it (also YLEM_SETTLE, or the profile\'s settle) [default: a pipeline\'s 3x the longest gap between two tasks of its past runs, at least 10s, 10m without history; a workflow\'s 10m]' -r
complete -c ylemctl -n "__fish_ylemctl_using_subcommand alias; and __fish_seen_subcommand_from set" -l retries -d 'Retries of idempotent requests (GET, token); a run start is never retried [default: 2]' -r
complete -c ylemctl -n "__fish_ylemctl_using_subcommand alias; and __fish_seen_subcommand_from set" -l concurrency -d 'Requests in flight at once when several IDs are given [default: 8]' -r
complete -c ylemctl -n "__fish_ylemctl_using_subcommand alias; and __fish_seen_subcommand_from set" -l color -d 'When to use colour (NO_COLOR turns it off even with always; CLICOLOR_FORCE on in auto)' -r -f -a "auto\t''
always\t''
never\t''"
complete -c ylemctl -n "__fish_ylemctl_using_subcommand alias; and __fish_seen_subcommand_from set" -l profile-only -d 'Only for the profile in use ([profiles.NAME.aliases], which wins over the global one)'
complete -c ylemctl -n "__fish_ylemctl_using_subcommand alias; and __fish_seen_subcommand_from set" -l no-header -d 'No header row (table, csv)'
complete -c ylemctl -n "__fish_ylemctl_using_subcommand alias; and __fish_seen_subcommand_from set" -l csv-raw -d 'With -o csv: text cells as sent (by default one starting with = + - @, tab or CR gets a \' in front, so a spreadsheet does not run it as a formula, and control characters are escaped as in tables)'
complete -c ylemctl -n "__fish_ylemctl_using_subcommand alias; and __fish_seen_subcommand_from set" -l local -d 'Read naive times and show times in the local time zone (also YLEM_TZ=local)'
complete -c ylemctl -n "__fish_ylemctl_using_subcommand alias; and __fish_seen_subcommand_from set" -s v -l verbose -d '-v: one line per HTTP request on stderr; -vv: also headers and bodies (secrets redacted)'
complete -c ylemctl -n "__fish_ylemctl_using_subcommand alias; and __fish_seen_subcommand_from set" -s q -l quiet -d 'No spinner, notes or warnings'
complete -c ylemctl -n "__fish_ylemctl_using_subcommand alias; and __fish_seen_subcommand_from set" -s h -l help -d 'Print help'
complete -c ylemctl -n "__fish_ylemctl_using_subcommand alias; and __fish_seen_subcommand_from set" -s V -l version -d 'Print version'
complete -c ylemctl -n "__fish_ylemctl_using_subcommand alias; and __fish_seen_subcommand_from list" -s p -l profile -d 'Profile to use' -r
complete -c ylemctl -n "__fish_ylemctl_using_subcommand alias; and __fish_seen_subcommand_from list" -l base-url -d 'Base URL of the service (a profile\'s credentials go only to its own)' -r
complete -c ylemctl -n "__fish_ylemctl_using_subcommand alias; and __fish_seen_subcommand_from list" -s o -l output -d 'Output format (prometheus: stats, last-run, status and check; junit: run pipeline --wait and runs --run)' -r -f -a "table\t''
json\t''
jsonl\t''
csv\t''
prometheus\t''
junit\t''"
complete -c ylemctl -n "__fish_ylemctl_using_subcommand alias; and __fish_seen_subcommand_from list" -l jq -d 'Filter the JSON output with a jq expression, as gh --jq: strings raw (escaped on a terminal; off it a string may span lines: use tojson for one a line), other values compact, one a line; each row of logs, runs and -o jsonl on its own (implies -o json; exit 2 for a bad expression, before any request)' -r
complete -c ylemctl -n "__fish_ylemctl_using_subcommand alias; and __fish_seen_subcommand_from list" -l fields -d 'Columns or keys to keep, in this order (comma-separated); a table never leaves them out to fit the terminal' -r
complete -c ylemctl -n "__fish_ylemctl_using_subcommand alias; and __fish_seen_subcommand_from list" -l output-file -d 'With -o prometheus: write the exposition to PATH atomically (a temporary file in the same directory, then renamed), for node_exporter\'s textfile collector' -r -F
complete -c ylemctl -n "__fish_ylemctl_using_subcommand alias; and __fish_seen_subcommand_from list" -l connect-timeout -d 'Longest time to connect (TCP and TLS) [default: 10s]' -r
complete -c ylemctl -n "__fish_ylemctl_using_subcommand alias; and __fish_seen_subcommand_from list" -l timeout -d 'Longest wait for the server with no progress: the first byte, any stall between bytes; a body that keeps arriving is never cut [default: 60s]' -r
complete -c ylemctl -n "__fish_ylemctl_using_subcommand alias; and __fish_seen_subcommand_from list" -l max-time -d 'Longest time for the whole command, retries and waits included (off by default; `check` defaults to 50s, inside a monitoring plugin\'s 60 s)' -r
complete -c ylemctl -n "__fish_ylemctl_using_subcommand alias; and __fish_seen_subcommand_from list" -l settle -d 'The settle time of every command that judges a run (run --wait, runs, last-run, check, status, watch, metrics serve, logs -f --run): a pipeline run without a known task set has finished when no new task reported for this long, a workflow\'s success counts after it (also YLEM_SETTLE, or the profile\'s settle) [default: a pipeline\'s 3x the longest gap between two tasks of its past runs, at least 10s, 10m without history; a workflow\'s 10m]' -r
complete -c ylemctl -n "__fish_ylemctl_using_subcommand alias; and __fish_seen_subcommand_from list" -l retries -d 'Retries of idempotent requests (GET, token); a run start is never retried [default: 2]' -r
complete -c ylemctl -n "__fish_ylemctl_using_subcommand alias; and __fish_seen_subcommand_from list" -l concurrency -d 'Requests in flight at once when several IDs are given [default: 8]' -r
complete -c ylemctl -n "__fish_ylemctl_using_subcommand alias; and __fish_seen_subcommand_from list" -l color -d 'When to use colour (NO_COLOR turns it off even with always; CLICOLOR_FORCE on in auto)' -r -f -a "auto\t''
always\t''
never\t''"
complete -c ylemctl -n "__fish_ylemctl_using_subcommand alias; and __fish_seen_subcommand_from list" -l names -d 'Only the names, one per line (for shell completion)'
complete -c ylemctl -n "__fish_ylemctl_using_subcommand alias; and __fish_seen_subcommand_from list" -l no-header -d 'No header row (table, csv)'
complete -c ylemctl -n "__fish_ylemctl_using_subcommand alias; and __fish_seen_subcommand_from list" -l csv-raw -d 'With -o csv: text cells as sent (by default one starting with = + - @, tab or CR gets a \' in front, so a spreadsheet does not run it as a formula, and control characters are escaped as in tables)'
complete -c ylemctl -n "__fish_ylemctl_using_subcommand alias; and __fish_seen_subcommand_from list" -l local -d 'Read naive times and show times in the local time zone (also YLEM_TZ=local)'
complete -c ylemctl -n "__fish_ylemctl_using_subcommand alias; and __fish_seen_subcommand_from list" -s v -l verbose -d '-v: one line per HTTP request on stderr; -vv: also headers and bodies (secrets redacted)'
complete -c ylemctl -n "__fish_ylemctl_using_subcommand alias; and __fish_seen_subcommand_from list" -s q -l quiet -d 'No spinner, notes or warnings'
complete -c ylemctl -n "__fish_ylemctl_using_subcommand alias; and __fish_seen_subcommand_from list" -s h -l help -d 'Print help'
complete -c ylemctl -n "__fish_ylemctl_using_subcommand alias; and __fish_seen_subcommand_from list" -s V -l version -d 'Print version'
complete -c ylemctl -n "__fish_ylemctl_using_subcommand alias; and __fish_seen_subcommand_from remove" -s p -l profile -d 'Profile to use' -r
complete -c ylemctl -n "__fish_ylemctl_using_subcommand alias; and __fish_seen_subcommand_from remove" -l base-url -d 'Base URL of the service (a profile\'s credentials go only to its own)' -r
complete -c ylemctl -n "__fish_ylemctl_using_subcommand alias; and __fish_seen_subcommand_from remove" -s o -l output -d 'Output format (prometheus: stats, last-run, status and check; junit: run pipeline --wait and runs --run)' -r -f -a "table\t''
json\t''
jsonl\t''
csv\t''
prometheus\t''
junit\t''"
complete -c ylemctl -n "__fish_ylemctl_using_subcommand alias; and __fish_seen_subcommand_from remove" -l jq -d 'Filter the JSON output with a jq expression, as gh --jq: strings raw (escaped on a terminal; off it a string may span lines: use tojson for one a line), other values compact, one a line; each row of logs, runs and -o jsonl on its own (implies -o json; exit 2 for a bad expression, before any request)' -r
complete -c ylemctl -n "__fish_ylemctl_using_subcommand alias; and __fish_seen_subcommand_from remove" -l fields -d 'Columns or keys to keep, in this order (comma-separated); a table never leaves them out to fit the terminal' -r
complete -c ylemctl -n "__fish_ylemctl_using_subcommand alias; and __fish_seen_subcommand_from remove" -l output-file -d 'With -o prometheus: write the exposition to PATH atomically (a temporary file in the same directory, then renamed), for node_exporter\'s textfile collector' -r -F
complete -c ylemctl -n "__fish_ylemctl_using_subcommand alias; and __fish_seen_subcommand_from remove" -l connect-timeout -d 'Longest time to connect (TCP and TLS) [default: 10s]' -r
complete -c ylemctl -n "__fish_ylemctl_using_subcommand alias; and __fish_seen_subcommand_from remove" -l timeout -d 'Longest wait for the server with no progress: the first byte, any stall between bytes; a body that keeps arriving is never cut [default: 60s]' -r
complete -c ylemctl -n "__fish_ylemctl_using_subcommand alias; and __fish_seen_subcommand_from remove" -l max-time -d 'Longest time for the whole command, retries and waits included (off by default; `check` defaults to 50s, inside a monitoring plugin\'s 60 s)' -r
complete -c ylemctl -n "__fish_ylemctl_using_subcommand alias; and __fish_seen_subcommand_from remove" -l settle -d 'The settle time of every command that judges a run (run --wait, runs, last-run, check, status, watch, metrics serve, logs -f --run): a pipeline run without a known task set has finished when no new task reported for this long, a workflow\'s success counts after it (also YLEM_SETTLE, or the profile\'s settle) [default: a pipeline\'s 3x the longest gap between two tasks of its past runs, at least 10s, 10m without history; a workflow\'s 10m]' -r
complete -c ylemctl -n "__fish_ylemctl_using_subcommand alias; and __fish_seen_subcommand_from remove" -l retries -d 'Retries of idempotent requests (GET, token); a run start is never retried [default: 2]' -r
complete -c ylemctl -n "__fish_ylemctl_using_subcommand alias; and __fish_seen_subcommand_from remove" -l concurrency -d 'Requests in flight at once when several IDs are given [default: 8]' -r
complete -c ylemctl -n "__fish_ylemctl_using_subcommand alias; and __fish_seen_subcommand_from remove" -l color -d 'When to use colour (NO_COLOR turns it off even with always; CLICOLOR_FORCE on in auto)' -r -f -a "auto\t''
always\t''
never\t''"
complete -c ylemctl -n "__fish_ylemctl_using_subcommand alias; and __fish_seen_subcommand_from remove" -l profile-only -d 'From the profile in use\'s own aliases, not the global ones'
complete -c ylemctl -n "__fish_ylemctl_using_subcommand alias; and __fish_seen_subcommand_from remove" -l no-header -d 'No header row (table, csv)'
complete -c ylemctl -n "__fish_ylemctl_using_subcommand alias; and __fish_seen_subcommand_from remove" -l csv-raw -d 'With -o csv: text cells as sent (by default one starting with = + - @, tab or CR gets a \' in front, so a spreadsheet does not run it as a formula, and control characters are escaped as in tables)'
complete -c ylemctl -n "__fish_ylemctl_using_subcommand alias; and __fish_seen_subcommand_from remove" -l local -d 'Read naive times and show times in the local time zone (also YLEM_TZ=local)'
complete -c ylemctl -n "__fish_ylemctl_using_subcommand alias; and __fish_seen_subcommand_from remove" -s v -l verbose -d '-v: one line per HTTP request on stderr; -vv: also headers and bodies (secrets redacted)'
complete -c ylemctl -n "__fish_ylemctl_using_subcommand alias; and __fish_seen_subcommand_from remove" -s q -l quiet -d 'No spinner, notes or warnings'
complete -c ylemctl -n "__fish_ylemctl_using_subcommand alias; and __fish_seen_subcommand_from remove" -s h -l help -d 'Print help'
complete -c ylemctl -n "__fish_ylemctl_using_subcommand alias; and __fish_seen_subcommand_from remove" -s V -l version -d 'Print version'
complete -c ylemctl -n "__fish_ylemctl_using_subcommand alias; and __fish_seen_subcommand_from help" -f -a "set" -d 'Name a UUID (replaces an alias of the same name)'
complete -c ylemctl -n "__fish_ylemctl_using_subcommand alias; and __fish_seen_subcommand_from help" -f -a "list" -d 'List the aliases'
complete -c ylemctl -n "__fish_ylemctl_using_subcommand alias; and __fish_seen_subcommand_from help" -f -a "remove" -d 'Remove an alias'
complete -c ylemctl -n "__fish_ylemctl_using_subcommand alias; and __fish_seen_subcommand_from help" -f -a "help" -d 'Print this message or the help of the given subcommand(s)'
complete -c ylemctl -n "__fish_ylemctl_using_subcommand completions" -s p -l profile -d 'Profile to use' -r
complete -c ylemctl -n "__fish_ylemctl_using_subcommand completions" -l base-url -d 'Base URL of the service (a profile\'s credentials go only to its own)' -r
complete -c ylemctl -n "__fish_ylemctl_using_subcommand completions" -s o -l output -d 'Output format (prometheus: stats, last-run, status and check; junit: run pipeline --wait and runs --run)' -r -f -a "table\t''
json\t''
jsonl\t''
csv\t''
prometheus\t''
junit\t''"
complete -c ylemctl -n "__fish_ylemctl_using_subcommand completions" -l jq -d 'Filter the JSON output with a jq expression, as gh --jq: strings raw (escaped on a terminal; off it a string may span lines: use tojson for one a line), other values compact, one a line; each row of logs, runs and -o jsonl on its own (implies -o json; exit 2 for a bad expression, before any request)' -r
complete -c ylemctl -n "__fish_ylemctl_using_subcommand completions" -l fields -d 'Columns or keys to keep, in this order (comma-separated); a table never leaves them out to fit the terminal' -r
complete -c ylemctl -n "__fish_ylemctl_using_subcommand completions" -l connect-timeout -d 'Longest time to connect (TCP and TLS) [default: 10s]' -r
complete -c ylemctl -n "__fish_ylemctl_using_subcommand completions" -l timeout -d 'Longest wait for the server with no progress: the first byte, any stall between bytes; a body that keeps arriving is never cut [default: 60s]' -r
complete -c ylemctl -n "__fish_ylemctl_using_subcommand completions" -l max-time -d 'Longest time for the whole command, retries and waits included (off by default; `check` defaults to 50s, inside a monitoring plugin\'s 60 s)' -r
complete -c ylemctl -n "__fish_ylemctl_using_subcommand completions" -l retries -d 'Retries of idempotent requests (GET, token); a run start is never retried [default: 2]' -r
complete -c ylemctl -n "__fish_ylemctl_using_subcommand completions" -l concurrency -d 'Requests in flight at once when several IDs are given [default: 8]' -r
complete -c ylemctl -n "__fish_ylemctl_using_subcommand completions" -l output-file -d 'With -o prometheus: write the exposition to PATH atomically (a temporary file in the same directory, then renamed), for node_exporter\'s textfile collector' -r -F
complete -c ylemctl -n "__fish_ylemctl_using_subcommand completions" -l settle -d 'The settle time of every command that judges a run (run --wait, runs, last-run, check, status, watch, metrics serve, logs -f --run): a pipeline run without a known task set has finished when no new task reported for this long, a workflow\'s success counts after it (also YLEM_SETTLE, or the profile\'s settle) [default: a pipeline\'s 3x the longest gap between two tasks of its past runs, at least 10s, 10m without history; a workflow\'s 10m]' -r
complete -c ylemctl -n "__fish_ylemctl_using_subcommand completions" -l color -d 'When to use colour (NO_COLOR turns it off even with always; CLICOLOR_FORCE on in auto)' -r -f -a "auto\t''
always\t''
never\t''"
complete -c ylemctl -n "__fish_ylemctl_using_subcommand completions" -l no-header -d 'No header row (table, csv)'
complete -c ylemctl -n "__fish_ylemctl_using_subcommand completions" -l csv-raw -d 'With -o csv: text cells as sent (by default one starting with = + - @, tab or CR gets a \' in front, so a spreadsheet does not run it as a formula, and control characters are escaped as in tables)'
complete -c ylemctl -n "__fish_ylemctl_using_subcommand completions" -l local -d 'Read naive times and show times in the local time zone (also YLEM_TZ=local)'
complete -c ylemctl -n "__fish_ylemctl_using_subcommand completions" -s v -l verbose -d '-v: one line per HTTP request on stderr; -vv: also headers and bodies (secrets redacted)'
complete -c ylemctl -n "__fish_ylemctl_using_subcommand completions" -s q -l quiet -d 'No spinner, notes or warnings'
complete -c ylemctl -n "__fish_ylemctl_using_subcommand completions" -s h -l help -d 'Print help'
complete -c ylemctl -n "__fish_ylemctl_using_subcommand completions" -s V -l version -d 'Print version'
complete -c ylemctl -n "__fish_ylemctl_using_subcommand help; and not __fish_seen_subcommand_from run logs runs stats aggregate last-run check status doctor watch metrics export sandbox demo login logout auth alias completions help" -f -a "run" -d 'Start runs of pipelines or workflows (runs are not idempotent: never retried)'
complete -c ylemctl -n "__fish_ylemctl_using_subcommand help; and not __fish_seen_subcommand_from run logs runs stats aggregate last-run check status doctor watch metrics export sandbox demo login logout auth alias completions help" -f -a "logs" -d 'Show a pipeline\'s run log over a time window'
complete -c ylemctl -n "__fish_ylemctl_using_subcommand help; and not __fish_seen_subcommand_from run logs runs stats aggregate last-run check status doctor watch metrics export sandbox demo login logout auth alias completions help" -f -a "runs" -d 'A pipeline\'s runs over a time window, newest first, with their result; or one run whole (--run)'
complete -c ylemctl -n "__fish_ylemctl_using_subcommand help; and not __fish_seen_subcommand_from run logs runs stats aggregate last-run check status doctor watch metrics export sandbox demo login logout auth alias completions help" -f -a "stats" -d 'Consolidated statistics over a time window (default: the last 24 hours)'
complete -c ylemctl -n "__fish_ylemctl_using_subcommand help; and not __fish_seen_subcommand_from run logs runs stats aggregate last-run check status doctor watch metrics export sandbox demo login logout auth alias completions help" -f -a "aggregate" -d 'Statistics per day, week, month, quarter or year'
complete -c ylemctl -n "__fish_ylemctl_using_subcommand help; and not __fish_seen_subcommand_from run logs runs stats aggregate last-run check status doctor watch metrics export sandbox demo login logout auth alias completions help" -f -a "last-run" -d 'Statistics of the last run'
complete -c ylemctl -n "__fish_ylemctl_using_subcommand help; and not __fish_seen_subcommand_from run logs runs stats aggregate last-run check status doctor watch metrics export sandbox demo login logout auth alias completions help" -f -a "check" -d 'A monitoring check (Nagios, Icinga, Zabbix, cron): one status line, exit 0 OK, 1 WARNING, 2 CRITICAL, 3 UNKNOWN'
complete -c ylemctl -n "__fish_ylemctl_using_subcommand help; and not __fish_seen_subcommand_from run logs runs stats aggregate last-run check status doctor watch metrics export sandbox demo login logout auth alias completions help" -f -a "status" -d 'One row per pipeline, workflow or task: last run, runs and failures in 24 h, a 7-day failure sparkline'
complete -c ylemctl -n "__fish_ylemctl_using_subcommand help; and not __fish_seen_subcommand_from run logs runs stats aggregate last-run check status doctor watch metrics export sandbox demo login logout auth alias completions help" -f -a "doctor" -d 'Say why the tool cannot talk to the service, and what to do: set-up, network and TLS, clock, credentials, the API, aliases'
complete -c ylemctl -n "__fish_ylemctl_using_subcommand help; and not __fish_seen_subcommand_from run logs runs stats aggregate last-run check status doctor watch metrics export sandbox demo login logout auth alias completions help" -f -a "watch" -d 'Watch pipelines, workflows and tasks live: a board on a terminal, an event stream (JSON lines) for scripts'
complete -c ylemctl -n "__fish_ylemctl_using_subcommand help; and not __fish_seen_subcommand_from run logs runs stats aggregate last-run check status doctor watch metrics export sandbox demo login logout auth alias completions help" -f -a "metrics" -d 'A Prometheus exporter: serve /metrics for IDs and aliases'
complete -c ylemctl -n "__fish_ylemctl_using_subcommand help; and not __fish_seen_subcommand_from run logs runs stats aggregate last-run check status doctor watch metrics export sandbox demo login logout auth alias completions help" -f -a "export" -d 'Export finished runs: each a trace (OpenTelemetry) or run events (OpenLineage)'
complete -c ylemctl -n "__fish_ylemctl_using_subcommand help; and not __fish_seen_subcommand_from run logs runs stats aggregate last-run check status doctor watch metrics export sandbox demo login logout auth alias completions help" -f -a "sandbox" -d 'Serve the whole API on loopback from memory, for trying ylemctl and testing scripts'
complete -c ylemctl -n "__fish_ylemctl_using_subcommand help; and not __fish_seen_subcommand_from run logs runs stats aggregate last-run check status doctor watch metrics export sandbox demo login logout auth alias completions help" -f -a "demo" -d 'Start a sandbox in-process and walk through every command against it'
complete -c ylemctl -n "__fish_ylemctl_using_subcommand help; and not __fish_seen_subcommand_from run logs runs stats aggregate last-run check status doctor watch metrics export sandbox demo login logout auth alias completions help" -f -a "login" -d 'Log in with an OAuth client: check it by fetching a token, then save it in the profile'
complete -c ylemctl -n "__fish_ylemctl_using_subcommand help; and not __fish_seen_subcommand_from run logs runs stats aggregate last-run check status doctor watch metrics export sandbox demo login logout auth alias completions help" -f -a "logout" -d 'Remove the profile\'s stored secret and token (its base URL and client id stay)'
complete -c ylemctl -n "__fish_ylemctl_using_subcommand help; and not __fish_seen_subcommand_from run logs runs stats aggregate last-run check status doctor watch metrics export sandbox demo login logout auth alias completions help" -f -a "auth" -d 'Show the login state, or print a token for other tools'
complete -c ylemctl -n "__fish_ylemctl_using_subcommand help; and not __fish_seen_subcommand_from run logs runs stats aggregate last-run check status doctor watch metrics export sandbox demo login logout auth alias completions help" -f -a "alias" -d 'Names for UUIDs, usable wherever an ID is'
complete -c ylemctl -n "__fish_ylemctl_using_subcommand help; and not __fish_seen_subcommand_from run logs runs stats aggregate last-run check status doctor watch metrics export sandbox demo login logout auth alias completions help" -f -a "completions" -d 'Print a shell completion script'
complete -c ylemctl -n "__fish_ylemctl_using_subcommand help; and not __fish_seen_subcommand_from run logs runs stats aggregate last-run check status doctor watch metrics export sandbox demo login logout auth alias completions help" -f -a "help" -d 'Print this message or the help of the given subcommand(s)'
complete -c ylemctl -n "__fish_ylemctl_using_subcommand help; and __fish_seen_subcommand_from metrics" -f -a "serve" -d 'Serve /metrics (Prometheus text format) and / until Ctrl-C or SIGTERM, fetching on scrape'
complete -c ylemctl -n "__fish_ylemctl_using_subcommand help; and __fish_seen_subcommand_from export" -f -a "otlp" -d 'Each finished pipeline run as one OpenTelemetry trace, by OTLP/HTTP (or OTLP JSON lines on stdout)'
complete -c ylemctl -n "__fish_ylemctl_using_subcommand help; and __fish_seen_subcommand_from export" -f -a "openlineage" -d 'Each finished pipeline run as an OpenLineage START and COMPLETE or FAIL event (POSTed, or JSON lines on stdout)'
complete -c ylemctl -n "__fish_ylemctl_using_subcommand help; and __fish_seen_subcommand_from auth" -f -a "status" -d 'Profile, base URL, client id, the URL its credentials are bound to, store and token expiry (never the token)'
complete -c ylemctl -n "__fish_ylemctl_using_subcommand help; and __fish_seen_subcommand_from auth" -f -a "token" -d 'Print a valid access token on standard output, for other tools'
complete -c ylemctl -n "__fish_ylemctl_using_subcommand help; and __fish_seen_subcommand_from alias" -f -a "set" -d 'Name a UUID (replaces an alias of the same name)'
complete -c ylemctl -n "__fish_ylemctl_using_subcommand help; and __fish_seen_subcommand_from alias" -f -a "list" -d 'List the aliases'
complete -c ylemctl -n "__fish_ylemctl_using_subcommand help; and __fish_seen_subcommand_from alias" -f -a "remove" -d 'Remove an alias'

# Alias names (ylemctl alias list) complete where an ID goes.
complete -c ylemctl -n "__fish_seen_subcommand_from run stats aggregate last-run check; and __fish_seen_subcommand_from task pipeline workflow" -f -a "(ylemctl alias list --names 2>/dev/null)"
complete -c ylemctl -n "__fish_seen_subcommand_from logs status serve" -f -a "(ylemctl alias list --names 2>/dev/null)"
complete -c ylemctl -n "__fish_seen_subcommand_from alias; and __fish_seen_subcommand_from remove" -f -a "(ylemctl alias list --names 2>/dev/null)"

# --input @FILE: file names after the @.
function __ylemctl_input_file
    set -l token (commandline -ct | string replace -r -- '^--input=' '')
    string match -q -- '@*' $token; or return
    __fish_complete_path (string sub -s 2 -- $token) | string replace -r -- '^' '@'
end
complete -c ylemctl -n "__fish_seen_subcommand_from run" -l input -r -a "(__ylemctl_input_file)"
