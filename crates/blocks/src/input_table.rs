//! The columns of an input file as the read blocks would read it, for checking a plan before it
//! runs: the same options, encodings, title rows and header rules as `file.read_csv` and
//! `excel.read_data`, and each column's kind from its values.

use std::path::Path;

use planwright_block::{Values, Workdir};
use planwright_plan::{Column, ColumnKind};
use serde_json::Value;
use tokio_util::sync::CancellationToken;

use crate::cells;
use crate::excel::{read_sheet_file, SheetOptions};
use crate::files::{read_csv_file, CsvOptions};

/// Files larger than this are not read to check a plan (a run reads them); their columns are
/// then not known before the run.
const MAX_CHECKED_BYTES: u64 = 20 * 1024 * 1024;

/// How many rows' values decide a column's kind, and are kept (for a dry-run's sample and
/// for telling which column holds a value the instruction names).
const SAMPLE_ROWS: usize = 200;

/// An input file's table before the run: its columns with their kinds, and its first 200 rows.
#[derive(Debug, Clone, PartialEq)]
pub struct FileTable {
    pub columns: Vec<Column>,
    pub rows: Vec<Value>,
    /// Whether `rows` are every row of the file (it has no more than 200).
    pub complete: bool,
}

/// The table `block` (`file.read_csv` or `excel.read_data`) would read with `inputs` (its
/// `path` already a literal) in the work folder `root`. `Ok(None)` when that is not known now:
/// another block, no such file (yet), a file over 20 MB, an option given at run time. `Err` with
/// the block's own words when the file is there and the block would refuse it as the inputs say
/// to read it (a sheet the workbook does not have): the run would fail the same way.
pub fn input_table(block: &str, inputs: &Values, root: &Path) -> Result<Option<FileTable>, String> {
    let Some(shown) = inputs.get("path").and_then(Value::as_str) else { return Ok(None) };
    // An option given at run time (`encoding: ${vars.encoding}`) is not known yet.
    let given_later = inputs.values().any(|v| v.as_str().is_some_and(|t| t.contains("${")));
    if given_later {
        return Ok(None);
    }
    let Some(path) = Workdir::new(root).ok().and_then(|w| w.resolve("path", shown).ok()) else { return Ok(None) };
    let Ok(meta) = std::fs::metadata(&path) else { return Ok(None) };
    if !meta.is_file() || meta.len() > MAX_CHECKED_BYTES {
        return Ok(None);
    }
    let cancel = CancellationToken::new();
    // One row past the sample tells whether the sample is all of them.
    let table = match block {
        "file.read_csv" => {
            let options = CsvOptions::of(inputs).map_err(|e| e.to_string())?;
            read_csv_file(&path, shown, &options, &cancel).map_err(|e| e.to_string())?.table
        }
        "excel.read_data" => {
            let options = SheetOptions::of(inputs).map_err(|e| e.to_string())?;
            read_sheet_file(&path, shown, &options, Some(SAMPLE_ROWS + 1), &cancel).map_err(|e| e.to_string())?.table
        }
        _ => return Ok(None),
    };
    let (names, rows) = (table.columns(), table.first_rows(SAMPLE_ROWS + 1));
    let sample = &rows[..rows.len().min(SAMPLE_ROWS)];
    let columns = names
        .into_iter()
        .map(|name| {
            let kind = kind_of(sample.iter().filter_map(|row| row.get(&name)));
            Column { name, kind }
        })
        .collect();
    let complete = rows.len() <= SAMPLE_ROWS;
    Ok(Some(FileTable { columns, rows: rows.into_iter().take(SAMPLE_ROWS).collect(), complete }))
}

/// A column's kind from its values, as the table blocks read them: numbers when every non-blank
/// value is one (amounts written "¥1,200" included), dates and clock times likewise, else text.
pub fn kind_of<'a>(values: impl Iterator<Item = &'a Value>) -> ColumnKind {
    let mut seen = values.filter(|v| !cells::is_blank(v)).peekable();
    if seen.peek().is_none() {
        return ColumnKind::Unknown;
    }
    let (mut number, mut date, mut time, mut boolean) = (true, true, true, true);
    for value in seen {
        number &= cells::number(value).is_some();
        date &= cells::date(value).is_some();
        time &= cells::clock_time(value).is_some();
        boolean &= value.is_boolean();
    }
    match (number, date, time, boolean) {
        (true, ..) => ColumnKind::Number,
        (_, true, ..) => ColumnKind::Date,
        (_, _, true, _) => ColumnKind::Time,
        (.., true) => ColumnKind::Boolean,
        _ => ColumnKind::Text,
    }
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    #[test]
    fn kinds_follow_what_the_blocks_read_as_numbers_and_dates() {
        let kind = |values: Value| kind_of(values.as_array().unwrap().iter());
        assert_eq!(kind(json!(["¥1,200", "1200", " 35 ", ""])), ColumnKind::Number);
        assert_eq!(kind(json!(["2026-03-01", "2026/3/2"])), ColumnKind::Date);
        assert_eq!(kind(json!(["9:00", "17:30", "08:15:00"])), ColumnKind::Time);
        assert_eq!(kind(json!(["9:00", "late"])), ColumnKind::Text);
        assert_eq!(kind(json!(["Acme", "1200"])), ColumnKind::Text);
        assert_eq!(kind(json!([true, false])), ColumnKind::Boolean);
        assert_eq!(kind(json!(["", null])), ColumnKind::Unknown);
    }

    /// A check reads a workbook's title rows, its header and the first rows under it, not the
    /// whole sheet; whether those are all of its rows is said.
    #[test]
    fn a_workbook_checked_gives_its_header_and_first_200_rows_and_says_whether_more_follow() {
        let dir = tempfile::tempdir().unwrap();
        let write = |name: &str, rows: u32| {
            let mut book = rust_xlsxwriter::Workbook::new();
            let sheet = book.add_worksheet();
            sheet.write_string(0, 0, "Payments, March").unwrap();
            sheet.write_string(2, 0, "vendor").unwrap();
            sheet.write_string(2, 1, "amount").unwrap();
            for row in 0..rows {
                sheet.write_string(row + 3, 0, format!("Vendor {row}")).unwrap();
                sheet.write_number(row + 3, 1, f64::from(row)).unwrap();
            }
            book.save(dir.path().join(name)).unwrap();
        };
        write("long.xlsx", 5_000);
        write("short.xlsx", 200);
        let inputs =
            |path: &str| Values::from_iter([("path".to_owned(), json!(path)), ("header_row".to_owned(), json!(3))]);
        let long = input_table("excel.read_data", &inputs("long.xlsx"), dir.path()).unwrap().unwrap();
        let names: Vec<&str> = long.columns.iter().map(|c| c.name.as_str()).collect();
        assert_eq!(names, ["vendor", "amount"]);
        assert_eq!(long.columns[1].kind, ColumnKind::Number);
        assert_eq!((long.rows.len(), long.complete), (200, false));
        assert_eq!(long.rows[199], json!({"vendor": "Vendor 199", "amount": 199}));
        let short = input_table("excel.read_data", &inputs("short.xlsx"), dir.path()).unwrap().unwrap();
        assert_eq!((short.rows.len(), short.complete), (200, true));
        // A sheet the workbook does not have: the block's own words, before the run.
        let mut named = inputs("short.xlsx");
        named.insert("sheet".to_owned(), json!("is"));
        let refused = input_table("excel.read_data", &named, dir.path()).unwrap_err();
        assert!(refused.contains("no sheet \"is\"") && refused.contains("Sheet1"), "{refused}");
        assert_eq!(input_table("excel.read_data", &inputs("absent.xlsx"), dir.path()), Ok(None));
        // A sheet named at run time is not refused before it.
        named.insert("sheet".to_owned(), json!("${vars.sheet}"));
        assert_eq!(input_table("excel.read_data", &named, dir.path()), Ok(None));
    }
}
