//! API keys the studio stores: in the OS keyring where one works, else in `<data home>/keys.yaml`
//! readable by the user alone. The studio and the command line (`planwright run`, `doctor`,
//! `blocks search`) read them through [`model_settings`], after the environment and `.env`.
//! The keyring calls are blocking (D-Bus on Linux): call these off the async runtime.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use planwright_llm::{Secret, Settings, SettingsError};

use crate::error::{ApiError, ApiMessage};
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
    [OPENAI_KEY, AZURE_KEY]
        .into_iter()
        .filter(|var| !std::env::var(var).is_ok_and(|value| !value.trim().is_empty()))
        .filter_map(|var| stored_value(&file, store, var).map(|(key, place)| (var.to_owned(), key, place)))
        .collect()
}

/// The value stored under `var` and where: the key file first (see [`stored_keys`]), then the
/// keyring.
fn stored_value(file: &BTreeMap<String, String>, store: KeyStore, var: &str) -> Option<(Secret, KeyPlace)> {
    if let Some(value) = file.get(var) {
        return Some((Secret::new(value.clone()), KeyPlace::File));
    }
    if store == KeyStore::Auto {
        let from_keyring = keyring::Entry::new(KEYRING_SERVICE, var).and_then(|entry| entry.get_password());
        if let Ok(value) = from_keyring {
            return Some((Secret::new(value), KeyPlace::Keyring));
        }
    }
    None
}

/// The variable a plan's secret `name` is read from, in the environment and in the store.
pub(crate) fn secret_var(name: &str) -> String {
    format!("PLANWRIGHT_SECRET_{name}")
}

/// Stores the value of a plan's secret `name`, as the model keys are stored.
pub(crate) fn store_secret(
    data_home: &Path,
    store: KeyStore,
    name: &str,
    value: &Secret,
) -> Result<KeyPlace, ApiError> {
    store_key(data_home, store, &secret_var(name), value)
}

/// Forgets the stored value of a plan's secret `name` (the keyring's and the key file's).
pub(crate) fn forget_secret(data_home: &Path, store: KeyStore, name: &str) -> Result<(), ApiError> {
    let var = secret_var(name);
    let mut file = read_keys_file(data_home)?;
    if file.remove(&var).is_some() {
        write_keys_file(data_home, &file)?;
    }
    if store == KeyStore::Auto {
        if let Ok(entry) = keyring::Entry::new(KEYRING_SERVICE, &var) {
            match entry.delete_credential() {
                Ok(()) | Err(keyring::Error::NoEntry) => {}
                Err(error) => tracing::info!(%error, "the keyring could not forget the secret"),
            }
        }
    }
    Ok(())
}

/// A run's secrets: `PLANWRIGHT_SECRET_<NAME>` from the environment, else the value stored in the
/// keyring or the key file, read once before the run (the keyring blocks; blocks ask for values
/// on the async runtime). Values live in memory only and are never written anywhere.
pub struct RunSecrets {
    stored: BTreeMap<String, (Secret, KeyPlace)>,
}

impl RunSecrets {
    /// Reads the stored values of `names` (a secret the environment sets is not looked up).
    pub fn load(data_home: &Path, store: KeyStore, names: &[String]) -> RunSecrets {
        let file = read_keys_file(data_home).unwrap_or_default();
        let stored = names
            .iter()
            .filter(|name| std::env::var_os(secret_var(name)).is_none())
            .filter_map(|name| stored_value(&file, store, &secret_var(name)).map(|found| (name.clone(), found)))
            .collect();
        RunSecrets { stored }
    }

    /// Where `name`'s value comes from; `None` when it has none.
    pub fn place(&self, name: &str) -> Option<KeyPlace> {
        if std::env::var_os(secret_var(name)).is_some() {
            return Some(KeyPlace::Environment);
        }
        self.stored.get(name).map(|(_, place)| *place)
    }
}

impl planwright_engine::SecretSource for RunSecrets {
    fn secret(&self, name: &str) -> Option<String> {
        std::env::var(secret_var(name))
            .ok()
            .or_else(|| self.stored.get(name).map(|(value, _)| value.expose().to_owned()))
    }
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
                    .saying(ApiMessage::KeysFileUnreadable { path: path.display().to_string() })
            }),
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok(BTreeMap::new()),
        Err(e) => Err(workspace::io_error("read", &path, &e)),
    }
}

fn write_keys_file(data_home: &Path, keys: &BTreeMap<String, String>) -> Result<(), ApiError> {
    let text = serde_yaml::to_string(keys).map_err(|e| ApiError::internal(e.to_string()))?;
    write_atomically(&keys_file(data_home), &text, Access::Private)
}
