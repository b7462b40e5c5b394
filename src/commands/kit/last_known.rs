//! An entity's last run as the commands ask it: the service's model
//! (`service::last_model::last`), with the hint for a last run the service
//! would not confirm to these credentials.

use chrono::{DateTime, Utc};
use uuid::Uuid;

use crate::error::Result;
use crate::service::last_model::{self, Last, NotKnown};
use ylem_client::Client;
use ylem_client::Entity;

/// The last run of `id` (`last_model::last`), its errors ready to show.
pub async fn last(api: &Client, kind: Entity, id: Uuid, now: DateTime<Utc>) -> Result<Last> {
    last_model::last(api, kind, id, now)
        .await
        .map_err(|n| match n {
            NotKnown::Unconfirmed(e) => e.with_hint(
                "the service does not show this run to these credentials; check the ID and the organisation",
            ),
            NotKnown::Failed(e) => e,
        })
}
