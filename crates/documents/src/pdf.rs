//! PDF text through pdf-extract (on lopdf), page by page from the first, up to the page limit.
//! Encrypted PDFs are skipped even when they open without a password: only plain documents
//! are read (seed 002 §2), and "protected" statements usually mean "do not copy".

use std::panic::{catch_unwind, AssertUnwindSafe};

use lopdf::Document;
use pdf_extract::PlainTextOutput;

use crate::limits::Limits;
use crate::outcome::{Extracted, Unreadable};

pub(crate) fn extract(bytes: &[u8], limits: &Limits) -> Result<Extracted, Unreadable> {
    let doc = match Document::load_mem(bytes) {
        Ok(doc) => doc,
        // lopdf fails on encryption it cannot undo; any mention of /Encrypt means that.
        Err(_) if mentions_encrypt(bytes) => return Err(encrypted()),
        Err(e) => {
            return Err(Unreadable::new(format!("not a valid PDF ({e})"))
                .hint("the file may be damaged or cut short; open it and save or print it to PDF again"))
        }
    };
    if doc.was_encrypted() || doc.is_encrypted() {
        return Err(encrypted());
    }
    let pages = doc.get_pages();
    let total = pages.len();
    let wanted = total.min(limits.max_pages as usize);
    let mut out = Extracted { pages: u32::try_from(total).ok(), ..Extracted::default() };
    let mut unreadable = Vec::new();
    let mut chars = 0usize;
    for &number in pages.keys().take(wanted) {
        let mut text = String::new();
        // pdf-extract unwraps on some malformed pages (a missing MediaBox, bad content); a
        // panic loses that page only.
        let result = catch_unwind(AssertUnwindSafe(|| {
            pdf_extract::output_doc_page(&doc, &mut PlainTextOutput::new(&mut text), number)
        }));
        match result {
            Ok(Ok(())) => {
                let page = text.trim();
                if !page.is_empty() {
                    if !out.text.is_empty() {
                        out.text.push_str("\n\n");
                    }
                    out.text.push_str(page);
                    chars += page.chars().count();
                }
            }
            Ok(Err(_)) | Err(_) => unreadable.push(number),
        }
        if chars > limits.max_chars && number as usize != wanted {
            // Enough text for any budget; the pages after it would be cut off anyway.
            out.truncated = true;
            out.notes.push(format!("stopped after page {number} of {total}: the character limit was reached"));
            break;
        }
    }
    if wanted < total && !out.truncated {
        out.truncated = true;
        out.notes.push(format!("first {wanted} of {total} pages read (raise max_pages to read more)"));
    }
    if !unreadable.is_empty() {
        let list: Vec<String> = unreadable.iter().map(u32::to_string).collect();
        out.notes.push(format!("page {} could not be read", list.join(", ")));
    }
    if out.text.is_empty() && wanted > 0 && unreadable.len() < wanted {
        out.notes.push(
            "no text found: probably a scanned PDF without a text layer (text recognition is not available)".into(),
        );
    }
    if wanted > 0 && unreadable.len() == wanted {
        return Err(Unreadable::new("no page could be read (the PDF is damaged or uses features the reader lacks)")
            .hint("open it and print it to PDF again"));
    }
    Ok(out)
}

fn mentions_encrypt(bytes: &[u8]) -> bool {
    bytes.windows(b"/Encrypt".len()).any(|w| w == b"/Encrypt")
}

fn encrypted() -> Unreadable {
    Unreadable::new("encrypted").hint("save a copy without a password or protection (print it to PDF) to read it")
}
