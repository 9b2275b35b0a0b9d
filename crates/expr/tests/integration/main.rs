//! The integration tests of `planwright-expr`, built as one test binary: each file is a module, so
//! the crate's tests are compiled and linked once, not once per file (docs/decisions.md, "The test
//! command's time").

mod compile;
mod eval;
mod kinds;
mod kinds_agree;
mod properties;
