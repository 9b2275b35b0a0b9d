//! The browser blocks in real headless Chromium against the fixture sites, checked by what the
//! site's server recorded and by the files written, not by the driver's account of it.

use std::path::Path;
use std::sync::Arc;
use std::time::{Duration, Instant};

use crate::human_support;

use human_support::{assert_declared_outputs, context, GivenSecrets, NoAnswer, Recorder};
use planwright_block::{Block, BlockContext, BlockError, Values};
use planwright_runs::{ArtifactKind, LogLevel, RunMessage};
use planwright_sites::{processes_with, FixtureSites};
use serde_json::{json, Value};

/// One run's worth of context: a work directory, a browser slot, and what the blocks logged.
struct Harness {
    ctx: BlockContext,
    events: Arc<Recorder>,
    dir: tempfile::TempDir,
}

impl Harness {
    fn new() -> Harness {
        let dir = tempfile::tempdir().unwrap();
        let events = Arc::new(Recorder::default());
        let ctx = context("step", dir.path(), events.clone(), Arc::new(NoAnswer));
        Harness { ctx, events, dir }
    }

    async fn run(&self, id: &str, inputs: Value) -> Result<Values, BlockError> {
        let Value::Object(inputs) = inputs else { panic!("inputs must be an object") };
        let block: Arc<dyn Block> =
            planwright_blocks::builtin().into_iter().find(|b| b.id() == id).unwrap_or_else(|| panic!("no block {id}"));
        let outputs = block.run(inputs, &self.ctx).await;
        if let Ok(outputs) = &outputs {
            assert_declared_outputs(id, outputs);
        }
        outputs
    }

    fn lines(&self) -> Vec<String> {
        self.events.logs.lock().unwrap().iter().map(|(_, line)| line.clone()).collect()
    }

    /// The fresh profile folders of the browsers started, from their launch lines.
    fn profiles(&self) -> Vec<String> {
        self.lines()
            .iter()
            .filter_map(|line| Some(line.split_once("fresh profile ")?.1.trim_end_matches(')').to_owned()))
            .collect()
    }
}

fn input_error(result: Result<Values, BlockError>) -> String {
    match result {
        Err(BlockError::Input(planwright_runs::Reason { text: message, .. })) => message,
        other => panic!("expected an input error, got {other:?}"),
    }
}

/// Width and height from a PNG's IHDR chunk, after checking the signature.
fn png_size(bytes: &[u8]) -> (u32, u32) {
    assert_eq!(&bytes[..8], b"\x89PNG\r\n\x1a\n", "a PNG signature");
    assert_eq!(&bytes[12..16], b"IHDR");
    let number = |at: usize| u32::from_be_bytes(bytes[at..at + 4].try_into().unwrap());
    (number(16), number(20))
}

/// `{{NAME}}` in what `browser.fill` types is the secret's value, filled only as it is typed.
#[tokio::test]
async fn a_placeholder_is_typed_as_its_secrets_value() {
    let sites = FixtureSites::start().await.unwrap();
    let mut h = Harness::new();
    h.ctx.secrets = GivenSecrets::of(&[("PORTAL_USER", "ada"), ("PORTAL_PASSWORD", "canary-pw-4711")]);
    h.run("browser.navigate", json!({"url": sites.url("login.html")})).await.unwrap();
    let username = json!({"role": "textbox", "name": "Username"});
    h.run("browser.fill", json!({"locator": username, "value": "{{PORTAL_USER}}"})).await.unwrap();
    let password = json!({"role": "textbox", "name": "Password", "exact": true});
    h.run("browser.fill", json!({"locator": password, "value": "{{ PORTAL_PASSWORD }}"})).await.unwrap();
    h.run("browser.click", json!({"locator": {"role": "button", "name": "Log in"}})).await.unwrap();
    let login = sites.recorded("login").await;
    assert_eq!(login[0]["detail"]["username"], "ada", "not the literal placeholder");
    assert_eq!(login[0]["detail"]["password_length"], "canary-pw-4711".len());
    assert!(!h.lines().iter().any(|line| line.contains("canary-pw-4711")), "{:?}", h.lines());
    let unknown = json!({"locator": {"role": "textbox", "name": "Username"}, "value": "{{NOT_SET}}"});
    let refused = h.run("browser.fill", unknown).await;
    assert!(
        matches!(&refused, Err(BlockError::NotSetUp(planwright_runs::Reason { text: m, .. })) if m.contains("NOT_SET")),
        "{refused:?}"
    );
    h.ctx.browser.close().await;
}

#[tokio::test]
async fn navigate_fill_and_click_log_in_and_never_log_the_password() {
    let sites = FixtureSites::start().await.unwrap();
    let h = Harness::new();
    let opened = h.run("browser.navigate", json!({"url": sites.url("login.html")})).await.unwrap();
    assert_eq!(opened["url"], sites.url("login.html"));
    assert_eq!(opened["title"], "Sign in · Acme Portal");

    let username = json!({"role": "textbox", "name": "Username"});
    let filled = h.run("browser.fill", json!({"locator": username, "value": "ada"})).await.unwrap();
    assert_eq!(filled["url"], sites.url("login.html"));
    let password = json!({"role": "textbox", "name": "Password", "exact": true});
    h.run("browser.fill", json!({"locator": password, "value": "correct horse"})).await.unwrap();
    let clicked = h.run("browser.click", json!({"locator": {"role": "button", "name": "Log in"}})).await.unwrap();
    assert!(clicked["url"].as_str().unwrap().contains("welcome.html"), "{clicked:?}");

    let login = sites.recorded("login").await;
    assert_eq!(login.len(), 1, "{login:?}");
    assert_eq!(login[0]["detail"]["username"], "ada");
    assert_eq!(login[0]["detail"]["password_length"], 13);

    let lines = h.lines();
    assert_eq!(h.profiles().len(), 1, "one browser for the four steps: {lines:?}");
    assert!(lines[0].starts_with("started ") && lines[0].contains("headless"), "{lines:?}");
    let actions = &lines[1..];
    assert_eq!(actions.len(), 4, "one line per action: {lines:?}");
    assert!(actions[0].starts_with(&format!("navigate → {} in ", sites.url("login.html"))), "{lines:?}");
    assert!(actions[2].starts_with("fill textbox \"Password\" → "), "{lines:?}");
    assert!(actions[3].starts_with("click button \"Log in\" → ") && actions[3].contains("welcome.html"), "{lines:?}");
    assert!(actions.iter().all(|line| line.ends_with(" ms")), "{lines:?}");
    assert!(!lines.iter().any(|line| line.contains("correct horse")), "the typed value was logged: {lines:?}");
    // The same lines, coded for the studio's language.
    let said = h.events.logs_said.lock().unwrap().clone();
    assert!(matches!(&said[0], Some(RunMessage::BrowserStarted { headed: false, .. })), "{said:?}");
    assert!(
        matches!(&said[4], Some(RunMessage::BrowserActed { action, element, url, dialogs: 0, .. })
            if action == "click" && element == "button \"Log in\"" && url.contains("welcome.html")),
        "{said:?}"
    );
    h.ctx.browser.close().await;
}

#[tokio::test]
async fn extract_table_reads_the_rows_a_click_loaded_keyed_by_header() {
    let sites = FixtureSites::start().await.unwrap();
    let h = Harness::new();
    h.run("browser.navigate", json!({"url": sites.url("table.html")})).await.unwrap();
    h.run("browser.click", json!({"locator": {"role": "button", "name": "Load invoices"}})).await.unwrap();
    let read = h.run("browser.extract_table", json!({})).await.unwrap();
    let rows = read["rows"].as_array().unwrap();
    assert_eq!(rows.len(), 8, "{rows:?}");
    for row in rows {
        let keys: Vec<&String> = row.as_object().unwrap().keys().collect();
        assert_eq!(keys, ["Invoice", "Customer", "Amount", "Status"], "{row}");
    }
    assert_eq!(rows[0]["Invoice"], "INV-1001");
    let line = h.lines().pop().unwrap();
    assert!(line.starts_with("extract_table the first table at ") && line.contains("8 rows × 4 columns"), "{line}");
    let said = h.events.logs_said.lock().unwrap().last().cloned().flatten();
    assert!(
        matches!(&said, Some(RunMessage::TableExtracted { rows: 8, columns: 4, headers, .. }) if headers == "Invoice, Customer, Amount, Status"),
        "{said:?}"
    );

    let japanese = h.run("browser.navigate", json!({"url": sites.url("invoices-ja.html")})).await.unwrap();
    assert_eq!(japanese["title"], "請求書一覧 · 経理ポータル");
    let by_name = json!({"locator": {"role": "table", "name": "2024年5月の請求書"}});
    let read = h.run("browser.extract_table", by_name).await.unwrap();
    let rows = read["rows"].as_array().unwrap();
    // The six body rows; the driver also returns the footer's total row (reported, not pinned here).
    assert!(rows.len() >= 6, "{rows:?}");
    assert_eq!(rows[0]["請求書番号"], "INV-0501");
    assert!(rows[..6].iter().all(|r| r["金額"].as_str().is_some_and(|a| a.starts_with('¥'))), "{rows:?}");
    h.ctx.browser.close().await;
}

/// A table that is there but still empty when read (its rows come a second after the click):
/// the block waits for its rows instead of reporting none; a table that stays empty is read
/// empty with a warning; `allow_empty` reads it at once.
#[tokio::test]
async fn extract_table_waits_for_rows_rendered_after_the_click() {
    let sites = FixtureSites::start().await.unwrap();
    let h = Harness::new();
    h.run("browser.navigate", json!({"url": sites.url("results.html")})).await.unwrap();
    let empty = h.run("browser.extract_table", json!({"allow_empty": true})).await.unwrap();
    assert_eq!(empty["rows"], json!([]), "allow_empty reads the table as it is");
    assert!(!warnings(&h).iter().any(|w| w.contains("no rows")), "an empty table allowed is no warning");
    h.run("browser.click", json!({"locator": {"role": "button", "name": "Search"}})).await.unwrap();
    let read = h.run("browser.extract_table", json!({})).await.unwrap();
    let rows = read["rows"].as_array().unwrap();
    assert_eq!(rows.len(), 3, "{rows:?}");
    assert_eq!(rows[2]["Amount"], "¥103,200");
    assert_eq!(sites.events("results_shown").len(), 1, "the rows were really shown");
    h.run("browser.navigate", json!({"url": sites.url("results.html")})).await.unwrap();
    let never = h.run("browser.extract_table", json!({})).await.unwrap();
    assert_eq!(never["rows"], json!([]));
    let warned = warnings(&h);
    assert!(warned.iter().any(|w| w.contains("had no rows") && w.contains("allow_empty")), "{warned:?}");
    h.ctx.browser.close().await;
}

fn warnings(h: &Harness) -> Vec<String> {
    h.events.logs.lock().unwrap().iter().filter(|(level, _)| *level == LogLevel::Warn).map(|(_, m)| m.clone()).collect()
}

#[tokio::test]
async fn screenshots_are_pngs_of_the_viewport_the_whole_page_or_one_element() {
    let sites = FixtureSites::start().await.unwrap();
    let h = Harness::new();
    // Before any page is open there is nothing to take as evidence: no blank picture is written.
    let blank = h.run("browser.screenshot", json!({"path": "blank.png"})).await;
    assert!(
        matches!(&blank, Err(BlockError::Failed(planwright_runs::Reason { text: m, .. })) if m.contains("no page is open")),
        "{blank:?}"
    );
    assert!(!h.dir.path().join("blank.png").exists());
    h.run("browser.navigate", json!({"url": sites.url("table.html")})).await.unwrap();
    h.run("browser.click", json!({"locator": {"role": "button", "name": "Load invoices"}})).await.unwrap();

    let shot = h.run("browser.screenshot", json!({"path": "証跡/2024-05/viewport.png"})).await.unwrap();
    assert_eq!(shot["path"], "証跡/2024-05/viewport.png", "the path as given");
    let viewport = png_size(&std::fs::read(h.dir.path().join("証跡/2024-05/viewport.png")).unwrap());
    assert_eq!(viewport, (1280, 720));

    h.run("browser.screenshot", json!({"path": "証跡/2024-05/page.png", "full_page": true})).await.unwrap();
    let page = png_size(&std::fs::read(h.dir.path().join("証跡/2024-05/page.png")).unwrap());
    assert!(page.0 > 0 && page.1 >= viewport.1, "{page:?}");

    let button = json!({"path": "button.png", "locator": {"role": "button", "name": "Load invoices"}});
    h.run("browser.screenshot", button).await.unwrap();
    let element = png_size(&std::fs::read(h.dir.path().join("button.png")).unwrap());
    assert!(element.0 > 0 && element.1 > 0 && element.0 < viewport.0 && element.1 < viewport.1, "{element:?}");

    let artifacts = h.events.artifacts.lock().unwrap().clone();
    assert_eq!(artifacts.len(), 3, "{artifacts:?}");
    for (path, kind, bytes) in &artifacts {
        assert_eq!(*kind, ArtifactKind::Screenshot);
        assert!(path.is_file() && *bytes == std::fs::metadata(path).unwrap().len() && *bytes > 0, "{artifacts:?}");
    }
    let lines = h.lines();
    assert!(lines.iter().any(|l| l.starts_with("screenshot of the whole page at ") && l.contains("page.png")));

    let escape = input_error(h.run("browser.screenshot", json!({"path": "../outside.png"})).await);
    assert!(escape.contains("work directory"), "{escape}");
    assert!(!h.dir.path().parent().unwrap().join("outside.png").exists());
    let both = json!({"path": "both.png", "full_page": true, "locator": {"text": "Invoices"}});
    assert!(input_error(h.run("browser.screenshot", both).await).contains("not both"));
    h.ctx.browser.close().await;
}

#[tokio::test]
async fn wrong_locators_are_input_errors_and_start_no_browser() {
    let h = Harness::new();
    let missing = input_error(h.run("browser.click", json!({})).await);
    assert!(missing.contains("`locator` is missing") && missing.contains("role (with name), test_id or text"));
    let empty = input_error(h.run("browser.fill", json!({"locator": {"exact": true}, "value": "x"})).await);
    assert!(empty.contains("role (with name), test_id or text"), "{empty}");
    let name_only = input_error(h.run("browser.click", json!({"locator": {"name": "Log in"}})).await);
    assert!(name_only.contains("no role"), "{name_only}");
    let no_value = input_error(h.run("browser.fill", json!({"locator": {"test_id": "user"}})).await);
    assert!(no_value.contains("`value` is missing"), "{no_value}");
    let file = input_error(h.run("browser.navigate", json!({"url": "file:///etc/passwd"})).await);
    assert!(file.contains("http:// and https://"), "{file}");
    assert!(h.lines().is_empty(), "no browser was started: {:?}", h.lines());
}

#[tokio::test]
async fn several_matches_are_an_input_error_naming_them() {
    let sites = FixtureSites::start().await.unwrap();
    let h = Harness::new();
    h.run("browser.navigate", json!({"url": sites.url("products.html")})).await.unwrap();
    let refused = h.run("browser.click", json!({"locator": {"role": "button", "name": "Add to cart"}})).await;
    let said = match &refused {
        Err(BlockError::Input(reason)) => reason.said.as_deref().cloned(),
        _ => None,
    };
    assert!(matches!(said, Some(RunMessage::ElementAmbiguous { count: 6, .. })), "{said:?}");
    let many = input_error(refused);
    assert!(many.contains("matches 6 elements"), "{many}");
    assert!(sites.events("add_to_cart").is_empty(), "nothing was clicked");
    h.ctx.browser.close().await;
}

#[tokio::test]
async fn a_stop_ends_a_step_that_is_waiting_for_an_element() {
    let sites = FixtureSites::start().await.unwrap();
    let h = Harness::new();
    h.run("browser.navigate", json!({"url": sites.url("login.html")})).await.unwrap();
    let cancel = h.ctx.cancel.clone();
    tokio::spawn(async move {
        tokio::time::sleep(Duration::from_millis(300)).await;
        cancel.cancel();
    });
    let started = Instant::now();
    let result = h.run("browser.click", json!({"locator": {"role": "button", "name": "Nowhere"}})).await;
    assert_eq!(result, Err(BlockError::Cancelled));
    assert!(started.elapsed() < Duration::from_secs(3), "the 10 s wait for the element was cut short");
    h.ctx.browser.close().await;
}

#[tokio::test]
async fn a_browser_that_died_is_replaced_at_the_next_step_and_close_ends_it() {
    let sites = FixtureSites::start().await.unwrap();
    let h = Harness::new();
    h.run("browser.navigate", json!({"url": sites.url("login.html")})).await.unwrap();
    let first = h.profiles().pop().unwrap();
    let flag = format!("--user-data-dir={first}");
    // The browser process itself: its helpers (renderers, GPU) carry `--type=`.
    let browser = processes_with(&flag)
        .into_iter()
        .find(|pid| {
            !String::from_utf8_lossy(&std::fs::read(format!("/proc/{pid}/cmdline")).unwrap()).contains("--type=")
        })
        .expect("the launched browser is running");
    assert!(std::process::Command::new("kill").args(["-KILL", &browser.to_string()]).status().unwrap().success());
    // Its helpers follow it within moments; until they have, they may still write to the profile
    // folder, racing its removal.
    gone(&flag).await;

    // The step that meets the death may fail (the driver only then learns of it); the one after
    // gets a new browser.
    let mut attempts = 0;
    let opened = loop {
        attempts += 1;
        match h.run("browser.navigate", json!({"url": sites.url("table.html")})).await {
            Ok(opened) => break opened,
            Err(BlockError::Failed(planwright_runs::Reason { text: message, .. }))
                if attempts < 3 && message.contains("closed or crashed") => {}
            Err(other) => panic!("{other:?}"),
        }
    };
    assert_eq!(opened["title"], "Invoices · Ledgerly");
    let profiles = h.profiles();
    assert_eq!(profiles.len(), 2, "{:?}", h.lines());
    assert!(h.lines().iter().any(|l| l.starts_with("the run's browser was lost (")), "{:?}", h.lines());

    let second = profiles[1].clone();
    assert!(Path::new(&second).is_dir());
    h.ctx.browser.close().await;
    assert!(!Path::new(&first).exists() && !Path::new(&second).exists(), "profiles removed with their browsers");
    gone(&format!("--user-data-dir={second}")).await;
    h.ctx.browser.close().await;
}

/// Waits (at most 5 s) until no process has `flag` on its command line.
async fn gone(flag: &str) {
    let deadline = Instant::now() + Duration::from_secs(5);
    while !processes_with(flag).is_empty() {
        assert!(Instant::now() < deadline, "processes with {flag} remain: {:?}", processes_with(flag));
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
}
