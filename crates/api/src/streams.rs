//! Streaming operations, one pattern for both transports: the operation answers with a
//! [`Watch`], whose items the transport sends as they come — a WebSocket message each in
//! `planwright serve`, a `tauri::ipc::Channel` message each in the desktop app. The client names
//! each stream it opens (`stream` in the query or the command's arguments); `cancel_stream` with
//! that name, or the client going away (the socket closing), ends it — and with it the work it
//! follows, when that work is the stream's own (a long job), not shared (a run other watchers
//! see).

use std::collections::HashMap;
use std::sync::Mutex;

use serde::{Deserialize, Serialize};
use tokio::sync::mpsc;
use tokio_util::sync::CancellationToken;
use ts_rs::TS;

use crate::error::ApiError;
use crate::Studio;

/// Items a watch may hold before its producer waits for the client.
const BUFFER: usize = 256;

/// What a streaming operation answers with: its items, until the work ends or the watch is
/// cancelled. Dropping it cancels it.
pub struct Watch<T> {
    items: mpsc::Receiver<T>,
    cancel: CancellationToken,
}

/// The producing side of a [`Watch`].
pub(crate) struct WatchSender<T> {
    items: mpsc::Sender<T>,
    pub cancel: CancellationToken,
}

impl<T> Watch<T> {
    pub(crate) fn channel() -> (WatchSender<T>, Watch<T>) {
        let (sender, items) = mpsc::channel(BUFFER);
        let cancel = CancellationToken::new();
        (WatchSender { items: sender, cancel: cancel.clone() }, Watch { items, cancel })
    }

    /// The next item; `None` at the end, or once cancelled.
    pub async fn next(&mut self) -> Option<T> {
        tokio::select! {
            biased;
            () = self.cancel.cancelled() => None,
            item = self.items.recv() => item,
        }
    }

    /// Cancelled when the watch is: by [`Studio::cancel_stream`], or by being dropped.
    pub fn token(&self) -> CancellationToken {
        self.cancel.clone()
    }
}

impl<T> Drop for Watch<T> {
    fn drop(&mut self) {
        self.cancel.cancel();
    }
}

impl<T> WatchSender<T> {
    /// Sends an item; `false` once nobody watches any more.
    pub async fn send(&self, item: T) -> bool {
        tokio::select! {
            biased;
            () = self.cancel.cancelled() => false,
            sent = self.items.send(item) => sent.is_ok(),
        }
    }
}

/// The streams open in this studio, by the name their client gave.
#[derive(Default)]
pub(crate) struct Streams(Mutex<HashMap<String, CancellationToken>>);

#[derive(Debug, Clone, Serialize, Deserialize, TS)]
pub struct StreamCancelled {
    /// False when no stream of that name was open (it had ended already).
    pub cancelled: bool,
}

impl Studio {
    /// Names an open stream so that [`Studio::cancel_stream`] can end it; the transport calls
    /// [`Studio::forget_stream`] when the stream ends.
    pub fn name_stream<T>(&self, name: &str, watch: &Watch<T>) {
        self.inner.streams.0.lock().unwrap_or_else(|e| e.into_inner()).insert(name.to_owned(), watch.token());
    }

    pub fn forget_stream(&self, name: &str) {
        self.inner.streams.0.lock().unwrap_or_else(|e| e.into_inner()).remove(name);
    }

    /// Ends the stream its client named `stream`.
    pub async fn cancel_stream(&self, stream: String) -> Result<StreamCancelled, ApiError> {
        let token = self.inner.streams.0.lock().unwrap_or_else(|e| e.into_inner()).remove(&stream);
        if let Some(token) = &token {
            token.cancel();
        }
        Ok(StreamCancelled { cancelled: token.is_some() })
    }
}
