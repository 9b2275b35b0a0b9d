//! The plan JSON Schema, generated from the model (`schemas/plan.schema.json` is a copy that a
//! test keeps equal to this).

use serde_json::{Map, Value};

use crate::model::Plan;

/// Where editors can find the schema; also the schema's `$id`.
pub const SCHEMA_ID: &str = "https://planwright.dev/schemas/plan.schema.json";

/// The JSON Schema (draft-07, the draft YAML language servers support best) of a plan file.
pub fn plan_schema() -> Value {
    let schema = schemars::generate::SchemaSettings::draft07().into_generator().into_root_schema_for::<Plan>();
    let mut value = schema.to_value();
    tidy(&mut value);
    if let Some(object) = value.as_object_mut() {
        object.insert("$id".into(), Value::from(SCHEMA_ID));
    }
    value
}

/// The schema as the pretty-printed text stored in `schemas/plan.schema.json`.
pub fn plan_schema_text() -> String {
    let mut text = serde_json::to_string_pretty(&plan_schema()).unwrap_or_default();
    text.push('\n');
    text
}

/// Makes the generated schema say what people should write:
/// - optional fields are optional, not nullable (`anyOf [T, null]` and `type: [T, null]` → T);
/// - unit enums are `enum` lists (editors complete them; errors list the choices) instead of
///   `oneOf` constants, their descriptions kept in one text;
/// - required fields carry no `default` (serde fills one in only so that every problem of a
///   broken plan can be reported at once).
fn tidy(value: &mut Value) {
    match value {
        Value::Array(items) => items.iter_mut().for_each(tidy),
        Value::Object(map) => {
            map.values_mut().for_each(tidy);
            drop_null_alternative(map);
            constants_to_enum(map);
            drop_required_defaults(map);
        }
        _ => {}
    }
}

fn drop_null_alternative(map: &mut Map<String, Value>) {
    let is_null = |v: &Value| v.get("type").and_then(Value::as_str) == Some("null");
    if let Some(Value::Array(alternatives)) = map.get("anyOf") {
        if alternatives.len() == 2 && alternatives.iter().any(is_null) {
            let kept = alternatives.iter().find(|a| !is_null(a)).cloned().unwrap_or(Value::Null);
            map.remove("anyOf");
            if let Value::Object(kept) = kept {
                for (k, v) in kept {
                    map.entry(k).or_insert(v);
                }
            }
        }
    }
    if let Some(Value::Array(types)) = map.get("type") {
        let kept: Vec<Value> = types.iter().filter(|t| t.as_str() != Some("null")).cloned().collect();
        if kept.len() == 1 {
            map.insert("type".into(), kept[0].clone());
        }
    }
}

fn constants_to_enum(map: &mut Map<String, Value>) {
    let Some(Value::Array(members)) = map.get("oneOf") else { return };
    let constants: Option<Vec<(Value, Option<String>)>> = members
        .iter()
        .map(|m| m.get("const").map(|c| (c.clone(), m.get("description").and_then(Value::as_str).map(str::to_owned))))
        .collect();
    let Some(constants) = constants else { return };
    let description: Vec<String> = constants
        .iter()
        .filter_map(|(c, d)| d.as_ref().map(|d| format!("`{}`: {d}", c.as_str().unwrap_or_default())))
        .collect();
    map.remove("oneOf");
    map.insert("type".into(), Value::from("string"));
    map.insert("enum".into(), Value::Array(constants.into_iter().map(|(c, _)| c).collect()));
    if !description.is_empty() {
        map.insert("description".into(), Value::from(description.join(" ")));
    }
}

fn drop_required_defaults(map: &mut Map<String, Value>) {
    let required: Vec<String> = match map.get("required") {
        Some(Value::Array(names)) => names.iter().filter_map(Value::as_str).map(str::to_owned).collect(),
        _ => return,
    };
    if let Some(Value::Object(properties)) = map.get_mut("properties") {
        for name in required {
            if let Some(Value::Object(property)) = properties.get_mut(&name) {
                property.remove("default");
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn optional_fields_are_not_nullable() {
        let schema = plan_schema();
        assert_eq!(schema.pointer("/properties/description/type"), Some(&Value::from("string")));
        assert_eq!(schema.pointer("/properties/policy/$ref"), Some(&Value::from("#/definitions/Policy")));
        assert!(!schema.to_string().contains("\"null\""));
    }

    #[test]
    fn enums_are_lists() {
        let schema = plan_schema();
        assert_eq!(
            schema.pointer("/definitions/OnError/enum"),
            Some(&serde_json::json!(["halt", "continue", "retry"]))
        );
    }

    #[test]
    fn required_fields_have_no_default() {
        let schema = plan_schema();
        assert_eq!(schema.pointer("/properties/apiVersion/default"), None);
        assert_eq!(schema.pointer("/definitions/Foreach/properties/item_var/default"), Some(&Value::from("item")));
    }
}
