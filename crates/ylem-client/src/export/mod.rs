//! Finished runs as telemetry (feature `export`): one OpenTelemetry trace
//! per run (`otlp`), a START and a COMPLETE or FAIL OpenLineage run event
//! per run (`lineage`), and the POST that hands them to a receiver with
//! the OTLP retry rules (`send`).
//!
//! The caller judges a run (the run model, `runs`) and hands over only a
//! finished one: what is encoded here is never a guess about a run in
//! progress. Encoding is pure: the same run gives the same bytes, IDs
//! included, so exporting a run twice is harmless to a receiver that
//! deduplicates by ID.

pub mod lineage;
pub mod otlp;
mod run;
pub mod send;

pub use run::{FinishedRun, TaskRun};
