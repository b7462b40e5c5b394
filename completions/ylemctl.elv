
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
            cand login 'Log in with an OAuth client: check it by fetching a token, then save it in the profile'
            cand logout 'Remove the profile''s stored secret and token (its base URL and client id stay)'
            cand auth 'Show the login state, or print a token for other tools'
            cand completions 'Print a shell completion script'
            cand help 'Print this message or the help of the given subcommand(s)'
        }
        &'ylemctl;run'= {
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
        &'ylemctl;logs'= {
            cand --from 'Start: YYYY-MM-DD[ HH:MM:SS], ISO 8601, now, today, yesterday, or an age such as 7d'
            cand --to 'End (inclusive; a bare date means the end of that day)'
            cand --since 'Start of a window that ends now, e.g. 90m, 24h, 7d, 2w, or a TIME'
            cand --run 'Only entries of this run'
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
            cand login 'Log in with an OAuth client: check it by fetching a token, then save it in the profile'
            cand logout 'Remove the profile''s stored secret and token (its base URL and client id stay)'
            cand auth 'Show the login state, or print a token for other tools'
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
        &'ylemctl;help;completions'= {
        }
        &'ylemctl;help;help'= {
        }
    ]
    $completions[$command]
}
