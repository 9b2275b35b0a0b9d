//! How a node's tables are kept for resume: a small table as its rows, as every output always
//! was; a large one as where it came from when it can be made again — the file it was read from,
//! known by its SHA-256, and which of its rows (`{"$table_source": …, "keep": …}`) — else as an
//! Arrow IPC file in the node's folder (`{"$table_file": …, "sha256": …}`). Either way the record
//! holds the table's row count, its columns and a preview of its first rows.

use std::borrow::Cow;
use std::path::Path;

use base64::Engine as _;
use planwright_block::{RunTables, TableOrigin};
use planwright_tables::{read_table_file, write_table_file, TableFileError};
use serde_json::{json, Map, Value};

use super::{Recorder, MAX_ITEMS};
use crate::EngineError;

/// The key that marks a table kept as a file in a stored output.
const TABLE_FILE_KEY: &str = "$table_file";
/// The key that marks a table kept as where it came from.
const TABLE_SOURCE_KEY: &str = "$table_source";

impl Recorder {
    /// `outputs` as the store keeps them for resume: each table as its rows, or — when it has more
    /// than `table_file_rows` rows — as its source or a file of its own. Outputs holding no table
    /// are not copied.
    pub(super) fn stored_outputs<'o>(
        &self,
        node: &str,
        outputs: &'o Map<String, Value>,
    ) -> Result<Cow<'o, Map<String, Value>>, EngineError> {
        if !outputs.values().any(|value| self.tables.holds_any(value)) {
            return Ok(Cow::Borrowed(outputs));
        }
        let mut files = 0;
        let stored = outputs
            .iter()
            .map(|(key, value)| Ok((key.clone(), self.stored_value(node, value, &mut files)?)))
            .collect::<Result<Map<_, _>, EngineError>>()?;
        Ok(Cow::Owned(stored))
    }

    fn stored_value(&self, node: &str, value: &Value, files: &mut usize) -> Result<Value, EngineError> {
        if let Some(table) = self.tables.get(value) {
            if table.row_count() <= self.table_file_rows {
                return Ok(Value::Array(table.rows()));
            }
            // How the table is kept, then what a reader of the record sees of it.
            let kept = |entries: Vec<(&str, Value)>| {
                let mut kept: Map<String, Value> = entries.into_iter().map(|(k, v)| (k.to_owned(), v)).collect();
                kept.insert("rows".into(), json!(table.row_count()));
                kept.insert("columns".into(), json!(table.columns()));
                kept.insert("preview".into(), Value::Array(table.first_rows(MAX_ITEMS)));
                Value::Object(kept)
            };
            // A source says how a block read a file, from its inputs: masked like them.
            match self.tables.origin(value) {
                Some(TableOrigin::Source(source)) => return Ok(kept(vec![(TABLE_SOURCE_KEY, self.mask(source))])),
                Some(TableOrigin::RowsOf { source, keep }) => {
                    let source = self.mask(source);
                    return Ok(kept(vec![(TABLE_SOURCE_KEY, source), ("keep", json!(packed(&keep)))]));
                }
                None => {}
            }
            let dir = self.node_dir(node);
            std::fs::create_dir_all(&dir).map_err(|e| {
                EngineError::TableFile(TableFileError::Write {
                    path: dir.display().to_string(),
                    message: e.to_string(),
                })
            })?;
            let name = format!("table-{files}.arrow");
            *files += 1;
            let sha256 = write_table_file(&table, &dir.join(&name))?;
            return Ok(kept(vec![(TABLE_FILE_KEY, json!(name)), ("sha256", json!(sha256))]));
        }
        Ok(match value {
            Value::Array(items) => {
                Value::Array(items.iter().map(|item| self.stored_value(node, item, files)).collect::<Result<_, _>>()?)
            }
            Value::Object(map) => Value::Object(
                map.iter()
                    .map(|(key, item)| Ok((key.clone(), self.stored_value(node, item, files)?)))
                    .collect::<Result<_, EngineError>>()?,
            ),
            other => other.clone(),
        })
    }
}

/// A table a run's stored outputs keep as a file, as a reader of the record sees it.
pub struct RecordedTable<'v> {
    /// How many rows the table has.
    pub rows: usize,
    /// Its first rows (at most 50), masked as the run's record is.
    pub preview: &'v [Value],
}

/// The table kept as a file that `value` (from `RunStore::finished_outputs`) stands for, if it
/// is one.
pub fn recorded_table(value: &Value) -> Option<RecordedTable<'_>> {
    let map = value.as_object()?;
    map.get(TABLE_FILE_KEY).or_else(|| map.get(TABLE_SOURCE_KEY))?;
    Some(RecordedTable { rows: map.get("rows")?.as_u64()? as usize, preview: map.get("preview")?.as_array()? })
}

/// Why a stored table could not be restored.
#[derive(Debug)]
pub(crate) enum RestoreError {
    /// The record's own file is gone or changed: the node can run again.
    Record(TableFileError),
    /// The file the table was read from changed: the run's later steps used it as it was.
    Source(String),
}

/// Reads a table again from where it came from (its `$table_source`).
pub(crate) type Reopen<'a> = dyn FnMut(&Value) -> Result<Value, String> + 'a;

/// A node's stored outputs as the resumed run uses them: each table kept as a file read back
/// from `dir` (the node's folder), each kept as its source read again by `reopen` (which gives
/// the source table's handle), into `tables`, its handle in its place.
pub(crate) fn restore_tables(
    tables: &RunTables,
    dir: &Path,
    value: Value,
    reopen: &mut Reopen<'_>,
) -> Result<Value, RestoreError> {
    match value {
        Value::Object(map) => {
            if let (Some(Value::String(name)), Some(Value::String(sha256))) =
                (map.get(TABLE_FILE_KEY), map.get("sha256"))
            {
                let path = dir.join(file_name(name).map_err(RestoreError::Record)?);
                return Ok(tables.put(read_table_file(&path, sha256).map_err(RestoreError::Record)?));
            }
            if let Some(source) = map.get(TABLE_SOURCE_KEY) {
                let read = reopen(source).map_err(RestoreError::Source)?;
                let Some(keep) = map.get("keep") else { return Ok(read) };
                let table = tables.get(&read).expect("reopen gives a table of the run");
                let keep = keep
                    .as_str()
                    .and_then(|packed| unpacked(packed, table.row_count()))
                    .ok_or_else(|| RestoreError::Source("the record's rows of a table cannot be read".to_owned()))?;
                return Ok(tables.put_rows_of(table.filter(&keep), &read, &keep));
            }
            Ok(Value::Object(
                map.into_iter()
                    .map(|(key, item)| Ok((key, restore_tables(tables, dir, item, reopen)?)))
                    .collect::<Result<_, RestoreError>>()?,
            ))
        }
        Value::Array(items) => Ok(Value::Array(
            items.into_iter().map(|item| restore_tables(tables, dir, item, reopen)).collect::<Result<_, _>>()?,
        )),
        other => Ok(other),
    }
}

/// Which rows are kept, one bit each, in base64.
fn packed(keep: &[bool]) -> String {
    let bytes: Vec<u8> = keep
        .chunks(8)
        .map(|bits| bits.iter().enumerate().fold(0u8, |byte, (i, &bit)| byte | (u8::from(bit) << i)))
        .collect();
    base64::engine::general_purpose::STANDARD.encode(bytes)
}

/// [`packed`] read back, for a table of `rows` rows.
fn unpacked(packed: &str, rows: usize) -> Option<Vec<bool>> {
    let bytes = base64::engine::general_purpose::STANDARD.decode(packed).ok()?;
    if bytes.len() != rows.div_ceil(8) {
        return None;
    }
    Some((0..rows).map(|i| bytes[i / 8] & (1 << (i % 8)) != 0).collect())
}

/// The recorded name of a table file, which is only ever a plain name in the node's folder.
fn file_name(name: &str) -> Result<&str, TableFileError> {
    let plain = Path::new(name).file_name().is_some_and(|file| file == name);
    if plain {
        Ok(name)
    } else {
        Err(TableFileError::Read { path: name.to_owned(), message: "not a file of the node's folder".into() })
    }
}
