//! A page as the runner reasons about it: the interactive snapshot read back into a tree of
//! elements — role, name, states, ref, the value shown — each knowing what contains it (a
//! dialog, a form, a region, an iframe), and a select's options.

/// One element line of the snapshot.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Node {
    pub depth: usize,
    pub role: String,
    pub name: String,
    /// `e12`, for interactive elements.
    pub reference: Option<String>,
    /// The value shown after `:` (a field's text, a select's choice).
    pub value: Option<String>,
    pub checked: bool,
    pub disabled: bool,
    pub selected: bool,
    pub parent: Option<usize>,
}

/// The snapshot as a tree.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Page {
    pub url: String,
    pub nodes: Vec<Node>,
}

impl Page {
    /// Reads a snapshot's text (`- role "name" [state] [ref=e1]: value`, two spaces a level).
    /// Lines it cannot read are passed over.
    pub fn parse(url: &str, text: &str) -> Page {
        let mut nodes: Vec<Node> = Vec::new();
        let mut open: Vec<usize> = Vec::new();
        for line in text.lines() {
            let trimmed = line.trim_start();
            let Some(rest) = trimmed.strip_prefix("- ") else { continue };
            let depth = (line.len() - trimmed.len()) / 2;
            if rest.starts_with('/') || rest.starts_with("text:") || rest.starts_with("note:") {
                continue;
            }
            let Some(mut node) = parse_line(rest, depth) else { continue };
            while open.last().is_some_and(|&i| nodes[i].depth >= depth) {
                open.pop();
            }
            node.parent = open.last().copied();
            open.push(nodes.len());
            nodes.push(node);
        }
        Page { url: url.to_owned(), nodes }
    }

    /// The elements that contain node `i`, nearest first.
    pub fn ancestors(&self, i: usize) -> impl Iterator<Item = (usize, &Node)> {
        std::iter::successors(self.nodes[i].parent, move |&p| self.nodes[p].parent).map(move |p| (p, &self.nodes[p]))
    }

    /// Whether node `i` is inside node `container`.
    pub fn is_inside(&self, i: usize, container: usize) -> bool {
        self.ancestors(i).any(|(p, _)| p == container)
    }

    /// The options listed under a select or list box.
    pub fn options_of(&self, i: usize) -> Vec<&Node> {
        self.nodes.iter().filter(|n| n.role == "option" && n.parent == Some(i)).collect()
    }

    /// The elements of `role` and exactly `name`.
    pub fn named(&self, role: &str, name: &str) -> usize {
        self.nodes.iter().filter(|n| n.role == role && n.name == name).count()
    }
}

fn parse_line(rest: &str, depth: usize) -> Option<Node> {
    let role_end = rest.find([' ', ':']).unwrap_or(rest.len());
    let role = &rest[..role_end];
    if role.is_empty() || !role.chars().all(|c| c.is_ascii_alphanumeric()) {
        return None;
    }
    let mut at = &rest[role_end..];
    let mut name = String::new();
    if let Some(quoted) = at.strip_prefix(" \"") {
        let (text, len) = json_string(&format!("\"{quoted}"))?;
        name = text;
        at = &at[1 + len..];
    }
    let mut node = Node {
        depth,
        role: role.to_owned(),
        name,
        reference: None,
        value: None,
        checked: false,
        disabled: false,
        selected: false,
        parent: None,
    };
    while let Some(state) = at.strip_prefix(" [") {
        let end = state.find(']')?;
        let inside = &state[..end];
        match inside {
            "checked" | "checked=mixed" => node.checked = true,
            "disabled" => node.disabled = true,
            "selected" => node.selected = true,
            _ => {
                if let Some(reference) = inside.strip_prefix("ref=") {
                    node.reference = Some(reference.to_owned());
                }
            }
        }
        at = &state[end + 1..];
    }
    if let Some(value) = at.strip_prefix(": ") {
        node.value = Some(match json_string(value) {
            Some((text, _)) if value.starts_with('"') => text,
            _ => value.to_owned(),
        });
    }
    Some(node)
}

/// A JSON string at the start of `text`: its value and the bytes it took.
fn json_string(text: &str) -> Option<(String, usize)> {
    let mut escaped = false;
    for (i, c) in text.char_indices().skip(1) {
        match c {
            '\\' if !escaped => escaped = true,
            '"' if !escaped => return serde_json::from_str(&text[..=i]).ok().map(|s| (s, i + 1)),
            _ => escaped = false,
        }
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    const SNAPSHOT: &str = r#"- banner:
  - link "Gadget Store" [ref=e2]
- main:
  - heading "Shipping"
  - form:
    - combobox "Country" [ref=e6]: Choose a country…
      - option "Choose a country…" [selected]
      - option "Canada"
    - group "Shipping speed":
      - radio "Standard (5–7 days, free)" [checked] [ref=e15]
      - radio "Say \"hi\"" [ref=e16]
    - button "Continue" [disabled] [ref=e19]
- dialog "We value your privacy":
  - button "Reject" [ref=e9]
# http://127.0.0.1/ · about 166 tokens
"#;

    #[test]
    fn the_snapshot_reads_back_as_a_tree() {
        let page = Page::parse("http://127.0.0.1/", SNAPSHOT);
        let roles: Vec<&str> = page.nodes.iter().map(|n| n.role.as_str()).collect();
        assert_eq!(
            roles,
            [
                "banner", "link", "main", "heading", "form", "combobox", "option", "option", "group", "radio", "radio",
                "button", "dialog", "button"
            ]
        );
        let country = &page.nodes[5];
        assert_eq!(
            (country.name.as_str(), country.reference.as_deref(), country.value.as_deref()),
            ("Country", Some("e6"), Some("Choose a country…"))
        );
        assert_eq!(
            page.options_of(5).iter().map(|o| o.name.as_str()).collect::<Vec<_>>(),
            ["Choose a country…", "Canada"]
        );
        assert!(page.nodes[9].checked && !page.nodes[10].checked);
        assert_eq!(page.nodes[10].name, "Say \"hi\"");
        assert!(page.nodes[11].disabled);
        assert!(page.is_inside(13, 12) && !page.is_inside(11, 12));
        let places: Vec<&str> = page.ancestors(9).map(|(_, n)| n.role.as_str()).collect();
        assert_eq!(places, ["group", "form", "main"]);
        assert_eq!(page.named("button", "Reject"), 1);
    }

    #[test]
    fn lines_it_cannot_read_are_passed_over() {
        let page = Page::parse("u", "- \n- button \"never closed\n- ???\n  - link \"ok\" [ref=e1]\nplain text\n");
        assert_eq!(page.nodes.len(), 1);
        assert_eq!(page.nodes[0].name, "ok");
    }
}
