//! Reference documents for the design engine: uploaded into the workspace's `documents/` folder
//! (never outside it, at most [`MAX_DOCUMENT_BYTES`]), read once on upload to tell the person
//! what was found (pages or sheets, characters, warnings), and read again for each generation.

use std::path::{Path, PathBuf};

use base64::Engine as _;
use planwright_documents::{extract_files, Isolation, Limits, Outcome, Source};
use serde::{Deserialize, Serialize};
use ts_rs::TS;

use crate::error::{ApiError, ApiMessage};
use crate::workspace::{io_error, within};
use crate::Studio;

/// The workspace folder uploaded documents land in.
pub(crate) const DOCUMENTS: &str = "documents";

/// The largest document the studio takes, in bytes.
pub const MAX_DOCUMENT_BYTES: usize = 20 * 1024 * 1024;

/// The longest document name, in bytes of UTF-8. File systems keep names of up to 255 bytes, and
/// the workspace adds to a name: `_2` … `_999` beside one of the same name, and the atomic
/// write's temporary `.<name>.XXXXXX.tmp`.
pub const MAX_DOCUMENT_NAME_BYTES: usize = 200;

/// The kinds of file the design engine reads, by extension.
pub const DOCUMENT_EXTENSIONS: [&str; 5] = ["txt", "md", "pdf", "docx", "xlsx"];

/// One file to add: its name (no folder) and its bytes in base64.
#[derive(Debug, Clone, Serialize, Deserialize, TS)]
pub struct DocumentUpload {
    pub name: String,
    pub content_base64: String,
}

/// A document in the workspace and what reading it gave.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, TS)]
pub struct DocumentInfo {
    /// The file's name in `documents/`: what a generation names it by.
    pub name: String,
    /// `documents/<name>`, relative to the workspace.
    pub path: String,
    #[ts(type = "number")]
    pub size: u64,
    /// What the content turned out to be (`pdf`, `docx` …); empty when it was skipped.
    pub format: String,
    pub pages: Option<u32>,
    pub sheets: Option<u32>,
    /// Characters of text read.
    #[ts(type = "number")]
    pub chars: usize,
    /// Part of it was left out (pages or rows beyond the limits).
    pub truncated: bool,
    /// What the person should know, one sentence each.
    pub notes: Vec<String>,
    /// Why no text was read ("encrypted, skipped; …"); the document is then not used.
    pub skipped: Option<String>,
}

impl Studio {
    /// Saves a document into the workspace's `documents/` and reads it. A file of the same name
    /// and other content is kept as `name_2.ext` (and so on): nothing is overwritten.
    pub async fn upload_document(&self, request: DocumentUpload) -> Result<DocumentInfo, ApiError> {
        let name = document_name(&request.name)?;
        let bytes = base64::engine::general_purpose::STANDARD.decode(request.content_base64.trim()).map_err(|e| {
            ApiError::invalid(format!("the content of {name:?} is not base64: {e}"))
                .with_hint("send the file's bytes in base64")
                .saying(ApiMessage::DocumentNotBase64 { name: name.clone() })
        })?;
        if bytes.len() > MAX_DOCUMENT_BYTES {
            return Err(ApiError::invalid(format!(
                "{name:?} is {} MB; the studio reads documents up to {} MB",
                bytes.len() / (1024 * 1024),
                MAX_DOCUMENT_BYTES / (1024 * 1024)
            ))
            .with_hint("split it, or keep the pages that describe the job")
            .saying(ApiMessage::DocumentTooLarge {
                name,
                mb: (bytes.len() / (1024 * 1024)) as u64,
                max_mb: (MAX_DOCUMENT_BYTES / (1024 * 1024)) as u64,
            }));
        }
        let dir = self.workspace().join(DOCUMENTS);
        tokio::task::spawn_blocking(move || {
            std::fs::create_dir_all(&dir).map_err(|e| io_error("create", &dir, &e))?;
            let path = free_path(&dir, &name, &bytes)?;
            if !path.exists() {
                planwright_fs::write_atomically(&path, &bytes, planwright_fs::Access::Shared)
                    .map_err(|e| io_error("write", &path, &e))?;
            }
            Ok(read_documents(&[path]).remove(0).0)
        })
        .await
        .map_err(|e| ApiError::internal(format!("reading the document stopped: {e}")))?
    }

    /// The workspace paths of documents named as `upload_document` answered.
    pub(crate) fn document_paths(&self, names: &[String]) -> Result<Vec<PathBuf>, ApiError> {
        let dir = self.workspace().join(DOCUMENTS);
        names
            .iter()
            .map(|name| {
                let plain = document_name(name)?;
                let path = within(&dir, dir.join(&plain), "document", name)?;
                if plain != *name || !path.is_file() {
                    return Err(ApiError::not_found(format!("there is no document {name:?} in the workspace"))
                        .with_hint("add it again (drag it onto the documents list)")
                        .saying(ApiMessage::DocumentNotFound { name: name.clone() }));
                }
                Ok(path)
            })
            .collect()
    }
}

/// A file name the workspace keeps: the last part of what was given, letters (any script),
/// digits, spaces, `_ - . ( )`, not starting with a dot, at most 120 characters and
/// [`MAX_DOCUMENT_NAME_BYTES`], with an extension the engine reads.
fn document_name(given: &str) -> Result<String, ApiError> {
    let name = given.rsplit(['/', '\\']).next().unwrap_or(given).trim();
    let plain = !name.is_empty()
        && !name.starts_with('.')
        && name.chars().count() <= 120
        && name.chars().all(|c| c.is_alphanumeric() || matches!(c, '_' | '-' | '.' | ' ' | '(' | ')'));
    if !plain {
        return Err(ApiError::invalid(format!("{given:?} is not a document name the studio keeps"))
            .with_hint("rename the file to letters, digits, spaces, `_`, `-` and `.` (at most 120 characters)")
            .saying(ApiMessage::DocumentNameRefused { name: given.to_owned() }));
    }
    if name.len() > MAX_DOCUMENT_NAME_BYTES {
        // Japanese takes three bytes a character: 120 characters of it are too many.
        return Err(ApiError::invalid(format!(
            "{name:?} is {} bytes long in UTF-8; the studio keeps document names of at most \
             {MAX_DOCUMENT_NAME_BYTES} bytes (about {} Japanese characters)",
            name.len(),
            MAX_DOCUMENT_NAME_BYTES / 3
        ))
        .with_hint(format!("give the file a shorter name, at most {MAX_DOCUMENT_NAME_BYTES} bytes in UTF-8"))
        .saying(ApiMessage::DocumentNameTooLong {
            name: name.to_owned(),
            bytes: name.len() as u64,
            max_bytes: MAX_DOCUMENT_NAME_BYTES as u64,
        }));
    }
    let extension = Path::new(name).extension().map(|e| e.to_string_lossy().to_lowercase()).unwrap_or_default();
    if !DOCUMENT_EXTENSIONS.contains(&extension.as_str()) {
        let extensions = DOCUMENT_EXTENSIONS.map(|e| format!(".{e}")).join(", ");
        return Err(ApiError::invalid(format!("{name:?} is not a kind of document the design engine reads"))
            .with_hint(format!("add a {extensions} file"))
            .saying(ApiMessage::DocumentKindRefused { name: name.to_owned(), extensions }));
    }
    Ok(name.to_owned())
}

/// `dir/name`, or the first `stem_N.ext` that is free or holds the same bytes.
fn free_path(dir: &Path, name: &str, bytes: &[u8]) -> Result<PathBuf, ApiError> {
    let path = Path::new(name);
    let stem = path.file_stem().map(|s| s.to_string_lossy().into_owned()).unwrap_or_default();
    let ext = path.extension().map(|e| e.to_string_lossy().into_owned()).unwrap_or_default();
    for n in 1..1000 {
        let candidate = if n == 1 { dir.join(name) } else { dir.join(format!("{stem}_{n}.{ext}")) };
        match std::fs::read(&candidate) {
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(candidate),
            Err(e) => return Err(io_error("read", &candidate, &e)),
            Ok(existing) if existing == bytes => return Ok(candidate),
            Ok(_) => {}
        }
    }
    Err(ApiError::invalid(format!("there are too many documents named like {name:?}"))
        .with_hint("rename the file before adding it")
        .saying(ApiMessage::DocumentNameExhausted { name: name.to_owned() }))
}

/// Each document's information and text (empty when skipped), in order: what a generation is
/// given, in the studio and from `planwright generate`.
pub fn read_documents(paths: &[PathBuf]) -> Vec<(DocumentInfo, String)> {
    let sources: Vec<Source> = paths
        .iter()
        .map(|p| Source {
            name: p.file_name().map(|n| n.to_string_lossy().into_owned()).unwrap_or_default(),
            path: p.clone(),
        })
        .collect();
    let outcomes =
        extract_files(&sources, &Limits::default(), &Isolation::Auto, &|| false, &|_| {}).unwrap_or_default();
    sources
        .iter()
        .zip(outcomes)
        .map(|(source, outcome)| {
            let size = std::fs::metadata(&source.path).map(|m| m.len()).unwrap_or(0);
            let mut info = DocumentInfo {
                name: source.name.clone(),
                path: format!("{DOCUMENTS}/{}", source.name),
                size,
                format: String::new(),
                pages: None,
                sheets: None,
                chars: 0,
                truncated: false,
                notes: Vec::new(),
                skipped: None,
            };
            match outcome {
                Outcome::Read(doc) => {
                    info.format = doc.format.name().to_owned();
                    info.pages = doc.pages;
                    info.sheets = doc.sheets;
                    info.chars = doc.chars();
                    info.truncated = doc.truncated;
                    info.notes = doc.notes;
                    (info, doc.text)
                }
                Outcome::Skipped(skip) => {
                    info.skipped = Some(skip.message());
                    (info, String::new())
                }
            }
        })
        .collect()
}
