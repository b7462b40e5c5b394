//! Basic auth for `metrics serve`: bcrypt (constant-time, also for an
//! unknown user, so the time taken does not tell which users exist) run
//! off the async threads, once per credential rather than per request. A
//! check's answer is remembered for a minute, keyed by a SHA-256 of the
//! user, the password and the hash it was checked against (never the
//! password itself; a changed hash in the configuration is a new key).
//! Checks that are not remembered wait for one of two lanes: credentials
//! that were good before (a remembered answer that ran out) have a lane of
//! their own, so a flood of wrong passwords, which share one slot and so
//! are rate-limited, never delays a client that had the right one.

use std::collections::HashMap;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use aws_lc_rs::digest;
use axum::extract::{Request, State};
use axum::http::{StatusCode, header};
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};
use base64::Engine;
use tokio::sync::Semaphore;
// Tokio's clock, which a test can move on.
use tokio::time::Instant;

use crate::commands::monitor::serve::web_config::WebConfig;
use crate::commands::monitor::serve::web_serve::Live;
use crate::ui::Ui;

/// How long a check's answer holds.
const REMEMBER: Duration = Duration::from_secs(60);
/// How long credentials that were good keep their own lane.
const KNOWN: Duration = Duration::from_secs(15 * 60);
/// Answers remembered at most (the oldest are dropped first).
const ENTRIES: usize = 4096;
/// Checks at once for credentials that were good before.
const RENEW_LANE: usize = 2;
/// Checks at once for any other credentials: the rate limit on failures.
const OTHER_LANE: usize = 1;

type Key = [u8; 32];

/// What is remembered of some credentials.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Lookup {
    /// Checked, good, within `REMEMBER`.
    Good,
    /// Checked, wrong, within `REMEMBER`.
    Bad,
    /// Good once, but longer ago: check again in the renewal lane.
    Renew,
    /// Never seen, or long ago: check in the other lane.
    Other,
}

/// The users' checks, with their answers remembered.
pub struct Auth {
    live: Arc<Live>,
    ui: Ui,
    seen: Mutex<HashMap<Key, (bool, Instant)>>,
    renew: Semaphore,
    other: Semaphore,
    checks: AtomicU64,
}

impl Auth {
    pub fn new(live: Arc<Live>, ui: Ui) -> Self {
        Auth {
            live,
            ui,
            seen: Mutex::new(HashMap::new()),
            renew: Semaphore::new(RENEW_LANE),
            other: Semaphore::new(OTHER_LANE),
            checks: AtomicU64::new(0),
        }
    }

    fn lookup(&self, key: &Key, now: Instant) -> Lookup {
        let seen = self.seen.lock().unwrap_or_else(|e| e.into_inner());
        match seen.get(key) {
            Some(&(good, at)) if now.duration_since(at) < REMEMBER => {
                if good {
                    Lookup::Good
                } else {
                    Lookup::Bad
                }
            }
            Some(&(true, at)) if now.duration_since(at) < KNOWN => Lookup::Renew,
            _ => Lookup::Other,
        }
    }

    fn remember(&self, key: Key, good: bool, now: Instant) {
        let mut seen = self.seen.lock().unwrap_or_else(|e| e.into_inner());
        if seen.len() >= ENTRIES {
            seen.retain(|_, &mut (g, at)| {
                now.duration_since(at) < if g { KNOWN } else { REMEMBER }
            });
        }
        if seen.len() >= ENTRIES {
            seen.retain(|_, &mut (g, _)| g);
        }
        if seen.len() >= ENTRIES {
            seen.clear();
        }
        seen.insert(key, (good, now));
    }

    /// Whether `user` and `password` match the configuration.
    async fn check(&self, config: &WebConfig, user: &str, password: String) -> bool {
        let known = config.users.get(user);
        let hash = known
            .or_else(|| config.users.values().next())
            .cloned()
            .unwrap_or_default();
        let key = key(user, &password, &hash);
        let lane = match self.lookup(&key, Instant::now()) {
            Lookup::Good => return known.is_some(),
            Lookup::Bad => return false,
            Lookup::Renew => &self.renew,
            Lookup::Other => &self.other,
        };
        let Ok(_slot) = lane.acquire().await else {
            return false;
        };
        // The same credentials may have been checked while this waited.
        match self.lookup(&key, Instant::now()) {
            Lookup::Good => return known.is_some(),
            Lookup::Bad => return false,
            _ => {}
        }
        let n = self.checks.fetch_add(1, Ordering::Relaxed) + 1;
        // bcrypt is slow on purpose: never on the threads that serve.
        let matches =
            tokio::task::spawn_blocking(move || bcrypt::verify(password, &hash).unwrap_or(false))
                .await
                .unwrap_or(false);
        let good = matches && known.is_some();
        self.remember(key, good, Instant::now());
        self.ui.verbose(&format!(
            "basic auth: bcrypt check {n}: {}, remembered for {}s",
            if good { "accepted" } else { "refused" },
            REMEMBER.as_secs()
        ));
        good
    }
}

/// What the answers are remembered by: no password is kept.
fn key(user: &str, password: &str, hash: &str) -> Key {
    let mut ctx = digest::Context::new(&digest::SHA256);
    for part in [user, password, hash] {
        ctx.update(&(part.len() as u64).to_be_bytes());
        ctx.update(part.as_bytes());
    }
    let mut k = [0u8; 32];
    k.copy_from_slice(ctx.finish().as_ref());
    k
}

/// Basic auth when the configuration lists users: 401 with
/// `WWW-Authenticate` unless the user and password match.
pub async fn basic_auth(State(auth): State<Arc<Auth>>, req: Request, next: Next) -> Response {
    let config = auth.live.get();
    if config.users.is_empty() {
        return next.run(req).await;
    }
    let given = req
        .headers()
        .get(header::AUTHORIZATION)
        .and_then(|v| v.to_str().ok())
        .and_then(credentials);
    let ok = match given {
        Some((user, password)) => auth.check(&config, &user, password).await,
        None => false,
    };
    if ok {
        return next.run(req).await;
    }
    (
        StatusCode::UNAUTHORIZED,
        [(header::WWW_AUTHENTICATE, "Basic realm=\"ylemctl\"")],
        "Unauthorized\n",
    )
        .into_response()
}

/// `Basic base64(user:password)`. The password is what a client sent, right
/// or wrong: it is never shown, and not a `Secret` either, whose values are
/// scrubbed from all text (a wrong password could be any common word).
fn credentials(value: &str) -> Option<(String, String)> {
    let (scheme, encoded) = value.split_once(' ')?;
    if !scheme.eq_ignore_ascii_case("basic") {
        return None;
    }
    let raw = base64::engine::general_purpose::STANDARD
        .decode(encoded.trim())
        .ok()?;
    let text = String::from_utf8(raw).ok()?;
    let (user, password) = text.split_once(':')?;
    Some((user.to_string(), password.to_string()))
}

#[cfg(test)]
#[path = "web_auth_tests.rs"]
mod tests;
