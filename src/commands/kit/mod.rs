//! What the commands share, and no command's own work: the rows of several
//! IDs, the columns, the fan-out of requests, hints, failure text, how a
//! command ends, what it declares to the code that runs it, its entry in
//! the table of commands, and what the `-o prometheus` outputs share.

pub mod columns;
pub mod conduct;
pub mod date_form;
pub mod evidence_text;
pub mod exit;
pub mod exposition;
pub mod failure_read;
pub mod failure_text;
pub mod fan_out;
pub mod health;
pub mod hints;
pub mod ids;
pub mod key_file;
pub mod last_known;
pub mod output_gone;
pub mod periods;
pub mod run_entries;
pub mod run_fold;
pub mod run_history;
pub mod signals;
pub mod targets;
pub mod wing;
