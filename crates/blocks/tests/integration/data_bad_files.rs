//! Broken, hostile and mislabelled files: every block that reads a file answers with an error
//! that names the file, or reads what it can — never a panic or a hang.

use crate::data_common;

use std::io::Write;

use data_common::Harness;
use planwright_block::BlockError;
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

fn assert_names_the_file(result: Result<planwright_block::Values, BlockError>, file: &str) {
    match result {
        Err(
            BlockError::Input(planwright_runs::Reason { text: message, .. })
            | BlockError::Failed(planwright_runs::Reason { text: message, .. }),
        ) => {
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
    let result = h.run("excel.read_data", json!({"path": "in/random.xlsx"})).await;
    let coded = planwright_runs::RunMessage::WorkbookUnreadable { path: "in/random.xlsx".into() };
    assert!(
        matches!(&result, Err(BlockError::Input(reason) | BlockError::Failed(reason)) if reason.said.as_deref() == Some(&coded)),
        "{result:?}"
    );
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
async fn a_missing_file_is_named_and_coded() {
    let h = Harness::new();
    for (id, input) in [("file.read_csv", "path"), ("excel.read_data", "path")] {
        let result = h.run(id, json!({ input: "in/none.csv" })).await;
        let coded = planwright_runs::RunMessage::FileMissing { input: input.into(), path: "in/none.csv".into() };
        assert!(
            matches!(&result, Err(BlockError::Input(reason)) if reason.said.as_deref() == Some(&coded)),
            "{id}: {result:?}"
        );
        assert_names_the_file(result, "none.csv");
    }
    std::fs::create_dir_all(h.path("in/folder")).unwrap();
    let result = h.run("file.read_csv", json!({"path": "in/folder"})).await;
    let coded = planwright_runs::RunMessage::FileIsFolder { input: "path".into(), path: "in/folder".into() };
    assert!(matches!(&result, Err(BlockError::Input(reason)) if reason.said.as_deref() == Some(&coded)), "{result:?}");
}

/// An .xlsx package whose first sheet is `sheet_xml`, deflated.
fn workbook_with_sheet(sheet_xml: &[u8]) -> Vec<u8> {
    let parts: [(&str, &[u8]); 4] = [
        (
            "[Content_Types].xml",
            br#"<?xml version="1.0" encoding="UTF-8"?><Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"><Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/><Default Extension="xml" ContentType="application/xml"/><Override PartName="/xl/workbook.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.sheet.main+xml"/><Override PartName="/xl/worksheets/sheet1.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.worksheet+xml"/></Types>"#,
        ),
        (
            "_rels/.rels",
            br#"<?xml version="1.0" encoding="UTF-8"?><Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/officeDocument" Target="xl/workbook.xml"/></Relationships>"#,
        ),
        (
            "xl/workbook.xml",
            br#"<?xml version="1.0" encoding="UTF-8"?><workbook xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main" xmlns:r="http://schemas.openxmlformats.org/officeDocument/2006/relationships"><sheets><sheet name="Sheet1" sheetId="1" r:id="rId1"/></sheets></workbook>"#,
        ),
        (
            "xl/_rels/workbook.xml.rels",
            br#"<?xml version="1.0" encoding="UTF-8"?><Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/worksheet" Target="worksheets/sheet1.xml"/></Relationships>"#,
        ),
    ];
    let mut zip = zip::ZipWriter::new(std::io::Cursor::new(Vec::new()));
    let options = zip::write::SimpleFileOptions::default().compression_method(zip::CompressionMethod::Deflated);
    for (name, bytes) in parts.into_iter().chain([("xl/worksheets/sheet1.xml", sheet_xml)]) {
        zip.start_file(name, options).unwrap();
        zip.write_all(bytes).unwrap();
    }
    zip.finish().unwrap().into_inner()
}

/// A small workbook whose sheet inflates to 32 MiB (runs of one letter compress a
/// thousandfold): refused by name, as a zip bomb, before anything inflates it into memory.
#[tokio::test]
async fn a_workbook_that_inflates_like_a_bomb_is_refused_by_name() {
    let h = Harness::new();
    let mut sheet = br#"<?xml version="1.0" encoding="UTF-8"?><worksheet xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main"><sheetData><row r="1"><c r="A1" t="inlineStr"><is><t>"#.to_vec();
    sheet.resize(sheet.len() + 32 * 1024 * 1024, b'x');
    sheet.extend_from_slice(b"</t></is></c></row></sheetData></worksheet>");
    let package = workbook_with_sheet(&sheet);
    drop(sheet);
    assert!(package.len() < 256 * 1024, "the bomb is small: {} bytes", package.len());
    h.write("in/bomb.xlsx", &package);
    let message = h.input_error("excel.read_data", json!({"path": "in/bomb.xlsx"})).await;
    assert!(message.contains("bomb.xlsx") && message.contains("zip bomb"), "{message}");
}

/// A few thousand cells placed so that the table they make (rows × columns) is over the limit:
/// refused with the limit, not expanded into millions of empty cells.
#[tokio::test]
async fn a_table_whose_rows_times_columns_pass_the_limit_is_refused() {
    let h = Harness::new();
    let mut book = rust_xlsxwriter::Workbook::new();
    let sheet = book.add_worksheet();
    for i in 0..2_300u16 {
        sheet.write_number(u32::from(i), i, 1.0).unwrap();
    }
    book.save(h.path("diagonal.xlsx")).unwrap();
    let message = h.input_error("excel.read_data", json!({"path": "diagonal.xlsx"})).await;
    assert!(
        message.contains("diagonal.xlsx") && message.contains("5000000 cells") && message.contains("range"),
        "{message}"
    );
    let out = h.ok("excel.read_data", json!({"path": "diagonal.xlsx", "range": "A1:J10"})).await;
    assert_eq!(out["rows"].as_array().unwrap().len(), 9, "a range reads part of it");
}
