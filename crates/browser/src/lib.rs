//! Drives Chromium through the DevTools protocol and sees pages as assistive technology does.
//!
//! A [`BrowserSession`] launches the system Chromium (or attaches to a running one), follows the
//! page it drives (dialogs answered by policy, new tabs followed, requests in flight counted),
//! takes accessibility [`Snapshot`]s in Playwright's aria snapshot format with stable refs,
//! resolves [`Locator`]s with Playwright's semantics and strictness, and acts with real input
//! events after Playwright's actionability checks, reporting what each action changed.
//!
//! Engine crate: it knows nothing of plans, runs or the UI.

mod act;
mod activity;
mod backoff;
mod cdp;
mod download;
mod effects;
mod error;
mod js;
mod keys;
mod locate;
mod process;
mod refs;
mod roles;
mod session;
mod settle;
mod snapshot;
mod tree;

pub use act::{ActOptions, ActionReport, FieldRefusal, ScreenshotTarget, Table, Timing, WaitCondition};
pub use backoff::Backoff;
pub use download::Download;
pub use effects::{Announcement, AnnouncementKind, FrameText, InvalidField, RequestKind, RequestRecord};
pub use error::BrowserError;
pub use locate::{text_matches, Candidate, FieldFacts, Locator};
pub use roles::{is_interactive, INTERACTIVE};
pub use session::{find_chromium, BrowserSession, DialogPolicy, DialogRecord, LaunchOptions, VIEWPORT};
pub use snapshot::{estimate_tokens, interactive_in_text, Snapshot, SnapshotElement, SnapshotMode, SnapshotOptions};
