//! Chromium's accessibility roles as ARIA and Playwright name them, and which roles count as
//! interactive.

/// How a node of Chromium's tree shows in a snapshot.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Shown {
    /// A line with this ARIA role.
    Role(&'static str),
    /// A line with this ARIA role whose children are the browser's own parts of the control
    /// (the month, day and year fields of a date input), not shown.
    Leaf(&'static str),
    /// Text content.
    Text,
    /// Not shown; its children take its place.
    Transparent,
    /// Not shown, nor its children (inline text boxes, list bullets, line breaks).
    Hidden,
}

/// Roles a person acts on: what the interactive snapshot keeps and the conformance test counts.
pub const INTERACTIVE: &[&str] = &[
    "button",
    "checkbox",
    "combobox",
    "link",
    "listbox",
    "menuitem",
    "menuitemcheckbox",
    "menuitemradio",
    "option",
    "radio",
    "searchbox",
    "slider",
    "spinbutton",
    "switch",
    "tab",
    "textbox",
    "treeitem",
];

/// Roles that give interactive elements their context in the interactive snapshot, kept when
/// something inside them is: landmarks, dialogs and frames always, other groups when they have a
/// name (a radio group's question, a toolbar's purpose).
pub(crate) const LANDMARKS: &[&str] = &[
    "banner",
    "complementary",
    "contentinfo",
    "dialog",
    "alertdialog",
    "form",
    "main",
    "navigation",
    "region",
    "search",
    "iframe",
];
pub(crate) const NAMED_GROUPS: &[&str] =
    &["group", "radiogroup", "tablist", "menu", "menubar", "toolbar", "tree", "grid"];

pub fn is_interactive(role: &str) -> bool {
    INTERACTIVE.contains(&role)
}

/// Maps a role of `Accessibility.getFullAXTree` to what the snapshot shows. Chromium names
/// some roles after its internals (`StaticText`, `MenuListOption`, `image`); unknown internal
/// names (capitalised) are transparent, unknown lower-case names are taken as ARIA roles.
pub(crate) fn shown(chromium_role: &str) -> Shown {
    match chromium_role {
        "StaticText" => Shown::Text,
        "InlineTextBox" | "ListMarker" | "LineBreak" => Shown::Hidden,
        "RootWebArea" | "WebArea" | "generic" | "none" | "presentation" | "LabelText" | "MenuListPopup" | "Legend"
        | "Caption" | "LayoutTable" | "LayoutTableRow" | "LayoutTableCell" | "Pre" | "Ruby" | "Abbr" | "Unknown"
        | "" => Shown::Transparent,
        "image" | "Canvas" | "SvgRoot" => Shown::Role("img"),
        "MenuListOption" => Shown::Role("option"),
        // Inputs without an ARIA role are textboxes to Playwright.
        "Date" | "DateTime" | "InputTime" | "ColorWell" => Shown::Leaf("textbox"),
        "ComboBoxSelect" | "ComboBoxMenuButton" | "ComboBoxGrouping" | "TextFieldWithComboBox" => {
            Shown::Role("combobox")
        }
        "Iframe" | "IframePresentational" => Shown::Role("iframe"),
        "DisclosureTriangle" => Shown::Role("button"),
        "Details" => Shown::Role("group"),
        "Section" => Shown::Role("region"),
        "Figcaption" => Shown::Transparent,
        other => known(other).map_or(Shown::Transparent, Shown::Role),
    }
}

/// The static name of an ARIA role, so that roles can be `&'static str`.
fn known(role: &str) -> Option<&'static str> {
    const ROLES: &[&str] = &[
        "alert",
        "alertdialog",
        "application",
        "article",
        "banner",
        "blockquote",
        "button",
        "caption",
        "cell",
        "checkbox",
        "code",
        "columnheader",
        "combobox",
        "complementary",
        "contentinfo",
        "definition",
        "deletion",
        "dialog",
        "directory",
        "document",
        "emphasis",
        "feed",
        "figure",
        "form",
        "grid",
        "gridcell",
        "group",
        "heading",
        "img",
        "insertion",
        "link",
        "list",
        "listbox",
        "listitem",
        "log",
        "main",
        "mark",
        "marquee",
        "math",
        "menu",
        "menubar",
        "menuitem",
        "menuitemcheckbox",
        "menuitemradio",
        "meter",
        "navigation",
        "note",
        "option",
        "paragraph",
        "progressbar",
        "radio",
        "radiogroup",
        "region",
        "row",
        "rowgroup",
        "rowheader",
        "scrollbar",
        "search",
        "searchbox",
        "separator",
        "slider",
        "spinbutton",
        "status",
        "strong",
        "subscript",
        "superscript",
        "switch",
        "tab",
        "table",
        "tablist",
        "tabpanel",
        "term",
        "textbox",
        "time",
        "timer",
        "toolbar",
        "tooltip",
        "tree",
        "treegrid",
        "treeitem",
        "sectionheader",
        "sectionfooter",
    ];
    ROLES.iter().find(|r| **r == role).copied()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn chromium_internal_roles_map_to_aria() {
        assert_eq!(shown("image"), Shown::Role("img"));
        assert_eq!(shown("MenuListOption"), Shown::Role("option"));
        assert_eq!(shown("Date"), Shown::Leaf("textbox"));
        assert_eq!(shown("StaticText"), Shown::Text);
        assert_eq!(shown("generic"), Shown::Transparent);
        assert_eq!(shown("SomethingNewInChromium"), Shown::Transparent);
        assert_eq!(shown("button"), Shown::Role("button"));
        assert_eq!(shown("made-up"), Shown::Transparent);
        assert!(is_interactive("textbox") && !is_interactive("heading"));
    }
}
