//! `planwright bench documents`: document extraction on generated files — a 100-page PDF, a
//! 10,000-row workbook, a 200-page Word document — in process and through the worker process
//! the CLI uses, with `pdftotext` (poppler-utils) on the same PDF side by side.

use std::io::Cursor;
use std::path::Path;
use std::process::Command;
use std::time::Instant;

use anyhow::{bail, Context, Result};
use lopdf::content::{Content, Operation};
use lopdf::{dictionary, Document, Object, Stream};
use planwright_documents::{extract_file, Isolation, Limits, Outcome, Source, WorkerCommand};
use serde::Serialize;

use super::{median, ms};

#[derive(Serialize)]
pub struct DocumentRow {
    pub case: String,
    pub file_kib: u64,
    pub median_ms: f64,
    pub chars: usize,
}

#[derive(Serialize)]
pub struct DocumentsBench {
    pub rows: Vec<DocumentRow>,
    /// Ours (in process, all 100 pages) over pdftotext (all 100 pages); absent without pdftotext.
    pub pdf_ratio_to_pdftotext: Option<f64>,
    pub pdftotext: Option<String>,
}

const PDF_PAGES: usize = 100;
const XLSX_ROWS: usize = 10_000;
const DOCX_PAGES: usize = 200;

pub fn run(repeat: usize) -> Result<DocumentsBench> {
    let dir = tempfile_dir()?;
    let pdf = write(&dir, "statement.pdf", &pdf(PDF_PAGES)?)?;
    let xlsx = write(&dir, "ledger.xlsx", &xlsx(XLSX_ROWS)?)?;
    let docx = write(&dir, "contract.docx", &docx(DOCX_PAGES)?)?;
    let worker = Isolation::Worker(WorkerCommand::current_exe([planwright_documents::WORKER_ARG])?);
    let all_pages = Limits { max_pages: PDF_PAGES as u32, ..Limits::default() };
    let all_rows = Limits { max_rows: XLSX_ROWS as u32, ..Limits::default() };
    let cases: Vec<(String, &Path, Limits, &Isolation)> = vec![
        (format!("PDF, {PDF_PAGES} pages, all read"), &pdf, all_pages.clone(), &Isolation::Thread),
        (format!("PDF, {PDF_PAGES} pages, all, worker process"), &pdf, all_pages, &worker),
        ("PDF, first 20 pages (default)".into(), &pdf, Limits::default(), &Isolation::Thread),
        (format!("xlsx, {XLSX_ROWS} rows, first 200 (default)"), &xlsx, Limits::default(), &Isolation::Thread),
        (format!("xlsx, {XLSX_ROWS} rows, all read"), &xlsx, all_rows, &Isolation::Thread),
        (format!("docx, {DOCX_PAGES} pages"), &docx, Limits::default(), &Isolation::Thread),
        (format!("docx, {DOCX_PAGES} pages, worker process"), &docx, Limits::default(), &worker),
    ];
    let mut rows = Vec::new();
    for (case, path, limits, isolation) in cases {
        // Every character, not the 100,000 the budget keeps: the cost of the whole file.
        let limits = Limits { max_chars: usize::MAX / 2, ..limits };
        let source = Source { name: file_name(path), path: path.to_path_buf() };
        let mut samples = Vec::new();
        let mut chars = 0;
        for _ in 0..repeat {
            let started = Instant::now();
            match extract_file(&source, &limits, isolation, &|| false)? {
                Outcome::Read(doc) => chars = doc.chars(),
                Outcome::Skipped(skip) => bail!("the benchmark's own file was skipped: {}", skip.message()),
            }
            samples.push(started.elapsed());
        }
        rows.push(DocumentRow { case, file_kib: kib(path), median_ms: ms(median(samples)), chars });
    }
    let pdftotext = pdftotext_version();
    let mut ratio = None;
    if pdftotext.is_some() {
        let mut samples = Vec::new();
        let mut chars = 0;
        for _ in 0..repeat {
            let started = Instant::now();
            let out = Command::new("pdftotext").args(["-l", &PDF_PAGES.to_string()]).arg(&pdf).arg("-").output()?;
            samples.push(started.elapsed());
            chars = String::from_utf8_lossy(&out.stdout).chars().count();
        }
        let theirs = median(samples);
        ratio = Some(rows[0].median_ms / ms(theirs));
        rows.push(DocumentRow {
            case: format!("pdftotext, {PDF_PAGES} pages (process included)"),
            file_kib: kib(&pdf),
            median_ms: ms(theirs),
            chars,
        });
    }
    let _ = std::fs::remove_dir_all(&dir);
    Ok(DocumentsBench { rows, pdf_ratio_to_pdftotext: ratio, pdftotext })
}

pub fn render(bench: &DocumentsBench, repeat: usize) -> String {
    let mut out = super::medians_header(repeat);
    out.push_str("case                                           file KiB   median ms      chars\n");
    for r in &bench.rows {
        out.push_str(&format!("{:<46} {:>9} {:>11.1} {:>10}\n", r.case, r.file_kib, r.median_ms, r.chars));
    }
    match (&bench.pdftotext, bench.pdf_ratio_to_pdftotext) {
        (Some(version), Some(ratio)) => out.push_str(&format!(
            "ours / pdftotext on the same {PDF_PAGES}-page PDF (both all pages): {ratio:.2} ({version})\n"
        )),
        _ => out.push_str(
            "pdftotext not found: install poppler-utils (apt-get install -y poppler-utils) for the side-by-side\n",
        ),
    }
    out
}

fn pdftotext_version() -> Option<String> {
    let out = Command::new("pdftotext").arg("-v").output().ok()?;
    let text = String::from_utf8_lossy(&out.stderr).into_owned() + &String::from_utf8_lossy(&out.stdout);
    text.lines().next().map(|l| l.trim().to_string())
}

fn tempfile_dir() -> Result<std::path::PathBuf> {
    let dir = std::env::temp_dir().join(format!("planwright-bench-documents-{}", std::process::id()));
    std::fs::create_dir_all(&dir).with_context(|| format!("creating {}", dir.display()))?;
    Ok(dir)
}

fn write(dir: &Path, name: &str, bytes: &[u8]) -> Result<std::path::PathBuf> {
    let path = dir.join(name);
    std::fs::write(&path, bytes).with_context(|| format!("writing {}", path.display()))?;
    Ok(path)
}

fn file_name(path: &Path) -> String {
    path.file_name().map(|n| n.to_string_lossy().into_owned()).unwrap_or_default()
}

fn kib(path: &Path) -> u64 {
    std::fs::metadata(path).map_or(0, |m| m.len().div_ceil(1024))
}

/// A PDF of `pages` pages of 40 lines each, in Helvetica, compressed as generators write them.
fn pdf(pages: usize) -> Result<Vec<u8>> {
    let mut doc = Document::with_version("1.5");
    let pages_id = doc.new_object_id();
    let font = doc.add_object(dictionary! { "Type" => "Font", "Subtype" => "Type1", "BaseFont" => "Helvetica" });
    let resources = doc.add_object(dictionary! { "Font" => dictionary! { "F1" => font } });
    let mut kids = Vec::new();
    for page in 1..=pages {
        let mut ops = vec![
            Operation::new("BT", vec![]),
            Operation::new("Tf", vec!["F1".into(), 10.into()]),
            Operation::new("Td", vec![50.into(), 800.into()]),
        ];
        for line in 1..=40 {
            let text = format!(
                "Page {page} line {line}: invoice INV-{page:03}-{line:02}, amount {} JPY, due 2024-05-31",
                page * 1000 + line
            );
            ops.push(Operation::new("Tj", vec![Object::string_literal(text)]));
            ops.push(Operation::new("Td", vec![0.into(), (-18).into()]));
        }
        ops.push(Operation::new("ET", vec![]));
        let content = doc.add_object(Stream::new(dictionary! {}, Content { operations: ops }.encode()?));
        kids.push(Object::from(doc.add_object(dictionary! {
            "Type" => "Page", "Parent" => pages_id, "Contents" => content, "Resources" => resources,
            "MediaBox" => vec![0.into(), 0.into(), 595.into(), 842.into()],
        })));
    }
    let count = kids.len() as i64;
    doc.objects
        .insert(pages_id, Object::Dictionary(dictionary! { "Type" => "Pages", "Kids" => kids, "Count" => count }));
    let catalog = doc.add_object(dictionary! { "Type" => "Catalog", "Pages" => pages_id });
    doc.trailer.set("Root", catalog);
    doc.compress();
    let mut out = Vec::new();
    doc.save_to(&mut out)?;
    Ok(out)
}

/// A ledger of `rows` rows × 8 columns: text, numbers and dates.
fn xlsx(rows: usize) -> Result<Vec<u8>> {
    let mut book = rust_xlsxwriter::Workbook::new();
    let date = rust_xlsxwriter::Format::new().set_num_format("yyyy-mm-dd");
    let sheet = book.add_worksheet();
    for (c, title) in ["番号", "取引先", "品名", "数量", "単価", "金額", "請求日", "備考"].iter().enumerate()
    {
        sheet.write_string(0, c as u16, *title)?;
    }
    for r in 1..=rows as u32 {
        sheet.write_string(r, 0, format!("INV-{r:05}"))?;
        sheet.write_string(r, 1, format!("取引先{}", r % 97))?;
        sheet.write_string(r, 2, "事務用品一式")?;
        sheet.write_number(r, 3, f64::from(r % 12 + 1))?;
        sheet.write_number(r, 4, 1250.0)?;
        sheet.write_number(r, 5, f64::from(r % 12 + 1) * 1250.0)?;
        sheet.write_datetime_with_format(
            r,
            6,
            rust_xlsxwriter::ExcelDateTime::from_ymd(2024, 4, (r % 28 + 1) as u8)?,
            &date,
        )?;
        sheet.write_string(r, 7, "月末締め翌月末払い")?;
    }
    Ok(book.save_to_buffer()?)
}

/// A Word document of `pages` pages: a heading, 30 paragraphs and a 4-row table per page.
fn docx(pages: usize) -> Result<Vec<u8>> {
    use docx_rs::{BreakType, Docx, Paragraph, Run, Table, TableCell, TableRow};
    let para = |t: String| Paragraph::new().add_run(Run::new().add_text(t));
    let mut doc = Docx::new();
    for page in 1..=pages {
        doc = doc.add_paragraph(para(format!("第{page}条 (業務の範囲)")));
        for line in 1..=30 {
            doc = doc.add_paragraph(para(format!(
                "Page {page}, paragraph {line}: the contractor performs the bookkeeping services described here."
            )));
        }
        let row = |cells: [String; 3]| TableRow::new(cells.map(|c| TableCell::new().add_paragraph(para(c))).to_vec());
        doc = doc.add_table(Table::new(
            (0..4).map(|i| row([format!("項目{i}"), format!("{}", page * 10 + i), "円".into()])).collect(),
        ));
        doc = doc.add_paragraph(Paragraph::new().add_run(Run::new().add_break(BreakType::Page)));
    }
    let mut out = Cursor::new(Vec::new());
    doc.build().pack(&mut out)?;
    Ok(out.into_inner())
}
