//! Broken, hostile and mislabelled files: every block that reads a file answers with an error
//! that names the file, or reads what it can — never a panic or a hang.

mod data_common;

use data_common::Harness;
use planwright_blocks::BlockError;
use serde_json::json;

/// The same bytes on every run.
fn garbage(len: usize) -> Vec<u8> {
    let mut state: u32 = 0x2545_F491;
    (0..len)
        .map(|_| {
            state ^= state << 13;
            state ^= state >> 17;
            state ^= state << 5;
            state as u8
        })
        .collect()
}

fn assert_names_the_file(result: Result<planwright_blocks::Values, BlockError>, file: &str) {
    match result {
        Err(BlockError::Input(message) | BlockError::Failed(message)) => {
            assert!(message.contains(file), "the message should name {file}: {message}")
        }
        other => panic!("{file}: expected a clear error, got {other:?}"),
    }
}

#[tokio::test]
async fn spreadsheets_that_are_not_spreadsheets_are_refused_by_name() {
    let h = Harness::new();
    h.write("in/random.xlsx", garbage(64 * 1024));
    h.write("in/csv_named.xlsx", "日付,金額\n2024-04-01,1000\n");
    let mut zip = std::fs::read(h.write("in/empty.txt", "")).unwrap();
    zip.extend_from_slice(b"PK\x03\x04\x14\x00\x00\x00\x08\x00");
    zip.extend_from_slice(&garbage(300));
    h.write("in/truncated.xlsx", &zip);
    for file in ["in/random.xlsx", "in/csv_named.xlsx", "in/truncated.xlsx"] {
        assert_names_the_file(h.run("excel.read_data", json!({"path": file})).await, file);
    }
}

#[tokio::test]
async fn binary_garbage_as_csv_is_an_error_or_text_never_a_panic() {
    let h = Harness::new();
    h.write("in/garbage.csv", garbage(256 * 1024));
    match h.run("file.read_csv", json!({"path": "in/garbage.csv"})).await {
        Ok(out) => assert!(out["rows"].is_array()),
        Err(error) => assert!(error.to_string().contains("garbage.csv"), "{error}"),
    }
    h.write("in/ragged.csv", "a,b,c\n1,2\n3,4,5,6\n\"unclosed,7\n");
    match h.run("file.read_csv", json!({"path": "in/ragged.csv"})).await {
        Ok(out) => assert!(out["rows"].is_array()),
        Err(error) => assert!(error.to_string().contains("ragged.csv"), "{error}"),
    }
}

#[tokio::test]
async fn extracting_texts_skips_a_bad_file_and_keeps_the_others() {
    let h = Harness::new();
    h.write("in/notes.md", "# 4月の締め\n請求書を確認する。\n");
    h.write("in/blob.txt", garbage(10_000));
    h.write("in/statement.pdf", garbage(2_000));
    let out = h.ok("file.extract_texts", json!({"paths": ["in/notes.md", "in/blob.txt", "in/statement.pdf"]})).await;
    let texts = out["texts"].as_array().unwrap();
    assert_eq!(texts.len(), 3);
    assert!(texts[0]["text"].as_str().unwrap().contains("請求書"));
    assert!(out["summary"]["skipped"]
        .as_array()
        .unwrap()
        .iter()
        .any(|s| s.as_str().unwrap().contains("statement.pdf")));
}

#[tokio::test]
async fn a_missing_file_is_named() {
    let h = Harness::new();
    for (id, input) in [("file.read_csv", "path"), ("excel.read_data", "path")] {
        assert_names_the_file(h.run(id, json!({ input: "in/none.csv" })).await, "none.csv");
    }
}
