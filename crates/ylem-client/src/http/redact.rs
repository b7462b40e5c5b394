//! What the HTTP layer shows of a request without showing a secret: URLs with
//! secret query values masked, form and token bodies masked, and reqwest
//! errors described without their URL.

use reqwest::Url;

use crate::secret::Redactor;

/// The names whose values are secrets, in a query, a form body or a JSON
/// body (a token endpoint's answer, whatever its status).
fn is_secret(name: &str) -> bool {
    SECRET_FIELDS.contains(&name)
}

const SECRET_FIELDS: [&str; 4] = ["client_secret", "refresh_token", "access_token", "id_token"];

/// A form-encoded body (`a=b&client_secret=c`) with its secret values as
/// `***`, for the request log.
pub fn redact_form(r: &Redactor, body: &str) -> String {
    let pairs: Vec<String> = body
        .split('&')
        .map(|pair| match pair.split_once('=') {
            Some((k, _)) if is_secret(k) => format!("{k}=***"),
            _ => pair.to_string(),
        })
        .collect();
    r.scrub(&pairs.join("&"))
}

/// The URL with secret query values replaced, for logs.
pub fn redact_url(r: &Redactor, url: &str) -> String {
    let Ok(mut u) = Url::parse(url) else {
        return r.scrub(url);
    };
    if u.query().is_some() {
        let pairs: Vec<(String, String)> = u
            .query_pairs()
            .map(|(k, v)| {
                let secret = is_secret(&k);
                (
                    k.into_owned(),
                    if secret { "***".into() } else { v.into_owned() },
                )
            })
            .collect();
        u.query_pairs_mut().clear().extend_pairs(pairs);
    }
    r.scrub(u.as_str()).replace("%2A%2A%2A", "***")
}

/// Token values in a body a server sent (or a JSON body we send), replaced
/// by `***`, whatever its status and shape: at any depth of a JSON document,
/// and in text that is no JSON (cut short, HTML, a form echoed) wherever a
/// secret field's name is followed by `:` or `=` and a value. The values
/// found are also retired into the secret registry, so that text made from
/// the body by another route (a decoding error quoting a value) is scrubbed.
pub fn redact_json_tokens(r: &Redactor, text: &str) -> String {
    for v in token_values(text) {
        r.retire(&v);
    }
    let Ok(mut v) = serde_json::from_str::<serde_json::Value>(text) else {
        return r.scrub(&redact_text(text));
    };
    mask_json(&mut v);
    r.scrub(&v.to_string())
}

/// `redact_json_tokens` over bytes, for an error body.
pub fn redact_body(r: &Redactor, body: &[u8]) -> Vec<u8> {
    redact_json_tokens(r, &String::from_utf8_lossy(body)).into_bytes()
}

/// The fields of a token endpoint's answer whose values are no secret: the
/// error's words (free text, its secret fields masked), and a short
/// `token_type` (a token is longer than any type's name).
fn token_plain(key: &str, value: &serde_json::Value) -> bool {
    let short = value.as_str().is_some_and(|s| s.len() <= 16);
    matches!(key, "error" | "error_description" | "error_uri") || (key == "token_type" && short)
}

/// A token endpoint's body as it may be shown: any string but those of
/// `TOKEN_PLAIN` masked, at any depth (a token in the wrong field, or a
/// body of another shape, is still a token), secret fields' values in free
/// text masked, and every masked value retired into the registry.
pub fn redact_token_body(r: &Redactor, text: &str) -> String {
    fn mask(r: &Redactor, v: &mut serde_json::Value, plain: bool) {
        match v {
            serde_json::Value::String(s) if !plain => {
                r.retire(s);
                *s = "***".into();
            }
            serde_json::Value::String(s) => {
                for t in token_values(s) {
                    r.retire(&t);
                }
                *s = redact_text(s);
            }
            serde_json::Value::Object(o) => {
                for (k, val) in o.iter_mut() {
                    let plain = token_plain(k, val);
                    mask(r, val, plain);
                }
            }
            serde_json::Value::Array(a) => a.iter_mut().for_each(|x| mask(r, x, false)),
            _ => {}
        }
    }
    for v in token_values(text) {
        r.retire(&v);
    }
    let Ok(mut v) = serde_json::from_str::<serde_json::Value>(text) else {
        return r.scrub(&redact_text(text));
    };
    mask(r, &mut v, false);
    r.scrub(&v.to_string())
}

fn mask_json(v: &mut serde_json::Value) {
    match v {
        serde_json::Value::Object(o) => {
            for (k, val) in o.iter_mut() {
                if is_secret(k) {
                    *val = "***".into();
                } else {
                    mask_json(val);
                }
            }
        }
        serde_json::Value::Array(a) => a.iter_mut().for_each(mask_json),
        _ => {}
    }
}

/// The values of secret fields in `text`: strings (or any scalar) under a
/// secret key at any depth of JSON, and the values text redaction finds.
fn token_values(text: &str) -> Vec<String> {
    fn walk(v: &serde_json::Value, out: &mut Vec<String>) {
        match v {
            serde_json::Value::Object(o) => {
                for (k, val) in o {
                    match val {
                        serde_json::Value::String(s) if is_secret(k) => out.push(s.clone()),
                        _ => walk(val, out),
                    }
                }
            }
            serde_json::Value::Array(a) => a.iter().for_each(|x| walk(x, out)),
            _ => {}
        }
    }
    let mut out = Vec::new();
    if let Ok(v) = serde_json::from_str::<serde_json::Value>(text) {
        walk(&v, &mut out);
    }
    for (start, end) in value_spans(text) {
        out.push(text[start..end].to_string());
    }
    out
}

/// Text with every value `value_spans` finds replaced by `***`.
fn redact_text(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let mut at = 0;
    for (start, end) in value_spans(text) {
        out.push_str(&text[at..start]);
        out.push_str("***");
        at = end;
    }
    out.push_str(&text[at..]);
    out
}

/// Byte ranges of the values after each secret field's name in free text:
/// `"access_token": "v"` (with JSON escapes), `access_token=v` (up to `&`,
/// space, quote, comma or brace) and `'access_token': 'v'`.
fn value_spans(text: &str) -> Vec<(usize, usize)> {
    let b = text.as_bytes();
    let mut spans = Vec::new();
    for f in SECRET_FIELDS {
        let mut from = 0;
        while let Some(i) = text[from..].find(f) {
            let mut j = from + i + f.len();
            from = j;
            // Past a closing quote of the name, blanks, the separator, blanks.
            if j < b.len() && (b[j] == b'"' || b[j] == b'\'' || b[j] == b'\\') {
                j += 1;
                if j < b.len() && b[j - 1] == b'\\' && b[j] == b'"' {
                    j += 1;
                }
            }
            while j < b.len() && b[j].is_ascii_whitespace() {
                j += 1;
            }
            if j >= b.len() || !(b[j] == b':' || b[j] == b'=') {
                continue;
            }
            j += 1;
            while j < b.len() && b[j].is_ascii_whitespace() {
                j += 1;
            }
            let (start, end) = match b.get(j) {
                Some(&q @ (b'"' | b'\'')) => {
                    let start = j + 1;
                    let mut k = start;
                    while k < b.len() && b[k] != q {
                        k += if b[k] == b'\\' { 2 } else { 1 };
                    }
                    (start, k.min(b.len()))
                }
                _ => {
                    let mut k = j;
                    while k < b.len() && !b"&\"', }\r\n\t;".contains(&b[k]) {
                        k += 1;
                    }
                    (j, k)
                }
            };
            if end > start && text.is_char_boundary(start) && text.is_char_boundary(end) {
                spans.push((start, end));
            }
        }
    }
    spans.sort();
    // Overlaps (a name inside another's value) merged into the outer one.
    let mut merged: Vec<(usize, usize)> = Vec::new();
    for (s, e) in spans {
        match merged.last_mut() {
            Some(last) if s < last.1 => last.1 = last.1.max(e),
            _ => merged.push((s, e)),
        }
    }
    merged
}

/// A reqwest error and its causes, without the URL (it may carry a secret).
pub fn describe(r: &Redactor, e: &reqwest::Error) -> String {
    use std::error::Error as _;
    let mut parts = vec![strip_url(&e.to_string())];
    let mut src = e.source();
    while let Some(s) = src {
        let t = strip_url(&s.to_string());
        if !parts.iter().any(|p| p.contains(&t)) {
            parts.push(t);
        }
        src = s.source();
    }
    r.scrub(&parts.join(": "))
}

fn strip_url(s: &str) -> String {
    match s.find(" for url (") {
        Some(i) => s[..i].to_string(),
        None => s.to_string(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn urls_are_redacted_for_logs() {
        let r = Redactor::new();
        let u = redact_url(
            &r,
            "http://h:1/v1/oauth/token?grant_type=client_credentials&client_id=abc&client_secret=shh",
        );
        assert!(u.ends_with("client_id=abc&client_secret=***"), "{u}");
        assert!(!u.contains("shh"));
    }

    #[test]
    fn form_bodies_are_redacted() {
        let r = Redactor::new();
        let f = redact_form(
            &r,
            "grant_type=refresh_token&client_id=abc&refresh_token=r%2Bs&x",
        );
        assert_eq!(
            f,
            "grant_type=refresh_token&client_id=abc&refresh_token=***&x"
        );
    }

    #[test]
    fn token_fields_are_redacted_at_any_depth_and_in_broken_json() {
        let r = Redactor::new();
        for body in [
            r#"{"data":{"access_token":"AT-deep-1111","id_token":"ID-2222"}}"#,
            r#"{"access_token": "AT-deep-1111", "refresh_token": "ID-\"2222"#,
            "<p>access_token=AT-deep-1111&refresh_token=ID-2222</p>",
            r#"{'client_secret': 'AT-deep-1111', "id_token" : ID-2222}"#,
        ] {
            let t = String::from_utf8(redact_body(&r, body.as_bytes())).unwrap();
            assert!(!t.contains("1111") && !t.contains("2222"), "{body} -> {t}");
            let t = redact_json_tokens(&r, body);
            assert!(!t.contains("1111") && !t.contains("2222"), "{body} -> {t}");
        }
        let t = redact_token_body(
            &r,
            r#"{"expires_in":"AT-wrong-4444","e":["x-5555"],"error":"bad"}"#,
        );
        assert!(
            !t.contains("4444") && !t.contains("5555") && t.contains("bad"),
            "{t}"
        );
        // Retired: a decoding error quoting the value is scrubbed too.
        redact_json_tokens(&r, r#"{"access_token":"AT-quoted-3333"}"#);
        assert_eq!(r.scrub("invalid: \"AT-quoted-3333\""), "invalid: \"***\"");
    }

    #[test]
    fn token_bodies_are_redacted() {
        let r = Redactor::new();
        let t = redact_json_tokens(
            &r,
            r#"{"access_token":"aaaa1111","refresh_token":"bbbb2222","expires_in":5}"#,
        );
        assert!(!t.contains("aaaa1111") && !t.contains("bbbb2222"), "{t}");
    }
}
