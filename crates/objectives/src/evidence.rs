//! Screenshots kept as evidence of an objective done (or of a failure), in the node's record
//! folder. A picture of one colour — a blank page — is not evidence and is not kept. The steps
//! a plan names in `evidence` are also saved as files of the work folder: the screenshot taken
//! when the step was judged, not one taken later, after the next steps have left its page.

use std::path::{Path, PathBuf};

use planwright_block::{BlockContext, BlockError, Values, Workdir};
use planwright_runs::{ArtifactKind, LogLevel, Reason, RunMessage};
use serde_json::Value;

use crate::driver::PageDriver;

/// A step's evidence file: the step's number (1 for the first), the path as the plan gives it,
/// and where that is in the work folder.
pub type EvidenceFile = (usize, String, PathBuf);

/// The work-folder files `evidence` asks for: checked before the browser opens, against the
/// number of steps and the work folder (a path outside it is refused then, not after the run).
pub fn wanted_files(inputs: &Values, steps: usize, workdir: &Workdir) -> Result<Vec<EvidenceFile>, BlockError> {
    const EXAMPLE: &str = "e.g. {2: evidence/TC-03_required_error.png}";
    let map = match inputs.get("evidence") {
        None | Some(Value::Null) => return Ok(Vec::new()),
        Some(Value::Object(map)) => map,
        Some(_) => {
            return Err(BlockError::input(format!(
                "`evidence` must name, by step number, the file each step's screenshot is saved as, {EXAMPLE}"
            )))
        }
    };
    let mut wanted = Vec::with_capacity(map.len());
    for (key, value) in map {
        let step = key.trim().parse::<usize>().ok().filter(|n| (1..=steps).contains(n)).ok_or_else(|| {
            BlockError::input(format!("`evidence.{key}`: there is no step {key}; the steps are numbered 1 to {steps}"))
        })?;
        let path = match value {
            Value::String(path) if !path.trim().is_empty() => path.clone(),
            _ => return Err(BlockError::input(format!("`evidence.{key}` must be a file name, {EXAMPLE}"))),
        };
        let file = workdir.resolve(&format!("evidence.{key}"), &path)?;
        wanted.push((step, path, file));
    }
    wanted.sort();
    Ok(wanted)
}

/// Saves each wanted step's screenshot as its file when the step passed, notes the file in the
/// report's step, and says what was saved and what was not.
pub async fn save_files(outputs: &mut Values, wanted: &[EvidenceFile], ctx: &BlockContext) -> Result<(), BlockError> {
    for (step, shown, path) in wanted {
        let entry = outputs.get_mut("report").and_then(|r| r["steps"].get_mut(step - 1));
        let Some(entry) = entry else { continue };
        let kept = entry["evidence_screenshot"].as_str().map(PathBuf::from);
        let (Some(kept), true) = (kept, entry["status"] == "passed") else {
            let text = format!("step {step} was not done, so {shown} was not written");
            let said = RunMessage::EvidenceNotSaved { step: *step as u64, path: shown.clone() };
            ctx.log(LogLevel::Warn, Reason::said(said, text));
            continue;
        };
        let to = path.clone();
        tokio::task::spawn_blocking(move || -> std::io::Result<()> {
            if let Some(parent) = to.parent() {
                std::fs::create_dir_all(parent)?;
            }
            let png = std::fs::read(&kept)?;
            planwright_fs::write_atomically(&to, &png, planwright_fs::Access::Shared)
        })
        .await
        .map_err(|e| BlockError::failed(format!("saving the evidence stopped: {e}")))?
        .map_err(|e| {
            let text = format!("`evidence.{step}`: {shown} cannot be written: {e}");
            BlockError::failed(Reason::said(RunMessage::FileUnwritable { path: shown.clone() }, text))
        })?;
        ctx.artifact(path, ArtifactKind::Screenshot);
        entry["evidence_file"] = Value::String(shown.clone());
        let text = format!("step {step}: the screenshot taken when it was judged is saved as {shown}");
        let said = RunMessage::EvidenceSaved { step: *step as u64, path: shown.clone() };
        ctx.log(LogLevel::Info, Reason::said(said, text));
    }
    Ok(())
}

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
