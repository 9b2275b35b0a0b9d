//! Loading a plan file: bounded YAML parsing, conversion to a JSON document, the shape check,
//! and the typed model.
//!
//! Hostile files end in an error quickly and in bounded memory: the size is capped before
//! parsing, serde_yaml caps nesting (128 levels) and alias expansion, and nothing here recurses
//! deeper than the document it was given.

use std::io::Read;
use std::path::Path;

use serde::Deserialize;
use serde_json::Value;

use crate::finding::{Code, Finding};
use crate::locate::annotate;
use crate::model::{Node, Plan};
use crate::shape::check_shape;
use crate::source_map::SourceMap;

/// Plan files larger than this are refused before parsing. The largest plans we generate
/// (10,000 nodes) are about 2 MiB.
pub const MAX_PLAN_BYTES: usize = 16 * 1024 * 1024;

/// Why a file could not be read as a plan at all (CLI exit code 2).
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum LoadError {
    #[error("the file is {bytes} bytes, more than the {limit}-byte limit for a plan")]
    TooLarge { bytes: usize, limit: usize },
    #[error("the file is not UTF-8 text (invalid byte at offset {offset}); save it as UTF-8")]
    NotText { offset: usize },
    #[error("YAML error at line {line}, column {column}: {message}")]
    Yaml { message: String, line: u32, column: u32 },
    #[error("not a Planwright plan: {0}")]
    NotAPlan(String),
    #[error("cannot read the file: {0}")]
    Unreadable(String),
    #[error("it is not a regular file; a plan is a YAML file")]
    NotAFile,
}

/// A plan file as loaded: its document, the typed plan (when the document could be read into
/// the model), and the findings of the shape check.
#[derive(Debug, Clone)]
pub struct LoadedPlan {
    pub plan: Option<Plan>,
    pub document: Value,
    pub findings: Vec<Finding>,
    text: String,
}

impl LoadedPlan {
    /// Fills in node, field, line and column of findings whose `path` points into this file.
    pub fn annotate(&self, findings: &mut [Finding]) {
        if findings.is_empty() {
            return;
        }
        annotate(&self.document, &SourceMap::build(&self.text), findings);
    }

    /// The plan as far as the document reads into the model: the plan itself when it does
    /// whole; else, for a document still being written, its parts that do — each top-level
    /// field that reads, and the nodes of the graph that read on their own (a node that does
    /// not is left out). For views that follow the text as it is typed, such as the graph.
    pub fn readable_plan(&self) -> Option<Plan> {
        if let Some(plan) = &self.plan {
            return Some(plan.clone());
        }
        let Value::Object(document) = &self.document else { return None };
        let mut readable = serde_json::Map::new();
        for (key, value) in document {
            let mut one = serde_json::Map::new();
            let value = match (key.as_str(), value) {
                ("graph", Value::Array(nodes)) => {
                    Value::Array(nodes.iter().filter(|node| Node::deserialize(*node).is_ok()).cloned().collect())
                }
                _ => value.clone(),
            };
            one.insert(key.clone(), value.clone());
            if Plan::deserialize(Value::Object(one)).is_ok() {
                readable.insert(key.clone(), value);
            }
        }
        Plan::deserialize(Value::Object(readable)).ok()
    }

    /// The source text.
    pub fn text(&self) -> &str {
        &self.text
    }
}

/// Loads a plan file. Looks before opening (a FIFO or a device would block or never end) and
/// never reads more than the size limit.
pub fn load_plan_file(path: &Path) -> Result<LoadedPlan, LoadError> {
    let unreadable = |e: std::io::Error| LoadError::Unreadable(e.to_string());
    let meta = std::fs::metadata(path).map_err(unreadable)?;
    if !meta.is_file() {
        return Err(LoadError::NotAFile);
    }
    if meta.len() > MAX_PLAN_BYTES as u64 {
        return Err(LoadError::TooLarge { bytes: meta.len() as usize, limit: MAX_PLAN_BYTES });
    }
    let mut bytes = Vec::with_capacity(meta.len() as usize);
    std::fs::File::open(path)
        .and_then(|file| file.take(MAX_PLAN_BYTES as u64 + 1).read_to_end(&mut bytes))
        .map_err(unreadable)?;
    load_plan_bytes(&bytes)
}

/// Loads a plan from raw bytes (a file's content).
pub fn load_plan_bytes(bytes: &[u8]) -> Result<LoadedPlan, LoadError> {
    if bytes.len() > MAX_PLAN_BYTES {
        return Err(LoadError::TooLarge { bytes: bytes.len(), limit: MAX_PLAN_BYTES });
    }
    let text = std::str::from_utf8(bytes).map_err(|e| LoadError::NotText { offset: e.valid_up_to() })?;
    load_plan(text)
}

/// Parses YAML text into a JSON document within a plan file's limits: the size cap, the nesting
/// guard before the parser, duplicate keys and tags refused. For every YAML file a person gives
/// (a plan, an answers file), so that none costs more than a plan may.
pub fn parse_document(text: &str) -> Result<Value, LoadError> {
    if text.len() > MAX_PLAN_BYTES {
        return Err(LoadError::TooLarge { bytes: text.len(), limit: MAX_PLAN_BYTES });
    }
    let text = text.strip_prefix('\u{feff}').unwrap_or(text);
    check_flow_depth(text)?;
    crate::yaml_json::parse(text).map_err(yaml_error)
}

/// Loads a plan from text.
pub fn load_plan(text: &str) -> Result<LoadedPlan, LoadError> {
    let text = text.strip_prefix('\u{feff}').unwrap_or(text);
    let document = parse_document(text)?;
    match &document {
        Value::Object(map) if map.contains_key("graph") || map.contains_key("apiVersion") => {}
        Value::Object(_) => {
            return Err(LoadError::NotAPlan(
                "it has neither `apiVersion` nor `graph`; a plan starts with `apiVersion: planwright/v1`".into(),
            ))
        }
        other => {
            return Err(LoadError::NotAPlan(format!(
                "the document is {}, but a plan is a mapping of `apiVersion`, `id`, `version` and `graph`",
                kind_of(other)
            )))
        }
    }
    let mut findings = check_shape(&document);
    // serde_path_to_error only when needed: it is the slow way to the same plan.
    let plan = match Plan::deserialize(&document).or_else(|_| serde_path_to_error::deserialize::<_, Plan>(&document)) {
        Ok(plan) => Some(plan),
        Err(error) => {
            // The shape check almost always explains this already; say it only when it did not.
            let pointer = format!("/{}", error.path().to_string().replace('.', "/"));
            if !findings.iter().any(|f| f.is_error()) {
                findings.push(Finding::error(Code::InvalidType, pointer, error.inner().to_string()));
            }
            None
        }
    };
    let loaded = LoadedPlan { plan, document, findings: Vec::new(), text: text.to_owned() };
    loaded.annotate(&mut findings);
    Ok(LoadedPlan { findings, ..loaded })
}

/// serde_yaml refuses documents nested deeper than this.
const MAX_DEPTH: usize = 128;

/// Refuses flow nesting (`[[[…` / `{{{…`) deeper than serde_yaml accepts, before libyaml sees
/// it: libyaml's scanner is quadratic in flow depth (20,000 levels take a second, 40,000 four).
/// Quoted strings and comments are skipped; a block scalar with that many brackets is no plan.
fn check_flow_depth(text: &str) -> Result<(), LoadError> {
    let mut depth = 0usize;
    let (mut line, mut column) = (1u32, 0u32);
    let mut quote: Option<char> = None;
    let mut previous = '\n';
    let mut chars = text.chars().peekable();
    while let Some(c) = chars.next() {
        column += 1;
        match (quote, c) {
            (_, '\n') => {
                (line, column) = (line + 1, 0);
                if quote == Some('#') {
                    quote = None;
                }
            }
            (Some('"'), '\\') => {
                chars.next();
                column += 1;
            }
            (Some('\''), '\'') if chars.peek() == Some(&'\'') => {
                chars.next();
                column += 1;
            }
            (Some(q), c) if q == c => quote = None,
            (Some(_), _) => {}
            (None, '"' | '\'') => quote = Some(c),
            (None, '#') if previous.is_whitespace() => quote = Some('#'),
            (None, '[' | '{') => {
                depth += 1;
                if depth > MAX_DEPTH {
                    return Err(LoadError::Yaml {
                        message: format!(
                            "nesting deeper than {MAX_DEPTH} levels; no plan or answers file needs that many"
                        ),
                        line,
                        column,
                    });
                }
            }
            (None, ']' | '}') => depth = depth.saturating_sub(1),
            _ => {}
        }
        previous = c;
    }
    Ok(())
}

fn yaml_error(error: serde_yaml::Error) -> LoadError {
    let (line, column) = error.location().map_or((1, 1), |l| (l.line() as u32, l.column() as u32));
    let message = error.to_string();
    let message = message.split(" at line ").next().unwrap_or(&message).to_owned();
    LoadError::Yaml { message, line, column }
}

fn kind_of(value: &Value) -> &'static str {
    match value {
        Value::Null => "empty",
        Value::Bool(_) => "a boolean",
        Value::Number(_) => "a number",
        Value::String(_) => "a single string",
        Value::Array(_) => "a list",
        Value::Object(_) => "a mapping",
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_document_being_written_reads_as_far_as_it_goes() {
        let text = "apiVersion: planwright/v1\nid: draft\nversion: 1.0.0\npolicy: {retries: many}\ngraph:\n  - id: read\n    block: file.read_csv\n    in: {path: a.csv}\n  - id: broken\n    block: file.read_csv\n    after: 3\n  - id: save\n    block: report.write\n    in: {data: \"${read.rows}\"}\n";
        let loaded = load_plan(text).unwrap();
        assert!(loaded.plan.is_none(), "the wrong types keep the whole plan from reading");
        let readable = loaded.readable_plan().expect("the parts that read");
        assert_eq!(readable.id, "draft");
        let ids: Vec<&str> = readable.graph.iter().map(|n| n.id.as_str()).collect();
        assert_eq!(ids, ["read", "save"], "the node that does not read is left out");
        let whole = load_plan("apiVersion: planwright/v1\nid: x\nversion: 1.0.0\ngraph: []\n").unwrap();
        assert_eq!(whole.readable_plan(), whole.plan);
    }
    use std::time::{Duration, Instant};

    const MINIMAL: &str =
        "apiVersion: planwright/v1\nid: p\nversion: 1.0.0\ngraph:\n  - id: a\n    block: transforms.pick\n";

    #[test]
    fn a_minimal_plan_loads_without_findings() {
        let loaded = load_plan(MINIMAL).unwrap();
        assert!(loaded.findings.is_empty(), "{:?}", loaded.findings);
        assert_eq!(loaded.plan.unwrap().graph[0].block.as_deref(), Some("transforms.pick"));
    }

    #[test]
    fn shape_findings_carry_node_field_and_line() {
        let loaded = load_plan(&MINIMAL.replace("    block:", "    blok:")).unwrap();
        let f = &loaded.findings[0];
        assert_eq!(
            (f.code, f.node.as_deref(), f.field.as_deref(), f.line),
            (Code::UnknownKey, Some("a"), Some("blok"), Some(6))
        );
        assert!(loaded.plan.is_some(), "unknown keys do not stop the typed model");
    }

    #[test]
    fn not_a_plan() {
        assert!(matches!(load_plan("- a\n- b\n"), Err(LoadError::NotAPlan(m)) if m.contains("a list")));
        assert!(matches!(load_plan("name: x\n"), Err(LoadError::NotAPlan(m)) if m.contains("apiVersion")));
        assert!(matches!(load_plan(""), Err(LoadError::NotAPlan(_))));
        assert!(
            matches!(load_plan("graph: []\nx: !tag 1\n"), Err(LoadError::Yaml { message, line: 2, .. }) if message.contains("tag"))
        );
    }

    #[test]
    fn yaml_errors_have_a_position() {
        let Err(LoadError::Yaml { line, .. }) = load_plan("apiVersion: planwright/v1\ngraph: [\n  {id: a\n") else {
            panic!("expected a YAML error")
        };
        assert!(line >= 3);
    }

    #[test]
    fn duplicate_keys_are_refused() {
        let text = format!("{MINIMAL}id: q\n");
        assert!(matches!(load_plan(&text), Err(LoadError::Yaml { message, .. }) if message.contains("duplicate")));
    }

    #[test]
    fn files_that_are_not_regular_are_not_opened() {
        assert_eq!(load_plan_file(Path::new("/dev/zero")).unwrap_err(), LoadError::NotAFile);
        assert_eq!(load_plan_file(Path::new("/")).unwrap_err(), LoadError::NotAFile);
        assert!(matches!(load_plan_file(Path::new("/nonexistent/plan.yaml")), Err(LoadError::Unreadable(_))));
    }

    #[test]
    fn binary_garbage_is_not_text() {
        assert!(matches!(load_plan_bytes(&[0x61, 0xff, 0xfe, 0x00]), Err(LoadError::NotText { offset: 1 })));
    }

    #[test]
    fn oversize_files_are_refused_before_parsing() {
        let huge = vec![b'a'; MAX_PLAN_BYTES + 1];
        assert!(matches!(load_plan_bytes(&huge), Err(LoadError::TooLarge { .. })));
    }

    // Hostile documents end quickly in an error. The bound here is generous and exists only to
    // turn a hang into a failure; the real figures are in docs/benchmarks.md.
    fn ends_quickly(text: &str) -> Result<LoadedPlan, LoadError> {
        let start = Instant::now();
        let result = load_plan(text);
        assert!(start.elapsed() < Duration::from_secs(10), "took {:?}", start.elapsed());
        result
    }

    #[test]
    fn alias_bombs_are_refused() {
        let mut text = String::from("apiVersion: planwright/v1\na0: &a0 [x, x, x, x, x, x, x, x, x, x]\n");
        for i in 1..12 {
            let prev = format!("*a{}", i - 1);
            text.push_str(&format!("a{i}: &a{i} [{}]\n", vec![prev; 10].join(", ")));
        }
        text.push_str("graph: *a11\n");
        assert!(
            matches!(ends_quickly(&text), Err(LoadError::Yaml { message, .. }) if message.contains("repetition limit"))
        );
    }

    #[test]
    fn deep_flow_nesting_is_refused_before_parsing() {
        let text = format!("apiVersion: planwright/v1\ngraph: {}{}\n", "[".repeat(20_000), "]".repeat(20_000));
        assert!(
            matches!(ends_quickly(&text), Err(LoadError::Yaml { message, line: 2, column: 136 }) if message.contains("deeper than 128"))
        );
    }

    #[test]
    fn deep_block_nesting_is_refused() {
        let text = format!("apiVersion: planwright/v1\ngraph:\n  {}x\n", "- ".repeat(20_000));
        assert!(
            matches!(ends_quickly(&text), Err(LoadError::Yaml { message, .. }) if message.contains("recursion limit"))
        );
    }

    #[test]
    fn brackets_in_strings_and_comments_are_not_nesting() {
        let brackets = "[".repeat(200);
        let text = format!("{MINIMAL}    description: \"{brackets}\"\n# {brackets}\n");
        assert!(load_plan(&text).unwrap().findings.is_empty());
        let single = format!("{MINIMAL}    description: 'it''s {brackets}'\n");
        assert!(load_plan(&single).unwrap().findings.is_empty());
    }

    #[test]
    fn nesting_up_to_the_limit_is_left_to_the_parser() {
        let text = format!("{MINIMAL}    in: {{source: {}1{}}}\n", "[".repeat(100), "]".repeat(100));
        assert!(load_plan(&text).is_ok());
    }

    #[test]
    fn a_long_string_is_just_a_long_string() {
        let text = format!("{MINIMAL}    description: \"{}\"\n", "x".repeat(4 << 20));
        assert!(ends_quickly(&text).unwrap().findings.is_empty());
    }

    proptest::proptest! {
        #[test]
        fn load_never_panics(text in ".{0,300}") {
            let _ = load_plan(&text);
        }

        #[test]
        fn load_never_panics_on_yamlish_text(text in r"[-:{}\[\],'|>\n #&*!a-z0-9]{0,200}") {
            let _ = load_plan(&format!("apiVersion: planwright/v1\n{text}"));
        }
    }
}
