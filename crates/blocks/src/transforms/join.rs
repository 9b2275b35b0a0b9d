//! `transforms.join`: rows of two lists matched on a key column (VLOOKUP / XLOOKUP).
//!
//! Keys are compared as text with surrounding spaces removed and full-width/half-width
//! spellings folded ([`cells::key_text`]), so `1001`, `"1001 "` and `"１００１"` match; blank keys
//! match nothing. Every result row has the same columns: all left columns (first-seen order),
//! then the right ones, a right column whose name is already on the left renamed `<name>_right`,
//! the right key left out when it has the left key's name (for a right row without a partner
//! its key goes into the left key column). Order: `inner`, `left` and `outer` follow the left
//! rows (each with its matches in right order), `outer` then adds the unmatched right rows;
//! `right` follows the right rows. `left_only` and `right_only` (an anti-join: "invoices with no
//! payment") give the rows of one side that have no partner, with that side's columns only.

use std::collections::{HashMap, HashSet};

use futures::future::BoxFuture;
use planwright_block::{Block, BlockContext, BlockError, Values};
use planwright_runs::{LogLevel, Reason, RunMessage};
use serde_json::{json, Map, Value};

use super::{column_names, require_column};
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
}

type Row = Map<String, Value>;

fn index_by_key(rows: &[&Row], key: &str) -> (Vec<Option<String>>, HashMap<String, Vec<usize>>) {
    let keys: Vec<Option<String>> = rows.iter().map(|r| r.get(key).and_then(cells::key_text)).collect();
    let mut index: HashMap<String, Vec<usize>> = HashMap::new();
    for (i, k) in keys.iter().enumerate() {
        if let Some(k) = k {
            index.entry(k.clone()).or_default().push(i);
        }
    }
    (keys, index)
}

fn join(inputs: Values, ctx: &BlockContext) -> Result<Values, BlockError> {
    let left_items = input::list(&inputs, "left", "the first list of rows, e.g. ${invoices.rows}")?;
    let right_items = input::list(&inputs, "right", "the second list of rows, e.g. ${payments.rows}")?;
    let left_key = input::text(&inputs, "left_key", "the key column of left, e.g. 請求番号")?.to_string();
    let right_key = input::text(&inputs, "right_key", "the key column of right, e.g. 請求番号")?.to_string();
    let strategy =
        input::choice(&inputs, "strategy", &["inner", "left", "right", "outer", "left_only", "right_only"], "inner")?;
    let left = input::rows(left_items, "left")?;
    let right = input::rows(right_items, "right")?;
    require_column(&left, &left_key, "`left_key`")?;
    require_column(&right, &right_key, "`right_key`")?;
    // A lookup brings the named columns of the list looked in (right; left when every right
    // row is kept), like VLOOKUP's result column; every column when `bring` is left out.
    let bring = match inputs.get("bring") {
        None | Some(Value::Null) => None,
        Some(_) => Some(column_names(&inputs, "bring", "[仕入先名, 支払条件]")?),
    };
    let looked_in_left = strategy == "right";
    if let Some(bring) = &bring {
        for column in bring {
            require_column(if looked_in_left { &left } else { &right }, column, "`bring`")?;
        }
    }
    let brought =
        |column: &str, key: &str| bring.as_ref().is_none_or(|b| b.iter().any(|c| c == column) || column == key);

    let (left_keys, left_index) = index_by_key(&left, &left_key);
    let (right_keys, right_index) = index_by_key(&right, &right_key);

    // Columns.
    let mut left_columns = cells::columns_of(left.iter().copied());
    if looked_in_left {
        left_columns.retain(|c| brought(c, &left_key));
    }
    let same_key = left_key == right_key;
    if same_key && !left_columns.contains(&left_key) {
        left_columns.insert(0, left_key.clone());
    }
    let mut taken: HashSet<String> = left_columns.iter().cloned().collect();
    let mut right_columns: Vec<(String, String)> = Vec::new();
    for column in cells::columns_of(right.iter().copied()) {
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
    let combine = |l: Option<&Row>, r: Option<&Row>| -> Value {
        let mut row = Map::with_capacity(left_columns.len() + right_columns.len());
        for column in &left_columns {
            let value = match (l, r) {
                (Some(l), _) => l.get(column).cloned().unwrap_or(Value::Null),
                (None, Some(r)) if same_key && *column == left_key => r.get(&right_key).cloned().unwrap_or(Value::Null),
                _ => Value::Null,
            };
            row.insert(column.clone(), value);
        }
        for (source, name) in &right_columns {
            row.insert(name.clone(), r.and_then(|r| r.get(source)).cloned().unwrap_or(Value::Null));
        }
        Value::Object(row)
    };

    let matches_of_left =
        |i: usize| -> &[usize] { left_keys[i].as_ref().and_then(|k| right_index.get(k)).map_or(&[], Vec::as_slice) };
    let matches_of_right =
        |j: usize| -> &[usize] { right_keys[j].as_ref().and_then(|k| left_index.get(k)).map_or(&[], Vec::as_slice) };
    let matched: usize = (0..left.len()).map(|i| matches_of_left(i).len()).sum();
    let left_only = (0..left.len()).filter(|&i| matches_of_left(i).is_empty()).count();
    let right_only = (0..right.len()).filter(|&j| matches_of_right(j).is_empty()).count();

    let mut rows = Vec::new();
    if strategy == "left_only" || strategy == "right_only" {
        // The rows without a partner, as they are: "invoices with no payment".
        let (side, keys, other) = if strategy == "left_only" {
            (&left, &left_keys, &right_index)
        } else {
            (&right, &right_keys, &left_index)
        };
        for (i, row) in side.iter().enumerate() {
            if i.is_multiple_of(CANCEL_EVERY) {
                check_cancel(&ctx.cancel)?;
            }
            if keys[i].as_ref().is_none_or(|k| !other.contains_key(k)) {
                rows.push(Value::Object((*row).clone()));
            }
        }
    } else if strategy == "right" {
        for (j, r) in right.iter().enumerate() {
            if j.is_multiple_of(CANCEL_EVERY) {
                check_cancel(&ctx.cancel)?;
            }
            let partners = matches_of_right(j);
            if partners.is_empty() {
                rows.push(combine(None, Some(r)));
            }
            for &i in partners {
                rows.push(combine(Some(left[i]), Some(r)));
            }
        }
    } else {
        for (i, l) in left.iter().enumerate() {
            if i.is_multiple_of(CANCEL_EVERY) {
                check_cancel(&ctx.cancel)?;
            }
            let partners = matches_of_left(i);
            if partners.is_empty() && strategy != "inner" {
                rows.push(combine(Some(l), None));
            }
            for &j in partners {
                rows.push(combine(Some(l), Some(right[j])));
            }
        }
        if strategy == "outer" {
            for (j, r) in right.iter().enumerate() {
                if matches_of_right(j).is_empty() {
                    rows.push(combine(None, Some(r)));
                }
            }
        }
    }

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
        json!({ "rows": rows.len(), "matched": matched, "left_only": left_only, "right_only": right_only }),
    );
    out.insert("rows".into(), Value::Array(rows));
    Ok(out)
}
