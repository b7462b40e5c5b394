//! The `[aliases]` table of `config.toml`: names for UUIDs, accepted
//! wherever an ID is; how a name must look, and reading the table.

use std::collections::BTreeMap;

use uuid::Uuid;

use super::file::ConfigFile;
use crate::error::{Error, Result};
use ylem_client::Entity;

/// Aliases by name, each with the kind it was set with (if any).
pub type Targets = BTreeMap<String, (Option<Entity>, Uuid)>;

/// The names nearest to a mistyped `name` (at most 3, by edit distance,
/// within a third of its length and at least 2), for "did you mean".
pub fn nearest<'a>(name: &str, names: &[&'a str]) -> Vec<&'a str> {
    let limit = (name.chars().count() / 3).max(2);
    let mut near: Vec<(usize, &str)> = names
        .iter()
        .map(|n| (distance(&name.to_lowercase(), &n.to_lowercase()), *n))
        .filter(|(d, _)| *d <= limit)
        .collect();
    near.sort();
    near.into_iter().take(3).map(|(_, n)| n).collect()
}

/// Levenshtein distance, by characters.
fn distance(a: &str, b: &str) -> usize {
    let b: Vec<char> = b.chars().collect();
    let mut prev: Vec<usize> = (0..=b.len()).collect();
    for (i, ca) in a.chars().enumerate() {
        let mut cur = vec![i + 1];
        for (j, cb) in b.iter().enumerate() {
            let sub = prev[j] + usize::from(ca != *cb);
            cur.push(sub.min(prev[j + 1] + 1).min(cur[j] + 1));
        }
        prev = cur;
    }
    prev[b.len()]
}

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
    /// The aliases profile `name` sees: the global ones, and its own
    /// `[profiles.NAME.aliases]`, which win (one name can mean the staging
    /// UUID in one profile and the production one in another).
    pub fn aliases_for(&self, name: &str) -> Result<BTreeMap<String, Uuid>> {
        Ok(strip_kinds(self.alias_targets(name)?))
    }

    /// `aliases_for`, with the kind each alias was set with, if any: a value
    /// is `UUID` (as older versions wrote) or `KIND:UUID`.
    pub fn alias_targets(&self, name: &str) -> Result<BTreeMap<String, (Option<Entity>, Uuid)>> {
        let mut all = self.alias_table(self.table().get("aliases"), "aliases")?;
        let own = self
            .table()
            .get("profiles")
            .and_then(|p| p.get(name))
            .and_then(|p| p.get("aliases"));
        all.extend(self.alias_table(own, &format!("profiles.{name}.aliases"))?);
        Ok(all)
    }

    fn alias_table(
        &self,
        v: Option<&toml::Value>,
        at: &str,
    ) -> Result<BTreeMap<String, (Option<Entity>, Uuid)>> {
        let Some(v) = v else {
            return Ok(BTreeMap::new());
        };
        let t = v
            .as_table()
            .ok_or_else(|| self.bad(&format!("'{at}' must be a table")))?;
        t.iter()
            .map(|(k, v)| {
                let target = v
                    .as_str()
                    .map(Entity::split_prefix)
                    .and_then(|(kind, s)| Some((kind, Uuid::parse_str(s).ok()?)))
                    .ok_or_else(|| {
                        self.bad(&format!("{at}.{k} must be a string UUID or KIND:UUID"))
                    })?;
                Ok((k.clone(), target))
            })
            .collect()
    }
}

fn strip_kinds(m: BTreeMap<String, (Option<Entity>, Uuid)>) -> BTreeMap<String, Uuid> {
    m.into_iter().map(|(k, (_, u))| (k, u)).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn nearest_names_for_a_typo() {
        let names = ["orders", "triage", "nightly-sync"];
        assert_eq!(nearest("ordres", &names), ["orders"]);
        assert_eq!(nearest("nightly", &names), Vec::<&str>::new());
        assert_eq!(nearest("nightlysync", &names), ["nightly-sync"]);
        assert_eq!(nearest("zzz", &names), Vec::<&str>::new());
    }

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
