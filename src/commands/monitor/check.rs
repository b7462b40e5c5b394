//! `ylemctl check KIND ID`: a monitoring plugin. One status line on stdout
//! with performance data; exit 0 OK, 1 WARNING, 2 CRITICAL, 3 UNKNOWN.
//!
//! Bad thresholds exit 3 (UNKNOWN), not 2: to a monitoring system 2 means
//! CRITICAL, and a typo in a check definition is not an outage. They are
//! parsed with the other flags; `usage_line` is what clap's error becomes.
//! The state is the command's result, not an error.

use crate::commands::kit::failure_text::{FailureText, TaskText};
use chrono::{DateTime, Utc};
use ylem_client::quirks::last_seen::NO_RUN_FOUND;

use crate::cli::Format;
use crate::commands::kit::conduct::{Conduct, Limit, Outputs};
use crate::commands::kit::exit::Exit;
use crate::commands::kit::exposition::{self, duration_label, labels, last_samples, refused};
use crate::commands::kit::failure_read;
use crate::commands::kit::last_known::last;
use crate::commands::kit::wing::{self, Entry};
use crate::commands::monitor::args::CheckArgs;
use crate::commands::monitor::check_output;
use crate::context::Context;
use crate::error::{Error, Result};
use crate::output::prometheus::Sample;
use crate::time;
use crate::value_parsers::Levels;
use ylem_client::runs::failure::Failure;
use ylem_client::runs::{Last, RunView};

#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub enum State {
    Ok = 0,
    Warning = 1,
    Critical = 2,
    Unknown = 3,
}

impl State {
    fn exit(self) -> Exit {
        Exit::from_code(self as u8)
    }

    fn label(self) -> &'static str {
        match self {
            State::Ok => "OK",
            State::Warning => "WARNING",
            State::Critical => "CRITICAL",
            State::Unknown => "UNKNOWN",
        }
    }
}

/// Where a measured value falls among the levels.
fn level_of(l: &Levels, v: f64) -> State {
    if v > l.crit {
        State::Critical
    } else if l.warn.is_some_and(|w| v > w) {
        State::Warning
    } else {
        State::Ok
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

/// What was measured: the last run by the one model of a run.
pub struct Measured {
    pub last: Last,
    pub rate: Option<(i64, i64)>,
    /// Why the last run failed, when it did.
    pub failure: Option<Failure>,
}

/// Judge the facts: the worst state, the message and the performance data.
fn judge(p: &CheckArgs, f: &Measured, now: DateTime<Utc>) -> (State, Vec<String>, Vec<String>) {
    let (mut state, mut msgs, mut perf) = (State::Ok, Vec::new(), Vec::new());
    // The state is that of the last *finished* run; one still going is
    // said beside it, never judged.
    match (&f.last, f.last.judged()) {
        (Last::NoRunFound, _) => {
            state = if p.max_age.is_some() {
                State::Critical
            } else {
                State::Unknown
            };
            msgs.push(NO_RUN_FOUND.to_string());
        }
        (_, None) => {
            state = State::Unknown;
            msgs.push(nothing_to_judge(f.last.in_progress()).into());
        }
        (_, Some(run)) => judge_run(p, run, now, &mut state, &mut msgs, &mut perf),
    }
    if let Some(going) = f.last.in_progress() {
        msgs.push(in_progress(going, now));
    }
    if let (Some(l), Some((ok, failed))) = (p.max_failure_rate, f.rate) {
        let total = ok + failed;
        let rate = if total == 0 {
            0.0
        } else {
            failed as f64 * 100.0 / total as f64
        };
        let st = level_of(&l, rate);
        if st != State::Ok {
            msgs.push(format!(
                "{failed} of {} failed ({}%)",
                crate::count::count(total, "run", "runs"),
                fmt_num(rate)
            ));
        }
        state = state.max(st);
        perf.push(format!("failure_rate={}%{}", fmt_num(rate), perf_of(&l)));
    }
    if let Some((_, failed)) = f.rate {
        perf.push(format!("failures={failed}"));
    }
    (state, msgs, perf)
}

/// Why no run is judged: a pipeline's log read held no finished run; a
/// workflow's statistics tell its last run only (no log to find the one
/// before); `in_progress` then says it has not settled (said once).
fn nothing_to_judge(going: Option<&RunView>) -> &'static str {
    match going.map(RunView::progress) {
        Some(None) => "no finished run to judge: the statistics tell the last run only",
        _ => {
            "no finished run to judge: the last run has not finished and none before it was in the log read"
        }
    }
}

/// `a run is in progress (2 of 5 tasks)`; a workflow's `and it has not
/// settled yet (1m 20s ago)`, after `nothing_to_judge` (a workflow's
/// statistics tell its last run only, so nothing finished comes before).
fn in_progress(r: &RunView, now: DateTime<Utc>) -> String {
    match r.progress() {
        Some(p) => format!("a run is in progress ({p})"),
        None => format!(
            "and it has not settled yet ({} ago)",
            time::human_ms((now - r.ended).num_milliseconds().max(0))
        ),
    }
}

/// The finished run's age, outcome and duration, against the levels.
fn judge_run(
    p: &CheckArgs,
    run: &RunView,
    now: DateTime<Utc>,
    state: &mut State,
    msgs: &mut Vec<String>,
    perf: &mut Vec<String>,
) {
    let ok = run.success() == Some(true);
    let ms = run.duration_ms;
    let age = (now - run.ended).num_seconds().max(0) as f64;
    let word = if ok { "succeeded" } else { "failed" };
    msgs.push(format!(
        "last run {word} {} ago",
        time::human_ms((age * 1000.0) as i64)
    ));
    if !ok {
        *state = State::Critical;
    }
    let age_levels = p
        .max_age
        .map(|l| (level_of(&l, age), perf_of(&l)))
        .unwrap_or((State::Ok, ";;".into()));
    *state = (*state).max(age_levels.0);
    perf.push(format!("age={}s{}", age as i64, age_levels.1));
    let d = ms as f64 / 1000.0;
    if let Some(l) = p.max_duration {
        let st = level_of(&l, d);
        if st != State::Ok {
            msgs.push(format!("took {}", time::human_ms(ms)));
        }
        *state = (*state).max(st);
        perf.push(format!("duration={}s{}", fmt_num(d), perf_of(&l)));
    } else {
        perf.push(format!("duration={}s", fmt_num(d)));
    }
}

/// `check`'s whole-command limit when `--max-time` is not given: below the
/// 60 s that Nagios and Icinga give a plugin, so a hanging service is an
/// UNKNOWN in time rather than a killed plugin. It keeps that limit itself,
/// to say UNKNOWN on stdout, and a usage error is its UNKNOWN state too.
pub const CONDUCT: Conduct = Conduct {
    max_time: Some(std::time::Duration::from_secs(50)),
    limit: Limit::Own,
    usage_line: Some(usage_line),
    // One status line, its JSON or the exposition: nothing for --jq.
    outputs: Outputs::Plugin,
    ..Conduct::client("check").no_json()
};

pub const COMMAND: Entry = Entry {
    command: <CheckArgs as clap::CommandFactory>::command,
    declared: CONDUCT,
    conduct: |_| CONDUCT,
    run: |m, ctx, _| {
        let args: CheckArgs = wing::args(m);
        Box::pin(async move { run(&args, ctx).await })
    },
};

pub async fn run(a: &CheckArgs, ctx: &Context) -> Result<Exit> {
    // An output it does not take is its UNKNOWN, as a bad threshold is:
    // the status line on stdout, the error on stderr, nothing asked.
    if let Some(e) = check_output::refused(ctx) {
        let (line, exit) = usage_line(&e.message);
        ctx.write_out(line.as_bytes())?;
        ctx.ui.error(&e);
        return Ok(exit);
    }
    if ctx.settings.format == Format::Prometheus {
        return prometheus(a, ctx).await;
    }
    let json = ctx.settings.format == Format::Json;
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
    // The verdict once; then a status line or its JSON.
    let (state, message, perf, long) = match measured {
        Ok(facts) => {
            let (state, mut msgs, perf) = judge(a, &facts, ctx.settings.now);
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
                state,
                format!("{kind} {name} {}", msgs.join(", ")),
                perf,
                long,
            )
        }
        // On one line, whatever the server said (`Error`'s `Display`
        // escapes and redacts it): a monitoring system reads lines.
        Err(e) => (
            State::Unknown,
            format!("{kind} {name}: {e}"),
            Vec::new(),
            String::new(),
        ),
    };
    if json {
        let message = format!("{message}{long}");
        let object = check_output::object(state.label(), &message, &perf);
        ctx.write_out(object.as_bytes())?;
        return Ok(state.exit());
    }
    // No performance data (an UNKNOWN): no ` | ` either.
    let line = match perf.is_empty() {
        true => format!("{} - {message}{long}\n", state.label()),
        false => format!("{} - {message} | {}{long}\n", state.label(), perf.join(" ")),
    };
    ctx.write_out(line.as_bytes())?;
    Ok(state.exit())
}

/// The status line and exit status of a `check` whose flags could not be
/// parsed (a bad threshold): UNKNOWN, not clap's 2.
pub fn usage_line(message: &str) -> (String, Exit) {
    (
        format!("UNKNOWN - {}\n", crate::redact::scrub(message)),
        State::Unknown.exit(),
    )
}

async fn measure(a: &CheckArgs, ctx: &Context) -> Result<Measured> {
    let id = ctx.resolve_id_as(a.kind, &a.id)?;
    let finder = failure_read::finder(ctx, a.key.decrypt_key_file.as_deref())?;
    let api = ctx.api()?;
    let now = ctx.settings.now;
    let last = last(&api, a.kind, id, now).await?;
    // Failures in the window go into the performance data every time (as
    // `failures=N`); they are judged only with --max-failure-rate.
    let since = format!("{}s", a.window.as_secs());
    let w = time::resolve_window(Some(&since), None, None, now, ctx.settings.zone)?;
    let s = api.range_stats(a.kind, id, &w).await?;
    let rate = Some((s.num_of_successes, s.num_of_failures));
    // The judged run's failure, from the entries the model read.
    let failure = last.judged().and_then(|r| finder.of_run(a.kind, r));
    Ok(Measured {
        last,
        rate,
        failure,
    })
}

/// `check -o prometheus`: what was measured, and the verdict as
/// `ylem_check_status`; exit 0 once the exposition is written.
async fn prometheus(a: &CheckArgs, ctx: &Context) -> Result<Exit> {
    let id = ctx.resolve_id_as(a.kind, &a.id)?;
    let l = labels(ctx, a.kind, id, Some(duration_label(a.window.as_secs())));
    let sample = match measure(a, ctx).await {
        Err(e) => Sample {
            check_status: Some(3),
            ..refused(ctx, &e, a.kind, id, l)
        },
        Ok(facts) => {
            let (state, _, _) = judge(a, &facts, ctx.settings.now);
            Sample {
                labels: l,
                up: true,
                runs: facts.rate.map(|(ok, failed)| ok + failed),
                failures: facts.rate.map(|(_, failed)| failed),
                check_status: Some(state as u8),
                ..last_samples(&facts.last)
            }
        }
    };
    exposition::write(ctx, &[sample])?;
    Ok(Exit::Success)
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
    use crate::value_parsers::{duration_levels, percent_levels};

    #[test]
    fn levels() {
        let l = duration_levels("25h,49h").unwrap();
        assert_eq!(level_of(&l, 3600.0), State::Ok);
        assert_eq!(level_of(&l, 26.0 * 3600.0), State::Warning);
        assert_eq!(level_of(&l, 50.0 * 3600.0), State::Critical);
        assert_eq!(perf_of(&l), ";90000;176400");
    }

    #[test]
    fn judging() {
        let now = Utc::now();
        let p = CheckArgs {
            kind: ylem_client::Entity::Pipeline,
            id: String::new(),
            max_age: Some(duration_levels("25h,49h").unwrap()),
            max_failure_rate: Some(percent_levels("10,25").unwrap()),
            window: std::time::Duration::from_secs(86400),
            max_duration: None,
            key: crate::cli::KeyFile {
                decrypt_key_file: None,
            },
        };
        let f = Measured {
            last: ran("succeeded", now - chrono::Duration::hours(2), None),
            rate: Some((95, 5)),
            failure: None,
        };
        let (s, m, perf) = judge(&p, &f, now);
        assert_eq!(s, State::Ok);
        assert_eq!(m, ["last run succeeded 2h 00m ago"]);
        assert_eq!(perf[0], "age=7200s;90000;176400");
        let f = Measured {
            last: ran("succeeded", now, None),
            rate: Some((80, 20)),
            failure: None,
        };
        assert_eq!(judge(&p, &f, now).0, State::Warning);
        let f = Measured {
            last: ran("failed", now, None),
            rate: None,
            failure: None,
        };
        assert_eq!(judge(&p, &f, now).0, State::Critical);
        let f = Measured {
            last: Last::NoRunFound,
            rate: None,
            failure: None,
        };
        assert_eq!(judge(&p, &f, now).0, State::Critical);
    }

    fn view(result: &'static str, at: DateTime<Utc>) -> RunView {
        RunView {
            run: Some("r".into()),
            result,
            evidence: None,
            ended: at,
            executed_at: Some(at),
            started: None,
            duration_ms: 1200,
            tasks: Some(2),
            expected: Some(5),
            failed: Vec::new(),
        }
    }

    fn ran(result: &'static str, at: DateTime<Utc>, finished: Option<RunView>) -> Last {
        Last::Ran {
            last: Box::new(view(result, at)),
            finished: finished.map(Box::new),
        }
    }

    /// A run still going is never judged: the finished one before it is,
    /// and the going one is said beside it; with none, UNKNOWN.
    #[test]
    fn a_run_in_progress_is_said_beside_the_last_finished_one() {
        let now = Utc::now();
        let p = CheckArgs {
            kind: ylem_client::Entity::Pipeline,
            id: String::new(),
            max_age: None,
            max_failure_rate: None,
            window: std::time::Duration::from_secs(86400),
            max_duration: None,
            key: crate::cli::KeyFile {
                decrypt_key_file: None,
            },
        };
        let before = view("failed", now - chrono::Duration::hours(1));
        let f = Measured {
            last: ran("running", now, Some(before)),
            rate: None,
            failure: None,
        };
        let (s, m, _) = judge(&p, &f, now);
        assert_eq!(s, State::Critical);
        assert_eq!(
            m,
            [
                "last run failed 1h 00m ago",
                "a run is in progress (2 of 5 tasks)"
            ]
        );
        let f = Measured {
            last: ran("running", now, None),
            rate: None,
            failure: None,
        };
        let (s, m, _) = judge(&p, &f, now);
        assert_eq!(s, State::Unknown);
        assert!(m[0].starts_with("no finished run to judge"), "{m:?}");
        assert!(m[0].contains("the log read"), "{m:?}");
        // A workflow's young success (no log, no task count): no log named.
        let young = RunView {
            tasks: None,
            expected: None,
            ..view("unsettled", now)
        };
        let f = Measured {
            last: Last::Ran {
                last: Box::new(young),
                finished: None,
            },
            rate: None,
            failure: None,
        };
        let (s, m, _) = judge(&p, &f, now);
        assert_eq!(s, State::Unknown);
        assert_eq!(
            m,
            [
                "no finished run to judge: the statistics tell the last run only",
                "and it has not settled yet (0ms ago)"
            ]
        );
    }
}
