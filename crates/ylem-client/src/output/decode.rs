//! Decoding a log entry's `output`: the service sends it Base64-encoded,
//! optionally AES-256-GCM encrypted (12-byte nonce first, 16-byte tag last,
//! no associated data); JSON text comes out compact, as serde_json writes
//! it. The caller reads the key (32 bytes) wherever it keeps it.
//!
//! An output the log stream cut to its bound (`api::cut`) decodes to the
//! text of its kept part and the marker; one that is encrypted is not
//! decrypted at all: AES-GCM checks its tag over the whole ciphertext, so
//! a part of it can only be shown unverified, which it never is.

use std::fmt;

#[cfg(feature = "decrypt")]
use aws_lc_rs::aead::{AES_256_GCM, Aad, LessSafeKey, Nonce, UnboundKey};
use base64::Engine;
use base64::engine::general_purpose::STANDARD;

use serde_json::Value;

use super::canonical::{Spans, is_canonical};
use super::compact::{Compact, compact};
use crate::api::cut::{Cut, cut_of};

/// Decodes outputs, decrypting them with a key when it has one.
pub struct Decoder {
    cipher: Option<Cipher>,
}

/// AWS-LC's AES-256-GCM (in the build already, for TLS): several times the
/// speed of the `aes-gcm` crate's on a log's outputs.
#[cfg(feature = "decrypt")]
type Cipher = LessSafeKey;

/// Without the `decrypt` feature there is no key to hold: a type with no
/// value, so every path that would decrypt is known unreachable.
#[cfg(not(feature = "decrypt"))]
enum Cipher {}

/// Buffers a decoded output is written into, kept from entry to entry so
/// that decoding a log allocates nothing per entry.
#[derive(Default)]
pub struct Scratch {
    bytes: Vec<u8>,
    json: Vec<u8>,
    spans: Spans,
}

/// A decoded output, borrowed from the `Scratch` it was written into.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum DecodedOutput<'b> {
    /// No output, or one that could not be decoded (the reason comes with it).
    Null,
    /// JSON, as compact JSON text exactly as serde_json writes its `Value`.
    Json(&'b str),
    /// Text that is not JSON, as it is.
    Text(&'b str),
}

/// Why an output could not be decoded.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Undecodable {
    /// Not Base64 (the decoder's message).
    NotBase64(String),
    /// Binary data and no key: encrypted, most likely.
    Binary,
    /// Decrypted, but the plain data is not text.
    NotText,
    /// Fewer bytes (given) than a nonce and a tag take.
    TooShort(usize),
    /// The key does not open it.
    WrongKey,
    /// Encrypted, and cut to the stream's bound: not decrypted (its tag
    /// covers all of it). How many bytes were sent, and kept.
    CutEncrypted {
        /// The output's bytes as sent.
        sent: u64,
        /// The bytes kept of it.
        kept: usize,
    },
}

impl fmt::Display for Undecodable {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Undecodable::NotBase64(e) => write!(f, "not Base64: {e}"),
            Undecodable::Binary => f.write_str("binary data: encrypted? a decryption key reads it"),
            Undecodable::NotText => f.write_str("decrypted data is not text"),
            Undecodable::TooShort(len) => write!(
                f,
                "too short to be encrypted ({}; a nonce and tag take 28)",
                crate::count::count(*len, "byte", "bytes")
            ),
            Undecodable::WrongKey => {
                f.write_str("cannot decrypt: wrong key, or not encrypted with AES-256-GCM")
            }
            Undecodable::CutEncrypted { sent, kept } => write!(
                f,
                "not decrypted: {sent} bytes sent, over the {kept} kept (AES-GCM checks all of it; nothing unverified is shown)"
            ),
        }
    }
}

impl std::error::Error for Undecodable {}

impl Decoder {
    /// A decoder without a key: encrypted outputs are reported, not read.
    pub fn plain() -> Self {
        Decoder { cipher: None }
    }

    /// A decoder; with a 256-bit key, it decrypts what it decodes.
    #[cfg(feature = "decrypt")]
    pub fn new(key: Option<[u8; 32]>) -> Self {
        Decoder {
            cipher: key.map(|k| {
                let key = UnboundKey::new(&AES_256_GCM, &k).expect("a 256-bit key");
                LessSafeKey::new(key)
            }),
        }
    }

    /// The decoded output (in `buf`), and why it could not be decoded (then
    /// it is `Null`). Text that is JSON comes out as compact JSON, exactly
    /// as serde_json writes the `Value` it parses to.
    pub fn decode<'b>(
        &self,
        output: &str,
        buf: &'b mut Scratch,
    ) -> (DecodedOutput<'b>, Option<Undecodable>) {
        if output.is_empty() {
            return (DecodedOutput::Null, None);
        }
        if let Some(cut) = cut_of(output) {
            return self.decode_cut(cut, buf);
        }
        buf.bytes.clear();
        if let Err(e) = STANDARD.decode_vec(output.trim(), &mut buf.bytes) {
            return (
                DecodedOutput::Null,
                Some(Undecodable::NotBase64(e.to_string())),
            );
        }
        if let Some(c) = &self.cipher
            && let Err(e) = open_in_place(c, &mut buf.bytes)
        {
            return (DecodedOutput::Null, Some(e));
        }
        let Ok(text) = std::str::from_utf8(&buf.bytes) else {
            let why = if self.cipher.is_none() {
                Undecodable::Binary
            } else {
                Undecodable::NotText
            };
            return (DecodedOutput::Null, Some(why));
        };
        // Most outputs are written as serde_json writes them already: then
        // they go out as they are, without a pass through serde_json.
        if is_canonical(text.as_bytes(), &mut buf.spans) {
            return (DecodedOutput::Json(text), None);
        }
        buf.json.clear();
        match compact(text, &mut buf.json) {
            Compact::Done => {}
            Compact::NotJson => return (DecodedOutput::Text(text), None),
            Compact::NeedsValue => {
                buf.json.clear();
                let v: Value = serde_json::from_str(text).unwrap_or_default();
                if serde_json::to_writer(&mut buf.json, &v).is_err() {
                    return (DecodedOutput::Text(text), None);
                }
            }
        }
        match std::str::from_utf8(&buf.json) {
            Ok(j) => (DecodedOutput::Json(j), None),
            // Not reached: only JSON text went in, so only UTF-8 came out.
            Err(_) => (DecodedOutput::Text(text), None),
        }
    }
}

impl Decoder {
    /// A cut output (see the module): the text of its kept part, then the
    /// marker; never decrypted.
    fn decode_cut<'b>(
        &self,
        cut: Cut<'_>,
        buf: &'b mut Scratch,
    ) -> (DecodedOutput<'b>, Option<Undecodable>) {
        if self.cipher.is_some() {
            let why = Undecodable::CutEncrypted {
                sent: cut.sent,
                kept: cut.kept.len(),
            };
            return (DecodedOutput::Null, Some(why));
        }
        if let Err(e) = decode_kept(cut.kept, &mut buf.bytes) {
            return (
                DecodedOutput::Null,
                Some(Undecodable::NotBase64(e.to_string())),
            );
        }
        let Some(text) = text_start(&buf.bytes) else {
            return (DecodedOutput::Null, Some(Undecodable::Binary));
        };
        buf.json.clear();
        buf.json.extend_from_slice(text.as_bytes());
        buf.json.extend_from_slice(cut.marker.as_bytes());
        match std::str::from_utf8(&buf.json) {
            Ok(t) => (DecodedOutput::Text(t), None),
            // Not reached: text and the marker went in.
            Err(_) => (DecodedOutput::Null, Some(Undecodable::NotText)),
        }
    }
}

/// The bytes of a cut output's kept Base64, up to its last whole quantum.
fn decode_kept(kept: &str, out: &mut Vec<u8>) -> std::result::Result<(), base64::DecodeError> {
    let b64 = kept.trim_start();
    out.clear();
    STANDARD.decode_vec(&b64[..b64.len() - b64.len() % 4], out)
}

/// The text of bytes cut anywhere: all of them when UTF-8 but for a
/// character the cut split at their end; `None` when not text.
fn text_start(bytes: &[u8]) -> Option<&str> {
    match std::str::from_utf8(bytes) {
        Ok(t) => Some(t),
        Err(e) if e.error_len().is_none() => std::str::from_utf8(&bytes[..e.valid_up_to()]).ok(),
        Err(_) => None,
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
    /// A cut output's text is its kept part's and the marker (see the
    /// module); encrypted, it is not read.
    pub fn plain_text(&self, output: &str) -> std::result::Result<String, Unreadable> {
        if let Some(cut) = cut_of(output) {
            let mut bytes = Vec::new();
            decode_kept(cut.kept, &mut bytes)
                .map_err(|e| Unreadable::Invalid(format!("not Base64: {e}")))?;
            return match (text_start(&bytes), &self.cipher) {
                (Some(text), _) => Ok(format!("{text}{}", cut.marker)),
                (None, None) => Err(Unreadable::Encrypted),
                (None, Some(_)) => Err(Unreadable::Invalid(
                    Undecodable::CutEncrypted {
                        sent: cut.sent,
                        kept: cut.kept.len(),
                    }
                    .to_string(),
                )),
            };
        }
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
        let plain = decrypt(c, &bytes).map_err(|e| Unreadable::Invalid(e.to_string()))?;
        String::from_utf8(plain).map_err(|_| Unreadable::Invalid(Undecodable::NotText.to_string()))
    }
}

/// Decrypt `bytes` (nonce, ciphertext, tag) where they are, leaving the
/// plain text: no buffer allocated and copied per output, as `decrypt`
/// does (what decoding a log does for every entry).
#[cfg(feature = "decrypt")]
fn open_in_place(c: &Cipher, bytes: &mut Vec<u8>) -> std::result::Result<(), Undecodable> {
    let len = bytes.len();
    if len < 12 + 16 {
        return Err(Undecodable::TooShort(len));
    }
    let nonce =
        Nonce::try_assume_unique_for_key(&bytes[..12]).map_err(|_| Undecodable::TooShort(len))?;
    c.open_in_place(nonce, Aad::empty(), &mut bytes[12..])
        .map_err(|_| Undecodable::WrongKey)?;
    bytes.truncate(len - 16);
    bytes.drain(..12);
    Ok(())
}

#[cfg(feature = "decrypt")]
fn decrypt(c: &Cipher, bytes: &[u8]) -> std::result::Result<Vec<u8>, Undecodable> {
    let mut plain = bytes.to_vec();
    open_in_place(c, &mut plain)?;
    Ok(plain)
}

#[cfg(not(feature = "decrypt"))]
fn open_in_place(c: &Cipher, _: &mut Vec<u8>) -> std::result::Result<(), Undecodable> {
    match *c {}
}

#[cfg(not(feature = "decrypt"))]
fn decrypt(c: &Cipher, _: &[u8]) -> std::result::Result<Vec<u8>, Undecodable> {
    match *c {}
}

#[cfg(test)]
mod tests {
    use super::*;

    #[cfg(feature = "decrypt")]
    fn encrypt(key: &[u8; 32], text: &str) -> String {
        let c = LessSafeKey::new(UnboundKey::new(&AES_256_GCM, key).unwrap());
        let nonce = [7u8; 12];
        let mut sealed = text.as_bytes().to_vec();
        c.seal_in_place_append_tag(
            Nonce::assume_unique_for_key(nonce),
            Aad::empty(),
            &mut sealed,
        )
        .unwrap();
        let mut out = nonce.to_vec();
        out.extend(sealed);
        STANDARD.encode(out)
    }

    #[cfg(feature = "decrypt")]
    #[test]
    fn decodes_plain_and_encrypted_and_reports_a_wrong_key() {
        let plain = Decoder::plain();
        let buf = &mut Scratch::default();
        let (c, e) = plain.decode(&STANDARD.encode(r#"{ "rows" : 3 }"#), buf);
        assert_eq!(c, DecodedOutput::Json(r#"{"rows":3}"#));
        assert!(e.is_none());
        let (c, _) = plain.decode(&STANDARD.encode("hello"), buf);
        assert_eq!(c, DecodedOutput::Text("hello"));
        let k = [1u8; 32];
        let sealed = encrypt(&k, r#"{"ok":true}"#);
        let (c, _) = Decoder::new(Some(k)).decode(&sealed, buf);
        assert_eq!(c, DecodedOutput::Json(r#"{"ok":true}"#));
        let (c, e) = Decoder::new(Some([2u8; 32])).decode(&sealed, buf);
        assert_eq!(c, DecodedOutput::Null);
        assert_eq!(e, Some(Undecodable::WrongKey));
        assert!(plain.decode("!!!", buf).1.is_some());
        assert_eq!(plain.decode("", buf), (DecodedOutput::Null, None));
        let (c, e) = plain.decode(&STANDARD.encode([0xffu8, 0, 7]), buf);
        assert_eq!(c, DecodedOutput::Null);
        assert_eq!(e, Some(Undecodable::Binary));
    }

    /// Decoded JSON comes out as serde_json writes the `Value` it parses
    /// to: numbers, escapes, nesting, duplicate keys (the last one wins, in
    /// the first one's place) and all.
    #[test]
    fn decoded_json_is_what_value_makes_of_it() {
        let plain = Decoder::plain();
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
            assert_eq!(c, DecodedOutput::Json(&want), "{text}");
        }
        for text in ["[1,", "{\"a\":1} x", "1e400", "nul"] {
            let (c, _) = plain.decode(&STANDARD.encode(text), buf);
            assert_eq!(c, DecodedOutput::Text(text), "{text}");
        }
    }

    /// A cut output decodes to its kept part's text (cut at a Base64
    /// quantum and a character) and the marker; encrypted, it is not
    /// decrypted, and says why.
    #[cfg(feature = "decrypt")]
    #[test]
    fn a_cut_output_is_its_kept_text_and_the_marker_and_never_decrypted() {
        let marker = crate::api::cut::marker(999);
        let buf = &mut Scratch::default();
        // "[é" is 3 bytes, 4 of Base64; a fifth and sixth byte start "x".
        let b64 = STANDARD.encode("[é\"xy");
        let output = format!("{}{marker}", &b64[..6]);
        let (c, e) = Decoder::plain().decode(&output, buf);
        assert_eq!(c, DecodedOutput::Text(&format!("[é{marker}")));
        assert!(e.is_none());
        assert_eq!(
            Decoder::plain().plain_text(&output),
            Ok(format!("[é{marker}"))
        );
        let (c, e) = Decoder::new(Some([1u8; 32])).decode(&output, buf);
        assert_eq!(c, DecodedOutput::Null);
        assert_eq!(e, Some(Undecodable::CutEncrypted { sent: 999, kept: 6 }));
        let sealed = format!("{}{marker}", &STANDARD.encode([0xffu8; 40])[..20]);
        let (c, e) = Decoder::new(Some([1u8; 32])).decode(&sealed, buf);
        assert_eq!((c, e.is_some()), (DecodedOutput::Null, true));
        assert!(Decoder::new(Some([1u8; 32])).plain_text(&sealed).is_err());
        assert_eq!(
            Decoder::plain().plain_text(&sealed),
            Err(Unreadable::Encrypted)
        );
    }
}
