//! Validating a person's answer against what was asked: required, type, regex, accept.
//!
//! A request is the JSON object a block hands to [`HumanInput::ask`](crate::HumanInput::ask):
//!
//! - form modes (`collect`, `mixed`, `inquire`): `{mode, message, requirements, context}`, where
//!   each requirement is `{id, type, label?, options?, required?, accept?, validation?: {regex}}`
//!   as in the `ui.interactive_input` spec;
//! - `confirm`: `{mode: "confirm", message, options}` (plus `context` when there is one).
//!
//! The answer is a flat object:
//!
//! - `collect`: `{<requirement id>: value, …, comment?}`;
//! - `mixed`: the same plus `approved` (required); when `approved` is false the form's required
//!   fields may stay empty (rejecting needs no form), but what is filled in is still checked;
//! - `inquire`: `{<requirement id>: value, comment?}` for the one requirement asked, or
//!   `{response}` (required free text) when the request has no requirements;
//! - `confirm`: `{approved, comment?}`; `comment` is required when `options.comment_required`.
//!
//! [`validate_answer`] returns the answer normalised (numbers as numbers, booleans as booleans,
//! every requirement id present, `null` for optional fields left empty); the keys `approved`,
//! `comment` and `response` keep their place. Validation is idempotent: a normalised answer
//! validates to itself.

use std::path::Path;

use serde::Serialize;
use serde_json::{Map, Value};

use crate::workdir::Workdir;

/// Why one field of an answer is not accepted.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct FieldError {
    /// The requirement id, or `approved`, `comment`, `response`; `answer` when the answer as a
    /// whole is wrong (not an object); an unknown key for unknown keys.
    pub field: String,
    pub message: String,
}

impl FieldError {
    fn new(field: &str, message: impl Into<String>) -> FieldError {
        FieldError { field: field.to_string(), message: message.into() }
    }
}

impl std::fmt::Display for FieldError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}: {}", self.field, self.message)
    }
}

/// The answer keys a plan's requirement ids may not use: they carry the approval, the comment
/// and the free-text answer.
pub const RESERVED_IDS: [&str; 3] = ["approved", "comment", "response"];

/// The request for a form mode (`collect`, `mixed`, `inquire`).
pub fn form_request(mode: &str, message: &str, requirements: Vec<Value>, context: Value) -> Value {
    let mut request = Map::new();
    request.insert("mode".into(), Value::from(mode));
    request.insert("message".into(), Value::from(message));
    request.insert("requirements".into(), Value::Array(requirements));
    request.insert("context".into(), context);
    Value::Object(request)
}

/// The request for an approval: `{mode: "confirm", message, options}`, plus `context` when given.
pub fn confirm_request(message: &str, options: Value, context: Option<Value>) -> Value {
    let mut request = Map::new();
    request.insert("mode".into(), Value::from("confirm"));
    request.insert("message".into(), Value::from(message));
    request.insert("options".into(), if options.is_null() { Value::Object(Map::new()) } else { options });
    if let Some(context) = context.filter(|c| !c.is_null()) {
        request.insert("context".into(), context);
    }
    Value::Object(request)
}

/// Checks `answer` against `request` and returns it normalised, or every problem found (the
/// approval, the requirements in order, the comment, the free-text response, unknown keys).
pub fn validate_answer(request: &Value, answer: &Value) -> Result<Value, Vec<FieldError>> {
    let mode = request.get("mode").and_then(Value::as_str).unwrap_or("collect");
    let Some(given) = answer.as_object() else {
        let expected = match mode {
            "confirm" => "{approved: true or false, comment?}",
            _ => "an object of field id to value",
        };
        return Err(vec![FieldError::new("answer", format!("the answer must be {expected}"))]);
    };
    let requirements: Vec<&Map<String, Value>> = if mode == "confirm" {
        Vec::new()
    } else {
        request
            .get("requirements")
            .and_then(Value::as_array)
            .into_iter()
            .flatten()
            .filter_map(Value::as_object)
            .collect()
    };

    let mut errors = Vec::new();
    let mut normal = Map::new();
    let mut known: Vec<&str> = Vec::new();

    // The approval first: whether the form's required fields must be filled depends on it.
    let approved = if matches!(mode, "confirm" | "mixed") {
        match given.get("approved") {
            None | Some(Value::Null) => {
                errors.push(FieldError::new("approved", "required: approve (true) or reject (false)"));
                None
            }
            Some(value) => match as_bool(value) {
                Some(b) => Some(b),
                None => {
                    errors.push(FieldError::new("approved", "must be true (approve) or false (reject)"));
                    None
                }
            },
        }
    } else {
        None
    };
    let rejecting = mode == "mixed" && approved == Some(false);

    for requirement in &requirements {
        let Some(id) = requirement.get("id").and_then(Value::as_str) else { continue };
        known.push(id);
        let required = requirement.get("required").and_then(Value::as_bool).unwrap_or(false) && !rejecting;
        let value = given.get(id).unwrap_or(&Value::Null);
        if is_empty(value) {
            if required {
                errors.push(FieldError::new(id, "required: fill in this field"));
            }
            normal.insert(id.to_string(), Value::Null);
            continue;
        }
        match check_value(requirement, value) {
            Ok(value) => {
                normal.insert(id.to_string(), value);
            }
            Err(message) => errors.push(FieldError::new(id, message)),
        }
    }

    if matches!(mode, "confirm" | "mixed") {
        known.push("approved");
    }
    if let Some(approved) = approved {
        normal.insert("approved".into(), Value::Bool(approved));
    }

    known.push("comment");
    let comment_required =
        mode == "confirm" && request.pointer("/options/comment_required").and_then(Value::as_bool).unwrap_or(false);
    match given.get("comment") {
        None | Some(Value::Null) => {
            if comment_required {
                errors.push(FieldError::new("comment", "required: write a comment"));
            }
        }
        Some(Value::String(text)) => {
            if comment_required && text.trim().is_empty() {
                errors.push(FieldError::new("comment", "required: write a comment"));
            } else {
                normal.insert("comment".into(), Value::String(text.clone()));
            }
        }
        Some(_) => errors.push(FieldError::new("comment", "must be text")),
    }

    if mode == "inquire" && requirements.is_empty() {
        known.push("response");
        match given.get("response") {
            Some(Value::String(text)) if !text.trim().is_empty() => {
                normal.insert("response".into(), Value::String(text.clone()));
            }
            Some(Value::String(_)) | None | Some(Value::Null) => {
                errors.push(FieldError::new("response", "required: write your answer"))
            }
            Some(_) => errors.push(FieldError::new("response", "must be text")),
        }
    }

    for key in given.keys() {
        if !known.contains(&key.as_str()) {
            errors.push(FieldError::new(key, format!("unknown field; the request asks for: {}", known.join(", "))));
        }
    }

    if errors.is_empty() {
        Ok(Value::Object(normal))
    } else {
        Err(errors)
    }
}

/// Checks that every file a validated answer names exists inside the work directory (as a
/// file). Paths are resolved like block inputs: relative to the work directory, never outside it.
pub fn check_files(request: &Value, answer: &Value, workdir: &Workdir) -> Result<(), Vec<FieldError>> {
    let mut errors = Vec::new();
    let requirements = request.get("requirements").and_then(Value::as_array).into_iter().flatten();
    for requirement in requirements {
        if requirement.get("type").and_then(Value::as_str) != Some("file") {
            continue;
        }
        let Some(id) = requirement.get("id").and_then(Value::as_str) else { continue };
        let Some(path) = answer.get(id).and_then(Value::as_str) else { continue };
        // Rebuilt from its components: `resolve` may leave a trailing separator on an existing
        // path, and `file.csv/` is not a file.
        match workdir.resolve(id, path).map(|p| p.components().collect::<std::path::PathBuf>()) {
            Ok(resolved) if resolved.is_file() => {}
            Ok(_) => errors.push(FieldError::new(id, format!("no file at {path:?} in the work directory"))),
            Err(e) => errors.push(FieldError::new(id, e.to_string())),
        }
    }
    if errors.is_empty() {
        Ok(())
    } else {
        Err(errors)
    }
}

/// Null, blank text, an empty list or object.
fn is_empty(value: &Value) -> bool {
    match value {
        Value::Null => true,
        Value::String(s) => s.trim().is_empty(),
        Value::Array(a) => a.is_empty(),
        Value::Object(o) => o.is_empty(),
        _ => false,
    }
}

/// The value normalised for the requirement's type, then checked against its regex.
fn check_value(requirement: &Map<String, Value>, value: &Value) -> Result<Value, String> {
    let kind = requirement.get("type").and_then(Value::as_str).unwrap_or("text");
    let normal = match kind {
        "text" => match value {
            Value::String(_) => value.clone(),
            Value::Number(n) => Value::String(n.to_string()),
            _ => return Err("must be text".into()),
        },
        "number" => match value {
            Value::Number(_) => value.clone(),
            Value::String(s) => parse_number(s).ok_or_else(|| format!("{s:?} is not a number"))?,
            _ => return Err("must be a number".into()),
        },
        "boolean" => Value::Bool(as_bool(value).ok_or("must be yes or no (true/false, はい/いいえ)")?),
        "select" | "enum" => {
            let text = match value {
                Value::String(s) => s.clone(),
                Value::Number(n) => n.to_string(),
                _ => return Err("must be one of the options".into()),
            };
            let options: Vec<String> = requirement
                .get("options")
                .and_then(Value::as_array)
                .into_iter()
                .flatten()
                .filter_map(|o| match o {
                    Value::String(s) => Some(s.clone()),
                    Value::Number(_) | Value::Bool(_) => Some(o.to_string()),
                    _ => None,
                })
                .collect();
            if !options.is_empty() && !options.contains(&text) {
                return Err(format!("{text:?} is not one of the options: {}", options.join(", ")));
            }
            Value::String(text)
        }
        "file" => {
            let Value::String(path) = value else { return Err("must be a file path".into()) };
            if let Some(accept) = requirement.get("accept").and_then(Value::as_str) {
                check_extension(path, accept)?;
            }
            value.clone()
        }
        "table" => {
            let Value::Array(rows) = value else { return Err("must be a list of rows (objects)".into()) };
            if let Some(i) = rows.iter().position(|r| !r.is_object()) {
                return Err(format!("row {} is not an object of column to value", i + 1));
            }
            value.clone()
        }
        // Types the catalog does not know are taken as they are.
        _ => value.clone(),
    };
    if let Some(pattern) = requirement.get("validation").and_then(|v| v.get("regex")).and_then(Value::as_str) {
        let text = match (kind, &normal, value) {
            // A number is matched as the person typed it.
            ("number", _, Value::String(s)) => Some(s.trim().to_string()),
            (_, Value::String(s), _) => Some(s.clone()),
            (_, Value::Number(n), _) => Some(n.to_string()),
            _ => None,
        };
        if let Some(text) = text {
            let regex = regex::Regex::new(&format!("^(?:{pattern})$"))
                .map_err(|e| format!("the plan's regex for this field is invalid ({pattern:?}): {}", first_line(&e)))?;
            if !regex.is_match(&text) {
                return Err(format!("{text:?} does not match the expected format {pattern}"));
            }
        }
    }
    Ok(normal)
}

fn first_line(error: &regex::Error) -> String {
    let text = error.to_string();
    text.lines()
        .rev()
        .find(|l| l.trim_start().starts_with("error:"))
        .unwrap_or(text.lines().next().unwrap_or(""))
        .trim()
        .to_string()
}

/// `true`/`false`, or text meaning yes or no.
fn as_bool(value: &Value) -> Option<bool> {
    match value {
        Value::Bool(b) => Some(*b),
        Value::String(s) => match s.trim().to_lowercase().as_str() {
            "true" | "yes" | "はい" => Some(true),
            "false" | "no" | "いいえ" => Some(false),
            _ => None,
        },
        _ => None,
    }
}

/// A number typed as text: full-width digits and thousands separators are accepted
/// (`１２３`, `1,234,567.5`). Whole numbers become integers.
fn parse_number(text: &str) -> Option<Value> {
    let ascii: String = text
        .trim()
        .chars()
        .map(|c| match c {
            '０'..='９' => char::from_u32(c as u32 - '０' as u32 + '0' as u32).unwrap_or(c),
            '．' => '.',
            '，' => ',',
            '－' | '−' => '-',
            '＋' => '+',
            other => other,
        })
        .collect();
    let plain = if ascii.contains(',') {
        let grouped = regex::Regex::new(r"^[+-]?\d{1,3}(,\d{3})+(\.\d+)?$").ok()?;
        if !grouped.is_match(&ascii) {
            return None;
        }
        ascii.replace(',', "")
    } else {
        ascii
    };
    if plain.is_empty() || !plain.chars().all(|c| c.is_ascii_digit() || matches!(c, '.' | '-' | '+' | 'e' | 'E')) {
        return None;
    }
    if let Ok(i) = plain.parse::<i64>() {
        return Some(Value::from(i));
    }
    let f: f64 = plain.parse().ok()?;
    serde_json::Number::from_f64(f).map(Value::Number)
}

/// `accept` is a comma-separated list of extensions (`.csv,.xlsx`; the dot is optional).
fn check_extension(path: &str, accept: &str) -> Result<(), String> {
    let allowed: Vec<String> = accept
        .split(',')
        .map(|e| e.trim().trim_start_matches('.').to_lowercase())
        .filter(|e| !e.is_empty() && e != "*")
        .collect();
    if allowed.is_empty() {
        return Ok(());
    }
    let extension = Path::new(path).extension().and_then(|e| e.to_str()).map(str::to_lowercase);
    match extension {
        Some(ext) if allowed.contains(&ext) => Ok(()),
        _ => Err(format!(
            "{path:?} is not an accepted file type; accepted: {}",
            allowed.iter().map(|e| format!(".{e}")).collect::<Vec<_>>().join(", ")
        )),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn err(field: &str, message: &str) -> FieldError {
        FieldError { field: field.into(), message: message.into() }
    }

    fn collect(requirements: Value) -> Value {
        let Value::Array(list) = requirements else { panic!("a list") };
        form_request("collect", "Fill in the form", list, json!({}))
    }

    #[test]
    fn request_shapes() {
        let request = form_request("mixed", "Check", vec![json!({"id": "a", "type": "text"})], json!({"total": 3}));
        assert_eq!(
            request,
            json!({"mode": "mixed", "message": "Check", "requirements": [{"id": "a", "type": "text"}], "context": {"total": 3}})
        );
        let request = confirm_request("Send?", json!({"approve_label": "Send"}), None);
        assert_eq!(request, json!({"mode": "confirm", "message": "Send?", "options": {"approve_label": "Send"}}));
        let request = confirm_request("Send?", Value::Null, Some(json!({"rows": 2})));
        assert_eq!(request, json!({"mode": "confirm", "message": "Send?", "options": {}, "context": {"rows": 2}}));
    }

    #[test]
    fn files_must_exist_inside_the_work_directory() {
        let dir = tempfile::tempdir().unwrap();
        std::fs::create_dir(dir.path().join("in")).unwrap();
        std::fs::write(dir.path().join("in/statement.csv"), "a,b\n").unwrap();
        let workdir = Workdir::new(dir.path()).unwrap();
        let request = collect(json!([
            {"id": "statement", "type": "file", "accept": ".csv"},
            {"id": "other", "type": "file"},
            {"id": "note", "type": "text"},
        ]));
        let answer = validate_answer(&request, &json!({"statement": "in/statement.csv", "note": "x.csv"})).unwrap();
        assert_eq!(check_files(&request, &answer, &workdir), Ok(()));

        let answer = validate_answer(&request, &json!({"statement": "in/missing.csv", "other": "in"})).unwrap();
        assert_eq!(
            check_files(&request, &answer, &workdir),
            Err(vec![
                err("statement", "no file at \"in/missing.csv\" in the work directory"),
                err("other", "no file at \"in\" in the work directory"),
            ])
        );
        let answer = validate_answer(&request, &json!({"other": "../../etc/passwd"})).unwrap();
        let errors = check_files(&request, &answer, &workdir).unwrap_err();
        assert_eq!(errors.len(), 1);
        assert_eq!(errors[0].field, "other");
        assert!(errors[0].message.contains("work directory"), "{}", errors[0].message);
    }

    #[test]
    fn numbers_typed_as_text() {
        assert_eq!(parse_number(" 42 "), Some(Value::from(42)));
        assert_eq!(parse_number("１２３"), Some(Value::from(123)));
        assert_eq!(parse_number("1,234,567.5"), Some(Value::from(1234567.5)));
        assert_eq!(parse_number("-3.25"), Some(Value::from(-3.25)));
        assert_eq!(parse_number("1,23"), None);
        assert_eq!(parse_number("12abc"), None);
        assert_eq!(parse_number("inf"), None);
        assert_eq!(parse_number("NaN"), None);
    }

    #[test]
    fn extensions() {
        assert!(check_extension("a/b.CSV", ".csv,.xlsx").is_ok());
        assert!(check_extension("b.xlsx", "csv, xlsx").is_ok());
        assert!(check_extension("b.pdf", ".csv,.xlsx").is_err());
        assert!(check_extension("noext", ".csv").is_err());
        assert!(check_extension("any.pdf", "").is_ok());
    }
}
