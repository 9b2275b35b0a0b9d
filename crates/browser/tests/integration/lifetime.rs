//! A launched Chromium's life is tied to the launching process, not to the thread that started
//! it; a launch removes the profile folders of processes that have ended and keeps those of
//! processes still running. (That a killed `planwright run` takes its browser along is
//! crates/cli/tests/integration/cli_browser_lifetime.rs.)

use std::path::PathBuf;
use std::process::{Command, Stdio};

use planwright_browser::{ActOptions, BrowserSession, LaunchOptions};
use planwright_sites::FixtureSites;

/// `planwright-chromium-<owner>-<rest>` in the temporary folder, made with a file inside.
fn profile_of(owner: u32, rest: &str) -> PathBuf {
    let folder = std::env::temp_dir().join(format!("planwright-chromium-{owner}-{rest}"));
    std::fs::create_dir_all(folder.join("Default")).unwrap();
    std::fs::write(folder.join("Default/Preferences"), "{}").unwrap();
    folder
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_launch_removes_the_profiles_of_ended_processes_and_keeps_those_of_running_ones() {
    let mut ended = Command::new("true").spawn().unwrap();
    let dead = ended.id();
    ended.wait().unwrap();
    // A concurrent run: a process of ours that is still running.
    let mut running = Command::new("sleep").arg("120").stdin(Stdio::null()).spawn().unwrap();
    let test = std::process::id();

    let stale = profile_of(dead, &format!("stale-{test}"));
    let in_use = profile_of(running.id(), &format!("in-use-{test}"));
    // A link named like a stale profile is not followed: what it points at stays.
    let elsewhere = tempfile::tempdir().unwrap();
    std::fs::write(elsewhere.path().join("keep.txt"), "kept").unwrap();
    let link = std::env::temp_dir().join(format!("planwright-chromium-{dead}-link-{test}"));
    std::os::unix::fs::symlink(elsewhere.path(), &link).unwrap();

    let session = BrowserSession::launch(LaunchOptions::default()).await.expect("Chromium launches");
    let own = session.profile_dir().unwrap().to_owned();
    let (stale_left, in_use_kept, link_target_kept) =
        (stale.exists(), in_use.join("Default/Preferences").is_file(), elsewhere.path().join("keep.txt").is_file());
    session.close().await;
    drop(session);
    running.kill().unwrap();
    running.wait().unwrap();
    let _ = std::fs::remove_dir_all(&in_use);
    let _ = std::fs::remove_file(&link);

    assert!(!stale_left, "the profile of ended process {dead} was left: {}", stale.display());
    assert!(in_use_kept, "the profile of running process {} was removed", running.id());
    assert!(link_target_kept, "a link's target was removed");
    let name = own.file_name().unwrap().to_string_lossy().into_owned();
    assert!(name.starts_with(&format!("planwright-chromium-{test}-")), "{name} does not name its owner");
    assert!(!own.exists(), "the session's own profile outlived it");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_browser_outlives_the_thread_that_launched_it() {
    let sites = FixtureSites::start().await.unwrap();
    let runtime = tokio::runtime::Handle::current();
    // The kernel's parent-death signal follows the thread that forked: a launch from a thread
    // that then ends must not take the browser along.
    let session = std::thread::spawn(move || runtime.block_on(BrowserSession::launch(LaunchOptions::default())))
        .join()
        .unwrap()
        .expect("Chromium launches");
    let opened = session.navigate(&sites.url("login.html"), &ActOptions::default()).await;
    let title = session.evaluate("document.title").await;
    session.close().await;
    opened.expect("the browser still runs after its launching thread ended");
    assert!(title.unwrap().as_str().is_some_and(|t| !t.is_empty()));
}

#[tokio::test]
async fn a_browser_that_ends_at_once_is_a_launch_error_naming_it() {
    let options = LaunchOptions { executable: Some("/bin/false".into()), ..LaunchOptions::default() };
    let error = BrowserSession::launch(options).await.err().expect("/bin/false is no browser");
    let message = error.to_string();
    assert!(message.contains("/bin/false ended before it was ready"), "{message}");
}

/// The processes of the Chromium that uses `profile`, as their command lines.
fn processes_of(profile: &std::path::Path) -> Vec<String> {
    let needle = format!("--user-data-dir={}", profile.display());
    let Ok(entries) = std::fs::read_dir("/proc") else { return Vec::new() };
    entries
        .flatten()
        .filter_map(|entry| std::fs::read(entry.path().join("cmdline")).ok())
        .map(|raw| String::from_utf8_lossy(&raw).replace('\0', " "))
        .filter(|cmdline| cmdline.contains(&needle))
        .collect()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_launched_browser_starts_no_renderer_for_a_popup_it_never_shows() {
    let sites = FixtureSites::start().await.unwrap();
    let session = BrowserSession::launch(LaunchOptions::default()).await.expect("Chromium launches");
    session.navigate(&sites.url("login.html"), &ActOptions::default()).await.expect("the page opens");
    let profile = session.profile_dir().unwrap().to_owned();
    // Chromium preloads its browser-interface pages (the omnibox's popup) a moment after a window
    // opens: look for a while, as long as the page's own renderer is there to be seen.
    let mut seen = Vec::new();
    for _ in 0..30 {
        tokio::time::sleep(std::time::Duration::from_millis(100)).await;
        seen = processes_of(&profile);
        if seen.iter().any(|p| p.contains("--top-chrome-webui")) {
            break;
        }
    }
    session.close().await;
    assert!(seen.iter().any(|p| p.contains("--type=renderer")), "the page's renderer was not found: {seen:#?}");
    let interface: Vec<_> = seen.iter().filter(|p| p.contains("--top-chrome-webui")).collect();
    assert!(interface.is_empty(), "a renderer for the browser's own interface runs: {interface:#?}");
}
