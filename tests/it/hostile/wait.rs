//! `run --wait` whose history lookup fails, through a proxy in front of the
//! sandbox that cuts off the lookups it is told to; a wait whose look at
//! the log never ends.

use crate::common;

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

use common::faultserver::*;
use common::report::Scenario;
use common::sandbox;
use common::*;

use super::strs;

/// Whether a request is a history lookup: a pipeline's log from a day or
/// more back (a wait's own polls ask from ten minutes back).
fn is_history(r: &Seen) -> bool {
    let Some(rest) = r.path.split("/logs/").nth(1) else {
        return false;
    };
    let from = chrono::NaiveDate::parse_from_str(&rest[..10.min(rest.len())], "%Y-%m-%d");
    from.is_ok_and(|d| d < chrono::Utc::now().date_naive() - chrono::Duration::hours(20))
}

#[test]
fn a_wait_whose_history_lookup_fails_still_ends_on_the_historys_task_set() {
    let mut sc = Scenario::new(
        "history-fault",
        "fault",
        "run --wait whose history lookup is cut off once, or fails for its first 9 requests (every try before the start), ends succeeded with completion 'history'; the lasting failure is a warning on stderr and history is asked again at the polls",
    );
    let sb = sandbox::start("spec");
    let reliable = sb.banner["pipelines"]
        .as_array()
        .unwrap()
        .iter()
        .find(|p| p["notes"].to_string().contains("always succeed"))
        .expect("a pipeline whose runs always succeed")["uuid"]
        .as_str()
        .unwrap()
        .to_string();
    for failures in [1, 9] {
        let base = sb.base.clone();
        let failed = std::sync::atomic::AtomicUsize::new(0);
        let proxy = FaultServer::start(move |r, _| {
            if is_history(r) && failed.fetch_add(1, std::sync::atomic::Ordering::SeqCst) < failures
            {
                let mut b = open_head(200);
                b.extend(b"[{\"workflow_run_uuid\":\"x");
                Action::ResetAfter(b)
            } else {
                Action::Raw(forward(&base, r))
            }
        });
        let env = [
            ("YLEM_BASE_URL", proxy.base()),
            ("YLEM_CLIENT_ID", sb.client_id.clone()),
            ("YLEM_CLIENT_SECRET", sb.secret.clone()),
        ];
        let args = [
            "run",
            "pipeline",
            &reliable,
            "--wait",
            "--poll",
            "200ms",
            "--wait-timeout",
            "60s",
            "-o",
            "json",
        ];
        let o = ylem(&args, &strs(&env));
        sc.check(&o);
        assert!(!o.all().contains(&sb.secret), "{}", o.stderr);
        assert_eq!(o.code, 0, "{failures} failures: {}", o.stderr);
        let v: serde_json::Value = serde_json::from_str(&o.stdout).unwrap();
        let row = if v.is_array() { &v[0] } else { &v };
        assert_eq!(row["verdict"], "succeeded", "{row}");
        assert_eq!(
            row["completion"], "history",
            "{failures} failures: {row}\n{}",
            o.stderr
        );
        if failures > 1 {
            assert!(
                o.stderr.contains("warning: cannot read the history"),
                "{}",
                o.stderr
            );
        }
        let history = proxy.seen().iter().filter(|r| is_history(r)).count();
        assert!(history > failures, "asked again: {history}");
    }
    sc.done();
}

/// Whether a log request reaches past now (a wait's looks ask up to ten
/// minutes ahead; a history look-up or a window up to now does not).
fn reaches_ahead(r: &Seen) -> bool {
    let Some(to) = r
        .path
        .split("/logs/")
        .nth(1)
        .and_then(|rest| rest.split('/').nth(1))
    else {
        return false;
    };
    let to = to.split('?').next().unwrap_or("").replace("%20", " ");
    chrono::NaiveDateTime::parse_from_str(&to, "%Y-%m-%d %H:%M:%S")
        .is_ok_and(|t| t.and_utc() > chrono::Utc::now() + chrono::Duration::minutes(1))
}

/// `run --wait` and `runs --run R --wait` whose look at the log never ends
/// (entries of another run, one every 50 ms, for a minute: never a stall
/// `--timeout` would cut) end at `--wait-timeout` with exit 8, the look
/// cut mid-way, not when the server lets go. Only the wait's first look
/// is endless: what `runs --wait` reads after the wait is answered.
#[test]
fn wait_timeout_ends_a_wait_whose_look_never_ends() {
    const RUN: &str = "7e57a1b2-0000-4000-8000-0000000000c1";
    let other = r#"{"workflow_run_uuid":"7e57a1b2-0000-4000-8000-0000000000ff","task_uuid":"d29fdd6c-4a5b-466f-bcac-c82e7015a133","task_type":"query","is_successful":true,"duration":5,"output":"","executed_at":"2026-01-01T00:00:00Z"},"#;
    for args in [
        vec!["run", "pipeline", P1, "--wait"],
        vec!["runs", P1, "--run", RUN, "--wait", "--exit-status"],
    ] {
        let endless_sent = Arc::new(AtomicBool::new(false));
        let sent = endless_sent.clone();
        let s = with_token(move |r, _| {
            if r.method == "POST" {
                return Action::Raw(json(200, &format!(r#"{{"pipeline_run_uuid":"{RUN}"}}"#)));
            }
            if reaches_ahead(r) && !sent.swap(true, Ordering::SeqCst) {
                return Action::Endless {
                    head: open_head(200),
                    start: b"[".to_vec(),
                    filler: other.as_bytes().to_vec(),
                    every: Some(Duration::from_millis(50)),
                    hold: Duration::from_secs(60),
                };
            }
            Action::Raw(json(200, "[]"))
        });
        let dir = tempfile::tempdir().unwrap();
        let mut all: Vec<&str> = args.clone();
        all.extend(["--wait-timeout", "3s", "--poll", "1s", "--timeout", "5s"]);
        let started = Instant::now();
        let o = client_run(&s.base(), dir.path(), &all);
        let took = started.elapsed();
        eprintln!("{}: exit {} after {took:?}", args.join(" "), o.code);
        assert_eq!(o.code, 8, "{args:?}: {}", o.stderr);
        assert!(!o.all().contains(SECRET), "{}", o.stderr);
        assert!(
            endless_sent.load(Ordering::SeqCst),
            "{args:?}: no endless look was asked"
        );
        // Cut at the timeout, not at the server's minute.
        assert!(took < Duration::from_secs(40), "{args:?}: {took:?}");
    }
}
