//! What a page changes on its own — a rotating banner, a clock — as opposed to what an action
//! changed, against `assets/sites/effects/rotating-banner.html`.

use crate::common;

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

/// The slide shown, one of two shown in turn.
fn is_slide(line: &str) -> bool {
    line == "Gift cards for every occasion" || line == "Members save 10%"
}

/// The score inside the frame "Scores".
fn is_score(line: &str) -> bool {
    line == "Last reward: 0.50" || line == "Last reward: -1.00"
}

/// What changes on its own now, once it holds the banner's line, the slide's, the clock's and the
/// frame's score (all change on their own all the time, so this only waits for enough of it to be
/// seen), within a generous bound.
async fn restless_once_all_are_seen(session: &BrowserSession) -> Vec<String> {
    let deadline = Instant::now() + Duration::from_secs(40);
    loop {
        let lines = session.changing_on_its_own(now_ms()).await.unwrap();
        let seen = |is: fn(&str) -> bool| lines.iter().any(|l| is(l));
        if seen(|l| OFFERS.contains(&l)) && seen(is_slide) && seen(is_clock) && seen(is_score) {
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
    // Only the banner's, the slide's, the clock's and the frame's score's lines: the clock's is its
    // sentence's whole line, as the page's text has it.
    assert!(
        lines.iter().all(|l| OFFERS.contains(&l.as_str()) || is_slide(l) || is_clock(l) || is_score(l)),
        "{lines:?}"
    );
    assert!(!lines.iter().any(|l| l == "Deals of the week"), "{lines:?}");

    // After a button that does nothing, what kept changing before it is still told apart (the
    // banner's and the slides' turns are slower: this much is certain to have been seen).
    let report = session.click(&role("button", "Apply coupon"), &options).await.unwrap();
    let lines = session.changing_on_its_own(report.acted_at_ms).await.unwrap();
    assert!(lines.iter().any(|l| is_clock(l)) && lines.iter().any(|l| is_score(l)), "{lines:?}");
    assert!(
        lines.iter().all(|l| OFFERS.contains(&l.as_str()) || is_slide(l) || is_clock(l) || is_score(l)),
        "{lines:?}"
    );
    // "Check stock" shows "Checking stock…" and, 2 s later from a timer the click set,
    // "In stock: 4"; "Reserve one" shows "Reserving…" and, once its request is answered 2.5 s
    // later, "Reserved: N". Each twice, so that each line changes twice, each time as the click's
    // doing.
    for round in 1..=2 {
        let reserved = format!("Reserved: {round}");
        for (button, shown) in [("Check stock", "In stock: 4"), ("Reserve one", reserved.as_str())] {
            let report = session.click(&role("button", button), &options).await.unwrap();
            shows(&session, shown).await;
            let lines = session.changing_on_its_own(now_ms()).await.unwrap();
            assert!(!lines.iter().any(|l| l.contains("stock") || l.contains("Reserv")), "{lines:?}");
            let before_the_click = session.changing_on_its_own(report.acted_at_ms).await.unwrap();
            assert!(
                !before_the_click.iter().any(|l| l.contains("stock") || l.contains("Reserv")),
                "{before_the_click:?}"
            );
        }
    }
    assert_eq!(sites.events("stock_checked").len(), 2);
    assert_eq!(sites.events("reserved").len(), 2);

    // Once the banner and the clock are seen changing on their own again, the stock's line is
    // still not among them.
    let lines = restless_once_all_are_seen(&session).await;
    assert!(
        !lines.iter().any(|l| l.contains("stock") || l.contains("Reserv") || l == "Deals of the week"),
        "{lines:?}"
    );
    session.close().await;
}

#[tokio::test]
async fn a_banner_that_turns_just_after_a_click_on_a_page_just_opened_is_the_pages_own_doing() {
    let sites = FixtureSites::start().await.unwrap();
    let session = open(&sites, "effects/rotating-banner.html").await;
    // At once: the banner has not turned twice yet, and its next turn comes within the 1.5 s
    // after the click that an input's doing is looked for in.
    let banner = session.frame_texts().await.unwrap()[0].text.lines().find(|l| OFFERS.contains(l)).map(str::to_owned);
    session.click(&role("button", "Apply coupon"), &ActOptions::default()).await.unwrap();
    let deadline = Instant::now() + Duration::from_secs(20);
    let turned = loop {
        let text = session.frame_texts().await.unwrap()[0].text.clone();
        let shown = text.lines().find(|l| OFFERS.contains(l)).map(str::to_owned);
        if shown.is_some() && shown != banner {
            break shown.unwrap_or_default();
        }
        assert!(Instant::now() < deadline, "the banner never turned: {text}");
        tokio::time::sleep(Duration::from_millis(50)).await;
    };
    // Its interval was set by the page, not by the click: its turn is the page's own.
    let lines = session.changing_on_its_own(now_ms()).await.unwrap();
    assert!(
        lines.iter().any(|l| OFFERS.contains(&l.as_str())),
        "the banner turned to {turned:?}, not the click's doing: {lines:?}"
    );
    session.close().await;
}
