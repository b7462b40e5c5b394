//! `stats`, `aggregate` and `last-run`: their clap definitions, read by
//! `range.rs`, `aggregate.rs` and `last_run.rs`.

use clap::Parser;

use crate::cli::{KeyFile, WindowArgs, exits};
use crate::value_parsers;
use ylem_client::{Entity, Period};

/// Consolidated statistics over a time window (default: the last 24 hours)
#[derive(Debug, Parser)]
#[command(
    name = "stats",
    after_help = concat!(
        "Examples:\n  ylemctl stats pipeline 3f2a1b4c-... --since 7d\n  ylemctl stats task ID1 ID2 ID3 --from today -o csv",
        exits!()
    )
)]
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

/// Statistics per day, week, month, quarter or year
#[derive(Debug, Parser)]
#[command(
    name = "aggregate",
    after_help = concat!(
        "Examples:\n  ylemctl aggregate pipeline 3f2a1b4c-...                 # the last 7 days\n  ylemctl aggregate workflow ID --period month --count 12 --from 2024-01-01",
        exits!()
    )
)]
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

/// Statistics of the last run
#[derive(Debug, Parser)]
#[command(
    name = "last-run",
    after_help = concat!(
        "Examples:\n  ylemctl last-run pipeline 3f2a1b4c-...\n  ylemctl last-run task ID1 ID2 -o json\n  ylemctl -q last-run pipeline ID --fail-on-failure --running-ok || mail -s 'pipeline failed' ops@example.com",
        exits!("7 the last run failed, 8 it has not finished (--fail-on-failure; 0 with --running-ok)")
    )
)]
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
