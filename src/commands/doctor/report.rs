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
                "detail": ylem_client::scrub(&c.detail),
                "hint": c.hint.as_deref().map(ylem_client::scrub),
            })
        })
        .collect();
    let ok = !checks.iter().any(|c| c.status == Status::Fail);
    format!("{}\n", serde_json::json!({ "ok": ok, "checks": all }))
}

/// `STATUS  NAME         DETAIL  (fix: HINT)`, one line a check, the
/// server's words escaped so that each stays one line.
pub fn text(checks: &[Check]) -> String {
    let clean = |s: &str| ylem_client::scrub(&ylem_client::text::escape(s));
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
            Check::fail("clock", 2, "off", None),
            Check::fail("credentials", 3, "refused", Some("log in".into())),
        ];
        assert_eq!(exit(&checks), Exit::Code(2));
        assert_eq!(exit(&checks[..2]), Exit::Success);
        let v: serde_json::Value = serde_json::from_str(&json(&checks)).unwrap();
        assert_eq!(v["ok"], false);
        assert_eq!(v["checks"][0]["hint"], serde_json::Value::Null);
        assert_eq!(v["checks"][3]["hint"], "log in");
        let t = text(&[Check::fail("api", 5, "a\nb", Some("x".into()))]);
        assert_eq!(t.lines().count(), 1, "{t}");
    }
}
