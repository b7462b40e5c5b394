//! The HTTP layer under `auth` and `api`: sending one request (client,
//! retries, redirects, time limits, request log), turning a status and body
//! or a transport failure into an `Error`, and redaction for what it shows.
//!
//! It knows no endpoint but by path, and says nothing but through the
//! request log its caller installs (`RequestLog`).

pub(crate) mod body;
pub mod errors;
mod log;
mod proxy;
pub(crate) mod redact;
mod retry;
mod transport;
mod trust;

pub use log::{RequestLog, Warn};
#[cfg(feature = "export")]
pub(crate) use retry::parse_retry_after;
pub use retry::{Retry, backoff};
#[cfg(feature = "export")]
pub(crate) use transport::no_trust_store;
pub use transport::{Sent, Transport, TransportConfig};
