//! The integration tests of `planwright-blocks`, built as one test binary: each file is a module,
//! so the crate's tests are compiled and linked once, not once per file (docs/decisions.md, "The
//! test command's time").

mod browser_blocks;
mod contract;
mod data_bad_files;
mod data_common;
mod data_contract;
mod data_excel;
mod data_files;
mod data_report;
mod data_shaping;
mod data_tables;
mod data_transforms;
mod human_blocks;
mod human_support;
mod net_ai;
mod net_http;
mod net_support;
