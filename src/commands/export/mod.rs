//! `export`: finished pipeline runs as OpenTelemetry traces and
//! OpenLineage run events, once or following.

pub mod args;
pub mod command;
mod cursor;
mod gather;
mod sink;
