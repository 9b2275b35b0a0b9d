//! The run's browser for blocks: the Chromium session the browser block families drive, kept in
//! the run's [`BrowserSlot`] (launched by the first step that asks, shared by the run's browser
//! steps, closed by the engine when the run ends), and [`browser_reason`], the driver's errors as
//! the run says them. Apart from `planwright-block` so that the engine, which only holds the slot,
//! compiles no browser.

mod reason;

use std::any::Any;
use std::sync::Arc;

use futures::future::BoxFuture;
use futures::FutureExt;
use planwright_block::{BlockContext, BlockError, BrowserSlot, RunBrowser};
use planwright_browser::{find_chromium, BrowserSession, DialogPolicy, LaunchOptions};
use planwright_runs::{LogLevel, Reason, RunMessage};

pub use reason::browser_reason;

/// The run's Chromium session, from its [`BrowserSlot`].
pub trait BrowserSlotSession {
    /// The live session, started now when there is none yet or the last one died (a crash, a
    /// killed process): a dead browser must not fail every later step of the run.
    fn session<'a>(&'a self, ctx: &'a BlockContext) -> BoxFuture<'a, Result<Arc<BrowserSession>, BlockError>>;
}

impl BrowserSlotSession for BrowserSlot {
    fn session<'a>(&'a self, ctx: &'a BlockContext) -> BoxFuture<'a, Result<Arc<BrowserSession>, BlockError>> {
        async move {
            let mut slot = self.lock().await;
            if let Some(held) = slot.take() {
                // Anything but a session of ours is closed and replaced like a dead one.
                if let Some(session) = held.as_any().downcast_ref::<Held>().map(|h| Arc::clone(&h.0)) {
                    let Some(reason) = session.closed_reason() else {
                        *slot = Some(held);
                        return Ok(session);
                    };
                    let text = format!(
                        "the run's browser was lost ({reason}); starting a new one, without the pages and logins of the old one"
                    );
                    ctx.log(LogLevel::Warn, Reason::said(RunMessage::BrowserLost { reason: reason.to_string() }, text));
                }
                held.close().await;
            }
            let session = Arc::new(start(self, ctx).await?);
            *slot = Some(Arc::new(Held(Arc::clone(&session))));
            Ok(session)
        }
        .boxed()
    }
}

/// A Chromium session in the slot.
struct Held(Arc<BrowserSession>);

impl RunBrowser for Held {
    fn close(&self) -> BoxFuture<'_, ()> {
        self.0.close().boxed()
    }

    fn as_any(&self) -> &dyn Any {
        self
    }
}

async fn start(slot: &BrowserSlot, ctx: &BlockContext) -> Result<BrowserSession, BlockError> {
    let settings = slot.settings();
    let failed = |e: planwright_browser::BrowserError| BlockError::failed(browser_reason(&e));
    if let Some(address) = &settings.attach {
        let session = BrowserSession::attach(address, DialogPolicy::default()).await.map_err(failed)?;
        let text = format!("attached to the browser at {address} and opened a page of the run in it");
        ctx.log(LogLevel::Info, Reason::said(RunMessage::BrowserAttached { address: address.clone() }, text));
        return Ok(session);
    }
    let executable = match &settings.executable {
        Some(path) => path.clone(),
        None => find_chromium().map_err(failed)?,
    };
    let options = LaunchOptions {
        executable: Some(executable.clone()),
        headed: settings.headed,
        dialogs: DialogPolicy::default(),
    };
    let session = BrowserSession::launch(options).await.map_err(failed)?;
    // The profile folder names the browser's processes: what to look for if one outlives the run.
    let profile = session.profile_dir().map(|p| p.display().to_string()).unwrap_or_default();
    let window = if settings.headed { "with a window" } else { "headless" };
    let text = format!("started {} ({window}, fresh profile {profile})", executable.display());
    let said = RunMessage::BrowserStarted { executable: executable.display().to_string(), headed: settings.headed };
    ctx.log(LogLevel::Info, Reason::said(said, text));
    Ok(session)
}
