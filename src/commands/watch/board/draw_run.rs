//! The run screen: a waterfall of its task entries on one time axis (each
//! task a bar from its start to its end, failed ones marked and red), then
//! the failed tasks' messages.

use chrono::{DateTime, Utc};
use ratatui::Frame;
use ratatui::layout::Rect;
use ratatui::style::{Color, Style};
use ratatui::text::{Line, Span};
use ratatui::widgets::Paragraph;

use super::super::rows::TaskBar;
use super::look::fit;
use crate::time::human_ms;

/// Draw `tasks` in `area`, from line `scroll` on (kept so that the last
/// line can still be reached, never past it).
pub fn draw(f: &mut Frame, area: Rect, tasks: &[TaskBar], scroll: usize) {
    let lines = lines(tasks, area.width as usize);
    let top = scroll.min(lines.len().saturating_sub(1));
    let top = u16::try_from(top).unwrap_or(u16::MAX);
    f.render_widget(Paragraph::new(lines).scroll((top, 0)), area);
}

/// The waterfall as lines, `width` columns wide.
fn lines(tasks: &[TaskBar], width: usize) -> Vec<Line<'static>> {
    let (Some(t0), Some(t1)) = (
        tasks.iter().map(|t| t.start).min(),
        tasks.iter().map(|t| t.end).max(),
    ) else {
        return vec![Line::from("  no task entry in this run")];
    };
    let span = (t1 - t0).num_milliseconds().max(1);
    let wide = width >= 100;
    let name_w = if wide { 24 } else { 14 };
    let type_w = if wide { 16 } else { 0 };
    // Mark (2), name, type, the bar, its duration (9).
    let fixed = 2 + name_w + 1 + if wide { type_w + 1 } else { 0 } + 9;
    let bar_w = width.saturating_sub(fixed).max(4);
    let pad = " ".repeat(fixed - 9);
    let end = human_ms(span);
    let mut out = vec![Line::from(Span::styled(
        format!("{pad}0s{:>w$}", end, w = bar_w.saturating_sub(2)),
        Style::new().fg(Color::DarkGray),
    ))];
    for t in tasks {
        out.push(bar_line(t, t0, span, name_w, type_w, bar_w));
    }
    let failed: Vec<&TaskBar> = tasks.iter().filter(|t| t.failed).collect();
    if !failed.is_empty() {
        out.push(Line::default());
    }
    for t in failed {
        let red = Style::new().fg(Color::Red);
        if t.messages.is_empty() {
            out.push(Line::from(Span::styled(
                fit(&format!("✗ {}: (no message)", t.task), width),
                red,
            )));
        }
        for m in &t.messages {
            out.push(Line::from(Span::styled(
                fit(&format!("✗ {}: {m}", t.task), width),
                red,
            )));
        }
    }
    out
}

/// One task: its mark, name, type, and a bar placed on the run's axis.
fn bar_line(
    t: &TaskBar,
    t0: DateTime<Utc>,
    span: i64,
    name_w: usize,
    type_w: usize,
    bar_w: usize,
) -> Line<'static> {
    let at = |x: DateTime<Utc>| (x - t0).num_milliseconds().clamp(0, span) as usize;
    let from = at(t.start) * bar_w / span as usize;
    let to = (at(t.end) * bar_w)
        .div_ceil(span as usize)
        .clamp(from + 1, bar_w);
    let from = from.min(to - 1);
    let (mark, colour) = if t.failed {
        ("✗ ", Color::Red)
    } else {
        ("  ", Color::Green)
    };
    let mut spans = vec![
        Span::styled(mark, Style::new().fg(colour)),
        Span::raw(format!("{:<name_w$} ", fit(&t.task, name_w))),
    ];
    if type_w > 0 {
        spans.push(Span::styled(
            format!("{:<type_w$} ", fit(&t.task_type, type_w)),
            Style::new().fg(Color::DarkGray),
        ));
    }
    spans.push(Span::raw(" ".repeat(from)));
    spans.push(Span::styled("█".repeat(to - from), Style::new().fg(colour)));
    spans.push(Span::raw(" ".repeat(bar_w - to)));
    spans.push(Span::raw(format!(
        " {:>8}",
        human_ms((t.end - t.start).num_milliseconds())
    )));
    Line::from(spans)
}
