//! Structured output: ask for JSON following a schema, check it here whatever the server
//! promised, and on a bad answer ask once more with the errors.

use serde_json::Value;
use tokio_util::sync::CancellationToken;

use crate::port::{ChatMessage, ChatReply, ChatRequest, LlmClient, LlmError, ResponseSchema};
use crate::prompts::{Prompts, REASK};
use crate::strict::{strict_schema, strip_optional_nulls};

/// Validation errors quoted to the model and in [`LlmError::InvalidOutput`], at most.
const MAX_ERRORS: usize = 20;
/// Candidate JSON starts tried in a chatty answer, at most (bounds the work on long text).
const MAX_JSON_STARTS: usize = 64;

/// One model call: what was sent and what came back, for the caller's run record.
#[derive(Debug, Clone, PartialEq)]
pub struct Exchange {
    pub request: ChatRequest,
    pub reply: ChatReply,
}

/// A valid structured answer and every call it took (one, or two after a re-ask).
#[derive(Debug, Clone, PartialEq)]
pub struct Structured {
    /// The answer, valid under the schema as given (the nulls strict mode made the model write
    /// for optional properties removed).
    pub value: Value,
    pub exchanges: Vec<Exchange>,
}

/// No valid answer; `exchanges` holds the calls that were made (none when the first call
/// failed), so they can be recorded all the same.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
#[error("{error}")]
pub struct StructuredError {
    pub error: LlmError,
    pub exchanges: Vec<Exchange>,
}

/// Asks `client` for an answer following `schema` (any JSON Schema; see [`strict_schema`]),
/// named `name` for the server. `request`'s own `response_schema` is replaced.
///
/// The schema is sent strict-compatible when it can be made so (else as given, `strict:
/// false`). The answer is parsed leniently ([`parse_answer`]) and validated locally; when it
/// fails, exactly one corrective re-ask follows (the previous answer, then the `reask` prompt
/// with the errors), and if that fails too the result is [`LlmError::InvalidOutput`].
pub async fn structured(
    client: &dyn LlmClient,
    prompts: &Prompts,
    mut request: ChatRequest,
    name: &str,
    schema: &Value,
    cancel: &CancellationToken,
) -> Result<Structured, StructuredError> {
    let fail = |error: LlmError, exchanges: Vec<Exchange>| StructuredError { error, exchanges };
    let sent = strict_schema(schema).unwrap_or_else(|e| {
        tracing::debug!(reason = %e, "schema sent as given, not strict");
        schema.clone()
    });
    // Checked against the schema as given: a server that ignores strict mode may leave optional
    // properties out, which the caller's schema allows.
    let validator = jsonschema::validator_for(schema)
        .map_err(|e| fail(LlmError::InvalidSchema { message: e.to_string() }, Vec::new()))?;
    request.response_schema = Some(ResponseSchema { name: schema_name(name), schema: sent.clone() });

    let mut exchanges = Vec::new();
    let reply = client.chat(request.clone(), cancel).await.map_err(|e| fail(e, Vec::new()))?;
    let first = check(&validator, schema, &reply.text);
    exchanges.push(Exchange { request: request.clone(), reply: reply.clone() });
    let errors = match first {
        Ok(value) => return Ok(Structured { value, exchanges }),
        Err(errors) => errors,
    };
    tracing::info!(errors = errors.len(), "structured answer invalid; asking once more");

    let answer_format = serde_json::to_string_pretty(&sent).unwrap_or_default();
    let listed = errors.iter().map(|e| format!("- {e}")).collect::<Vec<_>>().join("\n");
    let reask = prompts
        .render(REASK, &[("errors", &listed), ("answer_format", &answer_format)])
        .map_err(|e| fail(LlmError::InvalidSchema { message: e.to_string() }, exchanges.clone()))?;
    let mut again = request;
    again.messages.push(ChatMessage::assistant(reply.text));
    again.messages.extend(reask.messages());
    let second = match client.chat(again.clone(), cancel).await {
        Ok(second) => second,
        Err(error) => return Err(fail(error, exchanges)),
    };
    exchanges.push(Exchange { request: again, reply: second.clone() });
    match check(&validator, schema, &second.text) {
        Ok(value) => Ok(Structured { value, exchanges }),
        Err(errors) => Err(fail(LlmError::InvalidOutput { errors, text: second.text }, exchanges)),
    }
}

/// The answer's JSON without the nulls strict mode made the model write for optional properties,
/// validated: the value, or the problems found (each naming where).
fn check(validator: &jsonschema::Validator, schema: &Value, text: &str) -> Result<Value, Vec<String>> {
    let mut value = parse_answer(text).map_err(|e| vec![e])?;
    strip_optional_nulls(&mut value, schema);
    let errors: Vec<String> = validator
        .iter_errors(&value)
        .take(MAX_ERRORS)
        .map(|e| {
            let at = e.instance_path().as_str().to_owned();
            let message: String = e.to_string().chars().take(300).collect();
            format!("at {}: {message}", if at.is_empty() { "/" } else { &at })
        })
        .collect();
    if errors.is_empty() {
        Ok(value)
    } else {
        Err(errors)
    }
}

/// The JSON object (or array) in a model's answer: the whole text, the inside of a
/// ```` ```json ```` fence, or the first JSON value found in surrounding prose (local models
/// add such text). Never panics; bounded work on any input.
pub fn parse_answer(text: &str) -> Result<Value, String> {
    let trimmed = text.trim();
    if let Ok(value) = serde_json::from_str::<Value>(trimmed) {
        return Ok(value);
    }
    if let Some(fenced) = fenced(trimmed) {
        if let Ok(value) = serde_json::from_str::<Value>(fenced.trim()) {
            return Ok(value);
        }
    }
    for (start, _) in trimmed.char_indices().filter(|(_, c)| *c == '{' || *c == '[').take(MAX_JSON_STARTS) {
        let mut values = serde_json::Deserializer::from_str(&trimmed[start..]).into_iter::<Value>();
        if let Some(Ok(value @ (Value::Object(_) | Value::Array(_)))) = values.next() {
            return Ok(value);
        }
    }
    let preview: String = trimmed.chars().take(80).collect();
    Err(format!("the answer is not JSON: it should be one JSON object, but begins {preview:?}"))
}

/// The text between the first ```` ``` ```` fence line and the next fence.
fn fenced(text: &str) -> Option<&str> {
    let open = text.find("```")?;
    let after = &text[open + 3..];
    let body_start = after.find('\n')? + 1;
    let body = &after[body_start..];
    Some(&body[..body.find("```").unwrap_or(body.len())])
}

/// A name servers accept: `[A-Za-z0-9_-]{1,64}`.
fn schema_name(name: &str) -> String {
    let cleaned: String =
        name.chars().map(|c| if c.is_ascii_alphanumeric() || c == '-' { c } else { '_' }).take(64).collect();
    if cleaned.is_empty() {
        "answer".to_string()
    } else {
        cleaned
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn finds_the_json_in_chatty_answers() {
        assert_eq!(parse_answer(r#" {"a": 1} "#).unwrap(), json!({"a": 1}));
        assert_eq!(parse_answer("```json\n{\"a\": [1, 2]}\n```").unwrap(), json!({"a": [1, 2]}));
        assert_eq!(
            parse_answer("Sure! Here it is:\n{\"a\": {\"b\": \"}\"}}\nHope that helps {x}").unwrap(),
            json!({"a": {"b": "}"}})
        );
        assert!(parse_answer("I cannot do that.").unwrap_err().contains("not JSON"));
        assert!(parse_answer("").is_err());
    }

    #[test]
    fn schema_names_are_made_acceptable() {
        assert_eq!(schema_name("ai.process_llm results"), "ai_process_llm_results");
        assert_eq!(schema_name(""), "answer");
        assert_eq!(schema_name(&"x".repeat(100)).len(), 64);
    }
}
