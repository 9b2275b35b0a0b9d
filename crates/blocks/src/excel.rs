//! `excel.read_data` (calamine) and `excel.write` (rust_xlsxwriter).
//!
//! Reading: numbers come out as numbers (whole numbers as integers), date cells as
//! `YYYY-MM-DD` text (`YYYY-MM-DD HH:MM:SS` when they have a time, `HH:MM:SS` for times alone),
//! empty cells as null, error cells as their text (`#N/A`), and rows that are entirely empty are
//! skipped. Writing: JSON numbers become numbers, `true`/`false` booleans, text that is exactly
//! `YYYY-MM-DD` (or `YYYY-MM-DD HH:MM[:SS]`) a real Excel date shown the same way, other text
//! stays text (codes like `00123` keep their zeros), lists and objects are written as JSON text.

use std::collections::HashSet;
use std::path::Path;
use std::sync::Arc;

use calamine::{open_workbook, Data, Range, Reader, Sheets};
use futures::future::BoxFuture;
use planwright_runs::{ArtifactKind, LogLevel};
use rust_xlsxwriter::{ExcelDateTime, Format, Workbook, Worksheet};
use serde_json::{json, Map, Value};
use tokio_util::sync::CancellationToken;

use crate::block::{Block, BlockContext, BlockError, Values};
use crate::cells::{self, input};
use crate::files::{self, blocking, check_cancel, CANCEL_EVERY};

/// The spreadsheet blocks, for the registry.
pub(crate) fn blocks() -> Vec<Arc<dyn Block>> {
    vec![Arc::new(ReadData), Arc::new(Write)]
}

// ---------------------------------------------------------------------------------------------
// excel.read_data
// ---------------------------------------------------------------------------------------------

/// `excel.read_data`: one sheet (or a range of it) into rows keyed by a header row.
pub(crate) struct ReadData;

impl Block for ReadData {
    fn id(&self) -> &'static str {
        "excel.read_data"
    }

    fn run<'a>(&'a self, inputs: Values, ctx: &'a BlockContext) -> BoxFuture<'a, Result<Values, BlockError>> {
        Box::pin(read_data(inputs, ctx))
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

struct SheetTable {
    sheet: String,
    columns: Vec<String>,
    rows: Vec<Value>,
    notes: Vec<String>,
}

async fn read_data(inputs: Values, ctx: &BlockContext) -> Result<Values, BlockError> {
    let shown = input::text(&inputs, "path", "the Excel workbook to read, e.g. data/invoices.xlsx")?.to_string();
    let mut sheet = input::optional_text(&inputs, "sheet")?.map(str::to_string);
    let mut range = None;
    if let Some(given) = input::optional_text(&inputs, "range")? {
        let (range_sheet, parsed) = parse_range_input(given)?;
        if let Some(range_sheet) = range_sheet {
            match &sheet {
                Some(s) if cells::fold_text(s) != cells::fold_text(&range_sheet) => {
                    return Err(BlockError::Input(format!(
                        "`range` names the sheet {range_sheet:?} but `sheet` is {s:?}; give the sheet in one place"
                    )));
                }
                _ => sheet = Some(range_sheet),
            }
        }
        range = Some(parsed);
    }
    let header_row = input::integer(&inputs, "header_row", 1)?;
    if !(1..=1_048_576).contains(&header_row) {
        return Err(BlockError::Input(format!(
            "`header_row` is {header_row}; it counts from 1 (the first row read), e.g. 1 when the headers are on the \
             first row of the range"
        )));
    }
    let path = files::input_file(ctx, "path", &shown)?;
    let ext = files::extension(&path);
    if matches!(ext.as_str(), "csv" | "tsv" | "txt") {
        return Err(BlockError::Input(format!(
            "`path`: {shown:?} is a text file, not an Excel workbook; read it with file.read_csv"
        )));
    }
    let cancel = ctx.cancel.clone();
    let name = shown.clone();
    let table = blocking(move || read_sheet(&path, &name, sheet.as_deref(), range, header_row as u32, &cancel)).await?;
    for note in &table.notes {
        ctx.log(LogLevel::Warn, note.clone());
    }
    ctx.log(
        LogLevel::Info,
        format!(
            "read {} rows and {} columns from sheet {} of {shown}",
            table.rows.len(),
            table.columns.len(),
            table.sheet
        ),
    );
    let mut out = Values::new();
    out.insert("summary".into(), json!({ "sheet": table.sheet, "rows": table.rows.len(), "columns": table.columns }));
    out.insert("rows".into(), Value::Array(table.rows));
    Ok(out)
}

/// `range` input: an optional `Sheet!` prefix, then a [`CellRange`].
fn parse_range_input(given: &str) -> Result<(Option<String>, CellRange), BlockError> {
    let bad = || {
        BlockError::Input(format!(
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

fn open(path: &Path, shown: &str) -> Result<Sheets<std::io::BufReader<std::fs::File>>, BlockError> {
    let failed = |e: String| {
        BlockError::Failed(format!(
            "{shown} cannot be opened as an Excel workbook ({e}); is it an .xlsx, .xlsm or .xls file, and not \
             password-protected?"
        ))
    };
    let ext = files::extension(path);
    let sheets = match ext.as_str() {
        "xls" | "xla" => Sheets::Xls(open_workbook(path).map_err(|e: calamine::XlsError| failed(e.to_string()))?),
        "xlsx" | "xlsm" | "xlam" => {
            Sheets::Xlsx(open_workbook(path).map_err(|e: calamine::XlsxError| failed(e.to_string()))?)
        }
        "xlsb" => Sheets::Xlsb(open_workbook(path).map_err(|e: calamine::XlsbError| failed(e.to_string()))?),
        "ods" => Sheets::Ods(open_workbook(path).map_err(|e: calamine::OdsError| failed(e.to_string()))?),
        _ => calamine::open_workbook_auto(path).map_err(|e| failed(e.to_string()))?,
    };
    Ok(sheets)
}

fn read_sheet(
    path: &Path,
    shown: &str,
    sheet: Option<&str>,
    range: Option<CellRange>,
    header_row: u32,
    cancel: &CancellationToken,
) -> Result<SheetTable, BlockError> {
    check_cancel(cancel)?;
    let mut workbook = open(path, shown)?;
    let names = workbook.sheet_names();
    let name = pick_sheet(&names, sheet, shown)?;
    check_cancel(cancel)?;
    let data = workbook
        .worksheet_range(&name)
        .map_err(|e| BlockError::Failed(format!("sheet {name:?} of {shown} cannot be read: {e}")))?;
    check_cancel(cancel)?;
    table_from_range(&data, name, range, header_row, cancel)
}

fn pick_sheet(names: &[String], wanted: Option<&str>, shown: &str) -> Result<String, BlockError> {
    let Some(wanted) = wanted else {
        return names.first().cloned().ok_or_else(|| BlockError::Failed(format!("{shown} has no sheets")));
    };
    if let Some(exact) = names.iter().find(|n| n.as_str() == wanted) {
        return Ok(exact.clone());
    }
    let folded = cells::fold_text(wanted);
    let close: Vec<&String> = names.iter().filter(|n| cells::fold_text(n) == folded).collect();
    if let [one] = close.as_slice() {
        return Ok((*one).clone());
    }
    Err(BlockError::Input(format!("`sheet`: {shown} has no sheet {wanted:?}; its sheets are: {}", names.join(", "))))
}

fn table_from_range(
    data: &Range<Data>,
    sheet: String,
    range: Option<CellRange>,
    header_row: u32,
    cancel: &CancellationToken,
) -> Result<SheetTable, BlockError> {
    let mut notes = Vec::new();
    let (Some(used_start), Some(used_end)) = (data.start(), data.end()) else {
        return Ok(SheetTable { sheet, columns: Vec::new(), rows: Vec::new(), notes });
    };
    let top = range.map_or(0, |r| r.top);
    let left = range.map_or(used_start.1, |r| r.left);
    let right = range.and_then(|r| r.right).unwrap_or(used_end.1).min(used_end.1);
    let bottom = range.and_then(|r| r.bottom).unwrap_or(used_end.0).min(used_end.0);
    let cell = |row: u32, col: u32| data.get_value((row, col)).unwrap_or(&Data::Empty);
    let row_is_empty = |row: u32| (left..=right).all(|col| is_empty(cell(row, col)));

    let mut header = top + (header_row - 1);
    if let Some(range_bottom) = range.and_then(|r| r.bottom) {
        if header > range_bottom {
            return Err(BlockError::Input(format!(
                "`header_row` {header_row} is below the range, which ends at row {}; header_row counts from the top \
                 of the range (1 is its first row)",
                range_bottom + 1
            )));
        }
    }
    if header > bottom || left > right {
        if header > bottom {
            notes.push(format!(
                "the header row (row {} of the sheet) is below the last row with data (row {}); nothing was read",
                header + 1,
                used_end.0 + 1
            ));
        }
        return Ok(SheetTable { sheet, columns: Vec::new(), rows: Vec::new(), notes });
    }
    if row_is_empty(header) {
        match (header + 1..=bottom).find(|&r| !row_is_empty(r)) {
            Some(found) => {
                notes.push(format!(
                    "row {} (header_row {header_row}) is empty; the column names were taken from row {}, the first \
                     row with data below it",
                    header + 1,
                    found + 1
                ));
                header = found;
            }
            None => return Ok(SheetTable { sheet, columns: Vec::new(), rows: Vec::new(), notes }),
        }
    }

    // Column names: blanks become column_N (dropped later when the column holds no data).
    let raw: Vec<Option<String>> = (left..=right).map(|col| header_text(cell(header, col))).collect();
    let named: Vec<bool> = raw.iter().map(Option::is_some).collect();
    let columns = files::unique_names(raw.into_iter().map(Option::unwrap_or_default));

    let mut used = named.clone();
    let mut rows: Vec<Vec<Value>> = Vec::new();
    let mut error_cells = 0usize;
    for (n, row) in (header + 1..=bottom).enumerate() {
        if n % CANCEL_EVERY == 0 {
            check_cancel(cancel)?;
        }
        if row_is_empty(row) {
            continue;
        }
        let values: Vec<Value> = (left..=right)
            .enumerate()
            .map(|(i, col)| {
                let c = cell(row, col);
                if !is_empty(c) {
                    used[i] = true;
                }
                if matches!(c, Data::Error(_)) {
                    error_cells += 1;
                }
                cell_value(c)
            })
            .collect();
        rows.push(values);
    }
    if error_cells > 0 {
        notes.push(format!("{error_cells} cells hold Excel errors (such as #N/A); they are read as that text"));
    }
    let keep: Vec<usize> = (0..columns.len()).filter(|&i| used[i]).collect();
    let columns: Vec<String> = keep.iter().map(|&i| columns[i].clone()).collect();
    let rows = rows
        .into_iter()
        .map(|values| {
            let mut map = Map::with_capacity(keep.len());
            for (name, &i) in columns.iter().zip(&keep) {
                map.insert(name.clone(), values[i].clone());
            }
            Value::Object(map)
        })
        .collect();
    Ok(SheetTable { sheet, columns, rows, notes })
}

fn is_empty(cell: &Data) -> bool {
    match cell {
        Data::Empty => true,
        Data::String(s) => s.trim().is_empty(),
        _ => false,
    }
}

fn header_text(cell: &Data) -> Option<String> {
    match cell_value(cell) {
        Value::Null => None,
        Value::String(s) if s.trim().is_empty() => None,
        Value::String(s) => Some(s.trim().to_string()),
        Value::Bool(b) => Some(if b { "TRUE".into() } else { "FALSE".into() }),
        other => Some(cells::display_text(&other)),
    }
}

/// A cell as a JSON value (see the module documentation).
pub(crate) fn cell_value(cell: &Data) -> Value {
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

// ---------------------------------------------------------------------------------------------
// excel.write
// ---------------------------------------------------------------------------------------------

/// `excel.write`: sheets of rows into an .xlsx workbook, replacing any file at the path.
pub(crate) struct Write;

impl Block for Write {
    fn id(&self) -> &'static str {
        "excel.write"
    }

    fn run<'a>(&'a self, inputs: Values, ctx: &'a BlockContext) -> BoxFuture<'a, Result<Values, BlockError>> {
        Box::pin(write(inputs, ctx))
    }
}

/// Excel's limits.
const MAX_ROWS: usize = 1_048_576;
const MAX_COLUMNS: usize = 16_384;
const MAX_CELL_CHARS: usize = 32_767;

struct SheetPlan {
    name: String,
    columns: Vec<String>,
    rows: Vec<Map<String, Value>>,
}

async fn write(mut inputs: Values, ctx: &BlockContext) -> Result<Values, BlockError> {
    let shown = input::text(&inputs, "path", "where to save the workbook, e.g. results/2024-04.xlsx")?.to_string();
    let ext = Path::new(&shown).extension().map(|e| e.to_string_lossy().to_lowercase()).unwrap_or_default();
    if ext != "xlsx" {
        let hint = match ext.as_str() {
            "csv" => "; for a CSV file use report.write with format: csv",
            "" => "; add .xlsx to the file name",
            _ => "",
        };
        return Err(BlockError::Input(format!(
            "`path` is {shown:?}; this block writes .xlsx workbooks, so the path must end with .xlsx{hint}"
        )));
    }
    input::required(&inputs, "sheets", "the sheets to write, e.g. {未入金: ${unpaid.filtered}}")?;
    let sheets = match inputs.remove("sheets") {
        Some(Value::Object(map)) => map,
        other => {
            return Err(BlockError::Input(format!(
                "`sheets` must be an object of sheet name → list of rows, e.g. {{未入金: ${{unpaid.filtered}}}}, not {}",
                cells::describe(&other.unwrap_or(Value::Null))
            )));
        }
    };
    if sheets.is_empty() {
        return Err(BlockError::Input("`sheets` is empty; give at least one sheet, e.g. {結果: ${step.rows}}".into()));
    }
    let mut plans = Vec::with_capacity(sheets.len());
    let mut taken: Vec<String> = Vec::new();
    for (given, value) in sheets {
        let rows = sheet_rows(&given, value)?;
        let name = sheet_name(&given, &taken);
        if name != given {
            ctx.log(
                LogLevel::Warn,
                format!(
                    "sheet {given:?} is written as {name:?}: Excel sheet names have at most 31 characters, no : \\ / ? \
                     * [ ], and are unique"
                ),
            );
        }
        taken.push(name.clone());
        let mut columns: Vec<String> = Vec::new();
        let mut seen: HashSet<String> = HashSet::new();
        for row in &rows {
            for key in row.keys() {
                if !seen.contains(key) {
                    seen.insert(key.clone());
                    columns.push(key.clone());
                }
            }
        }
        if rows.len() + 1 > MAX_ROWS {
            return Err(BlockError::Input(format!(
                "`sheets.{given}` has {} rows; an Excel sheet holds at most {} — split it over several sheets",
                rows.len(),
                MAX_ROWS - 1
            )));
        }
        if columns.len() > MAX_COLUMNS {
            return Err(BlockError::Input(format!(
                "`sheets.{given}` has {} columns; an Excel sheet holds at most {MAX_COLUMNS}",
                columns.len()
            )));
        }
        plans.push(SheetPlan { name, columns, rows });
    }
    let path = files::output_file(ctx, "path", &shown)?;
    let cancel = ctx.cancel.clone();
    let name = shown.clone();
    let written = path.clone();
    let (summary_sheets, total_rows, cut_cells) = blocking(move || {
        let mut workbook = Workbook::new();
        let header = Format::new().set_bold();
        let date = Format::new().set_num_format("yyyy-mm-dd");
        let datetime = Format::new().set_num_format("yyyy-mm-dd hh:mm:ss");
        let formats = CellFormats { date, datetime };
        let mut total = 0usize;
        let mut cut = 0usize;
        let mut names = Vec::new();
        for plan in &plans {
            let sheet = workbook.add_worksheet();
            sheet.set_name(&plan.name).map_err(|e| xlsx_failed(&name, e))?;
            cut += write_sheet(sheet, plan, &header, &formats, &cancel).map_err(|e| match e {
                SheetError::Cancelled => BlockError::Cancelled,
                SheetError::Xlsx(e) => xlsx_failed(&name, e),
            })?;
            total += plan.rows.len();
            names.push(plan.name.clone());
        }
        check_cancel(&cancel)?;
        let bytes = workbook.save_to_buffer().map_err(|e| xlsx_failed(&name, e))?;
        files::write_atomically(&path, &name, &bytes)?;
        Ok((names, total, cut))
    })
    .await?;
    if cut_cells > 0 {
        ctx.log(
            LogLevel::Warn,
            format!("{cut_cells} texts were longer than Excel's {MAX_CELL_CHARS} characters per cell and were cut"),
        );
    }
    ctx.artifact(&written, ArtifactKind::File);
    ctx.log(LogLevel::Info, format!("wrote {total_rows} rows in {} sheets to {shown}", summary_sheets.len()));
    let mut out = Values::new();
    out.insert("path".into(), Value::String(shown));
    out.insert("summary".into(), json!({ "sheets": summary_sheets, "rows": total_rows }));
    Ok(out)
}

/// The rows of one entry of `sheets`: a list of objects, or one object as a single row.
fn sheet_rows(given: &str, value: Value) -> Result<Vec<Map<String, Value>>, BlockError> {
    match value {
        Value::Array(items) => items
            .into_iter()
            .enumerate()
            .map(|(i, item)| match item {
                Value::Object(map) => Ok(map),
                other => Err(BlockError::Input(format!(
                    "`sheets.{given}` item {i} is {}, not a row; each sheet takes a list of rows (objects keyed by \
                     column name)",
                    cells::describe(&other)
                ))),
            })
            .collect(),
        Value::Object(map) => {
            if let Some((key, _)) =
                map.iter().find(|(_, v)| v.as_array().is_some_and(|a| a.iter().any(Value::is_object)))
            {
                return Err(BlockError::Input(format!(
                    "`sheets.{given}` is an object holding the list of rows `{key}`; give that list, e.g. \
                     `${{step.{key}}}`"
                )));
            }
            Ok(vec![map])
        }
        other => {
            Err(BlockError::Input(format!("`sheets.{given}` must be a list of rows, not {}", cells::describe(&other))))
        }
    }
}

/// A valid, unique Excel sheet name for `given`.
pub(crate) fn sheet_name(given: &str, taken: &[String]) -> String {
    let cleaned: String =
        given.chars().map(|c| if matches!(c, '[' | ']' | ':' | '*' | '?' | '/' | '\\') { '_' } else { c }).collect();
    let cleaned = cleaned.trim().trim_matches('\'').trim();
    let mut base: String = cleaned.chars().take(31).collect();
    if base.is_empty() {
        base = format!("Sheet{}", taken.len() + 1);
    }
    if base.eq_ignore_ascii_case("history") {
        base.push('_');
    }
    let is_taken = |candidate: &str| taken.iter().any(|t| t.to_lowercase() == candidate.to_lowercase());
    if !is_taken(&base) {
        return base;
    }
    (2..)
        .map(|n| {
            let suffix = format!(" ({n})");
            let keep = 31 - suffix.chars().count();
            format!("{}{suffix}", base.chars().take(keep).collect::<String>())
        })
        .find(|c| !is_taken(c))
        .unwrap_or(base)
}

struct CellFormats {
    date: Format,
    datetime: Format,
}

enum SheetError {
    Cancelled,
    Xlsx(rust_xlsxwriter::XlsxError),
}

impl From<rust_xlsxwriter::XlsxError> for SheetError {
    fn from(e: rust_xlsxwriter::XlsxError) -> Self {
        SheetError::Xlsx(e)
    }
}

fn xlsx_failed(shown: &str, e: rust_xlsxwriter::XlsxError) -> BlockError {
    BlockError::Failed(format!("{shown} could not be written: {e}"))
}

/// Writes one sheet; returns how many texts were cut to Excel's cell limit.
fn write_sheet(
    sheet: &mut Worksheet,
    plan: &SheetPlan,
    header: &Format,
    formats: &CellFormats,
    cancel: &CancellationToken,
) -> Result<usize, SheetError> {
    let mut cut = 0usize;
    for (c, column) in plan.columns.iter().enumerate() {
        sheet.write_string_with_format(0, c as u16, column, header)?;
    }
    for (r, row) in plan.rows.iter().enumerate() {
        if r % CANCEL_EVERY == 0 && cancel.is_cancelled() {
            return Err(SheetError::Cancelled);
        }
        let excel_row = (r + 1) as u32;
        for (c, column) in plan.columns.iter().enumerate() {
            let Some(value) = row.get(column) else { continue };
            cut += write_cell(sheet, excel_row, c as u16, value, formats)?;
        }
    }
    if !plan.columns.is_empty() {
        sheet.set_freeze_panes(1, 0)?;
        sheet.autofilter(0, 0, plan.rows.len() as u32, (plan.columns.len() - 1) as u16)?;
        if plan.rows.len() <= 10_000 {
            sheet.set_autofit_max_width(400);
            sheet.autofit();
        }
    }
    Ok(cut)
}

fn write_cell(
    sheet: &mut Worksheet,
    row: u32,
    col: u16,
    value: &Value,
    formats: &CellFormats,
) -> Result<usize, rust_xlsxwriter::XlsxError> {
    match value {
        Value::Null => {}
        Value::Bool(b) => {
            sheet.write_boolean(row, col, *b)?;
        }
        Value::Number(n) => {
            let exact = n.as_i64().is_none_or(|i| i.unsigned_abs() <= 9_007_199_254_740_991)
                && n.as_u64().is_none_or(|u| u <= 9_007_199_254_740_991);
            match n.as_f64() {
                Some(f) if exact => {
                    sheet.write_number(row, col, f)?;
                }
                _ => {
                    sheet.write_string(row, col, n.to_string())?;
                }
            }
        }
        Value::String(s) => {
            if let Some((when, has_time)) = iso_datetime(s) {
                let format = if has_time { &formats.datetime } else { &formats.date };
                sheet.write_datetime_with_format(row, col, &when, format)?;
            } else {
                return write_text(sheet, row, col, s);
            }
        }
        other => return write_text(sheet, row, col, &other.to_string()),
    }
    Ok(0)
}

fn write_text(sheet: &mut Worksheet, row: u32, col: u16, text: &str) -> Result<usize, rust_xlsxwriter::XlsxError> {
    if text.chars().count() > MAX_CELL_CHARS {
        let cut: String = text.chars().take(MAX_CELL_CHARS).collect();
        sheet.write_string(row, col, cut)?;
        Ok(1)
    } else {
        sheet.write_string(row, col, text)?;
        Ok(0)
    }
}

/// Text that is exactly `YYYY-MM-DD` or `YYYY-MM-DD HH:MM[:SS]` (or with `T`), as an Excel date.
fn iso_datetime(text: &str) -> Option<(ExcelDateTime, bool)> {
    let b = text.as_bytes();
    let iso_date = b.len() >= 10
        && b[4] == b'-'
        && b[7] == b'-'
        && b[..10].iter().enumerate().all(|(i, c)| i == 4 || i == 7 || c.is_ascii_digit());
    if !iso_date || !(b.len() == 10 || matches!(b[10], b' ' | b'T')) {
        return None;
    }
    let parsed = cells::parse_date(text)?;
    if !(1900..=9999).contains(&parsed.year) {
        return None;
    }
    let date = ExcelDateTime::from_ymd(parsed.year as u16, parsed.month, parsed.day).ok()?;
    match parsed.time {
        None => Some((date, false)),
        Some(ms) => {
            let (h, m, s) = (ms / 3_600_000, ms / 60_000 % 60, f64::from(ms % 60_000) / 1000.0);
            Some((date.and_hms(h as u16, m as u8, s).ok()?, true))
        }
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

    #[test]
    fn sheet_names_are_unique_ignoring_case() {
        let taken = vec!["Data".to_string()];
        assert_eq!(sheet_name("data", &taken), "data (2)");
        assert_eq!(sheet_name("a:b*c?", &[]), "a_b_c_");
        assert_eq!(sheet_name("'quoted'", &[]), "quoted");
        assert_eq!(sheet_name("  ", &taken), "Sheet2");
    }
}
