//! `ylemctl alias set|list|remove`: names for UUIDs, kept in the `[aliases]`
//! table of `config.toml` (read and checked by `config`) and accepted
//! wherever an ID is.

use std::collections::BTreeMap;

use crate::commands::kit::columns::{KIND, NAME, UUID};
use crate::commands::kit::conduct::Conduct;
use crate::commands::kit::wing::{self, Entry};
use crate::commands::local::args::{AliasArgs, AliasCommand};
use crate::config::ConfigFile;
use crate::config::aliases::check_alias_name;
use crate::context::Context;
use crate::credentials::profile;
use crate::error::{Error, Result};
use crate::output::{Cell, Column, Row, Shape};

/// Aliases are local: no login needed.
pub const CONDUCT: Conduct = Conduct::local("alias").json();

pub const COMMAND: Entry = Entry {
    command: <AliasArgs as clap::CommandFactory>::command,
    declared: CONDUCT,
    conduct: |_| CONDUCT,
    run: |m, ctx, _| {
        let args: AliasArgs = wing::args(m);
        wing::done(async move { run(&args.command, ctx).await })
    },
};

pub async fn run(cmd: &AliasCommand, ctx: &Context) -> Result<()> {
    let dir = profile::config_dir(ctx.settings.config_dir.as_deref())?;
    match cmd {
        AliasCommand::Set {
            name,
            uuid,
            profile_only,
        } => {
            check_alias_name(name)?;
            // `workflow:UUID` records the kind beside the UUID.
            let (kind, rest) = ylem_client::Entity::split_prefix(uuid.trim());
            let id = ctx.resolve_id(rest)?;
            let value = match kind {
                Some(k) => format!("{k}:{id}"),
                None => id.to_string(),
            };
            let profile = profile_only.then_some(ctx.settings.profile.as_str());
            let old = ConfigFile::update(&dir, |c| {
                c.aliases_for(&ctx.settings.profile)?;
                let old = alias_table(c.table_mut(), profile, true)
                    .and_then(|t| t.insert(name.clone(), toml::Value::String(value.clone())));
                Ok((true, old))
            })?;
            // A replaced alias names what it pointed at, so that a slip can
            // be undone with the value at hand.
            let was = match old {
                Some(toml::Value::String(o)) if o == value => " (unchanged)".to_string(),
                Some(toml::Value::String(o)) => format!(" (replaced {o})"),
                Some(o) => format!(" (replaced {o})"),
                None => String::new(),
            };
            ctx.note(&format!("{name} → {value}{was}"));
            Ok(())
        }
        AliasCommand::Remove { name, profile_only } => {
            let profile = profile_only.then_some(ctx.settings.profile.as_str());
            let removed = ConfigFile::update(&dir, |c| {
                c.aliases_for(&ctx.settings.profile)?;
                let gone = alias_table(c.table_mut(), profile, false)
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
                Some(c) => c.alias_targets(&ctx.settings.profile)?,
                None => BTreeMap::new(),
            };
            if *names {
                let text: String = all.keys().map(|k| format!("{k}\n")).collect();
                return ctx.write_out(text.as_bytes());
            }
            const COLUMNS: &[Column] = &[NAME, UUID, KIND];
            let mut p = ctx.printer(Shape::List, COLUMNS, false)?;
            for (k, (kind, v)) in all {
                let kind = kind.map(|e| Cell::Str(e.to_string())).unwrap_or(Cell::Null);
                let mut r = Row::new(COLUMNS);
                r.set(&NAME, Cell::Str(k))
                    .set(&UUID, Cell::Str(v.to_string()))
                    .set(&KIND, kind);
                p.row(r.into_cells())?;
            }
            p.finish(
                "no aliases: add one with 'ylemctl alias set NAME UUID'",
                &ctx.ui,
            )
        }
    }
}

/// The global `[aliases]` table, or profile `p`'s `[profiles.p.aliases]`;
/// made when `create` (setting), else `None` when absent.
fn alias_table<'t>(
    root: &'t mut toml::Table,
    profile: Option<&str>,
    create: bool,
) -> Option<&'t mut toml::Table> {
    fn child<'t>(t: &'t mut toml::Table, key: &str, create: bool) -> Option<&'t mut toml::Table> {
        if create {
            t.entry(key)
                .or_insert_with(|| toml::Value::Table(toml::Table::new()));
        }
        t.get_mut(key).and_then(|v| v.as_table_mut())
    }
    match profile {
        None => child(root, "aliases", create),
        Some(p) => {
            let profiles = child(root, "profiles", create)?;
            let own = child(profiles, p, create)?;
            child(own, "aliases", create)
        }
    }
}
