//! `transforms.pick`: one value out of a larger result, by a dotted path (into a run's table too,
//! reading only the row it names).

use futures::future::BoxFuture;
use planwright_block::{Block, BlockContext, BlockError, RunTables, Values};
use planwright_runs::{Reason, RunMessage};
use serde_json::Value;

use crate::cells::{self, input};

pub(crate) struct Pick;

impl Block for Pick {
    fn id(&self) -> &'static str {
        "transforms.pick"
    }

    fn run<'a>(&'a self, inputs: Values, ctx: &'a BlockContext) -> BoxFuture<'a, Result<Values, BlockError>> {
        Box::pin(async move { pick(inputs, &ctx.tables) })
    }

    fn takes_tables(&self) -> bool {
        true
    }
}

fn pick(mut inputs: Values, tables: &RunTables) -> Result<Values, BlockError> {
    let path = input::text(&inputs, "path", "the dotted path of the value, e.g. rows.0.total")?.trim().to_string();
    if path.is_empty() {
        return Err(BlockError::input("`path` is empty; give the dotted path of the value, e.g. rows.0.total"));
    }
    if !inputs.contains_key("source") {
        return Err(input::missing("source", "the value to look into, e.g. ${summary}"));
    }
    let source = inputs.remove("source").unwrap_or(Value::Null);
    let value = lookup(&source, &path, tables)?;
    let mut out = Values::new();
    out.insert("value".into(), value);
    Ok(out)
}

/// Follows `path` in `source`. Object keys that themselves contain dots (`No.`, `ver.2`) are
/// found too: at each object the longest run of segments that is a key wins. A negative number
/// counts from the end of a list (`-1` is the last item). A key that is there with null gives
/// null; a key or item that is not there is an error saying what is there instead. A run's table
/// is the list of its rows; only the row the path goes into is read.
pub(crate) fn lookup(source: &Value, path: &str, tables: &RunTables) -> Result<Value, BlockError> {
    let segments: Vec<&str> = path.split('.').collect();
    walk(source, &segments, 0, path, tables)
}

/// [`lookup`] from segment `i` on, `source` being where the segments before it led.
fn walk(source: &Value, segments: &[&str], mut i: usize, path: &str, tables: &RunTables) -> Result<Value, BlockError> {
    let mut current = source;
    while i < segments.len() {
        let walked = segments[..i].join(".");
        let at = if walked.is_empty() { "`source`".to_string() } else { format!("`{walked}`") };
        if let Some(table) = tables.get(current) {
            let n = item_index(segments[i], table.row_count(), path, &at)?;
            let row = table.row(n).expect("item_index gives a row of the table");
            return walk(&row, segments, i + 1, path, tables);
        }
        match current {
            Value::Object(map) => {
                let found = (i + 1..=segments.len()).rev().find_map(|end| {
                    let key = segments[i..end].join(".");
                    map.get(&key).map(|v| (v, end))
                });
                match found {
                    Some((value, end)) => {
                        current = value;
                        i = end;
                    }
                    None => {
                        let segment = segments[i];
                        let keys: Vec<String> = map.keys().cloned().collect();
                        let hint = if keys.is_empty() {
                            "it is an empty object".to_string()
                        } else {
                            cells::missing_name_hint(segment, &keys, "its keys")
                        };
                        let text = format!("`path` {path:?}: {at} has no `{segment}`; {hint}");
                        let said = RunMessage::KeyMissing {
                            path: path.to_owned(),
                            key: segment.to_owned(),
                            keys: cells::listed_names(&keys),
                        };
                        return Err(BlockError::input(Reason::said(said, text)));
                    }
                }
            }
            Value::Array(items) => {
                current = &items[item_index(segments[i], items.len(), path, &at)?];
                i += 1;
            }
            other => {
                return Err(BlockError::input(format!(
                    "`path` {path:?}: {at} is {}, which has no `{}` inside",
                    cells::describe(other),
                    segments[i]
                )));
            }
        }
    }
    Ok(current.clone())
}

/// The item `segment` names in a list of `len` items at `at`: a number from 0, or from the end
/// when negative.
fn item_index(segment: &str, len: usize, path: &str, at: &str) -> Result<usize, BlockError> {
    let segment = segment.trim();
    let index = match segment.parse::<i64>() {
        Ok(n) if n < 0 => len.checked_sub(n.unsigned_abs() as usize),
        Ok(n) => Some(n as usize),
        Err(_) => {
            return Err(BlockError::input(format!(
                "`path` {path:?}: {at} is a list of {len} items, so the next part must be a number (0 is the first \
                 item), not `{segment}`"
            )));
        }
    };
    match index.filter(|&n| n < len) {
        Some(n) => Ok(n),
        None => {
            let text = match len {
                0 => format!("`path` {path:?}: {at} is an empty list; there is no item {segment}"),
                n => format!("`path` {path:?}: {at} has {n} items (0 to {}); there is no item {segment}", n - 1),
            };
            let said = RunMessage::ItemMissing { path: path.to_owned(), item: segment.to_owned(), count: len as u64 };
            Err(BlockError::input(Reason::said(said, text)))
        }
    }
}
