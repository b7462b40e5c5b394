//! A command's one declaration, an `Entry` of the table `commands::WINGS`:
//! its clap definition, what it declares to the runner (`Conduct`) and how
//! it runs. What a few commands need from above the wings (the tree for
//! `completions`, parsing and dispatching for `demo`) is handed down in
//! `Below`, so no wing imports `commands/mod.rs`.

use std::future::Future;
use std::pin::Pin;

use clap::{ArgMatches, FromArgMatches};

use crate::cli::GlobalArgs;
use crate::commands::kit::conduct::Conduct;
use crate::commands::kit::exit::Exit;
use crate::context::Context;
use crate::error::Result;

/// A command's run, boxed: the table holds one function type for all.
pub type Ran<'a> = Pin<Box<dyn Future<Output = Result<Exit>> + 'a>>;

pub struct Entry {
    /// Its clap definition (`<XArgs as clap::CommandFactory>::command`).
    pub command: fn() -> clap::Command,
    /// What it declares whatever its arguments (its name, flag advice and
    /// usage line), for the errors clap reports before there is a parsed
    /// command.
    pub declared: Conduct,
    /// What it declares once parsed (`--wait` changes `run`'s signals).
    pub conduct: fn(&ArgMatches) -> Conduct,
    /// Its run, given its own matches.
    pub run: for<'a> fn(&'a ArgMatches, &'a Context, &'a Below) -> Ran<'a>,
}

/// A parsed command line: the global options, the command's entry and
/// its own matches.
pub struct Parsed {
    pub global: GlobalArgs,
    pub entry: &'static Entry,
    pub matches: ArgMatches,
}

impl Parsed {
    pub fn conduct(&self) -> Conduct {
        (self.entry.conduct)(&self.matches)
    }
}

/// Runs a parsed command as the command line does (`demo`'s steps).
pub type Dispatch = for<'a> fn(&'a Parsed, &'a Context) -> Ran<'a>;

/// Parses a command line, the program's name first (`demo`'s steps).
pub type Parse = fn(&[&str]) -> std::result::Result<Parsed, clap::Error>;

/// What `commands/mod.rs` hands every run.
pub struct Below {
    // `demo`'s, which a build without the sandbox has not.
    #[cfg_attr(not(feature = "sandbox"), allow(dead_code))]
    pub dispatch: Dispatch,
    #[cfg_attr(not(feature = "sandbox"), allow(dead_code))]
    pub parse: Parse,
    /// The whole command tree (`completions`).
    pub tree: fn() -> clap::Command,
}

/// A command's arguments from its matches; clap has checked them against
/// the same definition, so they always read.
pub fn args<A: FromArgMatches>(m: &ArgMatches) -> A {
    A::from_arg_matches(m).expect("clap checked the arguments against this definition")
}

/// A run that ends with no status of its own: exit 0 when it is `Ok`.
pub fn done<'a>(run: impl Future<Output = Result<()>> + 'a) -> Ran<'a> {
    Box::pin(async move { run.await.map(|()| Exit::Success) })
}
