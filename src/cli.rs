//! The clap definition of every command and flag: parsing only records values.
//!
//! `command()` is what the completion and man-page generators and the tests
//! use; nothing here reads the environment beyond clap's `env` fallbacks for
//! the non-secret global options.

use std::net::SocketAddr;
use std::time::Duration;

use clap::{Args, CommandFactory, Parser, Subcommand, ValueEnum};

use crate::value_parsers::{self, Levels, Scopes};
use ylem_client::{Entity, Period, RunKind};

const EXAMPLES: &str = "\
Examples:
  ylemctl sandbox &                              # a local service to try things against
  ylemctl stats pipeline 3f2a1b4c-... --since 7d
  ylemctl logs 3f2a1b4c-... --from yesterday --to yesterday -o csv
  ylemctl aggregate pipeline 3f2a1b4c-... --period week --count 12
  ylemctl last-run task 0b6c...-... 9d1e...-... -o json
  ylemctl runs 3f2a1b4c-... --failed --jq .run_uuid     # a jq filter, as gh --jq
  ylemctl run pipeline 3f2a1b4c-...";

/// The exit codes every command that asks the service shares, as one line
/// at the end of its help (`man ylemctl` has them all).
/// The rule that keeps a profile's credentials with its service, in the
/// help (and so the man pages) of `login` and `auth`.
macro_rules! bound {
    () => {
        "\n\nA profile's secret and tokens are sent only to the base URL it logged in to: another --base-url or YLEM_BASE_URL (scheme, host, port or path) is refused before anything is sent (exit 3). Use -p PROFILE for another service, or log a profile in to it with 'ylemctl -p PROFILE login --base-url URL'. YLEM_TOKEN and YLEM_CLIENT_ID/YLEM_CLIENT_SECRET go to the base URL in effect. Plain http:// to another machine is warned about: credentials would travel in clear."
    };
}

macro_rules! exits {
    () => {
        "\n\nExit status: 0 ok, 2 usage, 3 auth, 4 not found, 5 server, 6 network, 130 interrupted"
    };
    ($extra:literal) => {
        concat!(
            "\n\nExit status: 0 ok, 2 usage, 3 auth, 4 not found, 5 server, 6 network, ",
            $extra,
            ", 130 interrupted"
        )
    };
}

/// `--version` and `-V`: the version, the commit it was built from and
/// that commit's date, "0.1.0 (307d23ec4 2026-12-01)" as uv says it
/// (build.rs and build_info.rs; outside git it says no commit was recorded).
const VERSION: &str = env!("YLEMCTL_VERSION");

/// Start and inspect pipeline and workflow runs of a Ylem service.
#[derive(Debug, Parser)]
#[command(
    name = "ylemctl",
    version = VERSION,
    after_help = EXAMPLES,
    propagate_version = true
)]
pub struct Cli {
    #[command(flatten)]
    pub global: GlobalArgs,
    #[command(subcommand)]
    pub command: Command,
}

/// Options accepted before or after the command, listed after the
/// command's own in its help.
#[derive(Debug, Args, Clone, Default)]
#[command(next_help_heading = "Global options")]
pub struct GlobalArgs {
    /// Profile to use
    #[arg(short, long, global = true, env = "YLEM_PROFILE", value_name = "NAME")]
    pub profile: Option<String>,
    /// Base URL of the service (a profile's credentials go only to its own)
    #[arg(long, global = true, env = "YLEM_BASE_URL", value_name = "URL")]
    pub base_url: Option<String>,
    /// Output format (prometheus: stats, last-run, status and check; junit: run pipeline --wait and runs --run)
    #[arg(short, long, global = true, env = "YLEM_OUTPUT", value_enum)]
    pub output: Option<Format>,
    /// Filter the JSON output with a jq expression, as gh --jq: strings raw (escaped on a terminal; off it a string may span lines: use tojson for one a line), other values compact, one a line; each row of logs, runs and -o jsonl on its own (implies -o json; exit 2 for a bad expression, before any request)
    #[arg(long, global = true, value_name = "EXPR")]
    pub jq: Option<String>,
    /// Columns or keys to keep, in this order (comma-separated); a table never leaves them out to fit the terminal
    #[arg(long, global = true, value_name = "a,b,c", value_delimiter = ',')]
    pub fields: Option<Vec<String>>,
    /// No header row (table, csv)
    #[arg(long, global = true)]
    pub no_header: bool,
    /// With -o csv: text cells as sent (by default one starting with = + - @, tab or CR gets a ' in front, so a spreadsheet does not run it as a formula, and control characters are escaped as in tables)
    #[arg(long, global = true)]
    pub csv_raw: bool,
    /// With -o prometheus: write the exposition to PATH atomically (a
    /// temporary file in the same directory, then renamed), for
    /// node_exporter's textfile collector
    #[arg(long, global = true, value_name = "PATH")]
    pub output_file: Option<std::path::PathBuf>,
    /// Read naive times and show times in the local time zone (also YLEM_TZ=local)
    #[arg(long, global = true)]
    pub local: bool,
    /// Longest time to connect (TCP and TLS) [default: 10s]
    #[arg(long, global = true, value_name = "DURATION", value_parser = value_parsers::positive_duration)]
    pub connect_timeout: Option<Duration>,
    /// Longest wait for the server with no progress: the first byte, any
    /// stall between bytes; a body that keeps arriving is never cut [default: 60s]
    #[arg(long, global = true, value_name = "DURATION", value_parser = value_parsers::positive_duration)]
    pub timeout: Option<Duration>,
    /// Longest time for the whole command, retries and waits included (off by
    /// default; `check` defaults to 50s, inside a monitoring plugin's 60 s)
    #[arg(long, global = true, value_name = "DURATION", value_parser = value_parsers::positive_duration)]
    pub max_time: Option<Duration>,
    /// The settle time of every command that judges a run (run --wait, runs, last-run, check, status, watch, metrics serve, logs -f --run): a pipeline run without a known task set has finished when no new task reported for this long, a workflow's success counts after it (also YLEM_SETTLE, or the profile's settle) [default: a pipeline's 3x the longest gap between two tasks of its past runs, at least 10s, 10m without history; a workflow's 10m]
    #[arg(long, global = true, env = "YLEM_SETTLE", value_name = "DURATION", value_parser = value_parsers::positive_duration)]
    pub settle: Option<Duration>,
    /// Retries of idempotent requests (GET, token); a run start is never retried [default: 2]
    #[arg(long, global = true, value_name = "N", value_parser = value_parsers::retries)]
    pub retries: Option<u32>,
    /// Requests in flight at once when several IDs are given [default: 8]
    #[arg(long, global = true, value_name = "N", value_parser = value_parsers::concurrency)]
    pub concurrency: Option<usize>,
    /// When to use colour (NO_COLOR turns it off even with always; CLICOLOR_FORCE on in auto)
    #[arg(long, global = true, value_enum, value_name = "WHEN")]
    pub color: Option<ColorChoice>,
    /// -v: one line per HTTP request on stderr; -vv: also headers and bodies (secrets redacted)
    #[arg(short, long, global = true, action = clap::ArgAction::Count)]
    pub verbose: u8,
    /// No spinner, notes or warnings
    #[arg(short, long, global = true)]
    pub quiet: bool,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum Format {
    Table,
    Json,
    Jsonl,
    Csv,
    // The Prometheus text exposition (stats, last-run, status, check); no
    // doc comment, so help lists the formats on one line.
    Prometheus,
    // The JUnit XML report of pipeline runs (run pipeline --wait, runs
    // --run), for CI test reporters.
    Junit,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum ColorChoice {
    Auto,
    Always,
    Never,
}

/// Where `login` keeps the client secret and tokens.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum StoreChoice {
    /// The OS keyring if it answers within 3 s, else the file
    Auto,
    /// The OS keyring (Secret Service, macOS Keychain, Windows Credential Manager)
    Keyring,
    /// A file of mode 0600 in a 0700 directory under the config directory
    File,
}

#[derive(Debug, Subcommand)]
pub enum Command {
    /// Start runs of pipelines or workflows (runs are not idempotent: never retried)
    #[command(
        override_usage = "ylemctl run pipeline <ID>... [--input JSON|@FILE|-] [--wait [--wait-timeout D] [--poll D] [--settle D] [--expect-tasks N]]\n       ylemctl run pipeline <ID> --rerun RUN_UUID [--since TIME | --from TIME --to TIME] [--wait ...]\n       ylemctl run workflow <ID>... [--wait ...]",
        after_help = concat!(
            "Examples:\n  ylemctl run pipeline 3f2a1b4c-0000-4000-8000-000000000001\n  ylemctl run workflow nightly-sync -o json\n  ylemctl run pipeline orders --input @order.json --wait\n  ylemctl run pipeline orders --input '{\"order_id\": 1001}'\n  jq -c .order webhook.json | ylemctl run pipeline orders returns --input -\n  ylemctl run pipeline orders --rerun 60b04f58-... --since 3d --wait   # again, with that run's input\n  ylemctl run pipeline orders --wait -o junit > report.xml   # a JUnit report for CI: a test case per task",
            exits!("7 a run failed, 8 --wait timed out"),
            ", 143 --wait stopped by SIGTERM",
            "\n\nSignals: Ctrl-C (SIGINT) or SIGTERM during --wait stops waiting; the run goes on on the server, and the error names it and the command that follows it (exit 130 for Ctrl-C, 143 for SIGTERM). Without --wait, SIGTERM keeps its default action."
        )
    )]
    Run(RunArgs),
    /// Show a pipeline's run log over a time window
    #[command(
        after_help = concat!(
            "Examples:\n  ylemctl logs 3f2a1b4c-... --since 2h\n  ylemctl logs 3f2a1b4c-... --from 2024-01-01 --to 2024-01-31 -o csv > january.csv\n  ylemctl logs 3f2a1b4c-... --failed -o jsonl | jq .task_uuid\n  ylemctl logs 3f2a1b4c-... --since 1d --jq 'select(.is_successful == false) | .task_type'   # each row, as it comes",
            "\n\nSignals: with --follow, Ctrl-C (SIGINT) or SIGTERM ends the follow cleanly: the output is whole (a closed JSON array, whole CSV rows) and the exit status 0. Without --follow, what was printed stays whole too (also when the body is cut off, exit 5), and Ctrl-C exits 130, SIGTERM 143.",
            exits!()
        ),
        // One ID: nothing to fetch concurrently.
        args = ignoring(&["concurrency"])
    )]
    Logs(LogsArgs),
    /// A pipeline's runs over a time window, newest first, with their result; or one run whole (--run)
    #[command(
        after_help = concat!(
            "Examples:\n  ylemctl runs 3f2a1b4c-... --since 1d --failed\n  ylemctl runs orders billing --limit 5 -o json\n  ylemctl runs orders --run latest-failed\n  ylemctl runs orders --run 60b04f58-... --since 2d --exit-status && echo ok\n  ylemctl runs orders --run 60b04f58-... --wait --exit-status   # follow a run started elsewhere to its verdict\n  ylemctl runs orders --run latest-failed -o junit   # the run as a JUnit report",
            exits!("7 the run failed (--exit-status), 8 the run has not finished or its end cannot be established, or --wait timed out (--exit-status)"),
            ", 143 --wait stopped by SIGTERM",
            "\n\nExit status with --exit-status, the run's verdict: 0 only when it succeeded on evidence, 7 when a task failed, 8 when it is still running, its end cannot be established, or (--wait) --wait-timeout ran out; a run with no entry in the window yet is 8 too (it has not reported yet, or it is no run of the pipeline: the service cannot tell these apart). Without --exit-status it says whether the run could be shown: 0, whatever its result (a wait that ran out shows it running), 4 when no entry of it was found (with --wait: none by --wait-timeout).",
            "\n\nSignals: Ctrl-C (SIGINT) or SIGTERM during --wait stops waiting; the run goes on on the server, and the error names it and the command that follows it again (exit 130 for Ctrl-C, 143 for SIGTERM)."
        )
    )]
    Runs(RunsArgs),
    /// Consolidated statistics over a time window (default: the last 24 hours)
    #[command(
        after_help = concat!(
            "Examples:\n  ylemctl stats pipeline 3f2a1b4c-... --since 7d\n  ylemctl stats task ID1 ID2 ID3 --from today -o csv",
            exits!()
        )
    )]
    Stats(StatsArgs),
    /// Statistics per day, week, month, quarter or year
    #[command(
        after_help = concat!(
            "Examples:\n  ylemctl aggregate pipeline 3f2a1b4c-...                 # the last 7 days\n  ylemctl aggregate workflow ID --period month --count 12 --from 2024-01-01",
            exits!()
        )
    )]
    Aggregate(AggregateArgs),
    /// Statistics of the last run
    #[command(
        name = "last-run",
        after_help = concat!(
            "Examples:\n  ylemctl last-run pipeline 3f2a1b4c-...\n  ylemctl last-run task ID1 ID2 -o json\n  ylemctl -q last-run pipeline ID --fail-on-failure --running-ok || mail -s 'pipeline failed' ops@example.com",
            exits!("7 the last run failed, 8 it has not finished (--fail-on-failure; 0 with --running-ok)")
        )
    )]
    LastRun(LastRunArgs),
    /// A monitoring check (Nagios, Icinga, Zabbix, cron): one status line, exit 0 OK, 1 WARNING, 2 CRITICAL, 3 UNKNOWN
    #[command(
        after_help = "Examples:\n  ylemctl check pipeline 3f2a1b4c-... --max-age 25h,49h\n  ylemctl check task ID --max-failure-rate 10,25 --window 7d --max-duration 5m,15m",
        // One status line (or its JSON, or the exposition): no columns.
        args = check_globals()
    )]
    Check(CheckArgs),
    /// One row per pipeline, workflow or task: last run, runs and failures in 24 h, a 7-day failure sparkline
    #[command(
        after_help = concat!(
            "Examples:\n  ylemctl status                               # every alias in the profile\n  ylemctl status orders workflow:nightly task:0b6c...-...\n  ylemctl status -o prometheus --output-file /var/lib/prometheus/node-exporter/ylem.prom\n  watch -n 30 ylemctl status                   # a board that refreshes itself",
            "\n\nExit status: 0 ok (also when some IDs could not be read: their rows say unknown and their error's kind, an error that hit several IDs said once naming them), 2 usage; when no ID could be read, the worst error's: 3 auth, 4 not found, 5 server, 6 network; 130 interrupted"
        )
    )]
    Status(StatusArgs),
    /// Say why the tool cannot talk to the service, and what to do: set-up, network and TLS, clock, credentials, the API, aliases
    #[command(
        after_help = "Checks, in order, each ok, warn, fail or skip (skip: it depends on one that\nfailed); for warn and fail, the fix:\n  set-up       the config file, the profile and where it and the base URL and\n               credentials come from, the credential store, file modes, the\n               login's binding\n  network      the host resolves, TCP connect time, TLS (the chain verifies\n               with the CA in use, days to expiry: warn under 14, the name\n               matches), the proxy from the environment (NO_PROXY as requests)\n  clock        the server's Date against this machine's clock (warn over 30 s\n               or without a Date, fail over 5 min)\n  credentials  a fresh token by client credentials (never printed): its type,\n               lifetime and scopes against stats:read and pipelines:run,\n               whether a refresh works, a secret sent in the URL (warn)\n  api          one statistics request (a 401 to a fresh token: the plan has\n               the API switched off), the dialect, workflow endpoints, the\n               aggregate date form (remembered as other commands do)\n  aliases      each alias of the profile asked as last-run asks it: a last\n               run found, none (never ran, unknown, or not of its kind: warn),\n               or refused (another organisation's, or a scope: warn)\n\nA table or -o json; a YLEM_OUTPUT it cannot print gives the table (jsonl:\nJSON), an explicit -o of another format is refused.\n\nExamples:\n  ylemctl doctor\n  ylemctl -p staging doctor -o json | jq '.checks[] | select(.status != \"ok\")'\n  SSL_CERT_FILE=private-ca.pem ylemctl doctor --base-url https://ylem.internal\n\nExit status: 0 no check failed (warnings allowed); else the first failed\ncheck's: 2 set-up or clock (also no token endpoint at the base URL), 3\ncredentials or the API refused, 5 the server failed, 6 network or TLS; 130\ninterrupted. --max-time defaults to 30s.",
        args = ignoring(&["fields", "no_header", "csv_raw", "local", "concurrency"])
    )]
    Doctor,
    /// Watch pipelines, workflows and tasks live: a board on a terminal, an event stream (JSON lines) for scripts
    #[command(
        after_help = concat!(
            "Examples:\n  ylemctl watch                                # every alias in the profile\n  ylemctl watch orders workflow:nightly --interval 30s\n  ylemctl watch orders -o jsonl | jq -c 'select(.event == \"run_finished\")'\n  ylemctl watch --since 1h > events.jsonl       # the runs that ended in the last hour first, then live",
            "\n\nOff a terminal, or with -o jsonl, one JSON object a line, flushed at once: run_started (the first entry of a run seen), task (each entry: task, name, type, result, duration, executed_at), run_finished (verdict, completion, evidence, duration, elapsed, started, ended, tasks, failure), error and recovered (an entity that could not be read, and when it can again). Every event has event, at, kind, id, alias, and run_uuid where it has one. Each run is told once, in order, and finished only when its verdict is established (the rule of run --wait). -o json, csv or table off a terminal are a usage error.",
            "\n\nOn a terminal, a board: one row per entity (health, the last finished run, the run going, 24 hours of runs and failures by the hour, the latest failure), a changed row marked * for a few seconds, an entity not read marked ! and named in the footer. Keys: Up/Down or j/k select; Enter opens the entity's runs, and on a run the run whole (its tasks as bars on one time axis, the failed ones' messages below); l follows the run's log; r starts a run (after y/N); / filters by name; ? help; Esc back; q or Ctrl-C quit. Below 60 columns a row keeps name, health and failure.",
            "\n\nCost: per --interval at most one request per entity (statistics of the last 24 hours), and a log request for a pipeline whose last run changed or is going; all within --concurrency, with a backoff while the service fails.",
            "\n\nSignals: Ctrl-C (SIGINT), SIGTERM or --max-time end it after the line in flight, exit 0.",
            "\n\nExit status: 0 when stopped (entities that could not be read are error events, and the board's footer), 2 usage, 3 no credentials"
        )
    )]
    Watch(WatchArgs),
    /// A Prometheus exporter: serve /metrics for IDs and aliases
    #[command(subcommand)]
    Metrics(MetricsCommand),
    /// Serve the whole API on loopback from memory, for trying ylemctl and testing scripts
    #[cfg_attr(feature = "sandbox", command(after_help = ylem_sandbox::HELP))]
    // All a client's options but `-o`, which asks for the banner as one
    // JSON line, and `--jq`, which filters it.
    #[command(args = ignoring_but(NOT_A_CLIENT, &["output", "jq"]))]
    Sandbox(SandboxArgs),
    /// Start a sandbox in-process and walk through every command against it
    #[command(
        after_help = "Examples:\n  ylemctl demo\n  cargo run --release -- demo",
        args = ignoring(NOT_A_CLIENT)
    )]
    Demo,
    /// Log in with an OAuth client: check it by fetching a token, then save it in the profile
    #[command(
        after_help = concat!(
            "Examples:\n  ylemctl login --base-url https://api.datamin.io --client-id 0b0e8b5c-...   # asks for the secret\n  pass show ylem/secret | ylemctl login --client-id 0b0e8b5c-... --client-secret-stdin\n  ylemctl -p staging login --base-url https://staging.example.com --store file",
            bound!(),
            " Logging a profile in to another service takes an explicit --base-url (YLEM_BASE_URL alone is refused).",
            exits!()
        ),
        args = ignoring(NO_ROWS)
    )]
    Login(LoginArgs),
    /// Remove the profile's stored secret and token (its base URL and client id stay)
    #[command(
        after_help = "Examples:\n  ylemctl logout\n  ylemctl -p staging logout",
        args = ignoring(NO_ROWS)
    )]
    Logout,
    /// Show the login state, or print a token for other tools
    #[command(subcommand)]
    Auth(AuthCommand),
    /// Names for UUIDs, usable wherever an ID is
    #[command(subcommand)]
    Alias(AliasCommand),
    /// Print a shell completion script
    #[command(
        after_help = "Examples:\n  ylemctl completions bash > ~/.local/share/bash-completion/completions/ylemctl\n  ylemctl completions zsh > \"${fpath[1]}/_ylemctl\"",
        args = ignoring(NOT_A_CLIENT)
    )]
    Completions(CompletionsArgs),
}

#[derive(Debug, Args)]
pub struct RunArgs {
    /// What to start: pipeline or workflow
    #[arg(value_parser = value_parsers::run_kind())]
    pub kind: RunKind,
    /// Pipeline or workflow UUIDs (or aliases)
    #[arg(required = true, value_name = "ID")]
    pub ids: Vec<String>,
    /// The pipeline run's input: JSON text, @FILE (a file's contents) or -
    /// (standard input)
    ///
    /// Sent as the body of each start with Content-Type: application/json,
    /// the same bytes to every ID given. It must be valid JSON, checked
    /// before anything is sent (exit 2 naming the line and column). A file
    /// or standard input is read once, whole. The server hands the input to
    /// the pipeline's initial tasks: an external trigger passes it on as its
    /// output ({} gives the trigger's test data). Without --input the body
    /// is empty. Pipelines only: no server documents an input for workflows.
    #[arg(long, value_name = "JSON|@FILE|-", allow_hyphen_values = true)]
    pub input: Option<String>,
    /// Start the pipeline with the same input as its run RUN_UUID: the
    /// output of that run's external trigger entry, byte for byte
    ///
    /// The run is looked up in the pipeline's log over the window (default:
    /// the last 24 hours; --since, --from, --to widen it). A run not found
    /// there, or without an external trigger, is exit 2 with nothing
    /// started. An encrypted output is opened with --decrypt-key-file (or
    /// YLEM_DECRYPT_KEY_FILE, or the profile's decrypt_key_file). One
    /// pipeline only; -v says which entry the input came from.
    #[arg(long, value_name = "RUN_UUID", conflicts_with = "input")]
    pub rerun: Option<String>,
    /// With --rerun: start of the window to find the run in, e.g. 7d, or a
    /// TIME (the window then ends now)
    #[arg(long, value_name = "TIME", requires = "rerun", conflicts_with_all = ["from", "to"])]
    pub since: Option<String>,
    /// With --rerun: start of the window to find the run in
    #[arg(long, value_name = "TIME", requires = "rerun")]
    pub from: Option<String>,
    /// With --rerun: end of the window to find the run in (inclusive)
    #[arg(long, value_name = "TIME", requires = "rerun")]
    pub to: Option<String>,
    /// Follow the runs until they finish: exit 0 when they succeeded (on
    /// evidence: see --settle and --expect-tasks), 7 when a task failed, 8
    /// when --wait-timeout ran out. `completion` says which rule decided:
    /// history, expected_tasks, settled, failed_task, timed_out; for a
    /// workflow (no log) statistics_settled or statistics_failed, and no
    /// elapsed (the wait's time is not the run's)
    #[arg(long)]
    pub wait: bool,
    /// Longest time to wait for the runs to finish
    #[arg(
        long,
        default_value = "30m",
        value_name = "DURATION",
        requires = "wait",
        value_parser = value_parsers::positive_duration
    )]
    pub wait_timeout: Duration,
    /// A pipeline run has finished when this many tasks reported (and no
    /// more for one --poll), whatever its history says
    #[arg(long, value_name = "N", requires = "wait", value_parser = value_parsers::task_count)]
    pub expect_tasks: Option<usize>,
    #[command(flatten)]
    pub waiting: WaitFlags,
    /// Key file (32 bytes, hex or Base64) that opens encrypted task outputs,
    /// to say why a run failed, with --wait, and to read the input of the
    /// run --rerun names (also YLEM_DECRYPT_KEY_FILE, or the profile's
    /// decrypt_key_file)
    #[arg(long, value_name = "FILE")]
    pub decrypt_key_file: Option<std::path::PathBuf>,
}

/// `--from/--to` or `--since`; default the last 24 hours.
/// A run's result, as `runs` shows it (`runs --result`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum RunResult {
    Running,
    Succeeded,
    Failed,
}

impl RunResult {
    /// The word the run's `result` says.
    pub fn word(self) -> &'static str {
        match self {
            RunResult::Running => "running",
            RunResult::Succeeded => "succeeded",
            RunResult::Failed => "failed",
        }
    }
}

#[derive(Debug, Args, Clone, Default)]
pub struct WindowArgs {
    /// Start: YYYY-MM-DD[ HH:MM:SS], ISO 8601, now, today, yesterday, or an age such as 7d
    #[arg(long, value_name = "TIME")]
    pub from: Option<String>,
    /// End (inclusive; a bare date means the end of that day)
    #[arg(long, value_name = "TIME")]
    pub to: Option<String>,
    /// Start of a window that ends now, e.g. 90m, 24h, 7d, 2w, or a TIME
    #[arg(long, value_name = "TIME", conflicts_with_all = ["from", "to"])]
    pub since: Option<String>,
}

// `run --wait`'s and `runs --run --wait`'s pace (`runs` hides `--poll`).
// No doc comment on a flattened group: it would replace its command's about.
#[derive(Debug, Args, Clone)]
pub struct WaitFlags {
    /// Longest pause between two looks at a run being waited for
    #[arg(
        long,
        default_value = "5s",
        value_name = "DURATION",
        requires = "wait",
        value_parser = value_parsers::positive_duration
    )]
    pub poll: Duration,
    /// Without a terminal on stderr (cron, CI), say "still waiting" on
    /// stderr this often while waiting
    #[arg(
        long,
        default_value = "30s",
        value_name = "DURATION",
        requires = "wait",
        value_parser = value_parsers::positive_duration
    )]
    pub heartbeat: Duration,
}

/// `runs`' `--poll`: hidden, with its own help.
fn runs_poll(a: clap::Arg) -> clap::Arg {
    match a.get_id() == "poll" {
        true => a
            .hide(true)
            .help("Longest pause between two looks at the run (as run --poll)"),
        false => a,
    }
}

// The key that opens encrypted outputs to say why a run failed, for the
// commands that judge runs (`run` and `logs` say more: theirs is their own).
#[derive(Debug, Args, Clone)]
pub struct KeyFile {
    /// Key file (32 bytes, hex or Base64) that opens encrypted task outputs,
    /// to say why a run failed (also YLEM_DECRYPT_KEY_FILE, or the profile's
    /// decrypt_key_file)
    #[arg(long, value_name = "FILE")]
    pub decrypt_key_file: Option<std::path::PathBuf>,
}

#[derive(Debug, Args)]
pub struct LogsArgs {
    /// Pipeline UUID (or alias)
    #[arg(value_name = "PIPELINE")]
    pub pipeline: String,
    #[command(flatten)]
    pub window: WindowArgs,
    /// Only entries of this run
    #[arg(long, value_name = "RUN_UUID")]
    pub run: Option<String>,
    /// Only failed entries
    #[arg(long)]
    pub failed: bool,
    /// Only entries of this task (UUID or alias); repeat for several
    #[arg(long, value_name = "TASK")]
    pub task: Vec<String>,
    /// Decode `output` from Base64 to text (JSON is pretty-printed in tables, embedded in json/jsonl)
    #[arg(long)]
    pub decode: bool,
    /// Decrypt `output` (AES-256-GCM, 12-byte nonce first) with the key in FILE: 32 raw bytes, hex or Base64
    #[arg(long, value_name = "FILE")]
    pub decrypt_key_file: Option<std::path::PathBuf>,
    /// Keep printing entries as they appear, oldest first, until Ctrl-C,
    /// --max-time, or (with --run) the run is complete; --since sets the start
    /// (default: now, after the newest 10 entries of the last hour: see --tail)
    #[arg(short, long)]
    pub follow: bool,
    /// The newest N entries only (the log comes newest first: they are
    /// printed as they come, nothing is held); with -f, the newest N of the
    /// last hour, oldest first, then follow
    #[arg(long, value_name = "N", value_parser = value_parsers::at_least_one)]
    pub tail: Option<usize>,
    /// With -f: look at the log every DURATION (default: after 2s, the pause
    /// growing to 30s while nothing changes, 6s at most with --run)
    #[arg(long, value_name = "DURATION", requires = "follow", value_parser = value_parsers::positive_duration)]
    pub poll: Option<Duration>,
}

#[derive(Debug, Args)]
// `--poll` is run's, hidden here, with words of its own (the completion
// scripts show hidden flags); `mut_args`, not `mut_arg`, which would move it
// last in them.
#[command(mut_args(runs_poll))]
pub struct RunsArgs {
    /// Pipeline UUIDs (or aliases); one with --run
    #[arg(required = true, value_name = "PIPELINE")]
    pub pipelines: Vec<String>,
    #[command(flatten)]
    pub window: WindowArgs,
    /// Only failed runs (as --result failed)
    #[arg(long, conflicts_with = "run")]
    pub failed: bool,
    /// Only runs with this result: running (not finished on evidence yet),
    /// succeeded or failed
    #[arg(long, value_name = "RESULT", conflicts_with_all = ["run", "failed"])]
    pub result: Option<RunResult>,
    /// The newest N runs only
    #[arg(long, value_name = "N", value_parser = value_parsers::at_least_one, conflicts_with = "run")]
    pub limit: Option<usize>,
    /// Show one run whole: a run UUID, `latest` or `latest-failed`
    #[arg(long, value_name = "RUN")]
    pub run: Option<String>,
    /// With --run: exit 0 only when the run succeeded on evidence, 7 when it
    /// failed, 8 when it is still running or its end cannot be established
    /// (also: no entry of it yet, or --wait-timeout ran out)
    #[arg(long, requires = "run")]
    pub exit_status: bool,
    /// With --run RUN or latest: follow the run to its verdict as `run
    /// --wait` does (a run started elsewhere, or before a SIGTERM); a run
    /// with no entry yet is waited for. `latest` is the newest run with an
    /// entry in the window when the wait begins
    #[arg(long, requires = "run")]
    pub wait: bool,
    /// Longest time to wait for the run to finish
    #[arg(
        long,
        default_value = "30m",
        value_name = "DURATION",
        requires = "wait",
        value_parser = value_parsers::positive_duration
    )]
    pub wait_timeout: Duration,
    #[command(flatten)]
    pub waiting: WaitFlags,
    #[command(flatten)]
    pub key: KeyFile,
}

#[derive(Debug, Args)]
pub struct StatsArgs {
    /// What the IDs are: task, pipeline or workflow
    #[arg(value_parser = value_parsers::entity())]
    pub kind: Entity,
    /// UUIDs (or aliases)
    #[arg(required = true, value_name = "ID")]
    pub ids: Vec<String>,
    #[command(flatten)]
    pub window: WindowArgs,
}

#[derive(Debug, Args)]
pub struct AggregateArgs {
    /// What the IDs are: task, pipeline or workflow
    #[arg(value_parser = value_parsers::entity())]
    pub kind: Entity,
    /// UUIDs (or aliases)
    #[arg(required = true, value_name = "ID")]
    pub ids: Vec<String>,
    /// Start of the first period (default: so that the last period is the current one)
    #[arg(long, value_name = "DATE")]
    pub from: Option<String>,
    /// Length of each period
    #[arg(long, value_parser = value_parsers::period(), default_value = "day")]
    pub period: Period,
    /// Number of periods (1 or more)
    #[arg(
        long,
        default_value = "7",
        value_name = "N",
        allow_negative_numbers = true,
        value_parser = value_parsers::count
    )]
    pub count: u32,
    /// Draw successes and failures per period as a bar chart
    #[arg(long)]
    pub chart: bool,
}

#[derive(Debug, Args)]
pub struct LastRunArgs {
    /// What the IDs are: task, pipeline or workflow
    #[arg(value_parser = value_parsers::entity())]
    pub kind: Entity,
    /// UUIDs (or aliases)
    #[arg(required = true, value_name = "ID")]
    pub ids: Vec<String>,
    /// Exit 7 when a last run failed, 8 when it has not finished (for `cron && ...` chains)
    #[arg(long)]
    pub fail_on_failure: bool,
    /// With --fail-on-failure: a last run not finished yet exits 0 with a
    /// note instead of 8, so a cron job landing mid-run raises no alert
    /// (the run is judged at the next one); a failed run still exits 7
    #[arg(long, requires = "fail_on_failure")]
    pub running_ok: bool,
    #[command(flatten)]
    pub key: KeyFile,
}

#[derive(Debug, Args)]
pub struct CheckArgs {
    /// What the ID is: task, pipeline or workflow
    #[arg(value_parser = value_parsers::entity())]
    pub kind: Entity,
    /// UUID (or alias)
    #[arg(value_name = "ID")]
    pub id: String,
    /// Stale when the last run is older: CRIT or WARN,CRIT, e.g. 25h,49h
    #[arg(long, value_name = "D", value_parser = value_parsers::duration_levels)]
    pub max_age: Option<Levels>,
    /// Failed share of runs in --window, in percent: CRIT or WARN,CRIT, e.g. 10,25
    #[arg(long, value_name = "PCT", value_parser = value_parsers::percent_levels)]
    pub max_failure_rate: Option<Levels>,
    /// Window of --max-failure-rate (at least 1s)
    #[arg(long, default_value = "24h", value_name = "D", value_parser = value_parsers::seconds_duration)]
    pub window: Duration,
    /// Longest acceptable last run: CRIT or WARN,CRIT, e.g. 5m,15m
    #[arg(long, value_name = "D", value_parser = value_parsers::duration_levels)]
    pub max_duration: Option<Levels>,
    #[command(flatten)]
    pub key: KeyFile,
}

#[derive(Debug, Args, Clone)]
pub struct StatusArgs {
    /// UUIDs or aliases, each optionally prefixed `task:`, `pipeline:` or
    /// `workflow:` (default: every alias in the profile; a bare UUID is a pipeline)
    #[arg(value_name = "ID|ALIAS")]
    pub ids: Vec<String>,
}

#[derive(Debug, Args, Clone)]
pub struct WatchArgs {
    /// UUIDs or aliases, each optionally prefixed `task:`, `pipeline:` or
    /// `workflow:` (default: every alias in the profile; a bare UUID is a pipeline)
    #[arg(value_name = "[KIND:]ID|ALIAS")]
    pub ids: Vec<String>,
    /// How often each entity is looked at
    #[arg(long, default_value = "15s", value_name = "D", value_parser = value_parsers::positive_duration)]
    pub interval: Duration,
    /// Replay first the runs that ended within D (default: none, only what happens from now)
    #[arg(long, value_name = "D", value_parser = value_parsers::positive_duration)]
    pub since: Option<Duration>,
    #[command(flatten)]
    pub key: KeyFile,
}

#[derive(Debug, Subcommand)]
pub enum MetricsCommand {
    /// Serve /metrics (Prometheus text format) and / until Ctrl-C or SIGTERM, fetching on scrape
    #[command(
        after_help = "Examples:\n  ylemctl metrics serve                                  # every alias, on 127.0.0.1:9339\n  ylemctl metrics serve --listen 127.0.0.1:9400 orders workflow:nightly\n  ylemctl metrics serve --listen 0.0.0.0:9339 --allow-remote --web-config-file /etc/ylemctl/exporter/web.yml\n\nWeb configuration (--web-config-file), as Prometheus exporters read it:\n  tls_server_config:\n    cert_file: server.crt             # PEM; paths relative to this file\n    key_file: server.key\n    client_ca_file: clients-ca.crt    # with client_auth_type:\n    client_auth_type: RequireAndVerifyClientCert   # or VerifyClientCertIfGiven, NoClientCert\n    min_version: TLS12                # or TLS13\n  basic_auth_users:\n    prometheus: $2y$10$...            # bcrypt hash: htpasswd -nBC 10 prometheus\nA malformed file, an unknown key, a password that is not a bcrypt hash or a certificate that cannot be read is exit 2, before listening. The file and the certificates it names are read again when they change (at most once a second), so certificates rotate without a restart. Without it, --allow-remote serves plain HTTP to anyone, with a warning.\n\nSignals: Ctrl-C (SIGINT) or SIGTERM stops it accepting scrapes; the scrapes in flight are answered (for at most 10 s), then it exits 0."
    )]
    Serve(ServeArgs),
}

#[derive(Debug, Args, Clone)]
pub struct ServeArgs {
    /// Address to listen on, HOST:PORT (a host name is resolved, e.g.
    /// localhost:9339); a non-loopback one needs --allow-remote
    #[arg(long, default_value = "127.0.0.1:9339", value_name = "ADDR", value_parser = value_parsers::listen_addr)]
    pub listen: SocketAddr,
    /// Listen on a non-loopback address (anyone who reaches it sees the metrics)
    #[arg(long)]
    pub allow_remote: bool,
    /// Serve the same figures for this long before asking the service again
    #[arg(long, default_value = "15s", value_name = "DURATION", value_parser = value_parsers::duration)]
    pub cache: Duration,
    /// Answer every scrape within this long: an ID not answered by then is
    /// ylem_up 0 for that scrape (Prometheus' own scrape timeout, less
    /// 0.5s, when that is shorter)
    #[arg(long, default_value = "8s", value_name = "DURATION", value_parser = value_parsers::duration)]
    pub scrape_timeout: Duration,
    /// TLS and basic auth, in the Prometheus exporter-toolkit's web
    /// configuration format (checked at start; read again when it changes)
    #[arg(long, value_name = "FILE")]
    pub web_config_file: Option<std::path::PathBuf>,
    #[command(flatten)]
    pub targets: StatusArgs,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum Dialect {
    /// As the service specification says
    Spec,
    /// As the open-source Ylem server behaves
    Ylem,
}

#[derive(Debug, Args)]
pub struct SandboxArgs {
    /// Loopback address to listen on (port 0 picks a free one)
    #[arg(
        long,
        default_value = "127.0.0.1:7339",
        value_name = "ADDR",
        value_parser = value_parsers::loopback
    )]
    pub listen: SocketAddr,
    /// Seed of the generated pipelines, workflows, tasks and history
    #[arg(long, default_value = "1", value_name = "N")]
    pub seed: u64,
    /// Behave as the specification says, or as the open-source server does
    #[arg(long, value_enum, default_value = "spec")]
    pub dialect: Dialect,
    /// Delay added before every response, e.g. 100ms
    #[arg(long, default_value = "0ms", value_name = "DURATION", value_parser = value_parsers::duration)]
    pub latency: Duration,
    /// Share of requests answered with a fault, from 0 to 1 (spec: 503; ylem: 500 with a JSON body, or 502-504)
    #[arg(long, default_value = "0", value_name = "F", value_parser = value_parsers::rate)]
    pub fail_rate: f64,
    /// Lifetime of issued tokens
    #[arg(
        long,
        default_value = "24h",
        value_name = "DURATION",
        value_parser = value_parsers::seconds_duration
    )]
    pub token_ttl: Duration,
    /// Live time of one second of task time: each task of a started run reports after its duration times this
    #[arg(
        long,
        default_value = "1500ms",
        value_name = "DURATION",
        value_parser = value_parsers::duration
    )]
    pub task_delay: Duration,
    /// Where the token endpoint reads its parameters (query: the spec's form only, as a server that ignores a form body)
    #[arg(long, value_enum, default_value = "both", value_name = "WHERE")]
    pub token_params: TokenParamsChoice,
    /// Put every response's Date header this far off the true time, ahead or behind (-), e.g. 90s, -10m
    #[arg(
        long,
        default_value = "0s",
        value_name = "DURATION",
        allow_hyphen_values = true,
        value_parser = value_parsers::signed_duration
    )]
    pub clock_skew: chrono::TimeDelta,
    /// Scopes tokens grant, enforced with 403: comma-separated, of stats:read, pipelines:run and workflows:run ("" grants none); not given, all are granted
    #[arg(long, value_name = "LIST", value_parser = value_parsers::scopes)]
    pub scopes: Option<Scopes>,
    /// Answer 401 on every authenticated endpoint, even with a fresh token, as a plan with the API switched off
    #[arg(long)]
    pub plan_disabled: bool,
    /// Test-only: every started workflow run fails (on its last task), for a failed workflow run on demand
    #[arg(long)]
    pub failing_workflows: bool,
}

/// Where the sandbox's token endpoint reads its parameters.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum TokenParamsChoice {
    /// A form-encoded body and the query string
    Both,
    /// A form-encoded body only
    Body,
    /// The query string only
    Query,
}

#[derive(Debug, Args)]
pub struct LoginArgs {
    /// OAuth client id (asked for on a terminal when missing)
    #[arg(long, value_name = "ID")]
    pub client_id: Option<String>,
    /// Read the client secret from standard input instead of asking
    #[arg(long)]
    pub client_secret_stdin: bool,
    /// Where to keep the secret and tokens (default auto; also YLEM_CREDENTIAL_STORE)
    #[arg(long, value_enum, value_name = "STORE")]
    pub store: Option<StoreChoice>,
}

#[derive(Debug, Subcommand)]
pub enum AuthCommand {
    /// Profile, base URL, client id, the URL its credentials are bound to, store and token expiry (never the token)
    #[command(
        after_help = concat!(
            "Examples:\n  ylemctl auth status\n  ylemctl -p staging auth status -o json",
            "\n\nbound_to is the base URL the stored credentials belong to.",
            bound!(),
            " A store that cannot be read (the OS keyring with no session bus, locked, or not answering) is shown as its state (keyring unreachable: why), the secret and token unknown; the rest is shown all the same, and the exit status is 3 unless credentials from the environment are in use.",
            exits!()
        )
    )]
    Status,
    /// Print a valid access token on standard output, for other tools
    #[command(
        after_help = concat!(
            "Examples:\n  curl -H \"Authorization: Bearer $(ylemctl auth token)\" https://api.datamin.io/v1/...\n  ylemctl auth token --min-ttl 10m     # valid for at least 10 more minutes",
            bound!(),
            exits!()
        )
    )]
    Token(TokenArgs),
}

#[derive(Debug, Args)]
pub struct TokenArgs {
    /// Fetch a new token unless the cached one stays valid this long, e.g. 10m
    #[arg(long, value_name = "DURATION", value_parser = value_parsers::duration)]
    pub min_ttl: Option<Duration>,
}

#[derive(Debug, Subcommand)]
pub enum AliasCommand {
    /// Name a UUID (replaces an alias of the same name)
    #[command(
        after_help = "Examples:\n  ylemctl alias set orders 3f2a1b4c-5d6e-4f70-8a9b-0c1d2e3f4a5b\n  ylemctl alias set nightly workflow:0b6c2d3e-4f50-4a1b-8c2d-3e4f5a6b7c8d\n  ylemctl -p staging alias set orders 7c9d2e1f-0a1b-4c2d-9e3f-4a5b6c7d8e9f --profile-only"
    )]
    Set {
        /// Letters, digits, '-', '_' and '.'
        name: String,
        /// The UUID it stands for, optionally prefixed with its kind
        /// (`pipeline:`, `workflow:`, `task:`), which `status` and `metrics` use
        uuid: String,
        /// Only for the profile in use ([profiles.NAME.aliases], which wins over the global one)
        #[arg(long)]
        profile_only: bool,
    },
    /// List the aliases
    #[command(
        after_help = "Examples:\n  ylemctl alias list\n  ylemctl alias list -o json | jq -r 'keys[]'"
    )]
    List {
        /// Only the names, one per line (for shell completion)
        #[arg(long, hide = true)]
        names: bool,
    },
    /// Remove an alias
    #[command(
        after_help = "Examples:\n  ylemctl alias remove orders\n  ylemctl -p staging alias remove orders"
    )]
    Remove {
        /// The alias to remove
        name: String,
        /// From the profile in use's own aliases, not the global ones
        #[arg(long)]
        profile_only: bool,
    },
}

#[derive(Debug, Args)]
pub struct CompletionsArgs {
    /// Shell to print the script for
    #[arg(value_enum)]
    pub shell: clap_complete::Shell,
}

/// Hidden copies of the global options (by id) that a command has no use
/// for, declared on its definition with `#[command(args = ignoring(..))]`:
/// still accepted (a script may set them for every command), but not
/// offered in its help. clap keeps a subcommand's own copy in place of the
/// propagated one.
fn ignoring(ids: &[&str]) -> Vec<clap::Arg> {
    let globals = GlobalArgs::augment_args(clap::Command::new("globals"));
    ids.iter()
        .map(|id| {
            let arg = globals.get_arguments().find(|a| a.get_id() == *id);
            arg.expect("a global option's id").clone().hide(true)
        })
        .collect()
}

/// `check`'s copies of the global options: no columns, and `-o` with
/// what it takes (`commands/monitor/check_output.rs` refuses the rest).
fn check_globals() -> Vec<clap::Arg> {
    let mut args = ignoring(&["fields", "no_header", "csv_raw", "concurrency", "jq"]);
    let globals = GlobalArgs::augment_args(clap::Command::new("globals"));
    let output = globals.get_arguments().find(|a| a.get_id() == "output");
    args.push(
        output
            .expect("the global -o")
            .clone()
            .hide_possible_values(true)
            .help("Output: table (the plugin's status line, the default), json ({state, message, perfdata}) or prometheus"),
    );
    args
}

/// `ignoring(ids)` but the options `kept`.
fn ignoring_but(ids: &[&str], kept: &[&str]) -> Vec<clap::Arg> {
    let ids: Vec<&str> = ids
        .iter()
        .copied()
        .filter(|id| !kept.contains(id))
        .collect();
    ignoring(&ids)
}

/// What a command that asks no service ignores.
const NOT_A_CLIENT: &[&str] = &[
    "profile",
    "base_url",
    "output",
    "jq",
    "fields",
    "no_header",
    "csv_raw",
    "local",
    "connect_timeout",
    "timeout",
    "max_time",
    "retries",
    "concurrency",
];

/// What a command that prints no rows ignores.
const NO_ROWS: &[&str] = &[
    "fields",
    "no_header",
    "csv_raw",
    "local",
    "concurrency",
    "jq",
];

/// The whole command tree, as parsed and as the generators and tests see
/// it.
pub fn command() -> clap::Command {
    Cli::command()
}
