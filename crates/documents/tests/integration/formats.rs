//! Each format read from generated files: the text, the bounds, and what the notes say.

use crate::common;

use common::*;
use planwright_documents::{extract_file, Document, Format, Isolation, Limits, Outcome, Source};

fn read_with(folder: &Folder, name: &str, bytes: &[u8], limits: &Limits) -> Document {
    let path = folder.write(name, bytes);
    match extract_file(&Source { name: name.into(), path }, limits, &Isolation::Thread, &|| false).unwrap() {
        Outcome::Read(doc) => doc,
        Outcome::Skipped(skip) => panic!("{name} was skipped: {}", skip.message()),
    }
}

fn read(folder: &Folder, name: &str, bytes: &[u8]) -> Document {
    read_with(folder, name, bytes, &Limits::default())
}

#[test]
fn text_files_in_utf8_shift_jis_and_euc_jp() {
    let f = Folder::new();
    let doc = read(&f, "memo.txt", "請求番号: INV-2024-0407\r\nご請求金額: 132,000円\r\n".as_bytes());
    assert_eq!(doc.text, "請求番号: INV-2024-0407\nご請求金額: 132,000円\n");
    assert_eq!((doc.format, doc.truncated, doc.notes.len()), (Format::Text, false, 0));
    let (sjis, _, _) = encoding_rs::SHIFT_JIS.encode("取引先,金額\n山田商事,1000\n");
    assert_eq!(read(&f, "sjis.csv", &sjis).text, "取引先,金額\n山田商事,1000\n");
    let (euc, _, _) = encoding_rs::EUC_JP.encode("# 議事録\n経費精算の締め日\n");
    assert_eq!(read(&f, "notes.md", &euc).text, "# 議事録\n経費精算の締め日\n");
}

#[test]
fn pdf_pages_in_order_up_to_the_page_limit() {
    let f = Folder::new();
    let doc = read(&f, "statement.pdf", &numbered_pdf(25));
    assert_eq!(doc.format, Format::Pdf);
    assert!(doc.text.contains("This is page 3.\nInvoice line 3 of the statement."), "{}", doc.text);
    assert!(doc.text.contains("This is page 20."));
    assert!(!doc.text.contains("This is page 21."), "page 21 is beyond the default limit of 20");
    assert!(doc.text.find("page 2.").unwrap() < doc.text.find("page 3.").unwrap());
    assert!(doc.truncated);
    assert_eq!(doc.notes, ["first 20 of 25 pages read (raise max_pages to read more)"]);

    let all = read_with(&f, "statement.pdf", &numbered_pdf(25), &Limits { max_pages: 100, ..Limits::default() });
    assert!(all.text.contains("This is page 25.") && !all.truncated && all.notes.is_empty());
}

#[test]
fn japanese_pdf_text_comes_back_through_its_unicode_map() {
    let f = Folder::new();
    let pages = vec![vec!["請求書".to_string(), "ご請求金額: 132,000円".to_string(), "INV-2024-0407".to_string()]];
    let doc = read(&f, "請求書_山田商事_202404.pdf", &pdf(&pages));
    assert!(doc.text.contains("請求書"), "{:?}", doc.text);
    assert!(doc.text.contains("ご請求金額: 132,000円"), "{:?}", doc.text);
    assert!(doc.text.contains("INV-2024-0407"));
}

#[test]
fn a_pdf_without_text_says_so() {
    let f = Folder::new();
    let doc = read(&f, "scan.pdf", &pdf(&[vec![]]));
    assert_eq!(doc.text, "");
    assert_eq!(
        doc.notes,
        ["no text found: probably a scanned PDF without a text layer (text recognition is not available)"]
    );
}

#[test]
fn docx_header_paragraphs_and_table_rows() {
    let f = Folder::new();
    let bytes = docx(
        "株式会社サンプル 社外秘",
        &["業務委託契約書", "第1条 (目的) 本契約は経理業務の委託について定める。"],
        &[&["品名", "数量", "金額"], &["事務用品一式", "1", "120,000円"], &["配送料", "2", "8,000円"]],
        &["以上"],
    );
    let doc = read(&f, "契約書.docx", &bytes);
    assert_eq!(doc.format, Format::Docx);
    assert_eq!(
        doc.text,
        "株式会社サンプル 社外秘\n業務委託契約書\n第1条 (目的) 本契約は経理業務の委託について定める。\n品名 | 数量 | 金額\n\
         事務用品一式 | 1 | 120,000円\n配送料 | 2 | 8,000円\n以上"
    );
    assert!(!doc.truncated && doc.notes.is_empty());
}

#[test]
fn xlsx_first_sheet_bounded_top_left() {
    let f = Folder::new();
    let mut first = vec![vec!["取引先".to_string(), "金額".to_string(), "支払期日".to_string()]];
    first.push(vec!["山田商事".into(), "132000".into(), "2024-05-31".into()]);
    first.push(vec!["東和物流".into(), "88000.5".into(), "2024-05-31".into()]);
    let bytes = xlsx(&[("請求一覧", first), ("メモ", vec![vec!["別シート".into()]])]);
    let doc = read(&f, "請求一覧.xlsx", &bytes);
    assert_eq!(doc.format, Format::Xlsx);
    assert_eq!(
        doc.text,
        "[sheet: 請求一覧]\n取引先 | 金額 | 支払期日\n山田商事 | 132000 | 2024-05-31\n東和物流 | 88000.5 | 2024-05-31"
    );
    assert!(!doc.truncated);
    assert_eq!(doc.notes, ["only the first sheet read; 1 more not read (メモ) — set all_sheets to read them"]);

    let all = read_with(&f, "請求一覧.xlsx", &bytes, &Limits { all_sheets: true, ..Limits::default() });
    assert!(all.text.ends_with("\n\n[sheet: メモ]\n別シート"), "{}", all.text);
    assert!(all.notes.is_empty());
}

#[test]
fn xlsx_rows_and_columns_beyond_the_bound_are_left_out() {
    let f = Folder::new();
    let doc = read(&f, "big.xlsx", &xlsx(&[("Data", grid(1000, 40))]));
    let lines: Vec<&str> = doc.text.lines().collect();
    assert_eq!(lines.len(), 1 + 200, "a sheet line and 200 rows");
    assert_eq!(lines[1].split(" | ").count(), 30);
    assert!(lines[200].starts_with("R199C0 | "));
    assert!(lines[1].ends_with(" | R0C29"));
    assert!(doc.truncated);
    assert_eq!(
        doc.notes,
        [
            "sheet Data: first 200 rows of 1000 read (raise max_rows to read more)",
            "sheet Data: first 30 columns of 40 read"
        ]
    );
    let small =
        read_with(&f, "big.xlsx", &xlsx(&[("Data", grid(10, 5))]), &Limits { max_rows: 3, ..Limits::default() });
    assert_eq!(small.text, "[sheet: Data]\nR0C0 | R0C1 | R0C2 | R0C3 | R0C4\nR1C0 | R1C1 | R1C2 | R1C3 | R1C4\nR2C0 | R2C1 | R2C2 | R2C3 | R2C4");
}

#[test]
fn the_used_range_starts_where_the_data_starts() {
    let f = Folder::new();
    let mut book = rust_xlsxwriter::Workbook::new();
    let sheet = book.add_worksheet();
    sheet.write_string(5, 3, "見出し").unwrap();
    sheet.write_number(6, 4, 42).unwrap();
    let doc = read(&f, "offset.xlsx", &book.save_to_buffer().unwrap());
    assert_eq!(doc.text, "[sheet: Sheet1]\n見出し\n | 42");
}

#[test]
fn an_xlsm_is_read_as_a_workbook() {
    let f = Folder::new();
    let doc = read(&f, "macro.xlsm", &xlsx(&[("S", vec![vec!["a".into()]])]));
    assert_eq!((doc.format, doc.text.as_str()), (Format::Xlsx, "[sheet: S]\na"));
    assert!(doc.notes.is_empty(), "an .xlsm is the same package as .xlsx: {:?}", doc.notes);
}

#[test]
fn one_file_never_gives_more_than_the_whole_budget() {
    let f = Folder::new();
    let doc = read_with(&f, "long.txt", "あ".repeat(500).as_bytes(), &Limits { max_chars: 100, ..Limits::default() });
    assert_eq!(doc.chars(), 100);
    assert!(doc.truncated);
    assert_eq!(doc.notes, ["text cut off after 100 of 500 characters"]);
}
