//! The integration tests of `planwright-browser`, built as one test binary: each file is a module,
//! so the crate's tests are compiled and linked once, not once per file (docs/decisions.md, "The
//! test command's time").

mod actions;
mod common;
mod conformance;
mod downloads;
mod driver;
mod effects;
mod lifetime;
mod pages;
mod restless;
mod snapshot;
