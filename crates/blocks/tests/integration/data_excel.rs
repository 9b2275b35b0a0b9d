//! `excel.read_data` and `excel.write` on real workbooks.

use crate::data_common;

use data_common::Harness;
use planwright_block::BlockError;
use planwright_runs::ArtifactKind;
use rust_xlsxwriter::{ExcelDateTime, Format, Workbook};
use serde_json::json;

/// The April invoice list as accountants keep it: a title, a blank row, headers on row 3, real
/// dates and numbers, a note under the table.
fn invoice_workbook(path: &std::path::Path) {
    let mut workbook = Workbook::new();
    let date = Format::new().set_num_format("yyyy/mm/dd");
    let summary = workbook.add_worksheet();
    summary.set_name("概要").unwrap();
    summary.write_string(0, 0, "この表は4月分です").unwrap();
    let sheet = workbook.add_worksheet();
    sheet.set_name("4月").unwrap();
    sheet.write_string(0, 0, "2024年4月 請求一覧").unwrap();
    for (c, h) in ["請求番号", "取引先", "請求日", "支払期日", "金額", "ステータス"].iter().enumerate()
    {
        sheet.write_string(2, c as u16, *h).unwrap();
    }
    let rows = [
        ("INV-2024-0401", "株式会社山田商事", (2024, 4, 5), (2024, 5, 31), 132000.0, "未入金"),
        ("INV-2024-0402", "東和物流株式会社", (2024, 4, 10), (2024, 5, 31), 88000.0, "入金済"),
        ("INV-2024-0403", "有限会社みどり企画", (2024, 4, 18), (2024, 5, 20), 264000.0, "未入金"),
    ];
    for (i, (no, who, issued, due, amount, status)) in rows.iter().enumerate() {
        let r = i as u32 + 3;
        sheet.write_string(r, 0, *no).unwrap();
        sheet.write_string(r, 1, *who).unwrap();
        let d = |(y, m, d): (u16, u8, u8)| ExcelDateTime::from_ymd(y, m, d).unwrap();
        sheet.write_datetime_with_format(r, 2, d(*issued), &date).unwrap();
        sheet.write_datetime_with_format(r, 3, d(*due), &date).unwrap();
        sheet.write_number(r, 4, *amount).unwrap();
        sheet.write_string(r, 5, *status).unwrap();
    }
    sheet.write_string(8, 0, "※ 金額は税込").unwrap();
    std::fs::create_dir_all(path.parent().unwrap()).unwrap();
    workbook.save(path).unwrap();
}

fn invoice_rows() -> serde_json::Value {
    json!([
        {"請求番号": "INV-2024-0401", "取引先": "株式会社山田商事", "請求日": "2024-04-05", "支払期日": "2024-05-31", "金額": 132000, "ステータス": "未入金"},
        {"請求番号": "INV-2024-0402", "取引先": "東和物流株式会社", "請求日": "2024-04-10", "支払期日": "2024-05-31", "金額": 88000, "ステータス": "入金済"},
        {"請求番号": "INV-2024-0403", "取引先": "有限会社みどり企画", "請求日": "2024-04-18", "支払期日": "2024-05-20", "金額": 264000, "ステータス": "未入金"},
    ])
}

#[tokio::test]
async fn reads_a_range_with_dates_and_numbers() {
    let h = Harness::new();
    invoice_workbook(&h.path("経理/請求一覧.xlsx"));
    let out = h
        .ok("excel.read_data", json!({"path": "経理/請求一覧.xlsx", "sheet": "4月", "range": "A3:F6", "header_row": 1}))
        .await;
    assert_eq!(out["rows"], invoice_rows());
    assert_eq!(
        out["summary"],
        json!({"sheet": "4月", "rows": 3, "columns": ["請求番号", "取引先", "請求日", "支払期日", "金額", "ステータス"]})
    );
}

/// The sheet read is a run's table whose source — the workbook, how it was read, its SHA-256 —
/// reads it again; a workbook changed since is refused.
#[tokio::test]
async fn a_sheet_read_is_a_table_its_source_reads_again_unless_the_workbook_changed() {
    let h = Harness::new();
    invoice_workbook(&h.path("請求一覧.xlsx"));
    let inputs = json!({"path": "請求一覧.xlsx", "sheet": "4月", "range": "A3:F6"});
    let out = h.run_keeping_tables("excel.read_data", inputs).await.unwrap();
    let table = h.ctx.tables.get(&out["rows"]).expect("the sheet is a run's table");
    assert_eq!(serde_json::Value::Array(table.rows()), invoice_rows());
    let Some(planwright_block::TableOrigin::Source(source)) = h.ctx.tables.origin(&out["rows"]) else {
        panic!("the table keeps where it came from")
    };
    assert_eq!(
        (&source["block"], &source["sheet"], &source["range"]),
        (&json!("excel.read_data"), &json!("4月"), &json!("A3:F6"))
    );
    let block = data_common::block("excel.read_data");
    let again = block.reopen_table(&source, &h.ctx.workdir).expect("the block reads its tables again").unwrap();
    assert_eq!(again.rows(), table.rows());

    let mut workbook = Workbook::new();
    workbook.add_worksheet().set_name("4月").unwrap().write_string(0, 0, "請求番号").unwrap();
    workbook.save(h.path("請求一覧.xlsx")).unwrap();
    let Err(BlockError::Failed(reason)) = block.reopen_table(&source, &h.ctx.workdir).unwrap() else {
        panic!("a changed workbook is refused")
    };
    assert!(reason.text.contains("請求一覧.xlsx") && reason.text.contains("changed"), "{}", reason.text);
}

#[tokio::test]
async fn header_row_counts_from_the_top_of_the_range_or_the_sheet() {
    let h = Harness::new();
    invoice_workbook(&h.path("book.xlsx"));
    // From the sheet's row 1: headers on row 3; the note under the table is a row too.
    let out = h.ok("excel.read_data", json!({"path": "book.xlsx", "sheet": "4月", "header_row": 3})).await;
    assert_eq!(out["summary"]["rows"], 4);
    assert_eq!(
        out["rows"][3],
        json!({"請求番号": "※ 金額は税込", "取引先": null, "請求日": null, "支払期日": null, "金額": null, "ステータス": null})
    );
    // Range A2:F6 with header_row 2 is the same header.
    let out =
        h.ok("excel.read_data", json!({"path": "book.xlsx", "sheet": "4月", "range": "A2:F6", "header_row": 2})).await;
    assert_eq!(out["rows"], invoice_rows());
    // Open-ended range: from B3 down to the last row with data, columns B..C.
    let out = h.ok("excel.read_data", json!({"path": "book.xlsx", "sheet": "4月", "range": "$B$3:C"})).await;
    assert_eq!(out["summary"]["columns"], json!(["取引先", "請求日"]));
    assert_eq!(out["rows"][0], json!({"取引先": "株式会社山田商事", "請求日": "2024-04-05"}));
    assert_eq!(out["summary"]["rows"], 3);
    // Sheet-qualified range.
    let out = h.ok("excel.read_data", json!({"path": "book.xlsx", "range": "'4月'!A3:F6"})).await;
    assert_eq!(out["rows"], invoice_rows());
}

#[tokio::test]
async fn an_empty_header_row_gives_way_to_the_next_row_with_data() {
    let h = Harness::new();
    invoice_workbook(&h.path("book.xlsx"));
    let out = h.ok("excel.read_data", json!({"path": "book.xlsx", "sheet": "4月", "range": "A2:F6"})).await;
    assert_eq!(out["rows"], invoice_rows());
    assert!(h.events.warnings().iter().any(|w| w.contains("row 2")), "{:?}", h.events.warnings());
}

#[tokio::test]
async fn the_first_sheet_by_default_and_a_clear_message_for_a_wrong_one() {
    let h = Harness::new();
    invoice_workbook(&h.path("book.xlsx"));
    let out = h.ok("excel.read_data", json!({"path": "book.xlsx"})).await;
    assert_eq!(out["summary"], json!({"sheet": "概要", "rows": 0, "columns": ["この表は4月分です"]}));
    let message = h.input_error("excel.read_data", json!({"path": "book.xlsx", "sheet": "5月"})).await;
    assert!(message.contains("概要, 4月"), "{message}");
    // Full-width/half-width differences in the sheet name are forgiven.
    let out = h.ok("excel.read_data", json!({"path": "book.xlsx", "sheet": " ４月 ", "range": "A3:F6"})).await;
    assert_eq!(out["summary"]["sheet"], "4月");
}

#[tokio::test]
async fn bad_ranges_and_header_rows_are_input_errors() {
    let h = Harness::new();
    invoice_workbook(&h.path("book.xlsx"));
    for range in ["F6:A3", "1:5", "A0:B2", "XFE1:XFF2", "A1:B2:C3", "hello"] {
        let message = h.input_error("excel.read_data", json!({"path": "book.xlsx", "range": range})).await;
        assert!(message.contains("`range`"), "{range}: {message}");
    }
    let message = h
        .input_error("excel.read_data", json!({"path": "book.xlsx", "sheet": "4月", "range": "A3:F6", "header_row": 5}))
        .await;
    assert!(message.contains("below the range"), "{message}");
    let message = h.input_error("excel.read_data", json!({"path": "book.xlsx", "header_row": 0})).await;
    assert!(message.contains("`header_row`"), "{message}");
    h.write("data.csv", "a\n1\n");
    let message = h.input_error("excel.read_data", json!({"path": "data.csv"})).await;
    assert!(message.contains("file.read_csv"), "{message}");
    h.write("fake.xlsx", "not a zip");
    let message = h.input_error("excel.read_data", json!({"path": "fake.xlsx"})).await;
    assert!(message.contains("fake.xlsx") && message.contains("not an Excel workbook"), "{message}");
}

#[tokio::test]
async fn write_then_read_round_trip() {
    let h = Harness::new();
    let rows = json!([
        {"請求番号": "INV-2024-0401", "取引先": "株式会社山田商事", "金額": 132000, "支払期日": "2024-05-31", "コード": "00123"},
        {"請求番号": "INV-2024-0403", "取引先": "有限会社みどり企画", "金額": 264000.5, "支払期日": "2024-05-20", "備考": "一部入金", "済": true},
        {"請求番号": "INV-2024-0404", "金額": null, "入金日時": "2024-04-26 10:30:00", "明細": [1, 2], "式": "=1+1"},
    ]);
    let out = h.ok("excel.write", json!({"path": "out/結果.xlsx", "sheets": {"未入金": rows, "空": []}})).await;
    assert_eq!(out["path"], "out/結果.xlsx");
    assert_eq!(out["summary"], json!({"sheets": ["未入金", "空"], "rows": 3}));
    let artifacts = h.events.artifacts.lock().unwrap().clone();
    assert_eq!(artifacts.len(), 1);
    assert_eq!(artifacts[0].0, h.path("out/結果.xlsx"));
    assert_eq!(artifacts[0].1, ArtifactKind::File);
    assert!(artifacts[0].2 > 0);

    let back = h.ok("excel.read_data", json!({"path": "out/結果.xlsx", "sheet": "未入金"})).await;
    assert_eq!(
        back["summary"]["columns"],
        json!(["請求番号", "取引先", "金額", "支払期日", "コード", "備考", "済", "入金日時", "明細", "式"]),
        "columns in first-seen order"
    );
    assert_eq!(
        back["rows"],
        json!([
            {"請求番号": "INV-2024-0401", "取引先": "株式会社山田商事", "金額": 132000, "支払期日": "2024-05-31", "コード": "00123",
             "備考": null, "済": null, "入金日時": null, "明細": null, "式": null},
            {"請求番号": "INV-2024-0403", "取引先": "有限会社みどり企画", "金額": 264000.5, "支払期日": "2024-05-20", "コード": null,
             "備考": "一部入金", "済": true, "入金日時": null, "明細": null, "式": null},
            {"請求番号": "INV-2024-0404", "取引先": null, "金額": null, "支払期日": null, "コード": null,
             "備考": null, "済": null, "入金日時": "2024-04-26 10:30:00", "明細": "[1,2]", "式": "=1+1"},
        ])
    );
    let empty = h.ok("excel.read_data", json!({"path": "out/結果.xlsx", "sheet": "空"})).await;
    assert_eq!(empty["summary"], json!({"sheet": "空", "rows": 0, "columns": []}));
}

#[tokio::test]
async fn dates_are_real_excel_dates() {
    let h = Harness::new();
    h.ok("excel.write", json!({"path": "d.xlsx", "sheets": {"s": [{"日付": "2024-04-01", "文字": "2024/04/01"}]}}))
        .await;
    use calamine::{open_workbook, Data, Reader, Xlsx};
    let mut book: Xlsx<_> = open_workbook(h.path("d.xlsx")).unwrap();
    let range = book.worksheet_range("s").unwrap();
    assert!(matches!(range.get_value((1, 0)), Some(Data::DateTime(_))), "{:?}", range.get_value((1, 0)));
    assert_eq!(range.get_value((1, 1)), Some(&Data::String("2024/04/01".into())), "other spellings stay text");
}

#[tokio::test]
async fn amounts_are_numbers_with_a_number_format_and_codes_stay_as_they_are() {
    let h = Harness::new();
    let rows = json!([
        {"請求番号": 1001, "取引先": "山田商事", "金額": "¥13,200", "単価": 12.5, "year": 2026, "code": "0401", "total": 1200},
        {"請求番号": 1002, "取引先": "東和物流", "金額": "8,800円", "単価": 3, "year": 2026, "code": "0402", "total": "1,500"},
    ]);
    h.ok("excel.write", json!({"path": "amounts.xlsx", "sheets": {"s": rows}})).await;
    use calamine::{open_workbook, Data, Reader, Xlsx};
    let mut book: Xlsx<_> = open_workbook(h.path("amounts.xlsx")).unwrap();
    let range = book.worksheet_range("s").unwrap();
    let cell = |row: u32, col: u32| range.get_value((row, col)).cloned();
    assert_eq!(cell(1, 2), Some(Data::Float(13200.0)), "¥13,200 is the number 13200");
    assert_eq!(cell(2, 2), Some(Data::Float(8800.0)), "8,800円 is the number 8800");
    assert_eq!(cell(2, 6), Some(Data::Float(1500.0)));
    assert_eq!(cell(1, 5), Some(Data::String("0401".into())), "a code keeps its leading zero");
    // The formats the cells carry, as Excel reads them.
    let file = std::fs::File::open(h.path("amounts.xlsx")).unwrap();
    let mut zip = zip::ZipArchive::new(file).unwrap();
    let mut styles = String::new();
    std::io::Read::read_to_string(&mut zip.by_name("xl/styles.xml").unwrap(), &mut styles).unwrap();
    for format in ["#,##0", "#,##0.00", "¥#,##0"] {
        assert!(styles.contains(&format!("formatCode=\"{format}\"")), "{format} in {styles}");
    }
    let mut sheet = String::new();
    std::io::Read::read_to_string(&mut zip.by_name("xl/worksheets/sheet1.xml").unwrap(), &mut sheet).unwrap();
    // The invoice number and the year are plain numbers (no style): 1001, not 1,001.
    assert!(sheet.contains("<c r=\"A2\"><v>1001</v></c>"), "{sheet}");
    assert!(sheet.contains("<c r=\"E2\"><v>2026</v></c>"), "{sheet}");
}

#[tokio::test]
async fn replaces_an_existing_file_and_fixes_sheet_names() {
    let h = Harness::new();
    h.write("r.xlsx", "old content");
    let out = h
        .ok(
            "excel.write",
            json!({"path": "r.xlsx", "sheets": {
                "2024/04 結果": [{"a": 1}],
                "とても長いシート名とても長いシート名とても長いシート名とても長い": [{"a": 2}],
                "History": {"a": 3}
            }}),
        )
        .await;
    let names = out["summary"]["sheets"].as_array().unwrap();
    assert_eq!(names[0], "2024_04 結果");
    assert_eq!(names[1].as_str().unwrap().chars().count(), 31);
    assert_eq!(names[2], "History_");
    assert_eq!(out["summary"]["rows"], 3);
    assert_eq!(h.events.warnings().len(), 3);
    let back = h.ok("excel.read_data", json!({"path": "r.xlsx", "sheet": "History_"})).await;
    assert_eq!(back["rows"], json!([{"a": 3}]));
    // No temporary files are left beside it.
    let leftovers: Vec<_> = std::fs::read_dir(h.path("")).unwrap().flatten().map(|e| e.file_name()).collect();
    assert_eq!(leftovers.len(), 1, "{leftovers:?}");
}

#[tokio::test]
async fn bad_write_inputs_are_input_errors() {
    let h = Harness::new();
    let cases = [
        (json!({"path": "x.csv", "sheets": {"a": []}}), "report.write"),
        (json!({"path": "x", "sheets": {"a": []}}), ".xlsx"),
        (json!({"path": "x.xlsx", "sheets": []}), "`sheets`"),
        (json!({"path": "x.xlsx", "sheets": {}}), "`sheets` is empty"),
        (json!({"path": "x.xlsx", "sheets": {"a": [1, 2]}}), "sheets.a"),
        (json!({"path": "x.xlsx", "sheets": {"a": "rows"}}), "sheets.a"),
        (json!({"path": "x.xlsx", "sheets": {"a": {"rows": [{"x": 1}], "summary": {}}}}), "${step.rows}"),
        (json!({"sheets": {"a": []}}), "`path`"),
    ];
    for (inputs, expected) in cases {
        let message = h.input_error("excel.write", inputs.clone()).await;
        assert!(message.contains(expected), "{inputs}: {message}");
    }
    assert!(!h.path("x.xlsx").exists());
}

#[tokio::test]
async fn refuses_paths_outside_the_work_directory() {
    let h = Harness::new();
    let outside = tempfile::tempdir().unwrap();
    let outside_file = outside.path().join("book.xlsx");
    invoice_workbook(&outside_file);
    for path in ["../x.xlsx".to_string(), outside_file.to_string_lossy().into_owned()] {
        let message = h.input_error("excel.read_data", json!({"path": path})).await;
        assert!(message.contains("work directory"), "{message}");
        let message = h.input_error("excel.write", json!({"path": path, "sheets": {"a": [{"x": 1}]}})).await;
        assert!(message.contains("work directory"), "{message}");
    }
    assert!(!outside.path().join("../x.xlsx").exists());
}

#[tokio::test]
async fn a_cancelled_read_or_write_stops() {
    let h = Harness::new();
    let rows: Vec<serde_json::Value> = (0..5000).map(|i| json!({"id": i, "amount": i * 10})).collect();
    h.ok("excel.write", json!({"path": "big.xlsx", "sheets": {"data": rows.clone()}})).await;
    h.ctx.cancel.cancel();
    assert_eq!(h.run("excel.read_data", json!({"path": "big.xlsx"})).await, Err(BlockError::Cancelled));
    assert_eq!(
        h.run("excel.write", json!({"path": "big2.xlsx", "sheets": {"data": rows}})).await,
        Err(BlockError::Cancelled)
    );
    assert!(!h.path("big2.xlsx").exists());
}

#[tokio::test]
async fn what_a_workbook_step_says_is_coded_and_a_missing_sheet_names_the_sheets_there_are() {
    let h = Harness::new();
    h.ok("excel.write", json!({"path": "out/月次.xlsx", "sheets": {"売上": [{"金額": 1}], "経費": [{"金額": 2}]}}))
        .await;
    h.ok("excel.read_data", json!({"path": "out/月次.xlsx", "sheet": "経費"})).await;
    let said = h.events.logs_said.lock().unwrap().clone();
    assert_eq!(
        said,
        [
            Some(planwright_runs::RunMessage::WorkbookWritten { path: "out/月次.xlsx".into(), rows: 2, sheets: 2 }),
            Some(planwright_runs::RunMessage::SheetRead {
                path: "out/月次.xlsx".into(),
                sheet: "経費".into(),
                rows: 1,
                columns: 1
            }),
        ]
    );
    let result = h.run("excel.read_data", json!({"path": "out/月次.xlsx", "sheet": "入金"})).await;
    let Err(BlockError::Input(reason)) = result else { panic!("{result:?}") };
    assert_eq!(
        reason.said.as_deref(),
        Some(&planwright_runs::RunMessage::SheetMissing {
            path: "out/月次.xlsx".into(),
            sheet: "入金".into(),
            sheets: "売上, 経費".into()
        }),
        "{reason:?}"
    );
}
