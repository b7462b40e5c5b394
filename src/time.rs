//! TIME, DURATION and window parsing, and the time and duration formats the
//! service and people read.

use chrono::{
    DateTime, Datelike, Duration, Local, NaiveDate, NaiveDateTime, NaiveTime, TimeZone, Timelike,
    Utc,
};

use crate::error::{Error, Result};
use crate::kinds::Period;

/// How naive times are read and times are shown: UTC, the local zone
/// (`--local`, `YLEM_TZ=local`) or a named one (`YLEM_TZ=Europe/Paris`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Zone {
    #[default]
    Utc,
    Local,
    Named(chrono_tz::Tz),
}

impl Zone {
    /// `local`, `UTC` or an IANA zone name, in any case; `None` for
    /// anything else.
    pub fn from_name(s: &str) -> Option<Zone> {
        let t = s.trim();
        if t.eq_ignore_ascii_case("local") {
            Some(Zone::Local)
        } else if t.eq_ignore_ascii_case("utc") {
            Some(Zone::Utc)
        } else {
            chrono_tz::Tz::from_str_insensitive(t).ok().map(Zone::Named)
        }
    }

    /// As a table header names it: `UTC`, `local`, `Europe/Paris`.
    pub fn name(self) -> &'static str {
        match self {
            Zone::Utc => "UTC",
            Zone::Local => "local",
            Zone::Named(tz) => tz.name(),
        }
    }

    /// The wall-clock time of `t` in this zone.
    fn wall(self, t: DateTime<Utc>) -> NaiveDateTime {
        match self {
            Zone::Utc => t.naive_utc(),
            Zone::Local => t.with_timezone(&Local).naive_local(),
            Zone::Named(tz) => t.with_timezone(&tz).naive_local(),
        }
    }
}

/// A resolved, inclusive time range in UTC.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Window {
    pub from: DateTime<Utc>,
    pub to: DateTime<Utc>,
}

/// Whether a bare date names the start of its day (`--from`) or its end (`--to`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Edge {
    Start,
    End,
}

/// Parse a duration such as `90s`, `15m`, `24h`, `7d`, `2w`, `500ms`, `1h30m`.
pub fn parse_duration(s: &str) -> Result<std::time::Duration> {
    let bad = || {
        Error::usage(format!(
            "invalid duration '{s}': use e.g. 90s, 15m, 24h, 7d, 2w"
        ))
    };
    let t = s.trim();
    if t.is_empty() {
        return Err(bad());
    }
    let mut total_ms: u128 = 0;
    let mut rest = t;
    while !rest.is_empty() {
        let digits = rest
            .find(|c: char| !c.is_ascii_digit())
            .unwrap_or(rest.len());
        if digits == 0 {
            return Err(bad());
        }
        let n: u128 = rest[..digits].parse().map_err(|_| bad())?;
        rest = &rest[digits..];
        let unit_len = rest
            .find(|c: char| c.is_ascii_digit())
            .unwrap_or(rest.len());
        let unit = &rest[..unit_len];
        rest = &rest[unit_len..];
        let ms = match unit {
            "ms" => 1,
            "s" => 1_000,
            "m" => 60_000,
            "h" => 3_600_000,
            "d" => 86_400_000,
            "w" => 604_800_000,
            _ => return Err(bad()),
        };
        total_ms = n
            .checked_mul(ms)
            .and_then(|v| v.checked_add(total_ms))
            .ok_or_else(bad)?;
    }
    // Beyond a few centuries a duration is a typo, and chrono cannot hold it.
    if total_ms > 10_000 * 86_400_000 * 365 {
        return Err(bad());
    }
    Ok(std::time::Duration::from_millis(total_ms as u64))
}

fn from_naive(n: NaiveDateTime, zone: Zone) -> Option<DateTime<Utc>> {
    match zone {
        Zone::Utc => Some(Utc.from_utc_datetime(&n)),
        Zone::Local => Local
            .from_local_datetime(&n)
            .earliest()
            .map(|d| d.with_timezone(&Utc)),
        Zone::Named(tz) => tz
            .from_local_datetime(&n)
            .earliest()
            .map(|d| d.with_timezone(&Utc)),
    }
}

fn day_edge(d: NaiveDate, edge: Edge, zone: Zone) -> Option<DateTime<Utc>> {
    let t = match edge {
        Edge::Start => NaiveTime::MIN,
        Edge::End => NaiveTime::from_hms_opt(23, 59, 59)?,
    };
    from_naive(d.and_time(t), zone)
}

fn today(now: DateTime<Utc>, zone: Zone) -> NaiveDate {
    zone.wall(now).date()
}

/// Parse a TIME of the contract, relative to `now`.
pub fn parse_time(s: &str, now: DateTime<Utc>, zone: Zone, edge: Edge) -> Result<DateTime<Utc>> {
    let t = s.trim();
    let bad = || {
        Error::usage(format!(
            "invalid time '{s}': use YYYY-MM-DD[ HH:MM:SS], YYYY-MM-DDTHH:MM:SS[Z|±HH:MM], now, today, yesterday or an age such as 7d"
        ))
    };
    match t {
        "now" => return Ok(now),
        "today" => return day_edge(today(now, zone), edge, zone).ok_or_else(bad),
        "yesterday" => {
            let d = today(now, zone).pred_opt().ok_or_else(bad)?;
            return day_edge(d, edge, zone).ok_or_else(bad);
        }
        _ => {}
    }
    if t.starts_with(|c: char| c.is_ascii_digit())
        && t.ends_with(|c: char| c.is_ascii_alphabetic())
        && !t.contains('-')
    {
        let d = parse_duration(t).map_err(|_| bad())?;
        let d = Duration::from_std(d).map_err(|_| bad())?;
        return now.checked_sub_signed(d).ok_or_else(bad);
    }
    if let Ok(d) = DateTime::parse_from_rfc3339(t) {
        return Ok(d.with_timezone(&Utc));
    }
    for f in [
        "%Y-%m-%d %H:%M:%S",
        "%Y-%m-%dT%H:%M:%S",
        "%Y-%m-%d %H:%M:%S%.f",
        "%Y-%m-%dT%H:%M:%S%.f",
    ] {
        if let Ok(n) = NaiveDateTime::parse_from_str(t, f) {
            return from_naive(n, zone).ok_or_else(bad);
        }
    }
    if let Some(d) = (t.len() == 10)
        .then(|| NaiveDate::parse_from_str(t, "%Y-%m-%d").ok())
        .flatten()
    {
        return day_edge(d, edge, zone).ok_or_else(bad);
    }
    Err(bad())
}

/// Resolve `--from/--to/--since` into a window; default the last 24 hours.
pub fn resolve_window(
    from: Option<&str>,
    to: Option<&str>,
    since: Option<&str>,
    now: DateTime<Utc>,
    zone: Zone,
) -> Result<Window> {
    let day = Duration::hours(24);
    let (f, t) = match (from.or(since), to) {
        (Some(f), Some(t)) => (
            parse_time(f, now, zone, Edge::Start)?,
            parse_time(t, now, zone, Edge::End)?,
        ),
        (Some(f), None) => (parse_time(f, now, zone, Edge::Start)?, now),
        (None, Some(t)) => {
            let t = parse_time(t, now, zone, Edge::End)?;
            (t - day, t)
        }
        (None, None) => (now - day, now),
    };
    if f > t {
        return Err(Error::usage(format!(
            "invalid window: from {} is after to {}",
            f.format("%Y-%m-%d %H:%M:%S"),
            t.format("%Y-%m-%d %H:%M:%S")
        )));
    }
    Ok(Window { from: f, to: t })
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

/// Parse the aggregate `--from` DATE: a date, or a TIME whose day is taken.
pub fn parse_date(s: &str, now: DateTime<Utc>, zone: Zone) -> Result<NaiveDate> {
    let t = parse_time(s, now, zone, Edge::Start)?;
    Ok(zone.wall(t).date())
}

/// The start of the period that contains `d`.
pub fn period_start(d: NaiveDate, p: Period) -> NaiveDate {
    let ymd = |y, m, dd| NaiveDate::from_ymd_opt(y, m, dd).unwrap_or(d);
    match p {
        Period::Day => d,
        Period::Week => d - Duration::days(d.weekday().num_days_from_monday() as i64),
        Period::Month => ymd(d.year(), d.month(), 1),
        Period::Quarter => ymd(d.year(), (d.month() - 1) / 3 * 3 + 1, 1),
        Period::Year => ymd(d.year(), 1, 1),
    }
}

/// `d` moved by `n` periods (negative: back).
pub fn add_periods(d: NaiveDate, p: Period, n: i64) -> Option<NaiveDate> {
    let months = |k: i64| {
        let m = d.year() as i64 * 12 + d.month0() as i64 + k;
        NaiveDate::from_ymd_opt(
            (m.div_euclid(12)) as i32,
            (m.rem_euclid(12) + 1) as u32,
            d.day(),
        )
    };
    match p {
        Period::Day => d.checked_add_signed(Duration::days(n)),
        Period::Week => d.checked_add_signed(Duration::weeks(n)),
        Period::Month => months(n),
        Period::Quarter => months(3 * n),
        Period::Year => months(12 * n),
    }
}

/// Default aggregate start: the start of the period `count - 1` periods
/// before the current one, so the current period is the last.
pub fn default_aggregate_from(today: NaiveDate, p: Period, count: u32) -> NaiveDate {
    let start = period_start(today, p);
    add_periods(start, p, -(count as i64 - 1)).unwrap_or(start)
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
pub fn is_normal_form(b: &[u8]) -> bool {
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

/// A time for a table: `YYYY-MM-DD HH:MM:SS` in the zone shown.
pub fn display_time(t: DateTime<Utc>, zone: Zone) -> String {
    zone.wall(t).format("%Y-%m-%d %H:%M:%S").to_string()
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

    fn now() -> DateTime<Utc> {
        Utc.with_ymd_and_hms(2024, 3, 14, 12, 30, 0).unwrap()
    }
    fn p(s: &str, e: Edge) -> String {
        parse_time(s, now(), Zone::Utc, e)
            .unwrap()
            .format("%F %T")
            .to_string()
    }

    #[test]
    fn absolute_forms() {
        assert_eq!(p("2024-01-02 03:04:05", Edge::Start), "2024-01-02 03:04:05");
        assert_eq!(p("2024-01-02T03:04:05", Edge::Start), "2024-01-02 03:04:05");
        assert_eq!(
            p("2024-01-02T03:04:05Z", Edge::Start),
            "2024-01-02 03:04:05"
        );
        assert_eq!(
            p("2024-01-02T03:04:05+02:00", Edge::Start),
            "2024-01-02 01:04:05"
        );
        assert_eq!(p("2024-01-02", Edge::Start), "2024-01-02 00:00:00");
        assert_eq!(p("2024-01-02", Edge::End), "2024-01-02 23:59:59");
    }

    #[test]
    fn relative_forms() {
        assert_eq!(p("now", Edge::Start), "2024-03-14 12:30:00");
        assert_eq!(p("today", Edge::Start), "2024-03-14 00:00:00");
        assert_eq!(p("yesterday", Edge::Start), "2024-03-13 00:00:00");
        assert_eq!(p("yesterday", Edge::End), "2024-03-13 23:59:59");
        assert_eq!(p("90s", Edge::Start), "2024-03-14 12:28:30");
        assert_eq!(p("15m", Edge::Start), "2024-03-14 12:15:00");
        assert_eq!(p("24h", Edge::Start), "2024-03-13 12:30:00");
        assert_eq!(p("7d", Edge::Start), "2024-03-07 12:30:00");
        assert_eq!(p("2w", Edge::Start), "2024-02-29 12:30:00");
    }

    #[test]
    fn rejects_bad_times() {
        for s in [
            "",
            "2024-13-01",
            "2024-02-30",
            "tomorrow",
            "5y",
            "12",
            "2024-01-01 25:00:00",
            "-5d",
        ] {
            assert!(parse_time(s, now(), Zone::Utc, Edge::Start).is_err(), "{s}");
        }
    }

    #[test]
    fn windows() {
        let w = resolve_window(None, None, None, now(), Zone::Utc).unwrap();
        assert_eq!(w.to - w.from, Duration::hours(24));
        let w = resolve_window(None, None, Some("7d"), now(), Zone::Utc).unwrap();
        assert_eq!(w.to, now());
        assert!(
            resolve_window(
                Some("2024-02-01"),
                Some("2024-01-01"),
                None,
                now(),
                Zone::Utc
            )
            .is_err()
        );
        assert_eq!(path_datetime(now()), "2024-03-14%2012:30:00");
        let half = now() + Duration::milliseconds(500);
        assert_eq!(path_datetime_end(half), "2024-03-14%2012:30:01");
        assert_eq!(path_datetime_end(now()), "2024-03-14%2012:30:00");
    }

    #[test]
    fn durations() {
        assert_eq!(parse_duration("1h30m").unwrap().as_secs(), 5400);
        assert_eq!(parse_duration("500ms").unwrap().as_millis(), 500);
        for s in ["", "5", "m", "5y", "-1s", "1.5s"] {
            assert!(parse_duration(s).is_err(), "{s}");
        }
        assert_eq!(human_ms(850), "850ms");
        assert_eq!(human_ms(1234), "1.2s");
        assert_eq!(human_ms(245_000), "4m 05s");
        assert_eq!(human_ms(7_380_000), "2h 03m");
    }

    #[test]
    fn periods() {
        let d = NaiveDate::from_ymd_opt(2024, 3, 14).unwrap(); // a Thursday
        assert_eq!(period_start(d, Period::Week).to_string(), "2024-03-11");
        assert_eq!(period_start(d, Period::Quarter).to_string(), "2024-01-01");
        assert_eq!(
            default_aggregate_from(d, Period::Day, 7).to_string(),
            "2024-03-08"
        );
        assert_eq!(
            default_aggregate_from(d, Period::Month, 12).to_string(),
            "2023-04-01"
        );
        assert_eq!(
            default_aggregate_from(d, Period::Quarter, 2).to_string(),
            "2023-10-01"
        );
    }

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
}
