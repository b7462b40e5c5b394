//! Period arithmetic and bucketing for aggregated statistics.

use chrono::{DateTime, Datelike, Duration, Months, NaiveDate, Utc};

use super::store::Obs;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Period {
    Day,
    Week,
    Month,
    Quarter,
    Year,
}

impl Period {
    pub fn parse(s: &str) -> Result<Period, String> {
        Ok(match s {
            "day" => Period::Day,
            "week" => Period::Week,
            "month" => Period::Month,
            "quarter" => Period::Quarter,
            "year" => Period::Year,
            _ => {
                return Err(format!(
                    "invalid period \"{s}\": want day, week, month, quarter or year"
                ));
            }
        })
    }

    /// `start` plus `i` periods; months are added from the start so that a
    /// bucket starting on the 31st does not drift after February.
    pub fn add(self, start: DateTime<Utc>, i: u32) -> Option<DateTime<Utc>> {
        match self {
            Period::Day => start.checked_add_signed(Duration::days(i64::from(i))),
            Period::Week => start.checked_add_signed(Duration::weeks(i64::from(i))),
            Period::Month => start.checked_add_months(Months::new(i)),
            Period::Quarter => start.checked_add_months(Months::new(i.checked_mul(3)?)),
            Period::Year => start.checked_add_months(Months::new(i.checked_mul(12)?)),
        }
    }

    /// The start of the period containing `t`: midnight, Monday, the 1st,
    /// Jan/Apr/Jul/Oct 1, Jan 1.
    pub fn floor(self, t: DateTime<Utc>) -> DateTime<Utc> {
        let d = t.date_naive();
        let day = match self {
            Period::Day => d,
            Period::Week => d - Duration::days(i64::from(d.weekday().num_days_from_monday())),
            Period::Month => first(d.year(), d.month()),
            Period::Quarter => first(d.year(), (d.month() - 1) / 3 * 3 + 1),
            Period::Year => first(d.year(), 1),
        };
        day.and_hms_opt(0, 0, 0).expect("midnight exists").and_utc()
    }
}

fn first(year: i32, month: u32) -> NaiveDate {
    NaiveDate::from_ymd_opt(year, month, 1).expect("the 1st exists")
}

/// One non-empty bucket.
pub struct Bucket {
    pub from: DateTime<Utc>,
    pub to: DateTime<Utc>,
    pub successes: u64,
    pub failures: u64,
    pub average: u64,
}

/// Buckets starting at `starts[0]`, stepping one period; only observations in
/// `[lo, hi]` count, and empty buckets are left out. `obs` is time-ordered.
pub fn buckets(
    obs: &[Obs],
    period: Period,
    first_start: DateTime<Utc>,
    count: u32,
    lo: DateTime<Utc>,
    hi: DateTime<Utc>,
) -> Vec<Bucket> {
    let mut out = Vec::new();
    let last_obs = obs.last().map(|o| o.at);
    for i in 0..count {
        let (Some(from), Some(next)) = (period.add(first_start, i), period.add(first_start, i + 1))
        else {
            break;
        };
        // Later buckets can only be empty; stop instead of walking a huge n.
        if last_obs.is_none_or(|t| from > t) {
            break;
        }
        let to = next - Duration::seconds(1);
        let (a, b) = (from.max(lo), to.min(hi));
        let start = obs.partition_point(|o| o.at < a);
        let end = obs.partition_point(|o| o.at <= b);
        let slice = obs.get(start..end.max(start)).unwrap_or(&[]);
        if slice.is_empty() {
            continue;
        }
        let successes = slice.iter().filter(|o| o.ok).count() as u64;
        let total: u64 = slice.iter().map(|o| o.duration).sum();
        out.push(Bucket {
            from,
            to,
            successes,
            failures: slice.len() as u64 - successes,
            average: total / slice.len() as u64,
        });
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn t(s: &str) -> DateTime<Utc> {
        super::super::dialect::parse_datetime(s).unwrap()
    }

    #[test]
    fn floors_and_steps() {
        assert_eq!(
            Period::Week.floor(t("2024-01-10 12:00:00")),
            t("2024-01-08 00:00:00")
        );
        assert_eq!(
            Period::Quarter.floor(t("2024-05-10 12:00:00")),
            t("2024-04-01 00:00:00")
        );
        assert_eq!(
            Period::Month.add(t("2024-01-31 00:00:00"), 1),
            Some(t("2024-02-29 00:00:00"))
        );
        assert_eq!(
            Period::Month.add(t("2024-01-31 00:00:00"), 2),
            Some(t("2024-03-31 00:00:00"))
        );
    }
}
