//! One broken plan per validator rule (`tests/fixtures/broken/*.yaml`). Each file states the
//! findings it must produce in header lines:
//!
//! ```text
//! # expect: error unknown_block node=read field=block
//! # expect: warning unused_var field=vars.month
//! ```
//!
//! Every expected finding must be there with exactly that code, node and field; the errors must
//! be exactly the expected ones (so each fixture isolates its rule). Subflows are looked up in
//! `tests/fixtures/designs/`, then beside the fixture.

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};

use planwright_catalog::Catalog;
use planwright_designs::Designs;
use planwright_plan::{load_plan, Code, Finding};
use planwright_validate::{dry_run_validated, validate_loaded};

fn fixtures() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures")
}

#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord)]
struct Expected {
    severity: String,
    code: String,
    node: Option<String>,
    field: Option<String>,
}

fn parse_expectations(text: &str) -> Vec<Expected> {
    text.lines()
        .filter_map(|line| line.strip_prefix("# expect: "))
        .map(|spec| {
            let mut words = spec.split_whitespace();
            let severity = words.next().expect("severity").to_owned();
            let code = words.next().expect("code").to_owned();
            let mut expected = Expected { severity, code, node: None, field: None };
            for word in words {
                match word.split_once('=') {
                    Some(("node", v)) => expected.node = Some(v.to_owned()),
                    Some(("field", v)) => expected.field = Some(v.to_owned()),
                    _ => panic!("bad expectation word `{word}`"),
                }
            }
            expected
        })
        .collect()
}

fn as_expected(finding: &Finding) -> Expected {
    Expected {
        severity: if finding.is_error() { "error" } else { "warning" }.to_owned(),
        code: finding.code.as_str().to_owned(),
        node: finding.node.clone(),
        field: finding.field.clone(),
    }
}

fn findings_of(path: &Path, catalog: &Catalog) -> Vec<Finding> {
    let text = std::fs::read_to_string(path).unwrap();
    let loaded = load_plan(&text).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    let designs = Designs::new(fixtures().join("designs")).with_fallback_dir(path.parent().unwrap());
    let validation = validate_loaded(&loaded, catalog, &designs);
    let mut findings = match &loaded.plan {
        Some(plan) => dry_run_validated(plan, catalog, &designs, validation).validation.findings,
        None => validation.findings,
    };
    loaded.annotate(&mut findings);
    findings
}

#[test]
fn every_broken_plan_yields_exactly_its_findings() {
    let catalog = Catalog::bundled().unwrap();
    let mut files: Vec<PathBuf> = std::fs::read_dir(fixtures().join("broken"))
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "yaml"))
        .collect();
    files.sort();
    assert!(!files.is_empty());
    let mut failures = Vec::new();
    for path in &files {
        let text = std::fs::read_to_string(path).unwrap();
        let expected = parse_expectations(&text);
        if expected.is_empty() {
            continue; // a child plan used by another fixture
        }
        let findings = findings_of(path, &catalog);
        let got: Vec<Expected> = findings.iter().map(as_expected).collect();
        let missing: Vec<&Expected> = expected.iter().filter(|e| !got.contains(e)).collect();
        let expected_errors: BTreeSet<&Expected> = expected.iter().filter(|e| e.severity == "error").collect();
        let extra_errors: Vec<&Expected> =
            got.iter().filter(|g| g.severity == "error" && !expected_errors.contains(g)).collect();
        if !missing.is_empty() || !extra_errors.is_empty() {
            failures.push(format!(
                "{}:\n  missing: {missing:?}\n  unexpected errors: {extra_errors:?}\n  all findings: {:#?}",
                path.file_name().unwrap().to_string_lossy(),
                findings
                    .iter()
                    .map(|f| format!("{} {:?} {:?}: {}", f.code.as_str(), f.node, f.field, f.message))
                    .collect::<Vec<_>>()
            ));
        }
        for finding in &findings {
            assert!(!finding.message.is_empty(), "{}: empty message", path.display());
            assert!(finding.line.is_some(), "{}: {} has no line", path.display(), finding.code.as_str());
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

#[test]
fn every_finding_code_has_a_broken_plan() {
    let mut covered = BTreeSet::new();
    for entry in std::fs::read_dir(fixtures().join("broken")).unwrap() {
        let text = std::fs::read_to_string(entry.unwrap().path()).unwrap();
        covered.extend(parse_expectations(&text).into_iter().map(|e| e.code));
    }
    let uncovered: Vec<&str> = Code::ALL.iter().map(|c| c.as_str()).filter(|c| !covered.contains(*c)).collect();
    assert!(uncovered.is_empty(), "codes without a fixture: {uncovered:?}");
}
