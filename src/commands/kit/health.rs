//! How an entity is doing, in `status`'s words, for every command that
//! shows a fleet (`status`, `watch`): the health of the last *finished*
//! run by the one model, a run still going beside it.

use ylem_client::runs::last::Last;

/// How an entity is doing, worst first.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub enum Health {
    /// The last run failed.
    Failed,
    /// The service refused or failed to answer for it.
    Unknown,
    /// The last run succeeded, but runs failed in the last 24 hours.
    Degraded,
    /// No run found: never ran, or unknown to the service.
    Never,
    /// A run is going, and no finished run was found to judge by.
    Running,
    Ok,
}

impl Health {
    /// From what is known: whether a run was ever seen, the last finished
    /// run's success, and the failures of the last 24 hours.
    pub fn judge(ran: bool, finished_ok: Option<bool>, failures_24h: i64) -> Health {
        match (ran, finished_ok) {
            (false, _) => Health::Never,
            (true, None) => Health::Running,
            (_, Some(false)) => Health::Failed,
            (_, Some(true)) if failures_24h > 0 => Health::Degraded,
            (_, Some(true)) => Health::Ok,
        }
    }

    /// From an entity's last run by the model and its 24 hours' failures.
    pub fn of_last(last: &Last, failures_24h: i64) -> Health {
        Health::judge(
            last.last().is_some(),
            last.judged().and_then(|l| l.success()),
            failures_24h,
        )
    }

    pub fn word(self) -> &'static str {
        match self {
            Health::Failed => "failed",
            Health::Unknown => "unknown",
            Health::Degraded => "degraded",
            Health::Never => "never",
            Health::Running => "running",
            Health::Ok => "ok",
        }
    }
}
