//! An entity's last run as the commands ask it: the service's model
//! (`ylem_client::runs::last::last`), with the hint for a last run the service
//! would not confirm to these credentials.

use chrono::{DateTime, Utc};
use uuid::Uuid;

use crate::error::{Error, Result};
use ylem_client::Client;
use ylem_client::Entity;
use ylem_client::runs::{Last, NotKnown};

/// The last run of `id` (`runs::last::last`), its errors ready to show.
pub async fn last(api: &Client, kind: Entity, id: Uuid, now: DateTime<Utc>) -> Result<Last> {
    ylem_client::runs::last::last(api, kind, id, now)
        .await
        .map_err(|n| match n {
            NotKnown::Unconfirmed(e) => Error::from(e).with_hint(
                "the service does not show this run to these credentials; check the ID and the organisation",
            ),
            NotKnown::Failed(e) => Error::from(e),
        })
}
