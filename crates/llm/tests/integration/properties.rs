//! Property tests: `strict_schema` always gives a strict-compatible schema that accepts every
//! answer the original accepts (optional fields filled with null), and stripping those nulls
//! gives the original answer back; `parse_answer` never panics and finds a JSON object in
//! surrounding prose.

use planwright_llm::{is_strict, parse_answer, strict_schema, strip_optional_nulls};
use proptest::prelude::*;
use serde_json::{json, Map, Value};

/// A schema shape to generate both a schema and instances from.
#[derive(Debug, Clone)]
enum Node {
    Str,
    Int,
    Bool,
    Enum(Vec<String>),
    Array(Box<Node>),
    /// Properties: (node, required).
    Object(Vec<(Node, bool)>),
    AnyOf(Vec<Node>),
    Ref(Box<Node>),
}

fn node() -> impl Strategy<Value = Node> {
    let leaf = prop_oneof![
        Just(Node::Str),
        Just(Node::Int),
        Just(Node::Bool),
        prop::collection::vec("[a-z]{1,5}", 1..4).prop_map(Node::Enum),
    ];
    leaf.prop_recursive(4, 40, 5, |inner| {
        prop_oneof![
            inner.clone().prop_map(|n| Node::Array(Box::new(n))),
            prop::collection::vec((inner.clone(), any::<bool>()), 0..5).prop_map(Node::Object),
            prop::collection::vec(inner.clone(), 2..4).prop_map(Node::AnyOf),
            inner.prop_map(|n| Node::Ref(Box::new(n))),
        ]
    })
}

/// Builds the schema; property names are unique across the whole schema, so `anyOf` branches
/// never disagree about a property.
struct Builder {
    next: usize,
    defs: Map<String, Value>,
}

impl Builder {
    fn schema(&mut self, node: &Node, names: &mut Vec<String>) -> Value {
        match node {
            Node::Str => json!({"type": "string"}),
            Node::Int => json!({"type": "integer", "format": "int64"}),
            Node::Bool => json!({"type": "boolean"}),
            Node::Enum(values) => json!({"type": "string", "enum": values}),
            Node::Array(item) => json!({"type": "array", "items": self.schema(item, names)}),
            Node::Object(properties) => {
                let mut props = Map::new();
                let mut required = Vec::new();
                for (child, is_required) in properties {
                    self.next += 1;
                    let name = format!("p{}", self.next);
                    names.push(name.clone());
                    props.insert(name.clone(), self.schema(child, names));
                    if *is_required {
                        required.push(Value::String(name));
                    }
                }
                json!({"type": "object", "properties": props, "required": required})
            }
            Node::AnyOf(branches) => {
                json!({"anyOf": branches.iter().map(|b| self.schema(b, names)).collect::<Vec<_>>()})
            }
            Node::Ref(inner) => {
                self.next += 1;
                let name = format!("D{}", self.next);
                let schema = self.schema(inner, names);
                self.defs.insert(name.clone(), schema);
                json!({"$ref": format!("#/$defs/{name}")})
            }
        }
    }
}

/// The property names, in the order the builder handed them out, so instances use them too.
struct Names<'a> {
    names: &'a [String],
    at: usize,
}

/// A tiny deterministic generator of choices.
struct Choices(u64);

impl Choices {
    fn next(&mut self, bound: u64) -> u64 {
        self.0 = self.0.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
        (self.0 >> 33) % bound.max(1)
    }
}

/// Skips the names of a subtree that was not generated (so later names stay aligned).
fn count_names(node: &Node) -> usize {
    match node {
        Node::Object(properties) => properties.iter().map(|(child, _)| 1 + count_names(child)).sum(),
        Node::Array(item) | Node::Ref(item) => count_names(item),
        Node::AnyOf(branches) => branches.iter().map(count_names).sum(),
        _ => 0,
    }
}

/// An instance valid under the original schema, and the same with every omitted optional
/// property present as null.
fn instance(node: &Node, names: &mut Names, choices: &mut Choices) -> (Value, Value) {
    match node {
        Node::Str => {
            let v = json!(format!("s{}", choices.next(100)));
            (v.clone(), v)
        }
        Node::Int => {
            let v = json!(choices.next(1000) as i64 - 500);
            (v.clone(), v)
        }
        Node::Bool => {
            let v = json!(choices.next(2) == 1);
            (v.clone(), v)
        }
        Node::Enum(values) => {
            let v = json!(values[choices.next(values.len() as u64) as usize]);
            (v.clone(), v)
        }
        Node::Array(item) => {
            let start = names.at;
            let mut original = Vec::new();
            let mut filled = Vec::new();
            for _ in 0..choices.next(3) {
                names.at = start;
                let (o, f) = instance(item, names, choices);
                original.push(o);
                filled.push(f);
            }
            names.at = start + count_names(item);
            (Value::Array(original), Value::Array(filled))
        }
        Node::Object(properties) => {
            let mut original = Map::new();
            let mut filled = Map::new();
            for (child, required) in properties {
                let name = names.names[names.at].clone();
                names.at += 1;
                if *required || choices.next(2) == 1 {
                    let (o, f) = instance(child, names, choices);
                    original.insert(name.clone(), o);
                    filled.insert(name, f);
                } else {
                    names.at += count_names(child);
                    filled.insert(name, Value::Null);
                }
            }
            (Value::Object(original), Value::Object(filled))
        }
        Node::AnyOf(branches) => {
            let pick = choices.next(branches.len() as u64) as usize;
            let mut result = None;
            for (index, branch) in branches.iter().enumerate() {
                if index == pick {
                    result = Some(instance(branch, names, choices));
                } else {
                    names.at += count_names(branch);
                }
            }
            result.expect("a branch was picked")
        }
        Node::Ref(inner) => instance(inner, names, choices),
    }
}

fn valid(schema: &Value, instance: &Value) -> Result<(), String> {
    let validator = jsonschema::validator_for(schema).map_err(|e| format!("bad schema: {e}"))?;
    let errors: Vec<String> = validator.iter_errors(instance).map(|e| e.to_string()).collect();
    if errors.is_empty() {
        Ok(())
    } else {
        Err(errors.join("; "))
    }
}

fn arbitrary_json() -> impl Strategy<Value = Value> {
    let leaf = prop_oneof![
        Just(Value::Null),
        any::<bool>().prop_map(Value::Bool),
        any::<i32>().prop_map(|n| json!(n)),
        prop_oneof![
            Just("type"),
            Just("object"),
            Just("properties"),
            Just("required"),
            Just("anyOf"),
            Just("$ref"),
            Just("#/$defs/x"),
            Just("null"),
            Just("string")
        ]
        .prop_map(|s| json!(s)),
    ];
    leaf.prop_recursive(5, 60, 6, |inner| {
        prop_oneof![
            prop::collection::vec(inner.clone(), 0..4).prop_map(Value::Array),
            prop::collection::btree_map(
                prop_oneof![
                    Just("type".to_string()),
                    Just("properties".to_string()),
                    Just("required".to_string()),
                    Just("items".to_string()),
                    Just("anyOf".to_string()),
                    Just("oneOf".to_string()),
                    Just("$defs".to_string()),
                    Just("additionalProperties".to_string()),
                    "[a-z]{1,4}"
                ],
                inner,
                0..5
            )
            .prop_map(|m| Value::Object(m.into_iter().collect())),
        ]
    })
}

proptest! {
    #[test]
    fn strict_schemas_are_strict_and_accept_what_the_original_accepts(
        properties in prop::collection::vec((node(), any::<bool>()), 0..6),
        seeds in prop::collection::vec(any::<u64>(), 1..4),
    ) {
        let root = Node::Object(properties);
        let mut builder = Builder { next: 0, defs: Map::new() };
        let mut names = Vec::new();
        let mut schema = builder.schema(&root, &mut names);
        if !builder.defs.is_empty() {
            schema["$defs"] = Value::Object(builder.defs);
        }
        let strict = strict_schema(&schema).expect("generated schemas can be made strict");
        prop_assert!(is_strict(&strict), "not strict: {strict:#}");
        for seed in seeds {
            let (original, filled) = instance(&root, &mut Names { names: &names, at: 0 }, &mut Choices(seed));
            prop_assert_eq!(valid(&schema, &original), Ok(()), "generator: {} for {:#}", original, schema);
            prop_assert_eq!(valid(&strict, &filled), Ok(()), "{} under {:#}", filled, strict);
            let mut stripped = filled.clone();
            strip_optional_nulls(&mut stripped, &schema);
            prop_assert_eq!(&stripped, &original);
        }
    }

    #[test]
    fn strict_schema_never_panics(schema in arbitrary_json()) {
        if let Ok(strict) = strict_schema(&schema) {
            prop_assert!(is_strict(&strict) || !schema.is_object(), "{schema} → {strict}");
        }
        let mut value = schema.clone();
        strip_optional_nulls(&mut value, &schema);
    }

    #[test]
    fn parse_answer_never_panics(text in any::<String>()) {
        let _ = parse_answer(&text);
    }

    #[test]
    fn parse_answer_never_panics_on_json_like_text(text in "[{}\\[\\]\":,a-z0-9 `\n\\\\]{0,200}") {
        let _ = parse_answer(&text);
    }

    #[test]
    fn parse_answer_finds_an_object_in_prose(
        value in arbitrary_json().prop_filter("objects", Value::is_object),
        before in "[A-Za-z .:!\n]{0,40}",
        after in "[A-Za-z .:!\n]{0,40}",
        fence in any::<bool>(),
    ) {
        let body = if fence { format!("```json\n{value}\n```") } else { value.to_string() };
        prop_assert_eq!(parse_answer(&format!("{before}{body}{after}")), Ok(value));
    }
}
