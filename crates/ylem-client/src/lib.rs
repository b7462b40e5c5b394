// `ylem-client`'s root: its modules and the facade a program uses (the
// `pub use` below); the crate's documentation is its README, whose
// examples are doctests.
#![doc = include_str!("../README.md")]
#![deny(missing_docs)]

pub mod api;
pub mod auth;
mod builder;
mod count;
pub mod diagnose;
mod error;
#[cfg(feature = "export")]
pub mod export;
pub(crate) mod http;
mod kinds;
#[cfg(any(test, fuzzing))]
#[doc(hidden)]
pub mod oracle;
pub mod output;
pub mod quirks;
pub mod runs;
mod secret;
pub mod text;
pub mod time;

pub use api::kept::Store;
pub use api::models;
pub use api::{Client, DateForm, LogStream};
pub use auth::{ClientCredentials, TokenFuture, TokenProvider, TokenSource};
pub use builder::ClientBuilder;
pub use error::{Cause, Error, ErrorKind, Result};
pub use http::{RequestLog, Transport};
pub use kinds::{Entity, Period, RunKind, UnknownName};
pub use quirks::{DateForms, LastSeen, NotStarted};
pub use runs::{Failure, History, Last, NotKnown, Rule, RunView, Verdict};
pub use secret::{Redactor, Secret};
pub use time::Window;

/// A pipeline's log read entry by entry (`Client::pipeline_logs` opens
/// it): the next entry, or each one handed to a function, decoded once
/// and borrowed from the response buffer.
pub mod logs {
    pub use crate::api::stream::{Decoded, KEEP_OUTPUT, KEEP_OUTPUT_MAX, Part};
    pub use crate::api::{LogStream, decode_entry, each_entry, each_entry_apart, next_entry};
}

/// The `chrono` crate this crate's times are in (`DateTime<Utc>`).
pub use chrono;
/// The `uuid` crate this crate's IDs are in.
pub use uuid;
