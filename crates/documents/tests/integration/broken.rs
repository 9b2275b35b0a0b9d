//! Broken, hostile and mislabelled files: each is a per-file warning in plain words (or, for a
//! wrong extension, a note), never a panic.

use crate::common;

use std::time::Instant;

use common::*;
use planwright_documents::{extract_file, extract_files, Format, Isolation, Limits, Outcome, Source};

fn outcome(folder: &Folder, name: &str, bytes: &[u8], limits: &Limits) -> Outcome {
    let path = folder.write(name, bytes);
    extract_file(&Source { name: name.into(), path }, limits, &Isolation::Thread, &|| false).unwrap()
}

fn skipped(folder: &Folder, name: &str, bytes: &[u8]) -> String {
    skipped_with(folder, name, bytes, &Limits::default())
}

fn skipped_with(folder: &Folder, name: &str, bytes: &[u8], limits: &Limits) -> String {
    match outcome(folder, name, bytes, limits) {
        Outcome::Skipped(skip) => skip.message(),
        Outcome::Read(doc) => panic!("{name} was read: {doc:?}"),
    }
}

#[test]
fn an_encrypted_pdf_is_skipped() {
    let f = Folder::new();
    assert_eq!(
        skipped(&f, "statement.pdf", &encrypted_pdf()),
        "statement.pdf: encrypted, skipped; save a copy without a password or protection (print it to PDF) to \
         read it"
    );
}

#[test]
fn truncated_files() {
    let f = Folder::new();
    let docx = docx("header", &["Body text of the report."], &[], &[]);
    let message = skipped(&f, "report.docx", &truncated(&docx, 0.6));
    assert!(message.starts_with("report.docx: not a valid Word file (zip is truncated or damaged: "), "{message}");
    assert!(message.ends_with("), skipped; open it and save it again, or get a fresh copy"), "{message}");

    let xlsx = xlsx(&[("S", grid(50, 5))]);
    let message = skipped(&f, "book.xlsx", &truncated(&xlsx, 0.5));
    assert!(message.starts_with("book.xlsx: not a valid Excel file (zip is truncated or damaged: "), "{message}");

    // A PDF cut short loses its cross-reference table; lopdf rebuilds what it can or refuses.
    match outcome(&f, "statement.pdf", &truncated(&numbered_pdf(6), 0.5), &Limits::default()) {
        Outcome::Skipped(skip) => {
            let message = skip.message();
            assert!(
                message.starts_with("statement.pdf: not a valid PDF (") || message.contains("could not be read"),
                "{message}"
            );
        }
        Outcome::Read(doc) => assert!(doc.text.contains("This is page 1."), "{doc:?}"),
    }
}

#[test]
fn a_zip_bomb_is_refused_before_it_is_inflated() {
    let f = Folder::new();
    let base = docx("h", &["text"], &[], &[]);
    let started = Instant::now();
    let bomb = zip_bomb(&base, 3 << 30, false);
    eprintln!("a 3 GiB bomb is {} KiB, made in {:?}", bomb.len() / 1024, started.elapsed());
    let started = Instant::now();
    let message = skipped(&f, "report.docx", &bomb);
    assert!(started.elapsed().as_secs() < 2, "the declared sizes give it away: {:?}", started.elapsed());
    assert!(
        message.starts_with("report.docx: refused as a zip bomb (part word/media/zeros.bin would inflate "),
        "{message}"
    );
    assert!(message.ends_with("skipped; if the file is genuine, open it and save a smaller copy"), "{message}");

    // A header that lies about the size is caught while counting what actually inflates.
    let liar = zip_bomb(&base, 64 << 20, true);
    let limits = Limits { max_unzipped_bytes: 16 << 20, ..Limits::default() };
    assert_eq!(
        skipped_with(&f, "report.docx", &liar, &limits),
        "report.docx: refused as a zip bomb (part word/media/zeros.bin inflates past the 16 MiB limit though the \
         package declares less), skipped; if the file is genuine, open it and save a smaller copy"
    );
    let xlsx_bomb = zip_bomb(&xlsx(&[("S", grid(2, 2))]), 64 << 20, false);
    assert!(skipped_with(&f, "book.xlsx", &xlsx_bomb, &limits).contains("refused as a zip bomb"));
}

#[test]
fn a_wrong_extension_is_noted_and_the_content_read() {
    let f = Folder::new();
    let Outcome::Read(doc) = outcome(&f, "report.docx", &numbered_pdf(2), &Limits::default()) else { panic!() };
    assert_eq!(doc.format, Format::Pdf);
    assert!(doc.text.contains("This is page 2."));
    assert_eq!(doc.notes, ["named .docx but is a PDF; read as a PDF"]);

    let book = xlsx(&[("支払", vec![vec!["山田商事".into(), "132000".into()]])]);
    let Outcome::Read(doc) = outcome(&f, "payments.csv", &book, &Limits::default()) else { panic!() };
    assert_eq!((doc.format, doc.text.as_str()), (Format::Xlsx, "[sheet: 支払]\n山田商事 | 132000"));
    assert_eq!(doc.notes, ["named .csv but is an Excel workbook; read as an Excel workbook"]);

    let Outcome::Read(doc) = outcome(&f, "notes.pdf", "ただのメモ".as_bytes(), &Limits::default()) else {
        panic!()
    };
    assert_eq!(
        (doc.text.as_str(), doc.notes.as_slice()),
        ("ただのメモ", &["named .pdf but is a text file; read as a text file".to_string()][..])
    );
}

#[test]
fn empty_and_garbage_files() {
    let f = Folder::new();
    assert_eq!(skipped(&f, "empty.pdf", b""), "empty.pdf: empty file (0 bytes), skipped");
    assert_eq!(skipped(&f, "empty.txt", b""), "empty.txt: empty file (0 bytes), skipped");
    assert_eq!(
        skipped(&f, "blob.bin", &garbage(4096)),
        "blob.bin: binary data, not text nor a document format this block reads (named .bin), skipped; PDF, Word \
         .docx, Excel .xlsx/.xls and UTF-8 or Shift_JIS text are read"
    );
    assert_eq!(
        skipped(&f, "statement.pdf", &garbage(2000)),
        "statement.pdf: not a PDF (named .pdf but its content is not), skipped; open it and save it again, or get \
         a fresh copy"
    );
    assert_eq!(
        skipped(&f, "scan.png", b"\x89PNG\r\n\x1a\n\0\0\0\rIHDR"),
        "scan.png: an image, which has no text layer to read (text recognition is not available), skipped"
    );
    // "%PDF-" and nothing a PDF needs after it.
    assert!(skipped(&f, "fake.pdf", b"%PDF-1.7\n").starts_with("fake.pdf: not a valid PDF ("));
}

#[test]
fn office_97_containers() {
    let f = Folder::new();
    let ole2 = |names: &[&str]| {
        let mut bytes = vec![0xD0, 0xCF, 0x11, 0xE0, 0xA1, 0xB1, 0x1A, 0xE1];
        bytes.resize(512, 0);
        for name in names {
            bytes.extend(name.encode_utf16().flat_map(u16::to_le_bytes));
            bytes.resize(bytes.len() + 64, 0);
        }
        bytes
    };
    assert_eq!(
        skipped(&f, "locked.xlsx", &ole2(&["EncryptionInfo", "EncryptedPackage"])),
        "locked.xlsx: encrypted (password-protected Office file), skipped; save a copy without a password to read it"
    );
    assert_eq!(
        skipped(&f, "old.doc", &ole2(&["WordDocument"])),
        "old.doc: an old Word 97-2003 .doc file, which is not read, skipped; save it as .docx"
    );
    let message = skipped(&f, "old.xls", &ole2(&["Workbook"]));
    assert!(message.starts_with("old.xls: not a valid Excel file ("), "{message}");
    assert!(message.ends_with("skipped; open it in Excel and save it again as .xlsx"), "{message}");
}

#[test]
fn zips_that_are_not_word_or_excel() {
    use std::io::Write;
    let f = Folder::new();
    let zip_of = |names: &[&str]| {
        let mut w = zip::ZipWriter::new(std::io::Cursor::new(Vec::new()));
        for name in names {
            w.start_file(*name, zip::write::SimpleFileOptions::default()).unwrap();
            w.write_all(b"<x/>").unwrap();
        }
        w.finish().unwrap().into_inner()
    };
    assert_eq!(
        skipped(&f, "deck.pptx", &zip_of(&["[Content_Types].xml", "ppt/presentation.xml"])),
        "deck.pptx: a PowerPoint file, which is not read, skipped; save it as PDF to read its text"
    );
    assert_eq!(
        skipped(&f, "photos.zip", &zip_of(&["a.jpg"])),
        "photos.zip: a zip archive without a Word document or Excel workbook in it, skipped; unpack it and list the \
         documents inside"
    );
    // The parts are there, the content is not Word's.
    let message = skipped(&f, "hollow.docx", &zip_of(&["word/document.xml"]));
    assert!(message.starts_with("hollow.docx: not a valid Word file ("), "{message}");
}

#[test]
fn missing_folders_and_oversized_files() {
    let f = Folder::new();
    let run = |name: &str, limits: &Limits| {
        let source = Source { name: name.into(), path: f.path().join(name) };
        match extract_file(&source, limits, &Isolation::Thread, &|| false).unwrap() {
            Outcome::Skipped(skip) => skip.message(),
            Outcome::Read(doc) => panic!("{doc:?}"),
        }
    };
    assert_eq!(
        run("none.pdf", &Limits::default()),
        "none.pdf: no such file, skipped; check the path and the work directory"
    );
    std::fs::create_dir(f.path().join("folder.pdf")).unwrap();
    assert_eq!(
        run("folder.pdf", &Limits::default()),
        "folder.pdf: is a folder, not a document, skipped; list the files in it instead"
    );
    f.write("big.txt", vec![b'a'; 3 * 1024 * 1024]);
    assert_eq!(
        run("big.txt", &Limits { max_file_bytes: 2 * 1024 * 1024, ..Limits::default() }),
        "big.txt: is 3 MB, larger than the 2 MB read, skipped; split it or export the pages needed"
    );
}

#[test]
fn the_character_budget_is_shared_among_files() {
    let f = Folder::new();
    let sources: Vec<Source> =
        [("long.txt", "あ".repeat(150_000)), ("short.txt", "short".into()), ("long2.md", "x".repeat(80_000))]
            .into_iter()
            .map(|(name, text)| Source { name: name.into(), path: f.write(name, text) })
            .chain([Source { name: "gone.pdf".into(), path: f.path().join("gone.pdf") }])
            .collect();
    let outcomes = extract_files(&sources, &Limits::default(), &Isolation::Thread, &|| false, &|_| {}).unwrap();
    let docs: Vec<_> = outcomes.iter().filter_map(|o| if let Outcome::Read(d) = o { Some(d) } else { None }).collect();
    assert_eq!(docs.len(), 3);
    assert_eq!((docs[1].chars(), docs[1].truncated), (5, false));
    assert_eq!(docs[0].chars() + docs[2].chars(), 100_000 - 5);
    assert!(docs[0].chars().abs_diff(docs[2].chars()) <= 1);
    assert!(docs[0].truncated && docs[2].truncated);
    assert_eq!(docs[2].notes, ["text cut off after 49997 of 80000 characters (the budget is shared among the files)"]);
    assert!(matches!(&outcomes[3], Outcome::Skipped(s) if s.reason == "no such file"));
}

#[test]
fn cancelling_stops_between_and_during_files() {
    let f = Folder::new();
    let source = Source { name: "a.txt".into(), path: f.write("a.txt", "text") };
    let result = extract_files(&[source], &Limits::default(), &Isolation::Thread, &|| true, &|_| {});
    assert_eq!(result, Err(planwright_documents::Cancelled));
}
