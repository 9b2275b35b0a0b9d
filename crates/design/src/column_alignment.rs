//! The columns of two tables put one under the other that are one column named apart ("the column
//! names differ a bit"): `Order No` is `order_no`, `Amount (GBP)` is `amount`, `On-call engineer`
//! is `engineer`, 「ご利用者」 is 「利用者」, 「券番号」 is 「チケット番号」. Each pair must be the
//! only fit of both its columns, at the closest likeness any column has, and of one kind; a column
//! with no such partner stays as it is (null in the other table's rows).

use planwright_plan::{Column, ColumnKind, Node, Plan};
use planwright_validate::InputFiles;
use serde_json::Value;
use unicode_normalization::UnicodeNormalization;

use crate::binding::{column_named, folded_words, same_meaning};
use crate::column_words::japanese_names_english;

/// The columns of `other` that are a column of `first` named apart, each with the name it has in
/// `first`, in `other`'s order. Columns named alike in both are the same and not listed.
pub(crate) fn same_columns_named_apart(first: &[Column], other: &[Column]) -> Vec<(String, String)> {
    let mut left: Vec<&Column> = first.iter().collect();
    let mut right: Vec<&Column> = other.iter().collect();
    let mut pairs: Vec<(&Column, &Column)> = Vec::new();
    for likeness in [Likeness::Same, Likeness::Contained, Likeness::Shared] {
        loop {
            let found = unique_pairs(&left, &right, |a, b| likeness.holds(a, b));
            if found.is_empty() {
                break;
            }
            for (a, b) in found {
                left.retain(|c| c.name != a.name);
                right.retain(|c| c.name != b.name);
                pairs.push((a, b));
            }
        }
    }
    // The one date left on each side: the day each row happened, however it is named (乗車日 and
    // 利用日 of two taxi companies' rides).
    let dates = |columns: &[&Column]| -> Vec<String> {
        columns.iter().filter(|c| c.kind == ColumnKind::Date).map(|c| c.name.clone()).collect()
    };
    if let ([a], [b]) = (&dates(&left)[..], &dates(&right)[..]) {
        if let (Some(a), Some(b)) = (first.iter().find(|c| &c.name == a), other.iter().find(|c| &c.name == b)) {
            pairs.push((a, b));
        }
    }
    let taken: Vec<&str> = other.iter().map(|c| c.name.as_str()).collect();
    other
        .iter()
        .filter_map(|b| pairs.iter().find(|(_, pb)| pb.name == b.name).map(|(a, _)| (b.name.clone(), a.name.clone())))
        .filter(|(from, to)| from != to && !taken.contains(&to.as_str()))
        .collect()
}

/// Tables put one under the other whose columns still differ, written with those columns: the
/// rows of one table would have holes where the other's columns are (`Tracking` of one carrier
/// beside `pro_number` of the other). The columns only some tables have, and the tables; `None`
/// when a later step keeps or totals only columns every table has.
pub(crate) fn columns_apart_written(plan: &Plan, files: &dyn InputFiles) -> Option<(Vec<String>, Vec<String>)> {
    plan.graph
        .iter()
        .enumerate()
        .filter(|(_, node)| node.block.as_deref() == Some("transforms.append"))
        .find_map(|(at, append)| holes_written(plan, files, at, append))
}

/// [`columns_apart_written`] of the append at `at`.
fn holes_written(plan: &Plan, files: &dyn InputFiles, at: usize, append: &Node) -> Option<(Vec<String>, Vec<String>)> {
    let var = |value: &Value| column_named(value.as_str()?, &plan.vars);
    let node_of = |reference: &Value| -> Option<&Node> {
        let id = reference.as_str()?.strip_prefix("${")?.split('.').next()?;
        plan.graph.iter().find(|n| n.id == id)
    };
    let mut columns: Vec<Vec<String>> = Vec::new();
    let mut names: Vec<String> = Vec::new();
    for table in append.inputs.get("tables")?.as_array()? {
        let node = node_of(table)?;
        // (A table given the first's names: its columns as named.)
        let (read, own): (&Node, Vec<String>) = match node.block.as_deref() {
            Some("transforms.select_columns") => {
                let chosen = node.inputs.get("columns")?.as_array()?;
                let own = chosen.iter().filter_map(|c| var(c.get("as").or(c.get("column")).unwrap_or(c))).collect();
                (node_of(node.inputs.get("items")?)?, own)
            }
            _ => (node, Vec::new()),
        };
        if !crate::reads_a_table(read) {
            return None;
        }
        let header = files.columns(read.block.as_deref()?, &read.inputs)?.columns.into_iter().map(|c| c.name);
        names.push(read.inputs.get("path").and_then(var).unwrap_or_else(|| read.id.clone()));
        columns.push(if own.is_empty() { header.collect() } else { own });
    }
    let label = append.inputs.get("source_column").and_then(var);
    let everywhere = |c: &String| columns.iter().all(|cs| cs.contains(c)) || Some(c) == label.as_ref();
    let mut apart: Vec<String> = Vec::new();
    for column in columns.iter().flatten().filter(|c| !everywhere(c)) {
        if !apart.contains(column) {
            apart.push(column.clone());
        }
    }
    // A later step that keeps or totals columns: the holes are written only where it names one
    // of those columns.
    let named = |node: &Node| -> Option<Vec<String>> {
        let fields: Vec<&Value> = match node.block.as_deref() {
            Some("transforms.select_columns") => {
                node.inputs.get("columns")?.as_array()?.iter().map(|c| c.get("column").unwrap_or(c)).collect()
            }
            Some("transforms.group_by_agg") => {
                let aggregations = node.inputs.get("aggregations").and_then(Value::as_array).into_iter().flatten();
                node.inputs.get("by")?.as_array()?.iter().chain(aggregations.filter_map(|a| a.get("field"))).collect()
            }
            _ => return None,
        };
        Some(fields.into_iter().filter_map(var).collect())
    };
    match plan.graph[at + 1..].iter().find_map(named) {
        _ if apart.is_empty() => None,
        Some(kept) if !kept.iter().any(|c| apart.contains(c)) => None,
        _ => Some((apart, names)),
    }
}

/// How alike two names are.
#[derive(Clone, Copy)]
enum Likeness {
    /// Spelt alike, or words of one meaning: `Order No` / `order_no`, `Status` / `status`.
    Same,
    /// One name's words are all in the other's: `engineer` / `On-call engineer`, `date` /
    /// `order_date`, 「利用者」 / 「ご利用者」, 「設備」 / `machine_id`.
    Contained,
    /// A word in common: `start_date` / `Shift start`; 「チケット番号」 / 「券番号」.
    Shared,
}

impl Likeness {
    fn holds(self, a: &Column, b: &Column) -> bool {
        if !kinds_agree(a.kind, b.kind) {
            return false;
        }
        let (a_name, b_name) = (plain_name(&a.name), plain_name(&b.name));
        match self {
            Likeness::Same => same_meaning(&a_name, &b_name),
            Likeness::Contained => {
                let (a_words, b_words) = (folded_words(&a_name), folded_words(&b_name));
                let within = |x: &[String], y: &[String]| !x.is_empty() && x.iter().all(|w| y.contains(w));
                within(&a_words, &b_words)
                    || within(&b_words, &a_words)
                    || japanese_within(&a_name, &b_name)
                    || japanese_names_english(&a_name, &b_name)
                    || japanese_names_english(&b_name, &a_name)
            }
            Likeness::Shared => {
                let (a_words, b_words) = (folded_words(&a_name), folded_words(&b_name));
                a_words.iter().any(|w| w.is_ascii() && w.len() >= 3 && b_words.contains(w))
                    || japanese_end_shared(&a_name, &b_name)
            }
        }
    }
}

/// The pairs of `left` and `right` that `fits`, where each is the other's only fit.
fn unique_pairs<'c>(
    left: &[&'c Column],
    right: &[&'c Column],
    fits: impl Fn(&Column, &Column) -> bool,
) -> Vec<(&'c Column, &'c Column)> {
    let mut found = Vec::new();
    for a in left {
        let mut of_a = right.iter().filter(|b| fits(a, b));
        let (Some(b), None) = (of_a.next(), of_a.next()) else { continue };
        if left.iter().filter(|x| fits(x, b)).count() == 1 {
            found.push((*a, *b));
        }
    }
    found
}

/// Kinds that may be one column's: the same, or one not known.
fn kinds_agree(a: ColumnKind, b: ColumnKind) -> bool {
    a == b || a == ColumnKind::Unknown || b == ColumnKind::Unknown
}

/// A name without what it says in brackets (`Amount (GBP)`, 「金額（税込）」) and without a polite
/// ご / お in front (「ご利用者」).
fn plain_name(name: &str) -> String {
    let folded: String = name.nfkc().collect();
    let mut plain = String::new();
    let mut depth = 0usize;
    for c in folded.chars() {
        match c {
            '(' | '[' | '【' => depth += 1,
            ')' | ']' | '】' => depth = depth.saturating_sub(1),
            _ if depth == 0 => plain.push(c),
            _ => {}
        }
    }
    let plain = plain.trim();
    let plain = if plain.is_empty() { folded.trim() } else { plain };
    match plain.strip_prefix(['ご', 'お']) {
        Some(rest) if rest.chars().count() >= 2 && !rest.is_ascii() => rest.to_owned(),
        _ => plain.to_owned(),
    }
}

/// One Japanese name ends with the other, of two characters or more (「ご利用者」, 「利用者」).
fn japanese_within(a: &str, b: &str) -> bool {
    let japanese = |s: &str| !s.is_ascii() && s.chars().count() >= 2;
    japanese(a) && japanese(b) && (a.ends_with(b) || b.ends_with(a))
}

/// Two Japanese names end in the same word of two characters or more (「チケット番号」,
/// 「券番号」).
fn japanese_end_shared(a: &str, b: &str) -> bool {
    if a.is_ascii() || b.is_ascii() {
        return false;
    }
    let common = a.chars().rev().zip(b.chars().rev()).take_while(|(x, y)| x == y).count();
    common >= 2
}

#[cfg(test)]
mod tests {
    use super::*;

    fn columns(names: &[(&str, ColumnKind)]) -> Vec<Column> {
        names.iter().map(|(name, kind)| Column { name: (*name).to_owned(), kind: *kind }).collect()
    }

    fn renamed(first: &[(&str, ColumnKind)], other: &[(&str, ColumnKind)]) -> Vec<(String, String)> {
        same_columns_named_apart(&columns(first), &columns(other))
    }

    fn pairs(list: &[(&str, &str)]) -> Vec<(String, String)> {
        list.iter().map(|(a, b)| ((*a).to_owned(), (*b).to_owned())).collect()
    }

    use ColumnKind::{Date, Number, Text};

    #[test]
    fn columns_spelt_apart_with_units_or_more_words_are_one_column() {
        let warehouse = [("po", Text), ("received", Date), ("vendor", Text), ("net_total", Number), ("state", Text)];
        let shop = [("PO #", Text), ("Received on", Date), ("Vendor name", Text), ("Net total (EUR)", Number)];
        assert_eq!(
            renamed(&warehouse, &shop),
            pairs(&[
                ("PO #", "po"),
                ("Received on", "received"),
                ("Vendor name", "vendor"),
                ("Net total (EUR)", "net_total")
            ])
        );
        let rota = [("ref", Text), ("person", Text), ("begins", Date), ("kind", Text), ("hrs", Number)];
        let other = [
            ("Begins at", Date),
            ("Person on duty", Text),
            ("Kind", Text),
            ("Hours worked", Number),
            ("Calls", Number),
        ];
        assert_eq!(
            renamed(&rota, &other),
            pairs(&[("Begins at", "begins"), ("Person on duty", "person"), ("Kind", "kind"), ("Hours worked", "hrs")])
        );
    }

    #[test]
    fn japanese_names_said_politely_or_with_a_shared_last_word_are_one_column() {
        let a = [("伝票番号", Text), ("納品日", Date), ("担当者", Text), ("請求額", Number), ("倉庫", Text)];
        let b = [("受領日", Date), ("番号", Text), ("請求額（税抜）", Number), ("ご担当者", Text), ("メモ", Text)];
        assert_eq!(
            renamed(&a, &b),
            pairs(&[("受領日", "納品日"), ("番号", "伝票番号"), ("請求額（税抜）", "請求額"), ("ご担当者", "担当者")])
        );
    }

    #[test]
    fn a_column_that_fits_two_or_a_column_of_another_kind_stays_as_it_is() {
        // Two amounts could be the one: neither is taken.
        let a = [("amount", Number), ("id", Text)];
        let b = [("net amount", Number), ("gross amount", Number), ("row_id", Number)];
        assert_eq!(renamed(&a, &b), Vec::new());
        // Two dates on a side: no date is taken for the other's.
        let a = [("booked", Date), ("paid", Date)];
        let b = [("Day", Date)];
        assert_eq!(renamed(&a, &b), Vec::new());
    }

    #[test]
    fn a_name_of_the_other_table_is_never_given_twice() {
        // `Amount` is `amount` spelt apart, but `amount` is taken already: left as it is.
        let a = [("amount", Number)];
        let b = [("Amount", Number), ("amount", Number)];
        assert_eq!(renamed(&a, &b), Vec::new());
    }
}
