//! What one poll of `logs --follow` holds before printing: its new entries,
//! to print oldest first (the server sends newest first), within a budget
//! of bytes. A poll whose new entries pass it prints them as they arrive
//! instead (said once), so memory never grows with a response, as for
//! plain `logs` (issue 43); the first look without `--since` keeps only
//! the newest few within the budget.

use chrono::{DateTime, Utc};
use ylem_client::api::models::LogEntryRef;

/// At most this many bytes of entries are held for sorting.
pub const BUDGET: usize = 8 << 20;

type At = Option<DateTime<Utc>>;

pub struct Held {
    /// Only the newest this many (the tail shown first), else all.
    keep: Option<usize>,
    entries: Vec<(At, LogEntryRef<'static>)>,
    bytes: usize,
    /// The budget was passed: entries go out as they arrive.
    spilled: bool,
}

/// About what an entry takes held.
fn size(e: &LogEntryRef) -> usize {
    256 + e.output().len() + e.task_type.as_str().len()
}

impl Held {
    pub fn new(keep: Option<usize>) -> Held {
        Held {
            keep,
            entries: Vec::new(),
            bytes: 0,
            spilled: false,
        }
    }

    /// Whether the budget was passed (entries printed as they came).
    pub fn spilled(&self) -> bool {
        self.spilled
    }

    /// Hold `e` (ended at `at`); what is to be printed now, in order: none
    /// while within the budget, else the held ones oldest first and `e`.
    pub fn hold(&mut self, e: LogEntryRef, at: At) -> Vec<LogEntryRef<'static>> {
        if self.spilled {
            return vec![e.into_static()];
        }
        let n = size(&e);
        if self.keep.is_none() && self.bytes + n > BUDGET {
            self.spilled = true;
            let mut out = self.take();
            out.push(e.into_static());
            return out;
        }
        self.bytes += n;
        self.entries.push((at, e.into_static()));
        if let Some(keep) = self.keep {
            // The tail: the newest `keep`, as many of them as fit.
            while self.entries.len() > keep.max(1)
                || (self.bytes > BUDGET && self.entries.len() > 1)
            {
                self.drop_oldest();
            }
        }
        Vec::new()
    }

    /// Drops the oldest held entry: of those of one time, the one that
    /// came last (the server sends newest first). `remove`, not
    /// `swap_remove`: `take` relies on the order of arrival for ties.
    fn drop_oldest(&mut self) {
        let Some((i, _)) = self
            .entries
            .iter()
            .enumerate()
            .min_by_key(|(i, (at, _))| (*at, std::cmp::Reverse(*i)))
        else {
            return;
        };
        let (_, e) = self.entries.remove(i);
        self.bytes -= size(&e);
    }

    /// The held entries, oldest first (by time, not text: `…:31Z` comes
    /// before `…:31.5Z`; entries of one time keep the reverse of their
    /// arrival, the server's order being newest first).
    pub fn take(&mut self) -> Vec<LogEntryRef<'static>> {
        let mut held = std::mem::take(&mut self.entries);
        self.bytes = 0;
        held.reverse();
        held.sort_by_key(|(at, _)| *at);
        held.into_iter().map(|(_, e)| e).collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn entry(sec: u32, output: usize) -> LogEntryRef<'static> {
        let json = format!(
            r#"{{"workflow_run_uuid":"r","task_uuid":"t","task_type":"query","is_successful":true,"duration":1,"output":"{}","executed_at":"2026-01-01T00:00:{sec:02}Z"}}"#,
            "A".repeat(output)
        );
        serde_json::from_str::<LogEntryRef>(&json)
            .unwrap()
            .into_static()
    }

    fn at(e: &LogEntryRef) -> At {
        crate::time::parse_server_time(e.executed_at().as_str())
    }

    fn secs(v: &[LogEntryRef]) -> Vec<String> {
        v.iter()
            .map(|e| e.executed_at().as_str()[17..19].to_string())
            .collect()
    }

    #[test]
    fn held_oldest_first_then_as_they_come_past_the_budget() {
        let mut h = Held::new(None);
        for s in [5, 4, 3] {
            let e = entry(s, 10);
            assert!(h.hold(e.clone(), at(&e)).is_empty());
        }
        assert_eq!(secs(&h.take()), ["03", "04", "05"]);
        let big = BUDGET / 3;
        for s in [9, 8] {
            let e = entry(s, big);
            assert!(h.hold(e.clone(), at(&e)).is_empty());
        }
        let e = entry(7, big);
        assert_eq!(secs(&h.hold(e.clone(), at(&e))), ["08", "09", "07"]);
        assert!(h.spilled());
        let e = entry(6, 1);
        assert_eq!(secs(&h.hold(e.clone(), at(&e))), ["06"]);
        assert!(h.take().is_empty());
    }

    #[test]
    fn the_tail_keeps_the_newest_that_fit() {
        let mut h = Held::new(Some(2));
        for s in [5, 4, 3] {
            let e = entry(s, 10);
            assert!(h.hold(e.clone(), at(&e)).is_empty());
        }
        assert_eq!(secs(&h.take()), ["04", "05"]);
        for s in [9, 8] {
            let e = entry(s, BUDGET / 2 + 1);
            assert!(h.hold(e.clone(), at(&e)).is_empty());
        }
        assert_eq!(secs(&h.take()), ["09"]);
    }
}
