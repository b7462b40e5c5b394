//! TIME, DURATION and window parsing (what a person types), and times for
//! a table; the service's own forms (paths, server times, `human_ms`) are
//! `ylem_client::time`'s, re-exported here for the commands.

use chrono::{
    DateTime, Datelike, Duration, Local, NaiveDate, NaiveDateTime, NaiveTime, TimeZone, Timelike,
    Utc,
};

use crate::error::{Error, Result};
use ylem_client::Period;
pub use ylem_client::time::{Window, human_ms, normalize_server_time_owned, parse_server_time};

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

/// Parse a TIME of the contract, relative to `now`: refused before
/// anything is sent when it is a leap second (the server's dates have
/// none), before 1970 or past 9999 (the range the server's dates take),
/// or a local time the clocks skip (a DST gap).
pub fn parse_time(s: &str, now: DateTime<Utc>, zone: Zone, edge: Edge) -> Result<DateTime<Utc>> {
    let t = parse_time_as_given(s, now, zone, edge)?;
    if t.nanosecond() >= 1_000_000_000 {
        return Err(Error::usage(format!(
            "invalid time '{s}': a leap second (:60) is not taken: use :59, or :00 of the next minute"
        )));
    }
    if !(1970..=9999).contains(&t.year()) {
        return Err(Error::usage(format!(
            "invalid time '{s}': out of range: times from 1970-01-01 00:00:00 to 9999-12-31 23:59:59 UTC are taken"
        )));
    }
    Ok(t)
}

fn parse_time_as_given(
    s: &str,
    now: DateTime<Utc>,
    zone: Zone,
    edge: Edge,
) -> Result<DateTime<Utc>> {
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
            return from_naive(n, zone).ok_or_else(|| gap(s, zone));
        }
    }
    if let Some(d) = (t.len() == 10)
        .then(|| NaiveDate::parse_from_str(t, "%Y-%m-%d").ok())
        .flatten()
    {
        return day_edge(d, edge, zone).ok_or_else(|| gap(s, zone));
    }
    Err(bad())
}

/// A local time that does not exist: the clocks skip it.
fn gap(s: &str, zone: Zone) -> Error {
    Error::usage(format!(
        "invalid time '{s}': it falls in a DST gap in {} (the clocks skip that hour): give a time before or after it, or one with an offset (2026-03-29T02:30:00+01:00)",
        zone.name()
    ))
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

/// A time for a table: `YYYY-MM-DD HH:MM:SS` in the zone shown.
pub fn display_time(t: DateTime<Utc>, zone: Zone) -> String {
    zone.wall(t).format("%Y-%m-%d %H:%M:%S").to_string()
}

#[cfg(test)]
mod tests {
    use super::*;
    use ylem_client::time::{path_datetime, path_datetime_end};

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
    fn leap_seconds_years_out_of_range_and_dst_gaps_are_refused_saying_why() {
        let e = |s: &str, zone: Zone| parse_time(s, now(), zone, Edge::Start).unwrap_err().message;
        for s in [
            "2026-06-30 23:59:60",
            "2016-12-31T23:59:60Z",
            "2016-12-31T23:59:60.5",
        ] {
            assert!(
                e(s, Zone::Utc).contains("leap second"),
                "{s}: {}",
                e(s, Zone::Utc)
            );
        }
        for s in [
            "0000-01-01",
            "1969-12-31T23:59:59Z",
            "1900-06-01 12:00:00",
            "100000d",
        ] {
            assert!(
                e(s, Zone::Utc).contains("from 1970-01-01"),
                "{s}: {}",
                e(s, Zone::Utc)
            );
        }
        assert_eq!(p("1970-01-01", Edge::Start), "1970-01-01 00:00:00");
        assert_eq!(p("9999-12-31", Edge::End), "9999-12-31 23:59:59");
        let paris = Zone::from_name("Europe/Paris").unwrap();
        let gap = e("2026-03-29 02:30:00", paris);
        assert!(gap.contains("DST gap in Europe/Paris"), "{gap}");
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
}
