//! Reports of runs of browser objectives, from the real binary against the fixture sites: the
//! portal task (three objectives, a cookie banner closed as a recovery step) written as JUnit,
//! HTML and Allure results at once and again from the finished run's record; a shop task whose
//! second objective cannot pass, which fails the run everywhere and is a JUnit failure with its
//! reason; a report whose
//! extension names no format refused as a usage error.

use crate::support;

use std::path::Path;
use std::process::{Command, Output, Stdio};

use planwright_sites::FixtureSites;
use serde_json::Value;
use support::{assert_exit, files_under, said};

const CANARY: &str = "Pw-canary-5521";

/// `planwright ARGS` in `work`, off the async runtime (the sites serve from it meanwhile).
async fn planwright(home: &Path, work: &Path, args: &[&str]) -> Output {
    let mut command = Command::new(env!("CARGO_BIN_EXE_planwright"));
    command
        .args(args)
        .current_dir(work)
        .env("PLANWRIGHT_HOME", home)
        .env("PLANWRIGHT_SECRET_PORTAL_USER", "tk-suzuki")
        .env("PLANWRIGHT_SECRET_PORTAL_PASSWORD", CANARY)
        .stdin(Stdio::null());
    tokio::task::spawn_blocking(move || command.output().unwrap()).await.unwrap()
}

/// A plan of one `browser.run_objectives` node, `node`, with `inputs` (YAML flow mapping entries).
fn plan(id: &str, start: &str, steps: &str, inputs: &str) -> String {
    format!(
        "apiVersion: planwright/v1\nid: {id}\nversion: 1.0.0\nsecrets: [PORTAL_USER, PORTAL_PASSWORD]\ngraph:\n  - id: node\n    block: browser.run_objectives\n    in: {{start_url: \"{start}\", steps: \"{steps}\"{inputs}}}\n    out: {{report: report, passed: passed}}\n"
    )
}

fn read(path: &Path) -> String {
    std::fs::read_to_string(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

/// The text of the `<testcase>` whose name starts with `name`, up to its end.
fn testcase<'a>(xml: &'a str, name: &str) -> &'a str {
    let start = xml.find(&format!("name=\"{name}")).unwrap_or_else(|| panic!("no test case {name}: {xml}"));
    let end = start + xml[start..].find("</testcase>").unwrap_or(xml.len() - start);
    &xml[start..end]
}

/// The objectives' titles on an HTML report, in order.
fn objective_titles(page: &str) -> Vec<&str> {
    page.split("<h3>").skip(1).filter_map(|part| part.split("</h3>").next()).collect()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_run_of_objectives_writes_junit_html_and_allure_and_the_record_writes_them_again() {
    let sites = FixtureSites::start().await.unwrap();
    let (home, work) = (tempfile::tempdir().unwrap(), tempfile::tempdir().unwrap());
    let steps = "1. Sign in with {{PORTAL_USER}} / {{PORTAL_PASSWORD}}\\n2. Open the Statements page\\n3. Download the October 2026 statement";
    std::fs::write(
        work.path().join("plan.yaml"),
        plan("portal-reports", &sites.url("objectives/portal/login.html"), steps, ""),
    )
    .unwrap();
    let output = planwright(
        home.path(),
        work.path(),
        &[
            "run",
            "plan.yaml",
            "--report",
            "out.xml",
            "--report",
            "out.html",
            "--allure-results",
            "allure",
            "--format",
            "json",
        ],
    )
    .await;
    let stderr = String::from_utf8_lossy(&output.stderr).into_owned();
    assert_exit(&output, 0);
    let run_id = serde_json::from_slice::<Value>(&output.stdout).unwrap()["run_id"].as_str().unwrap().to_owned();

    let xml = read(&work.path().join("out.xml"));
    assert!(xml.contains("<testsuite name=\"portal-reports\" tests=\"3\" failures=\"0\""), "{xml}");
    assert_eq!(
        xml.matches("<testcase classname=\"portal-reports.node\"").count(),
        3,
        "a test case per objective: {xml}"
    );
    let sign_in = testcase(&xml, "1. Sign in with {{PORTAL_USER}} / {{PORTAL_PASSWORD}}");
    assert!(sign_in.contains("<property name=\"decided_by\" value=\"offline\"/>"), "{sign_in}");
    // The banner comes late, in the way of whichever objective is under way then.
    let recovered: Vec<&str> = ["1. Sign in", "2. Open the Statements page", "3. Download the October 2026 statement"]
        .into_iter()
        .map(|name| testcase(&xml, name))
        .filter(|case| case.contains(". recovery: Close dialog \"We value your privacy\""))
        .collect();
    assert_eq!(recovered.len(), 1, "the cookie banner is a recovery step inside its objective: {xml}");
    assert!(recovered[0].contains("   blocked by: dialog \"We value your privacy\""), "{}", recovered[0]);
    let download = testcase(&xml, "3. Download the October 2026 statement");
    let evidence = download.split("<property name=\"evidence\" value=\"").nth(1).and_then(|v| v.split('"').next());
    assert!(evidence.is_some_and(|e| e.contains("downloaded statement-2026-10.csv")), "{download}");

    let page = read(&work.path().join("out.html"));
    assert!(page.contains("<img src=\"data:image/png;base64,iVBORw0KGgo"), "a screenshot is embedded");
    for outside in ["<script", "<link", " src=\"http", " href="] {
        assert!(!page.contains(outside), "{outside}: the page must need nothing outside it");
    }
    assert_eq!(
        objective_titles(&page),
        [
            "Sign in with {{PORTAL_USER}} / {{PORTAL_PASSWORD}}",
            "Open the Statements page",
            "Download the October 2026 statement"
        ]
    );
    assert!(page.contains("<span class=\"kind\">Recovery</span><strong>Close dialog &quot;We value your privacy&quot;"));

    let allure = work.path().join("allure");
    let files = files_under(&allure);
    let results: Vec<_> = files.iter().filter(|p| p.to_str().unwrap().ends_with("-result.json")).collect();
    assert_eq!(results.len(), 1, "one result for the one browser node: {files:?}");
    let result: Value = serde_json::from_str(&read(results[0])).unwrap();
    assert_eq!((result["status"].as_str(), result["fullName"].as_str()), (Some("passed"), Some("portal-reports.node")));
    let steps = result["steps"].as_array().unwrap();
    assert_eq!(steps.len(), 3, "a step per objective");
    let recoveries: Vec<&Value> = steps
        .iter()
        .flat_map(|step| step["steps"].as_array().unwrap())
        .filter(|inner| inner["name"].as_str().unwrap().starts_with("recovery: Close dialog"))
        .collect();
    assert_eq!(recoveries.len(), 1, "the recovery nested in its objective's step: {steps:?}");
    assert_eq!(recoveries[0]["steps"].as_array().unwrap().len(), 1, "the recovery's own action inside it");
    for step in steps {
        let source = step["attachments"][0]["source"].as_str().expect("the evidence screenshot is attached");
        assert!(allure.join(source).is_file(), "{source}");
    }

    let shown = planwright(home.path(), work.path(), &["runs", "show", &run_id, "--report", "again.html"]).await;
    assert_exit(&shown, 0);
    let again = read(&work.path().join("again.html"));
    assert_eq!(objective_titles(&again), objective_titles(&page), "the record gives the same objectives");
    let listing = String::from_utf8_lossy(&shown.stdout).into_owned();
    assert!(listing.contains("planning of node ("), "{listing}");
    assert!(listing.contains("  plan (pass 1): Download the October 2026 statement"), "{listing}");
    assert!(listing.contains("    3. Download the October 2026 statement — done when"), "{listing}");
    // How many revisions depends on how fast the page loads; the record lists them either way.
    assert!(listing.contains("  revisions: "), "{listing}");

    let refused = planwright(home.path(), work.path(), &["runs", "show", &run_id, "--report", "again.pdf"]).await;
    assert_exit(&refused, 2);
    let said = String::from_utf8_lossy(&refused.stderr);
    assert!(said.contains("again.pdf") && said.contains(".xml") && said.contains(".html"), "{said}");
    assert!(!work.path().join("again.pdf").exists());

    let mut seen = format!("{stderr}{listing}");
    for file in files_under(work.path()) {
        seen.push_str(&String::from_utf8_lossy(&std::fs::read(&file).unwrap()));
    }
    assert!(!seen.contains(CANARY), "the password is in a report or an output");
    assert!(page.contains("{{PORTAL_PASSWORD}}"), "the placeholder stands for it");
}

/// A run whose objective cannot pass, reported (`on_unsatisfied: report`): the node fails with
/// its report, and everything agrees — the exit code, the run's status, the runs list, the
/// record (the failure carries the report) and the JUnit report; under `on_error: continue` the
/// next node reads the report instead of null.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_objective_that_cannot_pass_fails_the_run_everywhere_and_is_a_junit_failure_with_its_reason() {
    let sites = FixtureSites::start().await.unwrap();
    let (home, work) = (tempfile::tempdir().unwrap(), tempfile::tempdir().unwrap());
    let start = sites.url("objectives/shop/search.html?instant=1");
    let steps = "1. Search for green widget\\n2. Click Export to PDF";
    let save = "  - id: save\n    block: report.write\n    in: {data: {passed: \"${node.passed}\", report: \"${node.report}\"}, format: json, path: out/result.json}\n";
    let plan = plan("shop-reports", &start, steps, ", on_unsatisfied: report")
        .replace("graph:\n", "policy: {on_error: continue}\ngraph:\n");
    std::fs::write(work.path().join("plan.yaml"), format!("{plan}{save}")).unwrap();
    let output =
        planwright(home.path(), work.path(), &["run", "plan.yaml", "--report", "report.xml", "--format", "json"]).await;
    assert_exit(&output, 1);
    let outcome: Value = serde_json::from_slice(&output.stdout).unwrap();
    assert_eq!(outcome["status"], "failed", "{}", said(&output));
    let run_id = outcome["run_id"].as_str().unwrap();

    let list = planwright(home.path(), work.path(), &["runs", "list", "--format", "json"]).await;
    let runs: Value = serde_json::from_slice(&list.stdout).unwrap();
    assert_eq!((runs[0]["run_id"].as_str(), runs[0]["status"].as_str()), (Some(run_id), Some("failed")), "{runs}");
    let shown = planwright(home.path(), work.path(), &["runs", "show", run_id, "--format", "json"]).await;
    let shown: Value = serde_json::from_slice(&shown.stdout).unwrap();
    let events = shown["events"].as_array().unwrap();
    assert!(!events.iter().any(|e| e["type"] == "node_finished" && e["node"] == "node"), "{shown}");
    let failed = events.iter().find(|e| e["type"] == "node_failed" && e["node"] == "node").expect("the node failed");
    let error = failed["error"].as_str().unwrap();
    assert!(error.contains("1/2 objectives") && error.contains("Export to PDF"), "{error}");
    assert_eq!(failed["outputs"]["passed"], false, "{failed}");
    assert_eq!(failed["outputs"]["report"]["steps"][1]["status"], "failed", "{failed}");
    let result: Value = serde_json::from_str(&read(&work.path().join("out/result.json"))).unwrap();
    assert_eq!(result["passed"], false, "{result}");
    assert_eq!(result["report"]["failed_steps"], 1, "the next node read the report: {result}");

    let xml = read(&work.path().join("report.xml"));
    // A test case per objective, and the node that saved the result.
    assert!(xml.contains("tests=\"3\" failures=\"1\""), "{xml}");
    assert!(xml.contains("<property name=\"run_status\" value=\"failed\"/>"), "{xml}");
    assert!(!testcase(&xml, "1. Search for green widget").contains("<failure"), "{xml}");
    let export = testcase(&xml, "2. Click Export to PDF");
    assert!(
        export.contains("<failure message=\"click: nothing on the page matches &quot;Export to PDF&quot;")
            && export.contains("type=\"objective failed\">"),
        "{export}"
    );
    assert!(export.contains("attempts made; the last: "), "{export}");
    assert!(export.contains("<property name=\"attempts\" value=\""), "{export}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_report_whose_extension_names_no_format_is_a_usage_error_before_anything_runs() {
    let (home, work) = (tempfile::tempdir().unwrap(), tempfile::tempdir().unwrap());
    std::fs::write(work.path().join("plan.yaml"), plan("never-runs", "http://127.0.0.1:9/", "1. Open it", "")).unwrap();
    let output =
        planwright(home.path(), work.path(), &["run", "plan.yaml", "--report", "out.xml", "--report", "out.txt"]).await;
    assert_exit(&output, 2);
    let said = String::from_utf8_lossy(&output.stderr);
    assert!(
        said.contains(
            "--report out.txt: the report's format follows its extension: .xml (JUnit), .html or .htm (HTML)"
        ),
        "{said}"
    );
    assert!(!home.path().join("runs.db").exists(), "nothing ran");
}

/// A plan of one `report.write` node saving to `path` in the work directory.
fn writes(path: &str) -> String {
    format!(
        "apiVersion: planwright/v1\nid: writes\nversion: 1.0.0\ngraph:\n  - id: save\n    block: report.write\n    in: {{data: {{ok: true}}, format: json, path: {path}}}\n"
    )
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_report_folder_that_is_missing_or_not_a_folder_is_refused_before_the_run() {
    let (home, work) = (tempfile::tempdir().unwrap(), tempfile::tempdir().unwrap());
    std::fs::write(work.path().join("plan.yaml"), writes("out/ok.json")).unwrap();
    let cases: [(&[&str], &str); 3] = [
        (
            &["--report", "missing/out.xml"],
            "--report missing/out.xml: the folder missing does not exist; create it first",
        ),
        (&["--report", "plan.yaml/out.html"], "--report plan.yaml/out.html: plan.yaml is not a folder"),
        (&["--allure-results", "plan.yaml/allure"], "--allure-results plan.yaml/allure: plan.yaml is not a folder"),
    ];
    for (reports, message) in cases {
        let args = [&["run", "plan.yaml"], reports].concat();
        let output = planwright(home.path(), work.path(), &args).await;
        let stderr = String::from_utf8_lossy(&output.stderr);
        assert_eq!(output.status.code(), Some(2), "{reports:?}: {}", said(&output));
        assert!(stderr.contains(message), "{reports:?}: {stderr}");
        assert!(!work.path().join("out").exists() && !home.path().join("runs.db").exists(), "nothing ran");
    }
}

#[cfg(unix)]
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_report_path_that_is_a_link_is_refused_and_its_target_kept() {
    let (home, work) = (tempfile::tempdir().unwrap(), tempfile::tempdir().unwrap());
    std::fs::write(work.path().join("plan.yaml"), writes("out/ok.json")).unwrap();
    let target = home.path().join("bashrc.html");
    std::fs::write(&target, "kept\n").unwrap();
    std::os::unix::fs::symlink(&target, work.path().join("out.html")).unwrap();
    let output = planwright(home.path(), work.path(), &["run", "plan.yaml", "--report", "out.html"]).await;
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert_exit(&output, 2);
    assert!(
        stderr.contains("--report out.html is a symbolic link, not a regular file, and is never replaced"),
        "{stderr}"
    );
    assert!(!work.path().join("out").exists(), "nothing ran");
    assert_eq!(std::fs::read_to_string(&target).unwrap(), "kept\n", "nothing written through the link");
    assert!(std::fs::symlink_metadata(work.path().join("out.html")).unwrap().file_type().is_symlink());
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_allure_results_folder_that_is_a_link_is_refused_before_the_run() {
    let (home, work) = (tempfile::tempdir().unwrap(), tempfile::tempdir().unwrap());
    std::fs::write(work.path().join("plan.yaml"), writes("out/ok.json")).unwrap();
    let elsewhere = home.path().join("elsewhere");
    std::fs::create_dir(&elsewhere).unwrap();
    std::os::unix::fs::symlink(&elsewhere, work.path().join("allure")).unwrap();
    let output = planwright(home.path(), work.path(), &["run", "plan.yaml", "--allure-results", "allure"]).await;
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert_exit(&output, 2);
    assert!(stderr.contains("--allure-results allure: it is a link"), "{stderr}");
    assert!(!work.path().join("out").exists(), "nothing ran");
    assert_eq!(std::fs::read_dir(&elsewhere).unwrap().count(), 0, "nothing written through the link");
}

/// The run itself puts a folder where its report was to go: the run succeeded and says so, and
/// the report that could not be written has an exit code of its own (not 2, "unusable input").
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_report_that_cannot_be_written_after_a_successful_run_exits_4() {
    let (home, work) = (tempfile::tempdir().unwrap(), tempfile::tempdir().unwrap());
    std::fs::create_dir(work.path().join("out")).unwrap();
    std::fs::write(work.path().join("plan.yaml"), writes("out/report.xml/data.json")).unwrap();
    let output = planwright(home.path(), work.path(), &["run", "plan.yaml", "--report", "out/report.xml"]).await;
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert_exit(&output, 4);
    assert!(String::from_utf8_lossy(&output.stdout).contains(" succeeded"), "the run's outcome is said first");
    assert!(stderr.contains("writing out/report.xml: out/report.xml is a folder, not a regular file"), "{stderr}");
    assert!(work.path().join("out/report.xml/data.json").is_file(), "the run's own output is kept");
}
