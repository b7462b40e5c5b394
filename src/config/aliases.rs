//! The `[aliases]` table of `config.toml`: names for UUIDs, accepted
//! wherever an ID is; how a name must look, and reading the table.

use std::collections::BTreeMap;

use uuid::Uuid;

use super::ConfigFile;
use crate::error::{Error, Result};

/// An alias: letters, digits, `-`, `_`, `.`; not a UUID, not starting with `-`.
pub fn check_alias_name(name: &str) -> Result<()> {
    let ok = !name.is_empty()
        && name.len() <= 64
        && !name.starts_with(['-', '.'])
        && name
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || matches!(c, '-' | '_' | '.'))
        && Uuid::parse_str(name).is_err();
    if ok {
        Ok(())
    } else {
        Err(Error::usage(format!(
            "invalid alias name '{name}': use up to 64 letters, digits, '-', '_' and '.', not starting with '-' or '.'"
        )))
    }
}

impl ConfigFile {
    /// The global `[aliases]`; a malformed table is an error naming the file.
    pub fn aliases(&self) -> Result<BTreeMap<String, Uuid>> {
        match self.table().get("aliases") {
            Some(v) => self.alias_table(v, "aliases"),
            None => Ok(BTreeMap::new()),
        }
    }

    /// The aliases profile `name` sees: the global ones, and its own
    /// `[profiles.NAME.aliases]`, which win (one name can mean the staging
    /// UUID in one profile and the production one in another).
    pub fn aliases_for(&self, name: &str) -> Result<BTreeMap<String, Uuid>> {
        let mut all = self.aliases()?;
        let own = self
            .table()
            .get("profiles")
            .and_then(|p| p.get(name))
            .and_then(|p| p.get("aliases"));
        if let Some(v) = own {
            all.extend(self.alias_table(v, &format!("profiles.{name}.aliases"))?);
        }
        Ok(all)
    }

    fn alias_table(&self, v: &toml::Value, at: &str) -> Result<BTreeMap<String, Uuid>> {
        let t = v
            .as_table()
            .ok_or_else(|| self.bad(&format!("'{at}' must be a table")))?;
        t.iter()
            .map(|(k, v)| {
                let u = v
                    .as_str()
                    .and_then(|s| Uuid::parse_str(s).ok())
                    .ok_or_else(|| self.bad(&format!("{at}.{k} must be a UUID string")))?;
                Ok((k.clone(), u))
            })
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names() {
        for ok in ["nightly", "orders-sync", "a.b_c", "X1"] {
            assert!(check_alias_name(ok).is_ok(), "{ok}");
        }
        for bad in [
            "",
            "-x",
            ".x",
            "a b",
            "ü",
            "3f2a1b4c-5d6e-4f70-8a9b-0c1d2e3f4a5b",
        ] {
            assert!(check_alias_name(bad).is_err(), "{bad}");
        }
    }
}
