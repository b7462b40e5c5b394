//! The runs screen: an entity's recent runs, newest first (run, result,
//! started, duration, tasks, failure), the run UUID cut short below 100
//! columns.

use chrono::{DateTime, Utc};
use ratatui::Frame;
use ratatui::layout::{Constraint, Rect};
use ratatui::style::{Color, Modifier, Style};
use ratatui::text::{Line, Span};
use ratatui::widgets::{Cell, Paragraph, Row, Table, TableState};

use super::super::rows::RunLine;
use super::look::{clock, fit, result_style, short_uuid};
use super::views::Loaded;
use crate::time::human_ms;

/// Draw `runs` in `area`, the `selected` one highlighted.
pub fn draw(
    f: &mut Frame,
    area: Rect,
    runs: &Loaded<Vec<RunLine>>,
    selected: usize,
    now: DateTime<Utc>,
) {
    let runs = match runs {
        Loaded::Waiting => return waiting(f, area, "asking for the runs…"),
        Loaded::Done(Err(e)) => return waiting(f, area, &format!("could not read the runs: {e}")),
        Loaded::Done(Ok(r)) if r.is_empty() => {
            return waiting(f, area, "no run in the window");
        }
        Loaded::Done(Ok(r)) => r,
    };
    let wide = area.width >= 100;
    let cols: [(&str, u16); 5] = [
        ("RUN", if wide { 36 } else { 8 }),
        ("RESULT", 9),
        ("STARTED", 11),
        ("DURATION", 8),
        ("TASKS", 5),
    ];
    let fixed: u16 = cols.iter().map(|c| c.1 + 1).sum::<u16>() + 2;
    let fail_w = area.width.saturating_sub(fixed).max(1);
    let mut widths: Vec<Constraint> = cols.iter().map(|c| Constraint::Length(c.1)).collect();
    widths.push(Constraint::Length(fail_w));
    let mut head: Vec<Cell> = cols.iter().map(|c| Cell::from(c.0)).collect();
    head.push(Cell::from("FAILURE"));
    let rows = runs.iter().map(|r| {
        let uuid = if wide {
            r.run_uuid.as_str()
        } else {
            short_uuid(&r.run_uuid)
        };
        let failure = r
            .failure
            .as_ref()
            .map(|fl| fit(&format!("{}: {}", fl.task, fl.message), fail_w as usize))
            .unwrap_or_default();
        Row::new(vec![
            Cell::from(uuid.to_string()),
            Cell::from(Span::styled(r.result, result_style(r.result))),
            Cell::from(
                r.started
                    .map(|s| clock(now, s))
                    .unwrap_or_else(|| "?".into()),
            ),
            Cell::from(human_ms(r.duration_ms)),
            Cell::from(format!("{:>5}", r.tasks)),
            Cell::from(Span::styled(failure, Style::new().fg(Color::Red))),
        ])
    });
    let table = Table::new(rows, widths)
        .header(Row::new(head).style(Style::new().add_modifier(Modifier::BOLD)))
        .column_spacing(1)
        .highlight_symbol("> ")
        .row_highlight_style(Style::new().add_modifier(Modifier::REVERSED));
    let mut state = TableState::default().with_selected(Some(selected));
    f.render_stateful_widget(table, area, &mut state);
}

/// A screen waiting for the engine, or saying why it has nothing.
pub fn waiting(f: &mut Frame, area: Rect, what: &str) {
    let line = Line::from(Span::styled(
        format!("  {}", fit(what, area.width.saturating_sub(2) as usize)),
        Style::new().fg(Color::DarkGray),
    ));
    f.render_widget(Paragraph::new(line), area);
}
