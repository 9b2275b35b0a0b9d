//! Asking people: a block's request becomes an InputRequested event; an answer comes from an
//! [`AnswerSource`] (the studio, an answers file, a terminal), is validated against the request
//! — an invalid one gets per-field errors and the request stays open — and is recorded.

use std::collections::HashMap;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;

use futures::future::BoxFuture;
use futures::FutureExt;
use planwright_block::{check_files, validate_answer, BlockError, FieldError, HumanInput, Workdir};
use planwright_plan::OnUnanswered;
use planwright_runs::{EventKind, FieldType, InputAnswer, InputRequest, LogLevel, NodePath, Reason, RunMessage};
use serde_json::Value;

use crate::record::Recorder;
use crate::run::RunCtx;

/// Where answers come from.
pub trait AnswerSource: Send + Sync {
    /// An answer to `request` for `node` (its path, `approve` or `each[2]/approve`); `errors`
    /// are what was wrong with the previous answer, if one was refused. `None`: nobody can
    /// answer now (the run then waits, and `planwright resume` continues it).
    fn answer<'a>(
        &'a self,
        node: &'a str,
        request: &'a InputRequest,
        errors: &'a [FieldError],
    ) -> BoxFuture<'a, Option<Value>>;
}

/// No one to ask: every request leaves the run waiting.
pub struct NoAnswers;

impl AnswerSource for NoAnswers {
    fn answer<'a>(&'a self, _: &'a str, _: &'a InputRequest, _: &'a [FieldError]) -> BoxFuture<'a, Option<Value>> {
        async { None }.boxed()
    }
}

/// Answers given up front: node id (or path) → answer, as in `planwright run --inputs`.
pub struct GivenAnswers(pub HashMap<String, Value>);

impl AnswerSource for GivenAnswers {
    fn answer<'a>(
        &'a self,
        node: &'a str,
        _: &'a InputRequest,
        errors: &'a [FieldError],
    ) -> BoxFuture<'a, Option<Value>> {
        // A refused answer is not given again: the file holds only one.
        let id = node.rsplit('/').next().unwrap_or(node);
        let given = if errors.is_empty() { self.0.get(node).or_else(|| self.0.get(id)).cloned() } else { None };
        async move { given }.boxed()
    }
}

/// The engine's side of a block's [`HumanInput`], for one run of one block.
pub(crate) struct EngineInput {
    recorder: Arc<Recorder>,
    answers: Arc<dyn AnswerSource>,
    stored: Arc<HashMap<NodePath, Value>>,
    /// The answer the record kept for this node was handed out: a block that asks again (the
    /// objective runner's second escalation) asks anew.
    stored_taken: AtomicBool,
    /// Files named in answers must exist here.
    workdir: Workdir,
    /// What to do when nobody can answer now.
    on_unanswered: OnUnanswered,
}

impl EngineInput {
    pub fn new(ctx: &RunCtx, on_unanswered: Option<OnUnanswered>) -> EngineInput {
        EngineInput {
            recorder: ctx.recorder.clone(),
            answers: ctx.answers.clone(),
            stored: ctx.stored_answers.clone(),
            stored_taken: AtomicBool::new(false),
            workdir: ctx.workdir.clone(),
            on_unanswered: on_unanswered.unwrap_or(OnUnanswered::Wait),
        }
    }

    /// Nobody can answer now: the run waits, or (`on_unanswered: fail`) the node fails.
    fn unanswered(&self, node: &str, request: &InputRequest, errors: &[FieldError]) -> BlockError {
        let (wanted, why) = describe_missing(node, request, errors);
        let node = node.to_owned();
        match self.on_unanswered {
            OnUnanswered::Wait => BlockError::no_answer(Reason::said(RunMessage::WaitsForAnswer { node, wanted }, why)),
            OnUnanswered::Fail => BlockError::failed(Reason::said(
                RunMessage::NobodyAnswered { node, wanted },
                format!("{why}; nobody could answer and the policy says on_unanswered: fail"),
            )),
        }
    }
}

/// How many refused answers a request tolerates before it waits for a resume.
const MAX_REFUSED: usize = 5;

impl HumanInput for EngineInput {
    fn ask<'a>(&'a self, node: &'a str, request: InputRequest) -> BoxFuture<'a, Result<InputAnswer, BlockError>> {
        async move {
            let stored = self.stored.get(node).filter(|_| !self.stored_taken.swap(true, Ordering::Relaxed));
            if let Some(answer) = stored {
                return serde_json::from_value(answer.clone())
                    .map_err(|e| BlockError::failed(format!("the stored answer of `{node}` cannot be read: {e}")));
            }
            let record = |kind| self.recorder.emit(kind).map_err(|e| BlockError::failed(e.to_string()));
            record(EventKind::InputRequested { node: node.to_owned(), request: request.clone() })?;
            let mut errors: Vec<FieldError> = Vec::new();
            for _ in 0..MAX_REFUSED {
                let Some(answer) = self.answers.answer(node, &request, &errors).await else {
                    return Err(self.unanswered(node, &request, &errors));
                };
                let checked = validate_answer(&request, &answer)
                    .and_then(|accepted| check_files(&request, &accepted, &self.workdir).map(|()| accepted));
                match checked {
                    Ok(accepted) => {
                        let stored = serde_json::to_value(&accepted).map_err(|e| BlockError::failed(e.to_string()))?;
                        self.recorder.receive_input(node, &stored).map_err(|e| BlockError::failed(e.to_string()))?;
                        return Ok(accepted);
                    }
                    Err(refused) => {
                        let fields = refused.iter().map(|e| format!("{}: {}", e.field, e.message)).collect::<Vec<_>>();
                        let fields = fields.join("; ");
                        record(EventKind::Log {
                            node: Some(node.to_owned()),
                            level: LogLevel::Warn,
                            message: format!("answer refused: {fields}"),
                            said: Some(RunMessage::AnswerRefused { fields }),
                        })?;
                        errors = refused;
                    }
                }
            }
            Err(self.unanswered(node, &request, &errors))
        }
        .boxed()
    }
}

/// What a person must give — "`bank_file` (file, .csv), `month` (text)" — and the sentence
/// saying so: "node `approve` waits for `bank_file` (file, .csv), `month` (text)".
fn describe_missing(node: &str, request: &InputRequest, errors: &[FieldError]) -> (String, String) {
    let requirements = request.requirements();
    // The required fields; when none is, every field (an answer needs at least one).
    let required: Vec<_> = requirements.iter().filter(|r| r.required).collect();
    let listed = if required.is_empty() { requirements.iter().collect() } else { required };
    let mut wanted: Vec<String> = listed
        .into_iter()
        .map(|r| match (&r.accept, r.field) {
            (Some(accept), FieldType::File) => format!("`{}` ({}, {accept})", r.id, r.field.name()),
            _ => format!("`{}` ({})", r.id, r.field.name()),
        })
        .collect();
    if wanted.is_empty() {
        wanted.push(match request {
            InputRequest::Inquire(_) => "`response` (your answer)".into(),
            _ => "`approved` (yes or no)".into(),
        });
    }
    let refused = if errors.is_empty() {
        String::new()
    } else {
        format!(
            "; the answer given was refused: {}",
            errors.iter().map(|e| format!("{}: {}", e.field, e.message)).collect::<Vec<_>>().join("; ")
        )
    };
    let wanted = wanted.join(", ");
    let why = format!("node `{node}` waits for {wanted}{refused}");
    (wanted, why)
}
