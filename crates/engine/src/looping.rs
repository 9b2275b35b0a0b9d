//! Loop nodes: `foreach` runs its body per item, in parallel up to `max_concurrency`, and
//! collects the iterations' outputs in input order; `while` runs its body, then re-evaluates
//! its condition against the body's latest outputs before each further run, up to
//! `max_iterations`.

use std::collections::HashMap;
use std::sync::Arc;
use std::time::Instant;

use futures::stream::{self, StreamExt, TryStreamExt};
use planwright_plan::{Node, Policy};
use planwright_runs::{EventKind, Reason, RunMessage};
use planwright_validate::GraphAnalysis;
use serde_json::{Map, Value};
use tokio_util::sync::CancellationToken;

use crate::run::{Abort, RunCtx};
use crate::schedule::{run_graph, GraphScope};
use crate::values::{Env, NodeValue, View};

/// Iterations of a `foreach` in flight at once unless `max_concurrency` says otherwise.
pub(crate) const DEFAULT_FOREACH_CONCURRENCY: u32 = 4;

#[allow(clippy::too_many_arguments)] // the loop, where it stands, and the two policies it lives under
pub(crate) async fn run_loop(
    ctx: &RunCtx,
    node: &Node,
    body: &GraphAnalysis,
    path: String,
    env: Arc<Env>,
    policy: Policy,
    inherited: Policy,
    cancel: CancellationToken,
) -> Result<NodeValue, Abort> {
    let started = Instant::now();
    let body_policy =
        node.body.as_ref().and_then(|b| b.plan.policy).map_or(inherited, |own| own.merged_over(&inherited));
    let token = cancel.child_token();
    let work = iterate(ctx, node, body, &path, &env, &policy, body_policy, &token);
    let outcome = match policy.timeout_ms {
        Some(ms) => match tokio::time::timeout(std::time::Duration::from_millis(ms), work).await {
            Ok(outcome) => outcome,
            Err(_) => {
                token.cancel();
                let error = Reason::said(
                    RunMessage::LoopTimedOut { ms },
                    format!("timed out after {ms} ms (policy timeout_ms); its iterations were cancelled"),
                );
                return ctx.fail(&path, ms, 1, error, true, &policy);
            }
        },
        None => work.await,
    };
    let elapsed_ms = started.elapsed().as_millis() as u64;
    match outcome {
        Ok(results) => {
            let outputs: Map<String, Value> = node
                .out
                .iter()
                .map(|(key, alias)| {
                    (alias.clone(), if key == "collect" { Value::Array(results.clone()) } else { Value::Null })
                })
                .collect();
            let value = ctx.recorder.finish_node(&path, elapsed_ms, 1, outputs)?;
            ctx.count(|c| c.succeeded += 1);
            Ok(value)
        }
        Err(Fail::Abort(abort)) => Err(abort),
        Err(Fail::Text(error)) => ctx.fail(&path, elapsed_ms, 1, error, false, &policy),
    }
}

/// Runs the loop's iterations and returns each one's collected outputs, in order.
#[allow(clippy::too_many_arguments)]
async fn iterate(
    ctx: &RunCtx,
    node: &Node,
    body: &GraphAnalysis,
    path: &str,
    env: &Arc<Env>,
    policy: &Policy,
    body_policy: Policy,
    token: &CancellationToken,
) -> Result<Vec<Value>, Fail> {
    if let Some(foreach) = &node.foreach {
        let mut view = View { local: &HashMap::new(), env, secrets: None, used_secrets: None, tables: &ctx.tables };
        let items = match view.resolve_rows(&foreach.input)? {
            Value::Array(items) => items,
            other => {
                return Err(Fail::Text(Reason::said(
                    RunMessage::ForeachNotList,
                    format!("`foreach.input` must be a list, but it is {}", kind(&other)),
                )))
            }
        };
        ctx.emit(EventKind::NodeStarted {
            node: path.to_owned(),
            attempt: 1,
            inputs: ctx.recorder.summary(&serde_json::json!({ "items": items.len() })),
        })
        .map_err(abort_text)?;
        let limit =
            foreach.max_concurrency.or(policy.max_concurrency).unwrap_or(DEFAULT_FOREACH_CONCURRENCY).max(1) as usize;
        let iterations = items.into_iter().enumerate().map(|(index, item)| {
            let mut vars = Map::new();
            vars.insert(foreach.item_var.clone(), item);
            if let Some(index_var) = &foreach.index_var {
                vars.insert(index_var.clone(), Value::from(index));
            }
            let scope = GraphScope {
                prefix: format!("{path}[{index}]/"),
                env: Arc::new(Env { vars, nodes: HashMap::new(), parent: Some(env.clone()) }),
                policy: body_policy,
            };
            run_graph(ctx, node.body_graph(), body, scope, token.child_token())
        });
        // `buffered` keeps results in input order, whatever order iterations finish in.
        stream::iter(iterations)
            .buffered(limit)
            .map_ok(|values| collected(node, &values))
            .try_collect::<Vec<_>>()
            .await
            .map_err(Fail::Abort)
    } else if let Some(while_) = &node.while_ {
        ctx.emit(EventKind::NodeStarted {
            node: path.to_owned(),
            attempt: 1,
            inputs: serde_json::json!({ "while": while_.condition.expr }),
        })
        .map_err(abort_text)?;
        let mut results = Vec::new();
        for index in 0..while_.max_iterations {
            let scope = GraphScope { prefix: format!("{path}[{index}]/"), env: env.clone(), policy: body_policy };
            let values =
                run_graph(ctx, node.body_graph(), body, scope, token.child_token()).await.map_err(Fail::Abort)?;
            results.push(collected(node, &values));
            let mut view = View { local: &values, env, secrets: None, used_secrets: None, tables: &ctx.tables };
            if !view.condition(&while_.condition.expr)? {
                break;
            }
        }
        Ok(results)
    } else {
        Err(Fail::Text("a loop node needs `foreach` or `while`".into()))
    }
}

/// Why a loop did not finish: its own error (under its policy) or an abort from its body.
enum Fail {
    Text(Reason),
    Abort(Abort),
}

impl From<String> for Fail {
    fn from(text: String) -> Fail {
        Fail::Text(text.into())
    }
}

fn abort_text(abort: Abort) -> Fail {
    Fail::Abort(abort)
}

/// One iteration's outputs: every alias of the body's nodes (null when a node gave none).
fn collected(node: &Node, values: &HashMap<String, NodeValue>) -> Value {
    let mut item = Map::new();
    for inner in node.body_graph() {
        let outputs = match values.get(&inner.id) {
            Some(NodeValue::Done(outputs)) => Some(outputs),
            _ => None,
        };
        for alias in inner.out.values() {
            item.entry(alias.clone())
                .or_insert_with(|| outputs.and_then(|o| o.get(alias)).cloned().unwrap_or(Value::Null));
        }
    }
    Value::Object(item)
}

fn kind(value: &Value) -> &'static str {
    match value {
        Value::Null => "null",
        Value::Bool(_) => "a boolean",
        Value::Number(_) => "a number",
        Value::String(_) => "text",
        Value::Array(_) => "a list",
        Value::Object(_) => "an object",
    }
}
