//! The model layer's test double: a local OpenAI-compatible HTTP server that answers from a
//! script and records every request it receives.
//!
//! Tests drive the real client code over real HTTP against it. It serves, on 127.0.0.1 and a
//! free port:
//! - `POST …/chat/completions` — OpenAI's `/v1/chat/completions`, Azure's
//!   `/openai/deployments/{deployment}/chat/completions?api-version=…`, or any other prefix;
//! - `POST …/embeddings` — likewise.
//!
//! ```no_run
//! # async fn demo() {
//! use planwright_llm_replay::{Match, ReplayServer, Reply, Script};
//! use std::time::Duration;
//!
//! let server = ReplayServer::start(
//!     Script::new()
//!         .then(Reply::rate_limited(1))                      // first request: 429, Retry-After: 1
//!         .then(Reply::text("hello").usage(12, 3))           // second: a normal completion
//!         .on(Match::user_contains("slow"), Reply::text("late").delay(Duration::from_secs(5)))
//!         .always(Match::embeddings(), Reply::embeddings_with(|text| vec![text.len() as f32, 1.0])),
//! )
//! .await;
//! let base = server.base_url();          // "http://127.0.0.1:PORT/v1" (OPENAI_BASE_URL)
//! let azure = server.endpoint();         // "http://127.0.0.1:PORT" (AZURE_OPENAI_ENDPOINT)
//! // … run the code under test …
//! let sent = server.requests();          // bodies, headers, arrival times
//! assert_eq!(sent[0].header("authorization"), Some("Bearer test-key"));
//! # }
//! ```
//!
//! What a [`Reply`] can be: a completion with text or JSON content ([`Reply::text`],
//! [`Reply::json`]), a tool call ([`Reply::tool_call`]), embeddings ([`Reply::embeddings`],
//! [`Reply::embeddings_with`]), an HTTP error with an OpenAI-style body ([`Reply::error`],
//! [`Reply::rate_limited`] with `Retry-After`), any status and body as-is ([`Reply::raw`],
//! [`Reply::malformed`]: a cut-off JSON body), or a connection closed with no answer
//! ([`Reply::drop_connection`]). Modifiers make servers' quirks: a delay, extra headers, other
//! or missing usage, an invented finish reason, no `object` field, unknown fields.
//!
//! Matching and order are described on [`Script`]. The server stops when the [`ReplayServer`]
//! is dropped; it runs on the current tokio runtime, so a test that waits on a child process
//! (e.g. the `planwright` binary) must use a multi-threaded runtime or wait without blocking.

mod record;
mod script;
mod server;

use std::net::SocketAddr;
use std::sync::Arc;

use tokio::net::TcpListener;
use tokio::task::JoinHandle;

pub use record::{Endpoint, RecordedRequest};
pub use script::{EmbedFn, Match, Reply, Script, DEFAULT_USAGE};

use crate::server::{Conn, CuttableListener, Shared};

/// A running scripted server. Serving stops when it is dropped.
pub struct ReplayServer {
    addr: SocketAddr,
    shared: Arc<Shared>,
    task: JoinHandle<()>,
}

impl ReplayServer {
    /// Binds 127.0.0.1:0 and serves `script` on the current tokio runtime.
    ///
    /// # Panics
    /// When no loopback port can be bound (a test environment problem).
    pub async fn start(script: Script) -> ReplayServer {
        let listener = TcpListener::bind(("127.0.0.1", 0)).await.expect("bind a loopback port for the replay server");
        let addr = listener.local_addr().expect("the replay server's address");
        let shared = Arc::new(Shared::new(script));
        let app = server::router(shared.clone()).into_make_service_with_connect_info::<Conn>();
        let task = tokio::spawn(async move {
            // Serving ends only when the task is aborted (drop); an error here means the
            // listener broke, which the tests then see as refused connections.
            let _ = axum::serve(CuttableListener(listener), app).await;
        });
        ReplayServer { addr, shared, task }
    }

    /// The OpenAI-style base URL, `http://127.0.0.1:PORT/v1`.
    pub fn base_url(&self) -> String {
        format!("http://{}/v1", self.addr)
    }

    /// The bare origin, `http://127.0.0.1:PORT` (an Azure endpoint, or a base URL without `/v1`).
    pub fn endpoint(&self) -> String {
        format!("http://{}", self.addr)
    }

    /// Every request received so far, in arrival order (including ones no rule answered).
    pub fn requests(&self) -> Vec<RecordedRequest> {
        self.shared.requests.lock().expect("replay record lock").clone()
    }

    /// Adds rules to the script while serving (they go after the existing ones).
    pub fn extend(&self, more: Script) {
        self.shared.script.lock().expect("replay script lock").rules.extend(more.rules);
    }

    /// How many rules that answer once have not been used yet (0 when the script was played
    /// out); rules added with [`Script::always`] do not count.
    pub fn unused(&self) -> usize {
        self.shared.script.lock().expect("replay script lock").rules.iter().filter(|r| !r.repeat && !r.used).count()
    }
}

impl Drop for ReplayServer {
    fn drop(&mut self) {
        self.task.abort();
    }
}
