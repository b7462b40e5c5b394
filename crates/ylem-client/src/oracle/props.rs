//! The decoders under arbitrary input: the response models' decoders and
//! the streaming array scanner never panic on any JSON or bytes at any
//! chunking. And the runner every property test of the oracle uses, which
//! records what each proved for TESTING.md as the CLI's scenarios do.

use std::sync::atomic::{AtomicUsize, Ordering::SeqCst};

use proptest::prelude::*;
use proptest::test_runner::{TestCaseError, TestRunner};
use serde_json::Value;

use crate::api::models;
use crate::api::stream::{ArrayScanner, Part, decode_prefix};
use crate::auth::oauth::TokenResponse;
use crate::http::errors::decode_json;

const CASES: u32 = 384;

fn config() -> ProptestConfig {
    ProptestConfig {
        cases: CASES,
        failure_persistence: None,
        ..ProptestConfig::default()
    }
}

/// What a property proved, for TESTING.md: the record the CLI's scenarios
/// write (`tests/it/common/report.rs`), in the same place: the target
/// directory's `testing-report/`, three levels above this test binary in
/// `target/debug/deps/` (the workspace shares one target directory).
fn record(id: &str, proves: &str, cases: usize) {
    let exe = std::env::current_exe().expect("the test binary");
    let d = exe
        .ancestors()
        .nth(3)
        .expect("target dir")
        .join("testing-report");
    let _ = std::fs::create_dir_all(&d);
    let v = serde_json::json!({
        "id": id,
        "group": "input",
        "proves": proves,
        "searched": 0,
        "cases": cases,
        "leaks": 0,
    });
    std::fs::write(d.join(format!("{id}.json")), v.to_string()).unwrap();
}

/// Run `test` on `CASES` inputs of `strategy` and record the property.
pub(crate) fn property<S: Strategy>(
    id: &'static str,
    proves: &'static str,
    strategy: S,
    test: impl Fn(S::Value) -> Result<(), TestCaseError>,
) {
    property_cases(id, proves, CASES, strategy, test);
}

/// `property` on `cases` inputs.
pub(crate) fn property_cases<S: Strategy>(
    id: &'static str,
    proves: &'static str,
    cases: u32,
    strategy: S,
    test: impl Fn(S::Value) -> Result<(), TestCaseError>,
) {
    let mut runner = TestRunner::new(ProptestConfig { cases, ..config() });
    let n = AtomicUsize::new(0);
    let r = runner.run(&strategy, |v| {
        n.fetch_add(1, SeqCst);
        test(v)
    });
    if let Err(e) = r {
        panic!("{id}: {e}");
    }
    record(id, proves, n.load(SeqCst));
}

pub(crate) fn json_value() -> impl Strategy<Value = Value> {
    let leaf = prop_oneof![
        Just(Value::Null),
        any::<bool>().prop_map(Value::from),
        any::<i64>().prop_map(Value::from),
        any::<f64>().prop_map(Value::from),
        any::<String>().prop_map(Value::from),
        "[0-9]{4}-[0-9]{2}-[0-9]{2}[ T][0-9]{2}:[0-9]{2}:[0-9]{2}(\\.[0-9]{1,9})?Z?"
            .prop_map(Value::from),
    ];
    leaf.prop_recursive(4, 48, 8, |inner| {
        prop_oneof![
            prop::collection::vec(inner.clone(), 0..6).prop_map(Value::from),
            prop::collection::btree_map(
                prop_oneof![
                    Just("workflow_run_uuid".to_string()),
                    Just("executed_at".to_string()),
                    Just("last_run_executed_at".to_string()),
                    Just("duration".to_string()),
                    Just("is_successful".to_string()),
                    Just("output".to_string()),
                    Just("metric_value".to_string()),
                    Just("date_from".to_string()),
                    Just("pipeline_run_uuid".to_string()),
                    any::<String>(),
                ],
                inner,
                0..10,
            )
            .prop_map(|m| Value::Object(m.into_iter().collect())),
        ]
    })
}

fn decode_all(bytes: &[u8]) {
    let _ = decode_prefix::<models::LogEntryRef>(bytes, Part::Whole);
    let _ = crate::api::decode_entry(bytes, Part::Whole);
    let _ = decode_json::<models::RangeStats>(bytes);
    let _ = decode_json::<Option<Vec<models::Aggregated>>>(bytes);
    let _ = decode_json::<models::LastRun>(bytes);
    let _ = decode_json::<models::RunStart>(bytes);
    let _ = decode_json::<TokenResponse>(bytes);
}

/// Feed `bytes` to a scanner in chunks cut at `cuts`; the elements, or an error.
fn scan(bytes: &[u8], cuts: &[usize]) -> Result<Vec<Vec<u8>>, ()> {
    let mut s = ArrayScanner::new();
    let mut out = Vec::new();
    let mut at = 0;
    let mut points: Vec<usize> = cuts.iter().map(|c| c % (bytes.len() + 1)).collect();
    points.sort_unstable();
    points.push(bytes.len());
    for p in points {
        s.push(&bytes[at..p.max(at)]);
        at = p.max(at);
        while let Some(e) = s.next_element().map_err(|_| ())? {
            out.push(e.to_vec());
        }
    }
    if s.is_done() { Ok(out) } else { Err(()) }
}

#[test]
fn decoders_and_the_scanner_never_panic() {
    property(
        "prop-decoders-scanner",
        "model decoders and ArrayScanner never panic on arbitrary JSON and bytes at any chunking; valid arrays split exactly",
        (
            json_value(),
            prop::collection::vec(any::<u8>(), 0..300),
            prop::collection::vec(any::<usize>(), 0..12),
        ),
        |(v, raw, cuts)| {
            decode_all(v.to_string().as_bytes());
            decode_all(&raw);
            let _ = scan(&raw, &cuts);
            // A valid array splits into exactly its elements at any chunking.
            let arr = match v {
                Value::Array(a) => a,
                other => vec![other],
            };
            let text = Value::from(arr.clone()).to_string();
            let got = scan(text.as_bytes(), &cuts).expect("a valid array scans");
            let want: Vec<Vec<u8>> = arr.iter().map(|e| e.to_string().into_bytes()).collect();
            prop_assert_eq!(got, want);
            Ok(())
        },
    );
}
