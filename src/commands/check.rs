//! `ylemctl check KIND ID`: a monitoring plugin. One status line on stdout
//! with performance data; exit 0 OK, 1 WARNING, 2 CRITICAL, 3 UNKNOWN.
//!
//! Bad thresholds exit 3 (UNKNOWN), not 2: to a monitoring system 2 means
//! CRITICAL, and a typo in a check definition is not an outage.
//! The status is the command's result, not an error.

use std::time::Duration;

use chrono::{DateTime, Utc};

use super::ExitStatus;
use crate::cli::CheckArgs;
use crate::context::Context;
use crate::error::{Error, Result};
use crate::time;

#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub enum Status {
    Ok = 0,
    Warning = 1,
    Critical = 2,
    Unknown = 3,
}

impl Status {
    fn exit(self) -> ExitStatus {
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

/// `CRIT` or `WARN,CRIT`.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Levels {
    pub warn: Option<f64>,
    pub crit: f64,
}

impl Levels {
    pub fn parse(s: &str, unit: impl Fn(&str) -> Result<f64>) -> Result<Levels> {
        let parts: Vec<&str> = s.split(',').map(str::trim).collect();
        let levels = match parts.as_slice() {
            [c] => Levels {
                warn: None,
                crit: unit(c)?,
            },
            [w, c] => Levels {
                warn: Some(unit(w)?),
                crit: unit(c)?,
            },
            _ => {
                return Err(Error::usage(format!(
                    "invalid threshold '{s}': use CRIT or WARN,CRIT"
                )));
            }
        };
        if levels.warn.is_some_and(|w| w > levels.crit) {
            return Err(Error::usage(format!(
                "invalid threshold '{s}': the warning level is above the critical one"
            )));
        }
        Ok(levels)
    }

    fn status(&self, v: f64) -> Status {
        if v > self.crit {
            Status::Critical
        } else if self.warn.is_some_and(|w| v > w) {
            Status::Warning
        } else {
            Status::Ok
        }
    }

    /// `;WARN;CRIT` of the performance data.
    fn perf(&self) -> String {
        let w = self.warn.map(fmt_num).unwrap_or_default();
        format!(";{w};{}", fmt_num(self.crit))
    }
}

fn fmt_num(v: f64) -> String {
    if v.fract() == 0.0 {
        format!("{}", v as i64)
    } else {
        format!("{v:.2}")
    }
}

fn secs(s: &str) -> Result<f64> {
    Ok(time::parse_duration(s)?.as_secs_f64())
}

fn percent(s: &str) -> Result<f64> {
    let t = s.trim_end_matches('%');
    t.parse::<f64>()
        .ok()
        .filter(|p| (0.0..=100.0).contains(p))
        .ok_or_else(|| {
            Error::usage(format!(
                "invalid percentage '{s}': use a number from 0 to 100"
            ))
        })
}

/// The checks asked for, parsed before anything is sent.
struct Plan {
    max_age: Option<Levels>,
    max_rate: Option<Levels>,
    window: Duration,
    max_duration: Option<Levels>,
}

fn plan(a: &CheckArgs) -> Result<Plan> {
    Ok(Plan {
        max_age: a
            .max_age
            .as_deref()
            .map(|s| Levels::parse(s, secs))
            .transpose()?,
        max_rate: a
            .max_failure_rate
            .as_deref()
            .map(|s| Levels::parse(s, percent))
            .transpose()?,
        window: time::parse_duration(&a.window)?,
        max_duration: a
            .max_duration
            .as_deref()
            .map(|s| Levels::parse(s, secs))
            .transpose()?,
    })
}

/// What was measured.
pub struct Facts {
    pub last: Option<(bool, DateTime<Utc>, i64)>,
    pub rate: Option<(i64, i64)>,
}

/// Judge the facts: the worst status, the message and the performance data.
fn judge(p: &Plan, f: &Facts, now: DateTime<Utc>) -> (Status, Vec<String>, Vec<String>) {
    let (mut status, mut msgs, mut perf) = (Status::Ok, Vec::new(), Vec::new());
    match f.last {
        None => {
            status = if p.max_age.is_some() {
                Status::Critical
            } else {
                Status::Unknown
            };
            msgs.push("never ran".to_string());
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
                .map(|l| (l.status(age), l.perf()))
                .unwrap_or((Status::Ok, ";;".into()));
            status = status.max(age_levels.0);
            perf.push(format!("age={}s{}", age as i64, age_levels.1));
            let d = ms as f64 / 1000.0;
            if let Some(l) = p.max_duration {
                let st = l.status(d);
                if st != Status::Ok {
                    msgs.push(format!("took {}", time::human_ms(ms)));
                }
                status = status.max(st);
                perf.push(format!("duration={}s{}", fmt_num(d), l.perf()));
            } else {
                perf.push(format!("duration={}s", fmt_num(d)));
            }
        }
    }
    if let (Some(l), Some((ok, failed))) = (p.max_rate, f.rate) {
        let total = ok + failed;
        let rate = if total == 0 {
            0.0
        } else {
            failed as f64 * 100.0 / total as f64
        };
        let st = l.status(rate);
        if st != Status::Ok {
            msgs.push(format!(
                "{failed} of {total} runs failed ({}%)",
                fmt_num(rate)
            ));
        }
        status = status.max(st);
        perf.push(format!("failure_rate={}%{}", fmt_num(rate), l.perf()));
    }
    if let Some((_, failed)) = f.rate {
        perf.push(format!("failures={failed}"));
    }
    (status, msgs, perf)
}

pub async fn run(a: &CheckArgs, ctx: &Context) -> Result<ExitStatus> {
    let kind = a.kind.as_str();
    let short = a.id.chars().take(8).collect::<String>();
    let line = match measure(a, ctx).await {
        Ok((plan, facts)) => {
            let (status, msgs, perf) = judge(&plan, &facts, ctx.settings.now);
            (
                status,
                format!(
                    "{} - {kind} {short}… {} | {}",
                    status.label(),
                    msgs.join(", "),
                    perf.join(" ")
                ),
            )
        }
        Err(e) => (
            Status::Unknown,
            format!(
                "UNKNOWN - {kind} {short}…: {}",
                crate::secret::scrub(&e.message)
            ),
        ),
    };
    ctx.write_out(format!("{}\n", line.1.trim_end_matches(" | ")).as_bytes())?;
    Ok(line.0.exit())
}

async fn measure(a: &CheckArgs, ctx: &Context) -> Result<(Plan, Facts)> {
    let plan = plan(a)?;
    let id = ctx.resolve_id(&a.id)?;
    let api = ctx.api()?;
    let last = match api.last_run(a.kind, id).await? {
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
        let since = format!("{}s", plan.window.as_secs());
        let w = time::resolve_window(
            Some(&since),
            None,
            None,
            ctx.settings.now,
            ctx.settings.zone,
        )?;
        let s = api.range_stats(a.kind, id, &w).await?;
        Some((s.num_of_successes, s.num_of_failures))
    };
    Ok((plan, Facts { last, rate }))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn levels() {
        let l = Levels::parse("25h,49h", secs).unwrap();
        assert_eq!(l.status(3600.0), Status::Ok);
        assert_eq!(l.status(26.0 * 3600.0), Status::Warning);
        assert_eq!(l.status(50.0 * 3600.0), Status::Critical);
        assert_eq!(Levels::parse("10", percent).unwrap().warn, None);
        for bad in ["", "1,2,3", "49h,25h", "x"] {
            assert!(Levels::parse(bad, secs).is_err(), "{bad}");
        }
        assert!(Levels::parse("120", percent).is_err());
    }

    #[test]
    fn judging() {
        let now = Utc::now();
        let p = Plan {
            max_age: Some(Levels::parse("25h,49h", secs).unwrap()),
            max_rate: Some(Levels::parse("10,25", percent).unwrap()),
            window: Duration::from_secs(86400),
            max_duration: None,
        };
        let f = Facts {
            last: Some((true, now - chrono::Duration::hours(2), 1200)),
            rate: Some((95, 5)),
        };
        let (s, m, perf) = judge(&p, &f, now);
        assert_eq!(s, Status::Ok);
        assert_eq!(m, ["last run succeeded 2h 00m ago"]);
        assert_eq!(perf[0], "age=7200s;90000;176400");
        let f = Facts {
            last: Some((true, now, 1)),
            rate: Some((80, 20)),
        };
        assert_eq!(judge(&p, &f, now).0, Status::Warning);
        let f = Facts {
            last: Some((false, now, 1)),
            rate: None,
        };
        assert_eq!(judge(&p, &f, now).0, Status::Critical);
        let f = Facts {
            last: None,
            rate: None,
        };
        assert_eq!(judge(&p, &f, now).0, Status::Critical);
    }
}
