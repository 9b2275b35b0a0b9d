//! Every file of a designs folder — registrations, examples, templates — as a person browsing
//! the folder sees them. A file that does not load (as a plan, or under `templates/` as a
//! template) is listed with what is wrong, never silently dropped; links are not followed (a link
//! could lead out of the folder).

use std::fs;
use std::io;
use std::path::{Path, PathBuf};

use crate::name;

/// Where templates live inside a designs folder: `templates/<category>/<id>.yaml`.
pub const TEMPLATES_DIR: &str = "templates";

/// One file of the designs folder.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct DesignFile {
    /// The path under the designs folder, `/`-separated: `invoice_202503141200.yaml`,
    /// `templates/finance/monthly.yaml`.
    pub file: String,
    /// The file on disk.
    pub path: PathBuf,
    /// Under `templates/`.
    pub template: bool,
    /// What the file holds, or why it does not load as a plan (as a template under
    /// `templates/`).
    pub content: Result<PlanSummary, String>,
}

/// One file under `templates/`, read as a template.
#[derive(Debug, Clone, PartialEq)]
pub struct TemplateFile {
    /// The path under the designs folder: `templates/finance/bank_reconciliation.yaml`.
    pub file: String,
    /// The file on disk.
    pub path: PathBuf,
    /// The folder under `templates/`: `finance`.
    pub category: String,
    /// The template, or why it does not load.
    pub spec: Result<crate::TemplateSpec, String>,
}

/// What a listing shows of a plan.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PlanSummary {
    /// The plan's `id`.
    pub plan_id: String,
    /// The plan's `version`.
    pub version: String,
    /// The first line of the plan's description.
    pub title: Option<String>,
    /// When a registration's name carries a stamp of this plan's id: `2025-03-14T09:26` (the
    /// registering machine's local time). `None` for examples and templates.
    pub registered_at: Option<String>,
}

impl crate::Designs {
    /// Every `.yaml` / `.yml` file under the designs folder (templates included, hidden folders
    /// not), sorted by path. A missing folder is an empty list.
    pub fn list(&self) -> io::Result<Vec<DesignFile>> {
        Ok(self.files()?.into_iter().map(|(path, file)| describe(path, file)).collect())
    }

    /// The templates: every file under `templates/`, read as a template, sorted by path.
    pub fn templates(&self) -> io::Result<Vec<TemplateFile>> {
        Ok(self
            .files()?
            .into_iter()
            .filter(|(_, file)| is_template(file))
            .map(|(path, file)| {
                let category = file.split('/').nth(1).filter(|_| file.matches('/').count() > 1);
                TemplateFile {
                    category: category.unwrap_or_default().to_owned(),
                    spec: crate::TemplateSpec::load(&path).map_err(|e| e.to_string()),
                    file,
                    path,
                }
            })
            .collect())
    }

    /// The `.yaml` / `.yml` files under the folder, hidden ones and links aside, with their
    /// `/`-separated paths under it, sorted by that path.
    fn files(&self) -> io::Result<Vec<(PathBuf, String)>> {
        let root = self.dir();
        let mut found = Vec::new();
        let mut folders = vec![root.to_path_buf()];
        while let Some(dir) = folders.pop() {
            let entries = match fs::read_dir(&dir) {
                Ok(entries) => entries,
                Err(e) if e.kind() == io::ErrorKind::NotFound && dir == root => return Ok(Vec::new()),
                Err(e) => return Err(e),
            };
            for entry in entries {
                let entry = entry?;
                let path = entry.path();
                let Ok(relative) = path.strip_prefix(root) else { continue };
                let relative = relative.to_string_lossy().replace('\\', "/");
                let hidden = relative.rsplit('/').next().is_some_and(|n| n.starts_with('.'));
                // `file_type` does not follow links.
                let kind = entry.file_type()?;
                if hidden {
                    continue;
                } else if kind.is_dir() {
                    folders.push(path);
                } else if kind.is_file() && (relative.ends_with(".yaml") || relative.ends_with(".yml")) {
                    found.push((path, relative));
                }
            }
        }
        found.sort_by(|a, b| a.1.cmp(&b.1));
        Ok(found)
    }
}

fn is_template(file: &str) -> bool {
    file.starts_with(&format!("{TEMPLATES_DIR}/"))
}

fn describe(path: PathBuf, file: String) -> DesignFile {
    let template = is_template(&file);
    let content = summary(&path, &file, template);
    DesignFile { file, path, template, content }
}

fn summary(path: &Path, file: &str, template: bool) -> Result<PlanSummary, String> {
    if template {
        let spec = crate::TemplateSpec::load(path).map_err(|e| e.to_string())?;
        return Ok(PlanSummary {
            plan_id: spec.id,
            version: String::new(),
            title: Some(format!("{} / {}", spec.title.en, spec.title.ja)),
            registered_at: None,
        });
    }
    let loaded = planwright_plan::load_plan_file(path).map_err(|e| e.to_string())?;
    let plan = loaded.plan.ok_or_else(|| {
        let first = loaded.findings.first().map_or_else(|| "it is not a plan".to_owned(), |f| f.message.clone());
        format!("{first}; open it in the editor to see every problem")
    })?;
    let name = file.rsplit('/').next().unwrap_or(file);
    let registered_at =
        name::parse_registered_name(name).filter(|(id, _)| *id == plan.id).map(|(_, stamp)| stamp_time(stamp));
    Ok(PlanSummary {
        plan_id: plan.id,
        version: plan.version,
        title: plan.description.map(|d| d.lines().next().unwrap_or_default().trim().to_owned()),
        registered_at,
    })
}

/// `yyyymmddHHMM` as `yyyy-mm-ddTHH:MM`.
fn stamp_time(stamp: &str) -> String {
    format!("{}-{}-{}T{}:{}", &stamp[0..4], &stamp[4..6], &stamp[6..8], &stamp[8..10], &stamp[10..12])
}
