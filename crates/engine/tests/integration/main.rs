//! The integration tests of `planwright-engine`, built as one test binary: each file is a module,
//! so the crate's tests are compiled and linked once, not once per file (docs/decisions.md, "The
//! test command's time").

mod browser_runs;
mod dependencies;
mod engine_runs;
mod masking_runs;
mod model_runs;
mod support;
mod table_runs;
mod table_schema;
