//! `--report FILE` and `--allure-results DIR` on `run`, `resume` and `runs show`: the reports
//! of a run, written from its record (the plan text and every event in the store, across
//! resumes) by `planwright-reports`; the format of a report follows its file's extension. Where
//! they go is checked before anything runs, and a report is written atomically, never through
//! or over a link.

use std::path::{Path, PathBuf};

use anyhow::{Context, Result};
use planwright_reports::{Format, ReportOptions, RunRecord};
use planwright_runs::RunStore;

/// The reports asked for on the command line.
#[derive(clap::Args, Clone)]
pub struct ReportArgs {
    /// Also write a report of the run, its format from the extension: `.xml` JUnit (a test case
    /// per objective of browser objective nodes, per node otherwise), `.html` or `.htm` one
    /// self-contained page with the objectives' evidence and screenshots, in this computer's
    /// language (`LANG`: Japanese or English) and time zone. Repeatable.
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
    /// The reports, or the usage error of one that could not be written: an extension that names
    /// no format, a path that is not a regular file (a link, a folder, a device), a folder that
    /// is missing or cannot be written in — found before a run rather than after it.
    pub fn checked(&self) -> std::result::Result<Reports, String> {
        let mut files = Vec::new();
        for path in &self.reports {
            let format = Format::for_path(path).map_err(|error| format!("--report {error}"))?;
            let folder = path.parent().filter(|p| !p.as_os_str().is_empty()).unwrap_or(Path::new("."));
            writable_folder(folder).map_err(|why| format!("--report {}: {why}", path.display()))?;
            planwright_fs::check_replaceable(path).map_err(|error| format!("--report {error}"))?;
            files.push((path.clone(), format));
        }
        if let Some(dir) = &self.allure_results {
            if dir.symlink_metadata().is_ok_and(|m| m.file_type().is_symlink()) {
                return Err(format!(
                    "--allure-results {}: it is a link, and reports are never written through one; name a folder",
                    dir.display()
                ));
            }
            // Created when missing: then the nearest folder that exists is the one written in.
            let existing = dir
                .ancestors()
                .map(|d| if d.as_os_str().is_empty() { Path::new(".") } else { d })
                .find(|d| d.exists())
                .unwrap_or(dir);
            writable_folder(existing).map_err(|why| format!("--allure-results {}: {why}", dir.display()))?;
        }
        Ok(Reports { files, allure: self.allure_results.clone() })
    }
}

/// Whether a file can be created in `folder`, tried with a nameless temporary file (the mode
/// bits do not say it for root, or for a read-only file system).
fn writable_folder(folder: &Path) -> std::result::Result<(), String> {
    match std::fs::metadata(folder) {
        Ok(meta) if meta.is_dir() => tempfile::tempfile_in(folder)
            .map(drop)
            .map_err(|e| format!("cannot write in the folder {}: {e}", folder.display())),
        Ok(_) => Err(format!("{} is not a folder", folder.display())),
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => {
            Err(format!("the folder {} does not exist; create it first", folder.display()))
        }
        Err(e) => Err(format!("cannot use the folder {}: {e}", folder.display())),
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
            let text = format.render(record, &ReportOptions::of_this_computer());
            planwright_fs::write_atomically(path, text.as_bytes(), planwright_fs::Access::Shared)
                .with_context(|| format!("writing {}", path.display()))?;
        }
        if let Some(dir) = &self.allure {
            planwright_reports::allure(record, dir).context("writing the Allure results")?;
        }
        Ok(())
    }
}
