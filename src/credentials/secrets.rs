//! The secret item's text while a login moves a profile: the new login's
//! sealed secret first and the old login's after it (a JSON array), so
//! that a login killed before its config is saved leaves the old login
//! whole (the config still names the old service, whose secret is there),
//! and one killed after leaves the new login whole. The login ends by
//! writing the new secret alone; a renewal under the profile's lock
//! prunes what a killed login left. Any other text is what it always was:
//! one sealed secret (or a bare one saved before secrets were sealed).

use ylem_client::Secret;
use ylem_client::auth::binding::{Binding, StoredSecret};

/// What the stored text is to a profile's binding.
pub enum Opened {
    /// Its secret, and whether the text held others too (to prune).
    Bound(Secret, bool),
    /// Saved before secrets were sealed: used for the profile's service.
    Unsealed(Secret),
    /// Sealed for another service or client only: never sent.
    Other { service: String, client: String },
    /// Not a secret as any version writes it (a file cut short by hand, a
    /// disk that lost a block): never sent, never saved back.
    Corrupt,
}

/// Open `text` under `binding`.
pub fn open(binding: &Binding, text: &str) -> Opened {
    let t = text.trim();
    if t.is_empty() {
        return Opened::Corrupt;
    }
    if t.starts_with('[') {
        let Ok(list) = serde_json::from_str::<Vec<serde_json::Value>>(t) else {
            return Opened::Corrupt;
        };
        let mut other = None;
        for v in &list {
            match open_held(binding, &v.to_string()) {
                StoredSecret::Bound(s) => return Opened::Bound(s, list.len() > 1),
                StoredSecret::Other { service, client } => {
                    other.get_or_insert(Opened::Other { service, client });
                }
                StoredSecret::Unsealed(_) => return Opened::Corrupt,
            }
        }
        return other.unwrap_or(Opened::Corrupt);
    }
    match open_held(binding, t) {
        StoredSecret::Bound(s) => Opened::Bound(s, false),
        StoredSecret::Other { service, client } => Opened::Other { service, client },
        // A bare secret is one word of printable characters; JSON begun and
        // not finished is a damaged sealed one.
        StoredSecret::Unsealed(_) if t.starts_with('{') || t.contains(char::is_whitespace) => {
            Opened::Corrupt
        }
        StoredSecret::Unsealed(s) => Opened::Unsealed(s),
    }
}

/// `binding.open_secret(text)`, the secret it opens held by the process.
fn open_held(binding: &Binding, text: &str) -> StoredSecret {
    match binding.open_secret(text) {
        StoredSecret::Bound(s) => StoredSecret::Bound(crate::redact::hold(s)),
        StoredSecret::Unsealed(s) => StoredSecret::Unsealed(crate::redact::hold(s)),
        other => other,
    }
}

/// The text a login writes first: `new` (sealed), then `old` (the sealed
/// secret the profile's current config opens), if there is one.
pub fn pending(new: &Secret, old: Option<&str>) -> Secret {
    let Some(old) = old.and_then(|o| serde_json::from_str::<serde_json::Value>(o.trim()).ok())
    else {
        return new.clone();
    };
    let Ok(new) = serde_json::from_str::<serde_json::Value>(new.expose()) else {
        return crate::redact::secret(new.expose());
    };
    crate::redact::secret(serde_json::Value::Array(vec![new, old]).to_string())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn either_login_opens_a_pending_text_and_damage_is_named() {
        let (a, b) = (Binding::new("http://a", "c"), Binding::new("http://b", "c"));
        let sa = a.seal_secret(&Secret::new("secret-a"));
        let sb = b.seal_secret(&Secret::new("secret-b"));
        let both = pending(&sb, Some(sa.expose()));
        assert!(
            matches!(open(&a, both.expose()), Opened::Bound(s, true) if s.expose() == "secret-a")
        );
        assert!(
            matches!(open(&b, both.expose()), Opened::Bound(s, true) if s.expose() == "secret-b")
        );
        assert!(matches!(open(&b, sa.expose()), Opened::Other { .. }));
        let cut = &sb.expose()[..sb.expose().len() / 2];
        assert!(matches!(open(&b, cut), Opened::Corrupt));
        assert!(matches!(open(&b, ""), Opened::Corrupt));
        assert!(matches!(open(&b, "abc123"), Opened::Unsealed(_)));
    }
}
