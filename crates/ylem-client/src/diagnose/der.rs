//! Just enough DER to read an X.509 certificate's validity (RFC 5280
//! 4.1.2.5): the TLS check needs the end of the server certificate's
//! validity, which rustls verifies but does not hand out. Walking five
//! fields by hand costs less than an X.509 crate on a 2-core build.

use chrono::{DateTime, NaiveDateTime, Utc};

/// One DER element: its tag, its contents, and what follows it.
fn element(der: &[u8]) -> Option<(u8, &[u8], &[u8])> {
    let (&tag, rest) = der.split_first()?;
    let (&first, rest) = rest.split_first()?;
    let (len, rest) = if first < 0x80 {
        (usize::from(first), rest)
    } else {
        let n = usize::from(first & 0x7f);
        if n == 0 || n > 4 || rest.len() < n {
            return None;
        }
        let len = rest[..n]
            .iter()
            .fold(0usize, |a, b| (a << 8) | usize::from(*b));
        (len, &rest[n..])
    };
    if rest.len() < len {
        return None;
    }
    Some((tag, &rest[..len], &rest[len..]))
}

const SEQUENCE: u8 = 0x30;

/// The certificate's `notAfter`, or `None` if `der` is not a certificate
/// this reads.
pub fn not_after(der: &[u8]) -> Option<DateTime<Utc>> {
    let (SEQUENCE, cert, _) = element(der)? else {
        return None;
    };
    let (SEQUENCE, tbs, _) = element(cert)? else {
        return None;
    };
    let mut rest = tbs;
    // The version is explicitly tagged [0], and absent for v1.
    if rest.first() == Some(&0xa0) {
        rest = element(rest)?.2;
    }
    // serialNumber, signature, issuer.
    for _ in 0..3 {
        rest = element(rest)?.2;
    }
    let (SEQUENCE, validity, _) = element(rest)? else {
        return None;
    };
    let after = element(validity)?.2;
    let (tag, text, _) = element(after)?;
    time(tag, std::str::from_utf8(text).ok()?)
}

/// UTCTime (`YYMMDDHHMMSSZ`, years 1950 to 2049) or GeneralizedTime
/// (`YYYYMMDDHHMMSSZ`), as certificates must write them.
fn time(tag: u8, text: &str) -> Option<DateTime<Utc>> {
    let text = text.strip_suffix('Z')?;
    let full = match (tag, text.len()) {
        (0x17, 12) => {
            let yy: u32 = text.get(..2)?.parse().ok()?;
            let century = if yy >= 50 { "19" } else { "20" };
            format!("{century}{text}")
        }
        (0x18, 14) => text.to_string(),
        _ => return None,
    };
    let t = NaiveDateTime::parse_from_str(&full, "%Y%m%d%H%M%S").ok()?;
    Some(t.and_utc())
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A minimal certificate-shaped value: version, serial, algorithm,
    /// issuer, then the validity.
    fn cert(not_after: &[u8]) -> Vec<u8> {
        let mut validity = vec![0x17, 13];
        validity.extend_from_slice(b"240101000000Z");
        validity.extend_from_slice(not_after);
        let mut tbs = vec![0xa0, 3, 0x02, 1, 2, 0x02, 1, 7, 0x30, 0, 0x30, 0];
        tbs.push(SEQUENCE);
        tbs.push(validity.len() as u8);
        tbs.extend(validity);
        let mut c = vec![SEQUENCE, tbs.len() as u8];
        c.extend(tbs);
        let mut whole = vec![SEQUENCE, 0x81, c.len() as u8];
        whole.extend(c);
        whole
    }

    #[test]
    fn reads_both_time_forms() {
        let mut utc = vec![0x17, 13];
        utc.extend_from_slice(b"491231235959Z");
        let t = not_after(&cert(&utc)).unwrap();
        assert_eq!(t.to_rfc3339(), "2049-12-31T23:59:59+00:00");
        let mut general = vec![0x18, 15];
        general.extend_from_slice(b"20510102030405Z");
        let t = not_after(&cert(&general)).unwrap();
        assert_eq!(t.to_rfc3339(), "2051-01-02T03:04:05+00:00");
    }

    #[test]
    fn refuses_what_is_cut_or_odd_without_panicking() {
        let mut utc = vec![0x17, 13];
        utc.extend_from_slice(b"491231235959Z");
        let whole = cert(&utc);
        for n in 0..whole.len() {
            assert_eq!(not_after(&whole[..n]), None, "cut at {n}");
        }
        assert_eq!(not_after(&[0x30, 0x85, 1, 1, 1, 1, 1]), None);
        assert_eq!(time(0x17, "4912312359Z"), None);
    }
}
