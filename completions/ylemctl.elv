
use builtin;
use str;

set edit:completion:arg-completer[ylemctl] = {|@words|
    fn spaces {|n|
        builtin:repeat $n ' ' | str:join ''
    }
    fn cand {|text desc|
        edit:complex-candidate $text &display=$text' '(spaces (- 14 (wcswidth $text)))$desc
    }
    var command = 'ylemctl'
    for word $words[1..-1] {
        if (str:has-prefix $word '-') {
            break
        }
        set command = $command';'$word
    }
    var completions = [
        &'ylemctl'= {
            cand -p 'Profile to use'
            cand --profile 'Profile to use'
            cand --base-url 'Base URL of the service (overrides the profile''s)'
            cand -o 'Output format'
            cand --output 'Output format'
            cand --fields 'Columns or keys to keep, in this order (comma-separated)'
            cand --timeout 'Time limit of each request, e.g. 30s, 2m'
            cand --retries 'Retries of idempotent requests (GET, token)'
            cand --concurrency 'Requests in flight at once when several IDs are given'
            cand --color 'When to use colour (NO_COLOR disables it in auto)'
            cand --no-header 'No header row (table, csv)'
            cand --local 'Read naive times and show times in the local time zone (also YLEM_TZ=local)'
            cand -v '-v: one line per HTTP request on stderr; -vv: also headers and bodies (secrets redacted)'
            cand --verbose '-v: one line per HTTP request on stderr; -vv: also headers and bodies (secrets redacted)'
            cand -q 'No spinner, notes or warnings'
            cand --quiet 'No spinner, notes or warnings'
            cand -h 'Print help'
            cand --help 'Print help'
            cand -V 'Print version'
            cand --version 'Print version'
            cand run 'Start runs of pipelines or workflows (runs are not idempotent: never retried)'
            cand logs 'Show a pipeline''s run log over a time window'
            cand stats 'Consolidated statistics over a time window (default: the last 24 hours)'
            cand aggregate 'Statistics per day, week, month, quarter or year'
            cand last-run 'Statistics of the last run'
            cand check 'A monitoring check (Nagios, Icinga, Zabbix, cron): one status line, exit 0 OK, 1 WARNING, 2 CRITICAL, 3 UNKNOWN'
            cand sandbox 'Serve the whole API on loopback from memory, for trying ylemctl and testing scripts'
            cand demo 'Start a sandbox in-process and walk through every command against it'
            cand login 'Log in with an OAuth client: check it by fetching a token, then save it in the profile'
            cand logout 'Remove the profile''s stored secret and token (its base URL and client id stay)'
            cand auth 'Show the login state, or print a token for other tools'
            cand alias 'Names for UUIDs, usable wherever an ID is'
            cand completions 'Print a shell completion script'
            cand help 'Print this message or the help of the given subcommand(s)'
        }
        &'ylemctl;run'= {
            cand --poll 'Longest pause between two looks at a run being waited for'
            cand -p 'Profile to use'
            cand --profile 'Profile to use'
            cand --base-url 'Base URL of the service (overrides the profile''s)'
            cand -o 'Output format'
            cand --output 'Output format'
            cand --fields 'Columns or keys to keep, in this order (comma-separated)'
            cand --timeout 'Time limit of each request, e.g. 30s, 2m'
            cand --retries 'Retries of idempotent requests (GET, token)'
            cand --concurrency 'Requests in flight at once when several IDs are given'
            cand --color 'When to use colour (NO_COLOR disables it in auto)'
            cand --wait 'Follow the runs until they finish: exit 0 when every task succeeded, 7 when one failed, 8 when --timeout (default 30m with --wait) ran out'
            cand --no-header 'No header row (table, csv)'
            cand --local 'Read naive times and show times in the local time zone (also YLEM_TZ=local)'
            cand -v '-v: one line per HTTP request on stderr; -vv: also headers and bodies (secrets redacted)'
            cand --verbose '-v: one line per HTTP request on stderr; -vv: also headers and bodies (secrets redacted)'
            cand -q 'No spinner, notes or warnings'
            cand --quiet 'No spinner, notes or warnings'
            cand -h 'Print help'
            cand --help 'Print help'
            cand -V 'Print version'
            cand --version 'Print version'
        }
        &'ylemctl;logs'= {
            cand --from 'Start: YYYY-MM-DD[ HH:MM:SS], ISO 8601, now, today, yesterday, or an age such as 7d'
            cand --to 'End (inclusive; a bare date means the end of that day)'
            cand --since 'Start of a window that ends now, e.g. 90m, 24h, 7d, 2w, or a TIME'
            cand --run 'Only entries of this run'
            cand --decrypt-key-file 'Decrypt `output` (AES-256-GCM, 12-byte nonce first) with the key in FILE: 32 raw bytes, hex or Base64'
            cand -p 'Profile to use'
            cand --profile 'Profile to use'
            cand --base-url 'Base URL of the service (overrides the profile''s)'
            cand -o 'Output format'
            cand --output 'Output format'
            cand --fields 'Columns or keys to keep, in this order (comma-separated)'
            cand --timeout 'Time limit of each request, e.g. 30s, 2m'
            cand --retries 'Retries of idempotent requests (GET, token)'
            cand --concurrency 'Requests in flight at once when several IDs are given'
            cand --color 'When to use colour (NO_COLOR disables it in auto)'
            cand --failed 'Only failed entries'
            cand --decode 'Decode `output` from Base64 to text (JSON is pretty-printed in tables, embedded in json/jsonl)'
            cand --no-header 'No header row (table, csv)'
            cand --local 'Read naive times and show times in the local time zone (also YLEM_TZ=local)'
            cand -v '-v: one line per HTTP request on stderr; -vv: also headers and bodies (secrets redacted)'
            cand --verbose '-v: one line per HTTP request on stderr; -vv: also headers and bodies (secrets redacted)'
            cand -q 'No spinner, notes or warnings'
            cand --quiet 'No spinner, notes or warnings'
            cand -h 'Print help'
            cand --help 'Print help'
            cand -V 'Print version'
            cand --version 'Print version'
        }
        &'ylemctl;stats'= {
            cand --from 'Start: YYYY-MM-DD[ HH:MM:SS], ISO 8601, now, today, yesterday, or an age such as 7d'
            cand --to 'End (inclusive; a bare date means the end of that day)'
            cand --since 'Start of a window that ends now, e.g. 90m, 24h, 7d, 2w, or a TIME'
            cand -p 'Profile to use'
            cand --profile 'Profile to use'
            cand --base-url 'Base URL of the service (overrides the profile''s)'
            cand -o 'Output format'
            cand --output 'Output format'
            cand --fields 'Columns or keys to keep, in this order (comma-separated)'
            cand --timeout 'Time limit of each request, e.g. 30s, 2m'
            cand --retries 'Retries of idempotent requests (GET, token)'
            cand --concurrency 'Requests in flight at once when several IDs are given'
            cand --color 'When to use colour (NO_COLOR disables it in auto)'
            cand --no-header 'No header row (table, csv)'
            cand --local 'Read naive times and show times in the local time zone (also YLEM_TZ=local)'
            cand -v '-v: one line per HTTP request on stderr; -vv: also headers and bodies (secrets redacted)'
            cand --verbose '-v: one line per HTTP request on stderr; -vv: also headers and bodies (secrets redacted)'
            cand -q 'No spinner, notes or warnings'
            cand --quiet 'No spinner, notes or warnings'
            cand -h 'Print help'
            cand --help 'Print help'
            cand -V 'Print version'
            cand --version 'Print version'
        }
        &'ylemctl;aggregate'= {
            cand --from 'Start of the first period (default: so that the last period is the current one)'
            cand --period 'Length of each period'
            cand --count 'Number of periods (1 or more)'
            cand -p 'Profile to use'
            cand --profile 'Profile to use'
            cand --base-url 'Base URL of the service (overrides the profile''s)'
            cand -o 'Output format'
            cand --output 'Output format'
            cand --fields 'Columns or keys to keep, in this order (comma-separated)'
            cand --timeout 'Time limit of each request, e.g. 30s, 2m'
            cand --retries 'Retries of idempotent requests (GET, token)'
            cand --concurrency 'Requests in flight at once when several IDs are given'
            cand --color 'When to use colour (NO_COLOR disables it in auto)'
            cand --chart 'Draw successes and failures per period as a bar chart'
            cand --no-header 'No header row (table, csv)'
            cand --local 'Read naive times and show times in the local time zone (also YLEM_TZ=local)'
            cand -v '-v: one line per HTTP request on stderr; -vv: also headers and bodies (secrets redacted)'
            cand --verbose '-v: one line per HTTP request on stderr; -vv: also headers and bodies (secrets redacted)'
            cand -q 'No spinner, notes or warnings'
            cand --quiet 'No spinner, notes or warnings'
            cand -h 'Print help'
            cand --help 'Print help'
            cand -V 'Print version'
            cand --version 'Print version'
        }
        &'ylemctl;last-run'= {
            cand -p 'Profile to use'
            cand --profile 'Profile to use'
            cand --base-url 'Base URL of the service (overrides the profile''s)'
            cand -o 'Output format'
            cand --output 'Output format'
            cand --fields 'Columns or keys to keep, in this order (comma-separated)'
            cand --timeout 'Time limit of each request, e.g. 30s, 2m'
            cand --retries 'Retries of idempotent requests (GET, token)'
            cand --concurrency 'Requests in flight at once when several IDs are given'
            cand --color 'When to use colour (NO_COLOR disables it in auto)'
            cand --fail-on-failure 'Exit 7 when a last run failed (for `cron && ...` chains)'
            cand --no-header 'No header row (table, csv)'
            cand --local 'Read naive times and show times in the local time zone (also YLEM_TZ=local)'
            cand -v '-v: one line per HTTP request on stderr; -vv: also headers and bodies (secrets redacted)'
            cand --verbose '-v: one line per HTTP request on stderr; -vv: also headers and bodies (secrets redacted)'
            cand -q 'No spinner, notes or warnings'
            cand --quiet 'No spinner, notes or warnings'
            cand -h 'Print help'
            cand --help 'Print help'
            cand -V 'Print version'
            cand --version 'Print version'
        }
        &'ylemctl;check'= {
            cand --max-age 'Stale when the last run is older: CRIT or WARN,CRIT, e.g. 25h,49h'
            cand --max-failure-rate 'Failed share of runs in --window, in percent: CRIT or WARN,CRIT, e.g. 10,25'
            cand --window 'Window of --max-failure-rate'
            cand --max-duration 'Longest acceptable last run: CRIT or WARN,CRIT, e.g. 5m,15m'
            cand -p 'Profile to use'
            cand --profile 'Profile to use'
            cand --base-url 'Base URL of the service (overrides the profile''s)'
            cand -o 'Output format'
            cand --output 'Output format'
            cand --fields 'Columns or keys to keep, in this order (comma-separated)'
            cand --timeout 'Time limit of each request, e.g. 30s, 2m'
            cand --retries 'Retries of idempotent requests (GET, token)'
            cand --concurrency 'Requests in flight at once when several IDs are given'
            cand --color 'When to use colour (NO_COLOR disables it in auto)'
            cand --no-header 'No header row (table, csv)'
            cand --local 'Read naive times and show times in the local time zone (also YLEM_TZ=local)'
            cand -v '-v: one line per HTTP request on stderr; -vv: also headers and bodies (secrets redacted)'
            cand --verbose '-v: one line per HTTP request on stderr; -vv: also headers and bodies (secrets redacted)'
            cand -q 'No spinner, notes or warnings'
            cand --quiet 'No spinner, notes or warnings'
            cand -h 'Print help'
            cand --help 'Print help'
            cand -V 'Print version'
            cand --version 'Print version'
        }
        &'ylemctl;sandbox'= {
            cand --listen 'Loopback address to listen on (port 0 picks a free one)'
            cand --seed 'Seed of the generated pipelines, workflows, tasks and history'
            cand --dialect 'Behave as the specification says, or as the open-source server does'
            cand --latency 'Delay added before every response, e.g. 100ms'
            cand --fail-rate 'Share of requests answered 503, from 0 to 1'
            cand --token-ttl 'Lifetime of issued tokens'
            cand --task-delay 'Live time of one second of task time: each task of a started run reports after its duration times this'
            cand -p 'Profile to use'
            cand --profile 'Profile to use'
            cand --base-url 'Base URL of the service (overrides the profile''s)'
            cand -o 'Output format'
            cand --output 'Output format'
            cand --fields 'Columns or keys to keep, in this order (comma-separated)'
            cand --timeout 'Time limit of each request, e.g. 30s, 2m'
            cand --retries 'Retries of idempotent requests (GET, token)'
            cand --concurrency 'Requests in flight at once when several IDs are given'
            cand --color 'When to use colour (NO_COLOR disables it in auto)'
            cand --no-header 'No header row (table, csv)'
            cand --local 'Read naive times and show times in the local time zone (also YLEM_TZ=local)'
            cand -v '-v: one line per HTTP request on stderr; -vv: also headers and bodies (secrets redacted)'
            cand --verbose '-v: one line per HTTP request on stderr; -vv: also headers and bodies (secrets redacted)'
            cand -q 'No spinner, notes or warnings'
            cand --quiet 'No spinner, notes or warnings'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
            cand -V 'Print version'
            cand --version 'Print version'
        }
        &'ylemctl;demo'= {
            cand -p 'Profile to use'
            cand --profile 'Profile to use'
            cand --base-url 'Base URL of the service (overrides the profile''s)'
            cand -o 'Output format'
            cand --output 'Output format'
            cand --fields 'Columns or keys to keep, in this order (comma-separated)'
            cand --timeout 'Time limit of each request, e.g. 30s, 2m'
            cand --retries 'Retries of idempotent requests (GET, token)'
            cand --concurrency 'Requests in flight at once when several IDs are given'
            cand --color 'When to use colour (NO_COLOR disables it in auto)'
            cand --no-header 'No header row (table, csv)'
            cand --local 'Read naive times and show times in the local time zone (also YLEM_TZ=local)'
            cand -v '-v: one line per HTTP request on stderr; -vv: also headers and bodies (secrets redacted)'
            cand --verbose '-v: one line per HTTP request on stderr; -vv: also headers and bodies (secrets redacted)'
            cand -q 'No spinner, notes or warnings'
            cand --quiet 'No spinner, notes or warnings'
            cand -h 'Print help'
            cand --help 'Print help'
            cand -V 'Print version'
            cand --version 'Print version'
        }
        &'ylemctl;login'= {
            cand --client-id 'OAuth client id (asked for on a terminal when missing)'
            cand --store 'Where to keep the secret and tokens (default auto; also YLEM_CREDENTIAL_STORE)'
            cand -p 'Profile to use'
            cand --profile 'Profile to use'
            cand --base-url 'Base URL of the service (overrides the profile''s)'
            cand -o 'Output format'
            cand --output 'Output format'
            cand --fields 'Columns or keys to keep, in this order (comma-separated)'
            cand --timeout 'Time limit of each request, e.g. 30s, 2m'
            cand --retries 'Retries of idempotent requests (GET, token)'
            cand --concurrency 'Requests in flight at once when several IDs are given'
            cand --color 'When to use colour (NO_COLOR disables it in auto)'
            cand --client-secret-stdin 'Read the client secret from standard input instead of asking'
            cand --no-header 'No header row (table, csv)'
            cand --local 'Read naive times and show times in the local time zone (also YLEM_TZ=local)'
            cand -v '-v: one line per HTTP request on stderr; -vv: also headers and bodies (secrets redacted)'
            cand --verbose '-v: one line per HTTP request on stderr; -vv: also headers and bodies (secrets redacted)'
            cand -q 'No spinner, notes or warnings'
            cand --quiet 'No spinner, notes or warnings'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
            cand -V 'Print version'
            cand --version 'Print version'
        }
        &'ylemctl;logout'= {
            cand -p 'Profile to use'
            cand --profile 'Profile to use'
            cand --base-url 'Base URL of the service (overrides the profile''s)'
            cand -o 'Output format'
            cand --output 'Output format'
            cand --fields 'Columns or keys to keep, in this order (comma-separated)'
            cand --timeout 'Time limit of each request, e.g. 30s, 2m'
            cand --retries 'Retries of idempotent requests (GET, token)'
            cand --concurrency 'Requests in flight at once when several IDs are given'
            cand --color 'When to use colour (NO_COLOR disables it in auto)'
            cand --no-header 'No header row (table, csv)'
            cand --local 'Read naive times and show times in the local time zone (also YLEM_TZ=local)'
            cand -v '-v: one line per HTTP request on stderr; -vv: also headers and bodies (secrets redacted)'
            cand --verbose '-v: one line per HTTP request on stderr; -vv: also headers and bodies (secrets redacted)'
            cand -q 'No spinner, notes or warnings'
            cand --quiet 'No spinner, notes or warnings'
            cand -h 'Print help'
            cand --help 'Print help'
            cand -V 'Print version'
            cand --version 'Print version'
        }
        &'ylemctl;auth'= {
            cand -p 'Profile to use'
            cand --profile 'Profile to use'
            cand --base-url 'Base URL of the service (overrides the profile''s)'
            cand -o 'Output format'
            cand --output 'Output format'
            cand --fields 'Columns or keys to keep, in this order (comma-separated)'
            cand --timeout 'Time limit of each request, e.g. 30s, 2m'
            cand --retries 'Retries of idempotent requests (GET, token)'
            cand --concurrency 'Requests in flight at once when several IDs are given'
            cand --color 'When to use colour (NO_COLOR disables it in auto)'
            cand --no-header 'No header row (table, csv)'
            cand --local 'Read naive times and show times in the local time zone (also YLEM_TZ=local)'
            cand -v '-v: one line per HTTP request on stderr; -vv: also headers and bodies (secrets redacted)'
            cand --verbose '-v: one line per HTTP request on stderr; -vv: also headers and bodies (secrets redacted)'
            cand -q 'No spinner, notes or warnings'
            cand --quiet 'No spinner, notes or warnings'
            cand -h 'Print help'
            cand --help 'Print help'
            cand -V 'Print version'
            cand --version 'Print version'
            cand status 'Profile, base URL, client id, credential store and token expiry (never the token)'
            cand token 'Print a valid access token on standard output, for other tools'
            cand help 'Print this message or the help of the given subcommand(s)'
        }
        &'ylemctl;auth;status'= {
            cand -p 'Profile to use'
            cand --profile 'Profile to use'
            cand --base-url 'Base URL of the service (overrides the profile''s)'
            cand -o 'Output format'
            cand --output 'Output format'
            cand --fields 'Columns or keys to keep, in this order (comma-separated)'
            cand --timeout 'Time limit of each request, e.g. 30s, 2m'
            cand --retries 'Retries of idempotent requests (GET, token)'
            cand --concurrency 'Requests in flight at once when several IDs are given'
            cand --color 'When to use colour (NO_COLOR disables it in auto)'
            cand --no-header 'No header row (table, csv)'
            cand --local 'Read naive times and show times in the local time zone (also YLEM_TZ=local)'
            cand -v '-v: one line per HTTP request on stderr; -vv: also headers and bodies (secrets redacted)'
            cand --verbose '-v: one line per HTTP request on stderr; -vv: also headers and bodies (secrets redacted)'
            cand -q 'No spinner, notes or warnings'
            cand --quiet 'No spinner, notes or warnings'
            cand -h 'Print help'
            cand --help 'Print help'
            cand -V 'Print version'
            cand --version 'Print version'
        }
        &'ylemctl;auth;token'= {
            cand --min-ttl 'Fetch a new token unless the cached one stays valid this long, e.g. 10m'
            cand -p 'Profile to use'
            cand --profile 'Profile to use'
            cand --base-url 'Base URL of the service (overrides the profile''s)'
            cand -o 'Output format'
            cand --output 'Output format'
            cand --fields 'Columns or keys to keep, in this order (comma-separated)'
            cand --timeout 'Time limit of each request, e.g. 30s, 2m'
            cand --retries 'Retries of idempotent requests (GET, token)'
            cand --concurrency 'Requests in flight at once when several IDs are given'
            cand --color 'When to use colour (NO_COLOR disables it in auto)'
            cand --no-header 'No header row (table, csv)'
            cand --local 'Read naive times and show times in the local time zone (also YLEM_TZ=local)'
            cand -v '-v: one line per HTTP request on stderr; -vv: also headers and bodies (secrets redacted)'
            cand --verbose '-v: one line per HTTP request on stderr; -vv: also headers and bodies (secrets redacted)'
            cand -q 'No spinner, notes or warnings'
            cand --quiet 'No spinner, notes or warnings'
            cand -h 'Print help'
            cand --help 'Print help'
            cand -V 'Print version'
            cand --version 'Print version'
        }
        &'ylemctl;auth;help'= {
            cand status 'Profile, base URL, client id, credential store and token expiry (never the token)'
            cand token 'Print a valid access token on standard output, for other tools'
            cand help 'Print this message or the help of the given subcommand(s)'
        }
        &'ylemctl;auth;help;status'= {
        }
        &'ylemctl;auth;help;token'= {
        }
        &'ylemctl;auth;help;help'= {
        }
        &'ylemctl;alias'= {
            cand -p 'Profile to use'
            cand --profile 'Profile to use'
            cand --base-url 'Base URL of the service (overrides the profile''s)'
            cand -o 'Output format'
            cand --output 'Output format'
            cand --fields 'Columns or keys to keep, in this order (comma-separated)'
            cand --timeout 'Time limit of each request, e.g. 30s, 2m'
            cand --retries 'Retries of idempotent requests (GET, token)'
            cand --concurrency 'Requests in flight at once when several IDs are given'
            cand --color 'When to use colour (NO_COLOR disables it in auto)'
            cand --no-header 'No header row (table, csv)'
            cand --local 'Read naive times and show times in the local time zone (also YLEM_TZ=local)'
            cand -v '-v: one line per HTTP request on stderr; -vv: also headers and bodies (secrets redacted)'
            cand --verbose '-v: one line per HTTP request on stderr; -vv: also headers and bodies (secrets redacted)'
            cand -q 'No spinner, notes or warnings'
            cand --quiet 'No spinner, notes or warnings'
            cand -h 'Print help'
            cand --help 'Print help'
            cand -V 'Print version'
            cand --version 'Print version'
            cand set 'Name a UUID (replaces an alias of the same name)'
            cand list 'List the aliases'
            cand remove 'Remove an alias'
            cand help 'Print this message or the help of the given subcommand(s)'
        }
        &'ylemctl;alias;set'= {
            cand -p 'Profile to use'
            cand --profile 'Profile to use'
            cand --base-url 'Base URL of the service (overrides the profile''s)'
            cand -o 'Output format'
            cand --output 'Output format'
            cand --fields 'Columns or keys to keep, in this order (comma-separated)'
            cand --timeout 'Time limit of each request, e.g. 30s, 2m'
            cand --retries 'Retries of idempotent requests (GET, token)'
            cand --concurrency 'Requests in flight at once when several IDs are given'
            cand --color 'When to use colour (NO_COLOR disables it in auto)'
            cand --no-header 'No header row (table, csv)'
            cand --local 'Read naive times and show times in the local time zone (also YLEM_TZ=local)'
            cand -v '-v: one line per HTTP request on stderr; -vv: also headers and bodies (secrets redacted)'
            cand --verbose '-v: one line per HTTP request on stderr; -vv: also headers and bodies (secrets redacted)'
            cand -q 'No spinner, notes or warnings'
            cand --quiet 'No spinner, notes or warnings'
            cand -h 'Print help'
            cand --help 'Print help'
            cand -V 'Print version'
            cand --version 'Print version'
        }
        &'ylemctl;alias;list'= {
            cand -p 'Profile to use'
            cand --profile 'Profile to use'
            cand --base-url 'Base URL of the service (overrides the profile''s)'
            cand -o 'Output format'
            cand --output 'Output format'
            cand --fields 'Columns or keys to keep, in this order (comma-separated)'
            cand --timeout 'Time limit of each request, e.g. 30s, 2m'
            cand --retries 'Retries of idempotent requests (GET, token)'
            cand --concurrency 'Requests in flight at once when several IDs are given'
            cand --color 'When to use colour (NO_COLOR disables it in auto)'
            cand --names 'Only the names, one per line (for shell completion)'
            cand --no-header 'No header row (table, csv)'
            cand --local 'Read naive times and show times in the local time zone (also YLEM_TZ=local)'
            cand -v '-v: one line per HTTP request on stderr; -vv: also headers and bodies (secrets redacted)'
            cand --verbose '-v: one line per HTTP request on stderr; -vv: also headers and bodies (secrets redacted)'
            cand -q 'No spinner, notes or warnings'
            cand --quiet 'No spinner, notes or warnings'
            cand -h 'Print help'
            cand --help 'Print help'
            cand -V 'Print version'
            cand --version 'Print version'
        }
        &'ylemctl;alias;remove'= {
            cand -p 'Profile to use'
            cand --profile 'Profile to use'
            cand --base-url 'Base URL of the service (overrides the profile''s)'
            cand -o 'Output format'
            cand --output 'Output format'
            cand --fields 'Columns or keys to keep, in this order (comma-separated)'
            cand --timeout 'Time limit of each request, e.g. 30s, 2m'
            cand --retries 'Retries of idempotent requests (GET, token)'
            cand --concurrency 'Requests in flight at once when several IDs are given'
            cand --color 'When to use colour (NO_COLOR disables it in auto)'
            cand --no-header 'No header row (table, csv)'
            cand --local 'Read naive times and show times in the local time zone (also YLEM_TZ=local)'
            cand -v '-v: one line per HTTP request on stderr; -vv: also headers and bodies (secrets redacted)'
            cand --verbose '-v: one line per HTTP request on stderr; -vv: also headers and bodies (secrets redacted)'
            cand -q 'No spinner, notes or warnings'
            cand --quiet 'No spinner, notes or warnings'
            cand -h 'Print help'
            cand --help 'Print help'
            cand -V 'Print version'
            cand --version 'Print version'
        }
        &'ylemctl;alias;help'= {
            cand set 'Name a UUID (replaces an alias of the same name)'
            cand list 'List the aliases'
            cand remove 'Remove an alias'
            cand help 'Print this message or the help of the given subcommand(s)'
        }
        &'ylemctl;alias;help;set'= {
        }
        &'ylemctl;alias;help;list'= {
        }
        &'ylemctl;alias;help;remove'= {
        }
        &'ylemctl;alias;help;help'= {
        }
        &'ylemctl;completions'= {
            cand -p 'Profile to use'
            cand --profile 'Profile to use'
            cand --base-url 'Base URL of the service (overrides the profile''s)'
            cand -o 'Output format'
            cand --output 'Output format'
            cand --fields 'Columns or keys to keep, in this order (comma-separated)'
            cand --timeout 'Time limit of each request, e.g. 30s, 2m'
            cand --retries 'Retries of idempotent requests (GET, token)'
            cand --concurrency 'Requests in flight at once when several IDs are given'
            cand --color 'When to use colour (NO_COLOR disables it in auto)'
            cand --no-header 'No header row (table, csv)'
            cand --local 'Read naive times and show times in the local time zone (also YLEM_TZ=local)'
            cand -v '-v: one line per HTTP request on stderr; -vv: also headers and bodies (secrets redacted)'
            cand --verbose '-v: one line per HTTP request on stderr; -vv: also headers and bodies (secrets redacted)'
            cand -q 'No spinner, notes or warnings'
            cand --quiet 'No spinner, notes or warnings'
            cand -h 'Print help'
            cand --help 'Print help'
            cand -V 'Print version'
            cand --version 'Print version'
        }
        &'ylemctl;help'= {
            cand run 'Start runs of pipelines or workflows (runs are not idempotent: never retried)'
            cand logs 'Show a pipeline''s run log over a time window'
            cand stats 'Consolidated statistics over a time window (default: the last 24 hours)'
            cand aggregate 'Statistics per day, week, month, quarter or year'
            cand last-run 'Statistics of the last run'
            cand check 'A monitoring check (Nagios, Icinga, Zabbix, cron): one status line, exit 0 OK, 1 WARNING, 2 CRITICAL, 3 UNKNOWN'
            cand sandbox 'Serve the whole API on loopback from memory, for trying ylemctl and testing scripts'
            cand demo 'Start a sandbox in-process and walk through every command against it'
            cand login 'Log in with an OAuth client: check it by fetching a token, then save it in the profile'
            cand logout 'Remove the profile''s stored secret and token (its base URL and client id stay)'
            cand auth 'Show the login state, or print a token for other tools'
            cand alias 'Names for UUIDs, usable wherever an ID is'
            cand completions 'Print a shell completion script'
            cand help 'Print this message or the help of the given subcommand(s)'
        }
        &'ylemctl;help;run'= {
        }
        &'ylemctl;help;logs'= {
        }
        &'ylemctl;help;stats'= {
        }
        &'ylemctl;help;aggregate'= {
        }
        &'ylemctl;help;last-run'= {
        }
        &'ylemctl;help;check'= {
        }
        &'ylemctl;help;sandbox'= {
        }
        &'ylemctl;help;demo'= {
        }
        &'ylemctl;help;login'= {
        }
        &'ylemctl;help;logout'= {
        }
        &'ylemctl;help;auth'= {
            cand status 'Profile, base URL, client id, credential store and token expiry (never the token)'
            cand token 'Print a valid access token on standard output, for other tools'
        }
        &'ylemctl;help;auth;status'= {
        }
        &'ylemctl;help;auth;token'= {
        }
        &'ylemctl;help;alias'= {
            cand set 'Name a UUID (replaces an alias of the same name)'
            cand list 'List the aliases'
            cand remove 'Remove an alias'
        }
        &'ylemctl;help;alias;set'= {
        }
        &'ylemctl;help;alias;list'= {
        }
        &'ylemctl;help;alias;remove'= {
        }
        &'ylemctl;help;completions'= {
        }
        &'ylemctl;help;help'= {
        }
    ]
    $completions[$command]
}
