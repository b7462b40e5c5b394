//! Secrets stay secret across commands: credentials bound to their
//! service, a broken token endpoint, and `-vv`.

mod binding;
mod token_endpoint;
mod verbose;
