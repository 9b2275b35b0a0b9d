//! `report.write` in its three formats, read back from disk.

use crate::data_common;

use data_common::Harness;
use planwright_runs::ArtifactKind;
use serde_json::json;

fn unpaid() -> serde_json::Value {
    json!([
        {"請求番号": "INV-2024-0401", "取引先": "株式会社山田商事", "金額": 132000, "支払期日": "2024-05-31"},
        {"請求番号": "INV-2024-0403", "取引先": "有限会社|みどり企画", "金額": 264000, "支払期日": "2024-05-20", "備考": "二行\n目"},
    ])
}

#[tokio::test]
async fn markdown_table_with_a_title() {
    let h = Harness::new();
    let out = h
        .ok(
            "report.write",
            json!({"data": unpaid(), "format": "markdown", "path": "経理/未入金.md", "title": "2024年4月 未入金の請求書"}),
        )
        .await;
    assert_eq!(out["path"], "経理/未入金.md");
    let text = std::fs::read_to_string(h.path("経理/未入金.md")).unwrap();
    assert_eq!(
        text,
        "# 2024年4月 未入金の請求書\n\n\
         | 請求番号 | 取引先 | 金額 | 支払期日 | 備考 |\n\
         | --- | --- | ---: | --- | --- |\n\
         | INV-2024-0401 | 株式会社山田商事 | 132000 | 2024-05-31 |  |\n\
         | INV-2024-0403 | 有限会社\\|みどり企画 | 264000 | 2024-05-20 | 二行<br>目 |\n\
         \n2 rows\n"
    );
    let artifacts = h.events.artifacts.lock().unwrap().clone();
    assert_eq!(artifacts.len(), 1);
    assert_eq!(artifacts[0].1, ArtifactKind::Report);
    assert_eq!(artifacts[0].0, h.path("経理/未入金.md"));
}

#[tokio::test]
async fn markdown_for_nested_data_and_text() {
    let h = Harness::new();
    let data = json!({
        "month": "2024-04",
        "matched": 2,
        "tags": ["a", "b"],
        "unpaid": unpaid(),
        "totals": {"count": 3, "by_supplier": [{"取引先": "山田", "金額": 1}]},
        "empty": []
    });
    h.ok("report.write", json!({"data": data, "path": "r.md"})).await;
    let text = std::fs::read_to_string(h.path("r.md")).unwrap();
    assert!(
        text.starts_with("# r\n\n- **month**: 2024-04\n- **matched**: 2\n- **tags**: a, b\n\n## unpaid\n\n| 請求番号"),
        "{text}"
    );
    assert!(
        text.contains(
            "## totals\n\n- **count**: 3\n\n### by_supplier\n\n| 取引先 | 金額 |\n| --- | ---: |\n| 山田 | 1 |"
        ),
        "{text}"
    );
    assert!(text.ends_with("- **empty**: _(none)_\n"), "{text}");
    h.ok("report.write", json!({"data": "# Already markdown\n\nok", "path": "t.md", "title": "T"})).await;
    assert_eq!(std::fs::read_to_string(h.path("t.md")).unwrap(), "# T\n\n# Already markdown\n\nok\n");
    h.ok("report.write", json!({"data": [1, "two", {"x": 1}], "path": "l.md", "title": "L"})).await;
    assert_eq!(std::fs::read_to_string(h.path("l.md")).unwrap(), "# L\n\n- 1\n- two\n- `{\"x\":1}`\n");
}

#[tokio::test]
async fn json_keeps_every_detail() {
    let h = Harness::new();
    let data = json!({"rows": unpaid(), "summary": {"rows": 2}});
    h.ok("report.write", json!({"data": data, "format": "json", "path": "out/r.json"})).await;
    let text = std::fs::read_to_string(h.path("out/r.json")).unwrap();
    assert!(text.contains("\n  \"rows\": ["), "pretty: {text}");
    assert!(text.contains("株式会社山田商事"), "UTF-8, not escaped");
    let back: serde_json::Value = serde_json::from_str(&text).unwrap();
    assert_eq!(back, data);
}

#[tokio::test]
async fn csv_for_excel_starts_with_a_bom() {
    let h = Harness::new();
    let mut rows = unpaid();
    rows.as_array_mut().unwrap().push(
        json!({"請求番号": "=HYPERLINK(\"x\")", "金額": "-500", "取引先": "+81-3-1234", "済": true, "明細": [1]}),
    );
    h.ok("report.write", json!({"data": rows, "format": "csv", "path": "out/r.csv", "title": "unused"})).await;
    let bytes = std::fs::read(h.path("out/r.csv")).unwrap();
    assert_eq!(&bytes[..3], b"\xEF\xBB\xBF");
    let text = String::from_utf8(bytes[3..].to_vec()).unwrap();
    assert_eq!(
        text,
        "請求番号,取引先,金額,支払期日,備考,済,明細\r\n\
         INV-2024-0401,株式会社山田商事,132000,2024-05-31,,,\r\n\
         INV-2024-0403,有限会社|みどり企画,264000,2024-05-20,\"二行\n目\",,\r\n\
         \"'=HYPERLINK(\"\"x\"\")\",'+81-3-1234,-500,,,true,[1]\r\n"
    );
    // It reads back with file.read_csv.
    let back = h.ok("file.read_csv", json!({"path": "out/r.csv"})).await;
    assert_eq!(back["rows"][0]["金額"], 132000);
    assert_eq!(back["summary"]["rows"], 3);
}

#[tokio::test]
async fn csv_needs_rows() {
    let h = Harness::new();
    let message = h
        .input_error(
            "report.write",
            json!({"data": {"rows": unpaid(), "summary": {}}, "format": "csv", "path": "x.csv"}),
        )
        .await;
    assert!(message.contains("${step.rows}"), "{message}");
    let message = h.input_error("report.write", json!({"data": [1, 2], "format": "csv", "path": "x.csv"})).await;
    assert!(message.contains("item 0"), "{message}");
    let message = h.input_error("report.write", json!({"data": "text", "format": "csv", "path": "x.csv"})).await;
    assert!(message.contains("list of rows"), "{message}");
    let message = h.input_error("report.write", json!({"data": [], "format": "pdf", "path": "x.pdf"})).await;
    assert!(message.contains("markdown") && message.contains("csv"), "{message}");
    let message = h.input_error("report.write", json!({"format": "json", "path": "x.json"})).await;
    assert!(message.contains("`data`"), "{message}");
    assert!(!h.path("x.csv").exists());
}

#[tokio::test]
async fn replaces_an_existing_report_and_refuses_escapes() {
    let h = Harness::new();
    h.write("r.json", "old");
    h.ok("report.write", json!({"data": [1], "format": "json", "path": "r.json"})).await;
    assert_eq!(std::fs::read_to_string(h.path("r.json")).unwrap(), "[\n  1\n]\n");
    let outside = tempfile::tempdir().unwrap();
    let target = outside.path().join("r.md");
    for path in ["../r.md".to_string(), target.to_string_lossy().into_owned()] {
        let message = h.input_error("report.write", json!({"data": [], "path": path})).await;
        assert!(message.contains("work directory"), "{message}");
    }
    assert!(!target.exists());
    std::fs::create_dir(h.path("folder")).unwrap();
    let message = h.input_error("report.write", json!({"data": [], "path": "folder"})).await;
    assert!(message.contains("folder"), "{message}");
}
