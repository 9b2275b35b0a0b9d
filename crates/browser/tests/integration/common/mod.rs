//! Shared by the browser tests: the fixture sites and a session on one of their pages.

#![allow(dead_code)]

use std::time::Duration;

use planwright_browser::{ActOptions, BrowserSession, LaunchOptions, Locator};
pub use planwright_sites::FixtureSites;

/// A launched headless Chromium on `page` of the sites.
pub async fn open(sites: &FixtureSites, page: &str) -> BrowserSession {
    let session =
        BrowserSession::launch(LaunchOptions::default()).await.expect("Chromium launches (apt-get install chromium)");
    session.navigate(&sites.url(page), &ActOptions::default()).await.expect("the fixture page loads");
    session
}

pub fn role(role: &str, name: &str) -> Locator {
    Locator::Role { role: role.into(), name: Some(name.into()), exact: false }
}

/// Short waits for tests that expect a refusal.
pub fn quick() -> ActOptions {
    ActOptions { timeout: Duration::from_millis(700), settle: Duration::from_secs(5) }
}
