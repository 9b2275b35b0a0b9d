//! References (`${vars.x}`, `${node.alias.0.field}`, `${env.NAME}`, `${secrets.NAME}`) and the
//! string templates that contain them, plus credential placeholders (`{{NAME}}`) in
//! natural-language text.

use std::fmt;

use serde_json::Value;

/// Where a reference starts.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub enum Root {
    Vars,
    Env,
    Secrets,
    /// Another node's outputs; the first path segment is the output alias.
    Node(String),
}

/// A parsed `${...}` reference: its root and the path below it.
///
/// For `vars`, `env` and `secrets` the first segment is the variable's name; for a node it is the
/// output alias. Numeric segments index arrays.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct Reference {
    pub root: Root,
    pub path: Vec<String>,
}

/// Names a reference may not use as node ids, because they are reference roots.
pub const RESERVED_ROOTS: [&str; 3] = ["vars", "env", "secrets"];

#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{message} (at character {offset})")]
pub struct ReferenceError {
    /// Character offset in the string where the problem is.
    pub offset: usize,
    pub message: String,
}

impl Reference {
    /// Parses the inside of `${...}` (without the braces).
    pub fn parse(inner: &str) -> Result<Reference, ReferenceError> {
        let text = inner.trim();
        let err = |message: String| ReferenceError { offset: 0, message };
        if text.is_empty() {
            return Err(err("empty reference `${}`; write `${vars.name}` or `${node.alias}`".into()));
        }
        let mut segments = Vec::new();
        for (index, segment) in text.split('.').enumerate() {
            if segment.is_empty() {
                return Err(err(format!("empty path segment in `${{{text}}}` (segment {})", index + 1)));
            }
            if let Some(bad) = segment.chars().find(|c| c.is_whitespace() || matches!(c, '$' | '{' | '}')) {
                return Err(err(format!("`{bad}` is not allowed in reference `${{{text}}}`")));
            }
            segments.push(segment.to_owned());
        }
        let first = segments.remove(0);
        let root = match first.as_str() {
            "vars" => Root::Vars,
            "env" => Root::Env,
            "secrets" => Root::Secrets,
            _ => Root::Node(first),
        };
        let need = |what: &str| err(format!("`${{{text}}}` names no {what}; write `${{{text}.<{what}>}}`"));
        match (&root, segments.len()) {
            (Root::Vars, 0) => Err(need("variable")),
            (Root::Env | Root::Secrets, 0) => Err(need("name")),
            (Root::Env | Root::Secrets, n) if n > 1 => {
                Err(err(format!("`${{{text}}}`: env and secrets references take one name and no path")))
            }
            (Root::Node(_), 0) => Err(need("alias")),
            _ => Ok(Reference { root, path: segments }),
        }
    }

    /// The root's name as written (`vars`, `env`, `secrets` or the node id).
    pub fn root_name(&self) -> &str {
        match &self.root {
            Root::Vars => "vars",
            Root::Env => "env",
            Root::Secrets => "secrets",
            Root::Node(id) => id,
        }
    }
}

impl fmt::Display for Reference {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "${{{}", self.root_name())?;
        for segment in &self.path {
            write!(f, ".{segment}")?;
        }
        f.write_str("}")
    }
}

/// A piece of a string template.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Part {
    Text(String),
    Ref(Reference),
}

/// A string value as the engine sees it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Template {
    /// No references (after `$${` escapes are turned into `${`).
    Literal(String),
    /// Exactly one reference and nothing else: the value keeps the referenced type.
    Single(Reference),
    /// Text with references embedded: rendered as a string.
    Mixed(Vec<Part>),
}

impl Template {
    /// Parses a string; `$${` stands for a literal `${`.
    pub fn parse(s: &str) -> Result<Template, ReferenceError> {
        if !s.contains("${") {
            return Ok(Template::Literal(s.to_owned()));
        }
        let mut parts = Vec::new();
        let mut text = String::new();
        let mut rest = s;
        while let Some(start) = rest.find("${") {
            if rest[..start].ends_with('$') {
                text.push_str(&rest[..start - 1]);
                text.push_str("${");
                rest = &rest[start + 2..];
                continue;
            }
            text.push_str(&rest[..start]);
            let after = &rest[start + 2..];
            let offset = s.len() - rest.len() + start;
            let end = after.find('}').ok_or_else(|| ReferenceError {
                offset: char_offset(s, offset),
                message: "unterminated reference: `${` without a closing `}`".into(),
            })?;
            let reference = Reference::parse(&after[..end])
                .map_err(|e| ReferenceError { offset: char_offset(s, offset), message: e.message })?;
            if !text.is_empty() {
                parts.push(Part::Text(std::mem::take(&mut text)));
            }
            parts.push(Part::Ref(reference));
            rest = &after[end + 1..];
        }
        text.push_str(rest);
        if !text.is_empty() {
            parts.push(Part::Text(text));
        }
        Ok(match parts.len() {
            0 => Template::Literal(String::new()),
            1 => match parts.pop() {
                Some(Part::Ref(r)) => Template::Single(r),
                Some(Part::Text(t)) => Template::Literal(t),
                None => unreachable!("one part"),
            },
            _ => Template::Mixed(parts),
        })
    }

    /// The references this template contains, in order.
    pub fn references(&self) -> impl Iterator<Item = &Reference> {
        let (single, parts): (Option<&Reference>, &[Part]) = match self {
            Template::Literal(_) => (None, &[]),
            Template::Single(r) => (Some(r), &[]),
            Template::Mixed(parts) => (None, parts),
        };
        single.into_iter().chain(parts.iter().filter_map(|p| match p {
            Part::Ref(r) => Some(r),
            Part::Text(_) => None,
        }))
    }
}

/// The var `text` names when it is exactly one `${vars.x}`: a file, a column or a value a step
/// takes from a var, whose default stands for it before the run.
pub fn var_named(text: &str) -> Option<String> {
    match Template::parse(text) {
        Ok(Template::Single(Reference { root: Root::Vars, mut path })) if path.len() == 1 => path.pop(),
        _ => None,
    }
}

/// Every `${...}` in `text`, each parsed on its own: after a malformed one the others are still
/// found. (`Template::parse` stops at the first error.)
pub fn scan_references(text: &str) -> impl Iterator<Item = Result<Reference, ReferenceError>> + '_ {
    let mut rest = text;
    std::iter::from_fn(move || loop {
        let start = rest.find("${")?;
        let escaped = rest[..start].ends_with('$');
        let after = &rest[start + 2..];
        let Some(end) = after.find('}') else {
            rest = "";
            return None;
        };
        rest = &after[end + 1..];
        if !escaped {
            return Some(Reference::parse(&after[..end]));
        }
    })
}

fn char_offset(s: &str, byte: usize) -> usize {
    s[..byte].chars().count()
}

/// Calls `visit` with every string nested anywhere in `value` (map values and list items, not
/// map keys) and the JSON-pointer suffix that leads to it from `value`.
pub fn visit_strings(value: &Value, visit: &mut dyn FnMut(&str, &str)) {
    fn walk(value: &Value, pointer: &mut String, visit: &mut dyn FnMut(&str, &str)) {
        match value {
            Value::String(s) => visit(s, pointer),
            Value::Array(items) => {
                for (i, item) in items.iter().enumerate() {
                    with_token(pointer, &i.to_string(), |p| walk(item, p, visit));
                }
            }
            Value::Object(map) => {
                for (key, item) in map {
                    with_token(pointer, key, |p| walk(item, p, visit));
                }
            }
            _ => {}
        }
    }
    walk(value, &mut String::new(), visit);
}

/// Runs `f` with `pointer` extended by one token (escaped), then cuts it back: one buffer serves
/// a whole walk over a value, however large.
pub fn with_token<R>(pointer: &mut String, token: &str, f: impl FnOnce(&mut String) -> R) -> R {
    let len = pointer.len();
    pointer.push('/');
    pointer.push_str(&escape_pointer(token));
    let result = f(pointer);
    pointer.truncate(len);
    result
}

/// Escapes one JSON-pointer token (RFC 6901).
pub fn escape_pointer(token: &str) -> std::borrow::Cow<'_, str> {
    if token.contains(['~', '/']) {
        token.replace('~', "~0").replace('/', "~1").into()
    } else {
        token.into()
    }
}

/// Credential placeholders `{{NAME}}` in natural-language text, in order of appearance.
/// A name is letters, digits and `_`, starting with a letter or `_`; anything else between
/// double braces is not a placeholder.
pub fn placeholders(text: &str) -> Vec<&str> {
    placeholder_spans(text).into_iter().map(|(_, name)| name).collect()
}

/// `text` with each placeholder replaced by what `value` gives for its name; the first error
/// stops the replacement.
pub fn fill_placeholders<E>(text: &str, mut value: impl FnMut(&str) -> Result<String, E>) -> Result<String, E> {
    let mut out = String::with_capacity(text.len());
    let mut copied = 0;
    for (span, name) in placeholder_spans(text) {
        out.push_str(&text[copied..span.start]);
        out.push_str(&value(name)?);
        copied = span.end;
    }
    out.push_str(&text[copied..]);
    Ok(out)
}

/// Each placeholder's byte range in `text` (braces included) and its name.
fn placeholder_spans(text: &str) -> Vec<(std::ops::Range<usize>, &str)> {
    let mut found = Vec::new();
    let mut at = 0;
    while let Some(start) = text[at..].find("{{").map(|i| at + i) {
        let after = start + 2;
        let Some(end) = text[after..].find("}}").map(|i| after + i) else { break };
        let name = text[after..end].trim();
        let valid = name.chars().next().is_some_and(|c| c.is_ascii_alphabetic() || c == '_')
            && name.chars().all(|c| c.is_ascii_alphanumeric() || c == '_');
        if valid {
            found.push((start..end + 2, name));
            at = end + 2;
        } else {
            at = after;
        }
    }
    found
}

#[cfg(test)]
mod tests {
    use super::*;

    fn r(root: Root, path: &[&str]) -> Reference {
        Reference { root, path: path.iter().map(|s| s.to_string()).collect() }
    }

    #[test]
    fn single_reference_keeps_its_identity() {
        assert_eq!(
            Template::parse("${read.rows.0.請求書番号}").unwrap(),
            Template::Single(r(Root::Node("read".into()), &["rows", "0", "請求書番号"]))
        );
        assert_eq!(Template::parse("${ vars.month }").unwrap(), Template::Single(r(Root::Vars, &["month"])));
    }

    #[test]
    fn embedded_references_make_a_mixed_template() {
        let t = Template::parse("Report for ${vars.month}: ${sum.total} yen").unwrap();
        assert_eq!(
            t,
            Template::Mixed(vec![
                Part::Text("Report for ".into()),
                Part::Ref(r(Root::Vars, &["month"])),
                Part::Text(": ".into()),
                Part::Ref(r(Root::Node("sum".into()), &["total"])),
                Part::Text(" yen".into()),
            ])
        );
        assert_eq!(t.references().count(), 2);
    }

    #[test]
    fn escaped_dollar_brace_is_text() {
        assert_eq!(Template::parse("cost $${vars.x}").unwrap(), Template::Literal("cost ${vars.x}".into()));
    }

    #[test]
    fn malformed_references_say_what_is_wrong() {
        let e = Template::parse("abc ${vars.x").unwrap_err();
        assert_eq!(e.offset, 4);
        assert!(e.message.contains("unterminated"));
        assert!(Template::parse("${}").unwrap_err().message.contains("empty reference"));
        assert!(Template::parse("${vars}").unwrap_err().message.contains("names no variable"));
        assert!(Template::parse("${node}").unwrap_err().message.contains("names no alias"));
        assert!(Template::parse("${a..b}").unwrap_err().message.contains("empty path segment"));
        assert!(Template::parse("${secrets.A.b}").unwrap_err().message.contains("one name"));
    }

    #[test]
    fn scanning_finds_references_after_a_broken_one() {
        let found: Vec<_> = scan_references("${vars}/${vars.dir}/$${x}/${a.b}").collect();
        assert_eq!(found.len(), 3);
        assert!(found[0].is_err());
        assert_eq!(found[1].as_ref().unwrap().to_string(), "${vars.dir}");
        assert_eq!(found[2].as_ref().unwrap().to_string(), "${a.b}");
    }

    #[test]
    fn display_round_trips() {
        let reference = Reference::parse("node.alias.3.x").unwrap();
        assert_eq!(reference.to_string(), "${node.alias.3.x}");
    }

    #[test]
    fn strings_are_found_anywhere_with_their_pointer() {
        let value = serde_json::json!({"a": ["x", {"b/c": "y"}], "n": 1});
        let mut seen = Vec::new();
        visit_strings(&value, &mut |s, p| seen.push((s.to_owned(), p.to_owned())));
        assert_eq!(seen, vec![("x".into(), "/a/0".into()), ("y".into(), "/a/1/b~1c".into())]);
    }

    #[test]
    fn placeholders_are_names_between_double_braces() {
        assert_eq!(placeholders("type {{USER}} then {{ PASS_1 }} {{not a name}} {{"), vec!["USER", "PASS_1"]);
        assert_eq!(placeholders("{{{{A}}}}"), vec!["A"]);
    }

    #[test]
    fn placeholders_are_filled_in_place() {
        let filled = fill_placeholders("user {{ USER }} / {{PASS}} {{not one}} {{USER}}", |name| {
            Ok::<_, ()>(name.to_lowercase())
        });
        assert_eq!(filled.unwrap(), "user user / pass {{not one}} user");
        let refused = fill_placeholders("a {{X}} b", |name| Err::<String, _>(name.to_owned()));
        assert_eq!(refused.unwrap_err(), "X");
        assert_eq!(
            fill_placeholders("no placeholder {{", |_| Ok::<_, ()>(String::new())).unwrap(),
            "no placeholder {{"
        );
    }

    proptest::proptest! {
        #[test]
        fn template_parse_never_panics(s in ".*") {
            let _ = Template::parse(&s);
        }

        #[test]
        fn template_parse_never_panics_on_reference_like_text(s in r"[\$\{\}\.a-z0-9 ]{0,40}") {
            if let Ok(t) = Template::parse(&s) {
                for reference in t.references() {
                    proptest::prop_assert!(!reference.path.is_empty());
                }
            }
        }

        #[test]
        fn scan_never_panics(s in r"[\$\{\}\.a-z ]{0,40}") {
            let _ = scan_references(&s).count();
        }

        #[test]
        fn placeholders_never_panic(s in ".*") {
            let _ = placeholders(&s);
        }

        #[test]
        fn filling_placeholders_keeps_the_rest_of_the_text(s in r"[\{\}A-Z_ a]{0,40}") {
            let names = placeholders(&s).len();
            let filled = fill_placeholders(&s, |_| Ok::<_, ()>("\u{1}".to_owned())).unwrap();
            proptest::prop_assert_eq!(filled.matches('\u{1}').count(), names);
            let kept = fill_placeholders(&s, |name| Ok::<_, ()>(format!("{{{{{name}}}}}"))).unwrap();
            proptest::prop_assert_eq!(placeholders(&kept).len(), names);
        }
    }
}
