//! The studio's API: every operation the UI uses is one async function on [`Studio`]. The
//! desktop shell (Tauri commands) and `planwright serve` (HTTP and WebSocket, `planwright-server`)
//! are two transports over these same functions; `docs/studio-api.md` is the contract.
//!
//! A [`Studio`] holds the workspace folder (`designs/`, `designs/templates/`, `drafts/`), the
//! block catalog, the data home with its run store, the runs going on in this process (their
//! stop tokens, event broadcasts and pending questions) and the settings. It knows nothing of
//! either transport.

mod check;
mod design;
mod documents;
mod error;
mod input_files;
mod keys;
mod models;
mod operations;
mod plans;
mod readiness;
mod reports;
mod results;
mod runs;
mod settings;
mod streams;
mod trial;
mod types;
mod work_folder;
mod workspace;

use std::path::{Path, PathBuf};
use std::sync::{Arc, RwLock};

use planwright_catalog::Catalog;
use planwright_runs::RunStore;

pub use planwright_runs::DataHome;

pub use check::{check_models_with, check_system};
pub use design::*;
pub use documents::{read_documents, DocumentInfo, DocumentUpload, DOCUMENT_EXTENSIONS, MAX_DOCUMENT_BYTES};
pub use error::{ApiError, ApiMessage, ErrorCode};
pub use input_files::WorkFolderFiles;
pub use keys::{model_settings, KeyStore, RunSecrets};
pub use models::{ModelServices, EMBEDDINGS_FILE};
pub use reports::{ReportFile, ReportFormat, ReportRequest};
pub use streams::{StreamCancelled, Watch};
pub use trial::{unattended, WorkFolderTrial};
pub use types::*;

/// How to open a studio.
#[derive(Debug, Clone, Default)]
pub struct StudioConfig {
    /// The workspace folder; else the one saved in the settings; else `~/Planwright`.
    pub workspace: Option<PathBuf>,
    /// Where runs and settings live; else `DataHome::from_env()`.
    pub data_home: Option<DataHome>,
    /// Where `set_api_key` keeps keys.
    pub key_store: KeyStore,
}

/// The studio's state. Cheap to clone (`Arc` inside), `Send + Sync`.
#[derive(Clone)]
pub struct Studio {
    inner: Arc<Inner>,
}

struct Inner {
    workspace: RwLock<PathBuf>,
    catalog: Arc<Catalog>,
    home: DataHome,
    store: RunStore,
    live: runs::LiveRuns,
    generations: design::PendingGenerations,
    streams: streams::Streams,
    key_store: KeyStore,
    /// The catalog's retriever, kept while the model settings it was built with stay the same.
    retriever: std::sync::Mutex<Option<(Option<String>, Arc<planwright_retrieval::Retriever>)>>,
    /// The recorded table last paged through (`run_table`), by run, node and output.
    open_table: std::sync::Mutex<Option<(String, Arc<planwright_tables::Table>)>>,
}

impl Studio {
    /// Opens the data home and the run store, and creates the workspace (seeded with the bundled
    /// examples, never overwriting a file) when it is missing.
    pub fn open(config: StudioConfig) -> Result<Studio, ApiError> {
        let home = match config.data_home {
            Some(home) => home,
            None => DataHome::from_env()?,
        };
        let saved = settings::read_studio_file(home.root())?;
        let workspace = match config.workspace.or(saved.workspace) {
            Some(dir) => dir,
            None => workspace::default_dir()?,
        };
        let workspace = std::path::absolute(&workspace).unwrap_or(workspace);
        workspace::prepare(&workspace)?;
        let catalog = Catalog::bundled().map_err(|e| ApiError::internal(format!("the built-in block catalog: {e}")))?;
        let store = RunStore::open(&home)?;
        tracing::info!(workspace = %workspace.display(), home = %home.root().display(), "studio opened");
        Ok(Studio {
            inner: Arc::new(Inner {
                workspace: RwLock::new(workspace),
                catalog: Arc::new(catalog),
                home,
                store,
                live: runs::LiveRuns::default(),
                generations: design::PendingGenerations::default(),
                streams: streams::Streams::default(),
                key_store: config.key_store,
                retriever: std::sync::Mutex::new(None),
                open_table: std::sync::Mutex::new(None),
            }),
        })
    }

    /// The workspace folder now in use.
    pub fn workspace(&self) -> PathBuf {
        self.inner.workspace.read().unwrap_or_else(|e| e.into_inner()).clone()
    }

    /// The data home (runs, settings).
    pub fn data_home(&self) -> &Path {
        self.inner.home.root()
    }

    fn designs_dir(&self) -> PathBuf {
        self.workspace().join(workspace::DESIGNS)
    }
}

/// Every block the binaries run: the built-in families and the objective runner, whose action
/// cache lives under `data_home`.
pub fn blocks(data_home: &Path) -> Vec<Arc<dyn planwright_block::Block>> {
    let mut blocks = planwright_blocks::builtin();
    blocks.extend(planwright_objectives::blocks(Some(data_home)));
    blocks
}

/// Writes the TypeScript declaration of every type the UI uses into `dir`, one file per type,
/// and the table of operations (`operations.ts`, from `studio_operations!`).
pub fn export_types(dir: &Path) -> Result<(), ts_rs::ExportError> {
    use ts_rs::TS;
    let config = ts_rs::Config::new().with_out_dir(dir).with_large_int("number");
    macro_rules! export {
        ($($ty:ty),* $(,)?) => { $( <$ty>::export_all(&config)?; )* };
    }
    export!(
        ApiError,
        BlockInfo,
        SearchRequest,
        SearchResponse,
        PlanText,
        ValidateResponse,
        DryRunResponse,
        PlanGraph,
        RegisterResponse,
        DesignInfo,
        DesignText,
        DraftInfo,
        DraftText,
        StartRunRequest,
        StartRunResponse,
        StopRunResponse,
        AnswerRequest,
        AnswerResponse,
        RunFilter,
        RunSummary,
        RunDetail,
        Event,
        StudioSettings,
        SetKeyRequest,
        ModelCheck,
        EventsAfter,
        PlanEditRequest,
        PlanEdited,
        StreamCancelled,
        planwright_runs::InputAnswer,
        DesignSession,
        TemplateInfo,
        CandidatesRequest,
        CandidatesResponse,
        DocumentUpload,
        DocumentInfo,
        GenerateRequest,
        GenerationStarted,
        GenerationEvent,
        ApplyAnswersRequest,
        AnswersApplied,
        AskAtRunTimeRequest,
        AskedAtRunTime,
        DesignMetrics,
        ArtifactRequest,
        ArtifactData,
        OpenArtifactRequest,
        ArtifactOpened,
        TableRequest,
        TablePage,
        WorkFiles,
        ReportRequest,
        ReportFile,
        RunReadiness,
        RunResults,
        DraftDeleted,
        SecretValue,
        SecretStatus,
        SystemCheck,
    );
    std::fs::write(dir.join("operations.ts"), operations::operations_typescript())?;
    Ok(())
}
