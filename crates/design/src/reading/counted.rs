//! Counts of the rows that meet a condition, each named as a column of the totals:
//! 「重要度高（重要度が「高」の件数）」「合格数＝結果が「合格」の件数」, "failed (the number of
//! runs with outcome failed)", "failed_runs = count of runs where outcome is failed". Each is a
//! count per group of only those rows (COUNTIFS), beside the others; the rows stay.

use std::ops::Range;
use std::sync::LazyLock;

use regex::Regex;

use super::{conditions, Condition, Language};

/// 「名前（条件の件数」「名前＝条件の件数」.
static JA_COUNT_OF: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(
        r"(?P<name>[\p{Han}\p{Katakana}ー々A-Za-z0-9_]{1,16})\s*(?:（|\(|＝|=|:|：)\s*(?P<condition>[^（）()、。＝=]{1,60}?の)(?:件数|数|個数|行数)",
    )
    .expect("ja count of")
});
/// "name (the number of …", "name = count of …", "name: number of …".
static EN_COUNT_OF: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(
        r"(?i)\b(?P<name>[a-z][a-z0-9_]*)\s*(?:\(|=|:)\s*(?:the\s+)?(?:number|count|#)\s+of\s+(?P<condition>[^().;:,]{1,80})",
    )
    .expect("en count of")
});

/// "runs with outcome failed", "tickets with a priority of High".
static EN_WITH_COLUMN: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(r"(?i)\bwith (?:an? |the )?(?P<field>[a-z_][a-z0-9_]*) (?:of |= ?)?(?P<value>[\w-]+)\s*$")
        .expect("with column")
});

/// A count of the rows that meet conditions, named as a column.
pub struct CountOfRows {
    /// Where the text says it.
    pub range: Range<usize>,
    pub name: String,
    pub when: Vec<Condition>,
}

/// Each count the text names, with the conditions of the rows it counts (a count of every
/// row, "runs (the number of runs)", is none).
pub fn counts_of_rows_that_meet(text: &str, language: Language) -> Vec<CountOfRows> {
    let (pattern, read): (&Regex, fn(&str) -> Vec<Condition>) = match language {
        Language::En => (&EN_COUNT_OF, conditions::english),
        Language::Ja => (&JA_COUNT_OF, conditions::japanese),
    };
    pattern
        .captures_iter(text)
        .filter_map(|c| {
            let mut when = read(&c["condition"]);
            // "runs with outcome failed": the word after "with" is the value's column.
            if let (Some(w), [only]) = (EN_WITH_COLUMN.captures(&c["condition"]), when.as_mut_slice()) {
                if only.field.is_none() && only.value.as_str().is_some_and(|v| v.eq_ignore_ascii_case(&w["value"])) {
                    only.field = Some(w["field"].to_owned());
                }
            }
            // A value alone ("the number of open ones") has no column to test: not read here.
            let range = c.get(0)?.range();
            (!when.is_empty() && when.iter().all(|w| w.field.is_some())).then(|| CountOfRows {
                range,
                name: c["name"].to_owned(),
                when,
            })
        })
        .collect()
}
