//! Every prompt in `prompts/` renders with sample data, leaving no placeholder unfilled.

use std::path::Path;

use planwright_llm::Prompts;

/// Sample values for every placeholder any prompt uses; a new placeholder needs one here.
const SAMPLES: &[(&str, &str)] = &[
    ("rules", "You are an accounting assistant. Amounts are in yen."),
    ("task", "List invoices that look like duplicates, with a reason."),
    ("evidence", r#"{"invoices": [{"number": "INV-1", "amount": 132000}]}"#),
    ("answer_format", r#"{"type": "object", "properties": {"duplicates": {"type": "array"}}}"#),
    ("errors", "- at /total: \"one hundred\" is not of type \"integer\""),
    ("steps", "1. Sign in with {{PORTAL_USER}} / {{PORTAL_PASSWORD}}\n2. Open the Statements page"),
    ("snapshot", "- main:\n  - link \"Statements\" [ref=e5]"),
    ("step", "Open the Statements page"),
    ("checklist", "1. Sign in\n2. Open the Statements page"),
    ("step_index", "2"),
    ("placeholders", "{{PORTAL_USER}}, {{PORTAL_PASSWORD}}"),
    ("failures", "none"),
    ("actions", "click getByRole(\"link\", { name: \"Statements\" }) → navigated to /statements.html"),
    ("instruction", "Read expenses.csv, keep the approved rows and write approved.csv"),
    ("documents", "no documents provided"),
    ("candidates", "- file.read_csv (file): in path*, encoding; out rows, summary — Read a CSV file"),
    ("templates", "none"),
    ("secrets", "{{LOGIN_PASSWORD}}"),
    ("skeleton", r#"{"summary": "read, keep, write", "steps": [{"id": "read", "block": "file.read_csv"}]}"#),
    ("blocks", "file.read_csv: in path (file, required); out rows (array)"),
    ("plan", r#"{"id": "p", "graph": []}"#),
    ("findings", "- unknown_input at read.in.file: did you mean path?"),
    ("specs", "file.read_csv: in path (file, required); out rows (array)"),
    ("diff", "first repair"),
    ("objectives", "1. Sign in with {{PORTAL_USER}} / {{PORTAL_PASSWORD}}\n2. Open the Statements page"),
    ("start_url", "http://127.0.0.1:8700/objectives/portal/login.html"),
    ("reasoning", "Think step by step in `reasoning`."),
    ("request", "1. Sign in\n2. Open the Statements page\n3. Download the October 2026 statement"),
    ("requirements", "- (priority 1) Download the October 2026 statement"),
    ("trigger", "a failed attempt"),
    ("progress", "Progress: 1/3 objectives\nCurrent step: [objective] Open the Statements page"),
    ("what", "Objective 2 (Open the Statements page), attempt 1, failed: nothing matches \"Statements\""),
    ("revision", "wait for the page to settle before looking and judging"),
    ("tried", "objective 3: the step's words matched to the page — nothing matches \"Export\""),
    ("missing", "the October statement"),
    ("approaches", "- wait_for_page: wait for the page to settle before looking and judging"),
    ("facts", "Request: 1. Open Statements\nObjective 1 failed: nothing matches \"Statements\""),
];

#[test]
fn every_prompt_renders_with_sample_data() {
    let prompts = Prompts::built_in().unwrap();
    let names: Vec<&str> = prompts.names().collect();
    assert!(names.contains(&"process_llm") && names.contains(&"reask"), "{names:?}");
    for name in names {
        let placeholders = prompts.placeholders(name).unwrap();
        let values: Vec<(&str, &str)> = placeholders
            .iter()
            .map(|p| {
                *SAMPLES
                    .iter()
                    .find(|(key, _)| key == p)
                    .unwrap_or_else(|| panic!("no sample value for {{{p}}} of {name}"))
            })
            .collect();
        let rendered = prompts.render(name, &values).unwrap();
        for text in rendered.system.iter().chain([&rendered.user]) {
            for placeholder in &placeholders {
                assert!(!text.contains(&format!("{{{placeholder}}}")), "{name}: {{{placeholder}}} left in {text}");
            }
            assert!(!text.trim().is_empty());
        }
    }
}

#[test]
fn the_folder_on_disk_matches_the_built_in_prompts() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../prompts");
    assert_eq!(Prompts::from_dir(&dir).unwrap(), Prompts::built_in().unwrap());
}
