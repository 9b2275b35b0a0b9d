//! Settings: precedence, provider choice, errors that name the place and the fix, and the
//! API key kept out of everything but its header.

use std::path::Path;
use std::time::Duration;

use planwright_llm::{LlmError, Provider, Settings, SettingsError, Tier, SETTINGS_FILE};
use planwright_llm_replay::{ReplayServer, Reply, Script};
use tokio_util::sync::CancellationToken;

const CANARY: &str = "sk-canary-7f3a9d-DO-NOT-LEAK";

fn env(pairs: &[(&str, &str)]) -> Vec<(String, String)> {
    pairs.iter().map(|(k, v)| (k.to_string(), v.to_string())).collect()
}

fn load(vars: &[(&str, &str)], dotenv: Option<&Path>, home: &Path) -> Result<Settings, SettingsError> {
    Settings::load_from(env(vars), dotenv, home)
}

#[test]
fn nothing_configured_is_offline() {
    let home = tempfile::tempdir().unwrap();
    let settings = load(&[], None, home.path()).unwrap();
    assert!(settings.is_offline());
    assert!(settings.client().unwrap().is_none());
    assert_eq!(settings.tier(Tier::Fast).model, "gpt-4o-mini");
    assert_eq!(settings.tier(Tier::Creative).model, "gpt-4o");
}

#[test]
fn environment_beats_dotenv_beats_file_beats_default() {
    let dir = tempfile::tempdir().unwrap();
    let dotenv = dir.path().join(".env");
    std::fs::write(
        &dotenv,
        "OPENAI_BASE_URL=http://localhost:11434/v1\nPLANWRIGHT_MODEL_FAST=from-dotenv\nPLANWRIGHT_MODEL_CREATIVE=from-dotenv\n",
    )
    .unwrap();
    std::fs::write(
        dir.path().join(SETTINGS_FILE),
        "tiers:\n  fast: {model: from-file, max_tokens: 99}\n  creative: {model: from-file}\n  evaluator: {model: from-file, temperature: 0.3}\ntimeout_secs: 5\n",
    )
    .unwrap();
    let settings = load(&[("PLANWRIGHT_MODEL_FAST", "from-env")], Some(&dotenv), dir.path()).unwrap();
    assert_eq!(settings.fast.model, "from-env");
    assert_eq!(settings.fast.max_tokens, 99);
    assert_eq!(settings.creative.model, "from-dotenv");
    assert_eq!(settings.evaluator.model, "from-file");
    assert_eq!(settings.evaluator.temperature, 0.3);
    assert_eq!(settings.evaluator.max_tokens, 1024);
    assert_eq!(settings.timeout, Duration::from_secs(5));
    // A base URL without a key: an OpenAI-compatible local server.
    assert_eq!(
        settings.provider,
        Some(Provider::OpenAi { base_url: "http://localhost:11434/v1".into(), api_key: None })
    );
    assert_eq!(settings.embedding_model, None);
}

#[test]
fn the_provider_is_chosen_from_the_keys_or_named() {
    let home = tempfile::tempdir().unwrap();
    let openai = load(&[("OPENAI_API_KEY", "k")], None, home.path()).unwrap();
    assert_eq!(openai.provider.as_ref().unwrap().name(), "openai");
    assert_eq!(openai.embedding_model.as_deref(), Some("text-embedding-3-small"));
    let azure = load(
        &[
            ("OPENAI_API_KEY", "k"),
            ("AZURE_OPENAI_API_KEY", "a"),
            ("AZURE_OPENAI_ENDPOINT", "https://x.openai.azure.com/"),
        ],
        None,
        home.path(),
    )
    .unwrap();
    match azure.provider.unwrap() {
        Provider::Azure { endpoint, api_version, .. } => {
            assert_eq!((endpoint.as_str(), api_version.as_str()), ("https://x.openai.azure.com", "2024-10-21"))
        }
        other => panic!("{other:?}"),
    }
    let offline = load(&[("OPENAI_API_KEY", "k"), ("PLANWRIGHT_LLM_PROVIDER", "offline")], None, home.path()).unwrap();
    assert!(offline.is_offline());
    let missing = load(&[("PLANWRIGHT_LLM_PROVIDER", "azure")], None, home.path()).unwrap_err();
    assert!(missing.to_string().contains("AZURE_OPENAI_ENDPOINT"), "{missing}");
}

#[test]
fn bad_settings_name_the_file_the_key_and_the_fix() {
    let home = tempfile::tempdir().unwrap();
    let file = home.path().join(SETTINGS_FILE);
    let error_for = |text: &str| {
        std::fs::write(&file, text).unwrap();
        load(&[], None, home.path()).unwrap_err().to_string()
    };
    let unknown = error_for("tiers:\n  fast:\n    modle: x\n");
    assert!(unknown.starts_with(&file.display().to_string()), "{unknown}");
    assert!(
        unknown.contains("tiers.fast") && unknown.contains("modle") && unknown.contains("the keys are"),
        "{unknown}"
    );
    let wrong_type = error_for("timeout_secs: soon\n");
    assert!(wrong_type.contains("`timeout_secs`") && wrong_type.contains("invalid type"), "{wrong_type}");
    let bad_url = error_for("base_url: localhost:11434\n");
    assert!(bad_url.contains("`base_url`") && bad_url.contains("give e.g. http://"), "{bad_url}");
    let key = error_for("api_key: abc\n");
    assert!(key.contains("set OPENAI_API_KEY or AZURE_OPENAI_API_KEY in the environment or .env"), "{key}");
    let temperature = error_for("tiers: {creative: {temperature: 9}}\n");
    assert!(temperature.contains("tiers.creative.temperature") && temperature.contains("0 to 2"), "{temperature}");

    std::fs::remove_file(&file).unwrap();
    let var = load(&[("PLANWRIGHT_LLM_TIMEOUT_SECS", "-3")], None, home.path()).unwrap_err().to_string();
    assert!(var.starts_with("PLANWRIGHT_LLM_TIMEOUT_SECS (from the environment)"), "{var}");
    let provider = load(&[("PLANWRIGHT_LLM_PROVIDER", "anthropic")], None, home.path()).unwrap_err().to_string();
    assert!(provider.contains("use openai, azure, compatible or offline"), "{provider}");
}

#[test]
fn saved_settings_load_back_the_same() {
    let home = tempfile::tempdir().unwrap();
    let mut settings = load(&[("OPENAI_BASE_URL", "http://127.0.0.1:8080/v1")], None, home.path()).unwrap();
    settings.fast.model = "qwen2.5".into();
    settings.embedding_model = Some("nomic-embed-text".into());
    settings.save(home.path()).unwrap();
    assert_eq!(load(&[], None, home.path()).unwrap(), settings);
}

#[test]
fn saving_choices_never_writes_what_the_environment_sets_nor_loses_the_files_limits() {
    let home = tempfile::tempdir().unwrap();
    let file = home.path().join(SETTINGS_FILE);
    std::fs::write(
        &file,
        "provider: offline\ntimeout_secs: 45\nmax_retries: 7\ntiers:\n  fast:\n    model: file-fast\n",
    )
    .unwrap();
    let dotenv = home.path().join(".env");
    std::fs::write(&dotenv, "PLANWRIGHT_EMBEDDING_MODEL=from-dotenv\n").unwrap();
    let vars = [("OPENAI_BASE_URL", "http://127.0.0.1:9/v1"), ("PLANWRIGHT_MODEL_FAST", "from-env")];
    // What the settings page shows (and sends back): the environment's values among the file's.
    let mut shown = load(&vars, Some(&dotenv), home.path()).unwrap();
    assert_eq!(shown.fast.model, "from-env");
    shown.creative.model = "chosen-creative".into();
    shown.save_choices_from(env(&vars), Some(&dotenv), home.path()).unwrap();

    let written = std::fs::read_to_string(&file).unwrap();
    for from_elsewhere in ["127.0.0.1:9", "from-env", "from-dotenv"] {
        assert!(!written.contains(from_elsewhere), "{from_elsewhere} came from the environment or .env: {written}");
    }
    let saved = load(&[], None, home.path()).unwrap();
    assert_eq!(saved.creative.model, "chosen-creative");
    assert_eq!(saved.fast.model, "file-fast", "the file's own choice stays under the variable");
    assert_eq!((saved.timeout, saved.max_retries), (Duration::from_secs(45), 7));

    // A file that cannot be read is not replaced: nothing of it is lost.
    std::fs::write(&file, "timeout_secs: 45\nmax_retries: [\n").unwrap();
    let error = Settings::default().save_choices_from(env(&[]), None, home.path()).unwrap_err();
    assert!(error.to_string().contains(SETTINGS_FILE), "{error}");
    assert_eq!(std::fs::read_to_string(&file).unwrap(), "timeout_secs: 45\nmax_retries: [\n");
}

#[tokio::test]
async fn the_api_key_appears_only_in_its_header() {
    let server = ReplayServer::start(Script::in_order([Reply::text("fine"), Reply::error(401, "bad key")])).await;
    let home = tempfile::tempdir().unwrap();
    let dotenv = home.path().join(".env");
    std::fs::write(&dotenv, format!("OPENAI_API_KEY={CANARY}\n")).unwrap();
    let settings = load(&[("OPENAI_BASE_URL", &server.base_url())], Some(&dotenv), home.path()).unwrap();
    assert!(!format!("{settings:?}").contains(CANARY));

    let client = settings.client().unwrap().unwrap();
    let cancel = CancellationToken::new();
    let request = planwright_llm::ChatRequest::new(Tier::Fast, vec![planwright_llm::ChatMessage::user("hi")]);
    client.chat(request.clone(), &cancel).await.unwrap();
    let error = client.chat(request, &cancel).await.unwrap_err();
    assert!(matches!(error, LlmError::Refused { status: 401, .. }));
    assert!(!format!("{error} {error:?}").contains(CANARY));

    let written = settings.save(home.path()).unwrap();
    assert!(!std::fs::read_to_string(written).unwrap().contains(CANARY));

    for sent in server.requests() {
        assert_eq!(sent.header("authorization"), Some(format!("Bearer {CANARY}").as_str()));
        assert!(!sent.body.contains(CANARY) && !sent.path.contains(CANARY));
        let elsewhere =
            sent.headers.iter().filter(|(name, _)| name != "authorization").any(|(_, v)| v.contains(CANARY));
        assert!(!elsewhere);
    }

    // A settings error about a key-bearing .env line never quotes the line.
    std::fs::write(&dotenv, format!("OPENAI_API_KEY {CANARY}\n")).unwrap();
    let error = load(&[], Some(&dotenv), home.path()).unwrap_err();
    assert!(!format!("{error} {error:?}").contains(CANARY), "{error}");
}
