//! The model layer's port: what the rest of Planwright asks of a language model, whoever serves
//! it. Callers depend on [`LlmClient`] only; the OpenAI-compatible implementation, the settings
//! that choose it and the structured-output helper live in this crate's other modules.
//!
//! Every call reports which model answered, its token usage and its latency, so callers can
//! record it and keep per-run totals.

mod port;

pub use port::{
    ChatMessage, ChatReply, ChatRequest, Embeddings, LlmClient, LlmError, Provenance, ResponseSchema, Role, Tier,
    Usage,
};
