//! What a Planwright block is and what it may use, apart from any block: the [`Block`] trait,
//! the [`BlockContext`] a block runs with, and the ports in it — [`BlockEvents`] (log lines,
//! artifacts, typed progress), [`HumanInput`] (asking a person, with the answer validated by
//! [`validate_answer`]), [`BlockSecrets`] (a secret's value at the moment of use), the run's
//! browser ([`BrowserSlot`], holding any driver's session as a [`RunBrowser`], so that no browser
//! is compiled here) the run's model (`planwright_llm::LlmClient`) and the run's tables ([`RunTables`], which
//! blocks pass to each other by handle, as columns) — and the [`Workdir`] that keeps files
//! inside the run's work directory.
//!
//! Block families depend on this crate, not on each other: the built-in blocks
//! (`planwright-blocks`) and the objective runner each live in their own crate, and the engine
//! runs any `Block` it is given. The one reading of numbers people type and cells hold
//! ([`numbers`]) lives here too, shared by the blocks and the answers.

mod answers;
mod block;
mod browser_slot;
pub mod inputs;
pub mod numbers;
mod run_tables;
pub mod text;
mod workdir;

pub use answers::{check_files, validate_answer, FieldError};
pub use block::{Block, BlockContext, BlockError, BlockEvents, BlockSecrets, HumanInput, Values};
pub use browser_slot::{BrowserSettings, BrowserSlot, RunBrowser};
pub use run_tables::{RunTables, TableOrigin, TABLE_HANDLE_KEY};
pub use workdir::Workdir;
