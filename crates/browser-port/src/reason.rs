//! A browser driver's error as the run says it: its English text, coded for the studio.

use planwright_browser::BrowserError;
use planwright_runs::{Reason, RunMessage};

/// `error` with its code: what the person can act on (the element, the address, the wait) as
/// parameters; the driver's own details stay in the English text.
pub fn browser_reason(error: &BrowserError) -> Reason {
    let said = match error {
        BrowserError::NotInstalled { .. } => RunMessage::BrowserNotInstalled,
        BrowserError::Launch(_) => RunMessage::BrowserNotStarted,
        BrowserError::Closed(_) => RunMessage::BrowserClosed,
        BrowserError::Timeout { ms, .. } => RunMessage::BrowserNotAnswering { ms: *ms },
        BrowserError::Navigation { url, .. } => RunMessage::PageNotOpened { url: url.clone() },
        BrowserError::NotFound { locator, waited_ms } => {
            RunMessage::ElementNotFound { locator: locator.clone(), waited_ms: *waited_ms }
        }
        BrowserError::Ambiguous { locator, candidates } => {
            RunMessage::ElementAmbiguous { locator: locator.clone(), count: candidates.len() as u64 }
        }
        BrowserError::NotActionable { locator, action, waited_ms, .. } => RunMessage::ElementNotReady {
            locator: locator.clone(),
            action: (*action).to_owned(),
            waited_ms: *waited_ms,
        },
        BrowserError::Covered { locator, action, covering } => RunMessage::ElementCovered {
            locator: locator.clone(),
            action: (*action).to_owned(),
            covering: covering.to_string(),
        },
        BrowserError::WaitTimedOut { what, waited_ms } => {
            RunMessage::PageWaitTimedOut { what: what.clone(), waited_ms: *waited_ms }
        }
        BrowserError::Write { path, .. } => RunMessage::FileUnwritable { path: path.display().to_string() },
        // The driver's words for an input that does not fit the element, or a DevTools refusal:
        // the engine says them as the block's own.
        BrowserError::Protocol { .. } | BrowserError::Input(_) => return Reason::from(error.to_string()),
    };
    Reason::said(said, error.to_string())
}
