//! An entry's `output` cut to a bound while it arrives: the marker the
//! stream decoder writes in place of the rest (`…[output cut: N bytes
//! sent]`), and how a reader of the output finds it again. The marker is
//! part of the string, so every printer shows it as it is and nothing
//! downstream holds more than the bound; a Base64 output never ends in it
//! otherwise (`…` and `[` are not Base64).

/// What the marker starts with.
pub const MARKER_START: &str = "…[output cut: ";
/// What the marker ends with.
const MARKER_END: &str = " bytes sent]";

/// The marker for an output of `sent` bytes (as the server sent them, in
/// its JSON string).
pub fn marker(sent: u64) -> String {
    format!("{MARKER_START}{sent}{MARKER_END}")
}

/// An output that was cut: the part kept, and the marker after it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Cut<'a> {
    /// The output's first bytes, as sent.
    pub kept: &'a str,
    /// The marker (`…[output cut: N bytes sent]`).
    pub marker: &'a str,
    /// How many bytes the output had, as sent.
    pub sent: u64,
}

/// The cut of `output`, `None` when it was not cut.
pub fn cut_of(output: &str) -> Option<Cut<'_>> {
    let rest = output.strip_suffix(MARKER_END)?;
    let at = rest.rfind(MARKER_START)?;
    let digits = &rest[at + MARKER_START.len()..];
    if digits.is_empty() || !digits.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    Some(Cut {
        kept: &output[..at],
        marker: &output[at..],
        sent: digits.parse().ok()?,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_marker_is_found_again_and_nothing_else_is_one() {
        let s = format!("QUJD{}", marker(31_457_280));
        let c = cut_of(&s).unwrap();
        assert_eq!(c.kept, "QUJD");
        assert_eq!(c.sent, 31_457_280);
        assert_eq!(c.marker, "…[output cut: 31457280 bytes sent]");
        for s in ["QUJD", "", "x bytes sent]", "…[output cut:  bytes sent]"] {
            assert_eq!(cut_of(s), None, "{s}");
        }
    }
}
