//! Subflow nodes: the called plan, its vars given in `call.inputs`, its aliases mapped in `out`.

use std::sync::Arc;

use planwright_plan::reference::escape_pointer;
use planwright_plan::suggest::{closest, did_you_mean};
use planwright_plan::{Code, Finding};

use super::references::Site;
use super::{Checker, Scope};
use crate::shapes::var_types;
use crate::subflow::{Child, ChildProblem};

impl Checker<'_> {
    pub(super) fn check_call(&mut self, scope: &Scope<'_, '_>, index: usize, child: &Result<Arc<Child>, ChildProblem>) {
        let node = scope.shape.nodes[index].node;
        let pointer = scope.node_pointer(index);
        let Some(call) = &node.call else { return };
        let mut given = Vec::new();
        for (name, value) in &call.inputs {
            let at = format!("{pointer}/call/inputs/{}", escape_pointer(name));
            given.push((name, self.check_value(scope, Site::control(Some(index), &at), value), at));
        }
        let at = format!("{pointer}/call/plan_id");
        let plan_id = call.plan_id.as_str();
        let child = match child {
            Ok(child) => child,
            Err(_) if plan_id.is_empty() => return,
            Err(ChildProblem::NotFound { candidates }) => {
                let message = match plan_id.split_once('@') {
                    Some((id, version)) if candidates.iter().any(|c| c.starts_with(&format!("{id}@"))) => {
                        format!("plan `{id}` has no registered version {version}{}", did_you_mean(candidates))
                    }
                    _ => format!("no registered plan `{plan_id}`{}", did_you_mean(candidates)),
                };
                self.findings.push(
                    Finding::error(Code::UnknownPlan, at, message)
                        .hint("register the plan first (`planwright register FILE`), or put `<plan_id>.yaml` beside this plan")
                        .candidates(candidates.clone()),
                );
                return;
            }
            Err(ChildProblem::Unreadable { path, message }) => {
                self.findings.push(Finding::error(
                    Code::InvalidSubflow,
                    at,
                    format!("plan `{plan_id}` ({}) cannot be read: {message}", path.display()),
                ));
                return;
            }
            Err(ChildProblem::Cycle(chain)) => {
                self.findings.push(cycle(at, plan_id, chain));
                return;
            }
            Err(ChildProblem::TooDeep) => {
                self.findings.push(Finding::error(
                    Code::InvalidSubflow,
                    at,
                    format!("calling `{plan_id}` nests plans more than 16 deep"),
                ));
                return;
            }
        };
        if let Some(chain) = child.errors.iter().find_map(|f| (f.code == Code::SubflowCycle).then(|| f.message.clone()))
        {
            // The plan it calls leads back here: that is this plan's cycle too.
            self.findings.push(
                Finding::error(
                    Code::SubflowCycle,
                    at,
                    format!("calling `{plan_id}` leads back to this plan ({chain})"),
                )
                .hint("a plan cannot call itself, directly or through other plans"),
            );
        } else if !child.errors.is_empty() {
            let first: Vec<String> =
                child.errors.iter().take(3).map(|f| format!("{}: {}", f.code.as_str(), f.message)).collect();
            self.findings.push(
                Finding::error(
                    Code::InvalidSubflow,
                    at,
                    format!("called plan `{plan_id}` has {} error(s): {}", child.errors.len(), first.join("; ")),
                )
                .hint(format!("run `planwright validate {}`", child.path.display())),
            );
        }
        let child_vars = var_types(&child.plan);
        for (name, ty, at) in given {
            match child_vars.get(name) {
                None => {
                    let candidates = closest(name, child.plan.vars.keys().map(String::as_str));
                    self.findings.push(
                        Finding::error(
                            Code::UnknownInput,
                            at,
                            format!("plan `{plan_id}` has no var `{name}`{}", did_you_mean(&candidates)),
                        )
                        .hint(format!("its vars: {}", child.plan.vars.keys().cloned().collect::<Vec<_>>().join(", ")))
                        .candidates(candidates),
                    );
                }
                Some(expected) if !expected.accepts(&ty) => self.findings.push(
                    Finding::error(
                        Code::TypeMismatch,
                        at,
                        format!(
                            "var `{name}` of plan `{plan_id}` is {expected} (from its default), but the value is {ty}"
                        ),
                    )
                    .hint("give a value of the type the called plan expects"),
                ),
                Some(_) => {}
            }
        }
        for (name, default) in &child.plan.vars {
            if default.is_null() && !call.inputs.contains_key(name) {
                self.findings.push(
                    Finding::error(
                        Code::MissingInput,
                        format!("{pointer}/call/inputs/{}", escape_pointer(name)),
                        format!("plan `{plan_id}` needs var `{name}`, which has no default"),
                    )
                    .hint(format!("add `{name}:` under `call.inputs`")),
                );
            }
        }
        for (key, alias) in &node.out {
            let at = format!("{pointer}/out/{}", escape_pointer(key));
            if child.ambiguous.contains(key) {
                self.findings.push(
                    Finding::error(
                        Code::DuplicateAlias,
                        at,
                        format!("plan `{plan_id}` has more than one node giving alias `{key}`, so it cannot be mapped"),
                    )
                    .hint(format!("give the nodes of `{plan_id}` distinct aliases")),
                );
            } else if !child.outputs.contains_key(key) {
                let candidates = closest(key, child.outputs.keys().map(String::as_str));
                self.findings.push(
                    Finding::error(
                        Code::UnknownOutput,
                        at,
                        format!(
                            "plan `{plan_id}` has no output alias `{key}` (mapped to `{alias}`){}",
                            did_you_mean(&candidates)
                        ),
                    )
                    .hint(format!(
                        "aliases of `{plan_id}`: {}",
                        child.outputs.keys().cloned().collect::<Vec<_>>().join(", ")
                    ))
                    .candidates(candidates),
                );
            }
        }
    }
}

fn cycle(at: String, plan_id: &str, chain: &[String]) -> Finding {
    Finding::error(
        Code::SubflowCycle,
        at,
        format!("calling `{plan_id}` leads back to a plan already calling it: {}", chain.join(" → ")),
    )
    .hint("a plan cannot call itself, directly or through other plans")
}
