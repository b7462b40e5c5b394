//! The one voice on stderr: notes, warnings, verbose lines, error reports and
//! the progress draw target, scrubbed of secrets and gated by one rule for
//! `-q`, `-v` and machine output (cargo's `Shell`, uv's `Printer`).

use std::io::Write;

/// Several IDs' errors and their hints said by this process (one command):
/// `Ui::error_once`.
static SAID: std::sync::Mutex<std::collections::BTreeSet<String>> =
    std::sync::Mutex::new(std::collections::BTreeSet::new());

use indicatif::ProgressDrawTarget;

use crate::error::Error;

/// What a line on stderr is, which decides whether it is shown.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Level {
    /// Always shown: it explains the exit code.
    Error,
    /// Something may be wrong with the result; not with `-q`.
    Warn,
    /// For a person reading a table (and progress): not with `-q` or
    /// machine output, where a script reads stdout and may log stderr.
    Note,
    /// Asked for with `-v` (1) or `-vv` (2), whatever else is set.
    Verbose(u8),
}

/// What the rule needs to know; `Settings::ui` fills it in.
#[derive(Debug, Clone, Copy, Default)]
pub struct Ui {
    /// `-q`.
    pub quiet: bool,
    /// `-v` counted.
    pub verbose: u8,
    /// `-o json|jsonl|csv`: stdout is for a program.
    pub machine: bool,
    /// Errors as the JSON error object (`-o json|jsonl`).
    pub json_errors: bool,
    /// Whether stderr is a terminal (where a spinner can draw).
    pub stderr_tty: bool,
}

impl Ui {
    /// Before there are settings (bad arguments): errors only, as JSON or text.
    pub fn for_errors(json_errors: bool) -> Self {
        Ui {
            json_errors,
            ..Ui::default()
        }
    }

    /// The one rule for what reaches stderr.
    pub fn shows(&self, level: Level) -> bool {
        match level {
            Level::Error => true,
            Level::Warn => !self.quiet,
            Level::Note => !self.quiet && !self.machine,
            Level::Verbose(n) => self.verbose >= n,
        }
    }

    /// A note for a person, e.g. what was started or why nothing shows.
    pub fn note(&self, msg: &str) {
        if self.shows(Level::Note) {
            self.line(msg);
        }
    }

    /// `warning: ...`.
    pub fn warn(&self, msg: &str) {
        if self.shows(Level::Warn) {
            self.line(&format!("warning: {msg}"));
        }
    }

    /// A line for `-v`.
    pub fn verbose(&self, msg: &str) {
        if self.shows(Level::Verbose(1)) {
            self.line(msg);
        }
    }

    /// An error as the contract says: `error:`/`hint:` lines, or the JSON
    /// error object with `-o json|jsonl`. A closed stdout says nothing, nor
    /// does an error said already by `error_once` (the worst of several
    /// IDs' errors, said in its place in the order given, then returned as
    /// the command's error).
    pub fn error(&self, e: &Error) {
        let said = SAID.lock().unwrap_or_else(|p| p.into_inner());
        if said.contains(&e.render_text()) {
            return;
        }
        drop(said);
        self.say(e);
    }

    /// `error` for one of several IDs' errors, said in the order given:
    /// remembered (the command's own error, the worst of them, is not said
    /// again), and a hint one of them said already (one cause behind
    /// several errors) is not said again. Only these: a long-running
    /// command (the exporter) says each failure as it comes.
    pub fn error_once(&self, e: &Error) {
        let mut said = SAID.lock().unwrap_or_else(|p| p.into_inner());
        if !said.insert(e.render_text()) {
            return;
        }
        let mut e = e.clone();
        if let Some(h) = &e.hint
            && !said.insert(format!("hint: {h}"))
        {
            e.hint = None;
        }
        drop(said);
        self.say(&e);
    }

    fn say(&self, e: &Error) {
        if e.kind == crate::error::Kind::PipeClosed || !self.shows(Level::Error) {
            return;
        }
        if self.json_errors {
            // A machine format: the data as it came (serde_json has escaped
            // what would break its line), redacted.
            let _ = std::io::stderr()
                .lock()
                .write_all(e.render_json().as_bytes());
        } else {
            self.write(&e.render_text());
        }
    }

    /// A question on the terminal (`login`); the answer is read by the caller.
    pub fn prompt(&self, question: &str) -> std::io::Result<()> {
        let mut err = std::io::stderr().lock();
        err.write_all(crate::redact::scrub(&format!("{question}: ")).as_bytes())?;
        err.flush()
    }

    /// Where spinners draw: stderr when notes show there and it is a
    /// terminal, else nowhere.
    pub fn progress_target(&self) -> ProgressDrawTarget {
        if self.shows_progress() {
            ProgressDrawTarget::stderr()
        } else {
            ProgressDrawTarget::hidden()
        }
    }

    /// Whether a spinner would be seen.
    pub fn shows_progress(&self) -> bool {
        self.shows(Level::Note) && self.stderr_tty
    }

    fn line(&self, msg: &str) {
        self.write(&format!("{msg}\n"));
    }

    fn write(&self, text: &str) {
        // Nothing useful can be done when stderr itself is gone.
        let _ = std::io::stderr()
            .lock()
            .write_all(escape_controls(&crate::redact::scrub(text)).as_bytes());
    }
}

/// Our own line ends stay; every other control, line break and
/// bidirectional control becomes a visible escape (`ylem_client::text`): a server's
/// text in a note must not move the cursor, recolour the terminal or
/// reorder the line. A note that quotes a server escapes that text whole
/// (`ylem_client::text::escape`, or an `Error`'s `Display`), line ends included.
fn escape_controls(s: &str) -> std::borrow::Cow<'_, str> {
    ylem_client::text::escape_but(s, Some('\n'))
}

/// The client's request log is `-v`/`-vv`: its lines are verbose lines, a
/// long wait a note, and an error reads as ours (a time limit by its flag).
impl ylem_client::RequestLog for Ui {
    fn level(&self) -> u8 {
        self.verbose
    }
    fn line(&self, s: &str) {
        self.verbose(s);
    }
    fn note(&self, s: &str) {
        Ui::note(self, s);
    }
    fn warn(&self, s: &str) {
        Ui::warn(self, s);
    }
    fn error_text(&self, e: &ylem_client::Error) -> String {
        Error::from(e.clone()).message
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn one_rule_for_quiet_verbose_and_machine_output() {
        let ui = |quiet, verbose, machine| Ui {
            quiet,
            verbose,
            machine,
            ..Ui::default()
        };
        let person = ui(false, 0, false);
        assert!(person.shows(Level::Note) && person.shows(Level::Warn));
        assert!(!person.shows(Level::Verbose(1)));
        let script = ui(false, 0, true);
        assert!(!script.shows(Level::Note) && script.shows(Level::Warn));
        let quiet = ui(true, 1, false);
        assert!(!quiet.shows(Level::Note) && !quiet.shows(Level::Warn));
        assert!(quiet.shows(Level::Verbose(1)) && !quiet.shows(Level::Verbose(2)));
        assert!(quiet.shows(Level::Error));
    }
}
