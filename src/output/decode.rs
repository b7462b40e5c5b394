//! `logs --decode` and `--decrypt-key-file`: turning a log entry's Base64
//! `output` into text or JSON, decrypting AES-256-GCM (12-byte nonce first,
//! 16-byte tag last, no associated data) when a key is given.

use std::path::Path;

use aes_gcm::aead::{Aead, KeyInit};
use aes_gcm::{Aes256Gcm, Key, Nonce};
use base64::Engine;
use base64::engine::general_purpose::{STANDARD, STANDARD_NO_PAD};

use super::Cell;
use crate::error::{Error, Result};

pub struct Decoder {
    cipher: Option<Aes256Gcm>,
}

/// Read a 256-bit key: 32 raw bytes, 64 hex digits or Base64 of 32 bytes.
pub fn read_key(path: &Path) -> Result<[u8; 32]> {
    let raw = std::fs::read(path)
        .map_err(|e| Error::usage(format!("cannot read the key file {}: {e}", path.display())))?;
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

impl Decoder {
    pub fn new(key: Option<[u8; 32]>) -> Self {
        Decoder {
            cipher: key.map(|k| Aes256Gcm::new(Key::<Aes256Gcm>::from_slice(&k))),
        }
    }

    /// The decoded output, and what went wrong if it could not be decoded.
    pub fn decode(&self, output: &str) -> (Cell, Option<String>) {
        if output.is_empty() {
            return (Cell::Null, None);
        }
        let bytes = match STANDARD.decode(output.trim()) {
            Ok(b) => b,
            Err(e) => return (Cell::Null, Some(format!("not Base64: {e}"))),
        };
        let plain = match &self.cipher {
            Some(c) => match decrypt(c, &bytes) {
                Ok(p) => p,
                Err(e) => return (Cell::Null, Some(e)),
            },
            None => bytes,
        };
        match String::from_utf8(plain) {
            Ok(text) => match serde_json::from_str(&text) {
                Ok(v) => (Cell::Json(v), None),
                Err(_) => (Cell::Str(text), None),
            },
            Err(_) if self.cipher.is_none() => (
                Cell::Null,
                Some("binary data: encrypted? give the key with --decrypt-key-file".into()),
            ),
            Err(_) => (Cell::Null, Some("decrypted data is not text".into())),
        }
    }
}

fn decrypt(c: &Aes256Gcm, bytes: &[u8]) -> std::result::Result<Vec<u8>, String> {
    if bytes.len() < 12 + 16 {
        return Err(format!(
            "too short to be encrypted ({} bytes; a nonce and tag take 28)",
            bytes.len()
        ));
    }
    let (nonce, ct) = bytes.split_at(12);
    c.decrypt(Nonce::from_slice(nonce), ct)
        .map_err(|_| "cannot decrypt: wrong key, or not encrypted with AES-256-GCM".to_string())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn encrypt(key: &[u8; 32], text: &str) -> String {
        let c = Aes256Gcm::new(Key::<Aes256Gcm>::from_slice(key));
        let nonce = [7u8; 12];
        let mut out = nonce.to_vec();
        out.extend(
            c.encrypt(Nonce::from_slice(&nonce), text.as_bytes())
                .unwrap(),
        );
        STANDARD.encode(out)
    }

    #[test]
    fn keys_in_three_forms() {
        let k = [0xabu8; 32];
        assert_eq!(parse_key(&k), Some(k));
        assert_eq!(parse_key("ab".repeat(32).as_bytes()), Some(k));
        assert_eq!(parse_key(STANDARD.encode(k).as_bytes()), Some(k));
        assert_eq!(parse_key(b"short"), None);
    }

    #[test]
    fn decodes_plain_and_encrypted_and_reports_a_wrong_key() {
        let plain = Decoder::new(None);
        let (c, e) = plain.decode(&STANDARD.encode(r#"{"rows":3}"#));
        assert_eq!(c, Cell::Json(serde_json::json!({"rows": 3})));
        assert!(e.is_none());
        assert_eq!(
            plain.decode(&STANDARD.encode("hello")).0,
            Cell::Str("hello".into())
        );
        let k = [1u8; 32];
        let sealed = encrypt(&k, r#"{"ok":true}"#);
        let (c, _) = Decoder::new(Some(k)).decode(&sealed);
        assert_eq!(c, Cell::Json(serde_json::json!({"ok": true})));
        let (c, e) = Decoder::new(Some([2u8; 32])).decode(&sealed);
        assert_eq!(c, Cell::Null);
        assert!(e.unwrap().contains("wrong key"));
        assert!(plain.decode("!!!").1.is_some());
        assert_eq!(plain.decode(""), (Cell::Null, None));
    }
}
