//! Each report from real records (the portal task: three objectives, a cookie banner closed as
//! a recovery step; the shop task: an objective that cannot pass, reported) and from events made
//! by hand for what those do not show (skipped objectives, a run cut short, hostile text).

use crate::support;

use planwright_reports::{allure, html, junit, Format, ReportOptions, RunRecord};
use serde_json::{json, Value};
use support::{event, junit_cases, objective, step, Fixture};

#[test]
fn junit_has_a_case_per_objective_with_its_recovery_step_inside() {
    let fixture = Fixture::load("portal-statement", &[]);
    let (suite, cases) = junit_cases(&junit(&fixture.record()));
    assert_eq!(suite["name"], "portal-statement");
    assert_eq!((suite["tests"].as_str(), suite["failures"].as_str(), suite["skipped"].as_str()), ("3", "0", "0"));
    let names: Vec<&str> = cases.iter().map(|c| c.name.as_str()).collect();
    assert_eq!(
        names,
        [
            "1. Sign in with {{PORTAL_USER}} / {{PORTAL_PASSWORD}}",
            "2. Open the Statements page",
            "3. Download the October 2026 statement"
        ]
    );
    assert!(cases.iter().all(|c| c.classname == "portal-statement.download" && c.failure.is_none()));
    let download = &cases[2];
    assert!(
        download.out.starts_with(
            "1. recovery: Close dialog \"We value your privacy\" (button \"Reject non-essential\") — dialog \"We value your privacy\" went away"
        ),
        "the banner was closed before the download: {}",
        download.out
    );
    assert!(download.out.contains("   blocked by: dialog \"We value your privacy\"\n"), "{}", download.out);
    assert!(
        download.out.contains("   - click getByRole(\"button\", { name: \"Reject non-essential\", exact: true })"),
        "{}",
        download.out
    );
    assert!(
        download.out.contains("2. action: click getByRole(\"link\", { name: \"Download\", exact: true })"),
        "{}",
        download.out
    );
    assert!(download.properties["evidence"].starts_with("downloaded statement-2026-10.csv"));
    assert_eq!(
        (download.properties["attempts"].as_str(), download.properties["decided_by"].as_str()),
        ("1", "offline")
    );
    assert_eq!(download.properties["approach"], "the step's words matched to the page");
    assert!(cases[0]
        .out
        .contains("1. action: fill getByRole(\"textbox\", { name: \"Username\", exact: true }) with {{PORTAL_USER}}"));
    assert!(cases[0].properties["screenshot"].ends_with("evidence/01-completed.png"));
}

#[test]
fn junit_shows_a_failed_objective_with_its_reason_attempts_and_actions() {
    let fixture = Fixture::load("shop-export", &[]);
    let record = fixture.record();
    assert_eq!(record.node("export").unwrap().passed, Some(false), "the node reported, it did not fail");
    let (suite, cases) = junit_cases(&junit(&record));
    assert_eq!((suite["tests"].as_str(), suite["failures"].as_str()), ("2", "1"));
    assert!(cases[0].failure.is_none());
    let (message, kind, body) = cases[1].failure.clone().expect("objective 2 failed");
    assert_eq!(cases[1].name, "2. Click Export to PDF");
    assert!(message.starts_with("click: nothing on the page matches \"Export to PDF\""), "{message}");
    assert_eq!(kind, "objective failed");
    assert!(body.starts_with(&message), "{body}");
    assert!(body.contains("4 attempts made; the last: open the objective's page again, fresh"), "{body}");
    assert!(
        body.contains("actions taken:\n1. action: open http://127.0.0.1:8700/objectives/shop/search.html"),
        "{body}"
    );
    assert_eq!(cases[1].properties["pass"], "2");
}

#[test]
fn every_objective_done_but_the_request_judged_unsatisfied_fails_in_each_report() {
    // The portal run as it would be recorded had a model found the evidence short and the
    // result been kept as it was.
    let mut fixture = Fixture::load("portal-statement", &[]);
    for event in &mut fixture.events {
        let mut value = serde_json::to_value(&*event).unwrap();
        let satisfaction = &mut value["progress"]["satisfaction"];
        if satisfaction.is_object() {
            satisfaction["overall_score"] = json!(0.5);
            satisfaction["quality_assessment"] = json!("A CSV came, not the Excel file asked for.");
            satisfaction["missing_aspects"] = json!(["the Excel file"]);
            satisfaction["completion_recommendation"] = json!(false);
        }
        *event = serde_json::from_value(value).unwrap();
    }
    let record = fixture.record();
    assert_eq!(record.node("download").unwrap().passed, Some(false));
    let (suite, cases) = junit_cases(&junit(&record));
    assert_eq!((suite["tests"].as_str(), suite["failures"].as_str()), ("4", "1"));
    let request = cases.last().unwrap();
    assert_eq!(request.name, "download (the request)");
    let (message, kind, _) = request.failure.clone().expect("the request failed");
    assert_eq!(kind, "not satisfied");
    assert_eq!(
        message,
        "every objective was done, but the request was judged 50 % satisfied: A CSV came, not the Excel file asked \
         for.; missing: the Excel file"
    );
    let written = allure(&record, &fixture.dir.path().join("allure-results")).unwrap();
    let result = written.iter().find(|p| p.to_str().unwrap().ends_with("-result.json")).unwrap();
    let result: Value = serde_json::from_slice(&std::fs::read(result).unwrap()).unwrap();
    assert_eq!(result["status"], "failed");
    assert_eq!(result["statusDetails"]["message"].as_str(), Some(message.as_str()));
    let page = html(&record, &ReportOptions::default());
    assert!(page.contains(">not passed<") && page.contains("judged 50 % satisfied"), "{page}");
}

/// Two objectives of one node, the first failed; a second node cut short mid-objective.
fn hand_made() -> Vec<planwright_runs::Event> {
    let hostile = "Check <script>alert(\"x\")</script> & </testcase> ]]>\u{1}";
    let mut failed = step(0, hostile, "objective", "failed");
    failed["completion_evidence"] = json!("no <b>heading</b> \"Total\" & \u{7}no table");
    let mut skipped = step(1, "Export the table", "objective", "skipped");
    skipped["completion_evidence"] = Value::Null;
    vec![
        event(
            1,
            json!({"type": "run_started", "plan_id": "qa", "plan_version": "2.0.0", "plan_path": null, "vars": {}, "workdir": "/w", "resumed_after": null}),
        ),
        event(2, json!({"type": "node_started", "node": "check", "attempt": 1, "inputs": {}})),
        objective(
            3,
            "check",
            "planned",
            step(0, hostile, "objective", "pending"),
            Some(vec![step(0, hostile, "objective", "pending"), step(1, "Export the table", "objective", "pending")]),
        ),
        objective(4, "check", "failed", failed, None),
        objective(5, "check", "skipped", skipped, None),
        event(
            6,
            json!({"type": "node_failed", "node": "check", "elapsed_ms": 900, "attempts": 1, "error": "1 of 2 objectives failed", "timed_out": false, "continued": true}),
        ),
        event(7, json!({"type": "node_started", "node": "later", "attempt": 1, "inputs": {}})),
        objective(
            8,
            "later",
            "planned",
            step(0, "Sign in", "objective", "pending"),
            Some(vec![step(0, "Sign in", "objective", "pending"), step(1, "Open", "objective", "pending")]),
        ),
        objective(9, "later", "started", step(0, "Sign in", "objective", "in_progress"), None),
    ]
}

#[test]
fn junit_skips_what_was_not_tried_and_errs_on_what_was_cut_short_with_every_text_escaped() {
    let xml = junit(&RunRecord::from_events("", &hand_made()));
    let (suite, cases) = junit_cases(&xml);
    assert_eq!(
        (suite["tests"].as_str(), suite["failures"].as_str(), suite["skipped"].as_str(), suite["errors"].as_str()),
        ("4", "1", "2", "1")
    );
    assert_eq!(
        cases[0].name, "1. Check <script>alert(\"x\")</script> & </testcase> ]]>",
        "read back whole, the control character dropped"
    );
    assert_eq!(cases[0].failure.as_ref().unwrap().0, "no <b>heading</b> \"Total\" & no table");
    assert_eq!(cases[1].skipped.as_deref(), Some("not tried: an earlier objective failed"));
    assert_eq!(cases[2].classname, "qa.later");
    assert_eq!(cases[2].error.as_ref().unwrap().0, "the run ended while this objective was in progress");
    assert_eq!(cases[3].skipped.as_deref(), Some("not reached: the run ended before it"));
    assert!(!xml.contains("<script>") && !xml.contains('\u{1}'), "{xml}");
}

#[test]
fn junit_keeps_one_case_per_node_for_other_blocks() {
    let events = vec![
        event(
            1,
            json!({"type": "run_started", "plan_id": "fails", "plan_version": "1.0.0", "plan_path": null, "vars": {}, "workdir": "/w", "resumed_after": null}),
        ),
        event(
            2,
            json!({"type": "node_failed", "node": "read", "elapsed_ms": 5, "attempts": 2, "error": "no file missing.csv", "timed_out": false, "continued": true}),
        ),
        event(3, json!({"type": "node_skipped", "node": "save", "reason": "what it depends on failed"})),
        event(4, json!({"type": "node_finished", "node": "each[0]/ok", "elapsed_ms": 7, "attempts": 1, "outputs": {}})),
    ];
    let xml = junit(&RunRecord::from_events("", &events));
    assert!(xml.contains("<testsuite name=\"fails\""), "{xml}");
    assert!(xml.contains("<testcase classname=\"fails\" name=\"read\" time=\"0.005\">"), "{xml}");
    let (_, cases) = junit_cases(&xml);
    assert_eq!(
        cases[0].failure.as_ref().map(|f| (f.0.as_str(), f.1.as_str())),
        Some(("no file missing.csv", "node failed"))
    );
    assert_eq!(cases[1].skipped.as_deref(), Some("what it depends on failed"));
    assert_eq!((cases[2].name.as_str(), cases[2].failure.is_none()), ("each[0]/ok", true));
}

#[test]
fn html_is_one_self_contained_page_with_the_screenshots_in_it() {
    let fixture = Fixture::load("portal-statement", &["02-completed.png"]);
    let page = html(&fixture.record(), &ReportOptions::default());
    assert!(page.starts_with("<!DOCTYPE html>"));
    assert_eq!(page.matches("<img src=\"data:image/png;base64,iVBORw0KGgo").count(), 2, "two screenshots embedded");
    assert!(page.contains("evidence/02-completed.png</code> is not shown: cannot read it"), "the missing one is named");
    for outside in ["<script", "<link", " src=\"http", " href=", "@import", "url("] {
        assert!(!page.contains(outside), "{outside} in the page");
    }
    let objective = |text: &str| page.find(text).unwrap_or_else(|| panic!("{text} not in the page"));
    let third = objective("<h3>Download the October 2026 statement</h3>");
    let recovery = objective(
        "<strong>Close dialog &quot;We value your privacy&quot; (button &quot;Reject non-essential&quot;)</strong>",
    );
    assert!(third < recovery, "the recovery step is under its objective");
    assert!(page[recovery..].contains("In the way:</span> dialog &quot;We value your privacy&quot;"));
    for shown in [
        "Run succeeded",
        "<span class=\"figure\">3/3</span> completed",
        "The plan as run (11 lines)",
        "decided by <b>the offline resolver</b>",
        "approach: the step&apos;s words matched to the page",
        "locator",
        "Planning history",
        "<strong>Plan (offline)</strong>",
        "Pass 1 judged: the request is 100 % satisfied",
        "Reflection after 3 actions — success",
    ] {
        assert!(page.contains(shown), "{shown} is not in the page");
    }
}

#[test]
fn html_escapes_every_text_of_the_record() {
    let page = html(&RunRecord::from_events("id: <b>plan</b>", &hand_made()), &ReportOptions::default());
    assert!(!page.contains("<script>alert") && !page.contains("<b>heading</b>") && !page.contains("<b>plan</b>"));
    assert!(page.contains("Check &lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt; &amp; &lt;/testcase&gt; ]]&gt;"));
    assert!(page.contains("Why it failed</span>no &lt;b&gt;heading&lt;/b&gt;"));
    assert!(page.contains("Still in progress when the run ended"));
}

/// One objective whose Send was done once (its POST answered, a PUT still unanswered) and then
/// refused as a repeat.
fn sent_once() -> Vec<planwright_runs::Event> {
    let action = |result: &str, effect: &str, requests: Value| {
        json!({"action": "click button \"Send message\"", "tool_name": "click", "locator": null, "result": result,
               "succeeded": true, "timestamp": "2026-11-27T04:44:03Z", "requests": requests, "effect": effect})
    };
    let executed = |seq: u64, action: Value| {
        event(
            seq,
            json!({"type": "progress", "node": "contact", "progress": {
                "kind": "objective", "change": "action_executed", "step": step(0, "Send the message", "objective", "in_progress"),
                "action": action, "steps": null, "completed": 0, "total": 1
            }}),
        )
    };
    vec![
        event(2, json!({"type": "node_started", "node": "contact", "attempt": 1, "inputs": {}})),
        objective(3, "contact", "planned", step(0, "Send the message", "objective", "pending"), None),
        executed(
            4,
            action(
                "done",
                "effectful",
                json!([{"method": "POST", "url": "/api/answer?form=contact", "status": 200},
                       {"method": "PUT", "url": "/api/draft", "status": null}]),
            ),
        ),
        executed(5, action("not repeated: it was already done once", "not_repeated", json!([]))),
        executed(6, action("done", "safe", json!([{"method": "POST", "url": "/api/pay", "status": 402}]))),
    ]
}

#[test]
fn html_shows_what_an_action_started_and_that_an_effect_was_done_once() {
    let page = html(&RunRecord::from_events("", &sent_once()), &ReportOptions::default());
    let first = page.find("<span class=\"effect once\"").expect("the send is marked done once");
    let requests = page[first..].find("<span class=\"requests\">started <code class=\"request\">POST /api/answer?form=contact → 200</code><code class=\"request\">PUT /api/draft → no answer yet</code></span>");
    assert!(requests.is_some(), "{page}");
    assert!(page.contains(">done once</span>") && page.contains(">not repeated</span>"), "{page}");
    assert!(page.contains("<code class=\"request refused\">POST /api/pay → 402</code>"), "a refused answer stands out");
    assert_eq!(page.matches("class=\"requests\"").count(), 2, "an action that started nothing shows no requests");
}

#[test]
fn html_shows_the_failure_the_revisions_and_the_passes() {
    let fixture = Fixture::load("shop-export", &[]);
    let page = html(&fixture.record(), &ReportOptions::default());
    for shown in [
        "Why it failed</span>click: nothing on the page matches &quot;Export to PDF&quot;",
        "<strong>Revision 1</strong>",
        "<strong>Continuation plan for pass 2 (offline)</strong>",
        "Pass 1 judged: the request is 40 % satisfied",
        "Reflection on failed attempt 1 at objective 2 — failure",
        "<span class=\"pill failed\">not passed</span>",
        "<span class=\"pill large failed\">Run finished, not passed</span><span class=\"reason\">1 step did not pass</span>",
    ] {
        assert!(page.contains(shown), "{shown} is not in the page");
    }
}

#[test]
fn html_is_written_in_the_readers_language_with_times_in_their_zone() {
    let fixture = Fixture::load("shop-export", &[]);
    let options = ReportOptions::new("ja-JP", "Asia/Tokyo").unwrap();
    let page = html(&fixture.record(), &options);
    for shown in [
        "<html lang=\"ja\">",
        "<span class=\"label\">失敗の理由</span>",
        "<strong>計画の見直し（1 回目）</strong>",
        "1 回目の実行を判定：達成度 40 %",
        "<span class=\"pill large failed\">実行：完了（未達成あり）</span><span class=\"reason\">1 ステップが未達成です</span>",
        "時刻は Asia/Tokyo です。",
        "進め方：目標のページを開き直す",
    ] {
        assert!(page.contains(shown), "{shown} is not in the page");
    }
    // The page's own words and the runner's English details stay as they were recorded.
    assert!(page.contains("Export to PDF"));
    for english in ["Why it failed", "Revision 1", "Run finished", "Planning history", " UTC"] {
        assert!(!page.contains(english), "{english} is still in the Japanese page");
    }
    let started = fixture.record().started_at.expect("the run's start");
    let tokyo = jiff::tz::TimeZone::get("Asia/Tokyo").unwrap();
    let local =
        started.parse::<jiff::Timestamp>().unwrap().to_zoned(tokyo).strftime("%Y-%m-%d %H:%M:%S JST").to_string();
    assert!(page.contains(&format!("<dd>{local}</dd>")), "the start {started} is not shown as {local}");
}

#[test]
fn the_runners_coded_evidence_and_recovery_steps_are_said_in_japanese() {
    let mut done = step(0, "Sign in", "objective", "completed");
    done["completion_evidence"] = json!("textbox \"User ID\" holds {{PORTAL_USER}} (9 characters)");
    done["evidence_parts"] = json!([{"text": "textbox \"User ID\" holds {{PORTAL_USER}} (9 characters)", "said": [
        {"key": "proof_field_holds_placeholder", "params": {"role": "textbox", "name": "User ID", "value": "{{PORTAL_USER}}", "chars": 9}}
    ]}]);
    let mut recovery = step(1, "Close dialog \"Cookies\" (button \"OK\")", "recovery", "completed");
    recovery["parent_index"] = json!(0);
    recovery["blocking_reason"] = json!("dialog \"Cookies\"");
    recovery["completion_evidence"] = json!("dialog \"Cookies\" went away after pressing button \"OK\"");
    let element = json!({"blocking_role": "dialog", "blocking": "Cookies", "choice_role": "button", "choice": "OK"});
    recovery["description_said"] = json!({"key": "recovery_close", "params": element});
    recovery["evidence_said"] = json!({"key": "blocker_gone", "params": element});
    let events = vec![
        event(1, json!({"type": "node_started", "node": "portal", "attempt": 1, "inputs": {}})),
        objective(
            2,
            "portal",
            "planned",
            step(0, "Sign in", "objective", "pending"),
            Some(vec![step(0, "Sign in", "objective", "pending")]),
        ),
        objective(3, "portal", "recovery_inserted", recovery.clone(), None),
        objective(4, "portal", "completed", recovery, None),
        objective(5, "portal", "completed", done, None),
        event(
            6,
            json!({"type": "log", "node": "portal", "level": "warn",
            "message": "sum of “amount”: 2 values are not numbers and were left out.",
            "said": {"key": "values_not_numbers", "params": {"op": "sum", "field": "amount", "count": 2}}}),
        ),
        // A look back at a failed attempt and the revision it led to, as the runner codes them.
        event(
            6,
            json!({"type": "progress", "node": "portal", "progress": {"kind": "planning", "entry": {
                "type": "reflection", "timestamp": "2026-11-27T04:44:02Z", "trigger": "error", "objective": 1,
                "attempt": 1, "actions": 2, "status": "failure", "plan_revision_needed": true, "satisfaction": null,
                "made_by": "offline",
                "evaluation": "Objective 1, attempt 1 (the step's words matched to the page) failed: nothing matches \"Sign in\". The page was still changing.",
                "evaluation_said": [
                    {"key": "objective_not_reached", "params": {"kind": "not_found", "attempts": 1}},
                    {"key": "reflection_page", "params": {"at_rest": false}},
                    {"key": "reflection_next"},
                    {"key": "approach_described", "params": {"approach": "wait_for_page"}}
                ]
            }}}),
        ),
        event(
            7,
            json!({"type": "progress", "node": "portal", "progress": {"kind": "planning", "entry": {
                "type": "revision", "timestamp": "2026-11-27T04:44:03Z", "number": 1,
                "reason": "objective 1 failed: nothing matches \"Sign in\"",
                "reason_said": [{"key": "objective_not_reached", "params": {"kind": "not_found", "attempts": 1}}],
                "changes": [{"objective": 1, "kind": "wait_added", "approach": "wait_for_page",
                    "description": "wait for the page to settle before looking and judging",
                    "description_said": {"key": "approach_described", "params": {"approach": "wait_for_page"}},
                    "execution_plan_before": [], "execution_plan_after": []}]
            }}}),
        ),
    ];
    let record = RunRecord::from_events("id: portal", &events);
    let page = html(&record, &ReportOptions::new("ja", "Asia/Tokyo").unwrap());
    for shown in [
        "「User ID」欄に {{PORTAL_USER}} が入っています（9 文字）。",
        "ダイアログ「Cookies」を閉じる（「OK」ボタン）",
        "妨げになったもの：</span> ダイアログ「Cookies」",
        "「OK」ボタンを押すとダイアログ「Cookies」が消えました。",
        "1 回試しても達成できませんでした: 必要なものがページにありません。ページはまだ変わり続けていました。",
        "次に試すこと（この目標ではまだ試していません）：ページが落ち着くのを待ってから見て判断する",
        "目標 1：ページが落ち着くのを待ってから見て判断する",
        "「amount」の sum: 数値でない値 2 件を除きました。",
    ] {
        assert!(page.contains(shown), "{shown} is not in the page");
    }
    let english = html(&record, &ReportOptions::default());
    assert!(english.contains("textbox &quot;User ID&quot; holds {{PORTAL_USER}} (9 characters)"), "{english}");
    // In English the runner's own words, which name what was not found.
    assert!(english.contains("nothing matches &quot;Sign in&quot;. The page was still changing."), "{english}");
}

#[test]
fn allure_writes_a_result_per_browser_node_with_objectives_as_nested_steps_and_screenshots_attached() {
    let fixture = Fixture::load("portal-statement", &[]);
    let dir = fixture.dir.path().join("allure-results");
    let written = allure(&fixture.record(), &dir).unwrap();
    let results: Vec<_> = written.iter().filter(|p| p.to_str().unwrap().ends_with("-result.json")).collect();
    assert_eq!((results.len(), written.len()), (1, 4), "one result and three screenshots: {written:?}");
    let result: Value = serde_json::from_slice(&std::fs::read(results[0]).unwrap()).unwrap();
    assert!(results[0].ends_with(format!("{}-result.json", result["uuid"].as_str().unwrap())));
    assert_eq!(
        (result["name"].as_str(), result["status"].as_str(), result["stage"].as_str()),
        (Some("download"), Some("passed"), Some("finished"))
    );
    assert_eq!(result["fullName"], "portal-statement.download");
    assert_eq!(result["historyId"].as_str().unwrap().len(), 32);
    assert!(
        result["start"].as_i64().unwrap() > 1_700_000_000_000 && result["stop"].as_i64() >= result["start"].as_i64()
    );
    assert!(result["labels"].as_array().unwrap().contains(&json!({"name": "suite", "value": "portal-statement"})));
    let steps = result["steps"].as_array().unwrap();
    assert_eq!(steps.len(), 3);
    assert_eq!(steps[2]["name"], "3. Download the October 2026 statement");
    let inner: Vec<&str> = steps[2]["steps"].as_array().unwrap().iter().map(|s| s["name"].as_str().unwrap()).collect();
    assert_eq!(inner[0], "recovery: Close dialog \"We value your privacy\" (button \"Reject non-essential\")");
    assert!(inner[1].starts_with("click getByRole(\"link\", { name: \"Download\""), "{inner:?}");
    let recovery = &steps[2]["steps"][0];
    assert_eq!(recovery["status"], "passed");
    assert_eq!(
        recovery["steps"][0]["parameters"][0],
        json!({"name": "locator", "value": "getByRole(\"button\", { name: \"Reject non-essential\", exact: true })"})
    );
    for step in steps {
        let attachment = &step["attachments"][0];
        assert_eq!(attachment["type"], "image/png");
        assert!(dir.join(attachment["source"].as_str().unwrap()).is_file(), "{attachment}");
        assert_eq!(step["stage"], "finished");
    }
    assert_eq!(allure(&fixture.record(), &dir).unwrap(), written, "writing again replaces the same files");
    assert_eq!(std::fs::read_dir(&dir).unwrap().count(), 4);
}

#[test]
fn allure_results_are_never_written_through_a_link() {
    let fixture = Fixture::load("portal-statement", &[]);
    let elsewhere = fixture.dir.path().join("elsewhere");
    std::fs::create_dir(&elsewhere).unwrap();
    // The folder named is a link: refused, nothing written where it points.
    let linked = fixture.dir.path().join("allure-link");
    std::os::unix::fs::symlink(&elsewhere, &linked).unwrap();
    let error = allure(&fixture.record(), &linked).unwrap_err().to_string();
    assert!(error.contains("is a link"), "{error}");
    assert_eq!(std::fs::read_dir(&elsewhere).unwrap().count(), 0);
    // A link planted at a result's name: refused, its target kept.
    let dir = fixture.dir.path().join("allure-results");
    let written = allure(&fixture.record(), &dir).unwrap();
    let target = elsewhere.join("precious.txt");
    std::fs::write(&target, "keep me").unwrap();
    std::fs::remove_file(&written[0]).unwrap();
    std::os::unix::fs::symlink(&target, &written[0]).unwrap();
    assert!(allure(&fixture.record(), &dir).is_err());
    assert_eq!(std::fs::read_to_string(&target).unwrap(), "keep me");
}

#[test]
fn allure_fails_the_result_of_an_objective_that_failed_and_names_a_missing_screenshot() {
    let fixture = Fixture::load("shop-export", &["02-failed-pass2.png"]);
    let dir = fixture.dir.path().join("allure");
    allure(&fixture.record(), &dir).unwrap();
    let result_file = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .find(|p| p.to_str().unwrap().ends_with("-result.json"))
        .unwrap();
    let result: Value = serde_json::from_slice(&std::fs::read(result_file).unwrap()).unwrap();
    assert_eq!(result["status"], "failed");
    let message = result["statusDetails"]["message"].as_str().unwrap();
    assert!(message.starts_with("objective 2 failed: click: nothing on the page matches"), "{message}");
    assert!(result["statusDetails"]["trace"].as_str().unwrap().starts_with("attempts: 4\n- open http://"));
    let failed = &result["steps"][1];
    assert_eq!(failed["status"], "failed");
    assert_eq!(failed["attachments"], json!([]));
    let named = failed["parameters"].as_array().unwrap().iter().any(|p| {
        p["name"] == "screenshot not attached"
            && p["value"].as_str().unwrap().contains("02-failed-pass2.png: cannot read it")
    });
    assert!(named, "{failed}");
}

#[test]
fn the_format_follows_the_extension() {
    let record = RunRecord::from_events("", &hand_made());
    assert_eq!(Format::for_path("r.xml".as_ref()).unwrap().render(&record, &ReportOptions::default()), junit(&record));
    assert_eq!(
        Format::for_path("r.htm".as_ref()).unwrap().render(&record, &ReportOptions::default()),
        html(&record, &ReportOptions::default())
    );
    assert_eq!((Format::Html.extension(), Format::Junit.media_type()), ("html", "application/xml"));
}

#[test]
fn allure_gives_a_plain_browser_node_a_result_without_steps_and_leaves_other_nodes_out() {
    let dir = tempfile::tempdir().unwrap();
    let shot = dir.path().join("page.png");
    std::fs::write(&shot, support::png(32, 20)).unwrap();
    let plan = "apiVersion: planwright/v1\nid: shots\nversion: 1.0.0\ngraph:\n  - id: open\n    block: browser.screenshot\n    in: {path: page.png}\n  - id: read\n    block: file.read_csv\n    in: {path: a.csv}\n";
    let events = vec![
        event(1, json!({"type": "node_started", "node": "open", "attempt": 1, "inputs": {}})),
        event(
            2,
            json!({"type": "artifact", "node": "open", "path": shot.to_str().unwrap(), "kind": "screenshot", "bytes": 10}),
        ),
        event(3, json!({"type": "node_finished", "node": "open", "elapsed_ms": 40, "attempts": 1, "outputs": {}})),
        event(4, json!({"type": "node_finished", "node": "read", "elapsed_ms": 2, "attempts": 1, "outputs": {}})),
    ];
    let out = dir.path().join("results");
    let written = allure(&RunRecord::from_events(plan, &events), &out).unwrap();
    assert_eq!(written.len(), 2, "one result and its screenshot: {written:?}");
    let result_file = written.iter().find(|p| p.to_str().unwrap().ends_with("-result.json")).unwrap();
    let result: Value = serde_json::from_slice(&std::fs::read(result_file).unwrap()).unwrap();
    assert_eq!((result["name"].as_str(), result["status"].as_str()), (Some("open"), Some("passed")));
    assert_eq!(result["steps"], json!([]));
    assert!(result["labels"].as_array().unwrap().contains(&json!({"name": "feature", "value": "browser.screenshot"})));
    assert_eq!(result["attachments"][0]["name"], "page.png");
    assert!(out.join(result["attachments"][0]["source"].as_str().unwrap()).is_file());
}
