//! Tables between nodes: `file.read_csv`'s table travels by handle to the transforms that read
//! tables. A large table is recorded as the file it was read from (and which rows of it), or —
//! when masking a secret changed it — once as a file of its own (its record a preview); a resumed
//! run reads it back from that file. The other table transforms hand on tables too. A real run, a
//! real run store, real CSV files.

use crate::support;

use std::collections::HashMap;
use std::sync::Arc;

use planwright_engine::{recorded_table, AnswerSource, BrowserSettings, GivenAnswers, NoAnswers, RunOptions};
use planwright_engine::{RunRequest, SecretSource};
use planwright_runs::{EventKind, RunStatus};
use serde_json::json;
use tokio_util::sync::CancellationToken;

const CANARY: &str = "canary-7f3e-in-a-ledger-cell";

struct Secrets;

impl SecretSource for Secrets {
    fn secret(&self, name: &str) -> Option<String> {
        (name == "LEDGER_TOKEN").then(|| CANARY.to_owned())
    }
}

/// Tables of more than this many rows are kept as files (the setting, lowered from its 10,000 so
/// that a debug build's test reads a ledger of a few thousand rows). Each test runs in a process
/// of its own (nextest): the variable reaches no other test.
fn keep_tables_of_over_1000_rows() {
    std::env::set_var("PLANWRIGHT_TABLE_FILE_ROWS", "1000");
}

fn options(f: &support::Fixture, answers: Arc<dyn AnswerSource>) -> RunOptions {
    RunOptions {
        workdir: f.workdir.path().to_owned(),
        secrets: Arc::new(Secrets),
        answers,
        stop: CancellationToken::new(),
        events: None,
        browser: BrowserSettings::default(),
        models: None,
    }
}

/// A ledger of `rows` rows, the secret's value in the vendor cell of row 3 when `with_secret`;
/// and the approved amounts' total per department, in cents.
fn ledger(rows: usize, with_secret: bool) -> (String, HashMap<String, i64>) {
    let mut text = String::from("date,vendor,department,status,amount,reference\n");
    let mut totals: HashMap<String, i64> = HashMap::new();
    for i in 0..rows {
        let department = ["経理", "Sales", "IT"][i % 3];
        let status = if i % 4 == 0 { "pending" } else { "approved" };
        let cents = (i as i64 * 7919) % 100_000 + 1;
        let vendor = if i == 3 && with_secret { CANARY.to_owned() } else { format!("Vendor {}", i % 97) };
        text.push_str(&format!(
            "2026-04-{:02},{vendor},{department},{status},{}.{:02},INV-{i:07}\n",
            i % 28 + 1,
            cents / 100,
            cents % 100
        ));
        if status == "approved" {
            *totals.entry(department.to_owned()).or_default() += cents;
        }
    }
    (text, totals)
}

const PLAN: &str = r#"apiVersion: planwright/v1
id: ledger_totals
version: 1.0.0
secrets: [LEDGER_TOKEN]
graph:
  - id: read
    block: file.read_csv
    in: {path: ledger.csv}
    out: {rows: rows}
  - id: approved
    block: transforms.filter
    in:
      items: "${read.rows}"
      conditions: [{field: status, operator: eq, value: approved}]
    out: {filtered: rows}
  - id: ask
    block: ui.confirmation
    in: {message: "Total ${approved.rows.2.vendor} and the others?"}
    out: {approved: ok}
  - id: totals
    block: transforms.group_by_agg
    after: [ask]
    in:
      items: "${approved.rows}"
      by: [department]
      aggregations: [{field: amount, op: sum, as: total}]
    out: {rows: totals}
  - id: save
    block: report.write
    in: {data: "${totals.totals}", format: csv, path: out/totals.csv}
"#;

/// The table file `node` kept, in its folder of the run's record.
fn table_file(f: &support::Fixture, node: &str) -> std::path::PathBuf {
    let end = std::path::Path::new(node).join("table-0.arrow");
    support::files_under(f.home.path()).into_iter().find(|p| p.ends_with(&end)).expect("a table file")
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_large_table_is_recorded_once_as_a_masked_file_and_a_resumed_run_reads_it_back() {
    keep_tables_of_over_1000_rows();
    let f = support::fixture();
    let (text, totals) = ledger(1_600, true);
    std::fs::write(f.workdir.path().join("ledger.csv"), text).unwrap();
    let request = RunRequest { plan_text: PLAN.to_owned(), plan_path: None, vars: Default::default() };
    let waiting = f.engine.run(&f.store, request, options(&f, Arc::new(NoAnswers))).await.unwrap();
    assert_eq!(waiting.status, RunStatus::WaitingForInput, "{:?}", waiting.reason);

    // The record keeps each large table, masked, as a file: a preview and a count, not 1,600 rows.
    let stored = f.store.finished_outputs(&waiting.run_id).unwrap();
    let read = recorded_table(&stored["read"]["rows"]).expect("the read table is kept as a file");
    assert_eq!(read.rows, 1_600);
    assert_eq!(read.preview.len(), 50);
    assert_eq!(read.preview[3]["vendor"], "***", "the preview is masked");
    assert_eq!(recorded_table(&stored["approved"]["rows"]).unwrap().rows, 1_200);
    let sha = stored["read"]["rows"]["sha256"].as_str().unwrap();
    let kept = planwright_tables::read_table_file(&table_file(&f, "read"), sha).unwrap();
    assert_eq!(kept.row_count(), 1_600);
    let kept_text = serde_json::to_string(&kept.rows()).unwrap();
    assert!(!kept_text.contains(CANARY) && kept_text.contains("***"), "the table file is masked");
    // The message that reached into the table read its rows (masked, since a dependant sees the
    // masked table).
    let events = f.store.events(&waiting.run_id).unwrap();
    let asked = events.iter().find_map(|e| match &e.kind {
        EventKind::InputRequested { request, .. } => Some(serde_json::to_string(request).unwrap()),
        _ => None,
    });
    assert!(asked.unwrap().contains("Total ***"), "a reference into a table reads its rows");
    for path in support::files_under(f.home.path()) {
        let bytes = std::fs::read(&path).unwrap();
        assert!(!String::from_utf8_lossy(&bytes).contains(CANARY), "the secret reached {}", path.display());
    }

    let answers = HashMap::from([("ask".to_owned(), json!({"approved": true}))]);
    let resumed = f.engine.resume(&f.store, &waiting.run_id, options(&f, Arc::new(GivenAnswers(answers)))).await;
    let resumed = resumed.unwrap();
    assert_eq!(resumed.status, RunStatus::Succeeded, "{:?}", resumed.reason);
    let events = f.store.events(&waiting.run_id).unwrap();
    assert_eq!(starts(&events, "read"), 1, "the finished read is not run again: its table came from the file");
    assert_eq!(starts(&events, "totals"), 1);
    assert_totals(&f, &totals);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_changed_table_file_makes_its_node_run_again_on_resume() {
    keep_tables_of_over_1000_rows();
    let f = support::fixture();
    let (text, _) = ledger(1_400, true);
    std::fs::write(f.workdir.path().join("ledger.csv"), text).unwrap();
    let request = RunRequest { plan_text: PLAN.to_owned(), plan_path: None, vars: Default::default() };
    let waiting = f.engine.run(&f.store, request, options(&f, Arc::new(NoAnswers))).await.unwrap();
    assert_eq!(waiting.status, RunStatus::WaitingForInput, "{:?}", waiting.reason);
    let file = table_file(&f, "approved");
    let mut bytes = std::fs::read(&file).unwrap();
    let middle = bytes.len() / 2;
    bytes[middle] ^= 0xff;
    std::fs::write(&file, bytes).unwrap();

    let answers = HashMap::from([("ask".to_owned(), json!({"approved": true}))]);
    let resumed = f.engine.resume(&f.store, &waiting.run_id, options(&f, Arc::new(GivenAnswers(answers)))).await;
    assert_eq!(resumed.unwrap().status, RunStatus::Succeeded);
    let events = f.store.events(&waiting.run_id).unwrap();
    let started = starts(&events, "approved");
    assert_eq!(started, 2, "the filter ran again rather than use a table the record does not vouch for");
    let warned = events.iter().any(|e| {
        matches!(&e.kind, EventKind::Log { message, .. } if message.contains("not the one recorded") && message.contains("`approved` runs again"))
    });
    assert!(warned, "the resume says why the node runs again");
}

/// How many times `node` started in a run's `events`.
fn starts(events: &[planwright_runs::Event], node: &str) -> usize {
    events.iter().filter(|e| matches!(&e.kind, EventKind::NodeStarted { node: n, .. } if n == node)).count()
}

/// The totals the plan wrote, as `department,amount` lines, checked against `totals` (cents).
fn assert_totals(f: &support::Fixture, totals: &HashMap<String, i64>) {
    let written = std::fs::read_to_string(f.workdir.path().join("out/totals.csv")).unwrap();
    for (department, cents) in totals {
        let amount = match cents % 100 {
            0 => format!("{}", cents / 100),
            c if c % 10 == 0 => format!("{}.{}", cents / 100, c / 10),
            c => format!("{}.{c:02}", cents / 100),
        };
        let line = format!("{department},{amount}");
        assert!(written.lines().any(|l| l == line), "{line} in {written}");
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_table_read_from_a_file_is_recorded_as_that_file_and_a_resume_reads_it_again() {
    keep_tables_of_over_1000_rows();
    let f = support::fixture();
    let (text, totals) = ledger(1_600, false);
    std::fs::write(f.workdir.path().join("ledger.csv"), &text).unwrap();
    let request = || RunRequest { plan_text: PLAN.to_owned(), plan_path: None, vars: Default::default() };
    let waiting = f.engine.run(&f.store, request(), options(&f, Arc::new(NoAnswers))).await.unwrap();
    assert_eq!(waiting.status, RunStatus::WaitingForInput, "{:?}", waiting.reason);

    // No copy of the table: its source (the file, by its SHA-256) and which of its rows.
    let stored = f.store.finished_outputs(&waiting.run_id).unwrap();
    let read = &stored["read"]["rows"];
    assert_eq!(read["$table_source"]["path"], "ledger.csv");
    assert_eq!(read["$table_source"]["sha256"].as_str().unwrap().len(), 64);
    assert_eq!(recorded_table(read).unwrap().rows, 1_600);
    let approved = &stored["approved"]["rows"];
    assert_eq!(approved["$table_source"], read["$table_source"]);
    assert!(approved["keep"].is_string());
    assert_eq!(recorded_table(approved).unwrap().preview[0]["vendor"], "Vendor 1");
    let files = support::files_under(f.home.path());
    assert!(!files.iter().any(|p| p.extension().is_some_and(|e| e == "arrow")), "no table was copied: {files:?}");
    let recorded = serde_json::to_string(&stored).unwrap();
    let copied = (100..1_600).map(|i| format!("INV-{i:07}")).find(|reference| recorded.contains(reference));
    assert_eq!(copied, None, "the record holds rows beyond its previews");
    assert!(
        recorded.len() < text.len() / 5,
        "the outputs' record is {} bytes for a {}-byte ledger",
        recorded.len(),
        text.len()
    );

    let answers = || Arc::new(GivenAnswers(HashMap::from([("ask".to_owned(), json!({"approved": true}))])));
    let resumed = f.engine.resume(&f.store, &waiting.run_id, options(&f, answers())).await.unwrap();
    assert_eq!(resumed.status, RunStatus::Succeeded, "{:?}", resumed.reason);
    let events = f.store.events(&waiting.run_id).unwrap();
    let started = (starts(&events, "read"), starts(&events, "approved"));
    assert_eq!(started, (1, 1), "their tables came from the file again");
    assert_totals(&f, &totals);

    // The same plan waits again; the ledger changes before the resume: the run's earlier steps
    // used the ledger as it was, so the resume refuses, naming the file.
    let waiting = f.engine.run(&f.store, request(), options(&f, Arc::new(NoAnswers))).await.unwrap();
    std::fs::write(f.workdir.path().join("ledger.csv"), text.replacen("approved", "rejected", 1)).unwrap();
    let refused = f.engine.resume(&f.store, &waiting.run_id, options(&f, answers())).await.unwrap_err();
    let refused = refused.to_string();
    assert!(refused.contains("ledger.csv") && refused.contains("changed"), "{refused}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_table_file_rows_setting_that_is_not_a_number_is_refused_before_anything_runs() {
    std::env::set_var("PLANWRIGHT_TABLE_FILE_ROWS", "ten thousand");
    let f = support::fixture();
    let request = RunRequest { plan_text: PLAN.to_owned(), plan_path: None, vars: Default::default() };
    let refused = f.engine.run(&f.store, request, options(&f, Arc::new(NoAnswers))).await.unwrap_err().to_string();
    assert!(refused.contains("PLANWRIGHT_TABLE_FILE_ROWS") && refused.contains("ten thousand"), "{refused}");
    assert!(f.store.list().unwrap().is_empty(), "no run was started");
}

/// Two months' ledgers appended, the repeated references removed, a month column added, the
/// largest amounts first, two columns renamed, the references of May's without April's, the
/// last row's month: each step hands the next a table, and the report is right.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn tables_pass_through_the_table_transforms_and_the_report_is_right() {
    keep_tables_of_over_1000_rows();
    let f = support::fixture();
    let mut expected: HashMap<String, i64> = HashMap::new();
    for (month, file) in [(4, "april.csv"), (5, "may.csv")] {
        let mut text = String::from("date,vendor,amount,reference\n");
        for i in 0..700i64 {
            // May repeats April's references 0..350, with other amounts: the first one stays.
            let reference = if month == 5 && i >= 350 { i + 5000 } else { i };
            let cents = (i * 7919 + month * 13) % 100_000 + 1;
            text.push_str(&format!(
                "2026-{month:02}-{:02},Vendor {},{}.{:02},R{reference}\n",
                i % 28 + 1,
                i % 7,
                cents / 100,
                cents % 100
            ));
            expected.entry(format!("R{reference}")).or_insert(cents);
        }
        std::fs::write(f.workdir.path().join(file), text).unwrap();
    }
    let plan = r#"apiVersion: planwright/v1
id: top_payments
version: 1.0.0
graph:
  - {id: april, block: file.read_csv, in: {path: april.csv}, out: {rows: rows}}
  - {id: may, block: file.read_csv, in: {path: may.csv}, out: {rows: rows}}
  - id: both
    block: transforms.append
    in: {tables: ["${april.rows}", "${may.rows}"]}
    out: {rows: rows}
  - id: unique
    block: transforms.remove_duplicates
    in: {items: "${both.rows}", by: [reference]}
    out: {rows: rows}
  - id: vendors
    block: transforms.join
    in: {left: "${unique.rows}", right: "${april.rows}", left_key: reference, right_key: reference, strategy: left_only}
    out: {rows: rows}
  - id: months
    block: transforms.add_columns
    in: {items: "${unique.rows}", columns: [{as: month, op: month, of: [date]}]}
    out: {rows: rows}
  - id: top
    block: transforms.sort
    in: {items: "${months.rows}", by: [{column: amount, order: desc}], limit: 5}
    out: {rows: rows}
  - id: first
    block: transforms.pick
    in: {source: "${months.rows}", path: "-1.month"}
    out: {value: month}
  - id: shown
    block: transforms.select_columns
    in: {items: "${top.rows}", columns: [reference, {column: amount, as: 金額}]}
    out: {rows: rows}
  - id: save
    block: report.write
    in: {data: "${shown.rows}", format: csv, path: out/top.csv}
"#;
    let request = RunRequest { plan_text: plan.to_owned(), plan_path: None, vars: Default::default() };
    let run = f.engine.run(&f.store, request, options(&f, Arc::new(NoAnswers))).await.unwrap();
    assert_eq!(run.status, RunStatus::Succeeded, "{:?}", run.reason);

    let stored = f.store.finished_outputs(&run.run_id).unwrap();
    assert_eq!(recorded_table(&stored["both"]["rows"]).unwrap().rows, 1_400, "the appended rows are one table");
    assert_eq!(recorded_table(&stored["unique"]["rows"]).unwrap().rows, 1_050);
    let months = recorded_table(&stored["months"]["rows"]).unwrap();
    assert_eq!(months.rows, 1_050);
    assert_eq!(months.preview[0]["month"], "2026-04");
    assert_eq!(stored["first"]["month"], "2026-05", "the last row's month, read from the table");
    assert_eq!(stored["vendors"]["rows"].as_array().map(Vec::len), Some(350), "May's references not in April");
    let mut largest: Vec<(&String, &i64)> = expected.iter().collect();
    largest.sort_by(|a, b| b.1.cmp(a.1));
    let mut want = String::from("\u{feff}reference,金額\r\n");
    for (reference, cents) in largest.iter().take(5) {
        let amount = match *cents % 100 {
            0 => format!("{}", *cents / 100),
            c if c % 10 == 0 => format!("{}.{}", *cents / 100, c / 10),
            c => format!("{}.{c:02}", *cents / 100),
        };
        want.push_str(&format!("{reference},{amount}\r\n"));
    }
    let written = std::fs::read_to_string(f.workdir.path().join("out/top.csv")).unwrap();
    assert_eq!(written, want);
}
