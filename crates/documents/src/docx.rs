//! Word (.docx) text through docx-rs: the page header, then the body in order — paragraphs
//! one a line, tables one row a line with cells joined by ` | `.

use docx_rs::{
    DocumentChild, Header, HeaderChild, Paragraph, ParagraphChild, ReadDocxOptions, RunChild, StructuredDataTag,
    StructuredDataTagChild, Table, TableCellContent, TableChild, TableRowChild,
};

use crate::outcome::{Extracted, Unreadable};

/// Nesting followed (tables in cells, content controls in content controls); deeper parts are
/// left out, so that a hostile file cannot exhaust the stack.
const MAX_DEPTH: usize = 32;

pub(crate) fn extract(bytes: &[u8]) -> Result<Extracted, Unreadable> {
    let docx =
        docx_rs::read_docx_with_options(bytes, ReadDocxOptions::default().with_image_previews(false)).map_err(|e| {
            Unreadable::new(format!("not a valid Word file ({e})")).hint("open it in Word and save it again as .docx")
        })?;
    let mut lines = Vec::new();
    let section = &docx.document.section_property;
    let mut headers: Vec<&Header> = Vec::new();
    for (_, header) in [&section.first_header, &section.header, &section.even_header].into_iter().flatten() {
        if !headers.contains(&header) {
            headers.push(header);
        }
    }
    for header in headers {
        for child in &header.children {
            match child {
                HeaderChild::Paragraph(p) => lines.push(paragraph_text(p)),
                HeaderChild::Table(t) => table_lines(t, 0, &mut lines),
                HeaderChild::StructuredDataTag(t) => tag_lines(t, 0, &mut lines),
            }
        }
    }
    for child in &docx.document.children {
        match child {
            DocumentChild::Paragraph(p) => lines.push(paragraph_text(p)),
            DocumentChild::Table(t) => table_lines(t, 0, &mut lines),
            DocumentChild::StructuredDataTag(t) => tag_lines(t, 0, &mut lines),
            _ => {}
        }
    }
    let text = lines.iter().map(|l| l.trim_end()).collect::<Vec<_>>().join("\n").trim().to_string();
    let mut out = Extracted { text, ..Extracted::default() };
    if out.text.is_empty() {
        out.notes.push("no text found in the document".into());
    }
    Ok(out)
}

fn paragraph_text(p: &Paragraph) -> String {
    let mut text = String::new();
    children_text(&p.children, 0, &mut text);
    text
}

fn children_text(children: &[ParagraphChild], depth: usize, text: &mut String) {
    if depth > MAX_DEPTH {
        return;
    }
    for child in children {
        match child {
            ParagraphChild::Run(run) => run_text(&run.children, text),
            ParagraphChild::Insert(insert) => {
                for c in &insert.children {
                    if let docx_rs::InsertChild::Run(run) = c {
                        run_text(&run.children, text);
                    }
                }
            }
            ParagraphChild::MoveTo(moved) => {
                for c in &moved.children {
                    if let docx_rs::MoveToChild::Run(run) = c {
                        run_text(&run.children, text);
                    }
                }
            }
            ParagraphChild::Hyperlink(link) => children_text(&link.children, depth + 1, text),
            ParagraphChild::StructuredDataTag(tag) => {
                for c in &tag.children {
                    if let StructuredDataTagChild::Run(run) = c {
                        run_text(&run.children, text);
                    }
                }
            }
            // Deleted and moved-away text is not the document's text.
            _ => {}
        }
    }
}

fn run_text(children: &[RunChild], text: &mut String) {
    for child in children {
        match child {
            RunChild::Text(t) => text.push_str(&t.text),
            RunChild::Tab(_) | RunChild::PTab(_) => text.push('\t'),
            RunChild::Break(_) | RunChild::CarriageReturn(_) => text.push('\n'),
            _ => {}
        }
    }
}

fn table_lines(table: &Table, depth: usize, lines: &mut Vec<String>) {
    if depth > MAX_DEPTH {
        return;
    }
    for TableChild::TableRow(row) in &table.rows {
        let mut cells = Vec::with_capacity(row.cells.len());
        for TableRowChild::TableCell(cell) in &row.cells {
            let mut parts = Vec::new();
            for content in &cell.children {
                match content {
                    TableCellContent::Paragraph(p) => parts.push(paragraph_text(p)),
                    // A table inside a cell becomes lines after this row's line.
                    TableCellContent::Table(inner) => {
                        let mut inner_lines = Vec::new();
                        table_lines(inner, depth + 1, &mut inner_lines);
                        parts.extend(inner_lines);
                    }
                    TableCellContent::StructuredDataTag(tag) => tag_lines(tag, depth + 1, &mut parts),
                    TableCellContent::TableOfContents(_) => {}
                }
            }
            let joined: Vec<&str> = parts.iter().map(|p| p.trim()).filter(|p| !p.is_empty()).collect();
            cells.push(joined.join(" ").replace('\n', " "));
        }
        if cells.iter().any(|c| !c.is_empty()) {
            lines.push(cells.join(" | "));
        }
    }
}

fn tag_lines(tag: &StructuredDataTag, depth: usize, lines: &mut Vec<String>) {
    if depth > MAX_DEPTH {
        return;
    }
    for child in &tag.children {
        match child {
            StructuredDataTagChild::Paragraph(p) => lines.push(paragraph_text(p)),
            StructuredDataTagChild::Table(t) => table_lines(t, depth + 1, lines),
            StructuredDataTagChild::StructuredDataTag(inner) => tag_lines(inner, depth + 1, lines),
            StructuredDataTagChild::Run(run) => {
                let mut text = String::new();
                run_text(&run.children, &mut text);
                lines.push(text);
            }
            _ => {}
        }
    }
}
