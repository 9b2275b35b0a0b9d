//! What can go wrong driving a browser, each with what would fix it.

use std::path::PathBuf;

use crate::locate::Candidate;

/// Why a browser operation did not happen.
#[derive(Debug, thiserror::Error)]
pub enum BrowserError {
    /// No Chromium to launch.
    #[error(
        "no Chromium found (looked for {}): install Debian's package with `apt-get install chromium`, or set CHROME \
         to the browser's path",
        tried.iter().map(|p| p.display().to_string()).collect::<Vec<_>>().join(", ")
    )]
    NotInstalled {
        /// The paths looked at.
        tried: Vec<PathBuf>,
    },
    /// The browser could not be started or reached.
    #[error("could not start or reach the browser: {0}")]
    Launch(String),
    /// The browser process ended or its connection closed.
    #[error(
        "the browser closed or crashed ({0}); the page's state is lost: run the step again, which starts a new \
         browser"
    )]
    Closed(String),
    /// A DevTools call did not answer in time.
    #[error("the browser did not answer {method} within {ms} ms; the page may be frozen by a script")]
    Timeout {
        /// The DevTools method.
        method: String,
        /// The limit.
        ms: u64,
    },
    /// A DevTools call failed.
    #[error("the browser refused {method}: {message}")]
    Protocol {
        /// The DevTools method.
        method: String,
        /// What the browser said.
        message: String,
    },
    /// A page could not be loaded.
    #[error("could not open {url}: {reason}")]
    Navigation {
        /// The address asked for.
        url: String,
        /// Chromium's reason (`net::ERR_CONNECTION_REFUSED`).
        reason: String,
    },
    /// Nothing on the page matches the locator, within the time allowed.
    #[error("no element matches {locator} after {waited_ms} ms; check the role and name against a snapshot")]
    NotFound {
        /// The locator, as written (`getByRole('button', { name: 'Send' })`).
        locator: String,
        /// How long it was waited for.
        waited_ms: u64,
    },
    /// More than one element matches and the action needs exactly one.
    #[error("{locator} matches {} elements; make it match one (a fuller name, exact, or a test id): {}", candidates.len(), list(candidates))]
    Ambiguous {
        /// The locator.
        locator: String,
        /// Every match.
        candidates: Vec<Candidate>,
    },
    /// The element exists but cannot take the action yet, within the time allowed.
    #[error("{locator} is not ready for {action} after {waited_ms} ms: {reason}")]
    NotActionable {
        /// The locator.
        locator: String,
        /// The action (`click`, `fill`).
        action: &'static str,
        /// The last reason (`not visible`, `disabled`, `not editable`, `still moving`).
        reason: String,
        /// How long it was waited for.
        waited_ms: u64,
    },
    /// Another element receives the clicks meant for the target.
    #[error("{locator} is covered by {covering}, which would receive the {action}; close or dismiss it first")]
    Covered {
        /// The locator.
        locator: String,
        /// The action.
        action: &'static str,
        /// What is on top.
        covering: Box<Candidate>,
    },
    /// The action's input does not fit the element (a missing option, a non-select).
    #[error("{0}")]
    Input(String),
    /// Waiting for a condition ran out of time.
    #[error("waited {waited_ms} ms for {what}, which did not happen")]
    WaitTimedOut {
        /// The condition (`text "Saved"`, `URL containing /done`).
        what: String,
        /// How long.
        waited_ms: u64,
    },
    /// A file (a screenshot) could not be written.
    #[error("cannot write {}: {source}", path.display())]
    Write {
        /// The file.
        path: PathBuf,
        /// The reason.
        #[source]
        source: std::io::Error,
    },
}

fn list(candidates: &[Candidate]) -> String {
    candidates.iter().map(ToString::to_string).collect::<Vec<_>>().join("; ")
}
