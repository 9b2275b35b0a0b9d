//! The retriever: an index over documents (the catalog's blocks, templates), the search, and the
//! candidate rules.
//!
//! Candidates are the documents that matched something: at least one query term (BM25) or, with
//! embeddings, one of the query's nearest blocks by meaning. Without that rule "top K per
//! category" would return nearly the whole catalog — it has fewer blocks per category than K —
//! and recall would mean nothing. From the candidates, best first: at most K per category, at
//! most [`MAX_RESULTS`] in all, and every pinned block whatever its score.

use std::collections::{HashMap, HashSet};
use std::ops::RangeInclusive;
use std::sync::Arc;

use planwright_catalog::Catalog;
use planwright_llm::LlmClient;
use serde::Serialize;
use tokio::sync::OnceCell;
use tokio_util::sync::CancellationToken;
use tracing::Instrument;

use crate::bm25::{Bm25Index, FieldTerms, Scored};
use crate::document::Document;
use crate::embed_cache::EmbedCache;
use crate::fusion::reciprocal_rank_fusion;
use crate::lexicon::Lexicon;
use crate::tokenize::{tokenize, Token};
use crate::RetrievalError;

pub const DEFAULT_TOP_K: usize = 6;
/// Blocks per category a search may ask for: from one to every result. A design asks for
/// [`DEFAULT_TOP_K`] (seed 002 finds 5 to 8 enough to choose from without drowning a prompt).
pub const TOP_K_RANGE: RangeInclusive<usize> = 1..=MAX_RESULTS;
/// The most blocks a search returns, pinned ones included.
pub const MAX_RESULTS: usize = 30;

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SearchOptions {
    /// Blocks per category, within [`TOP_K_RANGE`].
    pub top_k: usize,
    /// Block ids always in the result (the person pinned them).
    pub pinned: Vec<String>,
}

impl Default for SearchOptions {
    fn default() -> SearchOptions {
        SearchOptions { top_k: DEFAULT_TOP_K, pinned: Vec::new() }
    }
}

/// How the ranking was made.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Method {
    Bm25,
    /// BM25 and embeddings, fused by reciprocal rank.
    Hybrid,
}

impl Method {
    pub fn name(self) -> &'static str {
        match self {
            Method::Bm25 => "bm25",
            Method::Hybrid => "hybrid",
        }
    }
}

/// One retrieved block.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Hit {
    pub id: String,
    /// BM25 score, or the fused reciprocal-rank score in a hybrid search; 0 for a pinned block
    /// that matched nothing.
    pub score: f64,
    pub category: String,
    /// Why it was retrieved, best first: each matched query word with the fields it was found
    /// in (`invoice (tags, title)`), then its similarity by meaning in a hybrid search.
    pub why: Vec<String>,
    pub pinned: bool,
}

#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct SearchResult {
    /// Best first.
    pub hits: Vec<Hit>,
    pub method: Method,
    /// What went wrong without failing the search (an embedding call that failed, a query with
    /// no searchable words).
    pub warnings: Vec<String>,
}

/// Embeddings through the model layer, with their cache.
pub struct Embedder {
    client: Arc<dyn LlmClient>,
    /// The embedding model's name as configured; part of every cache key.
    model: String,
    cache: EmbedCache,
}

impl Embedder {
    pub fn new(client: Arc<dyn LlmClient>, model: impl Into<String>, cache: EmbedCache) -> Embedder {
        Embedder { client, model: model.into(), cache }
    }
}

/// What the retriever keeps of a document once it is indexed.
struct Entry {
    id: String,
    category: String,
    /// What is embedded for it.
    text: String,
}

/// The search index over one set of documents (a catalog's blocks, a folder's templates). Build
/// it once and search many times.
pub struct Retriever {
    entries: Vec<Entry>,
    index: Bm25Index,
    embedder: Option<Embedder>,
    /// Document vectors, in document order: from the cache or embedded on the first hybrid
    /// search. A failed attempt leaves it empty, so a later search tries again.
    vectors: OnceCell<Vec<Vec<f32>>>,
}

/// A block in a ranking before the per-category and total limits.
struct Candidate {
    doc: usize,
    score: f64,
    why: Vec<String>,
}

impl Retriever {
    /// Indexes `documents`. With `embedder`, searches are hybrid when the embedding calls
    /// succeed.
    pub fn new(documents: Vec<Document>, embedder: Option<Embedder>) -> Retriever {
        let terms: Vec<FieldTerms> = documents.iter().map(Document::field_terms).collect();
        let entries =
            documents.into_iter().map(|d| Entry { id: d.id, category: d.category, text: d.embedding_text }).collect();
        Retriever { entries, index: Bm25Index::build(&terms), embedder, vectors: OnceCell::new() }
    }

    /// Indexes every block of `catalog` (its newest version).
    pub fn for_catalog(catalog: &Catalog, embedder: Option<Embedder>) -> Retriever {
        Retriever::new(catalog.blocks().map(Document::from).collect(), embedder)
    }

    /// Whether searches try embeddings.
    pub fn has_embeddings(&self) -> bool {
        self.embedder.is_some()
    }

    /// BM25 alone, whatever is configured.
    pub fn search_bm25(&self, query: &str, options: &SearchOptions) -> Result<SearchResult, RetrievalError> {
        let span = tracing::info_span!(
            "retrieval.search",
            method = "bm25",
            top_k = options.top_k,
            results = tracing::field::Empty
        );
        let _entered = span.enter();
        let pinned = self.check(options)?;
        let (ranking, warnings) = self.bm25_ranking(query);
        let hits = self.select(ranking, &pinned, options.top_k);
        span.record("results", hits.len());
        Ok(SearchResult { hits, method: Method::Bm25, warnings })
    }

    /// Hybrid when an embedder is set and its calls succeed, BM25 alone otherwise. An embedding
    /// failure becomes a warning in the result, never an error.
    pub async fn search(
        &self,
        query: &str,
        options: &SearchOptions,
        cancel: &CancellationToken,
    ) -> Result<SearchResult, RetrievalError> {
        let Some(embedder) = &self.embedder else { return self.search_bm25(query, options) };
        let span = tracing::info_span!(
            "retrieval.search",
            method = tracing::field::Empty,
            top_k = options.top_k,
            results = tracing::field::Empty
        );
        async {
            let pinned = self.check(options)?;
            let (lexical, mut warnings) = self.bm25_ranking(query);
            let result = match self.nearest(embedder, query, options.top_k, cancel).await {
                Ok(semantic) => {
                    let hits = self.select(fuse(lexical, semantic), &pinned, options.top_k);
                    SearchResult { hits, method: Method::Hybrid, warnings }
                }
                Err(message) => {
                    let warning = format!("embeddings unavailable, ranked by BM25 alone: {message}");
                    tracing::warn!("{warning}");
                    warnings.push(warning);
                    SearchResult { hits: self.select(lexical, &pinned, options.top_k), method: Method::Bm25, warnings }
                }
            };
            tracing::Span::current().record("method", result.method.name()).record("results", result.hits.len());
            Ok(result)
        }
        .instrument(span)
        .await
    }

    /// Checks the options; returns the pinned blocks' numbers.
    fn check(&self, options: &SearchOptions) -> Result<Vec<usize>, RetrievalError> {
        if !TOP_K_RANGE.contains(&options.top_k) {
            return Err(RetrievalError::TopKOutOfRange { top_k: options.top_k });
        }
        let mut pinned = Vec::new();
        for id in &options.pinned {
            let doc = self
                .entries
                .iter()
                .position(|b| &b.id == id)
                .ok_or_else(|| RetrievalError::UnknownPinned { id: id.clone() })?;
            if !pinned.contains(&doc) {
                pinned.push(doc);
            }
        }
        if pinned.len() > MAX_RESULTS {
            return Err(RetrievalError::TooManyPinned { count: pinned.len() });
        }
        Ok(pinned)
    }

    fn bm25_ranking(&self, query: &str) -> (Vec<Candidate>, Vec<String>) {
        let tokens = tokenize(query);
        let mut warnings = Vec::new();
        if tokens.is_empty() {
            warnings.push("the query has no searchable words".to_owned());
        }
        let mut terms: Vec<(String, f64)> = tokens.iter().map(|t| (t.term.clone(), 1.0)).collect();
        let mut tokens = tokens;
        for expansion in Lexicon::bundled().expand(query) {
            terms.push((expansion.token.term.clone(), expansion.weight));
            tokens.push(expansion.token);
        }
        let ranking = self.index.search(&terms).into_iter().map(|s| candidate(s, &tokens)).collect();
        (ranking, warnings)
    }

    /// The query's nearest documents by cosine similarity, best first: `count` of them, so that
    /// embeddings add a few candidates rather than every document.
    async fn nearest(
        &self,
        embedder: &Embedder,
        query: &str,
        count: usize,
        cancel: &CancellationToken,
    ) -> Result<Vec<(usize, f32)>, String> {
        if query.trim().is_empty() {
            return Ok(Vec::new());
        }
        let vectors = self.vectors.get_or_try_init(|| self.embed_documents(embedder, cancel)).await?;
        let reply = embedder.client.embed(vec![query.to_owned()], cancel).await.map_err(|e| e.to_string())?;
        let [query_vector] = <[Vec<f32>; 1]>::try_from(reply.vectors)
            .map_err(|v| format!("the query embedding came back as {} vectors", v.len()))?;
        let mut ranked = Vec::with_capacity(vectors.len());
        for (doc, vector) in vectors.iter().enumerate() {
            if vector.len() != query_vector.len() {
                return Err(format!(
                    "the query embedding has {} dimensions, {}'s has {}",
                    query_vector.len(),
                    self.entries[doc].id,
                    vector.len()
                ));
            }
            ranked.push((doc, cosine(&query_vector, vector)));
        }
        ranked.sort_by(|a, b| b.1.total_cmp(&a.1));
        ranked.truncate(count);
        Ok(ranked)
    }

    /// Every document's vector: from the cache, the missing ones embedded in one call and stored.
    async fn embed_documents(&self, embedder: &Embedder, cancel: &CancellationToken) -> Result<Vec<Vec<f32>>, String> {
        let keys: Vec<String> = self.entries.iter().map(|e| EmbedCache::key(&embedder.model, &e.text)).collect();
        let mut found = embedder.cache.get_many(&keys).map_err(|e| e.to_string())?;
        let missing: Vec<usize> = (0..keys.len()).filter(|&i| !found.contains_key(&keys[i])).collect();
        if !missing.is_empty() {
            let texts = missing.iter().map(|&i| self.entries[i].text.clone()).collect();
            let reply = embedder.client.embed(texts, cancel).await.map_err(|e| e.to_string())?;
            if reply.vectors.len() != missing.len() {
                return Err(format!("asked for {} embeddings, got {}", missing.len(), reply.vectors.len()));
            }
            let entries: Vec<(String, Vec<f32>)> =
                missing.iter().map(|&i| keys[i].clone()).zip(reply.vectors).collect();
            embedder.cache.put_many(&entries).map_err(|e| e.to_string())?;
            found.extend(entries);
            tracing::debug!(embedded = missing.len(), cached = keys.len() - missing.len(), "document embeddings");
        }
        Ok(keys.iter().map(|k| found.remove(k).unwrap_or_default()).collect())
    }

    /// Applies the limits to a ranking: at most `top_k` per category, the pinned blocks always,
    /// at most [`MAX_RESULTS`] in all; best first.
    fn select(&self, ranking: Vec<Candidate>, pinned: &[usize], top_k: usize) -> Vec<Hit> {
        let mut per_category: HashMap<&str, usize> = HashMap::new();
        let mut kept: Vec<Candidate> = Vec::new();
        let mut pinned_found: HashMap<usize, Candidate> = HashMap::new();
        for candidate in ranking {
            if pinned.contains(&candidate.doc) {
                pinned_found.insert(candidate.doc, candidate);
                continue;
            }
            let count = per_category.entry(&self.entries[candidate.doc].category).or_default();
            if *count < top_k {
                *count += 1;
                kept.push(candidate);
            }
        }
        kept.truncate(MAX_RESULTS - pinned.len());
        let pinned_set: HashSet<usize> = pinned.iter().copied().collect();
        kept.extend(
            pinned
                .iter()
                .map(|&doc| pinned_found.remove(&doc).unwrap_or(Candidate { doc, score: 0.0, why: Vec::new() })),
        );
        // Stable: ties keep ranking order.
        kept.sort_by(|a, b| b.score.total_cmp(&a.score));
        kept.into_iter()
            .map(|c| {
                let entry = &self.entries[c.doc];
                Hit {
                    id: entry.id.clone(),
                    score: c.score,
                    category: entry.category.clone(),
                    why: c.why,
                    pinned: pinned_set.contains(&c.doc),
                }
            })
            .collect()
    }
}

/// A BM25 match as a candidate, its terms shown as the query wrote them.
fn candidate(scored: Scored, tokens: &[Token]) -> Candidate {
    let why = scored
        .matches
        .iter()
        .map(|m| {
            let surface = tokens.iter().find(|t| t.term == m.term).map_or(m.term.as_str(), |t| t.surface.as_str());
            let fields: Vec<&str> = m.fields.iter().map(|f| f.name()).collect();
            format!("{surface} ({})", fields.join(", "))
        })
        .collect();
    Candidate { doc: scored.doc, score: scored.score, why }
}

/// Fuses the BM25 ranking with the nearest blocks by meaning.
fn fuse(lexical: Vec<Candidate>, semantic: Vec<(usize, f32)>) -> Vec<Candidate> {
    let lexical_order: Vec<usize> = lexical.iter().map(|c| c.doc).collect();
    let semantic_order: Vec<usize> = semantic.iter().map(|(d, _)| *d).collect();
    let mut why: HashMap<usize, Vec<String>> = lexical.into_iter().map(|c| (c.doc, c.why)).collect();
    for (doc, similarity) in &semantic {
        why.entry(*doc).or_default().push(format!("meaning (cosine {similarity:.2})"));
    }
    reciprocal_rank_fusion(&[&lexical_order, &semantic_order])
        .into_iter()
        .map(|(doc, score)| Candidate { doc, score, why: why.remove(&doc).unwrap_or_default() })
        .collect()
}

fn cosine(a: &[f32], b: &[f32]) -> f32 {
    let (mut dot, mut norm_a, mut norm_b) = (0.0f32, 0.0f32, 0.0f32);
    for (x, y) in a.iter().zip(b) {
        dot += x * y;
        norm_a += x * x;
        norm_b += y * y;
    }
    if norm_a == 0.0 || norm_b == 0.0 {
        0.0
    } else {
        dot / (norm_a.sqrt() * norm_b.sqrt())
    }
}
