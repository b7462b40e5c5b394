//! Secret values (client secret, access and refresh tokens) and the redactor
//! that removes every known secret from text before it reaches a person.
//!
//! A `Secret` prints as `***` and registers its value with a process-wide
//! list, so that error messages, `-vv` logs and panic messages can be
//! scrubbed even when a value slipped into them by some other route.

use std::fmt;
use std::sync::{Mutex, OnceLock};

fn registry() -> &'static Mutex<Vec<String>> {
    static REG: OnceLock<Mutex<Vec<String>>> = OnceLock::new();
    REG.get_or_init(|| Mutex::new(Vec::new()))
}

/// Remember a value so that `scrub` replaces it with `***`.
pub fn register(value: &str) {
    // Very short values would turn ordinary text into asterisks; no real
    // credential is that short.
    if value.len() < 4 {
        return;
    }
    let mut reg = registry().lock().unwrap_or_else(|p| p.into_inner());
    if !reg.iter().any(|v| v == value) {
        reg.push(value.to_string());
        // Longest first, so a secret that contains another is removed whole.
        reg.sort_by_key(|v| std::cmp::Reverse(v.len()));
    }
}

/// Replace every registered secret in `text` with `***`.
pub fn scrub(text: &str) -> String {
    let reg = registry().lock().unwrap_or_else(|p| p.into_inner());
    let mut out = text.to_string();
    for v in reg.iter() {
        if out.contains(v.as_str()) {
            out = out.replace(v.as_str(), "***");
        }
    }
    out
}

/// Install a panic hook whose message goes through `scrub`.
pub fn install_panic_hook() {
    std::panic::set_hook(Box::new(|info| {
        let at = info
            .location()
            .map(|l| format!(" at {}:{}", l.file(), l.line()));
        eprint!("{}", panic_text(info.payload(), at.as_deref()));
    }));
}

/// What the panic hook prints for a panic payload, redacted. Separate from
/// the hook so that tests can check it with a real payload.
pub fn panic_text(payload: &(dyn std::any::Any + Send), at: Option<&str>) -> String {
    let msg = if let Some(s) = payload.downcast_ref::<&str>() {
        (*s).to_string()
    } else if let Some(s) = payload.downcast_ref::<String>() {
        s.clone()
    } else {
        "panic".to_string()
    };
    scrub(&format!(
        "error: internal error: {msg}{}\nhint: this is a bug in ylemctl; please report it\n",
        at.unwrap_or("")
    ))
}

/// A value that must never be shown. `Debug` and `Display` print `***`.
#[derive(Clone, PartialEq, Eq)]
pub struct Secret(String);

impl Secret {
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
}
