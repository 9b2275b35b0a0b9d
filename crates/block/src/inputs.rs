//! Reading block inputs defensively: inputs arrive resolved with defaults applied, but a wrong
//! type still gets a message naming the input and what would fix it. Every block family reads
//! its inputs with these.

use planwright_runs::{Reason, RunMessage};
use serde_json::Value;

use crate::block::{BlockError, Values};

/// An input left out, with what to give.
pub fn missing(name: &str, what: &str) -> BlockError {
    let text = format!("`{name}` is missing; give {what}");
    BlockError::input(Reason::said(RunMessage::InputMissing { input: name.to_owned() }, text))
}

/// A value that must be there (not null).
pub fn required<'a>(inputs: &'a Values, name: &str, what: &str) -> Result<&'a Value, BlockError> {
    match inputs.get(name) {
        None | Some(Value::Null) => Err(missing(name, what)),
        Some(v) => Ok(v),
    }
}

/// A required text.
pub fn text<'a>(inputs: &'a Values, name: &str, what: &str) -> Result<&'a str, BlockError> {
    match required(inputs, name, what)? {
        Value::String(s) => Ok(s),
        other => Err(not_text(name, format!("`{name}` must be text ({what}), not {}", describe(other)))),
    }
}

/// An optional text; null and blank count as left out.
pub fn optional_text<'a>(inputs: &'a Values, name: &str) -> Result<Option<&'a str>, BlockError> {
    match inputs.get(name) {
        None | Some(Value::Null) => Ok(None),
        Some(Value::String(s)) if s.trim().is_empty() => Ok(None),
        Some(Value::String(s)) => Ok(Some(s)),
        Some(other) => Err(not_text(name, format!("`{name}` must be text, not {}", describe(other)))),
    }
}

/// A boolean; the texts `true`/`false` are accepted too.
pub fn boolean(inputs: &Values, name: &str, default: bool) -> Result<bool, BlockError> {
    match inputs.get(name) {
        None | Some(Value::Null) => Ok(default),
        Some(Value::Bool(b)) => Ok(*b),
        Some(Value::String(s)) if s.trim().eq_ignore_ascii_case("true") => Ok(true),
        Some(Value::String(s)) if s.trim().eq_ignore_ascii_case("false") => Ok(false),
        Some(other) => {
            let text = format!("`{name}` must be true or false, not {}", describe(other));
            Err(BlockError::input(Reason::said(RunMessage::InputNotBoolean { input: name.to_owned() }, text)))
        }
    }
}

/// A whole number; whole floats and numeric texts are accepted too.
pub fn integer(inputs: &Values, name: &str, default: i64) -> Result<i64, BlockError> {
    let bad = |v: &Value| {
        let text = format!("`{name}` must be a whole number, not {}", describe(v));
        BlockError::input(Reason::said(RunMessage::InputNotInteger { input: name.to_owned() }, text))
    };
    match inputs.get(name) {
        None | Some(Value::Null) => Ok(default),
        Some(v @ Value::Number(n)) => match (n.as_i64(), n.as_f64()) {
            (Some(i), _) => Ok(i),
            (None, Some(f)) if f.fract() == 0.0 && f.abs() < 1e15 => Ok(f as i64),
            _ => Err(bad(v)),
        },
        Some(v @ Value::String(s)) => s.trim().parse().map_err(|_| bad(v)),
        Some(other) => Err(bad(other)),
    }
}

/// A required list.
pub fn list<'a>(inputs: &'a Values, name: &str, what: &str) -> Result<&'a Vec<Value>, BlockError> {
    match required(inputs, name, what)? {
        Value::Array(items) => Ok(items),
        Value::Object(map) if map.values().any(|v| v.is_array()) => {
            let keys: Vec<&str> = map.iter().filter(|(_, v)| v.is_array()).map(|(k, _)| k.as_str()).collect();
            Err(not_list(
                name,
                format!(
                    "`{name}` must be a list ({what}), not an object; it holds the list{} {} — refer to that, \
                     e.g. `${{step.{}}}`",
                    if keys.len() > 1 { "s" } else { "" },
                    keys.join(", "),
                    keys[0]
                ),
            ))
        }
        other => Err(not_list(name, format!("`{name}` must be a list ({what}), not {}", describe(other)))),
    }
}

fn not_text(name: &str, text: String) -> BlockError {
    BlockError::input(Reason::said(RunMessage::InputNotText { input: name.to_owned() }, text))
}

fn not_list(name: &str, text: String) -> BlockError {
    BlockError::input(Reason::said(RunMessage::InputNotList { input: name.to_owned() }, text))
}

/// One of `allowed` (case and surrounding spaces ignored).
pub fn choice(
    inputs: &Values,
    name: &str,
    allowed: &[&'static str],
    default: &'static str,
) -> Result<&'static str, BlockError> {
    let given = match optional_text(inputs, name)? {
        None => return Ok(default),
        Some(s) => s,
    };
    let wanted = given.trim().to_ascii_lowercase();
    allowed
        .iter()
        .copied()
        .find(|a| *a == wanted)
        .ok_or_else(|| BlockError::input(format!("`{name}` is {given:?}; it must be one of: {}", allowed.join(", "))))
}

/// The rows of a list input, each an object.
pub fn rows<'a>(items: &'a [Value], name: &str) -> Result<Vec<&'a serde_json::Map<String, Value>>, BlockError> {
    items
        .iter()
        .enumerate()
        .map(|(i, item)| match item {
            Value::Object(map) => Ok(map),
            other => Err(BlockError::input(format!(
                "`{name}` item {i} is {}, not a row; `{name}` must be a list of rows (objects keyed by column \
                 name), such as the rows of a CSV or Excel step",
                describe(other)
            ))),
        })
        .collect()
}

/// A text input that is a web address: a full `http://` or `https://` address (`file:` would
/// read past the work directory's fence). Messages do not repeat it: it may carry a token.
pub fn web_address(name: &str, given: &str, example: &str) -> Result<url::Url, BlockError> {
    let raw = given.trim();
    if raw.is_empty() {
        return Err(missing(name, example));
    }
    let url = url::Url::parse(raw).map_err(|e| {
        BlockError::input(format!(
            "`{name}` is not a full address ({e}); write it with its scheme, e.g. https://portal.example.co.jp/login"
        ))
    })?;
    match url.scheme() {
        "http" | "https" => Ok(url),
        other => Err(BlockError::input(format!(
            "`{name}` uses the {other}: scheme; only http:// and https:// addresses are opened"
        ))),
    }
}

/// A value named for a message: `the number 5`, `the text "abc"`, `a list of 3 items`.
pub fn describe(value: &Value) -> String {
    match value {
        Value::Null => "nothing (null)".into(),
        Value::Bool(b) => format!("the boolean {b}"),
        Value::Number(n) => format!("the number {n}"),
        Value::String(s) => {
            let short: String = s.chars().take(40).collect();
            if short.len() < s.len() {
                format!("the text {short:?}…")
            } else {
                format!("the text {s:?}")
            }
        }
        Value::Array(items) => match items.len() {
            1 => "a list of 1 item".into(),
            n => format!("a list of {n} items"),
        },
        Value::Object(map) => {
            let keys: Vec<&str> = map.keys().take(5).map(String::as_str).collect();
            if keys.is_empty() {
                "an empty object".into()
            } else {
                format!("an object with keys {}{}", keys.join(", "), if map.len() > 5 { ", …" } else { "" })
            }
        }
    }
}
