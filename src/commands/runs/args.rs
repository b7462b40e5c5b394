//! `run` and `runs`: their clap definitions (the structs, their help and
//! the global options they ignore), read by `start.rs` and `attach.rs`.

use std::time::Duration;

use clap::{Parser, ValueEnum};

use crate::cli::{KeyFile, WaitFlags, WindowArgs, exits};
use crate::value_parsers;
use ylem_client::RunKind;

/// Start runs of pipelines or workflows (runs are not idempotent: never retried)
#[derive(Debug, Parser)]
#[command(
    name = "run",
    override_usage = "ylemctl run pipeline <ID>... [--input JSON|@FILE|-] [--wait [--wait-timeout D] [--poll D] [--settle D] [--expect-tasks N]]\n       ylemctl run pipeline <ID> --rerun RUN_UUID [--since TIME | --from TIME --to TIME] [--wait ...]\n       ylemctl run workflow <ID>... [--wait ...]",
    after_help = concat!(
        "Examples:\n  ylemctl run pipeline 3f2a1b4c-0000-4000-8000-000000000001\n  ylemctl run workflow nightly-sync -o json\n  ylemctl run pipeline orders --input @order.json --wait\n  ylemctl run pipeline orders --input '{\"order_id\": 1001}'\n  jq -c .order webhook.json | ylemctl run pipeline orders returns --input -\n  ylemctl run pipeline orders --rerun 60b04f58-... --since 3d --wait   # again, with that run's input\n  ylemctl run pipeline orders --wait -o junit > report.xml   # a JUnit report for CI: a test case per task",
        exits!("7 a run failed, 8 --wait timed out"),
        ", 143 --wait stopped by SIGTERM",
        "\n\nSignals: Ctrl-C (SIGINT) or SIGTERM during --wait stops waiting; the run goes on on the server, and the error names it and the command that follows it (exit 130 for Ctrl-C, 143 for SIGTERM). Without --wait, SIGTERM keeps its default action."
    )
)]
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

/// A pipeline's runs over a time window, newest first, with their result; or one run whole (--run)
#[derive(Debug, Parser)]
#[command(
    name = "runs",
    after_help = concat!(
        "Examples:\n  ylemctl runs 3f2a1b4c-... --since 1d --failed\n  ylemctl runs orders billing --limit 5 -o json\n  ylemctl runs orders --run latest-failed\n  ylemctl runs orders --run 60b04f58-... --since 2d --exit-status && echo ok\n  ylemctl runs orders --run 60b04f58-... --wait --exit-status   # follow a run started elsewhere to its verdict\n  ylemctl runs orders --run latest-failed -o junit   # the run as a JUnit report",
        exits!("7 the run failed (--exit-status), 8 the run has not finished or its end cannot be established, or --wait timed out (--exit-status)"),
        ", 143 --wait stopped by SIGTERM",
        "\n\nExit status with --exit-status, the run's verdict: 0 only when it succeeded on evidence, 7 when a task failed, 8 when it is still running, its end cannot be established, or (--wait) --wait-timeout ran out; a run with no entry in the window yet is 8 too (it has not reported yet, or it is no run of the pipeline: the service cannot tell these apart). Without --exit-status it says whether the run could be shown: 0, whatever its result (a wait that ran out shows it running), 4 when no entry of it was found (with --wait: none by --wait-timeout).",
        "\n\nSignals: Ctrl-C (SIGINT) or SIGTERM during --wait stops waiting; the run goes on on the server, and the error names it and the command that follows it again (exit 130 for Ctrl-C, 143 for SIGTERM)."
    ),
    // `--poll` is run's, hidden here, with words of its own (the
    // completion scripts show hidden flags); `mut_args`, not `mut_arg`,
    // which would move it last in them.
    mut_args(runs_poll)
)]
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

/// `runs`' `--poll`: hidden, with its own help.
fn runs_poll(a: clap::Arg) -> clap::Arg {
    match a.get_id() == "poll" {
        true => a
            .hide(true)
            .help("Longest pause between two looks at the run (as run --poll)"),
        false => a,
    }
}

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
