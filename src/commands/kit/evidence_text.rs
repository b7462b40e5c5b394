//! The evidence rule in words (`ylem_client::runs::finished`): how a run was found
//! to have finished, why the settle time is what it is, and the warning
//! for an expected task count that history contradicts. They name the
//! flags that set them (`--expect-tasks`, `--settle`), so they are the
//! CLI's.

use crate::count::{count, noun};
use crate::time;
use ylem_client::runs::Established;
use ylem_client::runs::finished::{Evidence, Rule, Settle};
use ylem_client::runs::stats_only::Fact;

/// For people: `4/4 tasks (as in the last 6 runs)`.
pub fn describe(e: &Evidence) -> String {
    match e {
        Evidence::Expected { done, expected } => {
            format!(
                "{done}/{expected} {} (--expect-tasks)",
                noun(*expected, "task", "tasks")
            )
        }
        Evidence::AsHistory { done, runs } => {
            format!(
                "{done}/{done} {} (as in the last {})",
                noun(*done, "task", "tasks"),
                count(*runs, "run", "runs")
            )
        }
        Evidence::Settled { done, settle, .. } => format!(
            "settled: no new task for {} ({}), {done} tasks, task count unknown",
            human(*settle),
            why(*settle)
        ),
        Evidence::Statistics { settle } => statistics_settled(*settle),
    }
}

/// A workflow's success, in every command alike (`run workflow --wait`,
/// `last-run`, `status`, `watch`): the settle time and where it came from.
fn statistics_settled(settle: Settle) -> String {
    let why = match settle {
        Settle::Default(_) => "the default: a workflow leaves no log",
        other => why(other),
    };
    format!(
        "settled: the last run for {} without a newer one ({why})",
        human(settle)
    )
}

/// How a last run's result was established, for people.
pub fn established(e: &Established) -> String {
    match e {
        Established::Rule(e) => describe(e),
        Established::FailedTask => "a task reported a failure".into(),
        Established::SoFar(n) => format!(
            "{} so far; not complete on evidence",
            count(*n, "task", "tasks")
        ),
        Established::Said(s) => (*s).to_string(),
        Established::Statistics(Fact::Settled(settle)) => statistics_settled(*settle),
        Established::Statistics(f) => f.text().unwrap_or_default().to_string(),
    }
}

/// The warning for a contradicted `--expect-tasks`, naming history's count.
pub fn contradiction(rule: &Rule) -> Option<String> {
    let (n, fewest) = rule.expect_contradicted()?;
    Some(format!(
        "--expect-tasks {n} is below the {fewest} tasks of every recent complete run of this pipeline; \
         success also needs no new task for the settle time ({})",
        human(rule.settle)
    ))
}

fn human(settle: Settle) -> String {
    time::human_ms(settle.duration().as_millis() as i64)
}

/// Where the settle time came from.
fn why(settle: Settle) -> &'static str {
    match settle {
        Settle::Given(_) => "--settle",
        Settle::Learned(_) => "3x the longest gap of past runs",
        Settle::Default(_) => "no history to learn from",
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::time::Duration;
    use ylem_client::runs::finished::History;

    #[test]
    fn a_contradicted_count_is_warned_with_the_settle_time() {
        let h = History {
            runs: vec![vec!["a".into(), "b".into(), "c".into()]; 2],
            longest_gap: Some(Duration::from_secs(120)),
            ..History::default()
        };
        let r = Rule::new(&h, Some(2), None);
        assert_eq!(
            contradiction(&r).unwrap(),
            "--expect-tasks 2 is below the 3 tasks of every recent complete run of this pipeline; \
             success also needs no new task for the settle time (6m 00s)"
        );
        let given = Evidence::Settled {
            done: 3,
            quiet: Duration::from_secs(30),
            settle: Settle::Given(Duration::from_secs(30)),
        };
        assert!(describe(&given).ends_with("(--settle), 3 tasks, task count unknown"));
    }

    /// A workflow's success reads the same from a wait (`Evidence`) and
    /// from a last run (`Established`), with the settle time's origin.
    #[test]
    fn a_workflows_success_is_one_text_wherever_it_is_judged() {
        for settle in [
            Settle::Given(Duration::from_secs(15)),
            Settle::Default(Duration::from_secs(600)),
        ] {
            let waited = describe(&Evidence::Statistics { settle });
            let last = established(&Established::Statistics(Fact::Settled(settle)));
            assert_eq!(waited, last);
        }
        assert_eq!(
            describe(&Evidence::Statistics {
                settle: Settle::Given(Duration::from_secs(15))
            }),
            "settled: the last run for 15.0s without a newer one (--settle)"
        );
    }
}
