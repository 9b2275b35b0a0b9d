//! Actions that change the world are done once, and judged wherever their effect shows: a
//! thank-you inside another site's frame, a toast gone after 1.5 s; a page's error — an alert,
//! a declined card, 「該当する伝票はありません」 — fails the objective instead of proving it; an
//! effect not seen is never repeated on its own, by the offline path, the model's or the cache:
//! the person checks and says "it was done" or "do it again". Each judged by what the fixture
//! server recorded, and how many times.

use crate::support;

use planwright_llm_replay::{Match, ReplayServer, Reply, Script};
use planwright_sites::FixtureSites;
use serde_json::json;
use support::{client, run_plan_on, run_task, run_task_on, Person, Task, TaskRun};

/// Objective `n`'s note in the node's report (its evidence, or why it failed).
fn note(run: &TaskRun, n: usize) -> String {
    run.outputs["report"]["steps"][n]["note"].as_str().unwrap_or_default().to_owned()
}

const CONTACT: &str = "1. Type \"Priya Raman\" into \"Name\"\n2. Type \"priya.raman@example.com\" into \"Email\"\n3. Type \
                       \"The CSV export on the Reports page has been empty since Monday.\" into \"How can we help?\"\n4. \
                       Click \"Send message\"";

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_form_in_a_cross_origin_frame_is_sent_once_and_the_thanks_inside_the_frame_is_its_evidence() {
    let task = Task::new("frame", "/objectives/helpline/contact.html", CONTACT);
    let run = run_task(&task, false, tempfile::tempdir().unwrap(), None).await;
    assert_eq!(run.outputs["passed"], true, "{}", run.notes());
    assert_eq!(run.recorded("contact").len(), 1, "{}", run.notes());
    let sent = note(&run, 3);
    assert!(sent.contains("pressed once") && sent.contains("has been sent"), "{sent}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_save_shown_only_by_a_toast_is_saved_once_and_keeps_the_option_ticked_before_it() {
    let task = Task::new(
        "toast",
        "/objectives/brightdesk/preferences.html",
        "1. Tick \"Email me a daily digest\"\n2. Click \"Save settings\"",
    );
    let run = run_task(&task, false, tempfile::tempdir().unwrap(), None).await;
    assert_eq!(run.outputs["passed"], true, "{}", run.notes());
    assert_eq!(run.recorded("settings_saved").len(), 1, "{}", run.notes());
    let saved = run.recorded("setting_changed");
    assert_eq!(saved.len(), 1, "{saved:?}");
    assert_eq!(saved[0]["detail"], json!({"name": "daily_digest", "on": true}));
    assert!(note(&run, 1).contains("Settings saved"), "{}", note(&run, 1));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_page_that_answers_with_an_error_fails_the_objective_with_the_error_as_its_reason() {
    let cases = [
        (
            Task::new(
                "alert",
                "/objectives/brightdesk/customers.html",
                "1. Type \"88213\" into \"Customer ID\"\n2. Click \"Find\"",
            ),
            "customer_search",
            "No customer with that ID",
        ),
        (
            Task::new("denpyo", "/objectives/gyomu/denpyo.html", "1. 「伝票番号」に「5531」と入力する\n2. 「検索」を押す"),
            "denpyo_search",
            "該当する伝票はありません",
        ),
        (
            Task::new(
                "declined",
                "/objectives/brightdesk/checkout.html",
                "1. Type \"Lena Fischer\" into \"Name on card\"\n2. Type \"4000 0000 0000 0002\" into \"Card number\"\n3. \
                 Type \"12/29\" into \"Expiry (MM/YY)\"\n4. Type \"314\" into \"CVC\"\n5. Click \"Pay €49.00\"",
            ),
            "payment",
            "Card declined",
        ),
    ];
    for (mut task, action, error) in cases {
        task.inputs.insert("on_unsatisfied".into(), json!("report"));
        let run = run_task(&task, true, tempfile::tempdir().unwrap(), None).await;
        assert_eq!(run.outputs["passed"], false, "{}: {}", task.id, run.notes());
        assert_eq!(run.recorded(action).len(), 1, "{}: done once, never again: {}", task.id, run.notes());
        let failed = note(&run, run.outputs["report"]["steps"].as_array().unwrap().len() - 1);
        assert!(failed.contains(error), "{}: {failed}", task.id);
    }
}

/// A model that buys the keyboard, and an evaluator that does not see it bought; then `then`.
fn buys_then_doubts(then: Vec<(Match, Reply)>) -> Script {
    let buy = json!({"status": "act", "reason": "", "actions": [{"method": "getByRole",
        "selector": {"role": "button", "name": "Buy now", "text": null, "testId": null, "near": null},
        "action": "click", "value": null, "confidence": 0.8, "rationale": "the keyboard's one-click purchase"}]});
    let doubt = json!({"achieved": false, "evidence": "no confirmation of the order is visible"});
    let script = Script::new()
        .on(Match::schema("action_decision"), Reply::json(&buy))
        .on(Match::schema("objective_judgement"), Reply::json(&doubt));
    let script = then.into_iter().fold(script, |script, (when, reply)| script.on(when, reply));
    // Every other call of the planning layer (its plan, reflections…) falls back offline.
    script.always(Match::chat(), Reply::text("no"))
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_effect_not_seen_is_never_repeated_and_the_person_says_it_was_done_or_to_do_it_again() {
    let sites = FixtureSites::start().await.unwrap();
    let task = Task::new("keyboard", "/products.html?instant=1", "1. Get the mechanical keyboard");

    // Not seen, not asked: the node fails, the keyboard bought once.
    let server = ReplayServer::start(buys_then_doubts(Vec::new())).await;
    let mut reported = task.clone();
    reported.inputs.insert("on_unsatisfied".into(), json!("report"));
    let run = run_task_on(&sites, &reported, true, tempfile::tempdir().unwrap(), Some(client(&server))).await;
    assert_eq!(run.outputs["passed"], false, "{}", run.notes());
    assert_eq!(run.recorded("buy_now").len(), 1, "{}", run.notes());
    assert!(note(&run, 0).contains("may have taken effect"), "{}", note(&run, 0));

    // The person looked and it was done: the objective is done on their word, bought once.
    sites.reset();
    let server = ReplayServer::start(buys_then_doubts(Vec::new())).await;
    let plan = task.plan(&sites.url(&task.start), false);
    let person = Person::answering(vec![json!({"choice": "it_was_done"})]);
    let none = Default::default();
    let run =
        run_plan_on(&sites, "done", &plan, &none, tempfile::tempdir().unwrap(), Some(client(&server)), person.clone())
            .await;
    assert_eq!(run.outputs["passed"], true, "{}", run.notes());
    assert_eq!(run.recorded("buy_now").len(), 1, "{}", run.notes());
    let offered = person.asked()[0].clone();
    let offered = serde_json::to_string(&offered).unwrap();
    assert!(offered.contains("it_was_done") && offered.contains("do_again"), "{offered}");
    assert!(note(&run, 0).contains("confirmed it was done"), "{}", note(&run, 0));

    // The person looked and it was not: done once more, because they said so.
    sites.reset();
    let seen = json!({"achieved": true, "evidence": "Mechanical keyboard: ordered with one click."});
    let buy = json!({"status": "act", "reason": "", "actions": [{"method": "getByRole",
        "selector": {"role": "button", "name": "Buy now", "text": null, "testId": null, "near": null},
        "action": "click", "value": null, "confidence": 0.8, "rationale": "again, as asked"}]});
    let again = vec![
        (Match::schema("action_decision"), Reply::json(&buy)),
        (Match::schema("objective_judgement"), Reply::json(&seen)),
    ];
    let server = ReplayServer::start(buys_then_doubts(again)).await;
    let person = Person::answering(vec![json!({"choice": "do_again"})]);
    let run =
        run_plan_on(&sites, "again", &plan, &none, tempfile::tempdir().unwrap(), Some(client(&server)), person).await;
    assert_eq!(run.outputs["passed"], true, "{}", run.notes());
    assert_eq!(run.recorded("buy_now").len(), 2, "once, then once more on the person's word: {}", run.notes());
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_send_answered_after_its_action_settled_is_done_once_without_asking() {
    // The server takes the report at once and answers it 7 s later, after the click's 5 s of
    // settling: the post is still unanswered in the action's report, and the page shows nothing.
    let mut task = Task::new("slow", "/effects/silent.html?delay_ms=7000", "1. Click \"Send report\"");
    task.inputs.insert("on_unsatisfied".into(), json!("report"));
    let run = run_task(&task, false, tempfile::tempdir().unwrap(), None).await;
    assert_eq!(run.outputs["passed"], true, "{}", run.notes());
    assert_eq!(run.recorded("report_sent").len(), 1, "{}", run.notes());
    let sent = note(&run, 0);
    assert!(sent.contains("pressed once") && sent.contains("POST /api/answer?delay_ms=7000 → 200"), "{sent}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_cached_send_is_replayed_once_a_run() {
    let sites = FixtureSites::start().await.unwrap();
    let task = Task::new("cached", "/objectives/helpline/contact.html", CONTACT);
    let first = run_task_on(&sites, &task, true, tempfile::tempdir().unwrap(), None).await;
    assert_eq!(first.outputs["passed"], true, "{}", first.notes());
    assert_eq!(first.recorded("contact").len(), 1);
    sites.reset();
    let second = run_task_on(&sites, &task, true, first.home, None).await;
    assert_eq!(second.outputs["passed"], true, "{}", second.notes());
    assert!(second.outputs["report"]["replayed_from_cache"].as_u64().unwrap_or(0) >= 1, "{}", second.outputs["report"]);
    assert_eq!(second.recorded("contact").len(), 1, "{}", second.notes());
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_send_is_not_repeated_when_the_rest_of_its_objective_fails() {
    let steps = CONTACT.replace("Click \"Send message\"", "Click \"Send message\", then click \"Print receipt\"");
    let mut task = Task::new("rest", "/objectives/helpline/contact.html", &steps);
    task.inputs.insert("on_unsatisfied".into(), json!("report"));
    let run = run_task(&task, true, tempfile::tempdir().unwrap(), None).await;
    assert_eq!(run.outputs["passed"], false, "{}", run.notes());
    assert_eq!(run.recorded("contact").len(), 1, "sent once, however often the objective was tried: {}", run.notes());
    let attempts = run.outputs["report"]["steps"][3]["attempts"].as_u64().unwrap_or(0);
    assert!(attempts >= 2, "the objective was tried again ({attempts}): {}", run.notes());
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_banner_that_takes_the_click_is_not_its_evidence_and_the_click_is_made_again() {
    let task = Task::new("banner", "/effects/late-banner.html?instant=1", "1. Click \"Show balance\"");
    let run = run_task(&task, true, tempfile::tempdir().unwrap(), None).await;
    assert_eq!(run.outputs["passed"], true, "{}", run.notes());
    assert_eq!(run.recorded("balance_shown").len(), 1, "{}", run.notes());
    assert!(note(&run, 0).contains("Balance due"), "{}", note(&run, 0));
}
