//! What a page changes on its own — a rotating banner, a clock — as opposed to what an action
//! changed, against `assets/sites/effects/rotating-banner.html`.

mod common;

use std::time::{Duration, Instant, SystemTime, UNIX_EPOCH};

use common::{open, role, FixtureSites};
use planwright_browser::{ActOptions, BrowserSession};

const OFFERS: [&str; 3] = ["Spring sale: 20% off", "Free shipping over €50", "New arrivals every Monday"];

fn now_ms() -> u64 {
    SystemTime::now().duration_since(UNIX_EPOCH).unwrap().as_millis() as u64
}

/// "Local time: 12:00:03": the clock's whole line, although only its time is an element of its own.
fn is_clock(line: &str) -> bool {
    line.strip_prefix("Local time: ")
        .is_some_and(|time| time.len() == 8 && time.chars().all(|c| c.is_ascii_digit() || c == ':'))
}

/// The score inside the frame "Scores".
fn is_score(line: &str) -> bool {
    line == "Last reward: 0.50" || line == "Last reward: -1.00"
}

/// What changes on its own now, once it holds the banner's line, the clock's and the frame's score
/// (all change on their own all the time, so this only waits for enough of it to be seen), within
/// a generous bound.
async fn restless_once_all_are_seen(session: &BrowserSession) -> Vec<String> {
    let deadline = Instant::now() + Duration::from_secs(40);
    loop {
        let lines = session.changing_on_its_own(now_ms()).await.unwrap();
        let seen = |is: fn(&str) -> bool| lines.iter().any(|l| is(l));
        if seen(|l| OFFERS.contains(&l)) && seen(is_clock) && seen(is_score) {
            return lines;
        }
        assert!(
            Instant::now() < deadline,
            "the banner, the clock and the score were never seen changing on their own: {lines:?}"
        );
        tokio::time::sleep(Duration::from_millis(200)).await;
    }
}

/// Waits until the page's text has `line` as a line of its own.
async fn shows(session: &BrowserSession, line: &str) {
    let deadline = Instant::now() + Duration::from_secs(20);
    loop {
        let texts = session.frame_texts().await.unwrap();
        if texts.iter().any(|t| t.text.lines().any(|l| l.trim() == line)) {
            return;
        }
        assert!(Instant::now() < deadline, "the page never showed {line:?}: {texts:#?}");
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
}

#[tokio::test]
async fn a_rotating_banner_and_a_clock_change_on_their_own_and_what_a_click_brought_does_not() {
    let sites = FixtureSites::start().await.unwrap();
    let session = open(&sites, "effects/rotating-banner.html").await;
    let options = ActOptions::default();

    let lines = restless_once_all_are_seen(&session).await;
    // Only the banner's, the clock's and the frame's score's lines: the clock's is its sentence's
    // whole line, as the page's text has it.
    assert!(lines.iter().all(|l| OFFERS.contains(&l.as_str()) || is_clock(l) || is_score(l)), "{lines:?}");
    assert!(!lines.iter().any(|l| l == "Deals of the week"), "{lines:?}");

    // A button that does nothing leaves the page's own changes as they were.
    session.click(&role("button", "Apply coupon"), &options).await.unwrap();
    // "Check stock" shows "Checking stock…" and, 2 s later from a timer the click set,
    // "In stock: 4": twice, so that its line changes twice, each time as the click's doing.
    for _ in 0..2 {
        let report = session.click(&role("button", "Check stock"), &options).await.unwrap();
        shows(&session, "In stock: 4").await;
        let lines = session.changing_on_its_own(now_ms()).await.unwrap();
        assert!(!lines.iter().any(|l| l.contains("stock")), "{lines:?}");
        let before_the_click = session.changing_on_its_own(report.acted_at_ms).await.unwrap();
        assert!(!before_the_click.iter().any(|l| l.contains("stock")), "{before_the_click:?}");
    }
    assert_eq!(sites.events("stock_checked").len(), 2);

    // Once the banner and the clock are seen changing on their own again, the stock's line is
    // still not among them.
    let lines = restless_once_all_are_seen(&session).await;
    assert!(!lines.iter().any(|l| l.contains("stock") || l == "Deals of the week"), "{lines:?}");
    session.close().await;
}
