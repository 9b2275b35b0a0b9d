//! Generic references: a target named by its kind rather than its name, as test sheets write
//! them — "the text field", "both text fields", "the 3rd input textbox", "the 9th search
//! result", "a textarea", 「入力欄」, 「2番目の結果」. The resolver takes the one element of that
//! kind the page holds (or the one at that position, or exactly as many as the step says).

use crate::text::fold;

/// The kinds of element a step can name without a name.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Kind {
    /// A field that takes typed text (a text box, a search box, a text area…).
    TextField,
    /// A multi-line text area.
    TextArea,
    /// A date field.
    Date,
    Button,
    Link,
    Checkbox,
    Radio,
    /// A drop-down or list of options.
    List,
    /// A result of a search or a list: a link in the page's content.
    Result,
    /// A collapsible section (its disclosure button).
    Section,
}

impl Kind {
    /// The roles an element of this kind has in the snapshot.
    pub fn roles(self) -> &'static [&'static str] {
        match self {
            Kind::TextField => &["textbox", "searchbox", "spinbutton"],
            // A text area and a date field are text boxes to assistive technology; the
            // resolver tells them apart by what the page says of them.
            Kind::TextArea | Kind::Date => &["textbox"],
            Kind::Button => &["button"],
            Kind::Link | Kind::Result => &["link"],
            Kind::Checkbox => &["checkbox", "switch"],
            Kind::Radio => &["radio"],
            Kind::List => &["combobox", "listbox"],
            Kind::Section => &["button"],
        }
    }
}

/// Which of the elements of a kind.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Which {
    /// The only one there is ("the text field").
    Only,
    /// The n-th, from 1 ("the 3rd input textbox", 「2番目の結果」).
    Nth(usize),
    /// The last one.
    Last,
    /// Exactly this many, every one ("both text fields").
    All(usize),
}

/// A reference by kind.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Generic {
    pub kind: Kind,
    pub which: Which,
}

/// Phrases naming a kind, longest first within a kind (folded; Japanese as written).
const KINDS: &[(&str, Kind)] = &[
    ("search results", Kind::Result),
    ("search result", Kind::Result),
    ("results", Kind::Result),
    ("result", Kind::Result),
    ("結果", Kind::Result),
    ("検索結果", Kind::Result),
    ("input textboxes", Kind::TextField),
    ("input textbox", Kind::TextField),
    ("input text boxes", Kind::TextField),
    ("input text box", Kind::TextField),
    ("input fields", Kind::TextField),
    ("input field", Kind::TextField),
    ("input boxes", Kind::TextField),
    ("input box", Kind::TextField),
    ("text fields", Kind::TextField),
    ("text field", Kind::TextField),
    ("text inputs", Kind::TextField),
    ("text input", Kind::TextField),
    ("text boxes", Kind::TextField),
    ("text box", Kind::TextField),
    ("textboxes", Kind::TextField),
    ("textbox", Kind::TextField),
    ("inputs", Kind::TextField),
    ("input", Kind::TextField),
    ("fields", Kind::TextField),
    ("field", Kind::TextField),
    ("入力欄", Kind::TextField),
    ("入力フィールド", Kind::TextField),
    ("テキストボックス", Kind::TextField),
    ("入力", Kind::TextField),
    ("textareas", Kind::TextArea),
    ("textarea", Kind::TextArea),
    ("text areas", Kind::TextArea),
    ("text area", Kind::TextArea),
    ("テキストエリア", Kind::TextArea),
    ("date field", Kind::Date),
    ("date input", Kind::Date),
    ("date", Kind::Date),
    ("日付欄", Kind::Date),
    ("日付", Kind::Date),
    ("buttons", Kind::Button),
    ("button", Kind::Button),
    ("ボタン", Kind::Button),
    ("links", Kind::Link),
    ("link", Kind::Link),
    ("リンク", Kind::Link),
    ("checkboxes", Kind::Checkbox),
    ("checkbox", Kind::Checkbox),
    ("check boxes", Kind::Checkbox),
    ("check box", Kind::Checkbox),
    ("チェックボックス", Kind::Checkbox),
    ("radio buttons", Kind::Radio),
    ("radio button", Kind::Radio),
    ("radio", Kind::Radio),
    ("ラジオボタン", Kind::Radio),
    ("dropdown", Kind::List),
    ("drop-down", Kind::List),
    ("select", Kind::List),
    ("list", Kind::List),
    ("listbox", Kind::List),
    ("list box", Kind::List),
    ("プルダウン", Kind::List),
    ("リスト", Kind::List),
    ("section below", Kind::Section),
    ("section", Kind::Section),
    ("セクション", Kind::Section),
];

/// Numbers written as words, for "the second link" and "both".
const ORDINAL_WORDS: &[(&str, usize)] = &[
    ("first", 1),
    ("second", 2),
    ("third", 3),
    ("fourth", 4),
    ("fifth", 5),
    ("sixth", 6),
    ("seventh", 7),
    ("eighth", 8),
    ("ninth", 9),
    ("tenth", 10),
];

const COUNT_WORDS: &[(&str, usize)] = &[("both", 2), ("two", 2), ("three", 3), ("four", 4), ("all two", 2)];

/// The reference by kind a phrase makes, if it is one: the phrase (articles and filler gone)
/// is nothing but a kind, an ordinal or a count before it.
pub fn reference(phrase: &str) -> Option<Generic> {
    let folded = fold(phrase);
    let mut rest = folded.trim().trim_end_matches(['.', ',', '!', '。']).trim();
    for article in ["the ", "a ", "an ", "one ", "this ", "that "] {
        if let Some(r) = rest.strip_prefix(article) {
            rest = r.trim_start();
        }
    }
    let (which, rest) = which_of(rest);
    let rest = rest.trim().trim_start_matches('の').trim();
    let kind = KINDS.iter().find(|(words, _)| rest == *words).map(|(_, kind)| *kind)?;
    Some(Generic { kind, which })
}

/// An ordinal or count at the start of `text`, and the rest.
fn which_of(text: &str) -> (Which, &str) {
    if let Some(rest) = text.strip_prefix("last ") {
        return (Which::Last, rest);
    }
    for (word, n) in COUNT_WORDS {
        if let Some(rest) = text.strip_prefix(word).filter(|r| r.starts_with(' ')) {
            return (Which::All(*n), rest);
        }
    }
    for (word, n) in ORDINAL_WORDS {
        if let Some(rest) = text.strip_prefix(word).filter(|r| r.starts_with(' ')) {
            return (Which::Nth(*n), rest);
        }
    }
    // 3rd, 21st, 9th; 2番目, 3つ目.
    let digits: String = text.chars().take_while(char::is_ascii_digit).collect();
    if let Ok(n) = digits.parse::<usize>() {
        let after = &text[digits.len()..];
        for suffix in ["st ", "nd ", "rd ", "th ", "番目", "つ目", "個目", "件目"] {
            if let Some(rest) = after.strip_prefix(suffix) {
                return if n == 0 { (Which::Only, text) } else { (Which::Nth(n), rest) };
            }
        }
    }
    (Which::Only, text)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn phrases_naming_a_kind_read_as_references() {
        let cases: [(&str, Option<(Kind, Which)>); 16] = [
            ("the text field", Some((Kind::TextField, Which::Only))),
            ("The date", Some((Kind::Date, Which::Only))),
            ("both text fields", Some((Kind::TextField, Which::All(2)))),
            ("the button", Some((Kind::Button, Which::Only))),
            ("a textarea", Some((Kind::TextArea, Which::Only))),
            ("the checkbox", Some((Kind::Checkbox, Which::Only))),
            ("入力欄", Some((Kind::TextField, Which::Only))),
            ("the 3rd input textbox", Some((Kind::TextField, Which::Nth(3)))),
            ("the 9th search result", Some((Kind::Result, Which::Nth(9)))),
            ("2番目の結果", Some((Kind::Result, Which::Nth(2)))),
            ("the second link", Some((Kind::Link, Which::Nth(2)))),
            ("the last button", Some((Kind::Button, Which::Last))),
            ("the list", Some((Kind::List, Which::Only))),
            ("the section below", Some((Kind::Section, Which::Only))),
            ("the Customer field", None),
            ("Save button", None),
        ];
        for (phrase, expected) in cases {
            assert_eq!(reference(phrase).map(|g| (g.kind, g.which)), expected, "{phrase}");
        }
    }
}
