//! Bad input: property tests (no panic on any input) over the response
//! decoders and the streaming array scanner, and a black-box batch of
//! generated rejected inputs that must each exit 2 with no request sent.
//! The CLI's own parts (time and window parser, ID and alias resolution,
//! the panic hook's redaction) are unit tests: `src/props_tests.rs`.

use crate::common;

use std::sync::atomic::{AtomicUsize, Ordering::SeqCst};

use common::faultserver::*;
use common::report::Scenario;
use common::*;
use proptest::prelude::*;
use proptest::test_runner::{TestCaseError, TestRunner};
use serde_json::Value;
use ylem_client::api::models;
use ylem_client::api::stream::{ArrayScanner, Part, decode_prefix};
use ylem_client::auth::oauth::TokenResponse;
use ylem_client::http::errors::decode_json;

const CASES: u32 = 384;

fn config() -> ProptestConfig {
    ProptestConfig {
        cases: CASES,
        failure_persistence: None,
        ..ProptestConfig::default()
    }
}

/// Run `test` on `CASES` inputs of `strategy` and record the scenario.
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
    let mut sc = Scenario::new(id, "input", proves);
    sc.cases(n.load(SeqCst));
    sc.done();
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
    let _ = ylem_client::api::decode_entry(bytes, Part::Whole);
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

/// A small deterministic generator: the batch is the same on every run.
struct Lcg(u64);
impl Lcg {
    fn next(&mut self, n: u64) -> u64 {
        self.0 = self
            .0
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        (self.0 >> 33) % n
    }
    fn word(&mut self, alphabet: &[u8], max: u64) -> String {
        (0..1 + self.next(max))
            .map(|_| alphabet[self.next(alphabet.len() as u64) as usize] as char)
            .collect()
    }
}

#[test]
fn generated_rejected_inputs_exit_2_and_send_nothing() {
    let mut sc = Scenario::new(
        "generated-rejected-inputs",
        "input",
        "generated bad IDs, times, durations, counts and periods each exit 2 and no request reaches the recording server",
    );
    let s = FaultServer::start(|_, _| Action::Raw(json(200, "{}")));
    let env = [
        ("YLEM_BASE_URL", s.base()),
        ("YLEM_TOKEN", TOKEN.to_string()),
    ];
    let env: Vec<(&str, &str)> = env.iter().map(|(k, v)| (*k, v.as_str())).collect();
    let mut g = Lcg(7339);
    let mut batch: Vec<Vec<String>> = Vec::new();
    for _ in 0..12 {
        let id = g.word(b"0123456789abcdefXYZ-_ .!/", 44);
        batch.push(vec!["stats".into(), "task".into(), id.clone()]);
        let t = match g.next(3) {
            0 => format!("2024-{}-01", 13 + g.next(87)),
            1 => format!("2024-01-01T{}:00:00", 24 + g.next(76)),
            _ => format!("{}{}", g.next(1000), g.word(b"qyxzQ", 3)),
        };
        batch.push(vec![
            "stats".into(),
            "pipeline".into(),
            P1.into(),
            "--from".into(),
            t,
        ]);
        let d = format!("{}{}", 1 + g.next(10_000_000), g.word(b"yqMXo", 2));
        batch.push(vec!["logs".into(), P1.into(), "--since".into(), d]);
        let c = match g.next(3) {
            0 => "0".to_string(),
            1 => format!("-{}", 1 + g.next(100)),
            _ => g.word(b"abcxyz", 6),
        };
        batch.push(vec![
            "aggregate".into(),
            "task".into(),
            P1.into(),
            "--count".into(),
            c,
        ]);
        let p = g.word(b"fortnightly", 10);
        batch.push(vec![
            "aggregate".into(),
            "task".into(),
            P1.into(),
            "--period".into(),
            p,
        ]);
    }
    for args in &batch {
        let a: Vec<&str> = args.iter().map(String::as_str).collect();
        let o = ylem(&a, &env);
        assert_eq!(o.code, 2, "{a:?} exited {}: {}", o.code, o.stderr);
        sc.check(&o);
    }
    assert!(s.seen().is_empty(), "a request was sent for rejected input");
    sc.cases(batch.len());
    sc.done();
}
