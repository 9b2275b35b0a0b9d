//! The Planwright block catalog: block specs (`block_specs/<category>/<id>.yaml`), their
//! loading with errors that name file, line and field, and the type system of their ports.
//!
//! It knows the plan format only for suggestions and source positions; it knows nothing of
//! validation rules, execution or any user interface.

mod catalog;
pub mod load;
pub mod spec;
pub mod types;

pub use catalog::{Catalog, Lookup};
pub use load::{CatalogError, SpecError};
pub use spec::{BlockSpec, Localized, Port, Resource, Rule, Work};
pub use types::{Type, TypeDecl};
