//! The workspace folder: `designs/` (registered plans and the seeded examples),
//! `designs/templates/`, `drafts/` (what the editor autosaves), `data/` (the examples' sample
//! inputs).

use std::io::Write;
use std::path::{Component, Path, PathBuf};
use std::time::SystemTime;

use include_dir::{include_dir, Dir};
use planwright_designs::Designs;
use planwright_fs::Access;

use crate::design::DesignSession;
use crate::error::{ApiError, ApiMessage};
use crate::types::{DesignInfo, DesignText, DraftDeleted, DraftInfo, DraftText, PlanText};
use crate::Studio;

pub(crate) const DESIGNS: &str = "designs";

const DRAFTS: &str = "drafts";
/// Under `drafts/`: each draft's design session (`<draft>.json`), beside the plan text.
const SESSIONS: &str = "sessions";
/// The examples' sample inputs, in `designs/examples/data/` and in a workspace's `data/`.
const SAMPLE_DATA: &str = "data";

/// The repository's example plans, seeded into a new workspace's `designs/`.
static EXAMPLES: Dir<'_> = include_dir!("$CARGO_MANIFEST_DIR/../../designs/examples");
/// The repository's templates, seeded into a new workspace's `designs/templates/`.
static TEMPLATES: Dir<'_> = include_dir!("$CARGO_MANIFEST_DIR/../../designs/templates");

pub(crate) fn default_dir() -> Result<PathBuf, ApiError> {
    dirs::home_dir().map(|home| home.join("Planwright")).ok_or_else(|| {
        ApiError::invalid("this system reports no home folder for the default workspace")
            .with_hint("choose a workspace folder (planwright serve --workspace DIR)")
            .saying(ApiMessage::NoHomeFolder)
    })
}

/// Creates the folders and writes every bundled example and template that is not there yet, and the sample
/// inputs the examples read (`data/`) at the workspace's top, where a run's relative paths
/// resolve, so that an example runs as it is.
pub(crate) fn prepare(root: &Path) -> Result<(), ApiError> {
    let designs = root.join(DESIGNS);
    for dir in [designs.join(planwright_designs::TEMPLATES_DIR), root.join(DRAFTS), root.join(SAMPLE_DATA)] {
        std::fs::create_dir_all(&dir).map_err(|e| io_error("create", &dir, &e))?;
    }
    for file in EXAMPLES.files() {
        if file.path().extension().is_some_and(|ext| ext == "yaml") {
            write_new(&designs.join(file.path()), file.contents())?;
        }
    }
    let templates = designs.join(planwright_designs::TEMPLATES_DIR);
    for category in TEMPLATES.dirs() {
        std::fs::create_dir_all(templates.join(category.path())).map_err(|e| io_error("create", &templates, &e))?;
        for file in category.files().filter(|f| f.path().extension().is_some_and(|ext| ext == "yaml")) {
            write_new(&templates.join(file.path()), file.contents())?;
        }
    }
    for file in EXAMPLES.get_dir(SAMPLE_DATA).map(|dir| dir.files()).into_iter().flatten() {
        write_new(&root.join(file.path()), file.contents())?;
    }
    Ok(())
}

/// Writes `contents` to `target` unless it exists: a user's file is never overwritten.
fn write_new(target: &Path, contents: &[u8]) -> Result<(), ApiError> {
    match std::fs::OpenOptions::new().write(true).create_new(true).open(target) {
        Ok(mut out) => out.write_all(contents).map_err(|e| io_error("write", target, &e)),
        Err(e) if e.kind() == std::io::ErrorKind::AlreadyExists => Ok(()),
        Err(e) => Err(io_error("create", target, &e)),
    }
}

pub(crate) fn io_error(action: &str, path: &Path, error: &std::io::Error) -> ApiError {
    ApiError::internal(format!("cannot {action} {}: {error}", path.display()))
        .with_hint("check that the workspace folder exists and is writable")
        .saying(ApiMessage::WorkspaceFileFailed { path: path.display().to_string(), detail: error.to_string() })
}

/// RFC 3339 UTC, seconds.
pub(crate) fn rfc3339(at: SystemTime) -> String {
    let at = time::OffsetDateTime::from(at);
    at.format(&time::format_description::well_known::Rfc3339).unwrap_or_default()
}

/// The longest name a draft or a design file may have, in characters.
const MAX_NAME_CHARS: usize = 100;

/// `relative` as a path inside `root`: each part a plain name — letters (any script), digits,
/// `_`, `-` and `.`, not starting with a dot — ending in `.yaml` or `.yml`, at most
/// [`MAX_NAME_CHARS`] characters a part.
fn inside(root: &Path, relative: &str, what: &str) -> Result<PathBuf, ApiError> {
    let path = Path::new(relative);
    let plain_part = |part: &str| {
        !part.is_empty()
            && !part.starts_with('.')
            && part.chars().count() <= MAX_NAME_CHARS
            && part.chars().all(|c| c.is_alphanumeric() || matches!(c, '_' | '-' | '.'))
    };
    let plain = !relative.is_empty()
        && path.components().all(|c| matches!(c, Component::Normal(part) if part.to_str().is_some_and(plain_part)));
    let yaml = path.extension().is_some_and(|ext| ext == "yaml" || ext == "yml");
    if !plain || !yaml {
        return Err(ApiError::invalid(format!("{what} {relative:?} is not a plan file name"))
            .with_hint(format!(
                "use a name like `invoice_check.yaml`: letters, digits, `_`, `-`, `.`, at most {MAX_NAME_CHARS} \
             characters, ending in .yaml"
            ))
            .saying(ApiMessage::NotAPlanFileName { name: relative.to_owned(), max: MAX_NAME_CHARS as u64 }));
    }
    Ok(root.join(path))
}

/// `path` (inside `root`, as [`inside`] made it), refused when a symbolic link along it leads out
/// of `root`.
pub(crate) fn within(root: &Path, path: PathBuf, what: &str, name: &str) -> Result<PathBuf, ApiError> {
    let (Ok(real_root), Ok(real)) = (root.canonicalize(), path.canonicalize()) else {
        // Not there (yet): reading says so, writing creates a plain file.
        return Ok(path);
    };
    if real.starts_with(&real_root) {
        Ok(path)
    } else {
        Err(ApiError::invalid(format!("{what} {name:?} is a link to a file outside the workspace"))
            .with_hint(
                "keep plans and documents as files inside the workspace folder; links leading out are not followed",
            )
            .saying(ApiMessage::LinkOutsideWorkspace { name: name.to_owned() }))
    }
}

fn read_text(path: &Path, what: &str, name: &str) -> Result<String, ApiError> {
    match std::fs::read_to_string(path) {
        Ok(text) => Ok(text),
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => {
            Err(ApiError::not_found(format!("there is no {what} {name:?}"))
                .with_hint("list them to pick one")
                .saying(ApiMessage::NotThere { name: name.to_owned() }))
        }
        Err(e) => Err(io_error("read", path, &e)),
    }
}

impl Studio {
    /// The plans a run or a `call` can name: registered ones, then the `<id>.yaml` examples.
    pub(crate) fn designs(&self) -> Designs {
        let dir = self.designs_dir();
        Designs::new(&dir).with_fallback_dir(&dir)
    }

    /// The engine a run of the studio's runs on: every block, the workspace's plans to `call`.
    pub(crate) fn engine(&self) -> planwright_engine::Engine {
        planwright_engine::Engine::new(
            self.inner.catalog.clone(),
            crate::blocks(self.data_home()),
            std::sync::Arc::new(self.designs()),
        )
    }

    /// Registered plans, the seeded examples and the templates of the workspace.
    pub async fn list_designs(&self) -> Result<Vec<DesignInfo>, ApiError> {
        let designs = Designs::new(self.designs_dir());
        tokio::task::spawn_blocking(move || list_designs(&designs))
            .await
            .map_err(|e| ApiError::internal(format!("listing designs stopped: {e}")))?
    }

    /// One design's text; `file` as `list_designs` names it.
    pub async fn open_design(&self, file: String) -> Result<DesignText, ApiError> {
        let root = self.designs_dir();
        let path = within(&root, inside(&root, &file, "design")?, "design", &file)?;
        let text = read_text(&path, "design", &file)?;
        Ok(DesignText { file, text })
    }

    pub async fn list_drafts(&self) -> Result<Vec<DraftInfo>, ApiError> {
        let dir = self.workspace().join(DRAFTS);
        let entries = match std::fs::read_dir(&dir) {
            Ok(entries) => entries,
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(Vec::new()),
            Err(e) => return Err(io_error("list", &dir, &e)),
        };
        let mut drafts: Vec<DraftInfo> = entries
            .flatten()
            .filter_map(|entry| {
                let name = entry.file_name().to_string_lossy().into_owned();
                // `file_type` does not follow links: a link is not a draft.
                entry.file_type().ok().filter(|t| t.is_file())?;
                let meta = entry.metadata().ok()?;
                inside(&dir, &name, "draft").ok()?;
                Some(DraftInfo { name, updated_at: rfc3339(meta.modified().ok()?) })
            })
            .collect();
        drafts.sort_by(|a, b| b.updated_at.cmp(&a.updated_at).then(a.name.cmp(&b.name)));
        Ok(drafts)
    }

    pub async fn open_draft(&self, name: String) -> Result<DraftText, ApiError> {
        let path = self.draft_path(&name)?;
        let text = read_text(&path, "draft", &name)?;
        let updated_at = std::fs::metadata(&path).and_then(|m| m.modified()).map(rfc3339).unwrap_or_default();
        let session = self.read_session(&name);
        Ok(DraftText { name, text, updated_at, session })
    }

    /// Keeps a draft's design session (instruction, documents, templates, pins, chat, the
    /// generation) beside it, so that closing the studio loses none of it. A credential spelled
    /// out in the instruction, the chat or an answer is kept as its placeholder only; the answer
    /// is the session as kept.
    pub async fn save_design_session(&self, name: String, session: DesignSession) -> Result<DesignSession, ApiError> {
        self.draft_path(&name)?;
        let session = session.without_credentials()?;
        let path = self.workspace().join(DRAFTS).join(SESSIONS).join(format!("{name}.json"));
        if let Some(dir) = path.parent() {
            std::fs::create_dir_all(dir).map_err(|e| io_error("create", dir, &e))?;
        }
        let json = serde_json::to_string(&session).map_err(|e| ApiError::internal(format!("the session: {e}")))?;
        crate::settings::write_atomically(&path, &json, Access::Shared)?;
        Ok(session)
    }

    /// A draft's session; one that is missing or damaged is none (the draft's text still opens).
    fn read_session(&self, name: &str) -> Option<DesignSession> {
        let path = self.workspace().join(DRAFTS).join(SESSIONS).join(format!("{name}.json"));
        let text = std::fs::read_to_string(&path).ok()?;
        serde_json::from_str(&text)
            .inspect_err(|e| tracing::warn!(path = %path.display(), error = %e, "a design session does not read back"))
            .ok()
    }

    /// Writes the draft atomically.
    pub async fn save_draft(&self, name: String, request: PlanText) -> Result<DraftInfo, ApiError> {
        let path = self.draft_path(&name)?;
        crate::settings::write_atomically(&path, &request.text, Access::Shared)?;
        let updated_at = std::fs::metadata(&path).and_then(|m| m.modified()).map(rfc3339).unwrap_or_default();
        Ok(DraftInfo { name, updated_at })
    }

    /// Deletes a draft and its design session; a draft that is not there is already deleted.
    pub async fn delete_draft(&self, name: String) -> Result<DraftDeleted, ApiError> {
        let path = self.draft_path(&name)?;
        let session = self.workspace().join(DRAFTS).join(SESSIONS).join(format!("{name}.json"));
        for file in [&path, &session] {
            match std::fs::remove_file(file) {
                Ok(()) => {}
                Err(e) if e.kind() == std::io::ErrorKind::NotFound => {}
                Err(e) => return Err(io_error("delete", file, &e)),
            }
        }
        tracing::info!(draft = %name, "draft deleted");
        Ok(DraftDeleted { name })
    }

    fn draft_path(&self, name: &str) -> Result<PathBuf, ApiError> {
        if name.contains('/') || name.contains('\\') {
            return Err(ApiError::invalid(format!("draft name {name:?} has a folder in it"))
                .with_hint("drafts are plain file names like `invoice_check.yaml`")
                .saying(ApiMessage::DraftNameHasFolder { name: name.to_owned() }));
        }
        let root = self.workspace().join(DRAFTS);
        within(&root, inside(&root, name, "draft")?, "draft", name)
    }
}

fn list_designs(designs: &Designs) -> Result<Vec<DesignInfo>, ApiError> {
    let files = designs.list().map_err(|e| io_error("list", designs.dir(), &e))?;
    let mut found: Vec<DesignInfo> = files
        .into_iter()
        .filter(|f| inside(designs.dir(), &f.file, "design").is_ok())
        .map(|f| match f.content {
            Ok(plan) => DesignInfo {
                file: f.file,
                plan_id: plan.plan_id,
                version: plan.version,
                title: plan.title,
                registered_at: plan.registered_at,
                template: f.template,
                problem: None,
            },
            Err(problem) => DesignInfo {
                plan_id: f.file.rsplit('/').next().unwrap_or(&f.file).to_owned(),
                file: f.file,
                version: String::new(),
                title: None,
                registered_at: None,
                template: f.template,
                problem: Some(problem),
            },
        })
        .collect();
    found.sort_by(|a, b| (a.template, &a.plan_id, &b.registered_at).cmp(&(b.template, &b.plan_id, &a.registered_at)));
    Ok(found)
}
