//! Which actions change the world, and what a page's answer to one says: an action is
//! classified before it is taken ([`classify`]) — a click that sends, pays, approves, deletes,
//! saves, orders or confirms (or downloads) is *effectful*, typing, opening and scrolling are
//! *safe* — and one that started a request other than GET is effectful whatever its name. An
//! effectful action is done once: the runner never repeats it on its own (`runner`'s ledger).
//! A page's error ([`page_error`]) is never evidence of success.

use std::collections::{BTreeMap, BTreeSet};
use std::sync::OnceLock;

use planwright_browser::RequestRecord;
use regex::Regex;

use crate::text::{fold, words};

/// What an action may do to the world, decided before it is taken.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Effect {
    /// Focus, typing, opening a menu or a tab, scrolling, following a link to a page.
    Safe,
    /// It may change something outside the page; `why` says what gave it away.
    Effectful { why: String },
}

impl Effect {
    pub fn is_effectful(&self) -> bool {
        matches!(self, Effect::Effectful { .. })
    }
}

/// English words (folded, as whole words or with an ending: "sends", "saved") of a control that
/// changes the world.
const EFFECT_WORDS: &[&str] = &[
    "send", "submit", "pay", "approve", "reject", "decline", "delete", "remove", "save", "order", "confirm", "book",
    "buy", "purchase", "checkout", "transfer", "publish", "post", "register", "upload", "download", "sign", "place",
    "refund", "archive", "execute", "run", "update", "create", "add",
];

/// Japanese stems of the same, found anywhere in a name.
const EFFECT_STEMS_JA: &[&str] = &[
    "送信",
    "支払",
    "支払い",
    "払う",
    "承認",
    "却下",
    "削除",
    "保存",
    "確定",
    "登録",
    "申請",
    "注文",
    "購入",
    "予約",
    "送金",
    "決済",
    "申込",
    "申し込",
    "更新",
    "実行",
    "作成",
    "追加",
    "取消",
    "取り消",
    "ダウンロード",
    "アップロード",
    "発行",
    "提出",
    "依頼",
];

/// Names that say nothing of what they do ("OK", "Yes", "Continue"): their surroundings do.
const GENERIC_NAMES: &[&str] = &[
    "ok",
    "okay",
    "yes",
    "continue",
    "next",
    "done",
    "go",
    "proceed",
    "apply",
    "はい",
    "次へ",
    "続ける",
    "決定",
    "完了",
];

/// First words of a name that reads or shows rather than changes ("Find orders", "View order").
const READING_VERBS: &[&str] = &[
    "find",
    "search",
    "look",
    "view",
    "show",
    "open",
    "filter",
    "load",
    "list",
    "browse",
    "expand",
    "collapse",
    "preview",
    "print",
    "sort",
    "go",
    "see",
    "check",
    "検索",
    "表示",
    "開く",
    "絞り込み",
    "絞込",
];

/// English endings a word of [`EFFECT_WORDS`] may carry and still be that word.
const ENDINGS: &[&str] = &["", "s", "es", "ed", "d", "ing"];

/// Whether `text` has a word or a stem of a world-changing action; the one it has.
fn effect_word(text: &str) -> Option<String> {
    let folded = fold(text);
    if let Some(stem) = EFFECT_STEMS_JA.iter().find(|stem| folded.contains(*stem)) {
        return Some((*stem).to_owned());
    }
    words(&folded).into_iter().find(|word| {
        EFFECT_WORDS.iter().any(|effect| {
            ENDINGS.iter().any(|ending| {
                word.strip_prefix(effect).is_some_and(|rest| rest == *ending)
                    || (effect.ends_with('e') && word.strip_prefix(&effect[..effect.len() - 1]) == Some("ing"))
            })
        })
    })
}

/// Classifies a click or a key press on an element of `role` named `name` in `surroundings`
/// (the text around it), before it is taken. A link is safe (it opens a page) unless it
/// downloads; a control whose name says what it does is judged by its name, a generic one
/// ("OK", "Continue") by its surroundings.
pub fn classify(role: &str, name: &str, surroundings: &str, downloads: bool) -> Effect {
    if downloads {
        return Effect::Effectful { why: "it downloads a file".into() };
    }
    if matches!(
        role,
        "link"
            | "tab"
            | "menuitem"
            | "treeitem"
            | "option"
            | "checkbox"
            | "radio"
            | "switch"
            | "textbox"
            | "combobox"
            | "searchbox"
            | "spinbutton"
            | "slider"
    ) {
        return Effect::Safe;
    }
    let reads = words(name).first().is_some_and(|first| READING_VERBS.contains(&first.as_str()));
    if let Some(word) = effect_word(name).filter(|_| !reads) {
        return Effect::Effectful { why: format!("its name says \"{word}\"") };
    }
    let generic = GENERIC_NAMES.contains(&fold(name).as_str());
    match effect_word(surroundings).filter(|_| generic || name.trim().is_empty()) {
        Some(word) => Effect::Effectful { why: format!("the words around it say \"{word}\"") },
        None => Effect::Safe,
    }
}

/// Classifies what an action started, after the fact: a request other than GET (a form post,
/// an API call that writes) makes it effectful, whatever the control was called.
pub fn classify_requests(requests: &[RequestRecord]) -> Effect {
    requests
        .iter()
        .find(|request| request.is_write())
        .map_or(Effect::Safe, |request| Effect::Effectful { why: format!("it started {}", said(request)) })
}

/// The requests an action started that matter to its effect — those that write, and those the
/// server refused — in words: `POST /api/contact → 200`.
pub fn requests_said(requests: &[RequestRecord]) -> String {
    let kept: Vec<String> = requests.iter().filter(|r| r.is_write() || r.refused()).take(4).map(said).collect();
    kept.join(", ")
}

/// Whether there was a request that writes, and every one was answered and none refused: the
/// server took what the action sent.
pub fn answered<'a>(requests: impl IntoIterator<Item = &'a RequestRecord>) -> bool {
    let mut writes = requests.into_iter().filter(|r| r.is_write()).peekable();
    writes.peek().is_some() && writes.all(|r| r.status.is_some() && !r.refused())
}

/// Whether a request the action started has no answer yet.
pub fn pending(requests: &[RequestRecord]) -> bool {
    requests.iter().any(|r| r.status.is_none() && r.error.is_none())
}

/// A request's address as the runner shows it: its path and query (`/api/answer?form=contact`).
pub fn path_and_query(url: &str) -> String {
    url::Url::parse(url)
        .map(|u| format!("{}{}", u.path(), u.query().map(|q| format!("?{q}")).unwrap_or_default()))
        .unwrap_or_else(|_| url.to_owned())
}

/// A request, in words.
fn said(request: &RequestRecord) -> String {
    let path = path_and_query(&request.url);
    match (request.status, &request.error) {
        (Some(status), _) => format!("{} {path} → {status}", request.method),
        (None, Some(error)) => format!("{} {path} failed ({error})", request.method),
        (None, None) => format!("{} {path}, not answered yet", request.method),
    }
}

fn error_patterns() -> &'static [Regex; 2] {
    static PATTERNS: OnceLock<[Regex; 2]> = OnceLock::new();
    PATTERNS.get_or_init(|| {
        [
            // English, folded text.
            Regex::new(
                r"\b(not found|no (results?|matches|matching \w+|records?|entries|items|data)\b|no \w+ (with|found|matches|matching|for) |(does not|doesn't|did not|didn't) (exist|match)|(could not|couldn't|cannot|can't|unable to) \w+|declined|denied|failed|failure|invalid|error\b|went wrong|try again|not (allowed|permitted|available)|is required|are required|please (enter|select|fill|choose|provide|correct)|must (be|contain|have|match))",
            )
            .unwrap_or_else(|e| unreachable!("the pattern is fixed: {e}")),
            Regex::new(r"(該当.{0,16}(ありません|ない|なし|見つかりません)|見つかりません|存在しません|エラー|失敗|できませんでした|無効です|拒否|誤りがあります|正しくありません|(入力|選択)して(ください|下さい)|必須です|(入力|選択)されていません)")
                .unwrap_or_else(|e| unreachable!("the pattern is fixed: {e}")),
        ]
    })
}

/// Whether a name says nothing of what its control does ("OK", "Continue"), so that the words
/// around it are read too.
pub fn is_generic(name: &str) -> bool {
    name.trim().is_empty() || GENERIC_NAMES.contains(&fold(name).as_str())
}

/// Whether a step says what should follow its action ("…to open the statement", "…and check
/// that…", 「…して確認する」): then the action needs evidence of it. A plain click, press or
/// choice does not: done on exactly the right element is done.
pub fn states_outcome(step: &str) -> bool {
    let folded = format!(" {} ", fold(step));
    [
        " to ",
        " so that ",
        " and check",
        " then check",
        " and verify",
        " and make sure",
        " should ",
        " until ",
        " and see",
        "ために",
        "確認",
        "表示され",
        "ことを",
        "を開",
        "へ移動",
        "に移動",
    ]
    .iter()
    .any(|said| folded.contains(said))
}

/// The effectful actions a run carried out, per objective, and what was seen of each. The
/// runner asks it before every action: an effectful action already done for an objective is
/// not done again on its own — only once more after an error that says a retry can help, or
/// when the person says so.
#[derive(Debug, Default)]
pub struct EffectLedger {
    done: BTreeMap<usize, Vec<EffectDone>>,
    /// Objectives whose effect may be done once more (the person's word, a retriable error).
    again: BTreeSet<usize>,
    /// Objectives already given their one retry after a visible error.
    retried: BTreeSet<usize>,
}

/// One effectful action carried out.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct EffectDone {
    /// The operation, as the record writes it (what a repeat is recognised by).
    pub action: String,
    /// Its target in the person's words (`the button "Send report"`).
    pub what: String,
    /// The requests it started (`POST /api/contact → 200`), in words.
    pub requests: String,
    /// What showed that it worked, once seen.
    pub seen: Option<String>,
}

impl EffectLedger {
    /// Why `action` is not carried out for `objective` now: it already was, and nothing allows
    /// it again.
    pub fn repeat_refusal(&self, objective: usize, action: &str) -> Option<String> {
        if self.again.contains(&objective) {
            return None;
        }
        let done = self.done.get(&objective)?.iter().rev().find(|d| d.action == action)?;
        Some(match &done.seen {
            Some(seen) => format!("{} was already done once in this run ({seen}); it is not done again", done.what),
            None => format!("{}; it is not done again on its own", done.unknown()),
        })
    }

    /// Notes an effectful action carried out for `objective` (using up a permission to repeat):
    /// the operation, its target in words, and the requests it started.
    pub fn record(&mut self, objective: usize, action: String, what: String, requests: String) {
        self.again.remove(&objective);
        self.done.entry(objective).or_default().push(EffectDone { action, what, requests, seen: None });
    }

    /// The effect of `objective`'s last effectful action was seen.
    pub fn seen(&mut self, objective: usize, evidence: &str) {
        if let Some(last) = self.done.get_mut(&objective).and_then(|d| d.last_mut()) {
            last.seen = Some(evidence.to_owned());
        }
    }

    /// What is known now of the requests of `objective`'s last effectful action (an answer that
    /// came after its report), in words.
    pub fn answered_since(&mut self, objective: usize, requests: String) {
        if let Some(last) = self.done.get_mut(&objective).and_then(|d| d.last_mut()) {
            last.requests = requests;
        }
    }

    /// Whether `action` is among the effectful actions `objective` carried out.
    pub fn has(&self, objective: usize, action: &str) -> bool {
        self.done.get(&objective).is_some_and(|d| d.iter().any(|e| e.action == action))
    }

    /// How many effectful actions `objective` carried out.
    pub fn count(&self, objective: usize) -> usize {
        self.done.get(&objective).map_or(0, Vec::len)
    }

    /// The last effectful action of `objective`, if any.
    pub fn last(&self, objective: usize) -> Option<&EffectDone> {
        self.done.get(&objective)?.last()
    }

    /// Whether `objective` carried out an effectful action whose effect was seen.
    pub fn seen_for(&self, objective: usize) -> bool {
        self.done.get(&objective).is_some_and(|d| d.iter().any(|e| e.seen.is_some()))
    }

    /// `objective`'s last effectful action never reached its target (a banner took the click):
    /// it is as if it had not been carried out.
    pub fn withdraw(&mut self, objective: usize) {
        if let Some(done) = self.done.get_mut(&objective) {
            done.pop();
        }
    }

    /// The person asked for `objective`'s effect again: allowed once.
    pub fn allow_again(&mut self, objective: usize) {
        self.again.insert(objective);
    }

    /// An effectful action of `objective` visibly failed with an error that says a retry may
    /// help: whether this is the first time (then it may be done once more).
    pub fn retry_after_error(&mut self, objective: usize) -> bool {
        let first = self.retried.insert(objective);
        if first {
            self.again.insert(objective);
        }
        first
    }
}

impl EffectDone {
    /// What is known of an effect not seen, for the person ("the button "Send" was pressed and
    /// may have taken effect (POST /api/contact → 200; nothing on the page confirmed it)").
    pub fn unknown(&self) -> String {
        let requests = if self.requests.is_empty() { "no request seen".to_owned() } else { self.requests.clone() };
        format!("{} was pressed and may have taken effect ({requests}; nothing on the page confirmed it)", self.what)
    }
}

/// Whether a text reads as a success ("Message sent", 「保存しました」, "Thank you"): an alert
/// that does not is taken for an error.
pub fn is_success_text(text: &str) -> bool {
    let folded = fold(text);
    [
        "sent",
        "saved",
        "success",
        "thank",
        "complete",
        "done",
        "confirmed",
        "approved",
        "submitted",
        "updated",
        "created",
        "added",
        "booked",
        "paid",
        "registered",
        "welcome",
        "placed",
        "requested",
        "scheduled",
        "accepted",
        "received",
        "ordered",
        "signed in",
        "logged in",
        "しました",
        "完了",
        "ありがとう",
        "受け付け",
        "受付",
    ]
    .iter()
    .any(|word| folded.contains(word))
        && !is_error_text(text)
}

/// Whether a text only says the page is busy ("Loading…", 「読み込み中」, "Sending…"): not what
/// an action brought about, which is what follows it.
pub fn is_loading_text(text: &str) -> bool {
    let folded = fold(text);
    folded.chars().count() <= 40
        && [
            "loading",
            "please wait",
            "sending",
            "saving",
            "processing",
            "読み込",
            "処理中",
            "お待ちください",
            "送信中",
            "保存中",
        ]
        .iter()
        .any(|busy| folded.contains(busy))
}

/// English verbs that ask for an effect when a step's clause starts with them ("Send the
/// message", "Pay the invoice").
const EFFECT_VERBS: &[&str] = &[
    "send", "pay", "approve", "reject", "delete", "remove", "save", "confirm", "book", "buy", "purchase", "order",
    "place", "publish", "register", "transfer", "upload",
];

/// What a step asks to bring about in the world, when it does ("send", 「送信」): an action step
/// that says so is not done until something effectful was carried out. Quoted words are names
/// and texts, not the step's verbs (「下書きを保存しました」と表示される).
pub fn asks_for_effect(step: &str) -> Option<String> {
    let step = crate::text::without_quotes(step, &crate::text::quoted(step), " ");
    static JAPANESE: OnceLock<Regex> = OnceLock::new();
    let japanese = JAPANESE.get_or_init(|| {
        Regex::new(r"(送信|支払|承認|却下|削除|保存|確定|決定|登録|申請|注文|購入|予約|送金|決済|申し込|申込|提出|依頼)(する|して|し[、,\s]|を行)|払う|払って")
            .unwrap_or_else(|e| unreachable!("the pattern is fixed: {e}"))
    });
    let folded = fold(&step);
    if let Some(found) = japanese.find(&folded) {
        return Some(found.as_str().to_owned());
    }
    folded
        .split([',', ';', '.', '、', '。'])
        .flat_map(|clause| clause.split(" and ").flat_map(|c| c.split(" then ")))
        .filter_map(|clause| {
            words(clause).into_iter().find(|w| !matches!(w.as_str(), "then" | "and" | "please" | "now"))
        })
        .find(|first| EFFECT_VERBS.contains(&first.as_str()))
}

/// Whether a text the page shows is an error ("No customer with that ID.", "Card declined.",
/// 「該当する伝票はありません。」), not a success.
pub fn is_error_text(text: &str) -> bool {
    let folded = fold(text);
    error_patterns().iter().any(|pattern| pattern.is_match(&folded))
}

/// Whether an error says that doing the same again may work ("try again", "temporarily"):
/// only then is an effectful action that visibly failed tried once more.
pub fn retry_may_help(error: &str) -> bool {
    let folded = fold(error);
    ["try again", "temporar", "timed out", "timeout", "busy", "later", "もう一度", "しばらく", "時間をおいて", "再度"]
        .iter()
        .any(|hint| folded.contains(hint))
        && !["another card", "another", "別の"].iter().any(|other| folded.contains(other))
}

/// Whether the steps (`expected`) check for an error message themselves: then the page's error
/// is their evidence, not a failure.
pub fn expects_error(expected: &str) -> bool {
    let expected = fold(expected);
    ["error", "invalid", "message", "warning", "validation", "エラー", "メッセージ", "警告"]
        .iter()
        .any(|word| expected.contains(word))
}

/// The first of `texts` that is an error the steps do not expect: a step that checks for an
/// error message (`expected`, the checklist's words) takes that message as its evidence instead.
pub fn page_error<'a>(texts: impl IntoIterator<Item = &'a str>, expected: &str) -> Option<String> {
    let about_errors = expects_error(expected);
    let expected = fold(expected);
    // A question ("この内容で申請しますか？申請後は変更できません。") is not an answer.
    let question = |text: &str| text.contains(['?', '？']);
    texts
        .into_iter()
        .map(str::trim)
        .find(|text| {
            let expected_here = about_errors || expected.contains(&fold(text));
            !text.is_empty() && !question(text) && !expected_here && is_error_text(text)
        })
        .map(str::to_owned)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn controls_that_change_the_world_are_effectful_and_the_rest_safe() {
        let table: &[(&str, &str, &str, bool, bool)] = &[
            ("button", "Send message", "", false, true),
            ("button", "Pay $27.40", "", false, true),
            ("button", "Approve", "Sato  Travel  ¥12,000", false, true),
            ("button", "Save settings", "", false, true),
            ("button", "Place order", "", false, true),
            ("button", "Confirm", "", false, true),
            ("button", "Delete invoice", "", false, true),
            ("button", "送信する", "", false, true),
            ("button", "支払う", "", false, true),
            ("button", "承認", "", false, true),
            ("button", "保存", "", false, true),
            ("button", "確定", "", false, true),
            ("button", "OK", "Delete this invoice?", false, true),
            ("button", "Search", "", false, false),
            ("button", "Find orders", "", false, false),
            ("button", "Next", "Page 2 of 3", false, false),
            ("button", "Show details", "", false, false),
            ("link", "Orders", "", false, false),
            ("link", "Download", "", true, true),
            ("checkbox", "Send me the newsletter", "", false, false),
            ("textbox", "Message", "", false, false),
            ("button", "検索", "", false, false),
        ];
        for (role, name, around, downloads, effectful) in table {
            assert_eq!(
                classify(role, name, around, *downloads).is_effectful(),
                *effectful,
                "{role} \"{name}\" in \"{around}\""
            );
        }
    }

    #[test]
    fn a_request_other_than_get_makes_an_action_effectful() {
        let request = |method: &str, url: &str, status: Option<u16>| RequestRecord {
            method: method.into(),
            url: url.into(),
            status,
            kind: planwright_browser::RequestKind::Fetch,
            error: None,
        };
        let search = request("GET", "http://127.0.0.1:9/api/orders?q=1", Some(200));
        assert_eq!(classify_requests(std::slice::from_ref(&search)), Effect::Safe);
        let sent = [search.clone(), request("POST", "http://127.0.0.1:9/api/contact", Some(200))];
        assert!(classify_requests(&sent).is_effectful());
        assert_eq!(requests_said(&sent), "POST /api/contact → 200");
        assert!(answered(&sent) && !pending(&sent));
        let declined = [request("POST", "http://127.0.0.1:9/api/pay", Some(402))];
        assert!(!answered(&declined));
        assert_eq!(requests_said(&declined), "POST /api/pay → 402");
        let slow = [request("POST", "http://127.0.0.1:9/api/order", None)];
        assert!(pending(&slow) && !answered(&slow));
        assert_eq!(requests_said(&slow), "POST /api/order, not answered yet");
    }

    #[test]
    fn a_page_error_is_not_success_unless_a_step_checks_for_it() {
        for error in [
            "No customer with that ID.",
            "Card declined. Try another card or contact your bank.",
            "No results for \"zzz\"",
            "Order not found",
            "該当する伝票はありません。",
            "エラーが発生しました",
            "入力内容に誤りがあります",
            "Something went wrong",
            "Card number is required",
            "カード情報を入力してください。",
        ] {
            assert!(is_error_text(error), "{error}");
            assert_eq!(page_error([error], "Find customer 88213").as_deref(), Some(error));
        }
        for fine in ["Message sent", "送信しました", "3 results", "Order SO-1042 found: Tailspin Toys", "Errors: none"]
        {
            assert!(!is_error_text(fine), "{fine}");
        }
        assert_eq!(page_error(["Email is invalid"], "Check that the error message is shown"), None);
        assert_eq!(page_error(["この内容で申請しますか？申請後は内容を変更できませんでした。"], "申請する"), None);
        assert_eq!(page_error(["Delete this invoice? This cannot be undone."], "Delete it"), None);
        assert_eq!(page_error(["Email is invalid"], "Submit, then check that \"Email is invalid\" shows"), None);
    }

    #[test]
    fn an_effect_is_done_once_unless_the_person_or_a_retriable_error_allows_it_again() {
        let mut ledger = EffectLedger::default();
        let send = "click button \"Send\"";
        assert_eq!(ledger.repeat_refusal(2, send), None);
        ledger.record(2, send.into(), "the button \"Send\"".into(), "POST /api/contact → 200".into());
        let refused = ledger.repeat_refusal(2, send).unwrap();
        assert!(
            refused.contains(
                "the button \"Send\" was pressed and may have taken effect (POST /api/contact → 200; nothing on the \
                 page confirmed it)"
            ),
            "{refused}"
        );
        assert_eq!(ledger.repeat_refusal(3, send), None, "another objective's own send");
        ledger.seen(2, "the page now shows \"Thank you\"");
        assert!(ledger.repeat_refusal(2, send).unwrap().contains("already done once"));
        assert!(ledger.seen_for(2));
        ledger.allow_again(2);
        assert_eq!(ledger.repeat_refusal(2, send), None);
        ledger.record(2, send.into(), String::new(), String::new());
        assert!(ledger.repeat_refusal(2, send).is_some(), "the permission is used up");
        assert!(ledger.retry_after_error(2));
        assert_eq!(ledger.repeat_refusal(2, send), None);
        ledger.record(2, send.into(), String::new(), String::new());
        assert!(!ledger.retry_after_error(2), "one retry after an error, not two");
        assert!(ledger.repeat_refusal(2, send).is_some());
    }

    #[test]
    fn a_step_that_asks_for_an_effect_says_so_by_its_verb_not_by_a_noun() {
        for (step, asked) in [
            ("Send the message", Some("send")),
            ("Fill in the form, then pay the invoice", Some("pay")),
            ("国・地域から日本を選んで送信する", Some("送信する")),
            ("口座番号を直して登録する", Some("登録する")),
            ("年会費を支払う", Some("払う")),
            ("「請求書を再発行したい」を開いて、再発行を依頼する", Some("依頼する")),
            ("リストから日本を選んで決定する", Some("決定する")),
            ("「下書きを保存しました」と表示されることを確認する", None),
            ("申請履歴から保存した「新宿→品川 往復」の下書きを開く", None),
            ("内容を送信し、完了を確認する", Some("送信し、")),
            ("Check that \"Send me a copy\" is ticked", None),
            ("Open the Orders page", None),
            ("Look up order 1042", None),
            ("Click the Save settings button", None),
            ("注文履歴を開く", None),
        ] {
            assert_eq!(asks_for_effect(step).as_deref(), asked, "{step}");
        }
    }

    #[test]
    fn a_success_reads_as_one_and_an_instruction_does_not() {
        for success in
            ["Message sent", "Your message has been sent, Ada.", "保存しました", "Thank you!", "申請を受け付けました"]
        {
            assert!(is_success_text(success), "{success}");
        }
        for other in
            ["Choose the trip the advance is for.", "Card declined. Try another card.", "金額を入力してください"]
        {
            assert!(!is_success_text(other), "{other}");
        }
    }

    #[test]
    fn busy_texts_are_not_effects() {
        assert!(
            is_loading_text("読み込み中…") && is_loading_text("Loading statements…") && is_loading_text("Sending…")
        );
        assert!(!is_loading_text("Message sent") && !is_loading_text("送信しました"));
    }

    #[test]
    fn a_step_that_says_what_should_follow_needs_evidence_of_it() {
        for plain in ["Click the button.", "Press ONE", "Select Nigeria from the list", "「送信」を押す"] {
            assert!(!states_outcome(plain), "{plain}");
        }
        for outcome in [
            "Click Statements to open the statement",
            "Click Save and check that it says Saved",
            "送信して完了画面を確認する",
        ] {
            assert!(states_outcome(outcome), "{outcome}");
        }
    }

    #[test]
    fn only_an_error_that_says_so_is_worth_a_second_try() {
        assert!(retry_may_help("The service is busy. Please try again."));
        assert!(retry_may_help("しばらくしてからもう一度お試しください"));
        assert!(!retry_may_help("Card declined. Try another card."));
        assert!(!retry_may_help("No customer with that ID."));
    }
}
