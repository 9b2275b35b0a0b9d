//! Document extraction: the text of PDF, Word (.docx), Excel (.xlsx, .xlsm, .xlsb, .xls) and
//! text files (UTF-8, Shift_JIS, EUC-JP), for a model to read.
//!
//! The format comes from the content (magic bytes, the parts of a zip package), not the
//! extension. Reading is bounded — pages, rows and columns, characters per file and in all,
//! file size, what a zip package may inflate to, time per file — and isolated: each file is
//! read in a worker process or a thread (see [`Isolation`]), so a reader that panics or hangs
//! costs that file, reported in plain words, never the program. [`documents_for_prompt`]
//! then fits the texts into a prompt.

mod archive;
mod budget;
mod docx;
mod extract;
mod isolate;
mod limits;
mod normalise;
mod outcome;
mod pdf;
mod sheet;
mod sniff;
mod text;

use std::path::PathBuf;

pub use budget::share_budget;
pub use extract::extract_bytes;
pub use isolate::{host_worker, use_worker_command, worker_main, Cancelled, Isolation, WorkerCommand, WORKER_ARG};
pub use limits::Limits;
pub use normalise::{documents_for_prompt, normalise_text, DEFAULT_PROMPT_CHARS, NO_DOCUMENTS};
pub use outcome::{Document, Outcome, Skip};
pub use sniff::Format;
pub use text::decode_text;

/// What `bytes` are, from their content, and a note when `ext` (the file's extension) promised
/// another format; `Err` says why they are none of the formats this crate reads.
pub fn detect_format(bytes: &[u8], ext: &str) -> Result<(Format, Option<String>), String> {
    sniff::sniff(bytes, ext).map(|found| (found.format, found.note)).map_err(outcome::Unreadable::sentence)
}

/// Refuses a zip package (.xlsx, .docx) whose parts would inflate past `max_unzipped` bytes
/// together, or whose large parts compress like a zip bomb — checked before any parser
/// inflates a part, by inflating and counting without keeping. `what` names the kind of file in
/// the message (`Excel workbook`); the error says what is wrong and what to do.
pub fn check_zip_package(bytes: &[u8], max_unzipped: u64, what: &str) -> Result<(), String> {
    archive::check_package(bytes, max_unzipped, what).map_err(outcome::Unreadable::sentence)
}

/// A file to extract: where it is, and the name messages and the result call it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Source {
    pub name: String,
    pub path: PathBuf,
}

/// Extracts one file, isolated, within `limits` (its text alone is capped at
/// `limits.max_chars`). `cancelled` is asked while waiting; when it says yes the worker is
/// killed (or the thread abandoned) and [`Cancelled`] returned.
pub fn extract_file(
    source: &Source,
    limits: &Limits,
    isolation: &Isolation,
    cancelled: &dyn Fn() -> bool,
) -> Result<Outcome, Cancelled> {
    let _span = tracing::info_span!("extract_file", file = %source.name).entered();
    isolate::run(&source.name, &source.path, limits, isolation, cancelled)
}

/// Extracts files one after another — `done(n)` is told after each, `n` read of
/// `sources.len()` — then shares `limits.max_chars` among them (short texts whole, long ones
/// equal shares of the rest); a text cut to its share is marked truncated, with a note.
pub fn extract_files(
    sources: &[Source],
    limits: &Limits,
    isolation: &Isolation,
    cancelled: &dyn Fn() -> bool,
    done: &dyn Fn(usize),
) -> Result<Vec<Outcome>, Cancelled> {
    let mut outcomes = Vec::with_capacity(sources.len());
    for source in sources {
        if cancelled() {
            return Err(Cancelled);
        }
        outcomes.push(extract_file(source, limits, isolation, cancelled)?);
        done(outcomes.len());
    }
    let lengths: Vec<usize> = outcomes
        .iter()
        .map(|o| match o {
            Outcome::Read(d) => d.chars(),
            Outcome::Skipped(_) => 0,
        })
        .collect();
    let shares = share_budget(&lengths, limits.max_chars);
    for ((outcome, len), share) in outcomes.iter_mut().zip(lengths).zip(shares) {
        if let Outcome::Read(doc) = outcome {
            if len > share {
                if let Some((cut, _)) = doc.text.char_indices().nth(share) {
                    doc.text.truncate(cut);
                }
                doc.truncated = true;
                doc.notes.push(format!(
                    "text cut off after {share} of {len} characters (the budget is shared among the files)"
                ));
            }
        }
    }
    Ok(outcomes)
}
