//! Unit tests of `web_auth`: bcrypt once per credential, answers that run
//! out, and a flood of wrong passwords that cannot hold a good client.

use super::*;

const PASSWORD: &str = "pw-right";

/// An `Auth` for one user `prom` with a cheap bcrypt hash of `PASSWORD`.
fn auth(dir: &std::path::Path) -> (Auth, Arc<WebConfig>) {
    let p = dir.join("web.yml");
    let hash = bcrypt::hash(PASSWORD, 4).unwrap();
    std::fs::write(&p, format!("basic_auth_users:\n  prom: {hash}\n")).unwrap();
    let live = Arc::new(Live::new(
        p.clone(),
        WebConfig::load(&p).unwrap(),
        Ui::default(),
    ));
    let config = live.get();
    (Auth::new(live, Ui::default()), config)
}

fn checks(a: &Auth) -> u64 {
    a.checks.load(Ordering::Relaxed)
}

#[tokio::test]
async fn bcrypt_runs_once_per_credential_not_per_request() {
    let dir = tempfile::tempdir().unwrap();
    let (a, c) = auth(dir.path());
    for _ in 0..50 {
        assert!(a.check(&c, "prom", PASSWORD.into()).await);
    }
    assert_eq!(checks(&a), 1);
    for _ in 0..20 {
        assert!(!a.check(&c, "prom", "wrong".into()).await);
        assert!(!a.check(&c, "nobody", PASSWORD.into()).await);
    }
    assert_eq!(checks(&a), 3, "a wrong answer is remembered too");
    for i in 0..5 {
        assert!(!a.check(&c, "prom", format!("wrong{i}")).await);
    }
    assert_eq!(checks(&a), 8, "each new wrong password is checked");
}

#[tokio::test]
async fn concurrent_requests_with_the_same_credentials_check_once() {
    let dir = tempfile::tempdir().unwrap();
    let (a, c) = auth(dir.path());
    let all = (0..20).map(|_| a.check(&c, "prom", PASSWORD.into()));
    let ok = futures_util::future::join_all(all).await;
    assert!(ok.iter().all(|&b| b));
    assert_eq!(checks(&a), 1);
}

#[test]
fn an_answer_runs_out_and_a_good_one_keeps_its_lane() {
    let dir = tempfile::tempdir().unwrap();
    let (a, _) = auth(dir.path());
    let (good, bad) = (key("prom", "a", "h"), key("prom", "b", "h"));
    let t = Instant::now();
    a.remember(good, true, t);
    a.remember(bad, false, t);
    let at = |s: u64| t + Duration::from_secs(s);
    assert_eq!(a.lookup(&good, at(59)), Lookup::Good);
    assert_eq!(a.lookup(&bad, at(59)), Lookup::Bad);
    assert_eq!(a.lookup(&good, at(60)), Lookup::Renew);
    assert_eq!(a.lookup(&bad, at(60)), Lookup::Other);
    assert_eq!(a.lookup(&good, at(15 * 60)), Lookup::Other);
    // Another hash (the configuration changed) is another key.
    assert_ne!(key("prom", "a", "h"), key("prom", "a", "h2"));
    assert_ne!(key("pro", "ma", "h"), key("prom", "a", "h"));
}

#[test]
fn the_remembered_answers_are_bounded() {
    let dir = tempfile::tempdir().unwrap();
    let (a, _) = auth(dir.path());
    let t = Instant::now();
    a.remember(key("prom", PASSWORD, "h"), true, t);
    for i in 0..ENTRIES + 10 {
        a.remember(key("prom", &i.to_string(), "h"), false, t);
    }
    let n = a.seen.lock().unwrap().len();
    assert!(n <= ENTRIES, "{n}");
    assert_eq!(a.lookup(&key("prom", PASSWORD, "h"), t), Lookup::Good);
}

/// The other lane taken (as by a flood of wrong passwords): a client that
/// was good before is checked again in its own lane, a new one waits.
#[tokio::test(start_paused = true)]
async fn a_flood_of_wrong_passwords_does_not_hold_a_known_client() {
    let dir = tempfile::tempdir().unwrap();
    let (a, c) = auth(dir.path());
    let hash = c.users["prom"].clone();
    a.remember(key("prom", PASSWORD, &hash), true, Instant::now());
    tokio::time::advance(Duration::from_secs(61)).await;
    let flood = a.other.acquire().await.unwrap();
    // Its answer ran out: checked again, in its own lane.
    assert!(a.check(&c, "prom", PASSWORD.into()).await);
    assert_eq!(checks(&a), 1);
    // (The clock is paused: the time limit passes as soon as all wait.)
    let new = tokio::time::timeout(
        Duration::from_secs(1),
        a.check(&c, "prom", "never-seen".into()),
    );
    assert!(new.await.is_err(), "waits for the other lane");
    drop(flood);
    assert!(!a.check(&c, "prom", "never-seen".into()).await);
}

#[test]
fn basic_credentials_are_read() {
    let (u, p) = credentials("Basic dXNlcjpwYTpzcw==").unwrap();
    assert_eq!(u, "user");
    assert_eq!(p, "pa:ss");
    assert!(credentials("Bearer dXNlcjpwYXNz").is_none());
    assert!(credentials("Basic !!!").is_none());
    assert!(credentials("Basic dXNlcg==").is_none());
}
