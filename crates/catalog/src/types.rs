//! The type system of block inputs and outputs: declarations as written in spec files, resolved
//! types, compatibility, typing of reference paths, and sample values for dry-runs.

use std::fmt;

use indexmap::IndexMap;
use serde::{Deserialize, Serialize};
use serde_json::Value;

/// A base type name as written in a spec file.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum TypeName {
    String,
    Integer,
    Number,
    Boolean,
    Array,
    Object,
    Bytes,
    /// A path to a file (a string at run time); the studio offers a file chooser.
    File,
    Any,
}

/// `type: string` or a union `type: [string, integer]`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(untagged)]
pub enum TypeNames {
    One(TypeName),
    Union(Vec<TypeName>),
}

/// A type declaration as written in a spec file. Ports (a block's inputs and outputs) use it,
/// and so do an array's `items` and an object's `properties`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct TypeDecl {
    #[serde(rename = "type")]
    pub names: TypeNames,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub description: Option<Description>,
    /// Inputs only: the node must set it.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub required: bool,
    /// Inputs only: the value the block uses when the node leaves it out.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub default: Option<Value>,
    /// Inputs only: the block sends this input to a language model, so a secret may never be
    /// referenced in it (browser steps name credentials as `{{NAME}}` placeholders instead).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub sent_to_model: bool,
    /// Inputs only: the block fills `{{NAME}}` placeholders in this input with the secret's value
    /// at the moment it needs it (typing a password, opening an address with a token). In other
    /// inputs of a browser block a placeholder would be taken as the literal text.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub fills_placeholders: bool,
    /// Inputs only: the block reads this file (for a list, each file) from the work folder, so a
    /// run's check looks for it before anything runs. Paths the block writes are not marked.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub reads_file: bool,
    /// The allowed values, when the port is an enumeration.
    #[serde(default, skip_serializing_if = "Option::is_none", rename = "enum")]
    pub allowed: Option<Vec<Value>>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub items: Option<Box<TypeDecl>>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub properties: Option<IndexMap<String, TypeDecl>>,
    /// The resolved type, computed once: validation asks for it at every use of the port.
    #[serde(skip)]
    resolved: std::sync::OnceLock<Type>,
}

/// A description in English and Japanese, or in English only.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(untagged)]
pub enum Description {
    Localized { en: String, ja: String },
    English(String),
}

impl Description {
    pub fn en(&self) -> &str {
        match self {
            Description::Localized { en, .. } | Description::English(en) => en,
        }
    }
}

/// A resolved type.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Type {
    String,
    Integer,
    Number,
    Boolean,
    Bytes,
    File,
    Null,
    Any,
    Array(Box<Type>),
    /// An object; `None` when its properties are not declared (then any path into it is `any`).
    Object(Option<IndexMap<String, Type>>),
    Union(Vec<Type>),
}

impl TypeDecl {
    /// The allowed values, when the port is an enumeration.
    pub fn enum_values(&self) -> Option<&[Value]> {
        self.allowed.as_deref()
    }

    /// The type this declaration describes.
    pub fn ty(&self) -> &Type {
        self.resolved.get_or_init(|| self.resolve())
    }

    fn resolve(&self) -> Type {
        let names: Vec<TypeName> = match &self.names {
            TypeNames::One(name) => vec![*name],
            TypeNames::Union(names) => names.clone(),
        };
        let mut members: Vec<Type> = names
            .into_iter()
            .map(|name| match name {
                TypeName::String => Type::String,
                TypeName::Integer => Type::Integer,
                TypeName::Number => Type::Number,
                TypeName::Boolean => Type::Boolean,
                TypeName::Bytes => Type::Bytes,
                TypeName::File => Type::File,
                TypeName::Any => Type::Any,
                TypeName::Array => Type::Array(Box::new(self.items.as_ref().map_or(Type::Any, |i| i.ty().clone()))),
                TypeName::Object => Type::Object(
                    self.properties
                        .as_ref()
                        .map(|props| props.iter().map(|(k, v)| (k.clone(), v.ty().clone())).collect()),
                ),
            })
            .collect();
        match members.len() {
            0 => Type::Any,
            1 => members.remove(0),
            _ => Type::Union(members),
        }
    }
}

/// Why a path does not lead anywhere in a type.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PathError {
    pub message: String,
    /// Property names that exist where the segment was looked up.
    pub candidates: Vec<String>,
}

impl Type {
    /// Whether a value of type `src` may flow into a slot of this type.
    ///
    /// `any` matches everything both ways; a union matches when one member does (on either
    /// side, since we only know a union value will be one of its members); integer flows into
    /// number; a file is a path string; null (a `continue`d failure) flows anywhere.
    pub fn accepts(&self, src: &Type) -> bool {
        match (self, src) {
            (Type::Any, _) | (_, Type::Any) | (_, Type::Null) => true,
            (Type::Union(members), _) => members.iter().any(|m| m.accepts(src)),
            (_, Type::Union(members)) => members.iter().any(|m| self.accepts(m)),
            (Type::Number, Type::Integer) => true,
            (Type::String | Type::File, Type::String | Type::File) => true,
            (Type::Array(dst), Type::Array(src)) => dst.accepts(src),
            (Type::Object(Some(dst)), Type::Object(Some(src))) => {
                dst.iter().all(|(k, t)| src.get(k).is_none_or(|s| t.accepts(s)))
            }
            (Type::Object(_), Type::Object(_)) => true,
            (a, b) => a == b,
        }
    }

    /// The type at `segment` below this one: a declared property, an array item (numeric
    /// segment), or `any` inside undeclared objects.
    pub fn at(&self, segment: &str) -> Result<Type, PathError> {
        match self {
            Type::Any | Type::Null => Ok(Type::Any),
            Type::Object(None) => Ok(Type::Any),
            Type::Object(Some(props)) => props.get(segment).cloned().ok_or_else(|| PathError {
                message: format!("`{segment}` is not a property of {self}"),
                candidates: planwright_plan::suggest::closest(segment, props.keys().map(String::as_str)),
            }),
            Type::Array(items) => {
                if segment.parse::<usize>().is_ok() {
                    Ok((**items).clone())
                } else {
                    Err(PathError {
                        message: format!("`{segment}` indexes {self}; an array takes a number (`.0`)"),
                        candidates: Vec::new(),
                    })
                }
            }
            Type::Union(members) => {
                let found: Vec<Type> = members.iter().filter_map(|m| m.at(segment).ok()).collect();
                match found.len() {
                    0 => members[0].at(segment),
                    1 => Ok(found.into_iter().next().unwrap_or(Type::Any)),
                    _ => Ok(Type::Union(found)),
                }
            }
            scalar => Err(PathError {
                message: format!("`{segment}` cannot be looked up in a {scalar} value"),
                candidates: Vec::new(),
            }),
        }
    }

    /// The type at the end of `path`.
    pub fn at_path<'a>(&self, path: impl IntoIterator<Item = &'a str>) -> Result<Type, PathError> {
        path.into_iter().try_fold(self.clone(), |t, segment| t.at(segment))
    }

    /// Whether `value` is of this type (the same rules as `accepts`, without building the
    /// value's type).
    pub fn admits(&self, value: &Value) -> bool {
        match (self, value) {
            (Type::Any, _) | (_, Value::Null) => true,
            (Type::Union(members), _) => members.iter().any(|m| m.admits(value)),
            (Type::String | Type::File, Value::String(_)) => true,
            (Type::Integer, Value::Number(n)) => n.is_i64() || n.is_u64(),
            (Type::Number, Value::Number(_)) | (Type::Boolean, Value::Bool(_)) => true,
            (Type::Array(items), Value::Array(values)) => values.iter().all(|v| items.admits(v)),
            (Type::Object(None), Value::Object(_)) => true,
            (Type::Object(Some(props)), Value::Object(map)) => {
                props.iter().all(|(k, t)| map.get(k).is_none_or(|v| t.admits(v)))
            }
            _ => false,
        }
    }

    /// The type of a literal value.
    pub fn of_value(value: &Value) -> Type {
        match value {
            Value::Null => Type::Null,
            Value::Bool(_) => Type::Boolean,
            Value::Number(n) if n.is_i64() || n.is_u64() => Type::Integer,
            Value::Number(_) => Type::Number,
            Value::String(_) => Type::String,
            Value::Array(items) => {
                let mut members: Vec<Type> = Vec::new();
                for item in items {
                    let t = Type::of_value(item);
                    if !members.contains(&t) {
                        members.push(t);
                    }
                }
                Type::Array(Box::new(match members.len() {
                    0 => Type::Any,
                    1 => members.remove(0),
                    _ => Type::Union(members),
                }))
            }
            Value::Object(map) => Type::Object(Some(map.iter().map(|(k, v)| (k.clone(), Type::of_value(v))).collect())),
        }
    }

    /// A plausible value of this type, for dry-runs.
    pub fn sample(&self, label: &str) -> Value {
        match self {
            Type::String => Value::String(format!("<{label}>")),
            Type::File => Value::String(format!("<{label}.file>")),
            Type::Integer => Value::from(1),
            Type::Number => Value::from(1.5),
            Type::Boolean => Value::Bool(true),
            Type::Bytes => Value::String(format!("<{label}: bytes>")),
            Type::Null | Type::Any => Value::Null,
            Type::Array(items) => Value::Array(vec![items.sample(&format!("{label}.0"))]),
            Type::Object(None) => Value::Object(Default::default()),
            Type::Object(Some(props)) => {
                Value::Object(props.iter().map(|(k, t)| (k.clone(), t.sample(&format!("{label}.{k}")))).collect())
            }
            Type::Union(members) => members.first().map_or(Value::Null, |m| m.sample(label)),
        }
    }
}

impl fmt::Display for Type {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Type::String => f.write_str("string"),
            Type::Integer => f.write_str("integer"),
            Type::Number => f.write_str("number"),
            Type::Boolean => f.write_str("boolean"),
            Type::Bytes => f.write_str("bytes"),
            Type::File => f.write_str("file"),
            Type::Null => f.write_str("null"),
            Type::Any => f.write_str("any"),
            Type::Array(items) => write!(f, "array({items})"),
            Type::Object(None) => f.write_str("object"),
            Type::Object(Some(props)) => {
                f.write_str("object(")?;
                for (i, (k, t)) in props.iter().enumerate() {
                    if i > 0 {
                        f.write_str(", ")?;
                    }
                    write!(f, "{k}: {t}")?;
                }
                f.write_str(")")
            }
            Type::Union(members) => {
                for (i, m) in members.iter().enumerate() {
                    if i > 0 {
                        f.write_str(" | ")?;
                    }
                    write!(f, "{m}")?;
                }
                Ok(())
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn decl(yaml: &str) -> Type {
        serde_yaml::from_str::<TypeDecl>(yaml).unwrap().ty().clone()
    }

    #[test]
    fn any_matches_everything_both_ways() {
        assert!(Type::Any.accepts(&Type::Bytes));
        assert!(Type::Bytes.accepts(&Type::Any));
    }

    #[test]
    fn integer_flows_into_number_not_back() {
        assert!(Type::Number.accepts(&Type::Integer));
        assert!(!Type::Integer.accepts(&Type::Number));
    }

    #[test]
    fn unions_match_when_one_member_does() {
        let u = decl("type: [string, integer]");
        assert!(u.accepts(&Type::Integer));
        assert!(!u.accepts(&Type::Boolean));
        assert!(Type::String.accepts(&u));
        assert!(!Type::Boolean.accepts(&u));
    }

    #[test]
    fn arrays_compare_their_items() {
        let rows = decl("{type: array, items: {type: object}}");
        assert!(rows.accepts(&Type::Array(Box::new(Type::Object(None)))));
        assert!(!rows.accepts(&Type::Array(Box::new(Type::String))));
        assert!(!rows.accepts(&Type::String));
    }

    #[test]
    fn paths_into_declared_objects_take_the_property_type() {
        let t =
            decl("{type: array, items: {type: object, properties: {name: {type: string}, chars: {type: integer}}}}");
        assert_eq!(t.at_path(["0", "chars"]).unwrap(), Type::Integer);
        let err = t.at_path(["0", "nmae"]).unwrap_err();
        assert_eq!(err.candidates, vec!["name"]);
        assert!(t.at_path(["first"]).is_err());
        assert!(Type::String.at("x").is_err());
    }

    #[test]
    fn paths_into_undeclared_objects_are_any() {
        assert_eq!(decl("type: object").at_path(["a", "b", "0"]).unwrap(), Type::Any);
    }

    #[test]
    fn literal_types() {
        assert_eq!(Type::of_value(&json!([1, 2])), Type::Array(Box::new(Type::Integer)));
        assert_eq!(Type::of_value(&json!(1.5)), Type::Number);
        assert!(decl("{type: array, items: {type: number}}").accepts(&Type::of_value(&json!([1, 2.5]))));
    }

    #[test]
    fn admits_agrees_with_accepts_on_literals() {
        let values =
            [json!(null), json!(1), json!(1.5), json!("x"), json!(true), json!({"a": [1]}), json!([]), json!([2, 3])];
        let types = [
            decl("type: integer"),
            decl("type: number"),
            decl("type: [string, boolean]"),
            decl("{type: array, items: {type: integer}}"),
            decl("{type: object, properties: {a: {type: array, items: {type: number}}}}"),
            decl("type: object"),
            decl("type: file"),
        ];
        for t in &types {
            for v in &values {
                assert_eq!(t.admits(v), t.accepts(&Type::of_value(v)), "{t} {v}");
            }
        }
    }

    #[test]
    fn admits_is_exact_where_accepts_gives_unions_the_benefit_of_the_doubt() {
        let mixed = json!([1, "a"]);
        let integers = decl("{type: array, items: {type: integer}}");
        assert!(integers.accepts(&Type::of_value(&mixed)), "statically, some items may be integers");
        assert!(!integers.admits(&mixed), "this value has a string item");
    }

    #[test]
    fn samples_have_their_type() {
        let t = decl("{type: object, properties: {rows: {type: array, items: {type: integer}}, ok: {type: boolean}}}");
        let sample = t.sample("n");
        assert_eq!(sample, json!({"rows": [1], "ok": true}));
        assert!(t.accepts(&Type::of_value(&sample)));
    }
}
