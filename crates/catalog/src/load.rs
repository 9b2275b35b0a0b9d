//! Loading block spec files, with errors that name the file, the line and the field.

use std::path::{Path, PathBuf};

use planwright_plan::locate::describe_pointer;
use planwright_plan::source_map::SourceMap;

use crate::spec::{BlockSpec, Rule};

/// A problem with one spec file.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{file}:{line}: {field}: {message}")]
pub struct SpecError {
    /// The file, relative to the catalog folder.
    pub file: String,
    pub line: u32,
    /// Dotted path of the field (`inputs.path.type`), or `-` for the whole file.
    pub field: String,
    pub message: String,
}

#[derive(Debug, thiserror::Error)]
pub enum CatalogError {
    #[error("cannot read the block catalog at {path}: {source}")]
    Io { path: PathBuf, source: std::io::Error },
    #[error("the block catalog has {} invalid spec file(s):\n{}", .0.len(), render(.0))]
    Invalid(Vec<SpecError>),
}

fn render(errors: &[SpecError]) -> String {
    errors.iter().map(|e| format!("  {e}")).collect::<Vec<_>>().join("\n")
}

/// Spec files larger than this are refused: no real spec comes near it.
const MAX_SPEC_BYTES: usize = 256 * 1024;

/// Parses and checks one spec file. `file` is its path relative to the catalog folder
/// (`excel/excel.read_data.yaml`); the folder must be the category and the file name the id
/// (or `id@version` for an older version kept beside the newest).
pub fn parse_spec(file: &str, text: &str) -> Result<BlockSpec, Vec<SpecError>> {
    let whole = |message: String| vec![SpecError { file: file.to_owned(), line: 1, field: "-".into(), message }];
    if text.len() > MAX_SPEC_BYTES {
        return Err(whole(format!("{} bytes is larger than the {MAX_SPEC_BYTES}-byte limit for a spec", text.len())));
    }
    let document = serde_yaml::Deserializer::from_str(text);
    let spec: BlockSpec = match serde_path_to_error::deserialize(document) {
        Ok(spec) => spec,
        Err(error) => {
            let field = error.path().to_string();
            let inner = error.into_inner();
            let line = inner.location().map_or(1, |l| l.line() as u32);
            let message = inner.to_string();
            // serde_yaml appends " at line L column C"; the line is already in its own field.
            let message = message.split(" at line ").next().unwrap_or(&message).to_owned();
            return Err(vec![SpecError { file: file.to_owned(), line, field, message }]);
        }
    };
    let problems = check_spec(file, &spec);
    if problems.is_empty() {
        return Ok(spec);
    }
    let map = SourceMap::build(text);
    Err(problems
        .into_iter()
        .map(|(pointer, message)| SpecError {
            file: file.to_owned(),
            line: map.locate(&pointer).map_or(1, |p| p.line),
            field: describe_pointer(&serde_json::Value::Null, &pointer).1.unwrap_or_else(|| "-".into()),
            message,
        })
        .collect())
}

/// Checks a spec beyond its shape. Returns (JSON pointer, message) pairs.
fn check_spec(file: &str, spec: &BlockSpec) -> Vec<(String, String)> {
    let mut problems = Vec::new();
    let path = Path::new(file);
    let folder = path.parent().and_then(|p| p.file_name()).and_then(|n| n.to_str()).unwrap_or("");
    let stem = path.file_stem().and_then(|n| n.to_str()).unwrap_or("");
    let id_ok = spec.id.split('.').count() >= 2
        && spec.id.split('.').all(|s| {
            s.chars().next().is_some_and(|c| c.is_ascii_lowercase())
                && s.chars().all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '_')
        });
    if !id_ok {
        problems.push(("/id".into(), format!("`{}` is not a block id; write `category.name` in lower case", spec.id)));
    }
    if spec.id.split('.').next() != Some(spec.category.as_str()) {
        problems.push(("/category".into(), format!("category `{}` must be the id's first part", spec.category)));
    }
    if folder != spec.category {
        problems
            .push(("/category".into(), format!("the file must live in folder `{}/`, not `{folder}/`", spec.category)));
    }
    if stem != spec.id && stem != format!("{}@{}", spec.id, spec.version) {
        problems.push(("/id".into(), format!("the file must be named `{}.yaml` after the id", spec.id)));
    }
    for (field, text) in [
        ("/title/en", &spec.title.en),
        ("/title/ja", &spec.title.ja),
        ("/description/en", &spec.description.en),
        ("/description/ja", &spec.description.ja),
    ] {
        if text.trim().is_empty() {
            problems.push((field.into(), "must not be empty".into()));
        }
    }
    if spec.tags.en.is_empty() || spec.tags.ja.is_empty() {
        problems.push(("/tags".into(), "give at least one tag in each language".into()));
    }
    let input_exists = |name: &str| spec.inputs.contains_key(name);
    for (i, rule) in spec.rules.iter().enumerate() {
        let names: Vec<&String> = match rule {
            Rule::OneOfRequired(names) => names.iter().collect(),
            Rule::NonEmpty(name) => vec![name],
        };
        for name in names.into_iter().filter(|n| !input_exists(n)) {
            problems.push((format!("/rules/{i}"), format!("rule names input `{name}`, which the block does not have")));
        }
    }
    if let Some(name) = spec.work.browser_objectives_from.as_deref().filter(|n| !input_exists(n)) {
        problems.push(("/work/browser_objectives_from".into(), format!("no input `{name}`")));
    }
    for (i, example) in spec.examples.iter().enumerate() {
        for key in example.inputs.keys().filter(|k| !input_exists(k)) {
            problems.push((format!("/examples/{i}/in/{key}"), format!("example sets unknown input `{key}`")));
        }
        for key in example.out.keys().filter(|k| !spec.outputs.contains_key(*k)) {
            problems.push((format!("/examples/{i}/out/{key}"), format!("example shows unknown output `{key}`")));
        }
    }
    for (name, port) in &spec.inputs {
        if let (Some(allowed), Some(default)) = (port.enum_values(), &port.default) {
            if !allowed.contains(default) {
                problems.push((
                    format!("/inputs/{name}/default"),
                    format!("default {default} is not one of the enum values"),
                ));
            }
        }
    }
    problems
}

#[cfg(test)]
mod tests {
    use super::*;

    const GOOD: &str = "\
id: demo.echo
version: 1.0.0
category: demo
title: {en: Echo, ja: エコー}
description: {en: Returns its input., ja: 入力を返す。}
tags: {en: [test], ja: [テスト]}
inputs:
  text: {type: string, required: true}
outputs:
  text: {type: string}
";

    #[test]
    fn a_good_spec_loads() {
        let spec = parse_spec("demo/demo.echo.yaml", GOOD).unwrap();
        assert_eq!(spec.id, "demo.echo");
        assert!(spec.inputs["text"].required);
    }

    #[test]
    fn an_unknown_field_names_file_line_and_field() {
        let text = GOOD.replace("  text: {type: string, required: true}", "  text: {type: string, requird: true}");
        let errors = parse_spec("demo/demo.echo.yaml", &text).unwrap_err();
        assert_eq!(errors.len(), 1);
        assert_eq!(errors[0].file, "demo/demo.echo.yaml");
        assert_eq!(errors[0].line, 8);
        assert_eq!(errors[0].field, "inputs.text.requird");
        assert!(errors[0].message.contains("unknown field `requird`"), "{}", errors[0].message);
    }

    #[test]
    fn a_bad_type_name_is_reported() {
        let text = GOOD.replace("outputs:\n  text: {type: string}", "outputs:\n  text: {type: strng}");
        let errors = parse_spec("demo/demo.echo.yaml", &text).unwrap_err();
        assert_eq!(errors[0].line, 10);
        assert!(errors[0].field.starts_with("outputs.text"), "{}", errors[0].field);
    }

    #[test]
    fn the_file_must_sit_where_its_id_says() {
        let errors = parse_spec("other/echo.yaml", GOOD).unwrap_err();
        let fields: Vec<&str> = errors.iter().map(|e| e.field.as_str()).collect();
        assert_eq!(fields, vec!["category", "id"]);
        assert_eq!(errors[0].line, 3);
    }

    #[test]
    fn rules_must_name_real_inputs() {
        let text = format!("{GOOD}rules:\n  - one_of_required: [text, prompt]\n");
        let errors = parse_spec("demo/demo.echo.yaml", &text).unwrap_err();
        assert_eq!(errors[0].field, "rules[0]");
        assert_eq!(errors[0].line, 12);
        assert!(errors[0].message.contains("`prompt`"), "{errors:?}");
    }

    #[test]
    fn missing_japanese_is_an_error() {
        let text = GOOD.replace("title: {en: Echo, ja: エコー}", "title: {en: Echo}");
        let errors = parse_spec("demo/demo.echo.yaml", &text).unwrap_err();
        assert!(errors[0].message.contains("missing field `ja`"), "{}", errors[0].message);
        assert_eq!(errors[0].field, "title");
    }

    proptest::proptest! {
        #[test]
        fn parse_spec_never_panics(text in ".{0,400}") {
            let _ = parse_spec("demo/demo.echo.yaml", &text);
        }
    }
}
