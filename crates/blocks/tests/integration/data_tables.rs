//! The transforms, `report.write` (CSV) and `excel.write` read a run's table by its handle (as the engine gives
//! them `file.read_csv`'s) exactly as they read its rows: for any CSV text and any conditions,
//! aggregations, sort keys, key columns or column choices, the outputs, the log lines, the errors
//! and the file written are the same (a CSV report of a table without rows keeps its header).

use crate::data_common;

use data_common::Harness;
use proptest::prelude::*;
use serde_json::{json, Value};

/// Cells as ledgers write them: plain numbers, decimals, amounts with separators and signs,
/// full-width digits, blanks, dates and words.
fn cell() -> impl Strategy<Value = String> {
    prop_oneof![
        (0i64..5000).prop_map(|n| n.to_string()),
        (0i64..500_000).prop_map(|n| format!("{}.{:02}", n / 100, n % 100)),
        (-500i64..500).prop_map(|n| format!("{n}.5")),
        Just("1,200".to_owned()),
        Just("¥13,200".to_owned()),
        Just("△500".to_owned()),
        Just("１２００".to_owned()),
        Just(String::new()),
        Just(" 42 ".to_owned()),
        Just("2026-04-01".to_owned()),
        Just("approved".to_owned()),
        Just("Approved ".to_owned()),
        Just("ＡＰＰＲＯＶＥＤ".to_owned()),
        Just("pending".to_owned()),
        Just("経理".to_owned()),
        Just("0042".to_owned()),
    ]
}

/// A CSV file of columns `status`, `amount`, `dept` (each column's cells drawn from its own mix,
/// so that some columns are all numbers and are stored as numbers).
fn csv_text() -> impl Strategy<Value = String> {
    ledger_csv(prop_oneof![3 => decimal_amount(), 2 => whole_amount(), 1 => cell()])
}

fn decimal_amount() -> impl Strategy<Value = String> + Clone {
    (0i64..100_000).prop_map(|n| format!("{}.{:02}", n / 100, n % 100))
}

fn whole_amount() -> impl Strategy<Value = String> + Clone {
    (0i64..5000).prop_map(|n| n.to_string())
}

/// [`csv_text`] with the amounts drawn from `amount`.
fn ledger_csv(amount: impl Strategy<Value = String>) -> impl Strategy<Value = String> {
    let row = (prop::sample::select(vec!["approved", "pending", "Approved ", "", "rejected"]), amount, cell());
    prop::collection::vec(row, 0..40).prop_map(|rows| {
        let mut text = String::from("status,amount,dept\n");
        for (status, amount, dept) in rows {
            let quote = |s: &str| format!("\"{}\"", s.replace('"', "\"\""));
            text.push_str(&format!("{},{},{}\n", quote(status), quote(&amount), quote(&dept)));
        }
        text
    })
}

fn condition() -> impl Strategy<Value = Value> {
    let field = prop::sample::select(vec!["status", "amount", "dept", "missing"]);
    let op = prop::sample::select(vec!["eq", "ne", "gt", "gte", "lt", "lte", "contains", "in"]);
    (field, op, cell()).prop_map(|(field, op, value)| match op {
        "in" => json!({"field": field, "operator": op, "value": [value, "approved"]}),
        _ => json!({"field": field, "operator": op, "value": value}),
    })
}

fn aggregation() -> impl Strategy<Value = Value> {
    let field = prop::sample::select(vec!["amount", "dept", "status"]);
    let op = prop::sample::select(vec!["sum", "count", "avg", "min", "max"]);
    // Some read only the rows of a status (COUNTIFS, SUMIFS).
    let when = prop::option::of(prop::sample::select(vec!["approved", "rejected"]));
    (field, op, 0..100u32, when).prop_map(|(field, op, n, when)| {
        let mut aggregation = json!({"field": field, "op": op, "as": format!("{op}_{field}_{n}")});
        if let Some(status) = when {
            aggregation["when"] = json!([{"field": "status", "operator": "eq", "value": status}]);
        }
        aggregation
    })
}

/// The outcome of block `id` on `inputs`, with every log line it wrote: `items` is the table
/// (by handle) or its rows.
async fn outcome(h: &Harness, id: &str, inputs: Value) -> (Result<Value, String>, Vec<String>) {
    h.events.logs.lock().unwrap().clear();
    let out = h.run(id, inputs).await.map(Value::Object).map_err(|e| format!("{e:?}"));
    let logs = h.events.logs.lock().unwrap().iter().map(|(level, text)| format!("{level:?} {text}")).collect();
    (out, logs)
}

/// The table `file.read_csv` makes of `text`, as its handle and as its rows.
async fn read(h: &Harness, text: &str) -> (Value, Value) {
    h.write("ledger.csv", text);
    let out = h.run_keeping_tables("file.read_csv", json!({"path": "ledger.csv"})).await.unwrap();
    let handle = out["rows"].clone();
    let rows = h.ctx.tables.expand(handle.clone());
    (handle, rows)
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 96, ..ProptestConfig::default() })]

    #[test]
    fn filtering_a_table_is_filtering_its_rows(text in csv_text(), conditions in prop::collection::vec(condition(), 1..3)) {
        let runtime = tokio::runtime::Builder::new_current_thread().build().unwrap();
        runtime.block_on(async {
            let h = Harness::new();
            let (handle, rows) = read(&h, &text).await;
            let by_table = outcome(&h, "transforms.filter", json!({"items": handle, "conditions": conditions})).await;
            let by_rows = outcome(&h, "transforms.filter", json!({"items": rows, "conditions": conditions})).await;
            prop_assert_eq!(by_table, by_rows);
            Ok(())
        })?;
    }

    #[test]
    fn grouping_a_table_is_grouping_its_rows(
        text in csv_text(),
        by in prop::sample::subsequence(vec!["dept", "status"], 0..=2),
        aggregations in prop::collection::vec(aggregation(), 1..4),
    ) {
        let runtime = tokio::runtime::Builder::new_current_thread().build().unwrap();
        runtime.block_on(async {
            let h = Harness::new();
            let (handle, rows) = read(&h, &text).await;
            let inputs = |items: Value| json!({"items": items, "by": by, "aggregations": aggregations});
            let by_table = outcome(&h, "transforms.group_by_agg", inputs(handle)).await;
            let by_rows = outcome(&h, "transforms.group_by_agg", inputs(rows)).await;
            prop_assert_eq!(by_table, by_rows);
            Ok(())
        })?;
    }
}

/// A column of `transforms.add_columns`: arithmetic, comparisons, dates, text, labels, rounding
/// (in place too), ranks, days, blanks filled.
fn new_column() -> impl Strategy<Value = Value> {
    let name = prop::sample::select(vec!["new", "other", "amount"]);
    let kind = prop_oneof![
        Just(json!({"op": "difference", "of": ["amount", "dept"]})),
        Just(json!({"op": "sum", "of": ["amount"], "value": 0.1})),
        Just(json!({"op": "ratio", "of": ["amount", "dept"]})),
        Just(json!({"op": "percent", "of": ["amount", "amount"]})),
        Just(json!({"op": "greater", "of": ["amount", "dept"]})),
        Just(json!({"op": "equal", "of": ["status", "dept"]})),
        Just(json!({"op": "month", "of": ["dept"]})),
        Just(json!({"op": "join", "of": ["status", "dept"], "separator": "-"})),
        Just(json!({"op": "round", "of": ["amount"], "decimals": 1})),
        Just(json!({"op": "rank", "of": ["amount"]})),
        Just(json!({"op": "rank", "of": ["amount"], "order": "ascending"})),
        Just(json!({"op": "days", "of": ["dept"], "value": "2026-11-30", "inclusive": true})),
        Just(json!({"op": "fill", "of": ["dept"], "value": "none"})),
        Just(json!({"op": "fill", "of": ["amount"], "value": 0})),
        Just(json!({"op": "product", "of": ["missing"]})),
        Just(
            json!({"op": "label", "cases": [{"when": [{"field": "status", "operator": "eq", "value": "approved"}], "then": "OK"}], "else": 0})
        ),
    ];
    (name, kind).prop_map(|(name, mut column)| {
        column["as"] = json!(name);
        column
    })
}

fn column() -> impl Strategy<Value = &'static str> {
    prop::sample::select(vec!["status", "amount", "dept", "missing"])
}

/// The outcomes of block `id` given `inputs(table)` and `inputs(its rows)`, for a table read from
/// `text`.
fn both_ways(id: &str, text: &str, inputs: impl Fn(Value) -> Value) -> [(Result<Value, String>, Vec<String>); 2] {
    let runtime = tokio::runtime::Builder::new_current_thread().build().unwrap();
    runtime.block_on(async {
        let h = Harness::new();
        let (handle, rows) = read(&h, text).await;
        [outcome(&h, id, inputs(handle)).await, outcome(&h, id, inputs(rows)).await]
    })
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 48, ..ProptestConfig::default() })]

    #[test]
    fn sorting_a_table_is_sorting_its_rows(
        text in csv_text(),
        keys in prop::collection::vec((column(), prop::sample::select(vec!["asc", "desc"])), 1..3),
        limit in prop::option::of(1..50u32),
    ) {
        let by: Vec<Value> = keys.iter().map(|(column, order)| json!({"column": column, "order": order})).collect();
        let [by_table, by_rows] = both_ways("transforms.sort", &text, |items| json!({"items": items, "by": by, "limit": limit}));
        prop_assert_eq!(by_table, by_rows);
    }

    #[test]
    fn duplicates_of_a_table_are_the_duplicates_of_its_rows(
        text in csv_text(),
        by in prop::collection::vec(column(), 0..3),
        keep in prop::sample::select(vec!["first", "last"]),
    ) {
        let [by_table, by_rows] =
            both_ways("transforms.remove_duplicates", &text, |items| json!({"items": items, "by": by, "keep": keep}));
        prop_assert_eq!(by_table, by_rows);
        let [by_table, by_rows] = both_ways("transforms.find_duplicates", &text, |items| json!({"items": items, "by": by}));
        prop_assert_eq!(by_table, by_rows);
    }

    #[test]
    fn columns_chosen_of_a_table_are_those_of_its_rows(
        text in csv_text(),
        chosen in prop::collection::vec((column(), prop::option::of(prop::sample::select(vec!["金額", "x", "status"]))), 1..4),
    ) {
        let columns: Vec<Value> = chosen
            .iter()
            .map(|(column, name)| match name {
                Some(name) => json!({"column": column, "as": name}),
                None => json!(column),
            })
            .collect();
        let [by_table, by_rows] =
            both_ways("transforms.select_columns", &text, |items| json!({"items": items, "columns": columns}));
        prop_assert_eq!(by_table, by_rows);
    }

    #[test]
    fn a_join_of_tables_is_the_join_of_their_rows(
        left in csv_text(),
        // Amounts stored as text, decimals or whole numbers.
        right in prop_oneof![csv_text(), ledger_csv(decimal_amount()), ledger_csv(whole_amount())],
        renamed in any::<bool>(),
        keys in (column(), column()),
        strategy in prop::sample::select(vec!["inner", "left", "right", "outer", "left_only", "right_only"]),
        bring in prop::option::of(prop::collection::vec(column(), 1..3)),
    ) {
        // The right side's first column is sometimes named apart from the left's.
        let right = if renamed { right.replacen("status", "code", 1) } else { right };
        let runtime = tokio::runtime::Builder::new_current_thread().build().unwrap();
        runtime.block_on(async {
            let h = Harness::new();
            let (left_handle, left_rows) = read(&h, &left).await;
            let (right_handle, right_rows) = read(&h, &right).await;
            let inputs = |l: &Value, r: &Value| {
                json!({"left": l, "right": r, "left_key": keys.0, "right_key": keys.1, "strategy": strategy, "bring": bring})
            };
            let by_rows = outcome(&h, "transforms.join", inputs(&left_rows, &right_rows)).await;
            let by_tables = outcome(&h, "transforms.join", inputs(&left_handle, &right_handle)).await;
            // A table without rows still has its columns (rows without rows have none): the
            // result's columns do not depend on whether a month had rows.
            if left.lines().count() > 1 && right.lines().count() > 1 {
                prop_assert_eq!(&by_tables, &by_rows);
            }
            let table_beside_rows = outcome(&h, "transforms.join", inputs(&left_handle, &right_rows)).await;
            prop_assert_eq!(&table_beside_rows, &by_rows);
            Ok(())
        })?;
    }

    #[test]
    fn columns_added_to_a_table_are_those_added_to_its_rows(
        text in csv_text(),
        added in prop::collection::vec(new_column(), 1..4),
        then_sorted in any::<bool>(),
    ) {
        let [by_table, by_rows] =
            both_ways("transforms.add_columns", &text, |items| json!({"items": items, "columns": added}));
        prop_assert_eq!(&by_table, &by_rows);
        // The added columns read as the values computed in the blocks after it too.
        if then_sorted && by_rows.0.is_ok() {
            let name = added[0]["as"].as_str().unwrap();
            let runtime = tokio::runtime::Builder::new_current_thread().build().unwrap();
            let sorted = runtime.block_on(async {
                let h = Harness::new();
                let (handle, _) = read(&h, &text).await;
                let out = h.run_keeping_tables("transforms.add_columns", json!({"items": handle, "columns": added})).await.unwrap();
                let by = json!([{"column": name, "order": "desc"}]);
                let by_table = outcome(&h, "transforms.sort", json!({"items": out["rows"], "by": by})).await;
                let rows = h.ctx.tables.expand(out["rows"].clone());
                let by_rows = outcome(&h, "transforms.sort", json!({"items": rows, "by": by})).await;
                (by_table, by_rows)
            });
            prop_assert_eq!(sorted.0, sorted.1);
        }
    }

    #[test]
    fn a_value_picked_from_a_table_is_the_one_picked_from_its_rows(text in csv_text(), row in -3i32..45, column in column()) {
        let path = format!("{row}.{column}");
        let [by_table, by_rows] = both_ways("transforms.pick", &text, |source| json!({"source": source, "path": path}));
        prop_assert_eq!(by_table, by_rows);
        let [by_table, by_rows] =
            both_ways("transforms.pick", &text, |rows| json!({"source": {"rows": rows}, "path": format!("rows.{path}")}));
        prop_assert_eq!(by_table, by_rows);
    }

    #[test]
    fn tables_appended_are_their_rows_appended(
        decimals in ledger_csv(decimal_amount()),
        wholes in ledger_csv(whole_amount()),
        mixed in csv_text(),
        other_header in any::<bool>(),
    ) {
        // Amounts stored as decimals, as whole numbers and (some) as text, one table each.
        let mixed = if other_header { mixed.replacen("dept", "department", 1) } else { mixed };
        let runtime = tokio::runtime::Builder::new_current_thread().build().unwrap();
        runtime.block_on(async {
            let h = Harness::new();
            let (mut handles, mut rows) = (Vec::new(), Vec::new());
            for text in [&decimals, &wholes, &mixed] {
                let (handle, its_rows) = read(&h, text).await;
                handles.push(handle);
                rows.push(its_rows);
            }
            let by_table = outcome(&h, "transforms.append", json!({"tables": handles})).await;
            let by_rows = outcome(&h, "transforms.append", json!({"tables": rows})).await;
            prop_assert_eq!(by_table, by_rows);
            Ok(())
        })?;
    }

    #[test]
    fn a_csv_report_of_a_table_is_the_report_of_its_rows(text in csv_text()) {
        let runtime = tokio::runtime::Builder::new_current_thread().build().unwrap();
        runtime.block_on(async {
            let h = Harness::new();
            let (handle, rows) = read(&h, &text).await;
            let mut written = Vec::new();
            for (data, path) in [(handle, "table.csv"), (rows, "rows.csv")] {
                let report = outcome(&h, "report.write", json!({"data": data, "format": "csv", "path": path})).await;
                prop_assert!(report.0.is_ok(), "{:?}", report);
                written.push(std::fs::read(h.path(path)).unwrap());
            }
            // The same file; only a table without rows keeps its header, where rows have none.
            let header = format!("\u{feff}{}\r\n", text.lines().next().unwrap());
            let expected = if written[1] == "\u{feff}".as_bytes() { header.into_bytes() } else { written[1].clone() };
            prop_assert_eq!(&written[0], &expected);
            Ok(())
        })?;
    }
}

/// The parts of an .xlsx file that hold its cells and how they look (not its time of writing).
fn workbook_cells(path: &std::path::Path) -> Vec<(String, String)> {
    let mut zip = zip::ZipArchive::new(std::fs::File::open(path).unwrap()).unwrap();
    ["xl/worksheets/sheet1.xml", "xl/styles.xml", "xl/sharedStrings.xml"]
        .iter()
        .filter_map(|name| {
            let mut text = String::new();
            std::io::Read::read_to_string(&mut zip.by_name(name).ok()?, &mut text).unwrap();
            Some((name.to_string(), text))
        })
        .collect()
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 32, ..ProptestConfig::default() })]

    #[test]
    fn a_workbook_of_a_table_is_the_workbook_of_its_rows(text in csv_text(), dated in any::<bool>()) {
        // Dates are written as Excel dates, amounts with their formats.
        let text = if dated { text.replace("pending", "2026-04-01") } else { text };
        let runtime = tokio::runtime::Builder::new_current_thread().build().unwrap();
        runtime.block_on(async {
            let h = Harness::new();
            let (handle, rows) = read(&h, &text).await;
            let mut written = Vec::new();
            for (data, path) in [(handle, "table.xlsx"), (rows, "rows.xlsx")] {
                let out = outcome(&h, "excel.write", json!({"path": path, "sheets": {"Ledger": data}})).await;
                prop_assert!(out.0.is_ok(), "{:?}", out);
                written.push((out.1, workbook_cells(&h.path(path))));
            }
            let logs = |path: &str| written[0].0.iter().map(|l| l.replace("table.xlsx", path)).collect::<Vec<_>>();
            prop_assert_eq!(logs("rows.xlsx"), written[1].0.clone());
            if text.lines().count() > 1 {
                prop_assert_eq!(&written[0].1, &written[1].1);
            } else {
                // Only a table without rows keeps its header, where rows have none.
                let strings = &written[0].1.iter().find(|(name, _)| name.ends_with("sharedStrings.xml")).unwrap().1;
                let header = ["<t>status</t>", "<t>amount</t>", "<t>dept</t>"].iter().all(|h| strings.contains(h));
                prop_assert!(header, "{}", strings);
            }
            Ok(())
        })?;
    }
}

#[tokio::test]
async fn a_join_with_a_table_without_rows_has_the_columns_it_has_with_rows() {
    let h = Harness::new();
    let (april, _) = read(&h, "vendor,amount\n").await;
    let (may, _) = read(&h, "vendor,amount\nA,12\n").await;
    let inputs = json!({"left": april, "right": may, "left_key": "vendor", "right_key": "vendor", "strategy": "outer"});
    let out = h.run_keeping_tables("transforms.join", inputs).await.unwrap();
    let joined = h.ctx.tables.get(&out["rows"]).unwrap();
    assert_eq!(joined.columns(), ["vendor", "amount", "amount_right"]);
    assert_eq!(joined.rows(), [json!({"vendor": "A", "amount": null, "amount_right": 12})]);
}

#[tokio::test]
async fn a_filtered_table_stays_a_table_of_all_its_columns() {
    let h = Harness::new();
    let (handle, _) = read(&h, "status,amount,memo\napproved,12.50,a\npending,3.00,b\napproved,7.25,c\n").await;
    let inputs = json!({"items": handle, "conditions": [{"field": "status", "operator": "eq", "value": "approved"}]});
    let out = h.run_keeping_tables("transforms.filter", inputs).await.unwrap();
    let filtered = h.ctx.tables.get(&out["filtered"]).expect("the kept rows are a table of the run");
    assert_eq!(filtered.columns(), ["status", "amount", "memo"]);
    assert_eq!(
        h.ctx.tables.expand(out["filtered"].clone()),
        json!([{"status": "approved", "amount": 12.5, "memo": "a"}, {"status": "approved", "amount": 7.25, "memo": "c"}])
    );
    assert_eq!(h.ctx.tables.get(&out["excluded"]).unwrap().row_count(), 1);
    assert_eq!(out["summary"], json!({"total": 3, "kept": 2, "excluded": 1}));
}
