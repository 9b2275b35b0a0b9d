//! Edits of a plan's text that keep everything else as it was written — comments, blank lines,
//! quoting, key order and flow or block style of the untouched parts. The studio's block
//! catalog, node inspector and requirements chat, and the design engine, all edit plans this way.
//!
//! An edit parses the text into a tree of spans (where each mapping, sequence, key and value is
//! written), finds the node it changes, replaces or inserts just that span, and then reads the
//! result back as a plan to check that the change is there: an edit that would not read as
//! intended is an error, never a silently different plan.

use saphyr_parser::{Event, Parser, ScalarStyle};
use serde_json::Value;

use crate::load::{load_plan, LoadError};

/// A plan text after an edit, and the byte offset where the change begins (for the editor's
/// cursor).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Edited {
    pub text: String,
    pub at: usize,
}

/// Why an edit could not be made.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum EditError {
    /// The text is not YAML the edit can find its way in.
    #[error("the plan text cannot be edited: {0}")]
    Unreadable(String),
    /// The node named is not in the plan.
    #[error("there is no node `{0}` in the plan")]
    NoNode(String),
    /// The place to edit is something else than expected (`in` is a list, `graph` a text).
    #[error("`{0}` is not a mapping of names to values; fix it in the text first")]
    NotAMapping(String),
    /// The edited text did not read back with the change.
    #[error("the edit could not be made in place ({0}); make it in the text")]
    Failed(String),
}

/// Appends `node` (a graph item as JSON: `{id, block, in, out …}`) to the plan's `graph`,
/// written in the style of the items around it; adds `graph:` when there is none.
pub fn insert_node(text: &str, node: &Value) -> Result<Edited, EditError> {
    let tree = Tree::parse(text)?;
    let root = tree.root_mapping()?;
    let edited = match tree.entry(root, "graph") {
        None => {
            let sep = if text.is_empty() || text.ends_with('\n') { "" } else { "\n" };
            let item = block_item(node, 2);
            Edited { text: format!("{text}{sep}graph:\n{item}"), at: text.len() + sep.len() + "graph:\n".len() }
        }
        Some(entry) => match &tree.nodes[entry.value].kind {
            // `graph: []`: the new node starts a block list, as people write plans.
            Kind::Sequence(items) if tree.nodes[entry.value].flow && items.is_empty() => {
                let colon = tree.colon_after(entry.key_end)?;
                let close = tree.closing(entry.value, ']')? + 1;
                let item = block_item(node, 2);
                let item = item.trim_end_matches('\n');
                // A comment after `[]` stays on a line of its own below the new item, not on its
                // last line, where it would seem to be about that input.
                let rest = &text[close..line_end(text, close)];
                let edited = match rest.find('#').filter(|&i| rest[..i].trim().is_empty()) {
                    Some(i) => splice(text, colon + 1, close + i, &format!("\n{item}\n  ")),
                    None => splice(text, colon + 1, close, &format!("\n{item}")),
                };
                Edited { at: colon + 2, ..edited }
            }
            Kind::Sequence(items) if tree.nodes[entry.value].flow => {
                let close = tree.closing(entry.value, ']')?;
                let json = serde_json::to_string(node).map_err(|e| EditError::Failed(e.to_string()))?;
                let insert = if items.is_empty() { json } else { format!(", {json}") };
                splice(text, close, close, &insert)
            }
            Kind::Sequence(items) if !items.is_empty() => {
                let last = *items.last().unwrap_or(&entry.value);
                let dash = tree.dash_column(tree.nodes[last].start);
                let after = line_end(text, tree.nodes[last].end);
                // Items separated by blank lines get one too.
                let spaced = items.len() > 1 && {
                    let gap_start = line_end(text, tree.nodes[items[items.len() - 2]].end);
                    let gap = &text[gap_start..tree.line_start(tree.nodes[last].start).max(gap_start)];
                    gap.trim().is_empty() && gap.matches('\n').count() > 1
                };
                let blank = if spaced { "\n" } else { "" };
                let item = block_item(node, dash);
                let (at, insert) = if after == text.len() && !text.ends_with('\n') {
                    (after, format!("\n{blank}{item}"))
                } else {
                    (after + 1, format!("{blank}{item}"))
                };
                let at = at.min(text.len());
                let edited = splice(text, at, at, &insert);
                // The cursor goes to the new item, past the line breaks before it.
                Edited { at: at + insert.len() - item.len(), ..edited }
            }
            _ if tree.is_empty_value(entry.value) => {
                let colon = tree.colon_after(entry.key_end)?;
                let item = block_item(node, 2);
                splice(
                    text,
                    colon + 1,
                    tree.nodes[entry.value].end.max(colon + 1),
                    &format!("\n{}", item.trim_end_matches('\n')),
                )
            }
            _ => return Err(EditError::NotAMapping("graph".into())),
        },
    };
    let loaded = read_back(&edited.text)?;
    let last = loaded.document.get("graph").and_then(Value::as_array).and_then(|items| items.last());
    if last != Some(node) {
        return Err(EditError::Failed("the new node does not read back as given".into()));
    }
    Ok(edited)
}

/// Sets input `input` of node `node_path` (`read`, inside a loop body `each/inner`) to `value`,
/// adding the input (and `in:`) when it is not there.
pub fn set_input(text: &str, node_path: &str, input: &str, value: &Value) -> Result<Edited, EditError> {
    let tree = Tree::parse(text)?;
    let (node, pointer) = tree.find_node(node_path)?;
    let edited = tree.set_entry(text, node, &["in"], input, value)?;
    check_value(&edited, &format!("{pointer}/in/{}", escape(input)), value)?;
    Ok(edited)
}

/// Sets var `name` to `value` (its default), adding it (and `vars:`) when it is not there.
pub fn set_var(text: &str, name: &str, value: &Value) -> Result<Edited, EditError> {
    let tree = Tree::parse(text)?;
    let root = tree.root_mapping()?;
    let edited = tree.set_entry(text, root, &["vars"], name, value)?;
    check_value(&edited, &format!("/vars/{}", escape(name)), value)?;
    Ok(edited)
}

fn read_back(text: &str) -> Result<crate::LoadedPlan, EditError> {
    load_plan(text).map_err(|e: LoadError| EditError::Failed(e.to_string()))
}

fn check_value(edited: &Edited, pointer: &str, value: &Value) -> Result<(), EditError> {
    let loaded = read_back(&edited.text)?;
    if loaded.document.pointer(pointer) == Some(value) {
        Ok(())
    } else {
        Err(EditError::Failed(format!("{pointer} does not read back as given")))
    }
}

fn escape(token: &str) -> String {
    token.replace('~', "~0").replace('/', "~1")
}

fn splice(text: &str, start: usize, end: usize, insert: &str) -> Edited {
    let mut out = String::with_capacity(text.len() + insert.len());
    out.push_str(&text[..start]);
    out.push_str(insert);
    out.push_str(&text[end..]);
    Edited { text: out, at: start }
}

/// The offset of the line break ending the line `at` is on (or the text's end).
fn line_end(text: &str, at: usize) -> usize {
    let at = at.min(text.len());
    text[at..].find('\n').map_or(text.len(), |i| at + i)
}

/// `node` as a block sequence item whose dash stands at column `dash`, ending with a line break.
fn block_item(node: &Value, dash: usize) -> String {
    let yaml = serde_yaml::to_string(node).unwrap_or_default();
    let pad = " ".repeat(dash);
    let mut out = String::new();
    for (i, line) in yaml.lines().enumerate() {
        if i == 0 {
            out.push_str(&format!("{pad}- {line}\n"));
        } else {
            out.push_str(&format!("{pad}  {line}\n"));
        }
    }
    out
}

/// `value` written on one line as people write YAML: a list or mapping in flow style
/// (`[{field: amount, value: 100}]`), a scalar as YAML writes it, multi-line text as a quoted
/// string, and text with flow indicators (a `${node.alias}` reference) quoted too: plain, it
/// would end a flow collection such as `in: {…}`.
fn inline(value: &Value) -> String {
    match value {
        Value::String(text) if text.contains(['\n', '\r', '{', '}', '[', ']', ',']) => {
            serde_json::to_string(value).unwrap_or_default()
        }
        Value::Array(items) => format!("[{}]", items.iter().map(inline).collect::<Vec<_>>().join(", ")),
        Value::Object(entries) => {
            let entries: Vec<String> = entries
                .iter()
                .map(|(key, v)| format!("{}: {}", inline(&Value::String(key.clone())), inline(v)))
                .collect();
            format!("{{{}}}", entries.join(", "))
        }
        scalar => serde_yaml::to_string(scalar).unwrap_or_default().trim_end().to_owned(),
    }
}

/// What the parser saw: each node with where it is written (byte offsets).
struct Tree {
    nodes: Vec<Node>,
    /// The text the offsets are into.
    text: String,
}

struct Node {
    start: usize,
    end: usize,
    flow: bool,
    empty_plain: bool,
    kind: Kind,
}

enum Kind {
    Scalar(String),
    Other,
    Mapping(Vec<Entry>),
    Sequence(Vec<usize>),
}

#[derive(Clone, Copy)]
struct Entry {
    key: usize,
    key_end: usize,
    value: usize,
}

/// One open collection while building.
struct Open {
    node: usize,
    /// For a mapping: the key node waiting for its value.
    key: Option<usize>,
}

impl Tree {
    fn parse(text: &str) -> Result<Tree, EditError> {
        // The parser counts characters; edits need bytes.
        let offsets: Vec<usize> = text.char_indices().map(|(i, _)| i).chain([text.len()]).collect();
        let byte = |chars: usize| offsets.get(chars).copied().unwrap_or(text.len());
        let mut nodes: Vec<Node> = Vec::new();
        let mut stack: Vec<Open> = Vec::new();
        let mut parser = Parser::new_from_str(text);
        while let Some(next) = parser.next_event() {
            let (event, span) = next.map_err(|e| EditError::Unreadable(e.to_string()))?;
            let (start, end) = (byte(span.start.index()), byte(span.end.index()));
            let new = match event {
                Event::Scalar(value, style, ..) => Some(Node {
                    start,
                    end,
                    flow: false,
                    empty_plain: style == ScalarStyle::Plain && value.is_empty(),
                    kind: Kind::Scalar(value.into_owned()),
                }),
                Event::Alias(_) => Some(Node { start, end, flow: false, empty_plain: false, kind: Kind::Other }),
                Event::MappingStart(..) | Event::SequenceStart(..) => {
                    let flow = text[start..].starts_with(['{', '[']);
                    let kind = if matches!(event, Event::MappingStart(..)) {
                        Kind::Mapping(Vec::new())
                    } else {
                        Kind::Sequence(Vec::new())
                    };
                    nodes.push(Node { start, end: start, flow, empty_plain: false, kind });
                    let node = nodes.len() - 1;
                    attach(&mut nodes, &mut stack, node);
                    stack.push(Open { node, key: None });
                    None
                }
                Event::MappingEnd | Event::SequenceEnd => {
                    if let Some(open) = stack.pop() {
                        let last_child = match &nodes[open.node].kind {
                            Kind::Mapping(entries) => entries.last().map(|e| nodes[e.value].end),
                            Kind::Sequence(items) => items.last().map(|&i| nodes[i].end),
                            _ => None,
                        };
                        let own_end = if nodes[open.node].flow { end } else { last_child.unwrap_or(start) };
                        nodes[open.node].end = own_end.max(nodes[open.node].start);
                    }
                    None
                }
                Event::DocumentEnd => break,
                _ => None,
            };
            if let Some(node) = new {
                nodes.push(node);
                let index = nodes.len() - 1;
                attach(&mut nodes, &mut stack, index);
            }
        }
        Ok(Tree { nodes, text: text.to_owned() })
    }

    /// The document's top-level mapping.
    fn root_mapping(&self) -> Result<usize, EditError> {
        match self.nodes.first().map(|n| &n.kind) {
            Some(Kind::Mapping(_)) => Ok(0),
            _ => Err(EditError::NotAMapping("the plan".into())),
        }
    }

    fn entry(&self, mapping: usize, key: &str) -> Option<Entry> {
        let Kind::Mapping(entries) = &self.nodes[mapping].kind else { return None };
        entries.iter().find(|e| matches!(&self.nodes[e.key].kind, Kind::Scalar(k) if k == key)).copied()
    }

    fn is_empty_value(&self, node: usize) -> bool {
        self.nodes[node].empty_plain || matches!(&self.nodes[node].kind, Kind::Scalar(v) if v == "~" || v == "null")
    }

    /// The mapping of the node at `path` in the graph (through loop bodies), and its pointer.
    fn find_node(&self, path: &str) -> Result<(usize, String), EditError> {
        let mut graph = self.root_mapping().ok().and_then(|root| self.entry(root, "graph")).map(|e| e.value);
        let mut pointer = "/graph".to_owned();
        let mut found = None;
        for (depth, id) in path.split('/').enumerate() {
            if depth > 0 {
                let body = found
                    .and_then(|node| self.entry(node, "body"))
                    .and_then(|e| self.entry(e.value, "plan"))
                    .and_then(|e| self.entry(e.value, "graph"));
                graph = body.map(|e| e.value);
                pointer.push_str("/body/plan/graph");
            }
            let Some(Kind::Sequence(items)) = graph.map(|g| &self.nodes[g].kind) else {
                return Err(EditError::NoNode(path.into()));
            };
            let (position, &item) = items
                .iter()
                .enumerate()
                .find(|(_, &item)| {
                    self.entry(item, "id")
                        .is_some_and(|e| matches!(&self.nodes[e.value].kind, Kind::Scalar(v) if v == id))
                })
                .ok_or_else(|| EditError::NoNode(path.into()))?;
            pointer.push_str(&format!("/{position}"));
            found = Some(item);
        }
        found.map(|node| (node, pointer)).ok_or_else(|| EditError::NoNode(path.into()))
    }

    /// Sets `key` to `value` in the mapping reached from `mapping` through `through` (created
    /// when missing).
    fn set_entry(
        &self,
        text: &str,
        mapping: usize,
        through: &[&str],
        key: &str,
        value: &Value,
    ) -> Result<Edited, EditError> {
        let [parent_key] = through else { return Err(EditError::Failed("nested edits".into())) };
        let rendered = inline(value);
        let key_text = inline(&Value::String(key.to_owned()));
        let Some(parent) = self.entry(mapping, parent_key) else {
            // No `in:` / `vars:` yet: a new entry holding the one value.
            let block = format!("{parent_key}:\n  {key_text}: {rendered}");
            return self.add_entry(
                text,
                mapping,
                parent_key,
                &block,
                &format!("{parent_key}: {{{key_text}: {rendered}}}"),
            );
        };
        if self.is_empty_value(parent.value) {
            let colon = self.colon_after(parent.key_end)?;
            let indent = " ".repeat(self.column(self.nodes[parent.key].start) + 2);
            let end = self.nodes[parent.value].end.max(colon + 1).min(line_end(text, colon));
            return Ok(splice(text, colon + 1, end, &format!("\n{indent}{key_text}: {rendered}")));
        }
        if !matches!(self.nodes[parent.value].kind, Kind::Mapping(_)) {
            return Err(EditError::NotAMapping((*parent_key).into()));
        }
        match self.entry(parent.value, key) {
            Some(existing) => {
                let colon = self.colon_after(existing.key_end)?;
                let end = self.value_end(existing.value, colon);
                Ok(splice(text, colon + 1, end, &format!(" {rendered}")))
            }
            None => self.add_entry(
                text,
                parent.value,
                key,
                &format!("{key_text}: {rendered}"),
                &format!("{key_text}: {rendered}"),
            ),
        }
    }

    /// Adds an entry to `mapping`: `block` (its lines, the first unindented, the next ones
    /// indented relative to it) after its last entry in a block mapping; `flow` before the `}`
    /// of a flow mapping.
    fn add_entry(&self, text: &str, mapping: usize, key: &str, block: &str, flow: &str) -> Result<Edited, EditError> {
        let node = &self.nodes[mapping];
        let Kind::Mapping(entries) = &node.kind else { return Err(EditError::NotAMapping(key.into())) };
        if node.flow {
            let close = self.closing(mapping, '}')?;
            let insert = if entries.is_empty() { flow.to_owned() } else { format!(", {flow}") };
            return Ok(splice(text, close, close, &insert));
        }
        let Some(last) = entries.last() else { return Err(EditError::NotAMapping(key.into())) };
        let indent = " ".repeat(self.column(self.nodes[entries[0].key].start));
        let after = line_end(text, self.nodes[last.value].end.max(last.key_end));
        let block = block.replace('\n', &format!("\n{indent}"));
        Ok(splice(text, after, after, &format!("\n{indent}{block}")))
    }

    /// Where the value after a key's colon ends, its trailing space and comment left in place.
    fn value_end(&self, value: usize, colon: usize) -> usize {
        let node = &self.nodes[value];
        if node.empty_plain {
            return colon + 1;
        }
        let end = node.end.max(colon + 1).min(self.text.len());
        colon + 1 + self.text[colon + 1..end].trim_end().len()
    }

    /// The offset of the `:` that follows a key ending at `key_end`.
    fn colon_after(&self, key_end: usize) -> Result<usize, EditError> {
        self.text[key_end..]
            .char_indices()
            .find(|(_, c)| !matches!(c, ' ' | '\t' | '"' | '\''))
            .filter(|(_, c)| *c == ':')
            .map(|(i, _)| key_end + i)
            .ok_or_else(|| EditError::Unreadable("a key without its `:`".into()))
    }

    /// The offset of the closing bracket of flow collection `node`.
    fn closing(&self, node: usize, bracket: char) -> Result<usize, EditError> {
        let end = self.nodes[node].end.min(self.text.len());
        self.text[..end].rfind(bracket).ok_or_else(|| EditError::Unreadable(format!("no closing `{bracket}`")))
    }

    fn line_start(&self, at: usize) -> usize {
        self.text[..at.min(self.text.len())].rfind('\n').map_or(0, |i| i + 1)
    }

    /// The column (in characters) of offset `at` on its line.
    fn column(&self, at: usize) -> usize {
        self.text[self.line_start(at)..at.min(self.text.len())].chars().count()
    }

    /// The column of the `-` of the block sequence item that starts at `item`.
    fn dash_column(&self, item: usize) -> usize {
        let line = self.line_start(item);
        let before = &self.text[line..item.min(self.text.len())];
        before.rfind('-').map_or_else(|| self.column(item).saturating_sub(2), |i| before[..i].chars().count())
    }
}

/// Records `node` as the next child of the innermost open collection.
fn attach(nodes: &mut [Node], stack: &mut [Open], node: usize) {
    let Some(open) = stack.last_mut() else { return };
    let parent = open.node;
    match open.key.take() {
        Some(key) => {
            let key_end = nodes[key].end;
            if let Kind::Mapping(entries) = &mut nodes[parent].kind {
                entries.push(Entry { key, key_end, value: node });
            }
        }
        None => match &mut nodes[parent].kind {
            Kind::Mapping(_) => open.key = Some(node),
            Kind::Sequence(items) => items.push(node),
            _ => {}
        },
    }
}
