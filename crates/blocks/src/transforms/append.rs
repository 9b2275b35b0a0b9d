//! `transforms.append`: the rows of several tables one after another (January's then
//! February's). Every row of the result has every column any table has, in first-seen order,
//! null where its table had none.

use futures::future::BoxFuture;
use planwright_block::{Block, BlockContext, BlockError, Values};
use serde_json::{json, Map, Value};

use crate::cells::{self, input};

pub(crate) struct Append;

impl Block for Append {
    fn id(&self) -> &'static str {
        "transforms.append"
    }

    fn run<'a>(&'a self, inputs: Values, _ctx: &'a BlockContext) -> BoxFuture<'a, Result<Values, BlockError>> {
        Box::pin(async move { append(inputs) })
    }
}

fn append(inputs: Values) -> Result<Values, BlockError> {
    let tables =
        input::list(&inputs, "tables", "the tables to put together, e.g. [${january.rows}, ${february.rows}]")?;
    let mut all: Vec<&Map<String, Value>> = Vec::new();
    for (i, table) in tables.iter().enumerate() {
        let Value::Array(items) = table else {
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
    let mut out = Values::new();
    out.insert("summary".into(), json!({ "tables": tables.len(), "rows": rows.len() }));
    out.insert("rows".into(), Value::Array(rows));
    Ok(out)
}
