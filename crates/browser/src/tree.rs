//! The page's accessibility tree: `Accessibility.getFullAXTree` of every frame, read leniently
//! and joined at the iframes into one tree of [`Item`]s.

use std::collections::HashMap;

use serde_json::{json, Value};

use crate::error::BrowserError;
use crate::refs::NodeKey;
use crate::roles::{shown, Shown};
use crate::session::BrowserSession;

/// One frame of the page.
#[derive(Debug, Clone)]
pub(crate) struct Frame {
    pub(crate) id: String,
    pub(crate) parent: Option<String>,
    pub(crate) url: String,
}

/// An element's states, as the snapshot shows them.
#[derive(Debug, Clone, Default, PartialEq)]
pub(crate) struct States {
    pub(crate) checked: Option<String>,
    pub(crate) disabled: bool,
    pub(crate) expanded: Option<bool>,
    pub(crate) level: Option<u64>,
    pub(crate) pressed: Option<String>,
    pub(crate) selected: bool,
    /// Chromium finds the field invalid: `aria-invalid="true"`, or a value its type refuses.
    pub(crate) invalid: bool,
}

/// A node of the joined tree.
#[derive(Debug, Clone)]
pub(crate) enum Item {
    Element(Element),
    Text(String),
}

#[derive(Debug, Clone)]
pub(crate) struct Element {
    pub(crate) role: &'static str,
    pub(crate) name: String,
    pub(crate) value: Option<String>,
    pub(crate) url: Option<String>,
    pub(crate) states: States,
    pub(crate) key: NodeKey,
    pub(crate) children: Vec<Item>,
}

struct RawNode {
    ignored: bool,
    role: String,
    name: String,
    value: Option<String>,
    properties: Vec<(String, Value)>,
    children: Vec<String>,
    backend_id: Option<i64>,
}

/// Reads one node of `getFullAXTree`, taking what is there and ignoring what is not understood.
fn read_node(node: &Value) -> Option<(String, RawNode)> {
    let id = match &node["nodeId"] {
        Value::String(s) => s.clone(),
        Value::Number(n) => n.to_string(),
        _ => return None,
    };
    let text = |v: &Value| match v {
        Value::String(s) => Some(s.clone()),
        Value::Number(n) => Some(n.to_string()),
        Value::Bool(b) => Some(b.to_string()),
        _ => None,
    };
    let properties = node["properties"]
        .as_array()
        .into_iter()
        .flatten()
        .filter_map(|p| {
            Some((p["name"].as_str()?.to_owned(), p.pointer("/value/value").cloned().unwrap_or(Value::Null)))
        })
        .collect();
    let children = node["childIds"]
        .as_array()
        .into_iter()
        .flatten()
        .filter_map(|c| match c {
            Value::String(s) => Some(s.clone()),
            Value::Number(n) => Some(n.to_string()),
            _ => None,
        })
        .collect();
    Some((
        id,
        RawNode {
            ignored: node["ignored"].as_bool().unwrap_or(false),
            role: node.pointer("/role/value").and_then(text).unwrap_or_default(),
            name: node.pointer("/name/value").and_then(text).unwrap_or_default(),
            value: node.pointer("/value/value").and_then(text),
            properties,
            children,
            backend_id: node["backendDOMNodeId"].as_i64(),
        },
    ))
}

fn states(properties: &[(String, Value)]) -> States {
    let mut states = States::default();
    for (name, value) in properties {
        let tristate = || match value {
            Value::Bool(true) => Some("true".to_owned()),
            Value::String(s) if s == "true" || s == "mixed" => Some(s.clone()),
            _ => None,
        };
        match name.as_str() {
            "checked" => states.checked = tristate(),
            "pressed" => states.pressed = tristate(),
            "disabled" => states.disabled = value.as_bool().unwrap_or(false),
            "expanded" => states.expanded = value.as_bool(),
            "level" => states.level = value.as_u64(),
            "selected" => states.selected = value.as_bool().unwrap_or(false),
            "invalid" => states.invalid = value.as_str() == Some("true"),
            _ => {}
        }
    }
    states
}

/// Whitespace collapsed to single spaces and trimmed, as names are compared and shown.
pub(crate) fn normalize(text: &str) -> String {
    text.split_whitespace().collect::<Vec<_>>().join(" ")
}

struct FrameNodes {
    frame_id: String,
    nodes: HashMap<String, RawNode>,
    root: Option<String>,
}

/// The whole page as one tree.
pub(crate) struct PageTree {
    frames: Vec<FrameNodes>,
    /// The backend id of an `<iframe>` element (in its parent frame) → the index of its frame.
    owners: HashMap<(String, i64), usize>,
    /// The main frame's address, as `location.href` gives it.
    url: String,
}

impl BrowserSession {
    /// Every frame of the driven page, the main frame first.
    pub(crate) async fn frames(&self) -> Result<Vec<Frame>, BrowserError> {
        let tree = self.call("Page.getFrameTree", json!({})).await?;
        let mut frames = Vec::new();
        let mut stack = vec![&tree["frameTree"]];
        while let Some(node) = stack.pop() {
            if let Some(id) = node.pointer("/frame/id").and_then(Value::as_str) {
                let parent = node.pointer("/frame/parentId").and_then(Value::as_str).map(str::to_owned);
                // The fragment (`#section`) comes apart from the rest of the address.
                let url = ["/frame/url", "/frame/urlFragment"]
                    .iter()
                    .filter_map(|field| node.pointer(field).and_then(Value::as_str))
                    .collect::<String>();
                frames.push(Frame { id: id.to_owned(), parent, url });
            }
            if let Some(children) = node["childFrames"].as_array() {
                stack.extend(children.iter().rev());
            }
        }
        Ok(frames)
    }

    /// The `<iframe>` element that holds a frame, by backend node id.
    pub(crate) async fn frame_owner(&self, frame_id: &str) -> Result<Option<i64>, BrowserError> {
        match self.call("DOM.getFrameOwner", json!({"frameId": frame_id})).await {
            Ok(owner) => Ok(owner["backendNodeId"].as_i64()),
            // A frame detached between the two calls has no owner any more.
            Err(BrowserError::Protocol { .. }) => Ok(None),
            Err(e) => Err(e),
        }
    }

    /// Fetches the accessibility tree of every frame. The main frame's tree is asked for with
    /// the frame list (most pages have no other frame), the other frames' trees together after.
    pub(crate) async fn page_tree(&self) -> Result<PageTree, BrowserError> {
        let (frames, main_ax) = futures::join!(self.frames(), self.call("Accessibility.getFullAXTree", json!({})));
        let frames = frames?;
        let mut main_ax = Some(main_ax);
        let fetches = frames.iter().map(|frame| {
            let main = if frame.parent.is_none() { main_ax.take() } else { None };
            async move {
                let ax = async {
                    match main {
                        Some(ax) => ax,
                        None => self.call("Accessibility.getFullAXTree", json!({"frameId": frame.id})).await,
                    }
                };
                let owner = async {
                    match &frame.parent {
                        Some(_) => self.frame_owner(&frame.id).await,
                        None => Ok(None),
                    }
                };
                let (ax, owner) = futures::join!(ax, owner);
                (frame, ax, owner)
            }
        });
        let url = frames.first().map(|f| f.url.clone()).unwrap_or_default();
        let mut tree = PageTree { frames: Vec::with_capacity(frames.len()), owners: HashMap::new(), url };
        for (frame, ax, owner) in futures::future::join_all(fetches).await {
            let ax = match ax {
                Ok(ax) => ax,
                // A frame that went away while the tree was read.
                Err(BrowserError::Protocol { .. }) if frame.parent.is_some() => continue,
                Err(e) => return Err(e),
            };
            let mut nodes = HashMap::new();
            let mut root = None;
            for node in ax["nodes"].as_array().into_iter().flatten() {
                if let Some((id, raw)) = read_node(node) {
                    if root.is_none() && node.get("parentId").is_none() {
                        root = Some(id.clone());
                    }
                    nodes.insert(id, raw);
                }
            }
            if let (Some(parent), Some(owner)) = (&frame.parent, owner?) {
                tree.owners.insert((parent.clone(), owner), tree.frames.len());
            }
            tree.frames.push(FrameNodes { frame_id: frame.id.clone(), nodes, root });
        }
        Ok(tree)
    }
}

impl PageTree {
    pub(crate) fn url(&self) -> &str {
        &self.url
    }

    /// The tree under the main frame's root, or under the element `scope`.
    pub(crate) fn items(&self, scope: Option<&NodeKey>) -> Vec<Item> {
        let Some(main) = self.frames.first() else { return Vec::new() };
        match scope {
            None => main.root.as_deref().map(|root| self.build(0, root, 0)).unwrap_or_default(),
            Some(key) => {
                let Some(index) = self.frames.iter().position(|f| f.frame_id == key.frame_id) else {
                    return Vec::new();
                };
                let frame = &self.frames[index];
                frame
                    .nodes
                    .iter()
                    .find(|(_, n)| n.backend_id == Some(key.backend_id))
                    .map(|(id, _)| self.build(index, id, 0))
                    .unwrap_or_default()
            }
        }
    }

    fn build(&self, frame: usize, id: &str, depth: usize) -> Vec<Item> {
        // Deeper than any real page: a malformed tree with a cycle ends here.
        if depth > 512 {
            return Vec::new();
        }
        let nodes = &self.frames[frame];
        let Some(node) = nodes.nodes.get(id) else { return Vec::new() };
        let mut children: Vec<Item> =
            node.children.iter().flat_map(|child| self.build(frame, child, depth + 1)).collect();
        if let Some(child_frame) = node.backend_id.and_then(|b| self.owners.get(&(nodes.frame_id.clone(), b))) {
            if let Some(root) = &self.frames[*child_frame].root {
                children.extend(self.build(*child_frame, root, depth + 1));
            }
        }
        if node.ignored {
            return merge_text(children);
        }
        match shown(&node.role) {
            Shown::Hidden => Vec::new(),
            Shown::Transparent => merge_text(children),
            Shown::Text => {
                let text = normalize(&node.name);
                if text.is_empty() {
                    Vec::new()
                } else {
                    vec![Item::Text(text)]
                }
            }
            Shown::Leaf(role) => self.element(frame, node, role, Vec::new()),
            Shown::Role(role) => self.element(frame, node, role, children),
        }
    }

    fn element(&self, frame: usize, node: &RawNode, role: &'static str, children: Vec<Item>) -> Vec<Item> {
        let Some(backend_id) = node.backend_id else { return merge_text(children) };
        let url = node.properties.iter().find(|(n, _)| n == "url").and_then(|(_, v)| v.as_str()).map(str::to_owned);
        let value = node.value.as_deref().map(normalize).filter(|v| !v.is_empty());
        vec![Item::Element(Element {
            role,
            name: normalize(&node.name),
            value,
            url,
            states: states(&node.properties),
            key: NodeKey { frame_id: self.frames[frame].frame_id.clone(), backend_id },
            children: merge_text(children),
        })]
    }
}

/// Adjacent texts joined into one.
fn merge_text(items: Vec<Item>) -> Vec<Item> {
    let mut out: Vec<Item> = Vec::with_capacity(items.len());
    for item in items {
        match (out.last_mut(), item) {
            (Some(Item::Text(previous)), Item::Text(text)) => {
                previous.push(' ');
                previous.push_str(&text);
            }
            (_, item) => out.push(item),
        }
    }
    out
}

/// Every element of the tree, depth first.
pub(crate) fn elements(items: &[Item]) -> Vec<&Element> {
    let mut out = Vec::new();
    let mut stack: Vec<&Item> = items.iter().rev().collect();
    while let Some(item) = stack.pop() {
        if let Item::Element(element) = item {
            out.push(element);
            stack.extend(element.children.iter().rev());
        }
    }
    out
}
