//! Columns checked through the whole plan: the header of each input file in the work folder
//! (UTF-8 or Shift_JIS CSV, a workbook) against the columns the steps name, what a group or a
//! join leaves, and text where a table is expected. Runs the real binary on real files.

use crate::support;

use std::path::Path;
use std::process::{Command, Output};

use serde_json::Value;
use support::assert_exit;

fn validate(plan: &Path, workdir: &Path) -> Output {
    Command::new(env!("CARGO_BIN_EXE_planwright"))
        .args(["validate", &plan.to_string_lossy(), "--format", "json", "--workdir", &workdir.to_string_lossy()])
        .env_remove("PLANWRIGHT_BLOCK_SPECS")
        .output()
        .expect("planwright runs")
}

/// `(code, node, field, candidates)` of each error.
fn errors(output: &Output) -> Vec<(String, String, String, Vec<String>)> {
    let report: Value = serde_json::from_slice(&output.stdout).expect("JSON");
    let text = |v: &Value| v.as_str().unwrap_or_default().to_owned();
    report["errors"]
        .as_array()
        .expect("errors")
        .iter()
        .map(|f| {
            let candidates = f["candidates"].as_array().map(|c| c.iter().map(text).collect()).unwrap_or_default();
            (text(&f["code"]), text(&f["node"]), text(&f["field"]), candidates)
        })
        .collect()
}

const DUPLICATES: &str = r#"apiVersion: planwright/v1
id: duplicate_payments
version: 1.0.0
description: Possible duplicate payments.
vars:
  source: payments.csv
graph:
  - id: read
    block: file.read_csv
    in: {path: "${vars.source}"}
    out: {rows: rows}
  - id: groups
    block: transforms.group_by_agg
    in:
      items: ${read.rows}
      by: [vendr, amount]
      aggregations: [{op: count, as: payments}, {field: reference, op: sum, as: refs}]
    out: {rows: groups}
  - id: dups
    block: transforms.filter
    in:
      items: ${groups.groups}
      conditions: [{field: payments, operator: gt, value: 1}, {field: date, operator: gte, value: 2026-03-01}]
    out: {filtered: dups}
  - id: write
    block: excel.write
    in: {path: duplicates.xlsx, sheets: {Results: duplicates.xlsx, Groups: "${dups.dups}"}}
"#;

#[test]
fn the_columns_a_plan_names_are_checked_against_the_files_header_and_each_steps_output() {
    let work = tempfile::tempdir().unwrap();
    let plan = work.path().join("duplicates.yaml");
    std::fs::write(&plan, DUPLICATES).unwrap();
    let s = |v: &str| v.to_owned();

    // The file is not there yet: what the steps themselves say is still checked.
    let without = validate(&plan, work.path());
    assert_exit(&without, 1);
    assert_eq!(
        errors(&without),
        [
            (
                s("unknown_column"),
                s("dups"),
                s("in.conditions[1].field"),
                vec![s("vendr"), s("amount"), s("payments"), s("refs")]
            ),
            (s("not_a_table"), s("write"), s("in.sheets.Results"), vec![]),
        ]
    );

    std::fs::write(
        work.path().join("payments.csv"),
        "date,vendor,amount,reference\n2026-03-01,Acme,\"1,200.00\",R-1\n2026-03-02,Globex,80.50,R-2\n",
    )
    .unwrap();
    let with = validate(&plan, work.path());
    assert_exit(&with, 1);
    let found = errors(&with);
    assert_eq!(found[0], (s("unknown_column"), s("groups"), s("in.by[0]"), vec![s("vendor")]), "{found:#?}");
    assert_eq!((found[1].0.as_str(), found[1].2.as_str()), ("column_kind_mismatch", "in.aggregations[1].field"));
    assert_eq!(found.len(), 4, "{found:#?}");

    // Fixed as the findings say, the plan is valid.
    let fixed = DUPLICATES
        .replace("by: [vendr, amount]", "by: [vendor, amount]")
        .replace("{field: reference, op: sum, as: refs}", "{field: amount, op: sum, as: total}")
        .replace(", {field: date, operator: gte, value: 2026-03-01}", "")
        .replace("Results: duplicates.xlsx, ", "");
    std::fs::write(&plan, fixed).unwrap();
    assert_exit(&validate(&plan, work.path()), 0);
}

#[test]
fn a_shift_jis_csv_and_a_workbook_are_read_as_their_blocks_read_them() {
    let work = tempfile::tempdir().unwrap();
    let (csv, _, _) = encoding_rs::SHIFT_JIS.encode("仕入先,残高\n山田商事,\"1,200,000\"\n東和物流,350000\n");
    std::fs::write(work.path().join("payables.csv"), csv).unwrap();
    let repo = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../designs/examples/data/expenses_2024.xlsx");
    std::fs::copy(repo, work.path().join("expenses.xlsx")).unwrap();
    let plan = work.path().join("payables.yaml");
    let text = r#"apiVersion: planwright/v1
id: large_payables
version: 1.0.0
description: Suppliers owed over a million yen, and the year's expenses per department.
graph:
  - id: payables
    block: file.read_csv
    in: {path: payables.csv, encoding: shift_jis}
    out: {rows: rows}
  - id: totals
    block: transforms.group_by_agg
    in:
      items: ${payables.rows}
      by: [仕入先]
      aggregations: [{field: 残高, op: sum, as: 残高合計}]
    out: {rows: totals}
  - id: large
    block: transforms.filter
    in:
      items: ${totals.totals}
      conditions: [{field: 残高, operator: gt, value: 1000000}]
    out: {filtered: large}
  - id: expenses
    block: excel.read_data
    in: {path: expenses.xlsx, range: A3:H500, header_row: 1}
    out: {rows: rows}
  - id: per_department
    block: transforms.group_by_agg
    in:
      items: ${expenses.rows}
      by: [部門]
      aggregations: [{field: 金額, op: sum, as: 合計金額}]
    out: {rows: per_department}
  - id: write
    block: excel.write
    in: {path: out.xlsx, sheets: {大口: "${large.large}", 部署別: "${per_department.per_department}"}}
"#;
    std::fs::write(&plan, text).unwrap();
    let output = validate(&plan, work.path());
    assert_exit(&output, 1);
    let found = errors(&output);
    let s = |v: &str| v.to_owned();
    assert_eq!(
        found,
        [(s("unknown_column"), s("large"), s("in.conditions[0].field"), vec![s("残高合計")])],
        "{found:#?}"
    );
    let report: Value = serde_json::from_slice(&output.stdout).unwrap();
    let message = report["errors"][0]["message"].as_str().unwrap();
    assert!(message.contains("step `totals` left it out"), "{message}");

    std::fs::write(&plan, text.replace("{field: 残高, operator: gt", "{field: 残高合計, operator: gt")).unwrap();
    assert_exit(&validate(&plan, work.path()), 0);
    // The workbook's header is under a title row: read from the top, its columns are the title's.
    std::fs::write(&plan, text.replace("range: A3:H500, ", "")).unwrap();
    let found = errors(&validate(&plan, work.path()));
    assert!(
        found
            .iter()
            .any(|(code, node, field, _)| code == "unknown_column" && node == "per_department" && field == "in.by[0]"),
        "{found:#?}"
    );
    // A sheet the workbook does not have is found before the run, at the field, in the
    // block's words.
    let fixed = text.replace("{field: 残高, operator: gt", "{field: 残高合計, operator: gt");
    std::fs::write(&plan, fixed.replace("range: A3:H500, ", "sheet: is, range: A3:H500, ")).unwrap();
    let output = validate(&plan, work.path());
    assert_exit(&output, 1);
    let found = errors(&output);
    assert_eq!(found, [(s("invalid_value"), s("expenses"), s("in.sheet"), vec![])], "{found:#?}");
    let report: Value = serde_json::from_slice(&output.stdout).unwrap();
    let message = report["errors"][0]["message"].as_str().unwrap();
    assert!(message.contains("no sheet \"is\"") && message.contains("its sheets are"), "{message}");
}

#[test]
fn a_dry_run_shows_the_first_rows_of_an_input_file_in_the_work_folder() {
    let work = tempfile::tempdir().unwrap();
    let mut csv = String::from("date,vendor,amount\n");
    for day in 1..=7 {
        csv.push_str(&format!("2026-03-0{day},Vendor {day},{}\n", day * 100));
    }
    std::fs::write(work.path().join("payments.csv"), csv).unwrap();
    let plan = work.path().join("big.yaml");
    std::fs::write(
        &plan,
        "apiVersion: planwright/v1\nid: big_payments\nversion: 1.0.0\ngraph:\n  - id: read\n    block: file.read_csv\n    \
         in: {path: payments.csv}\n    out: {rows: rows}\n  - id: big\n    block: transforms.filter\n    in:\n      items: \
         ${read.rows}\n      conditions: [{field: amount, operator: gte, value: 300}]\n    out: {filtered: big}\n",
    )
    .unwrap();
    let output = Command::new(env!("CARGO_BIN_EXE_planwright"))
        .args(["dry-run", &plan.to_string_lossy(), "--format", "json", "--workdir", &work.path().to_string_lossy()])
        .output()
        .expect("planwright runs");
    assert_exit(&output, 0);
    let report: Value = serde_json::from_slice(&output.stdout).unwrap();
    let rows = report["order"][0]["outputs"]["rows"].as_array().expect("the read step's rows");
    assert_eq!(rows.len(), 5, "the first five rows: {rows:?}");
    assert_eq!((rows[0]["vendor"].as_str(), rows[4]["date"].as_str()), (Some("Vendor 1"), Some("2026-03-05")));
    // The filter is shown with those rows as its input.
    assert_eq!(report["order"][1]["inputs"]["items"][2]["vendor"], "Vendor 3", "{}", report["order"][1]);
}

#[test]
fn a_difference_of_two_date_columns_counts_days_and_of_a_date_and_a_text_is_refused() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(
        dir.path().join("receipts.csv"),
        "invoice,invoiced,paid,note\nINV-1,2026-08-04,2026-08-29,ok\nINV-2,2026-12-30,2027-01-02,late\n",
    )
    .unwrap();
    let plan = |of: &str| {
        format!(
            "apiVersion: planwright/v1\nid: days\nversion: 1.0.0\ngraph:\n  - id: read\n    block: file.read_csv\n    in: {{path: receipts.csv}}\n    out: {{rows: rows}}\n  - id: days\n    block: transforms.add_columns\n    in:\n      items: ${{read.rows}}\n      columns: [{{as: days, op: difference, of: {of}}}]\n    out: {{rows: rows}}\n  - id: write\n    block: report.write\n    in: {{data: \"${{days.rows}}\", format: csv, path: days.csv}}\n"
        )
    };
    std::fs::write(dir.path().join("dates.yaml"), plan("[paid, invoiced]")).unwrap();
    let checked = validate(&dir.path().join("dates.yaml"), dir.path());
    assert_exit(&checked, 0);
    assert!(errors(&checked).is_empty());
    std::fs::write(dir.path().join("text.yaml"), plan("[note, invoiced]")).unwrap();
    let refused = validate(&dir.path().join("text.yaml"), dir.path());
    assert_exit(&refused, 1);
    assert_eq!(errors(&refused)[0].0, "column_kind_mismatch");
}
