//! Validating a person's answer against what was asked ([`InputRequest`]): required, type,
//! options, regex, accept.
//!
//! The answer (a person's or a tool's, as JSON) is a flat object:
//!
//! - `collect`: `{<requirement id>: value, …, comment?}`;
//! - `mixed`: the same plus `approved` (required); when `approved` is false the form's required
//!   fields may stay empty (rejecting needs no form), but what is filled in is still checked;
//! - `inquire`: `{<requirement id>: value, comment?}` for the one requirement asked, or
//!   `{response}` (required free text) when the request has no requirements;
//! - `confirm`: `{approved, comment?}`; `comment` is required when `options.comment_required`.
//!
//! [`validate_answer`] returns it as an [`InputAnswer`], normalised: numbers as numbers (read by
//! [`crate::numbers::parse_number`]), booleans as booleans, every requirement id present, `null`
//! for optional fields left empty. Validation is idempotent: a normalised answer validates to
//! itself.

use std::path::Path;

use planwright_runs::{FieldType, InputAnswer, InputRequest, Requirement, RunMessage};
use serde::Serialize;
use serde_json::Value;

use crate::numbers::parse_number;
use crate::workdir::Workdir;

/// Why one field of an answer is not accepted: in English, and coded for the studio's language.
#[derive(Debug, Clone, Serialize)]
pub struct FieldError {
    /// The requirement id, or `approved`, `comment`, `response`; `answer` when the answer as a
    /// whole is wrong (not an object); an unknown key for unknown keys.
    pub field: String,
    pub message: String,
    pub said: Option<RunMessage>,
}

impl FieldError {
    fn new(field: &str, said: RunMessage, message: impl Into<String>) -> FieldError {
        FieldError { field: field.to_string(), message: message.into(), said: Some(said) }
    }
}

/// The code says the message again: two errors of one field with the same words are the same.
impl PartialEq for FieldError {
    fn eq(&self, other: &FieldError) -> bool {
        self.field == other.field && self.message == other.message
    }
}

impl Eq for FieldError {}

impl std::fmt::Display for FieldError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}: {}", self.field, self.message)
    }
}

/// Checks `answer` against `request` and returns it normalised, or every problem found (the
/// approval, the requirements in order, the comment, the free-text response, unknown keys).
pub fn validate_answer(request: &InputRequest, answer: &Value) -> Result<InputAnswer, Vec<FieldError>> {
    let Some(given) = answer.as_object() else {
        let expected = match request {
            InputRequest::Confirm(_) => "{approved: true or false, comment?}",
            _ => "an object of field id to value",
        };
        return Err(vec![FieldError::new(
            "answer",
            RunMessage::AnswerNotAnObject,
            format!("the answer must be {expected}"),
        )]);
    };
    let mut errors = Vec::new();
    let mut normal = InputAnswer::default();
    let mut known: Vec<&str> = Vec::new();

    // The approval first: whether the form's required fields must be filled depends on it.
    if request.asks_approval() {
        match given.get("approved") {
            None | Some(Value::Null) => errors.push(FieldError::new(
                "approved",
                RunMessage::AnswerApprovalRequired,
                "required: approve (true) or reject (false)",
            )),
            Some(value) => match as_bool(value) {
                Some(b) => normal.approved = Some(b),
                None => errors.push(FieldError::new(
                    "approved",
                    RunMessage::AnswerApprovalRequired,
                    "must be true (approve) or false (reject)",
                )),
            },
        }
    }
    let rejecting = matches!(request, InputRequest::Mixed(_)) && normal.approved == Some(false);

    for requirement in request.requirements() {
        let id = requirement.id.as_str();
        known.push(id);
        let value = given.get(id).unwrap_or(&Value::Null);
        if is_empty(value) {
            if requirement.required && !rejecting {
                errors.push(FieldError::new(id, RunMessage::AnswerRequired, "required: fill in this field"));
            }
            normal.values.insert(id.to_string(), Value::Null);
            continue;
        }
        match check_value(requirement, value) {
            Ok(value) => {
                normal.values.insert(id.to_string(), value);
            }
            Err(refused) => {
                let (said, message) = *refused;
                errors.push(FieldError::new(id, said, message))
            }
        }
    }

    if request.asks_approval() {
        known.push("approved");
    }
    known.push("comment");
    let comment_required = matches!(request, InputRequest::Confirm(confirm) if confirm.options.comment_required);
    match given.get("comment") {
        None | Some(Value::Null) => {
            if comment_required {
                errors.push(FieldError::new("comment", RunMessage::AnswerRequired, "required: write a comment"));
            }
        }
        Some(Value::String(text)) => {
            if comment_required && text.trim().is_empty() {
                errors.push(FieldError::new("comment", RunMessage::AnswerRequired, "required: write a comment"));
            } else {
                normal.comment = Some(text.clone());
            }
        }
        Some(_) => errors.push(FieldError::new("comment", RunMessage::AnswerNotText, "must be text")),
    }

    if matches!(request, InputRequest::Inquire(_)) && request.requirements().is_empty() {
        known.push("response");
        match given.get("response") {
            Some(Value::String(text)) if !text.trim().is_empty() => normal.response = Some(text.clone()),
            Some(Value::String(_)) | None | Some(Value::Null) => {
                errors.push(FieldError::new("response", RunMessage::AnswerRequired, "required: write your answer"))
            }
            Some(_) => errors.push(FieldError::new("response", RunMessage::AnswerNotText, "must be text")),
        }
    }

    for key in given.keys() {
        if !known.contains(&key.as_str()) {
            let said = RunMessage::AnswerUnknownField { known: known.join(", ") };
            errors.push(FieldError::new(
                key,
                said,
                format!("unknown field; the request asks for: {}", known.join(", ")),
            ));
        }
    }
    if errors.is_empty() {
        Ok(normal)
    } else {
        Err(errors)
    }
}

/// Checks that every file a validated answer names exists inside the work directory (as a
/// file). Paths are resolved like block inputs: relative to the work directory, never outside it.
pub fn check_files(request: &InputRequest, answer: &InputAnswer, workdir: &Workdir) -> Result<(), Vec<FieldError>> {
    let mut errors = Vec::new();
    for requirement in request.requirements().iter().filter(|r| r.field == FieldType::File) {
        let id = requirement.id.as_str();
        let Some(path) = answer.values.get(id).and_then(Value::as_str) else { continue };
        // Rebuilt from its components: `resolve` may leave a trailing separator on an existing
        // path, and `file.csv/` is not a file.
        match workdir.resolve(id, path).map(|p| p.components().collect::<std::path::PathBuf>()) {
            Ok(resolved) if resolved.is_file() => {}
            Ok(_) => {
                let said = RunMessage::AnswerFileMissing { path: path.to_owned() };
                errors.push(FieldError::new(id, said, format!("no file at {path:?} in the work directory")))
            }
            Err(e) => {
                let said = RunMessage::AnswerPathOutside { path: path.to_owned() };
                errors.push(FieldError::new(id, said, e.to_string()))
            }
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

/// A field's answer refused: why, coded and in words (boxed: a run message is large).
type Refused = Box<(RunMessage, String)>;

/// The value normalised for the requirement's type, then checked against its regex; else why
/// not, coded and in English.
fn check_value(requirement: &Requirement, value: &Value) -> Result<Value, Refused> {
    let refused = |said: RunMessage, text: &str| -> Refused { Box::new((said, text.to_owned())) };
    let normal = match requirement.field {
        FieldType::Text => match value {
            Value::String(_) => value.clone(),
            Value::Number(n) => Value::String(n.to_string()),
            _ => return Err(refused(RunMessage::AnswerNotText, "must be text")),
        },
        FieldType::Number => match value {
            Value::Number(_) => value.clone(),
            Value::String(s) => number_value(s)
                .ok_or_else(|| (RunMessage::AnswerNotNumber { text: s.clone() }, format!("{s:?} is not a number")))?,
            _ => return Err(refused(RunMessage::AnswerNotNumber { text: value.to_string() }, "must be a number")),
        },
        FieldType::Boolean => Value::Bool(
            as_bool(value)
                .ok_or_else(|| refused(RunMessage::AnswerNotYesNo, "must be yes or no (true/false, はい/いいえ)"))?,
        ),
        FieldType::Select | FieldType::Enum => {
            let options = requirement.options.join(", ");
            let text = match value {
                Value::String(s) => s.clone(),
                Value::Number(n) => n.to_string(),
                _ => {
                    let said = RunMessage::AnswerNotAnOption { text: value.to_string(), options };
                    return Err(refused(said, "must be one of the options"));
                }
            };
            if !requirement.options.is_empty() && !requirement.options.contains(&text) {
                let message = format!("{text:?} is not one of the options: {options}");
                return Err(Box::new((RunMessage::AnswerNotAnOption { text, options }, message)));
            }
            Value::String(text)
        }
        FieldType::File => {
            let Value::String(path) = value else {
                return Err(refused(RunMessage::AnswerNotAPath, "must be a file path"));
            };
            if let Some(accept) = &requirement.accept {
                check_extension(path, accept)?;
            }
            value.clone()
        }
        FieldType::Table => {
            let Value::Array(rows) = value else {
                return Err(refused(RunMessage::AnswerNotRows, "must be a list of rows (objects)"));
            };
            if let Some(i) = rows.iter().position(|r| !r.is_object()) {
                let row = i as u64 + 1;
                return Err(Box::new((
                    RunMessage::AnswerRowNotObject { row },
                    format!("row {row} is not an object of column to value"),
                )));
            }
            value.clone()
        }
    };
    if let Some(pattern) = requirement.validation.as_ref().and_then(|v| v.regex.as_deref()) {
        let text = match (requirement.field, &normal, value) {
            // A number is matched as the person typed it.
            (FieldType::Number, _, Value::String(s)) => Some(s.trim().to_string()),
            (_, Value::String(s), _) => Some(s.clone()),
            (_, Value::Number(n), _) => Some(n.to_string()),
            _ => None,
        };
        if let Some(text) = text {
            let regex = regex::Regex::new(&format!("^(?:{pattern})$")).map_err(|e| {
                let message = format!("the plan's regex for this field is invalid ({pattern:?}): {}", first_line(&e));
                (RunMessage::AnswerPatternInvalid { pattern: pattern.to_owned() }, message)
            })?;
            if !regex.is_match(&text) {
                let message = format!("{text:?} does not match the expected format {pattern}");
                return Err(Box::new((
                    RunMessage::AnswerFormatMismatch { text, pattern: pattern.to_owned() },
                    message,
                )));
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

/// A number typed as text, as JSON: whole numbers as integers.
fn number_value(text: &str) -> Option<Value> {
    let number = parse_number(text)?;
    if number.scale == 0 && number.value.abs() < 9_007_199_254_740_992.0 {
        return Some(Value::from(number.value as i64));
    }
    serde_json::Number::from_f64(number.value).map(Value::Number)
}

/// `accept` is a comma-separated list of extensions (`.csv,.xlsx`; the dot is optional).
fn check_extension(path: &str, accept: &str) -> Result<(), Refused> {
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
        _ => {
            let accepted = allowed.iter().map(|e| format!(".{e}")).collect::<Vec<_>>().join(", ");
            let message = format!("{path:?} is not an accepted file type; accepted: {accepted}");
            Err(Box::new((RunMessage::AnswerFileTypeRefused { path: path.to_owned(), accepted }, message)))
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn err(field: &str, message: &str) -> FieldError {
        FieldError { field: field.into(), message: message.into(), said: None }
    }

    fn collect(requirements: Value) -> InputRequest {
        serde_json::from_value(json!({"mode": "collect", "message": "Fill in the form", "requirements": requirements}))
            .unwrap()
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
        assert_eq!(errors[0].said, Some(RunMessage::AnswerPathOutside { path: "../../etc/passwd".into() }));
        let answer = validate_answer(&request, &json!({"statement": "in/missing.csv"})).unwrap();
        let errors = check_files(&request, &answer, &workdir).unwrap_err();
        assert_eq!(errors[0].said, Some(RunMessage::AnswerFileMissing { path: "in/missing.csv".into() }));
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
