//! The service's vocabulary: what statistics are about (`Entity`), what a
//! run is started for (`RunKind`), and aggregate periods; each with its
//! names (`as_str`, `FromStr`) and every value (`ALL`), so that a command
//! line can offer them without this crate knowing how.

use std::fmt;
use std::str::FromStr;

/// What a statistics command is about.
///
/// Exhaustive on purpose (no `#[non_exhaustive]`): the spec's closed
/// set, which a caller may `match` without a `_` arm; a new one would be
/// a new version of the service's API and of this crate.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Entity {
    /// A task of a pipeline.
    Task,
    /// A pipeline.
    Pipeline,
    /// A workflow.
    Workflow,
}

impl Entity {
    /// Every value, in the order a person reads them.
    pub const ALL: [Entity; 3] = [Entity::Task, Entity::Pipeline, Entity::Workflow];

    /// Its name: `task`, `pipeline` or `workflow`.
    pub fn as_str(self) -> &'static str {
        match self {
            Entity::Task => "task",
            Entity::Pipeline => "pipeline",
            Entity::Workflow => "workflow",
        }
    }

    /// `task:`, `pipeline:` or `workflow:` at the start of `s`: the kind and
    /// the rest (`pipeline:ID`).
    pub fn split_prefix(s: &str) -> (Option<Entity>, &str) {
        for e in [Entity::Task, Entity::Pipeline, Entity::Workflow] {
            if let Some(rest) = s.strip_prefix(e.as_str()).and_then(|r| r.strip_prefix(':')) {
                return (Some(e), rest);
            }
        }
        (None, s)
    }

    /// The plural in endpoint paths (`/v1/stats/pipelines/...`).
    pub(crate) fn segment(self) -> &'static str {
        match self {
            Entity::Task => "tasks",
            Entity::Pipeline => "pipelines",
            Entity::Workflow => "workflows",
        }
    }
}

/// Things a run can be started for.
///
/// Exhaustive on purpose (no `#[non_exhaustive]`): the spec's closed
/// set, which a caller may `match` without a `_` arm; a new one would be
/// a new version of the service's API and of this crate.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum RunKind {
    /// A pipeline run.
    Pipeline,
    /// A workflow run.
    Workflow,
}

impl RunKind {
    /// Every value.
    pub const ALL: [RunKind; 2] = [RunKind::Pipeline, RunKind::Workflow];

    /// Its name: `pipeline` or `workflow`.
    pub fn as_str(self) -> &'static str {
        self.entity().as_str()
    }

    /// The same thing as a subject of statistics.
    pub fn entity(self) -> Entity {
        match self {
            RunKind::Pipeline => Entity::Pipeline,
            RunKind::Workflow => Entity::Workflow,
        }
    }
}

/// The length of an aggregate period.
///
/// Exhaustive on purpose (no `#[non_exhaustive]`): the spec's closed
/// set, which a caller may `match` without a `_` arm; a new one would be
/// a new version of the service's API and of this crate.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Period {
    /// A calendar day.
    Day,
    /// A week from Monday.
    Week,
    /// A calendar month.
    Month,
    /// A calendar quarter.
    Quarter,
    /// A calendar year.
    Year,
}

impl Period {
    /// Every value, shortest first.
    pub const ALL: [Period; 5] = [
        Period::Day,
        Period::Week,
        Period::Month,
        Period::Quarter,
        Period::Year,
    ];

    /// Its name: `day`, `week`, `month`, `quarter` or `year`.
    pub fn as_str(self) -> &'static str {
        match self {
            Period::Day => "day",
            Period::Week => "week",
            Period::Month => "month",
            Period::Quarter => "quarter",
            Period::Year => "year",
        }
    }
}

impl fmt::Display for Entity {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

impl fmt::Display for RunKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

impl fmt::Display for Period {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// A name none of a kind's values has.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct UnknownName(pub String);

impl fmt::Display for UnknownName {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "unknown name '{}'", self.0)
    }
}

impl std::error::Error for UnknownName {}

/// `FromStr` by the names `as_str` gives, exactly.
macro_rules! from_name {
    ($t:ty) => {
        impl FromStr for $t {
            type Err = UnknownName;
            fn from_str(s: &str) -> Result<Self, UnknownName> {
                <$t>::ALL
                    .into_iter()
                    .find(|v| v.as_str() == s)
                    .ok_or_else(|| UnknownName(s.to_string()))
            }
        }
    };
}

from_name!(Entity);
from_name!(RunKind);
from_name!(Period);

#[cfg(test)]
mod tests {
    use super::*;

    /// The names in paths and messages are the names `FromStr` takes.
    #[test]
    fn names_round_trip() {
        for v in Entity::ALL {
            assert_eq!(v.to_string().parse::<Entity>(), Ok(v));
        }
        for v in RunKind::ALL {
            assert_eq!(v.to_string().parse::<RunKind>(), Ok(v));
        }
        for v in Period::ALL {
            assert_eq!(v.to_string().parse::<Period>(), Ok(v));
        }
        assert!("Task".parse::<Entity>().is_err());
    }
}
