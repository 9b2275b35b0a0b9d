//! The run's work directory: where relative paths in blocks resolve, and the fence they may not
//! cross.

use std::path::{Component, Path, PathBuf};

use planwright_runs::{Reason, RunMessage};

use crate::block::BlockError;

/// A work directory, canonical.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Workdir {
    root: PathBuf,
}

impl Workdir {
    /// `root` must exist; it is canonicalised so that symlinks in it are resolved once.
    pub fn new(root: &Path) -> std::io::Result<Workdir> {
        Ok(Workdir { root: root.canonicalize()? })
    }

    pub fn root(&self) -> &Path {
        &self.root
    }

    /// The path `input` names, inside the work directory. Relative paths resolve against it;
    /// absolute ones must already be inside it. `..` that climbs out, and symlinks (anywhere
    /// along the path) that lead out, are refused with a message naming the input.
    pub fn resolve(&self, input: &str, value: &str) -> Result<PathBuf, BlockError> {
        let refuse = |why: &str| {
            let workdir = self.root.display().to_string();
            let text = format!("`{input}`: {value:?} {why}; files must stay inside the run's work directory {workdir}");
            let said = RunMessage::PathOutsideWorkdir { input: input.to_owned(), path: value.to_owned(), workdir };
            BlockError::input(Reason::said(said, text))
        };
        if value.trim().is_empty() {
            let text = format!("`{input}` is empty; give a file path");
            return Err(BlockError::input(Reason::said(RunMessage::PathEmpty { input: input.to_owned() }, text)));
        }
        let given = Path::new(value);
        let joined = if given.is_absolute() { given.to_path_buf() } else { self.root.join(given) };
        // Lexically first: `..` must not climb above the root.
        let mut normal = PathBuf::new();
        for component in joined.components() {
            match component {
                Component::ParentDir => {
                    if !normal.pop() {
                        return Err(refuse("climbs above the file system root"));
                    }
                }
                Component::CurDir => {}
                other => normal.push(other),
            }
        }
        if !normal.starts_with(&self.root) {
            return Err(refuse("is outside the work directory"));
        }
        // Then physically: the deepest existing ancestor, with symlinks resolved, must still be
        // inside (a symlink inside the work directory may point anywhere).
        let mut existing = normal.as_path();
        while !existing.exists() {
            match existing.parent() {
                Some(parent) => existing = parent,
                None => break,
            }
        }
        let real = existing.canonicalize().map_err(|e| BlockError::input(format!("`{input}`: {value:?}: {e}")))?;
        if !real.starts_with(&self.root) {
            return Err(refuse("leads out of the work directory through a symbolic link"));
        }
        // `join("")` would add a trailing `/`, which makes an existing file look like a folder.
        match normal.strip_prefix(existing) {
            Ok(rest) if !rest.as_os_str().is_empty() => Ok(real.join(rest)),
            _ => Ok(real),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn relative_paths_resolve_inside() {
        let dir = tempfile::tempdir().unwrap();
        let workdir = Workdir::new(dir.path()).unwrap();
        let path = workdir.resolve("path", "data/invoices.csv").unwrap();
        assert_eq!(path, workdir.root().join("data/invoices.csv"));
        assert_eq!(workdir.resolve("path", "./a/../b.csv").unwrap(), workdir.root().join("b.csv"));
    }

    #[test]
    fn escapes_are_refused() {
        let dir = tempfile::tempdir().unwrap();
        let workdir = Workdir::new(dir.path()).unwrap();
        for bad in ["../x.csv", "a/../../x.csv", "/etc/passwd", "", "  "] {
            let err = workdir.resolve("path", bad).unwrap_err();
            assert!(matches!(err, BlockError::Input(_)), "{bad}");
        }
        assert!(workdir.resolve("path", "../x.csv").unwrap_err().to_string().contains("work directory"));
    }

    #[test]
    fn an_existing_file_resolves_to_itself() {
        let dir = tempfile::tempdir().unwrap();
        std::fs::write(dir.path().join("bank.csv"), "a\n").unwrap();
        let workdir = Workdir::new(dir.path()).unwrap();
        let path = workdir.resolve("path", "bank.csv").unwrap();
        assert!(!path.as_os_str().to_string_lossy().ends_with('/'), "{}", path.display());
        assert!(path.is_file());
    }

    #[test]
    fn absolute_paths_inside_are_fine() {
        let dir = tempfile::tempdir().unwrap();
        let workdir = Workdir::new(dir.path()).unwrap();
        let inside = workdir.root().join("out.md");
        assert_eq!(workdir.resolve("path", inside.to_str().unwrap()).unwrap(), inside);
    }

    #[cfg(unix)]
    #[test]
    fn symlinks_out_are_refused() {
        let dir = tempfile::tempdir().unwrap();
        let outside = tempfile::tempdir().unwrap();
        std::os::unix::fs::symlink(outside.path(), dir.path().join("link")).unwrap();
        let workdir = Workdir::new(dir.path()).unwrap();
        let err = workdir.resolve("path", "link/secret.txt").unwrap_err();
        assert!(err.to_string().contains("symbolic link"), "{err}");
        std::os::unix::fs::symlink(dir.path().join("data"), dir.path().join("inner")).unwrap();
        std::fs::create_dir(dir.path().join("data")).unwrap();
        assert!(workdir.resolve("path", "inner/x.csv").is_ok());
    }
}
