//! The model services, built in one place for the command line and the studio: settings (the
//! environment, `.env`, `settings.yaml`, the keys the studio stored) → client → embedder →
//! retriever. Whatever is missing or broken leaves the services offline or lexical, with the
//! problem kept to be said where it matters; it never stops what needs no model.

use std::path::{Path, PathBuf};
use std::sync::Arc;

use planwright_catalog::Catalog;
use planwright_llm::LlmClient;
use planwright_retrieval::{EmbedCache, Embedder, Retriever};

use crate::keys::{model_settings, KeyStore};

/// Where block (and template) embeddings are cached under the data home.
pub const EMBEDDINGS_FILE: &str = "embeddings.db";

/// What the model settings give: a client (or none, offline) and the embedding model, with
/// what went wrong on the way.
#[derive(Clone)]
pub struct ModelServices {
    data_home: PathBuf,
    client: Option<Arc<dyn LlmClient>>,
    embedding_model: Option<String>,
    /// The provider and embedding model, when searches can be hybrid: what a retriever built
    /// from these services depends on.
    retriever_key: Option<String>,
    problem: Option<String>,
}

impl ModelServices {
    /// Reads the settings and builds the client. Blocking: the OS keyring may be asked.
    pub fn load(data_home: &Path, keys: KeyStore) -> ModelServices {
        let settings = match model_settings(data_home, keys) {
            Ok(settings) => settings,
            Err(error) => return ModelServices::failed(data_home, format!("model settings unusable: {error}")),
        };
        match settings.client() {
            Ok(client) => {
                let embedding_model = client.as_ref().and(settings.embedding_model.clone());
                let retriever_key = match (&settings.provider, &embedding_model) {
                    (Some(provider), Some(model)) => Some(format!("{} {model}", provider.name())),
                    _ => None,
                };
                ModelServices {
                    data_home: data_home.to_path_buf(),
                    client,
                    embedding_model,
                    retriever_key,
                    problem: None,
                }
            }
            Err(error) => ModelServices::failed(data_home, format!("no model client: {error}")),
        }
    }

    /// Offline because of `problem`.
    pub(crate) fn failed(data_home: &Path, problem: String) -> ModelServices {
        ModelServices {
            data_home: data_home.to_path_buf(),
            client: None,
            embedding_model: None,
            retriever_key: None,
            problem: Some(problem),
        }
    }

    /// The client, or `None` offline (by choice, or because of [`ModelServices::problem`]).
    pub fn client(&self) -> Option<Arc<dyn LlmClient>> {
        self.client.clone()
    }

    /// Why the settings gave no client although they should have (they are broken), if so.
    pub fn problem(&self) -> Option<&str> {
        self.problem.as_deref()
    }

    /// [`ModelServices::problem`] as a search's warning.
    pub(crate) fn problem_warning(&self) -> Option<String> {
        self.problem.as_ref().map(|p| format!("{p}; ranking by BM25 alone"))
    }

    /// What a retriever built from these services embeds with (provider and model; `None`:
    /// lexical): the studio keeps one retriever per catalog and per this.
    pub(crate) fn retriever_key(&self) -> Option<&str> {
        self.retriever_key.as_deref()
    }

    /// A retriever over `catalog`: hybrid when a client and an embedding model are configured
    /// and the embedding cache opens, BM25 alone otherwise (the reason among the warnings).
    pub fn retriever(&self, catalog: &Catalog) -> (Retriever, Vec<String>) {
        let mut warnings: Vec<String> = self.problem_warning().into_iter().collect();
        let embedder = match (&self.client, &self.embedding_model) {
            (Some(client), Some(model)) => match self.embed_cache() {
                Ok(cache) => Some(Embedder::new(Arc::clone(client), model.clone(), cache)),
                Err(error) => {
                    warnings.push(format!("embedding cache unusable, ranking by BM25 alone: {error}"));
                    None
                }
            },
            _ => None,
        };
        (Retriever::for_catalog(catalog, embedder), warnings)
    }

    fn embed_cache(&self) -> Result<EmbedCache, String> {
        planwright_fs::private_dir(&self.data_home).map_err(|e| format!("{}: {e}", self.data_home.display()))?;
        EmbedCache::open(&self.data_home.join(EMBEDDINGS_FILE)).map_err(|e| e.to_string())
    }
}

impl std::fmt::Debug for ModelServices {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("ModelServices")
            .field("online", &self.client.is_some())
            .field("embedding_model", &self.embedding_model)
            .field("problem", &self.problem)
            .finish()
    }
}
