//! A worksheet's cells read within bounds, streamed to a [`CellSink`].
//!
//! A workbook is recognised by its content (`planwright-documents`), its zip parts are checked
//! before any is inflated (a zip bomb is refused), and an .xlsx or .xlsb sheet is streamed cell
//! by cell: cells outside the wanted window are passed over, reading stops below it, and each
//! cell that holds something goes to the sink as it is read, row by row — nothing of the sheet
//! is kept here (`sheet_table.rs` keeps what a table needs).

use std::io::Cursor;
use std::path::Path;

use calamine::{Data, Reader, Xls, Xlsb, Xlsx};
use planwright_block::BlockError;
use planwright_documents::{check_zip_package, detect_format, Format};
use planwright_runs::{Reason, RunMessage};
use tokio_util::sync::CancellationToken;

use crate::cells;
use crate::files::{self, check_cancel, CANCEL_EVERY};

/// The most cells a table read from a sheet may hold (rows × columns): about 100,000 rows of 50
/// columns.
pub(crate) const MAX_CELLS: usize = 5_000_000;
/// What a workbook's zip parts may inflate to, together.
pub(crate) const MAX_UNZIPPED_BYTES: u64 = 1024 * 1024 * 1024;
/// What its shared strings may inflate to: the reader holds them all in memory at once (about
/// 2.5 bytes of memory a byte of tiny strings), unlike the sheet, which is streamed. 5,000,000
/// distinct ten-letter strings take about 135 MB.
pub(crate) const MAX_SHARED_STRINGS_BYTES: u64 = 160 * 1024 * 1024;

/// The cells wanted, 0-based: rows from `top` to `bottom`, columns from `left` to `right`
/// (`None`: to the end).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Window {
    pub top: u32,
    pub bottom: Option<u32>,
    pub left: u32,
    pub right: Option<u32>,
}

impl Window {
    fn holds_column(&self, col: u32) -> bool {
        col >= self.left && self.right.is_none_or(|right| col <= right)
    }
}

/// Where a sheet's cells go as they are read.
pub(crate) trait CellSink {
    /// Takes the cell at `row`, `col` (0-based) of sheet `sheet`, which holds something; cells
    /// come row by row, each row's from left to right. `Ok(false)` stops the reading.
    fn take(&mut self, sheet: &str, row: u32, col: u32, value: Data) -> Result<bool, BlockError>;
}

/// Reads sheet `wanted` (else the first) of the workbook at `path`, handing each cell within
/// `window` that holds something to `sink`; gives the sheet's name.
pub(crate) fn read_cells(
    path: &Path,
    shown: &str,
    wanted: Option<&str>,
    window: Window,
    cancel: &CancellationToken,
    sink: &mut dyn CellSink,
) -> Result<String, BlockError> {
    let bytes = files::read_capped(path, shown, cancel)?;
    let ext = files::extension(path);
    let (format, _) = detect_format(&bytes, &ext).map_err(|why| not_a_workbook(shown, &why))?;
    let mut cells = Cells { shown, sheet: String::new(), window, seen: 0, sink, cancel };
    // calamine's .xlsx and .xlsb cell readers share no trait: one body, written once, for both.
    macro_rules! stream_cells {
        ($book:ty) => {{
            check_package(&bytes, shown)?;
            let mut book: $book =
                calamine::open_workbook_from_rs(Cursor::new(bytes)).map_err(|e| cannot_open(shown, e))?;
            cells.sheet = pick_sheet(&book.sheet_names(), wanted, shown)?;
            let mut reader = book.worksheet_cells_reader(&cells.sheet).map_err(|e| cannot_read(&cells, e))?;
            while let Some(cell) = reader.next_cell().map_err(|e| cannot_read(&cells, e))? {
                if !cells.take(cell.get_position(), Data::from(cell.get_value().clone()))? {
                    break;
                }
            }
        }};
    }
    match format {
        Format::Xlsx => stream_cells!(Xlsx<_>),
        Format::Xlsb => stream_cells!(Xlsb<_>),
        // The .xls format holds at most 65,536 rows of 256 columns: its whole range fits.
        Format::Xls => {
            let mut book: Xls<_> =
                calamine::open_workbook_from_rs(Cursor::new(bytes)).map_err(|e| cannot_open(shown, e))?;
            cells.sheet = pick_sheet(&book.sheet_names(), wanted, shown)?;
            let range = book.worksheet_range(&cells.sheet).map_err(|e| cannot_read(&cells, e))?;
            let (top, left) = range.start().unwrap_or_default();
            for (row, col, value) in range.used_cells() {
                if !cells.take((top + row as u32, left + col as u32), value.clone())? {
                    break;
                }
            }
        }
        other => {
            return Err(BlockError::input(format!(
                "`path`: {shown:?} is {}, not an Excel workbook; excel.read_data reads .xlsx, .xlsm and .xls files",
                other.described()
            )))
        }
    }
    Ok(cells.sheet)
}

/// Cells as they stream in: those inside the window that hold something go to the sink.
struct Cells<'a> {
    shown: &'a str,
    sheet: String,
    window: Window,
    seen: usize,
    sink: &'a mut dyn CellSink,
    cancel: &'a CancellationToken,
}

impl Cells<'_> {
    /// Hands the cell on if it is in the window and holds something; `false` once the rows are
    /// past the window's bottom (sheets list their rows in order), or the sink says so.
    fn take(&mut self, (row, col): (u32, u32), value: Data) -> Result<bool, BlockError> {
        if self.window.bottom.is_some_and(|bottom| row > bottom) {
            return Ok(false);
        }
        self.seen += 1;
        if self.seen.is_multiple_of(CANCEL_EVERY) {
            check_cancel(self.cancel)?;
        }
        if row < self.window.top || !self.window.holds_column(col) || matches!(value, Data::Empty) {
            return Ok(true);
        }
        self.sink.take(&self.sheet, row, col, value)
    }
}

/// Rows × columns of a table over the limit.
pub(crate) fn too_many_cells(shown: &str, sheet: &str, limit: usize) -> BlockError {
    BlockError::input(format!(
        "sheet {sheet:?} of {shown} holds more than {limit} cells, the most excel.read_data reads; give a \
         `range` (e.g. A1:F20000) to read part of it, or split the workbook"
    ))
}

fn check_package(bytes: &[u8], shown: &str) -> Result<(), BlockError> {
    check_zip_package(bytes, MAX_UNZIPPED_BYTES, "Excel workbook").map_err(|why| {
        BlockError::input(format!(
            "`path`: {shown} is refused: {why} (a workbook's parts may inflate to {} MiB at most)",
            MAX_UNZIPPED_BYTES / (1024 * 1024)
        ))
    })?;
    check_shared_strings(bytes, shown, MAX_SHARED_STRINGS_BYTES)
}

/// Refuses a workbook whose shared strings inflate past `limit`, counted by inflating them (the
/// sizes a zip declares may lie), before the reader loads them whole.
fn check_shared_strings(bytes: &[u8], shown: &str, limit: u64) -> Result<(), BlockError> {
    let Ok(mut zip) = zip::ZipArchive::new(Cursor::new(bytes)) else { return Ok(()) };
    for part in ["xl/sharedStrings.xml", "xl/sharedStrings.bin"] {
        let Ok(entry) = zip.by_name(part) else { continue };
        let inflated = std::io::copy(&mut std::io::Read::take(entry, limit + 1), &mut std::io::sink())
            .map_err(|e| not_a_workbook(shown, &format!("its shared strings cannot be read ({e})")))?;
        if inflated > limit {
            return Err(BlockError::input(format!(
                "`path`: {shown} is refused: its shared strings inflate to more than {} MiB, the most excel.read_data \
                 holds in memory; save the sheet as CSV and read it with file.read_csv",
                limit / (1024 * 1024)
            )));
        }
    }
    Ok(())
}

fn not_a_workbook(shown: &str, why: &str) -> BlockError {
    let text = format!("`path`: {shown} cannot be read as an Excel workbook: {why}");
    BlockError::input(Reason::said(RunMessage::WorkbookUnreadable { path: shown.to_owned() }, text))
}

fn cannot_open(shown: &str, error: impl std::fmt::Display) -> BlockError {
    let detail = error.to_string();
    let locked = detail.to_ascii_lowercase();
    let hint = if locked.contains("password") || locked.contains("encrypt") {
        "it is password-protected; save a copy without a password"
    } else {
        "open it in Excel and save it again as .xlsx"
    };
    let text = format!("{shown} cannot be opened as an Excel workbook ({detail}); {hint}");
    BlockError::failed(Reason::said(RunMessage::WorkbookUnreadable { path: shown.to_owned() }, text))
}

fn cannot_read(cells: &Cells<'_>, error: impl std::fmt::Display) -> BlockError {
    BlockError::failed(format!("sheet {:?} of {} cannot be read: {error}", cells.sheet, cells.shown))
}

pub(crate) fn pick_sheet(names: &[String], wanted: Option<&str>, shown: &str) -> Result<String, BlockError> {
    let Some(wanted) = wanted else {
        return names.first().cloned().ok_or_else(|| BlockError::failed(format!("{shown} has no sheets")));
    };
    if let Some(exact) = names.iter().find(|n| n.as_str() == wanted) {
        return Ok(exact.clone());
    }
    let folded = cells::fold_text(wanted);
    let close: Vec<&String> = names.iter().filter(|n| cells::fold_text(n) == folded).collect();
    if let [one] = close.as_slice() {
        return Ok((*one).clone());
    }
    let sheets = names.join(", ");
    let text = format!("`sheet`: {shown} has no sheet {wanted:?}; its sheets are: {sheets}");
    let said = RunMessage::SheetMissing { path: shown.to_owned(), sheet: wanted.to_owned(), sheets };
    Err(BlockError::input(Reason::said(said, text)))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn shared_strings_past_their_limit_are_refused_before_they_are_loaded() {
        let dir = tempfile::tempdir().unwrap();
        let mut book = rust_xlsxwriter::Workbook::new();
        let sheet = book.add_worksheet();
        for row in 0..2_000u32 {
            sheet.write_string(row, 0, format!("supplier name number {row}")).unwrap();
        }
        let path = dir.path().join("names.xlsx");
        book.save(&path).unwrap();
        let bytes = std::fs::read(&path).unwrap();
        check_shared_strings(&bytes, "names.xlsx", 1024 * 1024).unwrap();
        let error = check_shared_strings(&bytes, "names.xlsx", 10_000).unwrap_err().to_string();
        assert!(error.contains("names.xlsx") && error.contains("shared strings") && error.contains("CSV"), "{error}");
    }
}
