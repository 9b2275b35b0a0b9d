//! The work folder as a person finds their files in it: the files a run could read (for the run
//! check's picker and its "did you mean"), and the folder opened in the file manager. The walk
//! is bounded, so a workspace holding a large tree answers quickly all the same.

use std::path::Path;

use crate::error::{ApiError, ApiMessage};
use crate::types::{ArtifactOpened, WorkFiles};
use crate::Studio;

/// Files listed at most; a folder with more is listed in part (`truncated`).
const MAX_FILES: usize = 2000;
/// Folders deep below the work folder that are looked into.
const MAX_DEPTH: usize = 6;
/// The studio's own folders, and others no input is read from.
const SKIPPED: &[&str] = &["designs", "drafts", "node_modules", "target"];

impl Studio {
    /// The work folder, and the files in it a step could read, as paths relative to it.
    pub async fn list_work_files(&self) -> Result<WorkFiles, ApiError> {
        let root = self.workspace();
        tokio::task::spawn_blocking(move || {
            let (files, truncated) = work_files(&root);
            Ok(WorkFiles { folder: root.display().to_string(), files, truncated })
        })
        .await
        .map_err(|e| ApiError::internal(format!("listing the work folder stopped: {e}")))?
    }

    /// Opens the work folder in the system's file manager.
    pub async fn open_work_folder(&self) -> Result<ArtifactOpened, ApiError> {
        let root = self.workspace();
        open::that_detached(&root).map_err(|e| {
            ApiError::internal(format!("{} could not be opened: {e}", root.display()))
                .with_hint("the system has no file manager to open it with (on Linux, install xdg-utils)")
                .saying(ApiMessage::OpenFailed { path: root.display().to_string() })
        })?;
        Ok(ArtifactOpened { opened: root.display().to_string() })
    }
}

/// The files under `root` (hidden entries and the studio's folders left out), relative, with
/// `/` between folders, sorted; and whether there were more than are listed.
pub(crate) fn work_files(root: &Path) -> (Vec<String>, bool) {
    let mut files = Vec::new();
    let mut folders = vec![(root.to_path_buf(), 0)];
    let mut truncated = false;
    while let Some((folder, depth)) = folders.pop() {
        let Ok(entries) = std::fs::read_dir(&folder) else { continue };
        for entry in entries.flatten() {
            let name = entry.file_name().to_string_lossy().into_owned();
            if name.starts_with('.') || (depth == 0 && SKIPPED.contains(&name.as_str())) {
                continue;
            }
            // Links are not followed: a run reads nothing outside the work folder.
            let Ok(kind) = entry.file_type() else { continue };
            if kind.is_dir() && depth + 1 < MAX_DEPTH {
                folders.push((entry.path(), depth + 1));
            } else if kind.is_file() {
                if files.len() == MAX_FILES {
                    truncated = true;
                    break;
                }
                let relative = entry.path().strip_prefix(root).map(|p| p.to_path_buf()).unwrap_or_default();
                files
                    .push(relative.components().map(|c| c.as_os_str().to_string_lossy()).collect::<Vec<_>>().join("/"));
            }
        }
    }
    files.sort();
    (files, truncated)
}

/// Files of the work folder the person may have meant by `missing`: the same name elsewhere,
/// else a name two typing slips from it with the same extension; at most three.
pub(crate) fn meant(missing: &str, files: &[String]) -> Vec<String> {
    let name = |path: &str| path.rsplit('/').next().unwrap_or(path).to_lowercase();
    let wanted = name(missing);
    let mut found: Vec<String> = files.iter().filter(|f| name(f) == wanted && *f != missing).cloned().collect();
    if found.is_empty() {
        // A typo's distance, not a likeness: `invoices_2024-04.xlsx` is not
        // `approved_invoices_2024-04.xlsx`, another file a person would not have meant.
        found = files
            .iter()
            .filter(|f| extension(f) == extension(missing))
            .filter(|f| strsim::damerau_levenshtein(&name(f), &wanted) <= 2)
            .cloned()
            .collect();
    }
    found.truncate(3);
    found
}

fn extension(path: &str) -> String {
    Path::new(path).extension().map(|e| e.to_string_lossy().to_lowercase()).unwrap_or_default()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_missing_file_is_found_under_its_name_elsewhere_or_by_a_close_name() {
        let files: Vec<String> = ["data/payments.csv", "data/payment_2026-10.csv", "archive/Payments.CSV", "notes.txt"]
            .map(String::from)
            .into();
        assert_eq!(meant("payments.csv", &files), ["data/payments.csv", "archive/Payments.CSV"]);
        assert_eq!(meant("data/paymnets.csv", &files), ["data/payments.csv", "archive/Payments.CSV"]);
        assert_eq!(meant("data/payment_2026-1O.csv", &files)[0], "data/payment_2026-10.csv");
        assert!(meant("ledger.xlsx", &files).is_empty());
        let april: Vec<String> = ["data/approved_invoices_2024-04.xlsx".to_owned()].into();
        assert!(meant("data/invoices_2024-04.xlsx", &april).is_empty(), "another file, not a slip");
    }

    #[test]
    fn the_walk_leaves_out_hidden_entries_and_the_studio_folders_and_stops_at_its_bounds() {
        let root = tempfile::tempdir().unwrap();
        for file in ["data/payments.csv", "designs/plan.yaml", ".git/config", "a/b/c/d/e/f/g/deep.csv", "top.xlsx"] {
            let path = root.path().join(file);
            std::fs::create_dir_all(path.parent().unwrap()).unwrap();
            std::fs::write(path, "x").unwrap();
        }
        let (files, truncated) = work_files(root.path());
        assert_eq!(files, ["data/payments.csv", "top.xlsx"]);
        assert!(!truncated);
    }
}
