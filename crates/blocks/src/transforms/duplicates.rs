//! `transforms.remove_duplicates` and `transforms.find_duplicates`: rows that share a key (of a
//! run's table, tables of the same columns).
//!
//! Two rows share a key when every key column holds the same value as people mean it: numbers
//! by their value (`1200`, `"1,200"` and `1200.00` are one amount), other text trimmed with
//! widths folded ([`cells::key_text`]). A row with a blank key column shares its key with no
//! other row, as in a join: a missing vendor is not a match. With `ignore_case`, `Laura@x.example`
//! and `laura@x.example` are one key.

use std::collections::HashMap;

use futures::future::BoxFuture;
use planwright_block::{Block, BlockContext, BlockError, Values};
use planwright_runs::{LogLevel, Reason, RunMessage};
use planwright_tables::Table;
use serde_json::{json, Value};

use super::{column_names, Items};
use crate::cells::{self, input};
use crate::files::{check_cancel, CANCEL_EVERY};

pub(crate) struct RemoveDuplicates;
pub(crate) struct FindDuplicates;

impl Block for RemoveDuplicates {
    fn id(&self) -> &'static str {
        "transforms.remove_duplicates"
    }

    fn run<'a>(&'a self, inputs: Values, ctx: &'a BlockContext) -> BoxFuture<'a, Result<Values, BlockError>> {
        Box::pin(async move { remove_duplicates(inputs, ctx) })
    }

    fn takes_tables(&self) -> bool {
        true
    }
}

impl Block for FindDuplicates {
    fn id(&self) -> &'static str {
        "transforms.find_duplicates"
    }

    fn run<'a>(&'a self, inputs: Values, ctx: &'a BlockContext) -> BoxFuture<'a, Result<Values, BlockError>> {
        Box::pin(async move { find_duplicates(inputs, ctx) })
    }

    fn takes_tables(&self) -> bool {
        true
    }
}

/// One cell as a key: a number by its value, other text by [`cells::key_text`].
fn key_cell(value: &Value) -> Option<String> {
    if cells::is_blank(value) {
        return None;
    }
    match cells::number(value) {
        Some(num) => Some(cells::display_text(&cells::number_value(num.value))),
        None => cells::key_text(value),
    }
}

/// Each row's key over `columns`, `None` when one of them is blank (`ignore_case`: in lower case).
fn keys(
    inputs: &Values,
    items: &Items,
    columns: &[String],
    ctx: &BlockContext,
) -> Result<Vec<Option<Vec<String>>>, BlockError> {
    let ignore_case = input::boolean(inputs, "ignore_case", false)?;
    let key_cell = |value: &Value| key_cell(value).map(|k| if ignore_case { k.to_lowercase() } else { k });
    let mut reader = items.reader(columns);
    let mut keys = Vec::with_capacity(items.len());
    for i in 0..items.len() {
        if i.is_multiple_of(CANCEL_EVERY) {
            check_cancel(&ctx.cancel)?;
        }
        let row = reader.row(i);
        keys.push(columns.iter().map(|c| row.get(c).and_then(key_cell)).collect());
    }
    Ok(keys)
}

/// The key columns: `by`, or every column when `by` is left out or empty (whole rows alike).
fn key_columns(inputs: &Values, items: &Items) -> Result<Vec<String>, BlockError> {
    let by = match inputs.get("by") {
        None | Some(Value::Null) => Vec::new(),
        Some(_) => column_names(inputs, "by", "[取引先, 金額]")?,
    };
    for column in &by {
        items.require_column(column, "`by`")?;
    }
    Ok(if by.is_empty() { items.columns() } else { by })
}

fn remove_duplicates(inputs: Values, ctx: &BlockContext) -> Result<Values, BlockError> {
    let items = Items::of(&inputs, "items", "the rows, e.g. ${read.rows}", ctx)?;
    let keep = input::choice(&inputs, "keep", &["first", "last"], "first")?;
    let columns = key_columns(&inputs, &items)?;
    let keys = keys(&inputs, &items, &columns, ctx)?;
    // The row kept for each key: its first or its last.
    let mut chosen: HashMap<&Vec<String>, usize> = HashMap::new();
    for (i, key) in keys.iter().enumerate() {
        if let Some(key) = key {
            if keep == "last" {
                chosen.insert(key, i);
            } else {
                chosen.entry(key).or_insert(i);
            }
        }
    }
    let mut keeps: Vec<bool> =
        keys.iter().enumerate().map(|(i, key)| key.as_ref().is_none_or(|k| chosen.get(k) == Some(&i))).collect();
    let (total, kept) = (items.len(), keeps.iter().filter(|k| **k).count());
    let said = RunMessage::RowsKept { kept: kept as u64, total: total as u64 };
    ctx.log(LogLevel::Info, Reason::said(said, format!("kept {kept} of {total} rows")));
    let mut out = Values::new();
    out.insert("summary".into(), json!({ "input_rows": total, "rows": kept, "removed": total - kept }));
    out.insert("rows".into(), items.keep(&keeps, ctx));
    keeps.iter_mut().for_each(|k| *k = !*k);
    out.insert("removed".into(), items.keep(&keeps, ctx));
    Ok(out)
}

fn find_duplicates(inputs: Values, ctx: &BlockContext) -> Result<Values, BlockError> {
    let items = Items::of(&inputs, "items", "the rows, e.g. ${read.rows}", ctx)?;
    let columns = key_columns(&inputs, &items)?;
    let keys = keys(&inputs, &items, &columns, ctx)?;
    // Groups in order of their first row; each holds its rows in their order.
    let mut index: HashMap<&Vec<String>, usize> = HashMap::new();
    let mut groups: Vec<Vec<usize>> = Vec::new();
    for (i, key) in keys.iter().enumerate() {
        let Some(key) = key else { continue };
        match index.get(key) {
            Some(&g) => groups[g].push(i),
            None => {
                index.insert(key, groups.len());
                groups.push(vec![i]);
            }
        }
    }
    groups.retain(|g| g.len() > 1);
    let count = if columns.iter().any(|c| c == "count") { "duplicate_count" } else { "count" };
    let duplicates: Vec<usize> = groups.iter().flatten().copied().collect();
    // A table of the key columns and the count, whether or not any key repeats.
    let mut reader = items.reader(&columns);
    let mut summary: Vec<(String, Vec<Value>)> =
        columns.iter().chain([&count.to_owned()]).map(|c| (c.clone(), Vec::with_capacity(groups.len()))).collect();
    for group in &groups {
        let first = reader.row(group[0]);
        let cells =
            columns.iter().map(|c| first.get(c).cloned().unwrap_or(Value::Null)).chain([Value::from(group.len())]);
        for ((_, column), cell) in summary.iter_mut().zip(cells) {
            column.push(cell);
        }
    }
    let total = items.len();
    let said = RunMessage::RowsKept { kept: duplicates.len() as u64, total: total as u64 };
    ctx.log(
        LogLevel::Info,
        Reason::said(
            said,
            format!("{} of {total} rows share a key with another row ({} groups)", duplicates.len(), groups.len()),
        ),
    );
    let mut out = Values::new();
    out.insert("summary".into(), json!({ "input_rows": total, "rows": duplicates.len(), "groups": groups.len() }));
    out.insert("rows".into(), items.take(&duplicates, ctx));
    out.insert("groups".into(), ctx.tables.put(Table::of_cells(summary, groups.len())));
    Ok(out)
}
