
using namespace System.Management.Automation
using namespace System.Management.Automation.Language

Register-ArgumentCompleter -Native -CommandName 'ylemctl' -ScriptBlock {
    param($wordToComplete, $commandAst, $cursorPosition)

    $commandElements = $commandAst.CommandElements
    $command = @(
        'ylemctl'
        for ($i = 1; $i -lt $commandElements.Count; $i++) {
            $element = $commandElements[$i]
            if ($element -isnot [StringConstantExpressionAst] -or
                $element.StringConstantType -ne [StringConstantType]::BareWord -or
                $element.Value.StartsWith('-') -or
                $element.Value -eq $wordToComplete) {
                break
        }
        $element.Value
    }) -join ';'

    $completions = @(switch ($command) {
        'ylemctl' {
            [CompletionResult]::new('-p', '-p', [CompletionResultType]::ParameterName, 'Profile to use')
            [CompletionResult]::new('--profile', '--profile', [CompletionResultType]::ParameterName, 'Profile to use')
            [CompletionResult]::new('--base-url', '--base-url', [CompletionResultType]::ParameterName, 'Base URL of the service (a profile''s credentials go only to its own)')
            [CompletionResult]::new('-o', '-o', [CompletionResultType]::ParameterName, 'Output format (prometheus: stats, last-run, status and check; junit: run pipeline --wait and runs --run)')
            [CompletionResult]::new('--output', '--output', [CompletionResultType]::ParameterName, 'Output format (prometheus: stats, last-run, status and check; junit: run pipeline --wait and runs --run)')
            [CompletionResult]::new('--jq', '--jq', [CompletionResultType]::ParameterName, 'Filter the JSON output with a jq expression, as gh --jq: strings raw (escaped on a terminal; off it a string may span lines: use tojson for one a line), other values compact, one a line; each row of logs, runs and -o jsonl on its own (implies -o json; exit 2 for a bad expression, before any request)')
            [CompletionResult]::new('--fields', '--fields', [CompletionResultType]::ParameterName, 'Columns or keys to keep, in this order (comma-separated); a table never leaves them out to fit the terminal')
            [CompletionResult]::new('--output-file', '--output-file', [CompletionResultType]::ParameterName, 'With -o prometheus: write the exposition to PATH atomically (a temporary file in the same directory, then renamed), for node_exporter''s textfile collector')
            [CompletionResult]::new('--connect-timeout', '--connect-timeout', [CompletionResultType]::ParameterName, 'Longest time to connect (TCP and TLS) [default: 10s]')
            [CompletionResult]::new('--timeout', '--timeout', [CompletionResultType]::ParameterName, 'Longest wait for the server with no progress: the first byte, any stall between bytes; a body that keeps arriving is never cut [default: 60s]')
            [CompletionResult]::new('--max-time', '--max-time', [CompletionResultType]::ParameterName, 'Longest time for the whole command, retries and waits included (off by default; `check` defaults to 50s, inside a monitoring plugin''s 60 s)')
            [CompletionResult]::new('--settle', '--settle', [CompletionResultType]::ParameterName, 'The settle time of every command that judges a run (run --wait, runs, last-run, check, status, watch, metrics serve, logs -f --run): a pipeline run without a known task set has finished when no new task reported for this long, a workflow''s success counts after it (also YLEM_SETTLE, or the profile''s settle) [default: a pipeline''s 3x the longest gap between two tasks of its past runs, at least 10s, 10m without history; a workflow''s 10m]')
            [CompletionResult]::new('--retries', '--retries', [CompletionResultType]::ParameterName, 'Retries of idempotent requests (GET, token); a run start is never retried [default: 2]')
            [CompletionResult]::new('--concurrency', '--concurrency', [CompletionResultType]::ParameterName, 'Requests in flight at once when several IDs are given [default: 8]')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'When to use colour (NO_COLOR turns it off even with always; CLICOLOR_FORCE on in auto)')
            [CompletionResult]::new('--no-header', '--no-header', [CompletionResultType]::ParameterName, 'No header row (table, csv)')
            [CompletionResult]::new('--csv-raw', '--csv-raw', [CompletionResultType]::ParameterName, 'With -o csv: text cells as sent (by default one starting with = + - @, tab or CR gets a '' in front, so a spreadsheet does not run it as a formula, and control characters are escaped as in tables)')
            [CompletionResult]::new('--local', '--local', [CompletionResultType]::ParameterName, 'Read naive times and show times in the local time zone (also YLEM_TZ=local)')
            [CompletionResult]::new('-v', '-v', [CompletionResultType]::ParameterName, '-v: one line per HTTP request on stderr; -vv: also headers and bodies (secrets redacted)')
            [CompletionResult]::new('--verbose', '--verbose', [CompletionResultType]::ParameterName, '-v: one line per HTTP request on stderr; -vv: also headers and bodies (secrets redacted)')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'No spinner, notes or warnings')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'No spinner, notes or warnings')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('run', 'run', [CompletionResultType]::ParameterValue, 'Start runs of pipelines or workflows (runs are not idempotent: never retried)')
            [CompletionResult]::new('logs', 'logs', [CompletionResultType]::ParameterValue, 'Show a pipeline''s run log over a time window')
            [CompletionResult]::new('runs', 'runs', [CompletionResultType]::ParameterValue, 'A pipeline''s runs over a time window, newest first, with their result; or one run whole (--run)')
            [CompletionResult]::new('stats', 'stats', [CompletionResultType]::ParameterValue, 'Consolidated statistics over a time window (default: the last 24 hours)')
            [CompletionResult]::new('aggregate', 'aggregate', [CompletionResultType]::ParameterValue, 'Statistics per day, week, month, quarter or year')
            [CompletionResult]::new('last-run', 'last-run', [CompletionResultType]::ParameterValue, 'Statistics of the last run')
            [CompletionResult]::new('check', 'check', [CompletionResultType]::ParameterValue, 'A monitoring check (Nagios, Icinga, Zabbix, cron): one status line, exit 0 OK, 1 WARNING, 2 CRITICAL, 3 UNKNOWN')
            [CompletionResult]::new('status', 'status', [CompletionResultType]::ParameterValue, 'One row per pipeline, workflow or task: last run, runs and failures in 24 h, a 7-day failure sparkline')
            [CompletionResult]::new('doctor', 'doctor', [CompletionResultType]::ParameterValue, 'Say why the tool cannot talk to the service, and what to do: set-up, network and TLS, clock, credentials, the API, aliases')
            [CompletionResult]::new('watch', 'watch', [CompletionResultType]::ParameterValue, 'Watch pipelines, workflows and tasks live: a board on a terminal, an event stream (JSON lines) for scripts')
            [CompletionResult]::new('metrics', 'metrics', [CompletionResultType]::ParameterValue, 'A Prometheus exporter: serve /metrics for IDs and aliases')
            [CompletionResult]::new('export', 'export', [CompletionResultType]::ParameterValue, 'Export finished runs: each a trace (OpenTelemetry) or run events (OpenLineage)')
            [CompletionResult]::new('sandbox', 'sandbox', [CompletionResultType]::ParameterValue, 'Serve the whole API on loopback from memory, for trying ylemctl and testing scripts')
            [CompletionResult]::new('demo', 'demo', [CompletionResultType]::ParameterValue, 'Start a sandbox in-process and walk through every command against it')
            [CompletionResult]::new('login', 'login', [CompletionResultType]::ParameterValue, 'Log in with an OAuth client: check it by fetching a token, then save it in the profile')
            [CompletionResult]::new('logout', 'logout', [CompletionResultType]::ParameterValue, 'Remove the profile''s stored secret and token (its base URL and client id stay)')
            [CompletionResult]::new('auth', 'auth', [CompletionResultType]::ParameterValue, 'Show the login state, or print a token for other tools')
            [CompletionResult]::new('alias', 'alias', [CompletionResultType]::ParameterValue, 'Names for UUIDs, usable wherever an ID is')
            [CompletionResult]::new('completions', 'completions', [CompletionResultType]::ParameterValue, 'Print a shell completion script')
            [CompletionResult]::new('help', 'help', [CompletionResultType]::ParameterValue, 'Print this message or the help of the given subcommand(s)')
            break
        }
        'ylemctl;run' {
            [CompletionResult]::new('--input', '--input', [CompletionResultType]::ParameterName, 'The pipeline run''s input: JSON text, @FILE (a file''s contents) or - (standard input)')
            [CompletionResult]::new('--rerun', '--rerun', [CompletionResultType]::ParameterName, 'Start the pipeline with the same input as its run RUN_UUID: the output of that run''s external trigger entry, byte for byte')
            [CompletionResult]::new('--since', '--since', [CompletionResultType]::ParameterName, 'With --rerun: start of the window to find the run in, e.g. 7d, or a TIME (the window then ends now)')
            [CompletionResult]::new('--from', '--from', [CompletionResultType]::ParameterName, 'With --rerun: start of the window to find the run in')
            [CompletionResult]::new('--to', '--to', [CompletionResultType]::ParameterName, 'With --rerun: end of the window to find the run in (inclusive)')
            [CompletionResult]::new('--wait-timeout', '--wait-timeout', [CompletionResultType]::ParameterName, 'Longest time to wait for the runs to finish')
            [CompletionResult]::new('--expect-tasks', '--expect-tasks', [CompletionResultType]::ParameterName, 'A pipeline run has finished when this many tasks reported (and no more for one --poll), whatever its history says')
            [CompletionResult]::new('--poll', '--poll', [CompletionResultType]::ParameterName, 'Longest pause between two looks at a run being waited for')
            [CompletionResult]::new('--heartbeat', '--heartbeat', [CompletionResultType]::ParameterName, 'Without a terminal on stderr (cron, CI), say "still waiting" on stderr this often while waiting')
            [CompletionResult]::new('--decrypt-key-file', '--decrypt-key-file', [CompletionResultType]::ParameterName, 'Key file (32 bytes, hex or Base64) that opens encrypted task outputs, to say why a run failed, with --wait, and to read the input of the run --rerun names (also YLEM_DECRYPT_KEY_FILE, or the profile''s decrypt_key_file)')
            [CompletionResult]::new('-p', '-p', [CompletionResultType]::ParameterName, 'Profile to use')
            [CompletionResult]::new('--profile', '--profile', [CompletionResultType]::ParameterName, 'Profile to use')
            [CompletionResult]::new('--base-url', '--base-url', [CompletionResultType]::ParameterName, 'Base URL of the service (a profile''s credentials go only to its own)')
            [CompletionResult]::new('-o', '-o', [CompletionResultType]::ParameterName, 'Output format (prometheus: stats, last-run, status and check; junit: run pipeline --wait and runs --run)')
            [CompletionResult]::new('--output', '--output', [CompletionResultType]::ParameterName, 'Output format (prometheus: stats, last-run, status and check; junit: run pipeline --wait and runs --run)')
            [CompletionResult]::new('--jq', '--jq', [CompletionResultType]::ParameterName, 'Filter the JSON output with a jq expression, as gh --jq: strings raw (escaped on a terminal; off it a string may span lines: use tojson for one a line), other values compact, one a line; each row of logs, runs and -o jsonl on its own (implies -o json; exit 2 for a bad expression, before any request)')
            [CompletionResult]::new('--fields', '--fields', [CompletionResultType]::ParameterName, 'Columns or keys to keep, in this order (comma-separated); a table never leaves them out to fit the terminal')
            [CompletionResult]::new('--output-file', '--output-file', [CompletionResultType]::ParameterName, 'With -o prometheus: write the exposition to PATH atomically (a temporary file in the same directory, then renamed), for node_exporter''s textfile collector')
            [CompletionResult]::new('--connect-timeout', '--connect-timeout', [CompletionResultType]::ParameterName, 'Longest time to connect (TCP and TLS) [default: 10s]')
            [CompletionResult]::new('--timeout', '--timeout', [CompletionResultType]::ParameterName, 'Longest wait for the server with no progress: the first byte, any stall between bytes; a body that keeps arriving is never cut [default: 60s]')
            [CompletionResult]::new('--max-time', '--max-time', [CompletionResultType]::ParameterName, 'Longest time for the whole command, retries and waits included (off by default; `check` defaults to 50s, inside a monitoring plugin''s 60 s)')
            [CompletionResult]::new('--settle', '--settle', [CompletionResultType]::ParameterName, 'The settle time of every command that judges a run (run --wait, runs, last-run, check, status, watch, metrics serve, logs -f --run): a pipeline run without a known task set has finished when no new task reported for this long, a workflow''s success counts after it (also YLEM_SETTLE, or the profile''s settle) [default: a pipeline''s 3x the longest gap between two tasks of its past runs, at least 10s, 10m without history; a workflow''s 10m]')
            [CompletionResult]::new('--retries', '--retries', [CompletionResultType]::ParameterName, 'Retries of idempotent requests (GET, token); a run start is never retried [default: 2]')
            [CompletionResult]::new('--concurrency', '--concurrency', [CompletionResultType]::ParameterName, 'Requests in flight at once when several IDs are given [default: 8]')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'When to use colour (NO_COLOR turns it off even with always; CLICOLOR_FORCE on in auto)')
            [CompletionResult]::new('--wait', '--wait', [CompletionResultType]::ParameterName, 'Follow the runs until they finish: exit 0 when they succeeded (on evidence: see --settle and --expect-tasks), 7 when a task failed, 8 when --wait-timeout ran out. `completion` says which rule decided: history, expected_tasks, settled, failed_task, timed_out; for a workflow (no log) statistics_settled or statistics_failed, and no elapsed (the wait''s time is not the run''s)')
            [CompletionResult]::new('--no-header', '--no-header', [CompletionResultType]::ParameterName, 'No header row (table, csv)')
            [CompletionResult]::new('--csv-raw', '--csv-raw', [CompletionResultType]::ParameterName, 'With -o csv: text cells as sent (by default one starting with = + - @, tab or CR gets a '' in front, so a spreadsheet does not run it as a formula, and control characters are escaped as in tables)')
            [CompletionResult]::new('--local', '--local', [CompletionResultType]::ParameterName, 'Read naive times and show times in the local time zone (also YLEM_TZ=local)')
            [CompletionResult]::new('-v', '-v', [CompletionResultType]::ParameterName, '-v: one line per HTTP request on stderr; -vv: also headers and bodies (secrets redacted)')
            [CompletionResult]::new('--verbose', '--verbose', [CompletionResultType]::ParameterName, '-v: one line per HTTP request on stderr; -vv: also headers and bodies (secrets redacted)')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'No spinner, notes or warnings')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'No spinner, notes or warnings')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'ylemctl;logs' {
            [CompletionResult]::new('--from', '--from', [CompletionResultType]::ParameterName, 'Start: YYYY-MM-DD[ HH:MM:SS], ISO 8601, now, today, yesterday, or an age such as 7d')
            [CompletionResult]::new('--to', '--to', [CompletionResultType]::ParameterName, 'End (inclusive; a bare date means the end of that day)')
            [CompletionResult]::new('--since', '--since', [CompletionResultType]::ParameterName, 'Start of a window that ends now, e.g. 90m, 24h, 7d, 2w, or a TIME')
            [CompletionResult]::new('--run', '--run', [CompletionResultType]::ParameterName, 'Only entries of this run')
            [CompletionResult]::new('--task', '--task', [CompletionResultType]::ParameterName, 'Only entries of this task (UUID or alias); repeat for several')
            [CompletionResult]::new('--decrypt-key-file', '--decrypt-key-file', [CompletionResultType]::ParameterName, 'Decrypt `output` (AES-256-GCM, 12-byte nonce first) with the key in FILE: 32 raw bytes, hex or Base64')
            [CompletionResult]::new('--tail', '--tail', [CompletionResultType]::ParameterName, 'The newest N entries only (the log comes newest first: they are printed as they come, nothing is held); with -f, the newest N of the last hour, oldest first, then follow')
            [CompletionResult]::new('--poll', '--poll', [CompletionResultType]::ParameterName, 'With -f: look at the log every DURATION (default: after 2s, the pause growing to 30s while nothing changes, 6s at most with --run)')
            [CompletionResult]::new('--concurrency', '--concurrency', [CompletionResultType]::ParameterName, 'Requests in flight at once when several IDs are given [default: 8]')
            [CompletionResult]::new('-p', '-p', [CompletionResultType]::ParameterName, 'Profile to use')
            [CompletionResult]::new('--profile', '--profile', [CompletionResultType]::ParameterName, 'Profile to use')
            [CompletionResult]::new('--base-url', '--base-url', [CompletionResultType]::ParameterName, 'Base URL of the service (a profile''s credentials go only to its own)')
            [CompletionResult]::new('-o', '-o', [CompletionResultType]::ParameterName, 'Output format (prometheus: stats, last-run, status and check; junit: run pipeline --wait and runs --run)')
            [CompletionResult]::new('--output', '--output', [CompletionResultType]::ParameterName, 'Output format (prometheus: stats, last-run, status and check; junit: run pipeline --wait and runs --run)')
            [CompletionResult]::new('--jq', '--jq', [CompletionResultType]::ParameterName, 'Filter the JSON output with a jq expression, as gh --jq: strings raw (escaped on a terminal; off it a string may span lines: use tojson for one a line), other values compact, one a line; each row of logs, runs and -o jsonl on its own (implies -o json; exit 2 for a bad expression, before any request)')
            [CompletionResult]::new('--fields', '--fields', [CompletionResultType]::ParameterName, 'Columns or keys to keep, in this order (comma-separated); a table never leaves them out to fit the terminal')
            [CompletionResult]::new('--output-file', '--output-file', [CompletionResultType]::ParameterName, 'With -o prometheus: write the exposition to PATH atomically (a temporary file in the same directory, then renamed), for node_exporter''s textfile collector')
            [CompletionResult]::new('--connect-timeout', '--connect-timeout', [CompletionResultType]::ParameterName, 'Longest time to connect (TCP and TLS) [default: 10s]')
            [CompletionResult]::new('--timeout', '--timeout', [CompletionResultType]::ParameterName, 'Longest wait for the server with no progress: the first byte, any stall between bytes; a body that keeps arriving is never cut [default: 60s]')
            [CompletionResult]::new('--max-time', '--max-time', [CompletionResultType]::ParameterName, 'Longest time for the whole command, retries and waits included (off by default; `check` defaults to 50s, inside a monitoring plugin''s 60 s)')
            [CompletionResult]::new('--settle', '--settle', [CompletionResultType]::ParameterName, 'The settle time of every command that judges a run (run --wait, runs, last-run, check, status, watch, metrics serve, logs -f --run): a pipeline run without a known task set has finished when no new task reported for this long, a workflow''s success counts after it (also YLEM_SETTLE, or the profile''s settle) [default: a pipeline''s 3x the longest gap between two tasks of its past runs, at least 10s, 10m without history; a workflow''s 10m]')
            [CompletionResult]::new('--retries', '--retries', [CompletionResultType]::ParameterName, 'Retries of idempotent requests (GET, token); a run start is never retried [default: 2]')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'When to use colour (NO_COLOR turns it off even with always; CLICOLOR_FORCE on in auto)')
            [CompletionResult]::new('--failed', '--failed', [CompletionResultType]::ParameterName, 'Only failed entries')
            [CompletionResult]::new('--decode', '--decode', [CompletionResultType]::ParameterName, 'Decode `output` from Base64 to text (JSON is pretty-printed in tables, embedded in json/jsonl)')
            [CompletionResult]::new('-f', '-f', [CompletionResultType]::ParameterName, 'Keep printing entries as they appear, oldest first, until Ctrl-C, --max-time, or (with --run) the run is complete; --since sets the start (default: now, after the newest 10 entries of the last hour: see --tail)')
            [CompletionResult]::new('--follow', '--follow', [CompletionResultType]::ParameterName, 'Keep printing entries as they appear, oldest first, until Ctrl-C, --max-time, or (with --run) the run is complete; --since sets the start (default: now, after the newest 10 entries of the last hour: see --tail)')
            [CompletionResult]::new('--no-header', '--no-header', [CompletionResultType]::ParameterName, 'No header row (table, csv)')
            [CompletionResult]::new('--csv-raw', '--csv-raw', [CompletionResultType]::ParameterName, 'With -o csv: text cells as sent (by default one starting with = + - @, tab or CR gets a '' in front, so a spreadsheet does not run it as a formula, and control characters are escaped as in tables)')
            [CompletionResult]::new('--local', '--local', [CompletionResultType]::ParameterName, 'Read naive times and show times in the local time zone (also YLEM_TZ=local)')
            [CompletionResult]::new('-v', '-v', [CompletionResultType]::ParameterName, '-v: one line per HTTP request on stderr; -vv: also headers and bodies (secrets redacted)')
            [CompletionResult]::new('--verbose', '--verbose', [CompletionResultType]::ParameterName, '-v: one line per HTTP request on stderr; -vv: also headers and bodies (secrets redacted)')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'No spinner, notes or warnings')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'No spinner, notes or warnings')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'ylemctl;runs' {
            [CompletionResult]::new('--from', '--from', [CompletionResultType]::ParameterName, 'Start: YYYY-MM-DD[ HH:MM:SS], ISO 8601, now, today, yesterday, or an age such as 7d')
            [CompletionResult]::new('--to', '--to', [CompletionResultType]::ParameterName, 'End (inclusive; a bare date means the end of that day)')
            [CompletionResult]::new('--since', '--since', [CompletionResultType]::ParameterName, 'Start of a window that ends now, e.g. 90m, 24h, 7d, 2w, or a TIME')
            [CompletionResult]::new('--result', '--result', [CompletionResultType]::ParameterName, 'Only runs with this result: running (not finished on evidence yet), succeeded or failed')
            [CompletionResult]::new('--limit', '--limit', [CompletionResultType]::ParameterName, 'The newest N runs only')
            [CompletionResult]::new('--run', '--run', [CompletionResultType]::ParameterName, 'Show one run whole: a run UUID, `latest` or `latest-failed`')
            [CompletionResult]::new('--wait-timeout', '--wait-timeout', [CompletionResultType]::ParameterName, 'Longest time to wait for the run to finish')
            [CompletionResult]::new('--poll', '--poll', [CompletionResultType]::ParameterName, 'Longest pause between two looks at the run (as run --poll)')
            [CompletionResult]::new('--heartbeat', '--heartbeat', [CompletionResultType]::ParameterName, 'Without a terminal on stderr (cron, CI), say "still waiting" on stderr this often while waiting')
            [CompletionResult]::new('--decrypt-key-file', '--decrypt-key-file', [CompletionResultType]::ParameterName, 'Key file (32 bytes, hex or Base64) that opens encrypted task outputs, to say why a run failed (also YLEM_DECRYPT_KEY_FILE, or the profile''s decrypt_key_file)')
            [CompletionResult]::new('-p', '-p', [CompletionResultType]::ParameterName, 'Profile to use')
            [CompletionResult]::new('--profile', '--profile', [CompletionResultType]::ParameterName, 'Profile to use')
            [CompletionResult]::new('--base-url', '--base-url', [CompletionResultType]::ParameterName, 'Base URL of the service (a profile''s credentials go only to its own)')
            [CompletionResult]::new('-o', '-o', [CompletionResultType]::ParameterName, 'Output format (prometheus: stats, last-run, status and check; junit: run pipeline --wait and runs --run)')
            [CompletionResult]::new('--output', '--output', [CompletionResultType]::ParameterName, 'Output format (prometheus: stats, last-run, status and check; junit: run pipeline --wait and runs --run)')
            [CompletionResult]::new('--jq', '--jq', [CompletionResultType]::ParameterName, 'Filter the JSON output with a jq expression, as gh --jq: strings raw (escaped on a terminal; off it a string may span lines: use tojson for one a line), other values compact, one a line; each row of logs, runs and -o jsonl on its own (implies -o json; exit 2 for a bad expression, before any request)')
            [CompletionResult]::new('--fields', '--fields', [CompletionResultType]::ParameterName, 'Columns or keys to keep, in this order (comma-separated); a table never leaves them out to fit the terminal')
            [CompletionResult]::new('--output-file', '--output-file', [CompletionResultType]::ParameterName, 'With -o prometheus: write the exposition to PATH atomically (a temporary file in the same directory, then renamed), for node_exporter''s textfile collector')
            [CompletionResult]::new('--connect-timeout', '--connect-timeout', [CompletionResultType]::ParameterName, 'Longest time to connect (TCP and TLS) [default: 10s]')
            [CompletionResult]::new('--timeout', '--timeout', [CompletionResultType]::ParameterName, 'Longest wait for the server with no progress: the first byte, any stall between bytes; a body that keeps arriving is never cut [default: 60s]')
            [CompletionResult]::new('--max-time', '--max-time', [CompletionResultType]::ParameterName, 'Longest time for the whole command, retries and waits included (off by default; `check` defaults to 50s, inside a monitoring plugin''s 60 s)')
            [CompletionResult]::new('--settle', '--settle', [CompletionResultType]::ParameterName, 'The settle time of every command that judges a run (run --wait, runs, last-run, check, status, watch, metrics serve, logs -f --run): a pipeline run without a known task set has finished when no new task reported for this long, a workflow''s success counts after it (also YLEM_SETTLE, or the profile''s settle) [default: a pipeline''s 3x the longest gap between two tasks of its past runs, at least 10s, 10m without history; a workflow''s 10m]')
            [CompletionResult]::new('--retries', '--retries', [CompletionResultType]::ParameterName, 'Retries of idempotent requests (GET, token); a run start is never retried [default: 2]')
            [CompletionResult]::new('--concurrency', '--concurrency', [CompletionResultType]::ParameterName, 'Requests in flight at once when several IDs are given [default: 8]')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'When to use colour (NO_COLOR turns it off even with always; CLICOLOR_FORCE on in auto)')
            [CompletionResult]::new('--failed', '--failed', [CompletionResultType]::ParameterName, 'Only failed runs (as --result failed)')
            [CompletionResult]::new('--exit-status', '--exit-status', [CompletionResultType]::ParameterName, 'With --run: exit 0 only when the run succeeded on evidence, 7 when it failed, 8 when it is still running or its end cannot be established (also: no entry of it yet, or --wait-timeout ran out)')
            [CompletionResult]::new('--wait', '--wait', [CompletionResultType]::ParameterName, 'With --run RUN or latest: follow the run to its verdict as `run --wait` does (a run started elsewhere, or before a SIGTERM); a run with no entry yet is waited for. `latest` is the newest run with an entry in the window when the wait begins')
            [CompletionResult]::new('--no-header', '--no-header', [CompletionResultType]::ParameterName, 'No header row (table, csv)')
            [CompletionResult]::new('--csv-raw', '--csv-raw', [CompletionResultType]::ParameterName, 'With -o csv: text cells as sent (by default one starting with = + - @, tab or CR gets a '' in front, so a spreadsheet does not run it as a formula, and control characters are escaped as in tables)')
            [CompletionResult]::new('--local', '--local', [CompletionResultType]::ParameterName, 'Read naive times and show times in the local time zone (also YLEM_TZ=local)')
            [CompletionResult]::new('-v', '-v', [CompletionResultType]::ParameterName, '-v: one line per HTTP request on stderr; -vv: also headers and bodies (secrets redacted)')
            [CompletionResult]::new('--verbose', '--verbose', [CompletionResultType]::ParameterName, '-v: one line per HTTP request on stderr; -vv: also headers and bodies (secrets redacted)')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'No spinner, notes or warnings')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'No spinner, notes or warnings')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'ylemctl;stats' {
            [CompletionResult]::new('--from', '--from', [CompletionResultType]::ParameterName, 'Start: YYYY-MM-DD[ HH:MM:SS], ISO 8601, now, today, yesterday, or an age such as 7d')
            [CompletionResult]::new('--to', '--to', [CompletionResultType]::ParameterName, 'End (inclusive; a bare date means the end of that day)')
            [CompletionResult]::new('--since', '--since', [CompletionResultType]::ParameterName, 'Start of a window that ends now, e.g. 90m, 24h, 7d, 2w, or a TIME')
            [CompletionResult]::new('-p', '-p', [CompletionResultType]::ParameterName, 'Profile to use')
            [CompletionResult]::new('--profile', '--profile', [CompletionResultType]::ParameterName, 'Profile to use')
            [CompletionResult]::new('--base-url', '--base-url', [CompletionResultType]::ParameterName, 'Base URL of the service (a profile''s credentials go only to its own)')
            [CompletionResult]::new('-o', '-o', [CompletionResultType]::ParameterName, 'Output format (prometheus: stats, last-run, status and check; junit: run pipeline --wait and runs --run)')
            [CompletionResult]::new('--output', '--output', [CompletionResultType]::ParameterName, 'Output format (prometheus: stats, last-run, status and check; junit: run pipeline --wait and runs --run)')
            [CompletionResult]::new('--jq', '--jq', [CompletionResultType]::ParameterName, 'Filter the JSON output with a jq expression, as gh --jq: strings raw (escaped on a terminal; off it a string may span lines: use tojson for one a line), other values compact, one a line; each row of logs, runs and -o jsonl on its own (implies -o json; exit 2 for a bad expression, before any request)')
            [CompletionResult]::new('--fields', '--fields', [CompletionResultType]::ParameterName, 'Columns or keys to keep, in this order (comma-separated); a table never leaves them out to fit the terminal')
            [CompletionResult]::new('--output-file', '--output-file', [CompletionResultType]::ParameterName, 'With -o prometheus: write the exposition to PATH atomically (a temporary file in the same directory, then renamed), for node_exporter''s textfile collector')
            [CompletionResult]::new('--connect-timeout', '--connect-timeout', [CompletionResultType]::ParameterName, 'Longest time to connect (TCP and TLS) [default: 10s]')
            [CompletionResult]::new('--timeout', '--timeout', [CompletionResultType]::ParameterName, 'Longest wait for the server with no progress: the first byte, any stall between bytes; a body that keeps arriving is never cut [default: 60s]')
            [CompletionResult]::new('--max-time', '--max-time', [CompletionResultType]::ParameterName, 'Longest time for the whole command, retries and waits included (off by default; `check` defaults to 50s, inside a monitoring plugin''s 60 s)')
            [CompletionResult]::new('--settle', '--settle', [CompletionResultType]::ParameterName, 'The settle time of every command that judges a run (run --wait, runs, last-run, check, status, watch, metrics serve, logs -f --run): a pipeline run without a known task set has finished when no new task reported for this long, a workflow''s success counts after it (also YLEM_SETTLE, or the profile''s settle) [default: a pipeline''s 3x the longest gap between two tasks of its past runs, at least 10s, 10m without history; a workflow''s 10m]')
            [CompletionResult]::new('--retries', '--retries', [CompletionResultType]::ParameterName, 'Retries of idempotent requests (GET, token); a run start is never retried [default: 2]')
            [CompletionResult]::new('--concurrency', '--concurrency', [CompletionResultType]::ParameterName, 'Requests in flight at once when several IDs are given [default: 8]')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'When to use colour (NO_COLOR turns it off even with always; CLICOLOR_FORCE on in auto)')
            [CompletionResult]::new('--no-header', '--no-header', [CompletionResultType]::ParameterName, 'No header row (table, csv)')
            [CompletionResult]::new('--csv-raw', '--csv-raw', [CompletionResultType]::ParameterName, 'With -o csv: text cells as sent (by default one starting with = + - @, tab or CR gets a '' in front, so a spreadsheet does not run it as a formula, and control characters are escaped as in tables)')
            [CompletionResult]::new('--local', '--local', [CompletionResultType]::ParameterName, 'Read naive times and show times in the local time zone (also YLEM_TZ=local)')
            [CompletionResult]::new('-v', '-v', [CompletionResultType]::ParameterName, '-v: one line per HTTP request on stderr; -vv: also headers and bodies (secrets redacted)')
            [CompletionResult]::new('--verbose', '--verbose', [CompletionResultType]::ParameterName, '-v: one line per HTTP request on stderr; -vv: also headers and bodies (secrets redacted)')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'No spinner, notes or warnings')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'No spinner, notes or warnings')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'ylemctl;aggregate' {
            [CompletionResult]::new('--from', '--from', [CompletionResultType]::ParameterName, 'Start of the first period (default: so that the last period is the current one)')
            [CompletionResult]::new('--period', '--period', [CompletionResultType]::ParameterName, 'Length of each period')
            [CompletionResult]::new('--count', '--count', [CompletionResultType]::ParameterName, 'Number of periods (1 or more)')
            [CompletionResult]::new('-p', '-p', [CompletionResultType]::ParameterName, 'Profile to use')
            [CompletionResult]::new('--profile', '--profile', [CompletionResultType]::ParameterName, 'Profile to use')
            [CompletionResult]::new('--base-url', '--base-url', [CompletionResultType]::ParameterName, 'Base URL of the service (a profile''s credentials go only to its own)')
            [CompletionResult]::new('-o', '-o', [CompletionResultType]::ParameterName, 'Output format (prometheus: stats, last-run, status and check; junit: run pipeline --wait and runs --run)')
            [CompletionResult]::new('--output', '--output', [CompletionResultType]::ParameterName, 'Output format (prometheus: stats, last-run, status and check; junit: run pipeline --wait and runs --run)')
            [CompletionResult]::new('--jq', '--jq', [CompletionResultType]::ParameterName, 'Filter the JSON output with a jq expression, as gh --jq: strings raw (escaped on a terminal; off it a string may span lines: use tojson for one a line), other values compact, one a line; each row of logs, runs and -o jsonl on its own (implies -o json; exit 2 for a bad expression, before any request)')
            [CompletionResult]::new('--fields', '--fields', [CompletionResultType]::ParameterName, 'Columns or keys to keep, in this order (comma-separated); a table never leaves them out to fit the terminal')
            [CompletionResult]::new('--output-file', '--output-file', [CompletionResultType]::ParameterName, 'With -o prometheus: write the exposition to PATH atomically (a temporary file in the same directory, then renamed), for node_exporter''s textfile collector')
            [CompletionResult]::new('--connect-timeout', '--connect-timeout', [CompletionResultType]::ParameterName, 'Longest time to connect (TCP and TLS) [default: 10s]')
            [CompletionResult]::new('--timeout', '--timeout', [CompletionResultType]::ParameterName, 'Longest wait for the server with no progress: the first byte, any stall between bytes; a body that keeps arriving is never cut [default: 60s]')
            [CompletionResult]::new('--max-time', '--max-time', [CompletionResultType]::ParameterName, 'Longest time for the whole command, retries and waits included (off by default; `check` defaults to 50s, inside a monitoring plugin''s 60 s)')
            [CompletionResult]::new('--settle', '--settle', [CompletionResultType]::ParameterName, 'The settle time of every command that judges a run (run --wait, runs, last-run, check, status, watch, metrics serve, logs -f --run): a pipeline run without a known task set has finished when no new task reported for this long, a workflow''s success counts after it (also YLEM_SETTLE, or the profile''s settle) [default: a pipeline''s 3x the longest gap between two tasks of its past runs, at least 10s, 10m without history; a workflow''s 10m]')
            [CompletionResult]::new('--retries', '--retries', [CompletionResultType]::ParameterName, 'Retries of idempotent requests (GET, token); a run start is never retried [default: 2]')
            [CompletionResult]::new('--concurrency', '--concurrency', [CompletionResultType]::ParameterName, 'Requests in flight at once when several IDs are given [default: 8]')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'When to use colour (NO_COLOR turns it off even with always; CLICOLOR_FORCE on in auto)')
            [CompletionResult]::new('--chart', '--chart', [CompletionResultType]::ParameterName, 'Draw successes and failures per period as a bar chart')
            [CompletionResult]::new('--no-header', '--no-header', [CompletionResultType]::ParameterName, 'No header row (table, csv)')
            [CompletionResult]::new('--csv-raw', '--csv-raw', [CompletionResultType]::ParameterName, 'With -o csv: text cells as sent (by default one starting with = + - @, tab or CR gets a '' in front, so a spreadsheet does not run it as a formula, and control characters are escaped as in tables)')
            [CompletionResult]::new('--local', '--local', [CompletionResultType]::ParameterName, 'Read naive times and show times in the local time zone (also YLEM_TZ=local)')
            [CompletionResult]::new('-v', '-v', [CompletionResultType]::ParameterName, '-v: one line per HTTP request on stderr; -vv: also headers and bodies (secrets redacted)')
            [CompletionResult]::new('--verbose', '--verbose', [CompletionResultType]::ParameterName, '-v: one line per HTTP request on stderr; -vv: also headers and bodies (secrets redacted)')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'No spinner, notes or warnings')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'No spinner, notes or warnings')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'ylemctl;last-run' {
            [CompletionResult]::new('--decrypt-key-file', '--decrypt-key-file', [CompletionResultType]::ParameterName, 'Key file (32 bytes, hex or Base64) that opens encrypted task outputs, to say why a run failed (also YLEM_DECRYPT_KEY_FILE, or the profile''s decrypt_key_file)')
            [CompletionResult]::new('-p', '-p', [CompletionResultType]::ParameterName, 'Profile to use')
            [CompletionResult]::new('--profile', '--profile', [CompletionResultType]::ParameterName, 'Profile to use')
            [CompletionResult]::new('--base-url', '--base-url', [CompletionResultType]::ParameterName, 'Base URL of the service (a profile''s credentials go only to its own)')
            [CompletionResult]::new('-o', '-o', [CompletionResultType]::ParameterName, 'Output format (prometheus: stats, last-run, status and check; junit: run pipeline --wait and runs --run)')
            [CompletionResult]::new('--output', '--output', [CompletionResultType]::ParameterName, 'Output format (prometheus: stats, last-run, status and check; junit: run pipeline --wait and runs --run)')
            [CompletionResult]::new('--jq', '--jq', [CompletionResultType]::ParameterName, 'Filter the JSON output with a jq expression, as gh --jq: strings raw (escaped on a terminal; off it a string may span lines: use tojson for one a line), other values compact, one a line; each row of logs, runs and -o jsonl on its own (implies -o json; exit 2 for a bad expression, before any request)')
            [CompletionResult]::new('--fields', '--fields', [CompletionResultType]::ParameterName, 'Columns or keys to keep, in this order (comma-separated); a table never leaves them out to fit the terminal')
            [CompletionResult]::new('--output-file', '--output-file', [CompletionResultType]::ParameterName, 'With -o prometheus: write the exposition to PATH atomically (a temporary file in the same directory, then renamed), for node_exporter''s textfile collector')
            [CompletionResult]::new('--connect-timeout', '--connect-timeout', [CompletionResultType]::ParameterName, 'Longest time to connect (TCP and TLS) [default: 10s]')
            [CompletionResult]::new('--timeout', '--timeout', [CompletionResultType]::ParameterName, 'Longest wait for the server with no progress: the first byte, any stall between bytes; a body that keeps arriving is never cut [default: 60s]')
            [CompletionResult]::new('--max-time', '--max-time', [CompletionResultType]::ParameterName, 'Longest time for the whole command, retries and waits included (off by default; `check` defaults to 50s, inside a monitoring plugin''s 60 s)')
            [CompletionResult]::new('--settle', '--settle', [CompletionResultType]::ParameterName, 'The settle time of every command that judges a run (run --wait, runs, last-run, check, status, watch, metrics serve, logs -f --run): a pipeline run without a known task set has finished when no new task reported for this long, a workflow''s success counts after it (also YLEM_SETTLE, or the profile''s settle) [default: a pipeline''s 3x the longest gap between two tasks of its past runs, at least 10s, 10m without history; a workflow''s 10m]')
            [CompletionResult]::new('--retries', '--retries', [CompletionResultType]::ParameterName, 'Retries of idempotent requests (GET, token); a run start is never retried [default: 2]')
            [CompletionResult]::new('--concurrency', '--concurrency', [CompletionResultType]::ParameterName, 'Requests in flight at once when several IDs are given [default: 8]')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'When to use colour (NO_COLOR turns it off even with always; CLICOLOR_FORCE on in auto)')
            [CompletionResult]::new('--fail-on-failure', '--fail-on-failure', [CompletionResultType]::ParameterName, 'Exit 7 when a last run failed, 8 when it has not finished (for `cron && ...` chains)')
            [CompletionResult]::new('--running-ok', '--running-ok', [CompletionResultType]::ParameterName, 'With --fail-on-failure: a last run not finished yet exits 0 with a note instead of 8, so a cron job landing mid-run raises no alert (the run is judged at the next one); a failed run still exits 7')
            [CompletionResult]::new('--no-header', '--no-header', [CompletionResultType]::ParameterName, 'No header row (table, csv)')
            [CompletionResult]::new('--csv-raw', '--csv-raw', [CompletionResultType]::ParameterName, 'With -o csv: text cells as sent (by default one starting with = + - @, tab or CR gets a '' in front, so a spreadsheet does not run it as a formula, and control characters are escaped as in tables)')
            [CompletionResult]::new('--local', '--local', [CompletionResultType]::ParameterName, 'Read naive times and show times in the local time zone (also YLEM_TZ=local)')
            [CompletionResult]::new('-v', '-v', [CompletionResultType]::ParameterName, '-v: one line per HTTP request on stderr; -vv: also headers and bodies (secrets redacted)')
            [CompletionResult]::new('--verbose', '--verbose', [CompletionResultType]::ParameterName, '-v: one line per HTTP request on stderr; -vv: also headers and bodies (secrets redacted)')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'No spinner, notes or warnings')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'No spinner, notes or warnings')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'ylemctl;check' {
            [CompletionResult]::new('--max-age', '--max-age', [CompletionResultType]::ParameterName, 'Stale when the last run is older: CRIT or WARN,CRIT, e.g. 25h,49h')
            [CompletionResult]::new('--max-failure-rate', '--max-failure-rate', [CompletionResultType]::ParameterName, 'Failed share of runs in --window, in percent: CRIT or WARN,CRIT, e.g. 10,25')
            [CompletionResult]::new('--window', '--window', [CompletionResultType]::ParameterName, 'Window of --max-failure-rate (at least 1s)')
            [CompletionResult]::new('--max-duration', '--max-duration', [CompletionResultType]::ParameterName, 'Longest acceptable last run: CRIT or WARN,CRIT, e.g. 5m,15m')
            [CompletionResult]::new('--decrypt-key-file', '--decrypt-key-file', [CompletionResultType]::ParameterName, 'Key file (32 bytes, hex or Base64) that opens encrypted task outputs, to say why a run failed (also YLEM_DECRYPT_KEY_FILE, or the profile''s decrypt_key_file)')
            [CompletionResult]::new('--fields', '--fields', [CompletionResultType]::ParameterName, 'Columns or keys to keep, in this order (comma-separated); a table never leaves them out to fit the terminal')
            [CompletionResult]::new('--concurrency', '--concurrency', [CompletionResultType]::ParameterName, 'Requests in flight at once when several IDs are given [default: 8]')
            [CompletionResult]::new('--jq', '--jq', [CompletionResultType]::ParameterName, 'Filter the JSON output with a jq expression, as gh --jq: strings raw (escaped on a terminal; off it a string may span lines: use tojson for one a line), other values compact, one a line; each row of logs, runs and -o jsonl on its own (implies -o json; exit 2 for a bad expression, before any request)')
            [CompletionResult]::new('-o', '-o', [CompletionResultType]::ParameterName, 'Output: table (the plugin''s status line, the default), json ({state, message, perfdata}) or prometheus')
            [CompletionResult]::new('--output', '--output', [CompletionResultType]::ParameterName, 'Output: table (the plugin''s status line, the default), json ({state, message, perfdata}) or prometheus')
            [CompletionResult]::new('-p', '-p', [CompletionResultType]::ParameterName, 'Profile to use')
            [CompletionResult]::new('--profile', '--profile', [CompletionResultType]::ParameterName, 'Profile to use')
            [CompletionResult]::new('--base-url', '--base-url', [CompletionResultType]::ParameterName, 'Base URL of the service (a profile''s credentials go only to its own)')
            [CompletionResult]::new('--output-file', '--output-file', [CompletionResultType]::ParameterName, 'With -o prometheus: write the exposition to PATH atomically (a temporary file in the same directory, then renamed), for node_exporter''s textfile collector')
            [CompletionResult]::new('--connect-timeout', '--connect-timeout', [CompletionResultType]::ParameterName, 'Longest time to connect (TCP and TLS) [default: 10s]')
            [CompletionResult]::new('--timeout', '--timeout', [CompletionResultType]::ParameterName, 'Longest wait for the server with no progress: the first byte, any stall between bytes; a body that keeps arriving is never cut [default: 60s]')
            [CompletionResult]::new('--max-time', '--max-time', [CompletionResultType]::ParameterName, 'Longest time for the whole command, retries and waits included (off by default; `check` defaults to 50s, inside a monitoring plugin''s 60 s)')
            [CompletionResult]::new('--settle', '--settle', [CompletionResultType]::ParameterName, 'The settle time of every command that judges a run (run --wait, runs, last-run, check, status, watch, metrics serve, logs -f --run): a pipeline run without a known task set has finished when no new task reported for this long, a workflow''s success counts after it (also YLEM_SETTLE, or the profile''s settle) [default: a pipeline''s 3x the longest gap between two tasks of its past runs, at least 10s, 10m without history; a workflow''s 10m]')
            [CompletionResult]::new('--retries', '--retries', [CompletionResultType]::ParameterName, 'Retries of idempotent requests (GET, token); a run start is never retried [default: 2]')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'When to use colour (NO_COLOR turns it off even with always; CLICOLOR_FORCE on in auto)')
            [CompletionResult]::new('--no-header', '--no-header', [CompletionResultType]::ParameterName, 'No header row (table, csv)')
            [CompletionResult]::new('--csv-raw', '--csv-raw', [CompletionResultType]::ParameterName, 'With -o csv: text cells as sent (by default one starting with = + - @, tab or CR gets a '' in front, so a spreadsheet does not run it as a formula, and control characters are escaped as in tables)')
            [CompletionResult]::new('--local', '--local', [CompletionResultType]::ParameterName, 'Read naive times and show times in the local time zone (also YLEM_TZ=local)')
            [CompletionResult]::new('-v', '-v', [CompletionResultType]::ParameterName, '-v: one line per HTTP request on stderr; -vv: also headers and bodies (secrets redacted)')
            [CompletionResult]::new('--verbose', '--verbose', [CompletionResultType]::ParameterName, '-v: one line per HTTP request on stderr; -vv: also headers and bodies (secrets redacted)')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'No spinner, notes or warnings')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'No spinner, notes or warnings')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'ylemctl;status' {
            [CompletionResult]::new('-p', '-p', [CompletionResultType]::ParameterName, 'Profile to use')
            [CompletionResult]::new('--profile', '--profile', [CompletionResultType]::ParameterName, 'Profile to use')
            [CompletionResult]::new('--base-url', '--base-url', [CompletionResultType]::ParameterName, 'Base URL of the service (a profile''s credentials go only to its own)')
            [CompletionResult]::new('-o', '-o', [CompletionResultType]::ParameterName, 'Output format (prometheus: stats, last-run, status and check; junit: run pipeline --wait and runs --run)')
            [CompletionResult]::new('--output', '--output', [CompletionResultType]::ParameterName, 'Output format (prometheus: stats, last-run, status and check; junit: run pipeline --wait and runs --run)')
            [CompletionResult]::new('--jq', '--jq', [CompletionResultType]::ParameterName, 'Filter the JSON output with a jq expression, as gh --jq: strings raw (escaped on a terminal; off it a string may span lines: use tojson for one a line), other values compact, one a line; each row of logs, runs and -o jsonl on its own (implies -o json; exit 2 for a bad expression, before any request)')
            [CompletionResult]::new('--fields', '--fields', [CompletionResultType]::ParameterName, 'Columns or keys to keep, in this order (comma-separated); a table never leaves them out to fit the terminal')
            [CompletionResult]::new('--output-file', '--output-file', [CompletionResultType]::ParameterName, 'With -o prometheus: write the exposition to PATH atomically (a temporary file in the same directory, then renamed), for node_exporter''s textfile collector')
            [CompletionResult]::new('--connect-timeout', '--connect-timeout', [CompletionResultType]::ParameterName, 'Longest time to connect (TCP and TLS) [default: 10s]')
            [CompletionResult]::new('--timeout', '--timeout', [CompletionResultType]::ParameterName, 'Longest wait for the server with no progress: the first byte, any stall between bytes; a body that keeps arriving is never cut [default: 60s]')
            [CompletionResult]::new('--max-time', '--max-time', [CompletionResultType]::ParameterName, 'Longest time for the whole command, retries and waits included (off by default; `check` defaults to 50s, inside a monitoring plugin''s 60 s)')
            [CompletionResult]::new('--settle', '--settle', [CompletionResultType]::ParameterName, 'The settle time of every command that judges a run (run --wait, runs, last-run, check, status, watch, metrics serve, logs -f --run): a pipeline run without a known task set has finished when no new task reported for this long, a workflow''s success counts after it (also YLEM_SETTLE, or the profile''s settle) [default: a pipeline''s 3x the longest gap between two tasks of its past runs, at least 10s, 10m without history; a workflow''s 10m]')
            [CompletionResult]::new('--retries', '--retries', [CompletionResultType]::ParameterName, 'Retries of idempotent requests (GET, token); a run start is never retried [default: 2]')
            [CompletionResult]::new('--concurrency', '--concurrency', [CompletionResultType]::ParameterName, 'Requests in flight at once when several IDs are given [default: 8]')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'When to use colour (NO_COLOR turns it off even with always; CLICOLOR_FORCE on in auto)')
            [CompletionResult]::new('--no-header', '--no-header', [CompletionResultType]::ParameterName, 'No header row (table, csv)')
            [CompletionResult]::new('--csv-raw', '--csv-raw', [CompletionResultType]::ParameterName, 'With -o csv: text cells as sent (by default one starting with = + - @, tab or CR gets a '' in front, so a spreadsheet does not run it as a formula, and control characters are escaped as in tables)')
            [CompletionResult]::new('--local', '--local', [CompletionResultType]::ParameterName, 'Read naive times and show times in the local time zone (also YLEM_TZ=local)')
            [CompletionResult]::new('-v', '-v', [CompletionResultType]::ParameterName, '-v: one line per HTTP request on stderr; -vv: also headers and bodies (secrets redacted)')
            [CompletionResult]::new('--verbose', '--verbose', [CompletionResultType]::ParameterName, '-v: one line per HTTP request on stderr; -vv: also headers and bodies (secrets redacted)')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'No spinner, notes or warnings')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'No spinner, notes or warnings')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'ylemctl;doctor' {
            [CompletionResult]::new('--fields', '--fields', [CompletionResultType]::ParameterName, 'Columns or keys to keep, in this order (comma-separated); a table never leaves them out to fit the terminal')
            [CompletionResult]::new('--concurrency', '--concurrency', [CompletionResultType]::ParameterName, 'Requests in flight at once when several IDs are given [default: 8]')
            [CompletionResult]::new('-p', '-p', [CompletionResultType]::ParameterName, 'Profile to use')
            [CompletionResult]::new('--profile', '--profile', [CompletionResultType]::ParameterName, 'Profile to use')
            [CompletionResult]::new('--base-url', '--base-url', [CompletionResultType]::ParameterName, 'Base URL of the service (a profile''s credentials go only to its own)')
            [CompletionResult]::new('-o', '-o', [CompletionResultType]::ParameterName, 'Output format (prometheus: stats, last-run, status and check; junit: run pipeline --wait and runs --run)')
            [CompletionResult]::new('--output', '--output', [CompletionResultType]::ParameterName, 'Output format (prometheus: stats, last-run, status and check; junit: run pipeline --wait and runs --run)')
            [CompletionResult]::new('--jq', '--jq', [CompletionResultType]::ParameterName, 'Filter the JSON output with a jq expression, as gh --jq: strings raw (escaped on a terminal; off it a string may span lines: use tojson for one a line), other values compact, one a line; each row of logs, runs and -o jsonl on its own (implies -o json; exit 2 for a bad expression, before any request)')
            [CompletionResult]::new('--output-file', '--output-file', [CompletionResultType]::ParameterName, 'With -o prometheus: write the exposition to PATH atomically (a temporary file in the same directory, then renamed), for node_exporter''s textfile collector')
            [CompletionResult]::new('--connect-timeout', '--connect-timeout', [CompletionResultType]::ParameterName, 'Longest time to connect (TCP and TLS) [default: 10s]')
            [CompletionResult]::new('--timeout', '--timeout', [CompletionResultType]::ParameterName, 'Longest wait for the server with no progress: the first byte, any stall between bytes; a body that keeps arriving is never cut [default: 60s]')
            [CompletionResult]::new('--max-time', '--max-time', [CompletionResultType]::ParameterName, 'Longest time for the whole command, retries and waits included (off by default; `check` defaults to 50s, inside a monitoring plugin''s 60 s)')
            [CompletionResult]::new('--settle', '--settle', [CompletionResultType]::ParameterName, 'The settle time of every command that judges a run (run --wait, runs, last-run, check, status, watch, metrics serve, logs -f --run): a pipeline run without a known task set has finished when no new task reported for this long, a workflow''s success counts after it (also YLEM_SETTLE, or the profile''s settle) [default: a pipeline''s 3x the longest gap between two tasks of its past runs, at least 10s, 10m without history; a workflow''s 10m]')
            [CompletionResult]::new('--retries', '--retries', [CompletionResultType]::ParameterName, 'Retries of idempotent requests (GET, token); a run start is never retried [default: 2]')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'When to use colour (NO_COLOR turns it off even with always; CLICOLOR_FORCE on in auto)')
            [CompletionResult]::new('--no-header', '--no-header', [CompletionResultType]::ParameterName, 'No header row (table, csv)')
            [CompletionResult]::new('--csv-raw', '--csv-raw', [CompletionResultType]::ParameterName, 'With -o csv: text cells as sent (by default one starting with = + - @, tab or CR gets a '' in front, so a spreadsheet does not run it as a formula, and control characters are escaped as in tables)')
            [CompletionResult]::new('--local', '--local', [CompletionResultType]::ParameterName, 'Read naive times and show times in the local time zone (also YLEM_TZ=local)')
            [CompletionResult]::new('-v', '-v', [CompletionResultType]::ParameterName, '-v: one line per HTTP request on stderr; -vv: also headers and bodies (secrets redacted)')
            [CompletionResult]::new('--verbose', '--verbose', [CompletionResultType]::ParameterName, '-v: one line per HTTP request on stderr; -vv: also headers and bodies (secrets redacted)')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'No spinner, notes or warnings')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'No spinner, notes or warnings')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'ylemctl;watch' {
            [CompletionResult]::new('--interval', '--interval', [CompletionResultType]::ParameterName, 'How often each entity is looked at')
            [CompletionResult]::new('--since', '--since', [CompletionResultType]::ParameterName, 'Replay first the runs that ended within D (default: none, only what happens from now)')
            [CompletionResult]::new('--decrypt-key-file', '--decrypt-key-file', [CompletionResultType]::ParameterName, 'Key file (32 bytes, hex or Base64) that opens encrypted task outputs, to say why a run failed (also YLEM_DECRYPT_KEY_FILE, or the profile''s decrypt_key_file)')
            [CompletionResult]::new('-p', '-p', [CompletionResultType]::ParameterName, 'Profile to use')
            [CompletionResult]::new('--profile', '--profile', [CompletionResultType]::ParameterName, 'Profile to use')
            [CompletionResult]::new('--base-url', '--base-url', [CompletionResultType]::ParameterName, 'Base URL of the service (a profile''s credentials go only to its own)')
            [CompletionResult]::new('-o', '-o', [CompletionResultType]::ParameterName, 'Output format (prometheus: stats, last-run, status and check; junit: run pipeline --wait and runs --run)')
            [CompletionResult]::new('--output', '--output', [CompletionResultType]::ParameterName, 'Output format (prometheus: stats, last-run, status and check; junit: run pipeline --wait and runs --run)')
            [CompletionResult]::new('--jq', '--jq', [CompletionResultType]::ParameterName, 'Filter the JSON output with a jq expression, as gh --jq: strings raw (escaped on a terminal; off it a string may span lines: use tojson for one a line), other values compact, one a line; each row of logs, runs and -o jsonl on its own (implies -o json; exit 2 for a bad expression, before any request)')
            [CompletionResult]::new('--fields', '--fields', [CompletionResultType]::ParameterName, 'Columns or keys to keep, in this order (comma-separated); a table never leaves them out to fit the terminal')
            [CompletionResult]::new('--output-file', '--output-file', [CompletionResultType]::ParameterName, 'With -o prometheus: write the exposition to PATH atomically (a temporary file in the same directory, then renamed), for node_exporter''s textfile collector')
            [CompletionResult]::new('--connect-timeout', '--connect-timeout', [CompletionResultType]::ParameterName, 'Longest time to connect (TCP and TLS) [default: 10s]')
            [CompletionResult]::new('--timeout', '--timeout', [CompletionResultType]::ParameterName, 'Longest wait for the server with no progress: the first byte, any stall between bytes; a body that keeps arriving is never cut [default: 60s]')
            [CompletionResult]::new('--max-time', '--max-time', [CompletionResultType]::ParameterName, 'Longest time for the whole command, retries and waits included (off by default; `check` defaults to 50s, inside a monitoring plugin''s 60 s)')
            [CompletionResult]::new('--settle', '--settle', [CompletionResultType]::ParameterName, 'The settle time of every command that judges a run (run --wait, runs, last-run, check, status, watch, metrics serve, logs -f --run): a pipeline run without a known task set has finished when no new task reported for this long, a workflow''s success counts after it (also YLEM_SETTLE, or the profile''s settle) [default: a pipeline''s 3x the longest gap between two tasks of its past runs, at least 10s, 10m without history; a workflow''s 10m]')
            [CompletionResult]::new('--retries', '--retries', [CompletionResultType]::ParameterName, 'Retries of idempotent requests (GET, token); a run start is never retried [default: 2]')
            [CompletionResult]::new('--concurrency', '--concurrency', [CompletionResultType]::ParameterName, 'Requests in flight at once when several IDs are given [default: 8]')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'When to use colour (NO_COLOR turns it off even with always; CLICOLOR_FORCE on in auto)')
            [CompletionResult]::new('--no-header', '--no-header', [CompletionResultType]::ParameterName, 'No header row (table, csv)')
            [CompletionResult]::new('--csv-raw', '--csv-raw', [CompletionResultType]::ParameterName, 'With -o csv: text cells as sent (by default one starting with = + - @, tab or CR gets a '' in front, so a spreadsheet does not run it as a formula, and control characters are escaped as in tables)')
            [CompletionResult]::new('--local', '--local', [CompletionResultType]::ParameterName, 'Read naive times and show times in the local time zone (also YLEM_TZ=local)')
            [CompletionResult]::new('-v', '-v', [CompletionResultType]::ParameterName, '-v: one line per HTTP request on stderr; -vv: also headers and bodies (secrets redacted)')
            [CompletionResult]::new('--verbose', '--verbose', [CompletionResultType]::ParameterName, '-v: one line per HTTP request on stderr; -vv: also headers and bodies (secrets redacted)')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'No spinner, notes or warnings')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'No spinner, notes or warnings')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'ylemctl;metrics' {
            [CompletionResult]::new('-p', '-p', [CompletionResultType]::ParameterName, 'Profile to use')
            [CompletionResult]::new('--profile', '--profile', [CompletionResultType]::ParameterName, 'Profile to use')
            [CompletionResult]::new('--base-url', '--base-url', [CompletionResultType]::ParameterName, 'Base URL of the service (a profile''s credentials go only to its own)')
            [CompletionResult]::new('-o', '-o', [CompletionResultType]::ParameterName, 'Output format (prometheus: stats, last-run, status and check; junit: run pipeline --wait and runs --run)')
            [CompletionResult]::new('--output', '--output', [CompletionResultType]::ParameterName, 'Output format (prometheus: stats, last-run, status and check; junit: run pipeline --wait and runs --run)')
            [CompletionResult]::new('--jq', '--jq', [CompletionResultType]::ParameterName, 'Filter the JSON output with a jq expression, as gh --jq: strings raw (escaped on a terminal; off it a string may span lines: use tojson for one a line), other values compact, one a line; each row of logs, runs and -o jsonl on its own (implies -o json; exit 2 for a bad expression, before any request)')
            [CompletionResult]::new('--fields', '--fields', [CompletionResultType]::ParameterName, 'Columns or keys to keep, in this order (comma-separated); a table never leaves them out to fit the terminal')
            [CompletionResult]::new('--output-file', '--output-file', [CompletionResultType]::ParameterName, 'With -o prometheus: write the exposition to PATH atomically (a temporary file in the same directory, then renamed), for node_exporter''s textfile collector')
            [CompletionResult]::new('--connect-timeout', '--connect-timeout', [CompletionResultType]::ParameterName, 'Longest time to connect (TCP and TLS) [default: 10s]')
            [CompletionResult]::new('--timeout', '--timeout', [CompletionResultType]::ParameterName, 'Longest wait for the server with no progress: the first byte, any stall between bytes; a body that keeps arriving is never cut [default: 60s]')
            [CompletionResult]::new('--max-time', '--max-time', [CompletionResultType]::ParameterName, 'Longest time for the whole command, retries and waits included (off by default; `check` defaults to 50s, inside a monitoring plugin''s 60 s)')
            [CompletionResult]::new('--settle', '--settle', [CompletionResultType]::ParameterName, 'The settle time of every command that judges a run (run --wait, runs, last-run, check, status, watch, metrics serve, logs -f --run): a pipeline run without a known task set has finished when no new task reported for this long, a workflow''s success counts after it (also YLEM_SETTLE, or the profile''s settle) [default: a pipeline''s 3x the longest gap between two tasks of its past runs, at least 10s, 10m without history; a workflow''s 10m]')
            [CompletionResult]::new('--retries', '--retries', [CompletionResultType]::ParameterName, 'Retries of idempotent requests (GET, token); a run start is never retried [default: 2]')
            [CompletionResult]::new('--concurrency', '--concurrency', [CompletionResultType]::ParameterName, 'Requests in flight at once when several IDs are given [default: 8]')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'When to use colour (NO_COLOR turns it off even with always; CLICOLOR_FORCE on in auto)')
            [CompletionResult]::new('--no-header', '--no-header', [CompletionResultType]::ParameterName, 'No header row (table, csv)')
            [CompletionResult]::new('--csv-raw', '--csv-raw', [CompletionResultType]::ParameterName, 'With -o csv: text cells as sent (by default one starting with = + - @, tab or CR gets a '' in front, so a spreadsheet does not run it as a formula, and control characters are escaped as in tables)')
            [CompletionResult]::new('--local', '--local', [CompletionResultType]::ParameterName, 'Read naive times and show times in the local time zone (also YLEM_TZ=local)')
            [CompletionResult]::new('-v', '-v', [CompletionResultType]::ParameterName, '-v: one line per HTTP request on stderr; -vv: also headers and bodies (secrets redacted)')
            [CompletionResult]::new('--verbose', '--verbose', [CompletionResultType]::ParameterName, '-v: one line per HTTP request on stderr; -vv: also headers and bodies (secrets redacted)')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'No spinner, notes or warnings')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'No spinner, notes or warnings')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('serve', 'serve', [CompletionResultType]::ParameterValue, 'Serve /metrics (Prometheus text format) and / until Ctrl-C or SIGTERM, fetching on scrape')
            [CompletionResult]::new('help', 'help', [CompletionResultType]::ParameterValue, 'Print this message or the help of the given subcommand(s)')
            break
        }
        'ylemctl;metrics;serve' {
            [CompletionResult]::new('--listen', '--listen', [CompletionResultType]::ParameterName, 'Address to listen on, HOST:PORT (a host name is resolved, e.g. localhost:9339); a non-loopback one needs --allow-remote')
            [CompletionResult]::new('--cache', '--cache', [CompletionResultType]::ParameterName, 'Serve the same figures for this long before asking the service again')
            [CompletionResult]::new('--scrape-timeout', '--scrape-timeout', [CompletionResultType]::ParameterName, 'Answer every scrape within this long: an ID not answered by then is ylem_up 0 for that scrape (Prometheus'' own scrape timeout, less 0.5s, when that is shorter)')
            [CompletionResult]::new('--web-config-file', '--web-config-file', [CompletionResultType]::ParameterName, 'TLS and basic auth, in the Prometheus exporter-toolkit''s web configuration format (checked at start; read again when it changes)')
            [CompletionResult]::new('-p', '-p', [CompletionResultType]::ParameterName, 'Profile to use')
            [CompletionResult]::new('--profile', '--profile', [CompletionResultType]::ParameterName, 'Profile to use')
            [CompletionResult]::new('--base-url', '--base-url', [CompletionResultType]::ParameterName, 'Base URL of the service (a profile''s credentials go only to its own)')
            [CompletionResult]::new('-o', '-o', [CompletionResultType]::ParameterName, 'Output format (prometheus: stats, last-run, status and check; junit: run pipeline --wait and runs --run)')
            [CompletionResult]::new('--output', '--output', [CompletionResultType]::ParameterName, 'Output format (prometheus: stats, last-run, status and check; junit: run pipeline --wait and runs --run)')
            [CompletionResult]::new('--jq', '--jq', [CompletionResultType]::ParameterName, 'Filter the JSON output with a jq expression, as gh --jq: strings raw (escaped on a terminal; off it a string may span lines: use tojson for one a line), other values compact, one a line; each row of logs, runs and -o jsonl on its own (implies -o json; exit 2 for a bad expression, before any request)')
            [CompletionResult]::new('--fields', '--fields', [CompletionResultType]::ParameterName, 'Columns or keys to keep, in this order (comma-separated); a table never leaves them out to fit the terminal')
            [CompletionResult]::new('--output-file', '--output-file', [CompletionResultType]::ParameterName, 'With -o prometheus: write the exposition to PATH atomically (a temporary file in the same directory, then renamed), for node_exporter''s textfile collector')
            [CompletionResult]::new('--connect-timeout', '--connect-timeout', [CompletionResultType]::ParameterName, 'Longest time to connect (TCP and TLS) [default: 10s]')
            [CompletionResult]::new('--timeout', '--timeout', [CompletionResultType]::ParameterName, 'Longest wait for the server with no progress: the first byte, any stall between bytes; a body that keeps arriving is never cut [default: 60s]')
            [CompletionResult]::new('--max-time', '--max-time', [CompletionResultType]::ParameterName, 'Longest time for the whole command, retries and waits included (off by default; `check` defaults to 50s, inside a monitoring plugin''s 60 s)')
            [CompletionResult]::new('--settle', '--settle', [CompletionResultType]::ParameterName, 'The settle time of every command that judges a run (run --wait, runs, last-run, check, status, watch, metrics serve, logs -f --run): a pipeline run without a known task set has finished when no new task reported for this long, a workflow''s success counts after it (also YLEM_SETTLE, or the profile''s settle) [default: a pipeline''s 3x the longest gap between two tasks of its past runs, at least 10s, 10m without history; a workflow''s 10m]')
            [CompletionResult]::new('--retries', '--retries', [CompletionResultType]::ParameterName, 'Retries of idempotent requests (GET, token); a run start is never retried [default: 2]')
            [CompletionResult]::new('--concurrency', '--concurrency', [CompletionResultType]::ParameterName, 'Requests in flight at once when several IDs are given [default: 8]')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'When to use colour (NO_COLOR turns it off even with always; CLICOLOR_FORCE on in auto)')
            [CompletionResult]::new('--allow-remote', '--allow-remote', [CompletionResultType]::ParameterName, 'Listen on a non-loopback address (anyone who reaches it sees the metrics)')
            [CompletionResult]::new('--no-header', '--no-header', [CompletionResultType]::ParameterName, 'No header row (table, csv)')
            [CompletionResult]::new('--csv-raw', '--csv-raw', [CompletionResultType]::ParameterName, 'With -o csv: text cells as sent (by default one starting with = + - @, tab or CR gets a '' in front, so a spreadsheet does not run it as a formula, and control characters are escaped as in tables)')
            [CompletionResult]::new('--local', '--local', [CompletionResultType]::ParameterName, 'Read naive times and show times in the local time zone (also YLEM_TZ=local)')
            [CompletionResult]::new('-v', '-v', [CompletionResultType]::ParameterName, '-v: one line per HTTP request on stderr; -vv: also headers and bodies (secrets redacted)')
            [CompletionResult]::new('--verbose', '--verbose', [CompletionResultType]::ParameterName, '-v: one line per HTTP request on stderr; -vv: also headers and bodies (secrets redacted)')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'No spinner, notes or warnings')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'No spinner, notes or warnings')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'ylemctl;metrics;help' {
            [CompletionResult]::new('serve', 'serve', [CompletionResultType]::ParameterValue, 'Serve /metrics (Prometheus text format) and / until Ctrl-C or SIGTERM, fetching on scrape')
            [CompletionResult]::new('help', 'help', [CompletionResultType]::ParameterValue, 'Print this message or the help of the given subcommand(s)')
            break
        }
        'ylemctl;metrics;help;serve' {
            break
        }
        'ylemctl;metrics;help;help' {
            break
        }
        'ylemctl;export' {
            [CompletionResult]::new('-p', '-p', [CompletionResultType]::ParameterName, 'Profile to use')
            [CompletionResult]::new('--profile', '--profile', [CompletionResultType]::ParameterName, 'Profile to use')
            [CompletionResult]::new('--base-url', '--base-url', [CompletionResultType]::ParameterName, 'Base URL of the service (a profile''s credentials go only to its own)')
            [CompletionResult]::new('-o', '-o', [CompletionResultType]::ParameterName, 'Output format (prometheus: stats, last-run, status and check; junit: run pipeline --wait and runs --run)')
            [CompletionResult]::new('--output', '--output', [CompletionResultType]::ParameterName, 'Output format (prometheus: stats, last-run, status and check; junit: run pipeline --wait and runs --run)')
            [CompletionResult]::new('--jq', '--jq', [CompletionResultType]::ParameterName, 'Filter the JSON output with a jq expression, as gh --jq: strings raw (escaped on a terminal; off it a string may span lines: use tojson for one a line), other values compact, one a line; each row of logs, runs and -o jsonl on its own (implies -o json; exit 2 for a bad expression, before any request)')
            [CompletionResult]::new('--fields', '--fields', [CompletionResultType]::ParameterName, 'Columns or keys to keep, in this order (comma-separated); a table never leaves them out to fit the terminal')
            [CompletionResult]::new('--output-file', '--output-file', [CompletionResultType]::ParameterName, 'With -o prometheus: write the exposition to PATH atomically (a temporary file in the same directory, then renamed), for node_exporter''s textfile collector')
            [CompletionResult]::new('--connect-timeout', '--connect-timeout', [CompletionResultType]::ParameterName, 'Longest time to connect (TCP and TLS) [default: 10s]')
            [CompletionResult]::new('--timeout', '--timeout', [CompletionResultType]::ParameterName, 'Longest wait for the server with no progress: the first byte, any stall between bytes; a body that keeps arriving is never cut [default: 60s]')
            [CompletionResult]::new('--max-time', '--max-time', [CompletionResultType]::ParameterName, 'Longest time for the whole command, retries and waits included (off by default; `check` defaults to 50s, inside a monitoring plugin''s 60 s)')
            [CompletionResult]::new('--settle', '--settle', [CompletionResultType]::ParameterName, 'The settle time of every command that judges a run (run --wait, runs, last-run, check, status, watch, metrics serve, logs -f --run): a pipeline run without a known task set has finished when no new task reported for this long, a workflow''s success counts after it (also YLEM_SETTLE, or the profile''s settle) [default: a pipeline''s 3x the longest gap between two tasks of its past runs, at least 10s, 10m without history; a workflow''s 10m]')
            [CompletionResult]::new('--retries', '--retries', [CompletionResultType]::ParameterName, 'Retries of idempotent requests (GET, token); a run start is never retried [default: 2]')
            [CompletionResult]::new('--concurrency', '--concurrency', [CompletionResultType]::ParameterName, 'Requests in flight at once when several IDs are given [default: 8]')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'When to use colour (NO_COLOR turns it off even with always; CLICOLOR_FORCE on in auto)')
            [CompletionResult]::new('--no-header', '--no-header', [CompletionResultType]::ParameterName, 'No header row (table, csv)')
            [CompletionResult]::new('--csv-raw', '--csv-raw', [CompletionResultType]::ParameterName, 'With -o csv: text cells as sent (by default one starting with = + - @, tab or CR gets a '' in front, so a spreadsheet does not run it as a formula, and control characters are escaped as in tables)')
            [CompletionResult]::new('--local', '--local', [CompletionResultType]::ParameterName, 'Read naive times and show times in the local time zone (also YLEM_TZ=local)')
            [CompletionResult]::new('-v', '-v', [CompletionResultType]::ParameterName, '-v: one line per HTTP request on stderr; -vv: also headers and bodies (secrets redacted)')
            [CompletionResult]::new('--verbose', '--verbose', [CompletionResultType]::ParameterName, '-v: one line per HTTP request on stderr; -vv: also headers and bodies (secrets redacted)')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'No spinner, notes or warnings')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'No spinner, notes or warnings')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('otlp', 'otlp', [CompletionResultType]::ParameterValue, 'Each finished pipeline run as one OpenTelemetry trace, by OTLP/HTTP (or OTLP JSON lines on stdout)')
            [CompletionResult]::new('openlineage', 'openlineage', [CompletionResultType]::ParameterValue, 'Each finished pipeline run as an OpenLineage START and COMPLETE or FAIL event (POSTed, or JSON lines on stdout)')
            [CompletionResult]::new('help', 'help', [CompletionResultType]::ParameterValue, 'Print this message or the help of the given subcommand(s)')
            break
        }
        'ylemctl;export;otlp' {
            [CompletionResult]::new('--from', '--from', [CompletionResultType]::ParameterName, 'Start: YYYY-MM-DD[ HH:MM:SS], ISO 8601, now, today, yesterday, or an age such as 7d')
            [CompletionResult]::new('--to', '--to', [CompletionResultType]::ParameterName, 'End (inclusive; a bare date means the end of that day)')
            [CompletionResult]::new('--since', '--since', [CompletionResultType]::ParameterName, 'Start of a window that ends now, e.g. 90m, 24h, 7d, 2w, or a TIME')
            [CompletionResult]::new('--poll', '--poll', [CompletionResultType]::ParameterName, 'With --follow: how often to look for runs that finished')
            [CompletionResult]::new('--decrypt-key-file', '--decrypt-key-file', [CompletionResultType]::ParameterName, 'Key file (32 bytes, hex or Base64) that opens encrypted task outputs, to say why a run failed (also YLEM_DECRYPT_KEY_FILE, or the profile''s decrypt_key_file)')
            [CompletionResult]::new('--endpoint', '--endpoint', [CompletionResultType]::ParameterName, 'The OTLP/HTTP receiver: a base URL (/v1/traces is appended, as for OTEL_EXPORTER_OTLP_ENDPOINT) or the traces URL itself; without one (nor the variables), OTLP JSON lines on stdout')
            [CompletionResult]::new('--protocol', '--protocol', [CompletionResultType]::ParameterName, 'How the traces are encoded (default: OTEL_EXPORTER_OTLP_PROTOCOL, else http/protobuf)')
            [CompletionResult]::new('-p', '-p', [CompletionResultType]::ParameterName, 'Profile to use')
            [CompletionResult]::new('--profile', '--profile', [CompletionResultType]::ParameterName, 'Profile to use')
            [CompletionResult]::new('--base-url', '--base-url', [CompletionResultType]::ParameterName, 'Base URL of the service (a profile''s credentials go only to its own)')
            [CompletionResult]::new('-o', '-o', [CompletionResultType]::ParameterName, 'Output format (prometheus: stats, last-run, status and check; junit: run pipeline --wait and runs --run)')
            [CompletionResult]::new('--output', '--output', [CompletionResultType]::ParameterName, 'Output format (prometheus: stats, last-run, status and check; junit: run pipeline --wait and runs --run)')
            [CompletionResult]::new('--jq', '--jq', [CompletionResultType]::ParameterName, 'Filter the JSON output with a jq expression, as gh --jq: strings raw (escaped on a terminal; off it a string may span lines: use tojson for one a line), other values compact, one a line; each row of logs, runs and -o jsonl on its own (implies -o json; exit 2 for a bad expression, before any request)')
            [CompletionResult]::new('--fields', '--fields', [CompletionResultType]::ParameterName, 'Columns or keys to keep, in this order (comma-separated); a table never leaves them out to fit the terminal')
            [CompletionResult]::new('--output-file', '--output-file', [CompletionResultType]::ParameterName, 'With -o prometheus: write the exposition to PATH atomically (a temporary file in the same directory, then renamed), for node_exporter''s textfile collector')
            [CompletionResult]::new('--connect-timeout', '--connect-timeout', [CompletionResultType]::ParameterName, 'Longest time to connect (TCP and TLS) [default: 10s]')
            [CompletionResult]::new('--timeout', '--timeout', [CompletionResultType]::ParameterName, 'Longest wait for the server with no progress: the first byte, any stall between bytes; a body that keeps arriving is never cut [default: 60s]')
            [CompletionResult]::new('--max-time', '--max-time', [CompletionResultType]::ParameterName, 'Longest time for the whole command, retries and waits included (off by default; `check` defaults to 50s, inside a monitoring plugin''s 60 s)')
            [CompletionResult]::new('--settle', '--settle', [CompletionResultType]::ParameterName, 'The settle time of every command that judges a run (run --wait, runs, last-run, check, status, watch, metrics serve, logs -f --run): a pipeline run without a known task set has finished when no new task reported for this long, a workflow''s success counts after it (also YLEM_SETTLE, or the profile''s settle) [default: a pipeline''s 3x the longest gap between two tasks of its past runs, at least 10s, 10m without history; a workflow''s 10m]')
            [CompletionResult]::new('--retries', '--retries', [CompletionResultType]::ParameterName, 'Retries of idempotent requests (GET, token); a run start is never retried [default: 2]')
            [CompletionResult]::new('--concurrency', '--concurrency', [CompletionResultType]::ParameterName, 'Requests in flight at once when several IDs are given [default: 8]')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'When to use colour (NO_COLOR turns it off even with always; CLICOLOR_FORCE on in auto)')
            [CompletionResult]::new('--follow', '--follow', [CompletionResultType]::ParameterName, 'Keep exporting runs as they finish, until Ctrl-C or SIGTERM')
            [CompletionResult]::new('--no-header', '--no-header', [CompletionResultType]::ParameterName, 'No header row (table, csv)')
            [CompletionResult]::new('--csv-raw', '--csv-raw', [CompletionResultType]::ParameterName, 'With -o csv: text cells as sent (by default one starting with = + - @, tab or CR gets a '' in front, so a spreadsheet does not run it as a formula, and control characters are escaped as in tables)')
            [CompletionResult]::new('--local', '--local', [CompletionResultType]::ParameterName, 'Read naive times and show times in the local time zone (also YLEM_TZ=local)')
            [CompletionResult]::new('-v', '-v', [CompletionResultType]::ParameterName, '-v: one line per HTTP request on stderr; -vv: also headers and bodies (secrets redacted)')
            [CompletionResult]::new('--verbose', '--verbose', [CompletionResultType]::ParameterName, '-v: one line per HTTP request on stderr; -vv: also headers and bodies (secrets redacted)')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'No spinner, notes or warnings')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'No spinner, notes or warnings')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'ylemctl;export;openlineage' {
            [CompletionResult]::new('--from', '--from', [CompletionResultType]::ParameterName, 'Start: YYYY-MM-DD[ HH:MM:SS], ISO 8601, now, today, yesterday, or an age such as 7d')
            [CompletionResult]::new('--to', '--to', [CompletionResultType]::ParameterName, 'End (inclusive; a bare date means the end of that day)')
            [CompletionResult]::new('--since', '--since', [CompletionResultType]::ParameterName, 'Start of a window that ends now, e.g. 90m, 24h, 7d, 2w, or a TIME')
            [CompletionResult]::new('--poll', '--poll', [CompletionResultType]::ParameterName, 'With --follow: how often to look for runs that finished')
            [CompletionResult]::new('--decrypt-key-file', '--decrypt-key-file', [CompletionResultType]::ParameterName, 'Key file (32 bytes, hex or Base64) that opens encrypted task outputs, to say why a run failed (also YLEM_DECRYPT_KEY_FILE, or the profile''s decrypt_key_file)')
            [CompletionResult]::new('--url', '--url', [CompletionResultType]::ParameterName, 'The OpenLineage HTTP endpoint: a base URL (/api/v1/lineage is appended) or the endpoint itself; without one (nor OPENLINEAGE_URL), JSON lines on stdout')
            [CompletionResult]::new('--namespace', '--namespace', [CompletionResultType]::ParameterName, 'The jobs'' namespace (default: OPENLINEAGE_NAMESPACE, else the service''s host)')
            [CompletionResult]::new('-p', '-p', [CompletionResultType]::ParameterName, 'Profile to use')
            [CompletionResult]::new('--profile', '--profile', [CompletionResultType]::ParameterName, 'Profile to use')
            [CompletionResult]::new('--base-url', '--base-url', [CompletionResultType]::ParameterName, 'Base URL of the service (a profile''s credentials go only to its own)')
            [CompletionResult]::new('-o', '-o', [CompletionResultType]::ParameterName, 'Output format (prometheus: stats, last-run, status and check; junit: run pipeline --wait and runs --run)')
            [CompletionResult]::new('--output', '--output', [CompletionResultType]::ParameterName, 'Output format (prometheus: stats, last-run, status and check; junit: run pipeline --wait and runs --run)')
            [CompletionResult]::new('--jq', '--jq', [CompletionResultType]::ParameterName, 'Filter the JSON output with a jq expression, as gh --jq: strings raw (escaped on a terminal; off it a string may span lines: use tojson for one a line), other values compact, one a line; each row of logs, runs and -o jsonl on its own (implies -o json; exit 2 for a bad expression, before any request)')
            [CompletionResult]::new('--fields', '--fields', [CompletionResultType]::ParameterName, 'Columns or keys to keep, in this order (comma-separated); a table never leaves them out to fit the terminal')
            [CompletionResult]::new('--output-file', '--output-file', [CompletionResultType]::ParameterName, 'With -o prometheus: write the exposition to PATH atomically (a temporary file in the same directory, then renamed), for node_exporter''s textfile collector')
            [CompletionResult]::new('--connect-timeout', '--connect-timeout', [CompletionResultType]::ParameterName, 'Longest time to connect (TCP and TLS) [default: 10s]')
            [CompletionResult]::new('--timeout', '--timeout', [CompletionResultType]::ParameterName, 'Longest wait for the server with no progress: the first byte, any stall between bytes; a body that keeps arriving is never cut [default: 60s]')
            [CompletionResult]::new('--max-time', '--max-time', [CompletionResultType]::ParameterName, 'Longest time for the whole command, retries and waits included (off by default; `check` defaults to 50s, inside a monitoring plugin''s 60 s)')
            [CompletionResult]::new('--settle', '--settle', [CompletionResultType]::ParameterName, 'The settle time of every command that judges a run (run --wait, runs, last-run, check, status, watch, metrics serve, logs -f --run): a pipeline run without a known task set has finished when no new task reported for this long, a workflow''s success counts after it (also YLEM_SETTLE, or the profile''s settle) [default: a pipeline''s 3x the longest gap between two tasks of its past runs, at least 10s, 10m without history; a workflow''s 10m]')
            [CompletionResult]::new('--retries', '--retries', [CompletionResultType]::ParameterName, 'Retries of idempotent requests (GET, token); a run start is never retried [default: 2]')
            [CompletionResult]::new('--concurrency', '--concurrency', [CompletionResultType]::ParameterName, 'Requests in flight at once when several IDs are given [default: 8]')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'When to use colour (NO_COLOR turns it off even with always; CLICOLOR_FORCE on in auto)')
            [CompletionResult]::new('--follow', '--follow', [CompletionResultType]::ParameterName, 'Keep exporting runs as they finish, until Ctrl-C or SIGTERM')
            [CompletionResult]::new('--no-header', '--no-header', [CompletionResultType]::ParameterName, 'No header row (table, csv)')
            [CompletionResult]::new('--csv-raw', '--csv-raw', [CompletionResultType]::ParameterName, 'With -o csv: text cells as sent (by default one starting with = + - @, tab or CR gets a '' in front, so a spreadsheet does not run it as a formula, and control characters are escaped as in tables)')
            [CompletionResult]::new('--local', '--local', [CompletionResultType]::ParameterName, 'Read naive times and show times in the local time zone (also YLEM_TZ=local)')
            [CompletionResult]::new('-v', '-v', [CompletionResultType]::ParameterName, '-v: one line per HTTP request on stderr; -vv: also headers and bodies (secrets redacted)')
            [CompletionResult]::new('--verbose', '--verbose', [CompletionResultType]::ParameterName, '-v: one line per HTTP request on stderr; -vv: also headers and bodies (secrets redacted)')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'No spinner, notes or warnings')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'No spinner, notes or warnings')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'ylemctl;export;help' {
            [CompletionResult]::new('otlp', 'otlp', [CompletionResultType]::ParameterValue, 'Each finished pipeline run as one OpenTelemetry trace, by OTLP/HTTP (or OTLP JSON lines on stdout)')
            [CompletionResult]::new('openlineage', 'openlineage', [CompletionResultType]::ParameterValue, 'Each finished pipeline run as an OpenLineage START and COMPLETE or FAIL event (POSTed, or JSON lines on stdout)')
            [CompletionResult]::new('help', 'help', [CompletionResultType]::ParameterValue, 'Print this message or the help of the given subcommand(s)')
            break
        }
        'ylemctl;export;help;otlp' {
            break
        }
        'ylemctl;export;help;openlineage' {
            break
        }
        'ylemctl;export;help;help' {
            break
        }
        'ylemctl;sandbox' {
            [CompletionResult]::new('--listen', '--listen', [CompletionResultType]::ParameterName, 'Loopback address to listen on (port 0 picks a free one)')
            [CompletionResult]::new('--seed', '--seed', [CompletionResultType]::ParameterName, 'Seed of the generated pipelines, workflows, tasks and history')
            [CompletionResult]::new('--dialect', '--dialect', [CompletionResultType]::ParameterName, 'Behave as the specification says, or as the open-source server does')
            [CompletionResult]::new('--latency', '--latency', [CompletionResultType]::ParameterName, 'Delay added before every response, e.g. 100ms')
            [CompletionResult]::new('--fail-rate', '--fail-rate', [CompletionResultType]::ParameterName, 'Share of requests answered with a fault, from 0 to 1 (spec: 503; ylem: 500 with a JSON body, or 502-504)')
            [CompletionResult]::new('--token-ttl', '--token-ttl', [CompletionResultType]::ParameterName, 'Lifetime of issued tokens')
            [CompletionResult]::new('--task-delay', '--task-delay', [CompletionResultType]::ParameterName, 'Live time of one second of task time: each task of a started run reports after its duration times this')
            [CompletionResult]::new('--token-params', '--token-params', [CompletionResultType]::ParameterName, 'Where the token endpoint reads its parameters (query: the spec''s form only, as a server that ignores a form body)')
            [CompletionResult]::new('--clock-skew', '--clock-skew', [CompletionResultType]::ParameterName, 'Put every response''s Date header this far off the true time, ahead or behind (-), e.g. 90s, -10m')
            [CompletionResult]::new('--scopes', '--scopes', [CompletionResultType]::ParameterName, 'Scopes tokens grant, enforced with 403: comma-separated, of stats:read, pipelines:run and workflows:run ("" grants none); not given, all are granted')
            [CompletionResult]::new('--extra-pipelines', '--extra-pipelines', [CompletionResultType]::ParameterName, 'Benchmark scale: N more ordinary pipelines, after all the others (which keep their UUIDs), each run about hourly over 14 days')
            [CompletionResult]::new('-p', '-p', [CompletionResultType]::ParameterName, 'Profile to use')
            [CompletionResult]::new('--profile', '--profile', [CompletionResultType]::ParameterName, 'Profile to use')
            [CompletionResult]::new('--base-url', '--base-url', [CompletionResultType]::ParameterName, 'Base URL of the service (a profile''s credentials go only to its own)')
            [CompletionResult]::new('--fields', '--fields', [CompletionResultType]::ParameterName, 'Columns or keys to keep, in this order (comma-separated); a table never leaves them out to fit the terminal')
            [CompletionResult]::new('--connect-timeout', '--connect-timeout', [CompletionResultType]::ParameterName, 'Longest time to connect (TCP and TLS) [default: 10s]')
            [CompletionResult]::new('--timeout', '--timeout', [CompletionResultType]::ParameterName, 'Longest wait for the server with no progress: the first byte, any stall between bytes; a body that keeps arriving is never cut [default: 60s]')
            [CompletionResult]::new('--max-time', '--max-time', [CompletionResultType]::ParameterName, 'Longest time for the whole command, retries and waits included (off by default; `check` defaults to 50s, inside a monitoring plugin''s 60 s)')
            [CompletionResult]::new('--retries', '--retries', [CompletionResultType]::ParameterName, 'Retries of idempotent requests (GET, token); a run start is never retried [default: 2]')
            [CompletionResult]::new('--concurrency', '--concurrency', [CompletionResultType]::ParameterName, 'Requests in flight at once when several IDs are given [default: 8]')
            [CompletionResult]::new('-o', '-o', [CompletionResultType]::ParameterName, 'Output format (prometheus: stats, last-run, status and check; junit: run pipeline --wait and runs --run)')
            [CompletionResult]::new('--output', '--output', [CompletionResultType]::ParameterName, 'Output format (prometheus: stats, last-run, status and check; junit: run pipeline --wait and runs --run)')
            [CompletionResult]::new('--jq', '--jq', [CompletionResultType]::ParameterName, 'Filter the JSON output with a jq expression, as gh --jq: strings raw (escaped on a terminal; off it a string may span lines: use tojson for one a line), other values compact, one a line; each row of logs, runs and -o jsonl on its own (implies -o json; exit 2 for a bad expression, before any request)')
            [CompletionResult]::new('--output-file', '--output-file', [CompletionResultType]::ParameterName, 'With -o prometheus: write the exposition to PATH atomically (a temporary file in the same directory, then renamed), for node_exporter''s textfile collector')
            [CompletionResult]::new('--settle', '--settle', [CompletionResultType]::ParameterName, 'The settle time of every command that judges a run (run --wait, runs, last-run, check, status, watch, metrics serve, logs -f --run): a pipeline run without a known task set has finished when no new task reported for this long, a workflow''s success counts after it (also YLEM_SETTLE, or the profile''s settle) [default: a pipeline''s 3x the longest gap between two tasks of its past runs, at least 10s, 10m without history; a workflow''s 10m]')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'When to use colour (NO_COLOR turns it off even with always; CLICOLOR_FORCE on in auto)')
            [CompletionResult]::new('--plan-disabled', '--plan-disabled', [CompletionResultType]::ParameterName, 'Answer 401 on every authenticated endpoint, even with a fresh token, as a plan with the API switched off')
            [CompletionResult]::new('--failing-workflows', '--failing-workflows', [CompletionResultType]::ParameterName, 'Test-only: every started workflow run fails (on its last task), for a failed workflow run on demand')
            [CompletionResult]::new('--no-header', '--no-header', [CompletionResultType]::ParameterName, 'No header row (table, csv)')
            [CompletionResult]::new('--csv-raw', '--csv-raw', [CompletionResultType]::ParameterName, 'With -o csv: text cells as sent (by default one starting with = + - @, tab or CR gets a '' in front, so a spreadsheet does not run it as a formula, and control characters are escaped as in tables)')
            [CompletionResult]::new('--local', '--local', [CompletionResultType]::ParameterName, 'Read naive times and show times in the local time zone (also YLEM_TZ=local)')
            [CompletionResult]::new('-v', '-v', [CompletionResultType]::ParameterName, '-v: one line per HTTP request on stderr; -vv: also headers and bodies (secrets redacted)')
            [CompletionResult]::new('--verbose', '--verbose', [CompletionResultType]::ParameterName, '-v: one line per HTTP request on stderr; -vv: also headers and bodies (secrets redacted)')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'No spinner, notes or warnings')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'No spinner, notes or warnings')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'ylemctl;demo' {
            [CompletionResult]::new('-p', '-p', [CompletionResultType]::ParameterName, 'Profile to use')
            [CompletionResult]::new('--profile', '--profile', [CompletionResultType]::ParameterName, 'Profile to use')
            [CompletionResult]::new('--base-url', '--base-url', [CompletionResultType]::ParameterName, 'Base URL of the service (a profile''s credentials go only to its own)')
            [CompletionResult]::new('-o', '-o', [CompletionResultType]::ParameterName, 'Output format (prometheus: stats, last-run, status and check; junit: run pipeline --wait and runs --run)')
            [CompletionResult]::new('--output', '--output', [CompletionResultType]::ParameterName, 'Output format (prometheus: stats, last-run, status and check; junit: run pipeline --wait and runs --run)')
            [CompletionResult]::new('--jq', '--jq', [CompletionResultType]::ParameterName, 'Filter the JSON output with a jq expression, as gh --jq: strings raw (escaped on a terminal; off it a string may span lines: use tojson for one a line), other values compact, one a line; each row of logs, runs and -o jsonl on its own (implies -o json; exit 2 for a bad expression, before any request)')
            [CompletionResult]::new('--fields', '--fields', [CompletionResultType]::ParameterName, 'Columns or keys to keep, in this order (comma-separated); a table never leaves them out to fit the terminal')
            [CompletionResult]::new('--connect-timeout', '--connect-timeout', [CompletionResultType]::ParameterName, 'Longest time to connect (TCP and TLS) [default: 10s]')
            [CompletionResult]::new('--timeout', '--timeout', [CompletionResultType]::ParameterName, 'Longest wait for the server with no progress: the first byte, any stall between bytes; a body that keeps arriving is never cut [default: 60s]')
            [CompletionResult]::new('--max-time', '--max-time', [CompletionResultType]::ParameterName, 'Longest time for the whole command, retries and waits included (off by default; `check` defaults to 50s, inside a monitoring plugin''s 60 s)')
            [CompletionResult]::new('--retries', '--retries', [CompletionResultType]::ParameterName, 'Retries of idempotent requests (GET, token); a run start is never retried [default: 2]')
            [CompletionResult]::new('--concurrency', '--concurrency', [CompletionResultType]::ParameterName, 'Requests in flight at once when several IDs are given [default: 8]')
            [CompletionResult]::new('--output-file', '--output-file', [CompletionResultType]::ParameterName, 'With -o prometheus: write the exposition to PATH atomically (a temporary file in the same directory, then renamed), for node_exporter''s textfile collector')
            [CompletionResult]::new('--settle', '--settle', [CompletionResultType]::ParameterName, 'The settle time of every command that judges a run (run --wait, runs, last-run, check, status, watch, metrics serve, logs -f --run): a pipeline run without a known task set has finished when no new task reported for this long, a workflow''s success counts after it (also YLEM_SETTLE, or the profile''s settle) [default: a pipeline''s 3x the longest gap between two tasks of its past runs, at least 10s, 10m without history; a workflow''s 10m]')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'When to use colour (NO_COLOR turns it off even with always; CLICOLOR_FORCE on in auto)')
            [CompletionResult]::new('--no-header', '--no-header', [CompletionResultType]::ParameterName, 'No header row (table, csv)')
            [CompletionResult]::new('--csv-raw', '--csv-raw', [CompletionResultType]::ParameterName, 'With -o csv: text cells as sent (by default one starting with = + - @, tab or CR gets a '' in front, so a spreadsheet does not run it as a formula, and control characters are escaped as in tables)')
            [CompletionResult]::new('--local', '--local', [CompletionResultType]::ParameterName, 'Read naive times and show times in the local time zone (also YLEM_TZ=local)')
            [CompletionResult]::new('-v', '-v', [CompletionResultType]::ParameterName, '-v: one line per HTTP request on stderr; -vv: also headers and bodies (secrets redacted)')
            [CompletionResult]::new('--verbose', '--verbose', [CompletionResultType]::ParameterName, '-v: one line per HTTP request on stderr; -vv: also headers and bodies (secrets redacted)')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'No spinner, notes or warnings')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'No spinner, notes or warnings')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'ylemctl;login' {
            [CompletionResult]::new('--client-id', '--client-id', [CompletionResultType]::ParameterName, 'OAuth client id (asked for on a terminal when missing)')
            [CompletionResult]::new('--store', '--store', [CompletionResultType]::ParameterName, 'Where to keep the secret and tokens (default auto; also YLEM_CREDENTIAL_STORE)')
            [CompletionResult]::new('--fields', '--fields', [CompletionResultType]::ParameterName, 'Columns or keys to keep, in this order (comma-separated); a table never leaves them out to fit the terminal')
            [CompletionResult]::new('--concurrency', '--concurrency', [CompletionResultType]::ParameterName, 'Requests in flight at once when several IDs are given [default: 8]')
            [CompletionResult]::new('--jq', '--jq', [CompletionResultType]::ParameterName, 'Filter the JSON output with a jq expression, as gh --jq: strings raw (escaped on a terminal; off it a string may span lines: use tojson for one a line), other values compact, one a line; each row of logs, runs and -o jsonl on its own (implies -o json; exit 2 for a bad expression, before any request)')
            [CompletionResult]::new('-p', '-p', [CompletionResultType]::ParameterName, 'Profile to use')
            [CompletionResult]::new('--profile', '--profile', [CompletionResultType]::ParameterName, 'Profile to use')
            [CompletionResult]::new('--base-url', '--base-url', [CompletionResultType]::ParameterName, 'Base URL of the service (a profile''s credentials go only to its own)')
            [CompletionResult]::new('-o', '-o', [CompletionResultType]::ParameterName, 'Output format (prometheus: stats, last-run, status and check; junit: run pipeline --wait and runs --run)')
            [CompletionResult]::new('--output', '--output', [CompletionResultType]::ParameterName, 'Output format (prometheus: stats, last-run, status and check; junit: run pipeline --wait and runs --run)')
            [CompletionResult]::new('--output-file', '--output-file', [CompletionResultType]::ParameterName, 'With -o prometheus: write the exposition to PATH atomically (a temporary file in the same directory, then renamed), for node_exporter''s textfile collector')
            [CompletionResult]::new('--connect-timeout', '--connect-timeout', [CompletionResultType]::ParameterName, 'Longest time to connect (TCP and TLS) [default: 10s]')
            [CompletionResult]::new('--timeout', '--timeout', [CompletionResultType]::ParameterName, 'Longest wait for the server with no progress: the first byte, any stall between bytes; a body that keeps arriving is never cut [default: 60s]')
            [CompletionResult]::new('--max-time', '--max-time', [CompletionResultType]::ParameterName, 'Longest time for the whole command, retries and waits included (off by default; `check` defaults to 50s, inside a monitoring plugin''s 60 s)')
            [CompletionResult]::new('--settle', '--settle', [CompletionResultType]::ParameterName, 'The settle time of every command that judges a run (run --wait, runs, last-run, check, status, watch, metrics serve, logs -f --run): a pipeline run without a known task set has finished when no new task reported for this long, a workflow''s success counts after it (also YLEM_SETTLE, or the profile''s settle) [default: a pipeline''s 3x the longest gap between two tasks of its past runs, at least 10s, 10m without history; a workflow''s 10m]')
            [CompletionResult]::new('--retries', '--retries', [CompletionResultType]::ParameterName, 'Retries of idempotent requests (GET, token); a run start is never retried [default: 2]')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'When to use colour (NO_COLOR turns it off even with always; CLICOLOR_FORCE on in auto)')
            [CompletionResult]::new('--client-secret-stdin', '--client-secret-stdin', [CompletionResultType]::ParameterName, 'Read the client secret from standard input instead of asking')
            [CompletionResult]::new('--no-header', '--no-header', [CompletionResultType]::ParameterName, 'No header row (table, csv)')
            [CompletionResult]::new('--csv-raw', '--csv-raw', [CompletionResultType]::ParameterName, 'With -o csv: text cells as sent (by default one starting with = + - @, tab or CR gets a '' in front, so a spreadsheet does not run it as a formula, and control characters are escaped as in tables)')
            [CompletionResult]::new('--local', '--local', [CompletionResultType]::ParameterName, 'Read naive times and show times in the local time zone (also YLEM_TZ=local)')
            [CompletionResult]::new('-v', '-v', [CompletionResultType]::ParameterName, '-v: one line per HTTP request on stderr; -vv: also headers and bodies (secrets redacted)')
            [CompletionResult]::new('--verbose', '--verbose', [CompletionResultType]::ParameterName, '-v: one line per HTTP request on stderr; -vv: also headers and bodies (secrets redacted)')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'No spinner, notes or warnings')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'No spinner, notes or warnings')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'ylemctl;logout' {
            [CompletionResult]::new('--fields', '--fields', [CompletionResultType]::ParameterName, 'Columns or keys to keep, in this order (comma-separated); a table never leaves them out to fit the terminal')
            [CompletionResult]::new('--concurrency', '--concurrency', [CompletionResultType]::ParameterName, 'Requests in flight at once when several IDs are given [default: 8]')
            [CompletionResult]::new('--jq', '--jq', [CompletionResultType]::ParameterName, 'Filter the JSON output with a jq expression, as gh --jq: strings raw (escaped on a terminal; off it a string may span lines: use tojson for one a line), other values compact, one a line; each row of logs, runs and -o jsonl on its own (implies -o json; exit 2 for a bad expression, before any request)')
            [CompletionResult]::new('-p', '-p', [CompletionResultType]::ParameterName, 'Profile to use')
            [CompletionResult]::new('--profile', '--profile', [CompletionResultType]::ParameterName, 'Profile to use')
            [CompletionResult]::new('--base-url', '--base-url', [CompletionResultType]::ParameterName, 'Base URL of the service (a profile''s credentials go only to its own)')
            [CompletionResult]::new('-o', '-o', [CompletionResultType]::ParameterName, 'Output format (prometheus: stats, last-run, status and check; junit: run pipeline --wait and runs --run)')
            [CompletionResult]::new('--output', '--output', [CompletionResultType]::ParameterName, 'Output format (prometheus: stats, last-run, status and check; junit: run pipeline --wait and runs --run)')
            [CompletionResult]::new('--output-file', '--output-file', [CompletionResultType]::ParameterName, 'With -o prometheus: write the exposition to PATH atomically (a temporary file in the same directory, then renamed), for node_exporter''s textfile collector')
            [CompletionResult]::new('--connect-timeout', '--connect-timeout', [CompletionResultType]::ParameterName, 'Longest time to connect (TCP and TLS) [default: 10s]')
            [CompletionResult]::new('--timeout', '--timeout', [CompletionResultType]::ParameterName, 'Longest wait for the server with no progress: the first byte, any stall between bytes; a body that keeps arriving is never cut [default: 60s]')
            [CompletionResult]::new('--max-time', '--max-time', [CompletionResultType]::ParameterName, 'Longest time for the whole command, retries and waits included (off by default; `check` defaults to 50s, inside a monitoring plugin''s 60 s)')
            [CompletionResult]::new('--settle', '--settle', [CompletionResultType]::ParameterName, 'The settle time of every command that judges a run (run --wait, runs, last-run, check, status, watch, metrics serve, logs -f --run): a pipeline run without a known task set has finished when no new task reported for this long, a workflow''s success counts after it (also YLEM_SETTLE, or the profile''s settle) [default: a pipeline''s 3x the longest gap between two tasks of its past runs, at least 10s, 10m without history; a workflow''s 10m]')
            [CompletionResult]::new('--retries', '--retries', [CompletionResultType]::ParameterName, 'Retries of idempotent requests (GET, token); a run start is never retried [default: 2]')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'When to use colour (NO_COLOR turns it off even with always; CLICOLOR_FORCE on in auto)')
            [CompletionResult]::new('--no-header', '--no-header', [CompletionResultType]::ParameterName, 'No header row (table, csv)')
            [CompletionResult]::new('--csv-raw', '--csv-raw', [CompletionResultType]::ParameterName, 'With -o csv: text cells as sent (by default one starting with = + - @, tab or CR gets a '' in front, so a spreadsheet does not run it as a formula, and control characters are escaped as in tables)')
            [CompletionResult]::new('--local', '--local', [CompletionResultType]::ParameterName, 'Read naive times and show times in the local time zone (also YLEM_TZ=local)')
            [CompletionResult]::new('-v', '-v', [CompletionResultType]::ParameterName, '-v: one line per HTTP request on stderr; -vv: also headers and bodies (secrets redacted)')
            [CompletionResult]::new('--verbose', '--verbose', [CompletionResultType]::ParameterName, '-v: one line per HTTP request on stderr; -vv: also headers and bodies (secrets redacted)')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'No spinner, notes or warnings')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'No spinner, notes or warnings')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'ylemctl;auth' {
            [CompletionResult]::new('-p', '-p', [CompletionResultType]::ParameterName, 'Profile to use')
            [CompletionResult]::new('--profile', '--profile', [CompletionResultType]::ParameterName, 'Profile to use')
            [CompletionResult]::new('--base-url', '--base-url', [CompletionResultType]::ParameterName, 'Base URL of the service (a profile''s credentials go only to its own)')
            [CompletionResult]::new('-o', '-o', [CompletionResultType]::ParameterName, 'Output format (prometheus: stats, last-run, status and check; junit: run pipeline --wait and runs --run)')
            [CompletionResult]::new('--output', '--output', [CompletionResultType]::ParameterName, 'Output format (prometheus: stats, last-run, status and check; junit: run pipeline --wait and runs --run)')
            [CompletionResult]::new('--jq', '--jq', [CompletionResultType]::ParameterName, 'Filter the JSON output with a jq expression, as gh --jq: strings raw (escaped on a terminal; off it a string may span lines: use tojson for one a line), other values compact, one a line; each row of logs, runs and -o jsonl on its own (implies -o json; exit 2 for a bad expression, before any request)')
            [CompletionResult]::new('--fields', '--fields', [CompletionResultType]::ParameterName, 'Columns or keys to keep, in this order (comma-separated); a table never leaves them out to fit the terminal')
            [CompletionResult]::new('--output-file', '--output-file', [CompletionResultType]::ParameterName, 'With -o prometheus: write the exposition to PATH atomically (a temporary file in the same directory, then renamed), for node_exporter''s textfile collector')
            [CompletionResult]::new('--connect-timeout', '--connect-timeout', [CompletionResultType]::ParameterName, 'Longest time to connect (TCP and TLS) [default: 10s]')
            [CompletionResult]::new('--timeout', '--timeout', [CompletionResultType]::ParameterName, 'Longest wait for the server with no progress: the first byte, any stall between bytes; a body that keeps arriving is never cut [default: 60s]')
            [CompletionResult]::new('--max-time', '--max-time', [CompletionResultType]::ParameterName, 'Longest time for the whole command, retries and waits included (off by default; `check` defaults to 50s, inside a monitoring plugin''s 60 s)')
            [CompletionResult]::new('--settle', '--settle', [CompletionResultType]::ParameterName, 'The settle time of every command that judges a run (run --wait, runs, last-run, check, status, watch, metrics serve, logs -f --run): a pipeline run without a known task set has finished when no new task reported for this long, a workflow''s success counts after it (also YLEM_SETTLE, or the profile''s settle) [default: a pipeline''s 3x the longest gap between two tasks of its past runs, at least 10s, 10m without history; a workflow''s 10m]')
            [CompletionResult]::new('--retries', '--retries', [CompletionResultType]::ParameterName, 'Retries of idempotent requests (GET, token); a run start is never retried [default: 2]')
            [CompletionResult]::new('--concurrency', '--concurrency', [CompletionResultType]::ParameterName, 'Requests in flight at once when several IDs are given [default: 8]')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'When to use colour (NO_COLOR turns it off even with always; CLICOLOR_FORCE on in auto)')
            [CompletionResult]::new('--no-header', '--no-header', [CompletionResultType]::ParameterName, 'No header row (table, csv)')
            [CompletionResult]::new('--csv-raw', '--csv-raw', [CompletionResultType]::ParameterName, 'With -o csv: text cells as sent (by default one starting with = + - @, tab or CR gets a '' in front, so a spreadsheet does not run it as a formula, and control characters are escaped as in tables)')
            [CompletionResult]::new('--local', '--local', [CompletionResultType]::ParameterName, 'Read naive times and show times in the local time zone (also YLEM_TZ=local)')
            [CompletionResult]::new('-v', '-v', [CompletionResultType]::ParameterName, '-v: one line per HTTP request on stderr; -vv: also headers and bodies (secrets redacted)')
            [CompletionResult]::new('--verbose', '--verbose', [CompletionResultType]::ParameterName, '-v: one line per HTTP request on stderr; -vv: also headers and bodies (secrets redacted)')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'No spinner, notes or warnings')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'No spinner, notes or warnings')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('status', 'status', [CompletionResultType]::ParameterValue, 'Profile, base URL, client id, the URL its credentials are bound to, store and token expiry (never the token)')
            [CompletionResult]::new('token', 'token', [CompletionResultType]::ParameterValue, 'Print a valid access token on standard output, for other tools')
            [CompletionResult]::new('help', 'help', [CompletionResultType]::ParameterValue, 'Print this message or the help of the given subcommand(s)')
            break
        }
        'ylemctl;auth;status' {
            [CompletionResult]::new('-p', '-p', [CompletionResultType]::ParameterName, 'Profile to use')
            [CompletionResult]::new('--profile', '--profile', [CompletionResultType]::ParameterName, 'Profile to use')
            [CompletionResult]::new('--base-url', '--base-url', [CompletionResultType]::ParameterName, 'Base URL of the service (a profile''s credentials go only to its own)')
            [CompletionResult]::new('-o', '-o', [CompletionResultType]::ParameterName, 'Output format (prometheus: stats, last-run, status and check; junit: run pipeline --wait and runs --run)')
            [CompletionResult]::new('--output', '--output', [CompletionResultType]::ParameterName, 'Output format (prometheus: stats, last-run, status and check; junit: run pipeline --wait and runs --run)')
            [CompletionResult]::new('--jq', '--jq', [CompletionResultType]::ParameterName, 'Filter the JSON output with a jq expression, as gh --jq: strings raw (escaped on a terminal; off it a string may span lines: use tojson for one a line), other values compact, one a line; each row of logs, runs and -o jsonl on its own (implies -o json; exit 2 for a bad expression, before any request)')
            [CompletionResult]::new('--fields', '--fields', [CompletionResultType]::ParameterName, 'Columns or keys to keep, in this order (comma-separated); a table never leaves them out to fit the terminal')
            [CompletionResult]::new('--output-file', '--output-file', [CompletionResultType]::ParameterName, 'With -o prometheus: write the exposition to PATH atomically (a temporary file in the same directory, then renamed), for node_exporter''s textfile collector')
            [CompletionResult]::new('--connect-timeout', '--connect-timeout', [CompletionResultType]::ParameterName, 'Longest time to connect (TCP and TLS) [default: 10s]')
            [CompletionResult]::new('--timeout', '--timeout', [CompletionResultType]::ParameterName, 'Longest wait for the server with no progress: the first byte, any stall between bytes; a body that keeps arriving is never cut [default: 60s]')
            [CompletionResult]::new('--max-time', '--max-time', [CompletionResultType]::ParameterName, 'Longest time for the whole command, retries and waits included (off by default; `check` defaults to 50s, inside a monitoring plugin''s 60 s)')
            [CompletionResult]::new('--settle', '--settle', [CompletionResultType]::ParameterName, 'The settle time of every command that judges a run (run --wait, runs, last-run, check, status, watch, metrics serve, logs -f --run): a pipeline run without a known task set has finished when no new task reported for this long, a workflow''s success counts after it (also YLEM_SETTLE, or the profile''s settle) [default: a pipeline''s 3x the longest gap between two tasks of its past runs, at least 10s, 10m without history; a workflow''s 10m]')
            [CompletionResult]::new('--retries', '--retries', [CompletionResultType]::ParameterName, 'Retries of idempotent requests (GET, token); a run start is never retried [default: 2]')
            [CompletionResult]::new('--concurrency', '--concurrency', [CompletionResultType]::ParameterName, 'Requests in flight at once when several IDs are given [default: 8]')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'When to use colour (NO_COLOR turns it off even with always; CLICOLOR_FORCE on in auto)')
            [CompletionResult]::new('--no-header', '--no-header', [CompletionResultType]::ParameterName, 'No header row (table, csv)')
            [CompletionResult]::new('--csv-raw', '--csv-raw', [CompletionResultType]::ParameterName, 'With -o csv: text cells as sent (by default one starting with = + - @, tab or CR gets a '' in front, so a spreadsheet does not run it as a formula, and control characters are escaped as in tables)')
            [CompletionResult]::new('--local', '--local', [CompletionResultType]::ParameterName, 'Read naive times and show times in the local time zone (also YLEM_TZ=local)')
            [CompletionResult]::new('-v', '-v', [CompletionResultType]::ParameterName, '-v: one line per HTTP request on stderr; -vv: also headers and bodies (secrets redacted)')
            [CompletionResult]::new('--verbose', '--verbose', [CompletionResultType]::ParameterName, '-v: one line per HTTP request on stderr; -vv: also headers and bodies (secrets redacted)')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'No spinner, notes or warnings')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'No spinner, notes or warnings')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'ylemctl;auth;token' {
            [CompletionResult]::new('--min-ttl', '--min-ttl', [CompletionResultType]::ParameterName, 'Fetch a new token unless the cached one stays valid this long, e.g. 10m')
            [CompletionResult]::new('-p', '-p', [CompletionResultType]::ParameterName, 'Profile to use')
            [CompletionResult]::new('--profile', '--profile', [CompletionResultType]::ParameterName, 'Profile to use')
            [CompletionResult]::new('--base-url', '--base-url', [CompletionResultType]::ParameterName, 'Base URL of the service (a profile''s credentials go only to its own)')
            [CompletionResult]::new('-o', '-o', [CompletionResultType]::ParameterName, 'Output format (prometheus: stats, last-run, status and check; junit: run pipeline --wait and runs --run)')
            [CompletionResult]::new('--output', '--output', [CompletionResultType]::ParameterName, 'Output format (prometheus: stats, last-run, status and check; junit: run pipeline --wait and runs --run)')
            [CompletionResult]::new('--jq', '--jq', [CompletionResultType]::ParameterName, 'Filter the JSON output with a jq expression, as gh --jq: strings raw (escaped on a terminal; off it a string may span lines: use tojson for one a line), other values compact, one a line; each row of logs, runs and -o jsonl on its own (implies -o json; exit 2 for a bad expression, before any request)')
            [CompletionResult]::new('--fields', '--fields', [CompletionResultType]::ParameterName, 'Columns or keys to keep, in this order (comma-separated); a table never leaves them out to fit the terminal')
            [CompletionResult]::new('--output-file', '--output-file', [CompletionResultType]::ParameterName, 'With -o prometheus: write the exposition to PATH atomically (a temporary file in the same directory, then renamed), for node_exporter''s textfile collector')
            [CompletionResult]::new('--connect-timeout', '--connect-timeout', [CompletionResultType]::ParameterName, 'Longest time to connect (TCP and TLS) [default: 10s]')
            [CompletionResult]::new('--timeout', '--timeout', [CompletionResultType]::ParameterName, 'Longest wait for the server with no progress: the first byte, any stall between bytes; a body that keeps arriving is never cut [default: 60s]')
            [CompletionResult]::new('--max-time', '--max-time', [CompletionResultType]::ParameterName, 'Longest time for the whole command, retries and waits included (off by default; `check` defaults to 50s, inside a monitoring plugin''s 60 s)')
            [CompletionResult]::new('--settle', '--settle', [CompletionResultType]::ParameterName, 'The settle time of every command that judges a run (run --wait, runs, last-run, check, status, watch, metrics serve, logs -f --run): a pipeline run without a known task set has finished when no new task reported for this long, a workflow''s success counts after it (also YLEM_SETTLE, or the profile''s settle) [default: a pipeline''s 3x the longest gap between two tasks of its past runs, at least 10s, 10m without history; a workflow''s 10m]')
            [CompletionResult]::new('--retries', '--retries', [CompletionResultType]::ParameterName, 'Retries of idempotent requests (GET, token); a run start is never retried [default: 2]')
            [CompletionResult]::new('--concurrency', '--concurrency', [CompletionResultType]::ParameterName, 'Requests in flight at once when several IDs are given [default: 8]')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'When to use colour (NO_COLOR turns it off even with always; CLICOLOR_FORCE on in auto)')
            [CompletionResult]::new('--no-header', '--no-header', [CompletionResultType]::ParameterName, 'No header row (table, csv)')
            [CompletionResult]::new('--csv-raw', '--csv-raw', [CompletionResultType]::ParameterName, 'With -o csv: text cells as sent (by default one starting with = + - @, tab or CR gets a '' in front, so a spreadsheet does not run it as a formula, and control characters are escaped as in tables)')
            [CompletionResult]::new('--local', '--local', [CompletionResultType]::ParameterName, 'Read naive times and show times in the local time zone (also YLEM_TZ=local)')
            [CompletionResult]::new('-v', '-v', [CompletionResultType]::ParameterName, '-v: one line per HTTP request on stderr; -vv: also headers and bodies (secrets redacted)')
            [CompletionResult]::new('--verbose', '--verbose', [CompletionResultType]::ParameterName, '-v: one line per HTTP request on stderr; -vv: also headers and bodies (secrets redacted)')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'No spinner, notes or warnings')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'No spinner, notes or warnings')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'ylemctl;auth;help' {
            [CompletionResult]::new('status', 'status', [CompletionResultType]::ParameterValue, 'Profile, base URL, client id, the URL its credentials are bound to, store and token expiry (never the token)')
            [CompletionResult]::new('token', 'token', [CompletionResultType]::ParameterValue, 'Print a valid access token on standard output, for other tools')
            [CompletionResult]::new('help', 'help', [CompletionResultType]::ParameterValue, 'Print this message or the help of the given subcommand(s)')
            break
        }
        'ylemctl;auth;help;status' {
            break
        }
        'ylemctl;auth;help;token' {
            break
        }
        'ylemctl;auth;help;help' {
            break
        }
        'ylemctl;alias' {
            [CompletionResult]::new('-p', '-p', [CompletionResultType]::ParameterName, 'Profile to use')
            [CompletionResult]::new('--profile', '--profile', [CompletionResultType]::ParameterName, 'Profile to use')
            [CompletionResult]::new('--base-url', '--base-url', [CompletionResultType]::ParameterName, 'Base URL of the service (a profile''s credentials go only to its own)')
            [CompletionResult]::new('-o', '-o', [CompletionResultType]::ParameterName, 'Output format (prometheus: stats, last-run, status and check; junit: run pipeline --wait and runs --run)')
            [CompletionResult]::new('--output', '--output', [CompletionResultType]::ParameterName, 'Output format (prometheus: stats, last-run, status and check; junit: run pipeline --wait and runs --run)')
            [CompletionResult]::new('--jq', '--jq', [CompletionResultType]::ParameterName, 'Filter the JSON output with a jq expression, as gh --jq: strings raw (escaped on a terminal; off it a string may span lines: use tojson for one a line), other values compact, one a line; each row of logs, runs and -o jsonl on its own (implies -o json; exit 2 for a bad expression, before any request)')
            [CompletionResult]::new('--fields', '--fields', [CompletionResultType]::ParameterName, 'Columns or keys to keep, in this order (comma-separated); a table never leaves them out to fit the terminal')
            [CompletionResult]::new('--output-file', '--output-file', [CompletionResultType]::ParameterName, 'With -o prometheus: write the exposition to PATH atomically (a temporary file in the same directory, then renamed), for node_exporter''s textfile collector')
            [CompletionResult]::new('--connect-timeout', '--connect-timeout', [CompletionResultType]::ParameterName, 'Longest time to connect (TCP and TLS) [default: 10s]')
            [CompletionResult]::new('--timeout', '--timeout', [CompletionResultType]::ParameterName, 'Longest wait for the server with no progress: the first byte, any stall between bytes; a body that keeps arriving is never cut [default: 60s]')
            [CompletionResult]::new('--max-time', '--max-time', [CompletionResultType]::ParameterName, 'Longest time for the whole command, retries and waits included (off by default; `check` defaults to 50s, inside a monitoring plugin''s 60 s)')
            [CompletionResult]::new('--settle', '--settle', [CompletionResultType]::ParameterName, 'The settle time of every command that judges a run (run --wait, runs, last-run, check, status, watch, metrics serve, logs -f --run): a pipeline run without a known task set has finished when no new task reported for this long, a workflow''s success counts after it (also YLEM_SETTLE, or the profile''s settle) [default: a pipeline''s 3x the longest gap between two tasks of its past runs, at least 10s, 10m without history; a workflow''s 10m]')
            [CompletionResult]::new('--retries', '--retries', [CompletionResultType]::ParameterName, 'Retries of idempotent requests (GET, token); a run start is never retried [default: 2]')
            [CompletionResult]::new('--concurrency', '--concurrency', [CompletionResultType]::ParameterName, 'Requests in flight at once when several IDs are given [default: 8]')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'When to use colour (NO_COLOR turns it off even with always; CLICOLOR_FORCE on in auto)')
            [CompletionResult]::new('--no-header', '--no-header', [CompletionResultType]::ParameterName, 'No header row (table, csv)')
            [CompletionResult]::new('--csv-raw', '--csv-raw', [CompletionResultType]::ParameterName, 'With -o csv: text cells as sent (by default one starting with = + - @, tab or CR gets a '' in front, so a spreadsheet does not run it as a formula, and control characters are escaped as in tables)')
            [CompletionResult]::new('--local', '--local', [CompletionResultType]::ParameterName, 'Read naive times and show times in the local time zone (also YLEM_TZ=local)')
            [CompletionResult]::new('-v', '-v', [CompletionResultType]::ParameterName, '-v: one line per HTTP request on stderr; -vv: also headers and bodies (secrets redacted)')
            [CompletionResult]::new('--verbose', '--verbose', [CompletionResultType]::ParameterName, '-v: one line per HTTP request on stderr; -vv: also headers and bodies (secrets redacted)')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'No spinner, notes or warnings')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'No spinner, notes or warnings')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('set', 'set', [CompletionResultType]::ParameterValue, 'Name a UUID (replaces an alias of the same name)')
            [CompletionResult]::new('list', 'list', [CompletionResultType]::ParameterValue, 'List the aliases')
            [CompletionResult]::new('remove', 'remove', [CompletionResultType]::ParameterValue, 'Remove an alias')
            [CompletionResult]::new('help', 'help', [CompletionResultType]::ParameterValue, 'Print this message or the help of the given subcommand(s)')
            break
        }
        'ylemctl;alias;set' {
            [CompletionResult]::new('-p', '-p', [CompletionResultType]::ParameterName, 'Profile to use')
            [CompletionResult]::new('--profile', '--profile', [CompletionResultType]::ParameterName, 'Profile to use')
            [CompletionResult]::new('--base-url', '--base-url', [CompletionResultType]::ParameterName, 'Base URL of the service (a profile''s credentials go only to its own)')
            [CompletionResult]::new('-o', '-o', [CompletionResultType]::ParameterName, 'Output format (prometheus: stats, last-run, status and check; junit: run pipeline --wait and runs --run)')
            [CompletionResult]::new('--output', '--output', [CompletionResultType]::ParameterName, 'Output format (prometheus: stats, last-run, status and check; junit: run pipeline --wait and runs --run)')
            [CompletionResult]::new('--jq', '--jq', [CompletionResultType]::ParameterName, 'Filter the JSON output with a jq expression, as gh --jq: strings raw (escaped on a terminal; off it a string may span lines: use tojson for one a line), other values compact, one a line; each row of logs, runs and -o jsonl on its own (implies -o json; exit 2 for a bad expression, before any request)')
            [CompletionResult]::new('--fields', '--fields', [CompletionResultType]::ParameterName, 'Columns or keys to keep, in this order (comma-separated); a table never leaves them out to fit the terminal')
            [CompletionResult]::new('--output-file', '--output-file', [CompletionResultType]::ParameterName, 'With -o prometheus: write the exposition to PATH atomically (a temporary file in the same directory, then renamed), for node_exporter''s textfile collector')
            [CompletionResult]::new('--connect-timeout', '--connect-timeout', [CompletionResultType]::ParameterName, 'Longest time to connect (TCP and TLS) [default: 10s]')
            [CompletionResult]::new('--timeout', '--timeout', [CompletionResultType]::ParameterName, 'Longest wait for the server with no progress: the first byte, any stall between bytes; a body that keeps arriving is never cut [default: 60s]')
            [CompletionResult]::new('--max-time', '--max-time', [CompletionResultType]::ParameterName, 'Longest time for the whole command, retries and waits included (off by default; `check` defaults to 50s, inside a monitoring plugin''s 60 s)')
            [CompletionResult]::new('--settle', '--settle', [CompletionResultType]::ParameterName, 'The settle time of every command that judges a run (run --wait, runs, last-run, check, status, watch, metrics serve, logs -f --run): a pipeline run without a known task set has finished when no new task reported for this long, a workflow''s success counts after it (also YLEM_SETTLE, or the profile''s settle) [default: a pipeline''s 3x the longest gap between two tasks of its past runs, at least 10s, 10m without history; a workflow''s 10m]')
            [CompletionResult]::new('--retries', '--retries', [CompletionResultType]::ParameterName, 'Retries of idempotent requests (GET, token); a run start is never retried [default: 2]')
            [CompletionResult]::new('--concurrency', '--concurrency', [CompletionResultType]::ParameterName, 'Requests in flight at once when several IDs are given [default: 8]')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'When to use colour (NO_COLOR turns it off even with always; CLICOLOR_FORCE on in auto)')
            [CompletionResult]::new('--profile-only', '--profile-only', [CompletionResultType]::ParameterName, 'Only for the profile in use ([profiles.NAME.aliases], which wins over the global one)')
            [CompletionResult]::new('--no-header', '--no-header', [CompletionResultType]::ParameterName, 'No header row (table, csv)')
            [CompletionResult]::new('--csv-raw', '--csv-raw', [CompletionResultType]::ParameterName, 'With -o csv: text cells as sent (by default one starting with = + - @, tab or CR gets a '' in front, so a spreadsheet does not run it as a formula, and control characters are escaped as in tables)')
            [CompletionResult]::new('--local', '--local', [CompletionResultType]::ParameterName, 'Read naive times and show times in the local time zone (also YLEM_TZ=local)')
            [CompletionResult]::new('-v', '-v', [CompletionResultType]::ParameterName, '-v: one line per HTTP request on stderr; -vv: also headers and bodies (secrets redacted)')
            [CompletionResult]::new('--verbose', '--verbose', [CompletionResultType]::ParameterName, '-v: one line per HTTP request on stderr; -vv: also headers and bodies (secrets redacted)')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'No spinner, notes or warnings')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'No spinner, notes or warnings')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'ylemctl;alias;list' {
            [CompletionResult]::new('-p', '-p', [CompletionResultType]::ParameterName, 'Profile to use')
            [CompletionResult]::new('--profile', '--profile', [CompletionResultType]::ParameterName, 'Profile to use')
            [CompletionResult]::new('--base-url', '--base-url', [CompletionResultType]::ParameterName, 'Base URL of the service (a profile''s credentials go only to its own)')
            [CompletionResult]::new('-o', '-o', [CompletionResultType]::ParameterName, 'Output format (prometheus: stats, last-run, status and check; junit: run pipeline --wait and runs --run)')
            [CompletionResult]::new('--output', '--output', [CompletionResultType]::ParameterName, 'Output format (prometheus: stats, last-run, status and check; junit: run pipeline --wait and runs --run)')
            [CompletionResult]::new('--jq', '--jq', [CompletionResultType]::ParameterName, 'Filter the JSON output with a jq expression, as gh --jq: strings raw (escaped on a terminal; off it a string may span lines: use tojson for one a line), other values compact, one a line; each row of logs, runs and -o jsonl on its own (implies -o json; exit 2 for a bad expression, before any request)')
            [CompletionResult]::new('--fields', '--fields', [CompletionResultType]::ParameterName, 'Columns or keys to keep, in this order (comma-separated); a table never leaves them out to fit the terminal')
            [CompletionResult]::new('--output-file', '--output-file', [CompletionResultType]::ParameterName, 'With -o prometheus: write the exposition to PATH atomically (a temporary file in the same directory, then renamed), for node_exporter''s textfile collector')
            [CompletionResult]::new('--connect-timeout', '--connect-timeout', [CompletionResultType]::ParameterName, 'Longest time to connect (TCP and TLS) [default: 10s]')
            [CompletionResult]::new('--timeout', '--timeout', [CompletionResultType]::ParameterName, 'Longest wait for the server with no progress: the first byte, any stall between bytes; a body that keeps arriving is never cut [default: 60s]')
            [CompletionResult]::new('--max-time', '--max-time', [CompletionResultType]::ParameterName, 'Longest time for the whole command, retries and waits included (off by default; `check` defaults to 50s, inside a monitoring plugin''s 60 s)')
            [CompletionResult]::new('--settle', '--settle', [CompletionResultType]::ParameterName, 'The settle time of every command that judges a run (run --wait, runs, last-run, check, status, watch, metrics serve, logs -f --run): a pipeline run without a known task set has finished when no new task reported for this long, a workflow''s success counts after it (also YLEM_SETTLE, or the profile''s settle) [default: a pipeline''s 3x the longest gap between two tasks of its past runs, at least 10s, 10m without history; a workflow''s 10m]')
            [CompletionResult]::new('--retries', '--retries', [CompletionResultType]::ParameterName, 'Retries of idempotent requests (GET, token); a run start is never retried [default: 2]')
            [CompletionResult]::new('--concurrency', '--concurrency', [CompletionResultType]::ParameterName, 'Requests in flight at once when several IDs are given [default: 8]')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'When to use colour (NO_COLOR turns it off even with always; CLICOLOR_FORCE on in auto)')
            [CompletionResult]::new('--names', '--names', [CompletionResultType]::ParameterName, 'Only the names, one per line (for shell completion)')
            [CompletionResult]::new('--no-header', '--no-header', [CompletionResultType]::ParameterName, 'No header row (table, csv)')
            [CompletionResult]::new('--csv-raw', '--csv-raw', [CompletionResultType]::ParameterName, 'With -o csv: text cells as sent (by default one starting with = + - @, tab or CR gets a '' in front, so a spreadsheet does not run it as a formula, and control characters are escaped as in tables)')
            [CompletionResult]::new('--local', '--local', [CompletionResultType]::ParameterName, 'Read naive times and show times in the local time zone (also YLEM_TZ=local)')
            [CompletionResult]::new('-v', '-v', [CompletionResultType]::ParameterName, '-v: one line per HTTP request on stderr; -vv: also headers and bodies (secrets redacted)')
            [CompletionResult]::new('--verbose', '--verbose', [CompletionResultType]::ParameterName, '-v: one line per HTTP request on stderr; -vv: also headers and bodies (secrets redacted)')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'No spinner, notes or warnings')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'No spinner, notes or warnings')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'ylemctl;alias;remove' {
            [CompletionResult]::new('-p', '-p', [CompletionResultType]::ParameterName, 'Profile to use')
            [CompletionResult]::new('--profile', '--profile', [CompletionResultType]::ParameterName, 'Profile to use')
            [CompletionResult]::new('--base-url', '--base-url', [CompletionResultType]::ParameterName, 'Base URL of the service (a profile''s credentials go only to its own)')
            [CompletionResult]::new('-o', '-o', [CompletionResultType]::ParameterName, 'Output format (prometheus: stats, last-run, status and check; junit: run pipeline --wait and runs --run)')
            [CompletionResult]::new('--output', '--output', [CompletionResultType]::ParameterName, 'Output format (prometheus: stats, last-run, status and check; junit: run pipeline --wait and runs --run)')
            [CompletionResult]::new('--jq', '--jq', [CompletionResultType]::ParameterName, 'Filter the JSON output with a jq expression, as gh --jq: strings raw (escaped on a terminal; off it a string may span lines: use tojson for one a line), other values compact, one a line; each row of logs, runs and -o jsonl on its own (implies -o json; exit 2 for a bad expression, before any request)')
            [CompletionResult]::new('--fields', '--fields', [CompletionResultType]::ParameterName, 'Columns or keys to keep, in this order (comma-separated); a table never leaves them out to fit the terminal')
            [CompletionResult]::new('--output-file', '--output-file', [CompletionResultType]::ParameterName, 'With -o prometheus: write the exposition to PATH atomically (a temporary file in the same directory, then renamed), for node_exporter''s textfile collector')
            [CompletionResult]::new('--connect-timeout', '--connect-timeout', [CompletionResultType]::ParameterName, 'Longest time to connect (TCP and TLS) [default: 10s]')
            [CompletionResult]::new('--timeout', '--timeout', [CompletionResultType]::ParameterName, 'Longest wait for the server with no progress: the first byte, any stall between bytes; a body that keeps arriving is never cut [default: 60s]')
            [CompletionResult]::new('--max-time', '--max-time', [CompletionResultType]::ParameterName, 'Longest time for the whole command, retries and waits included (off by default; `check` defaults to 50s, inside a monitoring plugin''s 60 s)')
            [CompletionResult]::new('--settle', '--settle', [CompletionResultType]::ParameterName, 'The settle time of every command that judges a run (run --wait, runs, last-run, check, status, watch, metrics serve, logs -f --run): a pipeline run without a known task set has finished when no new task reported for this long, a workflow''s success counts after it (also YLEM_SETTLE, or the profile''s settle) [default: a pipeline''s 3x the longest gap between two tasks of its past runs, at least 10s, 10m without history; a workflow''s 10m]')
            [CompletionResult]::new('--retries', '--retries', [CompletionResultType]::ParameterName, 'Retries of idempotent requests (GET, token); a run start is never retried [default: 2]')
            [CompletionResult]::new('--concurrency', '--concurrency', [CompletionResultType]::ParameterName, 'Requests in flight at once when several IDs are given [default: 8]')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'When to use colour (NO_COLOR turns it off even with always; CLICOLOR_FORCE on in auto)')
            [CompletionResult]::new('--profile-only', '--profile-only', [CompletionResultType]::ParameterName, 'From the profile in use''s own aliases, not the global ones')
            [CompletionResult]::new('--no-header', '--no-header', [CompletionResultType]::ParameterName, 'No header row (table, csv)')
            [CompletionResult]::new('--csv-raw', '--csv-raw', [CompletionResultType]::ParameterName, 'With -o csv: text cells as sent (by default one starting with = + - @, tab or CR gets a '' in front, so a spreadsheet does not run it as a formula, and control characters are escaped as in tables)')
            [CompletionResult]::new('--local', '--local', [CompletionResultType]::ParameterName, 'Read naive times and show times in the local time zone (also YLEM_TZ=local)')
            [CompletionResult]::new('-v', '-v', [CompletionResultType]::ParameterName, '-v: one line per HTTP request on stderr; -vv: also headers and bodies (secrets redacted)')
            [CompletionResult]::new('--verbose', '--verbose', [CompletionResultType]::ParameterName, '-v: one line per HTTP request on stderr; -vv: also headers and bodies (secrets redacted)')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'No spinner, notes or warnings')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'No spinner, notes or warnings')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'ylemctl;alias;help' {
            [CompletionResult]::new('set', 'set', [CompletionResultType]::ParameterValue, 'Name a UUID (replaces an alias of the same name)')
            [CompletionResult]::new('list', 'list', [CompletionResultType]::ParameterValue, 'List the aliases')
            [CompletionResult]::new('remove', 'remove', [CompletionResultType]::ParameterValue, 'Remove an alias')
            [CompletionResult]::new('help', 'help', [CompletionResultType]::ParameterValue, 'Print this message or the help of the given subcommand(s)')
            break
        }
        'ylemctl;alias;help;set' {
            break
        }
        'ylemctl;alias;help;list' {
            break
        }
        'ylemctl;alias;help;remove' {
            break
        }
        'ylemctl;alias;help;help' {
            break
        }
        'ylemctl;completions' {
            [CompletionResult]::new('-p', '-p', [CompletionResultType]::ParameterName, 'Profile to use')
            [CompletionResult]::new('--profile', '--profile', [CompletionResultType]::ParameterName, 'Profile to use')
            [CompletionResult]::new('--base-url', '--base-url', [CompletionResultType]::ParameterName, 'Base URL of the service (a profile''s credentials go only to its own)')
            [CompletionResult]::new('-o', '-o', [CompletionResultType]::ParameterName, 'Output format (prometheus: stats, last-run, status and check; junit: run pipeline --wait and runs --run)')
            [CompletionResult]::new('--output', '--output', [CompletionResultType]::ParameterName, 'Output format (prometheus: stats, last-run, status and check; junit: run pipeline --wait and runs --run)')
            [CompletionResult]::new('--jq', '--jq', [CompletionResultType]::ParameterName, 'Filter the JSON output with a jq expression, as gh --jq: strings raw (escaped on a terminal; off it a string may span lines: use tojson for one a line), other values compact, one a line; each row of logs, runs and -o jsonl on its own (implies -o json; exit 2 for a bad expression, before any request)')
            [CompletionResult]::new('--fields', '--fields', [CompletionResultType]::ParameterName, 'Columns or keys to keep, in this order (comma-separated); a table never leaves them out to fit the terminal')
            [CompletionResult]::new('--connect-timeout', '--connect-timeout', [CompletionResultType]::ParameterName, 'Longest time to connect (TCP and TLS) [default: 10s]')
            [CompletionResult]::new('--timeout', '--timeout', [CompletionResultType]::ParameterName, 'Longest wait for the server with no progress: the first byte, any stall between bytes; a body that keeps arriving is never cut [default: 60s]')
            [CompletionResult]::new('--max-time', '--max-time', [CompletionResultType]::ParameterName, 'Longest time for the whole command, retries and waits included (off by default; `check` defaults to 50s, inside a monitoring plugin''s 60 s)')
            [CompletionResult]::new('--retries', '--retries', [CompletionResultType]::ParameterName, 'Retries of idempotent requests (GET, token); a run start is never retried [default: 2]')
            [CompletionResult]::new('--concurrency', '--concurrency', [CompletionResultType]::ParameterName, 'Requests in flight at once when several IDs are given [default: 8]')
            [CompletionResult]::new('--output-file', '--output-file', [CompletionResultType]::ParameterName, 'With -o prometheus: write the exposition to PATH atomically (a temporary file in the same directory, then renamed), for node_exporter''s textfile collector')
            [CompletionResult]::new('--settle', '--settle', [CompletionResultType]::ParameterName, 'The settle time of every command that judges a run (run --wait, runs, last-run, check, status, watch, metrics serve, logs -f --run): a pipeline run without a known task set has finished when no new task reported for this long, a workflow''s success counts after it (also YLEM_SETTLE, or the profile''s settle) [default: a pipeline''s 3x the longest gap between two tasks of its past runs, at least 10s, 10m without history; a workflow''s 10m]')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'When to use colour (NO_COLOR turns it off even with always; CLICOLOR_FORCE on in auto)')
            [CompletionResult]::new('--no-header', '--no-header', [CompletionResultType]::ParameterName, 'No header row (table, csv)')
            [CompletionResult]::new('--csv-raw', '--csv-raw', [CompletionResultType]::ParameterName, 'With -o csv: text cells as sent (by default one starting with = + - @, tab or CR gets a '' in front, so a spreadsheet does not run it as a formula, and control characters are escaped as in tables)')
            [CompletionResult]::new('--local', '--local', [CompletionResultType]::ParameterName, 'Read naive times and show times in the local time zone (also YLEM_TZ=local)')
            [CompletionResult]::new('-v', '-v', [CompletionResultType]::ParameterName, '-v: one line per HTTP request on stderr; -vv: also headers and bodies (secrets redacted)')
            [CompletionResult]::new('--verbose', '--verbose', [CompletionResultType]::ParameterName, '-v: one line per HTTP request on stderr; -vv: also headers and bodies (secrets redacted)')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'No spinner, notes or warnings')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'No spinner, notes or warnings')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'ylemctl;help' {
            [CompletionResult]::new('run', 'run', [CompletionResultType]::ParameterValue, 'Start runs of pipelines or workflows (runs are not idempotent: never retried)')
            [CompletionResult]::new('logs', 'logs', [CompletionResultType]::ParameterValue, 'Show a pipeline''s run log over a time window')
            [CompletionResult]::new('runs', 'runs', [CompletionResultType]::ParameterValue, 'A pipeline''s runs over a time window, newest first, with their result; or one run whole (--run)')
            [CompletionResult]::new('stats', 'stats', [CompletionResultType]::ParameterValue, 'Consolidated statistics over a time window (default: the last 24 hours)')
            [CompletionResult]::new('aggregate', 'aggregate', [CompletionResultType]::ParameterValue, 'Statistics per day, week, month, quarter or year')
            [CompletionResult]::new('last-run', 'last-run', [CompletionResultType]::ParameterValue, 'Statistics of the last run')
            [CompletionResult]::new('check', 'check', [CompletionResultType]::ParameterValue, 'A monitoring check (Nagios, Icinga, Zabbix, cron): one status line, exit 0 OK, 1 WARNING, 2 CRITICAL, 3 UNKNOWN')
            [CompletionResult]::new('status', 'status', [CompletionResultType]::ParameterValue, 'One row per pipeline, workflow or task: last run, runs and failures in 24 h, a 7-day failure sparkline')
            [CompletionResult]::new('doctor', 'doctor', [CompletionResultType]::ParameterValue, 'Say why the tool cannot talk to the service, and what to do: set-up, network and TLS, clock, credentials, the API, aliases')
            [CompletionResult]::new('watch', 'watch', [CompletionResultType]::ParameterValue, 'Watch pipelines, workflows and tasks live: a board on a terminal, an event stream (JSON lines) for scripts')
            [CompletionResult]::new('metrics', 'metrics', [CompletionResultType]::ParameterValue, 'A Prometheus exporter: serve /metrics for IDs and aliases')
            [CompletionResult]::new('export', 'export', [CompletionResultType]::ParameterValue, 'Export finished runs: each a trace (OpenTelemetry) or run events (OpenLineage)')
            [CompletionResult]::new('sandbox', 'sandbox', [CompletionResultType]::ParameterValue, 'Serve the whole API on loopback from memory, for trying ylemctl and testing scripts')
            [CompletionResult]::new('demo', 'demo', [CompletionResultType]::ParameterValue, 'Start a sandbox in-process and walk through every command against it')
            [CompletionResult]::new('login', 'login', [CompletionResultType]::ParameterValue, 'Log in with an OAuth client: check it by fetching a token, then save it in the profile')
            [CompletionResult]::new('logout', 'logout', [CompletionResultType]::ParameterValue, 'Remove the profile''s stored secret and token (its base URL and client id stay)')
            [CompletionResult]::new('auth', 'auth', [CompletionResultType]::ParameterValue, 'Show the login state, or print a token for other tools')
            [CompletionResult]::new('alias', 'alias', [CompletionResultType]::ParameterValue, 'Names for UUIDs, usable wherever an ID is')
            [CompletionResult]::new('completions', 'completions', [CompletionResultType]::ParameterValue, 'Print a shell completion script')
            [CompletionResult]::new('help', 'help', [CompletionResultType]::ParameterValue, 'Print this message or the help of the given subcommand(s)')
            break
        }
        'ylemctl;help;run' {
            break
        }
        'ylemctl;help;logs' {
            break
        }
        'ylemctl;help;runs' {
            break
        }
        'ylemctl;help;stats' {
            break
        }
        'ylemctl;help;aggregate' {
            break
        }
        'ylemctl;help;last-run' {
            break
        }
        'ylemctl;help;check' {
            break
        }
        'ylemctl;help;status' {
            break
        }
        'ylemctl;help;doctor' {
            break
        }
        'ylemctl;help;watch' {
            break
        }
        'ylemctl;help;metrics' {
            [CompletionResult]::new('serve', 'serve', [CompletionResultType]::ParameterValue, 'Serve /metrics (Prometheus text format) and / until Ctrl-C or SIGTERM, fetching on scrape')
            break
        }
        'ylemctl;help;metrics;serve' {
            break
        }
        'ylemctl;help;export' {
            [CompletionResult]::new('otlp', 'otlp', [CompletionResultType]::ParameterValue, 'Each finished pipeline run as one OpenTelemetry trace, by OTLP/HTTP (or OTLP JSON lines on stdout)')
            [CompletionResult]::new('openlineage', 'openlineage', [CompletionResultType]::ParameterValue, 'Each finished pipeline run as an OpenLineage START and COMPLETE or FAIL event (POSTed, or JSON lines on stdout)')
            break
        }
        'ylemctl;help;export;otlp' {
            break
        }
        'ylemctl;help;export;openlineage' {
            break
        }
        'ylemctl;help;sandbox' {
            break
        }
        'ylemctl;help;demo' {
            break
        }
        'ylemctl;help;login' {
            break
        }
        'ylemctl;help;logout' {
            break
        }
        'ylemctl;help;auth' {
            [CompletionResult]::new('status', 'status', [CompletionResultType]::ParameterValue, 'Profile, base URL, client id, the URL its credentials are bound to, store and token expiry (never the token)')
            [CompletionResult]::new('token', 'token', [CompletionResultType]::ParameterValue, 'Print a valid access token on standard output, for other tools')
            break
        }
        'ylemctl;help;auth;status' {
            break
        }
        'ylemctl;help;auth;token' {
            break
        }
        'ylemctl;help;alias' {
            [CompletionResult]::new('set', 'set', [CompletionResultType]::ParameterValue, 'Name a UUID (replaces an alias of the same name)')
            [CompletionResult]::new('list', 'list', [CompletionResultType]::ParameterValue, 'List the aliases')
            [CompletionResult]::new('remove', 'remove', [CompletionResultType]::ParameterValue, 'Remove an alias')
            break
        }
        'ylemctl;help;alias;set' {
            break
        }
        'ylemctl;help;alias;list' {
            break
        }
        'ylemctl;help;alias;remove' {
            break
        }
        'ylemctl;help;completions' {
            break
        }
        'ylemctl;help;help' {
            break
        }
    })

    $completions.Where{ $_.CompletionText -like "$wordToComplete*" } |
        Sort-Object -Property ListItemText
}
