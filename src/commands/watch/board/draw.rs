//! The whole screen: a title, the top view (board, runs, waterfall, log or
//! help), and the footer (last refresh, entities not read, the prompt or
//! notice, the keys). "Now" is passed in, so a drawing is a pure function
//! of the state and the tests' snapshots hold no clock.

use std::time::Instant;

use chrono::{DateTime, Utc};
use ratatui::Frame;
use ratatui::layout::{Constraint, Layout, Rect};
use ratatui::style::{Color, Modifier, Style};
use ratatui::text::{Line, Span};
use ratatui::widgets::Paragraph;

use super::app::App;
use super::look::{age, fit};
use super::views::{Loaded, View};
use super::{draw_board, draw_run, draw_runs};

/// Draw the app on the frame's whole area.
pub fn screen(f: &mut Frame, app: &App, now: DateTime<Utc>, tick: Instant) {
    let [title, body, foot] = Layout::vertical([
        Constraint::Length(1),
        Constraint::Min(1),
        Constraint::Length(3),
    ])
    .areas(f.area());
    let w = title.width as usize;
    let bold = Style::new().add_modifier(Modifier::BOLD);
    f.render_widget(
        Paragraph::new(Span::styled(fit(&title_text(app), w), bold)),
        title,
    );
    match app.views.last() {
        None => draw_board::draw(f, body, app, now, tick),
        Some(View::Runs { runs, selected, .. }) => draw_runs::draw(f, body, runs, *selected, now),
        Some(View::Run { tasks, scroll, .. }) => match tasks {
            Loaded::Waiting => draw_runs::waiting(f, body, "asking for the run…"),
            Loaded::Done(Err(e)) => {
                draw_runs::waiting(f, body, &format!("could not read the run: {e}"))
            }
            Loaded::Done(Ok(t)) => draw_run::draw(f, body, t, *scroll),
        },
        Some(View::Log { lines, .. }) => log(f, body, lines),
        Some(View::Help) => help(f, body),
    }
    footer(f, foot, app, now);
}

fn title_text(app: &App) -> String {
    match app.views.last() {
        None => {
            let n = app.board.rows.len();
            let shown = app.visible().len();
            let filter = if app.filter.is_empty() {
                String::new()
            } else {
                format!(", {shown} matching \"{}\"", app.filter)
            };
            format!(
                "ylemctl watch: {}{filter}",
                crate::count::count(n, "entity", "entities")
            )
        }
        Some(View::Runs { kind, name, .. }) => format!("runs of {kind} {name}, newest first"),
        Some(View::Run { name, run_uuid, .. }) => format!("run {run_uuid} of {name}"),
        Some(View::Log { name, run_uuid, .. }) => {
            format!("log of run {run_uuid} of {name}, following")
        }
        Some(View::Help) => "keys".into(),
    }
}

/// The last lines of a followed log that fit.
fn log(f: &mut Frame, area: Rect, lines: &[String]) {
    let h = area.height as usize;
    let w = area.width as usize;
    let shown: Vec<Line> = lines[lines.len().saturating_sub(h)..]
        .iter()
        .map(|l| Line::from(fit(l, w)))
        .collect();
    if shown.is_empty() {
        return draw_runs::waiting(f, area, "waiting for the log…");
    }
    f.render_widget(Paragraph::new(shown), area);
}

const HELP: &[(&str, &str)] = &[
    ("↑ ↓  j k", "select a row"),
    (
        "Enter",
        "open the entity's runs; on a run, the run whole (its waterfall)",
    ),
    (
        "l",
        "follow the log of the run under the cursor (or the entity's latest)",
    ),
    ("r", "start a run of the selected entity (asks y/N first)"),
    (
        "/",
        "filter the board by name; Enter keeps it, Esc clears it",
    ),
    ("Esc", "back (and stop following a log)"),
    ("?", "this help"),
    ("q  Ctrl-C", "quit"),
    ("", ""),
    ("*", "a row that changed in the last seconds"),
    (
        "!",
        "an entity not read at the last refresh (the rest as last known)",
    ),
    ("▶", "a run in progress: tasks so far of expected, elapsed"),
];

fn help(f: &mut Frame, area: Rect) {
    let lines: Vec<Line> = HELP
        .iter()
        .map(|(k, what)| {
            Line::from(vec![
                Span::styled(
                    format!("  {k:<12}"),
                    Style::new().add_modifier(Modifier::BOLD),
                ),
                Span::raw(*what),
            ])
        })
        .collect();
    f.render_widget(Paragraph::new(lines), area);
}

fn footer(f: &mut Frame, area: Rect, app: &App, now: DateTime<Utc>) {
    let w = area.width as usize;
    let refreshed = match app.board.refreshed {
        Some(t) => format!(
            "refreshed {} ago ({})",
            age(now, t),
            t.format("%H:%M:%S UTC")
        ),
        None => "not refreshed yet".into(),
    };
    let unread: Vec<String> = app
        .board
        .rows
        .iter()
        .filter_map(|r| {
            r.error
                .as_ref()
                .map(|(kind, _)| format!("{} ({kind})", r.name()))
        })
        .collect();
    let mut first = refreshed;
    let mut first_style = Style::new();
    if !unread.is_empty() {
        first.push_str(&format!("; not read: {}", unread.join(", ")));
        first_style = first_style.fg(Color::Yellow);
    }
    let first = Line::from(Span::styled(fit(&first, w), first_style));
    let prompt = if let Some(c) = &app.confirm {
        Line::from(Span::styled(
            fit(&format!("start a run of {} {}? [y/N]", c.kind, c.name), w),
            Style::new().fg(Color::Yellow).add_modifier(Modifier::BOLD),
        ))
    } else if app.typing {
        Line::from(fit(&format!("/{}▏", app.filter), w))
    } else {
        Line::from(fit(app.notice.as_deref().unwrap_or(""), w))
    };
    let keys = Line::from(Span::styled(
        fit(keys(app), w),
        Style::new().fg(Color::DarkGray),
    ));
    f.render_widget(Paragraph::new(vec![first, prompt, keys]), area);
}

fn keys(app: &App) -> &'static str {
    match app.views.last() {
        None if app.typing => "type a name · Enter keep · Esc clear",
        None => "↑↓/jk select · Enter runs · l log · r run · / filter · ? help · q quit",
        Some(View::Runs { .. }) => {
            "↑↓/jk select · Enter the run · l log · r run · Esc back · q quit"
        }
        Some(View::Run { .. }) => "↑↓/jk scroll · l log · Esc back · q quit",
        Some(View::Log { .. }) => "Esc stop following · q quit",
        Some(View::Help) => "Esc back · q quit",
    }
}
