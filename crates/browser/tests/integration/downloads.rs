//! Elements told apart by what surrounds them, and files the page downloads, against the fixture
//! portal in real headless Chromium; outcomes read from the site server's record.

use crate::common;

use common::{open, role, FixtureSites};
use planwright_browser::{ActOptions, BrowserError, Locator};

fn download_near(month: &str) -> Locator {
    Locator::Near { target: Box::new(role("link", "Download")), text: month.into() }
}

#[tokio::test]
async fn a_link_of_one_name_is_found_by_its_row_and_its_download_is_saved_under_its_name() {
    let sites = FixtureSites::start().await.unwrap();
    let session = open(&sites, "objectives/portal/statements.html?instant=1").await;
    let downloads = tempfile::tempdir().unwrap();
    session.save_downloads_to(downloads.path()).await.unwrap();

    // Six links named "Download": the plain locator is ambiguous, the row's month is not.
    assert_eq!(session.resolve(&role("link", "Download")).await.unwrap().len(), 6);
    let october = session.resolve(&download_near("October 2026")).await.unwrap();
    assert_eq!(october.len(), 1, "{october:?}");
    let surroundings = session.surroundings(&october[0]).await.unwrap();
    assert!(surroundings.contains("October 2026") && surroundings.contains("ST-2026-10"), "{surroundings}");
    assert!(session.resolve(&download_near("March 2019")).await.unwrap().is_empty());
    assert_eq!(
        download_near("October 2026").to_string(),
        "getByRole(\"link\", { name: \"Download\" }).near(\"October 2026\")"
    );

    let before = session.download_count();
    let report = session.click(&download_near("October 2026"), &ActOptions::default()).await.unwrap();
    let saved = if report.downloads.is_empty() {
        session.downloads_after(before, std::time::Duration::from_secs(10)).await.unwrap()
    } else {
        report.downloads.clone()
    };
    assert_eq!(saved.len(), 1, "{report:?}");
    assert_eq!(saved[0].file_name, "statement-2026-10.csv");
    assert_eq!(saved[0].path, std::path::absolute(downloads.path().join("statement-2026-10.csv")).unwrap());
    let text = std::fs::read_to_string(&saved[0].path).unwrap();
    assert!(text.lines().count() > 1 && saved[0].bytes == text.len() as u64, "{text}");
    let recorded = sites.recorded("download").await;
    assert_eq!(recorded.len(), 1);
    assert_eq!(recorded[0]["detail"]["file"], "statement-2026-10.csv");

    // The same file again gets a name of its own, never over the first.
    let before = session.download_count();
    let report = session.click(&download_near("October 2026"), &ActOptions::default()).await.unwrap();
    let again = if report.downloads.is_empty() {
        session.downloads_after(before, std::time::Duration::from_secs(10)).await.unwrap()
    } else {
        report.downloads
    };
    assert_eq!(again[0].file_name, "statement-2026-10 (2).csv");
    session.close().await;
}

#[tokio::test]
async fn a_near_locator_that_still_matches_several_is_ambiguous() {
    let sites = FixtureSites::start().await.unwrap();
    let session = open(&sites, "objectives/portal/statements.html?instant=1").await;
    // Every row holds "2026": the surroundings do not tell them apart.
    let error = session.click(&download_near("2026"), &common::quick()).await.unwrap_err();
    assert!(matches!(error, BrowserError::Ambiguous { ref candidates, .. } if candidates.len() == 6), "{error}");
    session.close().await;
}
