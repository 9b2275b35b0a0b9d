//! Accessibility snapshots of the fixture pages: format, refs, modes, scope, budget.

use crate::common;

use common::{open, role, FixtureSites};
use planwright_browser::{ActOptions, Locator, SnapshotMode, SnapshotOptions};

#[tokio::test]
async fn interactive_snapshots_show_controls_in_their_context_with_refs() {
    let sites = FixtureSites::start().await.unwrap();
    let session = open(&sites, "login.html").await;
    let snapshot = session.snapshot(&SnapshotOptions::default()).await.unwrap();
    let text = &snapshot.text;
    assert!(
        text.starts_with("- banner:\n") && text.contains("\n- main:\n"),
        "landmarks give context, without refs:\n{text}"
    );
    assert!(text.contains("  - heading \"Sign in to Acme Portal\"\n"), "headings give context, without refs:\n{text}");
    for line in [
        "textbox \"Username\"",
        "textbox \"Password\"",
        "textbox \"One-time code\"",
        "checkbox \"Remember me\"",
        "button \"Log in\"",
    ] {
        assert!(text.contains(&format!("- {line} [ref=e")), "{line} missing:\n{text}");
    }
    assert!(!text.contains("- text:"), "no loose text in interactive mode:\n{text}");
    assert_eq!(snapshot.elements.iter().filter(|e| e.role == "textbox").count(), 3);
    assert!(snapshot.tokens > 0 && snapshot.truncated == 0);

    let full = session.snapshot(&SnapshotOptions { mode: SnapshotMode::Full, ..Default::default() }).await.unwrap();
    assert!(full.text.contains("- text:") || full.text.contains("- paragraph"), "{}", full.text);
    assert!(full.text.contains("- heading \"Sign in to Acme Portal\" [level=1] [ref=e"), "{}", full.text);
    assert!(full.tokens > snapshot.tokens);
    session.close().await;
}

#[tokio::test]
async fn refs_stay_while_role_and_name_do_and_act_as_locators() {
    let sites = FixtureSites::start().await.unwrap();
    let session = open(&sites, "login.html").await;
    let first = session.snapshot(&SnapshotOptions::default()).await.unwrap();
    session.fill(&role("textbox", "Username"), "ada", &ActOptions::default()).await.unwrap();
    let second = session.snapshot(&SnapshotOptions::default()).await.unwrap();
    let pairs = |s: &planwright_browser::Snapshot| {
        s.elements.iter().map(|e| (e.reference.clone(), e.role.clone(), e.name.clone())).collect::<Vec<_>>()
    };
    assert_eq!(pairs(&first), pairs(&second), "typing a value keeps every ref");
    assert!(second.text.contains("textbox \"Username\"") && second.text.contains(": ada"), "{}", second.text);

    let username = first.elements.iter().find(|e| e.name == "Username").unwrap();
    let located = session.resolve(&Locator::Ref { reference: username.reference.clone() }).await.unwrap();
    assert_eq!(located.len(), 1);
    assert_eq!(located[0].name, "Username");
    assert!(session.resolve(&Locator::Ref { reference: "e9999".into() }).await.unwrap().is_empty());

    // Going to another page and back gives new DOM nodes; same role and name keep their refs.
    session.navigate(&sites.url("index.html"), &ActOptions::default()).await.unwrap();
    session.snapshot(&SnapshotOptions::default()).await.unwrap();
    session.navigate(&sites.url("login.html"), &ActOptions::default()).await.unwrap();
    let again = session.snapshot(&SnapshotOptions::default()).await.unwrap();
    let log_in =
        |s: &planwright_browser::Snapshot| s.elements.iter().find(|e| e.name == "Log in").unwrap().reference.clone();
    assert_eq!(log_in(&first), log_in(&again));
    session.close().await;
}

#[tokio::test]
async fn scope_and_token_budget() {
    let sites = FixtureSites::start().await.unwrap();
    let session = open(&sites, "products.html").await;
    let whole = session.snapshot(&SnapshotOptions::default()).await.unwrap();
    let card = Locator::TestId { id: "product-desk-lamp".into() };
    let scoped = session.snapshot(&SnapshotOptions { scope: Some(card), ..Default::default() }).await.unwrap();
    assert!(scoped.elements.len() < whole.elements.len() && !scoped.elements.is_empty(), "{}", scoped.text);
    assert!(scoped.elements.iter().all(|e| whole.elements.contains(e)), "a scoped snapshot keeps the refs");

    let budget = whole.tokens / 3;
    let cut = session.snapshot(&SnapshotOptions { token_budget: Some(budget), ..Default::default() }).await.unwrap();
    assert!(cut.truncated > 0, "{}", cut.text);
    assert!(cut.tokens <= budget + 40, "{} > {budget}", cut.tokens);
    assert!(cut.text.trim_end().ends_with("raise its token budget"), "{}", cut.text);
    assert!(cut.text.contains(&format!("{} more elements", cut.truncated)), "{}", cut.text);
    assert_eq!(cut.elements.len() + cut.truncated, whole.elements.len());
    session.close().await;
}
