//! Locators with Playwright's semantics, and the elements they resolve to.

use std::fmt;

use serde::{Deserialize, Serialize};
use serde_json::{json, Value};

use crate::error::BrowserError;
use crate::js::{Arg, DocumentFn, ElementFn};
use crate::refs::NodeKey;
use crate::session::BrowserSession;
use crate::tree::{elements, normalize, Frame, PageTree};

/// How an element is found.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "by", rename_all = "snake_case")]
pub enum Locator {
    /// `getByRole(role, { name, exact })`: the ARIA role, and the accessible name when given —
    /// a case-insensitive substring with whitespace normalised, or with `exact` the whole,
    /// case-sensitive name.
    Role {
        role: String,
        #[serde(default)]
        name: Option<String>,
        #[serde(default)]
        exact: bool,
    },
    /// `getByText(text, { exact })`: the smallest elements whose text matches, as for names.
    Text {
        text: String,
        #[serde(default)]
        exact: bool,
    },
    /// `getByTestId(id)`: `data-testid` equal to the id.
    TestId { id: String },
    /// A ref from a snapshot of this session (`e12`).
    Ref { reference: String },
    /// The elements `target` matches whose surroundings — the smallest element around each
    /// that holds more text than it: a table row, a card, a list item, a section — contain
    /// `text` (as for names: case-insensitive, whitespace normalised). Tells apart elements of
    /// one name: the "Download" link in the row "October 2026", the "Add to cart" button of the
    /// card "Blue widget". Like Playwright's `getByRole('row').filter({ hasText }).getByRole(…)`.
    Near { target: Box<Locator>, text: String },
}

impl fmt::Display for Locator {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let quote = |s: &str| serde_json::to_string(s).unwrap_or_default();
        match self {
            Locator::Role { role, name: None, .. } => write!(f, "getByRole({})", quote(role)),
            Locator::Role { role, name: Some(name), exact } => {
                write!(
                    f,
                    "getByRole({}, {{ name: {}{} }})",
                    quote(role),
                    quote(name),
                    if *exact { ", exact: true" } else { "" }
                )
            }
            Locator::Text { text, exact } => {
                write!(f, "getByText({}{})", quote(text), if *exact { ", { exact: true }" } else { "" })
            }
            Locator::TestId { id } => write!(f, "getByTestId({})", quote(id)),
            Locator::Ref { reference } => write!(f, "ref {reference}"),
            Locator::Near { target, text } => write!(f, "{target}.near({})", quote(text)),
        }
    }
}

/// An element a locator matched.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Candidate {
    pub role: String,
    pub name: String,
    /// A short selector a person recognises: `button#send.primary`.
    pub selector: String,
    pub frame_id: String,
    pub backend_node_id: i64,
}

impl Candidate {
    pub(crate) fn key(&self) -> NodeKey {
        NodeKey { frame_id: self.frame_id.clone(), backend_id: self.backend_node_id }
    }
}

impl fmt::Display for Candidate {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let role = if self.role.is_empty() { "element" } else { &self.role };
        if self.name.is_empty() {
            write!(f, "{role} ({})", self.selector)
        } else {
            write!(f, "{role} {} ({})", serde_json::to_string(&self.name).unwrap_or_default(), self.selector)
        }
    }
}

/// A form field as a secret's destination: where it is and what kind it is.
#[derive(Debug, Clone, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct FieldFacts {
    /// The origin of the document the field is in (an iframe's own): `http://127.0.0.1:8700`.
    pub origin: String,
    /// An input's `type` (lowercase; `text` when absent), else the element's tag.
    pub r#type: String,
    /// Its `autocomplete` attribute, lowercase.
    pub autocomplete: String,
    /// A search box (`type=search`, role `searchbox`, or inside a search region).
    pub search: bool,
    /// Its form (or its document, outside any form) has a password field.
    pub sign_in: bool,
}

/// Whether `name` matches `wanted` as Playwright compares names and texts.
pub fn text_matches(name: &str, wanted: &str, exact: bool) -> bool {
    let name = normalize(name);
    let wanted = normalize(wanted);
    if exact {
        name == wanted
    } else {
        name.to_lowercase().contains(&wanted.to_lowercase())
    }
}

impl BrowserSession {
    /// Every element the locator matches now, in document order. Does not wait.
    pub async fn resolve(&self, locator: &Locator) -> Result<Vec<Candidate>, BrowserError> {
        self.resolve_in(locator, None).await
    }

    /// What surrounds an element a locator matched (see [`Locator::Near`]): the text of the
    /// smallest element around it that holds more text than it, whitespace normalised, at most
    /// 300 characters. Empty when nothing around it has more text.
    pub async fn surroundings(&self, candidate: &Candidate) -> Result<String, BrowserError> {
        let object = self.object_of(&candidate.key()).await?;
        let text = self.call_element(&object, ElementFn::Surroundings, Vec::new()).await?;
        Ok(text.as_str().unwrap_or_default().to_owned())
    }

    /// The value a form field holds now: an input's or text area's text, a select's chosen
    /// option labels (joined by ", "), else the element's text.
    pub async fn field_value(&self, candidate: &Candidate) -> Result<String, BrowserError> {
        let object = self.object_of(&candidate.key()).await?;
        let value = self.call_element(&object, ElementFn::Value, Vec::new()).await?;
        Ok(value.as_str().unwrap_or_default().to_owned())
    }

    /// [`FieldFacts`] of the element `object`: what decides whether a secret may be typed into it.
    pub(crate) async fn facts_of(&self, object: &str) -> Result<FieldFacts, BrowserError> {
        let facts = self.call_element(object, ElementFn::FieldFacts, Vec::new()).await?;
        serde_json::from_value(facts).map_err(|e| BrowserError::Protocol {
            method: "fieldFacts".into(),
            message: format!("the page answered what no field is: {e}"),
        })
    }

    /// As [`BrowserSession::resolve`], reading roles and names from `tree` when one was just
    /// fetched.
    pub(crate) async fn resolve_in(
        &self,
        locator: &Locator,
        tree: Option<&PageTree>,
    ) -> Result<Vec<Candidate>, BrowserError> {
        let keys: Vec<(NodeKey, Option<(String, String)>)> = match locator {
            Locator::Role { role, name, exact } => {
                let fetched;
                let tree = match tree {
                    Some(tree) => tree,
                    None => {
                        fetched = self.page_tree().await?;
                        &fetched
                    }
                };
                let items = tree.items(None);
                elements(&items)
                    .into_iter()
                    .filter(|e| {
                        e.role == role.as_str() && name.as_deref().is_none_or(|n| text_matches(&e.name, n, *exact))
                    })
                    .map(|e| (e.key.clone(), Some((e.role.to_owned(), e.name.clone()))))
                    .collect()
            }
            Locator::Text { text, exact } => self
                .search_documents(DocumentFn::ByText, vec![json!(text), json!(exact)])
                .await?
                .into_iter()
                .map(|k| (k, None))
                .collect(),
            Locator::TestId { id } => self
                .search_documents(DocumentFn::ByTestId, vec![json!(id)])
                .await?
                .into_iter()
                .map(|k| (k, None))
                .collect(),
            Locator::Ref { reference } => {
                let key =
                    self.refs.lock().unwrap_or_else(std::sync::PoisonError::into_inner).lookup(reference).cloned();
                match key {
                    Some(key) if self.object_of(&key).await.is_ok() => vec![(key, None)],
                    _ => Vec::new(),
                }
            }
            Locator::Near { target, text } => {
                let mut near = Vec::new();
                for candidate in Box::pin(self.resolve_in(target, tree)).await? {
                    if text_matches(&self.surroundings(&candidate).await?, text, false) {
                        near.push(candidate);
                    }
                }
                return Ok(near);
            }
        };
        let mut candidates = Vec::with_capacity(keys.len());
        for (key, known) in keys {
            let (role, name) = match known {
                Some(known) => known,
                None => self.role_and_name(&key).await?,
            };
            candidates.push(Candidate {
                role,
                name,
                selector: String::new(),
                frame_id: key.frame_id,
                backend_node_id: key.backend_id,
            });
        }
        Ok(candidates)
    }

    /// The one element the locator matches now in `tree`: none is [`BrowserError::NotFound`],
    /// several are [`BrowserError::Ambiguous`], listing them.
    pub(crate) async fn resolve_one(&self, locator: &Locator, tree: &PageTree) -> Result<Candidate, BrowserError> {
        let mut candidates = self.resolve_in(locator, Some(tree)).await?;
        match candidates.len() {
            0 => Err(BrowserError::NotFound { locator: locator.to_string(), waited_ms: 0 }),
            1 => Ok(candidates.remove(0)),
            _ => Err(self.ambiguous(locator, candidates).await),
        }
    }

    pub(crate) async fn ambiguous(&self, locator: &Locator, mut candidates: Vec<Candidate>) -> BrowserError {
        for candidate in &mut candidates {
            candidate.selector = self.selector_of(&candidate.key()).await;
        }
        BrowserError::Ambiguous { locator: locator.to_string(), candidates }
    }

    /// A short selector for an element, for messages.
    pub(crate) async fn selector_of(&self, key: &NodeKey) -> String {
        match self.object_of(key).await {
            Ok(object) => self
                .call_element(&object, ElementFn::Describe, Vec::new())
                .await
                .ok()
                .and_then(|v| v.as_str().map(str::to_owned))
                .unwrap_or_default(),
            Err(_) => String::new(),
        }
    }

    /// The role and name the accessibility tree gives an element.
    pub(crate) async fn role_and_name(&self, key: &NodeKey) -> Result<(String, String), BrowserError> {
        let partial = self
            .call("Accessibility.getPartialAXTree", json!({"backendNodeId": key.backend_id, "fetchRelatives": false}))
            .await;
        let Ok(partial) = partial else { return Ok((String::new(), String::new())) };
        let node = partial["nodes"].as_array().and_then(|n| n.first()).cloned().unwrap_or(Value::Null);
        let role = node.pointer("/role/value").and_then(Value::as_str).unwrap_or_default();
        let role = match crate::roles::shown(role) {
            crate::roles::Shown::Role(role) => role.to_owned(),
            _ => String::new(),
        };
        let name = normalize(node.pointer("/name/value").and_then(Value::as_str).unwrap_or_default());
        Ok((role, name))
    }

    /// A JavaScript object for the element, to call functions on.
    pub(crate) async fn object_of(&self, key: &NodeKey) -> Result<String, BrowserError> {
        let resolved = self.call("DOM.resolveNode", json!({"backendNodeId": key.backend_id})).await?;
        resolved.pointer("/object/objectId").and_then(Value::as_str).map(str::to_owned).ok_or_else(|| {
            BrowserError::Protocol { method: "DOM.resolveNode".into(), message: "no object for the element".into() }
        })
    }

    /// Runs a document search in every frame and returns the elements found, frame by frame.
    async fn search_documents(&self, function: DocumentFn, args: Vec<Value>) -> Result<Vec<NodeKey>, BrowserError> {
        let mut found = Vec::new();
        for frame in self.frames().await? {
            let Some(document) = self.frame_document(&frame.id, frame.parent.is_none()).await? else { continue };
            let args = args.iter().cloned().map(Arg::Value).collect();
            for object in self.call_document(&document, function, args).await? {
                let described = self.call("DOM.describeNode", json!({"objectId": object})).await?;
                if let Some(backend_id) = described.pointer("/node/backendNodeId").and_then(Value::as_i64) {
                    found.push(NodeKey { frame_id: frame.id.clone(), backend_id });
                }
            }
        }
        Ok(found)
    }

    /// Runs a document function that returns JSON in every frame, and gives each frame's answer,
    /// the main frame first; a frame that went away or is being replaced meanwhile is left out.
    pub(crate) async fn in_every_frame(
        &self,
        function: DocumentFn,
        args: Vec<Value>,
    ) -> Result<Vec<(Frame, Value)>, BrowserError> {
        self.in_frames(self.frames().await?, function, args).await
    }

    /// [`BrowserSession::in_every_frame`] for the `frames` given.
    pub(crate) async fn in_frames(
        &self,
        frames: Vec<Frame>,
        function: DocumentFn,
        args: Vec<Value>,
    ) -> Result<Vec<(Frame, Value)>, BrowserError> {
        let asks = frames.into_iter().map(|frame| {
            let args = args.iter().cloned().map(Arg::Value).collect();
            async move {
                let Some(document) = self.frame_document(&frame.id, frame.parent.is_none()).await? else {
                    return Ok(None);
                };
                match self.call_document_value(&document, function, args).await {
                    Ok(answer) => Ok(Some((frame, answer))),
                    Err(BrowserError::Protocol { .. }) => Ok(None),
                    Err(e) => Err(e),
                }
            }
        });
        // The frames are asked together: an action's report reads them all.
        let answers = futures::future::try_join_all(asks).await?;
        Ok(answers.into_iter().flatten().collect())
    }

    /// The document object of a frame, or `None` when the frame went away.
    async fn frame_document(&self, frame_id: &str, main: bool) -> Result<Option<String>, BrowserError> {
        let backend_id = if main {
            let document = self.call("DOM.getDocument", json!({"depth": 0})).await?;
            document.pointer("/root/backendNodeId").and_then(Value::as_i64)
        } else {
            let Some(owner) = self.frame_owner(frame_id).await? else { return Ok(None) };
            let described = self.call("DOM.describeNode", json!({"backendNodeId": owner, "depth": 0})).await?;
            described.pointer("/node/contentDocument/backendNodeId").and_then(Value::as_i64)
        };
        let Some(backend_id) = backend_id else { return Ok(None) };
        match self.object_of(&NodeKey { frame_id: frame_id.to_owned(), backend_id }).await {
            Ok(object) => Ok(Some(object)),
            Err(BrowserError::Protocol { .. }) => Ok(None),
            Err(e) => Err(e),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_match_as_playwright_matches_them() {
        assert!(text_matches("Add to  cart", "add to cart", false));
        assert!(text_matches("Add to cart — Blue mug", "to cart", false));
        assert!(!text_matches("Add to cart", "add to cart", true));
        assert!(text_matches(" Add to\ncart ", "Add to cart", true));
        assert!(!text_matches("Add to cart now", "Add to cart", true));
    }

    #[test]
    fn locators_print_as_playwright_code() {
        let role = Locator::Role { role: "button".into(), name: Some("Send".into()), exact: true };
        assert_eq!(role.to_string(), "getByRole(\"button\", { name: \"Send\", exact: true })");
        assert_eq!(Locator::TestId { id: "card-3".into() }.to_string(), "getByTestId(\"card-3\")");
        let parsed: Locator = serde_json::from_value(json!({"by": "text", "text": "Welcome"})).unwrap();
        assert_eq!(parsed, Locator::Text { text: "Welcome".into(), exact: false });
    }
}
