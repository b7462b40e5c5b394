//! Wire formats that differ by dialect or mimic the real server: timestamps,
//! path parameter parsing (with Go-style error texts), metric numbers and the
//! encoding of task `output`.

use aws_lc_rs::aead::{AES_256_GCM, Aad, LessSafeKey, Nonce, UnboundKey};
use base64::Engine;
use base64::engine::general_purpose::STANDARD;
use chrono::{DateTime, NaiveDate, NaiveDateTime, SubsecRound, Timelike, Utc};
use uuid::Uuid;

use super::options::Dialect;

/// What stats, last-run and aggregated return for "never".
pub const ZERO_TIME: &str = "0001-01-01 00:00:00";
const LAYOUT: &str = "2006-01-02 15:04:05";

/// `YYYY-MM-DD HH:MM:SS`, used by stats, last-run and aggregated in both
/// dialects.
pub fn stats_time(t: DateTime<Utc>) -> String {
    t.format("%Y-%m-%d %H:%M:%S").to_string()
}

/// Log `executed_at`: the spec's `YYYY-MM-DDTHH:MM:SSZ`, or Go's RFC 3339
/// with trailing zeros of the fraction trimmed (0 to 6 digits) for ylem.
pub fn log_time(dialect: Dialect, t: DateTime<Utc>) -> String {
    let base = t.format("%Y-%m-%dT%H:%M:%S").to_string();
    let micros = t.nanosecond() / 1000;
    if dialect == Dialect::Spec || micros == 0 {
        return base + "Z";
    }
    let frac = format!("{micros:06}");
    format!("{base}.{}Z", frac.trim_end_matches('0'))
}

/// Stored times carry only what the dialect can show, so that inclusive range
/// filters agree with what a client reads in the log.
pub fn stamp(dialect: Dialect, t: DateTime<Utc>) -> DateTime<Utc> {
    match dialect {
        Dialect::Spec => t.trunc_subsecs(0),
        Dialect::Ylem => t.trunc_subsecs(6),
    }
}

/// Metric as JSON: an integer in the spec; ylem's Go float64 prints whole
/// values without a fraction and others like `1.5`.
pub fn metric_json(dialect: Dialect, v: f64) -> serde_json::Value {
    if dialect == Dialect::Spec || v.fract() == 0.0 {
        serde_json::Value::from(v.round() as i64)
    } else {
        serde_json::Value::from(v)
    }
}

/// Messages follow github.com/google/uuid, which the real server uses.
pub fn parse_uuid(s: &str) -> Result<Uuid, String> {
    Uuid::parse_str(s).map_err(|_| match s.len() {
        32 | 36 | 38 | 45 => "invalid UUID format".to_string(),
        n => format!("invalid UUID length: {n}"),
    })
}

/// Parses `YYYY-MM-DD HH:MM:SS` (UTC) the way Go's `time.Parse` does with
/// layout `2006-01-02 15:04:05`, including its error texts: a bare date fails
/// with `cannot parse "" as "15"`, a `+` instead of a space with
/// `cannot parse "+..." as " "`.
pub fn parse_datetime(value: &str) -> Result<DateTime<Utc>, String> {
    let bad = |rest: &str, elem: &str| {
        format!("parsing time \"{value}\" as \"{LAYOUT}\": cannot parse \"{rest}\" as \"{elem}\"")
    };
    let mut rest = value;
    let mut nums = [0u32; 6];
    let elems = [
        ("", "2006"),
        ("-", "01"),
        ("-", "02"),
        (" ", "15"),
        (":", "04"),
        (":", "05"),
    ];
    for (i, (sep, elem)) in elems.iter().enumerate() {
        rest = skip(rest, sep).ok_or_else(|| bad(rest, sep))?;
        let width = if *elem == "2006" { 4 } else { 2 };
        let digits = rest
            .bytes()
            .take(width)
            .take_while(u8::is_ascii_digit)
            .count();
        // Go's hour (`15`) also takes a single digit; the others are fixed.
        let ok = digits == width || (*elem == "15" && digits == 1);
        if !ok {
            return Err(bad(rest, elem));
        }
        nums[i] = rest[..digits].parse().unwrap_or(0);
        rest = &rest[digits..];
    }
    let range = |what: &str| format!("parsing time \"{value}\": {what} out of range");
    // Go accepts a fraction after the seconds even when the layout has none.
    let nanos = fraction(rest);
    if nanos.is_some() {
        rest = "";
    }
    if !rest.is_empty() {
        return Err(format!("parsing time \"{value}\": extra text: \"{rest}\""));
    }
    let [y, mo, d, h, mi, s] = nums;
    if !(1..=12).contains(&mo) {
        return Err(range("month"));
    }
    let date = NaiveDate::from_ymd_opt(y as i32, mo, d).ok_or_else(|| range("day"))?;
    for (v, max, what) in [(h, 24, "hour"), (mi, 60, "minute"), (s, 60, "second")] {
        if v >= max {
            return Err(range(what));
        }
    }
    let naive: NaiveDateTime = date.and_hms_opt(h, mi, s).ok_or_else(|| range("second"))?;
    Ok(naive.and_utc() + chrono::Duration::nanoseconds(nanos.unwrap_or(0)))
}

/// `.123` or `,123` (1 to 9 digits) as nanoseconds.
fn fraction(rest: &str) -> Option<i64> {
    let digits = rest.strip_prefix(['.', ','])?;
    let ok = (1..=9).contains(&digits.len()) && digits.bytes().all(|b| b.is_ascii_digit());
    ok.then(|| format!("{digits:0<9}").parse().unwrap_or(0))
}

/// Go's `skip`: a space in the layout matches any run of spaces, even none
/// at the end of the value.
fn skip<'a>(mut value: &'a str, sep: &str) -> Option<&'a str> {
    for c in sep.chars() {
        if c == ' ' {
            if !value.is_empty() && !value.starts_with(' ') {
                return None;
            }
            value = value.trim_start_matches(' ');
        } else {
            value = value.strip_prefix(c)?;
        }
    }
    Some(value)
}

/// Encodes task output for the log: AES-256-GCM (12-byte nonce prepended,
/// no associated data) then Base64 in the spec dialect; plain Base64 in ylem.
pub struct Codec {
    dialect: Dialect,
    cipher: LessSafeKey,
}

impl Codec {
    pub fn new(dialect: Dialect, key: &[u8; 32]) -> Self {
        let cipher = LessSafeKey::new(UnboundKey::new(&AES_256_GCM, key).expect("a 256-bit key"));
        Codec { dialect, cipher }
    }

    pub fn encode(&self, plain: &str, nonce: &[u8; 12]) -> String {
        if plain.is_empty() {
            return String::new();
        }
        if self.dialect == Dialect::Ylem {
            return STANDARD.encode(plain);
        }
        let mut out = nonce.to_vec();
        out.extend_from_slice(plain.as_bytes());
        let mut sealed = out.split_off(12);
        self.cipher
            .seal_in_place_append_tag(
                Nonce::assume_unique_for_key(*nonce),
                Aad::empty(),
                &mut sealed,
            )
            .expect("AES-GCM encryption of a small buffer cannot fail");
        out.extend_from_slice(&sealed);
        STANDARD.encode(out)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn go_style_date_errors() {
        let e = parse_datetime("2024-01-01").unwrap_err();
        assert!(e.ends_with(r#"cannot parse "" as "15""#), "{e}");
        let e = parse_datetime("2024-01-01+00:00:00").unwrap_err();
        assert!(e.ends_with(r#"cannot parse "+00:00:00" as " ""#), "{e}");
        assert!(
            parse_datetime("2024-13-01 00:00:00")
                .unwrap_err()
                .contains("month out of range")
        );
        assert!(
            parse_datetime("2024-01-01 00:00:00x")
                .unwrap_err()
                .contains("extra text")
        );
        let t = parse_datetime("2024-02-29 23:59:59").unwrap();
        assert_eq!(stats_time(t), "2024-02-29 23:59:59");
        let f = parse_datetime("2024-02-29 23:59:59.25").unwrap();
        assert_eq!(f - t, chrono::Duration::milliseconds(250));
        assert!(parse_datetime("2024-02-29T23:59:59").is_err());
        assert!(parse_datetime("2024-02-29 23:59:59Z").is_err());
    }

    #[test]
    fn ylem_log_time_trims_fraction() {
        let t = parse_datetime("2024-01-13 18:36:58").unwrap()
            + chrono::Duration::microseconds(123_400);
        assert_eq!(log_time(Dialect::Ylem, t), "2024-01-13T18:36:58.1234Z");
        assert_eq!(log_time(Dialect::Spec, t), "2024-01-13T18:36:58Z");
    }
}
