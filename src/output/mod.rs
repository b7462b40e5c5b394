//! The row view (typed cells under the spec's field names) and the printer
//! that renders rows as a table, JSON, JSON lines or CSV, row by row where
//! the format allows so that long results stream. This file only declares
//! the parts and re-exports what the rest of the crate uses; each part
//! imports its siblings by their own paths.

mod cell;
pub(crate) mod chart;
pub(crate) mod column;
mod encode;
pub(crate) mod errors;
pub(crate) mod fit;
pub(crate) mod jq;
mod jq_guard;
mod jq_text;
mod jq_worker;
pub(crate) mod junit;
mod printer;
pub(crate) mod prometheus;
mod style;
pub(crate) mod table;
mod width;

pub use cell::{Cell, CellRef, Txt};
pub use column::{Column, Row};
/// How `--jq`'s limits are said (text or the JSON error object).
pub use jq_guard::errors_as_json as jq_limits_as_json;
pub use printer::Printer;
pub use style::{Shape, Style};
