//! The terminal while the board owns it: raw mode, the alternate screen and
//! a hidden cursor, put back on every way out: the guard's `Drop` (a return,
//! an error, a panic that unwinds) and, before the panic message is
//! printed, the panic hook, so that the message lands on the normal screen.

use std::io::{self, Write};
use std::sync::Once;
use std::sync::atomic::{AtomicBool, Ordering};

use ratatui::crossterm::cursor::{Hide, Show};
use ratatui::crossterm::execute;
use ratatui::crossterm::terminal::{
    EnterAlternateScreen, LeaveAlternateScreen, disable_raw_mode, enable_raw_mode,
};

/// The terminal is in the board's state (so the panic hook knows whether
/// there is anything to put back).
static TAKEN: AtomicBool = AtomicBool::new(false);
static HOOK: Once = Once::new();

/// Holds the terminal; dropping it restores it.
pub struct TermGuard(());

impl TermGuard {
    /// Raw mode, the alternate screen, the cursor hidden.
    pub fn enter() -> io::Result<TermGuard> {
        chain_panic_hook();
        enable_raw_mode()?;
        TAKEN.store(true, Ordering::SeqCst);
        // From here on a failure is undone by the guard's drop.
        let guard = TermGuard(());
        execute!(io::stdout(), EnterAlternateScreen, Hide)?;
        Ok(guard)
    }
}

impl Drop for TermGuard {
    fn drop(&mut self) {
        restore();
    }
}

/// Put the terminal back, once, whoever asks first (errors ignored: there
/// is nothing better to do with them on the way out).
pub fn restore() {
    if TAKEN.swap(false, Ordering::SeqCst) {
        let mut out = io::stdout();
        let _ = execute!(out, LeaveAlternateScreen, Show);
        let _ = disable_raw_mode();
        let _ = out.flush();
    }
}

/// The panic hook installed first (`src/panic.rs`, which redacts) runs
/// after the terminal is restored.
fn chain_panic_hook() {
    HOOK.call_once(|| {
        let before = std::panic::take_hook();
        std::panic::set_hook(Box::new(move |info| {
            restore();
            before(info);
        }));
    });
}
