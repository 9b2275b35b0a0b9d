//! What the studio answers when a request cannot be done as asked, at the API function the
//! Tauri commands and the HTTP server both call: a document name too long for the file system
//! is a bad request naming the rule (not a disk error), and a run resumed twice at once is
//! resumed once, the other calls a conflict, as is resuming a run another process records.

use std::time::Duration;

use crate::support;

use planwright_api::{
    ApiMessage, DataHome, DocumentUpload, ErrorCode, EventsAfter, PlanChoice, StartRunRequest, Studio,
};
use planwright_runs::EventKind;
use support::studio;

fn upload(name: &str, content: &[u8]) -> DocumentUpload {
    use base64::Engine as _;
    DocumentUpload { name: name.to_owned(), content_base64: base64::engine::general_purpose::STANDARD.encode(content) }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_document_name_over_255_bytes_is_a_bad_request_naming_the_rule() {
    let dir = tempfile::tempdir().unwrap();
    let studio = studio(dir.path());
    // 90 characters, 270 bytes in UTF-8: under the 120 characters, over what a file system keeps.
    let name = format!("{}.txt", "経費精算規程".repeat(15));
    assert!(name.chars().count() < 100 && name.len() > 255);
    let error = studio.upload_document(upload(&name, b"rules")).await.unwrap_err();
    assert_eq!((error.code, error.status()), (ErrorCode::InvalidInput, 400), "{error:?}");
    assert!(error.message.contains("bytes") && error.message.contains("UTF-8"), "{}", error.message);
    assert!(error.hint.as_deref().is_some_and(|h| h.contains("shorter")), "{error:?}");
    assert!(matches!(error.said.as_deref(), Some(ApiMessage::DocumentNameTooLong { .. })), "{error:?}");
    let documents = dir.path().join("workspace/documents");
    assert!(std::fs::read_dir(&documents).map_or(true, |mut d| d.next().is_none()), "nothing was written");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_document_name_at_the_limit_is_kept_and_so_is_a_second_of_that_name() {
    let dir = tempfile::tempdir().unwrap();
    let studio = studio(dir.path());
    // The documented limit, 200 bytes: room for `_2` and the atomic write's temporary name.
    let name = format!("{}a.txt", "規".repeat(65));
    assert_eq!(name.len(), 200);
    let first = studio.upload_document(upload(&name, b"one")).await.unwrap();
    let second = studio.upload_document(upload(&name, b"two")).await.unwrap();
    assert_eq!(first.name, name);
    assert_eq!(second.name, format!("{}a_2.txt", "規".repeat(65)));
    let too_long = format!("{}ab.txt", "規".repeat(65));
    assert_eq!(studio.upload_document(upload(&too_long, b"x")).await.unwrap_err().status(), 400);
}

const ASKS: &str = "apiVersion: planwright/v1\nid: asking\nversion: 1.0.0\ngraph:\n  - id: ask\n    block: ui.interactive_input\n    in:\n      mode: collect\n      message: Which month?\n      requirements:\n        - {id: month, type: text, label: Month, required: true}\n    out: {collected_data: data}\n";

/// Waits for the first event of `run_id` that `wanted` accepts.
async fn until(studio: &Studio, run_id: &str, wanted: impl Fn(&EventKind) -> bool) {
    let mut events = studio.run_events(run_id.to_owned(), EventsAfter { after: 0 }).await.unwrap();
    tokio::time::timeout(Duration::from_secs(20), async {
        while let Some(event) = events.next().await {
            if wanted(&event.kind) {
                return;
            }
        }
        panic!("the events of {run_id} ended first");
    })
    .await
    .expect("the event came");
}

/// A run of [`ASKS`] started, asked its question and stopped: one to resume.
async fn stopped_run(studio: &Studio) -> String {
    let request = StartRunRequest { plan: PlanChoice::Text { text: ASKS.to_owned() }, vars: Default::default() };
    let run_id = studio.start_run(request).await.unwrap().run_id;
    until(studio, &run_id, |e| matches!(e, EventKind::InputRequested { .. })).await;
    studio.stop_run(run_id.clone()).await.unwrap();
    until(studio, &run_id, |e| matches!(e, EventKind::RunFinished { .. })).await;
    run_id
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn racing_resumes_of_one_run_resume_it_once_and_the_others_are_conflicts() {
    let dir = tempfile::tempdir().unwrap();
    let studio = studio(dir.path());
    let run_id = stopped_run(&studio).await;
    let calls = (0..6).map(|_| {
        let studio = studio.clone();
        let run_id = run_id.clone();
        tokio::spawn(async move { studio.resume_run(run_id).await })
    });
    let answers: Vec<_> = futures::future::join_all(calls).await.into_iter().map(Result::unwrap).collect();
    let won: Vec<_> = answers.iter().filter_map(|a| a.as_ref().ok()).collect();
    assert_eq!(won.len(), 1, "{answers:?}");
    assert_eq!(won[0].run_id, run_id);
    for lost in answers.iter().filter_map(|a| a.as_ref().err()) {
        assert_eq!((lost.code, lost.status()), (ErrorCode::Conflict, 409), "{lost:?}");
        assert!(lost.message.contains(&run_id), "{lost:?}");
    }
    studio.stop_run(run_id).await.unwrap();
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn resuming_a_run_another_process_records_is_a_conflict() {
    let dir = tempfile::tempdir().unwrap();
    let studio = studio(dir.path());
    let run_id = stopped_run(&studio).await;
    // Another process (the command line's `planwright resume`) holding the run's lock.
    let other = planwright_runs::RunStore::open(&DataHome::at(dir.path().join("home"))).unwrap();
    let recording = other.resume(&run_id).unwrap();
    let error = studio.resume_run(run_id.clone()).await.unwrap_err();
    assert_eq!((error.code, error.status()), (ErrorCode::Conflict, 409), "{error:?}");
    assert!(error.message.contains("still being recorded"), "{error:?}");
    drop(recording);
    let resumed = studio.resume_run(run_id.clone()).await.unwrap();
    assert_eq!(resumed.run_id, run_id, "once it is free, the run is resumed");
    studio.stop_run(run_id).await.unwrap();

    // A run the other process is recording from its start, not yet finished: running there.
    let begun = planwright_runs::new_run_id();
    let _recording = other.begin(&begun, "asking", ASKS, None).unwrap();
    let error = studio.resume_run(begun.clone()).await.unwrap_err();
    assert_eq!((error.code, error.status()), (ErrorCode::Conflict, 409), "{error:?}");
    assert!(error.message.contains(&begun), "{error:?}");
}
