//! Settings: the studio's own (`studio.yaml` in the data home: workspace, browser, locale,
//! theme), the model settings through `planwright_llm::Settings` (never a key in a file it
//! writes), and API keys through `keys`.

use planwright_fs::Access;
use std::path::{Path, PathBuf};

use planwright_llm::{Provider, Secret, Settings, SettingsError, TierSettings, OPENAI_BASE_URL, SETTINGS_FILE};
use planwright_objectives::planning::PlanningSettings;
use serde::{Deserialize, Serialize};

use crate::error::{ApiError, ApiMessage, ErrorCode};
use crate::keys::{self, key_hint, key_var};
use crate::types::*;
use crate::{workspace, Studio};

const STUDIO_FILE: &str = "studio.yaml";

/// `studio.yaml`.
#[derive(Debug, Default, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct StudioFile {
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub workspace: Option<PathBuf>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub browser_path: Option<String>,
    #[serde(default)]
    pub locale: Locale,
    #[serde(default)]
    pub theme: Theme,
}

pub(crate) fn read_studio_file(home: &Path) -> Result<StudioFile, ApiError> {
    let path = home.join(STUDIO_FILE);
    match std::fs::read_to_string(&path) {
        Ok(text) if text.trim().is_empty() => Ok(StudioFile::default()),
        Ok(text) => serde_yaml::from_str(&text).map_err(|e| {
            ApiError::invalid(format!("{}: {e}", path.display()))
                .with_hint("fix or delete that file; the studio writes it again when settings are saved")
                .saying(ApiMessage::SettingsFileUnreadable { path: path.display().to_string(), detail: e.to_string() })
        }),
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok(StudioFile::default()),
        Err(e) => Err(workspace::io_error("read", &path, &e)),
    }
}

/// Writes `text` to `path` atomically (`planwright_fs`), its folder created first: private
/// (0700) when the file is, as the data home's folders are.
pub(crate) fn write_atomically(path: &Path, text: &str, access: Access) -> Result<(), ApiError> {
    if let Some(dir) = path.parent() {
        let created = match access {
            Access::Private => planwright_fs::private_dir(dir),
            Access::Shared => std::fs::create_dir_all(dir),
        };
        created.map_err(|e| workspace::io_error("create", dir, &e))?;
    }
    planwright_fs::write_atomically(path, text.as_bytes(), access).map_err(|e| workspace::io_error("write", path, &e))
}

impl Studio {
    /// The model settings runs and searches use: environment, `.env`, `settings.yaml`, then the
    /// keys the studio stored. Blocking (the keyring).
    pub(crate) fn model_settings(&self) -> Result<Settings, SettingsError> {
        keys::model_settings(self.data_home(), self.inner.key_store)
    }

    /// The model services runs and searches use, from [`Studio::model_settings`].
    pub(crate) async fn model_services(&self) -> crate::ModelServices {
        let studio = self.clone();
        let home = self.data_home().to_path_buf();
        tokio::task::spawn_blocking(move || crate::ModelServices::load(studio.data_home(), studio.inner.key_store))
            .await
            .unwrap_or_else(|e| crate::ModelServices::failed(&home, format!("reading the model settings stopped: {e}")))
    }

    pub async fn get_settings(&self) -> Result<StudioSettings, ApiError> {
        let studio = self.clone();
        tokio::task::spawn_blocking(move || studio.settings_now())
            .await
            .map_err(|e| ApiError::internal(format!("reading the settings stopped: {e}")))?
    }

    fn settings_now(&self) -> Result<StudioSettings, ApiError> {
        let file = read_studio_file(self.data_home())?;
        let keys = keys::stored_keys(self.data_home(), self.inner.key_store);
        let stored: Vec<(String, Secret)> = keys.iter().map(|(var, key, _)| (var.clone(), key.clone())).collect();
        let (settings, problem) = match Settings::load_with_keys(self.data_home(), &stored) {
            Ok(settings) => (settings, None),
            Err(error) => {
                // A provider chosen without its key: read the rest as if the key were there, so
                // that the settings page shows them; this placeholder calls nothing.
                let mut with_placeholder = stored.clone();
                if let SettingsError::Missing { var, .. } = &error {
                    with_placeholder.push((var.clone(), Secret::new("placeholder")));
                }
                let settings = Settings::load_with_keys(self.data_home(), &with_placeholder).unwrap_or_default();
                (settings, Some(error.to_string()))
            }
        };
        let mut models = model_choices(&settings);
        models.problem = problem;
        let var = key_var(models.provider);
        let environment = std::env::var(var).ok().filter(|v| !v.trim().is_empty());
        models.key = match (environment, keys.iter().find(|(v, _, _)| v == var)) {
            (Some(key), _) => {
                KeyStatus { stored: true, hint: Some(key_hint(&key)), place: Some(KeyPlace::Environment) }
            }
            (None, Some((_, key, place))) => {
                KeyStatus { stored: true, hint: Some(key_hint(key.expose())), place: Some(*place) }
            }
            (None, None) => KeyStatus::default(),
        };
        let (planning, planning_problem) = match PlanningSettings::load(self.data_home()) {
            Ok(planning) => (planning, None),
            Err(error) => (PlanningSettings::default(), Some(error.to_string())),
        };
        Ok(StudioSettings {
            workspace: self.workspace().display().to_string(),
            browser_path: file.browser_path,
            locale: file.locale,
            theme: file.theme,
            models,
            planning,
            planning_problem,
        })
    }

    /// Saves the studio's settings and the model settings (`models.key` is ignored: keys go
    /// through `set_api_key`). A new workspace is created and seeded.
    pub async fn save_settings(&self, new: StudioSettings) -> Result<StudioSettings, ApiError> {
        let workspace = PathBuf::from(new.workspace.trim());
        if new.workspace.trim().is_empty() || !workspace.is_absolute() {
            return Err(ApiError::invalid(format!("workspace {:?} is not a full folder path", new.workspace))
                .with_hint("choose a folder like /home/me/Planwright")
                .saying(ApiMessage::WorkspaceNotAbsolute { workspace: new.workspace.clone() }));
        }
        // Only what the page chose is written: never a value from the environment, and the
        // file's own timeout and retries stay (`Settings::save_choices`).
        let mut models = Settings::default();
        apply_choices(&mut models, &new.models)?;
        // Every value is checked before anything is written, so a refused one saves nothing.
        new.planning.check(&self.data_home().join(SETTINGS_FILE)).map_err(|e| {
            ApiError::invalid(e.to_string())
                .with_hint("correct the planning value; nothing was saved")
                .saying(ApiMessage::PlanningValueRefused { detail: e.to_string() })
        })?;
        workspace::prepare(&workspace)?;
        let file = StudioFile {
            workspace: Some(workspace.clone()),
            browser_path: new.browser_path.filter(|p| !p.trim().is_empty()),
            locale: new.locale,
            theme: new.theme,
        };
        models.save_choices(self.data_home()).map_err(|e| match e {
            SettingsError::Write { .. } => ApiError::internal(e.to_string()),
            other => ApiError::invalid(other.to_string())
                .with_hint("fix or delete that file; nothing was saved, so that none of it is lost")
                .saying(ApiMessage::SettingsNotSaved { detail: other.to_string() }),
        })?;
        new.planning.save(self.data_home()).map_err(|e| ApiError::internal(e.to_string()))?;
        let text = serde_yaml::to_string(&file).map_err(|e| ApiError::internal(e.to_string()))?;
        write_atomically(&self.data_home().join(STUDIO_FILE), &text, Access::Private)?;
        *self.inner.workspace.write().unwrap_or_else(|e| e.into_inner()) = workspace;
        self.get_settings().await
    }

    /// Stores an API key: the OS keyring where one works, else `keys.yaml` (mode 0600). The key
    /// is never sent back; the answer says where it went.
    pub async fn set_api_key(&self, request: SetKeyRequest) -> Result<KeyStatus, ApiError> {
        let key = request.key.trim().to_owned();
        if key.is_empty() || key.chars().any(char::is_whitespace) {
            return Err(ApiError::invalid("the API key is empty or has spaces in it")
                .with_hint("paste the key exactly as the provider shows it")
                .saying(ApiMessage::ApiKeyMalformed));
        }
        if request.provider == ProviderChoice::Offline {
            return Err(ApiError::invalid("offline needs no API key")
                .with_hint("choose a provider first")
                .saying(ApiMessage::OfflineNeedsNoKey));
        }
        let var = key_var(request.provider);
        let studio = self.clone();
        let secret = Secret::new(key.clone());
        let place = tokio::task::spawn_blocking(move || {
            keys::store_key(studio.data_home(), studio.inner.key_store, var, &secret)
        })
        .await
        .map_err(|e| ApiError::internal(format!("storing the key stopped: {e}")))??;
        tracing::info!(place = ?place, "API key stored");
        Ok(KeyStatus { stored: true, hint: Some(key_hint(&key)), place: Some(place) })
    }

    /// One tiny call per tier (and one embedding), as `planwright doctor` does.
    pub async fn check_models(&self) -> Result<ModelCheck, ApiError> {
        let studio = self.clone();
        let settings = tokio::task::spawn_blocking(move || studio.model_settings())
            .await
            .map_err(|e| ApiError::internal(format!("reading the settings stopped: {e}")))?;
        let file = self.data_home().join(SETTINGS_FILE);
        Ok(crate::check_models_with(settings, &file).await)
    }
}

fn model_choices(settings: &Settings) -> ModelSettings {
    let tier =
        |t: &TierSettings| TierChoice { model: t.model.clone(), temperature: t.temperature, max_tokens: t.max_tokens };
    let (provider, base_url, azure_endpoint, azure_api_version) = match &settings.provider {
        None => (ProviderChoice::Offline, None, None, None),
        Some(Provider::OpenAi { base_url, .. }) if base_url == OPENAI_BASE_URL => {
            (ProviderChoice::Openai, None, None, None)
        }
        Some(Provider::OpenAi { base_url, .. }) => (ProviderChoice::Compatible, Some(base_url.clone()), None, None),
        Some(Provider::Azure { endpoint, api_version, .. }) => {
            (ProviderChoice::Azure, None, Some(endpoint.clone()), Some(api_version.clone()))
        }
    };
    ModelSettings {
        provider,
        base_url,
        azure_endpoint,
        azure_api_version,
        tiers: TierChoices {
            creative: tier(&settings.creative),
            fast: tier(&settings.fast),
            evaluator: tier(&settings.evaluator),
        },
        embedding_model: settings.embedding_model.clone(),
        key: KeyStatus::default(),
        problem: None,
    }
}

/// The choices made in the settings page, onto `settings` (whose keys `save` never writes).
fn apply_choices(settings: &mut Settings, choices: &ModelSettings) -> Result<(), ApiError> {
    let text = |value: &Option<String>| value.as_deref().map(str::trim).filter(|v| !v.is_empty()).map(str::to_owned);
    let missing = |what: &str, example: &str, said: ApiMessage| {
        ApiError::new(ErrorCode::InvalidInput, format!("this provider needs {what}"))
            .with_hint(format!("fill it in, e.g. {example}"))
            .saying(said)
    };
    const BASE_URL_EXAMPLE: &str = "http://localhost:11434/v1";
    const AZURE_ENDPOINT_EXAMPLE: &str = "https://NAME.openai.azure.com";
    settings.provider = match choices.provider {
        ProviderChoice::Offline => None,
        ProviderChoice::Openai => Some(Provider::OpenAi { base_url: OPENAI_BASE_URL.to_owned(), api_key: None }),
        ProviderChoice::Compatible => Some(Provider::OpenAi {
            base_url: text(&choices.base_url).ok_or_else(|| {
                let said = ApiMessage::BaseUrlMissing { example: BASE_URL_EXAMPLE.to_owned() };
                missing("a base URL", BASE_URL_EXAMPLE, said)
            })?,
            api_key: None,
        }),
        ProviderChoice::Azure => Some(Provider::Azure {
            endpoint: text(&choices.azure_endpoint).ok_or_else(|| {
                let said = ApiMessage::AzureEndpointMissing { example: AZURE_ENDPOINT_EXAMPLE.to_owned() };
                missing("the Azure endpoint", AZURE_ENDPOINT_EXAMPLE, said)
            })?,
            api_version: text(&choices.azure_api_version)
                .unwrap_or_else(|| planwright_llm::DEFAULT_AZURE_API_VERSION.to_owned()),
            api_key: Secret::new(String::new()),
        }),
    };
    for (target, choice, name) in [
        (&mut settings.creative, &choices.tiers.creative, "creative"),
        (&mut settings.fast, &choices.tiers.fast, "fast"),
        (&mut settings.evaluator, &choices.tiers.evaluator, "evaluator"),
    ] {
        if choice.model.trim().is_empty() || !(0.0..=2.0).contains(&choice.temperature) || choice.max_tokens == 0 {
            return Err(ApiError::invalid(format!("the {name} tier is incomplete"))
                .with_hint("give a model name, a temperature from 0 to 2 and a token limit above 0")
                .saying(ApiMessage::TierIncomplete { tier: name.to_owned() }));
        }
        *target = TierSettings {
            model: choice.model.trim().to_owned(),
            temperature: choice.temperature,
            max_tokens: choice.max_tokens,
        };
    }
    settings.embedding_model = text(&choices.embedding_model);
    Ok(())
}
