//! `ai.process_llm`: one structured model call over the evidence a plan gives it.
//!
//! The answer is checked against the plan's `output_schema` here, whatever the server promised;
//! a bad answer gets the one corrective re-ask of [`planwright_llm::structured`], no more.

use std::sync::{Arc, OnceLock};

use futures::future::BoxFuture;
use planwright_block::{Block, BlockContext, BlockError, Values};
use planwright_llm::{ChatRequest, LlmError, Prompts, Tier, Usage, PROCESS_LLM};
use planwright_runs::{LogLevel, Reason, RunMessage};
use serde_json::{json, Value};

use crate::cells::{describe, input};

/// The evidence this block sends at most, as JSON characters: past it the call would be slow,
/// costly and likely over the model's context, so the plan should narrow the data first.
const MAX_EVIDENCE_CHARS: usize = 200_000;

pub(crate) fn blocks() -> Vec<Arc<dyn Block>> {
    vec![Arc::new(ProcessLlm)]
}

struct ProcessLlm;

impl Block for ProcessLlm {
    fn id(&self) -> &'static str {
        "ai.process_llm"
    }

    fn run<'a>(&'a self, inputs: Values, ctx: &'a BlockContext) -> BoxFuture<'a, Result<Values, BlockError>> {
        Box::pin(process(inputs, ctx))
    }
}

/// The prompts built into the binary, parsed once.
fn prompts() -> Result<&'static Prompts, BlockError> {
    static PROMPTS: OnceLock<Result<Prompts, String>> = OnceLock::new();
    PROMPTS
        .get_or_init(|| Prompts::built_in().map_err(|e| e.to_string()))
        .as_ref()
        .map_err(|e| BlockError::failed(format!("the built-in prompts cannot be read: {e}")))
}

async fn process(inputs: Values, ctx: &BlockContext) -> Result<Values, BlockError> {
    let schema = output_schema(&inputs)?;
    let task = match (input::optional_text(&inputs, "prompt")?, input::optional_text(&inputs, "instruction")?) {
        (Some(prompt), _) => prompt,
        (None, Some(instruction)) => instruction,
        (None, None) => {
            return Err(BlockError::input(
                "give `instruction` (what the model should do) or `prompt` (the whole text to send)",
            ))
        }
    };
    let rules = input::optional_text(&inputs, "system_prompt")?.unwrap_or_default();
    let evidence = evidence(&inputs)?;
    let Some(models) = ctx.models.as_deref() else {
        return Err(BlockError::not_set_up(Reason::said(
            RunMessage::ModelNotConfigured { block: "ai.process_llm".to_owned() },
            "no model configured: ai.process_llm needs a language model. Set OPENAI_API_KEY (or \
             AZURE_OPENAI_API_KEY and AZURE_OPENAI_ENDPOINT, or OPENAI_BASE_URL for a local server such as \
             Ollama) in the environment or a .env file, then check it with `planwright doctor`",
        )));
    };
    let prompts = prompts()?;
    let answer_format = serde_json::to_string_pretty(schema).unwrap_or_default();
    let rendered = prompts
        .render(
            PROCESS_LLM,
            &[("rules", rules), ("task", task), ("evidence", &evidence), ("answer_format", &answer_format)],
        )
        .map_err(|e| BlockError::failed(format!("the built-in prompt cannot be used: {e}")))?;
    let request = ChatRequest::new(Tier::Fast, rendered.messages());
    let outcome = planwright_llm::structured(models, prompts, request, "answer", schema, &ctx.cancel).await;
    let answer = match outcome {
        Ok(answer) => answer,
        Err(failed) => return Err(failure(failed.error)),
    };
    let mut usage = Usage::default();
    for exchange in &answer.exchanges {
        usage += exchange.reply.usage;
    }
    let model = answer.exchanges.last().map(|e| e.reply.model.clone()).unwrap_or_default();
    if answer.exchanges.len() > 1 {
        let text = "the first answer broke output_schema; the corrected one is used";
        ctx.log(LogLevel::Warn, Reason::said(RunMessage::ModelAnswerCorrected, text));
    }
    let mut out = Values::new();
    out.insert("results".into(), answer.value);
    out.insert(
        "summary".into(),
        json!({ "model": model, "input_tokens": usage.input_tokens, "output_tokens": usage.output_tokens }),
    );
    Ok(out)
}

/// `output_schema`: a JSON Schema whose top level is an object.
fn output_schema(inputs: &Values) -> Result<&Value, BlockError> {
    let schema =
        input::required(inputs, "output_schema", "a JSON Schema of the answer, e.g. {type: object, properties: …}")?;
    let Value::Object(map) = schema else {
        return Err(BlockError::input(format!(
            "`output_schema` must be a JSON Schema object such as {{type: object, properties: …}}, not {}",
            describe(schema)
        )));
    };
    match map.get("type") {
        Some(Value::String(t)) if t == "object" => Ok(schema),
        None if map.contains_key("properties") => Ok(schema),
        _ => Err(BlockError::input(
            "`output_schema` must describe an object at its top level (type: object, with properties); wrap a \
             list in a property, e.g. {type: object, properties: {items: {type: array, …}}}",
        )),
    }
}

/// `evidence_data` as the JSON text the model reads ("{}" when left out).
fn evidence(inputs: &Values) -> Result<String, BlockError> {
    let data = inputs.get("evidence_data").cloned().unwrap_or(Value::Null);
    let text = match data {
        Value::Null => "{}".to_owned(),
        data => serde_json::to_string_pretty(&data).unwrap_or_default(),
    };
    let chars = text.chars().count();
    if chars > MAX_EVIDENCE_CHARS {
        return Err(BlockError::input(format!(
            "`evidence_data` is {chars} characters as JSON, more than the {MAX_EVIDENCE_CHARS} this block sends to a \
             model; narrow it first (transforms.filter for the rows, transforms.pick for the fields, or a foreach \
             over smaller parts)"
        )));
    }
    Ok(text)
}

fn failure(error: LlmError) -> BlockError {
    match error {
        LlmError::Cancelled => BlockError::Cancelled,
        LlmError::InvalidOutput { errors, .. } => {
            let text = format!(
                "the model's answer did not follow output_schema, even after being asked once more: {}. Simplify \
                 output_schema or make the instruction say what each field holds",
                errors.join("; ")
            );
            BlockError::failed(Reason::said(RunMessage::ModelAnswerInvalid, text))
        }
        LlmError::InvalidSchema { message } => {
            BlockError::input(format!("`output_schema` is not a usable JSON Schema: {message}"))
        }
        LlmError::Refused { ref provider, .. }
        | LlmError::Unavailable { ref provider, .. }
        | LlmError::Timeout { ref provider, .. }
        | LlmError::Connection { ref provider, .. }
        | LlmError::Malformed { ref provider, .. } => {
            let said = RunMessage::ModelCallFailed { provider: provider.clone() };
            BlockError::failed(Reason::said(said, error.to_string()))
        }
        other => BlockError::failed(other.to_string()),
    }
}
