//! `validate_answer`: every type and rule, with exact field errors. Requests are written out as
//! their JSON (`{mode, message, requirements, context}`; confirm: `{mode: "confirm", message,
//! options}`), answers compared as JSON.

use planwright_block::FieldError;
use planwright_runs::InputRequest;
use serde_json::{json, Value};

/// `validate_answer` on a request given as JSON, its answer as JSON.
fn validate_answer(request: &Value, answer: &Value) -> Result<Value, Vec<FieldError>> {
    let request: InputRequest = serde_json::from_value(request.clone()).expect("a request the blocks could send");
    planwright_block::validate_answer(&request, answer).map(|answer| serde_json::to_value(answer).unwrap())
}

fn form_request(mode: &str, message: &str, requirements: Vec<Value>, context: Value) -> Value {
    json!({"mode": mode, "message": message, "requirements": requirements, "context": context})
}

fn confirm_request(message: &str, options: Value) -> Value {
    json!({"mode": "confirm", "message": message, "options": options})
}

fn collect(requirements: Value) -> Value {
    let Value::Array(list) = requirements else { panic!("a list") };
    form_request("collect", "Fill in the form", list, json!({}))
}

fn one(requirement: Value) -> Value {
    collect(json!([requirement]))
}

fn err(field: &str, message: &str) -> FieldError {
    FieldError { field: field.into(), message: message.into(), said: None }
}

/// The normalised value of field `a`.
fn ok_a(request: &Value, value: Value) -> Value {
    match validate_answer(request, &json!({ "a": value })) {
        Ok(answer) => answer["a"].clone(),
        Err(errors) => panic!("{value}: {errors:?}"),
    }
}

/// The errors for field `a` given this value.
fn errors_a(request: &Value, value: Value) -> Vec<FieldError> {
    validate_answer(request, &json!({ "a": value })).expect_err(&format!("{value} should be refused"))
}

#[test]
fn required_fields_must_be_filled() {
    let request = one(json!({"id": "a", "type": "text", "required": true}));
    for empty in [json!(null), json!(""), json!("   ")] {
        assert_eq!(errors_a(&request, empty), vec![err("a", "required: fill in this field")]);
    }
    assert_eq!(validate_answer(&request, &json!({})), Err(vec![err("a", "required: fill in this field")]));
}

#[test]
fn optional_fields_left_empty_are_null() {
    let request = collect(json!([{"id": "a", "type": "number"}, {"id": "b", "type": "text", "required": false}]));
    assert_eq!(validate_answer(&request, &json!({})), Ok(json!({"a": null, "b": null})));
    assert_eq!(validate_answer(&request, &json!({"b": ""})), Ok(json!({"a": null, "b": null})));
}

#[test]
fn text() {
    let request = one(json!({"id": "a", "type": "text"}));
    assert_eq!(ok_a(&request, json!("2024-04")), json!("2024-04"));
    assert_eq!(ok_a(&request, json!(202404)), json!("202404"));
    assert_eq!(errors_a(&request, json!(true)), vec![err("a", "must be text")]);
    assert_eq!(errors_a(&request, json!(["x"])), vec![err("a", "must be text")]);
}

#[test]
fn number() {
    let request = one(json!({"id": "a", "type": "number"}));
    assert_eq!(ok_a(&request, json!(42)), json!(42));
    assert_eq!(ok_a(&request, json!(1.5)), json!(1.5));
    assert_eq!(ok_a(&request, json!(" 42 ")), json!(42));
    assert_eq!(ok_a(&request, json!("-3.25")), json!(-3.25));
    assert_eq!(ok_a(&request, json!("1,234,567")), json!(1234567));
    assert_eq!(ok_a(&request, json!("１２３")), json!(123));
    // The one reading of numbers (planwright_block::numbers): amounts as people write them.
    assert_eq!(ok_a(&request, json!("¥12,000")), json!(12000));
    assert_eq!(ok_a(&request, json!("12円")), json!(12));
    assert_eq!(errors_a(&request, json!("1,23")), vec![err("a", "\"1,23\" is not a number")]);
    assert_eq!(errors_a(&request, json!("1e5")), vec![err("a", "\"1e5\" is not a number")]);
    assert_eq!(errors_a(&request, json!(true)), vec![err("a", "must be a number")]);
}

#[test]
fn boolean() {
    let request = one(json!({"id": "a", "type": "boolean", "required": true}));
    for (given, expected) in [
        (json!(true), true),
        (json!(false), false),
        (json!("true"), true),
        (json!("False"), false),
        (json!("yes"), true),
        (json!("NO"), false),
        (json!("はい"), true),
        (json!("いいえ"), false),
    ] {
        assert_eq!(ok_a(&request, given), json!(expected));
    }
    let message = "must be yes or no (true/false, はい/いいえ)";
    assert_eq!(errors_a(&request, json!("maybe")), vec![err("a", message)]);
    assert_eq!(errors_a(&request, json!(1)), vec![err("a", message)]);
}

#[test]
fn select_and_enum() {
    for kind in ["select", "enum"] {
        let request = one(json!({"id": "a", "type": kind, "options": ["経理部", "営業管理部", "総務部"]}));
        assert_eq!(ok_a(&request, json!("経理部")), json!("経理部"));
        assert_eq!(
            errors_a(&request, json!("人事部")),
            vec![err("a", "\"人事部\" is not one of the options: 経理部, 営業管理部, 総務部")]
        );
        assert_eq!(errors_a(&request, json!({"x": 1})), vec![err("a", "must be one of the options")]);
    }
}

#[test]
fn file_extension_must_be_accepted() {
    let request = one(json!({"id": "a", "type": "file", "accept": ".csv,.xlsx"}));
    assert_eq!(ok_a(&request, json!("経理/2024-04/明細.csv")), json!("経理/2024-04/明細.csv"));
    assert_eq!(ok_a(&request, json!("STATEMENT.XLSX")), json!("STATEMENT.XLSX"));
    assert_eq!(
        errors_a(&request, json!("invoice.pdf")),
        vec![err("a", "\"invoice.pdf\" is not an accepted file type; accepted: .csv, .xlsx")]
    );
    assert_eq!(
        errors_a(&request, json!("csv")),
        vec![err("a", "\"csv\" is not an accepted file type; accepted: .csv, .xlsx")]
    );
    assert_eq!(errors_a(&request, json!(3)), vec![err("a", "must be a file path")]);
    let any = one(json!({"id": "a", "type": "file"}));
    assert_eq!(ok_a(&any, json!("scan.pdf")), json!("scan.pdf"));
}

#[test]
fn table_is_a_list_of_objects() {
    let request = one(json!({"id": "a", "type": "table", "required": true}));
    let rows = json!([{"取引先": "山田商事", "金額": 132000}, {"取引先": "みどり企画", "金額": 264000}]);
    assert_eq!(ok_a(&request, rows.clone()), rows);
    assert_eq!(errors_a(&request, json!([{"a": 1}, 2])), vec![err("a", "row 2 is not an object of column to value")]);
    assert_eq!(errors_a(&request, json!("a,b")), vec![err("a", "must be a list of rows (objects)")]);
    assert_eq!(errors_a(&request, json!([])), vec![err("a", "required: fill in this field")]);
}

#[test]
fn regex_must_match_the_whole_answer() {
    let request = one(json!({"id": "a", "type": "text", "validation": {"regex": "^\\d{4}-\\d{2}$"}}));
    assert_eq!(ok_a(&request, json!("2024-04")), json!("2024-04"));
    assert_eq!(
        errors_a(&request, json!("2024/04")),
        vec![err("a", "\"2024/04\" does not match the expected format ^\\d{4}-\\d{2}$")]
    );
    // An unanchored pattern still has to match all of it.
    let request = one(json!({"id": "a", "type": "text", "validation": {"regex": "\\d+"}}));
    assert_eq!(ok_a(&request, json!("123")), json!("123"));
    assert_eq!(errors_a(&request, json!("a123")), vec![err("a", "\"a123\" does not match the expected format \\d+")]);
    // Numbers are matched as typed.
    let request = one(json!({"id": "a", "type": "number", "validation": {"regex": "\\d{4}"}}));
    assert_eq!(ok_a(&request, json!("2024")), json!(2024));
    assert_eq!(ok_a(&request, json!(2024)), json!(2024));
    assert_eq!(errors_a(&request, json!(24)), vec![err("a", "\"24\" does not match the expected format \\d{4}")]);
}

#[test]
fn an_invalid_regex_in_the_plan_is_a_field_error() {
    let request = one(json!({"id": "a", "type": "text", "validation": {"regex": "(\\d"}}));
    let errors = errors_a(&request, json!("1"));
    assert_eq!(errors.len(), 1);
    assert_eq!(errors[0].field, "a");
    assert!(
        errors[0].message.starts_with("the plan's regex for this field is invalid (\"(\\\\d\"): "),
        "{}",
        errors[0].message
    );
    assert!(errors[0].message.contains("unclosed group"), "{}", errors[0].message);
}

#[test]
fn unknown_keys_list_the_known_ids() {
    let request = collect(json!([{"id": "closing_month", "type": "text"}, {"id": "department", "type": "text"}]));
    assert_eq!(
        validate_answer(&request, &json!({"closing_month": "2024-04", "month": "2024-04"})),
        Err(vec![err("month", "unknown field; the request asks for: closing_month, department, comment")])
    );
}

#[test]
fn every_problem_is_reported_in_order() {
    let request = collect(json!([
        {"id": "a", "type": "text", "required": true},
        {"id": "b", "type": "number"},
        {"id": "c", "type": "boolean"},
    ]));
    assert_eq!(
        validate_answer(&request, &json!({"b": "x", "c": "y", "zzz": 1, "comment": 5})),
        Err(vec![
            err("a", "required: fill in this field"),
            err("b", "\"x\" is not a number"),
            err("c", "must be yes or no (true/false, はい/いいえ)"),
            err("comment", "must be text"),
            err("zzz", "unknown field; the request asks for: a, b, c, comment"),
        ])
    );
}

#[test]
fn the_answer_must_be_an_object() {
    let request = one(json!({"id": "a", "type": "text"}));
    assert_eq!(
        validate_answer(&request, &json!("2024-04")),
        Err(vec![err("answer", "the answer must be an object of field id to value")])
    );
    let request = confirm_request("OK?", json!({}));
    assert_eq!(
        validate_answer(&request, &json!(true)),
        Err(vec![err("answer", "the answer must be {approved: true or false, comment?}")])
    );
}

#[test]
fn collect_answers_are_normalised_and_validation_is_idempotent() {
    let request = collect(json!([
        {"id": "closing_month", "type": "text", "required": true, "validation": {"regex": "^\\d{4}-\\d{2}$"}},
        {"id": "count", "type": "number"},
        {"id": "exclude", "type": "boolean"},
        {"id": "department", "type": "select", "options": ["経理部", "総務部"]},
    ]));
    let answer = json!({"closing_month": "2024-04", "count": "12", "exclude": "はい", "comment": "確認済み"});
    let normal = validate_answer(&request, &answer).unwrap();
    assert_eq!(
        normal,
        json!({"closing_month": "2024-04", "count": 12, "exclude": true, "department": null, "comment": "確認済み"})
    );
    assert_eq!(validate_answer(&request, &normal), Ok(normal));
}

#[test]
fn confirm_answers() {
    let request = confirm_request("Send the payment list?", json!({}));
    assert_eq!(validate_answer(&request, &json!({"approved": true})), Ok(json!({"approved": true})));
    assert_eq!(validate_answer(&request, &json!({"approved": false})), Ok(json!({"approved": false})));
    assert_eq!(
        validate_answer(&request, &json!({"approved": "はい", "comment": "金額を確認済みです。"})),
        Ok(json!({"approved": true, "comment": "金額を確認済みです。"}))
    );
    assert_eq!(
        validate_answer(&request, &json!({})),
        Err(vec![err("approved", "required: approve (true) or reject (false)")])
    );
    assert_eq!(
        validate_answer(&request, &json!({"approved": "perhaps"})),
        Err(vec![err("approved", "must be true (approve) or false (reject)")])
    );
    assert_eq!(
        validate_answer(&request, &json!({"approved": true, "note": "x"})),
        Err(vec![err("note", "unknown field; the request asks for: approved, comment")])
    );
    assert_eq!(
        validate_answer(&request, &json!({"approved": true, "comment": ["x"]})),
        Err(vec![err("comment", "must be text")])
    );
}

#[test]
fn confirm_with_a_required_comment() {
    let request = confirm_request("Send?", json!({"comment_required": true}));
    for answer in [json!({"approved": true}), json!({"approved": false, "comment": "  "})] {
        assert_eq!(validate_answer(&request, &answer), Err(vec![err("comment", "required: write a comment")]));
    }
    assert_eq!(
        validate_answer(&request, &json!({"approved": false, "comment": "金額が違います"})),
        Ok(json!({"approved": false, "comment": "金額が違います"}))
    );
}

#[test]
fn mixed_needs_the_form_and_an_approval() {
    let request = form_request(
        "mixed",
        "Exclude these?",
        vec![json!({"id": "reason", "type": "text", "required": true}), json!({"id": "n", "type": "number"})],
        json!({}),
    );
    assert_eq!(
        validate_answer(&request, &json!({"reason": "duplicate", "approved": true})),
        Ok(json!({"approved": true, "reason": "duplicate", "n": null}))
    );
    assert_eq!(
        validate_answer(&request, &json!({})),
        Err(vec![
            err("approved", "required: approve (true) or reject (false)"),
            err("reason", "required: fill in this field"),
        ])
    );
    // Rejecting needs no form, but what is filled in is still checked.
    assert_eq!(
        validate_answer(&request, &json!({"approved": false})),
        Ok(json!({"approved": false, "reason": null, "n": null}))
    );
    assert_eq!(
        validate_answer(&request, &json!({"approved": "no", "n": "many"})),
        Err(vec![err("n", "\"many\" is not a number")])
    );
    assert_eq!(
        validate_answer(&request, &json!({"approved": true, "reason": "x", "ok": 1})),
        Err(vec![err("ok", "unknown field; the request asks for: reason, n, approved, comment")])
    );
}

#[test]
fn inquire_without_requirements_wants_a_free_text_response() {
    let request = form_request("inquire", "Why is the total different?", Vec::new(), json!({}));
    assert_eq!(
        validate_answer(&request, &json!({"response": "返品があります"})),
        Ok(json!({"response": "返品があります"}))
    );
    assert_eq!(
        validate_answer(&request, &json!({"response": " "})),
        Err(vec![err("response", "required: write your answer")])
    );
    assert_eq!(validate_answer(&request, &json!({"response": 3})), Err(vec![err("response", "must be text")]));
    assert_eq!(
        validate_answer(&request, &json!({"answer": "x"})),
        Err(vec![
            err("response", "required: write your answer"),
            err("answer", "unknown field; the request asks for: comment, response"),
        ])
    );
}

#[test]
fn field_errors_serialise_as_field_message_and_code() {
    assert_eq!(serde_json::to_value(err("a", "m")).unwrap(), json!({"field": "a", "message": "m", "said": null}));
    let request = json!({"mode": "collect", "message": "m", "requirements": [{"id": "n", "type": "number"}, {"id": "dept", "type": "select", "options": ["経理部", "総務部"]}]});
    let errors = validate_answer(&request, &json!({"n": "many", "dept": "人事部"})).unwrap_err();
    let said: Vec<Value> = errors.iter().map(|e| serde_json::to_value(e).unwrap()["said"].clone()).collect();
    assert_eq!(
        said,
        [
            json!({"key": "answer_not_number", "params": {"text": "many"}}),
            json!({"key": "answer_not_an_option", "params": {"text": "人事部", "options": "経理部, 総務部"}}),
        ]
    );
}
