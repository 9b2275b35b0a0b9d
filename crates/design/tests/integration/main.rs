//! The integration tests of `planwright-design`, built as one test binary: each file is a module,
//! so the crate's tests are compiled and linked once, not once per file (docs/decisions.md, "The
//! test command's time").

mod answers;
mod compose_and_requirements;
mod credentials;
mod evaluation;
mod model_stages;
mod properties;
