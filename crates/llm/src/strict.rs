//! Making a JSON Schema acceptable to strict structured output — every object closed, every
//! property required, the optional ones nullable — and undoing the nulls afterwards.
//!
//! `oneOf` becomes `anyOf` (strict mode knows only the latter) and `format`s the servers do not
//! support are dropped; both only widen what validates, so an answer the original schema
//! accepts is still accepted. Objects with free-form keys (a map, `patternProperties`, an
//! object without properties) cannot be closed without refusing every key: [`strict_schema`]
//! refuses them with [`StrictError`], and [`crate::structured`] then asks with the schema as
//! given, `strict: false`, still validating locally.

use schemars::JsonSchema;
use serde_json::{json, Map, Value};

/// Schemas and answers nest at most this deep (the plan format's own bound).
const MAX_DEPTH: usize = 128;

/// `format` values strict structured output supports; others are dropped.
const FORMATS: [&str; 9] = ["date-time", "time", "date", "duration", "email", "hostname", "ipv4", "ipv6", "uuid"];

/// Why a schema cannot be made strict, and where (a JSON pointer into the schema).
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
#[error("the schema cannot be made strict at {pointer}: {reason}")]
pub struct StrictError {
    pub pointer: String,
    pub reason: String,
}

/// The strict-compatible form of `schema` (see the module docs).
pub fn strict_schema(schema: &Value) -> Result<Value, StrictError> {
    let mut strict = schema.clone();
    if let Value::Object(root) = &mut strict {
        root.remove("$schema");
    }
    make_strict(&mut strict, String::new(), 0)?;
    Ok(strict)
}

/// The strict-compatible schema of a Rust type (schemars), through [`strict_schema`].
pub fn schema_for<T: JsonSchema>() -> Result<Value, StrictError> {
    let schema = serde_json::to_value(schemars::schema_for!(T)).expect("a schemars schema is JSON");
    strict_schema(&schema)
}

fn fail(pointer: &str, reason: &str) -> StrictError {
    StrictError { pointer: if pointer.is_empty() { "/".into() } else { pointer.to_string() }, reason: reason.into() }
}

fn is_object_schema(schema: &Map<String, Value>) -> bool {
    match schema.get("type") {
        Some(Value::String(t)) => t == "object",
        Some(Value::Array(types)) => types.iter().any(|t| t == "object"),
        _ => schema.contains_key("properties"),
    }
}

fn make_strict(node: &mut Value, pointer: String, depth: usize) -> Result<(), StrictError> {
    if depth > MAX_DEPTH {
        return Err(fail(&pointer, "nested deeper than 128 levels"));
    }
    let schema = match node {
        Value::Bool(true) => return Err(fail(&pointer, "accepts any value, so its objects cannot be closed")),
        Value::Object(schema) => schema,
        _ => return Ok(()),
    };
    if schema.get("format").and_then(Value::as_str).is_some_and(|f| !FORMATS.contains(&f)) {
        schema.remove("format");
    }
    one_of_to_any_of(schema);
    if is_object_schema(schema) {
        if schema.contains_key("patternProperties") {
            return Err(fail(&pointer, "patternProperties: keys are free-form; list the properties instead"));
        }
        let closed = schema.get("additionalProperties") == Some(&Value::Bool(false));
        match schema.get("properties") {
            None if !closed => {
                return Err(fail(&pointer, "an object without listed properties (a map); use an array of {key, value}"))
            }
            Some(_) if schema.get("additionalProperties").is_some_and(Value::is_object) => {
                return Err(fail(&pointer, "additionalProperties with a schema: keys are free-form"))
            }
            _ => {}
        }
        let required: Vec<String> = schema
            .get("required")
            .and_then(Value::as_array)
            .map(|r| r.iter().filter_map(|k| k.as_str().map(str::to_string)).collect())
            .unwrap_or_default();
        let mut all = Vec::new();
        if let Some(Value::Object(properties)) = schema.get_mut("properties") {
            for (name, property) in properties.iter_mut() {
                if !required.contains(name) {
                    make_nullable(property);
                }
                all.push(Value::String(name.clone()));
            }
        }
        schema.insert("additionalProperties".into(), Value::Bool(false));
        schema.insert("required".into(), Value::Array(all));
    }
    for (key, child) in schema.iter_mut() {
        let here = format!("{pointer}/{key}");
        match (key.as_str(), child) {
            ("properties" | "$defs" | "definitions", Value::Object(children)) => {
                for (name, child) in children.iter_mut() {
                    make_strict(child, format!("{here}/{}", escape(name)), depth + 1)?;
                }
            }
            ("items", child @ Value::Object(_)) => make_strict(child, here, depth + 1)?,
            ("items" | "prefixItems" | "anyOf" | "allOf", Value::Array(children)) => {
                for (index, child) in children.iter_mut().enumerate() {
                    make_strict(child, format!("{here}/{index}"), depth + 1)?;
                }
            }
            _ => {}
        }
    }
    Ok(())
}

/// `oneOf` as `anyOf`. When the schema has an `anyOf` already, both must hold, so the `oneOf`
/// joins `allOf` as an `anyOf` of its own.
fn one_of_to_any_of(schema: &mut Map<String, Value>) {
    let Some(one_of) = schema.remove("oneOf") else { return };
    if !schema.contains_key("anyOf") {
        schema.insert("anyOf".into(), one_of);
        return;
    }
    let branch = json!({ "anyOf": one_of });
    match schema.get_mut("allOf") {
        Some(Value::Array(all_of)) => all_of.push(branch),
        Some(other) => *other = json!([std::mem::take(other), branch]),
        None => {
            schema.insert("allOf".into(), json!([branch]));
        }
    }
}

fn escape(name: &str) -> String {
    name.replace('~', "~0").replace('/', "~1")
}

fn is_nullable(schema: &Map<String, Value>) -> bool {
    let null_type = |t: &Value| t == "null";
    match schema.get("type") {
        Some(Value::String(t)) if t == "null" => return true,
        Some(Value::Array(types)) if types.iter().any(null_type) => return true,
        _ => {}
    }
    schema.get("anyOf").and_then(Value::as_array).is_some_and(|branches| {
        branches.iter().any(|b| b.as_object().is_some_and(is_nullable) || b == &Value::Bool(true))
    }) || schema.get("const") == Some(&Value::Null)
}

/// Lets `schema` also accept `null`, in the forms strict mode understands.
fn make_nullable(node: &mut Value) {
    let Value::Object(schema) = node else { return };
    one_of_to_any_of(schema);
    if is_nullable(schema) {
        return;
    }
    let has_ref = schema.contains_key("$ref");
    let simple_type = !has_ref && !schema.contains_key("const") && !schema.contains_key("allOf");
    match schema.get_mut("type") {
        Some(Value::String(t)) if simple_type => {
            let t = std::mem::take(t);
            schema.insert("type".into(), json!([t, "null"]));
            if let Some(Value::Array(values)) = schema.get_mut("enum") {
                values.push(Value::Null);
            }
        }
        Some(Value::Array(types)) if simple_type => {
            types.push(json!("null"));
            if let Some(Value::Array(values)) = schema.get_mut("enum") {
                values.push(Value::Null);
            }
        }
        _ => match schema.get_mut("anyOf") {
            Some(Value::Array(branches)) if !has_ref => branches.push(json!({"type": "null"})),
            _ => {
                // `$ref`, `const`, `allOf` or no type: keep the schema whole as one branch.
                let inner = std::mem::take(schema);
                schema.insert("anyOf".into(), json!([Value::Object(inner), {"type": "null"}]));
            }
        },
    }
}

/// True when every object in `schema` is closed and requires all its properties.
pub fn is_strict(schema: &Value) -> bool {
    fn walk(node: &Value, depth: usize) -> bool {
        if depth > MAX_DEPTH {
            return false;
        }
        let schema = match node {
            Value::Bool(value) => return !value,
            Value::Object(schema) => schema,
            _ => return true,
        };
        if is_object_schema(schema) {
            if schema.get("additionalProperties") != Some(&Value::Bool(false))
                || schema.contains_key("patternProperties")
            {
                return false;
            }
            let required: Vec<&str> = schema
                .get("required")
                .and_then(Value::as_array)
                .map(|r| r.iter().filter_map(Value::as_str).collect())
                .unwrap_or_default();
            if let Some(Value::Object(properties)) = schema.get("properties") {
                if properties.keys().any(|k| !required.contains(&k.as_str())) {
                    return false;
                }
            }
        }
        schema.iter().all(|(key, child)| match (key.as_str(), child) {
            ("properties" | "$defs" | "definitions", Value::Object(children)) => {
                children.values().all(|c| walk(c, depth + 1))
            }
            ("items", child @ Value::Object(_)) => walk(child, depth + 1),
            ("items" | "prefixItems" | "anyOf" | "allOf" | "oneOf", Value::Array(children)) => {
                children.iter().all(|c| walk(c, depth + 1))
            }
            _ => true,
        })
    }
    walk(schema, 0)
}

/// Removes, from an answer valid under the strict form of `original`, the nulls of properties
/// `original` did not require — so the result is what `original` expects.
pub fn strip_optional_nulls(value: &mut Value, original: &Value) {
    strip(value, original, original, 0);
}

fn strip(value: &mut Value, schema: &Value, root: &Value, depth: usize) {
    if depth > MAX_DEPTH {
        return;
    }
    let mut branches = Vec::new();
    flatten(schema, root, &mut branches, 0);
    match value {
        Value::Object(object) => {
            let optional_everywhere = |key: &str| {
                let declaring: Vec<&&Map<String, Value>> =
                    branches.iter().filter(|b| b.get("properties").and_then(|p| p.get(key)).is_some()).collect();
                !declaring.is_empty()
                    && declaring.iter().all(|b| {
                        !b.get("required").and_then(Value::as_array).is_some_and(|r| r.iter().any(|k| k == key))
                    })
            };
            object.retain(|key, v| !(v.is_null() && optional_everywhere(key)));
            for (key, child) in object.iter_mut() {
                for branch in &branches {
                    if let Some(property) = branch.get("properties").and_then(|p| p.get(key)) {
                        strip(child, property, root, depth + 1);
                    }
                }
            }
        }
        Value::Array(items) => {
            for (index, item) in items.iter_mut().enumerate() {
                for branch in &branches {
                    if let Some(prefix) = branch.get("prefixItems").and_then(|p| p.get(index)) {
                        strip(item, prefix, root, depth + 1);
                    } else if let Some(items_schema @ Value::Object(_)) = branch.get("items") {
                        strip(item, items_schema, root, depth + 1);
                    }
                }
            }
        }
        _ => {}
    }
}

/// The object schemas `schema` stands for: itself, what its `$ref` points to, its
/// `anyOf`/`oneOf`/`allOf` branches.
fn flatten<'a>(schema: &'a Value, root: &'a Value, out: &mut Vec<&'a Map<String, Value>>, depth: usize) {
    let Value::Object(map) = schema else { return };
    if depth > MAX_DEPTH {
        return;
    }
    out.push(map);
    if let Some(target) =
        map.get("$ref").and_then(Value::as_str).and_then(|r| r.strip_prefix('#')).and_then(|p| root.pointer(p))
    {
        flatten(target, root, out, depth + 1);
    }
    for key in ["anyOf", "oneOf", "allOf"] {
        for branch in map.get(key).and_then(Value::as_array).into_iter().flatten() {
            flatten(branch, root, out, depth + 1);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn closes_objects_and_makes_optional_properties_nullable() {
        let schema = json!({
            "$schema": "https://json-schema.org/draft/2020-12/schema",
            "type": "object",
            "properties": {
                "name": {"type": "string"},
                "age": {"type": "integer", "format": "uint32", "minimum": 0},
                "kind": {"type": "string", "enum": ["a", "b"]},
                "child": {"$ref": "#/$defs/Child"},
                "either": {"oneOf": [{"type": "string"}, {"type": "number"}]}
            },
            "required": ["name"],
            "$defs": {"Child": {"type": "object", "properties": {"x": {"type": "boolean"}}}}
        });
        let strict = strict_schema(&schema).unwrap();
        assert!(is_strict(&strict));
        assert!(strict.get("$schema").is_none());
        assert_eq!(strict["required"], json!(["name", "age", "kind", "child", "either"]));
        assert_eq!(strict["properties"]["age"], json!({"type": ["integer", "null"], "minimum": 0}));
        assert_eq!(strict["properties"]["kind"]["enum"], json!(["a", "b", null]));
        assert_eq!(strict["properties"]["child"], json!({"anyOf": [{"$ref": "#/$defs/Child"}, {"type": "null"}]}));
        assert_eq!(strict["properties"]["either"]["anyOf"][2], json!({"type": "null"}));
        assert_eq!(strict["$defs"]["Child"]["additionalProperties"], false);
        assert_eq!(strict["$defs"]["Child"]["properties"]["x"]["type"], json!(["boolean", "null"]));
    }

    #[test]
    fn refuses_free_form_objects() {
        let map = json!({"type": "object", "additionalProperties": {"type": "string"}});
        assert_eq!(strict_schema(&map).unwrap_err().pointer, "/");
        let nested = json!({"type": "object", "properties": {"data": true}});
        assert_eq!(strict_schema(&nested).unwrap_err().pointer, "/properties/data");
        assert!(!is_strict(&map));
    }

    #[test]
    fn one_of_beside_any_of_is_kept_as_a_constraint_and_made_strict() {
        // Found by the property test on a clean machine: the `oneOf` was left unwalked.
        assert!(strict_schema(&json!({"anyOf": null, "oneOf": [true]})).is_err(), "`true` cannot be closed");
        let both = json!({"anyOf": [{"type": "string"}, {"type": "integer"}], "oneOf": [{"type": "object", "properties": {"a": {"type": "string"}}}]});
        let strict = strict_schema(&both).unwrap();
        assert!(is_strict(&strict), "{strict:#}");
        assert!(strict.get("oneOf").is_none(), "strict mode knows only anyOf: {strict:#}");
        assert_eq!(strict["allOf"][0]["anyOf"][0]["additionalProperties"], false);
    }

    #[test]
    fn strips_nulls_of_optional_properties_only() {
        let schema = json!({"type": "object", "properties": {
            "a": {"type": "string"}, "b": {"type": "string"},
            "list": {"type": "array", "items": {"$ref": "#/$defs/I"}}},
            "required": ["a"],
            "$defs": {"I": {"type": "object", "properties": {"n": {"type": "integer"}, "m": {"type": "null"}}, "required": ["m"]}}});
        let mut answer = json!({"a": null, "b": null, "list": [{"n": null, "m": null}]});
        strip_optional_nulls(&mut answer, &schema);
        assert_eq!(answer, json!({"a": null, "list": [{"m": null}]}));
    }

    #[test]
    fn schemas_from_rust_types() {
        #[derive(JsonSchema)]
        #[allow(dead_code)]
        struct Answer {
            title: String,
            score: Option<f64>,
            tags: Vec<Tag>,
        }
        #[derive(JsonSchema)]
        #[allow(dead_code)]
        enum Tag {
            Red,
            Blue,
        }
        let strict = schema_for::<Answer>().unwrap();
        assert!(is_strict(&strict), "{strict:#}");
        assert_eq!(strict["required"], json!(["title", "score", "tags"]));
    }
}
