//! `transforms.sort`: rows in order of one or more columns, and the top N (of a run's table, a
//! table of the same columns).
//!
//! Numbers sort as numbers (`"1,200"` after `900`), dates as dates (a month alone, `2026年9月`,
//! as its first day), other text by its folded
//! spelling; within one column numbers come before dates and dates before text. Blank cells
//! come last whichever the direction. The sort is stable: rows that tie keep their order.
//! A key may list its `values` in the order wanted (高, 中, 低), as Excel's custom lists do: rows
//! follow the list, and a value not in it comes after the listed ones, in its own order.

use std::cmp::Ordering;

use futures::future::BoxFuture;
use planwright_block::{Block, BlockContext, BlockError, Values};
use planwright_runs::{LogLevel, Reason, RunMessage};
use serde_json::{json, Value};

use super::Items;
use crate::cells::{self, input};
use crate::files::{check_cancel, CANCEL_EVERY};

pub(crate) struct Sort;

impl Block for Sort {
    fn id(&self) -> &'static str {
        "transforms.sort"
    }

    fn run<'a>(&'a self, inputs: Values, ctx: &'a BlockContext) -> BoxFuture<'a, Result<Values, BlockError>> {
        Box::pin(async move { sort(inputs, ctx) })
    }

    fn takes_tables(&self) -> bool {
        true
    }
}

struct SortKey {
    column: String,
    descending: bool,
    /// The values in the order wanted, when the key lists them.
    values: Vec<Value>,
}

fn parse_key(index: usize, value: &Value) -> Result<SortKey, BlockError> {
    let n = index + 1;
    let (column, order, values) = match value {
        Value::String(column) => (column.as_str(), None, None),
        Value::Object(map) => match map.get("column") {
            Some(Value::String(column)) => (column.as_str(), map.get("order"), map.get("values")),
            _ => {
                return Err(BlockError::input(format!(
                    "`by` item {n} has no `column`; write it like {{column: 金額, order: desc}}"
                )));
            }
        },
        other => {
            return Err(BlockError::input(format!(
                "`by` item {n} is {}; give a column name or {{column: 金額, order: desc}}",
                cells::describe(other)
            )));
        }
    };
    if column.trim().is_empty() {
        return Err(BlockError::input(format!("`by` item {n} names no column")));
    }
    let descending = match order {
        None | Some(Value::Null) => false,
        Some(Value::String(o)) => match o.trim().to_ascii_lowercase().as_str() {
            "asc" | "ascending" => false,
            "desc" | "descending" => true,
            _ => return Err(BlockError::input(format!("`by` item {n}: order {o:?} is not asc or desc"))),
        },
        Some(other) => {
            return Err(BlockError::input(format!(
                "`by` item {n}: order must be asc or desc, not {}",
                cells::describe(other)
            )));
        }
    };
    let values = match values {
        None | Some(Value::Null) => Vec::new(),
        Some(Value::Array(values)) if values.iter().all(|v| !v.is_array() && !v.is_object()) => values.clone(),
        Some(other) => {
            return Err(BlockError::input(format!(
                "`by` item {n}: values must list the column's values in the order wanted, e.g. [高, 中, 低], not {}",
                cells::describe(other)
            )));
        }
    };
    Ok(SortKey { column: column.to_owned(), descending, values })
}

/// A cell as it sorts: its class (a value of the key's list, number, date, text) first, then
/// its value.
#[derive(PartialEq, PartialOrd)]
enum SortValue {
    Listed(usize),
    Number(f64),
    Date((i32, u8, u8, u32)),
    Text(String),
}

fn sort_value(key: &SortKey, cell: Option<&Value>) -> Option<SortValue> {
    let cell = cell.filter(|c| !cells::is_blank(c))?;
    if let Some(at) = key.values.iter().position(|v| cells::equals(cell, v)) {
        return Some(SortValue::Listed(at));
    }
    if let Some(num) = cells::number(cell) {
        return Some(SortValue::Number(num.value));
    }
    if let Some(date) = cells::date(cell) {
        return Some(SortValue::Date((date.year, date.month, date.day, date.time.unwrap_or(0))));
    }
    // (「2026年9月」 before 「2026年10月」: a month alone sorts as the first day of it.)
    if let Some((year, month)) = cells::year_month(cell) {
        return Some(SortValue::Date((year, month, 1, 0)));
    }
    Some(SortValue::Text(cells::fold_text(&cells::display_text(cell))))
}

fn sort(inputs: Values, ctx: &BlockContext) -> Result<Values, BlockError> {
    let items = Items::of(&inputs, "items", "the rows to sort, e.g. ${read.rows}", ctx)?;
    let keys: Vec<SortKey> =
        match input::required(&inputs, "by", "the columns to sort by, e.g. [{column: 金額, order: desc}]")? {
            Value::Array(keys) if !keys.is_empty() => {
                keys.iter().enumerate().map(|(i, k)| parse_key(i, k)).collect::<Result<_, _>>()?
            }
            Value::Array(_) => return Err(BlockError::input("`by` is empty; name at least one column to sort by")),
            one => vec![parse_key(0, one)?],
        };
    let limit = match inputs.get("limit") {
        None | Some(Value::Null) => None,
        Some(_) => match input::integer(&inputs, "limit", 0)? {
            n if n >= 1 => Some(n as usize),
            n => {
                return Err(BlockError::input(format!(
                    "`limit` is {n}; give the number of rows to keep (1 or more), or leave it out for all"
                )))
            }
        },
    };
    for key in &keys {
        items.require_column(&key.column, "`by`")?;
    }
    let total = items.len();
    let mut reader = items.reader(keys.iter().map(|k| &k.column));
    let mut values: Vec<Vec<Option<SortValue>>> = Vec::with_capacity(total);
    for index in 0..total {
        if index.is_multiple_of(CANCEL_EVERY) {
            check_cancel(&ctx.cancel)?;
        }
        let row = reader.row(index);
        values.push(keys.iter().map(|k| sort_value(k, row.get(&k.column))).collect());
    }
    let mut order: Vec<usize> = (0..total).collect();
    order.sort_by(|&a, &b| {
        for (key, (x, y)) in keys.iter().zip(values[a].iter().zip(&values[b])) {
            let ordering = match (x, y) {
                (None, None) => Ordering::Equal,
                (None, Some(_)) => Ordering::Greater,
                (Some(_), None) => Ordering::Less,
                // A listed value comes before the others whichever the direction, as a blank is last.
                (Some(SortValue::Listed(_)), Some(y)) if !matches!(y, SortValue::Listed(_)) => Ordering::Less,
                (Some(x), Some(SortValue::Listed(_))) if !matches!(x, SortValue::Listed(_)) => Ordering::Greater,
                (Some(x), Some(y)) => {
                    let o = x.partial_cmp(y).unwrap_or(Ordering::Equal);
                    if key.descending {
                        o.reverse()
                    } else {
                        o
                    }
                }
            };
            if ordering != Ordering::Equal {
                return ordering;
            }
        }
        Ordering::Equal
    });
    order.truncate(limit.unwrap_or(usize::MAX));
    let kept = order.len();
    if limit.is_some() {
        let said = RunMessage::RowsKept { kept: kept as u64, total: total as u64 };
        ctx.log(LogLevel::Info, Reason::said(said, format!("kept the first {kept} of {total} rows")));
    }
    let mut out = Values::new();
    out.insert("summary".into(), json!({ "input_rows": total, "rows": kept }));
    out.insert("rows".into(), items.take(&order, ctx));
    Ok(out)
}
