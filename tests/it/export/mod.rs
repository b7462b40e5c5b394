//! `export otlp` and `export openlineage`: what arrives at a receiver that
//! reads it with the official definitions (`common::receiver`). `harness`
//! checks those receivers themselves.

mod follow;
mod harness;
mod lineage;
mod refusals;
mod traces;
