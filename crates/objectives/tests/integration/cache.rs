//! The action cache offline: a second run of the same task on the same site replays every
//! objective's actions (after checking each target), reaches the same outcome, and says so;
//! the block's outputs are exactly those its spec declares.

use crate::support;

use planwright_catalog::Catalog;
use planwright_sites::FixtureSites;
use support::{run_task_on, task, Task};

#[tokio::test]
async fn a_second_run_replays_every_objective_from_the_cache() {
    let sites = FixtureSites::start().await.unwrap();
    let task = task("portal_statement_download");
    let first = run_task_on(&sites, &task, false, tempfile::tempdir().unwrap(), None).await;
    assert!(first.mismatches(&task).is_empty(), "{:?}", first.mismatches(&task));
    assert_eq!(first.outputs["report"]["replayed_from_cache"], 0);
    let downloaded = first.workdir.path().join("downloads/statement-2026-10.csv");
    assert!(downloaded.is_file(), "the statement is saved in the work folder's downloads");
    assert_eq!(first.outputs["report"]["downloads"][0]["file"], "statement-2026-10.csv");
    // Recorded as the run's file, so its results list it.
    assert!(
        first.events.iter().any(|e| matches!(&e.kind, planwright_runs::EventKind::Artifact { path, kind: planwright_runs::ArtifactKind::File, .. }
            if std::path::Path::new(path) == downloaded)),
        "{:?}",
        first.events
    );

    sites.reset();
    let second = run_task_on(&sites, &task, false, first.home, None).await;
    // Every attempt's reason is in the step log: a replay that failed says why.
    let log = std::fs::read_to_string(second.records().join("steps.jsonl")).unwrap();
    assert!(second.mismatches(&task).is_empty(), "{:?}\n{log}", second.mismatches(&task));
    assert_eq!(second.outputs["report"]["replayed_from_cache"], 3, "{}\n{log}", second.notes());
    assert_eq!(second.outputs["report"]["model_calls"], 0);
    // The cookie banner came back in the new browser: got out of the way again, not cached.
    assert!(second.objective_changes().iter().any(|c| c == "recovery_inserted"));
    // (A banner that comes up as a cached click is made takes it: that attempt fails, and the
    // next replays again.)
    let replayed = log.lines().filter(|l| l.contains("\"decidedBy\":\"cache\"") && l.contains("\"success\":true"));
    assert_eq!(replayed.count(), 3, "{log}");

    // The block's outputs are what its spec declares, typed as declared.
    let catalog = Catalog::bundled().unwrap();
    let spec = catalog.get("browser.run_objectives").unwrap();
    let produced: Vec<&String> = second.outputs.as_object().unwrap().keys().collect();
    let declared: Vec<&String> = spec.outputs.keys().collect();
    assert_eq!(produced, declared);
    for (key, value) in second.outputs.as_object().unwrap() {
        assert!(spec.outputs[key].ty().admits(value), "{key} = {value}");
    }
}

/// A dialog that comes up over the page while cached actions are replayed (here when the pointer
/// reaches the button) is taken out of the way as on a first run, and the replay goes on: the
/// objective is still done from the cache, and the save is made once.
#[tokio::test]
async fn a_dialog_that_covers_a_cached_click_is_cleared_and_the_replay_goes_on() {
    let sites = FixtureSites::start().await.unwrap();
    let task = Task::new(
        "hover",
        "/effects/hover-consent.html",
        "1. Enter \"R-1042\" in Reference\n2. Click \"Save reference\"",
    );
    let first = run_task_on(&sites, &task, false, tempfile::tempdir().unwrap(), None).await;
    assert_eq!(first.outputs["passed"], true, "{}", first.notes());
    assert_eq!(sites.events("reference_saved").len(), 1, "{}", first.notes());

    sites.reset();
    let second = run_task_on(&sites, &task, false, first.home, None).await;
    let log = std::fs::read_to_string(second.records().join("steps.jsonl")).unwrap();
    assert_eq!(second.outputs["passed"], true, "{}\n{log}", second.notes());
    assert_eq!(second.outputs["report"]["replayed_from_cache"], 2, "{}\n{log}", second.notes());
    assert!(second.objective_changes().iter().any(|c| c == "recovery_inserted"), "{log}");
    let saved = sites.events("reference_saved");
    assert_eq!(saved.len(), 1, "saved once in the second run: {saved:?}");
    assert_eq!(saved[0]["detail"]["reference"], "R-1042");
}

/// A consent banner that takes a cached click (it comes up as the click is made, and the click
/// shows it and nothing else) says nothing against the cached actions: the entry is kept, and
/// the next attempt answers the banner and replays them again, from the cache.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_banner_that_takes_a_cached_click_keeps_the_entry_and_the_replay_is_made_again() {
    let sites = FixtureSites::start().await.unwrap();
    let task = Task::new("banner", "/effects/late-banner.html?instant=1", "1. Click \"Show balance\"");
    let first = run_task_on(&sites, &task, false, tempfile::tempdir().unwrap(), None).await;
    assert_eq!(first.outputs["passed"], true, "{}", first.notes());

    sites.reset();
    let second = run_task_on(&sites, &task, false, first.home, None).await;
    let log = std::fs::read_to_string(second.records().join("steps.jsonl")).unwrap();
    assert_eq!(second.outputs["passed"], true, "{}\n{log}", second.notes());
    assert_eq!(second.outputs["report"]["replayed_from_cache"], 1, "{}\n{log}", second.notes());
    let replays = log.lines().filter(|l| l.contains("\"decidedBy\":\"cache\"")).count();
    assert_eq!(replays, 2, "the taken click, then the replay that did it: {log}");
    assert_eq!(sites.events("balance_shown").len(), 1, "{}", second.notes());
}
