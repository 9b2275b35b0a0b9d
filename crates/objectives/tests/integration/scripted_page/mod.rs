//! A scripted page for the runner's table tests: a deterministic, in-memory [`PageDriver`].
//!
//! A page is a set of screens (address → lines of text and elements: role, accessible name,
//! value, checked, visible, the words around it, its frame), shown as the interactive snapshot
//! the real driver produces (`- button "Pay" [ref=e3]`). Acting on an element does what the
//! script says — text shown or taken away, elements added or removed, another screen opened,
//! requests started, a status or an alert announced, a field marked invalid, a dialog — and the
//! [`ActionReport`] says so as the browser driver's does. Every action on an element, and every
//! effect the "server" had, is counted, so that a test can assert "sent once".
//!
//! Nothing here sleeps: the page is still (and not loading) unless a screen says it is loading.

use std::collections::BTreeMap;
use std::path::Path;
use std::sync::{Mutex, OnceLock};
use std::time::{Duration, SystemTime};

use futures::FutureExt;
use planwright_browser::{
    is_interactive, text_matches, ActOptions, ActionReport, Announcement, AnnouncementKind, BrowserError, Candidate,
    DialogRecord, Download, FieldFacts, FieldRefusal, FrameText, InvalidField, Locator, RequestKind, RequestRecord,
    Timing,
};
use planwright_objectives::driver::{Driven, PageDriver};
use planwright_objectives::fields::FieldMarkup;
use planwright_objectives::resolve::Op;

/// The origin of every scripted address (nothing listens there: nothing is fetched).
pub const ORIGIN: &str = "http://127.0.0.1:9";

/// Roles whose name is not text of the page (a container's label, a field's own value).
const UNSHOWN: &[&str] = &["dialog", "alertdialog", "form", "region", "group", "main", "navigation", "iframe"];
/// Roles a person types into.
const FIELDS: &[&str] = &["textbox", "searchbox", "spinbutton", "combobox"];
/// Text candidates (lines of a screen) are told from elements by ids from here on.
const LINE_IDS: i64 = 1_000_000;

/// The address of a scripted path.
pub fn url(path: &str) -> String {
    format!("{ORIGIN}{path}")
}

/// One element of a screen.
#[derive(Debug, Clone)]
pub struct Element {
    pub role: String,
    pub name: String,
    pub value: Option<String>,
    pub checked: bool,
    pub visible: bool,
    /// The words of the row, card, form or dialog around it.
    pub surroundings: String,
    /// The address of the frame it is in; empty for the top document.
    pub frame: String,
    pub test_id: Option<String>,
    /// The name of the element that contains it (a dialog), if any.
    pub inside: Option<String>,
    /// Given when the screen is shown: its ref is `e<id>`.
    id: i64,
}

impl Element {
    pub fn new(role: &str, name: &str) -> Element {
        Element {
            role: role.into(),
            name: name.into(),
            value: None,
            checked: false,
            visible: true,
            surroundings: String::new(),
            frame: String::new(),
            test_id: None,
            inside: None,
            id: 0,
        }
    }

    pub fn value(mut self, value: &str) -> Element {
        self.value = Some(value.into());
        self
    }

    pub fn checked(mut self) -> Element {
        self.checked = true;
        self
    }

    pub fn hidden(mut self) -> Element {
        self.visible = false;
        self
    }

    pub fn around(mut self, words: &str) -> Element {
        self.surroundings = words.into();
        self
    }

    pub fn in_frame(mut self, path: &str) -> Element {
        self.frame = url(path);
        self
    }

    pub fn test_id(mut self, id: &str) -> Element {
        self.test_id = Some(id.into());
        self
    }

    pub fn inside(mut self, container: &str) -> Element {
        self.inside = Some(container.into());
        self
    }

    /// `button "Pay"`, as the driver lists elements that appeared or went away.
    fn said(&self) -> String {
        format!("{} {}", self.role, serde_json::to_string(&self.name).unwrap_or_default())
    }

    fn frame_id(&self) -> String {
        if self.frame.is_empty() {
            "main".into()
        } else {
            self.frame.clone()
        }
    }

    fn candidate(&self) -> Candidate {
        Candidate {
            role: self.role.clone(),
            name: self.name.clone(),
            selector: format!("{}#e{}", self.role, self.id),
            frame_id: self.frame_id(),
            backend_node_id: self.id,
        }
    }

    fn shows_name(&self) -> bool {
        !self.name.is_empty() && !UNSHOWN.contains(&self.role.as_str()) && !FIELDS.contains(&self.role.as_str())
    }
}

/// One screen: what a scripted address shows when it is opened.
#[derive(Debug, Clone, Default)]
pub struct Screen {
    pub path: String,
    pub title: String,
    /// Text of the top document, a line each.
    pub lines: Vec<String>,
    /// Text of other frames: (frame address, line).
    pub frame_lines: Vec<(String, String)>,
    pub elements: Vec<Element>,
    /// Fields marked `aria-invalid`.
    pub invalid: Vec<InvalidField>,
    /// The page says it is loading (and is never still).
    pub loading: bool,
}

impl Screen {
    pub fn at(path: &str) -> Screen {
        Screen { path: path.into(), title: path.into(), ..Screen::default() }
    }

    pub fn line(mut self, line: &str) -> Screen {
        self.lines.push(line.into());
        self
    }

    pub fn element(mut self, element: Element) -> Screen {
        self.elements.push(element);
        self
    }

    pub fn loading(mut self) -> Screen {
        self.loading = true;
        self
    }

    fn visible(&self) -> impl Iterator<Item = &Element> {
        self.elements.iter().filter(|e| e.visible)
    }

    /// The interactive elements shown, as `role "name"` lines.
    fn interactive(&self) -> Vec<String> {
        self.visible().filter(|e| is_interactive(&e.role)).map(Element::said).collect()
    }

    /// Every line of text of the page, (frame address, line), the top document first.
    fn text_lines(&self) -> Vec<(String, String)> {
        let top = url(&self.path);
        let mut lines: Vec<(String, String)> = self.lines.iter().map(|l| (top.clone(), l.clone())).collect();
        lines.extend(
            self.visible().filter(|e| e.frame.is_empty() && e.shows_name()).map(|e| (top.clone(), e.name.clone())),
        );
        lines.extend(self.frame_lines.iter().cloned());
        lines.extend(
            self.visible().filter(|e| !e.frame.is_empty() && e.shows_name()).map(|e| (e.frame.clone(), e.name.clone())),
        );
        lines
    }
}

/// What acting on an element does.
#[derive(Debug, Clone)]
pub enum Do {
    /// A line of text shown in the top document.
    Show(String),
    /// A line shown inside a frame (its path).
    ShowIn {
        frame: String,
        line: String,
    },
    /// A line taken away.
    Hide(String),
    Add(Element),
    /// The element of this name taken away, with what it contains.
    Remove(String),
    /// Another screen opened (its path), as a navigation.
    GoTo(String),
    /// A request started: method, path, and its answer (`None`: unanswered yet).
    Request {
        method: String,
        path: String,
        status: Option<u16>,
    },
    /// A request started that the driver learns of only after the action's report: on a loaded
    /// machine DevTools' events can come later than the page settled by its looks.
    LateRequest {
        method: String,
        path: String,
        status: Option<u16>,
    },
    /// Something happened on the server (counted by name).
    Effect(String),
    /// A status region (or an alert) said this.
    Announce {
        text: String,
        kind: AnnouncementKind,
    },
    /// A field marked invalid, with its message.
    Invalid {
        role: String,
        name: String,
        message: String,
    },
    /// A JavaScript dialog (`alert`, `confirm`) opened and answered.
    Dialog {
        kind: String,
        message: String,
        accepted: bool,
    },
    /// The page starts or stops saying it is loading.
    Loading(bool),
}

impl Do {
    pub fn show(line: &str) -> Do {
        Do::Show(line.into())
    }

    pub fn go_to(path: &str) -> Do {
        Do::GoTo(path.into())
    }

    pub fn post(path: &str, status: u16) -> Do {
        Do::Request { method: "POST".into(), path: path.into(), status: Some(status) }
    }

    pub fn effect(name: &str) -> Do {
        Do::Effect(name.into())
    }

    pub fn alert(text: &str) -> Do {
        Do::Announce { text: text.into(), kind: AnnouncementKind::Alert }
    }

    pub fn status(text: &str) -> Do {
        Do::Announce { text: text.into(), kind: AnnouncementKind::Status }
    }

    pub fn remove(name: &str) -> Do {
        Do::Remove(name.into())
    }
}

/// Which operation a reaction answers.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Act {
    Click,
    Fill,
    Select,
    Check,
}

/// What the script does when an element is acted on.
#[derive(Debug, Clone)]
struct Reaction {
    act: Act,
    role: String,
    name: String,
    /// Only the n-th time (from 1) that element is acted on; every time when `None`.
    nth: Option<usize>,
    does: Vec<Do>,
}

/// The page as it is now, and what was done to it.
#[derive(Debug, Default)]
struct State {
    screen: Screen,
    history: Vec<String>,
    next_id: i64,
    /// Actions carried out, by element (`button "Send"`).
    acted: BTreeMap<String, usize>,
    /// Effects the server had, by name.
    effects: BTreeMap<String, usize>,
    /// Everything announced so far, with when (ms since the epoch).
    announced: Vec<(u64, Announcement)>,
    /// Every request an action started, with when.
    requests: Vec<(u64, RequestRecord)>,
}

/// A deterministic page the runner drives; see the module's documentation.
pub struct ScriptedPage {
    screens: BTreeMap<String, Screen>,
    reactions: Vec<Reaction>,
    state: Mutex<State>,
}

impl ScriptedPage {
    /// A page of these screens, showing the first.
    pub fn new(screens: Vec<Screen>) -> ScriptedPage {
        let first = screens.first().map(|s| s.path.clone()).unwrap_or_default();
        let page = ScriptedPage {
            screens: screens.into_iter().map(|s| (s.path.clone(), s)).collect(),
            reactions: Vec::new(),
            state: Mutex::new(State::default()),
        };
        let shown = page.fresh(&first, &mut page.lock());
        page.lock().screen = shown;
        page
    }

    /// Every time `role "name"` is acted on this way, it does `does`.
    pub fn on(mut self, act: Act, role: &str, name: &str, does: Vec<Do>) -> ScriptedPage {
        self.reactions.push(Reaction { act, role: role.into(), name: name.into(), nth: None, does });
        self
    }

    /// The `nth` time (from 1) `role "name"` is acted on this way, it does `does`.
    pub fn on_nth(mut self, act: Act, role: &str, name: &str, nth: usize, does: Vec<Do>) -> ScriptedPage {
        self.reactions.push(Reaction { act, role: role.into(), name: name.into(), nth: Some(nth), does });
        self
    }

    /// How many times `role "name"` was acted on.
    pub fn acted(&self, role: &str, name: &str) -> usize {
        let key = Element::new(role, name).said();
        self.lock().acted.get(&key).copied().unwrap_or(0)
    }

    /// How many times the server had the effect `name`.
    pub fn effects(&self, name: &str) -> usize {
        self.lock().effects.get(name).copied().unwrap_or(0)
    }

    /// Whether the element `role "name"` shown now is checked.
    pub fn is_checked(&self, role: &str, name: &str) -> bool {
        self.lock().screen.elements.iter().any(|e| e.role == role && e.name == name && e.checked)
    }

    /// The address shown now.
    pub fn address(&self) -> String {
        url(&self.lock().screen.path)
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, State> {
        self.state.lock().unwrap_or_else(std::sync::PoisonError::into_inner)
    }

    /// Screen `path` as it is when opened, its elements given refs.
    fn fresh(&self, path: &str, state: &mut State) -> Screen {
        let mut screen = self.screens.get(path).cloned().unwrap_or_else(|| Screen::at(path).line("Not Found"));
        for element in &mut screen.elements {
            state.next_id += 1;
            element.id = state.next_id;
        }
        screen
    }

    /// The elements and text lines `locator` matches now, in document order.
    fn matches(&self, state: &State, locator: &Locator) -> Vec<Candidate> {
        let screen = &state.screen;
        match locator {
            Locator::Role { role, name, exact } => screen
                .visible()
                .filter(|e| &e.role == role && name.as_deref().is_none_or(|n| text_matches(&e.name, n, *exact)))
                .map(Element::candidate)
                .collect(),
            // The smallest elements whose text matches: a control's own text, or a line.
            Locator::Text { text, exact } => {
                let mut found: Vec<Candidate> = screen
                    .visible()
                    .filter(|e| e.shows_name() && text_matches(&e.name, text, *exact))
                    .map(Element::candidate)
                    .collect();
                let lines = screen
                    .lines
                    .iter()
                    .map(|l| ("main".to_owned(), l))
                    .chain(screen.frame_lines.iter().map(|(frame, l)| (frame.clone(), l)));
                found.extend(lines.enumerate().filter(|(_, (_, l))| text_matches(l, text, *exact)).map(
                    |(n, (frame, _))| Candidate {
                        role: "paragraph".into(),
                        name: String::new(),
                        selector: format!("p:nth-of-type({})", n + 1),
                        frame_id: frame,
                        backend_node_id: LINE_IDS + n as i64,
                    },
                ));
                found
            }
            Locator::TestId { id } => {
                screen.visible().filter(|e| e.test_id.as_deref() == Some(id)).map(Element::candidate).collect()
            }
            Locator::Ref { reference } => {
                screen.elements.iter().filter(|e| format!("e{}", e.id) == *reference).map(Element::candidate).collect()
            }
            Locator::Near { target, text } => self
                .matches(state, target)
                .into_iter()
                .filter(|c| text_matches(&self.around(state, c), text, false))
                .collect(),
        }
    }

    /// The words around a candidate: its element's surroundings, or a line's own text.
    fn around(&self, state: &State, candidate: &Candidate) -> String {
        if candidate.backend_node_id >= LINE_IDS {
            return self.line_of(state, candidate).unwrap_or_default();
        }
        element_of(state, candidate).map(|e| e.surroundings.clone()).unwrap_or_default()
    }

    fn line_of(&self, state: &State, candidate: &Candidate) -> Option<String> {
        let n = usize::try_from(candidate.backend_node_id - LINE_IDS).ok()?;
        let screen = &state.screen;
        screen.lines.iter().chain(screen.frame_lines.iter().map(|(_, l)| l)).nth(n).cloned()
    }

    /// The one element `locator` names, as the driver requires before it acts.
    fn one(&self, state: &State, locator: &Locator) -> Result<Candidate, BrowserError> {
        let mut found = self.matches(state, locator);
        match found.len() {
            0 => Err(BrowserError::NotFound { locator: locator.to_string(), waited_ms: 0 }),
            1 => Ok(found.remove(0)),
            _ => Err(BrowserError::Ambiguous { locator: locator.to_string(), candidates: found }),
        }
    }

    /// Carries `op` out and reports it as the driver does.
    fn carry_out(&self, op: &Op, typed: Option<&str>) -> Result<ActionReport, BrowserError> {
        let mut state = self.lock();
        let acted_at_ms = now_ms();
        let url_before = url(&state.screen.path);
        let before = state.screen.interactive();
        let mut report = ActionReport {
            action: op.tool().name(),
            element: None,
            url_before: url_before.clone(),
            url: url_before.clone(),
            navigated: false,
            opened_tab: false,
            dialogs: Vec::new(),
            downloads: Vec::new(),
            appeared: Vec::new(),
            disappeared: Vec::new(),
            requests: Vec::new(),
            announced: Vec::new(),
            invalid_fields: Vec::new(),
            acted_at_ms,
            settle_timed_out: false,
            timing: Timing::default(),
        };
        let (act, target) = match op {
            Op::Navigate { url: to } => {
                let path = to.strip_prefix(ORIGIN).unwrap_or(to).to_owned();
                self.open(&mut state, &path, &mut report);
                (None, None)
            }
            Op::Back => {
                if let Some(path) = state.history.pop() {
                    state.screen = self.fresh(&path, &mut state);
                    report.navigated = true;
                }
                (None, None)
            }
            Op::Click { locator, .. } => (Some(Act::Click), Some(self.one(&state, locator)?)),
            Op::Fill { locator, value } => {
                let target = self.one(&state, locator)?;
                let typed = typed.unwrap_or(&value.value).to_owned();
                if let Some(field) = element_of_mut(&mut state, &target) {
                    field.value = Some(typed);
                }
                (Some(Act::Fill), Some(target))
            }
            Op::Select { locator, option } => {
                let target = self.one(&state, locator)?;
                if let Some(field) = element_of_mut(&mut state, &target) {
                    field.value = Some(option.clone());
                }
                (Some(Act::Select), Some(target))
            }
            Op::Check { locator, on } => {
                let target = self.one(&state, locator)?;
                if let Some(field) = element_of_mut(&mut state, &target) {
                    field.checked = *on;
                }
                (Some(Act::Check), Some(target))
            }
            Op::Press { locator: Some(locator), .. } | Op::Hover { locator } => {
                (None, Some(self.one(&state, locator)?))
            }
            Op::Press { locator: None, .. } | Op::Scroll { .. } => (None, None),
        };
        if let (Some(act), Some(target)) = (act, &target) {
            let key = Element::new(&target.role, &target.name).said();
            let count = {
                let count = state.acted.entry(key).or_default();
                *count += 1;
                *count
            };
            let does: Vec<Do> = self
                .reactions
                .iter()
                .filter(|r| r.act == act && r.role == target.role && r.name == target.name)
                .filter(|r| r.nth.is_none_or(|n| n == count))
                .flat_map(|r| r.does.iter().cloned())
                .collect();
            for done in does {
                self.react(&mut state, done, &mut report);
            }
        }
        report.element = target;
        report.url = url(&state.screen.path);
        let after = state.screen.interactive();
        (report.appeared, report.disappeared) = difference(&before, &after);
        report.invalid_fields = state.screen.invalid.clone();
        Ok(report)
    }

    fn open(&self, state: &mut State, path: &str, report: &mut ActionReport) {
        let from = state.screen.path.clone();
        state.history.push(from);
        state.screen = self.fresh(path, state);
        report.navigated = true;
    }

    fn react(&self, state: &mut State, done: Do, report: &mut ActionReport) {
        match done {
            Do::Show(line) => state.screen.lines.push(line),
            Do::ShowIn { frame, line } => state.screen.frame_lines.push((url(&frame), line)),
            Do::Hide(line) => state.screen.lines.retain(|l| *l != line),
            Do::Add(mut element) => {
                state.next_id += 1;
                element.id = state.next_id;
                state.screen.elements.push(element);
            }
            Do::Remove(name) => {
                state.screen.elements.retain(|e| e.name != name && e.inside.as_deref() != Some(name.as_str()))
            }
            Do::GoTo(path) => self.open(state, &path, report),
            Do::Request { method, path, status } => {
                let request = RequestRecord { method, url: url(&path), status, kind: RequestKind::Fetch, error: None };
                state.requests.push((report.acted_at_ms, request.clone()));
                report.requests.push(request);
            }
            Do::LateRequest { method, path, status } => {
                let request = RequestRecord { method, url: url(&path), status, kind: RequestKind::Fetch, error: None };
                state.requests.push((report.acted_at_ms, request));
            }
            Do::Effect(name) => *state.effects.entry(name).or_default() += 1,
            Do::Announce { text, kind } => {
                let said = Announcement { text, kind, frame_url: url(&state.screen.path), ongoing: false };
                state.announced.push((report.acted_at_ms, said.clone()));
                report.announced.push(said);
            }
            Do::Invalid { role, name, message } => state.screen.invalid.push(InvalidField { role, name, message }),
            Do::Dialog { kind, message, accepted } => report.dialogs.push(DialogRecord { kind, message, accepted }),
            Do::Loading(loading) => state.screen.loading = loading,
        }
    }

    /// The interactive snapshot: elements as `- role "name" [checked] [ref=eN]: value`, those
    /// inside a container under it, two spaces a level, other frames under their `iframe`.
    fn snapshot(&self) -> String {
        let state = self.lock();
        let screen = &state.screen;
        let mut text = String::new();
        let top: Vec<&Element> = screen.visible().filter(|e| e.frame.is_empty() && e.inside.is_none()).collect();
        for element in top {
            render(screen, element, 0, &mut text);
        }
        let mut frames: Vec<&String> = screen.visible().filter(|e| !e.frame.is_empty()).map(|e| &e.frame).collect();
        frames.dedup();
        for frame in frames {
            text.push_str(&format!("- iframe {}:\n", serde_json::to_string(frame).unwrap_or_default()));
            for element in screen.visible().filter(|e| e.frame == *frame && e.inside.is_none()) {
                render(screen, element, 1, &mut text);
            }
        }
        text.push_str(&format!("# {} · scripted\n", url(&screen.path)));
        text
    }
}

/// One element's snapshot line, and those of the elements inside it.
fn render(screen: &Screen, element: &Element, depth: usize, text: &mut String) {
    let mut line = format!("{}- {}", "  ".repeat(depth), element.role);
    if !element.name.is_empty() {
        line.push_str(&format!(" {}", serde_json::to_string(&element.name).unwrap_or_default()));
    }
    if element.checked {
        line.push_str(" [checked]");
    }
    if is_interactive(&element.role) {
        line.push_str(&format!(" [ref=e{}]", element.id));
    }
    let inner: Vec<&Element> =
        screen.visible().filter(|e| e.inside.as_deref() == Some(element.name.as_str()) && e.id != element.id).collect();
    match (&element.value, inner.is_empty()) {
        (Some(value), _) => line.push_str(&format!(": {}", serde_json::to_string(value).unwrap_or_default())),
        (None, false) => line.push(':'),
        (None, true) => {}
    }
    text.push_str(&line);
    text.push('\n');
    for child in inner {
        render(screen, child, depth + 1, text);
    }
}

fn element_of<'s>(state: &'s State, candidate: &Candidate) -> Option<&'s Element> {
    state.screen.elements.iter().find(|e| e.id == candidate.backend_node_id)
}

fn element_of_mut<'s>(state: &'s mut State, candidate: &Candidate) -> Option<&'s mut Element> {
    state.screen.elements.iter_mut().find(|e| e.id == candidate.backend_node_id)
}

/// Lines in `after` and not in `before`, and the other way round, counting repeats (as the
/// driver lists what appeared and went away).
fn difference(before: &[String], after: &[String]) -> (Vec<String>, Vec<String>) {
    let mut gone: Vec<String> = before.to_vec();
    let mut appeared = Vec::new();
    for line in after {
        match gone.iter().position(|g| g == line) {
            Some(at) => {
                gone.remove(at);
            }
            None => appeared.push(line.clone()),
        }
    }
    (appeared, gone)
}

fn now_ms() -> u64 {
    SystemTime::now().duration_since(SystemTime::UNIX_EPOCH).map(|d| d.as_millis() as u64).unwrap_or_default()
}

/// A picture of two colours (a blank one is not kept as evidence).
fn picture() -> Vec<u8> {
    static PNG: OnceLock<Vec<u8>> = OnceLock::new();
    PNG.get_or_init(|| {
        let mut out = Vec::new();
        let mut encoder = png::Encoder::new(&mut out, 2, 1);
        encoder.set_color(png::ColorType::Rgb);
        encoder.set_depth(png::BitDepth::Eight);
        let mut writer = encoder.write_header().expect("a fixed header");
        writer.write_image_data(&[255, 255, 255, 0, 0, 0]).expect("two pixels");
        writer.finish().expect("a fixed picture");
        out
    })
    .clone()
}

impl PageDriver for ScriptedPage {
    fn url(&self) -> Driven<'_, String> {
        let address = self.address();
        async move { Ok(address) }.boxed()
    }

    fn title(&self) -> Driven<'_, String> {
        let title = self.lock().screen.title.clone();
        async move { Ok(title) }.boxed()
    }

    fn snapshot_text(&self, _token_budget: usize) -> Driven<'_, String> {
        let text = self.snapshot();
        async move { Ok(text) }.boxed()
    }

    fn resolve<'a>(&'a self, locator: &'a Locator) -> Driven<'a, Vec<Candidate>> {
        let found = self.matches(&self.lock(), locator);
        async move { Ok(found) }.boxed()
    }

    fn surroundings<'a>(&'a self, candidate: &'a Candidate) -> Driven<'a, String> {
        let around = self.around(&self.lock(), candidate);
        async move { Ok(around) }.boxed()
    }

    fn field_value<'a>(&'a self, candidate: &'a Candidate) -> Driven<'a, String> {
        let state = self.lock();
        let value = match element_of(&state, candidate) {
            Some(element) => element.value.clone().unwrap_or_else(|| element.name.clone()),
            None => self.line_of(&state, candidate).unwrap_or_default(),
        };
        async move { Ok(value) }.boxed()
    }

    fn is_visible<'a>(&'a self, candidate: &'a Candidate) -> Driven<'a, bool> {
        let state = self.lock();
        let visible = match element_of(&state, candidate) {
            Some(element) => element.visible,
            None => self.line_of(&state, candidate).is_some(),
        };
        async move { Ok(visible) }.boxed()
    }

    fn act<'a>(&'a self, op: &'a Op, _options: &'a ActOptions) -> Driven<'a, ActionReport> {
        let report = self.carry_out(op, None);
        async move { report }.boxed()
    }

    fn fill_where<'a>(
        &'a self,
        locator: &'a Locator,
        value: &'a str,
        _options: &'a ActOptions,
        refusal: &'a FieldRefusal<'a>,
    ) -> Driven<'a, Result<ActionReport, String>> {
        let found = {
            let state = self.lock();
            let sign_in = state.screen.elements.iter().any(|e| e.name.to_lowercase().contains("password"));
            self.one(&state, locator).map(|field| (field, sign_in))
        };
        let checked = found.map(|(field, sign_in)| {
            let password = field.name.to_lowercase().contains("password");
            let facts = FieldFacts {
                origin: ORIGIN.into(),
                r#type: if password { "password" } else { "text" }.into(),
                autocomplete: String::new(),
                search: field.role == "searchbox",
                sign_in,
            };
            refusal(&field, &facts)
        });
        let result = match checked {
            Err(error) => Err(error),
            Ok(Some(why)) => Ok(Err(why)),
            Ok(None) => {
                let op = Op::Fill {
                    locator: locator.clone(),
                    value: planwright_objectives::resolve::ValueSpec {
                        kind: planwright_objectives::resolve::ValueKind::Placeholder,
                        value: String::new(),
                    },
                };
                self.carry_out(&op, Some(value)).map(Ok)
            }
        };
        async move { result }.boxed()
    }

    fn frame_texts(&self) -> Driven<'_, Vec<FrameText>> {
        let state = self.lock();
        let mut frames: Vec<FrameText> = vec![FrameText { url: url(&state.screen.path), text: String::new() }];
        for (frame, line) in state.screen.text_lines() {
            let at = match frames.iter().position(|f| f.url == frame) {
                Some(at) => at,
                None => {
                    frames.push(FrameText { url: frame, text: String::new() });
                    frames.len() - 1
                }
            };
            let text = &mut frames[at].text;
            if !text.is_empty() {
                text.push('\n');
            }
            text.push_str(&line);
        }
        async move { Ok(frames) }.boxed()
    }

    fn announced_since(&self, since_ms: u64) -> Driven<'_, Vec<Announcement>> {
        let said: Vec<Announcement> =
            self.lock().announced.iter().filter(|(at, _)| *at >= since_ms).map(|(_, a)| a.clone()).collect();
        async move { Ok(said) }.boxed()
    }

    /// A scripted request is answered at once, or never.
    fn requests_since(&self, since_ms: u64) -> Vec<RequestRecord> {
        self.lock().requests.iter().filter(|(at, _)| *at >= since_ms).map(|(_, r)| r.clone()).collect()
    }

    /// A scripted page has no clock: nothing on it changes unless an action makes it.
    fn changing_on_its_own(&self, _before_ms: u64) -> Driven<'_, Vec<String>> {
        async move { Ok(Vec::new()) }.boxed()
    }

    fn still_for(&self) -> Driven<'_, Duration> {
        let still = if self.lock().screen.loading { Duration::ZERO } else { Duration::from_secs(60) };
        async move { Ok(still) }.boxed()
    }

    fn shows_loading(&self) -> Driven<'_, bool> {
        let loading = self.lock().screen.loading;
        async move { Ok(loading) }.boxed()
    }

    fn at_bottom(&self) -> Driven<'_, bool> {
        async { Ok(true) }.boxed()
    }

    fn collapsed_sections(&self) -> Driven<'_, Vec<String>> {
        async { Ok(Vec::new()) }.boxed()
    }

    fn text_fields(&self) -> Driven<'_, Vec<FieldMarkup>> {
        let fields: Vec<FieldMarkup> = self
            .lock()
            .screen
            .visible()
            .filter(|e| e.frame.is_empty() && ["textbox", "searchbox", "spinbutton"].contains(&e.role.as_str()))
            .map(|e| FieldMarkup {
                tag: "input".into(),
                r#type: "text".into(),
                name: String::new(),
                id: format!("e{}", e.id),
                placeholder: String::new(),
            })
            .collect();
        async move { Ok(fields) }.boxed()
    }

    fn download_count(&self) -> usize {
        0
    }

    fn downloads_after(&self, _count: usize, _timeout: Duration) -> Driven<'_, Vec<Download>> {
        async { Ok(Vec::new()) }.boxed()
    }

    fn save_downloads_to<'a>(&'a self, _dir: &'a Path) -> Driven<'a, ()> {
        async { Ok(()) }.boxed()
    }

    fn screenshot(&self) -> Driven<'_, Vec<u8>> {
        async { Ok(picture()) }.boxed()
    }
}
