//! Properties of the tokenizer and of search on arbitrary queries.

use std::collections::HashMap;
use std::sync::OnceLock;

use planwright_catalog::Catalog;
use planwright_retrieval::tokenize::tokenize;
use planwright_retrieval::{Retriever, SearchOptions, MAX_RESULTS};
use proptest::prelude::*;

fn retriever() -> &'static Retriever {
    static RETRIEVER: OnceLock<Retriever> = OnceLock::new();
    RETRIEVER.get_or_init(|| Retriever::for_catalog(&Catalog::bundled().unwrap(), None))
}

/// Queries that hit the index as well as arbitrary text: catalog words in both languages,
/// mixed with any Unicode.
fn query() -> impl Strategy<Value = String> {
    let words = prop::sample::select(vec![
        "invoice",
        "Excel",
        "CSV",
        "browser",
        "click",
        "table",
        "report",
        "API",
        "approval",
        "filter",
        "total",
        "請求書",
        "エクセル",
        "ブラウザ",
        "承認",
        "集計",
        "突き合わせ",
        "ＣＳＶ",
        "ｴｸｾﾙ",
        "読み込む",
    ]);
    prop_oneof![
        any::<String>(),
        prop::collection::vec(prop_oneof![words.prop_map(String::from), any::<String>()], 0..12)
            .prop_map(|parts| parts.join(" ")),
    ]
}

proptest! {
    #[test]
    fn tokenizing_any_text_gives_non_empty_tokens(text in any::<String>()) {
        for token in tokenize(&text) {
            prop_assert!(!token.term.is_empty());
            prop_assert!(!token.surface.is_empty());
        }
    }

    #[test]
    fn tokenizing_is_the_same_for_full_width_text(text in "[a-zA-Z0-9 ]{0,40}") {
        // Full-width forms of ASCII letters and digits are U+FF01.. = ASCII + 0xFEE0.
        let wide: String = text.chars().map(|c| if c == ' ' { c } else { char::from_u32(c as u32 + 0xFEE0).unwrap() }).collect();
        prop_assert_eq!(tokenize(&text), tokenize(&wide));
    }

    #[test]
    fn search_respects_the_limits_on_any_query(query in query(), top_k in 1usize..=30) {
        let result = retriever().search_bm25(&query, &SearchOptions { top_k, pinned: Vec::new() }).unwrap();
        prop_assert!(result.hits.len() <= MAX_RESULTS);
        let mut per_category: HashMap<&str, usize> = HashMap::new();
        for hit in &result.hits {
            *per_category.entry(&hit.category).or_default() += 1;
            prop_assert!(hit.score > 0.0 && hit.score.is_finite());
            prop_assert!(!hit.why.is_empty());
            prop_assert!(!hit.pinned);
        }
        prop_assert!(per_category.values().all(|&n| n <= top_k), "{:?}", per_category);
        prop_assert!(result.hits.windows(2).all(|w| w[0].score >= w[1].score));
    }

    #[test]
    fn out_of_range_k_is_always_refused(query in query(), top_k in prop_oneof![Just(0usize), 31usize..1000]) {
        let options = SearchOptions { top_k, pinned: Vec::new() };
        prop_assert!(retriever().search_bm25(&query, &options).is_err());
    }
}
