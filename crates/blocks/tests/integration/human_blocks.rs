//! `ui.interactive_input` in each mode and `ui.confirmation`, through a HumanInput that answers
//! from a queue and records what it was asked.

use crate::human_support;

use std::time::{Duration, Instant};

use planwright_block::BlockError;
use serde_json::{json, Value};

use human_support::{assert_declared_outputs, Harness};

const INPUT: &str = "ui.interactive_input";
const CONFIRM: &str = "ui.confirmation";

fn ids(request: &Value) -> Vec<&str> {
    request["requirements"].as_array().unwrap().iter().map(|r| r["id"].as_str().unwrap()).collect()
}

fn closing_requirements() -> Value {
    json!([
        {"id": "closing_month", "type": "text", "label": "締め月", "required": true, "validation": {"regex": "^\\d{4}-\\d{2}$"}},
        {"id": "bank_statement", "type": "file", "label": "銀行入出金明細", "accept": ".csv,.xlsx", "required": true},
        {"id": "department", "type": "select", "options": ["経理部", "営業管理部", "総務部"], "required": false},
        {"id": "count", "type": "number"},
    ])
}

fn is_iso_utc(text: &str) -> bool {
    let re = regex::Regex::new(r"^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}Z$").unwrap();
    re.is_match(text)
}

#[tokio::test]
async fn collect_asks_once_and_returns_the_values() {
    let h = Harness::answering([json!({
        "closing_month": "2024-04",
        "bank_statement": "経理/入出金明細_202404.csv",
        "department": "経理部",
        "count": "3",
    })]);
    std::fs::create_dir(h.dir.path().join("経理")).unwrap();
    std::fs::write(h.dir.path().join("経理/入出金明細_202404.csv"), "日付,金額\n").unwrap();
    let inputs = json!({
        "mode": "collect",
        "message": "締め月と明細をください",
        "requirements": closing_requirements(),
        "context": {"期": 12},
    });
    let out = h.run(INPUT, inputs).await.unwrap();
    assert_declared_outputs(INPUT, &out);
    assert_eq!(
        out["collected_data"],
        json!({"closing_month": "2024-04", "bank_statement": "経理/入出金明細_202404.csv", "department": "経理部", "count": 3})
    );
    assert_eq!(out["approved"], true);
    assert_eq!(out["response"], "");
    assert_eq!(out["metadata"]["mode"], "collect");
    assert!(is_iso_utc(out["metadata"]["responded_at"].as_str().unwrap()), "{}", out["metadata"]);

    let requests = h.input.requests();
    assert_eq!(requests.len(), 1);
    let request = &requests[0];
    assert_eq!(request["mode"], "collect");
    assert_eq!(request["message"], "締め月と明細をください");
    assert_eq!(request["context"], json!({"期": 12}));
    assert_eq!(ids(request), ["closing_month", "bank_statement", "department", "count"]);
    assert_eq!(request["requirements"][0]["label"], "締め月");
    assert_eq!(h.input.requests.lock().unwrap()[0].0, "ask", "asked for the node");
}

#[tokio::test]
async fn collect_is_the_default_mode_and_comments_become_the_response() {
    let h = Harness::answering([json!({"note": "ok", "comment": "今月は遅れました"})]);
    let out = h.run(INPUT, json!({"requirements": [{"id": "note", "type": "text"}]})).await.unwrap();
    assert_declared_outputs(INPUT, &out);
    assert_eq!(out["collected_data"], json!({"note": "ok"}));
    assert_eq!(out["response"], "今月は遅れました");
    assert_eq!(out["metadata"]["mode"], "collect");
    let request = &h.input.requests()[0];
    assert_eq!(
        request,
        &json!({"mode": "collect", "message": "", "requirements": [{"id": "note", "type": "text"}], "context": {}})
    );
}

#[tokio::test]
async fn a_named_file_must_exist() {
    let h = Harness::answering([json!({"closing_month": "2024-04", "bank_statement": "missing.csv"})]);
    let result = h.run(INPUT, json!({"requirements": closing_requirements()})).await;
    assert_eq!(
        result,
        Err(BlockError::failed(
            "the answer does not fit the request: bank_statement: no file at \"missing.csv\" in the work directory"
        ))
    );
}

#[tokio::test]
async fn an_answer_that_does_not_fit_fails_the_block() {
    let h = Harness::answering([json!({"closing_month": "April", "extra": 1})]);
    let result = h.run(INPUT, json!({"requirements": [{"id": "closing_month", "type": "text", "validation": {"regex": "\\d{4}-\\d{2}"}}]})).await;
    assert_eq!(
        result,
        Err(BlockError::failed(
            "the answer does not fit the request: closing_month: \"April\" does not match the expected format \\d{4}-\\d{2}; \
             extra: unknown field; the request asks for: closing_month, comment"
        ))
    );
}

#[tokio::test]
async fn confirm_mode_approves_or_rejects_and_rejecting_is_not_an_error() {
    let context = json!({"suspected_duplicates": [{"請求番号": "INV-2024-0407"}, {"請求番号": "INV-2024-0412"}]});
    for (answer, approved, response) in [
        (
            json!({"approved": true, "comment": "INV-2024-0412 を除外してください。"}),
            true,
            "INV-2024-0412 を除外してください。",
        ),
        (json!({"approved": false}), false, ""),
        (json!({"approved": "いいえ"}), false, ""),
    ] {
        let h = Harness::answering([answer]);
        let inputs = json!({"mode": "confirm", "message": "除外してよいですか？", "context": context, "requirements": closing_requirements()});
        let out = h.run(INPUT, inputs).await.unwrap();
        assert_declared_outputs(INPUT, &out);
        assert_eq!(out["approved"], approved);
        assert_eq!(out["response"], response);
        assert_eq!(out["collected_data"], json!({}), "empty in confirm mode");
        assert_eq!(out["metadata"]["mode"], "confirm");
        let requests = h.input.requests();
        assert_eq!(
            requests,
            [json!({"mode": "confirm", "message": "除外してよいですか？", "options": {}, "context": context})]
        );
    }
}

#[tokio::test]
async fn mixed_mode_asks_for_the_form_and_an_approval() {
    let h = Harness::answering([json!({"reason": "再送分", "approved": true, "comment": "確認済み"})]);
    let inputs = json!({
        "mode": "mixed",
        "message": "除外理由を入力して承認してください",
        "requirements": [{"id": "reason", "type": "text", "required": true}, {"id": "amount", "type": "number"}],
    });
    let out = h.run(INPUT, inputs.clone()).await.unwrap();
    assert_declared_outputs(INPUT, &out);
    assert_eq!(out["collected_data"], json!({"reason": "再送分", "amount": null}));
    assert_eq!(out["approved"], true);
    assert_eq!(out["response"], "確認済み");
    assert_eq!(out["metadata"]["mode"], "mixed");
    let request = &h.input.requests()[0];
    assert_eq!(request["mode"], "mixed");
    assert_eq!(ids(request), ["reason", "amount"]);

    // Rejected, with the form left empty: approved is false, not an error.
    let h = Harness::answering([json!({"approved": false})]);
    let out = h.run(INPUT, inputs).await.unwrap();
    assert_declared_outputs(INPUT, &out);
    assert_eq!(out["approved"], false);
    assert_eq!(out["collected_data"], json!({"reason": null, "amount": null}));
}

#[tokio::test]
async fn inquire_asks_one_required_requirement_at_a_time_in_order() {
    let h = Harness::answering([
        json!({"closing_month": "2024-04"}),
        json!({"bank_statement": "statement.xlsx", "comment": "先月分と同じ形式です"}),
    ]);
    std::fs::write(h.dir.path().join("statement.xlsx"), b"x").unwrap();
    let inputs = json!({"mode": "inquire", "message": "月次処理の情報", "requirements": closing_requirements(), "context": {"a": 1}});
    let out = h.run(INPUT, inputs).await.unwrap();
    assert_declared_outputs(INPUT, &out);
    assert_eq!(
        out["collected_data"],
        json!({"closing_month": "2024-04", "bank_statement": "statement.xlsx", "department": null, "count": null})
    );
    assert_eq!(out["approved"], true);
    assert_eq!(out["response"], "先月分と同じ形式です");
    assert_eq!(out["metadata"]["mode"], "inquire");

    let requests = h.input.requests();
    assert_eq!(requests.len(), 2, "one request per required requirement");
    for (request, id) in requests.iter().zip(["closing_month", "bank_statement"]) {
        assert_eq!(request["mode"], "inquire");
        assert_eq!(request["message"], "月次処理の情報");
        assert_eq!(request["context"], json!({"a": 1}));
        assert_eq!(ids(request), [id]);
    }
}

#[tokio::test]
async fn inquire_asks_the_next_question_only_after_the_previous_answer() {
    // Only one answer queued: the block asks the first question, gets it, asks the second and
    // waits there.
    let h = Harness::answering([json!({"closing_month": "2024-04"})]);
    let inputs = json!({"mode": "inquire", "requirements": closing_requirements()});
    let cancel = h.ctx.cancel.clone();
    tokio::spawn(async move {
        tokio::time::sleep(Duration::from_millis(200)).await;
        cancel.cancel();
    });
    assert_eq!(h.run(INPUT, inputs).await, Err(BlockError::Cancelled));
    let requests = h.input.requests();
    assert_eq!(requests.iter().map(ids).collect::<Vec<_>>(), [vec!["closing_month"], vec!["bank_statement"]]);
}

#[tokio::test]
async fn inquire_without_required_requirements_asks_a_free_text_question() {
    let h = Harness::answering([json!({"response": "返品が1件あるためです"})]);
    let inputs = json!({"mode": "inquire", "message": "合計が合わない理由は？", "context": {"差額": 12000}});
    let out = h.run(INPUT, inputs).await.unwrap();
    assert_declared_outputs(INPUT, &out);
    assert_eq!(out["collected_data"], json!({}));
    assert_eq!(out["approved"], true);
    assert_eq!(out["response"], "返品が1件あるためです");
    assert_eq!(
        h.input.requests(),
        [
            json!({"mode": "inquire", "message": "合計が合わない理由は？", "requirements": [], "context": {"差額": 12000}})
        ]
    );
}

#[tokio::test]
async fn plan_mistakes_in_requirements_are_refused_before_asking() {
    let cases = [
        (json!({"requirements": [{"type": "text"}]}), "`requirements[0]` needs an id (the key of its answer)"),
        (
            json!({"requirements": [{"id": "a"}, {"id": "a"}]}),
            "requirement `a` appears twice; each requirement needs its own id",
        ),
        (
            json!({"requirements": [{"id": "approved", "type": "boolean"}]}),
            "requirement `approved`: the id `approved` is reserved (approved, comment, response carry the approval, comment and answer); rename it",
        ),
        (
            json!({"requirements": [{"id": "a", "type": "date"}]}),
            "requirement `a`: type \"date\" is not one of text, select, boolean, number, file, table, enum",
        ),
        (json!({"requirements": [{"id": "a", "type": "select"}]}), "requirement `a` is a select field without options to choose from"),
        (json!({"mode": "form"}), "`mode` \"form\" is not one of collect, confirm, inquire, mixed"),
        (json!({"requirements": "a,b"}), "`requirements` must be a list of fields"),
    ];
    for (inputs, expected) in cases {
        let h = Harness::answering([]);
        assert_eq!(h.run(INPUT, inputs).await, Err(BlockError::input(expected)));
        assert!(h.input.requests().is_empty());
    }
    let h = Harness::answering([]);
    let result = h.run(INPUT, json!({"requirements": [{"id": "m", "validation": {"regex": "(\\d"}}]})).await;
    let Err(BlockError::Input(planwright_runs::Reason { text: message, .. })) = result else { panic!("{result:?}") };
    assert!(message.starts_with("requirement `m`: validation.regex \"(\\\\d\" is invalid: "), "{message}");
    assert!(h.input.requests().is_empty());
}

#[tokio::test]
async fn no_answer_is_passed_on() {
    let h = Harness::with([Err(BlockError::no_answer("nobody answered"))]);
    assert_eq!(h.run(CONFIRM, json!({"message": "OK?"})).await, Err(BlockError::no_answer("nobody answered")));
}

#[tokio::test]
async fn waiting_for_an_answer_stops_when_cancelled() {
    let h = Harness::answering([]);
    let cancel = h.ctx.cancel.clone();
    tokio::spawn(async move {
        tokio::time::sleep(Duration::from_millis(100)).await;
        cancel.cancel();
    });
    let started = Instant::now();
    assert_eq!(h.run(INPUT, json!({"mode": "confirm", "message": "OK?"})).await, Err(BlockError::Cancelled));
    assert!(started.elapsed() < Duration::from_secs(1));
}

#[tokio::test]
async fn confirmation_returns_approved_and_comment() {
    let options = json!({"approve_label": "送信する", "reject_label": "中止する"});
    let h = Harness::answering([json!({"approved": true, "comment": "金額を確認済みです。"})]);
    let out = h.run(CONFIRM, json!({"message": "送信しますか？", "options": options})).await.unwrap();
    assert_declared_outputs(CONFIRM, &out);
    assert_eq!(out["approved"], true);
    assert_eq!(out["comment"], "金額を確認済みです。");
    assert_eq!(h.input.requests(), [json!({"mode": "confirm", "message": "送信しますか？", "options": options})]);

    let h = Harness::answering([json!({"approved": false})]);
    let out = h.run(CONFIRM, json!({"message": "送信しますか？"})).await.unwrap();
    assert_declared_outputs(CONFIRM, &out);
    assert_eq!(out["approved"], false);
    assert_eq!(out["comment"], "");
    assert_eq!(h.input.requests()[0]["options"], json!({}));
}

#[tokio::test]
async fn the_safe_choice_can_be_offered_first() {
    let h = Harness::answering([json!({"approved": false, "comment": "TC-03 failed"})]);
    let options = json!({"approve_label": "合格で確定", "reject_label": "再テスト", "default": "reject"});
    let out = h.run(CONFIRM, json!({"message": "1 件不合格です。確定しますか？", "options": options})).await.unwrap();
    assert_eq!(out["approved"], false);
    assert_eq!(h.input.requests()[0]["options"]["default"], "reject", "the form is told which choice comes first");
}

#[tokio::test]
async fn confirmation_with_a_required_comment() {
    let h = Harness::answering([json!({"approved": false})]);
    let result = h.run(CONFIRM, json!({"message": "OK?", "options": {"comment_required": true}})).await;
    assert_eq!(
        result,
        Err(BlockError::failed("the answer does not fit the request: comment: required: write a comment"))
    );
}

#[tokio::test]
async fn confirmation_input_mistakes() {
    let h = Harness::answering([]);
    let result = h.run(CONFIRM, json!({"message": " "})).await;
    assert!(
        matches!(result, Err(BlockError::Input(planwright_runs::Reason { text: ref m, .. })) if m.starts_with("`message` is empty")),
        "{result:?}"
    );
    let result = h.run(CONFIRM, json!({"message": "OK?", "options": {"comment_required": "yes"}})).await;
    assert_eq!(result, Err(BlockError::input("`options.comment_required` must be true or false")));
    let result = h.run(CONFIRM, json!({"message": "OK?", "options": {"default": "yes"}})).await;
    assert_eq!(result, Err(BlockError::input("`options.default` must be approve or reject")));
    assert!(h.input.requests().is_empty());
}
