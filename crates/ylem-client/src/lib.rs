//! `ylem-client`: the Ylem run and statistics service for any Rust program.
//! A `Client` (built with `ClientBuilder`) sends each request with retries,
//! redirects, time limits and a bearer token from a `TokenSource`, and
//! returns typed models or an `Error` that says what happened (its kind,
//! message, HTTP status and the server's body) and why (`Cause`). It never
//! prints: a `RequestLog` the caller installs hears of each request. A
//! `Client` is cheap to clone (its state is shared) and its request
//! futures are `Send`: spawn them on any runtime. Secrets are scrubbed by
//! the `Redactor` a client is built with.
//! Beyond single requests: the run model (`runs`: a run folded from its
//! log and judged, an entity's last run, the polling driver) and the
//! server's quirks (`quirks`: last run, refusals, the date form), and what
//! can be learnt about a server when something is off (`diagnose`).
//!
//! ```no_run
//! # async fn demo() -> ylem_client::Result<()> {
//! use ylem_client::{ClientBuilder, Entity, Secret, TokenSource};
//! let client = ClientBuilder::new("http://127.0.0.1:7339")
//!     .token_source(TokenSource::Fixed(Secret::new("a-token")))
//!     .build()?;
//! let id = uuid::Uuid::nil();
//! let last = client.last_run(Entity::Pipeline, id).await?;
//! # let _ = last;
//! # Ok(())
//! # }
//! ```
#![deny(missing_docs)]

pub mod api;
pub mod auth;
mod builder;
pub mod count;
pub mod diagnose;
mod error;
pub mod http;
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

pub use api::{Client, DateForm, LogStream};
pub use auth::{ClientCredentials, TokenProvider, TokenSource};
pub use builder::ClientBuilder;
pub use error::{Cause, Error, ErrorKind, Result};
pub use http::{RequestLog, Retry, Transport, TransportConfig, backoff};
pub use kinds::{Entity, Period, RunKind, UnknownName};
pub use quirks::{DateForms, LastSeen, NotStarted};
pub use runs::{Failure, History, Last, NotKnown, Rule, RunView, Verdict};
pub use secret::{Redactor, Secret, process_redactor, scrub};
pub use time::Window;

/// The `chrono` crate this crate's times are in (`DateTime<Utc>`).
pub use chrono;
/// The `uuid` crate this crate's IDs are in.
pub use uuid;
