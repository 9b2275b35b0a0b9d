//! [`Items`]: the rows a transform reads — a run's table by its handle, or a list of rows — and
//! the rows it gives back, chosen by their positions: a table again when a table came in.

use std::sync::Arc;

use planwright_block::{BlockContext, BlockError, Values};
use planwright_runs::RunMessage;
use planwright_tables::Table;
use serde_json::{Map, Value};

use super::{require_column_said, require_table_column_said, NarrowRows};
use crate::cells::{self, input};

type Row = Map<String, Value>;

pub(super) enum Items<'v> {
    Table { handle: &'v Value, table: Arc<Table> },
    Rows(Vec<&'v Row>),
}

impl<'v> Items<'v> {
    /// Input `name`: a run's table, or a list of rows (`what` says what to give when it is
    /// neither).
    pub(super) fn of(inputs: &'v Values, name: &str, what: &str, ctx: &BlockContext) -> Result<Items<'v>, BlockError> {
        if let Some(handle) = inputs.get(name) {
            if let Some(table) = ctx.tables.get(handle) {
                return Ok(Items::Table { handle, table });
            }
        }
        Ok(Items::Rows(input::rows(input::list(inputs, name, what)?, name)?))
    }

    pub(super) fn len(&self) -> usize {
        match self {
            Items::Table { table, .. } => table.row_count(),
            Items::Rows(rows) => rows.len(),
        }
    }

    /// Every column, in first-seen order: a table's, rows or not (rows without rows have none).
    pub(super) fn columns(&self) -> Vec<String> {
        match self {
            Items::Table { table, .. } => table.columns(),
            Items::Rows(rows) => cells::columns_of(rows.iter().copied()),
        }
    }

    /// An input error naming `input` when there are rows and none has the column `name`.
    pub(super) fn require_column(&self, name: &str, input: &str) -> Result<(), BlockError> {
        self.require_column_said(name, input, |columns| RunMessage::ColumnMissing {
            input: input.trim_matches('`').to_owned(),
            column: name.to_owned(),
            columns,
        })
    }

    /// [`Items::require_column`] for a column named inside an input (a condition, an
    /// aggregation), coded by `said` from the columns there are.
    pub(super) fn require_column_said(
        &self,
        name: &str,
        input: &str,
        said: impl FnOnce(String) -> RunMessage,
    ) -> Result<(), BlockError> {
        match self {
            Items::Table { table, .. } => require_table_column_said(table, name, input, said),
            Items::Rows(rows) => require_column_said(rows, name, input, said),
        }
    }

    /// Reads the rows narrowed to `columns` (a table's), or whole (rows given as rows).
    pub(super) fn reader<'c>(&self, columns: impl IntoIterator<Item = &'c String>) -> ItemReader<'_> {
        match self {
            Items::Table { table, .. } => ItemReader::Table(NarrowRows::new(table, columns)),
            Items::Rows(rows) => ItemReader::Rows(rows),
        }
    }

    /// The rows at `indices`, in that order: a table when a table came in.
    pub(super) fn take(&self, indices: &[usize], ctx: &BlockContext) -> Value {
        match self {
            Items::Table { table, .. } => ctx.tables.put(table.take(indices)),
            Items::Rows(rows) => Value::Array(indices.iter().map(|&i| Value::Object(rows[i].clone())).collect()),
        }
    }

    /// The rows where `keep` is true, in their order: a table when a table came in, recorded as
    /// those rows of it.
    pub(super) fn keep(&self, keep: &[bool], ctx: &BlockContext) -> Value {
        match self {
            Items::Table { handle, table } => ctx.tables.put_rows_of(table.filter(keep), handle, keep),
            Items::Rows(rows) => Value::Array(
                rows.iter()
                    .zip(keep)
                    .filter(|(_, kept)| **kept)
                    .map(|(row, _)| Value::Object((*row).clone()))
                    .collect(),
            ),
        }
    }
}

/// Row by row access to [`Items`].
pub(super) enum ItemReader<'t> {
    Table(NarrowRows<'t>),
    Rows(&'t [&'t Row]),
}

impl ItemReader<'_> {
    /// Row `index` (a table's narrowed to the reader's columns).
    pub(super) fn row(&mut self, index: usize) -> &Row {
        match self {
            ItemReader::Table(rows) => rows.row(index),
            ItemReader::Rows(rows) => rows[index],
        }
    }
}
