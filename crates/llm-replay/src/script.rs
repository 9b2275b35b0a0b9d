//! What the server answers: a [`Script`] of rules, each a [`Match`] and a [`Reply`].

use std::fmt;
use std::sync::Arc;
use std::time::Duration;

use serde_json::{Map, Value};

use crate::record::{Endpoint, RecordedRequest};

/// The server's answers, tried in the order they were added.
///
/// A request takes the first rule that matches it and is not used up; a rule added with
/// [`Script::then`] or [`Script::on`] answers once, one added with [`Script::always`] answers
/// every request it matches. So a script of `then`s answers in order, whatever is asked, and a
/// script of `on`s answers by what is asked. A request no rule answers gets HTTP 400 with an
/// error body starting `replay: no scripted reply` (recorded like any other), which a client
/// reports as a refusal without retrying.
#[derive(Clone, Default)]
pub struct Script {
    pub(crate) rules: Vec<Rule>,
}

#[derive(Clone)]
pub(crate) struct Rule {
    pub(crate) when: Match,
    pub(crate) reply: Reply,
    pub(crate) repeat: bool,
    pub(crate) used: bool,
}

impl Script {
    pub fn new() -> Script {
        Script::default()
    }

    /// One reply per request, in this order, whatever the requests are.
    pub fn in_order(replies: impl IntoIterator<Item = Reply>) -> Script {
        replies.into_iter().fold(Script::new(), Script::then)
    }

    /// Answers the next request (any request) once.
    pub fn then(self, reply: Reply) -> Script {
        self.rule(Match::any(), reply, false)
    }

    /// Answers one request matching `when`.
    pub fn on(self, when: Match, reply: Reply) -> Script {
        self.rule(when, reply, false)
    }

    /// Answers every request matching `when` (e.g. embeddings for a whole test).
    pub fn always(self, when: Match, reply: Reply) -> Script {
        self.rule(when, reply, true)
    }

    fn rule(mut self, when: Match, reply: Reply, repeat: bool) -> Script {
        self.rules.push(Rule { when, reply, repeat, used: false });
        self
    }

    /// Takes the reply for `request`, marking a once-rule used.
    pub(crate) fn answer(&mut self, request: &RecordedRequest) -> Option<Reply> {
        let rule = self.rules.iter_mut().find(|rule| !rule.used && rule.when.matches(request))?;
        rule.used = !rule.repeat;
        Some(rule.reply.clone())
    }
}

/// Which requests a rule answers. Combine with [`Match::and`].
#[derive(Debug, Clone)]
pub struct Match(Vec<Condition>);

#[derive(Debug, Clone)]
enum Condition {
    Endpoint(Endpoint),
    UserContains(String),
    PathContains(String),
    Model(String),
    HasResponseFormat,
    Schema(String),
}

impl Match {
    /// Every request.
    pub fn any() -> Match {
        Match(Vec::new())
    }

    /// Chat completions (`…/chat/completions`, OpenAI or Azure path).
    pub fn chat() -> Match {
        Match(vec![Condition::Endpoint(Endpoint::Chat)])
    }

    /// Embeddings (`…/embeddings`, OpenAI or Azure path).
    pub fn embeddings() -> Match {
        Match(vec![Condition::Endpoint(Endpoint::Embeddings)])
    }

    /// Chat requests whose last user message contains `text`.
    pub fn user_contains(text: impl Into<String>) -> Match {
        Match(vec![Condition::UserContains(text.into())])
    }

    /// Requests whose path contains `text` (e.g. an Azure deployment name).
    pub fn path_contains(text: impl Into<String>) -> Match {
        Match(vec![Condition::PathContains(text.into())])
    }

    /// Requests whose body names this `model`.
    pub fn model(model: impl Into<String>) -> Match {
        Match(vec![Condition::Model(model.into())])
    }

    /// Chat requests that ask for structured output (`response_format` present).
    pub fn structured() -> Match {
        Match(vec![Condition::HasResponseFormat])
    }

    /// Chat requests asking for structured output under the schema named `name`
    /// (`response_format.json_schema.name`): one kind of question, whatever else is asked.
    pub fn schema(name: impl Into<String>) -> Match {
        Match(vec![Condition::Schema(name.into())])
    }

    /// Both this and `other`.
    pub fn and(mut self, other: Match) -> Match {
        self.0.extend(other.0);
        self
    }

    pub(crate) fn matches(&self, request: &RecordedRequest) -> bool {
        self.0.iter().all(|condition| match condition {
            Condition::Endpoint(endpoint) => request.endpoint() == Some(*endpoint),
            Condition::UserContains(text) => request.last_user_message().is_some_and(|m| m.contains(text.as_str())),
            Condition::PathContains(text) => request.path.contains(text.as_str()),
            Condition::Model(model) => request.model().as_deref() == Some(model.as_str()),
            Condition::HasResponseFormat => request.json().is_some_and(|body| body.get("response_format").is_some()),
            Condition::Schema(name) => request
                .json()
                .is_some_and(|body| body["response_format"]["json_schema"]["name"].as_str() == Some(name.as_str())),
        })
    }
}

/// Computes one embedding vector from one input text.
pub type EmbedFn = Arc<dyn Fn(&str) -> Vec<f32> + Send + Sync>;

/// One scripted answer. Build it with a constructor, then adjust it with the modifiers
/// ([`Reply::delay`], [`Reply::usage`], [`Reply::finish_reason`] …).
///
/// Schema-violating output is just [`Reply::json`] of a value that breaks the schema.
#[derive(Clone)]
pub struct Reply {
    pub(crate) kind: Kind,
    pub(crate) delay: Duration,
    pub(crate) headers: Vec<(String, String)>,
    pub(crate) usage: Option<(u64, u64)>,
    pub(crate) finish_reason: Option<String>,
    pub(crate) model: Option<String>,
    pub(crate) object: bool,
    pub(crate) extra: Map<String, Value>,
    pub(crate) message_extra: Map<String, Value>,
}

#[derive(Clone)]
pub(crate) enum Kind {
    Content(String),
    ToolCall { name: String, arguments: String },
    Embeddings(Vec<Vec<f32>>),
    EmbedWith(EmbedFn),
    Error { status: u16, message: String },
    Raw { status: u16, body: String },
    Drop,
}

/// Token usage a reply reports unless told otherwise ([`Reply::usage`]).
pub const DEFAULT_USAGE: (u64, u64) = (10, 5);

impl Reply {
    fn of(kind: Kind) -> Reply {
        Reply {
            kind,
            delay: Duration::ZERO,
            headers: Vec::new(),
            usage: Some(DEFAULT_USAGE),
            finish_reason: None,
            model: None,
            object: true,
            extra: Map::new(),
            message_extra: Map::new(),
        }
    }

    /// A chat completion whose message content is `text` (finish reason `stop`).
    pub fn text(text: impl Into<String>) -> Reply {
        Reply::of(Kind::Content(text.into()))
    }

    /// A chat completion whose content is `value` as compact JSON text.
    pub fn json(value: &Value) -> Reply {
        Reply::text(value.to_string())
    }

    /// A chat completion answering with one tool call (content `null`, finish reason
    /// `tool_calls`) instead of text.
    pub fn tool_call(name: impl Into<String>, arguments: &Value) -> Reply {
        Reply::of(Kind::ToolCall { name: name.into(), arguments: arguments.to_string() })
    }

    /// An embeddings answer with exactly these vectors (whatever the number of inputs).
    pub fn embeddings(vectors: Vec<Vec<f32>>) -> Reply {
        Reply::of(Kind::Embeddings(vectors))
    }

    /// An embeddings answer computing each input's vector with `embed` (deterministic
    /// embeddings for retrieval tests); usually added with [`Script::always`].
    pub fn embeddings_with(embed: impl Fn(&str) -> Vec<f32> + Send + Sync + 'static) -> Reply {
        Reply::of(Kind::EmbedWith(Arc::new(embed)))
    }

    /// An HTTP error with an OpenAI-style body `{"error": {"message", "type", "code"}}`
    /// (e.g. 401 for a bad key, 404 for an unknown model, 500 or 503).
    pub fn error(status: u16, message: impl Into<String>) -> Reply {
        Reply::of(Kind::Error { status, message: message.into() })
    }

    /// HTTP 429 with `Retry-After: seconds`.
    pub fn rate_limited(retry_after_secs: u64) -> Reply {
        Reply::error(429, "Rate limit reached (replay)").header("retry-after", retry_after_secs.to_string())
    }

    /// This status and body exactly as given (`content-type: application/json`, whatever the
    /// body is), e.g. a truncated JSON document or an HTML error page.
    pub fn raw(status: u16, body: impl Into<String>) -> Reply {
        Reply::of(Kind::Raw { status, body: body.into() })
    }

    /// HTTP 200 whose body is cut off in the middle of a chat completion.
    pub fn malformed() -> Reply {
        Reply::raw(200, r#"{"id": "chatcmpl-replay", "object": "chat.completion", "choices": [{"index": 0, "mess"#)
    }

    /// Closes the connection without sending any response (after the delay, if any).
    pub fn drop_connection() -> Reply {
        Reply::of(Kind::Drop)
    }

    /// Waits this long before answering (a slow server; a client timeout shorter than this
    /// sees no answer).
    pub fn delay(mut self, delay: Duration) -> Reply {
        self.delay = delay;
        self
    }

    /// Adds a response header (e.g. `retry-after` on a 503).
    pub fn header(mut self, name: impl Into<String>, value: impl Into<String>) -> Reply {
        self.headers.push((name.into(), value.into()));
        self
    }

    /// Reports this usage (prompt and completion tokens) instead of [`DEFAULT_USAGE`].
    pub fn usage(mut self, prompt_tokens: u64, completion_tokens: u64) -> Reply {
        self.usage = Some((prompt_tokens, completion_tokens));
        self
    }

    /// Leaves the `usage` object out, as some local servers do.
    pub fn without_usage(mut self) -> Reply {
        self.usage = None;
        self
    }

    /// Reports this finish reason (any text: servers invent their own, e.g. `eos`).
    pub fn finish_reason(mut self, reason: impl Into<String>) -> Reply {
        self.finish_reason = Some(reason.into());
        self
    }

    /// Names this model in the answer instead of the one the request named.
    pub fn model(mut self, model: impl Into<String>) -> Reply {
        self.model = Some(model.into());
        self
    }

    /// Leaves the `object` field out.
    pub fn without_object(mut self) -> Reply {
        self.object = false;
        self
    }

    /// Adds an unknown top-level field to the answer.
    pub fn extra(mut self, key: impl Into<String>, value: Value) -> Reply {
        self.extra.insert(key.into(), value);
        self
    }

    /// Adds an unknown field to the answer's message (e.g. `reasoning_content`).
    pub fn message_extra(mut self, key: impl Into<String>, value: Value) -> Reply {
        self.message_extra.insert(key.into(), value);
        self
    }
}

impl fmt::Debug for Reply {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let kind = match &self.kind {
            Kind::Content(text) => format!("text({text:?})"),
            Kind::ToolCall { name, .. } => format!("tool_call({name})"),
            Kind::Embeddings(vectors) => format!("embeddings({})", vectors.len()),
            Kind::EmbedWith(_) => "embeddings_with(…)".to_string(),
            Kind::Error { status, .. } => format!("error({status})"),
            Kind::Raw { status, .. } => format!("raw({status})"),
            Kind::Drop => "drop_connection".to_string(),
        };
        f.debug_struct("Reply").field("kind", &kind).field("delay", &self.delay).finish_non_exhaustive()
    }
}
