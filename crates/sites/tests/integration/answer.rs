//! `POST /api/answer`, the generic back end of the task pages' forms, over real HTTP: the event
//! is recorded whatever the answer, the status and the error come back as asked, and bad
//! requests are refused with a message.

use std::time::Duration;

use planwright_sites::FixtureSites;

use crate::http;
use reqwest::StatusCode;
use serde_json::{json, Value};

async fn answer(url: String) -> (StatusCode, Value) {
    let event = json!({"page": "objectives/pay.html", "action": "payment", "detail": {"card_last4": "0002"}});
    let response = http::client().post(url).body(event.to_string()).send().await.unwrap();
    let status = response.status();
    (status, response.json().await.unwrap())
}

#[tokio::test]
async fn a_refusal_is_answered_with_its_status_and_error_and_still_recorded() {
    let sites = FixtureSites::start().await.unwrap();
    let declined = "Card declined. Try another card.";
    let (status, body) =
        answer(sites.url(&format!("api/answer?status=402&error={}", declined.replace(' ', "%20")))).await;
    assert_eq!(status, StatusCode::PAYMENT_REQUIRED);
    assert_eq!(body, json!({"error": declined}));
    let (status, body) = answer(sites.url("api/answer?status=500")).await;
    assert_eq!(status, StatusCode::INTERNAL_SERVER_ERROR);
    assert_eq!(body, json!({"error": "The server refused the request."}));
    let events = sites.events("payment");
    assert_eq!(events.len(), 2, "every attempt reached the server: {events:?}");
    assert_eq!(events[0]["detail"], json!({"card_last4": "0002"}));
}

#[tokio::test]
async fn an_accepted_request_echoes_its_event_after_the_delay_unless_instant() {
    let sites = FixtureSites::start().await.unwrap();
    let (status, body) = answer(sites.other_url("api/answer?delay_ms=300")).await;
    assert_eq!(status, StatusCode::OK);
    assert_eq!(body, json!({"ok": true, "action": "payment", "detail": {"card_last4": "0002"}}));
    assert_eq!(sites.events("payment")[0]["origin"], "other");
    // The event is there before the answer comes: a page that waits for the answer can read it.
    let slow = tokio::spawn(answer(sites.url("api/answer?delay_ms=10000")));
    tokio::time::timeout(Duration::from_secs(5), async {
        while sites.events("payment").len() < 2 {
            tokio::time::sleep(Duration::from_millis(20)).await;
        }
    })
    .await
    .expect("recorded before the slow answer");
    assert!(!slow.is_finished(), "the answer waits for its delay");
    slow.abort();
    let (status, _) =
        tokio::time::timeout(Duration::from_secs(5), answer(sites.url("api/answer?delay_ms=10000&instant=1")))
            .await
            .expect("instant=1 skips the delay");
    assert_eq!(status, StatusCode::OK);
}

#[tokio::test]
async fn bad_answers_are_refused_with_a_message_and_record_nothing() {
    let sites = FixtureSites::start().await.unwrap();
    for (query, message) in [
        ("status=99", "status must be an HTTP status from 200 to 599"),
        ("status=paid", "status must be an HTTP status from 200 to 599"),
        ("delay_ms=60000", "delay_ms must be a number from 0 to 10000"),
    ] {
        let (status, body) = answer(sites.url(&format!("api/answer?{query}"))).await;
        assert_eq!(status, StatusCode::BAD_REQUEST, "{query}");
        assert_eq!(body["error"], message, "{query}");
    }
    let response = http::client().post(sites.url("api/answer")).body("{}").send().await.unwrap();
    assert_eq!(response.status(), StatusCode::BAD_REQUEST);
    assert!(response.text().await.unwrap().contains("expected JSON {page, action, detail}"));
    assert_eq!(sites.state(), json!({"events": []}));
}
