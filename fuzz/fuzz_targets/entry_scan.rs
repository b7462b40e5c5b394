//! Fuzz target: the log entry scanner's fast path against serde_json on the
//! same bytes (`differential::entry`, shared with the property tests).
#![no_main]

#[allow(dead_code)]
#[path = "../../tests/it/differential.rs"]
mod differential;

libfuzzer_sys::fuzz_target!(|data: &[u8]| {
    if let Err(e) = differential::entry(data) {
        panic!("disagreement: {e}");
    }
});
