//! [`OpenAiClient`]: the [`LlmClient`] for OpenAI, Azure OpenAI and any OpenAI-compatible
//! server, over async-openai.
//!
//! async-openai carries the requests (its `byot` methods: JSON values in and out, so a server's
//! extra fields or invented values never break parsing) through a transport of ours
//! ([`Transport`]) that turns every non-2xx answer into an error carrying its status,
//! `Retry-After` and body; the retry loop is ours too ([`crate::retry`]). See
//! docs/decisions.md for why.

use std::time::{Duration, Instant};

use async_openai::config::Config;
use async_openai::error::OpenAIError;
use async_openai::middleware::HttpRequestFactory;
use futures::future::BoxFuture;
use reqwest::header::{HeaderMap, HeaderValue, AUTHORIZATION};
use secrecy::SecretString;
use serde_json::{json, Value};
use tokio_util::sync::CancellationToken;
use tracing::Instrument;

use crate::port::{ChatReply, ChatRequest, Embeddings, LlmClient, LlmError, Role, Tier, Usage};
use crate::retry::{parse_retry_after, with_retries, Failure, RetryPolicy};
use crate::settings::{Provider, Settings, OPENAI_BASE_URL};

/// Error bodies are quoted in messages up to this many characters.
const QUOTE_LIMIT: usize = 300;
/// The most a chat answer may be: ample for any token limit (16k tokens are ~64 KB of JSON),
/// and a server that sends more is refused before it fills memory, a log line or a record.
pub const MAX_CHAT_ANSWER_BYTES: usize = 1024 * 1024;
/// The most an embeddings answer may be: vectors as JSON numbers are large (a batch of 100
/// texts at 3,072 dimensions is ~6 MB).
pub const MAX_EMBEDDINGS_ANSWER_BYTES: usize = 64 * 1024 * 1024;

/// The OpenAI-compatible client. Build it with [`Settings::client`] (or [`OpenAiClient::new`]).
pub struct OpenAiClient {
    settings: Settings,
    provider: Provider,
    http: reqwest::Client,
    policy: RetryPolicy,
}

impl std::fmt::Debug for OpenAiClient {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("OpenAiClient").field("provider", &self.provider.name()).finish_non_exhaustive()
    }
}

impl OpenAiClient {
    /// A client for `settings`' provider; `NotConfigured` when offline.
    pub fn new(settings: Settings) -> Result<OpenAiClient, LlmError> {
        let provider = settings.provider.clone().ok_or_else(|| {
            LlmError::NotConfigured("no provider: set OPENAI_API_KEY, AZURE_OPENAI_API_KEY or OPENAI_BASE_URL".into())
        })?;
        let http = reqwest::Client::builder()
            .connect_timeout(Duration::from_secs(10).min(settings.timeout))
            .build()
            .map_err(|e| LlmError::NotConfigured(format!("cannot set up HTTP: {e}")))?;
        let policy = RetryPolicy::new(settings.max_retries);
        Ok(OpenAiClient { settings, provider, http, policy })
    }

    /// The same client with another retry policy (e.g. none, for `planwright doctor`).
    pub fn with_retry_policy(mut self, policy: RetryPolicy) -> OpenAiClient {
        self.policy = policy;
        self
    }

    pub fn settings(&self) -> &Settings {
        &self.settings
    }

    fn endpoint(&self, model: &str, max_answer: usize) -> async_openai::Client<Endpoint> {
        let endpoint = match &self.provider {
            Provider::OpenAi { base_url, api_key } => Endpoint {
                base: base_url.clone(),
                key: api_key.as_ref().map(|k| SecretString::from(k.expose().to_string())),
                azure: None,
            },
            Provider::Azure { endpoint, api_version, api_key } => Endpoint {
                base: format!("{endpoint}/openai/deployments/{model}"),
                key: Some(SecretString::from(api_key.expose().to_string())),
                azure: Some(api_version.clone()),
            },
        };
        async_openai::Client::build(self.http.clone(), endpoint).with_http_service(Transport {
            http: self.http.clone(),
            provider: self.provider.name(),
            max_answer,
        })
    }

    fn chat_body(&self, request: &ChatRequest) -> Value {
        let tier = self.settings.tier(request.tier);
        let messages: Vec<Value> = request
            .messages
            .iter()
            .map(|m| {
                let role = match m.role {
                    Role::System => "system",
                    Role::User => "user",
                    Role::Assistant => "assistant",
                };
                json!({"role": role, "content": m.content})
            })
            .collect();
        let mut body = json!({
            "model": tier.model,
            "messages": messages,
            "temperature": request.temperature.unwrap_or(tier.temperature),
            "stream": false,
        });
        let max_tokens = request.max_tokens.unwrap_or(tier.max_tokens);
        // OpenAI's newer models accept only max_completion_tokens; Azure's older api-versions and
        // the local servers know only max_tokens.
        match &self.provider {
            Provider::OpenAi { base_url, .. } if base_url == OPENAI_BASE_URL => {
                body["max_completion_tokens"] = json!(max_tokens)
            }
            _ => body["max_tokens"] = json!(max_tokens),
        }
        if let Some(schema) = &request.response_schema {
            body["response_format"] = json!({
                "type": "json_schema",
                "json_schema": {"name": schema.name, "strict": crate::strict::is_strict(&schema.schema), "schema": schema.schema},
            });
        }
        body
    }

    async fn chat_once(&self, body: &Value) -> Result<Value, Failure> {
        let model = body["model"].as_str().unwrap_or_default();
        self.endpoint(model, MAX_CHAT_ANSWER_BYTES)
            .chat()
            .create_byot::<&Value, Value>(body)
            .await
            .map_err(|e| self.failure(e))
    }

    async fn embed_once(&self, body: &Value) -> Result<Value, Failure> {
        let model = body["model"].as_str().unwrap_or_default();
        self.endpoint(model, MAX_EMBEDDINGS_ANSWER_BYTES)
            .embeddings()
            .create_byot::<&Value, Value>(body)
            .await
            .map_err(|e| self.failure(e))
    }

    fn failure(&self, error: OpenAIError) -> Failure {
        let provider = self.provider.name();
        match error {
            OpenAIError::Boxed(boxed) => match boxed.downcast::<HttpFailure>() {
                Ok(http) => http.into_failure(provider),
                Err(other) => match other.downcast::<TooLarge>() {
                    Ok(too_large) => Failure::fatal(LlmError::Malformed { provider, message: too_large.to_string() }),
                    Err(other) => {
                        Failure::transient(LlmError::Connection { provider, message: other.to_string() }, None)
                    }
                },
            },
            OpenAIError::Reqwest(e) if e.is_timeout() => {
                Failure::transient(LlmError::Timeout { provider, after: self.settings.timeout }, None)
            }
            // Refused connections, resets, a socket closed before the answer: all worth another try.
            OpenAIError::Reqwest(e) if !e.is_builder() => {
                Failure::transient(LlmError::Connection { provider, message: describe_reqwest(&e) }, None)
            }
            OpenAIError::JSONDeserialize(e, content) => Failure::fatal(LlmError::Malformed {
                provider,
                message: format!("the body is not JSON ({e}): {}", quote(&content)),
            }),
            OpenAIError::ApiError(api) => {
                HttpFailure { status: api.status_code.as_u16(), retry_after: None, body: api.api_error.message }
                    .into_failure(provider)
            }
            other => Failure::fatal(LlmError::Malformed { provider, message: other.to_string() }),
        }
    }
}

impl LlmClient for OpenAiClient {
    fn provider(&self) -> String {
        self.provider.name()
    }

    fn model(&self, tier: Tier) -> String {
        self.settings.tier(tier).model.clone()
    }

    fn embedding_model(&self) -> Option<String> {
        self.settings.embedding_model.clone()
    }

    fn chat<'a>(
        &'a self,
        request: ChatRequest,
        cancel: &'a CancellationToken,
    ) -> BoxFuture<'a, Result<ChatReply, LlmError>> {
        let provider = self.provider.name();
        let model = self.settings.tier(request.tier).model.clone();
        let span = tracing::info_span!("llm.chat", provider = %provider, tier = request.tier.name(), model = %model);
        Box::pin(
            async move {
                let body = self.chat_body(&request);
                tracing::debug!(
                    messages = request.messages.len(),
                    chars = request.messages.iter().map(|m| m.content.len()).sum::<usize>(),
                    structured = request.response_schema.is_some(),
                    "sending"
                );
                let started = Instant::now();
                let answer =
                    with_retries(self.policy, self.settings.timeout, &provider, cancel, || self.chat_once(&body)).await;
                let answer = answer.inspect_err(|e| tracing::debug!(error = %e, "model call failed"))?;
                let reply = read_chat(&answer, &model, started.elapsed())
                    .map_err(|message| LlmError::Malformed { provider: provider.clone(), message })?;
                tracing::info!(
                    answered_by = %reply.model,
                    input_tokens = reply.usage.input_tokens,
                    output_tokens = reply.usage.output_tokens,
                    latency_ms = reply.latency.as_millis() as u64,
                    finish_reason = answer["choices"][0]["finish_reason"].as_str().unwrap_or("-"),
                    "answered"
                );
                Ok(reply)
            }
            .instrument(span),
        )
    }

    fn embed<'a>(
        &'a self,
        texts: Vec<String>,
        cancel: &'a CancellationToken,
    ) -> BoxFuture<'a, Result<Embeddings, LlmError>> {
        let provider = self.provider.name();
        let model = self.settings.embedding_model.clone();
        let span = tracing::info_span!("llm.embed", provider = %provider, model = model.as_deref().unwrap_or("-"));
        Box::pin(
            async move {
                let Some(model) = model else {
                    return Err(LlmError::NotConfigured(format!(
                        "no embedding model for {provider}: set PLANWRIGHT_EMBEDDING_MODEL"
                    )));
                };
                let started = Instant::now();
                if texts.is_empty() {
                    return Ok(Embeddings {
                        vectors: Vec::new(),
                        model,
                        usage: Usage::default(),
                        latency: Duration::ZERO,
                    });
                }
                let body = json!({"model": model, "input": texts, "encoding_format": "float"});
                let answer =
                    with_retries(self.policy, self.settings.timeout, &provider, cancel, || self.embed_once(&body))
                        .await?;
                let embeddings = read_embeddings(&answer, texts.len(), &model, started.elapsed())
                    .map_err(|message| LlmError::Malformed { provider: provider.clone(), message })?;
                tracing::info!(
                    texts = texts.len(),
                    input_tokens = embeddings.usage.input_tokens,
                    latency_ms = embeddings.latency.as_millis() as u64,
                    "embedded"
                );
                Ok(embeddings)
            }
            .instrument(span),
        )
    }
}

/// Reads a chat completion leniently: only the first choice's message matters. Text content,
/// an array of text parts, or — when a server answers structured output with a tool call — the
/// call's arguments.
fn read_chat(answer: &Value, configured_model: &str, latency: Duration) -> Result<ChatReply, String> {
    let choice = answer
        .get("choices")
        .and_then(Value::as_array)
        .and_then(|choices| choices.first())
        .ok_or_else(|| format!("no `choices` in the answer: {}", quote(&answer.to_string())))?;
    let message = &choice["message"];
    let text = match &message["content"] {
        Value::String(text) if !text.is_empty() => Some(text.clone()),
        Value::Array(parts) => {
            Some(parts.iter().filter_map(|p| p["text"].as_str()).collect::<Vec<_>>().join("")).filter(|t| !t.is_empty())
        }
        _ => None,
    };
    let text = text
        .or_else(|| message["tool_calls"][0]["function"]["arguments"].as_str().map(str::to_string))
        .or_else(|| message["refusal"].as_str().map(|r| format!("(refused) {r}")))
        .ok_or_else(|| format!("the answer's message has no content: {}", quote(&message.to_string())))?;
    Ok(ChatReply {
        text,
        model: answer["model"].as_str().filter(|m| !m.is_empty()).unwrap_or(configured_model).to_string(),
        usage: read_usage(&answer["usage"]),
        latency,
    })
}

fn read_embeddings(answer: &Value, expected: usize, model: &str, latency: Duration) -> Result<Embeddings, String> {
    let data =
        answer["data"].as_array().ok_or_else(|| format!("no `data` in the answer: {}", quote(&answer.to_string())))?;
    let mut indexed: Vec<(usize, Vec<f32>)> = Vec::with_capacity(data.len());
    for (position, item) in data.iter().enumerate() {
        let vector = item["embedding"]
            .as_array()
            .ok_or_else(|| format!("embedding {position} is not an array of numbers"))?
            .iter()
            .map(|x| x.as_f64().map(|x| x as f32))
            .collect::<Option<Vec<f32>>>()
            .ok_or_else(|| format!("embedding {position} holds something other than numbers"))?;
        let index = item["index"].as_u64().map(|i| i as usize).unwrap_or(position);
        indexed.push((index, vector));
    }
    if indexed.len() != expected {
        return Err(format!("{} embeddings for {expected} texts", indexed.len()));
    }
    indexed.sort_by_key(|(index, _)| *index);
    Ok(Embeddings {
        vectors: indexed.into_iter().map(|(_, v)| v).collect(),
        model: answer["model"].as_str().filter(|m| !m.is_empty()).unwrap_or(model).to_string(),
        usage: read_usage(&answer["usage"]),
        latency,
    })
}

fn read_usage(usage: &Value) -> Usage {
    let count = |names: &[&str]| names.iter().find_map(|n| usage[*n].as_u64()).unwrap_or(0);
    Usage {
        input_tokens: count(&["prompt_tokens", "input_tokens"]),
        output_tokens: count(&["completion_tokens", "output_tokens"]),
    }
}

fn quote(text: &str) -> String {
    let mut out: String = text.chars().take(QUOTE_LIMIT).collect();
    if out.len() < text.len() {
        out.push('…');
    }
    out
}

fn describe_reqwest(error: &reqwest::Error) -> String {
    // The innermost cause says what happened ("Connection refused", "connection closed before
    // message completed", a certificate not trusted); reqwest's own message only says a request
    // failed.
    let causes = crate::error_causes(error);
    let cause = causes.last().cloned().unwrap_or_else(|| error.to_string());
    let what = if error.is_connect() { "cannot connect" } else { "the connection failed" };
    format!("{what}: {cause}")
}

/// A non-2xx answer, as the transport saw it.
#[derive(Debug)]
struct HttpFailure {
    status: u16,
    retry_after: Option<Duration>,
    body: String,
}

impl std::fmt::Display for HttpFailure {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "HTTP {}: {}", self.status, quote(&self.body))
    }
}

impl std::error::Error for HttpFailure {}

impl HttpFailure {
    fn into_failure(self, provider: String) -> Failure {
        // OpenAI-style `{"error": {"message": …}}`, else the body as text.
        let message = serde_json::from_str::<Value>(&self.body)
            .ok()
            .and_then(|v| v["error"]["message"].as_str().or(v["message"].as_str()).map(str::to_string))
            .unwrap_or_else(|| quote(self.body.trim()));
        match self.status {
            408 | 429 | 500..=599 => Failure::transient(
                LlmError::Unavailable { provider, attempts: 1, message: format!("HTTP {}: {message}", self.status) },
                self.retry_after,
            ),
            status => Failure::fatal(LlmError::Refused { provider, status, message }),
        }
    }
}

/// An answer over the size a model answer may have; its body is not read further.
#[derive(Debug)]
struct TooLarge {
    limit: usize,
}

impl std::fmt::Display for TooLarge {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "the answer is larger than {} KiB, the most a model answer may be; it was not read (check the server's \
             token limit, or that the address is a model server)",
            self.limit / 1024
        )
    }
}

impl std::error::Error for TooLarge {}

/// The HTTP transport under async-openai: sends the request, reads the answer's body up to
/// `max_answer` bytes (a server cannot make us hold more), and turns a non-2xx answer into
/// [`HttpFailure`], so its status and `Retry-After` reach the retry loop (async-openai's own
/// error path drops the headers, and loses the status when a 4xx body is not JSON).
#[derive(Clone)]
struct Transport {
    http: reqwest::Client,
    provider: String,
    max_answer: usize,
}

impl tower::Service<HttpRequestFactory> for Transport {
    type Response = reqwest::Response;
    type Error = OpenAIError;
    type Future = BoxFuture<'static, Result<reqwest::Response, OpenAIError>>;

    fn poll_ready(&mut self, _cx: &mut std::task::Context<'_>) -> std::task::Poll<Result<(), OpenAIError>> {
        std::task::Poll::Ready(Ok(()))
    }

    fn call(&mut self, factory: HttpRequestFactory) -> Self::Future {
        let http = self.http.clone();
        let provider = self.provider.clone();
        let max_answer = self.max_answer;
        Box::pin(async move {
            let request = factory.build().await?;
            tracing::debug!(%provider, url = %request.url().path(), "POST");
            let mut response = http.execute(request).await.map_err(OpenAIError::Reqwest)?;
            let status = response.status();
            let retry_after = response
                .headers()
                .get(reqwest::header::RETRY_AFTER)
                .and_then(|v| v.to_str().ok())
                .and_then(parse_retry_after);
            let headers = std::mem::take(response.headers_mut());
            let body = read_capped(response, max_answer).await?;
            if !status.is_success() {
                let body = String::from_utf8_lossy(&body).into_owned();
                return Err(OpenAIError::Boxed(Box::new(HttpFailure { status: status.as_u16(), retry_after, body })));
            }
            let mut read = http::Response::new(body);
            *read.status_mut() = status;
            *read.headers_mut() = headers;
            Ok(reqwest::Response::from(read))
        })
    }
}

/// The body of `response`, refused past `max` bytes (the declared length is trusted only to
/// refuse early).
async fn read_capped(mut response: reqwest::Response, max: usize) -> Result<Vec<u8>, OpenAIError> {
    if response.content_length().is_some_and(|declared| declared > max as u64) {
        return Err(OpenAIError::Boxed(Box::new(TooLarge { limit: max })));
    }
    let mut body = Vec::new();
    while let Some(chunk) = response.chunk().await.map_err(OpenAIError::Reqwest)? {
        if body.len() + chunk.len() > max {
            return Err(OpenAIError::Boxed(Box::new(TooLarge { limit: max })));
        }
        body.extend_from_slice(&chunk);
    }
    Ok(body)
}

/// Where and how async-openai sends: the base URL, the key's header (`Authorization: Bearer`
/// for OpenAI, `api-key` for Azure, none for a keyless local server) and Azure's api-version.
struct Endpoint {
    base: String,
    key: Option<SecretString>,
    /// Azure's api-version; `None` for OpenAI-style servers.
    azure: Option<String>,
}

impl Config for Endpoint {
    fn headers(&self) -> HeaderMap {
        let mut headers = HeaderMap::new();
        if let Some(key) = &self.key {
            use secrecy::ExposeSecret;
            let (name, value) = match self.azure {
                Some(_) => ("api-key", key.expose_secret().to_string()),
                None => (AUTHORIZATION.as_str(), format!("Bearer {}", key.expose_secret())),
            };
            // A key with characters a header cannot carry is left out: the server's 401 then
            // says the key is wrong, which is the fix.
            if let Ok(mut value) = HeaderValue::from_str(&value) {
                value.set_sensitive(true);
                headers.insert(name, value);
            }
        }
        headers
    }

    fn url(&self, path: &str) -> String {
        format!("{}{}", self.base, path)
    }

    fn query(&self) -> Vec<(&str, &str)> {
        match &self.azure {
            Some(version) => vec![("api-version", version.as_str())],
            None => Vec::new(),
        }
    }

    fn api_base(&self) -> &str {
        &self.base
    }

    fn api_key(&self) -> &SecretString {
        // async-openai asks for the key only to build its own default headers, which
        // `headers` replaces.
        static EMPTY: std::sync::OnceLock<SecretString> = std::sync::OnceLock::new();
        self.key.as_ref().unwrap_or_else(|| EMPTY.get_or_init(|| SecretString::from(String::new())))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_lenient_answers() {
        let answer = json!({"choices": [{"message": {"content": [{"type": "text", "text": "a"}, {"text": "b"}]},
                            "finish_reason": "eos"}], "usage": {"input_tokens": 3}});
        let reply = read_chat(&answer, "m", Duration::ZERO).unwrap();
        assert_eq!((reply.text.as_str(), reply.model.as_str()), ("ab", "m"));
        assert_eq!(reply.usage, Usage { input_tokens: 3, output_tokens: 0 });
        assert!(read_chat(&json!({"choices": []}), "m", Duration::ZERO).unwrap_err().contains("no `choices`"));
        assert!(read_chat(&json!({"choices": [{"message": {}}]}), "m", Duration::ZERO)
            .unwrap_err()
            .contains("no content"));
    }

    #[test]
    fn embeddings_are_put_in_input_order() {
        let answer = json!({"data": [{"index": 1, "embedding": [2.0]}, {"index": 0, "embedding": [1.0]}]});
        let embeddings = read_embeddings(&answer, 2, "e", Duration::ZERO).unwrap();
        assert_eq!(embeddings.vectors, vec![vec![1.0], vec![2.0]]);
        assert!(read_embeddings(&answer, 3, "e", Duration::ZERO).unwrap_err().contains("2 embeddings for 3 texts"));
    }
}
