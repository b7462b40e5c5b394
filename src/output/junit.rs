//! The JUnit XML report (`-o junit`): test suites of test cases with the
//! attributes CI systems read (`tests`, `failures`, `errors`, `skipped`,
//! `time`, `timestamp`), written by quick-xml, which escapes the markup.
//! What the suites say is the caller's: this file knows XML, not runs.

use std::io;

use quick_xml::Writer;
use quick_xml::events::{BytesDecl, BytesText, Event};

/// One test suite: a run.
#[derive(Debug, Clone, PartialEq)]
pub struct Suite {
    pub name: String,
    /// When it started, UTC, `YYYY-MM-DDTHH:MM:SS` (the Ant schema's form,
    /// which Jenkins checks, has no zone).
    pub timestamp: Option<String>,
    pub time_ms: i64,
    /// `<properties>`: what a reader may want beside the cases.
    pub properties: Vec<(String, String)>,
    pub cases: Vec<Case>,
}

/// One test case: a task entry, a task that did not run, or what stands
/// for the run itself when it did not end (an `<error>`).
#[derive(Debug, Clone, PartialEq)]
pub struct Case {
    pub classname: String,
    pub name: String,
    pub time_ms: i64,
    pub result: CaseResult,
}

#[derive(Debug, Clone, PartialEq)]
pub enum CaseResult {
    Passed,
    /// `message`: one line; `text`: the whole of it.
    Failed {
        message: String,
        text: String,
    },
    Skipped {
        message: String,
    },
    Error {
        message: String,
        text: String,
    },
}

#[derive(Debug, Default, Clone, Copy, PartialEq, Eq)]
struct Counts {
    tests: usize,
    failures: usize,
    errors: usize,
    skipped: usize,
}

impl Counts {
    fn of(cases: &[Case]) -> Counts {
        let mut c = Counts {
            tests: cases.len(),
            ..Counts::default()
        };
        for case in cases {
            match case.result {
                CaseResult::Passed => {}
                CaseResult::Failed { .. } => c.failures += 1,
                CaseResult::Skipped { .. } => c.skipped += 1,
                CaseResult::Error { .. } => c.errors += 1,
            }
        }
        c
    }

    fn add(self, o: Counts) -> Counts {
        Counts {
            tests: self.tests + o.tests,
            failures: self.failures + o.failures,
            errors: self.errors + o.errors,
            skipped: self.skipped + o.skipped,
        }
    }
}

/// Seconds with milliseconds, as JUnit writes `time`.
fn seconds(ms: i64) -> String {
    format!("{}.{:03}", ms.max(0) / 1000, ms.max(0) % 1000)
}

/// Text as XML 1.0 may hold it. quick-xml escapes the markup (`&`, `<`,
/// `"`...); a few characters have no escape at all in XML 1.0 (C0 controls
/// but tab and line breaks, U+FFFE, U+FFFF), and a parser rejects the
/// whole report for one of them: they become U+FFFD. The callers' text is
/// already escaped for terminals, so this is a last guard.
fn xml_text(s: &str) -> String {
    s.chars()
        .map(|c| match c {
            '\t' | '\n' | '\r' => c,
            '\u{0}'..='\u{1f}' | '\u{fffe}' | '\u{ffff}' => '\u{fffd}',
            _ => c,
        })
        .collect()
}

/// The report: one `<testsuite>`, or several inside `<testsuites>`.
pub fn render(suites: &[Suite]) -> io::Result<Vec<u8>> {
    let mut w = Writer::new_with_indent(Vec::new(), b' ', 2);
    w.write_event(Event::Decl(BytesDecl::new("1.0", Some("UTF-8"), None)))?;
    match suites {
        [one] => suite(&mut w, one)?,
        all => {
            let total = all
                .iter()
                .fold(Counts::default(), |t, s| t.add(Counts::of(&s.cases)));
            let time: i64 = all.iter().map(|s| s.time_ms.max(0)).sum();
            let (tests, failures, errors, skipped, time) = (
                total.tests.to_string(),
                total.failures.to_string(),
                total.errors.to_string(),
                total.skipped.to_string(),
                seconds(time),
            );
            w.create_element("testsuites")
                .with_attributes([
                    ("name", "ylemctl"),
                    ("tests", tests.as_str()),
                    ("failures", failures.as_str()),
                    ("errors", errors.as_str()),
                    ("skipped", skipped.as_str()),
                    ("time", time.as_str()),
                ])
                .write_inner_content(|w| all.iter().try_for_each(|s| suite(w, s)))?;
        }
    }
    let mut out = w.into_inner();
    out.push(b'\n');
    Ok(out)
}

fn suite(w: &mut Writer<Vec<u8>>, s: &Suite) -> io::Result<()> {
    let c = Counts::of(&s.cases);
    let (name, tests, failures, errors, skipped, time) = (
        xml_text(&s.name),
        c.tests.to_string(),
        c.failures.to_string(),
        c.errors.to_string(),
        c.skipped.to_string(),
        seconds(s.time_ms),
    );
    let mut attrs = vec![
        ("name", name.as_str()),
        ("tests", tests.as_str()),
        ("failures", failures.as_str()),
        ("errors", errors.as_str()),
        ("skipped", skipped.as_str()),
        ("time", time.as_str()),
    ];
    if let Some(t) = &s.timestamp {
        attrs.push(("timestamp", t.as_str()));
    }
    w.create_element("testsuite")
        .with_attributes(attrs)
        .write_inner_content(|w| {
            if !s.properties.is_empty() {
                w.create_element("properties").write_inner_content(|w| {
                    for (k, v) in &s.properties {
                        let (k, v) = (xml_text(k), xml_text(v));
                        w.create_element("property")
                            .with_attributes([("name", k.as_str()), ("value", v.as_str())])
                            .write_empty()?;
                    }
                    Ok(())
                })?;
            }
            s.cases.iter().try_for_each(|c| case(w, c))
        })?;
    Ok(())
}

fn case(w: &mut Writer<Vec<u8>>, c: &Case) -> io::Result<()> {
    let (classname, name, time) = (
        xml_text(&c.classname),
        xml_text(&c.name),
        seconds(c.time_ms),
    );
    let el = w.create_element("testcase").with_attributes([
        ("classname", classname.as_str()),
        ("name", name.as_str()),
        ("time", time.as_str()),
    ]);
    let (tag, message, text) = match &c.result {
        CaseResult::Passed => {
            el.write_empty()?;
            return Ok(());
        }
        CaseResult::Failed { message, text } => ("failure", message, Some(text)),
        CaseResult::Error { message, text } => ("error", message, Some(text)),
        CaseResult::Skipped { message } => ("skipped", message, None),
    };
    el.write_inner_content(|w| {
        let message = xml_text(message);
        let inner = w
            .create_element(tag)
            .with_attribute(("message", message.as_str()));
        match text {
            Some(t) => inner.write_text_content(BytesText::new(&xml_text(t)))?,
            None => inner.write_empty()?,
        };
        Ok(())
    })?;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn case(name: &str, result: CaseResult) -> Case {
        Case {
            classname: "orders".into(),
            name: name.into(),
            time_ms: 1500,
            result,
        }
    }

    fn suite(name: &str, cases: Vec<Case>) -> Suite {
        Suite {
            name: name.into(),
            timestamp: Some("2026-11-27T10:00:00".into()),
            time_ms: 2250,
            properties: vec![("run_uuid".into(), "r1".into())],
            cases,
        }
    }

    #[test]
    fn one_suite_with_counts_times_and_escaped_text() {
        let s = suite(
            "orders <&>",
            vec![
                case("a (query)", CaseResult::Passed),
                case(
                    "b (filter)",
                    CaseResult::Failed {
                        message: "[4029 critical] quota \"exceeded\" & <more>".into(),
                        text: "line1\nline2 \u{1} \u{ffff}".into(),
                    },
                ),
                case(
                    "c",
                    CaseResult::Skipped {
                        message: "not run".into(),
                    },
                ),
            ],
        );
        let x = String::from_utf8(render(&[s]).unwrap()).unwrap();
        assert!(x.starts_with("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<testsuite name=\"orders &lt;&amp;&gt;\" tests=\"3\" failures=\"1\" errors=\"0\" skipped=\"1\" time=\"2.250\" timestamp=\"2026-11-27T10:00:00\">"), "{x}");
        assert!(x.contains("time=\"1.500\""), "{x}");
        assert!(
            x.contains("message=\"[4029 critical] quota &quot;exceeded&quot; &amp; &lt;more&gt;\""),
            "{x}"
        );
        assert!(
            x.contains("line1\nline2 \u{fffd} \u{fffd}</failure>"),
            "{x}"
        );
        assert!(x.contains("<skipped message=\"not run\"/>"), "{x}");
        assert!(
            x.contains("<property name=\"run_uuid\" value=\"r1\"/>"),
            "{x}"
        );
        assert!(!x.contains("<testsuites"), "{x}");
    }

    #[test]
    fn several_suites_are_wrapped_with_totals() {
        let a = suite("a", vec![case("x", CaseResult::Passed)]);
        let b = suite(
            "b",
            vec![case(
                "start",
                CaseResult::Error {
                    message: "not found".into(),
                    text: "not found".into(),
                },
            )],
        );
        let x = String::from_utf8(render(&[a, b]).unwrap()).unwrap();
        assert!(
            x.contains("<testsuites name=\"ylemctl\" tests=\"2\" failures=\"0\" errors=\"1\" skipped=\"0\" time=\"4.500\">"),
            "{x}"
        );
        assert_eq!(x.matches("<testsuite ").count(), 2, "{x}");
    }
}
