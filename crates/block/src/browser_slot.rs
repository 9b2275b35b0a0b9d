//! Where a run's browser comes from, and the slot that holds the run's one session.

use std::any::Any;
use std::path::PathBuf;
use std::sync::Arc;

use futures::future::BoxFuture;

/// How a run gets its browser: launched (which binary, with a window or not) or attached.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct BrowserSettings {
    /// The binary to launch; `None` lets the driver find the system's Chromium.
    pub executable: Option<PathBuf>,
    /// The DevTools address of a running browser to attach to instead of launching one.
    pub attach: Option<String>,
    /// Show the launched browser's window.
    pub headed: bool,
}

impl BrowserSettings {
    /// From `CHROME`, `PLANWRIGHT_BROWSER_WS` and `PLANWRIGHT_BROWSER_HEADED` (see the module
    /// documentation).
    pub fn from_env() -> BrowserSettings {
        BrowserSettings::from_vars(|name| std::env::var(name).ok())
    }

    fn from_vars(var: impl Fn(&str) -> Option<String>) -> BrowserSettings {
        let given = |name: &str| var(name).map(|v| v.trim().to_owned()).filter(|v| !v.is_empty());
        BrowserSettings {
            executable: given("CHROME").map(PathBuf::from),
            attach: given("PLANWRIGHT_BROWSER_WS"),
            headed: given("PLANWRIGHT_BROWSER_HEADED").is_some_and(|v| v == "1" || v.eq_ignore_ascii_case("true")),
        }
    }
}

/// A session of the run's browser as the slot holds it: of any driver, so that this crate and
/// the engine compile none (`planwright-browser-port` fills the slot with Chromium's).
pub trait RunBrowser: Send + Sync + 'static {
    /// Ends the session: called once, when the run ends or the session is replaced.
    fn close(&self) -> BoxFuture<'_, ()>;

    /// For the driver's crate to get its own session back out of the slot.
    fn as_any(&self) -> &dyn Any;
}

/// The run's one browser session. Nothing starts until a browser step asks for it; the session
/// is then shared by the run's browser steps (called plans included) until [`BrowserSlot::close`].
pub struct BrowserSlot {
    settings: BrowserSettings,
    session: tokio::sync::Mutex<Option<Arc<dyn RunBrowser>>>,
}

impl BrowserSlot {
    pub fn new(settings: BrowserSettings) -> BrowserSlot {
        BrowserSlot { settings, session: tokio::sync::Mutex::new(None) }
    }

    /// Where the run's browser comes from, for the driver's crate that starts it.
    pub fn settings(&self) -> &BrowserSettings {
        &self.settings
    }

    /// The session, held: the driver's crate checks it, replaces a dead one or starts the first
    /// while no other step can.
    pub async fn lock(&self) -> tokio::sync::MutexGuard<'_, Option<Arc<dyn RunBrowser>>> {
        self.session.lock().await
    }

    /// Ends the session, if one was started: a launched browser quits (its profile is removed),
    /// an attached one has the run's page closed and keeps running. Safe to call twice.
    pub async fn close(&self) {
        let session = self.session.lock().await.take();
        if let Some(session) = session {
            session.close().await;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn settings_from_the_environment() {
        let settings = BrowserSettings::from_vars(|name| match name {
            "CHROME" => Some("/opt/chrome/chrome".into()),
            "PLANWRIGHT_BROWSER_WS" => Some(" ws://127.0.0.1:9222/devtools/browser/x ".into()),
            "PLANWRIGHT_BROWSER_HEADED" => Some("TRUE".into()),
            _ => None,
        });
        assert_eq!(
            settings,
            BrowserSettings {
                executable: Some("/opt/chrome/chrome".into()),
                attach: Some("ws://127.0.0.1:9222/devtools/browser/x".into()),
                headed: true,
            }
        );
        let blank = BrowserSettings::from_vars(|name| match name {
            "CHROME" | "PLANWRIGHT_BROWSER_WS" => Some(String::new()),
            "PLANWRIGHT_BROWSER_HEADED" => Some("0".into()),
            _ => None,
        });
        assert_eq!(blank, BrowserSettings::default(), "empty means unset; only 1 or true shows the window");
        assert!(BrowserSettings::from_vars(|n| (n == "PLANWRIGHT_BROWSER_HEADED").then(|| "1".into())).headed);
    }
}
