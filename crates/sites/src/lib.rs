//! The fixture web sites and their local server.
//!
//! `assets/sites` holds small pages that behave like real sites — a login form, an autocomplete,
//! cookie banners (plain, in a shadow root, in an iframe), an ad modal over the page, a checkout
//! with a cross-origin payment iframe, a table that loads 400 ms after a click, dialogs, new
//! tabs — and, under `objectives/`, small sites (a supplier portal, a shop, an expense app …)
//! with the objective runner's task suite, `objectives/tasks.json`. The browser driver's tests,
//! the benchmarks and the demo drive them. Each page reports what was done through
//! `POST /__record`, so tests check the outcome on the server ([`FixtureSites::events`]) rather
//! than trusting the driver's own account of it.
//!
//! [`FixtureSites`] serves them on two loopback origins sharing one event log: "main", and
//! "other", which hosts the payment iframe so it really is cross-origin. The pages are compiled in
//! (include_dir), so the binary needs no files. `assets/sites/README.md` lists the pages and
//! what each records.
//!
//! Endpoints, on both origins:
//! - `GET /__state` → `{"events":[{"origin","page","action","detail","at_ms"}…]}` (`at_ms`: since
//!   the server started); `POST /__record` with `{page, action, detail}` appends (bodies over
//!   64 KiB, bad JSON, unknown fields → 400); `POST /__reset` clears.
//! - `GET /api/invoices?page=N` (after 400 ms) and `GET /api/suggest?q=TEXT` (after 150 ms);
//!   `instant=1` skips the delay.
//! - `GET /downloads/FILE`: a file of `assets/sites/downloads` as an attachment
//!   (`Content-Disposition: attachment; filename="FILE"`), recorded as `download {file}`.
//! - Everything else is a file of `assets/sites`, `Cache-Control: no-store`, with
//!   `__MAIN_ORIGIN__` and `__OTHER_ORIGIN__` replaced by the origins' base URLs; or a 404 page.
//!
//! Every page honours `?instant=1`: banners, modals and late elements render at once, so two
//! drivers can be compared on the same final DOM.

mod api;
mod pages;
mod server;
mod state;
pub mod tasks;
mod tls;

use std::net::SocketAddr;
use std::sync::Arc;

use tokio::net::TcpListener;
use tokio::sync::oneshot;
use tokio::task::JoinHandle;

use crate::server::Ctx;
use crate::state::{Origin, State};
pub use crate::tls::SelfSignedSite;

/// Two loopback origins serving `assets/sites` (embedded, so the binary needs no files).
///
/// Serving stops when this is dropped.
pub struct FixtureSites {
    main: SocketAddr,
    other: SocketAddr,
    state: Arc<State>,
    servers: Vec<Server>,
}

/// One origin's accept loop and the switch that shuts its open connections down.
struct Server {
    task: JoinHandle<()>,
    shutdown: Option<oneshot::Sender<()>>,
}

impl FixtureSites {
    /// Binds 127.0.0.1:0 twice (the "main" origin and the "other" origin, used for the
    /// cross-origin payment iframe) and serves in the current tokio runtime (spawned tasks).
    pub async fn start() -> std::io::Result<FixtureSites> {
        FixtureSites::start_on(0, 0).await
    }

    /// Same on given ports (0 = any) — for the `planwright sites` demo.
    pub async fn start_on(main_port: u16, other_port: u16) -> std::io::Result<FixtureSites> {
        let main_listener = TcpListener::bind(("127.0.0.1", main_port)).await?;
        let other_listener = TcpListener::bind(("127.0.0.1", other_port)).await?;
        let (main, other) = (main_listener.local_addr()?, other_listener.local_addr()?);
        let main_base: Arc<str> = Arc::from(base_url(main));
        let other_base: Arc<str> = Arc::from(base_url(other));
        let state = Arc::new(State::new());

        let mut servers = Vec::with_capacity(2);
        for (listener, origin) in [(main_listener, Origin::Main), (other_listener, Origin::Other)] {
            let ctx = Ctx {
                state: Arc::clone(&state),
                origin,
                main_base: Arc::clone(&main_base),
                other_base: Arc::clone(&other_base),
            };
            let (shutdown, stopped) = oneshot::channel::<()>();
            // The graceful-shutdown signal is what reaches connections already open (a
            // browser's keep-alive ones); aborting the task alone would only stop accepting.
            let serve = axum::serve(listener, server::router(ctx)).with_graceful_shutdown(async move {
                let _ = stopped.await;
            });
            let task = tokio::spawn(async move {
                if let Err(err) = serve.await {
                    tracing::warn!(?origin, %err, "fixture site server stopped");
                }
            });
            servers.push(Server { task, shutdown: Some(shutdown) });
        }
        tracing::debug!(%main_base, %other_base, "fixture sites serving");
        Ok(FixtureSites { main, other, state, servers })
    }

    /// `http://127.0.0.1:PORT/<path without leading slash>` on the main origin.
    pub fn url(&self, path: &str) -> String {
        format!("{}/{}", base_url(self.main), path.trim_start_matches('/'))
    }

    /// The same on the other origin.
    pub fn other_url(&self, path: &str) -> String {
        format!("{}/{}", base_url(self.other), path.trim_start_matches('/'))
    }

    /// What was done so far: the same JSON as `GET /__state`.
    pub fn state(&self) -> serde_json::Value {
        self.state.snapshot()
    }

    /// Events of one action name, in order (convenience for tests).
    pub fn events(&self, action: &str) -> Vec<serde_json::Value> {
        self.state.events(action)
    }

    /// The events of `action`, waiting up to two seconds for the first one: a page records with a
    /// request that may still be on its way when the action that caused it returns.
    pub async fn recorded(&self, action: &str) -> Vec<serde_json::Value> {
        for _ in 0..40 {
            let events = self.events(action);
            if !events.is_empty() {
                return events;
            }
            tokio::time::sleep(std::time::Duration::from_millis(50)).await;
        }
        Vec::new()
    }

    /// Forgets every event.
    pub fn reset(&self) {
        self.state.reset();
    }

    /// Every fixture page path (e.g. `"login.html"`, `"checkout/cart.html"`), sorted, for
    /// conformance tests and benchmarks. Pages that only work embedded or reached through
    /// another page (`cookie-frame.html`, `checkout/card.html`, `checkout/done.html`,
    /// `opened.html`, `welcome.html`, `objectives/ledgerly/contact-form.html`) are left out;
    /// they are still served.
    pub fn pages() -> Vec<&'static str> {
        pages::page_list()
    }
}

/// The ids of live processes whose command line holds `needle` (zombies have none): how tests
/// check that a browser launched on a profile folder left nothing running.
pub fn processes_with(needle: &str) -> Vec<u32> {
    let mut found = Vec::new();
    let Ok(entries) = std::fs::read_dir("/proc") else { return found };
    for entry in entries.flatten() {
        let Ok(pid) = entry.file_name().to_string_lossy().parse::<u32>() else { continue };
        let Ok(cmdline) = std::fs::read(entry.path().join("cmdline")) else { continue };
        if String::from_utf8_lossy(&cmdline).contains(needle) {
            found.push(pid);
        }
    }
    found
}

impl Drop for FixtureSites {
    fn drop(&mut self) {
        for server in &mut self.servers {
            drop(server.shutdown.take());
            server.task.abort();
        }
    }
}

impl std::fmt::Debug for FixtureSites {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("FixtureSites").field("main", &self.main).field("other", &self.other).finish_non_exhaustive()
    }
}

fn base_url(addr: SocketAddr) -> String {
    format!("http://{addr}")
}
