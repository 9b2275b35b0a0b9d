//! The designs folder: where registered plans, examples and templates live, what it holds
//! (`Designs::list`, `Designs::templates`: every file, with why when it does not load), the
//! templates' format (`TemplateSpec`), how a
//! plan id (`invoice_dupes`, or pinned, `invoice_dupes@1.2.0`) resolves to a plan, and how a
//! plan is registered.
//!
//! A registered plan is a file `<designs>/<plan_id>_<yyyymmddHHMM>.yaml`, for example
//! `invoice_dupes_202611221430.yaml`. Registered files are never overwritten: registering the
//! same id with changed text (in a later minute) adds a file, and the newest stamp is what a
//! plain id resolves to; unchanged text is already registered. Files whose names do not follow that pattern are ignored.
//!
//! ```no_run
//! use planwright_designs::{Designs, Resolution};
//!
//! let designs = Designs::new("designs").with_fallback_dir("plans/in-progress");
//! match designs.resolve("invoice_dupes@1.2.0") {
//!     Resolution::Found { plan, path } => println!("{} {} from {}", plan.id, plan.version, path.display()),
//!     Resolution::NotFound { candidates } => println!("unknown plan; closest: {candidates:?}"),
//!     Resolution::Unreadable { path, message } => println!("{}: {message}", path.display()),
//! }
//! ```

#![warn(missing_docs)]

mod listing;
mod name;
mod register;
mod template;

use std::collections::{BTreeSet, HashMap};
use std::fs;
use std::io;
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex, PoisonError};

use planwright_plan::Plan;

pub use listing::{DesignFile, PlanSummary, TemplateFile, TEMPLATES_DIR};
pub use register::RegisterError;
pub use template::{TemplateError, TemplatePort, TemplateSpec, UiSuggestions, IMPORTS_ROOT};

/// A designs folder, plus the folders searched for plain `<plan_id>.yaml` files when no
/// registered plan has an id.
///
/// Plans read from registered files are kept in memory (registered files never change), so
/// resolving the same id again is cheap. A `Designs` can be shared between threads.
pub struct Designs {
    dir: PathBuf,
    fallback_dirs: Vec<PathBuf>,
    /// Registered file → its length when read and the plan it holds.
    cache: Mutex<HashMap<PathBuf, (u64, Arc<Plan>)>>,
}

/// One registered plan file.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Registered {
    /// The plan id, from the file name.
    pub plan_id: String,
    /// When it was registered, `yyyymmddHHMM`, from the file name.
    pub stamp: String,
    /// The file: `<designs>/<plan_id>_<stamp>.yaml`.
    pub path: PathBuf,
}

/// What a plan reference (`id` or `id@x.y.z`) resolves to.
#[derive(Debug, Clone, PartialEq)]
pub enum Resolution {
    /// The plan, and the file it was read from.
    Found {
        /// The typed plan.
        plan: Arc<Plan>,
        /// The file it was read from.
        path: PathBuf,
    },
    /// No registered plan (and no fallback file) matches.
    NotFound {
        /// The closest known plan ids, best first (at most three). When the id is known but
        /// no registration has the requested version, the known `id@version` references
        /// instead, newest version first.
        candidates: Vec<String>,
    },
    /// The file exists but cannot be read or is not a valid plan model (message says why).
    Unreadable {
        /// The file (or, when the designs folder itself cannot be listed, the folder).
        path: PathBuf,
        /// Why, as a sentence that does not repeat the path.
        message: String,
    },
}

/// What [`Designs::register`] did.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum RegisterOutcome {
    /// The plan was written to this new file.
    Written(PathBuf),
    /// Identical text is already the newest registration of the id (or is registered under
    /// the name this minute would give); nothing was written.
    AlreadyRegistered(PathBuf),
}

impl std::fmt::Debug for Designs {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Designs").field("dir", &self.dir).field("fallback_dirs", &self.fallback_dirs).finish()
    }
}

impl Designs {
    /// The designs folder `dir`. Nothing is read or created until it is used.
    pub fn new(dir: impl Into<PathBuf>) -> Designs {
        Designs { dir: dir.into(), fallback_dirs: Vec::new(), cache: Mutex::new(HashMap::new()) }
    }

    /// Also look for plain `<plan_id>.yaml` files in `dir` (e.g. the folder of the plan being
    /// validated) when no registered plan has the id. Fallback folders are searched in the
    /// order they were added.
    pub fn with_fallback_dir(mut self, dir: impl Into<PathBuf>) -> Designs {
        self.fallback_dirs.push(dir.into());
        self
    }

    /// The designs folder.
    pub fn dir(&self) -> &Path {
        &self.dir
    }

    /// Registered plans, sorted by plan id then stamp. A missing folder is an empty list.
    ///
    /// Only regular files (or links to them) named `<plan_id>_<yyyymmddHHMM>.yaml` with a valid
    /// plan id count; everything else in the folder is ignored.
    pub fn registered(&self) -> io::Result<Vec<Registered>> {
        let entries = match fs::read_dir(&self.dir) {
            Ok(entries) => entries,
            Err(e) if e.kind() == io::ErrorKind::NotFound => return Ok(Vec::new()),
            Err(e) => return Err(e),
        };
        let mut found = Vec::new();
        for entry in entries {
            let entry = entry?;
            let file_name = entry.file_name();
            let Some((plan_id, stamp)) = file_name.to_str().and_then(name::parse_registered_name) else {
                continue;
            };
            if !is_file(&entry.path(), entry.file_type()?) {
                tracing::debug!(path = %entry.path().display(), "ignoring a registered name that is not a file");
                continue;
            }
            found.push(Registered { plan_id: plan_id.to_owned(), stamp: stamp.to_owned(), path: entry.path() });
        }
        found.sort_by(|a, b| a.plan_id.cmp(&b.plan_id).then_with(|| a.stamp.cmp(&b.stamp)));
        Ok(found)
    }

    /// `id` → the newest registration (largest stamp) of that id; `id@x.y.z` → the newest
    /// registration whose plan `version` equals x.y.z; then the fallback dirs (`<id>.yaml`, whose
    /// plan id must equal id, and for `@version`, whose version must match).
    ///
    /// For a plain `id` whose newest registration cannot be read, the answer is
    /// [`Resolution::Unreadable`]: older registrations are not used in its place. For `id@x.y.z`,
    /// files that cannot be read are passed over; if nothing else matches, the first of them
    /// (newest first) is reported as unreadable, since it may be the plan that was meant.
    pub fn resolve(&self, plan_ref: &str) -> Resolution {
        let (id, version) = match plan_ref.split_once('@') {
            Some((id, version)) => (id, Some(version)),
            None => (plan_ref, None),
        };
        let registered = match self.registered() {
            Ok(registered) => registered,
            Err(e) => {
                return Resolution::Unreadable {
                    path: self.dir.clone(),
                    message: format!(
                        "the designs folder cannot be listed ({e}); check that it is a folder you can read"
                    ),
                }
            }
        };
        // An invalid id cannot name a file; it only gets suggestions.
        if !name::is_valid_id(id) {
            return Resolution::NotFound { candidates: self.closest_ids(id, &registered) };
        }

        let mut unreadable = None;
        let mut versions = Vec::new();
        for entry in registered.iter().rev().filter(|r| r.plan_id == id) {
            match self.load_registered(entry) {
                Ok(plan) => match version {
                    None => return Resolution::Found { plan, path: entry.path.clone() },
                    Some(wanted) if versions_equal(&plan.version, wanted) => {
                        return Resolution::Found { plan, path: entry.path.clone() }
                    }
                    Some(_) => versions.push(plan.version.clone()),
                },
                Err(message) if version.is_none() => {
                    return Resolution::Unreadable { path: entry.path.clone(), message }
                }
                Err(message) => {
                    tracing::debug!(path = %entry.path.display(), %message, "passing over an unreadable registration");
                    unreadable.get_or_insert(Resolution::Unreadable { path: entry.path.clone(), message });
                }
            }
        }

        for dir in &self.fallback_dirs {
            let path = dir.join(format!("{id}{}", name::EXTENSION));
            if fs::symlink_metadata(&path).is_err() {
                continue;
            }
            match read_plan(&path) {
                Ok(plan) if plan.id != id => {
                    tracing::debug!(path = %path.display(), declared = %plan.id, "fallback file declares another plan id");
                }
                Ok(plan) => match version {
                    Some(wanted) if !versions_equal(&plan.version, wanted) => versions.push(plan.version),
                    _ => return Resolution::Found { plan: Arc::new(plan), path },
                },
                Err(message) => {
                    unreadable.get_or_insert(Resolution::Unreadable { path, message });
                }
            }
        }

        if let Some(unreadable) = unreadable {
            return unreadable;
        }
        if !versions.is_empty() {
            return Resolution::NotFound { candidates: newest_refs(id, versions) };
        }
        Resolution::NotFound { candidates: self.closest_ids(id, &registered) }
    }

    /// Writes `text` (already validated by the caller; written byte-for-byte, comments kept) as
    /// `<dir>/<plan_id>_<stamp>.yaml` with stamp = `now` formatted yyyymmddHHMM. Creates the
    /// folder if missing.
    ///
    /// The stamp is `now` in its own offset: pass local time or UTC, but the same one always.
    ///
    /// The write is atomic (a temporary file in the designs folder, synced, then linked into
    /// place without replacing anything) and never overwrites: when the name is taken by
    /// identical text the answer is [`RegisterOutcome::AlreadyRegistered`], by different text
    /// [`RegisterError::Conflict`]. The plan id is checked again here, and nothing is ever
    /// written outside the designs folder, through a link, or over a folder. On any error no
    /// temporary file is left behind.
    ///
    /// Text identical to the newest registration of the id, in whatever minute that was, is
    /// [`RegisterOutcome::AlreadyRegistered`] with that file: registering twice without an edit
    /// never adds a second copy.
    pub fn register(
        &self,
        plan_id: &str,
        text: &str,
        now: time::OffsetDateTime,
    ) -> Result<RegisterOutcome, RegisterError> {
        // A folder that cannot be listed is reported by the write itself, with its reason.
        let newest = self.registered().ok().and_then(|all| all.into_iter().rev().find(|r| r.plan_id == plan_id));
        register::register(&self.dir, plan_id, text, now, newest.map(|r| r.path).as_deref())
    }

    /// A registered plan, from memory when it was read before. Its declared id must be the one
    /// its file name registers it under.
    fn load_registered(&self, entry: &Registered) -> Result<Arc<Plan>, String> {
        let len = fs::metadata(&entry.path).map(|m| m.len()).ok();
        let mut cache = self.cache.lock().unwrap_or_else(PoisonError::into_inner);
        if let Some((cached_len, plan)) = cache.get(&entry.path) {
            if Some(*cached_len) == len {
                return Ok(Arc::clone(plan));
            }
        }
        drop(cache);
        let (len, plan) = read_plan_with_len(&entry.path)?;
        if plan.id != entry.plan_id {
            return Err(format!(
                "the file is registered as plan `{}` but declares `id: {}`; register the plan again under its own id, \
                 or move this file out of the designs folder",
                entry.plan_id, plan.id
            ));
        }
        let plan = Arc::new(plan);
        cache = self.cache.lock().unwrap_or_else(PoisonError::into_inner);
        cache.insert(entry.path.clone(), (len, Arc::clone(&plan)));
        Ok(plan)
    }

    /// The closest known plan ids to `id`: registered ids, and the `<id>.yaml` names of the
    /// fallback folders.
    fn closest_ids(&self, id: &str, registered: &[Registered]) -> Vec<String> {
        let mut known: BTreeSet<String> = registered.iter().map(|r| r.plan_id.clone()).collect();
        for dir in &self.fallback_dirs {
            let Ok(entries) = fs::read_dir(dir) else {
                continue;
            };
            for entry in entries.flatten() {
                let file_name = entry.file_name();
                let Some(stem) = file_name.to_str().and_then(|n| n.strip_suffix(name::EXTENSION)) else {
                    continue;
                };
                if name::is_valid_id(stem) {
                    known.insert(stem.to_owned());
                }
            }
        }
        planwright_plan::suggest::closest(id, known.iter().map(String::as_str))
    }
}

/// Whether a directory entry is a regular file, or a link to one.
fn is_file(path: &Path, file_type: fs::FileType) -> bool {
    if file_type.is_symlink() {
        fs::metadata(path).is_ok_and(|m| m.is_file())
    } else {
        file_type.is_file()
    }
}

/// Two plan versions are equal when they are the same semantic version (or, when either is not
/// one, the same text).
fn versions_equal(declared: &str, wanted: &str) -> bool {
    match (semver::Version::parse(declared.trim()), semver::Version::parse(wanted.trim())) {
        (Ok(a), Ok(b)) => a == b,
        _ => declared.trim() == wanted.trim(),
    }
}

/// `id@version` for the newest three distinct versions.
fn newest_refs(id: &str, mut versions: Vec<String>) -> Vec<String> {
    versions.sort_by(|a, b| match (semver::Version::parse(a), semver::Version::parse(b)) {
        (Ok(a), Ok(b)) => b.cmp(&a),
        (Ok(_), Err(_)) => std::cmp::Ordering::Less,
        (Err(_), Ok(_)) => std::cmp::Ordering::Greater,
        (Err(_), Err(_)) => a.cmp(b),
    });
    versions.dedup();
    versions.into_iter().take(3).map(|v| format!("{id}@{v}")).collect()
}

/// Reads a plan file into the typed model; on failure, says why (without the path).
fn read_plan(path: &Path) -> Result<Plan, String> {
    read_plan_with_len(path).map(|(_, plan)| plan)
}

fn read_plan_with_len(path: &Path) -> Result<(u64, Plan), String> {
    let loaded = planwright_plan::load_plan_file(path).map_err(|e| format!("{e}; fix the file"))?;
    let len = loaded.text().len() as u64;
    match loaded.plan {
        Some(plan) => Ok((len, plan)),
        None => {
            let why = loaded.findings.iter().find(|f| f.is_error()).map_or_else(
                || "it does not match the plan format".to_owned(),
                |f| match f.line {
                    Some(line) => format!("line {line}: {}", f.message),
                    None => f.message.clone(),
                },
            );
            Err(format!("not a valid plan: {why}; fix the file, or register a corrected plan"))
        }
    }
}
