//! How the board writes its values: ages, durations, the per-hour
//! sparkline, a health's colour, and text cut to a width.

use crate::output::table::{cells, prefix, span};
use crate::time::human_ms;
use chrono::{DateTime, Utc};
use ratatui::style::{Color, Modifier, Style};
use ratatui::text::{Line, Span};

/// How long ago, in one unit: `12s`, `5m`, `3h`, `2d` (`0s` when in the future,
/// a clock a little ahead of ours).
pub fn age(now: DateTime<Utc>, then: DateTime<Utc>) -> String {
    span((now - then).num_seconds().max(0))
}

/// Elapsed time since `then`, as a duration.
pub fn since(now: DateTime<Utc>, then: DateTime<Utc>) -> String {
    human_ms((now - then).num_milliseconds().max(0))
}

/// A start time: the time of day, with the date when it is not today's.
pub fn clock(now: DateTime<Utc>, t: DateTime<Utc>) -> String {
    if now.date_naive() == t.date_naive() {
        t.format("%H:%M:%S").to_string()
    } else {
        t.format("%m-%d %H:%M").to_string()
    }
}

/// The colour of a health word (`status`'s words).
pub fn health_style(health: &str) -> Style {
    let c = match health {
        "failed" => Color::Red,
        "degraded" => Color::Yellow,
        "running" => Color::Cyan,
        "ok" => Color::Green,
        _ => Color::DarkGray,
    };
    let s = Style::new().fg(c);
    if health == "failed" {
        s.add_modifier(Modifier::BOLD)
    } else {
        s
    }
}

/// The colour of a run's result.
pub fn result_style(result: &str) -> Style {
    match result {
        "succeeded" => Style::new().fg(Color::Green),
        "failed" => Style::new().fg(Color::Red),
        "running" => Style::new().fg(Color::Cyan),
        _ => Style::new().fg(Color::Yellow),
    }
}

const BARS: [char; 8] = ['▁', '▂', '▃', '▄', '▅', '▆', '▇', '█'];

/// Runs per hour as one character each, scaled to the busiest hour; an hour
/// with a failure is red, an hour with no run a dot.
pub fn sparkline(runs: &[u32], failures: &[u32]) -> Line<'static> {
    let top = runs.iter().copied().max().unwrap_or(0).max(1);
    let spans = runs.iter().enumerate().map(|(i, &n)| {
        let failed = failures.get(i).copied().unwrap_or(0) > 0;
        let ch = if n == 0 {
            '·'
        } else {
            BARS[((n as usize * BARS.len()).div_ceil(top as usize)).clamp(1, BARS.len()) - 1]
        };
        let style = if failed {
            Style::new().fg(Color::Red)
        } else if n == 0 {
            Style::new().fg(Color::DarkGray)
        } else {
            Style::new().fg(Color::Green)
        };
        Span::styled(ch.to_string(), style)
    });
    Line::from(spans.collect::<Vec<_>>())
}

/// `text` (already escaped) cut to `width` columns, an ellipsis marking
/// the cut.
pub fn fit(text: &str, width: usize) -> String {
    if cells(text) <= width {
        return text.to_string();
    }
    if width == 0 {
        return String::new();
    }
    let mut out = prefix(text, width - 1);
    out.push('…');
    out
}

/// A UUID cut to its first block where room is short.
pub fn short_uuid(uuid: &str) -> &str {
    uuid.get(..8).unwrap_or(uuid)
}
