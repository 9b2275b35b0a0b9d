//! The credential finder on the ways people spell out logins, PINs and tokens, in English and
//! Japanese: every value leaves the text for a `{{NAME}}` placeholder, and the ordinary words
//! around credentials ("password reset page", "the PIN column", 「トークンの有効期限」) stay.

use planwright_design::redact_instruction;
use proptest::prelude::*;

/// A phrasing, the values that must leave it, and words of it that must stay.
struct Case {
    text: &'static str,
    gone: &'static [&'static str],
    kept: &'static [&'static str],
}

const fn case(text: &'static str, gone: &'static [&'static str], kept: &'static [&'static str]) -> Case {
    Case { text, gone, kept }
}

const CASES: &[Case] = &[
    // English
    case(
        "Open https://portal.example.com. The portal password for tk-suzuki is Hunter2! Download the statement.",
        &["Hunter2!", "tk-suzuki"],
        &["https://portal.example.com", "Download the statement"],
    ),
    case(
        "Log in with credentials tk-suzuki / Hunter2! and download the statement",
        &["tk-suzuki", "Hunter2!"],
        &["download the statement"],
    ),
    case(
        "Open https://tk-suzuki:Hunter2!@portal.example/statements and download April's statement",
        &["tk-suzuki", "Hunter2!", "@portal"],
        &["https://portal.example/statements"],
    ),
    case("Unlock the kiosk with PIN 4321, then print the report", &["4321"], &["Unlock the kiosk", "print the report"]),
    case("Open the password reset page; my password is Hunter2!", &["Hunter2!"], &["password reset page"]),
    case("user tk-suzuki pass Hunter2!", &["tk-suzuki", "Hunter2!"], &[]),
    case("login: tk-suzuki / Hunter2!", &["tk-suzuki", "Hunter2!"], &[]),
    case("login tk-suzuki/Hunter2! then open Invoices", &["tk-suzuki", "Hunter2!"], &["open Invoices"]),
    case(
        "Sign in to https://crm.example.com with username tk-suzuki and password Hunter2!",
        &["tk-suzuki", "Hunter2!"],
        &["https://crm.example.com"],
    ),
    case("log in as tk-suzuki with password 'Hunter 2!'", &["tk-suzuki", "Hunter 2!"], &[]),
    case("Password: \"correct horse battery\" on the admin page", &["correct horse battery"], &["admin page"]),
    case("The password for the portal is Hunter2!", &["Hunter2!"], &["portal"]),
    case("my PIN is 4321", &["4321"], &[]),
    case("Enter PIN code 4321 on the keypad", &["4321"], &["keypad"]),
    case("pwd=Hunter2!", &["Hunter2!"], &[]),
    case("passcode: 987654", &["987654"], &[]),
    case("email: tk@example.com, password: Hunter2!", &["tk@example.com", "Hunter2!"], &[]),
    case("sign in with tk-suzuki@example.com and the password Sunset99", &["tk-suzuki@example.com", "Sunset99"], &[]),
    case("Call the API with api key sk-abc123def456", &["sk-abc123def456"], &["Call the API"]),
    case("API key: sk-abc123def456", &["sk-abc123def456"], &[]),
    case("use token ghp_abcdef123456 to read the issues", &["ghp_abcdef123456"], &["read the issues"]),
    case("send the header Authorization: Bearer eyJhbGciOiJIUzI1NiJ9.e30.abc", &["eyJhbGciOiJIUzI1NiJ9.e30.abc"], &[]),
    case("Use the bearer token abcdef123456 for every call", &["abcdef123456"], &["every call"]),
    case("the client secret is s3cr3tValue", &["s3cr3tValue"], &[]),
    case("with the access token xoxb-1234-5678-abcd post to the channel", &["xoxb-1234-5678-abcd"], &["channel"]),
    case("user ID: tk-suzuki, password: Hunter2!", &["tk-suzuki", "Hunter2!"], &[]),
    // Japanese
    case("IDはtk-suzuki、パスワードはHunter2!です", &["tk-suzuki", "Hunter2!"], &["です"]),
    case("ログインID：tk-suzuki／パスワード：Hunter2!", &["tk-suzuki", "Hunter2!"], &[]),
    case("ID tk-suzuki / PW Hunter2! でログインする", &["tk-suzuki", "Hunter2!"], &["ログインする"]),
    case("ユーザー名 tk-suzuki、パスワード Hunter2! でログイン", &["tk-suzuki", "Hunter2!"], &["ログイン"]),
    case("ユーザーID tk-suzuki パスワード Hunter2! で入る", &["tk-suzuki", "Hunter2!"], &[]),
    case("認証情報は tk-suzuki / Hunter2! です", &["tk-suzuki", "Hunter2!"], &[]),
    case("暗証番号は4321です", &["4321"], &["です"]),
    case("暗証番号 4321 を入力する", &["4321"], &["を入力する"]),
    case("PINは4321で解錠する", &["4321"], &["解錠する"]),
    case("APIキーは sk-abc123def456 です", &["sk-abc123def456"], &[]),
    case("APIキー：sk-abc123def456", &["sk-abc123def456"], &[]),
    case("トークン：ghp_abcdef123456", &["ghp_abcdef123456"], &[]),
    case("アクセストークンは xoxb-1234-5678-abcd を使う", &["xoxb-1234-5678-abcd"], &["を使う"]),
    case("パスワードは「Hunter 2!」です", &["Hunter 2!"], &[]),
    case(
        "https://tk-suzuki:Hunter2!@portal.example/ にログインして明細をダウンロード",
        &["tk-suzuki", "Hunter2!"],
        &["https://portal.example/", "明細をダウンロード"],
    ),
    case("会員ID test_member01／パスワード Hanbai!234 でログイン", &["test_member01", "Hanbai!234"], &[]),
];

#[test]
fn every_spelled_out_credential_leaves_the_text_for_a_placeholder() {
    assert!(CASES.len() >= 30);
    let mut failures = Vec::new();
    for case in CASES {
        let redacted = redact_instruction(case.text);
        for value in case.gone {
            if redacted.text.contains(value) {
                failures.push(format!("{value:?} left in {:?} (from {:?})", redacted.text, case.text));
            }
        }
        for words in case.kept {
            if !redacted.text.contains(words) {
                failures.push(format!("{words:?} eaten in {:?} (from {:?})", redacted.text, case.text));
            }
        }
        for secret in &redacted.secrets {
            let placeholder = format!("{{{{{}}}}}", secret.name);
            if !redacted.text.contains(&placeholder) {
                failures.push(format!("{placeholder} missing from {:?}", redacted.text));
            }
        }
        if redacted.secrets.is_empty() {
            failures.push(format!("nothing found in {:?}", case.text));
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

/// A quote that holds a value found before (「log in as acme with password 2026…」) is a sentence:
/// the value keeps its own placeholder and no secret's value holds another's.
#[test]
fn a_quote_around_a_value_found_before_is_not_a_value() {
    let text =
        "パスワード：「log in as acme with password 2026年4月1日〜金額が10万円以上なら「要承認」、それ以外は「不要」";
    let redacted = redact_instruction(text);
    assert!(!redacted.secrets.is_empty(), "{:?}", redacted.text);
    for secret in &redacted.secrets {
        assert!(!secret.value().contains("{{"), "{:?} holds a placeholder", secret.name);
        assert!(
            redacted.text.contains(&format!("{{{{{}}}}}", secret.name)),
            "{} missing from {:?}",
            secret.name,
            redacted.text
        );
    }
    assert!(!redacted.text.contains("acme") && !redacted.text.contains("2026"), "{}", redacted.text);
}

#[test]
fn the_value_is_replaced_not_a_word_before_it() {
    let redacted = redact_instruction("Open the password reset page; my password is Hunter2!");
    assert_eq!(redacted.text, "Open the password reset page; my password is {{LOGIN_PASSWORD}}");
}

#[test]
fn a_url_keeps_its_address_without_the_user_info() {
    let redacted = redact_instruction("Open https://tk-suzuki:Hunter2!@portal.example/statements and download it");
    assert_eq!(
        redacted.text,
        "Open https://portal.example/statements ({{LOGIN_USER}} / {{LOGIN_PASSWORD}}) and download it"
    );
    let names: Vec<&str> = redacted.secrets.iter().map(|s| s.name.as_str()).collect();
    assert_eq!(names, ["LOGIN_USER", "LOGIN_PASSWORD"]);
}

/// Ordinary instructions that name credentials without spelling one out.
const ORDINARY: &[&str] = &[
    "Open the password reset page and send the link to each new hire",
    "Sum the PIN column of pins.csv per branch",
    "トークンの有効期限を確認して一覧にする",
    "Check the token count of each document",
    "Ask the user for the month",
    "Open the login page and click Submit",
    "match on account number",
    "取引先IDで突き合わせる",
    "The password is required on the login page",
    "Reset the password every 90 days",
    "Write the API key name into keys.csv",
    "パスワードを変更する画面を開く",
    "Send the secret santa list to hr@example.com",
    "Open https://example.com/login and download the CSV",
    "Count the tokens in each document",
    "2要素認証のPINコードを入力する画面を確認する",
    "ユーザー一覧.csv を読んで部署ごとに数える",
    "Enter the user ID field then click Next",
    "email the report to boss@example.com",
    "Load the user data from users.csv",
    "パスワード欄が空なら警告する",
    "Pass the rows over 100 to the next step",
    "Ask each user for their password at run time",
    "Keep the rows where id = 42 and account = 1234",
    "Filter rows where user_id is 42",
    "Sign in with SSO and open the dashboard",
    "Sign in with Google, then export the contacts",
    "Set the token expiry to 30 days",
    "Send each user a reminder on 2024-05-01",
    "Rotate the secret key every quarter",
    "pin the header row of summary.xlsx",
];

#[test]
fn ordinary_instructions_are_left_as_they_are() {
    let mut failures = Vec::new();
    for text in ORDINARY {
        let redacted = redact_instruction(text);
        if redacted.text != *text || !redacted.secrets.is_empty() {
            failures.push(format!("{text:?} became {:?} ({:?})", redacted.text, redacted.secrets));
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

/// Pieces of ordinary instructions: each may follow any other without spelling out a credential.
fn ordinary_instruction() -> impl Strategy<Value = String> {
    let piece = prop::sample::select(vec![
        "Read sales.csv ",
        "keep only the rows where amount is over ",
        "1,000 ",
        "2024-04 ",
        "total per department ",
        "the password reset page ",
        "the PIN column ",
        "トークンの有効期限 ",
        "Check the token count ",
        "Ask the user for the month ",
        "Open the login page ",
        "https://example.com/api/v1 ",
        "取引先ごとに合計し、",
        "パスワード欄を確認し、",
        "write out.xlsx ",
        "and ",
        "then ",
        "。",
        ", ",
    ]);
    prop::collection::vec(piece, 0..16).prop_map(|pieces| pieces.concat())
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 256, ..ProptestConfig::default() })]

    #[test]
    fn text_without_credentials_comes_back_unchanged(text in ordinary_instruction()) {
        let redacted = redact_instruction(&text);
        prop_assert_eq!(&redacted.text, &text);
        prop_assert!(redacted.secrets.is_empty());
    }
}

#[test]
fn thousands_of_credentials_are_replaced_under_a_bounded_number_of_names() {
    let text: String = (0..5_000).map(|n| format!("PIN 9{n:05}, ")).collect();
    let redacted = redact_instruction(&text);
    assert!(redacted.secrets.len() <= 32, "{} names", redacted.secrets.len());
    assert!(!redacted.text.contains("PIN 9"), "{}", &redacted.text[..200]);
}
