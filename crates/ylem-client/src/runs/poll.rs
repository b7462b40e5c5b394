//! The one polling driver, for everything that waits on the service:
//! waiting for a started run (pipelines through their log, workflows
//! through last-run statistics) and following a log. It owns the pacing (a pause that starts
//! short, doubles while nothing changes, and starts over when something
//! does), the backoff while the service fails, which failures are waited
//! out, and the end conditions: a stop request (Ctrl-C, SIGTERM) and a time
//! limit. What differs between waiting for a run and following a log is
//! the `Step` handed to it: one look at the service. The stop request is
//! any future the caller hands in (`S`, what it resolves to, comes back in
//! `Ended::Stopped`): a command line's Ctrl-C and SIGTERM, a server's
//! shutdown, a test's timer.
//!
//! A step's error is its own (`Step::Error`): a look may fail in the
//! caller's ways too (an output closed under it), and `Waited` says which
//! failures are waited out; this crate's `Error` says so by its kind.
//!
//! Tokens need nothing here: every look asks through `Client`, which renews
//! the token before it expires (once for all concurrent requests) and
//! repeats a request once with a fresh token after a 401.

use std::future::Future;
use std::pin::Pin;
use std::time::Duration;

use tokio::time::Instant;

use crate::error::{Error, ErrorKind};

/// What one look found.
pub enum Look<T> {
    /// The step is done: the run finished, the followed run is complete.
    Done(T),
    /// Not yet. `changed`: something new was seen (the pause starts over);
    /// `again`: look again at once (a log being caught up with, window by
    /// window), stop requests still heard.
    Pending {
        /// Something new was seen.
        changed: bool,
        /// Look again at once.
        again: bool,
    },
}

/// An error a drive meets: waited out, or the end of the drive.
pub trait Waited {
    /// Whether the failure is waited out (the service down or failing for
    /// a while) rather than ending the drive.
    fn transient(&self) -> bool;
}

/// Network failures and server errors (5xx, a broken body) are waited
/// out; anything else (auth, not found, an invalid request) ends the drive.
impl Waited for Error {
    fn transient(&self) -> bool {
        matches!(self.kind, ErrorKind::Network | ErrorKind::Server)
    }
}

/// One look at the service, repeated by `drive`.
pub trait Step {
    /// What a finished step gives.
    type Done;
    /// What a look fails with: this crate's `Error`, or the caller's own.
    type Error: Waited;
    /// One look. Cancelled at an await point by a stop request: a step
    /// does what it prints after its last await, so a stop never cuts an
    /// output in half.
    fn look(&mut self) -> impl Future<Output = Result<Look<Self::Done>, Self::Error>>;
    /// A failure that is waited out (`Waited::transient`); `first` when the
    /// service was answering before it.
    fn failing(&mut self, _e: &Self::Error, _first: bool) {}
}

/// How a drive ended; `S` is what the stop request said.
#[derive(Debug, PartialEq, Eq)]
pub enum Ended<T, S> {
    /// The step is done.
    Done(T),
    /// A stop request came: what it said.
    Stopped(S),
    /// The time limit came first.
    OutOfTime,
}

/// The pauses between looks.
#[derive(Debug, Clone, Copy)]
pub struct Pacing {
    /// Before the first look (a run just started has nothing to show yet;
    /// a log is read at once).
    pub first_look: Duration,
    /// The shortest pause after a look: the one after a look that saw
    /// something new.
    pub first: Duration,
    /// The longest pause while the service answers.
    pub longest: Duration,
}

/// While the service fails, pauses grow to at least this, so that a
/// struggling service is not hammered.
const FAILING_LONGEST: Duration = Duration::from_secs(60);
/// The shortest pause, whatever the settings.
const SHORTEST: Duration = Duration::from_millis(100);
/// How long the last look, begun at the limit, may take when the limit
/// cuts looks (`Until::cut_looks`): a look at a live service answers in
/// well under this; one that does not cannot change the outcome.
pub const LAST_LOOK: Duration = Duration::from_secs(5);

impl Pacing {
    /// The pause after `current`, doubled, from the first up to the
    /// longest (longer while the service fails).
    fn next(&self, current: Duration, failing: bool) -> Duration {
        (current * 2)
            .max(self.first)
            .min(self.cap(failing))
            .max(SHORTEST)
    }

    /// The longest pause, longer while the service fails.
    fn cap(&self, failing: bool) -> Duration {
        match failing {
            true => self.longest.max(FAILING_LONGEST),
            false => self.longest,
        }
    }
}

/// A stop request the drive listens for, shared with what the caller does
/// before and after it; it resolves to why it stopped (`S`).
pub type StopRequest<S> = Pin<Box<dyn Future<Output = S> + Send>>;

/// When a drive ends besides the step's own end.
pub struct Until<'a, S> {
    /// Ends it as `OutOfTime`, after one last look at the limit.
    pub limit: Option<Instant>,
    /// The limit also ends a look under way, as `OutOfTime` (a wait's own
    /// time limit: one look at a log that never ends must not outlive
    /// it); the last look, begun at the limit, then has `LAST_LOOK` to
    /// answer. Without it a look runs to its end (a follow's limit is the
    /// whole command's, which its requests' own deadline ends).
    pub cut_looks: bool,
    /// Ends it as `Stopped`, at once, even mid-look; `None` when the
    /// caller listens for stop requests elsewhere.
    pub stop: Option<&'a mut StopRequest<S>>,
}

/// Look, pause, look again, until the step is done, the service fails in
/// a way not worth waiting out, a stop request comes or time runs out.
pub async fn drive<St: Step, S>(
    step: &mut St,
    pacing: Pacing,
    mut until: Until<'_, S>,
) -> Result<Ended<St::Done, S>, St::Error> {
    let mut nap = pacing.first_look;
    // The pause after the next look that sees nothing new.
    let mut pause = pacing.next(pacing.first_look, false);
    let mut failing = false;
    loop {
        let left = until
            .limit
            .map(|l| l.saturating_duration_since(Instant::now()));
        if left.is_some_and(|l| l.is_zero()) {
            return Ok(Ended::OutOfTime);
        }
        let nap_now = left.map_or(nap, |l| l.min(nap));
        if let Err(s) = stopped(&mut until, tokio::time::sleep(nap_now)).await {
            return Ok(Ended::Stopped(s));
        }
        // When this look must have answered: by the limit, or (the last
        // look, its nap cut to reach the limit) `LAST_LOOK` after it begins.
        let last = left.is_some_and(|l| l <= nap);
        let cut = match (until.cut_looks, until.limit) {
            (true, Some(_)) if last => Some(Instant::now() + LAST_LOOK),
            (true, Some(l)) => Some(l),
            _ => None,
        };
        let look = async {
            match cut {
                Some(at) => tokio::time::timeout_at(at, step.look()).await.ok(),
                None => Some(step.look().await),
            }
        };
        let looked = match stopped(&mut until, look).await {
            Err(s) => return Ok(Ended::Stopped(s)),
            Ok(None) => return Ok(Ended::OutOfTime),
            Ok(Some(r)) => r,
        };
        let (changed, again) = match looked {
            Ok(Look::Done(d)) => return Ok(Ended::Done(d)),
            Ok(Look::Pending { changed, again }) => {
                failing = false;
                (changed, again)
            }
            Err(e) if e.transient() => {
                step.failing(&e, !failing);
                failing = true;
                (false, false)
            }
            Err(e) => return Err(e),
        };
        // Catching up looks again at once; news starts the pauses over;
        // otherwise each is longer than the one before, and a service that
        // answers again is looked at within the longest pause.
        nap = match (again, changed) {
            (true, changed) => {
                if changed {
                    pause = pacing.first;
                }
                Duration::ZERO
            }
            (false, true) => {
                pause = pacing.next(pacing.first, false);
                pacing.first
            }
            (false, false) => {
                let now = pause.min(pacing.cap(failing));
                pause = pacing.next(pause, failing);
                now
            }
        };
    }
}

/// `fut`, unless a stop request comes first (checked first, so a pending
/// request wins over a ready look).
async fn stopped<F: Future, S>(
    until: &mut Until<'_, S>,
    fut: F,
) -> std::result::Result<F::Output, S> {
    match until.stop.as_deref_mut() {
        Some(stop) => tokio::select! {
            biased;
            s = stop => Err(s),
            r = fut => Ok(r),
        },
        None => Ok(fut.await),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::error::{ErrorKind as Kind, Result};

    /// Stop requests as a caller names them.
    #[derive(Debug, PartialEq, Eq)]
    enum Stop {
        Interrupt,
        Terminate,
    }

    /// Answers from a script, one per look, noting when each look came.
    struct Scripted {
        answers: Vec<Result<Look<&'static str>>>,
        at: Vec<Duration>,
        start: tokio::time::Instant,
        failures: Vec<bool>,
    }

    impl Scripted {
        fn new(answers: Vec<Result<Look<&'static str>>>) -> Self {
            Scripted {
                answers,
                at: Vec::new(),
                start: tokio::time::Instant::now(),
                failures: Vec::new(),
            }
        }
    }

    impl Step for Scripted {
        type Done = &'static str;
        type Error = Error;
        async fn look(&mut self) -> Result<Look<&'static str>> {
            self.at.push(self.start.elapsed());
            match self.answers.is_empty() {
                true => Ok(pending(false)),
                false => self.answers.remove(0),
            }
        }
        fn failing(&mut self, _e: &Error, first: bool) {
            self.failures.push(first);
        }
    }

    fn pending(changed: bool) -> Look<&'static str> {
        Look::Pending {
            changed,
            again: false,
        }
    }

    const PACING: Pacing = Pacing {
        first_look: Duration::from_millis(500),
        first: Duration::from_secs(1),
        longest: Duration::from_secs(4),
    };

    fn secs(at: &[Duration]) -> Vec<f64> {
        at.iter().map(|d| d.as_secs_f64()).collect()
    }

    fn no_end() -> Until<'static, Stop> {
        Until {
            limit: None,
            cut_looks: false,
            stop: None,
        }
    }

    #[tokio::test(start_paused = true)]
    async fn pauses_double_up_to_the_longest_and_start_over_on_news() {
        let mut s = Scripted::new(vec![
            Ok(pending(false)),
            Ok(pending(false)),
            Ok(pending(false)),
            Ok(pending(false)),
            Ok(pending(true)),
            Ok(pending(false)),
            Ok(Look::Done("done")),
        ]);
        let end = drive(&mut s, PACING, no_end()).await.unwrap();
        assert_eq!(end, Ended::Done("done"));
        // 0.5 first; then 1, 2, 4, 4; news: 1, then 2.
        assert_eq!(secs(&s.at), [0.5, 1.5, 3.5, 7.5, 11.5, 12.5, 14.5]);
    }

    #[tokio::test(start_paused = true)]
    async fn failures_are_waited_out_longer_and_others_end_the_drive() {
        let mut s = Scripted::new(vec![
            Err(Error::network("down")),
            Err(Error::server("503")),
            Err(Error::server("503")),
            Err(Error::server("503")),
            Err(Error::server("503")),
            Err(Error::server("503")),
            Err(Error::server("503")),
            Ok(pending(false)),
            Ok(Look::Done("done")),
        ]);
        let end = drive(&mut s, PACING, no_end()).await.unwrap();
        assert_eq!(end, Ended::Done("done"));
        // Past the 4 s longest while failing, up to a minute, then back
        // to the longest.
        let gaps: Vec<f64> =
            s.at.windows(2)
                .map(|w| (w[1] - w[0]).as_secs_f64())
                .collect();
        assert_eq!(gaps, [1.0, 2.0, 4.0, 8.0, 16.0, 32.0, 60.0, 4.0]);
        assert_eq!(s.failures, [true, false, false, false, false, false, false]);
        let mut s = Scripted::new(vec![Ok(pending(false)), Err(Error::auth("rejected"))]);
        let e = drive(&mut s, PACING, no_end()).await.unwrap_err();
        assert_eq!(e.kind, Kind::Auth);
    }

    #[tokio::test(start_paused = true)]
    async fn catching_up_looks_again_at_once() {
        let again = || {
            Ok(Look::Pending {
                changed: true,
                again: true,
            })
        };
        let mut s = Scripted::new(vec![
            again(),
            again(),
            Ok(pending(false)),
            Ok(Look::Done("d")),
        ]);
        drive(&mut s, PACING, no_end()).await.unwrap();
        assert_eq!(secs(&s.at), [0.5, 0.5, 0.5, 1.5]);
    }

    #[tokio::test(start_paused = true)]
    async fn the_limit_ends_it_after_a_last_look_at_the_limit() {
        let limit = Some(Instant::now() + Duration::from_secs(5));
        let mut s = Scripted::new(vec![]);
        let until: Until<Stop> = Until {
            limit,
            cut_looks: false,
            stop: None,
        };
        let end = drive(&mut s, PACING, until).await.unwrap();
        assert_eq!(end, Ended::OutOfTime);
        assert_eq!(secs(&s.at), [0.5, 1.5, 3.5, 5.0]);
        // A limit already past: no look at all.
        let mut s = Scripted::new(vec![]);
        let until: Until<Stop> = Until {
            limit: Some(Instant::now()),
            cut_looks: false,
            stop: None,
        };
        assert_eq!(
            drive(&mut s, PACING, until).await.unwrap(),
            Ended::OutOfTime
        );
        assert!(s.at.is_empty());
    }

    /// A look that never answers.
    struct Hanging;

    impl Step for Hanging {
        type Done = ();
        type Error = Error;
        async fn look(&mut self) -> Result<Look<()>> {
            std::future::pending().await
        }
    }

    #[tokio::test(start_paused = true)]
    async fn a_stop_request_ends_it_mid_pause_and_mid_look() {
        let mut stop: StopRequest<Stop> = Box::pin(async {
            tokio::time::sleep(Duration::from_secs(3)).await;
            Stop::Terminate
        });
        let mut s = Scripted::new(vec![]);
        let until = Until {
            limit: None,
            cut_looks: false,
            stop: Some(&mut stop),
        };
        assert_eq!(
            drive(&mut s, PACING, until).await.unwrap(),
            Ended::Stopped(Stop::Terminate)
        );
        assert_eq!(secs(&s.at), [0.5, 1.5]);
        let mut stop: StopRequest<Stop> = Box::pin(async {
            tokio::time::sleep(Duration::from_secs(3)).await;
            Stop::Interrupt
        });
        let until = Until {
            limit: None,
            cut_looks: false,
            stop: Some(&mut stop),
        };
        let end = drive(&mut Hanging, PACING, until).await.unwrap();
        assert_eq!(end, Ended::Stopped(Stop::Interrupt));
    }

    /// A look under way when the limit comes is cut there when the limit
    /// cuts looks (a wait's own time limit), and a last look begun at the
    /// limit has `LAST_LOOK`; without it a hanging look is never cut.
    #[tokio::test(start_paused = true)]
    async fn a_limit_that_cuts_looks_ends_a_hanging_look_at_the_limit() {
        let start = Instant::now();
        let until: Until<Stop> = Until {
            limit: Some(start + Duration::from_secs(3)),
            cut_looks: true,
            stop: None,
        };
        let end = drive(&mut Hanging, PACING, until).await.unwrap();
        assert_eq!(end, Ended::OutOfTime);
        assert_eq!(start.elapsed(), Duration::from_secs(3));
        // A look that begins at the limit (the first look is after it) and
        // hangs: ended `LAST_LOOK` later.
        let start = Instant::now();
        let until: Until<Stop> = Until {
            limit: Some(start + Duration::from_millis(200)),
            cut_looks: true,
            stop: None,
        };
        let end = drive(&mut Hanging, PACING, until).await.unwrap();
        assert_eq!(end, Ended::OutOfTime);
        assert_eq!(start.elapsed(), Duration::from_millis(200) + LAST_LOOK);
        // Looks that answer are as without the cut: the last one at the limit.
        let limit = Some(Instant::now() + Duration::from_secs(5));
        let mut s = Scripted::new(vec![]);
        let until: Until<Stop> = Until {
            limit,
            cut_looks: true,
            stop: None,
        };
        assert_eq!(
            drive(&mut s, PACING, until).await.unwrap(),
            Ended::OutOfTime
        );
        assert_eq!(secs(&s.at), [0.5, 1.5, 3.5, 5.0]);
        // Not cutting: the hanging look outlives the limit.
        let until: Until<Stop> = Until {
            limit: Some(Instant::now() + Duration::from_secs(3)),
            cut_looks: false,
            stop: None,
        };
        let mut hanging = Hanging;
        let drove = drive(&mut hanging, PACING, until);
        let cut = tokio::time::timeout(Duration::from_secs(60), drove).await;
        assert!(cut.is_err(), "never ends by itself");
    }
}
