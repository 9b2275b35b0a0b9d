//! `transforms.join`: rows of two lists matched on a key column (VLOOKUP / XLOOKUP).
//!
//! Keys are compared as text with surrounding spaces removed and full-width/half-width
//! spellings folded ([`cells::key_text`]), so `1001`, `"1001 "` and `"１００１"` match; blank keys
//! match nothing; with `ignore_case`, `req-012` matches `REQ-012` too, and with
//! `ignore_leading_zeros`, `00102` matches `102` (a code Excel stored as a number).
//!
//! Every result row has the same columns: all left columns (first-seen order),
//! then the right ones, a right column whose name is already on the left renamed `<name>_right`,
//! the right key left out when it has the left key's name (for a right row without a partner
//! its key goes into the left key column). Order: `inner`, `left` and `outer` follow the left
//! rows (each with its matches in right order), `outer` then adds the unmatched right rows;
//! `right` follows the right rows. `left_only` and `right_only` (an anti-join: "invoices with no
//! payment") give the rows of one side that have no partner, with that side's columns only.
//! Two run's tables make a table; a cell a side without a partner does not have is null, and a
//! table's columns are its own whether or not it has rows (a month without invoices still names
//! the right side's `amount` `amount_right`).

use std::collections::{HashMap, HashSet};

use futures::future::BoxFuture;
use planwright_block::{Block, BlockContext, BlockError, Values};
use planwright_runs::{LogLevel, Reason, RunMessage};
use planwright_tables::{JoinedColumn, Table};
use serde_json::{json, Map, Value};

use super::{column_names, Items};
use crate::cells::{self, input};
use crate::files::{check_cancel, CANCEL_EVERY};

pub(crate) struct Join;

impl Block for Join {
    fn id(&self) -> &'static str {
        "transforms.join"
    }

    fn run<'a>(&'a self, inputs: Values, ctx: &'a BlockContext) -> BoxFuture<'a, Result<Values, BlockError>> {
        Box::pin(async move { join(inputs, ctx) })
    }

    fn takes_tables(&self) -> bool {
        true
    }
}

/// How keys are read beyond [`cells::key_text`].
#[derive(Clone, Copy)]
struct KeyReading {
    /// `req-012` is `REQ-012`.
    ignore_case: bool,
    /// `00102` is `102` (a code Excel stored as a number).
    ignore_leading_zeros: bool,
}

impl KeyReading {
    fn key(self, cell: &Value) -> Option<String> {
        let key = cells::key_text(cell)?;
        let key = if self.ignore_case { key.to_lowercase() } else { key };
        if self.ignore_leading_zeros && key.len() > 1 && key.bytes().all(|b| b.is_ascii_digit()) {
            let digits = key.trim_start_matches('0');
            return Some(if digits.is_empty() { "0".to_owned() } else { digits.to_owned() });
        }
        Some(key)
    }
}

/// Each row's key (its `key` cell as [`KeyReading`] reads it), and the rows of each key.
fn index_by_key(items: &Items, key: &str, reading: KeyReading) -> (Vec<Option<String>>, HashMap<String, Vec<usize>>) {
    let key = key.to_owned();
    let mut reader = items.reader([&key]);
    let text = |cell: &Value| reading.key(cell);
    let keys: Vec<Option<String>> = (0..items.len()).map(|i| reader.row(i).get(&key).and_then(text)).collect();
    let mut index: HashMap<String, Vec<usize>> = HashMap::new();
    for (i, k) in keys.iter().enumerate() {
        if let Some(k) = k {
            index.entry(k.clone()).or_default().push(i);
        }
    }
    (keys, index)
}

fn join(mut inputs: Values, ctx: &BlockContext) -> Result<Values, BlockError> {
    // Two run's tables make a table; a table beside rows is read as its rows.
    let is_table = |side: &str| inputs.get(side).is_some_and(|v| ctx.tables.get(v).is_some());
    if is_table("left") != is_table("right") {
        for side in ["left", "right"] {
            if let Some(value) = inputs.remove(side) {
                inputs.insert(side.to_owned(), ctx.tables.expand(value));
            }
        }
    }
    let left = Items::of(&inputs, "left", "the first list of rows, e.g. ${invoices.rows}", ctx)?;
    let right = Items::of(&inputs, "right", "the second list of rows, e.g. ${payments.rows}", ctx)?;
    let left_key = input::text(&inputs, "left_key", "the key column of left, e.g. 請求番号")?.to_string();
    let right_key = input::text(&inputs, "right_key", "the key column of right, e.g. 請求番号")?.to_string();
    let strategy =
        input::choice(&inputs, "strategy", &["inner", "left", "right", "outer", "left_only", "right_only"], "inner")?;
    left.require_column(&left_key, "`left_key`")?;
    right.require_column(&right_key, "`right_key`")?;
    // A lookup brings the named columns of the list looked in (right; left when every right
    // row is kept), like VLOOKUP's result column; every column when `bring` is left out.
    let bring = match inputs.get("bring") {
        None | Some(Value::Null) => None,
        Some(_) => Some(column_names(&inputs, "bring", "[仕入先名, 支払条件]")?),
    };
    let looked_in_left = strategy == "right";
    if let Some(bring) = &bring {
        for column in bring {
            if looked_in_left { &left } else { &right }.require_column(column, "`bring`")?;
        }
    }
    let brought =
        |column: &str, key: &str| bring.as_ref().is_none_or(|b| b.iter().any(|c| c == column) || column == key);

    let reading = KeyReading {
        ignore_case: input::boolean(&inputs, "ignore_case", false)?,
        ignore_leading_zeros: input::boolean(&inputs, "ignore_leading_zeros", false)?,
    };
    let (left_keys, left_index) = index_by_key(&left, &left_key, reading);
    let (right_keys, right_index) = index_by_key(&right, &right_key, reading);

    // Columns.
    let mut left_columns = left.columns();
    if looked_in_left {
        left_columns.retain(|c| brought(c, &left_key));
    }
    let same_key = left_key == right_key;
    if same_key && !left_columns.contains(&left_key) {
        left_columns.insert(0, left_key.clone());
    }
    let mut taken: HashSet<String> = left_columns.iter().cloned().collect();
    let mut right_columns: Vec<(String, String)> = Vec::new();
    for column in right.columns() {
        if same_key && column == right_key || !looked_in_left && !brought(&column, "") {
            continue;
        }
        let mut name = column.clone();
        if taken.contains(&name) {
            name = format!("{column}_right");
            let mut n = 2;
            while taken.contains(&name) {
                name = format!("{column}_right_{n}");
                n += 1;
            }
        }
        taken.insert(name.clone());
        right_columns.push((column, name));
    }

    let matches_of_left =
        |i: usize| -> &[usize] { left_keys[i].as_ref().and_then(|k| right_index.get(k)).map_or(&[], Vec::as_slice) };
    let matches_of_right =
        |j: usize| -> &[usize] { right_keys[j].as_ref().and_then(|k| left_index.get(k)).map_or(&[], Vec::as_slice) };
    let matched: usize = (0..left.len()).map(|i| matches_of_left(i).len()).sum();
    let left_only = (0..left.len()).filter(|&i| matches_of_left(i).is_empty()).count();
    let right_only = (0..right.len()).filter(|&j| matches_of_right(j).is_empty()).count();

    let (rows, count) = if strategy == "left_only" || strategy == "right_only" {
        // The rows without a partner, as they are: "invoices with no payment".
        let (side, keys, other) = if strategy == "left_only" {
            (&left, &left_keys, &right_index)
        } else {
            (&right, &right_keys, &left_index)
        };
        let keep: Vec<bool> = keys.iter().map(|k| k.as_ref().is_none_or(|k| !other.contains_key(k))).collect();
        (side.keep(&keep, ctx), keep.iter().filter(|kept| **kept).count())
    } else {
        // Each result row as the left and right rows it is made of.
        let mut pairs: Vec<(Option<usize>, Option<usize>)> = Vec::new();
        if strategy == "right" {
            for j in 0..right.len() {
                if j.is_multiple_of(CANCEL_EVERY) {
                    check_cancel(&ctx.cancel)?;
                }
                let partners = matches_of_right(j);
                if partners.is_empty() {
                    pairs.push((None, Some(j)));
                }
                pairs.extend(partners.iter().map(|&i| (Some(i), Some(j))));
            }
        } else {
            for i in 0..left.len() {
                if i.is_multiple_of(CANCEL_EVERY) {
                    check_cancel(&ctx.cancel)?;
                }
                let partners = matches_of_left(i);
                if partners.is_empty() && strategy != "inner" {
                    pairs.push((Some(i), None));
                }
                pairs.extend(partners.iter().map(|&j| (Some(i), Some(j))));
            }
            if strategy == "outer" {
                pairs.extend((0..right.len()).filter(|&j| matches_of_right(j).is_empty()).map(|j| (None, Some(j))));
            }
        }
        // Each result column: a left one from its left row (a right row without a partner fills
        // the key when both keys have one name), a right one from its right row.
        let columns: Vec<JoinedColumn> = left_columns
            .iter()
            .map(|c| JoinedColumn {
                name: c.clone(),
                left: Some(c.clone()),
                right: (same_key && *c == left_key).then(|| right_key.clone()),
            })
            .chain(right_columns.iter().map(|(source, name)| JoinedColumn {
                name: name.clone(),
                left: None,
                right: Some(source.clone()),
            }))
            .collect();
        let rows = match (&left, &right) {
            (Items::Table { table: l, .. }, Items::Table { table: r, .. }) => {
                ctx.tables.put(Table::joined(l, r, &pairs, &columns))
            }
            (Items::Rows(l), Items::Rows(r)) => {
                // As `Table::joined` takes each cell.
                let combine = |i: Option<usize>, j: Option<usize>| -> Value {
                    let (l, r) = (i.map(|i| l[i]), j.map(|j| r[j]));
                    let mut row = Map::with_capacity(columns.len());
                    for column in &columns {
                        let value = match (l, &column.left, r, &column.right) {
                            (Some(l), Some(name), _, _) | (_, _, Some(l), Some(name)) => {
                                l.get(name).cloned().unwrap_or(Value::Null)
                            }
                            _ => Value::Null,
                        };
                        row.insert(column.name.clone(), value);
                    }
                    Value::Object(row)
                };
                Value::Array(pairs.iter().map(|&(i, j)| combine(i, j)).collect())
            }
            _ => unreachable!("a table beside rows was read as its rows"),
        };
        (rows, pairs.len())
    };

    fn repeated<'m>(index: &'m HashMap<String, Vec<usize>>, other: &HashMap<String, Vec<usize>>) -> Vec<&'m String> {
        let mut keys: Vec<&String> =
            index.iter().filter(|(k, v)| v.len() > 1 && other.contains_key(*k)).map(|(k, _)| k).collect();
        keys.sort();
        keys
    }
    for (side, keys) in [("right", repeated(&right_index, &left_index)), ("left", repeated(&left_index, &right_index))]
    {
        if !keys.is_empty() {
            let shown = keys.iter().take(5).map(|k| k.as_str()).collect::<Vec<_>>().join(", ");
            let text = format!(
                "{} keys appear in more than one {side} row (such as {shown}); each of their matches gives its own row",
                keys.len()
            );
            let said = RunMessage::KeysRepeated { side: side.to_owned(), count: keys.len() as u64, keys: shown };
            ctx.log(LogLevel::Warn, Reason::said(said, text));
        }
    }
    let text = format!(
        "{strategy} join: {matched} matched pairs, {left_only} left rows and {right_only} right rows without a match"
    );
    let said = RunMessage::RowsJoined {
        strategy: strategy.to_string(),
        matched: matched as u64,
        left_only: left_only as u64,
        right_only: right_only as u64,
    };
    ctx.log(LogLevel::Info, Reason::said(said, text));
    let mut out = Values::new();
    out.insert(
        "summary".into(),
        json!({ "rows": count, "matched": matched, "left_only": left_only, "right_only": right_only }),
    );
    out.insert("rows".into(), rows);
    Ok(out)
}
