//! What was done on the sites: one ordered event log shared by both origins.

use std::sync::{Mutex, MutexGuard};
use std::time::Instant;

use serde::{Deserialize, Serialize};
use serde_json::Value;

/// More events than any test or benchmark makes; a page stuck in a loop gets 400s instead of
/// growing the log without bound.
pub(crate) const MAX_EVENTS: usize = 10_000;

/// Which of the two loopback servers a request reached.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub(crate) enum Origin {
    Main,
    Other,
}

/// The body of `POST /__record`, as pages send it.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct Record {
    pub page: String,
    pub action: String,
    #[serde(default = "empty_object")]
    pub detail: Value,
}

fn empty_object() -> Value {
    Value::Object(Default::default())
}

#[derive(Debug, Clone, Serialize)]
struct Event {
    origin: Origin,
    page: String,
    action: String,
    detail: Value,
    at_ms: u64,
}

#[derive(Debug)]
pub(crate) struct State {
    started: Instant,
    events: Mutex<Vec<Event>>,
}

impl State {
    pub fn new() -> Self {
        State { started: Instant::now(), events: Mutex::new(Vec::new()) }
    }

    /// Appends an event; refuses (with the reason) when the log is full.
    pub fn record(&self, origin: Origin, record: Record) -> Result<(), String> {
        let at_ms = u64::try_from(self.started.elapsed().as_millis()).unwrap_or(u64::MAX);
        let mut events = self.lock();
        if events.len() >= MAX_EVENTS {
            return Err(format!("the event log is full ({MAX_EVENTS} events); POST /__reset to clear it"));
        }
        tracing::debug!(?origin, page = %record.page, action = %record.action, "fixture event");
        events.push(Event { origin, page: record.page, action: record.action, detail: record.detail, at_ms });
        Ok(())
    }

    /// `{"events": [...]}`, the body of `GET /__state`.
    pub fn snapshot(&self) -> Value {
        let events = self.lock();
        serde_json::json!({ "events": &*events })
    }

    pub fn events(&self, action: &str) -> Vec<Value> {
        self.lock()
            .iter()
            .filter(|event| event.action == action)
            .map(|event| serde_json::to_value(event).unwrap_or(Value::Null))
            .collect()
    }

    pub fn reset(&self) {
        self.lock().clear();
    }

    // A panic while the lock was held cannot leave the Vec half-written (push and clear are
    // atomic from its point of view), so a poisoned lock is still safe to use.
    fn lock(&self) -> MutexGuard<'_, Vec<Event>> {
        self.events.lock().unwrap_or_else(|poisoned| poisoned.into_inner())
    }
}
