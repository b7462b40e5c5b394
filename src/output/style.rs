//! How a result is shown: its shape (one object or a list of rows) and the
//! presentation choices resolved from the settings, which the printer, the
//! table renderer and the commands all read.

use crate::cli::Format;
use crate::time::Zone;

/// How a result is shaped: one object, or a list of rows.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Shape {
    Object,
    List,
}

/// Presentation choices resolved from the settings.
#[derive(Debug, Clone, Copy)]
pub struct Style {
    pub format: Format,
    pub header: bool,
    /// `--csv-raw`: CSV text cells as sent (`encode::csv`).
    pub csv_raw: bool,
    pub zone: Zone,
    pub color: bool,
    /// Stdout is a terminal: tables are fitted to `width`.
    pub tty: bool,
    /// Box drawing (a terminal that is not `TERM=dumb`).
    pub boxes: bool,
    /// The terminal's width in columns.
    pub width: usize,
    pub now: chrono::DateTime<chrono::Utc>,
    /// The columns are the ones a person named (`--fields`): a table
    /// leaves none of them out to fit the terminal.
    pub asked: bool,
}

impl Style {
    /// The width a table must fit: a terminal's; a pipe takes any.
    pub fn fit_width(&self) -> Option<usize> {
        self.tty.then_some(self.width)
    }
}
