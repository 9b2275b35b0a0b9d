//! `transforms.append`: the rows of several tables one after another (January's then
//! February's). Every row of the result has every column any table has, in first-seen order,
//! null where its table had none; with `source_column`, a first column saying which table each
//! row came from (`sources`, one per table). Run's tables of the same columns make a table.

use std::borrow::Cow;
use std::sync::Arc;

use futures::future::BoxFuture;
use planwright_block::{Block, BlockContext, BlockError, Values};
use planwright_tables::Table;
use serde_json::{json, Map, Value};

use crate::cells::{self, input};

pub(crate) struct Append;

impl Block for Append {
    fn id(&self) -> &'static str {
        "transforms.append"
    }

    fn run<'a>(&'a self, inputs: Values, ctx: &'a BlockContext) -> BoxFuture<'a, Result<Values, BlockError>> {
        Box::pin(async move { append(inputs, ctx) })
    }

    fn takes_tables(&self) -> bool {
        true
    }
}

fn append(inputs: Values, ctx: &BlockContext) -> Result<Values, BlockError> {
    let tables =
        input::list(&inputs, "tables", "the tables to put together, e.g. [${january.rows}, ${february.rows}]")?;
    let label = source_label(&inputs, tables.len())?;
    let run_tables: Option<Vec<Arc<Table>>> = tables.iter().map(|t| ctx.tables.get(t)).collect();
    let concatenated = run_tables
        .filter(|_| label.is_none())
        .and_then(|t| Table::concat(&t.iter().map(Arc::as_ref).collect::<Vec<_>>()));
    if let Some(joined) = concatenated {
        let rows = joined.row_count();
        return Ok(appended(tables.len(), rows, ctx.tables.put(joined)));
    }
    // Tables of other columns, or rows: each row gets every column.
    let expanded: Vec<Cow<Value>> = tables
        .iter()
        .map(|t| if ctx.tables.get(t).is_some() { Cow::Owned(ctx.tables.expand(t.clone())) } else { Cow::Borrowed(t) })
        .collect();
    // Each row with the table it came from.
    let mut all: Vec<(usize, &Map<String, Value>)> = Vec::new();
    for (i, table) in expanded.iter().enumerate() {
        let Value::Array(items) = table.as_ref() else {
            return Err(BlockError::input(format!(
                "`tables` item {} is {}; each item is a table (a list of rows), e.g. ${{january.rows}}",
                i + 1,
                cells::describe(table)
            )));
        };
        all.extend(input::rows(items, &format!("tables item {}", i + 1))?.into_iter().map(|row| (i, row)));
    }
    let columns = cells::columns_of(all.iter().map(|(_, row)| *row));
    let rows: Vec<Value> = all
        .iter()
        .map(|(table, row)| {
            let mut out = Map::with_capacity(columns.len() + 1);
            if let Some((column, sources)) = &label {
                out.insert((*column).to_owned(), Value::from(sources[*table].as_str()));
            }
            for column in columns.iter().filter(|c| label.as_ref().is_none_or(|(named, _)| named != c)) {
                out.insert(column.clone(), row.get(column).cloned().unwrap_or(Value::Null));
            }
            Value::Object(out)
        })
        .collect();
    Ok(appended(tables.len(), rows.len(), Value::Array(rows)))
}

/// `source_column` and its `sources`, one name per table, when the rows are to say where they
/// came from.
fn source_label(inputs: &Values, tables: usize) -> Result<Option<(&str, Vec<String>)>, BlockError> {
    let Some(column) = input::optional_text(inputs, "source_column")? else { return Ok(None) };
    let example = "sources: [本社, 工場]";
    let sources = input::list(
        inputs,
        "sources",
        &format!("what to write in `{column}` for each table, in order, e.g. {example}"),
    )?;
    if sources.len() != tables {
        return Err(BlockError::input(format!(
            "`sources` has {} name(s) for {tables} table(s); give one per table, in the order of `tables`, e.g. {example}",
            sources.len()
        )));
    }
    let names = sources
        .iter()
        .enumerate()
        .map(|(i, source)| match source {
            Value::String(name) => Ok(name.clone()),
            Value::Number(n) => Ok(n.to_string()),
            other => Err(BlockError::input(format!(
                "`sources` item {} is {}; each is the text written for its table, e.g. {example}",
                i + 1,
                cells::describe(other)
            ))),
        })
        .collect::<Result<Vec<String>, BlockError>>()?;
    Ok(Some((column, names)))
}

fn appended(tables: usize, rows: usize, appended: Value) -> Values {
    let mut out = Values::new();
    out.insert("summary".into(), json!({ "tables": tables, "rows": rows }));
    out.insert("rows".into(), appended);
    out
}
