//! The HTTP layer under `auth` and `api`: sending one request (client,
//! retries, redirects, time limits, request log), turning a status and body
//! or a transport failure into an `Error`, and redaction for what it shows.
//!
//! It knows no endpoint but by path, never opens the keyring, and prints
//! only the request log.

pub(crate) mod body;
pub mod errors;
pub(crate) mod redact;
pub(crate) mod retry;
pub(crate) mod transport;

pub use errors::MAY_HAVE_STARTED;
pub use retry::{Retry, backoff};
pub use transport::{Sent, Transport, TransportConfig};
