//! [`PageDriver`] for Chromium: the browser driver's session, and the few page reads of the
//! runner's own (which fields are text fields, which sections are collapsed) as scripts.

use std::path::Path;
use std::time::Duration;

use futures::FutureExt;
use planwright_browser::{
    ActOptions, ActionReport, Announcement, BrowserSession, Candidate, Download, FieldRefusal, FrameText, Locator,
    RequestRecord, ScreenshotTarget, SnapshotMode, SnapshotOptions,
};
use serde::de::DeserializeOwned;

use super::{Driven, PageDriver};
use crate::fields::FieldMarkup;
use crate::resolve::Op;

/// The visible text fields of the top document, in document order: those the snapshot shows as
/// `textbox`, `searchbox` or `spinbutton` (inputs that type text, text areas; not choices).
const TEXT_FIELDS: &str = r#"(() => {
  const choices = new Set(['checkbox', 'radio', 'button', 'submit', 'reset', 'hidden', 'file', 'range', 'image']);
  const shown = (e) => {
    const style = getComputedStyle(e);
    const box = e.getBoundingClientRect();
    return style.visibility !== 'hidden' && style.display !== 'none' && (box.width > 0 || box.height > 0);
  };
  return [...document.querySelectorAll('input, textarea')]
    .filter((e) => !(e.tagName === 'INPUT' && (choices.has(e.type) || e.hasAttribute('list'))))
    .filter((e) => !['combobox', 'listbox'].includes(e.getAttribute('role') || '') && shown(e))
    .map((e) => ({ tag: e.tagName.toLowerCase(), type: e.type || '', name: e.name || '', id: e.id || '',
                   placeholder: e.placeholder || '' }));
})()"#;

/// The names of the collapsed disclosures shown: an element of a kind that the accessibility
/// tree shows alike and only the markup tells apart.
const COLLAPSED: &str = r#"[...document.querySelectorAll('[aria-expanded="false"], details:not([open]) > summary, [aria-controls]')]
  .filter((e) => !e.hasAttribute('aria-controls') || e.getAttribute('aria-expanded') === 'false'
    || (document.getElementById(e.getAttribute('aria-controls')) || {}).hidden === true)
  .filter((e) => e.getClientRects().length > 0)
  .map((e) => (e.getAttribute('aria-label') || e.textContent || '').replace(/\s+/g, ' ').trim())"#;

const AT_BOTTOM: &str = "window.scrollY + window.innerHeight >= document.documentElement.scrollHeight - 2";

/// A script's answer as `T`; an answer of another shape reads as `T`'s default (the page
/// replaced a built-in, say), which the runner treats as "nothing of the kind".
async fn read<T: DeserializeOwned + Default>(
    session: &BrowserSession,
    script: &str,
) -> Result<T, planwright_browser::BrowserError> {
    Ok(serde_json::from_value(session.evaluate(script).await?).unwrap_or_default())
}

impl PageDriver for BrowserSession {
    fn url(&self) -> Driven<'_, String> {
        BrowserSession::url(self).boxed()
    }

    fn title(&self) -> Driven<'_, String> {
        read(self, "document.title").boxed()
    }

    fn snapshot_text(&self, token_budget: usize) -> Driven<'_, String> {
        async move {
            let options =
                SnapshotOptions { mode: SnapshotMode::Interactive, scope: None, token_budget: Some(token_budget) };
            Ok(self.snapshot(&options).await?.text)
        }
        .boxed()
    }

    fn resolve<'a>(&'a self, locator: &'a Locator) -> Driven<'a, Vec<Candidate>> {
        BrowserSession::resolve(self, locator).boxed()
    }

    fn surroundings<'a>(&'a self, candidate: &'a Candidate) -> Driven<'a, String> {
        BrowserSession::surroundings(self, candidate).boxed()
    }

    fn field_value<'a>(&'a self, candidate: &'a Candidate) -> Driven<'a, String> {
        BrowserSession::field_value(self, candidate).boxed()
    }

    fn is_visible<'a>(&'a self, candidate: &'a Candidate) -> Driven<'a, bool> {
        BrowserSession::is_visible(self, candidate).boxed()
    }

    fn act<'a>(&'a self, op: &'a Op, options: &'a ActOptions) -> Driven<'a, ActionReport> {
        async move {
            match op {
                Op::Navigate { url } => self.navigate(url, options).await,
                Op::Click { locator, .. } => self.click(locator, options).await,
                Op::Fill { locator, value } => self.fill(locator, &value.value, options).await,
                Op::Select { locator, option } => {
                    self.select_option(locator, std::slice::from_ref(option), options).await
                }
                Op::Check { locator, on } => self.set_checked(locator, *on, options).await,
                Op::Press { locator, key } => self.press(locator.as_ref(), key, options).await,
                Op::Hover { locator } => self.hover(locator, options).await,
                Op::Scroll { down } => self.scroll(None, 0.0, if *down { 600.0 } else { -600.0 }, options).await,
                Op::Back => self.go_back(options).await,
            }
        }
        .boxed()
    }

    fn fill_where<'a>(
        &'a self,
        locator: &'a Locator,
        value: &'a str,
        options: &'a ActOptions,
        refusal: &'a FieldRefusal<'a>,
    ) -> Driven<'a, Result<ActionReport, String>> {
        BrowserSession::fill_where(self, locator, value, options, refusal).boxed()
    }

    fn frame_texts(&self) -> Driven<'_, Vec<FrameText>> {
        BrowserSession::frame_texts(self).boxed()
    }

    fn announced_since(&self, since_ms: u64) -> Driven<'_, Vec<Announcement>> {
        BrowserSession::announced_since(self, since_ms).boxed()
    }

    fn changing_on_its_own(&self, before_ms: u64) -> Driven<'_, Vec<String>> {
        BrowserSession::changing_on_its_own(self, before_ms).boxed()
    }

    fn requests_since(&self, since_ms: u64) -> Vec<RequestRecord> {
        BrowserSession::requests_since(self, since_ms)
    }

    fn still_for(&self) -> Driven<'_, Duration> {
        BrowserSession::still_for(self).boxed()
    }

    fn shows_loading(&self) -> Driven<'_, bool> {
        BrowserSession::shows_loading(self).boxed()
    }

    fn at_bottom(&self) -> Driven<'_, bool> {
        async move { Ok(self.evaluate(AT_BOTTOM).await?.as_bool().unwrap_or(true)) }.boxed()
    }

    fn collapsed_sections(&self) -> Driven<'_, Vec<String>> {
        read(self, COLLAPSED).boxed()
    }

    fn text_fields(&self) -> Driven<'_, Vec<FieldMarkup>> {
        read(self, TEXT_FIELDS).boxed()
    }

    fn download_count(&self) -> usize {
        BrowserSession::download_count(self)
    }

    fn downloads_after(&self, count: usize, timeout: Duration) -> Driven<'_, Vec<Download>> {
        BrowserSession::downloads_after(self, count, timeout).boxed()
    }

    fn save_downloads_to<'a>(&'a self, dir: &'a Path) -> Driven<'a, ()> {
        BrowserSession::save_downloads_to(self, dir).boxed()
    }

    fn screenshot(&self) -> Driven<'_, Vec<u8>> {
        async move { BrowserSession::screenshot(self, &ScreenshotTarget::Viewport, &ActOptions::default()).await }
            .boxed()
    }
}
