//! Designing from the data, from the command line with sample files: the three instructions of
//! issue 27 designed with `generate --workdir`, run with `run`, and the table written read back
//! — or, for the one that says no job, the questions that lead to a plan — and a column the data
//! cannot settle asked with the file's columns, then answered. Runs the real binary.

use std::path::Path;
use std::process::{Command, Output, Stdio};

use calamine::{open_workbook, Data, Reader, Xlsx};
use serde_json::Value;

/// `planwright ARGS` in `dir`, with its own data home and no model settings.
fn planwright(dir: &Path, args: &[&str]) -> Output {
    let mut command = Command::new(env!("CARGO_BIN_EXE_planwright"));
    command.args(args).current_dir(dir).env("PLANWRIGHT_HOME", dir.join(".home")).stdin(Stdio::null());
    for (name, _) in std::env::vars() {
        if name.starts_with("OPENAI_") || name.starts_with("AZURE_OPENAI_") || name.starts_with("PLANWRIGHT_LLM") {
            command.env_remove(name);
        }
    }
    command.output().expect("planwright runs")
}

fn said(output: &Output) -> String {
    format!("{}\n{}", String::from_utf8_lossy(&output.stdout), String::from_utf8_lossy(&output.stderr))
}

/// Designs `instruction` in `dir` and runs the plan there; both must succeed.
fn design_and_run(dir: &Path, instruction: &str) {
    design_and_run_with(dir, instruction, &[]);
}

/// [`design_and_run`] with more options for `generate`; the plan must have nothing left to ask.
fn design_and_run_with(dir: &Path, instruction: &str, more: &[&str]) {
    let mut args = vec!["generate", "--instruction", instruction, "--workdir", ".", "--out", "plan.yaml"];
    args.extend_from_slice(more);
    let generated = planwright(dir, &args);
    assert_eq!(generated.status.code(), Some(0), "{}", said(&generated));
    assert!(!said(&generated).contains("still to answer"), "{}", said(&generated));
    let run = planwright(dir, &["run", "plan.yaml", "--workdir", "."]);
    assert_eq!(run.status.code(), Some(0), "{}", said(&run));
}

/// Designs `instruction` in `dir` with `--format json`: the result, once `generate` exited with
/// `exit`.
fn designed(dir: &Path, instruction: &str, exit: i32) -> Value {
    let args = ["generate", "--instruction", instruction, "--workdir", ".", "--format", "json", "--out", "plan.yaml"];
    let output = planwright(dir, &args);
    assert_eq!(output.status.code(), Some(exit), "{instruction}: {}", said(&output));
    serde_json::from_slice(&output.stdout).unwrap()
}

/// The rows `instruction`'s plan writes to `file` in `dir`, designed and run there with no
/// answers: sorted, without the header.
fn rows_written(dir: &Path, instruction: &str, file: &str) -> Vec<String> {
    designed(dir, instruction, 0);
    let run = planwright(dir, &["run", "plan.yaml", "--workdir", "."]);
    assert_eq!(run.status.code(), Some(0), "{instruction}: {}", said(&run));
    let mut rows = csv_rows(&dir.join(file))[1..].to_vec();
    rows.sort();
    rows
}

/// The rows of a workbook's first sheet, header first, as text.
fn sheet(path: &Path) -> Vec<Vec<String>> {
    let mut book: Xlsx<_> = open_workbook(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    let range = book.worksheet_range_at(0).expect("a sheet").expect("readable");
    range
        .rows()
        .map(|row| {
            row.iter()
                .map(|cell| match cell {
                    Data::Float(f) => f.to_string(),
                    Data::Int(i) => i.to_string(),
                    other => other.to_string(),
                })
                .collect()
        })
        .collect()
}

#[test]
fn possible_duplicate_payments_are_listed_every_one() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(
        dir.path().join("payments.csv"),
        "date,vendor,amount,reference\n2026-03-02,Acme Supplies,1200.00,PAY-001\n2026-03-03,Blue Freight,860.50,PAY-002\n\
         2026-03-09,Acme Supplies,1200.00,PAY-003\n2026-03-11,Cedar Office,45.00,PAY-004\n2026-03-15,Blue Freight,860.50,PAY-005\n\
         2026-03-20,Acme Supplies,300.00,PAY-006\n",
    )
    .unwrap();
    design_and_run(
        dir.path(),
        "Every month I get payments.csv from the bank. Find payments to the same vendor for the same amount — \
         possible duplicates — and give me the list in duplicates.xlsx",
    );
    let rows = sheet(&dir.path().join("duplicates.xlsx"));
    assert_eq!(rows[0], ["date", "vendor", "amount", "reference"], "every column of the payments");
    let mut references: Vec<&str> = rows[1..].iter().map(|r| r[3].as_str()).collect();
    references.sort();
    assert_eq!(references, ["PAY-001", "PAY-002", "PAY-003", "PAY-005"]);
}

#[test]
fn a_lookup_into_a_table_keeps_every_row_of_it() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(
        dir.path().join("payroll.csv"),
        "employee_id,name,gross_pay\nE-1,Sarah Kim,5200\nE-2,Tom Baker,4750\nE-3,Lena Ortiz,3980.50\n",
    )
    .unwrap();
    // E-3 is not in the staff list yet; E-9 has left and is on no payroll.
    std::fs::write(dir.path().join("staff.csv"), "employee_id,cost_center\nE-2,CC-200\nE-1,CC-100\nE-9,CC-300\n")
        .unwrap();
    design_and_run(
        dir.path(),
        "Bring the cost center from staff.csv into payroll.csv by matching on employee_id and save payroll_cc.xlsx",
    );
    let rows = sheet(&dir.path().join("payroll_cc.xlsx"));
    let at = |name: &str| rows[0].iter().position(|c| c == name).unwrap_or_else(|| panic!("{name}: {:?}", rows[0]));
    let mut people: Vec<(String, String)> =
        rows[1..].iter().map(|r| (r[at("name")].clone(), r[at("cost_center")].clone())).collect();
    people.sort();
    assert_eq!(
        people,
        [
            ("Lena Ortiz".to_owned(), String::new()),
            ("Sarah Kim".to_owned(), "CC-100".to_owned()),
            ("Tom Baker".to_owned(), "CC-200".to_owned()),
        ],
        "every payroll row, the one without a cost center too; no one who is not on the payroll"
    );
}

#[test]
fn suppliers_over_a_million_in_balance_are_totalled() {
    let dir = tempfile::tempdir().unwrap();
    let mut book = rust_xlsxwriter::Workbook::new();
    let ws = book.add_worksheet();
    ws.set_name("買掛金").unwrap();
    let rows: [(&str, &str, f64); 5] = [
        ("株式会社山田商事", "A-1", 800_000.0),
        ("株式会社山田商事", "A-2", 600_000.0),
        ("東和物流株式会社", "B-1", 1_500_000.0),
        ("有限会社みどり企画", "C-1", 200_000.0),
        ("東和物流株式会社", "B-2", 300_000.0),
    ];
    for (c, header) in ["仕入先", "請求番号", "残高"].iter().enumerate() {
        ws.write_string(0, c as u16, *header).unwrap();
    }
    for (r, (supplier, number, balance)) in rows.iter().enumerate() {
        let r = r as u32 + 1;
        ws.write_string(r, 0, *supplier).unwrap();
        ws.write_string(r, 1, *number).unwrap();
        ws.write_number(r, 2, *balance).unwrap();
    }
    book.save(dir.path().join("payables.xlsx")).unwrap();
    let instruction = "仕入先別の買掛金残高 payables.xlsx を読み、残高が100万円を超える仕入先だけを残して、仕入先ごとに合計した一覧をExcelで出力して";
    let generated = planwright(
        dir.path(),
        &["generate", "--instruction", instruction, "--workdir", ".", "--out", "plan.yaml", "--format", "json"],
    );
    assert_eq!(generated.status.code(), Some(0), "{}", said(&generated));
    let result: Value = serde_json::from_slice(&generated.stdout).unwrap();
    assert_eq!(result["requirements"], Value::Array(Vec::new()), "nothing left to ask: every column is the file's");
    let from_data: Vec<&str> = result["origins"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|o| o["from"] == "words")
        .filter_map(|o| o["value"].as_str())
        .collect();
    assert!(from_data.contains(&"残高") && from_data.contains(&"仕入先"), "{from_data:?}");
    let run = planwright(dir.path(), &["run", "plan.yaml", "--workdir", "."]);
    assert_eq!(run.status.code(), Some(0), "{}", said(&run));
    let written = std::fs::read_dir(dir.path())
        .unwrap()
        .filter_map(|e| e.ok().map(|e| e.path()))
        .find(|p| p.extension().is_some_and(|x| x == "xlsx") && !p.ends_with("payables.xlsx"))
        .expect("a workbook written");
    let mut rows = sheet(&written)[1..].to_vec();
    rows.sort();
    assert_eq!(rows, [["東和物流株式会社", "1800000"], ["株式会社山田商事", "1400000"]], "the totals over a million");
}

#[test]
fn an_instruction_that_says_no_job_gets_the_questions_and_their_answers_make_the_plan() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("payments.csv"), "date,vendor,amount\n2026-03-02,Acme,1200\n2026-03-03,Blue,80\n")
        .unwrap();
    let asked = planwright(
        dir.path(),
        &["generate", "--instruction", "do the monthly thing", "--format", "json", "--out", "plan.yaml"],
    );
    assert_eq!(asked.status.code(), Some(1), "{}", said(&asked));
    let result: Value = serde_json::from_slice(&asked.stdout).unwrap();
    assert_eq!(result["refused"], true);
    assert_eq!(result["plan_yaml"], Value::Null);
    let ids: Vec<&str> = result["requirements"].as_array().unwrap().iter().filter_map(|r| r["id"].as_str()).collect();
    assert_eq!(ids, ["instruction.read", "instruction.do", "instruction.write"]);
    assert!(!dir.path().join("plan.yaml").exists(), "no plan is written");

    std::fs::write(
        dir.path().join("answers.yaml"),
        "instruction.read: payments.csv\ninstruction.do: keep the rows where amount is over 100\ninstruction.write: big.csv\n",
    )
    .unwrap();
    let generated = planwright(
        dir.path(),
        &[
            "generate",
            "--instruction",
            "do the monthly thing",
            "--answers",
            "answers.yaml",
            "--workdir",
            ".",
            "--out",
            "plan.yaml",
        ],
    );
    assert_eq!(generated.status.code(), Some(0), "{}", said(&generated));
    let run = planwright(dir.path(), &["run", "plan.yaml", "--workdir", "."]);
    assert_eq!(run.status.code(), Some(0), "{}", said(&run));
    let written = std::fs::read_to_string(dir.path().join("big.csv")).unwrap();
    assert_eq!(written.lines().count(), 2, "the header and the one row over 100: {written}");
    assert!(written.contains("Acme"));
}

#[test]
fn a_column_the_data_cannot_settle_is_asked_with_the_files_columns_and_the_answer_is_kept() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(
        dir.path().join("payments.csv"),
        "date,vendor,billed_amount,paid_amount\n2026-03-02,Acme,1200,1000\n2026-03-03,Acme,500,500\n2026-03-04,Blue,80,80\n",
    )
    .unwrap();
    let instruction = "Read payments.csv, total the amount per supplier and write supplier_totals.csv";
    let result = designed(dir.path(), instruction, 0);
    let question = &result["requirements"][0];
    assert_eq!(question["id"], "amount_column", "{result:#}");
    assert_eq!(question["type"], "select");
    assert_eq!(question["options"], serde_json::json!(["date", "vendor", "billed_amount", "paid_amount"]));
    assert!(result["plan_yaml"].as_str().unwrap().contains("- vendor"), "supplier is the file's vendor");

    std::fs::write(dir.path().join("answers.yaml"), "amount_column: paid_amount\n").unwrap();
    design_and_run_with(dir.path(), instruction, &["--answers", "answers.yaml"]);
    let written = std::fs::read_to_string(dir.path().join("supplier_totals.csv")).unwrap();
    assert!(written.contains("Acme,1500") && written.contains("Blue,80"), "{written}");
}

#[test]
fn a_month_said_without_its_year_is_the_one_year_the_data_holds_or_it_is_asked() {
    let dir = tempfile::tempdir().unwrap();
    let instruction = "売上.csvの5月分だけで担当者ごとに金額を合計して、5月売上.csvに保存";
    // Every row of the file is known and May is there in 2026 only: May 2026.
    std::fs::write(
        dir.path().join("売上.csv"),
        "売上日,担当者,金額\n2026-04-30,佐藤,100\n2026-05-01,佐藤,200\n2026-05-31,鈴木,300\n2026-06-01,鈴木,400\n",
    )
    .unwrap();
    design_and_run(dir.path(), instruction);
    let written = std::fs::read_to_string(dir.path().join("5月売上.csv")).unwrap();
    assert!(written.contains("佐藤,200") && written.contains("鈴木,300"), "{written}");

    // May in two years: the year is asked, never guessed; the answer makes the plan.
    std::fs::write(
        dir.path().join("売上.csv"),
        "売上日,担当者,金額\n2025-05-10,佐藤,50\n2026-05-01,佐藤,200\n2026-05-31,鈴木,300\n",
    )
    .unwrap();
    let result = designed(dir.path(), instruction, 0);
    let ids: Vec<&str> = result["requirements"].as_array().unwrap().iter().filter_map(|r| r["id"].as_str()).collect();
    assert_eq!(ids, ["year"], "{result:#}");
    assert_eq!(result["requirements"][0]["label"], "対象の月の年（西暦）");
    std::fs::write(dir.path().join("answers.yaml"), "year: 2025\n").unwrap();
    design_and_run_with(dir.path(), instruction, &["--answers", "answers.yaml"]);
    let written = std::fs::read_to_string(dir.path().join("5月売上.csv")).unwrap();
    assert!(written.contains("佐藤,50") && !written.contains("鈴木"), "{written}");
}

#[test]
fn a_value_or_a_number_the_instruction_says_is_used_or_asked_about_never_dropped() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(
        dir.path().join("expenses.csv"),
        "date,employee,category,amount,status\n2026-09-02,Kim,Travel,1820.40,Approved\n2026-09-04,Nair,Meals,1120,Approved\n\
         2026-09-09,Lee,Travel,980,Approved\n2026-09-12,Scott,Travel,2310,Pending\n2026-09-18,Lee,Travel,1275.50,Approved\n",
    )
    .unwrap();
    // "Travel" is a value of `category`: a condition on it, beside the ones said.
    design_and_run(
        dir.path(),
        "From expenses.csv I need every approved Travel expense over 1000; save them to travel.csv",
    );
    let written = std::fs::read_to_string(dir.path().join("travel.csv")).unwrap();
    let lines: Vec<&str> = written.lines().skip(1).collect();
    assert_eq!(lines.len(), 2, "{written}");
    assert!(lines.iter().all(|l| l.contains("Travel") && l.contains("Approved")), "{written}");

    // Said where no step keeps rows, the value is asked about: the plan would copy every row.
    for (instruction, word) in [
        ("Copy the Travel lines of expenses.csv into travel.csv", "Travel"),
        ("Read expenses.csv, put them in 3 batches and save batches.csv", "3"),
    ] {
        let question = asked_what_to_do(dir.path(), instruction);
        assert!(question.contains(word), "{instruction}: {question}");
    }
}

/// `generate` in `dir` refuses `instruction` (exit 1) and asks what to do; the question's text.
fn asked_what_to_do(dir: &Path, instruction: &str) -> String {
    let result = designed(dir, instruction, 1);
    assert_eq!(result["refused"], true, "{instruction}: {result:#}");
    let question = &result["requirements"][0];
    assert_eq!(question["id"], "instruction.do", "{instruction}: {result:#}");
    question["description"].as_str().unwrap().to_owned()
}

#[test]
fn a_plan_that_keeps_nothing_of_the_data_writes_other_columns_or_ignores_a_file_named_is_asked_about() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(
        dir.path().join("invoices.csv"),
        "invoice_no,customer,amount\nINV-1,Northwind,420.00\nINV-2,Summit,960.00\nINV-3,Keystone,780.25\n",
    )
    .unwrap();
    // Tried on the work folder's files, the plan writes no row: asked, in the instruction's
    // language, naming the file; the work folder is left as it was.
    let question =
        asked_what_to_do(dir.path(), "Keep the invoices in invoices.csv over 5,000 and save them to big.csv");
    assert!(question.contains("writes no rows to big.csv"), "{question}");
    let question =
        asked_what_to_do(dir.path(), "invoices.csv の金額が5000を超える請求書だけを残して big.csv に保存して");
    assert!(question.contains("big.csv に1行も出力されません"), "{question}");
    assert!(!dir.path().join("big.csv").exists(), "a trial writes nothing into the work folder");
    // Once the person says what to do, a plan is given.
    std::fs::write(dir.path().join("answers.yaml"), "instruction.do: keep the invoices over 5,000\n").unwrap();
    let answered = planwright(
        dir.path(),
        &[
            "generate",
            "--instruction",
            "Keep the invoices in invoices.csv over 5,000 and save them to big.csv",
            "--answers",
            "answers.yaml",
            "--workdir",
            ".",
            "--out",
            "plan.yaml",
        ],
    );
    assert_eq!(answered.status.code(), Some(0), "{}", said(&answered));
    assert!(dir.path().join("plan.yaml").exists());

    // The instruction counts the columns and the plan tried writes others: asked, saying so.
    let question = asked_what_to_do(
        dir.path(),
        "Look at invoices.csv, customer = Summit, and give me those invoices as two columns in summit.csv",
    );
    assert!(question.contains("\"two columns\"") && question.contains("summit.csv"), "{question}");
    // One column said with the key it is ("each invoice_no once"): that column is written.
    design_and_run(
        dir.path(),
        "Look at invoices.csv, customer = Summit, and give me each invoice_no once, sorted A to Z, as a single column in summit.csv",
    );
    let written = std::fs::read_to_string(dir.path().join("summit.csv")).unwrap();
    assert_eq!(
        written.trim_start_matches('\u{feff}').lines().collect::<Vec<_>>(),
        ["invoice_no", "INV-2"],
        "{written}"
    );

    // A file the instruction names that no step uses: the plan would ignore it.
    std::fs::write(dir.path().join("credit_notes.csv"), "credit_no,invoice_no,amount\nCN-1,INV-2,60.00\n").unwrap();
    let question = asked_what_to_do(
        dir.path(),
        "Ask for sign-off, then check invoices.csv against credit_notes.csv and save the invoices to checked.csv",
    );
    assert!(question.contains("invoices.csv") || question.contains("credit_notes.csv"), "{question}");
}

#[test]
fn a_label_column_a_date_compared_and_a_status_kept_before_its_totals_do_the_job() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(
        dir.path().join("ar.csv"),
        "invoice_no,customer,due_date,balance\nINV-1,Northwind,2026-09-14,4200.00\nINV-2,Summit,2026-10-30,960.00\n\
         INV-3,Keystone,2026-10-31,780.25\nINV-4,Pinecrest,2026-11-19,415.00\n",
    )
    .unwrap();
    design_and_run(
        dir.path(),
        "Add a column called Aging to ar.csv. It should say Overdue when the due date is before October 31, 2026, and \
         Open otherwise. Save it as aging.csv",
    );
    let written = std::fs::read_to_string(dir.path().join("aging.csv")).unwrap();
    let aging: Vec<&str> = written.lines().skip(1).map(|l| l.rsplit(',').next().unwrap()).collect();
    assert_eq!(aging, ["Overdue", "Overdue", "Open", "Open"], "the 31st itself is not before it: {written}");

    // The other values of a column whose value is kept are said about it: no condition of theirs.
    std::fs::write(
        dir.path().join("runs.csv"),
        "run_id,run_date,result\nR1,2026-07-02,Failed\nR2,2026-07-09,Passed\nR3,2026-07-20,Failed\n\
         R4,2026-08-03,Skipped\nR5,2026-08-11,Failed\n",
    )
    .unwrap();
    design_and_run(
        dir.path(),
        "Could you count the failed runs per month from runs.csv? Only rows with result Failed count (Passed and \
         Skipped don't). Show the month and the number of failures, in month order, and save it as failed.csv",
    );
    let written = std::fs::read_to_string(dir.path().join("failed.csv")).unwrap();
    let rows: Vec<&str> = written.lines().skip(1).collect();
    assert_eq!(rows, ["2026-07,2", "2026-08,1"], "{written}");
}

#[test]
fn averages_rounded_as_said_are_written_rounded() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(
        dir.path().join("tickets.csv"),
        "ticket,priority,days_open,status\nT1,High,2,Closed\nT2,High,3,Closed\nT3,High,5,Closed\nT4,Low,10,Closed\n\
         T5,Low,11,Closed\nT6,Low,40,Open\n",
    )
    .unwrap();
    design_and_run(
        dir.path(),
        "I'd like the average days_open per priority from tickets.csv. Only count tickets whose status is Closed, and \
         round the averages to 2 decimals. Save it as averages.csv",
    );
    let written = std::fs::read_to_string(dir.path().join("averages.csv")).unwrap();
    let rows: Vec<&str> = written.lines().skip(1).collect();
    assert_eq!(rows, ["High,3.33", "Low,10.5"], "{written}");
}

#[test]
fn amounts_rounded_down_in_place_keep_their_column_and_an_average_named_apart_is_rounded() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("lines.csv"), "item,net_amount\nA,100.456\nB,20.999\nC,-3.335\n").unwrap();
    design_and_run(dir.path(), "From lines.csv, round the net amounts down to 2 decimals and save them as rounded.csv");
    let written = std::fs::read_to_string(dir.path().join("rounded.csv")).unwrap();
    assert_eq!(
        written.trim_start_matches('\u{feff}').lines().collect::<Vec<_>>(),
        ["item,net_amount", "A,100.45", "B,20.99", "C,-3.33"],
        "rounded down in place, no column added"
    );
    std::fs::write(
        dir.path().join("経費.csv"),
        "勘定科目,金額\n旅費交通費,1000\n旅費交通費,2001\n旅費交通費,3000\n会議費,1980\n",
    )
    .unwrap();
    design_and_run(
        dir.path(),
        "経費.csv を勘定科目ごとに件数・金額合計・平均金額（1円未満は四捨五入）を出してください。出力は 勘定科目、件数、合計、平均 \
         の4列で、ファイル名は 科目別.csv です。",
    );
    let written = std::fs::read_to_string(dir.path().join("科目別.csv")).unwrap();
    assert!(written.lines().any(|row| row == "旅費交通費,3,6001,2000"), "the average rounded: {written}");
}

#[test]
fn states_left_out_with_no_column_named_are_each_left_out() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(
        dir.path().join("請求一覧.csv"),
        "請求番号,入金状況,請求金額\nA,未入金,100\nB,取消,200\nC,入金済,300\nD,未入金,400\n",
    )
    .unwrap();
    design_and_run(dir.path(), "請求一覧.csv から、取消と入金済の行を除いて 対象.csv に保存してください。");
    let written = std::fs::read_to_string(dir.path().join("対象.csv")).unwrap();
    let ids: Vec<&str> = written.lines().skip(1).filter_map(|row| row.split(',').next()).collect();
    assert_eq!(ids, ["A", "D"], "{written}");
}

#[test]
fn words_that_say_more_than_a_value_compare_with_the_value_and_words_no_row_holds_are_asked() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(
        dir.path().join("purchase_orders.csv"),
        "po,vendor,status,amount\nP-1,Hartwell,Open,18450.00\nP-2,Hartwell,Cancelled,9000\nP-3,Orbis,Closed,1200\n\
         P-4,Orbis,Open,300\nP-5,Hartwell,On Hold,50\n",
    )
    .unwrap();
    // "Cancelled POs": `Cancelled` of `status`, the POs the rows; the cancelled one left out.
    design_and_run(
        dir.path(),
        "Total the amount per vendor from purchase_orders.csv into t.csv. Exclude Cancelled POs.",
    );
    let written = std::fs::read_to_string(dir.path().join("t.csv")).unwrap();
    assert!(written.contains("Hartwell,18500"), "{written}");
    assert!(written.contains("Orbis,1500"), "{written}");

    // Said as staying out, or as not counting: left out.
    for (instruction, kept) in [
        ("Open POs from purchase_orders.csv -> open.csv; everything else (Closed, On Hold, Cancelled) stays out.", 2),
        ("Copy purchase_orders.csv to open.csv. Cancelled and Closed ones don't count.", 3),
        ("Copy purchase_orders.csv to open.csv, leaving out Closed, On Hold and Cancelled.", 2),
    ] {
        design_and_run(dir.path(), instruction);
        let written = std::fs::read_to_string(dir.path().join("open.csv")).unwrap();
        assert_eq!(written.lines().skip(1).count(), kept, "{instruction}\n{written}");
        assert!(!written.contains("Cancelled") && !written.contains("Closed"), "{instruction}\n{written}");
    }

    // No row holds "Partially Paid", nor a part of it: leaving it out would leave out nothing.
    let question = asked_what_to_do(
        dir.path(),
        "Total the amount per vendor from purchase_orders.csv into t.csv; leave the Partially Paid ones out.",
    );
    assert!(question.contains("Partially Paid") && question.contains("status"), "{question}");
}

#[test]
fn a_column_named_by_the_files_own_name_is_that_column_and_one_column_without_duplicates_is_written() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(
        dir.path().join("発注履歴.csv"),
        "発注番号,発注日,発注先,発注金額\nP1,2026-06-30,甲商事,100\nP2,2026-07-02,乙工業,200\nP3,2026-08-15,甲商事,300\n\
         P4,2026-09-30,乙工業,400\nP5,2026-10-01,丙物産,500\nP6,2026-09-01,甲商事,600\n",
    )
    .unwrap();
    design_and_run(
        dir.path(),
        "発注履歴.csv から、2026年7月〜9月に発注した取引先（ファイルでは「発注先」列）を重複なしで1列だけ 一覧.csv に出してください。",
    );
    let written = std::fs::read_to_string(dir.path().join("一覧.csv")).unwrap();
    let mut rows: Vec<&str> = written.lines().skip(1).collect();
    rows.sort();
    assert_eq!(rows, ["乙工業", "甲商事"], "{written}");
}

#[test]
fn a_file_of_other_data_the_plan_would_write_over_unread_is_asked_about_and_an_earlier_output_is_not() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("rates.csv"), "Name,Rate\nLeo,165\nMaya,210\n").unwrap();
    std::fs::write(dir.path().join("timesheet.csv"), "Entry,Name,Hours\nT-1,Leo,7.5\n").unwrap();
    let instruction = "Keep the rates of 200 or more from rates.csv and save them to timesheet.csv";
    let asked = planwright(
        dir.path(),
        &["generate", "--instruction", instruction, "--workdir", ".", "--format", "json", "--out", "plan.yaml"],
    );
    let result: Value = serde_json::from_slice(&asked.stdout).unwrap();
    assert_eq!(result["refused"], true, "{result:#}");
    let asked_about = result["requirements"][0]["description"].as_str().unwrap_or_default();
    assert!(asked_about.contains("timesheet.csv is already in the work folder"), "{result:#}");
    assert_eq!(std::fs::read_to_string(dir.path().join("timesheet.csv")).unwrap(), "Entry,Name,Hours\nT-1,Leo,7.5\n");

    // The same file holding what the plan writes (its last run's output) is written again.
    std::fs::write(dir.path().join("timesheet.csv"), "Name,Rate\nMaya,210\n").unwrap();
    design_and_run(dir.path(), instruction);
    let written = std::fs::read_to_string(dir.path().join("timesheet.csv")).unwrap();
    assert_eq!(written.trim_start_matches('\u{feff}').lines().collect::<Vec<_>>(), ["Name,Rate", "Maya,210"]);
}

#[test]
fn conditional_counts_days_to_a_date_orders_of_values_and_ranks_are_designed_and_written() {
    let dir = tempfile::tempdir().unwrap();
    let write = |name: &str, text: &str| std::fs::write(dir.path().join(name), text).unwrap();
    let lines = |name: &str| -> Vec<String> {
        let text = std::fs::read_to_string(dir.path().join(name)).unwrap();
        text.lines().skip(1).map(str::to_owned).collect()
    };
    write("runs.csv", "build,suite,outcome\nb1,api,passed\nb2,api,failed\nb3,ui,passed\nb4,api,failed\nb5,ui,passed\n");
    design_and_run(
        dir.path(),
        "From runs.csv, per suite give runs (the number of runs) and failed (the number of runs with outcome failed). \
         Columns suite, runs, failed. Save as suites.csv",
    );
    assert_eq!(lines("suites.csv"), ["api,3,2", "ui,2,0"], "a suite without failures counts 0");

    write(
        "バグ.csv",
        "課題番号,起票日,状態\nK-1,2026-10-01,新規\nK-2,2026-10-31,対応中\nK-3,2026-11-01,新規\nK-4,2026-09-01,完了\nK-5,2026-08-15,新規\n",
    );
    design_and_run(
        dir.path(),
        "バグ.csv のうち、状態が「完了」以外のものについて、起票日から2026年11月30日までの経過日数を出してください。\
         経過日数が30日以上のものだけ残して、列は 課題番号、経過日数 です。経過日数の長い順で 長期.csv に出力。",
    );
    assert_eq!(lines("長期.csv"), ["K-5,107", "K-1,60", "K-2,30"]);

    write(
        "bugs.csv",
        "id,severity,status\nB-1,Low,Open\nB-2,High,Open\nB-3,Medium,Open\nB-4,High,Closed\nB-5,Medium,Open\n",
    );
    design_and_run(
        dir.path(),
        "bugs.csv: keep the Open bugs, sorted by severity High > Medium > Low, then by id. Columns id, severity. \
         Save as open.csv",
    );
    assert_eq!(
        lines("open.csv"),
        ["B-2,High", "B-3,Medium", "B-5,Medium", "B-1,Low"],
        "the order the values are listed in"
    );

    write("sales.csv", "customer,amount\nAcme,500\nBlue,300\nAcme,100\nCedar,900\nBlue,350\n");
    design_and_run(
        dir.path(),
        "From sales.csv, total amount per customer, top 2 by total. Columns rank, customer, total. Save as top.csv",
    );
    assert_eq!(lines("top.csv"), ["1,Cedar,900", "2,Blue,650"]);
}

#[test]
fn a_condition_filters_the_table_holding_its_column_before_a_match_blank_cells_are_filled_and_keys_match_in_any_case() {
    let dir = tempfile::tempdir().unwrap();
    let write = |name: &str, text: &str| std::fs::write(dir.path().join(name), text).unwrap();
    let lines = |name: &str| -> Vec<String> {
        let text = std::fs::read_to_string(dir.path().join(name)).unwrap();
        text.lines().skip(1).map(str::to_owned).collect()
    };
    write(
        "receipts.csv",
        "po_number,vendor,received_date,value\nPO-1,Harbor,2026-10-20,100\nPO-2,,2026-10-26,200\n\
         PO-3,Quill,2026-10-27,300\nPO-4,Apex,2026-10-31,400\nPO-5,Harbor,2026-11-01,500\n",
    );
    write("invoices.csv", "invoice_no,po_ref,amount\nI-1,PO-1,100\nI-2,PO-3,300\nI-3,,50\n");
    design_and_run(
        dir.path(),
        "I need the goods received in the last week of October 2026 (received_date Oct 25 through Oct 31) that \
         haven't been invoiced yet. The receipts are in receipts.csv; a receipt counts as invoiced if its po_number \
         appears in the po_ref column of invoices.csv. Where vendor is blank write Unknown. \
         List po_number, vendor and value, save it as grni.csv",
    );
    assert_eq!(
        lines("grni.csv"),
        ["PO-2,Unknown,200", "PO-4,Apex,400"],
        "the receipts of the week (not the invoices) without an invoice, a blank vendor filled"
    );

    write(
        "課題.csv",
        "課題番号,重要度,状態,担当者\nK-1,高,新規,佐藤\nK-2,高,完了,鈴木\nK-3,中,新規,\nK-4,高,対応中,\n",
    );
    design_and_run(
        dir.path(),
        "課題.csvから、重要度が「高」で状態が「完了」以外の課題を出してください。列は課題番号、担当者。\
         担当者が空欄のものは「未割当」と入れてください。→ 高.csv",
    );
    assert_eq!(lines("高.csv"), ["K-1,佐藤", "K-4,未割当"]);

    write("bank.csv", "date,reference,amount\n2026-11-02,CHQ-1,100\n2026-11-03,DD-2,50\n2026-11-09,FEE-3,-5\n");
    write("gl_cash.csv", "entry,reference,memo\nE1,chq-1,Cash paid\nE2,DD-2 ,Cash received\n");
    design_and_run(
        dir.path(),
        "List the lines on the bank statement (bank.csv) that have no entry with the same reference in our cash \
         ledger (gl_cash.csv). Some ledger references were typed in lowercase; treat those as the same reference. \
         Save them in unmatched.csv",
    );
    assert_eq!(lines("unmatched.csv"), ["2026-11-09,FEE-3,-5"], "keys match whatever their case and trailing spaces");
}

#[test]
fn a_formula_of_several_signs_is_one_column_computed_on_the_rows_before_they_are_totalled() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(
        dir.path().join("経費明細.csv"),
        "明細番号,利用日,勘定科目,税込金額,税率\nM-01,2026-11-02,会議費,4320,8\nM-02,2026-11-04,旅費交通費,11300,10\n\
         M-03,2026-11-06,会議費,1296,8\nM-04,2026-11-09,旅費交通費,2860,10\n",
    )
    .unwrap();
    design_and_run(
        dir.path(),
        "経費明細.csv を勘定科目別に集計してください。消費税額＝税込金額×税率÷（100＋税率）で1円未満は切り捨て、\
         税抜金額＝税込金額−消費税額 です。列は 勘定科目、件数、税抜合計 で 科目別税抜.csv へお願いします。",
    );
    let written = std::fs::read_to_string(dir.path().join("科目別税抜.csv")).unwrap();
    // 会議費: 4320 − 320 + 1296 − 96 = 5200; 旅費交通費: 11300 − 1027 + 2860 − 260 = 12873.
    assert!(written.contains("会議費,2,5200") && written.contains("旅費交通費,2,12873"), "{written}");
    let plan = std::fs::read_to_string(dir.path().join("plan.yaml")).unwrap();
    assert!(plan.contains("op: formula"), "one column for the formula: {plan}");
}

#[test]
fn a_formula_s_column_the_file_names_otherwise_is_bound_or_asked() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("lines.csv"), "sku,qty,unit_price\nA-1,3,1.50\nB-2,2,4.00\n").unwrap();
    let instruction = "From lines.csv add gross = qty * unit price + 0.5 and save gross.csv";
    design_and_run(dir.path(), instruction);
    let written = std::fs::read_to_string(dir.path().join("gross.csv")).unwrap();
    assert!(written.contains("A-1,3,1.5,5") && written.contains("B-2,2,4,8.5"), "{written}");
    let plan = std::fs::read_to_string(dir.path().join("plan.yaml")).unwrap();
    assert!(plan.contains("[qty] * [unit_price] + 0.5"), "'unit price' is the file's unit_price: {plan}");

    // No column of the file is the rate: asked, with the file's columns as the choices.
    let instruction = "From lines.csv add gross = qty * unit_price * rate and save gross.csv";
    let result = designed(dir.path(), instruction, 0);
    let question = &result["requirements"][0];
    assert_eq!(question["options"], serde_json::json!(["sku", "qty", "unit_price"]), "{result:#}");
    assert!(result["plan_yaml"].as_str().unwrap().contains("${vars."), "{result:#}");
    let var = question["id"].as_str().unwrap();
    std::fs::write(dir.path().join("answers.yaml"), format!("{var}: qty\n")).unwrap();
    design_and_run_with(dir.path(), instruction, &["--answers", "answers.yaml"]);
    let written = std::fs::read_to_string(dir.path().join("gross.csv")).unwrap();
    assert!(
        written.contains("A-1,3,1.5,13.5") && written.contains("B-2,2,4,16"),
        "the answer fills the formula: {written}"
    );
}

#[test]
fn keys_named_apart_are_matched_by_their_values_and_a_month_named_is_kept_or_asked() {
    let dir = tempfile::tempdir().unwrap();
    let log = "voucher,date,paid_to,amount\nPC-0401,2026-10-01,Blue Bottle Cafe,36.40\nPC-0402,2026-10-03,USPS,12.85\nPC-0403,2026-10-07,Ace Hardware,23.19\n";
    std::fs::write(dir.path().join("petty_cash_log.csv"), log).unwrap();
    std::fs::write(
        dir.path().join("receipts_scanned.csv"),
        "file_name,voucher_ref,scanned_on\nscan_1001.pdf,PC-0401,2026-10-02\nscan_1002.pdf,PC-0402,2026-10-04\n",
    )
    .unwrap();
    let instruction =
        "List the October payouts in petty_cash_log.csv that have no match in receipts_scanned.csv, and save them to missing.csv";
    // Every payout of the log is October's: the month keeps them all; the key is voucher in the
    // log and voucher_ref in the receipts, whose values agree.
    design_and_run(dir.path(), instruction);
    let written = std::fs::read_to_string(dir.path().join("missing.csv")).unwrap();
    assert!(written.contains("PC-0403") && !written.contains("PC-0401") && !written.contains("PC-0402"), "{written}");
    let plan = std::fs::read_to_string(dir.path().join("plan.yaml")).unwrap();
    assert!(plan.contains("left_key: voucher") && plan.contains("right_key: voucher_ref"), "{plan}");
    assert!(!plan.contains("match_key"), "no var left for the key: {plan}");

    // A September payout in the log: "the October payouts" keep October's, in the one year the
    // log holds October in.
    std::fs::write(dir.path().join("petty_cash_log.csv"), format!("{log}PC-0398,2026-09-28,City Parking,18.00\n"))
        .unwrap();
    design_and_run(dir.path(), instruction);
    let written = std::fs::read_to_string(dir.path().join("missing.csv")).unwrap();
    assert!(written.contains("PC-0403") && !written.contains("PC-0398"), "{written}");
    // A month said in passing that no step keeps rows by is asked about, not dropped.
    let question = asked_what_to_do(
        dir.path(),
        "October close: list the payouts in petty_cash_log.csv that have no match in receipts_scanned.csv, and save them to missing.csv",
    );
    assert!(question.contains("October"), "{question}");
}

#[test]
fn the_work_folder_s_one_data_file_is_read_when_the_instruction_names_none_and_two_are_asked_about() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(
        dir.path().join("売上明細.csv"),
        "売上日,担当者,金額\n2026-11-02,佐藤,100\n2026-11-05,鈴木,300\n2026-11-09,佐藤,200\n",
    )
    .unwrap();
    let instruction = "担当者ごとに金額を合計して 担当者別.csv に保存してください";
    let result = designed(dir.path(), instruction, 0);
    assert_eq!(result["requirements"].as_array().map(Vec::len), Some(0), "{result:#}");
    let reasoning = result["reasoning"].to_string();
    assert!(reasoning.contains("売上明細.csv"), "the file read is said: {reasoning}");
    let run = planwright(dir.path(), &["run", "plan.yaml", "--workdir", "."]);
    assert_eq!(run.status.code(), Some(0), "{}", said(&run));
    let written = std::fs::read_to_string(dir.path().join("担当者別.csv")).unwrap();
    assert!(written.contains("佐藤,300") && written.contains("鈴木,300"), "{written}");

    // Another data file there: which one is asked, never guessed.
    std::fs::write(dir.path().join("経費.csv"), "日付,担当者,金額\n2026-11-01,佐藤,5\n").unwrap();
    let result = designed(dir.path(), instruction, 0);
    let ids: Vec<&str> = result["requirements"].as_array().unwrap().iter().filter_map(|r| r["id"].as_str()).collect();
    assert!(ids.contains(&"input_file"), "{result:#}");
}

#[test]
fn a_job_said_only_as_like_last_time_is_asked_even_with_one_data_file() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("data.csv"), "id,name,value\n1,Acme,1200\n2,acme,1200\n").unwrap();
    let question = asked_what_to_do(dir.path(), "Clean it up and make the report, same as you did for Karen.");
    assert!(!question.is_empty());
}

#[test]
fn keys_of_unrelated_names_are_matched_when_their_values_are_mostly_the_same_and_asked_when_two_pairs_could_be() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(
        dir.path().join("requirements.csv"),
        "Req ID,Title,Priority\nREQ-101,Log in with SSO,Must\nREQ-102,Lock account,Must\nREQ-103,Export CSV,Should\n",
    )
    .unwrap();
    std::fs::write(
        dir.path().join("test_cases.csv"),
        "Case ID,Covers Requirement,Last Result\nTC-1,REQ-101,Passed\nTC-2,REQ-101,Failed\nTC-3,REQ-103,Passed\n",
    )
    .unwrap();
    let instruction =
        "Which requirements in requirements.csv have no test case in test_cases.csv? Save them to uncovered.csv";
    design_and_run(dir.path(), instruction);
    let written = std::fs::read_to_string(dir.path().join("uncovered.csv")).unwrap();
    assert!(written.contains("REQ-102") && !written.contains("REQ-101") && !written.contains("REQ-103"), "{written}");
    let plan = std::fs::read_to_string(dir.path().join("plan.yaml")).unwrap();
    assert!(plan.contains("left_key: Req ID") && plan.contains("right_key: Covers Requirement"), "{plan}");

    // A second column of the cases holding the same ids: which pair is the key is asked.
    std::fs::write(
        dir.path().join("test_cases.csv"),
        "Case ID,Covers Requirement,Also Touches,Last Result\nTC-1,REQ-101,REQ-102,Passed\nTC-2,REQ-101,REQ-103,Failed\nTC-3,REQ-103,REQ-101,Passed\n",
    )
    .unwrap();
    let result = designed(dir.path(), instruction, 0);
    let ids: Vec<&str> = result["requirements"].as_array().unwrap().iter().filter_map(|r| r["id"].as_str()).collect();
    assert_eq!(ids, ["match_key"], "{result:#}");
}

#[test]
fn a_rate_of_counts_per_group_is_written_or_a_count_of_a_value_the_data_lacks_is_asked() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(
        dir.path().join("結果.csv"),
        "ID,機能,結果\n1,ログイン,OK\n2,ログイン,NG\n3,ログイン,OK\n4,検索,OK\n5,検索,未実施\n6,検索,OK\n",
    )
    .unwrap();
    design_and_run(
        dir.path(),
        "結果.csv を機能ごとに集計してください。実施件数（OKとNGの合計）、NG件数、NG率（NG件数÷実施件数×100、小数第1位まで）。列は 機能・実施件数・NG件数・NG率、出力は NG率.csv です。",
    );
    let written = std::fs::read_to_string(dir.path().join("NG率.csv")).unwrap();
    let rows: Vec<&str> = written.lines().collect();
    assert_eq!(rows.len(), 3, "{written}");
    assert!(rows.iter().any(|r| r.starts_with("ログイン,3,1,33.3")), "{written}");
    assert!(rows.iter().any(|r| r.starts_with("検索,2,0,0")), "{written}");
    // 「合格数」 counts rows whose status is 合格; this data says OK: asked, not a column of zeros.
    std::fs::write(dir.path().join("状況.csv"), "ID,機能,ステータス\n1,ログイン,OK\n2,ログイン,NG\n3,検索,OK\n")
        .unwrap();
    let result = designed(
        dir.path(),
        "状況.csv を機能ごとに集計してください。実施件数（OKとNGの合計）、合格数、合格率（合格数÷実施件数×100）。列は 機能・実施件数・合格数・合格率、出力は 合格率.csv です。",
        1,
    );
    assert_eq!(result["refused"], true, "{result:#}");
    assert!(result["requirements"][0]["description"].as_str().unwrap().contains("合格"), "{result:#}");
}

#[test]
fn rows_kept_by_a_column_named_alone_are_those_that_have_one_and_a_file_named_for_last_month_keeps_its_name() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(
        dir.path().join("bank.csv"),
        "date,description,deposit,withdrawal,balance\n2026-02-27,Transfer in,350000,,2350000\n2026-03-02,Fee,,660,2349340\n2026-03-10,Transfer in,480000,,2829340\n2026-03-25,Payroll,,1268400,1560940\n",
    )
    .unwrap();
    // "only the withdrawals": the rows whose withdrawal is not blank (no deposit among them).
    design_and_run(dir.path(), "Read bank.csv, keep only the withdrawals, newest first, and save as w.csv");
    let written = std::fs::read_to_string(dir.path().join("w.csv")).unwrap();
    let days: Vec<&str> = written.lines().skip(1).map(|l| l.split(',').next().unwrap()).collect();
    assert_eq!(days, ["2026-03-25", "2026-03-02"], "{written}");
    std::fs::write(
        dir.path().join("普通預金.csv"),
        "日付,摘要,入金額,出金額\n2026/02/27,振込,350000,\n2026/03/02,振込手数料,,660\n2026/03/10,振込,480000,\n2026/03/25,給与振込,,1268400\n2026/04/01,振込手数料,,440\n",
    )
    .unwrap();
    // 「先月」 is March of the day said; 「先月出金.csv」 is the name to write, as said.
    design_and_run(
        dir.path(),
        "今日は2026年4月10日です。普通預金.csv から先月分の出金だけを抜き出して、日付の古い順に。列は 日付・摘要・出金額 の3つ。→ 先月出金.csv",
    );
    let written = std::fs::read_to_string(dir.path().join("先月出金.csv")).unwrap();
    let rows: Vec<&str> = written.trim_start_matches('\u{feff}').lines().collect();
    assert_eq!(rows, ["日付,摘要,出金額", "2026/03/02,振込手数料,660", "2026/03/25,給与振込,1268400"], "{written}");
}

#[test]
fn columns_said_after_the_file_written_are_its_columns_and_the_key_s_code_and_name_both_group() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(
        dir.path().join("勤怠.csv"),
        "週,社員番号,氏名,実働時間\nW1,E-01,青木,40\nW1,E-02,井上,38\nW1,E-03,岡田,45\nW2,E-01,青木,42\nW2,E-02,井上,39\nW2,E-03,岡田,41\n",
    )
    .unwrap();
    design_and_run(dir.path(), "勤怠.csv、社員ごとの実働合計の上位2人 → 上位.csv（社員番号・氏名・合計時間、多い順）");
    let written = std::fs::read_to_string(dir.path().join("上位.csv")).unwrap();
    let rows: Vec<&str> = written.trim_start_matches('\u{feff}').lines().collect();
    assert_eq!(rows, ["社員番号,氏名,合計時間", "E-03,岡田,86", "E-01,青木,82"], "{written}");
}

#[test]
fn rows_said_to_be_left_out_by_a_value_of_the_data_go_before_the_totals() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(
        dir.path().join("assets.csv"),
        "id,category,cost,status\nA1,Vehicles,100,In service\nA2,IT,50,Disposed\nA3,IT,30,In service\nA4,Vehicles,20,Disposed\nA5,Furniture,10,In service\n",
    )
    .unwrap();
    design_and_run(
        dir.path(),
        "Total the cost per asset category, with the number of assets in each category; disposed assets are to be left out. The categories should be listed alphabetically. Read assets.csv and save as c.csv.",
    );
    let written = std::fs::read_to_string(dir.path().join("c.csv")).unwrap();
    let rows: Vec<&str> = written.trim_start_matches('\u{feff}').lines().skip(1).collect();
    assert_eq!(rows, ["Furniture,10,1", "IT,30,1", "Vehicles,100,1"], "{written}");
}

#[test]
fn a_value_said_beside_rows_left_out_keeps_rows_in_a_step_of_its_own_and_a_key_named_as_written_matches() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(
        dir.path().join("bugs.csv"),
        "bug_id,title,severity,status,assignee,reported_on\nB1,T1,Critical,Open,Nina,2026-03-28\nB2,T2,Minor,Open,Raj,2026-03-29\nB3,T3,Critical,Closed,Leo,2026-03-20\nB4,T4,Critical,Resolved,Raj,2026-03-21\n",
    )
    .unwrap();
    design_and_run(
        dir.path(),
        "I need the bugs from bugs.csv that are critical and not closed yet (any status except Closed). Only the ID, the title and who owns it (the assignee), oldest report first. Save it as open.csv",
    );
    let written = std::fs::read_to_string(dir.path().join("open.csv")).unwrap();
    let rows: Vec<&str> = written.trim_start_matches('\u{feff}').lines().skip(1).collect();
    assert_eq!(rows, ["B4,T4,Raj", "B1,T1,Nina"], "{written}");
    // Two columns both files have; the text names the key as written.
    std::fs::write(
        dir.path().join("requirements.csv"),
        "req_id,title,priority\nR1,Login,High\nR2,Export,Low\nR3,Audit,Medium\n",
    )
    .unwrap();
    std::fs::write(dir.path().join("cases.csv"), "case_id,req_id,title\nC1,R1,Login ok\nC2,R3,Audit kept\n").unwrap();
    design_and_run(
        dir.path(),
        "Which requirements have no test case? requirements.csv is the list and cases.csv says which requirement each case covers (req_id). Just the requirement ID, title and priority of the uncovered ones -> uncovered.csv",
    );
    let written = std::fs::read_to_string(dir.path().join("uncovered.csv")).unwrap();
    let rows: Vec<&str> = written.trim_start_matches('\u{feff}').lines().skip(1).collect();
    assert_eq!(rows, ["R2,Export,Low"], "{written}");
}

#[test]
fn a_column_named_with_brackets_is_bound_by_its_words_in_either_order() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(
        dir.path().join("旅費.csv"),
        "申請番号,氏名,金額（税抜）,状態\nT1,岡田,27350,承認済\nT2,石井,18445,差戻し\nT3,森,41983,承認済\n",
    )
    .unwrap();
    design_and_run(
        dir.path(),
        "旅費.csv の状態が「承認済」のものだけ、税込額（税抜額×1.1、1円未満切り捨て）の列を追加して、申請番号・氏名・税抜額・税込額 の4列で 税込.csv に保存",
    );
    let written = std::fs::read_to_string(dir.path().join("税込.csv")).unwrap();
    let rows: Vec<&str> = written.trim_start_matches('\u{feff}').lines().skip(1).collect();
    assert_eq!(rows, ["T1,岡田,27350,30085", "T3,森,41983,46181"], "{written}");
}

#[test]
fn english_words_bind_japanese_headers_and_the_file_read_is_never_written() {
    let dir = tempfile::tempdir().unwrap();
    let data =
        "顧客コード,顧客名,与信限度額,売掛残高\nC1,Hartwell,50000,42300\nC2,Mori,30000,41250\nC3,Sato,10000,12000\n";
    std::fs::write(dir.path().join("credit.csv"), data).unwrap();
    design_and_run(
        dir.path(),
        "Make me over.csv: the customers in credit.csv (the Tokyo office's export, so the headers are in Japanese) whose outstanding balance is above their credit limit. I need customer code, customer name, credit limit, balance and over_by (balance minus credit limit), biggest over_by first.",
    );
    let written = std::fs::read_to_string(dir.path().join("over.csv")).unwrap();
    let rows: Vec<&str> = written.trim_start_matches('\u{feff}').lines().skip(1).collect();
    assert_eq!(rows, ["C2,Mori,30000,41250,11250", "C3,Sato,10000,12000,2000"], "{written}");
    assert_eq!(std::fs::read_to_string(dir.path().join("credit.csv")).unwrap(), data, "the file read is as it was");
}

#[test]
fn the_columns_of_two_matched_files_are_named_by_their_side_and_shown_as_said() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(
        dir.path().join("bank_march.csv"),
        "date,ref,description,amount\n2026-03-02,CHQ-1,Cheque,-1250.00\n2026-03-04,DD-7,Electricity,-318.40\n2026-03-31,FEE-1,Charges,-24.00\n",
    )
    .unwrap();
    std::fs::write(
        dir.path().join("ledger_march.csv"),
        "posting_date,doc_ref,account,amount\n2026-03-01,CHQ-1,Payables,-1250.00\n2026-03-04,DD-7,Utilities,-381.40\n",
    )
    .unwrap();
    design_and_run(
        dir.path(),
        "1. Match each line of bank_march.csv to ledger_march.csv on the reference (ref in the bank file, doc_ref in the ledger).\n2. Keep only the matched pairs where the bank amount and the ledger amount are not the same.\n3. Show ref, bank amount, ledger amount and difference (bank minus ledger).\n4. Save as mismatches.csv, sorted by ref.",
    );
    let written = std::fs::read_to_string(dir.path().join("mismatches.csv")).unwrap();
    let mut lines = written.trim_start_matches('\u{feff}').lines();
    assert_eq!(lines.next(), Some("ref,bank amount,ledger amount,difference"), "{written}");
    assert_eq!(lines.collect::<Vec<_>>(), ["DD-7,-318.4,-381.4,63"], "{written}");
    assert!(dir.path().join("ledger_march.csv").exists());
}

#[test]
fn two_years_matched_by_month_bind_their_sides_by_the_file_names_words_in_japanese() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("売上_前年度.csv"), "月,売上高\n4月,100\n5月,200\n1月,300\n").unwrap();
    std::fs::write(dir.path().join("売上_今年度.csv"), "月,売上高\n4月,120\n5月,150\n1月,290\n").unwrap();
    design_and_run(
        dir.path(),
        "売上_前年度.csv と 売上_今年度.csv を月で突き合わせて、前年比（今年度÷前年度×100、小数第1位までで四捨五入）が100%未満の月を教えてください。列は月・前年度売上・今年度売上・前年比で、4月から年度の順に並べて 前年割れ月.csv に出してほしいです。",
    );
    let written = std::fs::read_to_string(dir.path().join("前年割れ月.csv")).unwrap();
    let mut lines = written.trim_start_matches('\u{feff}').lines();
    assert_eq!(lines.next(), Some("月,前年度売上,今年度売上,前年比"), "{written}");
    assert_eq!(lines.collect::<Vec<_>>(), ["5月,200,150,75", "1月,300,290,96.7"], "{written}");
}

#[test]
fn a_column_of_amounts_said_of_rows_left_out_leaves_out_the_rows_that_have_one() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(
        dir.path().join("小口現金出納帳.csv"),
        "日付,伝票No,科目,摘要,入金,出金\n2026-10-30,P-1,消耗品費,文具,,500\n2026-11-02,P-2,資金移動,小口現金補充,30000,\n2026-11-05,P-3,消耗品費,電池,,800\n2026-11-10,P-4,旅費交通費,タクシー,,2400\n2026-11-20,P-5,消耗品費,封筒,,300\n2026-12-01,P-6,旅費交通費,電車,,600\n",
    )
    .unwrap();
    design_and_run(
        dir.path(),
        "本日（2026年12月3日）時点で、先月分の小口現金の使い道をまとめたいと思います。小口現金出納帳.csv から先月分の出金の記録だけを取り出し、科目ごとに件数と出金額の合計を出して、合計の大きい順に並べてください。補充の入金は対象外です。ファイル名は 科目別.csv でお願いします。",
    );
    let written = std::fs::read_to_string(dir.path().join("科目別.csv")).unwrap();
    let rows: Vec<&str> = written.trim_start_matches('\u{feff}').lines().skip(1).collect();
    assert_eq!(rows, ["旅費交通費,1,2400", "消耗品費,2,1100"], "{written}");
}

/// "… at or below the reorder point, but skip discontinued items": the word of rows left out is
/// a value of the data, and a condition of the step that leaves rows out — not of the first
/// filter, which keeps rows by two columns compared.
#[test]
fn a_value_said_of_rows_left_out_goes_to_the_step_that_leaves_them_out() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(
        dir.path().join("inventory.csv"),
        "sku,item_name,quantity_on_hand,reorder_point,status\nS-1,Paper,12,15,Active\nS-2,Gloves,0,20,Discontinued\nS-3,Tape,30,10,Active\nS-4,Toner,4,4,Active\nS-5,Wrap,2,6,Discontinued\n",
    )
    .unwrap();
    design_and_run(
        dir.path(),
        "From inventory.csv keep the items where the qty is at or below the reorder point, but skip discontinued items. Write reorder.csv",
    );
    let written = std::fs::read_to_string(dir.path().join("reorder.csv")).unwrap();
    let skus: Vec<&str> = written.lines().skip(1).filter_map(|l| l.split(',').next()).collect();
    assert_eq!(skus, ["S-1", "S-4"], "{written}");
}

/// "Could you check payments.csv for double payments?" over data whose payment method is
/// `Check`: the verb of the request is no value the plan leaves unused; the duplicates of three
/// columns all the same are listed whole, with the columns asked for.
#[test]
fn double_payments_of_three_columns_all_the_same_are_listed_whole() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(
        dir.path().join("payments.csv"),
        "payment_id,paid_date,vendor,invoice_no,amount,method\nP-1,2026-11-03,Acme,INV-1,1240.00,ACH\nP-2,2026-11-04,Bright,BW-2,388.19,ACH\nP-3,2026-11-06,Acme,INV-1,1240.00,Check\nP-4,2026-11-07,Cedar,C-9,5500.00,Wire\nP-5,2026-11-09,Cedar,C-9,550.00,Check\n",
    )
    .unwrap();
    design_and_run(
        dir.path(),
        "Could you check payments.csv for possible double payments? I'd call it a duplicate when the vendor, the invoice number and the amount are all the same. Please list every payment in those groups with payment id, vendor, invoice no, amount and paid date, ordered by vendor and then paid date, and save it as dups.csv.",
    );
    let written = std::fs::read_to_string(dir.path().join("dups.csv")).unwrap();
    let rows: Vec<&str> = written.trim_start_matches('\u{feff}').lines().collect();
    assert_eq!(rows.len(), 3, "{written}");
    assert!(rows[1].starts_with("P-1,") && rows[2].starts_with("P-3,"), "{written}");
    assert_eq!(rows[0].split(',').count(), 5, "{written}");
}

/// 「立替金明細.csv … 立替金を社員ごとに合計」: what is totalled is what the file holds, and its one
/// column of numbers (`金額`) is the amount; exact repeats are removed first.
#[test]
fn what_the_file_holds_totalled_is_its_one_column_of_numbers() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(
        dir.path().join("立替金明細.csv"),
        "社員番号,氏名,立替日,内容,金額,精算状況\nS101,田中,2026/11/05,飲料,1280,未精算\nS102,鈴木,2026/11/06,送料,980,未精算\nS101,田中,2026/11/05,飲料,1280,未精算\nS103,伊藤,2026/11/08,書籍,3520,精算済\nS102,鈴木,2026/11/12,文具,640,未精算\n",
    )
    .unwrap();
    design_and_run(
        dir.path(),
        "立替金明細.csv の重複している行は1行にまとめたうえで、まだ精算していない（精算状況が「未精算」の）立替金を社員ごとに合計してください。社員番号・氏名・立替金の合計の3列で、合計の多い順に 未精算.csv として保存",
    );
    let written = std::fs::read_to_string(dir.path().join("未精算.csv")).unwrap();
    let rows: Vec<&str> = written.trim_start_matches('\u{feff}').lines().skip(1).collect();
    assert_eq!(rows, ["S102,鈴木,1620", "S101,田中,1280"], "{written}");
}

/// "keep the billable time only" over a column of Yes and No keeps the rows of Yes; the two
/// weekly files are stacked, and the name offered last is the file written.
#[test]
fn a_word_naming_a_column_of_yes_and_no_keeps_the_rows_of_yes() {
    let dir = tempfile::tempdir().unwrap();
    let week = |rows: &str| format!("employee,date,project,hours,billable\n{rows}");
    std::fs::write(
        dir.path().join("wk48.csv"),
        week("Kai,2026-11-23,ALPHA,6.5,Yes\nKai,2026-11-24,INTERNAL,2,No\nLena,2026-11-23,BETA,7,Yes\n"),
    )
    .unwrap();
    std::fs::write(dir.path().join("wk49.csv"), week("Kai,2026-11-30,ALPHA,7,Yes\nOmar,2026-12-02,BETA,3,No\n"))
        .unwrap();
    design_and_run(
        dir.path(),
        "can you stack the two weekly timesheets (wk48.csv and wk49.csv), keep the billable time only and total the hours by project? Just project and total hours, most hours first. billable_hours.csv is fine.",
    );
    let written = std::fs::read_to_string(dir.path().join("billable_hours.csv")).unwrap();
    let rows: Vec<&str> = written.trim_start_matches('\u{feff}').lines().skip(1).collect();
    assert_eq!(rows, ["ALPHA,13.5", "BETA,7"], "{written}");
}

/// 「10月・11月に出荷した分」: both months (the year from the data), not the last one said; months
/// apart (「4月・6月」) are asked, not read as one.
#[test]
fn months_said_together_keep_every_month_said() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(
        dir.path().join("出荷実績.csv"),
        "出荷番号,出荷日,得意先,金額\nS-1,2026/09/30,A社,100\nS-2,2026/10/01,B社,200\nS-3,2026/11/30,C社,300\nS-4,2026/12/01,D社,400\n",
    )
    .unwrap();
    design_and_run(dir.path(), "出荷実績.csv のうち10月・11月に出荷した分だけ残して 結果.csv に出力");
    let written = std::fs::read_to_string(dir.path().join("結果.csv")).unwrap();
    let numbers: Vec<&str> =
        written.trim_start_matches('\u{feff}').lines().skip(1).filter_map(|l| l.split(',').next()).collect();
    assert_eq!(numbers, ["S-2", "S-3"], "{written}");
    let result = designed(dir.path(), "出荷実績.csv のうち4月・6月に出荷した分だけ残して 結果.csv に出力", 0);
    assert!(result["requirements"].as_array().is_some_and(|r| !r.is_empty()), "{result}");
}

/// 「出荷月（2026-11 のような形）」 shown beside 出荷日: the month of that date, as the example writes it.
#[test]
fn a_month_column_shown_by_its_form_is_the_month_of_its_date() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("出荷実績.csv"), "受注番号,出荷日,金額\nJ-1,2026/10/05,100\nJ-2,2026/11/20,200\n")
        .unwrap();
    design_and_run(
        dir.path(),
        "出荷実績.csv を、列は受注番号・出荷日・出荷月（2026-11 のような形）・金額で、出荷日順に 結果.csv に出力してください",
    );
    let written = std::fs::read_to_string(dir.path().join("結果.csv")).unwrap();
    let rows: Vec<&str> = written.trim_start_matches('\u{feff}').lines().collect();
    assert_eq!(
        rows,
        ["受注番号,出荷日,出荷月,金額", "J-1,2026/10/05,2026-10,100", "J-2,2026/11/20,2026-11,200"],
        "{written}"
    );
}

/// "where nobody checked in" over a column of Yes and No keeps the rows of No; "minutes booked
/// (end - start)" of two clock times is the minutes between them; "sort by date, then room,
/// then start time" sorts by the three; a bare list of names is the columns written. (Said
/// with no condition read beside it, "where nobody …" is asked about instead.)
#[test]
fn a_denied_yes_no_word_keeps_the_rows_of_no_and_clock_times_subtract_to_minutes() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(
        dir.path().join("room_bookings.csv"),
        "booking_id,room,date,start,end,organizer,checked_in\nRB-1,Maple,2026-12-01,09:00,10:30,Ann,No\nRB-2,Cedar,2026-12-01,14:00,15:00,Raj,Yes\nRB-3,Birch,2026-12-01,08:30,09:15,Lee,No\nRB-4,Birch,2026-12-01,08:00,08:20,Kai,no\n",
    )
    .unwrap();
    design_and_run(
        dir.path(),
        "room_bookings.csv -> no_shows.csv. bookings from last week (Mon 11/30 - Sun 12/6, 2026) where nobody checked in. booking id, date, room, organizer, minutes booked (end - start). sort by date, then room, then start time",
    );
    let written = std::fs::read_to_string(dir.path().join("no_shows.csv")).unwrap();
    let rows: Vec<&str> = written.trim_start_matches('\u{feff}').lines().skip(1).collect();
    assert_eq!(
        rows,
        ["RB-4,2026-12-01,Birch,Kai,20", "RB-3,2026-12-01,Birch,Lee,45", "RB-1,2026-12-01,Maple,Ann,90"],
        "{written}"
    );
    let asked = designed(dir.path(), "room_bookings.csv -> no_shows.csv. bookings where nobody checked in.", 0);
    assert!(asked["requirements"].as_array().is_some_and(|r| !r.is_empty()), "{asked}");
}

/// "which invoices haven't been paid at all yet … match … against payments" keeps the invoices
/// with no payment (an irregular "paid" says so as well as "…ed"); "ignore voided invoices" in
/// an aside beside "a part payment counts as paid" still leaves the `Void` ones out ("voided" is
/// that value inflected).
#[test]
fn invoices_that_have_not_been_paid_are_those_without_a_payment_and_voided_ones_are_left_out() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(
        dir.path().join("invoices.csv"),
        "invoice_no,client,amount,status\nA-1,Ann,100,Sent\nA-2,Bo,200,Void\nA-3,Cy,300,Sent\nA-4,Di,400,Sent\n",
    )
    .unwrap();
    std::fs::write(
        dir.path().join("payments.csv"),
        "payment_id,invoice_no,paid\nP-1,A-1,100\nP-2,A-4,50\nP-3,A-9,10\n",
    )
    .unwrap();
    design_and_run(
        dir.path(),
        "Which invoices haven't been paid at all yet? Match invoices.csv against payments.csv on the invoice number (a part payment counts as paid, and ignore voided invoices). Invoice no, client and amount, any order. File: unpaid.csv",
    );
    let written = std::fs::read_to_string(dir.path().join("unpaid.csv")).unwrap();
    let rows: Vec<&str> = written.trim_start_matches('\u{feff}').lines().skip(1).collect();
    assert_eq!(rows, ["A-3,Cy,300"], "{written}");
}

/// 「ログに一度も実施記録がないケース」: the cases with no run in the log, matched on the one column
/// both files have (「実施記録」 names none); 「ログの結果が「スキップ」の行は実施に数えません」 leaves
/// the log's skipped runs out before the match, so a case only skipped has no run.
#[test]
fn cases_never_run_are_matched_on_the_column_both_files_have_after_the_logs_skips_are_left_out() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("ケース.csv"), "ケースID,機能,優先度\nT-1,ログイン,高\nT-2,検索,中\nT-3,帳票,低\n")
        .unwrap();
    std::fs::write(dir.path().join("ログ.csv"), "実行ID,ケースID,結果\nR-1,T-1,合格\nR-2,T-2,スキップ\nR-3,T-9,合格\n")
        .unwrap();
    design_and_run(
        dir.path(),
        "ケース.csv のうち、ログ.csv に一度も実施記録がないケースを出してください。ログの結果が「スキップ」の行は実施に数えません。ケースID・機能・優先度、順不同で 未実施.csv に。",
    );
    let written = std::fs::read_to_string(dir.path().join("未実施.csv")).unwrap();
    let mut rows: Vec<&str> = written.trim_start_matches('\u{feff}').lines().skip(1).collect();
    rows.sort();
    assert_eq!(rows, ["T-2,検索,中", "T-3,帳票,低"], "{written}");
}

/// The one column both files have, when each file holds its values more than once (「会員番号」 of
/// absences and of make-up bookings), would pair rows no one said to pair: with the words naming
/// no key, the match is asked about, never made on it.
#[test]
fn a_column_both_files_repeat_is_no_key_taken_for_words_that_name_none() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(
        dir.path().join("欠席.csv"),
        "連絡番号,会員番号,欠席日\nK-1,00412,2026/11/10\nK-2,00412,2026/11/17\nK-3,00587,2026/11/12\n",
    )
    .unwrap();
    std::fs::write(
        dir.path().join("振替.csv"),
        "予約番号,会員番号,振替日\nF-1,00412,2026/11/24\nF-2,00412,2026/12/01\n",
    )
    .unwrap();
    let result =
        designed(dir.path(), "欠席.csv のうち、振替.csv に一度も振替記録がない欠席を 未振替.csv に出力して", 0);
    let join = result["plan"]["graph"].as_array().unwrap().iter().find(|n| n["block"] == "transforms.join").unwrap();
    assert!(join["in"]["left_key"].as_str().unwrap().starts_with("${vars."), "the key is asked: {join:#}");
    assert!(result["requirements"].as_array().is_some_and(|r| !r.is_empty()), "{result:#}");
}

/// Columns listed in words the reader does not take for a list ("should carry invoice no / client
/// / amount"): the plan never writes every column of the file instead — it asks which to keep.
#[test]
fn a_list_of_columns_not_read_as_one_is_asked_about_not_written_as_every_column() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(
        dir.path().join("invoices.csv"),
        "invoice_no,client,amount,status,region\nA-1,Ann,100,Sent,East\nA-2,Bo,200,Void,West\n",
    )
    .unwrap();
    let result = designed(
        dir.path(),
        "Read invoices.csv and drop the Void ones. The report should carry invoice no / client / amount. Save it as out.csv",
        1,
    );
    let asked = result["requirements"].as_array().is_some_and(|r| !r.is_empty());
    assert!(asked, "{result}");
    assert!(result.to_string().contains("invoice no / client / amount"), "the words are named: {result}");
    // A list read in part: the columns of a second list are neither written nor used.
    let result = designed(
        dir.path(),
        "Read invoices.csv. Columns: invoice no and client. I'd also love to see region, status and amount there. Save it as out.csv",
        1,
    );
    assert!(result.to_string().contains("region, status and amount"), "the words are named: {result}");
}

/// An order the reader could not turn into a sort ("costliest per unit first") is asked about:
/// a plan that writes the rows as they came is not given.
#[test]
fn an_order_asked_for_and_not_read_is_asked_about_not_dropped() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("items.csv"), "sku,qty,cost\nA,2,10\nB,1,30\n").unwrap();
    let result = designed(dir.path(), "Read items.csv, costliest per unit first. Save it as out.csv", 1);
    assert!(result["requirements"].as_array().is_some_and(|r| !r.is_empty()), "{result}");
    assert!(result.to_string().contains("costliest per unit first"), "the words are named: {result}");
}

/// 「残り日数（満了日−基準日）」 with 「基準日は2027年2月1日」: the days left to each date, negative
/// once past; 「60日以内（2027年4月2日まで）」 is the date said beside it, no other figure asked about.
#[test]
fn days_left_to_a_date_from_the_day_stated_are_negative_once_past() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(
        dir.path().join("車両.csv"),
        "管理番号,車検満了日\nA,2027-01-28\nB,2027-04-02\nC,2027-04-03\nD,2027-02-01\n",
    )
    .unwrap();
    design_and_run(
        dir.path(),
        "車両.csv から一覧を作ってください。\n・基準日は2027年2月1日です。車検満了日が基準日から60日以内（2027年4月2日まで）の車両を対象にしてください。\n・項目は 管理番号・車検満了日・残り日数（満了日−基準日。過ぎているものはマイナス）\n・満了日の早い順\nファイル名は 結果.csv",
    );
    let written = std::fs::read_to_string(dir.path().join("結果.csv")).unwrap();
    let rows: Vec<&str> = written.trim_start_matches('\u{feff}').lines().skip(1).collect();
    assert_eq!(rows, ["A,2027-01-28,-4", "D,2027-02-01,0", "B,2027-04-02,60"], "{written}");
}

/// 「まだ返却されていなくて返却予定日を過ぎているもの」: the loans whose 返却日 is blank and whose due
/// day has passed; 「備品（備品番号と品名を半角スペースでつなげる）」 is the two joined by a space.
#[test]
fn loans_not_yet_returned_are_those_without_a_return_date_and_a_column_joins_two_texts() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(
        dir.path().join("台帳.csv"),
        "貸出番号,備品番号,品名,返却予定日,返却日\nL-1,PC-1,ノートPC,2026/11/16,2026/11/14\nL-2,PJ-3,プロジェクター,2026/11/20,\nL-3,CM-1,カメラ,2026/12/08,\nL-4,PC-2,ノートPC,2026/12/04,\n",
    )
    .unwrap();
    design_and_run(
        dir.path(),
        "延滞リストをお願いします（今日は2026年12月8日です）。\n・台帳.csv のうち、まだ返却されていなくて返却予定日を過ぎているもの\n・列は 貸出番号、備品（備品番号と品名を半角スペースでつなげる）、延滞日数（今日−返却予定日）\n・延滞日数の多い順\n・ファイル名は 延滞.csv",
    );
    let written = std::fs::read_to_string(dir.path().join("延滞.csv")).unwrap();
    let rows: Vec<&str> = written.trim_start_matches('\u{feff}').lines().skip(1).collect();
    assert_eq!(rows, ["L-2,PJ-3 プロジェクター,18", "L-4,PC-2 ノートPC,4"], "{written}");
}

#[test]
fn files_put_together_and_then_looked_up_in_a_third_are_appended_before_the_match() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("q1_sales.csv"), "sold_on,store_id,amount\n2026-01-04,S1,100\n2026-02-10,S2,40\n")
        .unwrap();
    std::fs::write(dir.path().join("q2_sales.csv"), "sold_on,store_id,amount\n2026-04-02,S1,60\n2026-05-09,S3,25\n")
        .unwrap();
    std::fs::write(
        dir.path().join("stores.csv"),
        "store_id,store_name,region\nS1,Ginza,East\nS2,Umeda,West\nS3,Shibuya,East\n",
    )
    .unwrap();
    design_and_run(
        dir.path(),
        "Put q1_sales.csv and q2_sales.csv together, look up each store's region in stores.csv, and total the amount per region. Regions A-Z. Save it as by_region.csv",
    );
    let written = std::fs::read_to_string(dir.path().join("by_region.csv")).unwrap();
    let rows: Vec<&str> = written.trim_start_matches('\u{feff}').lines().skip(1).collect();
    assert_eq!(rows, ["East,185", "West,40"], "{written}");
}

#[test]
fn two_branch_files_put_together_say_which_branch_each_row_came_from() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("経費_東京.csv"), "伝票番号,日付,金額\nT-1,2026-04-02,1200\nT-2,2026-04-05,800\n")
        .unwrap();
    std::fs::write(dir.path().join("経費_大阪.csv"), "伝票番号,日付,金額\nO-1,2026-04-03,500\n").unwrap();
    design_and_run(
        dir.path(),
        "経費_東京.csv と 経費_大阪.csv を1つにまとめてください。どちらの支店か分かるように「支店」列（東京／大阪）を付けて、列は 支店・伝票番号・金額 で、日付の古い順に 経費_全社.csv に保存してください。",
    );
    let written = std::fs::read_to_string(dir.path().join("経費_全社.csv")).unwrap();
    let rows: Vec<&str> = written.trim_start_matches('\u{feff}').lines().collect();
    assert_eq!(rows, ["支店,伝票番号,金額", "東京,T-1,1200", "大阪,O-1,500", "東京,T-2,800"], "{written}");
}

#[test]
fn values_that_say_which_file_is_which_keep_no_rows_but_a_value_of_both_files_is_asked_about() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("export_1.csv"), "id,region,amount\nN1,North,10\nN2,North,20\n").unwrap();
    std::fs::write(dir.path().join("export_2.csv"), "id,region,amount\nS1,South,5\n").unwrap();
    let instruction = "Combine the North and South sales files (export_1.csv and export_2.csv) into one list sorted by id, and save it as all_sales.csv";
    design_and_run(dir.path(), instruction);
    let written = std::fs::read_to_string(dir.path().join("all_sales.csv")).unwrap();
    assert_eq!(written.trim_start_matches('\u{feff}').lines().count(), 4, "every row of both: {written}");
    // One of them said alone may keep rows: asked, not dropped.
    let only =
        "Combine export_1.csv and export_2.csv into one list sorted by id, North only, and save it as all_sales.csv";
    let output = planwright(dir.path(), &["generate", "--instruction", only, "--workdir", "."]);
    let kept = String::from_utf8_lossy(&output.stdout).contains("value: North");
    let asked = output.status.code() == Some(1) && said(&output).contains("\"North\"");
    assert!(kept || asked, "North kept, or asked about: {}", said(&output));
    // North in both files: the word may keep rows, so it is asked about, not dropped.
    std::fs::write(dir.path().join("export_2.csv"), "id,region,amount\nS1,South,5\nS2,North,7\n").unwrap();
    let output = planwright(dir.path(), &["generate", "--instruction", instruction, "--workdir", "."]);
    assert_eq!(output.status.code(), Some(1), "{}", said(&output));
    assert!(said(&output).contains("North"), "{}", said(&output));
}

#[test]
fn a_number_of_the_things_the_file_holds_one_per_row_counts_the_rows() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(
        dir.path().join("弁当注文.csv"),
        "注文日,部署,金額,状態\n2027/01/05,総務部,550,受取済\n2027/01/06,総務部,600,受取済\n2027/01/06,営業部,550,キャンセル\n2027/01/07,営業部,700,受取済\n",
    )
    .unwrap();
    design_and_run(
        dir.path(),
        "弁当注文.csv の部署ごとの注文数と金額合計を出しといて。キャンセルは抜いてね。金額合計の多い順で 弁当代.csv へ",
    );
    let written = std::fs::read_to_string(dir.path().join("弁当代.csv")).unwrap();
    let rows: Vec<&str> = written.trim_start_matches('\u{feff}').lines().skip(1).collect();
    assert_eq!(rows, ["総務部,2,1150", "営業部,1,700"], "{written}");
    // A column of that name is what is totalled.
    std::fs::write(
        dir.path().join("弁当注文.csv"),
        "注文日,部署,注文数,金額\n2027/01/05,総務部,3,1650\n2027/01/06,営業部,2,1100\n",
    )
    .unwrap();
    design_and_run(dir.path(), "弁当注文.csv の部署ごとの注文数と金額合計を、金額合計の多い順で 弁当代.csv へ");
    let written = std::fs::read_to_string(dir.path().join("弁当代.csv")).unwrap();
    let rows: Vec<&str> = written.trim_start_matches('\u{feff}').lines().skip(1).collect();
    assert_eq!(rows, ["総務部,3,1650", "営業部,2,1100"], "{written}");
}

#[test]
fn a_column_said_with_the_name_of_the_rows_is_that_column_and_totals_listed_after_the_key_are_its_own() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(
        dir.path().join("vendor_invoices.csv"),
        "Invoice ID,Vendor,Status,Amount\nV1,Acme,Approved,100.00\nV2,Acme,Approved,50.50\nV3,Bolt,Void,999.00\nV4,Bolt,Pending,20.00\n",
    )
    .unwrap();
    // "average invoice amount": the Amount of each invoice, averaged per vendor (not the
    // average of the vendors' totals).
    design_and_run(
        dir.path(),
        "From vendor_invoices.csv, skip Void invoices. One row per vendor with: vendor, number of invoices, total amount, average invoice amount. Save spend.csv",
    );
    let written = std::fs::read_to_string(dir.path().join("spend.csv")).unwrap();
    let rows: Vec<&str> = written.trim_start_matches('\u{feff}').lines().skip(1).collect();
    assert_eq!(rows, ["Acme,2,150.5,75.25", "Bolt,1,20,20"], "{written}");
}

#[test]
fn totals_of_one_file_are_matched_with_the_other_file_not_with_themselves() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(
        dir.path().join("payments_export.csv"),
        "payment_id,pay_date,vendor_id,vendor,amount\nP1,2025-12-29,V1,Acme,900.00\nP2,2026-01-09,V1,Acme,700.00\nP3,2026-02-01,V2,Bolt,650.00\nP4,2026-03-01,V3,Core,100.00\nP5,2026-04-01,V4,Dyn,800.00\n",
    )
    .unwrap();
    std::fs::write(dir.path().join("w9_on_file.csv"), "vendor_id,legal_name\nV2,Bolt Inc\n").unwrap();
    // "no W-9 on file (match on vendor id …)": the key is said with the match, the rows kept are
    // those without a partner, and "the names in w9_on_file.csv are …" is said of a file read.
    design_and_run(
        dir.path(),
        "1099 prep -> missing_w9.csv\n- inputs: payments_export.csv and w9_on_file.csv\n- payments dated in 2026 only (the export has a couple from Dec 2025)\n- total paid per vendor id; keep vendors with $600.00 or more in total\n- of those, the ones with no W-9 on file (match on vendor id, the names in w9_on_file.csv are the legal names)\n- cols: vendor id, total paid",
    );
    let written = std::fs::read_to_string(dir.path().join("missing_w9.csv")).unwrap();
    let mut rows: Vec<&str> = written.trim_start_matches('\u{feff}').lines().skip(1).collect();
    rows.sort_unstable();
    assert_eq!(rows, ["V1,700", "V4,800"], "{written}");
}

#[test]
fn two_files_of_one_kind_with_columns_named_apart_are_put_together_under_one_set_of_names() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(
        dir.path().join("north_sales.csv"),
        "invoice_no,invoice_date,customer,net_amount,state\nN-10,2026-05-03,Harlow Ltd,120.00,Paid\nN-11,2026-06-02,Ibex Co,80.00,Void\nN-12,2026-05-20,Juniper,45.50,Paid\n",
    )
    .unwrap();
    std::fs::write(
        dir.path().join("south_sales.csv"),
        "Invoice No,Date,Customer name,Net amount (EUR),State,Rep\nS-7,2026-05-11,Kestrel,300.00,Paid,Ana\nS-8,2026-05-20,Larch plc,15.25,Void,Ben\nS-9,2026-04-28,Maple,60.00,Paid,Ana\n",
    )
    .unwrap();
    // "Invoice No" is invoice_no, "Date" the one date, "Customer name" customer and "Net amount
    // (EUR)" net_amount: each South row keeps its values under the North names.
    design_and_run(
        dir.path(),
        "Put north_sales.csv and south_sales.csv together with a branch column (North or South), leave out void invoices and anything not dated in May 2026, and show branch, invoice no, invoice date, customer and net amount. Oldest first; for invoices on the same date, by invoice no. Save as may_sales.csv.",
    );
    let written = std::fs::read_to_string(dir.path().join("may_sales.csv")).unwrap();
    let rows: Vec<&str> = written.trim_start_matches('\u{feff}').lines().skip(1).collect();
    assert_eq!(
        rows,
        [
            "North,N-10,2026-05-03,Harlow Ltd,120",
            "South,S-7,2026-05-11,Kestrel,300",
            "North,N-12,2026-05-20,Juniper,45.5"
        ],
        "{written}"
    );
    // With a column of each file that no name ties to the other's (`Ref`, `invoice_no`), and
    // every column written, some rows would have holes: asked, naming the columns.
    std::fs::write(
        dir.path().join("south_sales.csv"),
        "Ref,Posted,Client,Net amount (EUR)\nS-7,2026-05-11,Kestrel,300.00\n",
    )
    .unwrap();
    let question =
        asked_what_to_do(dir.path(), "Put north_sales.csv and south_sales.csv together and save all_sales.csv.");
    assert!(question.contains("not in all of them") && question.contains("invoice_no, state, Ref"), "{question}");
}

#[test]
fn rows_not_fully_paid_are_judged_by_the_amount_paid_when_no_column_says_so() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(
        dir.path().join("bills.csv"),
        "bill_no,tenant_id,billed_on,amount,amount_paid\nB-1,T1,2026-09-01,900.00,900.00\nB-2,T2,2026-09-01,720.00,300.00\nB-3,T3,2026-10-01,450.00,0\nB-4,T1,2026-10-01,900.00,950.00\n",
    )
    .unwrap();
    std::fs::write(
        dir.path().join("tenants.csv"),
        "tenant_id,tenant_name\nT1,Oak Cafe\nT2,Pine Books\nT3,Elm Dental\n",
    )
    .unwrap();
    // No column says paid: a bill is paid when the amount paid reaches the amount; the name is
    // looked up in the other file.
    let result = designed(
        dir.path(),
        "Which bills in bills.csv are not fully paid? Show bill no, tenant name (from tenants.csv) and the balance (amount minus amount paid), biggest balance first. Save open_bills.csv",
        0,
    );
    let reasoning = result["reasoning"].to_string();
    assert!(reasoning.contains("paid when `amount_paid` is at least `amount`"), "{result:#}");
    let run = planwright(dir.path(), &["run", "plan.yaml", "--workdir", "."]);
    assert_eq!(run.status.code(), Some(0), "{}", said(&run));
    let written = std::fs::read_to_string(dir.path().join("open_bills.csv")).unwrap();
    let rows: Vec<&str> = written.trim_start_matches('\u{feff}').lines().skip(1).collect();
    assert_eq!(rows, ["B-3,Elm Dental,450", "B-2,Pine Books,420"], "{written}");
}

#[test]
fn columns_brought_from_the_file_read_first_are_looked_up_into_the_other() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(
        dir.path().join("staff.csv"),
        "employee,manager,cost_center\nSato,Tanaka,CC100\nKim,Yamada,CC200\nLee,Tanaka,CC300\n",
    )
    .unwrap();
    std::fs::write(
        dir.path().join("claims.csv"),
        "claim_id,employee,date,amount\nC1,Sato,2026-10-03,12000\nC2,Kim,2026-10-05,4500\nC3,Lee,2026-11-02,56000\nC4,Kim,2026-11-04,18000\n",
    )
    .unwrap();
    // staff.csv is named first, but the manager is brought from it to the claims, not the
    // other way round.
    designed(
        dir.path(),
        "Total the claim amounts per manager (managers are in staff.csv) from claims.csv into by_manager.csv",
        0,
    );
    let run = planwright(dir.path(), &["run", "plan.yaml", "--workdir", "."]);
    assert_eq!(run.status.code(), Some(0), "{}", said(&run));
    let written = std::fs::read_to_string(dir.path().join("by_manager.csv")).unwrap();
    let mut rows: Vec<&str> = written.trim_start_matches('\u{feff}').lines().skip(1).collect();
    rows.sort_unstable();
    assert_eq!(rows, ["Tanaka,68000", "Yamada,22500"], "{written}");
}

#[test]
fn a_run_named_by_its_code_keeps_its_rows_and_a_state_is_kept_in_the_table_that_holds_it() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(
        dir.path().join("results.csv"),
        "run_id,test_name,module,status,run_date\nR1,login_bad_pw,auth,failed,2026-11-20\nR1,cart_add,shop,passed,2026-11-20\nR2,cart_add,shop,failed,2026-11-21\nR2,login_ok,auth,passed,2026-11-21\nR2,cart_remove,shop,failed,2026-11-21\n",
    )
    .unwrap();
    std::fs::write(dir.path().join("owners.csv"), "module,owner\nauth,Mina\nshop,Ravi\n").unwrap();
    // "in run R2": `run_id`, the one column named "run" that holds R2 (not `run_date`); only the
    // two columns said are written.
    designed(dir.path(), "Which tests failed in run R2? results.csv, write failed_r2.csv with test_name and module", 0);
    let run = planwright(dir.path(), &["run", "plan.yaml", "--workdir", "."]);
    assert_eq!(run.status.code(), Some(0), "{}", said(&run));
    let written = std::fs::read_to_string(dir.path().join("failed_r2.csv")).unwrap();
    let rows: Vec<&str> = written.trim_start_matches('\u{feff}').lines().collect();
    assert_eq!(rows, ["test_name,module", "cart_add,shop", "cart_remove,shop"], "{written}");
    // "failed" is a value of results.csv, read first: its rows are kept there, and the owner
    // (not the module both files have) is brought from owners.csv.
    designed(
        dir.path(),
        "For every failed test in results.csv add the module owner from owners.csv and save to triage.csv",
        0,
    );
    let run = planwright(dir.path(), &["run", "plan.yaml", "--workdir", "."]);
    assert_eq!(run.status.code(), Some(0), "{}", said(&run));
    let written = std::fs::read_to_string(dir.path().join("triage.csv")).unwrap();
    let rows: Vec<&str> = written.trim_start_matches('\u{feff}').lines().collect();
    assert_eq!(
        rows,
        [
            "run_id,test_name,module,status,run_date,owner",
            "R1,login_bad_pw,auth,failed,2026-11-20,Mina",
            "R2,cart_add,shop,failed,2026-11-21,Ravi",
            "R2,cart_remove,shop,failed,2026-11-21,Ravi"
        ],
        "{written}"
    );
}

#[test]
fn a_plan_that_would_copy_the_file_as_it_is_asks_what_to_do_with_the_rows() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(
        dir.path().join("trips.csv"),
        "trip_no,employee,returned_on,report_filed_on\nT1,Sato,2026-10-02,2026-10-05\nT2,Kim,2026-10-20,\n",
    )
    .unwrap();
    // "the people who are late": no rule said, and a copy of the file does not do the job.
    asked_what_to_do(dir.path(), "From trips.csv pull out the people who are late and put them in chase_list.csv");
    // A copy asked for in as many words is what is asked for.
    designed(dir.path(), "Read trips.csv and write trips_copy.csv", 0);
    // Written as a workbook, the same rows are a conversion: designed.
    designed(dir.path(), "Convert trips.csv to an Excel file trips.xlsx", 0);
    let run = planwright(dir.path(), &["run", "plan.yaml", "--workdir", "."]);
    assert_eq!(run.status.code(), Some(0), "{}", said(&run));
}

/// The rows of a CSV the plan wrote, header first, without the byte-order mark.
fn csv_rows(path: &Path) -> Vec<String> {
    let written = std::fs::read_to_string(path).unwrap();
    written.trim_start_matches('\u{feff}').lines().map(str::to_owned).collect()
}

#[test]
fn totals_per_group_said_apart_a_key_named_alike_and_the_latest_unsaid_do_the_job_or_ask() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(
        dir.path().join("invoices.csv"),
        "invoice_no,customer_id,due_date,amount,status\nINV-1,C01,2026-09-30,150000,paid\nINV-2,C02,2026-10-15,80000,unpaid\nINV-3,C01,2026-10-31,120000,unpaid\nINV-4,C04,2026-11-30,99000,unpaid\nINV-5,C02,2026-12-05,30000,unpaid\n",
    )
    .unwrap();
    std::fs::write(dir.path().join("customers.csv"), "customer_id,customer_name\nC01,Acme\nC02,Bluebird\nC03,Cobalt\n")
        .unwrap();
    // The groups in a clause of their own; a total and a count, one row per customer.
    designed(
        dir.path(),
        "For each customer in invoices.csv, total the unpaid amount and count the unpaid invoices; write unpaid.csv",
        0,
    );
    let run = planwright(dir.path(), &["run", "plan.yaml", "--workdir", "."]);
    assert_eq!(run.status.code(), Some(0), "{}", said(&run));
    let mut rows = csv_rows(&dir.path().join("unpaid.csv"));
    rows[1..].sort();
    assert_eq!(rows, ["customer_id,total_amount,count", "C01,120000,1", "C02,110000,2", "C04,99000,1"]);
    // "customer" names two columns of customers.csv; the key bound on the invoices' side
    // (`customer_id`) is the one of the same name.
    designed(dir.path(), "Invoices in invoices.csv whose customer is not in customers.csv -> unknown.csv", 0);
    let run = planwright(dir.path(), &["run", "plan.yaml", "--workdir", "."]);
    assert_eq!(run.status.code(), Some(0), "{}", said(&run));
    assert_eq!(
        csv_rows(&dir.path().join("unknown.csv")),
        ["invoice_no,customer_id,due_date,amount,status", "INV-4,C04,2026-11-30,99000,unpaid"]
    );
    // No step takes the latest of anything, and no step adds the column said: asked.
    asked_what_to_do(dir.path(), "Which invoices went unpaid in the latest run? invoices.csv -> latest.csv");
    asked_what_to_do(dir.path(), "Add a note column to invoices.csv; save noted.csv");
}

#[test]
fn a_state_said_as_a_column_and_its_mark_keeps_the_rows_of_that_mark() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(
        dir.path().join("経費.csv"),
        "氏名,部署,金額,承認\n佐藤,営業部,1200,済\n鈴木,営業部,35000,済\n高橋,総務部,800,未\n田中,開発部,4500,済\n鈴木,営業部,2400,未\n",
    )
    .unwrap();
    // 「未承認」: no cell holds it; the column 承認 holds 未.
    designed(dir.path(), "経費.csv の未承認のものを一覧にして 未承認.csv に出力してください", 0);
    let run = planwright(dir.path(), &["run", "plan.yaml", "--workdir", "."]);
    assert_eq!(run.status.code(), Some(0), "{}", said(&run));
    assert_eq!(
        csv_rows(&dir.path().join("未承認.csv")),
        ["氏名,部署,金額,承認", "高橋,総務部,800,未", "鈴木,営業部,2400,未"]
    );
    designed(dir.path(), "経費.csv の承認済みの明細を部署別に合計して 部署別.csv に出してください", 0);
    let run = planwright(dir.path(), &["run", "plan.yaml", "--workdir", "."]);
    assert_eq!(run.status.code(), Some(0), "{}", said(&run));
    let mut rows = csv_rows(&dir.path().join("部署別.csv"));
    rows[1..].sort();
    assert_eq!(rows[1..], ["営業部,36200", "開発部,4500"]);
}

#[test]
fn an_amount_compared_before_a_lookup_is_of_the_table_that_has_it_and_the_key_is_the_one_named_as_a_key() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(
        dir.path().join("経費.csv"),
        "社員番号,氏名,科目,金額\n00101,佐藤,交通費,1200\n00102,鈴木,接待費,35000\n00101,佐藤,宿泊費,12000\n00104,田中,書籍,4500\n",
    )
    .unwrap();
    std::fs::write(
        dir.path().join("社員.csv"),
        "社員番号,氏名,上長\n00101,佐藤,山本\n00102,鈴木,山本\n00104,田中,小林\n",
    )
    .unwrap();
    // 1万円以上 is of 経費.csv (社員.csv has no amount); of 社員番号 and 氏名, both in each file,
    // the key is 社員番号.
    designed(
        dir.path(),
        "経費.csv で1万円以上の経費を金額の大きい順に並べて 高額経費.csv に保存。上長を社員.csvから付けてください",
        0,
    );
    let run = planwright(dir.path(), &["run", "plan.yaml", "--workdir", "."]);
    assert_eq!(run.status.code(), Some(0), "{}", said(&run));
    assert_eq!(
        csv_rows(&dir.path().join("高額経費.csv")),
        ["社員番号,氏名,科目,金額,上長", "00102,鈴木,接待費,35000,山本", "00101,佐藤,宿泊費,12000,山本"]
    );
}

#[test]
fn the_one_with_the_most_units_unique_names_and_totals_listed_per_vendor_do_the_job_or_ask() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(
        dir.path().join("inventory.csv"),
        "sku,item_name,warehouse,qty_on_hand,reorder_level,unit_cost\nA-100,Copy paper,Tokyo,120,50,450\nA-101,Toner,Tokyo,8,10,6800\nA-102,Stapler,Osaka,30,10,1200\nA-103,Toner,Osaka,3,10,6800\nA-105,Copy paper,Osaka,45,50,450\n",
    )
    .unwrap();
    std::fs::write(
        dir.path().join("payments.csv"),
        "date,vendor,amount,reference\n2026-11-01,Paperco,12000,R-1\n2026-11-03,InkWorld,54000,R-2\n2026-11-05,Paperco,12000,R-3\n",
    )
    .unwrap();
    let run_plan = |instruction: &str| {
        designed(dir.path(), instruction, 0);
        let run = planwright(dir.path(), &["run", "plan.yaml", "--workdir", "."]);
        assert_eq!(run.status.code(), Some(0), "{instruction}: {}", said(&run));
    };
    // The units are the quantity, never the unit cost.
    run_plan("Which warehouse holds the most units? Use inventory.csv and write the answer to top.csv");
    assert_eq!(csv_rows(&dir.path().join("top.csv"))[1..], ["Tokyo,128"]);
    run_plan("List the unique item names in inventory.csv sorted alphabetically, save as names.csv");
    assert_eq!(csv_rows(&dir.path().join("names.csv")), ["item_name", "Copy paper", "Stapler", "Toner"]);
    run_plan("List the vendors from payments.csv with their total amount, biggest first, in totals.csv");
    assert_eq!(csv_rows(&dir.path().join("totals.csv"))[1..], ["InkWorld,54000", "Paperco,24000"]);
    run_plan("Which payments in payments.csv are for the same vendor and the same amount? Put them in maybe_dupes.csv");
    assert_eq!(csv_rows(&dir.path().join("maybe_dupes.csv")).len(), 3, "the two Paperco payments");
    // A comparison with nothing that compares is asked, not every row counted.
    let asked = asked_what_to_do(
        dir.path(),
        "How many items does each warehouse have below their reorder level? inventory.csv -> below.csv",
    );
    assert!(asked.contains("below"), "{asked}");
}

#[test]
fn the_same_person_twice_is_keyed_by_their_id_and_hours_are_the_hours_not_the_hourly_rate() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(
        dir.path().join("claims.csv"),
        "claim_id,employee_id,employee_name,benefit_month,amount\nC1,0045,Grace Lin,2026-10,50\nC2,0045,Grace  Lin,2026-10,50\nC3,0102,Dan Reyes,2026-10,15\nC4,0102,Dan Reyes,2026-11,15\n",
    )
    .unwrap();
    std::fs::write(dir.path().join("bookings.csv"), "booking_id,hours,hourly_rate\nB1,2,40\nB2,1.5,60\n").unwrap();
    // One person written two ways is one employee: the id is the key.
    designed(
        dir.path(),
        "In claims.csv, find every claim where the same employee has more than one claim for the same benefit_month, and list all of those claims. Save as doubles.csv",
        0,
    );
    let run = planwright(dir.path(), &["run", "plan.yaml", "--workdir", "."]);
    assert_eq!(run.status.code(), Some(0), "{}", said(&run));
    let rows = csv_rows(&dir.path().join("doubles.csv"));
    assert_eq!(rows.len(), 3, "C1 and C2: {rows:?}");
    designed(dir.path(), "For each booking in bookings.csv work out cost = hours x hourly rate. Save to costs.csv", 0);
    let run = planwright(dir.path(), &["run", "plan.yaml", "--workdir", "."]);
    assert_eq!(run.status.code(), Some(0), "{}", said(&run));
    assert_eq!(csv_rows(&dir.path().join("costs.csv"))[1..], ["B1,2,40,80", "B2,1.5,60,90"]);
}

#[test]
fn bank_lines_with_no_invoice_are_matched_on_the_reference_not_on_an_amount_both_have() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(
        dir.path().join("bank.csv"),
        "date,description,amount,reference\n2026-11-01,ACME PAYMENT,150000,INV-101\n2026-11-03,BANK FEE,-500,\n2026-11-05,BLUEBIRD,80000,INV-102\n2026-11-09,ACME PAYMENT,150000,INV-101\n2026-11-12,COBALT,45000,INV-104\n2026-11-20,UNKNOWN DEPOSIT,12000,\n",
    )
    .unwrap();
    std::fs::write(
        dir.path().join("invoices.csv"),
        "invoice_no,customer_id,due_date,amount,status\nINV-101,C01,2026-09-30,\"150,000\",paid\nINV-102,C02,2026-10-15,80000,unpaid\nINV-104,C03,2026-11-09,45000,paid\n",
    )
    .unwrap();
    for instruction in [
        "Which bank lines in bank.csv have no matching invoice in invoices.csv? Save unmatched.csv",
        "Which bank lines in bank.csv have no matching invoice in invoices.csv (match reference to invoice_no)? Save unmatched.csv",
    ] {
        designed(dir.path(), instruction, 0);
        let run = planwright(dir.path(), &["run", "plan.yaml", "--workdir", "."]);
        assert_eq!(run.status.code(), Some(0), "{}", said(&run));
        let rows = csv_rows(&dir.path().join("unmatched.csv"));
        assert_eq!(rows[1..], ["2026-11-03,BANK FEE,-500,", "2026-11-20,UNKNOWN DEPOSIT,12000,"], "{instruction}");
    }
}

#[test]
fn a_column_of_yes_and_no_keeps_its_rows_when_said_beside_a_total_or_denied() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(
        dir.path().join("timesheets.csv"),
        "date,employee,project,hours,billable\n2026-05-01,Ann,Apollo,6,yes\n2026-05-01,Bob,Apollo,4,no\n2026-05-02,Ann,Zeus,3,yes\n2026-05-02,Cid,Apollo,8,yes\n2026-05-03,Bob,Zeus,5,yes\n2026-05-03,Cid,Zeus,2,no\n",
    )
    .unwrap();
    let written = |instruction: &str, file: &str| rows_written(dir.path(), instruction, file);
    // The hours of the billable rows, per employee (not every hour, not a question).
    assert_eq!(
        written("Total billable hours per employee from timesheets.csv, save as billable.csv", "billable.csv"),
        ["Ann,9", "Bob,5", "Cid,8"]
    );
    // "how many … hours" adds the hours up; "non-billable" keeps the rows of no.
    assert_eq!(
        written("How many non-billable hours per project? timesheets.csv -> nb.csv", "nb.csv"),
        ["Apollo,4", "Zeus,2"]
    );
    // Beside the total of every hour, the billable total reads its rows alone.
    assert_eq!(
        written("Total hours and billable hours per employee from timesheets.csv, save as both.csv", "both.csv"),
        ["Ann,9,9", "Bob,9,5", "Cid,10,8"]
    );
    for instruction in [
        "From timesheets.csv, list the rows that are not billable, save as nonbill.csv",
        "Keep only the non-billable entries of timesheets.csv and save them as nonbill.csv",
    ] {
        assert_eq!(
            written(instruction, "nonbill.csv"),
            ["2026-05-01,Bob,Apollo,4,no", "2026-05-03,Cid,Zeus,2,no"],
            "{instruction}"
        );
    }
}

#[test]
fn a_measure_asked_per_group_is_added_up_and_a_lookup_said_after_the_key_is_no_second_key() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(
        dir.path().join("inventory.csv"),
        "sku,item,warehouse,units,unit_cost\nA1,Bolt,East,120,0.5\nA2,Nut,East,40,0.2\nB1,Gear,West,15,12\nB2,Chain,West,300,3\nC1,Belt,North,8,25\n",
    )
    .unwrap();
    std::fs::write(
        dir.path().join("expenses.csv"),
        "date,employee,amount,status\n2026-03-02,Sato,12000,approved\n2026-03-05,Tanaka,3400,pending\n2026-03-09,Sato,2100,approved\n2026-04-10,Lee,5200,approved\n",
    )
    .unwrap();
    std::fs::write(dir.path().join("employees.csv"), "employee,department\nSato,Sales\nTanaka,Ops\nLee,IT\n").unwrap();
    let written = |instruction: &str, file: &str| rows_written(dir.path(), instruction, file);
    // One row per warehouse, not the value of each item.
    assert_eq!(
        written(
            "What is the stock value (units times unit_cost) per warehouse? inventory.csv -> value.csv",
            "value.csv"
        ),
        ["East,68", "North,200", "West,1080"]
    );
    // "per employee … and add their department": one key, then a lookup.
    assert_eq!(
        written(
            "Sum the approved expenses per employee in expenses.csv and add their department from employees.csv. Save dept.csv",
            "dept.csv"
        ),
        ["Lee,5200,IT", "Sato,14100,Sales"]
    );
}

#[test]
fn japanese_a_column_made_in_an_aside_is_ranked_and_totalled_by_its_name() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(
        dir.path().join("発注.csv"),
        "発注番号,仕入先,数量,単価,状態\nP-001,東邦資材,100,20,納品済\nP-002,北陸工業,200,5,未納\nP-003,東邦資材,50,8,納品済\nP-005,北陸工業,10,1200,取消\n",
    )
    .unwrap();
    let written = |instruction: &str, file: &str| rows_written(dir.path(), instruction, file);
    // The one order with the largest amount, not every order with its amount.
    assert_eq!(
        written("発注.csv の中で金額（数量×単価）が一番大きい発注を教えて。結果は 最大.csv に", "最大.csv"),
        ["P-005,北陸工業,10,1200,取消,12000"]
    );
    assert_eq!(
        written("発注.csv から取消を除いて、仕入先ごとの金額（数量×単価）の合計を出して 合計.csv に", "合計.csv"),
        ["北陸工業,1000", "東邦資材,2400"]
    );
}

#[test]
fn a_word_folded_like_a_value_and_the_order_kept_keep_every_row_they_should() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(
        dir.path().join("lots.csv"),
        "lot_no,item,winning_bid,paid,status\nL-01,Cabin stay,1850.00,Yes,Open\nL-02,Football,640.00,Yes,Fixed\nL-03,Wine tasting,1120.00,No,Open\nL-04,Chef's dinner,2300.00,Yes,Open\n",
    )
    .unwrap();
    // "lot number" is the column `lot_no`; the word "number" is not the value `No` of `paid`.
    designed(
        dir.path(),
        "Could you pull the 2 highest winning bids from lots.csv into top.csv? Just lot number, item and winning bid, highest first.",
        0,
    );
    let run = planwright(dir.path(), &["run", "plan.yaml", "--workdir", "."]);
    assert_eq!(run.status.code(), Some(0), "{}", said(&run));
    assert_eq!(csv_rows(&dir.path().join("top.csv"))[1..], ["L-04,Chef's dinner,2300", "L-01,Cabin stay,1850"]);
    // "keep them in the order they're in now" keeps no rows of its own.
    designed(
        dir.path(),
        "Pull out the lots in lots.csv whose status is Open, keep them in the order they're in now, and save them as open.csv.",
        0,
    );
    let run = planwright(dir.path(), &["run", "plan.yaml", "--workdir", "."]);
    assert_eq!(run.status.code(), Some(0), "{}", said(&run));
    let lots: Vec<String> =
        csv_rows(&dir.path().join("open.csv"))[1..].iter().map(|r| r.split(',').next().unwrap().to_owned()).collect();
    assert_eq!(lots, ["L-01", "L-03", "L-04"]);
}

#[test]
fn things_ranked_that_no_column_names_are_the_rows_and_a_name_looked_up_by_its_key_is_brought() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(
        dir.path().join("register.csv"),
        "piece_id,title,artist,insured_value\nA-1,Harbor,Ito,12000\nA-2,Dunes,Ito,9000\nA-3,Quarry,Vance,15000\nA-4,Mill,Ross,4000\n",
    )
    .unwrap();
    std::fs::write(dir.path().join("pairs.csv"), "pair_id,mentee,mentor_id\nP1,Ana,M-1\nP2,Ben,M-2\n").unwrap();
    std::fs::write(
        dir.path().join("mentors.csv"),
        "mentor_id,full_name,team\nM-1,Grace Holloway,Ops\nM-2,Victor Osei,IT\n",
    )
    .unwrap();
    let written = |instruction: &str, file: &str| rows_written(dir.path(), instruction, file);
    // No column is "work": the two works are two rows, not totals per artist or per anything.
    assert_eq!(
        written(
            "Which two works in register.csv have the highest insured_value? Give me piece_id, title and insured_value for just those two, highest first, in top.csv.",
            "top.csv"
        ),
        ["A-1,Harbor,12000", "A-3,Quarry,15000"]
    );
    // "mentor name" is the name of the mentor looked up by mentor_id.
    assert_eq!(
        written(
            "pairs.csv only has the mentor's ID. Look up each mentor's full name in mentors.csv and write named.csv with pair_id, mentee and mentor name.",
            "named.csv"
        ),
        ["P1,Ana,Grace Holloway", "P2,Ben,Victor Osei"]
    );
}

#[test]
fn values_said_to_change_on_a_copy_and_a_word_of_the_table_that_is_also_a_value_are_placed() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(
        dir.path().join("pours.csv"),
        "pour_id,element,yards_ordered,yards_placed\nCP-1,Footings,42.0,40.5\nCP-2,Columns,14.5,13.0\n",
    )
    .unwrap();
    // The tiers are given nowhere: asked, not copied unchanged as if repriced.
    designed(
        dir.path(),
        "Please reprice pours.csv using the new tiers procurement signed off on, save it as new.csv.",
        1,
    );
    // "columns" of "Keep all the existing columns" is no value `Columns` left unused.
    assert_eq!(
        rows_written(
            dir.path(),
            "Add a returned_yards column to pours.csv: yards_ordered minus yards_placed. Keep all the existing columns and save it as returned.csv.",
            "returned.csv"
        ),
        ["CP-1,Footings,42,40.5,1.5", "CP-2,Columns,14.5,13,1.5"]
    );
}

#[test]
fn japanese_months_shown_like_2026_nen_9_gatsu_are_written_so_and_kept_in_calendar_order() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(
        dir.path().join("補充記録.csv"),
        "補充番号,補充日,請求額\nR-1,2026-10-03,1200\nR-2,2026-09-12,800\nR-3,2026-10-20,300\nR-4,2027-01-08,500\n",
    )
    .unwrap();
    designed(
        dir.path(),
        "置き菓子の補充代を月ごとにまとめたいです。補充記録.csv の補充日から月を出して、月（「2026年9月」のような形）ごとの請求額の合計を、9月から月の順に 月別.csv へ出してください。",
        0,
    );
    let run = planwright(dir.path(), &["run", "plan.yaml", "--workdir", "."]);
    assert_eq!(run.status.code(), Some(0), "{}", said(&run));
    // Every month (the example keeps none), written as shown, in the calendar's order.
    assert_eq!(csv_rows(&dir.path().join("月別.csv"))[1..], ["2026年9月,800", "2026年10月,1500", "2027年1月,500"]);
}

#[test]
fn japanese_books_not_back_are_the_rows_whose_return_date_is_blank() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(
        dir.path().join("貸出.csv"),
        "貸出番号,書名,返却予定日,返却日\nL-1,統計学,2026/10/28,2026/10/27\nL-2,リーダブルコード,2026/11/03,\nL-3,会社法,2026/12/08,\nL-4,労働法,2026/11/23,2026/11/20\n",
    )
    .unwrap();
    assert_eq!(
        rows_written(
            dir.path(),
            "貸出.csv から、返却予定日が2026/11/30以前なのに返却日が空欄、つまりまだ戻ってきていない本を抜き出して 延滞.csv にしてください。",
            "延滞.csv"
        ),
        ["L-2,リーダブルコード,2026/11/03,"]
    );
}

#[test]
fn rows_defined_after_their_words_and_values_left_out_beside_one_kept_do_the_job() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(
        dir.path().join("lockers.csv"),
        "locker,holder,paid_through,status\nL-1,Ann,2026-11-30,Rented\nL-2,Bo,2026-10-31,Rented\nL-3,,,Free\n\
         L-4,Cy,2026-09-30,Rented\nL-5,Di,2026-08-31,Sealed\n",
    )
    .unwrap();
    assert_eq!(
        csv_rows_written(
            dir.path(),
            "Who hasn't paid for November yet? In lockers.csv that's anyone whose paid-through date is before \
             2026-11-01. Leave out free lockers and the ones we've sealed; only status Rented. I need Locker and \
             Holder, in that order, earliest paid-through date first. Save behind.csv",
            "behind.csv",
        ),
        ["locker,holder", "L-4,Cy", "L-2,Bo"]
    );
}

/// The rows `instruction`'s plan writes to `file` in `dir`, designed and run there with no
/// answers, header first, in the order written.
fn csv_rows_written(dir: &Path, instruction: &str, file: &str) -> Vec<String> {
    designed(dir, instruction, 0);
    let run = planwright(dir, &["run", "plan.yaml", "--workdir", "."]);
    assert_eq!(run.status.code(), Some(0), "{instruction}: {}", said(&run));
    csv_rows(&dir.join(file))
}

#[test]
fn a_column_telling_the_file_and_the_one_value_rows_kept_still_hold_do_the_job() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("north.csv"), "invoice,day,amount\nN-1,2026-12-01,10\nN-2,2026-12-09,20\n").unwrap();
    std::fs::write(dir.path().join("south.csv"), "invoice,day,amount\nS-1,2026-12-02,30\n").unwrap();
    assert_eq!(
        csv_rows_written(
            dir.path(),
            "Put north.csv and south.csv together into one list. Keep all the columns and add a Route column \
             saying North or South. Sort by day. Save both.csv",
            "both.csv",
        ),
        ["Route,invoice,day,amount", "North,N-1,2026-12-01,10", "South,S-1,2026-12-02,30", "North,N-2,2026-12-09,20"]
    );
    std::fs::write(
        dir.path().join("lessons.csv"),
        "lesson,instructor,hours,status\nL1,Ann,2,Taught\nL2,Bo,3,Taught\nL3,Ann,1.5,Taught\nL4,Bo,4,Cancelled\n\
         L5,Cy,1,Taught\n",
    )
    .unwrap();
    assert_eq!(
        csv_rows_written(
            dir.path(),
            "From lessons.csv, add up the hours per instructor (Cancelled lessons don't count). Give me the top 2 \
             instructors by hours, most first, with their total hours and number of lessons taught. Save top.csv",
            "top.csv",
        )[1..],
        ["Ann,3.5,2", "Bo,3,1"]
    );
}

#[test]
fn a_column_chosen_from_the_table_looked_up_is_brought_with_the_one_looked_up() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("cases.csv"), "case_no,dentist,code,units\nC-1,Amin,ZC,2\nC-2,Ortega,NG,1\n")
        .unwrap();
    std::fs::write(
        dir.path().join("prices.csv"),
        "code,product,unit_price\nZC,Zirconia crown,145\nNG,Night guard,89\n",
    )
    .unwrap();
    assert_eq!(
        csv_rows_written(
            dir.path(),
            "Take each case in cases.csv, look up the unit price for its product code in prices.csv, and work out \
             line total = units x unit price. I need case no, dentist, product name, units, unit price and line \
             total, in the same order as the case file. Output file priced.csv.",
            "priced.csv",
        )[1..],
        ["C-1,Amin,Zirconia crown,2,145,290", "C-2,Ortega,Night guard,1,89,89"]
    );
}

#[test]
fn a_lookup_on_two_keys_together_is_asked_never_matched_on_one() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("a.csv"), "申込番号,焼成方法,サイズ区分,点数\nY-1,本焼き,M,3\nY-2,素焼き,S,5\n")
        .unwrap();
    std::fs::write(
        dir.path().join("b.csv"),
        "焼成方法,サイズ区分,単価\n素焼き,S,300\n素焼き,M,500\n本焼き,S,600\n本焼き,M,900\n",
    )
    .unwrap();
    // Matched on サイズ区分 alone, each application would be written twice, with two prices.
    let question = asked_what_to_do(dir.path(), "a.csv に b.csv の単価を焼成方法とサイズ区分で引いて c.csv に");
    assert!(question.contains("焼成方法とサイズ区分"), "{question}");
    assert!(!dir.path().join("c.csv").exists());
}

#[test]
fn a_column_chosen_by_the_looked_up_files_word_and_its_name_is_brought_as_that_column() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("orders.csv"), "order_no,code,units\nO-1,ZC,2\nO-2,NG,1\n").unwrap();
    std::fs::write(
        dir.path().join("price_list.csv"),
        "code,description,unit_price\nZC,Zirconia crown,145\nNG,Night guard,89\n",
    )
    .unwrap();
    assert_eq!(
        csv_rows_written(
            dir.path(),
            "Take each order in orders.csv, look up the unit price for its code in price_list.csv. I need order no, \
             the price description, units and unit price, in the same order as the order file. Save priced.csv.",
            "priced.csv",
        ),
        ["order_no,price description,units,unit_price", "O-1,Zirconia crown,2,145", "O-2,Night guard,1,89"]
    );
}
