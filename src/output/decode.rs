//! `logs --decode` and `--decrypt-key-file`: turning a log entry's Base64
//! `output` into text or JSON, decrypting AES-256-GCM (12-byte nonce first,
//! 16-byte tag last, no associated data) when a key is given.

use std::path::Path;

use aws_lc_rs::aead::{AES_256_GCM, Aad, LessSafeKey, Nonce, UnboundKey};
use base64::Engine;
use base64::engine::general_purpose::{STANDARD, STANDARD_NO_PAD};

use serde_json::Value;

use super::canonical::{Spans, is_canonical};
use super::cell::{CellRef, Txt};
use super::compact::{Compact, compact};
use crate::error::{Error, Result};

pub struct Decoder {
    /// AWS-LC's AES-256-GCM (in the build already, for TLS): several
    /// times the speed of the `aes-gcm` crate's on a log's outputs.
    cipher: Option<LessSafeKey>,
}

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

/// Buffers a decoded output is written into, kept from entry to entry so
/// that decoding a log allocates nothing per entry.
#[derive(Default)]
pub struct Scratch {
    bytes: Vec<u8>,
    json: Vec<u8>,
    spans: Spans,
}

impl Decoder {
    pub fn new(key: Option<[u8; 32]>) -> Self {
        Decoder {
            cipher: key.map(|k| {
                let key = UnboundKey::new(&AES_256_GCM, &k).expect("a 256-bit key");
                LessSafeKey::new(key)
            }),
        }
    }

    /// The decoded output (in `buf`), and what went wrong if it could not
    /// be decoded. Text that is JSON comes out as compact JSON, exactly as
    /// serde_json writes the `Value` it parses to.
    pub fn decode<'b>(&self, output: &str, buf: &'b mut Scratch) -> (CellRef<'b>, Option<String>) {
        if output.is_empty() {
            return (CellRef::Null, None);
        }
        buf.bytes.clear();
        if let Err(e) = STANDARD.decode_vec(output.trim(), &mut buf.bytes) {
            return (CellRef::Null, Some(format!("not Base64: {e}")));
        }
        if let Some(c) = &self.cipher
            && let Err(e) = open_in_place(c, &mut buf.bytes)
        {
            return (CellRef::Null, Some(e));
        }
        let Ok(text) = std::str::from_utf8(&buf.bytes) else {
            let why = if self.cipher.is_none() {
                "binary data: encrypted? give the key with --decrypt-key-file"
            } else {
                "decrypted data is not text"
            };
            return (CellRef::Null, Some(why.into()));
        };
        // Most outputs are written as serde_json writes them already: then
        // they go out as they are, without a pass through serde_json.
        if is_canonical(text.as_bytes(), &mut buf.spans) {
            return (CellRef::RawJson(text), None);
        }
        buf.json.clear();
        match compact(text, &mut buf.json) {
            Compact::Done => {}
            Compact::NotJson => return (CellRef::Str(Txt::new(text)), None),
            Compact::NeedsValue => {
                buf.json.clear();
                let v: Value = serde_json::from_str(text).unwrap_or_default();
                if serde_json::to_writer(&mut buf.json, &v).is_err() {
                    return (CellRef::Str(Txt::new(text)), None);
                }
            }
        }
        match std::str::from_utf8(&buf.json) {
            Ok(j) => (CellRef::RawJson(j), None),
            // Not reached: only JSON text went in, so only UTF-8 came out.
            Err(_) => (CellRef::Str(Txt::new(text)), None),
        }
    }
}

/// Why an output's text could not be read.
#[derive(Debug, Clone, PartialEq)]
pub enum Unreadable {
    /// Not text, and no key to decrypt it with.
    Encrypted,
    /// Not Base64, or the key does not open it.
    Invalid(String),
}

impl Decoder {
    /// The plain text of an output, for reading what it says (a failed
    /// task's errors): Base64 of text is taken as it is (the open-source
    /// server's), anything else is decrypted with the key, if there is one.
    /// AES-GCM output is almost never valid UTF-8, so the order is safe, and
    /// one key serves a log of either kind.
    pub fn plain_text(&self, output: &str) -> std::result::Result<String, Unreadable> {
        let bytes = STANDARD
            .decode(output.trim())
            .map_err(|e| Unreadable::Invalid(format!("not Base64: {e}")))?;
        let bytes = match String::from_utf8(bytes) {
            Ok(text) => return Ok(text),
            Err(e) => e.into_bytes(),
        };
        let Some(c) = &self.cipher else {
            return Err(Unreadable::Encrypted);
        };
        let plain = decrypt(c, &bytes).map_err(Unreadable::Invalid)?;
        String::from_utf8(plain)
            .map_err(|_| Unreadable::Invalid("decrypted data is not text".into()))
    }
}

/// Decrypt `bytes` (nonce, ciphertext, tag) where they are, leaving the
/// plain text: no buffer allocated and copied per output, as `decrypt`
/// does (what `--decode` does for every entry of a log).
fn open_in_place(c: &LessSafeKey, bytes: &mut Vec<u8>) -> std::result::Result<(), String> {
    let len = bytes.len();
    if len < 12 + 16 {
        return Err(too_short(len));
    }
    let nonce = Nonce::try_assume_unique_for_key(&bytes[..12]).map_err(|_| too_short(len))?;
    c.open_in_place(nonce, Aad::empty(), &mut bytes[12..])
        .map_err(|_| WRONG_KEY.to_string())?;
    bytes.truncate(len - 16);
    bytes.drain(..12);
    Ok(())
}

const WRONG_KEY: &str = "cannot decrypt: wrong key, or not encrypted with AES-256-GCM";

fn too_short(len: usize) -> String {
    format!("too short to be encrypted ({len} bytes; a nonce and tag take 28)")
}

fn decrypt(c: &LessSafeKey, bytes: &[u8]) -> std::result::Result<Vec<u8>, String> {
    let mut plain = bytes.to_vec();
    open_in_place(c, &mut plain)?;
    Ok(plain)
}

#[cfg(test)]
mod tests {
    use super::*;
    use aes_gcm::aead::{Aead, KeyInit};
    use aes_gcm::{Aes256Gcm, Key};

    fn encrypt(key: &[u8; 32], text: &str) -> String {
        let c = Aes256Gcm::new(Key::<Aes256Gcm>::from_slice(key));
        let nonce = [7u8; 12];
        let mut out = nonce.to_vec();
        out.extend(
            c.encrypt(aes_gcm::Nonce::from_slice(&nonce), text.as_bytes())
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
        let buf = &mut Scratch::default();
        let (c, e) = plain.decode(&STANDARD.encode(r#"{ "rows" : 3 }"#), buf);
        assert_eq!(c, CellRef::RawJson(r#"{"rows":3}"#));
        assert!(e.is_none());
        let (c, _) = plain.decode(&STANDARD.encode("hello"), buf);
        assert_eq!(c, CellRef::Str(Txt::new("hello")));
        let k = [1u8; 32];
        let sealed = encrypt(&k, r#"{"ok":true}"#);
        let (c, _) = Decoder::new(Some(k)).decode(&sealed, buf);
        assert_eq!(c, CellRef::RawJson(r#"{"ok":true}"#));
        let (c, e) = Decoder::new(Some([2u8; 32])).decode(&sealed, buf);
        assert_eq!(c, CellRef::Null);
        assert!(e.unwrap().contains("wrong key"));
        assert!(plain.decode("!!!", buf).1.is_some());
        assert_eq!(plain.decode("", buf), (CellRef::Null, None));
        let (c, e) = plain.decode(&STANDARD.encode([0xffu8, 0, 7]), buf);
        assert_eq!(c, CellRef::Null);
        assert!(e.unwrap().contains("binary data"));
    }

    /// Decoded JSON comes out as serde_json writes the `Value` it parses
    /// to: numbers, escapes, nesting, duplicate keys (the last one wins, in
    /// the first one's place) and all.
    #[test]
    fn decoded_json_is_what_value_makes_of_it() {
        let plain = Decoder::new(None);
        let buf = &mut Scratch::default();
        for text in [
            r#"[1, -0, 1.0e2, 12345678901234567890, -9223372036854775808, 1e-7, 0.1]"#,
            r#"{"a": "\u00e9\/\n\"", "b": [{}, [], null, true, false], "c": {"d": {"e": [1]}}}"#,
            r#"{"k": 1, "j": 2, "k": 3}"#,
            r#"{"k": {"x": 1, "x": 2}}"#,
            r#""just a string""#,
            "  42  ",
            "null",
        ] {
            let want = serde_json::from_str::<Value>(text).unwrap().to_string();
            let (c, _) = plain.decode(&STANDARD.encode(text), buf);
            assert_eq!(c, CellRef::RawJson(&want), "{text}");
        }
        for text in ["[1,", "{\"a\":1} x", "1e400", "nul"] {
            let (c, _) = plain.decode(&STANDARD.encode(text), buf);
            assert_eq!(c, CellRef::Str(Txt::new(text)), "{text}");
        }
    }
}
