//! The form of the aggregate `date_from` the server reads, learnt once per
//! process: the spec's `YYYY-MM-DD`, or `YYYY-MM-DD 00:00:00`, which the
//! open-source server wants (it answers a bare date 400). The first request
//! asks while the others wait, so however many IDs fan out, at most one is
//! answered 400; a profile remembers the answer for the next command.

use std::future::Future;

use tokio::sync::{Mutex, OnceCell};

use crate::api::DateForm;
use crate::config::ConfigFile;
use crate::context::Context;
use crate::error::{Error, Result};
use crate::settings::{EnvCredentials, Settings};

/// What this process knows of the server's aggregate date form.
pub struct DateForms {
    known: OnceCell<DateForm>,
    /// Held by the one request that asks while the form is unknown.
    asking: Mutex<()>,
}

impl DateForms {
    /// Known from the start when the profile in use remembers it.
    pub fn new(ctx: &Context) -> Self {
        let known = OnceCell::new();
        if remembered(ctx) {
            let _ = known.set(DateForm::DateTime);
        }
        DateForms {
            known,
            asking: Mutex::new(()),
        }
    }

    /// `ask` in the form the server reads; learnt from this request if no
    /// other has learnt it yet (the others wait for it).
    pub async fn ask<T, F, Fut>(&self, ctx: &Context, ask: F) -> Result<T>
    where
        F: Fn(DateForm) -> Fut,
        Fut: Future<Output = Result<T>>,
    {
        if let Some(form) = self.known.get() {
            return ask(*form).await;
        }
        let guard = self.asking.lock().await;
        if let Some(form) = self.known.get() {
            drop(guard);
            return ask(*form).await;
        }
        match ask(DateForm::Date).await {
            // The open-source server wants a time in `date_from` and says so
            // with a 400 whose body reads `cannot parse "" as "15"`; ask
            // once more in the form it reads.
            Err(e) if wants_date_time(&e) => {
                let _ = self.known.set(DateForm::DateTime);
                drop(guard);
                ctx.ui
                    .verbose("the server refused a bare date; asking again with a time");
                remember(&ctx.settings);
                ask(DateForm::DateTime).await
            }
            Ok(v) => {
                let _ = self.known.set(DateForm::Date);
                Ok(v)
            }
            // Nothing learnt (a network error, a 5xx): the next one asks.
            Err(e) => Err(e),
        }
    }
}

/// Whether the stored profile (in use, for the same base URL) remembers that
/// its server wants `YYYY-MM-DD 00:00:00` in aggregate requests.
fn remembered(ctx: &Context) -> bool {
    let s = &ctx.settings;
    matches!(s.credentials, EnvCredentials::None)
        && ctx.profile().ok().is_some_and(|r| {
            r.profile.as_ref().is_some_and(|p| {
                p.aggregate_date_time && (s.base_url.is_none() || s.base_url == p.base_url)
            })
        })
}

/// Remember that the server wants a time in aggregate requests; best effort
/// (a config that cannot be written only costs one 400 next time).
fn remember(s: &Settings) {
    if !matches!(s.credentials, EnvCredentials::None) || s.base_url.is_some() {
        return;
    }
    // Re-read under the lock: what this command loaded may be stale.
    if let Some(dir) = &s.config_dir {
        let _ = ConfigFile::update(dir, |c| {
            let Some(mut p) = c.profile(&s.profile)? else {
                return Ok((false, ()));
            };
            p.aggregate_date_time = true;
            c.set_profile(&s.profile, &p);
            Ok((true, ()))
        });
    }
}

/// The server's answer to a bare date where it wants a date and time.
fn wants_date_time(e: &Error) -> bool {
    e.http_status == Some(400)
        && e.server_body
            .as_deref()
            .is_some_and(|b| b.contains("cannot parse"))
}
