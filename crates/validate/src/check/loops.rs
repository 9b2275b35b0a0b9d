//! Loop nodes: `foreach` or `while`, a body with its own scope, and `collect`.

use std::cell::RefCell;

use planwright_catalog::Type;
use planwright_plan::reference::escape_pointer;
use planwright_plan::{Code, Finding};

use super::references::{all_loop_vars, Site};
use super::{Checker, Scope};
use crate::advice;
use crate::order::GraphAnalysis;
use crate::shapes::GraphShape;

impl Checker<'_> {
    pub(super) fn check_loop(&mut self, scope: &Scope<'_, '_>, index: usize, body: &GraphShape<'_>) -> GraphAnalysis {
        let node = scope.shape.nodes[index].node;
        let pointer = scope.node_pointer(index);
        match (&node.foreach, &node.while_) {
            (Some(_), Some(_)) => self.findings.push(
                Finding::error(Code::InvalidLoop, pointer.clone(), "a loop has either `foreach` or `while`, not both")
                    .hint("split it into two loop nodes"),
            ),
            (None, None) => self.findings.push(
                Finding::error(
                    Code::InvalidLoop,
                    pointer.clone(),
                    "a loop node needs `foreach` (over a list) or `while` (a condition)",
                )
                .hint("add `foreach: {input: ${node.alias}}` or `while: {condition: {expr: ...}, max_iterations: 10}`"),
            ),
            _ => {}
        }
        if node.body.is_none() || node.body_graph().is_empty() {
            self.findings.push(
                Finding::error(
                    Code::InvalidLoop,
                    format!("{pointer}/body"),
                    "a loop node needs a `body` with at least one node",
                )
                .hint("add `body: {plan: {graph: [...]}}` with the steps to repeat"),
            );
        }
        let loop_vars = self.check_foreach(scope, index, &pointer);
        for key in node.out.keys().filter(|key| key.as_str() != "collect") {
            self.findings.push(
                Finding::error(
                    Code::UnknownOutput,
                    format!("{pointer}/out/{}", escape_pointer(key)),
                    format!("a loop's only output is `collect`, not `{key}`"),
                )
                .hint("write `out: {collect: results}`: the list of each iteration's body outputs")
                .candidates(vec!["collect".into()]),
            );
        }
        if let Some(policy) = node.body.as_ref().and_then(|b| b.plan.policy.as_ref()) {
            advice::policy_conflicts(policy, &format!("{pointer}/body/plan/policy"), &mut self.findings);
        }
        let concurrent =
            node.foreach.as_ref().and_then(|f| f.max_concurrency).or(node.policy.and_then(|p| p.max_concurrency));
        if body.uses_browser() && concurrent.is_some_and(|n| n > 1) {
            self.findings.push(
                Finding::warning(Code::PolicyConflict, format!("{pointer}/foreach/max_concurrency"), "the body uses the browser, which the run's steps share: its iterations run one at a time whatever `max_concurrency` says")
                    .hint("remove `max_concurrency`, or move the browser steps out of the loop"),
            );
        }
        let body_scope = Scope {
            shape: body,
            pointer: format!("{pointer}/body/plan"),
            parent: Some(scope),
            owner: Some(index),
            loop_vars,
            policy: node
                .body
                .as_ref()
                .and_then(|b| b.plan.policy)
                .map_or(scope.policy, |own| own.merged_over(&scope.policy)),
            edges: RefCell::default(),
        };
        let analysis = self.check_graph(&body_scope, false);
        if let Some(condition) = node.while_.as_ref().map(|w| &w.condition) {
            // Evaluated before each iteration, against the body's latest outputs.
            let at = format!("{pointer}/while/condition/expr");
            self.check_expression(&body_scope, Site::control(None, &at), &condition.expr);
        }
        analysis
    }

    /// Checks `foreach` and returns the loop variables it gives the body.
    fn check_foreach(&mut self, scope: &Scope<'_, '_>, index: usize, pointer: &str) -> Vec<(String, Type)> {
        let Some(foreach) = &scope.shape.nodes[index].node.foreach else { return Vec::new() };
        let at = format!("{pointer}/foreach/input");
        let item_type = match self.check_value(scope, Site::control(Some(index), &at), &foreach.input) {
            Type::Array(items) => *items,
            Type::Any | Type::Null => Type::Any,
            Type::Union(members) if members.iter().any(|m| matches!(m, Type::Array(_) | Type::Any)) => Type::Any,
            other => {
                self.findings.push(
                    Finding::error(
                        Code::TypeMismatch,
                        at,
                        format!("`foreach.input` must be a list, but it is {other}"),
                    )
                    .hint("reference a list output, e.g. `${read.rows}`, or write a literal list"),
                );
                Type::Any
            }
        };
        let outer_loop_vars = all_loop_vars(scope);
        let mut loop_vars: Vec<(String, Type)> = Vec::new();
        for (name, ty, field) in
            [(Some(&foreach.item_var), item_type, "item_var"), (foreach.index_var.as_ref(), Type::Integer, "index_var")]
        {
            let Some(name) = name else { continue };
            let hidden = if loop_vars.iter().any(|(n, _)| n == name) {
                Some("the loop's item variable".to_owned())
            } else if outer_loop_vars.contains(name) {
                Some("the variable of an enclosing loop".to_owned())
            } else if self.vars.contains_key(name) {
                Some("the plan variable".to_owned())
            } else {
                None
            };
            if let Some(hidden) = hidden {
                self.findings.push(
                    Finding::warning(
                        Code::ShadowedVar,
                        format!("{pointer}/foreach/{field}"),
                        format!("loop variable `{name}` hides {hidden} of the same name inside the body"),
                    )
                    .hint(format!(
                        "give it its own name, e.g. `{name}_{}`",
                        if field == "item_var" { "item" } else { "index" }
                    )),
                );
            }
            loop_vars.push((name.clone(), ty));
        }
        loop_vars
    }
}
