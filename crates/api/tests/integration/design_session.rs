//! The Design tab's session as the studio keeps it beside a draft: a credential the person typed
//! into the instruction, the chat or an answer is kept as its placeholder only, and its value is
//! in no file of the drafts folder, whatever else in the session repeats it.

use crate::support;

use planwright_api::{
    ChatAuthor, ChatMessage, DesignSession, GenerateRequest, GenerationEvent, PlanText, TemplateMode,
};
use serde_json::{json, Map};
use support::studio;

const PASSWORD: &str = "Hunter2!Canary";
const PIN: &str = "43219876";
const TOKEN: &str = "ghp_Canary0123456789";

/// Every file under `dir`, at any depth, with its bytes as text.
fn files_under(dir: &std::path::Path) -> Vec<(std::path::PathBuf, String)> {
    let mut files = Vec::new();
    for entry in std::fs::read_dir(dir).unwrap().flatten() {
        let path = entry.path();
        if path.is_dir() {
            files.extend(files_under(&path));
        } else {
            files.push((path.clone(), String::from_utf8_lossy(&std::fs::read(&path).unwrap()).into_owned()));
        }
    }
    files
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_credential_typed_into_the_design_session_is_in_no_file_of_the_drafts_folder() {
    let dir = tempfile::tempdir().unwrap();
    let studio = studio(dir.path());
    let instruction = format!(
        "Open https://tk-suzuki:{PASSWORD}@portal.example/statements. The portal password for tk-suzuki is \
         {PASSWORD}. Download the April statement."
    );
    // A generation as the Design tab runs one, offline.
    let started = studio
        .start_generation(GenerateRequest {
            instruction: instruction.clone(),
            documents: Vec::new(),
            templates: Vec::new(),
            apply_mode: TemplateMode::Compose,
            pinned: Vec::new(),
            answers: Map::new(),
        })
        .await
        .unwrap();
    let mut events = studio.generation_events(started.generation).await.unwrap();
    let mut generation = loop {
        match events.next().await.expect("the generation ends with its result") {
            GenerationEvent::Done { result } => break *result,
            GenerationEvent::Failed { error } => panic!("{error:?}"),
            GenerationEvent::Progress { .. } => {}
        }
    };
    // What the person sees of it may quote the value back (an older session's, a pasted line).
    generation.reasoning.push(format!("The person said {PASSWORD}"));
    let person = |text: String| ChatMessage { from: ChatAuthor::Person, text, requirement: None };
    let session = DesignSession {
        instruction: instruction.clone(),
        documents: Vec::new(),
        templates: Vec::new(),
        apply_mode: TemplateMode::Compose,
        pinned: Vec::new(),
        answers: Map::from_iter([
            ("kiosk".to_owned(), json!(format!("PIN {PIN}"))),
            ("headers".to_owned(), json!({"auth": [format!("token: {TOKEN}")]})),
        ]),
        at_run_time: Vec::new(),
        chat: vec![
            ChatMessage { from: ChatAuthor::Studio, text: "Which month?".into(), requirement: Some("month".into()) },
            person("April; and my password is still the one above".into()),
            person(format!("ログインIDはtk-suzuki、パスワードは{PASSWORD}です")),
            person(PASSWORD.to_owned()),
        ],
        generation: Some(generation),
    };
    studio.save_draft("statement.yaml".into(), PlanText { text: "id: statement\n".into() }).await.unwrap();
    let kept = studio.save_design_session("statement.yaml".into(), session).await.unwrap();

    let files = files_under(&dir.path().join("workspace/drafts"));
    assert!(files.iter().any(|(path, _)| path.ends_with("sessions/statement.yaml.json")), "{files:?}");
    for (path, text) in &files {
        for canary in [PASSWORD, PIN, TOKEN, "tk-suzuki"] {
            assert!(!text.contains(canary), "{canary:?} in {}:\n{text}", path.display());
        }
    }
    // What the studio answers and opens again is the session as kept, its placeholders in place.
    let opened = studio.open_draft("statement.yaml".into()).await.unwrap().session.expect("the session opens");
    for session in [&kept, &opened] {
        let text = serde_json::to_string(session).unwrap();
        for canary in [PASSWORD, PIN, TOKEN, "tk-suzuki"] {
            assert!(!text.contains(canary), "{canary:?} in {text}");
        }
        assert_eq!(
            session.instruction,
            "Open https://portal.example/statements ({{LOGIN_USER}} / {{LOGIN_PASSWORD}}). The portal password \
             for {{LOGIN_USER}} is {{LOGIN_PASSWORD}}. Download the April statement."
        );
        assert_eq!(session.chat[3].text, "{{LOGIN_PASSWORD}}", "the value typed alone is known from the instruction");
        assert_eq!(session.chat[1].text, "April; and my password is still the one above", "ordinary words stay");
        assert_eq!(session.answers["kiosk"], json!("PIN {{LOGIN_PASSWORD_2}}"));
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_credential_that_is_also_a_word_of_the_session_leaves_it_readable() {
    let dir = tempfile::tempdir().unwrap();
    let studio = studio(dir.path());
    // "person" is the value here, and also who wrote each chat line.
    let session = DesignSession {
        instruction: "Sign in with the password: person and download the invoices".into(),
        documents: Vec::new(),
        templates: Vec::new(),
        apply_mode: TemplateMode::Compose,
        pinned: Vec::new(),
        answers: Map::new(),
        at_run_time: Vec::new(),
        chat: vec![ChatMessage { from: ChatAuthor::Person, text: "the one above".into(), requirement: None }],
        generation: None,
    };
    studio.save_draft("words.yaml".into(), PlanText { text: "id: words\n".into() }).await.unwrap();
    let kept = studio.save_design_session("words.yaml".into(), session).await.unwrap();
    assert!(kept.instruction.contains("{{"), "the value in the instruction is a placeholder: {}", kept.instruction);
    assert!(matches!(kept.chat[0].from, ChatAuthor::Person));
}
