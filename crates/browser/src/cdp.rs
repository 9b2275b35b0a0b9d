//! DevTools calls whose answers are kept as raw JSON.
//!
//! The typed responses of chromiumoxide break when Chromium adds a property or a value (see
//! docs/decisions.md), so drift-prone commands go through [`Raw`] and are read leniently.

use std::borrow::Cow;
use std::time::Duration;

use chromiumoxide::types::{Command, Method, MethodId};
use chromiumoxide::Page;
use serde::Serialize;
use serde_json::Value;

use crate::error::BrowserError;
use crate::session::Liveness;

/// A DevTools command sent as `method` with `params`, answered with raw JSON.
#[derive(Debug, Clone)]
pub(crate) struct Raw {
    method: &'static str,
    params: Value,
}

impl Serialize for Raw {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        self.params.serialize(serializer)
    }
}

impl Method for Raw {
    fn identifier(&self) -> MethodId {
        Cow::Borrowed(self.method)
    }
}

impl Command for Raw {
    type Response = Value;
}

/// How long one DevTools call may take before the page is taken for frozen.
const CALL_TIMEOUT: Duration = Duration::from_secs(15);

/// Sends `method` to the page's target and returns its raw result; a closed browser or a call
/// that never answers is an error, never a hang.
#[tracing::instrument(name = "cdp", level = "trace", skip_all, fields(method))]
pub(crate) async fn call(
    page: &Page,
    live: &Liveness,
    method: &'static str,
    params: Value,
) -> Result<Value, BrowserError> {
    let future = page.execute(Raw { method, params });
    tokio::select! {
        result = tokio::time::timeout(CALL_TIMEOUT, future) => match result {
            Ok(Ok(response)) => Ok(response.result),
            Ok(Err(e)) => Err(protocol_error(method, live, e)),
            Err(_) => Err(BrowserError::Timeout { method: method.to_owned(), ms: CALL_TIMEOUT.as_millis() as u64 }),
        },
        reason = live.closed() => Err(BrowserError::Closed(reason)),
    }
}

fn protocol_error(method: &str, live: &Liveness, error: chromiumoxide::error::CdpError) -> BrowserError {
    use chromiumoxide::error::CdpError;
    if let Some(reason) = live.closed_reason() {
        return BrowserError::Closed(reason);
    }
    match error {
        CdpError::Chrome(e) => BrowserError::Protocol { method: method.to_owned(), message: e.message },
        CdpError::Timeout => BrowserError::Timeout { method: method.to_owned(), ms: CALL_TIMEOUT.as_millis() as u64 },
        CdpError::Ws(_) | CdpError::ChannelSendError(_) | CdpError::NoResponse => {
            BrowserError::Closed(format!("the DevTools connection ended during {method}"))
        }
        other => BrowserError::Protocol { method: method.to_owned(), message: other.to_string() },
    }
}
