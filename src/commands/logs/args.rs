//! `logs`: its clap definition, read by `fetch.rs`.

use std::time::Duration;

use clap::Parser;

use crate::cli::{WindowArgs, exits, ignoring};
use crate::value_parsers;

/// Show a pipeline's run log over a time window
#[derive(Debug, Parser)]
#[command(
    name = "logs",
    after_help = concat!(
        "Examples:\n  ylemctl logs 3f2a1b4c-... --since 2h\n  ylemctl logs 3f2a1b4c-... --from 2024-01-01 --to 2024-01-31 -o csv > january.csv\n  ylemctl logs 3f2a1b4c-... --failed -o jsonl | jq .task_uuid\n  ylemctl logs 3f2a1b4c-... --since 1d --jq 'select(.is_successful == false) | .task_type'   # each row, as it comes",
        "\n\nSignals: with --follow, Ctrl-C (SIGINT) or SIGTERM ends the follow cleanly: the output is whole (a closed JSON array, whole CSV rows) and the exit status 0. Without --follow, what was printed stays whole too (also when the body is cut off, exit 5), and Ctrl-C exits 130, SIGTERM 143.",
        exits!()
    ),
    // One ID: nothing to fetch concurrently.
    args = ignoring(&["concurrency"])
)]
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
