//! `planwright blocks search` as other tools see it: the JSON contract, exit codes, messages.
//! Runs the real binary.

use crate::support;

use std::process::{Command, Output};

use planwright_llm_replay::{Endpoint, Match, ReplayServer, Reply, Script};
use serde_json::Value;
use support::{assert_exit, said};

/// The binary with no model configured (whatever this machine's environment says) and its own
/// data home.
fn planwright(args: &[&str]) -> Output {
    let home = tempfile::tempdir().unwrap();
    Command::new(env!("CARGO_BIN_EXE_planwright"))
        .args(args)
        .env_remove("PLANWRIGHT_BLOCK_SPECS")
        .env("PLANWRIGHT_LLM_PROVIDER", "offline")
        .env("PLANWRIGHT_HOME", home.path())
        .output()
        .expect("planwright runs")
}

fn json(output: &Output) -> Vec<Value> {
    serde_json::from_slice::<Value>(&output.stdout)
        .unwrap_or_else(|e| panic!("{e}: {}", String::from_utf8_lossy(&output.stdout)))
        .as_array()
        .expect("a JSON array")
        .clone()
}

#[test]
fn json_is_an_array_of_exactly_id_score_category_why_best_first() {
    let output = planwright(&["blocks", "search", "read the invoice list from Excel", "--format", "json"]);
    assert_exit(&output, 0);
    let hits = json(&output);
    assert!(!hits.is_empty());
    assert_eq!(hits[0]["id"], "excel.read_data");
    for hit in &hits {
        let keys: Vec<&str> = hit.as_object().unwrap().keys().map(String::as_str).collect();
        assert_eq!(keys, ["id", "score", "category", "why"]);
        assert!(hit["score"].as_f64().unwrap() > 0.0);
        assert_eq!(hit["id"].as_str().unwrap().split('.').next(), hit["category"].as_str());
        let why = hit["why"].as_array().unwrap();
        assert!(!why.is_empty() && why.iter().all(Value::is_string), "{hit}");
    }
    let scores: Vec<f64> = hits.iter().map(|h| h["score"].as_f64().unwrap()).collect();
    assert!(scores.windows(2).all(|w| w[0] >= w[1]), "{scores:?}");
}

#[test]
fn a_japanese_query_and_top_k_bound_each_category() {
    let output = planwright(&["blocks", "search", "ブラウザで画面を操作する", "--top-k", "5", "--format", "json"]);
    assert_exit(&output, 0);
    let hits = json(&output);
    assert!(hits.iter().any(|h| h["category"] == "browser"));
    assert!(hits.iter().filter(|h| h["category"] == "browser").count() <= 5);
    assert!(hits.len() <= 30);
}

#[test]
fn a_query_that_matches_nothing_prints_an_empty_array_and_exits_0() {
    let output = planwright(&["blocks", "search", "zzzqqq", "--format", "json"]);
    assert_exit(&output, 0);
    assert!(json(&output).is_empty());
}

#[test]
fn top_k_takes_any_k_from_1_to_30() {
    for k in ["1", "30"] {
        let output = planwright(&["blocks", "search", "excel", "--top-k", k, "--format", "json"]);
        assert_eq!(output.status.code(), Some(0), "--top-k {k}: {}", said(&output));
        let excel = json(&output).iter().filter(|h| h["category"] == "excel").count();
        assert!(excel >= 1 && excel <= k.parse().unwrap(), "--top-k {k}: {excel} excel blocks");
    }
    let one = json(&planwright(&["blocks", "search", "excel", "--top-k", "1", "--format", "json"]));
    assert_eq!(one.iter().filter(|h| h["category"] == "excel").count(), 1);
}

#[test]
fn top_k_outside_1_to_30_exits_2_with_a_message() {
    for k in ["0", "31", "-1", "six"] {
        let output = planwright(&["blocks", "search", "excel", &format!("--top-k={k}"), "--format", "json"]);
        assert_eq!(output.status.code(), Some(2), "--top-k {k}: {}", said(&output));
        assert!(output.stdout.is_empty(), "--top-k {k}");
        let stderr = String::from_utf8_lossy(&output.stderr);
        assert!(stderr.contains("--top-k"), "--top-k {k}: {stderr}");
    }
    let stderr =
        String::from_utf8_lossy(&planwright(&["blocks", "search", "excel", "--top-k", "31"]).stderr).into_owned();
    assert!(stderr.contains("between 1 and 30"), "{stderr}");
}

#[test]
fn text_output_is_a_table_with_the_method() {
    let output = planwright(&["blocks", "search", "スクリーンショットを撮る"]);
    assert_exit(&output, 0);
    let text = String::from_utf8_lossy(&output.stdout);
    let mut lines = text.lines();
    assert!(lines.next().unwrap().starts_with("rank  block"), "{text}");
    assert!(lines.next().unwrap().contains("browser.screenshot"), "{text}");
    assert!(text.contains("ranked by bm25, at most 6 per category"), "{text}");
}

#[test]
fn blocks_without_a_subcommand_still_lists_the_catalog() {
    let output = planwright(&["blocks", "--format", "json"]);
    assert_exit(&output, 0);
    assert!(json(&output).iter().any(|b| b["id"] == "excel.read_data" && b.get("inputs").is_some()));
    let text = planwright(&["blocks"]);
    assert_exit(&text, 0);
    assert!(String::from_utf8_lossy(&text.stdout).contains("blocks\n"));
}

#[tokio::test(flavor = "multi_thread")]
async fn with_an_embedding_model_configured_the_search_is_hybrid_and_caches_block_vectors() {
    let server = ReplayServer::start(Script::new().always(
        Match::embeddings(),
        Reply::embeddings_with(|text| vec![text.len() as f32, text.contains("screenshot") as u8 as f32, 1.0]),
    ))
    .await;
    let home = tempfile::tempdir().unwrap();
    let run = |format: &'static str| {
        let (base_url, home) = (server.base_url(), home.path().to_owned());
        tokio::task::spawn_blocking(move || {
            Command::new(env!("CARGO_BIN_EXE_planwright"))
                .args(["blocks", "search", "take a screenshot", "--format", format])
                .env_remove("PLANWRIGHT_BLOCK_SPECS")
                .env_remove("OPENAI_API_KEY")
                .env_remove("AZURE_OPENAI_API_KEY")
                .env("PLANWRIGHT_LLM_PROVIDER", "compatible")
                .env("OPENAI_BASE_URL", base_url)
                .env("PLANWRIGHT_EMBEDDING_MODEL", "replay-embed")
                .env("PLANWRIGHT_HOME", home)
                .output()
                .expect("planwright runs")
        })
    };
    let text = run("text").await.unwrap();
    assert_exit(&text, 0);
    assert!(
        String::from_utf8_lossy(&text.stdout).contains("ranked by hybrid"),
        "{}",
        String::from_utf8_lossy(&text.stdout)
    );
    assert!(home.path().join("embeddings.db").is_file());

    let output = run("json").await.unwrap();
    assert_exit(&output, 0);
    for hit in json(&output) {
        let keys: Vec<&str> = hit.as_object().unwrap().keys().map(String::as_str).collect();
        assert_eq!(keys, ["id", "score", "category", "why"]);
    }
    // First run: the blocks, then the query; second run: the query only (the blocks are cached).
    let inputs: Vec<usize> = server
        .requests()
        .iter()
        .filter(|r| r.endpoint() == Some(Endpoint::Embeddings))
        .map(|r| r.json().unwrap()["input"].as_array().map_or(1, Vec::len))
        .collect();
    assert_eq!(inputs.len(), 3, "{inputs:?}");
    assert!(inputs[0] > 1 && inputs[1] == 1 && inputs[2] == 1, "{inputs:?}");
}
