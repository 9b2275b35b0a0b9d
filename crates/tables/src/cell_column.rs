//! [`CellColumn`]: a column built one cell at a time and stored at the end as
//! [`Table::of_cells`] stores a column — whole numbers as numbers, dates written `YYYY-MM-DD` as
//! dates, any other as values — without holding the cells as JSON values. While every cell so
//! far is a whole number (or a date) it keeps the numbers (the days); at the first that is not,
//! it turns what it has into the JSON texts a values column keeps.

use std::sync::Arc;

use arrow_array::builder::{ArrayBuilder, LargeStringBuilder};
use arrow_array::{ArrayRef, Date32Array, Int64Array};
use serde_json::Value;

use crate::rows::{date_text, read_date};

/// A column's cells as they come, for [`crate::Table::of_columns`].
pub struct CellColumn {
    cells: Cells,
}

enum Cells {
    /// Every cell so far is a whole number (`Value::as_i64`); a column without cells too.
    Whole(Vec<i64>),
    /// Every cell so far is a date written `YYYY-MM-DD`, as days since 1970-01-01.
    Dates(Vec<i32>),
    /// Each cell's JSON text; a null as a null.
    Values(LargeStringBuilder),
}

impl Default for CellColumn {
    fn default() -> Self {
        CellColumn { cells: Cells::Whole(Vec::new()) }
    }
}

impl CellColumn {
    /// A column whose first `rows` cells are null.
    pub fn with_nulls(rows: usize) -> CellColumn {
        let mut column = CellColumn::default();
        (0..rows).for_each(|_| column.push(&Value::Null));
        column
    }

    /// Adds the next cell.
    pub fn push(&mut self, cell: &Value) {
        let days = || cell.as_str().and_then(read_date);
        match &mut self.cells {
            Cells::Whole(whole) => {
                if let Some(number) = cell.as_i64() {
                    return whole.push(number);
                }
                match days() {
                    Some(days) if whole.is_empty() => return self.cells = Cells::Dates(vec![days]),
                    _ => self.cells = Cells::Values(texts(whole.iter().map(i64::to_string))),
                }
            }
            Cells::Dates(dates) => match days() {
                Some(days) => return dates.push(days),
                None => {
                    let quoted = dates.iter().map(|&days| Value::String(date_text(days)).to_string());
                    self.cells = Cells::Values(texts(quoted));
                }
            },
            Cells::Values(_) => {}
        }
        if let Cells::Values(texts) = &mut self.cells {
            match cell {
                Value::Null => texts.append_null(),
                cell => texts.append_value(cell.to_string()),
            }
        }
    }

    /// How many cells it has.
    pub fn len(&self) -> usize {
        match &self.cells {
            Cells::Whole(whole) => whole.len(),
            Cells::Dates(dates) => dates.len(),
            Cells::Values(texts) => texts.len(),
        }
    }

    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// The column stored: whole numbers as numbers, dates as dates, any other as values.
    pub(crate) fn finish(self) -> ArrayRef {
        match self.cells {
            Cells::Whole(whole) => Arc::new(Int64Array::from(whole)),
            Cells::Dates(dates) => Arc::new(Date32Array::from(dates)),
            Cells::Values(mut texts) => Arc::new(texts.finish()),
        }
    }
}

/// A values column's builder holding these JSON texts.
fn texts(cells: impl Iterator<Item = String>) -> LargeStringBuilder {
    let mut texts = LargeStringBuilder::new();
    cells.for_each(|text| texts.append_value(text));
    texts
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use crate::{Storage, Table};

    #[test]
    fn cells_are_stored_as_numbers_dates_or_values_and_read_back_as_given() {
        let columns = vec![
            ("count".to_owned(), vec![json!(3), json!(-12)]),
            ("paid".to_owned(), vec![json!("2026-04-01"), json!("2024-02-29")]),
            ("code".to_owned(), vec![json!("123"), json!(null)]),
            ("mixed".to_owned(), vec![json!(1.5), json!("2026-4-1")]),
            ("gap".to_owned(), vec![json!(1), json!(null)]),
            ("dated".to_owned(), vec![json!("2026-04-01"), json!("soon")]),
            ("counted".to_owned(), vec![json!(5), json!("five")]),
        ];
        let table = Table::of_cells(columns.clone(), 2);
        let values = Storage::Values;
        assert_eq!(table.storage(), [Storage::Integer, Storage::Date, values, values, values, values, values]);
        let rows: Vec<serde_json::Value> = (0..2)
            .map(|i| {
                serde_json::Value::Object(
                    columns.iter().map(|(name, cells)| (name.clone(), cells[i].clone())).collect(),
                )
            })
            .collect();
        assert_eq!(table.rows(), rows);
        assert_eq!(Table::of_cells(vec![("none".to_owned(), vec![])], 0).storage(), [Storage::Integer]);
    }
}
