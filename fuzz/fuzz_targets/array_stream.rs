//! Fuzz target: the streaming array decoder, fed the body in pieces, against
//! serde_json reading it whole (`differential::array`, shared with the
//! client's property tests). The first byte chooses the pieces' size (1 to
//! 16 bytes, or the body whole), the rest is the body.
#![no_main]

use ylem_client::oracle::differential;

libfuzzer_sys::fuzz_target!(|data: &[u8]| {
    let Some((&size, body)) = data.split_first() else {
        return;
    };
    let cuts: Vec<usize> = match size % 17 {
        0 => Vec::new(),
        n => (0..body.len()).step_by(usize::from(n)).collect(),
    };
    if let Err(e) = differential::array(body, &cuts) {
        panic!("disagreement: {e}");
    }
});
