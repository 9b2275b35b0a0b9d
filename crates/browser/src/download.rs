//! Files the driven page downloads: saved into a folder the caller names, under the name the
//! site suggested (made unique there), and reported once complete.
//!
//! Chromium saves each download under its GUID (`Browser.setDownloadBehavior` with
//! `allowAndName`) and reports it with `Browser.downloadWillBegin` and
//! `Browser.downloadProgress`; once it completes, the file is renamed to the suggested name, so
//! that two downloads of `statement.csv` become `statement.csv` and `statement (2).csv` and a
//! half-written file never carries the real name.

use std::path::{Path, PathBuf};
use std::sync::{Mutex, PoisonError};
use std::time::{Duration, Instant};

use serde::Serialize;
use serde_json::json;

use crate::error::BrowserError;
use crate::session::BrowserSession;

/// A file the page downloaded.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Download {
    /// Its name in the folder (the site's suggested name, made unique).
    pub file_name: String,
    pub path: PathBuf,
    pub bytes: u64,
    /// Where it came from.
    pub url: String,
}

#[derive(Debug, Clone)]
enum State {
    InProgress,
    Completed,
    Canceled,
}

#[derive(Debug, Clone)]
struct Begun {
    guid: String,
    url: String,
    suggested: String,
    state: State,
}

/// The downloads a session's pages began, in order, and where they go.
#[derive(Default)]
pub(crate) struct Downloads {
    dir: Mutex<Option<PathBuf>>,
    begun: Mutex<Vec<Begun>>,
    /// Downloads already moved to their names, by their place in `begun`.
    saved: Mutex<Vec<(usize, Download)>>,
}

impl Downloads {
    pub(crate) fn dir(&self) -> Option<PathBuf> {
        self.dir.lock().unwrap_or_else(PoisonError::into_inner).clone()
    }

    pub(crate) fn began(&self, guid: String, url: String, suggested: String) {
        self.begun.lock().unwrap_or_else(PoisonError::into_inner).push(Begun {
            guid,
            url,
            suggested,
            state: State::InProgress,
        });
    }

    pub(crate) fn progressed(&self, guid: &str, completed: bool, canceled: bool) {
        let mut begun = self.begun.lock().unwrap_or_else(PoisonError::into_inner);
        if let Some(download) = begun.iter_mut().find(|d| d.guid == guid) {
            if completed {
                download.state = State::Completed;
            } else if canceled {
                download.state = State::Canceled;
            }
        }
    }

    pub(crate) fn count(&self) -> usize {
        self.begun.lock().unwrap_or_else(PoisonError::into_inner).len()
    }
}

impl BrowserSession {
    /// From now on, files the driven page (or a tab it opens) downloads are saved into `dir`,
    /// created if missing. Until this is called, downloads follow the browser's default.
    pub async fn save_downloads_to(&self, dir: &Path) -> Result<(), BrowserError> {
        std::fs::create_dir_all(dir).map_err(|source| BrowserError::Write { path: dir.to_path_buf(), source })?;
        let dir = std::path::absolute(dir).unwrap_or_else(|_| dir.to_path_buf());
        *self.downloads.dir.lock().unwrap_or_else(PoisonError::into_inner) = Some(dir);
        self.allow_downloads().await
    }

    /// Tells the driven page where downloads go (again after a new tab is followed).
    pub(crate) async fn allow_downloads(&self) -> Result<(), BrowserError> {
        let Some(dir) = self.downloads.dir() else { return Ok(()) };
        let params = json!({
            "behavior": "allowAndName",
            "downloadPath": dir.display().to_string(),
            "eventsEnabled": true,
        });
        self.call("Browser.setDownloadBehavior", params).await.map(|_| ())
    }

    /// How many downloads have begun so far: pass it to [`BrowserSession::downloads_after`].
    pub fn download_count(&self) -> usize {
        self.downloads.count()
    }

    /// The downloads begun after the first `count`, once each has completed (or been
    /// canceled: left out), waiting at most `timeout` for one to begin and for all to finish.
    /// Each is moved to its suggested name in the downloads folder.
    pub async fn downloads_after(&self, count: usize, timeout: Duration) -> Result<Vec<Download>, BrowserError> {
        let deadline = Instant::now() + timeout;
        loop {
            let (begun, pending) = {
                let begun = self.downloads.begun.lock().unwrap_or_else(PoisonError::into_inner);
                let after: Vec<(usize, Begun)> = begun.iter().cloned().enumerate().skip(count).collect();
                let pending = after.is_empty() || after.iter().any(|(_, d)| matches!(d.state, State::InProgress));
                (after, pending)
            };
            if !pending || Instant::now() >= deadline {
                return self.save_completed(begun);
            }
            tokio::time::sleep(Duration::from_millis(50)).await;
        }
    }

    fn save_completed(&self, begun: Vec<(usize, Begun)>) -> Result<Vec<Download>, BrowserError> {
        let Some(dir) = self.downloads.dir() else { return Ok(Vec::new()) };
        let mut saved = self.downloads.saved.lock().unwrap_or_else(PoisonError::into_inner);
        let mut out = Vec::new();
        for (index, download) in begun {
            if let Some((_, done)) = saved.iter().find(|(i, _)| *i == index) {
                out.push(done.clone());
                continue;
            }
            if !matches!(download.state, State::Completed) {
                continue;
            }
            let from = dir.join(&download.guid);
            let file_name = unique_name(&dir, &safe_name(&download.suggested));
            let to = dir.join(&file_name);
            std::fs::rename(&from, &to).map_err(|source| BrowserError::Write { path: to.clone(), source })?;
            let bytes = std::fs::metadata(&to).map(|m| m.len()).unwrap_or(0);
            let done = Download { file_name, path: to, bytes, url: download.url.clone() };
            saved.push((index, done.clone()));
            out.push(done);
        }
        Ok(out)
    }
}

/// A suggested name as a plain file name: no folders, no leading dots, not empty.
fn safe_name(suggested: &str) -> String {
    let name: String = suggested
        .rsplit(['/', '\\'])
        .next()
        .unwrap_or_default()
        .chars()
        .map(|c| if c.is_control() || matches!(c, ':' | '*' | '?' | '"' | '<' | '>' | '|') { '_' } else { c })
        .collect();
    let name = name.trim().trim_start_matches('.').to_owned();
    if name.is_empty() {
        "download".to_owned()
    } else {
        name
    }
}

/// `name`, or `name (2).ext`, `name (3).ext`… — the first not taken in `dir`.
fn unique_name(dir: &Path, name: &str) -> String {
    if !dir.join(name).exists() {
        return name.to_owned();
    }
    let (stem, extension) = match name.rsplit_once('.') {
        Some((stem, extension)) if !stem.is_empty() => (stem, format!(".{extension}")),
        _ => (name, String::new()),
    };
    (2..)
        .map(|n| format!("{stem} ({n}){extension}"))
        .find(|candidate| !dir.join(candidate).exists())
        .unwrap_or_else(|| name.to_owned())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn suggested_names_become_plain_unique_file_names() {
        assert_eq!(safe_name("../../etc/passwd"), "passwd");
        assert_eq!(safe_name(".hidden"), "hidden");
        assert_eq!(safe_name("report:2026?.csv"), "report_2026_.csv");
        assert_eq!(safe_name(""), "download");
        let dir = tempfile::tempdir().unwrap();
        assert_eq!(unique_name(dir.path(), "statement.csv"), "statement.csv");
        std::fs::write(dir.path().join("statement.csv"), "x").unwrap();
        std::fs::write(dir.path().join("statement (2).csv"), "x").unwrap();
        assert_eq!(unique_name(dir.path(), "statement.csv"), "statement (3).csv");
        std::fs::write(dir.path().join("README"), "x").unwrap();
        assert_eq!(unique_name(dir.path(), "README"), "README (2)");
    }
}
