//! The offline designer on its evaluation sets: each held-out set (the blind one, and the two
//! looked at after their first measurement) must give plans that validate and dry-run for at least 90 % of the instructions with a
//! mean node F1 of at least 0.85, and move every spelled-out credential out of the plan. Each
//! case's score is printed.

use std::path::Path;

use planwright_catalog::Catalog;
use planwright_design::eval::{self, Case, EvalSet, Score};
use planwright_design::{DesignEngine, DesignRequest};
use planwright_designs::{Designs, TemplateSpec};
use planwright_retrieval::Retriever;
use tokio_util::sync::CancellationToken;

fn library() -> Vec<TemplateSpec> {
    let designs = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../designs");
    Designs::new(designs).templates().unwrap().into_iter().filter_map(|f| f.spec.ok()).collect()
}

async fn scores(cases: &[Case]) -> Vec<Score> {
    let catalog = Catalog::bundled().unwrap();
    let retriever = Retriever::for_catalog(&catalog, None);
    let library = library();
    let engine = DesignEngine {
        catalog: &catalog,
        retriever: &retriever,
        library: &library,
        model: None,
        metrics: None,
        files: None,
        trial: None,
    };
    let mut scores = Vec::new();
    for case in cases {
        let request = DesignRequest { instruction: case.instruction.clone(), ..DesignRequest::default() };
        let generated = engine.generate(&request, &CancellationToken::new()).await.unwrap();
        let score = eval::score(case, &generated.plan, generated.valid);
        println!(
            "{:<40} valid {:<5} F1 {:.2} missing {:?} extra {:?} errors {:?}",
            case.id,
            score.valid,
            score.f1,
            score.missing,
            score.extra,
            generated
                .findings
                .iter()
                .filter(|f| f.is_error())
                .map(|f| format!("{} {}", f.code.as_str(), f.message))
                .collect::<Vec<_>>()
        );
        scores.push(score);
    }
    scores
}

fn summary(scores: &[Score]) -> (f64, f64) {
    let n = scores.len() as f64;
    (scores.iter().filter(|s| s.valid).count() as f64 / n, scores.iter().map(|s| s.f1).sum::<f64>() / n)
}

async fn check_held_out(set: EvalSet) {
    let cases = set.cases().unwrap();
    assert!(cases.len() >= 40, "{} has {} instructions", set.name(), cases.len());
    for lang in ["en", "ja"] {
        assert!(
            cases.iter().filter(|c| c.lang == lang).count() >= 20,
            "{}: fewer than 20 {lang} instructions",
            set.name()
        );
    }
    let scores = scores(&cases).await;
    let (valid, f1) = summary(&scores);
    println!("{}: valid {valid:.3}, mean F1 {f1:.3}", set.name());
    assert!(valid >= 0.9, "only {:.1} % of the {} instructions give a valid plan", valid * 100.0, set.name());
    assert!(f1 >= 0.85, "mean node F1 on {} is {f1:.3}", set.name());
    let leaked: Vec<&str> = scores.iter().filter(|s| !s.secrets_ok).map(|s| s.id.as_str()).collect();
    assert!(leaked.is_empty(), "credentials left in or not declared: {leaked:?}");
}

#[tokio::test]
async fn the_blind_set_gives_valid_plans_with_the_blocks_they_need() {
    check_held_out(EvalSet::Blind).await;
}

#[tokio::test]
async fn the_first_held_out_set_gives_valid_plans_with_the_blocks_they_need() {
    check_held_out(EvalSet::FirstHeldOut).await;
}

#[tokio::test]
async fn the_second_held_out_set_gives_valid_plans_with_the_blocks_they_need() {
    check_held_out(EvalSet::SecondHeldOut).await;
}

#[tokio::test]
async fn the_tuning_set_gives_valid_plans() {
    let scores = scores(&EvalSet::Tuning.cases().unwrap()).await;
    let (valid, f1) = summary(&scores);
    println!("tuning: valid {valid:.3}, mean F1 {f1:.3}");
    assert_eq!(valid, 1.0);
    assert!(f1 >= 0.9, "mean node F1 on the tuning set is {f1:.3}");
}
