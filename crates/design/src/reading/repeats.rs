//! Keys said to occur a number of times: "Test IDs with at least 2 FAIL results", "tests that
//! failed two or more times", 「NGになった回数が2回以上のテストケース」. The rows are counted
//! per key and the keys counted that often are kept: a grouping and a condition on its count,
//! not a condition on a column holding the number.

use std::sync::LazyLock;

use regex::Regex;

use super::slots::{self, number_value};
use super::{Aggregation, Condition, Language, Step};

/// A key counted at least (or more than) a number of times.
#[derive(Debug, Clone, PartialEq)]
pub struct Repeated {
    /// What is counted per: the rows' key as the text names it ("test id", 「テストケース」).
    pub key: String,
    /// `gte` or `gt`.
    pub operator: &'static str,
    pub times: f64,
    /// The value of the rows counted, when the text says one ("2 FAIL results", 「NGになった回数」).
    pub value: Option<String>,
}

static EN_WITH_AT_LEAST: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(
        r"(?i)\b(?P<key>[a-z][\w]*(?: [a-z][\w]*)??) (?:with|that have|that has|having|that had) (?P<op>at least|more than|over) (?P<n>\d+|two|three|four|five|ten) (?:(?P<value>[A-Z][\w-]*) )?(?:[\w-]+ ){0,2}?(?:results?|failures?|times|entries|rows|records|occurrences|errors?|runs?|lines)\b",
    )
    .expect("with at least")
});

static EN_TIMES: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(
        r"(?i)\b(?P<key>[a-z][\w]*(?: [a-z][\w]*)?) (?:that |which |who )?(?:(?:did|do|have|had) (?:we|you|they|i) )?(?:have |has |had )?(?:[a-z]+ed|paid|pay|use|sent|send|ran|run|made|bought|buy|sold|spent|seen|shown) (?:(?P<op>at least|more than) (?P<n>\d+|two|three|four|five|ten) times|(?P<n2>\d+|two|three|four|five|ten) (?P<op2>or more) times|(?P<once>more than once)|(?P<twice>twice or more|at least twice)|(?P<more_than_twice>more than twice))\b",
    )
    .expect("times")
});

static JA_TIMES: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(
        r"(?:(?P<value>[A-Za-z0-9\p{Katakana}ー\p{Han}]{1,12}?)(?:に(?:なった|なる)|だった|の)?(?:回数|件数)が)?(?P<n>\d+)\s*(?:回|件)(?P<op>以上|超)(?:[^、。のをが]{0,12})?の(?P<key>[\p{Han}\p{Katakana}ーA-Za-z]{2,12})",
    )
    .expect("ja times")
});

/// Words that ask for the count itself ("the number of failures", 「NG回数」「件数」).
pub static COUNT_ASKED: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(r"\b(?:number of|how many|count|counts|tally)\b|回数|件数|何回|何件").expect("count asked")
});

/// The key, the comparison and the number of times the text says, if it says one.
pub fn repeated(text: &str, language: Language) -> Option<Repeated> {
    let times = |word: &str| super::number(&word.to_ascii_lowercase()).map(|n| n as f64);
    match language {
        Language::En => {
            if let Some(c) = EN_WITH_AT_LEAST.captures(text) {
                let operator = if c["op"].eq_ignore_ascii_case("at least") { "gte" } else { "gt" };
                let value = c.name("value").map(|v| v.as_str().to_owned());
                return Some(Repeated { key: key_of(&c["key"])?, operator, times: times(&c["n"])?, value });
            }
            let c = EN_TIMES.captures(text)?;
            let (operator, n) = if c.name("once").is_some() {
                ("gt", 1.0)
            } else if c.name("twice").is_some() {
                ("gte", 2.0)
            } else if c.name("more_than_twice").is_some() {
                ("gt", 2.0)
            } else if let Some(n) = c.name("n") {
                (if c["op"].eq_ignore_ascii_case("at least") { "gte" } else { "gt" }, times(n.as_str())?)
            } else {
                ("gte", times(&c["n2"])?)
            };
            Some(Repeated { key: key_of(&c["key"])?, operator, times: n, value: None })
        }
        Language::Ja => {
            let c = JA_TIMES.captures(text)?;
            let operator = if &c["op"] == "以上" { "gte" } else { "gt" };
            // 「結果がNGになった回数」: the value, after the column's name.
            let value = c.name("value").map(|v| v.as_str().rsplit('が').next().unwrap_or_default().to_owned());
            let value = value.filter(|v| !v.is_empty());
            Some(Repeated { key: c["key"].to_owned(), operator, times: times(&c["n"])?, value })
        }
    }
}

/// Whether a key said ("vendor") is the repeated key ("vendor", from "vendors").
fn names_key(said: &str, key: &str) -> bool {
    slots::singular(&said.to_ascii_lowercase()) == key
}

/// "Test IDs" → `test id`; a row noun ("rows with at least 2 …") names no key.
fn key_of(words: &str) -> Option<String> {
    let last = words.split_whitespace().last()?;
    let head = words[..words.len() - last.len()].trim();
    let last = last.to_ascii_lowercase();
    // "IDs", "POs": a plural too short for `singular`.
    let one = match last.strip_suffix('s') {
        Some(short) if last.len() == 3 => short.to_owned(),
        _ => slots::singular(&last),
    };
    let key = format!("{head} {one}").trim().to_ascii_lowercase();
    // "Which tests", "the vendors": the words before the noun say which, not what.
    const DETERMINERS: [&str; 9] = ["which", "what", "that", "the", "any", "all", "those", "these", "every"];
    let key = match key.split_once(' ') {
        Some((first, rest)) if DETERMINERS.contains(&first) => rest.to_owned(),
        _ => key,
    };
    (!slots::is_row_noun(&key) && !DETERMINERS.contains(&key.as_str())).then_some(key)
}

/// Steps with the count per key and the condition on it, when the text says a key counted a
/// number of times and no step totals or checks duplicates yet: a condition read from the same
/// number (`result >= 2`) was the count misread, and goes. `count_name` is what the text calls
/// the count, when it names one.
pub fn with_counts(mut steps: Vec<Step>, repeated: &Repeated, count_name: String) -> Vec<Step> {
    let times = number_value(repeated.times);
    // "Which vendors did we pay more than twice? … the vendor, the number of payments and the
    // total paid": the count of the totals per that key is the one compared.
    let counted_per_key = steps.iter().position(|s| match s {
        Step::Aggregate { by, aggregations } => {
            by.len() == 1 && names_key(&by[0], &repeated.key) && aggregations.iter().any(|a| a.op == "count")
        }
        _ => false,
    });
    if let Some(at) = counted_per_key {
        let Step::Aggregate { aggregations, .. } = &mut steps[at] else { return steps };
        let count = aggregations.iter_mut().find(|a| a.op == "count").expect("a count");
        let name = count.name.get_or_insert(count_name).clone();
        let kept = Condition { field: Some(name), operator: repeated.operator, value: times, value2: None };
        steps.insert(at + 1, Step::Filter { conditions: vec![kept], exclude: false });
        return steps;
    }
    if steps.iter().any(|s| matches!(s, Step::Aggregate { .. } | Step::Duplicates { .. })) {
        return steps;
    }
    let ordered = |c: &Condition| matches!(c.operator, "gt" | "gte" | "lt" | "lte");
    let mut steps: Vec<Step> = steps
        .into_iter()
        .filter_map(|step| match step {
            Step::Filter { conditions, exclude } => {
                let kept: Vec<Condition> =
                    conditions.into_iter().filter(|c| !(ordered(c) && c.value == times)).collect();
                (!kept.is_empty()).then_some(Step::Filter { conditions: kept, exclude })
            }
            other => Some(other),
        })
        .collect();
    let said = |v: &str| {
        steps.iter().any(|s| match s {
            Step::Filter { conditions, .. } => {
                conditions.iter().any(|c| c.value.as_str().is_some_and(|x| x.eq_ignore_ascii_case(v)))
            }
            _ => false,
        })
    };
    if let Some(value) = repeated.value.as_deref().filter(|v| !said(v)) {
        let counted = Condition { field: None, operator: "eq", value: value.into(), value2: None };
        steps.insert(0, Step::Filter { conditions: vec![counted], exclude: false });
    }
    let after_filters = steps.iter().rposition(|s| matches!(s, Step::Filter { .. })).map_or(0, |i| i + 1);
    let count = Aggregation { op: "count", field: None, name: Some(count_name.clone()), when: Vec::new() };
    let kept = Condition { field: Some(count_name), operator: repeated.operator, value: times, value2: None };
    steps.insert(after_filters, Step::Filter { conditions: vec![kept], exclude: false });
    steps.insert(after_filters, Step::Aggregate { by: vec![repeated.key.clone()], aggregations: vec![count] });
    steps
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn keys_counted_a_number_of_times_are_read_in_both_languages() {
        let r = repeated("Test IDs with at least 2 FAIL results (2 or more counts).", Language::En).unwrap();
        assert_eq!((r.key.as_str(), r.operator, r.times, r.value.as_deref()), ("test id", "gte", 2.0, Some("FAIL")));
        let r = repeated("Which tests failed two or more times in nightly_runs.csv?", Language::En).unwrap();
        assert_eq!((r.key.as_str(), r.operator, r.times), ("test", "gte", 2.0));
        let r = repeated("List the vendors paid more than once", Language::En).unwrap();
        assert_eq!((r.key.as_str(), r.operator, r.times), ("vendor", "gt", 1.0));
        let r = repeated("結果がNGになった回数が2回以上のテストケースはどれですか", Language::Ja).unwrap();
        assert_eq!((r.key.as_str(), r.operator, r.times, r.value.as_deref()), ("テストケース", "gte", 2.0, Some("NG")));
        assert_eq!(repeated("Keep the rows over 2,000", Language::En), None);
    }

    #[test]
    fn the_count_replaces_a_condition_read_from_the_same_number() {
        let misread = Condition { field: Some("result".into()), operator: "gte", value: 2.into(), value2: None };
        let fail = Condition { field: Some("result".into()), operator: "eq", value: "FAIL".into(), value2: None };
        let steps = vec![Step::Filter { conditions: vec![misread, fail.clone()], exclude: false }];
        let r = Repeated { key: "test id".into(), operator: "gte", times: 2.0, value: Some("fail".into()) };
        let steps = with_counts(steps, &r, "failures".into());
        assert_eq!(steps.len(), 3, "{steps:?}");
        assert_eq!(steps[0], Step::Filter { conditions: vec![fail], exclude: false });
        let Step::Aggregate { by, aggregations } = &steps[1] else { panic!("{steps:?}") };
        assert_eq!((by.as_slice(), aggregations[0].op), (&["test id".to_owned()][..], "count"));
        let Step::Filter { conditions, .. } = &steps[2] else { panic!("{steps:?}") };
        assert_eq!(conditions[0].field.as_deref(), Some("failures"));
    }
}
