//! JSON value helpers: numeric-aware equality and ordering, and short descriptions for messages.

use std::cmp::Ordering;
use std::io;

use serde_json::{Number, Value};

/// Characters of a value shown in a message.
const SHOWN_CHARS: usize = 40;

/// The value's type as messages name it.
fn type_name(value: &Value) -> &'static str {
    match value {
        Value::Null => "null",
        Value::Bool(_) => "boolean",
        Value::Number(_) => "number",
        Value::String(_) => "string",
        Value::Array(_) => "list",
        Value::Object(_) => "object",
    }
}

/// Type and (shortened) value, e.g. `string "abc"`, `number 3`, `null`.
pub(crate) fn describe(value: &Value) -> String {
    match value {
        Value::Null => "null".to_owned(),
        _ => format!("{} {}", type_name(value), shorten(value)),
    }
}

/// The value as JSON, cut to about [`SHOWN_CHARS`] characters.
fn shorten(value: &Value) -> String {
    // Serializing stops once the buffer is full, so a huge value costs no more than a small one.
    let mut out = Capped { bytes: Vec::new(), room: SHOWN_CHARS * 4 + 4 };
    let complete = serde_json::to_writer(&mut out, value).is_ok();
    let text = String::from_utf8_lossy(&out.bytes);
    if complete && text.chars().count() <= SHOWN_CHARS {
        return text.into_owned();
    }
    let mut cut: String = text.chars().take(SHOWN_CHARS - 1).collect();
    cut.push('…');
    cut
}

/// A writer that keeps at most `room` bytes and fails once more is written.
struct Capped {
    bytes: Vec<u8>,
    room: usize,
}

impl io::Write for Capped {
    fn write(&mut self, data: &[u8]) -> io::Result<usize> {
        let kept = data.len().min(self.room);
        self.bytes.extend(data.iter().take(kept));
        self.room -= kept;
        if kept < data.len() {
            return Err(io::Error::other("value too long to show"));
        }
        Ok(kept)
    }

    fn flush(&mut self) -> io::Result<()> {
        Ok(())
    }
}

/// Deep equality where numbers compare by value (`1 == 1.0`) and different types are unequal.
pub(crate) fn equal(a: &Value, b: &Value) -> bool {
    // An explicit stack: a resolver's values may nest deeper than the call stack allows.
    let mut pending = vec![(a, b)];
    while let Some(pair) = pending.pop() {
        let same = match pair {
            (Value::Number(x), Value::Number(y)) => compare_numbers(x, y) == Some(Ordering::Equal),
            (Value::Array(x), Value::Array(y)) => {
                x.len() == y.len() && {
                    pending.extend(x.iter().zip(y));
                    true
                }
            }
            (Value::Object(x), Value::Object(y)) => {
                x.len() == y.len()
                    && x.iter().all(|(key, item)| y.get(key).map(|other| pending.push((item, other))).is_some())
            }
            (x, y) => x == y,
        };
        if !same {
            return false;
        }
    }
    true
}

/// Numeric order; integers compare exactly even beyond f64 precision.
pub(crate) fn compare_numbers(a: &Number, b: &Number) -> Option<Ordering> {
    match (integer(a), integer(b)) {
        (Some(x), Some(y)) => Some(x.cmp(&y)),
        _ => a.as_f64()?.partial_cmp(&b.as_f64()?),
    }
}

/// The number's exact value if it is integral.
fn integer(number: &Number) -> Option<i128> {
    if let Some(i) = number.as_i64() {
        return Some(i.into());
    }
    if let Some(u) = number.as_u64() {
        return Some(u.into());
    }
    let f = number.as_f64()?;
    // Every integral f64 below 1e38 fits in an i128 exactly.
    (f.fract() == 0.0 && f.abs() < 1e38).then_some(f as i128)
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    #[test]
    fn numbers_compare_by_value() {
        assert!(equal(&json!(1), &json!(1.0)));
        assert!(equal(&json!({"a": [1, 2.0]}), &json!({"a": [1.0, 2]})));
        assert!(!equal(&json!(u64::MAX), &json!(u64::MAX as f64 - 4096.0)));
        assert!(!equal(&json!(i64::MAX), &json!(u64::MAX)));
        assert_eq!(compare_numbers(&(-1).into(), &u64::MAX.into()), Some(Ordering::Less));
        assert_eq!(compare_numbers(&2.into(), &Number::from_f64(1.5).unwrap()), Some(Ordering::Greater));
    }

    #[test]
    fn different_types_and_shapes_are_unequal() {
        assert!(!equal(&json!("1"), &json!(1)));
        assert!(!equal(&json!(null), &json!(false)));
        assert!(!equal(&json!([1]), &json!([1, 1])));
        assert!(!equal(&json!({"a": 1}), &json!({"b": 1})));
    }

    #[test]
    fn deeply_nested_values_are_compared_without_recursion() {
        let mut a = json!(1);
        let mut b = json!(1.0);
        for _ in 0..1000 {
            a = json!([a]);
            b = json!([b]);
        }
        assert!(equal(&a, &b));
        assert!(describe(&a).starts_with("list [[[["));
    }

    #[test]
    fn long_values_are_shortened() {
        let long = "請".repeat(100);
        let shown = describe(&json!(long));
        assert_eq!(shown.chars().count(), "string ".len() + SHOWN_CHARS);
        assert!(shown.ends_with('…'));
        assert_eq!(describe(&json!({"a": 1})), "object {\"a\":1}");
        assert_eq!(describe(&json!(null)), "null");
    }
}
