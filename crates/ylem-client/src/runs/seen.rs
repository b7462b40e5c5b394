//! What a wait for one run (a started run's, a follow's) keeps of its entries:
//! how many, how many failed, and how many each distinct task has, up to a
//! bound of distinct tasks, never the entries themselves, so that a server
//! sending entries without end costs a bounded map, not a growing list.

use std::collections::BTreeMap;
use std::time::Duration;

use super::finished::{Rule, Verdict};

/// Distinct tasks counted one by one: far above any pipeline's graph (the
/// rule matches a run against a graph of its history's tasks). The tasks
/// past it are counted together under `MORE`, which no graph has: such a
/// run never matches a graph (it has more tasks than any), only settles.
pub(crate) const MAX_TASKS: usize = 10_000;

/// The key the tasks past `MAX_TASKS` are counted under: not a task UUID.
const MORE: &str = "(more tasks)";

/// One run's entries as counted.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Seen {
    tasks: BTreeMap<String, usize>,
    entries: usize,
    failed: usize,
}

impl Seen {
    /// Count one entry of the run: its task (any case) and whether it succeeded.
    pub fn add(&mut self, task: &str, ok: bool) {
        self.entries += 1;
        self.failed += usize::from(!ok);
        let task = task.to_ascii_lowercase();
        if let Some(n) = self.tasks.get_mut(&task) {
            *n += 1;
        } else if self.tasks.len() < MAX_TASKS {
            self.tasks.insert(task, 1);
        } else {
            *self.tasks.entry(MORE.to_string()).or_default() += 1;
        }
    }

    /// How many entries were counted.
    pub fn len(&self) -> usize {
        self.entries
    }

    /// Whether none was.
    pub fn is_empty(&self) -> bool {
        self.entries == 0
    }

    /// How many of them failed.
    pub fn failed(&self) -> usize {
        self.failed
    }

    /// How many distinct tasks are counted one by one (at most `MAX_TASKS`, and `MORE`).
    pub fn distinct(&self) -> usize {
        self.tasks.len()
    }

    /// `rule`'s verdict on the run so far, quiet for `quiet`.
    pub fn decide(&self, rule: &Rule, quiet: Duration) -> Verdict {
        let tasks: Vec<(String, usize)> = self.tasks.iter().map(|(t, n)| (t.clone(), *n)).collect();
        rule.decide_tasks(&tasks, self.failed, quiet)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn counts_entries_and_failures_and_bounds_the_distinct_tasks() {
        let mut s = Seen::default();
        for i in 0..MAX_TASKS + 500 {
            s.add(&format!("T-{i}"), i % 7 != 0);
        }
        s.add("t-1", true);
        assert_eq!(s.len(), MAX_TASKS + 501);
        assert_eq!(
            s.failed(),
            (0..MAX_TASKS + 500).filter(|i| i % 7 == 0).count()
        );
        // Bounded: the 500 past the bound share one key.
        assert_eq!(s.distinct(), MAX_TASKS + 1);
        assert_eq!(s.tasks["t-1"], 2);
        assert_eq!(s.tasks[MORE], 500);
    }

    #[test]
    fn decides_as_the_rule_does_on_the_same_entries() {
        let rule = Rule::new(
            &Default::default(),
            Some(2),
            Some(Duration::from_secs(3600)),
        );
        let mut s = Seen::default();
        s.add("a", true);
        assert_eq!(s.decide(&rule, Duration::from_secs(1)), Verdict::Pending);
        s.add("b", true);
        assert!(matches!(
            s.decide(&rule, Duration::from_secs(1)),
            Verdict::Succeeded(_)
        ));
        s.add("c", false);
        assert_eq!(
            s.decide(&rule, Duration::ZERO),
            Verdict::Failed { failed: 1 }
        );
    }
}
