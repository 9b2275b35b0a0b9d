//! `ui.interactive_input` and `ui.confirmation`.
//!
//! Both build an [`InputRequest`], hand it to `ctx.input` (the engine pauses the node, shows or
//! reads the request, validates the answer) and map the answer to the outputs the specs declare.
//! A rejection is an answer like any other: `approved: false` flows to the outputs for plans to
//! branch on.

use std::collections::HashSet;
use std::sync::Arc;
use std::time::{SystemTime, UNIX_EPOCH};

use futures::future::BoxFuture;
use planwright_block::{check_files, validate_answer, Block, BlockContext, BlockError, FieldError, Values};
use planwright_runs::{
    ConfirmOptions, ConfirmRequest, FieldType, FormRequest, InputAnswer, InputRequest, Requirement, RESERVED_IDS,
};
use serde_json::{Map, Value};

const MODES: [&str; 4] = ["collect", "confirm", "inquire", "mixed"];

pub(crate) fn blocks() -> Vec<Arc<dyn Block>> {
    vec![Arc::new(InteractiveInput), Arc::new(Confirmation)]
}

struct InteractiveInput;

impl Block for InteractiveInput {
    fn id(&self) -> &'static str {
        "ui.interactive_input"
    }

    fn run<'a>(&'a self, inputs: Values, ctx: &'a BlockContext) -> BoxFuture<'a, Result<Values, BlockError>> {
        Box::pin(async move {
            let mode = match inputs.get("mode") {
                None | Some(Value::Null) => "collect",
                Some(Value::String(m)) if MODES.contains(&m.as_str()) => m.as_str(),
                Some(other) => {
                    return Err(BlockError::input(format!("`mode` {other} is not one of {}", MODES.join(", "))))
                }
            };
            let message = optional_text(&inputs, "message")?;
            let context = match inputs.get("context") {
                None | Some(Value::Null) => Value::Object(Map::new()),
                Some(other) => other.clone(),
            };
            let requirements = requirements(&inputs)?;
            let form = |requirements| FormRequest { message: message.clone(), requirements, context: context.clone() };

            let (collected, approved, response) = match mode {
                "confirm" => {
                    let request = InputRequest::Confirm(ConfirmRequest {
                        message: message.clone(),
                        options: ConfirmOptions::default(),
                        context: Some(context.clone()),
                    });
                    let answer = ask(ctx, request).await?;
                    (Map::new(), approval(&answer), answer.comment.unwrap_or_default())
                }
                "collect" => {
                    let answer = ask(ctx, InputRequest::Collect(form(requirements))).await?;
                    (answer.values, true, answer.comment.unwrap_or_default())
                }
                "mixed" => {
                    let answer = ask(ctx, InputRequest::Mixed(form(requirements))).await?;
                    let approved = approval(&answer);
                    (answer.values, approved, answer.comment.unwrap_or_default())
                }
                _ => inquire(ctx, &form, requirements).await?,
            };

            let mut metadata = Map::new();
            metadata.insert("responded_at".into(), Value::String(now_iso8601()));
            metadata.insert("mode".into(), Value::from(mode));
            let mut outputs = Values::new();
            outputs.insert("collected_data".into(), Value::Object(collected));
            outputs.insert("approved".into(), Value::Bool(approved));
            outputs.insert("response".into(), Value::String(response));
            outputs.insert("metadata".into(), Value::Object(metadata));
            Ok(outputs)
        })
    }
}

/// inquire: one question at a time. Without a model, that is one request per required
/// requirement, in order, merged into collected_data (the others stay null); with no required
/// requirement, one free-text question whose answer is `response`.
async fn inquire(
    ctx: &BlockContext,
    form: &(dyn Fn(Vec<Requirement>) -> FormRequest + Sync),
    requirements: Vec<Requirement>,
) -> Result<(Map<String, Value>, bool, String), BlockError> {
    let asked: Vec<&Requirement> = requirements.iter().filter(|r| r.required).collect();
    if asked.is_empty() {
        let answer = ask(ctx, InputRequest::Inquire(form(Vec::new()))).await?;
        return Ok((Map::new(), true, answer.response.unwrap_or_default()));
    }
    let mut collected: Map<String, Value> = requirements.iter().map(|r| (r.id.clone(), Value::Null)).collect();
    let mut comments = Vec::new();
    for requirement in asked {
        let answer = ask(ctx, InputRequest::Inquire(form(vec![requirement.clone()]))).await?;
        if let Some(comment) = answer.comment.filter(|c| !c.trim().is_empty()) {
            comments.push(comment);
        }
        collected.extend(answer.values);
    }
    Ok((collected, true, comments.join("\n")))
}

struct Confirmation;

impl Block for Confirmation {
    fn id(&self) -> &'static str {
        "ui.confirmation"
    }

    fn run<'a>(&'a self, inputs: Values, ctx: &'a BlockContext) -> BoxFuture<'a, Result<Values, BlockError>> {
        Box::pin(async move {
            let message = optional_text(&inputs, "message")?;
            if message.trim().is_empty() {
                return Err(BlockError::input(
                    "`message` is empty; say what the person approves, with the numbers they need to decide",
                ));
            }
            let options = confirm_options(&inputs)?;
            // Shown with the question, as `ui.interactive_input`'s context is.
            let context = inputs.get("context").filter(|c| !c.is_null()).cloned();
            let request = InputRequest::Confirm(ConfirmRequest { message, options, context });
            let answer = ask(ctx, request).await?;
            let mut outputs = Values::new();
            outputs.insert("approved".into(), Value::Bool(approval(&answer)));
            outputs.insert("comment".into(), Value::String(answer.comment.unwrap_or_default()));
            Ok(outputs)
        })
    }
}

/// `ui.confirmation`'s `options`, each checked with a message saying what it must be.
fn confirm_options(inputs: &Values) -> Result<ConfirmOptions, BlockError> {
    let options = match inputs.get("options") {
        None | Some(Value::Null) => return Ok(ConfirmOptions::default()),
        Some(Value::Object(options)) => options,
        Some(_) => {
            return Err(BlockError::input(
                "`options` must be an object, e.g. {approve_label: Send, reject_label: Stop}",
            ))
        }
    };
    let label = |key: &str| match options.get(key) {
        None | Some(Value::Null) => Ok(None),
        Some(Value::String(text)) => Ok(Some(text.clone())),
        Some(_) => Err(BlockError::input(format!("`options.{key}` must be text"))),
    };
    let comment_required = match options.get("comment_required") {
        None | Some(Value::Null) => false,
        Some(Value::Bool(required)) => *required,
        Some(_) => return Err(BlockError::input("`options.comment_required` must be true or false")),
    };
    let default = match options.get("default") {
        None | Some(Value::Null) => None,
        Some(choice) => Some(
            serde_json::from_value(choice.clone())
                .map_err(|_| BlockError::input("`options.default` must be approve or reject"))?,
        ),
    };
    Ok(ConfirmOptions {
        approve_label: label("approve_label")?,
        reject_label: label("reject_label")?,
        comment_required,
        default,
    })
}

/// Asks, stopping when cancelled, and checks the answer again (normalising it, and checking that
/// named files exist in the work directory).
async fn ask(ctx: &BlockContext, request: InputRequest) -> Result<InputAnswer, BlockError> {
    let answer = tokio::select! {
        biased;
        _ = ctx.cancel.cancelled() => return Err(BlockError::Cancelled),
        answer = ctx.input.ask(&ctx.node, request.clone()) => answer?,
    };
    let answer = serde_json::to_value(&answer).map_err(|e| BlockError::failed(format!("the answer: {e}")))?;
    let answer = validate_answer(&request, &answer).map_err(unfit)?;
    check_files(&request, &answer, &ctx.workdir).map_err(unfit)?;
    Ok(answer)
}

fn unfit(errors: Vec<FieldError>) -> BlockError {
    let list: Vec<String> = errors.iter().map(FieldError::to_string).collect();
    BlockError::failed(format!("the answer does not fit the request: {}", list.join("; ")))
}

fn optional_text(inputs: &Values, name: &str) -> Result<String, BlockError> {
    match inputs.get(name) {
        None | Some(Value::Null) => Ok(String::new()),
        Some(Value::String(s)) => Ok(s.clone()),
        Some(_) => Err(BlockError::input(format!("`{name}` must be text"))),
    }
}

/// A validated answer's approval (validation sets it where one was asked).
fn approval(answer: &InputAnswer) -> bool {
    answer.approved.unwrap_or(false)
}

/// The plan's requirements, checked before anyone is asked: a mistake in them is the plan's,
/// and no answer could fix it.
fn requirements(inputs: &Values) -> Result<Vec<Requirement>, BlockError> {
    let list = match inputs.get("requirements") {
        None | Some(Value::Null) => return Ok(Vec::new()),
        Some(Value::Array(list)) => list,
        Some(_) => return Err(BlockError::input("`requirements` must be a list of fields")),
    };
    let mut seen = HashSet::new();
    let mut out = Vec::with_capacity(list.len());
    for (i, requirement) in list.iter().enumerate() {
        let at = format!("`requirements[{i}]`");
        let Some(fields) = requirement.as_object() else {
            return Err(BlockError::input(format!("{at} must be an object with at least an id and a type")));
        };
        let id = match fields.get("id") {
            Some(Value::String(id)) if !id.trim().is_empty() => id.as_str(),
            _ => return Err(BlockError::input(format!("{at} needs an id (the key of its answer)"))),
        };
        let at = format!("requirement `{id}`");
        if RESERVED_IDS.contains(&id) {
            return Err(BlockError::input(format!(
                "{at}: the id `{id}` is reserved ({} carry the approval, comment and answer); rename it",
                RESERVED_IDS.join(", ")
            )));
        }
        if !seen.insert(id) {
            return Err(BlockError::input(format!("{at} appears twice; each requirement needs its own id")));
        }
        let types: Vec<&str> = FieldType::ALL.iter().map(|t| t.name()).collect();
        match fields.get("type") {
            None | Some(Value::Null) => {}
            Some(Value::String(kind)) if types.contains(&kind.as_str()) => {}
            Some(other) => {
                return Err(BlockError::input(format!("{at}: type {other} is not one of {}", types.join(", "))))
            }
        }
        let parsed: Requirement =
            serde_json::from_value(requirement.clone()).map_err(|e| BlockError::input(format!("{at}: {e}")))?;
        if matches!(parsed.field, FieldType::Select | FieldType::Enum) && parsed.options.is_empty() {
            return Err(BlockError::input(format!(
                "{at} is a {} field without options to choose from",
                parsed.field.name()
            )));
        }
        if let Some(pattern) = parsed.validation.as_ref().and_then(|v| v.regex.as_deref()) {
            if let Err(e) = regex::Regex::new(&format!("^(?:{pattern})$")) {
                let reason = e.to_string();
                let reason = reason.lines().rev().find(|l| l.trim_start().starts_with("error:")).unwrap_or(&reason);
                return Err(BlockError::input(format!(
                    "{at}: validation.regex {pattern:?} is invalid: {}",
                    reason.trim()
                )));
            }
        }
        out.push(parsed);
    }
    Ok(out)
}

/// Now, in UTC, as ISO 8601 (`2024-05-07T01:32:15Z`).
fn now_iso8601() -> String {
    let secs = SystemTime::now().duration_since(UNIX_EPOCH).map(|d| d.as_secs()).unwrap_or(0);
    iso8601(secs)
}

fn iso8601(unix_secs: u64) -> String {
    let days = (unix_secs / 86_400) as i64;
    let rem = unix_secs % 86_400;
    // Days to civil date (Howard Hinnant's algorithm).
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z.rem_euclid(146_097);
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let day = doy - (153 * mp + 2) / 5 + 1;
    let month = if mp < 10 { mp + 3 } else { mp - 9 };
    let year = yoe + era * 400 + i64::from(month <= 2);
    format!("{year:04}-{month:02}-{day:02}T{:02}:{:02}:{:02}Z", rem / 3600, rem % 3600 / 60, rem % 60)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn iso_dates() {
        assert_eq!(iso8601(0), "1970-01-01T00:00:00Z");
        assert_eq!(iso8601(1_715_045_535), "2024-05-07T01:32:15Z");
        assert_eq!(iso8601(951_782_400), "2000-02-29T00:00:00Z");
    }
}
