//! The row view (typed cells under the spec's field names) and the printer
//! that renders rows as a table, JSON, JSON lines or CSV, row by row where
//! the format allows so that long results stream. This file only declares
//! the parts and re-exports what the rest of the crate uses; each part
//! imports its siblings by their own paths.

mod canonical;
mod cell;
pub(crate) mod chart;
pub(crate) mod column;
mod compact;
pub mod decode;
mod encode;
pub(crate) mod errors;
pub(crate) mod fit;
mod printer;
pub(crate) mod prometheus;
mod style;
pub(crate) mod table;
mod width;

/// `--decode`'s canonical check and compact rewrite by themselves, for the
/// differential tests and fuzz targets that hold them to serde_json
/// (`decode::Decoder` is the way in).
#[doc(hidden)]
pub use canonical::{Spans, is_canonical};
pub use cell::{Cell, CellRef, Txt};
pub use column::{Column, Row};
#[doc(hidden)]
pub use compact::{Compact, compact};
pub use printer::{Printer, TABLE_ROW_LIMIT, select};
pub use style::{Shape, Style};
