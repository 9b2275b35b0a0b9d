//! Listing everything a designs folder holds: registrations, examples and templates, with what is
//! wrong with a file that is not a plan, and without following links.

use crate::common;

use common::{plan_text, write};
use planwright_designs::{DesignFile, Designs, PlanSummary};

const TEMPLATE: &str = "id: monthly
title: {en: Monthly totals, ja: 月次集計}
description: {en: Totals per month, ja: 月ごとの合計}
tags: {en: [monthly], ja: [月次]}
graph_snippet:
  - {id: totals, block: transforms.group_by_agg, in: {items: [], by: [a], aggregations: []}}
";

fn summary(file: &DesignFile) -> &PlanSummary {
    file.content.as_ref().unwrap_or_else(|problem| panic!("{}: {problem}", file.file))
}

#[test]
fn registrations_examples_and_templates_are_listed_with_their_stamps() {
    let dir = tempfile::tempdir().unwrap();
    write(dir.path(), "invoice_202503141200.yaml", &plan_text("invoice", "1.2.0"));
    write(&dir.path().join("examples"), "approvals.yaml", &plan_text("approvals", "1.0.0"));
    write(&dir.path().join("templates/finance"), "monthly.yml", TEMPLATE);
    write(dir.path(), "notes.txt", "not a plan file at all");
    write(&dir.path().join(".git"), "config.yaml", "hidden: true");
    // A registration name whose stamp belongs to another id is not a registration of this plan.
    write(dir.path(), "other_202401010000.yaml", &plan_text("invoice", "1.0.0"));

    let designs = Designs::new(dir.path());
    let listed = designs.list().unwrap();
    let files: Vec<&str> = listed.iter().map(|f| f.file.as_str()).collect();
    assert_eq!(
        files,
        [
            "examples/approvals.yaml",
            "invoice_202503141200.yaml",
            "other_202401010000.yaml",
            "templates/finance/monthly.yml"
        ]
    );
    assert_eq!(summary(&listed[1]).registered_at.as_deref(), Some("2025-03-14T12:00"));
    assert_eq!(summary(&listed[1]).version, "1.2.0");
    assert_eq!(summary(&listed[0]).registered_at, None);
    assert_eq!(summary(&listed[2]).registered_at, None, "the stamp is for plan `other`, the file declares `invoice`");
    assert!(listed[3].template && !listed[1].template);

    assert_eq!(summary(&listed[3]).plan_id, "monthly");
    assert_eq!(summary(&listed[3]).title.as_deref(), Some("Monthly totals / 月次集計"));

    let templates = designs.templates().unwrap();
    assert_eq!(templates.len(), 1);
    assert_eq!(templates[0].category, "finance");
    assert_eq!(templates[0].spec.as_ref().unwrap().id, "monthly");
}

#[test]
fn a_file_that_is_not_a_plan_is_listed_with_what_is_wrong() {
    let dir = tempfile::tempdir().unwrap();
    write(&dir.path().join("templates/sales"), "broken.yaml", "apiVersion: planwright/v1\nid: [unclosed\n");
    write(
        &dir.path().join("templates/sales"),
        "odd_graph.yaml",
        "apiVersion: planwright/v1\nid: x\nversion: 1.0.0\ngraph: 3\n",
    );

    let templates = Designs::new(dir.path()).templates().unwrap();
    assert_eq!(templates.len(), 2, "a template that fails to load is reported, never dropped: {templates:?}");
    for template in &templates {
        let problem = template.spec.as_ref().unwrap_err();
        assert!(!problem.is_empty(), "{}", template.file);
    }
    // A plan is not a template: what it lacks is said.
    assert!(templates[1].spec.as_ref().unwrap_err().contains("unknown field `apiVersion`"), "{:?}", templates[1].spec);
    let listed = Designs::new(dir.path()).list().unwrap();
    assert!(listed.iter().all(|f| f.content.is_err()), "the listing says the same: {listed:?}");
}

#[test]
fn a_missing_folder_is_empty_and_links_are_not_followed() {
    let dir = tempfile::tempdir().unwrap();
    assert!(Designs::new(dir.path().join("none")).list().unwrap().is_empty());

    let outside = tempfile::tempdir().unwrap();
    write(outside.path(), "secret.yaml", &plan_text("secret", "1.0.0"));
    write(&outside.path().join("more"), "deep.yaml", &plan_text("deep", "1.0.0"));
    let designs = dir.path().join("designs");
    std::fs::create_dir_all(&designs).unwrap();
    std::os::unix::fs::symlink(outside.path().join("secret.yaml"), designs.join("secret.yaml")).unwrap();
    std::os::unix::fs::symlink(outside.path().join("more"), designs.join("more")).unwrap();
    assert!(Designs::new(&designs).list().unwrap().is_empty());
}
