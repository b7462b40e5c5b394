//! Bad input to the CLI's own parts: property tests (no panic on any input)
//! over the time and window parser and ID and alias resolution, and the
//! panic hook's redaction. Unit tests, as these parts are not the library's
//! public surface; each records what it proved for TESTING.md, as the
//! scenarios of `tests/it/errors/rejected_inputs.rs` do.

use std::sync::atomic::{AtomicUsize, Ordering::SeqCst};

use chrono::{TimeZone, Utc};
use proptest::prelude::*;
use proptest::test_runner::{TestCaseError, TestRunner};

use crate::time::{Edge, Zone, parse_duration, parse_time, resolve_window};

const CASES: u32 = 384;

/// The secret and tokens the integration tests' servers know
/// (`tests/it/common/mod.rs` and `report.rs`): none may be shown.
const TOKEN: &str = "tok-AAAABBBBCCCCDDDDEEEEFFFF0000111122223333";
const SECRET: &str = "sec-ZZZZYYYYXXXXWWWWVVVVUUUU9999888877776666";
const SECRETS: [&str; 5] = [
    SECRET,
    TOKEN,
    "ref-QQQQPPPPOOOONNNNMMMMLLLL5555444433332222",
    "tok-2222BBBBCCCCDDDDEEEEFFFF0000111122223333",
    "ref-2222PPPPOOOONNNNMMMMLLLL5555444433332222",
];

fn config() -> ProptestConfig {
    ProptestConfig {
        cases: CASES,
        failure_persistence: None,
        ..ProptestConfig::default()
    }
}

/// Strings near the accepted forms, where off-by-one bugs live.
fn time_like() -> impl Strategy<Value = String> {
    prop_oneof![
        any::<String>(),
        "[0-9]{1,6}-[0-9]{1,3}-[0-9]{1,3}([ T][0-9]{1,3}:[0-9]{1,3}:[0-9]{1,3}(\\.[0-9]{0,12})?)?(Z|[+-][0-9]{2}:[0-9]{2})?",
        "[0-9]{1,40}(ms|s|m|h|d|w|y|é|)([0-9]{1,20}(ms|s|m|h|d|w))?",
        "(now|today|yesterday|[ \t]*)",
    ]
}

/// What a scenario proved, for TESTING.md: the record
/// `tests/it/common/report.rs` writes, in the same place
/// (`target/testing-report/`, three levels above `target/debug/deps/`).
fn record(id: &str, group: &str, proves: &str, searched: usize, cases: usize) {
    let exe = std::env::current_exe().expect("the test binary");
    let d = exe
        .ancestors()
        .nth(3)
        .expect("target dir")
        .join("testing-report");
    let _ = std::fs::create_dir_all(&d);
    let v = serde_json::json!({
        "id": id,
        "group": group,
        "proves": proves,
        "searched": searched,
        "cases": cases,
        "leaks": 0,
    });
    std::fs::write(d.join(format!("{id}.json")), v.to_string()).unwrap();
}

/// Run `test` on `CASES` inputs of `strategy` and record the scenario.
fn property<S: Strategy>(
    id: &'static str,
    proves: &'static str,
    strategy: S,
    test: impl Fn(S::Value) -> Result<(), TestCaseError>,
) {
    let mut runner = TestRunner::new(config());
    let n = AtomicUsize::new(0);
    let r = runner.run(&strategy, |v| {
        n.fetch_add(1, SeqCst);
        test(v)
    });
    if let Err(e) = r {
        panic!("{id}: {e}");
    }
    record(id, "input", proves, 0, n.load(SeqCst));
}

#[test]
fn times_durations_and_windows_never_panic() {
    let now = Utc.with_ymd_and_hms(2024, 1, 13, 18, 36, 58).unwrap();
    property(
        "prop-time-window",
        "parse_time, parse_duration and resolve_window never panic; a resolved window has from <= to",
        (time_like(), time_like(), time_like(), 0u8..8),
        |(a, b, c, pick)| {
            let _ = parse_duration(&a);
            for edge in [Edge::Start, Edge::End] {
                let _ = parse_time(&a, now, Zone::Utc, edge);
            }
            let opt = |on: bool, s: &str| on.then(|| s.to_string());
            let (f, t, since) = (
                opt(pick & 1 != 0, &a),
                opt(pick & 2 != 0, &b),
                opt(pick & 4 != 0, &c),
            );
            if let Ok(w) =
                resolve_window(f.as_deref(), t.as_deref(), since.as_deref(), now, Zone::Utc)
            {
                prop_assert!(w.from <= w.to);
            }
            Ok(())
        },
    );
}

#[test]
fn ids_and_alias_names_never_panic() {
    let dir = tempfile::tempdir().unwrap();
    let cli = crate::commands::parse_from(["ylemctl", "alias", "list"]).unwrap();
    let env = crate::settings::Env {
        config_dir: Some(dir.path().to_path_buf()),
        ..Default::default()
    };
    let settings =
        crate::settings::Settings::resolve(&cli.global, &env, Default::default(), Utc::now())
            .unwrap();
    let ctx = crate::context::Context::new(settings);
    property(
        "prop-ids-aliases",
        "Context::resolve_id and config::aliases::check_alias_name never panic; only a UUID resolves when no alias exists",
        prop_oneof![
            any::<String>(),
            "[0-9a-fA-F-]{30,40}",
            " ?[a-z0-9._-]{0,70}"
        ],
        |s| {
            if crate::config::aliases::check_alias_name(&s).is_ok() {
                prop_assert!(s.len() <= 64);
                prop_assert!(
                    s.chars()
                        .all(|c| c.is_ascii_alphanumeric() || "-_.".contains(c))
                );
            }
            if let Ok(u) = ctx.resolve_id(&s) {
                prop_assert_eq!(u.to_string(), s.trim().to_lowercase());
            }
            Ok(())
        },
    );
}

#[test]
fn a_panic_message_is_redacted() {
    let s = crate::redact::secret(SECRET);
    let t = crate::redact::secret(TOKEN);
    let payloads = [
        std::panic::catch_unwind(|| panic!("bad token {}", t.expose())).unwrap_err(),
        std::panic::catch_unwind(|| std::panic::panic_any(SECRET)).unwrap_err(),
    ];
    let mut searched = 0;
    for p in payloads {
        let text = crate::panic::panic_text(&*p, Some(" at src/x.rs:1"));
        assert!(
            text.starts_with("error: internal error: ") && text.contains("***"),
            "{text}"
        );
        // What `Scenario::check_text` asserts of the panic message.
        for secret in SECRETS {
            assert!(
                !text.contains(secret),
                "a secret reached the panic message:\n{text}"
            );
        }
        searched += 1;
    }
    drop(s);
    record(
        "panic-redaction",
        "secret",
        "the panic hook's text scrubs registered secrets from &str and String payloads",
        searched,
        0,
    );
}
