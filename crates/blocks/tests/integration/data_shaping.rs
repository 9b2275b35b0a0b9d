//! `transforms.sort`, `select_columns`, `remove_duplicates`, `find_duplicates`, `add_columns` (its
//! blank cells filled too),
//! `append`, and the one-sided joins (`left_only`, `right_only`).

use crate::data_common;

use data_common::Harness;
use serde_json::{json, Value};

fn payments() -> Value {
    json!([
        {"date": "2026-03-02", "vendor": "Acme Supplies", "amount": 1200.0, "reference": "PAY-001"},
        {"date": "2026-03-03", "vendor": "Blue Freight", "amount": "860.50", "reference": "PAY-002"},
        {"date": "2026-03-09", "vendor": "Acme Supplies ", "amount": "1,200", "reference": "PAY-003"},
        {"date": "2026-03-11", "vendor": "", "amount": 45, "reference": "PAY-004"},
        {"date": "2026-03-15", "vendor": "Blue Freight", "amount": 860.5, "reference": "PAY-005"},
        {"date": "2026-03-20", "vendor": "Acme Supplies", "amount": 300, "reference": "PAY-006"},
        {"date": "2026-03-21", "vendor": "", "amount": 45, "reference": "PAY-007"},
    ])
}

fn references(rows: &Value) -> Vec<&str> {
    rows.as_array().unwrap().iter().map(|r| r["reference"].as_str().unwrap()).collect()
}

#[tokio::test]
async fn sort_orders_amounts_as_numbers_keeps_ties_in_order_and_blanks_last() {
    let h = Harness::new();
    let rows = json!([
        {"id": "a", "amount": "1,200"},
        {"id": "b", "amount": 900},
        {"id": "c", "amount": null},
        {"id": "d", "amount": "１５００"},
        {"id": "e", "amount": 900},
    ]);
    let ids = |out: &planwright_block::Values| -> Vec<String> {
        out["rows"].as_array().unwrap().iter().map(|r| r["id"].as_str().unwrap().to_owned()).collect()
    };
    let up = h.ok("transforms.sort", json!({"items": rows, "by": ["amount"]})).await;
    assert_eq!(ids(&up), ["b", "e", "a", "d", "c"]);
    let down = h.ok("transforms.sort", json!({"items": rows, "by": [{"column": "amount", "order": "desc"}]})).await;
    assert_eq!(ids(&down), ["d", "a", "b", "e", "c"]);
    let top = h
        .ok("transforms.sort", json!({"items": rows, "by": [{"column": "amount", "order": "desc"}], "limit": 2}))
        .await;
    assert_eq!(ids(&top), ["d", "a"]);
    assert_eq!(top["summary"], json!({"input_rows": 5, "rows": 2}));
}

#[tokio::test]
async fn sort_by_two_columns_and_by_dates() {
    let h = Harness::new();
    let out = h
        .ok("transforms.sort", json!({"items": payments(), "by": ["vendor", {"column": "date", "order": "desc"}]}))
        .await;
    assert_eq!(references(&out["rows"]), ["PAY-006", "PAY-003", "PAY-001", "PAY-005", "PAY-002", "PAY-007", "PAY-004"]);
}

#[tokio::test]
async fn sort_follows_the_values_a_key_lists_then_the_others() {
    let h = Harness::new();
    let bugs = json!([
        {"id": "B-3", "sev": "低"}, {"id": "B-1", "sev": "高"}, {"id": "B-5", "sev": "未設定"},
        {"id": "B-2", "sev": "中"}, {"id": "B-4", "sev": "高"}, {"id": "B-6", "sev": ""},
    ]);
    let ids = |rows: &Value| rows.as_array().unwrap().iter().map(|r| r["id"].clone()).collect::<Vec<_>>();
    let listed = |order: &str| json!({"items": bugs, "by": [{"column": "sev", "values": ["高", "中", "低"], "order": order}, "id"]});
    assert_eq!(
        ids(&h.ok("transforms.sort", listed("asc")).await["rows"]),
        json!(["B-1", "B-4", "B-2", "B-3", "B-5", "B-6"]).as_array().unwrap().clone(),
        "the listed values in the list's order (ties by the next key), an unlisted value after them, a blank last"
    );
    assert_eq!(
        ids(&h.ok("transforms.sort", listed("desc")).await["rows"]),
        json!(["B-3", "B-2", "B-1", "B-4", "B-5", "B-6"]).as_array().unwrap().clone(),
        "descending reverses the list; unlisted values and blanks still come after it"
    );
    let message =
        h.input_error("transforms.sort", json!({"items": bugs, "by": [{"column": "sev", "values": "高>中>低"}]})).await;
    assert!(message.contains("values") && message.contains("[高, 中, 低]"), "{message}");
}

#[tokio::test]
async fn sort_input_errors_say_what_to_fix() {
    let h = Harness::new();
    let message = h.input_error("transforms.sort", json!({"items": payments(), "by": ["amout"]})).await;
    assert!(message.contains("amout") && message.contains("amount"), "{message}");
    let message = h
        .input_error("transforms.sort", json!({"items": payments(), "by": [{"column": "amount", "order": "biggest"}]}))
        .await;
    assert!(message.contains("asc or desc"), "{message}");
    let message = h.input_error("transforms.sort", json!({"items": payments(), "by": ["amount"], "limit": 0})).await;
    assert!(message.contains("limit"), "{message}");
    let message = h.input_error("transforms.sort", json!({"items": payments(), "by": []})).await;
    assert!(message.contains("empty"), "{message}");
}

#[tokio::test]
async fn select_columns_keeps_renames_and_orders() {
    let h = Harness::new();
    let out = h
        .ok(
            "transforms.select_columns",
            json!({"items": payments(), "columns": ["reference", {"column": "amount", "as": "金額"}]}),
        )
        .await;
    let first = out["rows"][0].as_object().unwrap();
    assert_eq!(first.keys().collect::<Vec<_>>(), ["reference", "金額"]);
    assert_eq!(first["金額"], json!(1200.0));
    let message = h.input_error("transforms.select_columns", json!({"items": payments(), "columns": ["vendr"]})).await;
    assert!(message.contains("vendr") && message.contains("vendor"), "{message}");
    let message = h
        .input_error(
            "transforms.select_columns",
            json!({"items": payments(), "columns": ["vendor", {"column": "amount", "as": "vendor"}]}),
        )
        .await;
    assert!(message.contains("two columns"), "{message}");
}

#[tokio::test]
async fn find_duplicates_matches_amounts_by_value_and_lists_every_row_of_a_group() {
    let h = Harness::new();
    let out = h.ok("transforms.find_duplicates", json!({"items": payments(), "by": ["vendor", "amount"]})).await;
    // Acme 1200 three ways (1200.0, "1,200", a trailing space in the name); Blue Freight 860.50
    // and 860.5; the two rows without a vendor are not duplicates of each other.
    assert_eq!(references(&out["rows"]), ["PAY-001", "PAY-003", "PAY-002", "PAY-005"]);
    assert_eq!(out["groups"][0]["count"], json!(2));
    assert_eq!(out["summary"], json!({"input_rows": 7, "rows": 4, "groups": 2}));
    let message = h.input_error("transforms.find_duplicates", json!({"items": payments(), "by": ["supplier"]})).await;
    assert!(message.contains("supplier"), "{message}");
}

#[tokio::test]
async fn remove_duplicates_keeps_first_or_last_and_never_merges_blank_keys() {
    let h = Harness::new();
    let first = h.ok("transforms.remove_duplicates", json!({"items": payments(), "by": ["vendor", "amount"]})).await;
    assert_eq!(references(&first["rows"]), ["PAY-001", "PAY-002", "PAY-004", "PAY-006", "PAY-007"]);
    assert_eq!(references(&first["removed"]), ["PAY-003", "PAY-005"]);
    let last = h
        .ok("transforms.remove_duplicates", json!({"items": payments(), "by": ["vendor", "amount"], "keep": "last"}))
        .await;
    assert_eq!(references(&last["rows"]), ["PAY-003", "PAY-004", "PAY-005", "PAY-006", "PAY-007"]);
    // Whole rows: the references differ, so nothing is a duplicate.
    let whole = h.ok("transforms.remove_duplicates", json!({"items": payments()})).await;
    assert_eq!(whole["summary"]["removed"], json!(0));
}

#[tokio::test]
async fn duplicates_whatever_their_case_share_a_key_only_when_asked() {
    let h = Harness::new();
    let rows = json!([
        {"id": "C-1", "email": "laura@oak.example"},
        {"id": "C-2", "email": "Laura@Oak.example"},
        {"id": "C-3", "email": "m.hill@tide.example"},
    ]);
    let exact = h.ok("transforms.remove_duplicates", json!({"items": rows, "by": ["email"]})).await;
    assert_eq!(exact["summary"]["removed"], json!(0), "case counts unless told");
    let any_case = h
        .ok(
            "transforms.remove_duplicates",
            json!({"items": rows, "by": ["email"], "ignore_case": true, "keep": "last"}),
        )
        .await;
    let kept: Vec<&str> = any_case["rows"].as_array().unwrap().iter().filter_map(|r| r["id"].as_str()).collect();
    assert_eq!(kept, ["C-2", "C-3"]);
    let found = h.ok("transforms.find_duplicates", json!({"items": rows, "by": ["email"], "ignore_case": true})).await;
    assert_eq!(found["summary"]["rows"], json!(2));
    let message = h
        .input_error("transforms.find_duplicates", json!({"items": rows, "by": ["email"], "ignore_case": "yes"}))
        .await;
    assert!(message.contains("ignore_case"), "{message}");
}

#[tokio::test]
async fn add_columns_writes_dates_in_one_form_and_leaves_what_is_no_date() {
    let h = Harness::new();
    let rows = json!([
        {"due": "2026年12月1日"},
        {"due": "2027/3/31 09:30"},
        {"due": "soon"},
    ]);
    let out = h
        .ok(
            "transforms.add_columns",
            json!({"items": rows, "columns": [
                {"as": "iso", "op": "date", "of": ["due"]},
                {"as": "due", "op": "date", "of": ["due"], "separator": "/"},
            ]}),
        )
        .await;
    let rows = out["rows"].as_array().unwrap();
    assert_eq!(rows[0]["iso"], json!("2026-12-01"));
    assert_eq!(rows[0]["due"], json!("2026/12/01"), "rewritten in place, with the separator given");
    assert_eq!(rows[1]["iso"], json!("2027-03-31"), "the day of a date and time");
    assert_eq!(rows[2]["iso"], json!("soon"), "a cell that is no date stays as it is");
}

#[tokio::test]
async fn add_columns_computes_differences_exactly_months_and_comparisons() {
    let h = Harness::new();
    let rows = json!([
        {"billed": "0.3", "paid": 0.1, "date": "2026-04-05", "a": "x", "b": "y"},
        {"billed": "1,200", "paid": null, "date": "2026/5/1", "a": "x", "b": ""},
        {"billed": 10, "paid": 0, "date": "soon", "a": "", "b": "y"},
    ]);
    let out = h
        .ok(
            "transforms.add_columns",
            json!({"items": rows, "columns": [
                {"as": "left", "op": "difference", "of": ["billed", "paid"]},
                {"as": "share", "op": "ratio", "of": ["paid", "billed"]},
                {"as": "over", "op": "greater", "of": ["billed", "paid"]},
                {"as": "month", "op": "month", "of": ["date"]},
                {"as": "label", "op": "join", "of": ["a", "b"], "separator": "-"},
                {"as": "left_twice", "op": "sum", "of": ["left", "left"]},
                {"as": "percent", "op": "percent", "of": ["paid", "billed"]},
                {"as": "left_less", "op": "difference", "of": ["left"], "value": 0.1},
            ]}),
        )
        .await;
    let rows = out["rows"].as_array().unwrap();
    assert_eq!(rows[0]["left"], json!(0.2));
    assert_eq!(rows[0]["left_twice"], json!(0.4));
    assert_eq!(rows[0]["over"], json!(true));
    assert_eq!(rows[0]["month"], json!("2026-04"));
    assert_eq!(rows[0]["label"], json!("x-y"));
    assert_eq!(rows[1]["left"], Value::Null, "a blank operand gives no value");
    assert_eq!(rows[1]["month"], json!("2026-05"));
    assert_eq!(rows[1]["label"], json!("x"));
    assert_eq!(rows[2]["share"], json!(0));
    assert_eq!(rows[2]["month"], Value::Null);
    assert!((rows[0]["share"].as_f64().unwrap() - 1.0 / 3.0).abs() < 1e-12);
    assert!((rows[0]["percent"].as_f64().unwrap() - 100.0 / 3.0).abs() < 1e-9, "a ratio as a percentage");
    assert_eq!(rows[0]["left_less"], json!(0.1), "a column less a number written");
    let message = h
        .input_error(
            "transforms.add_columns",
            json!({"items": rows, "columns": [{"as": "d", "op": "difference", "of": ["billed"]}]}),
        )
        .await;
    assert!(message.contains("2 operand"), "{message}");
    let message = h
        .input_error(
            "transforms.add_columns",
            json!({"items": rows, "columns": [{"as": "d", "op": "minus_ish", "of": ["billed", "paid"]}]}),
        )
        .await;
    assert!(message.contains("difference"), "{message}");
}

#[tokio::test]
async fn add_columns_computes_with_a_written_number_and_labels_rows_by_the_first_case_that_holds() {
    let h = Harness::new();
    let rows = json!([
        {"id": "a", "amount": "150,000", "due": "2026-10-20", "paid": 150000},
        {"id": "b", "amount": 100000, "due": "2026-11-05", "paid": 90000},
        {"id": "c", "amount": "99999", "due": "2026-10-31", "paid": null},
        {"id": "d", "amount": "n/a", "due": "", "paid": 0},
    ]);
    let out = h
        .ok(
            "transforms.add_columns",
            json!({"items": rows, "columns": [
                {"as": "tax", "op": "product", "of": ["amount"], "value": 0.1},
                {"as": "less_fee", "op": "difference", "of": ["amount"], "value": "1,000"},
                {"as": "approval", "op": "label", "cases": [
                    {"when": [{"field": "amount", "operator": "gte", "value": 150000}], "then": "director"},
                    {"when": [{"field": "amount", "operator": "gte", "value": 100000}], "then": "manager"},
                ], "else": "none"},
                {"as": "state", "op": "label", "cases": [
                    {"when": [{"field": "due", "operator": "lt", "value": "2026-10-31"}, {"field": "paid", "operator": "ne", "column": "amount"}], "then": "Overdue"},
                ]},
            ]}),
        )
        .await;
    let rows = out["rows"].as_array().unwrap();
    let column = |name: &str| rows.iter().map(|r| r[name].clone()).collect::<Vec<_>>();
    assert_eq!(column("tax"), [json!(15000), json!(10000), json!(9999.9), Value::Null]);
    assert_eq!(column("less_fee"), [json!(149000), json!(99000), json!(98999), Value::Null]);
    assert_eq!(column("approval"), [json!("director"), json!("manager"), json!("none"), json!("none")]);
    assert_eq!(
        column("state"),
        [Value::Null, Value::Null, Value::Null, Value::Null],
        "a is paid in full, b and c are not yet due, d has no due date; no else leaves the cell empty"
    );
    let averages = json!([{"p": "High", "avg": 3.335}, {"p": "Low", "avg": -10.5}, {"p": "Mid", "avg": "1,234.5"}, {"p": "-", "avg": ""}]);
    let out = h
        .ok(
            "transforms.add_columns",
            json!({"items": averages, "columns": [{"as": "avg", "op": "round", "of": ["avg"], "decimals": 2}, {"as": "whole", "op": "round", "of": ["avg"]}]}),
        )
        .await;
    let rounded: Vec<(Value, Value)> =
        out["rows"].as_array().unwrap().iter().map(|r| (r["avg"].clone(), r["whole"].clone())).collect();
    assert_eq!(
        rounded,
        [(json!(3.34), json!(3)), (json!(-10.5), json!(-11)), (json!(1234.5), json!(1235)), (Value::Null, Value::Null)],
        "rounded in place, half away from zero as Excel's ROUND"
    );
    let paid = json!([
        {"invoiced": "2026-08-04", "paid": "2026-08-29"},
        {"invoiced": "2026-02-20", "paid": "2026/3/2"},
        {"invoiced": "2026-12-30", "paid": "2027-01-02"},
        {"invoiced": "2026-05-10", "paid": ""},
    ]);
    let out = h
        .ok(
            "transforms.add_columns",
            json!({"items": paid, "columns": [{"as": "days", "op": "difference", "of": ["paid", "invoiced"]}]}),
        )
        .await;
    let days: Vec<Value> = out["rows"].as_array().unwrap().iter().map(|r| r["days"].clone()).collect();
    assert_eq!(
        days,
        [json!(25), json!(10), json!(3), Value::Null],
        "a difference of two dates is the days between them"
    );
    let booked = json!([
        {"start": "09:00", "end": "10:30"},
        {"start": "8:45", "end": "９:１５"},
        {"start": "13:00:30", "end": "14:00:00"},
        {"start": "09:00", "end": "late"},
    ]);
    let out = h
        .ok(
            "transforms.add_columns",
            json!({"items": booked, "columns": [{"as": "minutes", "op": "difference", "of": ["end", "start"]}]}),
        )
        .await;
    let minutes: Vec<Value> = out["rows"].as_array().unwrap().iter().map(|r| r["minutes"].clone()).collect();
    assert_eq!(
        minutes,
        [json!(90), json!(30), json!(59.5), Value::Null],
        "a difference of two clock times is the minutes between them; a text is none"
    );
    let message = h
        .input_error(
            "transforms.add_columns",
            json!({"items": averages, "columns": [{"as": "avg", "op": "round", "of": ["avg"], "decimals": -1}]}),
        )
        .await;
    assert!(message.contains("decimals"), "{message}");
    let message = h
        .input_error(
            "transforms.add_columns",
            json!({"items": rows, "columns": [{"as": "x", "op": "label", "else": "none"}]}),
        )
        .await;
    assert!(message.contains("cases"), "{message}");
    let message = h
        .input_error(
            "transforms.add_columns",
            json!({"items": rows, "columns": [{"as": "x", "op": "month", "of": ["due"], "value": 2}]}),
        )
        .await;
    assert!(message.contains("only difference, sum, product, ratio and percent"), "{message}");
    let message = h
        .input_error(
            "transforms.add_columns",
            json!({"items": rows, "columns": [{"as": "x", "op": "label", "cases": [{"when": [{"field": "amout", "operator": "gt", "value": 1}], "then": "y"}]}]}),
        )
        .await;
    assert!(
        message.contains("amout") && message.contains("amount"),
        "a case's unknown column is named with the ones there are: {message}"
    );
}

#[tokio::test]
async fn round_goes_down_toward_zero_or_up_away_from_it_when_told() {
    let h = Harness::new();
    let amounts = json!([{"a": 0.29}, {"a": 1.1}, {"a": -2.57}, {"a": 1234.5}, {"a": 7}]);
    let out = h
        .ok(
            "transforms.add_columns",
            json!({"items": amounts, "columns": [
                {"as": "down", "op": "round", "of": ["a"], "decimals": 1, "rounding": "down"},
                {"as": "up", "op": "round", "of": ["a"], "decimals": 1, "rounding": "up"},
                {"as": "yen_down", "op": "round", "of": ["a"], "rounding": "down"},
                {"as": "yen_up", "op": "round", "of": ["a"], "rounding": "UP"},
            ]}),
        )
        .await;
    let directed: Vec<Vec<Value>> = out["rows"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| ["down", "up", "yen_down", "yen_up"].iter().map(|c| r[*c].clone()).collect())
        .collect();
    assert_eq!(
        directed,
        [
            [json!(0.2), json!(0.3), json!(0), json!(1)],
            [json!(1.1), json!(1.1), json!(1), json!(2)],
            [json!(-2.5), json!(-2.6), json!(-2), json!(-3)],
            [json!(1234.5), json!(1234.5), json!(1234), json!(1235)],
            [json!(7), json!(7), json!(7), json!(7)],
        ],
        "down is toward zero (ROUNDDOWN), up away from it (ROUNDUP); a number written in decimals is not cut below itself"
    );
    let message = h
        .input_error(
            "transforms.add_columns",
            json!({"items": amounts, "columns": [{"as": "a", "op": "round", "of": ["a"], "rounding": "sideways"}]}),
        )
        .await;
    assert!(message.contains("rounding") && message.contains("nearest, down"), "{message}");
    let message = h
        .input_error(
            "transforms.add_columns",
            json!({"items": amounts, "columns": [{"as": "m", "op": "month", "of": ["a"], "rounding": "down"}]}),
        )
        .await;
    assert!(message.contains("only round takes a `rounding`"), "{message}");
}

#[tokio::test]
async fn rank_numbers_rows_as_rank_eq_does_equal_numbers_sharing_a_rank() {
    let h = Harness::new();
    let totals = json!([{"t": 500}, {"t": "1,200"}, {"t": 500}, {"t": ""}, {"t": 90}, {"t": 1200.5}]);
    let out = h
        .ok(
            "transforms.add_columns",
            json!({"items": totals, "columns": [
                {"as": "順位", "op": "rank", "of": ["t"]},
                {"as": "from_smallest", "op": "rank", "of": ["t"], "order": "ascending"},
            ]}),
        )
        .await;
    let ranks: Vec<[Value; 2]> =
        out["rows"].as_array().unwrap().iter().map(|r| [r["順位"].clone(), r["from_smallest"].clone()]).collect();
    assert_eq!(
        ranks,
        [
            [json!(3), json!(2)],
            [json!(2), json!(4)],
            [json!(3), json!(2)],
            [Value::Null, Value::Null],
            [json!(5), json!(1)],
            [json!(1), json!(5)],
        ],
        "the largest ranks 1 (the smallest with ascending), equal numbers share a rank and the next is skipped; a blank has none"
    );
    let message = h
        .input_error(
            "transforms.add_columns",
            json!({"items": totals, "columns": [
                {"as": "r", "op": "rank", "of": ["t"]},
                {"as": "top", "op": "label", "cases": [{"when": [{"field": "r", "operator": "eq", "value": 1}], "then": "yes"}]},
            ]}),
        )
        .await;
    assert!(message.contains("later step") && message.contains("top"), "{message}");
    let message = h
        .input_error(
            "transforms.add_columns",
            json!({"items": totals, "columns": [{"as": "r", "op": "rank", "of": ["t"], "order": "biggest"}]}),
        )
        .await;
    assert!(message.contains("descending") && message.contains("ascending"), "{message}");
}

#[tokio::test]
async fn days_counts_from_a_date_to_another_or_to_a_date_written() {
    let h = Harness::new();
    let trips = json!([
        {"id": "T-1", "out": "2026-11-16", "back": "2026-11-18"},
        {"id": "T-2", "out": "2026/11/20", "back": "2026-11-20"},
        {"id": "T-3", "out": "", "back": "2026-11-21"},
    ]);
    let out = h
        .ok(
            "transforms.add_columns",
            json!({"items": trips, "columns": [
                {"as": "nights", "op": "days", "of": ["out", "back"]},
                {"as": "日数", "op": "days", "of": ["out", "back"], "inclusive": true},
                {"as": "age", "op": "days", "of": ["out"], "value": "2026-11-30"},
            ]}),
        )
        .await;
    let got: Vec<[Value; 3]> = out["rows"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| [r["nights"].clone(), r["日数"].clone(), r["age"].clone()])
        .collect();
    assert_eq!(
        got,
        [[json!(2), json!(3), json!(14)], [json!(0), json!(1), json!(10)], [Value::Null, Value::Null, Value::Null]],
        "calendar days to the second date or to the one written, both ends counted when inclusive; a blank date has none"
    );
    let message = h
        .input_error(
            "transforms.add_columns",
            json!({"items": trips, "columns": [{"as": "age", "op": "days", "of": ["out"], "value": "end of month"}]}),
        )
        .await;
    assert!(message.contains("date to count to"), "{message}");
    // A date less a day written: the days left until it, negative once past.
    let out = h
        .ok(
            "transforms.add_columns",
            json!({"items": trips, "columns": [{"as": "left", "op": "difference", "of": ["back"], "value": "2026-11-20"}]}),
        )
        .await;
    let left: Vec<Value> = out["rows"].as_array().unwrap().iter().map(|r| r["left"].clone()).collect();
    assert_eq!(left, [json!(-2), json!(0), json!(1)]);
    let message = h
        .input_error(
            "transforms.add_columns",
            json!({"items": trips, "columns": [{"as": "left", "op": "difference", "of": ["back"], "value": "soon"}]}),
        )
        .await;
    assert!(message.contains("the date taken away"), "{message}");
    let message = h
        .input_error(
            "transforms.add_columns",
            json!({"items": trips, "columns": [{"as": "x", "op": "difference", "of": ["out", "back"], "inclusive": true}]}),
        )
        .await;
    assert!(message.contains("`inclusive` is for days"), "{message}");
}

#[tokio::test]
async fn a_formula_column_computes_the_arithmetic_written_over_the_row_s_columns() {
    let h = Harness::new();
    let receipts = json!([
        {"明細": "M-01", "税込金額": "11,300", "税率": 10},
        {"明細": "M-02", "税込金額": 4320, "税率": 8},
        {"明細": "M-03", "税込金額": "", "税率": 10},
        {"明細": "M-04", "税込金額": 0.3, "税率": 0},
    ]);
    let out = h
        .ok(
            "transforms.add_columns",
            json!({"items": receipts, "columns": [
                {"as": "消費税額", "op": "formula", "formula": "[税込金額] × [税率] ÷ (100 + [税率])"},
                {"as": "税抜金額", "op": "formula", "formula": "[税込金額] - [消費税額]"},
                {"as": "比", "op": "formula", "formula": "[税込金額] / [税率]"},
            ]}),
        )
        .await;
    let rows = out["rows"].as_array().unwrap();
    let got: Vec<[Value; 3]> =
        rows.iter().map(|r| [r["消費税額"].clone(), r["税抜金額"].clone(), r["比"].clone()]).collect();
    assert_eq!(
        got,
        [
            [json!(1027.2727272727), json!(10272.7272727273), json!(1130)],
            [json!(320), json!(4000), json!(540)],
            [Value::Null, Value::Null, Value::Null],
            [json!(0), json!(0.3), Value::Null],
        ],
        "the usual order of signs and brackets; a later column reads an earlier one; a blank cell or a zero divisor gives none"
    );
    let message = h
        .input_error(
            "transforms.add_columns",
            json!({"items": receipts, "columns": [{"as": "x", "op": "formula", "formula": "[税込金額] * [税"}]}),
        )
        .await;
    assert!(message.contains("(x): `formula`") && message.contains("not closed"), "{message}");
    let message = h
        .input_error(
            "transforms.add_columns",
            json!({"items": receipts, "columns": [{"as": "x", "op": "formula", "formula": "[数量] * 2"}]}),
        )
        .await;
    assert!(message.contains("数量"), "a column the rows do not have is named: {message}");
}

#[tokio::test]
async fn fill_writes_a_value_where_a_cell_is_blank_in_place_or_as_a_new_column() {
    let h = Harness::new();
    let out = h
        .ok(
            "transforms.add_columns",
            json!({"items": payments(), "columns": [
                {"as": "vendor", "op": "fill", "of": ["vendor"], "value": "Unassigned"},
                {"as": "shown", "op": "fill", "of": ["vendor"], "value": "-"},
            ]}),
        )
        .await;
    let rows = out["rows"].as_array().unwrap();
    let vendors: Vec<&str> = rows.iter().map(|r| r["vendor"].as_str().unwrap()).collect();
    assert_eq!(
        vendors,
        [
            "Acme Supplies",
            "Blue Freight",
            "Acme Supplies ",
            "Unassigned",
            "Blue Freight",
            "Acme Supplies",
            "Unassigned"
        ],
        "a blank vendor becomes the value, a written one stays as it is"
    );
    assert_eq!(rows[3]["shown"], json!("Unassigned"), "a later column reads the filled one");
    let keys: Vec<&String> = rows[0].as_object().unwrap().keys().collect();
    assert_eq!(keys, ["date", "vendor", "amount", "reference", "shown"], "filled in place, where the column was");
    let message = h
        .input_error(
            "transforms.add_columns",
            json!({"items": payments(), "columns": [{"as": "v", "op": "fill", "of": ["vendor"]}]}),
        )
        .await;
    assert!(message.contains("fill needs a `value`"), "{message}");
}

#[tokio::test]
async fn append_stacks_tables_with_every_column() {
    let h = Harness::new();
    let out = h.ok("transforms.append", json!({"tables": [[{"a": 1, "b": 2}], [{"b": 3, "c": 4}, {"a": 5}]]})).await;
    assert_eq!(
        out["rows"],
        json!([{"a": 1, "b": 2, "c": null}, {"a": null, "b": 3, "c": 4}, {"a": 5, "b": null, "c": null}])
    );
    let message = h.input_error("transforms.append", json!({"tables": [[{"a": 1}], "january.csv"]})).await;
    assert!(message.contains("item 2") && message.contains("table"), "{message}");
}

#[tokio::test]
async fn append_says_which_table_each_row_came_from_in_a_first_column_when_asked() {
    let h = Harness::new();
    let tables = json!([[{"no": "H-1", "site": "old"}], [{"no": "F-1"}, {"no": "F-2"}]]);
    let out = h
        .ok("transforms.append", json!({"tables": tables, "source_column": "site", "sources": ["本社", "工場"]}))
        .await;
    assert_eq!(
        out["rows"],
        json!([{"site": "本社", "no": "H-1"}, {"site": "工場", "no": "F-1"}, {"site": "工場", "no": "F-2"}])
    );
    let keys: Vec<&String> = out["rows"][0].as_object().unwrap().keys().collect();
    assert_eq!(keys, ["site", "no"], "the source first");
    let message = h
        .input_error("transforms.append", json!({"tables": tables, "source_column": "site", "sources": ["本社"]}))
        .await;
    assert!(message.contains("one per table"), "{message}");
    let message = h.input_error("transforms.append", json!({"tables": tables, "source_column": "site"})).await;
    assert!(message.contains("sources"), "{message}");
}

#[tokio::test]
async fn one_sided_joins_give_the_rows_without_a_partner_as_they_are() {
    let h = Harness::new();
    let invoices = json!([
        {"invoice": "INV-1", "customer": "Acme", "amount": 100},
        {"invoice": "INV-2", "customer": "Blue", "amount": 200},
        {"invoice": "", "customer": "Cedar", "amount": 300},
    ]);
    let deposits = json!([
        {"invoice": " INV-1", "amount": 100},
        {"invoice": "INV-9", "amount": 50},
    ]);
    let left = h
        .ok(
            "transforms.join",
            json!({"left": invoices, "right": deposits, "left_key": "invoice", "right_key": "invoice", "strategy": "left_only"}),
        )
        .await;
    assert_eq!(
        left["rows"],
        json!([{"invoice": "INV-2", "customer": "Blue", "amount": 200}, {"invoice": "", "customer": "Cedar", "amount": 300}])
    );
    let right = h
        .ok(
            "transforms.join",
            json!({"left": invoices, "right": deposits, "left_key": "invoice", "right_key": "invoice", "strategy": "right_only"}),
        )
        .await;
    assert_eq!(right["rows"], json!([{"invoice": "INV-9", "amount": 50}]));
    let typed = json!([{"invoice": "inv-2 ", "amount": 200}]);
    let by_case = |ignore_case: bool| json!({"left": invoices, "right": typed, "left_key": "invoice", "right_key": "invoice", "strategy": "left_only", "ignore_case": ignore_case});
    let kept = h.ok("transforms.join", by_case(false)).await;
    assert_eq!(kept["rows"].as_array().unwrap().len(), 3, "keys differ in case: no match");
    let kept = h.ok("transforms.join", by_case(true)).await;
    assert_eq!(
        kept["rows"],
        json!([{"invoice": "INV-1", "customer": "Acme", "amount": 100}, {"invoice": "", "customer": "Cedar", "amount": 300}]),
        "a key typed in lower case matches, and the rows keep their own spelling"
    );
}

#[tokio::test]
async fn codes_a_spreadsheet_stored_as_numbers_match_their_zero_padded_text_only_when_asked() {
    let h = Harness::new();
    let senders = json!([
        {"code": "00102", "name": "Aoba"},
        {"code": "00215", "name": "Kita"},
        {"code": "0", "name": "Zero"},
    ]);
    let mourning = json!([{"code": 102}, {"code": "000"}]);
    let left_only = |zeros: bool| json!({"left": senders, "right": mourning, "left_key": "code", "right_key": "code", "strategy": "left_only", "ignore_leading_zeros": zeros});
    let names = |out: &serde_json::Map<String, Value>| -> Vec<String> {
        out["rows"].as_array().unwrap().iter().filter_map(|r| r["name"].as_str().map(str::to_owned)).collect()
    };
    let exact = h.ok("transforms.join", left_only(false)).await;
    assert_eq!(names(&exact), ["Aoba", "Kita", "Zero"], "00102 is not 102 unless told");
    let padded = h.ok("transforms.join", left_only(true)).await;
    assert_eq!(names(&padded), ["Kita"], "00102 is 102, and 000 is 0");
}

#[tokio::test]
async fn a_lookup_brings_only_the_columns_asked_for_from_the_list_looked_in() {
    let h = Harness::new();
    let bills = json!([
        {"bill": "B-1", "vendor_id": "V-1", "amount": 100},
        {"bill": "B-2", "vendor_id": "V-9", "amount": 200},
    ]);
    let suppliers = json!([
        {"vendor_id": "V-1", "name": "Acme", "terms": "Net 30", "email": "ap@acme.test"},
        {"vendor_id": "V-2", "name": "Blue", "terms": "Net 45", "email": "ap@blue.test"},
    ]);
    // The bills kept whole on the left, the suppliers looked in on the right.
    let left = h
        .ok(
            "transforms.join",
            json!({"left": bills, "right": suppliers, "left_key": "vendor_id", "right_key": "vendor_id",
                   "strategy": "left", "bring": ["name", "terms"]}),
        )
        .await;
    assert_eq!(
        left["rows"],
        json!([
            {"bill": "B-1", "vendor_id": "V-1", "amount": 100, "name": "Acme", "terms": "Net 30"},
            {"bill": "B-2", "vendor_id": "V-9", "amount": 200, "name": null, "terms": null},
        ])
    );
    // Kept whole on the right: the suppliers on the left are looked in.
    let right = h
        .ok(
            "transforms.join",
            json!({"left": suppliers, "right": bills, "left_key": "vendor_id", "right_key": "vendor_id",
                   "strategy": "right", "bring": ["terms"]}),
        )
        .await;
    assert_eq!(
        right["rows"],
        json!([
            {"vendor_id": "V-1", "terms": "Net 30", "bill": "B-1", "amount": 100},
            {"vendor_id": "V-9", "terms": null, "bill": "B-2", "amount": 200},
        ])
    );
    let error = h
        .input_error(
            "transforms.join",
            json!({"left": bills, "right": suppliers, "left_key": "vendor_id", "right_key": "vendor_id",
                   "strategy": "left", "bring": ["phone"]}),
        )
        .await;
    assert!(error.contains("`bring`") && error.contains("phone") && error.contains("terms"), "{error}");
}

#[tokio::test]
async fn a_month_is_written_in_the_form_shown_and_months_sort_in_calendar_order() {
    let h = Harness::new();
    let rows = json!([{"date": "2026-10-05"}, {"date": "2026/9/30"}, {"date": "2027-01-02"}]);
    let out = h
        .ok(
            "transforms.add_columns",
            json!({"items": rows, "columns": [
                {"as": "ja", "op": "month", "of": ["date"], "form": "2026年9月"},
                {"as": "ja_padded", "op": "month", "of": ["date"], "form": "2026年09月"},
                {"as": "slashed", "op": "month", "of": ["date"], "form": "2026/09"},
            ]}),
        )
        .await;
    let rows = out["rows"].clone();
    assert_eq!(rows[1]["ja"], json!("2026年9月"));
    assert_eq!(rows[1]["ja_padded"], json!("2026年09月"));
    assert_eq!(rows[0]["slashed"], json!("2026/10"));
    // 「2026年9月」 comes before 「2026年10月」, though not as text.
    let sorted = h.ok("transforms.sort", json!({"items": rows, "by": [{"column": "ja", "order": "asc"}]})).await;
    let months: Vec<&str> = sorted["rows"].as_array().unwrap().iter().map(|r| r["ja"].as_str().unwrap()).collect();
    assert_eq!(months, ["2026年9月", "2026年10月", "2027年1月"]);
    let message = h
        .input_error(
            "transforms.add_columns",
            json!({"items": rows, "columns": [{"as": "m", "op": "month", "of": ["date"], "form": "Sept 2026"}]}),
        )
        .await;
    assert!(message.contains("form") && message.contains("2026年9月"), "{message}");
    let message = h
        .input_error(
            "transforms.add_columns",
            json!({"items": rows, "columns": [{"as": "y", "op": "year", "of": ["date"], "form": "2026"}]}),
        )
        .await;
    assert!(message.contains("only month takes a `form`"), "{message}");
}
