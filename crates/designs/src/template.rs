//! Templates: reusable parts of plans, `templates/<category>/<id>.yaml` (seed 002's
//! `TemplateSpec`). A template's `graph_snippet` is a plan's `graph` whose open ends are
//! `imports` — read in the snippet as `${imports.NAME}` and bound, when the template is used, to a
//! plan's vars or to an earlier node's outputs — and whose results are `exports`, aliases of the
//! snippet's `out`. Titles, descriptions, tags and the imports' and exports' descriptions are in
//! English and Japanese. Checking a template (its snippet validated as a plan) is
//! `planwright_validate::validate_template`.

use std::collections::BTreeMap;
use std::fs;
use std::path::Path;

use planwright_plan::Localized;
use serde::{Deserialize, Serialize};

/// The reference root a snippet reads its imports with: `${imports.NAME}`.
pub const IMPORTS_ROOT: &str = "imports";

/// One template.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct TemplateSpec {
    /// Unique among the templates; the file's name without `.yaml`.
    pub id: String,
    /// What it does, in a few words.
    pub title: Localized<String>,
    /// When to use it and what it needs.
    pub description: Localized<String>,
    /// Words a search finds it by.
    pub tags: Localized<Vec<String>>,
    /// What the snippet needs from the plan it joins, by name.
    #[serde(default)]
    pub imports: BTreeMap<String, TemplatePort>,
    /// What the snippet gives the plan: aliases of its nodes' `out`.
    #[serde(default)]
    pub exports: BTreeMap<String, TemplatePort>,
    /// Secrets the snippet uses (`${secrets.NAME}`, `{{NAME}}`), by name; they join the plan's
    /// secrets. Never values.
    #[serde(default)]
    pub secrets: Vec<String>,
    /// Vars the snippet reads (`${vars.NAME}`) and their defaults; they join the plan's vars.
    #[serde(default)]
    pub vars_defaults: serde_yaml::Mapping,
    /// How the studio might lay the snippet out.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub ui_suggestions: Option<UiSuggestions>,
    /// Nodes as a plan's `graph` holds them.
    pub graph_snippet: Vec<serde_yaml::Value>,
}

/// An import or an export: its type (the catalog's type names) and what it is.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct TemplatePort {
    /// `array`, `string`, `file`… as the catalog names types.
    #[serde(rename = "type")]
    pub type_name: String,
    /// What it is.
    pub description: Localized<String>,
}

/// How the studio might lay the snippet out.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct UiSuggestions {
    /// Node ids in the order to show them.
    #[serde(default)]
    pub layout: Vec<String>,
}

/// Why a template file does not load, as a sentence with where.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{0}")]
pub struct TemplateError(pub String);

/// The largest template file read.
const MAX_BYTES: u64 = 1024 * 1024;

impl TemplateSpec {
    /// Reads a template from its text; an error names the field and the line.
    pub fn parse(text: &str) -> Result<TemplateSpec, TemplateError> {
        serde_yaml::from_str(text).map_err(|e| TemplateError(e.to_string()))
    }

    /// Reads a template file, refusing one over 1 MiB or not a regular file.
    pub fn load(path: &Path) -> Result<TemplateSpec, TemplateError> {
        let meta = fs::symlink_metadata(path).map_err(|e| TemplateError(format!("cannot read it: {e}")))?;
        if !meta.is_file() {
            return Err(TemplateError("it is not a regular file".into()));
        }
        if meta.len() > MAX_BYTES {
            return Err(TemplateError(format!("it is {} bytes; a template may have at most {MAX_BYTES}", meta.len())));
        }
        let text = fs::read_to_string(path).map_err(|e| TemplateError(format!("cannot read it: {e}")))?;
        TemplateSpec::parse(&text)
    }

    /// The snippet's node ids, top level.
    pub fn node_ids(&self) -> Vec<String> {
        self.graph_snippet.iter().filter_map(|n| n.get("id")?.as_str().map(str::to_owned)).collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const MINIMAL: &str = "id: t
title: {en: T, ja: T}
description: {en: D, ja: D}
tags: {en: [a], ja: [あ]}
imports:
  rows: {type: array, description: {en: rows, ja: 行}}
graph_snippet:
  - {id: keep, block: transforms.filter, in: {items: '${imports.rows}', conditions: []}}
";

    #[test]
    fn a_template_reads_with_its_defaults() {
        let spec = TemplateSpec::parse(MINIMAL).unwrap();
        assert_eq!(spec.id, "t");
        assert_eq!(spec.imports["rows"].type_name, "array");
        assert!(spec.exports.is_empty() && spec.vars_defaults.is_empty() && spec.ui_suggestions.is_none());
        assert_eq!(spec.node_ids(), ["keep"]);
    }

    #[test]
    fn a_wrong_field_is_named_with_its_place() {
        let error = TemplateSpec::parse(&MINIMAL.replace("tags:", "tag:")).unwrap_err();
        assert!(error.0.contains("unknown field `tag`"), "{error}");
        let error = TemplateSpec::parse(&MINIMAL.replace("type: array", "kind: array")).unwrap_err();
        assert!(error.0.contains("imports.rows") && error.0.contains("line"), "{error}");
        assert!(TemplateSpec::parse("- not a mapping").is_err());
    }
}
