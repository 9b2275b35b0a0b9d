//! The human-input protocol: what a block asks a person ([`InputRequest`], recorded in
//! `input_requested`) and the answer it gets back ([`InputAnswer`], recorded in
//! `input_received`). The studio renders a request as a form and sends an answer; the engine
//! validates it (`planwright_block::validate_answer`) before the block sees it. The JSON is
//! the same the protocol always had: a flat answer, `{mode, message, …}` requests.

use serde::{Deserialize, Deserializer, Serialize};
use serde_json::{Map, Value};

/// What is asked.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
#[serde(tag = "mode", rename_all = "snake_case")]
pub enum InputRequest {
    /// Fill in a form of requirements.
    Collect(FormRequest),
    /// Fill in the form, then approve or reject.
    Mixed(FormRequest),
    /// One question: a requirement at a time, or free text when there is none.
    Inquire(FormRequest),
    /// Approve or reject what the message says.
    Confirm(ConfirmRequest),
}

impl InputRequest {
    pub fn message(&self) -> &str {
        match self {
            InputRequest::Collect(form) | InputRequest::Mixed(form) | InputRequest::Inquire(form) => &form.message,
            InputRequest::Confirm(confirm) => &confirm.message,
        }
    }

    /// The form's fields (none for a confirmation).
    pub fn requirements(&self) -> &[Requirement] {
        match self {
            InputRequest::Collect(form) | InputRequest::Mixed(form) | InputRequest::Inquire(form) => &form.requirements,
            InputRequest::Confirm(_) => &[],
        }
    }

    /// The mode's name: `collect`, `mixed`, `inquire`, `confirm`.
    pub fn mode(&self) -> &'static str {
        match self {
            InputRequest::Collect(_) => "collect",
            InputRequest::Mixed(_) => "mixed",
            InputRequest::Inquire(_) => "inquire",
            InputRequest::Confirm(_) => "confirm",
        }
    }

    /// Whether the answer carries an approval (`confirm`, `mixed`).
    pub fn asks_approval(&self) -> bool {
        matches!(self, InputRequest::Confirm(_) | InputRequest::Mixed(_))
    }
}

/// A form: the message at its top, the fields, and data shown for reference.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub struct FormRequest {
    pub message: String,
    #[serde(default)]
    pub requirements: Vec<Requirement>,
    /// Shown, not edited: the invoices in question, the totals to approve.
    #[serde(default)]
    pub context: Value,
}

/// An approval.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub struct ConfirmRequest {
    pub message: String,
    #[serde(default)]
    pub options: ConfirmOptions,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "ts", ts(optional))]
    pub context: Option<Value>,
}

/// How an approval is offered.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub struct ConfirmOptions {
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "ts", ts(optional))]
    pub approve_label: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "ts", ts(optional))]
    pub reject_label: Option<String>,
    /// The person must write a comment.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    #[cfg_attr(feature = "ts", ts(as = "Option<bool>", optional))]
    pub comment_required: bool,
    /// The choice offered as the main one; `reject` where approving is the risky step.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "ts", ts(optional))]
    pub default: Option<Choice>,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
#[serde(rename_all = "snake_case")]
pub enum Choice {
    Approve,
    Reject,
}

/// One field of a form (seed 002's `Requirement`).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub struct Requirement {
    /// The answer's key.
    pub id: String,
    #[serde(rename = "type", default)]
    pub field: FieldType,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "ts", ts(optional))]
    pub label: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "ts", ts(optional))]
    pub description: Option<String>,
    /// The choices of a `select` or `enum` field (numbers and booleans written in a plan are
    /// read as their text).
    #[serde(default, skip_serializing_if = "Vec::is_empty", deserialize_with = "scalar_texts")]
    #[cfg_attr(feature = "ts", ts(as = "Option<Vec<String>>", optional))]
    pub options: Vec<String>,
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    #[cfg_attr(feature = "ts", ts(as = "Option<bool>", optional))]
    pub required: bool,
    /// A `file` field's extensions: `.csv,.xlsx`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "ts", ts(optional))]
    pub accept: Option<String>,
    /// A placeholder or example shown in the empty field.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "ts", ts(optional))]
    pub hint: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "ts", ts(optional))]
    pub validation: Option<Validation>,
}

/// The kinds of field.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
#[serde(rename_all = "snake_case")]
pub enum FieldType {
    /// One line of text.
    #[default]
    Text,
    /// One of `options`.
    Select,
    /// Yes or no.
    Boolean,
    /// A number, in the forms `planwright_block::parse_number` reads.
    Number,
    /// A path in the work directory, its extension in `accept`.
    File,
    /// Rows: a list of objects.
    Table,
    /// One of `options` (as `select`).
    Enum,
}

impl FieldType {
    pub const ALL: [FieldType; 7] = [
        FieldType::Text,
        FieldType::Select,
        FieldType::Boolean,
        FieldType::Number,
        FieldType::File,
        FieldType::Table,
        FieldType::Enum,
    ];

    pub fn name(self) -> &'static str {
        match self {
            FieldType::Text => "text",
            FieldType::Select => "select",
            FieldType::Boolean => "boolean",
            FieldType::Number => "number",
            FieldType::File => "file",
            FieldType::Table => "table",
            FieldType::Enum => "enum",
        }
    }
}

/// A check an answer must pass.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub struct Validation {
    /// A regular expression the whole answer must match.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "ts", ts(optional))]
    pub regex: Option<String>,
}

/// An answer: the approval (`confirm`, `mixed`), a comment, the free-text response (`inquire`
/// without requirements) and each requirement's value by its id — flat, as answers files and
/// the studio write them.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub struct InputAnswer {
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "ts", ts(optional))]
    pub approved: Option<bool>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "ts", ts(optional))]
    pub comment: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "ts", ts(optional))]
    pub response: Option<String>,
    /// Requirement id → value (`null` for an optional field left empty).
    #[serde(flatten)]
    #[cfg_attr(feature = "ts", ts(flatten))]
    pub values: Map<String, Value>,
}

/// The answer keys a requirement id may not use: they carry the approval, the comment and the
/// free-text answer.
pub const RESERVED_IDS: [&str; 3] = ["approved", "comment", "response"];

/// Option texts: strings as they are, numbers and booleans as written.
fn scalar_texts<'de, D: Deserializer<'de>>(deserializer: D) -> Result<Vec<String>, D::Error> {
    let values = Option::<Vec<Value>>::deserialize(deserializer)?.unwrap_or_default();
    values
        .into_iter()
        .map(|value| match value {
            Value::String(text) => Ok(text),
            Value::Number(_) | Value::Bool(_) => Ok(value.to_string()),
            other => Err(serde::de::Error::custom(format!("an option must be text, not {other}"))),
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    #[test]
    fn requests_keep_the_json_they_always_had() {
        let form = json!({"mode": "collect", "message": "入金明細を選んでください", "requirements": [
            {"id": "bank_file", "type": "file", "accept": ".csv", "required": true},
            {"id": "month", "type": "text", "hint": "2024-04", "validation": {"regex": "\\d{4}-\\d{2}"}},
            {"id": "dept", "type": "select", "options": ["経理部", 2, true]}],
            "context": {"rows": 3}});
        let request: InputRequest = serde_json::from_value(form.clone()).unwrap();
        assert_eq!(request.requirements()[2].options, ["経理部", "2", "true"]);
        let mut again = form;
        again["requirements"][2]["options"] = json!(["経理部", "2", "true"]);
        assert_eq!(serde_json::to_value(&request).unwrap(), again);
        let confirm = json!({"mode": "confirm", "message": "Send?", "options": {}});
        let request: InputRequest = serde_json::from_value(confirm.clone()).unwrap();
        assert_eq!(serde_json::to_value(&request).unwrap(), confirm);
        assert!(serde_json::from_value::<InputRequest>(json!({"mode": "shout", "message": "x"})).is_err());
    }

    #[test]
    fn answers_are_flat() {
        let answer: InputAnswer =
            serde_json::from_value(json!({"approved": true, "comment": "ok", "month": "2024-04", "n": 3})).unwrap();
        assert_eq!(answer.approved, Some(true));
        assert_eq!(answer.values.get("month"), Some(&json!("2024-04")));
        assert_eq!(answer.values.len(), 2);
        assert_eq!(
            serde_json::to_value(&answer).unwrap(),
            json!({"approved": true, "comment": "ok", "month": "2024-04", "n": 3})
        );
    }
}
