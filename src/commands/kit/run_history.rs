//! A pipeline's history look-up (`ylem_client::runs::history`) as the commands ask
//! it: a failed look-up said with `-v` when it is asked again, and as a
//! warning when it gives up.

use uuid::Uuid;

use crate::error::Error;
use crate::ui::Ui;
use ylem_client::Client;
use ylem_client::runs::finished::History;
use ylem_client::runs::history::{self, Miss};

/// The pipeline's recent runs, for the evidence rule; a look-up that still
/// fails is no history, and said.
pub async fn history(api: &Client, id: Uuid, ui: &Ui) -> History {
    history::history(api, id, |miss| match miss {
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
    })
    .await
}
