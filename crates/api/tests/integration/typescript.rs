//! The TypeScript types the UI compiles against are generated from the Rust types; this fails
//! when the committed files differ from what the Rust types generate.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

const REGENERATE: &str = "UPDATE_TS_TYPES=1 cargo nextest run -p planwright-api typescript";

fn committed_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../../ui/src/lib/api/types")
}

/// Every `.ts` file under `dir`, by its path relative to `dir`.
fn read_all(dir: &Path) -> BTreeMap<String, String> {
    let mut files = BTreeMap::new();
    let mut folders = vec![dir.to_path_buf()];
    while let Some(folder) = folders.pop() {
        for entry in std::fs::read_dir(&folder).into_iter().flatten().flatten() {
            let path = entry.path();
            if path.is_dir() {
                folders.push(path);
            } else if path.extension().is_some_and(|x| x == "ts") {
                let name = path.strip_prefix(dir).unwrap().to_string_lossy().into_owned();
                files.insert(name, std::fs::read_to_string(&path).unwrap());
            }
        }
    }
    files
}

#[test]
fn typescript_types_match_the_rust_types() {
    let committed = committed_dir();
    if std::env::var_os("UPDATE_TS_TYPES").is_some() {
        for stale in read_all(&committed).keys() {
            std::fs::remove_file(committed.join(stale)).unwrap();
        }
        planwright_api::export_types(&committed).unwrap();
        return;
    }
    let fresh = tempfile::tempdir().unwrap();
    planwright_api::export_types(fresh.path()).unwrap();
    let expected = read_all(fresh.path());
    let found = read_all(&committed);
    let missing: Vec<&String> = expected.keys().filter(|k| !found.contains_key(*k)).collect();
    let extra: Vec<&String> = found.keys().filter(|k| !expected.contains_key(*k)).collect();
    let changed: Vec<&String> = expected.keys().filter(|k| found.get(*k).is_some_and(|f| f != &expected[*k])).collect();
    assert!(
        missing.is_empty() && extra.is_empty() && changed.is_empty(),
        "ui/src/lib/api/types is out of date (missing {missing:?}, extra {extra:?}, changed {changed:?}); \
         regenerate with: {REGENERATE}"
    );
}
