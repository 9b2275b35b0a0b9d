//! The accessibility snapshot in Playwright's aria snapshot format, with refs, two modes, a
//! scope and a token budget.

use serde::{Deserialize, Serialize};

use crate::error::BrowserError;
use crate::locate::Locator;
use crate::roles::{is_interactive, LANDMARKS, NAMED_GROUPS};
use crate::session::BrowserSession;
use crate::tree::{elements, Element, Item};

/// What a snapshot shows.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum SnapshotMode {
    /// The elements a person acts on, with the headings, landmarks, dialogs and alerts that give
    /// them context. What a model is shown to choose an action.
    #[default]
    Interactive,
    /// Everything the accessibility tree exposes, text included.
    Full,
}

/// How to take a snapshot.
#[derive(Debug, Clone, Default)]
pub struct SnapshotOptions {
    pub mode: SnapshotMode,
    /// Only the subtree of this element.
    pub scope: Option<Locator>,
    /// At most about this many tokens; the rest is cut with a visible marker.
    pub token_budget: Option<usize>,
}

/// One element line of a snapshot.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct SnapshotElement {
    /// `e12`: usable as [`Locator::Ref`].
    pub reference: String,
    pub role: String,
    pub name: String,
}

/// A snapshot of the driven page.
#[derive(Debug, Clone, Serialize)]
pub struct Snapshot {
    /// The page's address.
    pub url: String,
    /// `- button "Submit" [ref=e12]` lines.
    pub text: String,
    /// The elements shown, in order.
    pub elements: Vec<SnapshotElement>,
    /// The estimated tokens of `text` (see [`estimate_tokens`]).
    pub tokens: usize,
    /// How many elements the token budget left out.
    pub truncated: usize,
}

/// Tokens of `text` as BPE tokenizers of current models count them, estimated: about four
/// characters of ASCII per token and one token per other character (kana, kanji, symbols).
/// The browser benchmark checks the estimate against a real tokenizer.
pub fn estimate_tokens(text: &str) -> usize {
    let (ascii, other) =
        text.chars().fold((0usize, 0usize), |(a, o), c| if c.is_ascii() { (a + 1, o) } else { (a, o + 1) });
    ascii.div_ceil(4) + other
}

impl BrowserSession {
    /// Takes a snapshot of the driven page.
    #[tracing::instrument(name = "snapshot", level = "debug", skip_all, fields(mode = ?options.mode))]
    pub async fn snapshot(&self, options: &SnapshotOptions) -> Result<Snapshot, BrowserError> {
        let tree = self.page_tree().await?;
        let scope = match &options.scope {
            Some(locator) => Some(self.resolve_one(locator, &tree).await?.key()),
            None => None,
        };
        let mut items = simplify(tree.items(scope.as_ref()));
        if options.mode == SnapshotMode::Interactive {
            items = interactive(items);
        }
        let shown = elements(&items);
        let keyed: Vec<_> = shown.iter().map(|e| (e.key.clone(), e.role, e.name.as_str())).collect();
        let refs = self.refs.lock().unwrap_or_else(std::sync::PoisonError::into_inner).assign(&keyed, scope.is_none());
        let mut printer = Printer {
            refs: &refs,
            next: 0,
            full: options.mode == SnapshotMode::Full,
            out: String::new(),
            tokens: 0,
            budget: options.token_budget.unwrap_or(usize::MAX),
            cut: false,
            shown: Vec::new(),
        };
        printer.items(&items, 0, None);
        let truncated = refs.len() - printer.shown.len();
        if truncated > 0 {
            let marker = format!(
                "- note: truncated, {truncated} more elements not shown; scope the snapshot to a part of the page or raise its token budget\n"
            );
            printer.tokens += estimate_tokens(&marker);
            printer.out.push_str(&marker);
        }
        let elements = printer.shown.into_iter().map(|i| {
            let e = shown[i];
            SnapshotElement { reference: refs[i].clone(), role: e.role.to_owned(), name: e.name.clone() }
        });
        Ok(Snapshot {
            url: tree.url().to_owned(),
            text: printer.out,
            elements: elements.collect(),
            tokens: printer.tokens,
            truncated,
        })
    }
}

/// The interactive elements (role, name) written in a snapshot text of this crate's or of
/// Playwright's `ariaSnapshot()`, in order; with `frames: false`, those inside an `iframe` are left
/// out (Playwright does not show frame contents).
pub fn interactive_in_text(text: &str, frames: bool) -> Vec<(String, String)> {
    let mut found = Vec::new();
    let mut iframe_indent: Option<usize> = None;
    for line in text.lines() {
        let indent = line.len() - line.trim_start().len();
        let Some(rest) = line.trim_start().strip_prefix("- ") else { continue };
        if iframe_indent.is_some_and(|i| indent > i) {
            continue;
        }
        iframe_indent = None;
        let role_end = rest.find([' ', ':']).unwrap_or(rest.len());
        let role = &rest[..role_end];
        if role == "iframe" && !frames {
            iframe_indent = Some(indent);
            continue;
        }
        if !is_interactive(role) {
            continue;
        }
        let after = &rest[role_end..];
        let name = after
            .strip_prefix(' ')
            .filter(|a| a.starts_with('"'))
            .and_then(|a| serde_json::Deserializer::from_str(a).into_iter::<String>().next())
            .and_then(Result::ok)
            .unwrap_or_default();
        found.push((role.to_owned(), name));
    }
    found
}

/// Text that only repeats an element's name goes (a button's label is its name already); an
/// element whose single child is a text shows it on its own line.
fn simplify(items: Vec<Item>) -> Vec<Item> {
    items
        .into_iter()
        .map(|item| match item {
            Item::Element(mut e) => {
                e.children = simplify(std::mem::take(&mut e.children));
                let only_text: Option<String> = e
                    .children
                    .iter()
                    .map(|c| match c {
                        Item::Text(t) => Some(t.as_str()),
                        Item::Element(_) => None,
                    })
                    .collect::<Option<Vec<_>>>()
                    .map(|texts| texts.join(" "));
                if only_text.is_some_and(|t| t == e.name || t.is_empty() || Some(&t) == e.value.as_ref()) {
                    e.children.clear();
                }
                Item::Element(e)
            }
            text => text,
        })
        .collect()
}

/// The interactive view: interactive elements, headings, alerts and statuses, inside the
/// landmarks and named groups that hold them.
fn interactive(items: Vec<Item>) -> Vec<Item> {
    let mut out = Vec::new();
    for item in items {
        let Item::Element(mut e) = item else { continue };
        if is_interactive(e.role) {
            e.children = interactive(std::mem::take(&mut e.children));
            out.push(Item::Element(e));
        } else if e.role == "heading" {
            e.children.clear();
            out.push(Item::Element(e));
        } else if e.role == "alert" || e.role == "status" {
            e.children.retain(|c| matches!(c, Item::Text(_)));
            if !e.children.is_empty() || !e.name.is_empty() {
                out.push(Item::Element(e));
            }
        } else if LANDMARKS.contains(&e.role) || (NAMED_GROUPS.contains(&e.role) && !e.name.is_empty()) {
            e.children = interactive(std::mem::take(&mut e.children));
            // A section named by its heading says it once.
            let name = e.name.clone();
            e.children.retain(|c| !matches!(c, Item::Element(h) if h.role == "heading" && h.name == name));
            if !e.children.is_empty() || e.role == "dialog" || e.role == "alertdialog" {
                out.push(Item::Element(e));
            }
        } else {
            out.extend(interactive(e.children));
        }
    }
    out
}

struct Printer<'a> {
    refs: &'a [String],
    /// The index of the next element in depth-first order (the order of `refs`).
    next: usize,
    full: bool,
    out: String,
    tokens: usize,
    budget: usize,
    cut: bool,
    /// Indexes of the elements printed.
    shown: Vec<usize>,
}

impl Printer<'_> {
    fn items(&mut self, items: &[Item], depth: usize, parent: Option<&'static str>) {
        for item in items {
            match item {
                Item::Text(text) => {
                    let line = format!("{}- text: {}\n", "  ".repeat(depth), yaml_text(text));
                    self.push(line);
                }
                Item::Element(e) => self.element(e, depth, parent),
            }
        }
    }

    fn element(&mut self, e: &Element, depth: usize, parent: Option<&'static str>) {
        let index = self.next;
        self.next += 1;
        let mut line = format!("{}- {}", "  ".repeat(depth), e.role);
        if !e.name.is_empty() {
            line.push(' ');
            line.push_str(&serde_json::to_string(&e.name).unwrap_or_default());
        }
        let s = &e.states;
        match s.checked.as_deref() {
            Some("mixed") => line.push_str(" [checked=mixed]"),
            Some(_) => line.push_str(" [checked]"),
            None => {}
        }
        if s.disabled {
            line.push_str(" [disabled]");
        }
        if s.expanded == Some(true) {
            line.push_str(" [expanded]");
        }
        if let Some(level) = s.level.filter(|_| e.role == "heading" && self.full) {
            line.push_str(&format!(" [level={level}]"));
        }
        match s.pressed.as_deref() {
            Some("mixed") => line.push_str(" [pressed=mixed]"),
            Some(_) => line.push_str(" [pressed]"),
            None => {}
        }
        if s.selected {
            line.push_str(" [selected]");
        }
        // A model acts on interactive elements; in the interactive view only they carry refs,
        // which keeps it short (every element still has one, for scoping by ref). The options
        // of a select are chosen through the select.
        if self.full || (is_interactive(e.role) && !(e.role == "option" && parent == Some("combobox"))) {
            line.push_str(&format!(" [ref={}]", self.refs[index]));
        }
        let url = e.url.as_deref().filter(|_| self.full && e.role == "link");
        let single_text = match e.children.as_slice() {
            [Item::Text(text)] if e.name.is_empty() && url.is_none() => Some(text),
            _ => None,
        };
        if let Some(value) = e.value.as_deref().filter(|v| *v != e.name) {
            line.push_str(": ");
            line.push_str(&yaml_text(value));
        } else if let Some(text) = single_text {
            line.push_str(": ");
            line.push_str(&yaml_text(text));
        } else if !e.children.is_empty() || url.is_some() {
            line.push(':');
        }
        line.push('\n');
        if !self.push(line) {
            self.next += crate::tree::elements(&e.children).len();
            return;
        }
        self.shown.push(index);
        if let Some(url) = url {
            self.push(format!("{}- /url: {}\n", "  ".repeat(depth + 1), yaml_text(url)));
        }
        if single_text.is_none() {
            self.items(&e.children, depth + 1, Some(e.role));
        }
    }

    /// Adds a line when it fits the budget; once one does not, nothing more is added.
    fn push(&mut self, line: String) -> bool {
        let tokens = estimate_tokens(&line);
        if self.cut || self.tokens + tokens > self.budget {
            self.cut = true;
            return false;
        }
        self.tokens += tokens;
        self.out.push_str(&line);
        true
    }
}

/// Text after `: `, quoted when YAML would read it as something else.
fn yaml_text(text: &str) -> String {
    let special = text.starts_with(|c: char| "-?:,[]{}#&*!|>'\"%@`".contains(c))
        || text.contains(": ")
        || text.contains(" #")
        || text.ends_with(':')
        || text.trim() != text;
    if special {
        serde_json::to_string(text).unwrap_or_default()
    } else {
        text.to_owned()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn token_estimate_counts_ascii_by_four_and_other_characters_by_one() {
        assert_eq!(estimate_tokens(""), 0);
        assert_eq!(estimate_tokens("- button \"Log in\""), 5);
        assert_eq!(estimate_tokens("請求書"), 3);
    }

    #[test]
    fn interactive_elements_are_read_back_from_snapshot_text() {
        let text = "- main:\n  - button \"Say \\\"hi\\\"\" [ref=e1]\n  - textbox \"Name\": Ada\n  - heading \"H\" [level=1]\n  - link:\n    - /url: /\n- iframe [ref=e4]:\n  - button \"Inside\"\n- checkbox \"After\" [checked]\n";
        let outside = interactive_in_text(text, false);
        assert_eq!(
            outside,
            [("button", "Say \"hi\""), ("textbox", "Name"), ("link", ""), ("checkbox", "After")]
                .map(|(r, n)| (r.to_owned(), n.to_owned()))
        );
        assert_eq!(interactive_in_text(text, true).len(), 5);
    }

    #[test]
    fn yaml_text_is_quoted_only_when_needed() {
        assert_eq!(yaml_text("Hello world"), "Hello world");
        assert_eq!(yaml_text("Total: 3"), "\"Total: 3\"");
        assert_eq!(yaml_text("- not a list"), "\"- not a list\"");
        assert_eq!(yaml_text("¥132,000"), "¥132,000");
    }
}
