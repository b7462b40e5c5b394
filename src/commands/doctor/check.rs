//! One check's result, as every check of `doctor` reports it: its name,
//! status, what it found, the fix, and the exit code its failure means.

/// How a check ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Status {
    Ok,
    Warn,
    Fail,
    /// Not run: it depends on one that failed.
    Skip,
}

impl Status {
    pub fn word(self) -> &'static str {
        match self {
            Status::Ok => "ok",
            Status::Warn => "warn",
            Status::Fail => "fail",
            Status::Skip => "skip",
        }
    }
}

/// Exit codes of the failed checks' kinds (the contract's table); a
/// failure from an error (a server's 5xx, say) takes its kind's code.
pub const SET_UP: u8 = 2;
pub const AUTH: u8 = 3;
pub const NETWORK: u8 = 6;

/// The checks, in the order they run and are printed (the one list: the
/// skips and the out-of-time path name them from here).
pub const ORDER: [&str; 6] = [
    "set-up",
    "network",
    "clock",
    "credentials",
    "api",
    "aliases",
];

/// The fix a failure names when the error it came from has none: every
/// warning and failure says what to do (the contract).
pub fn default_hint(name: &str) -> &'static str {
    match name {
        "set-up" => "run 'ylemctl login', or check --base-url, YLEM_BASE_URL and the profile",
        "network" => {
            "check the base URL (scheme, host and port) and that the service is running; -vv shows the requests"
        }
        "clock" => "run 'ylemctl doctor -vv' to see the server's answer to the Date probe",
        "credentials" => "check the client ID and secret ('ylemctl login' again), and the base URL",
        "api" => {
            "the service failed to answer: try again later, or ask its operators; -vv shows the requests"
        }
        _ => "run 'ylemctl doctor -vv' to see the requests and answers",
    }
}

#[derive(Debug, Clone)]
pub struct Check {
    pub name: &'static str,
    pub status: Status,
    pub detail: String,
    pub hint: Option<String>,
    /// The exit code when it failed.
    pub code: u8,
}

impl Check {
    pub fn ok(name: &'static str, detail: impl Into<String>) -> Check {
        Check {
            name,
            status: Status::Ok,
            detail: detail.into(),
            hint: None,
            code: 0,
        }
    }

    pub fn warn(name: &'static str, detail: impl Into<String>, hint: impl Into<String>) -> Check {
        Check {
            status: Status::Warn,
            hint: Some(hint.into()),
            ..Check::ok(name, detail)
        }
    }

    pub fn fail(
        name: &'static str,
        code: u8,
        detail: impl Into<String>,
        hint: impl Into<String>,
    ) -> Check {
        Check {
            status: Status::Fail,
            hint: Some(hint.into()),
            code,
            ..Check::ok(name, detail)
        }
    }

    /// A failure from a CLI error: its message, hint (the check's own when
    /// the error has none) and exit code.
    pub fn from_error(name: &'static str, e: &crate::error::Error) -> Check {
        let hint = e.hint.clone().unwrap_or_else(|| default_hint(name).into());
        Check::fail(name, e.kind.exit_code(), e.message.clone(), hint)
    }

    pub fn skip(name: &'static str, why: impl Into<String>) -> Check {
        Check {
            status: Status::Skip,
            ..Check::ok(name, why)
        }
    }

    /// It passed, with or without a warning: what depends on it may run.
    pub fn passed(&self) -> bool {
        matches!(self.status, Status::Ok | Status::Warn)
    }
}
