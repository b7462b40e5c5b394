//! Fuzz target: the log entry scanner's fast path against serde_json on the
//! same bytes (`differential::entry`, shared with the client's property
//! tests).
#![no_main]

use ylem_client::oracle::differential;

libfuzzer_sys::fuzz_target!(|data: &[u8]| {
    if let Err(e) = differential::entry(data) {
        panic!("disagreement: {e}");
    }
});
