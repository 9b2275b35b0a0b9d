//! Planwright's built-in blocks, behind one trait ([`Block`]). Each block reads its resolved
//! inputs and returns its outputs; files stay inside the run's work directory; long work stops
//! when cancelled; browser blocks share the run's one browser session ([`BrowserSlot`]). It
//! knows nothing of plans, graphs or run records beyond the events it emits.

mod ai;
mod answers;
mod block;
mod browser;
mod cells;
mod excel;
mod files;
mod http;
mod human;
mod pending;
mod report;
mod transforms;
mod workdir;

pub use answers::{check_files, validate_answer, FieldError};
pub use block::{Block, BlockContext, BlockError, BlockEvents, BlockSecrets, HumanInput, Values};
pub use browser::{BrowserSettings, BrowserSlot};
pub use workdir::Workdir;

use std::sync::Arc;

/// Every built-in block, one per catalog id.
pub fn builtin() -> Vec<Arc<dyn Block>> {
    [
        files::blocks(),
        excel::blocks(),
        transforms::blocks(),
        report::blocks(),
        http::blocks(),
        human::blocks(),
        browser::blocks(),
        ai::blocks(),
        pending::blocks(),
    ]
    .into_iter()
    .flatten()
    .collect()
}
