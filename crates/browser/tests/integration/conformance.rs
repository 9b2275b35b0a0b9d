//! Roles and names agree with Playwright's: every fixture page is snapshotted by this driver and
//! by playwright-core's `page.ariaSnapshot()` in the same Chromium, and their interactive
//! elements compared. Needs `npm ci --prefix tools/playwright` (the test scripts run it).

use crate::common;

use std::collections::HashMap;
use std::path::PathBuf;
use std::process::Command;

use common::FixtureSites;
use planwright_browser::{
    interactive_in_text, ActOptions, BrowserSession, LaunchOptions, SnapshotMode, SnapshotOptions,
};

fn tools() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../tools/playwright")
}

/// Playwright's snapshot of each URL.
fn playwright_snapshots(urls: &[String]) -> HashMap<String, String> {
    let tools = tools();
    assert!(
        tools.join("node_modules/playwright-core").is_dir(),
        "playwright-core is not installed: run `npm ci --prefix tools/playwright` (./scripts/test does)"
    );
    let output = Command::new("node").arg(tools.join("aria-snapshots.mjs")).args(urls).output().expect("node runs");
    assert!(output.status.success(), "aria-snapshots.mjs failed: {}", String::from_utf8_lossy(&output.stderr));
    serde_json::from_slice(&output.stdout).expect("a JSON object of snapshots")
}

/// Matches as multisets: how many of `ours` and `theirs` pair up.
fn matched(ours: &[(String, String)], theirs: &[(String, String)]) -> usize {
    let mut left: HashMap<&(String, String), usize> = HashMap::new();
    for element in theirs {
        *left.entry(element).or_default() += 1;
    }
    ours.iter()
        .filter(|element| match left.get_mut(element) {
            Some(count) if *count > 0 => {
                *count -= 1;
                true
            }
            _ => false,
        })
        .count()
}

#[tokio::test]
async fn roles_and_names_agree_with_playwright_on_every_fixture_page() {
    let sites = FixtureSites::start().await.unwrap();
    // The pages, and the fragments that show inside their frames or after their actions.
    let fragments =
        ["checkout/card.html", "cookie-frame.html", "welcome.html?name=Ada", "opened.html", "checkout/done.html"];
    let urls: Vec<String> = FixtureSites::pages()
        .into_iter()
        .chain(fragments)
        .map(|page| sites.url(&format!("{page}{}instant=1", if page.contains('?') { '&' } else { '?' })))
        .collect();
    // Playwright's browser and ours read the pages at the same time: each mostly waits for pages
    // to settle.
    let theirs = tokio::task::spawn_blocking({
        let urls = urls.clone();
        move || playwright_snapshots(&urls)
    });
    let session = BrowserSession::launch(LaunchOptions::default()).await.unwrap();
    let mut ours_by_url = Vec::new();
    for url in &urls {
        session.navigate(url, &ActOptions::default()).await.unwrap();
        let snapshot =
            session.snapshot(&SnapshotOptions { mode: SnapshotMode::Full, ..Default::default() }).await.unwrap();
        ours_by_url.push((url, interactive_in_text(&snapshot.text, false)));
    }
    session.close().await;
    let theirs = theirs.await.unwrap();

    let (mut total_ours, mut total_theirs, mut total_matched) = (0, 0, 0);
    let mut differences = Vec::new();
    for (url, ours) in ours_by_url {
        let reference = interactive_in_text(&theirs[url], false);
        let both = matched(&ours, &reference);
        if both != ours.len() || both != reference.len() {
            differences.push(format!("{url}\n  ours:       {ours:?}\n  playwright: {reference:?}"));
        }
        total_ours += ours.len();
        total_theirs += reference.len();
        total_matched += both;
    }

    assert!(total_theirs > 80, "the fixture pages have many interactive elements ({total_theirs})");
    // Agreement counts both what we miss and what we add: 2·matched / (ours + theirs).
    let agreement = 2.0 * total_matched as f64 / (total_ours + total_theirs) as f64;
    println!("agreement {agreement:.4} ({total_matched} matched, {total_ours} ours, {total_theirs} Playwright's)");
    assert!(agreement >= 0.98, "agreement {agreement:.4} < 0.98:\n{}", differences.join("\n"));
}
