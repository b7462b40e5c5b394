//! `aggregate --chart`: successes and failures per period as horizontal
//! bars with the average duration, fitted to the terminal width. Readable
//! without colour: successes and failures use different glyphs.

use crate::count::count;
use crate::time;
use ylem_client::Period;
use ylem_client::api::models::Aggregated;

/// How the chart may draw.
#[derive(Debug, Clone, Copy)]
pub struct Canvas {
    pub width: usize,
    pub color: bool,
    /// Block glyphs (a terminal); otherwise ASCII for pipes and files.
    pub unicode: bool,
}

fn label(a: &Aggregated, p: Period) -> String {
    let Some(d) = a.date_from.parsed() else {
        return a.date_from.0.clone();
    };
    match p {
        Period::Day | Period::Week => d.format("%Y-%m-%d").to_string(),
        Period::Month => d.format("%Y-%m").to_string(),
        Period::Quarter => format!(
            "{}-Q{}",
            d.format("%Y"),
            (d.format("%m").to_string().parse::<u32>().unwrap_or(1) - 1) / 3 + 1
        ),
        Period::Year => d.format("%Y").to_string(),
    }
}

/// Bar lengths for `ok` and `failed` out of `max` in `width` cells; any
/// non-zero count gets at least one cell so it is never invisible.
fn lengths(ok: i64, failed: i64, max: i64, width: usize) -> (usize, usize) {
    if max <= 0 {
        return (0, 0);
    }
    let cells = |n: i64| {
        if n <= 0 {
            0
        } else {
            ((n as f64 / max as f64 * width as f64).round() as usize).max(1)
        }
    };
    let (a, b) = (cells(ok), cells(failed));
    // Rounding up both parts may overshoot by one: trim the larger.
    if a + b > width {
        if a >= b {
            (width - b, b)
        } else {
            (a, width - a)
        }
    } else {
        (a, b)
    }
}

pub fn render(rows: &[Aggregated], period: Period, c: Canvas) -> String {
    let (ok_glyph, fail_glyph) = if c.unicode {
        ("█", "░")
    } else {
        ("#", "x")
    };
    let max = rows
        .iter()
        .map(|r| r.num_of_successes + r.num_of_failures)
        .max()
        .unwrap_or(0);
    let labels: Vec<String> = rows.iter().map(|r| label(r, period)).collect();
    let label_w = labels.iter().map(|l| l.len()).max().unwrap_or(0);
    let num_w = rows
        .iter()
        .map(|r| r.num_of_successes.max(r.num_of_failures).to_string().len())
        .max()
        .unwrap_or(1);
    // label, two spaces, bar, two spaces, "N ok  N failed  avg 12m 30s"
    let stats_w = 2 * num_w + " ok   failed  avg 12m 30s".len();
    let bar_w = c.width.saturating_sub(label_w + 4 + stats_w).clamp(10, 200);
    let mut out = format!(
        "{} successes  {} failures  (full bar: {})\n",
        paint(ok_glyph, c.color, 32),
        paint(fail_glyph, c.color, 31),
        count(max, "run", "runs")
    );
    for (r, l) in rows.iter().zip(&labels) {
        let (a, b) = lengths(r.num_of_successes, r.num_of_failures, max, bar_w);
        let bar = format!(
            "{}{}{}",
            paint(&ok_glyph.repeat(a), c.color, 32),
            paint(&fail_glyph.repeat(b), c.color, 31),
            " ".repeat(bar_w - a - b)
        );
        out.push_str(&format!(
            "{l:<label_w$}  {bar}  {:>num_w$} ok  {:>num_w$} failed  avg {}\n",
            r.num_of_successes,
            r.num_of_failures,
            time::human_ms(r.average_duration)
        ));
    }
    out
}

fn paint(s: &str, color: bool, code: u8) -> String {
    if color && !s.is_empty() {
        format!("\x1b[{code}m{s}\x1b[0m")
    } else {
        s.to_string()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use ylem_client::api::models::Timestamp;

    fn agg(day: u32, ok: i64, failed: i64) -> Aggregated {
        let mut a = Aggregated::empty(
            Timestamp(format!("2024-01-{day:02}T00:00:00Z")),
            Timestamp(format!("2024-01-{day:02}T23:59:59Z")),
        );
        (a.num_of_successes, a.num_of_failures, a.average_duration) = (ok, failed, 1500);
        a
    }

    #[test]
    fn fits_the_width_and_shows_failures_without_colour() {
        let rows = [agg(1, 100, 0), agg(2, 50, 1), agg(3, 0, 0)];
        for width in [60, 120] {
            let s = render(
                &rows,
                Period::Day,
                Canvas {
                    width,
                    color: false,
                    unicode: false,
                },
            );
            for line in s.lines().skip(1) {
                assert!(line.chars().count() <= width, "{line}");
            }
            let second = s.lines().nth(2).unwrap();
            assert!(second.contains('x'), "one failure is visible: {second}");
            assert!(!s.contains('\x1b'));
        }
        let s = render(
            &rows,
            Period::Day,
            Canvas {
                width: 80,
                color: true,
                unicode: true,
            },
        );
        assert!(s.contains("\x1b[31m") && s.contains('█'));
    }

    #[test]
    fn lengths_never_overshoot() {
        assert_eq!(lengths(1, 1, 2, 1), (0, 1));
        assert_eq!(lengths(0, 0, 0, 10), (0, 0));
        assert_eq!(lengths(10, 0, 10, 10), (10, 0));
    }
}
