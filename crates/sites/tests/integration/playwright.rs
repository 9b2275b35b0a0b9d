//! The Node tools of `tools/playwright` against a running server, with the system Chromium:
//! the ARIA snapshot script works, and every page records what a user did on it.
//!
//! Needs Node and `npm ci --prefix tools/playwright`; these tests fail (never skip) without them.

use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use planwright_sites::FixtureSites;
use serde_json::{json, Value};

fn repo_root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

/// Runs `node tools/playwright/<script> args…` and parses its JSON output.
async fn node(script: &str, args: &[String]) -> Value {
    let root = repo_root();
    let installed = root.join("tools/playwright/node_modules/playwright-core/package.json");
    assert!(
        installed.is_file(),
        "playwright-core is not installed: run `npm ci --prefix tools/playwright` (no browser download needed)"
    );
    let mut command = tokio::process::Command::new(std::env::var("NODE").unwrap_or_else(|_| "node".into()));
    command.arg(root.join("tools/playwright").join(script)).args(args).current_dir(&root).kill_on_drop(true);
    let output = tokio::time::timeout(Duration::from_secs(180), command.output())
        .await
        .unwrap_or_else(|_| panic!("{script} took more than 3 minutes"))
        .unwrap_or_else(|err| panic!("could not run node (set NODE to its path): {err}"));
    let stdout = String::from_utf8_lossy(&output.stdout);
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(output.status.success(), "{script} failed ({}):\n{stderr}\n{stdout}", output.status);
    serde_json::from_str(&stdout).unwrap_or_else(|err| panic!("{script} printed no JSON ({err}):\n{stdout}"))
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn aria_snapshot_of_the_login_page_names_its_controls() {
    let sites = FixtureSites::start().await.unwrap();
    let url = sites.url("login.html?instant=1");
    let snapshots = node("aria-snapshots.mjs", std::slice::from_ref(&url)).await;
    let snapshot = snapshots[&url].as_str().unwrap_or_else(|| panic!("no snapshot for {url}: {snapshots}"));
    assert!(snapshot.contains(r#"textbox "Username""#), "{snapshot}");
    assert!(snapshot.contains(r#"button "Log in""#), "{snapshot}");
    // The password field has only a placeholder, which still names it.
    assert!(snapshot.contains(r#"textbox "Password""#), "{snapshot}");
}

fn details(sites: &FixtureSites, action: &str) -> Vec<Value> {
    sites.events(action).into_iter().map(|event| event["detail"].clone()).collect()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn every_page_records_what_a_user_did() {
    let sites = FixtureSites::start().await.unwrap();
    let report = node("flows.mjs", &["--base".into(), sites.url("")]).await;

    // Pages show an outcome only once the server has the event, so the log is complete when the
    // script ends; the wait covers keepalive requests of the tab closed last.
    let deadline = Instant::now() + Duration::from_secs(3);
    while sites.events("opened").len() < 2 && Instant::now() < deadline {
        tokio::time::sleep(Duration::from_millis(20)).await;
    }

    assert_eq!(
        details(&sites, "login"),
        [json!({"username": "ada", "password_length": 9, "remember": true, "otp": ""})]
    );
    assert_eq!(details(&sites, "search"), [json!({"query": "Mechanical keyboard"}), json!({"query": "Mouse pad XL"})]);

    let cookies: Vec<(Value, Value)> = sites
        .events("cookies")
        .into_iter()
        .map(|event| (event["page"].clone(), event["detail"]["choice"].clone()))
        .collect();
    assert_eq!(
        cookies,
        [
            (json!("cookies.html"), json!("accept")),
            (json!("cookies-shadow.html"), json!("reject")),
            (json!("cookie-frame.html"), json!("accept")),
        ]
    );

    assert_eq!(report["modal"]["click_refused_while_ad_open"], true);
    assert_eq!(sites.events("ad_backdrop_click").len(), 1, "the blind click hit the backdrop");
    assert_eq!(sites.events("subscribe").len(), 1, "only the click after closing the ad subscribed");
    assert!(sites.events("subscribe")[0]["at_ms"].as_u64() >= sites.events("close_ad")[0]["at_ms"].as_u64());

    assert_eq!(details(&sites, "checkout"), [json!({"items": 3, "total": "$127.00"})]);
    assert_eq!(details(&sites, "shipping"), [json!({"country": "JP", "speed": "express", "terms": true})]);
    let payment = sites.events("payment");
    assert_eq!(payment.len(), 1);
    assert_eq!(payment[0]["origin"], "other", "the card form is cross-origin");
    assert_eq!(payment[0]["detail"], json!({"card_last4": "4242"}));

    let pages: Vec<Value> = details(&sites, "table_page").into_iter().map(|detail| detail["page"].clone()).collect();
    assert_eq!(pages, [json!(1), json!(2), json!(3), json!(2)]);
    assert_eq!(details(&sites, "export_csv"), [json!({"rows": 6})]);

    assert_eq!(details(&sites, "newsletter"), [json!({"email": "ada@example.com", "list": "garden-weekly"})]);
    assert_eq!(details(&sites, "download"), [json!({"report": "2024-05"})]);
    assert_eq!(details(&sites, "add_to_cart"), [json!({"product": "USB-C hub"})]);
    assert_eq!(details(&sites, "buy_now"), [json!({"product": "Mechanical keyboard"})]);

    assert_eq!(report["signup"]["disabled_until_valid"], true);
    assert_eq!(
        details(&sites, "signup"),
        [
            json!({"name": "Ada Lovelace", "email": "ada@example.com", "start_date": "2024-06-03", "color": "#ff8800", "team_size": 12})
        ]
    );

    assert_eq!(details(&sites, "delete"), [json!({"confirmed": false}), json!({"confirmed": true})]);
    assert_eq!(details(&sites, "prompt"), [json!({"answer": "Budget 2025.xlsx"})]);
    assert_eq!(details(&sites, "alert"), [json!({"dismissed": true})]);
    assert_eq!(details(&sites, "leave_warning"), [json!({"enabled": true})]);
    assert_eq!(report["dialogs"]["dialogs"], json!(["confirm", "confirm", "prompt", "alert", "beforeunload"]));

    assert_eq!(details(&sites, "opened"), [json!({"via": "link"}), json!({"via": "window.open"})]);
}

/// `tools/playwright/objectives.mjs`, the hand-written floor of the objective runner's benchmark,
/// does every task of `assets/sites/objectives/tasks.json` and `heldout.json` and finds the server's state as each
/// task expects, with the pages' real delays (where every blocking dialog comes before what it
/// blocks). The benchmark's `--instant` round runs it without the delays; it is not run here as
/// well: the script costs about two minutes of CPU a round on these two cores.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_reference_script_does_every_objective_task() {
    let sites = FixtureSites::start().await.unwrap();
    let root = repo_root();
    let tasks = planwright_sites::tasks::tasks();
    let ids: Vec<&str> = tasks.iter().map(|task| task.id.as_str()).collect();
    assert!(ids.len() >= 14, "{ids:?}");
    let mut command = tokio::process::Command::new(std::env::var("NODE").unwrap_or_else(|_| "node".into()));
    command.arg(root.join("tools/playwright/objectives.mjs")).arg(sites.url("")).current_dir(&root).kill_on_drop(true);
    // A bound against a hung script, not a speed check: every task with the pages' delays, on two
    // cores shared with the rest of the tests.
    let output = tokio::time::timeout(Duration::from_secs(900), command.output())
        .await
        .expect("objectives.mjs took more than 15 minutes")
        .expect("node runs (set NODE to its path)");
    let stdout = String::from_utf8_lossy(&output.stdout);
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(output.status.success(), "objectives.mjs failed:\n{stderr}\n{stdout}");
    let lines: Vec<Value> = stdout.lines().map(|line| serde_json::from_str(line).unwrap()).collect();
    let reported: Vec<&str> = lines.iter().map(|line| line["id"].as_str().unwrap()).collect();
    assert_eq!(reported, ids, "one line per task, in order");
    for line in &lines {
        assert_eq!(line["ok"], true, "{line}");
        assert!(line["ms"].as_u64().is_some_and(|ms| ms > 0), "{line}");
    }
}
