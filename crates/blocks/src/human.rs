//! `ui.interactive_input` and `ui.confirmation`.
//!
//! Both build a request (see [`crate::answers`]), hand it to `ctx.input` (the engine pauses the
//! node, shows or reads the request, validates the answer) and map the answer to the outputs the
//! specs declare. A rejection is an answer like any other: `approved: false` flows to the outputs
//! for plans to branch on.

use std::collections::HashSet;
use std::sync::Arc;
use std::time::{SystemTime, UNIX_EPOCH};

use futures::future::BoxFuture;
use serde_json::{Map, Value};

use crate::answers::{check_files, confirm_request, form_request, validate_answer, FieldError, RESERVED_IDS};
use crate::block::{Block, BlockContext, BlockError, Values};

const MODES: [&str; 4] = ["collect", "confirm", "inquire", "mixed"];
const TYPES: [&str; 7] = ["text", "select", "boolean", "number", "file", "table", "enum"];

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
                    return Err(BlockError::Input(format!("`mode` {other} is not one of {}", MODES.join(", "))))
                }
            };
            let message = optional_text(&inputs, "message")?;
            let context = match inputs.get("context") {
                None | Some(Value::Null) => Value::Object(Map::new()),
                Some(other) => other.clone(),
            };
            let requirements = requirements(&inputs)?;

            let (collected, approved, response) = match mode {
                "confirm" => {
                    let request = confirm_request(&message, Value::Object(Map::new()), Some(context));
                    let answer = ask(ctx, request).await?;
                    (Map::new(), approval(&answer), text_of(&answer, "comment"))
                }
                "collect" | "mixed" => {
                    let request = form_request(mode, &message, requirements, context);
                    let answer = ask(ctx, request).await?;
                    let approved = mode == "collect" || approval(&answer);
                    let comment = text_of(&answer, "comment");
                    (strip_reserved(answer), approved, comment)
                }
                _ => inquire(ctx, &message, requirements, context).await?,
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
    message: &str,
    requirements: Vec<Value>,
    context: Value,
) -> Result<(Map<String, Value>, bool, String), BlockError> {
    let asked: Vec<&Value> = requirements.iter().filter(|r| is_required(r)).collect();
    if asked.is_empty() {
        let answer = ask(ctx, form_request("inquire", message, Vec::new(), context)).await?;
        return Ok((Map::new(), true, text_of(&answer, "response")));
    }
    let mut collected: Map<String, Value> =
        requirements.iter().map(|r| (requirement_id(r).to_string(), Value::Null)).collect();
    let mut comments = Vec::new();
    for requirement in asked {
        let request = form_request("inquire", message, vec![requirement.clone()], context.clone());
        let answer = ask(ctx, request).await?;
        let comment = text_of(&answer, "comment");
        if !comment.trim().is_empty() {
            comments.push(comment);
        }
        collected.extend(strip_reserved(answer));
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
                return Err(BlockError::Input(
                    "`message` is empty; say what the person approves, with the numbers they need to decide".into(),
                ));
            }
            let options = match inputs.get("options") {
                None | Some(Value::Null) => Value::Object(Map::new()),
                Some(Value::Object(options)) => {
                    for key in ["approve_label", "reject_label"] {
                        if options.get(key).is_some_and(|v| !v.is_string() && !v.is_null()) {
                            return Err(BlockError::Input(format!("`options.{key}` must be text")));
                        }
                    }
                    if options.get("comment_required").is_some_and(|v| !v.is_boolean() && !v.is_null()) {
                        return Err(BlockError::Input("`options.comment_required` must be true or false".into()));
                    }
                    if options.get("default").is_some_and(|v| !v.is_null() && v != "approve" && v != "reject") {
                        return Err(BlockError::Input("`options.default` must be approve or reject".into()));
                    }
                    Value::Object(options.clone())
                }
                Some(_) => {
                    return Err(BlockError::Input(
                        "`options` must be an object, e.g. {approve_label: Send, reject_label: Stop}".into(),
                    ))
                }
            };
            let answer = ask(ctx, confirm_request(&message, options, None)).await?;
            let mut outputs = Values::new();
            outputs.insert("approved".into(), Value::Bool(approval(&answer)));
            outputs.insert("comment".into(), Value::String(text_of(&answer, "comment")));
            Ok(outputs)
        })
    }
}

/// Asks, stopping when cancelled, and checks the answer again (normalising it, and checking that
/// named files exist in the work directory).
async fn ask(ctx: &BlockContext, request: Value) -> Result<Value, BlockError> {
    let answer = tokio::select! {
        biased;
        _ = ctx.cancel.cancelled() => return Err(BlockError::Cancelled),
        answer = ctx.input.ask(&ctx.node, request.clone()) => answer?,
    };
    let answer = validate_answer(&request, &answer).map_err(unfit)?;
    check_files(&request, &answer, &ctx.workdir).map_err(unfit)?;
    Ok(answer)
}

fn unfit(errors: Vec<FieldError>) -> BlockError {
    let list: Vec<String> = errors.iter().map(FieldError::to_string).collect();
    BlockError::Failed(format!("the answer does not fit the request: {}", list.join("; ")))
}

fn optional_text(inputs: &Values, name: &str) -> Result<String, BlockError> {
    match inputs.get(name) {
        None | Some(Value::Null) => Ok(String::new()),
        Some(Value::String(s)) => Ok(s.clone()),
        Some(_) => Err(BlockError::Input(format!("`{name}` must be text"))),
    }
}

/// A validated answer's approval (validation makes it a boolean).
fn approval(answer: &Value) -> bool {
    answer.get("approved").and_then(Value::as_bool).unwrap_or(false)
}

fn text_of(answer: &Value, key: &str) -> String {
    answer.get(key).and_then(Value::as_str).unwrap_or("").to_string()
}

/// The answer without the approval, comment and free-text keys: the form's values.
fn strip_reserved(answer: Value) -> Map<String, Value> {
    let Value::Object(mut map) = answer else { return Map::new() };
    for key in RESERVED_IDS {
        map.remove(key);
    }
    map
}

fn requirement_id(requirement: &Value) -> &str {
    requirement.get("id").and_then(Value::as_str).unwrap_or("")
}

fn is_required(requirement: &Value) -> bool {
    requirement.get("required").and_then(Value::as_bool).unwrap_or(false)
}

/// The plan's requirements, checked before anyone is asked: a mistake in them is the plan's,
/// and no answer could fix it.
fn requirements(inputs: &Values) -> Result<Vec<Value>, BlockError> {
    let list = match inputs.get("requirements") {
        None | Some(Value::Null) => return Ok(Vec::new()),
        Some(Value::Array(list)) => list,
        Some(_) => return Err(BlockError::Input("`requirements` must be a list of fields".into())),
    };
    let mut seen = HashSet::new();
    let mut out = Vec::with_capacity(list.len());
    for (i, requirement) in list.iter().enumerate() {
        let at = format!("`requirements[{i}]`");
        let Some(fields) = requirement.as_object() else {
            return Err(BlockError::Input(format!("{at} must be an object with at least an id and a type")));
        };
        let id = match fields.get("id") {
            Some(Value::String(id)) if !id.trim().is_empty() => id.as_str(),
            _ => return Err(BlockError::Input(format!("{at} needs an id (the key of its answer)"))),
        };
        let at = format!("requirement `{id}`");
        if RESERVED_IDS.contains(&id) {
            return Err(BlockError::Input(format!(
                "{at}: the id `{id}` is reserved ({} carry the approval, comment and answer); rename it",
                RESERVED_IDS.join(", ")
            )));
        }
        if !seen.insert(id) {
            return Err(BlockError::Input(format!("{at} appears twice; each requirement needs its own id")));
        }
        let kind = match fields.get("type") {
            None | Some(Value::Null) => "text",
            Some(Value::String(kind)) if TYPES.contains(&kind.as_str()) => kind.as_str(),
            Some(other) => {
                return Err(BlockError::Input(format!("{at}: type {other} is not one of {}", TYPES.join(", "))))
            }
        };
        if matches!(kind, "select" | "enum") {
            let has_options = fields.get("options").and_then(Value::as_array).is_some_and(|o| !o.is_empty());
            if !has_options {
                return Err(BlockError::Input(format!("{at} is a {kind} field without options to choose from")));
            }
        }
        if let Some(pattern) = fields.get("validation").and_then(|v| v.get("regex")) {
            let Some(pattern) = pattern.as_str() else {
                return Err(BlockError::Input(format!("{at}: validation.regex must be text")));
            };
            if let Err(e) = regex::Regex::new(&format!("^(?:{pattern})$")) {
                let reason = e.to_string();
                let reason = reason.lines().rev().find(|l| l.trim_start().starts_with("error:")).unwrap_or(&reason);
                return Err(BlockError::Input(format!(
                    "{at}: validation.regex {pattern:?} is invalid: {}",
                    reason.trim()
                )));
            }
        }
        let mut requirement = fields.clone();
        requirement.insert("type".into(), Value::from(kind));
        out.push(Value::Object(requirement));
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
