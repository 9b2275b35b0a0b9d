//! `excel.write`: sheets of rows into an .xlsx workbook (rust_xlsxwriter); a run's table is
//! written from its columns.

use std::borrow::Cow;
use std::path::Path;
use std::sync::Arc;

use futures::future::BoxFuture;
use planwright_block::{Block, BlockContext, BlockError, Values};
use planwright_runs::{ArtifactKind, LogLevel, Reason, RunMessage};
use planwright_tables::Table;
use rust_xlsxwriter::{ExcelDateTime, Format, Workbook, Worksheet};
use serde_json::{json, Map, Value};
use tokio_util::sync::CancellationToken;

use crate::cells::{self, input};
use crate::files::{self, blocking, check_cancel, CANCEL_EVERY};

/// `excel.write`: sheets of rows into an .xlsx workbook, replacing any file at the path.
pub(crate) struct Write;

impl Block for Write {
    fn id(&self) -> &'static str {
        "excel.write"
    }

    fn run<'a>(&'a self, inputs: Values, ctx: &'a BlockContext) -> BoxFuture<'a, Result<Values, BlockError>> {
        Box::pin(write(inputs, ctx))
    }

    fn takes_tables(&self) -> bool {
        true
    }
}

/// Excel's limits.
const MAX_ROWS: usize = 1_048_576;
const MAX_COLUMNS: usize = 16_384;
const MAX_CELL_CHARS: usize = 32_767;

struct SheetPlan {
    name: String,
    columns: Vec<String>,
    data: SheetData,
}

/// A column's cell in row `r`; `None` where the row has no such cell.
type CellReader<'d> = Box<dyn Fn(usize) -> Option<Cow<'d, Value>> + 'd>;

/// What a sheet is written from: rows, or a run's table (read column by column).
enum SheetData {
    Rows(Vec<Map<String, Value>>),
    Table(Arc<Table>),
}

impl SheetData {
    fn len(&self) -> usize {
        match self {
            SheetData::Rows(rows) => rows.len(),
            SheetData::Table(table) => table.row_count(),
        }
    }

    /// Each column's reader of its cell in a row.
    fn cells<'d>(&'d self, columns: &'d [String]) -> Vec<CellReader<'d>> {
        columns
            .iter()
            .map(|column| -> CellReader<'d> {
                match self {
                    SheetData::Rows(rows) => Box::new(move |r| rows[r].get(column).map(Cow::Borrowed)),
                    SheetData::Table(table) => match table.column_cells(column) {
                        Some(cell) => Box::new(move |r| Some(Cow::Owned(cell(r)))),
                        None => Box::new(|_| None),
                    },
                }
            })
            .collect()
    }
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
        return Err(BlockError::input(format!(
            "`path` is {shown:?}; this block writes .xlsx workbooks, so the path must end with .xlsx{hint}"
        )));
    }
    input::required(&inputs, "sheets", "the sheets to write, e.g. {未入金: ${unpaid.filtered}}")?;
    let sheets = match inputs.remove("sheets") {
        Some(Value::Object(map)) => map,
        other => {
            return Err(BlockError::input(format!(
                "`sheets` must be an object of sheet name → list of rows, e.g. {{未入金: ${{unpaid.filtered}}}}, not {}",
                cells::describe(&other.unwrap_or(Value::Null))
            )));
        }
    };
    if sheets.is_empty() {
        return Err(BlockError::input("`sheets` is empty; give at least one sheet, e.g. {結果: ${step.rows}}"));
    }
    let mut plans = Vec::with_capacity(sheets.len());
    let mut taken: Vec<String> = Vec::new();
    for (given, value) in sheets {
        let data = match ctx.tables.get(&value) {
            Some(table) => SheetData::Table(table),
            None => SheetData::Rows(sheet_rows(&given, ctx.tables.expand(value))?),
        };
        let name = sheet_name(&given, &taken);
        if name != given {
            let text = format!(
                "sheet {given:?} is written as {name:?}: Excel sheet names have at most 31 characters, no : \\ / ? * [ \
                 ], and are unique"
            );
            ctx.log(
                LogLevel::Warn,
                Reason::said(RunMessage::SheetRenamed { given: given.clone(), written: name.clone() }, text),
            );
        }
        taken.push(name.clone());
        let columns = match &data {
            SheetData::Rows(rows) => cells::columns_of(rows),
            SheetData::Table(table) => table.columns(),
        };
        if data.len() + 1 > MAX_ROWS {
            return Err(BlockError::input(format!(
                "`sheets.{given}` has {} rows; an Excel sheet holds at most {} — split it over several sheets",
                data.len(),
                MAX_ROWS - 1
            )));
        }
        if columns.len() > MAX_COLUMNS {
            return Err(BlockError::input(format!(
                "`sheets.{given}` has {} columns; an Excel sheet holds at most {MAX_COLUMNS}",
                columns.len()
            )));
        }
        plans.push(SheetPlan { name, columns, data });
    }
    let path = files::output_file(ctx, "path", &shown)?;
    let cancel = ctx.cancel.clone();
    let name = shown.clone();
    let written = path.clone();
    let (summary_sheets, total_rows, cut_cells) = blocking(move || {
        let mut workbook = Workbook::new();
        let header = Format::new().set_bold();
        let formats = CellFormats::new();
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
            total += plan.data.len();
            names.push(plan.name.clone());
        }
        check_cancel(&cancel)?;
        let bytes = workbook.save_to_buffer().map_err(|e| xlsx_failed(&name, e))?;
        files::write_atomically(&path, &name, &bytes)?;
        Ok((names, total, cut))
    })
    .await?;
    if cut_cells > 0 {
        let text =
            format!("{cut_cells} texts were longer than Excel's {MAX_CELL_CHARS} characters per cell and were cut");
        let said = RunMessage::CellsCut { count: cut_cells as u64, max: MAX_CELL_CHARS as u64 };
        ctx.log(LogLevel::Warn, Reason::said(said, text));
    }
    ctx.artifact(&written, ArtifactKind::File);
    let text = format!("wrote {total_rows} rows in {} sheets to {shown}", summary_sheets.len());
    let said = RunMessage::WorkbookWritten {
        path: shown.clone(),
        rows: total_rows as u64,
        sheets: summary_sheets.len() as u64,
    };
    ctx.log(LogLevel::Info, Reason::said(said, text));
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
                other => Err(BlockError::input(format!(
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
                return Err(BlockError::input(format!(
                    "`sheets.{given}` is an object holding the list of rows `{key}`; give that list, e.g. \
                     `${{step.{key}}}`"
                )));
            }
            Ok(vec![map])
        }
        other => {
            Err(BlockError::input(format!("`sheets.{given}` must be a list of rows, not {}", cells::describe(&other))))
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
    /// A time written to the minute ("2026-09-30 08:55") keeps that form; one with seconds, its.
    minutes: Format,
    datetime: Format,
    /// Amounts: `#,##0`, and `#,##0.00` for a column with decimals.
    whole: Format,
    cents: Format,
    /// Amounts that were written with their currency (`¥13,200`, `$1,200.50`).
    yen: Format,
    dollars: Format,
    euros: Format,
    pounds: Format,
}

impl CellFormats {
    fn new() -> CellFormats {
        CellFormats {
            date: Format::new().set_num_format("yyyy-mm-dd"),
            minutes: Format::new().set_num_format("yyyy-mm-dd hh:mm"),
            datetime: Format::new().set_num_format("yyyy-mm-dd hh:mm:ss"),
            whole: Format::new().set_num_format("#,##0"),
            cents: Format::new().set_num_format("#,##0.00"),
            yen: Format::new().set_num_format("¥#,##0"),
            dollars: Format::new().set_num_format("$#,##0.00"),
            euros: Format::new().set_num_format("€#,##0.00"),
            pounds: Format::new().set_num_format("£#,##0.00"),
        }
    }
}

/// How a column's numbers are shown: as they are (codes, years, ids), or as amounts.
#[derive(Clone, Copy, PartialEq)]
enum NumberStyle {
    Plain,
    Whole,
    Cents,
}

/// A column named like an identifier, a code or a year keeps its numbers as they are
/// (`2026`, not `2,026`); other number columns are amounts, with two decimals when any of
/// its numbers has decimals.
fn number_style<'v>(column: &str, mut cells: impl Iterator<Item = Option<Cow<'v, Value>>>) -> NumberStyle {
    let lower = column.to_lowercase();
    let words: Vec<&str> = lower.split(|c: char| !c.is_alphanumeric()).filter(|w| !w.is_empty()).collect();
    let identifier = words
        .iter()
        .any(|w| matches!(*w, "id" | "no" | "number" | "code" | "year" | "zip" | "phone" | "tel" | "month" | "day"))
        || ["番号", "コード", "年度", "年", "ID", "No", "郵便", "電話", "月"].iter().any(|w| column.ends_with(w));
    if identifier {
        return NumberStyle::Plain;
    }
    let decimals = cells.any(|v| match v.as_deref() {
        Some(Value::Number(n)) => n.as_f64().is_some_and(|f| f.fract() != 0.0),
        Some(Value::String(s)) => crate::cells::parse_number(s).is_some_and(|n| n.scale > 0),
        _ => false,
    });
    if decimals {
        NumberStyle::Cents
    } else {
        NumberStyle::Whole
    }
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
    BlockError::failed(format!("{shown} could not be written: {e}"))
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
    let rows = plan.data.len();
    let cells = plan.data.cells(&plan.columns);
    let styles: Vec<NumberStyle> =
        plan.columns.iter().zip(&cells).map(|(column, cell)| number_style(column, (0..rows).map(cell))).collect();
    for r in 0..rows {
        if r.is_multiple_of(CANCEL_EVERY) && cancel.is_cancelled() {
            return Err(SheetError::Cancelled);
        }
        let excel_row = (r + 1) as u32;
        for (c, cell) in cells.iter().enumerate() {
            let Some(value) = cell(r) else { continue };
            cut += write_cell(sheet, excel_row, c as u16, &value, styles[c], formats)?;
        }
    }
    if !plan.columns.is_empty() {
        sheet.set_freeze_panes(1, 0)?;
        sheet.autofilter(0, 0, rows as u32, (plan.columns.len() - 1) as u16)?;
        if rows <= 10_000 {
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
    style: NumberStyle,
    formats: &CellFormats,
) -> Result<usize, rust_xlsxwriter::XlsxError> {
    let amount = match style {
        NumberStyle::Plain => None,
        NumberStyle::Whole => Some(&formats.whole),
        NumberStyle::Cents => Some(&formats.cents),
    };
    match value {
        Value::Null => {}
        Value::Bool(b) => {
            sheet.write_boolean(row, col, *b)?;
        }
        Value::Number(n) => {
            let exact = n.as_i64().is_none_or(|i| i.unsigned_abs() <= 9_007_199_254_740_991)
                && n.as_u64().is_none_or(|u| u <= 9_007_199_254_740_991);
            match (n.as_f64(), amount) {
                (Some(f), Some(format)) if exact => {
                    sheet.write_number_with_format(row, col, f, format)?;
                }
                (Some(f), None) if exact => {
                    sheet.write_number(row, col, f)?;
                }
                _ => {
                    sheet.write_string(row, col, n.to_string())?;
                }
            }
        }
        Value::String(s) => {
            if let Some((when, has_time)) = iso_datetime(s) {
                let format = match (has_time, s.trim_end().len()) {
                    (false, _) => &formats.date,
                    (true, 16) => &formats.minutes,
                    (true, _) => &formats.datetime,
                };
                sheet.write_datetime_with_format(row, col, &when, format)?;
            } else if let (Some(number), Some(format)) = (crate::cells::parse_number(s), amount) {
                // An amount written as text ("¥13,200", "1,200") is a number in the workbook.
                let format = match s.trim().trim_start_matches(['-', '+', '△', '▲']).chars().next() {
                    Some('¥' | '￥') => &formats.yen,
                    _ if s.trim_end().ends_with('円') => &formats.yen,
                    Some('$') => &formats.dollars,
                    Some('€') => &formats.euros,
                    Some('£') => &formats.pounds,
                    _ => format,
                };
                sheet.write_number_with_format(row, col, number.value, format)?;
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
    fn sheet_names_are_unique_ignoring_case() {
        let taken = vec!["Data".to_string()];
        assert_eq!(sheet_name("data", &taken), "data (2)");
        assert_eq!(sheet_name("a:b*c?", &[]), "a_b_c_");
        assert_eq!(sheet_name("'quoted'", &[]), "quoted");
        assert_eq!(sheet_name("  ", &taken), "Sheet2");
    }
}
