//! Fuzz target: `--decode`'s canonical check and compact rewrite, and the
//! decoder as a whole, against serde_json's writing of the same text
//! (`differential::canonical_bytes`, shared with the client's property
//! tests).
#![no_main]

use ylem_client::oracle::differential;

libfuzzer_sys::fuzz_target!(|data: &[u8]| {
    if let Err(e) = differential::canonical_bytes(data) {
        panic!("disagreement: {e}");
    }
});
