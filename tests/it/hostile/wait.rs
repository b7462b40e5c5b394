//! `run --wait` whose history lookup fails, through a proxy in front of the
//! sandbox that cuts off the lookups it is told to.

use crate::common;

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
