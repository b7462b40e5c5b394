//! Secret values (client secret, access and refresh tokens) and the redactor
//! that removes every known secret from text before it reaches a person.
//!
//! A `Secret` prints as `***` and registers its value with a process-wide
//! list, so that error messages, request logs and panic messages can be
//! scrubbed even when a value slipped into them by some other route.

use std::collections::{HashMap, VecDeque};
use std::fmt;
use std::sync::{Mutex, OnceLock};

/// Values no `Secret` holds any more stay scrubbed this long (the newest
/// ones), for text made while they were held: a process that renews its
/// token every minute for weeks must not keep every token it ever had.
const RETIRED: usize = 64;

#[derive(Default)]
struct Registry {
    /// Each value, with how many `Secret`s (or `register` calls) hold it.
    live: HashMap<String, usize>,
    /// Values no longer held, the newest last.
    retired: VecDeque<String>,
}

fn registry() -> std::sync::MutexGuard<'static, Registry> {
    static REG: OnceLock<Mutex<Registry>> = OnceLock::new();
    REG.get_or_init(Default::default)
        .lock()
        .unwrap_or_else(|p| p.into_inner())
}

/// Remember a value so that `scrub` replaces it with `***`.
pub fn register(value: &str) {
    // Very short values would turn ordinary text into asterisks; no real
    // credential is that short.
    if value.len() < 4 {
        return;
    }
    let mut reg = registry();
    for v in encodings(value) {
        *reg.live.entry(v.clone()).or_insert(0) += 1;
        reg.retired.retain(|r| *r != v);
    }
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

/// Remember a value no `Secret` holds (a token a broken endpoint sent in an
/// error), scrubbed while it is among the newest retired values.
pub fn retire(value: &str) {
    if value.len() < 4 {
        return;
    }
    let mut reg = registry();
    for v in encodings(value) {
        if reg.live.contains_key(&v) || reg.retired.contains(&v) {
            continue;
        }
        reg.retired.push_back(v);
        if reg.retired.len() > RETIRED {
            reg.retired.pop_front();
        }
    }
}

/// One holder of `value` let it go; with none left it is retired.
fn release(value: &str) {
    let mut reg = registry();
    for v in encodings(value) {
        let Some(n) = reg.live.get_mut(&v) else {
            continue;
        };
        *n -= 1;
        if *n == 0 {
            reg.live.remove(&v);
            reg.retired.push_back(v);
            if reg.retired.len() > RETIRED {
                reg.retired.pop_front();
            }
        }
    }
}

/// Replace every registered secret in `text` with `***`.
pub fn scrub(text: &str) -> String {
    let reg = registry();
    let mut values: Vec<&str> = reg
        .live
        .keys()
        .chain(reg.retired.iter())
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

/// A value that must never be shown. `Debug` and `Display` print `***`.
/// Scrubbed from text while a `Secret` holds it, and a while after.
#[derive(PartialEq, Eq)]
pub struct Secret(String);

impl Secret {
    /// Hold `value`, registered for `scrub`.
    pub fn new(value: impl Into<String>) -> Self {
        let v = value.into();
        register(&v);
        Secret(v)
    }
    /// The value itself, for the request that needs it and nothing else.
    pub fn expose(&self) -> &str {
        &self.0
    }
}

impl Clone for Secret {
    fn clone(&self) -> Self {
        Secret::new(self.0.clone())
    }
}

impl Drop for Secret {
    fn drop(&mut self) {
        release(&self.0);
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

impl<'de> serde::Deserialize<'de> for Secret {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        String::deserialize(d).map(Secret::new)
    }
}

#[cfg(test)]
mod tests {
    #[test]
    fn a_secret_is_scrubbed_as_sent_in_a_form_body_and_in_a_url() {
        let s = Secret::new("s3cr+t/val=ue&x y-ZZ");
        let text = "echo: client_secret=s3cr%2Bt%2Fval%3Due%26x+y-ZZ and ?s=s3cr%2Bt%2Fval%3Due%26x%20y-ZZ";
        let shown = scrub(text);
        assert!(!shown.contains("s3cr"), "{shown}");
        drop(s);
        // Let go, it is still scrubbed (retired), in every form.
        assert!(!scrub(text).contains("s3cr"));
    }

    use super::*;

    #[test]
    fn secret_prints_as_stars_and_is_scrubbed() {
        let s = Secret::new("s3cr3t-value-xyz");
        assert_eq!(format!("{s} {s:?}"), "*** ***");
        assert_eq!(
            scrub("url?client_secret=s3cr3t-value-xyz&x=1"),
            "url?client_secret=***&x=1"
        );
    }

    #[test]
    fn secrets_let_go_are_forgotten_but_the_newest_ones() {
        let first = "retired-first-0000";
        drop(Secret::new(first));
        assert_eq!(
            scrub(first),
            "***",
            "a secret just let go is still scrubbed"
        );
        for i in 0..RETIRED + 10 {
            drop(Secret::new(format!("retired-{i:04}-token-value")));
        }
        assert_eq!(scrub(first), first, "kept for ever");
        let held = Secret::new("held-token-value-1");
        let copy = held.clone();
        drop(held);
        for i in 0..RETIRED + 10 {
            drop(Secret::new(format!("later-{i:04}-token-value")));
        }
        assert_eq!(scrub("held-token-value-1"), "***", "still held by a clone");
        drop(copy);
        let reg = registry();
        assert!(reg.live.len() < 50 && reg.retired.len() <= RETIRED);
    }
}
