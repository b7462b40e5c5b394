//! Logging in and out, and what a profile's login is (`auth status`).

pub mod args;
pub mod auth;
pub mod log_in;
