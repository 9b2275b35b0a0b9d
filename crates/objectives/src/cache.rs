//! The action cache: the operations that reached an objective, kept under (the objective's
//! text, the page's origin and path, the names — never the values — of the placeholders it
//! uses), so that the next run replays them with no model call. Locators only, never refs (a
//! ref means nothing in another session). SQLite, in the data home.

use std::path::{Path, PathBuf};
use std::sync::Mutex;

use rusqlite::{params, Connection, OptionalExtension};
use sha2::{Digest, Sha256};

use crate::resolve::Op;
use crate::text::fold;

/// The cache's file under the data home.
pub const CACHE_FILE: &str = "objectives.db";

/// What went wrong with the cache file.
#[derive(Debug, thiserror::Error)]
#[error("the action cache {}: {message}", .path.display())]
pub struct CacheError {
    pub path: PathBuf,
    pub message: String,
}

/// One kept entry, as `planwright cache show` lists it.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
pub struct CacheEntry {
    /// The first 12 hex digits of the key's digest: what `cache clear --entry` takes.
    pub id: String,
    pub objective: String,
    pub page: String,
    pub placeholders: Vec<String>,
    pub ops: Vec<Op>,
    /// Which of `ops` (by index) changed the world when they were kept (a send, a payment, a
    /// request that writes): never carried out twice for an objective.
    pub effectful: Vec<usize>,
    /// How many times a run replayed it.
    pub replays: u64,
    /// When it was kept (RFC 3339, UTC).
    pub updated_at: String,
    /// When a run last replayed it, if one did.
    pub used_at: Option<String>,
}

/// What is kept for an objective: its operations, and which of them are effectful.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Cached {
    pub ops: Vec<Op>,
    /// Indexes into `ops`.
    pub effectful: Vec<usize>,
}

/// An open cache. Cheap to share (`Arc`); calls are serialised.
pub struct ActionCache {
    path: PathBuf,
    conn: Mutex<Connection>,
}

/// What a key is made of.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CacheKey {
    /// As written; the key compares it folded (width and case do not count).
    pub objective: String,
    /// `http://127.0.0.1:8700/objectives/portal/login.html`: origin and path, no query or fragment.
    pub page: String,
    /// Sorted placeholder names.
    pub placeholders: Vec<String>,
}

impl CacheKey {
    pub fn new(objective: &str, url: &str, mut placeholders: Vec<String>) -> CacheKey {
        placeholders.sort();
        placeholders.dedup();
        let page = url.split(['?', '#']).next().unwrap_or(url).to_owned();
        CacheKey { objective: objective.trim().to_owned(), page, placeholders }
    }

    fn digest(&self) -> String {
        let mut hash = Sha256::new();
        for part in [&fold(&self.objective), &self.page, &self.placeholders.join(",")] {
            hash.update(part.as_bytes());
            hash.update([0u8]);
        }
        hash.finalize().iter().map(|b| format!("{b:02x}")).collect()
    }
}

impl ActionCache {
    /// Opens (or creates, readable by its owner alone) the cache at `path`.
    pub fn open(path: &Path) -> Result<ActionCache, CacheError> {
        let error = |e: &dyn std::fmt::Display| CacheError { path: path.to_path_buf(), message: e.to_string() };
        if let Some(dir) = path.parent() {
            planwright_fs::private_dir(dir).map_err(|e| error(&e))?;
        }
        let conn = Connection::open(path).map_err(|e| error(&e))?;
        planwright_fs::make_private(path).map_err(|e| error(&e))?;
        conn.busy_timeout(std::time::Duration::from_secs(5)).map_err(|e| error(&e))?;
        // A replay counts itself while the run goes on: WAL with NORMAL sync keeps that write
        // off the disk's flush (a crash loses nothing; a power cut at most the last counts).
        conn.pragma_update(None, "journal_mode", "WAL").map_err(|e| error(&e))?;
        conn.pragma_update(None, "synchronous", "NORMAL").map_err(|e| error(&e))?;
        for suffix in ["-wal", "-shm"] {
            planwright_fs::make_private(&PathBuf::from(format!("{}{suffix}", path.display())))
                .map_err(|e| error(&e))?;
        }
        conn.execute_batch(
            "CREATE TABLE IF NOT EXISTS actions (
                key TEXT PRIMARY KEY,
                objective TEXT NOT NULL,
                page TEXT NOT NULL,
                placeholders TEXT NOT NULL,
                ops TEXT NOT NULL,
                replays INTEGER NOT NULL DEFAULT 0,
                updated_at TEXT NOT NULL
            );",
        )
        .map_err(|e| error(&e))?;
        // A cache written before `used_at` existed gains it, and `effectful` (its entries, kept
        // before, are classified again as they are replayed).
        for column in ["used_at", "effectful"] {
            add_column(&conn, column).map_err(|e| error(&e))?;
        }
        Ok(ActionCache { path: path.to_path_buf(), conn: Mutex::new(conn) })
    }

    fn error(&self, e: impl std::fmt::Display) -> CacheError {
        CacheError { path: self.path.clone(), message: e.to_string() }
    }

    /// What is kept for `key`; `None` when nothing is (or its operations no longer read).
    pub fn get(&self, key: &CacheKey) -> Result<Option<Cached>, CacheError> {
        let conn = self.conn.lock().unwrap_or_else(|e| e.into_inner());
        let row: Option<(String, Option<String>)> = conn
            .query_row("SELECT ops, effectful FROM actions WHERE key = ?1", params![key.digest()], |row| {
                Ok((row.get(0)?, row.get(1)?))
            })
            .optional()
            .map_err(|e| self.error(e))?;
        Ok(row.and_then(|(ops, effectful)| {
            let ops: Vec<Op> = serde_json::from_str(&ops).ok()?;
            Some(Cached { effectful: effectful_of(effectful.as_deref(), ops.len()), ops })
        }))
    }

    /// Keeps `ops` for `key`, with which of them are `effectful` (replacing what was there).
    /// Operations with a ref are not kept.
    pub fn put(&self, key: &CacheKey, ops: &[Op], effectful: &[usize]) -> Result<bool, CacheError> {
        if ops.is_empty() || ops.iter().any(|op| matches!(op.locator(), Some(planwright_browser::Locator::Ref { .. })))
        {
            return Ok(false);
        }
        let json = serde_json::to_string(ops).map_err(|e| self.error(e))?;
        let effectful = serde_json::to_string(effectful).map_err(|e| self.error(e))?;
        let now = now();
        let conn = self.conn.lock().unwrap_or_else(|e| e.into_inner());
        conn.execute(
            "INSERT INTO actions (key, objective, page, placeholders, ops, replays, updated_at, effectful)
             VALUES (?1, ?2, ?3, ?4, ?5, 0, ?6, ?7)
             ON CONFLICT(key) DO UPDATE SET ops = excluded.ops, updated_at = excluded.updated_at,
                 effectful = excluded.effectful",
            params![key.digest(), key.objective, key.page, key.placeholders.join(","), json, now, effectful],
        )
        .map_err(|e| self.error(e))?;
        Ok(true)
    }

    /// Counts a replay of `key`.
    pub fn replayed(&self, key: &CacheKey) -> Result<(), CacheError> {
        let conn = self.conn.lock().unwrap_or_else(|e| e.into_inner());
        conn.execute(
            "UPDATE actions SET replays = replays + 1, used_at = ?2 WHERE key = ?1",
            params![key.digest(), now()],
        )
        .map_err(|e| self.error(e))?;
        Ok(())
    }

    /// Forgets `key` (its operations no longer reach the objective).
    pub fn forget(&self, key: &CacheKey) -> Result<(), CacheError> {
        let conn = self.conn.lock().unwrap_or_else(|e| e.into_inner());
        conn.execute("DELETE FROM actions WHERE key = ?1", params![key.digest()]).map_err(|e| self.error(e))?;
        Ok(())
    }

    /// How many objectives are kept.
    pub fn len(&self) -> Result<usize, CacheError> {
        let conn = self.conn.lock().unwrap_or_else(|e| e.into_inner());
        conn.query_row("SELECT COUNT(*) FROM actions", [], |row| row.get::<_, i64>(0))
            .map(|n| n as usize)
            .map_err(|e| self.error(e))
    }

    pub fn is_empty(&self) -> Result<bool, CacheError> {
        Ok(self.len()? == 0)
    }

    /// Every entry, by page then objective. An entry whose operations no longer read is listed
    /// with none (it is never replayed).
    pub fn entries(&self) -> Result<Vec<CacheEntry>, CacheError> {
        let conn = self.conn.lock().unwrap_or_else(|e| e.into_inner());
        let mut statement = conn
            .prepare(
                "SELECT key, objective, page, placeholders, ops, replays, updated_at, used_at, effectful FROM actions
                 ORDER BY page, objective",
            )
            .map_err(|e| self.error(e))?;
        let rows = statement
            .query_map([], |row| {
                let key: String = row.get(0)?;
                let placeholders: String = row.get(3)?;
                let ops: Vec<Op> = serde_json::from_str(&row.get::<_, String>(4)?).unwrap_or_default();
                let effectful: Option<String> = row.get(8)?;
                Ok(CacheEntry {
                    effectful: effectful_of(effectful.as_deref(), ops.len()),
                    id: key.chars().take(ENTRY_ID_LEN).collect(),
                    objective: row.get(1)?,
                    page: row.get(2)?,
                    placeholders: placeholders.split(',').filter(|p| !p.is_empty()).map(str::to_owned).collect(),
                    ops,
                    replays: row.get::<_, i64>(5)?.max(0) as u64,
                    updated_at: row.get(6)?,
                    used_at: row.get(7)?,
                })
            })
            .map_err(|e| self.error(e))?;
        rows.collect::<Result<_, _>>().map_err(|e| self.error(e))
    }

    /// Forgets the entry whose id (as [`CacheEntry::id`] shows it, or a longer prefix of its
    /// digest) is `id`; how many were forgotten (0 or 1).
    pub fn forget_entry(&self, id: &str) -> Result<usize, CacheError> {
        let id = id.trim().to_ascii_lowercase();
        if id.len() < ENTRY_ID_LEN || !id.chars().all(|c| c.is_ascii_hexdigit()) {
            return Err(self.error(format!(
                "{id:?} is not an entry's id: `planwright cache show` lists them ({ENTRY_ID_LEN} hex digits)"
            )));
        }
        let conn = self.conn.lock().unwrap_or_else(|e| e.into_inner());
        conn.execute("DELETE FROM actions WHERE substr(key, 1, ?2) = ?1", params![id, id.len() as i64])
            .map_err(|e| self.error(e))
    }

    /// Forgets every entry of a site: its pages of `origin` (`http://127.0.0.1:8700`, or an
    /// address on that site); how many were forgotten.
    pub fn forget_site(&self, site: &str) -> Result<usize, CacheError> {
        let origin = origin(site.trim());
        // A site's origin has a scheme and a host: `null` and nothing are no site.
        if !origin.contains("://") {
            return Err(self.error(format!("{site:?} is not a site: give its address, as http://host:port")));
        }
        let conn = self.conn.lock().unwrap_or_else(|e| e.into_inner());
        let keys: Vec<(String, String)> = {
            let mut statement = conn.prepare("SELECT key, page FROM actions").map_err(|e| self.error(e))?;
            let rows = statement.query_map([], |row| Ok((row.get(0)?, row.get(1)?))).map_err(|e| self.error(e))?;
            rows.collect::<Result<_, _>>().map_err(|e| self.error(e))?
        };
        let mut forgotten = 0;
        for (key, page) in keys.iter().filter(|(_, page)| self::origin(page) == origin) {
            forgotten += conn
                .execute("DELETE FROM actions WHERE key = ?1", params![key])
                .map_err(|e| self.error(format!("{e} (forgetting the entry of {page})")))?;
        }
        Ok(forgotten)
    }

    /// Forgets everything; returns how many objectives were kept.
    pub fn clear(&self) -> Result<usize, CacheError> {
        let conn = self.conn.lock().unwrap_or_else(|e| e.into_inner());
        conn.execute("DELETE FROM actions", []).map_err(|e| self.error(e))
    }
}

/// Adds the text column `column` to the table of a cache written before it existed.
fn add_column(conn: &Connection, column: &str) -> rusqlite::Result<()> {
    let exists = conn
        .prepare("SELECT 1 FROM pragma_table_info('actions') WHERE name = ?1")
        .and_then(|mut statement| statement.exists([column]))?;
    if !exists {
        conn.execute_batch(&format!("ALTER TABLE actions ADD COLUMN {column} TEXT"))?;
    }
    Ok(())
}

/// The effectful operations' indexes as kept (a JSON list), those out of range left out; none
/// for an entry kept before they were.
fn effectful_of(kept: Option<&str>, ops: usize) -> Vec<usize> {
    let indexes: Vec<usize> = kept.and_then(|k| serde_json::from_str(k).ok()).unwrap_or_default();
    indexes.into_iter().filter(|&i| i < ops).collect()
}

/// How many hex digits of a key's digest name an entry.
const ENTRY_ID_LEN: usize = 12;

fn now() -> String {
    time::OffsetDateTime::now_utc().format(&time::format_description::well_known::Rfc3339).unwrap_or_default()
}

/// An address's origin (`http://127.0.0.1:8700`): `null` for one of no site (`data:`,
/// `about:blank`), empty for what is no address.
pub(crate) fn origin(address: &str) -> String {
    url::Url::parse(address).map(|url| url.origin().ascii_serialization()).unwrap_or_default()
}

#[cfg(test)]
mod tests {
    use planwright_browser::Locator;

    use super::*;
    use crate::resolve::{ValueKind, ValueSpec};

    fn role(role: &str, name: &str) -> Locator {
        Locator::Role { role: role.into(), name: Some(name.into()), exact: true }
    }

    #[test]
    fn operations_are_kept_by_objective_page_and_placeholder_names() {
        let dir = tempfile::tempdir().unwrap();
        let cache = ActionCache::open(&dir.path().join("home").join(CACHE_FILE)).unwrap();
        let key = CacheKey::new(
            "Sign in with {{U}} / {{P}}",
            "http://h/login.html?next=/x#top",
            vec!["P".into(), "U".into()],
        );
        assert_eq!(key.page, "http://h/login.html");
        assert_eq!(cache.get(&key).unwrap(), None);
        let ops = vec![
            Op::Fill {
                locator: role("textbox", "Username"),
                value: ValueSpec { kind: ValueKind::Placeholder, value: "{{U}}".into() },
            },
            Op::Click { locator: role("button", "Sign in"), downloads: false },
        ];
        assert!(cache.put(&key, &ops, &[1]).unwrap());
        assert_eq!(cache.get(&key).unwrap(), Some(Cached { ops: ops.clone(), effectful: vec![1] }));
        // The same objective on another page, or with other placeholders, is another entry.
        assert_eq!(
            cache
                .get(&CacheKey::new("Sign in with {{U}} / {{P}}", "http://h/other.html", vec!["P".into(), "U".into()]))
                .unwrap(),
            None
        );
        assert_eq!(
            cache.get(&CacheKey::new("Sign in with {{U}} / {{P}}", "http://h/login.html", vec!["U".into()])).unwrap(),
            None
        );
        // Written differently only in width and case, it is the same objective.
        assert!(cache
            .get(&CacheKey::new("SIGN IN WITH {{U}} / {{P}}", "http://h/login.html", vec!["U".into(), "P".into()]))
            .unwrap()
            .is_some());
        let stored = std::fs::read_to_string(dir.path().join("home").join(CACHE_FILE)).unwrap_or_default();
        assert!(!stored.contains("hunter2"), "values are never kept");
        assert_eq!(cache.len().unwrap(), 1);
        let entries = cache.entries().unwrap();
        assert_eq!(entries.len(), 1);
        assert_eq!(
            (entries[0].objective.as_str(), entries[0].page.as_str(), &entries[0].ops, &entries[0].effectful),
            ("Sign in with {{U}} / {{P}}", "http://h/login.html", &ops, &vec![1])
        );
        assert_eq!(
            (entries[0].placeholders.clone(), entries[0].replays, entries[0].used_at.clone()),
            (vec!["P".to_owned(), "U".to_owned()], 0, None)
        );
        cache.replayed(&key).unwrap();
        let used = &cache.entries().unwrap()[0];
        assert!(used.replays == 1 && used.used_at.is_some(), "{used:?}");
        assert_eq!(cache.clear().unwrap(), 1);
        assert!(cache.is_empty().unwrap());
    }

    #[test]
    fn one_entry_or_one_sites_entries_are_forgotten() {
        let dir = tempfile::tempdir().unwrap();
        let cache = ActionCache::open(&dir.path().join(CACHE_FILE)).unwrap();
        let ops = vec![Op::Click { locator: role("button", "Go"), downloads: false }];
        let keys = [
            CacheKey::new("Go", "http://a.test:81/one.html", Vec::new()),
            CacheKey::new("Go", "http://a.test:81/two.html", Vec::new()),
            CacheKey::new("Go", "http://b.test/one.html", Vec::new()),
            CacheKey::new("Go on", "http://b.test/one.html", Vec::new()),
        ];
        for key in &keys {
            assert!(cache.put(key, &ops, &[]).unwrap());
        }
        assert_eq!(cache.forget_site("http://a.test:81/any/page").unwrap(), 2);
        assert_eq!(cache.forget_site("http://a.test:81").unwrap(), 0);
        let entries = cache.entries().unwrap();
        assert_eq!(entries.len(), 2);
        assert_eq!(cache.forget_entry(&entries[0].id.to_uppercase()).unwrap(), 1);
        assert_eq!(cache.entries().unwrap(), vec![entries[1].clone()]);
        assert!(cache.forget_entry("abc").unwrap_err().to_string().contains("cache show"));
        assert!(cache.forget_site("not a site").is_err());
    }

    #[test]
    fn refs_are_never_kept() {
        let dir = tempfile::tempdir().unwrap();
        let cache = ActionCache::open(&dir.path().join(CACHE_FILE)).unwrap();
        let key = CacheKey::new("Close it", "http://h/", Vec::new());
        let ops = vec![Op::Click { locator: Locator::Ref { reference: "e12".into() }, downloads: false }];
        assert!(!cache.put(&key, &ops, &[]).unwrap());
        assert_eq!(cache.get(&key).unwrap(), None);
    }

    #[test]
    fn a_file_that_is_not_a_cache_is_named() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join(CACHE_FILE);
        std::fs::write(&path, "not a database, just text that is long enough to be read as a header").unwrap();
        let error = ActionCache::open(&path).err().unwrap();
        assert!(error.to_string().contains(CACHE_FILE), "{error}");
    }

    #[test]
    fn an_entry_kept_before_effects_were_classified_reads_with_none_and_gains_them_when_kept_again() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join(CACHE_FILE);
        let key = CacheKey::new("Send the report", "http://h/report.html", Vec::new());
        let ops = vec![Op::Click { locator: role("button", "Send report"), downloads: false }];
        {
            // The table as it was before `effectful`, with one entry.
            let conn = Connection::open(&path).unwrap();
            conn.execute_batch(
                "CREATE TABLE actions (key TEXT PRIMARY KEY, objective TEXT NOT NULL, page TEXT NOT NULL,
                 placeholders TEXT NOT NULL, ops TEXT NOT NULL, replays INTEGER NOT NULL DEFAULT 0,
                 updated_at TEXT NOT NULL, used_at TEXT);",
            )
            .unwrap();
            conn.execute(
                "INSERT INTO actions VALUES (?1, ?2, ?3, '', ?4, 0, 't', NULL)",
                params![key.digest(), key.objective, key.page, serde_json::to_string(&ops).unwrap()],
            )
            .unwrap();
        }
        let cache = ActionCache::open(&path).unwrap();
        assert_eq!(cache.get(&key).unwrap(), Some(Cached { ops: ops.clone(), effectful: Vec::new() }));
        // An index past the operations (a hand-edited row) is left out.
        assert!(cache.put(&key, &ops, &[0, 7]).unwrap());
        assert_eq!(cache.get(&key).unwrap().map(|c| c.effectful), Some(vec![0]));
        assert_eq!(cache.entries().unwrap()[0].effectful, vec![0]);
    }
}
