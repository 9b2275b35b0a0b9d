//! A source map from JSON pointers (RFC 6901) to line/column positions in a YAML document.
//!
//! Validation findings carry a JSON pointer into the plan (`/graph/3/in/items`); the studio and
//! the CLI need to show where that is in the file. [`SourceMap::build`] runs the event parser of
//! `saphyr-parser` over the text once and records, for every node it can name with a pointer,
//! where that node is written:
//!
//! * a **mapping entry** (`/graph/0/block`) is located at its **key** (the first character of
//!   the key, including any anchor or tag written before it and the opening quote of a quoted
//!   key), so a finding about a missing or misspelled field points at the `block:` line;
//! * a **sequence item** (`/graph/0`) is located where the item's node starts: in a flow sequence
//!   that is the item itself (`[x, y]`), in a block sequence it is the node after the `- `
//!   indicator, e.g. the `id` key of `- id: x` (the dash itself is not reported); a block scalar
//!   item (`- |`) is located at its `|`/`>` indicator, not at its content on the next line;
//! * the **root** (`""`) is located at the first node of the document, or at 1:1 for an empty
//!   document.
//!
//! Lines and columns are 1-based. **Columns count Unicode characters (scalar values), not bytes**:
//! in `名前: 値` the value is at column 5. A `\r\n` line ending counts as one line break, and a
//! leading byte-order mark is not counted.
//!
//! Only the first document of a multi-document stream is mapped. Aliases (`*a`) are located at
//! the alias itself and are not expanded, so a pointer through an alias resolves to the alias.
//! Entries whose key is not a scalar (complex keys such as `? [a, b]`, or an alias used as a key)
//! cannot be named by a pointer and are skipped, together with their values. Scalar keys are
//! named by their value as written (`1: x` is `/1`, `"a/b": x` is `/a~1b`). When a key appears
//! twice in one mapping, the first occurrence wins.
//!
//! Building is a single pass over the parser's events with an explicit stack (no recursion), so
//! hostile input (garbage, deep nesting, very long lines) costs time and memory linear in its
//! size. The map itself is a flat tree of nodes: memory is linear in the number of nodes, not in
//! the total length of all pointers.

use std::borrow::Cow;
use std::collections::hash_map::{Entry, HashMap};

use saphyr_parser::{Event, Marker, Parser, ScalarStyle};

/// A position in a text: 1-based line and 1-based column.
///
/// The column counts Unicode characters (scalar values) from the start of the line, not bytes.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize)]
pub struct Position {
    /// The line, starting at 1.
    pub line: u32,
    /// The column in characters (not bytes), starting at 1.
    pub column: u32,
}

impl Position {
    /// The start of the text, 1:1.
    const START: Position = Position { line: 1, column: 1 };

    /// Converts a parser marker (1-based line, 0-based character column).
    fn from_marker(marker: &Marker) -> Position {
        Position {
            line: u32::try_from(marker.line().max(1)).unwrap_or(u32::MAX),
            column: u32::try_from(marker.col().saturating_add(1)).unwrap_or(u32::MAX),
        }
    }
}

/// Maps JSON pointers into a YAML document to the positions where their nodes are written.
///
/// See the [module documentation](self) for how positions are chosen.
#[derive(Debug, Clone, Default)]
pub struct SourceMap {
    /// All mapped nodes; index 0 is the root once built. Empty for `SourceMap::default()`.
    nodes: Vec<Node>,
    /// Children of mapping nodes: (parent index, unescaped key) -> child index.
    entries: HashMap<(u32, Box<str>), u32>,
}

#[derive(Debug, Clone)]
struct Node {
    position: Position,
    kind: Kind,
}

#[derive(Debug, Clone)]
enum Kind {
    /// A scalar, an alias, or a node whose children are not recorded.
    Leaf,
    /// A mapping; its entries live in [`SourceMap::entries`].
    Mapping,
    /// A sequence and the node indices of its items, in order.
    Sequence(Vec<u32>),
}

/// One open collection while walking the events.
enum Frame {
    /// `node` is `None` for a collection whose contents are not recorded (a complex key, the
    /// value of a skipped entry, or anything nested in those).
    Mapping {
        node: Option<u32>,
        state: MapState,
    },
    Sequence {
        node: Option<u32>,
    },
}

enum MapState {
    /// The next node event is a key.
    Key,
    /// The next node event is the value of the entry recorded as this node (`None`: not
    /// recorded).
    Value(Option<u32>),
}

/// Converts the parser's character indices to byte offsets, moving forward only (so that all
/// conversions over one build cost time linear in the text).
struct Cursor<'a> {
    text: &'a str,
    chars: usize,
    bytes: usize,
}

impl Cursor<'_> {
    /// Where a block scalar (`|`, `>`) really starts. The parser's span for a block scalar
    /// without properties starts at its content, on the line after the indicator; the indicator
    /// (or a property written before it) is the first character after the previous event that is
    /// not white space, a comment, or an indicator of the enclosing collection (`-`, `?`, `:`).
    fn block_scalar_start(&mut self, previous_end: &Marker, content: &Marker) -> Option<Position> {
        if previous_end.index() < self.chars || content.index() < previous_end.index() {
            return None;
        }
        let mut rest = self.text.get(self.bytes..)?.chars();
        while self.chars < previous_end.index() {
            self.bytes += rest.next()?.len_utf8();
            self.chars += 1;
        }
        let (mut line, mut col) = (previous_end.line(), previous_end.col());
        let mut in_comment = false;
        let mut after_cr = false;
        while self.chars < content.index() {
            let c = rest.next()?;
            self.bytes += c.len_utf8();
            self.chars += 1;
            let was_cr = std::mem::replace(&mut after_cr, c == '\r');
            match c {
                '\n' if was_cr => {}
                '\n' | '\r' => {
                    line += 1;
                    col = 0;
                    in_comment = false;
                }
                '\u{feff}' => {}
                _ if in_comment => col += 1,
                '#' => {
                    in_comment = true;
                    col += 1;
                }
                ' ' | '\t' | '-' | '?' | ':' | ',' | '[' | '{' => col += 1,
                _ => return Some(Position::from_marker(&Marker::new(self.chars - 1, line, col))),
            }
        }
        None
    }
}

/// What kind of node an event starts.
enum Start<'a> {
    Scalar(Cow<'a, str>),
    Alias,
    Mapping,
    Sequence,
}

impl SourceMap {
    /// Builds the source map of the first document in `text`.
    ///
    /// Never panics: on a YAML error it keeps what it mapped before the error.
    pub fn build(text: &str) -> SourceMap {
        let mut map =
            SourceMap { nodes: vec![Node { position: Position::START, kind: Kind::Leaf }], entries: HashMap::new() };
        let mut stack: Vec<Frame> = Vec::new();
        let mut root_seen = false;
        let mut cursor = Cursor { text, chars: 0, bytes: 0 };
        let mut previous_end = Marker::default();
        let mut parser = Parser::new_from_str(text);
        while let Some(Ok((event, span))) = parser.next_event() {
            // The span of an implicit document start is that of the document's first token,
            // which for a block scalar extends past its header.
            let end = match event {
                Event::DocumentStart(false) => previous_end,
                _ => span.end,
            };
            let previous_end = std::mem::replace(&mut previous_end, end);
            let mut position = Position::from_marker(&span.start);
            let start = match event {
                Event::StreamEnd | Event::DocumentEnd => break,
                // A second document start without an explicit end of the first one.
                Event::DocumentStart(_) if root_seen => break,
                Event::Nothing | Event::StreamStart | Event::DocumentStart(_) => continue,
                Event::MappingEnd | Event::SequenceEnd => {
                    stack.pop();
                    continue;
                }
                Event::Scalar(value, ScalarStyle::Literal | ScalarStyle::Folded, ..) => {
                    if let Some(header) = cursor.block_scalar_start(&previous_end, &span.start) {
                        position = header;
                    }
                    Start::Scalar(value)
                }
                Event::Scalar(value, ..) => Start::Scalar(value),
                Event::Alias(_) => Start::Alias,
                Event::MappingStart(..) => Start::Mapping,
                Event::SequenceStart(..) => Start::Sequence,
            };
            let target = match stack.last_mut() {
                None if root_seen => break,
                None => {
                    root_seen = true;
                    map.nodes[0].position = position;
                    Some(0)
                }
                Some(Frame::Sequence { node }) => match *node {
                    Some(parent) => map.add_item(parent, position),
                    None => None,
                },
                Some(Frame::Mapping { node, state }) => match state {
                    MapState::Value(entry) => {
                        let entry = *entry;
                        *state = MapState::Key;
                        entry
                    }
                    MapState::Key => {
                        let parent = *node;
                        match start {
                            Start::Scalar(key) => {
                                let entry = parent.and_then(|p| map.add_entry(p, key, position));
                                *state = MapState::Value(entry);
                                continue;
                            }
                            Start::Alias => {
                                *state = MapState::Value(None);
                                continue;
                            }
                            // A complex key: its contents and the entry's value are skipped.
                            Start::Mapping | Start::Sequence => {
                                *state = MapState::Value(None);
                                None
                            }
                        }
                    }
                },
            };
            match start {
                Start::Scalar(_) | Start::Alias => {}
                Start::Mapping => {
                    if let Some(index) = target {
                        map.nodes[index as usize].kind = Kind::Mapping;
                    }
                    stack.push(Frame::Mapping { node: target, state: MapState::Key });
                }
                Start::Sequence => {
                    if let Some(index) = target {
                        map.nodes[index as usize].kind = Kind::Sequence(Vec::new());
                    }
                    stack.push(Frame::Sequence { node: target });
                }
            }
        }
        map
    }

    /// The position for `pointer` (an RFC 6901 JSON pointer such as `/graph/0/in/items`, with
    /// `~` escaped as `~0` and `/` as `~1`).
    ///
    /// When that exact pointer is not in the document (a missing field, an index past the end,
    /// a path through a scalar or an alias), returns the position of its nearest ancestor that
    /// is. The root `""` maps to the first node of the document (1:1 for an empty document).
    /// Returns `None` only when `pointer` is neither empty nor starts with `/`, or when the map
    /// was not built (`SourceMap::default()`).
    pub fn locate(&self, pointer: &str) -> Option<Position> {
        let root = self.nodes.first()?;
        if pointer.is_empty() {
            return Some(root.position);
        }
        let rest = pointer.strip_prefix('/')?;
        let mut current = 0u32;
        for segment in rest.split('/') {
            match self.child(current, segment) {
                Some(child) => current = child,
                None => break,
            }
        }
        Some(self.nodes[current as usize].position)
    }

    /// The child of `parent` named by the (still escaped) pointer `segment`.
    fn child(&self, parent: u32, segment: &str) -> Option<u32> {
        match &self.nodes[parent as usize].kind {
            Kind::Leaf => None,
            Kind::Mapping => {
                let key = unescape(segment)?;
                self.entries.get(&(parent, key.into_boxed_str())).copied()
            }
            Kind::Sequence(items) => items.get(array_index(segment)?).copied(),
        }
    }

    fn push_node(&mut self, position: Position) -> Option<u32> {
        let index = u32::try_from(self.nodes.len()).ok()?;
        self.nodes.push(Node { position, kind: Kind::Leaf });
        Some(index)
    }

    /// Records the next item of the sequence node `parent`.
    fn add_item(&mut self, parent: u32, position: Position) -> Option<u32> {
        let index = self.push_node(position)?;
        if let Kind::Sequence(items) = &mut self.nodes[parent as usize].kind {
            items.push(index);
        }
        Some(index)
    }

    /// Records the entry `key` of the mapping node `parent`, positioned at its key; `None` when
    /// the mapping already has that key (the first occurrence wins).
    fn add_entry(&mut self, parent: u32, key: Cow<'_, str>, position: Position) -> Option<u32> {
        let index = u32::try_from(self.nodes.len()).ok()?;
        match self.entries.entry((parent, key.into_owned().into_boxed_str())) {
            Entry::Occupied(_) => None,
            Entry::Vacant(vacant) => {
                vacant.insert(index);
                self.nodes.push(Node { position, kind: Kind::Leaf });
                Some(index)
            }
        }
    }
}

/// Decodes a pointer segment (`~1` → `/`, `~0` → `~`); `None` for an invalid escape.
fn unescape(segment: &str) -> Option<String> {
    if !segment.contains('~') {
        return Some(segment.to_owned());
    }
    let mut out = String::with_capacity(segment.len());
    let mut chars = segment.chars();
    while let Some(c) = chars.next() {
        if c == '~' {
            match chars.next() {
                Some('0') => out.push('~'),
                Some('1') => out.push('/'),
                _ => return None,
            }
        } else {
            out.push(c);
        }
    }
    Some(out)
}

/// Parses an RFC 6901 array index: `0` or digits without a leading zero.
fn array_index(segment: &str) -> Option<usize> {
    let bytes = segment.as_bytes();
    if bytes.is_empty() || !bytes.iter().all(u8::is_ascii_digit) || (bytes.len() > 1 && bytes[0] == b'0') {
        return None;
    }
    segment.parse().ok()
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    fn pos(line: u32, column: u32) -> Option<Position> {
        Some(Position { line, column })
    }

    #[test]
    fn block_style() {
        let text = "\
version: 1
graph:
  - id: fetch
    block: http.get
    in:
      url: https://example.com
  - id: parse
    blok: json.parse
";
        let map = SourceMap::build(text);
        assert_eq!(map.locate(""), pos(1, 1));
        assert_eq!(map.locate("/version"), pos(1, 1));
        assert_eq!(map.locate("/graph"), pos(2, 1));
        // Block sequence items are located at the item's node (the first key), not the dash.
        assert_eq!(map.locate("/graph/0"), pos(3, 5));
        assert_eq!(map.locate("/graph/0/id"), pos(3, 5));
        assert_eq!(map.locate("/graph/0/block"), pos(4, 5));
        assert_eq!(map.locate("/graph/0/in"), pos(5, 5));
        assert_eq!(map.locate("/graph/0/in/url"), pos(6, 7));
        assert_eq!(map.locate("/graph/1"), pos(7, 5));
        assert_eq!(map.locate("/graph/1/blok"), pos(8, 5));
    }

    #[test]
    fn root_is_first_node() {
        assert_eq!(SourceMap::build("# header\n\n  key: 1\n").locate(""), pos(3, 3));
        assert_eq!(SourceMap::build("  plain scalar\n").locate(""), pos(1, 3));
        assert_eq!(SourceMap::build("- a\n").locate("/0"), pos(1, 3));
    }

    #[test]
    fn empty_document() {
        for text in ["", "\n\n", "# only a comment\n"] {
            let map = SourceMap::build(text);
            assert_eq!(map.locate(""), pos(1, 1), "{text:?}");
            assert_eq!(map.locate("/graph/0"), pos(1, 1), "{text:?}");
        }
    }

    #[test]
    fn flow_style() {
        let text = "{a: 1, b: [x, y], c: {d: [[z]]}}\n";
        let map = SourceMap::build(text);
        assert_eq!(map.locate(""), pos(1, 1));
        assert_eq!(map.locate("/a"), pos(1, 2));
        assert_eq!(map.locate("/b"), pos(1, 8));
        assert_eq!(map.locate("/b/0"), pos(1, 12));
        assert_eq!(map.locate("/b/1"), pos(1, 15));
        assert_eq!(map.locate("/c"), pos(1, 19));
        assert_eq!(map.locate("/c/d"), pos(1, 23));
        assert_eq!(map.locate("/c/d/0"), pos(1, 27));
        assert_eq!(map.locate("/c/d/0/0"), pos(1, 28));
    }

    #[test]
    fn flow_inside_block_over_several_lines() {
        let text = "\
items: [
  one,
  {name: two, tags: [a,
    b]},
]
";
        let map = SourceMap::build(text);
        assert_eq!(map.locate("/items"), pos(1, 1));
        assert_eq!(map.locate("/items/0"), pos(2, 3));
        assert_eq!(map.locate("/items/1"), pos(3, 3));
        assert_eq!(map.locate("/items/1/name"), pos(3, 4));
        assert_eq!(map.locate("/items/1/tags"), pos(3, 15));
        assert_eq!(map.locate("/items/1/tags/0"), pos(3, 22));
        assert_eq!(map.locate("/items/1/tags/1"), pos(4, 5));
    }

    #[test]
    fn nested_sequences_of_mappings() {
        let text = "\
graph:
  - id: outer
    body:
      plan:
        graph:
          - id: inner
            block: noop
          - - nested: 1
            - nested: 2
";
        let map = SourceMap::build(text);
        assert_eq!(map.locate("/graph/0/body/plan/graph"), pos(5, 9));
        assert_eq!(map.locate("/graph/0/body/plan/graph/0"), pos(6, 13));
        assert_eq!(map.locate("/graph/0/body/plan/graph/0/block"), pos(7, 13));
        assert_eq!(map.locate("/graph/0/body/plan/graph/1"), pos(8, 13));
        assert_eq!(map.locate("/graph/0/body/plan/graph/1/0"), pos(8, 15));
        assert_eq!(map.locate("/graph/0/body/plan/graph/1/0/nested"), pos(8, 15));
        assert_eq!(map.locate("/graph/0/body/plan/graph/1/1/nested"), pos(9, 15));
    }

    #[test]
    fn multi_line_and_block_scalars() {
        let text = "\
literal: |
  line one
  line two
folded: >-
  folded
  text
plain: first
  continued
quoted: \"first
  continued\"
after: 1
";
        let map = SourceMap::build(text);
        assert_eq!(map.locate("/literal"), pos(1, 1));
        assert_eq!(map.locate("/folded"), pos(4, 1));
        assert_eq!(map.locate("/plain"), pos(7, 1));
        assert_eq!(map.locate("/quoted"), pos(9, 1));
        assert_eq!(map.locate("/after"), pos(11, 1));
    }

    #[test]
    fn block_scalars_as_sequence_items() {
        // The parser's span for a block scalar starts at its content; the item is located at
        // its indicator (or at the properties written before it).
        let text = "\
- |
  text
- >-  # comment | >
  more
- x
-   |+

  kept
- &a !t >
  tagged
- y
";
        let map = SourceMap::build(text);
        assert_eq!(map.locate("/0"), pos(1, 3));
        assert_eq!(map.locate("/1"), pos(3, 3));
        assert_eq!(map.locate("/2"), pos(5, 3));
        assert_eq!(map.locate("/3"), pos(6, 5));
        assert_eq!(map.locate("/4"), pos(9, 3));
        assert_eq!(map.locate("/5"), pos(11, 3));
    }

    #[test]
    fn block_scalars_at_root_keys_and_crlf() {
        assert_eq!(SourceMap::build("|\n  root\n").locate(""), pos(1, 1));
        assert_eq!(SourceMap::build("--- # c\n\n  >\n  root\n").locate(""), pos(3, 3));
        assert_eq!(SourceMap::build("\u{feff}|\n  root\n").locate(""), pos(1, 1));
        let map = SourceMap::build("? |\n  key\n: value\nnext: 1\n");
        assert_eq!(map.locate("/key\n"), pos(1, 3));
        assert_eq!(map.locate("/next"), pos(4, 1));
        let map = SourceMap::build("a:\r\n  - |\r\n    x\r\n  - >\r\n    y\r\n  - z\r\n");
        assert_eq!(map.locate("/a/0"), pos(2, 5));
        assert_eq!(map.locate("/a/1"), pos(4, 5));
        assert_eq!(map.locate("/a/2"), pos(6, 5));
        let map = SourceMap::build("- 名前: |\n    値\n- 説明 # 注 |\n- >\n  x\n");
        assert_eq!(map.locate("/0/名前"), pos(1, 3));
        assert_eq!(map.locate("/1"), pos(3, 3));
        assert_eq!(map.locate("/2"), pos(4, 3));
    }

    #[test]
    fn comments() {
        let text = "\
# leading comment
a: 1 # trailing
# between
b:
  # inside
  - x # item
  # last
  - y
";
        let map = SourceMap::build(text);
        assert_eq!(map.locate(""), pos(2, 1));
        assert_eq!(map.locate("/a"), pos(2, 1));
        assert_eq!(map.locate("/b"), pos(4, 1));
        assert_eq!(map.locate("/b/0"), pos(6, 5));
        assert_eq!(map.locate("/b/1"), pos(8, 5));
    }

    #[test]
    fn quoted_keys_and_escaped_pointer_segments() {
        let text = "\
\"double\": 1
'single': 2
\"a/b\": 3
'c~d': 4
plain/slash: 5
\"~1\": 6
\"\": 7
";
        let map = SourceMap::build(text);
        assert_eq!(map.locate("/double"), pos(1, 1));
        assert_eq!(map.locate("/single"), pos(2, 1));
        assert_eq!(map.locate("/a~1b"), pos(3, 1));
        assert_eq!(map.locate("/c~0d"), pos(4, 1));
        assert_eq!(map.locate("/plain~1slash"), pos(5, 1));
        // The key is the two characters `~1`, escaped as `~01`; `~01` must not decode to `~/`.
        assert_eq!(map.locate("/~01"), pos(6, 1));
        assert_eq!(map.locate("/"), pos(7, 1));
        // An unescaped `/` splits segments: `/a/b` is key `a`, then `b`, neither exists.
        assert_eq!(map.locate("/a/b"), pos(1, 1));
        // Invalid escapes match nothing.
        assert_eq!(map.locate("/c~2d"), pos(1, 1));
    }

    #[test]
    fn japanese_text_counts_characters() {
        let text = "名前: 値\n説明: \"日本語の説明\"\nリスト: [一, 二]\n  # コメント\n";
        let map = SourceMap::build(text);
        assert_eq!(map.locate("/名前"), pos(1, 1));
        assert_eq!(map.locate("/説明"), pos(2, 1));
        assert_eq!(map.locate("/リスト"), pos(3, 1));
        // `リスト: [` is 6 characters (but 12 bytes), so `一` is at column 7.
        assert_eq!(map.locate("/リスト/0"), pos(3, 7));
        assert_eq!(map.locate("/リスト/1"), pos(3, 10));
    }

    #[test]
    fn japanese_before_key_on_same_line() {
        let map = SourceMap::build("{名前: 値, id: x}");
        assert_eq!(map.locate("/名前"), pos(1, 2));
        assert_eq!(map.locate("/id"), pos(1, 9));
    }

    #[test]
    fn crlf_line_endings() {
        let text = "a: 1\r\nb:\r\n  - x\r\n  - y: |\r\n      text\r\n    z: 2\r\n";
        let map = SourceMap::build(text);
        assert_eq!(map.locate("/a"), pos(1, 1));
        assert_eq!(map.locate("/b"), pos(2, 1));
        assert_eq!(map.locate("/b/0"), pos(3, 5));
        assert_eq!(map.locate("/b/1"), pos(4, 5));
        assert_eq!(map.locate("/b/1/y"), pos(4, 5));
        assert_eq!(map.locate("/b/1/z"), pos(6, 5));
    }

    #[test]
    fn byte_order_mark_is_not_a_column() {
        let map = SourceMap::build("\u{feff}a: 1\nb: 2\n");
        assert_eq!(map.locate("/a"), pos(1, 1));
        assert_eq!(map.locate("/b"), pos(2, 1));
    }

    #[test]
    fn aliases_are_not_expanded() {
        let text = "\
base: &b
  x: 1
copy: *b
list: [*b, &s y, *s]
";
        let map = SourceMap::build(text);
        assert_eq!(map.locate("/base/x"), pos(2, 3));
        assert_eq!(map.locate("/copy"), pos(3, 1));
        // `/copy/x` exists only through the alias: falls back to the entry holding the alias.
        assert_eq!(map.locate("/copy/x"), pos(3, 1));
        assert_eq!(map.locate("/list/0"), pos(4, 8));
        assert_eq!(map.locate("/list/0/x"), pos(4, 8));
        // Anchors and tags are part of the node they precede.
        assert_eq!(map.locate("/list/1"), pos(4, 12));
        assert_eq!(map.locate("/list/2"), pos(4, 18));
    }

    #[test]
    fn anchored_and_tagged_keys_and_items() {
        let text = "&k key: 1\n!!str tagged: 2\nseq:\n  - !t &m\n    q: 1\n";
        let map = SourceMap::build(text);
        assert_eq!(map.locate("/key"), pos(1, 1));
        assert_eq!(map.locate("/tagged"), pos(2, 1));
        assert_eq!(map.locate("/seq/0"), pos(4, 5));
        assert_eq!(map.locate("/seq/0/q"), pos(5, 5));
    }

    #[test]
    fn complex_keys_are_skipped() {
        let text = "\
a: &s 1
? [x, y]
: {nested: value}
? {k: v}
: - item
b: 2
*s : 3
c: {[p]: 1, d: 4}
";
        let map = SourceMap::build(text);
        assert_eq!(map.locate("/a"), pos(1, 1));
        assert_eq!(map.locate("/b"), pos(6, 1));
        assert_eq!(map.locate("/c"), pos(8, 1));
        assert_eq!(map.locate("/c/d"), pos(8, 13));
        // Contents of complex keys and their values are not addressable.
        assert_eq!(map.locate("/nested"), pos(1, 1));
        assert_eq!(map.locate("/k"), pos(1, 1));
        assert_eq!(map.locate("/x"), pos(1, 1));
        assert_eq!(map.locate("/0"), pos(1, 1));
        // An alias used as a key is skipped too (its value `3` is not addressable as `/1`).
        assert_eq!(map.locate("/1"), pos(1, 1));
        assert_eq!(map.locate("/c/p"), pos(8, 1));
    }

    #[test]
    fn explicit_scalar_key() {
        let map = SourceMap::build("? key\n: value\nother: 1\n");
        assert_eq!(map.locate("/key"), pos(1, 3));
        assert_eq!(map.locate("/other"), pos(3, 1));
    }

    #[test]
    fn duplicate_keys_keep_the_first() {
        let map = SourceMap::build("a:\n  x: 1\na:\n  y: 2\n");
        assert_eq!(map.locate("/a"), pos(1, 1));
        assert_eq!(map.locate("/a/x"), pos(2, 3));
        assert_eq!(map.locate("/a/y"), pos(1, 1));
    }

    #[test]
    fn only_the_first_document_is_mapped() {
        let text = "---\na: 1\n---\nb: 2\n";
        let map = SourceMap::build(text);
        assert_eq!(map.locate(""), pos(2, 1));
        assert_eq!(map.locate("/a"), pos(2, 1));
        assert_eq!(map.locate("/b"), pos(2, 1));

        let map = SourceMap::build("a: 1\n...\n---\nb: 2\n");
        assert_eq!(map.locate("/a"), pos(1, 1));
        assert_eq!(map.locate("/b"), pos(1, 1));
    }

    #[test]
    fn nearest_ancestor_fallback() {
        let text = "\
graph:
  - id: a
    in:
      items: [1, 2]
  - id: b
";
        let map = SourceMap::build(text);
        // Missing field -> its mapping's entry.
        assert_eq!(map.locate("/graph/0/in/missing"), pos(3, 5));
        // Index past the end -> the sequence.
        assert_eq!(map.locate("/graph/7"), pos(1, 1));
        assert_eq!(map.locate("/graph/0/in/items/5"), pos(4, 7));
        // Path through a scalar -> the scalar's entry.
        assert_eq!(map.locate("/graph/1/id/deeper/still"), pos(5, 5));
        // Not an RFC 6901 array index -> the sequence.
        assert_eq!(map.locate("/graph/01"), pos(1, 1));
        assert_eq!(map.locate("/graph/-"), pos(1, 1));
        assert_eq!(map.locate("/graph/+1"), pos(1, 1));
        // Unknown top-level key -> the root.
        assert_eq!(map.locate("/nope/graph/0"), pos(1, 1));
        // Index-looking key on a mapping is a key, not an index.
        assert_eq!(map.locate("/0"), pos(1, 1));
    }

    #[test]
    fn numeric_keys_are_named_as_written() {
        let map = SourceMap::build("1: a\n0: b\nnull: c\n");
        assert_eq!(map.locate("/1"), pos(1, 1));
        assert_eq!(map.locate("/0"), pos(2, 1));
        assert_eq!(map.locate("/null"), pos(3, 1));
    }

    #[test]
    fn malformed_pointer_and_unbuilt_map() {
        let map = SourceMap::build("a: 1\n");
        assert_eq!(map.locate("a"), None);
        assert_eq!(map.locate("#/a"), None);
        assert_eq!(SourceMap::default().locate(""), None);
        assert_eq!(SourceMap::default().locate("/a"), None);
    }

    #[test]
    fn yaml_error_keeps_what_was_mapped_before() {
        let text = "a: 1\nb: [1, 2\nc: 3\n";
        let map = SourceMap::build(text);
        assert_eq!(map.locate("/a"), pos(1, 1));
        assert_eq!(map.locate("/b"), pos(2, 1));
        assert_eq!(map.locate("/b/0"), pos(2, 5));
        assert_eq!(map.locate("/c"), pos(1, 1));

        let map = SourceMap::build("ok: 1\nbad: \"unterminated\n");
        assert_eq!(map.locate("/ok"), pos(1, 1));
    }

    #[test]
    fn binary_garbage() {
        let mut bytes = Vec::new();
        let mut state = 0x2545_f491_u32;
        for _ in 0..100_000 {
            state ^= state << 13;
            state ^= state >> 17;
            state ^= state << 5;
            bytes.push(state as u8);
        }
        let text = String::from_utf8_lossy(&bytes);
        let map = SourceMap::build(&text);
        assert!(map.locate("").is_some());
        assert!(map.locate("/a/0/b").is_some());
        let text = "\0\u{1}\u{7f}\u{fffd}: [\u{0}]\t\t{\u{2028}";
        let map = SourceMap::build(text);
        assert!(map.locate("/0").is_some());
    }

    #[test]
    fn deep_flow_nesting() {
        // The parser refuses flow nesting deeper than 255 levels with an error, before it has
        // emitted any node: only the root (at 1:1) is mapped.
        let text = "[".repeat(20_000);
        let map = SourceMap::build(&text);
        assert_eq!(map.locate(""), pos(1, 1));
        assert_eq!(map.locate("/0/0"), pos(1, 1));
        assert_eq!(map.locate(&"/0".repeat(20_000)), pos(1, 1));

        let text = format!("{}x{}", "{a: ".repeat(20_000), "}".repeat(20_000));
        let map = SourceMap::build(&text);
        assert_eq!(map.locate("/a/a"), pos(1, 1));

        // Within the limit, every level is mapped.
        let text = format!("{}x{}", "[".repeat(200), "]".repeat(200));
        let map = SourceMap::build(&text);
        assert_eq!(map.locate(&"/0".repeat(200)), pos(1, 201));
        assert_eq!(map.locate(&"/0".repeat(100)), pos(1, 101));
    }

    #[test]
    fn deep_block_nesting() {
        // Block sequences have no nesting limit in the parser: 20,000 levels are all mapped.
        let depth = 20_000;
        let text = format!("{}x\n", "- ".repeat(depth));
        let map = SourceMap::build(&text);
        assert_eq!(map.locate(""), pos(1, 1));
        assert_eq!(map.locate("/0"), pos(1, 3));
        let deepest = "/0".repeat(depth);
        let column = u32::try_from(2 * depth + 1).unwrap();
        assert_eq!(map.locate(&deepest), pos(1, column));
        assert_eq!(map.locate(&format!("{deepest}/0")), pos(1, column));

        let text = "? ".repeat(depth);
        let map = SourceMap::build(&text);
        assert!(map.locate("/a").is_some());
    }

    #[test]
    fn very_long_lines() {
        let long = "v".repeat(1_000_000);
        let text = format!("key: {long}\nnext: [{long}, y]\n");
        let map = SourceMap::build(&text);
        assert_eq!(map.locate("/key"), pos(1, 1));
        assert_eq!(map.locate("/next"), pos(2, 1));
        assert_eq!(map.locate("/next/1"), pos(2, 1_000_010));

        let text = format!("[{}]", "a, ".repeat(200_000));
        let map = SourceMap::build(&text);
        assert_eq!(map.locate("/199999"), pos(1, 599_999));
    }

    fn pointers() -> impl Strategy<Value = String> {
        prop_oneof![
            Just(String::new()),
            Just("/0".to_owned()),
            Just("/a/0/b".to_owned()),
            "(/[a-z0-9~]{0,3}){0,6}",
            ".{0,20}",
        ]
    }

    proptest! {
        #[test]
        fn never_panics_on_arbitrary_strings(text in ".{0,300}", pointer in pointers()) {
            let map = SourceMap::build(&text);
            prop_assert!(map.locate("").is_some());
            let _ = map.locate(&pointer);
        }

        #[test]
        fn never_panics_on_yamlish_strings(
            text in "[-:{}\\[\\],'\"|>\n #&*!a-zA-Z]{0,300}",
            pointer in pointers(),
        ) {
            let map = SourceMap::build(&text);
            prop_assert!(map.locate("").is_some());
            if let Some(position) = map.locate(&pointer) {
                prop_assert!(position.line >= 1 && position.column >= 1);
            }
        }
    }
}
