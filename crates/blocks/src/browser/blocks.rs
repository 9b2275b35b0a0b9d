//! The five direct browser blocks. Each checks its inputs before the browser starts, takes the
//! run's session from the slot, acts once with the driver's default waits, and logs one line.

use std::future::Future;
use std::sync::Arc;
use std::time::Instant;

use futures::future::BoxFuture;
use planwright_block::{Block, BlockContext, BlockError, Values};
use planwright_browser::{ActOptions, ActionReport, BrowserError, Candidate, Locator, ScreenshotTarget};
use planwright_browser_port::{browser_reason, BrowserSlotSession};
use planwright_runs::{ArtifactKind, LogLevel, Reason, RunMessage};
use reqwest::Url;
use serde_json::{Map, Value};

use crate::cells::{describe, input};
use crate::files;

/// What the `url` input is, for messages.
const URL_EXAMPLE: &str = "the address to open, e.g. https://portal.example.co.jp/login";
/// How a locator is written, for messages.
const LOCATOR_EXAMPLE: &str = "role (with name), test_id or text, e.g. {role: button, name: \"Log in\"}";

pub(crate) fn blocks() -> Vec<Arc<dyn Block>> {
    vec![Arc::new(Navigate), Arc::new(Click), Arc::new(Fill), Arc::new(ExtractTable), Arc::new(Screenshot)]
}

/// `browser.navigate`.
struct Navigate;
/// `browser.click`.
struct Click;
/// `browser.fill`.
struct Fill;
/// `browser.extract_table`.
struct ExtractTable;
/// `browser.screenshot`.
struct Screenshot;

impl Block for Navigate {
    fn id(&self) -> &'static str {
        "browser.navigate"
    }

    fn run<'a>(&'a self, inputs: Values, ctx: &'a BlockContext) -> BoxFuture<'a, Result<Values, BlockError>> {
        Box::pin(cancellable(ctx, navigate(inputs, ctx)))
    }
}

impl Block for Click {
    fn id(&self) -> &'static str {
        "browser.click"
    }

    fn run<'a>(&'a self, inputs: Values, ctx: &'a BlockContext) -> BoxFuture<'a, Result<Values, BlockError>> {
        Box::pin(cancellable(ctx, click(inputs, ctx)))
    }
}

impl Block for Fill {
    fn id(&self) -> &'static str {
        "browser.fill"
    }

    fn run<'a>(&'a self, inputs: Values, ctx: &'a BlockContext) -> BoxFuture<'a, Result<Values, BlockError>> {
        Box::pin(cancellable(ctx, fill(inputs, ctx)))
    }
}

impl Block for ExtractTable {
    fn id(&self) -> &'static str {
        "browser.extract_table"
    }

    fn run<'a>(&'a self, inputs: Values, ctx: &'a BlockContext) -> BoxFuture<'a, Result<Values, BlockError>> {
        Box::pin(cancellable(ctx, extract_table(inputs, ctx)))
    }
}

impl Block for Screenshot {
    fn id(&self) -> &'static str {
        "browser.screenshot"
    }

    fn run<'a>(&'a self, inputs: Values, ctx: &'a BlockContext) -> BoxFuture<'a, Result<Values, BlockError>> {
        Box::pin(cancellable(ctx, screenshot(inputs, ctx)))
    }
}

/// `work`, unless the run stops or the node times out first: then it is dropped, which ends the
/// driver's calls (and a launch under way) where they are.
async fn cancellable(
    ctx: &BlockContext,
    work: impl Future<Output = Result<Values, BlockError>>,
) -> Result<Values, BlockError> {
    tokio::select! {
        biased;
        _ = ctx.cancel.cancelled() => Err(BlockError::Cancelled),
        result = work => result,
    }
}

async fn navigate(inputs: Values, ctx: &BlockContext) -> Result<Values, BlockError> {
    let given = input::text(&inputs, "url", URL_EXAMPLE)?;
    // A `{{NAME}}` placeholder (a token in the address) is filled only now.
    let url = address(&ctx.secrets.fill(given)?)?;
    let session = ctx.browser.session(ctx).await?;
    let report = session.navigate(url.as_str(), &ActOptions::default()).await.map_err(driver)?;
    let title = session.evaluate("document.title").await.map_err(driver)?;
    ctx.log(LogLevel::Info, summary(&report));
    let mut out = Values::new();
    out.insert("url".into(), Value::String(report.url));
    out.insert("title".into(), Value::String(title.as_str().unwrap_or_default().to_owned()));
    Ok(out)
}

async fn click(inputs: Values, ctx: &BlockContext) -> Result<Values, BlockError> {
    let locator = required_locator(&inputs)?;
    let session = ctx.browser.session(ctx).await?;
    let report = session.click(&locator, &ActOptions::default()).await.map_err(driver)?;
    ctx.log(LogLevel::Info, summary(&report));
    Ok(url_output(report))
}

async fn fill(inputs: Values, ctx: &BlockContext) -> Result<Values, BlockError> {
    let locator = required_locator(&inputs)?;
    let value = match input::required(&inputs, "value", "the text to type, e.g. ${secrets.PORTAL_PASSWORD}")? {
        Value::String(text) => text.clone(),
        number @ Value::Number(_) => number.to_string(),
        Value::Bool(flag) => flag.to_string(),
        other => return Err(BlockError::input(format!("`value` must be text, not {}", describe(other)))),
    };
    // A `{{NAME}}` placeholder becomes its secret's value only now, registered for masking first.
    let value = ctx.secrets.fill(&value)?;
    let session = ctx.browser.session(ctx).await?;
    // The driver's messages never repeat the value typed: it may be a password.
    let report = session.fill(&locator, &value, &ActOptions::default()).await.map_err(driver)?;
    ctx.log(LogLevel::Info, summary(&report));
    Ok(url_output(report))
}

async fn extract_table(inputs: Values, ctx: &BlockContext) -> Result<Values, BlockError> {
    let locator = locator(&inputs)?;
    let allow_empty = input::boolean(&inputs, "allow_empty", false)?;
    let session = ctx.browser.session(ctx).await?;
    let started = Instant::now();
    let options = ActOptions::default();
    let table = session.extract_table_rows(locator.as_ref(), &options, !allow_empty).await.map_err(driver)?;
    let url = session.url().await.map_err(driver)?;
    let which = locator.as_ref().map_or_else(|| "the first table".to_owned(), ToString::to_string);
    if table.rows.is_empty() && !allow_empty {
        let seconds = options.timeout.as_secs();
        let text = format!(
            "{which} at {url} had no rows after waiting {seconds} s for them; the next steps get an empty list (set \
             allow_empty: true when an empty table is expected)"
        );
        let said = RunMessage::TableEmpty { url: url.clone(), seconds };
        ctx.log(LogLevel::Warn, Reason::said(said, text));
    }
    let ms = started.elapsed().as_millis() as u64;
    let headers = table.headers.join(", ");
    let text = format!(
        "extract_table {which} at {url}: {} row{} × {} column{} ({headers}) in {ms} ms",
        table.rows.len(),
        plural(table.rows.len()),
        table.headers.len(),
        plural(table.headers.len()),
    );
    let said = RunMessage::TableExtracted {
        url,
        rows: table.rows.len() as u64,
        columns: table.headers.len() as u64,
        headers,
        ms,
    };
    ctx.log(LogLevel::Info, Reason::said(said, text));
    let mut out = Values::new();
    out.insert("rows".into(), Value::Array(table.rows.into_iter().map(Value::Object).collect()));
    Ok(out)
}

async fn screenshot(inputs: Values, ctx: &BlockContext) -> Result<Values, BlockError> {
    let shown = input::text(&inputs, "path", "where to save the PNG, e.g. evidence/2024-04/paid.png")?.to_owned();
    let full_page = input::boolean(&inputs, "full_page", false)?;
    let target = match (locator(&inputs)?, full_page) {
        (Some(_), true) => {
            return Err(BlockError::input(
                "give either full_page: true (the whole page) or a locator (one element), not both",
            ))
        }
        (Some(locator), false) => ScreenshotTarget::Element(locator),
        (None, true) => ScreenshotTarget::FullPage,
        (None, false) => ScreenshotTarget::Viewport,
    };
    match files::extension(std::path::Path::new(&shown)).as_str() {
        "png" => {}
        "" => {
            let text = format!("{shown} has no .png ending; programs may not see it is a PNG image");
            let said = RunMessage::FileNameWithoutExtension { path: shown.clone(), kind: "png".into() };
            ctx.log(LogLevel::Warn, Reason::said(said, text))
        }
        other => {
            let text = format!("{shown} is saved as a PNG image although its name ends in .{other}");
            let said = RunMessage::FileNameMismatch { path: shown.clone(), kind: "png".into(), ext: other.to_owned() };
            ctx.log(LogLevel::Warn, Reason::said(said, text))
        }
    }
    let path = files::output_file(ctx, "path", &shown)?;
    let session = ctx.browser.session(ctx).await?;
    let started = Instant::now();
    let url = session.url().await.map_err(driver)?;
    // A picture of the empty page a browser starts with is no evidence of anything.
    if url == "about:blank" {
        let text = format!(
            "no page is open, so there is nothing to take as evidence: {shown} was not written; open a page first \
             (an earlier browser step may have failed before it got there)"
        );
        return Err(BlockError::failed(Reason::said(RunMessage::NoPageOpen { path: shown }, text)));
    }
    let png = session.screenshot(&target, &ActOptions::default()).await.map_err(driver)?;
    let bytes = png.len();
    let (written, name) = (path.clone(), shown.clone());
    files::blocking(move || files::write_atomically(&written, &name, &png)).await?;
    ctx.artifact(&path, ArtifactKind::Screenshot);
    let what = match &target {
        ScreenshotTarget::Viewport => "the visible page".to_owned(),
        ScreenshotTarget::FullPage => "the whole page".to_owned(),
        ScreenshotTarget::Element(locator) => locator.to_string(),
    };
    let ms = started.elapsed().as_millis() as u64;
    let text = format!("screenshot of {what} at {url} saved to {shown} ({bytes} bytes) in {ms} ms");
    let said = RunMessage::ScreenshotSaved { url, path: shown.clone(), bytes: bytes as u64, ms };
    ctx.log(LogLevel::Info, Reason::said(said, text));
    let mut out = Values::new();
    out.insert("path".into(), Value::String(shown));
    Ok(out)
}

/// The `url` input as given: a full http(s) address.
fn address(given: &str) -> Result<Url, BlockError> {
    input::web_address("url", given, URL_EXAMPLE)
}

fn required_locator(inputs: &Values) -> Result<Locator, BlockError> {
    locator(inputs)?.ok_or_else(|| input::missing("locator", &format!("the element as {LOCATOR_EXAMPLE}")))
}

/// The `locator` input, when given: role (with name and exact) first, then test_id, then text.
fn locator(inputs: &Values) -> Result<Option<Locator>, BlockError> {
    let fields = match inputs.get("locator") {
        None | Some(Value::Null) => return Ok(None),
        Some(Value::Object(fields)) => fields,
        Some(other) => {
            return Err(BlockError::input(format!(
                "`locator` must be an object with {LOCATOR_EXAMPLE}, not {}",
                describe(other)
            )))
        }
    };
    let exact = match fields.get("exact") {
        None | Some(Value::Null) => false,
        Some(Value::Bool(exact)) => *exact,
        Some(other) => {
            return Err(BlockError::input(format!("`locator.exact` must be true or false, not {}", describe(other))))
        }
    };
    let name = locator_text(fields, "name")?;
    if let Some(role) = locator_text(fields, "role")? {
        return Ok(Some(Locator::Role { role, name, exact }));
    }
    if let Some(id) = locator_text(fields, "test_id")? {
        return Ok(Some(Locator::TestId { id }));
    }
    if let Some(text) = locator_text(fields, "text")? {
        return Ok(Some(Locator::Text { text, exact }));
    }
    Err(BlockError::input(match name {
        Some(name) => format!(
            "`locator` has the name {name:?} but no role; add the element's role, e.g. {{role: button, name: {name:?}}}"
        ),
        None => format!("`locator` names no element; give {LOCATOR_EXAMPLE}"),
    }))
}

/// A text field of the locator; blank counts as left out.
fn locator_text(fields: &Map<String, Value>, field: &str) -> Result<Option<String>, BlockError> {
    match fields.get(field) {
        None | Some(Value::Null) => Ok(None),
        Some(Value::String(text)) if text.trim().is_empty() => Ok(None),
        Some(Value::String(text)) => Ok(Some(text.clone())),
        Some(other) => Err(BlockError::input(format!("`locator.{field}` must be text, not {}", describe(other)))),
    }
}

/// Wrong inputs for the page (several elements match, a field refuses the value) are the plan's
/// to fix; the rest is the browser's or the page's doing.
fn driver(error: BrowserError) -> BlockError {
    match error {
        BrowserError::Input(_) | BrowserError::Ambiguous { .. } => BlockError::input(browser_reason(&error)),
        other => BlockError::failed(browser_reason(&other)),
    }
}

fn url_output(report: ActionReport) -> Values {
    let mut out = Values::new();
    out.insert("url".into(), Value::String(report.url));
    out
}

/// One line for the run's log: the action and its element, where the page is afterwards, the
/// time taken, and what the page did meanwhile. Never the value typed.
fn summary(report: &ActionReport) -> Reason {
    let element = report.element.as_ref().map(element_name).unwrap_or_default();
    let ms = report.timing.total_ms.round() as u64;
    let mut line = report.action.to_owned();
    if !element.is_empty() {
        line.push(' ');
        line.push_str(&element);
    }
    line.push_str(&format!(" → {} in {ms} ms", report.url));
    if !report.dialogs.is_empty() {
        let answers: Vec<String> = report
            .dialogs
            .iter()
            .map(|d| format!("{} {}", d.kind, if d.accepted { "accepted" } else { "dismissed" }))
            .collect();
        let count = answers.len();
        line.push_str(&format!("; answered {count} dialog{} ({})", plural(count), answers.join(", ")));
    }
    if report.opened_tab {
        line.push_str("; followed the new tab it opened");
    }
    if report.settle_timed_out {
        line.push_str("; the page was still busy when the wait for it to settle ended");
    }
    let said = RunMessage::BrowserActed {
        action: report.action.to_owned(),
        element,
        url: report.url.clone(),
        ms,
        dialogs: report.dialogs.len() as u64,
        new_tab: report.opened_tab,
        still_busy: report.settle_timed_out,
    };
    Reason::said(said, line)
}

/// `button "Log in"`: the element as a person sees it.
fn element_name(element: &Candidate) -> String {
    let role = if element.role.is_empty() { "element" } else { &element.role };
    if element.name.is_empty() {
        role.to_owned()
    } else {
        format!("{role} {}", serde_json::to_string(&element.name).unwrap_or_default())
    }
}

fn plural(count: usize) -> &'static str {
    if count == 1 {
        ""
    } else {
        "s"
    }
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    fn located(locator: Value) -> Result<Option<Locator>, BlockError> {
        let Value::Object(inputs) = json!({ "locator": locator }) else { unreachable!() };
        super::locator(&inputs)
    }

    #[test]
    fn role_comes_first_then_test_id_then_text() {
        let role = located(json!({"role": "button", "name": "Log in", "test_id": "x", "text": "y", "exact": true}));
        assert_eq!(
            role.unwrap(),
            Some(Locator::Role { role: "button".into(), name: Some("Log in".into()), exact: true })
        );
        assert_eq!(located(json!({"test_id": "x", "text": "y"})).unwrap(), Some(Locator::TestId { id: "x".into() }));
        assert_eq!(located(json!({"text": "y"})).unwrap(), Some(Locator::Text { text: "y".into(), exact: false }));
        assert_eq!(located(Value::Null).unwrap(), None);
    }

    #[test]
    fn a_locator_naming_nothing_says_what_to_give() {
        let Err(BlockError::Input(planwright_runs::Reason { text: message, .. })) =
            located(json!({"role": " ", "exact": true}))
        else {
            panic!()
        };
        assert!(message.contains("role (with name), test_id or text"), "{message}");
        let Err(BlockError::Input(planwright_runs::Reason { text: message, .. })) = located(json!({"name": "Log in"}))
        else {
            panic!()
        };
        assert!(message.contains("no role") && message.contains("{role: button, name: \"Log in\"}"), "{message}");
        let Err(BlockError::Input(planwright_runs::Reason { text: message, .. })) = located(json!({"role": 3})) else {
            panic!()
        };
        assert!(message.contains("`locator.role` must be text"), "{message}");
        let Err(BlockError::Input(planwright_runs::Reason { text: message, .. })) = located(json!("button")) else {
            panic!()
        };
        assert!(message.contains("must be an object"), "{message}");
    }

    #[test]
    fn only_web_addresses_are_opened() {
        assert_eq!(address("https://example.com/a?b=1").unwrap().as_str(), "https://example.com/a?b=1");
        let Err(BlockError::Input(planwright_runs::Reason { text: message, .. })) = address("file:///etc/passwd")
        else {
            panic!()
        };
        assert!(message.contains("file: scheme"), "{message}");
        let Err(BlockError::Input(planwright_runs::Reason { text: message, .. })) = address("portal.example.jp/login")
        else {
            panic!()
        };
        assert!(message.contains("with its scheme") && !message.contains("example.jp"), "{message}");
        assert!(matches!(address("  "), Err(BlockError::Input(_))));
    }
}
