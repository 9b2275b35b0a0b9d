//! `transforms.select_columns`: the columns to keep, in the order given, each optionally under a
//! new name. Every row of the result has exactly these columns (null where a row had none). Of a
//! run's table, a table of those columns.

use std::collections::HashSet;

use futures::future::BoxFuture;
use planwright_block::{Block, BlockContext, BlockError, Values};
use serde_json::{json, Map, Value};

use super::Items;
use crate::cells::{self, input};

pub(crate) struct SelectColumns;

impl Block for SelectColumns {
    fn id(&self) -> &'static str {
        "transforms.select_columns"
    }

    fn run<'a>(&'a self, inputs: Values, ctx: &'a BlockContext) -> BoxFuture<'a, Result<Values, BlockError>> {
        Box::pin(async move { select_columns(inputs, ctx) })
    }

    fn takes_tables(&self) -> bool {
        true
    }
}

/// One kept column: where it comes from and what it is called in the result.
struct Kept {
    column: String,
    name: String,
}

fn parse_kept(index: usize, value: &Value) -> Result<Kept, BlockError> {
    let n = index + 1;
    let text = |v: Option<&Value>| match v {
        Some(Value::String(s)) if !s.trim().is_empty() => Some(s.clone()),
        _ => None,
    };
    match value {
        Value::String(column) if !column.trim().is_empty() => Ok(Kept { column: column.clone(), name: column.clone() }),
        Value::Object(map) => {
            let column = text(map.get("column")).ok_or_else(|| {
                BlockError::input(format!(
                    "`columns` item {n} has no `column`; write it like {{column: vendor, as: 取引先}}"
                ))
            })?;
            let name = text(map.get("as")).unwrap_or_else(|| column.clone());
            Ok(Kept { column, name })
        }
        other => Err(BlockError::input(format!(
            "`columns` item {n} is {}; give a column name or {{column: vendor, as: 取引先}}",
            cells::describe(other)
        ))),
    }
}

fn select_columns(inputs: Values, ctx: &BlockContext) -> Result<Values, BlockError> {
    let items = Items::of(&inputs, "items", "the rows, e.g. ${read.rows}", ctx)?;
    let kept: Vec<Kept> =
        input::list(&inputs, "columns", "the columns to keep, e.g. [日付, 取引先, {column: amount, as: 金額}]")?
            .iter()
            .enumerate()
            .map(|(i, c)| parse_kept(i, c))
            .collect::<Result<_, _>>()?;
    if kept.is_empty() {
        return Err(BlockError::input("`columns` is empty; name at least one column to keep"));
    }
    let mut names = HashSet::new();
    for k in &kept {
        if !names.insert(k.name.as_str()) {
            return Err(BlockError::input(format!(
                "two columns of the result are named `{}`; give one another name with `as`",
                k.name
            )));
        }
    }
    for k in &kept {
        items.require_column(&k.column, "`columns`")?;
    }
    let out_rows = match &items {
        Items::Table { table, .. } => {
            let columns: Vec<(String, String)> = kept.iter().map(|k| (k.column.clone(), k.name.clone())).collect();
            ctx.tables.put(table.select(&columns))
        }
        Items::Rows(rows) => Value::Array(
            rows.iter()
                .map(|row| {
                    let mut out = Map::with_capacity(kept.len());
                    for k in &kept {
                        out.insert(k.name.clone(), row.get(&k.column).cloned().unwrap_or(Value::Null));
                    }
                    Value::Object(out)
                })
                .collect(),
        ),
    };
    let mut out = Values::new();
    out.insert("summary".into(), json!({ "rows": items.len(), "columns": kept.len() }));
    out.insert("rows".into(), out_rows);
    Ok(out)
}
