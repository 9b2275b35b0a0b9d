//! `planwright generate` on instructions that spell out a credential: the value is nowhere in
//! what it prints, the plan it writes or the metrics it keeps, and an address's user info is
//! gone from the browser step's start. Runs the real binary, offline.

use std::path::Path;
use std::process::{Command, Stdio};

use serde_json::Value;

/// An instruction and the canary values it spells out.
const CASES: &[(&str, &[&str])] = &[
    (
        "Open https://tk-suzuki:Hunter2!Canary@portal.example/statements and download the April statement",
        &["tk-suzuki", "Hunter2!Canary"],
    ),
    (
        "Open https://portal.example.com. The portal password for tk-suzuki is Hunter2!Canary. Download the April statement.",
        &["tk-suzuki", "Hunter2!Canary"],
    ),
    (
        "Open https://portal.example.com, log in with credentials tk-suzuki / Hunter2!Canary and download the April statement",
        &["tk-suzuki", "Hunter2!Canary"],
    ),
    ("Open https://kiosk.example.com, enter PIN 43219876 and download the daily report", &["43219876"]),
    (
        "Open https://portal.example.com, go to the password reset page; my password is Hunter2!Canary",
        &["Hunter2!Canary"],
    ),
    ("https://portal.example.jp にIDはtk-suzuki、パスワードはHunter2!Canaryでログインし、明細をダウンロードする", &["tk-suzuki", "Hunter2!Canary"]),
];

/// Every string in `value`, at any depth.
fn strings(value: &Value, out: &mut Vec<String>) {
    match value {
        Value::String(s) => out.push(s.clone()),
        Value::Array(items) => items.iter().for_each(|v| strings(v, out)),
        Value::Object(map) => map.values().for_each(|v| strings(v, out)),
        _ => {}
    }
}

#[test]
fn a_spelled_out_credential_is_nowhere_in_the_output_the_plan_or_the_metrics() {
    let designs = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../designs");
    for (instruction, canaries) in CASES {
        let home = tempfile::tempdir().unwrap();
        let out = home.path().join("plan.yaml");
        let mut command = Command::new(env!("CARGO_BIN_EXE_planwright"));
        command
            .arg("generate")
            .args(["--designs", designs.to_str().unwrap(), "--instruction", instruction, "--format", "json"])
            .args(["--out", out.to_str().unwrap()])
            .env("PLANWRIGHT_HOME", home.path())
            .env_remove("PLANWRIGHT_BLOCK_SPECS")
            .stdin(Stdio::null());
        // Offline: no model settings from the developer's environment.
        for (name, _) in std::env::vars() {
            if name.starts_with("OPENAI_") || name.starts_with("AZURE_OPENAI_") || name.starts_with("PLANWRIGHT_LLM") {
                command.env_remove(name);
            }
        }
        let output = command.output().expect("planwright runs");
        let (stdout, stderr) = (String::from_utf8_lossy(&output.stdout), String::from_utf8_lossy(&output.stderr));
        let result: Value = serde_json::from_str(&stdout).unwrap_or_else(|e| panic!("{e}: {stdout}\n{stderr}"));
        let plan = std::fs::read_to_string(&out).unwrap_or_default();
        let metrics = std::fs::read_to_string(home.path().join("design/generations.jsonl")).unwrap_or_default();
        for canary in *canaries {
            for (place, text) in [("stdout", &*stdout), ("stderr", &*stderr), ("--out", &plan), ("metrics", &metrics)] {
                assert!(!text.contains(canary), "{canary:?} in {place} for {instruction:?}:\n{text}");
            }
        }
        assert!(!result["plan"]["secrets"].as_array().unwrap().is_empty(), "{instruction:?} declares its secrets");
        let mut texts = Vec::new();
        strings(&result["plan"], &mut texts);
        for address in texts.iter().filter(|t| t.contains("://")) {
            assert!(!address.contains('@'), "user info left in {address:?} for {instruction:?}");
        }
        assert!(
            texts.iter().any(|t| t.starts_with("https://portal.example") || t.starts_with("https://kiosk.example")),
            "the address is kept for {instruction:?}: {texts:?}"
        );
    }
}
