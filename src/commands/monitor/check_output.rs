//! What `check` prints besides its status line: `-o json`, the same verdict
//! as one object (`{"state","message","perfdata"}`, the performance data as
//! an object), and the outputs it does not take (`-o jsonl|csv|junit`,
//! `--fields`), refused as its UNKNOWN state, as a bad threshold is.

use serde_json::{Map, Value, json};

use crate::cli::Format;
use crate::context::Context;
use crate::error::Error;

/// What `check` takes of `-o`, said in its help and its refusals.
pub const TAKES: &str = "table (the plugin's status line, the default), json ({state, message, perfdata}) or prometheus";

/// Why `check` cannot print what was asked, if it cannot.
pub fn refused(ctx: &Context) -> Option<Error> {
    let s = &ctx.settings;
    let format = match s.format {
        Format::Table | Format::Json | Format::Prometheus => None,
        Format::Jsonl => Some("jsonl"),
        Format::Csv => Some("csv"),
        Format::Junit => Some("junit"),
    };
    let what = match (format, &s.fields) {
        (Some(f), _) => format!("-o {f} is not an output of check"),
        (None, Some(_)) => {
            "--fields is not for check: it prints one status line, not columns".to_string()
        }
        (None, None) => return None,
    };
    Some(Error::usage(what).with_hint(format!("check takes -o {TAKES}")))
}

/// One item of the performance data, `label=VALUE[UOM][;WARN;CRIT]`, as
/// an object: `{"value","uom","warn","crit"}` (levels `null` when not set).
fn perf_item(item: &str) -> Option<(String, Value)> {
    let (label, rest) = item.split_once('=')?;
    let mut parts = rest.split(';');
    let raw = parts.next()?;
    let split = raw
        .find(|c: char| !(c.is_ascii_digit() || c == '.' || c == '-'))
        .unwrap_or(raw.len());
    let (num, uom) = raw.split_at(split);
    let number = |s: Option<&str>| -> Value {
        s.and_then(|s| s.parse::<f64>().ok())
            .and_then(|v| serde_json::Number::from_f64(v).map(Value::Number))
            .map_or(Value::Null, |n| match n.as_f64() {
                Some(f) if f.fract() == 0.0 && f.abs() < 1e15 => json!(f as i64),
                _ => n,
            })
    };
    let v = json!({
        "value": number(Some(num)),
        "uom": uom,
        "warn": number(parts.next()),
        "crit": number(parts.next()),
    });
    Some((label.to_string(), v))
}

/// The performance data as one object, by label, in the line's order.
pub fn perfdata(perf: &[String]) -> Value {
    let map: Map<String, Value> = perf.iter().filter_map(|p| perf_item(p)).collect();
    Value::Object(map)
}

/// `-o json`: the state's label, the message (the status line's words
/// between the state and the performance data, then the long output's
/// lines) and the performance data.
pub fn object(state: &str, message: &str, perf: &[String]) -> String {
    let v = json!({
        "state": state,
        "message": message,
        "perfdata": perfdata(perf),
    });
    format!("{v}\n")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn performance_data_as_an_object() {
        let p = perfdata(&[
            "age=7200s;90000;176400".into(),
            "duration=312.5s".into(),
            "failure_rate=4%;;25".into(),
            "failures=3".into(),
        ]);
        assert_eq!(
            p,
            json!({
                "age": {"value": 7200, "uom": "s", "warn": 90000, "crit": 176400},
                "duration": {"value": 312.5, "uom": "s", "warn": null, "crit": null},
                "failure_rate": {"value": 4, "uom": "%", "warn": null, "crit": 25},
                "failures": {"value": 3, "uom": "", "warn": null, "crit": null},
            })
        );
        let keys: Vec<&String> = p.as_object().unwrap().keys().collect();
        assert_eq!(keys, ["age", "duration", "failure_rate", "failures"]);
    }
}
