//! The failure of a run as data: its failed task entries and each one's
//! error messages, read from the pipeline's log (a failed task's `output`
//! is its errors array), found here once for everything that states a
//! run's failure. It belongs to one run, never to an older one. Reading an
//! output (Base64, the organisation's encryption key) and the words for a
//! failure are the caller's: it hands in an `Outputs`, and states what it
//! gets.

use std::collections::HashMap;

use serde_json::Value;

use crate::api::models::LogEntry;
use crate::kinds::Entity;
use crate::runs::view::RunView;

/// One error message of a failed task, as the server writes it.
#[derive(Debug, Clone, PartialEq)]
pub struct Message {
    /// The `Code`, as the server sent it (a number, a string, or null).
    pub code: Value,
    /// The `Severity`, empty when there is none.
    pub severity: String,
    /// The `Message`.
    pub message: String,
}

/// What a failed task's output says.
#[derive(Debug, Clone, PartialEq)]
pub enum Detail {
    /// The errors array the server writes for a failed task.
    Errors(Vec<Message>),
    /// An output that is not an errors array, as `Outputs::excerpt` kept it.
    Output(String),
    /// No text, or only white space.
    Empty,
    /// Encrypted, and no key to open it.
    Encrypted,
    /// Not Base64, or the key does not open it: why.
    Unreadable(String),
}

/// One failed task entry.
#[derive(Debug, Clone, PartialEq)]
pub struct FailedTask {
    /// The task's UUID, as the log sent it.
    pub task_uuid: String,
    /// The task's type (`notification`, `query`...).
    pub task_type: String,
    /// The task's alias, when one names it.
    pub name: Option<String>,
    /// When the task ended (`executed_at`), as sent.
    pub executed_at: String,
    /// How long it ran (ms).
    pub duration: i64,
    /// What its output says.
    pub detail: Detail,
}

/// Why the failed tasks of a failed run are not known.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Unknown {
    /// Workflows leave no log: their failures cannot be read.
    Workflow,
    /// A task's entries are in its pipeline's log, which a task ID does not
    /// name: not looked up.
    Task,
    /// The pipeline's log holds no failed task of that run.
    NotInLog,
}

/// The failure of a run: its failed tasks (oldest first), or why they
/// cannot be known.
#[derive(Debug, Clone, PartialEq)]
pub enum Failure {
    /// The failed tasks, oldest first (never empty).
    Tasks(Vec<FailedTask>),
    /// Why they cannot be known.
    Unknown(Unknown),
}

impl Failure {
    /// The failed tasks, none when they are not known.
    pub fn tasks(&self) -> &[FailedTask] {
        match self {
            Failure::Tasks(t) => t,
            Failure::Unknown(_) => &[],
        }
    }
}

/// Why an output's text could not be read: the decoder's answer.
pub use crate::output::Unreadable;

/// Reading a task's output, which the service sends Base64-encoded (and
/// encrypted, where the organisation encrypts outputs): the key is the
/// caller's, and so is how much of an output that is no errors array is
/// kept (a fold keeps one per failed run).
pub trait Outputs {
    /// The output's plain text, or why it cannot be read.
    fn plain_text(&self, output: &str) -> Result<String, Unreadable>;
    /// The text kept of an output that is no errors array (trimmed).
    fn excerpt(&self, text: &str) -> String;
}

/// Reads failures: the outputs, and the aliases that name tasks.
pub struct Finder {
    outputs: Box<dyn Outputs + Send + Sync>,
    names: HashMap<String, String>,
}

impl Finder {
    /// `names`: alias by task UUID (in lower case), for naming tasks.
    pub fn new(outputs: Box<dyn Outputs + Send + Sync>, names: HashMap<String, String>) -> Finder {
        Finder { outputs, names }
    }

    /// The alias that names a task, when one does.
    pub fn name_of(&self, task_uuid: &str) -> Option<&str> {
        self.names
            .get(&task_uuid.to_ascii_lowercase())
            .map(String::as_str)
    }

    /// A failed entry, its output read.
    pub fn task(&self, e: &LogEntry) -> FailedTask {
        FailedTask {
            task_uuid: e.task_uuid.clone(),
            task_type: e.task_type.clone(),
            name: self.name_of(&e.task_uuid).map(str::to_string),
            executed_at: e.executed_at.0.clone(),
            duration: e.duration,
            detail: detail(self.outputs.as_ref(), &e.output),
        }
    }

    /// The failure among a run's entries (any order), or `None` when no
    /// entry failed.
    pub fn of_entries<'a>(
        &self,
        entries: impl IntoIterator<Item = &'a LogEntry>,
    ) -> Option<Failure> {
        let mut failed: Vec<&LogEntry> = entries.into_iter().filter(|e| !e.is_successful).collect();
        failed.sort_by_key(|e| e.executed_at.parsed());
        (!failed.is_empty())
            .then(|| Failure::Tasks(failed.into_iter().map(|e| self.task(e)).collect()))
    }

    /// The failure of a last run that failed, from the entries the model
    /// read (no request of its own); workflows and tasks say why it is
    /// unknown.
    pub fn of_run(&self, kind: Entity, run: &RunView) -> Option<Failure> {
        if run.success() != Some(false) {
            return None;
        }
        Some(match kind {
            Entity::Workflow => Failure::Unknown(Unknown::Workflow),
            Entity::Task => Failure::Unknown(Unknown::Task),
            Entity::Pipeline => self
                .of_entries(&run.failed)
                .unwrap_or(Failure::Unknown(Unknown::NotInLog)),
        })
    }
}

fn detail(outputs: &(dyn Outputs + Send + Sync), output: &str) -> Detail {
    if output.trim().is_empty() {
        return Detail::Empty;
    }
    let text = match outputs.plain_text(output) {
        Ok(t) => t,
        Err(Unreadable::Encrypted) => return Detail::Encrypted,
        Err(Unreadable::Invalid(why)) => return Detail::Unreadable(why),
    };
    // An output cut to the stream's bound: the messages its kept part
    // holds, the last one ending in the marker.
    if let Some(cut) = crate::api::cut::cut_of(&text)
        && let Some(list) = closed(cut.kept, cut.marker)
            .as_deref()
            .and_then(errors_array)
    {
        return Detail::Errors(list);
    }
    match errors_array(&text) {
        Some(list) => Detail::Errors(list),
        None if text.trim().is_empty() => Detail::Empty,
        None => Detail::Output(outputs.excerpt(text.trim())),
    }
}

/// `[{"Code":…,"Severity":…,"Message":…}]`, keys in any case.
fn errors_array(text: &str) -> Option<Vec<Message>> {
    let Value::Array(items) = serde_json::from_str::<Value>(text).ok()? else {
        return None;
    };
    if items.is_empty() {
        return None;
    }
    items
        .iter()
        .map(|i| {
            let o = i.as_object()?;
            let get = |k: &str| {
                o.iter()
                    .find(|(n, _)| n.eq_ignore_ascii_case(k))
                    .map(|(_, v)| v)
            };
            let text = |v: Option<&Value>| match v {
                Some(Value::String(s)) => s.clone(),
                Some(Value::Null) | None => String::new(),
                Some(v) => v.to_string(),
            };
            let message = get("Message")?;
            Some(Message {
                code: get("Code").cloned().unwrap_or(Value::Null),
                severity: text(get("Severity")),
                message: text(Some(message)),
            })
        })
        .collect()
}

/// The deepest nesting a cut errors array is closed at.
const CLOSED_DEPTH: usize = 16;

/// JSON text cut anywhere, closed where it could be: a string it was cut
/// in ends with `marker`; a key, number or word it was cut in is left out;
/// what is open is closed. `None` when nested deeper than `CLOSED_DEPTH`
/// (an errors array is two deep).
fn closed(text: &str, marker: &str) -> Option<String> {
    let b = text.as_bytes();
    // The closers of what is open, and the last place the text could end
    // (with the closers open there).
    let mut open: Vec<u8> = Vec::new();
    let mut safe = (0, Vec::new());
    let (mut in_str, mut key, mut esc) = (false, false, None::<usize>);
    let mut expect_key = false;
    let mut i = 0;
    while i < b.len() {
        let c = b[i];
        if in_str {
            match (esc, c) {
                (Some(_), _) => esc = None,
                (None, b'\\') => esc = Some(i),
                (None, b'"') => {
                    in_str = false;
                    if !key {
                        safe = (i + 1, open.clone());
                    }
                }
                _ => {}
            }
            i += 1;
            continue;
        }
        match c {
            b'"' => {
                in_str = true;
                key = expect_key;
            }
            b'{' | b'[' => {
                if open.len() == CLOSED_DEPTH {
                    return None;
                }
                open.push(if c == b'{' { b'}' } else { b']' });
                expect_key = c == b'{';
                safe = (i + 1, open.clone());
            }
            b'}' | b']' => {
                open.pop();
                expect_key = false;
                safe = (i + 1, open.clone());
            }
            b':' => expect_key = false,
            b',' => {
                safe = (i, open.clone());
                expect_key = open.last() == Some(&b'}');
            }
            _ => {}
        }
        i += 1;
    }
    let mut out = if in_str && !key {
        // Cut in a value's text: it ends at the cut, before an escape the
        // cut split (or a surrogate's first half), with the marker.
        let mut end = b.len();
        if let Some(e) = esc {
            end = e;
        } else if let Some(e) = text[..end].rfind('\\')
            && end - e < 6
            && b.get(e + 1) == Some(&b'u')
        {
            end = e;
        }
        if end >= 6
            && b[end - 6] == b'\\'
            && matches!(b[end - 4], b'd' | b'D')
            && matches!(b[end - 3], b'8'..=b'9' | b'a' | b'b' | b'A' | b'B')
        {
            end -= 6;
        }
        let mut s = text[..end].to_string();
        s.push_str(marker);
        s.push('"');
        s.extend(open.iter().rev().map(|&c| c as char));
        s
    } else {
        let mut s = text[..safe.0].to_string();
        s.extend(safe.1.iter().rev().map(|&c| c as char));
        s
    };
    // A key left with no value (`{"a":1,`) is not there: the comma goes.
    if out.ends_with(",}") || out.ends_with(",]") {
        out.remove(out.len() - 2);
    }
    Some(out)
}

#[cfg(test)]
mod tests {
    use super::*;
    use base64::Engine;
    use base64::engine::general_purpose::STANDARD;

    fn entry(run: &str, at: &str, ok: bool, output: &str) -> LogEntry {
        LogEntry {
            workflow_run_uuid: run.into(),
            task_uuid: "a87db346-0000-4000-8000-000000000000".into(),
            task_type: "notification".into(),
            is_successful: ok,
            duration: 1100,
            output: STANDARD.encode(output),
            metric_value: None,
            executed_at: crate::api::models::Timestamp(at.into()),
        }
    }

    /// Base64 of text read as it is; anything else taken as encrypted.
    struct Plain;

    impl Outputs for Plain {
        fn plain_text(&self, output: &str) -> Result<String, Unreadable> {
            let bytes = STANDARD
                .decode(output.trim())
                .map_err(|e| Unreadable::Invalid(e.to_string()))?;
            String::from_utf8(bytes).map_err(|_| Unreadable::Encrypted)
        }
        fn excerpt(&self, text: &str) -> String {
            text.to_string()
        }
    }

    fn finder() -> Finder {
        Finder::new(Box::new(Plain), HashMap::new())
    }

    #[test]
    fn reads_the_errors_array_and_outputs_that_are_not_one() {
        let e = entry(
            "r",
            "2026-01-01T00:00:01Z",
            false,
            r#"[{"code":4029,"Severity":"critical","MESSAGE":"quota exceeded"}]"#,
        );
        assert_eq!(
            finder().task(&e).detail,
            Detail::Errors(vec![Message {
                code: Value::from(4029),
                severity: "critical".into(),
                message: "quota exceeded".into(),
            }])
        );
        let other = finder().task(&entry("r", "2026-01-01T00:00:01Z", false, " boom "));
        assert_eq!(other.detail, Detail::Output("boom".into()));
        let sealed = LogEntry {
            output: STANDARD.encode([0xffu8; 40]),
            ..e.clone()
        };
        assert_eq!(finder().task(&sealed).detail, Detail::Encrypted);
        assert_eq!(
            finder()
                .task(&LogEntry {
                    output: String::new(),
                    ..e
                })
                .detail,
            Detail::Empty
        );
    }

    /// A cut output's errors are read from its kept part, the message it
    /// was cut in ending with the marker, wherever the cut fell.
    #[test]
    fn a_cut_errors_array_gives_its_messages() {
        let m = crate::api::cut::marker(1234);
        let full = r#"[{"Code":1001,"Severity":"error","Message":"first"},{"Code":7,"Severity":"warn","Message":"sec\"ond \u00e9\ud83d\ude00 end"}]"#;
        let messages =
            |cut: usize| match detail(&Plain, &STANDARD.encode(format!("{}{m}", &full[..cut]))) {
                Detail::Errors(list) => list.into_iter().map(|e| e.message).collect::<Vec<_>>(),
                _ => Vec::new(),
            };
        let at = |s: &str| full.find(s).unwrap();
        let first = || "first".to_string();
        assert_eq!(messages(at("rst")), [format!("fi{m}")]);
        assert_eq!(messages(at("ond")), [first(), format!("sec\"{m}")]);
        // In an escape, or between a surrogate's halves: before it.
        assert_eq!(messages(at("\"ond")), [first(), format!("sec{m}")]);
        assert_eq!(messages(at("0e9")), [first(), format!("sec\"ond {m}")]);
        assert_eq!(messages(at("\\ude00")), [first(), format!("sec\"ond é{m}")]);
        assert_eq!(messages(at("},{") + 1), [first()]);
        assert_eq!(messages(at("},{") + 2), [first()]);
        for cut in 1..full.len() {
            let got = messages(cut);
            let kept = |i: usize| got[i].strip_suffix(&m).unwrap_or(&got[i]).to_string();
            assert!(
                got.is_empty() || "first".starts_with(&kept(0)),
                "cut at {cut}: {got:?}"
            );
            assert!(
                got.len() < 2 || "sec\"ond é😀 end".starts_with(&kept(1)),
                "cut at {cut}: {got:?}"
            );
        }
        assert_eq!(closed("[[[[[[[[[[[[[[[[[[", &m), None);
    }

    #[test]
    fn failed_entries_oldest_first_and_none_without_one() {
        let late = entry("r", "2026-01-01T00:00:09Z", false, "late");
        let early = entry("r", "2026-01-01T00:00:01Z", false, "early");
        let ok = entry("r", "2026-01-01T00:00:05Z", true, "");
        let Some(Failure::Tasks(t)) = finder().of_entries([&late, &ok, &early]) else {
            panic!("a failure");
        };
        let details: Vec<_> = t.iter().map(|t| t.detail.clone()).collect();
        assert_eq!(
            details,
            [
                Detail::Output("early".into()),
                Detail::Output("late".into())
            ]
        );
        assert_eq!(finder().of_entries([&ok]), None);
    }
}
