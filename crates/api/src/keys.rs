//! API keys the studio stores: in the OS keyring where one works, else in `<data home>/keys.yaml`
//! readable by the user alone. The studio and the command line (`planwright run`, `doctor`,
//! `blocks search`) read them through [`model_settings`], after the environment and `.env`.
//! The keyring calls are blocking (D-Bus on Linux): call these off the async runtime.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use planwright_llm::{Secret, Settings, SettingsError};

use crate::error::ApiError;
use planwright_fs::Access;

use crate::settings::write_atomically;
use crate::types::{KeyPlace, ProviderChoice};
use crate::workspace;

const KEYS_FILE: &str = "keys.yaml";
const KEYRING_SERVICE: &str = "planwright";
pub(crate) const OPENAI_KEY: &str = "OPENAI_API_KEY";
pub(crate) const AZURE_KEY: &str = "AZURE_OPENAI_API_KEY";
/// `PLANWRIGHT_KEYRING=off`: never touch the OS keyring (the key file only).
const KEYRING_VAR: &str = "PLANWRIGHT_KEYRING";

/// Where keys are stored and looked up.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub enum KeyStore {
    /// The OS keyring when it works, else the key file.
    #[default]
    Auto,
    /// The key file only (`<data home>/keys.yaml`, mode 0600): for machines and tests where
    /// the keyring must not be touched.
    File,
}

impl KeyStore {
    /// [`KeyStore::File`] when `PLANWRIGHT_KEYRING` is `off` (or `0`, `false`, `no`), else
    /// [`KeyStore::Auto`].
    pub fn from_env() -> KeyStore {
        match std::env::var(KEYRING_VAR) {
            Ok(value) if ["off", "0", "false", "no"].contains(&value.trim().to_ascii_lowercase().as_str()) => {
                KeyStore::File
            }
            _ => KeyStore::Auto,
        }
    }
}

/// The model settings: environment, `.env` and `settings.yaml` (`Settings::load`), with the keys
/// stored here used where neither the environment nor `.env` sets them.
pub fn model_settings(data_home: &Path, store: KeyStore) -> Result<Settings, SettingsError> {
    let stored: Vec<(String, Secret)> =
        stored_keys(data_home, store).into_iter().map(|(var, key, _)| (var, key)).collect();
    Settings::load_with_keys(data_home, &stored)
}

/// The keys stored, and where each is. The key file first: [`store_key`] removes a key from it
/// whenever the keyring takes one, so a key found there was stored last (the keyring was locked
/// or missing then, and may still hold an older one). A key the environment sets is not looked
/// up (it wins anyway), so that a locked keyring is not asked.
pub(crate) fn stored_keys(data_home: &Path, store: KeyStore) -> Vec<(String, Secret, KeyPlace)> {
    let file = read_keys_file(data_home).unwrap_or_default();
    let mut keys = Vec::new();
    for var in [OPENAI_KEY, AZURE_KEY] {
        if std::env::var(var).is_ok_and(|value| !value.trim().is_empty()) {
            continue;
        }
        if let Some(key) = file.get(var) {
            keys.push((var.to_owned(), Secret::new(key.clone()), KeyPlace::File));
        } else if store == KeyStore::Auto {
            let from_keyring = keyring::Entry::new(KEYRING_SERVICE, var).and_then(|entry| entry.get_password());
            if let Ok(key) = from_keyring {
                keys.push((var.to_owned(), Secret::new(key), KeyPlace::Keyring));
            }
        }
    }
    keys
}

/// Stores `key` under `var`: the keyring when it works and gives the key back, and then removed
/// from the file; else the file.
pub(crate) fn store_key(data_home: &Path, store: KeyStore, var: &str, key: &Secret) -> Result<KeyPlace, ApiError> {
    let mut file = read_keys_file(data_home)?;
    if store == KeyStore::Auto {
        let stored = keyring::Entry::new(KEYRING_SERVICE, var).and_then(|entry| {
            entry.set_password(key.expose())?;
            entry.get_password()
        });
        match stored {
            Ok(read_back) if read_back == key.expose() => {
                if file.remove(var).is_some() {
                    write_keys_file(data_home, &file)?;
                }
                return Ok(KeyPlace::Keyring);
            }
            Ok(_) => tracing::warn!("the keyring gave back another key; using the key file"),
            Err(error) => tracing::info!(%error, "no usable keyring; using the key file"),
        }
    }
    file.insert(var.to_owned(), key.expose().to_owned());
    write_keys_file(data_home, &file)?;
    Ok(KeyPlace::File)
}

/// The variable a provider's key stands for.
pub(crate) fn key_var(provider: ProviderChoice) -> &'static str {
    match provider {
        ProviderChoice::Azure => AZURE_KEY,
        _ => OPENAI_KEY,
    }
}

/// `sk-…abcd`: enough to recognise a key, never enough to use it.
pub(crate) fn key_hint(key: &str) -> String {
    let chars: Vec<char> = key.chars().collect();
    if chars.len() < 12 {
        return "…".into();
    }
    let head: String = chars[..3].iter().collect();
    let tail: String = chars[chars.len() - 4..].iter().collect();
    format!("{head}…{tail}")
}

fn keys_file(data_home: &Path) -> PathBuf {
    data_home.join(KEYS_FILE)
}

fn read_keys_file(data_home: &Path) -> Result<BTreeMap<String, String>, ApiError> {
    let path = keys_file(data_home);
    match std::fs::read_to_string(&path) {
        Ok(text) => serde_yaml::from_str::<Option<BTreeMap<String, String>>>(&text)
            .map(Option::unwrap_or_default)
            .map_err(|_| {
                ApiError::invalid(format!("{} cannot be read as a list of keys", path.display()))
                    .with_hint("delete that file and set the API key again in Settings")
            }),
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok(BTreeMap::new()),
        Err(e) => Err(workspace::io_error("read", &path, &e)),
    }
}

fn write_keys_file(data_home: &Path, keys: &BTreeMap<String, String>) -> Result<(), ApiError> {
    let text = serde_yaml::to_string(keys).map_err(|e| ApiError::internal(e.to_string()))?;
    write_atomically(&keys_file(data_home), &text, Access::Private)
}
