//! `ylemctl alias set|list|remove`: names for UUIDs, kept in the `[aliases]`
//! table of `config.toml` and accepted wherever an ID is.

use std::collections::BTreeMap;

use uuid::Uuid;

use crate::auth::profile;
use crate::cli::AliasCommand;
use crate::config::ConfigFile;
use crate::context::Context;
use crate::error::{Error, Result};
use crate::output::{Cell, Shape};

/// An alias: letters, digits, `-`, `_`, `.`; not a UUID, not starting with `-`.
pub fn check_name(name: &str) -> Result<()> {
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

/// Every alias in the file; a malformed table is an error naming the file.
pub fn read(cfg: &ConfigFile) -> Result<BTreeMap<String, Uuid>> {
    let bad = |what: String| {
        Error::usage(format!(
            "invalid config file {}: {what}",
            cfg.path.display()
        ))
        .with_hint("fix the file by hand; ylemctl does not overwrite a file it cannot read")
    };
    let Some(v) = cfg.table().get("aliases") else {
        return Ok(BTreeMap::new());
    };
    let t = v
        .as_table()
        .ok_or_else(|| bad("'aliases' must be a table".into()))?;
    t.iter()
        .map(|(k, v)| {
            let u = v
                .as_str()
                .and_then(|s| Uuid::parse_str(s).ok())
                .ok_or_else(|| bad(format!("aliases.{k} must be a UUID string")))?;
            Ok((k.clone(), u))
        })
        .collect()
}

pub async fn run(cmd: &AliasCommand, ctx: &Context) -> Result<()> {
    let dir = profile::config_dir(&ctx.settings)?;
    match cmd {
        AliasCommand::Set { name, uuid } => {
            check_name(name)?;
            let id = ctx.resolve_id(uuid)?;
            ConfigFile::update(&dir, |c| {
                read(c)?;
                let t = c
                    .table_mut()
                    .entry("aliases")
                    .or_insert_with(|| toml::Value::Table(toml::Table::new()));
                if let Some(t) = t.as_table_mut() {
                    t.insert(name.clone(), toml::Value::String(id.to_string()));
                }
                Ok((true, ()))
            })?;
            ctx.note(&format!("{name} → {id}"));
            Ok(())
        }
        AliasCommand::Remove { name } => {
            let removed = ConfigFile::update(&dir, |c| {
                read(c)?;
                let gone = c
                    .table_mut()
                    .get_mut("aliases")
                    .and_then(|t| t.as_table_mut())
                    .and_then(|t| t.remove(name))
                    .is_some();
                Ok((gone, gone))
            })?;
            if removed {
                Ok(())
            } else {
                Err(Error::usage(format!("no alias '{name}'"))
                    .with_hint("see 'ylemctl alias list'"))
            }
        }
        AliasCommand::List { names } => {
            let all = match ctx.config()? {
                Some(c) => read(c)?,
                None => BTreeMap::new(),
            };
            if *names {
                let text: String = all.keys().map(|k| format!("{k}\n")).collect();
                return ctx.write_out(text.as_bytes());
            }
            let mut p = ctx.printer(Shape::List, &["name", "uuid"], false)?;
            for (k, v) in all {
                p.row(vec![Cell::Str(k), Cell::Str(v.to_string())])?;
            }
            p.finish(
                "no aliases: add one with 'ylemctl alias set NAME UUID'",
                ctx.settings.quiet,
            )
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names() {
        for ok in ["nightly", "orders-sync", "a.b_c", "X1"] {
            assert!(check_name(ok).is_ok(), "{ok}");
        }
        for bad in [
            "",
            "-x",
            ".x",
            "a b",
            "ü",
            "3f2a1b4c-5d6e-4f70-8a9b-0c1d2e3f4a5b",
        ] {
            assert!(check_name(bad).is_err(), "{bad}");
        }
    }
}
