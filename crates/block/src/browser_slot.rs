//! Where a run's browser comes from, and the slot that holds the run's one session.

use std::path::PathBuf;
use std::sync::Arc;

use planwright_browser::{find_chromium, BrowserSession, DialogPolicy, LaunchOptions};
use planwright_runs::{LogLevel, Reason, RunMessage};

use crate::block::{BlockContext, BlockError};
use crate::browser_error::browser_reason;

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

/// The run's one browser session. Nothing starts until a browser step asks for it; the session
/// is then shared by the run's browser steps (called plans included) until [`BrowserSlot::close`].
pub struct BrowserSlot {
    settings: BrowserSettings,
    session: tokio::sync::Mutex<Option<Arc<BrowserSession>>>,
}

impl BrowserSlot {
    pub fn new(settings: BrowserSettings) -> BrowserSlot {
        BrowserSlot { settings, session: tokio::sync::Mutex::new(None) }
    }

    /// The live session, started now when there is none yet or the last one died (a crash, a
    /// killed process): a dead browser must not fail every later step of the run.
    pub async fn session(&self, ctx: &BlockContext) -> Result<Arc<BrowserSession>, BlockError> {
        let mut slot = self.session.lock().await;
        if let Some(session) = slot.as_ref() {
            let Some(reason) = session.closed_reason() else { return Ok(Arc::clone(session)) };
            let text = format!(
                "the run's browser was lost ({reason}); starting a new one, without the pages and logins of the old one"
            );
            ctx.log(LogLevel::Warn, Reason::said(RunMessage::BrowserLost { reason: reason.to_string() }, text));
            session.close().await;
            *slot = None;
        }
        let session = Arc::new(self.start(ctx).await?);
        *slot = Some(Arc::clone(&session));
        Ok(session)
    }

    async fn start(&self, ctx: &BlockContext) -> Result<BrowserSession, BlockError> {
        let failed = |e: planwright_browser::BrowserError| BlockError::failed(browser_reason(&e));
        if let Some(address) = &self.settings.attach {
            let session = BrowserSession::attach(address, DialogPolicy::default()).await.map_err(failed)?;
            let text = format!("attached to the browser at {address} and opened a page of the run in it");
            ctx.log(LogLevel::Info, Reason::said(RunMessage::BrowserAttached { address: address.clone() }, text));
            return Ok(session);
        }
        let executable = match &self.settings.executable {
            Some(path) => path.clone(),
            None => find_chromium().map_err(failed)?,
        };
        let options = LaunchOptions {
            executable: Some(executable.clone()),
            headed: self.settings.headed,
            dialogs: DialogPolicy::default(),
        };
        let session = BrowserSession::launch(options).await.map_err(failed)?;
        // The profile folder names the browser's processes: what to look for if one outlives the run.
        let profile = session.profile_dir().map(|p| p.display().to_string()).unwrap_or_default();
        let window = if self.settings.headed { "with a window" } else { "headless" };
        let text = format!("started {} ({window}, fresh profile {profile})", executable.display());
        let said =
            RunMessage::BrowserStarted { executable: executable.display().to_string(), headed: self.settings.headed };
        ctx.log(LogLevel::Info, Reason::said(said, text));
        Ok(session)
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
