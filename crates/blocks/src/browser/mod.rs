//! The browser blocks: `browser.navigate`, `browser.click`, `browser.fill`,
//! `browser.extract_table` and `browser.screenshot`, on the `planwright-browser` driver.
//!
//! A run has one browser session (`planwright_block::BrowserSlot`, filled by
//! `planwright_browser_port`): the first browser step starts it, the steps after it share it
//! (the engine lets them take turns), a session that died is replaced by a fresh one at the next
//! step, and the run ends it whatever its outcome. A plan without browser
//! steps never starts Chromium.
//!
//! Where the browser comes from (`BrowserSettings::from_env`):
//! - `CHROME`: the Chromium (or Chrome) binary to launch; empty or unset, the driver looks for
//!   the system's (`/usr/bin/chromium`, …).
//! - `PLANWRIGHT_BROWSER_WS`: the DevTools address of a browser already running
//!   (`ws://host:port/devtools/browser/<id>` or `http://host:port`); the run attaches to it and
//!   drives a page of its own, which it closes at the end, leaving the browser running.
//! - `PLANWRIGHT_BROWSER_HEADED`: `1` or `true` shows the launched browser's window, to watch a
//!   run; headless otherwise.
//!
//! Each action logs one line: what was done to which element, the page's URL afterwards, the
//! time taken, dialogs answered and a new tab followed. The text typed by `browser.fill` is never
//! logged nor repeated in an error: it may be a password.

mod blocks;

pub(crate) use blocks::blocks;
