//! The test corpus, made with the project's own tooling: PDFs with lopdf, Word files with
//! docx-rs, workbooks with rust_xlsxwriter, broken packages with the zip crate.
#![allow(dead_code)] // Each test binary uses part of the corpus.

use std::io::{Cursor, Write};
use std::path::{Path, PathBuf};

use lopdf::content::{Content, Operation};
use lopdf::{dictionary, Document, Object, Stream, StringFormat};

/// A PDF with one page per entry, each page's lines in Helvetica; a line with non-ASCII text is
/// written in a CID font whose ToUnicode map gives the characters back.
pub fn pdf(pages: &[Vec<String>]) -> Vec<u8> {
    let mut doc = Document::with_version("1.5");
    let pages_id = doc.new_object_id();
    let latin = doc.add_object(dictionary! {
        "Type" => "Font", "Subtype" => "Type1", "BaseFont" => "Helvetica",
    });
    let cid = cid_font(&mut doc, pages);
    let resources = doc.add_object(dictionary! {
        "Font" => dictionary! { "F1" => latin, "F2" => cid },
    });
    let mut kids = Vec::new();
    for lines in pages {
        let mut ops = vec![Operation::new("BT", vec![]), Operation::new("Td", vec![72.into(), 760.into()])];
        for line in lines {
            if line.is_ascii() {
                ops.push(Operation::new("Tf", vec!["F1".into(), 12.into()]));
                ops.push(Operation::new("Tj", vec![Object::string_literal(line.as_str())]));
            } else {
                let bytes: Vec<u8> = line.encode_utf16().flat_map(u16::to_be_bytes).collect();
                ops.push(Operation::new("Tf", vec!["F2".into(), 12.into()]));
                ops.push(Operation::new("Tj", vec![Object::String(bytes, StringFormat::Hexadecimal)]));
            }
            ops.push(Operation::new("Td", vec![0.into(), (-16).into()]));
        }
        ops.push(Operation::new("ET", vec![]));
        let content = Content { operations: ops }.encode().unwrap();
        let content_id = doc.add_object(Stream::new(dictionary! {}, content));
        kids.push(
            doc.add_object(dictionary! {
                "Type" => "Page", "Parent" => pages_id, "Contents" => content_id,
                "Resources" => resources, "MediaBox" => vec![0.into(), 0.into(), 595.into(), 842.into()],
            })
            .into(),
        );
    }
    let count = kids.len() as i64;
    doc.objects
        .insert(pages_id, Object::Dictionary(dictionary! { "Type" => "Pages", "Kids" => kids, "Count" => count }));
    let catalog = doc.add_object(dictionary! { "Type" => "Catalog", "Pages" => pages_id });
    doc.trailer.set("Root", catalog);
    doc.compress();
    let mut out = Vec::new();
    doc.save_to(&mut out).unwrap();
    out
}

/// A Type0 font (Identity-H) mapping each UTF-16 code unit used in the pages to itself.
fn cid_font(doc: &mut Document, pages: &[Vec<String>]) -> lopdf::ObjectId {
    let mut units: Vec<u16> = pages.iter().flatten().flat_map(|l| l.encode_utf16()).collect();
    units.sort_unstable();
    units.dedup();
    let mut cmap = String::from(
        "/CIDInit /ProcSet findresource begin\n12 dict begin\nbegincmap\n/CIDSystemInfo << /Registry (Adobe) \
         /Ordering (UCS) /Supplement 0 >> def\n/CMapName /Adobe-Identity-UCS def\n/CMapType 2 def\n1 \
         begincodespacerange\n<0000> <FFFF>\nendcodespacerange\n",
    );
    for chunk in units.chunks(100) {
        cmap.push_str(&format!("{} beginbfchar\n", chunk.len()));
        for u in chunk {
            cmap.push_str(&format!("<{u:04X}> <{u:04X}>\n"));
        }
        cmap.push_str("endbfchar\n");
    }
    cmap.push_str("endcmap\nCMapName currentdict /CMap defineresource pop\nend\nend\n");
    let to_unicode = doc.add_object(Stream::new(dictionary! {}, cmap.into_bytes()));
    let descriptor = doc.add_object(dictionary! {
        "Type" => "FontDescriptor", "FontName" => "MSGothic", "Flags" => 4, "ItalicAngle" => 0,
        "FontBBox" => vec![0.into(), (-141).into(), 1000.into(), 859.into()],
        "Ascent" => 859, "Descent" => -141, "CapHeight" => 769, "StemV" => 80,
    });
    let descendant = doc.add_object(dictionary! {
        "Type" => "Font", "Subtype" => "CIDFontType2", "BaseFont" => "MSGothic",
        "CIDSystemInfo" => dictionary! {
            "Registry" => Object::string_literal("Adobe"), "Ordering" => Object::string_literal("Identity"),
            "Supplement" => 0,
        },
        "DW" => 1000, "CIDToGIDMap" => "Identity", "FontDescriptor" => descriptor,
    });
    doc.add_object(dictionary! {
        "Type" => "Font", "Subtype" => "Type0", "BaseFont" => "MSGothic", "Encoding" => "Identity-H",
        "DescendantFonts" => vec![descendant.into()], "ToUnicode" => to_unicode,
    })
}

/// `pdf` of `n` pages, each "This is page N." and a second line.
pub fn numbered_pdf(n: usize) -> Vec<u8> {
    let pages: Vec<Vec<String>> =
        (1..=n).map(|i| vec![format!("This is page {i}."), format!("Invoice line {i} of the statement.")]).collect();
    pdf(&pages)
}

/// The same PDF with an /Encrypt entry in its trailer (a standard security handler whose
/// password is not empty), as a protected statement has.
pub fn encrypted_pdf() -> Vec<u8> {
    let mut doc = Document::load_mem(&numbered_pdf(2)).unwrap();
    let encrypt = doc.add_object(dictionary! {
        "Filter" => "Standard", "V" => 2, "R" => 3, "Length" => 128, "P" => -3904,
        "O" => Object::String(vec![0x4F; 32], StringFormat::Hexadecimal),
        "U" => Object::String(vec![0x55; 32], StringFormat::Hexadecimal),
    });
    doc.trailer.set("Encrypt", encrypt);
    doc.trailer.set(
        "ID",
        vec![
            Object::String(vec![1; 16], StringFormat::Hexadecimal),
            Object::String(vec![1; 16], StringFormat::Hexadecimal),
        ],
    );
    let mut out = Vec::new();
    doc.save_to(&mut out).unwrap();
    out
}

/// A Word document: a page header, paragraphs, a table, then paragraphs again.
pub fn docx(header: &str, before: &[&str], table: &[&[&str]], after: &[&str]) -> Vec<u8> {
    use docx_rs::{Docx, Header, Paragraph, Run, Table, TableCell, TableRow};
    let para = |t: &str| Paragraph::new().add_run(Run::new().add_text(t));
    let mut doc = Docx::new().header(Header::new().add_paragraph(para(header)));
    for p in before {
        doc = doc.add_paragraph(para(p));
    }
    if !table.is_empty() {
        let rows = table
            .iter()
            .map(|row| TableRow::new(row.iter().map(|c| TableCell::new().add_paragraph(para(c))).collect()))
            .collect();
        doc = doc.add_table(Table::new(rows));
    }
    for p in after {
        doc = doc.add_paragraph(para(p));
    }
    let mut out = Cursor::new(Vec::new());
    doc.build().pack(&mut out).unwrap();
    out.into_inner()
}

/// A Word document of `pages` pages, each a heading and paragraphs, with page breaks.
pub fn long_docx(pages: usize) -> Vec<u8> {
    use docx_rs::{BreakType, Docx, Paragraph, Run};
    let mut doc = Docx::new();
    for page in 1..=pages {
        doc = doc.add_paragraph(Paragraph::new().add_run(Run::new().add_text(format!("Section {page}"))));
        for line in 1..=30 {
            doc = doc.add_paragraph(Paragraph::new().add_run(Run::new().add_text(format!(
                "Page {page}, paragraph {line}: the supplier confirms delivery of the ordered goods."
            ))));
        }
        doc = doc.add_paragraph(Paragraph::new().add_run(Run::new().add_break(BreakType::Page)));
    }
    let mut out = Cursor::new(Vec::new());
    doc.build().pack(&mut out).unwrap();
    out.into_inner()
}

/// A workbook: sheets by name, each rows of cells (numbers where they parse).
pub fn xlsx(sheets: &[(&str, Vec<Vec<String>>)]) -> Vec<u8> {
    let mut book = rust_xlsxwriter::Workbook::new();
    for (name, rows) in sheets {
        let sheet = book.add_worksheet();
        sheet.set_name(*name).unwrap();
        for (r, row) in rows.iter().enumerate() {
            for (c, cell) in row.iter().enumerate() {
                match cell.parse::<f64>() {
                    Ok(n) => sheet.write_number(r as u32, c as u16, n).unwrap(),
                    Err(_) => sheet.write_string(r as u32, c as u16, cell).unwrap(),
                };
            }
        }
    }
    book.save_to_buffer().unwrap()
}

/// A sheet of `rows` rows × `cols` columns, "R{r}C{c}" in each cell, a header row first.
pub fn grid(rows: usize, cols: usize) -> Vec<Vec<String>> {
    (0..rows).map(|r| (0..cols).map(|c| format!("R{r}C{c}")).collect()).collect()
}

/// A zip package holding the parts of `base` (a real .docx or .xlsx) plus a part that inflates
/// to `zeros` bytes of zeros: a zip bomb. With `lie`, the part's headers declare 1,000 bytes
/// instead, as hostile files do.
///
/// Deflating gigabytes takes minutes in a debug build, so the part is made the way bombs are:
/// one mebibyte of zeros deflated once, ending on a sync flush (byte-aligned, not final), then
/// repeated — each copy inflates to another mebibyte — and closed by an empty final block. The
/// zip crate stores that stream; the method field is then set to deflate and the size to what
/// it inflates to. The CRC is left as the stored bytes' (readers stop at the size bound long
/// before the CRC is checked at the end, which is what these tests are about).
pub fn zip_bomb(base: &[u8], zeros: u64, lie: bool) -> Vec<u8> {
    use flate2::{Compress, Compression, FlushCompress};
    use zip::write::SimpleFileOptions;
    const MIB: usize = 1 << 20;
    let mut chunk = Vec::with_capacity(64 * 1024);
    let mut deflate = Compress::new(Compression::best(), false);
    deflate.compress_vec(&vec![0u8; MIB], &mut chunk, FlushCompress::Sync).unwrap();
    assert_eq!(deflate.total_in(), MIB as u64, "the chunk holds the whole mebibyte");
    let copies = zeros.div_ceil(MIB as u64) as usize;
    let mut stream = Vec::with_capacity(chunk.len() * copies + 8);
    for _ in 0..copies {
        stream.extend_from_slice(&chunk);
    }
    stream.extend_from_slice(&[0x03, 0x00]); // an empty final block (fixed Huffman, end of block)

    let mut source = zip::ZipArchive::new(Cursor::new(base)).unwrap();
    let mut writer = zip::ZipWriter::new(Cursor::new(Vec::new()));
    for i in 0..source.len() {
        writer.raw_copy_file(source.by_index_raw(i).unwrap()).unwrap();
    }
    let stored = SimpleFileOptions::default().compression_method(zip::CompressionMethod::Stored);
    writer.start_file(BOMB_PART, stored).unwrap();
    writer.write_all(&stream).unwrap();
    let mut bytes = writer.finish().unwrap().into_inner();
    let declared = if lie { 1000 } else { (copies * MIB) as u32 };
    patch_part(&mut bytes, declared);
    bytes
}

const BOMB_PART: &str = "word/media/zeros.bin";

/// Sets the bomb part's method to deflate and its uncompressed size, in its local header and in
/// the central directory.
fn patch_part(bytes: &mut [u8], size: u32) {
    let name = BOMB_PART.as_bytes();
    for i in 0..bytes.len().saturating_sub(46) {
        let sig: [u8; 4] = bytes[i..i + 4].try_into().unwrap();
        let (method, size_at) = if &sig == b"PK\x03\x04" && bytes[i + 30..].starts_with(name) {
            (i + 8, i + 22)
        } else if &sig == b"PK\x01\x02" && bytes[i + 46..].starts_with(name) {
            (i + 10, i + 24)
        } else {
            continue;
        };
        bytes[method..method + 2].copy_from_slice(&8u16.to_le_bytes());
        bytes[size_at..size_at + 4].copy_from_slice(&size.to_le_bytes());
    }
}

/// The first `fraction` of `bytes`, as a download cut short leaves it.
pub fn truncated(bytes: &[u8], fraction: f64) -> Vec<u8> {
    bytes[..(bytes.len() as f64 * fraction) as usize].to_vec()
}

/// Bytes no format starts with, and no text decoder accepts.
pub fn garbage(n: usize) -> Vec<u8> {
    let mut state = 0x2545_F491_4F6C_DD1Du64;
    (0..n)
        .map(|_| {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            (state >> 24) as u8
        })
        .collect()
}

/// A folder of files for one test.
pub struct Folder(pub tempfile::TempDir);

impl Folder {
    pub fn new() -> Self {
        Folder(tempfile::tempdir().unwrap())
    }

    pub fn write(&self, name: &str, bytes: impl AsRef<[u8]>) -> PathBuf {
        let path = self.0.path().join(name);
        std::fs::write(&path, bytes).unwrap();
        path
    }

    pub fn path(&self) -> &Path {
        self.0.path()
    }
}
