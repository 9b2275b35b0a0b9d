//! The DevTools connection: one WebSocket to the browser, commands answered by their id, and
//! events handed to whoever follows a session, in the order the browser sent them.
//!
//! Messages stay JSON: the protocol grows with every Chromium, and a typed copy of all of it
//! broke on new properties and values, was the largest crate of the build and parsed every
//! event the browser sent into it (docs/decisions.md, "Browser: our own DevTools connection").

use std::collections::HashMap;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex, PoisonError};
use std::time::Duration;

use futures::{SinkExt, StreamExt};
use serde::Deserialize;
use serde_json::{json, Value};
use tokio::sync::{mpsc, oneshot};
use tokio::task::JoinHandle;
use tokio_tungstenite::tungstenite::protocol::WebSocketConfig;
use tokio_tungstenite::tungstenite::Message;

use crate::error::BrowserError;
use crate::session::Liveness;

/// How long one DevTools call may take before the page is taken for frozen.
const CALL_TIMEOUT: Duration = Duration::from_secs(15);

/// The largest message taken from the browser: a full-page screenshot of a long page, or the
/// accessibility tree of a large one, with room to spare; a bigger one ends the connection.
const MESSAGE_LIMIT: usize = 256 << 20;

/// An event of the browser or of one of its sessions.
#[derive(Debug)]
pub(crate) struct Event {
    pub(crate) method: String,
    pub(crate) params: Value,
}

/// What the browser answered to a call that failed.
enum Failure {
    /// The browser's own error message.
    Refused(String),
    /// The connection ended before the answer came.
    Ended,
}

type Answer = Result<Value, Failure>;

/// Who waits for what: answers by call id, events by session (`None`: the browser's own).
#[derive(Default)]
struct Waiting {
    answers: HashMap<u64, oneshot::Sender<Answer>>,
    followers: Vec<(Option<String>, mpsc::UnboundedSender<Event>)>,
    /// Set once the connection has ended: later calls fail at once.
    ended: bool,
}

/// A message from the browser: an answer (`id`) or an event (`method`).
#[derive(Deserialize)]
#[serde(rename_all = "camelCase")]
struct Incoming {
    id: Option<u64>,
    method: Option<String>,
    session_id: Option<String>,
    #[serde(default)]
    params: Value,
    result: Option<Value>,
    error: Option<ProtocolError>,
}

#[derive(Deserialize)]
struct ProtocolError {
    message: String,
}

/// One WebSocket to a browser. Dropping it ends the connection.
pub(crate) struct Connection {
    /// The session's liveness: closed by the connection's end, and by whatever else ends the
    /// session (a crash, `close`).
    live: Liveness,
    outgoing: mpsc::UnboundedSender<String>,
    waiting: Arc<Mutex<Waiting>>,
    next_id: AtomicU64,
    task: JoinHandle<()>,
}

impl Drop for Connection {
    fn drop(&mut self) {
        self.task.abort();
    }
}

impl Connection {
    /// Connects to `address` (`ws://…/devtools/browser/…`); its [`Liveness`] is closed, with the
    /// reason, when the connection ends.
    pub(crate) async fn open(address: &str) -> Result<Connection, String> {
        let config =
            WebSocketConfig::default().max_message_size(Some(MESSAGE_LIMIT)).max_frame_size(Some(MESSAGE_LIMIT));
        let (socket, _) = tokio_tungstenite::connect_async_with_config(address, Some(config), true)
            .await
            .map_err(|e| e.to_string())?;
        let (outgoing, mut to_send) = mpsc::unbounded_channel::<String>();
        let waiting = Arc::new(Mutex::new(Waiting::default()));
        let state = Arc::clone(&waiting);
        let live = Liveness::new();
        let task_live = live.clone();
        let task = tokio::spawn(async move {
            let (mut sink, mut stream) = socket.split();
            let reason = loop {
                tokio::select! {
                    message = stream.next() => match message {
                        Some(Ok(Message::Text(text))) => dispatch(&state, text.as_str()),
                        Some(Ok(Message::Close(_))) | None => break "the DevTools connection ended".to_owned(),
                        Some(Ok(_)) => {}
                        Some(Err(e)) => break format!("the DevTools connection broke: {e}"),
                    },
                    Some(text) = to_send.recv() => {
                        if let Err(e) = sink.send(Message::text(text)).await {
                            break format!("the DevTools connection broke: {e}");
                        }
                    }
                }
            };
            task_live.close(reason);
            let mut waiting = state.lock().unwrap_or_else(PoisonError::into_inner);
            waiting.ended = true;
            for (_, answer) in waiting.answers.drain() {
                let _ = answer.send(Err(Failure::Ended));
            }
            waiting.followers.clear();
        });
        Ok(Connection { live, outgoing, waiting, next_id: AtomicU64::new(1), task })
    }

    /// The events of `session` (`None`: the browser's own) from now on, in the order sent.
    pub(crate) fn follow(&self, session: Option<&str>) -> mpsc::UnboundedReceiver<Event> {
        let (sender, events) = mpsc::unbounded_channel();
        let mut waiting = self.waiting();
        if !waiting.ended {
            waiting.followers.push((session.map(str::to_owned), sender));
        }
        events
    }

    /// Sends `method` to `session` (`None`: to the browser) and returns its raw result; a closed
    /// browser or a call that never answers is an error, never a hang.
    #[tracing::instrument(name = "cdp", level = "trace", skip_all, fields(method))]
    pub(crate) async fn call(
        &self,
        session: Option<&str>,
        method: &'static str,
        params: Value,
    ) -> Result<Value, BrowserError> {
        let live = &self.live;
        let id = self.next_id.fetch_add(1, Ordering::Relaxed);
        let (answer, answered) = oneshot::channel();
        {
            let mut waiting = self.waiting();
            if waiting.ended {
                return Err(closed(method, live));
            }
            waiting.answers.insert(id, answer);
        }
        let mut message = json!({"id": id, "method": method, "params": params});
        if let Some(session) = session {
            message["sessionId"] = Value::String(session.to_owned());
        }
        if self.outgoing.send(message.to_string()).is_err() {
            self.waiting().answers.remove(&id);
            return Err(closed(method, live));
        }
        let outcome = tokio::select! {
            answer = tokio::time::timeout(CALL_TIMEOUT, answered) => answer,
            reason = live.closed() => {
                self.waiting().answers.remove(&id);
                return Err(BrowserError::Closed(reason));
            }
        };
        match outcome {
            Ok(Ok(Ok(result))) => Ok(result),
            Ok(Ok(Err(Failure::Refused(message)))) => match live.closed_reason() {
                Some(reason) => Err(BrowserError::Closed(reason)),
                None => Err(BrowserError::Protocol { method: method.to_owned(), message }),
            },
            Ok(Ok(Err(Failure::Ended)) | Err(_)) => Err(closed(method, live)),
            Err(_) => {
                self.waiting().answers.remove(&id);
                Err(BrowserError::Timeout { method: method.to_owned(), ms: CALL_TIMEOUT.as_millis() as u64 })
            }
        }
    }

    /// Whether the session is still there; the reason once it is not.
    pub(crate) fn live(&self) -> &Liveness {
        &self.live
    }

    fn waiting(&self) -> std::sync::MutexGuard<'_, Waiting> {
        self.waiting.lock().unwrap_or_else(PoisonError::into_inner)
    }
}

/// The error for a call the connection's end cut short.
fn closed(method: &str, live: &Liveness) -> BrowserError {
    BrowserError::Closed(
        live.closed_reason().unwrap_or_else(|| format!("the DevTools connection ended during {method}")),
    )
}

/// Hands one message from the browser to whoever waits for it. A message that is not JSON, or
/// answers no call, is left aside: the browser's output is never a reason to stop.
fn dispatch(waiting: &Mutex<Waiting>, text: &str) {
    let message: Incoming = match serde_json::from_str(text) {
        Ok(message) => message,
        Err(e) => {
            tracing::debug!(error = %e, "DevTools message not understood");
            return;
        }
    };
    let mut waiting = waiting.lock().unwrap_or_else(PoisonError::into_inner);
    if let Some(id) = message.id {
        if let Some(answer) = waiting.answers.remove(&id) {
            let outcome = match message.error {
                Some(error) => Err(Failure::Refused(error.message)),
                None => Ok(message.result.unwrap_or(Value::Null)),
            };
            let _ = answer.send(outcome);
        }
        return;
    }
    let Some(method) = message.method else { return };
    let session = message.session_id;
    let mut params = Some(message.params);
    let mut followers = std::mem::take(&mut waiting.followers);
    // A follower that went away (its receiver dropped) is forgotten.
    followers.retain(|(follows, events)| {
        if *follows != session {
            return !events.is_closed();
        }
        let event = Event { method: method.clone(), params: params.take().unwrap_or(Value::Null) };
        match events.send(event) {
            Ok(()) => true,
            Err(mpsc::error::SendError(event)) => {
                params = Some(event.params);
                false
            }
        }
    });
    waiting.followers = followers;
}

/// A page target of the browser and the session driving it.
#[derive(Clone)]
pub(crate) struct PageTarget {
    pub(crate) connection: Arc<Connection>,
    pub(crate) target_id: String,
    pub(crate) session: String,
}

impl PageTarget {
    /// Attaches to the page `target_id` in a session of its own.
    pub(crate) async fn attach(connection: &Arc<Connection>, target_id: String) -> Result<PageTarget, BrowserError> {
        let attached =
            connection.call(None, "Target.attachToTarget", json!({"targetId": target_id, "flatten": true})).await?;
        let Some(session) = attached.get("sessionId").and_then(Value::as_str) else {
            return Err(BrowserError::Protocol {
                method: "Target.attachToTarget".to_owned(),
                message: format!("no session in the answer: {attached}"),
            });
        };
        Ok(PageTarget { connection: Arc::clone(connection), target_id, session: session.to_owned() })
    }

    /// Sends `method` to this page's session.
    pub(crate) async fn call(&self, method: &'static str, params: Value) -> Result<Value, BrowserError> {
        self.connection.call(Some(&self.session), method, params).await
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn waiting_with_follower(session: Option<&str>) -> (Mutex<Waiting>, mpsc::UnboundedReceiver<Event>) {
        let (sender, events) = mpsc::unbounded_channel();
        let waiting = Waiting { followers: vec![(session.map(str::to_owned), sender)], ..Waiting::default() };
        (Mutex::new(waiting), events)
    }

    #[test]
    fn events_reach_the_follower_of_their_session_in_order() {
        let (waiting, mut events) = waiting_with_follower(Some("S1"));
        dispatch(&waiting, r#"{"method":"Network.requestWillBeSent","sessionId":"S1","params":{"requestId":"1"}}"#);
        dispatch(&waiting, r#"{"method":"Network.loadingFinished","sessionId":"S2","params":{"requestId":"9"}}"#);
        dispatch(&waiting, r#"{"method":"Target.targetCreated","params":{}}"#);
        dispatch(&waiting, r#"{"method":"Network.loadingFinished","sessionId":"S1","params":{"requestId":"1"}}"#);
        let first = events.try_recv().unwrap();
        assert_eq!((first.method.as_str(), &first.params["requestId"]), ("Network.requestWillBeSent", &json!("1")));
        assert_eq!(events.try_recv().unwrap().method, "Network.loadingFinished");
        assert!(events.try_recv().is_err(), "another session's or the browser's events leaked");
    }

    #[test]
    fn an_answer_goes_to_its_call_and_an_error_keeps_the_browsers_words() {
        let waiting = Mutex::new(Waiting::default());
        let (ok, mut ok_answer) = oneshot::channel();
        let (refused, mut refused_answer) = oneshot::channel();
        waiting.lock().unwrap().answers.extend([(1, ok), (2, refused)]);
        dispatch(&waiting, r#"{"id":2,"error":{"code":-32000,"message":"No node with given id found"}}"#);
        dispatch(&waiting, r#"{"id":1,"result":{"frameTree":{}}}"#);
        dispatch(&waiting, r#"{"id":7,"result":{}}"#);
        assert!(matches!(ok_answer.try_recv(), Ok(Ok(v)) if v == json!({"frameTree": {}})));
        assert!(
            matches!(refused_answer.try_recv(), Ok(Err(Failure::Refused(m))) if m == "No node with given id found")
        );
        assert!(waiting.lock().unwrap().answers.is_empty());
    }

    proptest::proptest! {
        /// Whatever the browser (or something posing as it) sends, dispatch neither panics nor
        /// answers a call with it unless it carries that call's id.
        #[test]
        fn any_message_is_dispatched_without_a_panic(text in ".{0,200}", id in 0u64..4) {
            let (waiting, _events) = waiting_with_follower(Some("S1"));
            let (answer, mut answered) = oneshot::channel();
            waiting.lock().unwrap().answers.insert(7, answer);
            dispatch(&waiting, &text);
            dispatch(&waiting, &format!(r#"{{"id":{id},"sessionId":"S1","method":{text:?},"params":{text:?}}}"#));
            proptest::prop_assert!(answered.try_recv().is_err(), "call 7 was answered by {text:?}");
        }
    }

    #[test]
    fn a_follower_that_went_away_is_forgotten_and_garbage_is_left_aside() {
        let (waiting, events) = waiting_with_follower(None);
        drop(events);
        dispatch(&waiting, "not json {");
        dispatch(&waiting, r#"{"method":"Target.targetCreated","params":{}}"#);
        assert!(waiting.lock().unwrap().followers.is_empty());
    }
}
