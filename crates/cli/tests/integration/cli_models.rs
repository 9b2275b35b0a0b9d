//! `planwright run` with a model configured the way users do it — the environment or a `.env`
//! in the working directory — against a local scripted OpenAI-compatible server.

use std::path::Path;
use std::process::{Output, Stdio};

use crate::support;

use planwright_llm_replay::{Match, ReplayServer, Reply, Script};
use serde_json::{json, Value};
use support::{assert_exit, files_under};

const API_KEY: &str = "sk-canary-31f0-cli-never-written";

const PLAN: &str = "apiVersion: planwright/v1\nid: classify\nversion: 1.0.0\ngraph:\n  - id: classify\n    block: ai.process_llm\n    in:\n      evidence_data: {expense: 新幹線 東京-大阪 14720円}\n      instruction: Classify the expense.\n      output_schema: {type: object, required: [category], properties: {category: {type: string}}}\n    out: {results: answer}\n  - id: save\n    block: report.write\n    in: {data: \"${classify.answer}\", format: json, path: out/answer.json}\n";

/// Runs the binary without blocking the runtime the replay server lives on. Model variables of
/// the developer's own environment are removed so only the test's settings count.
async fn planwright(home: &Path, workdir: &Path, env: &[(&str, &str)], args: &[&str]) -> Output {
    let mut command = tokio::process::Command::new(env!("CARGO_BIN_EXE_planwright"));
    command.args(args).current_dir(workdir).env("PLANWRIGHT_HOME", home).stdin(Stdio::null());
    for (name, _) in std::env::vars() {
        if name.starts_with("OPENAI_") || name.starts_with("AZURE_OPENAI_") || name.starts_with("PLANWRIGHT_LLM") {
            command.env_remove(name);
        }
    }
    command.envs(env.iter().copied());
    command.output().await.unwrap()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_run_uses_the_model_from_the_environment_and_reports_its_tokens() {
    let server = ReplayServer::start(
        Script::new().always(Match::chat(), Reply::json(&json!({"category": "travel"})).usage(210, 8)),
    )
    .await;
    let (home, work) = (tempfile::tempdir().unwrap(), tempfile::tempdir().unwrap());
    std::fs::write(work.path().join("plan.yaml"), PLAN).unwrap();
    let base = server.base_url();
    let env = [("OPENAI_API_KEY", API_KEY), ("OPENAI_BASE_URL", base.as_str())];
    let output = planwright(home.path(), work.path(), &env, &["run", "plan.yaml", "--format", "json"]).await;
    assert_exit(&output, 0);
    let outcome: Value = serde_json::from_slice(&output.stdout).unwrap();
    assert_eq!(outcome["counts"]["model_calls"], 1);
    assert_eq!(
        (outcome["counts"]["input_tokens"].as_u64(), outcome["counts"]["output_tokens"].as_u64()),
        (Some(210), Some(8))
    );
    let saved: Value = serde_json::from_slice(&std::fs::read(work.path().join("out/answer.json")).unwrap()).unwrap();
    assert_eq!(saved, json!({"category": "travel"}));

    let text = planwright(home.path(), work.path(), &env, &["run", "plan.yaml"]).await;
    let stdout = String::from_utf8_lossy(&text.stdout);
    assert!(stdout.contains("1 model call(s), 210 + 8 tokens"), "{stdout}");

    for file in files_under(home.path()).iter().chain(files_under(work.path()).iter()) {
        let bytes = std::fs::read(file).unwrap();
        assert!(!String::from_utf8_lossy(&bytes).contains(API_KEY), "{} holds the API key", file.display());
    }
    let recorded = files_under(home.path()).into_iter().find(|p| p.extension().is_some_and(|e| e == "jsonl")).unwrap();
    assert!(std::fs::read_to_string(recorded).unwrap().contains("\"type\":\"model_call\""));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_dotenv_in_the_working_directory_configures_the_model() {
    let server =
        ReplayServer::start(Script::new().always(Match::chat(), Reply::json(&json!({"category": "other"})))).await;
    let (home, work) = (tempfile::tempdir().unwrap(), tempfile::tempdir().unwrap());
    std::fs::write(work.path().join("plan.yaml"), PLAN).unwrap();
    std::fs::write(
        work.path().join(".env"),
        format!("OPENAI_API_KEY={API_KEY}\nOPENAI_BASE_URL={}\n", server.base_url()),
    )
    .unwrap();
    let output = planwright(home.path(), work.path(), &[], &["run", "plan.yaml", "--format", "json"]).await;
    assert_exit(&output, 0);
    assert_eq!(server.requests()[0].header("authorization"), Some(format!("Bearer {API_KEY}").as_str()));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn without_a_model_the_ai_step_fails_saying_how_to_set_one_up() {
    let (home, work) = (tempfile::tempdir().unwrap(), tempfile::tempdir().unwrap());
    std::fs::write(work.path().join("plan.yaml"), PLAN).unwrap();
    let output = planwright(home.path(), work.path(), &[], &["run", "plan.yaml", "--format", "json"]).await;
    assert_exit(&output, 1);
    let outcome: Value = serde_json::from_slice(&output.stdout).unwrap();
    let reason = outcome["reason"].as_str().unwrap();
    assert!(reason.contains("no model configured") && reason.contains("planwright doctor"), "{reason}");
}

/// A loopback server that answers every request with what it was sent in `Authorization`, as a
/// careless API echoing its headers would.
async fn echo_server() -> String {
    use tokio::io::{AsyncReadExt, AsyncWriteExt};
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let base = format!("http://{}", listener.local_addr().unwrap());
    tokio::spawn(async move {
        while let Ok((mut stream, _)) = listener.accept().await {
            let mut request = Vec::new();
            let mut buffer = [0u8; 4096];
            while !request.windows(4).any(|w| w == b"\r\n\r\n") {
                match stream.read(&mut buffer).await {
                    Ok(0) | Err(_) => break,
                    Ok(n) => request.extend_from_slice(&buffer[..n]),
                }
            }
            let text = String::from_utf8_lossy(&request);
            let sent = text
                .lines()
                .find_map(|line| line.strip_prefix("authorization: ").or_else(|| line.strip_prefix("Authorization: ")))
                .unwrap_or("")
                .to_owned();
            let body = json!({"you_sent": sent, "note": format!("token {sent} accepted")}).to_string();
            let answer = format!(
                "HTTP/1.1 200 OK\r\ncontent-type: application/json\r\ncontent-length: {}\r\nconnection: close\r\n\r\n{body}",
                body.len()
            );
            let _ = stream.write_all(answer.as_bytes()).await;
        }
    });
    base
}

/// A secret that comes back inside a node's outputs (a server echoing the `Authorization` header
/// it was sent) is masked before anything else sees it: the stored outputs, the file a later node
/// writes, and what a later node sends to a model all hold `***`.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_secret_echoed_in_outputs_is_masked_in_the_store_a_report_and_what_a_model_is_sent() {
    const CANARY: &str = "canary-5be2-echoed-by-a-server";
    let echo = echo_server().await;
    let server = ReplayServer::start(Script::new().always(Match::chat(), Reply::json(&json!({"verdict": "ok"})))).await;
    let (home, work) = (tempfile::tempdir().unwrap(), tempfile::tempdir().unwrap());
    let plan = format!(
        "apiVersion: planwright/v1\nid: echoed\nversion: 1.0.0\nsecrets: [API_TOKEN]\ngraph:\n  - id: call\n    block: external.api.http\n    in: {{url: \"{echo}/status\", headers: {{Authorization: \"Bearer ${{secrets.API_TOKEN}}\"}}}}\n    out: {{response_json: echoed}}\n  - id: save\n    block: report.write\n    in: {{data: \"${{call.echoed}}\", format: json, path: out/echoed.json}}\n  - id: judge\n    block: ai.process_llm\n    in:\n      evidence_data: {{answer: \"${{call.echoed}}\"}}\n      instruction: Did the service accept the request?\n      output_schema: {{type: object, required: [verdict], properties: {{verdict: {{type: string}}}}}}\n    out: {{results: verdict}}\n"
    );
    std::fs::write(work.path().join("plan.yaml"), plan).unwrap();
    let base = server.base_url();
    let env =
        [("OPENAI_API_KEY", "sk-test"), ("OPENAI_BASE_URL", base.as_str()), ("PLANWRIGHT_SECRET_API_TOKEN", CANARY)];
    let output = planwright(home.path(), work.path(), &env, &["run", "plan.yaml", "--format", "json"]).await;
    assert_exit(&output, 0);

    let report = std::fs::read_to_string(work.path().join("out/echoed.json")).unwrap();
    assert!(report.contains("Bearer ***") && !report.contains(CANARY), "the report: {report}");
    let sent: String = server.requests().iter().map(|r| r.body.clone()).collect();
    assert!(sent.contains("Bearer ***"), "the model saw the echo, masked: {sent}");
    assert!(!sent.contains(CANARY), "the secret reached the model server");
    let mut seen = format!("{}{}", String::from_utf8_lossy(&output.stdout), String::from_utf8_lossy(&output.stderr));
    for file in files_under(home.path()) {
        seen.push_str(&String::from_utf8_lossy(&std::fs::read(&file).unwrap()));
    }
    assert!(seen.contains("***"), "the record holds the masked echo");
    assert!(!seen.contains(CANARY), "the secret reached the run record (runs.db node_outputs or the log)");
}
