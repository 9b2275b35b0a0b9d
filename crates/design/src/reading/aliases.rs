//! Columns the person names by the file's own name: 「取引先（ファイルでは「発注先」列）」,
//! 「取引先はファイルの「仕入先名」のことです」, "the vendor (the file calls it Payee)". The word
//! is bound to that column, not guessed (`binding`).

use std::sync::LazyLock;

use regex::Regex;

/// 「X（ファイルでは「Y」列）」「X（ファイルの「Y」）」.
static JA_BRACKETED: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(r"(?P<w>[\p{Han}\p{Katakana}ーA-Za-z0-9_]{1,15})\s*[（(]\s*ファイル(?:では|上は|上の|の)\s*「(?P<c>[^」]{1,30})」\s*(?:列|の列|カラム)?\s*(?:のこと(?:です)?)?\s*[）)]")
        .expect("bracketed alias")
});
/// 「XはファイルのYのこと」「Xはファイルでは「Y」列です」.
static JA_SAID: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(r"(?P<w>[\p{Han}\p{Katakana}ーA-Za-z0-9_]{1,15})は\s*ファイル(?:では|上は|上の|の)\s*「(?P<c>[^」]{1,30})」\s*(?:列|の列|カラム)?\s*(?:のこと|です)")
        .expect("alias said")
});
/// "vendor (the file calls it Payee)", "vendor (column "Payee" in the file)", "vendor (called
/// Payee in the file)".
static EN: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(
        r#"(?i)\b(?P<w>[a-z][\w]*(?: [a-z][\w]*)?)\s*\(\s*(?:the (?:file|csv|sheet|data) calls it|(?:it's |it is )?(?:the )?column|called|named)\s+["'“]?(?P<c>[^"'”()]{1,30}?)["'”]?(?:\s+column)?(?:\s+in the (?:file|csv|sheet|data))?\s*\)"#,
    )
    .expect("alias")
});

/// "each cost center (from_cc)", 「部署（dept_code）」: a column's name as the file spells it
/// (with an underscore), in brackets after the words.
static SPELLED_IN_BRACKETS: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(r"(?i)(?P<w>\b[a-z][\w]*(?: [a-z][\w]*)?|[\p{Han}\p{Katakana}ー]{1,15})\s*[（(]\s*(?P<c>[a-z][a-z0-9]*(?:_[a-z0-9]+)+)\s*[）)]")
        .expect("column spelled in brackets")
});

/// Each word the text names a column by, with the column's name in the file.
pub fn column_aliases(text: &str) -> Vec<(String, String)> {
    let mut aliases: Vec<(String, String)> = Vec::new();
    for pattern in [&*JA_BRACKETED, &*JA_SAID, &*EN, &*SPELLED_IN_BRACKETS] {
        for c in pattern.captures_iter(text) {
            // "per vendor (…)": the word, not the preposition before it.
            let mut word = c["w"].trim();
            for lead in ["per ", "by ", "for ", "of ", "each ", "the "] {
                word = word.strip_prefix(lead).unwrap_or(word);
            }
            let word = word.to_owned();
            let column = c["c"].trim().to_owned();
            if !column.is_empty() && !aliases.iter().any(|(w, _)| *w == word) {
                aliases.push((word, column));
            }
        }
    }
    aliases
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_word_said_to_be_a_column_of_the_file_is_that_column() {
        let pairs = |text: &str| column_aliases(text);
        assert_eq!(pairs("取引先（ファイルでは「発注先」列）を重複なしで"), [("取引先".into(), "発注先".into())]);
        assert_eq!(pairs("（取引先はファイルの「仕入先名」のことです）"), [("取引先".into(), "仕入先名".into())]);
        assert_eq!(pairs("total per vendor (the file calls it Payee)"), [("vendor".into(), "Payee".into())]);
        assert_eq!(pairs("total moved out of each cost center (from_cc)"), [("cost center".into(), "from_cc".into())]);
        assert_eq!(pairs("部署（dept_code）ごとに合計"), [("部署".into(), "dept_code".into())]);
        assert!(pairs("the total (in USD)").is_empty());
        assert_eq!(
            pairs("by cost centre (column \"CC Code\" in the file)"),
            [("cost centre".into(), "CC Code".into())]
        );
        assert!(pairs("取引先（「発注先」とは別）").is_empty(), "no file said");
        assert!(pairs("total per vendor (largest first)").is_empty());
    }
}
