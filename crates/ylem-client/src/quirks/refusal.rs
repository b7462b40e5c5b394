//! A run start the service refused with 403, told apart: the real server
//! answers a paused pipeline and another organisation's alike (an empty
//! 403), but only another organisation's entity is refused its statistics
//! too, so one statistics request says which it is. A token whose response
//! named its scopes without the one that starts this kind of run
//! (`pipelines:run`, the spec's `workflows:run` for workflows) needs no
//! request: that is the cause. What to do about it is the caller's to word
//! (`NotStarted` says which case it is).

use bytes::Bytes;
use uuid::Uuid;

use crate::api::Client;
use crate::api::models::RunStart;
use crate::error::Error;
use crate::kinds::RunKind;
use crate::time::Window;

/// Why a run did not start: each error says what happened (the 403s with
/// what the statistics request told), the variant which case it is.
#[derive(Debug)]
pub enum NotStarted {
    /// A 403, and the entity's statistics are refused too: another
    /// organisation's entity (or a token without the statistics scope).
    Elsewhere(Error),
    /// A 403 for an entity whose statistics can be read: a paused pipeline
    /// (or a token without the scope to start runs); `true` when the token
    /// response named the scope among those granted (so it is the pause).
    Paused(Error, bool),
    /// A 403 to a token whose response named its scopes, without the one
    /// this start needs (named).
    MissingScope(Error, &'static str),
    /// Any other failure, as the request gave it.
    Failed(Error),
}

impl NotStarted {
    /// The error, whichever the case.
    pub fn into_error(self) -> Error {
        match self {
            NotStarted::Elsewhere(e)
            | NotStarted::Paused(e, _)
            | NotStarted::MissingScope(e, _)
            | NotStarted::Failed(e) => e,
        }
    }
}

/// Start a run; a 403 is asked about once and told apart.
pub async fn start_run(
    api: &Client,
    kind: RunKind,
    id: Uuid,
    input: Option<&Bytes>,
) -> Result<RunStart, NotStarted> {
    match api.start_run_with(kind, id, input).await {
        Ok(s) => Ok(s),
        Err(e) if e.status == Some(403) => Err(explain(api, kind, id, e).await),
        Err(e) => Err(NotStarted::Failed(e)),
    }
}

/// The scope a run start of `kind` needs, when the token's response
/// named its scopes and that one is not among them. The spec's lone
/// `workflows:run` is its one scope for the whole API: it lacks nothing.
pub(crate) fn lacking(kind: RunKind, granted: Option<&str>) -> Option<&'static str> {
    // Space-separated as OAuth has it, or comma-separated as the real
    // server writes them (as `diagnose::scopes::granted` reads them).
    let granted = granted?;
    let has = |s: &str| granted.split([' ', ',']).any(|g| g == s);
    let needed = match kind {
        RunKind::Pipeline if has("workflows:run") && !has("stats:read") => return None,
        RunKind::Pipeline => "pipelines:run",
        RunKind::Workflow => "workflows:run",
    };
    (!has(needed)).then_some(needed)
}

async fn explain(api: &Client, kind: RunKind, id: Uuid, e: Error) -> NotStarted {
    let granted = api.token_source().granted();
    if let Some(scope) = lacking(kind, granted.as_deref()) {
        let what = match granted.as_deref().map(str::trim) {
            Some("") | None => "none".to_string(),
            Some(g) => g.to_string(),
        };
        return NotStarted::MissingScope(
            e.context(format!(
                "the token lacks the {scope} scope (its token response granted {what})"
            )),
            scope,
        );
    }
    let now = chrono::Utc::now();
    let w = Window {
        from: now - chrono::Duration::days(90),
        to: now,
    };
    let stats = api.range_stats(kind.entity(), id, &w).await;
    match stats {
        Err(s) if s.status == Some(403) => {
            NotStarted::Elsewhere(e.context(format!("the {kind} belongs to another organisation")))
        }
        _ => NotStarted::Paused(
            e.context(format!("the {kind} is paused")),
            granted.is_some(),
        ),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_scope_a_start_lacks_is_named_from_the_token_response() {
        let p = RunKind::Pipeline;
        assert_eq!(lacking(p, Some("stats:read")), Some("pipelines:run"));
        assert_eq!(lacking(p, Some("")), Some("pipelines:run"));
        assert_eq!(lacking(p, Some("pipelines:run,stats:read")), None);
        assert_eq!(
            lacking(p, Some("workflows:run")),
            None,
            "the spec's one scope"
        );
        assert_eq!(lacking(p, None), None, "not known: not guessed");
        let w = RunKind::Workflow;
        assert_eq!(
            lacking(w, Some("stats:read pipelines:run")),
            Some("workflows:run")
        );
        assert_eq!(lacking(w, Some("workflows:run")), None);
    }
}
