//! Test support for the human-input blocks: a [`HumanInput`] that answers from a queue the test
//! fills and records every request it was given.

#![allow(dead_code)]

use std::collections::VecDeque;
use std::sync::{Arc, Mutex};

use futures::future::BoxFuture;
use planwright_blocks::{BlockContext, BlockError, BlockEvents, HumanInput, Values, Workdir};
use planwright_runs::{ArtifactKind, LogLevel};
use serde_json::Value;
use tokio_util::sync::CancellationToken;

#[path = "../contract/mod.rs"]
mod contract;

pub use contract::{assert_declared_outputs, block, GivenSecrets};

/// Answers in order; records `(node, request)` for each ask. With the queue empty, it never
/// answers (the run waits, as it would for a person who is away).
#[derive(Default)]
pub struct QueueInput {
    pub answers: Mutex<VecDeque<Result<Value, BlockError>>>,
    pub requests: Mutex<Vec<(String, Value)>>,
}

impl QueueInput {
    pub fn requests(&self) -> Vec<Value> {
        self.requests.lock().unwrap().iter().map(|(_, r)| r.clone()).collect()
    }
}

impl HumanInput for QueueInput {
    fn ask<'a>(&'a self, node: &'a str, request: Value) -> BoxFuture<'a, Result<Value, BlockError>> {
        self.requests.lock().unwrap().push((node.to_string(), request));
        let next = self.answers.lock().unwrap().pop_front();
        Box::pin(async move {
            match next {
                Some(answer) => answer,
                None => futures::future::pending().await,
            }
        })
    }
}

pub struct Quiet;

impl BlockEvents for Quiet {
    fn log(&self, _node: &str, _level: LogLevel, _message: String) {}
    fn artifact(&self, _node: &str, _path: &std::path::Path, _kind: ArtifactKind, _bytes: u64) {}
}

pub struct Harness {
    pub ctx: BlockContext,
    pub input: Arc<QueueInput>,
    pub dir: tempfile::TempDir,
}

impl Harness {
    /// A context whose person gives these answers, in order.
    pub fn answering(answers: impl IntoIterator<Item = Value>) -> Harness {
        Harness::with(answers.into_iter().map(Ok))
    }

    pub fn with(answers: impl IntoIterator<Item = Result<Value, BlockError>>) -> Harness {
        let dir = tempfile::tempdir().unwrap();
        let input =
            Arc::new(QueueInput { answers: Mutex::new(answers.into_iter().collect()), ..QueueInput::default() });
        let ctx = BlockContext {
            node: "ask".into(),
            workdir: Workdir::new(dir.path()).unwrap(),
            cancel: CancellationToken::new(),
            events: Arc::new(Quiet),
            input: input.clone(),
            browser: Arc::new(planwright_blocks::BrowserSlot::new(Default::default())),
            models: None,
            secrets: Arc::new(GivenSecrets::default()),
        };
        Harness { ctx, input, dir }
    }

    pub async fn run(&self, id: &str, inputs: Value) -> Result<Values, BlockError> {
        let Value::Object(inputs) = inputs else { panic!("inputs must be an object") };
        block(id).run(inputs, &self.ctx).await
    }
}
