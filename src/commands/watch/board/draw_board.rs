//! The board screen: one row per entity, fitted to the width (all columns
//! from 110 columns; name, health, last run and failure from 60; name,
//! health and failure below), and the selected row's failure and error in
//! full beneath it.

use std::time::{Duration, Instant};

use chrono::{DateTime, Utc};
use ratatui::Frame;
use ratatui::layout::{Constraint, Layout, Rect};
use ratatui::style::{Color, Modifier, Style};
use ratatui::text::{Line, Span};
use ratatui::widgets::{Cell, Paragraph, Row, Table, TableState};

use super::super::rows::EntityRow;
use super::app::App;
use super::look::{age, fit, health_style, result_style, since, sparkline};
use crate::time::human_ms;

/// How long a change stays highlighted.
pub const CHANGE_SHOWN: Duration = Duration::from_secs(5);

/// Which columns a width keeps.
#[derive(Clone, Copy, PartialEq)]
enum Tier {
    Narrow,
    Medium,
    Full,
}

fn tier(width: u16) -> Tier {
    match width {
        ..60 => Tier::Narrow,
        60..110 => Tier::Medium,
        _ => Tier::Full,
    }
}

/// The columns of a tier (header, width); the failure takes what is left.
fn columns(t: Tier) -> &'static [(&'static str, u16)] {
    match t {
        Tier::Full => &[
            ("", 1),
            ("NAME", 16),
            ("KIND", 8),
            ("HEALTH", 8),
            ("LAST RUN", 18),
            ("RUNNING", 13),
            ("24H RUNS/FAILED", 32),
        ],
        Tier::Medium => &[("", 1), ("NAME", 14), ("HEALTH", 10), ("LAST RUN", 18)],
        Tier::Narrow => &[("", 1), ("NAME", 14), ("HEALTH", 10)],
    }
}

/// Draw the board in `area`: the table, then two lines on the selected row.
pub fn draw(f: &mut Frame, area: Rect, app: &App, now: DateTime<Utc>, tick: Instant) {
    let [table_area, detail_area] =
        Layout::vertical([Constraint::Min(3), Constraint::Length(2)]).areas(area);
    let t = tier(area.width);
    let cols = columns(t);
    // Highlight symbol (2) and one space between columns.
    let fixed: u16 = cols.iter().map(|c| c.1 + 1).sum::<u16>() + 2;
    let fail_w = area.width.saturating_sub(fixed).max(1);
    let mut widths: Vec<Constraint> = cols.iter().map(|c| Constraint::Length(c.1)).collect();
    widths.push(Constraint::Length(fail_w));
    let mut head: Vec<Cell> = cols.iter().map(|c| Cell::from(c.0)).collect();
    head.push(Cell::from(if fail_w >= 14 {
        "LATEST FAILURE"
    } else {
        "FAILURE"
    }));
    let visible = app.visible();
    let rows = visible
        .iter()
        .map(|r| row(r, t, fail_w as usize, now, tick));
    let table = Table::new(rows, widths)
        .header(Row::new(head).style(Style::new().add_modifier(Modifier::BOLD)))
        .column_spacing(1)
        .highlight_symbol("> ")
        .row_highlight_style(Style::new().add_modifier(Modifier::REVERSED));
    let mut state =
        TableState::default().with_selected((!visible.is_empty()).then_some(app.selected));
    f.render_stateful_widget(table, table_area, &mut state);
    if visible.is_empty() {
        let why = if app.board.rows.is_empty() {
            "  waiting for the first refresh…"
        } else {
            "  no entity matches the filter (Esc clears it)"
        };
        let r = Rect {
            y: table_area.y + 1,
            height: 1,
            ..table_area
        };
        f.render_widget(Paragraph::new(why), r);
    }
    f.render_widget(
        Paragraph::new(detail(app.selected_row(), area.width)),
        detail_area,
    );
}

/// One entity's row.
fn row(r: &EntityRow, t: Tier, fail_w: usize, now: DateTime<Utc>, tick: Instant) -> Row<'static> {
    let changed = r
        .changed_at
        .is_some_and(|c| tick.saturating_duration_since(c) < CHANGE_SHOWN);
    let mark = match (&r.error, changed) {
        (Some(_), _) => Span::styled("!", Style::new().fg(Color::Red)),
        (None, true) => Span::styled("*", Style::new().fg(Color::Yellow)),
        _ => Span::raw(" "),
    };
    let name = Cell::from(fit(r.name(), columns(t)[1].1 as usize));
    let mut health = vec![Span::styled(r.health, health_style(r.health))];
    if t != Tier::Full && r.running.is_some() {
        health.push(Span::styled(" ▶", Style::new().fg(Color::Cyan)));
    }
    let failure = Cell::from(fit(&failure_text(r), fail_w));
    let mut cells = vec![Cell::from(mark), name];
    if t == Tier::Full {
        cells.push(Cell::from(r.kind));
    }
    cells.push(Cell::from(Line::from(health)));
    if t != Tier::Narrow {
        cells.push(Cell::from(last_run(r, now)));
    }
    if t == Tier::Full {
        cells.push(Cell::from(running(r, now)));
        cells.push(Cell::from(day(r)));
    }
    cells.push(failure);
    let style = if changed {
        Style::new()
            .add_modifier(Modifier::BOLD)
            .bg(Color::Indexed(58))
    } else {
        Style::new()
    };
    Row::new(cells).style(style)
}

/// The last finished run: its age, result and duration.
fn last_run(r: &EntityRow, now: DateTime<Utc>) -> Line<'static> {
    if r.unread {
        return unknown();
    }
    match &r.last {
        None => Line::from(Span::styled("none", Style::new().fg(Color::DarkGray))),
        Some(l) => Line::from(vec![
            Span::raw(format!("{} ", age(now, l.ended))),
            Span::styled(l.result, result_style(l.result)),
            Span::raw(format!(" {}", human_ms(l.duration_ms))),
        ]),
    }
}

/// The run in progress: tasks so far of those expected, and for how long.
fn running(r: &EntityRow, now: DateTime<Utc>) -> Line<'static> {
    let Some(g) = &r.running else {
        return Line::default();
    };
    let of = g.expected.map(|e| format!("/{e}")).unwrap_or_default();
    let el = g
        .started
        .map(|s| format!(" {}", since(now, s)))
        .unwrap_or_default();
    Line::from(Span::styled(
        format!("▶ {}{of}{el}", g.tasks),
        Style::new().fg(Color::Cyan),
    ))
}

/// Runs and failed runs over 24 hours, then one character per hour.
fn day(r: &EntityRow) -> Line<'static> {
    if r.unread {
        return unknown();
    }
    let (runs, failed) = r.counts.unwrap_or_else(|| {
        (
            r.runs_per_hour.iter().sum(),
            r.failures_per_hour.iter().sum(),
        )
    });
    let mut spans = vec![Span::raw(format!("{:>3}/", runs))];
    let fs = if failed > 0 {
        Style::new().fg(Color::Red)
    } else {
        Style::new()
    };
    spans.push(Span::styled(format!("{failed:<3} "), fs));
    spans.extend(sparkline(&r.runs_per_hour, &r.failures_per_hour).spans);
    Line::from(spans)
}

/// What the board does not know (nothing of the entity was read yet).
fn unknown() -> Line<'static> {
    Line::from(Span::styled("-", Style::new().fg(Color::DarkGray)))
}

fn failure_text(r: &EntityRow) -> String {
    match &r.failure {
        Some(fl) => format!("{}: {}", fl.task, fl.message),
        None => String::new(),
    }
}

/// The selected row's failure and read error, whole (as far as the
/// width); the IDs to act on (the failed task's UUID, its run) on the
/// second line when no read error needs it.
fn detail(r: Option<&EntityRow>, width: u16) -> Vec<Line<'static>> {
    let Some(r) = r else {
        return Vec::new();
    };
    let w = width as usize;
    let mut lines = Vec::new();
    let mut ids = None;
    if let Some(fl) = &r.failure {
        let said = format!("{}: {} failed: {}", r.name(), fl.task, fl.message);
        lines.push(Line::from(Span::styled(
            fit(&said, w),
            Style::new().fg(Color::Red),
        )));
        let run = fl
            .run_uuid
            .as_deref()
            .map(|u| format!(", run {u}"))
            .unwrap_or_default();
        ids = Some(Line::from(Span::styled(
            fit(&format!("  task {}{run}", fl.task_uuid), w),
            Style::new().fg(Color::DarkGray),
        )));
    }
    if let Some((kind, msg)) = &r.error {
        lines.push(Line::from(Span::styled(
            fit(
                &format!("{}: not read at the last refresh ({kind}): {msg}", r.name()),
                w,
            ),
            Style::new().fg(Color::Yellow),
        )));
    }
    lines.extend(ids);
    lines
}
