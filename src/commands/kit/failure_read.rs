//! How the commands read a failure's outputs: the decryption key from
//! `--decrypt-key-file`, else `YLEM_DECRYPT_KEY_FILE`, else the profile's
//! `decrypt_key_file`; the output decoder (`ylem_client::output`); an
//! output that is no errors array shortened for people; and the profile's
//! aliases to name tasks. The service's `Finder` reads failures through them.

use std::collections::HashMap;
use std::path::Path;

use crate::commands::kit::key_file::read_key;
use crate::context::Context;
use crate::error::Result;
use crate::output::table;
use ylem_client::output::Decoder;
use ylem_client::runs::failure::{Finder, Outputs, Unreadable};

/// At most this many terminal cells of an output that is no errors array.
const EXCERPT: usize = 200;

/// The key: the flag, else `YLEM_DECRYPT_KEY_FILE`, else the profile's
/// `decrypt_key_file`.
pub fn key(ctx: &Context, flag: Option<&Path>) -> Result<Option<[u8; 32]>> {
    let from_profile = || -> Result<Option<std::path::PathBuf>> {
        match ctx.config()? {
            Some(c) => c.decrypt_key_file(&ctx.settings.profile),
            None => Ok(None),
        }
    };
    let path = match (flag, &ctx.settings.decrypt_key_file) {
        (Some(p), _) => Some(p.to_path_buf()),
        (None, Some(p)) => Some(p.clone()),
        (None, None) => from_profile()?,
    };
    path.as_deref().map(read_key).transpose()
}

/// Read the key (an unreadable key file is a usage error, before any
/// request) and the aliases, once per command.
pub fn finder(ctx: &Context, flag: Option<&Path>) -> Result<Finder> {
    let key = key(ctx, flag)?;
    // Aliases only name tasks here: a config that cannot be read costs
    // the names, not the command (its own error shows elsewhere).
    let names = match ctx.config() {
        Ok(Some(c)) => c
            .aliases_for(&ctx.settings.profile)
            .map(|m| m.into_iter().map(|(n, u)| (u.to_string(), n)).collect())
            .unwrap_or_default(),
        _ => HashMap::new(),
    };
    Ok(Finder::new(Box::new(Decoded(Decoder::new(key))), names))
}

/// Outputs read by the CLI's decoder.
struct Decoded(Decoder);

impl Outputs for Decoded {
    fn plain_text(&self, output: &str) -> std::result::Result<String, Unreadable> {
        self.0.plain_text(output)
    }

    fn excerpt(&self, text: &str) -> String {
        table::shorten(text, EXCERPT)
    }
}

/// For the wings' unit tests: outputs in plain text (no Base64), as the
/// tests write them, read through the service's `Finder`.
#[cfg(test)]
pub fn plain_finder() -> Finder {
    struct Plain;
    impl Outputs for Plain {
        fn plain_text(&self, output: &str) -> std::result::Result<String, Unreadable> {
            Ok(output.to_string())
        }
        fn excerpt(&self, text: &str) -> String {
            text.to_string()
        }
    }
    Finder::new(Box::new(Plain), Default::default())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::commands::kit::failure_text::TaskText;
    use base64::Engine;
    use base64::engine::general_purpose::STANDARD;
    use ylem_client::api::models::LogEntry;
    use ylem_client::runs::failure::Detail;

    fn entry(output: &str) -> LogEntry {
        let json = serde_json::json!({
            "workflow_run_uuid": "r",
            "task_uuid": "a87db346-0000-4000-8000-000000000000",
            "task_type": "notification",
            "is_successful": false,
            "duration": 1100,
            "output": STANDARD.encode(output),
            "executed_at": "2026-01-01T00:00:01Z",
        })
        .to_string();
        let e: ylem_client::api::models::LogEntryRef = serde_json::from_str(&json).unwrap();
        e.to_owned_entry()
    }

    fn finder() -> Finder {
        Finder::new(Box::new(Decoded(Decoder::new(None))), HashMap::new())
    }

    #[test]
    fn reads_the_errors_array_and_outputs_that_are_not_one() {
        let e = entry(r#"[{"Code":4029,"Severity":"critical","Message":"quota exceeded"}]"#);
        assert_eq!(
            finder().task(&e).line(),
            "task notification (a87db346…) failed after 1.1s: [4029 critical] quota exceeded"
        );
        assert_eq!(
            finder().task(&entry("boom")).detail,
            Detail::Output("boom".into())
        );
        let long = "x".repeat(300);
        let Detail::Output(kept) = finder().task(&entry(&long)).detail else {
            panic!("an output");
        };
        assert_eq!(kept.chars().count(), EXCERPT);
        let mut sealed = e;
        sealed.output = STANDARD.encode([0xffu8; 40]);
        assert_eq!(finder().task(&sealed).detail, Detail::Encrypted);
    }
}
