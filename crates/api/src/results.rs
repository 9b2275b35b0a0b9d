//! What a run produced, for the studio to open a finished run on: the values its last nodes gave
//! (the plan's results, not its plumbing) and the files it wrote, each with a preview — tables for
//! CSV and Excel, text for Markdown and plain text, the parsed value for JSON, images as they are.
//! Only files the run recorded as its artifacts are read, each within a size limit.

use std::collections::HashSet;
use std::path::Path;
use std::sync::Arc;

use planwright_runs::{ArtifactKind, EventKind};
use planwright_tables::Table;
use serde_json::Value;

use crate::error::{ApiError, ApiMessage};
use crate::types::*;
use crate::Studio;

/// Rows a table preview shows.
const PREVIEW_ROWS: usize = 50;
/// Characters a text preview shows.
const PREVIEW_CHARS: usize = 64 * 1024;
/// Rows of a value that are listed in the headline.
const VALUE_ROWS: usize = 20;

impl Studio {
    /// Refuses a path the run's artifact events do not name: only what a run wrote is read or
    /// opened, never any file of the machine.
    pub(crate) fn recorded_artifact(&self, run_id: &str, path: &str) -> Result<(), ApiError> {
        let events = self.inner.store.events(run_id)?;
        if events.iter().any(|e| matches!(&e.kind, EventKind::Artifact { path: p, .. } if p == path)) {
            return Ok(());
        }
        Err(ApiError::not_found(format!("run {run_id} recorded no artifact {path}"))
            .with_hint("ask for a path the run's artifact events name")
            .saying(ApiMessage::ArtifactNotRecorded { path: path.to_owned() }))
    }

    /// Opens a file the run wrote with the system's application for its kind (or its folder in
    /// the file manager). The studio runs on the person's machine, so both transports open it
    /// there; the system's opener is started and left to run.
    pub async fn open_artifact(
        &self,
        run_id: String,
        request: OpenArtifactRequest,
    ) -> Result<ArtifactOpened, ApiError> {
        self.recorded_artifact(&run_id, &request.path)?;
        let file = Path::new(&request.path);
        if !file.is_file() {
            return Err(ApiError::not_found(format!("{}: the file is not there", request.path))
                .with_hint("the file may have been moved or deleted since the run")
                .saying(ApiMessage::ArtifactMissing { path: request.path.clone() }));
        }
        let target = if request.folder { file.parent().unwrap_or(file) } else { file };
        open::that_detached(target).map_err(|e| {
            ApiError::internal(format!("{} could not be opened: {e}", target.display()))
                .with_hint("the system has no application to open it with (on Linux, install xdg-utils)")
                .saying(ApiMessage::OpenFailed { path: target.display().to_string() })
        })?;
        Ok(ArtifactOpened { opened: target.display().to_string() })
    }

    /// The run's results: the outputs of its last nodes (those no other node reads), and every
    /// file it wrote with a preview, in the plan's order. Readable while the run goes on (what
    /// is there so far).
    pub async fn run_results(&self, run_id: String) -> Result<RunResults, ApiError> {
        let events = self.inner.store.events(&run_id)?;
        let (plan_text, _) = self.inner.store.plan(&run_id)?;
        let graph = self.plan_graph(PlanText { text: plan_text }).await?;
        let read_by_others: HashSet<&str> = graph.edges.iter().map(|e| e.from.as_str()).collect();
        let last_nodes: HashSet<&str> = graph
            .nodes
            .iter()
            .filter(|n| n.parent.is_none() && !read_by_others.contains(n.id.as_str()))
            .map(|n| n.id.as_str())
            .collect();
        // The outputs as stored in full (masked), not the events' summaries, which cut lists.
        let mut values: Vec<ResultValue> = self
            .inner
            .store
            .finished_outputs(&run_id)?
            .iter()
            .filter(|(node, _)| last_nodes.contains(node.as_str()))
            .flat_map(|(node, outputs)| outputs.iter().map(|(alias, value)| result_value(node, alias, value)))
            .collect();
        let mut files: Vec<(String, String, ArtifactKind, u64)> = Vec::new();
        for event in &events {
            if let EventKind::Artifact {
                node,
                path,
                kind: kind @ (ArtifactKind::File | ArtifactKind::Report | ArtifactKind::Screenshot),
                bytes,
            } = &event.kind
            {
                files.retain(|(_, p, ..)| p != path);
                files.push((node.to_string(), path.clone(), *kind, *bytes));
            }
        }
        // In the plan's order, not in the order concurrent nodes happened to finish.
        let position = |node: &str| graph.nodes.iter().position(|n| n.id == node).unwrap_or(usize::MAX);
        values.sort_by(|a, b| position(&a.node).cmp(&position(&b.node)).then(a.alias.cmp(&b.alias)));
        files.sort_by_key(|(node, ..)| position(node));
        let workspace = self.workspace();
        let files = tokio::task::spawn_blocking(move || {
            files
                .into_iter()
                .map(|(node, path, kind, bytes)| result_file(&workspace, node, path, kind, bytes))
                .collect()
        })
        .await
        .map_err(|e| ApiError::internal(format!("reading the run's files stopped: {e}")))?;
        Ok(RunResults { values, files })
    }
}

/// Rows of a table page when the request does not say, and at most.
const PAGE_ROWS: usize = 100;
const MAX_PAGE_ROWS: usize = 1000;

impl Studio {
    /// A page of the table `node` gave as `alias`: its rows from `offset`, and how many it has.
    /// A table the record keeps as a file (or as the rows of the file it was read from) is
    /// opened on demand — the results carry only its first rows — and kept open for the next
    /// page; a small one is the record's own rows.
    pub async fn run_table(&self, run_id: String, request: TableRequest) -> Result<TablePage, ApiError> {
        let limit = request.limit.unwrap_or(PAGE_ROWS).clamp(1, MAX_PAGE_ROWS);
        let TableRequest { node, alias, offset, .. } = request;
        let mut outputs = self.inner.store.finished_outputs(&run_id)?;
        let not_kept = || {
            ApiError::not_found(format!("run {run_id} kept no table `{node}.{alias}`"))
                .with_hint("ask for a node and output of the run's results that hold a table")
                .saying(ApiMessage::TableNotKept { node: node.clone(), alias: alias.clone() })
        };
        let value = outputs
            .iter_mut()
            .find(|(path, _)| path.as_str() == node)
            .and_then(|(_, outputs)| outputs.remove(&alias))
            .ok_or_else(not_kept)?;
        if let Value::Array(rows) = value {
            if !rows.iter().all(Value::is_object) {
                return Err(not_kept());
            }
            return Ok(page_of_rows(rows, offset, limit));
        }
        let table = self.opened_table(&run_id, &node, &alias, value).await?.ok_or_else(not_kept)?;
        let total = table.row_count();
        let rows = (offset..total.min(offset.saturating_add(limit))).filter_map(|i| table.row(i)).collect();
        Ok(TablePage { columns: table.columns(), rows, offset, total })
    }

    /// The table a run's record keeps for `value`, opened once for its pages: the last one
    /// asked for stays open.
    async fn opened_table(
        &self,
        run_id: &str,
        node: &str,
        alias: &str,
        value: Value,
    ) -> Result<Option<Arc<Table>>, ApiError> {
        let key = format!("{run_id}\n{node}\n{alias}");
        if let Some((kept, table)) = &*self.inner.open_table.lock().unwrap_or_else(|e| e.into_inner()) {
            if *kept == key {
                return Ok(Some(table.clone()));
            }
        }
        let node_dir = self.inner.store.node_dir(run_id, node)?;
        let events = self.inner.store.events(run_id)?;
        let workdir = events
            .iter()
            .rev()
            .find_map(|e| match &e.kind {
                EventKind::RunStarted { workdir, .. } => Some(std::path::PathBuf::from(workdir)),
                _ => None,
            })
            .unwrap_or_else(|| self.workspace());
        let engine = self.engine();
        let opened = tokio::task::spawn_blocking(move || engine.open_recorded_table(&value, &node_dir, &workdir))
            .await
            .map_err(|e| ApiError::internal(format!("opening the table stopped: {e}")))?;
        let table = opened.map_err(|error| {
            let detail = error.to_string();
            ApiError::internal(format!("the table `{node}.{alias}` of run {run_id} cannot be read: {detail}"))
                .with_hint("the run's folder or the file the table was read from was changed or removed")
                .saying(ApiMessage::TableUnreadable { node: node.to_owned(), detail: detail.clone() })
        })?;
        if let Some(table) = &table {
            *self.inner.open_table.lock().unwrap_or_else(|e| e.into_inner()) = Some((key, table.clone()));
        }
        Ok(table)
    }
}

/// A page of a table kept as its rows; its columns are those its rows have, in order of first use.
fn page_of_rows(rows: Vec<Value>, offset: usize, limit: usize) -> TablePage {
    let mut columns: Vec<String> = Vec::new();
    for row in rows.iter().filter_map(Value::as_object) {
        for key in row.keys() {
            if !columns.contains(key) {
                columns.push(key.clone());
            }
        }
    }
    let total = rows.len();
    let rows = rows.into_iter().skip(offset).take(limit).collect();
    TablePage { columns, rows, offset, total }
}

fn result_value(node: &str, alias: &str, value: &Value) -> ResultValue {
    if let Some(table) = planwright_engine::recorded_table(value) {
        let shown = Value::Array(table.preview.iter().take(VALUE_ROWS).cloned().collect());
        return ResultValue { node: node.to_owned(), alias: alias.to_owned(), value: shown, rows: Some(table.rows) };
    }
    let (shown, rows) = match value {
        Value::Array(items) => (Value::Array(items.iter().take(VALUE_ROWS).cloned().collect()), Some(items.len())),
        other => (other.clone(), None),
    };
    ResultValue { node: node.to_owned(), alias: alias.to_owned(), value: shown, rows }
}

fn result_file(workspace: &Path, node: String, path: String, kind: ArtifactKind, bytes: u64) -> ResultFile {
    let file = Path::new(&path);
    let name = file.file_name().map(|n| n.to_string_lossy().into_owned()).unwrap_or_else(|| path.clone());
    let shown_path = file.strip_prefix(workspace).map(|p| p.display().to_string()).unwrap_or_else(|_| path.clone());
    let media_type = crate::runs::media_type(&path).to_owned();
    let preview = preview(file, &media_type);
    ResultFile {
        node,
        name,
        path,
        shown_path,
        report: matches!(kind, ArtifactKind::Report),
        bytes,
        media_type,
        preview,
    }
}

fn preview(file: &Path, media_type: &str) -> FilePreview {
    let ext = file.extension().and_then(|e| e.to_str()).map(str::to_ascii_lowercase).unwrap_or_default();
    let size = std::fs::metadata(file).map(|m| m.len());
    match size {
        Err(e) => return FilePreview::None { reason: format!("the file cannot be read: {e}") },
        Ok(size) if size > crate::runs::MAX_ARTIFACT_BYTES => {
            return FilePreview::None { reason: format!("the file is {size} bytes, too large to preview") }
        }
        Ok(_) => {}
    }
    let read = || std::fs::read(file).map_err(|e| format!("the file cannot be read: {e}"));
    let result = match ext.as_str() {
        "csv" | "tsv" => read().and_then(|bytes| csv_table(&bytes, if ext == "tsv" { b'\t' } else { b',' })),
        "xlsx" | "xlsm" | "xlsb" | "xls" | "ods" => excel_table(file),
        "json" => read().and_then(|bytes| {
            serde_json::from_slice(&bytes)
                .map(|value| FilePreview::Json { value })
                .map_err(|e| format!("not JSON: {e}"))
        }),
        "md" | "markdown" | "txt" | "log" | "jsonl" => {
            read().map(|bytes| text(&bytes, matches!(ext.as_str(), "md" | "markdown")))
        }
        _ if media_type.starts_with("image/") => Ok(FilePreview::Image),
        _ => Ok(FilePreview::None { reason: "no preview for this kind of file".into() }),
    };
    result.unwrap_or_else(|reason| FilePreview::None { reason })
}

fn text(bytes: &[u8], markdown: bool) -> FilePreview {
    let text = String::from_utf8_lossy(bytes);
    let truncated = text.chars().count() > PREVIEW_CHARS;
    FilePreview::Text { text: text.chars().take(PREVIEW_CHARS).collect(), markdown, truncated }
}

fn csv_table(bytes: &[u8], delimiter: u8) -> Result<FilePreview, String> {
    // A UTF-8 byte-order mark is not part of the first column's name.
    let bytes = bytes.strip_prefix(b"\xEF\xBB\xBF").unwrap_or(bytes);
    let mut reader = csv::ReaderBuilder::new().delimiter(delimiter).flexible(true).has_headers(true).from_reader(bytes);
    let columns: Vec<String> =
        reader.headers().map_err(|e| format!("not CSV: {e}"))?.iter().map(str::to_owned).collect();
    let mut rows = Vec::new();
    let mut total_rows = 0;
    for record in reader.records() {
        let record = record.map_err(|e| format!("not CSV: {e}"))?;
        total_rows += 1;
        if rows.len() < PREVIEW_ROWS {
            rows.push(record.iter().map(str::to_owned).collect());
        }
    }
    Ok(FilePreview::Table { sheet: None, columns, rows, total_rows })
}

fn excel_table(file: &Path) -> Result<FilePreview, String> {
    use calamine::{open_workbook_auto, Reader};
    let mut workbook = open_workbook_auto(file).map_err(|e| format!("not a workbook: {e}"))?;
    let sheet = workbook.sheet_names().first().cloned().ok_or("the workbook has no sheets")?;
    let range = workbook.worksheet_range(&sheet).map_err(|e| format!("sheet {sheet}: {e}"))?;
    let text = |cell: &calamine::Data| match planwright_blocks::excel_cell_value(cell) {
        Value::String(text) => text,
        Value::Null => String::new(),
        other => other.to_string(),
    };
    let mut lines = range.rows().map(|row| row.iter().map(text).collect::<Vec<String>>());
    let columns = lines.next().unwrap_or_default();
    let total_rows = range.height().saturating_sub(1);
    let rows = lines.take(PREVIEW_ROWS).collect();
    Ok(FilePreview::Table { sheet: Some(sheet), columns, rows, total_rows })
}
