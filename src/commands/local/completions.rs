//! `ylemctl completions SHELL`: print a completion script of the command
//! tree it is handed (`Below::tree`: this wing does not import the table).

use crate::commands::kit::conduct::Conduct;
use crate::commands::kit::exit::Exit;
use crate::commands::kit::wing::{self, Entry};
use crate::commands::local::args::CompletionsArgs;
use crate::context::Context;
use crate::error::Result;

pub const CONDUCT: Conduct = Conduct::local("completions");

pub const COMMAND: Entry = Entry {
    command: <CompletionsArgs as clap::CommandFactory>::command,
    declared: CONDUCT,
    conduct: |_| CONDUCT,
    run: |m, ctx, below| {
        let args: CompletionsArgs = wing::args(m);
        let done = run(&args, &mut (below.tree)(), ctx).map(|()| Exit::Success);
        Box::pin(std::future::ready(done))
    },
};

pub fn run(args: &CompletionsArgs, tree: &mut clap::Command, ctx: &Context) -> Result<()> {
    ctx.write_out(&crate::generate::completion(args.shell, tree))
}
