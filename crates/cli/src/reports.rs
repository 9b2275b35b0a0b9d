//! `--report FILE` and `--allure-results DIR` on `run`, `resume` and `runs show`: the reports
//! of a run, written from its record (the plan text and every event in the store, across
//! resumes) by `planwright-reports`; the format of a report follows its file's extension.

use std::path::PathBuf;

use anyhow::{Context, Result};
use planwright_reports::{Format, RunRecord};
use planwright_runs::RunStore;

/// The reports asked for on the command line.
#[derive(clap::Args, Clone)]
pub struct ReportArgs {
    /// Also write a report of the run, its format from the extension: `.xml` JUnit (a test case
    /// per objective of browser objective nodes, per node otherwise), `.html` or `.htm` one
    /// self-contained page with the objectives' evidence and screenshots. Repeatable.
    #[arg(long = "report", value_name = "FILE")]
    reports: Vec<PathBuf>,
    /// Also write Allure results into this folder (created when missing): a result per browser
    /// node, a step per objective, recovery steps nested, screenshots attached.
    #[arg(long, value_name = "DIR")]
    allure_results: Option<PathBuf>,
}

/// The reports to write, each with its format, checked before anything runs.
pub struct Reports {
    files: Vec<(PathBuf, Format)>,
    allure: Option<PathBuf>,
}

impl ReportArgs {
    /// The reports, or the usage error of a file whose extension names no format.
    pub fn checked(&self) -> std::result::Result<Reports, String> {
        let files = self
            .reports
            .iter()
            .map(|path| Format::for_path(path).map(|format| (path.clone(), format)))
            .collect::<std::result::Result<_, _>>()
            .map_err(|error| format!("--report {error}"))?;
        Ok(Reports { files, allure: self.allure_results.clone() })
    }
}

impl Reports {
    /// Writes every report of run `run_id` from the store's record of it.
    pub fn write(&self, store: &RunStore, run_id: &str) -> Result<()> {
        if self.files.is_empty() && self.allure.is_none() {
            return Ok(());
        }
        self.write_record(&RunRecord::read(store, run_id)?)
    }

    /// Writes every report from a record already read.
    pub fn write_record(&self, record: &RunRecord) -> Result<()> {
        for (path, format) in &self.files {
            std::fs::write(path, format.render(record)).with_context(|| format!("writing {}", path.display()))?;
        }
        if let Some(dir) = &self.allure {
            planwright_reports::allure(record, dir).context("writing the Allure results")?;
        }
        Ok(())
    }
}
