//! `excel.read_data` (calamine) and `excel.write` (rust_xlsxwriter).
//!
//! Reading: numbers come out as numbers (whole numbers as integers), date cells as
//! `YYYY-MM-DD` text (`YYYY-MM-DD HH:MM:SS` when they have a time, `HH:MM:SS` for times alone),
//! empty cells as null, error cells as their text (`#N/A`), and rows that are entirely empty are
//! skipped. Writing: JSON numbers become numbers, `true`/`false` booleans, text that is exactly
//! `YYYY-MM-DD` (or `YYYY-MM-DD HH:MM[:SS]`) a real Excel date shown the same way, other text
//! stays text (codes like `00123` keep their zeros), lists and objects are written as JSON text.

//!
//! Reading is bounded and streamed (`sheet_cells.rs`): a workbook's zip parts are checked before
//! anything inflates them, a sheet's cells are read one at a time into the table's columns
//! (`sheet_table.rs`), and a table of more than [`sheet_cells::MAX_CELLS`] cells is refused, so
//! a small file that expands to gigabytes is refused with the limit it broke, never read into
//! memory.

mod read;
mod sheet_cells;
mod sheet_table;
mod write;

pub use read::cell_value;
pub(crate) use read::{read_sheet_file, SheetOptions};

use std::sync::Arc;

use planwright_block::Block;

/// The spreadsheet blocks, for the registry.
pub(crate) fn blocks() -> Vec<Arc<dyn Block>> {
    vec![Arc::new(read::ReadData), Arc::new(write::Write)]
}
