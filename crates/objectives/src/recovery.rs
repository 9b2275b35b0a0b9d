//! What gets in the way — a cookie banner, an ad, a session warning, any modal dialog the
//! objective is not about — and how to get it out of the way with the choice that keeps the
//! person's session and privacy: reject optional cookies, stay signed in, close the ad.

use planwright_browser::Locator;

use crate::intent::{Action, Intent};
use crate::page::{Node, Page};
use crate::text::{contains_folded, contains_phrase, fold};

/// Something on the page that blocks the objective.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Blocker {
    /// Its node in the page.
    pub node: usize,
    /// `dialog "We value your privacy"`, as the record says it.
    pub described: String,
    /// Its role and name (`dialog`, `We value your privacy`), for the studio's language.
    pub role: String,
    pub name: String,
}

/// Words naming a consent banner that carries no dialog role.
const CONSENT_WORDS: &[&str] = &["cookie", "cookies", "consent", "privacy", "クッキー", "cookie設定", "同意"];

/// Whether a dialog or region's name says it asks for consent (cookies, privacy).
pub fn is_consent(name: &str) -> bool {
    CONSENT_WORDS.iter().any(|w| fold(name).contains(w))
}

/// The dialogs (and consent banners) on the page that the objective's intents are not about.
pub fn blockers(page: &Page, intents: &[Intent]) -> Vec<Blocker> {
    let mut found = Vec::new();
    for (i, node) in page.nodes.iter().enumerate() {
        let dialog = matches!(node.role.as_str(), "dialog" | "alertdialog");
        let banner = !dialog
            && matches!(node.role.as_str(), "region" | "complementary" | "contentinfo" | "group" | "banner" | "form")
            && is_consent(&node.name)
            && page.nodes.iter().enumerate().any(|(j, n)| n.role == "button" && page.is_inside(j, i));
        if !(dialog || banner) || found.iter().any(|b: &Blocker| page.is_inside(i, b.node)) {
            continue;
        }
        if intents.iter().any(|intent| is_about(page, i, intent)) {
            continue;
        }
        let described =
            if node.name.is_empty() { node.role.clone() } else { format!("{} \"{}\"", node.role, node.name) };
        found.push(Blocker { node: i, described, role: node.role.clone(), name: node.name.clone() });
    }
    found
}

/// Whether the intent acts on (or checks) something inside the dialog: then the dialog is the
/// objective's own ("press OK in the confirmation dialog"), not in its way.
fn is_about(page: &Page, dialog: usize, intent: &Intent) -> bool {
    // An empty name is in no text (`contains_folded` finds no empty phrase).
    let dialog_name = fold(&page.nodes[dialog].name);
    let says_dialog = intent.context.iter().chain(std::iter::once(&intent.phrase)).any(|c| {
        let c = fold(c);
        ["dialog", "ダイアログ", "popup", "pop-up", "modal", "ポップアップ", "banner"].iter().any(|d| c.contains(d))
            || contains_folded(&c, &dialog_name)
    });
    if says_dialog {
        return true;
    }
    if let Action::Verify { expected, .. } = &intent.action {
        return expected.iter().any(|e| contains_folded(&dialog_name, &fold(e)));
    }
    // A name (quoted, or the step's words) that only the dialog has.
    let wanted = if intent.names.is_empty() { std::slice::from_ref(&intent.phrase) } else { intent.names.as_slice() };
    wanted.iter().filter(|n| !n.is_empty()).any(|name| {
        let name = fold(name);
        let inside = page.nodes.iter().enumerate().any(|(j, n)| page.is_inside(j, dialog) && fold(&n.name) == name);
        let outside = page
            .nodes
            .iter()
            .enumerate()
            .any(|(j, n)| !page.is_inside(j, dialog) && j != dialog && fold(&n.name) == name);
        inside && !outside
    })
}

/// How a choice keeps the person's session and privacy, best first. Choices never made to get
/// something out of the way (signing out, buying, subscribing) are not listed.
const CHOICES: &[(&[&str], &str)] = &[
    (
        &[
            "reject non-essential",
            "reject all",
            "reject optional",
            "necessary only",
            "only necessary",
            "essential only",
            "only essential",
            "reject",
            "decline",
            "deny",
            "refuse",
            "必要なもののみ",
            "必須のみ",
            "拒否",
            "同意しない",
        ],
        "declines optional cookies, keeping the person's privacy",
    ),
    (
        &[
            "stay signed in",
            "keep me signed in",
            "stay logged in",
            "continue session",
            "extend session",
            "extend",
            "延長",
            "ログインを続ける",
            "継続",
        ],
        "keeps the person's session",
    ),
    (
        &[
            "close",
            "×",
            "✕",
            "x",
            "dismiss",
            "no thanks",
            "no, thanks",
            "not now",
            "maybe later",
            "later",
            "skip",
            "閉じる",
            "今はしない",
            "あとで",
            "後で",
            "いいえ",
        ],
        "closes it without taking up its offer",
    ),
    (
        &[
            "ok",
            "got it",
            "okay",
            "understood",
            "了解",
            "確認",
            "accept all",
            "accept",
            "agree",
            "allow all",
            "allow",
            "同意する",
            "同意",
        ],
        "acknowledges it",
    ),
];

/// Words of buttons that are never pressed to get something out of the way.
const NEVER: &[&str] =
    &["sign out", "log out", "logout", "ログアウト", "buy", "subscribe", "get the offer", "購入", "申し込"];

/// The button (or link) in `container` to press to get it out of the way, and why it was chosen.
pub fn dismiss_button(page: &Page, container: usize) -> Option<(usize, &'static str)> {
    let buttons: Vec<(usize, &Node)> = page
        .nodes
        .iter()
        .enumerate()
        .filter(|(j, n)| matches!(n.role.as_str(), "button" | "link") && page.is_inside(*j, container))
        .collect();
    for (words, why) in CHOICES {
        for word in *words {
            let hit = buttons.iter().find(|(_, n)| {
                let name = fold(&n.name);
                let never = NEVER.iter().any(|w| name.contains(w));
                !never
                    && (name == *word
                        || (!word.is_ascii() && name.contains(word))
                        || (word.len() > 2 && contains_phrase(&name, word)))
            });
            if let Some((j, _)) = hit {
                return Some((*j, why));
            }
        }
    }
    None
}

/// A locator for a node inside a container: by role and exact name when that name is unique on
/// the page, else its ref.
pub fn locator_in(page: &Page, i: usize) -> Locator {
    let node = &page.nodes[i];
    if !node.name.is_empty() && page.named(&node.role, &node.name) == 1 {
        crate::resolve::locator_of(node)
    } else {
        Locator::Ref { reference: node.reference.clone().unwrap_or_default() }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::intent::parse_step;

    const COOKIES: &str = r#"- main:
  - heading "Statements"
  - link "Download" [ref=e10]
- dialog "We value your privacy":
  - link "Read our cookie policy" [ref=e17]
  - button "Reject non-essential" [ref=e18]
  - button "Accept all" [ref=e19]
"#;

    #[test]
    fn a_cookie_dialog_is_in_the_way_and_optional_cookies_are_declined() {
        let page = Page::parse("u", COOKIES);
        let found = blockers(&page, &parse_step("Download the October statement"));
        assert_eq!(found.len(), 1);
        assert_eq!(found[0].described, "dialog \"We value your privacy\"");
        let (button, why) = dismiss_button(&page, found[0].node).unwrap();
        assert_eq!(page.nodes[button].name, "Reject non-essential");
        assert!(why.contains("privacy"));
    }

    #[test]
    fn a_session_warning_keeps_the_session_and_an_ad_is_closed_never_bought() {
        let session = Page::parse(
            "u",
            "- alertdialog \"セッションの有効期限が近づいています\":\n  - button \"ログアウト\" [ref=e1]\n  - button \"延長する\" [ref=e2]\n",
        );
        let (button, _) = dismiss_button(&session, 0).unwrap();
        assert_eq!(session.nodes[button].name, "延長する");
        let ad = Page::parse(
            "u",
            "- dialog \"Special offer: 50% off\":\n  - button \"Get the offer\" [ref=e1]\n  - button \"No thanks\" [ref=e2]\n  - button \"Close\" [ref=e3]\n",
        );
        let (button, _) = dismiss_button(&ad, 0).unwrap();
        assert_eq!(ad.nodes[button].name, "Close");
        let only_buy = Page::parse("u", "- dialog \"Offer\":\n  - button \"Buy now\" [ref=e1]\n");
        assert_eq!(dismiss_button(&only_buy, 0), None);
    }

    #[test]
    fn a_dialog_the_objective_is_about_is_not_in_its_way() {
        let page = Page::parse("u", "- main:\n  - button \"申請する\" [ref=e1]\n- dialog \"申請の確認\":\n  - button \"OK\" [ref=e2]\n  - button \"キャンセル\" [ref=e3]\n");
        assert!(blockers(&page, &parse_step("「申請する」を押し、確認ダイアログで「OK」を押す")).is_empty());
        assert!(blockers(&page, &parse_step("Press OK")).is_empty(), "OK is only in the dialog");
        assert_eq!(blockers(&page, &parse_step("「申請する」を押す")).len(), 1);
    }
}
