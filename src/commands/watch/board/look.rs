//! How the board writes its values: ages, durations, the per-hour
//! sparkline, a health's colour, and text cut to a width.

use chrono::{DateTime, Utc};
use ratatui::style::{Color, Modifier, Style};
use ratatui::text::{Line, Span};
use unicode_width::UnicodeWidthChar;

use crate::time::human_ms;

/// How long ago, in one unit: `12s`, `5m`, `3h`, `2d` (`0s` when in the future,
/// a clock a little ahead of ours).
pub fn age(now: DateTime<Utc>, then: DateTime<Utc>) -> String {
    let s = (now - then).num_seconds();
    match s {
        ..=0 => "0s".into(),
        1..60 => format!("{s}s"),
        60..3600 => format!("{}m", s / 60),
        3600..86_400 => format!("{}h", s / 3600),
        _ => format!("{}d", s / 86_400),
    }
}

/// A duration in milliseconds, as every command writes it.
pub fn ms(ms: i64) -> String {
    human_ms(ms)
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

/// `text` cut to `width` columns, an ellipsis marking the cut.
pub fn fit(text: &str, width: usize) -> String {
    let total: usize = text.chars().map(|c| c.width().unwrap_or(0)).sum();
    if total <= width {
        return text.to_string();
    }
    let mut out = String::new();
    let mut used = 0;
    for c in text.chars() {
        let w = c.width().unwrap_or(0);
        if used + w + 1 > width {
            break;
        }
        used += w;
        out.push(c);
    }
    if width > 0 {
        out.push('…');
    }
    out
}

/// A UUID cut to its first block where room is short.
pub fn short_uuid(uuid: &str) -> &str {
    uuid.get(..8).unwrap_or(uuid)
}
