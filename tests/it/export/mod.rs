//! `export otlp` and `export openlineage`: what arrives at a receiver that
//! reads it with the official definitions (`common::receiver`). `harness`
//! checks those receivers themselves.

mod harness;
