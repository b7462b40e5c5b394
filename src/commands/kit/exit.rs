//! How a command ended when it did not fail: its exit code, not an error.

/// How a command ended when it did not fail: its exit code, not an error
/// (`check` says OK, WARNING, CRITICAL or UNKNOWN through it).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Exit {
    Success,
    /// A non-zero exit code the command has already explained on stdout.
    Code(u8),
}

impl Exit {
    pub fn from_code(code: u8) -> Self {
        match code {
            0 => Exit::Success,
            c => Exit::Code(c),
        }
    }

    pub fn code(self) -> u8 {
        match self {
            Exit::Success => 0,
            Exit::Code(c) => c,
        }
    }
}
