//! Launching, attaching, and a browser that goes away.

use crate::common;

use std::io::{BufRead, BufReader};
use std::process::{Command, Stdio};
use std::time::Duration;

use common::{open, FixtureSites};
use planwright_browser::{
    find_chromium, ActOptions, BrowserError, BrowserSession, DialogPolicy, LaunchOptions, SnapshotOptions,
};

#[tokio::test]
async fn a_missing_browser_names_the_package() {
    let options = LaunchOptions { executable: Some("/nonexistent/chromium".into()), ..LaunchOptions::default() };
    let error = BrowserSession::launch(options).await.err().expect("no browser there");
    assert!(matches!(error, BrowserError::NotInstalled { .. }), "{error}");
    assert!(
        error.to_string().contains("apt-get install chromium") && error.to_string().contains("/nonexistent/chromium")
    );
}

#[tokio::test]
async fn attaches_to_a_running_browser_by_its_websocket_or_http_address() {
    let sites = FixtureSites::start().await.unwrap();
    let profile = tempfile::tempdir().unwrap();
    let mut chromium = Command::new(find_chromium().unwrap())
        .args([
            "--headless",
            "--no-sandbox",
            "--disable-background-networking",
            "--disable-component-update",
            "--disable-quic",
        ])
        .args(["--no-first-run", "--remote-debugging-port=0"])
        .arg(format!("--user-data-dir={}", profile.path().display()))
        // Not the test's own stdout: Chromium's helpers, still exiting after the kill below,
        // would hold the test runner's pipe open (nextest reports the test as leaky).
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let stderr = BufReader::new(chromium.stderr.take().unwrap());
    let address = stderr
        .lines()
        .map_while(Result::ok)
        .find_map(|line| line.split_once("DevTools listening on ").map(|(_, url)| url.trim().to_owned()))
        .expect("Chromium prints its DevTools address");

    let bad = BrowserSession::attach("localhost:9", DialogPolicy::default()).await.err().unwrap();
    assert!(bad.to_string().contains("not a DevTools address"), "{bad}");

    let session = BrowserSession::attach(&address, DialogPolicy::default()).await.unwrap();
    session.navigate(&sites.url("login.html"), &ActOptions::default()).await.unwrap();
    let snapshot = session.snapshot(&SnapshotOptions::default()).await.unwrap();
    assert!(snapshot.text.contains("button \"Log in\""), "{}", snapshot.text);
    session.close().await;
    // The attached browser keeps running after the session ends.
    assert!(chromium.try_wait().unwrap().is_none());

    // By its HTTP address too: `/json/version` names the WebSocket.
    let http = address.replacen("ws://", "http://", 1);
    let http = &http[..http.find("/devtools/").unwrap()];
    let session = BrowserSession::attach(http, DialogPolicy::default()).await.unwrap();
    assert_eq!(session.evaluate("1 + 1").await.unwrap(), 2);
    session.close().await;
    let nowhere = BrowserSession::attach("http://127.0.0.1:9", DialogPolicy::default()).await.err().unwrap();
    assert!(nowhere.to_string().contains("cannot attach to http://127.0.0.1:9"), "{nowhere}");
    chromium.kill().unwrap();
    chromium.wait().unwrap();
}

#[tokio::test]
async fn a_browser_that_dies_is_reported_not_waited_for() {
    let sites = FixtureSites::start().await.unwrap();
    let session = open(&sites, "login.html").await;
    let profile = session.profile_dir().unwrap().display().to_string();
    let killed = Command::new("pkill").args(["-KILL", "-f", &profile]).status().unwrap();
    assert!(killed.success());
    // Bounded by the test, not by the driver: the answer must come long before.
    let answer = tokio::time::timeout(Duration::from_secs(20), session.snapshot(&SnapshotOptions::default())).await;
    let error = answer.expect("no hang").unwrap_err();
    assert!(matches!(error, BrowserError::Closed(_)), "{error}");
    assert!(session.closed_reason().is_some());
    let again = tokio::time::timeout(
        Duration::from_secs(5),
        session.click(&common::role("button", "Log in"), &ActOptions::default()),
    )
    .await;
    assert!(matches!(again.expect("no hang"), Err(BrowserError::Closed(_))));
}

#[tokio::test]
async fn an_unreachable_address_is_a_navigation_error() {
    let session = BrowserSession::launch(LaunchOptions::default()).await.unwrap();
    let closed_port = std::net::TcpListener::bind("127.0.0.1:0").unwrap().local_addr().unwrap().port();
    let error =
        session.navigate(&format!("http://127.0.0.1:{closed_port}/"), &ActOptions::default()).await.unwrap_err();
    assert!(
        matches!(&error, BrowserError::Navigation { reason, .. } if reason.contains("ERR_CONNECTION_REFUSED")),
        "{error}"
    );
    session.close().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_page_whose_certificate_nothing_trusts_is_not_opened() {
    let certs = tempfile::tempdir().unwrap();
    let site = planwright_sites::SelfSignedSite::start(certs.path()).unwrap();
    let session = BrowserSession::launch(LaunchOptions::default()).await.unwrap();
    let opened = session.navigate(&site.url(), &ActOptions::default()).await;
    let text = session.evaluate("document.body ? document.body.innerText : ''").await;
    session.close().await;
    match opened {
        Err(BrowserError::Navigation { reason, .. }) => assert!(reason.contains("ERR_CERT"), "{reason}"),
        other => panic!("a page behind an untrusted certificate was opened: {other:?}"),
    }
    let text = text.unwrap();
    assert!(!text.as_str().unwrap_or_default().contains("s_server"), "the server's page was shown: {text}");
}
