//! BM25 search over the bundled catalog: ranking in both languages, the candidate rules,
//! pinned blocks, option errors.

use planwright_catalog::Catalog;
use planwright_retrieval::{Method, RetrievalError, Retriever, SearchOptions, SearchResult};

fn retriever() -> Retriever {
    Retriever::for_catalog(&Catalog::bundled().unwrap(), None)
}

fn search(query: &str) -> SearchResult {
    retriever().search_bm25(query, &SearchOptions::default()).unwrap()
}

fn ids(result: &SearchResult) -> Vec<&str> {
    result.hits.iter().map(|h| h.id.as_str()).collect()
}

#[test]
fn an_english_query_ranks_the_fitting_block_first() {
    assert_eq!(ids(&search("read the sheets of an Excel workbook"))[0], "excel.read_data");
    assert_eq!(ids(&search("take a screenshot of the page"))[0], "browser.screenshot");
    assert_eq!(ids(&search("reconcile payments with invoices"))[0], "transforms.join");
}

#[test]
fn a_japanese_query_ranks_the_fitting_block_first() {
    assert_eq!(ids(&search("エクセルのシートを読み込む"))[0], "excel.read_data");
    assert_eq!(ids(&search("入金消込"))[0], "transforms.join");
    assert_eq!(ids(&search("上長の承認を取る"))[0], "ui.confirmation");
}

#[test]
fn full_width_and_half_width_forms_match_their_usual_forms() {
    assert_eq!(ids(&search("ＣＳＶを読み込む"))[0], "file.read_csv");
    assert_eq!(ids(&search("ｽｸﾘｰﾝｼｮｯﾄ")), ids(&search("スクリーンショット")));
}

#[test]
fn why_names_the_query_words_and_fields_best_first() {
    let result = search("Invoices in Excel");
    let hit = &result.hits[0];
    assert_eq!(hit.id, "excel.read_data");
    assert_eq!(result.method, Method::Bm25);
    assert!(hit.why[0].starts_with("excel ("), "{:?}", hit.why);
    assert!(hit.why[0].contains("id"), "{:?}", hit.why);
    assert!(hit.why.iter().any(|w| w.starts_with("invoices (")), "{:?}", hit.why);
}

#[test]
fn only_blocks_that_matched_are_returned() {
    let result = search("screenshot");
    assert!(!result.hits.is_empty());
    assert!(result.hits.len() < Catalog::bundled().unwrap().len());
    assert!(result.hits.iter().all(|h| h.score > 0.0 && !h.why.is_empty()));
    assert!(search("zzzqqq").hits.is_empty());
}

#[test]
fn each_category_keeps_at_most_k() {
    // All six browser blocks match "browser"; K = 5 keeps five.
    let result = retriever().search_bm25("browser", &SearchOptions { top_k: 5, pinned: Vec::new() }).unwrap();
    assert_eq!(result.hits.iter().filter(|h| h.category == "browser").count(), 5);
    let result = retriever().search_bm25("browser", &SearchOptions { top_k: 6, pinned: Vec::new() }).unwrap();
    assert_eq!(result.hits.iter().filter(|h| h.category == "browser").count(), 6);
}

#[test]
fn pinned_blocks_are_always_included_and_flagged() {
    let options = SearchOptions { top_k: 5, pinned: vec!["browser.click".into(), "excel.write".into()] };
    let result = retriever().search_bm25("xlsx", &options).unwrap();
    let pinned: Vec<_> = result.hits.iter().filter(|h| h.pinned).collect();
    assert_eq!(pinned.len(), 2);
    let click = pinned.iter().find(|h| h.id == "browser.click").unwrap();
    assert_eq!(click.score, 0.0, "it matched nothing");
    assert_eq!(result.hits.last().unwrap().id, "browser.click", "best first: an unmatched pin comes last");
    let excel = pinned.iter().find(|h| h.id == "excel.write").unwrap();
    assert!(excel.score > 0.0 && !excel.why.is_empty(), "a matching pin keeps its score and why");
    assert_eq!(result.hits.iter().filter(|h| h.id == "excel.write").count(), 1);
}

#[test]
fn bad_options_are_errors() {
    let r = retriever();
    for top_k in [0, 31, 100] {
        let error = r.search_bm25("x", &SearchOptions { top_k, pinned: Vec::new() }).unwrap_err();
        assert!(matches!(error, RetrievalError::TopKOutOfRange { .. }));
        assert!(error.to_string().contains("between 1 and 30"), "{error}");
    }
    let error = r.search_bm25("x", &SearchOptions { top_k: 6, pinned: vec!["excel.nope".into()] }).unwrap_err();
    assert!(error.to_string().contains("excel.nope"), "{error}");
}

#[test]
fn a_query_without_searchable_words_finds_nothing_and_says_why() {
    for query in ["", "   ", "the and of", "これをしてください"] {
        let result = search(query);
        assert!(result.hits.is_empty(), "{query:?}");
        assert_eq!(result.warnings, ["the query has no searchable words"], "{query:?}");
    }
}
