//! YAML text → JSON document in one pass over serde_yaml's deserializer (no intermediate YAML
//! tree). A plan is JSON-shaped: duplicate keys, tags and non-scalar keys are refused with their
//! position, and scalar keys become strings (`1:` is the key "1").

use std::fmt;

use serde::de::{DeserializeSeed, Deserializer, EnumAccess, Error as _, MapAccess, SeqAccess, Visitor};
use serde_json::{Map, Number, Value};

/// Parses one YAML document into a JSON value.
pub fn parse(text: &str) -> Result<Value, serde_yaml::Error> {
    Document.deserialize(serde_yaml::Deserializer::from_str(text))
}

struct Document;

impl<'de> DeserializeSeed<'de> for Document {
    type Value = Value;

    fn deserialize<D: Deserializer<'de>>(self, deserializer: D) -> Result<Value, D::Error> {
        deserializer.deserialize_any(Document)
    }
}

impl<'de> Visitor<'de> for Document {
    type Value = Value;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("a YAML value")
    }

    fn visit_bool<E>(self, v: bool) -> Result<Value, E> {
        Ok(Value::Bool(v))
    }

    fn visit_i64<E>(self, v: i64) -> Result<Value, E> {
        Ok(Value::from(v))
    }

    fn visit_u64<E>(self, v: u64) -> Result<Value, E> {
        Ok(Value::from(v))
    }

    fn visit_f64<E: serde::de::Error>(self, v: f64) -> Result<Value, E> {
        Number::from_f64(v)
            .map(Value::Number)
            .ok_or_else(|| E::custom("a number that is not finite (.nan or .inf) has no place in a plan"))
    }

    fn visit_str<E>(self, v: &str) -> Result<Value, E> {
        Ok(Value::String(v.to_owned()))
    }

    fn visit_string<E>(self, v: String) -> Result<Value, E> {
        Ok(Value::String(v))
    }

    fn visit_unit<E>(self) -> Result<Value, E> {
        Ok(Value::Null)
    }

    fn visit_none<E>(self) -> Result<Value, E> {
        Ok(Value::Null)
    }

    fn visit_some<D: Deserializer<'de>>(self, deserializer: D) -> Result<Value, D::Error> {
        deserializer.deserialize_any(Document)
    }

    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Value, A::Error> {
        let mut items = Vec::with_capacity(seq.size_hint().unwrap_or(0).min(1024));
        while let Some(item) = seq.next_element_seed(Document)? {
            items.push(item);
        }
        Ok(Value::Array(items))
    }

    fn visit_map<A: MapAccess<'de>>(self, mut access: A) -> Result<Value, A::Error> {
        let mut map = Map::new();
        while let Some(key) = access.next_key_seed(Key)? {
            let value = access.next_value_seed(Document)?;
            if map.contains_key(&key) {
                return Err(A::Error::custom(format!("duplicate key `{key}`; each key may appear once in a mapping")));
            }
            map.insert(key, value);
        }
        Ok(Value::Object(map))
    }

    fn visit_enum<A: EnumAccess<'de>>(self, data: A) -> Result<Value, A::Error> {
        let (tag, _) = data.variant::<String>()?;
        Err(A::Error::custom(format!("YAML tag `!{tag}` has no place in a plan; remove it")))
    }
}

/// A mapping key: any scalar, as a string.
struct Key;

impl<'de> DeserializeSeed<'de> for Key {
    type Value = String;

    fn deserialize<D: Deserializer<'de>>(self, deserializer: D) -> Result<String, D::Error> {
        deserializer.deserialize_any(Key)
    }
}

impl<'de> Visitor<'de> for Key {
    type Value = String;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("a mapping key (a string, number or boolean)")
    }

    fn visit_bool<E>(self, v: bool) -> Result<String, E> {
        Ok(v.to_string())
    }

    fn visit_i64<E>(self, v: i64) -> Result<String, E> {
        Ok(v.to_string())
    }

    fn visit_u64<E>(self, v: u64) -> Result<String, E> {
        Ok(v.to_string())
    }

    fn visit_f64<E>(self, v: f64) -> Result<String, E> {
        Ok(v.to_string())
    }

    fn visit_str<E>(self, v: &str) -> Result<String, E> {
        Ok(v.to_owned())
    }

    fn visit_string<E>(self, v: String) -> Result<String, E> {
        Ok(v)
    }

    fn visit_unit<E>(self) -> Result<String, E> {
        Ok("null".to_owned())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn yaml_becomes_json() {
        let value = parse("a: [1, 2.5, true, null, x]\n1: one\nb: {c: 'd'}\n").unwrap();
        assert_eq!(value, json!({"a": [1, 2.5, true, null, "x"], "1": "one", "b": {"c": "d"}}));
    }

    #[test]
    fn anchors_expand() {
        assert_eq!(parse("a: &x [1]\nb: *x\n").unwrap(), json!({"a": [1], "b": [1]}));
    }

    #[test]
    fn refusals_name_the_problem() {
        assert!(parse("a: 1\na: 2\n").unwrap_err().to_string().contains("duplicate key `a`"));
        assert!(parse("a: !secret x\n").unwrap_err().to_string().contains("tag `!secret`"));
        assert!(parse("? [a]\n: 1\n").unwrap_err().to_string().contains("mapping key"));
        assert!(parse("a: .nan\n").unwrap_err().to_string().contains("not finite"));
    }
}
