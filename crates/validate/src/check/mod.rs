//! Phase B: every field of every node, every reference in scope and type, dependency edges;
//! then ordering per graph (cycles, browser order, levels).
//!
//! `mod.rs` walks graphs and nodes; `inputs` checks a block's inputs against its spec;
//! `references` resolves `${...}` and expressions in scope; `loops` and `calls` check loop
//! and subflow nodes.

mod calls;
mod inputs;
mod loops;
mod references;

use std::cell::RefCell;
use std::collections::{BTreeMap, HashMap, HashSet};

use indexmap::IndexMap;
use planwright_catalog::{Catalog, Lookup, Type};
use planwright_plan::reference::{escape_pointer, RESERVED_ROOTS};
use planwright_plan::suggest::{closest, did_you_mean};
use planwright_plan::{Code, Finding, Node, NodeRole, Plan, Policy};
use serde_json::Value;

use crate::advice;
use crate::order::{analyse, Edge, EdgeKind, GraphAnalysis};
use crate::shapes::{var_types, GraphShape, Kind};
use crate::subflow::Children;

/// What validating one plan yields to its caller.
pub struct PlanReport {
    pub findings: Vec<Finding>,
    pub analysis: GraphAnalysis,
    /// Top-level aliases and their types: what a caller of this plan may map.
    pub outputs: IndexMap<String, Type>,
    /// Top-level aliases given by more than one node: a caller cannot map them.
    pub ambiguous: Vec<String>,
    pub browser: bool,
}

/// Validates `plan`, resolving subflows through `children` (which also guards against cycles).
pub fn validate_with(plan: &Plan, catalog: &Catalog, children: &mut Children<'_>) -> PlanReport {
    let shape = GraphShape::build(&plan.graph, catalog, children);
    let mut places = Places::default();
    places.collect(&plan.graph, "");
    let mut checker = Checker {
        catalog,
        plan,
        vars: var_types(plan),
        places,
        findings: Vec::new(),
        used_vars: HashSet::new(),
        used_secrets: HashSet::new(),
    };
    let root = Scope {
        shape: &shape,
        pointer: String::new(),
        parent: None,
        owner: None,
        loop_vars: Vec::new(),
        policy: plan.policy.unwrap_or_default(),
        edges: RefCell::default(),
    };
    let analysis = checker.check_graph(&root, true);
    checker.check_layout(&shape);
    advice::check_plan(plan, &checker.used_vars, &checker.used_secrets, &mut checker.findings);
    PlanReport {
        findings: checker.findings,
        analysis,
        outputs: shape.aliases(),
        ambiguous: shape.duplicate_aliases(),
        browser: shape.uses_browser(),
    }
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
    /// The policy this graph's nodes inherit: the plan's, with each enclosing loop body's
    /// `policy` merged over it field by field.
    pub policy: Policy,
    /// Dependencies between the nodes of this graph, as found.
    pub edges: RefCell<Vec<Edge>>,
}

impl Scope<'_, '_> {
    fn node_pointer(&self, index: usize) -> String {
        format!("{}/graph/{index}", self.pointer)
    }
}

/// Where each node id and loop variable of the plan lives, to explain a reference that names
/// one out of its scope.
#[derive(Default)]
struct Places {
    /// Node id → its path (`loop/inner`).
    nodes: HashMap<String, String>,
    /// Loop variable → the path of the loop node that defines it.
    loop_vars: HashMap<String, String>,
}

impl Places {
    fn collect(&mut self, graph: &[Node], prefix: &str) {
        for node in graph {
            let path = format!("{prefix}{}", node.id);
            self.nodes.entry(node.id.clone()).or_insert_with(|| path.clone());
            if let Some(foreach) = &node.foreach {
                for var in std::iter::once(&foreach.item_var).chain(&foreach.index_var) {
                    self.loop_vars.entry(var.clone()).or_insert_with(|| path.clone());
                }
            }
            self.collect(node.body_graph(), &format!("{path}/"));
        }
    }
}

struct Checker<'a> {
    catalog: &'a Catalog,
    plan: &'a Plan,
    vars: IndexMap<String, Type>,
    places: Places,
    findings: Vec<Finding>,
    used_vars: HashSet<String>,
    used_secrets: HashSet<String>,
}

impl Checker<'_> {
    fn check_graph(&mut self, scope: &Scope<'_, '_>, top_level: bool) -> GraphAnalysis {
        self.check_ids(scope);
        if !top_level {
            self.check_body_aliases(scope);
        }
        let mut bodies = BTreeMap::new();
        for index in 0..scope.shape.nodes.len() {
            if let Some(body) = self.check_node(scope, index) {
                bodies.insert(index, body);
            }
        }
        analyse(scope.shape, scope.edges.take(), &scope.pointer, bodies, &mut self.findings)
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
                    Finding::error(
                        Code::ReservedNodeId,
                        pointer.clone(),
                        format!("`{id}` cannot be a node id: `${{{id}.…}}` already means something else"),
                    )
                    .hint(format!("rename the node, e.g. `{id}_step`")),
                );
            }
            if !seen.insert(id) {
                self.findings.push(
                    Finding::error(
                        Code::DuplicateNodeId,
                        pointer,
                        format!("node id `{id}` is used twice in the same graph"),
                    )
                    .hint("give each node its own id; references name nodes by id"),
                );
            } else if references::find_in_parents(scope, id) {
                self.findings.push(
                    Finding::error(
                        Code::DuplicateNodeId,
                        pointer,
                        format!("node id `{id}` hides a node of the enclosing graph with the same id"),
                    )
                    .hint("rename one of them so that `${…}` references are unambiguous"),
                );
            }
        }
    }

    /// A loop collects its body's outputs by alias, so an alias given twice in a body is
    /// ambiguous. (At the top level, node-qualified references keep aliases apart; a caller
    /// mapping an ambiguous alias is told so in `calls`.)
    fn check_body_aliases(&mut self, scope: &Scope<'_, '_>) {
        let mut seen: HashSet<&str> = HashSet::new();
        for (index, shape) in scope.shape.nodes.iter().enumerate() {
            for (key, alias) in &shape.node.out {
                if !seen.insert(alias) {
                    self.findings.push(
                        Finding::error(
                            Code::DuplicateAlias,
                            format!("{}/out/{}", scope.node_pointer(index), escape_pointer(key)),
                            format!("alias `{alias}` is already given by another node of this loop body; the loop's `collect` would have two values for it"),
                        )
                        .hint("choose a distinct alias, e.g. prefix it with the node id"),
                    );
                }
            }
        }
    }

    /// Checks one node; returns the analysis of its body when it is a loop.
    fn check_node(&mut self, scope: &Scope<'_, '_>, index: usize) -> Option<GraphAnalysis> {
        let shape = &scope.shape.nodes[index];
        let node = shape.node;
        let pointer = scope.node_pointer(index);
        if let Some(when) = &node.when {
            let at = format!("{pointer}/when/expr");
            self.check_expression(scope, references::Site::control(Some(index), &at), &when.expr);
        }
        for (i, after) in node.after.iter().enumerate() {
            self.check_after(scope, index, i, after);
        }
        advice::check_policy(node, &scope.policy, &pointer, &mut self.findings);
        let body = match &shape.kind {
            Kind::Block(spec) => {
                self.check_block(scope, index, spec);
                None
            }
            Kind::Unknown => {
                self.explain_unknown(node, &pointer);
                // Still check what it references, so one wrong block id hides nothing else.
                for (name, value) in &node.inputs {
                    let at = format!("{pointer}/in/{}", escape_pointer(name));
                    self.check_value(scope, references::Site::block_input(index, &at, false), value);
                }
                if let Some(foreach) = &node.foreach {
                    let at = format!("{pointer}/foreach/input");
                    self.check_value(scope, references::Site::control(Some(index), &at), &foreach.input);
                }
                None
            }
            Kind::Loop(body) => Some(self.check_loop(scope, index, body)),
            Kind::Subflow(child) => {
                self.check_call(scope, index, child);
                None
            }
        };
        if !matches!(shape.kind, Kind::Block(_) | Kind::Unknown) && !node.inputs.is_empty() {
            self.findings.push(
                Finding::error(
                    Code::UnknownKey,
                    format!("{pointer}/in"),
                    "`in` gives inputs to a block, and this node is not a block",
                )
                .hint(if node.call.is_some() {
                    "pass values to the called plan in `call.inputs`"
                } else {
                    "move the inputs to the nodes of the loop body"
                }),
            );
        }
        body
    }

    fn check_after(&mut self, scope: &Scope<'_, '_>, index: usize, position: usize, after: &str) {
        let pointer = format!("{}/after/{position}", scope.node_pointer(index));
        match scope.shape.ids.get(after) {
            Some(&dependency) => {
                scope.edges.borrow_mut().push(Edge { from: dependency, to: index, kind: EdgeKind::After })
            }
            None => {
                let candidates = closest(after, scope.shape.ids.keys().copied());
                let hint = match self.places.nodes.get(after) {
                    Some(path) => {
                        format!("`{after}` is `{path}`, in another graph; `after` orders nodes of the same graph")
                    }
                    None => "name a node of the same graph".to_owned(),
                };
                self.findings.push(
                    Finding::error(
                        Code::UnknownNode,
                        pointer,
                        format!(
                            "`after` names `{after}`, which is not a node of this graph{}",
                            did_you_mean(&candidates)
                        ),
                    )
                    .hint(hint)
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
                .hint("`planwright blocks` lists the catalog with each block's inputs and outputs")
                .candidates(candidates),
                Lookup::UnknownVersion { available } => {
                    let versions: Vec<String> = available.iter().map(|v| v.to_string()).collect();
                    let id = block.split('@').next().unwrap_or(block);
                    Finding::error(
                        Code::UnknownBlockVersion,
                        at,
                        format!("the catalog has no version `{block}`; it has {}", versions.join(", ")),
                    )
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
            (
                "the node does nothing: it has no `block`, loop or `call`".to_owned(),
                "give it a `block` from the catalog".to_owned(),
            )
        } else if node.block.is_some() && (node.foreach.is_some() || node.while_.is_some()) {
            (
                "a block node cannot loop by itself".to_owned(),
                "make a loop node (`foreach` + `body: {plan: {graph: [...]}}`) with this block inside its body"
                    .to_owned(),
            )
        } else {
            (
                format!(
                    "the node sets {}, which do not make one kind of node",
                    fields.iter().map(|f| format!("`{f}`")).collect::<Vec<_>>().join(", ")
                ),
                "a node is a block (`block`), a loop (`foreach` or `while`, with `body`) or a subflow (`call`)"
                    .to_owned(),
            )
        };
        self.findings.push(Finding::error(Code::AmbiguousNodeType, pointer.to_owned(), message).hint(hint));
    }

    fn check_layout(&mut self, shape: &GraphShape<'_>) {
        let Some(ui) = &self.plan.ui else { return };
        for (i, id) in ui.layout.iter().enumerate() {
            if !shape.ids.contains_key(id.as_str()) {
                let candidates = closest(id, shape.ids.keys().copied());
                self.findings.push(
                    Finding::error(
                        Code::UnknownNode,
                        format!("/ui/layout/{i}"),
                        format!(
                            "`ui.layout` names `{id}`, which is not a node of the plan{}",
                            did_you_mean(&candidates)
                        ),
                    )
                    .hint("`ui.layout` lists the plan's top-level node ids in display order")
                    .candidates(candidates),
                );
            }
        }
    }
}

fn has_reference(value: &Value) -> bool {
    let mut found = false;
    planwright_plan::reference::visit_strings(value, &mut |text, _| found |= text.contains("${"));
    found
}
