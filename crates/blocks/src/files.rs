//! `file.read_csv` and `file.extract_texts` (on `planwright-documents`), and the file handling
//! the data blocks share: paths through the work directory, the read cap, blocking work off the
//! async runtime, atomic writes.

use std::io::Read;
use std::path::{Path, PathBuf};
use std::sync::Arc;

use encoding_rs::{Encoding, EUC_JP, SHIFT_JIS, UTF_8};
use futures::future::BoxFuture;
use planwright_block::{Block, BlockContext, BlockError, Values, Workdir};
use planwright_documents::{extract_files, Isolation, Limits, Outcome, Source};
use planwright_runs::{LogLevel, Progress, Reason, RunMessage};
use planwright_tables::{CsvError, CsvFormat, Table};
use serde_json::{json, Value};
use sha2::{Digest, Sha256};
use tokio_util::sync::CancellationToken;

use crate::cells::{self, input};
use crate::csv_text::{bad_bytes_verdict, unreadable, DecodedText};

/// Files larger than this are refused by every reading block but `file.read_csv`.
pub(crate) const MAX_READ_BYTES: u64 = 200 * 1024 * 1024;
/// CSV files larger than this are refused by `file.read_csv`. Its table holds typed columns,
/// about the file's size in memory (a 10,000,000-row ledger is 580 MB), not a JSON object per row.
pub(crate) const MAX_CSV_BYTES: u64 = 1024 * 1024 * 1024;
/// Rows between two looks at the cancellation token.
pub(crate) const CANCEL_EVERY: usize = 1024;

/// The data blocks of this module, for the registry.
pub(crate) fn blocks() -> Vec<Arc<dyn Block>> {
    vec![Arc::new(ReadCsv), Arc::new(ExtractTexts)]
}

// ---------------------------------------------------------------------------------------------
// Shared file handling
// ---------------------------------------------------------------------------------------------

/// The path an input names, through [`planwright_block::Workdir::resolve`] (which refuses
/// escapes), in normal form: its components are collected again so that a trailing separator
/// (which the file system would take for a folder) never reaches a file operation.
pub(crate) fn resolve(ctx: &BlockContext, name: &str, value: &str) -> Result<PathBuf, BlockError> {
    resolve_in(&ctx.workdir, name, value)
}

/// [`resolve`] in `workdir`.
fn resolve_in(workdir: &Workdir, name: &str, value: &str) -> Result<PathBuf, BlockError> {
    Ok(workdir.resolve(name, value)?.components().collect())
}

/// The file an input names, inside the work directory, existing, a file, and within `max_bytes`.
pub(crate) fn input_file(ctx: &BlockContext, name: &str, value: &str, max_bytes: u64) -> Result<PathBuf, BlockError> {
    let path = resolve(ctx, name, value)?;
    let meta = match std::fs::metadata(&path) {
        Ok(meta) => meta,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => {
            let said = RunMessage::FileMissing { input: name.to_owned(), path: value.to_owned() };
            return Err(BlockError::input(Reason::said(said, missing_file_message(ctx, name, value, &path))));
        }
        Err(e) => {
            let said = RunMessage::FileUnreadable { path: value.to_owned() };
            return Err(BlockError::failed(Reason::said(said, format!("`{name}`: cannot open {value:?}: {e}"))));
        }
    };
    if meta.is_dir() {
        let said = RunMessage::FileIsFolder { input: name.to_owned(), path: value.to_owned() };
        let text = format!("`{name}`: {value:?} is a folder; give the path of a file in it");
        return Err(BlockError::input(Reason::said(said, text)));
    }
    // A pipe or a device may never end (and opening a pipe waits for a writer): refused before
    // anything opens it.
    if !meta.is_file() {
        return Err(BlockError::input(format!(
            "`{name}`: {value:?} is not a regular file (a pipe, a device or a socket), which might never end; save \
             its content to a file and read that"
        )));
    }
    check_size(name, value, meta.len(), max_bytes)?;
    Ok(path)
}

pub(crate) fn check_size(name: &str, value: &str, bytes: u64, max_bytes: u64) -> Result<(), BlockError> {
    if bytes > max_bytes {
        let (mb, max_mb) = (bytes.div_ceil(1024 * 1024), max_bytes / (1024 * 1024));
        let said = RunMessage::FileTooLarge { input: name.to_owned(), path: value.to_owned(), mb, max_mb };
        let text = format!(
            "`{name}`: {value:?} is {mb} MB; files up to {max_mb} MB can be read — split it (for example by month) or \
             export fewer columns"
        );
        return Err(BlockError::input(Reason::said(said, text)));
    }
    Ok(())
}

/// "There is no file at …", with the files that are in that folder when there are any.
fn missing_file_message(ctx: &BlockContext, name: &str, value: &str, path: &Path) -> String {
    let root = ctx.workdir.root();
    let shown = path.strip_prefix(root).unwrap_or(path).display().to_string();
    let mut message =
        format!("`{name}`: there is no file {value:?} (looked for {shown} in the work directory {})", root.display());
    let Some(parent) = path.parent() else { return message };
    let Ok(entries) = std::fs::read_dir(parent) else {
        let folder = parent.strip_prefix(root).unwrap_or(parent).display().to_string();
        if !folder.is_empty() {
            message.push_str(&format!("; the folder {folder} does not exist either"));
        }
        return message;
    };
    let wanted_ext = path.extension().map(|e| e.to_string_lossy().to_lowercase());
    let mut names: Vec<String> = entries
        .flatten()
        .filter(|e| e.path().is_file())
        .filter(|e| {
            wanted_ext.is_none() || e.path().extension().map(|x| x.to_string_lossy().to_lowercase()) == wanted_ext
        })
        .map(|e| e.file_name().to_string_lossy().into_owned())
        .collect();
    names.sort();
    if !names.is_empty() {
        let more = if names.len() > 8 { format!(" and {} more", names.len() - 8) } else { String::new() };
        names.truncate(8);
        message.push_str(&format!("; files there: {}{more}", names.join(", ")));
    }
    message
}

/// The file an output input names, inside the work directory, with its folders created.
pub(crate) fn output_file(ctx: &BlockContext, name: &str, value: &str) -> Result<PathBuf, BlockError> {
    let path = resolve(ctx, name, value)?;
    if path.is_dir() {
        return Err(BlockError::input(format!("`{name}`: {value:?} is a folder; give a file name, e.g. {value}/out")));
    }
    if let Some(parent) = path.parent() {
        std::fs::create_dir_all(parent).map_err(|e| {
            let text = format!("`{name}`: cannot create the folder for {value:?}: {e}");
            BlockError::failed(Reason::said(RunMessage::FileUnwritable { path: value.to_owned() }, text))
        })?;
    }
    Ok(path)
}

/// The extension of a path, lower case, without the dot.
pub(crate) fn extension(path: &Path) -> String {
    path.extension().map(|e| e.to_string_lossy().to_lowercase()).unwrap_or_default()
}

/// Runs blocking work (file I/O, parsing) on tokio's blocking pool.
pub(crate) async fn blocking<T, F>(work: F) -> Result<T, BlockError>
where
    F: FnOnce() -> Result<T, BlockError> + Send + 'static,
    T: Send + 'static,
{
    match tokio::task::spawn_blocking(work).await {
        Ok(result) => result,
        Err(e) => Err(BlockError::failed(format!("internal error while working on the file: {e}"))),
    }
}

pub(crate) fn check_cancel(cancel: &CancellationToken) -> Result<(), BlockError> {
    if cancel.is_cancelled() {
        Err(BlockError::Cancelled)
    } else {
        Ok(())
    }
}

/// Reads a whole file in chunks, watching the token and the read cap.
pub(crate) fn read_capped(path: &Path, shown: &str, cancel: &CancellationToken) -> Result<Vec<u8>, BlockError> {
    const CHUNK: usize = 4 * 1024 * 1024;
    let failed = |e: std::io::Error| unreadable(shown, &e);
    check_cancel(cancel)?;
    let mut file = std::fs::File::open(path).map_err(failed)?;
    let mut bytes = Vec::with_capacity(file.metadata().map(|m| m.len() as usize).unwrap_or(0).min(CHUNK * 4));
    let mut chunk = vec![0u8; CHUNK];
    loop {
        check_cancel(cancel)?;
        let n = file.read(&mut chunk).map_err(failed)?;
        if n == 0 {
            break;
        }
        bytes.extend_from_slice(&chunk[..n]);
        check_size("path", shown, bytes.len() as u64, MAX_READ_BYTES)?;
    }
    Ok(bytes)
}

/// Writes `bytes` to `path` atomically: a reader never sees half a file and an existing file is
/// replaced whole.
pub(crate) fn write_atomically(path: &Path, shown: &str, bytes: &[u8]) -> Result<(), BlockError> {
    planwright_fs::write_atomically(path, bytes, planwright_fs::Access::Shared).map_err(|e| {
        let hint = if path.exists() { " (is it open in another program, such as Excel?)" } else { "" };
        let said = RunMessage::FileUnwritable { path: shown.to_owned() };
        BlockError::failed(Reason::said(said, format!("cannot write {shown}: {e}{hint}")))
    })
}

// ---------------------------------------------------------------------------------------------
// file.read_csv
// ---------------------------------------------------------------------------------------------

/// `file.read_csv`: a delimited text file into rows keyed by the header.
pub(crate) struct ReadCsv;

impl Block for ReadCsv {
    fn id(&self) -> &'static str {
        "file.read_csv"
    }

    fn run<'a>(&'a self, inputs: Values, ctx: &'a BlockContext) -> BoxFuture<'a, Result<Values, BlockError>> {
        Box::pin(read_csv(inputs, ctx))
    }

    fn reopen_table(&self, source: &Value, workdir: &Workdir) -> Option<Result<Table, BlockError>> {
        Some(reopen_csv(source, workdir))
    }
}

/// The inputs that say how `file.read_csv` reads a file, which its table's source keeps.
const HOW_READ: [&str; 4] = ["path", "delimiter", "encoding", "has_header"];

async fn read_csv(inputs: Values, ctx: &BlockContext) -> Result<Values, BlockError> {
    let shown = input::text(&inputs, "path", "the CSV file to read, e.g. data/payments.csv")?.to_string();
    let options = CsvOptions::of(&inputs)?;
    let path = input_file(ctx, "path", &shown, MAX_CSV_BYTES)?;
    let cancel = ctx.cancel.clone();
    let name = shown.clone();
    let CsvRead { table, warning, sha256 } = blocking(move || read_csv_file(&path, &name, &options, &cancel)).await?;
    if let Some(warning) = warning {
        ctx.log(LogLevel::Warn, warning);
    }
    let (rows, columns) = (table.row_count(), table.columns());
    let said = RunMessage::CsvRead { path: shown.clone(), rows: rows as u64, columns: columns.len() as u64 };
    let text = format!("read {rows} rows and {} columns from {shown}", columns.len());
    ctx.log(LogLevel::Info, Reason::said(said, text));
    let mut out = Values::new();
    out.insert("summary".into(), json!({ "rows": rows, "columns": columns }));
    let source = table_source(&inputs, &HOW_READ, "file.read_csv", &sha256);
    out.insert("rows".into(), ctx.tables.put_read(table, source));
    Ok(out)
}

/// The table `file.read_csv` read, read again from its `source`.
fn reopen_csv(source: &Value, workdir: &Workdir) -> Result<Table, BlockError> {
    reopen(source, workdir, "the CSV file", |source, path, shown| {
        let read = read_csv_file(path, shown, &CsvOptions::of(source)?, &CancellationToken::new())?;
        Ok((read.table, read.sha256))
    })
}

/// Where a read block's table came from, which a run's record keeps rather than a copy: the
/// inputs `how_read` names (how the block read its file), the block, and the file's SHA-256.
pub(crate) fn table_source(inputs: &Values, how_read: &[&str], block: &str, sha256: &str) -> Value {
    let mut source: Values = how_read.iter().filter_map(|&k| Some((k.to_owned(), inputs.get(k)?.clone()))).collect();
    source.insert("block".into(), json!(block));
    source.insert("sha256".into(), json!(sha256));
    Value::Object(source)
}

/// The table a read block read, read again from its [`table_source`] by `read` (the source's
/// inputs, the file's path and its name as given → the table and the file's SHA-256): the same
/// file, or an error saying it changed. `what` names the file in an error about the source.
pub(crate) fn reopen(
    source: &Value,
    workdir: &Workdir,
    what: &str,
    read: impl FnOnce(&Values, &Path, &str) -> Result<(Table, String), BlockError>,
) -> Result<Table, BlockError> {
    let source = source.as_object().ok_or_else(|| BlockError::input("a table's source is not an object"))?;
    let shown = input::text(source, "path", what)?;
    let path = resolve_in(workdir, "path", shown)?;
    let (table, sha256) = read(source, &path, shown)?;
    if source.get("sha256").and_then(Value::as_str) != Some(sha256.as_str()) {
        return Err(BlockError::failed(format!(
            "{shown} is not the file this run read (its SHA-256 differs): it changed since, and the run's later \
             steps used the file as it was; start a new run to use it as it is"
        )));
    }
    Ok(table)
}

/// The SHA-256 (hex) of the file at `path` (`shown` in messages), read in pieces.
pub(crate) fn sha256_of(path: &Path, shown: &str) -> Result<String, BlockError> {
    let mut hash = Sha256::new();
    let mut file = std::fs::File::open(path).map_err(|e| unreadable(shown, &e))?;
    std::io::copy(&mut file, &mut hash).map_err(|e| unreadable(shown, &e))?;
    Ok(format!("{:x}", hash.finalize()))
}

/// A CSV file as `file.read_csv` reads it.
pub(crate) struct CsvRead {
    pub table: Table,
    /// Some bytes were not in the file's encoding: the warning saying so.
    pub warning: Option<String>,
    /// The SHA-256 (hex) of the file's bytes.
    pub sha256: String,
}

/// How `file.read_csv` reads, from its inputs.
pub(crate) struct CsvOptions {
    delimiter: u8,
    encoding: &'static Encoding,
    has_header: bool,
}

impl CsvOptions {
    pub(crate) fn of(inputs: &Values) -> Result<CsvOptions, BlockError> {
        // Not `optional_text`: a tab is blank but a delimiter all the same.
        let delimiter = match inputs.get("delimiter") {
            None | Some(Value::Null) => b',',
            Some(Value::String(s)) if s.is_empty() => b',',
            Some(Value::String(s)) => delimiter(s)?,
            Some(other) => {
                return Err(BlockError::input(format!(
                    "`delimiter` must be one character such as \",\" or \"\\t\", not {}",
                    cells::describe(other)
                )));
            }
        };
        let encoding = encoding(input::optional_text(inputs, "encoding")?.unwrap_or("utf-8"))?;
        let has_header = input::boolean(inputs, "has_header", true)?;
        Ok(CsvOptions { delimiter, encoding, has_header })
    }
}

/// Reads the CSV file at `path` as `file.read_csv` does.
pub(crate) fn read_csv_file(
    path: &Path,
    shown: &str,
    options: &CsvOptions,
    cancel: &CancellationToken,
) -> Result<CsvRead, BlockError> {
    check_cancel(cancel)?;
    let file = std::fs::File::open(path).map_err(|e| unreadable(shown, &e))?;
    let mut text = DecodedText::new(file, options.encoding);
    let format = CsvFormat { delimiter: options.delimiter, has_header: options.has_header };
    let table = planwright_tables::read_csv(&mut text, format, &|| cancel.is_cancelled()).map_err(|e| match e {
        CsvError::Cancelled => BlockError::Cancelled,
        CsvError::UnreadableAt { line, .. } => {
            BlockError::failed(Reason::said(RunMessage::CsvUnreadableAt { line }, e.to_string()))
        }
        CsvError::Unreadable { .. } => BlockError::failed(Reason::said(RunMessage::CsvUnreadable, e.to_string())),
    })?;
    let (used, had_errors, first_bad_line) = text.outcome();
    let warning = had_errors.then(|| bad_bytes_verdict(path, shown, used, first_bad_line)).transpose()?;
    Ok(CsvRead { table, warning, sha256: text.sha256() })
}

fn delimiter(given: &str) -> Result<u8, BlockError> {
    let d = match given {
        "\t" | "\\t" => "\t",
        other if other.trim().eq_ignore_ascii_case("tab") => "\t",
        other => other,
    };
    match d.as_bytes() {
        [b] if b.is_ascii() && *b != b'"' && *b != b'\n' && *b != b'\r' => Ok(*b),
        _ => Err(BlockError::input(format!(
            "`delimiter` is {given:?}; it must be one character such as \",\" (CSV), \"\\t\" (tab-separated), \";\" \
             or \"|\""
        ))),
    }
}

/// The encoding an `encoding` input names; `cp932` and friends are Shift_JIS (encoding_rs's
/// Shift_JIS decoder is Windows-31J, with the NEC and IBM extensions Japanese systems use).
pub(crate) fn encoding(given: &str) -> Result<&'static Encoding, BlockError> {
    let label = given.trim().to_ascii_lowercase().replace('_', "-");
    let found = match label.as_str() {
        "utf-8" | "utf8" | "utf-8-sig" | "utf-8-bom" | "utf8-bom" => Some(UTF_8),
        "shift-jis" | "shiftjis" | "sjis" | "cp932" | "ms932" | "windows-31j" | "windows-932" => Some(SHIFT_JIS),
        "euc-jp" | "eucjp" => Some(EUC_JP),
        other => Encoding::for_label(other.as_bytes()),
    };
    found.ok_or_else(|| {
        BlockError::input(format!(
            "`encoding` is {given:?}, which this block does not know; use utf-8, shift_jis, cp932 or euc-jp"
        ))
    })
}

// ---------------------------------------------------------------------------------------------
// file.extract_texts
// ---------------------------------------------------------------------------------------------

/// `file.extract_texts`: the text of each document, for a model to read.
pub(crate) struct ExtractTexts;

impl Block for ExtractTexts {
    fn id(&self) -> &'static str {
        "file.extract_texts"
    }

    fn run<'a>(&'a self, inputs: Values, ctx: &'a BlockContext) -> BoxFuture<'a, Result<Values, BlockError>> {
        Box::pin(extract_texts(inputs, ctx))
    }
}

/// The most PDF pages `max_pages` may ask for: enough for any statement or contract, and about
/// what the character budget holds anyway.
const MAX_PAGES_ASKED: i64 = 1_000;

async fn extract_texts(inputs: Values, ctx: &BlockContext) -> Result<Values, BlockError> {
    let given = input::list(&inputs, "paths", "the documents to read, e.g. [invoices/a.pdf, notes.txt]")?;
    let mut sources: Vec<Source> = Vec::with_capacity(given.len());
    for (i, value) in given.iter().enumerate() {
        let name = format!("paths[{i}]");
        let Value::String(shown) = value else {
            return Err(BlockError::input(format!(
                "`{name}` must be a file path (text), not {}",
                cells::describe(value)
            )));
        };
        let path = resolve(ctx, &name, shown)?;
        let file_name = Path::new(shown).file_name().map_or(shown.clone(), |n| n.to_string_lossy().into_owned());
        sources.push(Source { name: file_name, path });
    }
    let defaults = Limits::default();
    let max_pages = input::integer(&inputs, "max_pages", i64::from(defaults.max_pages))?;
    if !(1..=MAX_PAGES_ASKED).contains(&max_pages) {
        return Err(BlockError::input(format!(
            "`max_pages` is {max_pages}; give a number of PDF pages from 1 to {MAX_PAGES_ASKED} (default {})",
            defaults.max_pages
        )));
    }
    let limits = Limits {
        max_pages: max_pages as u32,
        all_sheets: input::boolean(&inputs, "all_sheets", false)?,
        max_file_bytes: MAX_READ_BYTES,
        ..defaults
    };
    let cancel = ctx.cancel.clone();
    let (events, node, total) = (ctx.events.clone(), ctx.node.clone(), sources.len() as u64);
    // Each document read is a step the studio can show ("3 of 12 documents").
    let read_one = move |done: usize| {
        let progress = Progress::Items { done: done as u64, total, unit: "documents".into() };
        events.progress(&node, progress);
    };
    let outcomes = blocking(move || {
        extract_files(&sources, &limits, &Isolation::Auto, &|| cancel.is_cancelled(), &read_one)
            .map_err(|_| BlockError::Cancelled)
    })
    .await?;

    let mut texts = Vec::with_capacity(outcomes.len());
    let mut skipped = Vec::new();
    let (mut read, mut total_chars, mut truncated_files) = (0usize, 0usize, 0usize);
    for outcome in outcomes {
        match outcome {
            Outcome::Read(doc) => {
                read += 1;
                for note in &doc.notes {
                    ctx.log(LogLevel::Warn, format!("{}: {note}", doc.name));
                }
                let chars = doc.chars();
                total_chars += chars;
                truncated_files += usize::from(doc.truncated);
                texts.push(json!({ "name": doc.name, "text": doc.text, "chars": chars, "truncated": doc.truncated }));
            }
            Outcome::Skipped(skip) => {
                let note = skip.message();
                ctx.log(LogLevel::Warn, note.clone());
                skipped.push(Value::String(note));
                texts.push(json!({ "name": skip.name, "text": "", "chars": 0, "truncated": false }));
            }
        }
    }
    let said = RunMessage::TextsRead { characters: total_chars as u64, files: read as u64 };
    ctx.log(LogLevel::Info, Reason::said(said, format!("read {total_chars} characters from {read} files")));
    let mut out = Values::new();
    out.insert("texts".into(), Value::Array(texts));
    out.insert(
        "summary".into(),
        json!({ "files": read, "total_chars": total_chars, "truncated_files": truncated_files, "skipped": skipped }),
    );
    Ok(out)
}
