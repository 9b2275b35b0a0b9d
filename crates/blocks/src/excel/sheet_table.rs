//! A sheet's table made as its cells stream in (`sheet_cells.rs`): the rows above the header
//! passed over, the header row (or, when it is empty, the first row with data below it) kept
//! for the column names, and each row with data below it added to the columns at once, each
//! cell kept as its JSON text ([`CellColumn`]) — the sheet is never held whole beside its table.

use std::collections::BTreeMap;

use calamine::Data;
use planwright_block::BlockError;
use planwright_tables::{CellColumn, Table};
use serde_json::Value;

use super::read::{cell_value, header_text, is_empty};
use super::sheet_cells::{too_many_cells, CellSink};

/// The table `excel.read_data` reads from a sheet, made cell by cell.
pub(crate) struct SheetTable<'a> {
    shown: &'a str,
    /// The header row as asked for (0-based, in the sheet).
    header_at: u32,
    /// `header_row` as the person gave it, for the notes.
    header_row: u32,
    /// The range's first column, when a range was given: `column_N` counts from it.
    range_left: Option<u32>,
    max_cells: usize,
    /// The most data rows read, when only the first are wanted.
    max_rows: Option<usize>,
    sheet: String,
    /// The leftmost column and the last row that hold something, anywhere in the window.
    leftmost: Option<u32>,
    last_row: Option<u32>,
    /// The row being read, until its last cell is in.
    row: Option<(u32, Vec<(u32, Data)>)>,
    header: Option<(u32, BTreeMap<u32, Data>)>,
    /// The data rows' cells, by column; a column holds one cell for each data row so far.
    columns: BTreeMap<u32, Column>,
    data_rows: usize,
    error_cells: usize,
}

struct Column {
    cells: CellColumn,
    /// A cell of it below the header holds something more than spaces.
    has_data: bool,
}

/// What was read: the sheet's name, its table, and notes on how it was read.
pub(crate) struct ReadSheet {
    pub sheet: String,
    pub table: Table,
    pub notes: Vec<String>,
}

impl<'a> SheetTable<'a> {
    /// A table whose header is row `header_row` (from 1) of the window starting at row `top`, of
    /// at most `max_cells` cells; with `max_rows`, of the first so many rows under the header.
    pub(crate) fn new(
        shown: &'a str,
        top: u32,
        header_row: u32,
        range_left: Option<u32>,
        max_cells: usize,
        max_rows: Option<usize>,
    ) -> Self {
        SheetTable {
            shown,
            header_at: top + (header_row - 1),
            header_row,
            range_left,
            max_cells,
            max_rows,
            sheet: String::new(),
            leftmost: None,
            last_row: None,
            row: None,
            header: None,
            columns: BTreeMap::new(),
            data_rows: 0,
            error_cells: 0,
        }
    }

    /// A row whose cells are all in: the header, a data row, or one to pass over.
    fn finish_row(&mut self, row: u32, cells: Vec<(u32, Data)>) -> Result<(), BlockError> {
        if cells.iter().all(|(_, cell)| is_empty(cell)) {
            return Ok(());
        }
        if self.header.is_none() {
            self.header = Some((row, cells.into_iter().collect()));
            return Ok(());
        }
        let rows = self.data_rows;
        for (col, cell) in cells {
            let column = self
                .columns
                .entry(col)
                .or_insert_with(|| Column { cells: CellColumn::with_nulls(rows), has_data: false });
            column.has_data |= !is_empty(&cell);
            self.error_cells += usize::from(matches!(cell, Data::Error(_)));
            column.cells.push(&cell_value(&cell));
        }
        self.data_rows += 1;
        for column in self.columns.values_mut().filter(|c| c.cells.len() < self.data_rows) {
            column.cells.push(&Value::Null);
        }
        if self.data_rows.saturating_mul(self.columns.len()) > self.max_cells {
            return Err(too_many_cells(self.shown, &self.sheet, self.max_cells));
        }
        Ok(())
    }

    /// The table, once the last cell is in (`sheet`: the sheet read).
    pub(crate) fn finish(mut self, sheet: String) -> Result<ReadSheet, BlockError> {
        if let Some((row, cells)) = self.row.take() {
            self.finish_row(row, cells)?;
        }
        let mut notes = Vec::new();
        let empty = |notes| Ok(ReadSheet { sheet: sheet.clone(), table: Table::of_cells(Vec::new(), 0), notes });
        let (Some(leftmost), Some(last_row)) = (self.leftmost, self.last_row) else { return empty(notes) };
        let Some((header, names)) = self.header.take() else {
            if last_row < self.header_at {
                notes.push(format!(
                    "the header row (row {} of the sheet) is below the last row with data (row {}); nothing was read",
                    self.header_at + 1,
                    last_row + 1
                ));
            }
            return empty(notes);
        };
        if header != self.header_at {
            notes.push(format!(
                "row {} (header_row {}) is empty; the column names were taken from row {}, the first row with data \
                 below it",
                self.header_at + 1,
                self.header_row,
                header + 1
            ));
        }
        // The columns that have a name or hold data below the header; blank names become column_N.
        let named = names.iter().filter(|(_, cell)| header_text(cell).is_some()).map(|(col, _)| *col);
        let filled = self.columns.iter().filter(|(_, c)| c.has_data).map(|(col, _)| *col);
        let mut kept: Vec<u32> = named.chain(filled).collect();
        kept.sort_unstable();
        kept.dedup();
        let left = self.range_left.unwrap_or(leftmost);
        let column_names =
            planwright_tables::unique_names(kept.iter().map(|col| {
                names.get(col).and_then(header_text).unwrap_or_else(|| format!("column_{}", col - left + 1))
            }));
        let rows = self.data_rows;
        let mut columns = std::mem::take(&mut self.columns);
        let cells =
            kept.iter().map(|col| columns.remove(col).map_or_else(|| CellColumn::with_nulls(rows), |c| c.cells));
        let table = Table::of_columns(column_names.into_iter().zip(cells), rows);
        if self.error_cells > 0 {
            notes.push(format!(
                "{} cells hold Excel errors (such as #N/A); they are read as that text",
                self.error_cells
            ));
        }
        Ok(ReadSheet { sheet, table, notes })
    }
}

impl CellSink for SheetTable<'_> {
    fn take(&mut self, sheet: &str, row: u32, col: u32, value: Data) -> Result<bool, BlockError> {
        if self.sheet.is_empty() {
            self.sheet = sheet.to_owned();
        }
        self.leftmost = Some(self.leftmost.map_or(col, |left| left.min(col)));
        self.last_row = Some(row);
        if row < self.header_at {
            return Ok(true);
        }
        match &mut self.row {
            Some((at, cells)) if *at == row => cells.push((col, value)),
            _ => {
                if let Some((at, cells)) = self.row.replace((row, vec![(col, value)])) {
                    self.finish_row(at, cells)?;
                }
                if self.max_rows.is_some_and(|most| self.data_rows >= most) {
                    self.row = None;
                    return Ok(false);
                }
            }
        }
        Ok(true)
    }
}

#[cfg(test)]
mod tests {
    use std::path::Path;

    use tokio_util::sync::CancellationToken;

    use super::*;
    use crate::excel::sheet_cells::{read_cells, Window};

    fn workbook(dir: &Path, cells: &[(u32, u16)]) -> std::path::PathBuf {
        let mut book = rust_xlsxwriter::Workbook::new();
        let sheet = book.add_worksheet();
        for &(row, col) in cells {
            sheet.write_number(row, col, f64::from(row)).unwrap();
        }
        let path = dir.join("book.xlsx");
        book.save(&path).unwrap();
        path
    }

    const ALL: Window = Window { top: 0, bottom: None, left: 0, right: None };

    fn read(path: &Path, window: Window, max_cells: usize) -> Result<ReadSheet, BlockError> {
        let mut table = SheetTable::new("book.xlsx", window.top, 1, None, max_cells, None);
        let sheet = read_cells(path, "book.xlsx", None, window, &CancellationToken::new(), &mut table)?;
        table.finish(sheet)
    }

    #[test]
    fn a_table_past_the_cell_limit_is_refused_naming_file_sheet_and_limit() {
        let dir = tempfile::tempdir().unwrap();
        let cells: Vec<(u32, u16)> = (0..151).map(|i| (i, 0)).collect();
        let path = workbook(dir.path(), &cells);
        assert_eq!(read(&path, ALL, 150).unwrap().table.row_count(), 150);
        let Err(BlockError::Input(planwright_runs::Reason { text: message, .. })) = read(&path, ALL, 100) else {
            panic!("over the limit must be refused")
        };
        assert!(message.contains("book.xlsx") && message.contains("Sheet1") && message.contains("100"), "{message}");
        // Cells outside the window are not counted: a range reads part of a large sheet.
        let part = Window { top: 10, bottom: Some(60), left: 0, right: Some(0) };
        assert_eq!(read(&path, part, 100).unwrap().table.row_count(), 50);
    }

    #[test]
    fn far_apart_cells_cost_only_themselves() {
        let dir = tempfile::tempdir().unwrap();
        let path = workbook(dir.path(), &[(0, 0), (1_048_575, 16_383)]);
        let read = read(&path, ALL, 10).unwrap();
        assert_eq!(read.table.columns(), ["0", "column_16384"]);
        assert_eq!(read.table.rows(), [serde_json::json!({"0": null, "column_16384": 1_048_575})]);
    }
}
