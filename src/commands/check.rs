//! `ylemctl check KIND ID`: a monitoring plugin. One status line on stdout
//! with performance data; exit 0 OK, 1 WARNING, 2 CRITICAL, 3 UNKNOWN.
//!
//! Bad thresholds exit 3 (UNKNOWN), not 2: to a monitoring system 2 means
//! CRITICAL, and a typo in a check definition is not an outage. They are
//! parsed with the other flags; `usage_line` is what clap's error becomes.
//! The status is the command's result, not an error.

use super::last_seen::NO_RUN_FOUND;
use chrono::{DateTime, Utc};

use super::ExitStatus;
use super::failure::{Failure, Finder};
use super::rules::{Limit, Rules};
use crate::cli::CheckArgs;
use crate::context::Context;
use crate::error::{Error, Result};
use crate::flags::Levels;
use crate::time;

#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub enum Status {
    Ok = 0,
    Warning = 1,
    Critical = 2,
    Unknown = 3,
}

impl Status {
    pub(super) fn exit(self) -> ExitStatus {
        ExitStatus::from_code(self as u8)
    }

    fn label(self) -> &'static str {
        match self {
            Status::Ok => "OK",
            Status::Warning => "WARNING",
            Status::Critical => "CRITICAL",
            Status::Unknown => "UNKNOWN",
        }
    }
}

/// Where a measured value falls among the levels.
fn level_of(l: &Levels, v: f64) -> Status {
    if v > l.crit {
        Status::Critical
    } else if l.warn.is_some_and(|w| v > w) {
        Status::Warning
    } else {
        Status::Ok
    }
}

/// `;WARN;CRIT` of the performance data.
fn perf_of(l: &Levels) -> String {
    let w = l.warn.map(fmt_num).unwrap_or_default();
    format!(";{w};{}", fmt_num(l.crit))
}

fn fmt_num(v: f64) -> String {
    if v.fract() == 0.0 {
        format!("{}", v as i64)
    } else {
        format!("{v:.2}")
    }
}

/// What was measured.
pub struct Measured {
    pub last: Option<(bool, DateTime<Utc>, i64)>,
    pub rate: Option<(i64, i64)>,
    /// Why the last run failed, when it did.
    pub failure: Option<Failure>,
}

/// Judge the facts: the worst status, the message and the performance data.
pub(super) fn judge(
    p: &CheckArgs,
    f: &Measured,
    now: DateTime<Utc>,
) -> (Status, Vec<String>, Vec<String>) {
    let (mut status, mut msgs, mut perf) = (Status::Ok, Vec::new(), Vec::new());
    match f.last {
        None => {
            status = if p.max_age.is_some() {
                Status::Critical
            } else {
                Status::Unknown
            };
            msgs.push(NO_RUN_FOUND.to_string());
        }
        Some((ok, at, ms)) => {
            let age = (now - at).num_seconds().max(0) as f64;
            let word = if ok { "succeeded" } else { "failed" };
            msgs.push(format!(
                "last run {word} {} ago",
                time::human_ms((age * 1000.0) as i64)
            ));
            if !ok {
                status = Status::Critical;
            }
            let age_levels = p
                .max_age
                .map(|l| (level_of(&l, age), perf_of(&l)))
                .unwrap_or((Status::Ok, ";;".into()));
            status = status.max(age_levels.0);
            perf.push(format!("age={}s{}", age as i64, age_levels.1));
            let d = ms as f64 / 1000.0;
            if let Some(l) = p.max_duration {
                let st = level_of(&l, d);
                if st != Status::Ok {
                    msgs.push(format!("took {}", time::human_ms(ms)));
                }
                status = status.max(st);
                perf.push(format!("duration={}s{}", fmt_num(d), perf_of(&l)));
            } else {
                perf.push(format!("duration={}s", fmt_num(d)));
            }
        }
    }
    if let (Some(l), Some((ok, failed))) = (p.max_failure_rate, f.rate) {
        let total = ok + failed;
        let rate = if total == 0 {
            0.0
        } else {
            failed as f64 * 100.0 / total as f64
        };
        let st = level_of(&l, rate);
        if st != Status::Ok {
            msgs.push(format!(
                "{failed} of {total} runs failed ({}%)",
                fmt_num(rate)
            ));
        }
        status = status.max(st);
        perf.push(format!("failure_rate={}%{}", fmt_num(rate), perf_of(&l)));
    }
    if let Some((_, failed)) = f.rate {
        perf.push(format!("failures={failed}"));
    }
    (status, msgs, perf)
}

/// `check`'s whole-command limit when `--max-time` is not given: below the
/// 60 s that Nagios and Icinga give a plugin, so a hanging service is an
/// UNKNOWN in time rather than a killed plugin. It keeps that limit itself,
/// to say UNKNOWN on stdout, and a usage error is its UNKNOWN status too.
pub const RULES: Rules = Rules {
    max_time: Some(std::time::Duration::from_secs(50)),
    limit: Limit::Own,
    usage_status: Some(usage_line),
    ..Rules::client("check").measures()
};

pub async fn run(a: &CheckArgs, ctx: &Context) -> Result<ExitStatus> {
    let kind = a.kind.as_str();
    // The name as given, whole (an alias or a UUID): the alert line can be
    // pasted into the next command.
    let name = a.id.trim();
    // Within --max-time (50 s by default here): a hanging service is an
    // UNKNOWN in time, not a plugin the monitoring system kills.
    let measured = match ctx.deadline {
        Some(d) => tokio::time::timeout_at(d.into(), measure(a, ctx))
            .await
            .unwrap_or_else(|_| {
                let max = ctx.settings.max_time.unwrap_or_default();
                Err(Error::network(format!(
                    "no answer within --max-time {}",
                    time::human_ms(max.as_millis() as i64)
                )))
            }),
        None => measure(a, ctx).await,
    };
    let (status, line) = match measured {
        Ok(facts) => {
            let (status, mut msgs, perf) = judge(a, &facts, ctx.settings.now);
            // The failed task and its first message on the status line; all
            // of them as the plugin API's long output (lines after the first).
            let long = match (&facts.failure, msgs.first_mut()) {
                (Some(f), Some(first)) => {
                    first.push_str(&format!(": {}", f.summary_whole()));
                    long_output(f)
                }
                _ => String::new(),
            };
            (
                status,
                format!(
                    "{} - {kind} {name} {} | {}{long}",
                    status.label(),
                    msgs.join(", "),
                    perf.join(" ")
                ),
            )
        }
        Err(e) => (
            Status::Unknown,
            // On one line, whatever the server said (`Error`'s `Display`
            // escapes and redacts it): a monitoring system reads lines.
            format!("UNKNOWN - {kind} {name}: {e}"),
        ),
    };
    let line = match line.split_once('\n') {
        Some((first, rest)) => format!("{}\n{rest}", first.trim_end_matches(" | ")),
        None => line.trim_end_matches(" | ").to_string(),
    };
    ctx.write_out(format!("{line}\n").as_bytes())?;
    Ok(status.exit())
}

/// The status line and exit status of a `check` whose flags could not be
/// parsed (a bad threshold): UNKNOWN, not clap's 2.
pub fn usage_line(message: &str) -> (String, ExitStatus) {
    (
        format!("UNKNOWN - {}\n", crate::secret::scrub(message)),
        Status::Unknown.exit(),
    )
}

pub(super) async fn measure(a: &CheckArgs, ctx: &Context) -> Result<Measured> {
    let id = ctx.resolve_id_as(a.kind, &a.id)?;
    let finder = Finder::new(ctx, a.decrypt_key_file.as_deref())?;
    let api = ctx.api()?;
    let mut last = match api.last_run(a.kind, id).await? {
        Some(r) => match r.executed_at {
            // A time that cannot be read is not "never ran": say UNKNOWN.
            Some(t) => Some((
                r.is_successful,
                t.parsed()
                    .ok_or_else(|| Error::server(format!("unreadable last-run time '{}'", t.0)))?,
                r.duration,
            )),
            None => None,
        },
        None => None,
    };
    // Failures in the window go into the performance data every time (as
    // `failures=N`); they are judged only with --max-failure-rate.
    let rate = {
        let since = format!("{}s", a.window.as_secs());
        let w = time::resolve_window(
            Some(&since),
            None,
            None,
            ctx.settings.now,
            ctx.settings.zone,
        )?;
        let s = api.range_stats(a.kind, id, &w).await?;
        // After last-run's 403, these statistics' last run (the last at or
        // before now) is the evidence; "never" here is no run found.
        if last.is_none()
            && let Some(t) = &s.last_run_executed_at
        {
            let at = t
                .parsed()
                .ok_or_else(|| Error::server(format!("unreadable last-run time '{}'", t.0)))?;
            last = Some((s.is_last_run_successful, at, s.last_run_duration));
        }
        Some((s.num_of_successes, s.num_of_failures))
    };
    // One narrow log request, only when the last run failed.
    let failure = match last {
        Some((ok, at, ms)) => {
            finder
                .of_last_at(&api, a.kind, id, ok, Some(at), Some(ms))
                .await
        }
        None => None,
    };
    Ok(Measured {
        last,
        rate,
        failure,
    })
}

/// Every failed task with all its messages, a line each, after the status
/// line; nothing when the status line already said it all.
fn long_output(f: &Failure) -> String {
    let lines = f.lines_whole();
    let all_said = match f.tasks() {
        [] => true,
        [one] => one.messages().len() <= 1,
        _ => false,
    };
    if all_said {
        return String::new();
    }
    lines.iter().map(|l| format!("\n{l}")).collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::flags::{duration_levels, percent_levels};

    #[test]
    fn levels() {
        let l = duration_levels("25h,49h").unwrap();
        assert_eq!(level_of(&l, 3600.0), Status::Ok);
        assert_eq!(level_of(&l, 26.0 * 3600.0), Status::Warning);
        assert_eq!(level_of(&l, 50.0 * 3600.0), Status::Critical);
        assert_eq!(perf_of(&l), ";90000;176400");
    }

    #[test]
    fn judging() {
        let now = Utc::now();
        let p = CheckArgs {
            kind: crate::kinds::Entity::Pipeline,
            id: String::new(),
            max_age: Some(duration_levels("25h,49h").unwrap()),
            max_failure_rate: Some(percent_levels("10,25").unwrap()),
            window: std::time::Duration::from_secs(86400),
            max_duration: None,
            decrypt_key_file: None,
        };
        let f = Measured {
            last: Some((true, now - chrono::Duration::hours(2), 1200)),
            rate: Some((95, 5)),
            failure: None,
        };
        let (s, m, perf) = judge(&p, &f, now);
        assert_eq!(s, Status::Ok);
        assert_eq!(m, ["last run succeeded 2h 00m ago"]);
        assert_eq!(perf[0], "age=7200s;90000;176400");
        let f = Measured {
            last: Some((true, now, 1)),
            rate: Some((80, 20)),
            failure: None,
        };
        assert_eq!(judge(&p, &f, now).0, Status::Warning);
        let f = Measured {
            last: Some((false, now, 1)),
            rate: None,
            failure: None,
        };
        assert_eq!(judge(&p, &f, now).0, Status::Critical);
        let f = Measured {
            last: None,
            rate: None,
            failure: None,
        };
        assert_eq!(judge(&p, &f, now).0, Status::Critical);
    }
}
