//! Screenshots kept as evidence of an objective done (or of a failure), in the node's record
//! folder. A picture of one colour — a blank page — is not evidence and is not kept.

use std::path::{Path, PathBuf};

use crate::driver::PageDriver;

/// Whether a PNG shows anything: more than one colour among its pixels. A PNG that cannot be
/// read shows nothing.
pub fn shows_something(png: &[u8]) -> bool {
    let decoder = png::Decoder::new(std::io::Cursor::new(png));
    let Ok(mut reader) = decoder.read_info() else { return false };
    let Some(size) = reader.output_buffer_size() else { return false };
    // A viewport of 1280×720 RGBA is 3.7 MB: decoding is bounded by what Chromium sends.
    if size > 64 * 1024 * 1024 {
        return true;
    }
    let mut buffer = vec![0; size];
    let Ok(frame) = reader.next_frame(&mut buffer) else { return false };
    let pixel = frame.color_type.samples() * if frame.bit_depth == png::BitDepth::Sixteen { 2 } else { 1 };
    let bytes = &buffer[..frame.buffer_size()];
    let Some(first) = bytes.get(..pixel) else { return false };
    bytes.chunks_exact(pixel).any(|p| p != first)
}

/// Saves a screenshot of the viewport as `dir/name`; `Ok(None)` when the page shows nothing.
pub async fn save(session: &dyn PageDriver, dir: &Path, name: &str) -> Result<Option<PathBuf>, String> {
    let png = session.screenshot().await.map_err(|e| format!("the screenshot failed: {e}"))?;
    if !shows_something(&png) {
        return Ok(None);
    }
    planwright_fs::private_dir(dir).map_err(|e| format!("{}: {e}", dir.display()))?;
    let path = dir.join(name);
    planwright_fs::write_atomically(&path, &png, planwright_fs::Access::Private)
        .map_err(|e| format!("{}: {e}", path.display()))?;
    Ok(Some(path))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn png(width: u32, height: u32, pixel: impl Fn(u32, u32) -> [u8; 3]) -> Vec<u8> {
        let mut out = Vec::new();
        let mut encoder = png::Encoder::new(&mut out, width, height);
        encoder.set_color(png::ColorType::Rgb);
        encoder.set_depth(png::BitDepth::Eight);
        let mut writer = encoder.write_header().unwrap();
        let pixel = &pixel;
        let data: Vec<u8> = (0..height).flat_map(|y| (0..width).flat_map(move |x| pixel(x, y))).collect();
        writer.write_image_data(&data).unwrap();
        writer.finish().unwrap();
        out
    }

    #[test]
    fn one_colour_is_not_evidence_and_anything_more_is() {
        assert!(!shows_something(&png(40, 30, |_, _| [255, 255, 255])));
        assert!(shows_something(&png(40, 30, |x, _| if x == 20 { [0, 0, 0] } else { [255, 255, 255] })));
        assert!(!shows_something(b"not a png"));
        assert!(!shows_something(&[]));
    }
}
