//! [`Table`]: named columns of one length, each an Arrow array of one [`Storage`].

use std::sync::Arc;

use arrow_array::{
    Array, ArrayRef, Date32Array, Decimal128Array, Int64Array, LargeStringArray, RecordBatch, StringArray,
};
use arrow_schema::{DataType, Field, Schema};
use serde_json::{Map, Value};

use crate::rows::{date_text, decimal_text, decimal_value, plain_number};
use crate::CellColumn;

/// How a column's cells are stored. Empty cells of a number or date column are nulls (and read
/// back as empty text).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Storage {
    /// Text as read; a cell that is a plain number still reads as a number.
    Text,
    /// Whole numbers.
    Integer,
    /// Numbers with this many decimals, exact (units of 10^-scale).
    Decimal { scale: u8 },
    /// Calendar dates (days since 1970-01-01), each read back as its text `YYYY-MM-DD`.
    Date,
    /// Cells as a block computed them: any value (text as text, numbers, true or false), each
    /// kept as its JSON text.
    Values,
}

/// A column of [`Table::joined`]: its name, and the column of each side it is taken from.
#[derive(Debug, Clone)]
pub struct JoinedColumn {
    pub name: String,
    pub left: Option<String>,
    pub right: Option<String>,
}

/// A table of typed columns.
#[derive(Debug, Clone)]
pub struct Table {
    batch: RecordBatch,
}

impl Table {
    /// A table of these columns, each `(name, array)`; the arrays are of one length and of a
    /// kind [`Storage`] names (text, 64-bit integers, 128-bit decimals, 32-bit dates, values).
    pub(crate) fn new(columns: Vec<(String, ArrayRef)>, rows: usize) -> Table {
        let fields: Vec<Field> =
            columns.iter().map(|(name, array)| Field::new(name, array.data_type().clone(), true)).collect();
        let arrays = columns.into_iter().map(|(_, array)| array).collect();
        let options = arrow_array::RecordBatchOptions::new().with_row_count(Some(rows));
        let batch = RecordBatch::try_new_with_options(Arc::new(Schema::new(fields)), arrays, &options)
            .expect("the reader builds columns of one length and of the kinds the schema names");
        Table { batch }
    }

    /// The column names, in order.
    pub fn columns(&self) -> Vec<String> {
        self.batch.schema().fields().iter().map(|f| f.name().clone()).collect()
    }

    pub fn row_count(&self) -> usize {
        self.batch.num_rows()
    }

    /// How each column is stored, in order.
    pub fn storage(&self) -> Vec<Storage> {
        self.batch
            .schema()
            .fields()
            .iter()
            .map(|f| match f.data_type() {
                DataType::Int64 => Storage::Integer,
                DataType::Decimal128(_, scale) => Storage::Decimal { scale: *scale as u8 },
                DataType::Date32 => Storage::Date,
                DataType::LargeUtf8 => Storage::Values,
                _ => Storage::Text,
            })
            .collect()
    }

    /// The rows, each an object of the columns in order: numbers as JSON numbers (a text
    /// column's plain numbers too), an empty cell of a number or date column as empty text, every other
    /// cell as its text — what a CSV file's rows have always been to the blocks. A cell a row
    /// does not have (a text column's null: a column chosen that the table lacks, a join's side
    /// without a partner) is null.
    pub fn rows(&self) -> Vec<Value> {
        self.rows_in(0..self.row_count())
    }

    /// The first `count` rows (all of them when there are fewer), as [`Table::rows`] gives them.
    pub fn first_rows(&self, count: usize) -> Vec<Value> {
        self.rows_in(0..count.min(self.row_count()))
    }

    /// The cells of column `name`, each read as [`Table::rows`] gives it; `None` when the table
    /// has no such column.
    pub fn column_cells(&self, name: &str) -> Option<Box<dyn Fn(usize) -> Value + '_>> {
        let (index, _) = self.batch.schema().column_with_name(name)?;
        Some(cell_reader(self.batch.column(index).as_ref()))
    }

    /// The rows where `keep` is true, in order (`keep` has one entry per row).
    pub fn filter(&self, keep: &[bool]) -> Table {
        let mask = arrow_array::BooleanArray::from(keep.to_vec());
        let batch = arrow_select::filter::filter_record_batch(&self.batch, &mask)
            .expect("a mask of one entry per row selects rows of the same columns");
        Table { batch }
    }

    /// The table of these columns, each `(name, cells)` of `rows` cells, every cell read back as
    /// it is given: a column of whole numbers stored as such, one of dates written `YYYY-MM-DD`
    /// as dates, any other as values ([`Storage::Values`]). Each column is stored before the next
    /// is taken, so a caller that makes them one at a time holds one column's cells at once.
    pub fn of_cells(columns: impl IntoIterator<Item = (String, Vec<Value>)>, rows: usize) -> Table {
        Table::of_columns(
            columns.into_iter().map(|(name, cells)| {
                assert_eq!(cells.len(), rows, "a cell for each row of the table");
                let mut column = CellColumn::default();
                cells.iter().for_each(|cell| column.push(cell));
                (name, column)
            }),
            rows,
        )
    }

    /// The table of these columns, each of `rows` cells, stored as [`Table::of_cells`] stores
    /// them; each is stored before the next is taken.
    pub fn of_columns(columns: impl IntoIterator<Item = (String, CellColumn)>, rows: usize) -> Table {
        let columns = columns
            .into_iter()
            .map(|(name, column)| {
                assert_eq!(column.len(), rows, "a cell for each row of the table");
                (name, column.finish())
            })
            .collect();
        Table::new(columns, rows)
    }

    /// Row `index` as [`Table::rows`] gives it, if the table has it.
    pub fn row(&self, index: usize) -> Option<Value> {
        (index < self.row_count()).then(|| self.rows_in(index..index + 1).remove(0))
    }

    /// The table with these columns, each `(name, cells)` of one cell a row, in order: a column
    /// of a name the table has takes its place, any other comes after the others. Stored as
    /// values ([`Storage::Values`]).
    pub fn with_columns(&self, added: Vec<(String, Vec<Value>)>) -> Table {
        let rows = self.row_count();
        let mut columns: Vec<(String, ArrayRef)> =
            self.columns().into_iter().zip(self.batch.columns().iter().cloned()).collect();
        for (name, cells) in added {
            assert_eq!(cells.len(), rows, "a cell for each row of the table");
            let array = values_array(cells.into_iter());
            match columns.iter_mut().find(|(existing, _)| *existing == name) {
                Some(column) => column.1 = array,
                None => columns.push((name, array)),
            }
        }
        Table::new(columns, rows)
    }

    /// The rows at `indices`, in that order.
    pub fn take(&self, indices: &[usize]) -> Table {
        let indices = arrow_array::UInt64Array::from_iter_values(indices.iter().map(|&i| i as u64));
        let batch = arrow_select::take::take_record_batch(&self.batch, &indices)
            .expect("the caller's indices are rows of the table");
        Table { batch }
    }

    /// The columns `(column, name)` in that order, column `column` named `name`; a column the
    /// table does not have is blank in every row.
    pub fn select(&self, columns: &[(String, String)]) -> Table {
        let rows = self.row_count();
        let columns = columns
            .iter()
            .map(|(column, name)| {
                let array = match self.batch.schema().column_with_name(column) {
                    Some((index, _)) => self.batch.column(index).clone(),
                    None => arrow_array::new_null_array(&DataType::Utf8, rows),
                };
                (name.clone(), array)
            })
            .collect();
        Table::new(columns, rows)
    }

    /// The rows of `tables` one after another, or `None` when they do not have the same column
    /// names in the same order. A column stored one way in one table and another way in another
    /// is stored as text, or as values (see [`of_one_kind`]): its cells read as the same rows.
    pub fn concat(tables: &[&Table]) -> Option<Table> {
        let first = tables.first()?;
        let names = first.columns();
        if tables.iter().any(|t| t.columns() != names) {
            return None;
        }
        let rows = tables.iter().map(|t| t.row_count()).sum();
        let columns = (0..names.len())
            .map(|c| {
                let arrays = of_one_kind(tables.iter().map(|t| t.batch.column(c).clone()).collect(), false);
                let parts: Vec<&dyn Array> = arrays.iter().map(|a| a.as_ref()).collect();
                let array = arrow_select::concat::concat(&parts).expect("arrays of one kind are joined");
                (names[c].clone(), array)
            })
            .collect();
        Some(Table::new(columns, rows))
    }

    /// The table whose row `n` is made of `pairs[n]`: row `i` of `left` and row `j` of `right`,
    /// either of them absent. Each of `columns` takes its cell from the left row's column when
    /// it names one and there is a left row, else from the right row's, else the cell is missing
    /// (null: see [`of_one_kind`]).
    pub fn joined(
        left: &Table,
        right: &Table,
        pairs: &[(Option<usize>, Option<usize>)],
        columns: &[JoinedColumn],
    ) -> Table {
        let array = |table: &Table, name: &Option<String>| {
            let (index, _) = table.batch.schema().column_with_name(name.as_deref()?)?;
            Some(table.batch.column(index).clone())
        };
        let built = columns
            .iter()
            .map(|column| {
                let (l, r) = (array(left, &column.left), array(right, &column.right));
                // Where each cell comes from: (0, row) the left array, (1, row) the right, (2, 0) missing.
                let picks: Vec<(usize, usize)> = pairs
                    .iter()
                    .map(|&(i, j)| match (i.filter(|_| l.is_some()), j.filter(|_| r.is_some())) {
                        (Some(i), _) => (0, i),
                        (None, Some(j)) => (1, j),
                        (None, None) => (2, 0),
                    })
                    .collect();
                let missing = picks.iter().any(|&(from, _)| from == 2);
                let mut present = of_one_kind(l.iter().chain(&r).cloned().collect(), missing).into_iter();
                let (l, r) = (
                    l.map(|_| present.next().expect("one array each")),
                    r.map(|_| present.next().expect("one array each")),
                );
                let data_type = l.as_ref().or(r.as_ref()).map_or(DataType::Utf8, |a| a.data_type().clone());
                let none = arrow_array::new_null_array(&data_type, 1);
                let arrays = [l.unwrap_or_else(|| none.clone()), r.unwrap_or_else(|| none.clone()), none];
                let parts: Vec<&dyn Array> = arrays.iter().map(|a| a.as_ref()).collect();
                let array =
                    arrow_select::interleave::interleave(&parts, &picks).expect("arrays of one kind are picked from");
                (column.name.clone(), array)
            })
            .collect();
        Table::new(built, pairs.len())
    }

    /// The table with `change` applied to every text it holds — column names and text cells —
    /// or `None` when it changes none (masking a secret out of a table copies it only when the
    /// secret is there).
    pub fn map_text(&self, change: &dyn Fn(&str) -> String) -> Option<Table> {
        let mut changed = false;
        let mut columns = Vec::with_capacity(self.batch.num_columns());
        for (field, array) in self.batch.schema().fields().iter().zip(self.batch.columns()) {
            let name = change(field.name());
            changed |= name != *field.name();
            let array = match (array.as_any().downcast_ref::<StringArray>(), array.data_type()) {
                (Some(texts), _) if texts.iter().flatten().any(|text| change(text) != text) => {
                    changed = true;
                    Arc::new(texts.iter().map(|text| text.map(change)).collect::<StringArray>()) as ArrayRef
                }
                (None, DataType::Date32) => {
                    let dates = as_text(array.as_ref());
                    let texts = dates.as_any().downcast_ref::<StringArray>().expect("dates as text");
                    if texts.iter().flatten().any(|text| change(text) != text) {
                        changed = true;
                        Arc::new(texts.iter().map(|text| text.map(change)).collect::<StringArray>()) as ArrayRef
                    } else {
                        array.clone()
                    }
                }
                (None, DataType::LargeUtf8) => {
                    let cell = cell_reader(array.as_ref());
                    let cells: Vec<Value> = (0..array.len()).map(cell).collect();
                    let mapped: Vec<Value> = cells.iter().map(|c| map_value_text(c, change)).collect();
                    if mapped != cells {
                        changed = true;
                        values_array(mapped.into_iter())
                    } else {
                        array.clone()
                    }
                }
                _ => array.clone(),
            };
            columns.push((name, array));
        }
        changed.then(|| Table::new(columns, self.row_count()))
    }

    pub(crate) fn batch(&self) -> &RecordBatch {
        &self.batch
    }

    pub(crate) fn from_batch(batch: RecordBatch) -> Table {
        Table { batch }
    }

    fn rows_in(&self, range: std::ops::Range<usize>) -> Vec<Value> {
        let names = self.columns();
        let cells: Vec<Box<dyn Fn(usize) -> Value + '_>> =
            self.batch.columns().iter().map(|array| cell_reader(array.as_ref())).collect();
        range
            .map(|row| {
                let mut map = Map::with_capacity(names.len());
                for (name, cell) in names.iter().zip(&cells) {
                    map.insert(name.clone(), cell(row));
                }
                Value::Object(map)
            })
            .collect()
    }
}

/// `value` with `change` applied to every text in it, keys included.
fn map_value_text(value: &Value, change: &dyn Fn(&str) -> String) -> Value {
    match value {
        Value::String(text) => Value::String(change(text)),
        Value::Array(items) => Value::Array(items.iter().map(|v| map_value_text(v, change)).collect()),
        Value::Object(map) => Value::Object(map.iter().map(|(k, v)| (change(k), map_value_text(v, change))).collect()),
        other => other.clone(),
    }
}

/// `arrays` stored one way, each cell reading as before: as they are when they are; as text
/// when they are text, numbers and dates; as values otherwise. With `nulls`, they will take cells
/// that read as null, which a number or date column cannot (its null reads as a blank cell):
/// numbers and dates become text.
fn of_one_kind(arrays: Vec<ArrayRef>, nulls: bool) -> Vec<ArrayRef> {
    // Numbers and dates: a null of theirs reads as a blank cell, and each has a plain text.
    let blank_null =
        |a: &ArrayRef| matches!(a.data_type(), DataType::Int64 | DataType::Decimal128(..) | DataType::Date32);
    let one_kind = arrays.iter().all(|a| a.data_type() == arrays[0].data_type());
    if one_kind && !(nulls && arrays.iter().any(blank_null)) {
        return arrays;
    }
    if arrays.iter().all(|a| blank_null(a) || *a.data_type() == DataType::Utf8) {
        return arrays.iter().map(|a| as_text(a.as_ref())).collect();
    }
    arrays.iter().map(|a| as_values(a.as_ref())).collect()
}

/// A column as values: each cell as it reads.
fn as_values(array: &dyn Array) -> ArrayRef {
    let cell = cell_reader(array);
    values_array((0..array.len()).map(cell))
}

/// A column of these cells, stored as values ([`Storage::Values`]); a null cell as a null.
pub(crate) fn values_array(cells: impl Iterator<Item = Value>) -> ArrayRef {
    let texts: LargeStringArray = cells.map(|cell| (!cell.is_null()).then(|| cell.to_string())).collect();
    Arc::new(texts)
}

/// A column as text: a number cell as a plain number (which reads back as the same number), a
/// date as its `YYYY-MM-DD`, a blank one blank.
fn as_text(array: &dyn Array) -> ArrayRef {
    let any = array.as_any();
    let texts: StringArray = if let Some(ints) = any.downcast_ref::<Int64Array>() {
        ints.iter().map(|cell| Some(cell.map(|int| int.to_string()).unwrap_or_default())).collect()
    } else if let Some(decimals) = any.downcast_ref::<Decimal128Array>() {
        let scale = decimals.scale() as u8;
        decimals.iter().map(|cell| Some(cell.map(|units| decimal_text(units, scale)).unwrap_or_default())).collect()
    } else if let Some(dates) = any.downcast_ref::<Date32Array>() {
        dates.iter().map(|cell| Some(cell.map(date_text).unwrap_or_default())).collect()
    } else {
        return arrow_array::make_array(array.to_data());
    };
    Arc::new(texts)
}

/// Reads one cell of `array` as a row holds it.
fn cell_reader(array: &dyn Array) -> Box<dyn Fn(usize) -> Value + '_> {
    let blank = || Value::String(String::new());
    if let Some(ints) = array.as_any().downcast_ref::<Int64Array>() {
        return Box::new(move |i| if ints.is_null(i) { blank() } else { Value::from(ints.value(i)) });
    }
    if let Some(decimals) = array.as_any().downcast_ref::<Decimal128Array>() {
        let scale = decimals.scale() as u8;
        return Box::new(move |i| if decimals.is_null(i) { blank() } else { decimal_value(decimals.value(i), scale) });
    }
    if let Some(dates) = array.as_any().downcast_ref::<Date32Array>() {
        return Box::new(move |i| if dates.is_null(i) { blank() } else { Value::String(date_text(dates.value(i))) });
    }
    if let Some(values) = array.as_any().downcast_ref::<LargeStringArray>() {
        return Box::new(move |i| {
            if values.is_null(i) {
                return Value::Null;
            }
            serde_json::from_str(values.value(i)).unwrap_or_else(|_| Value::String(values.value(i).to_owned()))
        });
    }
    let texts =
        array.as_any().downcast_ref::<StringArray>().expect("a table's columns are text, numbers, dates or values");
    Box::new(move |i| {
        if texts.is_null(i) {
            return Value::Null;
        }
        let cell = texts.value(i);
        plain_number(cell).unwrap_or_else(|| Value::String(cell.to_owned()))
    })
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    fn ledger() -> Table {
        let format = crate::CsvFormat { delimiter: b',', has_header: true };
        crate::read_csv("vendor,amount\nA,12.50\nB,3\n".as_bytes(), format, &|| false).unwrap()
    }

    #[test]
    fn computed_columns_keep_their_values_and_are_masked() {
        let added = ledger().with_columns(vec![
            ("check".to_owned(), vec![json!(true), json!("token-123 seen")]),
            ("amount".to_owned(), vec![json!("12.50"), json!(null)]),
        ]);
        assert_eq!(added.storage(), [Storage::Text, Storage::Values, Storage::Values]);
        assert_eq!(
            added.rows(),
            [
                json!({"vendor": "A", "amount": "12.50", "check": true}),
                json!({"vendor": "B", "amount": null, "check": "token-123 seen"})
            ]
        );
        let masked = added.map_text(&|text: &str| text.replace("token-123", "***")).expect("the secret was there");
        assert_eq!(masked.row(1).unwrap()["check"], "*** seen");
        assert!(masked.map_text(&|text: &str| text.replace("token-123", "***")).is_none());
    }

    #[test]
    fn tables_stored_apart_join_as_their_rows() {
        let computed = ledger().with_columns(vec![("amount".to_owned(), vec![json!("x"), json!(1.5)])]);
        let joined = Table::concat(&[&ledger(), &computed]).unwrap();
        assert_eq!(joined.storage(), [Storage::Text, Storage::Values]);
        assert_eq!(joined.rows(), [ledger().rows(), computed.rows()].concat());
        assert!(Table::concat(&[&ledger(), &ledger().select(&[("vendor".into(), "vendor".into())])]).is_none());
    }
}
