//! Letting the page settle after an action: navigation finished, no requests in flight, no DOM
//! changes for a moment — bounded, so a page that never rests costs the bound, not a hang.

use std::time::{Duration, Instant};

use serde_json::json;

use crate::activity::BACKGROUND_REQUEST;
use crate::error::BrowserError;
use crate::js::DocumentFn;
use crate::session::BrowserSession;

/// How long the DOM and the network must be still.
const QUIET: Duration = Duration::from_millis(50);
/// A request started by a click reaches DevTools a little after the click; wait at least this.
const FIRST_LOOK: Duration = Duration::from_millis(20);
const POLL: Duration = Duration::from_millis(15);

/// How settling ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Settled {
    /// The bound ran out before the page was quiet.
    pub(crate) timed_out: bool,
}

impl BrowserSession {
    /// Waits until the driven page is quiet, at most `bound`. A page the action opened in a new
    /// tab becomes the driven page first. A zero bound is a caller that reads the page itself
    /// afterwards (typing read back from its field): no wait at all. The requests started since
    /// `acted_ms` (ms since the session started: the action's own) are waited for however long
    /// they take within the bound, so that their answers are known.
    pub(crate) async fn settle(&self, bound: Duration, acted_ms: u64) -> Result<Settled, BrowserError> {
        if bound.is_zero() {
            self.follow_opened_tab().await?;
            return Ok(Settled { timed_out: false });
        }
        let start = Instant::now();
        tokio::time::sleep(FIRST_LOOK).await;
        loop {
            self.follow_opened_tab().await?;
            let busy = match self.stillness(Some(acted_ms)).await? {
                Ok(still) if still >= QUIET && !self.a_frame_awaits_an_answer().await? => {
                    return Ok(Settled { timed_out: false })
                }
                Ok(still) if still >= QUIET => "a frame is waiting for an answer to a request",
                Ok(_) => "the network or the document changed a moment ago",
                Err(busy) => busy,
            };
            if start.elapsed() >= bound {
                tracing::debug!(bound_ms = bound.as_millis() as u64, busy, "the page did not settle in time");
                return Ok(Settled { timed_out: true });
            }
            tokio::time::sleep(POLL).await;
        }
    }

    /// How long the driven page has been still: no page loading, no request in flight, and
    /// neither the network nor the DOM changed meanwhile (zero while something goes on). A
    /// caller waiting for something to show can stop once the page has been still a while.
    pub async fn still_for(&self) -> Result<Duration, BrowserError> {
        Ok(self.stillness(None).await?.unwrap_or(Duration::ZERO))
    }

    /// Whether the driven page says it is still loading something (a busy region, a progress
    /// bar, a "Loading…" text): a page can look still while a timer or a slow back end is about
    /// to fill it, so a caller waiting for content keeps waiting while this holds.
    pub async fn shows_loading(&self) -> Result<bool, BrowserError> {
        match self.evaluate(crate::js::LOADING_PROBE).await {
            Ok(value) => Ok(value.as_bool().unwrap_or(false)),
            Err(BrowserError::Protocol { .. }) => Ok(true),
            Err(e) => Err(e),
        }
    }

    /// Whether a frame inside the page waits for an answer to a request its script made (a form
    /// in another site's frame posting). The quiet probe reads the top document only, and under
    /// load DevTools can report the frame's request after the page already looked still.
    async fn a_frame_awaits_an_answer(&self) -> Result<bool, BrowserError> {
        let inside: Vec<_> = self.frames().await?.into_iter().filter(|frame| frame.parent.is_some()).collect();
        if inside.is_empty() {
            return Ok(false);
        }
        let age = json!(BACKGROUND_REQUEST.as_millis() as u64);
        let answers = self.in_frames(inside, DocumentFn::PendingRequests, vec![age]).await?;
        Ok(answers.iter().any(|(_, pending)| pending.as_u64().unwrap_or(0) > 0))
    }

    /// How long the page has been still, or what is going on; with `acted_ms`, the requests
    /// started since then keep it busy until they end.
    async fn stillness(&self, acted_ms: Option<u64>) -> Result<Result<Duration, &'static str>, BrowserError> {
        let driven = self.driven();
        let activity = &driven.activity;
        if activity.loading() {
            return Ok(Err("a page is loading"));
        }
        if acted_ms.is_some_and(|since| activity.pending_since(since) > 0) {
            return Ok(Err("the action's requests have not been answered"));
        }
        if activity.requests_in_flight(self.ms_since_start()) > 0 {
            return Ok(Err("requests are in flight"));
        }
        let network = self.ms_since_start().saturating_sub(activity.last_network_ms());
        let probe = match self.evaluate(crate::js::QUIET_PROBE).await {
            Ok(probe) => probe,
            // The document is being replaced: not still yet.
            Err(BrowserError::Protocol { .. }) => return Ok(Err("the document is being replaced")),
            Err(e) => return Err(e),
        };
        if probe[0].as_str() != Some("complete") {
            return Ok(Err("the document is not complete"));
        }
        if probe[2].as_u64().unwrap_or(0) > 0 {
            return Ok(Err("the page is waiting for an answer to a request"));
        }
        let dom = probe[1].as_f64().unwrap_or(f64::MAX).clamp(0.0, 1e9) as u64;
        Ok(Ok(Duration::from_millis(network.min(dom))))
    }
}
