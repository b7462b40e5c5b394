//! The request log as a hook: the transport says what it sends and hears
//! (lines at level 1, headers and bodies at level 2) and the
//! waits it makes, and the program using the client decides where that
//! goes. Without one, nothing is said.

use crate::error::Error;

/// Says a warning about what the server sent (`Transport::warner`).
pub type Warn = std::sync::Arc<dyn Fn(&str) + Send + Sync>;

/// Where the transport's request log goes.
pub trait RequestLog: Send + Sync {
    /// How much is wanted: 0 nothing, 1 a line per response, 2 headers and
    /// bodies too.
    fn level(&self) -> u8;
    /// A line of the log (asked for at `level`).
    fn line(&self, s: &str);
    /// Something a person waiting should know whatever the level (a long
    /// wait the service asked for).
    fn note(&self, s: &str);
    /// Something the server sent that is left out because it is not what
    /// the spec says (a log entry whose run UUID is no UUID), whatever the
    /// level; a note unless the program warns its own way.
    fn warn(&self, s: &str) {
        self.note(s)
    }
    /// How an error reads in the log (a retry's reason): its message
    /// unless the program words it its own way.
    fn error_text(&self, e: &Error) -> String {
        e.message().to_string()
    }
}
