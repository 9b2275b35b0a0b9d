//! [`Table`]: named columns of one length, each an Arrow array of one [`Storage`].

use std::sync::Arc;

use arrow_array::{Array, ArrayRef, Decimal128Array, Int64Array, RecordBatch, StringArray};
use arrow_schema::{DataType, Field, Schema};
use serde_json::{Map, Value};

use crate::rows::{decimal_text, decimal_value, plain_number};

/// How a column's cells are stored. Empty cells of a number column are nulls (and read back as
/// empty text).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Storage {
    /// Text as read; a cell that is a plain number still reads as a number.
    Text,
    /// Whole numbers.
    Integer,
    /// Numbers with this many decimals, exact (units of 10^-scale).
    Decimal { scale: u8 },
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
    /// kind [`Storage`] names (text, 64-bit integers, 128-bit decimals).
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
                _ => Storage::Text,
            })
            .collect()
    }

    /// The rows, each an object of the columns in order: numbers as JSON numbers (a text
    /// column's plain numbers too), an empty cell of a number column as empty text, every other
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
    /// is stored as text: its cells' texts read as the same rows.
    pub fn concat(tables: &[&Table]) -> Option<Table> {
        let first = tables.first()?;
        let names = first.columns();
        if tables.iter().any(|t| t.columns() != names) {
            return None;
        }
        let rows = tables.iter().map(|t| t.row_count()).sum();
        let columns = (0..names.len())
            .map(|c| {
                let arrays: Vec<ArrayRef> = tables.iter().map(|t| t.batch.column(c).clone()).collect();
                let one_kind = arrays.iter().all(|a| a.data_type() == arrays[0].data_type());
                let arrays: Vec<ArrayRef> =
                    if one_kind { arrays } else { arrays.iter().map(|a| as_text(a.as_ref())).collect() };
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
    /// (null; a number column with a missing cell becomes text so that the cell reads as null).
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
                let present: Vec<&ArrayRef> = l.iter().chain(&r).collect();
                let one_kind = present.iter().all(|a| a.data_type() == present[0].data_type());
                let missing = picks.iter().any(|&(from, _)| from == 2);
                let kind = |a: ArrayRef| if one_kind && !missing { a } else { as_text(a.as_ref()) };
                let (l, r) = (l.map(kind), r.map(kind));
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
            let array = match array.as_any().downcast_ref::<StringArray>() {
                Some(texts) if texts.iter().flatten().any(|text| change(text) != text) => {
                    changed = true;
                    Arc::new(texts.iter().map(|text| text.map(change)).collect::<StringArray>()) as ArrayRef
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

/// A column as text: a number cell as a plain number (which reads back as the same number), a
/// blank one blank.
fn as_text(array: &dyn Array) -> ArrayRef {
    let any = array.as_any();
    let texts: StringArray = if let Some(ints) = any.downcast_ref::<Int64Array>() {
        ints.iter().map(|cell| Some(cell.map(|int| int.to_string()).unwrap_or_default())).collect()
    } else if let Some(decimals) = any.downcast_ref::<Decimal128Array>() {
        let scale = decimals.scale() as u8;
        decimals.iter().map(|cell| Some(cell.map(|units| decimal_text(units, scale)).unwrap_or_default())).collect()
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
    let texts = array.as_any().downcast_ref::<StringArray>().expect("a table's columns are text, integers or decimals");
    Box::new(move |i| {
        if texts.is_null(i) {
            return Value::Null;
        }
        let cell = texts.value(i);
        plain_number(cell).unwrap_or_else(|| Value::String(cell.to_owned()))
    })
}
