//! CSV text into a [`Table`]: the header's names made unique, rows of spaces skipped, short rows
//! padded and long ones given `column_N` columns, and each column stored as numbers when every
//! non-empty cell of it is a plain number written the same way, as dates when every one is a
//! date written `YYYY-MM-DD`.

use std::io::{BufRead, BufReader, Read};
use std::sync::Arc;

use arrow_array::builder::StringBuilder;
use arrow_array::{ArrayRef, Date32Array, Decimal128Array, Int64Array, StringArray};

use crate::names::{unique_name, unique_names};
use crate::rows::{read_date, read_plain};
use crate::Table;

/// How the text is laid out.
#[derive(Debug, Clone, Copy)]
pub struct CsvFormat {
    pub delimiter: u8,
    /// Whether the first row that is not blank names the columns.
    pub has_header: bool,
}

#[derive(Debug, thiserror::Error)]
pub enum CsvError {
    #[error("the CSV file cannot be read on line {line}: {message}")]
    UnreadableAt { line: u64, message: String },
    #[error("the CSV file cannot be read: {message}")]
    Unreadable { message: String },
    #[error("the reading was stopped")]
    Cancelled,
}

/// Rows between two looks at `cancelled`.
const CANCEL_EVERY: usize = 1024;

/// Reads CSV text (UTF-8, a byte-order mark skipped) into a table, asking `cancelled` every
/// thousand rows or so.
pub fn read_csv(text: impl Read, format: CsvFormat, cancelled: &dyn Fn() -> bool) -> Result<Table, CsvError> {
    let mut text = BufReader::new(text);
    if text.fill_buf().map_err(|e| CsvError::Unreadable { message: e.to_string() })?.starts_with(b"\xEF\xBB\xBF") {
        text.consume(3);
    }
    let mut reader =
        csv::ReaderBuilder::new().delimiter(format.delimiter).has_headers(false).flexible(true).from_reader(text);
    let mut names: Vec<String> = Vec::new();
    let mut columns: Vec<ColumnBuilder> = Vec::new();
    let mut header_done = !format.has_header;
    let mut rows = 0usize;
    let mut record = csv::StringRecord::new();
    for count in 0usize.. {
        if count.is_multiple_of(CANCEL_EVERY) && cancelled() {
            return Err(CsvError::Cancelled);
        }
        let more = reader.read_record(&mut record).map_err(|e| match e.position() {
            Some(p) => CsvError::UnreadableAt { line: p.line(), message: e.to_string() },
            None => CsvError::Unreadable { message: e.to_string() },
        })?;
        if !more {
            break;
        }
        if record.iter().all(|cell| cell.trim().is_empty()) {
            continue;
        }
        if !header_done {
            names = unique_names(record.iter().map(|c| c.trim().trim_start_matches('\u{FEFF}').to_string()));
            columns = names.iter().map(|_| ColumnBuilder::new(0)).collect();
            header_done = true;
            continue;
        }
        while names.len() < record.len() {
            let name = unique_name(&format!("column_{}", names.len() + 1), &names);
            names.push(name);
            columns.push(ColumnBuilder::new(rows));
        }
        for (i, column) in columns.iter_mut().enumerate() {
            column.push(record.get(i).unwrap_or(""));
        }
        rows += 1;
    }
    let columns = names.into_iter().zip(columns).map(|(name, column)| (name, column.finish())).collect();
    Ok(Table::new(columns, rows))
}

/// One column as it is read: its cells' text, and whether they are all numbers of one form.
struct ColumnBuilder {
    text: StringBuilder,
    form: Form,
}

/// What the non-empty cells of a column read so far have in common.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Form {
    /// No non-empty cell yet.
    Unknown,
    Whole,
    Decimals(u8),
    Date,
    Text,
}

impl ColumnBuilder {
    /// A column that joins the table after `rows` rows, which have it empty.
    fn new(rows: usize) -> ColumnBuilder {
        let mut text = StringBuilder::new();
        (0..rows).for_each(|_| text.append_value(""));
        ColumnBuilder { text, form: Form::Unknown }
    }

    fn push(&mut self, cell: &str) {
        self.text.append_value(cell);
        if cell.is_empty() || self.form == Form::Text {
            return;
        }
        let form = match read_plain(cell) {
            None if read_date(cell).is_some() => Form::Date,
            None => Form::Text,
            Some(plain) => match plain.decimals {
                None => Form::Whole,
                // `-0.0` is a double of its own (negative zero) that a decimal does not keep.
                Some(_)
                    if plain.text.starts_with('-') && plain.text.bytes().all(|b| matches!(b, b'-' | b'0' | b'.')) =>
                {
                    Form::Text
                }
                Some(scale) => Form::Decimals(scale),
            },
        };
        self.form = match self.form {
            Form::Unknown => form,
            same if same == form => same,
            _ => Form::Text,
        };
    }

    fn finish(mut self) -> ArrayRef {
        let text = self.text.finish();
        match self.form {
            Form::Whole => Arc::new(whole_numbers(&text)),
            Form::Decimals(scale) => Arc::new(decimals(&text, scale)),
            Form::Date => Arc::new(text.iter().map(|cell| cell.and_then(read_date)).collect::<Date32Array>()),
            Form::Unknown | Form::Text => Arc::new(text),
        }
    }
}

/// The cells of a column whose non-empty cells are all plain whole numbers, empty ones null.
fn whole_numbers(text: &StringArray) -> Int64Array {
    text.iter().map(|cell| cell.filter(|c| !c.is_empty()).and_then(|c| c.trim().parse::<i64>().ok())).collect()
}

/// The cells of a column whose non-empty cells are all plain numbers with `scale` decimals, as
/// units of 10^-scale; empty ones null. At most 15 digits each, so precision 18 holds them.
fn decimals(text: &StringArray, scale: u8) -> Decimal128Array {
    // The cell's digits, the point left out; every cell here is a plain number (`read_plain`).
    let units = |cell: &str| -> Option<i128> {
        let text = cell.trim();
        let (negative, digits) = match text.strip_prefix('-') {
            Some(rest) => (true, rest),
            None => (false, text),
        };
        let units = digits
            .bytes()
            .filter(|b| *b != b'.')
            .try_fold(0i128, |units, digit| digit.is_ascii_digit().then(|| units * 10 + i128::from(digit - b'0')))?;
        Some(if negative { -units } else { units })
    };
    text.iter()
        .map(|cell| cell.filter(|c| !c.is_empty()).and_then(units))
        .collect::<Decimal128Array>()
        .with_precision_and_scale(18, scale as i8)
        .expect("18 digits hold any plain number, and its scale is at most 15")
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;
    use crate::Storage;

    fn read(text: &str, has_header: bool) -> Table {
        read_csv(text.as_bytes(), CsvFormat { delimiter: b',', has_header }, &|| false).unwrap()
    }

    #[test]
    fn columns_of_one_number_form_are_stored_as_numbers_and_read_back_as_written() {
        let table = read("\u{feff}id,amount,code,mixed\n1,12.50,007,1\n2,,010,1.5\n,3.00,x,\n", true);
        assert_eq!(table.columns(), ["id", "amount", "code", "mixed"]);
        assert_eq!(table.storage(), [Storage::Integer, Storage::Decimal { scale: 2 }, Storage::Text, Storage::Text]);
        assert_eq!(
            table.rows(),
            [
                json!({"id": 1, "amount": 12.5, "code": "007", "mixed": 1}),
                json!({"id": 2, "amount": "", "code": "010", "mixed": 1.5}),
                json!({"id": "", "amount": 3.0, "code": "x", "mixed": ""}),
            ]
        );
    }

    #[test]
    fn blank_rows_are_skipped_and_ragged_rows_padded_or_given_columns() {
        let table = read("a,a\n , \n1\n1,2,3\n", true);
        assert_eq!(table.columns(), ["a", "a_2", "column_3"]);
        assert_eq!(
            table.rows(),
            [json!({"a": 1, "a_2": "", "column_3": ""}), json!({"a": 1, "a_2": 2, "column_3": 3})]
        );
    }

    #[test]
    fn columns_of_calendar_dates_are_stored_as_dates_and_read_back_as_written() {
        let table = read(
            "paid,due,noted\n2026-04-01,2026-02-28,2026-04-01\n,2024-02-29,2026-4-1\n2026-12-31,2026-02-30,\n",
            true,
        );
        assert_eq!(table.storage(), [Storage::Date, Storage::Text, Storage::Text], "2026-02-30 is no date");
        assert_eq!(
            table.rows(),
            [
                json!({"paid": "2026-04-01", "due": "2026-02-28", "noted": "2026-04-01"}),
                json!({"paid": "", "due": "2024-02-29", "noted": "2026-4-1"}),
                json!({"paid": "2026-12-31", "due": "2026-02-30", "noted": ""}),
            ]
        );
        let masked = table.map_text(&|text: &str| text.replace("2026-12-31", "***")).expect("a date cell held it");
        assert_eq!(masked.row(2).unwrap()["paid"], "***");
        assert_eq!(masked.row(1).unwrap()["paid"], "");
    }

    #[test]
    fn a_negative_zero_with_decimals_keeps_its_column_as_text() {
        let table = read("x\n-0.0\n1.5\n", true);
        assert_eq!(table.storage(), [Storage::Text]);
        assert_eq!(table.rows()[0]["x"].to_string(), "-0.0");
    }

    #[test]
    fn a_stop_is_seen_before_the_first_row() {
        let stopped = read_csv("a\n1\n".as_bytes(), CsvFormat { delimiter: b',', has_header: true }, &|| true);
        assert!(matches!(stopped, Err(CsvError::Cancelled)));
    }
}
