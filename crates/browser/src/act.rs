//! Actions on the driven page: wait until the target can take them (Playwright's actionability
//! checks), act with real input events, let the page settle, and report what changed.

use std::collections::HashMap;
use std::sync::Arc;
use std::time::{Duration, Instant, SystemTime};

use serde::Serialize;
use serde_json::{json, Map, Value};

use crate::activity::PageActivity;
use crate::backoff::Backoff;
use crate::effects::{Announcement, InvalidField, RequestRecord};
use crate::error::BrowserError;
use crate::js::{Arg, ElementFn};
use crate::locate::{Candidate, FieldFacts, Locator};
use crate::refs::NodeKey;
use crate::roles::{is_interactive, shown, Shown};
use crate::session::{BrowserSession, DialogRecord};

/// Why a fill may not type into this field (see [`BrowserSession::fill_where`]), or `None`.
pub type FieldRefusal<'a> = dyn Fn(&Candidate, &FieldFacts) -> Option<String> + Send + Sync + 'a;
use crate::tree::{elements, normalize, PageTree};

/// Limits for one action.
#[derive(Debug, Clone, Copy)]
pub struct ActOptions {
    /// How long to wait for the target to exist and be ready.
    pub timeout: Duration,
    /// How long the page may take to settle afterwards.
    pub settle: Duration,
}

impl Default for ActOptions {
    fn default() -> Self {
        ActOptions { timeout: Duration::from_secs(10), settle: Duration::from_secs(5) }
    }
}

/// Where an action's time went, in milliseconds.
#[derive(Debug, Clone, Default, Serialize)]
pub struct Timing {
    /// Finding the target and waiting until it could take the action.
    pub wait_ms: f64,
    /// The input events themselves.
    pub act_ms: f64,
    /// Waiting for the page to settle.
    pub settle_ms: f64,
    /// Everything, observing what changed included.
    pub total_ms: f64,
}

/// What an action did and what changed on the page.
#[derive(Debug, Clone, Serialize)]
pub struct ActionReport {
    /// `click`, `fill`, `navigate`…
    pub action: &'static str,
    /// The element acted on.
    pub element: Option<Candidate>,
    pub url_before: String,
    pub url: String,
    /// The driven page is another document (or another tab) than before.
    pub navigated: bool,
    /// The action opened a tab, which is now the driven page.
    pub opened_tab: bool,
    /// Dialogs the page opened during the action, and how they were answered.
    pub dialogs: Vec<DialogRecord>,
    /// Files the action downloaded (saved where [`BrowserSession::save_downloads_to`] said).
    pub downloads: Vec<crate::Download>,
    /// Interactive elements (`button "Pay"`) that appeared, and went away.
    pub appeared: Vec<String>,
    pub disappeared: Vec<String>,
    /// The requests the action started (from the moment it was carried out until the page
    /// settled), in every frame, oldest first. Settling waits for them within its bound, so
    /// their answers are known; one still unanswered at the bound has no status.
    pub requests: Vec<RequestRecord>,
    /// What every frame announced from the moment the action was carried out until the page
    /// settled — status and alert regions, toasts — even if it is gone by now.
    pub announced: Vec<Announcement>,
    /// The fields marked `aria-invalid="true"` after the action, in every frame.
    pub invalid_fields: Vec<InvalidField>,
    /// When the action was carried out, in milliseconds since the Unix epoch: a caller that
    /// waits longer can ask [`BrowserSession::announced_since`] it, and
    /// [`BrowserSession::requests_since`] how its requests were answered since.
    pub acted_at_ms: u64,
    /// The page was still busy when the settle bound ran out.
    pub settle_timed_out: bool,
    pub timing: Timing,
}

impl ActionReport {
    /// The action started a request that may have changed something on the server (any method
    /// but `GET`, `HEAD` and `OPTIONS`): it must not be repeated without looking first.
    pub fn started_write(&self) -> bool {
        self.requests.iter().any(RequestRecord::is_write)
    }
}

/// What [`BrowserSession::wait_for`] waits for.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum WaitCondition {
    /// An element matching the locator is visible.
    Element(Locator),
    /// Text (as `getByText`) is visible.
    Text(String),
    /// The page's URL contains this.
    UrlContains(String),
}

/// What a screenshot shows.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ScreenshotTarget {
    Viewport,
    FullPage,
    Element(Locator),
}

/// A table read from the page.
#[derive(Debug, Clone, Serialize)]
pub struct Table {
    pub headers: Vec<String>,
    /// One object per row, keyed by header.
    pub rows: Vec<Map<String, Value>>,
}

/// What an action knew before it acted.
struct Before {
    start: Instant,
    url: String,
    dialogs: usize,
    downloads: usize,
    navigations: u64,
    target_id: String,
    /// The driven page's activity, whose request log has the action's requests.
    activity: Arc<PageActivity>,
    interactive: Vec<String>,
    /// The page's tree, for finding the target without fetching it again.
    tree: PageTree,
}

/// A target ready for input.
struct Ready {
    candidate: Candidate,
    object: String,
    /// Where pointer input goes, for pointer actions.
    point: Option<(f64, f64)>,
    /// The mouse is at `point` already.
    mouse_moved: bool,
    waited: Duration,
}

impl Ready {
    fn point(&self) -> (f64, f64) {
        self.point.unwrap_or_default()
    }
}

/// `[x, y]` as a point.
fn point_of(value: &Value) -> Option<(f64, f64)> {
    Some((value.get(0)?.as_f64()?, value.get(1)?.as_f64()?))
}

fn ms(duration: Duration) -> f64 {
    (duration.as_secs_f64() * 1000.0 * 100.0).round() / 100.0
}

impl BrowserSession {
    /// The requests the driven page started since `since_ms` (milliseconds since the Unix epoch,
    /// as [`ActionReport::acted_at_ms`]), oldest first, as they stand now: an answer that came
    /// after an action's report was made is in them.
    pub fn requests_since(&self, since_ms: u64) -> Vec<RequestRecord> {
        let now = SystemTime::now().duration_since(SystemTime::UNIX_EPOCH).unwrap_or_default().as_millis() as u64;
        let ago = Duration::from_millis(now.saturating_sub(since_ms));
        let now = Instant::now();
        let since = self.ms_at(now.checked_sub(ago).unwrap_or(now));
        self.driven().activity.requests_since(since)
    }

    async fn before(&self) -> Result<Before, BrowserError> {
        let start = Instant::now();
        let driven = self.driven();
        let tree = self.page_tree().await?;
        Ok(Before {
            start,
            url: tree.url().to_owned(),
            dialogs: self.dialog_count(),
            downloads: self.download_count(),
            navigations: driven.activity.navigations(),
            target_id: driven.page.target_id.clone(),
            activity: Arc::clone(&driven.activity),
            interactive: interactive_names(&tree),
            tree,
        })
    }

    async fn report(
        &self,
        action: &'static str,
        before: Before,
        element: Option<Candidate>,
        wait: Duration,
        act: Duration,
        options: &ActOptions,
    ) -> Result<ActionReport, BrowserError> {
        let settle_start = Instant::now();
        let acted_ms = self.ms_at(settle_start.checked_sub(act).unwrap_or(settle_start));
        let acted_at_ms = (SystemTime::now() - act).duration_since(SystemTime::UNIX_EPOCH).unwrap_or_default();
        let acted_at_ms = acted_at_ms.as_millis() as u64;
        let settled = self.settle(options.settle, acted_ms).await?;
        let settle = settle_start.elapsed();
        let driven = self.driven();
        let mut requests = before.activity.requests_since(acted_ms);
        if !Arc::ptr_eq(&driven.activity, &before.activity) {
            requests.extend(driven.activity.requests_since(acted_ms));
        }
        let opened_tab = driven.page.target_id != before.target_id;
        let navigated = opened_tab || driven.activity.navigations() != before.navigations;
        let (after_tree, announced) = futures::join!(self.page_tree(), self.announced_since(acted_at_ms));
        let (after_tree, announced) = (after_tree?, announced?);
        let after = interactive_names(&after_tree);
        let (appeared, disappeared) = difference(&before.interactive, &after);
        let invalid_fields = self.invalid_fields(&after_tree).await?;
        let dialogs = self.dialogs().into_iter().skip(before.dialogs).collect();
        // A download the action began is waited for, within the action's time.
        let downloads = if self.download_count() > before.downloads {
            self.downloads_after(before.downloads, options.timeout).await?
        } else {
            Vec::new()
        };
        let report = ActionReport {
            action,
            element,
            url_before: before.url,
            url: after_tree.url().to_owned(),
            navigated,
            opened_tab,
            dialogs,
            downloads,
            appeared,
            disappeared,
            requests,
            announced,
            invalid_fields,
            acted_at_ms,
            settle_timed_out: settled.timed_out,
            timing: Timing {
                wait_ms: ms(wait),
                act_ms: ms(act),
                settle_ms: ms(settle),
                total_ms: ms(before.start.elapsed()),
            },
        };
        tracing::debug!(action, total_ms = report.timing.total_ms, url = %report.url, "action done");
        Ok(report)
    }

    /// Waits until `locator` names exactly one element that can take `action`, scrolled into
    /// view and (when `pointer`) receiving pointer events at its centre. `tree` is the page's
    /// tree if the action has just fetched it.
    async fn ready(
        &self,
        locator: &Locator,
        action: &'static str,
        pointer: bool,
        timeout: Duration,
        mut tree: Option<&PageTree>,
    ) -> Result<Ready, BrowserError> {
        let start = Instant::now();
        let mut backoff = Backoff::new();
        loop {
            let not_yet = match self.try_ready(locator, action, pointer, tree.take()).await? {
                Ok(mut ready) => {
                    ready.waited = start.elapsed();
                    return Ok(ready);
                }
                Err(not_yet) => not_yet,
            };
            if start.elapsed() >= timeout {
                let waited_ms = start.elapsed().as_millis() as u64;
                return Err(match not_yet {
                    BrowserError::NotFound { locator, .. } => BrowserError::NotFound { locator, waited_ms },
                    BrowserError::NotActionable { locator, action, reason, .. } => {
                        BrowserError::NotActionable { locator, action, reason, waited_ms }
                    }
                    other => other,
                });
            }
            backoff.pause(start + timeout).await;
        }
    }

    /// One attempt: `Ok(Ok)` ready, `Ok(Err)` not yet (worth waiting), `Err` hopeless.
    async fn try_ready(
        &self,
        locator: &Locator,
        action: &'static str,
        pointer: bool,
        tree: Option<&PageTree>,
    ) -> Result<Result<Ready, BrowserError>, BrowserError> {
        let mut candidates = self.resolve_in(locator, tree).await?;
        let candidate = match candidates.len() {
            0 => return Ok(Err(BrowserError::NotFound { locator: locator.to_string(), waited_ms: 0 })),
            1 => candidates.remove(0),
            _ => return Err(self.ambiguous(locator, candidates).await),
        };
        let key = candidate.key();
        let Ok(object) = self.object_of(&key).await else {
            return Ok(Err(BrowserError::NotFound { locator: locator.to_string(), waited_ms: 0 }));
        };
        let not_actionable = |reason: &str| BrowserError::NotActionable {
            locator: locator.to_string(),
            action,
            reason: reason.to_owned(),
            waited_ms: 0,
        };
        // An element of the top-level frame is checked, scrolled, measured and hit-tested by the
        // page functions; a frame's element is measured and hit-tested through DevTools.
        let top_level = pointer && key.frame_id == self.driven().main_frame;
        let args = vec![Arg::Value(json!(action)), Arg::Value(json!(top_level))];
        let first = self.call_element(&object, ElementFn::Actionable, args).await?;
        if let Some(reason) = first.as_str() {
            return Ok(Err(not_actionable(reason)));
        }
        if first.is_null() {
            return Ok(Ok(Ready { candidate, object, point: None, mouse_moved: false, waited: Duration::ZERO }));
        }
        // The second frame of the stability check. When the point is known the mouse moves
        // there first: a mouse move is handled at the next animation frame, which is the frame
        // the check needs, so the two waits are one. Nothing is pressed before the check passes.
        let early = point_of(&first["point"]).filter(|_| pointer);
        if let Some((x, y)) = early {
            self.mouse("mouseMoved", x, y, json!({})).await?;
        }
        let args = vec![
            Arg::Value(first["rect"].clone()),
            Arg::Value(first["point"].clone()),
            Arg::Value(first["frame"].clone()),
        ];
        let second = self.call_element(&object, ElementFn::Stable, args).await?;
        if let Some(reason) = second.as_str() {
            return Ok(Err(not_actionable(reason)));
        }
        if !pointer {
            return Ok(Ok(Ready { candidate, object, point: None, mouse_moved: false, waited: Duration::ZERO }));
        }
        let point = match (point_of(&second["point"]), point_of(&second["covered"])) {
            (Some(point), _) => point,
            (None, Some(covered)) => covered,
            (None, None) => {
                // Elements without layout (display: contents) cannot be scrolled to; the quads
                // after it tell.
                let _ = self.call("DOM.scrollIntoViewIfNeeded", json!({"backendNodeId": key.backend_id})).await;
                match self.point_in_view(&key).await? {
                    Some(point) => point,
                    None => return Ok(Err(not_actionable("outside the page or of no size after scrolling"))),
                }
            }
        };
        // The page's hit test says something else is on top, or the element is in a frame:
        // DevTools hit-tests and names what is on top.
        if second["point"].is_null() {
            if let Some(covering) = self.covering(&key, &object, point.0, point.1).await? {
                return Ok(Err(BrowserError::Covered {
                    locator: locator.to_string(),
                    action,
                    covering: Box::new(covering),
                }));
            }
        }
        Ok(Ok(Ready {
            candidate,
            object,
            point: Some(point),
            mouse_moved: early == Some(point),
            waited: Duration::ZERO,
        }))
    }

    /// The centre of the element's first content quad that is inside the viewport, in the
    /// coordinates of the top-level viewport; `None` when no part of it is in view.
    async fn point_in_view(&self, key: &NodeKey) -> Result<Option<(f64, f64)>, BrowserError> {
        let (quads, metrics) = futures::join!(
            self.call("DOM.getContentQuads", json!({"backendNodeId": key.backend_id})),
            self.call("Page.getLayoutMetrics", json!({}))
        );
        let (quads, metrics) = (quads?, metrics?);
        let width = metrics.pointer("/cssLayoutViewport/clientWidth").and_then(Value::as_f64).unwrap_or(f64::MAX);
        let height = metrics.pointer("/cssLayoutViewport/clientHeight").and_then(Value::as_f64).unwrap_or(f64::MAX);
        for quad in quads["quads"].as_array().into_iter().flatten() {
            let Some(points) = quad.as_array().map(|q| q.iter().filter_map(Value::as_f64).collect::<Vec<_>>()) else {
                continue;
            };
            if points.len() != 8 {
                continue;
            }
            let area = ((points[0] * points[3] - points[2] * points[1])
                + (points[2] * points[5] - points[4] * points[3])
                + (points[4] * points[7] - points[6] * points[5])
                + (points[6] * points[1] - points[0] * points[7]))
                .abs()
                / 2.0;
            if area < 1.0 {
                continue;
            }
            let x = (points[0] + points[2] + points[4] + points[6]) / 4.0;
            let y = (points[1] + points[3] + points[5] + points[7]) / 4.0;
            if x >= 0.0 && y >= 0.0 && x < width && y < height {
                return Ok(Some((x, y)));
            }
        }
        Ok(None)
    }

    /// The element that would receive a click at (x, y) instead of the target, if any.
    async fn covering(
        &self,
        target: &NodeKey,
        object: &str,
        x: f64,
        y: f64,
    ) -> Result<Option<Candidate>, BrowserError> {
        let hit = self
            .call(
                "DOM.getNodeForLocation",
                json!({"x": x.round() as i64, "y": y.round() as i64, "includeUserAgentShadowDOM": false, "ignorePointerEventsNone": true}),
            )
            .await?;
        let Some(hit_id) = hit["backendNodeId"].as_i64() else { return Ok(None) };
        if hit_id == target.backend_id {
            return Ok(None);
        }
        let hit_frame = hit["frameId"].as_str().unwrap_or(&target.frame_id).to_owned();
        let hit_key = NodeKey { frame_id: hit_frame, backend_id: hit_id };
        if hit_key.frame_id == target.frame_id {
            if let Ok(hit_object) = self.object_of(&hit_key).await {
                let inside = self.call_element(object, ElementFn::Contains, vec![Arg::Object(hit_object)]).await;
                if matches!(inside, Ok(Value::Bool(true))) {
                    return Ok(None);
                }
            }
        }
        let (role, name) = self.nearest_named(&hit_key).await;
        let selector = self.selector_of(&hit_key).await;
        Ok(Some(Candidate { role, name, selector, frame_id: hit_key.frame_id, backend_node_id: hit_key.backend_id }))
    }

    /// The role and name of the element, else of its nearest ancestor with a role, else of a
    /// child with one: a bare backdrop `div` is named after the dialog it holds.
    async fn nearest_named(&self, key: &NodeKey) -> (String, String) {
        let Ok(partial) = self
            .call("Accessibility.getPartialAXTree", json!({"backendNodeId": key.backend_id, "fetchRelatives": true}))
            .await
        else {
            return (String::new(), String::new());
        };
        let nodes = partial["nodes"].as_array().cloned().unwrap_or_default();
        let role_of =
            |node: &Value| match shown(node.pointer("/role/value").and_then(Value::as_str).unwrap_or_default()) {
                Shown::Role(role) => Some((
                    role.to_owned(),
                    normalize(node.pointer("/name/value").and_then(Value::as_str).unwrap_or_default()),
                )),
                _ => None,
            };
        let by_id: HashMap<&str, &Value> = nodes.iter().filter_map(|n| Some((n["nodeId"].as_str()?, n))).collect();
        let Some(hit) = nodes.iter().find(|n| n["backendDOMNodeId"].as_i64() == Some(key.backend_id)) else {
            return (String::new(), String::new());
        };
        let mut node = Some(hit);
        while let Some(current) = node {
            if let Some(found) = role_of(current) {
                return found;
            }
            node = current["parentId"].as_str().and_then(|p| by_id.get(p)).copied();
        }
        let children = hit["childIds"].as_array().into_iter().flatten().filter_map(|c| by_id.get(c.as_str()?));
        children.filter_map(|c| role_of(c)).next().unwrap_or_default()
    }

    async fn mouse(&self, kind: &str, x: f64, y: f64, extra: Value) -> Result<(), BrowserError> {
        let mut params = json!({"type": kind, "x": x, "y": y});
        if let (Some(params), Some(extra)) = (params.as_object_mut(), extra.as_object()) {
            params.extend(extra.clone());
        }
        self.call("Input.dispatchMouseEvent", params).await.map(|_| ())
    }

    /// Presses and releases the left button at the target's point, moving the mouse there first
    /// unless it is there. The press and release are sent together; the page handles them in
    /// order.
    async fn click_at(&self, ready: &Ready) -> Result<(), BrowserError> {
        let (x, y) = ready.point();
        if !ready.mouse_moved {
            self.mouse("mouseMoved", x, y, json!({})).await?;
        }
        let (pressed, released) = futures::join!(
            self.mouse("mousePressed", x, y, json!({"button": "left", "buttons": 1, "clickCount": 1})),
            self.mouse("mouseReleased", x, y, json!({"button": "left", "buttons": 0, "clickCount": 1}))
        );
        pressed.and(released)
    }

    /// Opens `url` in the driven page and waits for it to load and settle.
    #[tracing::instrument(name = "navigate", skip_all, fields(url))]
    pub async fn navigate(&self, url: &str, options: &ActOptions) -> Result<ActionReport, BrowserError> {
        let before = self.before().await?;
        let start = Instant::now();
        let answer = self.call("Page.navigate", json!({"url": url})).await?;
        if let Some(reason) = answer["errorText"].as_str().filter(|e| !e.is_empty()) {
            return Err(BrowserError::Navigation { url: url.to_owned(), reason: reason.to_owned() });
        }
        let act = start.elapsed();
        // A page load is bounded by the action's timeout, not by the shorter settle bound.
        let options = ActOptions { settle: options.timeout.max(options.settle), ..*options };
        self.report("navigate", before, None, Duration::ZERO, act, &options).await
    }

    /// Goes back to the previous page of the driven page's history, as the Back button does.
    pub async fn go_back(&self, options: &ActOptions) -> Result<ActionReport, BrowserError> {
        let before = self.before().await?;
        let start = Instant::now();
        let history = self.call("Page.getNavigationHistory", json!({})).await?;
        let current = history["currentIndex"].as_i64().unwrap_or(0);
        let entries = history["entries"].as_array().cloned().unwrap_or_default();
        let Some(previous) = current.checked_sub(1).and_then(|i| entries.get(usize::try_from(i).ok()?)) else {
            return Err(BrowserError::Input("there is no previous page to go back to".into()));
        };
        self.call("Page.navigateToHistoryEntry", json!({"entryId": previous["id"]})).await?;
        let act = start.elapsed();
        let options = ActOptions { settle: options.timeout.max(options.settle), ..*options };
        self.report("back", before, None, Duration::ZERO, act, &options).await
    }

    /// Clicks the element: scrolled into view, real mouse events at the centre of its box.
    #[tracing::instrument(name = "click", skip_all, fields(%locator))]
    pub async fn click(&self, locator: &Locator, options: &ActOptions) -> Result<ActionReport, BrowserError> {
        let before = self.before().await?;
        let ready = self.ready(locator, "click", true, options.timeout, Some(&before.tree)).await?;
        let start = Instant::now();
        self.click_at(&ready).await?;
        self.report("click", before, Some(ready.candidate), ready.waited, start.elapsed(), options).await
    }

    /// Moves the mouse over the element.
    pub async fn hover(&self, locator: &Locator, options: &ActOptions) -> Result<ActionReport, BrowserError> {
        let before = self.before().await?;
        let ready = self.ready(locator, "hover", true, options.timeout, Some(&before.tree)).await?;
        let start = Instant::now();
        if !ready.mouse_moved {
            let (x, y) = ready.point();
            self.mouse("mouseMoved", x, y, json!({})).await?;
        }
        self.report("hover", before, Some(ready.candidate), ready.waited, start.elapsed(), options).await
    }

    /// Replaces the field's text with `value`: the old text is selected and the new one
    /// inserted as typing does. Date, time, color and range inputs get the value and their
    /// input and change events.
    #[tracing::instrument(name = "fill", skip_all, fields(%locator))]
    pub async fn fill(
        &self,
        locator: &Locator,
        value: &str,
        options: &ActOptions,
    ) -> Result<ActionReport, BrowserError> {
        self.fill_checked(locator, value, options, None).await?.map_err(BrowserError::Input)
    }

    /// [`BrowserSession::fill`], when `refusal` finds nothing against the one field the locator
    /// names once it is ready — asked of that very element, just before typing, so that a page
    /// cannot put another field in its place between the check and the typing. `Ok(Err(why))`:
    /// refused, nothing typed.
    pub async fn fill_where(
        &self,
        locator: &Locator,
        value: &str,
        options: &ActOptions,
        refusal: &FieldRefusal<'_>,
    ) -> Result<Result<ActionReport, String>, BrowserError> {
        self.fill_checked(locator, value, options, Some(refusal)).await
    }

    /// The one fill: the field's facts are read only when there is a `refusal` to ask.
    async fn fill_checked(
        &self,
        locator: &Locator,
        value: &str,
        options: &ActOptions,
        refusal: Option<&FieldRefusal<'_>>,
    ) -> Result<Result<ActionReport, String>, BrowserError> {
        let before = self.before().await?;
        let ready = self.ready(locator, "fill", false, options.timeout, Some(&before.tree)).await?;
        if let Some(refusal) = refusal {
            if let Some(why) = refusal(&ready.candidate, &self.facts_of(&ready.object).await?) {
                return Ok(Err(why));
            }
        }
        let start = Instant::now();
        let how = self.call_element(&ready.object, ElementFn::PrepareFill, vec![Arg::Value(json!(value))]).await?;
        match how.as_str() {
            Some("set") => {}
            Some("type") if value.is_empty() => {
                for event in crate::keys::key_events("Delete")? {
                    self.call("Input.dispatchKeyEvent", event).await?;
                }
            }
            Some("type") => {
                self.call("Input.insertText", json!({"text": value})).await?;
            }
            other => return Err(BrowserError::Input(other.unwrap_or("the field cannot be filled").to_owned())),
        }
        Ok(Ok(self.report("fill", before, Some(ready.candidate), ready.waited, start.elapsed(), options).await?))
    }

    /// Selects the options of a `<select>` whose value or label is one of `values`.
    pub async fn select_option(
        &self,
        locator: &Locator,
        values: &[String],
        options: &ActOptions,
    ) -> Result<ActionReport, BrowserError> {
        let before = self.before().await?;
        let ready = self.ready(locator, "select", false, options.timeout, Some(&before.tree)).await?;
        let start = Instant::now();
        let answer =
            self.call_element(&ready.object, ElementFn::SelectOptions, vec![Arg::Value(json!(values))]).await?;
        if let Some(error) = answer["error"].as_str() {
            return Err(BrowserError::Input(format!("{locator}: {error}")));
        }
        self.report("select", before, Some(ready.candidate), ready.waited, start.elapsed(), options).await
    }

    /// Checks (or unchecks) a checkbox, radio or switch by clicking it when its state differs.
    pub async fn set_checked(
        &self,
        locator: &Locator,
        checked: bool,
        options: &ActOptions,
    ) -> Result<ActionReport, BrowserError> {
        let action = if checked { "check" } else { "uncheck" };
        let before = self.before().await?;
        let ready = self.ready(locator, action, true, options.timeout, Some(&before.tree)).await?;
        let start = Instant::now();
        let acted_ms = self.ms_at(start);
        let state = self.call_element(&ready.object, ElementFn::Checked, Vec::new()).await?;
        let Some(current) = state.as_bool() else {
            return Err(BrowserError::Input(format!(
                "{locator} is not a checkbox, radio or switch; it cannot be {action}ed"
            )));
        };
        if current != checked {
            self.click_at(&ready).await?;
            let mut now = self.call_element(&ready.object, ElementFn::Checked, Vec::new()).await?;
            if now.as_bool() != Some(checked) {
                // A switch that saves first and turns after the answer (a request away) shows
                // its new state once the page has settled.
                self.settle(options.settle, acted_ms).await?;
                now = self.call_element(&ready.object, ElementFn::Checked, Vec::new()).await?;
            }
            if now.as_bool() != Some(checked) {
                return Err(BrowserError::Input(format!(
                    "{locator}: clicking did not {action} it; the page keeps it as it was"
                )));
            }
        }
        self.report(action, before, Some(ready.candidate), ready.waited, start.elapsed(), options).await
    }

    /// Presses a key (`Enter`, `Control+A`), in the element when one is given (it is focused
    /// first), else wherever the focus is.
    pub async fn press(
        &self,
        locator: Option<&Locator>,
        key: &str,
        options: &ActOptions,
    ) -> Result<ActionReport, BrowserError> {
        let events = crate::keys::key_events(key)?;
        let before = self.before().await?;
        let (candidate, waited) = match locator {
            Some(locator) => {
                let ready = self.ready(locator, "press", false, options.timeout, Some(&before.tree)).await?;
                self.call("DOM.focus", json!({"backendNodeId": ready.candidate.backend_node_id})).await?;
                (Some(ready.candidate), ready.waited)
            }
            None => (None, Duration::ZERO),
        };
        let start = Instant::now();
        for event in events {
            self.call("Input.dispatchKeyEvent", event).await?;
        }
        self.report("press", before, candidate, waited, start.elapsed(), options).await
    }

    /// Scrolls with the mouse wheel over the element (or the middle of the page) by dx, dy pixels.
    pub async fn scroll(
        &self,
        locator: Option<&Locator>,
        dx: f64,
        dy: f64,
        options: &ActOptions,
    ) -> Result<ActionReport, BrowserError> {
        let before = self.before().await?;
        let (candidate, point, waited) = match locator {
            Some(locator) => {
                let ready = self.ready(locator, "scroll", true, options.timeout, Some(&before.tree)).await?;
                let point = ready.point();
                (Some(ready.candidate), point, ready.waited)
            }
            None => (None, (f64::from(crate::VIEWPORT.0) / 2.0, f64::from(crate::VIEWPORT.1) / 2.0), Duration::ZERO),
        };
        let start = Instant::now();
        self.mouse("mouseWheel", point.0, point.1, json!({"deltaX": dx, "deltaY": dy})).await?;
        self.report("scroll", before, candidate, waited, start.elapsed(), options).await
    }

    /// Waits until the condition holds, at most `timeout`.
    pub async fn wait_for(&self, condition: &WaitCondition, timeout: Duration) -> Result<Duration, BrowserError> {
        let start = Instant::now();
        let mut backoff = Backoff::new();
        loop {
            let holds = match condition {
                WaitCondition::Element(locator) => self.any_visible(locator).await?,
                WaitCondition::Text(text) => {
                    self.any_visible(&Locator::Text { text: text.clone(), exact: false }).await?
                }
                WaitCondition::UrlContains(part) => self.url().await?.contains(part.as_str()),
            };
            if holds {
                return Ok(start.elapsed());
            }
            if start.elapsed() >= timeout {
                let what = match condition {
                    WaitCondition::Element(locator) => format!("{locator} to be visible"),
                    WaitCondition::Text(text) => format!("text {text:?} to be visible"),
                    WaitCondition::UrlContains(part) => format!("the URL to contain {part:?}"),
                };
                return Err(BrowserError::WaitTimedOut { what, waited_ms: start.elapsed().as_millis() as u64 });
            }
            backoff.pause(start + timeout).await;
        }
    }

    async fn any_visible(&self, locator: &Locator) -> Result<bool, BrowserError> {
        for candidate in self.resolve(locator).await? {
            if self.is_visible(&candidate).await? {
                return Ok(true);
            }
        }
        Ok(false)
    }

    /// Whether an element a locator matched is visible now (Playwright's test: a non-empty box,
    /// not `visibility: hidden`). An element gone since it was found is not.
    pub async fn is_visible(&self, candidate: &Candidate) -> Result<bool, BrowserError> {
        let Ok(object) = self.object_of(&candidate.key()).await else { return Ok(false) };
        let reason = self.call_element(&object, ElementFn::Actionable, vec![Arg::Value(json!("read"))]).await?;
        Ok(reason.is_null())
    }

    /// The rendered text of the element, or of the whole page.
    pub async fn extract_text(&self, locator: Option<&Locator>, options: &ActOptions) -> Result<String, BrowserError> {
        let object = match locator {
            Some(locator) => self.ready(locator, "read", false, options.timeout, None).await?.object,
            None => self.body().await?,
        };
        let text = self.call_element(&object, ElementFn::Text, Vec::new()).await?;
        Ok(text.as_str().unwrap_or_default().to_owned())
    }

    /// The rows of a table, keyed by its header cells: the table the locator names (or that
    /// holds it), else the first table of the page.
    pub async fn extract_table(&self, locator: Option<&Locator>, options: &ActOptions) -> Result<Table, BrowserError> {
        self.extract_table_rows(locator, options, false).await
    }

    /// [`BrowserSession::extract_table`], waiting — within `options.timeout` — until the table has
    /// a body row when `wait_for_rows`: pages often render a table first and fill it a moment
    /// later. A table still empty at the end is returned empty.
    pub async fn extract_table_rows(
        &self,
        locator: Option<&Locator>,
        options: &ActOptions,
        wait_for_rows: bool,
    ) -> Result<Table, BrowserError> {
        let deadline = Instant::now() + options.timeout;
        let mut backoff = Backoff::new();
        loop {
            let left = deadline.saturating_duration_since(Instant::now());
            let table = self.read_table(locator, &ActOptions { timeout: left, ..*options }).await?;
            if !wait_for_rows || !table.rows.is_empty() || Instant::now() >= deadline {
                return Ok(table);
            }
            backoff.pause(deadline).await;
        }
    }

    async fn read_table(&self, locator: Option<&Locator>, options: &ActOptions) -> Result<Table, BrowserError> {
        let object = match locator {
            Some(locator) => self.ready(locator, "read", false, options.timeout, None).await?.object,
            None => {
                self.wait_for(
                    &WaitCondition::Element(Locator::Role { role: "table".into(), name: None, exact: false }),
                    options.timeout,
                )
                .await
                .map_err(|_| {
                    BrowserError::Input("there is no table on the page; give a locator for the table to read".into())
                })?;
                self.body().await?
            }
        };
        let answer = self.call_element(&object, ElementFn::Table, Vec::new()).await?;
        if let Some(error) = answer["error"].as_str() {
            return Err(BrowserError::Input(format!("cannot read a table: {error}")));
        }
        let headers =
            answer["headers"].as_array().into_iter().flatten().filter_map(|h| h.as_str().map(str::to_owned)).collect();
        let rows = answer["rows"].as_array().into_iter().flatten().filter_map(|r| r.as_object().cloned()).collect();
        Ok(Table { headers, rows })
    }

    async fn body(&self) -> Result<String, BrowserError> {
        let body =
            self.call("Runtime.evaluate", json!({"expression": "document.body || document.documentElement"})).await?;
        body.pointer("/result/objectId")
            .and_then(Value::as_str)
            .map(str::to_owned)
            .ok_or_else(|| BrowserError::Input("the page has no document to read".into()))
    }

    /// A PNG of the viewport, the whole page, or one element.
    pub async fn screenshot(&self, target: &ScreenshotTarget, options: &ActOptions) -> Result<Vec<u8>, BrowserError> {
        let params = match target {
            // Encoded for speed: a larger file, in a fraction of the time (evidence is taken often).
            ScreenshotTarget::Viewport => json!({"format": "png"}),
            ScreenshotTarget::FullPage => {
                let metrics = self.call("Page.getLayoutMetrics", json!({})).await?;
                let width = metrics.pointer("/cssContentSize/width").and_then(Value::as_f64).unwrap_or(1.0).ceil();
                let height = metrics.pointer("/cssContentSize/height").and_then(Value::as_f64).unwrap_or(1.0).ceil();
                json!({"format": "png", "captureBeyondViewport": true, "clip": {"x": 0, "y": 0, "width": width, "height": height, "scale": 1}})
            }
            ScreenshotTarget::Element(locator) => {
                let ready = self.ready(locator, "screenshot", false, options.timeout, None).await?;
                let _ = self
                    .call("DOM.scrollIntoViewIfNeeded", json!({"backendNodeId": ready.candidate.backend_node_id}))
                    .await;
                let model =
                    self.call("DOM.getBoxModel", json!({"backendNodeId": ready.candidate.backend_node_id})).await?;
                let border: Vec<f64> = model
                    .pointer("/model/border")
                    .and_then(Value::as_array)
                    .into_iter()
                    .flatten()
                    .filter_map(Value::as_f64)
                    .collect();
                if border.len() != 8 {
                    return Err(BrowserError::Input(format!("{locator} has no box to capture")));
                }
                let xs = [border[0], border[2], border[4], border[6]];
                let ys = [border[1], border[3], border[5], border[7]];
                let (x0, x1) =
                    (xs.iter().copied().fold(f64::MAX, f64::min), xs.iter().copied().fold(f64::MIN, f64::max));
                let (y0, y1) =
                    (ys.iter().copied().fold(f64::MAX, f64::min), ys.iter().copied().fold(f64::MIN, f64::max));
                let metrics = self.call("Page.getLayoutMetrics", json!({})).await?;
                let page_x = metrics.pointer("/cssVisualViewport/pageX").and_then(Value::as_f64).unwrap_or(0.0);
                let page_y = metrics.pointer("/cssVisualViewport/pageY").and_then(Value::as_f64).unwrap_or(0.0);
                json!({"format": "png", "captureBeyondViewport": true,
                       "clip": {"x": x0 + page_x, "y": y0 + page_y, "width": (x1 - x0).max(1.0), "height": (y1 - y0).max(1.0), "scale": 1}})
            }
        };
        let shot = self.call("Page.captureScreenshot", params).await?;
        let data = shot["data"].as_str().unwrap_or_default();
        use base64::Engine as _;
        base64::engine::general_purpose::STANDARD.decode(data).map_err(|e| BrowserError::Protocol {
            method: "Page.captureScreenshot".into(),
            message: format!("not base64: {e}"),
        })
    }
}

/// The interactive elements of a tree as `role "name"` lines.
fn interactive_names(tree: &PageTree) -> Vec<String> {
    let items = tree.items(None);
    elements(&items)
        .into_iter()
        .filter(|e| is_interactive(e.role))
        .map(|e| format!("{} {}", e.role, serde_json::to_string(&e.name).unwrap_or_default()))
        .collect()
}

/// Lines that are in `after` and not in `before`, and the other way round, counting repeats.
fn difference(before: &[String], after: &[String]) -> (Vec<String>, Vec<String>) {
    let mut counts: HashMap<&str, i64> = HashMap::new();
    for line in before {
        *counts.entry(line).or_default() -= 1;
    }
    for line in after {
        *counts.entry(line).or_default() += 1;
    }
    let mut appeared = Vec::new();
    for line in after {
        let count = counts.get_mut(line.as_str()).expect("counted above");
        if *count > 0 {
            *count -= 1;
            appeared.push(line.clone());
        }
    }
    let mut disappeared = Vec::new();
    for line in before {
        let count = counts.get_mut(line.as_str()).expect("counted above");
        if *count < 0 {
            *count += 1;
            disappeared.push(line.clone());
        }
    }
    (appeared, disappeared)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn differences_count_repeated_elements() {
        let before = ["button \"Add\"".to_owned(), "button \"Add\"".to_owned(), "link \"Home\"".to_owned()];
        let after = ["button \"Add\"".to_owned(), "link \"Home\"".to_owned(), "dialog \"Cart\"".to_owned()];
        let (appeared, disappeared) = difference(&before, &after);
        assert_eq!(appeared, ["dialog \"Cart\""]);
        assert_eq!(disappeared, ["button \"Add\""]);
    }
}
