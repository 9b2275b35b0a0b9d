//! Which model server to use and how: read from the environment, a `.env` file and the settings
//! file under the data home.
//!
//! Precedence, highest first, for every value: the real environment, the `.env` file in the
//! working directory, `settings.yaml` under the data home, the built-in default. API keys come
//! from the environment or `.env`, else from the keys the studio stored
//! ([`Settings::load_with_keys`]): the settings file refuses them and [`Settings::save`] never
//! writes them.
//!
//! | variable | settings.yaml key | meaning |
//! | --- | --- | --- |
//! | `PLANWRIGHT_LLM_PROVIDER` | `provider` | `openai`, `azure`, `compatible` or `offline`; unset: chosen from the keys present |
//! | `OPENAI_API_KEY` | — | OpenAI's key (optional for `compatible`) |
//! | `OPENAI_BASE_URL` | `base_url` | OpenAI-compatible base URL, e.g. `http://localhost:11434/v1` |
//! | `AZURE_OPENAI_API_KEY` | — | Azure OpenAI's key |
//! | `AZURE_OPENAI_ENDPOINT` | `azure_endpoint` | `https://NAME.openai.azure.com` |
//! | `AZURE_OPENAI_API_VERSION` | `azure_api_version` | default `2024-10-21` |
//! | `PLANWRIGHT_MODEL_{CREATIVE,FAST,EVALUATOR}` | `tiers.<tier>.model` | model (Azure: deployment) per tier |
//! | `PLANWRIGHT_TEMPERATURE_{…}` | `tiers.<tier>.temperature` | 0–2 |
//! | `PLANWRIGHT_MAX_TOKENS_{…}` | `tiers.<tier>.max_tokens` | answer token limit |
//! | `PLANWRIGHT_EMBEDDING_MODEL` | `embedding_model` | default `text-embedding-3-small` on OpenAI, none elsewhere |
//! | `PLANWRIGHT_LLM_TIMEOUT_SECS` | `timeout_secs` | per request, default 120 |
//! | `PLANWRIGHT_LLM_MAX_RETRIES` | `max_retries` | retries after the first attempt, default 3 |
//! | — | `planning` | the objective runner's planning settings, kept as they are here (read and written by `planwright-objectives`, see `docs/plan-format.md` 11.1) |
//!
//! With no provider chosen and no key present, the settings are offline: [`Settings::client`]
//! gives `None` and callers take their rule-based path.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::Duration;

use serde::{Deserialize, Serialize};

use crate::openai::OpenAiClient;
use crate::port::{LlmClient, LlmError, Tier};
use crate::secret::Secret;

/// The settings file's name under the data home.
pub const SETTINGS_FILE: &str = "settings.yaml";
pub const OPENAI_BASE_URL: &str = "https://api.openai.com/v1";
pub const DEFAULT_AZURE_API_VERSION: &str = "2024-10-21";
pub const DEFAULT_EMBEDDING_MODEL: &str = "text-embedding-3-small";
const DEFAULT_TIMEOUT_SECS: u64 = 120;
const DEFAULT_MAX_RETRIES: u32 = 3;

/// Where calls go.
#[derive(Debug, Clone, PartialEq)]
pub enum Provider {
    /// OpenAI, or any OpenAI-compatible server (Ollama, vLLM, LM Studio, llama.cpp), which may
    /// need no key.
    OpenAi { base_url: String, api_key: Option<Secret> },
    /// Azure OpenAI: each tier's model is a deployment name.
    Azure { endpoint: String, api_version: String, api_key: Secret },
}

impl Provider {
    /// Short name for messages and records: `openai`, `azure`, or `openai-compatible at URL`.
    pub fn name(&self) -> String {
        match self {
            Provider::OpenAi { base_url, .. } if base_url == OPENAI_BASE_URL => "openai".to_string(),
            Provider::OpenAi { base_url, .. } => format!("openai-compatible at {base_url}"),
            Provider::Azure { .. } => "azure".to_string(),
        }
    }
}

/// How `provider` was chosen, as the settings file and `PLANWRIGHT_LLM_PROVIDER` spell it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum ProviderKind {
    Openai,
    Azure,
    Compatible,
    Offline,
}

/// One tier's model and sampling.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct TierSettings {
    pub model: String,
    pub temperature: f32,
    pub max_tokens: u32,
}

/// The model layer's settings, resolved.
#[derive(Debug, Clone, PartialEq)]
pub struct Settings {
    /// `None`: offline.
    pub provider: Option<Provider>,
    pub creative: TierSettings,
    pub fast: TierSettings,
    pub evaluator: TierSettings,
    pub embedding_model: Option<String>,
    /// Limit for one HTTP request (each retry has its own).
    pub timeout: Duration,
    /// Retries after the first attempt on 429, 5xx, timeouts and dropped connections.
    pub max_retries: u32,
}

impl Default for Settings {
    /// Offline, with the default tiers.
    fn default() -> Settings {
        Settings {
            provider: None,
            creative: TierSettings { model: "gpt-4o".into(), temperature: 0.7, max_tokens: 4096 },
            fast: TierSettings { model: "gpt-4o-mini".into(), temperature: 0.0, max_tokens: 2048 },
            evaluator: TierSettings { model: "gpt-4o".into(), temperature: 0.0, max_tokens: 1024 },
            embedding_model: None,
            timeout: Duration::from_secs(DEFAULT_TIMEOUT_SECS),
            max_retries: DEFAULT_MAX_RETRIES,
        }
    }
}

/// Bad settings: names the place (file and key, or variable), the problem and the fix. Never
/// contains a key's value.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum SettingsError {
    #[error("{}: `{key}`: {problem}; {fix}", .path.display())]
    File { path: PathBuf, key: String, problem: String, fix: String },
    #[error("{var} (from {origin}): {problem}; {fix}")]
    Var { var: String, origin: String, problem: String, fix: String },
    #[error("{var} is not set, and provider {provider} needs it; {fix}")]
    Missing { var: String, provider: String, fix: String },
    #[error("cannot read {}: {message}", .path.display())]
    Read { path: PathBuf, message: String },
    #[error("cannot write {}: {message}", .path.display())]
    Write { path: PathBuf, message: String },
}

/// The settings file as written: no key has a place in it.
#[derive(Debug, Default, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
struct SettingsFile {
    #[serde(default, skip_serializing_if = "Option::is_none")]
    provider: Option<ProviderKind>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    base_url: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    azure_endpoint: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    azure_api_version: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    embedding_model: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    timeout_secs: Option<u64>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    max_retries: Option<u32>,
    #[serde(default)]
    tiers: TiersFile,
    /// The objective runner's planning settings: kept as they are, read and written by
    /// `planwright-objectives`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    planning: Option<serde_yaml::Value>,
}

#[derive(Debug, Default, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
struct TiersFile {
    #[serde(default)]
    creative: TierFile,
    #[serde(default)]
    fast: TierFile,
    #[serde(default)]
    evaluator: TierFile,
}

#[derive(Debug, Default, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
struct TierFile {
    #[serde(default, skip_serializing_if = "Option::is_none")]
    model: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    temperature: Option<f32>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    max_tokens: Option<u32>,
}

const FILE_KEYS: &str = "provider, base_url, azure_endpoint, azure_api_version, embedding_model, timeout_secs, \
                         max_retries, tiers.{creative,fast,evaluator}.{model,temperature,max_tokens}, planning";

/// A value and where it came from, for error messages.
struct Found {
    value: String,
    origin: String,
}

/// Variables from the real environment, then from the `.env` file, then the keys the studio
/// stored (OS keyring or its key file).
struct Vars {
    env: BTreeMap<String, String>,
    dotenv: BTreeMap<String, String>,
    dotenv_origin: String,
    stored: BTreeMap<String, String>,
}

impl Vars {
    fn get(&self, name: &str) -> Option<Found> {
        let pick = |value: &String, origin: &str| {
            (!value.trim().is_empty()).then(|| Found { value: value.trim().to_string(), origin: origin.to_string() })
        };
        self.env
            .get(name)
            .and_then(|v| pick(v, "the environment"))
            .or_else(|| self.dotenv.get(name).and_then(|v| pick(v, &self.dotenv_origin)))
            .or_else(|| self.stored.get(name).and_then(|v| pick(v, "the studio's key store")))
    }
}

impl Settings {
    /// Reads the process environment, `.env` in the working directory (if any) and
    /// `settings.yaml` under `data_home` (if any).
    pub fn load(data_home: &Path) -> Result<Settings, SettingsError> {
        let dotenv = std::env::current_dir().ok().map(|dir| dir.join(".env"));
        Settings::load_from(std::env::vars(), dotenv.as_deref(), data_home)
    }

    /// As [`Settings::load`], with API keys the studio stored (`OPENAI_API_KEY` or
    /// `AZURE_OPENAI_API_KEY` → key) used where neither the environment nor `.env` sets them.
    pub fn load_with_keys(data_home: &Path, stored: &[(String, Secret)]) -> Result<Settings, SettingsError> {
        let dotenv = std::env::current_dir().ok().map(|dir| dir.join(".env"));
        let stored = stored.iter().map(|(name, key)| (name.clone(), key.expose().to_string())).collect();
        Settings::resolve_from(std::env::vars(), dotenv.as_deref(), stored, data_home)
    }

    /// As [`Settings::load`], with the environment given: `env` stands for the real
    /// environment, `dotenv` is the `.env` file to read when it exists.
    pub fn load_from(
        env: impl IntoIterator<Item = (String, String)>,
        dotenv: Option<&Path>,
        data_home: &Path,
    ) -> Result<Settings, SettingsError> {
        Settings::resolve_from(env, dotenv, BTreeMap::new(), data_home)
    }

    fn resolve_from(
        env: impl IntoIterator<Item = (String, String)>,
        dotenv: Option<&Path>,
        stored: BTreeMap<String, String>,
        data_home: &Path,
    ) -> Result<Settings, SettingsError> {
        let (dotenv, dotenv_origin) = match dotenv.filter(|path| path.is_file()) {
            Some(path) => (read_dotenv(path)?, path.display().to_string()),
            None => (BTreeMap::new(), String::new()),
        };
        let vars = Vars { env: env.into_iter().collect(), dotenv, dotenv_origin, stored };
        let path = data_home.join(SETTINGS_FILE);
        let file = read_file(&path)?;
        resolve(&vars, &file, &path)
    }

    pub fn tier(&self, tier: Tier) -> &TierSettings {
        match tier {
            Tier::Creative => &self.creative,
            Tier::Fast => &self.fast,
            Tier::Evaluator => &self.evaluator,
        }
    }

    pub fn is_offline(&self) -> bool {
        self.provider.is_none()
    }

    /// The client these settings describe, or `None` when offline: callers then take their
    /// rule-based path and mark what it produced with [`crate::Provenance::Offline`].
    pub fn client(&self) -> Result<Option<Arc<dyn LlmClient>>, LlmError> {
        if self.provider.is_none() {
            return Ok(None);
        }
        Ok(Some(Arc::new(OpenAiClient::new(self.clone())?)))
    }

    /// Writes the settings (never a key) to `settings.yaml` under `data_home`, atomically.
    pub fn save(&self, data_home: &Path) -> Result<PathBuf, SettingsError> {
        let mut file = self.to_file();
        file.planning = read_file(&data_home.join(SETTINGS_FILE))?.planning;
        write_file(&file, data_home)
    }

    /// Writes what a person chose in the studio — provider, addresses, tiers, embedding model —
    /// to `settings.yaml`, and nothing else: a key the environment or `.env` sets keeps what the
    /// file had (the variable wins anyway, and its value is not the file's to keep), and
    /// `timeout_secs` and `max_retries`, which the studio does not edit, stay as written. A
    /// file that cannot be read is left as it is and the error says what to fix.
    pub fn save_choices(&self, data_home: &Path) -> Result<PathBuf, SettingsError> {
        let dotenv = std::env::current_dir().ok().map(|dir| dir.join(".env"));
        self.save_choices_from(std::env::vars(), dotenv.as_deref(), data_home)
    }

    /// As [`Settings::save_choices`], with the environment given (see [`Settings::load_from`]).
    pub fn save_choices_from(
        &self,
        env: impl IntoIterator<Item = (String, String)>,
        dotenv: Option<&Path>,
        data_home: &Path,
    ) -> Result<PathBuf, SettingsError> {
        let old = read_file(&data_home.join(SETTINGS_FILE))?;
        let (dotenv, dotenv_origin) = match dotenv.filter(|path| path.is_file()) {
            Some(path) => (read_dotenv(path)?, path.display().to_string()),
            None => (BTreeMap::new(), String::new()),
        };
        let vars = Vars { env: env.into_iter().collect(), dotenv, dotenv_origin, stored: BTreeMap::new() };
        let set = |var: &str| vars.get(var).is_some();
        let mut new = self.to_file();
        new.timeout_secs = old.timeout_secs;
        new.max_retries = old.max_retries;
        new.planning = old.planning;
        if set("PLANWRIGHT_LLM_PROVIDER") {
            new.provider = old.provider;
        }
        let keep = |var: &str, new: &mut Option<String>, old: &Option<String>| {
            if set(var) {
                new.clone_from(old);
            }
        };
        keep("OPENAI_BASE_URL", &mut new.base_url, &old.base_url);
        keep("AZURE_OPENAI_ENDPOINT", &mut new.azure_endpoint, &old.azure_endpoint);
        keep("AZURE_OPENAI_API_VERSION", &mut new.azure_api_version, &old.azure_api_version);
        keep("PLANWRIGHT_EMBEDDING_MODEL", &mut new.embedding_model, &old.embedding_model);
        for (name, new, old) in [
            ("CREATIVE", &mut new.tiers.creative, &old.tiers.creative),
            ("FAST", &mut new.tiers.fast, &old.tiers.fast),
            ("EVALUATOR", &mut new.tiers.evaluator, &old.tiers.evaluator),
        ] {
            keep(&format!("PLANWRIGHT_MODEL_{name}"), &mut new.model, &old.model);
            if set(&format!("PLANWRIGHT_TEMPERATURE_{name}")) {
                new.temperature = old.temperature;
            }
            if set(&format!("PLANWRIGHT_MAX_TOKENS_{name}")) {
                new.max_tokens = old.max_tokens;
            }
        }
        write_file(&new, data_home)
    }

    /// These settings as the file writes them.
    fn to_file(&self) -> SettingsFile {
        let tier = |t: &TierSettings| TierFile {
            model: Some(t.model.clone()),
            temperature: Some(t.temperature),
            max_tokens: Some(t.max_tokens),
        };
        let mut file = SettingsFile {
            embedding_model: self.embedding_model.clone(),
            timeout_secs: Some(self.timeout.as_secs()),
            max_retries: Some(self.max_retries),
            tiers: TiersFile {
                creative: tier(&self.creative),
                fast: tier(&self.fast),
                evaluator: tier(&self.evaluator),
            },
            ..SettingsFile::default()
        };
        match &self.provider {
            None => file.provider = Some(ProviderKind::Offline),
            Some(Provider::OpenAi { base_url, .. }) if base_url == OPENAI_BASE_URL => {
                file.provider = Some(ProviderKind::Openai)
            }
            Some(Provider::OpenAi { base_url, .. }) => {
                file.provider = Some(ProviderKind::Compatible);
                file.base_url = Some(base_url.clone());
            }
            Some(Provider::Azure { endpoint, api_version, .. }) => {
                file.provider = Some(ProviderKind::Azure);
                file.azure_endpoint = Some(endpoint.clone());
                file.azure_api_version = Some(api_version.clone());
            }
        }
        file
    }
}

/// Writes `file` to `settings.yaml` under `data_home`, atomically, readable by its owner alone.
fn write_file(file: &SettingsFile, data_home: &Path) -> Result<PathBuf, SettingsError> {
    let path = data_home.join(SETTINGS_FILE);
    let write_error = |message: String| SettingsError::Write { path: path.clone(), message };
    let text = serde_yaml::to_string(file).map_err(|e| write_error(e.to_string()))?;
    planwright_fs::private_dir(data_home).map_err(|e| write_error(e.to_string()))?;
    planwright_fs::write_atomically(&path, text.as_bytes(), planwright_fs::Access::Private)
        .map_err(|e| write_error(e.to_string()))?;
    Ok(path)
}

fn read_dotenv(path: &Path) -> Result<BTreeMap<String, String>, SettingsError> {
    let read_error = |message: String| SettingsError::Read { path: path.to_path_buf(), message };
    let mut vars = BTreeMap::new();
    for item in dotenvy::from_path_iter(path).map_err(|e| read_error(e.to_string()))? {
        // dotenvy's parse errors quote the offending line, which may hold a key: say where only.
        let (name, value) = item.map_err(|e| match e {
            dotenvy::Error::LineParse(_, index) => {
                read_error(format!("line {} cannot be read as NAME=value (quote values with spaces or #)", index + 1))
            }
            other => read_error(other.to_string()),
        })?;
        vars.insert(name, value);
    }
    Ok(vars)
}

fn read_file(path: &Path) -> Result<SettingsFile, SettingsError> {
    let text = match std::fs::read_to_string(path) {
        Ok(text) => text,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(SettingsFile::default()),
        Err(e) => return Err(SettingsError::Read { path: path.to_path_buf(), message: e.to_string() }),
    };
    if text.trim().is_empty() {
        return Ok(SettingsFile::default());
    }
    let deserializer = serde_yaml::Deserializer::from_str(&text);
    serde_path_to_error::deserialize(deserializer).map_err(|e| {
        let key = e.path().to_string();
        // serde_yaml starts its message with the path too.
        let message = e.inner().to_string();
        let problem = match message.split_once(": ") {
            Some((path, rest)) if key.starts_with(path) => rest.to_string(),
            _ => message,
        };
        let fix = if problem.contains("unknown field") {
            if problem.contains("key") {
                "API keys are not kept in files: set OPENAI_API_KEY or AZURE_OPENAI_API_KEY in the environment or .env"
                    .to_string()
            } else {
                format!("the keys are {FILE_KEYS}")
            }
        } else {
            "see the model settings in the README for each key's type".to_string()
        };
        SettingsError::File { path: path.to_path_buf(), key, problem, fix }
    })
}

fn resolve(vars: &Vars, file: &SettingsFile, path: &Path) -> Result<Settings, SettingsError> {
    let file_error = |key: &str, problem: String, fix: &str| SettingsError::File {
        path: path.to_path_buf(),
        key: key.to_string(),
        problem,
        fix: fix.to_string(),
    };
    let var_error = |var: &str, found: &Found, problem: String, fix: &str| SettingsError::Var {
        var: var.to_string(),
        origin: found.origin.clone(),
        problem,
        fix: fix.to_string(),
    };
    let mut settings = Settings::default();

    for (tier, name, from_file) in [
        (Tier::Creative, "CREATIVE", &file.tiers.creative),
        (Tier::Fast, "FAST", &file.tiers.fast),
        (Tier::Evaluator, "EVALUATOR", &file.tiers.evaluator),
    ] {
        let target = match tier {
            Tier::Creative => &mut settings.creative,
            Tier::Fast => &mut settings.fast,
            Tier::Evaluator => &mut settings.evaluator,
        };
        let key = |field: &str| format!("tiers.{}.{field}", tier.name());
        if let Some(model) = &from_file.model {
            target.model = model.clone();
        }
        if let Some(temperature) = from_file.temperature {
            target.temperature = temperature;
        }
        if let Some(max_tokens) = from_file.max_tokens {
            target.max_tokens = max_tokens;
        }
        if let Some(found) = vars.get(&format!("PLANWRIGHT_MODEL_{name}")) {
            target.model = found.value;
        }
        let var = format!("PLANWRIGHT_TEMPERATURE_{name}");
        if let Some(found) = vars.get(&var) {
            target.temperature = found
                .value
                .parse()
                .map_err(|_| var_error(&var, &found, "not a number".into(), "give a number from 0 to 2"))?;
            check_temperature(target.temperature)
                .map_err(|p| var_error(&var, &found, p, "give a number from 0 to 2"))?;
        } else {
            check_temperature(target.temperature)
                .map_err(|p| file_error(&key("temperature"), p, "give a number from 0 to 2"))?;
        }
        let var = format!("PLANWRIGHT_MAX_TOKENS_{name}");
        if let Some(found) = vars.get(&var) {
            target.max_tokens = parse_positive(&found.value)
                .ok_or_else(|| var_error(&var, &found, "not a positive whole number".into(), "give e.g. 2048"))?;
        } else if target.max_tokens == 0 {
            return Err(file_error(&key("max_tokens"), "must be above 0".into(), "give e.g. 2048"));
        }
        if target.model.trim().is_empty() {
            return Err(file_error(&key("model"), "is empty".into(), "name a model, e.g. gpt-4o-mini"));
        }
    }

    if let Some(timeout) = file.timeout_secs {
        if timeout == 0 {
            return Err(file_error("timeout_secs", "must be above 0".into(), "give seconds, e.g. 120"));
        }
        settings.timeout = Duration::from_secs(timeout);
    }
    if let Some(found) = vars.get("PLANWRIGHT_LLM_TIMEOUT_SECS") {
        let secs = parse_positive(&found.value).ok_or_else(|| {
            var_error(
                "PLANWRIGHT_LLM_TIMEOUT_SECS",
                &found,
                "not a positive whole number".into(),
                "give seconds, e.g. 120",
            )
        })?;
        settings.timeout = Duration::from_secs(secs.into());
    }
    if let Some(retries) = file.max_retries {
        settings.max_retries = retries;
    }
    if let Some(found) = vars.get("PLANWRIGHT_LLM_MAX_RETRIES") {
        settings.max_retries = found.value.parse().map_err(|_| {
            var_error("PLANWRIGHT_LLM_MAX_RETRIES", &found, "not a whole number".into(), "give e.g. 3 (0: no retries)")
        })?;
    }

    // The provider: named, or chosen from the keys present.
    let named = match vars.get("PLANWRIGHT_LLM_PROVIDER") {
        Some(found) => Some(parse_kind(&found.value).ok_or_else(|| {
            var_error(
                "PLANWRIGHT_LLM_PROVIDER",
                &found,
                format!("unknown provider {:?}", found.value),
                "use openai, azure, compatible or offline",
            )
        })?),
        None => file.provider,
    };
    let openai_key = vars.get("OPENAI_API_KEY").map(|f| Secret::new(f.value));
    let azure_key = vars.get("AZURE_OPENAI_API_KEY").map(|f| Secret::new(f.value));
    let base_url = match vars.get("OPENAI_BASE_URL") {
        Some(found) => Some(
            check_url(&found.value)
                .map_err(|p| var_error("OPENAI_BASE_URL", &found, p, "give e.g. http://localhost:11434/v1"))?,
        ),
        None => match &file.base_url {
            Some(url) => {
                Some(check_url(url).map_err(|p| file_error("base_url", p, "give e.g. http://localhost:11434/v1"))?)
            }
            None => None,
        },
    };
    let azure_endpoint =
        match vars.get("AZURE_OPENAI_ENDPOINT") {
            Some(found) => Some(check_url(&found.value).map_err(|p| {
                var_error("AZURE_OPENAI_ENDPOINT", &found, p, "give e.g. https://NAME.openai.azure.com")
            })?),
            None => match &file.azure_endpoint {
                Some(url) => Some(
                    check_url(url)
                        .map_err(|p| file_error("azure_endpoint", p, "give e.g. https://NAME.openai.azure.com"))?,
                ),
                None => None,
            },
        };
    let kind = named.unwrap_or(if azure_key.is_some() && azure_endpoint.is_some() {
        ProviderKind::Azure
    } else if openai_key.is_some() {
        ProviderKind::Openai
    } else if base_url.is_some() {
        ProviderKind::Compatible
    } else {
        ProviderKind::Offline
    });
    let missing = |var: &str, fix: &str| SettingsError::Missing {
        var: var.to_string(),
        provider: kind_name(kind).to_string(),
        fix: fix.to_string(),
    };
    settings.provider = match kind {
        ProviderKind::Offline => None,
        ProviderKind::Openai => Some(Provider::OpenAi {
            base_url: base_url.unwrap_or_else(|| OPENAI_BASE_URL.to_string()),
            api_key: Some(openai_key.ok_or_else(|| {
                missing("OPENAI_API_KEY", "set it in the environment or .env (or choose another provider)")
            })?),
        }),
        ProviderKind::Compatible => Some(Provider::OpenAi {
            base_url: base_url.ok_or_else(|| {
                missing("OPENAI_BASE_URL", "set it to the server's base URL, e.g. http://localhost:11434/v1")
            })?,
            api_key: openai_key,
        }),
        ProviderKind::Azure => Some(Provider::Azure {
            endpoint: azure_endpoint
                .ok_or_else(|| missing("AZURE_OPENAI_ENDPOINT", "set it to e.g. https://NAME.openai.azure.com"))?,
            api_version: vars
                .get("AZURE_OPENAI_API_VERSION")
                .map(|f| f.value)
                .or_else(|| file.azure_api_version.clone())
                .unwrap_or_else(|| DEFAULT_AZURE_API_VERSION.to_string()),
            api_key: azure_key.ok_or_else(|| missing("AZURE_OPENAI_API_KEY", "set it in the environment or .env"))?,
        }),
    };

    settings.embedding_model =
        vars.get("PLANWRIGHT_EMBEDDING_MODEL").map(|f| f.value).or_else(|| file.embedding_model.clone()).or_else(
            || match &settings.provider {
                Some(Provider::OpenAi { base_url, .. }) if base_url == OPENAI_BASE_URL => {
                    Some(DEFAULT_EMBEDDING_MODEL.to_string())
                }
                _ => None,
            },
        );
    Ok(settings)
}

fn parse_kind(text: &str) -> Option<ProviderKind> {
    match text.to_ascii_lowercase().as_str() {
        "openai" => Some(ProviderKind::Openai),
        "azure" => Some(ProviderKind::Azure),
        "compatible" => Some(ProviderKind::Compatible),
        "offline" | "none" => Some(ProviderKind::Offline),
        _ => None,
    }
}

fn kind_name(kind: ProviderKind) -> &'static str {
    match kind {
        ProviderKind::Openai => "openai",
        ProviderKind::Azure => "azure",
        ProviderKind::Compatible => "compatible",
        ProviderKind::Offline => "offline",
    }
}

fn parse_positive(text: &str) -> Option<u32> {
    text.parse::<u32>().ok().filter(|n| *n > 0)
}

fn check_temperature(value: f32) -> Result<(), String> {
    if (0.0..=2.0).contains(&value) {
        Ok(())
    } else {
        Err(format!("{value} is outside 0–2"))
    }
}

/// An http(s) URL without a trailing slash. The problem text never repeats the URL, which may
/// carry credentials.
fn check_url(text: &str) -> Result<String, String> {
    let url = reqwest::Url::parse(text).map_err(|e| format!("not a URL ({e})"))?;
    if !matches!(url.scheme(), "http" | "https") {
        return Err(format!("scheme {:?} is not http or https", url.scheme()));
    }
    Ok(text.trim_end_matches('/').to_string())
}
