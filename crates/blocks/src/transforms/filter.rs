//! `transforms.filter`: rows that meet every condition, and the rest.

use std::cmp::Ordering;

use futures::future::BoxFuture;
use planwright_block::{Block, BlockContext, BlockError, Values};
use planwright_runs::{LogLevel, Reason, RunMessage};
use serde_json::{json, Map, Value};

use super::{Items, TextMemo};
use crate::cells::{self, input};
use crate::files::{check_cancel, CANCEL_EVERY};

pub(crate) struct Filter;

impl Block for Filter {
    fn id(&self) -> &'static str {
        "transforms.filter"
    }

    fn run<'a>(&'a self, inputs: Values, ctx: &'a BlockContext) -> BoxFuture<'a, Result<Values, BlockError>> {
        Box::pin(async move { filter(inputs, ctx) })
    }

    fn takes_tables(&self) -> bool {
        true
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Op {
    Eq,
    Ne,
    Gt,
    Gte,
    Lt,
    Lte,
    Contains,
    In,
    Between,
}

const OPERATORS: &str = "eq, ne, gt, gte, lt, lte, contains, in, between";

impl Op {
    fn parse(given: &str) -> Option<Op> {
        Some(match given.trim().to_ascii_lowercase().as_str() {
            "eq" | "=" | "==" => Op::Eq,
            "ne" | "!=" | "<>" => Op::Ne,
            "gt" | ">" => Op::Gt,
            "gte" | ">=" => Op::Gte,
            "lt" | "<" => Op::Lt,
            "lte" | "<=" => Op::Lte,
            "contains" => Op::Contains,
            "in" => Op::In,
            "between" => Op::Between,
            _ => return None,
        })
    }

    /// Whether the operator orders values (and so cannot use text against numbers).
    fn orders(self) -> bool {
        matches!(self, Op::Gt | Op::Gte | Op::Lt | Op::Lte | Op::Between)
    }
}

/// One condition of a filter (or of a label column, [`super::compute`]), parsed.
pub(crate) struct Condition {
    /// How the condition is named in messages: `condition 2 (金額 gte 100000)`.
    pub(crate) label: String,
    pub(crate) field: String,
    op: Op,
    value: Value,
    value2: Value,
    /// The column of the same row compared with, instead of `value`.
    pub(crate) column: Option<String>,
}

impl Condition {
    /// The columns the condition reads.
    pub(crate) fn columns(&self) -> impl Iterator<Item = &String> {
        std::iter::once(&self.field).chain(&self.column)
    }

    /// The error for a row set without `column`, condition `n` (from 0) of the filter.
    fn missing(&self, n: usize, column: &str, columns: String) -> RunMessage {
        RunMessage::ConditionColumnMissing {
            condition: n as u64 + 1,
            field: self.field.clone(),
            column: column.to_owned(),
            columns,
        }
    }

    pub(crate) fn holds(&self, row: &Map<String, Value>) -> bool {
        let (cell, value) = self.operands(row);
        self.holds_for(cell, value)
    }

    /// The row's cell, and what it is compared with: the value, or the row's other column.
    fn operands<'r>(&'r self, row: &'r Map<String, Value>) -> (&'r Value, &'r Value) {
        let cell = row.get(&self.field).unwrap_or(&Value::Null);
        let value = match &self.column {
            Some(column) => row.get(column).unwrap_or(&Value::Null),
            None => &self.value,
        };
        (cell, value)
    }

    fn holds_for(&self, cell: &Value, value: &Value) -> bool {
        let order = |bound: &Value| cells::compare(cell, bound);
        match self.op {
            Op::Eq => cells::equals(cell, value),
            Op::Ne => !cells::equals(cell, value),
            Op::Gt => order(value) == Some(Ordering::Greater),
            Op::Gte => matches!(order(value), Some(Ordering::Greater | Ordering::Equal)),
            Op::Lt => order(value) == Some(Ordering::Less),
            Op::Lte => matches!(order(value), Some(Ordering::Less | Ordering::Equal)),
            Op::Contains => cells::contains(cell, value),
            Op::In => self.value.as_array().is_some_and(|values| values.iter().any(|v| cells::equals(cell, v))),
            Op::Between => {
                matches!(order(&self.value), Some(Ordering::Greater | Ordering::Equal))
                    && matches!(order(&self.value2), Some(Ordering::Less | Ordering::Equal))
            }
        }
    }

    /// Whether the cell is something this ordering condition cannot compare with `value` (text
    /// against a number, say), as opposed to merely failing the condition.
    fn incomparable_for(&self, cell: &Value, value: &Value) -> bool {
        self.op.orders() && !cells::is_blank(cell) && !cells::is_blank(value) && cells::compare(cell, value).is_none()
    }
}

pub(crate) fn parse_condition(index: usize, value: &Value) -> Result<Condition, BlockError> {
    let n = index + 1;
    let Value::Object(map) = value else {
        return Err(BlockError::input(format!(
            "`conditions` item {n} is {}; each condition is an object like {{field: 金額, operator: gte, value: \
             100000}}",
            cells::describe(value)
        )));
    };
    let field = match map.get("field") {
        Some(Value::String(s)) if !s.is_empty() => s.clone(),
        _ => {
            return Err(BlockError::input(format!(
                "condition {n} has no `field`; name the column to test, e.g. field: ステータス"
            )));
        }
    };
    let op = match map.get("operator") {
        Some(Value::String(s)) => Op::parse(s).ok_or_else(|| {
            BlockError::input(format!("condition {n} (`{field}`): operator {s:?} is not one of {OPERATORS}"))
        })?,
        _ => {
            return Err(BlockError::input(format!(
                "condition {n} (`{field}`) has no `operator`; use one of {OPERATORS}"
            )));
        }
    };
    let value2 = map.get("value2").cloned().unwrap_or(Value::Null);
    let op_name = map.get("operator").and_then(Value::as_str).unwrap_or_default().to_string();
    if let Some(column) = map.get("column") {
        let label = format!("condition {n} ({field} {op_name} column)");
        let Some(column) = column.as_str().filter(|c| !c.trim().is_empty()) else {
            return Err(BlockError::input(format!(
                "{label}: `column` must name the column to compare with, e.g. column: 請求額"
            )));
        };
        if matches!(op, Op::In | Op::Between) {
            return Err(BlockError::input(format!(
                "{label}: {op_name} compares with values, not a column; use eq, ne, gt, gte, lt, lte or contains"
            )));
        }
        if map.contains_key("value") {
            return Err(BlockError::input(format!(
                "{label} has both `value` and `column`; keep the one to compare with"
            )));
        }
        let column = Some(column.to_owned());
        return Ok(Condition { label, field, op, value: Value::Null, value2, column });
    }
    let value = map.get("value").cloned();
    let label = format!("condition {n} ({field} {op_name})");
    let Some(value) = value else {
        return Err(BlockError::input(format!(
            "{label} has no `value`; give the value to compare with (null to test for an empty cell), or `column` to compare with another column of the row"
        )));
    };
    match op {
        Op::Eq | Op::Ne => {
            if value.is_array() {
                return Err(BlockError::input(format!(
                    "{label}: `value` is a list; to keep rows equal to one of several values use operator in"
                )));
            }
        }
        Op::Gt | Op::Gte | Op::Lt | Op::Lte | Op::Contains => {
            if cells::is_blank(&value) {
                return Err(BlockError::input(format!("{label}: `value` is empty; give a value to compare with")));
            }
        }
        Op::In => {
            if !value.is_array() {
                return Err(BlockError::input(format!(
                    "{label}: `value` must be a list of the values to accept, e.g. [未入金, 一部入金], not {}",
                    cells::describe(&value)
                )));
            }
        }
        Op::Between => {
            if cells::is_blank(&value) || cells::is_blank(&value2) {
                return Err(BlockError::input(format!(
                    "{label} needs `value` (from) and `value2` (to), e.g. value: 2024-04-01, value2: 2024-04-30"
                )));
            }
            match cells::compare(&value, &value2) {
                Some(Ordering::Greater) => {
                    return Err(BlockError::input(format!(
                        "{label}: `value` ({}) is after `value2` ({}); value is the lower bound, value2 the upper",
                        cells::display_text(&value),
                        cells::display_text(&value2)
                    )));
                }
                None => {
                    return Err(BlockError::input(format!(
                        "{label}: `value` ({}) and `value2` ({}) cannot be compared; give two numbers or two dates",
                        cells::display_text(&value),
                        cells::display_text(&value2)
                    )));
                }
                _ => {}
            }
        }
    }
    Ok(Condition { label, field, op, value, value2, column: None })
}

fn filter(mut inputs: Values, ctx: &BlockContext) -> Result<Values, BlockError> {
    let conditions =
        input::list(&inputs, "conditions", "the conditions, e.g. [{field: 金額, operator: gte, value: 100000}]")?;
    let conditions: Vec<Condition> =
        conditions.iter().enumerate().map(|(i, c)| parse_condition(i, c)).collect::<Result<_, _>>()?;
    let items = Items::of(&inputs, "items", "the rows to filter, e.g. ${read.rows}", ctx)?;
    for (n, condition) in conditions.iter().enumerate() {
        for column in condition.columns() {
            items.require_column_said(column, &condition.label, |columns| condition.missing(n, column, columns))?;
        }
    }
    let mut rows = items.reader(conditions.iter().flat_map(Condition::columns));
    let mut judge = Judge::new(&conditions);
    let mut keep = Vec::with_capacity(items.len());
    for index in 0..items.len() {
        if index.is_multiple_of(CANCEL_EVERY) {
            check_cancel(&ctx.cancel)?;
        }
        keep.push(judge.keeps(rows.row(index)));
    }
    drop(rows);
    judge.log_incomparable(ctx);
    let total = items.len();
    let kept = keep.iter().filter(|kept| **kept).count();
    let (filtered, excluded) = if let Items::Table { .. } = items {
        let filtered = items.keep(&keep, ctx);
        keep.iter_mut().for_each(|kept| *kept = !*kept);
        (filtered, items.keep(&keep, ctx))
    } else {
        // Rows are moved into the two lists, not copied.
        drop(items);
        let Some(Value::Array(rows)) = inputs.remove("items") else { unreachable!("`items` was read as rows") };
        let (mut filtered, mut excluded) = (Vec::new(), Vec::new());
        for (row, kept) in rows.into_iter().zip(keep) {
            if kept { &mut filtered } else { &mut excluded }.push(row);
        }
        (Value::Array(filtered), Value::Array(excluded))
    };
    Ok(filtered_outputs(ctx, total, kept, total - kept, filtered, excluded))
}

/// Judges rows against every condition, counting per condition the rows it could not compare.
struct Judge<'c> {
    conditions: &'c [Condition],
    /// Per condition: how many rows could not be compared, and the first such cell.
    incomparable: Vec<(usize, Option<Value>)>,
    /// Per condition with a value (not a column): the verdict (holds, incomparable) for each text
    /// cell seen.
    memo: Vec<TextMemo<(bool, bool)>>,
}

impl<'c> Judge<'c> {
    fn new(conditions: &'c [Condition]) -> Judge<'c> {
        Judge {
            conditions,
            incomparable: conditions.iter().map(|_| (0, None)).collect(),
            memo: conditions.iter().map(|_| TextMemo::new()).collect(),
        }
    }

    /// Whether `row` meets every condition.
    fn keeps(&mut self, row: &Map<String, Value>) -> bool {
        let judged = self.conditions.iter().zip(self.incomparable.iter_mut()).zip(self.memo.iter_mut());
        for ((condition, odd), memo) in judged {
            let (cell, value) = condition.operands(row);
            let verdict = || (condition.holds_for(cell, value), condition.incomparable_for(cell, value));
            let (holds, incomparable) = match (cell, &condition.column) {
                (Value::String(text), None) => memo.get_or(text, verdict),
                _ => verdict(),
            };
            if incomparable {
                odd.0 += 1;
                odd.1.get_or_insert_with(|| cell.clone());
            }
            if !holds {
                return false;
            }
        }
        true
    }

    /// A warning per condition that met cells it could not compare (they were excluded).
    fn log_incomparable(self, ctx: &BlockContext) {
        for (condition, (count, sample)) in self.conditions.iter().zip(self.incomparable) {
            if count > 0 {
                let value = match &condition.column {
                    Some(column) => format!("`{column}`"),
                    None => cells::display_text(&condition.value),
                };
                let text = format!(
                    "{}: {count} rows have a `{}` that cannot be compared with {value} (such as {}); they were excluded",
                    condition.label,
                    condition.field,
                    cells::describe(&sample.unwrap_or(Value::Null))
                );
                let said = RunMessage::RowsNotComparable { field: condition.field.clone(), value, count: count as u64 };
                ctx.log(LogLevel::Warn, Reason::said(said, text));
            }
        }
    }
}

/// The filter's outputs and its log line: `total` rows, `kept` of them in `filtered`.
fn filtered_outputs(
    ctx: &BlockContext,
    total: usize,
    kept: usize,
    excluded_count: usize,
    filtered: Value,
    excluded: Value,
) -> Values {
    let said = RunMessage::RowsKept { kept: kept as u64, total: total as u64 };
    ctx.log(LogLevel::Info, Reason::said(said, format!("kept {kept} of {total} rows")));
    let mut out = Values::new();
    out.insert("summary".into(), json!({ "total": total, "kept": kept, "excluded": excluded_count }));
    out.insert("filtered".into(), filtered);
    out.insert("excluded".into(), excluded);
    out
}
