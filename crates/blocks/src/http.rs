//! `external.api.http`.
//!
//! One request per run of the block, through one process-wide client. What leaves the block in
//! logs and messages is the method, the scheme, host and path, the names of query parameters
//! (never their values), the status and the time taken: header values, query values and user
//! information in the URL may carry tokens and are never shown.

use std::sync::{Arc, OnceLock};
use std::time::{Duration, Instant};

use futures::future::BoxFuture;
use planwright_block::{Block, BlockContext, BlockError, Values};
use planwright_runs::{LogLevel, Reason, RunMessage};
use reqwest::header::{HeaderMap, HeaderName, HeaderValue, CONTENT_TYPE};
use reqwest::{Client, Method, NoProxy, Proxy, Response, Url};
use serde_json::Value;

/// The most of a response body the block reads.
pub(crate) const MAX_BODY_BYTES: u64 = 10 * 1024 * 1024;
/// How much of an error response is read for the message.
const ERROR_BODY_BYTES: u64 = 64 * 1024;
/// Characters of the body quoted when the status is 400 or above.
const EXCERPT_CHARS: usize = 300;
const DEFAULT_TIMEOUT_SEC: f64 = 30.0;
const TIMEOUT_RANGE: std::ops::RangeInclusive<f64> = 1.0..=600.0;
const METHODS: [&str; 6] = ["GET", "POST", "PUT", "PATCH", "DELETE", "HEAD"];

pub(crate) fn blocks() -> Vec<Arc<dyn Block>> {
    vec![Arc::new(HttpRequest)]
}

struct HttpRequest;

impl Block for HttpRequest {
    fn id(&self) -> &'static str {
        "external.api.http"
    }

    fn run<'a>(&'a self, inputs: Values, ctx: &'a BlockContext) -> BoxFuture<'a, Result<Values, BlockError>> {
        Box::pin(async move {
            let request = Request::from_inputs(&inputs)?;
            let client = client()?;
            let started = Instant::now();
            let shown = request.shown.clone();
            let method = request.method.clone();
            let timeout_sec = request.timeout.as_secs_f64();
            // The log line of a request that got no answer: `how` is `cancelled`, `timed_out` or `failed`.
            let ended = |how: &str| {
                let ms = started.elapsed().as_millis() as u64;
                let text = format!("{method} {shown} {} after {ms} ms", how.replace('_', " "));
                let said =
                    RunMessage::HttpEnded { method: method.to_string(), url: shown.clone(), how: how.to_owned(), ms };
                Reason::said(said, text)
            };
            let outcome = tokio::select! {
                biased;
                _ = ctx.cancel.cancelled() => {
                    ctx.log(LogLevel::Info, ended("cancelled"));
                    return Err(BlockError::Cancelled);
                }
                _ = tokio::time::sleep(request.timeout) => {
                    ctx.log(LogLevel::Warn, ended("timed_out"));
                    let said = RunMessage::HttpTimedOut { method: method.to_string(), url: shown.clone(), seconds: seconds(timeout_sec) };
                    return Err(BlockError::failed(Reason::said(said, format!(
                        "{method} {shown} timed out after {} without a complete response; raise timeout_sec \
                         (at most 600) if the service is slow",
                        seconds(timeout_sec)
                    ))));
                }
                outcome = exchange(client, request) => outcome,
            };
            let elapsed = started.elapsed().as_millis() as u64;
            let answered = |status: u16| {
                let said =
                    RunMessage::HttpAnswered { method: method.to_string(), url: shown.clone(), status, ms: elapsed };
                Reason::said(said, format!("{method} {shown} → {status} in {elapsed} ms"))
            };
            match outcome {
                Ok(Exchange::Done(outputs)) => {
                    let status = outputs.get("status").and_then(Value::as_u64).unwrap_or(0);
                    ctx.log(LogLevel::Info, answered(status as u16));
                    tracing::debug!(node = %ctx.node, "{method} {shown} → {status} in {elapsed} ms");
                    Ok(outputs)
                }
                Ok(Exchange::Refused { status, message }) => {
                    ctx.log(LogLevel::Warn, answered(status));
                    let said = RunMessage::HttpRefused { method: method.to_string(), url: shown, status };
                    Err(BlockError::failed(Reason::said(said, message)))
                }
                Err(message) => {
                    ctx.log(LogLevel::Warn, ended("failed"));
                    let said = RunMessage::HttpFailed { method: method.to_string(), url: shown };
                    Err(BlockError::failed(Reason::said(said, message)))
                }
            }
        })
    }
}

/// A request checked and ready to send.
struct Request {
    method: Method,
    url: Url,
    /// The URL as it may be shown: no user information, query values elided.
    shown: String,
    headers: HeaderMap,
    params: Vec<(String, String)>,
    body: Body,
    timeout: Duration,
}

enum Body {
    None,
    Json(Value),
    Text(String),
}

impl Request {
    fn from_inputs(inputs: &Values) -> Result<Request, BlockError> {
        let method = match inputs.get("method") {
            None | Some(Value::Null) => Method::GET,
            Some(Value::String(m)) if METHODS.contains(&m.trim().to_ascii_uppercase().as_str()) => {
                Method::from_bytes(m.trim().to_ascii_uppercase().as_bytes()).map_err(|_| bad_method(m))?
            }
            Some(Value::String(m)) => return Err(bad_method(m)),
            Some(other) => return Err(bad_method(&other.to_string())),
        };

        let raw_url = match inputs.get("url") {
            Some(Value::String(u)) if !u.trim().is_empty() => u.trim(),
            Some(Value::String(_)) | None | Some(Value::Null) => {
                return Err(BlockError::input(
                    "`url` is empty; give the full address, e.g. https://api.example.com/v1/items",
                ))
            }
            Some(_) => return Err(BlockError::input("`url` must be text, e.g. https://api.example.com/v1/items")),
        };
        let url = parse_url(raw_url)?;

        let mut headers = HeaderMap::new();
        match inputs.get("headers") {
            None | Some(Value::Null) => {}
            Some(Value::Object(map)) => {
                for (name, value) in map {
                    let Some(text) = scalar_text(value) else {
                        if value.is_null() {
                            continue;
                        }
                        return Err(BlockError::input(format!(
                            "`headers`: the value of header `{name}` must be text, a number or true/false"
                        )));
                    };
                    let header = HeaderName::from_bytes(name.trim().as_bytes())
                        .map_err(|_| BlockError::input(format!("`headers`: `{name}` is not a valid header name")))?;
                    let mut value = HeaderValue::from_str(&text).map_err(|_| {
                        // The value may be a secret: name the header only.
                        BlockError::input(format!(
                            "`headers`: the value of header `{name}` has characters a header cannot carry (line breaks \
                             or control characters)"
                        ))
                    })?;
                    value.set_sensitive(true);
                    headers.append(header, value);
                }
            }
            Some(_) => {
                return Err(BlockError::input(
                    "`headers` must be an object of header name to value, e.g. {Authorization: \"Bearer ${secrets.TOKEN}\"}"
                        ,
                ))
            }
        }

        let mut params = Vec::new();
        match inputs.get("params") {
            None | Some(Value::Null) => {}
            Some(Value::Object(map)) => {
                for (name, value) in map {
                    match value {
                        Value::Null => {}
                        Value::Array(items) => {
                            for item in items {
                                let text = scalar_text(item).ok_or_else(|| bad_param(name))?;
                                params.push((name.clone(), text));
                            }
                        }
                        other => params.push((name.clone(), scalar_text(other).ok_or_else(|| bad_param(name))?)),
                    }
                }
            }
            Some(_) => {
                return Err(BlockError::input(
                    "`params` must be an object of parameter name to value, e.g. {status: unpaid}",
                ))
            }
        }

        let body = match inputs.get("body") {
            None | Some(Value::Null) => Body::None,
            Some(Value::String(text)) => Body::Text(text.clone()),
            Some(other) => Body::Json(other.clone()),
        };

        let timeout_sec = match inputs.get("timeout_sec") {
            None | Some(Value::Null) => DEFAULT_TIMEOUT_SEC,
            Some(value) => match value.as_f64() {
                Some(secs) if TIMEOUT_RANGE.contains(&secs) => secs,
                _ => {
                    return Err(BlockError::input(format!(
                        "`timeout_sec` must be a number of seconds from 1 to 600, not {value}"
                    )))
                }
            },
        };

        let shown = shown_url(&url, params.iter().map(|(n, _)| n.as_str()));
        Ok(Request { method, url, shown, headers, params, body, timeout: Duration::from_secs_f64(timeout_sec) })
    }
}

fn bad_method(given: &str) -> BlockError {
    BlockError::input(format!("`method` {given:?} is not one of {}", METHODS.join(", ")))
}

fn bad_param(name: &str) -> BlockError {
    BlockError::input(format!("`params`: `{name}` must be text, a number, true/false or a list of those"))
}

fn scalar_text(value: &Value) -> Option<String> {
    match value {
        Value::String(s) => Some(s.clone()),
        Value::Number(n) => Some(n.to_string()),
        Value::Bool(b) => Some(b.to_string()),
        _ => None,
    }
}

/// Parses `raw`, accepting only http and https. Messages never repeat the URL itself: it may be a
/// secret (a webhook address).
fn parse_url(raw: &str) -> Result<Url, BlockError> {
    let url = Url::parse(raw).map_err(|e| {
        BlockError::input(format!(
            "`url` is not a valid address ({e}); give the full address, e.g. https://api.example.com/v1/items"
        ))
    })?;
    match url.scheme() {
        "http" | "https" => {}
        other => {
            return Err(BlockError::input(format!(
                "`url` uses the {other}: scheme; this block only calls http:// and https:// addresses"
            )))
        }
    }
    if url.host_str().is_none_or(str::is_empty) {
        return Err(BlockError::input(
            "`url` has no host name; give the full address, e.g. https://api.example.com/v1/items",
        ));
    }
    Ok(url)
}

/// `https://host:port/path?name=…&other=…`: what logs and messages may show of a URL.
fn shown_url<'a>(url: &Url, extra_params: impl Iterator<Item = &'a str>) -> String {
    let mut shown = format!("{}://{}", url.scheme(), url.host_str().unwrap_or(""));
    if let Some(port) = url.port() {
        shown.push_str(&format!(":{port}"));
    }
    shown.push_str(url.path());
    let names: Vec<String> =
        url.query_pairs().map(|(name, _)| name.into_owned()).chain(extra_params.map(str::to_owned)).collect();
    for (i, name) in names.iter().enumerate() {
        shown.push(if i == 0 { '?' } else { '&' });
        shown.push_str(name);
        shown.push_str("=…");
    }
    shown
}

fn seconds(secs: f64) -> String {
    if secs.fract() == 0.0 {
        format!("{secs:.0} s")
    } else {
        format!("{secs} s")
    }
}

/// The process-wide client. Proxies come from HTTPS_PROXY / HTTP_PROXY / ALL_PROXY (and
/// NO_PROXY); loopback addresses never go through a proxy.
fn client() -> Result<&'static Client, BlockError> {
    static CLIENT: OnceLock<Result<Client, String>> = OnceLock::new();
    CLIENT.get_or_init(build_client).as_ref().map_err(|e| BlockError::failed(e.clone()))
}

fn build_client() -> Result<Client, String> {
    let mut builder = Client::builder().user_agent(concat!("Planwright/", env!("CARGO_PKG_VERSION"))).no_proxy();
    let env = |names: &[&str]| names.iter().find_map(|n| std::env::var(n).ok().filter(|v| !v.trim().is_empty()));
    let bypass = match env(&["NO_PROXY", "no_proxy"]) {
        Some(list) => format!("localhost,127.0.0.1,::1,{list}"),
        None => "localhost,127.0.0.1,::1".to_string(),
    };
    type MakeProxy = fn(String) -> reqwest::Result<Proxy>;
    let proxies: [(&[&str], MakeProxy); 3] = [
        (&["HTTPS_PROXY", "https_proxy"], Proxy::https),
        (&["HTTP_PROXY", "http_proxy"], Proxy::http),
        (&["ALL_PROXY", "all_proxy"], Proxy::all),
    ];
    for (names, make) in proxies {
        if let Some(address) = env(names) {
            match make(address) {
                Ok(proxy) => builder = builder.proxy(proxy.no_proxy(NoProxy::from_string(&bypass))),
                // The address may hold a password: name the variable only.
                Err(_) => tracing::warn!("{} is not a valid proxy address; ignoring it", names[0]),
            }
        }
    }
    builder.build().map_err(|e| format!("could not set up the HTTP client: {e}"))
}

enum Exchange {
    Done(Values),
    /// Status 400 or above: the step fails with this message.
    Refused {
        status: u16,
        message: String,
    },
}

async fn exchange(client: &Client, request: Request) -> Result<Exchange, String> {
    let Request { method, url, shown, headers, params, body, .. } = request;
    let mut builder = client.request(method.clone(), url).headers(headers.clone());
    if !params.is_empty() {
        builder = builder.query(&params);
    }
    builder = match body {
        Body::None => builder,
        Body::Json(value) => builder.json(&value),
        Body::Text(text) if headers.contains_key(CONTENT_TYPE) => builder.body(text),
        Body::Text(text) => builder.header(CONTENT_TYPE, "text/plain; charset=utf-8").body(text),
    };
    let mut response = builder.send().await.map_err(|e| describe(&method, &shown, e))?;
    let status = response.status();
    let response_headers = header_object(response.headers());
    let content_type = response.headers().get(CONTENT_TYPE).and_then(|v| v.to_str().ok()).map(str::to_owned);

    if status.as_u16() >= 400 {
        let (bytes, _) = read_body(&mut response, ERROR_BODY_BYTES).await.unwrap_or_default();
        let text = decode(&bytes, content_type.as_deref());
        let reason = status.canonical_reason().unwrap_or("");
        let excerpt = excerpt(&text);
        let message = if excerpt.is_empty() {
            format!("{method} {shown} answered {} {reason} (no response body)", status.as_u16())
        } else {
            format!("{method} {shown} answered {} {reason}: {excerpt}", status.as_u16())
        };
        return Ok(Exchange::Refused { status: status.as_u16(), message });
    }

    let declared = response.content_length();
    if let Some(length) = declared.filter(|&n| n > MAX_BODY_BYTES) {
        return Err(too_large(&method, &shown, &format!("is {} ({length} bytes)", mib(length))));
    }
    let (bytes, complete) = read_body(&mut response, MAX_BODY_BYTES).await.map_err(|e| describe(&method, &shown, e))?;
    if !complete {
        return Err(too_large(
            &method,
            &shown,
            &format!("is larger than {} (stopped reading there)", mib(MAX_BODY_BYTES)),
        ));
    }
    let text = decode(&bytes, content_type.as_deref());
    let json = parse_json(&text);

    let mut outputs = Values::new();
    outputs.insert("status".into(), Value::from(status.as_u16()));
    outputs.insert("response_json".into(), json);
    outputs.insert("response_text".into(), Value::String(text));
    outputs.insert("headers".into(), Value::Object(response_headers));
    Ok(Exchange::Done(outputs))
}

/// Reads the body chunk by chunk, at most `limit` bytes. The flag is false when there was more.
async fn read_body(response: &mut Response, limit: u64) -> reqwest::Result<(Vec<u8>, bool)> {
    let mut bytes = Vec::new();
    while let Some(chunk) = response.chunk().await? {
        let room = usize::try_from(limit).unwrap_or(usize::MAX).saturating_sub(bytes.len());
        if chunk.len() > room {
            bytes.extend_from_slice(&chunk[..room]);
            return Ok((bytes, false));
        }
        bytes.extend_from_slice(&chunk);
    }
    Ok((bytes, true))
}

fn too_large(method: &Method, shown: &str, size: &str) -> String {
    format!(
        "the response to {method} {shown} {size}, over the {} this block reads; ask the API for less (paging, \
         filters) or download it as a file",
        mib(MAX_BODY_BYTES)
    )
}

fn mib(bytes: u64) -> String {
    let value = bytes as f64 / (1024.0 * 1024.0);
    if value.fract() == 0.0 {
        format!("{value:.0} MiB")
    } else {
        format!("{value:.1} MiB")
    }
}

/// A transport error as a message: what happened and to which (shown) URL, never the full URL.
fn describe(method: &Method, shown: &str, error: reqwest::Error) -> String {
    let what = if error.is_connect() {
        "could not connect"
    } else if error.is_timeout() {
        "timed out"
    } else if error.is_redirect() {
        "was redirected too many times"
    } else if error.is_body() || error.is_decode() {
        "failed while reading the response"
    } else {
        "failed"
    };
    let causes = planwright_llm::error_causes(&error);
    let error = error.without_url();
    if causes.is_empty() {
        format!("{method} {shown} {what}: {error}")
    } else {
        format!("{method} {shown} {what}: {}", causes.join(": "))
    }
}

/// Response headers with lower-case names; repeated headers joined with ", ".
fn header_object(headers: &HeaderMap) -> serde_json::Map<String, Value> {
    let mut object = serde_json::Map::new();
    for name in headers.keys() {
        let values: Vec<String> =
            headers.get_all(name).iter().map(|v| String::from_utf8_lossy(v.as_bytes()).into_owned()).collect();
        object.insert(name.as_str().to_ascii_lowercase(), Value::String(values.join(", ")));
    }
    object
}

/// The body as text, in the charset the content type names (UTF-8 when it names none).
fn decode(bytes: &[u8], content_type: Option<&str>) -> String {
    let charset = content_type.and_then(|ct| {
        ct.split(';').skip(1).find_map(|p| {
            let (key, value) = p.split_once('=')?;
            key.trim().eq_ignore_ascii_case("charset").then(|| value.trim().trim_matches('"').to_owned())
        })
    });
    match charset.and_then(|c| encoding_rs::Encoding::for_label(c.as_bytes())) {
        Some(encoding) => encoding.decode(bytes).0.into_owned(),
        None => String::from_utf8_lossy(bytes).into_owned(),
    }
}

fn parse_json(text: &str) -> Value {
    let trimmed = text.trim_start_matches('\u{feff}').trim();
    if trimmed.is_empty() {
        return Value::Null;
    }
    serde_json::from_str(trimmed).unwrap_or(Value::Null)
}

fn excerpt(text: &str) -> String {
    let text = text.trim();
    let mut cut: String = text.chars().take(EXCERPT_CHARS).collect();
    if cut.len() < text.len() {
        cut.push('…');
    }
    cut
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn shown_url_hides_credentials_and_query_values() {
        let url = Url::parse("https://user:pw@api.example.com:8443/v1/items?token=abc&x=1").unwrap();
        assert_eq!(shown_url(&url, ["month"].into_iter()), "https://api.example.com:8443/v1/items?token=…&x=…&month=…");
    }

    #[test]
    fn charset_decoding() {
        let (bytes, _, _) = encoding_rs::SHIFT_JIS.encode("請求書");
        assert_eq!(decode(&bytes, Some("text/csv; charset=Shift_JIS")), "請求書");
        assert_eq!(decode("ok".as_bytes(), None), "ok");
    }

    #[test]
    fn excerpts_and_sizes() {
        assert_eq!(excerpt(&"a".repeat(301)).chars().count(), 301);
        assert!(excerpt(&"a".repeat(301)).ends_with('…'));
        assert_eq!(excerpt(" short "), "short");
        assert_eq!(mib(11 * 1024 * 1024), "11 MiB");
        assert_eq!(mib(MAX_BODY_BYTES + 512 * 1024), "10.5 MiB");
    }
}
