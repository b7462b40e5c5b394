//! `watch`: its clap definition, read by `command.rs`.

use std::time::Duration;

use clap::Parser;

use crate::cli::KeyFile;
use crate::value_parsers;

/// Watch pipelines, workflows and tasks live: a board on a terminal, an event stream (JSON lines) for scripts
#[derive(Debug, Parser, Clone)]
#[command(
    name = "watch",
    after_help = concat!(
        "Examples:\n  ylemctl watch                                # every alias in the profile\n  ylemctl watch orders workflow:nightly --interval 30s\n  ylemctl watch orders -o jsonl | jq -c 'select(.event == \"run_finished\")'\n  ylemctl watch --since 1h > events.jsonl       # the runs that ended in the last hour first, then live",
        "\n\nOff a terminal, or with -o jsonl, one JSON object a line, flushed at once: run_started (the first entry of a run seen), task (each entry: task, name, type, result, duration, executed_at), run_finished (verdict, completion, evidence, duration, elapsed, started, ended, tasks, failure), error and recovered (an entity that could not be read, and when it can again). Every event has event, at, kind, id, alias, and run_uuid where it has one. Each run is told once, in order, and finished only when its verdict is established (the rule of run --wait). -o json, csv or table off a terminal are a usage error.",
        "\n\nOn a terminal, a board: one row per entity (health, the last finished run, the run going, 24 hours of runs and failures by the hour, the latest failure), a changed row marked * for a few seconds, an entity not read marked ! and named in the footer. Keys: Up/Down or j/k select; Enter opens the entity's runs, and on a run the run whole (its tasks as bars on one time axis, the failed ones' messages below); l follows the run's log; r starts a run (after y/N); / filters by name; ? help; Esc back; q or Ctrl-C quit. Below 60 columns a row keeps name, health and failure.",
        "\n\nCost: per --interval at most one request per entity (statistics of the last 24 hours), and a log request for a pipeline whose last run changed or is going; all within --concurrency, with a backoff while the service fails.",
        "\n\nSignals: Ctrl-C (SIGINT), SIGTERM or --max-time end it after the line in flight, exit 0.",
        "\n\nExit status: 0 when stopped (entities that could not be read are error events, and the board's footer), 2 usage, 3 no credentials"
    )
)]
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
