//! The terminal: what a page, a model or a file said made plain before a terminal sees it
//! ([`plain`], [`say`]), and asking for human input there, one requirement at a time.

use std::borrow::Cow;
use std::io::{BufRead, Write};

use futures::future::BoxFuture;
use futures::FutureExt;
use planwright_block::FieldError;
use planwright_engine::AnswerSource;
use planwright_runs::InputRequest;
use serde_json::{Map, Value};

/// Prompts on stderr and reads answers from stdin.
pub struct TerminalAnswers;

impl AnswerSource for TerminalAnswers {
    fn answer<'a>(
        &'a self,
        node: &'a str,
        request: &'a InputRequest,
        errors: &'a [FieldError],
    ) -> BoxFuture<'a, Option<Value>> {
        let node = node.to_owned();
        let request = request.clone();
        let errors = errors.to_vec();
        // Reading stdin blocks: keep it off the async workers.
        async move { tokio::task::spawn_blocking(move || ask(&node, &request, &errors)).await.ok().flatten() }.boxed()
    }
}

pub(crate) fn ask(node: &str, request: &InputRequest, errors: &[FieldError]) -> Option<Value> {
    for error in errors {
        say(format_args!("  ✗ {}: {}", error.field, error.message));
    }
    say(format_args!("\n{node} asks: {}", request.message()));
    let mut answer = Map::new();
    for requirement in request.requirements() {
        let mut prompt =
            format!("  {} ({}", requirement.label.as_deref().unwrap_or(&requirement.id), requirement.field.name());
        if !requirement.options.is_empty() {
            prompt.push_str(&format!(": {}", requirement.options.join(" / ")));
        }
        if let Some(accept) = &requirement.accept {
            prompt.push_str(&format!(", {accept}"));
        }
        if let Some(hint) = &requirement.hint {
            prompt.push_str(&format!("; {hint}"));
        }
        prompt.push_str("): ");
        let line = read_line(&prompt)?;
        if !line.is_empty() {
            answer.insert(requirement.id.clone(), Value::String(line));
        }
    }
    match request {
        InputRequest::Confirm(_) | InputRequest::Mixed(_) => {
            let approve = match request {
                InputRequest::Confirm(confirm) => confirm.options.approve_label.as_deref().unwrap_or("approve"),
                _ => "approve",
            };
            // Anything but yes is a rejection: the safe answer is the default here.
            let line = read_line(&format!("  {approve}? [y/N]: "))?;
            answer.insert("approved".into(), Value::Bool(matches!(line.to_lowercase().as_str(), "y" | "yes" | "はい")));
            let comment = read_line("  comment (optional): ")?;
            if !comment.is_empty() {
                answer.insert("comment".into(), Value::String(comment));
            }
        }
        InputRequest::Inquire(_) if request.requirements().is_empty() => {
            answer.insert("response".into(), Value::String(read_line("  answer: ")?));
        }
        _ => {}
    }
    Some(Value::Object(answer))
}

/// One trimmed line from stdin; `None` at end of input (nobody is there to answer).
fn read_line(prompt: &str) -> Option<String> {
    let mut err = std::io::stderr();
    let _ = write!(err, "{}", plain(prompt));
    let _ = err.flush();
    let mut line = String::new();
    match std::io::stdin().lock().read_line(&mut line) {
        Ok(0) | Err(_) => None,
        Ok(_) => Some(line.trim().to_owned()),
    }
}

/// A line on standard error for people, with [`plain`] applied to all of it.
pub fn say(line: impl std::fmt::Display) {
    eprintln!("{}", plain(&line.to_string()));
}

/// `text` without what would drive a terminal rather than be read: escape sequences (CSI such
/// as `ESC [2J`, OSC such as `ESC ]0;title BEL`, DCS and the like, two-character escapes) and
/// every other C0 and C1 control character; newline and tab stay. A page, a model or a file
/// could otherwise retitle the window, clear the screen or rewrite what was printed before.
pub fn plain(text: &str) -> Cow<'_, str> {
    let control = |c: char| c.is_control() && c != '\n' && c != '\t';
    if !text.chars().any(control) {
        return Cow::Borrowed(text);
    }
    let mut out = String::with_capacity(text.len());
    let mut chars = text.chars().peekable();
    while let Some(c) = chars.next() {
        let introducer = match c {
            '\x1b' => match chars.peek().copied() {
                Some(kind @ ('[' | ']' | 'P' | 'X' | '^' | '_')) => {
                    chars.next();
                    kind
                }
                _ => {
                    // ESC, intermediates (0x20–0x2F), one final character: `ESC c`, `ESC ( B`.
                    while chars.next_if(|c| ('\x20'..='\x2f').contains(c)).is_some() {}
                    chars.next_if(|c| ('\x30'..='\x7e').contains(c));
                    continue;
                }
            },
            '\u{9b}' => '[',
            '\u{9d}' => ']',
            '\u{90}' | '\u{98}' | '\u{9e}' | '\u{9f}' => 'P',
            c if control(c) => continue,
            c => {
                out.push(c);
                continue;
            }
        };
        if introducer == '[' {
            // CSI: parameters and intermediates up to a final character.
            while chars.next().is_some_and(|c| !('\x40'..='\x7e').contains(&c)) {}
        } else {
            // OSC, DCS, SOS, PM, APC: a string up to BEL or the string terminator (ESC \\ or ST).
            while let Some(c) = chars.next() {
                if c == '\x07' || c == '\u{9c}' || (c == '\x1b' && chars.next_if_eq(&'\\').is_some()) {
                    break;
                }
            }
        }
    }
    Cow::Owned(out)
}

#[cfg(test)]
mod tests {
    use super::plain;

    #[test]
    fn escape_sequences_and_controls_are_taken_out_and_the_text_kept() {
        assert_eq!(plain("\x1b]0;pwned\x07Heading\x1b[2J\x1b[31mred\x1b[0m"), "Headingred");
        assert_eq!(plain("a\x1b]8;;http://x\x1b\\link\x1b]8;;\x1b\\b"), "alinkb", "OSC ended by ESC \\");
        assert_eq!(plain("\u{9b}2Jx\u{9d}0;t\u{9c}y\u{85}z"), "xyz", "C1 controls and their sequences");
        assert_eq!(plain("a\x1bcb\x1b(Bc\rd\x08e\x7f"), "abcde", "two-character escapes, CR, BS, DEL");
        assert_eq!(plain("line\n\tindented 日本語 ✓"), "line\n\tindented 日本語 ✓", "newline and tab stay");
        assert_eq!(plain("cut \x1b]0;never ended"), "cut ");
        assert!(matches!(plain("nothing to do"), std::borrow::Cow::Borrowed(_)));
    }
}
