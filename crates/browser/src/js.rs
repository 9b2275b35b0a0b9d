//! The JavaScript run inside pages, and reading what it returns.
//!
//! The functions live in `js/*.js` (readable, with their own comments). Each file is sent as one
//! function that dispatches by name, so a call is one `Runtime.callFunctionOn` on an element or
//! a document object.

use std::sync::OnceLock;

use serde_json::{json, Value};

use crate::error::BrowserError;
use crate::session::BrowserSession;

/// Records the time of the last DOM change, the requests awaiting an answer, and when each
/// element's text changed on its own (see `js/quiet.js`).
pub(crate) const QUIET: &str = include_str!("js/quiet.js");

/// Keeps what the page announces (status and alert regions, toasts), with when (see
/// `js/announce.js`).
pub(crate) const ANNOUNCE: &str = include_str!("js/announce.js");

/// What a settle probe reads: the document's ready state, milliseconds since the last DOM change
/// (a large number when the page never changed or has no tracker), and how many requests the
/// page started in the last 2 s that have no answer yet (older ones are background traffic).
pub(crate) const QUIET_PROBE: &str = "(() => { const m = window[Symbol.for('planwright.lastMutation')]; \
     const u = window[Symbol.for('planwright.unanswered')]; \
     return [document.readyState, m ? performance.now() - m.at : 1e9, u ? u(2000) : 0]; })()";

/// Whether the page says it is still loading something: a visible `aria-busy` region or progress
/// bar, or a short visible text such as "Loading statements…" / 「読み込んでいます」. Text nodes
/// are looked at up to a bound so a huge page costs little.
pub(crate) const LOADING_PROBE: &str = r#"(() => {
  const shown = (e) => {
    if (!e || !e.isConnected) return false;
    const r = e.getBoundingClientRect();
    if (r.width === 0 && r.height === 0) return false;
    const s = getComputedStyle(e);
    return s.visibility !== 'hidden' && s.display !== 'none' && s.opacity !== '0';
  };
  const busy = document.querySelectorAll('[aria-busy="true"], [role="progressbar"], progress');
  for (const e of busy) if (shown(e)) return true;
  const words = /\b(loading|please wait|fetching)\b|読み込[みん]|お待ちください|処理中|取得中|ロード中/i;
  const walker = document.createTreeWalker(document.body || document.documentElement, NodeFilter.SHOW_TEXT);
  for (let n = walker.nextNode(), seen = 0; n && seen < 20000; n = walker.nextNode(), seen++) {
    const text = n.data.trim();
    if (text.length > 0 && text.length <= 80 && words.test(text) && shown(n.parentElement)) return true;
  }
  return false;
})()"#;

/// A function of `js/element.js`, called with an element as `this`.
#[derive(Debug, Clone, Copy)]
pub(crate) enum ElementFn {
    Actionable,
    Stable,
    Contains,
    Describe,
    PrepareFill,
    SelectOptions,
    Checked,
    Text,
    Table,
    Surroundings,
    Value,
    FieldFacts,
    InvalidMessage,
}

impl ElementFn {
    fn name(self) -> &'static str {
        match self {
            ElementFn::Actionable => "actionable",
            ElementFn::Stable => "stable",
            ElementFn::Contains => "contains",
            ElementFn::Describe => "describe",
            ElementFn::PrepareFill => "prepareFill",
            ElementFn::SelectOptions => "selectOptions",
            ElementFn::Checked => "checked",
            ElementFn::Text => "text",
            ElementFn::Table => "table",
            ElementFn::Surroundings => "surroundings",
            ElementFn::Value => "value",
            ElementFn::FieldFacts => "fieldFacts",
            ElementFn::InvalidMessage => "invalidMessage",
        }
    }
}

/// A function of `js/document.js`, called with a frame's document as `this`.
#[derive(Debug, Clone, Copy)]
pub(crate) enum DocumentFn {
    ByText,
    ByTestId,
    Announced,
    VisibleText,
    Restless,
    PendingRequests,
}

impl DocumentFn {
    const ALL: [DocumentFn; 6] = [
        DocumentFn::ByText,
        DocumentFn::ByTestId,
        DocumentFn::Announced,
        DocumentFn::VisibleText,
        DocumentFn::Restless,
        DocumentFn::PendingRequests,
    ];

    fn name(self) -> &'static str {
        match self {
            DocumentFn::ByText => "byText",
            DocumentFn::ByTestId => "byTestId",
            DocumentFn::Announced => "announced",
            DocumentFn::VisibleText => "visibleText",
            DocumentFn::Restless => "restless",
            DocumentFn::PendingRequests => "pendingRequests",
        }
    }
}

fn dispatcher(source: &str, names: &[&str]) -> String {
    format!(
        "function(__planwrightFn, ...__planwrightArgs) {{\n{source}\nconst __fns = {{ {} }};\nreturn __fns[__planwrightFn].apply(this, __planwrightArgs);\n}}",
        names.join(", ")
    )
}

fn element_source() -> &'static str {
    static SOURCE: OnceLock<String> = OnceLock::new();
    SOURCE.get_or_init(|| {
        let names = [
            ElementFn::Actionable,
            ElementFn::Stable,
            ElementFn::Contains,
            ElementFn::Describe,
            ElementFn::PrepareFill,
            ElementFn::SelectOptions,
            ElementFn::Checked,
            ElementFn::Text,
            ElementFn::Table,
            ElementFn::Surroundings,
            ElementFn::Value,
            ElementFn::FieldFacts,
            ElementFn::InvalidMessage,
        ]
        .map(ElementFn::name);
        dispatcher(include_str!("js/element.js"), &names)
    })
}

fn document_source() -> &'static str {
    static SOURCE: OnceLock<String> = OnceLock::new();
    SOURCE.get_or_init(|| dispatcher(include_str!("js/document.js"), &DocumentFn::ALL.map(DocumentFn::name)))
}

/// An argument to a page function: a JSON value or another object of the page.
pub(crate) enum Arg {
    Value(Value),
    Object(String),
}

fn call_params(object_id: &str, source: &str, name: &str, args: Vec<Arg>, by_value: bool) -> Value {
    let mut arguments = vec![json!({"value": name})];
    arguments.extend(args.into_iter().map(|arg| match arg {
        Arg::Value(value) => json!({"value": value}),
        Arg::Object(id) => json!({"objectId": id}),
    }));
    json!({
        "objectId": object_id,
        "functionDeclaration": source,
        "arguments": arguments,
        "returnByValue": by_value,
        "awaitPromise": true,
    })
}

impl BrowserSession {
    /// Calls an element function and returns its JSON result.
    pub(crate) async fn call_element(
        &self,
        object_id: &str,
        function: ElementFn,
        args: Vec<Arg>,
    ) -> Result<Value, BrowserError> {
        let params = call_params(object_id, element_source(), function.name(), args, true);
        let result = self.call("Runtime.callFunctionOn", params).await?;
        value_of(function.name(), result)
    }

    /// Calls a document function that returns JSON, and gives it.
    pub(crate) async fn call_document_value(
        &self,
        document: &str,
        function: DocumentFn,
        args: Vec<Arg>,
    ) -> Result<Value, BrowserError> {
        let params = call_params(document, document_source(), function.name(), args, true);
        let result = self.call("Runtime.callFunctionOn", params).await?;
        value_of(function.name(), result)
    }

    /// Calls a document function that returns elements, and gives their object ids.
    pub(crate) async fn call_document(
        &self,
        document: &str,
        function: DocumentFn,
        args: Vec<Arg>,
    ) -> Result<Vec<String>, BrowserError> {
        let params = call_params(document, document_source(), function.name(), args, false);
        let result = self.call("Runtime.callFunctionOn", params).await?;
        exception(function.name(), &result)?;
        let Some(array) = result.pointer("/result/objectId").and_then(Value::as_str) else {
            return Ok(Vec::new());
        };
        let properties = self.call("Runtime.getProperties", json!({"objectId": array, "ownProperties": true})).await?;
        let mut ids: Vec<(usize, String)> = properties["result"]
            .as_array()
            .into_iter()
            .flatten()
            .filter_map(|p| {
                let index = p["name"].as_str()?.parse::<usize>().ok()?;
                Some((index, p.pointer("/value/objectId")?.as_str()?.to_owned()))
            })
            .collect();
        ids.sort();
        Ok(ids.into_iter().map(|(_, id)| id).collect())
    }
}

fn exception(what: &str, result: &Value) -> Result<(), BrowserError> {
    if let Some(details) = result.get("exceptionDetails") {
        let message = details
            .pointer("/exception/description")
            .or_else(|| details.get("text"))
            .and_then(Value::as_str)
            .unwrap_or("a script error");
        return Err(BrowserError::Protocol { method: format!("page script {what}"), message: message.to_owned() });
    }
    Ok(())
}

/// The value of a `Runtime.evaluate` / `callFunctionOn` result, or the page's exception.
pub(crate) fn value_of(what: &str, result: Value) -> Result<Value, BrowserError> {
    exception(what, &result)?;
    Ok(result.pointer("/result/value").cloned().unwrap_or(Value::Null))
}
