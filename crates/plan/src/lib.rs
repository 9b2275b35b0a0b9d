//! The Planwright plan format.
//!
//! A plan is a YAML graph of typed blocks (see `docs/plan-format.md`). This crate owns the Rust
//! model of that format, loading a file with hard limits on hostile input, the shape check
//! against the schema generated from the model, references (`${...}`), findings, and edits of a
//! plan's text that keep its comments and formatting (`edit`). It knows
//! nothing of the block catalog, of execution, or of any user interface.

pub mod columns;
pub mod edit;
mod finding;
pub mod load;
mod localized;
pub mod locate;
pub mod model;
pub mod reference;
pub mod schema;
mod shape;
pub mod source_map;
pub mod suggest;
mod yaml_json;

pub use columns::{Column, ColumnKind};
pub use finding::{Code, Finding, Severity};
pub use load::{load_plan, load_plan_bytes, load_plan_file, LoadError, LoadedPlan};
pub use localized::Localized;
pub use model::*;
pub use reference::{Reference, Root, Template};
