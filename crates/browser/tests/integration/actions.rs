//! Actions against the fixture pages in real headless Chromium, checked by what the site server
//! recorded rather than by what the driver believes.

use crate::common;

use std::time::Duration;

use common::{open, quick, role, FixtureSites};
use planwright_browser::{ActOptions, BrowserError, Locator, WaitCondition};

#[tokio::test]
async fn login_form_fields_by_label_placeholder_and_labelledby() {
    let sites = FixtureSites::start().await.unwrap();
    let session = open(&sites, "login.html").await;
    let options = ActOptions::default();
    session.fill(&role("textbox", "Username"), "ada", &options).await.unwrap();
    session.fill(&role("textbox", "Password"), "correct horse", &options).await.unwrap();
    session.fill(&role("textbox", "One-time code"), "123456", &options).await.unwrap();
    session.set_checked(&role("checkbox", "Remember me"), true, &options).await.unwrap();
    // Filling again replaces the text rather than adding to it.
    session.fill(&role("textbox", "Username"), "ada.lovelace", &options).await.unwrap();
    // The reported address keeps its fragment, as location.href does.
    let anchor = session.click(&role("link", "Forgot your password?"), &options).await.unwrap();
    assert!(anchor.url.ends_with("login.html#forgot"), "{anchor:?}");
    let report = session.click(&role("button", "Log in"), &options).await.unwrap();
    assert!(report.navigated, "{report:?}");
    assert!(report.url.contains("welcome.html"), "{report:?}");
    assert!(report.appeared.iter().any(|e| e.starts_with("link")) || !report.disappeared.is_empty(), "{report:?}");

    let login = sites.recorded("login").await;
    assert_eq!(login.len(), 1, "{login:?}");
    let detail = &login[0]["detail"];
    assert_eq!(detail["username"], "ada.lovelace");
    assert_eq!(detail["password_length"], 13);
    assert_eq!(detail["remember"], true);
    assert_eq!(detail["otp"], "123456");
    session.close().await;
}

#[tokio::test]
async fn duplicates_are_refused_with_every_candidate_listed() {
    let sites = FixtureSites::start().await.unwrap();
    let session = open(&sites, "products.html").await;
    let add = role("button", "Add to cart");
    let found = session.resolve(&add).await.unwrap();
    assert!(found.len() > 1, "{found:?}");
    let error = session.click(&add, &quick()).await.unwrap_err();
    let BrowserError::Ambiguous { candidates, .. } = &error else { panic!("{error}") };
    assert_eq!(candidates.len(), found.len());
    assert!(candidates.iter().all(|c| c.role == "button" && !c.selector.is_empty()), "{candidates:?}");
    assert!(error.to_string().contains("matches"), "{error}");
    assert!(sites.events("add_to_cart").is_empty(), "nothing may be clicked");

    // A test id picks one card; a snapshot scoped to it gives its own button's ref.
    let card = Locator::TestId { id: "product-desk-lamp".into() };
    assert_eq!(session.resolve(&card).await.unwrap().len(), 1);
    let scoped = session
        .snapshot(&planwright_browser::SnapshotOptions { scope: Some(card), ..Default::default() })
        .await
        .unwrap();
    let button = scoped.elements.iter().find(|e| e.name == "Add to cart").expect("the card's button");
    session.click(&Locator::Ref { reference: button.reference.clone() }, &ActOptions::default()).await.unwrap();
    let added = sites.recorded("add_to_cart").await;
    assert_eq!(added.len(), 1);
    assert!(added[0]["detail"]["product"].as_str().unwrap().to_lowercase().contains("lamp"), "{added:?}");

    // Exact matching is whole-string and case-sensitive.
    assert!(session
        .resolve(&Locator::Role { role: "button".into(), name: Some("add to cart".into()), exact: true })
        .await
        .unwrap()
        .is_empty());
    assert_eq!(
        session
            .resolve(&Locator::Role { role: "button".into(), name: Some("Buy now".into()), exact: true })
            .await
            .unwrap()
            .len(),
        1
    );
    session.close().await;
}

#[tokio::test]
async fn a_backdrop_over_the_target_is_named_and_nothing_is_clicked_through_it() {
    let sites = FixtureSites::start().await.unwrap();
    let session = open(&sites, "modal.html").await;
    session.wait_for(&WaitCondition::Element(role("button", "Close ad")), Duration::from_secs(5)).await.unwrap();
    let error = session.click(&role("button", "Subscribe"), &quick()).await.unwrap_err();
    let BrowserError::Covered { covering, .. } = &error else { panic!("{error}") };
    assert_eq!(covering.role, "dialog", "{covering:?}");
    assert!(covering.name.contains("Spring sale"), "{covering:?}");
    assert!(covering.selector.contains("div"), "{covering:?}");
    assert!(sites.events("subscribe").is_empty() && sites.events("ad_backdrop_click").is_empty());

    session.click(&role("button", "Close ad"), &ActOptions::default()).await.unwrap();
    let report = session.click(&role("button", "Subscribe"), &ActOptions::default()).await.unwrap();
    assert_eq!(sites.recorded("subscribe").await.len(), 1);
    assert!(report.timing.total_ms > 0.0 && report.timing.wait_ms >= 0.0, "{report:?}");
    session.close().await;
}

#[tokio::test]
async fn a_disabled_submit_waits_until_the_form_is_valid() {
    let sites = FixtureSites::start().await.unwrap();
    let session = open(&sites, "signup.html").await;
    let create = role("button", "Create account");
    let error = session.click(&create, &quick()).await.unwrap_err();
    assert!(matches!(&error, BrowserError::NotActionable { reason, .. } if reason.contains("disabled")), "{error}");

    let options = ActOptions::default();
    session.fill(&role("textbox", "Full name"), "Grace Hopper", &options).await.unwrap();
    session.fill(&role("textbox", "Work email"), "grace@example.com", &options).await.unwrap();
    // Inputs that take no typing get their value and their input and change events.
    session.fill(&role("textbox", "Start date"), "2026-12-01", &options).await.unwrap();
    session.fill(&role("textbox", "Workspace color"), "#ff8800", &options).await.unwrap();
    session.fill(&role("slider", "Team size"), "12", &options).await.unwrap();
    let bad = session.fill(&role("textbox", "Start date"), "next Tuesday", &quick()).await.unwrap_err();
    assert!(bad.to_string().contains("not a valid date") && !bad.to_string().contains("next Tuesday"), "{bad}");
    session.fill(&role("textbox", "Start date"), "2026-12-01", &options).await.unwrap();
    session.click(&create, &options).await.unwrap();
    let signup = sites.recorded("signup").await;
    assert_eq!(signup.len(), 1, "{signup:?}");
    let detail = &signup[0]["detail"];
    assert_eq!(detail["name"], "Grace Hopper", "{detail}");
    assert_eq!(detail["start_date"], "2026-12-01", "{detail}");
    assert_eq!(detail["color"], "#ff8800", "{detail}");
    assert_eq!(detail["team_size"].to_string().trim_matches('"'), "12", "{detail}");
    session.close().await;
}

#[tokio::test]
async fn a_table_that_renders_after_a_click_is_there_for_the_next_step() {
    let sites = FixtureSites::start().await.unwrap();
    let session = open(&sites, "table.html").await;
    // Before loading, one placeholder cell spans the four columns.
    let empty = session.extract_table(None, &ActOptions::default()).await.unwrap();
    assert_eq!(empty.rows.len(), 1, "{empty:?}");
    assert_eq!(empty.rows[0]["Invoice"], "No invoices loaded yet.");
    assert_eq!(empty.rows[0]["Status"], "", "a spanned column is empty: {empty:?}");
    let report = session.click(&role("button", "Load invoices"), &ActOptions::default()).await.unwrap();
    // The server answers 400 ms after the click; settling waited for it.
    assert!(report.timing.settle_ms >= 300.0, "{report:?}");
    let table = session.extract_table(None, &ActOptions::default()).await.unwrap();
    assert_eq!(table.headers, ["Invoice", "Customer", "Amount", "Status"]);
    assert!(table.rows.len() >= 5, "{table:?}");
    assert!(table.rows.iter().all(|r| r["Invoice"].as_str().is_some_and(|i| !i.is_empty())), "{table:?}");

    session.click(&role("button", "Next"), &ActOptions::default()).await.unwrap();
    let second = session.extract_table(None, &ActOptions::default()).await.unwrap();
    assert_ne!(second.rows[0], table.rows[0], "page 2 has other rows");
    let pages: Vec<_> = sites.recorded("table_page").await.iter().map(|e| e["detail"]["page"].clone()).collect();
    assert!(pages.contains(&serde_json::json!(2)), "{pages:?}");

    let japanese = open(&sites, "invoices-ja.html").await;
    let rows = japanese.extract_table(None, &ActOptions::default()).await.unwrap();
    assert!(rows.headers.iter().any(|h| h == "金額"), "{rows:?}");
    assert!(rows.rows.iter().any(|r| r["金額"].as_str().is_some_and(|a| a.starts_with('¥'))), "{rows:?}");
    // The footer's total is not a data row.
    assert!(rows.rows.iter().all(|r| r["請求書番号"] != "合計" && r.contains_key("状態")), "{rows:?}");
    assert_eq!(rows.rows.len(), 6, "{rows:?}");
    session.close().await;
    japanese.close().await;
}

#[tokio::test]
async fn an_element_rendered_after_two_seconds_is_waited_for() {
    let sites = FixtureSites::start().await.unwrap();
    let session = open(&sites, "delayed.html").await;
    let download = role("button", "Download report");
    assert!(session.resolve(&download).await.unwrap().is_empty(), "not there yet");
    let report = session.click(&download, &ActOptions::default()).await.unwrap();
    assert!(report.timing.wait_ms >= 500.0, "{report:?}");
    assert_eq!(sites.recorded("download").await.len(), 1);
    session.close().await;
}

#[tokio::test]
async fn checkout_across_pages_with_select_radio_checkbox_and_a_cross_origin_card_frame() {
    let sites = FixtureSites::start().await.unwrap();
    let session = open(&sites, "checkout/cart.html").await;
    let options = ActOptions::default();
    session.click(&role("button", "Proceed to checkout"), &options).await.unwrap();
    session.select_option(&role("combobox", "Country"), &["Japan".to_owned()], &options).await.unwrap();
    let missing =
        session.select_option(&role("combobox", "Country"), &["Atlantis".to_owned()], &quick()).await.unwrap_err();
    assert!(missing.to_string().contains("Atlantis") && missing.to_string().contains("Japan"), "{missing}");
    session.set_checked(&role("radio", "Express"), true, &options).await.unwrap();
    session.set_checked(&role("checkbox", "I agree"), true, &options).await.unwrap();
    let report = session.click(&role("button", "Continue"), &options).await.unwrap();
    assert!(report.url.contains("payment"), "{report:?}");
    let shipping = sites.recorded("shipping").await;
    assert_eq!(shipping[0]["detail"]["speed"], "express", "{shipping:?}");
    assert_eq!(shipping[0]["detail"]["terms"], true, "{shipping:?}");
    assert!(shipping[0]["detail"]["country"].as_str().is_some_and(|c| !c.is_empty()));

    // The card form lives on the other origin, in an iframe.
    session.fill(&role("textbox", "Card number"), "4242 4242 4242 4242", &options).await.unwrap();
    session.fill(&role("textbox", "Expiry date"), "12/30", &options).await.unwrap();
    session.fill(&role("textbox", "Security code"), "123", &options).await.unwrap();
    session.click(&role("button", "Pay"), &options).await.unwrap();
    let payment = sites.recorded("payment").await;
    assert_eq!(payment.len(), 1, "{payment:?}");
    assert_eq!(payment[0]["origin"], "other");
    assert_eq!(payment[0]["detail"]["card_last4"], "4242");
    session.close().await;
}

#[tokio::test]
async fn search_with_an_autocomplete_listbox_and_keys() {
    let sites = FixtureSites::start().await.unwrap();
    let session = open(&sites, "search.html").await;
    let options = ActOptions::default();
    session.fill(&role("combobox", "Search products"), "lam", &options).await.unwrap();
    session
        .wait_for(
            &WaitCondition::Element(Locator::Role { role: "option".into(), name: None, exact: false }),
            Duration::from_secs(5),
        )
        .await
        .unwrap();
    let suggestions =
        session.resolve(&Locator::Role { role: "option".into(), name: None, exact: false }).await.unwrap();
    assert!(!suggestions.is_empty());
    session.press(Some(&role("combobox", "Search products")), "ArrowDown", &options).await.unwrap();
    session.press(None, "Enter", &options).await.unwrap();
    let search = sites.recorded("search").await;
    assert_eq!(search.len(), 1, "{search:?}");
    assert_eq!(search[0]["detail"]["query"], suggestions[0].name.as_str(), "{search:?}");
    assert!(session.press(None, "Hyper+Q", &options).await.is_err());
    session.close().await;
}

#[tokio::test]
async fn hover_scroll_read_text_and_wait_for_text_and_url() {
    let sites = FixtureSites::start().await.unwrap();
    let session = open(&sites, "delayed.html").await;
    let waited =
        session.wait_for(&WaitCondition::Text("Download report".into()), Duration::from_secs(5)).await.unwrap();
    assert!(waited >= Duration::from_millis(500), "the button comes 2 s after load: {waited:?}");
    let timeout = session.wait_for(&WaitCondition::Text("never on this page".into()), Duration::from_millis(300)).await;
    assert!(matches!(timeout, Err(BrowserError::WaitTimedOut { .. })), "{timeout:?}");

    session.navigate(&sites.url("products.html"), &ActOptions::default()).await.unwrap();
    session.hover(&role("button", "Buy now"), &ActOptions::default()).await.unwrap();
    let hovered = session
        .evaluate("[...document.querySelectorAll(':hover')].some(e => e.textContent.trim() === 'Buy now')")
        .await
        .unwrap();
    assert_eq!(hovered, serde_json::json!(true), "the mouse is over the button");
    assert!(sites.events("buy_now").is_empty(), "hovering clicks nothing");

    session.evaluate("document.body.style.minHeight = '4000px'").await.unwrap();
    session.scroll(None, 0.0, 900.0, &ActOptions::default()).await.unwrap();
    let scrolled = session.evaluate("window.scrollY").await.unwrap();
    assert!(scrolled.as_f64().unwrap() > 0.0, "the wheel scrolled the page: {scrolled}");
    // An element out of view is scrolled back into view to be clicked.
    session.click(&role("button", "Buy now"), &ActOptions::default()).await.unwrap();
    assert_eq!(sites.recorded("buy_now").await.len(), 1);

    let heading =
        session.extract_text(Some(&role("heading", "Desk essentials")), &ActOptions::default()).await.unwrap();
    assert_eq!(heading, "Desk essentials");
    assert!(session.extract_text(None, &ActOptions::default()).await.unwrap().contains("Wireless mouse"));

    session.navigate(&sites.url("login.html"), &ActOptions::default()).await.unwrap();
    session.fill(&role("textbox", "Username"), "ada", &ActOptions::default()).await.unwrap();
    session.fill(&role("textbox", "Password"), "pw", &ActOptions::default()).await.unwrap();
    session.press(Some(&role("textbox", "Password")), "Enter", &ActOptions::default()).await.unwrap();
    session.wait_for(&WaitCondition::UrlContains("welcome.html".into()), Duration::from_secs(5)).await.unwrap();
    session.close().await;
}

#[tokio::test]
async fn a_switch_that_saves_before_it_turns_is_checked_once_its_request_answers() {
    let sites = FixtureSites::start().await.unwrap();
    // Each switch lives in a shadow root and sets aria-checked only after its save request.
    let session = open(&sites, "objectives/ledgerly/settings.html").await;
    let options = ActOptions::default();
    session.set_checked(&role("switch", "Email notifications"), true, &options).await.unwrap();
    session.set_checked(&role("switch", "Weekly summary"), false, &options).await.unwrap();
    let settings = sites.recorded("setting").await;
    let changes: Vec<_> = settings.iter().map(|s| (s["detail"]["name"].clone(), s["detail"]["on"].clone())).collect();
    assert_eq!(changes, [("email".into(), true.into()), ("weekly_summary".into(), false.into())], "{settings:?}");
    session.close().await;
}

/// A page whose clock or score ticks on its own is still once nothing else changes: a number
/// ticking in a text is not activity (else a check on such a page would wait its whole bound).
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_page_with_a_ticking_countdown_is_still_once_nothing_else_changes() {
    let sites = FixtureSites::start().await.unwrap();
    let session = open(&sites, "objectives/drills/focus.html?instant=1").await;
    let started = std::time::Instant::now();
    let mut longest = Duration::ZERO;
    while started.elapsed() < Duration::from_secs(8) && longest < Duration::from_millis(1500) {
        longest = longest.max(session.still_for().await.unwrap());
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    let ticking = session.evaluate("document.getElementById('time-left').textContent").await.unwrap();
    assert!(ticking.as_str().is_some_and(|t| t.ends_with("/ 120sec")), "the panel is there: {ticking}");
    assert!(longest >= Duration::from_millis(1500), "the page was never still for long: {longest:?}");
    session.close().await;
}
