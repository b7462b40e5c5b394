//! The service's endpoints 2 to 13, one async method each of `Client`,
//! returning typed models or a typed error; each request carries a token
//! from `auth` and goes out through `http`. It never prints (but the
//! request log). This file only declares the parts and re-exports them
//! (`client.rs` holds `Client`).

mod entry_scan;
/// The log entry scanner's fast path alone, for the differential tests and
/// fuzz targets that hold it to serde_json (`decode_entry` is the way in).
#[allow(
    unused_imports,
    reason = "for the oracle (`oracle/`: tests and fuzz targets)"
)]
pub(crate) use entry_scan::scan as scan_entry;
pub(crate) use entry_scan::special as special_bytes;
mod client;
/// An output cut to the stream's bound, and its marker.
pub(crate) mod cut;
/// Answers that never change, kept in memory and a caller's store.
pub mod kept;
/// The service's answers, as serde models.
pub mod models;
mod relay;
/// Decoding a JSON array element by element as it arrives.
pub mod stream;

pub use client::{
    Client, DateForm, LogStream, decode_entry, each_entry, each_entry_apart, next_entry,
};
