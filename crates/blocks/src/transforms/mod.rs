//! The table transforms: filter, pick, group, join, sort, choose columns, remove or find
//! duplicates, add computed columns, append.
//!
//! They work on rows (JSON objects keyed by column name) from CSV, Excel or table steps and read
//! cell values through [`crate::cells`]: numeric-looking text is a number, `YYYY-MM-DD` text a
//! date, labels match regardless of full-width/half-width spelling. Every transform also reads a
//! run's table by its handle (`file.read_csv`'s, `excel.read_data`'s), cell by cell through the
//! same rules, only the columns it uses ([`NarrowRows`], [`Items`]); the rows it gives back are a
//! table again.

use std::collections::HashMap;
use std::sync::Arc;

use planwright_block::{Block, BlockError, Values};
use planwright_runs::{Reason, RunMessage};
use planwright_tables::Table;
use serde_json::{Map, Value};

use crate::cells::{self, input};

mod append;
mod columns;
mod compute;
mod duplicates;
mod filter;
mod group;
mod items;
mod join;
mod pick;
mod sort;

pub(crate) use append::Append;
pub(crate) use columns::SelectColumns;
pub(crate) use compute::AddColumns;
pub(crate) use duplicates::{FindDuplicates, RemoveDuplicates};
pub(crate) use filter::Filter;
pub(crate) use group::GroupByAgg;
use items::Items;
pub(crate) use join::Join;
pub(crate) use pick::Pick;
pub(crate) use sort::Sort;

/// The transform blocks, for the registry.
pub(crate) fn blocks() -> Vec<Arc<dyn Block>> {
    vec![
        Arc::new(Filter),
        Arc::new(Pick),
        Arc::new(GroupByAgg),
        Arc::new(Join),
        Arc::new(Sort),
        Arc::new(SelectColumns),
        Arc::new(RemoveDuplicates),
        Arc::new(FindDuplicates),
        Arc::new(AddColumns),
        Arc::new(Append),
    ]
}

/// A list of column names given as `name` (one name alone counts as a list of one); `example`
/// shows what to give, e.g. `[取引先]`.
pub(super) fn column_names(inputs: &Values, name: &str, example: &str) -> Result<Vec<String>, BlockError> {
    match input::required(inputs, name, &format!("the columns, e.g. {example}"))? {
        Value::String(s) if !s.trim().is_empty() => Ok(vec![s.clone()]),
        Value::Array(names) => names
            .iter()
            .map(|n| match n {
                Value::String(s) if !s.trim().is_empty() => Ok(s.clone()),
                other => Err(BlockError::input(format!(
                    "`{name}` must list column names, e.g. {example}; it holds {}",
                    cells::describe(other)
                ))),
            })
            .collect(),
        other => Err(BlockError::input(format!(
            "`{name}` must be a list of column names, e.g. {example}, not {}",
            cells::describe(other)
        ))),
    }
}

/// When rows are given and none has the column `name`: an input error naming `input` and the
/// columns there are (a typo in a column name should not silently select nothing), coded by
/// `said` from the columns there are: the English `input` label stays in the English text.
pub(super) fn require_column_said(
    rows: &[&Map<String, Value>],
    name: &str,
    input: &str,
    said: impl FnOnce(String) -> RunMessage,
) -> Result<(), BlockError> {
    if rows.is_empty() || rows.iter().any(|r| r.contains_key(name)) {
        return Ok(());
    }
    Err(missing_column(name, &cells::columns_of(rows.iter().take(1000).copied()), input, said))
}

/// [`require_column_said`] for a table: it has the column, or no rows.
pub(super) fn require_table_column_said(
    table: &Table,
    name: &str,
    input: &str,
    said: impl FnOnce(String) -> RunMessage,
) -> Result<(), BlockError> {
    let columns = table.columns();
    if table.row_count() == 0 || columns.iter().any(|c| c == name) {
        return Ok(());
    }
    Err(missing_column(name, &columns, input, said))
}

fn missing_column(name: &str, columns: &[String], input: &str, said: impl FnOnce(String) -> RunMessage) -> BlockError {
    let text = format!("{input}: no row has a column `{name}`; {}", cells::missing_column_hint(name, columns));
    BlockError::input(Reason::said(said(cells::listed_names(columns)), text))
}

/// What a transform worked out for each distinct text cell, up to [`TextMemo::MAX`] texts: a
/// ledger's status or department column holds a few texts a million times, each folded and
/// compared once.
pub(super) struct TextMemo<V> {
    known: HashMap<String, V, foldhash::fast::RandomState>,
}

impl<V: Copy> TextMemo<V> {
    /// How many distinct texts a memo keeps (a column of identifiers would otherwise fill it
    /// with a million).
    const MAX: usize = 4096;

    pub(super) fn new() -> TextMemo<V> {
        TextMemo { known: HashMap::default() }
    }

    /// What `work_out` gives for `text`, worked out once.
    pub(super) fn get_or(&mut self, text: &str, work_out: impl FnOnce() -> V) -> V {
        if let Some(&known) = self.known.get(text) {
            return known;
        }
        let known = work_out();
        if self.known.len() < Self::MAX {
            self.known.insert(text.to_owned(), known);
        }
        known
    }
}

/// Reads a table's rows narrowed to some of its columns, each row as the object the rows path
/// would see for those columns — so that a transform reading a table by handle judges every cell
/// exactly as it judges rows, without a JSON object per row of every column.
pub(super) struct NarrowRows<'t> {
    /// One reader per entry of `row`, in the order of its entries.
    cells: Vec<Box<dyn Fn(usize) -> Value + 't>>,
    row: Map<String, Value>,
}

impl<'t> NarrowRows<'t> {
    /// The reader of `columns` (those the table has; the others are absent from every row).
    pub(super) fn new<'c>(table: &'t Table, columns: impl IntoIterator<Item = &'c String>) -> NarrowRows<'t> {
        let mut row = Map::new();
        for column in columns {
            if table.column_cells(column).is_some() {
                row.insert(column.clone(), Value::Null);
            }
        }
        // In the row's own order of its entries, so that refilling it looks nothing up.
        let cells = row.keys().filter_map(|column| table.column_cells(column)).collect();
        NarrowRows { cells, row }
    }

    /// Row `index`, narrowed (the same object each time, refilled).
    pub(super) fn row(&mut self, index: usize) -> &Map<String, Value> {
        for (slot, cell) in self.row.values_mut().zip(&self.cells) {
            *slot = cell(index);
        }
        &self.row
    }
}
