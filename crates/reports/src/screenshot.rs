//! The screenshots a record names, read for embedding or attaching: only PNG files (what the
//! runner and `browser.screenshot` write), up to a size, so that a record naming some other
//! file never puts its bytes in a report. A file that is not there is named with why, never
//! fatal.

use std::io::Read;

/// The largest screenshot embedded (a full page at 1280 px is well under).
const MAX_BYTES: u64 = 16 * 1024 * 1024;
const PNG_SIGNATURE: &[u8] = b"\x89PNG\r\n\x1a\n";

/// The PNG file at `path`, or why it cannot be shown.
pub(crate) fn read_png(path: &str) -> Result<Vec<u8>, String> {
    let file = std::fs::File::open(path).map_err(|e| format!("cannot read it: {e}"))?;
    let size = file.metadata().map_err(|e| format!("cannot read it: {e}"))?.len();
    if size > MAX_BYTES {
        return Err(format!("it is {size} bytes, over the {MAX_BYTES} a report embeds"));
    }
    let mut bytes = Vec::with_capacity(size as usize);
    file.take(MAX_BYTES + 1).read_to_end(&mut bytes).map_err(|e| format!("cannot read it: {e}"))?;
    if !bytes.starts_with(PNG_SIGNATURE) {
        return Err("it is not a PNG image".to_owned());
    }
    Ok(bytes)
}

/// The file's name, for captions and attachment names.
pub(crate) fn file_name(path: &str) -> &str {
    path.rsplit(['/', '\\']).next().unwrap_or(path)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_a_png_is_read_and_a_missing_file_says_why() {
        let dir = tempfile::tempdir().unwrap();
        let png = dir.path().join("shot.png");
        std::fs::write(&png, b"\x89PNG\r\n\x1a\nrest").unwrap();
        assert_eq!(read_png(png.to_str().unwrap()).unwrap().len(), 12);
        let text = dir.path().join("secrets.txt");
        std::fs::write(&text, "password").unwrap();
        assert_eq!(read_png(text.to_str().unwrap()).unwrap_err(), "it is not a PNG image");
        assert!(read_png("/nowhere/shot.png").unwrap_err().starts_with("cannot read it"));
        assert_eq!(file_name("/r/evidence/01-completed.png"), "01-completed.png");
    }
}
