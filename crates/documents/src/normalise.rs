//! Extracted text made ready for a prompt: whitespace collapsed, repeated lines and paragraphs
//! (page headers and footers, copied blocks) removed, and each document given a fair share of a
//! character budget under its name. Pure functions: the same documents give the same prompt
//! text, which keeps prompts (and their token counts) stable.

use std::collections::HashSet;

use crate::budget::share_budget;

/// What a prompt says when it was given no documents, so the model knows there are none.
pub const NO_DOCUMENTS: &str = "no documents provided";
/// The characters the documents get in a prompt, together.
pub const DEFAULT_PROMPT_CHARS: usize = 4_000;
/// Lines this long or longer are dropped when they come again anywhere in the document
/// (repeated page headers, footers, disclaimers); shorter ones only when they repeat the line
/// before them, since short cells like "1" or "-" repeat legitimately.
const REPEATED_LINE_MIN_CHARS: usize = 8;
/// What ends a document's text that was cut to its share.
const CUT_MARK: char = '…';

/// Collapses whitespace (each line trimmed, runs of spaces and tabs one space, blank lines one
/// paragraph break), drops control characters, repeated lines and repeated paragraphs.
/// Idempotent.
pub fn normalise_text(text: &str) -> String {
    let cleaned: String = text
        .chars()
        .filter_map(|c| match c {
            '\n' => Some('\n'),
            c if c.is_whitespace() => Some(' '),
            c if c.is_control() => None,
            c => Some(c),
        })
        .collect();
    let mut paragraphs: Vec<Vec<String>> = vec![Vec::new()];
    for line in cleaned.split('\n') {
        let line = line.split(' ').filter(|w| !w.is_empty()).collect::<Vec<_>>().join(" ");
        if line.is_empty() {
            if paragraphs.last().is_some_and(|p| !p.is_empty()) {
                paragraphs.push(Vec::new());
            }
        } else if let Some(paragraph) = paragraphs.last_mut() {
            paragraph.push(line);
        }
    }
    let mut seen_lines: HashSet<String> = HashSet::new();
    let mut seen_paragraphs: HashSet<String> = HashSet::new();
    let mut kept: Vec<String> = Vec::new();
    for paragraph in paragraphs {
        let mut lines: Vec<String> = Vec::new();
        for line in paragraph {
            let long = line.chars().count() >= REPEATED_LINE_MIN_CHARS;
            // Compared with the last line kept, not the last line read, so that a second pass
            // finds nothing more to drop.
            if (long && seen_lines.contains(&line)) || lines.last() == Some(&line) {
                continue;
            }
            if long {
                seen_lines.insert(line.clone());
            }
            lines.push(line);
        }
        let joined = lines.join("\n");
        if !joined.is_empty() && seen_paragraphs.insert(joined.clone()) {
            kept.push(joined);
        }
    }
    kept.join("\n\n")
}

/// The documents as prompt text within `budget` characters: each under a `[document: NAME]`
/// line, normalised, and cut (ending with `…`) to a fair share of what the names leave; what a
/// short document does not use goes to the others. No documents give [`NO_DOCUMENTS`]. Names
/// are kept before any text; when the budget cannot hold every name, the names that fit are
/// given, in order. The result never exceeds `budget` characters.
pub fn documents_for_prompt<N: AsRef<str>, T: AsRef<str>>(documents: &[(N, T)], budget: usize) -> String {
    if documents.is_empty() {
        return NO_DOCUMENTS.chars().take(budget).collect();
    }
    let headers: Vec<String> = documents.iter().map(|(name, _)| header(name.as_ref())).collect();
    let header_chars: Vec<usize> = headers.iter().map(|h| h.chars().count()).collect();
    // Blocks are joined by a blank line ("\n\n").
    let fixed = header_chars.iter().sum::<usize>() + 2 * (documents.len() - 1);
    if fixed > budget {
        return names_that_fit(&headers, &header_chars, budget);
    }
    let bodies: Vec<String> = documents.iter().map(|(_, text)| normalise_text(text.as_ref())).collect();
    // A body costs its characters and the line break after its header.
    let costs: Vec<usize> = bodies.iter().map(|b| if b.is_empty() { 0 } else { b.chars().count() + 1 }).collect();
    let shares = share_budget(&costs, budget - fixed);
    let blocks: Vec<String> = headers
        .into_iter()
        .zip(bodies)
        .zip(costs.into_iter().zip(shares))
        .map(|((header, body), (cost, share))| {
            if cost == 0 || share < 2 {
                header
            } else if share >= cost {
                format!("{header}\n{body}")
            } else {
                format!("{header}\n{}", cut(&body, share - 1))
            }
        })
        .collect();
    blocks.join("\n\n")
}

/// `[document: NAME]`, the name on one line.
fn header(name: &str) -> String {
    let name = name.split_whitespace().collect::<Vec<_>>().join(" ");
    let name = name.chars().filter(|c| !c.is_control()).collect::<String>();
    if name.is_empty() {
        "[document: (no name)]".to_string()
    } else {
        format!("[document: {name}]")
    }
}

/// Text cut to `max` characters (at least 1), ending with [`CUT_MARK`].
fn cut(text: &str, max: usize) -> String {
    let kept: String = text.chars().take(max.saturating_sub(1)).collect();
    format!("{}{CUT_MARK}", kept.trim_end())
}

fn names_that_fit(headers: &[String], chars: &[usize], budget: usize) -> String {
    let mut out = String::new();
    let mut used = 0usize;
    for (header, &n) in headers.iter().zip(chars) {
        let cost = if out.is_empty() { n } else { n + 2 };
        if used + cost > budget {
            break;
        }
        if !out.is_empty() {
            out.push_str("\n\n");
        }
        out.push_str(header);
        used += cost;
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn collapses_and_removes_repeats() {
        let text = "請求書   No. 123\r\n\r\n\r\n株式会社サンプル 御中\n\tPage header line\nbody one\nPage header line\n1\n1\n-\n1\n\nbody one\n";
        assert_eq!(
            normalise_text(text),
            "請求書 No. 123\n\n株式会社サンプル 御中\nPage header line\nbody one\n1\n-\n1"
        );
    }

    #[test]
    fn no_documents_says_so() {
        assert_eq!(documents_for_prompt::<&str, &str>(&[], 4000), "no documents provided");
    }

    #[test]
    fn each_document_gets_a_fair_share() {
        let long = "x".repeat(10_000);
        let docs = [("a.pdf", long.as_str()), ("b.txt", "short note"), ("c.docx", long.as_str())];
        let prompt = documents_for_prompt(&docs, 4000);
        assert!(prompt.chars().count() <= 4000);
        assert!(prompt.starts_with("[document: a.pdf]\nxxx"));
        assert!(prompt.contains("[document: b.txt]\nshort note\n\n[document: c.docx]\nxxx"));
        let cut_a = prompt.split("\n\n").next().unwrap();
        assert!(cut_a.ends_with('…'));
        // The short one's unused share went to the long ones: they got about half each.
        assert!(cut_a.chars().count() > 1900, "{}", cut_a.chars().count());
    }
}
