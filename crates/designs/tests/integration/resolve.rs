//! Listing registered plans and resolving plan references, on real folders.

use crate::common;

use std::fs;
use std::path::{Path, PathBuf};

use common::{plan_text, write};
use planwright_designs::{Designs, Registered, Resolution};

fn found(resolution: Resolution) -> (String, String, PathBuf) {
    match resolution {
        Resolution::Found { plan, path } => (plan.id.clone(), plan.version.clone(), path),
        other => panic!("expected Found, got {other:?}"),
    }
}

fn candidates(resolution: Resolution) -> Vec<String> {
    match resolution {
        Resolution::NotFound { candidates } => candidates,
        other => panic!("expected NotFound, got {other:?}"),
    }
}

fn unreadable(resolution: Resolution) -> (PathBuf, String) {
    match resolution {
        Resolution::Unreadable { path, message } => (path, message),
        other => panic!("expected Unreadable, got {other:?}"),
    }
}

fn name_of(path: &Path) -> &str {
    path.file_name().unwrap().to_str().unwrap()
}

#[test]
fn the_newest_stamp_wins() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path();
    write(dir, "p_202601010000.yaml", &plan_text("p", "1.0.0"));
    write(dir, "p_202612312359.yaml", &plan_text("p", "2.0.0"));
    write(dir, "p_202606010000.yaml", &plan_text("p", "1.5.0"));
    let designs = Designs::new(dir);

    let (id, version, path) = found(designs.resolve("p"));
    assert_eq!((id.as_str(), version.as_str(), name_of(&path)), ("p", "2.0.0", "p_202612312359.yaml"));
    assert_eq!(path, dir.join("p_202612312359.yaml"));
}

#[test]
fn id_at_version_picks_by_the_plans_version() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path();
    write(dir, "p_202601010000.yaml", &plan_text("p", "1.0.0"));
    write(dir, "p_202602010000.yaml", &plan_text("p", "1.0.0"));
    write(dir, "p_202603010000.yaml", &plan_text("p", "1.1.0"));
    write(dir, "p_202604010000.yaml", &plan_text("p", "2.0.0"));
    let designs = Designs::new(dir);

    let (_, version, path) = found(designs.resolve("p@1.0.0"));
    assert_eq!((version.as_str(), name_of(&path)), ("1.0.0", "p_202602010000.yaml"), "the newest of that version");
    let (_, version, path) = found(designs.resolve("p@1.1.0"));
    assert_eq!((version.as_str(), name_of(&path)), ("1.1.0", "p_202603010000.yaml"));
    let (_, version, _) = found(designs.resolve("p"));
    assert_eq!(version, "2.0.0");

    // A known id with an unknown version suggests the known versions, newest first.
    assert_eq!(candidates(designs.resolve("p@9.9.9")), vec!["p@2.0.0", "p@1.1.0", "p@1.0.0"]);
    assert_eq!(candidates(designs.resolve("p@")), vec!["p@2.0.0", "p@1.1.0", "p@1.0.0"]);
}

#[test]
fn ids_with_underscores_and_digits_parse_from_the_last_underscore() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path();
    write(dir, "a_1_202601010000.yaml", &plan_text("a_1", "1.0.0"));
    write(dir, "a_202601020000.yaml", &plan_text("a", "3.0.0"));
    write(dir, "2024_report_v2_202605051230.yaml", &plan_text("2024_report_v2", "1.0.0"));
    let designs = Designs::new(dir);

    let registered = designs.registered().unwrap();
    let ids: Vec<(&str, &str)> = registered.iter().map(|r| (r.plan_id.as_str(), r.stamp.as_str())).collect();
    assert_eq!(ids, vec![("2024_report_v2", "202605051230"), ("a", "202601020000"), ("a_1", "202601010000")]);
    assert_eq!(
        registered[2],
        Registered { plan_id: "a_1".into(), stamp: "202601010000".into(), path: dir.join("a_1_202601010000.yaml") }
    );

    assert_eq!(found(designs.resolve("a_1")).1, "1.0.0");
    assert_eq!(found(designs.resolve("a")).1, "3.0.0");
    assert_eq!(found(designs.resolve("2024_report_v2")).0, "2024_report_v2");
}

#[test]
fn registered_is_sorted_by_id_then_stamp() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path();
    for name in ["b_202602010000.yaml", "a_202603010000.yaml", "b_202601010000.yaml", "a-z_202601010000.yaml"] {
        write(dir, name, &plan_text("x", "1.0.0"));
    }
    let names: Vec<String> =
        Designs::new(dir).registered().unwrap().iter().map(|r| name_of(&r.path).to_owned()).collect();
    assert_eq!(
        names,
        // By id (`a` before `a-z`), not by file name (`_` sorts after `-`).
        ["a_202603010000.yaml", "a-z_202601010000.yaml", "b_202601010000.yaml", "b_202602010000.yaml"]
    );
}

#[test]
fn non_matching_files_are_ignored() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path();
    let text = plan_text("p", "1.0.0");
    for name in [
        "p.yaml",
        "notes.txt",
        "p_2026.yaml",
        "p_20260101000.yaml",
        "p_2026010100000.yaml",
        "p_202601010000.yml",
        "p_202601010000.yaml.bak",
        "P_202601010000.yaml",
        "_202601010000.yaml",
        "-p_202601010000.yaml",
        "p_20260101000x.yaml",
        ".p_202601010000.abc123.tmp",
    ] {
        write(dir, name, &text);
    }
    fs::create_dir(dir.join("q_202601010000.yaml")).unwrap();
    write(dir, "p_202601010000.yaml", &text);
    let designs = Designs::new(dir);

    let registered = designs.registered().unwrap();
    assert_eq!(registered.len(), 1, "{registered:?}");
    assert_eq!(registered[0].plan_id, "p");
    assert_eq!(found(designs.resolve("p")).2, dir.join("p_202601010000.yaml"));
    assert!(matches!(designs.resolve("q"), Resolution::NotFound { .. }));
}

#[test]
fn a_missing_designs_folder_is_empty() {
    let tmp = tempfile::tempdir().unwrap();
    let designs = Designs::new(tmp.path().join("nope"));
    assert_eq!(designs.registered().unwrap(), Vec::new());
    assert_eq!(candidates(designs.resolve("p")), Vec::<String>::new());
    assert!(!tmp.path().join("nope").exists(), "resolving creates nothing");
}

#[test]
fn fallback_dirs_hold_plain_id_files() {
    let tmp = tempfile::tempdir().unwrap();
    let designs_dir = tmp.path().join("designs");
    let here = tmp.path().join("here");
    let also = tmp.path().join("also");
    write(&here, "helper.yaml", &plan_text("helper", "1.0.0"));
    write(&here, "other.yaml", &plan_text("different", "1.0.0"));
    write(&also, "other.yaml", &plan_text("other", "4.0.0"));
    write(&also, "helper.yaml", &plan_text("helper", "2.0.0"));
    let designs = Designs::new(&designs_dir).with_fallback_dir(&here).with_fallback_dir(&also);

    let (id, version, path) = found(designs.resolve("helper"));
    assert_eq!((id.as_str(), version.as_str(), path), ("helper", "1.0.0", here.join("helper.yaml")), "first dir first");
    let (_, _, path) = found(designs.resolve("helper@2.0.0"));
    assert_eq!(path, also.join("helper.yaml"), "a version that does not match passes to the next folder");
    let (id, _, path) = found(designs.resolve("other"));
    assert_eq!((id.as_str(), path), ("other", also.join("other.yaml")), "a file declaring another id is skipped");
    assert_eq!(candidates(designs.resolve("helper@3.0.0")), vec!["helper@2.0.0", "helper@1.0.0"]);

    // A registered plan comes before the fallback folders.
    write(&designs_dir, "helper_202601010000.yaml", &plan_text("helper", "9.0.0"));
    assert_eq!(found(designs.resolve("helper")).1, "9.0.0");
    // ... but not for a version it does not have.
    assert_eq!(found(designs.resolve("helper@1.0.0")).2, here.join("helper.yaml"));
    // Without fallback folders, plain files are not plans.
    assert!(matches!(Designs::new(&designs_dir).resolve("other"), Resolution::NotFound { .. }));
}

#[test]
fn not_found_lists_the_closest_ids() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path().join("designs");
    let here = tmp.path().join("here");
    write(&dir, "invoice_dupes_202601010000.yaml", &plan_text("invoice_dupes", "1.0.0"));
    write(&dir, "invoice_dupes_202602010000.yaml", &plan_text("invoice_dupes", "1.1.0"));
    write(&dir, "payroll_202601010000.yaml", &plan_text("payroll", "1.0.0"));
    write(&here, "invoice_totals.yaml", &plan_text("invoice_totals", "1.0.0"));
    let designs = Designs::new(&dir).with_fallback_dir(&here);

    assert_eq!(candidates(designs.resolve("invoice_dupe"))[0], "invoice_dupes");
    assert_eq!(candidates(designs.resolve("invoice_dupe@1.0.0"))[0], "invoice_dupes");
    assert_eq!(candidates(designs.resolve("Invoice_Dupes"))[0], "invoice_dupes", "case is only a typo");
    assert!(candidates(designs.resolve("invoice_total")).contains(&"invoice_totals".to_owned()));
    assert!(candidates(designs.resolve("payrol")).contains(&"payroll".to_owned()));
    assert_eq!(candidates(designs.resolve("zzzz")), Vec::<String>::new());
    // Hostile references resolve to nothing and only get suggestions.
    assert!(matches!(designs.resolve("../designs/payroll"), Resolution::NotFound { .. }));
    assert!(matches!(designs.resolve(""), Resolution::NotFound { .. }));
}

#[test]
fn hostile_references_never_name_files_outside() {
    let tmp = tempfile::tempdir().unwrap();
    let designs_dir = tmp.path().join("designs");
    let here = tmp.path().join("here");
    fs::create_dir_all(&designs_dir).unwrap();
    fs::create_dir_all(&here).unwrap();
    // A plan that `here/../outside.yaml` would reach.
    write(tmp.path(), "outside.yaml", &plan_text("outside", "1.0.0"));
    let designs = Designs::new(&designs_dir).with_fallback_dir(&here);
    for plan_ref in ["../outside", "..\\outside", "/outside", "x/../../outside", "../outside@1.0.0"] {
        assert!(matches!(designs.resolve(plan_ref), Resolution::NotFound { .. }), "{plan_ref}");
    }
}

#[test]
fn a_broken_file_is_unreadable() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path();
    write(dir, "broken_202601010000.yaml", "apiVersion: planwright/v1\ngraph: [\n  {id: a\n");
    write(dir, "shapeless_202601010000.yaml", "apiVersion: planwright/v1\nid: shapeless\nversion: 1.0.0\ngraph: 5\n");
    fs::write(dir.join("binary_202601010000.yaml"), [0xff, 0xfe, 0x00]).unwrap();
    let designs = Designs::new(dir);

    let (path, message) = unreadable(designs.resolve("broken"));
    assert_eq!(path, dir.join("broken_202601010000.yaml"));
    assert!(message.contains("YAML"), "{message}");
    let (path, message) = unreadable(designs.resolve("shapeless"));
    assert_eq!(path, dir.join("shapeless_202601010000.yaml"));
    assert!(message.contains("not a valid plan"), "{message}");
    let (_, message) = unreadable(designs.resolve("binary"));
    assert!(message.contains("UTF-8"), "{message}");
}

#[test]
fn a_broken_newest_registration_is_not_replaced_by_an_older_one() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path();
    write(dir, "p_202601010000.yaml", &plan_text("p", "1.0.0"));
    write(dir, "p_202602010000.yaml", "not: [a plan\n");
    let designs = Designs::new(dir);

    assert_eq!(unreadable(designs.resolve("p")).0, dir.join("p_202602010000.yaml"));
    // A pinned version passes over it when another file has that version...
    assert_eq!(found(designs.resolve("p@1.0.0")).2, dir.join("p_202601010000.yaml"));
    // ... and reports it when nothing else does: it may be the plan that was meant.
    assert_eq!(unreadable(designs.resolve("p@2.0.0")).0, dir.join("p_202602010000.yaml"));
}

#[test]
fn a_registration_must_declare_its_own_id() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path();
    write(dir, "p_202601010000.yaml", &plan_text("q", "1.0.0"));
    let (_, message) = unreadable(Designs::new(dir).resolve("p"));
    assert!(message.contains("`p`") && message.contains("id: q"), "{message}");
}

#[test]
fn a_broken_fallback_file_is_unreadable() {
    let tmp = tempfile::tempdir().unwrap();
    write(tmp.path(), "helper.yaml", "graph: [\n");
    let designs = Designs::new(tmp.path().join("designs")).with_fallback_dir(tmp.path());
    assert_eq!(unreadable(designs.resolve("helper")).0, tmp.path().join("helper.yaml"));
}

#[test]
fn resolved_plans_are_shared_not_reread() {
    let tmp = tempfile::tempdir().unwrap();
    write(tmp.path(), "p_202601010000.yaml", &plan_text("p", "1.0.0"));
    let designs = Designs::new(tmp.path());
    let (Resolution::Found { plan: a, .. }, Resolution::Found { plan: b, .. }) =
        (designs.resolve("p"), designs.resolve("p@1.0.0"))
    else {
        panic!("expected the plan twice")
    };
    assert!(std::sync::Arc::ptr_eq(&a, &b));
}

#[cfg(unix)]
#[test]
fn links_and_special_files() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path().join("designs");
    write(tmp.path(), "real.yaml", &plan_text("linked", "1.0.0"));
    fs::create_dir_all(&dir).unwrap();
    std::os::unix::fs::symlink(tmp.path().join("real.yaml"), dir.join("linked_202601010000.yaml")).unwrap();
    std::os::unix::fs::symlink(tmp.path().join("missing.yaml"), dir.join("dangling_202601010000.yaml")).unwrap();
    let designs = Designs::new(&dir);
    let ids: Vec<String> = designs.registered().unwrap().into_iter().map(|r| r.plan_id).collect();
    assert_eq!(ids, ["linked"], "a link to a plan file counts, a dangling one does not");
    assert_eq!(found(designs.resolve("linked")).1, "1.0.0");
}
