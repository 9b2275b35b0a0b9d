//! The run's tables: a block that makes a table (`file.read_csv`) puts it here and outputs a
//! handle, a small JSON value standing for it; a block that takes tables reads it back by the
//! handle, as columns. Everything else sees the rows the table stands for ([`RunTables::expand`]),
//! so a table never travels between nodes as a million JSON objects unless a block needs rows.

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
    tables: Mutex<HashMap<String, Arc<Table>>>,
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
        let table = table.into();
        let mut tables = self.tables.lock().unwrap_or_else(|e| e.into_inner());
        let id = format!("{:016x}-{}", self.nonce, tables.len());
        let handle = json!({
            TABLE_HANDLE_KEY: id,
            "rows": table.row_count(),
            "columns": table.columns(),
        });
        tables.insert(id, table);
        handle
    }

    /// The table `value` is the handle of, if it is one of this run's.
    pub fn get(&self, value: &Value) -> Option<Arc<Table>> {
        let id = handle_id(value)?;
        self.tables.lock().unwrap_or_else(|e| e.into_inner()).get(id).cloned()
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
        if !self.holds_any(&map) {
            return map;
        }
        map.into_iter().map(|(key, value)| (key, self.expand(value))).collect()
    }

    /// Whether `map` holds a handle anywhere (most values hold none: nothing is copied then).
    fn holds_any(&self, map: &Map<String, Value>) -> bool {
        fn any(tables: &RunTables, value: &Value) -> bool {
            match value {
                Value::Object(map) => tables.get(value).is_some() || map.values().any(|v| any(tables, v)),
                Value::Array(items) => items.iter().any(|v| any(tables, v)),
                _ => false,
            }
        }
        map.values().any(|value| any(self, value))
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
    fn a_handle_another_run_or_a_page_wrote_is_only_an_object() {
        let tables = RunTables::new();
        let real = tables.put(table());
        let id = real[TABLE_HANDLE_KEY].as_str().unwrap().to_owned();
        let forged = json!({TABLE_HANDLE_KEY: id.replace(|c: char| c != '-', "0"), "rows": 2});
        assert!(tables.get(&forged).is_none());
        assert_eq!(RunTables::new().expand(real.clone()), real);
    }
}
