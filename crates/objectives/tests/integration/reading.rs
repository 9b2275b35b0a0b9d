//! Ordinary steps read generally (issue 26, section 2), on real Chromium: each step read into
//! intents, each intent resolved against the page as it is then (a fresh snapshot, as the
//! runner takes one), its operations carried out by the driver — and what the page's server
//! recorded is what the step asked for. The pages are `assets/sites/reading/`.

use planwright_browser::{ActOptions, BrowserSession, LaunchOptions, SnapshotMode, SnapshotOptions};
use planwright_objectives::intent::parse_step;
use planwright_objectives::page::Page;
use planwright_objectives::resolve::{resolve, Op};
use planwright_sites::FixtureSites;
use serde_json::{json, Value};

async fn open(sites: &FixtureSites, page: &str) -> BrowserSession {
    let session = BrowserSession::launch(LaunchOptions::default()).await.expect("Chromium launches");
    session.navigate(&sites.url(&format!("reading/{page}?instant=1")), &ActOptions::default()).await.unwrap();
    session
}

/// Carries `step` out as the runner's offline path does: intent by intent, each resolved on a
/// snapshot taken just before it. The operations, described.
async fn carry_out(session: &BrowserSession, step: &str) -> Vec<String> {
    let mut done = Vec::new();
    for intent in parse_step(step) {
        let options = SnapshotOptions { mode: SnapshotMode::Interactive, scope: None, token_budget: Some(6_000) };
        let snapshot = session.snapshot(&options).await.unwrap().text;
        let page = Page::parse(&session.url().await.unwrap(), &snapshot);
        let ops = resolve(session, &page, &intent)
            .await
            .unwrap_or_else(|e| panic!("{step}: {} not resolved: {}\n{snapshot}", intent.describe(), e.reason));
        for op in ops {
            act(session, &op).await.unwrap_or_else(|e| panic!("{step}: {} failed: {e}", op.describe()));
            done.push(op.describe());
        }
    }
    done
}

/// Why the step's one intent is not resolved on the page as it is (it must not be).
async fn unresolved(session: &BrowserSession, step: &str) -> String {
    let intents = parse_step(step);
    let options = SnapshotOptions { mode: SnapshotMode::Interactive, scope: None, token_budget: Some(6_000) };
    let snapshot = session.snapshot(&options).await.unwrap().text;
    let page = Page::parse(&session.url().await.unwrap(), &snapshot);
    match resolve(session, &page, &intents[0]).await {
        Ok(ops) => panic!("{step}: resolved to {:?}", ops.iter().map(Op::describe).collect::<Vec<_>>()),
        Err(unresolved) => unresolved.reason,
    }
}

async fn act(session: &BrowserSession, op: &Op) -> Result<(), planwright_browser::BrowserError> {
    let options = ActOptions::default();
    match op {
        Op::Click { locator, .. } => session.click(locator, &options).await,
        Op::Fill { locator, value } => session.fill(locator, &value.value, &options).await,
        Op::Select { locator, option } => session.select_option(locator, std::slice::from_ref(option), &options).await,
        Op::Check { locator, on } => session.set_checked(locator, *on, &options).await,
        Op::Press { locator, key } => session.press(locator.as_ref(), key, &options).await,
        Op::Hover { locator } => session.hover(locator, &options).await,
        other => panic!("the reading pages need no {}", other.describe()),
    }
    .map(|_| ())
}

/// The details of `action`'s events, once there are `count` of them (each page records with a
/// request that may still be on its way when the click that sent it returns), or after 5 s.
async fn recorded(sites: &FixtureSites, action: &str, count: usize) -> Vec<Value> {
    for _ in 0..100 {
        if sites.events(action).len() >= count {
            break;
        }
        tokio::time::sleep(std::time::Duration::from_millis(50)).await;
    }
    sites.events(action).into_iter().map(|e| e["detail"].clone()).collect()
}

#[tokio::test]
async fn values_without_quotes_are_what_the_fields_label_does_not_say() {
    let sites = FixtureSites::start().await.unwrap();
    let cases = [
        ("lookup.html", "Look up order 1042", json!({"order": "1042"})),
        ("denpyo.html", "伝票番号 5531 を検索する", json!({"denpyo": "5531"})),
        ("shop.html", "Search for red widgets under 20 euros", json!({"q": "red widgets", "max": "20"})),
    ];
    for (page, step, expected) in cases {
        sites.reset();
        let session = open(&sites, page).await;
        let done = carry_out(&session, step).await;
        let action = if page == "shop.html" { "search" } else { "lookup" };
        assert_eq!(recorded(&sites, action, 1).await, [expected], "{step}: {done:?}");
        session.close().await;
    }
}

#[tokio::test]
async fn controls_named_by_what_they_do_and_rows_chosen_by_their_contents() {
    let sites = FixtureSites::start().await.unwrap();
    let session = open(&sites, "claims.html").await;
    for step in ["Approve the expense claim of Sato", "Approve the claim of Ito for 12,400", "山田さんの申請を承認する"]
    {
        carry_out(&session, step).await;
    }
    // A row the step names by a number no row shows is not on the page (another page of the
    // table): never the row that matches the step's other words.
    let reason = unresolved(&session, "Approve the claim of Sato for 99,999").await;
    assert!(reason.contains("99,999"), "{reason}");
    assert_eq!(
        recorded(&sites, "approve", 3).await,
        [json!({"who": "Sato", "amount": "12,400"}), json!({"who": "Ito", "amount": "12,400"}), json!({"who": "山田"})]
    );
    session.close().await;

    sites.reset();
    let session = open(&sites, "contact-ja.html").await;
    for step in [
        "「メールアドレス」に taro@example.com を入力する",
        "氏名欄へ『山田太郎』を入力する",
        "ニュースレター と 利用規約 にチェックを入れる",
        "問い合わせを送信する",
    ] {
        carry_out(&session, step).await;
    }
    assert_eq!(
        recorded(&sites, "contact", 1).await,
        [json!({"mail": "taro@example.com", "name": "山田太郎", "news": true, "terms": true, "ads": false})]
    );
    session.close().await;
}

#[tokio::test]
async fn generic_references_ordinals_and_fields_named_by_their_markup() {
    let sites = FixtureSites::start().await.unwrap();
    let session = open(&sites, "kinds.html").await;
    for step in ["Type hello into the text field", "Check the checkbox", "Click the button"] {
        carry_out(&session, step).await;
    }
    assert_eq!(recorded(&sites, "sent", 1).await, [json!({"text": "hello", "checked": true})]);
    session.close().await;

    let session = open(&sites, "unlabelled.html").await;
    for step in [
        "Enter the username ada and the password s3cret into the text fields",
        "Type 42 into the 3rd input textbox",
        "Focus into the 4th textbox",
        "Click the button",
    ] {
        carry_out(&session, step).await;
    }
    assert_eq!(
        recorded(&sites, "signin", 1).await,
        [json!({"username": "ada", "password_length": 6, "code": "42", "note": ""})]
    );
    session.close().await;

    // A date relative to the run's day, in the form a date input takes; a text area; the
    // option of the one list that holds it, chosen through the list.
    let session = open(&sites, "delivery.html").await;
    for step in [
        "Enter next Friday in the Delivery date field",
        "Type ring twice into a textarea",
        "Set the pickup day to tomorrow",
        "Select Nigeria from the list",
        "Click Save",
    ] {
        carry_out(&session, step).await;
    }
    // The run's day as the resolver reads it; a field's placeholder says its form.
    let today = planwright_objectives::values::today();
    let friday = planwright_objectives::values::date_in("next Friday", today).unwrap();
    let tomorrow = today.next_day().unwrap();
    let (month, day) = (u8::from(tomorrow.month()), tomorrow.day());
    assert_eq!(
        recorded(&sites, "delivery", 1).await,
        [json!({
            "when": format!("{}-{:02}-{:02}", friday.year(), u8::from(friday.month()), friday.day()),
            "pickup": format!("{day:02}/{month:02}/{}", tomorrow.year()),
            "note": "ring twice",
            "country": "Nigeria"
        })]
    );
    session.close().await;

    // Several values in one step, each after the words that name its field, then the control.
    let session = open(&sites, "pay.html").await;
    carry_out(
        &session,
        "Pay the renewal with the card 4242 4242 4242 4242, expiry 12/29, CVC 314, name on card Lena Fischer",
    )
    .await;
    assert_eq!(
        recorded(&sites, "payment", 1).await,
        [json!({"card_last4": "4242", "expiry": "12/29", "cvc_length": 3, "name": "Lena Fischer"})]
    );
    session.close().await;

    // "The x" of a dialog is its close button; the 9th result is the 9th link of the content,
    // not of the site's navigation; 「2番目の結果」 the second.
    let session = open(&sites, "results.html").await;
    for step in ["Click the x", "Click the 9th search result", "2番目の結果を開く"] {
        carry_out(&session, step).await;
    }
    assert_eq!(recorded(&sites, "closed", 1).await.len(), 1);
    assert_eq!(recorded(&sites, "opened", 2).await, [json!({"result": 9}), json!({"result": 2})]);
    session.close().await;
}

#[tokio::test]
async fn compound_and_list_steps_are_done_in_order_within_one_step() {
    let sites = FixtureSites::start().await.unwrap();
    let session = open(&sites, "pick.html").await;
    let done = carry_out(&session, "Select C0ZWRz, vrD and YT0peP and click Submit").await;
    assert_eq!(done.len(), 4, "three checkboxes, then the button: {done:?}");
    assert_eq!(recorded(&sites, "picked", 1).await, [json!({"checked": ["C0ZWRz", "vrD", "YT0peP"]})]);
    session.close().await;

    let session = open(&sites, "menu.html").await;
    carry_out(&session, "Select Jinny>Lynett").await;
    assert_eq!(recorded(&sites, "menu", 1).await, [json!({"path": "Jinny>Lynett"})]);
    session.close().await;

    // A menu that opens only under the pointer, on the way to its item.
    let session = open(&sites, "hover-menu.html").await;
    carry_out(&session, "Open Aged receivables from the Reports menu").await;
    carry_out(&session, "マスタ管理メニューから取引先を開く").await;
    assert_eq!(recorded(&sites, "opened", 2).await, [json!({"item": "aged_receivables"}), json!({"item": "partners"})]);
    session.close().await;

    // A section by kind; a heading that opens one, clicked by its text as no control bears it.
    let session = open(&sites, "section.html").await;
    carry_out(&session, "Expand the section below and click Submit").await;
    carry_out(&session, "Expand the Invoice emails section").await;
    assert_eq!(recorded(&sites, "submitted", 1).await.len(), 1);
    assert_eq!(recorded(&sites, "expanded", 1).await, [json!({"section": "invoice emails"})]);
    session.close().await;
}
