//! Differential property tests: the log entry scanner, the streaming array
//! decoder and `--decode`'s canonical check and compact rewrite against
//! serde_json (the oracles are in `differential`, shared with `fuzz/`), on
//! generated JSON-ish text full of what trips decoders (escapes, lone and
//! paired `\u` surrogates, numbers of every shape, deep nesting, repeated
//! keys, odd whitespace), mutated a byte here and there (invalid UTF-8
//! among it), cut at every byte, and on arbitrary bytes. Each test also
//! checks that its inputs reach the paths it is about (the fast path, an
//! accepted array, a canonical text), so that none passes vacuously.

use std::cell::RefCell;
use std::collections::BTreeMap;

use proptest::prelude::*;
use proptest::test_runner::TestCaseError;

use super::differential::{self, Verdict};
use super::json_gen::{
    array_body, deep, entry_text, json_text, mutated, repeated_keys, valid_json,
};
use super::props::property_cases;

/// Counts of the paths the inputs took.
#[derive(Default)]
struct Paths(RefCell<BTreeMap<&'static str, usize>>);

impl Paths {
    fn check(&self, v: Verdict) -> Result<(), TestCaseError> {
        let path = v.map_err(TestCaseError::fail)?;
        *self.0.borrow_mut().entry(path).or_default() += 1;
        Ok(())
    }

    /// At least `min` inputs took `path`.
    fn reached(&self, path: &str, min: usize) {
        let n = self.0.borrow().get(path).copied().unwrap_or(0);
        assert!(n >= min, "{path}: {n} of {:?}", self.0.borrow());
    }

    /// The counts, on stderr (seen with `--nocapture`: TESTING.md's figures).
    fn show(&self, id: &str) {
        eprintln!("{id}: checks by path {:?}", self.0.borrow());
    }
}

/// Run `f` on a thread with a large stack: serde_json reads up to 128
/// levels, and the generated text nests that deep, which overflows the
/// test thread's 2 MiB in an unoptimised build.
fn big_stack(f: impl FnOnce() + Send + 'static) {
    let t = std::thread::Builder::new().stack_size(256 << 20).spawn(f);
    if let Err(e) = t.expect("a thread").join() {
        std::panic::resume_unwind(e);
    }
}

/// `b` cut short: at every byte up to 48 bytes, at 48 evenly spaced ones
/// (from a different first one each case) in longer text, so that across
/// the cases every byte is a cut; then `b` itself.
fn prefixes(b: &[u8], first: prop::sample::Index) -> impl Iterator<Item = &[u8]> {
    let step = b.len().div_ceil(48).max(1);
    (first.index(step)..b.len())
        .step_by(step)
        .map(|k| &b[..k])
        .chain([b])
}

/// Proptest's cases of each test: a few seconds in all in a debug build.
const ENTRY_CASES: u32 = 1000;
const ARRAY_CASES: u32 = 500;
const DECODE_CASES: u32 = 600;

#[test]
fn the_entry_scanner_agrees_with_serde_json_or_defers_to_it() {
    big_stack(|| {
        let paths = Paths::default();
        property_cases(
            "prop-diff-entry-scan",
            "the log entry scanner's fast path reads what serde_json reads from the same bytes (cut at every byte, mutated, arbitrary), or defers to it",
            ENTRY_CASES,
            (
                mutated(entry_text(true)),
                prop::collection::vec(any::<u8>(), 0..64),
                any::<prop::sample::Index>(),
            ),
            |(text, raw, first)| {
                for p in prefixes(&text, first) {
                    paths.check(differential::entry(p))?;
                }
                paths.check(differential::entry(&raw))
            },
        );
        paths.reached("fast", 120);
        paths.show("prop-diff-entry-scan");
    });
}

#[test]
fn the_stream_reads_arrays_as_serde_json_at_any_chunking() {
    big_stack(|| {
        let paths = Paths::default();
        property_cases(
            "prop-diff-array-stream",
            "the streaming array decoder, fed in arbitrary pieces, reads the elements serde_json reads from the whole body (as values, log entries and spans), or refuses as it does",
            ARRAY_CASES,
            (
                mutated(array_body()),
                prop::collection::vec(any::<usize>(), 0..10),
                prop::collection::vec(any::<u8>(), 0..64),
                any::<prop::sample::Index>(),
            ),
            |(body, cuts, raw, cut)| {
                paths.check(differential::array(&body, &cuts))?;
                // A body cut short anywhere, and one byte at a time.
                let short = &body[..cut.index(body.len() + 1)];
                paths.check(differential::array(short, &cuts))?;
                if body.len() <= 200 {
                    let bytes: Vec<usize> = (0..body.len()).collect();
                    paths.check(differential::array(&body, &bytes))?;
                }
                paths.check(differential::array(&raw, &cuts))
            },
        );
        paths.reached("log entries", 20);
        paths.reached("values", 15);
        paths.reached("refused", 100);
        paths.show("prop-diff-array-stream");
    });
}

#[test]
fn decode_writes_what_serde_json_writes() {
    big_stack(|| {
        let paths = Paths::default();
        let text = prop_oneof![
            4 => json_text(),
            2 => valid_json(),
            1 => repeated_keys(),
            1 => deep(),
        ];
        property_cases(
            "prop-diff-canonical",
            "--decode: a text the canonical check vouches for is serde_json's own writing of it, the compact rewrite is serde_json's byte for byte (cut at every byte, mutated, arbitrary bytes)",
            DECODE_CASES,
            (
                mutated(text),
                prop::collection::vec(any::<u8>(), 0..64),
                any::<prop::sample::Index>(),
            ),
            |(text, raw, first)| {
                for p in prefixes(&text, first) {
                    paths.check(differential::canonical_bytes(p))?;
                }
                // Text as serde_json writes it, which the check should vouch for.
                if let Ok(v) = serde_json::from_slice::<serde_json::Value>(&text) {
                    paths.check(differential::canonical(&v.to_string()))?;
                }
                paths.check(differential::canonical_bytes(&raw))
            },
        );
        paths.reached("canonical", 150);
        paths.reached("compact", 100);
        paths.reached("repeated key", 10);
        paths.show("prop-diff-canonical");
    });
}

/// The disagreements the differential tests and fuzz targets found, each
/// fixed in its decoder, kept as regressions.
#[test]
fn found_disagreements_stay_fixed() {
    let deep = |n: usize| format!("{}{}", "[".repeat(n), "]".repeat(n));
    for body in [
        "[\u{c}1]",
        "\u{c}[]",
        "[]\u{c}",
        "\u{c}null",
        "[1 2]",
        "[true x]",
        "[1:2]",
        "[1{}]",
        "[1 \"x\"]",
        &deep(127),
        &deep(128),
        &deep(129),
    ] {
        differential::array(body.as_bytes(), &[]).unwrap();
        differential::array(body.as_bytes(), &[1, 2, 3]).unwrap();
    }
    for text in [
        r#"{"output":0,"output""#,
        r#"{"a":1,"a":2"#,
        r#"{a":1}"#,
        r#"{"a":1,b":2}"#,
        &deep(127),
        &deep(128),
    ] {
        differential::canonical(text).unwrap();
    }
}
