//! Error kinds, and the one place that turns them into exit codes, hints and
//! the JSON error object.

use std::fmt;

use ylem_client::text;

use crate::redact::scrub;

/// What went wrong, as scripts need to tell it apart.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Kind {
    Usage,
    Auth,
    NotFound,
    Server,
    Network,
    RunFailed,
    Timeout,
    Internal,
    Interrupted,
    /// Stopped by SIGTERM where the command has something left to say (a
    /// run it waited for goes on): the contract's `interrupted` kind, but
    /// exit 143 (128 + 15) so that a supervisor tells it from Ctrl-C.
    Terminated,
    /// Standard output was closed by the reader (`| head`): not a failure,
    /// but it ends the command like one; nothing is reported, exit 0.
    PipeClosed,
}

impl Kind {
    pub fn exit_code(self) -> u8 {
        match self {
            Kind::Usage => 2,
            Kind::Auth => 3,
            Kind::NotFound => 4,
            Kind::Server => 5,
            Kind::Network => 6,
            Kind::RunFailed => 7,
            Kind::Timeout => 8,
            Kind::Internal => 1,
            Kind::Interrupted => 130,
            Kind::Terminated => 143,
            Kind::PipeClosed => 0,
        }
    }

    /// The `kind` of the JSON error object.
    pub fn name(self) -> &'static str {
        match self {
            Kind::Usage => "usage",
            Kind::Auth => "auth",
            Kind::NotFound => "not_found",
            Kind::Server => "server",
            Kind::Network => "network",
            Kind::RunFailed => "run_failed",
            Kind::Timeout => "timeout",
            Kind::Internal => "internal",
            Kind::Interrupted | Kind::Terminated => "interrupted",
            Kind::PipeClosed => "pipe_closed",
        }
    }
}

/// A failure with what a person needs to fix it.
#[derive(Debug, Clone)]
pub struct Error {
    pub kind: Kind,
    pub message: String,
    pub hint: Option<String>,
    pub http_status: Option<u16>,
    /// What the server's error response said (its body, trimmed; `None` when
    /// empty), kept as data so that callers can recognise a server's quirks
    /// without reading our own message text. Never shown as is.
    pub server_body: Option<String>,
    /// Lines under the message (`run --wait`'s failed tasks), each shown on
    /// a line of its own: the message itself is one line, whatever a server
    /// put in it.
    pub details: Vec<String>,
}

pub type Result<T, E = Error> = std::result::Result<T, E>;

impl Error {
    pub fn new(kind: Kind, message: impl Into<String>) -> Self {
        Error {
            kind,
            message: message.into(),
            hint: None,
            http_status: None,
            server_body: None,
            details: Vec::new(),
        }
    }
    pub fn usage(message: impl Into<String>) -> Self {
        Self::new(Kind::Usage, message)
    }
    pub fn auth(message: impl Into<String>) -> Self {
        Self::new(Kind::Auth, message)
    }
    pub fn server(message: impl Into<String>) -> Self {
        Self::new(Kind::Server, message)
    }
    pub fn network(message: impl Into<String>) -> Self {
        Self::new(Kind::Network, message)
    }
    pub fn internal(message: impl Into<String>) -> Self {
        Self::new(Kind::Internal, message)
    }
    pub fn with_hint(mut self, hint: impl Into<String>) -> Self {
        self.hint = Some(hint.into());
        self
    }
    pub fn with_status(mut self, status: u16) -> Self {
        self.http_status = Some(status);
        self
    }
    /// Keep what the server answered, for `server_body`.
    pub fn with_server_body(mut self, body: &[u8]) -> Self {
        let text = String::from_utf8_lossy(body);
        let text = text.trim();
        self.server_body = (!text.is_empty()).then(|| text.to_string());
        self
    }
    /// Whether this is the server rejecting the bearer token.
    pub fn is_unauthorized(&self) -> bool {
        self.kind == Kind::Auth && self.http_status == Some(401)
    }
    /// Prefix the message with what was being done, e.g. the ID.
    pub fn context(mut self, what: impl fmt::Display) -> Self {
        self.message = format!("{what}: {}", self.message);
        self
    }

    /// A line under the message, e.g. a failed task.
    pub fn with_detail(mut self, line: impl Into<String>) -> Self {
        self.details.push(line.into());
        self
    }

    /// The stderr text: `error:`, a line per detail and, where there is a
    /// fix, `hint:`. Redacted; what a server said in it is escaped
    /// (`ylem_client::text`), so every line starts with our words.
    pub fn render_text(&self) -> String {
        let mut s = format!("error: {}\n", text::escape(&self.message));
        for d in &self.details {
            s.push_str(&format!("  {}\n", text::escape(d)));
        }
        if let Some(h) = &self.hint {
            s.push_str(&format!("hint: {}\n", text::escape(h)));
        }
        scrub(&s)
    }

    /// The message and its details as data, one line each (the JSON form).
    fn whole_message(&self) -> String {
        let mut m = self.message.clone();
        for d in &self.details {
            m.push_str(&format!("\n  {d}"));
        }
        m
    }

    /// The one-line JSON error object used with `-o json|jsonl`. Redacted.
    pub fn render_json(&self) -> String {
        let mut inner = serde_json::Map::new();
        inner.insert("kind".into(), self.kind.name().into());
        inner.insert("message".into(), self.whole_message().into());
        if let Some(s) = self.http_status {
            inner.insert("http_status".into(), s.into());
        }
        if let Some(h) = &self.hint {
            inner.insert("hint".into(), h.clone().into());
        }
        let obj = serde_json::json!({ "error": inner });
        scrub(&format!("{obj}\n"))
    }
}

/// The message on one line, escaped: for a person (a note, a log line).
impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&scrub(&text::escape(&self.message)))
    }
}

impl std::error::Error for Error {}

/// What the polling driver waits out: the service down or failing (a
/// network failure, a server error); anything else of ours (a closed
/// output, a usage error, an interruption) ends the wait.
impl ylem_client::runs::Waited for Error {
    fn transient(&self) -> bool {
        matches!(self.kind, Kind::Network | Kind::Server)
    }
}

impl From<std::io::Error> for Error {
    fn from(e: std::io::Error) -> Self {
        if e.kind() == std::io::ErrorKind::BrokenPipe {
            Error::new(Kind::PipeClosed, "output closed")
        } else {
            Error::internal(format!("I/O error: {e}"))
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn exit_codes_follow_the_contract() {
        let table = [
            (Kind::Usage, 2),
            (Kind::Auth, 3),
            (Kind::NotFound, 4),
            (Kind::Server, 5),
            (Kind::Network, 6),
            (Kind::RunFailed, 7),
            (Kind::Timeout, 8),
            (Kind::Internal, 1),
            (Kind::Interrupted, 130),
            (Kind::Terminated, 143),
            (Kind::PipeClosed, 0),
        ];
        for (k, c) in table {
            assert_eq!(k.exit_code(), c, "{k:?}");
        }
    }

    #[test]
    fn json_error_object_has_the_contract_keys() {
        let e = Error::auth("rejected")
            .with_status(401)
            .with_hint("run 'ylemctl login'");
        let v: serde_json::Value = serde_json::from_str(&e.render_json()).unwrap();
        assert_eq!(v["error"]["kind"], "auth");
        assert_eq!(v["error"]["http_status"], 401);
        assert_eq!(v["error"]["hint"], "run 'ylemctl login'");
    }

    #[test]
    fn server_text_is_escaped_for_people_and_kept_in_json() {
        let e = Error::server("unexpected HTTP 418: hi\nerror: forged\u{202e}\x1b[2J")
            .with_detail("task t failed: a\rb")
            .with_hint("look");
        let text = e.render_text();
        let lines: Vec<&str> = text.lines().collect();
        assert_eq!(lines.len(), 3, "{text}");
        assert!(lines[0].starts_with("error: unexpected HTTP 418: hi\\nerror: forged\\u{202e}"));
        assert_eq!(lines[1], "  task t failed: a\\rb");
        assert!(
            !text.chars().any(|c| c != '\n' && text::is_hazard(c)),
            "{text}"
        );
        let v: serde_json::Value = serde_json::from_str(&e.render_json()).unwrap();
        assert_eq!(
            v["error"]["message"],
            "unexpected HTTP 418: hi\nerror: forged\u{202e}\x1b[2J\n  task t failed: a\rb"
        );
        assert_eq!(e.to_string(), text::escape(&e.message));
    }
}
