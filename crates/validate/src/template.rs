//! Checking a template: its snippet validated as a plan whose vars are the template's imports
//! (given at run time, of any type) and its `vars_defaults`; its exports found among the
//! snippet's aliases; its import types known. Findings point into the template: `/imports/NAME`,
//! `/exports/NAME`, `/graph_snippet/…` for the snippet's nodes (no line numbers: the plan that was
//! checked is built from the template, not its text).

use planwright_catalog::types::TypeName;
use planwright_catalog::Catalog;
use planwright_designs::{TemplateSpec, IMPORTS_ROOT};
use planwright_plan::{load_plan, Code, Finding};
use serde_yaml::{Mapping, Value};

use crate::{validate_loaded, NoPlans};

/// Every finding of `spec`, errors first.
pub fn validate_template(spec: &TemplateSpec, catalog: &Catalog) -> Vec<Finding> {
    let mut findings = Vec::new();
    let ports = spec.imports.iter().map(|p| ("import", p)).chain(spec.exports.iter().map(|p| ("export", p)));
    for (kind, (name, port)) in ports {
        if serde_json::from_value::<TypeName>(serde_json::Value::from(port.type_name.as_str())).is_err() {
            findings.push(
                Finding::error(
                    Code::InvalidValue,
                    format!("/{kind}s/{name}/type"),
                    format!("{kind} `{name}` has the unknown type `{}`", port.type_name),
                )
                .hint("use a catalog type: string, integer, number, boolean, file, array, object or any"),
            );
        }
    }
    for name in spec.imports.keys() {
        if spec.vars_defaults.contains_key(name.as_str()) {
            findings.push(Finding::error(
                Code::DuplicateAlias,
                format!("/vars_defaults/{name}"),
                format!("`{name}` is both an import and a var; rename one"),
            ));
        }
    }
    let aliases = out_aliases(&spec.graph_snippet);
    for name in spec.exports.keys() {
        if !aliases.contains(name) {
            findings.push(
                Finding::error(
                    Code::UnknownAlias,
                    format!("/exports/{name}"),
                    format!("export `{name}` is not an alias of the snippet's `out`"),
                )
                .candidates(planwright_plan::suggest::closest(name, aliases.iter().map(String::as_str))),
            );
        }
    }
    let text = match serde_yaml::to_string(&as_plan(spec)) {
        Ok(text) => text,
        Err(e) => {
            findings.push(Finding::error(
                Code::InvalidValue,
                "/graph_snippet",
                format!("the snippet cannot be read: {e}"),
            ));
            return findings;
        }
    };
    match load_plan(&text) {
        Ok(loaded) => {
            let validation = validate_loaded(&loaded, catalog, &NoPlans);
            findings.extend(validation.findings.into_iter().map(|f| in_template(f, spec)));
        }
        Err(e) => findings.push(Finding::error(Code::InvalidValue, "/graph_snippet", e.to_string())),
    }
    findings.sort_by_key(|f| !f.is_error());
    findings
}

/// The plan a template stands for: imports as vars given at run time.
fn as_plan(spec: &TemplateSpec) -> Value {
    let mut vars = Mapping::new();
    for name in spec.imports.keys() {
        vars.insert(Value::from(name.as_str()), Value::Null);
    }
    for (name, value) in &spec.vars_defaults {
        vars.insert(name.clone(), value.clone());
    }
    let mut plan = Mapping::new();
    plan.insert("apiVersion".into(), "planwright/v1".into());
    plan.insert("id".into(), spec.id.as_str().into());
    plan.insert("version".into(), "1.0.0".into());
    plan.insert("description".into(), spec.description.en.as_str().into());
    if !vars.is_empty() {
        plan.insert("vars".into(), Value::Mapping(vars));
    }
    if !spec.secrets.is_empty() {
        plan.insert("secrets".into(), Value::Sequence(spec.secrets.iter().map(|s| Value::from(s.as_str())).collect()));
    }
    if let Some(ui) = &spec.ui_suggestions {
        let layout = ui.layout.iter().map(|id| Value::from(id.as_str())).collect();
        plan.insert("ui".into(), Value::Mapping(Mapping::from_iter([("layout".into(), Value::Sequence(layout))])));
    }
    plan.insert("graph".into(), Value::Sequence(spec.graph_snippet.iter().map(imports_as_vars).collect()));
    Value::Mapping(plan)
}

/// `${imports.NAME…}` read as `${vars.NAME…}`, at any depth.
fn imports_as_vars(value: &Value) -> Value {
    match value {
        Value::String(s) => Value::String(
            s.replace(&format!("${{{IMPORTS_ROOT}."), "${vars.").replace(&format!("${{ {IMPORTS_ROOT}."), "${ vars."),
        ),
        Value::Sequence(items) => Value::Sequence(items.iter().map(imports_as_vars).collect()),
        Value::Mapping(map) => Value::Mapping(map.iter().map(|(k, v)| (k.clone(), imports_as_vars(v))).collect()),
        other => other.clone(),
    }
}

/// The aliases the snippet's top-level nodes give their outputs.
fn out_aliases(snippet: &[Value]) -> Vec<String> {
    snippet
        .iter()
        .filter_map(|node| node.get("out")?.as_mapping())
        .flat_map(|out| out.values().filter_map(|alias| alias.as_str().map(str::to_owned)))
        .collect()
}

/// A finding of the plan built from `spec`, said of the template.
fn in_template(mut finding: Finding, spec: &TemplateSpec) -> Finding {
    finding.line = None;
    finding.column = None;
    if let Some(rest) = finding.path.strip_prefix("/graph") {
        finding.path = format!("/graph_snippet{rest}");
    } else if let Some(name) = finding.path.strip_prefix("/vars/").map(str::to_owned) {
        if spec.imports.contains_key(&name) {
            finding.path = format!("/imports/{name}");
            if finding.code == Code::UnusedVar {
                finding.message = format!("import `{name}` is not used by the snippet");
            }
        } else {
            finding.path = format!("/vars_defaults/{name}");
        }
    }
    if finding.code == Code::UndefinedVar {
        finding =
            finding.hint("declare it under `imports` (read as ${imports.NAME}) or `vars_defaults` (${vars.NAME})");
    }
    finding
}
