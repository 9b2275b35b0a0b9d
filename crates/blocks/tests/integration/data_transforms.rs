//! `transforms.filter`, `transforms.pick`, `transforms.group_by_agg`, `transforms.join`.

use crate::data_common;

use data_common::Harness;
use planwright_block::BlockError;
use planwright_runs::RunMessage;
use serde_json::{json, Value};

fn invoices() -> Value {
    json!([
        {"請求番号": "INV-2024-0401", "取引先": "株式会社山田商事", "金額": 132000, "ステータス": "未入金", "請求日": "2024-04-05"},
        {"請求番号": "INV-2024-0402", "取引先": "東和物流株式会社", "金額": "88,000", "ステータス": "入金済", "請求日": "2024/4/10"},
        {"請求番号": "INV-2024-0403", "取引先": "有限会社みどり企画", "金額": "２６４０００", "ステータス": "未入金", "請求日": "2024-04-18"},
        {"請求番号": "INV-2024-0404", "取引先": "株式会社北斗システム", "金額": " 55000 ", "ステータス": "未入金 ", "請求日": "2024-05-01"},
        {"請求番号": "INV-2024-0405", "取引先": "株式会社山田商事", "金額": "¥1,200", "ステータス": "一部入金", "請求日": "2024-05-31"},
    ])
}

/// The 請求番号 of the rows kept by one condition.
async fn kept(h: &Harness, condition: Value) -> Vec<String> {
    let out = h.ok("transforms.filter", json!({"items": invoices(), "conditions": [condition]})).await;
    let total = out["summary"]["total"].as_u64().unwrap();
    let kept = out["summary"]["kept"].as_u64().unwrap();
    assert_eq!(total, 5);
    assert_eq!(kept + out["summary"]["excluded"].as_u64().unwrap(), total);
    assert_eq!(out["filtered"].as_array().unwrap().len() as u64, kept);
    out["filtered"].as_array().unwrap().iter().map(|r| r["請求番号"].as_str().unwrap()[11..].to_string()).collect()
}

#[tokio::test]
async fn every_operator() {
    let h = Harness::new();
    let cases = [
        (json!({"field": "ステータス", "operator": "eq", "value": "未入金"}), vec!["01", "03", "04"]),
        (json!({"field": "ステータス", "operator": "ne", "value": "未入金"}), vec!["02", "05"]),
        (json!({"field": "金額", "operator": "eq", "value": 88000}), vec!["02"]),
        (json!({"field": "金額", "operator": "eq", "value": "264,000"}), vec!["03"]),
        (json!({"field": "金額", "operator": "gt", "value": 88000}), vec!["01", "03"]),
        (json!({"field": "金額", "operator": "gte", "value": 88000}), vec!["01", "02", "03"]),
        (json!({"field": "金額", "operator": "lt", "value": "55,000"}), vec!["05"]),
        (json!({"field": "金額", "operator": "lte", "value": "５５０００"}), vec!["04", "05"]),
        (json!({"field": "取引先", "operator": "contains", "value": "山田"}), vec!["01", "05"]),
        (
            json!({"field": "請求番号", "operator": "contains", "value": "inv-2024-040"}),
            vec!["01", "02", "03", "04", "05"],
        ),
        (json!({"field": "ステータス", "operator": "in", "value": ["入金済", "一部入金"]}), vec!["02", "05"]),
        (json!({"field": "金額", "operator": "in", "value": [1200, 55000]}), vec!["04", "05"]),
        (json!({"field": "金額", "operator": "between", "value": 55000, "value2": 132000}), vec!["01", "02", "04"]),
        (
            json!({"field": "請求日", "operator": "between", "value": "2024-04-01", "value2": "2024-04-30"}),
            vec!["01", "02", "03"],
        ),
        (json!({"field": "請求日", "operator": "gte", "value": "2024-05-01"}), vec!["04", "05"]),
        (json!({"field": "請求日", "operator": "lt", "value": "2024-04-10"}), vec!["01"]),
    ];
    for (condition, expected) in cases {
        assert_eq!(kept(&h, condition.clone()).await, expected, "{condition}");
    }
}

#[tokio::test]
async fn a_condition_compares_with_another_column_of_the_row() {
    let h = Harness::new();
    let rows = json!([
        {"id": "a", "billed": "1,200", "paid": 1200},
        {"id": "b", "billed": 900, "paid": "850"},
        {"id": "c", "billed": 500, "paid": null},
        {"id": "d", "billed": "n/a", "paid": 10},
    ]);
    let ids = |out: &planwright_block::Values| -> Vec<String> {
        out["filtered"].as_array().unwrap().iter().map(|r| r["id"].as_str().unwrap().to_owned()).collect()
    };
    let differs = h
        .ok(
            "transforms.filter",
            json!({"items": rows, "conditions": [{"field": "paid", "operator": "ne", "column": "billed"}]}),
        )
        .await;
    assert_eq!(ids(&differs), ["b", "c", "d"], "1,200 and 1200 are the same amount");
    let short = h
        .ok(
            "transforms.filter",
            json!({"items": rows, "conditions": [{"field": "paid", "operator": "lt", "column": "billed"}]}),
        )
        .await;
    assert_eq!(ids(&short), ["b"], "a blank or unreadable side is not less");
    let message = h
        .input_error(
            "transforms.filter",
            json!({"items": rows, "conditions": [{"field": "paid", "operator": "ne", "column": "billd"}]}),
        )
        .await;
    assert!(message.contains("billd") && message.contains("billed"), "{message}");
    let message = h
        .input_error(
            "transforms.filter",
            json!({"items": rows, "conditions": [{"field": "paid", "operator": "between", "column": "billed"}]}),
        )
        .await;
    assert!(message.contains("not a column"), "{message}");
}

#[tokio::test]
async fn all_conditions_must_hold_and_order_is_kept() {
    let h = Harness::new();
    let out = h
        .ok(
            "transforms.filter",
            json!({"items": invoices(), "conditions": [
                {"field": "ステータス", "operator": "eq", "value": "未入金"},
                {"field": "金額", "operator": "gte", "value": 100000}
            ]}),
        )
        .await;
    let ids: Vec<&str> = out["filtered"].as_array().unwrap().iter().map(|r| r["請求番号"].as_str().unwrap()).collect();
    assert_eq!(ids, ["INV-2024-0401", "INV-2024-0403"]);
    let ids: Vec<&str> = out["excluded"].as_array().unwrap().iter().map(|r| r["請求番号"].as_str().unwrap()).collect();
    assert_eq!(ids, ["INV-2024-0402", "INV-2024-0404", "INV-2024-0405"]);
    assert_eq!(out["summary"], json!({"total": 5, "kept": 2, "excluded": 3}));
    assert_eq!(out["filtered"][1]["金額"], "２６４０００", "rows come back as they were");
    let out = h.ok("transforms.filter", json!({"items": invoices(), "conditions": []})).await;
    assert_eq!(out["summary"]["kept"], 5);
}

#[tokio::test]
async fn blanks_and_text_that_is_not_a_number() {
    let h = Harness::new();
    let items = json!([
        {"id": 1, "amount": "N/A", "memo": null},
        {"id": 2, "amount": "", "memo": "x"},
        {"id": 3, "amount": 10},
        {"id": 4, "amount": "1,0"},
    ]);
    let run = |conditions: Value| {
        let items = items.clone();
        let h = &h;
        async move {
            let out = h.ok("transforms.filter", json!({"items": items, "conditions": conditions})).await;
            out["filtered"].as_array().unwrap().iter().map(|r| r["id"].as_i64().unwrap()).collect::<Vec<_>>()
        }
    };
    assert_eq!(run(json!([{"field": "amount", "operator": "gte", "value": 0}])).await, [3]);
    assert!(h.events.warnings().iter().any(|w| w.contains("cannot be compared") && w.contains("N/A")));
    assert_eq!(run(json!([{"field": "memo", "operator": "eq", "value": null}])).await, [1, 3, 4]);
    assert_eq!(run(json!([{"field": "amount", "operator": "eq", "value": ""}])).await, [2]);
    assert_eq!(run(json!([{"field": "memo", "operator": "ne", "value": "x"}])).await, [1, 3, 4]);
}

#[tokio::test]
async fn filter_input_errors_say_what_to_fix() {
    let h = Harness::new();
    let cases = [
        (json!([{"field": "金額x", "operator": "eq", "value": 1}]), "no row has a column `金額x`"),
        (json!([{"field": "ｽﾃｰﾀｽ", "operator": "eq", "value": 1}]), "did you mean `ステータス`"),
        (json!([{"field": "金額", "operator": "like", "value": 1}]), "eq, ne, gt"),
        (json!([{"field": "金額", "value": 1}]), "no `operator`"),
        (json!([{"operator": "eq", "value": 1}]), "no `field`"),
        (json!([{"field": "金額", "operator": "gt"}]), "no `value`"),
        (json!([{"field": "金額", "operator": "in", "value": "a,b"}]), "must be a list"),
        (json!([{"field": "金額", "operator": "between", "value": 1}]), "value2"),
        (json!([{"field": "金額", "operator": "between", "value": 10, "value2": 1}]), "after `value2`"),
        (json!([{"field": "金額", "operator": "between", "value": 10, "value2": "2024-01-01"}]), "cannot be compared"),
        (json!(["金額 > 5"]), "`conditions` item 1"),
        (json!([{"field": "ステータス", "operator": "eq", "value": ["未入金"]}]), "use operator in"),
    ];
    for (conditions, expected) in cases {
        let message = h.input_error("transforms.filter", json!({"items": invoices(), "conditions": conditions})).await;
        assert!(message.contains(expected), "{conditions}: {message}");
    }
    let message = h.input_error("transforms.filter", json!({"items": [1, 2], "conditions": []})).await;
    assert!(message.contains("`items` item 0"), "{message}");
    let message =
        h.input_error("transforms.filter", json!({"items": {"rows": [], "summary": {}}, "conditions": []})).await;
    assert!(message.contains("${step.rows}"), "{message}");
}

#[tokio::test]
async fn group_sums_numeric_looking_text() {
    let h = Harness::new();
    let out = h
        .ok(
            "transforms.group_by_agg",
            json!({"items": invoices(), "by": ["取引先"], "aggregations": [
                {"field": "金額", "op": "sum", "as": "合計金額"},
                {"op": "count", "as": "件数"},
                {"field": "金額", "op": "avg"},
                {"field": "金額", "op": "min"},
                {"field": "請求日", "op": "max"}
            ]}),
        )
        .await;
    assert_eq!(
        out["rows"],
        json!([
            {"取引先": "株式会社山田商事", "合計金額": 133200, "件数": 2, "金額_avg": 66600, "金額_min": 1200, "請求日_max": "2024-05-31"},
            {"取引先": "東和物流株式会社", "合計金額": 88000, "件数": 1, "金額_avg": 88000, "金額_min": 88000, "請求日_max": "2024/4/10"},
            {"取引先": "有限会社みどり企画", "合計金額": 264000, "件数": 1, "金額_avg": 264000, "金額_min": 264000, "請求日_max": "2024-04-18"},
            {"取引先": "株式会社北斗システム", "合計金額": 55000, "件数": 1, "金額_avg": 55000, "金額_min": 55000, "請求日_max": "2024-05-01"},
        ])
    );
    assert_eq!(out["summary"], json!({"input_rows": 5, "groups": 4}));
}

#[tokio::test]
async fn no_by_gives_one_total_row() {
    let h = Harness::new();
    let items = json!([{"金額": "1,200"}, {"金額": "1,200"}, {"金額": "１，２００"}, {"金額": null}, {"金額": "0.1"}, {"金額": 0.2}]);
    let out = h
        .ok(
            "transforms.group_by_agg",
            json!({"items": items, "by": [], "aggregations": [
                {"field": "金額", "op": "sum"}, {"op": "count"}, {"field": "金額", "op": "count"}, {"field": "金額", "op": "max"}
            ]}),
        )
        .await;
    assert_eq!(out["rows"], json!([{"金額_sum": 3600.3, "count": 6, "金額_count": 5, "金額_max": 1200}]));
    assert_eq!(out["summary"], json!({"input_rows": 6, "groups": 1}));
    let out = h
        .ok("transforms.group_by_agg", json!({"items": [], "by": [], "aggregations": [{"field": "x", "op": "sum"}, {"field": "x", "op": "avg"}, {"op": "count"}]}))
        .await;
    assert_eq!(out["rows"], json!([{"x_sum": 0, "x_avg": null, "count": 0}]));
}

/// Amounts in cents whose total a sum of doubles misses by a cent (33549260755771.74): the
/// grouping adds them exactly.
#[tokio::test]
async fn sums_of_amounts_in_cents_are_exact_to_the_cent() {
    let amounts = [
        "940964324912.08",
        "229944532028.63",
        "597189547844.60",
        "519410398235.26",
        "632979068556.03",
        "574120618637.77",
        "945087558021.00",
        "592614851160.34",
        "983567286526.29",
        "131428120979.02",
        "813073860281.69",
        "520396698329.87",
        "896381926645.03",
        "342784319676.97",
        "707719886100.29",
        "354887842432.86",
        "934163312809.58",
        "421917438711.02",
        "713820705008.82",
        "302292960831.80",
        "898831891248.37",
        "916563004656.42",
        "894120449492.91",
        "568010604462.64",
        "309037370698.38",
        "745465549587.63",
        "531666907077.75",
        "138024582216.61",
        "917086346467.51",
        "831923905397.22",
        "702872206289.89",
        "842066572248.94",
        "196098617743.56",
        "661196566534.13",
        "279437044707.66",
        "533104294014.47",
        "905262102012.03",
        "149260354920.39",
        "778532624571.75",
        "531979976205.82",
        "285415237966.64",
        "946161392205.25",
        "704990337892.29",
        "664377836195.44",
        "489028666446.58",
        "395965144161.84",
        "768073557096.93",
        "520931315521.94",
        "991259400728.16",
        "956926198169.71",
        "569033987728.07",
        "724336787308.70",
        "553139323987.62",
        "494335342079.53",
    ];
    let items: Vec<Value> = amounts.iter().map(|a| json!({"amount": a})).collect();
    let h = Harness::new();
    let out = h
        .ok(
            "transforms.group_by_agg",
            json!({"items": items, "by": [], "aggregations": [{"field": "amount", "op": "sum"}]}),
        )
        .await;
    assert_eq!(out["rows"][0]["amount_sum"].to_string(), "33549260755771.73");
}

#[tokio::test]
async fn what_a_person_reads_of_a_filter_a_grouping_or_a_pick_is_coded() {
    let h = Harness::new();
    let refused = h
        .run(
            "transforms.filter",
            json!({"items": invoices(), "conditions": [{"field": "金額x", "operator": "eq", "value": 1}]}),
        )
        .await;
    let Err(BlockError::Input(reason)) = refused else { panic!("{refused:?}") };
    let said = reason.said.as_deref();
    assert!(
        matches!(said, Some(RunMessage::ConditionColumnMissing { condition: 1, field, column, columns })
            if field == "金額x" && column == "金額x" && columns.contains("金額") && columns.contains("ステータス")),
        "{reason:?}"
    );
    // Said in Japanese with no English of its own ("condition 1 (金額x eq)" is the English text's).
    let japanese = said.and_then(|s| s.say(planwright_runs::said::Lang::Ja)).unwrap();
    assert!(japanese.starts_with("条件 1（「金額x」）: 列「金額x」を持つ行がありません。"), "{japanese}");
    let refused = h
        .run(
            "transforms.group_by_agg",
            json!({"items": invoices(), "by": ["取引先"], "aggregations": [{"op": "count"}, {"field": "金額x", "op": "sum"}]}),
        )
        .await;
    let Err(BlockError::Input(reason)) = refused else { panic!("{refused:?}") };
    assert!(
        matches!(reason.said.as_deref(), Some(RunMessage::AggregationColumnMissing { aggregation: 2, column, .. }) if column == "金額x"),
        "{reason:?}"
    );
    h.ok(
        "transforms.filter",
        json!({"items": invoices(), "conditions": [{"field": "ステータス", "operator": "eq", "value": "未入金"}]}),
    )
    .await;
    h.ok("transforms.group_by_agg", json!({"items": invoices(), "by": ["取引先"], "aggregations": [{"op": "count"}]}))
        .await;
    let said = h.events.logs_said.lock().unwrap().clone();
    assert!(said.contains(&Some(RunMessage::RowsKept { kept: 3, total: 5 })), "{said:?}");
    assert!(said.contains(&Some(RunMessage::RowsGrouped { rows: 5, groups: 4 })), "{said:?}");
    for (path, coded) in [
        (
            "0.取引先x",
            RunMessage::KeyMissing {
                path: "0.取引先x".into(),
                key: "取引先x".into(),
                keys: "請求番号, 取引先, 金額, ステータス, 請求日".into(),
            },
        ),
        ("9.金額", RunMessage::ItemMissing { path: "9.金額".into(), item: "9".into(), count: 5 }),
    ] {
        let refused = h.run("transforms.pick", json!({"source": invoices(), "path": path})).await;
        let Err(BlockError::Input(reason)) = refused else { panic!("{refused:?}") };
        assert_eq!(reason.said.as_deref(), Some(&coded), "{reason:?}");
    }
}

#[tokio::test]
async fn groups_by_several_columns_with_folded_keys_and_warns_on_text() {
    let h = Harness::new();
    let items = json!([
        {"取引先": "山田商事", "月": "2024-04", "金額": 100},
        {"取引先": "山田商事 ", "月": "2024-04", "金額": "200"},
        {"取引先": "ﾄｳﾜ", "月": "2024-04", "金額": "N/A"},
        {"取引先": "トウワ", "月": "2024-05", "金額": 50},
        {"取引先": "山田商事", "月": "2024-05", "金額": 1},
        {"月": "2024-05", "金額": 7},
    ]);
    let out = h
        .ok(
            "transforms.group_by_agg",
            json!({"items": items, "by": ["取引先", "月"], "aggregations": [{"field": "金額", "op": "sum"}]}),
        )
        .await;
    assert_eq!(
        out["rows"],
        json!([
            {"取引先": "山田商事", "月": "2024-04", "金額_sum": 300},
            {"取引先": "ﾄｳﾜ", "月": "2024-04", "金額_sum": 0},
            {"取引先": "トウワ", "月": "2024-05", "金額_sum": 50},
            {"取引先": "山田商事", "月": "2024-05", "金額_sum": 1},
            {"取引先": null, "月": "2024-05", "金額_sum": 7},
        ])
    );
    assert!(h.events.warnings().iter().any(|w| w.contains("N/A")), "{:?}", h.events.warnings());
}

#[tokio::test]
async fn an_aggregation_with_when_counts_and_adds_only_the_rows_that_meet_it() {
    let h = Harness::new();
    let results = json!([
        {"機能": "ログイン", "結果": "合格", "秒": 3},
        {"機能": "ログイン", "結果": "不合格", "秒": 5},
        {"機能": "検索", "結果": "不合格", "秒": 7},
        {"機能": "ログイン", "結果": "合格", "秒": 4},
        {"機能": "検索", "結果": "スキップ", "秒": ""},
    ]);
    let out = h
        .ok(
            "transforms.group_by_agg",
            json!({"items": results, "by": ["機能"], "aggregations": [
                {"op": "count", "as": "件数"},
                {"op": "count", "as": "合格数", "when": [{"field": "結果", "operator": "eq", "value": "合格"}]},
                {"field": "秒", "op": "sum", "as": "合格秒", "when": [{"field": "結果", "operator": "eq", "value": "合格"}]},
                {"field": "秒", "op": "avg", "as": "合格平均", "when": [{"field": "結果", "operator": "eq", "value": "合格"}]},
            ]}),
        )
        .await;
    assert_eq!(
        out["rows"],
        json!([
            {"機能": "ログイン", "件数": 3, "合格数": 2, "合格秒": 7, "合格平均": 3.5},
            {"機能": "検索", "件数": 2, "合格数": 0, "合格秒": 0, "合格平均": null},
        ]),
        "each aggregation reads only its group's rows that meet its conditions; a group with none counts 0"
    );
    let message = h
        .input_error(
            "transforms.group_by_agg",
            json!({"items": results, "by": ["機能"], "aggregations": [
                {"op": "count", "as": "合格数", "when": [{"field": "結杲", "operator": "eq", "value": "合格"}]},
            ]}),
        )
        .await;
    assert!(message.contains("結杲") && message.contains("結果"), "an unknown column of `when` is named: {message}");
    let message = h
        .input_error(
            "transforms.group_by_agg",
            json!({"items": results, "by": ["機能"], "aggregations": [{"op": "count", "as": "n", "when": "結果=合格"}]}),
        )
        .await;
    assert!(message.contains("`when`") && message.contains("conditions"), "{message}");
}

#[tokio::test]
async fn group_input_errors() {
    let h = Harness::new();
    let cases = [
        (json!({"by": ["取引"], "aggregations": [{"op": "count"}]}), "did you mean"),
        (json!({"by": ["取引先"], "aggregations": [{"field": "金額", "op": "total"}]}), "sum, count, avg, min, max"),
        (json!({"by": ["取引先"], "aggregations": [{"op": "sum"}]}), "has no `field`"),
        (
            json!({"by": ["取引先"], "aggregations": [{"field": "金額", "op": "sum"}, {"field": "金額", "op": "sum"}]}),
            "two aggregations",
        ),
        (json!({"by": ["取引先"], "aggregations": [{"op": "count", "as": "取引先"}]}), "also a `by` column"),
        (json!({"by": 5, "aggregations": []}), "`by`"),
        (json!({"by": ["取引先"], "aggregations": {"op": "sum"}}), "`aggregations`"),
    ];
    for (inputs, expected) in cases {
        let mut inputs = inputs;
        inputs["items"] = invoices();
        let message = h.input_error("transforms.group_by_agg", inputs.clone()).await;
        assert!(message.contains(expected), "{inputs}: {message}");
    }
}

fn payments() -> Value {
    json!([
        {"請求番号": "INV-2024-0401", "入金日": "2024-04-26", "金額": 132000},
        {"請求番号": " inv-2024-0402", "入金日": "2024-04-27", "金額": 1},
        {"請求番号": "ＩＮＶ－２０２４－０４０３ ", "入金日": "2024-04-30", "金額": 264000},
        {"請求番号": "INV-2024-0999", "入金日": "2024-04-30", "金額": 5000},
    ])
}

async fn join(h: &Harness, strategy: &str) -> Values {
    h.ok(
        "transforms.join",
        json!({"left": invoices(), "right": payments(), "left_key": "請求番号", "right_key": "請求番号", "strategy": strategy}),
    )
    .await
}

use planwright_block::Values;

fn ids(out: &Values, column: &str) -> Vec<Value> {
    out["rows"].as_array().unwrap().iter().map(|r| r[column].clone()).collect()
}

#[tokio::test]
async fn join_strategies() {
    let h = Harness::new();
    let inner = join(&h, "inner").await;
    assert_eq!(
        ids(&inner, "請求番号"),
        [json!("INV-2024-0401"), json!("INV-2024-0403")],
        "case is kept, widths folded"
    );
    assert_eq!(inner["summary"], json!({"rows": 2, "matched": 2, "left_only": 3, "right_only": 2}));
    assert_eq!(
        inner["rows"][0],
        json!({"請求番号": "INV-2024-0401", "取引先": "株式会社山田商事", "金額": 132000, "ステータス": "未入金",
               "請求日": "2024-04-05", "入金日": "2024-04-26", "金額_right": 132000})
    );

    let left = join(&h, "left").await;
    assert_eq!(left["summary"], json!({"rows": 5, "matched": 2, "left_only": 3, "right_only": 2}));
    assert_eq!(left["rows"][1]["入金日"], Value::Null);
    assert_eq!(left["rows"][1]["金額_right"], Value::Null);

    let right = join(&h, "right").await;
    assert_eq!(right["summary"], json!({"rows": 4, "matched": 2, "left_only": 3, "right_only": 2}));
    assert_eq!(
        ids(&right, "請求番号"),
        [json!("INV-2024-0401"), json!(" inv-2024-0402"), json!("INV-2024-0403"), json!("INV-2024-0999")],
        "right rows in order; an unmatched right key fills the shared key column"
    );
    assert_eq!(right["rows"][3]["取引先"], Value::Null);
    assert_eq!(right["rows"][3]["金額_right"], 5000);

    let outer = join(&h, "outer").await;
    assert_eq!(outer["summary"], json!({"rows": 7, "matched": 2, "left_only": 3, "right_only": 2}));
    assert_eq!(outer["rows"][6]["請求番号"], "INV-2024-0999");
    // Every row has the same columns.
    let columns: Vec<Vec<&String>> =
        outer["rows"].as_array().unwrap().iter().map(|r| r.as_object().unwrap().keys().collect()).collect();
    assert!(columns.windows(2).all(|w| w[0] == w[1]));
}

#[tokio::test]
async fn join_keys_compare_as_trimmed_text() {
    let h = Harness::new();
    let out = h
        .ok(
            "transforms.join",
            json!({
                "left": [{"id": 1001, "name": "a"}, {"id": "1002", "name": "b"}, {"id": "", "name": "blank"}, {"name": "none"}],
                "right": [{"code": "1001 ", "id": "R1"}, {"code": 1002.0, "id": "R2"}, {"code": "", "id": "R3"}, {"code": 1002, "id": "R4"}],
                "left_key": "id", "right_key": "code", "strategy": "outer"
            }),
        )
        .await;
    assert_eq!(
        out["rows"],
        json!([
            {"id": 1001, "name": "a", "code": "1001 ", "id_right": "R1"},
            {"id": "1002", "name": "b", "code": 1002.0, "id_right": "R2"},
            {"id": "1002", "name": "b", "code": 1002, "id_right": "R4"},
            {"id": "", "name": "blank", "code": null, "id_right": null},
            {"id": null, "name": "none", "code": null, "id_right": null},
            {"id": null, "name": null, "code": "", "id_right": "R3"},
        ])
    );
    assert_eq!(out["summary"], json!({"rows": 6, "matched": 3, "left_only": 2, "right_only": 1}));
    assert!(h.events.warnings().iter().any(|w| w.contains("1002")), "{:?}", h.events.warnings());
}

#[tokio::test]
async fn join_collision_names_and_errors() {
    let h = Harness::new();
    let out = h
        .ok(
            "transforms.join",
            json!({"left": [{"k": 1, "x": "L", "x_right": "L2"}], "right": [{"k": 1, "x": "R"}],
                   "left_key": "k", "right_key": "k"}),
        )
        .await;
    assert_eq!(out["rows"], json!([{"k": 1, "x": "L", "x_right": "L2", "x_right_2": "R"}]));
    let message = h
        .input_error(
            "transforms.join",
            json!({"left": [{"k": 1}], "right": [{"k": 1}], "left_key": "k", "right_key": "key"}),
        )
        .await;
    assert!(message.contains("`right_key`") && message.contains("`key`"), "{message}");
    let message = h
        .input_error(
            "transforms.join",
            json!({"left": [{"k": 1}], "right": [{"k": 1}], "left_key": "k", "right_key": "k", "strategy": "full"}),
        )
        .await;
    assert!(message.contains("inner, left, right, outer"), "{message}");
    // Empty sides are fine.
    let out = h
        .ok(
            "transforms.join",
            json!({"left": [], "right": [{"k": 1}], "left_key": "k", "right_key": "k", "strategy": "outer"}),
        )
        .await;
    assert_eq!(out["rows"], json!([{"k": 1}]));
}

#[tokio::test]
async fn pick_by_path() {
    let h = Harness::new();
    let source = json!({
        "rows": [{"取引先": "株式会社山田商事", "合計金額": 264000, "No.": 7, "memo": null}, {"取引先": "東和物流株式会社"}],
        "summary": {"groups": 2}
    });
    let pick = |path: &str| {
        let source = source.clone();
        let path = path.to_string();
        let h = &h;
        async move { h.run("transforms.pick", json!({"source": source, "path": path})).await }
    };
    assert_eq!(pick("rows.0.合計金額").await.unwrap()["value"], 264000);
    assert_eq!(pick("summary.groups").await.unwrap()["value"], 2);
    assert_eq!(pick("rows.-1.取引先").await.unwrap()["value"], "東和物流株式会社");
    assert_eq!(pick("rows.0.No.").await.unwrap()["value"], 7, "keys with dots");
    assert_eq!(pick("rows.0.memo").await.unwrap()["value"], Value::Null, "present but null");
    assert_eq!(pick("rows").await.unwrap()["value"], source["rows"]);
    let out = h.ok("transforms.pick", json!({"source": [10, 20], "path": "1"})).await;
    assert_eq!(out["value"], 20);
}

#[tokio::test]
async fn pick_fails_clearly_when_nothing_is_there() {
    let h = Harness::new();
    let source = json!({"rows": [{"合計金額": 264000}], "summary": {"groups": 1}, "empty": []});
    let cases = [
        ("rows.5.合計金額", "has 1 items (0 to 0); there is no item 5"),
        ("rows.0.合計", "`rows.0` has no `合計`"),
        ("rows.first", "must be a number"),
        ("summary.groups.x", "the number 1, which has no `x`"),
        ("total", "its keys are: rows, summary, empty"),
        ("empty.0", "is an empty list"),
        ("", "`path` is empty"),
    ];
    for (path, expected) in cases {
        let message = h.input_error("transforms.pick", json!({"source": source, "path": path})).await;
        assert!(message.contains(expected), "{path}: {message}");
    }
    let message = h.input_error("transforms.pick", json!({"path": "a"})).await;
    assert!(message.contains("`source`"), "{message}");
}
