//! The integration tests of `planwright-sites`, built as one test binary: each file is a module, so
//! the crate's tests are compiled and linked once, not once per file (docs/decisions.md, "The test
//! command's time").

mod answer;
mod http;
mod playwright;
mod server;
