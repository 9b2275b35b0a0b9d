//! The objective runner: `browser.run_objectives`, browser steps written in plain English or
//! Japanese carried out objective by objective in the run's Chromium.
//!
//! - [`checklist`]: the steps as written → one objective a step (numbers and bullets off,
//!   nothing added).
//! - [`intent`]: what a step asks for, read from its words ([`text`]: folding, quotes, words).
//! - [`page`]: the page's interactive snapshot as a tree; [`resolve`]: an intent matched to it
//!   with no model (the zero-token path), as [`resolve::Op`]s with Playwright-style locators.
//! - [`recovery`]: dialogs and banners in the way, and the choice that keeps the person's
//!   session and privacy; [`judge`]: evidence from the page; [`evidence`]: screenshots.
//! - [`model`]: what a configured model adds (a checklist of prose, a decision where the
//!   resolver found nothing, a judgement); [`cache`]: actions that worked, replayed with no
//!   model call; [`steplog`]: `steps.jsonl`.
//! - [`effects`]: which actions change the world (done once, never repeated on their own) and
//!   which page texts are errors (never evidence).
//! - [`secret_use`]: where a secret may go, checked for every operation before it is carried
//!   out, cached or replayed; [`lookalike`]: a control matched in part that would destroy more
//!   than the step says is never pressed.
//! - [`runner`]: the loop; [`planning`]: seed 001's plan, reflections and revisions around it;
//!   [`task`]: seed 003's task loop (requirements, satisfaction, passes) and [`escalation`]
//!   (the decision given back to the person); [`block`]: the block around them.
//!
//! Progress is the run record's [`planwright_runs::objective::ObjectiveProgress`], reported as
//! `objective` progress events. Knows the block port, the browser driver, the model port and
//! the run record's types; nothing of plans, graphs, the engine or any UI.

pub mod block;
pub mod cache;
pub mod checklist;
pub mod driver;
pub mod effects;
pub mod escalation;
pub mod evidence;
pub mod fields;
pub mod generic;
pub mod intent;
pub mod judge;
pub mod lookalike;
pub mod model;
pub mod page;
pub mod planning;
pub mod progress;
pub mod recovery;
pub mod resolve;
pub mod runner;
pub mod secret_use;
pub mod steplog;
pub mod task;
pub mod text;
pub mod values;

use std::path::Path;
use std::sync::Arc;

use planwright_block::Block;

pub use block::RunObjectives;
pub use cache::{ActionCache, CACHE_FILE};

/// The runner's blocks, with their action cache under `data_home`.
pub fn blocks(data_home: Option<&Path>) -> Vec<Arc<dyn Block>> {
    vec![Arc::new(RunObjectives::new(data_home))]
}
