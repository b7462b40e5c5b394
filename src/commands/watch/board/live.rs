//! The board's loop on a real terminal: draw, then wait for whichever comes
//! first (a refresh of the board, an answer of the engine, a key, a resize,
//! SIGTERM or SIGINT, a tick that ages the times shown), until `q`.
//!
//! The CLI runs a current-thread runtime, so crossterm's blocking event read
//! sits on a thread of its own that feeds a channel; it polls with a short
//! timeout so that it notices the board has gone and ends.

use std::io;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

use ratatui::Terminal;
use ratatui::backend::CrosstermBackend;
use ratatui::crossterm::event::{self, Event, KeyCode, KeyEvent, KeyEventKind, KeyModifiers};
use tokio::signal::unix::{SignalKind, signal};
use tokio::sync::{mpsc, watch};

use super::super::rows::{Answer, Ask, Board};
use super::app::App;
use super::draw;
use super::term::TermGuard;
use super::views::{Flow, Key};
use crate::error::{Error, Result};

/// How often the screen is redrawn with nothing new: ages and elapsed
/// times move, and a change's highlight fades.
const TICK: Duration = Duration::from_secs(1);

/// Run the board until `q`, Ctrl-C, SIGINT or SIGTERM (all `Ok`), or an error
/// of the terminal; the terminal is given back on every way out.
pub async fn run(
    mut board: watch::Receiver<Board>,
    asks: mpsc::UnboundedSender<Ask>,
    mut answers: mpsc::UnboundedReceiver<Answer>,
) -> Result<()> {
    let mut term_sig =
        signal(SignalKind::terminate()).map_err(|e| Error::internal(format!("SIGTERM: {e}")))?;
    let mut int_sig =
        signal(SignalKind::interrupt()).map_err(|e| Error::internal(format!("SIGINT: {e}")))?;
    let guard = TermGuard::enter().map_err(|e| terminal_error(&e))?;
    let mut terminal =
        Terminal::new(CrosstermBackend::new(io::stdout())).map_err(|e| terminal_error(&e))?;
    let mut keys = KeyReader::start();
    let mut app = App::new(board.borrow_and_update().clone());
    let mut tick = tokio::time::interval(TICK);
    let (mut board_open, mut answers_open) = (true, true);
    let end = loop {
        if let Err(e) =
            terminal.draw(|f| draw::screen(f, &app, super::super::clock::now(), Instant::now()))
        {
            break Err(terminal_error(&e));
        }
        tokio::select! {
            _ = term_sig.recv() => break Ok(()),
            _ = int_sig.recv() => break Ok(()),
            changed = board.changed(), if board_open => match changed {
                Ok(()) => {
                    app.set_board(board.borrow_and_update().clone());
                    // The whole board redrawn at each refresh: a stray line
                    // on stderr (another process's, or the client's) is
                    // wiped, not left across the rows.
                    if let Err(e) = terminal.clear() {
                        break Err(terminal_error(&e));
                    }
                }
                // The engine has stopped; what it last said stays shown.
                Err(_) => board_open = false,
            },
            a = answers.recv(), if answers_open => match a {
                Some(a) => {
                    app.answer(a);
                    // A followed log comes in bursts: one drawing for all
                    // the lines already here.
                    while let Ok(a) = answers.try_recv() {
                        app.answer(a);
                    }
                }
                None => answers_open = false,
            },
            k = keys.rx.recv() => match k {
                Some(Ok(Some(key))) => {
                    let flow = app.key(key);
                    for ask in app.take_asks() {
                        let _ = asks.send(ask);
                    }
                    if flow == Flow::Quit {
                        break Ok(());
                    }
                }
                // A resize (or a key the board does not use): redraw.
                Some(Ok(None)) => {}
                Some(Err(e)) => break Err(terminal_error(&e)),
                None => break Err(Error::internal("the terminal's reader stopped")),
            },
            _ = tick.tick() => {}
        }
    };
    drop(keys);
    drop(terminal);
    drop(guard);
    end
}

fn terminal_error(e: &io::Error) -> Error {
    Error::internal(format!("the terminal: {e}"))
}

/// Keys read on a thread: `Ok(Some(key))`, `Ok(None)` for anything that
/// only needs a redraw (a resize), `Err` when the terminal fails. Dropping
/// the reader (the loop ended, or the board's future was dropped by a stop
/// above it) ends the thread within one poll.
struct KeyReader {
    rx: mpsc::UnboundedReceiver<io::Result<Option<Key>>>,
    stop: Arc<AtomicBool>,
}

impl KeyReader {
    fn start() -> KeyReader {
        let (tx, rx) = mpsc::unbounded_channel();
        let stop = Arc::new(AtomicBool::new(false));
        let flag = stop.clone();
        std::thread::spawn(move || {
            while !flag.load(Ordering::SeqCst) {
                let got = match event::poll(Duration::from_millis(100)) {
                    Ok(false) => continue,
                    Ok(true) => event::read().map(|e| translate(&e)),
                    Err(e) => Err(e),
                };
                let failed = got.is_err();
                if tx.send(got).is_err() || failed {
                    return;
                }
            }
        });
        KeyReader { rx, stop }
    }
}

impl Drop for KeyReader {
    fn drop(&mut self) {
        self.stop.store(true, Ordering::SeqCst);
    }
}

/// A terminal event as the board's key (`None`: redraw only).
fn translate(e: &Event) -> Option<Key> {
    let Event::Key(KeyEvent {
        code,
        modifiers,
        kind,
        ..
    }) = e
    else {
        return None;
    };
    if *kind == KeyEventKind::Release {
        return None;
    }
    Some(match code {
        KeyCode::Char('c') if modifiers.contains(KeyModifiers::CONTROL) => Key::CtrlC,
        KeyCode::Char(c) => Key::Char(*c),
        KeyCode::Up => Key::Up,
        KeyCode::Down => Key::Down,
        KeyCode::Enter => Key::Enter,
        KeyCode::Esc => Key::Esc,
        KeyCode::Backspace => Key::Backspace,
        _ => return None,
    })
}
