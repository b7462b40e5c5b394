//! Fitting a table to the terminal's width without breaking a value: free
//! text (outputs, errors, evidence) is shortened first, then the least
//! useful columns are left out (the caller names them in a note); a table
//! whose first column alone is wider overflows, as `kubectl`'s do. Which
//! column is which is the columns' own description (`Column::fit`).

use super::column::{Column, Fit};
// Where other code has always found it (the log follower).
pub use super::width::cells;

/// The narrowest a free-text column is shortened to; a free-text column
/// the table keeps longest (a decoded output) keeps enough to be read.
const MIN_FREE: usize = 10;
const MIN_KEPT_FREE: usize = 40;

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
/// a column); `keep` the columns the table keeps longest, the most needed
/// first (left out last, from the end of that list).
pub fn plan(
    columns: &[Column],
    headers: &[String],
    rows: &[Vec<String>],
    width: Option<usize>,
    boxes: bool,
    keep_longest: &[&str],
) -> Plan {
    let names: Vec<&str> = columns.iter().map(|c| c.name).collect();
    let natural: Vec<usize> = (0..names.len())
        .map(|i| {
            rows.iter()
                .map(|r| width_of(&r[i]))
                .chain(std::iter::once(width_of(&headers[i])))
                .max()
                .unwrap_or(0)
        })
        .collect();
    let free = |i: usize| columns[i].is_free();
    let least = |i: usize| {
        if free(i) {
            let min = match keep_longest.contains(&names[i]) {
                true => MIN_KEPT_FREE,
                false => MIN_FREE,
            };
            natural[i].min(min.max(cells(&headers[i])))
        } else {
            natural[i]
        }
    };
    let frame = |n: usize| if boxes { 3 * n + 1 } else { 2 * n };
    let mut keep: Vec<usize> = (0..names.len()).collect();
    let mut dropped = Vec::new();
    if let Some(limit) = width {
        let total =
            |keep: &[usize]| keep.iter().map(|&i| least(i)).sum::<usize>() + frame(keep.len());
        while keep.len() > 1 && total(&keep) > limit {
            let victim = victim(columns, &keep, keep_longest);
            dropped.push(names[keep.remove(victim)].to_string());
        }
    }
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

/// The position in `keep` of the next column to leave out: the ranked
/// ones, lowest rank first, then from the right, the columns kept longest
/// last of all (the last of them first). The first column stays while
/// another is left, unless the table names the columns it keeps longest
/// without it.
fn victim(columns: &[Column], keep: &[usize], keep_longest: &[&str]) -> usize {
    let names: Vec<&str> = columns.iter().map(|c| c.name).collect();
    let spare = |k: &usize| *k != 0 && !keep_longest.contains(&names[*k]);
    let first_spare = !keep_longest.is_empty() && !keep_longest.contains(&names[0]);
    keep.iter()
        .enumerate()
        .filter(|&(_, &i)| spare(&i))
        .filter_map(|(k, &i)| Some((columns[i].rank()?, k)))
        .min()
        .map(|(_, k)| k)
        .or_else(|| {
            keep.iter()
                .rposition(|k| spare(k) && columns[*k].fit != Fit::Last)
        })
        .or_else(|| keep.iter().rposition(spare))
        .or_else(|| keep.iter().position(|&i| i == 0 && first_spare))
        .or_else(|| {
            keep_longest
                .iter()
                .rev()
                .find_map(|d| keep.iter().position(|&i| names[i] == *d && i != 0))
        })
        .unwrap_or(keep.len() - 1)
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
        plan(&cols, &headers(&cols), &[row], Some(width), true, &[])
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
        let cols = [col("name"), col("kind"), col("status"), col("fails_7d")];
        let row: Vec<String> = ["orders", "pipeline", "failed", "▁▁▁▁▁▁▁"]
            .iter()
            .map(|s| s.to_string())
            .collect();
        let p = plan(
            &cols,
            &headers(&cols),
            &[row],
            Some(24),
            false,
            &["name", "status"],
        );
        assert_eq!(p.keep, [0, 2], "{p:?}");
        assert_eq!(p.dropped, ["fails_7d", "kind"]);
    }

    #[test]
    fn no_limit_keeps_everything_whole() {
        let cols = [col("a"), col("output").free(13)];
        let rows = vec![vec!["1".to_string(), "y".repeat(100)]];
        let p = plan(&cols, &headers(&cols), &rows, None, false, &[]);
        assert_eq!(p.widths, [1, 100]);
    }
}
