//! The prompt texts (`prompts/`), loaded at start and rendered with named placeholders.
//!
//! One file per task, `NAME.txt`: an optional `--- system ---` part and a `--- user ---` part,
//! each starting at a line holding only that marker. `{name}` (letters, digits, `_`) is a
//! placeholder; `{{` and `}}` write literal braces. Values are inserted as they are, never
//! scanned for placeholders themselves.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

use include_dir::{include_dir, Dir};

use crate::port::ChatMessage;

static BUILT_IN: Dir<'static> = include_dir!("$CARGO_MANIFEST_DIR/../../prompts");

/// The prompt of `ai.process_llm`: `{instruction}`, `{evidence}`, `{answer_format}`.
pub const PROCESS_LLM: &str = "process_llm";
/// The corrective re-ask after invalid structured output: `{errors}`, `{answer_format}`.
pub const REASK: &str = "reask";

/// A prompt that cannot be loaded or rendered; names the prompt and the placeholder.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum PromptError {
    #[error("prompt `{name}` ({source_name}): {problem}")]
    Invalid { name: String, source_name: String, problem: String },
    #[error("no prompt named `{name}` (known: {known})")]
    Unknown { name: String, known: String },
    #[error("prompt `{name}`: placeholder {{{placeholder}}} has no value; pass it when rendering")]
    Missing { name: String, placeholder: String },
    #[error("prompt `{name}` has no placeholder {{{placeholder}}}; its placeholders are {known}")]
    Unused { name: String, placeholder: String, known: String },
    #[error("cannot read prompts from {}: {message}", .path.display())]
    Read { path: PathBuf, message: String },
}

/// A parsed piece of a prompt part: literal text or a placeholder.
#[derive(Debug, Clone, PartialEq, Eq)]
enum Piece {
    Text(String),
    Slot(String),
}

#[derive(Debug, Clone, PartialEq, Eq)]
struct Template {
    system: Option<Vec<Piece>>,
    user: Vec<Piece>,
}

impl Template {
    fn placeholders(&self) -> BTreeSet<&str> {
        self.system
            .iter()
            .flatten()
            .chain(&self.user)
            .filter_map(|piece| match piece {
                Piece::Slot(name) => Some(name.as_str()),
                Piece::Text(_) => None,
            })
            .collect()
    }
}

/// A rendered prompt: the messages to send.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Rendered {
    pub system: Option<String>,
    pub user: String,
}

impl Rendered {
    /// The system message (if any) then the user message.
    pub fn messages(self) -> Vec<ChatMessage> {
        self.system.map(ChatMessage::system).into_iter().chain([ChatMessage::user(self.user)]).collect()
    }
}

/// Every prompt, parsed.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Prompts {
    templates: BTreeMap<String, Template>,
}

impl Prompts {
    /// The prompts built into the binary from the repository's `prompts/`.
    pub fn built_in() -> Result<Prompts, PromptError> {
        let files = BUILT_IN
            .files()
            .filter(|f| f.path().extension().is_some_and(|e| e == "txt"))
            .map(|f| (f.path().to_path_buf(), String::from_utf8_lossy(f.contents()).into_owned()));
        Prompts::parse_all(files)
    }

    /// The prompts of a folder on disk (every `*.txt`), e.g. to try new wording without
    /// rebuilding.
    pub fn from_dir(dir: &Path) -> Result<Prompts, PromptError> {
        let read_error = |e: std::io::Error| PromptError::Read { path: dir.to_path_buf(), message: e.to_string() };
        let mut files = Vec::new();
        for entry in std::fs::read_dir(dir).map_err(read_error)? {
            let path = entry.map_err(read_error)?.path();
            if path.extension().is_some_and(|e| e == "txt") {
                let text = std::fs::read_to_string(&path)
                    .map_err(|e| PromptError::Read { path: path.clone(), message: e.to_string() })?;
                files.push((path, text));
            }
        }
        Prompts::parse_all(files)
    }

    fn parse_all(files: impl IntoIterator<Item = (PathBuf, String)>) -> Result<Prompts, PromptError> {
        let mut templates = BTreeMap::new();
        for (path, text) in files {
            let name = path.file_stem().map(|s| s.to_string_lossy().into_owned()).unwrap_or_default();
            let template = parse(&name, &path.display().to_string(), &text)?;
            templates.insert(name, template);
        }
        Ok(Prompts { templates })
    }

    /// The prompts' names.
    pub fn names(&self) -> impl Iterator<Item = &str> {
        self.templates.keys().map(String::as_str)
    }

    /// The placeholders of prompt `name`.
    pub fn placeholders(&self, name: &str) -> Result<Vec<String>, PromptError> {
        Ok(self.template(name)?.placeholders().into_iter().map(str::to_string).collect())
    }

    /// Prompt `name` with every placeholder filled from `values`; a placeholder without a value,
    /// or a value without a placeholder, is an error naming both.
    pub fn render(&self, name: &str, values: &[(&str, &str)]) -> Result<Rendered, PromptError> {
        let template = self.template(name)?;
        let placeholders = template.placeholders();
        if let Some((unused, _)) = values.iter().find(|(key, _)| !placeholders.contains(key)) {
            return Err(PromptError::Unused {
                name: name.to_string(),
                placeholder: unused.to_string(),
                known: placeholders.iter().map(|p| format!("{{{p}}}")).collect::<Vec<_>>().join(", "),
            });
        }
        let fill = |pieces: &[Piece]| -> Result<String, PromptError> {
            let mut out = String::new();
            for piece in pieces {
                match piece {
                    Piece::Text(text) => out.push_str(text),
                    Piece::Slot(slot) => {
                        let value = values.iter().find(|(key, _)| key == slot).ok_or_else(|| PromptError::Missing {
                            name: name.to_string(),
                            placeholder: slot.clone(),
                        })?;
                        out.push_str(value.1);
                    }
                }
            }
            Ok(out.trim().to_string())
        };
        Ok(Rendered { system: template.system.as_deref().map(fill).transpose()?, user: fill(&template.user)? })
    }

    fn template(&self, name: &str) -> Result<&Template, PromptError> {
        self.templates.get(name).ok_or_else(|| PromptError::Unknown {
            name: name.to_string(),
            known: self.templates.keys().cloned().collect::<Vec<_>>().join(", "),
        })
    }
}

fn parse(name: &str, source_name: &str, text: &str) -> Result<Template, PromptError> {
    let invalid = |problem: String| PromptError::Invalid {
        name: name.to_string(),
        source_name: source_name.to_string(),
        problem,
    };
    let mut system: Option<String> = None;
    let mut user: Option<String> = None;
    for (index, line) in text.lines().enumerate() {
        match line.trim_end() {
            "--- system ---" if system.is_none() && user.is_none() => system = Some(String::new()),
            "--- user ---" if user.is_none() => user = Some(String::new()),
            marker @ ("--- system ---" | "--- user ---") => {
                return Err(invalid(format!(
                    "line {}: `{marker}` again or out of order (system comes first)",
                    index + 1
                )))
            }
            line => match user.as_mut().or(system.as_mut()) {
                Some(part) => {
                    part.push_str(line);
                    part.push('\n');
                }
                None if line.trim().is_empty() || line.starts_with('#') => {}
                None => {
                    return Err(invalid(format!(
                        "line {}: text before `--- system ---` or `--- user ---` (comments start with #)",
                        index + 1
                    )))
                }
            },
        }
    }
    let user = user.ok_or_else(|| invalid("no `--- user ---` part".into()))?;
    Ok(Template {
        system: system.map(|s| pieces(&s)).transpose().map_err(&invalid)?,
        user: pieces(&user).map_err(&invalid)?,
    })
}

fn pieces(text: &str) -> Result<Vec<Piece>, String> {
    let mut out = Vec::new();
    let mut literal = String::new();
    let mut chars = text.char_indices().peekable();
    while let Some((at, c)) = chars.next() {
        match c {
            '{' if chars.peek().map(|(_, n)| *n) == Some('{') => {
                chars.next();
                literal.push('{');
            }
            '}' if chars.peek().map(|(_, n)| *n) == Some('}') => {
                chars.next();
                literal.push('}');
            }
            '{' => {
                let rest = &text[at + 1..];
                let end = rest.find('}').ok_or_else(|| format!("`{{` without `}}`: {}", excerpt(&text[at..])))?;
                let slot = &rest[..end];
                if slot.is_empty() || !slot.chars().all(|c| c.is_ascii_alphanumeric() || c == '_') {
                    return Err(format!(
                        "`{{{slot}}}` is not a placeholder (letters, digits, _); write `{{{{` for a literal brace"
                    ));
                }
                if !literal.is_empty() {
                    out.push(Piece::Text(std::mem::take(&mut literal)));
                }
                out.push(Piece::Slot(slot.to_string()));
                for _ in 0..slot.chars().count() + 1 {
                    chars.next();
                }
            }
            '}' => {
                return Err(format!("`}}` without `{{`: {}; write `}}}}` for a literal brace", excerpt(&text[at..])))
            }
            c => literal.push(c),
        }
    }
    if !literal.is_empty() {
        out.push(Piece::Text(literal));
    }
    Ok(out)
}

fn excerpt(text: &str) -> String {
    text.chars().take(40).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn one(text: &str) -> Result<Prompts, PromptError> {
        Prompts::parse_all([(PathBuf::from("t.txt"), text.to_string())])
    }

    #[test]
    fn renders_placeholders_and_literal_braces() {
        let prompts =
            one("# a comment\n--- system ---\nBe {tone}.\n--- user ---\nDo {task} with {{\"x\": 1}}\n").unwrap();
        let rendered = prompts.render("t", &[("tone", "brief"), ("task", "{this}")]).unwrap();
        assert_eq!(rendered.system.as_deref(), Some("Be brief."));
        assert_eq!(rendered.user, "Do {this} with {\"x\": 1}");
        assert_eq!(rendered.messages().len(), 2);
    }

    #[test]
    fn errors_name_the_prompt_and_the_placeholder() {
        let prompts = one("--- user ---\n{a} {b}\n").unwrap();
        let missing = prompts.render("t", &[("a", "1")]).unwrap_err();
        assert_eq!(missing.to_string(), "prompt `t`: placeholder {b} has no value; pass it when rendering");
        let unused = prompts.render("t", &[("a", "1"), ("b", "2"), ("c", "3")]).unwrap_err();
        assert!(unused.to_string().contains("has no placeholder {c}"), "{unused}");
        assert!(matches!(prompts.render("nope", &[]), Err(PromptError::Unknown { .. })));
        assert!(one("hello\n--- user ---\nx").unwrap_err().to_string().contains("line 1"));
        assert!(one("--- user ---\n{not a slot}").unwrap_err().to_string().contains("not a placeholder"));
        assert!(one("--- system ---\nx").unwrap_err().to_string().contains("no `--- user ---`"));
    }
}
