//! What makes a log entry the same one when a later poll of a followed
//! log returns it again, kept small: a follow remembers a day of keys.

use std::collections::HashSet;

use chrono::{DateTime, Utc};
use uuid::Uuid;

use crate::api::models::LogEntryRef;
use crate::time;

/// What makes an entry the same one when a later window returns it again:
/// its run, task, time, duration and outcome, as numbers, so the keys a
/// follow remembers for a day take no allocation each (a busy pipeline's
/// day is tens of thousands of entries).
#[derive(Hash, PartialEq, Eq)]
pub struct Key {
    run: u128,
    task: u128,
    /// Nanoseconds since the epoch; the text's hash when it does not parse.
    at: Result<i64, u64>,
    duration: i64,
    ok: bool,
}

/// The key of an entry: its run, task, time as sent, duration and outcome.
pub fn key(e: &LogEntryRef) -> Key {
    let text = e.executed_at();
    Key {
        run: id(e.workflow_run_uuid.as_str()),
        task: id(e.task_uuid.as_str()),
        at: time::parse_server_time(text.as_str())
            .and_then(|t| t.timestamp_nanos_opt())
            .ok_or_else(|| hash(text.as_str())),
        duration: e.duration,
        ok: e.is_successful,
    }
}

/// A UUID as its number (any case); anything else by its hash.
fn id(s: &str) -> u128 {
    Uuid::parse_str(s).map_or_else(
        |_| u128::from(hash(&s.to_ascii_lowercase())),
        |u| u.as_u128(),
    )
}

fn hash(s: &str) -> u64 {
    use std::hash::{BuildHasher, BuildHasherDefault, DefaultHasher};
    BuildHasherDefault::<DefaultHasher>::default().hash_one(s)
}

/// Forget the keys of entries older than `before`.
pub fn forget(seen: &mut HashSet<Key>, before: DateTime<Utc>) {
    let before = before.timestamp_nanos_opt().unwrap_or(i64::MIN);
    // A time that did not parse is kept, as it cannot be placed.
    seen.retain(|k| k.at.is_err() || k.at >= Ok(before));
}

#[cfg(test)]
mod tests {
    use super::*;

    fn entry(run: &str, at: &str) -> LogEntryRef<'static> {
        let json = format!(
            r#"{{"workflow_run_uuid":"{run}","task_uuid":"1B2C3D4E-5F60-4A7B-8C9D-0E1F2A3B4C5D","task_type":"query","is_successful":true,"duration":5,"executed_at":"{at}"}}"#
        );
        let e: LogEntryRef = serde_json::from_str(&json).unwrap();
        e.into_static()
    }

    #[test]
    fn the_same_entry_whatever_the_case_or_the_digits_of_its_time() {
        let a = entry(
            "9d1c8b7a-6f5e-4d3c-8b2a-1f0e9d8c7b6a",
            "2024-01-13T18:36:58.5Z",
        );
        let b = entry(
            "9D1C8B7A-6F5E-4D3C-8B2A-1F0E9D8C7B6A",
            "2024-01-13T18:36:58.500000Z",
        );
        let c = entry(
            "9d1c8b7a-6f5e-4d3c-8b2a-1f0e9d8c7b6a",
            "2024-01-13T18:36:59Z",
        );
        assert!(key(&a) == key(&b));
        assert!(key(&a) != key(&c));
        assert!(std::mem::size_of::<Key>() <= 80, "a key allocates nothing");
    }

    #[test]
    fn old_keys_are_forgotten_and_unplaceable_ones_kept() {
        let old = entry(
            "9d1c8b7a-6f5e-4d3c-8b2a-1f0e9d8c7b6a",
            "2024-01-13T18:36:58Z",
        );
        let new = entry(
            "9d1c8b7a-6f5e-4d3c-8b2a-1f0e9d8c7b6a",
            "2024-01-15T00:00:00Z",
        );
        let odd = entry("not-a-uuid", "yesterday-ish");
        let mut seen: HashSet<Key> = [key(&old), key(&new), key(&odd)].into_iter().collect();
        let before = time::parse_server_time("2024-01-14T00:00:00Z").unwrap();
        forget(&mut seen, before);
        assert_eq!(seen.len(), 2);
        assert!(seen.contains(&key(&new)) && seen.contains(&key(&odd)));
    }
}
