//! A task's output as the service sends it: Base64, optionally AES-256-GCM
//! encrypted, and JSON text as serde_json writes it. `Decoder` is the way
//! in; the canonical check and the compact rewrite are public by themselves
//! for the differential tests and fuzz targets that hold them to serde_json.
//! This file only declares the parts and re-exports them.

mod canonical;
mod compact;
mod decode;

#[allow(
    unused_imports,
    reason = "for the oracle (`oracle/`: tests and fuzz targets)"
)]
pub(crate) use canonical::{Spans, is_canonical};
#[allow(
    unused_imports,
    reason = "for the oracle (`oracle/`: tests and fuzz targets)"
)]
pub(crate) use compact::{Compact, compact};
pub use decode::{DecodedOutput, Decoder, Scratch, Undecodable, Unreadable};
