//! A profile's `token_params = "query"` in config.toml: whether a profile
//! remembers that its token endpoint reads only the query string, and the
//! `TokenParams` the CLI hands the client, whose learning is warned about
//! (and, for a profile, remembered, so the next command asks so at once).

use std::path::{Path, PathBuf};

use ylem_client::auth::token_params::TokenParams;

use crate::config::ConfigFile;
use crate::error::Result;
use crate::ui::Ui;

/// The profile key and its one value (its absence means the body).
const KEY: &str = "token_params";
const QUERY: &str = "query";

/// The body first; a query form learnt is warned about and kept in this
/// process only (environment credentials, `login` before it saves).
pub fn warned(ui: Ui) -> TokenParams {
    TokenParams::body_first().on_learnt(move |service, what| learnt(ui, service, what, ""))
}

/// For a stored profile: the form it remembers (`query`), and a form
/// learnt is remembered there (best effort: a config that cannot be
/// written costs one refused request next time).
pub fn for_profile(ui: Ui, config_dir: &Path, name: &str, query: bool) -> TokenParams {
    let (dir, name): (PathBuf, String) = (config_dir.to_path_buf(), name.to_string());
    TokenParams::remembered(query).on_learnt(move |service, what| {
        let kept = match remember(&dir, &name, true) {
            Ok(true) => {
                format!("; profile '{name}' remembers this ({KEY} = \"{QUERY}\" in config.toml)")
            }
            _ => String::new(),
        };
        learnt(ui, service, what, &kept)
    })
}

/// The server took the query form after refusing the body: say what it
/// costs (`what`: the secret the query carried).
fn learnt(ui: Ui, service: &str, what: &str, kept: &str) {
    ui.warn(&format!(
        "the token endpoint at {service} refused its parameters in the request body and took them in the URL: the {what} now reaches the server's access logs (and any proxy's){kept}"
    ));
}

/// Whether profile `name` of `config` remembers the query form.
pub fn remembered(config: &ConfigFile, name: &str) -> bool {
    config
        .table()
        .get("profiles")
        .and_then(|p| p.get(name))
        .and_then(|p| p.get(KEY))
        .and_then(|v| v.as_str())
        == Some(QUERY)
}

/// Set (`query`) or clear the profile's key, re-read under the config lock;
/// whether the profile exists (nothing is written for one that does not).
pub fn remember(dir: &Path, name: &str, query: bool) -> Result<bool> {
    ConfigFile::update(dir, |c| match set_in(c, name, query) {
        None => Ok((false, false)),
        Some(changed) => Ok((changed, true)),
    })
}

/// Set or clear the key in `c` (a login saves it with the profile, in one
/// write); `None` without such a profile, else whether it changed.
pub fn set_in(c: &mut ConfigFile, name: &str, query: bool) -> Option<bool> {
    let t = c
        .table_mut()
        .get_mut("profiles")
        .and_then(|p| p.get_mut(name))
        .and_then(|p| p.as_table_mut())?;
    let had = t.get(KEY).and_then(|v| v.as_str()) == Some(QUERY);
    if had == query {
        return Some(false);
    }
    if query {
        t.insert(KEY.into(), toml::Value::String(QUERY.into()));
    } else {
        t.remove(KEY);
    }
    Some(true)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_profile_remembers_the_query_form_and_forgets_it() {
        let dir = tempfile::tempdir().unwrap();
        assert!(!remember(dir.path(), "p", true).unwrap(), "no such profile");
        std::fs::write(
            dir.path().join("config.toml"),
            "[profiles.p]\nclient_id = \"c\"\n",
        )
        .unwrap();
        assert!(remember(dir.path(), "p", true).unwrap());
        let c = ConfigFile::load(dir.path()).unwrap();
        assert!(remembered(&c, "p") && !remembered(&c, "q"));
        assert_eq!(
            c.profile("p").unwrap().unwrap().client_id.as_deref(),
            Some("c")
        );
        assert!(remember(dir.path(), "p", false).unwrap());
        assert!(!remembered(&ConfigFile::load(dir.path()).unwrap(), "p"));
    }
}
