//! Every period of an aggregation shown: the service leaves out the periods
//! without runs, and `aggregate` and the board (`status`'s failures per
//! day) show them as zeros.

use chrono::{NaiveDate, NaiveTime};

use crate::time;
use ylem_client::Period;
use ylem_client::api::models::{Aggregated, Timestamp};

/// Every one of the `count` periods from `start`: the service's bucket, or
/// zeros marked `true` where it left the period out (an outage is a zero
/// bar, not a missing one). A bucket of the service that starts elsewhere
/// inside the asked range is kept, in order; one outside it (a 1990 bucket
/// for 2024) or a second one for the same start is not a period that was
/// asked for: `warn` is told (escaped) and it is left out.
pub fn fill_periods(
    list: Vec<Aggregated>,
    start: NaiveDate,
    period: Period,
    count: u32,
    warn: &mut dyn FnMut(String),
) -> Vec<(Aggregated, bool)> {
    let mut list = inside(list, start, period, count, warn);
    let stamp =
        |d: NaiveDate| Timestamp(time::normalize_server_time_owned(format!("{d} 00:00:00")));
    let mut out: Vec<(Aggregated, bool)> = Vec::new();
    for i in 0..i64::from(count) {
        let (Some(from), Some(next)) = (
            time::add_periods(start, period, i),
            time::add_periods(start, period, i + 1),
        ) else {
            break;
        };
        let at = from.and_time(NaiveTime::MIN).and_utc();
        if let Some(k) = list.iter().position(|a| a.date_from.parsed() == Some(at)) {
            out.push((list.remove(k), false));
            continue;
        }
        let to = (next.and_time(NaiveTime::MIN) - chrono::Duration::seconds(1)).to_string();
        let zero = Aggregated::empty(
            stamp(from),
            Timestamp(time::normalize_server_time_owned(to)),
        );
        out.push((zero, true));
    }
    out.extend(list.into_iter().map(|a| (a, false)));
    out.sort_by_key(|(a, _)| a.date_from.parsed());
    out
}

/// The buckets whose start lies in the `count` periods from `start`, each
/// start once (the first bucket for it kept).
fn inside(
    list: Vec<Aggregated>,
    start: NaiveDate,
    period: Period,
    count: u32,
    warn: &mut dyn FnMut(String),
) -> Vec<Aggregated> {
    let from = start.and_time(NaiveTime::MIN).and_utc();
    let end = time::add_periods(start, period, i64::from(count))
        .map(|d| d.and_time(NaiveTime::MIN).and_utc());
    let mut seen = std::collections::HashSet::new();
    let mut kept = Vec::with_capacity(list.len());
    for a in list {
        let shown = ylem_client::text::escape(&a.date_from.0).into_owned();
        let at = a.date_from.parsed();
        if at.is_none_or(|t| t < from || end.is_some_and(|e| t >= e)) {
            warn(format!(
                "the service answered a {period} from {shown}, outside the {count} asked from {start}: left out"
            ));
        } else if !seen.insert(at) {
            warn(format!(
                "the service answered the {period} from {shown} twice: the second left out"
            ));
        } else {
            kept.push(a);
        }
    }
    kept
}

#[cfg(test)]
mod tests {
    use super::*;

    fn bucket(from: &str, to: &str, ok: i64) -> Aggregated {
        let mut a = Aggregated::empty(
            Timestamp(time::normalize_server_time_owned(from.into())),
            Timestamp(time::normalize_server_time_owned(to.into())),
        );
        (a.num_of_successes, a.average_duration) = (ok, 10);
        a
    }

    #[test]
    fn every_period_is_shown_and_empty_ones_are_marked() {
        let start = NaiveDate::from_ymd_opt(2024, 1, 1).unwrap();
        let list = vec![bucket("2024-03-01 00:00:00", "2024-03-31 23:59:59", 2)];
        let rows = fill_periods(list, start, Period::Month, 3, &mut |w| panic!("{w}"));
        let shown: Vec<(&str, &str, bool)> = rows
            .iter()
            .map(|(a, f)| (a.date_from.0.as_str(), a.date_to.0.as_str(), *f))
            .collect();
        assert_eq!(
            shown,
            [
                ("2024-01-01T00:00:00Z", "2024-01-31T23:59:59Z", true),
                ("2024-02-01T00:00:00Z", "2024-02-29T23:59:59Z", true),
                ("2024-03-01T00:00:00Z", "2024-03-31T23:59:59Z", false),
            ]
        );
        assert_eq!(rows[2].0.num_of_successes, 2);
    }

    #[test]
    fn a_bucket_that_starts_elsewhere_is_kept() {
        let start = NaiveDate::from_ymd_opt(2024, 1, 1).unwrap();
        let odd = vec![bucket("2024-01-15 00:00:00", "2024-02-14 23:59:59", 1)];
        let rows = fill_periods(odd, start, Period::Month, 1, &mut |w| panic!("{w}"));
        assert_eq!(rows.len(), 2);
        assert!(rows[0].1 && !rows[1].1);
    }

    #[test]
    fn buckets_outside_the_range_or_twice_are_left_out_with_a_warning() {
        let start = NaiveDate::from_ymd_opt(2024, 1, 1).unwrap();
        let list = vec![
            bucket("1990-01-01 00:00:00", "1990-01-31 23:59:59", 1),
            bucket("2024-02-01 00:00:00", "2024-02-29 23:59:59", 2),
            bucket("2024-02-01 00:00:00", "2024-02-29 23:59:59", 3),
            bucket("2024-04-01 00:00:00", "2024-04-30 23:59:59", 4),
        ];
        let mut warned = Vec::new();
        let rows = fill_periods(list, start, Period::Month, 3, &mut |w| warned.push(w));
        let ok: Vec<i64> = rows.iter().map(|(a, _)| a.num_of_successes).collect();
        assert_eq!(ok, [0, 2, 0], "{warned:?}");
        assert_eq!(warned.len(), 3, "{warned:?}");
        assert!(
            warned[0].contains("1990-01-01") && warned[0].contains("outside"),
            "{warned:?}"
        );
        assert!(warned[1].contains("twice"), "{warned:?}");
    }
}
