//! The service's knowledge that is no command's (staging for the client
//! library): when a run has finished, the run model and its fold, the
//! polling driver, entry keys, the last run seen, refusals, the date form.

pub mod date_form;
pub mod entry_key;
pub mod failure;
pub mod finished;
pub mod history;
pub mod last_model;
pub mod last_seen;
pub mod poll;
pub mod refusal;
pub mod run_model;
pub mod runs_tally;
