//! `ylemctl alias set|list|remove`: names for UUIDs, kept in the `[aliases]`
//! table of `config.toml` (read and checked by `config`) and accepted
//! wherever an ID is.

use std::collections::BTreeMap;

use crate::auth::profile;
use crate::cli::AliasCommand;
use crate::config::ConfigFile;
use crate::config::aliases::check_alias_name;
use crate::context::Context;
use crate::error::{Error, Result};
use crate::output::{Cell, Shape};

pub async fn run(cmd: &AliasCommand, ctx: &Context) -> Result<()> {
    let dir = profile::config_dir(ctx.settings.config_dir.as_deref())?;
    match cmd {
        AliasCommand::Set { name, uuid } => {
            check_alias_name(name)?;
            let id = ctx.resolve_id(uuid)?;
            ConfigFile::update(&dir, |c| {
                c.aliases()?;
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
                c.aliases()?;
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
                Some(c) => c.aliases_for(&ctx.settings.profile)?,
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
                &ctx.ui,
            )
        }
    }
}
