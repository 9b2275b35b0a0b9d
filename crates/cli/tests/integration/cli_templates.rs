//! `planwright templates` as other tools see it: list, show and check, their JSON and exit codes,
//! on the shipped templates and on a folder with broken ones. Runs the real binary.

use crate::support;

use std::path::Path;
use std::process::{Command, Output};

use serde_json::Value;
use support::{assert_exit, said};

fn planwright(args: &[&str]) -> Output {
    let home = tempfile::tempdir().unwrap();
    Command::new(env!("CARGO_BIN_EXE_planwright"))
        .args(args)
        .env_remove("PLANWRIGHT_BLOCK_SPECS")
        .env("PLANWRIGHT_HOME", home.path())
        .output()
        .expect("planwright runs")
}

fn shipped() -> String {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../../designs").display().to_string()
}

fn json(output: &Output) -> Value {
    serde_json::from_slice(&output.stdout)
        .unwrap_or_else(|e| panic!("{e}: {}", String::from_utf8_lossy(&output.stdout)))
}

#[test]
fn the_shipped_templates_are_listed_and_all_check_clean() {
    let listed = planwright(&["templates", "list", "--designs", &shipped(), "--format", "json"]);
    assert_exit(&listed, 0);
    let listed = json(&listed);
    let listed = listed.as_array().unwrap();
    assert!(listed.len() >= 12);
    for t in listed {
        assert!(t["problem"].is_null() && !t["title"]["ja"].as_str().unwrap().is_empty(), "{t}");
    }
    let bank = listed.iter().find(|t| t["id"] == "bank_reconciliation").unwrap();
    assert_eq!(bank["category"], "finance");
    assert_eq!(bank["imports"], serde_json::json!(["deposits", "invoices"]));

    let checked = planwright(&["templates", "check", "--designs", &shipped()]);
    let text = String::from_utf8_lossy(&checked.stdout);
    assert_eq!(checked.status.code(), Some(0), "{text}: {}", said(&checked));
    assert!(text.contains("0 invalid"), "{text}");
}

#[test]
fn show_gives_one_template_or_the_closest_ids() {
    let shown = planwright(&["templates", "show", "poll_until_done", "--designs", &shipped(), "--format", "json"]);
    assert_exit(&shown, 0);
    let shown = json(&shown);
    assert_eq!(shown["template"]["id"], "poll_until_done");
    assert_eq!(shown["valid"], true);
    assert_eq!(shown["template"]["secrets"], serde_json::json!(["JOB_API_TOKEN"]));

    let missing = planwright(&["templates", "show", "poll_until_don", "--designs", &shipped()]);
    assert_exit(&missing, 2);
    assert!(String::from_utf8_lossy(&missing.stderr).contains("did you mean poll_until_done"));
}

#[test]
fn broken_templates_are_listed_with_what_is_wrong_and_fail_the_check() {
    let dir = tempfile::tempdir().unwrap();
    let folder = dir.path().join("templates/finance");
    std::fs::create_dir_all(&folder).unwrap();
    std::fs::write(folder.join("not_yaml.yaml"), "id: [unclosed\n").unwrap();
    std::fs::write(
        folder.join("renamed.yaml"),
        "id: other_name
title: {en: T, ja: T}
description: {en: D, ja: D}
tags: {en: [t], ja: [t]}
graph_snippet:
  - {id: w, block: report.write, in: {data: [], path: out.md}}
",
    )
    .unwrap();
    let designs = dir.path().display().to_string();

    let listed = json(&planwright(&["templates", "list", "--designs", &designs, "--format", "json"]));
    let listed = listed.as_array().unwrap();
    assert_eq!(listed.len(), 2, "a file that does not load is listed, never dropped");
    assert!(listed.iter().any(|t| t["problem"].as_str().is_some_and(|p| !p.is_empty())), "{listed:?}");

    let checked = planwright(&["templates", "check", "--designs", &designs, "--format", "json"]);
    assert_exit(&checked, 1);
    let checked = json(&checked);
    let renamed = checked.as_array().unwrap().iter().find(|c| c["id"] == "other_name").unwrap();
    assert_eq!(renamed["valid"], false);
    assert!(renamed["errors"][0]["message"].as_str().unwrap().contains("not the file's name"), "{renamed}");
}
