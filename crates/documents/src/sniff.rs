//! What a file is, from its content: the magic bytes of PDF, zip (then which parts it holds)
//! and OLE2, else text when it decodes. The extension only words the messages and is checked
//! against what was found.

use serde::{Deserialize, Serialize};

use crate::archive;
use crate::outcome::Unreadable;
use crate::text;

/// A document format this crate reads.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Format {
    Text,
    Pdf,
    Docx,
    /// Also `.xlsm` and the templates: the same package.
    Xlsx,
    Xlsb,
    /// The Excel 97–2003 binary workbook (OLE2).
    Xls,
}

impl Format {
    /// Its short name: `text`, `pdf`, `docx`, `xlsx`, `xlsb`, `xls`.
    pub fn name(self) -> &'static str {
        match self {
            Format::Text => "text",
            Format::Pdf => "pdf",
            Format::Docx => "docx",
            Format::Xlsx => "xlsx",
            Format::Xlsb => "xlsb",
            Format::Xls => "xls",
        }
    }

    /// How people call it, after "a" or "is".
    pub fn described(self) -> &'static str {
        match self {
            Format::Text => "a text file",
            Format::Pdf => "a PDF",
            Format::Docx => "a Word document",
            Format::Xlsx => "an Excel workbook",
            Format::Xlsb => "an Excel binary workbook (.xlsb)",
            Format::Xls => "an Excel 97-2003 workbook (.xls)",
        }
    }

    /// The format an extension promises, if it names one this crate reads.
    pub fn from_extension(ext: &str) -> Option<Format> {
        Some(match ext.to_ascii_lowercase().as_str() {
            "pdf" => Format::Pdf,
            "docx" | "docm" | "dotx" | "dotm" => Format::Docx,
            "xlsx" | "xlsm" | "xltx" | "xltm" => Format::Xlsx,
            "xlsb" => Format::Xlsb,
            "xls" => Format::Xls,
            "txt" | "text" | "md" | "markdown" | "csv" | "tsv" | "log" => Format::Text,
            _ => return None,
        })
    }
}

/// What sniffing found.
#[derive(Debug, PartialEq, Eq)]
pub(crate) struct Sniffed {
    pub format: Format,
    /// Set when the extension promised another format, e.g. "named .docx but is a PDF; read
    /// as a PDF".
    pub note: Option<String>,
}

const PDF_MAGIC: &[u8] = b"%PDF-";
const ZIP_MAGIC: &[u8] = b"PK\x03\x04";
const EMPTY_ZIP_MAGIC: &[u8] = b"PK\x05\x06";
const OLE2_MAGIC: &[u8] = &[0xD0, 0xCF, 0x11, 0xE0, 0xA1, 0xB1, 0x1A, 0xE1];
/// PDF readers accept the header anywhere in the first kilobyte (some generators put a line
/// of their own first); so does this.
const PDF_HEADER_WINDOW: usize = 1024;

/// The format of `bytes`; `ext` is the file's extension (lower or upper case, no dot).
pub(crate) fn sniff(bytes: &[u8], ext: &str) -> Result<Sniffed, Unreadable> {
    let ext = ext.to_ascii_lowercase();
    let format = if bytes.is_empty() {
        return Err(Unreadable::new("empty file (0 bytes)"));
    } else if bytes[..bytes.len().min(PDF_HEADER_WINDOW)].windows(PDF_MAGIC.len()).any(|w| w == PDF_MAGIC) {
        Format::Pdf
    } else if bytes.starts_with(ZIP_MAGIC) || bytes.starts_with(EMPTY_ZIP_MAGIC) || cut_short_package(bytes, &ext) {
        zip_format(bytes, &ext)?
    } else if bytes.starts_with(OLE2_MAGIC) {
        ole2_format(bytes, &ext)?
    } else {
        text_or_binary(bytes, &ext)?
    };
    let note = match Format::from_extension(&ext) {
        Some(promised) if promised != format => {
            Some(format!("named .{ext} but is {}; read as {}", format.described(), format.described()))
        }
        _ => None,
    };
    Ok(Sniffed { format, note })
}

/// A .docx or .xlsx cut before its first header ends still starts with the zip "PK"; it is a
/// damaged package, not a two-letter text.
fn cut_short_package(bytes: &[u8], ext: &str) -> bool {
    bytes.len() < ZIP_MAGIC.len()
        && ZIP_MAGIC.starts_with(bytes)
        && matches!(Format::from_extension(ext), Some(Format::Docx | Format::Xlsx | Format::Xlsb))
}

/// Word or Excel, by the parts the package holds.
fn zip_format(bytes: &[u8], ext: &str) -> Result<Format, Unreadable> {
    let names = match archive::entry_names(bytes) {
        Ok(names) => names,
        Err(e) => {
            let what = match Format::from_extension(ext) {
                Some(Format::Docx) => "not a valid Word file",
                Some(Format::Xlsx | Format::Xlsb) => "not a valid Excel file",
                _ => "a damaged zip archive",
            };
            return Err(Unreadable::new(format!("{what} (zip is truncated or damaged: {e})"))
                .hint("open it and save it again, or get a fresh copy"));
        }
    };
    let has = |part: &str| names.iter().any(|n| n.eq_ignore_ascii_case(part));
    if has("word/document.xml") {
        Ok(Format::Docx)
    } else if has("xl/workbook.xml") {
        Ok(Format::Xlsx)
    } else if has("xl/workbook.bin") {
        Ok(Format::Xlsb)
    } else if has("ppt/presentation.xml") {
        Err(Unreadable::new("a PowerPoint file, which is not read").hint("save it as PDF to read its text"))
    } else if has("content.xml") && has("mimetype") {
        Err(Unreadable::new("an OpenDocument file, which is not read").hint("save it as .docx or .xlsx"))
    } else {
        Err(Unreadable::new("a zip archive without a Word document or Excel workbook in it")
            .hint("unpack it and list the documents inside"))
    }
}

/// OLE2 is a container: an Excel 97–2003 workbook, a Word 97–2003 document, or a
/// password-protected .docx/.xlsx (encrypted packages are stored in OLE2). The directory
/// names (UTF-16) tell them apart without parsing the container.
fn ole2_format(bytes: &[u8], ext: &str) -> Result<Format, Unreadable> {
    let holds = |name: &str| {
        let wide: Vec<u8> = name.encode_utf16().flat_map(u16::to_le_bytes).collect();
        bytes.windows(wide.len()).any(|w| w == wide.as_slice())
    };
    if holds("EncryptionInfo") || holds("EncryptedPackage") {
        return Err(Unreadable::new("encrypted (password-protected Office file)")
            .hint("save a copy without a password to read it"));
    }
    if holds("Workbook") || holds("Book") {
        return Ok(Format::Xls);
    }
    if holds("WordDocument") {
        return Err(Unreadable::new("an old Word 97-2003 .doc file, which is not read").hint("save it as .docx"));
    }
    if ext == "xls" {
        // No directory name found (a damaged directory?); let the workbook reader decide.
        return Ok(Format::Xls);
    }
    Err(Unreadable::new("an Office 97-2003 file that is neither an Excel workbook nor readable text")
        .hint("save it as .docx, .xlsx or PDF"))
}

fn text_or_binary(bytes: &[u8], ext: &str) -> Result<Format, Unreadable> {
    if let Some(decoded) = text::decode_strict(bytes) {
        if text::looks_like_text(&decoded) {
            return Ok(Format::Text);
        }
    } else if Format::from_extension(ext) == Some(Format::Text) {
        // A text file with a few bad bytes is still a text file; decoding marks them `�`.
        let lossy = String::from_utf8_lossy(bytes);
        let bad = lossy.chars().filter(|&c| c == '\u{FFFD}').count();
        if text::looks_like_text(&lossy) && bad * 100 <= lossy.chars().count() {
            return Ok(Format::Text);
        }
    }
    Err(binary(ext))
}

/// Why a file that is no document format and no text is skipped, worded by its extension.
fn binary(ext: &str) -> Unreadable {
    match ext {
        "png" | "jpg" | "jpeg" | "gif" | "tif" | "tiff" | "bmp" | "heic" | "webp" => {
            Unreadable::new("an image, which has no text layer to read (text recognition is not available)")
        }
        "doc" => Unreadable::new("an old Word 97-2003 .doc file, which is not read").hint("save it as .docx"),
        "ppt" | "pptx" => Unreadable::new("a PowerPoint file, which is not read").hint("save it as PDF"),
        _ => match Format::from_extension(ext) {
            Some(Format::Text) | None => Unreadable::new(format!(
                "binary data, not text nor a document format this block reads{}",
                if ext.is_empty() { String::new() } else { format!(" (named .{ext})") }
            ))
            .hint("PDF, Word .docx, Excel .xlsx/.xls and UTF-8 or Shift_JIS text are read"),
            Some(format) => {
                Unreadable::new(format!("not {} (named .{ext} but its content is not)", format.described()))
                    .hint("open it and save it again, or get a fresh copy")
            }
        },
    }
}
