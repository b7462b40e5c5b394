//! What a program can learn about a service when something is off between
//! it and the service, as facts for the caller to judge and word: where the
//! base URL leads and how long a connection takes (`net`), the server's TLS
//! certificate (`tls`), the server's clock (`clock`), the scopes a token
//! grants against what the endpoints need (`scopes`), and how the API
//! answers a fresh token: the plan check, the dialect, workflow endpoints
//! (`api`). Nothing here prints, and nothing here holds a secret it was not
//! handed.

// Only with the `diagnose` feature: its TLS probe brings tokio-rustls and
// the platform verifier as direct dependencies.
#![cfg(feature = "diagnose")]

pub mod api;
pub mod clock;
mod der;
pub mod net;
pub mod scopes;
pub mod tls;
