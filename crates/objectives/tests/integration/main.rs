//! The integration tests of `planwright-objectives`, built as one test binary: each file is a
//! module, so the crate's tests are compiled and linked once, not once per file (docs/decisions.md,
//! "The test command's time").

mod cache;
mod effects;
mod model;
mod planning;
mod properties;
mod reading;
mod record_volume;
mod recovery;
mod scripted;
mod scripted_page;
mod suite;
mod support;
mod trust;
