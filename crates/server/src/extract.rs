//! Request extractors whose refusals are the documented `ApiError` JSON, with the status the
//! refusal calls for (400 bad JSON, 413 too large, 415 not JSON, 422 the wrong shape), instead
//! of axum's plain-text rejections.

use axum::extract::rejection::{JsonRejection, PathRejection, QueryRejection};
use axum::extract::{FromRequest, FromRequestParts, Path, Query, Request};
use axum::http::request::Parts;
use axum::http::{header, HeaderValue, StatusCode};
use axum::response::{IntoResponse, Response};
use axum::Json;
use planwright_api::{ApiError, ApiMessage};
use serde::de::DeserializeOwned;

/// A JSON request body.
pub(crate) struct Body<T>(pub T);

/// The path segments a route captures (a design's file, a draft's name, a run id).
pub(crate) struct Segment<T>(pub T);

/// The query string's parameters.
pub(crate) struct Params<T>(pub T);

/// A refused request: its status and the error as JSON.
pub(crate) struct Refused(StatusCode, ApiError);

impl IntoResponse for Refused {
    fn into_response(self) -> Response {
        let mut response = (self.0, Json(self.1)).into_response();
        // The unread rest of a body that was too large or too slow is still on the connection:
        // saying it closes keeps a client from sending its next request down it.
        if matches!(self.0, StatusCode::PAYLOAD_TOO_LARGE | StatusCode::REQUEST_TIMEOUT) {
            response.headers_mut().insert(header::CONNECTION, HeaderValue::from_static("close"));
        }
        response
    }
}

impl<S: Send + Sync, T: DeserializeOwned> FromRequest<S> for Body<T> {
    type Rejection = Refused;

    async fn from_request(request: Request, state: &S) -> Result<Self, Self::Rejection> {
        match Json::<T>::from_request(request, state).await {
            Ok(Json(value)) => Ok(Body(value)),
            Err(rejection) => Err(body_refused(rejection)),
        }
    }
}

fn body_refused(rejection: JsonRejection) -> Refused {
    if timed_out(&rejection) {
        return Refused(
            StatusCode::REQUEST_TIMEOUT,
            ApiError::invalid("the request body did not arrive in time")
                .with_hint("send the request again")
                .saying(ApiMessage::BodyTooSlow),
        );
    }
    let status = rejection.status();
    let detail = rejection.body_text();
    let (message, hint, said) = match &rejection {
        JsonRejection::MissingJsonContentType(_) => (
            "the request body is not JSON".to_owned(),
            "send it with Content-Type: application/json",
            ApiMessage::BodyNotJson,
        ),
        JsonRejection::JsonSyntaxError(_) => (
            format!("the request body is not valid JSON: {detail}"),
            "send one JSON value",
            ApiMessage::BodyInvalidJson { detail },
        ),
        JsonRejection::JsonDataError(_) => (
            format!("the request body has the wrong shape: {detail}"),
            "docs/studio-api.md gives each operation's request",
            ApiMessage::BodyWrongShape { detail },
        ),
        _ if status == StatusCode::PAYLOAD_TOO_LARGE => {
            ("the request body is too large".to_owned(), "send a smaller plan or document", ApiMessage::BodyTooLarge)
        }
        _ => (
            format!("the request body cannot be read: {detail}"),
            "send the request again",
            ApiMessage::BodyUnreadable { detail },
        ),
    };
    Refused(status, ApiError::invalid(message).with_hint(hint).saying(said))
}

impl<S: Send + Sync, T: DeserializeOwned + Send> FromRequestParts<S> for Segment<T> {
    type Rejection = Refused;

    async fn from_request_parts(parts: &mut Parts, state: &S) -> Result<Self, Self::Rejection> {
        match Path::<T>::from_request_parts(parts, state).await {
            Ok(Path(value)) => Ok(Segment(value)),
            Err(rejection) => Err(path_refused(rejection)),
        }
    }
}

fn path_refused(rejection: PathRejection) -> Refused {
    Refused(
        rejection.status(),
        ApiError::invalid(format!("the address cannot be read: {}", rejection.body_text()))
            .with_hint("names in the address are percent-encoded UTF-8")
            .saying(ApiMessage::AddressUnreadable { detail: rejection.body_text() }),
    )
}

impl<S: Send + Sync, T: DeserializeOwned> FromRequestParts<S> for Params<T> {
    type Rejection = Refused;

    async fn from_request_parts(parts: &mut Parts, state: &S) -> Result<Self, Self::Rejection> {
        match Query::<T>::from_request_parts(parts, state).await {
            Ok(Query(value)) => Ok(Params(value)),
            Err(rejection) => Err(query_refused(rejection)),
        }
    }
}

fn query_refused(rejection: QueryRejection) -> Refused {
    Refused(
        rejection.status(),
        ApiError::invalid(format!("the query string cannot be read: {}", rejection.body_text()))
            .with_hint("docs/studio-api.md gives each operation's parameters")
            .saying(ApiMessage::QueryUnreadable { detail: rejection.body_text() }),
    )
}

/// Whether the body stopped because it took too long (`ServeLimits::body_timeout`).
fn timed_out(rejection: &JsonRejection) -> bool {
    let mut cause: Option<&(dyn std::error::Error + 'static)> = Some(rejection);
    while let Some(error) = cause {
        if error.is::<tower_http::timeout::TimeoutError>() {
            return true;
        }
        cause = error.source();
    }
    false
}
