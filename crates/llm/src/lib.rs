//! The model layer's port: what the rest of Planwright asks of a language model, whoever serves
//! it. Callers depend on [`LlmClient`] only; the OpenAI-compatible implementation, the settings
//! that choose it and the structured-output helper live in this crate's other modules.
//!
//! Every call reports which model answered, its token usage and its latency, so callers can
//! record it and keep per-run totals.
//!
//! - [`Settings`] (`settings.rs`): the environment, `.env` and `settings.yaml` under the data
//!   home, in that precedence; three [`Tier`]s; [`Settings::client`] builds the client.
//! - [`OpenAiClient`] (`openai.rs`): OpenAI, Azure OpenAI and any OpenAI-compatible server over
//!   async-openai, with retries (`retry.rs`: 429, 5xx, timeouts, dropped connections, honouring
//!   `Retry-After`), a per-request timeout and cancellation.
//! - [`structured()`] (`structured.rs`) with [`strict_schema`] (`strict.rs`): JSON answers
//!   validated locally, one corrective re-ask, every call returned for the record.
//! - [`Prompts`] (`prompts.rs`): the texts of `prompts/`, built in, rendered by name.
//! - [`error_causes`] (`transport_error.rs`): what a failed HTTP exchange says, each cause
//!   once and without the TLS library's codes, for the model client and the HTTP block alike.
//! - [`RecordedClient`] (`recorded.rs`): any client with every call redacted, then recorded
//!   into a [`ModelCallSink`] (a run's record, the design engine's metrics).
//!
//! **Offline.** With no provider configured, [`Settings::client`] returns `Ok(None)`: that is
//! not an error. Callers then take their rule-based path and stamp what it produced with
//! [`Provenance::Offline`]; results from a model carry [`Provenance::Model`].
//!
//! **Keys.** API keys are held in [`Secret`] (redacted in `Debug` and `Display`, not
//! serializable), travel only in the `Authorization` / `api-key` header, and are never written
//! to the settings file, an error or a log.

mod openai;
mod port;
mod prompts;
mod recorded;
mod retry;
mod secret;
mod settings;
mod strict;
mod structured;
mod transport_error;

pub use openai::OpenAiClient;
pub use port::{
    ChatMessage, ChatReply, ChatRequest, Embeddings, LlmClient, LlmError, Provenance, ResponseSchema, Role, Tier, Usage,
};
pub use prompts::{PromptError, Prompts, Rendered, PROCESS_LLM, REASK};
pub use recorded::{ModelCall, ModelCallSink, NoRedaction, RecordedClient, Redact};
pub use retry::RetryPolicy;
pub use secret::Secret;
pub use settings::{
    Provider, ProviderKind, Settings, SettingsError, TierSettings, DEFAULT_AZURE_API_VERSION, DEFAULT_EMBEDDING_MODEL,
    OPENAI_BASE_URL, SETTINGS_FILE,
};
pub use strict::{is_strict, schema_for, strict_schema, strip_optional_nulls, StrictError};
pub use structured::{parse_answer, structured, Exchange, Structured, StructuredError};
pub use transport_error::error_causes;
