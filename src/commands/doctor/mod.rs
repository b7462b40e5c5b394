//! `ylemctl doctor`: ordered checks that say why the tool cannot talk to
//! the service, and what to do. What it learns about a server comes from
//! `ylem_client::diagnose`; this wing judges and words it.

mod aliases;
mod api;
mod args;
mod check;
mod clock;
mod credentials;
mod network;
mod report;
mod run;
mod setup;

pub use run::COMMAND;
