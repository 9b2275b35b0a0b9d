//! A browser session: one Chromium (launched or attached), the page being driven, and what the
//! page did on its own (dialogs, new tabs, requests in flight, navigations).

use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex, PoisonError};
use std::time::{Duration, Instant};

use chromiumoxide::cdp::browser_protocol::browser::{
    DownloadProgressState, EventDownloadProgress, EventDownloadWillBegin,
};
use chromiumoxide::cdp::browser_protocol::inspector::EventTargetCrashed;
use chromiumoxide::cdp::browser_protocol::network::{
    EventLoadingFailed, EventLoadingFinished, EventRequestWillBeSent, EventResponseReceived,
};
use chromiumoxide::cdp::browser_protocol::page::{
    EventFrameStartedLoading, EventFrameStoppedLoading, EventJavascriptDialogOpening,
};
use chromiumoxide::cdp::browser_protocol::target::{EventTargetCreated, TargetId};
use chromiumoxide::handler::viewport::Viewport;
use chromiumoxide::handler::HandlerConfig;
use chromiumoxide::{Browser, Page};
use futures::StreamExt;
use serde::Serialize;
use serde_json::{json, Value};
use tokio::sync::watch;
use tokio::task::JoinHandle;
use tracing::Instrument;

use crate::activity::PageActivity;
use crate::cdp;
use crate::download::Downloads;
use crate::error::BrowserError;
use crate::process::{self, ChromiumProcess};
use crate::refs::RefTable;

/// The window every launched browser gets, as Playwright's default viewport.
pub const VIEWPORT: (u32, u32) = (1280, 720);

/// Flags for a closed network and a container (root needs `--no-sandbox`). Site isolation is
/// off so that a cross-origin iframe lives in the page's own renderer, where one DevTools
/// session reaches its DOM and accessibility tree (docs/decisions.md).
const FLAGS: &[&str] = &[
    "--headless",
    // Debian's build would otherwise run Chromium's compiled-in field trials (experiments).
    "--disable-field-trial-config",
    "--disable-back-forward-cache",
    "--allow-pre-commit-input",
    "--no-service-autorun",
    "--disable-search-engine-choice-screen",
    "--hide-scrollbars",
    "--mute-audio",
    "--no-sandbox",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-quic",
    "--no-first-run",
    "--no-default-browser-check",
    "--disable-background-timer-throttling",
    "--disable-backgrounding-occluded-windows",
    "--disable-renderer-backgrounding",
    "--disable-breakpad",
    "--disable-default-apps",
    "--disable-dev-shm-usage",
    "--disable-extensions",
    "--disable-hang-monitor",
    "--disable-ipc-flooding-protection",
    "--disable-popup-blocking",
    "--disable-prompt-on-repost",
    "--disable-sync",
    "--metrics-recording-only",
    "--password-store=basic",
    "--use-mock-keychain",
    "--force-color-profile=srgb",
    "--disable-site-isolation-trials",
    // The omnibox's popup is a web page of its own since Chromium 14x, preloaded in a renderer
    // for every window: about 1 s of CPU a launch and a page, half of a launch, for a popup a
    // headless browser never shows (docs/decisions.md). Chromium keeps only the last
    // `--disable-features`, so the list is one switch.
    "--disable-features=Translate,IsolateOrigins,site-per-process,OptimizationHints,MediaRouter,\
     WebUIOmniboxPopup,WebUIOmniboxAimPopup,WebUIOmniboxFullPopup",
    "--lang=en-US",
];

/// Where Chromium is looked for when `$CHROME` is not set: the system's Chromium on Linux; on
/// Windows and macOS, where most people have Chrome or Edge (Edge ships with Windows), those.
#[cfg(not(any(windows, target_os = "macos")))]
const CANDIDATES: &[&str] = &["/usr/bin/chromium", "/usr/bin/chromium-browser", "/usr/bin/google-chrome"];
#[cfg(windows)]
const CANDIDATES: &[&str] = &[
    r"%ProgramFiles%\Google\Chrome\Application\chrome.exe",
    r"%ProgramFiles(x86)%\Google\Chrome\Application\chrome.exe",
    r"%LocalAppData%\Google\Chrome\Application\chrome.exe",
    r"%ProgramFiles(x86)%\Microsoft\Edge\Application\msedge.exe",
    r"%ProgramFiles%\Microsoft\Edge\Application\msedge.exe",
];
#[cfg(target_os = "macos")]
const CANDIDATES: &[&str] = &[
    "/Applications/Google Chrome.app/Contents/MacOS/Google Chrome",
    "/Applications/Chromium.app/Contents/MacOS/Chromium",
    "/Applications/Microsoft Edge.app/Contents/MacOS/Microsoft Edge",
];

/// The browser to launch: `$CHROME` when set, else the first of [`CANDIDATES`] installed.
pub fn find_chromium() -> Result<PathBuf, BrowserError> {
    if let Some(path) = std::env::var_os("CHROME").filter(|p| !p.is_empty()) {
        let path = PathBuf::from(path);
        return if path.is_file() { Ok(path) } else { Err(BrowserError::NotInstalled { tried: vec![path] }) };
    }
    let candidates: Vec<PathBuf> = CANDIDATES.iter().map(|c| expand_env(c, |name| std::env::var(name).ok())).collect();
    candidates.iter().find(|p| p.is_file()).cloned().ok_or(BrowserError::NotInstalled { tried: candidates })
}

/// `%Name%` replaced by the environment's value of `Name` (Windows' folders differ by machine
/// and language: `%ProgramFiles%`, `%LocalAppData%`); one that is not set stays as written.
fn expand_env(path: &str, var: impl Fn(&str) -> Option<String>) -> PathBuf {
    let mut out = String::new();
    let mut rest = path;
    while let Some(start) = rest.find('%') {
        let Some(len) = rest[start + 1..].find('%') else { break };
        let name = &rest[start + 1..start + 1 + len];
        out.push_str(&rest[..start]);
        match var(name) {
            Some(value) => out.push_str(&value),
            None => out.push_str(&rest[start..start + len + 2]),
        }
        rest = &rest[start + len + 2..];
    }
    out.push_str(rest);
    PathBuf::from(out)
}

/// How JavaScript dialogs are answered. Dialogs never wait for a person: a run has none to ask.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct DialogPolicy {
    /// Accept `confirm()` (true) or cancel it.
    pub accept_confirm: bool,
    /// The answer to `prompt()`; `None` cancels it.
    pub prompt_text: Option<String>,
    /// Leave the page when `beforeunload` asks (true) or stay.
    pub accept_beforeunload: bool,
}

impl Default for DialogPolicy {
    fn default() -> Self {
        DialogPolicy { accept_confirm: true, prompt_text: Some(String::new()), accept_beforeunload: true }
    }
}

/// A dialog the page opened and how it was answered.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct DialogRecord {
    /// `alert`, `confirm`, `prompt` or `beforeunload`.
    pub kind: String,
    /// The dialog's text.
    pub message: String,
    /// Whether it was accepted.
    pub accepted: bool,
}

/// Whether the browser is still there; the reason once it is not.
#[derive(Clone)]
pub(crate) struct Liveness {
    sender: Arc<watch::Sender<Option<String>>>,
}

impl Liveness {
    fn new() -> Liveness {
        Liveness { sender: Arc::new(watch::channel(None).0) }
    }

    pub(crate) fn close(&self, reason: impl Into<String>) {
        let reason = reason.into();
        self.sender.send_if_modified(|current| {
            if current.is_none() {
                *current = Some(reason);
                true
            } else {
                false
            }
        });
    }

    pub(crate) fn closed_reason(&self) -> Option<String> {
        self.sender.borrow().clone()
    }

    /// Resolves when the browser is gone, with the reason.
    pub(crate) async fn closed(&self) -> String {
        let mut receiver = self.sender.subscribe();
        loop {
            if let Some(reason) = receiver.borrow_and_update().clone() {
                return reason;
            }
            if receiver.changed().await.is_err() {
                return "the session ended".to_owned();
            }
        }
    }
}

/// The page being driven, and the tasks that follow it.
pub(crate) struct DrivenPage {
    pub(crate) page: Page,
    /// The top-level frame's id: its elements' viewport coordinates are the mouse's.
    pub(crate) main_frame: String,
    pub(crate) activity: Arc<PageActivity>,
    watcher: JoinHandle<()>,
}

impl Drop for DrivenPage {
    fn drop(&mut self) {
        self.watcher.abort();
    }
}

/// How a session is started.
#[derive(Debug, Clone, Default)]
pub struct LaunchOptions {
    /// The browser binary; [`find_chromium`] when `None`.
    pub executable: Option<PathBuf>,
    /// Show the window (for watching a run); headless by default.
    pub headed: bool,
    /// How dialogs are answered.
    pub dialogs: DialogPolicy,
}

/// One browser and the page being driven. Cheap calls go straight to DevTools; the session is
/// shared (`Arc`) by the steps of a run and closed when the run ends.
pub struct BrowserSession {
    pub(crate) live: Liveness,
    browser: tokio::sync::Mutex<Option<Browser>>,
    handler: JoinHandle<()>,
    tabs: JoinHandle<()>,
    current: Mutex<Arc<DrivenPage>>,
    /// Pages opened by a page, with their opener, oldest first, not yet followed.
    opened: Arc<Mutex<Vec<(TargetId, TargetId)>>>,
    dialogs: Arc<Mutex<Vec<DialogRecord>>>,
    policy: DialogPolicy,
    pub(crate) downloads: Arc<Downloads>,
    pub(crate) refs: Mutex<RefTable>,
    pub(crate) started: Instant,
    /// The process of a launched browser (none when attached), ended before its profile is
    /// removed.
    chromium: Mutex<Option<ChromiumProcess>>,
    /// The fresh profile of a launched browser, removed with the session.
    profile: Option<tempfile::TempDir>,
}

impl BrowserSession {
    /// Launches Chromium headless with a fresh profile and opens a blank page.
    pub async fn launch(options: LaunchOptions) -> Result<BrowserSession, BrowserError> {
        let executable = match options.executable {
            Some(path) if path.is_file() => path,
            Some(path) => return Err(BrowserError::NotInstalled { tried: vec![path] }),
            None => find_chromium()?,
        };
        let profile = process::fresh_profile()?;
        let mut args: Vec<String> = FLAGS.iter().map(|f| (*f).to_owned()).collect();
        if options.headed {
            args.retain(|a| a != "--headless" && a != "--hide-scrollbars");
        }
        args.push(format!("--window-size={},{}", VIEWPORT.0, VIEWPORT.1));
        args.push("--remote-debugging-port=0".to_owned());
        args.push(format!("--user-data-dir={}", profile.path().display()));
        let span = tracing::info_span!("browser_launch", executable = %executable.display());
        // Started by us rather than by chromiumoxide, so that the browser dies with this process.
        let (chromium, address) =
            ChromiumProcess::start(&executable, &args, Duration::from_secs(30)).instrument(span.clone()).await?;
        let config = HandlerConfig {
            viewport: Some(Viewport { width: VIEWPORT.0, height: VIEWPORT.1, ..Viewport::default() }),
            request_timeout: Duration::from_secs(30),
            ..HandlerConfig::default()
        };
        let connect = Browser::connect_with_config(address, config).instrument(span);
        let (browser, handler) = tokio::time::timeout(Duration::from_secs(20), connect)
            .await
            .map_err(|_| BrowserError::Launch(format!("{} did not accept DevTools within 20 s", executable.display())))?
            .map_err(|e| BrowserError::Launch(format!("cannot reach {} over DevTools: {e}", executable.display())))?;
        Self::start(browser, handler, Some((chromium, profile)), options.dialogs).await
    }

    /// Attaches to a running Chromium by its DevTools address: `ws://…/devtools/browser/…`, or
    /// `http://host:port` (its `/json/version` names the WebSocket). A new page is opened in it,
    /// and closed with the session; the browser itself is left running.
    pub async fn attach(address: &str, dialogs: DialogPolicy) -> Result<BrowserSession, BrowserError> {
        if !(address.starts_with("ws://") || address.starts_with("wss://") || address.starts_with("http")) {
            return Err(BrowserError::Launch(format!(
                "{address:?} is not a DevTools address; give ws://host:port/devtools/browser/<id> or http://host:port"
            )));
        }
        let connect = Browser::connect(address.to_owned());
        let (browser, handler) = tokio::time::timeout(Duration::from_secs(20), connect)
            .await
            .map_err(|_| BrowserError::Launch(format!("{address} did not answer within 20 s")))?
            .map_err(|e| BrowserError::Launch(format!("cannot attach to {address}: {e}")))?;
        Self::start(browser, handler, None, dialogs).await
    }

    async fn start(
        browser: Browser,
        mut handler: chromiumoxide::Handler,
        launched: Option<(ChromiumProcess, tempfile::TempDir)>,
        policy: DialogPolicy,
    ) -> Result<BrowserSession, BrowserError> {
        let (chromium, profile) = launched.unzip();
        let live = Liveness::new();
        let handler_live = live.clone();
        let handler = tokio::spawn(async move {
            while let Some(event) = handler.next().await {
                match event {
                    // A broken connection stays broken: the browser is gone.
                    Err(chromiumoxide::error::CdpError::Ws(e)) => {
                        handler_live.close(format!("the DevTools connection broke: {e}"));
                        break;
                    }
                    Err(e) => tracing::debug!(error = %e, "DevTools message not understood"),
                    Ok(()) => {}
                }
            }
            handler_live.close("the DevTools connection ended");
        });
        let opened = Arc::new(Mutex::new(Vec::new()));
        let dialogs = Arc::new(Mutex::new(Vec::new()));
        let started = Instant::now();
        let new_page = tokio::time::timeout(Duration::from_secs(20), browser.new_page("about:blank"));
        let page = match new_page.await {
            Ok(Ok(page)) => page,
            Ok(Err(e)) => return Err(BrowserError::Launch(format!("cannot open a page: {e}"))),
            Err(_) => return Err(BrowserError::Launch("opening a page took over 20 s".to_owned())),
        };
        let downloads = Arc::new(Downloads::default());
        let driven = drive(page, &live, &dialogs, &downloads, &policy, started).await?;
        let tabs = follow_new_tabs(&browser, Arc::clone(&opened)).await?;
        Ok(BrowserSession {
            live,
            browser: tokio::sync::Mutex::new(Some(browser)),
            handler,
            tabs,
            current: Mutex::new(Arc::new(driven)),
            opened,
            dialogs,
            policy,
            downloads,
            refs: Mutex::new(RefTable::default()),
            started,
            chromium: Mutex::new(chromium),
            profile,
        })
    }

    /// The page being driven now.
    pub(crate) fn driven(&self) -> Arc<DrivenPage> {
        Arc::clone(&self.current.lock().unwrap_or_else(PoisonError::into_inner))
    }

    /// Sends a DevTools command to the driven page.
    pub(crate) async fn call(&self, method: &'static str, params: Value) -> Result<Value, BrowserError> {
        cdp::call(&self.driven().page, &self.live, method, params).await
    }

    /// Whether the browser is gone, and why.
    pub fn closed_reason(&self) -> Option<String> {
        self.live.closed_reason()
    }

    /// Dialogs answered since the session started, oldest first.
    pub fn dialogs(&self) -> Vec<DialogRecord> {
        self.dialogs.lock().unwrap_or_else(PoisonError::into_inner).clone()
    }

    pub(crate) fn dialog_count(&self) -> usize {
        self.dialogs.lock().unwrap_or_else(PoisonError::into_inner).len()
    }

    pub(crate) fn ms_since_start(&self) -> u64 {
        self.started.elapsed().as_millis() as u64
    }

    /// `instant` in milliseconds since the session started, as the request log counts.
    pub(crate) fn ms_at(&self, instant: Instant) -> u64 {
        instant.saturating_duration_since(self.started).as_millis() as u64
    }

    /// Switches to the newest page the driven page opened, if any. (In an attached browser
    /// other clients' tabs are left alone.)
    pub(crate) async fn follow_opened_tab(&self) -> Result<(), BrowserError> {
        let current = self.driven().page.target_id().clone();
        let target = {
            let mut opened = self.opened.lock().unwrap_or_else(PoisonError::into_inner);
            let newest = opened.iter().rev().find(|(_, opener)| *opener == current).map(|(target, _)| target.clone());
            // Older tabs of the driven page, and tabs of pages not driven, are never followed.
            opened.clear();
            newest
        };
        let Some(target) = target else { return Ok(()) };
        let page = {
            let browser = self.browser.lock().await;
            let Some(browser) = browser.as_ref() else {
                return Err(BrowserError::Closed("the session was closed".into()));
            };
            // The new target is attached by the handler shortly after it is announced.
            let deadline = Instant::now() + Duration::from_secs(5);
            loop {
                match browser.get_page(target.clone()).await {
                    Ok(page) => break page,
                    Err(_) if Instant::now() < deadline => tokio::time::sleep(Duration::from_millis(20)).await,
                    Err(e) => {
                        return Err(BrowserError::Protocol {
                            method: "Target.attachToTarget".into(),
                            message: e.to_string(),
                        })
                    }
                }
            }
        };
        let driven = drive(page, &self.live, &self.dialogs, &self.downloads, &self.policy, self.started).await?;
        *self.current.lock().unwrap_or_else(PoisonError::into_inner) = Arc::new(driven);
        self.refs.lock().unwrap_or_else(PoisonError::into_inner).clear();
        self.allow_downloads().await
    }

    /// The driven page's address.
    pub async fn url(&self) -> Result<String, BrowserError> {
        let value = self.evaluate("location.href").await?;
        Ok(value.as_str().unwrap_or_default().to_owned())
    }

    /// Evaluates an expression in the driven page's main frame and returns its JSON value.
    pub async fn evaluate(&self, expression: &str) -> Result<Value, BrowserError> {
        let result = self
            .call("Runtime.evaluate", json!({"expression": expression, "returnByValue": true, "awaitPromise": true}))
            .await?;
        crate::js::value_of("Runtime.evaluate", result)
    }

    /// Closes the browser (a launched one ends; an attached one keeps running with its page
    /// closed). Safe to call twice.
    pub async fn close(&self) {
        let mut browser = self.browser.lock().await;
        if let Some(mut browser) = browser.take() {
            let chromium = self.chromium.lock().unwrap_or_else(PoisonError::into_inner).take();
            if let Some(chromium) = chromium {
                let _ = tokio::time::timeout(Duration::from_secs(5), browser.close()).await;
                chromium.wait_or_kill(Duration::from_secs(5)).await;
            } else {
                let page = self.driven().page.clone();
                let _ = tokio::time::timeout(Duration::from_secs(5), page.close()).await;
            }
        }
        self.live.close("the session was closed");
    }

    /// The fresh profile folder of a launched session.
    pub fn profile_dir(&self) -> Option<&Path> {
        self.profile.as_ref().map(tempfile::TempDir::path)
    }
}

impl Drop for BrowserSession {
    fn drop(&mut self) {
        self.tabs.abort();
        self.handler.abort();
        // A launched browser is killed when its ChromiumProcess drops; an attached one keeps
        // running.
    }
}

/// Sets a page up for driving and starts the task that follows its events.
async fn drive(
    page: Page,
    live: &Liveness,
    dialogs: &Arc<Mutex<Vec<DialogRecord>>>,
    downloads: &Arc<Downloads>,
    policy: &DialogPolicy,
    started: Instant,
) -> Result<DrivenPage, BrowserError> {
    let activity = Arc::new(PageActivity::default());
    let listen = |e: chromiumoxide::error::CdpError| BrowserError::Launch(format!("cannot follow the page: {e}"));
    let mut dialog_events = page.event_listener::<EventJavascriptDialogOpening>().await.map_err(listen)?;
    let mut requests = page.event_listener::<EventRequestWillBeSent>().await.map_err(listen)?;
    let mut responses = page.event_listener::<EventResponseReceived>().await.map_err(listen)?;
    let mut finished = page.event_listener::<EventLoadingFinished>().await.map_err(listen)?;
    let mut failed = page.event_listener::<EventLoadingFailed>().await.map_err(listen)?;
    let mut started_loading = page.event_listener::<EventFrameStartedLoading>().await.map_err(listen)?;
    let mut stopped_loading = page.event_listener::<EventFrameStoppedLoading>().await.map_err(listen)?;
    let mut crashed = page.event_listener::<EventTargetCrashed>().await.map_err(listen)?;
    let mut download_begun = page.event_listener::<EventDownloadWillBegin>().await.map_err(listen)?;
    let mut download_progress = page.event_listener::<EventDownloadProgress>().await.map_err(listen)?;

    cdp::call(&page, live, "DOM.enable", json!({})).await?;
    cdp::call(&page, live, "Accessibility.enable", json!({})).await?;
    cdp::call(&page, live, "Page.addScriptToEvaluateOnNewDocument", json!({"source": crate::js::QUIET})).await?;
    cdp::call(&page, live, "Page.addScriptToEvaluateOnNewDocument", json!({"source": crate::js::ANNOUNCE})).await?;
    cdp::call(&page, live, "Runtime.evaluate", json!({"expression": crate::js::QUIET})).await?;
    cdp::call(&page, live, "Runtime.evaluate", json!({"expression": crate::js::ANNOUNCE})).await?;
    let tree = cdp::call(&page, live, "Page.getFrameTree", json!({})).await?;
    let main_frame = tree.pointer("/frameTree/frame/id").and_then(Value::as_str).unwrap_or_default().to_owned();

    let watched = page.clone();
    let top = main_frame.clone();
    let live = live.clone();
    let dialogs = Arc::clone(dialogs);
    let downloads = Arc::clone(downloads);
    let policy = policy.clone();
    let activity_task = Arc::clone(&activity);
    let now_ms = move || started.elapsed().as_millis() as u64;
    let watcher = tokio::spawn(async move {
        let activity = activity_task;
        loop {
            // Polled in order, not at random: each kind of event comes on a channel of its own,
            // and a request's answer must be read before its end, which DevTools sends after it
            // (read the other way round under load, an action's report closed with the request
            // ended and its status unknown).
            tokio::select! {
                biased;
                Some(event) = dialog_events.next() => {
                    let kind = serde_json::to_value(&event.r#type).ok().and_then(|v| v.as_str().map(str::to_owned)).unwrap_or_default();
                    let (accept, text) = match kind.as_str() {
                        "confirm" => (policy.accept_confirm, None),
                        "prompt" => (policy.prompt_text.is_some(), policy.prompt_text.clone()),
                        "beforeunload" => (policy.accept_beforeunload, None),
                        _ => (true, None),
                    };
                    let mut params = json!({"accept": accept});
                    if let Some(text) = text {
                        params["promptText"] = Value::String(text);
                    }
                    let answered = cdp::call(&watched, &live, "Page.handleJavaScriptDialog", params).await;
                    if let Err(e) = answered {
                        tracing::warn!(error = %e, "could not answer a dialog");
                    }
                    tracing::info!(kind, accepted = accept, "answered a dialog");
                    dialogs.lock().unwrap_or_else(PoisonError::into_inner).push(DialogRecord {
                        kind,
                        message: event.message.clone(),
                        accepted: accept,
                    });
                }
                Some(event) = requests.next() => activity.request_sent(&event, now_ms()),
                Some(event) = responses.next() => {
                    activity.answered(event.request_id.as_ref(), u16::try_from(event.response.status).ok());
                }
                Some(event) = finished.next() => activity.ended(event.request_id.as_ref(), None, now_ms()),
                Some(event) = failed.next() => {
                    activity.ended(event.request_id.as_ref(), Some(&event.error_text), now_ms());
                }
                Some(event) = started_loading.next() => {
                    let frame: &str = event.frame_id.as_ref();
                    if frame == main_frame {
                        activity.main_frame_started_loading();
                    }
                }
                Some(event) = stopped_loading.next() => {
                    let frame: &str = event.frame_id.as_ref();
                    if frame == main_frame {
                        activity.main_frame_stopped_loading();
                    }
                }
                Some(_) = crashed.next() => {
                    live.close("the page's renderer crashed");
                }
                Some(event) = download_begun.next() => {
                    downloads.began(event.guid.clone(), event.url.clone(), event.suggested_filename.clone());
                }
                Some(event) = download_progress.next() => {
                    downloads.progressed(
                        &event.guid,
                        event.state == DownloadProgressState::Completed,
                        event.state == DownloadProgressState::Canceled,
                    );
                }
                else => break,
            }
        }
    });
    Ok(DrivenPage { page, main_frame: top, activity, watcher })
}

/// Notes every page opened by another page (links with `target=_blank`, `window.open`), with its
/// opener; the driven page follows the ones its own page opened.
async fn follow_new_tabs(
    browser: &Browser,
    opened: Arc<Mutex<Vec<(TargetId, TargetId)>>>,
) -> Result<JoinHandle<()>, BrowserError> {
    let mut created = browser
        .event_listener::<EventTargetCreated>()
        .await
        .map_err(|e| BrowserError::Launch(format!("cannot follow new tabs: {e}")))?;
    Ok(tokio::spawn(async move {
        while let Some(event) = created.next().await {
            let info = &event.target_info;
            if let (true, Some(opener)) = (info.r#type == "page", &info.opener_id) {
                opened.lock().unwrap_or_else(PoisonError::into_inner).push((info.target_id.clone(), opener.clone()));
            }
        }
    }))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn windows_folders_in_a_browser_path_are_the_machines_own() {
        let var = |name: &str| match name {
            "ProgramFiles(x86)" => Some(r"C:\Programme (x86)".to_owned()),
            "LocalAppData" => Some(r"C:\Users\aiko\AppData\Local".to_owned()),
            _ => None,
        };
        assert_eq!(
            expand_env(r"%ProgramFiles(x86)%\Microsoft\Edge\Application\msedge.exe", var),
            PathBuf::from(r"C:\Programme (x86)\Microsoft\Edge\Application\msedge.exe")
        );
        assert_eq!(
            expand_env(r"%LocalAppData%\Google\Chrome\Application\chrome.exe", var),
            PathBuf::from(r"C:\Users\aiko\AppData\Local\Google\Chrome\Application\chrome.exe")
        );
        // A folder the machine does not set stays as written (and is then not found), as does a lone %.
        assert_eq!(expand_env(r"%Nowhere%\chrome.exe", var), PathBuf::from(r"%Nowhere%\chrome.exe"));
        assert_eq!(expand_env("/usr/bin/chromium", var), PathBuf::from("/usr/bin/chromium"));
        assert_eq!(expand_env("50%", var), PathBuf::from("50%"));
    }
}
