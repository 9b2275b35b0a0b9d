//! `transforms.group_by_agg`: totals, counts, averages, minimums and maximums per group.
//!
//! Groups are keyed like joins ([`cells::key_text`]: trimmed, widths folded), in order of first
//! appearance, and show the first value seen for each `by` column. `sum` and `avg` read
//! numeric-looking text as numbers (`"1,200"` adds 1200); blank cells are left out; other text is
//! left out with a warning in the run log. `sum` adds exactly, in units of the most decimals its
//! numbers were written with (so 0.1 + 0.2 is 0.3, and a million amounts in cents total to the
//! cent), and is 0 for a group without numbers; `avg` is null then. A number too long to count
//! exactly (more than 15 digits with its decimals) is added as a double, rounded to those
//! decimals.
//! `count` counts rows, or with a `field` the rows where that field is not blank. `min`/`max`
//! compare numbers when the group has any, else dates, else text; they give numbers as numbers
//! and other values as they are. An aggregation with `when` (a filter's conditions) reads only
//! the rows of its group that meet them, as COUNTIFS and SUMIFS do: a count of none is 0. The
//! result is a run's table of the `by` columns and the aggregates, which has its columns even
//! when no row was grouped.

use std::cmp::Ordering;
use std::collections::HashMap;

use futures::future::BoxFuture;
use planwright_block::{Block, BlockContext, BlockError, Values};
use planwright_runs::{LogLevel, Reason, RunMessage};
use planwright_tables::Table;
use serde_json::{json, Map, Value};

use super::filter::{parse_condition, Condition};
use super::{column_names, Items, TextMemo};
use crate::cells::{self, input};
use crate::files::{check_cancel, CANCEL_EVERY};

pub(crate) struct GroupByAgg;

impl Block for GroupByAgg {
    fn id(&self) -> &'static str {
        "transforms.group_by_agg"
    }

    fn run<'a>(&'a self, inputs: Values, ctx: &'a BlockContext) -> BoxFuture<'a, Result<Values, BlockError>> {
        Box::pin(async move { group_by_agg(inputs, ctx) })
    }

    fn takes_tables(&self) -> bool {
        true
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Op {
    Sum,
    Count,
    Avg,
    Min,
    Max,
}

impl Op {
    fn name(self) -> &'static str {
        match self {
            Op::Sum => "sum",
            Op::Count => "count",
            Op::Avg => "avg",
            Op::Min => "min",
            Op::Max => "max",
        }
    }
}

struct Aggregation {
    field: Option<String>,
    op: Op,
    name: String,
    /// The conditions a row meets to be read (`when`); none: every row.
    when: Vec<Condition>,
}

impl Aggregation {
    /// How aggregation `i` (from 0) is named in messages: `aggregation 2 (sum of `金額`)`.
    fn label(&self, i: usize) -> String {
        format!("aggregation {} ({} of `{}`)", i + 1, self.op.name(), self.field.as_deref().unwrap_or_default())
    }

    fn missing(&self, i: usize, column: &str, columns: String) -> RunMessage {
        RunMessage::AggregationColumnMissing { aggregation: i as u64 + 1, column: column.to_owned(), columns }
    }
}

/// The error for a row set without `column`, which `input` names.
fn parse_aggregation(index: usize, value: &Value) -> Result<Aggregation, BlockError> {
    let n = index + 1;
    let Value::Object(map) = value else {
        return Err(BlockError::input(format!(
            "`aggregations` item {n} is {}; each aggregation is an object like {{field: 金額, op: sum, as: 合計金額}}",
            cells::describe(value)
        )));
    };
    let op = match map.get("op").and_then(Value::as_str).map(|s| s.trim().to_ascii_lowercase()) {
        Some(op) => match op.as_str() {
            "sum" => Op::Sum,
            "count" => Op::Count,
            "avg" | "average" | "mean" => Op::Avg,
            "min" => Op::Min,
            "max" => Op::Max,
            _ => {
                return Err(BlockError::input(format!(
                    "aggregation {n}: op {op:?} is not one of sum, count, avg, min, max"
                )));
            }
        },
        None => {
            return Err(BlockError::input(format!(
                "aggregation {n} has no `op`; use one of sum, count, avg, min, max"
            )));
        }
    };
    let field = match map.get("field") {
        None | Some(Value::Null) => None,
        Some(Value::String(s)) if s.is_empty() => None,
        Some(Value::String(s)) => Some(s.clone()),
        Some(other) => {
            return Err(BlockError::input(format!(
                "aggregation {n}: `field` must be a column name, not {}",
                cells::describe(other)
            )));
        }
    };
    if field.is_none() && op != Op::Count {
        return Err(BlockError::input(format!(
            "aggregation {n} ({}) has no `field`; name the column to {}, e.g. field: 金額",
            op.name(),
            op.name()
        )));
    }
    let name = match map.get("as") {
        Some(Value::String(s)) if !s.trim().is_empty() => s.clone(),
        None | Some(Value::Null) | Some(Value::String(_)) => match &field {
            Some(field) => format!("{field}_{}", op.name()),
            None => "count".to_string(),
        },
        Some(other) => {
            return Err(BlockError::input(format!(
                "aggregation {n}: `as` must be the result column's name, not {}",
                cells::describe(other)
            )));
        }
    };
    let when = match map.get("when") {
        None | Some(Value::Null) => Vec::new(),
        Some(Value::Array(when)) => when
            .iter()
            .enumerate()
            .map(|(i, c)| parse_condition(i, c))
            .collect::<Result<_, _>>()
            .map_err(|e| BlockError::input(format!("aggregation {n} ({name}), in `when`: {e}")))?,
        Some(other) => {
            return Err(BlockError::input(format!(
                "aggregation {n} ({name}): `when` must list conditions like [{{field: 結果, operator: eq, value: 合格}}], not {}",
                cells::describe(other)
            )));
        }
    };
    Ok(Aggregation { field, op, name, when })
}

/// One aggregation's running state in one group.
#[derive(Default)]
struct Acc {
    rows: usize,
    present: usize,
    numbers: usize,
    sum: f64,
    scale: u8,
    /// The sum in units of 10^-scale, while every number added fits one exactly.
    units: i128,
    inexact: bool,
    min_num: Option<f64>,
    max_num: Option<f64>,
    min_date: Option<Value>,
    max_date: Option<Value>,
    min_text: Option<(String, Value)>,
    max_text: Option<(String, Value)>,
}

impl Acc {
    /// Adds a cell; returns false when the cell is text that is not a number (for sum and avg).
    fn add(&mut self, op: Op, cell: Option<&Value>) -> bool {
        self.rows += 1;
        let Some(cell) = cell.filter(|c| !cells::is_blank(c)) else { return true };
        self.present += 1;
        if op == Op::Count {
            return true;
        }
        if let Some(num) = cells::number(cell) {
            self.numbers += 1;
            self.sum += num.value;
            self.add_units(num);
            self.scale = self.scale.max(num.scale);
            self.min_num = Some(self.min_num.map_or(num.value, |m| m.min(num.value)));
            self.max_num = Some(self.max_num.map_or(num.value, |m| m.max(num.value)));
            return true;
        }
        if matches!(op, Op::Sum | Op::Avg) {
            return false;
        }
        if cells::date(cell).is_some() {
            if self.min_date.as_ref().is_none_or(|d| cells::compare(cell, d) == Some(Ordering::Less)) {
                self.min_date = Some(cell.clone());
            }
            if self.max_date.as_ref().is_none_or(|d| cells::compare(cell, d) == Some(Ordering::Greater)) {
                self.max_date = Some(cell.clone());
            }
            return true;
        }
        let text = cells::fold_text(&cells::display_text(cell));
        if self.min_text.as_ref().is_none_or(|(t, _)| text < *t) {
            self.min_text = Some((text.clone(), cell.clone()));
        }
        if self.max_text.as_ref().is_none_or(|(t, _)| text > *t) {
            self.max_text = Some((text, cell.clone()));
        }
        true
    }

    /// Adds `num` to the exact sum, in units of the larger of the two scales. A double is the
    /// nearest to the decimal it was read from, so below 2^51 its units round back to that
    /// decimal's digits exactly.
    fn add_units(&mut self, num: cells::Num) {
        let scale = self.scale.max(num.scale);
        let units = num.value * 10f64.powi(i32::from(scale));
        if self.inexact || units.abs() >= 2f64.powi(51) {
            self.inexact = true;
            return;
        }
        self.units = self.units * 10i128.pow(u32::from(scale - self.scale)) + units.round() as i128;
    }

    fn result(self, op: Op, has_field: bool) -> Value {
        match op {
            Op::Count => Value::from(if has_field { self.present } else { self.rows }),
            Op::Sum if !self.inexact => cells::exact_number(self.units, self.scale),
            Op::Sum => cells::number_value(cells::round_to_scale(self.sum, self.scale)),
            Op::Avg if self.numbers == 0 => Value::Null,
            Op::Avg => cells::number_value(self.sum / self.numbers as f64),
            Op::Min => match (self.min_num, self.min_date, self.min_text) {
                (Some(n), _, _) => cells::number_value(n),
                (None, Some(v), _) | (None, None, Some((_, v))) => v,
                _ => Value::Null,
            },
            Op::Max => match (self.max_num, self.max_date, self.max_text) {
                (Some(n), _, _) => cells::number_value(n),
                (None, Some(v), _) | (None, None, Some((_, v))) => v,
                _ => Value::Null,
            },
        }
    }
}

struct Group {
    by: Vec<Value>,
    accs: Vec<Acc>,
}

/// The groups so far, in order of first appearance, and per aggregation the cells it left out.
struct Grouping<'a> {
    by: &'a [String],
    aggregations: &'a [Aggregation],
    /// Per `by` column: each group key seen ([`cells::key_text`]), by a number of its own.
    key_ids: Vec<HashMap<Option<String>, u32, Fast>>,
    /// Per `by` column: the key number of each text cell seen.
    text_ids: Vec<TextMemo<u32>>,
    /// A group by the key numbers of its `by` cells.
    index: HashMap<Vec<u32>, usize, Fast>,
    /// The key numbers of the row being added.
    key: Vec<u32>,
    groups: Vec<Group>,
    /// Per aggregation: how many cells were not numbers, and the first of them.
    skipped: Vec<(usize, Option<Value>)>,
}

type Fast = foldhash::fast::RandomState;

impl<'a> Grouping<'a> {
    fn new(by: &'a [String], aggregations: &'a [Aggregation]) -> Grouping<'a> {
        let mut grouping = Grouping {
            by,
            aggregations,
            key_ids: by.iter().map(|_| HashMap::default()).collect(),
            text_ids: by.iter().map(|_| TextMemo::new()).collect(),
            index: HashMap::default(),
            key: Vec::with_capacity(by.len()),
            groups: Vec::new(),
            skipped: aggregations.iter().map(|_| (0, None)).collect(),
        };
        if by.is_empty() {
            grouping.groups.push(Group { by: Vec::new(), accs: aggregations.iter().map(|_| Acc::default()).collect() });
            grouping.index.insert(Vec::new(), 0);
        }
        grouping
    }

    /// The number of the group key of `cell`, in `by` column `column`.
    fn key_id(&mut self, column: usize, cell: Option<&Value>) -> u32 {
        let ids = &mut self.key_ids[column];
        let mut id_of_key = || {
            let next = ids.len() as u32;
            *ids.entry(cell.and_then(cells::key_text)).or_insert(next)
        };
        match cell {
            Some(Value::String(text)) => self.text_ids[column].get_or(text, id_of_key),
            _ => id_of_key(),
        }
    }

    fn add(&mut self, row: &Map<String, Value>) {
        let mut key = std::mem::take(&mut self.key);
        key.clear();
        for (column, name) in self.by.iter().enumerate() {
            key.push(self.key_id(column, row.get(name)));
        }
        let slot = match self.index.get(key.as_slice()) {
            Some(&slot) => slot,
            None => {
                let values = self.by.iter().map(|c| row.get(c).cloned().unwrap_or(Value::Null)).collect();
                let accs = self.aggregations.iter().map(|_| Acc::default()).collect();
                self.groups.push(Group { by: values, accs });
                self.index.insert(key.clone(), self.groups.len() - 1);
                self.groups.len() - 1
            }
        };
        self.key = key;
        let group = &mut self.groups[slot];
        for ((agg, acc), skip) in self.aggregations.iter().zip(group.accs.iter_mut()).zip(self.skipped.iter_mut()) {
            if !agg.when.iter().all(|c| c.holds(row)) {
                continue;
            }
            let cell = agg.field.as_ref().and_then(|f| row.get(f));
            if !acc.add(agg.op, cell) {
                skip.0 += 1;
                if skip.1.is_none() {
                    skip.1 = cell.cloned();
                }
            }
        }
    }
}

fn group_by_agg(inputs: Values, ctx: &BlockContext) -> Result<Values, BlockError> {
    let items = Items::of(&inputs, "items", "the rows to group, e.g. ${read.rows}", ctx)?;
    let by = column_names(&inputs, "by", "[取引先], or [] for one total")?;
    let aggregations: Vec<Aggregation> = input::list(
        &inputs,
        "aggregations",
        "what to compute, e.g. [{field: 金額, op: sum, as: 合計金額}, {op: count, as: 件数}]",
    )?
    .iter()
    .enumerate()
    .map(|(i, a)| parse_aggregation(i, a))
    .collect::<Result<_, _>>()?;
    for (i, agg) in aggregations.iter().enumerate() {
        if by.contains(&agg.name) {
            return Err(BlockError::input(format!(
                "aggregation {}: the result column `{}` is also a `by` column; give it another name with `as`",
                i + 1,
                agg.name
            )));
        }
        if aggregations[..i].iter().any(|a| a.name == agg.name) {
            return Err(BlockError::input(format!(
                "two aggregations are named `{}`; give one another name with `as`",
                agg.name
            )));
        }
    }
    for column in &by {
        items.require_column(column, "`by`")?;
    }
    for (i, agg) in aggregations.iter().enumerate() {
        if let Some(field) = &agg.field {
            items.require_column_said(field, &agg.label(i), |columns| agg.missing(i, field, columns))?;
        }
    }
    for (i, agg) in aggregations.iter().enumerate() {
        for name in agg.when.iter().flat_map(Condition::columns) {
            items.require_column(name, &format!("`when` of {}", agg.label(i)))?;
        }
    }
    let fields = aggregations.iter().filter_map(|agg| agg.field.as_ref());
    let tested = aggregations.iter().flat_map(|agg| agg.when.iter().flat_map(Condition::columns));
    let mut rows = items.reader(by.iter().chain(fields).chain(tested));
    let mut grouping = Grouping::new(&by, &aggregations);
    for index in 0..items.len() {
        if index.is_multiple_of(CANCEL_EVERY) {
            check_cancel(&ctx.cancel)?;
        }
        grouping.add(rows.row(index));
    }
    let row_count = items.len();
    let Grouping { groups, skipped, .. } = grouping;
    for (agg, (count, sample)) in aggregations.iter().zip(skipped) {
        if count > 0 {
            let field = agg.field.clone().unwrap_or_default();
            let text = format!(
                "{} of `{field}`: {count} values are not numbers (such as {}) and were left out",
                agg.op.name(),
                cells::describe(&sample.unwrap_or(Value::Null))
            );
            let said = RunMessage::ValuesNotNumbers { op: agg.op.name().to_owned(), field, count: count as u64 };
            ctx.log(LogLevel::Warn, Reason::said(said, text));
        }
    }
    // The result is a table of its columns, whether or not any group was found.
    let count = groups.len();
    let mut columns: Vec<(String, Vec<Value>)> = by
        .iter()
        .chain(aggregations.iter().map(|agg| &agg.name))
        .map(|name| (name.clone(), Vec::with_capacity(count)))
        .collect();
    for group in groups {
        let results = aggregations.iter().zip(group.accs).map(|(agg, acc)| acc.result(agg.op, agg.field.is_some()));
        for ((_, cells), value) in columns.iter_mut().zip(group.by.into_iter().chain(results)) {
            cells.push(value);
        }
    }
    let said = RunMessage::RowsGrouped { rows: row_count as u64, groups: count as u64 };
    ctx.log(LogLevel::Info, Reason::said(said, format!("{row_count} rows in {count} groups")));
    let mut out = Values::new();
    out.insert("summary".into(), json!({ "input_rows": row_count, "groups": count }));
    out.insert("rows".into(), ctx.tables.put(Table::of_cells(columns, count)));
    Ok(out)
}
