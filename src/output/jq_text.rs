//! The words `--jq` says: where in an expression a parse error is, the
//! usage error of a bad expression, and how one result is printed (as gh
//! prints it). Shared by the writer (`jq`) and the `--jq` thread
//! (`jq_worker`).

use std::io::{self, Write};

use jaq_json::Val;

use crate::error::Error;

/// The words of a parse error, where in `expr` each one is.
pub(super) fn load_error<P>(expr: &str, errs: jaq_core::load::Errors<&str, P>) -> Error {
    let said: Vec<String> = errs
        .into_iter()
        .flat_map(|(_, e)| match e {
            jaq_core::load::Error::Io(v) => {
                v.into_iter().map(|(s, m)| format!("{m} ({s})")).collect()
            }
            jaq_core::load::Error::Lex(v) => v
                .into_iter()
                .map(|(want, got)| format!("expected {} {}", want.as_str(), at(expr, got)))
                .collect(),
            jaq_core::load::Error::Parse(v) => v
                .into_iter()
                .map(|(want, got)| format!("expected {} {}", want.as_str(), at(expr, got)))
                .collect::<Vec<_>>(),
        })
        .collect();
    invalid(expr, &said)
}

/// One result, as gh prints it: a string raw, anything else compact JSON.
/// On a terminal (`escape`) a string's control characters, line breaks and
/// bidi overrides are escaped as tables escape them: the text is the
/// server's, and raw it could clear the screen or forge a line. Off a
/// terminal it stays raw: it is data, as `jq -r` gives it.
pub(super) fn print(w: &mut dyn Write, v: &Val, escape: bool) -> io::Result<()> {
    match v {
        Val::TStr(s) | Val::BStr(s) if escape => {
            let text = String::from_utf8_lossy(s);
            w.write_all(ylem_client::text::escape(&text).as_bytes())?
        }
        Val::TStr(s) | Val::BStr(s) => w.write_all(s)?,
        v => jaq_json::write::write(w, &jaq_json::write::Pp::default(), 0, v)?,
    }
    w.write_all(b"\n")
}

/// Where `part` (a slice of `expr`) starts in it, as words.
pub(super) fn at(expr: &str, part: &str) -> String {
    let offset = (part.as_ptr() as usize).wrapping_sub(expr.as_ptr() as usize);
    if offset <= expr.len() {
        if part.is_empty() {
            format!(
                "at character {} (the end)",
                expr[..offset].chars().count() + 1
            )
        } else {
            let got: String = part.chars().take(20).collect();
            format!(
                "at character {}, found '{got}'",
                expr[..offset].chars().count() + 1
            )
        }
    } else {
        format!("near '{part}'")
    }
}

pub(super) fn invalid(expr: &str, said: &[String]) -> Error {
    // A long expression is shown by its start: the words say where.
    let shown: String = expr.chars().take(60).collect();
    let more = if shown.len() < expr.len() { "…" } else { "" };
    let expr = format!("{}{more}", ylem_client::text::escape(&shown));
    Error::usage(format!("invalid --jq expression '{expr}': {}", said.join("; ")))
        .with_hint("--jq takes jq's language, e.g. --jq '.[] | .uuid' or --jq 'select(.is_successful == false)'")
}
