//! Which profile, credential store and base URL a command uses, and why:
//! shared by the commands that use a stored login and by `auth status`.
//! The caller (the context) hands in what the settings say.

use std::path::{Path, PathBuf};
use std::time::Duration;

use super::binding::{self, Given};
use super::store::{Store, StoreKind};
use super::stored::StoredProfile;
use crate::config::{ConfigFile, Profile, check_profile_name};
use crate::error::{Error, Result};
use crate::ui::Ui;
use ylem_client::auth::binding::{Binding, same_service};

pub struct Resolved {
    pub name: String,
    pub config_dir: PathBuf,
    /// `None` when the config file has no such profile.
    pub profile: Option<Profile>,
    pub store: StoreKind,
    /// Why that store, for `auth status`.
    pub store_why: &'static str,
    /// The profile remembers that its token endpoint reads only the query.
    pub token_query: bool,
}

/// The config directory, or a usage error saying how to name one.
pub fn config_dir(dir: Option<&Path>) -> Result<PathBuf> {
    dir.map(Path::to_path_buf).ok_or_else(|| {
        Error::usage("no config directory: there is no home directory")
            .with_hint("set YLEM_CONFIG_DIR (or HOME)")
    })
}

/// Find profile `name` in `config` (the command's config file, `None`
/// without a config directory) and decide its store (reading, not `login`);
/// `store_override` is `YLEM_CREDENTIAL_STORE`'s choice, if it makes one.
pub fn resolve(
    name: &str,
    config_dir: Option<&Path>,
    store_override: Option<StoreKind>,
    config: Option<&ConfigFile>,
) -> Result<Resolved> {
    check_profile_name(name)?;
    // Without a config directory nothing can have been saved.
    let (Some(config_dir), Some(config)) = (config_dir, config) else {
        return Err(Error::auth(format!(
            "no credentials: there is no home directory to find profile '{name}' in, and neither YLEM_TOKEN nor YLEM_CLIENT_ID/YLEM_CLIENT_SECRET is set"
        ))
        .with_hint("set YLEM_CONFIG_DIR to the directory holding config.toml (or HOME), or set YLEM_TOKEN or YLEM_CLIENT_ID and YLEM_CLIENT_SECRET"));
    };
    let profile = config.profile(name)?;
    let saved = profile
        .as_ref()
        .and_then(|p| p.store.as_deref())
        .and_then(StoreKind::parse);
    let (store, store_why) = match (store_override, saved) {
        (Some(k), _) => (k, "YLEM_CREDENTIAL_STORE"),
        (_, Some(k)) => (k, "chosen at login, saved in the profile"),
        (_, None) => (StoreKind::File, "no store saved in the profile"),
    };
    Ok(Resolved {
        name: name.to_string(),
        config_dir: config_dir.to_path_buf(),
        profile,
        store,
        store_why,
        token_query: super::token_params::remembered(config, name),
    })
}

impl Resolved {
    pub fn store(&self) -> Store {
        Store::new(self.store, &self.config_dir, &self.name)
    }

    /// The base URL: `given` (`--base-url`/`YLEM_BASE_URL`), else the profile's.
    pub fn base_url(&self, given: Option<&str>) -> Option<String> {
        given
            .map(str::to_string)
            .or_else(|| self.profile.as_ref().and_then(|p| p.base_url.clone()))
    }

    /// The profile has no login: say where it was looked for, so a
    /// mistyped YLEM_CONFIG_DIR or a missing HOME shows.
    fn not_logged_in(&self) -> Error {
        let file = self.config_dir.join("config.toml");
        let found = if file.exists() { "" } else { " (no such file)" };
        let e = not_logged_in(&self.name);
        Error {
            message: format!("{}; looked in {}{found}", e.message, file.display()),
            ..e
        }
        .with_hint(format!(
            "{}, or set YLEM_CONFIG_DIR to the directory holding your config.toml",
            e_hint(&self.name)
        ))
    }

    /// The base URL the profile logged in to: its credentials' service.
    pub fn saved_base_url(&self) -> Option<&str> {
        self.profile.as_ref().and_then(|p| p.base_url.as_deref())
    }

    /// The service and client id the profile's credentials are bound to;
    /// `None` before a login (or without a saved base URL).
    pub fn binding(&self) -> Option<Binding> {
        let p = self.profile.as_ref()?;
        Some(Binding::new(
            p.base_url.as_deref()?,
            p.client_id.as_deref()?,
        ))
    }

    /// Refuse a base URL (`given`, from the flag or the environment) that
    /// names another service than the profile's: its stored credentials
    /// would go there. `config` is searched for a profile logged in to
    /// `given`, to name in the hint.
    pub fn check_service(
        &self,
        given: Option<&str>,
        from: Given,
        config: Option<&ConfigFile>,
    ) -> Result<()> {
        let (Some(given), Some(saved)) = (given, self.saved_base_url()) else {
            return Ok(());
        };
        if same_service(given, saved) {
            return Ok(());
        }
        let other = config.and_then(|c| logged_in_to(c, given));
        Err(binding::refusal(
            &self.name,
            saved,
            given,
            from,
            other.as_deref(),
        ))
    }

    /// The token source of a logged-in profile, bound to the base URL it
    /// logged in to. `ui` says at `-v` why a refresh or a cache write failed.
    pub fn token_source(&self, min_ttl: Duration, ui: Ui) -> Result<StoredProfile> {
        let client_id = self
            .profile
            .as_ref()
            .and_then(|p| p.client_id.clone())
            .ok_or_else(|| self.not_logged_in())?;
        let base_url = self
            .saved_base_url()
            .ok_or_else(|| binding::unbound(&self.name))?;
        Ok(StoredProfile::new(
            client_id,
            base_url,
            self.store(),
            &self.config_dir,
            &self.name,
            min_ttl,
            ui,
            self.token_query,
        ))
    }
}

/// The first profile (by name) logged in to the service `url` names.
fn logged_in_to(config: &ConfigFile, url: &str) -> Option<String> {
    let mut names = config.table().get("profiles")?.as_table()?.keys();
    names
        .find(|name| {
            config.profile(name).ok().flatten().is_some_and(|p| {
                p.client_id.is_some() && p.base_url.is_some_and(|b| same_service(&b, url))
            })
        })
        .cloned()
}

pub fn not_logged_in(profile: &str) -> Error {
    Error::auth(format!(
        "no credentials: profile '{profile}' is not logged in, and neither YLEM_TOKEN nor YLEM_CLIENT_ID/YLEM_CLIENT_SECRET is set"
    ))
    .with_hint(e_hint(profile))
}

fn e_hint(profile: &str) -> String {
    if profile == "default" {
        "run 'ylemctl login'".to_string()
    } else {
        format!("run 'ylemctl -p {profile} login'")
    }
}
