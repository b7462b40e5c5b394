//! `ylemctl completions SHELL`: print a completion script.

use crate::cli::CompletionsArgs;
use crate::commands::kit::conduct::Rules;
use crate::context::Context;
use crate::error::Result;

pub const RULES: Rules = Rules::local("completions");

pub fn run(args: &CompletionsArgs, ctx: &Context) -> Result<()> {
    ctx.write_out(&crate::generate::completion(args.shell))
}
