//! `metrics serve`'s answers: every scrape is answered by its deadline
//! (`--scrape-timeout`, or Prometheus' own timeout when shorter), an ID not
//! answered by then being `ylem_up 0` for that scrape. Each ID is fetched
//! on a scrape at most once per `--cache` and one fetch per ID at a time
//! (all within `--concurrency` requests), so the service sees a bounded
//! load however often it is scraped. A fetch the deadline cut short goes
//! on in the background and fills the cache for the next scrapes. After a
//! stop, a scrape in flight still gets its fetch's answer if it comes
//! within `STOP_GRACE` (and its deadline); then what is in.

use std::future::Future;
use std::pin::Pin;
use std::time::Duration;

use chrono::Utc;
use futures_util::StreamExt;
use futures_util::stream::FuturesUnordered;
use tokio::sync::{Semaphore, mpsc, oneshot, watch};
use tokio::time::Instant;

use crate::commands::kit::targets::Target;
use crate::commands::monitor::board::{self, Standing};
use crate::commands::monitor::serve::scrape_health::{Change, Health};
use crate::context::Context;
use crate::count::count;
use crate::error::{Error, Kind, Result};
use crate::output::prometheus;
use ylem_client::Client;

/// A fetch that takes longer is given up (a stalled upstream), so that the
/// next scrape asks again rather than wait on it for ever.
const FETCH_LIMIT: Duration = Duration::from_secs(120);
/// After a stop, the longest a scrape waits (its deadline if sooner).
const STOP_GRACE: Duration = Duration::from_secs(5);
/// Taken off Prometheus' scrape timeout, for the answer to reach it.
const OFFSET: Duration = Duration::from_millis(500);

/// A scrape waiting for the exposition, to be answered within `within`.
pub struct Ask {
    pub reply: oneshot::Sender<String>,
    pub within: Duration,
}

/// How long a scrape may take: `--scrape-timeout`, or less when Prometheus
/// says (`X-Prometheus-Scrape-Timeout-Seconds`) that it gives up sooner;
/// 0.5 s are left for the answer to travel (half of a shorter timeout).
pub fn deadline(flag: Duration, header: Option<&str>) -> Duration {
    let theirs = header
        .and_then(|h| h.trim().parse::<f64>().ok())
        .filter(|s| s.is_finite() && *s > 0.0)
        // A header is anyone's text: a value too large for a Duration
        // (1e300) is no deadline, not a panic.
        .and_then(|s| Duration::try_from_secs_f64(s).ok());
    match theirs {
        Some(t) => flag.min(t.saturating_sub(OFFSET.min(t / 2))),
        None => flag,
    }
}

/// One ID: its last finished fetch, and whether one is under way.
#[derive(Default)]
struct Slot {
    done: Option<Done>,
    fetching: bool,
}

/// A finished fetch: the moment its answer describes (when it began: the
/// run was judged then), when it ended, and the answer.
struct Done {
    began: Instant,
    ended: Instant,
    r: Result<Standing>,
}

impl Slot {
    /// Whether the last fetch serves a scrape that came in at `since`: it
    /// began then or later, or was fresh then. Its *beginning* counts, not
    /// its end: a fetch that began before the scrape describes an earlier
    /// moment, and under load (a fetch taking seconds) that moment could
    /// call a run "in progress" that every other command already judges
    /// finished (issue 42).
    fn serves(&self, since: Instant, ttl: Duration) -> bool {
        self.done
            .as_ref()
            .is_some_and(|d| d.began >= since || d.began + ttl > since)
    }

    /// What a scrape at its deadline is given when no fetch serves it: the
    /// last answer if it ended after the scrape came (older by one fetch at
    /// most), rather than nothing.
    fn at_deadline(&self, since: Instant) -> Option<&Result<Standing>> {
        self.done
            .as_ref()
            .filter(|d| d.ended >= since)
            .map(|d| &d.r)
    }
}

struct Waiting {
    reply: oneshot::Sender<String>,
    since: Instant,
    until: Instant,
}

type Fetch<'a> = Pin<Box<dyn Future<Output = (usize, Instant, Result<Standing>)> + 'a>>;

/// What the scrapes share while the exporter runs.
struct Answers<'a> {
    ctx: &'a Context,
    targets: &'a [Target],
    ttl: Duration,
    slots: Vec<Slot>,
    health: Health,
}

/// Answer scrapes until the server is gone (`rx` closed); after `stop`,
/// each within `STOP_GRACE`.
pub async fn answer(
    ctx: &Context,
    api: &Client,
    targets: &[Target],
    ttl: Duration,
    mut rx: mpsc::Receiver<Ask>,
    mut stop: watch::Receiver<bool>,
) {
    let permits = Semaphore::new(ctx.settings.concurrency.max(1));
    let mut a = Answers {
        ctx,
        targets,
        ttl,
        slots: targets.iter().map(|_| Slot::default()).collect(),
        health: Health::new(targets.len()),
    };
    let mut running: FuturesUnordered<Fetch<'_>> = FuturesUnordered::new();
    let mut waiting: Vec<Waiting> = Vec::new();
    let mut stopped: Option<Instant> = None;
    loop {
        let next = waiting.iter().map(|w| w.until).min();
        tokio::select! {
            ask = rx.recv() => {
                let Some(ask) = ask else { break };
                let now = Instant::now();
                for i in a.stale(now) {
                    a.slots[i].fetching = true;
                    running.push(Box::pin(fetch(ctx, api, &targets[i], i, &permits)));
                }
                let until = grace(now + ask.within, stopped);
                waiting.push(Waiting { reply: ask.reply, since: now, until });
            }
            Some((i, began, r)) = running.next() => {
                a.fetched(i, began, r);
                // A scrape that came while this fetch was under way is not
                // served by it: ask again for it (one fetch per ID at a time;
                // one that serves the latest scrape serves the earlier ones).
                let since = waiting.iter().map(|w| w.since).max();
                for i in since.map(|t| a.stale(t)).unwrap_or_default() {
                    a.slots[i].fetching = true;
                    running.push(Box::pin(fetch(ctx, api, &targets[i], i, &permits)));
                }
            }
            () = sleep_until(next) => {}
            r = stop.wait_for(|s| *s), if stopped.is_none() => {
                // A closed channel is a stop too: the server is going.
                let _ = r;
                stopped = Some(Instant::now());
                waiting.iter_mut().for_each(|w| w.until = grace(w.until, stopped));
            }
        }
        let now = Instant::now();
        let (due, wait): (Vec<_>, Vec<_>) = waiting
            .into_iter()
            .partition(|w| w.until <= now || a.complete(w.since));
        waiting = wait;
        for w in due {
            let _ = w.reply.send(a.render(w.since, w.until));
        }
    }
}

/// A deadline, no later than `STOP_GRACE` after a stop.
fn grace(until: Instant, stopped: Option<Instant>) -> Instant {
    stopped.map_or(until, |at| until.min(at + STOP_GRACE))
}

async fn sleep_until(at: Option<Instant>) {
    match at {
        Some(at) => tokio::time::sleep_until(at).await,
        None => std::future::pending().await,
    }
}

/// One ID's standing, within the `--concurrency` permits and `FETCH_LIMIT`.
async fn fetch(
    ctx: &Context,
    api: &Client,
    t: &Target,
    i: usize,
    permits: &Semaphore,
) -> (usize, Instant, Result<Standing>) {
    let mut began = Instant::now();
    let go = async {
        let _permit = permits.acquire().await;
        // The moment judged is when the permit is had, not when asked.
        began = Instant::now();
        board::fetch(ctx, api, t, Utc::now(), None).await
    };
    let r = match tokio::time::timeout(FETCH_LIMIT, go).await {
        Ok(r) => r,
        Err(_) => Err(Error::new(
            Kind::Timeout,
            format!(
                "no answer within {}; asked again at the next scrape",
                crate::time::human_ms(FETCH_LIMIT.as_millis() as i64)
            ),
        )),
    };
    (i, began, r)
}

impl Answers<'_> {
    /// The IDs a scrape arriving `now` needs fetched: not fresh, and no
    /// fetch under way.
    fn stale(&self, now: Instant) -> Vec<usize> {
        (self.slots.iter().enumerate())
            .filter(|(_, s)| !s.fetching && !s.serves(now, self.ttl))
            .map(|(i, _)| i)
            .collect()
    }

    /// Whether every ID has an answer for a scrape that came at `since`.
    fn complete(&self, since: Instant) -> bool {
        self.slots.iter().all(|s| s.serves(since, self.ttl))
    }

    /// A fetch ended: an ID is logged when it starts failing and when it
    /// recovers, not at every scrape (`ylem_up` says it meanwhile).
    fn fetched(&mut self, i: usize, began: Instant, r: Result<Standing>) {
        match (self.health.set(i, r.is_ok()), &r) {
            (Some(Change::Fails(i)), Err(e)) => self.fails(i, e),
            (Some(Change::Recovers(i, scrapes)), _) => {
                let t = &self.targets[i];
                self.ctx.note(&format!(
                    "{} {}: recovered after failing {}",
                    t.kind,
                    t.uuid,
                    count(scrapes, "scrape", "scrapes")
                ));
            }
            _ => {}
        }
        self.slots[i] = Slot {
            done: Some(Done {
                began,
                ended: Instant::now(),
                r,
            }),
            fetching: false,
        };
    }

    fn fails(&self, i: usize, e: &Error) {
        let t = &self.targets[i];
        let what = format!(
            "{} {}: failing, ylem_up 0 until it recovers",
            t.kind, t.uuid
        );
        self.ctx.report(&e.clone().context(what));
    }

    /// The exposition for a scrape that came at `since` with a deadline
    /// at `until`: an ID not answered for it is `ylem_up 0`.
    fn render(&mut self, since: Instant, until: Instant) -> String {
        let late = Error::new(
            Kind::Timeout,
            format!(
                "no answer within the scrape's {}; still asking",
                crate::time::human_ms((until - since).as_millis() as i64)
            ),
        );
        let mut samples = Vec::with_capacity(self.targets.len());
        for (i, t) in self.targets.iter().enumerate() {
            let s = &self.slots[i];
            let served = match &s.done {
                Some(d) if s.serves(since, self.ttl) => Some(&d.r),
                _ => s.at_deadline(since),
            };
            match served {
                Some(r) => samples.push(board::sample(t, r)),
                None => {
                    if let Some(Change::Fails(i)) = self.health.set(i, false) {
                        self.fails(i, &late);
                    }
                    samples.push(board::sample(t, &Err(late.clone())));
                }
            }
        }
        self.health.scraped();
        prometheus::render(&samples)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn prometheus_shortens_the_deadline_but_never_lengthens_it() {
        let s = Duration::from_secs;
        assert_eq!(deadline(s(8), None), s(8));
        assert_eq!(deadline(s(8), Some("10")), s(8));
        assert_eq!(deadline(s(8), Some("5")), Duration::from_millis(4500));
        assert_eq!(deadline(s(8), Some("0.5")), Duration::from_millis(250));
        for bad in ["", "x", "-1", "0", "NaN", "inf", "1e300"] {
            assert_eq!(deadline(s(8), Some(bad)), s(8), "{bad}");
        }
    }

    #[test]
    fn a_fetch_serves_the_scrapes_that_came_before_it_began_or_within_its_cache() {
        let t0 = Instant::now();
        let ttl = Duration::from_secs(15);
        let at = |s: u64| t0 + Duration::from_secs(s);
        // Began at 10 s, ended at 13 s (a slow fetch under load).
        let slot = Slot {
            done: Some(Done {
                began: at(10),
                ended: at(13),
                r: Err(Error::internal("x")),
            }),
            fetching: false,
        };
        assert!(slot.serves(at(5), ttl), "began after the scrape came");
        assert!(slot.serves(at(24), ttl), "fresh");
        assert!(!slot.serves(at(25), ttl), "stale");
        assert!(slot.serves(at(10), Duration::ZERO));
        // A scrape that came while the fetch was under way is not served
        // by it (the moment it describes is earlier)...
        assert!(!slot.serves(at(11), Duration::ZERO));
        // ...but at its deadline gets it rather than nothing, if it ended
        // after the scrape came; an answer that ended before is not given.
        assert!(slot.at_deadline(at(11)).is_some());
        assert!(slot.at_deadline(at(14)).is_none());
        assert!(!Slot::default().serves(t0, ttl));
        assert!(Slot::default().at_deadline(t0).is_none());
    }
}
