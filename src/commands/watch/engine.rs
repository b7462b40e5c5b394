//! The watch's engine: every entity looked at once per refresh (those not
//! backing off), at most `--concurrency` at a time, each look's events
//! handed on as soon as that look is done, and the board's rows made from
//! what is then known. One `Client` for all: the token is fetched once and
//! renewed once for every request that needs it.

use std::time::{Duration, Instant};

use futures_util::{StreamExt, stream};

use crate::commands::watch::clock;
use crate::commands::watch::entity::{self, Look, Watched};
use crate::commands::watch::events::Told;
use crate::commands::watch::rows::Board;
use crate::commands::watch::shown;
use crate::error::Result;
use ylem_client::Client;
use ylem_client::runs::failure::Finder;

pub struct Engine<'a> {
    pub api: &'a Client,
    pub finder: &'a Finder,
    pub entities: Vec<Watched>,
    pub interval: Duration,
    pub since: Option<Duration>,
    pub concurrency: usize,
}

/// Who hears of what a refresh found: an entity and what it told.
pub type Tell<'a> = dyn FnMut(&Watched, &Told, &Finder) -> Result<()> + 'a;

impl Engine<'_> {
    /// One refresh: each due entity looked at; its events (and its error,
    /// or its recovery) handed to `tell` as its look completes. `--since`
    /// applies to the first look at each entity only.
    pub async fn refresh(&mut self, tell: &mut Tell<'_>) -> Result<()> {
        let now = clock::now();
        let due = Instant::now();
        let l = Look {
            api: self.api,
            now,
            since: self.since,
        };
        let (finder, interval) = (self.finder, self.interval);
        let mut looks = stream::iter(self.entities.iter_mut().filter(|w| w.due(due)))
            .map(|w| {
                let l = &l;
                async move {
                    let r = entity::look(w, l).await;
                    (w, r)
                }
            })
            .buffer_unordered(self.concurrency.max(1));
        while let Some((w, r)) = looks.next().await {
            match r {
                Ok(events) => {
                    if w.recovered() {
                        tell(w, &Told::Recovered, finder)?;
                    }
                    for e in &events {
                        tell(w, &Told::Fleet(e), finder)?;
                    }
                }
                Err(e) => {
                    if w.error.is_none() {
                        tell(w, &Told::Error(&e), finder)?;
                    }
                    w.failed(e, interval);
                }
            }
        }
        Ok(())
    }

    /// The board as it stands.
    pub fn board(&mut self) -> Board {
        let now = clock::now();
        let finder = self.finder;
        Board {
            rows: self
                .entities
                .iter_mut()
                .map(|w| shown::row(w, finder, now))
                .collect(),
            refreshed: Some(now),
        }
    }
}
