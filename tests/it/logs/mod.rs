//! `logs`: the endpoint in every format, whole output, bodies and their
//! decoding, streams that arrive in pieces, `--tail`, `--poll` and
//! `--follow`.

mod bodies;
mod endpoint;
mod follow;
mod pieces;
mod streaming;
mod tail_poll;
mod whole;
