//! The catalog: every block spec, looked up by id and optional pinned version.

use std::collections::BTreeMap;
use std::path::Path;
use std::sync::Arc;

use include_dir::{include_dir, Dir};

use crate::load::{parse_spec, CatalogError, SpecError};
use crate::spec::BlockSpec;

/// The catalog shipped inside the binary, from the repository's `block_specs/`.
static BUNDLED: Dir<'_> = include_dir!("$CARGO_MANIFEST_DIR/../../block_specs");

#[derive(Debug, Clone, Default)]
pub struct Catalog {
    /// Block id → its versions, oldest first.
    by_id: BTreeMap<String, Vec<Arc<BlockSpec>>>,
}

/// The outcome of looking up a node's `block` (`id` or `id@x.y.z`).
#[derive(Debug, Clone, PartialEq)]
pub enum Lookup<'a> {
    Found(&'a BlockSpec),
    UnknownBlock {
        candidates: Vec<String>,
    },
    UnknownVersion {
        available: Vec<semver::Version>,
    },
    /// `id@...` with something that is not a version after the `@`.
    BadVersion {
        message: String,
    },
}

impl Catalog {
    /// The catalog compiled into this build.
    pub fn bundled() -> Result<Catalog, CatalogError> {
        let mut files = Vec::new();
        collect_bundled(&BUNDLED, &mut files);
        Catalog::from_files(files)
    }

    /// Every `*.yaml` file below `dir` (`<category>/<id>.yaml`).
    pub fn load_dir(dir: &Path) -> Result<Catalog, CatalogError> {
        let io = |source| CatalogError::Io { path: dir.to_owned(), source };
        let mut files = Vec::new();
        for category in std::fs::read_dir(dir).map_err(io)? {
            let category = category.map_err(io)?.path();
            if !category.is_dir() {
                continue;
            }
            for entry in std::fs::read_dir(&category).map_err(io)? {
                let path = entry.map_err(io)?.path();
                if is_spec_file(&path) {
                    let text = std::fs::read_to_string(&path)
                        .map_err(|source| CatalogError::Io { path: path.clone(), source })?;
                    let relative = path.strip_prefix(dir).unwrap_or(&path).to_string_lossy().replace('\\', "/");
                    files.push((relative, text));
                }
            }
        }
        Catalog::from_files(files)
    }

    /// Builds a catalog from (relative path, text) pairs; reports every bad file at once.
    pub fn from_files(files: impl IntoIterator<Item = (String, String)>) -> Result<Catalog, CatalogError> {
        let mut catalog = Catalog::default();
        let mut errors: Vec<SpecError> = Vec::new();
        for (file, text) in files {
            match parse_spec(&file, &text) {
                Ok(spec) => {
                    let versions = catalog.by_id.entry(spec.id.clone()).or_default();
                    if versions.iter().any(|v| v.version == spec.version) {
                        errors.push(SpecError {
                            file,
                            line: 1,
                            field: "version".into(),
                            message: format!("{}@{} is defined twice", spec.id, spec.version),
                        });
                        continue;
                    }
                    versions.push(Arc::new(spec));
                    versions.sort_by(|a, b| a.version.cmp(&b.version));
                }
                Err(mut file_errors) => errors.append(&mut file_errors),
            }
        }
        if errors.is_empty() {
            Ok(catalog)
        } else {
            errors.sort_by(|a, b| (&a.file, a.line).cmp(&(&b.file, b.line)));
            Err(CatalogError::Invalid(errors))
        }
    }

    /// Looks up `id` or `id@x.y.z`; a bare id finds the newest version.
    pub fn lookup(&self, block: &str) -> Lookup<'_> {
        let (id, version) = match block.split_once('@') {
            Some((id, version)) => match semver::Version::parse(version) {
                Ok(v) => (id, Some(v)),
                Err(e) => {
                    return Lookup::BadVersion {
                        message: format!("`{version}` after `@` is not a version ({e}); write `{id}@1.0.0`"),
                    }
                }
            },
            None => (block, None),
        };
        let Some(versions) = self.by_id.get(id) else {
            return Lookup::UnknownBlock {
                candidates: planwright_plan::suggest::closest(id, self.by_id.keys().map(String::as_str)),
            };
        };
        match version {
            None => versions.last().map_or(Lookup::UnknownBlock { candidates: Vec::new() }, |s| Lookup::Found(s)),
            Some(v) => versions.iter().find(|s| s.version == v).map_or_else(
                || Lookup::UnknownVersion { available: versions.iter().map(|s| s.version.clone()).collect() },
                |s| Lookup::Found(s),
            ),
        }
    }

    /// The newest version of `id`.
    pub fn get(&self, id: &str) -> Option<&BlockSpec> {
        self.by_id.get(id).and_then(|v| v.last()).map(|s| s.as_ref())
    }

    /// The newest version of every block, by id.
    pub fn blocks(&self) -> impl Iterator<Item = &BlockSpec> {
        self.by_id.values().filter_map(|v| v.last()).map(|s| s.as_ref())
    }

    pub fn len(&self) -> usize {
        self.by_id.len()
    }

    pub fn is_empty(&self) -> bool {
        self.by_id.is_empty()
    }
}

fn is_spec_file(path: &Path) -> bool {
    matches!(path.extension().and_then(|e| e.to_str()), Some("yaml" | "yml"))
}

fn collect_bundled(dir: &Dir<'_>, files: &mut Vec<(String, String)>) {
    for file in dir.files() {
        if is_spec_file(file.path()) {
            let text = String::from_utf8_lossy(file.contents()).into_owned();
            files.push((file.path().to_string_lossy().replace('\\', "/"), text));
        }
    }
    for sub in dir.dirs() {
        collect_bundled(sub, files);
    }
}
