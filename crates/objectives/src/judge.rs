//! Judging an objective by what the page now shows: the evidence that proves it done — a new
//! address, a heading, a row, a value read back from a field, a download, a text a check
//! expected — or why it is not. A check whose text is not on the page fails; an action that
//! changed nothing proves nothing.

use std::time::{Duration, Instant};

use planwright_browser::{Backoff, BrowserError, Locator};
use planwright_runs::objective::EvidencePart;
use planwright_runs::RunMessage;

use crate::driver::PageDriver;
use crate::text::{contains_folded, fold, words};

/// The page's text — every frame's, same- and cross-origin, the main frame first, bounded —
/// and address, to see what an action changed (a confirmation can show inside a frame).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct PageText {
    pub url: String,
    pub text: String,
}

impl PageText {
    pub async fn capture(session: &dyn PageDriver) -> Result<PageText, BrowserError> {
        let frames = session.frame_texts().await?;
        let url = match frames.first() {
            Some(main) => main.url.clone(),
            None => session.url().await?,
        };
        let text: Vec<&str> = frames.iter().map(|frame| frame.text.as_str()).collect();
        Ok(PageText { url, text: text.join("\n") })
    }

    /// Whether the page shows `line` (trimmed) as a line of its own.
    pub fn has_line(&self, line: &str) -> bool {
        self.text.lines().any(|l| l.trim() == line.trim())
    }

    /// Whether the page has a line of the same shape as `line`, numbers aside ("Time left:
    /// 118 s" for "Time left: 119 s").
    pub fn has_shape_of(&self, line: &str) -> bool {
        let wanted = shape(line);
        self.text.lines().any(|l| shape(l) == wanted)
    }

    /// Lines of `self` that `before` did not have, in order, trimmed and not empty.
    pub fn new_lines(&self, before: &PageText) -> Vec<String> {
        let old: std::collections::HashSet<&str> = before.text.lines().map(str::trim).collect();
        self.text.lines().map(str::trim).filter(|l| !l.is_empty() && !old.contains(l)).map(str::to_owned).collect()
    }
}

/// A line with every run of digits as `#`: what stays of a clock, a countdown or a counter as
/// it ticks.
pub fn shape(line: &str) -> String {
    let mut out = String::with_capacity(line.len());
    for c in line.trim().chars() {
        if c.is_ascii_digit() {
            if !out.ends_with('#') {
                out.push('#');
            }
        } else {
            out.push(c);
        }
    }
    out
}

/// A short quote of page text for evidence: the first lines, at most 160 characters.
pub fn quote_lines(lines: &[String]) -> String {
    let joined: Vec<String> = lines.iter().take(2).map(|l| format!("\"{}\"", cut(l, 80))).collect();
    joined.join(" / ")
}

fn cut(text: &str, max: usize) -> String {
    if text.chars().count() <= max {
        text.to_owned()
    } else {
        format!("{}…", text.chars().take(max).collect::<String>())
    }
}

/// …and never past the page having been still this long (nothing more is coming).
const STILL_ENOUGH: Duration = Duration::from_millis(1200);

/// How long to wait for something to show on the page.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Patience {
    /// At most this.
    pub bound: Duration,
    /// Stop sooner once the page is at rest (nothing more seems to be coming).
    pub stop_when_still: bool,
}

impl Patience {
    /// A check's ordinary wait.
    pub const CHECK: Patience = Patience { bound: Duration::from_secs(5), stop_when_still: true };
    /// A waiting step a revision added: the whole bound, whether the page looks at rest or not
    /// (content a timer renders late, with no request and no "Loading…").
    pub const PATIENT: Patience = Patience { bound: Duration::from_secs(10), stop_when_still: false };
}
/// A moment: what was read of the page longer ago than this may have changed since (a banner
/// come up, a toast announced). Waits look again with a [`Backoff`].
pub(crate) const MOMENT: Duration = Duration::from_millis(40);

/// Whether a wait for something to show on the page has lasted long enough: the bound ran out,
/// or (when the patience allows) the page has been still a while and does not say it is
/// loading (a page filled by a timer or a slow back end looks still while its "Loading…" is up).
pub(crate) async fn waited_enough(
    session: &dyn PageDriver,
    waited: Duration,
    patience: Patience,
) -> Result<bool, BrowserError> {
    if waited >= patience.bound {
        return Ok(true);
    }
    Ok(patience.stop_when_still && waited >= STILL_ENOUGH && at_rest(session).await?)
}

/// The page has been still a while and does not say it is loading: looking again would see the
/// same.
pub(crate) async fn at_rest(session: &dyn PageDriver) -> Result<bool, BrowserError> {
    Ok(session.still_for().await? >= STILL_ENOUGH && !session.shows_loading().await?)
}

/// Where a text was found on the page.
async fn shown(
    session: &dyn PageDriver,
    expected: &str,
    role: Option<&str>,
) -> Result<Option<EvidencePart>, BrowserError> {
    let locator = match role {
        Some("table") => Locator::Role { role: "table".into(), name: Some(expected.to_owned()), exact: false },
        Some(role) => Locator::Role { role: role.to_owned(), name: Some(expected.to_owned()), exact: false },
        None => Locator::Text { text: expected.to_owned(), exact: false },
    };
    for candidate in session.resolve(&locator).await? {
        if session.is_visible(&candidate).await? {
            let what = if candidate.role.is_empty() || role.is_none() {
                shown_part("", &cut(expected, 80))
            } else {
                shown_part(&candidate.role, &cut(&candidate.name, 80))
            };
            return Ok(Some(what));
        }
    }
    // A table the step names loosely ("明細の表"): any table shown, named with the words.
    if role == Some("table") {
        for candidate in session.resolve(&Locator::Role { role: "table".into(), name: None, exact: false }).await? {
            if session.is_visible(&candidate).await?
                && (expected.is_empty() || fold(&candidate.name).contains(&fold(expected)))
            {
                return Ok(Some(shown_part("table", &cut(&candidate.name, 80))));
            }
        }
    }
    Ok(None)
}

/// The evidence that an element (`role` empty: text) is shown.
fn shown_part(role: &str, name: &str) -> EvidencePart {
    let said = |role: &str| vec![RunMessage::ProofShown { role: role.to_owned(), name: name.to_owned() }];
    match (role, name) {
        ("", name) => EvidencePart::coded(format!("\"{name}\" is shown"), said("text")),
        (role, "") => EvidencePart::words(format!("{role} is shown")),
        (role, name) => EvidencePart::coded(format!("{role} \"{name}\" is shown"), said(role)),
    }
}

/// Evidence found for `text` by its identifying part or its state: said so in the words.
fn shown_for(found: EvidencePart, text: &str) -> EvidencePart {
    EvidencePart { text: format!("{} (for \"{text}\")", found.text), said: found.said }
}

/// The words of an expected phrase that identify it (codes, numbers): "order SO-20436" is shown
/// when "SO-20436" is.
fn identifying(expected: &str) -> Option<String> {
    let found: Vec<String> = words(expected)
        .into_iter()
        .filter(|w| w.chars().any(|c| c.is_ascii_digit()) && w.chars().count() >= 3)
        .collect();
    (found.len() == 1 && words(expected).len() > 1).then(|| found.into_iter().next().unwrap_or_default())
}

/// The state an expected phrase states of its subject, when it is one ("the order has been
/// shipped" → ("order", "shipped"), "the invoice is paid"): the subject and the state's word.
/// A negated one ("has not been shipped") is none: its absence proves nothing.
pub(crate) fn state_of(expected: &str) -> Option<(String, String)> {
    static STATE: std::sync::OnceLock<regex::Regex> = std::sync::OnceLock::new();
    let state = STATE.get_or_init(|| {
        regex::Regex::new(
            r"^(?:(?:the|a|an|this|that|my|your|our)\s+)?([a-z][a-z0-9 -]{0,40}?)\s+(?:has been|have been|is now|are now|is|are|was|were)\s+([a-z]{3,20})$",
        )
        .expect("a valid pattern")
    });
    let folded = fold(expected);
    let found = state.captures(folded.trim())?;
    let (subject, word) = (found[1].to_owned(), found[2].to_owned());
    (!["not", "no", "never"].contains(&word.as_str()) && !subject.split(' ').any(|w| w == "not"))
        .then_some((subject, word))
}

/// Where a state is shown: exactly one element that is not a control reads the state's word
/// alone (a status cell "Shipped") or after a status label ("Status: Shipped"), and the page
/// names the subject. A filter button "Shipped", or two rows of which one is shipped, is not it.
async fn state_shown(
    session: &dyn PageDriver,
    subject: &str,
    word: &str,
) -> Result<Option<EvidencePart>, BrowserError> {
    let page = fold(&session.frame_texts().await?.into_iter().map(|f| f.text).collect::<Vec<_>>().join("\n"));
    if !words(subject).iter().all(|w| page.contains(crate::text::stem(w))) {
        return Ok(None);
    }
    // As pages write it: "shipped", "Shipped", "SHIPPED", alone or after a status label.
    let capital: String = word.chars().take(1).flat_map(char::to_uppercase).chain(word.chars().skip(1)).collect();
    let mut texts = Vec::new();
    for state in [word.to_owned(), capital, word.to_uppercase()] {
        texts.extend(["Status: ", "Status "].map(|label| format!("{label}{state}")));
        texts.push(state);
    }
    let mut shown: Vec<(i64, String)> = Vec::new();
    for text in texts {
        for candidate in session.resolve(&Locator::Text { text: text.clone(), exact: true }).await? {
            if !planwright_browser::is_interactive(&candidate.role)
                && !shown.iter().any(|(id, _)| *id == candidate.backend_node_id)
                && session.is_visible(&candidate).await?
            {
                shown.push((candidate.backend_node_id, text.clone()));
            }
        }
    }
    Ok(match shown.as_slice() {
        [(_, one)] => Some(shown_part("", &cut(one, 80))),
        _ => None,
    })
}

/// Checks that every expected text is shown (or, negated, that none is), waiting for a page
/// still rendering. The evidence, or why the check fails.
pub async fn verify(
    session: &dyn PageDriver,
    expected: &[String],
    negated: bool,
    role: Option<&str>,
    patience: Patience,
) -> Result<Result<Vec<EvidencePart>, String>, BrowserError> {
    if expected.is_empty() && role != Some("table") {
        return Ok(Err("the step does not say what to look for on the page".into()));
    }
    let started = Instant::now();
    let mut backoff = Backoff::new();
    loop {
        let mut evidence = Vec::new();
        let mut missing = Vec::new();
        for text in expected {
            let found = match shown(session, text, role).await? {
                Some(found) => Some(found),
                None => match (identifying(text), state_of(text)) {
                    (Some(code), _) => shown(session, &code, None).await?.map(|f| shown_for(f, text)),
                    (None, Some((subject, word))) if !negated => {
                        state_shown(session, &subject, &word).await?.map(|f| shown_for(f, text))
                    }
                    (None, _) => None,
                },
            };
            match found {
                Some(found) => evidence.push(found),
                None => missing.push(text.clone()),
            }
        }
        if expected.is_empty() {
            match shown(session, "", role).await? {
                Some(found) => evidence.push(found),
                None => missing.push("a table".into()),
            }
        }
        let done = if negated { evidence.is_empty() } else { missing.is_empty() };
        if done {
            return Ok(Ok(if negated {
                let texts: Vec<String> = expected.iter().map(|e| format!("\"{e}\"")).collect();
                vec![EvidencePart::coded(
                    format!("{} not shown on the page", texts.join(" and ")),
                    vec![RunMessage::ProofNotShown { texts: texts.join(", ") }],
                )]
            } else {
                evidence
            }));
        }
        let waited = started.elapsed();
        if waited_enough(session, waited, patience).await? {
            return Ok(Err(if negated {
                format!(
                    "{} is shown on the page, which the check says it should not be",
                    EvidencePart::joined(&evidence)
                )
            } else {
                let headings = headings(session).await.unwrap_or_default();
                format!(
                    "{} not on the page after {:.1} s{}",
                    missing.iter().map(|m| format!("\"{m}\"")).collect::<Vec<_>>().join(" and "),
                    waited.as_secs_f64(),
                    if headings.is_empty() { String::new() } else { format!("; the page's headings are {headings}") }
                )
            }));
        }
        backoff.pause(started + patience.bound).await;
    }
}

/// The page's headings, for a failure note.
async fn headings(session: &dyn PageDriver) -> Result<String, BrowserError> {
    let found = session.resolve(&Locator::Role { role: "heading".into(), name: None, exact: false }).await?;
    Ok(found.iter().take(4).map(|h| format!("\"{}\"", cut(&h.name, 60))).collect::<Vec<_>>().join(", "))
}

/// The value the page shows for `label` in its text: the rest of the line that starts with it
/// (`Order total  $127.40`, a table row), else the next line (`<dt>`/`<dd>`, a label above its
/// value). Lines that are the label alone or start with it win over lines that mention it.
pub fn labelled_value(text: &str, label: &str) -> Option<String> {
    let lines: Vec<&str> = text.lines().map(str::trim).filter(|l| !l.is_empty()).collect();
    let wanted = fold(label.trim_end_matches([':', '：']));
    if wanted.is_empty() {
        return None;
    }
    let mut best: Option<(u8, String)> = None;
    for (i, line) in lines.iter().enumerate() {
        let folded = fold(line);
        let head = folded.trim_end_matches([':', '：']).trim();
        let (rank, value) = if head == wanted {
            (0, lines.get(i + 1).map(|next| (*next).to_owned()))
        } else if let Some(rest) = folded.strip_prefix(&wanted).filter(|r| r.starts_with([' ', '\t', ':', '：'])) {
            let offset = line.len() - rest.len().min(line.len());
            let value = line.get(offset..).unwrap_or(rest).trim_start_matches([':', '：', ' ', '\t']).trim();
            (1, Some(value.to_owned()).filter(|v| !v.is_empty()))
        } else if contains_folded(&folded, &wanted) {
            (2, lines.get(i + 1).map(|next| (*next).to_owned()))
        } else {
            continue;
        };
        if let Some(value) = value {
            if best.as_ref().is_none_or(|(r, _)| rank < *r) {
                best = Some((rank, value));
            }
        }
    }
    best.map(|(_, value)| value)
}

/// Reads the value shown for `label`, waiting for a page still rendering.
pub async fn note(
    session: &dyn PageDriver,
    label: &str,
    patience: Patience,
) -> Result<Result<String, String>, BrowserError> {
    let started = Instant::now();
    let mut backoff = Backoff::new();
    loop {
        let page = PageText::capture(session).await?;
        if let Some(value) = labelled_value(&page.text, label) {
            return Ok(Ok(value));
        }
        let waited = started.elapsed();
        if waited_enough(session, waited, patience).await? {
            return Ok(Err(format!("no \"{label}\" with a value next to it on the page")));
        }
        backoff.pause(started + patience.bound).await;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_phrase_that_states_a_state_names_its_subject_and_the_state() {
        let cases = [
            ("the order has been shipped", Some(("order", "shipped"))),
            ("The invoice is paid", Some(("invoice", "paid"))),
            ("my request was approved", Some(("request", "approved"))),
            ("the order has not been shipped", None),
            ("the order is not shipped", None),
            ("Welcome back", None),
            ("order SO-20436 is in the list", None),
        ];
        for (phrase, expected) in cases {
            let got = state_of(phrase);
            assert_eq!(got.as_ref().map(|(s, w)| (s.as_str(), w.as_str())), expected, "{phrase}");
        }
    }

    #[test]
    fn a_labelled_value_is_read_from_its_line_or_the_next() {
        let text = "Order SO-20417\nThe order total includes tax.\nOrder total\t$127.40\nBalance due\n$27.40\n";
        assert_eq!(labelled_value(text, "order total").as_deref(), Some("$127.40"));
        assert_eq!(labelled_value(text, "Balance due").as_deref(), Some("$27.40"));
        let japanese = "お知らせ\n休業期間\n2026年12月29日（火）〜2027年1月4日（月）\n";
        assert_eq!(labelled_value(japanese, "休業期間").as_deref(), Some("2026年12月29日（火）〜2027年1月4日（月）"));
        assert_eq!(labelled_value("Total: 3 items", "total").as_deref(), Some("3 items"));
        assert_eq!(labelled_value(text, "shipping"), None);
    }

    #[test]
    fn new_lines_are_what_the_page_did_not_show_before() {
        let before = PageText { url: "u".into(), text: "Orders\nFind orders".into() };
        let after = PageText { url: "u".into(), text: "Orders\nFind orders\nSO-20436 Tailspin Toys\n3 orders".into() };
        assert_eq!(after.new_lines(&before), ["SO-20436 Tailspin Toys", "3 orders"]);
        assert_eq!(quote_lines(&after.new_lines(&before)), "\"SO-20436 Tailspin Toys\" / \"3 orders\"");
    }

    #[test]
    fn codes_identify_what_a_check_names_loosely() {
        assert_eq!(identifying("order SO-20436").as_deref(), Some("so-20436"));
        assert_eq!(identifying("Welcome back"), None);
        assert_eq!(identifying("SO-20436"), None, "the code alone is the phrase itself");
    }
}
