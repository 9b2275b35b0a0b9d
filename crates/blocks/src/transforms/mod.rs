//! `transforms.filter`, `transforms.pick`, `transforms.group_by_agg`, `transforms.join`.
//!
//! They work on rows (JSON objects keyed by column name) from CSV, Excel or table steps and read
//! cell values through [`crate::cells`]: numeric-looking text is a number, `YYYY-MM-DD` text a
//! date, labels match regardless of full-width/half-width spelling.

use std::sync::Arc;

use planwright_block::{Block, BlockError};
use planwright_runs::{Reason, RunMessage};
use serde_json::{Map, Value};

use crate::cells;

mod filter;
mod group;
mod join;
mod pick;

pub(crate) use filter::Filter;
pub(crate) use group::GroupByAgg;
pub(crate) use join::Join;
pub(crate) use pick::Pick;

/// The transform blocks, for the registry.
pub(crate) fn blocks() -> Vec<Arc<dyn Block>> {
    vec![Arc::new(Filter), Arc::new(Pick), Arc::new(GroupByAgg), Arc::new(Join)]
}

/// When rows are given and none has the column `name`: an input error naming `input` and the
/// columns there are (a typo in a column name should not silently select nothing).
pub(super) fn require_column(rows: &[&Map<String, Value>], name: &str, input: &str) -> Result<(), BlockError> {
    if rows.is_empty() || rows.iter().any(|r| r.contains_key(name)) {
        return Ok(());
    }
    let columns = cells::columns_of(rows.iter().take(1000).copied());
    let text = format!("{input}: no row has a column `{name}`; {}", cells::missing_column_hint(name, &columns));
    let said = RunMessage::ColumnMissing {
        input: input.trim_matches('`').to_owned(),
        column: name.to_owned(),
        columns: cells::listed_names(&columns),
    };
    Err(BlockError::input(Reason::said(said, text)))
}
