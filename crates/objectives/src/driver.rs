//! What the runner needs of a page, as one trait: [`PageDriver`]. The runner decides (what a
//! step asks, which element, whether an action changes the world, whether it worked); the
//! driver reads and acts on the page. [`BrowserSession`](planwright_browser::BrowserSession)
//! implements it for Chromium ([`chromium`]); a scripted page implements it for the runner's
//! table tests, so that the task loop, approaches, effects and escalation are tested without a
//! browser where a browser adds nothing.

mod chromium;

use std::path::Path;
use std::time::Duration;

use futures::future::BoxFuture;
use planwright_browser::{
    ActOptions, ActionReport, Announcement, BrowserError, Candidate, Download, FieldRefusal, FrameText, Locator,
    RequestRecord,
};

use crate::fields::FieldMarkup;
use crate::resolve::Op;

/// A result of the driver, later.
pub type Driven<'a, T> = BoxFuture<'a, Result<T, BrowserError>>;

/// A page the runner drives: what it shows, what is on it, and the operations that act on it
/// with a report of their effects (requests, announcements, dialogs, downloads, new tabs).
pub trait PageDriver: Send + Sync {
    /// The address of the driven page.
    fn url(&self) -> Driven<'_, String>;
    /// The driven page's title.
    fn title(&self) -> Driven<'_, String>;
    /// The interactive snapshot (`- button "Pay" [ref=e3]` lines, [`crate::page::Page::parse`]
    /// reads it), at most about `token_budget` tokens.
    fn snapshot_text(&self, token_budget: usize) -> Driven<'_, String>;
    /// The elements `locator` matches now, in document order.
    fn resolve<'a>(&'a self, locator: &'a Locator) -> Driven<'a, Vec<Candidate>>;
    /// The words around an element (its row, card, form or dialog).
    fn surroundings<'a>(&'a self, candidate: &'a Candidate) -> Driven<'a, String>;
    /// What a field holds now.
    fn field_value<'a>(&'a self, candidate: &'a Candidate) -> Driven<'a, String>;
    /// Whether an element can be seen.
    fn is_visible<'a>(&'a self, candidate: &'a Candidate) -> Driven<'a, bool>;
    /// Carries `op` out (a fill types its value as it is: a secret goes through
    /// [`PageDriver::fill_where`]).
    fn act<'a>(&'a self, op: &'a Op, options: &'a ActOptions) -> Driven<'a, ActionReport>;
    /// Types `value` into the field `locator` names once `refusal` has let that very field have
    /// it; `Ok(Err(why))` when it did not.
    fn fill_where<'a>(
        &'a self,
        locator: &'a Locator,
        value: &'a str,
        options: &'a ActOptions,
        refusal: &'a FieldRefusal<'a>,
    ) -> Driven<'a, Result<ActionReport, String>>;
    /// Every frame's visible text, the top document first.
    fn frame_texts(&self) -> Driven<'_, Vec<FrameText>>;
    /// What status and alert regions and toasts announced since `since_ms` (ms since the epoch).
    fn announced_since(&self, since_ms: u64) -> Driven<'_, Vec<Announcement>>;
    /// The lines shown now of elements that changed on their own in the seconds before
    /// `before_ms` (a clock, a rotating banner, a score): never an action's evidence.
    fn changing_on_its_own(&self, before_ms: u64) -> Driven<'_, Vec<String>>;
    /// The requests the page started since `since_ms` (ms since the Unix epoch), with the
    /// answers known now: those an action's report had not yet.
    fn requests_since(&self, since_ms: u64) -> Vec<RequestRecord>;
    /// How long the page has been still.
    fn still_for(&self) -> Driven<'_, Duration>;
    /// Whether the page says it is loading.
    fn shows_loading(&self) -> Driven<'_, bool>;
    /// Whether the page is scrolled to its end.
    fn at_bottom(&self) -> Driven<'_, bool>;
    /// The names of the collapsed disclosures (sections) shown.
    fn collapsed_sections(&self) -> Driven<'_, Vec<String>>;
    /// The visible text fields of the top document, as their markup has them, in order.
    fn text_fields(&self) -> Driven<'_, Vec<FieldMarkup>>;
    /// How many downloads began so far.
    fn download_count(&self) -> usize;
    /// The downloads after the first `count`, once they have finished (within `timeout`).
    fn downloads_after(&self, count: usize, timeout: Duration) -> Driven<'_, Vec<Download>>;
    /// Where downloads are saved from now on.
    fn save_downloads_to<'a>(&'a self, dir: &'a Path) -> Driven<'a, ()>;
    /// A PNG of the viewport.
    fn screenshot(&self) -> Driven<'_, Vec<u8>>;
}
