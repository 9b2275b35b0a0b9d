//! `planwright blocks search`: which blocks fit an instruction.

use std::fmt::Write as _;
use std::path::PathBuf;

use anyhow::Result;
use planwright_api::{KeyStore, ModelServices};
use planwright_retrieval::{Hit, Retriever, SearchOptions, SearchResult, DEFAULT_TOP_K};
use planwright_runs::DataHome;
use serde::Serialize;

use crate::commands::{catalog, print, Exit};
use crate::render;
use crate::Format;

#[derive(clap::Subcommand)]
pub enum BlocksCommand {
    /// Find the blocks that fit an instruction, in English or Japanese: BM25 over ids, titles,
    /// tags, port names and descriptions; hybrid with embeddings when a model provider and an
    /// embedding model are configured (PLANWRIGHT_EMBEDDING_MODEL), BM25 alone otherwise or
    /// when the embedding call fails (a warning on stderr).
    ///
    /// Only blocks that matched the query are returned: at most --top-k per category and 30 in
    /// all, best first. Exit codes: 0 searched (even with no match), 2 bad --top-k or catalog.
    #[command(after_help = "JSON output: [{id, score, category, why}…], best first; `why` lists the matched query \
words with the fields they were found in, best first.")]
    Search {
        /// The instruction or keywords.
        query: String,
        /// Blocks per category, 1 to 30.
        #[arg(long, value_name = "K", default_value_t = DEFAULT_TOP_K)]
        top_k: usize,
        /// Text for people, or JSON for tools.
        #[arg(long, value_enum, default_value_t)]
        format: Format,
        /// Use the block specs in this folder instead of the built-in catalog.
        #[arg(long, value_name = "DIR", env = "PLANWRIGHT_BLOCK_SPECS")]
        catalog: Option<PathBuf>,
    },
}

/// One result as `--format json` prints it: exactly these keys, a contract other tools check.
#[derive(Serialize)]
struct Row<'a> {
    id: &'a str,
    score: f64,
    category: &'a str,
    why: &'a [String],
}

pub fn run(command: BlocksCommand) -> Result<Exit> {
    let BlocksCommand::Search { query, top_k, format, catalog: dir } = command;
    let catalog = catalog(dir.as_deref())?;
    // Embeddings when a provider and an embedding model are configured; anything missing or
    // broken means BM25 alone, said on stderr when it is a problem rather than a choice.
    let (retriever, warnings) = match DataHome::from_env() {
        Ok(home) => ModelServices::load(home.root(), KeyStore::from_env()).retriever(&catalog),
        Err(error) => (Retriever::for_catalog(&catalog, None), vec![format!("{error}; ranking by BM25 alone")]),
    };
    for warning in &warnings {
        crate::terminal::say(format_args!("planwright: warning: {warning}"));
    }
    let options = SearchOptions { top_k, pinned: Vec::new() };
    let result = if retriever.has_embeddings() {
        let cancel = tokio_util::sync::CancellationToken::new();
        tokio::runtime::Runtime::new()?.block_on(retriever.search(&query, &options, &cancel))
    } else {
        retriever.search_bm25(&query, &options)
    };
    let result = match result {
        Ok(result) => result,
        Err(error) => {
            crate::terminal::say(format_args!("planwright: {error}"));
            return Ok(Exit::Unusable);
        }
    };
    for warning in &result.warnings {
        crate::terminal::say(format_args!("planwright: warning: {warning}"));
    }
    let output = match format {
        Format::Json => render::json(&result.hits.iter().map(row).collect::<Vec<_>>()),
        Format::Text => text(&result, top_k),
    };
    print(&output)?;
    Ok(Exit::Ok)
}

fn row(hit: &Hit) -> Row<'_> {
    Row { id: &hit.id, score: hit.score, category: &hit.category, why: &hit.why }
}

fn text(result: &SearchResult, top_k: usize) -> String {
    let mut out = String::new();
    let width = result.hits.iter().map(|h| h.id.len()).max().unwrap_or(0).max("block".len());
    let category_width = result.hits.iter().map(|h| h.category.len()).max().unwrap_or(0).max("category".len());
    if !result.hits.is_empty() {
        let _ =
            writeln!(out, "{:>4}  {:<width$}  {:<category_width$}  {:>7}  why", "rank", "block", "category", "score");
    }
    for (rank, hit) in result.hits.iter().enumerate() {
        let _ = writeln!(
            out,
            "{:>4}  {:<width$}  {:<category_width$}  {:>7.3}  {}",
            rank + 1,
            hit.id,
            hit.category,
            hit.score,
            hit.why.join("; ")
        );
    }
    let _ = writeln!(
        out,
        "{} block{} matched (ranked by {}, at most {top_k} per category)",
        result.hits.len(),
        if result.hits.len() == 1 { "" } else { "s" },
        result.method.name()
    );
    out
}
