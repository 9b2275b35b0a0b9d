//! Running one graph: a node starts as soon as everything it depends on has settled (not in
//! levels), up to the graph's concurrency; `when` and skipped inputs skip it; a halting failure
//! or a stop cancels what is in flight.

use std::cmp::Reverse;
use std::collections::{BinaryHeap, HashMap, HashSet};
use std::sync::Arc;

use futures::future::BoxFuture;
use futures::stream::{FuturesUnordered, StreamExt};
use futures::FutureExt;
use planwright_plan::{Node, NodeRole, Policy};
use planwright_runs::{EventKind, Reason, RunMessage};
use planwright_validate::GraphAnalysis;
use tokio_util::sync::CancellationToken;

use crate::run::{Abort, RunCtx};
use crate::values::{Env, NodeValue, View};

/// Nodes of a graph in flight at once unless a policy says otherwise.
pub(crate) const DEFAULT_MAX_CONCURRENCY: u32 = 8;

/// Where a graph runs: its node paths' prefix (`each[3]/`), its environment and policy.
#[derive(Clone)]
pub(crate) struct GraphScope {
    pub prefix: String,
    pub env: Arc<Env>,
    pub policy: Policy,
}

/// Runs `graph` in `analysis` order and returns every node's value by id.
pub(crate) fn run_graph<'a>(
    ctx: &'a RunCtx,
    graph: &'a [Node],
    analysis: &'a GraphAnalysis,
    scope: GraphScope,
    cancel: CancellationToken,
) -> BoxFuture<'a, Result<HashMap<String, NodeValue>, Abort>> {
    async move {
        let count = graph.len();
        let data_deps: Vec<HashSet<usize>> = (0..count).map(|i| analysis.data_dependencies(i).collect()).collect();
        let mut waiting_on: Vec<usize> = analysis.dependencies.iter().map(Vec::len).collect();
        let mut dependants: Vec<Vec<usize>> = vec![Vec::new(); count];
        for (node, deps) in analysis.dependencies.iter().enumerate() {
            for &dep in deps {
                dependants[dep].push(node);
            }
        }
        // Ready nodes start in analysis order (by level, then position in the file).
        let position: Vec<usize> = {
            let mut position = vec![0; count];
            for (rank, &node) in analysis.order.iter().enumerate() {
                position[node] = rank;
            }
            position
        };
        // Ready nodes, earliest in the analysis order first.
        let mut ready: BinaryHeap<Reverse<(usize, usize)>> =
            (0..count).filter(|&i| waiting_on[i] == 0).map(|i| Reverse((position[i], i))).collect();
        let limit = scope.policy.max_concurrency.unwrap_or(DEFAULT_MAX_CONCURRENCY).max(1) as usize;
        let mut values: HashMap<String, NodeValue> = HashMap::new();
        let mut running = FuturesUnordered::new();
        let mut abort: Option<Abort> = None;
        loop {
            while abort.is_none() && !cancel.is_cancelled() && running.len() < limit {
                let Some(Reverse((_, index))) = ready.pop() else { break };
                match start(ctx, graph, analysis, index, &scope, &values, &data_deps[index], &cancel) {
                    Started::Settled(value) => {
                        values.insert(graph[index].id.clone(), value);
                        release(index, &dependants, &position, &mut waiting_on, &mut ready);
                    }
                    Started::Running(future) => running.push(future),
                    Started::Failed(error) => {
                        cancel.cancel();
                        abort = Some(error);
                    }
                }
            }
            let Some((index, outcome)) = running.next().await else { break };
            match outcome {
                Ok(value) => {
                    values.insert(graph[index].id.clone(), value);
                    release(index, &dependants, &position, &mut waiting_on, &mut ready);
                }
                Err(error) => {
                    // The first reason wins; cancelling stops the rest promptly.
                    cancel.cancel();
                    abort.get_or_insert(error);
                }
            }
        }
        match abort {
            Some(error) => Err(error),
            None if cancel.is_cancelled() => Err(Abort::Stopped),
            None => Ok(values),
        }
    }
    .boxed()
}

fn release(
    index: usize,
    dependants: &[Vec<usize>],
    position: &[usize],
    waiting_on: &mut [usize],
    ready: &mut BinaryHeap<Reverse<(usize, usize)>>,
) {
    for &next in &dependants[index] {
        waiting_on[next] -= 1;
        if waiting_on[next] == 0 {
            ready.push(Reverse((position[next], next)));
        }
    }
}

type NodeFuture<'a> = BoxFuture<'a, (usize, Result<NodeValue, Abort>)>;

enum Started<'a> {
    /// Restored from a resumed record, or skipped: no work to wait for.
    Settled(NodeValue),
    Running(NodeFuture<'a>),
    Failed(Abort),
}

/// Decides what happens to a node whose dependencies have settled.
#[allow(clippy::too_many_arguments)] // the scheduler's state, lent for one decision
fn start<'a>(
    ctx: &'a RunCtx,
    graph: &'a [Node],
    analysis: &'a GraphAnalysis,
    index: usize,
    scope: &GraphScope,
    values: &HashMap<String, NodeValue>,
    data_deps: &HashSet<usize>,
    cancel: &CancellationToken,
) -> Started<'a> {
    let node = &graph[index];
    let path = format!("{}{}", scope.prefix, node.id);
    if let Some(outputs) = ctx.restored(&path) {
        return Started::Settled(NodeValue::Done(outputs));
    }
    let skipped_input = data_deps.iter().find_map(|&dep| match values.get(&graph[dep].id) {
        Some(NodeValue::Skipped(_)) => Some(graph[dep].id.clone()),
        _ => None,
    });
    if let Some(dep) = skipped_input {
        let reason = format!("it needs the outputs of `{dep}`, which was skipped");
        return skip(ctx, &path, Reason::said(RunMessage::DependencySkipped { dependency: dep }, reason));
    }
    if let Some(when) = &node.when {
        let mut view = View { local: values, env: &scope.env, secrets: None, used_secrets: None, tables: &ctx.tables };
        match view.condition(&when.expr) {
            Ok(true) => {}
            Ok(false) => {
                let reason = format!("its condition `{}` is false", when.expr);
                return skip(
                    ctx,
                    &path,
                    Reason::said(RunMessage::ConditionFalse { condition: when.expr.clone() }, reason),
                );
            }
            Err(error) => {
                // Never silently true: the node fails, under its policy like any failure.
                let policy = node.policy.map_or(scope.policy, |own| own.merged_over(&scope.policy));
                let text = format!("cannot evaluate `when`: {error}");
                let error = Reason::said(RunMessage::ConditionUnreadable { detail: error }, text);
                return match ctx.fail(&path, 0, 1, error, false, &policy) {
                    Ok(value) => Started::Settled(value),
                    Err(abort) => Started::Failed(abort),
                };
            }
        }
    }
    let policy = node.policy.map_or(scope.policy, |own| own.merged_over(&scope.policy));
    let cancel = cancel.clone();
    let future: BoxFuture<'a, Result<NodeValue, Abort>> = match node.role() {
        Some(NodeRole::Block(block)) => {
            // Inputs are resolved here, from the finished nodes, while they are at hand.
            let view = View { local: values, env: &scope.env, secrets: None, used_secrets: None, tables: &ctx.tables };
            match crate::node::prepare(ctx, node, block, path.clone(), view) {
                Ok(prepared) => crate::node::run_block(ctx, prepared, policy, cancel).boxed(),
                Err(error) => {
                    return match ctx.fail(&path, 0, 1, error, false, &policy) {
                        Ok(value) => Started::Settled(value),
                        Err(abort) => Started::Failed(abort),
                    }
                }
            }
        }
        // Loops and calls run graphs of their own, which read this one: they get a snapshot.
        Some(role) => {
            let env =
                Arc::new(Env { vars: Default::default(), nodes: values.clone(), parent: Some(scope.env.clone()) });
            match role {
                NodeRole::Loop => {
                    let body = analysis_of_body(analysis, index);
                    crate::looping::run_loop(ctx, node, body, path, env, policy, scope.policy, cancel).boxed()
                }
                _ => crate::call::run_call(ctx, node, path, env, policy, cancel).boxed(),
            }
        }
        None => {
            return Started::Failed(Abort::Halted(
                format!("node `{path}` is neither a block, a loop nor a call").into(),
            ))
        }
    };
    Started::Running(async move { (index, future.await) }.boxed())
}

/// The body analysis of loop node `index` (the validator analysed every body).
fn analysis_of_body(analysis: &GraphAnalysis, index: usize) -> &GraphAnalysis {
    static EMPTY: std::sync::OnceLock<GraphAnalysis> = std::sync::OnceLock::new();
    analysis.bodies.get(&index).unwrap_or_else(|| EMPTY.get_or_init(GraphAnalysis::default))
}

fn skip<'a>(ctx: &RunCtx, path: &str, reason: Reason) -> Started<'a> {
    let (text, said) = reason.into_parts();
    match ctx.emit(EventKind::NodeSkipped { node: path.to_owned(), reason: text.clone(), said }) {
        Ok(_) => {
            ctx.count(|c| c.skipped += 1);
            Started::Settled(NodeValue::Skipped(text))
        }
        Err(error) => Started::Failed(error),
    }
}
