//! `transforms.add_columns`: new columns computed from each row's cells.
//!
//! Arithmetic reads numbers as the other transforms do (`"1,200"` is 1200) and rounds a
//! difference or sum to the most decimals its operands were written with (so 0.3 − 0.1 is 0.2);
//! a cell that is blank or not a number gives null, counted in a warning. Comparisons compare as
//! people mean it ([`cells::compare`]). `month` gives `YYYY-MM` (or the `form` shown: `2026/09`, `2026年9月`) and `year` the year
//! of a date.
//! A number written in the column (`value: 0.1`) is the last operand of the arithmetic, and
//! `label` gives the `then` of the first case whose conditions (a filter's) all hold, or `else`.
//! A difference of two dates is the calendar days from the second to the first ("Paid Date
//! minus Invoice Date"), of two clock times (`9:00`, `17:30`) the minutes ("end - start"). `round` rounds a number to `decimals` places (0 when left out): half away
//! from zero as Excel's ROUND does, or with `rounding: down` toward zero (ROUNDDOWN, 切り捨て) and
//! `up` away from it (ROUNDUP, 切り上げ); `as` may name the column it reads, to round it in place.
//! `days` counts the calendar days from the first date to the second, or to the date written as
//! `value` ("the days from 起票日 to 2026-11-30"), one more with `inclusive` (both ends counted).
//! `rank` gives each row the rank of its number among the table's, as Excel's RANK.EQ does: 1 for
//! the largest (the smallest with `order: ascending`), and equal numbers share a rank (1, 2, 2, 4).
//! `fill` gives the cell of its column, or `value` where that cell is blank (Excel's
//! IF(ISBLANK(…))); `as` may name the column it reads, to fill it in place ("Unassigned" for a
//! blank owner). `formula` computes the arithmetic written in its `formula`, columns in brackets
//! (`[税込金額] * [税率] / (100 + [税率])`, [`planwright_formula`]).
//! Of a run's table, the same table with the new columns (stored as the values computed).

use std::cmp::Ordering;

use futures::future::BoxFuture;
use planwright_block::{Block, BlockContext, BlockError, Values};
use planwright_formula::Formula;
use planwright_runs::{LogLevel, Reason, RunMessage};
use serde_json::{json, Map, Value};

use super::filter::{parse_condition, Condition};
use super::Items;
use crate::cells::{self, input};
use crate::files::{check_cancel, CANCEL_EVERY};

pub(crate) struct AddColumns;

impl Block for AddColumns {
    fn id(&self) -> &'static str {
        "transforms.add_columns"
    }

    fn run<'a>(&'a self, inputs: Values, ctx: &'a BlockContext) -> BoxFuture<'a, Result<Values, BlockError>> {
        Box::pin(async move { add_columns(inputs, ctx) })
    }

    fn takes_tables(&self) -> bool {
        true
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Op {
    Difference,
    Sum,
    Product,
    Ratio,
    Percent,
    Equal,
    Greater,
    Less,
    Month,
    Year,
    Date,
    Join,
    Label,
    Round,
    Rank,
    Days,
    Fill,
    Formula,
}

const OPERATIONS: &str =
    "difference, sum, product, ratio, percent, equal, greater, less, month, year, date, join, label, round, rank, days, fill, formula";

impl Op {
    fn parse(given: &str) -> Option<Op> {
        Some(match given.trim().to_ascii_lowercase().as_str() {
            "difference" | "subtract" | "minus" => Op::Difference,
            "sum" | "add" | "plus" => Op::Sum,
            "product" | "multiply" | "times" => Op::Product,
            "ratio" | "divide" => Op::Ratio,
            "percent" | "percentage" => Op::Percent,
            "equal" | "equals" => Op::Equal,
            "greater" => Op::Greater,
            "less" => Op::Less,
            "month" => Op::Month,
            "year" => Op::Year,
            "date" => Op::Date,
            "join" | "concat" => Op::Join,
            "label" => Op::Label,
            "round" => Op::Round,
            "rank" => Op::Rank,
            "days" => Op::Days,
            "fill" | "fill_blank" | "coalesce" => Op::Fill,
            "formula" | "expression" => Op::Formula,
            _ => return None,
        })
    }

    /// How many operands it reads, columns and a written number: `(at least, at most)`.
    fn arity(self) -> (usize, usize) {
        match self {
            // Its columns are the formula's.
            Op::Label | Op::Formula => (0, usize::MAX),
            Op::Month | Op::Year | Op::Date | Op::Round | Op::Rank => (1, 1),
            // Its `value` is what a blank cell becomes, no operand.
            Op::Fill => (1, 1),
            Op::Difference | Op::Ratio | Op::Percent | Op::Equal | Op::Greater | Op::Less | Op::Days => (2, 2),
            Op::Sum | Op::Product | Op::Join => (1, usize::MAX),
        }
    }
}

/// A `label` column's case: its conditions and the value it gives.
type Case = (Vec<Condition>, Value);

/// The decimals a formula's value keeps: enough for any amount, none of binary's hair.
const FORMULA_DECIMALS: u8 = 10;

/// The most decimals `round` keeps.
const MAX_DECIMALS: u8 = 12;

/// Which way `round` goes: to the nearest (a half away from zero), toward zero or away from it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Rounding {
    Nearest,
    Down,
    Up,
}

impl Rounding {
    fn parse(n: usize, name: &str, given: Option<&Value>) -> Result<Rounding, BlockError> {
        match given.map(|v| v.as_str().map(|s| s.trim().to_ascii_lowercase())) {
            None => Ok(Rounding::Nearest),
            Some(Some(s)) if s == "nearest" => Ok(Rounding::Nearest),
            Some(Some(s)) if s == "down" => Ok(Rounding::Down),
            Some(Some(s)) if s == "up" => Ok(Rounding::Up),
            _ => Err(BlockError::input(format!(
                "`columns` item {n} ({name}): `rounding` is {}; use nearest, down (toward zero) or up (away from zero)",
                cells::describe(given.unwrap_or(&Value::Null))
            ))),
        }
    }

    /// `scaled` (the number times 10^decimals) made whole this way. A number written in
    /// decimals is stored a hair off it (3.335, 0.29 × 100 = 28.999…): nudged first, as Excel does.
    fn apply(self, scaled: f64) -> f64 {
        if scaled == 0.0 {
            return 0.0;
        }
        let nudge = 1e-9_f64.max(scaled.abs() * 4.0 * f64::EPSILON);
        match self {
            Rounding::Nearest => (scaled + scaled.signum() * nudge).round(),
            Rounding::Down => (scaled + scaled.signum() * nudge).trunc(),
            Rounding::Up => {
                let toward_zero = (scaled - scaled.signum() * nudge).trunc();
                if (scaled - toward_zero).abs() > nudge {
                    toward_zero + scaled.signum()
                } else {
                    toward_zero
                }
            }
        }
    }
}

struct NewColumn {
    name: String,
    op: Op,
    of: Vec<String>,
    /// A number written in the step, the arithmetic's last operand.
    value: Option<cells::Num>,
    /// For `round`, the decimals kept and which way.
    decimals: u8,
    rounding: Rounding,
    separator: String,
    /// For `rank`, whether the smallest number ranks first.
    ascending: bool,
    /// For `days` (and `difference` of a date): the date written as the second operand, and
    /// whether both ends count.
    until: Option<cells::Date>,
    /// For `fill`: what a blank cell becomes.
    filler: Value,
    inclusive: bool,
    /// For `label`: each case's conditions and the value it gives, the first that holds.
    cases: Vec<Case>,
    otherwise: Value,
    /// For `formula`: the arithmetic, whose columns are `of`.
    formula: Option<Formula>,
    /// For `month`: how the month is written.
    month_form: MonthForm,
}

/// How a `month` is written, as the `form` given shows it.
#[derive(Debug, Clone, Copy, PartialEq)]
enum MonthForm {
    /// `2026-09`, `2026/09`, `2026.09`.
    Separated(char),
    /// `2026年9月`, or `2026年09月` when `padded`.
    Japanese { padded: bool },
}

impl MonthForm {
    fn parse(n: usize, name: &str, op: Op, given: Option<&Value>) -> Result<MonthForm, BlockError> {
        let Some(given) = given else { return Ok(MonthForm::Separated('-')) };
        let wrong = || {
            BlockError::input(format!(
                "`columns` item {n} ({name}): `form` is {}; show how a month is written: 2026-09, 2026/09 or 2026年9月",
                cells::describe(given)
            ))
        };
        if op != Op::Month {
            return Err(BlockError::input(format!("`columns` item {n} ({name}): only month takes a `form`")));
        }
        let text = given.as_str().ok_or_else(wrong)?.trim();
        let digits = |s: &str, len: std::ops::RangeInclusive<usize>| {
            len.contains(&s.len()) && s.bytes().all(|b| b.is_ascii_digit())
        };
        if let Some((year, month)) = text.strip_suffix('月').and_then(|rest| rest.split_once('年')) {
            if digits(year, 4..=4) && digits(month, 1..=2) {
                return Ok(MonthForm::Japanese { padded: month.len() == 2 && month.starts_with('0') });
            }
        }
        let sep = text.chars().nth(4).filter(|c| matches!(c, '-' | '/' | '.')).ok_or_else(wrong)?;
        match text.split_once(sep) {
            Some((year, month)) if digits(year, 4..=4) && digits(month, 2..=2) => Ok(MonthForm::Separated(sep)),
            _ => Err(wrong()),
        }
    }

    fn write(self, year: i32, month: u8) -> String {
        match self {
            MonthForm::Separated(sep) => format!("{year:04}{sep}{month:02}"),
            MonthForm::Japanese { padded: true } => format!("{year}年{month:02}月"),
            MonthForm::Japanese { padded: false } => format!("{year}年{month}月"),
        }
    }
}

fn parse_column(index: usize, value: &Value) -> Result<NewColumn, BlockError> {
    let n = index + 1;
    let example = "{as: 差額, op: difference, of: [請求額, 入金額]}";
    let Value::Object(map) = value else {
        return Err(BlockError::input(format!(
            "`columns` item {n} is {}; each new column is an object like {example}",
            cells::describe(value)
        )));
    };
    let name = match map.get("as") {
        Some(Value::String(s)) if !s.trim().is_empty() => s.clone(),
        _ => {
            return Err(BlockError::input(format!(
                "`columns` item {n} has no `as`: name the new column, e.g. {example}"
            )))
        }
    };
    let op = match map.get("op") {
        Some(Value::String(s)) => Op::parse(s)
            .ok_or_else(|| BlockError::input(format!("`columns` item {n}: op {s:?} is not one of {OPERATIONS}")))?,
        _ => return Err(BlockError::input(format!("`columns` item {n} has no `op`; use one of {OPERATIONS}"))),
    };
    if op == Op::Label {
        let (cases, otherwise) = parse_cases(n, &name, map)?;
        let separator = String::new();
        let rounding = Rounding::Nearest;
        return Ok(NewColumn {
            name,
            op,
            of: Vec::new(),
            value: None,
            decimals: 0,
            rounding,
            separator,
            ascending: false,
            until: None,
            filler: Value::Null,
            inclusive: false,
            cases,
            otherwise,
            formula: None,
            month_form: MonthForm::Separated('-'),
        });
    }
    if op == Op::Formula {
        let formula = parse_formula(n, &name, map.get("formula"))?;
        let of = formula.columns().into_iter().map(str::to_owned).collect();
        return Ok(NewColumn {
            name,
            op,
            of,
            value: None,
            decimals: 0,
            rounding: Rounding::Nearest,
            separator: String::new(),
            ascending: false,
            until: None,
            filler: Value::Null,
            inclusive: false,
            cases: Vec::new(),
            otherwise: Value::Null,
            formula: Some(formula),
            month_form: MonthForm::Separated('-'),
        });
    }
    let until = match map.get("value") {
        Some(given) if op == Op::Days => Some(cells::date(given).ok_or_else(|| {
            BlockError::input(format!(
                "`columns` item {n} ({name}): `value` is {}; give the date to count to, e.g. 2026-11-30",
                cells::describe(given)
            ))
        })?),
        // A date less a day written in the step: the days from that day to the column's date.
        Some(given) if op == Op::Difference && cells::number(given).is_none() => cells::date(given),
        _ => None,
    };
    let filler = match map.get("value") {
        Some(given) if op == Op::Fill && !cells::is_blank(given) => given.clone(),
        _ if op == Op::Fill => {
            return Err(BlockError::input(format!(
                "`columns` item {n} ({name}): fill needs a `value`, what a blank cell becomes, e.g. Unassigned"
            )))
        }
        _ => Value::Null,
    };
    let value = match map.get("value") {
        None => None,
        Some(_) if matches!(op, Op::Days | Op::Fill) || until.is_some() => None,
        Some(given) if matches!(op, Op::Difference | Op::Sum | Op::Product | Op::Ratio | Op::Percent) => {
            Some(cells::number(given).ok_or_else(|| {
                BlockError::input(format!(
                    "`columns` item {n} ({name}): `value` is {}; give the number to compute with, e.g. 0.1{}",
                    cells::describe(given),
                    if op == Op::Difference {
                        ", or for a date column the date taken away, e.g. 2027-02-01"
                    } else {
                        ""
                    }
                ))
            })?)
        }
        Some(_) => {
            return Err(BlockError::input(format!(
                "`columns` item {n} ({name}): only difference, sum, product, ratio and percent compute with a `value`"
            )))
        }
    };
    let of: Vec<String> = match map.get("of") {
        Some(Value::String(s)) => vec![s.clone()],
        Some(Value::Array(names)) => names
            .iter()
            .map(|v| v.as_str().filter(|s| !s.trim().is_empty()).map(str::to_owned))
            .collect::<Option<_>>()
            .ok_or_else(|| BlockError::input(format!("`columns` item {n}: `of` must list column names")))?,
        _ => {
            return Err(BlockError::input(format!(
                "`columns` item {n} has no `of`: the columns it reads, e.g. {example}"
            )))
        }
    };
    let (least, most) = op.arity();
    let operands = of.len() + usize::from(value.is_some() || until.is_some());
    if operands < least || operands > most {
        let wanted = if least == most { format!("{least}") } else { format!("at least {least}") };
        return Err(BlockError::input(format!(
            "`columns` item {n} ({name}): {} reads {wanted} operand(s), and `of` and `value` give {operands}",
            map.get("op").and_then(Value::as_str).unwrap_or_default(),
        )));
    }
    let decimals = match map.get("decimals") {
        None => 0,
        Some(given) => given.as_u64().filter(|d| *d <= u64::from(MAX_DECIMALS)).map(|d| d as u8).ok_or_else(|| {
            BlockError::input(format!(
                "`columns` item {n} ({name}): `decimals` is {}; give a whole number from 0 to {MAX_DECIMALS}",
                cells::describe(given)
            ))
        })?,
    };
    let rounding = Rounding::parse(n, &name, map.get("rounding"))?;
    if rounding != Rounding::Nearest && op != Op::Round {
        return Err(BlockError::input(format!("`columns` item {n} ({name}): only round takes a `rounding`")));
    }
    // (A date's parts are joined by `-` unless told; texts by a space.)
    let separator =
        map.get("separator").and_then(Value::as_str).unwrap_or(if op == Op::Date { "-" } else { " " }).to_owned();
    let ascending = rank_order(n, &name, op, map.get("order"))?;
    let month_form = MonthForm::parse(n, &name, op, map.get("form"))?;
    let inclusive = match map.get("inclusive") {
        None | Some(Value::Bool(false)) => false,
        Some(Value::Bool(true)) if op == Op::Days => true,
        Some(_) => {
            return Err(BlockError::input(format!(
                "`columns` item {n} ({name}): `inclusive` is for days, true to count both ends"
            )))
        }
    };
    Ok(NewColumn {
        name,
        op,
        of,
        value,
        decimals,
        rounding,
        separator,
        ascending,
        until,
        filler,
        inclusive,
        cases: Vec::new(),
        otherwise: Value::Null,
        formula: None,
        month_form,
    })
}

/// A `formula` column's arithmetic.
fn parse_formula(n: usize, name: &str, given: Option<&Value>) -> Result<Formula, BlockError> {
    let example = "formula: \"[税込金額] * [税率] / (100 + [税率])\"";
    let Some(text) = given.and_then(Value::as_str) else {
        return Err(BlockError::input(format!(
            "`columns` item {n} ({name}): formula needs a `formula`, the arithmetic with columns in brackets, e.g. {example}"
        )));
    };
    Formula::parse(text)
        .map_err(|e| BlockError::input(format!("`columns` item {n} ({name}): `formula` {text:?}: {e}; e.g. {example}")))
}

impl NewColumn {
    /// The columns it reads: its operands and the columns its cases test.
    fn reads(&self) -> impl Iterator<Item = &String> {
        self.of.iter().chain(self.cases.iter().flat_map(|(when, _)| when).flat_map(Condition::columns))
    }
}

/// A `rank` column's `order`: whether the smallest number ranks first (descending when left out).
fn rank_order(n: usize, name: &str, op: Op, given: Option<&Value>) -> Result<bool, BlockError> {
    let Some(given) = given else { return Ok(false) };
    if op != Op::Rank {
        return Err(BlockError::input(format!("`columns` item {n} ({name}): only rank takes an `order`")));
    }
    match given.as_str().map(|s| s.trim().to_ascii_lowercase()).as_deref() {
        Some("descending" | "desc") => Ok(false),
        Some("ascending" | "asc") => Ok(true),
        _ => Err(BlockError::input(format!(
            "`columns` item {n} ({name}): `order` is {}; use descending (the largest ranks 1) or ascending",
            cells::describe(given)
        ))),
    }
}

/// Each number's rank among `numbers` (1 for the first in the order, equal numbers sharing one);
/// a cell that is not a number gets none.
fn ranks(numbers: &[Option<f64>], ascending: bool) -> Vec<Option<usize>> {
    let mut sorted: Vec<f64> = numbers.iter().flatten().copied().collect();
    sorted.sort_by(f64::total_cmp);
    numbers
        .iter()
        .map(|n| {
            n.map(|n| {
                let before = if ascending {
                    sorted.partition_point(|x| *x < n)
                } else {
                    sorted.len() - sorted.partition_point(|x| *x <= n)
                };
                before + 1
            })
        })
        .collect()
}

/// A `label` column's `cases` (each `{when: [conditions], then: value}`) and its `else`.
fn parse_cases(n: usize, name: &str, map: &Map<String, Value>) -> Result<(Vec<Case>, Value), BlockError> {
    let example = "cases: [{when: [{field: 金額, operator: gte, value: 100000}], then: 要承認}], else: 不要";
    let Some(Value::Array(cases)) = map.get("cases").filter(|c| c.as_array().is_some_and(|c| !c.is_empty())) else {
        return Err(BlockError::input(format!(
            "`columns` item {n} ({name}): label needs `cases`, each with its conditions and the value it gives, \
             e.g. {example}"
        )));
    };
    let mut parsed = Vec::with_capacity(cases.len());
    for (c, case) in cases.iter().enumerate() {
        let (Some(Value::Array(when)), Some(then)) = (case.get("when"), case.get("then")) else {
            return Err(BlockError::input(format!(
                "`columns` item {n} ({name}): case {} needs `when` (a list of conditions) and `then`, e.g. {example}",
                c + 1
            )));
        };
        let conditions = when.iter().enumerate().map(|(i, w)| parse_condition(i, w)).collect::<Result<_, _>>()?;
        parsed.push((conditions, then.clone()));
    }
    Ok((parsed, map.get("else").cloned().unwrap_or(Value::Null)))
}

/// The new cell, or `None` when an operand is blank or not what the operation reads.
fn compute(column: &NewColumn, row: &Map<String, Value>) -> Option<Value> {
    let cell = |name: &String| row.get(name).unwrap_or(&Value::Null);
    let numbers = || {
        let mut nums = column.of.iter().map(|c| cells::number(cell(c))).collect::<Option<Vec<_>>>()?;
        nums.extend(column.value);
        Some(nums)
    };
    let scale = |nums: &[cells::Num]| nums.iter().map(|n| n.scale).max().unwrap_or(0);
    match column.op {
        Op::Difference => {
            if let (Some(earlier), [later]) = (&column.until, column.of.as_slice()) {
                return cells::days_between(earlier, &cells::date(cell(later))?).map(Value::from);
            }
            if let [later, earlier] = column.of.as_slice() {
                if let (Some(later), Some(earlier)) = (cells::date(cell(later)), cells::date(cell(earlier))) {
                    return cells::days_between(&earlier, &later).map(Value::from);
                }
                // Two clock times of a day: the minutes from the one to the other.
                if let (Some(later), Some(earlier)) = (cells::clock_time(cell(later)), cells::clock_time(cell(earlier)))
                {
                    let minutes = (f64::from(later) - f64::from(earlier)) / 60_000.0;
                    return Some(cells::number_value(cells::round_to_scale(minutes, 3)));
                }
            }
            let nums = numbers()?;
            Some(cells::number_value(cells::round_to_scale(nums[0].value - nums[1].value, scale(&nums))))
        }
        Op::Sum => {
            let nums = numbers()?;
            Some(cells::number_value(cells::round_to_scale(nums.iter().map(|n| n.value).sum(), scale(&nums))))
        }
        Op::Product => {
            let nums = numbers()?;
            let decimals = nums.iter().map(|n| u32::from(n.scale)).sum::<u32>().min(12) as u8;
            Some(cells::number_value(cells::round_to_scale(nums.iter().map(|n| n.value).product(), decimals)))
        }
        Op::Ratio => {
            let nums = numbers()?;
            (nums[1].value != 0.0).then(|| cells::number_value(nums[0].value / nums[1].value))
        }
        Op::Percent => {
            let nums = numbers()?;
            (nums[1].value != 0.0).then(|| cells::number_value(nums[0].value / nums[1].value * 100.0))
        }
        Op::Equal => {
            let (a, b) = (cell(&column.of[0]), cell(&column.of[1]));
            Some(Value::Bool(cells::equals(a, b)))
        }
        Op::Greater | Op::Less => {
            let wanted = if column.op == Op::Greater { Ordering::Greater } else { Ordering::Less };
            cells::compare(cell(&column.of[0]), cell(&column.of[1])).map(|o| Value::Bool(o == wanted))
        }
        Op::Month => cells::date(cell(&column.of[0])).map(|d| Value::from(column.month_form.write(d.year, d.month))),
        // 「2026年12月1日」 written 2026-12-01 (or with the separator given, 2026/12/01); a cell that
        // is no date stays as it is.
        Op::Date => {
            let given = cell(&column.of[0]);
            let day = cells::date(given).map(|d| {
                let sep = &column.separator;
                Value::from(format!("{:04}{sep}{:02}{sep}{:02}", d.year, d.month, d.day))
            });
            Some(day.unwrap_or_else(|| given.clone()))
        }
        Op::Year => cells::date(cell(&column.of[0])).map(|d| Value::from(d.year)),
        Op::Join => {
            let parts: Vec<String> = column
                .of
                .iter()
                .map(|c| cells::display_text(cell(c)).trim().to_owned())
                .filter(|t| !t.is_empty())
                .collect();
            Some(Value::from(parts.join(&column.separator)))
        }
        Op::Round => {
            let n = cells::number(cell(&column.of[0]))?;
            let factor = 10f64.powi(i32::from(column.decimals));
            let scaled = n.value * factor;
            let rounded = if scaled.abs() < 1e15 { column.rounding.apply(scaled) / factor } else { n.value };
            Some(cells::number_value(rounded))
        }
        Op::Days => {
            let from = cells::date(cell(&column.of[0]))?;
            let to = match &column.until {
                Some(until) => *until,
                None => cells::date(cell(&column.of[1]))?,
            };
            cells::days_between(&from, &to).map(|days| Value::from(days + i64::from(column.inclusive)))
        }
        // Ranked once every row is read (`add_columns`).
        Op::Rank => Some(Value::Null),
        Op::Formula => {
            let formula = column.formula.as_ref()?;
            let value =
                formula.evaluate(&|name| cells::number(row.get(name).unwrap_or(&Value::Null)).map(|n| n.value))?;
            // (0.1 * 3 is 0.30000000000000004 in binary: the hair is not the person's.)
            Some(cells::number_value(cells::round_to_scale(value, FORMULA_DECIMALS)))
        }
        Op::Fill => {
            let given = cell(&column.of[0]);
            Some(if cells::is_blank(given) { column.filler.clone() } else { given.clone() })
        }
        Op::Label => Some(
            column
                .cases
                .iter()
                .find(|(when, _)| when.iter().all(|c| c.holds(row)))
                .map_or_else(|| column.otherwise.clone(), |(_, then)| then.clone()),
        ),
    }
}

fn add_columns(inputs: Values, ctx: &BlockContext) -> Result<Values, BlockError> {
    let items = Items::of(&inputs, "items", "the rows, e.g. ${read.rows}", ctx)?;
    let columns: Vec<NewColumn> =
        input::list(&inputs, "columns", "the new columns, e.g. [{as: 差額, op: difference, of: [請求額, 入金額]}]")?
            .iter()
            .enumerate()
            .map(|(i, c)| parse_column(i, c))
            .collect::<Result<_, _>>()?;
    if let Some((rank, reader)) = columns.iter().find_map(|r| {
        Some(r).filter(|r| r.op == Op::Rank).zip(columns.iter().find(|c| c.reads().any(|n| n == &r.name)))
    }) {
        return Err(BlockError::input(format!(
            "`columns` ({}): reads the rank {}, which is known only once every row is read; compute it in a later step",
            reader.name, rank.name
        )));
    }
    let mut read = Vec::new();
    for column in &columns {
        for name in column.reads() {
            // A column added by an earlier item of this step may be read by a later one.
            if !columns.iter().take_while(|c| !std::ptr::eq(*c, column)).any(|c| &c.name == name) {
                items.require_column(name, &format!("`columns` ({})", column.name))?;
                read.push(name.clone());
            }
        }
    }
    let mut unreadable = vec![0usize; columns.len()];
    let mut added: Vec<Vec<Value>> = columns.iter().map(|_| Vec::with_capacity(items.len())).collect();
    // Per rank column, the number each row has to rank.
    let mut ranked: Vec<Vec<Option<f64>>> = columns.iter().map(|_| Vec::new()).collect();
    let mut reader = items.reader(&read);
    for index in 0..items.len() {
        if index.is_multiple_of(CANCEL_EVERY) {
            check_cancel(&ctx.cancel)?;
        }
        // The cells the new columns read, and the new columns as they are added.
        let given = reader.row(index);
        let mut row: Map<String, Value> =
            read.iter().filter_map(|c| Some((c.clone(), given.get(c)?.clone()))).collect();
        for (((column, count), cells), numbers) in
            columns.iter().zip(unreadable.iter_mut()).zip(added.iter_mut()).zip(ranked.iter_mut())
        {
            if column.op == Op::Rank {
                let number = cells::number(row.get(&column.of[0]).unwrap_or(&Value::Null)).map(|n| n.value);
                *count += usize::from(number.is_none());
                numbers.push(number);
            }
            let value = compute(column, &row).unwrap_or_else(|| {
                *count += 1;
                Value::Null
            });
            row.insert(column.name.clone(), value.clone());
            cells.push(value);
        }
    }
    for ((column, numbers), cells) in columns.iter().zip(&ranked).zip(added.iter_mut()) {
        if column.op == Op::Rank {
            *cells = ranks(numbers, column.ascending).into_iter().map(|r| r.map_or(Value::Null, Value::from)).collect();
        }
    }
    for (column, count) in columns.iter().zip(unreadable) {
        if count > 0 && !matches!(column.op, Op::Join | Op::Label | Op::Fill) {
            let field = column.of.join(", ");
            let text =
                format!("{}: {count} rows had a blank or unreadable value in {field} and got no value", column.name);
            let said = RunMessage::ValuesNotNumbers { op: column.name.clone(), field, count: count as u64 };
            ctx.log(LogLevel::Warn, Reason::said(said, text));
        }
    }
    let rows = match &items {
        Items::Table { table, .. } => {
            ctx.tables.put(table.with_columns(columns.iter().map(|c| c.name.clone()).zip(added).collect()))
        }
        Items::Rows(rows) => Value::Array(
            rows.iter()
                .enumerate()
                .map(|(index, row)| {
                    let mut row = (*row).clone();
                    for (column, cells) in columns.iter().zip(&added) {
                        row.insert(column.name.clone(), cells[index].clone());
                    }
                    Value::Object(row)
                })
                .collect(),
        ),
    };
    let mut out = Values::new();
    out.insert("summary".into(), json!({ "rows": items.len() }));
    out.insert("rows".into(), rows);
    Ok(out)
}
