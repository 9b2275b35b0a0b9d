//! Block embeddings kept in SQLite, keyed by a hash of the model and the embedded text, so a
//! block is embedded once per model and text: a changed spec or another model misses the cache
//! instead of reading stale vectors.

use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::sync::Mutex;
use std::time::Duration;

use rusqlite::{params, Connection, OptionalExtension};
use sha2::{Digest, Sha256};

use crate::RetrievalError;

/// The cache file (e.g. `<data home>/embeddings.db`). Safe to share between processes: SQLite
/// in WAL mode, writers wait for each other.
pub struct EmbedCache {
    path: PathBuf,
    connection: Mutex<Connection>,
}

impl std::fmt::Debug for EmbedCache {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("EmbedCache").field("path", &self.path).finish_non_exhaustive()
    }
}

impl EmbedCache {
    /// Opens or creates the cache file; its folder must exist.
    pub fn open(path: &Path) -> Result<EmbedCache, RetrievalError> {
        let error = |source| RetrievalError::Cache { path: path.to_owned(), source };
        // The cache sits in the data home: its owner's alone, like every file there. Creating it
        // here is best effort; opening it reports what is wrong.
        let _ = planwright_fs::private_file().write(true).create(true).truncate(false).open(path);
        let _ = planwright_fs::make_private(path);
        let connection = Connection::open(path).map_err(error)?;
        connection.busy_timeout(Duration::from_secs(5)).map_err(error)?;
        connection.pragma_update(None, "journal_mode", "WAL").map_err(error)?;
        connection
            .execute_batch(
                "CREATE TABLE IF NOT EXISTS embeddings (
                     key TEXT PRIMARY KEY NOT NULL,
                     vector BLOB NOT NULL
                 ) WITHOUT ROWID;",
            )
            .map_err(error)?;
        Ok(EmbedCache { path: path.to_owned(), connection: Mutex::new(connection) })
    }

    /// The key of `text` embedded by `model`: SHA-256 of both, hex.
    pub fn key(model: &str, text: &str) -> String {
        let mut hasher = Sha256::new();
        hasher.update(model.as_bytes());
        // The separator keeps ("ab", "c") and ("a", "bc") apart.
        hasher.update([0]);
        hasher.update(text.as_bytes());
        hasher.finalize().iter().map(|b| format!("{b:02x}")).collect()
    }

    /// The stored vectors among `keys`. A row that is not a whole number of f32s is ignored
    /// (embedded again and overwritten) rather than trusted.
    pub fn get_many(&self, keys: &[String]) -> Result<HashMap<String, Vec<f32>>, RetrievalError> {
        let error = |source| RetrievalError::Cache { path: self.path.clone(), source };
        let connection = self.connection.lock().unwrap_or_else(|p| p.into_inner());
        let mut statement = connection.prepare_cached("SELECT vector FROM embeddings WHERE key = ?1").map_err(error)?;
        let mut found = HashMap::new();
        for key in keys {
            let blob: Option<Vec<u8>> = statement.query_row([key], |row| row.get(0)).optional().map_err(error)?;
            if let Some(vector) = blob.and_then(|b| decode(&b)) {
                found.insert(key.clone(), vector);
            }
        }
        Ok(found)
    }

    /// Stores vectors in one transaction, replacing rows with the same key.
    pub fn put_many(&self, entries: &[(String, Vec<f32>)]) -> Result<(), RetrievalError> {
        let error = |source| RetrievalError::Cache { path: self.path.clone(), source };
        let mut connection = self.connection.lock().unwrap_or_else(|p| p.into_inner());
        let transaction = connection.transaction().map_err(error)?;
        {
            let mut statement = transaction
                .prepare_cached("INSERT OR REPLACE INTO embeddings (key, vector) VALUES (?1, ?2)")
                .map_err(error)?;
            for (key, vector) in entries {
                statement.execute(params![key, encode(vector)]).map_err(error)?;
            }
        }
        transaction.commit().map_err(error)
    }
}

fn encode(vector: &[f32]) -> Vec<u8> {
    vector.iter().flat_map(|x| x.to_le_bytes()).collect()
}

fn decode(bytes: &[u8]) -> Option<Vec<f32>> {
    if bytes.is_empty() || !bytes.len().is_multiple_of(4) {
        return None;
    }
    Some(bytes.chunks_exact(4).map(|c| f32::from_le_bytes([c[0], c[1], c[2], c[3]])).collect())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn vectors_survive_a_reopen() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("embeddings.db");
        let key = EmbedCache::key("m", "text");
        EmbedCache::open(&path).unwrap().put_many(&[(key.clone(), vec![0.5, -1.0, 3.25])]).unwrap();
        let found = EmbedCache::open(&path).unwrap().get_many(&[key.clone(), "other".into()]).unwrap();
        assert_eq!(found.len(), 1);
        assert_eq!(found[&key], [0.5, -1.0, 3.25]);
    }

    #[test]
    fn the_key_depends_on_model_and_text() {
        assert_ne!(EmbedCache::key("a", "bc"), EmbedCache::key("ab", "c"));
        assert_ne!(EmbedCache::key("m1", "t"), EmbedCache::key("m2", "t"));
        assert_eq!(EmbedCache::key("m", "t").len(), 64);
    }

    #[test]
    fn a_damaged_row_is_a_miss() {
        assert_eq!(decode(&[1, 2, 3]), None);
        assert_eq!(decode(&[]), None);
    }
}
