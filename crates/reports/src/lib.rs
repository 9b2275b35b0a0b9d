//! Reports of a run, written from its record alone — the events `RunStore::events` returns and
//! the plan text it ran — objective by objective, for the people and tools that read test
//! results:
//!
//! - [`junit`]: JUnit XML, one test case per objective of every `browser.run_objectives` node
//!   (its recovery steps and actions inside it), one per node for the others;
//! - [`html`]: one self-contained page (inline CSS, screenshots embedded) a QA engineer attaches
//!   to a ticket, in the reader's language and time zone ([`ReportOptions`]);
//! - [`allure`]: an `allure-results` folder, one result per browser node, one step per
//!   objective, recovery steps nested in theirs, screenshots attached.
//!
//! [`RunRecord::from_events`] rebuilds each node's objectives as the studio's run view does (a
//! `planned` event gives every step, a recovery is inserted after the step in progress, any
//! other change replaces its step) and keeps the planning history and the task loop's passes
//! in the order they happened. Events are masked before they are recorded, so a report holds no
//! secret; nothing else is read but the screenshot files the record names. No event sequence
//! makes a report panic.
//!
//! Knows the run record and the plan format; nothing of the engine, the browser or any UI.

mod allure;
mod error;
mod format;
mod html;
mod junit;
mod objectives;
mod record;
mod screenshot;
mod text;
mod words;

pub use allure::allure;
pub use error::ReportError;
pub use format::Format;
pub use html::html;
pub use junit::junit;
pub use objectives::{Objectives, Step, StepAction, StepEntry};
pub use record::{Artifact, HistoryEntry, HistoryKind, Logged, NodeOutcome, NodeRecord, RunRecord};
pub use words::ReportOptions;
