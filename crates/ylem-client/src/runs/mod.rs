//! The run model: a pipeline run folded from its log entries (`fold`),
//! when it has finished (`finished`, the evidence rule), the runs of a log
//! (`tally`), what a workflow's or task's runs are known by from statistics alone (`stats_only`), a fleet's runs followed as they happen (`fleet`), a pipeline's history, a run's failure, an entity's last run
//! (`last`, stated as a `RunView`), the basis a run is judged by (`basis`:
//! its pipeline's complete runs before its first task, kept), a run's input read back from its
//! external trigger (`input`), the keys that tell a log entry seen
//! before, and the one polling driver (`poll`, generic over its step's
//! error and its stop request). Declares and re-exports only.

pub mod basis;
pub mod entry_key;
pub mod failure;
pub mod finished;
pub mod fleet;
pub mod fold;
pub mod history;
pub mod input;
pub mod last;
pub mod poll;
pub mod seen;
pub mod stats_only;
pub mod tally;
pub mod view;

pub use failure::{Failure, Finder};
pub use finished::{Evidence, History, Rule, Settle, Verdict};
pub use fold::{Judged, RunFold};
pub use last::{Last, NotKnown};
pub use poll::{Ended, Look, Pacing, Step, Until, Waited, drive};
pub use tally::Runs;
pub use view::{Established, RunView};
