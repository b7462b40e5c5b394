//! Bad input, black-box: a batch of generated rejected inputs that must
//! each exit 2 with no request sent. The property tests of the response
//! decoders and the streaming array scanner are the client's own
//! (`crates/ylem-client/src/oracle/`); those of the CLI's own parts (time
//! and window parser, ID and alias resolution, the panic hook's redaction)
//! are unit tests: `src/props_tests.rs`.

use crate::common;

use common::faultserver::*;
use common::report::Scenario;
use common::*;

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
