//! A rate of two counts per group, each count a column the text names and defines:
//! "pass_rate = passed / executed × 100" with "the executed tests (every result except
//! Skipped)" and "the passed ones (result Passed)"; 「NG率（NG件数÷実施件数×100）」 with
//! 「実施件数（結果がOKかNGのもの）」 and 「NG件数」 (the rows whose value is NG). Every count must be
//! read whole, or nothing is: a count read from half its words would be a plausible wrong
//! number.

use std::sync::LazyLock;

use regex::Regex;
use serde_json::Value;

use super::{Condition, Language};

/// The first part of a definition: up to the end of its sentence or an aside after a dash.
static FIRST_PART: LazyLock<Regex> =
    LazyLock::new(|| Regex::new(r"。|；|;|\. |\s[—–-]\s|—").expect("first part of a definition"));

/// "every row counts", "all bugs", "each run".
static EN_EVERY_ROW: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(
        r"(?i)^(?:every|all|each|any)\s+(?:of\s+the\s+)?[a-z]+(?:\s+counts?)?(?:\s+of\s+(?:the|that|its)\s+[a-z]+)?$",
    )
    .expect("every row")
});
/// 「その機能の行数」「全件」「すべての行」.
static JA_EVERY_ROW: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(r"^(?:(?:その|各)?[\p{Han}\p{Katakana}ー]{0,8}の)?(?:全|すべての|全ての)?(?:行数|件数|行|件|全件)$")
        .expect("every row")
});
/// "every result except Skipped", "all runs other than Blocked".
static EN_EXCEPT: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(
        r"(?i)^(?:every|all|each|any)\s+(?P<field>[a-z_]+)\s+(?:except|but|other than|apart from)\s+(?P<values>.+)$",
    )
    .expect("except")
});
/// 「未実施以外」「スキップを除く」.
static JA_EXCEPT: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(r"^(?:(?P<field>[\p{Han}\p{Katakana}ー]{1,8})が)?(?P<values>.+?)(?:以外|を除く|を除いた)(?:の(?:もの|行|行数|件数|件|数))?$")
        .expect("except")
});
/// "result Passed", "status Fixed or Verified", "outcome is FAIL".
static EN_FIELD: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(r"^(?P<field>result|status|outcome|state|verdict)(?:\s+(?:is|of|=))?\s+(?P<values>.+)$").expect("field")
});
/// 「結果がOK」「結果が「合格」」.
static JA_FIELD: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(r"^(?P<field>[\p{Han}\p{Katakana}ー]{1,8})(?:が|は|＝|=)(?P<values>.+)$").expect("field")
});
/// What a list of values is said to be: 「…のもの」「…の件数」「…の合計」, "… only".
static JA_OF_ROWS: LazyLock<Regex> =
    LazyLock::new(|| Regex::new(r"の(?:もの|行数|件数|行|件|合計|数)$|(?:の)?(?:件数|行数)$").expect("of rows"));
static EN_ONLY: LazyLock<Regex> =
    LazyLock::new(|| Regex::new(r"(?i)\s+(?:only|results?|runs?|rows?|tests?)$").expect("only"));
/// The words between values of a list.
static EN_BETWEEN: LazyLock<Regex> =
    LazyLock::new(|| Regex::new(r"(?i)\s*(?:\+|,|/|\bor\b|\band\b)\s*").expect("between values"));
static JA_BETWEEN: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(r"\s*(?:＋|\+|、|，|,|・|／|/|または|又は|もしくは|と|か|や)\s*").expect("between values")
});
/// A value as a list says it: one word ("Passed", "NG", 「不合格」), or two capitalised words
/// ("In Progress").
static EN_VALUE: LazyLock<Regex> =
    LazyLock::new(|| Regex::new(r"^(?:[A-Za-z][A-Za-z0-9_'-]*|[A-Z][a-z]+ [A-Z][a-z]+)$").expect("value"));
static JA_VALUE: LazyLock<Regex> =
    LazyLock::new(|| Regex::new(r"^[\p{Han}\p{Katakana}\p{Hiragana}ーA-Za-z0-9_-]{1,12}$").expect("value"));
/// Words of a Japanese count's name that say no value (「実施件数」 is not the rows whose value is
/// 実施).
const JA_NO_VALUE: &[&str] = &[
    "実施",
    "実行",
    "全",
    "総",
    "対象",
    "合計",
    "テスト",
    "ケース",
    "件",
    "行",
    "登録",
    "発生",
    "起票",
    "対応",
    "母数",
];

/// The rows the count `name` reads, from its definition in `text` (or, in Japanese, from its
/// name: 「NG件数」 the rows whose value is NG); no conditions: every row. `None` when the text
/// says nothing that can be read whole.
pub fn rows_counted(text: &str, name: &str, language: Language) -> Option<Vec<Condition>> {
    match definition(text, name, language) {
        Some(said) => rows_of_definition(said, language),
        None if language == Language::Ja => rows_by_name(name),
        None => None,
    }
}

/// What the text says `name` is: the brackets after it ("the executed tests (every result
/// except Skipped)", 「実施件数（OKとNGの合計）」) or the words after ＝ (「実施数＝合格＋不合格の件数」).
pub fn definition<'t>(text: &'t str, name: &str, language: Language) -> Option<&'t str> {
    let name = regex::escape(name);
    let pattern = match language {
        Language::En => {
            format!(r"(?i)\b{name}(?:\s+[a-z]+){{0,2}}\s*(?:\((?P<b>[^()]*)\)|=\s*(?P<e>[^,;.()=]*[^,;.()=\s]))")
        }
        Language::Ja => format!(r"{name}\s*(?:（(?P<b>[^（）]*)）|\((?P<p>[^()]*)\)|[＝=]\s*(?P<e>[^、。，,（(＝=]+))"),
    };
    let captures = Regex::new(&pattern).ok()?.captures(text)?;
    let said = ["b", "p", "e"].iter().find_map(|g| captures.name(g))?.as_str();
    // A rate's own formula ("passed / executed × 100") defines no count.
    (!said.contains(['÷', '/', '×', '*'])).then_some(said)
}

fn rows_of_definition(said: &str, language: Language) -> Option<Vec<Condition>> {
    let first = FIRST_PART.split(said).next().unwrap_or(said).trim();
    let first = first.trim_start_matches("the ").trim();
    match language {
        Language::En => {
            if EN_EVERY_ROW.is_match(first) {
                return Some(Vec::new());
            }
            if let Some(c) = EN_EXCEPT.captures(first) {
                return Some(listed(None, values(&c["values"], language)?, true));
            }
            let (field, list) = match EN_FIELD.captures(first) {
                Some(c) => (Some(c["field"].to_owned()), c.name("values").map_or("", |m| m.as_str())),
                None => (None, first),
            };
            Some(listed(field, values(list, language)?, false))
        }
        Language::Ja => {
            if JA_EVERY_ROW.is_match(first) {
                return Some(Vec::new());
            }
            if let Some(c) = JA_EXCEPT.captures(first) {
                let field = c.name("field").map(|f| f.as_str().to_owned());
                return Some(listed(field, values(&c["values"], language)?, true));
            }
            let list = JA_OF_ROWS.replace(first, "");
            let (field, list) = match JA_FIELD.captures(&list) {
                Some(c) => (Some(c["field"].to_owned()), c["values"].to_owned()),
                None => (None, list.into_owned()),
            };
            Some(listed(field, values(&list, language)?, false))
        }
    }
}

/// 「NG件数」「合格数」: the rows whose value is the name's word before 件数 or 数.
fn rows_by_name(name: &str) -> Option<Vec<Condition>> {
    let word = name.strip_suffix("件数").or_else(|| name.strip_suffix("数"))?;
    let word = word.strip_suffix('の').unwrap_or(word);
    let value = values(word, Language::Ja)?;
    (value.len() == 1 && !JA_NO_VALUE.contains(&value[0].as_str())).then(|| listed(None, value, false))
}

/// The values of a list ("PASS + FAIL", 「OKかNG」), each whole, or `None`.
fn values(list: &str, language: Language) -> Option<Vec<String>> {
    let list = match language {
        Language::En => EN_ONLY.replace(list.trim(), ""),
        Language::Ja => list.trim().into(),
    };
    let (between, value) = match language {
        Language::En => (&*EN_BETWEEN, &*EN_VALUE),
        Language::Ja => (&*JA_BETWEEN, &*JA_VALUE),
    };
    let quotes: &[char] = &['「', '」', '"', '“', '”', '\''];
    let said: Vec<String> = between
        .split(&list)
        .map(|v| v.trim().trim_matches(quotes).trim().to_owned())
        .filter(|v| !v.is_empty())
        .collect();
    (!said.is_empty() && said.iter().all(|v| value.is_match(v))).then_some(said)
}

/// The conditions a count's rows meet: the one value or any of several, or (`except`) none of
/// them (one condition each, as a filter's conditions all hold).
fn listed(field: Option<String>, mut values: Vec<String>, except: bool) -> Vec<Condition> {
    let condition = |operator, value| Condition { field: field.clone(), operator, value, value2: None };
    match (values.len(), except) {
        (_, true) => values.into_iter().map(|v| condition("ne", Value::from(v))).collect(),
        (1, false) => vec![condition("eq", Value::from(values.remove(0)))],
        (_, false) => vec![condition("in", Value::from(values))],
    }
}

/// Whether the text says the rate is out of 100: "× 100", "as a percentage", 「×100」「％」.
pub fn out_of_a_hundred(text: &str) -> bool {
    static HUNDRED: LazyLock<Regex> = LazyLock::new(|| {
        Regex::new(r"(?i)[×x*✕]\s*100(?:\D|$)|as a percent(?:age)?|\bpercent(?:age)?\b|%|％|パーセント")
            .expect("hundred")
    });
    HUNDRED.is_match(text)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn values_of(conditions: &[Condition]) -> Vec<(&'static str, Value)> {
        conditions.iter().map(|c| (c.operator, c.value.clone())).collect()
    }

    #[test]
    fn a_count_is_read_from_its_definition_in_either_language() {
        let ja = "・実行件数（その機能の行数。NGや保留も含む）\n・合格件数（結果がOKの行数）\n実施件数（OKとNGの合計）、実施数＝合格＋不合格の件数";
        assert_eq!(rows_counted(ja, "実行件数", Language::Ja), Some(Vec::new()));
        let ok = rows_counted(ja, "合格件数", Language::Ja).expect("read");
        assert_eq!((ok[0].field.as_deref(), values_of(&ok)), (Some("結果"), vec![("eq", Value::from("OK"))]));
        let run = rows_counted(ja, "実施件数", Language::Ja).expect("read");
        assert_eq!(values_of(&run), [("in", serde_json::json!(["OK", "NG"]))]);
        let done = rows_counted(ja, "実施数", Language::Ja).expect("read");
        assert_eq!(values_of(&done), [("in", serde_json::json!(["合格", "不合格"]))]);
        let en = "count the executed tests (every result except Skipped) and the passed ones (result Passed — Failed \
                  was executed), how many were opened (every row counts), runs (PASS + FAIL only), fixed (status Fixed \
                  or Verified - nothing else)";
        assert_eq!(
            values_of(&rows_counted(en, "executed", Language::En).expect("read")),
            [("ne", Value::from("Skipped"))]
        );
        assert_eq!(
            values_of(&rows_counted(en, "passed", Language::En).expect("read")),
            [("eq", Value::from("Passed"))]
        );
        assert_eq!(rows_counted(en, "opened", Language::En), Some(Vec::new()));
        let runs = rows_counted(en, "runs", Language::En).expect("read");
        assert_eq!(values_of(&runs), [("in", serde_json::json!(["PASS", "FAIL"]))]);
        let fixed = rows_counted(en, "fixed", Language::En).expect("read");
        assert_eq!(fixed[0].field.as_deref(), Some("status"));
        assert_eq!(values_of(&fixed), [("in", serde_json::json!(["Fixed", "Verified"]))]);
    }

    #[test]
    fn a_japanese_count_named_for_a_value_counts_that_value_and_nothing_else_is_guessed() {
        assert_eq!(values_of(&rows_counted("", "NG件数", Language::Ja).expect("read")), [("eq", Value::from("NG"))]);
        assert_eq!(values_of(&rows_counted("", "合格数", Language::Ja).expect("read")), [("eq", Value::from("合格"))]);
        // 「実施件数」 says no value; an English name with no definition says none either.
        assert_eq!(rows_counted("", "実施件数", Language::Ja), None);
        assert_eq!(rows_counted("failures / runs", "failures", Language::En), None);
        // A definition that is not a list of values is not read as one.
        assert_eq!(
            rows_counted("passed (the ones that went through after the retry was fixed)", "passed", Language::En),
            None
        );
    }

    #[test]
    fn a_rate_out_of_a_hundred_is_told_from_a_plain_ratio() {
        assert!(out_of_a_hundred("合格数÷実施数×100 を小数点以下1桁に"));
        assert!(out_of_a_hundred("fixed / opened x 100"));
        assert!(out_of_a_hundred("fail_rate = failures / runs as a percentage"));
        assert!(!out_of_a_hundred("ratio = cost / revenue, to 2 decimals"));
    }
}
