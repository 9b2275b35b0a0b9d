//! References: `${vars…}`, `${node.alias…}`, `${env…}`, `${secrets…}` in values and
//! expressions — scope, alias, path and type — and the dependency edges they make.

use planwright_catalog::Type;
use planwright_plan::reference::{scan_references, with_token};
use planwright_plan::suggest::{closest, did_you_mean};
use planwright_plan::{Code, Finding, Reference, Root, Template};
use serde_json::Value;

use super::{Checker, Scope};
use crate::order::{Edge, EdgeKind};
use crate::shapes::Kind;

/// Where secrets may be referenced.
#[derive(Clone, Copy, PartialEq, Eq)]
pub(crate) enum Secrets {
    /// In a block's inputs: resolved inside the block, just before it uses them.
    Allowed,
    /// In conditions, loop inputs and calls: never resolved there.
    OutsideBlock,
    /// In an input the block sends to a language model: never.
    SentToModel,
}

/// Where a value stands: which node reads it and what it may reference.
#[derive(Clone, Copy)]
pub(crate) struct Site<'a> {
    /// Index of the reading node in the scope's graph; `None` for a loop's `while` condition,
    /// evaluated inside its body.
    pub from: Option<usize>,
    pub secrets: Secrets,
    pub pointer: &'a str,
}

impl<'a> Site<'a> {
    /// A condition, loop input or call input of node `from`.
    pub fn control(from: Option<usize>, pointer: &'a str) -> Site<'a> {
        Site { from, secrets: Secrets::OutsideBlock, pointer }
    }

    /// An input of block node `index`.
    pub fn block_input(index: usize, pointer: &'a str, sent_to_model: bool) -> Site<'a> {
        Site {
            from: Some(index),
            secrets: if sent_to_model { Secrets::SentToModel } else { Secrets::Allowed },
            pointer,
        }
    }
}

impl Checker<'_> {
    pub(super) fn check_expression(&mut self, scope: &Scope<'_, '_>, site: Site<'_>, source: &str) {
        let expr = match planwright_expr::compile_condition(source) {
            Ok(expr) => expr,
            Err(error) => {
                self.findings.push(
                    Finding::error(Code::InvalidExpression, site.pointer.to_owned(), format!("expression `{source}`: {}", error.message))
                        .hint("conditions use references, literals, == != < <= > >=, and/or/not, in, parentheses and len(); see docs/plan-format.md"),
                );
                return;
            }
        };
        let mut kinds = std::collections::HashMap::new();
        for reference in expr.references() {
            let ty = self.check_reference(scope, site, reference);
            kinds.insert(reference.clone(), kind_of(&ty));
        }
        for problem in
            expr.check_kinds(&mut |reference| kinds.get(reference).copied().unwrap_or(planwright_expr::Kind::Unknown))
        {
            let finding = if problem.fails {
                Finding::error(
                    Code::InvalidExpression,
                    site.pointer.to_owned(),
                    format!("expression `{source}`: {}", problem.message),
                )
            } else {
                Finding::warning(
                    Code::InvalidExpression,
                    site.pointer.to_owned(),
                    format!("expression `{source}`: {}", problem.message),
                )
            };
            self.findings.push(
                finding
                    .hint("compare values of the same type; the types come from the referenced outputs' declarations"),
            );
        }
    }

    /// Checks every reference inside `value` and returns the value's type. The pointer is one
    /// buffer extended and cut back per nested value, since values may be large.
    pub(super) fn check_value(&mut self, scope: &Scope<'_, '_>, site: Site<'_>, value: &Value) -> Type {
        let mut pointer = site.pointer.to_owned();
        self.check_nested(scope, site, value, &mut pointer)
    }

    pub(super) fn check_nested(
        &mut self,
        scope: &Scope<'_, '_>,
        site: Site<'_>,
        value: &Value,
        pointer: &mut String,
    ) -> Type {
        let here = Site { pointer, ..site };
        match value {
            Value::String(text) => self.check_string(scope, here, text),
            Value::Array(items) => {
                let mut members: Vec<Type> = Vec::new();
                for (i, item) in items.iter().enumerate() {
                    let ty = with_token(pointer, &i.to_string(), |p| self.check_nested(scope, site, item, p));
                    if !members.contains(&ty) {
                        members.push(ty);
                    }
                }
                Type::Array(Box::new(match members.len() {
                    0 => Type::Any,
                    1 => members.remove(0),
                    _ => Type::Union(members),
                }))
            }
            Value::Object(map) => Type::Object(Some(
                map.iter()
                    .map(|(key, item)| {
                        (key.clone(), with_token(pointer, key, |p| self.check_nested(scope, site, item, p)))
                    })
                    .collect(),
            )),
            literal => Type::of_value(literal),
        }
    }

    /// The type of a string: its reference's when it is exactly one, else a string.
    pub(super) fn check_string(&mut self, scope: &Scope<'_, '_>, site: Site<'_>, text: &str) -> Type {
        if !text.contains("${") {
            return Type::String;
        }
        match Template::parse(text) {
            Ok(Template::Single(reference)) => self.check_reference(scope, site, &reference),
            Ok(template) => {
                for reference in template.references() {
                    self.check_reference(scope, site, reference);
                }
                Type::String
            }
            Err(error) => {
                self.findings.push(
                    Finding::error(Code::InvalidReference, site.pointer.to_owned(), format!("{error}"))
                        .hint("references look like `${vars.name}`, `${node.alias.path}`, `${env.NAME}` or `${secrets.NAME}`; write `$${` for a literal `${`"),
                );
                // The string's other references are still checked (and count as uses).
                for reference in scan_references(text).filter_map(Result::ok) {
                    self.check_reference(scope, site, &reference);
                }
                Type::Any
            }
        }
    }

    /// Checks one reference from `site` and returns the type it yields (`any` when unknown).
    pub(super) fn check_reference(&mut self, scope: &Scope<'_, '_>, site: Site<'_>, reference: &Reference) -> Type {
        let (base, rest, described) = match &reference.root {
            Root::Env => return Type::String,
            Root::Secrets => {
                self.check_secret(site, reference);
                return Type::String;
            }
            Root::Vars => {
                let name = reference.path[0].as_str();
                self.used_vars.insert(name.to_owned());
                let Some(ty) = find_var(scope, name).or_else(|| self.vars.get(name).cloned()) else {
                    self.undefined_var(scope, site, reference, name);
                    return Type::Any;
                };
                (ty, &reference.path[1..], format!("variable `{name}`"))
            }
            Root::Node(id) => {
                let Some((found, index)) = find_node(scope, site.from, id) else {
                    self.unknown_node(scope, site, reference, id);
                    return Type::Any;
                };
                let shape = &found.shape.nodes[index];
                let alias = reference.path[0].as_str();
                let Some(ty) = shape.outputs.get(alias) else {
                    let candidates = closest(alias, shape.outputs.keys().map(String::as_str));
                    let hint = match &shape.kind {
                        Kind::Block(spec) if spec.outputs.contains_key(alias) && shape.node.out.is_empty() => {
                            format!("node `{id}` must alias that output first: add `out: {{{alias}: {alias}}}` to it")
                        }
                        Kind::Block(spec) if spec.outputs.contains_key(alias) => {
                            format!("node `{id}` must alias that output first: add `{alias}: {alias}` under its `out`")
                        }
                        Kind::Loop(_) => format!("a loop's output is `collect`, the list of its iterations' outputs: give node `{id}` `out: {{collect: {alias}}}`"),
                        _ if shape.outputs.is_empty() => format!("node `{id}` has no `out`; add one mapping an output to an alias"),
                        _ => format!("aliases of `{id}`: {}", shape.outputs.keys().cloned().collect::<Vec<_>>().join(", ")),
                    };
                    self.error(
                        site,
                        Code::UnknownAlias,
                        format!(
                            "`{reference}`: node `{id}` has no output alias `{alias}`{}",
                            did_you_mean(&candidates)
                        ),
                        &hint,
                        candidates,
                    );
                    return Type::Any;
                };
                (ty.clone(), &reference.path[1..], format!("`${{{id}.{alias}}}`"))
            }
        };
        match base.at_path(rest.iter().map(String::as_str)) {
            Ok(ty) => ty,
            Err(error) => {
                let hint = if error.candidates.is_empty() {
                    format!("{described} is {base}")
                } else {
                    format!("properties here: {}", error.candidates.join(", "))
                };
                self.error(
                    site,
                    Code::UnknownPath,
                    format!("`{reference}`: {}", error.message),
                    &hint,
                    error.candidates,
                );
                Type::Any
            }
        }
    }

    fn check_secret(&mut self, site: Site<'_>, reference: &Reference) {
        let name = reference.path[0].as_str();
        self.used_secrets.insert(name.to_owned());
        match site.secrets {
            Secrets::OutsideBlock => self.error(
                site,
                Code::InvalidReference,
                format!("`{reference}` is used outside a block's inputs; secrets are resolved only inside a block, just before it runs"),
                "pass the secret in the `in` of the block that needs it; a called plan declares its own `secrets`",
                Vec::new(),
            ),
            Secrets::SentToModel => self.error(
                site,
                Code::InvalidReference,
                format!("`{reference}` is in an input sent to a language model; a secret's value is never shown to a model"),
                &format!("in browser steps write the placeholder `{{{{{name}}}}}`: it is typed into the page without the model seeing it"),
                Vec::new(),
            ),
            Secrets::Allowed if !self.plan.secrets.iter().any(|s| s == name) => {
                let candidates = closest(name, self.plan.secrets.iter().map(String::as_str));
                let hint = match candidates.first() {
                    Some(close) => format!("if you meant `{close}`, fix the name; otherwise add `{name}` to the plan's `secrets` list"),
                    None => format!("add `{name}` to the plan's `secrets` list"),
                };
                self.error(site, Code::UndeclaredSecret, format!("`{reference}` names a secret the plan does not declare{}", did_you_mean(&candidates)), &hint, candidates);
            }
            Secrets::Allowed => {}
        }
    }

    fn undefined_var(&mut self, scope: &Scope<'_, '_>, site: Site<'_>, reference: &Reference, name: &str) {
        let mut known: Vec<String> = self.vars.keys().cloned().collect();
        known.extend(all_loop_vars(scope));
        let candidates = closest(name, known.iter().map(String::as_str));
        let hint = match self.places.loop_vars.get(name) {
            Some(owner) => format!("`{name}` is a loop variable of `{owner}`, visible only inside that loop's body"),
            None => format!("define it under `vars:` (e.g. `{name}: null` to ask for it at run time)"),
        };
        self.error(
            site,
            Code::UndefinedVar,
            format!("`{reference}`: there is no variable `{name}` here{}", did_you_mean(&candidates)),
            &hint,
            candidates,
        );
    }

    fn unknown_node(&mut self, scope: &Scope<'_, '_>, site: Site<'_>, reference: &Reference, id: &str) {
        let visible = visible_ids(scope);
        let candidates = closest(id, visible.iter().map(String::as_str));
        let hint = match self.places.nodes.get(id) {
            Some(path) if path.contains('/') => {
                let owner = path.rsplit_once('/').map_or("", |(owner, _)| owner);
                format!("`{id}` is inside the body of loop `{owner}`; from outside, read the loop's `collect` output (`out: {{collect: …}}`)")
            }
            _ => "reference a node of this graph or of an enclosing one by its id".to_owned(),
        };
        self.error(
            site,
            Code::UnknownNode,
            format!("`{reference}` names node `{id}`, which does not exist here{}", did_you_mean(&candidates)),
            &hint,
            candidates,
        );
    }

    pub(super) fn error(&mut self, site: Site<'_>, code: Code, message: String, hint: &str, candidates: Vec<String>) {
        self.findings.push(Finding::error(code, site.pointer.to_owned(), message).hint(hint).candidates(candidates));
    }
}

/// The expression language's view of a type.
fn kind_of(ty: &Type) -> planwright_expr::Kind {
    use planwright_expr::Kind as K;
    match ty {
        Type::String | Type::File => K::String,
        Type::Integer | Type::Number => K::Number,
        Type::Boolean => K::Boolean,
        Type::Null => K::Null,
        Type::Array(_) => K::List,
        Type::Object(_) => K::Object,
        Type::Bytes | Type::Any | Type::Union(_) => K::Unknown,
    }
}

/// Finds node `id` from `from` in `scope`, then in the enclosing scopes, recording the
/// dependency edge in the scope where it is found (a body reading an outer node makes the loop
/// node depend on it). Returns the scope and the node's index there.
fn find_node<'s, 'p>(scope: &'s Scope<'s, 'p>, from: Option<usize>, id: &str) -> Option<(&'s Scope<'s, 'p>, usize)> {
    let mut current = scope;
    let mut reader = from;
    loop {
        if let Some(&index) = current.shape.ids.get(id) {
            if let Some(reader) = reader {
                current.edges.borrow_mut().push(Edge { from: index, to: reader, kind: EdgeKind::Data });
            }
            return Some((current, index));
        }
        reader = current.owner;
        current = current.parent?;
    }
}

/// Whether an enclosing graph has a node `id`.
pub(super) fn find_in_parents(scope: &Scope<'_, '_>, id: &str) -> bool {
    std::iter::successors(scope.parent, |s| s.parent).any(|s| s.shape.ids.contains_key(id))
}

pub(super) fn find_var(scope: &Scope<'_, '_>, name: &str) -> Option<Type> {
    std::iter::successors(Some(scope), |s| s.parent)
        .find_map(|s| s.loop_vars.iter().find(|(n, _)| n == name).map(|(_, t)| t.clone()))
}

pub(super) fn all_loop_vars(scope: &Scope<'_, '_>) -> Vec<String> {
    std::iter::successors(Some(scope), |s| s.parent).flat_map(|s| s.loop_vars.iter().map(|(n, _)| n.clone())).collect()
}

fn visible_ids(scope: &Scope<'_, '_>) -> Vec<String> {
    std::iter::successors(Some(scope), |s| s.parent).flat_map(|s| s.shape.ids.keys().map(|id| id.to_string())).collect()
}
