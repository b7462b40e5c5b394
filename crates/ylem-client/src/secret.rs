//! Secret values (client secret, access and refresh tokens) and the
//! `Redactor` that removes every secret it holds from text before it
//! reaches a person.
//!
//! A `Secret` prints as `***`, and while a redactor holds it (and a while
//! after) that redactor scrubs its value from error messages, request logs
//! and panic messages, even when the value slipped into them by some other
//! route. Each client has its redactor (`ClientBuilder::redactor`); a
//! program shares one among its clients and its own output.

use std::collections::{HashMap, VecDeque};
use std::fmt;
use std::sync::{Arc, Mutex, MutexGuard};

/// Values no `Secret` holds any more stay scrubbed this long (the newest
/// ones), for text made while they were held: a process that renews its
/// token every minute for weeks must not keep every token it ever had.
const RETIRED: usize = 64;

#[derive(Default)]
struct Registry {
    /// Each value, with how many `Secret`s hold it.
    live: HashMap<String, usize>,
    /// Values no longer held, the newest last.
    retired: VecDeque<String>,
}

/// Very short values would turn ordinary text into asterisks; no real
/// credential is that short.
fn too_short(value: &str) -> bool {
    value.len() < 4
}

/// A value as it is sent and may come back: itself, and percent-encoded as
/// in a form body (space as `+`) and in a URL (space as `%20`). A server
/// that echoes the request in an error shows the encoded form, which for a
/// secret with `+`, `/` or `=` (Base64) differs from the value.
fn encodings(value: &str) -> Vec<String> {
    let mut form = String::new();
    for b in value.bytes() {
        match b {
            b'a'..=b'z' | b'A'..=b'Z' | b'0'..=b'9' | b'-' | b'.' | b'_' | b'*' => {
                form.push(b as char)
            }
            b' ' => form.push('+'),
            _ => form.push_str(&format!("%{b:02X}")),
        }
    }
    let url = form.replace('+', "%20");
    let mut all = vec![value.to_string()];
    for v in [form, url] {
        if !all.contains(&v) {
            all.push(v);
        }
    }
    all
}

impl Registry {
    fn register(&mut self, value: &str) {
        if too_short(value) {
            return;
        }
        for v in encodings(value) {
            *self.live.entry(v.clone()).or_insert(0) += 1;
            self.retired.retain(|r| *r != v);
        }
    }

    fn push_retired(&mut self, v: String) {
        self.retired.push_back(v);
        if self.retired.len() > RETIRED {
            self.retired.pop_front();
        }
    }

    fn retire(&mut self, value: &str) {
        if too_short(value) {
            return;
        }
        for v in encodings(value) {
            if self.live.contains_key(&v) || self.retired.contains(&v) {
                continue;
            }
            self.push_retired(v);
        }
    }

    /// One holder of `value` let it go; with none left it is retired.
    fn release(&mut self, value: &str) {
        for v in encodings(value) {
            let Some(n) = self.live.get_mut(&v) else {
                continue;
            };
            *n -= 1;
            if *n == 0 {
                self.live.remove(&v);
                self.push_retired(v);
            }
        }
    }

    fn scrub(&self, text: &str) -> String {
        let mut values: Vec<&str> = self
            .live
            .keys()
            .chain(self.retired.iter())
            .map(String::as_str)
            .collect();
        // Longest first, so a secret that contains another is removed whole.
        values.sort_by_key(|v| std::cmp::Reverse(v.len()));
        let mut out = text.to_string();
        for v in values {
            if out.contains(v) {
                out = out.replace(v, "***");
            }
        }
        out
    }
}

/// The secrets to scrub from text: those its `Secret`s hold, and the newest
/// ones let go. Cheap to clone: clones share one list, so a program hands
/// one to each client it builds and scrubs its own output with it too.
#[derive(Clone, Default)]
pub struct Redactor(Arc<Mutex<Registry>>);

impl Redactor {
    /// An empty one.
    pub fn new() -> Self {
        Self::default()
    }

    fn lock(&self) -> MutexGuard<'_, Registry> {
        self.0.lock().unwrap_or_else(|p| p.into_inner())
    }

    fn same(&self, other: &Redactor) -> bool {
        Arc::ptr_eq(&self.0, &other.0)
    }

    /// `secret`, held by this redactor from now on (and let go by the one
    /// that held it before): scrubbed while it lives, and a while after.
    pub fn hold(&self, mut secret: Secret) -> Secret {
        if secret.held.as_ref().is_some_and(|r| r.same(self)) {
            return secret;
        }
        self.lock().register(&secret.value);
        if let Some(old) = secret.held.replace(self.clone()) {
            old.lock().release(&secret.value);
        }
        secret
    }

    /// Scrub `value` too, though no `Secret` holds it (a token a broken
    /// endpoint sent in an error), while it is among the newest let go.
    pub fn retire(&self, value: &str) {
        self.lock().retire(value)
    }

    /// `text` with every secret this redactor knows replaced by `***`.
    pub fn scrub(&self, text: &str) -> String {
        self.lock().scrub(text)
    }
}

/// How many values it knows, never one of them.
impl fmt::Debug for Redactor {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let reg = self.lock();
        f.debug_struct("Redactor")
            .field("held", &reg.live.len())
            .field("retired", &reg.retired.len())
            .finish()
    }
}

/// A value that must never be shown. `Debug` and `Display` print `***`.
/// Scrubbed from text by the redactor that holds it (`Redactor::hold`),
/// while it lives and a while after; a client holds every secret it is
/// given or fetches in its own.
pub struct Secret {
    value: String,
    held: Option<Redactor>,
}

impl Secret {
    /// `value`, held by no redactor yet: there is no process-wide one, so
    /// a program that shows text of its own holds its secrets in the
    /// redactor it scrubs that text with (`Redactor::hold`).
    pub fn new(value: impl Into<String>) -> Self {
        Secret {
            value: value.into(),
            held: None,
        }
    }
    /// The value itself, for the request that needs it and nothing else.
    pub fn expose(&self) -> &str {
        &self.value
    }
}

/// Held again by the same redactor.
impl Clone for Secret {
    fn clone(&self) -> Self {
        if let Some(r) = &self.held {
            r.lock().register(&self.value);
        }
        Secret {
            value: self.value.clone(),
            held: self.held.clone(),
        }
    }
}

impl PartialEq for Secret {
    fn eq(&self, other: &Self) -> bool {
        self.value == other.value
    }
}

impl Eq for Secret {}

impl Drop for Secret {
    fn drop(&mut self) {
        if let Some(r) = &self.held {
            r.lock().release(&self.value);
        }
    }
}

impl fmt::Debug for Secret {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("***")
    }
}

impl fmt::Display for Secret {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("***")
    }
}

/// Held by no redactor (as `Secret::new`).
impl<'de> serde::Deserialize<'de> for Secret {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        String::deserialize(d).map(Secret::new)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_secret_is_scrubbed_as_sent_in_a_form_body_and_in_a_url() {
        let r = Redactor::new();
        let s = r.hold(Secret::new("s3cr+t/val=ue&x y-ZZ"));
        let text = "echo: client_secret=s3cr%2Bt%2Fval%3Due%26x+y-ZZ and ?s=s3cr%2Bt%2Fval%3Due%26x%20y-ZZ";
        let shown = r.scrub(text);
        assert!(!shown.contains("s3cr"), "{shown}");
        drop(s);
        // Let go, it is still scrubbed (retired), in every form.
        assert!(!r.scrub(text).contains("s3cr"));
    }

    #[test]
    fn secret_prints_as_stars_and_is_scrubbed() {
        let r = Redactor::new();
        let s = r.hold(Secret::new("s3cr3t-value-xyz"));
        assert_eq!(format!("{s} {s:?}"), "*** ***");
        assert_eq!(
            r.scrub("url?client_secret=s3cr3t-value-xyz&x=1"),
            "url?client_secret=***&x=1"
        );
        assert_eq!(format!("{r:?}"), "Redactor { held: 1, retired: 0 }");
    }

    #[test]
    fn redactors_are_apart_and_a_held_secret_moves() {
        let (a, b) = (Redactor::new(), Redactor::new());
        let s = a.hold(Secret::new("moved-secret-1234"));
        assert_eq!(a.scrub("moved-secret-1234"), "***");
        assert_eq!(b.scrub("moved-secret-1234"), "moved-secret-1234");
        let s = b.hold(s);
        assert_eq!(b.scrub("moved-secret-1234"), "***");
        // Let go by `a`: retired there, still scrubbed a while.
        assert_eq!(a.lock().live.len(), 0);
        assert_eq!(a.scrub("moved-secret-1234"), "***");
        drop(s);
    }

    #[test]
    fn secrets_let_go_are_forgotten_but_the_newest_ones() {
        let r = Redactor::new();
        let first = "retired-first-0000";
        drop(r.hold(Secret::new(first)));
        assert_eq!(
            r.scrub(first),
            "***",
            "a secret just let go is still scrubbed"
        );
        for i in 0..RETIRED + 10 {
            drop(r.hold(Secret::new(format!("retired-{i:04}-token-value"))));
        }
        assert_eq!(r.scrub(first), first, "kept for ever");
        let held = r.hold(Secret::new("held-token-value-1"));
        let copy = held.clone();
        drop(held);
        for i in 0..RETIRED + 10 {
            drop(r.hold(Secret::new(format!("later-{i:04}-token-value"))));
        }
        assert_eq!(
            r.scrub("held-token-value-1"),
            "***",
            "still held by a clone"
        );
        drop(copy);
        let reg = r.lock();
        assert!(reg.live.len() < 50 && reg.retired.len() <= RETIRED);
    }
}
