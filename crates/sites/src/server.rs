//! The HTTP side: one router per origin over the shared state.

use std::sync::Arc;

use axum::body::Body;
use axum::extract::{Path, State as Extract};
use axum::http::header::{CACHE_CONTROL, CONTENT_DISPOSITION, CONTENT_TYPE};
use axum::http::{HeaderValue, Method, StatusCode, Uri};
use axum::response::{IntoResponse, Response};
use axum::routing::{get, post};
use axum::{Json, Router};
use serde_json::json;

use crate::api;
use crate::pages;
use crate::state::{Origin, Record, State};

/// The largest `/__record` body accepted; events are small, anything bigger is a bug.
pub(crate) const MAX_RECORD_BYTES: usize = 64 * 1024;
/// Bodies up to this size are read in full before the 400, so the client sees the answer
/// instead of a connection reset while it is still sending.
const DRAIN_BYTES: usize = 1024 * 1024;
const MAX_NAME_CHARS: usize = 200;

/// What every handler of one origin needs.
#[derive(Clone)]
pub(crate) struct Ctx {
    pub state: Arc<State>,
    pub origin: Origin,
    pub main_base: Arc<str>,
    pub other_base: Arc<str>,
}

pub(crate) fn router(ctx: Ctx) -> Router {
    Router::new()
        .route("/__state", get(state))
        .route("/__record", post(record))
        .route("/__reset", post(reset))
        .route("/api/invoices", get(api::invoices))
        .route("/api/suggest", get(api::suggest))
        .route("/api/answer", post(api::answer))
        .route("/downloads/{file}", get(download))
        .fallback(static_file)
        // Tests load the same page many times and must always see the server's current
        // answer, never a cached one.
        .layer(axum::middleware::map_response(no_store))
        .with_state(ctx)
}

async fn no_store(mut response: Response) -> Response {
    response.headers_mut().insert(CACHE_CONTROL, HeaderValue::from_static("no-store"));
    response
}

/// A refused request: the status and a message, answered as `{"error": message}`.
#[derive(Debug)]
pub(crate) struct ApiError {
    status: StatusCode,
    message: String,
}

impl ApiError {
    pub fn bad_request(message: impl Into<String>) -> Self {
        ApiError { status: StatusCode::BAD_REQUEST, message: message.into() }
    }
}

impl IntoResponse for ApiError {
    fn into_response(self) -> Response {
        (self.status, Json(json!({ "error": self.message }))).into_response()
    }
}

async fn state(Extract(ctx): Extract<Ctx>) -> Json<serde_json::Value> {
    Json(ctx.state.snapshot())
}

/// `POST /__record`. The body is read by hand, not with the `Json` extractor, because pages
/// use `navigator.sendBeacon`, which cannot send `application/json`, and because refusals must
/// be 400 with a message (the extractors answer 413 and 415).
async fn record(Extract(ctx): Extract<Ctx>, body: Body) -> Result<StatusCode, ApiError> {
    let record = read_record(body).await?;
    ctx.state.record(ctx.origin, record).map_err(ApiError::bad_request)?;
    Ok(StatusCode::NO_CONTENT)
}

/// A `{page, action, detail}` body, as `/__record` and `/api/answer` take it, or the 400 saying
/// what is wrong with it.
pub(crate) async fn read_record(body: Body) -> Result<Record, ApiError> {
    let too_large = || ApiError::bad_request(format!("the body must be at most {MAX_RECORD_BYTES} bytes"));
    let bytes = axum::body::to_bytes(body, DRAIN_BYTES).await.map_err(|_| too_large())?;
    if bytes.len() > MAX_RECORD_BYTES {
        return Err(too_large());
    }
    let record: Record = serde_json::from_slice(&bytes)
        .map_err(|err| ApiError::bad_request(format!("expected JSON {{page, action, detail}}: {err}")))?;
    if record.action.trim().is_empty() {
        return Err(ApiError::bad_request("action must not be empty"));
    }
    if record.action.chars().count() > MAX_NAME_CHARS || record.page.chars().count() > MAX_NAME_CHARS {
        return Err(ApiError::bad_request(format!("page and action must be at most {MAX_NAME_CHARS} characters")));
    }
    Ok(record)
}

async fn reset(Extract(ctx): Extract<Ctx>) -> StatusCode {
    ctx.state.reset();
    StatusCode::NO_CONTENT
}

async fn static_file(Extract(ctx): Extract<Ctx>, method: Method, uri: Uri) -> Response {
    if method != Method::GET && method != Method::HEAD {
        return (StatusCode::METHOD_NOT_ALLOWED, [(axum::http::header::ALLOW, "GET, HEAD")]).into_response();
    }
    match pages::asset(&pages::without_token(uri.path()), &ctx.main_base, &ctx.other_base) {
        Some(asset) => ([(CONTENT_TYPE, asset.content_type)], asset.body).into_response(),
        None => match pages::clean_url(uri.path()) {
            // A redirect, not the page itself: its relative links must resolve from its real address.
            Some(path) => {
                let target = match uri.query() {
                    Some(query) => format!("{path}?{query}"),
                    None => path,
                };
                (StatusCode::PERMANENT_REDIRECT, [(axum::http::header::LOCATION, target)]).into_response()
            }
            None => not_found(uri.path()),
        },
    }
}

/// `GET /downloads/{file}`: a file of `assets/sites/downloads/` as an attachment, recorded as
/// `download {file}` (page `downloads/<file>`) on the origin that served it, before the first
/// byte goes out — so a test that saw the download start can read the state at once. `HEAD`
/// answers the same headers and records nothing.
async fn download(Extract(ctx): Extract<Ctx>, method: Method, Path(file): Path<String>) -> Response {
    let Some(asset) = pages::download(&file) else { return not_found(&format!("/downloads/{file}")) };
    if method == Method::GET {
        let record = Record {
            page: format!("{}{file}", pages::DOWNLOADS_DIR),
            action: "download".to_owned(),
            detail: json!({ "file": file }),
        };
        if let Err(message) = ctx.state.record(ctx.origin, record) {
            return (StatusCode::SERVICE_UNAVAILABLE, Json(json!({ "error": message }))).into_response();
        }
    }
    // Plain names only (pages::download), so the name goes into the header as it is.
    let disposition = format!("attachment; filename=\"{file}\"");
    ([(CONTENT_TYPE, asset.content_type.to_owned()), (CONTENT_DISPOSITION, disposition)], asset.body).into_response()
}

fn not_found(path: &str) -> Response {
    let page = format!(
        "<!doctype html>\n<html lang=\"en\">\n<head><meta charset=\"utf-8\"><title>Page not found</title></head>\n\
         <body><main><h1>Page not found</h1><p>There is no page at <code>{}</code>.</p>\
         <p><a href=\"/\">All fixture pages</a></p></main></body>\n</html>\n",
        escape_html(path)
    );
    (StatusCode::NOT_FOUND, [(CONTENT_TYPE, "text/html; charset=utf-8")], page).into_response()
}

fn escape_html(text: &str) -> String {
    let mut escaped = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '&' => escaped.push_str("&amp;"),
            '<' => escaped.push_str("&lt;"),
            '>' => escaped.push_str("&gt;"),
            '"' => escaped.push_str("&quot;"),
            '\'' => escaped.push_str("&#39;"),
            _ => escaped.push(c),
        }
    }
    escaped
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_404_page_escapes_the_path() {
        assert_eq!(escape_html(r#"<a href="x">&'"#), "&lt;a href=&quot;x&quot;&gt;&amp;&#39;");
    }
}
