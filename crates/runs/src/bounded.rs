//! How much of a text a record repeats. A step's text, a page's words or a failure's reason can be
//! long (a steps input of megabytes); the record keeps each whole once — the plan's text, the
//! node's outputs — and everywhere it comes again (every progress event, log line, step log
//! line and planning line) a summary: its start and how long it was.

use serde_json::Value;

/// The most characters of a text a repeating record keeps.
pub const REPEATED_TEXT_CHARS: usize = 2_000;

/// `text` as a repeating record keeps it: whole when short, else its first
/// [`REPEATED_TEXT_CHARS`] characters and how many there were.
pub fn bounded(text: &str) -> String {
    match text.char_indices().nth(REPEATED_TEXT_CHARS) {
        None => text.to_owned(),
        Some((end, _)) => format!("{}… ({} characters)", &text[..end], text.chars().count()),
    }
}

/// `value` with every string in it, keys too (a requirement's text keys its score), [`bounded`].
pub fn bounded_strings(value: Value) -> Value {
    match value {
        Value::String(text) if text.len() > REPEATED_TEXT_CHARS => Value::String(bounded(&text)),
        Value::Array(items) => Value::Array(items.into_iter().map(bounded_strings).collect()),
        Value::Object(map) => Value::Object(map.into_iter().map(|(k, v)| (bounded(&k), bounded_strings(v))).collect()),
        other => other,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_long_text_is_kept_as_its_start_and_its_length() {
        assert_eq!(bounded("Sign in"), "Sign in");
        let long = "あ".repeat(REPEATED_TEXT_CHARS + 5);
        let cut = bounded(&long);
        assert!(cut.starts_with(&"あ".repeat(REPEATED_TEXT_CHARS)));
        assert!(cut.ends_with(&format!("… ({} characters)", REPEATED_TEXT_CHARS + 5)), "{cut}");
        let exact = "x".repeat(REPEATED_TEXT_CHARS);
        assert_eq!(bounded(&exact), exact);
        let value = serde_json::json!({"a": [long.clone(), 1], "b": "short", long.clone(): 0.5});
        let kept = bounded_strings(value);
        assert_eq!(kept["a"][0].as_str().unwrap(), cut);
        assert_eq!(kept[cut.as_str()], 0.5, "a long key is kept as a summary too");
        assert_eq!((kept["a"][1].clone(), kept["b"].clone()), (serde_json::json!(1), serde_json::json!("short")));
    }
}
