//! The row model: a column described once (its field name, its table
//! header, how a narrow table treats it and whether it keeps it longest,
//! whether a time shows its age), and
//! a row filled by column, never by position. Every renderer and the
//! fitting read these descriptions; the output layer names no command's
//! column.

use super::cell::Cell;

/// One column of a command's rows.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Column {
    /// The field name: JSON key, CSV header, what `--fields` takes.
    pub name: &'static str,
    /// The table's header (`--fields` takes it too).
    pub header: &'static str,
    pub fit: Fit,
    /// Kept longest by a narrow table (it names the row or says what went
    /// wrong): left out only after every other column, the highest order
    /// first. `None` for the rest.
    pub keep: Option<u8>,
    /// A kept column that names its row a second time (a log entry's task
    /// beside its run): once it is left out, the room it leaves may take
    /// ordinary columns back, as the row is named already. Any other kept
    /// column left out keeps ordinary columns out (`output::fit`).
    pub second_name: bool,
    /// A time shown with its age in a table (`2026-11-23 08:32 (3h ago)`).
    pub aged: bool,
    /// Other names `--fields` takes for it: the key or header of the
    /// column that says the same in another format (a board's `LAST_RUN`
    /// is `last_run_successful` in JSON), so one `--fields` list works in
    /// every format.
    pub also: &'static [&'static str],
    /// A value that says nothing when every row has it (a metric of 0):
    /// such a column is left out first, as an empty one.
    pub idle: Option<&'static str>,
    /// What the command line named already (the run of `logs --run`):
    /// left out before anything else.
    pub given: bool,
}

/// How a table too wide for the terminal treats a column.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Fit {
    /// Left out after every ranked column, from the right.
    Whole,
    /// Left out early: the lowest rank first.
    Ranked(u8),
    /// Free text (outputs, errors, evidence): shortened first, then left
    /// out by its rank.
    Free(u8),
}

impl Column {
    pub const fn new(name: &'static str, header: &'static str) -> Self {
        Column {
            name,
            header,
            fit: Fit::Whole,
            keep: None,
            second_name: false,
            aged: false,
            also: &[],
            idle: None,
            given: false,
        }
    }

    /// Other names `--fields` takes for the column (`Column::also`).
    pub const fn also(self, names: &'static [&'static str]) -> Self {
        Column {
            also: names,
            ..self
        }
    }

    /// Says nothing when every row shows `value` (`Column::idle`).
    pub const fn idle(self, value: &'static str) -> Self {
        Column {
            idle: Some(value),
            ..self
        }
    }

    /// Named on the command line already (`Column::given`).
    pub const fn given(self) -> Self {
        Column {
            given: true,
            ..self
        }
    }

    /// Whether `--fields` names this column by `f` (its key, its header or
    /// another name it has), in any case.
    pub fn answers_to(&self, f: &str) -> bool {
        let f = f.trim();
        self.name.eq_ignore_ascii_case(f)
            || self.header.eq_ignore_ascii_case(f)
            || self.also.iter().any(|a| a.eq_ignore_ascii_case(f))
    }

    /// Left out early on a narrow terminal, the lowest rank first.
    pub const fn ranked(self, rank: u8) -> Self {
        Column {
            fit: Fit::Ranked(rank),
            ..self
        }
    }

    /// Free text: shortened before anything is left out.
    pub const fn free(self, rank: u8) -> Self {
        Column {
            fit: Fit::Free(rank),
            ..self
        }
    }

    /// A time shown with its age in a table.
    pub const fn aged(self) -> Self {
        Column { aged: true, ..self }
    }

    /// Kept longest by a narrow table: it names the row or says what went
    /// wrong. Such columns are left out only when nothing else is left,
    /// the highest `order` first (0 is kept longest of all).
    pub const fn kept(self, order: u8) -> Self {
        Column {
            keep: Some(order),
            ..self
        }
    }

    /// Kept longest, though it names its row a second time: its room,
    /// once it is left out, may take ordinary columns back.
    pub const fn second_name(self) -> Self {
        Column {
            second_name: true,
            ..self
        }
    }

    pub fn is_free(&self) -> bool {
        matches!(self.fit, Fit::Free(_))
    }

    /// The order a narrow table leaves the column out in, if it is ranked.
    pub fn rank(&self) -> Option<u8> {
        match self.fit {
            Fit::Whole => None,
            Fit::Ranked(r) | Fit::Free(r) => Some(r),
        }
    }
}

/// The position of the column called `name` in `columns`. Used in a
/// `const`, a missing name fails the build.
pub const fn position(columns: &[Column], name: &str) -> usize {
    let mut i = 0;
    while i < columns.len() {
        if eq(columns[i].name, name) {
            return i;
        }
        i += 1;
    }
    panic!("no such column")
}

const fn eq(a: &str, b: &str) -> bool {
    let (a, b) = (a.as_bytes(), b.as_bytes());
    if a.len() != b.len() {
        return false;
    }
    let mut i = 0;
    while i < a.len() {
        if a[i] != b[i] {
            return false;
        }
        i += 1;
    }
    true
}

/// The field names of `columns`, in order.
pub fn names(columns: &[Column]) -> Vec<&'static str> {
    columns.iter().map(|c| c.name).collect()
}

/// A row being filled column by column: the cells come out in the order
/// of the columns it was made for, whatever order they were set in. A
/// value for a column the row does not have (a machine-only column in a
/// table) is dropped.
#[derive(Debug)]
pub struct Row<'c> {
    columns: &'c [Column],
    cells: Vec<Cell>,
}

impl<'c> Row<'c> {
    /// Every cell null until set.
    pub fn new(columns: &'c [Column]) -> Self {
        Row {
            columns,
            cells: vec![Cell::Null; columns.len()],
        }
    }

    pub fn set(&mut self, column: &Column, cell: Cell) -> &mut Self {
        if let Some(i) = self.columns.iter().position(|c| c.name == column.name) {
            self.cells[i] = cell;
        }
        self
    }

    pub fn into_cells(self) -> Vec<Cell> {
        self.cells
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const A: Column = Column::new("a", "A");
    const B: Column = Column::new("b", "B").free(3);
    const C: Column = Column::new("c", "C").aged().kept(2);

    #[test]
    fn a_row_comes_out_in_column_order() {
        let cols = [A, B];
        let mut r = Row::new(&cols);
        r.set(&B, Cell::Int(2))
            .set(&A, Cell::Int(1))
            .set(&C, Cell::Int(3));
        assert_eq!(r.into_cells(), [Cell::Int(1), Cell::Int(2)]);
    }

    #[test]
    fn positions_and_fits() {
        const AT: usize = position(&[A, B, C], "c");
        assert_eq!(AT, 2);
        assert!(B.is_free() && B.rank() == Some(3) && A.rank().is_none());
        const { assert!(C.aged && !A.aged) };
        assert_eq!((C.keep, A.keep), (Some(2), None));
    }
}
