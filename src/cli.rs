//! The global options and the argument groups several commands share, in
//! clap: parsing only records values. Each command's own arguments are its
//! wing's (`commands/<wing>/args.rs`); `commands::tree()` puts them under
//! `Cli`. Nothing here reads the environment beyond clap's `env` fallbacks
//! for the non-secret global options.

use std::time::Duration;

use clap::{Args, Parser, ValueEnum};

use crate::value_parsers;

const EXAMPLES: &str = "\
Examples:
  ylemctl sandbox &                              # a local service to try things against
  ylemctl stats pipeline 3f2a1b4c-... --since 7d
  ylemctl logs 3f2a1b4c-... --from yesterday --to yesterday -o csv
  ylemctl aggregate pipeline 3f2a1b4c-... --period week --count 12
  ylemctl last-run task 0b6c...-... 9d1e...-... -o json
  ylemctl runs 3f2a1b4c-... --failed --jq .run_uuid     # a jq filter, as gh --jq
  ylemctl run pipeline 3f2a1b4c-...";

/// The rule that keeps a profile's credentials with its service, in the
/// help (and so the man pages) of `login` and `auth`.
macro_rules! bound {
    () => {
        "\n\nA profile's secret and tokens are sent only to the base URL it logged in to: another --base-url or YLEM_BASE_URL (scheme, host, port or path) is refused before anything is sent (exit 3). Use -p PROFILE for another service, or log a profile in to it with 'ylemctl -p PROFILE login --base-url URL'. YLEM_TOKEN and YLEM_CLIENT_ID/YLEM_CLIENT_SECRET go to the base URL in effect. Plain http:// to another machine is warned about: credentials would travel in clear."
    };
}

pub(crate) use bound;

/// The exit codes every command that asks the service shares, as one line
/// at the end of its help (`man ylemctl` has them all).
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
pub(crate) use exits;

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

// `--from/--to` or `--since`; default the last 24 hours. (No doc
// comment, here and on the groups below: a flattened group's would
// replace its command's about.)
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

/// Hidden copies of the global options (by id) that a command has no use
/// for, declared on its definition with `#[command(args = ignoring(..))]`:
/// still accepted (a script may set them for every command), but not
/// offered in its help. clap keeps a subcommand's own copy in place of the
/// propagated one.
pub(crate) fn ignoring(ids: &[&str]) -> Vec<clap::Arg> {
    let globals = GlobalArgs::augment_args(clap::Command::new("globals"));
    ids.iter()
        .map(|id| {
            let arg = globals.get_arguments().find(|a| a.get_id() == *id);
            arg.expect("a global option's id").clone().hide(true)
        })
        .collect()
}

/// `ignoring(ids)` but the options `kept`.
pub(crate) fn ignoring_but(ids: &[&str], kept: &[&str]) -> Vec<clap::Arg> {
    let ids: Vec<&str> = ids
        .iter()
        .copied()
        .filter(|id| !kept.contains(id))
        .collect();
    ignoring(&ids)
}

/// What a command that asks no service ignores.
pub(crate) const NOT_A_CLIENT: &[&str] = &[
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
pub(crate) const NO_ROWS: &[&str] = &[
    "fields",
    "no_header",
    "csv_raw",
    "local",
    "concurrency",
    "jq",
];
