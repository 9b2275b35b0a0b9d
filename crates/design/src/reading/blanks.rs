//! Blank cells given a value: "where owner is blank write Unassigned", 「担当者が空欄のものは
//! 「未割当」と入れて」. Read before the rest, whose conditions would take "owner is blank" for
//! a filter, and blanked in the text (same length).

use std::ops::Range;
use std::sync::LazyLock;

use regex::Regex;

use super::slots;

/// A column whose blank cells become `value`, and where the text says so.
#[derive(Debug, Clone, PartialEq)]
pub struct BlankFilled {
    pub column: String,
    pub value: String,
    pub said_at: Range<usize>,
}

/// A value as written: quoted, or a word or two starting with a capital ("Unassigned", "N/A",
/// "No Owner").
const VALUE: &str = r#"(?:"(?P<quoted>[^"]{1,40})"|'(?P<single>[^']{1,40})'|(?P<word>[A-Z][\w/-]*(?: [A-Z][\w/-]*)?))"#;

static EN_WHERE_BLANK: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(&format!(
        r"(?i:\b(?:where|wherever|if|when|whenever|in case)\s+(?:the\s+|an?\s+)?(?P<column>[a-z_][\w]*(?: [a-z_][\w]*)?)(?:\s+(?:field|column|cell))?\s+(?:is|are)\s+(?:blank|empty|missing|not filled(?: in)?)\s*,?\s*(?:then\s+)?(?:please\s+)?(?:write|put|show|use|enter|say|display|fill (?:it |them )?(?:in )?with|set (?:it|them) to|make (?:it|them))\s+){VALUE}"
    ))
    .expect("pattern")
});

static EN_FILL_BLANK: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(&format!(
        r"(?i:\bfill\s+(?:in\s+)?(?:any\s+|the\s+|all\s+)?(?:blank|empty|missing)\s+(?P<column>[a-z_][\w]*)(?:\s+(?:cells|values|fields|ones))?\s+with\s+){VALUE}"
    ))
    .expect("pattern")
});

static EN_BLANK_BECOMES: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(&format!(
        r"(?i:\b(?:blank|empty|missing)\s+(?P<column>[a-z_][\w]*?)s?\s*(?:->|→|=>|as|should (?:be|show|read|say)|becomes?)\s+){VALUE}"
    ))
    .expect("pattern")
});

static JA_BLANK: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(
        r"(?P<column>[^\s、。,，「」『』()（）:：]{1,20}?)(?:が|の)(?:空欄|空白|未入力|空|ブランク)(?:の(?:もの|行|場合|とき|ところ|セル)|なら|であれば|になって(?:いる|る)(?:行|もの|セル|ところ)?(?:があるので|がありますので|があれば|は)?)?(?:、?(?:そこ|それ|その行|そのセル))?(?:は|には|に|を)?、?「(?P<value>[^」]{1,20})」(?:と|を|で)(?:入れ|記入|表示|埋め|書|出|し|設定|補|表記)",
    )
    .expect("pattern")
});

/// The blank cells the text gives a value, in the order said.
pub fn read(text: &str) -> Vec<BlankFilled> {
    let mut found: Vec<BlankFilled> = Vec::new();
    for pattern in [&*EN_WHERE_BLANK, &*EN_FILL_BLANK, &*EN_BLANK_BECOMES, &*JA_BLANK] {
        for c in pattern.captures_iter(text) {
            let whole = c.get(0).expect("the match");
            if found.iter().any(|f| f.said_at.start < whole.end() && whole.start() < f.said_at.end) {
                continue;
            }
            let value = ["quoted", "single", "word", "value"].iter().find_map(|name| c.name(name));
            let Some(value) = value.map(|v| v.as_str().trim().to_owned()).filter(|v| !v.is_empty()) else {
                continue;
            };
            let named = c.name("column").expect("a column");
            // A Japanese column is the noun back to a particle (「さらに担当者が」: 担当者).
            let (column, start) = if named.as_str().is_ascii() {
                let column = named.as_str().trim().trim_start_matches("the ");
                let column = [" field", " column", " cell"].iter().fold(column, |c, s| c.strip_suffix(s).unwrap_or(c));
                (column.trim().to_owned(), whole.start())
            } else {
                let Some(noun) = slots::japanese_noun_before(text, named.end()) else { continue };
                let start = named.end() - noun.len();
                (noun, start)
            };
            found.push(BlankFilled { column, value, said_at: start..slots::clause_end(text, whole.end()) });
        }
    }
    found.sort_by_key(|f| f.said_at.start);
    found
}

/// The text with what each says blanked (same length), so that no condition is read from it.
pub fn without(text: &str, filled: &[BlankFilled]) -> String {
    slots::blanked(text, filled.iter().map(|f| f.said_at.clone()))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn filled(text: &str) -> Vec<(String, String)> {
        read(text).into_iter().map(|f| (f.column, f.value)).collect()
    }

    #[test]
    fn blanks_are_filled_as_said_in_either_language() {
        let pair = |c: &str, v: &str| vec![(c.to_owned(), v.to_owned())];
        assert_eq!(filled("where owner is blank write Unassigned. cols a, b"), pair("owner", "Unassigned"));
        assert_eq!(filled("wherever cost_center is empty write UNASSIGNED."), pair("cost_center", "UNASSIGNED"));
        assert_eq!(filled("If the approver field is empty, show \"n/a\"."), pair("approver", "n/a"));
        assert_eq!(filled("Fill any blank region cells with Unknown"), pair("region", "Unknown"));
        assert_eq!(filled("blank owner -> Unassigned"), pair("owner", "Unassigned"));
        assert_eq!(filled("さらに担当者が空欄のものは「未割当」と入れてください。"), pair("担当者", "未割当"));
        assert_eq!(filled("部署の空欄は「不明」で埋めて"), pair("部署", "不明"));
        assert_eq!(
            filled("優先度が空欄になっている行があるので、そこは「中」で埋めてほしいです。"),
            pair("優先度", "中")
        );
        assert!(filled("where owner is blank, leave it out").is_empty(), "a blank said without a value keeps rows");
        assert!(filled("担当者が空欄のものは除外").is_empty());
    }

    #[test]
    fn what_a_fill_says_is_blanked_to_the_end_of_its_clause() {
        let text = "where owner is blank write Unassigned. sort by due";
        let found = read(text);
        let blanked = without(text, &found);
        assert_eq!(blanked.len(), text.len());
        assert_eq!(blanked.trim(), ". sort by due");
    }
}
