//! What an action caused, wherever it shows: the requests it started and their answers, what
//! the page announced during it (even if gone since), the fields it left invalid, and the text
//! of every frame — against the pages of `assets/sites/effects/`, checked against the site
//! server's record.

use crate::common;

use common::{open, role, FixtureSites};
use planwright_browser::{ActOptions, AnnouncementKind, RequestKind};

#[tokio::test]
async fn a_form_in_a_cross_origin_frame_reports_its_post_and_the_frame_shows_thank_you() {
    let sites = FixtureSites::start().await.unwrap();
    let session = open(&sites, "effects/contact.html").await;
    let options = ActOptions::default();
    // Opening the page loads two documents, the page's and the other origin's frame, each a GET.
    let opened = session.navigate(&sites.url("effects/contact.html"), &options).await.unwrap();
    let documents: Vec<_> = opened
        .requests
        .iter()
        .filter(|r| r.kind == RequestKind::Document)
        .map(|r| (r.method.as_str(), r.url.as_str(), r.status))
        .collect();
    let frame = sites.other_url("effects/fragments/contact-form.html");
    let page = sites.url("effects/contact.html");
    assert_eq!(documents, [("GET", page.as_str(), Some(200)), ("GET", frame.as_str(), Some(200))], "{opened:#?}");
    assert!(!opened.started_write(), "{opened:#?}");
    assert!(opened.requests.iter().all(|r| !r.url.ends_with(".css")), "style sheets are left out: {opened:#?}");
    session.fill(&role("textbox", "Your name"), "Ada", &options).await.unwrap();
    session.fill(&role("textbox", "Message"), "Where is my invoice?", &options).await.unwrap();

    let report = session.click(&role("button", "Send message"), &options).await.unwrap();
    let contact = sites.recorded("contact").await;
    assert_eq!(contact.len(), 1, "{contact:?}");
    assert_eq!(contact[0]["origin"], "other");
    let posts: Vec<_> = report.requests.iter().filter(|r| r.url.contains("/api/answer")).collect();
    assert_eq!(posts.len(), 1, "{report:#?}");
    assert_eq!((posts[0].method.as_str(), posts[0].status, posts[0].kind), ("POST", Some(200), RequestKind::Fetch));
    assert!(posts[0].url.starts_with(&sites.other_url("")), "{posts:?}");
    assert!(report.started_write(), "{report:#?}");
    assert!(!report.navigated, "{report:#?}");
    // The thank-you is announced by the frame's status region…
    let thanks = report.announced.iter().find(|a| a.text.contains("Thank you, Ada")).expect("announced");
    assert_eq!(thanks.kind, AnnouncementKind::Status);
    assert!(thanks.frame_url.contains("effects/fragments/contact-form.html"), "{thanks:?}");

    // …and stays in the frame's text, which the page's own text never shows.
    let texts = session.frame_texts().await.unwrap();
    assert_eq!(texts.len(), 2, "{texts:#?}");
    assert!(texts[0].url.ends_with("effects/contact.html") && !texts[0].text.contains("Thank you"), "{texts:#?}");
    assert!(texts[1].url.starts_with(&sites.other_url("")), "{texts:#?}");
    assert!(texts[1].text.contains("Thank you, Ada. Your message was sent."), "{texts:#?}");
    // The form it replaced is hidden, so its labels are not in the frame's text.
    assert!(!texts[1].text.contains("Your name"), "{texts:#?}");
    session.close().await;
}

#[tokio::test]
async fn a_toast_gone_before_the_save_is_answered_is_still_announced() {
    let sites = FixtureSites::start().await.unwrap();
    let session = open(&sites, "effects/settings.html").await;
    let options = ActOptions::default();
    let report = session.click(&role("button", "Save settings"), &options).await.unwrap();

    // The toast showed from 300 ms to 1.8 s; the save was answered at 2.5 s, which settling
    // waited for, past the 2 s after which other requests count as background traffic.
    let saved = report.announced.iter().find(|a| a.text == "Settings saved").expect("the toast was announced");
    assert_eq!(saved.kind, AnnouncementKind::Status);
    assert!(saved.frame_url.ends_with("effects/settings.html"), "{saved:?}");
    let save: Vec<_> = report.requests.iter().filter(|r| r.url.contains("/api/answer")).collect();
    assert_eq!(save.len(), 1, "{report:#?}");
    assert_eq!(save[0].status, Some(200), "{report:#?}");
    assert!(!report.settle_timed_out, "{report:#?}");
    assert_eq!(sites.events("settings_saved").len(), 1);
    let texts = session.frame_texts().await.unwrap();
    assert!(!texts[0].text.contains("Settings saved"), "the toast is gone by now: {texts:#?}");
    // What was announced stays readable from the action's start, and nothing came since.
    let again = session.announced_since(report.acted_at_ms).await.unwrap();
    assert_eq!(again, report.announced);
    let later = session.click(&role("checkbox", "Email notifications"), &options).await.unwrap();
    assert!(later.announced.is_empty() && !later.started_write(), "{later:#?}");
    session.close().await;
}

#[tokio::test]
async fn a_declined_payment_reports_its_status_and_the_alert_but_never_the_card_number() {
    let sites = FixtureSites::start().await.unwrap();
    let session = open(&sites, "effects/payment.html").await;
    let options = ActOptions::default();
    // A canary for what the form sends: the request's body reaches the server, never the report.
    let canary = "4000 0000 0000 0002";
    session.fill(&role("textbox", "Card number"), canary, &options).await.unwrap();
    let report = session.click(&role("button", "Pay €120.00"), &options).await.unwrap();

    let payment = sites.recorded("payment").await;
    assert_eq!(payment.len(), 1);
    assert_eq!(payment[0]["detail"]["card"], canary, "the server had the card number");
    let pay: Vec<_> = report.requests.iter().filter(|r| r.url.contains("/api/answer")).collect();
    assert_eq!(pay.len(), 1, "{report:#?}");
    assert_eq!(pay[0].status, Some(402));
    assert!(pay[0].refused() && pay[0].is_write(), "{pay:?}");
    let alert = report.announced.iter().find(|a| a.kind == AnnouncementKind::Alert).expect("an alert");
    assert_eq!(alert.text, "Card declined. Try another card.");

    let written = serde_json::to_string(&report).unwrap();
    for form in [canary, "4000%200000", "4000+0000", "40000000"] {
        assert!(!written.contains(form), "the report holds the card number ({form}): {written}");
    }
    session.close().await;
}

#[tokio::test]
async fn fields_marked_invalid_are_reported_with_their_messages() {
    let sites = FixtureSites::start().await.unwrap();
    let session = open(&sites, "effects/signup.html").await;
    let options = ActOptions::default();
    session.fill(&role("textbox", "Email"), "ada.example.com", &options).await.unwrap();
    session.fill(&role("textbox", "Password"), "short", &options).await.unwrap();
    let report = session.click(&role("button", "Create account"), &options).await.unwrap();

    let fields: Vec<_> =
        report.invalid_fields.iter().map(|f| (f.role.as_str(), f.name.as_str(), f.message.as_str())).collect();
    assert_eq!(
        fields,
        [
            ("textbox", "Email", "Enter an email address like name@example.com"),
            ("textbox", "Password", "Use at least 12 characters."),
        ],
        "{report:#?}"
    );
    // The fields that turned invalid were announced as errors too.
    let alerts: Vec<_> =
        report.announced.iter().filter(|a| a.kind == AnnouncementKind::Alert).map(|a| a.text.as_str()).collect();
    assert!(alerts.contains(&"Enter an email address like name@example.com"), "{report:#?}");
    assert!(report.requests.is_empty() && !report.started_write(), "nothing was sent: {report:#?}");
    assert!(sites.events("signup").is_empty());

    // Put right, nothing is invalid any more.
    session.fill(&role("textbox", "Email"), "ada@example.com", &options).await.unwrap();
    session.fill(&role("textbox", "Password"), "correct horse battery", &options).await.unwrap();
    let report = session.click(&role("button", "Create account"), &options).await.unwrap();
    assert!(report.invalid_fields.is_empty(), "{report:#?}");
    assert_eq!(sites.recorded("signup").await.len(), 1);
    session.close().await;
}

#[tokio::test]
async fn a_countdown_ticking_before_the_action_is_ongoing_and_a_status_written_again_is_news() {
    let sites = FixtureSites::start().await.unwrap();
    let session = open(&sites, "effects/timer.html").await;
    let options = ActOptions::default();
    // The countdown has ticked a few times before the first action.
    tokio::time::sleep(std::time::Duration::from_millis(700)).await;
    for round in 1..=2 {
        let report = session.click(&role("button", "Save draft"), &options).await.unwrap();
        assert_eq!(sites.recorded("draft_saved").await.len(), round);
        let saved: Vec<_> = report.announced.iter().filter(|a| a.text == "Draft saved").collect();
        assert_eq!(saved.len(), 1, "round {round}: {report:#?}");
        assert!(!saved[0].ongoing, "round {round}: the action's own news: {report:#?}");
        // Looked at again a moment later, from the action's start: the countdown's ticks are there,
        // and they were under way before.
        tokio::time::sleep(std::time::Duration::from_millis(500)).await;
        let since = session.announced_since(report.acted_at_ms).await.unwrap();
        let ticks: Vec<_> = since.iter().filter(|a| a.text.starts_with("Time left")).collect();
        assert!(!ticks.is_empty() && ticks.iter().all(|a| a.ongoing), "round {round}: {since:#?}");
        assert!(since.iter().any(|a| a.text == "Draft saved" && !a.ongoing), "round {round}: {since:#?}");
    }
    session.close().await;
}

#[tokio::test]
async fn every_write_of_a_burst_keeps_its_answer_whatever_order_devtools_reports_it_in() {
    // Twelve keepalive posts at once: Chromium reports each as sent, answered (204), then
    // "failed" (net::ERR_ABORTED, canceled), and these reports arrive together.
    let sites = FixtureSites::start().await.unwrap();
    let session = open(&sites, "effects/approve-all.html").await;
    let options = ActOptions::default();
    for round in 0..3 {
        session.navigate(&sites.url("effects/approve-all.html"), &options).await.unwrap();
        let report = session.click(&role("button", "Approve all"), &options).await.unwrap();
        let posts: Vec<_> = report.requests.iter().filter(|r| r.url.ends_with("/__record")).collect();
        assert_eq!(posts.len(), 12, "round {round}: {report:#?}");
        assert!(posts.iter().all(|r| r.status == Some(204)), "round {round}: every post was answered: {posts:#?}");
    }
    assert_eq!(sites.events("approved").len(), 36);
    session.close().await;
}
