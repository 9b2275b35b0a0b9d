//! The offline resolver: an [`Intent`] matched to what the page shows, with no model. Targets
//! come from quoted names first, then from the step's words matched to accessible names
//! (folded, partial, both ways), with the roles the action and the words ask for; elements of
//! one name are told apart by what surrounds each (the row, card or section that names the
//! step's other words). What it cannot tell apart or find, it says, with what it saw.

use planwright_browser::Locator;
use planwright_runs::objective::Tool;

use crate::driver::PageDriver;
use crate::generic::{self, Generic, Kind, Which};
use crate::intent::{Action, Intent, StepValue};
use crate::page::{Node, Page};
use crate::text::{self, contains_folded, contains_phrase, coverage, fold};

/// One operation on the page, as the runner carries it out, the cache keeps it and a model
/// decides it.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
#[serde(tag = "op", rename_all = "snake_case")]
pub enum Op {
    Navigate { url: String },
    Click { locator: Locator, downloads: bool },
    Fill { locator: Locator, value: ValueSpec },
    Select { locator: Locator, option: String },
    Check { locator: Locator, on: bool },
    Press { locator: Option<Locator>, key: String },
    Hover { locator: Locator },
    Scroll { down: bool },
    Back,
}

/// What a fill types: `{kind: placeholder, value: "{{NAME}}"}` or `{kind: literal, value}`
/// (the seed's form). A placeholder is filled with its secret only at the moment of typing.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct ValueSpec {
    pub kind: ValueKind,
    pub value: String,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum ValueKind {
    Placeholder,
    Literal,
}

impl From<&StepValue> for ValueSpec {
    fn from(value: &StepValue) -> ValueSpec {
        match value {
            StepValue::Placeholder(name) => {
                ValueSpec { kind: ValueKind::Placeholder, value: format!("{{{{{name}}}}}") }
            }
            StepValue::Literal(text) => ValueSpec { kind: ValueKind::Literal, value: text.clone() },
        }
    }
}

impl Op {
    /// The operation in words, with placeholders, never a value: `fill getByRole("textbox",
    /// { name: "Password" }) with {{PORTAL_PASSWORD}}`.
    pub fn describe(&self) -> String {
        match self {
            Op::Navigate { url } => format!("open {url}"),
            Op::Click { locator, downloads: true } => format!("click {locator} and save the download"),
            Op::Click { locator, .. } => format!("click {locator}"),
            Op::Fill { locator, value } => format!("fill {locator} with {}", shown(value)),
            Op::Select { locator, option } => format!("choose {option:?} in {locator}"),
            Op::Check { locator, on: true } => format!("check {locator}"),
            Op::Check { locator, on: false } => format!("uncheck {locator}"),
            Op::Press { locator: Some(locator), key } => format!("press {key} in {locator}"),
            Op::Press { locator: None, key } => format!("press {key}"),
            Op::Hover { locator } => format!("hover over {locator}"),
            Op::Scroll { down } => format!("scroll {}", if *down { "down" } else { "up" }),
            Op::Back => "go back".to_owned(),
        }
    }

    /// The driver's operation.
    pub fn tool(&self) -> Tool {
        match self {
            Op::Navigate { .. } => Tool::Navigate,
            Op::Click { .. } => Tool::Click,
            Op::Fill { .. } => Tool::Fill,
            Op::Select { .. } => Tool::Select,
            Op::Check { .. } => Tool::Check,
            Op::Press { .. } => Tool::Press,
            Op::Hover { .. } => Tool::Hover,
            Op::Scroll { .. } => Tool::Scroll,
            Op::Back => Tool::Back,
        }
    }

    /// The same operation on another element (an operation with no element is unchanged).
    pub fn with_locator(self, target: Locator) -> Op {
        match self {
            Op::Click { downloads, .. } => Op::Click { locator: target, downloads },
            Op::Fill { value, .. } => Op::Fill { locator: target, value },
            Op::Select { option, .. } => Op::Select { locator: target, option },
            Op::Check { on, .. } => Op::Check { locator: target, on },
            Op::Press { key, locator: Some(_) } => Op::Press { locator: Some(target), key },
            Op::Hover { .. } => Op::Hover { locator: target },
            other => other,
        }
    }

    /// The locator acted on, if any.
    pub fn locator(&self) -> Option<&Locator> {
        match self {
            Op::Click { locator, .. }
            | Op::Fill { locator, .. }
            | Op::Select { locator, .. }
            | Op::Check { locator, .. }
            | Op::Hover { locator } => Some(locator),
            Op::Press { locator, .. } => locator.as_ref(),
            Op::Navigate { .. } | Op::Scroll { .. } | Op::Back => None,
        }
    }
}

fn shown(value: &ValueSpec) -> String {
    match value.kind {
        ValueKind::Placeholder => value.value.clone(),
        ValueKind::Literal => format!("{:?}", value.value),
    }
}

/// Why an intent could not be matched to the page.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Unresolved {
    pub reason: String,
    /// Several elements fit and the step does not say which (rather than none fitting).
    pub ambiguous: bool,
}

impl Unresolved {
    fn missing(reason: impl Into<String>) -> Unresolved {
        Unresolved { reason: reason.into(), ambiguous: false }
    }

    fn ambiguous(reason: impl Into<String>) -> Unresolved {
        Unresolved { reason: reason.into(), ambiguous: true }
    }
}

/// Roles an action acts on.
fn action_roles(action: &Action) -> &'static [&'static str] {
    const CLICKABLE: &[&str] = &[
        "button",
        "link",
        "menuitem",
        "menuitemcheckbox",
        "menuitemradio",
        "tab",
        "checkbox",
        "radio",
        "switch",
        "option",
        "treeitem",
        "combobox",
        "gridcell",
        "row",
    ];
    match action {
        Action::Open { .. } => &["link", "tab", "menuitem", "button", "treeitem", "row", "gridcell"],
        Action::Download => &["link", "button", "menuitem"],
        Action::Check { .. } => &["checkbox", "switch", "radio", "menuitemcheckbox"],
        Action::Hover => CLICKABLE,
        _ => CLICKABLE,
    }
}

/// Roles that take typed text.
const EDITABLE: &[&str] = &["textbox", "searchbox", "combobox", "spinbutton"];

/// How well an element's name fits what the intent names: 1 for an exact quoted name, less for
/// a partial one, then the step's words against the name's; 0 for a look-alike that adds
/// destructive words ([`crate::lookalike`]).
fn name_score(name: &str, intent: &Intent) -> f64 {
    let folded = fold(name);
    if folded.is_empty() {
        return 0.0;
    }
    // "Save and delete all records" for "Click Save": a look-alike, never a partial match.
    let said = format!("{} {}", intent.words.join(" "), intent.names.join(" "));
    if !crate::lookalike::added_destruction(&said, name).is_empty() {
        return 0.0;
    }
    let mut best: f64 = 0.0;
    for wanted in &intent.names {
        let wanted = fold(wanted);
        if folded == wanted {
            return 1.0;
        }
        if contains_folded(&folded, &wanted) {
            // "Card number" rather than "Name on card" for the card: a name that starts with
            // the words is theirs more than one that ends with them.
            let leads = if folded.starts_with(&wanted) { 0.1 } else { 0.0 };
            let part = wanted.chars().count() as f64 / folded.chars().count() as f64;
            best = best.max((0.75 + 0.2 * part + leads).min(0.99));
        } else if contains_folded(&wanted, &folded) {
            best = best.max(0.55 + 0.2 * folded.chars().count() as f64 / wanted.chars().count() as f64);
        }
    }
    let phrase = fold(&intent.phrase);
    if !phrase.is_empty() && folded == phrase {
        return best.max(0.95);
    }
    let covered = coverage(name, &intent.words);
    if covered > 0.0 && !names_another(name, intent) {
        let phrase_words = text::content_words(&intent.phrase);
        let back = if phrase_words.is_empty() { 0.0 } else { coverage(&intent.phrase, &text::words(name)) };
        let mut words = 0.6 * covered + 0.35 * back;
        if one_word_of_many(name, &phrase_words, back) && !names_the_verb(name, intent) {
            words = words.min(0.4);
        }
        // Quoted names are what the person meant: words alone count less beside them.
        best = best.max(if intent.names.is_empty() { words } else { words * 0.7 });
    }
    if best == 0.0 && !phrase.is_empty() && phrase.chars().any(text::is_japanese) {
        if folded.contains(&phrase) {
            best = 0.7;
        } else if phrase.contains(&folded) && folded.chars().count() >= 2 {
            best = 0.6;
        }
    }
    best
}

/// A name of one word that is only one of the three or more words the step names its target
/// with ("Reports" for "Export October report"): a link that shares a word, not the target.
fn one_word_of_many(name: &str, phrase_words: &[String], back: f64) -> bool {
    let name_words = text::content_words(name);
    name_words.len() == 1
        && phrase_words.len() >= 3
        && back < 0.34
        && phrase_words.iter().any(|w| text::stem(w) == text::stem(&name_words[0]))
}

/// A name of one word that is the step's verb ("Approve" for "Approve the expense claim of
/// Sato", 承認 for 山田さんの申請を承認する): the control the step names by what it does, to be
/// told apart from others of its name by the step's other words.
fn names_the_verb(name: &str, intent: &Intent) -> bool {
    let name_words = text::content_words(name);
    let [word] = name_words.as_slice() else { return false };
    let japanese_verb = intent.words.last().filter(|w| w.chars().any(text::is_japanese));
    intent.words.first().into_iter().chain(japanese_verb).any(|w| text::stem(w) == text::stem(word))
}

/// The words that identify one thing among its kind: those holding a digit (a year, a day, an
/// order number), and month names (as their number).
fn identifiers(words: &[String]) -> (Vec<String>, Vec<usize>) {
    let folded: Vec<String> = words.iter().map(|w| fold(w)).collect();
    let numbers = folded.iter().filter(|w| w.chars().any(|c| c.is_ascii_digit())).cloned().collect();
    // Month names tell one of a kind apart as numbers do.
    let months = folded.iter().filter_map(|w| crate::values::MONTHS.iter().position(|m| m == w)).collect();
    (numbers, months)
}

/// The name identifies another thing of the kind the step names: other numbers and none of the
/// step's ("Open statement for March 2026" when the step asks for March 2024), another month
/// ("December 2024" for "March 2024").
fn names_another(name: &str, intent: &Intent) -> bool {
    let (wanted_numbers, wanted_months) = identifiers(&intent.words);
    let (numbers, months) = identifiers(&text::words(name));
    differ(&wanted_numbers, &numbers) || differ(&wanted_months, &months)
}

/// Both name something and `carried` names nothing `wanted` does.
fn differ<T: PartialEq>(wanted: &[T], carried: &[T]) -> bool {
    !wanted.is_empty() && !carried.is_empty() && !carried.iter().any(|c| wanted.contains(c))
}

/// The places an element is in (its containers' names): a dialog, a form, a region, a frame.
fn places(page: &Page, i: usize) -> Vec<String> {
    page.ancestors(i).filter(|(_, n)| !n.name.is_empty()).map(|(_, n)| fold(&n.name)).collect()
}

/// Extra weight for an element inside the place the step names ("in the contact form").
fn place_score(page: &Page, i: usize, intent: &Intent) -> f64 {
    if intent.context.is_empty() {
        return 0.0;
    }
    let places = places(page, i);
    let dialog = page.ancestors(i).any(|(_, n)| matches!(n.role.as_str(), "dialog" | "alertdialog"));
    let hit = intent.context.iter().any(|c| {
        let c = fold(c);
        let says_dialog =
            ["dialog", "ダイアログ", "popup", "pop-up", "modal", "ポップアップ"].iter().any(|d| c.contains(d));
        (says_dialog && dialog)
            || places
                .iter()
                .any(|p| contains_phrase(p, &c) || contains_phrase(&c, p) || coverage(p, &text::words(&c)) >= 0.5)
    });
    if hit {
        0.15
    } else {
        0.0
    }
}

/// A scored element.
#[derive(Debug, Clone)]
struct Scored {
    index: usize,
    score: f64,
}

/// The elements of `roles` that `keep` keeps, scored for `intent`, best first; those under
/// `min` are left out.
fn candidates(
    page: &Page,
    intent: &Intent,
    roles: &[&str],
    min: f64,
    keep: &(dyn Fn(&Node) -> bool + Sync),
) -> Vec<Scored> {
    let mut scored: Vec<Scored> = page
        .nodes
        .iter()
        .enumerate()
        // Disabled ones too: the driver waits for a button enabled once the form is valid.
        .filter(|(_, n)| roles.contains(&n.role.as_str()) && keep(n))
        .map(|(i, n)| {
            let mut score = name_score(&n.name, intent);
            if score > 0.0 {
                score += place_score(page, i, intent);
                if intent.roles.contains(&n.role.as_str()) {
                    score += 0.1;
                }
            }
            Scored { index: i, score }
        })
        .filter(|s| s.score >= min)
        .collect();
    scored.sort_by(|a, b| b.score.total_cmp(&a.score));
    scored
}

/// The element a step means, as a locator: a single best match by role and name, or one of
/// several of the same name told apart by what surrounds it.
async fn pick(
    session: &dyn PageDriver,
    page: &Page,
    intent: &Intent,
    roles: &[&str],
    what: &str,
) -> Result<(Locator, Node), Unresolved> {
    pick_where(session, page, intent, roles, what, 0.45, &|_| true).await
}

/// [`pick`] among the elements `keep` keeps, none scoring under `min`.
async fn pick_where(
    session: &dyn PageDriver,
    page: &Page,
    intent: &Intent,
    roles: &[&str],
    what: &str,
    min: f64,
    keep: &(dyn Fn(&Node) -> bool + Sync),
) -> Result<(Locator, Node), Unresolved> {
    let scored = candidates(page, intent, roles, min, keep);
    let Some(best) = scored.first() else {
        return Err(Unresolved::missing(format!(
            "{what}: nothing on the page matches {}{}",
            target_words(intent),
            seen(page, roles)
        )));
    };
    let close: Vec<&Scored> = scored.iter().filter(|s| s.score >= best.score - 0.05).collect();
    let node = page.nodes[best.index].clone();
    let same_name =
        close.iter().all(|s| page.nodes[s.index].role == node.role && page.nodes[s.index].name == node.name);
    if close.len() > 1 && !same_name {
        let names: Vec<String> = close.iter().map(|s| describe_node(&page.nodes[s.index])).collect();
        return Err(Unresolved::ambiguous(format!(
            "{what}: {} could be any of {}",
            target_words(intent),
            names.join(", ")
        )));
    }
    let locator = locator_of(&node);
    let duplicates = page.named(&node.role, &node.name);
    if duplicates <= 1 {
        return Ok((locator, node));
    }
    disambiguate(session, locator, node, intent, what).await
}

/// Several elements of one role and name: the step's other words ("Blue widget", "October
/// 2026") pick the one whose surroundings hold them.
async fn disambiguate(
    session: &dyn PageDriver,
    locator: Locator,
    node: Node,
    intent: &Intent,
    what: &str,
) -> Result<(Locator, Node), Unresolved> {
    let found = session.resolve(&locator).await.map_err(|e| Unresolved::missing(format!("{what}: {e}")))?;
    let mut surroundings = Vec::with_capacity(found.len());
    for candidate in &found {
        surroundings.push(fold(&session.surroundings(candidate).await.unwrap_or_default()));
    }
    // An identifier the step names (INV-2215, 12,400) that no row shows: the row is not on the
    // page (another page of a table), whatever the step's other words match.
    let telling = telling_phrases(intent, &node.name);
    // (A code or a number of four characters or more; "2 widgets" names a quantity.)
    let identifiers: Vec<&String> = telling
        .iter()
        .filter(|p| {
            !p.contains(' ')
                && p.chars().any(|c| c.is_ascii_digit())
                && (p.chars().count() >= 4 || p.chars().any(char::is_alphabetic))
        })
        .collect();
    if let Some(absent) = identifiers.iter().find(|id| !surroundings.iter().any(|s| text::contains_phrase(s, id))) {
        return Err(Unresolved::missing(format!(
            "{what}: no {} on the page stands beside \"{absent}\"",
            describe_node(&node)
        )));
    }
    for phrase in telling {
        let matching = surroundings.iter().filter(|s| text::contains_phrase(s, &phrase)).count();
        if matching == 1 {
            let near = Locator::Near { target: Box::new(locator), text: phrase };
            return Ok((near, node));
        }
    }
    // A row chosen by two (or more) of its values: the one whose surroundings hold the most of
    // the step's telling words, when no other holds as many.
    let single: Vec<String> = telling_phrases(intent, &node.name).into_iter().filter(|p| !p.contains(' ')).collect();
    let held: Vec<Vec<&String>> = surroundings
        .iter()
        .map(|s| single.iter().filter(|w| text::contains_phrase(s, w) || holds_head(s, w)).collect())
        .collect();
    let most = held.iter().map(Vec::len).max().unwrap_or(0);
    if most >= 2 && held.iter().filter(|h| h.len() == most).count() == 1 {
        if let Some(words) = held.iter().find(|h| h.len() == most) {
            let near = words
                .iter()
                .fold(locator, |target, word| Locator::Near { target: Box::new(target), text: (*word).clone() });
            return Ok((near, node));
        }
    }
    let listed: Vec<String> =
        surroundings.iter().take(8).map(|s| format!("\"{}\"", s.chars().take(60).collect::<String>())).collect();
    Err(Unresolved::ambiguous(format!(
        "{what}: {} {} on the page and the step does not say which (they stand in {})",
        found.len(),
        describe_node(&node),
        listed.join(", ")
    )))
}

/// Whether `surroundings` hold the head of a Japanese compound of the step (大阪 of 大阪倉庫,
/// 山田 of 山田さん): its first half or more, two characters at least.
fn holds_head(surroundings: &str, word: &str) -> bool {
    let chars: Vec<char> = word.chars().collect();
    chars.len() >= 3
        && chars.iter().all(|&c| text::is_japanese(c))
        && (chars.len().div_ceil(2).max(2)..chars.len())
            .any(|n| surroundings.contains(&chars[..n].iter().collect::<String>()))
}

/// Phrases of the step that could tell elements of one name apart: quoted names and places,
/// then runs of the step's words that are not the element's name, longest first.
fn telling_phrases(intent: &Intent, name: &str) -> Vec<String> {
    let name_words = text::words(name);
    let mut phrases: Vec<String> =
        intent.names.iter().chain(intent.context.iter()).map(|p| fold(p)).filter(|p| *p != fold(name)).collect();
    let others = |source: &str| -> Vec<String> {
        text::content_words(source)
            .into_iter()
            // "Priya Shah's trip": the name without its possessive.
            .map(|w| w.strip_suffix("'s").map(str::to_owned).unwrap_or(w))
            .filter(|w| !name_words.iter().any(|n| n == w || text::stem(n) == text::stem(w)))
            .collect()
    };
    // "For Priya Shah's trip to Berlin, click Approve": the phrase is only the name; the step's
    // other words tell the rows apart.
    let mut words = others(&intent.phrase);
    if words.is_empty() {
        words = others(&intent.words.join(" "));
    }
    for len in (1..=words.len().min(4)).rev() {
        for window in words.windows(len) {
            let phrase = window.join(" ");
            if !phrases.contains(&phrase) {
                phrases.push(phrase);
            }
        }
    }
    phrases
}

/// A locator for a node: by role and exact name, or its ref when it has no name.
pub fn locator_of(node: &Node) -> Locator {
    if node.name.is_empty() {
        Locator::Ref { reference: node.reference.clone().unwrap_or_default() }
    } else {
        Locator::Role { role: node.role.clone(), name: Some(node.name.clone()), exact: true }
    }
}

fn describe_node(node: &Node) -> String {
    if node.name.is_empty() {
        node.role.clone()
    } else {
        format!("{} \"{}\"", node.role, node.name)
    }
}

fn target_words(intent: &Intent) -> String {
    match intent.names.as_slice() {
        [] if intent.phrase.is_empty() => "the step's words".to_owned(),
        [] => format!("\"{}\"", intent.phrase),
        names => names.iter().map(|n| format!("\"{n}\"")).collect::<Vec<_>>().join(", "),
    }
}

/// What the page offers of `roles`, for a failure message (at most 12).
fn seen(page: &Page, roles: &[&str]) -> String {
    let offered: Vec<String> = page
        .nodes
        .iter()
        .filter(|n| roles.contains(&n.role.as_str()) && !n.name.is_empty())
        .take(12)
        .map(describe_node)
        .collect();
    if offered.is_empty() {
        String::new()
    } else {
        format!("; the page offers {}", offered.join(", "))
    }
}

/// An intent matched to the page: the operations to carry out, in order. `Verify`, `Note` and
/// `Wait` have none: the judge reads the page for them.
pub async fn resolve(session: &dyn PageDriver, page: &Page, intent: &Intent) -> Result<Vec<Op>, Unresolved> {
    match &intent.action {
        Action::Open { url: Some(url) } => Ok(vec![Op::Navigate { url: url.clone() }]),
        Action::Download if intent.names.is_empty() => {
            // What downloads: a control named for it, told apart by the step's words ("the
            // October statement"); else only a strong match of the step's words (a control
            // named "October statement (PDF)").
            let roles = action_roles(&intent.action);
            let named = |n: &Node| mentions(&n.name, DOWNLOAD_WORDS);
            let (locator, _) = match pick_where(session, page, intent, roles, "download", 0.45, &named).await {
                Ok(found) => found,
                Err(_) => pick_where(session, page, intent, roles, "download", 0.8, &|_| true).await?,
            };
            Ok(vec![Op::Click { locator, downloads: true }])
        }
        Action::Open { url: None } | Action::Click | Action::Download | Action::Hover | Action::Close => {
            // "Close the dialog", "click the x": the close button of the dialog there is.
            let x = matches!(fold(&intent.phrase).as_str(), "x" | "×" | "✕" | "✖");
            if intent.action == Action::Close && intent.names.is_empty()
                || x && page.named("button", &intent.phrase) == 0 && close_op(page).is_ok()
            {
                return close_op(page);
            }
            let roles = action_roles(&intent.action);
            // A menu opened on the way to its item: pointed at, and clicked too unless it is a
            // link (a click on a link leaves the page) — menus open on one or the other.
            if intent.opens {
                let (locator, node) = pick(session, page, intent, roles, "open the menu").await?;
                return Ok(vec![match node.role.as_str() {
                    "link" => Op::Hover { locator },
                    _ => Op::Click { locator, downloads: false },
                }]);
            }
            let locator = match generic_target(intent) {
                Some(generic) => by_kind_or_name(session, page, generic, intent, roles, "click").await?,
                None => match pick(session, page, intent, roles, "click").await {
                    Ok((locator, _)) => locator,
                    Err(unresolved) if !unresolved.ambiguous && intent.action != Action::Hover => {
                        by_text(session, intent).await.ok_or(unresolved)?
                    }
                    Err(unresolved) => return Err(unresolved),
                },
            };
            Ok(vec![match intent.action {
                Action::Hover => Op::Hover { locator },
                _ => Op::Click { locator, downloads: intent.downloads || intent.action == Action::Download },
            }])
        }
        Action::Check { on } => {
            let roles = action_roles(&intent.action);
            let locator = match generic_target(intent) {
                Some(generic) => by_kind_or_name(session, page, generic, intent, roles, "check").await?,
                None => pick(session, page, intent, roles, "check").await?.0,
            };
            Ok(vec![Op::Check { locator, on: *on }])
        }
        Action::Fill(pairs) => {
            let mut ops = Vec::new();
            for (field, value) in pairs {
                let (locator, label) = field_for(session, page, intent, field.as_deref()).await?;
                let label = date_form(session, page, value, label).await;
                // A field the step names takes the value as written; one it leaves to the page
                // ("Look up order 1042") takes what its label does not already say.
                ops.push(Op::Fill { locator, value: typed(value, &label, intent, field.is_none()) });
            }
            if ops.is_empty() {
                return Err(Unresolved::missing("fill: the step names no value to type"));
            }
            Ok(ops)
        }
        Action::Choose { field, value } => choose(session, page, intent, field.as_deref(), value).await,
        Action::Search { query } => search(page, query, intent),
        Action::Login { user, password } => login(page, user.as_ref(), password.as_ref()),
        Action::Press { key } => Ok(vec![Op::Press { locator: None, key: key.clone() }]),
        Action::Scroll { down } => Ok(vec![Op::Scroll { down: *down }]),
        Action::Back => Ok(vec![Op::Back]),
        Action::Verify { .. } | Action::Note { .. } | Action::Wait => Ok(Vec::new()),
    }
}

/// What a fill types into the field labelled `label`: a date written relative to the run's day
/// in the form the field shows ("next Friday" → 2026-12-04), and — `beyond_label` — an unquoted
/// value without the words the label already says ("order 1042" into "Order number" is 1042);
/// a quoted value or a placeholder as written.
fn typed(value: &StepValue, label: &str, intent: &Intent, beyond_label: bool) -> ValueSpec {
    match value {
        StepValue::Literal(text) if !intent.quoted.contains(text) => {
            // "Tuesday" typed into a note stays a word: only a field for a date takes a date.
            let for_a_date = label.is_empty() || mentions(label, DATE_WORDS);
            let date = crate::values::date_in(text, crate::values::today()).filter(|_| for_a_date);
            let text = match date {
                Some(date) => crate::values::date_for_field(date, label),
                None if beyond_label => crate::values::beyond_label(text, label),
                None => text.clone(),
            };
            ValueSpec { kind: ValueKind::Literal, value: text }
        }
        _ => value.into(),
    }
}

/// For a date to type, what says its form: a date input takes YYYY-MM-DD whatever its label
/// says; another field shows its form in its label or placeholder ("DD/MM/YYYY"). Any other
/// value keeps the label as it is.
async fn date_form(session: &dyn PageDriver, page: &Page, value: &StepValue, label: String) -> String {
    let StepValue::Literal(text) = value else { return label };
    if crate::values::date_in(text, crate::values::today()).is_none() {
        return label;
    }
    let fields = crate::fields::text_fields(session, page).await.unwrap_or_default();
    let mut named = fields.iter().filter(|(i, _)| page.nodes[*i].name == label);
    match (named.next(), named.next()) {
        (Some((_, markup)), None) if markup.r#type == "date" => "date".to_owned(),
        (Some((_, markup)), None) => format!("{label} {}", markup.placeholder),
        _ => label,
    }
}

/// The reference by kind an intent's target phrase makes: "the 3rd button", and for a verb
/// that names a section ("Expand the section below") the phrase after the verb.
fn generic_target(intent: &Intent) -> Option<Generic> {
    if !intent.names.is_empty() {
        return None;
    }
    generic::reference(&intent.phrase).or_else(|| {
        let (_, after_verb) = intent.phrase.split_once(' ')?;
        generic::reference(after_verb).filter(|g| g.kind == Kind::Section)
    })
}

/// A click on text that no control bears ("Invoice emails" on a heading that opens its section,
/// a word of running text that acts): the one element whose whole text is what the step names
/// — its quoted name, else its phrase, else the phrase after its verb.
async fn by_text(session: &dyn PageDriver, intent: &Intent) -> Option<Locator> {
    let phrase = intent.phrase.trim();
    let after_verb = phrase.split_once(' ').map(|(_, rest)| clean_article(rest));
    let wanted: Vec<&str> = if intent.names.is_empty() {
        [Some(phrase), after_verb].into_iter().flatten().collect()
    } else {
        intent.names.iter().map(String::as_str).collect()
    };
    for text in wanted.into_iter().filter(|t| t.chars().count() >= 2) {
        let locator = Locator::Text { text: text.to_owned(), exact: true };
        if session.resolve(&locator).await.is_ok_and(|found| found.len() == 1) {
            return Some(locator);
        }
    }
    None
}

/// A phrase without a leading article.
fn clean_article(phrase: &str) -> &str {
    ["the ", "a ", "an "].iter().find_map(|a| phrase.strip_prefix(a)).unwrap_or(phrase).trim()
}

/// A reference by kind that may also be a name ("Results" is a link's name as well as "the
/// results"): an element that bears the name is meant first; a position ("the 3rd button")
/// or a section is always by kind.
async fn by_kind_or_name(
    session: &dyn PageDriver,
    page: &Page,
    generic: Generic,
    intent: &Intent,
    roles: &[&str],
    what: &str,
) -> Result<Locator, Unresolved> {
    if generic.which == Which::Only && generic.kind != Kind::Section {
        if let Ok((locator, _)) = pick_where(session, page, intent, roles, what, 0.7, &|_| true).await {
            return Ok(locator);
        }
    }
    by_kind(session, page, generic, what).await
}

/// The element a reference by kind means: the only one of its kind on the page, the n-th or
/// the last in the page's order. A text area or a date is told by its markup, a result is a
/// link of the page's content (not of its navigation), a section is a collapsed disclosure.
async fn by_kind(session: &dyn PageDriver, page: &Page, generic: Generic, what: &str) -> Result<Locator, Unresolved> {
    let roles = generic.kind.roles();
    let mut found: Vec<usize> = page
        .nodes
        .iter()
        .enumerate()
        .filter(|(_, n)| roles.contains(&n.role.as_str()) && !n.disabled)
        .map(|(i, _)| i)
        .collect();
    match generic.kind {
        Kind::TextArea | Kind::Date => {
            let fields = crate::fields::text_fields(session, page).await.unwrap_or_default();
            let wanted = |m: &crate::fields::FieldMarkup| {
                if generic.kind == Kind::Date {
                    m.r#type == "date"
                } else {
                    m.tag == "textarea"
                }
            };
            found = fields.into_iter().filter(|(_, m)| wanted(m)).map(|(i, _)| i).collect();
        }
        Kind::Result => {
            const AROUND: &[&str] = &["navigation", "banner", "contentinfo", "complementary", "menu", "menubar"];
            found.retain(|&i| !page.ancestors(i).any(|(_, a)| AROUND.contains(&a.role.as_str())));
        }
        Kind::Section => {
            let collapsed = session.collapsed_sections().await.unwrap_or_default();
            found.retain(|&i| collapsed.iter().any(|c| fold(c) == fold(&page.nodes[i].name)));
        }
        _ => {}
    }
    let kind = format!("{:?}", generic.kind).to_lowercase();
    let chosen = match generic.which {
        Which::Only => match found.as_slice() {
            [one] => Some(*one),
            [] => None,
            many => {
                return Err(Unresolved::ambiguous(format!(
                    "{what}: the step names the {kind} but the page has {}: {}",
                    many.len(),
                    many.iter().take(8).map(|&i| describe_node(&page.nodes[i])).collect::<Vec<_>>().join(", ")
                )))
            }
        },
        Which::Nth(n) => found.get(n - 1).copied(),
        Which::Last => found.last().copied(),
        Which::All(n) if found.len() == n => found.first().copied(),
        Which::All(_) => None,
    };
    chosen.map(|i| crate::recovery::locator_in(page, i)).ok_or_else(|| {
        Unresolved::missing(format!(
            "{what}: the step names {} {kind} and the page has {} ({:?})",
            match generic.which {
                Which::Nth(n) => format!("the {n}th"),
                Which::Last => "the last".to_owned(),
                Which::All(n) => format!("{n} of the"),
                Which::Only => "the".to_owned(),
            },
            found.len(),
            generic.kind
        ))
    })
}

/// "Close the dialog": the close button of the dialog there is.
fn close_op(page: &Page) -> Result<Vec<Op>, Unresolved> {
    let dialog = page.nodes.iter().position(|n| matches!(n.role.as_str(), "dialog" | "alertdialog"));
    let Some(dialog) = dialog else { return Err(Unresolved::missing("close: there is no dialog on the page")) };
    crate::recovery::dismiss_button(page, dialog)
        .map(|(i, _)| vec![Op::Click { locator: crate::recovery::locator_in(page, i), downloads: false }])
        .ok_or_else(|| {
            Unresolved::missing(format!("close: {} has no button that closes it", describe_node(&page.nodes[dialog])))
        })
}

/// The field a fill means, with its label: by its label against the step's field words, by
/// its kind ("the 3rd input textbox", 入力欄), by its markup when it has no label ("the
/// username": its `name`, `id`, placeholder or type), else the one field.
async fn field_for(
    session: &dyn PageDriver,
    page: &Page,
    intent: &Intent,
    field: Option<&str>,
) -> Result<(Locator, String), Unresolved> {
    let label = |locator: Locator| {
        let name = match &locator {
            Locator::Role { name: Some(name), .. } => name.clone(),
            _ => String::new(),
        };
        (locator, name)
    };
    match field {
        Some(field) => {
            let wanted = Intent {
                names: vec![field.to_owned()],
                phrase: field.to_owned(),
                words: text::words(field),
                ..intent.clone()
            };
            if let Some(generic) = generic::reference(field) {
                return by_kind_or_name(session, page, generic, &wanted, EDITABLE, "fill").await.map(label);
            }
            match pick(session, page, &wanted, EDITABLE, "fill").await {
                Ok((locator, node)) => Ok((locator, node.name)),
                Err(unresolved) => {
                    let fields = crate::fields::text_fields(session, page).await.unwrap_or_default();
                    let said: Vec<usize> = fields.iter().filter(|(_, m)| m.says(field)).map(|(i, _)| *i).collect();
                    match said.as_slice() {
                        [one] => Ok((crate::recovery::locator_in(page, *one), page.nodes[*one].name.clone())),
                        _ => Err(unresolved),
                    }
                }
            }
        }
        None => {
            let fields: Vec<&Node> =
                page.nodes.iter().filter(|n| EDITABLE.contains(&n.role.as_str()) && !n.disabled).collect();
            match fields.as_slice() {
                [one] => Ok((locator_of(one), one.name.clone())),
                [] => Err(Unresolved::missing("fill: there is no field to type into on the page")),
                many => Err(Unresolved::ambiguous(format!(
                    "fill: the step does not say which field; the page has {}",
                    many.iter().map(|n| describe_node(n)).collect::<Vec<_>>().join(", ")
                ))),
            }
        }
    }
}

/// Choosing a value: an option of a select (the one the step names, or any that has it), a
/// radio, a tab or button of that name, or — "Set the name to Ada" — typing into a field.
async fn choose(
    session: &dyn PageDriver,
    page: &Page,
    intent: &Intent,
    field: Option<&str>,
    value: &str,
) -> Result<Vec<Op>, Unresolved> {
    let value_intent =
        Intent { names: vec![value.to_owned()], phrase: value.to_owned(), words: text::words(value), ..intent.clone() };
    // A select: the one named by the field, else any whose options have the value.
    let selects: Vec<usize> = page
        .nodes
        .iter()
        .enumerate()
        .filter(|(_, n)| matches!(n.role.as_str(), "combobox" | "listbox"))
        .map(|(i, _)| i)
        .collect();
    let mut best: Option<(f64, usize, String)> = None;
    for &s in &selects {
        let field_fit = match field {
            Some(field) => {
                let wanted = Intent {
                    names: vec![field.to_owned()],
                    phrase: field.to_owned(),
                    words: text::words(field),
                    ..intent.clone()
                };
                name_score(&page.nodes[s].name, &wanted)
            }
            None => 0.5,
        };
        if field_fit < 0.45 {
            continue;
        }
        for option in page.options_of(s) {
            let fit = name_score(&option.name, &value_intent);
            if fit >= 0.6 {
                let score = fit + field_fit;
                if best.as_ref().is_none_or(|(b, _, _)| score > *b) {
                    best = Some((score, s, option.name.clone()));
                }
            }
        }
    }
    if let Some((_, s, option)) = best {
        return Ok(vec![Op::Select { locator: locator_of(&page.nodes[s]), option }]);
    }
    // A radio (in the group the field names), a tab, an option of a list, a button.
    let mut radio_intent = value_intent.clone();
    if let Some(field) = field {
        radio_intent.context.push(field.to_owned());
    }
    // A select's options are chosen through it, never clicked (they are hidden while it is shut).
    let not_in_select = |n: &Node| n.role != "option" || n.parent.is_none_or(|p| page.nodes[p].role != "combobox");
    if let Ok((locator, node)) = pick_where(
        session,
        page,
        &radio_intent,
        &["radio", "option", "tab", "menuitemradio", "button", "link", "switch", "checkbox"],
        "choose",
        0.45,
        &not_in_select,
    )
    .await
    {
        return Ok(vec![match node.role.as_str() {
            "radio" | "checkbox" | "switch" | "menuitemradio" => Op::Check { locator, on: true },
            _ => Op::Click { locator, downloads: false },
        }]);
    }
    // "Set the Reference to ABC-123": a field takes the value.
    if let Some(field) = field {
        if let Ok((locator, label)) = field_for(session, page, intent, Some(field)).await {
            let value = StepValue::Literal(value.to_owned());
            let label = date_form(session, page, &value, label).await;
            // "Set the visit date to next Friday": a date in the field's form.
            let value = typed(&value, &label, intent, false);
            return Ok(vec![Op::Fill { locator, value }]);
        }
    }
    let options: Vec<String> = selects
        .iter()
        .flat_map(|&s| page.options_of(s).into_iter().map(move |o| format!("{} in {}", o.name, page.nodes[s].name)))
        .take(12)
        .collect();
    Err(Unresolved::missing(format!(
        "choose: no option, radio or button \"{value}\"{} on the page{}",
        field.map(|f| format!(" for \"{f}\"")).unwrap_or_default(),
        if options.is_empty() { String::new() } else { format!("; the options are {}", options.join(", ")) }
    )))
}

/// Words of a field's label that say it takes a date.
const DATE_WORDS: &[&str] =
    &["date", "day", "due", "deadline", "when", "birthday", "from", "until", "日", "期限", "期日", "予定"];
const DOWNLOAD_WORDS: &[&str] =
    &["download", "export", "save", "csv", "pdf", "xlsx", "ダウンロード", "出力", "エクスポート", "保存"];
const SEARCH_WORDS: &[&str] =
    &["search", "find", "query", "keyword", "look up", "lookup", "検索", "キーワード", "探す", "照会"];
pub(crate) const USER_WORDS: &[&str] = &[
    "user",
    "username",
    "login",
    "email",
    "e-mail",
    "account",
    "id",
    "ユーザー",
    "ログイン",
    "メール",
    "アカウント",
    "社員番号",
    "利用者",
];
const PASSWORD_WORDS: &[&str] = &["password", "passcode", "pin", "パスワード", "暗証番号"];
const SUBMIT_LOGIN: &[&str] =
    &["sign in", "log in", "login", "sign on", "continue", "next", "submit", "ログイン", "サインイン", "送信", "次へ"];

pub(crate) fn mentions(name: &str, words: &[&str]) -> bool {
    let name = fold(name);
    words.iter().any(|w| if w.is_ascii() { contains_phrase(&name, w) } else { name.contains(w) })
}

/// Search: the search field (a search box, or a field named for searching), the query typed,
/// then its button or Enter.
fn search(page: &Page, query: &StepValue, intent: &Intent) -> Result<Vec<Op>, Unresolved> {
    let fields: Vec<usize> = page
        .nodes
        .iter()
        .enumerate()
        .filter(|(_, n)| EDITABLE.contains(&n.role.as_str()) && !n.disabled)
        .map(|(i, _)| i)
        .collect();
    let field = fields
        .iter()
        .copied()
        .find(|&i| page.nodes[i].role == "searchbox")
        .or_else(|| fields.iter().copied().find(|&i| mentions(&page.nodes[i].name, SEARCH_WORDS)))
        .or_else(|| page.ancestors_any(&fields, "search"))
        .or_else(|| (fields.len() == 1).then(|| fields[0]));
    let Some(field) = field else {
        return Err(Unresolved::missing(format!("search: no search field on the page{}", seen(page, EDITABLE))));
    };
    let mut ops = vec![Op::Fill {
        locator: locator_of(&page.nodes[field]),
        value: typed(query, &page.nodes[field].name, intent, true),
    }];
    // Its button: in the same search landmark or form, named for searching.
    let button = page.nodes.iter().enumerate().find(|(i, n)| {
        n.role == "button"
            && (mentions(&n.name, SEARCH_WORDS) || n.name == "🔍" || n.name.eq_ignore_ascii_case("go"))
            && page.ancestors(*i).any(|(p, _)| page.ancestors(field).any(|(q, _)| q == p))
    });
    ops.push(match button {
        Some((_, n)) => Op::Click { locator: locator_of(n), downloads: false },
        None => Op::Press { locator: Some(locator_of(&page.nodes[field])), key: "Enter".into() },
    });
    Ok(ops)
}

/// Sign in: the user field, the password field and the button that submits them.
fn login(page: &Page, user: Option<&StepValue>, password: Option<&StepValue>) -> Result<Vec<Op>, Unresolved> {
    let fields: Vec<usize> = page
        .nodes
        .iter()
        .enumerate()
        .filter(|(_, n)| matches!(n.role.as_str(), "textbox" | "combobox") && !n.disabled)
        .map(|(i, _)| i)
        .collect();
    let password_field = fields.iter().copied().find(|&i| mentions(&page.nodes[i].name, PASSWORD_WORDS));
    let user_field = fields
        .iter()
        .copied()
        .filter(|&i| Some(i) != password_field)
        .find(|&i| mentions(&page.nodes[i].name, USER_WORDS))
        .or_else(|| fields.iter().copied().find(|&i| Some(i) != password_field));
    let password_field = password_field.or_else(|| {
        // A password field without a name of its own: the field after the user's.
        user_field.and_then(|u| fields.iter().copied().find(|&i| i > u))
    });
    let mut ops = Vec::new();
    for (value, field, what) in [(user, user_field, "user name"), (password, password_field, "password")] {
        match (value, field) {
            (Some(value), Some(field)) => {
                ops.push(Op::Fill { locator: locator_of(&page.nodes[field]), value: value.into() })
            }
            (Some(_), None) => {
                return Err(Unresolved::missing(format!(
                    "sign in: no {what} field on the page{}",
                    seen(page, EDITABLE)
                )))
            }
            (None, _) => {}
        }
    }
    if ops.is_empty() {
        return Err(Unresolved::missing("sign in: the step gives neither a user name nor a password"));
    }
    let submit =
        page.nodes.iter().find(|n| matches!(n.role.as_str(), "button" | "link") && mentions(&n.name, SUBMIT_LOGIN));
    ops.push(match submit {
        Some(button) => Op::Click { locator: locator_of(button), downloads: false },
        None => {
            let last = password_field.or(user_field).map(|i| locator_of(&page.nodes[i]));
            Op::Press { locator: last, key: "Enter".into() }
        }
    });
    Ok(ops)
}

impl Page {
    /// The first of `fields` inside an element of `role` (a `search` landmark).
    fn ancestors_any(&self, fields: &[usize], role: &str) -> Option<usize> {
        fields.iter().copied().find(|&i| self.ancestors(i).any(|(_, n)| n.role == role))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::intent::parse_step;

    fn intent(step: &str) -> Intent {
        parse_step(step).remove(0)
    }

    #[test]
    fn names_fit_quoted_text_first_then_the_steps_words() {
        assert_eq!(name_score("Statements", &intent("Open the Statements page")), 0.95);
        assert_eq!(name_score("表示", &intent("「表示」を押す")), 1.0);
        let add = intent("Add the Blue widget to the cart");
        assert!(name_score("Add to cart", &add) > name_score("Cart (0)", &add));
        assert_eq!(name_score("Buy now", &add), 0.0);
        assert!(name_score("Reject non-essential", &intent("Click Reject")) > 0.45);
        assert!(
            name_score("I agree to the delivery terms", &intent("Tick the box to agree to the delivery terms")) > 0.8
        );
    }

    #[test]
    fn a_link_sharing_one_word_or_another_number_is_not_the_target() {
        let export = intent("Click Export October report");
        assert!(name_score("Reports", &export) < 0.45, "{}", name_score("Reports", &export));
        assert!(name_score("Export October report", &export) > 0.9);
        let march = intent("Open the statement for March 2024");
        assert_eq!(name_score("Open statement for March 2026", &march), 0.0);
        assert_eq!(name_score("Open statement for December 2024", &march), 0.0);
        assert!(name_score("Open statement for March 2024", &march) > 0.8);
        assert!(name_score("Download", &intent("Download the October 2026 statement")) > 0.45, "a verb's name stays");
    }

    #[test]
    fn phrases_that_tell_apart_are_the_steps_words_beside_the_name() {
        let phrases = telling_phrases(&intent("Download the October 2026 statement"), "Download");
        assert_eq!(phrases.first().map(String::as_str), Some("october 2026 statement"));
        assert!(phrases.contains(&"october 2026".to_owned()));
        let phrases = telling_phrases(&intent("Add the Blue widget to the cart"), "Add to cart");
        assert!(phrases.contains(&"blue widget".to_owned()), "{phrases:?}");
    }

    #[test]
    fn a_login_form_gives_user_password_and_its_button() {
        let page = Page::parse(
            "u",
            "- main:\n  - form:\n    - textbox \"Username\" [ref=e6]\n    - textbox \"Password\" [ref=e7]\n    - checkbox \"Keep me signed in\" [ref=e8]\n    - button \"Sign in\" [ref=e9]\n",
        );
        let Action::Login { user, password } = intent("Sign in with {{U}} / {{P}}").action else { panic!() };
        let ops = login(&page, user.as_ref(), password.as_ref()).unwrap();
        let described: Vec<String> = ops.iter().map(Op::describe).collect();
        assert_eq!(
            described,
            [
                "fill getByRole(\"textbox\", { name: \"Username\", exact: true }) with {{U}}",
                "fill getByRole(\"textbox\", { name: \"Password\", exact: true }) with {{P}}",
                "click getByRole(\"button\", { name: \"Sign in\", exact: true })"
            ]
        );
        let japanese = Page::parse("u", "- form:\n  - textbox \"ユーザーID\" [ref=e6]\n  - textbox \"パスワード\" [ref=e7]\n  - button \"ログイン\" [ref=e8]\n");
        assert_eq!(login(&japanese, user.as_ref(), password.as_ref()).unwrap().len(), 3);
    }

    #[test]
    fn rows_are_told_apart_by_the_steps_other_words_and_the_heads_of_japanese_compounds() {
        assert!(holds_head("a-220 ステンレスボルト m6 大阪 80 発注", "大阪倉庫"));
        assert!(!holds_head("a-220 ステンレスボルト m6 東京 1,200 発注", "大阪倉庫"));
        assert!(!holds_head("大 発注", "大阪倉庫"), "two characters at least");
        // A phrase that is only the control's name (a model's or a detail's "click Approve").
        let only_the_name = Intent { phrase: "Approve".into(), ..intent("Approve the trip of Priya Shah to Berlin") };
        let phrases = telling_phrases(&only_the_name, "Approve");
        assert!(phrases.contains(&"berlin".to_owned()) && phrases.contains(&"shah".to_owned()), "{phrases:?}");
        let possessive = telling_phrases(&intent("Approve Priya Shah's trip"), "Approve");
        assert!(possessive.contains(&"shah".to_owned()), "{possessive:?}");
    }

    #[test]
    fn a_value_is_typed_as_written_unless_the_page_must_say_where_it_goes() {
        let lit = |t: &str| StepValue::Literal(t.into());
        let plain = intent("Look up order 1042");
        let typed_as =
            |value: &str, label: &str, intent: &Intent, beyond: bool| typed(&lit(value), label, intent, beyond).value;
        assert_eq!(typed_as("order 1042", "Order number", &plain, true), "1042");
        assert_eq!(
            typed_as("Customer feedback", "Customer", &plain, false),
            "Customer feedback",
            "the step named the field"
        );
        assert_eq!(typed_as("order 1042", "Order number", &intent("Look up \"order 1042\""), true), "order 1042");
        let friday = crate::values::date_in("next Friday", crate::values::today()).unwrap();
        assert_eq!(typed_as("next Friday", "Delivery date", &plain, false), crate::values::date_for_field(friday, ""));
        assert_eq!(typed_as("next Friday", "Notes", &plain, false), "next Friday", "a note is not a date");
        let placeholder = typed(&StepValue::Placeholder("CODE".into()), "Order number", &plain, true);
        assert_eq!(placeholder.value, "{{CODE}}");
    }

    #[test]
    fn operations_read_as_words_with_placeholders() {
        let op = Op::Fill {
            locator: Locator::Role { role: "textbox".into(), name: Some("Password".into()), exact: true },
            value: (&StepValue::Placeholder("PORTAL_PASSWORD".into())).into(),
        };
        assert_eq!(
            op.describe(),
            "fill getByRole(\"textbox\", { name: \"Password\", exact: true }) with {{PORTAL_PASSWORD}}"
        );
        let json = serde_json::to_value(&op).unwrap();
        assert_eq!(json["value"], serde_json::json!({"kind": "placeholder", "value": "{{PORTAL_PASSWORD}}"}));
        assert_eq!(serde_json::from_value::<Op>(json).unwrap(), op);
    }
}
