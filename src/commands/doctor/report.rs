//! What `doctor` prints: one line a check (status, name, what it found,
//! and for a warning or failure the fix), or with `-o json`
//! `{"ok": bool, "checks": [{"name","status","detail","hint"}]}`; and the
//! exit code, the first failed check's.

use super::check::{Check, Status};
use crate::commands::kit::exit::Exit;

/// The exit status: 0 when nothing failed, else the first failure's code.
pub fn exit(checks: &[Check]) -> Exit {
    checks
        .iter()
        .find(|c| c.status == Status::Fail)
        .map_or(Exit::Success, |c| Exit::from_code(c.code))
}

pub fn json(checks: &[Check]) -> String {
    let all: Vec<serde_json::Value> = checks
        .iter()
        .map(|c| {
            serde_json::json!({
                "name": c.name,
                "status": c.status.word(),
                "detail": crate::redact::scrub(&c.detail),
                "hint": c.hint.as_deref().map(crate::redact::scrub),
            })
        })
        .collect();
    let ok = !checks.iter().any(|c| c.status == Status::Fail);
    format!("{}\n", serde_json::json!({ "ok": ok, "checks": all }))
}

/// `STATUS  NAME         DETAIL  (fix: HINT)`, one line a check, the
/// server's words escaped so that each stays one line.
pub fn text(checks: &[Check]) -> String {
    // Scrubbed first: escaping could split a secret that holds a control
    // character so that scrub no longer finds it.
    let clean = |s: &str| ylem_client::text::escape(&crate::redact::scrub(s)).into_owned();
    checks
        .iter()
        .map(|c| {
            let fix = match &c.hint {
                Some(h) if matches!(c.status, Status::Warn | Status::Fail) => {
                    format!("  (fix: {})", clean(h))
                }
                _ => String::new(),
            };
            format!(
                "{:<4}  {:<11}  {}{fix}\n",
                c.status.word(),
                c.name,
                clean(&c.detail)
            )
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn exit_is_the_first_failure() {
        let checks = vec![
            Check::ok("set-up", "fine"),
            Check::warn("network", "slow", "wait"),
            Check::fail("clock", 2, "off", "set it"),
            Check::fail("credentials", 3, "refused", "log in"),
        ];
        assert_eq!(exit(&checks), Exit::Code(2));
        assert_eq!(exit(&checks[..2]), Exit::Success);
        let v: serde_json::Value = serde_json::from_str(&json(&checks)).unwrap();
        assert_eq!(v["ok"], false);
        assert_eq!(v["checks"][0]["hint"], serde_json::Value::Null);
        assert_eq!(v["checks"][3]["hint"], "log in");
        let t = text(&[Check::fail("api", 5, "a\nb", "x")]);
        assert_eq!(t.lines().count(), 1, "{t}");
    }

    /// A secret holding a control character is scrubbed before escaping
    /// turns that character into something scrub would no longer match.
    #[test]
    fn a_secret_with_a_control_character_is_scrubbed() {
        let secret = crate::redact::secret("doctor-report-\u{1b}-tail-9f8e7d");
        let t = text(&[Check::fail(
            "api",
            5,
            format!("the server said {}", secret.expose()),
            "x",
        )]);
        assert!(!t.contains("tail-9f8e7d"), "{t}");
        assert!(t.contains("***"), "{t}");
    }
}
