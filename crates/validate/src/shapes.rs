//! Phase A: what every node is and what it outputs, for every graph level, before any reference
//! is checked (a reference may point at a node further down the file, or out of a loop body).

use std::collections::HashMap;
use std::sync::Arc;

use indexmap::IndexMap;
use planwright_catalog::{BlockSpec, Catalog, Lookup, Resource, Type};
use planwright_plan::{Node, NodeRole, Plan};

use crate::subflow::{Child, ChildProblem, Children};

/// One graph (the plan's or a loop body's) with what phase A learnt about its nodes.
pub struct GraphShape<'p> {
    pub nodes: Vec<NodeShape<'p>>,
    /// Node id → index of its first occurrence.
    pub ids: HashMap<&'p str, usize>,
}

pub struct NodeShape<'p> {
    pub node: &'p Node,
    pub kind: Kind<'p>,
    /// Alias → the type of the value it names.
    pub outputs: IndexMap<String, Type>,
    /// Whether running this node acts on the run's browser session (directly, in its body or
    /// in the plan it calls).
    pub browser: bool,
}

pub enum Kind<'p> {
    Block(&'p BlockSpec),
    /// A block id the catalog does not know, or a node whose role is unclear: reported in
    /// phase B, typed as `any` here so that one mistake is not reported again at every use.
    Unknown,
    Loop(Box<GraphShape<'p>>),
    Subflow(Result<Arc<Child>, ChildProblem>),
}

impl<'p> GraphShape<'p> {
    pub fn build(graph: &'p [Node], catalog: &'p Catalog, children: &mut Children<'_>) -> GraphShape<'p> {
        let mut ids = HashMap::new();
        let nodes = graph
            .iter()
            .enumerate()
            .map(|(index, node)| {
                ids.entry(node.id.as_str()).or_insert(index);
                NodeShape::build(node, catalog, children)
            })
            .collect();
        GraphShape { nodes, ids }
    }

    /// Aliases of every node in this graph with their types; the first wins on duplicates.
    pub fn aliases(&self) -> IndexMap<String, Type> {
        let mut all = IndexMap::new();
        for shape in &self.nodes {
            for (alias, ty) in &shape.outputs {
                all.entry(alias.clone()).or_insert_with(|| ty.clone());
            }
        }
        all
    }

    /// Aliases given by more than one node of this graph.
    pub fn duplicate_aliases(&self) -> Vec<String> {
        let mut seen = std::collections::HashSet::new();
        let mut duplicates = Vec::new();
        for alias in self.nodes.iter().flat_map(|n| n.outputs.keys()) {
            if !seen.insert(alias) && !duplicates.contains(alias) {
                duplicates.push(alias.clone());
            }
        }
        duplicates
    }

    pub fn uses_browser(&self) -> bool {
        self.nodes.iter().any(|n| n.browser)
    }
}

impl<'p> NodeShape<'p> {
    fn build(node: &'p Node, catalog: &'p Catalog, children: &mut Children<'_>) -> NodeShape<'p> {
        let any_outputs = || node.out.values().map(|alias| (alias.clone(), Type::Any)).collect();
        match node.role() {
            Some(NodeRole::Block(block)) => match catalog.lookup(block) {
                Lookup::Found(spec) => NodeShape {
                    node,
                    outputs: node
                        .out
                        .iter()
                        .map(|(key, alias)| {
                            (alias.clone(), spec.outputs.get(key).map_or(Type::Any, |p| p.ty().clone()))
                        })
                        .collect(),
                    browser: spec.resource == Some(Resource::Browser),
                    kind: Kind::Block(spec),
                },
                _ => NodeShape { node, kind: Kind::Unknown, outputs: any_outputs(), browser: false },
            },
            Some(NodeRole::Loop) => {
                let body = GraphShape::build(node.body_graph(), catalog, children);
                let collect = Type::Array(Box::new(Type::Object(Some(body.aliases()))));
                NodeShape {
                    node,
                    outputs: node
                        .out
                        .iter()
                        .map(|(key, alias)| (alias.clone(), if key == "collect" { collect.clone() } else { Type::Any }))
                        .collect(),
                    browser: body.uses_browser(),
                    kind: Kind::Loop(Box::new(body)),
                }
            }
            Some(NodeRole::Subflow) => {
                let plan_id = node.call.as_ref().map_or("", |call| call.plan_id.as_str());
                let child = children.resolve(plan_id);
                let outputs = match &child {
                    Ok(child) => node
                        .out
                        .iter()
                        .map(|(key, alias)| (alias.clone(), child.outputs.get(key).cloned().unwrap_or(Type::Any)))
                        .collect(),
                    Err(_) => any_outputs(),
                };
                NodeShape {
                    node,
                    outputs,
                    browser: child.as_ref().is_ok_and(|c| c.browser),
                    kind: Kind::Subflow(child),
                }
            }
            None => NodeShape { node, kind: Kind::Unknown, outputs: any_outputs(), browser: false },
        }
    }
}

/// The types of a plan's vars, from their default values (`null` means "given at run time":
/// any type).
pub fn var_types(plan: &Plan) -> IndexMap<String, Type> {
    plan.vars
        .iter()
        .map(|(name, value)| {
            let ty = match Type::of_value(value) {
                Type::Null => Type::Any,
                Type::Object(Some(props)) if props.is_empty() => Type::Object(None),
                ty => ty,
            };
            (name.clone(), ty)
        })
        .collect()
}
