//! Passes over the steps read, in the text's order: an operation said twice done once, a
//! grouping said in two clauses made one, conditions moved to the rows or the totals they test,
//! and words that describe what another step does (one row per group, twice as duplicates)
//! taken as that step's.

use std::sync::LazyLock;

use regex::Regex;
use serde_json::Value;

use super::{conditions, is_date, same_noun, words, Aggregation, Condition, Language, Step};

/// "the 3 food trucks that used the kitchen the most … Biggest hours first": the top of an order
/// said with no key, and the order said later with its key, are one sort, where the later is.
fn top_of_the_order_said_later(steps: &mut Vec<(usize, Step)>) {
    let Some(top) = steps.iter().position(|(_, s)| matches!(s, Step::Sort { by: None, limit: Some(_), .. })) else {
        return;
    };
    let Step::Sort { descending, limit, .. } = steps[top].1.clone() else { return };
    let later = steps
        .iter()
        .skip(top + 1)
        .position(|(_, s)| matches!(s, Step::Sort { by: Some(_), limit: None, descending: d, .. } if *d == descending));
    if let Some(later) = later.map(|n| top + 1 + n) {
        if let Step::Sort { limit: l, .. } = &mut steps[later].1 {
            *l = limit;
        }
        steps.remove(top);
    }
}

/// An operation said twice is done once: an order said again after a top N ("top 3 …, highest
/// first"); a check for duplicates said again ("… list every claim in each duplicate group"), or
/// said beside removing them (removing is what is asked), with the one row it keeps of each
/// ("keep one", 「1行だけ残して」); "one line per person" after totals per
/// person (what the totals are, not a dedupe).
pub(super) fn one_order_and_one_duplicate_check(mut steps: Vec<(usize, Step)>) -> Vec<(usize, Step)> {
    top_groups_by_their_total(&mut steps);
    top_of_the_order_said_later(&mut steps);
    if let Some(first) = steps.iter().position(|(_, s)| matches!(s, Step::Sort { limit: Some(_), .. })) {
        let mut index = 0;
        steps.retain(|(_, s)| {
            index += 1;
            index - 1 <= first || !matches!(s, Step::Sort { limit: None, by: None, .. })
        });
        // "which 3 regions sold the most …, biggest first": the order of the top rows said again
        // right after them is the same sort, not a second.
        if let (Some((_, Step::Sort { by: Some(key), descending, .. })), Some((_, next))) =
            (steps.get(first), steps.get(first + 1))
        {
            let again = matches!(next, Step::Sort { by: Some(by), descending: d, limit: None, then }
                if by == key && d == descending && then.is_empty());
            if again {
                steps.remove(first + 1);
            }
        }
    }
    // 「1行だけ残して重複を削除」: the one row kept of each is the removal's, not a top 1.
    if steps.iter().any(|(_, s)| matches!(s, Step::Duplicates { remove: true, .. })) {
        steps.retain(|(_, s)| {
            !matches!(s, Step::Duplicates { remove: false, .. } | Step::Sort { by: None, limit: Some(1), .. })
        });
    }
    let grouped = grouped_by(&steps);
    let per_group = |by: &[String]| !by.is_empty() && by.iter().all(|b| grouped.iter().any(|g| same_noun(g, b)));
    steps.retain(|(_, s)| !matches!(s, Step::Duplicates { remove: true, by, .. } if per_group(by)));
    // ("remove duplicate item names … save the unique item names": one removal, said twice;
    // "keep only the first application for each employee_id … and drop the repeats": a removal
    // said again without its key.)
    let keyed = steps.iter().any(|(_, s)| matches!(s, Step::Duplicates { remove: true, by, .. } if !by.is_empty()));
    let mut removals: Vec<Step> = Vec::new();
    steps.retain(|(_, s)| match s {
        Step::Duplicates { remove: true, .. } if removals.contains(s) => false,
        Step::Duplicates { remove: true, by, .. } if by.is_empty() && keyed => false,
        Step::Duplicates { remove: true, .. } => {
            removals.push(s.clone());
            true
        }
        _ => true,
    });
    let mut checks = 0;
    steps.retain(|(_, s)| {
        checks += usize::from(matches!(s, Step::Duplicates { remove: false, .. }));
        !matches!(s, Step::Duplicates { remove: false, .. }) || checks == 1
    });
    // 「来訪時刻は並べ替えに使うだけで…並びは来訪日・来訪時刻の早い順」: an order said of no key
    // beside one said of its keys is that one.
    if steps.iter().any(|(_, s)| matches!(s, Step::Sort { by: Some(_), .. })) {
        steps.retain(|(_, s)| !matches!(s, Step::Sort { by: None, limit: None, then, .. } if then.is_empty()));
    }
    one_filter_said_twice(steps)
}

/// "count the signups per session … if someone signed up for the same session both ways (same
/// email) count them once": copies of rows said after the totals that count them, keyed by a
/// column the totals do not have, go before they are counted.
pub(super) fn duplicates_removed_before_totals(mut steps: Vec<(usize, Step)>) -> Vec<(usize, Step)> {
    let Some(grouping) = steps.iter().position(|(_, s)| matches!(s, Step::Aggregate { .. })) else { return steps };
    let grouped = grouped_by(&steps);
    let of_rows = |s: &Step| {
        matches!(s, Step::Duplicates { by, remove: true, .. }
            if !by.is_empty() && by.iter().any(|b| !grouped.iter().any(|g| same_noun(g, b))))
    };
    if let Some(late) = steps[grouping + 1..].iter().position(|(_, s)| of_rows(s)).map(|i| grouping + 1 + i) {
        let (_, step) = steps.remove(late);
        let at = steps[grouping].0;
        steps.insert(grouping, (at, step));
    }
    steps
}

/// 「同じ環境・同じ利用日に2件以上…抜き出して。「キャンセル」の予約は数えないでね」, "… booked twice;
/// don't count cancelled ones": rows said not to count, said after the check for copies, are
/// left out before it (a cancelled booking makes no pair).
pub(super) fn rows_not_counted_before_the_check(mut steps: Vec<(usize, Step)>, text: &str) -> Vec<(usize, Step)> {
    static NOT_COUNTED: LazyLock<Regex> = LazyLock::new(|| {
        Regex::new(r"(?i)数えない|数えず|カウントしない|カウントせず|\b(?:don'?t|do not|doesn'?t|does not|shouldn'?t|should not) count\b|\bnot counted\b|\bnot count\b")
            .expect("not counted")
    });
    if !NOT_COUNTED.is_match(text) {
        return steps;
    }
    let Some(check) = steps.iter().position(|(_, s)| matches!(s, Step::Duplicates { remove: false, .. })) else {
        return steps;
    };
    let left_out = |s: &Step| matches!(s, Step::Filter { conditions, .. } if conditions.iter().all(|c| c.field.is_some() || c.value.is_string()));
    if let Some(late) = steps[check + 1..].iter().position(|(_, s)| left_out(s)).map(|i| check + 1 + i) {
        let moved = steps.remove(late);
        steps.insert(check, moved);
    }
    steps
}

/// "how many stories are Done … Only Done stories count": the rows kept, said again before any
/// step that changes what a row is, are kept once.
fn one_filter_said_twice(steps: Vec<(usize, Step)>) -> Vec<(usize, Step)> {
    let mut kept: Vec<(usize, Step)> = Vec::with_capacity(steps.len());
    for (at, step) in steps {
        let said_before = matches!(step, Step::Filter { .. })
            && kept
                .iter()
                .rev()
                .take_while(|(_, s)| !matches!(s, Step::Aggregate { .. } | Step::Join { .. }))
                .any(|(_, s)| *s == step);
        if !said_before {
            kept.push((at, step));
        }
    }
    kept
}

/// "Add up amount per vendor and give me the top 5 vendors, highest total first": the rows of a
/// top N are the groups, so it is ordered by their total (the order said next, or the only one),
/// never by the key that names them.
fn top_groups_by_their_total(steps: &mut Vec<(usize, Step)>) {
    let Some(grouping) = steps.iter().position(|(_, s)| matches!(s, Step::Aggregate { .. })) else { return };
    let grouped = grouped_by(steps);
    let top = steps.iter().skip(grouping).position(
        |(_, s)| matches!(s, Step::Sort { by: Some(b), limit: Some(_), .. } if grouped.iter().any(|g| same_noun(g, b))),
    );
    let Some(top) = top.map(|t| t + grouping) else { return };
    let next = (top + 1..steps.len()).find(|&i| matches!(&steps[i].1, Step::Sort { by: Some(_), limit: None, .. }));
    let later = next.map(|i| steps.remove(i).1);
    if let Step::Sort { by, descending, then, .. } = &mut steps[top].1 {
        match later {
            Some(Step::Sort { by: b, descending: d, then: t, .. }) => (*by, *descending, *then) = (b, d, t),
            _ => (*by, *descending) = (None, true),
        }
    }
}

/// "count the failed tests per suite, most first": an order said of no column, after a grouping
/// of one total, is by that total; so is one said of a time taken, and one said of dates after a
/// grouping by month is by the month.
pub(super) fn unkeyed_order_by_the_only_total(mut steps: Vec<(usize, Step)>, language: Language) -> Vec<(usize, Step)> {
    let mut total = None;
    // The month a grouping is by.
    let mut month = None;
    for (_, step) in &mut steps {
        if let Step::Aggregate { by, .. } = step {
            month = by.iter().find(|k| k.to_lowercase().contains("month") || k.ends_with('月')).cloned();
        }
        match step {
            Step::Aggregate { aggregations, .. } => {
                total = match aggregations.as_slice() {
                    [only] => Some(only.result_name(language)),
                    _ => None,
                }
            }
            Step::Sort { by: by @ None, .. } => {
                if let Some(name) = &total {
                    *by = Some(name.clone());
                }
            }
            // ("the average build time per pipeline …, slowest pipeline first": what is slow is
            // the only total, of a time; no duration is left after the grouping.)
            Step::Sort { by: Some(by), .. } if by == "duration" && total.as_deref().is_some_and(of_time) => {
                *by = total.clone().unwrap_or_default();
            }
            // ("spend per month …, months in date order": the dates are the months now.)
            Step::Sort { by: Some(by), .. } if month.is_some() && matches!(by.as_str(), "date" | "日付") => {
                *by = month.clone().unwrap_or_default();
            }
            _ => {}
        }
    }
    steps
}

/// "Markup = list price / bottle cost. List only the ones where that comes out over 3": a
/// condition said of "that" (what it comes out as) is of the column computed just before it.
pub(super) fn conditions_on_what_was_computed(steps: &mut [Step]) {
    const THAT: [&str; 6] = ["comes out", "that comes out", "it comes out", "that", "it", "this"];
    let mut computed: Option<String> = None;
    for step in steps.iter_mut() {
        if let Some(name) = step.added_column().filter(|n| !n.is_empty()) {
            computed = Some(name.to_owned());
        }
        let (Step::Filter { conditions, .. }, Some(name)) = (step, computed.as_ref()) else { continue };
        for condition in conditions.iter_mut() {
            if condition.field.as_deref().is_some_and(|f| THAT.contains(&f.to_ascii_lowercase().as_str())) {
                condition.field = Some(name.clone());
            }
        }
    }
}

/// "Q1 2026 (January 1 through March 31, both days included)": days said again without their
/// year are the days said with it, no second condition.
pub(super) fn days_said_again_without_their_year(mut steps: Vec<(usize, Step)>) -> Vec<(usize, Step)> {
    let month_and_day = |v: &Value| v.as_str().and_then(|t| t.get(t.len().checked_sub(6)?..)).map(str::to_owned);
    let with_a_year: Vec<(&'static str, Option<String>, Option<String>)> = steps
        .iter()
        .filter_map(|(_, s)| match s {
            Step::Filter { conditions, .. } => Some(conditions),
            _ => None,
        })
        .flatten()
        .filter(|c| is_date(&c.value) && !c.value.as_str().is_some_and(|v| v.starts_with(super::YEAR_VAR)))
        .map(|c| (c.operator, month_and_day(&c.value), c.value2.as_ref().and_then(month_and_day)))
        .collect();
    steps.retain_mut(|(_, step)| {
        let Step::Filter { conditions, .. } = step else { return true };
        let before = conditions.len();
        conditions.retain(|c| {
            let yearless = c.value.as_str().is_some_and(|v| v.starts_with(super::YEAR_VAR));
            let said = (c.operator, month_and_day(&c.value), c.value2.as_ref().and_then(month_and_day));
            !(yearless && with_a_year.contains(&said))
        });
        // (A filter of those days alone goes with them.)
        !conditions.is_empty() || before == 0
    });
    steps
}

/// "How much did we pay each vendor in February?": a period said after the totals keeps the rows
/// they are of (after a grouping there are no dates left to keep), unless the grouping is by a
/// month or a date.
pub(super) fn dates_kept_before_their_totals(mut steps: Vec<(usize, Step)>) -> Vec<(usize, Step)> {
    let of_a_period =
        |c: &Condition| c.operator == conditions::MONTH_OF_UNSAID_YEAR || c.operator == "between" && is_date(&c.value);
    for i in 1..steps.len() {
        let (Step::Aggregate { by, .. }, Step::Filter { conditions, exclude: false }) = (&steps[i - 1].1, &steps[i].1)
        else {
            continue;
        };
        let by_a_period = by.iter().any(|k| {
            let k = k.to_lowercase();
            ["month", "date", "day", "year", "week", "月", "日"].iter().any(|w| k.contains(w))
        });
        if !by_a_period && !conditions.is_empty() && conditions.iter().all(of_a_period) {
            steps.swap(i - 1, i);
        }
    }
    steps
}

/// Whether a column's name says it is a time taken: "build time", "duration_min", 「所要時間」.
fn of_time(name: &str) -> bool {
    let lower = name.to_lowercase();
    ["time", "duration", "minute", "min", "hour", "second", "sec", "days", "時間", "分", "秒", "日数"]
        .iter()
        .any(|w| lower.contains(w))
}

/// The columns the steps' groupings are by.
pub(super) fn grouped_by(steps: &[(usize, Step)]) -> Vec<String> {
    steps
        .iter()
        .flat_map(|(_, s)| match s {
            Step::Aggregate { by, .. } => by.clone(),
            _ => Vec::new(),
        })
        .collect()
}

/// Totals "for each month" (「月ごと」) group by the month of the date: the month is computed
/// first, unless a step computes it already (or after, said of the grouping's month).
pub(super) fn months_to_group_by(mut steps: Vec<(usize, Step)>) -> Vec<(usize, Step)> {
    // "one row per region and month, where month is the year and month of order_date": the month
    // said after the grouping is the one it groups by.
    // (`steps` holds the steps still to go, last first.)
    let said_after = |steps: &[(usize, Step)], month: &str| {
        steps.iter().rposition(|(_, s)| matches!(s, Step::Compute { operation: "month", name, .. } if name == month))
    };
    let mut out: Vec<(usize, Step)> = Vec::new();
    steps.reverse();
    while let Some((at, step)) = steps.pop() {
        if let Step::Aggregate { by, .. } = &step {
            let month =
                by.iter().find(|b| matches!(b.to_lowercase().as_str(), "month" | "月" | "月別" | "各月")).cloned();
            // 「取得月ごとに」, "per acquisition month": the month of the date so named (取得日).
            let of_a_date = by.iter().find_map(|b| {
                let japanese = b.strip_suffix('月').filter(|s| {
                    !s.is_empty() && !["年", "各", "毎", "当", "前", "翌", "今", "先", "来", "同"].contains(s)
                });
                let date = japanese
                    .map(|s| format!("{s}日"))
                    .or_else(|| b.to_lowercase().strip_suffix(" month").map(|s| format!("{s} date")))?;
                Some((b.clone(), date))
            });
            let computed = out.iter().any(|(_, s)| matches!(s, Step::Compute { operation: "month", .. }));
            let month = month.map(|m| (m, "date".to_owned())).or(of_a_date);
            if let Some((month, date)) = month.filter(|_| !computed) {
                match said_after(&steps, &month) {
                    Some(later) => out.push(steps.remove(later)),
                    None => {
                        let of = vec![date];
                        out.push((at, Step::Compute { name: month, operation: "month", of, value: None }));
                    }
                }
            }
        }
        out.push((at, step));
    }
    out
}

/// "over budget" after "the difference of actual and budget": the difference is over 0 (under 0
/// when it subtracts the other way). Said with no difference to compare by, the condition is
/// dropped and the filter's conditions are asked.
pub(super) fn conditions_over_a_difference(mut steps: Vec<(usize, Step)>) -> Vec<(usize, Step)> {
    let differences: Vec<(String, Vec<String>)> = steps
        .iter()
        .filter_map(|(_, s)| match s {
            Step::Compute { name, operation: "difference", of, .. } => Some((name.clone(), of.clone())),
            _ => None,
        })
        .collect();
    for (_, step) in &mut steps {
        let Step::Filter { conditions, .. } = step else { continue };
        conditions.retain_mut(|condition| {
            if condition.operator != conditions::OVER_COLUMN {
                return true;
            }
            let over = condition.value.as_str().unwrap_or_default().to_owned();
            // ("more than 250 above the quote": over by that much; else over at all.)
            let by = condition.value2.as_ref().and_then(Value::as_f64).unwrap_or(0.0);
            let found = differences.iter().find_map(|(name, of)| match of.as_slice() {
                [_, b] if crate::binding::same_meaning(b, &over) => Some((name, "gt", by)),
                [a, _] if crate::binding::same_meaning(a, &over) => Some((name, "lt", -by)),
                _ => None,
            });
            let Some((name, operator, by)) = found else { return false };
            let value = super::slots::number_value(by);
            *condition = Condition { field: Some(name.clone()), operator, value, value2: None };
            true
        });
    }
    steps
}

/// 「1人あたり金額（金額÷参加人数、円未満切り捨て）が10,000円を超えるもの」: a condition of a
/// filter that keeps rows, on a column a later step computes (and rounds), keeps them once it
/// is: it moves to a filter of its own right after the last step that writes the column.
pub(super) fn conditions_after_their_columns(mut steps: Vec<(usize, Step)>) -> Vec<(usize, Step)> {
    let writes = |step: &Step, column: &str| match step {
        Step::Compute { name, .. }
        | Step::Formula { name, .. }
        | Step::DaysUntil { name, .. }
        | Step::DaysAfter { name, .. } => name == column,
        _ => false,
    };
    let mut i = 0;
    while i < steps.len() {
        let last_written = |field: &Option<String>, steps: &[(usize, Step)]| {
            let field = field.as_deref()?;
            (i + 1..steps.len()).rfind(|&j| writes(&steps[j].1, field))
        };
        let Step::Filter { conditions, exclude: false } = &steps[i].1 else {
            i += 1;
            continue;
        };
        let moved: Vec<(usize, Condition)> =
            conditions.iter().filter_map(|c| Some((last_written(&c.field, &steps)?, c.clone()))).collect();
        if moved.is_empty() {
            i += 1;
            continue;
        }
        if let Step::Filter { conditions, .. } = &mut steps[i].1 {
            conditions.retain(|c| !moved.iter().any(|(_, m)| m == c));
        }
        // (Each after the last step writing its column, the later first so the places hold.)
        let mut moved = moved;
        moved.sort_by_key(|(j, _)| std::cmp::Reverse(*j));
        for (j, condition) in moved {
            let at = steps[j].0;
            steps.insert(j + 1, (at, Step::Filter { conditions: vec![condition], exclude: false }));
        }
        if matches!(&steps[i].1, Step::Filter { conditions, .. } if conditions.is_empty()) {
            steps.remove(i);
        } else {
            i += 1;
        }
    }
    steps
}

/// "Sum the amount per employee, then keep those over 30000": a number compared right after a
/// total of one value is compared with that total. The total takes the name the condition
/// gives it (「月額」), or a plain one when it names none.
pub(super) fn conditions_on_totals(
    mut steps: Vec<(usize, Step)>,
    text: &str,
    language: Language,
) -> Vec<(usize, Step)> {
    for i in 1..steps.len() {
        let at = steps[i].0;
        let (before, after) = steps.split_at_mut(i);
        let (Step::Aggregate { by, aggregations }, Step::Filter { conditions, exclude: false }) =
            (&mut before[i - 1].1, &mut after[0].1)
        else {
            continue;
        };
        let [condition] = conditions.as_mut_slice() else { continue };
        let ordered = matches!(condition.operator, "gt" | "gte" | "lt" | "lte" | "between");
        if !ordered || condition.field.as_ref().is_some_and(|f| by.contains(f)) {
            continue;
        }
        if let Some(rows) = rows_counted_by_the_condition(text, at, condition, aggregations) {
            // "only for versions with at least 3 reviews" beside an average rating: a count of the
            // rows, not the average, is what is compared.
            aggregations
                .insert(0, Aggregation { op: "count", field: None, name: Some(rows.clone()), when: Vec::new() });
            condition.field = Some(rows);
            continue;
        }
        let [total] = aggregations.as_mut_slice() else { continue };
        let name = condition.field.clone().or_else(|| total.name.clone()).unwrap_or_else(|| {
            let (en, ja) = match total.op {
                "count" => ("count", "件数"),
                "avg" => ("average", "平均"),
                "max" => ("maximum", "最大"),
                "min" => ("minimum", "最小"),
                _ => ("total", "合計"),
            };
            language.pick(en, ja).to_owned()
        });
        total.name = Some(name.clone());
        condition.field = Some(name);
    }
    steps
}

/// The rows a condition said of groups counts ("versions with at least 3 reviews", "customers with
/// 2 or more orders"), when the grouping counts none: a plural noun after the condition's number,
/// no column any total is of, in the sentence the condition is said in from where it starts.
fn rows_counted_by_the_condition(
    text: &str,
    at: usize,
    condition: &Condition,
    aggregations: &[Aggregation],
) -> Option<String> {
    static WITH_N_ROWS: LazyLock<regex::Regex> = LazyLock::new(|| {
        regex::Regex::new(r"(?i)\bwith (?:at least |more than |over |fewer than |less than |at most |under )?(?P<n>\d+)(?: or (?:more|fewer|less|over|under))? (?P<rows>[a-z]+s)\b")
            .expect("with n rows")
    });
    if aggregations.iter().any(|a| a.op == "count") || condition.field.is_some() {
        return None;
    }
    let sentence = text.get(at..)?.split(['.', '\n']).next()?;
    let c = WITH_N_ROWS.captures(sentence)?;
    let rows = c["rows"].to_ascii_lowercase();
    let number = c["n"].parse::<f64>().ok();
    let of_a_total = aggregations.iter().any(|a| a.field.as_deref().is_some_and(|f| same_noun(f, &rows)));
    (number == condition.value.as_f64() && !of_a_total).then_some(rows)
}

/// 「部門ごとにまとめて、件数と金額の合計を出して」, "totalled by department and category … the
/// summed Amount, one row for each department/category combination": the groups said in one
/// clause and what to total in the next (with no groups, or the same) are one grouping (the
/// first totals nothing it names). A count the first says (`counted` at its place: "One row per
/// month: month, number of failures, average duration") is kept beside the next's totals.
pub(super) fn one_grouping(mut steps: Vec<(usize, Step)>, counted: impl Fn(usize) -> bool) -> Vec<(usize, Step)> {
    // 「受注一覧.xlsx の集計をお願いします。…担当者ごとに、受注件数と受注金額の平均を出す」: a
    // total that says nothing of its own, before a grouping said in full, is that grouping.
    let bare = |s: &Step| {
        matches!(s, Step::Aggregate { by, aggregations } if by.is_empty()
            && aggregations.iter().all(|a| a.field.is_none() && a.name.is_none() && a.when.is_empty()))
    };
    let grouped = |s: &Step| matches!(s, Step::Aggregate { by, .. } if !by.is_empty());
    if let Some(first) = steps.iter().position(|(_, s)| bare(s)) {
        if steps[first + 1..].iter().any(|(_, s)| grouped(s)) {
            steps.remove(first);
        }
    }
    let mut i = 0;
    while i + 1 < steps.len() {
        let next = steps[i + 1..].iter().position(|(_, s)| matches!(s, Step::Aggregate { .. })).map(|n| i + 1 + n);
        // 「経費.csv を月別・勘定科目別に集計して…計上月と勘定科目の組み合わせごとに金額を合計」:
        // groups said in passing and then in full, with more keys, are the full grouping.
        if let (Step::Aggregate { by, aggregations }, Some(Step::Aggregate { by: later_by, .. })) =
            (&steps[i].1, next.map(|j| &steps[j].1))
        {
            // (「月別・勘定科目別」 then 「計上月と勘定科目」, 「職場別」 then 「職場コードと職場名」: a
            // key said short is the one, or the ones, said in full.)
            let said_short =
                |b: &String, l: &String| !same_noun(b, l) && (l.ends_with(b.as_str()) || l.starts_with(b.as_str()));
            let within = !by.is_empty()
                && (later_by.len() > by.len() || by.iter().any(|b| later_by.iter().any(|l| said_short(b, l))))
                && by.iter().all(|b| later_by.iter().any(|l| same_noun(b, l) || said_short(b, l)))
                && aggregations.iter().all(|a| a.field.is_none() && a.name.is_none() && a.when.is_empty());
            if within {
                let count_kept = aggregations.iter().any(|a| a.op == "count") && counted(steps[i].0);
                let short: Vec<String> =
                    by.iter().filter(|b| later_by.iter().any(|l| said_short(b, l))).cloned().collect();
                steps.remove(i);
                let mut removed = 1;
                // The column made for a key said short goes with it.
                if i > 0 && matches!(&steps[i - 1].1, Step::Compute { name, .. } if short.contains(name)) {
                    steps.remove(i - 1);
                    i -= 1;
                    removed += 1;
                }
                if let (true, Some(Step::Aggregate { aggregations: later, .. })) =
                    (count_kept, next.map(|j| &mut steps[j - removed].1))
                {
                    if !later.iter().any(|a| a.op == "count") {
                        later.insert(0, Aggregation { op: "count", field: None, name: None, when: Vec::new() });
                    }
                }
                continue;
            }
        }
        // "total up the fees by department? One line per department with its total": the same
        // total said again, of nothing new; "add up the annuity fees per country, one row per
        // country with its total fee": of the same column, said shorter.
        let said_again = match (&steps[i].1, next.map(|j| &steps[j].1)) {
            (Step::Aggregate { by, aggregations }, Some(Step::Aggregate { by: later_by, aggregations: later })) => {
                let shorter = |a: &Aggregation| {
                    a.field.as_deref().is_some_and(|f| {
                        aggregations.iter().any(|first| {
                            first.op == a.op
                                && first
                                    .field
                                    .as_deref()
                                    .is_some_and(|said| said == f || said.ends_with(&format!(" {f}")))
                        })
                    })
                };
                // ("by destination country … one row per country": the key said shorter.)
                let keys_said_shorter = by.len() == later_by.len()
                    && by
                        .iter()
                        .zip(later_by)
                        .all(|(key, later)| same_noun(key, later) || key.ends_with(&format!(" {later}")));
                // ("per month … the number of lines and their total amount. Month, lines, total":
                // a bare total in the columns listed is the grouping's, never one of all rows.)
                let bare = later.iter().all(|a| a.field.is_none() && a.name.is_none());
                !by.is_empty()
                    && (same_groups(by, later_by) || keys_said_shorter || later_by.is_empty() && bare)
                    && aggregations.iter().any(|a| a.op == "sum")
                    && later.iter().all(|a| {
                        a.op == "sum" && a.when.is_empty() && (a.field.is_none() && a.name.is_none() || shorter(a))
                    })
            }
            _ => false,
        };
        if let (true, Some(j)) = (said_again, next) {
            steps.remove(j);
            continue;
        }
        let merges = match (&steps[i].1, next.map(|j| &steps[j].1)) {
            (Step::Aggregate { by, aggregations }, Some(Step::Aggregate { by: later_by, aggregations: later })) => {
                let same_groups = same_groups(by, later_by);
                // 「モジュールごとの平均実行時間…と成功件数を出して」: a count said after the totals
                // of a grouping, with no groups of its own, is one of them.
                let a_count_more = later_by.is_empty()
                    && later.iter().all(|a| a.op == "count")
                    && !aggregations.iter().any(|a| a.op == "count");
                // "revenue (sum), cost (sum)": totals named in a list, clause by clause.
                let named = |all: &[Aggregation]| all.iter().all(|a| a.field.is_some() && a.name.is_some());
                let a_total_more = later_by.is_empty() && named(later) && named(aggregations);
                // "per site: total kWh, total amount": a total of a column listed after the
                // grouping's first is one more of its totals (a total of the totals would leave one row).
                let of_columns = |all: &[Aggregation]| !all.is_empty() && all.iter().all(|a| a.field.is_some());
                let listed_after =
                    later_by.is_empty() && next == Some(i + 1) && of_columns(later) && of_columns(aggregations);
                // "total the unpaid amount and count the unpaid invoices": totals of all rows
                // said one after another are one row of totals (the count would count that row).
                let of_all_rows = by.is_empty() && later_by.is_empty() && next == Some(i + 1) && !later.is_empty();
                of_all_rows
                    || !by.is_empty()
                        && (later_by.is_empty() || same_groups)
                        && (aggregations.iter().all(|a| a.field.is_none() && a.name.is_none())
                            || a_count_more
                            || a_total_more
                            || listed_after
                            || totals_restated(aggregations, later_by, later))
            }
            _ => false,
        };
        if let (true, Some(j)) = (merges, next) {
            let (_, Step::Aggregate { mut aggregations, .. }) = steps.remove(j) else { unreachable!("an aggregate") };
            let at = steps[i].0;
            if let Step::Aggregate { aggregations: first, .. } = &mut steps[i].1 {
                if totals_restated(first, &[], &aggregations) {
                    add_totals_said_again(first, aggregations);
                    i += 1;
                    continue;
                }
                if first.iter().any(|a| a.field.is_some() || a.name.is_some()) {
                    // The count said after joins the totals named.
                    first.extend(aggregations);
                    i += 1;
                    continue;
                }
                let count_kept = first.iter().any(|a| a.op == "count") && counted(at);
                if count_kept && !aggregations.iter().any(|a| a.op == "count") {
                    aggregations.insert(0, Aggregation { op: "count", field: None, name: None, when: Vec::new() });
                }
                *first = aggregations;
            }
        }
        i += 1;
    }
    steps
}

/// "total the vehicle fares per route … I'd like route, number of vehicles and total fare": the
/// columns wanted, said with no groups, are the grouping's totals again (a total said before, of
/// the same column or said shorter) and a count more; never a total of the totals.
fn totals_restated(first: &[Aggregation], later_by: &[String], later: &[Aggregation]) -> bool {
    let said_before = |a: &Aggregation| {
        a.field.as_deref().is_some_and(|f| {
            first.iter().any(|said| {
                said.op == a.op
                    && said.when == a.when
                    && said.field.as_deref().is_some_and(|s| s == f || s.ends_with(&format!(" {f}")))
            })
        })
    };
    let a_count_more = |a: &Aggregation| a.op == "count" && a.field.is_none() && a.when.is_empty();
    later_by.is_empty()
        && later.iter().any(said_before)
        && later.iter().all(|a| said_before(a) || a_count_more(a) && !first.iter().any(|f| f.op == "count"))
}

/// `more` added to the totals of a grouping (`first`), but for those it already has: "with
/// their total hours and number of lessons" after "add up the lesson hours per instructor".
pub(super) fn add_totals_said_again(first: &mut Vec<Aggregation>, more: Vec<Aggregation>) {
    let same_field = |a: &Aggregation, b: &Aggregation| {
        a.field
            .as_deref()
            .zip(b.field.as_deref())
            .is_some_and(|(f, g)| same_noun(f, g) || f.ends_with(&format!(" {g}")) || g.ends_with(&format!(" {f}")))
    };
    for aggregation in more {
        let said = first.iter().any(|f| {
            f.op == aggregation.op && (same_field(f, &aggregation) || f.op == "count" && f.field == aggregation.field)
        });
        if !said {
            first.push(aggregation);
        }
    }
}

/// Whether two groupings group by the same keys, each said alike ("vendor" and "vendors").
pub(super) fn same_groups(by: &[String], other: &[String]) -> bool {
    by.len() == other.len() && by.iter().all(|b| other.iter().any(|o| same_noun(b, o)))
}

/// "everything except the assets with Status Disposed and the assets that cost less than
/// $2,500": two groups left out, each on its own — not the rows that are both.
pub(super) fn each_group_left_out(step: Step, lower: &str) -> Vec<Step> {
    match step {
        Step::Filter { conditions, exclude: true }
            if conditions.len() > 1 && words::AND_ANOTHER_GROUP.is_match(lower) =>
        {
            conditions.into_iter().map(|c| Step::Filter { conditions: vec![c], exclude: true }).collect()
        }
        other => vec![other],
    }
}

/// "temperature outside 2.0-8.0": a range left, as a filter of its own that leaves the range's
/// rows out (one that leaves rows out keeps them), beside the other conditions said with it.
pub(super) fn outside_ranges_apart(steps: Vec<(usize, Step)>) -> Vec<(usize, Step)> {
    let mut apart = Vec::with_capacity(steps.len());
    for (at, step) in steps {
        let Step::Filter { conditions, exclude } = step else {
            apart.push((at, step));
            continue;
        };
        let (outside, rest): (Vec<Condition>, Vec<Condition>) =
            conditions.into_iter().partition(|c| c.operator == conditions::OUTSIDE);
        if !rest.is_empty() || outside.is_empty() {
            apart.push((at, Step::Filter { conditions: rest, exclude }));
        }
        for range in outside {
            let inside = Condition { operator: "between", ..range };
            apart.push((at, Step::Filter { conditions: vec![inside], exclude: !exclude }));
        }
    }
    apart
}

/// 「同じ依頼が2件以上あるもの」, "appearing more than once": said of duplicates, the duplicate
/// check itself, no filter on a count.
pub(super) fn twice_is_the_duplicate_check(mut steps: Vec<(usize, Step)>) -> Vec<(usize, Step)> {
    if !steps.iter().any(|(_, s)| matches!(s, Step::Duplicates { .. })) {
        return steps;
    }
    // (A condition of its own, or beside the period said: 「11月分…4つが全部同じ行が2件以上」.)
    let twice = |c: &Condition| c.operator == "gte" && c.value == 2 || c.operator == "gt" && c.value == 1;
    for (_, step) in &mut steps {
        if let Step::Filter { conditions, .. } = step {
            conditions.retain(|c| !twice(c));
        }
    }
    steps.retain(|(_, s)| !matches!(s, Step::Filter { conditions, .. } if conditions.is_empty()));
    steps
}

/// "totalled by department and category … one row for each department/category combination":
/// one row per group is what the grouping gives, not a duplicate check.
pub(super) fn one_row_per_group(mut steps: Vec<(usize, Step)>) -> Vec<(usize, Step)> {
    let letters = |text: &str| -> String {
        let text = text.to_lowercase();
        let text = text.trim_end_matches("combinations").trim_end_matches("combination").trim_end_matches("pairs");
        text.chars().filter(|c| c.is_alphanumeric()).collect()
    };
    let groups: Vec<String> = steps
        .iter()
        .filter_map(|(_, s)| match s {
            Step::Aggregate { by, .. } if !by.is_empty() => Some(by.iter().map(|b| letters(b)).collect::<String>()),
            _ => None,
        })
        .collect();
    steps.retain(|(_, s)| match s {
        Step::Duplicates { by, remove: true, .. } if !by.is_empty() => {
            !groups.contains(&by.iter().map(|b| letters(b)).collect::<String>())
        }
        _ => true,
    });
    steps
}

/// "count the failed runs per month": a filter said after a total whose conditions test what
/// only rows have (a status, a date) keeps rows before they are totalled. (On a column the
/// totals are grouped by, before or after is the same.)
pub(super) fn rows_kept_before_totals(mut steps: Vec<(usize, Step)>) -> Vec<(usize, Step)> {
    let mut i = 1;
    while i < steps.len() {
        let Some(aggregate) = steps[..i].iter().rposition(|(_, s)| matches!(s, Step::Aggregate { .. })) else {
            i += 1;
            continue;
        };
        let on_rows = |c: &Condition| {
            matches!(c.operator, "eq" | "ne" | "in" | "contains")
                && !c.value.is_number()
                && !compares_totals(c, &steps[aggregate].1)
                || is_date(&c.value)
        };
        // (A filter of no condition read keeps rows by the words said, bound to the data's values.)
        if matches!(&steps[i].1, Step::Filter { conditions, .. } if conditions.iter().all(on_rows)) {
            let filter = steps.remove(i);
            steps.insert(aggregate, filter);
        }
        i += 1;
    }
    steps
}

/// 「伝票ごとに借方と貸方の合計が合ってない」, 「請求額と入金額を合計し、…一致しない取引先だけ」: two
/// columns the totals add up, compared, are the totals compared — the filter goes right after
/// the grouping that totals them, wherever the clause put it.
pub(super) fn totals_compared_after_totals(mut steps: Vec<(usize, Step)>) -> Vec<(usize, Step)> {
    let mut i = 0;
    while i < steps.len() {
        let next_grouping = steps[i + 1..].iter().position(|(_, s)| matches!(s, Step::Aggregate { .. }));
        let moves = next_grouping.is_some_and(|n| {
            matches!(&steps[i].1, Step::Filter { conditions, exclude: false }
                if !conditions.is_empty() && conditions.iter().all(|c| compares_totals(c, &steps[i + 1 + n].1)))
        });
        match next_grouping {
            Some(n) if moves => {
                let filter = steps.remove(i);
                steps.insert(i + n + 1, filter);
            }
            _ => i += 1,
        }
    }
    steps
}

/// Whether `condition` compares two columns one of which `grouping` totals.
fn compares_totals(condition: &Condition, grouping: &Step) -> bool {
    let Step::Aggregate { aggregations, .. } = grouping else { return false };
    let totalled = |column: &str| aggregations.iter().any(|a| a.op != "count" && a.field.as_deref() == Some(column));
    condition.value.get("column").and_then(Value::as_str).is_some_and(totalled)
        || condition.value.get("column").is_some() && condition.field.as_deref().is_some_and(totalled)
}

/// "per site: total kWh, total amount, and cost per kWh = total amount / total kWh": a column
/// computed before a grouping from nothing but the totals it makes is computed after it (with
/// the rounding said right after it).
pub(super) fn columns_of_totals_after_totals(mut steps: Vec<(usize, Step)>, language: Language) -> Vec<(usize, Step)> {
    let Some(grouping) = steps.iter().position(|(_, s)| matches!(s, Step::Aggregate { .. })) else { return steps };
    let Step::Aggregate { aggregations, .. } = &steps[grouping].1 else { return steps };
    let folded = |name: &str| name.to_lowercase().replace(['_', ' '], "");
    let totals: Vec<String> = aggregations.iter().map(|a| folded(&a.result_name(language))).collect();
    let of_totals = |step: &Step| match step {
        Step::Compute { of, .. } | Step::Formula { of, .. } => {
            !of.is_empty() && of.iter().all(|column| totals.contains(&folded(column)))
        }
        _ => false,
    };
    let Some(at) = steps[..grouping].iter().position(|(_, s)| of_totals(s)) else { return steps };
    let rounded = matches!(steps.get(at + 1), Some((_, Step::Compute { operation: "round", of, .. })) if of.is_empty());
    let moved: Vec<(usize, Step)> = steps.drain(at..at + 1 + usize::from(rounded)).collect();
    let after = grouping + 1 - moved.len();
    steps.splice(after..after, moved);
    steps
}

/// 「当直回数（行数）と手当の合計」: a measure said to be the number of rows is a count of them,
/// named as said.
pub(super) fn counts_said_as_rows(steps: &mut [Step]) {
    static AS_ROWS: LazyLock<Regex> = LazyLock::new(|| {
        Regex::new(r"^(?P<name>.+?)\s*[(（](?:行数|件数|行の数|件|(?i:rows|number of rows|row count))[)）]$")
            .expect("as rows")
    });
    for step in steps {
        let Step::Aggregate { aggregations, .. } = step else { continue };
        for a in aggregations.iter_mut().filter(|a| a.op == "sum") {
            let Some(name) = a.field.as_deref().and_then(|f| AS_ROWS.captures(f)).map(|c| c["name"].to_owned()) else {
                continue;
            };
            a.op = "count";
            a.field = None;
            a.name = Some(name);
        }
    }
}

/// "add one: rooms blocked minus rooms picked up": a word read as a state kept ("blocked") that
/// is part of the name of a column computed from is that name, keeping no rows; a filter left
/// with no condition is dropped.
pub(super) fn states_that_name_operands(steps: &mut Vec<Step>) {
    let operands: Vec<String> = steps
        .iter()
        .filter_map(|s| match s {
            Step::Compute { of, .. } => Some(of.iter().map(|o| o.to_lowercase()).collect::<Vec<_>>()),
            _ => None,
        })
        .flatten()
        .collect();
    if operands.is_empty() {
        return;
    }
    let names_an_operand = |c: &Condition| {
        c.field.is_none()
            && c.operator == "eq"
            && c.value.as_str().is_some_and(|v| {
                let v = v.to_lowercase();
                operands.iter().any(|o| o.split(' ').count() > 1 && o.split(' ').any(|w| w == v))
            })
    };
    steps.retain_mut(|step| {
        let Step::Filter { conditions, .. } = step else { return true };
        let before = conditions.len();
        conditions.retain(|c| !names_an_operand(c));
        before == 0 || !conditions.is_empty()
    });
}

/// 「走行距離の合計…距離の合計が多い順」: a total said again by the last word of its column is
/// the same total, added up once.
/// (An order by the shorter words, 「距離の合計が多い順」, is by the longer column's total.)
pub(super) fn totals_said_again_shorter(steps: &mut [Step]) {
    let mut shortened: Vec<(String, String)> = Vec::new();
    for step in steps.iter_mut() {
        let Step::Aggregate { aggregations, .. } = step else { continue };
        // (Said again after the longer: "hours and billable hours" are two columns.)
        let all = aggregations.clone();
        let said_longer = |at: usize, a: &Aggregation| -> Option<String> {
            let field = a.field.as_deref()?;
            all[..at].iter().find_map(|o| {
                let longer = o.field.as_deref().filter(|f| f.len() > field.len() && f.ends_with(field))?;
                (o.op == a.op && o.when == a.when).then(|| longer.to_owned())
            })
        };
        let mut at = 0;
        aggregations.retain(|a| {
            at += 1;
            match (a.field.clone(), said_longer(at - 1, a)) {
                (Some(short), Some(long)) => {
                    shortened.push((short, long));
                    false
                }
                _ => true,
            }
        });
    }
    for step in steps.iter_mut() {
        let Step::Sort { by: Some(by), .. } = step else { continue };
        if let Some((short, long)) = shortened.iter().find(|(short, _)| by.starts_with(short.as_str())) {
            let rest = by[short.len()..].to_owned();
            if ["の合計", "合計"].contains(&rest.as_str()) {
                *by = format!("{long}{rest}");
            }
        }
    }
}

/// 「残りが0件の現場は載せなくて結構です」 after counts per group: groups of no rows, which counts
/// never give; no step.
pub(super) fn empty_groups_left_out(steps: &mut Vec<Step>) {
    let Some(counted) = steps.iter().position(|s| {
        matches!(s, Step::Aggregate { by, aggregations } if !by.is_empty() && aggregations.iter().any(|a| a.op == "count"))
    }) else {
        return;
    };
    let mut at = 0;
    steps.retain(|s| {
        at += 1;
        !(at - 1 > counted
            && matches!(s, Step::Filter { conditions, exclude: true }
                if conditions.len() == 1 && conditions[0].operator == "eq" && conditions[0].value == 0))
    });
}

/// 「クラブごとに集計して、クラブ名と補助額の合計を」: the group's name listed beside the total
/// is the key shown, not a second amount added up (while another total is left).
pub(super) fn keys_listed_beside_their_totals(steps: &mut [Step]) {
    for step in steps {
        let Step::Aggregate { by, aggregations } = step else { continue };
        let names_a_key = |a: &Aggregation| {
            a.op == "sum" && a.field.as_deref().is_some_and(|f| by.iter().any(|k| super::names_key_column(k, f)))
        };
        if aggregations.iter().any(|a| !names_a_key(a)) {
            aggregations.retain(|a| !names_a_key(a));
        }
    }
}

/// 「平均受注額＝受注金額の合計÷件数」, "average order = total amount / number of orders": a ratio of
/// a total of a column to the count of rows, named as one of the grouping's totals, is that
/// total's average of the column (the ratio itself would read columns no row has).
pub(super) fn averages_said_as_a_total_over_a_count(steps: &mut Vec<Step>) {
    static TOTAL_OF: LazyLock<Regex> = LazyLock::new(|| {
        Regex::new(r"^(?:(?P<ja>.+?)の?(?:合計|総額|総計)|(?i:(?:the )?(?:total|sum)(?: of)? (?:the )?(?P<en>.+)))$")
            .expect("total of")
    });
    let count_word = |w: &str| {
        let w = w.trim().to_lowercase();
        ["件数", "回数", "人数", "数", "count", "number of rows", "rows"].contains(&w.as_str())
            || w.starts_with("number of ")
    };
    let Some(grouping) = steps.iter().position(|s| matches!(s, Step::Aggregate { .. })) else { return };
    let found = steps.iter().enumerate().skip(grouping + 1).find_map(|(i, s)| {
        let Step::Compute { name, operation: "ratio", of, .. } = s else { return None };
        let [total, count] = of.as_slice() else { return None };
        let c = TOTAL_OF.captures(total.trim()).filter(|_| count_word(count))?;
        let column = c.name("ja").or(c.name("en"))?.as_str().trim().to_owned();
        Some((i, name.clone(), column))
    });
    let Some((at, name, column)) = found else { return };
    let Step::Aggregate { aggregations, .. } = &mut steps[grouping] else { return };
    let Some(average) = aggregations.iter_mut().find(|a| a.name.as_deref() == Some(name.as_str())) else { return };
    average.op = "avg";
    average.field = Some(column);
    steps.remove(at);
}

/// 「勘定科目別に集計…消費税額＝税込金額×税率÷（100＋税率）で切り捨て、税抜金額＝税込金額−消費税額」:
/// a column said after the totals but computed from what only rows have (no total, no key, no
/// other column of the output) is computed on the rows before they are totalled, with its
/// rounding; the one total that names no column totals the one computed last (税抜金額, from
/// 消費税額).
pub(super) fn row_columns_before_totals(mut steps: Vec<(usize, Step)>, output: &[String]) -> Vec<(usize, Step)> {
    let Some(grouping) = steps.iter().position(|(_, s)| matches!(s, Step::Aggregate { .. })) else { return steps };
    let Step::Aggregate { by, aggregations } = &steps[grouping].1 else { return steps };
    // (A column the output lists beside the keys is one of the totals: "per product_line:
    // revenue, cost, margin = revenue - cost".)
    let mut after_totals: Vec<String> = by.iter().chain(output).cloned().collect();
    after_totals.extend(aggregations.iter().flat_map(|a| a.name.iter().chain(a.field.iter()).cloned()));
    // ("overtime_hours = total minus 40": the total itself, by the name of its kind.)
    for a in aggregations {
        let kinds: &[&str] = match a.op {
            "sum" => &["total", "sum"],
            "count" => &["count"],
            "avg" => &["average", "mean"],
            _ => &[],
        };
        after_totals.extend(kinds.iter().map(|k| (*k).to_owned()));
    }
    let mut moved: Vec<(usize, Step)> = Vec::new();
    let mut i = grouping + 1;
    while i < steps.len() {
        let (name, of) = match &steps[i].1 {
            Step::Formula { name, of, .. } => (name.clone(), of.clone()),
            Step::Compute { name, operation, of, .. }
                if matches!(*operation, "difference" | "sum" | "product" | "ratio" | "percent") =>
            {
                (name.clone(), of.clone())
            }
            _ => {
                i += 1;
                continue;
            }
        };
        if of.is_empty() || of.iter().any(|o| after_totals.iter().any(|t| same_noun(t, o))) {
            after_totals.push(name);
            i += 1;
            continue;
        }
        moved.push(steps.remove(i));
        // (Its rounding, said right after it, goes with it.)
        let rounding = |s: &Step| matches!(s, Step::Compute { operation, of, .. } if of.is_empty() && super::rounding::Direction::of_operation(operation).is_some());
        if i < steps.len() && rounding(&steps[i].1) {
            moved.push(steps.remove(i));
        }
    }
    if moved.is_empty() {
        return steps;
    }
    // The column computed last from the others (税抜金額 from 消費税額): what a total that names
    // no column adds up.
    let read_by_another = |name: &str| {
        moved.iter().any(
            |(_, s)| matches!(s, Step::Formula { of, .. } | Step::Compute { of, .. } if of.iter().any(|o| o == name)),
        )
    };
    let last: Vec<String> = moved
        .iter()
        .filter_map(|(_, s)| match s {
            Step::Formula { name, .. } | Step::Compute { name, .. } if !name.is_empty() && !read_by_another(name) => {
                Some(name.clone())
            }
            _ => None,
        })
        .collect();
    if let (Step::Aggregate { aggregations, .. }, [column]) = (&mut steps[grouping].1, last.as_slice()) {
        let mut open = aggregations.iter_mut().filter(|a| a.field.is_none() && a.op != "count");
        if let (Some(total), None) = (open.next(), open.next()) {
            total.field = Some(column.clone());
        }
    }
    for (offset, step) in moved.into_iter().enumerate() {
        steps.insert(grouping + offset, step);
    }
    steps
}

/// 「顧客ごとにポイントを合計。氏名は 姓 と 名 を半角スペースでつないで。列：顧客番号、氏名、…」:
/// texts joined from what only rows have, said after the totals and written beside them, are
/// joined on the rows before they are totalled and kept with each group.
pub(super) fn joined_texts_before_totals(mut steps: Vec<(usize, Step)>, output: &[String]) -> Vec<(usize, Step)> {
    let Some(grouping) = steps.iter().position(|(_, s)| matches!(s, Step::Aggregate { .. })) else { return steps };
    let Step::Aggregate { by, aggregations } = &steps[grouping].1 else { return steps };
    let totals: Vec<&String> =
        by.iter().chain(aggregations.iter().flat_map(|a| a.name.iter().chain(a.field.iter()))).collect();
    let of_rows = |s: &Step| match s {
        Step::Compute { name, operation: "join", of, .. } => {
            output.iter().any(|o| same_noun(o, name)) && !of.iter().any(|o| totals.iter().any(|t| same_noun(t, o)))
        }
        _ => false,
    };
    let Some(joined) = steps.iter().skip(grouping + 1).position(|(_, s)| of_rows(s)).map(|i| i + grouping + 1) else {
        return steps;
    };
    let step = steps.remove(joined);
    if let (Step::Compute { name, .. }, Step::Aggregate { by, .. }) = (&step.1, &mut steps[grouping].1) {
        by.push(name.clone());
    }
    steps.insert(grouping, step);
    steps
}

/// "give the average duration_sec …, rounded half-up to whole seconds. One row per month: …":
/// rounding that names nothing, said before the grouping it follows in the text's steps, rounds
/// that grouping's totals, after it.
pub(super) fn rounding_after_totals(mut steps: Vec<(usize, Step)>) -> Vec<(usize, Step)> {
    let targetless = |s: &Step| matches!(s, Step::Compute { operation, of, .. } if of.is_empty() && super::rounding::Direction::of_operation(operation).is_some());
    let totals = |s: &Step| matches!(s, Step::Aggregate { aggregations, .. } if aggregations.iter().any(|a| matches!(a.op, "avg" | "sum")));
    let Some(round) = steps.iter().position(|(_, s)| targetless(s)) else { return steps };
    // A column computed in between (not a key of the grouping) is what would be rounded.
    let keys = grouped_by(&steps);
    let computes_between = |to: usize| {
        steps[round + 1..to]
            .iter()
            .any(|(_, s)| matches!(s, Step::Compute { name, .. } if !keys.iter().any(|k| same_noun(k, name))))
    };
    if let Some(grouping) = steps.iter().position(|(_, s)| totals(s)).filter(|g| *g > round && !computes_between(*g)) {
        let moved = steps.remove(round);
        steps.insert(grouping, moved);
    }
    steps
}
