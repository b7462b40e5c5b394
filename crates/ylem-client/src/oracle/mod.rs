//! The decoders held to serde_json: the differential oracles (the log entry
//! scanner, the streaming array decoder, `output`'s canonical check and
//! compact rewrite) and the property tests that drive them and the response
//! decoders on generated and arbitrary input. Built only for the crate's
//! tests and for the fuzz targets (`--cfg fuzzing`, which call
//! `differential`); nothing here is part of the library's API. The tests
//! need proptest, a dev-dependency, so only `differential` builds under
//! `fuzzing`.

pub mod differential;
#[cfg(test)]
mod json_gen;
#[cfg(test)]
mod props;
#[cfg(test)]
mod props_differential;
#[cfg(test)]
mod props_logs;
