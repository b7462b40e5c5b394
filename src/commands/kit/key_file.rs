//! The decryption key file (`--decrypt-key-file` and its fallbacks): a
//! 256-bit key as 32 raw bytes, 64 hex digits or Base64 of 32 bytes, read
//! through the config's bounded reader. The decoder that uses the key is
//! `ylem_client::output::Decoder`.

use std::path::Path;

use base64::Engine;
use base64::engine::general_purpose::{STANDARD, STANDARD_NO_PAD};

use crate::error::{Error, Result};

/// Read a 256-bit key: 32 raw bytes, 64 hex digits or Base64 of 32 bytes.
pub fn read_key(path: &Path) -> Result<[u8; 32]> {
    // A regular file within a bound: a key is at most a few hundred bytes.
    let raw = crate::config::read::bounded(path, "key file", 64 << 10)?.ok_or_else(|| {
        Error::usage(format!(
            "cannot read the key file {}: no such file",
            path.display()
        ))
    })?;
    parse_key(&raw).ok_or_else(|| {
        Error::usage(format!(
            "invalid key in {}: expected 32 raw bytes, 64 hex digits or Base64 of 32 bytes",
            path.display()
        ))
    })
}

fn parse_key(raw: &[u8]) -> Option<[u8; 32]> {
    if raw.len() == 32 {
        return raw.try_into().ok();
    }
    let text = std::str::from_utf8(raw).ok()?.trim();
    if text.len() == 64 && text.chars().all(|c| c.is_ascii_hexdigit()) {
        let bytes: Option<Vec<u8>> = (0..32)
            .map(|i| u8::from_str_radix(&text[2 * i..2 * i + 2], 16).ok())
            .collect();
        return bytes?.try_into().ok();
    }
    let b = STANDARD
        .decode(text)
        .or_else(|_| STANDARD_NO_PAD.decode(text))
        .ok()?;
    b.try_into().ok()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn keys_in_three_forms() {
        let k = [0xabu8; 32];
        assert_eq!(parse_key(&k), Some(k));
        assert_eq!(parse_key("ab".repeat(32).as_bytes()), Some(k));
        assert_eq!(parse_key(STANDARD.encode(k).as_bytes()), Some(k));
        assert_eq!(parse_key(b"short"), None);
    }
}
