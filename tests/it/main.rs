//! The integration suite, one binary (as ripgrep and cargo keep theirs): the
//! built `ylemctl` driven over loopback against the sandbox or the
//! fault-injecting server. A module per command (a file, or a folder when
//! it has more than one), plus the cross-cutting folders: `secrets`,
//! `hostile`, `model` (the run model's cross-command matrices), `output`
//! (the global output options), `errors` (exit codes and hints), `ending`
//! (how a command ends), `state` (local state) and `docs`. The real-keyring
//! tests stay a binary of their own (`tests/keyring.rs`) for their CI run
//! under a session bus.

mod common;

mod alias;
mod check;
mod cli;
mod doctor;
mod export;
mod login;
mod logs;
mod metrics;
mod run;
mod runs;
mod sandbox;
mod stats;
mod status;
mod watch;

mod docs;
mod ending;
mod errors;
mod hostile;
mod model;
mod output;
mod secrets;
mod state;
