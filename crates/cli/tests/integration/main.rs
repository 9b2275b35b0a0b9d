//! The integration tests of `planwright`, built as one test binary: each file is a module, so the
//! crate's tests are compiled and linked once, not once per file (docs/decisions.md, "The test
//! command's time").

mod cli_blocks_search;
mod cli_browser_lifetime;
mod cli_columns;
mod cli_contract;
mod cli_design_from_data;
mod cli_doctor;
mod cli_generate;
mod cli_generate_credentials;
mod cli_https;
mod cli_keyring;
mod cli_models;
mod cli_objectives;
mod cli_reports;
mod cli_runs;
mod cli_serve;
mod cli_templates;
mod support;
