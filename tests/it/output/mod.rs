//! The global output options across commands: tables and what they keep,
//! CSV safe in a spreadsheet, `--jq`, `-o junit`, the shapes for scripts
//! and `YLEM_TZ`.

mod csv_safe;
mod jq;
mod jq_limits;
mod junit;
mod shapes;
mod table_fit;
mod tables;
mod zones;

use crate::common::sandbox;

/// The sandbox's base URL and client credentials, as the environment.
pub fn env(s: &sandbox::Sandbox) -> Vec<(&str, &str)> {
    vec![
        ("YLEM_BASE_URL", s.base.as_str()),
        ("YLEM_CLIENT_ID", s.client_id.as_str()),
        ("YLEM_CLIENT_SECRET", s.secret.as_str()),
    ]
}

/// Text without colour escapes.
pub fn plain(s: &str) -> String {
    let mut out = String::new();
    let mut chars = s.chars();
    while let Some(c) = chars.next() {
        if c == '\x1b' {
            for d in chars.by_ref() {
                if d.is_ascii_alphabetic() {
                    break;
                }
            }
        } else {
            out.push(c);
        }
    }
    out
}
