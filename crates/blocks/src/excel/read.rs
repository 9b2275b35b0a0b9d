//! `excel.read_data`: one sheet (or a range of it) into rows keyed by a header row — a run's
//! table, whose record keeps the workbook it came from (its SHA-256) rather than a copy.

use planwright_block::{Block, BlockContext, BlockError, Values, Workdir};
use planwright_tables::Table;
use serde_json::{json, Value};
use tokio_util::sync::CancellationToken;

use calamine::Data;
use futures::future::BoxFuture;
use planwright_runs::{LogLevel, Reason, RunMessage};

use super::sheet_cells::{read_cells, Window, MAX_CELLS};
use super::sheet_table::{ReadSheet, SheetTable};
use crate::cells::{self, input};
use crate::files::{self, blocking, check_cancel};

/// `excel.read_data`: one sheet (or a range of it) into rows keyed by a header row.
pub(crate) struct ReadData;

impl Block for ReadData {
    fn id(&self) -> &'static str {
        "excel.read_data"
    }

    fn run<'a>(&'a self, inputs: Values, ctx: &'a BlockContext) -> BoxFuture<'a, Result<Values, BlockError>> {
        Box::pin(read_data(inputs, ctx))
    }

    fn reopen_table(&self, source: &Value, workdir: &Workdir) -> Option<Result<Table, BlockError>> {
        Some(reopen_sheet(source, workdir))
    }
}

/// A cell range as given: `A1:F200`, `B3:H`, `A:F`, `B3` (from there to the end).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct CellRange {
    /// 0-based row and column of the top-left cell.
    pub top: u32,
    pub left: u32,
    /// 0-based last row, when given.
    pub bottom: Option<u32>,
    /// 0-based last column, when given.
    pub right: Option<u32>,
}

/// The inputs that say how `excel.read_data` reads a workbook, which its table's source keeps.
const HOW_READ: [&str; 4] = ["path", "sheet", "range", "header_row"];

async fn read_data(inputs: Values, ctx: &BlockContext) -> Result<Values, BlockError> {
    let shown = input::text(&inputs, "path", "the Excel workbook to read, e.g. data/invoices.xlsx")?.to_string();
    let options = SheetOptions::of(&inputs)?;
    let path = files::input_file(ctx, "path", &shown, files::MAX_READ_BYTES)?;
    let cancel = ctx.cancel.clone();
    let name = shown.clone();
    // The workbook's SHA-256, for the table's record (calamine reads the file by its path).
    let (read, sha256) = blocking(move || {
        let sha256 = files::sha256_of(&path, &name)?;
        Ok((read_sheet_file(&path, &name, &options, None, &cancel)?, sha256))
    })
    .await?;
    for note in &read.notes {
        ctx.log(LogLevel::Warn, note.clone());
    }
    let (rows, columns) = (read.table.row_count(), read.table.columns());
    let text = format!("read {rows} rows and {} columns from sheet {} of {shown}", columns.len(), read.sheet);
    let said = RunMessage::SheetRead {
        path: shown.clone(),
        sheet: read.sheet.clone(),
        rows: rows as u64,
        columns: columns.len() as u64,
    };
    ctx.log(LogLevel::Info, Reason::said(said, text));
    let mut out = Values::new();
    out.insert("summary".into(), json!({ "sheet": read.sheet, "rows": rows, "columns": columns }));
    let source = files::table_source(&inputs, &HOW_READ, "excel.read_data", &sha256);
    out.insert("rows".into(), ctx.tables.put_read(read.table, source));
    Ok(out)
}

/// The table `excel.read_data` read, read again from its `source`.
fn reopen_sheet(source: &Value, workdir: &Workdir) -> Result<Table, BlockError> {
    files::reopen(source, workdir, "the Excel workbook", |source, path, shown| {
        let sha256 = files::sha256_of(path, shown)?;
        let options = SheetOptions::of(source)?;
        Ok((read_sheet_file(path, shown, &options, None, &CancellationToken::new())?.table, sha256))
    })
}

/// Which part of which sheet `excel.read_data` reads, from its inputs.
pub(crate) struct SheetOptions {
    sheet: Option<String>,
    range: Option<CellRange>,
    header_row: u32,
}

impl SheetOptions {
    pub(crate) fn of(inputs: &Values) -> Result<SheetOptions, BlockError> {
        let mut sheet = input::optional_text(inputs, "sheet")?.map(str::to_string);
        let mut range = None;
        if let Some(given) = input::optional_text(inputs, "range")? {
            let (range_sheet, parsed) = parse_range_input(given)?;
            if let Some(range_sheet) = range_sheet {
                match &sheet {
                    Some(s) if cells::fold_text(s) != cells::fold_text(&range_sheet) => {
                        return Err(BlockError::input(format!(
                            "`range` names the sheet {range_sheet:?} but `sheet` is {s:?}; give the sheet in one place"
                        )));
                    }
                    _ => sheet = Some(range_sheet),
                }
            }
            range = Some(parsed);
        }
        let header_row = input::integer(inputs, "header_row", 1)?;
        if !(1..=1_048_576).contains(&header_row) {
            return Err(BlockError::input(format!(
                "`header_row` is {header_row}; it counts from 1 (the first row read), e.g. 1 when the headers are on \
                 the first row of the range"
            )));
        }
        Ok(SheetOptions { sheet, range, header_row: header_row as u32 })
    }
}

/// Reads the workbook at `path` as `excel.read_data` does; with `rows`, only the first so many
/// rows under the header (a plan check's sample).
pub(crate) fn read_sheet_file(
    path: &std::path::Path,
    shown: &str,
    options: &SheetOptions,
    rows: Option<usize>,
    cancel: &CancellationToken,
) -> Result<ReadSheet, BlockError> {
    let ext = files::extension(path);
    if matches!(ext.as_str(), "csv" | "tsv" | "txt") {
        return Err(BlockError::input(format!(
            "`path`: {shown:?} is a text file, not an Excel workbook; read it with file.read_csv"
        )));
    }
    let range = options.range;
    let window = Window {
        top: range.map_or(0, |r| r.top),
        bottom: range.and_then(|r| r.bottom),
        left: range.map_or(0, |r| r.left),
        right: range.and_then(|r| r.right),
    };
    let header_row = options.header_row;
    if let Some(range_bottom) = range.and_then(|r| r.bottom) {
        if window.top + (header_row - 1) > range_bottom {
            return Err(BlockError::input(format!(
                "`header_row` {header_row} is below the range, which ends at row {}; header_row counts from the top \
                 of the range (1 is its first row)",
                range_bottom + 1
            )));
        }
    }
    let mut table = SheetTable::new(shown, window.top, header_row, range.map(|r| r.left), MAX_CELLS, rows);
    let sheet = read_cells(path, shown, options.sheet.as_deref(), window, cancel, &mut table)?;
    check_cancel(cancel)?;
    table.finish(sheet)
}

/// `range` input: an optional `Sheet!` prefix, then a [`CellRange`].
fn parse_range_input(given: &str) -> Result<(Option<String>, CellRange), BlockError> {
    let bad = || {
        BlockError::input(format!(
            "`range` is {given:?}; write it like A1:F200 (columns and rows), B3:H (to the last row with data) or \
             A:F (whole columns)"
        ))
    };
    let folded = cells::fold_width(given);
    let folded = folded.trim();
    let (sheet, cells_part) = match folded.rsplit_once('!') {
        Some((sheet, cells_part)) => {
            let sheet = sheet.trim();
            let sheet = sheet.strip_prefix('\'').and_then(|s| s.strip_suffix('\'')).unwrap_or(sheet);
            (Some(sheet.replace("''", "'")), cells_part)
        }
        None => (None, folded),
    };
    parse_range(cells_part).map(|r| (sheet, r)).ok_or_else(bad)
}

/// Parses `A1:F200`, `$A$1:$F$200`, `B3:H`, `A:F`, `B3`.
pub(crate) fn parse_range(text: &str) -> Option<CellRange> {
    let text = text.trim().replace('$', "").to_ascii_uppercase();
    let (start, end) = match text.split_once(':') {
        Some((a, b)) => (a.trim().to_string(), Some(b.trim().to_string())),
        None => (text.clone(), None),
    };
    let (left, top) = parse_cell_ref(&start)?;
    let (top, bottom, right) = match end {
        None => (top.unwrap_or(0), None, None),
        Some(end) => {
            let (right, bottom) = parse_cell_ref(&end)?;
            if right < left || bottom.is_some_and(|b| b < top.unwrap_or(0)) {
                return None;
            }
            (top.unwrap_or(0), bottom, Some(right))
        }
    };
    Some(CellRange { top, left, bottom, right })
}

/// `B3` → (column 1, Some(row 2)); `H` → (7, None). 0-based.
fn parse_cell_ref(text: &str) -> Option<(u32, Option<u32>)> {
    let letters: String = text.chars().take_while(char::is_ascii_uppercase).collect();
    let digits = &text[letters.len()..];
    if letters.is_empty() || letters.len() > 3 || !digits.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    let col = letters.bytes().fold(0u32, |acc, b| acc * 26 + u32::from(b - b'A' + 1)) - 1;
    if col >= 16_384 {
        return None;
    }
    let row = if digits.is_empty() {
        None
    } else {
        let row: u32 = digits.parse().ok()?;
        if row == 0 || row > 1_048_576 {
            return None;
        }
        Some(row - 1)
    };
    Some((col, row))
}

/// A cell that holds nothing but spaces, or nothing.
pub(super) fn is_empty(cell: &Data) -> bool {
    match cell {
        Data::Empty => true,
        Data::String(s) => s.trim().is_empty(),
        _ => false,
    }
}

/// A header cell's name, trimmed; `None` for a blank one.
pub(super) fn header_text(cell: &Data) -> Option<String> {
    match cell_value(cell) {
        Value::Null => None,
        Value::String(s) if s.trim().is_empty() => None,
        Value::String(s) => Some(s.trim().to_string()),
        Value::Bool(b) => Some(if b { "TRUE".into() } else { "FALSE".into() }),
        other => Some(cells::display_text(&other)),
    }
}

/// A cell as a JSON value (see the module documentation): dates as ISO text, as
/// `excel.read_data` gives them. The studio's previews of workbooks show cells through it too.
pub fn cell_value(cell: &Data) -> Value {
    match cell {
        Data::Empty => Value::Null,
        Data::Int(i) => Value::from(*i),
        Data::Float(f) => cells::number_value(*f),
        Data::String(s) => Value::String(s.clone()),
        Data::Bool(b) => Value::Bool(*b),
        Data::DateTime(dt) => {
            if dt.is_duration() {
                let total = (dt.as_f64() * 86_400.0).round() as i64;
                let sign = if total < 0 { "-" } else { "" };
                let total = total.abs();
                Value::String(format!("{sign}{}:{:02}:{:02}", total / 3600, total / 60 % 60, total % 60))
            } else {
                let serial = dt.as_f64();
                let (y, m, d, hh, mm, ss, ms) = dt.to_ymd_hms_milli();
                let (hh, mm, ss) = if ms >= 500 { carry_second(hh, mm, ss) } else { (hh, mm, ss) };
                let has_time = (hh, mm, ss) != (0, 0, 0);
                Value::String(if (0.0..1.0).contains(&serial) {
                    format!("{hh:02}:{mm:02}:{ss:02}")
                } else if has_time {
                    format!("{y:04}-{m:02}-{d:02} {hh:02}:{mm:02}:{ss:02}")
                } else {
                    format!("{y:04}-{m:02}-{d:02}")
                })
            }
        }
        Data::DateTimeIso(s) => {
            let s = s.strip_suffix("T00:00:00").unwrap_or(s);
            Value::String(s.replacen('T', " ", 1))
        }
        Data::DurationIso(s) => Value::String(s.clone()),
        Data::Error(e) => Value::String(e.to_string()),
    }
}

/// Rounds a time up by one second (without crossing midnight; 23:59:59.5 stays 23:59:59).
fn carry_second(hh: u8, mm: u8, ss: u8) -> (u8, u8, u8) {
    match (hh, mm, ss) {
        (23, 59, 59) => (23, 59, 59),
        (h, 59, 59) => (h + 1, 0, 0),
        (h, m, 59) => (h, m + 1, 0),
        (h, m, s) => (h, m, s + 1),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn range_syntax() {
        assert_eq!(parse_range("A1:F200"), Some(CellRange { top: 0, left: 0, bottom: Some(199), right: Some(5) }));
        assert_eq!(parse_range("b3:h"), Some(CellRange { top: 2, left: 1, bottom: None, right: Some(7) }));
        assert_eq!(parse_range("A:F"), Some(CellRange { top: 0, left: 0, bottom: None, right: Some(5) }));
        assert_eq!(parse_range("AA10"), Some(CellRange { top: 9, left: 26, bottom: None, right: None }));
        assert_eq!(
            parse_range("XFD1048576"),
            Some(CellRange { top: 1_048_575, left: 16_383, bottom: None, right: None })
        );
        assert_eq!(parse_range("A1048577"), None);
    }
}
