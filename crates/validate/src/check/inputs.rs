//! A block node's inputs and outputs against its spec: unknown and missing inputs, types and
//! enumerations at every depth of a value, spec rules, credential placeholders, output keys.

use planwright_catalog::{BlockSpec, Resource, Rule, TypeDecl};
use planwright_plan::reference::{escape_pointer, placeholders, visit_strings, with_token};
use planwright_plan::suggest::{closest, did_you_mean};
use planwright_plan::{Code, Finding, Node};
use serde_json::Value;

use super::references::Site;
use super::{has_reference, Checker, Scope};

/// Null, or text with nothing but spaces.
fn is_blank(value: &Value) -> bool {
    match value {
        Value::Null => true,
        Value::String(text) => text.trim().is_empty(),
        _ => false,
    }
}

/// Where an input value stands: the scope its references resolve in, what it may reference,
/// and the block it is given to.
#[derive(Clone, Copy)]
struct Input<'c, 's, 'p> {
    scope: &'c Scope<'s, 'p>,
    site: Site<'c>,
    spec: &'c BlockSpec,
}

impl Checker<'_> {
    pub(super) fn check_block(&mut self, scope: &Scope<'_, '_>, index: usize, spec: &BlockSpec) {
        let node = scope.shape.nodes[index].node;
        let pointer = scope.node_pointer(index);
        for (name, value) in &node.inputs {
            let mut at = format!("{pointer}/in/{}", escape_pointer(name));
            let Some(port) = spec.inputs.get(name) else {
                self.check_value(scope, Site::block_input(index, &at, false), value);
                let candidates = closest(name, spec.inputs.keys().map(String::as_str));
                self.findings.push(
                    Finding::error(
                        Code::UnknownInput,
                        at,
                        format!("block `{}` has no input `{name}`{}", spec.id, did_you_mean(&candidates)),
                    )
                    .hint(format!(
                        "inputs of `{}`: {}",
                        spec.id,
                        spec.inputs.keys().cloned().collect::<Vec<_>>().join(", ")
                    ))
                    .candidates(candidates),
                );
                continue;
            };
            // `path:` with nothing after it is null: a required input left empty is missing, here,
            // not at run time.
            if port.required && is_blank(value) {
                let what = port.description.as_ref().map_or_else(String::new, |d| format!(" ({})", d.en()));
                self.findings.push(
                    Finding::error(
                        Code::MissingInput,
                        at,
                        format!("block `{}` needs input `{name}`{what}, but it is empty", spec.id),
                    )
                    .hint(format!("give `{name}` a value ({}) or a reference such as `${{vars.{name}}}`", port.ty())),
                );
                continue;
            }
            let input = Input { scope, site: Site::block_input(index, "", port.sent_to_model), spec };
            self.check_input(input, name, port, value, &mut at);
        }
        for (name, port) in &spec.inputs {
            if port.required && port.default.is_none() && !node.inputs.contains_key(name) {
                let what = port.description.as_ref().map_or_else(String::new, |d| format!(" ({})", d.en()));
                self.findings.push(
                    Finding::error(
                        Code::MissingInput,
                        format!("{pointer}/in/{}", escape_pointer(name)),
                        format!("block `{}` needs input `{name}`{what}", spec.id),
                    )
                    .hint(format!("add `{name}:` ({}) under `in`", port.ty())),
                );
            }
        }
        self.check_rules(node, spec, &pointer);
        if spec.resource == Some(Resource::Browser) {
            self.check_placeholders(node, spec, &pointer);
        }
        for (key, alias) in &node.out {
            if !spec.outputs.contains_key(key) {
                let candidates = closest(key, spec.outputs.keys().map(String::as_str));
                self.findings.push(
                    Finding::error(
                        Code::UnknownOutput,
                        format!("{pointer}/out/{}", escape_pointer(key)),
                        format!(
                            "block `{}` has no output `{key}` (aliased `{alias}`){}",
                            spec.id,
                            did_you_mean(&candidates)
                        ),
                    )
                    .hint(format!(
                        "outputs of `{}`: {}",
                        spec.id,
                        spec.outputs.keys().cloned().collect::<Vec<_>>().join(", ")
                    ))
                    .candidates(candidates),
                );
            }
        }
    }

    /// Checks `value` against `decl`, descending into declared object properties and array
    /// items so that each problem is reported where it is; at the leaves, references and type.
    fn check_input(&mut self, at: Input<'_, '_, '_>, name: &str, decl: &TypeDecl, value: &Value, pointer: &mut String) {
        match (value, &decl.properties, &decl.items) {
            (Value::Object(map), Some(properties), _) => {
                for (key, item) in map {
                    with_token(pointer, key, |p| match properties.get(key) {
                        Some(property) => self.check_input(at, key, property, item, p),
                        None => {
                            self.check_nested(at.scope, at.site, item, p);
                            let candidates = closest(key, properties.keys().map(String::as_str));
                            self.findings.push(
                                Finding::error(
                                    Code::UnknownInput,
                                    p.clone(),
                                    format!(
                                        "`{key}` is not a field of `{name}` (block `{}`){}",
                                        at.spec.id,
                                        did_you_mean(&candidates)
                                    ),
                                )
                                .hint(format!(
                                    "fields of `{name}`: {}",
                                    properties.keys().cloned().collect::<Vec<_>>().join(", ")
                                ))
                                .candidates(candidates),
                            );
                        }
                    });
                }
            }
            (Value::Array(items), _, Some(item_decl)) => {
                for (i, item) in items.iter().enumerate() {
                    with_token(pointer, &i.to_string(), |p| self.check_input(at, name, item_decl, item, p));
                }
            }
            _ => self.check_leaf(at, name, decl, value, pointer),
        }
    }

    fn check_leaf(&mut self, at: Input<'_, '_, '_>, name: &str, decl: &TypeDecl, value: &Value, pointer: &mut String) {
        let spec = at.spec;
        let value_type = self.check_nested(at.scope, at.site, value, pointer);
        let expected = decl.ty();
        if !expected.accepts(&value_type) {
            let hint = decl
                .description
                .as_ref()
                .map_or_else(|| format!("give {expected}"), |d| format!("`{name}`: {}", d.en()));
            self.findings.push(
                Finding::error(
                    Code::TypeMismatch,
                    pointer.clone(),
                    format!("`{name}` of `{}` takes {expected}, but the value is {value_type}", spec.id),
                )
                .hint(hint),
            );
            return;
        }
        let Some(allowed) = decl.enum_values() else { return };
        if has_reference(value) || allowed.contains(value) {
            return;
        }
        let names: Vec<String> =
            allowed.iter().map(|v| v.as_str().map_or_else(|| v.to_string(), str::to_owned)).collect();
        let close = closest(value.as_str().unwrap_or_default(), names.iter().map(String::as_str));
        let message = format!("{value} is not a value `{name}` of `{}` accepts{}", spec.id, did_you_mean(&close));
        self.findings.push(
            Finding::error(Code::InvalidValue, pointer.clone(), message)
                .hint(format!("one of: {}", names.join(", ")))
                .candidates(if close.is_empty() { names } else { close }),
        );
    }

    fn check_rules(&mut self, node: &Node, spec: &BlockSpec, pointer: &str) {
        for rule in &spec.rules {
            match rule {
                Rule::OneOfRequired(names) if !names.iter().any(|n| node.inputs.contains_key(n)) => {
                    let list = names.iter().map(|n| format!("`{n}`")).collect::<Vec<_>>().join(" or ");
                    self.findings.push(
                        Finding::error(
                            Code::RuleViolation,
                            format!("{pointer}/in"),
                            format!("block `{}` needs {list}", spec.id),
                        )
                        .hint(format!("add {list} under `in`"))
                        .candidates(names.clone()),
                    );
                }
                Rule::NonEmpty(name) => {
                    let empty = match node.inputs.get(name) {
                        Some(Value::Object(map)) => map.is_empty(),
                        Some(Value::Array(items)) => items.is_empty(),
                        Some(Value::String(s)) => s.trim().is_empty(),
                        Some(Value::Null) => true,
                        _ => false,
                    };
                    if empty {
                        let what = spec
                            .inputs
                            .get(name)
                            .and_then(|p| p.description.as_ref())
                            .map_or("give a value", |d| d.en());
                        self.findings.push(
                            Finding::error(
                                Code::RuleViolation,
                                format!("{pointer}/in/{}", escape_pointer(name)),
                                format!("input `{name}` of `{}` must not be empty", spec.id),
                            )
                            .hint(format!("`{name}`: {what}")),
                        );
                    }
                }
                Rule::OneOfRequired(_) => {}
            }
        }
    }

    /// `{{NAME}}` in browser steps is typed as a credential: it must be a declared secret, and be
    /// in an input the block fills (elsewhere it would be taken as the literal text).
    fn check_placeholders(&mut self, node: &Node, spec: &BlockSpec, pointer: &str) {
        let filled: Vec<&str> =
            spec.inputs.iter().filter(|(_, port)| port.fills_placeholders).map(|(name, _)| name.as_str()).collect();
        for (name, value) in &node.inputs {
            let base = format!("{pointer}/in/{}", escape_pointer(name));
            let fills = spec.inputs.get(name).is_some_and(|port| port.fills_placeholders);
            visit_strings(value, &mut |text, suffix| {
                for placeholder in placeholders(text) {
                    self.used_secrets.insert(placeholder.to_owned());
                    if !fills {
                        let only = if filled.is_empty() {
                            format!("`{}` fills none of its inputs", spec.id)
                        } else {
                            format!("`{}` fills them only in {}", spec.id, filled.join(", "))
                        };
                        self.findings.push(
                            Finding::error(
                                Code::PlaceholderNotFilled,
                                format!("{base}{suffix}"),
                                format!(
                                    "credential placeholder `{{{{{placeholder}}}}}` in input `{name}` would be used as \
                                     the literal text: {only}"
                                ),
                            )
                            .hint(format!("write the text itself in `{name}`; give the secret where it is typed")),
                        );
                    }
                    if !self.plan.secrets.iter().any(|s| s == placeholder) {
                        let candidates = closest(placeholder, self.plan.secrets.iter().map(String::as_str));
                        self.findings.push(
                            Finding::error(
                                Code::UndeclaredPlaceholder,
                                format!("{base}{suffix}"),
                                format!(
                                    "credential placeholder `{{{{{placeholder}}}}}` is not declared in `secrets`{}",
                                    did_you_mean(&candidates)
                                ),
                            )
                            .hint(format!("add `{placeholder}` to the plan's `secrets` list"))
                            .candidates(candidates),
                        );
                    }
                }
            });
        }
    }
}
