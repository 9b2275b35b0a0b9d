//! What pages do on their own: dialogs, new tabs, iframes, shadow roots, cookie banners that
//! come late.

use crate::common;

use std::time::Duration;

use common::{open, role, FixtureSites};
use planwright_browser::{ActOptions, BrowserSession, DialogPolicy, LaunchOptions, Locator, WaitCondition};

#[tokio::test]
async fn dialogs_are_answered_by_policy_and_reported() {
    let sites = FixtureSites::start().await.unwrap();
    let policy =
        DialogPolicy { accept_confirm: false, prompt_text: Some("Budget 2027".into()), accept_beforeunload: true };
    let session = BrowserSession::launch(LaunchOptions { dialogs: policy, ..LaunchOptions::default() }).await.unwrap();
    let options = ActOptions::default();
    session.navigate(&sites.url("confirm.html"), &options).await.unwrap();

    let report = session.click(&role("button", "Delete item"), &options).await.unwrap();
    assert_eq!(report.dialogs.len(), 1, "{report:?}");
    assert_eq!(report.dialogs[0].kind, "confirm");
    assert!(report.dialogs[0].message.contains("Quarterly budget") && !report.dialogs[0].accepted);
    assert_eq!(sites.recorded("delete").await[0]["detail"]["confirmed"], false);

    let report = session.click(&role("button", "Rename"), &options).await.unwrap();
    assert_eq!(report.dialogs[0].kind, "prompt");
    assert_eq!(sites.recorded("prompt").await[0]["detail"]["answer"], "Budget 2027");

    let report = session.click(&role("button", "Save"), &options).await.unwrap();
    assert_eq!(report.dialogs[0].kind, "alert");
    assert_eq!(sites.recorded("alert").await.len(), 1);

    // A page that asks before it is left is left (the policy accepts).
    session.set_checked(&role("checkbox", "Warn me before leaving"), true, &options).await.unwrap();
    sites.recorded("leave_warning").await;
    let report = session.click(&role("link", "Leave this page"), &options).await.unwrap();
    assert!(report.url.ends_with("index.html"), "{report:?}");
    assert_eq!(session.dialogs().len(), 4, "{:?}", session.dialogs());
    session.close().await;
}

#[tokio::test]
async fn new_tabs_opened_by_the_page_are_followed() {
    let sites = FixtureSites::start().await.unwrap();
    let session = open(&sites, "newtab.html").await;
    let report = session.click(&role("link", "user guide"), &ActOptions::default()).await.unwrap();
    assert!(report.opened_tab && report.navigated, "{report:?}");
    assert!(report.url.contains("opened.html?via=link"), "{report:?}");
    assert_eq!(sites.recorded("opened").await[0]["detail"]["via"], "link");
    // The snapshot is now of the new tab.
    let snapshot = session.snapshot(&Default::default()).await.unwrap();
    assert!(snapshot.url.contains("opened.html"), "{}", snapshot.url);

    let session = open(&sites, "newtab.html").await;
    let report = session.click(&role("button", "Open report window"), &ActOptions::default()).await.unwrap();
    assert!(report.opened_tab && report.url.contains("via=window.open"), "{report:?}");
    session.close().await;
}

#[tokio::test]
async fn late_cookie_banners_in_the_page_a_shadow_root_and_an_iframe() {
    let sites = FixtureSites::start().await.unwrap();
    for page in ["cookies.html", "cookies-shadow.html", "cookies-iframe.html"] {
        sites.reset();
        let session = open(&sites, page).await;
        let accept = role("button", "Accept all");
        session.wait_for(&WaitCondition::Element(accept.clone()), Duration::from_secs(5)).await.unwrap();
        let report = session.click(&accept, &ActOptions::default()).await.unwrap();
        let cookies = sites.recorded("cookies").await;
        assert_eq!(cookies.len(), 1, "{page}: {cookies:?}");
        assert_eq!(cookies[0]["detail"]["choice"], "accept", "{page}");
        assert!(report.disappeared.iter().any(|e| e.contains("Accept all")), "{page}: {report:?}");
        session.close().await;
    }
}

#[tokio::test]
async fn shadow_dom_widgets_by_role_text_and_test_id() {
    let sites = FixtureSites::start().await.unwrap();
    let session = open(&sites, "shadow.html").await;
    let options = ActOptions::default();
    session.fill(&role("textbox", "Email address"), "lin@example.com", &options).await.unwrap();
    assert_eq!(session.resolve(&Locator::Text { text: "sign up".into(), exact: false }).await.unwrap().len(), 1);
    session.click(&Locator::Text { text: "Sign up".into(), exact: true }, &options).await.unwrap();
    let newsletter = sites.recorded("newsletter").await;
    assert_eq!(newsletter[0]["detail"]["email"], "lin@example.com", "{newsletter:?}");
    session.close().await;

    let session = open(&sites, "products.html").await;
    let cards = session.resolve(&Locator::TestId { id: "product-webcam-hd".into() }).await.unwrap();
    assert_eq!(cards.len(), 1);
    assert!(session.resolve(&Locator::TestId { id: "product-nothing".into() }).await.unwrap().is_empty());
    session.close().await;
}

#[tokio::test]
async fn a_page_that_says_it_is_loading_is_loading_until_its_list_arrives() {
    let sites = FixtureSites::start().await.unwrap();
    let session = open(&sites, "objectives/portal/statements.html").await;
    // "Loading statements…" (role=status) is up until the list comes, 1.5 s after the page.
    assert!(session.shows_loading().await.unwrap());
    session.wait_for(&WaitCondition::Text("ST-2026-10".into()), Duration::from_secs(10)).await.unwrap();
    assert!(!session.shows_loading().await.unwrap(), "the loading text is gone once the list is there");
    // A page with no loading text, busy region or progress bar is not loading.
    session.navigate(&sites.url("login.html"), &ActOptions::default()).await.unwrap();
    assert!(!session.shows_loading().await.unwrap());
    session.close().await;
}
