//! How a command ended when it did not fail: a status, not an error.

/// How a command ended when it did not fail: a status, not an error
/// (`check` says OK, WARNING, CRITICAL or UNKNOWN through it).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ExitStatus {
    Success,
    /// A non-zero exit code the command has already explained on stdout.
    Code(u8),
}

impl ExitStatus {
    pub fn from_code(code: u8) -> Self {
        match code {
            0 => ExitStatus::Success,
            c => ExitStatus::Code(c),
        }
    }

    pub fn code(self) -> u8 {
        match self {
            ExitStatus::Success => 0,
            ExitStatus::Code(c) => c,
        }
    }
}
