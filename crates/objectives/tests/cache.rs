//! The action cache offline: a second run of the same task on the same site replays every
//! objective's actions (after checking each target), reaches the same outcome, and says so;
//! the block's outputs are exactly those its spec declares.

mod support;

use planwright_catalog::Catalog;
use planwright_sites::FixtureSites;
use support::{run_task_on, task};

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
    assert!(second.mismatches(&task).is_empty(), "{:?}", second.mismatches(&task));
    assert_eq!(second.outputs["report"]["replayed_from_cache"], 3, "{}", second.notes());
    assert_eq!(second.outputs["report"]["model_calls"], 0);
    // The cookie banner came back in the new browser: got out of the way again, not cached.
    assert!(second.objective_changes().iter().any(|c| c == "recovery_inserted"));
    let log = std::fs::read_to_string(second.records().join("steps.jsonl")).unwrap();
    assert!(log.lines().filter(|l| l.contains("\"decidedBy\":\"cache\"")).count() == 3, "{log}");

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
