//! The run's tables: a block that makes a table (`file.read_csv`) puts it here and outputs a
//! handle, a small JSON value standing for it; a block that takes tables reads it back by the
//! handle, as columns. Everything else sees the rows the table stands for ([`RunTables::expand`]),
//! so a table never travels between nodes as a million JSON objects unless a block needs rows.
//!
//! A table also says where it came from ([`TableOrigin`]) when it can be made again: read from a
//! file its block can read again, or some rows of such a table. The run's record then keeps that,
//! not a copy of the table.

use std::collections::HashMap;
use std::sync::{Arc, Mutex};

use planwright_tables::Table;
use serde_json::{json, Map, Value};

/// The key that marks a handle: `{"$table": "…", "rows": 1000000, "columns": ["date", …]}`.
pub const TABLE_HANDLE_KEY: &str = "$table";

/// The tables of one run, by handle.
pub struct RunTables {
    /// Random per run: a handle is only ever one this run made, never one a page, a server or a
    /// plan wrote into a value.
    nonce: u64,
    tables: Mutex<HashMap<String, Kept>>,
}

/// A table of the run, and where it came from when it can be made again.
type Kept = (Arc<Table>, Option<TableOrigin>);

/// How a table of the run can be made again.
#[derive(Debug, Clone, PartialEq)]
pub enum TableOrigin {
    /// Read from a file by a block that can read it again ([`crate::Block::reopen_table`]): what
    /// that block needs to, its id under `block` and the file's SHA-256 among them.
    Source(Value),
    /// Some rows of a table read from a file, in order: `keep` has one entry per row of the
    /// source's table.
    RowsOf { source: Value, keep: Arc<[bool]> },
}

impl Default for RunTables {
    fn default() -> RunTables {
        RunTables::new()
    }
}

impl RunTables {
    pub fn new() -> RunTables {
        let nonce = getrandom::u64().unwrap_or_else(|_| std::process::id().into());
        RunTables { nonce, tables: Mutex::new(HashMap::new()) }
    }

    /// Keeps `table` for the run and gives its handle.
    pub fn put(&self, table: impl Into<Arc<Table>>) -> Value {
        self.put_with_origin(table.into(), None)
    }

    /// Keeps `table`, read from a file as `source` says, and gives its handle.
    pub fn put_read(&self, table: impl Into<Arc<Table>>, source: Value) -> Value {
        self.put_with_origin(table.into(), Some(TableOrigin::Source(source)))
    }

    /// Keeps `table`, the rows of the table `of` (a handle) where `keep` is true, and gives its
    /// handle.
    pub fn put_rows_of(&self, table: impl Into<Arc<Table>>, of: &Value, keep: &[bool]) -> Value {
        let origin = match self.origin(of) {
            Some(TableOrigin::Source(source)) => Some(TableOrigin::RowsOf { source, keep: keep.into() }),
            // Rows of rows: the rows of the source kept by both.
            Some(TableOrigin::RowsOf { source, keep: first }) => {
                let mut kept = keep.iter();
                let keep: Arc<[bool]> = first.iter().map(|&was| was && *kept.next().unwrap_or(&false)).collect();
                Some(TableOrigin::RowsOf { source, keep })
            }
            None => None,
        };
        self.put_with_origin(table.into(), origin)
    }

    /// Where the table `value` is the handle of came from, when it can be made again.
    pub fn origin(&self, value: &Value) -> Option<TableOrigin> {
        let id = handle_id(value)?;
        self.tables.lock().unwrap_or_else(|e| e.into_inner()).get(id).and_then(|(_, origin)| origin.clone())
    }

    fn put_with_origin(&self, table: Arc<Table>, origin: Option<TableOrigin>) -> Value {
        let mut tables = self.tables.lock().unwrap_or_else(|e| e.into_inner());
        let id = format!("{:016x}-{}", self.nonce, tables.len());
        let handle = json!({
            TABLE_HANDLE_KEY: id,
            "rows": table.row_count(),
            "columns": table.columns(),
        });
        tables.insert(id, (table, origin));
        handle
    }

    /// The table `value` is the handle of, if it is one of this run's.
    pub fn get(&self, value: &Value) -> Option<Arc<Table>> {
        let id = handle_id(value)?;
        self.tables.lock().unwrap_or_else(|e| e.into_inner()).get(id).map(|(table, _)| table.clone())
    }

    /// `value` with every handle in it replaced by the rows its table stands for.
    pub fn expand(&self, value: Value) -> Value {
        if let Some(table) = self.get(&value) {
            return Value::Array(table.rows());
        }
        match value {
            Value::Array(items) => Value::Array(items.into_iter().map(|item| self.expand(item)).collect()),
            Value::Object(map) => Value::Object(self.expand_map(map)),
            other => other,
        }
    }

    /// [`RunTables::expand`] for each entry of an object.
    pub fn expand_map(&self, map: Map<String, Value>) -> Map<String, Value> {
        if !map.values().any(|value| self.holds_any(value)) {
            return map;
        }
        map.into_iter().map(|(key, value)| (key, self.expand(value))).collect()
    }

    /// Whether `value` is, or holds anywhere, a handle of this run's (most values hold none:
    /// nothing need be copied then).
    pub fn holds_any(&self, value: &Value) -> bool {
        match value {
            Value::Object(map) => self.get(value).is_some() || map.values().any(|item| self.holds_any(item)),
            Value::Array(items) => items.iter().any(|item| self.holds_any(item)),
            _ => false,
        }
    }
}

/// The id in a handle-shaped value.
fn handle_id(value: &Value) -> Option<&str> {
    value.as_object()?.get(TABLE_HANDLE_KEY)?.as_str()
}

#[cfg(test)]
mod tests {
    use super::*;
    use planwright_tables::{read_csv, CsvFormat};

    fn table() -> Table {
        read_csv("a,b\n1,x\n2,y\n".as_bytes(), CsvFormat { delimiter: b',', has_header: true }, &|| false).unwrap()
    }

    #[test]
    fn a_handle_stands_for_its_table_and_expands_to_its_rows_wherever_it_is() {
        let tables = RunTables::new();
        let handle = tables.put(table());
        assert_eq!(handle["rows"], 2);
        assert_eq!(tables.get(&handle).unwrap().row_count(), 2);
        let expanded = tables.expand(json!({"data": {"rows": handle}, "n": 1}));
        assert_eq!(expanded, json!({"data": {"rows": [{"a": 1, "b": "x"}, {"a": 2, "b": "y"}]}, "n": 1}));
    }

    #[test]
    fn rows_of_rows_are_the_rows_of_the_source_both_kept() {
        let tables = RunTables::new();
        let source = json!({"block": "file.read_csv", "path": "a.csv"});
        let read = tables.put_read(table(), source.clone());
        let first = tables.put_rows_of(table(), &read, &[true, true]);
        let second = tables.put_rows_of(table(), &first, &[false, true]);
        let keep: Arc<[bool]> = Arc::from([false, true]);
        assert_eq!(tables.origin(&second), Some(TableOrigin::RowsOf { source, keep }));
        assert_eq!(tables.origin(&tables.put(table())), None);
    }

    #[test]
    fn a_handle_another_run_or_a_page_wrote_is_only_an_object() {
        let tables = RunTables::new();
        let real = tables.put(table());
        let id = real[TABLE_HANDLE_KEY].as_str().unwrap().to_owned();
        let forged = json!({TABLE_HANDLE_KEY: id.replace(|c: char| c != '-', "0"), "rows": 2});
        assert!(tables.get(&forged).is_none());
        assert_eq!(RunTables::new().expand(real.clone()), real);
    }
}
