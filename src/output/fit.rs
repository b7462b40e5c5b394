//! Fitting a table to the terminal's width without breaking a value: free
//! text (outputs, errors, evidence) is shortened first, then the least
//! useful columns are left out (the caller names them in a note), the
//! columns that name a row or say what went wrong last of all
//! (`Column::keep`); a table whose first column alone is wider overflows,
//! as `kubectl`'s do. Columns a person named (`--fields`) are never left
//! out: their free text wraps instead of being cut (`table`), and a table
//! whose asked-for values are wider than the terminal is wider than the
//! terminal, its values whole (a UUID or a time broken over lines can be
//! neither read nor copied; the terminal folds the long line). Which column
//! is which is the columns' own description (`Column::fit`, `Column::keep`).

use super::column::Column;
// Where other code has always found it (the log follower).
pub use super::width::cells;

/// The narrowest a free-text column is shortened to; one the table keeps
/// longest (a failure) keeps enough to name its task and begin its message,
/// beside a run's UUID and result on 80 columns.
const MIN_FREE: usize = 10;
const MIN_KEPT_FREE: usize = 24;

/// The columns kept (indexes, in order) and the width of each.
#[derive(Debug, PartialEq)]
pub struct Plan {
    pub keep: Vec<usize>,
    pub widths: Vec<usize>,
    pub dropped: Vec<String>,
}

fn width_of(s: &str) -> usize {
    s.lines().map(cells).max().unwrap_or(0)
}

/// Plan the table: `width` is the terminal's (`None`: no limit, as for a
/// pipe); `boxes` whether borders are drawn (3 cells a column and 1, else 2
/// a column); `asked` whether the columns are the ones a person named
/// (`--fields`): then none is left out.
pub fn plan(
    columns: &[Column],
    headers: &[String],
    rows: &[Vec<String>],
    width: Option<usize>,
    boxes: bool,
    asked: bool,
) -> Plan {
    let natural: Vec<usize> = (0..columns.len())
        .map(|i| {
            rows.iter()
                .map(|r| width_of(&r[i]))
                .chain(std::iter::once(width_of(&headers[i])))
                .max()
                .unwrap_or(0)
        })
        .collect();
    let free = |i: usize| columns[i].is_free();
    // A table shows an empty value as `-`; a column whose every row holds
    // its idle value (a metric of 0) says as little.
    let empty = |i: usize| {
        let idle = |v: &str| columns[i].idle == Some(v);
        !rows.is_empty()
            && rows
                .iter()
                .all(|r| r[i].is_empty() || r[i] == "-" || idle(&r[i]))
    };
    let least = |i: usize| match (free(i), columns[i].keep.is_some()) {
        // Asked-for text wraps: it may be as narrow as any.
        (true, true) if !asked => natural[i].min(MIN_KEPT_FREE.max(cells(&headers[i]))),
        (true, _) => natural[i].min(MIN_FREE.max(cells(&headers[i]))),
        (false, _) => natural[i],
    };
    let frame = |n: usize| if boxes { 3 * n + 1 } else { 2 * n };
    let mut keep: Vec<usize> = (0..columns.len()).collect();
    let mut out = Vec::new();
    if let Some(limit) = width.filter(|_| !asked) {
        let total =
            |keep: &[usize]| keep.iter().map(|&i| least(i)).sum::<usize>() + frame(keep.len());
        while keep.len() > 1 && total(&keep) > limit {
            out.push(keep.remove(victim(columns, &keep, &empty)));
        }
        let whole =
            |keep: &[usize]| keep.iter().map(|&i| natural[i]).sum::<usize>() + frame(keep.len());
        take_back(
            columns,
            &mut keep,
            &mut out,
            &|k: &[usize]| whole(k) <= limit,
            &empty,
        );
    }
    let dropped = out.iter().map(|&i| columns[i].name.to_string()).collect();
    let mut widths: Vec<usize> = keep.iter().map(|&i| natural[i]).collect();
    if let Some(limit) = width {
        shrink_free(
            &keep,
            &mut widths,
            limit.saturating_sub(frame(keep.len())),
            &least,
            &free,
        );
    }
    Plan {
        keep,
        widths,
        dropped,
    }
}

/// The position in `keep` of the next column to leave out: one the
/// command line named already (`Column::given`), then a column with
/// nothing in it (every cell empty: no error, no failure), from the right;
/// the ranked ones, lowest rank first; then the others from the right;
/// then the first column, if the table keeps other columns longer; then
/// the columns kept longest, the highest order first (from the right among
/// equals).
fn victim(columns: &[Column], keep: &[usize], empty: &dyn Fn(usize) -> bool) -> usize {
    let spare = |i: usize| i != 0 && columns[i].keep.is_none();
    let any_kept = keep.iter().any(|&i| columns[i].keep.is_some());
    keep.iter()
        .rposition(|&i| columns[i].given)
        .or_else(|| keep.iter().rposition(|&i| i != 0 && empty(i)))
        .or_else(|| {
            keep.iter()
                .enumerate()
                .filter(|&(_, &i)| spare(i))
                .filter_map(|(k, &i)| Some((columns[i].rank()?, k)))
                .min()
                .map(|(_, k)| k)
        })
        .or_else(|| keep.iter().rposition(|&i| spare(i)))
        .or_else(|| {
            keep.iter()
                .position(|&i| i == 0 && any_kept && columns[0].keep.is_none())
        })
        .or_else(|| {
            keep.iter()
                .enumerate()
                .filter_map(|(k, &i)| Some((columns[i].keep?, k)))
                .max()
                .map(|(_, k)| k)
        })
        .unwrap_or(keep.len() - 1)
}

/// A wide column left out may leave room for narrower ones left out
/// before it: they come back into `keep`, the last left out first, where
/// the table then `fits` with no text shortened (an empty one stays out:
/// it says nothing). While a kept column with something in it is out (a
/// failure, a time), only kept ones come back: a table never shows an
/// ordinary column where one kept longer was left out. A column that names
/// its row a second time (`Column::second_name`) does not hold its room so.
fn take_back(
    columns: &[Column],
    keep: &mut Vec<usize>,
    out: &mut Vec<usize>,
    fits: &dyn Fn(&[usize]) -> bool,
    empty: &dyn Fn(usize) -> bool,
) {
    let kept = |i: usize| columns[i].keep.is_some();
    let holds = |i: usize| kept(i) && !columns[i].second_name && !empty(i);
    for k in (0..out.len()).rev() {
        if empty(out[k]) || (!kept(out[k]) && out.iter().any(|&i| holds(i))) {
            continue;
        }
        let mut with = keep.clone();
        with.push(out[k]);
        with.sort_unstable();
        if fits(&with) {
            *keep = with;
            out.remove(k);
        }
    }
}

/// Shorten the widest free-text column, one cell at a time, until the
/// widths fit `room` or every free column is at its least.
fn shrink_free(
    keep: &[usize],
    widths: &mut [usize],
    room: usize,
    least: &dyn Fn(usize) -> usize,
    free: &dyn Fn(usize) -> bool,
) {
    while widths.iter().sum::<usize>() > room {
        let widest = (0..keep.len())
            .filter(|&k| free(keep[k]) && widths[k] > least(keep[k]))
            .max_by_key(|&k| widths[k]);
        match widest {
            Some(k) => widths[k] -= 1,
            None => break,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const UUID: &str = "83c389df-8263-4821-bcb7-45a538f1189a";

    fn col(name: &'static str) -> Column {
        Column::new(name, "")
    }

    fn headers(cols: &[Column]) -> Vec<String> {
        cols.iter().map(|c| c.name.to_uppercase()).collect()
    }

    fn logs(width: usize) -> Plan {
        let cols = [
            col("workflow_run_uuid"),
            col("task_uuid").ranked(10),
            col("task_type").ranked(17),
            col("is_successful"),
            col("duration").ranked(24),
            col("output").free(13),
            col("metric_value").ranked(4),
            col("executed_at"),
        ];
        let row: Vec<String> = [
            UUID,
            UUID,
            "notification",
            "failed",
            "1.2s",
            &"x".repeat(40),
            "12",
            "2026-11-23 08:32:52",
        ]
        .iter()
        .map(|s| s.to_string())
        .collect();
        plan(&cols, &headers(&cols), &[row], Some(width), true, false)
    }

    #[test]
    fn fits_by_shortening_free_text_then_leaving_columns_out() {
        for w in [80, 120, 160, 200] {
            let p = logs(w);
            let used: usize = p.widths.iter().sum::<usize>() + 3 * p.keep.len() + 1;
            assert!(used <= w, "{w}: {p:?}");
            assert!(p.keep.contains(&0) && p.keep.contains(&7), "{w}: {p:?}");
        }
        assert_eq!(logs(200).dropped, Vec::<String>::new());
        assert!(logs(80).dropped.contains(&"task_uuid".to_string()));
    }

    #[test]
    fn the_columns_kept_longest_go_last() {
        let cols = [
            col("name").kept(0),
            col("kind").ranked(26),
            col("status").kept(1),
            col("fails_7d"),
            col("failure").free(15).kept(2),
        ];
        let row: Vec<String> = [
            "orders",
            "pipeline",
            "failed",
            "▁▁▁▁▁▁▁",
            "task code (3205418f…)",
        ]
        .iter()
        .map(|s| s.to_string())
        .collect();
        let p = |w| {
            plan(
                &cols,
                &headers(&cols),
                std::slice::from_ref(&row),
                Some(w),
                false,
                false,
            )
        };
        assert_eq!(p(40).keep, [0, 2, 4], "{:?}", p(40));
        assert_eq!(p(40).dropped, ["kind", "fails_7d"]);
        // A kept failure is not cut below what names its task; the room
        // it leaves takes no ordinary column back (kind and fails_7d would
        // fit in it whole): they are not kept longer than the failure.
        assert_eq!(p(38).keep, [0, 2], "{:?}", p(38));
        assert_eq!(p(38).dropped, ["kind", "fails_7d", "failure"]);
        // Then the highest order first: why, then how; which row, never.
        assert_eq!(p(20).keep, [0, 2], "{:?}", p(20));
        assert_eq!(p(10).keep, [0], "{:?}", p(10));
        // A first column that is not kept goes before the kept ones.
        let cols = [col("started"), col("run_uuid").kept(0)];
        let row = vec!["2026-11-23 08:32:52".to_string(), UUID.to_string()];
        let p = plan(&cols, &headers(&cols), &[row], Some(50), true, false);
        assert_eq!((p.keep, p.dropped), (vec![1], vec!["started".to_string()]));
        // Room a wide second name of the row (a log entry's task) left
        // behind takes narrower ones back, whole.
        let cols = [
            col("run_uuid").kept(0),
            col("task_uuid").kept(4).second_name(),
            col("task_type").ranked(17),
            col("duration").ranked(24),
        ];
        let row: Vec<String> = [UUID, UUID, "filter", "1.2s"]
            .iter()
            .map(|s| s.to_string())
            .collect();
        let p = plan(&cols, &headers(&cols), &[row], Some(70), true, false);
        assert_eq!(p.keep, [0, 2, 3], "{p:?}");
        assert_eq!(p.dropped, ["task_uuid"]);
        // Any other kept column holds its room: a run's time left out on
        // 60 columns keeps its duration out too (logs --failed).
        let cols = [
            col("run_uuid").kept(0),
            col("result").kept(1),
            col("duration").ranked(24),
            col("executed_at").kept(3),
        ];
        let row: Vec<String> = [UUID, "failed", "1.2s", "2026-11-23 08:32:52"]
            .iter()
            .map(|s| s.to_string())
            .collect();
        let p = plan(&cols, &headers(&cols), &[row], Some(60), true, false);
        assert_eq!(p.keep, [0, 1], "{p:?}");
        assert_eq!(p.dropped, ["duration", "executed_at"]);
        // A kept first column goes by its order too (a run's entries:
        // their time before their task).
        let cols = [col("executed_at").kept(3), col("task").kept(0)];
        let row = vec!["2026-11-23 08:32:52".to_string(), UUID.to_string()];
        let p = plan(&cols, &headers(&cols), &[row], Some(50), true, false);
        assert_eq!(p.keep, [1], "{p:?}");
        // A column with nothing in it goes first, kept or not.
        let cols = [
            col("uuid").kept(0),
            col("successes"),
            col("error_kind").kept(2),
        ];
        let row = vec![UUID.to_string(), "37".to_string(), "-".to_string()];
        let p = plan(&cols, &headers(&cols), &[row], Some(56), true, false);
        assert_eq!(
            (p.keep, p.dropped),
            (vec![0, 1], vec!["error_kind".to_string()])
        );
    }

    #[test]
    fn asked_columns_are_never_left_out() {
        let cols = [
            col("run_uuid").kept(0),
            col("task_uuid"),
            col("failure").free(15),
        ];
        let row = vec![UUID.to_string(), UUID.to_string(), "x".repeat(100)];
        let p = plan(&cols, &headers(&cols), &[row], Some(60), true, true);
        assert_eq!(p.keep, [0, 1, 2]);
        assert!(p.dropped.is_empty());
        // The free text at its least; the UUIDs whole, wider than asked.
        assert_eq!(p.widths, [36, 36, 10]);
    }

    #[test]
    fn no_limit_keeps_everything_whole() {
        let cols = [col("a"), col("output").free(13)];
        let rows = vec![vec!["1".to_string(), "y".repeat(100)]];
        let p = plan(&cols, &headers(&cols), &rows, None, false, false);
        assert_eq!(p.widths, [1, 100]);
    }
}
