//! The command line as other tools see it: exit codes, JSON shapes, what goes to stdout and
//! stderr, registration on disk, hostile files. Runs the real binary.

use crate::support;

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

use serde_json::Value;
use support::{assert_exit, said};

fn planwright(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_planwright"))
        .args(args)
        .env_remove("PLANWRIGHT_BLOCK_SPECS")
        .output()
        .expect("planwright runs")
}

fn repo() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

fn example(name: &str) -> String {
    repo().join("designs/examples").join(name).to_string_lossy().into_owned()
}

fn json(output: &Output) -> Value {
    serde_json::from_slice(&output.stdout)
        .unwrap_or_else(|e| panic!("{e}: {}", String::from_utf8_lossy(&output.stdout)))
}

fn write(dir: &Path, name: &str, text: &str) -> String {
    let path = dir.join(name);
    std::fs::write(&path, text).unwrap();
    path.to_string_lossy().into_owned()
}

const BROKEN: &str =
    "apiVersion: planwright/v1\nid: broken\nversion: 1.0.0\ngraph:\n  - id: read\n    blok: file.read_csv\n";

const FINDING_KEYS: [&str; 10] =
    ["code", "severity", "node", "field", "message", "hint", "candidates", "path", "line", "column"];

#[test]
fn validate_a_valid_plan_exits_0_with_the_json_contract() {
    let output = planwright(&["validate", &example("invoice_payment_reconciliation.yaml"), "--format", "json"]);
    assert_exit(&output, 0);
    let report = json(&output);
    let keys: Vec<&str> = report.as_object().unwrap().keys().map(String::as_str).collect();
    assert_eq!(keys, ["valid", "errors", "warnings"]);
    assert_eq!(report["valid"], true);
    assert_eq!(report["errors"], serde_json::json!([]));
}

#[test]
fn validate_an_invalid_plan_exits_1_with_located_findings() {
    let dir = tempfile::tempdir().unwrap();
    let file = write(dir.path(), "broken.yaml", BROKEN);
    let output = planwright(&["validate", &file, "--format", "json"]);
    assert_exit(&output, 1);
    let report = json(&output);
    assert_eq!(report["valid"], false);
    let finding = &report["errors"][0];
    for key in FINDING_KEYS {
        assert!(finding.get(key).is_some(), "finding lacks `{key}`: {finding}");
    }
    assert_eq!(finding["code"], "unknown_key");
    assert_eq!(finding["severity"], "error");
    assert_eq!(finding["node"], "read");
    assert_eq!(finding["field"], "blok");
    assert_eq!(finding["candidates"], serde_json::json!(["block"]));
    assert_eq!(finding["line"], 6);

    let text = planwright(&["validate", &file]);
    assert_exit(&text, 1);
    let stdout = String::from_utf8(text.stdout).unwrap();
    assert!(
        stdout.contains(
            "broken.yaml:6:5: error[unknown_key] node `read` `blok`: unknown key `blok`; did you mean `block`?"
        ),
        "{stdout}"
    );
}

#[test]
fn unreadable_or_not_a_plan_exits_2_with_the_reason_on_stderr() {
    let dir = tempfile::tempdir().unwrap();
    let cases = [
        dir.path().join("missing.yaml").to_string_lossy().into_owned(),
        dir.path().to_string_lossy().into_owned(),
        write(dir.path(), "list.yaml", "- a\n- b\n"),
        write(dir.path(), "syntax.yaml", "apiVersion: planwright/v1\ngraph: [\n"),
        write(dir.path(), "other.yaml", "name: not a plan\n"),
    ];
    for file in &cases {
        for format in ["text", "json"] {
            let output = planwright(&["validate", file, "--format", format]);
            assert_eq!(output.status.code(), Some(2), "{file}: {}", said(&output));
            assert!(output.stdout.is_empty(), "{file}: stdout should be empty");
            let stderr = String::from_utf8_lossy(&output.stderr);
            assert!(stderr.starts_with("planwright: "), "{file}: {stderr}");
        }
    }
    let binary = dir.path().join("binary.yaml");
    std::fs::write(&binary, [0xff_u8, 0xfe, 0x00, 0x01]).unwrap();
    let output = planwright(&["dry-run", &binary.to_string_lossy()]);
    assert_exit(&output, 2);
    assert!(String::from_utf8_lossy(&output.stderr).contains("not UTF-8"));
}

#[test]
fn dry_run_reports_order_levels_and_estimate() {
    let output = planwright(&["dry-run", &example("invoice_payment_reconciliation.yaml"), "--format", "json"]);
    assert_exit(&output, 0);
    let report = json(&output);
    let keys: Vec<&str> = report.as_object().unwrap().keys().map(String::as_str).collect();
    assert_eq!(keys, ["valid", "errors", "warnings", "levels", "order", "estimate"]);
    let order = report["order"].as_array().unwrap();
    assert!(!order.is_empty());
    let position = |id: &str| order.iter().position(|s| s["id"] == id).unwrap_or_else(|| panic!("no step {id}"));
    for step in order {
        for dependency in step["depends_on"].as_array().unwrap() {
            assert!(position(dependency.as_str().unwrap()) < position(step["id"].as_str().unwrap()), "{step}");
        }
    }
    assert!(report["estimate"]["node_runs"].as_u64().unwrap() >= order.len() as u64);

    let invalid = planwright(&[
        "dry-run",
        &example("../../crates/validate/tests/fixtures/broken/cycle.yaml"),
        "--format",
        "json",
    ]);
    assert_exit(&invalid, 1);
    assert_eq!(json(&invalid)["errors"][0]["code"], "cycle");
}

#[test]
fn dry_run_never_shows_secret_or_environment_values() {
    const CANARY: &str = "canary-7f3a9c-do-not-print";
    let dir = tempfile::tempdir().unwrap();
    let file = write(
        dir.path(),
        "secret.yaml",
        "apiVersion: planwright/v1\nid: secret_use\nversion: 1.0.0\nsecrets: [API_TOKEN]\ngraph:\n  - id: call\n    block: external.api.http\n    in:\n      url: \"https://api.example.com/${env.PLANWRIGHT_CANARY}\"\n      headers: {Authorization: \"Bearer ${secrets.API_TOKEN}\"}\n    out: {status: status}\n",
    );
    for format in ["text", "json"] {
        let output = Command::new(env!("CARGO_BIN_EXE_planwright"))
            .args(["dry-run", &file, "--format", format])
            .env("PLANWRIGHT_CANARY", CANARY)
            .env("API_TOKEN", CANARY)
            .env("PLANWRIGHT_LOG", "trace")
            .output()
            .unwrap();
        assert_exit(&output, 0);
        let all = format!("{}{}", String::from_utf8_lossy(&output.stdout), String::from_utf8_lossy(&output.stderr));
        assert!(!all.contains(CANARY), "the canary leaked:\n{all}");
        assert!(all.contains("<secret API_TOKEN>") && all.contains("<env PLANWRIGHT_CANARY>"), "{all}");
    }
}

#[test]
fn register_writes_once_and_never_overwrites() {
    let dir = tempfile::tempdir().unwrap();
    let designs = dir.path().join("designs");
    let source = example("monthly_expense_approval.yaml");
    let designs_arg = designs.to_string_lossy().into_owned();
    let first = planwright(&["register", &source, "--designs", &designs_arg]);
    assert_exit(&first, 0);
    let files: Vec<PathBuf> = std::fs::read_dir(&designs).unwrap().map(|e| e.unwrap().path()).collect();
    assert_eq!(files.len(), 1);
    let name = files[0].file_name().unwrap().to_string_lossy().into_owned();
    let stamp = name.strip_prefix("monthly_expense_approval_").and_then(|s| s.strip_suffix(".yaml")).expect(&name);
    assert!(stamp.len() == 12 && stamp.chars().all(|c| c.is_ascii_digit()), "{name}");
    assert_eq!(std::fs::read(&files[0]).unwrap(), std::fs::read(&source).unwrap(), "registered byte for byte");

    let again = planwright(&["register", &source, "--designs", &designs_arg]);
    assert_exit(&again, 0);
    assert!(String::from_utf8_lossy(&again.stdout).contains("already registered"));
    assert_eq!(std::fs::read_dir(&designs).unwrap().count(), 1);

    let broken = write(dir.path(), "broken.yaml", BROKEN);
    let refused = planwright(&["register", &broken, "--designs", &designs_arg]);
    assert_exit(&refused, 1);
    assert!(String::from_utf8_lossy(&refused.stderr).contains("not registered"));
    assert_eq!(std::fs::read_dir(&designs).unwrap().count(), 1);
}

#[test]
fn an_id_that_points_elsewhere_is_refused_before_anything_is_written() {
    let dir = tempfile::tempdir().unwrap();
    let designs = dir.path().join("designs");
    for id in ["../escape", "/tmp/abs", "a/b", "Upper"] {
        let file = write(dir.path(), "hostile.yaml", &format!("apiVersion: planwright/v1\nid: \"{id}\"\nversion: 1.0.0\ngraph:\n  - id: a\n    block: transforms.pick\n    in: {{source: 1, path: x}}\n"));
        let output = planwright(&["register", &file, "--designs", &designs.to_string_lossy()]);
        assert_eq!(output.status.code(), Some(1), "{id}: {}", said(&output));
    }
    assert!(!designs.exists(), "nothing may be written");
    let names: Vec<String> =
        std::fs::read_dir(dir.path()).unwrap().map(|e| e.unwrap().file_name().to_string_lossy().into_owned()).collect();
    assert_eq!(names, ["hostile.yaml"]);
}

#[test]
fn hostile_files_end_in_an_error_with_bounded_memory() {
    let dir = tempfile::tempdir().unwrap();
    let output = planwright(&["bench", "hostile", "--format", "json", "--dir", &dir.path().to_string_lossy()]);
    assert_exit(&output, 0);
    let rows = json(&output);
    let rows = rows.as_array().unwrap();
    assert_eq!(rows.len(), 7);
    for row in rows {
        let name = row["name"].as_str().unwrap();
        let code = row["exit_code"].as_i64().unwrap();
        let valid_but_large = name.starts_with("12 MB") || name.starts_with("200,000");
        if valid_but_large {
            assert_eq!(code, 0, "{row}");
        } else {
            assert!(code == 1 || code == 2, "{row}");
            assert!(!row["message"].as_str().unwrap().is_empty(), "{row}");
        }
        assert!(row["max_rss_kib"].as_i64().unwrap() < 768 * 1024, "{row}");
    }
}

#[test]
fn blocks_schema_and_help() {
    let blocks = planwright(&["blocks", "--format", "json"]);
    assert_exit(&blocks, 0);
    let list = json(&blocks);
    assert!(list.as_array().unwrap().iter().any(|b| b["id"] == "ai.process_llm"));
    let schema = planwright(&["schema"]);
    assert_eq!(json(&schema)["$schema"], "http://json-schema.org/draft-07/schema#");
    assert_eq!(
        String::from_utf8(schema.stdout).unwrap(),
        std::fs::read_to_string(repo().join("schemas/plan.schema.json")).unwrap()
    );
    for command in ["validate", "dry-run", "blocks", "schema", "register", "bench"] {
        let help = planwright(&[command, "--help"]);
        assert_eq!(help.status.code(), Some(0), "{command}: {}", said(&help));
        assert!(!help.stdout.is_empty());
    }
    let help = String::from_utf8(planwright(&["validate", "--help"]).stdout).unwrap();
    assert!(help.contains("Exit codes: 0 valid (warnings allowed), 1 invalid, 2 unreadable or not a plan"), "{help}");
}

#[test]
fn a_bad_catalog_folder_is_an_unusable_input() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::create_dir(dir.path().join("demo")).unwrap();
    std::fs::write(dir.path().join("demo/demo.a.yaml"), "id: demo.a\n").unwrap();
    let output = planwright(&["blocks", "--catalog", &dir.path().to_string_lossy()]);
    assert_exit(&output, 2);
    assert!(String::from_utf8_lossy(&output.stderr).contains("demo/demo.a.yaml"));
}
