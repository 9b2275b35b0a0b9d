//! The bundled examples (`designs/examples/`) and every complete plan in `docs/plan-format.md`
//! validate and dry-run without a single finding, and the schema file editors use accepts them.

use std::path::{Path, PathBuf};

use planwright_catalog::Catalog;
use planwright_designs::Designs;
use planwright_plan::load_plan;
use planwright_validate::{dry_run_validated, validate_loaded, NoPlans, PlanSource};

fn repo() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

/// The example plans (`designs/examples/*.yaml`; `data/` beside them holds their sample inputs).
fn example_plans() -> Vec<PathBuf> {
    let mut plans: Vec<PathBuf> = std::fs::read_dir(repo().join("designs/examples"))
        .unwrap()
        .map(|entry| entry.unwrap().path())
        .filter(|path| path.extension().is_some_and(|e| e == "yaml"))
        .collect();
    plans.sort();
    plans
}

fn assert_clean(name: &str, text: &str, catalog: &Catalog, plans: &dyn PlanSource) {
    let loaded = load_plan(text).unwrap_or_else(|e| panic!("{name}: {e}"));
    let validation = validate_loaded(&loaded, catalog, plans);
    let run = dry_run_validated(loaded.plan.as_ref().unwrap(), catalog, plans, validation);
    let findings: Vec<String> = run
        .validation
        .findings
        .iter()
        .map(|f| format!("{} {:?} {:?}: {}", f.code.as_str(), f.node, f.field, f.message))
        .collect();
    assert!(findings.is_empty(), "{name}:\n{}", findings.join("\n"));
    assert!(!run.steps.is_empty(), "{name}: the dry-run ran nothing");
}

#[test]
fn examples_are_clean() {
    let catalog = Catalog::bundled().unwrap();
    let dir = repo().join("designs/examples");
    let designs = Designs::new(repo().join("designs")).with_fallback_dir(&dir);
    let plans = example_plans();
    for path in &plans {
        assert_clean(&path.display().to_string(), &std::fs::read_to_string(path).unwrap(), &catalog, &designs);
    }
    assert!(plans.len() >= 6, "at least six examples");
}

#[test]
fn examples_cover_every_kind_of_node() {
    let all: String = example_plans().iter().map(|path| std::fs::read_to_string(path).unwrap()).collect();
    for needle in [
        "foreach:",
        "while:",
        "call:",
        "when:",
        "ui.interactive_input",
        "ui.confirmation",
        "browser.run_objectives",
        "{{",
    ] {
        assert!(all.contains(needle), "no example uses `{needle}`");
    }
}

#[test]
fn the_schema_file_accepts_the_examples_and_refuses_a_broken_plan() {
    let schema: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(repo().join("schemas/plan.schema.json")).unwrap()).unwrap();
    let validator = jsonschema::draft7::new(&schema).unwrap();
    for path in example_plans() {
        let document: serde_json::Value = serde_yaml::from_str(&std::fs::read_to_string(&path).unwrap()).unwrap();
        let errors: Vec<String> = validator.iter_errors(&document).map(|e| e.to_string()).collect();
        assert!(errors.is_empty(), "{}: {errors:?}", path.display());
    }
    let broken: serde_json::Value =
        serde_yaml::from_str("apiVersion: planwright/v1\nid: x\nversion: 1.0.0\ngraph:\n  - id: a\n    blok: x.y\n")
            .unwrap();
    assert!(!validator.is_valid(&broken));
}

#[test]
fn complete_plans_in_the_format_spec_are_clean() {
    let spec = std::fs::read_to_string(repo().join("docs/plan-format.md")).unwrap();
    let catalog = Catalog::bundled().unwrap();
    let mut count = 0;
    let mut rest = spec.as_str();
    while let Some(start) = rest.find("```yaml plan\n") {
        let body = &rest[start + "```yaml plan\n".len()..];
        let end = body.find("\n```").expect("closed code block");
        count += 1;
        assert_clean(&format!("docs/plan-format.md plan #{count}"), &body[..end], &catalog, &NoPlans);
        rest = &body[end..];
    }
    assert!(count >= 3, "the spec shows complete plans");
}

#[test]
fn every_finding_code_is_documented() {
    let spec = std::fs::read_to_string(repo().join("docs/plan-format.md")).unwrap();
    let missing: Vec<&str> = planwright_plan::Code::ALL
        .iter()
        .map(|c| c.as_str())
        .filter(|code| !spec.contains(&format!("| `{code}` |")))
        .collect();
    assert!(missing.is_empty(), "codes without a row in docs/plan-format.md: {missing:?}");
}
