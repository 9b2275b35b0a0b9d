//! [`CellColumn`]: a column built one cell at a time, each cell kept as its JSON text, stored at
//! the end as [`Table::of_cells`] stores a column — whole numbers as numbers, dates written
//! `YYYY-MM-DD` as dates, any other as values — without holding the cells as JSON values.

use std::sync::Arc;

use arrow_array::builder::{ArrayBuilder, LargeStringBuilder};
use arrow_array::{ArrayRef, Date32Array, Int64Array, LargeStringArray};
use serde_json::Value;

use crate::rows::read_date;

/// A column's cells as they come, for [`crate::Table::of_columns`].
pub struct CellColumn {
    texts: LargeStringBuilder,
    /// Every cell so far is a whole number (`Value::as_i64`).
    whole: bool,
    /// Every cell so far is a date written `YYYY-MM-DD`.
    dates: bool,
}

impl Default for CellColumn {
    fn default() -> Self {
        CellColumn { texts: LargeStringBuilder::new(), whole: true, dates: true }
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
        self.whole &= cell.as_i64().is_some();
        self.dates &= cell.as_str().and_then(read_date).is_some();
        match cell {
            Value::Null => self.texts.append_null(),
            cell => self.texts.append_value(cell.to_string()),
        }
    }

    /// How many cells it has.
    pub fn len(&self) -> usize {
        self.texts.len()
    }

    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// The column stored: whole numbers as numbers, dates as dates, any other as values.
    pub(crate) fn finish(mut self) -> ArrayRef {
        let texts: LargeStringArray = self.texts.finish();
        // A column of whole numbers or of dates has no null: each text is a number's or a date's.
        if self.whole {
            let whole: Int64Array = texts.iter().map(|text| text.and_then(|t| t.parse::<i64>().ok())).collect();
            return Arc::new(whole);
        }
        if self.dates {
            let days: Date32Array =
                texts.iter().map(|text| text.and_then(|t| read_date(t.trim_matches('"')))).collect();
            return Arc::new(days);
        }
        Arc::new(texts)
    }
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
        ];
        let table = Table::of_cells(columns.clone(), 2);
        assert_eq!(
            table.storage(),
            [Storage::Integer, Storage::Date, Storage::Values, Storage::Values, Storage::Values]
        );
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
