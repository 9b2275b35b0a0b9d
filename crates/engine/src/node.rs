//! One block node: resolving its inputs, then running the block under its policy — retries with
//! exponential backoff, a timeout that really cancels the block, the browser taken in turn.

use std::sync::Arc;
use std::time::{Duration, Instant};

use planwright_block::{Block, BlockContext, BlockError, Values};
use planwright_catalog::{BlockSpec, Lookup, Resource};
use planwright_plan::{Node, OnError, Policy};
use planwright_runs::{EventKind, Reason, RunMessage};
use serde_json::{Map, Value};
use tokio_util::sync::CancellationToken;

use crate::input::EngineInput;
use crate::run::{Abort, RunCtx};
use crate::values::{NodeValue, View};

/// A block node ready to run: its block, resolved inputs and where its outputs go.
pub(crate) struct Prepared<'a> {
    node: &'a Node,
    spec: &'a BlockSpec,
    block: Arc<dyn Block>,
    path: String,
    inputs: Values,
}

/// Resolves a block node's inputs (secrets included, and remembered for masking) and applies
/// the spec's defaults.
pub(crate) fn prepare<'a>(
    ctx: &'a RunCtx,
    node: &'a Node,
    block_id: &str,
    path: String,
    view: View<'_>,
) -> Result<Prepared<'a>, Reason> {
    let Lookup::Found(spec) = ctx.catalog().lookup(block_id) else {
        return Err(Reason::said(
            RunMessage::UnknownBlock { block: block_id.to_owned() },
            format!("the catalog has no block `{block_id}`"),
        ));
    };
    let block = ctx.engine.blocks.get(spec.id.as_str()).cloned().ok_or_else(|| {
        Reason::said(
            RunMessage::BlockNotBuilt { block: spec.id.to_string() },
            format!("block `{}` has no implementation in this build", spec.id),
        )
    })?;
    let mut used = Vec::new();
    let mut view = View { secrets: Some(ctx.secrets.as_ref()), used_secrets: Some(&mut used), ..view };
    let mut inputs = Map::new();
    for (name, value) in &node.inputs {
        inputs.insert(name.clone(), view.resolve(value)?);
    }
    for (name, port) in &spec.inputs {
        if let (false, Some(default)) = (inputs.contains_key(name), &port.default) {
            inputs.insert(name.clone(), default.clone());
        }
    }
    // A block that does not read tables by handle gets the rows.
    let inputs = if block.takes_tables() { inputs } else { ctx.tables.expand_map(inputs) };
    ctx.recorder.add_secrets(used);
    Ok(Prepared { node, spec, block, path, inputs })
}

/// Runs a prepared block node to a settled value, or aborts the graph.
pub(crate) async fn run_block(
    ctx: &RunCtx,
    prepared: Prepared<'_>,
    policy: Policy,
    cancel: CancellationToken,
) -> Result<NodeValue, Abort> {
    let Prepared { node, spec, block, path, mut inputs } = prepared;
    let retries = if policy.on_error == Some(OnError::Retry) { policy.retries.unwrap_or(2) } else { 0 };
    let started = Instant::now();
    let mut attempt = 1;
    loop {
        ctx.emit(EventKind::NodeStarted {
            node: path.clone(),
            attempt,
            inputs: Value::Object(ctx.recorder.summary_of(&inputs)),
        })?;
        // A table's rows are large: the inputs are copied only while another attempt may need them.
        let attempt_inputs = if attempt <= retries { inputs.clone() } else { std::mem::take(&mut inputs) };
        let outcome = attempt_once(ctx, spec, block.as_ref(), &path, attempt_inputs, &policy, &cancel).await;
        let elapsed_ms = started.elapsed().as_millis() as u64;
        let (error, timed_out) = match outcome {
            Ok(outputs) => {
                // Ran to its end, yet says it did not pass (objectives unmet): the run's summary
                // must not read as a plain success.
                let unpassed = outputs.get("passed") == Some(&Value::Bool(false));
                let value = ctx.recorder.finish_node(&path, elapsed_ms, attempt, aliased(node, outputs))?;
                ctx.count(|c| {
                    c.succeeded += 1;
                    c.not_passed += u64::from(unpassed);
                });
                return Ok(value);
            }
            Err(Attempt::Stopped) => return Err(Abort::Stopped),
            Err(Attempt::Waiting(why)) => return Err(Abort::Waiting(why)),
            Err(Attempt::TimedOut(ms)) => {
                let text = format!("timed out after {ms} ms (policy timeout_ms); its work was cancelled");
                (Reason::said(RunMessage::TimedOut { ms }, text), true)
            }
            Err(Attempt::Failed(error)) => (error, false),
            Err(Attempt::Refused(error)) => return ctx.fail(&path, elapsed_ms, attempt, error, false, &policy),
        };
        if attempt <= retries {
            let backoff_ms = policy.retry_backoff_ms.unwrap_or(500).saturating_mul(1 << (attempt - 1).min(16));
            ctx.emit(EventKind::NodeRetried {
                node: path.clone(),
                attempt,
                error: ctx.recorder.mask_text(&error.text),
                backoff_ms,
                said: error.said.map(|said| *said),
            })?;
            ctx.count(|c| c.retried += 1);
            tokio::select! {
                _ = tokio::time::sleep(Duration::from_millis(backoff_ms)) => {}
                _ = cancel.cancelled() => return Err(Abort::Stopped),
            }
            attempt += 1;
            continue;
        }
        // A failure's outputs go to dependants by the node's aliases, as a success's do.
        let outputs = error.outputs.map(|outputs| Box::new(aliased(node, *outputs)));
        return ctx.fail(&path, elapsed_ms, attempt, Reason { outputs, ..error }, timed_out, &policy);
    }
}

/// `outputs` under the node's aliases (`out: {report: tc01_report}`), moved, not copied.
fn aliased(node: &Node, mut outputs: Values) -> Map<String, Value> {
    node.out.iter().map(|(key, alias)| (alias.clone(), outputs.remove(key).unwrap_or(Value::Null))).collect()
}

enum Attempt {
    Failed(Reason),
    /// Failed in a way another attempt cannot change (a refused input, nothing set up): not
    /// retried whatever the policy.
    Refused(Reason),
    TimedOut(u64),
    Stopped,
    Waiting(Reason),
}

async fn attempt_once(
    ctx: &RunCtx,
    spec: &BlockSpec,
    block: &dyn Block,
    path: &str,
    inputs: Values,
    policy: &Policy,
    cancel: &CancellationToken,
) -> Result<Values, Attempt> {
    // The browser is one session per run: its blocks take turns, whatever the concurrency.
    let _turn = match spec.resource {
        Some(Resource::Browser) => Some(ctx.browser_turn.lock().await),
        None => None,
    };
    let token = cancel.child_token();
    let block_ctx = BlockContext {
        node: path.to_owned(),
        workdir: ctx.workdir.clone(),
        cancel: token.clone(),
        events: ctx.block_events(),
        input: Arc::new(EngineInput::new(ctx, policy.on_unanswered)),
        browser: ctx.browser.clone(),
        models: ctx.models_for(path),
        secrets: Arc::new(ctx.block_secrets()),
        record_dir: ctx.recorder.node_dir(path),
        tables: ctx.tables.clone(),
    };
    let run = block.run(inputs, &block_ctx);
    let timeout = policy.timeout_ms.map(Duration::from_millis);
    let outcome = tokio::select! {
        result = run => result,
        _ = sleep_or_forever(timeout) => {
            // Dropping the block's future stops its async work; the token stops blocking work.
            token.cancel();
            return Err(Attempt::TimedOut(policy.timeout_ms.unwrap_or_default()));
        }
        _ = cancel.cancelled() => {
            token.cancel();
            return Err(Attempt::Stopped);
        }
    };
    let id = || block.id().to_owned();
    outcome.map_err(|error| match error {
        BlockError::Cancelled => Attempt::Stopped,
        BlockError::NoAnswer(why) => Attempt::Waiting(coded(why, || RunMessage::BlockNoAnswer { block: id() })),
        BlockError::Input(why) => Attempt::Refused(coded(why, || RunMessage::BlockInputInvalid { block: id() })),
        BlockError::NotSetUp(why) => Attempt::Refused(coded(why, || RunMessage::BlockNotSetUp { block: id() })),
        BlockError::Failed(why) => Attempt::Failed(coded(why, || RunMessage::BlockFailed { block: id() })),
    })
}

/// A block's own words with no code of their own are said as the kind of error they are, so the
/// studio has a line in the person's language above them (the words follow as details).
fn coded(reason: Reason, kind: impl FnOnce() -> RunMessage) -> Reason {
    Reason { said: reason.said.or_else(|| Some(Box::new(kind()))), ..reason }
}

async fn sleep_or_forever(duration: Option<Duration>) {
    match duration {
        Some(duration) => tokio::time::sleep(duration).await,
        None => std::future::pending().await,
    }
}
