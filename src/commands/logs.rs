//! `ylemctl logs PIPELINE [WINDOW]`: a pipeline's run log (endpoint 4),
//! streamed entry by entry from the response to the output.

use super::follow;
use super::log_rows::{COLUMNS, COLUMNS_DECODED, Sink, print_entry};
use crate::api;
use crate::cli::LogsArgs;
use crate::context::Context;
use crate::error::Result;
use crate::output::{Shape, decode};

pub async fn run(args: &LogsArgs, ctx: &Context) -> Result<()> {
    let id = ctx.resolve_id(&args.pipeline)?;
    let run_filter = args
        .run
        .as_deref()
        .map(|r| ctx.resolve_id(r))
        .transpose()?
        .map(|u| u.to_string());
    if args.follow {
        follow::check_args(args.window.to.as_deref())?;
    }
    let key = args
        .decrypt_key_file
        .as_deref()
        .map(decode::read_key)
        .transpose()?;
    let decoder = (args.decode || key.is_some()).then(|| decode::Decoder::new(key));
    let columns = if decoder.is_some() {
        COLUMNS_DECODED
    } else {
        COLUMNS
    };
    let mut sink = Sink {
        printer: ctx.printer(Shape::List, columns, false)?,
        decoder,
        scratch: decode::Scratch::default(),
        undecodable: 0,
    };
    if args.follow {
        let w = &args.window;
        let since = match (&w.since, &w.from) {
            (None, None) => None,
            _ => Some(ctx.window(w)?.from),
        };
        let api = ctx.api()?;
        follow::follow(ctx, &api, id, run_filter, args.failed, since, &mut sink).await?;
        return follow::close(sink, ctx);
    }
    let window = ctx.window(&args.window)?;
    let api = ctx.api()?;
    let mut entries = api.pipeline_logs(id, &window).await?;
    // Rows go out in large writes while the response pours in, and as soon
    // as the stream stalls, so a reader never waits on a row already here.
    api::each_entry(
        &mut entries,
        run_filter.as_deref(),
        args.failed,
        &mut sink,
        |s| s.printer.flush(),
        |s, e| print_entry(s, &e),
    )
    .await?;
    let undecodable = sink.undecodable;
    sink.printer
        .finish("no log entries in the window", &ctx.ui)?;
    if undecodable > 0 {
        ctx.ui.warn(&format!(
            "{undecodable} outputs could not be decoded: see decode_error"
        ));
    }
    Ok(())
}
