//! The instruction reader, the credential finder and the check for unused numbers on any text:
//! they never panic, keep within bounds, and what they return holds only what the text says.

use planwright_design::reading::{read_instruction, Step};
use planwright_design::redact_instruction;
use planwright_design::understanding::{column_lists, columns_said, unused_numbers};
use proptest::prelude::*;
use regex::Regex;

static PLACEHOLDER: std::sync::LazyLock<Regex> =
    std::sync::LazyLock::new(|| Regex::new(r"\{\{[A-Za-z0-9_]+\}\}").unwrap());

/// Text shaped like instructions: words of both languages, file names, numbers, URLs,
/// punctuation of both scripts, credentials, and arbitrary characters between them.
fn instruction_like() -> impl Strategy<Value = String> {
    let piece = prop_oneof![
        Just("Read ".to_owned()),
        Just("keep only the rows where amount is over ".to_owned()),
        Just("total per department ".to_owned()),
        Just("match on invoice_no ".to_owned()),
        Just("write ".to_owned()),
        Just("log in as acme with password ".to_owned()),
        Just("only need the columns a, b and ".to_owned()),
        Just("translate into Japanese ".to_owned()),
        Just("取引先ごとに合計し、".to_owned()),
        Just("金額が10万円以上の行だけ残す。".to_owned()),
        Just("突き合わせて".to_owned()),
        Just("パスワード：".to_owned()),
        Just("出力は".to_owned()),
        Just("https://example.com/api/v1 ".to_owned()),
        Just("find duplicates with the same vendor and same amount ".to_owned()),
        Just("sort by amount descending and keep the top 5 ".to_owned()),
        Just("the difference between billed and paid as gap ".to_owned()),
        Just("combine both files ".to_owned()),
        Just("同じ取引先で同じ金額の支払を探し、".to_owned()),
        Just("重複を除いて上位3件を".to_owned()),
        Just("請求額−入金額".to_owned()),
        Just("入金のない請求書".to_owned()),
        Just("add a Size column: High when Amount is over 5k, ".to_owned()),
        Just("Low when it is under 500 (".to_owned()),
        Just("Medium when amount is 10) ".to_owned()),
        Just("It should say Overdue when the due date is before October 31, 2026, and Open otherwise ".to_owned()),
        Just("金額が10万円以上なら「要承認」、それ以外は「不要」".to_owned()),
        Just("という列を追加".to_owned()),
        Just("between 2026-04-01 and ".to_owned()),
        Just("2026年4月1日〜".to_owned()),
        Just("10/1〜10/31".to_owned()),
        Just("July to September 2026 ".to_owned()),
        Just("where Paid doesn't match Invoiced ".to_owned()),
        Just("実績が予算を上回っていれば".to_owned()),
        Just("round the averages to 2 decimals ".to_owned()),
        Just("a Tax column that is 10% of Net ".to_owned()),
        Just("①".to_owned()),
        Just("(collections dated ".to_owned()),
        Just("in November 2026) ".to_owned()),
        Just("2026-11-03 ".to_owned()),
        Just("more than 0.5 either way ".to_owned()),
        Just("(Status = No-show) ".to_owned()),
        Just("ignore the runs marked Aborted ".to_owned()),
        Just("焼成料 = 点数 × 単価 ".to_owned()),
        Just("焼成方法とサイズ区分で引いて".to_owned()),
        "[ぁ-んァ-ン一-龥]{1,6}\\.(csv|xlsx)[のをで]",
        "[a-z_]{1,12}\\.(csv|xlsx|pdf|json|md|png)",
        "[0-9,.]{1,9}",
        "[ 、。,.;:?!（）「」/／]{1,3}",
        any::<String>(),
    ];
    prop::collection::vec(piece, 0..24).prop_map(|pieces| pieces.concat())
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 512, ..ProptestConfig::default() })]

    #[test]
    fn the_reader_never_panics_and_takes_file_names_from_the_text(text in instruction_like()) {
        let reading = read_instruction(&text);
        let normalised = planwright_design::reading::normalise(&text);
        for path in reading.sources.iter().filter_map(|s| s.path.as_deref()).chain(reading.outputs.iter().filter_map(|o| o.path.as_deref())) {
            prop_assert!(normalised.contains(path), "{path:?} is not in the text");
        }
        for step in &reading.steps {
            if let Step::Browser { start_url: Some(url), .. } = step {
                prop_assert!(normalised.contains(url.as_str()));
            }
        }
    }

    #[test]
    fn redaction_never_panics_and_no_value_stays_in_the_text(text in instruction_like()) {
        let redacted = redact_instruction(&text);
        for secret in &redacted.secrets {
            prop_assert!(!secret.value().is_empty());
            // Outside the placeholders (a value like `D` is also a letter of `{{LOGIN_PASSWORD}}`).
            let outside = PLACEHOLDER.replace_all(&redacted.text, " ");
            prop_assert!(!outside.contains(secret.value()), "{:?} left in {:?}", secret.name, redacted.text);
            let placeholder = format!("{{{{{}}}}}", secret.name);
            prop_assert!(redacted.text.contains(&placeholder), "{} missing", placeholder);
        }
    }

    #[test]
    fn any_characters_at_all_are_read_without_panic(text in any::<String>()) {
        let _ = read_instruction(&text);
        let _ = redact_instruction(&text);
    }

    /// The check for numbers said and used nowhere takes each one's words from the text: any
    /// text (letters whose lower case is longer included) gives phrases of the text, no panic.
    #[test]
    fn numbers_unused_by_a_plan_are_phrases_of_the_text(text in prop_oneof![instruction_like(), any::<String>()]) {
        let plan: planwright_plan::Plan =
            serde_yaml::from_str("apiVersion: planwright/v1\nid: p\nversion: 1.0.0\ngraph: []\n").unwrap();
        for phrase in unused_numbers(&text, &plan) {
            prop_assert!(text.contains(&phrase), "{phrase:?} is not in {text:?}");
        }
    }

    /// The count of columns an instruction says comes with words of the text, and is a count.
    #[test]
    fn columns_said_are_counted_by_words_of_the_text(text in prop_oneof![instruction_like(), any::<String>()]) {
        if let Some((said, columns)) = columns_said(&text) {
            prop_assert!(text.contains(&said), "{said:?} is not in {text:?}");
            prop_assert!(columns >= 1, "{said:?} counts {columns}");
        }
    }

    #[test]
    fn lists_of_columns_are_words_of_the_text_naming_three_columns_or_more(
        text in prop_oneof![instruction_like(), any::<String>()],
    ) {
        // Any word of three letters or more is a column of its own name.
        let column = |words: &str| (words.chars().count() >= 3 && !words.contains(char::is_whitespace)).then(|| words.to_owned());
        for (said, columns) in column_lists(&text, column) {
            prop_assert!(text.contains(&said), "{said:?} is not in {text:?}");
            prop_assert!(columns.len() >= 3, "{said:?} lists {columns:?}");
            let mut distinct = columns.clone();
            distinct.sort();
            distinct.dedup();
            prop_assert_eq!(distinct.len(), columns.len(), "a column twice in {:?}", said);
        }
    }
}
