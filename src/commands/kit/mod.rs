//! What the commands share, and no command's own work: the rows of several
//! IDs, the columns, the fan-out of requests, hints, failure text, how a
//! command ends and what it declares to the code that runs it.

pub mod columns;
pub mod conduct;
pub mod date_form;
pub mod evidence_text;
pub mod exit_status;
pub mod failure_read;
pub mod failure_text;
pub mod fan_out;
pub mod hints;
pub mod ids;
pub mod last_known;
pub mod refused;
pub mod run_history;
pub mod signals;
