//! `report.write`: markdown, JSON or CSV.
//!
//! Markdown: a `# title` (the file name when no title is given), then the data — a list of rows
//! as a table (numeric columns right-aligned), a list of other values as bullets, an object as
//! bullets for its plain values and a `##` section (`###` below it, …) for each nested list or
//! object, text as it is. JSON: pretty-printed, UTF-8. CSV: a list of rows, columns in
//! first-seen order, UTF-8 with a BOM and CRLF line ends so that Excel opens it with Japanese
//! intact; text that Excel would run as a formula (starting with `=`, `+`, `-`, `@` and not a
//! number) is written with a leading `'`.

use std::borrow::Cow;
use std::sync::Arc;

use futures::future::BoxFuture;
use planwright_block::{Block, BlockContext, BlockError, Values};
use planwright_runs::{ArtifactKind, LogLevel, Reason, RunMessage};
use planwright_tables::Table;
use serde_json::{Map, Value};

use crate::cells::{self, input};
use crate::files::{self, blocking, check_cancel, CANCEL_EVERY};

/// The report block, for the registry.
pub(crate) fn blocks() -> Vec<Arc<dyn Block>> {
    vec![Arc::new(Write)]
}

/// `report.write`.
pub(crate) struct Write;

impl Block for Write {
    fn id(&self) -> &'static str {
        "report.write"
    }

    fn run<'a>(&'a self, inputs: Values, ctx: &'a BlockContext) -> BoxFuture<'a, Result<Values, BlockError>> {
        Box::pin(write(inputs, ctx))
    }

    /// A CSV report of a run's table is written from its columns; other reports from its rows.
    fn takes_tables(&self) -> bool {
        true
    }
}

async fn write(mut inputs: Values, ctx: &BlockContext) -> Result<Values, BlockError> {
    let shown = input::text(&inputs, "path", "where to save the report, e.g. reports/2024-04.md")?.to_string();
    let format = input::choice(&inputs, "format", &["markdown", "md", "json", "csv"], "markdown")?;
    let format = if format == "md" { "markdown" } else { format };
    let title = input::optional_text(&inputs, "title")?.map(str::to_string);
    if !inputs.contains_key("data") {
        return Err(input::missing("data", "what to write, e.g. ${unpaid.filtered}"));
    }
    let data = inputs.remove("data").unwrap_or(Value::Null);
    let table = ctx.tables.get(&data).filter(|_| format == "csv");
    let data = if table.is_some() { Value::Null } else { ctx.tables.expand(data) };
    if format == "csv" && table.is_none() {
        check_csv_data(&data)?;
    }
    let ext = files::extension(std::path::Path::new(&shown));
    let expected: &[&str] = match format {
        "markdown" => &["md", "markdown", "txt"],
        "json" => &["json"],
        _ => &["csv"],
    };
    if !expected.contains(&ext.as_str()) {
        let text =
            format!("{shown} is written as {format} although its name ends in .{ext}; programs may not open it right");
        let said = RunMessage::FileNameMismatch { path: shown.clone(), kind: format.to_owned(), ext: ext.clone() };
        ctx.log(LogLevel::Warn, Reason::said(said, text));
    }
    let path = files::output_file(ctx, "path", &shown)?;
    let title = title.unwrap_or_else(|| {
        std::path::Path::new(&shown).file_stem().map_or("Report".to_string(), |s| s.to_string_lossy().into_owned())
    });
    let cancel = ctx.cancel.clone();
    let name = shown.clone();
    let written = path.clone();
    blocking(move || {
        let bytes = match format {
            "json" => {
                let mut text = serde_json::to_string_pretty(&data)
                    .map_err(|e| BlockError::failed(format!("the data cannot be written as JSON: {e}")))?;
                text.push('\n');
                text.into_bytes()
            }
            "csv" => match &table {
                Some(table) => table_csv_bytes(table, &cancel)?,
                None => csv_bytes(&data, &cancel)?,
            },
            _ => markdown(&title, &data, &cancel)?.into_bytes(),
        };
        check_cancel(&cancel)?;
        files::write_atomically(&path, &name, &bytes)
    })
    .await?;
    ctx.artifact(&written, ArtifactKind::Report);
    let said = RunMessage::ReportWritten { format: format.to_owned(), path: shown.clone() };
    ctx.log(LogLevel::Info, Reason::said(said, format!("wrote the {format} report {shown}")));
    let mut out = Values::new();
    out.insert("path".into(), Value::String(shown));
    Ok(out)
}

fn check_csv_data(data: &Value) -> Result<(), BlockError> {
    match data {
        Value::Array(items) => {
            if let Some((i, item)) = items.iter().enumerate().find(|(_, v)| !v.is_object()) {
                return Err(BlockError::input(format!(
                    "`data`: format csv needs a list of rows (objects), but item {i} is {}",
                    cells::describe(item)
                )));
            }
            Ok(())
        }
        Value::Object(map) => {
            let lists: Vec<&str> = map
                .iter()
                .filter(|(_, v)| v.as_array().is_some_and(|a| a.iter().all(Value::is_object)))
                .map(|(k, _)| k.as_str())
                .collect();
            let hint = match lists.first() {
                Some(key) => format!("; it holds the list `{key}` — give that, e.g. `${{step.{key}}}`"),
                None => "; use format markdown or json for other data".into(),
            };
            Err(BlockError::input(format!(
                "`data`: format csv needs a list of rows, not {}{hint}",
                cells::describe(data)
            )))
        }
        other => Err(BlockError::input(format!(
            "`data`: format csv needs a list of rows, not {}; use format markdown or json for other data",
            cells::describe(other)
        ))),
    }
}

// ---------------------------------------------------------------------------------------------
// CSV
// ---------------------------------------------------------------------------------------------

fn csv_bytes(data: &Value, cancel: &tokio_util::sync::CancellationToken) -> Result<Vec<u8>, BlockError> {
    let rows: Vec<&Map<String, Value>> =
        data.as_array().map(|a| a.iter().filter_map(Value::as_object).collect()).unwrap_or_default();
    let columns = cells::columns_of(rows.iter().copied());
    static BLANK: Value = Value::Null;
    let cell = |row: usize, column: usize| Cow::Borrowed(rows[row].get(&columns[column]).unwrap_or(&BLANK));
    csv_table_bytes(&columns, rows.len(), cell, cancel)
}

/// [`csv_bytes`] of a run's table, read column by column as its rows would be.
fn table_csv_bytes(table: &Table, cancel: &tokio_util::sync::CancellationToken) -> Result<Vec<u8>, BlockError> {
    let columns = table.columns();
    let readers: Vec<_> = columns.iter().filter_map(|column| table.column_cells(column)).collect();
    csv_table_bytes(&columns, table.row_count(), |row, column| Cow::Owned(readers[column](row)), cancel)
}

/// A CSV file (UTF-8 with a byte-order mark, for Excel) of `columns` and `rows` rows, each cell
/// given by `cell(row, column)`.
fn csv_table_bytes<'v>(
    columns: &[String],
    rows: usize,
    cell: impl Fn(usize, usize) -> Cow<'v, Value>,
    cancel: &tokio_util::sync::CancellationToken,
) -> Result<Vec<u8>, BlockError> {
    let mut out = "\u{FEFF}".as_bytes().to_vec();
    let failed = |e: csv::Error| BlockError::failed(format!("the CSV report cannot be written: {e}"));
    {
        let mut writer = csv::WriterBuilder::new().terminator(csv::Terminator::CRLF).from_writer(&mut out);
        if !columns.is_empty() {
            writer.write_record(columns).map_err(failed)?;
        }
        for row in 0..rows {
            if row.is_multiple_of(CANCEL_EVERY) {
                check_cancel(cancel)?;
            }
            writer.write_record((0..columns.len()).map(|column| csv_cell(&cell(row, column)))).map_err(failed)?;
        }
        writer.flush().map_err(|e| BlockError::failed(format!("the CSV report cannot be written: {e}")))?;
    }
    Ok(out)
}

/// A cell as CSV text, guarded against Excel running it as a formula.
pub(crate) fn csv_cell(value: &Value) -> String {
    let text = cells::display_text(value);
    if let Value::String(s) = value {
        let risky = matches!(s.chars().next(), Some('=' | '+' | '-' | '@' | '\t' | '\r'));
        if risky && cells::parse_number(s).is_none() {
            return format!("'{s}");
        }
    }
    text
}

// ---------------------------------------------------------------------------------------------
// Markdown
// ---------------------------------------------------------------------------------------------

fn markdown(title: &str, data: &Value, cancel: &tokio_util::sync::CancellationToken) -> Result<String, BlockError> {
    let mut out = String::new();
    out.push_str("# ");
    out.push_str(&inline(title));
    out.push_str("\n\n");
    render(data, 2, &mut out, cancel)?;
    while out.ends_with("\n\n") {
        out.pop();
    }
    Ok(out)
}

fn render(
    value: &Value,
    level: usize,
    out: &mut String,
    cancel: &tokio_util::sync::CancellationToken,
) -> Result<(), BlockError> {
    match value {
        Value::Array(items) if items.is_empty() => out.push_str("_(none)_\n\n"),
        Value::Array(items) if items.iter().all(Value::is_object) => table(items, out, cancel)?,
        Value::Array(items) => {
            for item in items {
                out.push_str("- ");
                out.push_str(&inline_value(item));
                out.push('\n');
            }
            out.push('\n');
        }
        Value::Object(map) if map.is_empty() => out.push_str("_(none)_\n\n"),
        Value::Object(map) => {
            let mut in_list = false;
            for (key, value) in map {
                let plain = match value {
                    Value::Array(items) => items.len() <= 10 && !items.iter().any(|v| v.is_object() || v.is_array()),
                    Value::Object(_) => false,
                    _ => true,
                };
                if plain {
                    out.push_str(&format!("- **{}**: {}\n", inline(key), inline_value(value)));
                    in_list = true;
                    continue;
                }
                if in_list {
                    out.push('\n');
                    in_list = false;
                }
                if level <= 6 {
                    out.push_str(&format!("{} {}\n\n", "#".repeat(level), inline(key)));
                } else {
                    out.push_str(&format!("**{}**\n\n", inline(key)));
                }
                render(value, level + 1, out, cancel)?;
            }
            if in_list {
                out.push('\n');
            }
        }
        Value::String(text) => {
            out.push_str(text);
            out.push_str("\n\n");
        }
        other => {
            out.push_str(&cells::display_text(other));
            out.push_str("\n\n");
        }
    }
    Ok(())
}

fn table(items: &[Value], out: &mut String, cancel: &tokio_util::sync::CancellationToken) -> Result<(), BlockError> {
    let rows: Vec<&Map<String, Value>> = items.iter().filter_map(Value::as_object).collect();
    let columns = cells::columns_of(rows.iter().copied());
    if columns.is_empty() {
        out.push_str("_(rows without columns)_\n\n");
        return Ok(());
    }
    let numeric: Vec<bool> = columns
        .iter()
        .map(|c| {
            let mut any = false;
            let all = rows.iter().all(|r| match r.get(c) {
                None | Some(Value::Null) => true,
                Some(Value::Number(_)) => {
                    any = true;
                    true
                }
                _ => false,
            });
            all && any
        })
        .collect();
    out.push('|');
    for column in &columns {
        out.push(' ');
        out.push_str(&cell(column));
        out.push_str(" |");
    }
    out.push_str("\n|");
    for &right in &numeric {
        out.push_str(if right { " ---: |" } else { " --- |" });
    }
    out.push('\n');
    for (n, row) in rows.iter().enumerate() {
        if n.is_multiple_of(CANCEL_EVERY) {
            check_cancel(cancel)?;
        }
        out.push('|');
        for column in &columns {
            out.push(' ');
            let text = match row.get(column) {
                Some(Value::String(s)) => s.replace("\r\n", "\n").replace(['\r', '\n'], "<br>"),
                other => inline_value(other.unwrap_or(&Value::Null)),
            };
            out.push_str(&cell(&text));
            out.push_str(" |");
        }
        out.push('\n');
    }
    out.push_str(&format!("\n{} {}\n\n", rows.len(), if rows.len() == 1 { "row" } else { "rows" }));
    Ok(())
}

/// A value on one line: scalars as text, short lists of scalars joined by commas, the rest as
/// compact JSON in backticks.
fn inline_value(value: &Value) -> String {
    match value {
        Value::Null => String::new(),
        Value::String(s) => inline(s),
        Value::Array(items) if items.is_empty() => "_(none)_".into(),
        Value::Array(items) if !items.iter().any(|v| v.is_object() || v.is_array()) => {
            items.iter().map(|v| inline(&cells::display_text(v))).collect::<Vec<_>>().join(", ")
        }
        Value::Array(_) | Value::Object(_) => format!("`{}`", value.to_string().replace('`', "'")),
        other => cells::display_text(other),
    }
}

/// Text on one line.
fn inline(text: &str) -> String {
    text.replace("\r\n", "\n").replace(['\r', '\n'], " ")
}

/// Text inside a table cell: pipes escaped, line breaks as `<br>`.
fn cell(text: &str) -> String {
    text.replace('|', "\\|")
}
