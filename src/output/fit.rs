//! Fitting a table to the terminal's width without breaking a value: free
//! text (outputs, errors, evidence) is shortened first, then the least
//! useful columns are left out (the caller names them in a note); a table
//! whose first column alone is wider overflows, as `kubectl`'s do.

/// Columns of free text: shortened, with an ellipsis, before anything is
/// left out.
const FREE_TEXT: &[&str] = &[
    "output",
    "errors",
    "error",
    "evidence",
    "decode_error",
    "failure",
    "failed_tasks",
];

/// Whether a column is free text, which may be shortened to fit.
pub fn is_free_text(name: &str) -> bool {
    FREE_TEXT.contains(&name)
}

/// The narrowest a free-text column is shortened to; a free-text column
/// the table keeps longest (a decoded output) keeps enough to be read.
const MIN_FREE: usize = 10;
const MIN_KEPT_FREE: usize = 40;

/// Which columns go first when even shortened free text does not fit, the
/// least useful first. Columns not named go after these, from the right;
/// the first column (what the row is about) stays.
const DROP_ORDER: &[&str] = &[
    "decode_error",
    "failed_tasks",
    "failed_task",
    "failed_task_type",
    "metric_value",
    "created_at",
    "updated_at",
    "id",
    "task_run_uuid",
    "state",
    "task_uuid",
    "errors",
    "error",
    "output",
    "evidence",
    "failure",
    "elapsed",
    "task_type",
    "average_duration",
    "last_run_duration",
    "tasks_total",
    "tasks_failed",
    "completion",
    "status",
    "duration",
    "date_to",
];

/// The columns kept (indexes, in order) and the width of each.
#[derive(Debug, PartialEq)]
pub struct Plan {
    pub keep: Vec<usize>,
    pub widths: Vec<usize>,
    pub dropped: Vec<String>,
}

/// How many terminal cells `s` takes on one line: a CJK character or an
/// emoji takes two, a combining mark none (what the terminal draws, not
/// how many characters there are).
pub fn cells(s: &str) -> usize {
    unicode_width::UnicodeWidthStr::width(s)
}

fn width_of(s: &str) -> usize {
    s.lines().map(cells).max().unwrap_or(0)
}

/// Plan the table: `width` is the terminal's (`None`: no limit, as for a
/// pipe); `boxes` whether borders are drawn (3 cells a column and 1, else 2
/// a column); `keep` the columns the table keeps longest, the most needed
/// first (left out last, from the end of that list).
pub fn plan(
    names: &[&str],
    headers: &[String],
    rows: &[Vec<String>],
    width: Option<usize>,
    boxes: bool,
    keep_longest: &[&str],
) -> Plan {
    let natural: Vec<usize> = (0..names.len())
        .map(|i| {
            rows.iter()
                .map(|r| width_of(&r[i]))
                .chain(std::iter::once(width_of(&headers[i])))
                .max()
                .unwrap_or(0)
        })
        .collect();
    let free = |i: usize| FREE_TEXT.contains(&names[i]);
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
            let victim = victim(names, &keep, keep_longest);
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

/// The position in `keep` of the next column to leave out: by the drop
/// order, then from the right, the columns kept longest last of all (the
/// last of them first). The first column stays while another is left,
/// unless the table names the columns it keeps longest without it.
fn victim(names: &[&str], keep: &[usize], keep_longest: &[&str]) -> usize {
    let spare = |k: &usize| *k != 0 && !keep_longest.contains(&names[*k]);
    let first_spare = !keep_longest.is_empty() && !keep_longest.contains(&names[0]);
    DROP_ORDER
        .iter()
        .find_map(|d| keep.iter().position(|&i| names[i] == *d && spare(&i)))
        // A row's `error_kind` (several IDs) says a row of blanks failed.
        .or_else(|| {
            keep.iter()
                .rposition(|k| spare(k) && names[*k] != "error_kind")
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

    fn logs(width: usize) -> Plan {
        let names = [
            "workflow_run_uuid",
            "task_uuid",
            "task_type",
            "is_successful",
            "duration",
            "output",
            "metric_value",
            "executed_at",
        ];
        let headers: Vec<String> = names.iter().map(|n| n.to_uppercase()).collect();
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
        plan(&names, &headers, &[row], Some(width), true, &[])
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
        let names = ["name", "kind", "status", "fails_7d"];
        let headers: Vec<String> = names.iter().map(|n| n.to_uppercase()).collect();
        let row: Vec<String> = ["orders", "pipeline", "failed", "▁▁▁▁▁▁▁"]
            .iter()
            .map(|s| s.to_string())
            .collect();
        let p = plan(
            &names,
            &headers,
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
        let names = ["a", "output"];
        let headers = vec!["A".to_string(), "OUTPUT".to_string()];
        let rows = vec![vec!["1".to_string(), "y".repeat(100)]];
        let p = plan(&names, &headers, &rows, None, false, &[]);
        assert_eq!(p.widths, [1, 100]);
    }
}
