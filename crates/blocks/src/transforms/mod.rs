//! The table transforms: filter, pick, group, join, sort, choose columns, remove or find
//! duplicates, add computed columns, append.
//!
//! They work on rows (JSON objects keyed by column name) from CSV, Excel or table steps and read
//! cell values through [`crate::cells`]: numeric-looking text is a number, `YYYY-MM-DD` text a
//! date, labels match regardless of full-width/half-width spelling.

use std::sync::Arc;

use planwright_block::{Block, BlockError, Values};
use planwright_runs::{Reason, RunMessage};
use serde_json::{Map, Value};

use crate::cells::{self, input};

mod append;
mod columns;
mod compute;
mod duplicates;
mod filter;
mod group;
mod join;
mod pick;
mod sort;

pub(crate) use append::Append;
pub(crate) use columns::SelectColumns;
pub(crate) use compute::AddColumns;
pub(crate) use duplicates::{FindDuplicates, RemoveDuplicates};
pub(crate) use filter::Filter;
pub(crate) use group::GroupByAgg;
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
/// columns there are (a typo in a column name should not silently select nothing).
pub(super) fn require_column(rows: &[&Map<String, Value>], name: &str, input: &str) -> Result<(), BlockError> {
    require_column_said(rows, name, input, |columns| RunMessage::ColumnMissing {
        input: input.trim_matches('`').to_owned(),
        column: name.to_owned(),
        columns,
    })
}

/// [`require_column`] for a column named inside an input (a condition, an aggregation), coded
/// by `said` from the columns there are: the English `input` label stays in the English text.
pub(super) fn require_column_said(
    rows: &[&Map<String, Value>],
    name: &str,
    input: &str,
    said: impl FnOnce(String) -> RunMessage,
) -> Result<(), BlockError> {
    if rows.is_empty() || rows.iter().any(|r| r.contains_key(name)) {
        return Ok(());
    }
    let columns = cells::columns_of(rows.iter().take(1000).copied());
    let text = format!("{input}: no row has a column `{name}`; {}", cells::missing_column_hint(name, &columns));
    Err(BlockError::input(Reason::said(said(cells::listed_names(&columns)), text)))
}
