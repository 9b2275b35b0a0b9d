//! The embedding path end to end: the real OpenAI-compatible client from `planwright-llm`
//! against the replay server, the SQLite cache, reciprocal rank fusion, and the fallback to
//! BM25 when embeddings fail.

use std::collections::HashMap;
use std::path::Path;
use std::sync::Arc;

use planwright_catalog::Catalog;
use planwright_llm::{LlmClient, Settings};
use planwright_llm_replay::{Endpoint, Match, RecordedRequest, ReplayServer, Reply, Script};
use planwright_retrieval::{EmbedCache, Embedder, Method, Retriever, SearchOptions, RRF_K};
use tokio_util::sync::CancellationToken;

const QUERY: &str = "screenshot as evidence";

/// The query's neighbours by meaning, nearest first, with their weights in the query vector.
const NEAREST: [(&str, f32); 6] = [
    ("ui.confirmation", 0.9),
    ("transforms.join", 0.8),
    ("browser.screenshot", 0.7),
    ("report.write", 0.6),
    ("excel.write", 0.5),
    ("file.read_csv", 0.4),
];

fn ids() -> Vec<String> {
    Catalog::bundled().unwrap().blocks().map(|b| b.id.clone()).collect()
}

/// Deterministic embeddings: a block's text (it starts with its id line) is the unit vector of
/// its own dimension; any other text (the query) weighs the blocks of [`NEAREST`], so its
/// cosine with each block is that block's weight over the vector's norm.
fn embed(ids: &[String], text: &str) -> Vec<f32> {
    match ids.iter().position(|id| text.starts_with(&format!("{id}\n"))) {
        Some(i) => (0..ids.len()).map(|j| if i == j { 1.0 } else { 0.0 }).collect(),
        None => ids.iter().map(|id| NEAREST.iter().find(|(n, _)| n == id).map_or(0.0, |(_, w)| *w)).collect(),
    }
}

fn embeddings_script() -> Script {
    let ids = ids();
    Script::new().always(Match::embeddings(), Reply::embeddings_with(move |text| embed(&ids, text)))
}

/// The real client, configured as `planwright` would be for a compatible server, without
/// retries so failures show at once.
fn client(server: &ReplayServer, home: &Path) -> Arc<dyn LlmClient> {
    let env = [
        ("PLANWRIGHT_LLM_PROVIDER", "compatible".to_owned()),
        ("OPENAI_BASE_URL", server.base_url()),
        ("PLANWRIGHT_EMBEDDING_MODEL", "replay-embed".to_owned()),
        ("PLANWRIGHT_LLM_MAX_RETRIES", "0".to_owned()),
    ]
    .map(|(k, v)| (k.to_owned(), v));
    Settings::load_from(env, None, home).unwrap().client().unwrap().expect("a configured client")
}

fn retriever(client: Arc<dyn LlmClient>, model: &str, cache: &Path) -> Retriever {
    let embedder = Embedder::new(client, model, EmbedCache::open(cache).unwrap());
    Retriever::for_catalog(&Catalog::bundled().unwrap(), Some(embedder))
}

/// How many texts each embeddings request asked for, in order.
fn embedded_inputs(requests: &[RecordedRequest]) -> Vec<usize> {
    requests
        .iter()
        .filter(|r| r.endpoint() == Some(Endpoint::Embeddings))
        .map(|r| r.json().unwrap()["input"].as_array().map_or(1, Vec::len))
        .collect()
}

#[tokio::test]
async fn block_embeddings_are_cached_in_sqlite_and_only_the_query_is_embedded_again() {
    let server = ReplayServer::start(embeddings_script()).await;
    let home = tempfile::tempdir().unwrap();
    let cache = home.path().join("embeddings.db");
    let blocks = ids().len();
    let cancel = CancellationToken::new();
    let options = SearchOptions::default();

    let first = retriever(client(&server, home.path()), "replay-embed", &cache);
    assert_eq!(first.search(QUERY, &options, &cancel).await.unwrap().method, Method::Hybrid);
    assert_eq!(embedded_inputs(&server.requests()), [blocks, 1], "every block once, then the query");
    assert_eq!(server.requests()[0].model().as_deref(), Some("replay-embed"));

    first.search("another query", &options, &cancel).await.unwrap();
    assert_eq!(embedded_inputs(&server.requests()), [blocks, 1, 1], "a second search embeds only its query");

    // A new retriever (a new process) on the same file reads the blocks from SQLite.
    let second = retriever(client(&server, home.path()), "replay-embed", &cache);
    assert_eq!(second.search(QUERY, &options, &cancel).await.unwrap().method, Method::Hybrid);
    assert_eq!(embedded_inputs(&server.requests()), [blocks, 1, 1, 1], "no block-embedding request");

    // Another model never reads this model's vectors.
    let other = retriever(client(&server, home.path()), "another-model", &cache);
    other.search(QUERY, &options, &cancel).await.unwrap();
    assert_eq!(embedded_inputs(&server.requests()), [blocks, 1, 1, 1, blocks, 1]);
}

#[tokio::test]
async fn hybrid_ranking_is_the_reciprocal_rank_fusion_of_bm25_and_the_nearest_blocks() {
    let server = ReplayServer::start(embeddings_script()).await;
    let home = tempfile::tempdir().unwrap();
    let hybrid = retriever(client(&server, home.path()), "replay-embed", &home.path().join("embeddings.db"));
    let options = SearchOptions::default();
    let result = hybrid.search(QUERY, &options, &CancellationToken::new()).await.unwrap();
    assert_eq!(result.method, Method::Hybrid);
    assert!(result.warnings.is_empty(), "{:?}", result.warnings);

    // The expectation, computed apart: BM25's ranking (no category reaches K here, so it is
    // the full ranking) and NEAREST, each block scoring Σ 1 / (60 + rank).
    let lexical = Retriever::for_catalog(&Catalog::bundled().unwrap(), None).search_bm25(QUERY, &options).unwrap();
    assert!(lexical.hits.len() < options.top_k, "{} BM25 hits", lexical.hits.len());
    let mut expected: HashMap<String, f64> = HashMap::new();
    let semantic = NEAREST.iter().map(|(id, _)| id.to_string());
    for ranking in [lexical.hits.iter().map(|h| h.id.clone()).collect::<Vec<_>>(), semantic.collect()] {
        for (rank, id) in ranking.into_iter().enumerate() {
            *expected.entry(id).or_default() += 1.0 / (RRF_K + rank as f64 + 1.0);
        }
    }
    let got: HashMap<String, f64> = result.hits.iter().map(|h| (h.id.clone(), h.score)).collect();
    assert_eq!(got.len(), expected.len(), "{got:?} vs {expected:?}");
    for (id, score) in &expected {
        assert!((got[id] - score).abs() < 1e-12, "{id}: {} vs {score}", got[id]);
    }
    assert!(result.hits.windows(2).all(|w| w[0].score >= w[1].score));

    // browser.screenshot is in both lists and beats ui.confirmation, first by meaning only.
    assert_eq!(result.hits[0].id, "browser.screenshot");
    assert!(result.hits[0].why[0].starts_with("screenshot ("), "{:?}", result.hits[0].why);
    assert!(result.hits[0].why.last().unwrap().starts_with("meaning (cosine"), "{:?}", result.hits[0].why);
    let confirmation = result.hits.iter().find(|h| h.id == "ui.confirmation").unwrap();
    assert_eq!(confirmation.why.len(), 1, "{:?}", confirmation.why);
    assert!(confirmation.why[0].starts_with("meaning (cosine 0."), "{:?}", confirmation.why);
}

#[tokio::test]
async fn a_failing_embedding_call_falls_back_to_bm25_with_a_warning_and_recovers() {
    let server = ReplayServer::start(Script::new().then(Reply::error(503, "embedding service down")).always(
        Match::embeddings(),
        Reply::embeddings_with({
            let ids = ids();
            move |text| embed(&ids, text)
        }),
    ))
    .await;
    let home = tempfile::tempdir().unwrap();
    let hybrid = retriever(client(&server, home.path()), "replay-embed", &home.path().join("embeddings.db"));
    let options = SearchOptions::default();
    let cancel = CancellationToken::new();
    let lexical = Retriever::for_catalog(&Catalog::bundled().unwrap(), None).search_bm25(QUERY, &options).unwrap();

    let fallen_back = hybrid.search(QUERY, &options, &cancel).await.unwrap();
    assert_eq!(fallen_back.method, Method::Bm25);
    assert_eq!(fallen_back.hits, lexical.hits);
    assert_eq!(fallen_back.warnings.len(), 1);
    assert!(fallen_back.warnings[0].starts_with("embeddings unavailable, ranked by BM25 alone"), "{:?}", fallen_back);
    assert!(fallen_back.warnings[0].contains("503"), "{:?}", fallen_back.warnings);

    // The failure is not cached: the next search embeds the blocks and is hybrid.
    assert_eq!(hybrid.search(QUERY, &options, &cancel).await.unwrap().method, Method::Hybrid);
}

#[tokio::test]
async fn a_wrong_number_of_vectors_or_no_server_falls_back_too() {
    let server =
        ReplayServer::start(Script::new().always(Match::embeddings(), Reply::embeddings(vec![vec![1.0, 0.0]]))).await;
    let home = tempfile::tempdir().unwrap();
    let options = SearchOptions::default();
    let cancel = CancellationToken::new();
    let short = retriever(client(&server, home.path()), "replay-embed", &home.path().join("a.db"));
    let result = short.search(QUERY, &options, &cancel).await.unwrap();
    assert_eq!(result.method, Method::Bm25);
    assert_eq!(result.warnings.len(), 1, "{:?}", result.warnings);
    assert!(result.warnings[0].starts_with("embeddings unavailable"), "{:?}", result.warnings);

    let gone = client(&server, home.path());
    drop(server);
    let unreachable = retriever(gone, "replay-embed", &home.path().join("b.db"));
    let result = unreachable.search(QUERY, &options, &cancel).await.unwrap();
    assert_eq!(result.method, Method::Bm25);
    assert!(!result.hits.is_empty());
    assert_eq!(result.warnings.len(), 1, "{:?}", result.warnings);
}

#[tokio::test]
async fn option_errors_are_still_errors_with_embeddings() {
    let server = ReplayServer::start(embeddings_script()).await;
    let home = tempfile::tempdir().unwrap();
    let hybrid = retriever(client(&server, home.path()), "replay-embed", &home.path().join("embeddings.db"));
    let options = SearchOptions { top_k: 31, pinned: Vec::new() };
    assert!(hybrid.search(QUERY, &options, &CancellationToken::new()).await.is_err());
    assert!(server.requests().is_empty(), "nothing is embedded for a refused search");
}
