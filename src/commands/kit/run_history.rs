//! A pipeline run's basis look-up (`ylem_client::runs::history`) as the
//! commands ask it: a failed look-up said with `-v` when it is asked again,
//! and as a warning when it gives up.

use std::collections::BTreeMap;

use chrono::{DateTime, Utc};
use uuid::Uuid;

use crate::error::Error;
use crate::ui::Ui;
use ylem_client::Client;
use ylem_client::runs::finished::{History, Rule};
use ylem_client::runs::fold::RunFold;
use ylem_client::runs::history::{self, Miss};

/// The basis of a run of the pipeline whose first task started at `first`
/// (a run about to start: now), for the evidence rule; a look-up that still
/// fails is no history, and said.
pub async fn history(api: &Client, id: Uuid, first: DateTime<Utc>, ui: &Ui) -> History {
    history::history(api, id, first, |miss| told(id, ui, miss)).await
}

/// The rule of each run, from its basis
/// (`history::rules_of`), a failed look-up said as `history` says it.
pub async fn rules<'r>(
    api: &Client,
    id: Uuid,
    runs: impl Iterator<Item = &'r RunFold>,
    ui: &Ui,
) -> BTreeMap<DateTime<Utc>, Rule> {
    history::rules_of(api, id, runs, |miss| told(id, ui, miss)).await
}

/// A wait's look-up of its run's basis that failed (`misses` so far): said
/// with `-v`, and as a warning at the `GIVE_UP`th, as `history` says it;
/// the wait asks again at its next look.
pub fn missed(id: Uuid, ui: &Ui, e: &ylem_client::Error, misses: u32) {
    match misses {
        GIVE_UP => told(id, ui, Miss::GaveUp(e)),
        _ => told(id, ui, Miss::Again(e)),
    }
}

/// The failed look-ups after which a wait warns (as `history` gives up).
const GIVE_UP: u32 = 3;

fn told(id: Uuid, ui: &Ui, miss: Miss<'_>) {
    match miss {
        // `e` shown, not its message: the server's words escaped; ours, so
        // that a time limit is named by its flag.
        Miss::Again(e) => {
            let e = Error::from(e.clone());
            ui.verbose(&format!("history of pipeline {id}: {e}; asking again"))
        }
        Miss::GaveUp(e) => {
            let e = Error::from(e.clone());
            ui.warn(&format!(
                "cannot read the history of pipeline {id} ({e}): until a later look reads it, a run counts as finished only after no new task for the default settle time"
            ))
        }
    }
}
