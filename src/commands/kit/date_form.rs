//! The aggregate date form as a profile keeps it: what the service learns
//! (`ylem_client::quirks::date_form`) starts from what the profile in use remembers,
//! and a server that wants a time is remembered in `config.toml` for the
//! next command (a `metrics serve` scrape included).

use crate::config::ConfigFile;
use crate::context::Context;
use crate::settings::{EnvCredentials, Settings};
use ylem_client::api::DateForm;
use ylem_client::quirks::date_form::DateForms;

/// The date forms of this command: known from the start when the profile
/// in use remembers them; a time the server wants is said (`-v`) and
/// remembered.
pub fn forms(ctx: &Context) -> DateForms<'_> {
    let known = remembered(ctx).then_some(DateForm::DateTime);
    DateForms::new(
        known,
        Box::new(move |form| {
            if form == DateForm::DateTime {
                ctx.ui
                    .verbose("the server refused a bare date; asking again with a time");
                remember(&ctx.settings);
            }
        }),
    )
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
