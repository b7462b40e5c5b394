//! Statistics as the open-source server's queries compute them from task
//! rows (the `ylem` dialect): per-row counts for tasks, per-run sums for
//! pipelines, the last run at or before `to`, calendar buckets.

use std::collections::BTreeMap;

use chrono::{DateTime, Duration, Utc};
use uuid::Uuid;

use super::aggregate::Period;
use super::store::{Kind, Row};

/// Pipelines are counted per run, tasks per row.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Unit {
    Task,
    Pipeline,
}

impl Unit {
    pub fn of(kind: Kind) -> Unit {
        match kind {
            Kind::Tasks => Unit::Task,
            Kind::Pipelines | Kind::Workflows => Unit::Pipeline,
        }
    }
}

#[derive(Debug, Default, PartialEq)]
pub struct Counts {
    pub successes: i64,
    pub failures: i64,
    pub average: u64,
}

/// The last run at or before some time.
#[derive(Debug)]
pub struct Last {
    pub ok: bool,
    pub at: DateTime<Utc>,
    pub duration: u64,
}

/// Counts over `rows` (already filtered to a range). Tasks: successful and
/// failed rows, mean row duration. Pipelines, grouped by run: failures =
/// failed rows, successes = runs - failed rows, mean of run totals.
pub fn counts(unit: Unit, rows: &[&Row]) -> Counts {
    if rows.is_empty() {
        return Counts::default();
    }
    let failed = rows.iter().filter(|r| !r.ok).count() as i64;
    match unit {
        Unit::Task => Counts {
            successes: rows.len() as i64 - failed,
            failures: failed,
            average: rows.iter().map(|r| r.duration).sum::<u64>() / rows.len() as u64,
        },
        Unit::Pipeline => {
            let mut runs: BTreeMap<Uuid, u64> = BTreeMap::new();
            for r in rows {
                *runs.entry(r.run).or_default() += r.duration;
            }
            Counts {
                successes: runs.len() as i64 - failed,
                failures: failed,
                average: runs.values().sum::<u64>() / runs.len() as u64,
            }
        }
    }
}

/// The latest row at or before `to`; its flag and time, and the duration of
/// its row (tasks) or of its run's rows up to `to` (pipelines).
pub fn last(unit: Unit, rows: &[Row], to: DateTime<Utc>) -> Option<Last> {
    let latest = rows.iter().filter(|r| r.at <= to).max_by_key(|r| r.at)?;
    let duration = match unit {
        Unit::Task => latest.duration,
        Unit::Pipeline => rows
            .iter()
            .filter(|r| r.run == latest.run && r.at <= to)
            .map(|r| r.duration)
            .sum(),
    };
    Some(Last {
        ok: latest.ok,
        at: latest.at,
        duration,
    })
}

/// One aggregated bucket: its period start and counts.
pub struct Bucket {
    pub from: DateTime<Utc>,
    pub to: DateTime<Utc>,
    pub counts: Counts,
}

/// Rows between midnight of `from`'s day and `n` periods later, grouped by
/// the calendar period they fall in (pipelines: by their run's latest row).
/// An unaligned day gives a partial first bucket and one more at the end.
/// Empty periods are left out.
pub fn buckets(
    unit: Unit,
    rows: &[Row],
    from: DateTime<Utc>,
    period: Period,
    n: u32,
) -> Vec<Bucket> {
    let lo = from
        .date_naive()
        .and_hms_opt(0, 0, 0)
        .expect("midnight")
        .and_utc();
    let Some(hi) = period.add(lo, n).map(|t| t - Duration::seconds(1)) else {
        return Vec::new();
    };
    let inside: Vec<&Row> = rows.iter().filter(|r| r.at >= lo && r.at <= hi).collect();
    let mut groups: BTreeMap<DateTime<Utc>, Vec<&Row>> = BTreeMap::new();
    match unit {
        Unit::Task => {
            for r in inside {
                groups.entry(period.floor(r.at)).or_default().push(r);
            }
        }
        Unit::Pipeline => {
            let mut run_end: BTreeMap<Uuid, DateTime<Utc>> = BTreeMap::new();
            for r in &inside {
                let e = run_end.entry(r.run).or_insert(r.at);
                *e = (*e).max(r.at);
            }
            for r in inside {
                groups
                    .entry(period.floor(run_end[&r.run]))
                    .or_default()
                    .push(r);
            }
        }
    }
    groups
        .into_iter()
        .filter_map(|(start, rows)| {
            Some(Bucket {
                from: start,
                to: period.add(start, 1)? - Duration::seconds(1),
                counts: counts(unit, &rows),
            })
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn row(run: u128, secs: i64, ok: bool, duration: u64) -> Row {
        Row {
            run: Uuid::from_u128(run),
            at: DateTime::<Utc>::from_timestamp(1_700_000_000 + secs, 0).unwrap(),
            ok,
            duration,
            foreign: false,
        }
    }

    #[test]
    fn pipeline_counts_follow_the_server_query() {
        let rows = [
            row(1, 0, true, 10),
            row(1, 5, true, 20),
            row(2, 9, false, 5),
        ];
        let refs: Vec<&Row> = rows.iter().collect();
        let c = counts(Unit::Pipeline, &refs);
        assert_eq!((c.successes, c.failures, c.average), (1, 1, 17));
        let l = last(Unit::Pipeline, &rows, rows[1].at).unwrap();
        assert_eq!((l.ok, l.duration), (true, 30));
    }
}
