//! How a node's tables are kept for resume: a small table as its rows, as every output always
//! was; a large one as an Arrow IPC file in the node's folder, the record holding its schema, its
//! row count, a preview of its first rows and the file's SHA-256 (`{"$table_file": …}`).

use std::borrow::Cow;
use std::path::Path;

use planwright_block::RunTables;
use planwright_tables::{read_table_file, write_table_file, TableFileError};
use serde_json::{json, Map, Value};

use super::{Recorder, MAX_ITEMS};
use crate::EngineError;

/// The key that marks a table kept as a file in a stored output.
const TABLE_FILE_KEY: &str = "$table_file";

impl Recorder {
    /// `outputs` as the store keeps them for resume: each table as its rows, or as a file when
    /// it has more than `table_file_rows` rows. Outputs holding no table are not copied.
    pub(super) fn stored_outputs<'o>(
        &self,
        node: &str,
        outputs: &'o Map<String, Value>,
    ) -> Result<Cow<'o, Map<String, Value>>, EngineError> {
        if !outputs.values().any(|value| holds_table(&self.tables, value)) {
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
            return Ok(json!({
                TABLE_FILE_KEY: name,
                "sha256": sha256,
                "rows": table.row_count(),
                "columns": table.columns(),
                "preview": table.first_rows(MAX_ITEMS),
            }));
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
    map.get(TABLE_FILE_KEY)?;
    Some(RecordedTable { rows: map.get("rows")?.as_u64()? as usize, preview: map.get("preview")?.as_array()? })
}

fn holds_table(tables: &RunTables, value: &Value) -> bool {
    tables.get(value).is_some()
        || match value {
            Value::Array(items) => items.iter().any(|item| holds_table(tables, item)),
            Value::Object(map) => map.values().any(|item| holds_table(tables, item)),
            _ => false,
        }
}

/// A node's stored outputs as the resumed run uses them: each table kept as a file read back
/// from `dir` (the node's folder) into `tables`, its handle in its place.
pub(crate) fn restore_tables(tables: &RunTables, dir: &Path, value: Value) -> Result<Value, TableFileError> {
    match value {
        Value::Object(map) => match (map.get(TABLE_FILE_KEY), map.get("sha256")) {
            (Some(Value::String(name)), Some(Value::String(sha256))) => {
                Ok(tables.put(read_table_file(&dir.join(file_name(name)?), sha256)?))
            }
            _ => Ok(Value::Object(
                map.into_iter()
                    .map(|(key, item)| Ok((key, restore_tables(tables, dir, item)?)))
                    .collect::<Result<_, TableFileError>>()?,
            )),
        },
        Value::Array(items) => {
            Ok(Value::Array(items.into_iter().map(|item| restore_tables(tables, dir, item)).collect::<Result<_, _>>()?))
        }
        other => Ok(other),
    }
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
