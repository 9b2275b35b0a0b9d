//! `transforms.append`: the rows of several tables one after another (January's then
//! February's). Every row of the result has every column any table has, in first-seen order,
//! null where its table had none. Run's tables of the same columns make a table.

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
    let run_tables: Option<Vec<Arc<Table>>> = tables.iter().map(|t| ctx.tables.get(t)).collect();
    if let Some(joined) = run_tables.and_then(|t| Table::concat(&t.iter().map(Arc::as_ref).collect::<Vec<_>>())) {
        let rows = joined.row_count();
        return Ok(appended(tables.len(), rows, ctx.tables.put(joined)));
    }
    // Tables of other columns, or rows: each row gets every column.
    let expanded: Vec<Cow<Value>> = tables
        .iter()
        .map(|t| if ctx.tables.get(t).is_some() { Cow::Owned(ctx.tables.expand(t.clone())) } else { Cow::Borrowed(t) })
        .collect();
    let mut all: Vec<&Map<String, Value>> = Vec::new();
    for (i, table) in expanded.iter().enumerate() {
        let Value::Array(items) = table.as_ref() else {
            return Err(BlockError::input(format!(
                "`tables` item {} is {}; each item is a table (a list of rows), e.g. ${{january.rows}}",
                i + 1,
                cells::describe(table)
            )));
        };
        all.extend(input::rows(items, &format!("tables item {}", i + 1))?);
    }
    let columns = cells::columns_of(all.iter().copied());
    let rows: Vec<Value> = all
        .iter()
        .map(|row| {
            let mut out = Map::with_capacity(columns.len());
            for column in &columns {
                out.insert(column.clone(), row.get(column).cloned().unwrap_or(Value::Null));
            }
            Value::Object(out)
        })
        .collect();
    Ok(appended(tables.len(), rows.len(), Value::Array(rows)))
}

fn appended(tables: usize, rows: usize, appended: Value) -> Values {
    let mut out = Values::new();
    out.insert("summary".into(), json!({ "tables": tables, "rows": rows }));
    out.insert("rows".into(), appended);
    out
}
