//! What an action caused beyond the elements it changed — the requests it started, what the page
//! announced meanwhile (status and alert regions, toasts), the fields it left invalid — and the
//! visible text of every frame: a confirmation can show inside another site's frame, or only for
//! a moment.

use serde::Serialize;
use serde_json::{json, Value};

use crate::error::BrowserError;
use crate::js::{DocumentFn, ElementFn};
use crate::roles::is_interactive;
use crate::session::BrowserSession;
use crate::tree::{elements, PageTree};

/// What kind of request an action started.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum RequestKind {
    /// A page or a frame loading: a link followed, a form posted the classic way.
    Document,
    /// `fetch()`.
    Fetch,
    /// `XMLHttpRequest`.
    Xhr,
    /// `navigator.sendBeacon` or a link's ping.
    Beacon,
    /// Anything else kept: a script, a request Chromium does not type.
    Other,
}

/// A request an action started, from any frame (images, fonts, style sheets, media, prefetches,
/// CORS preflights, event streams and web sockets are left out). Its address is as the page
/// asked for it, query included; its body and headers are never kept.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct RequestRecord {
    /// `GET`, `POST`, `PUT`… (the first one, when a redirect changed it).
    pub method: String,
    /// The address asked for (the first one, when it was redirected).
    pub url: String,
    /// The HTTP status of the (last) answer; `None` while unanswered when the action's settling
    /// ended, or when it failed without one.
    pub status: Option<u16>,
    pub kind: RequestKind,
    /// Why it failed (`net::ERR_CONNECTION_REFUSED`, `net::ERR_ABORTED`), when it did.
    pub error: Option<String>,
}

impl RequestRecord {
    /// It may have changed something on the server: any method but `GET`, `HEAD` and `OPTIONS`.
    pub fn is_write(&self) -> bool {
        !["GET", "HEAD", "OPTIONS"].iter().any(|safe| self.method.eq_ignore_ascii_case(safe))
    }

    /// The server answered with an error: a 4xx or a 5xx.
    pub fn refused(&self) -> bool {
        self.status.is_some_and(|status| status >= 400)
    }
}

/// Whether an announcement looks like an error.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum AnnouncementKind {
    /// A status, a live region's news, a toast.
    Status,
    /// An error: a `role=alert` region, a toast whose class or id says error (`toast-error`,
    /// `flash-danger`), or the message of a field that turned `aria-invalid="true"`.
    Alert,
}

/// A text a frame showed in a status, alert or live region (`role=status|alert|alertdialog|log`,
/// `aria-live=polite|assertive`, `<output>`), in a toast, snackbar, notification, flash or message
/// (by class or id), or as the message of a field turned `aria-invalid="true"`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Announcement {
    /// The region's visible text when it changed, whitespace collapsed, at most 300 characters.
    pub text: String,
    pub kind: AnnouncementKind,
    /// The address of the frame that showed it (the page's own for the main frame).
    pub frame_url: String,
    /// The same element announced twice or more in the 10 s before the action (a clock, a
    /// countdown, a rotating banner, a score): the page's own news rather than the action's
    /// effect. A status line an earlier action wrote once is not ongoing.
    pub ongoing: bool,
}

/// A field marked `aria-invalid="true"`, in any frame.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct InvalidField {
    /// Its role (`textbox`, `combobox`, `checkbox`…).
    pub role: String,
    /// Its accessible name, as snapshots show it.
    pub name: String,
    /// What the page says is wrong: the text of its `aria-errormessage`, else of its
    /// `aria-describedby`, else the browser's validation message; may be empty.
    pub message: String,
}

/// The visible text of one frame.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct FrameText {
    /// The frame's address.
    pub url: String,
    /// Its rendered text (`innerText` of its body: hidden elements left out); empty for a frame
    /// that is not rendered.
    pub text: String,
}

/// The most text [`BrowserSession::frame_texts`] gives, all frames together (as much as the
/// runner keeps of one page).
const MAX_FRAME_TEXT: usize = 200_000;

/// How long before an action a page's own changes say that it keeps changing: three turns of a
/// banner that rotates every 2 s.
const RESTLESS_SPAN_MS: u64 = 6_000;
/// The most lines [`BrowserSession::changing_on_its_own`] gives, all frames together…
const MAX_RESTLESS_LINES: usize = 300;
/// …each at most this many characters (a longer line is given cut).
const MAX_RESTLESS_LINE: usize = 500;

impl BrowserSession {
    /// The visible text of every frame of the driven page, same- and cross-origin, the main frame
    /// first, at most 200,000 characters in all (the frames read last are cut first).
    pub async fn frame_texts(&self) -> Result<Vec<FrameText>, BrowserError> {
        let mut left = MAX_FRAME_TEXT;
        let mut texts = Vec::new();
        for (frame, answer) in self.in_every_frame(DocumentFn::VisibleText, vec![json!(MAX_FRAME_TEXT)]).await? {
            let text: String = answer.as_str().unwrap_or_default().chars().take(left).collect();
            left -= text.chars().count();
            texts.push(FrameText { url: frame.url, text });
        }
        Ok(texts)
    }

    /// The visible lines, in every frame of the driven page, of the elements whose text changed
    /// on its own — twice or more, a second apart, or once from a timer of the page's own that
    /// repeats (an interval, a chain of timeouts), in the 6 s before `before_ms` (milliseconds
    /// since the Unix epoch), and not changed by an input since. On its own: inside a timer the
    /// page set with nothing of the person's behind it, whenever it fires; otherwise neither
    /// within 1.5 s of an input (pointer, key, text, focus) nor within 1.5 s of the answer to a
    /// request started meanwhile nor inside a timer set meanwhile. A clock, a countdown, a
    /// rotating banner, a score: none of them evidence that an action worked. A rewritten text counts, and so does
    /// a short element shown or hidden (a carousel's slide); a text written once where there was
    /// none does not. Lines are as [`BrowserSession::frame_texts`] splits the text (trimmed, not
    /// empty; an element inside a sentence gives the sentence's line), as they are now, each
    /// once, at most 300, each cut at 500 characters.
    pub async fn changing_on_its_own(&self, before_ms: u64) -> Result<Vec<String>, BrowserError> {
        let args = vec![json!(before_ms), json!(RESTLESS_SPAN_MS), json!(MAX_RESTLESS_LINES), json!(MAX_RESTLESS_LINE)];
        let mut lines: Vec<String> = Vec::new();
        for (_, answer) in self.in_every_frame(DocumentFn::Restless, args).await? {
            for line in answer.as_array().into_iter().flatten().filter_map(Value::as_str) {
                // Bounded here as well: the answer comes from the page, whose script can change what it runs on.
                let line: String = line.trim().chars().take(MAX_RESTLESS_LINE).collect();
                if line.is_empty() || lines.contains(&line) {
                    continue;
                }
                if lines.len() == MAX_RESTLESS_LINES {
                    return Ok(lines);
                }
                lines.push(line);
            }
        }
        Ok(lines)
    }

    /// What every frame of the driven page announced at or after `since_ms` (milliseconds since
    /// the Unix epoch, as [`crate::ActionReport::acted_at_ms`]), each text once per frame. A
    /// caller that waits after an action can ask again with the action's `acted_at_ms`: the
    /// pages keep their latest 50 announcements.
    pub async fn announced_since(&self, since_ms: u64) -> Result<Vec<Announcement>, BrowserError> {
        let mut announced: Vec<Announcement> = Vec::new();
        for (frame, answer) in self.in_every_frame(DocumentFn::Announced, vec![json!(since_ms)]).await? {
            for item in answer.as_array().into_iter().flatten() {
                let Some(text) = item["text"].as_str() else { continue };
                let kind = if item["kind"] == "alert" { AnnouncementKind::Alert } else { AnnouncementKind::Status };
                let announcement = Announcement {
                    text: text.to_owned(),
                    kind,
                    frame_url: frame.url.clone(),
                    ongoing: item["ongoing"].as_bool().unwrap_or(false),
                };
                if !announced.contains(&announcement) {
                    announced.push(announcement);
                }
            }
        }
        Ok(announced)
    }

    /// The fields of `tree` marked `aria-invalid="true"`, with their messages.
    pub(crate) async fn invalid_fields(&self, tree: &PageTree) -> Result<Vec<InvalidField>, BrowserError> {
        let items = tree.items(None);
        let mut fields = Vec::new();
        // Chromium's tree marks them (and fields whose value their type refuses, which the page
        // itself does not call invalid: the page function tells them apart).
        for element in elements(&items).into_iter().filter(|e| e.states.invalid && is_interactive(e.role)) {
            let Ok(object) = self.object_of(&element.key).await else { continue };
            let message = match self.call_element(&object, ElementFn::InvalidMessage, Vec::new()).await {
                Ok(Value::String(message)) => message,
                Ok(_) | Err(BrowserError::Protocol { .. }) => continue,
                Err(e) => return Err(e),
            };
            fields.push(InvalidField { role: element.role.to_owned(), name: element.name.clone(), message });
        }
        Ok(fields)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn request(method: &str, status: Option<u16>) -> RequestRecord {
        RequestRecord {
            method: method.into(),
            url: "http://127.0.0.1/api".into(),
            status,
            kind: RequestKind::Fetch,
            error: None,
        }
    }

    #[test]
    fn writes_are_every_method_but_the_safe_ones() {
        assert!(request("POST", None).is_write());
        assert!(request("delete", Some(204)).is_write());
        assert!(!request("GET", Some(200)).is_write());
        assert!(!request("options", Some(204)).is_write());
    }

    #[test]
    fn refusals_are_answers_from_400() {
        assert!(request("POST", Some(422)).refused());
        assert!(request("POST", Some(503)).refused());
        assert!(!request("POST", Some(302)).refused());
        assert!(!request("POST", None).refused());
    }
}
