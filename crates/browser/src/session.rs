//! A browser session: one Chromium (launched or attached), the page being driven, and what the
//! page did on its own (dialogs, new tabs, requests in flight, navigations).

use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex, PoisonError};
use std::time::{Duration, Instant};

use serde::Serialize;
use serde_json::{json, Value};
use tokio::sync::{mpsc, watch};
use tokio::task::JoinHandle;
use tracing::Instrument;

use crate::activity::{PageActivity, RequestSent};
use crate::cdp::{Connection, Event, PageTarget};
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
    pub(crate) fn new() -> Liveness {
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
    pub(crate) page: PageTarget,
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
    /// The connection to the browser, until the session is closed.
    browser: tokio::sync::Mutex<Option<Arc<Connection>>>,
    tabs: JoinHandle<()>,
    current: Mutex<Arc<DrivenPage>>,
    /// Pages opened by a page, with their opener, oldest first, not yet followed.
    opened: Arc<Mutex<Vec<(String, String)>>>,
    /// Whether pages get the launched window's viewport (an attached browser keeps its own).
    emulate: bool,
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
        // Started with the parent-death signal set, so that the browser dies with this process.
        let (chromium, address) =
            ChromiumProcess::start(&executable, &args, Duration::from_secs(30)).instrument(span.clone()).await?;
        let connect = Connection::open(&address).instrument(span);
        let connection = tokio::time::timeout(Duration::from_secs(20), connect)
            .await
            .map_err(|_| BrowserError::Launch(format!("{} did not accept DevTools within 20 s", executable.display())))?
            .map_err(|e| BrowserError::Launch(format!("cannot reach {} over DevTools: {e}", executable.display())))?;
        Self::start(connection, Some((chromium, profile)), options.dialogs).await
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
        let connect = async {
            let socket = devtools_socket(address).await?;
            Connection::open(&socket).await
        };
        let connection = tokio::time::timeout(Duration::from_secs(20), connect)
            .await
            .map_err(|_| BrowserError::Launch(format!("{address} did not answer within 20 s")))?
            .map_err(|e| BrowserError::Launch(format!("cannot attach to {address}: {e}")))?;
        Self::start(connection, None, dialogs).await
    }

    async fn start(
        connection: Connection,
        launched: Option<(ChromiumProcess, tempfile::TempDir)>,
        policy: DialogPolicy,
    ) -> Result<BrowserSession, BrowserError> {
        let (chromium, profile) = launched.unzip();
        let emulate = chromium.is_some();
        let live = connection.live().clone();
        let connection = Arc::new(connection);
        let opened = Arc::new(Mutex::new(Vec::new()));
        let dialogs = Arc::new(Mutex::new(Vec::new()));
        let started = Instant::now();
        // Followed before any page opens, so that no new tab is missed.
        let tabs = follow_new_tabs(&connection, Arc::clone(&opened)).await?;
        let new_page = async {
            let created = connection.call(None, "Target.createTarget", json!({"url": "about:blank"})).await?;
            let target = created.get("targetId").and_then(Value::as_str).unwrap_or_default().to_owned();
            PageTarget::attach(&connection, target).await
        };
        let page = match tokio::time::timeout(Duration::from_secs(20), new_page).await {
            Ok(Ok(page)) => page,
            Ok(Err(e)) => return Err(BrowserError::Launch(format!("cannot open a page: {e}"))),
            Err(_) => return Err(BrowserError::Launch("opening a page took over 20 s".to_owned())),
        };
        let downloads = Arc::new(Downloads::default());
        let driven = drive(page, &dialogs, &downloads, &policy, started, emulate).await?;
        Ok(BrowserSession {
            live,
            browser: tokio::sync::Mutex::new(Some(connection)),
            tabs,
            current: Mutex::new(Arc::new(driven)),
            opened,
            emulate,
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
        self.driven().page.call(method, params).await
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
        let current = self.driven().page.target_id.clone();
        let target = {
            let mut opened = self.opened.lock().unwrap_or_else(PoisonError::into_inner);
            let newest = opened.iter().rev().find(|(_, opener)| *opener == current).map(|(target, _)| target.clone());
            // Older tabs of the driven page, and tabs of pages not driven, are never followed.
            opened.clear();
            newest
        };
        let Some(target) = target else { return Ok(()) };
        let connection = match self.browser.lock().await.as_ref() {
            Some(connection) => Arc::clone(connection),
            None => return Err(BrowserError::Closed("the session was closed".into())),
        };
        let page = PageTarget::attach(&connection, target).await?;
        let driven = drive(page, &self.dialogs, &self.downloads, &self.policy, self.started, self.emulate).await?;
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
        if let Some(connection) = browser.take() {
            let chromium = self.chromium.lock().unwrap_or_else(PoisonError::into_inner).take();
            let (method, params) = match chromium {
                Some(_) => ("Browser.close", json!({})),
                None => ("Target.closeTarget", json!({"targetId": self.driven().page.target_id})),
            };
            let close = connection.call(None, method, params);
            let _ = tokio::time::timeout(Duration::from_secs(5), close).await;
            if let Some(chromium) = chromium {
                chromium.wait_or_kill(Duration::from_secs(5)).await;
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
        // A launched browser is killed when its ChromiumProcess drops; an attached one keeps
        // running.
    }
}

/// Sets a page up for driving and starts the task that follows its events.
async fn drive(
    page: PageTarget,
    dialogs: &Arc<Mutex<Vec<DialogRecord>>>,
    downloads: &Arc<Downloads>,
    policy: &DialogPolicy,
    started: Instant,
    emulate: bool,
) -> Result<DrivenPage, BrowserError> {
    // Followed before the domains are enabled, so that none of their events is missed.
    let events = page.connection.follow(Some(&page.session));
    for domain in ["Page.enable", "Network.enable", "Inspector.enable", "DOM.enable", "Accessibility.enable"] {
        page.call(domain, json!({})).await?;
    }
    if emulate {
        let metrics = json!({
            "width": VIEWPORT.0, "height": VIEWPORT.1, "deviceScaleFactor": 1, "mobile": false,
            "screenOrientation": {"type": "portraitPrimary", "angle": 0},
        });
        page.call("Emulation.setDeviceMetricsOverride", metrics).await?;
        page.call("Emulation.setTouchEmulationEnabled", json!({"enabled": true})).await?;
    }
    page.call("Page.addScriptToEvaluateOnNewDocument", json!({"source": crate::js::QUIET})).await?;
    page.call("Page.addScriptToEvaluateOnNewDocument", json!({"source": crate::js::ANNOUNCE})).await?;
    page.call("Runtime.evaluate", json!({"expression": crate::js::QUIET})).await?;
    page.call("Runtime.evaluate", json!({"expression": crate::js::ANNOUNCE})).await?;
    let tree = page.call("Page.getFrameTree", json!({})).await?;
    let main_frame = tree.pointer("/frameTree/frame/id").and_then(Value::as_str).unwrap_or_default().to_owned();

    let activity = Arc::new(PageActivity::default());
    let followed = FollowedPage {
        page: page.clone(),
        main_frame: main_frame.clone(),
        dialogs: Arc::clone(dialogs),
        downloads: Arc::clone(downloads),
        policy: policy.clone(),
        activity: Arc::clone(&activity),
        started,
    };
    let watcher = tokio::spawn(followed.follow(events));
    Ok(DrivenPage { page, main_frame, activity, watcher })
}

/// What the task that follows a page keeps up to date.
struct FollowedPage {
    page: PageTarget,
    main_frame: String,
    dialogs: Arc<Mutex<Vec<DialogRecord>>>,
    downloads: Arc<Downloads>,
    policy: DialogPolicy,
    activity: Arc<PageActivity>,
    started: Instant,
}

impl FollowedPage {
    /// Reads the page's events in the order the browser sent them, until the page or the
    /// connection ends.
    async fn follow(self, mut events: mpsc::UnboundedReceiver<Event>) {
        while let Some(Event { method, params }) = events.recv().await {
            let now_ms = self.started.elapsed().as_millis() as u64;
            let text = |pointer: &str| params.pointer(pointer).and_then(Value::as_str).unwrap_or_default();
            match method.as_str() {
                "Page.javascriptDialogOpening" => self.answer_dialog(text("/type"), text("/message")).await,
                "Network.requestWillBeSent" => match serde_json::from_value::<RequestSent>(params) {
                    Ok(sent) => self.activity.request_sent(&sent, now_ms),
                    Err(e) => tracing::debug!(error = %e, "a request event not understood"),
                },
                "Network.responseReceived" => {
                    let status = params.pointer("/response/status").and_then(Value::as_u64);
                    self.activity.answered(text("/requestId"), status.and_then(|s| u16::try_from(s).ok()));
                }
                "Network.loadingFinished" => self.activity.ended(text("/requestId"), None, now_ms),
                "Network.loadingFailed" => self.activity.ended(text("/requestId"), Some(text("/errorText")), now_ms),
                "Page.frameStartedLoading" if text("/frameId") == self.main_frame => {
                    self.activity.main_frame_started_loading();
                }
                "Page.frameStoppedLoading" if text("/frameId") == self.main_frame => {
                    self.activity.main_frame_stopped_loading();
                }
                "Inspector.targetCrashed" => self.page.connection.live().close("the page's renderer crashed"),
                "Browser.downloadWillBegin" => {
                    self.downloads.began(text("/guid").into(), text("/url").into(), text("/suggestedFilename").into());
                }
                "Browser.downloadProgress" => {
                    let state = text("/state");
                    self.downloads.progressed(text("/guid"), state == "completed", state == "canceled");
                }
                _ => {}
            }
        }
    }

    async fn answer_dialog(&self, kind: &str, message: &str) {
        let (accept, text) = match kind {
            "confirm" => (self.policy.accept_confirm, None),
            "prompt" => (self.policy.prompt_text.is_some(), self.policy.prompt_text.clone()),
            "beforeunload" => (self.policy.accept_beforeunload, None),
            _ => (true, None),
        };
        let mut params = json!({"accept": accept});
        if let Some(text) = text {
            params["promptText"] = Value::String(text);
        }
        if let Err(e) = self.page.call("Page.handleJavaScriptDialog", params).await {
            tracing::warn!(error = %e, "could not answer a dialog");
        }
        tracing::info!(kind, accepted = accept, "answered a dialog");
        self.dialogs.lock().unwrap_or_else(PoisonError::into_inner).push(DialogRecord {
            kind: kind.to_owned(),
            message: message.to_owned(),
            accepted: accept,
        });
    }
}

/// Notes every page opened by another page (links with `target=_blank`, `window.open`), with its
/// opener; the driven page follows the ones its own page opened.
async fn follow_new_tabs(
    connection: &Arc<Connection>,
    opened: Arc<Mutex<Vec<(String, String)>>>,
) -> Result<JoinHandle<()>, BrowserError> {
    let mut events = connection.follow(None);
    connection
        .call(None, "Target.setDiscoverTargets", json!({"discover": true}))
        .await
        .map_err(|e| BrowserError::Launch(format!("cannot follow new tabs: {e}")))?;
    Ok(tokio::spawn(async move {
        while let Some(event) = events.recv().await {
            let info = &event.params["targetInfo"];
            if event.method != "Target.targetCreated" || info["type"] != "page" {
                continue;
            }
            if let (Some(target), Some(opener)) = (info["targetId"].as_str(), info["openerId"].as_str()) {
                opened.lock().unwrap_or_else(PoisonError::into_inner).push((target.to_owned(), opener.to_owned()));
            }
        }
    }))
}

/// The browser's WebSocket: `address` itself, or the one `http://host:port/json/version` names.
async fn devtools_socket(address: &str) -> Result<String, String> {
    if address.starts_with("ws") {
        return Ok(address.to_owned());
    }
    let url = format!("{}/json/version", address.trim_end_matches('/'));
    let answer = reqwest::get(&url).await.map_err(|e| format!("{url}: {e}"))?;
    let version: Value = answer.json().await.map_err(|e| format!("{url} did not answer JSON: {e}"))?;
    match version.get("webSocketDebuggerUrl").and_then(Value::as_str) {
        Some(socket) => Ok(socket.to_owned()),
        None => Err(format!("{url} names no webSocketDebuggerUrl")),
    }
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
