//! A pipeline's history look-up (`service::history`) as the commands ask
//! it: a failed look-up said with `-v` when it is asked again, and as a
//! warning when it gives up.

use uuid::Uuid;

use crate::service::finished::History;
use crate::service::history::{self, Miss};
use crate::ui::Ui;
use ylem_client::Client;

/// The pipeline's recent runs, for the evidence rule; a look-up that still
/// fails is no history, and said.
pub async fn history(api: &Client, id: Uuid, ui: &Ui) -> History {
    history::history(api, id, |miss| match miss {
        // `e` shown, not its message: the server's words escaped.
        Miss::Again(e) => ui.verbose(&format!("history of pipeline {id}: {e}; asking again")),
        Miss::GaveUp(e) => ui.warn(&format!(
            "cannot read the history of pipeline {id} ({e}): until a later look reads it, a run counts as finished only after no new task for the default settle time"
        )),
    })
    .await
}
