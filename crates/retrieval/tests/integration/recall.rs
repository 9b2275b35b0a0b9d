//! Recall of BM25 alone on the evaluation set (`eval/instructions.yaml`) at the default K.

use planwright_catalog::Catalog;
use planwright_retrieval::eval::{self, Lang, Summary};
use planwright_retrieval::{Retriever, SearchOptions};

#[test]
fn the_evaluation_set_is_large_bilingual_and_names_real_blocks() {
    let catalog = Catalog::bundled().unwrap();
    let cases = eval::cases().unwrap();
    assert!(cases.len() >= 40, "{} instructions", cases.len());
    let japanese = cases.iter().filter(|c| c.lang == Lang::Ja).count();
    assert!(
        japanese * 3 >= cases.len() && japanese * 3 <= cases.len() * 2,
        "{japanese} of {} in Japanese",
        cases.len()
    );
    for case in &cases {
        assert!(!case.needs.is_empty(), "{}", case.instruction);
        for id in &case.needs {
            assert!(catalog.get(id).is_some(), "{id} (in {:?}) is not a block", case.instruction);
        }
    }
}

#[test]
fn bm25_recall_at_the_default_k_is_at_least_0_9() {
    let retriever = Retriever::for_catalog(&Catalog::bundled().unwrap(), None);
    let options = SearchOptions::default();
    let cases = eval::cases().unwrap();
    let outcomes: Vec<_> =
        cases.iter().map(|case| (case, eval::evaluate(&retriever, case, &options).unwrap())).collect();
    for (case, outcome) in &outcomes {
        if !outcome.missed.is_empty() {
            println!("missed {:?} for {:?}", outcome.missed, case.instruction);
        }
    }
    let all = Summary::of(outcomes.iter().map(|(_, o)| o));
    for lang in [Lang::En, Lang::Ja] {
        let s = Summary::of(outcomes.iter().filter(|(c, _)| c.lang == lang).map(|(_, o)| o));
        println!(
            "{}: {} instructions, recall@K {:.3}, recall@5 {:.3}, mean results {:.1}",
            lang.name(),
            s.instructions,
            s.recall_at_k,
            s.recall_at_5,
            s.mean_results
        );
    }
    println!(
        "all: {} instructions, recall@K {:.3}, recall@5 {:.3}, mean results {:.1}",
        all.instructions, all.recall_at_k, all.recall_at_5, all.mean_results
    );
    assert!(all.recall_at_k >= 0.9, "recall@K {:.3}", all.recall_at_k);
}

#[test]
fn the_held_out_set_finds_the_needed_blocks_in_the_first_five() {
    let catalog = Catalog::bundled().unwrap();
    let retriever = Retriever::for_catalog(&catalog, None);
    let cases = eval::held_out_cases().unwrap();
    for lang in [Lang::En, Lang::Ja] {
        assert!(cases.iter().filter(|c| c.lang == lang).count() >= 20, "20 instructions in {}", lang.name());
    }
    for case in &cases {
        for id in &case.needs {
            assert!(catalog.get(id).is_some(), "{id} (in {:?}) is not a block", case.instruction);
        }
    }
    let options = SearchOptions::default();
    let outcomes: Vec<_> = cases.iter().map(|case| eval::evaluate(&retriever, case, &options).unwrap()).collect();
    let all = Summary::of(&outcomes);
    println!(
        "held-out: {} instructions, recall@K {:.3}, recall@5 {:.3}, mean results {:.1}",
        all.instructions, all.recall_at_k, all.recall_at_5, all.mean_results
    );
    assert!(all.recall_at_5 >= 0.9, "recall@5 {:.3}", all.recall_at_5);
}
