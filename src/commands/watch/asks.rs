//! The board's questions answered (`rows::Ask`): an entity's recent runs,
//! one run's task bars, a run started after the user's confirmation, and a
//! run's log followed line by line until its verdict is known or the user
//! stops. Each answer is read from the service when asked (the board never
//! asks it itself); an error is one line of text.

use std::collections::HashSet;
use std::time::Duration;

use chrono::Utc;
use tokio::sync::mpsc::{UnboundedReceiver, UnboundedSender};
use uuid::Uuid;

use crate::commands::kit::failure_text::TaskText;
use crate::commands::watch::clock;
use crate::commands::watch::entity::read;
use crate::commands::watch::rows::{Answer, Ask, FailureLine, RunLine, TaskBar};
use crate::error::Error;
use ylem_client::api::Client;
use ylem_client::api::models::LogEntryRef;
use ylem_client::runs::entry_key::{Key, key};
use ylem_client::runs::failure::Finder;
use ylem_client::runs::finished::Rule;
use ylem_client::runs::fleet::OVERLAP;
use ylem_client::runs::tally::Runs;
use ylem_client::time::Window;
use ylem_client::{Entity, RunKind};

/// The runs view and a run's bars read the last day of the log, to here.
const DAY: chrono::Duration = chrono::Duration::hours(24);
const ENTRIES: usize = 20_000;
/// At most this many runs in the runs view.
const RUNS: usize = 100;
/// A followed log is asked again this often.
const LOG_POLL: Duration = Duration::from_secs(2);

/// Answer every ask until the board hangs up.
pub async fn answer(
    api: &Client,
    finder: &Finder,
    asked: &mut UnboundedReceiver<Ask>,
    answers: &UnboundedSender<Answer>,
) {
    // The run whose log is followed, while its verdict is not known.
    let mut following: Option<Follow> = None;
    loop {
        let ask = match &mut following {
            None => asked.recv().await,
            Some(f) => tokio::select! {
                a = asked.recv() => a,
                () = tokio::time::sleep(LOG_POLL) => {
                    let w = f.window(clock::now());
                    let (lines, over) = f.poll(api, finder, &w).await;
                    for line in lines {
                        let _ = answers.send(Answer::LogLine(line));
                    }
                    if over {
                        following = None;
                    }
                    continue;
                }
            },
        };
        let Some(ask) = ask else { return };
        let answer = match ask {
            Ask::Runs { kind, id } => Answer::Runs {
                runs: runs(api, finder, kind, &id).await.map_err(text),
                id,
            },
            Ask::Run { id, run_uuid } => Answer::Run {
                tasks: bars(api, finder, &id, &run_uuid).await.map_err(text),
                run_uuid,
            },
            Ask::Start { kind, id } => Answer::Started {
                run: start(api, kind, &id).await.map_err(text),
                id,
            },
            Ask::Log { id, run_uuid } => {
                let Ok(uuid) = Uuid::parse_str(&id) else {
                    continue;
                };
                // The first read finds the run in the last day (and the
                // history its verdict is judged by); the polls after it
                // read only from the newest entry seen.
                let mut f = Follow::new(uuid, run_uuid);
                let (lines, over) = f.poll(api, finder, &last_day()).await;
                for line in lines {
                    let _ = answers.send(Answer::LogLine(line));
                }
                following = (!over).then_some(f);
                continue;
            }
            Ask::StopLog => {
                following = None;
                continue;
            }
        };
        if answers.send(answer).is_err() {
            return;
        }
    }
}

fn text(e: Error) -> String {
    ylem_client::text::escape(&crate::redact::scrub(&e.message)).into_owned()
}

fn uuid(id: &str) -> Result<Uuid, Error> {
    Uuid::parse_str(id).map_err(|_| Error::usage(format!("not a UUID: {id}")))
}

fn last_day() -> Window {
    let now = clock::now();
    Window {
        from: now - DAY,
        to: now + chrono::Duration::minutes(1),
    }
}

/// The entity's runs of the last day, newest first, judged by the model.
async fn runs(api: &Client, finder: &Finder, kind: &str, id: &str) -> Result<Vec<RunLine>, Error> {
    if kind != Entity::Pipeline.as_str() {
        return Err(Error::usage(format!(
            "a {kind} leaves no log: its runs cannot be listed, only its last run"
        )));
    }
    let entries = read(api, uuid(id)?, &last_day(), ENTRIES).await?;
    let mut folds = Runs::default();
    folds.finder = Some(finder);
    for e in &entries {
        folds.add(e);
    }
    let rules = ylem_client::runs::history::rules_of(api, uuid(id)?, folds.iter(), |_| {}).await;
    Ok(folds
        .judged_by_basis(rules, clock::now())
        .take(RUNS)
        .filter_map(|j| {
            let t = &j.tally;
            let failure = t.first_failed.as_ref().map(|f| {
                let task = ylem_client::runs::failure::FailedTask {
                    task_uuid: f.task.to_string(),
                    task_type: f.task_type.to_string(),
                    name: finder.name_of(&f.task.to_string()).map(str::to_string),
                    executed_at: f.executed_at.to_string(),
                    duration: f.duration,
                    detail: f.detail.clone(),
                };
                FailureLine {
                    run_uuid: Some(t.id()),
                    task: task.name.clone().unwrap_or(task.task_type.clone()),
                    task_uuid: task.task_uuid.clone(),
                    message: task.messages().into_iter().next().unwrap_or_default(),
                }
            });
            Some(RunLine {
                run_uuid: t.id(),
                result: j.result,
                started: t.started(),
                ended: t.ended()?,
                duration_ms: t.duration_ms,
                elapsed_ms: t.elapsed_ms(),
                tasks: t.entries as usize,
                failure,
            })
        })
        .collect())
}

/// One run's entries as bars, oldest first.
async fn bars(api: &Client, finder: &Finder, id: &str, run: &str) -> Result<Vec<TaskBar>, Error> {
    let entries = read(api, uuid(id)?, &last_day(), ENTRIES).await?;
    let mut v: Vec<TaskBar> = entries
        .iter()
        .filter(|e| e.workflow_run_uuid.as_str().eq_ignore_ascii_case(run))
        .filter_map(|e| {
            let end = ylem_client::time::parse_server_time(e.executed_at_raw.as_str())?;
            let task = finder.task(&e.to_owned_entry());
            Some(TaskBar {
                task: ylem_client::text::escape(task.name.as_deref().unwrap_or(&task.task_uuid))
                    .into_owned(),
                task_type: ylem_client::text::escape(&task.task_type).into_owned(),
                start: end - chrono::Duration::milliseconds(e.duration.max(0)),
                end,
                failed: !e.is_successful,
                messages: match e.is_successful {
                    true => Vec::new(),
                    false => task.messages(),
                },
            })
        })
        .collect();
    v.sort_by_key(|b| (b.start, b.end));
    Ok(v)
}

async fn start(api: &Client, kind: &str, id: &str) -> Result<String, Error> {
    let kind = match kind {
        "pipeline" => RunKind::Pipeline,
        "workflow" => RunKind::Workflow,
        _ => {
            return Err(Error::usage(format!(
                "a {kind} cannot be started on its own"
            )));
        }
    };
    let s = api.start_run(kind, uuid(id)?).await?;
    Ok(s.run_uuid().unwrap_or_default().to_string())
}

/// A run's log followed: the entries sent, the newest one's time, and the
/// rule its verdict is judged by (learnt from the first read's day).
struct Follow {
    id: Uuid,
    run: String,
    seen: HashSet<Key>,
    newest: Option<chrono::DateTime<Utc>>,
    /// The run's entries so far (a failed one's output cut at read time).
    entries: Vec<LogEntryRef<'static>>,
    rule: Option<Rule>,
}

impl Follow {
    fn new(id: Uuid, run: String) -> Follow {
        Follow {
            id,
            run,
            seen: HashSet::new(),
            newest: None,
            entries: Vec::new(),
            rule: None,
        }
    }

    /// From the newest entry seen (or now), less the engine's overlap for
    /// entries written late, to a little ahead: never the whole day again.
    fn window(&self, now: chrono::DateTime<Utc>) -> Window {
        Window {
            from: self.newest.unwrap_or(now) - OVERLAP,
            to: now + chrono::Duration::minutes(1),
        }
    }

    /// The lines of the entries not sent before, oldest first, and whether
    /// the run's verdict is now known (then the last line says it).
    async fn poll(&mut self, api: &Client, finder: &Finder, w: &Window) -> (Vec<String>, bool) {
        let all = match read(api, self.id, w, ENTRIES).await {
            Ok(e) => e,
            Err(e) => return (vec![format!("error: {}", text(e))], false),
        };
        let now = clock::now();
        if self.rule.is_none() {
            // The run's basis (`ylem_client::runs::basis`), as every
            // command judges it: by its first task's start, else now.
            let mut own = Runs::default();
            all.iter()
                .filter(|e| e.workflow_run_uuid.as_str().eq_ignore_ascii_case(&self.run))
                .for_each(|e| {
                    own.add(e);
                });
            let first = own.iter().find_map(|t| t.started()).unwrap_or(now);
            let h = ylem_client::runs::history::history(api, self.id, first, |_| {}).await;
            self.rule = Some(ylem_client::runs::tally::listed_rule(&h, api.settle()));
        }
        let run = self.run.clone();
        let mut fresh: Vec<LogEntryRef<'static>> = all
            .into_iter()
            .filter(|e| e.workflow_run_uuid.as_str().eq_ignore_ascii_case(&run))
            .filter(|e| self.seen.insert(key(e)))
            .collect();
        // Oldest first; ties (the same second) in the log's order reversed:
        // it is newest first.
        fresh.reverse();
        fresh.sort_by_key(|e| ylem_client::time::parse_server_time(e.executed_at_raw.as_str()));
        let mut lines = lines(&fresh);
        if let Some(t) = fresh
            .iter()
            .filter_map(|e| ylem_client::time::parse_server_time(e.executed_at_raw.as_str()))
            .max()
        {
            self.newest = self.newest.max(Some(t));
        }
        self.entries.extend(fresh);
        let verdict = self.verdict(finder, now);
        if let Some(v) = verdict {
            lines.push(format!("finished: {v}"));
        }
        (lines, verdict.is_some())
    }

    /// The run's verdict by the model, once it is not `running`.
    fn verdict(&self, finder: &Finder, now: chrono::DateTime<Utc>) -> Option<&'static str> {
        let rule = self.rule.clone()?;
        let mut folds = Runs::default();
        folds.finder = Some(finder);
        for e in &self.entries {
            folds.add(e);
        }
        folds
            .judged_by(rule, now)
            .next()
            .map(|j| j.result)
            .filter(|r| *r != "running")
    }
}

/// One line per entry, in the order given.
fn lines(entries: &[LogEntryRef<'static>]) -> Vec<String> {
    entries
        .iter()
        .map(|e| {
            let result = if e.is_successful { "ok" } else { "FAILED" };
            ylem_client::text::escape(&format!(
                "{} {} {} {} {}ms",
                e.executed_at().as_str(),
                e.task_uuid.as_str(),
                e.task_type.as_str(),
                result,
                e.duration
            ))
            .into_owned()
        })
        .collect()
}
