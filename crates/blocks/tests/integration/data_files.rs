//! `file.read_csv` and `file.extract_texts` on real files.

use crate::data_common;

use data_common::{sjis, Harness, MAX_CSV_BYTES, MAX_READ_BYTES, MAX_TEXT_CHARS};
use planwright_block::BlockError;
use serde_json::json;

const STATEMENT: &str = "日付,摘要,入金額,出金額,残高\r\n\
                         2024-04-01,振込 カ）ヤマダシヨウジ,132000,0,2582000\r\n\
                         2024-04-10,振込 トウワブツリユウ（カ,88000,0,2670000\r\n\
                         2024-04-25,給与振込,0,1850000,820000\r\n";

fn statement_rows() -> serde_json::Value {
    json!([
        {"日付": "2024-04-01", "摘要": "振込 カ）ヤマダシヨウジ", "入金額": 132000, "出金額": 0, "残高": 2582000},
        {"日付": "2024-04-10", "摘要": "振込 トウワブツリユウ（カ", "入金額": 88000, "出金額": 0, "残高": 2670000},
        {"日付": "2024-04-25", "摘要": "給与振込", "入金額": 0, "出金額": 1850000, "残高": 820000},
    ])
}

#[tokio::test]
async fn reads_utf8_with_numbers_as_numbers() {
    let h = Harness::new();
    h.write("in/statement.csv", STATEMENT);
    let out = h.ok("file.read_csv", json!({"path": "in/statement.csv"})).await;
    assert_eq!(out["rows"], statement_rows());
    assert_eq!(out["summary"], json!({"rows": 3, "columns": ["日付", "摘要", "入金額", "出金額", "残高"]}));
}

#[tokio::test]
async fn strips_a_utf8_bom() {
    let h = Harness::new();
    h.write("bom.csv", format!("\u{FEFF}{STATEMENT}"));
    let out = h.ok("file.read_csv", json!({"path": "bom.csv", "encoding": "utf-8"})).await;
    assert_eq!(out["summary"]["columns"][0], "日付");
    assert_eq!(out["rows"], statement_rows());
}

#[tokio::test]
async fn reads_shift_jis_and_cp932() {
    let h = Harness::new();
    h.write("sjis.csv", sjis(STATEMENT));
    for encoding in ["shift_jis", "cp932", "Shift-JIS", "sjis", "windows-31j"] {
        let out = h.ok("file.read_csv", json!({"path": "sjis.csv", "encoding": encoding})).await;
        assert_eq!(out["rows"], statement_rows(), "{encoding}");
    }
    // NEC special characters (①, ㈱) are in cp932 and decode too.
    h.write("nec.csv", sjis("社名,番号\n㈱ヤマダ,①\n"));
    let out = h.ok("file.read_csv", json!({"path": "nec.csv", "encoding": "cp932"})).await;
    assert_eq!(out["rows"], json!([{"社名": "㈱ヤマダ", "番号": "①"}]));
}

#[tokio::test]
async fn reads_euc_jp() {
    let h = Harness::new();
    let (bytes, _, _) = encoding_rs::EUC_JP.encode("取引先,金額\n山田商事,1000\n");
    h.write("euc.csv", bytes);
    let out = h.ok("file.read_csv", json!({"path": "euc.csv", "encoding": "euc-jp"})).await;
    assert_eq!(out["rows"], json!([{"取引先": "山田商事", "金額": 1000}]));
}

#[tokio::test]
async fn utf16_with_a_bom_is_read_whatever_the_encoding_says() {
    // Excel's "Unicode text" export: UTF-16LE with a BOM, tab-separated.
    let h = Harness::new();
    let mut bytes = vec![0xFF, 0xFE];
    bytes.extend("取引先\t金額\r\n山田商事\t1000\r\n".encode_utf16().flat_map(u16::to_le_bytes));
    h.write("unicode.txt", bytes);
    let out = h.ok("file.read_csv", json!({"path": "unicode.txt", "delimiter": "\t"})).await;
    assert_eq!(out["rows"], json!([{"取引先": "山田商事", "金額": 1000}]));
}

#[tokio::test]
async fn shift_jis_read_as_utf8_says_what_to_set() {
    let h = Harness::new();
    h.write("sjis.csv", sjis(STATEMENT));
    let message = h.input_error("file.read_csv", json!({"path": "sjis.csv"})).await;
    assert!(message.contains("shift_jis"), "{message}");
    h.write("utf8.csv", STATEMENT);
    let message = h.input_error("file.read_csv", json!({"path": "utf8.csv", "encoding": "cp932"})).await;
    assert!(message.contains("utf-8"), "{message}");
    let message = h.input_error("file.read_csv", json!({"path": "utf8.csv", "encoding": "klingon"})).await;
    assert!(message.contains("`encoding`") && message.contains("shift_jis"), "{message}");
}

#[tokio::test]
async fn codes_keep_their_zeros_and_other_text_stays_text() {
    let h = Harness::new();
    h.write(
        "codes.csv",
        "コード,金額,電話,備考,小数\n00123,\"1,200\",0312345678,, 42 \n0,-5,1234567890123456789,x,12.50\n",
    );
    let out = h.ok("file.read_csv", json!({"path": "codes.csv"})).await;
    assert_eq!(
        out["rows"],
        json!([
            {"コード": "00123", "金額": "1,200", "電話": "0312345678", "備考": "", "小数": 42},
            {"コード": 0, "金額": -5, "電話": "1234567890123456789", "備考": "x", "小数": 12.5},
        ])
    );
}

#[tokio::test]
async fn without_a_header_columns_are_numbered() {
    let h = Harness::new();
    h.write("plain.csv", "a,1\nb,2,extra\n");
    let out = h.ok("file.read_csv", json!({"path": "plain.csv", "has_header": false})).await;
    assert_eq!(
        out["rows"],
        json!([
            {"column_1": "a", "column_2": 1, "column_3": ""},
            {"column_1": "b", "column_2": 2, "column_3": "extra"},
        ])
    );
    assert_eq!(out["summary"], json!({"rows": 2, "columns": ["column_1", "column_2", "column_3"]}));
}

#[tokio::test]
async fn tabs_blank_and_repeated_headers_empty_lines() {
    let h = Harness::new();
    h.write("t.tsv", "名前\t金額\t金額\t\n\n山田\t100\t200\t\n\t\t\t\n東和\t300\t400\tx\n");
    for delimiter in ["\t", "\\t", "tab"] {
        let out = h.ok("file.read_csv", json!({"path": "t.tsv", "delimiter": delimiter})).await;
        assert_eq!(out["summary"]["columns"], json!(["名前", "金額", "金額_2", "column_4"]), "{delimiter:?}");
        assert_eq!(out["summary"]["rows"], 2);
        assert_eq!(out["rows"][1], json!({"名前": "東和", "金額": 300, "金額_2": 400, "column_4": "x"}));
    }
    let message = h.input_error("file.read_csv", json!({"path": "t.tsv", "delimiter": ",,"})).await;
    assert!(message.contains("`delimiter`"), "{message}");
}

#[tokio::test]
async fn quoted_cells_with_commas_and_newlines() {
    let h = Harness::new();
    h.write("q.csv", "a,b\n\"x, y\",\"line1\nline2\"\n");
    let out = h.ok("file.read_csv", json!({"path": "q.csv"})).await;
    assert_eq!(out["rows"], json!([{"a": "x, y", "b": "line1\nline2"}]));
}

#[tokio::test]
async fn a_missing_file_names_the_files_that_are_there() {
    let h = Harness::new();
    h.write("経理/入出金明細_202404.csv", STATEMENT);
    let message = h.input_error("file.read_csv", json!({"path": "経理/入出金明細_202405.csv"})).await;
    assert!(message.contains("入出金明細_202404.csv"), "{message}");
    let message = h.input_error("file.read_csv", json!({"path": "経理"})).await;
    assert!(message.contains("folder"), "{message}");
}

#[tokio::test]
async fn refuses_paths_outside_the_work_directory() {
    let h = Harness::new();
    let outside = tempfile::NamedTempFile::new().unwrap();
    std::fs::write(outside.path(), "a\n1\n").unwrap();
    for path in ["../x.csv", outside.path().to_str().unwrap()] {
        let message = h.input_error("file.read_csv", json!({"path": path})).await;
        assert!(message.contains("work directory"), "{message}");
    }
    let message = h.input_error("file.extract_texts", json!({"paths": ["ok.txt", "../secret.txt"]})).await;
    assert!(message.contains("paths[1]") && message.contains("work directory"), "{message}");
    let message = h.input_error("file.extract_texts", json!({"paths": [outside.path().to_str().unwrap()]})).await;
    assert!(message.contains("work directory"), "{message}");
}

#[tokio::test]
async fn refuses_files_over_the_read_cap() {
    let h = Harness::new();
    let path = h.path("huge.csv");
    let file = std::fs::File::create(&path).unwrap();
    file.set_len(MAX_CSV_BYTES + 1).unwrap(); // sparse: nothing is written
    let message = h.input_error("file.read_csv", json!({"path": "huge.csv"})).await;
    assert!(message.contains("1024 MB"), "{message}");
    file.set_len(MAX_READ_BYTES + 1).unwrap();
    let out = h.ok("file.extract_texts", json!({"paths": ["huge.csv"]})).await;
    assert_eq!(out["texts"][0]["text"], "");
    assert!(out["summary"]["skipped"][0].as_str().unwrap().contains("200 MB"));
}

#[tokio::test]
async fn a_cancelled_read_stops() {
    let h = Harness::new();
    let mut big = String::from("id,amount,memo\n");
    for i in 0..200_000 {
        big.push_str(&format!("{i},{},payment number {i}\n", i * 3));
    }
    h.write("big.csv", &big);
    h.ctx.cancel.cancel();
    assert_eq!(h.run("file.read_csv", json!({"path": "big.csv"})).await, Err(BlockError::Cancelled));
    assert_eq!(h.run("file.extract_texts", json!({"paths": ["big.csv"]})).await, Err(BlockError::Cancelled));
}

#[tokio::test]
async fn cancelling_during_a_read_stops_it() {
    let h = Harness::new();
    let mut big = String::from("id,amount\n");
    for i in 0..400_000 {
        big.push_str(&format!("{i},{}\n", i * 7));
    }
    h.write("big.csv", &big);
    let cancel = h.ctx.cancel.clone();
    let canceller = tokio::spawn(async move {
        tokio::time::sleep(std::time::Duration::from_millis(5)).await;
        cancel.cancel();
    });
    let result = h.run("file.read_csv", json!({"path": "big.csv"})).await;
    canceller.await.unwrap();
    // The read either finished before the token fired or stopped with Cancelled; never another error.
    match result {
        Ok(out) => assert_eq!(out["summary"]["rows"], 400_000),
        Err(e) => assert_eq!(e, BlockError::Cancelled),
    }
}

#[tokio::test]
async fn bad_inputs_are_input_errors() {
    let h = Harness::new();
    h.write("a.csv", "a\n1\n");
    let message = h.input_error("file.read_csv", json!({})).await;
    assert!(message.contains("`path`"), "{message}");
    let message = h.input_error("file.read_csv", json!({"path": 5})).await;
    assert!(message.contains("`path`"), "{message}");
    let message = h.input_error("file.read_csv", json!({"path": "a.csv", "has_header": "maybe"})).await;
    assert!(message.contains("`has_header`"), "{message}");
    let message = h.input_error("file.extract_texts", json!({"paths": "a.csv"})).await;
    assert!(message.contains("`paths`"), "{message}");
    let message = h.input_error("file.extract_texts", json!({"paths": [1]})).await;
    assert!(message.contains("paths[0]"), "{message}");
}

#[tokio::test]
async fn extracts_text_files_and_skips_other_formats() {
    let h = Harness::new();
    h.write("docs/memo.txt", "請求番号: INV-2024-0407\r\nご請求金額: 132,000円\r\n");
    h.write("docs/notes.md", "# Notes\n\n- paid\n");
    h.write("docs/sjis.csv", sjis("取引先,金額\n山田商事,1000\n"));
    h.write("docs/statement.pdf", b"%PDF-1.4 not really");
    h.write("docs/report.docx", b"PK");
    let out = h
        .ok(
            "file.extract_texts",
            json!({"paths": [
                "docs/memo.txt", "docs/notes.md", "docs/sjis.csv", "docs/statement.pdf", "docs/report.docx",
                "docs/missing.txt"
            ]}),
        )
        .await;
    let texts = out["texts"].as_array().unwrap();
    assert_eq!(texts.len(), 6);
    assert_eq!(
        texts[0],
        json!({"name": "memo.txt", "text": "請求番号: INV-2024-0407\nご請求金額: 132,000円\n", "chars": 36,
               "truncated": false})
    );
    assert_eq!(texts[1]["text"], "# Notes\n\n- paid\n");
    assert_eq!(texts[2]["text"], "取引先,金額\n山田商事,1000\n", "Shift_JIS detected");
    for (i, name) in [(3, "statement.pdf"), (4, "report.docx"), (5, "missing.txt")] {
        assert_eq!(texts[i], json!({"name": name, "text": "", "chars": 0, "truncated": false}));
    }
    let skipped: Vec<&str> =
        out["summary"]["skipped"].as_array().unwrap().iter().map(|v| v.as_str().unwrap()).collect();
    assert_eq!(skipped.len(), 3);
    assert!(skipped[0].starts_with("statement.pdf: not a valid PDF ("), "{}", skipped[0]);
    assert!(
        skipped[1].starts_with("report.docx: not a valid Word file (zip is truncated or damaged"),
        "{}",
        skipped[1]
    );
    assert_eq!(skipped[2], "missing.txt: no such file, skipped; check the path and the work directory");
    let total: u64 = texts.iter().map(|t| t["chars"].as_u64().unwrap()).sum();
    assert_eq!(out["summary"]["files"], 3);
    assert_eq!(out["summary"]["total_chars"], total);
    assert_eq!(out["summary"]["truncated_files"], 0);
    assert_eq!(h.events.warnings().len(), 3);
}

#[tokio::test]
async fn long_texts_share_the_character_budget() {
    let h = Harness::new();
    h.write("long.txt", "あ".repeat(150_000));
    h.write("short.txt", "short");
    h.write("long2.md", "x".repeat(80_000));
    let out = h.ok("file.extract_texts", json!({"paths": ["long.txt", "short.txt", "long2.md"]})).await;
    let texts = out["texts"].as_array().unwrap();
    assert_eq!(texts[1]["chars"], 5);
    assert_eq!(texts[1]["truncated"], false);
    // The two long files share what the short one leaves, equally (give or take one).
    let left = (MAX_TEXT_CHARS - 5) as u64;
    let chars: Vec<u64> = [0, 2].iter().map(|&i| texts[i]["chars"].as_u64().unwrap()).collect();
    assert_eq!(chars[0] + chars[1], left);
    assert!(chars[0].abs_diff(chars[1]) <= 1, "{chars:?}");
    for i in [0, 2] {
        assert_eq!(texts[i]["truncated"], true);
        assert_eq!(texts[i]["text"].as_str().unwrap().chars().count() as u64, texts[i]["chars"].as_u64().unwrap());
    }
    assert_eq!(out["summary"]["truncated_files"], 2);
    assert!(out["summary"]["total_chars"].as_u64().unwrap() <= MAX_TEXT_CHARS as u64);
}

#[tokio::test]
async fn extracts_workbooks_with_the_sheet_and_page_inputs() {
    let h = Harness::new();
    let mut book = rust_xlsxwriter::Workbook::new();
    book.add_worksheet().set_name("請求一覧").unwrap().write_string(0, 0, "山田商事").unwrap();
    book.add_worksheet().set_name("メモ").unwrap().write_string(0, 0, "別シート").unwrap();
    h.write("in/book.xlsx", book.save_to_buffer().unwrap());
    let out = h.ok("file.extract_texts", json!({"paths": ["in/book.xlsx"]})).await;
    assert_eq!(out["texts"][0]["text"], "[sheet: 請求一覧]\n山田商事");
    assert!(h.events.warnings().iter().any(|w| w.contains("book.xlsx: only the first sheet read")));
    let out = h.ok("file.extract_texts", json!({"paths": ["in/book.xlsx"], "all_sheets": true, "max_pages": 5})).await;
    assert_eq!(out["texts"][0]["text"], "[sheet: 請求一覧]\n山田商事\n\n[sheet: メモ]\n別シート");
    let message = h.input_error("file.extract_texts", json!({"paths": ["in/book.xlsx"], "max_pages": 0})).await;
    assert!(message.contains("`max_pages` is 0"), "{message}");
}
