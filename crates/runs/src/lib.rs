//! Planwright run records: the event model, written as JSONL per run and into SQLite under the
//! data home. It knows nothing of how runs execute.
//!
//! - [`DataHome`]: where the state lives (`$PLANWRIGHT_HOME` or the platform data folder).
//! - [`RunStore`]: `runs.db`, the source of truth for listing and resuming runs.
//! - [`RunRecorder`]: records one run's events (seq 1, 2, 3 … across resumes) into SQLite and the
//!   run's JSONL log `runs/<plan_id>/<run_id>.jsonl`.
//!
//! `docs/events.md` documents the events, the files and how statuses are derived.

mod bounded;
mod db;
mod error;
mod event;
mod home;
mod input;
mod lock;
mod message;
mod names;
pub mod objective;
pub mod planning;
mod recorder;
pub mod said;
mod store;

pub use bounded::{bounded, bounded_strings, REPEATED_TEXT_CHARS};
pub use db::DB_SCHEMA_VERSION;
pub use error::StoreError;
pub use event::*;
pub use home::{new_run_id, DataHome, HOME_ENV};
pub use input::*;
pub use message::{Reason, RunMessage};
pub use recorder::RunRecorder;
pub use store::{RunStore, RunSummary};

/// Format of event times: RFC 3339, UTC, milliseconds (`2025-03-14T09:26:53.589Z`).
const TIME_FORMAT: &[time::format_description::BorrowedFormatItem<'static>] =
    time::macros::format_description!("[year]-[month]-[day]T[hour]:[minute]:[second].[subsecond digits:3]Z");

/// The current time as written in events.
pub(crate) fn now_utc() -> String {
    let now = time::OffsetDateTime::now_utc();
    now.format(TIME_FORMAT).unwrap_or_else(|_| now.unix_timestamp().to_string())
}

#[cfg(test)]
mod tests {
    #[test]
    fn times_are_rfc3339_utc_with_milliseconds() {
        let at = super::now_utc();
        assert_eq!(at.len(), "2025-03-14T09:26:53.589Z".len(), "{at}");
        for (i, c) in at.char_indices() {
            let expected = match i {
                4 | 7 => '-',
                10 => 'T',
                13 | 16 => ':',
                19 => '.',
                23 => 'Z',
                _ => {
                    assert!(c.is_ascii_digit(), "{at}");
                    continue;
                }
            };
            assert_eq!(c, expected, "{at}");
        }
        let fixed = time::macros::datetime!(2025-03-14 09:26:53.589_9 UTC);
        assert_eq!(fixed.format(super::TIME_FORMAT).unwrap(), "2025-03-14T09:26:53.589Z");
    }
}
