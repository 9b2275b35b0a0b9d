//! Plans with browser steps, run whole by the engine in real headless Chromium against the
//! fixture sites, with a real run store: one browser per run, shared by called plans, gone when
//! the run ends however it ends, never started by a plan without browser steps.

use crate::support;

use std::path::Path;
use std::sync::Arc;
use std::time::{Duration, Instant};

use planwright_catalog::Catalog;
use planwright_engine::{BrowserSettings, Engine, NoAnswers, RunOptions, RunOutcome, RunRequest, SecretSource};
use planwright_runs::{ArtifactKind, DataHome, Event, EventKind, RunStatus, RunStore};
use planwright_sites::{processes_with, FixtureSites};
use planwright_validate::PlanSource;
use serde_json::{json, Value};
use tokio::sync::mpsc::UnboundedSender;
use tokio_util::sync::CancellationToken;

/// The password typed into the login form: it must reach the page and nothing else.
const CANARY: &str = "canary-9d41-typed-never-recorded";

struct Secrets;

impl SecretSource for Secrets {
    fn secret(&self, name: &str) -> Option<String> {
        (name == "PASSWORD").then(|| CANARY.to_owned())
    }
}

struct Fixture {
    engine: Engine,
    store: RunStore,
    home: tempfile::TempDir,
    workdir: tempfile::TempDir,
}

fn fixture(plans: Arc<dyn PlanSource + Send + Sync>) -> Fixture {
    let home = tempfile::tempdir().unwrap();
    let store = RunStore::open(&DataHome::at(home.path())).unwrap();
    let engine = Engine::new(Arc::new(Catalog::bundled().unwrap()), planwright_blocks::builtin(), plans);
    Fixture { engine, store, home, workdir: tempfile::tempdir().unwrap() }
}

impl Fixture {
    async fn run(
        &self,
        plan: &str,
        sites: &FixtureSites,
        browser: BrowserSettings,
        stop: CancellationToken,
        events: Option<UnboundedSender<Event>>,
    ) -> (RunOutcome, Vec<Event>) {
        let options = RunOptions {
            workdir: self.workdir.path().to_owned(),
            secrets: Arc::new(Secrets),
            answers: Arc::new(NoAnswers),
            stop,
            events,
            browser,
            models: None,
        };
        let base = sites.url("").trim_end_matches('/').to_owned();
        let request = RunRequest {
            plan_text: plan.to_owned(),
            plan_path: None,
            vars: json!({ "base": base }).as_object().cloned().unwrap(),
        };
        let outcome = self.engine.run(&self.store, request, options).await.unwrap_or_else(|e| panic!("{e}"));
        let events = self.store.events(&outcome.run_id).unwrap();
        (outcome, events)
    }
}

fn plan(graph: &str) -> String {
    format!("apiVersion: planwright/v1\nid: browser_test\nversion: 1.0.0\nvars:\n  base: null\nsecrets: [PASSWORD]\ngraph:\n{graph}")
}

const OPEN_LOGIN: &str =
    "  - id: open\n    block: browser.navigate\n    in: {url: \"${vars.base}/login.html\"}\n    out: {title: title}\n";

fn logs(events: &[Event]) -> Vec<(String, String)> {
    events
        .iter()
        .filter_map(|e| match &e.kind {
            EventKind::Log { node, message, .. } => Some((node.clone().unwrap_or_default(), message.clone())),
            _ => None,
        })
        .collect()
}

/// The fresh profile folders of the browsers the run started, from their launch lines.
fn profiles(events: &[Event]) -> Vec<String> {
    logs(events)
        .into_iter()
        .filter_map(|(_, line)| Some(line.split_once("fresh profile ")?.1.trim_end_matches(')').to_owned()))
        .collect()
}

/// The one browser the run started is gone: its profile folder removed, no process of it left.
async fn assert_browser_gone(events: &[Event]) {
    let profiles = profiles(events);
    assert_eq!(profiles.len(), 1, "one browser for the run: {:?}", logs(events));
    let profile = &profiles[0];
    assert!(!Path::new(profile).exists(), "the profile {profile} outlived the run");
    let flag = format!("--user-data-dir={profile}");
    // Helpers (renderers, GPU) exit moments after the browser process they serve.
    let deadline = Instant::now() + Duration::from_secs(5);
    loop {
        let left = processes_with(&flag);
        if left.is_empty() {
            return;
        }
        assert!(Instant::now() < deadline, "Chromium processes outlived the run: {left:?}");
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_browser_plan_logs_in_reads_a_table_and_shoots_and_leaves_no_browser_behind() {
    let sites = FixtureSites::start().await.unwrap();
    let f = fixture(Arc::new(planwright_validate::NoPlans));
    let graph = [
        OPEN_LOGIN,
        "  - id: user\n    block: browser.fill\n    in: {locator: {role: textbox, name: Username}, value: ada}\n",
        // The placeholder, not `${secrets.PASSWORD}`: filled only as it is typed.
        "  - id: password\n    block: browser.fill\n    in: {locator: {role: textbox, name: Password, exact: true}, value: \"{{PASSWORD}}\"}\n",
        "  - id: login\n    block: browser.click\n    in: {locator: {role: button, name: Log in}}\n    out: {url: landed}\n",
        "  - id: invoices\n    block: browser.navigate\n    in: {url: \"${vars.base}/table.html\"}\n",
        "  - id: load\n    block: browser.click\n    in: {locator: {role: button, name: Load invoices}}\n",
        "  - id: read\n    block: browser.extract_table\n    out: {rows: rows}\n",
        "  - id: shot\n    block: browser.screenshot\n    in: {path: evidence/invoices.png, full_page: true}\n    out: {path: saved}\n",
        "  - id: save\n    block: report.write\n    in: {data: \"${read.rows}\", format: json, path: out/invoices.json}\n",
    ]
    .concat();
    let (outcome, events) =
        f.run(&plan(&graph), &sites, BrowserSettings::default(), CancellationToken::new(), None).await;
    assert_eq!(outcome.status, RunStatus::Succeeded, "{:?}", outcome.reason);

    let login = sites.events("login");
    assert_eq!(login.len(), 1, "{login:?}");
    assert_eq!(login[0]["detail"]["username"], "ada");
    assert_eq!(login[0]["detail"]["password_length"], CANARY.len(), "the secret was typed");

    let rows: Value =
        serde_json::from_str(&std::fs::read_to_string(f.workdir.path().join("out/invoices.json")).unwrap()).unwrap();
    let rows = rows.as_array().unwrap();
    assert_eq!(rows.len(), 8, "{rows:?}");
    assert_eq!(rows[0]["Invoice"], "INV-1001");
    let png = std::fs::read(f.workdir.path().join("evidence/invoices.png")).unwrap();
    assert_eq!(&png[..8], b"\x89PNG\r\n\x1a\n");
    assert!(events.iter().any(|e| matches!(&e.kind,
        EventKind::Artifact { node, kind: ArtifactKind::Screenshot, bytes, .. } if node == "shot" && *bytes == png.len() as u64)));

    let actions: Vec<String> = logs(&events).into_iter().map(|(node, line)| format!("{node}: {line}")).collect();
    assert!(actions.iter().any(|l| l.starts_with("password: fill textbox \"Password\" → ")), "{actions:?}");
    assert!(actions.iter().any(|l| l.starts_with("login: click button \"Log in\" → ")), "{actions:?}");
    let recorded = serde_json::to_string(&events).unwrap();
    assert!(!recorded.contains(CANARY), "the typed password reached the events");
    for file in support::files_under(f.home.path()) {
        let bytes = std::fs::read(&file).unwrap();
        assert!(!String::from_utf8_lossy(&bytes).contains(CANARY), "the typed password reached {}", file.display());
    }
    assert_browser_gone(&events).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_placeholder_of_a_secret_the_plan_does_not_declare_is_typed_nowhere() {
    let sites = FixtureSites::start().await.unwrap();
    let f = fixture(Arc::new(planwright_validate::NoPlans));
    // The environment holds PASSWORD, but this plan declares no secret: a data value naming it
    // (a cell, a page's text, a model's answer) must not have it typed.
    let text = [
        "apiVersion: planwright/v1\nid: undeclared\nversion: 1.0.0\nvars:\n  base: null\n  note: \"{{PASSWORD}}\"\n",
        "policy: {on_error: continue}\ngraph:\n",
        OPEN_LOGIN,
        "  - id: user\n    block: browser.fill\n    in: {locator: {role: textbox, name: Username}, value: \"${vars.note}\"}\n",
        "  - id: password\n    block: browser.fill\n    in: {locator: {role: textbox, name: Password, exact: true}, value: x}\n",
        "  - id: login\n    block: browser.click\n    in: {locator: {role: button, name: Log in}}\n",
    ]
    .concat();
    let (_, events) = f.run(&text, &sites, BrowserSettings::default(), CancellationToken::new(), None).await;
    let refused = events.iter().find_map(|e| match &e.kind {
        EventKind::NodeFailed { node, said: Some(said), error, .. } if node == "user" => {
            Some((said.clone(), error.clone()))
        }
        _ => None,
    });
    let (said, error) = refused.unwrap_or_else(|| panic!("the fill was refused: {:?}", logs(&events)));
    assert_eq!(serde_json::to_value(&said).unwrap()["key"], "secret_not_declared", "{error}");
    assert!(error.contains("`PASSWORD` is not declared"), "{error}");
    let login = sites.events("login");
    assert!(login.iter().all(|e| e["detail"]["username"] != CANARY), "{login:?}");
    assert!(!serde_json::to_string(&events).unwrap().contains(CANARY));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_called_plan_drives_the_page_its_caller_opened() {
    let sites = FixtureSites::start().await.unwrap();
    let designs = tempfile::tempdir().unwrap();
    let child = "apiVersion: planwright/v1\nid: portal_login\nversion: 1.0.0\nvars:\n  user: null\ngraph:\n  - id: user\n    block: browser.fill\n    in: {locator: {role: textbox, name: Username}, value: \"${vars.user}\"}\n  - id: password\n    block: browser.fill\n    in: {locator: {role: textbox, name: Password, exact: true}, value: not-a-secret}\n  - id: login\n    block: browser.click\n    in: {locator: {role: button, name: Log in}}\n    out: {url: landed}\n";
    std::fs::write(designs.path().join("portal_login_202605010900.yaml"), child).unwrap();
    let f = fixture(Arc::new(planwright_designs::Designs::new(designs.path())));
    let graph = [
        OPEN_LOGIN,
        "  - id: sign_in\n    call: {plan_id: portal_login, inputs: {user: grace}}\n    out: {landed: landed}\n",
        "  - id: shot\n    block: browser.screenshot\n    after: [sign_in]\n    in: {path: welcome.png}\n",
    ]
    .concat();
    let (outcome, events) =
        f.run(&plan(&graph), &sites, BrowserSettings::default(), CancellationToken::new(), None).await;
    assert_eq!(outcome.status, RunStatus::Succeeded, "{:?}", outcome.reason);
    let login = sites.events("login");
    assert_eq!(login.len(), 1, "{login:?}");
    assert_eq!(login[0]["detail"]["username"], "grace", "the called plan filled the form its caller opened");
    assert!(f.workdir.path().join("welcome.png").is_file());
    assert_browser_gone(&events).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_browser_is_closed_when_a_run_fails_waits_or_is_stopped() {
    let sites = FixtureSites::start().await.unwrap();
    let f = fixture(Arc::new(planwright_validate::NoPlans));
    let run = |graph: String, stop: CancellationToken, events: Option<UnboundedSender<Event>>| {
        let f = &f;
        let sites = &sites;
        async move { f.run(&plan(&graph), sites, BrowserSettings::default(), stop, events).await }
    };

    let failing = format!(
        "{OPEN_LOGIN}  - id: save\n    block: report.write\n    after: [open]\n    in: {{data: {{a: 1}}, format: json, path: ../escaped.json}}\n"
    );
    let (outcome, events) = run(failing, CancellationToken::new(), None).await;
    assert_eq!(outcome.status, RunStatus::Failed, "{:?}", outcome.reason);
    assert_browser_gone(&events).await;

    let waiting = format!(
        "{OPEN_LOGIN}  - id: ask\n    block: ui.confirmation\n    in: {{message: \"Signed in to ${{open.title}}?\"}}\n    out: {{approved: ok}}\n"
    );
    let (outcome, events) = run(waiting, CancellationToken::new(), None).await;
    assert_eq!(outcome.status, RunStatus::WaitingForInput, "{:?}", outcome.reason);
    assert_browser_gone(&events).await;

    // Stopped while a step waits for a button that never comes (the driver would wait 10 s).
    let stop = CancellationToken::new();
    let (sender, mut receiver) = tokio::sync::mpsc::unbounded_channel::<Event>();
    let trigger = stop.clone();
    tokio::spawn(async move {
        while let Some(event) = receiver.recv().await {
            if matches!(&event.kind, EventKind::NodeStarted { node, .. } if node == "wait") {
                tokio::time::sleep(Duration::from_millis(300)).await;
                trigger.cancel();
            }
        }
    });
    let stopped = format!(
        "{OPEN_LOGIN}  - id: wait\n    block: browser.click\n    in: {{locator: {{role: button, name: Never there}}}}\n"
    );
    let started = Instant::now();
    let (outcome, events) = run(stopped, stop, Some(sender)).await;
    assert_eq!(outcome.status, RunStatus::Stopped, "{:?}", outcome.reason);
    assert!(started.elapsed() < Duration::from_secs(8), "the stop cut the wait short");
    assert_browser_gone(&events).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_plan_without_browser_steps_starts_no_browser() {
    let sites = FixtureSites::start().await.unwrap();
    let f = fixture(Arc::new(planwright_validate::NoPlans));
    // A "browser" that notes each start and fails: a plan without browser steps must not start it.
    let bin = tempfile::tempdir().unwrap();
    let started = bin.path().join("started");
    let launcher = bin.path().join("chromium");
    std::fs::write(&launcher, format!("#!/bin/sh\necho started >> '{}'\nexit 1\n", started.display())).unwrap();
    let mut permissions = std::fs::metadata(&launcher).unwrap().permissions();
    std::os::unix::fs::PermissionsExt::set_mode(&mut permissions, 0o755);
    std::fs::set_permissions(&launcher, permissions).unwrap();
    let settings = BrowserSettings { executable: Some(launcher.clone()), ..BrowserSettings::default() };

    let plain = "  - id: save\n    block: report.write\n    in: {data: {a: 1}, format: json, path: out/a.json}\n";
    let (outcome, events) = f.run(&plan(plain), &sites, settings.clone(), CancellationToken::new(), None).await;
    assert_eq!(outcome.status, RunStatus::Succeeded, "{:?}", outcome.reason);
    assert!(!started.exists(), "a plan without browser steps started the browser");
    assert!(profiles(&events).is_empty());

    // The same settings with a browser step do start it: the check above can see a start.
    let (outcome, events) = f.run(&plan(OPEN_LOGIN), &sites, settings, CancellationToken::new(), None).await;
    assert_eq!(outcome.status, RunStatus::Failed);
    assert_eq!(std::fs::read_to_string(&started).unwrap(), "started\n");
    let error = events.iter().find_map(|e| match &e.kind {
        EventKind::NodeFailed { node, error, .. } if node == "open" => Some(error.clone()),
        _ => None,
    });
    assert!(error.unwrap().contains("could not start or reach the browser"));
}
