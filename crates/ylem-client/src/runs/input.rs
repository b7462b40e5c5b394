//! A pipeline run's input, read back from its log: the service hands a
//! started run's body to the pipeline's initial `external_trigger` task,
//! which outputs it unchanged (the open-source server: an empty body as
//! JSON `null`, exactly `{}` as the trigger's test data), so that entry's
//! output, decoded, is the input that starts a run the same way again.
//! Runs without such a task have no input the log keeps.

use bytes::Bytes;
use chrono::{DateTime, Utc};
use uuid::Uuid;

use crate::api::models::LogEntry;
use crate::api::{self, Client};
use crate::error::{Error, Result};
use crate::output::{Decoder, Unreadable};
use crate::time::Window;

/// The task type that hands a run's input on as its output.
pub(crate) const TRIGGER: &str = "external_trigger";

/// What a run's log says of its input.
#[derive(Debug, Clone)]
pub enum RunInput {
    /// The input, from the run's external trigger entry.
    Found(Found),
    /// No entry of the run in the window.
    NoEntries,
    /// The run's entries (this many) hold no external trigger.
    NoTrigger(usize),
    /// The trigger's output cannot be read: why (encrypted and no key, not
    /// Base64, the key does not open it), and the trigger's entry.
    Unreadable(Unreadable, LogEntry),
}

/// A run's input and where it was read.
#[derive(Debug, Clone)]
pub struct Found {
    /// The trigger's output, decoded (Base64, and decrypted with the
    /// decoder's key where it needs one): the bytes as the task wrote them,
    /// never re-serialised.
    pub bytes: Bytes,
    /// The trigger's entry (its output as the log sent it).
    pub entry: LogEntry,
    /// How many entries of the run the window held.
    pub entries: usize,
    /// How many external trigger entries the run has: the earliest, the
    /// one that started it, is taken.
    pub triggers: usize,
}

/// Read pipeline `pipeline`'s log over `window` (one request, streamed;
/// only the run's trigger entries are kept) for run `run`'s input,
/// decoding the trigger's output with `decoder`.
pub async fn of_run(
    client: &Client,
    pipeline: Uuid,
    run: &str,
    window: &Window,
    decoder: &Decoder,
) -> Result<RunInput> {
    // An input is read back byte for byte: as much of it as the stream
    // may keep, and one longer than that is refused (`judge`).
    let mut s = client
        .pipeline_logs(pipeline, window)
        .await?
        .keep_output(crate::api::stream::KEEP_OUTPUT_MAX);
    let mut seen = Seen::default();
    api::each_entry::<_, Error>(
        &mut s,
        Some(run),
        false,
        &mut seen,
        |_| Ok(()),
        |seen, e| {
            seen.entries += 1;
            if e.task_type.as_str() == TRIGGER {
                seen.triggers += 1;
                let entry = e.to_owned_entry();
                let earlier = |k: &LogEntry| at(&entry) > at(k);
                if seen.first.as_ref().is_none_or(earlier) {
                    seen.first = Some(entry);
                }
            }
            Ok(())
        },
    )
    .await?;
    Ok(judge(seen, decoder))
}

/// What the log held of one run.
#[derive(Default)]
struct Seen {
    entries: usize,
    triggers: usize,
    first: Option<LogEntry>,
}

/// When an entry's task ended; an unreadable time sorts last.
fn at(e: &LogEntry) -> Option<std::cmp::Reverse<DateTime<Utc>>> {
    e.executed_at.parsed().map(std::cmp::Reverse)
}

fn judge(seen: Seen, decoder: &Decoder) -> RunInput {
    let Some(entry) = seen.first else {
        return match seen.entries {
            0 => RunInput::NoEntries,
            n => RunInput::NoTrigger(n),
        };
    };
    if let Some(cut) = crate::api::cut::cut_of(&entry.output) {
        let why = format!(
            "{} bytes sent, over the {} this reads back whole",
            cut.sent,
            cut.kept.len()
        );
        return RunInput::Unreadable(Unreadable::Invalid(why), entry);
    }
    match decoder.plain_text(&entry.output) {
        Ok(text) => RunInput::Found(Found {
            bytes: Bytes::from(text),
            entry,
            entries: seen.entries,
            triggers: seen.triggers,
        }),
        Err(why) => RunInput::Unreadable(why, entry),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::api::models::Timestamp;
    use base64::Engine;
    use base64::engine::general_purpose::STANDARD;

    fn entry(task_type: &str, output: &[u8], at: &str) -> LogEntry {
        LogEntry {
            workflow_run_uuid: "r".into(),
            task_uuid: format!("{task_type}-{at}"),
            task_type: task_type.into(),
            is_successful: true,
            duration: 10,
            output: STANDARD.encode(output),
            metric_value: None,
            executed_at: Timestamp(at.into()),
        }
    }

    #[test]
    fn the_earliest_trigger_gives_the_bytes_as_they_were() {
        let input = b"{ \"b\": 1.50, \"a\" : [\"\\u00e9\"] }\n";
        let seen = Seen {
            entries: 3,
            triggers: 2,
            first: Some(entry(TRIGGER, input, "2026-01-01T00:00:01Z")),
        };
        let RunInput::Found(f) = judge(seen, &Decoder::plain()) else {
            panic!("found");
        };
        assert_eq!(&f.bytes[..], input);
        assert_eq!((f.entries, f.triggers), (3, 2));
        let later = entry(TRIGGER, b"x", "2026-01-01T00:00:02Z");
        let first = entry(TRIGGER, b"x", "2026-01-01T00:00:01Z");
        assert!(at(&first) > at(&later), "the earlier sorts first");
    }

    #[test]
    fn no_entries_no_trigger_and_an_unreadable_output() {
        let d = Decoder::plain();
        assert!(matches!(judge(Seen::default(), &d), RunInput::NoEntries));
        let none = Seen {
            entries: 4,
            ..Seen::default()
        };
        assert!(matches!(judge(none, &d), RunInput::NoTrigger(4)));
        let sealed = Seen {
            entries: 1,
            triggers: 1,
            first: Some(entry(TRIGGER, &[0xff; 40], "2026-01-01T00:00:01Z")),
        };
        assert!(matches!(
            judge(sealed, &d),
            RunInput::Unreadable(Unreadable::Encrypted, _)
        ));
    }
}
