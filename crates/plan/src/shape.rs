//! The shape check: the document against the schema generated from the model, turned into
//! findings that say what is wrong and what would be right (unknown keys get "did you mean").

use std::sync::OnceLock;

use jsonschema::error::ValidationErrorKind;
use jsonschema::ValidationError;
use serde_json::Value;

use crate::finding::{Code, Finding};
use crate::reference::escape_pointer;
use crate::schema::plan_schema;
use crate::suggest::{closest, did_you_mean};

struct Checker {
    schema: Value,
    validator: jsonschema::Validator,
}

fn checker() -> &'static Checker {
    static CHECKER: OnceLock<Checker> = OnceLock::new();
    CHECKER.get_or_init(|| {
        let schema = plan_schema();
        let validator =
            jsonschema::draft7::new(&schema).unwrap_or_else(|e| panic!("the generated plan schema is invalid: {e}"));
        Checker { schema, validator }
    })
}

/// Every shape problem of `document`, one finding each.
pub fn check_shape(document: &Value) -> Vec<Finding> {
    let checker = checker();
    let mut findings = Vec::new();
    for error in checker.validator.iter_errors(document) {
        findings.extend(to_findings(&checker.schema, &error));
    }
    findings.sort_by(|a, b| a.path.cmp(&b.path).then(a.code.cmp(&b.code)));
    findings.dedup_by(|a, b| a.path == b.path && a.code == b.code && a.message == b.message);
    findings
}

fn to_findings(schema: &Value, error: &ValidationError<'_>) -> Vec<Finding> {
    let path = error.instance_path().as_str().to_owned();
    let schema_path = error.schema_path().as_str();
    let here = describe(&path);
    match error.kind() {
        ValidationErrorKind::AdditionalProperties { unexpected } => {
            let allowed = allowed_keys(schema, schema_path);
            unexpected
                .iter()
                .map(|key| {
                    let candidates = closest(key, allowed.iter().map(String::as_str));
                    let message = format!("unknown key `{key}`{}", did_you_mean(&candidates));
                    Finding::error(Code::UnknownKey, format!("{path}/{}", escape_pointer(key)), message)
                        .hint(format!("allowed keys here: {}", allowed.join(", ")))
                        .candidates(candidates)
                })
                .collect()
        }
        ValidationErrorKind::Required { property } => {
            let name = property.as_str().unwrap_or_default();
            vec![Finding::error(
                Code::MissingField,
                format!("{path}/{}", escape_pointer(name)),
                format!("{here} has no `{name}`, which is required"),
            )
            .hint(required_hint(&path, name))]
        }
        ValidationErrorKind::Type { kind } => {
            let expected = format!("{kind:?}").to_lowercase().replace("single(", "").replace(')', "");
            let hint = match expected.as_str() {
                "array" => format!(
                    "write a list, e.g. `[{}]` or one `- item` per line",
                    error.instance().as_str().unwrap_or("…")
                ),
                "object" => "write a mapping of `key: value` lines".to_owned(),
                "integer" => "write a whole number without quotes".to_owned(),
                other => format!("write {}", article(other)),
            };
            vec![Finding::error(
                Code::InvalidType,
                path.clone(),
                format!("{here} must be {}, not {}", article(&expected), type_name(error.instance())),
            )
            .hint(hint)]
        }
        ValidationErrorKind::Constant { expected_value } if path == "/apiVersion" => vec![Finding::error(
            Code::UnsupportedApiVersion,
            path.clone(),
            format!("apiVersion {} is not supported by this version of Planwright", error.instance()),
        )
        .hint(format!("write `apiVersion: {}`", expected_value.as_str().unwrap_or_default()))
        .candidates(vec![expected_value.as_str().unwrap_or_default().to_owned()])],
        ValidationErrorKind::Enum { options } => {
            let names: Vec<String> =
                options.as_array().into_iter().flatten().filter_map(|o| o.as_str()).map(str::to_owned).collect();
            let given = error.instance().as_str().unwrap_or_default();
            let close = closest(given, names.iter().map(String::as_str));
            vec![Finding::error(
                Code::InvalidValue,
                path.clone(),
                format!("{} is not a valid value for {here}{}", error.instance(), did_you_mean(&close)),
            )
            .hint(format!("one of: {}", names.join(", ")))
            .candidates(if close.is_empty() { names } else { close })]
        }
        ValidationErrorKind::Pattern { .. }
        | ValidationErrorKind::MaxLength { .. }
        | ValidationErrorKind::MinLength { .. } => {
            vec![Finding::error(
                Code::InvalidValue,
                path.clone(),
                format!("{} is not a valid {here}", error.instance()),
            )
            .hint(format_hint(&path))]
        }
        ValidationErrorKind::PropertyNames { error } => {
            let key = error.instance().as_str().unwrap_or_default().to_owned();
            vec![Finding::error(
                Code::InvalidValue,
                format!("{path}/{}", escape_pointer(&key)),
                format!("`{key}` cannot be a name here: references could not reach it"),
            )
            .hint(format_hint(&path))]
        }
        ValidationErrorKind::AnyOf { context } | ValidationErrorKind::OneOfNotValid { context } => {
            // Report the alternative that came closest: the one with the fewest errors.
            context
                .iter()
                .min_by_key(|errors| errors.len())
                .into_iter()
                .flatten()
                .flat_map(|e| to_findings(schema, e))
                .collect()
        }
        _ => vec![Finding::error(Code::InvalidValue, path.clone(), format!("{here}: {error}"))],
    }
}

/// The property names allowed by the object schema whose `additionalProperties` failed.
fn allowed_keys(schema: &Value, schema_path: &str) -> Vec<String> {
    let object_path = schema_path.strip_suffix("/additionalProperties").unwrap_or(schema_path);
    schema
        .pointer(&format!("{object_path}/properties"))
        .and_then(Value::as_object)
        .map(|props| props.keys().cloned().collect())
        .unwrap_or_default()
}

/// A short name for what `path` points at: "`retries`", "item 2 of `after`", "the plan".
fn describe(path: &str) -> String {
    let unescape = |s: &str| s.replace("~1", "/").replace("~0", "~");
    let mut segments = path.rsplit('/');
    match (segments.next(), segments.next()) {
        (Some(last), Some(parent)) if last.parse::<usize>().is_ok() && !parent.is_empty() => {
            format!("item {} of `{}`", last, unescape(parent))
        }
        (Some(last), _) if !last.is_empty() => format!("`{}`", unescape(last)),
        _ => "the plan".into(),
    }
}

fn article(kind: &str) -> String {
    match kind.chars().next() {
        Some('a' | 'e' | 'i' | 'o' | 'u') => format!("an {kind}"),
        _ => format!("a {kind}"),
    }
}

fn type_name(value: &Value) -> String {
    match value {
        Value::Null => "null (empty)".into(),
        Value::Bool(b) => format!("the boolean {b}"),
        Value::Number(n) => format!("the number {n}"),
        Value::String(s) => format!("the string {s:?}"),
        Value::Array(_) => "a list".into(),
        Value::Object(_) => "a mapping".into(),
    }
}

fn required_hint(path: &str, name: &str) -> String {
    match name {
        "apiVersion" => format!("add `apiVersion: {}`", crate::API_VERSION),
        "id" if path.is_empty() => "add an `id`: lower-case letters, digits, `_` and `-`".into(),
        "id" => {
            "add an `id` that other nodes can reference: letters, digits, `_` and `-`, starting with a letter".into()
        }
        "version" => "add `version: 1.0.0`".into(),
        "graph" => "add `graph:` with the list of nodes".into(),
        "max_iterations" => "bound the loop: add `max_iterations: 10` (or what the job needs)".into(),
        "expr" => "write the condition as `expr: ${node.alias} == 'value'`".into(),
        "input" => "say what to iterate: `input: ${node.rows}` or a literal list".into(),
        "plan_id" => "name the registered plan to call: `plan_id: my_subplan`".into(),
        other => format!("add `{other}`"),
    }
}

fn format_hint(path: &str) -> String {
    if path == "/id" {
        "a plan id is lower-case letters, digits, `_` and `-`, starting with a letter or digit, at most 64 characters"
            .into()
    } else if path == "/version" {
        "a version is semantic: `1.0.0`".into()
    } else {
        "names are letters, digits, `_` and `-`, starting with a letter or `_`, at most 64 characters".into()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn plan(graph: Value) -> Value {
        json!({"apiVersion": "planwright/v1", "id": "p", "version": "1.0.0", "graph": graph})
    }

    #[test]
    fn a_valid_shape_has_no_findings() {
        assert!(check_shape(&plan(json!([{"id": "a", "block": "x.y", "in": {"k": [1, {"z": 2}]}}]))).is_empty());
    }

    #[test]
    fn unknown_keys_say_did_you_mean() {
        let findings = check_shape(&plan(json!([{"id": "a", "blok": "x.y"}])));
        assert_eq!(findings.len(), 1);
        assert_eq!(findings[0].code, Code::UnknownKey);
        assert_eq!(findings[0].path, "/graph/0/blok");
        assert_eq!(findings[0].candidates, vec!["block"]);
        assert!(findings[0].message.contains("did you mean `block`"), "{}", findings[0].message);
    }

    #[test]
    fn unknown_keys_inside_loop_bodies_and_policies() {
        let findings = check_shape(&plan(json!([{
            "id": "l", "foreach": {"input": [1], "item_var": "x", "max_concurency": 2},
            "body": {"plan": {"graph": [{"id": "b", "block": "x.y", "polcy": {}}]}},
            "policy": {"on_eror": "halt"}
        }])));
        let paths: Vec<&str> = findings.iter().map(|f| f.path.as_str()).collect();
        assert_eq!(
            paths,
            vec!["/graph/0/body/plan/graph/0/polcy", "/graph/0/foreach/max_concurency", "/graph/0/policy/on_eror"]
        );
        assert!(findings.iter().all(|f| f.code == Code::UnknownKey && !f.candidates.is_empty()));
    }

    #[test]
    fn missing_required_fields() {
        let findings = check_shape(&json!({"graph": [{"block": "x.y", "while": {"condition": {"expr": "true"}}}]}));
        let got: Vec<(&str, Code)> = findings.iter().map(|f| (f.path.as_str(), f.code)).collect();
        assert_eq!(
            got,
            vec![
                ("/apiVersion", Code::MissingField),
                ("/graph/0/id", Code::MissingField),
                ("/graph/0/while/max_iterations", Code::MissingField),
                ("/id", Code::MissingField),
                ("/version", Code::MissingField),
            ]
        );
    }

    #[test]
    fn var_and_secret_names_must_be_reachable() {
        let mut doc = plan(json!([]));
        doc["vars"] = json!({"ok_name": 1, "bad name": 2});
        doc["secrets"] = json!(["API-KEY"]);
        let findings = check_shape(&doc);
        let got: Vec<(&str, Code)> = findings.iter().map(|f| (f.path.as_str(), f.code)).collect();
        assert_eq!(got, vec![("/secrets/0", Code::InvalidValue), ("/vars/bad name", Code::InvalidValue)]);
    }

    #[test]
    fn wrong_values_and_types() {
        let mut doc = plan(json!([{"id": "a b", "block": "x.y", "policy": {"on_error": "stop", "retries": "three"}}]));
        doc["apiVersion"] = json!("planwright/v9");
        doc["id"] = json!("Bad Id");
        let findings = check_shape(&doc);
        let got: Vec<(&str, Code)> = findings.iter().map(|f| (f.path.as_str(), f.code)).collect();
        assert_eq!(
            got,
            vec![
                ("/apiVersion", Code::UnsupportedApiVersion),
                ("/graph/0/id", Code::InvalidValue),
                ("/graph/0/policy/on_error", Code::InvalidValue),
                ("/graph/0/policy/retries", Code::InvalidType),
                ("/id", Code::InvalidValue),
            ]
        );
        let on_error = &findings[2];
        assert!(on_error.hint.as_deref().unwrap().contains("halt, continue, retry"), "{:?}", on_error.hint);
    }
}
