//! What a step asks for, read from its words: the offline resolver's understanding of ordinary
//! web work in English and Japanese. A step becomes one or more [`Intent`]s (a compound line —
//! "対象月で「2024年4月」を選んで「表示」を押す" — gives two), each an action with the phrase that
//! names its target, the value it types or chooses, and the words that place the target
//! ("in the contact form", 「お知らせ」の).
//!
//! Nothing here looks at a page: [`crate::resolve`] matches intents to what the page shows.
//! Parsing never fails — a step it cannot read is a click on what its words name, which the
//! resolver then finds or reports as not found.

use std::sync::OnceLock;

use regex::Regex;

use crate::text::{self, fold, quoted, Quoted};

/// A value a step gives: a secret's placeholder (its name), or text written in the step.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum StepValue {
    Placeholder(String),
    Literal(String),
}

impl StepValue {
    /// As the step wrote it: `{{NAME}}`, or the text.
    pub fn shown(&self) -> String {
        match self {
            StepValue::Placeholder(name) => format!("{{{{{name}}}}}"),
            StepValue::Literal(text) => text.clone(),
        }
    }
}

/// What to do.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Action {
    /// Open an address, or follow a link, tab or menu item to a page.
    Open {
        url: Option<String>,
    },
    Click,
    /// Type into fields: each field phrase (none: the one field there is) with its value.
    Fill(Vec<(Option<String>, StepValue)>),
    /// Choose an option (of a drop-down, a radio group, a list) — or set a field to a value.
    Choose {
        field: Option<String>,
        value: String,
    },
    /// Check or uncheck a checkbox or switch.
    Check {
        on: bool,
    },
    Search {
        query: StepValue,
    },
    /// Sign in: the user and password values, in the fields a login form has.
    Login {
        user: Option<StepValue>,
        password: Option<StepValue>,
    },
    /// Get a file: click what downloads it.
    Download,
    /// Wait until a text shows.
    Wait,
    /// Check that texts are (or, negated, are not) shown; `role` when the step names one
    /// (a heading, a table).
    Verify {
        expected: Vec<String>,
        negated: bool,
        role: Option<&'static str>,
    },
    /// Read the value the page shows for `label` and keep it as `name`.
    Note {
        label: String,
        name: String,
    },
    Press {
        key: String,
    },
    Hover,
    Scroll {
        down: bool,
    },
    /// Close a dialog or panel.
    Close,
    Back,
}

/// One thing a step asks for.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Intent {
    pub action: Action,
    /// Quoted phrases naming the target, in order (an exact name a page should show).
    pub names: Vec<String>,
    /// The clause's words naming the target (the verb and filler taken off); for Japanese,
    /// the words before the verb.
    pub phrase: String,
    /// Every word of the clause, for matching names that include the verb ("Add to cart").
    pub words: Vec<String>,
    /// Roles the words ask for (`button`, `link`, `textbox`…).
    pub roles: Vec<&'static str>,
    /// Phrases that place the target: a form, a section, a dialog, a row.
    pub context: Vec<String>,
    /// A click that is expected to download a file ("…を押して明細をダウンロードする").
    pub downloads: bool,
    /// Every quoted phrase of the clause: a quoted value is typed as written, an unquoted one
    /// loses the words its field's label already says ([`crate::values::beyond_label`]).
    pub quoted: Vec<String>,
    /// A menu to open on the way to its item ("Reports" of "Aged receivables from the Reports
    /// menu", "Jinny" of "Jinny>Lynett"): pointed at, and clicked unless it is a link.
    pub opens: bool,
}

impl Intent {
    fn new(action: Action, clause: &str) -> Intent {
        Intent {
            action,
            names: Vec::new(),
            phrase: String::new(),
            words: text::words(clause),
            roles: role_hints(clause),
            context: Vec::new(),
            downloads: false,
            quoted: quoted(clause).into_iter().map(|q| q.text).collect(),
            opens: false,
        }
    }

    /// The intent in words, for execution plans and records: `click "Sign in"`.
    pub fn describe(&self) -> String {
        let target = match (self.names.first(), self.phrase.trim()) {
            (Some(name), _) => format!("\"{name}\""),
            (None, "") => String::new(),
            (None, phrase) => phrase.to_owned(),
        };
        let placed = if self.context.is_empty() { String::new() } else { format!(" in {}", self.context.join(", ")) };
        match &self.action {
            Action::Open { url: Some(url) } => format!("open {url}"),
            Action::Open { url: None } => format!("open {target}{placed}"),
            Action::Click if self.downloads => format!("click {target}{placed} and save the download"),
            Action::Click => format!("click {target}{placed}"),
            Action::Fill(pairs) => pairs
                .iter()
                .map(|(field, value)| match field {
                    Some(field) => format!("fill \"{field}\" with {}", value.shown()),
                    None => format!("type {}", value.shown()),
                })
                .collect::<Vec<_>>()
                .join("; "),
            Action::Choose { field: Some(field), value } => format!("choose \"{value}\" for \"{field}\""),
            Action::Choose { field: None, value } => format!("choose \"{value}\""),
            Action::Check { on: true } => format!("check {target}{placed}"),
            Action::Check { on: false } => format!("uncheck {target}{placed}"),
            Action::Search { query } => format!("search for {}", query.shown()),
            Action::Login { user, password } => format!(
                "sign in as {} with {}",
                user.as_ref().map_or_else(|| "the user".to_owned(), StepValue::shown),
                password.as_ref().map_or_else(|| "the password".to_owned(), StepValue::shown)
            ),
            Action::Download => format!("download {target}{placed}"),
            Action::Wait => format!("wait for {target}"),
            Action::Verify { expected, negated, role } => {
                let what = expected.iter().map(|e| format!("\"{e}\"")).collect::<Vec<_>>().join(" and ");
                let role = role.map(|r| format!("{r} ")).unwrap_or_default();
                format!("check that {role}{what} {}", if *negated { "is not shown" } else { "is shown" })
            }
            Action::Note { label, name } => format!("note \"{label}\" as {name}"),
            Action::Press { key } => format!("press {key}"),
            Action::Hover => format!("hover over {target}{placed}"),
            Action::Scroll { down } => format!("scroll {}", if *down { "down" } else { "up" }),
            Action::Close => format!("close {target}"),
            Action::Back => "go back".to_owned(),
        }
    }
}

/// The intents of one objective, in order.
pub fn parse_step(step: &str) -> Vec<Intent> {
    let step = step.trim();
    // "… the Globex invoice on page 3": the table is turned to that page first.
    if let Some((page_turn, rest)) = on_page(step) {
        let mut intents = vec![page_turn];
        intents.extend(parse_step(&rest));
        return intents;
    }
    let quotes = quoted(step);
    let bare = text::without_quotes(step, &quotes, "");
    let intents = if bare.chars().any(text::is_japanese) { japanese(step) } else { english(step) };
    let intents = merge_download(intents);
    if intents.is_empty() {
        let mut intent = Intent::new(Action::Click, step);
        intent.phrase = step.to_owned();
        intent.names = quotes.into_iter().map(|q| q.text).collect();
        return vec![intent];
    }
    intents
}

/// A step that places its target on a page of a paginated table ("… on page 3", 「3ページ目の…」):
/// a click on that page's control (`Page 3`, or `3` in Japanese pagers), and the step without
/// the place.
fn on_page(step: &str) -> Option<(Intent, String)> {
    static ON_PAGE: OnceLock<Regex> = OnceLock::new();
    let re = ON_PAGE.get_or_init(|| {
        Regex::new(r"(?i)\s*\b(?:on|from) (?:the )?page (\d{1,3})\b|(\d{1,3})\s*ページ目の?")
            .unwrap_or_else(|e| unreachable!("fixed pattern: {e}"))
    });
    let found = re.captures(step)?;
    let whole = found.get(0)?;
    let (name, english) = match (found.get(1), found.get(2)) {
        (Some(n), _) => (format!("Page {}", n.as_str()), true),
        (_, Some(n)) => (n.as_str().to_owned(), false),
        _ => return None,
    };
    let rest = format!("{}{}", &step[..whole.start()], &step[whole.end()..]);
    let mut turn = Intent::new(Action::Click, &name);
    turn.names = vec![name.clone()];
    turn.phrase = name;
    turn.roles = if english { vec!["button", "link"] } else { vec!["link", "button"] };
    Some((turn, rest.trim().to_owned()))
}

/// "Click X and download it" / "「X」を押して明細をダウンロードする": the click downloads.
fn merge_download(intents: Vec<Intent>) -> Vec<Intent> {
    let mut out: Vec<Intent> = Vec::with_capacity(intents.len());
    for intent in intents {
        let follows_click = out.last().is_some_and(|last| last.action == Action::Click);
        if intent.action == Action::Download && intent.names.is_empty() && follows_click {
            if let Some(last) = out.last_mut() {
                last.downloads = true;
            }
            continue;
        }
        out.push(intent);
    }
    out
}

// ---- shared pieces ----------------------------------------------------------------------------

/// `{{ NAME }}` placeholders with where they stand.
fn placeholders(text: &str) -> Vec<(usize, usize, String)> {
    static PLACEHOLDER: OnceLock<Regex> = OnceLock::new();
    let re = PLACEHOLDER.get_or_init(|| {
        Regex::new(r"\{\{\s*([A-Za-z_][A-Za-z0-9_]*)\s*\}\}").unwrap_or_else(|e| unreachable!("fixed pattern: {e}"))
    });
    re.captures_iter(text)
        .filter_map(|c| {
            let whole = c.get(0)?;
            Some((whole.start(), whole.end(), c.get(1)?.as_str().to_owned()))
        })
        .collect()
}

/// A value written in a piece of a step: a placeholder, a quoted phrase, or the text itself.
fn value_of(piece: &str) -> Option<StepValue> {
    let piece = piece.trim().trim_end_matches(['.', '。']);
    if let Some((_, _, name)) = placeholders(piece).into_iter().next() {
        return Some(StepValue::Placeholder(name));
    }
    if let Some(q) = quoted(piece).into_iter().next() {
        return Some(StepValue::Literal(q.text));
    }
    let text = piece.trim_matches(|c: char| c.is_whitespace() || c == ',' || c == '、');
    (!text.is_empty()).then(|| StepValue::Literal(text.to_owned()))
}

/// Whether a placeholder's name says it holds a password.
fn is_password_name(name: &str) -> bool {
    let upper = name.to_ascii_uppercase();
    ["PASS", "PWD", "PIN", "SECRET"].iter().any(|p| upper.contains(p))
}

/// Roles the words of a clause ask for.
fn role_hints(clause: &str) -> Vec<&'static str> {
    const HINTS: &[(&str, &[&str])] = &[
        ("button", &["button"]),
        ("ボタン", &["button"]),
        ("link", &["link"]),
        ("リンク", &["link"]),
        ("tab", &["tab"]),
        ("タブ", &["tab"]),
        ("checkbox", &["checkbox"]),
        ("check box", &["checkbox"]),
        ("チェックボックス", &["checkbox"]),
        ("radio", &["radio"]),
        ("ラジオ", &["radio"]),
        ("switch", &["switch"]),
        ("toggle", &["switch", "checkbox"]),
        ("dropdown", &["combobox", "listbox"]),
        ("drop-down", &["combobox", "listbox"]),
        ("プルダウン", &["combobox", "listbox"]),
        ("menu item", &["menuitem"]),
        ("heading", &["heading"]),
        ("見出し", &["heading"]),
        ("field", &["textbox", "searchbox", "combobox", "spinbutton"]),
        ("text box", &["textbox", "searchbox"]),
        ("textbox", &["textbox", "searchbox"]),
        ("box", &["textbox", "checkbox", "searchbox"]),
        ("欄", &["textbox", "searchbox", "combobox", "spinbutton"]),
        ("table", &["table"]),
        ("テーブル", &["table"]),
    ];
    let folded = fold(clause);
    let mut roles: Vec<&'static str> = Vec::new();
    for (word, hinted) in HINTS {
        let found = if word.is_ascii() { text::contains_folded(&folded, word) } else { folded.contains(word) };
        if found {
            for role in *hinted {
                if !roles.contains(role) {
                    roles.push(role);
                }
            }
        }
    }
    roles
}

/// Words a target phrase may end with that name its kind, not it ("the Customer field").
const KIND_WORDS: &[&str] = &[
    "field",
    "box",
    "text box",
    "textbox",
    "input",
    "button",
    "link",
    "tab",
    "checkbox",
    "check box",
    "dropdown",
    "drop-down",
    "menu",
    "option",
    "switch",
    "toggle",
    "page",
    "screen",
    "section",
    "icon",
    "list",
    "area",
];

/// A phrase without articles, possessives and a trailing kind word: "the Customer field" →
/// "Customer".
fn clean_phrase(phrase: &str) -> String {
    let mut phrase = phrase.trim().trim_end_matches(['.', ',', ';', '!']).trim().to_owned();
    loop {
        let lower = phrase.to_ascii_lowercase();
        let stripped = ["the ", "a ", "an ", "your ", "my ", "our ", "this ", "that "]
            .iter()
            .find_map(|a| lower.starts_with(a).then(|| phrase[a.len()..].trim().to_owned()));
        match stripped {
            Some(rest) => phrase = rest,
            None => break,
        }
    }
    // "the 3rd input textbox" names nothing but a kind: the kind word is all it says.
    if crate::generic::reference(&phrase).is_some() {
        return phrase;
    }
    let lower = phrase.to_ascii_lowercase();
    for kind in KIND_WORDS {
        if let Some(rest) = lower.strip_suffix(kind).filter(|r| r.ends_with(' ')) {
            return phrase[..rest.len()].trim().to_owned();
        }
    }
    phrase
}

// ---- English -----------------------------------------------------------------------------------

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Verb {
    Login,
    Open,
    Back,
    Click,
    /// `press`: a key, or a click.
    Press,
    Fill,
    /// `set`: a field to a value, whatever kind of field it is.
    Set,
    Choose,
    /// `check`: a checkbox, or a check of the page.
    CheckOrVerify,
    Check(bool),
    Verify,
    Search,
    Download,
    Wait,
    Note,
    Hover,
    Scroll(bool),
    Close,
    /// A verb that is also the control's name ("Add to cart", "Send", "Submit").
    Named,
}

/// English verbs, longest first within a start word.
const ENGLISH_VERBS: &[(&str, Verb)] = &[
    ("sign in", Verb::Login),
    ("sign on", Verb::Login),
    ("log in", Verb::Login),
    ("log on", Verb::Login),
    ("log into", Verb::Login),
    ("login", Verb::Login),
    ("go back", Verb::Back),
    ("go to", Verb::Open),
    ("navigate to", Verb::Open),
    ("browse to", Verb::Open),
    ("switch to", Verb::Open),
    ("open", Verb::Open),
    ("visit", Verb::Open),
    ("click on", Verb::Click),
    ("focus into", Verb::Click),
    ("focus on", Verb::Click),
    ("focus", Verb::Click),
    ("click", Verb::Click),
    ("double-click", Verb::Click),
    ("tap on", Verb::Click),
    ("tap", Verb::Click),
    ("hit", Verb::Press),
    ("press", Verb::Press),
    ("push", Verb::Click),
    ("follow", Verb::Click),
    ("fill in", Verb::Fill),
    ("fill out", Verb::Fill),
    ("fill", Verb::Fill),
    ("type in", Verb::Fill),
    ("type", Verb::Fill),
    ("enter", Verb::Fill),
    ("write", Verb::Fill),
    ("input", Verb::Fill),
    ("key in", Verb::Fill),
    ("put", Verb::Fill),
    ("set", Verb::Set),
    ("change", Verb::Set),
    ("select", Verb::Choose),
    ("choose", Verb::Choose),
    ("pick", Verb::Choose),
    ("check that", Verb::Verify),
    ("check whether", Verb::Verify),
    ("check if", Verb::Verify),
    ("verify that", Verb::Verify),
    ("verify", Verb::Verify),
    ("confirm that", Verb::Verify),
    ("make sure that", Verb::Verify),
    ("make sure", Verb::Verify),
    ("ensure that", Verb::Verify),
    ("ensure", Verb::Verify),
    ("assert that", Verb::Verify),
    ("assert", Verb::Verify),
    ("see that", Verb::Verify),
    ("expect", Verb::Verify),
    ("validate that", Verb::Verify),
    ("check", Verb::CheckOrVerify),
    ("tick", Verb::Check(true)),
    ("untick", Verb::Check(false)),
    ("uncheck", Verb::Check(false)),
    ("turn on", Verb::Check(true)),
    ("turn off", Verb::Check(false)),
    ("switch on", Verb::Check(true)),
    ("switch off", Verb::Check(false)),
    ("enable", Verb::Check(true)),
    ("disable", Verb::Check(false)),
    ("agree to", Verb::Check(true)),
    ("search for", Verb::Search),
    ("search", Verb::Search),
    ("look up", Verb::Search),
    ("look for", Verb::Search),
    ("find", Verb::Search),
    ("download", Verb::Download),
    ("wait for", Verb::Wait),
    ("wait until", Verb::Wait),
    ("wait", Verb::Wait),
    ("note down", Verb::Note),
    ("write down", Verb::Note),
    ("note", Verb::Note),
    ("record", Verb::Note),
    ("remember", Verb::Note),
    ("copy", Verb::Note),
    ("hover over", Verb::Hover),
    ("hover", Verb::Hover),
    ("mouse over", Verb::Hover),
    ("scroll down", Verb::Scroll(true)),
    ("scroll up", Verb::Scroll(false)),
    ("scroll", Verb::Scroll(true)),
    ("close", Verb::Close),
    ("dismiss", Verb::Close),
    ("add", Verb::Named),
    ("remove", Verb::Named),
    ("delete", Verb::Named),
    ("send", Verb::Named),
    ("submit", Verb::Named),
    ("save", Verb::Named),
    ("book", Verb::Named),
    ("apply", Verb::Named),
    ("continue", Verb::Named),
    ("accept", Verb::Named),
    ("reject", Verb::Named),
    ("decline", Verb::Named),
    ("confirm", Verb::Named),
    ("approve", Verb::Named),
    ("star", Verb::Named),
    ("refresh", Verb::Named),
    ("reload", Verb::Named),
    ("expand", Verb::Named),
    ("collapse", Verb::Named),
    ("upload", Verb::Named),
    ("subscribe", Verb::Named),
    ("buy", Verb::Named),
    ("order", Verb::Named),
    ("pay", Verb::Named),
    ("sort", Verb::Named),
    ("filter", Verb::Named),
];

/// Keys `press` can name.
const KEYS: &[(&str, &str)] = &[
    ("enter", "Enter"),
    ("return", "Enter"),
    ("tab", "Tab"),
    ("escape", "Escape"),
    ("esc", "Escape"),
    ("space", "Space"),
    ("backspace", "Backspace"),
    ("delete", "Delete"),
    ("arrow down", "ArrowDown"),
    ("down arrow", "ArrowDown"),
    ("arrow up", "ArrowUp"),
    ("up arrow", "ArrowUp"),
    ("page down", "PageDown"),
    ("page up", "PageUp"),
];

/// The verb a clause starts with, and the rest.
fn english_verb(clause: &str) -> Option<(Verb, String)> {
    let lower = clause.to_ascii_lowercase();
    for (words, verb) in ENGLISH_VERBS {
        if let Some(rest) = lower.strip_prefix(words) {
            if rest.is_empty() || rest.starts_with([' ', ',', ':']) {
                return Some((*verb, clause[words.len()..].trim_start_matches([' ', ',', ':']).to_owned()));
            }
        }
    }
    None
}

/// Clause starts that carry no meaning.
const FILLERS: &[&str] =
    &["please ", "now ", "then ", "and then ", "and ", "also ", "next ", "first ", "finally ", "lastly "];

fn english(step: &str) -> Vec<Intent> {
    // "In the contact form, enter …": the place holds for every clause of the step.
    let (place, step) = leading_place(step);
    let mut intents = Vec::new();
    for clause in english_clauses(&step) {
        intents.extend(english_clause(&clause).into_iter().flat_map(each_of_them).flat_map(through_menu));
    }
    if let Some(place) = place {
        for intent in &mut intents {
            intent.context.insert(0, place.clone());
        }
    }
    intents
}

/// A step cut into clauses at `, then`, `;`, ` then ` and at `and` / `,` before a verb —
/// never inside quotes.
fn english_clauses(step: &str) -> Vec<String> {
    let quotes = quoted(step);
    let inside = |i: usize| quotes.iter().any(|q| i > q.start && i < q.end);
    let mut cuts: Vec<(usize, usize)> = Vec::new();
    let lower = step.to_ascii_lowercase();
    for separator in [", then ", ", and then ", " and then ", "; ", ", and ", " and ", " then ", ", "] {
        let mut from = 0;
        while let Some(i) = lower[from..].find(separator) {
            let at = from + i;
            from = at + separator.len();
            if inside(at) || cuts.iter().any(|&(s, e)| at < e && at + separator.len() > s) {
                continue;
            }
            let rest = step[at + separator.len()..].trim_start();
            let next_is_verb = english_verb(rest).is_some_and(|(verb, _)| verb != Verb::Named || separator != ", ");
            let always = matches!(separator, ", then " | ", and then " | " and then " | "; ");
            if always || next_is_verb {
                cuts.push((at, at + separator.len()));
            }
        }
    }
    cuts.sort_unstable();
    let mut clauses = Vec::new();
    let mut from = 0;
    for (start, end) in cuts {
        if start >= from {
            clauses.push(step[from..start].to_owned());
            from = end;
        }
    }
    clauses.push(step[from..].to_owned());
    clauses.into_iter().map(|c| c.trim().to_owned()).filter(|c| !c.is_empty()).collect()
}

/// "In the contact form, enter …": the leading place, and the rest.
fn leading_place(clause: &str) -> (Option<String>, String) {
    let lower = clause.to_ascii_lowercase();
    for start in ["in the ", "on the ", "from the ", "within the ", "inside the ", "under the ", "for the ", "for "] {
        if lower.starts_with(start) {
            if let Some(comma) = clause.find(',') {
                let place = clean_phrase(&clause[start.len()..comma]);
                return (Some(place), clause[comma + 1..].trim().to_owned());
            }
        }
    }
    (None, clause.to_owned())
}

fn english_clause(clause: &str) -> Vec<Intent> {
    let mut clause = clause.trim().trim_end_matches(['.', '!']).to_owned();
    loop {
        let lower = clause.to_ascii_lowercase();
        match FILLERS.iter().find(|f| lower.starts_with(**f)) {
            Some(filler) => clause = clause[filler.len()..].to_owned(),
            None => break,
        }
    }
    let names: Vec<String> = quoted(&clause).into_iter().map(|q| q.text).collect();
    let (verb, rest) = english_verb(&clause).unwrap_or((Verb::Named, clause.clone()));
    let mut intents = match verb {
        Verb::Login => vec![login(&clause)],
        Verb::Open => {
            let url = url_in(&rest);
            let mut intent = Intent::new(Action::Open { url: url.clone() }, &clause);
            if url.is_none() {
                // "Open Aged receivables from the Reports menu": a place, as for a click.
                match split_place(&rest) {
                    (target, Some(place)) if fold(&place).ends_with(" menu") => {
                        intent.phrase = clean_phrase(&target);
                        intent.context.push(place);
                    }
                    _ => intent.phrase = clean_phrase(&rest),
                }
            }
            vec![intent]
        }
        Verb::Back => vec![Intent::new(Action::Back, &clause)],
        Verb::Click => vec![targeted(Action::Click, &clause, &rest)],
        Verb::Press => match key_in(&rest) {
            Some(key) => vec![Intent::new(Action::Press { key }, &clause)],
            None => vec![targeted(Action::Click, &clause, &rest)],
        },
        Verb::Named => match values_with(&clause) {
            // "Pay the renewal with the card 4000 …, expiry 12/29, CVC 314": the values into
            // their fields, then the control.
            Some((control, pairs)) => {
                let mut fill = Intent::new(Action::Fill(pairs), &clause);
                fill.phrase = clause[control.len()..].trim().to_owned();
                vec![fill, targeted(Action::Click, control, control)]
            }
            None => vec![targeted(Action::Click, &clause, &clause)],
        },
        Verb::Fill => vec![fill_english(&clause, &rest)],
        Verb::Set => vec![set_english(&clause, &rest)],
        Verb::Choose => choose_english_list(&clause, &rest),
        Verb::CheckOrVerify if is_assertion(&rest) => vec![verify_english(&clause, &rest)],
        Verb::CheckOrVerify => vec![targeted(Action::Check { on: true }, &clause, &rest)],
        Verb::Check(on) => vec![targeted(Action::Check { on }, &clause, &rest)],
        Verb::Verify => vec![verify_english(&clause, &rest)],
        Verb::Search => search_bounded(&clause, &rest),
        Verb::Download => vec![targeted(Action::Download, &clause, &rest)],
        Verb::Wait => {
            let mut intent = targeted(Action::Wait, &clause, &rest);
            let expected = expected_english(&rest);
            if intent.names.is_empty() {
                intent.names = expected.0;
            }
            vec![intent]
        }
        Verb::Note => vec![note_english(&clause, &rest)],
        Verb::Hover => vec![targeted(Action::Hover, &clause, &rest)],
        Verb::Scroll(down) => vec![Intent::new(Action::Scroll { down }, &clause)],
        Verb::Close => vec![targeted(Action::Close, &clause, &rest)],
    };
    for intent in &mut intents {
        if intent.names.is_empty() && !matches!(intent.action, Action::Verify { .. } | Action::Fill(_)) {
            intent.names = names.clone();
        }
    }
    intents
}

/// Values each with the phrase naming its field (none: the one field there is), as a fill takes them.
type FieldValues = Vec<(Option<String>, StepValue)>;

/// "Pay the renewal with the card 4000 0000 0000 0002, expiry 12/29, CVC 314, name on card Lena
/// Fischer": the words before "with" (the control), and two or more values each after the
/// words naming its field.
fn values_with(clause: &str) -> Option<(&str, FieldValues)> {
    let masked = mask_quotes(clause).to_ascii_lowercase();
    let at = masked.find(" with ")?;
    let list = &clause[at + " with ".len()..];
    let list_masked = &masked[at + " with ".len()..];
    let mut cuts = Vec::new();
    let mut i = 0;
    while i < list_masked.len() {
        let len = [", and ", ", ", " and "].iter().find(|m| list_masked[i..].starts_with(**m)).map_or(0, |m| m.len());
        if len > 0 {
            cuts.push((i, len));
            i += len;
        } else {
            i += list_masked[i..].chars().next().map_or(1, char::len_utf8);
        }
    }
    let items = split_at(list, &cuts);
    if items.len() < 2 {
        return None;
    }
    let pairs = items.into_iter().map(field_then_value).collect::<Option<Vec<_>>>()?;
    Some((clause[..at].trim(), pairs))
}

/// "name on card Lena Fischer" → (name on card, Lena Fischer): the field is the first word and
/// the lower-case words after it; the value starts at the first word with a capital, a digit
/// or a sign, or at a quote or placeholder.
fn field_then_value(item: &str) -> Option<(Option<String>, StepValue)> {
    let item = item.trim();
    let item = ["the ", "a ", "an ", "my ", "your "].iter().find_map(|a| item.strip_prefix(a)).unwrap_or(item);
    let mut words = item.match_indices(|c: char| c.is_whitespace()).map(|(i, _)| i + 1);
    let value_at = words
        .find(|&i| !item[i..].split_whitespace().next().is_some_and(|w| w.chars().all(|c| c.is_ascii_lowercase())))?;
    let value = value_of(&item[value_at..])?;
    Some((Some(item[..value_at].trim().to_owned()), value))
}

/// An action on the element the rest of the clause names: "the Red widget's Add button",
/// "Export to PDF". A trailing " in/on the X" places it.
fn targeted(action: Action, clause: &str, rest: &str) -> Intent {
    let mut intent = Intent::new(action, clause);
    let (target, place) = split_place(without_purpose(rest));
    intent.phrase = clean_phrase(&target);
    if let Some(place) = place {
        intent.context.push(place);
    }
    intent
}

/// A target without the purpose a step gives it: "Refresh to show the totals" → "Refresh",
/// "Save so that the changes are kept" → "Save". Only when what follows "to" is a verb: "Add to
/// cart" and "Back to top" are names.
fn without_purpose(rest: &str) -> &str {
    // Verbs that are not also the last word of a control's name ("Add to order", "Go to list").
    const PURPOSE_VERBS: &[&str] = &[
        "show", "see", "view", "display", "open", "get", "keep", "start", "confirm", "continue", "load", "refresh",
        "update", "apply", "make", "finish", "complete", "reveal", "expand", "close", "send", "submit", "print",
        "download", "proceed", "finalize", "finalise", "accept", "reload", "find", "bring", "pay", "reserve",
    ];
    let lower = rest.to_ascii_lowercase();
    let mut cut = None;
    for marker in [" so that ", " in order to "] {
        cut = cut.or(lower.find(marker));
    }
    let purpose = lower.match_indices(" to ").find(|(i, marker)| {
        lower[i + marker.len()..].split_whitespace().next().is_some_and(|next| PURPOSE_VERBS.contains(&next))
    });
    cut = match (cut, purpose) {
        (Some(a), Some((b, _))) => Some(a.min(b)),
        (a, b) => a.or(b.map(|(i, _)| i)),
    };
    match cut {
        Some(i) if !rest[..i].trim().is_empty() => &rest[..i],
        _ => rest,
    }
}

/// "X in the Y" → (X, Y) when Y reads as a place (a form, a section, a dialog, a row, a card).
fn split_place(rest: &str) -> (String, Option<String>) {
    let lower = rest.to_ascii_lowercase();
    for marker in [" in the ", " on the ", " within the ", " inside the ", " from the ", " under the "] {
        if let Some(i) = lower.rfind(marker) {
            // "the Reports menu" stays a menu: its item is reached by opening it.
            let raw = &rest[i + marker.len()..];
            let place = if fold(raw).trim_end_matches(['.', '!']).ends_with(" menu") {
                raw.trim().trim_end_matches(['.', '!']).to_owned()
            } else {
                clean_phrase(raw)
            };
            let placeish = [
                "form",
                "dialog",
                "section",
                "panel",
                "row",
                "card",
                "menu",
                "header",
                "footer",
                "sidebar",
                "list",
                "table",
                "banner",
                "window",
                "popup",
                "pop-up",
                "navigation",
                "toolbar",
                "modal",
            ]
            .iter()
            .any(|w| lower[i + marker.len()..].contains(w));
            if placeish {
                return (rest[..i].to_owned(), Some(place));
            }
        }
    }
    (rest.to_owned(), None)
}

fn url_in(text: &str) -> Option<String> {
    static URL: OnceLock<Regex> = OnceLock::new();
    let re = URL.get_or_init(|| {
        Regex::new(r"https?://[^\s<>「」『』]+").unwrap_or_else(|e| unreachable!("fixed pattern: {e}"))
    });
    re.find(text).map(|m| m.as_str().trim_end_matches(['.', ',', ')', '"', '\'']).to_owned())
}

fn key_in(rest: &str) -> Option<String> {
    let phrase = clean_phrase(rest).to_ascii_lowercase();
    let phrase = phrase.trim_end_matches(" key").trim();
    KEYS.iter().find(|(word, _)| phrase == *word).map(|(_, key)| (*key).to_owned())
}

fn login(clause: &str) -> Intent {
    let found = placeholders(clause);
    let (mut user, mut password) = (None, None);
    for (start, _, name) in &found {
        let before = fold(&clause[..*start]);
        let says_password = before.trim_end().ends_with("password")
            || before.trim_end().ends_with("パスワード")
            || before.trim_end().ends_with("password:")
            || before.trim_end().ends_with("pw");
        if (is_password_name(name) || says_password) && password.is_none() {
            password = Some(StepValue::Placeholder(name.clone()));
        } else if user.is_none() {
            user = Some(StepValue::Placeholder(name.clone()));
        } else if password.is_none() {
            password = Some(StepValue::Placeholder(name.clone()));
        }
    }
    if found.is_empty() {
        // "Log in as alice with password s3cret" (literal values written in the step).
        static LITERAL: OnceLock<Regex> = OnceLock::new();
        let re = LITERAL.get_or_init(|| {
            Regex::new(r"(?i)(?:as|user(?:name)?|user id|email)\s+(\S+).*?password\s+(\S+)")
                .unwrap_or_else(|e| unreachable!("fixed pattern: {e}"))
        });
        if let Some(c) = re.captures(clause) {
            user = c.get(1).map(|m| StepValue::Literal(m.as_str().trim_matches(['"', '\'', ',']).to_owned()));
            password = c.get(2).map(|m| StepValue::Literal(m.as_str().trim_matches(['"', '\'', ',', '.']).to_owned()));
        }
    }
    Intent::new(Action::Login { user, password }, clause)
}

/// Where a value ends and its field starts, in a fill: "V in the F", "V into F", "V as the F",
/// "V for F"; or "F with V" (`fill`).
fn fill_english(clause: &str, rest: &str) -> Intent {
    let pairs = match named_values_into_fields(rest) {
        Some(pairs) => pairs,
        None => {
            let pairs =
                split_outside_quotes(rest, " and ").into_iter().filter_map(|part| fill_pair(&part)).collect::<Vec<_>>();
            if pairs.is_empty() {
                fill_pair(rest).into_iter().collect()
            } else {
                pairs
            }
        }
    };
    let mut intent = Intent::new(Action::Fill(every_field(pairs)), clause);
    intent.phrase = clean_phrase(rest);
    intent
}

/// "the username ada and the password s3cret into the text fields": several values, each after
/// the word that names its field, going into fields named only by their kind.
fn named_values_into_fields(rest: &str) -> Option<FieldValues> {
    let masked = mask_quotes(rest).to_ascii_lowercase();
    let (at, marker) = [" into ", " in "].iter().find_map(|m| masked.rfind(m).map(|i| (i, *m)))?;
    crate::generic::reference(&rest[at + marker.len()..])?;
    let values = &rest[..at];
    let parts: Vec<String> = mask_quotes(values)
        .to_ascii_lowercase()
        .match_indices(" and ")
        .map(|(i, _)| i)
        .chain([values.len()])
        .scan(0, |from, end| {
            let part = values[*from..end].to_owned();
            *from = end + " and ".len();
            Some(part)
        })
        .collect();
    if parts.len() < 2 {
        return None;
    }
    parts
        .iter()
        .map(|part| {
            let part = part.trim();
            let part = part.strip_prefix("the ").or_else(|| part.strip_prefix("The ")).unwrap_or(part);
            let (field, value) = part.split_once(' ')?;
            Some((Some(field.to_owned()), value_of(value)?))
        })
        .collect()
}

/// "both text fields": a pair for each of them, by its position ("1st text fields", "2nd …").
fn every_field(pairs: FieldValues) -> FieldValues {
    let mut out = Vec::with_capacity(pairs.len());
    for (field, value) in pairs {
        let every = field.as_deref().and_then(crate::generic::reference).and_then(|g| match g.which {
            crate::generic::Which::All(n) => Some(n),
            _ => None,
        });
        match (every, field.as_deref().and_then(|f| f.split_once(' '))) {
            (Some(n), Some((_, kind))) => {
                out.extend((1..=n).map(|k| (Some(format!("{} {kind}", ordinal(k))), value.clone())))
            }
            _ => out.push((field, value)),
        }
    }
    out
}

/// "Check both checkboxes": the action once on each of them, by position.
fn each_of_them(intent: Intent) -> Vec<Intent> {
    let every = crate::generic::reference(&intent.phrase).and_then(|g| match g.which {
        crate::generic::Which::All(n) if intent.names.is_empty() => Some(n),
        _ => None,
    });
    match (every, intent.phrase.split_once(' ')) {
        (Some(n), Some((_, kind))) => {
            let kind = kind.to_owned();
            (1..=n).map(|k| Intent { phrase: format!("{} {kind}", ordinal(k)), ..intent.clone() }).collect()
        }
        _ => vec![intent],
    }
}

/// 1st, 2nd, 3rd, 4th …
fn ordinal(n: usize) -> String {
    let suffix = match (n % 10, n % 100) {
        (_, 11..=13) => "th",
        (1, _) => "st",
        (2, _) => "nd",
        (3, _) => "rd",
        _ => "th",
    };
    format!("{n}{suffix}")
}

fn fill_pair(part: &str) -> Option<(Option<String>, StepValue)> {
    let lower = part.to_ascii_lowercase();
    let masked = mask_quotes(part);
    for marker in [" into the ", " in the ", " into ", " in ", " as the ", " as your ", " as ", " for the ", " for "] {
        if let Some(i) = masked.to_ascii_lowercase().find(marker) {
            let value = value_of(&part[..i])?;
            let field = clean_phrase(&part[i + marker.len()..]);
            return Some((Some(field).filter(|f| !f.is_empty()), value));
        }
    }
    if let Some(i) = lower.find(" with ") {
        let field = clean_phrase(&part[..i]);
        let value = value_of(&part[i + " with ".len()..])?;
        return Some((Some(field).filter(|f| !f.is_empty()), value));
    }
    value_of(part).map(|value| (None, value))
}

/// "Set the Currency to Euro": a field and its value, of any kind of field.
fn set_english(clause: &str, rest: &str) -> Intent {
    let masked = mask_quotes(rest).to_ascii_lowercase();
    if let Some(i) = masked.find(" to ") {
        let field = clean_phrase(&rest[..i]);
        let value = value_of(&rest[i + 4..]).map(|v| v.shown()).unwrap_or_default();
        let mut intent = Intent::new(Action::Choose { field: Some(field.clone()), value }, clause);
        intent.phrase = field;
        return intent;
    }
    fill_english(clause, rest)
}

/// A choice of several: a menu path ("Jinny>Lynett": each item clicked in turn) or a list
/// ("C0ZWRz, vrD and YT0peP": each chosen), else one choice.
fn choose_english_list(clause: &str, rest: &str) -> Vec<Intent> {
    let masked = mask_quotes(rest);
    let clicks = |items: Vec<&str>, action: &dyn Fn(&str) -> Action| -> Vec<Intent> {
        items
            .into_iter()
            .map(|item| {
                let item = value_of(item).map(|v| v.shown()).unwrap_or_default();
                let mut intent = Intent::new(action(&item), &item);
                intent.phrase = item.clone();
                intent.names = vec![item];
                intent
            })
            .collect()
    };
    if masked.contains('>') {
        let items = split_at(rest, &masked.match_indices('>').map(|(i, m)| (i, m.len())).collect::<Vec<_>>());
        if items.iter().all(|i| !i.trim().is_empty()) {
            return menu_path(clicks(items, &|_| Action::Click));
        }
    }
    let one = choose_english(clause, rest);
    // A list ends with "and" or has three items: "Tuesday, 17 November" is one value.
    let lower = masked.to_ascii_lowercase();
    let listed = matches!(&one.action, Action::Choose { field: None, .. })
        && masked.contains(", ")
        && (lower.contains(" and ") || masked.matches(", ").count() >= 2);
    if !listed {
        return vec![one];
    }
    // "A, B and C" / "A, B, and C": cut at the commas and the last "and".
    let mut cuts = Vec::new();
    let mut at = 0;
    while at < lower.len() {
        let len = [", and ", ", ", " and "].iter().find(|m| lower[at..].starts_with(**m)).map_or(0, |m| m.len());
        if len > 0 {
            cuts.push((at, len));
            at += len;
        } else {
            at += lower[at..].chars().next().map_or(1, char::len_utf8);
        }
    }
    clicks(split_at(rest, &cuts), &|item| Action::Choose { field: None, value: item.to_owned() })
}

/// Items of a menu path in order: every one but the last opens its menu.
fn menu_path(mut items: Vec<Intent>) -> Vec<Intent> {
    let last = items.len().saturating_sub(1);
    for item in &mut items[..last] {
        item.action = Action::Hover;
        item.opens = true;
    }
    items
}

/// "Open Aged receivables from the Reports menu": the menu opened first, then its item. A
/// place that is only "the menu" or a page's navigation is where the item already shows.
fn through_menu(intent: Intent) -> Vec<Intent> {
    let Some(place) = intent.context.last() else { return vec![intent] };
    let folded = fold(place);
    let menu = folded
        .strip_suffix(" menu")
        .or_else(|| folded.strip_suffix("メニュー"))
        .map(str::trim)
        .filter(|m| !m.is_empty() && !["navigation", "main", "side", "top", "user", "context", "the"].contains(m));
    let clicks = matches!(intent.action, Action::Click | Action::Open { url: None });
    match menu {
        Some(menu) if clicks => {
            let name = place[..place.len() - (folded.len() - menu.len())].trim().to_owned();
            let name = if name.is_empty() { menu.to_owned() } else { name };
            let mut parent = Intent::new(Action::Hover, &name);
            parent.phrase = name.clone();
            parent.opens = true;
            let mut item = intent;
            item.context.pop();
            vec![parent, item]
        }
        _ => vec![intent],
    }
}

/// `text` cut at `cuts` (byte offset, width).
fn split_at<'a>(text: &'a str, cuts: &[(usize, usize)]) -> Vec<&'a str> {
    let mut items = Vec::new();
    let mut from = 0;
    for &(at, len) in cuts {
        items.push(&text[from..at]);
        from = at + len;
    }
    items.push(&text[from..]);
    items
}

/// "Choose V as the F", "V for the F", "V from the F", "V in the F", or just "V".
fn choose_english(clause: &str, rest: &str) -> Intent {
    let masked = mask_quotes(rest).to_ascii_lowercase();
    for marker in [" as the ", " as ", " for the ", " for ", " from the ", " from ", " in the "] {
        if let Some(i) = masked.find(marker) {
            let value = value_of(&rest[..i]).map(|v| v.shown()).unwrap_or_default();
            let field = Some(clean_phrase(&rest[i + marker.len()..])).filter(|f| !is_any_list(f));
            let mut intent = Intent::new(Action::Choose { field, value: clean_phrase(&value) }, clause);
            intent.phrase = clean_phrase(&rest[..i]);
            return intent;
        }
    }
    let value = value_of(rest).map(|v| v.shown()).unwrap_or_default();
    let mut intent = Intent::new(Action::Choose { field: None, value: clean_phrase(&value) }, clause);
    intent.phrase = clean_phrase(rest);
    intent
}

/// "the list", 「リスト」: any list, which says nothing of which one holds the option.
fn is_any_list(field: &str) -> bool {
    crate::generic::reference(field)
        .is_some_and(|g| g.kind == crate::generic::Kind::List && g.which == crate::generic::Which::Only)
}

/// A search, and before it the bound it sets: "red widgets under 20 euros" fills the maximum
/// price with 20, then searches for red widgets.
fn search_bounded(clause: &str, rest: &str) -> Vec<Intent> {
    let mut search = search_english(clause, rest);
    let Action::Search { query: StepValue::Literal(query) } = &search.action else { return vec![search] };
    if search.quoted.contains(query) {
        return vec![search];
    }
    let Some((what, amount)) = crate::values::upper_bound(query) else { return vec![search] };
    let bound = Intent::new(Action::Fill(vec![(Some("max price".into()), StepValue::Literal(amount))]), clause);
    search.action = Action::Search { query: StepValue::Literal(what) };
    vec![bound, search]
}

fn search_english(clause: &str, rest: &str) -> Intent {
    let (query, place) = split_place(rest);
    let query = query.trim();
    let query = query.strip_prefix("for ").unwrap_or(query);
    let value = value_of(query).unwrap_or(StepValue::Literal(String::new()));
    let mut intent = Intent::new(Action::Search { query: value }, clause);
    if let Some(place) = place {
        intent.context.push(place);
    }
    intent
}

/// "Note the order total as ORDER_TOTAL" → label "order total", name ORDER_TOTAL.
fn note_english(clause: &str, rest: &str) -> Intent {
    let masked = mask_quotes(rest).to_ascii_lowercase();
    let (label, name) = match masked.rfind(" as ") {
        Some(i) => (&rest[..i], rest[i + 4..].trim()),
        None => (rest, ""),
    };
    let label = value_of(label).map(|v| v.shown()).unwrap_or_default();
    let label = clean_phrase(&label);
    let name = name.trim_matches(['"', '\'', '`', '.', ' ']);
    let name = if is_identifier(name) { name.to_owned() } else { slug(&label) };
    let mut intent = Intent::new(Action::Note { label: label.clone(), name }, clause);
    intent.phrase = label;
    intent
}

fn is_identifier(text: &str) -> bool {
    let mut chars = text.chars();
    chars.next().is_some_and(|c| c.is_ascii_alphabetic() || c == '_')
        && chars.all(|c| c.is_ascii_alphanumeric() || c == '_')
}

/// A name for a noted value when the step gives none: the label's words, `_`-joined.
fn slug(label: &str) -> String {
    let words: Vec<String> = text::words(label);
    if words.is_empty() {
        "value".to_owned()
    } else {
        words.join("_")
    }
}

/// Words that make a `check …` clause a check of the page rather than of a checkbox.
fn is_assertion(rest: &str) -> bool {
    let lower = format!(" {} ", mask_quotes(rest).to_ascii_lowercase());
    [
        " is ",
        " are ",
        " shows",
        " says",
        " displays",
        " appears",
        " contains",
        " has ",
        " have ",
        " lists",
        " reads",
        " exists",
        " includes",
        " was ",
        " were ",
        " no longer",
        " not ",
    ]
    .iter()
    .any(|w| lower.contains(w))
}

fn verify_english(clause: &str, rest: &str) -> Intent {
    let (expected, negated) = expected_english(rest);
    let role = role_hints(rest).into_iter().find(|r| matches!(*r, "heading" | "table" | "button" | "link"));
    let mut intent = Intent::new(Action::Verify { expected: expected.clone(), negated, role }, clause);
    intent.names = expected;
    intent.phrase = clean_phrase(rest);
    intent
}

/// The texts a check expects, and whether it expects them gone: quoted phrases, else the object
/// of "shows / says / displays …", else the subject of "… is shown / is in the list / appears".
fn expected_english(rest: &str) -> (Vec<String>, bool) {
    let lower = format!(" {} ", mask_quotes(rest).to_ascii_lowercase());
    let negated =
        [" not ", "n't ", " no longer ", " never ", " disappear", " is gone", " are gone", " went away", " nothing "]
            .iter()
            .any(|w| lower.contains(w));
    let quotes: Vec<String> = quoted(rest).into_iter().map(|q| q.text).collect();
    if !quotes.is_empty() {
        return (quotes, negated);
    }
    // "the order has been shipped", "the invoice is paid": the state is what is looked for, not
    // the subject alone (a page naming any order would do) nor "been shipped".
    let whole = clean_phrase(rest);
    if crate::judge::state_of(&whole).is_some() {
        return (vec![whole], negated);
    }
    let masked = mask_quotes(rest);
    let lower = masked.to_ascii_lowercase();
    for verb in [" shows ", " says ", " displays ", " reads ", " contains ", " lists ", " includes ", " has "] {
        if let Some(i) = lower.find(verb) {
            let object = clean_phrase(strip_negation(&rest[i + verb.len()..]));
            if !object.is_empty() {
                return (vec![object], negated);
            }
        }
    }
    for predicate in [
        " is shown",
        " are shown",
        " is displayed",
        " are displayed",
        " is visible",
        " are visible",
        " is present",
        " is listed",
        " are listed",
        " is in ",
        " are in ",
        " is on ",
        " appears",
        " appear",
        " exists",
        " is there",
        " is not ",
        " are not ",
        " isn't",
        " aren't",
        " does not",
        " doesn't",
        " is ",
        " are ",
    ] {
        if let Some(i) = lower.find(predicate) {
            // "the total is €42.00": the value is what is looked for.
            let value = clean_phrase(strip_negation(&rest[i + predicate.len()..]));
            if matches!(predicate, " is " | " are ") && value.chars().any(|c| c.is_ascii_digit()) {
                return (vec![value], negated);
            }
            let subject = clean_phrase(&rest[..i]);
            if !subject.is_empty() {
                return (vec![subject], negated);
            }
        }
    }
    (if whole.is_empty() { Vec::new() } else { vec![whole] }, negated)
}

fn strip_negation(text: &str) -> &str {
    let trimmed = text.trim_start();
    for word in ["no ", "not ", "no longer "] {
        if let Some(rest) = trimmed.strip_prefix(word) {
            return rest;
        }
    }
    trimmed
}

/// `text` with the inside of its quotes (and placeholders) replaced by `x`s of the same byte
/// length, so that searching for words never finds them inside a value, and an offset found in
/// the result is one in `text`.
fn mask_quotes(text: &str) -> String {
    let mut hidden: Vec<(usize, usize)> = quoted(text).into_iter().map(|q| (q.start, q.end)).collect();
    hidden.extend(placeholders(text).into_iter().map(|(start, end, _)| (start, end)));
    text.char_indices()
        .map(|(i, c)| {
            if !c.is_whitespace() && hidden.iter().any(|&(start, end)| i >= start && i < end) {
                "x".repeat(c.len_utf8())
            } else {
                c.to_string()
            }
        })
        .collect()
}

/// `text` split at `separator` where it is not inside quotes.
fn split_outside_quotes(text: &str, separator: &str) -> Vec<String> {
    let masked = mask_quotes(text).to_ascii_lowercase();
    let mut parts = Vec::new();
    let mut from = 0;
    while let Some(i) = masked[from..].find(separator) {
        parts.push(text[from..from + i].to_owned());
        from += i + separator.len();
    }
    parts.push(text[from..].to_owned());
    if parts.len() > 1 && parts.iter().all(|p| fill_has_separator(p)) {
        parts
    } else {
        vec![text.to_owned()]
    }
}

fn fill_has_separator(part: &str) -> bool {
    let lower = mask_quotes(part).to_ascii_lowercase();
    [" in ", " into ", " as ", " for ", " with "].iter().any(|m| lower.contains(m))
}

// ---- Japanese ----------------------------------------------------------------------------------

/// Japanese verbs and their forms (dictionary, 連用形, て-form, polite), longest first.
const JAPANESE_VERBS: &[(&str, Verb)] = &[
    ("ログインして", Verb::Login),
    ("ログインし", Verb::Login),
    ("ログインする", Verb::Login),
    ("サインインする", Verb::Login),
    ("サインインして", Verb::Login),
    ("ダウンロードして", Verb::Download),
    ("ダウンロードし", Verb::Download),
    ("ダウンロードする", Verb::Download),
    ("チェックを入れて", Verb::Check(true)),
    ("チェックを入れる", Verb::Check(true)),
    ("チェックを付ける", Verb::Check(true)),
    ("チェックを外して", Verb::Check(false)),
    ("チェックを外す", Verb::Check(false)),
    ("チェックして", Verb::Check(true)),
    ("チェックする", Verb::Check(true)),
    ("オンにして", Verb::Check(true)),
    ("オンにする", Verb::Check(true)),
    ("オフにして", Verb::Check(false)),
    ("オフにする", Verb::Check(false)),
    ("有効にする", Verb::Check(true)),
    ("無効にする", Verb::Check(false)),
    ("確認して", Verb::Verify),
    ("確認する", Verb::Verify),
    ("確認します", Verb::Verify),
    ("確かめる", Verb::Verify),
    ("として記録する", Verb::Note),
    ("として控える", Verb::Note),
    ("として保存する", Verb::Note),
    ("として覚える", Verb::Note),
    ("記録して", Verb::Note),
    ("記録する", Verb::Note),
    ("控える", Verb::Note),
    ("メモする", Verb::Note),
    ("検索して", Verb::Search),
    ("照会して", Verb::Search),
    ("照会し", Verb::Search),
    ("照会する", Verb::Search),
    ("検索する", Verb::Search),
    ("検索し", Verb::Search),
    ("入力して", Verb::Fill),
    ("入力し", Verb::Fill),
    ("入力する", Verb::Fill),
    ("入力します", Verb::Fill),
    ("記入する", Verb::Fill),
    ("記入して", Verb::Fill),
    ("選択して", Verb::Choose),
    ("選択し", Verb::Choose),
    ("選択する", Verb::Choose),
    ("選んで", Verb::Choose),
    ("選び", Verb::Choose),
    ("選ぶ", Verb::Choose),
    ("クリックして", Verb::Click),
    ("クリックし", Verb::Click),
    ("クリックする", Verb::Click),
    ("タップして", Verb::Click),
    ("タップする", Verb::Click),
    ("押して", Verb::Press),
    ("押し", Verb::Press),
    ("押す", Verb::Press),
    ("押します", Verb::Press),
    ("開いて", Verb::Open),
    ("開き", Verb::Open),
    ("開く", Verb::Open),
    ("開きます", Verb::Open),
    ("移動して", Verb::Open),
    ("移動する", Verb::Open),
    ("アクセスして", Verb::Open),
    ("アクセスする", Verb::Open),
    ("閉じて", Verb::Close),
    ("閉じる", Verb::Close),
    ("待って", Verb::Wait),
    ("待つ", Verb::Wait),
    ("戻る", Verb::Back),
    ("戻って", Verb::Back),
    // Verbs that name their control (送信する for a button 送信する or 送信).
    ("送信して", Verb::Named),
    ("送信し", Verb::Named),
    ("送信する", Verb::Named),
    ("承認して", Verb::Named),
    ("承認し", Verb::Named),
    ("承認する", Verb::Named),
    ("却下する", Verb::Named),
    ("支払って", Verb::Named),
    ("支払う", Verb::Named),
    ("保存して", Verb::Named),
    ("保存し", Verb::Named),
    ("保存する", Verb::Named),
    ("削除して", Verb::Named),
    ("削除する", Verb::Named),
    ("確定して", Verb::Named),
    ("確定する", Verb::Named),
    ("注文して", Verb::Named),
    ("注文する", Verb::Named),
    ("登録して", Verb::Named),
    ("登録する", Verb::Named),
    ("追加して", Verb::Named),
    ("追加する", Verb::Named),
    ("取り消して", Verb::Named),
    ("取り消す", Verb::Named),
    ("キャンセルして", Verb::Named),
    ("キャンセルする", Verb::Named),
    ("フォーカスする", Verb::Click),
    // 利用日を来月末にする: a field set to a value.
    ("に設定して", Verb::Set),
    ("に設定する", Verb::Set),
    ("に変更して", Verb::Set),
    ("に変更する", Verb::Set),
    ("にして", Verb::Set),
    ("にする", Verb::Set),
    // 口座番号を 0012345 に直して: a value corrected.
    ("に直して", Verb::Set),
    ("に直す", Verb::Set),
    ("に修正して", Verb::Set),
    ("に修正する", Verb::Set),
];

fn japanese(step: &str) -> Vec<Intent> {
    let quotes = quoted(step);
    // Verbs are looked for outside quotes and placeholders: 「申請する」 is a name.
    let mut hidden: Vec<(usize, usize)> = quotes.iter().map(|q| (q.start, q.end)).collect();
    hidden.extend(placeholders(step).into_iter().map(|(s, e, _)| (s, e)));
    let visible = |i: usize| !hidden.iter().any(|&(s, e)| i >= s && i < e);
    let mut found: Vec<(usize, usize, Verb)> = Vec::new();
    let mut at = 0;
    while at < step.len() {
        if !visible(at) {
            at += step[at..].chars().next().map_or(1, char::len_utf8);
            continue;
        }
        // 保存した「…」 (the one saved) describes a thing: a verb's し before た is no action.
        let hit = JAPANESE_VERBS.iter().find(|(form, _)| {
            step[at..].starts_with(form) && !(form.ends_with('し') && step[at + form.len()..].starts_with('た'))
        });
        match hit {
            Some((form, verb)) => {
                found.push((at, at + form.len(), *verb));
                at += form.len();
            }
            None => at += step[at..].chars().next().map_or(1, char::len_utf8),
        }
    }
    if found.is_empty() {
        return Vec::new();
    }
    let mut intents = Vec::new();
    let mut from = 0;
    for (start, end, verb) in found {
        let clause = step[from..start].trim_matches(|c: char| c.is_whitespace() || c == '、' || c == ',');
        let whole = &step[from..end];
        intents.extend(japanese_clause(verb, clause, &step[start..end], whole));
        from = end;
    }
    // 「…」を開き、再発行を依頼する: a last verb of no list (依頼する) names its control.
    let rest = step[from..].trim_matches(|c: char| c.is_whitespace() || c == '、' || c == ',' || c == '。');
    if let Some(stem) = rest.strip_suffix("する").or_else(|| rest.strip_suffix("します")) {
        let masked = mask_quotes(stem);
        let at = masked.rfind(['を', 'に', 'で']).map_or(0, |i| i + 'を'.len_utf8());
        if !stem[at..].trim().is_empty() && visible(from) {
            intents.extend(japanese_clause(Verb::Named, &rest[..at], &rest[at..], rest));
        }
    }
    intents
}

/// A field and its value as 「F を V」 or 「F は V」 say them, outside quotes: the last を, or else
/// the first は (a value may hold one: 「件名はこんにちは」).
fn set_pair(part: &str) -> Option<(String, String)> {
    let masked = mask_quotes(part);
    let at = masked.rfind('を').or_else(|| masked.find('は'))?;
    let field = field_japanese(&part[..at]);
    let value = value_of(&part[at + 'を'.len_utf8()..])?.shown();
    (!field.is_empty()).then_some((field, value))
}

/// Role words that stand right before a particle and name the target's kind, not the target.
const JAPANESE_KIND_WORDS: &[&str] =
    &["ボタン", "リンク", "タブ", "欄", "入力欄", "チェックボックス", "メニュー", "見出し", "ページ", "画面"];

fn japanese_clause(verb: Verb, clause: &str, form: &str, whole: &str) -> Vec<Intent> {
    let quotes = quoted(clause);
    // 「A」と「B」にチェックを入れる: each checked in turn.
    if let Verb::Check(on) = verb {
        let items = japanese_items(clause);
        if items.len() > 1 {
            return items
                .into_iter()
                .map(|item| {
                    let mut intent = Intent::new(Action::Check { on }, &item);
                    intent.names = quoted(&item).into_iter().map(|q| q.text).collect();
                    intent.phrase = intent.names.first().cloned().unwrap_or(item);
                    intent
                })
                .collect();
        }
    }
    let names: Vec<String> = quotes.iter().map(|q| q.text.clone()).collect();
    let mut intent = match verb {
        Verb::Login => login(whole),
        Verb::Fill => return fill_japanese(clause, whole),
        Verb::Choose => {
            let one = choose_japanese(clause, whole, &quotes);
            // 編集>コピーを選ぶ: a menu path, each item clicked in turn.
            match &one.action {
                Action::Choose { value, .. } if value.contains(['>', '＞']) => {
                    return menu_path(
                        value
                            .split(['>', '＞'])
                            .map(|item| {
                                let mut intent = Intent::new(Action::Click, item.trim());
                                intent.names = vec![item.trim().to_owned()];
                                intent.phrase = item.trim().to_owned();
                                intent
                            })
                            .collect(),
                    );
                }
                _ => one,
            }
        }
        Verb::Set => {
            // F を V にする, F は V にする: the field before を or は, the value after it; several
            // such, one after another (会議室は第2会議室、時間帯は13:00〜15:00にする), each set.
            let pairs: Option<Vec<(String, String)>> =
                clause.split('、').filter(|part| !part.trim().is_empty()).map(set_pair).collect();
            match pairs {
                Some(pairs) if !pairs.is_empty() => {
                    return pairs
                        .into_iter()
                        .map(|(field, value)| {
                            let mut intent = Intent::new(Action::Choose { field: Some(field.clone()), value }, whole);
                            intent.phrase = field;
                            intent
                        })
                        .collect();
                }
                _ => Intent::new(Action::Click, whole),
            }
        }
        Verb::Verify => verify_japanese(clause, whole, &quotes),
        Verb::Note => note_japanese(clause, whole, &quotes),
        Verb::Search => {
            let query = quotes
                .last()
                .map(|q| StepValue::Literal(q.text.clone()))
                .or_else(|| placeholders(clause).into_iter().next().map(|(_, _, n)| StepValue::Placeholder(n)));
            // 請求書で検索する: で marks what is searched for.
            let query = query.unwrap_or_else(|| {
                let object = object_japanese(clause);
                StepValue::Literal(object.strip_suffix('で').unwrap_or(&object).trim().to_owned())
            });
            Intent::new(Action::Search { query }, whole)
        }
        Verb::Open => {
            let url = url_in(clause);
            Intent::new(Action::Open { url }, whole)
        }
        Verb::Press => match key_in(&object_japanese(clause).replace("キー", "")) {
            Some(key) => Intent::new(Action::Press { key }, whole),
            None => Intent::new(Action::Click, whole),
        },
        Verb::Click | Verb::Named => Intent::new(Action::Click, whole),
        Verb::Check(on) => Intent::new(Action::Check { on }, whole),
        Verb::Download => Intent::new(Action::Download, whole),
        Verb::Wait => Intent::new(Action::Wait, whole),
        Verb::Close => Intent::new(Action::Close, whole),
        Verb::Back => Intent::new(Action::Back, whole),
        Verb::Hover => Intent::new(Action::Hover, whole),
        Verb::Scroll(down) => Intent::new(Action::Scroll { down }, whole),
        Verb::CheckOrVerify => Intent::new(Action::Click, whole),
    };
    if matches!(
        intent.action,
        Action::Click
            | Action::Open { url: None }
            | Action::Check { .. }
            | Action::Download
            | Action::Wait
            | Action::Close
            | Action::Hover
    ) {
        // The target: the quoted name right before を (or に for a check), else the words there.
        let (target, context) = target_japanese(clause, &quotes);
        intent.names = target.iter().cloned().collect();
        intent.phrase = target.unwrap_or_else(|| object_japanese(clause));
        intent.context = context;
        if intent.names.is_empty() && names.len() == 1 {
            intent.names = names;
        }
        // マスタ管理メニューから取引先: the place is not part of the target's words.
        for place in &intent.context {
            if let Some(rest) = intent.phrase.strip_prefix(place.as_str()) {
                let rest =
                    ["から", "で", "の中の", "内の", "の"].iter().find_map(|p| rest.strip_prefix(p)).unwrap_or(rest);
                if !rest.trim().is_empty() {
                    intent.phrase = rest.trim().to_owned();
                }
            }
        }
        // 設定を保存する: the control is named by its object and the verb (設定を保存, 保存),
        // not by the object alone (a link 設定).
        if verb == Verb::Named && intent.names.is_empty() {
            let stem = form.trim_end_matches("する").trim_end_matches("して").trim_end_matches('し');
            intent.phrase = format!("{}{stem}", clause.trim());
        }
    }
    through_menu(intent)
}

/// The items of a Japanese list object joined by と or 、 ("A と B に", 「A」と「B」に): quoted
/// items, or unquoted ones with spaces around と.
fn japanese_items(clause: &str) -> Vec<String> {
    let object = clause.trim().trim_end_matches(['に', 'を']).trim();
    let quotes = quoted(object);
    if quotes.len() > 1 {
        let joined = text::without_quotes(object, &quotes, "");
        if joined.chars().all(|c| matches!(c, 'と' | '、' | ' ' | '　')) {
            return quotes.into_iter().map(|q| object[q.start..q.end].to_owned()).collect();
        }
    }
    let masked = mask_quotes(object);
    let cuts: Vec<(usize, usize)> = [" と ", "　と　", "、"]
        .iter()
        .flat_map(|sep| masked.match_indices(sep).map(|(i, m)| (i, m.len())).collect::<Vec<_>>())
        .collect();
    let mut cuts = cuts;
    cuts.sort_unstable();
    split_at(object, &cuts).into_iter().map(|i| i.trim().to_owned()).filter(|i| !i.is_empty()).collect()
}

/// The target of a Japanese clause and the phrases that place it: in
/// 「お知らせ」の「年末年始の休業について」を開く the target is the last quoted phrase before を and
/// 「お知らせ」 places it; in 確認ダイアログで「OK」を押す, 確認ダイアログ places 「OK」.
fn target_japanese(clause: &str, quotes: &[Quoted]) -> (Option<String>, Vec<String>) {
    let mut context = Vec::new();
    let mut target = None;
    for (i, q) in quotes.iter().enumerate() {
        let after = &clause[q.end..];
        let is_last = i + 1 == quotes.len();
        if after.starts_with('の') && !is_last {
            context.push(q.text.clone());
        } else if after.starts_with(['を', 'に', 'が']) || is_last {
            target = Some(q.text.clone());
        }
    }
    // Unquoted places: "Xで", "Xから", "Xの中の" before the target.
    static PLACE: OnceLock<Regex> = OnceLock::new();
    let re = PLACE.get_or_init(|| {
        Regex::new(r"([\p{Han}\p{Katakana}ー々A-Za-z0-9]+)(?:で|から|の中の|内の)")
            .unwrap_or_else(|e| unreachable!("fixed pattern: {e}"))
    });
    let unquoted = text::without_quotes(clause, quotes, "「」");
    for c in re.captures_iter(&unquoted) {
        if let Some(place) = c.get(1) {
            let place = place.as_str().to_owned();
            if !context.contains(&place) && target.as_deref() != Some(place.as_str()) {
                context.push(place);
            }
        }
    }
    // 「メニューの「取引明細」」: an unquoted word then の before the quoted target.
    if let Some(first) = quotes.first() {
        let before = clause[..first.start].trim_end();
        if let Some(place) = before.strip_suffix('の') {
            let place = place.rsplit(['、', ' ', '　']).next().unwrap_or(place).trim();
            if !place.is_empty() && !context.iter().any(|c| c == place) {
                context.push(place.to_owned());
            }
        }
    }
    (target, context)
}

/// The words of a clause's object: what stands before を (or the clause), without kind words.
fn object_japanese(clause: &str) -> String {
    let object = clause.rsplit_once('を').map_or(clause, |(before, _)| before);
    let object = object.rsplit(['、', '，']).next().unwrap_or(object).trim();
    let mut object = object.trim_start_matches(|c: char| c == 'の' || c.is_whitespace()).to_owned();
    for kind in JAPANESE_KIND_WORDS {
        if let Some(stripped) = object.strip_suffix(kind) {
            if !stripped.is_empty() {
                object = stripped.trim_end_matches('の').to_owned();
            }
        }
    }
    object
}

/// 日付に 2024-04-15、金額に 1,280、摘要に「新宿→品川 往復」と入力する: each 「F に V」.
fn fill_japanese(clause: &str, whole: &str) -> Vec<Intent> {
    let mut pairs = Vec::new();
    for segment in split_japanese_list(clause) {
        // 「F」に V を入力する: the を before the verb only marks the value.
        let segment = segment.trim().trim_end_matches('を').trim().trim_end_matches('と').trim();
        let masked = mask_quotes(segment);
        // 「V」を F に / F に V / F へ V / Fの欄に V
        if let Some(i) = masked.find('を') {
            let (value_part, field_part) = (&segment[..i], &segment[i + 'を'.len_utf8()..]);
            if let Some(value) = value_of(value_part) {
                let field = field_japanese(field_part.trim().trim_end_matches(['に', 'へ']));
                pairs.push((Some(field).filter(|f| !f.is_empty()), value));
                continue;
            }
        }
        if let Some(i) = masked.find(['に', 'へ']) {
            let field = field_japanese(&segment[..i]);
            if let Some(value) = value_of(&segment[i + 'に'.len_utf8()..]) {
                pairs.push((Some(field).filter(|f| !f.is_empty()), value));
                continue;
            }
        }
        if let Some(value) = value_of(segment) {
            pairs.push((None, value));
        }
    }
    let mut intent = Intent::new(Action::Fill(pairs), whole);
    intent.phrase = clause.to_owned();
    vec![intent]
}

/// A Japanese field phrase: 「メールアドレス」 unquoted, 氏名欄 → 氏名; a field named by its kind
/// alone (入力欄, 3番目の入力欄) stays whole.
fn field_japanese(phrase: &str) -> String {
    let phrase = phrase.trim();
    if let [q] = quoted(phrase).as_slice() {
        if q.start == 0 && q.end == phrase.len() {
            return q.text.clone();
        }
    }
    if crate::generic::reference(phrase).is_some() {
        return phrase.to_owned();
    }
    phrase.trim_end_matches("欄").trim_end_matches('の').trim().to_owned()
}

/// A clause's list items: split at 、 outside quotes.
fn split_japanese_list(clause: &str) -> Vec<String> {
    let masked = mask_quotes(clause);
    let mut parts = Vec::new();
    let mut from = 0;
    for (i, c) in masked.char_indices() {
        if c == '、' || c == '，' {
            parts.push(clause[from..i].to_owned());
            from = i + c.len_utf8();
        }
    }
    parts.push(clause[from..].to_owned());
    parts.into_iter().filter(|p| !p.trim().is_empty()).collect()
}

/// 種別に「交通費」を選ぶ, 対象月で「2024年4月」を選んで, 「2024年4月」を選ぶ.
fn choose_japanese(clause: &str, whole: &str, quotes: &[Quoted]) -> Intent {
    let value_quote = quotes.iter().rev().find(|q| clause[q.end..].starts_with('を')).or(quotes.last());
    let object = object_japanese(clause);
    // リストからナイジェリアを選ぶ: the value is what follows the last particle.
    let unquoted_at = ["から", "で", "に", "へ"]
        .iter()
        .filter_map(|p| object.rfind(p).map(|i| i + p.len()))
        .max()
        .filter(|&i| i < object.len());
    let value = match (value_quote, unquoted_at) {
        (Some(q), _) => q.text.clone(),
        (None, Some(i)) => object[i..].trim().to_owned(),
        (None, None) => object.clone(),
    };
    let before = match (value_quote, unquoted_at) {
        (Some(q), _) => &clause[..q.start],
        (None, Some(i)) => &object[..i],
        (None, None) => clause.rsplit_once('を').map_or("", |(b, _)| b),
    };
    let field = before
        .trim_end()
        .strip_suffix(['に', 'で', 'へ'])
        .or_else(|| before.trim_end().strip_suffix("から"))
        // 「経費申請」画面で種別に: the field is 種別; what stands before で only places it.
        .map(|f| {
            f.rsplit(['、', ' ', '　', 'で'])
                .next()
                .unwrap_or(f)
                .trim_end_matches("欄")
                .trim_end_matches('の')
                .trim()
                .to_owned()
        })
        .filter(|f| !f.is_empty() && !is_any_list(f));
    let mut intent = Intent::new(Action::Choose { field: field.clone(), value: value.clone() }, whole);
    intent.phrase = value;
    intent
}

/// …ことを確認する: the quoted texts expected, a role the words name (見出し, 表), and whether
/// they are expected gone (…ないこと).
fn verify_japanese(clause: &str, whole: &str, quotes: &[Quoted]) -> Intent {
    let content = clause.trim_end_matches(['を', 'が']).trim_end_matches("こと").trim();
    let negated = ["ない", "されない", "いない", "ません"]
        .iter()
        .any(|n| content.ends_with(n) || content.ends_with(&format!("{n}こと")))
        || content.contains("ないこと");
    let role = if content.contains("見出し") {
        Some("heading")
    } else if ["表が", "表は", "テーブル", "一覧表"].iter().any(|w| content.contains(w)) {
        Some("table")
    } else if content.contains("ボタン") {
        Some("button")
    } else if content.contains("リンク") {
        Some("link")
    } else {
        None
    };
    let mut expected: Vec<String> = quotes.iter().map(|q| q.text.clone()).collect();
    if expected.is_empty() {
        // 明細の表が表示されたこと: the words before the predicate name what is shown.
        let subject = content.split(['が', 'は']).next().unwrap_or(content);
        let subject = subject.trim_end_matches("表").trim_end_matches('の').trim();
        if !subject.is_empty() {
            expected.push(subject.to_owned());
        }
    }
    let mut intent = Intent::new(Action::Verify { expected: expected.clone(), negated, role }, whole);
    intent.names = expected;
    intent.phrase = content.to_owned();
    intent
}

/// 「休業期間」を HOLIDAY_PERIOD として記録する.
fn note_japanese(clause: &str, whole: &str, quotes: &[Quoted]) -> Intent {
    let label = quotes.first().map(|q| q.text.clone()).unwrap_or_else(|| object_japanese(clause));
    let after_object = clause.rsplit_once('を').map_or("", |(_, after)| after);
    let name_part = after_object.trim().trim_end_matches("として").trim();
    let name = if is_identifier(name_part) { name_part.to_owned() } else { slug(&label) };
    let mut intent = Intent::new(Action::Note { label: label.clone(), name }, whole);
    intent.phrase = label;
    intent
}

#[cfg(test)]
mod tests {
    use super::*;

    fn one(step: &str) -> Intent {
        let intents = parse_step(step);
        assert_eq!(intents.len(), 1, "{step}: {intents:#?}");
        intents.into_iter().next().unwrap_or_else(|| unreachable!())
    }

    fn ph(name: &str) -> StepValue {
        StepValue::Placeholder(name.into())
    }

    fn lit(text: &str) -> StepValue {
        StepValue::Literal(text.into())
    }

    #[test]
    fn sign_in_with_placeholders_in_both_languages() {
        for step in [
            "Sign in with {{PORTAL_USER}} / {{PORTAL_PASSWORD}}",
            "Log in to the supplier portal as {{PORTAL_USER}} (password {{PORTAL_PASSWORD}})",
            "ユーザーID {{PORTAL_USER}} とパスワード {{PORTAL_PASSWORD}} でログインする",
        ] {
            assert_eq!(
                one(step).action,
                Action::Login { user: Some(ph("PORTAL_USER")), password: Some(ph("PORTAL_PASSWORD")) },
                "{step}"
            );
        }
        // The password named by the word before it, whatever its placeholder's name.
        assert_eq!(
            one("Log in as {{QA_USER}} with password {{QA_SECRET_2}}").action,
            Action::Login { user: Some(ph("QA_USER")), password: Some(ph("QA_SECRET_2")) }
        );
    }

    #[test]
    fn opening_clicking_and_the_verbs_that_name_their_button() {
        let open = one("Open the Statements page");
        assert_eq!(open.action, Action::Open { url: None });
        assert_eq!(open.phrase, "Statements");
        assert_eq!(
            one("Go to https://portal.example.com/login.").action,
            Action::Open { url: Some("https://portal.example.com/login".into()) }
        );
        let click = one("Click Export to PDF");
        assert_eq!((click.action, click.phrase.as_str()), (Action::Click, "Export to PDF"));
        let add = one("Add the Blue widget to the cart");
        assert_eq!(add.action, Action::Click);
        assert!(add.words.contains(&"add".to_owned()) && add.words.contains(&"cart".to_owned()));
        assert_eq!(one("Press Enter").action, Action::Press { key: "Enter".into() });
        assert_eq!(one("Press the Save button").action, Action::Click);
        assert_eq!(one("Press the Save button").roles, ["button"]);
    }

    #[test]
    fn fills_find_value_and_field() {
        let cases = [
            ("Type Tailspin Toys in the Customer field", Some("Customer"), lit("Tailspin Toys")),
            (
                "Enter dana.okafor@example.com as the email address for the Morning Briefing",
                Some("email address for the Morning Briefing"),
                lit("dana.okafor@example.com"),
            ),
            (
                "Write \"My October statement lists invoice NW-88416 twice.\" in the Message box",
                Some("Message"),
                lit("My October statement lists invoice NW-88416 twice."),
            ),
            ("Fill in the Quantity with 12", Some("Quantity"), lit("12")),
            ("Enter {{API_TOKEN}} into the Token field", Some("Token"), ph("API_TOKEN")),
        ];
        for (step, field, value) in cases {
            assert_eq!(one(step).action, Action::Fill(vec![(field.map(String::from), value)]), "{step}");
        }
        let placed = one("In the contact form, enter Dana Okafor as your name");
        assert_eq!(placed.action, Action::Fill(vec![(Some("name".into()), lit("Dana Okafor"))]));
        assert_eq!(placed.context, ["contact form"]);
        let two = one("Enter {{U}} in the Username field and {{P}} in the Password field");
        assert_eq!(
            two.action,
            Action::Fill(vec![(Some("Username".into()), ph("U")), (Some("Password".into()), ph("P"))])
        );
    }

    #[test]
    fn japanese_fills_take_every_pair_of_a_list() {
        let fill = one("日付に 2024-04-15、金額に 1,280、摘要に「新宿→品川 往復」と入力する");
        assert_eq!(
            fill.action,
            Action::Fill(vec![
                (Some("日付".into()), lit("2024-04-15")),
                (Some("金額".into()), lit("1,280")),
                (Some("摘要".into()), lit("新宿→品川 往復")),
            ])
        );
    }

    #[test]
    fn choices_with_their_field() {
        let cases = [
            (
                "Choose Tuesday 17 November, 8:00-12:00 as the delivery window",
                Some("delivery window"),
                "Tuesday 17 November, 8:00-12:00",
            ),
            ("Pick reusable crates for the packaging", Some("packaging"), "reusable crates"),
            ("Select Canada from the Country dropdown", Some("Country"), "Canada"),
            ("Select \"Express\"", None, "Express"),
            ("種別に「交通費」を選ぶ", Some("種別"), "交通費"),
            ("「経費申請」画面で種別に「交通費」を選ぶ", Some("種別"), "交通費"),
        ];
        for (step, field, value) in cases {
            assert_eq!(
                one(step).action,
                Action::Choose { field: field.map(String::from), value: value.into() },
                "{step}"
            );
        }
        assert_eq!(
            one("Set the Currency to Euro (EUR)").action,
            Action::Choose { field: Some("Currency".into()), value: "Euro (EUR)".into() }
        );
    }

    #[test]
    fn checkboxes_and_switches() {
        let tick = one("Tick the box to agree to the delivery terms");
        assert_eq!(tick.action, Action::Check { on: true });
        assert!(tick.phrase.contains("agree to the delivery terms"), "{}", tick.phrase);
        assert_eq!(one("Turn off the weekly summary").action, Action::Check { on: false });
        assert_eq!(one("Check the Remember me box").action, Action::Check { on: true });
        assert_eq!(one("「利用規約に同意する」にチェックを入れる").action, Action::Check { on: true });
    }

    #[test]
    fn a_purpose_after_the_target_is_not_its_name() {
        let cases = [
            ("Click Refresh to show the totals", "Refresh"),
            ("Click Apply coupon to get the discount", "Apply coupon"),
            ("Press Save so that the changes are kept", "Save"),
            ("Click Add to cart", "Add to cart"),
            ("Click Back to top", "Back to top"),
            ("Click Add to cart to see the basket", "Add to cart"),
            ("Click Proceed to checkout", "Proceed to checkout"),
        ];
        for (step, target) in cases {
            assert_eq!(one(step).phrase, target, "{step}");
        }
    }

    #[test]
    fn checks_of_the_page_find_what_they_expect() {
        let cases: [(&str, &[&str], bool); 9] = [
            ("Check that the page says \"Welcome back\"", &["Welcome back"], false),
            ("Check that the header shows Cart (1)", &["Cart (1)"], false),
            ("Check that order SO-20436 is in the list", &["order SO-20436"], false),
            ("Check that the order has been shipped", &["order has been shipped"], false),
            ("Check that the invoice is paid", &["invoice is paid"], false),
            ("Check that the total is €42.00", &["€42.00"], false),
            ("Verify that the error message is not shown", &["error message"], true),
            ("「下書きを保存しました」と表示されることを確認する", &["下書きを保存しました"], false),
            ("メニューに「経費申請」と「申請履歴」があることを確認する", &["経費申請", "申請履歴"], false),
        ];
        for (step, expected, negated) in cases {
            let Action::Verify { expected: got, negated: got_negated, .. } = one(step).action else { panic!("{step}") };
            assert_eq!(got, expected, "{step}");
            assert_eq!(got_negated, negated, "{step}");
        }
        let Action::Verify { role, .. } =
            one("ダッシュボードに見出し「ようこそ」が表示されていることを確認する").action
        else {
            panic!()
        };
        assert_eq!(role, Some("heading"));
        let Action::Verify { role, expected, .. } = one("明細の表が表示されたことを確認する").action
        else {
            panic!()
        };
        assert_eq!((role, expected), (Some("table"), vec!["明細".to_owned()]));
        let Action::Verify { negated, .. } = one("申請履歴に新しい申請が増えていないことを確認する").action
        else {
            panic!()
        };
        assert!(negated);
    }

    #[test]
    fn notes_keep_a_value_under_its_name() {
        assert_eq!(
            one("Note the order total as ORDER_TOTAL").action,
            Action::Note { label: "order total".into(), name: "ORDER_TOTAL".into() }
        );
        assert_eq!(
            one("「休業期間」を HOLIDAY_PERIOD として記録する").action,
            Action::Note { label: "休業期間".into(), name: "HOLIDAY_PERIOD".into() }
        );
        assert_eq!(
            one("Record the balance due").action,
            Action::Note { label: "balance due".into(), name: "balance_due".into() }
        );
    }

    #[test]
    fn compound_japanese_lines_give_one_intent_a_verb() {
        let intents = parse_step("対象月で「2024年4月」を選んで「表示」を押す");
        assert_eq!(intents.len(), 2, "{intents:#?}");
        assert_eq!(intents[0].action, Action::Choose { field: Some("対象月".into()), value: "2024年4月".into() });
        assert_eq!((intents[1].action.clone(), intents[1].names.clone()), (Action::Click, vec!["表示".to_owned()]));

        let intents = parse_step("種別に「交通費」を選び、金額を空欄のまま「申請する」を押す");
        assert_eq!(intents.len(), 2, "{intents:#?}");
        assert_eq!(intents[1].names, ["申請する"], "the quoted 申請する is a name, not a verb");

        let intents = parse_step("「申請する」を押し、確認ダイアログで「OK」を押す");
        assert_eq!(intents.len(), 2);
        assert_eq!(intents[1].names, ["OK"]);
        assert_eq!(intents[1].context, ["確認ダイアログ"]);

        let intents = parse_step("「CSVダウンロード」を押して明細をダウンロードする");
        assert_eq!(intents.len(), 1, "the click downloads: {intents:#?}");
        assert!(intents[0].downloads);
        assert_eq!(intents[0].names, ["CSVダウンロード"]);
    }

    #[test]
    fn japanese_targets_and_their_places() {
        let open = one("「お知らせ」の「年末年始の休業について」を開く");
        assert_eq!(open.names, ["年末年始の休業について"]);
        assert_eq!(open.context, ["お知らせ"]);
        let open = one("メニューの「取引明細」を開く");
        assert_eq!(
            (open.names.clone(), open.context.clone()),
            (vec!["取引明細".to_owned()], vec!["メニュー".to_owned()])
        );
        let open = one("申請履歴から「プリンタートナー」の下書きを開く");
        assert_eq!(open.names, ["プリンタートナー"]);
        assert!(open.context.contains(&"申請履歴".to_owned()), "{:?}", open.context);
        assert_eq!(one("ログインボタンを押す").phrase, "ログイン");
    }

    #[test]
    fn english_steps_with_two_actions_split_at_the_second_verb() {
        let intents = parse_step("Type invoice 1001 in the search box and press Enter");
        assert_eq!(intents.len(), 2, "{intents:#?}");
        assert_eq!(intents[1].action, Action::Press { key: "Enter".into() });
        // "and" inside a name or a value does not split.
        assert_eq!(parse_step("Click \"Terms and conditions\"").len(), 1);
        assert_eq!(parse_step("Search for salt and pepper").len(), 1);
    }

    #[test]
    fn searches_take_their_query() {
        assert_eq!(one("Search for widget").action, Action::Search { query: lit("widget") });
        assert_eq!(one("Search for \"green widget\"").action, Action::Search { query: lit("green widget") });
        assert_eq!(one("「請求書」を検索する").action, Action::Search { query: lit("請求書") });
    }

    #[test]
    fn downloads_name_what_they_get() {
        let download = one("Download the October 2026 statement");
        assert_eq!(download.action, Action::Download);
        assert_eq!(download.phrase, "October 2026 statement");
    }

    /// Ordinary steps read generally (issue 26, section 2): each step and the intents it gives,
    /// in words.
    #[test]
    fn ordinary_steps_read_as_their_actions() {
        let cases: &[(&str, &[&str])] = &[
            // Values without quotes.
            ("Look up order 1042", &["search for order 1042"]),
            ("Find customer 88213", &["search for customer 88213"]),
            ("伝票番号 5531 を検索する", &["search for 伝票番号 5531"]),
            ("Search for red widgets under 20 euros", &["fill \"max price\" with 20", "search for red widgets"]),
            ("Enter next Friday in the Delivery date field", &["fill \"Delivery date\" with next Friday"]),
            // Controls named by what they do, rows by their contents.
            ("Pay", &["click Pay"]),
            (
                "Pay the renewal with the card 4000 0000 0000 0002, expiry 12/29, CVC 314, name on card Lena Fischer",
                &[
                    "fill \"card\" with 4000 0000 0000 0002; fill \"expiry\" with 12/29; fill \"CVC\" with 314; fill \"name on card\" with Lena Fischer",
                    "click Pay the renewal",
                ],
            ),
            ("Subscribe with my address", &["click Subscribe with my address"]),
            ("For the trip of Priya Shah to Berlin, click Approve", &["click Approve in trip of Priya Shah to Berlin"]),
            ("Approve the expense claim of Sato", &["click Approve the expense claim of Sato"]),
            ("問い合わせを送信する", &["click 問い合わせを送信"]),
            ("山田さんの申請を承認する", &["click 山田さんの申請を承認"]),
            ("設定を保存する", &["click 設定を保存"]),
            ("注文 PO-3318 を照会して取り消す", &["search for 注文 PO-3318", "click 取り消す"]),
            ("請求書で検索し、2番目の結果を開く", &["search for 請求書", "open 2番目の結果"]),
            ("利用日を来月末にする", &["choose \"来月末\" for \"利用日\""]),
            (
                "会議室は第2会議室、時間帯は13:00〜15:00にする",
                &["choose \"第2会議室\" for \"会議室\"", "choose \"13:00〜15:00\" for \"時間帯\""],
            ),
            ("編集>コピーを選ぶ", &["hover over \"編集\"", "click \"コピー\""]),
            ("保存する", &["click 保存"]),
            ("申請履歴から TC-02 で保存した「新宿→品川 往復」の下書きを開く", &["open \"新宿→品川 往復\" in 申請履歴"]),
            ("口座番号を 0012345 に直して登録する", &["choose \"0012345\" for \"口座番号\"", "click 登録"]),
            (
                "Send a payment reminder for the Globex invoice on page 3",
                &["click \"Page 3\"", "click Send a payment reminder for the Globex invoice"],
            ),
            ("「請求書を再発行したい」を開き、再発行を依頼する", &["open \"請求書を再発行したい\"", "click 再発行を依頼"]),
            // Generic references.
            ("Type hello into the text field", &["fill \"text field\" with hello"]),
            ("Click the button", &["click button"]),
            ("Check the checkbox", &["check checkbox"]),
            ("Type hi into both text fields", &["fill \"1st text fields\" with hi; fill \"2nd text fields\" with hi"]),
            ("Close the x", &["close x"]),
            ("Check both checkboxes", &["check 1st checkboxes", "check 2nd checkboxes"]),
            // Compound and list steps.
            ("Click button ONE, then click button TWO", &["click button ONE", "click button TWO"]),
            ("Expand the section below and click Submit", &["click Expand the section below", "click Submit"]),
            (
                "Select C0ZWRz, vrD and YT0peP and click Submit",
                &["choose \"C0ZWRz\"", "choose \"vrD\"", "choose \"YT0peP\"", "click Submit"],
            ),
            ("Select Jinny>Lynett", &["hover over \"Jinny\"", "click \"Lynett\""]),
            ("Open Aged receivables from the Reports menu", &["hover over Reports", "open Aged receivables"]),
            ("Click Invoices in the navigation menu", &["click Invoices in navigation menu"]),
            ("マスタ管理メニューから取引先を開く", &["hover over マスタ管理", "open 取引先"]),
            ("Select Tuesday, 17 November", &["choose \"Tuesday, 17 November\""]),
            ("A と B にチェックを入れて送信する", &["check A", "check B", "click 送信"]),
            ("「A」と「B」にチェックを入れる", &["check \"A\"", "check \"B\""]),
            // Ordinals and kinds of control.
            ("Type 42 into the 3rd input textbox", &["fill \"3rd input textbox\" with 42"]),
            ("Click the 9th search result", &["click 9th search result"]),
            ("2番目の結果を開く", &["open 2番目の結果"]),
            ("Focus into the textbox", &["click textbox"]),
            ("Select Nigeria from the list", &["choose \"Nigeria\""]),
            (
                "Enter the username ada and the password s3cret into the text fields",
                &["fill \"username\" with ada; fill \"password\" with s3cret"],
            ),
            // Japanese fills: 「field」に value を, particles and both kinds of quotes.
            ("「メールアドレス」に taro@example.com を入力する", &["fill \"メールアドレス\" with taro@example.com"]),
            ("氏名欄へ『山田太郎』を入力する", &["fill \"氏名\" with 山田太郎"]),
            ("入力欄に hello と入力する", &["fill \"入力欄\" with hello"]),
            ("リストからナイジェリアを選ぶ", &["choose \"ナイジェリア\""]),
        ];
        let mut wrong = Vec::new();
        for (step, expected) in cases {
            let got: Vec<String> = parse_step(step).iter().map(Intent::describe).collect();
            if got != *expected {
                wrong.push(format!("{step}\n  expected {expected:?}\n  got      {got:?}"));
            }
        }
        assert!(wrong.is_empty(), "{} of {} steps read wrong:\n{}", wrong.len(), cases.len(), wrong.join("\n"));
    }

    #[test]
    fn the_plan_in_words_shows_placeholders_never_values() {
        let login = one("Sign in with {{PORTAL_USER}} / {{PORTAL_PASSWORD}}");
        assert_eq!(login.describe(), "sign in as {{PORTAL_USER}} with {{PORTAL_PASSWORD}}");
    }
}
