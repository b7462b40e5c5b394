//! A failed task's errors array (`[{"Code":4029,"Severity":"critical",
//! "Message":"quota exceeded"}]`) for people: one line per message,
//! `[4029 critical] quota exceeded`, wherever a table or a log line shows
//! it; other commands call `lines` for the same rendering.

use serde_json::Value;

/// A key of an error object, in any case (`Message`, `message`).
fn field<'a>(o: &'a serde_json::Map<String, Value>, key: &str) -> Option<&'a Value> {
    o.iter()
        .find(|(k, _)| k.eq_ignore_ascii_case(key))
        .map(|(_, v)| v)
}

fn word(v: Option<&Value>) -> Option<String> {
    match v? {
        Value::Null => None,
        Value::String(s) if s.is_empty() => None,
        Value::String(s) => Some(s.clone()),
        other => Some(other.to_string()),
    }
}

/// One message: `[CODE SEVERITY] MESSAGE`, the bracket left out when the
/// object has neither; `None` when it has no message.
fn one(v: &Value) -> Option<String> {
    let o = v.as_object()?;
    let message = word(field(o, "message"))?;
    let tag: Vec<String> = [word(field(o, "code")), word(field(o, "severity"))]
        .into_iter()
        .flatten()
        .collect();
    Some(match tag.is_empty() {
        true => message,
        false => format!("[{}] {message}", tag.join(" ")),
    })
}

/// The messages of an errors array (or of one error object), one line
/// each, as the server wrote them: whoever shows them escapes control
/// characters (`table::escape`); `None` when `v` is not one.
pub fn lines(v: &Value) -> Option<Vec<String>> {
    match v {
        Value::Array(a) if !a.is_empty() => a.iter().map(one).collect(),
        Value::Object(_) => one(v).map(|l| vec![l]),
        _ => None,
    }
}

/// Whether `v` is an errors array (or one error object).
pub fn is_errors(v: &Value) -> bool {
    lines(v).is_some()
}

/// What a table keeps of an errors array: its first `ITEMS` errors, each
/// text in them at most `TEXT` cells, so a cell holds a bounded amount
/// whatever the server sent (an array of 30 MB messages; issue 43).
pub fn bounded(v: &Value) -> Value {
    const ITEMS: usize = 32;
    const TEXT: usize = 1000;
    fn text(v: &Value) -> Value {
        match v {
            Value::String(s) if s.len() > TEXT => Value::String(super::width::shorten(s, TEXT)),
            Value::Object(o) => Value::Object(
                o.iter()
                    .take(ITEMS)
                    .map(|(k, v)| (super::width::shorten(k, TEXT), text(v)))
                    .collect(),
            ),
            Value::Array(a) => Value::Array(a.iter().take(ITEMS).map(text).collect()),
            other => other.clone(),
        }
    }
    text(v)
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn one_line_per_message() {
        let v = json!([
            {"Code": 4029, "Severity": "critical", "Message": "quota exceeded"},
            {"code": 12, "message": "retry\nlater"}
        ]);
        assert_eq!(
            lines(&v).unwrap(),
            ["[4029 critical] quota exceeded", "[12] retry\nlater"]
        );
        assert_eq!(lines(&json!({"Message": "x"})).unwrap(), ["x"]);
    }

    #[test]
    fn other_json_is_not_an_errors_array() {
        assert!(lines(&json!([1, 2])).is_none());
        assert!(lines(&json!([])).is_none());
        assert!(lines(&json!({"rows": 3})).is_none());
        assert!(lines(&json!("quota")).is_none());
    }
}
