//! The service's side of time: a window of UTC times, the forms its paths
//! take, the times it sends (parsed and normalised), and durations as a
//! person reads them (`human_ms`, in messages and the request log).

use chrono::{DateTime, Duration, NaiveDateTime, TimeZone, Timelike, Utc};

/// A resolved, inclusive time range in UTC.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Window {
    /// The first instant.
    pub from: DateTime<Utc>,
    /// The last instant.
    pub to: DateTime<Utc>,
}

/// The form of a path segment: `YYYY-MM-DD HH:MM:SS` (UTC), space as `%20`.
pub fn path_datetime(t: DateTime<Utc>) -> String {
    t.format("%Y-%m-%d%%20%H:%M:%S").to_string()
}

/// A window's end as a path segment: whole seconds, rounded up. The server
/// compares fractional `executed_at` values `BETWEEN` the two ends, so an
/// end of `now` cut down to its second would miss the entries of that second
/// (a run's first entries, right after its start).
pub fn path_datetime_end(t: DateTime<Utc>) -> String {
    let whole = t.with_nanosecond(0).unwrap_or(t);
    let t = if whole < t {
        whole + Duration::seconds(1)
    } else {
        t
    };
    path_datetime(t)
}

/// Parse a time the server sent (`YYYY-MM-DD HH:MM:SS` or RFC 3339).
pub fn parse_server_time(s: &str) -> Option<DateTime<Utc>> {
    if let Ok(d) = DateTime::parse_from_rfc3339(s) {
        return Some(d.with_timezone(&Utc));
    }
    for f in ["%Y-%m-%d %H:%M:%S%.f", "%Y-%m-%dT%H:%M:%S%.f"] {
        if let Ok(n) = NaiveDateTime::parse_from_str(s, f) {
            return Some(Utc.from_utc_datetime(&n));
        }
    }
    None
}

/// Normalise a server time to `YYYY-MM-DDTHH:MM:SSZ`, keeping any fraction as sent.
/// Text that is not a time is returned unchanged rather than lost.
pub fn normalize_server_time(s: &str) -> String {
    normalize_server_time_owned(s.to_string())
}

/// `normalize_server_time` of a string the caller owns: one already in the
/// normal form (every log entry of the spec's server) is handed back as it
/// is, without parsing and formatting it once per row.
pub fn normalize_server_time_owned(s: String) -> String {
    if is_normal_form(s.as_bytes()) {
        // Parsed and formatted, it would come out the same; and text that
        // is not a time is returned unchanged anyway.
        return s;
    }
    let s = s.as_str();
    let Some(t) = parse_server_time(s) else {
        return s.to_string();
    };
    let frac = s
        .find('.')
        .map(|i| {
            s[i + 1..]
                .chars()
                .take_while(|c| c.is_ascii_digit())
                .count()
        })
        .unwrap_or(0);
    let base = t.format("%Y-%m-%dT%H:%M:%S").to_string();
    if frac == 0 {
        format!("{base}Z")
    } else {
        let nanos = format!("{:09}", t.timestamp_subsec_nanos());
        format!("{base}.{}Z", &nanos[..frac.min(9)])
    }
}

/// The shape `dddd-dd-ddTdd:dd:ddZ`.
pub(crate) fn is_normal_form(b: &[u8]) -> bool {
    const SHAPE: &[u8; 20] = b"0000-00-00T00:00:00Z";
    b.len() == SHAPE.len()
        && b.iter().zip(SHAPE).all(|(&c, &p)| {
            if p == b'0' {
                c.is_ascii_digit()
            } else {
                c == p
            }
        })
}

/// A duration for people: `850ms`, `1.2s`, `4m 05s`, `2h 03m`, `3d 04h`.
pub fn human_ms(ms: i64) -> String {
    let sign = if ms < 0 { "-" } else { "" };
    let ms = ms.unsigned_abs();
    let s = ms / 1000;
    let body = if ms < 1000 {
        format!("{ms}ms")
    } else if ms < 60_000 {
        format!("{:.1}s", ms as f64 / 1000.0)
    } else if s < 3600 {
        format!("{}m {:02}s", s / 60, s % 60)
    } else if s < 86_400 {
        format!("{}h {:02}m", s / 3600, (s % 3600) / 60)
    } else {
        format!("{}d {:02}h", s / 86_400, (s % 86_400) / 3600)
    };
    format!("{sign}{body}")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn server_times_are_normalised() {
        assert_eq!(
            normalize_server_time("2024-01-13 18:36:58"),
            "2024-01-13T18:36:58Z"
        );
        assert_eq!(
            normalize_server_time("2024-01-13T18:36:58.123456Z"),
            "2024-01-13T18:36:58.123456Z"
        );
        assert_eq!(
            normalize_server_time("2024-01-13T20:36:58+02:00"),
            "2024-01-13T18:36:58Z"
        );
        assert_eq!(normalize_server_time("garbage"), "garbage");
        assert_eq!(
            normalize_server_time("2024-01-13T18:36:58Z"),
            "2024-01-13T18:36:58Z"
        );
        assert_eq!(
            normalize_server_time("2024-99-13T18:36:58Z"),
            "2024-99-13T18:36:58Z"
        );
    }

    #[test]
    fn durations_for_people() {
        assert_eq!(human_ms(850), "850ms");
        assert_eq!(human_ms(1234), "1.2s");
        assert_eq!(human_ms(245_000), "4m 05s");
        assert_eq!(human_ms(7_380_000), "2h 03m");
    }
}
