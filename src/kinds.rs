//! The service's vocabulary shared by every layer: what statistics are about
//! (`Entity`), what a run is started for (`RunKind`), and aggregate periods.
//! clap's `ValueEnum` is derived here so the command line takes them as is.

use std::fmt;

use clap::ValueEnum;

/// What a statistics command is about.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum Entity {
    Task,
    Pipeline,
    Workflow,
}

impl Entity {
    pub fn as_str(self) -> &'static str {
        match self {
            Entity::Task => "task",
            Entity::Pipeline => "pipeline",
            Entity::Workflow => "workflow",
        }
    }

    /// `task:`, `pipeline:` or `workflow:` at the start of `s`: the kind and
    /// the rest (`status` arguments, alias values).
    pub fn split_prefix(s: &str) -> (Option<Entity>, &str) {
        for e in [Entity::Task, Entity::Pipeline, Entity::Workflow] {
            if let Some(rest) = s.strip_prefix(e.as_str()).and_then(|r| r.strip_prefix(':')) {
                return (Some(e), rest);
            }
        }
        (None, s)
    }

    /// The plural in endpoint paths (`/v1/stats/pipelines/...`).
    pub fn segment(self) -> &'static str {
        match self {
            Entity::Task => "tasks",
            Entity::Pipeline => "pipelines",
            Entity::Workflow => "workflows",
        }
    }
}

/// Things a run can be started for.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum RunKind {
    Pipeline,
    Workflow,
}

impl RunKind {
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

#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum Period {
    Day,
    Week,
    Month,
    Quarter,
    Year,
}

impl Period {
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

#[cfg(test)]
mod tests {
    use super::*;

    /// The names in paths and messages are the names the command line takes.
    #[test]
    fn names_match_the_command_line() {
        fn check<T: ValueEnum + fmt::Display>() {
            for v in T::value_variants() {
                let pv = v.to_possible_value().unwrap();
                assert_eq!(pv.get_name(), v.to_string());
            }
        }
        check::<Entity>();
        check::<RunKind>();
        check::<Period>();
    }
}
