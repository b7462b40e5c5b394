//! The scopes a token grants against what the endpoints need. The real
//! gateway guards reading with `stats:read` and starting pipeline runs with
//! `pipelines:run`; the spec's token grants `workflows:run` and does not
//! say which scope guards which endpoint.

/// A scope an endpoint needs, and what it is needed for.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Need {
    /// The scope's name.
    pub scope: &'static str,
    /// What it opens, in a few words.
    pub opens: &'static str,
}

/// The scopes the gateway's endpoints need.
pub const NEEDED: [Need; 3] = [
    Need {
        scope: "stats:read",
        opens: "statistics and logs",
    },
    Need {
        scope: "pipelines:run",
        opens: "starting pipeline runs",
    },
    Need {
        scope: "workflows:run",
        opens: "starting workflow runs",
    },
];

/// The scopes in a token response's `scope`: space-separated as OAuth
/// has it, or comma-separated as the real server writes them.
pub fn granted(scope: &str) -> Vec<String> {
    scope
        .split([' ', ','])
        .filter(|s| !s.is_empty())
        .map(str::to_string)
        .collect()
}

/// What a token granting `granted` cannot do. The spec's single
/// `workflows:run` (no per-endpoint scope granted at all) is read as the
/// spec has it: one scope for the whole API, nothing missing. Otherwise the
/// gateway's scopes are needed, `workflows:run` only where the server has
/// workflow endpoints.
pub fn missing(granted: &[String], workflows: bool) -> Vec<Need> {
    let has = |s: &str| granted.iter().any(|g| g == s);
    if has("workflows:run") && !has("stats:read") && !has("pipelines:run") {
        return Vec::new();
    }
    NEEDED
        .into_iter()
        .filter(|n| workflows || n.scope != "workflows:run")
        .filter(|n| !has(n.scope))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn names(v: Vec<Need>) -> Vec<&'static str> {
        v.into_iter().map(|n| n.scope).collect()
    }

    #[test]
    fn scopes_granted_and_missing() {
        assert_eq!(
            granted("stats:read pipelines:run"),
            ["stats:read", "pipelines:run"]
        );
        assert_eq!(
            granted("pipelines:run,stats:read"),
            ["pipelines:run", "stats:read"]
        );
        assert!(granted("").is_empty());
        let g = granted("workflows:run");
        assert!(missing(&g, true).is_empty());
        let g = granted("stats:read");
        assert_eq!(names(missing(&g, false)), ["pipelines:run"]);
        assert_eq!(names(missing(&g, true)), ["pipelines:run", "workflows:run"]);
        assert_eq!(names(missing(&[], false)), ["stats:read", "pipelines:run"]);
    }
}
