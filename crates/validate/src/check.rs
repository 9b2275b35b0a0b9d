//! Phase B: every field of every node, every reference in scope and type, dependency edges;
//! then ordering per graph (cycles, browser order, levels).

use std::cell::RefCell;
use std::collections::HashSet;

use indexmap::IndexMap;
use planwright_catalog::{BlockSpec, Catalog, Lookup, Resource, Rule, Type};
use planwright_plan::reference::{escape_pointer, placeholders, visit_strings};
use planwright_plan::suggest::{closest, did_you_mean};
use planwright_plan::reference::RESERVED_ROOTS;
use planwright_plan::{Code, Finding, Node, NodeRole, Plan, Reference, Root, Template};
use serde_json::Value;

use crate::advice;
use crate::order::{analyse, GraphAnalysis};
use crate::shapes::{var_types, GraphShape, Kind};
use crate::subflow::{ChildProblem, Children};

/// What validating one plan yields to its caller.
pub struct PlanReport {
    pub findings: Vec<Finding>,
    pub analysis: GraphAnalysis,
    /// Top-level aliases and their types: what a caller of this plan may map.
    pub outputs: IndexMap<String, Type>,
    pub browser: bool,
}

/// Validates `plan`, resolving subflows through `children` (which also guards against cycles).
pub fn validate_with(plan: &Plan, catalog: &Catalog, children: &mut Children<'_>) -> PlanReport {
    let shape = GraphShape::build(&plan.graph, catalog, children);
    let mut checker = Checker {
        catalog,
        plan,
        vars: var_types(plan),
        findings: Vec::new(),
        used_vars: HashSet::new(),
        used_secrets: HashSet::new(),
    };
    let root = Scope { shape: &shape, pointer: String::new(), parent: None, owner: None, loop_vars: Vec::new(), edges: RefCell::default() };
    let analysis = checker.check_graph(&root, true);
    checker.check_layout(&shape);
    advice::check_plan(plan, &checker.used_vars, &checker.used_secrets, &mut checker.findings);
    PlanReport { findings: checker.findings, analysis, outputs: shape.aliases(), browser: shape.uses_browser() }
}

/// One graph level with its enclosing levels: what a reference can see from here.
pub(crate) struct Scope<'s, 'p> {
    pub shape: &'s GraphShape<'p>,
    /// JSON pointer of the graph's container: "" for the plan, `/graph/2/body/plan` for a body.
    pub pointer: String,
    pub parent: Option<&'s Scope<'s, 'p>>,
    /// Index, in the parent graph, of the loop node that owns this body.
    pub owner: Option<usize>,
    /// Loop variables this level adds (`item`, `index`).
    pub loop_vars: Vec<(String, Type)>,
    /// (dependency, dependant) pairs of node indexes in this graph.
    pub edges: RefCell<Vec<(usize, usize)>>,
}

impl Scope<'_, '_> {
    fn node_pointer(&self, index: usize) -> String {
        format!("{}/graph/{index}", self.pointer)
    }
}

/// Where a value stands: which node reads it, and whether secrets may be resolved there.
#[derive(Clone, Copy)]
struct Site<'a> {
    /// Index of the reading node in the scope's graph; `None` for a loop's `while` condition,
    /// evaluated inside its body.
    from: Option<usize>,
    /// Secrets are resolved only inside a block's inputs, just before the block uses them.
    secrets_allowed: bool,
    pointer: &'a str,
}

struct Checker<'a> {
    catalog: &'a Catalog,
    plan: &'a Plan,
    vars: IndexMap<String, Type>,
    findings: Vec<Finding>,
    used_vars: HashSet<String>,
    used_secrets: HashSet<String>,
}

impl Checker<'_> {
    fn check_graph(&mut self, scope: &Scope<'_, '_>, top_level: bool) -> GraphAnalysis {
        self.check_ids(scope);
        self.check_aliases(scope, top_level);
        let mut bodies = std::collections::BTreeMap::new();
        for index in 0..scope.shape.nodes.len() {
            if let Some(body) = self.check_node(scope, index) {
                bodies.insert(index, body);
            }
        }
        let edges = scope.edges.take();
        analyse(scope.shape, &edges, &scope.pointer, bodies, &mut self.findings)
    }

    fn check_ids(&mut self, scope: &Scope<'_, '_>) {
        let mut seen = HashSet::new();
        for (index, shape) in scope.shape.nodes.iter().enumerate() {
            let id = shape.node.id.as_str();
            let pointer = format!("{}/id", scope.node_pointer(index));
            if id.is_empty() {
                continue; // the shape check reports the missing id
            }
            if RESERVED_ROOTS.contains(&id) {
                self.findings.push(
                    Finding::error(Code::ReservedNodeId, pointer.clone(), format!("`{id}` cannot be a node id: `${{{id}.…}}` already means something else"))
                        .hint(format!("rename the node, e.g. `{id}_step`")),
                );
            }
            if !seen.insert(id) {
                self.findings.push(
                    Finding::error(Code::DuplicateNodeId, pointer, format!("node id `{id}` is used twice in the same graph"))
                        .hint("give each node its own id; references name nodes by id"),
                );
            } else if find_in_parents(scope, id).is_some() {
                self.findings.push(
                    Finding::error(Code::DuplicateNodeId, pointer, format!("node id `{id}` hides a node of the enclosing graph with the same id"))
                        .hint("rename one of them so that `${…}` references are unambiguous"),
                );
            }
        }
    }

    /// Loop bodies collect their outputs by alias and callers of a plan map them by alias, so an
    /// alias used twice is ambiguous: an error in a body, a warning at the top level.
    fn check_aliases(&mut self, scope: &Scope<'_, '_>, top_level: bool) {
        let mut seen: HashSet<&str> = HashSet::new();
        for (index, shape) in scope.shape.nodes.iter().enumerate() {
            for (key, alias) in &shape.node.out {
                if seen.insert(alias) {
                    continue;
                }
                let pointer = format!("{}/out/{}", scope.node_pointer(index), escape_pointer(key));
                let message = format!("alias `{alias}` is already given by another node of this graph");
                self.findings.push(if top_level {
                    Finding::warning(Code::DuplicateAlias, pointer, format!("{message}; a plan calling this one cannot map it unambiguously"))
                } else {
                    Finding::error(Code::DuplicateAlias, pointer, format!("{message}; the loop's `collect` would have two values for it"))
                }
                .hint("choose a distinct alias, e.g. prefix it with the node id"));
            }
        }
    }

    /// Checks one node; returns the analysis of its body when it is a loop.
    fn check_node(&mut self, scope: &Scope<'_, '_>, index: usize) -> Option<GraphAnalysis> {
        let shape = &scope.shape.nodes[index];
        let node = shape.node;
        let pointer = scope.node_pointer(index);
        let site = |field: &str| format!("{pointer}/{field}");
        if let Some(when) = &node.when {
            let at = site("when/expr");
            self.check_expression(scope, Site { from: Some(index), secrets_allowed: false, pointer: &at }, &when.expr);
        }
        for (i, after) in node.after.iter().enumerate() {
            self.check_after(scope, index, i, after);
        }
        advice::check_policy(node, self.plan, &pointer, &mut self.findings);
        let body = match &shape.kind {
            Kind::Block(spec) => {
                self.check_block(scope, index, spec);
                None
            }
            Kind::Unknown => {
                self.explain_unknown(node, &pointer);
                None
            }
            Kind::Loop(body) => Some(self.check_loop(scope, index, body)),
            Kind::Subflow(child) => {
                self.check_subflow(scope, index, child);
                None
            }
        };
        if !matches!(shape.kind, Kind::Block(_) | Kind::Unknown) && !node.inputs.is_empty() {
            self.findings.push(
                Finding::error(Code::UnknownKey, site("in"), "`in` gives inputs to a block, and this node is not a block")
                    .hint(if node.call.is_some() { "pass values to the called plan in `call.inputs`" } else { "move the inputs to the nodes of the loop body" }),
            );
        }
        body
    }

    fn check_after(&mut self, scope: &Scope<'_, '_>, index: usize, position: usize, after: &str) {
        let pointer = format!("{}/after/{position}", scope.node_pointer(index));
        match scope.shape.ids.get(after) {
            Some(&dependency) => scope.edges.borrow_mut().push((dependency, index)),
            None => {
                let candidates = closest(after, scope.shape.ids.keys().copied());
                self.findings.push(
                    Finding::error(Code::UnknownNode, pointer, format!("`after` names `{after}`, which is not a node of this graph{}", did_you_mean(&candidates)))
                        .candidates(candidates),
                );
            }
        }
    }

    fn explain_unknown(&mut self, node: &Node, pointer: &str) {
        if let Some(NodeRole::Block(block)) = node.role() {
            let at = format!("{pointer}/block");
            let finding = match self.catalog.lookup(block) {
                Lookup::UnknownBlock { candidates } => Finding::error(
                    Code::UnknownBlock,
                    at,
                    format!("there is no block `{block}` in the catalog{}", did_you_mean(&candidates)),
                )
                .hint("`planwright blocks` lists the catalog; `planwright blocks search \"...\"` finds one by purpose")
                .candidates(candidates),
                Lookup::UnknownVersion { available } => {
                    let versions: Vec<String> = available.iter().map(|v| v.to_string()).collect();
                    let id = block.split('@').next().unwrap_or(block);
                    Finding::error(Code::UnknownBlockVersion, at, format!("the catalog has no version `{block}`; it has {}", versions.join(", ")))
                        .hint(format!("pin one of the available versions, or write just `{id}` for the newest"))
                        .candidates(versions.iter().map(|v| format!("{id}@{v}")).collect())
                }
                Lookup::BadVersion { message } => Finding::error(Code::UnknownBlockVersion, at, message),
                Lookup::Found(_) => return,
            };
            self.findings.push(finding);
            return;
        }
        let fields: Vec<&str> = [
            ("type", node.kind.is_some()),
            ("block", node.block.is_some()),
            ("foreach", node.foreach.is_some()),
            ("while", node.while_.is_some()),
            ("body", node.body.is_some()),
            ("call", node.call.is_some()),
        ]
        .into_iter()
        .filter_map(|(name, set)| set.then_some(name))
        .collect();
        let (message, hint) = if fields.is_empty() {
            ("the node does nothing: it has no `block`, loop or `call`".to_owned(), "give it a `block` from the catalog".to_owned())
        } else if node.block.is_some() && (node.foreach.is_some() || node.while_.is_some()) {
            (
                "a block node cannot loop by itself".to_owned(),
                "make a loop node (`foreach` + `body: {plan: {graph: [...]}}`) with this block inside its body".to_owned(),
            )
        } else {
            (
                format!("the node sets {}, which do not make one kind of node", fields.iter().map(|f| format!("`{f}`")).collect::<Vec<_>>().join(", ")),
                "a node is a block (`block`), a loop (`foreach` or `while`, with `body`) or a subflow (`call`)".to_owned(),
            )
        };
        self.findings.push(Finding::error(Code::AmbiguousNodeType, pointer.to_owned(), message).hint(hint));
    }

    fn check_block(&mut self, scope: &Scope<'_, '_>, index: usize, spec: &BlockSpec) {
        let node = scope.shape.nodes[index].node;
        let pointer = scope.node_pointer(index);
        for (name, value) in &node.inputs {
            let at = format!("{pointer}/in/{}", escape_pointer(name));
            let site = Site { from: Some(index), secrets_allowed: true, pointer: &at };
            let value_type = self.check_value(scope, site, value);
            let Some(port) = spec.inputs.get(name) else {
                let candidates = closest(name, spec.inputs.keys().map(String::as_str));
                self.findings.push(
                    Finding::error(Code::UnknownInput, at, format!("block `{}` has no input `{name}`{}", spec.id, did_you_mean(&candidates)))
                        .hint(format!("inputs of `{}`: {}", spec.id, spec.inputs.keys().cloned().collect::<Vec<_>>().join(", ")))
                        .candidates(candidates),
                );
                continue;
            };
            let expected = port.ty();
            if !expected.accepts(&value_type) {
                self.findings.push(
                    Finding::error(Code::TypeMismatch, at.clone(), format!("input `{name}` of `{}` takes {expected}, but the value is {value_type}", spec.id))
                        .hint(port.description.as_ref().map_or_else(|| format!("give a {expected}"), |d| format!("`{name}`: {}", d.en()))),
                );
            } else if let (Some(allowed), false) = (port.enum_values(), has_reference(value)) {
                if !allowed.contains(value) {
                    let names: Vec<String> = allowed.iter().map(|v| v.as_str().map_or_else(|| v.to_string(), str::to_owned)).collect();
                    let mut candidates = closest(value.as_str().unwrap_or_default(), names.iter().map(String::as_str));
                    if candidates.is_empty() {
                        candidates = names.clone();
                    }
                    self.findings.push(
                        Finding::error(Code::InvalidValue, at, format!("{value} is not a value input `{name}` accepts{}", did_you_mean(&candidates)))
                            .hint(format!("one of: {}", names.join(", ")))
                            .candidates(candidates),
                    );
                }
            }
        }
        for (name, port) in &spec.inputs {
            if port.required && port.default.is_none() && !node.inputs.contains_key(name) {
                let what = port.description.as_ref().map_or_else(String::new, |d| format!(" ({})", d.en()));
                self.findings.push(
                    Finding::error(Code::MissingInput, format!("{pointer}/in/{}", escape_pointer(name)), format!("block `{}` needs input `{name}`{what}", spec.id))
                        .hint(format!("add `{name}:` ({}) under `in`", port.ty())),
                );
            }
        }
        self.check_rules(node, spec, &pointer);
        if spec.resource == Some(Resource::Browser) {
            self.check_placeholders(node, &pointer);
        }
        for (key, alias) in &node.out {
            if !spec.outputs.contains_key(key) {
                let candidates = closest(key, spec.outputs.keys().map(String::as_str));
                self.findings.push(
                    Finding::error(Code::UnknownOutput, format!("{pointer}/out/{}", escape_pointer(key)), format!("block `{}` has no output `{key}` (aliased `{alias}`){}", spec.id, did_you_mean(&candidates)))
                        .hint(format!("outputs of `{}`: {}", spec.id, spec.outputs.keys().cloned().collect::<Vec<_>>().join(", ")))
                        .candidates(candidates),
                );
            }
        }
    }

    fn check_rules(&mut self, node: &Node, spec: &BlockSpec, pointer: &str) {
        for rule in &spec.rules {
            match rule {
                Rule::OneOfRequired(names) if !names.iter().any(|n| node.inputs.contains_key(n)) => {
                    let list = names.iter().map(|n| format!("`{n}`")).collect::<Vec<_>>().join(" or ");
                    self.findings.push(
                        Finding::error(Code::RuleViolation, format!("{pointer}/in"), format!("block `{}` needs {list}", spec.id))
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
                        self.findings.push(
                            Finding::error(Code::RuleViolation, format!("{pointer}/in/{}", escape_pointer(name)), format!("input `{name}` of `{}` must not be empty", spec.id))
                                .hint(format!("`{name}`: {}", spec.inputs.get(name).and_then(|p| p.description.as_ref()).map_or("give a value", |d| d.en()))),
                        );
                    }
                }
                Rule::OneOfRequired(_) => {}
            }
        }
    }

    /// `{{NAME}}` in browser steps is typed as a credential: it must be a declared secret.
    fn check_placeholders(&mut self, node: &Node, pointer: &str) {
        for (name, value) in &node.inputs {
            let base = format!("{pointer}/in/{}", escape_pointer(name));
            visit_strings(value, &mut |text, suffix| {
                for placeholder in placeholders(text) {
                    self.used_secrets.insert(placeholder.to_owned());
                    if !self.plan.secrets.iter().any(|s| s == placeholder) {
                        let candidates = closest(placeholder, self.plan.secrets.iter().map(String::as_str));
                        self.findings.push(
                            Finding::error(Code::UndeclaredPlaceholder, format!("{base}{suffix}"), format!("credential placeholder `{{{{{placeholder}}}}}` is not declared in `secrets`{}", did_you_mean(&candidates)))
                                .hint(format!("add `{placeholder}` to the plan's `secrets` list"))
                                .candidates(candidates),
                        );
                    }
                }
            });
        }
    }

    fn check_loop(&mut self, scope: &Scope<'_, '_>, index: usize, body: &GraphShape<'_>) -> GraphAnalysis {
        let node = scope.shape.nodes[index].node;
        let pointer = scope.node_pointer(index);
        let mut loop_vars = Vec::new();
        match (&node.foreach, &node.while_) {
            (Some(_), Some(_)) => self.findings.push(
                Finding::error(Code::InvalidLoop, pointer.clone(), "a loop has either `foreach` or `while`, not both")
                    .hint("split it into two loop nodes"),
            ),
            (None, None) => self.findings.push(
                Finding::error(Code::InvalidLoop, pointer.clone(), "a loop node needs `foreach` (over a list) or `while` (a condition)")
                    .hint("add `foreach: {input: ${node.alias}}` or `while: {condition: {expr: ...}, max_iterations: 10}`"),
            ),
            _ => {}
        }
        if node.body.is_none() || node.body_graph().is_empty() {
            self.findings.push(
                Finding::error(Code::InvalidLoop, format!("{pointer}/body"), "a loop node needs a `body` with at least one node")
                    .hint("add `body: {plan: {graph: [...]}}` with the steps to repeat"),
            );
        }
        if let Some(foreach) = &node.foreach {
            let at = format!("{pointer}/foreach/input");
            let input_type = self.check_value(scope, Site { from: Some(index), secrets_allowed: false, pointer: &at }, &foreach.input);
            let item_type = match input_type {
                Type::Array(items) => *items,
                Type::Any | Type::Null => Type::Any,
                Type::Union(members) if members.iter().any(|m| matches!(m, Type::Array(_) | Type::Any)) => Type::Any,
                other => {
                    self.findings.push(
                        Finding::error(Code::TypeMismatch, at, format!("`foreach.input` must be a list, but it is {other}"))
                            .hint("reference a list output, e.g. `${read.rows}`, or write a literal list"),
                    );
                    Type::Any
                }
            };
            for (name, ty, field) in [(Some(&foreach.item_var), item_type, "item_var"), (foreach.index_var.as_ref(), Type::Integer, "index_var")] {
                let Some(name) = name else { continue };
                if self.vars.contains_key(name) {
                    self.findings.push(
                        Finding::warning(Code::ShadowedVar, format!("{pointer}/foreach/{field}"), format!("loop variable `{name}` hides the plan variable of the same name inside the body"))
                            .hint(format!("rename the loop variable, e.g. `{name}_item`")),
                    );
                }
                loop_vars.push((name.clone(), ty));
            }
        }
        for (key, _) in node.out.iter().filter(|(key, _)| key.as_str() != "collect") {
            self.findings.push(
                Finding::error(Code::UnknownOutput, format!("{pointer}/out/{}", escape_pointer(key)), format!("a loop's only output is `collect`, not `{key}`"))
                    .hint("write `out: {collect: results}`: the list of each iteration's body outputs")
                    .candidates(vec!["collect".into()]),
            );
        }
        let body_scope = Scope {
            shape: body,
            pointer: format!("{pointer}/body/plan"),
            parent: Some(scope),
            owner: Some(index),
            loop_vars,
            edges: RefCell::default(),
        };
        let analysis = self.check_graph(&body_scope, false);
        if let Some(condition) = node.while_.as_ref().map(|w| &w.condition) {
            // Evaluated before each iteration, against the body's latest outputs.
            let at = format!("{pointer}/while/condition/expr");
            self.check_expression(&body_scope, Site { from: None, secrets_allowed: false, pointer: &at }, &condition.expr);
        }
        analysis
    }

    fn check_subflow(&mut self, scope: &Scope<'_, '_>, index: usize, child: &Result<std::sync::Arc<crate::subflow::Child>, ChildProblem>) {
        let node = scope.shape.nodes[index].node;
        let pointer = scope.node_pointer(index);
        let Some(call) = &node.call else { return };
        let at = format!("{pointer}/call/plan_id");
        for (name, value) in &call.inputs {
            let value_at = format!("{pointer}/call/inputs/{}", escape_pointer(name));
            self.check_value(scope, Site { from: Some(index), secrets_allowed: false, pointer: &value_at }, value);
        }
        let child = match child {
            Ok(child) => child,
            Err(_) if call.plan_id.is_empty() => return,
            Err(ChildProblem::NotFound { candidates }) => {
                self.findings.push(
                    Finding::error(Code::UnknownPlan, at, format!("no registered plan `{}`{}", call.plan_id, did_you_mean(candidates)))
                        .hint("register the plan first (`planwright register FILE`), or put `<plan_id>.yaml` beside this plan")
                        .candidates(candidates.clone()),
                );
                return;
            }
            Err(ChildProblem::Unreadable { path, message }) => {
                self.findings.push(Finding::error(Code::InvalidSubflow, at, format!("plan `{}` ({}) cannot be read: {message}", call.plan_id, path.display())));
                return;
            }
            Err(ChildProblem::Cycle(chain)) => {
                self.findings.push(
                    Finding::error(Code::SubflowCycle, at, format!("calling `{}` leads back to a plan already calling it: {}", call.plan_id, chain.join(" → ")))
                        .hint("a plan cannot call itself, directly or through other plans"),
                );
                return;
            }
            Err(ChildProblem::TooDeep) => {
                self.findings.push(Finding::error(Code::InvalidSubflow, at, format!("calling `{}` nests plans more than 16 deep", call.plan_id)));
                return;
            }
        };
        if !child.errors.is_empty() {
            let first: Vec<String> = child.errors.iter().take(3).map(|f| format!("{}: {}", f.code.as_str(), f.message)).collect();
            self.findings.push(
                Finding::error(Code::InvalidSubflow, at, format!("called plan `{}` has {} error(s): {}", call.plan_id, child.errors.len(), first.join("; ")))
                    .hint(format!("run `planwright validate {}`", child.path.display())),
            );
        }
        for name in call.inputs.keys().filter(|n| !child.plan.vars.contains_key(*n)) {
            let candidates = closest(name, child.plan.vars.keys().map(String::as_str));
            self.findings.push(
                Finding::error(Code::UnknownInput, format!("{pointer}/call/inputs/{}", escape_pointer(name)), format!("plan `{}` has no var `{name}`{}", call.plan_id, did_you_mean(&candidates)))
                    .hint(format!("its vars: {}", child.plan.vars.keys().cloned().collect::<Vec<_>>().join(", ")))
                    .candidates(candidates),
            );
        }
        for (name, default) in &child.plan.vars {
            if default.is_null() && !call.inputs.contains_key(name) {
                self.findings.push(
                    Finding::error(Code::MissingInput, format!("{pointer}/call/inputs/{}", escape_pointer(name)), format!("plan `{}` needs var `{name}`, which has no default", call.plan_id))
                        .hint(format!("add `{name}:` under `call.inputs`")),
                );
            }
        }
        for (key, alias) in &node.out {
            if !child.outputs.contains_key(key) {
                let candidates = closest(key, child.outputs.keys().map(String::as_str));
                self.findings.push(
                    Finding::error(Code::UnknownOutput, format!("{pointer}/out/{}", escape_pointer(key)), format!("plan `{}` has no output alias `{key}` (mapped to `{alias}`){}", call.plan_id, did_you_mean(&candidates)))
                        .candidates(candidates),
                );
            }
        }
    }

    fn check_expression(&mut self, scope: &Scope<'_, '_>, site: Site<'_>, source: &str) {
        match planwright_expr::compile_condition(source) {
            Ok(expr) => {
                for reference in expr.references() {
                    self.check_reference(scope, site, reference);
                }
            }
            Err(error) => self.findings.push(
                Finding::error(Code::InvalidExpression, site.pointer.to_owned(), format!("expression `{source}`: {}", error.message))
                    .hint("conditions use references, literals, == != < <= > >=, and/or/not, in, parentheses and len(); see docs/plan-format.md"),
            ),
        }
    }

    /// Checks every reference inside `value` and returns the value's type. The site's pointer
    /// is extended and cut back in one buffer per nested value, since values may be large.
    fn check_value(&mut self, scope: &Scope<'_, '_>, site: Site<'_>, value: &Value) -> Type {
        let mut pointer = site.pointer.to_owned();
        self.check_nested(scope, site.from, site.secrets_allowed, value, &mut pointer)
    }

    fn check_nested(&mut self, scope: &Scope<'_, '_>, from: Option<usize>, secrets_allowed: bool, value: &Value, pointer: &mut String) -> Type {
        let site = Site { from, secrets_allowed, pointer };
        match value {
            Value::String(text) if !text.contains("${") => Type::String,
            Value::String(text) => match Template::parse(text) {
                Ok(Template::Literal(_)) => Type::String,
                Ok(Template::Single(reference)) => self.check_reference(scope, site, &reference),
                Ok(template @ Template::Mixed(_)) => {
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
                    Type::Any
                }
            },
            Value::Array(items) => {
                let mut members: Vec<Type> = Vec::new();
                for (i, item) in items.iter().enumerate() {
                    let len = pointer.len();
                    pointer.push('/');
                    pointer.push_str(&i.to_string());
                    let ty = self.check_nested(scope, from, secrets_allowed, item, pointer);
                    pointer.truncate(len);
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
                        let len = pointer.len();
                        pointer.push('/');
                        pointer.push_str(&escape_pointer(key));
                        let ty = self.check_nested(scope, from, secrets_allowed, item, pointer);
                        pointer.truncate(len);
                        (key.clone(), ty)
                    })
                    .collect(),
            )),
            literal => Type::of_value(literal),
        }
    }

    /// Checks one reference from `site` and returns the type it yields (`any` when unknown).
    fn check_reference(&mut self, scope: &Scope<'_, '_>, site: Site<'_>, reference: &Reference) -> Type {
        let (base, rest, described) = match &reference.root {
            Root::Env => return Type::String,
            Root::Secrets => {
                let name = reference.path[0].as_str();
                self.used_secrets.insert(name.to_owned());
                if !site.secrets_allowed {
                    self.error(site, Code::InvalidReference, format!("`{reference}` is used outside a block's inputs; secrets are resolved only inside a block, just before it runs"), "pass the secret in the `in` of the block that needs it; a called plan declares its own `secrets`", Vec::new());
                } else if !self.plan.secrets.iter().any(|s| s == name) {
                    let candidates = closest(name, self.plan.secrets.iter().map(String::as_str));
                    self.error(site, Code::UndeclaredSecret, format!("`{reference}` names a secret the plan does not declare{}", did_you_mean(&candidates)), &format!("add `{name}` to the plan's `secrets` list"), candidates);
                }
                return Type::String;
            }
            Root::Vars => {
                let name = reference.path[0].as_str();
                self.used_vars.insert(name.to_owned());
                let Some(ty) = find_var(scope, name).or_else(|| self.vars.get(name).cloned()) else {
                    let mut known: Vec<String> = self.vars.keys().cloned().collect();
                    known.extend(all_loop_vars(scope));
                    let candidates = closest(name, known.iter().map(String::as_str));
                    self.error(site, Code::UndefinedVar, format!("`{reference}`: there is no variable `{name}`{}", did_you_mean(&candidates)), &format!("define it under `vars:` (e.g. `{name}: null` to ask for it at run time)"), candidates);
                    return Type::Any;
                };
                (ty, &reference.path[1..], format!("variable `{name}`"))
            }
            Root::Node(id) => {
                let Some((found, index)) = find_node(scope, site.from, id) else {
                    let visible = visible_ids(scope);
                    let candidates = closest(id, visible.iter().map(String::as_str));
                    self.error(site, Code::UnknownNode, format!("`{reference}` names node `{id}`, which does not exist here{}", did_you_mean(&candidates)), "reference a node of this graph or of an enclosing one by its id", candidates);
                    return Type::Any;
                };
                let shape = &found.shape.nodes[index];
                let alias = reference.path[0].as_str();
                let Some(ty) = shape.outputs.get(alias) else {
                    let candidates = closest(alias, shape.outputs.keys().map(String::as_str));
                    let hint = match &shape.kind {
                        Kind::Block(spec) if spec.outputs.contains_key(alias) => format!("node `{id}` must alias that output first: add `out: {{{alias}: {alias}}}` to it"),
                        _ if shape.outputs.is_empty() => format!("node `{id}` has no `out`; add one mapping an output to an alias"),
                        _ => format!("aliases of `{id}`: {}", shape.outputs.keys().cloned().collect::<Vec<_>>().join(", ")),
                    };
                    self.error(site, Code::UnknownAlias, format!("`{reference}`: node `{id}` has no output alias `{alias}`{}", did_you_mean(&candidates)), &hint, candidates);
                    return Type::Any;
                };
                (ty.clone(), &reference.path[1..], format!("`${{{id}.{alias}}}`"))
            }
        };
        match base.at_path(rest.iter().map(String::as_str)) {
            Ok(ty) => ty,
            Err(error) => {
                let message = format!("`{reference}`: {} ({described} is {base})", error.message);
                let hint = if error.candidates.is_empty() { "check the path against the output's type".to_owned() } else { format!("properties here: {}", error.candidates.join(", ")) };
                self.error(site, Code::UnknownPath, message, &hint, error.candidates);
                Type::Any
            }
        }
    }

    fn error(&mut self, site: Site<'_>, code: Code, message: String, hint: &str, candidates: Vec<String>) {
        self.findings.push(Finding::error(code, site.pointer.to_owned(), message).hint(hint).candidates(candidates));
    }

    fn check_layout(&mut self, shape: &GraphShape<'_>) {
        let Some(ui) = &self.plan.ui else { return };
        for (i, id) in ui.layout.iter().enumerate() {
            if !shape.ids.contains_key(id.as_str()) {
                let candidates = closest(id, shape.ids.keys().copied());
                self.findings.push(
                    Finding::error(Code::UnknownNode, format!("/ui/layout/{i}"), format!("`ui.layout` names `{id}`, which is not a node of the plan{}", did_you_mean(&candidates)))
                        .candidates(candidates),
                );
            }
        }
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
                current.edges.borrow_mut().push((index, reader));
            }
            return Some((current, index));
        }
        reader = current.owner;
        current = current.parent?;
    }
}

fn find_in_parents(scope: &Scope<'_, '_>, id: &str) -> Option<usize> {
    let mut current = scope.parent;
    while let Some(parent) = current {
        if let Some(&index) = parent.shape.ids.get(id) {
            return Some(index);
        }
        current = parent.parent;
    }
    None
}

fn find_var(scope: &Scope<'_, '_>, name: &str) -> Option<Type> {
    let mut current = Some(scope);
    while let Some(level) = current {
        if let Some((_, ty)) = level.loop_vars.iter().find(|(n, _)| n == name) {
            return Some(ty.clone());
        }
        current = level.parent;
    }
    None
}

fn all_loop_vars(scope: &Scope<'_, '_>) -> Vec<String> {
    let mut names = Vec::new();
    let mut current = Some(scope);
    while let Some(level) = current {
        names.extend(level.loop_vars.iter().map(|(n, _)| n.clone()));
        current = level.parent;
    }
    names
}

fn visible_ids(scope: &Scope<'_, '_>) -> Vec<String> {
    let mut ids = Vec::new();
    let mut current = Some(scope);
    while let Some(level) = current {
        ids.extend(level.shape.ids.keys().map(|id| id.to_string()));
        current = level.parent;
    }
    ids
}

fn has_reference(value: &Value) -> bool {
    let mut found = false;
    visit_strings(value, &mut |text, _| found |= text.contains("${"));
    found
}
