//! The service's knowledge that is no command's (staging for the client
//! library): when a run has finished, the run model and its fold, a
//! pipeline's history, the polling driver, entry keys, the last run seen,
//! refusals, the date form. It depends on the client's modules only (`api`,
//! `http`, `error`, `kinds`, `time`, `secret`, `shown`, `auth`): whatever is
//! the CLI's (settings, the config file, the terminal, words naming flags
//! and commands) is handed in by the caller, through the callbacks and
//! traits each file names.

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
