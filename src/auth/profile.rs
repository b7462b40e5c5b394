//! Which profile, credential store and base URL a command uses, and why:
//! shared by the commands that use a stored login and by `auth status`.

use std::path::PathBuf;
use std::time::Duration;

use super::store::{Store, StoreKind};
use super::stored::StoredProfile;
use crate::cli::StoreChoice;
use crate::config::{ConfigFile, Profile, check_profile_name};
use crate::error::{Error, Result};
use crate::settings::Settings;

pub struct Resolved {
    pub name: String,
    pub config_dir: PathBuf,
    /// `None` when the config file has no such profile.
    pub profile: Option<Profile>,
    pub store: StoreKind,
    /// Why that store, for `auth status`.
    pub store_why: &'static str,
}

/// The config directory, or a usage error saying how to name one.
pub fn config_dir(s: &Settings) -> Result<PathBuf> {
    s.config_dir.clone().ok_or_else(|| {
        Error::usage("no config directory: there is no home directory")
            .with_hint("set YLEM_CONFIG_DIR (or HOME)")
    })
}

/// Find the selected profile in `config` (the command's config file, `None`
/// without a config directory) and decide its store (reading, not `login`).
pub fn resolve(s: &Settings, config: Option<&ConfigFile>) -> Result<Resolved> {
    check_profile_name(&s.profile)?;
    // Without a config directory nothing can have been saved.
    let (Some(config_dir), Some(config)) = (s.config_dir.clone(), config) else {
        return Err(not_logged_in(&s.profile));
    };
    let profile = config.profile(&s.profile)?;
    let saved = profile
        .as_ref()
        .and_then(|p| p.store.as_deref())
        .and_then(StoreKind::parse);
    let (store, store_why) = match (s.store_override, saved) {
        (Some(StoreChoice::Keyring), _) => (StoreKind::Keyring, "YLEM_CREDENTIAL_STORE"),
        (Some(StoreChoice::File), _) => (StoreKind::File, "YLEM_CREDENTIAL_STORE"),
        (_, Some(k)) => (k, "chosen at login, saved in the profile"),
        (_, None) => (StoreKind::File, "no store saved in the profile"),
    };
    Ok(Resolved {
        name: s.profile.clone(),
        config_dir,
        profile,
        store,
        store_why,
    })
}

impl Resolved {
    pub fn store(&self) -> Store {
        Store::new(self.store, &self.config_dir, &self.name)
    }

    /// The base URL: `--base-url`/`YLEM_BASE_URL`, else the profile's.
    pub fn base_url(&self, s: &Settings) -> Option<String> {
        s.base_url
            .clone()
            .or_else(|| self.profile.as_ref().and_then(|p| p.base_url.clone()))
    }

    /// The token source of a logged-in profile.
    pub fn token_source(&self, s: &Settings, min_ttl: Duration) -> Result<StoredProfile> {
        let client_id = self
            .profile
            .as_ref()
            .and_then(|p| p.client_id.clone())
            .ok_or_else(|| not_logged_in(&self.name))?;
        Ok(StoredProfile::new(
            client_id,
            self.store(),
            &self.config_dir,
            &self.name,
            min_ttl,
            s.verbose > 0,
        ))
    }
}

pub fn not_logged_in(profile: &str) -> Error {
    let cmd = if profile == "default" {
        "ylemctl login".to_string()
    } else {
        format!("ylemctl -p {profile} login")
    };
    Error::auth(format!(
        "no credentials: profile '{profile}' is not logged in, and neither YLEM_TOKEN nor YLEM_CLIENT_ID/YLEM_CLIENT_SECRET is set"
    ))
    .with_hint(format!("run '{cmd}'"))
}

/// Whether the stored profile (in use, for the same base URL) remembers that
/// its server wants `YYYY-MM-DD 00:00:00` in aggregate requests.
pub fn aggregate_date_time(s: &Settings, config: Option<&ConfigFile>) -> bool {
    matches!(s.credentials, crate::settings::EnvCredentials::None)
        && resolve(s, config).ok().is_some_and(|r| {
            r.profile.as_ref().is_some_and(|p| {
                p.aggregate_date_time && (s.base_url.is_none() || s.base_url == p.base_url)
            })
        })
}

/// Remember that the server wants a time in aggregate requests; best effort
/// (a config that cannot be written only costs one 400 next time).
pub fn remember_aggregate_date_time(s: &Settings) {
    if !matches!(s.credentials, crate::settings::EnvCredentials::None) || s.base_url.is_some() {
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
