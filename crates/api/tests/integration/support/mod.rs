//! What the API's tests share: a studio on a fresh workspace and data home, keys in a file.

use planwright_api::{DataHome, KeyStore, Studio, StudioConfig};

/// A studio whose workspace and data home are under `dir`.
pub fn studio(dir: &std::path::Path) -> Studio {
    Studio::open(StudioConfig {
        workspace: Some(dir.join("workspace")),
        data_home: Some(DataHome::at(dir.join("home"))),
        key_store: KeyStore::File,
    })
    .unwrap()
}
