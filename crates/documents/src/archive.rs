//! Zip packages (.docx, .xlsx) checked before a parser opens them: a zip bomb — a small file
//! whose parts inflate to gigabytes — is refused here, because docx-rs and calamine read whole
//! parts into memory.

use std::io::{Cursor, Read};

use flate2::read::DeflateDecoder;

use zip::result::ZipError;
use zip::{CompressionMethod, ZipArchive};

use crate::outcome::Unreadable;

/// Parts whose declared size is over this must also keep to [`MAX_RATIO`].
const RATIO_CHECKED_ABOVE: u64 = 1024 * 1024;
/// Office XML compresses about 10:1, rarely beyond 100:1; runs of zeros reach 1000:1.
const MAX_RATIO: u64 = 200;

/// The names of the parts of a zip package.
pub(crate) fn entry_names(bytes: &[u8]) -> Result<Vec<String>, ZipError> {
    let archive = ZipArchive::new(Cursor::new(bytes))?;
    archive.file_names().map(|name| name.map(|n| n.into_owned())).collect()
}

/// Refuses a package whose parts would inflate past `max_total` bytes together, or whose
/// large parts compress suspiciously well. Declared sizes are checked first (free), then every
/// part is actually inflated and counted — a header can lie about its size — without keeping
/// what it inflates to.
pub(crate) fn check_package(bytes: &[u8], max_total: u64, what: &str) -> Result<(), Unreadable> {
    let damaged = |e: ZipError| {
        Unreadable::new(format!("not a valid {what} (zip is truncated or damaged: {e})"))
            .hint("open it and save it again, or get a fresh copy")
    };
    let bomb = |detail: String| {
        Unreadable::new(format!("refused as a zip bomb ({detail})"))
            .hint("if the file is genuine, open it and save a smaller copy")
    };
    let mut archive = ZipArchive::new(Cursor::new(bytes)).map_err(damaged)?;
    let mut declared = 0u64;
    for i in 0..archive.len() {
        let entry = archive.by_index_raw(i).map_err(damaged)?;
        let (size, packed) = (entry.size(), entry.compressed_size().max(1));
        let name = entry_name(entry.name());
        declared = declared.saturating_add(size);
        if size > RATIO_CHECKED_ABOVE && size / packed > MAX_RATIO {
            return Err(bomb(format!(
                "part {} would inflate {} KiB to {} MiB",
                name,
                packed.div_ceil(1024),
                size / (1024 * 1024)
            )));
        }
    }
    if declared > max_total {
        return Err(bomb(format!(
            "its parts would inflate to {} MiB, over the {} MiB limit",
            declared / (1024 * 1024),
            max_total / (1024 * 1024)
        )));
    }
    // Inflated here from the raw bytes, not through the zip crate's reader, so that the count
    // does not depend on what the header declares.
    let mut inflated = 0u64;
    for i in 0..archive.len() {
        let entry = archive.by_index_raw(i).map_err(damaged)?;
        let name = entry_name(entry.name());
        if entry.encrypted() {
            return Err(Unreadable::new("encrypted (the zip parts need a password)")
                .hint("save a copy without a password to read it"));
        }
        let left = max_total - inflated;
        let n = match entry.compression() {
            CompressionMethod::Stored => entry.compressed_size(),
            CompressionMethod::Deflated => count_inflated(DeflateDecoder::new(entry), left + 1).map_err(|e| {
                Unreadable::new(format!("not a valid {what} (part {name} cannot be inflated: {e})"))
                    .hint("open it and save it again, or get a fresh copy")
            })?,
            other => {
                return Err(Unreadable::new(format!(
                    "not a valid {what} (part {name} uses the {other} compression, which Office does not write)"
                ))
                .hint("open it and save it again"))
            }
        };
        if n > left {
            return Err(bomb(format!(
                "part {name} inflates past the {} MiB limit{}",
                max_total / (1024 * 1024),
                if declared <= max_total { " though the package declares less" } else { "" }
            )));
        }
        inflated += n;
    }
    Ok(())
}

/// A part's name for messages; one that is not valid text is still a part.
fn entry_name(name: Result<std::borrow::Cow<'_, str>, ZipError>) -> String {
    name.map_or_else(|_| "(unreadable name)".to_string(), |n| n.into_owned())
}

/// The bytes `reader` gives, read and dropped, up to `max`.
fn count_inflated(reader: impl Read, max: u64) -> std::io::Result<u64> {
    std::io::copy(&mut reader.take(max), &mut std::io::sink())
}
