//! The integration tests of `planwright-runs`, built as one test binary: each file is a module, so
//! the crate's tests are compiled and linked once, not once per file (docs/decisions.md, "The test
//! command's time").

mod common;
mod corrupt;
mod process;
mod props;
mod store;
