//! Test support for the human-input blocks: a [`HumanInput`] that answers from a queue the test
//! fills and records every request it was given.

#![allow(dead_code)]

use std::collections::VecDeque;
use std::sync::{Arc, Mutex};

use futures::future::BoxFuture;
use planwright_block::{BlockContext, BlockError, HumanInput, Values};
use planwright_runs::{InputAnswer, InputRequest};
use serde_json::Value;

#[allow(unused_imports)]
pub use crate::contract::{assert_declared_outputs, block, context, GivenSecrets, NoAnswer, Recorder};

/// Answers in order, as a person writes them (JSON the block then validates); records
/// `(node, request)` for each ask, as JSON. With the queue empty, it never answers (the run
/// waits, as it would for a person who is away).
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
    fn ask<'a>(&'a self, node: &'a str, request: InputRequest) -> BoxFuture<'a, Result<InputAnswer, BlockError>> {
        self.requests.lock().unwrap().push((node.to_string(), serde_json::to_value(&request).unwrap()));
        let next = self.answers.lock().unwrap().pop_front();
        Box::pin(async move {
            match next {
                // What the person wrote, unchecked: a value of the wrong type stays among the
                // values, for the block's own check to refuse.
                Some(answer) => answer.map(|raw| {
                    serde_json::from_value(raw.clone()).unwrap_or_else(|_| InputAnswer {
                        values: raw.as_object().cloned().unwrap_or_default(),
                        ..InputAnswer::default()
                    })
                }),
                None => futures::future::pending().await,
            }
        })
    }
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
        let ctx = context("ask", dir.path(), Arc::new(Recorder::default()), input.clone());
        Harness { ctx, input, dir }
    }

    pub async fn run(&self, id: &str, inputs: Value) -> Result<Values, BlockError> {
        let Value::Object(inputs) = inputs else { panic!("inputs must be an object") };
        block(id).run(inputs, &self.ctx).await
    }
}
