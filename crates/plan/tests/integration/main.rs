//! The integration tests of `planwright-plan`, built as one test binary: each file is a module, so
//! the crate's tests are compiled and linked once, not once per file (docs/decisions.md, "The test
//! command's time").

mod edit;
mod round_trip;
mod schema_file;
