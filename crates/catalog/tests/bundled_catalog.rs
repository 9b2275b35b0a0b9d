//! The bundled catalog loads, and its blocks keep the contract other parts read: ids, input
//! keys and output keys named in the foundation issue.

use planwright_catalog::{Catalog, Resource};

/// (id, inputs, outputs) that the validator, generator, engine and studio rely on.
const CONTRACT: &[(&str, &[&str], &[&str])] = &[
    (
        "ui.interactive_input",
        &["mode", "requirements", "message", "context"],
        &["collected_data", "approved", "response", "metadata"],
    ),
    ("ui.confirmation", &["message", "options"], &["approved", "comment"]),
    ("file.extract_texts", &["paths"], &["texts", "summary"]),
    ("file.read_csv", &["path", "delimiter", "encoding", "has_header"], &["rows", "summary"]),
    ("excel.read_data", &["path", "sheet", "range", "header_row"], &["rows", "summary"]),
    ("excel.write", &["path", "sheets"], &["path", "summary"]),
    ("transforms.filter", &["items", "conditions"], &["filtered", "excluded", "summary"]),
    ("transforms.pick", &["source", "path"], &["value"]),
    ("transforms.group_by_agg", &["items", "by", "aggregations"], &["rows", "summary"]),
    ("transforms.join", &["left", "right", "left_key", "right_key", "strategy"], &["rows", "summary"]),
    ("transforms.sort", &["items", "by", "limit"], &["rows", "summary"]),
    ("transforms.select_columns", &["items", "columns"], &["rows", "summary"]),
    ("transforms.remove_duplicates", &["items", "by", "keep"], &["rows", "removed", "summary"]),
    ("transforms.find_duplicates", &["items", "by"], &["rows", "groups", "summary"]),
    ("transforms.add_columns", &["items", "columns"], &["rows", "summary"]),
    ("transforms.append", &["tables"], &["rows", "summary"]),
    (
        "ai.process_llm",
        &["evidence_data", "instruction", "prompt", "system_prompt", "output_schema"],
        &["results", "summary"],
    ),
    (
        "external.api.http",
        &["method", "url", "headers", "params", "body", "timeout_sec"],
        &["status", "response_json", "response_text", "headers"],
    ),
    ("browser.run_objectives", &["start_url", "steps", "max_retries_per_step"], &["report", "passed", "extracted"]),
    ("browser.navigate", &["url"], &[]),
    ("browser.click", &["locator"], &[]),
    ("browser.fill", &["locator", "value"], &[]),
    ("browser.extract_table", &["locator"], &["rows"]),
    ("browser.screenshot", &["path"], &["path"]),
    ("report.write", &["data", "format", "path"], &["path"]),
];

#[test]
fn bundled_catalog_has_every_contract_block_with_its_keys() {
    let catalog = Catalog::bundled().unwrap_or_else(|e| panic!("{e}"));
    for (id, inputs, outputs) in CONTRACT {
        let spec = catalog.get(id).unwrap_or_else(|| panic!("block {id} is missing from block_specs/"));
        for key in *inputs {
            assert!(spec.inputs.contains_key(*key), "{id} lacks input `{key}`");
        }
        for key in *outputs {
            assert!(spec.outputs.contains_key(*key), "{id} lacks output `{key}`");
        }
    }
}

#[test]
fn browser_blocks_declare_the_browser_resource() {
    let catalog = Catalog::bundled().unwrap();
    for spec in catalog.blocks() {
        assert_eq!(spec.id.starts_with("browser."), spec.resource == Some(Resource::Browser), "{}", spec.id);
    }
}

#[test]
fn every_block_speaks_english_and_japanese() {
    let catalog = Catalog::bundled().unwrap();
    let has_japanese =
        |s: &str| s.chars().any(|c| ('\u{3040}'..='\u{30ff}').contains(&c) || ('\u{4e00}'..='\u{9fff}').contains(&c));
    for spec in catalog.blocks() {
        assert!(has_japanese(&spec.title.ja), "{}: title.ja is not Japanese", spec.id);
        assert!(has_japanese(&spec.description.ja), "{}: description.ja is not Japanese", spec.id);
        assert!(spec.tags.ja.iter().any(|t| has_japanese(t)), "{}: no Japanese tag", spec.id);
        for (name, port) in spec.inputs.iter().chain(&spec.outputs) {
            assert!(port.description.is_some(), "{}: port `{name}` has no description", spec.id);
        }
    }
}

#[test]
fn enumerations_from_the_contract() {
    let catalog = Catalog::bundled().unwrap();
    let enum_of = |id: &str, input: &str| -> Vec<String> {
        let port = &catalog.get(id).unwrap().inputs[input];
        port.enum_values().unwrap_or_default().iter().map(|v| v.as_str().unwrap().to_owned()).collect()
    };
    assert_eq!(enum_of("ui.interactive_input", "mode"), ["collect", "confirm", "inquire", "mixed"]);
    assert_eq!(enum_of("report.write", "format"), ["markdown", "json", "csv"]);
    let ai = catalog.get("ai.process_llm").unwrap();
    assert!(ai.rules.contains(&planwright_catalog::Rule::NonEmpty("output_schema".into())));
    assert!(ai.rules.contains(&planwright_catalog::Rule::OneOfRequired(vec!["prompt".into(), "instruction".into()])));
}

#[test]
fn a_directory_catalog_reports_every_bad_file() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::create_dir(dir.path().join("demo")).unwrap();
    std::fs::write(dir.path().join("demo/demo.a.yaml"), "id: demo.a\nversion: 1.0.0\ncategory: demo\nbogus: 1\n")
        .unwrap();
    std::fs::write(dir.path().join("demo/demo.b.yaml"), "- not a mapping\n").unwrap();
    let err = Catalog::load_dir(dir.path()).unwrap_err().to_string();
    assert!(err.contains("demo/demo.a.yaml"), "{err}");
    assert!(err.contains("demo/demo.b.yaml"), "{err}");
}
