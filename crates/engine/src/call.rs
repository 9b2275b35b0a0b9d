//! Subflow nodes: the called plan runs with its vars from `call.inputs`, seeing nothing of the
//! caller's graph; its aliases map to the caller's through `out`.

use std::collections::HashMap;
use std::sync::Arc;
use std::time::Instant;

use planwright_designs::Resolution;
use planwright_plan::{Node, Policy};
use planwright_runs::{EventKind, Reason, RunMessage};
use planwright_validate::validate_plan;
use serde_json::{Map, Value};
use tokio_util::sync::CancellationToken;

use crate::run::{Abort, CalledPlan, RunCtx};
use crate::schedule::{run_graph, GraphScope};
use crate::values::{Env, NodeValue, View};

pub(crate) async fn run_call(
    ctx: &RunCtx,
    node: &Node,
    path: String,
    env: Arc<Env>,
    policy: Policy,
    cancel: CancellationToken,
) -> Result<NodeValue, Abort> {
    let started = Instant::now();
    let Some(call) = &node.call else { return ctx.fail(&path, 0, 1, "a subflow node needs `call`", false, &policy) };
    let called = match called_plan(ctx, &call.plan_id) {
        Ok(called) => called,
        Err(error) => return ctx.fail(&path, 0, 1, error, false, &policy),
    };
    let plan = &called.plan;
    let mut vars: Map<String, Value> = plan.vars.iter().map(|(k, v)| (k.clone(), v.clone())).collect();
    let mut view = View { local: &HashMap::new(), env: &env, secrets: None, used_secrets: None, tables: &ctx.tables };
    for (name, value) in &call.inputs {
        match view.resolve(value) {
            Ok(resolved) => {
                vars.insert(name.clone(), resolved);
            }
            Err(error) => return ctx.fail(&path, 0, 1, error, false, &policy),
        }
    }
    ctx.emit(EventKind::NodeStarted {
        node: path.clone(),
        attempt: 1,
        inputs: ctx.recorder.summary(&Value::Object(vars.clone())),
    })?;
    let scope = GraphScope {
        prefix: format!("{path}/"),
        env: Arc::new(Env { vars, nodes: HashMap::new(), parent: None }),
        policy: plan.policy.unwrap_or_default(),
    };
    let values = run_graph(ctx, &plan.graph, &called.analysis, scope, cancel.child_token()).await?;
    let mut child_aliases = Map::new();
    for inner in &plan.graph {
        if let Some(NodeValue::Done(outputs)) = values.get(&inner.id) {
            for (alias, value) in outputs.iter() {
                child_aliases.entry(alias.clone()).or_insert_with(|| value.clone());
            }
        }
    }
    let outputs: Map<String, Value> = node
        .out
        .iter()
        .map(|(key, alias)| (alias.clone(), child_aliases.get(key).cloned().unwrap_or(Value::Null)))
        .collect();
    let value = ctx.recorder.finish_node(&path, started.elapsed().as_millis() as u64, 1, outputs)?;
    ctx.count(|c| c.succeeded += 1);
    Ok(value)
}

/// The plan `plan_id` names, resolved and validated once per run.
fn called_plan(ctx: &RunCtx, plan_id: &str) -> Result<Arc<CalledPlan>, Reason> {
    if let Some(called) = ctx.called.lock().unwrap_or_else(|e| e.into_inner()).get(plan_id) {
        return Ok(called.clone());
    }
    let plan = match ctx.engine.plans.resolve(plan_id) {
        Resolution::Found { plan, .. } => plan,
        Resolution::NotFound { .. } => {
            return Err(Reason::said(
                RunMessage::CalledPlanNotFound { plan: plan_id.to_owned() },
                format!("no registered plan `{plan_id}`"),
            ))
        }
        Resolution::Unreadable { path, message } => {
            return Err(Reason::said(
                RunMessage::CalledPlanInvalid { plan: plan_id.to_owned(), detail: message.clone() },
                format!("plan `{plan_id}` ({}) cannot be read: {message}", path.display()),
            ))
        }
    };
    let validation = validate_plan(&plan, ctx.catalog(), ctx.engine.plans.as_ref());
    if !validation.is_valid() {
        let first = validation.errors().next().map_or_else(String::new, |f| f.message.clone());
        let text = if first.is_empty() {
            format!("called plan `{plan_id}` is invalid")
        } else {
            format!("called plan `{plan_id}` is invalid: {first}")
        };
        return Err(Reason::said(RunMessage::CalledPlanInvalid { plan: plan_id.to_owned(), detail: first }, text));
    }
    ctx.register_secrets(&plan.secrets);
    let called = Arc::new(CalledPlan { plan, analysis: validation.analysis });
    ctx.called.lock().unwrap_or_else(|e| e.into_inner()).insert(plan_id.to_owned(), called.clone());
    Ok(called)
}
