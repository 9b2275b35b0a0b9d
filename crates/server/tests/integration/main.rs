//! The integration tests of `planwright-server`, built as one test binary: each file is a module,
//! so the crate's tests are compiled and linked once, not once per file (docs/decisions.md, "The
//! test command's time").

mod common;
mod design_http;
mod http;
mod refusals_http;
