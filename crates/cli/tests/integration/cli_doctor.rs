//! `planwright doctor` end to end: the built binary against the replay server.

use crate::support;

use std::path::Path;
use std::process::Output;

use planwright_api::{DataHome, KeyStore, ProviderChoice, SetKeyRequest, Studio, StudioConfig};
use planwright_llm_replay::{Match, ReplayServer, Reply, Script};
use serde_json::Value;
use support::{assert_exit, said};

const CANARY: &str = "sk-doctor-canary-0c1d";

/// Runs the binary with only the given variables (none of the developer's keys leak in), in an
/// empty working directory (no `.env`) and a fresh data home.
async fn doctor(home: &Path, vars: &[(&str, &str)], args: &[&str]) -> Output {
    let mut command = tokio::process::Command::new(env!("CARGO_BIN_EXE_planwright"));
    command.arg("doctor").args(args).env_clear().current_dir(home).env("PLANWRIGHT_HOME", home.join("data"));
    for (name, value) in vars {
        command.env(name, value);
    }
    command.output().await.expect("planwright runs")
}

fn stdout(output: &Output) -> String {
    String::from_utf8_lossy(&output.stdout).into_owned()
}

#[tokio::test(flavor = "multi_thread")]
async fn offline_is_reported_and_is_not_a_failure() {
    let home = tempfile::tempdir().unwrap();
    let output = doctor(home.path(), &[], &[]).await;
    assert_exit(&output, 0);
    assert!(stdout(&output).starts_with("offline: no model is configured"), "{}", stdout(&output));
    let output = doctor(home.path(), &[], &["--format", "json"]).await;
    let report: Value = serde_json::from_slice(&output.stdout).unwrap();
    assert_eq!((report["ok"].as_bool(), report["offline"].as_bool()), (Some(true), Some(true)));
}

#[tokio::test(flavor = "multi_thread")]
async fn every_tier_and_the_embeddings_are_checked() {
    let server = ReplayServer::start(
        Script::new()
            .always(Match::chat(), Reply::text("ok"))
            .always(Match::embeddings(), Reply::embeddings(vec![vec![0.1, 0.2, 0.3]])),
    )
    .await;
    let home = tempfile::tempdir().unwrap();
    let vars = [
        ("OPENAI_BASE_URL", server.base_url()),
        ("OPENAI_API_KEY", CANARY.to_string()),
        ("PLANWRIGHT_EMBEDDING_MODEL", "embed-small".to_string()),
        ("PLANWRIGHT_MODEL_FAST", "small-model".to_string()),
    ];
    let vars: Vec<(&str, &str)> = vars.iter().map(|(k, v)| (*k, v.as_str())).collect();
    let output = doctor(home.path(), &vars, &["--format", "json"]).await;
    assert_exit(&output, 0);
    let report: Value = serde_json::from_slice(&output.stdout).unwrap();
    assert_eq!(report["ok"], true);
    let parts: Vec<(&str, &str, bool)> = report["checks"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| (c["part"].as_str().unwrap(), c["model"].as_str().unwrap(), c["ok"].as_bool().unwrap()))
        .collect();
    assert_eq!(
        parts,
        vec![
            ("creative", "gpt-4o", true),
            ("fast", "small-model", true),
            ("evaluator", "gpt-4o", true),
            ("embeddings", "embed-small", true)
        ]
    );
    assert_eq!(report["checks"][3]["answered_by"], "embed-small (3 dimensions)");
    assert_eq!(server.requests().len(), 4);
    let text = doctor(home.path(), &vars, &[]).await;
    assert!(stdout(&text).contains("✓ fast       small-model: answered by small-model"), "{}", stdout(&text));
    for output in [&output, &text] {
        assert!(!stdout(output).contains(CANARY) && !String::from_utf8_lossy(&output.stderr).contains(CANARY));
    }
}

#[tokio::test(flavor = "multi_thread")]
async fn failures_say_what_to_fix_and_exit_1() {
    let server = ReplayServer::start(
        Script::new()
            .always(Match::model("gpt-4o-mini"), Reply::error(401, "Incorrect API key provided"))
            .always(Match::model("missing-model"), Reply::error(404, "The model `missing-model` does not exist"))
            .always(Match::chat(), Reply::text("ok")),
    )
    .await;
    let home = tempfile::tempdir().unwrap();
    let base_url = server.base_url();
    let vars = [("OPENAI_BASE_URL", base_url.as_str()), ("PLANWRIGHT_MODEL_EVALUATOR", "missing-model")];
    let output = doctor(home.path(), &vars, &[]).await;
    assert_exit(&output, 1);
    let text = stdout(&output);
    assert!(text.contains("✓ creative"), "{text}");
    assert!(text.contains("✗ fast") && text.contains("fix: the key is wrong"), "{text}");
    assert!(text.contains("✗ evaluator") && text.contains("set PLANWRIGHT_MODEL_EVALUATOR"), "{text}");
    // No retries in the doctor: one request per tier.
    assert_eq!(server.requests().len(), 3);
}

#[tokio::test(flavor = "multi_thread")]
async fn an_unreachable_server_and_bad_settings_are_reported() {
    let home = tempfile::tempdir().unwrap();
    // A port nothing listens on: bind one, then free it.
    let port = std::net::TcpListener::bind("127.0.0.1:0").unwrap().local_addr().unwrap().port();
    let url = format!("http://127.0.0.1:{port}/v1");
    let output = doctor(home.path(), &[("OPENAI_BASE_URL", &url)], &["--format", "json"]).await;
    assert_exit(&output, 1);
    let report: Value = serde_json::from_slice(&output.stdout).unwrap();
    assert!(report["checks"][0]["problem"].as_str().unwrap().starts_with("cannot reach"), "{report}");
    assert!(report["checks"][0]["fix"].as_str().unwrap().contains("OPENAI_BASE_URL"));

    std::fs::create_dir_all(home.path().join("data")).unwrap();
    std::fs::write(home.path().join("data/settings.yaml"), "provider: gemini\n").unwrap();
    let output = doctor(home.path(), &[], &[]).await;
    assert_exit(&output, 1);
    let text = stdout(&output);
    assert!(text.starts_with("✗ model settings: ") && text.contains("settings.yaml: `provider`"), "{text}");
}

/// A key saved in the studio's Settings (here in its key file) serves the command line too, and
/// a key in the environment still comes first.
#[tokio::test(flavor = "multi_thread")]
async fn a_key_the_studio_stored_is_used_after_the_environment() {
    let server = ReplayServer::start(Script::new().always(Match::chat(), Reply::text("ok"))).await;
    let home = tempfile::tempdir().unwrap();
    let studio = Studio::open(StudioConfig {
        workspace: Some(home.path().join("workspace")),
        data_home: Some(DataHome::at(home.path().join("data"))),
        key_store: KeyStore::File,
    })
    .unwrap();
    studio.set_api_key(SetKeyRequest { provider: ProviderChoice::Openai, key: CANARY.into() }).await.unwrap();
    let base_url = server.base_url();
    let stored_only = [("OPENAI_BASE_URL", base_url.as_str()), ("PLANWRIGHT_KEYRING", "off")];
    let output = doctor(home.path(), &stored_only, &["--format", "json"]).await;
    assert_exit(&output, 0);
    let bearers = |requests: &[planwright_llm_replay::RecordedRequest]| -> Vec<String> {
        requests.iter().map(|r| r.header("authorization").unwrap_or_default().to_owned()).collect()
    };
    assert_eq!(bearers(&server.requests()), vec![format!("Bearer {CANARY}"); 3]);
    assert!(!stdout(&output).contains(CANARY));

    let environment_key = "sk-environment-key-5e6f";
    let both = [("OPENAI_API_KEY", environment_key), stored_only[0], stored_only[1]];
    let output = doctor(home.path(), &both, &["--format", "json"]).await;
    assert_exit(&output, 0);
    assert_eq!(bearers(&server.requests()[3..]), vec![format!("Bearer {environment_key}"); 3]);
}

/// A server answering 429 with an absurd `Retry-After` is reported as busy: `doctor` exits 1 with
/// the reason, never a crash (exit 101 once).
#[tokio::test(flavor = "multi_thread")]
async fn an_absurd_retry_after_is_reported_not_a_crash() {
    let limited = Reply::error(429, "Rate limit reached").header("retry-after", "1e300");
    let server = ReplayServer::start(Script::new().always(Match::chat(), limited)).await;
    let home = tempfile::tempdir().unwrap();
    let base = server.base_url();
    let vars = [("OPENAI_BASE_URL", base.as_str()), ("OPENAI_API_KEY", CANARY)];
    let output = doctor(home.path(), &vars, &["--format", "json"]).await;
    assert_exit(&output, 1);
    let report: Value = serde_json::from_slice(&output.stdout).unwrap();
    assert_eq!(report["ok"], false);
    assert!(report.to_string().contains("429"), "{report}");
}

#[tokio::test(flavor = "multi_thread")]
async fn the_browser_the_data_home_and_the_workspace_are_checked_with_what_to_do() {
    let home = tempfile::tempdir().unwrap();
    let json = |output: &Output| serde_json::from_slice::<Value>(&output.stdout).unwrap();
    let output = doctor(home.path(), &[("CHROME", "/usr/bin/chromium")], &["--format", "json"]).await;
    let report = json(&output);
    let parts: Vec<(&str, bool)> =
        report["system"].as_array().unwrap().iter().map(|c| (c["part"].as_str().unwrap(), c["ok"] == true)).collect();
    assert_eq!(parts, [("browser", true), ("data home", true), ("workspace", true)], "{report}");
    assert_eq!(report["system"][0]["detail"], "/usr/bin/chromium");

    let missing = home.path().join("no-such-chromium");
    let output = doctor(home.path(), &[("CHROME", missing.to_str().unwrap())], &[]).await;
    assert_eq!(output.status.code(), Some(1), "a missing browser is a failure: {}", said(&output));
    let text = stdout(&output);
    assert!(text.contains("✗ browser") && text.contains("fix: install Debian's Chromium"), "{text}");
    assert!(text.contains("✓ data home"), "{text}");
}
