//! What a page is doing on its own: its requests (under way, and the latest ones with their
//! answers, for the actions' reports), its navigations and whether its main frame is loading —
//! kept from DevTools events by the task that follows the page.
//!
//! DevTools sends a request's events in order, and they are read in that order; every update here
//! still gives the same result in any order, so that no event read early or late (a request of a
//! page followed after it started) leaves a request under way for ever.

use std::collections::{HashMap, VecDeque};
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Mutex, PoisonError};
use std::time::Duration;

use serde::de::IgnoredAny;
use serde::Deserialize;

use crate::effects::{RequestKind, RequestRecord};

/// How long a request may be under way before it counts as background traffic.
pub(crate) const BACKGROUND_REQUEST: Duration = Duration::from_secs(2);

/// How many of the page's latest requests are kept for the actions' reports: more than an
/// action starts, bounded on a page that polls all the time.
const REQUEST_LOG: usize = 256;

/// How many answers and ends read before their request are kept for it: a burst's worth, bounded
/// when the request is one never logged (an image of a document left).
const EARLY_OUTCOMES: usize = 128;

/// `Network.requestWillBeSent`, the part of it kept.
#[derive(Debug, Deserialize)]
#[serde(rename_all = "camelCase")]
pub(crate) struct RequestSent {
    request_id: String,
    request: SentRequest,
    /// The resource type (`Document`, `Fetch`, `XHR`, …).
    #[serde(rename = "type")]
    kind: Option<String>,
    /// Present when the request goes on after a redirect.
    redirect_response: Option<IgnoredAny>,
}

#[derive(Debug, Deserialize)]
struct SentRequest {
    method: String,
    url: String,
}

/// A request of the page, as the request log keeps it.
struct Logged {
    id: String,
    /// Milliseconds since the session started.
    started_ms: u64,
    record: RequestRecord,
    /// Answered (its status known: a page need not read the body, and until it does Chromium
    /// does not call the request finished), or failed.
    done: bool,
}

/// An answer or an end read before the request it belongs to.
#[derive(Default)]
struct Outcome {
    status: Option<u16>,
    error: Option<String>,
    ended: bool,
}

#[derive(Default)]
struct Requests {
    /// Requests under way, with when each started (ms since the session started).
    inflight: HashMap<String, u64>,
    /// The page's latest requests (documents, fetch, XHR, beacons: not images, fonts or style
    /// sheets), oldest first, at most [`REQUEST_LOG`].
    log: VecDeque<Logged>,
    /// Outcomes whose request was not read yet, oldest first, at most [`EARLY_OUTCOMES`].
    early: VecDeque<(String, Outcome)>,
}

impl Requests {
    /// Applies `update` to the request `id`'s logged entry, or keeps it for the request when it
    /// was not read yet.
    fn outcome(&mut self, id: &str, update: impl Fn(&mut Outcome)) {
        if let Some(logged) = self.log.iter_mut().rev().find(|l| l.id == id) {
            let mut outcome =
                Outcome { status: logged.record.status, error: logged.record.error.take(), ended: logged.done };
            update(&mut outcome);
            apply(logged, outcome);
        } else if !self.inflight.contains_key(id) {
            match self.early.iter_mut().find(|(early, _)| early == id) {
                Some((_, outcome)) => update(outcome),
                None => {
                    if self.early.len() == EARLY_OUTCOMES {
                        self.early.pop_front();
                    }
                    let mut outcome = Outcome::default();
                    update(&mut outcome);
                    self.early.push_back((id.to_owned(), outcome));
                }
            }
        }
    }
}

/// An outcome on a logged request: an answer cut short (a download, a page left, a keepalive
/// request Chromium reports "aborted" once answered) keeps the status it had.
fn apply(logged: &mut Logged, outcome: Outcome) {
    logged.record.status = outcome.status;
    logged.record.error = outcome.error;
    logged.done = outcome.ended || outcome.status.is_some();
}

/// What a page is doing on its own, kept by a task that follows its events.
#[derive(Default)]
pub(crate) struct PageActivity {
    requests: Mutex<Requests>,
    /// Milliseconds since the session started, at the last request start or end.
    last_network: AtomicU64,
    main_frame_loading: AtomicBool,
    navigations: AtomicU64,
}

impl PageActivity {
    /// Requests under way that started less than [`BACKGROUND_REQUEST`] before `now_ms`: one
    /// open longer is the page's background traffic (a long poll, a stream, an analytics
    /// beacon — or one whose end DevTools never reported), which a page at rest can have, so
    /// it does not keep the page from settling.
    pub(crate) fn requests_in_flight(&self, now_ms: u64) -> usize {
        let requests = self.requests();
        requests
            .inflight
            .values()
            .filter(|&&started| now_ms.saturating_sub(started) < BACKGROUND_REQUEST.as_millis() as u64)
            .count()
    }
    pub(crate) fn last_network_ms(&self) -> u64 {
        self.last_network.load(Ordering::Relaxed)
    }
    pub(crate) fn loading(&self) -> bool {
        self.main_frame_loading.load(Ordering::Relaxed)
    }
    pub(crate) fn navigations(&self) -> u64 {
        self.navigations.load(Ordering::Relaxed)
    }

    /// The logged requests that started at or after `since_ms`, oldest first.
    pub(crate) fn requests_since(&self, since_ms: u64) -> Vec<RequestRecord> {
        let requests = self.requests();
        requests.log.iter().filter(|l| l.started_ms >= since_ms).map(|l| l.record.clone()).collect()
    }

    /// How many logged requests that started at or after `since_ms` are unanswered: an
    /// action waits for its own requests however long they take (within its bound), unlike the
    /// page's background traffic.
    pub(crate) fn pending_since(&self, since_ms: u64) -> usize {
        let requests = self.requests();
        requests.log.iter().filter(|l| l.started_ms >= since_ms && !l.done).count()
    }

    /// `Network.requestWillBeSent`.
    pub(crate) fn request_sent(&self, event: &RequestSent, now_ms: u64) {
        let id = event.request_id.as_str();
        let mut requests = self.requests();
        let early = requests.early.iter().position(|(early, _)| early == id).and_then(|i| requests.early.remove(i));
        let early = early.map(|(_, outcome)| outcome);
        if !early.as_ref().is_some_and(|outcome| outcome.ended) {
            requests.inflight.insert(id.to_owned(), now_ms);
        }
        self.last_network.store(now_ms, Ordering::Relaxed);
        // A redirect is the same request going on: its method and address stay the first ones.
        if event.redirect_response.is_some() {
            return;
        }
        let Some(kind) = event.kind.as_deref().map_or(Some(RequestKind::Other), request_kind) else { return };
        if requests.log.len() == REQUEST_LOG {
            requests.log.pop_front();
        }
        let mut logged = Logged {
            id: id.to_owned(),
            started_ms: now_ms,
            record: RequestRecord {
                method: event.request.method.clone(),
                url: event.request.url.clone(),
                status: None,
                kind,
                error: None,
            },
            done: false,
        };
        if let Some(outcome) = early {
            apply(&mut logged, outcome);
        }
        requests.log.push_back(logged);
    }

    /// `Network.responseReceived`: the request is answered (its body may still be coming).
    pub(crate) fn answered(&self, id: &str, status: Option<u16>) {
        self.requests().outcome(id, |outcome| outcome.status = status);
    }

    /// `Network.loadingFinished`, or `Network.loadingFailed` with its error text.
    pub(crate) fn ended(&self, id: &str, error: Option<&str>, now_ms: u64) {
        let mut requests = self.requests();
        requests.outcome(id, |outcome| {
            outcome.ended = true;
            if let Some(error) = error {
                outcome.error = Some(error.to_owned());
            }
        });
        requests.inflight.remove(id);
        self.last_network.store(now_ms, Ordering::Relaxed);
    }

    /// The main frame started loading a document: a navigation. Requests of the old document
    /// never finish; they no longer count as under way.
    pub(crate) fn main_frame_started_loading(&self) {
        self.main_frame_loading.store(true, Ordering::Relaxed);
        self.navigations.fetch_add(1, Ordering::Relaxed);
        self.requests().inflight.clear();
    }

    pub(crate) fn main_frame_stopped_loading(&self) {
        self.main_frame_loading.store(false, Ordering::Relaxed);
    }

    fn requests(&self) -> std::sync::MutexGuard<'_, Requests> {
        self.requests.lock().unwrap_or_else(PoisonError::into_inner)
    }
}

/// How a request of this type is reported, or `None` for what is no effect of an action (images,
/// fonts, style sheets, media, prefetches, CORS preflights) or never ends (event streams, web
/// sockets). A type newer than this list is reported, as `Other`.
fn request_kind(kind: &str) -> Option<RequestKind> {
    match kind {
        "Document" => Some(RequestKind::Document),
        "Fetch" => Some(RequestKind::Fetch),
        "XHR" => Some(RequestKind::Xhr),
        "Ping" => Some(RequestKind::Beacon),
        "Stylesheet" | "Image" | "Media" | "Font" | "TextTrack" | "Prefetch" | "EventSource" | "WebSocket"
        | "Manifest" | "CSPViolationReport" | "Preflight" => None,
        _ => Some(RequestKind::Other),
    }
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    fn sent(id: &str, method: &str) -> RequestSent {
        serde_json::from_value(json!({
            "requestId": id,
            "loaderId": "L",
            "documentURL": "http://127.0.0.1/page.html",
            "request": {
                "url": "http://127.0.0.1/__record",
                "method": method,
                "headers": {},
                "initialPriority": "High",
                "referrerPolicy": "no-referrer"
            },
            "timestamp": 1.0,
            "wallTime": 1.0,
            "initiator": {"type": "script"},
            "redirectHasExtraInfo": false,
            "type": "Fetch"
        }))
        .expect("a requestWillBeSent event")
    }

    /// A keepalive post as Chromium reports it (answered, then "aborted"), in every order the
    /// listeners can be read in.
    #[test]
    fn a_request_keeps_its_answer_in_whatever_order_its_events_are_read() {
        type Step = fn(&PageActivity);
        let request: Step = |a| a.request_sent(&sent("7", "POST"), 10);
        let answer: Step = |a| a.answered("7", Some(204));
        let abort: Step = |a| a.ended("7", Some("net::ERR_ABORTED"), 12);
        let orders: [[Step; 3]; 6] = [
            [request, answer, abort],
            [request, abort, answer],
            [answer, request, abort],
            [answer, abort, request],
            [abort, request, answer],
            [abort, answer, request],
        ];
        for (n, order) in orders.iter().enumerate() {
            let activity = PageActivity::default();
            order.iter().for_each(|step| step(&activity));
            let logged = activity.requests_since(0);
            assert_eq!(logged.len(), 1, "order {n}");
            assert_eq!(logged[0].status, Some(204), "order {n}: the answer is kept");
            assert_eq!(logged[0].error.as_deref(), Some("net::ERR_ABORTED"), "order {n}");
            assert_eq!(activity.pending_since(0), 0, "order {n}: nothing is awaited");
            assert_eq!(activity.requests_in_flight(11), 0, "order {n}: nothing is under way");
        }
    }

    #[test]
    fn a_request_not_answered_yet_is_pending_and_under_way_until_it_ends() {
        let activity = PageActivity::default();
        activity.request_sent(&sent("1", "POST"), 10);
        assert_eq!((activity.pending_since(0), activity.requests_in_flight(11)), (1, 1));
        activity.answered("1", Some(200));
        assert_eq!((activity.pending_since(0), activity.requests_in_flight(11)), (0, 1));
        activity.ended("1", None, 20);
        assert_eq!((activity.pending_since(0), activity.requests_in_flight(21)), (0, 0));
        assert_eq!(activity.requests_since(0)[0].error, None);
    }

    #[test]
    fn outcomes_of_requests_never_read_are_bounded() {
        let activity = PageActivity::default();
        for id in 0..EARLY_OUTCOMES * 3 {
            activity.ended(&id.to_string(), None, 1);
        }
        assert_eq!(activity.requests().early.len(), EARLY_OUTCOMES);
    }
}
