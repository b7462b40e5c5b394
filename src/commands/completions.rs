//! `ylemctl completions SHELL`: print a completion script.

use crate::cli::{self, CompletionsArgs};
use crate::context::Context;
use crate::error::Result;

pub fn run(args: &CompletionsArgs, ctx: &Context) -> Result<()> {
    let mut buf = Vec::new();
    clap_complete::generate(args.shell, &mut cli::command(), "ylemctl", &mut buf);
    ctx.write_out(&buf)
}
