//! Planwright's built-in blocks, one module per family, each an implementation of
//! `planwright_block::Block`. Each block reads its resolved inputs and returns its outputs;
//! files stay inside the run's work directory; long work stops when cancelled; browser blocks
//! share the run's one browser session. It knows nothing of plans, graphs or run records beyond
//! the events it emits.

mod ai;
mod browser;
mod cells;
mod csv_text;
mod excel;
mod files;
mod http;
mod human;
mod input_table;
mod report;
mod transforms;

use std::sync::Arc;

use planwright_block::Block;

pub use excel::cell_value as excel_cell_value;
pub use input_table::{input_table, kind_of, FileTable};

/// The built-in blocks, one per catalog id; `browser.run_objectives` is the objective
/// runner's (`planwright-objectives`), and `planwright_api::blocks` gives them all.
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
    ]
    .into_iter()
    .flatten()
    .collect()
}
