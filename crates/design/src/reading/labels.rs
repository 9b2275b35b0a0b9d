//! A column whose value depends on a condition, as people ask for it: "add a column called
//! Aging: Overdue when the due date is before October 31, 2026, and Open otherwise", "mark it
//! High if the amount is over 1,000, otherwise Low", 「金額が10万円以上なら「要承認」、それ以外は
//! 「不要」」. Each case's condition is read as a filter's ([`super::conditions`]); what a case gives
//! is taken as written.

use std::ops::Range;
use std::sync::LazyLock;

use regex::Regex;

use super::{conditions, Condition, Language, Step};

fn re(pattern: &str) -> Regex {
    Regex::new(pattern).expect("label pattern")
}

/// A value a case gives: quoted, or one or two words.
const EN_VALUE: &str = r#"(?:"[^"]{1,40}"|'[^']{1,40}'|“[^”]{1,40}”|[a-z][\w-]*(?: [a-z][\w-]*)?)"#;

/// "say Overdue when …, and Open otherwise", "mark it High if …, otherwise Low", "a flag column:
/// "Over" if …, otherwise "OK"".
static EN_THEN_WHEN: LazyLock<Regex> = LazyLock::new(|| {
    re(&format!(
        r"\b(?:say|says|read|reads|show|shows|be|display|put|write|mark(?:ed)?|flag(?:ged)?|label(?:led)?|tag(?:ged)?|set(?: it)? to|column:)(?: (?:it|them|the row|each row|each one))?(?: as)?\s+(?P<then>{EN_VALUE})\s+(?:when|if|whenever|where)\s+(?P<cond>[^;?!]+?)[,;]?\s+(?:and\s+|or\s+|but\s+)?(?:(?P<else>{EN_VALUE})\s+(?:otherwise|for (?:the rest|everything else|all (?:the )?others))|(?:otherwise|else|if not)[,:]?\s+(?:(?:say|put|write|mark it|it should say|it says|show|be|use)\s+)?(?P<else2>{EN_VALUE}))"
    ))
});

/// "if the amount is over 1,000, mark it High, otherwise Low".
static EN_WHEN_THEN: LazyLock<Regex> = LazyLock::new(|| {
    re(&format!(
        r"\b(?:if|when)\s+(?P<cond>[^;?!]+?),\s+(?:then\s+)?(?:say|put|write|mark(?: it| the row)?(?: as)?|flag(?: it)?(?: as)?|label(?: it)?(?: as)?|set(?: it)? to|it should say|it says)\s+(?P<then>{EN_VALUE})[,;]?\s+(?:and\s+)?(?:otherwise|else|if not)[,:]?\s+(?:(?:say|put|write|mark it|it should say|show|use)\s+)?(?P<else>{EN_VALUE})"
    ))
});

/// "a column called Aging", "a new column named Priority".
static EN_NAME_CALLED: LazyLock<Regex> =
    LazyLock::new(|| re(r#"\bcolumn (?:called|named|titled) ["'“]?(?P<name>[a-z][\w-]*(?: [a-z][\w-]*)?)["'”]?"#));
/// "add an Aging column".
static EN_NAME_BEFORE: LazyLock<Regex> = LazyLock::new(|| {
    re(r#"\b(?:add|create|make|insert)\s+(?:a |an )?(?:new )?["'“]?(?P<name>[a-z][\w-]*)["'”]? column"#)
});

/// One case of a Japanese label: 「金額が10万円以上なら「要承認」」, 「10万円未満の場合は不要」.
static JA_CASE: LazyLock<Regex> = LazyLock::new(|| {
    re(
        r"(?P<cond>[^、。,]+?)(?:ならば|なら|の場合は|の場合|場合は|のときは|のとき|であれば|だったら|いれば|ければ|れば|は)\s*「?(?P<then>[^、。,「」\s]{1,20}?)」?\s*(?:と|を|に|、|,|。|$)",
    )
});
/// The value when no case holds: 「それ以外は「不要」」, 「そうでなければ正常」.
static JA_ELSE: LazyLock<Regex> = LazyLock::new(|| {
    re(
        r"(?:それ以外(?:は|なら|の場合は|の行は)?|そうでなければ|そうでない場合は|以外は|残りは)\s*「?(?P<else>[^、。,「」\s]{1,20}?)」?\s*(?:と|を|に|、|,|。|で|$)",
    )
});
/// 「「承認区分」という列」, 「承認区分列を追加」, 「列名は承認区分」.
static JA_NAME: LazyLock<Regex> = LazyLock::new(|| {
    re(
        r"「(?P<a>[^」]{1,20})」という(?:列|項目|欄)|(?P<b>[^、。をがはでと\s「」・]{1,16}?)という(?:列|項目|欄)|列名(?:は|を)「?(?P<c>[^、。「」\s]{1,16}?)」?(?:と|に|で|、|。|$)|(?P<d>[^、。をがはでと\s「」・に]{1,16})列を(?:追加|作|足)",
    )
});

/// The label column the text asks for and the span of text that asks for it (its clauses say
/// nothing else), or `None`.
pub fn read(text: &str, language: Language) -> Option<(Range<usize>, Step)> {
    match language {
        Language::En => english(text),
        Language::Ja => japanese(text),
    }
}

fn english(text: &str) -> Option<(Range<usize>, Step)> {
    if let Some(cases) = english_cases(text) {
        return Some(cases);
    }
    let lower = text.to_ascii_lowercase();
    let c = EN_THEN_WHEN.captures(&lower).or_else(|| EN_WHEN_THEN.captures(&lower))?;
    let said = |group: &str| c.name(group).map(|m| unquote(&text[m.range()]));
    let then = said("then")?;
    let otherwise = said("else").or_else(|| said("else2"));
    let cond = c.name("cond")?;
    let when = whole_subject(&text[cond.range()], conditions::english(&text[cond.range()]));
    if when.is_empty() || [Some(&then), otherwise.as_ref()].into_iter().flatten().any(|v| is_filler(v)) {
        return None;
    }
    let whole = c.get(0)?;
    let name = column_named(&lower);
    let start = name.map_or(whole.start(), |n| n.start().min(whole.start()));
    let name = name.map_or_else(|| "Flag".to_owned(), |n| unquote(&text[n.range()]));
    let step = Step::Label { name, cases: vec![(when, then)], otherwise };
    Some((start..with_parenthesis(text, whole.end()), step))
}

/// "Days to Pay is more than 30": the column a case tests is all its subject says, when its
/// condition was read with the subject's last word only ("pay").
fn whole_subject(cond: &str, mut when: Vec<Condition>) -> Vec<Condition> {
    let Some(c) = EN_SUBJECT.captures(cond) else { return when };
    let subject = c["subject"].trim();
    for condition in &mut when {
        let last_word = condition.field.as_deref().is_some_and(|f| {
            f.len() < subject.len() && subject.to_ascii_lowercase().ends_with(&format!(" {}", f.to_ascii_lowercase()))
        });
        if last_word {
            condition.field = Some(subject.to_owned());
        }
    }
    when
}

static EN_SUBJECT: LazyLock<Regex> =
    LazyLock::new(|| re(r"^\s*(?:the\s+)?(?P<subject>[A-Za-z_][\w]*(?: [A-Za-z_][\w]*){1,3}?) (?:is|are) "));

/// Where the text names the new column ("a column called Aging", "add an Aging column").
fn column_named(lower: &str) -> Option<regex::Match<'_>> {
    EN_NAME_CALLED
        .captures(lower)
        .or_else(|| EN_NAME_BEFORE.captures(lower))
        .and_then(|n| n.name("name"))
        .filter(|n| !matches!(n.as_str(), "a" | "an" | "the" | "new" | "one"))
}

/// One case of an English list of cases: "High when Amount is over 5k", "'Late' if …".
static EN_CASE: LazyLock<Regex> = LazyLock::new(|| {
    re(
        r#"(?P<then>"[^"]{1,40}"|'[^']{1,40}'|“[^”]{1,40}”|[A-Z][\w-]*(?: [A-Z][\w-]*)?) (?:when|if|for) (?P<cond>[^,;.()]+)"#,
    )
});

/// "add a Size column: High when Amount is over 5k, Medium when it is between 500 and 5k, Low
/// when it is under 500": two or more cases in a row, each naming its value first (a case
/// without its column tests the first's).
fn english_cases(text: &str) -> Option<(Range<usize>, Step)> {
    let lower = text.to_ascii_lowercase();
    let name = column_named(&lower)?;
    let mut cases: Vec<(Vec<Condition>, String)> = Vec::new();
    let mut end = name.end();
    for c in EN_CASE.captures_iter(&text[name.end()..]) {
        let whole = c.get(0)?;
        // A case inside the brackets that explain the case before is part of that explanation.
        let Some(gap) = text.get(end..name.end() + whole.start()) else { continue };
        // The cases follow one another: only punctuation, words in brackets, "and" between.
        let between = gap.trim_matches(|ch: char| ch == ' ' || ch == ',' || ch == ';' || ch == ':' || ch == '-');
        let joined = between.is_empty()
            || between.eq_ignore_ascii_case("and")
            || between.eq_ignore_ascii_case("or")
            || between.starts_with('(') && between.ends_with(')');
        if !cases.is_empty() && !joined {
            break;
        }
        let mut when = conditions::english(&c["cond"]);
        let first_field = cases.first().and_then(|(w, _)| w.first()).and_then(|c| c.field.clone());
        for condition in &mut when {
            if condition.field.as_deref().is_none_or(|f| matches!(f.to_ascii_lowercase().as_str(), "it" | "they")) {
                condition.field.clone_from(&first_field);
            }
        }
        let then = unquote(&c["then"]);
        if when.is_empty() || is_filler(&then) {
            break;
        }
        cases.push((when, then));
        end = with_parenthesis(text, name.end() + whole.end());
    }
    if cases.len() < 2 {
        return None;
    }
    let step = Step::Label { name: unquote(&text[name.range()]), cases, otherwise: None };
    Some((name.start()..end, step))
}

fn japanese(text: &str) -> Option<(Range<usize>, Step)> {
    let otherwise = JA_ELSE.captures(text);
    let mut cases: Vec<(Vec<Condition>, String)> = Vec::new();
    let mut span: Option<Range<usize>> = None;
    for c in JA_CASE.captures_iter(text) {
        let (cond, then) = (c.name("cond")?, c.name("then")?);
        if otherwise.as_ref().is_some_and(|o| o.get(0).is_some_and(|m| m.start() <= cond.start())) {
            break;
        }
        let mut when = conditions::japanese(cond.as_str());
        if when.is_empty() || is_filler(then.as_str()) {
            continue;
        }
        // 「10万円以上なら要承認、10万円未満は不要」: a case without its column tests the first's.
        let first_field = cases.first().and_then(|(w, _)| w.first()).and_then(|c| c.field.clone());
        for condition in &mut when {
            if condition.field.is_none() {
                condition.field.clone_from(&first_field);
            }
        }
        cases.push((when, then.as_str().to_owned()));
        let m = c.get(0)?;
        span = Some(span.map_or(m.range(), |s| s.start..m.end()));
    }
    let span = span?;
    let otherwise = otherwise.filter(|o| o.get(0).is_some_and(|m| m.start() >= span.end.saturating_sub(3)));
    if otherwise.is_none() && cases.len() < 2 {
        return None;
    }
    let end = otherwise.as_ref().and_then(|o| o.get(0)).map_or(span.end, |m| m.end());
    let name = JA_NAME.captures(text).and_then(|n| n.name("a").or(n.name("b")).or(n.name("c")).or(n.name("d")));
    // The name may follow the cases (「…と入れる判定の列を追加」): the span covers it too.
    let start = name.map_or(span.start, |n| n.start().min(span.start));
    let end = name.filter(|n| n.start() >= end).map_or(end, |n| n.end());
    let name = name.map_or_else(|| "区分".to_owned(), |n| noun_at_end(n.as_str().trim_end_matches('の')));
    let otherwise = otherwise.and_then(|o| o.name("else").map(|m| m.as_str().to_owned()));
    Some((start..end, Step::Label { name, cases, otherwise }))
}

/// The noun closing a phrase: 「入れる判定」 → 「判定」 (no kana verb before the name).
fn noun_at_end(phrase: &str) -> String {
    let hiragana = |c: char| matches!(c, '\u{3041}'..='\u{309f}');
    let noun: String = phrase.chars().rev().take_while(|c| !hiragana(*c)).collect();
    let noun: String = noun.chars().rev().collect();
    if noun.is_empty() {
        phrase.to_owned()
    } else {
        noun
    }
}

/// The end of a parenthesis right after `end` ("… Open otherwise (so the 31st itself is
/// Open)"), which only explains the cases; otherwise `end`.
fn with_parenthesis(text: &str, end: usize) -> usize {
    let rest = &text[end..];
    let trimmed = rest.trim_start();
    if !trimmed.starts_with('(') {
        return end;
    }
    let open = end + (rest.len() - trimmed.len());
    text[open..].find(')').map_or(end, |close| open + close + 1)
}

fn unquote(value: &str) -> String {
    value.trim().trim_matches(['"', '\'', '“', '”', '「', '」']).trim().to_owned()
}

/// Words a value is never: "it", "the row", 「それ」, and what is done to rows (「10万円以上は
/// 残して、5万円未満は除外」 keeps and leaves out rows; it labels none).
fn is_filler(value: &str) -> bool {
    const DONE_TO_ROWS: [&str; 9] = ["残", "除", "削除", "抽出", "抜き出", "出力", "保存", "外し", "外す"];
    matches!(
        value.to_ascii_lowercase().as_str(),
        "it" | "them" | "the" | "a" | "an" | "that" | "this" | "それ" | "これ"
    ) || DONE_TO_ROWS.iter().any(|w| value.contains(w))
        || value.ends_with(['て', 'で', 'る'])
}
