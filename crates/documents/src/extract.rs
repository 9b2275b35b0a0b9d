//! One file, in this process: read, sniff, check, hand to the format's reader, cap the text.
//! A panic in a reader becomes a skip here; hangs are [`crate::isolate`]'s business.

use std::panic::{catch_unwind, AssertUnwindSafe};
use std::path::Path;

use tracing::debug_span;

use crate::limits::Limits;
use crate::outcome::{Document, Extracted, Outcome, Unreadable};
use crate::sniff::{sniff, Format};
use crate::{archive, docx, pdf, sheet, text};

/// Reads the file at `path` and extracts its text; `name` is what messages call it.
pub(crate) fn extract_path(name: &str, path: &Path, limits: &Limits) -> Outcome {
    match read_file(path, limits) {
        Ok(bytes) => extract_bytes(name, &extension(name, path), &bytes, limits),
        Err(why) => Outcome::Skipped(why.named(name)),
    }
}

fn read_file(path: &Path, limits: &Limits) -> Result<Vec<u8>, Unreadable> {
    let meta = match std::fs::metadata(path) {
        Ok(meta) => meta,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => {
            return Err(Unreadable::new("no such file").hint("check the path and the work directory"))
        }
        Err(e) => return Err(Unreadable::new(format!("cannot be opened ({e})"))),
    };
    if meta.is_dir() {
        return Err(Unreadable::new("is a folder, not a document").hint("list the files in it instead"));
    }
    // A pipe or a device may never end: reading it would block until the deadline.
    if !meta.is_file() {
        return Err(Unreadable::new("is not a regular file (a pipe, a device or a socket)")
            .hint("save its content to a file and read that"));
    }
    if meta.len() > limits.max_file_bytes {
        return Err(too_large(meta.len(), limits));
    }
    let bytes = std::fs::read(path).map_err(|e| Unreadable::new(format!("cannot be read ({e})")))?;
    // The file may have grown since it was measured.
    if bytes.len() as u64 > limits.max_file_bytes {
        return Err(too_large(bytes.len() as u64, limits));
    }
    Ok(bytes)
}

fn too_large(bytes: u64, limits: &Limits) -> Unreadable {
    Unreadable::new(format!(
        "is {} MB, larger than the {} MB read",
        bytes.div_ceil(1024 * 1024),
        limits.max_file_bytes / (1024 * 1024)
    ))
    .hint("split it or export the pages needed")
}

/// The extension messages compare the content with: the shown name's, else the path's.
fn extension(name: &str, path: &Path) -> String {
    Path::new(name)
        .extension()
        .or_else(|| path.extension())
        .map(|e| e.to_string_lossy().to_lowercase())
        .unwrap_or_default()
}

/// Extracts the text of a file's bytes. Never panics: a reader's panic is a skip.
pub fn extract_bytes(name: &str, ext: &str, bytes: &[u8], limits: &Limits) -> Outcome {
    let _span = debug_span!("extract", file = name, bytes = bytes.len()).entered();
    if bytes.len() as u64 > limits.max_file_bytes {
        return Outcome::Skipped(too_large(bytes.len() as u64, limits).named(name));
    }
    let sniffed = match sniff(bytes, ext) {
        Ok(sniffed) => sniffed,
        Err(why) => return Outcome::Skipped(why.named(name)),
    };
    let format = sniffed.format;
    let read = catch_unwind(AssertUnwindSafe(|| read_format(format, bytes, limits)));
    let mut extracted = match read {
        Ok(Ok(extracted)) => extracted,
        Ok(Err(why)) => return Outcome::Skipped(why.named(name)),
        Err(panic) => {
            let detail = panic
                .downcast_ref::<&str>()
                .map(|s| s.to_string())
                .or_else(|| panic.downcast_ref::<String>().cloned())
                .unwrap_or_else(|| "no detail".into());
            tracing::warn!(file = name, %detail, "document reader panicked");
            return Outcome::Skipped(
                Unreadable::new(format!(
                    "{} that the reader could not handle (it failed: {detail})",
                    format.described()
                ))
                .hint("open it and save or print it to PDF again")
                .named(name),
            );
        }
    };
    if let Some(note) = sniffed.note {
        extracted.notes.insert(0, note);
    }
    cap_chars(&mut extracted, limits.max_chars);
    Outcome::Read(Document {
        name: name.to_string(),
        format,
        text: extracted.text,
        truncated: extracted.truncated,
        notes: extracted.notes,
        pages: extracted.pages,
        sheets: extracted.sheets,
    })
}

fn read_format(format: Format, bytes: &[u8], limits: &Limits) -> Result<Extracted, Unreadable> {
    match format {
        Format::Text => Ok(Extracted { text: text::read(bytes), ..Extracted::default() }),
        Format::Pdf => pdf::extract(bytes, limits),
        Format::Docx => {
            archive::check_package(bytes, limits.max_unzipped_bytes, "Word file")?;
            docx::extract(bytes)
        }
        Format::Xlsx => {
            archive::check_package(bytes, limits.max_unzipped_bytes, "Excel file")?;
            sheet::xlsx(bytes, limits)
        }
        Format::Xlsb => {
            archive::check_package(bytes, limits.max_unzipped_bytes, "Excel file")?;
            sheet::xlsb(bytes, limits)
        }
        Format::Xls => sheet::xls(bytes, limits),
    }
}

/// One file never gives more than the whole budget.
fn cap_chars(extracted: &mut Extracted, max: usize) {
    if let Some((cut, _)) = extracted.text.char_indices().nth(max) {
        let total = extracted.text.chars().count();
        extracted.text.truncate(cut);
        extracted.truncated = true;
        extracted.notes.push(format!("text cut off after {max} of {total} characters"));
    }
}
