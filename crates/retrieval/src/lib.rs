//! Retrieval: which catalog blocks (or templates, or any [`Document`]) fit an instruction, so a
//! plan generator (or a person) chooses among a few candidates instead of all of them.
//!
//! BM25 over each block's id, title, tags, port names and description, in English and Japanese
//! (`tokenize`, `bm25`); with an embedding model, the query's nearest blocks by meaning too,
//! block vectors cached in SQLite (`embed_cache`), both rankings fused by reciprocal rank
//! (`fusion`). `search` applies the candidate rules: only blocks that matched, at most K per
//! category and 30 in all, pinned blocks always. `eval` holds the evaluation set and its
//! recall figures.
//!
//! Knows the catalog's specs and the model layer's port; nothing of plans, runs or any UI.

mod bm25;
mod document;
pub mod embed_cache;
pub mod eval;
mod fusion;
mod lexicon;
mod search;
pub mod tokenize;

use std::path::PathBuf;

pub use bm25::Field;
pub use document::Document;
pub use embed_cache::EmbedCache;
pub use fusion::RRF_K;
pub use search::{
    Embedder, Hit, Method, Retriever, SearchOptions, SearchResult, DEFAULT_TOP_K, MAX_RESULTS, TOP_K_RANGE,
};

#[derive(Debug, thiserror::Error)]
pub enum RetrievalError {
    #[error("--top-k must be between {} and {} (blocks per category), not {top_k}", TOP_K_RANGE.start(), TOP_K_RANGE.end())]
    TopKOutOfRange { top_k: usize },
    #[error("`{id}` is pinned, but there is no block or template of that id to search")]
    UnknownPinned { id: String },
    #[error("{count} blocks are pinned; at most {MAX_RESULTS} fit in a result")]
    TooManyPinned { count: usize },
    #[error("embedding cache {}: {source}", .path.display())]
    Cache { path: PathBuf, source: rusqlite::Error },
}
