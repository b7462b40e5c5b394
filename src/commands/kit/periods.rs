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
/// is kept, in order, never dropped.
pub fn fill_periods(
    mut list: Vec<Aggregated>,
    start: NaiveDate,
    period: Period,
    count: u32,
) -> Vec<(Aggregated, bool)> {
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
        let zero = Aggregated {
            date_from: stamp(from),
            date_to: Timestamp(time::normalize_server_time_owned(to)),
            num_of_successes: 0,
            num_of_failures: 0,
            average_duration: 0,
        };
        out.push((zero, true));
    }
    out.extend(list.into_iter().map(|a| (a, false)));
    out.sort_by_key(|(a, _)| a.date_from.parsed());
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn bucket(from: &str, to: &str, ok: i64) -> Aggregated {
        Aggregated {
            date_from: Timestamp(time::normalize_server_time_owned(from.into())),
            date_to: Timestamp(time::normalize_server_time_owned(to.into())),
            num_of_successes: ok,
            num_of_failures: 0,
            average_duration: 10,
        }
    }

    #[test]
    fn every_period_is_shown_and_empty_ones_are_marked() {
        let start = NaiveDate::from_ymd_opt(2024, 1, 1).unwrap();
        let list = vec![bucket("2024-03-01 00:00:00", "2024-03-31 23:59:59", 2)];
        let rows = fill_periods(list, start, Period::Month, 3);
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
        let rows = fill_periods(odd, start, Period::Month, 1);
        assert_eq!(rows.len(), 2);
        assert!(rows[0].1 && !rows[1].1);
    }
}
