//! Which entities `status`, `metrics serve` and `watch` are about: arguments
//! (`ID`, `ALIAS`, optionally prefixed `task:`, `pipeline:`, `workflow:`)
//! or, without any, every alias in the profile, each with its kind and the
//! alias that names it.

use std::collections::BTreeMap;

use uuid::Uuid;

use crate::context::Context;
use crate::error::{Error, Result};
use ylem_client::Entity;

/// One entity to report on.
#[derive(Debug, Clone, PartialEq)]
pub struct Target {
    pub kind: Entity,
    pub uuid: Uuid,
    pub alias: Option<String>,
}

type Aliases = BTreeMap<String, (Option<Entity>, Uuid)>;

fn aliases(ctx: &Context) -> Result<Aliases> {
    Ok(match ctx.config()? {
        Some(c) => c.alias_targets(&ctx.settings.profile)?,
        None => Aliases::new(),
    })
}

/// The entities of `args`; a prefix on an alias set with another kind is
/// a usage error (as in `last-run`), a prefix on a UUID names its kind,
/// and a bare UUID or alias without a kind is a pipeline. The same kind and UUID given twice is reported once.
pub fn resolve(ctx: &Context, args: &[String]) -> Result<Vec<Target>> {
    let all = aliases(ctx)?;
    let mut out: Vec<Target> = Vec::new();
    if args.is_empty() {
        if all.is_empty() {
            return Err(
                Error::usage("no IDs given, and the profile has no aliases").with_hint(
                    "name the IDs, or add aliases: 'ylemctl alias set orders pipeline:UUID'",
                ),
            );
        }
        for (name, (kind, uuid)) in all {
            push(
                &mut out,
                Target {
                    kind: kind.unwrap_or(Entity::Pipeline),
                    uuid,
                    alias: Some(name),
                },
            );
        }
        return Ok(out);
    }
    for a in args {
        let (prefix, rest) = Entity::split_prefix(a.trim());
        let t = match all.get(rest) {
            Some((kind, uuid)) => Target {
                kind: match prefix {
                    // A prefix that contradicts the alias's kind is the
                    // usage error every command about one kind gives.
                    Some(p) => ctx.resolve_id_as(p, rest).map(|_| p)?,
                    None => kind.unwrap_or(Entity::Pipeline),
                },
                uuid: *uuid,
                alias: Some(rest.to_string()),
            },
            None => {
                // A UUID, or a usage error naming the unknown alias.
                let uuid = ctx.resolve_id(rest)?;
                let named = all.iter().find(|(_, (_, u))| *u == uuid);
                Target {
                    kind: prefix
                        .or(named.and_then(|(_, (k, _))| *k))
                        .unwrap_or(Entity::Pipeline),
                    uuid,
                    alias: named.map(|(n, _)| n.clone()),
                }
            }
        };
        push(&mut out, t);
    }
    Ok(out)
}

fn push(out: &mut Vec<Target>, t: Target) {
    if !out.iter().any(|o| o.kind == t.kind && o.uuid == t.uuid) {
        out.push(t);
    }
}
