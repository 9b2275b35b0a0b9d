use serde_json::json;

use super::*;

fn ops(reading: &Reading) -> Vec<&'static str> {
    reading.steps.iter().map(Step::name).collect()
}

/// The columns computed, each with its operation.
/// Every condition of every filter the reading has, in order.
fn filter_conditions(reading: &Reading) -> Vec<&Condition> {
    reading
        .steps
        .iter()
        .flat_map(|s| match s {
            Step::Filter { conditions, .. } => conditions.iter().collect(),
            _ => Vec::new(),
        })
        .collect()
}

fn computed(reading: &Reading) -> Vec<(&str, &str)> {
    reading
        .steps
        .iter()
        .filter_map(|s| match s {
            Step::Compute { name, operation, .. } => Some((name.as_str(), *operation)),
            _ => None,
        })
        .collect()
}

#[test]
fn the_expenses_example_reads_as_a_pipeline() {
    let r = read_instruction(
        "Read expenses.csv, keep the approved rows of 100 or more, total the amounts per department and write department_totals.csv",
    );
    assert_eq!(r.language, Language::En);
    assert_eq!(ops(&r), ["filter", "aggregate"]);
    assert_eq!(r.sources.len(), 1);
    assert_eq!(r.sources[0].path.as_deref(), Some("expenses.csv"));
    let Step::Filter { conditions, exclude: false } = &r.steps[0] else { panic!("{:?}", r.steps[0]) };
    assert!(
        conditions.iter().any(|c| c.operator == "gte" && c.value == json!(100) && c.field.is_none()),
        "{conditions:?}"
    );
    assert!(conditions.iter().any(|c| c.operator == "eq" && c.value == json!("approved")), "{conditions:?}");
    let Step::Aggregate { by, aggregations } = &r.steps[1] else { panic!() };
    assert_eq!(by, &["department"]);
    assert_eq!(aggregations[0].op, "sum");
    assert_eq!(aggregations[0].field.as_deref(), Some("amount"));
    assert_eq!(r.outputs.len(), 1);
    assert_eq!(r.outputs[0].path.as_deref(), Some("department_totals.csv"));
    assert_eq!(r.outputs[0].format, OutputFormat::Csv);
}

#[test]
fn the_japanese_match_example_reads_two_sources_and_a_key() {
    let r = read_instruction("取引先マスタと請求書一覧を取引先コードで突き合わせ、結果をCSVに出力する");
    assert_eq!(r.language, Language::Ja);
    assert_eq!(ops(&r), ["join"]);
    let Step::Join { key, .. } = &r.steps[0] else { panic!() };
    assert_eq!(key.as_deref(), Some("取引先コード"));
    assert_eq!(r.sources.len(), 2, "{:?}", r.sources);
    assert_eq!(r.sources[0].label.as_deref(), Some("取引先マスタ"));
    assert_eq!(r.sources[1].label.as_deref(), Some("請求書一覧"));
    assert_eq!(r.outputs[0].format, OutputFormat::Csv);
    assert_eq!(r.outputs[0].path, None);
}

#[test]
fn japanese_thresholds_and_groups_are_read() {
    let r = read_instruction(
        "支払データ.csvを読み込み、金額が10万円を超える行だけを残して、取引先ごとに合計し、集計結果.xlsxに保存",
    );
    assert_eq!(ops(&r), ["filter", "aggregate"]);
    let Step::Filter { conditions, .. } = &r.steps[0] else { panic!() };
    assert_eq!(conditions[0].field.as_deref(), Some("金額"));
    assert_eq!(conditions[0].operator, "gt");
    assert_eq!(conditions[0].value, json!(100000));
    let Step::Aggregate { by, .. } = &r.steps[1] else { panic!() };
    assert_eq!(by, &["取引先"]);
    assert_eq!(r.outputs[0].format, OutputFormat::Excel);
    assert_eq!(r.sources[0].path.as_deref(), Some("支払データ.csv"));
}

#[test]
fn exclusions_keep_the_other_rows() {
    let r = read_instruction(
        "Load payments.csv and drop the rows where status is cancelled, then save the rest to open.csv",
    );
    let Step::Filter { conditions, exclude } = &r.steps[0] else { panic!("{:?}", r.steps) };
    assert!(*exclude);
    assert_eq!(conditions[0].field.as_deref(), Some("status"));
    assert_eq!(conditions[0].value, json!("cancelled"));
}

#[test]
fn a_browser_task_keeps_its_steps_in_plain_words() {
    let r = read_instruction("Open https://portal.example.com, log in with {{LOGIN_USER}} and {{LOGIN_PASSWORD}}, go to Invoices and download the April statement");
    let Step::Browser { start_url, steps, table_only, .. } = &r.steps[0] else { panic!("{:?}", r.steps) };
    assert_eq!(start_url.as_deref(), Some("https://portal.example.com"));
    assert!(steps.contains("{{LOGIN_PASSWORD}}") && steps.contains("download"));
    assert!(!table_only);
}

#[test]
fn an_api_per_row_and_polling_are_told_apart() {
    let r = read_instruction("Read customers.csv and for each row call the API https://api.example.com/customers/{id}, then write results.json");
    assert!(matches!(r.steps[0], Step::Api { per_item: true, until: None, .. }), "{:?}", r.steps);
    let r = read_instruction(
        "Start the export with a POST to https://api.example.com/exports and poll it until the status is done",
    );
    assert!(r.steps.iter().any(|s| matches!(s, Step::Api { until: Some(_), .. })), "{:?}", r.steps);
}

#[test]
fn classification_extraction_and_approval_are_found() {
    let r = read_instruction("Classify each expense in expenses.xlsx into travel, meals and supplies, ask my manager for approval, then write classified.xlsx");
    assert_eq!(ops(&r), ["classify", "confirm"]);
    let Step::Classify { categories } = &r.steps[0] else { panic!() };
    assert_eq!(categories, &["travel", "meals", "supplies"]);
    let r = read_instruction("請求書PDFから請求番号・日付・金額を読み取り、一覧をExcelに出力して");
    let Step::Extract { fields } = &r.steps[0] else { panic!("{:?}", r.steps) };
    assert_eq!(fields, &["請求番号", "日付", "金額"]);
}

#[test]
fn a_comparison_after_is_is_one_condition() {
    for (text, operator) in [
        ("Read expenses.csv, keep the rows where amount is over 100", "gt"),
        ("Read expenses.csv and keep rows where the total is at least 100", "gte"),
        ("Read expenses.csv, drop rows where amount is less than 100", "lt"),
    ] {
        let r = read_instruction(text);
        let Step::Filter { conditions, .. } = &r.steps[0] else { panic!("{text}: {:?}", r.steps) };
        assert_eq!(conditions.len(), 1, "{text}: {conditions:?}");
        assert_eq!(conditions[0].operator, operator, "{text}");
        assert_eq!(conditions[0].value, json!(100), "{text}");
    }
}

#[test]
fn chosen_columns_are_read_and_files_or_verbs_are_not_columns() {
    let r = read_instruction("Read orders.csv, keep just order_id, customer and total, and save it as clean.csv");
    assert_eq!(r.columns, ["order_id", "customer", "total"]);
    assert!(r.steps.is_empty(), "a column choice is neither a filter nor a total: {:?}", r.steps);
    let r = read_instruction("注文一覧 orders.xlsx から社員番号・氏名・金額の列だけにして out.csv に保存");
    assert_eq!(r.columns, ["社員番号", "氏名", "金額"]);
    let r = read_instruction("I just need to match a.csv and b.csv on id and write c.csv");
    assert!(r.columns.is_empty(), "{:?}", r.columns);
}

#[test]
fn a_file_named_last_is_an_output_only_when_nothing_is_read_before_it() {
    let r = read_instruction(
        "Reconcile bank.csv against ledger.xlsx on ref_no and list the bank lines that have no match in unmatched.csv",
    );
    assert_eq!(r.outputs.iter().filter_map(|o| o.path.as_deref()).collect::<Vec<_>>(), ["unmatched.csv"]);
    let r = read_instruction("Compare the totals in a.csv with those in b.csv");
    assert!(r.outputs.iter().all(|o| o.path.as_deref() != Some("b.csv")), "{:?}", r.outputs);
}

#[test]
fn the_language_is_the_one_that_carries_the_sentence() {
    let en = "Our Tokyo office sent 支払一覧.csv. Please pull out only the rows where 部門 is 営業 and save them.";
    assert_eq!(Language::of(en), Language::En);
    assert_eq!(Language::of("Total the 金額 column per 取引先 and write totals.csv"), Language::En);
    assert_eq!(Language::of("請求書管理.csvのstatusごとの件数を数えてcount.csvに出して"), Language::Ja);
    assert_eq!(Language::of("sales.csv の amount が 1000 以上の行だけを残して CSV で出力して"), Language::Ja);
    assert_eq!(Language::of("Read expenses.csv and total per department"), Language::En);
}

#[test]
fn a_condition_on_what_a_total_groups_applies_to_each_groups_total() {
    let r = read_instruction(
        "仕入先別の買掛金残高 payables.xlsx を読み、残高が100万円を超える仕入先だけを残して、仕入先ごとに合計した一覧をExcelで出力して",
    );
    assert_eq!(ops(&r), ["aggregate", "filter"], "{:?}", r.steps);
    let Step::Aggregate { by, aggregations } = &r.steps[0] else { panic!() };
    assert_eq!(by, &["仕入先"]);
    assert_eq!(aggregations[0].field.as_deref(), Some("残高"));
    assert_eq!(aggregations[0].name.as_deref(), Some("残高"));
    let r = read_instruction(
        "Read ledger.csv, keep only the vendors whose amount is over 10000, total the amount per vendor and write big_vendors.csv",
    );
    assert_eq!(ops(&r), ["aggregate", "filter"], "{:?}", r.steps);
    // Rows kept by their own value stay before the total.
    let r =
        read_instruction("Read expenses.csv, keep the approved rows of 100 or more, total the amounts per department");
    assert_eq!(ops(&r), ["filter", "aggregate"]);
}

#[test]
fn an_english_sentence_names_japanese_columns_and_values() {
    let r = read_instruction(
        "Our Tokyo office sent 支払一覧.csv. Please pull out only the rows where 部門 is 営業 and the amount is 50,000 yen or more, and save them as sales_payments.csv.",
    );
    assert_eq!(r.language, Language::En);
    let Step::Filter { conditions, .. } = &r.steps[0] else { panic!("{:?}", r.steps) };
    let read: Vec<(Option<&str>, &str, Value)> =
        conditions.iter().map(|c| (c.field.as_deref(), c.operator, c.value.clone())).collect();
    assert_eq!(read, [(Some("amount"), "gte", json!(50000)), (Some("部門"), "eq", json!("営業"))]);
}

#[test]
fn the_key_of_duplicates_may_be_said_in_another_clause() {
    let r = read_instruction(
        "Check expense_claims.csv for claims that were submitted twice: same employee, same date, same amount. Show me all the claims involved in double_claims.csv.",
    );
    assert_eq!(ops(&r), ["duplicates"], "{:?}", r.steps);
    let Step::Duplicates { by, remove: false, .. } = &r.steps[0] else { panic!() };
    assert_eq!(by, &["employee", "date", "amount"]);
    let r = read_instruction(
        "bank_export.csv came from two overlapping downloads, so a few transactions are in there twice (same txn_id). Keep each transaction only once and save as bank_simple.xlsx.",
    );
    assert_eq!(ops(&r), ["dedupe"], "{:?}", r.steps);
    let Step::Duplicates { by, remove: true, .. } = &r.steps[0] else { panic!() };
    assert_eq!(by, &["txn_id"]);
}

#[test]
fn a_number_compared_right_after_a_total_is_compared_with_the_total() {
    let r = read_instruction(
        "交通費精算の明細 kotsuhi.xlsx から、社員番号ごとに「金額」を合計して、月額 30000 円を超えている人だけ kotsuhi_over.csv に書き出してください。",
    );
    assert_eq!(ops(&r), ["aggregate", "filter"]);
    let Step::Aggregate { aggregations, .. } = &r.steps[0] else { panic!() };
    assert_eq!(aggregations[0].field.as_deref(), Some("金額"), "a quoted column");
    assert_eq!(aggregations[0].name.as_deref(), Some("月額"), "the total is named as the text names it");
    let Step::Filter { conditions, .. } = &r.steps[1] else { panic!() };
    assert_eq!(conditions[0].field.as_deref(), Some("月額"));
    let r = read_instruction("read timesheets.csv, add up hours per employee_id and only keep ppl who went over 160 hrs this month. write it to overtime_report.md");
    assert_eq!(ops(&r), ["aggregate", "filter"], "{:?}", r.steps);
    let (Step::Aggregate { aggregations, .. }, Step::Filter { conditions, .. }) = (&r.steps[0], &r.steps[1]) else {
        panic!()
    };
    assert_eq!(conditions[0].field, aggregations[0].name, "{:?} {:?}", conditions, aggregations);
}

#[test]
fn japanese_columns_counted_after_a_clause_ended_by_a_comma() {
    let r = read_instruction("銀行明細.csvから出金のあった行だけにして、取引日・摘要・出金額の3列にしてください。出力は出金一覧.xlsxでお願いします。");
    assert_eq!(r.columns, ["取引日", "摘要", "出金額"]);
    let Step::Filter { conditions, .. } = &r.steps[0] else { panic!("{:?}", r.steps) };
    assert_eq!(
        (conditions[0].field.as_deref(), conditions[0].operator),
        (Some("出金"), "ne"),
        "rows that have a withdrawal"
    );
}

#[test]
fn a_computed_column_takes_its_name_and_its_operands_are_no_status() {
    let r = read_instruction("Read a.csv, add the difference between billed and paid as gap, and write b.csv");
    assert_eq!(ops(&r), ["compute"], "{:?}", r.steps);
    let Step::Compute { name, operation, of, .. } = &r.steps[0] else { panic!() };
    assert_eq!((name.as_str(), *operation), ("gap", "difference"));
    assert_eq!(of, &["billed", "paid"]);
}

#[test]
fn a_measure_named_after_its_number_is_the_column_not_a_status() {
    let r = read_instruction("From aging.xlsx keep the bills more than 45 days past due and save late.csv");
    let Step::Filter { conditions, .. } = &r.steps[0] else { panic!("{:?}", r.steps) };
    assert_eq!(conditions.len(), 1, "{conditions:?}");
    assert_eq!(conditions[0].field.as_deref(), Some("days past due"));
    assert_eq!((conditions[0].operator, &conditions[0].value), ("gt", &json!(45)));
}

#[test]
fn an_order_said_without_a_sort_word_is_a_sort() {
    for (text, by, descending) in [
        ("Total the cost per project in costs.csv and list the projects from the highest total down", "total", true),
        ("Read staff.csv and put the oldest hire date first, then save staff_sorted.csv", "hire date", false),
    ] {
        let r = read_instruction(text);
        let sort = r.steps.iter().find_map(|s| match s {
            Step::Sort { by, descending, .. } => Some((by.clone(), *descending)),
            _ => None,
        });
        assert_eq!(sort, Some((Some(by.to_owned()), descending)), "{text}: {:?}", r.steps);
    }
    // In "so the biggest customer is on top" the customer is the row; the measure, the one total,
    // is sorted.
    let r = read_instruction("Sum the amount per customer in sales.csv and sort so the biggest customer is on top");
    assert!(
        r.steps.iter().any(|s| matches!(s, Step::Sort { by: Some(by), descending: true, .. } if by == "total_amount")),
        "{:?}",
        r.steps
    );
}

#[test]
fn an_abbreviation_ends_no_sentence_and_a_format_is_no_browser_form() {
    let r = read_instruction(
        "Add a Quarter column to orders.csv with the year of each order date in YYYY form (e.g. 2026) and save orders_q.csv",
    );
    assert!(!r.steps.iter().any(|s| matches!(s, Step::Browser { .. } | Step::Filter { .. })), "{:?}", r.steps);
    assert!(r.steps.iter().any(|s| matches!(s, Step::Compute { operation: "year", of, .. } if of == &["order date"])));
    assert_eq!(r.sources[0].path.as_deref(), Some("orders.csv"), "a file a column is added to is read");
    assert_eq!(r.outputs[0].path.as_deref(), Some("orders_q.csv"));
    let web = read_instruction("Open the portal at https://example.test, fill out the order form and submit it");
    assert!(web.steps.iter().any(|s| matches!(s, Step::Browser { .. })));
}

#[test]
fn a_file_named_as_the_output_is_written_and_keeping_everything_filters_nothing() {
    let r = read_instruction(
        "Bring the region from stores.csv into sales.csv by matching on store_id, keep all the other columns. File name sales_by_region.xlsx please.",
    );
    let read: Vec<_> = r.sources.iter().filter_map(|s| s.path.as_deref()).collect();
    assert_eq!(read, ["stores.csv", "sales.csv"]);
    assert_eq!(r.outputs[0].path.as_deref(), Some("sales_by_region.xlsx"));
    assert_eq!(ops(&r), ["join"]);
    let Step::Join { keep_all_of, .. } = &r.steps[0] else { panic!() };
    assert_eq!(keep_all_of.as_deref(), Some("sales.csv"), "a lookup into sales.csv keeps all its rows");
}

#[test]
fn japanese_dates_with_slashes_are_no_ratio_and_a_difference_keeps_its_name() {
    let r = read_instruction("売上.csvから2026年5月分（5/1〜5/31）だけ抜き出して、5月.csvに保存");
    assert_eq!(ops(&r), ["filter"], "{:?}", r.steps);
    let r = read_instruction("予実.csvに、実績から予算を引いた差異の列を追加して保存");
    assert!(
        r.steps.iter().any(|s| matches!(s, Step::Compute { name, operation: "difference", .. } if name == "差異")),
        "{:?}",
        r.steps
    );
}

#[test]
fn over_another_column_is_a_condition_on_the_difference_or_asked() {
    let over = |text: &str| {
        let r = read_instruction(text);
        r.steps.iter().find_map(|s| match s {
            Step::Filter { conditions, .. } => Some(conditions.clone()),
            _ => None,
        })
    };
    let kept = over(
        "Read plan.csv, add the difference between spent and budget, keep the lines over budget and save over.csv",
    )
    .expect("a filter");
    assert_eq!(kept.len(), 1);
    assert_eq!((kept[0].field.as_deref(), kept[0].operator, &kept[0].value), (Some("difference"), "gt", &json!(0)));
    // Subtracted the other way, over budget is under 0.
    let kept = over("予実.csvに、予算から実績を引いた残額の列を追加して、予算をオーバーした行だけ残して保存")
        .expect("a filter");
    assert_eq!((kept[0].field.as_deref(), kept[0].operator), (Some("残額"), "lt"));
    // With no difference to compare by, the condition is not guessed: the filter's conditions are asked.
    let kept = over("From plan.csv keep the lines where spent is over budget and save over.csv").expect("a filter");
    assert!(kept.is_empty(), "{kept:?}");
}

#[test]
fn a_month_without_its_year_is_read_as_such_and_other_words_are_not() {
    for (text, month) in [
        ("From sales.csv keep the sales for April and save april.csv", 4),
        ("Take December's rows of ledger.xlsx and write them to dec.csv", 12),
        ("支払データ.xlsxの4月分だけ残して4月.csvに保存", 4),
        ("経費.csvから11月の経費だけ抜き出して保存", 11),
    ] {
        let r = read_instruction(text);
        let Some(Step::Filter { conditions, .. }) = r.steps.first() else { panic!("{text}: {:?}", r.steps) };
        assert_eq!(conditions.len(), 1, "{text}: {conditions:?}");
        assert_eq!((conditions[0].operator, &conditions[0].value), (MONTH_OF_UNSAID_YEAR, &json!(month)), "{text}");
    }
    for text in [
        "From sales.csv keep the sales for April 2026 and save april.csv",
        "支払データ.xlsxの2026年4月分だけ残して保存",
        "You may keep the approved rows of claims.csv and save ok.csv",
    ] {
        let r = read_instruction(text);
        let unsaid_year = r.steps.iter().any(|s| {
            matches!(s, Step::Filter { conditions, .. } if conditions.iter().any(|c| c.operator == MONTH_OF_UNSAID_YEAR))
        });
        assert!(!unsaid_year, "{text}: {:?}", r.steps);
    }
}

#[test]
fn months_listed_with_their_year_keep_them_all_when_they_run_on_and_nothing_when_apart() {
    for (text, from, to) in [
        ("Read etc.csv, keep the rows in October and November 2026 and write out.csv", "2026-10-01", "2026-11-30"),
        ("Read etc.csv, keep rows from October, November and December 2026, write out.csv", "2026-10-01", "2026-12-31"),
        ("ETC.csv から2026年10月と11月の利用分を残して out.csv に保存", "2026-10-01", "2026-11-30"),
        ("ETC.csv の2026年12月・2027年1月の利用分を残して out.csv に保存", "2026-12-01", "2027-01-31"),
    ] {
        let r = read_instruction(text);
        let Some(Step::Filter { conditions, .. }) = r.steps.first() else { panic!("{text}: {:?}", r.steps) };
        assert_eq!(conditions.len(), 1, "{text}: {conditions:?}");
        assert_eq!(conditions[0].operator, "between", "{text}");
        assert_eq!((&conditions[0].value, &conditions[0].value2), (&json!(from), &Some(json!(to))), "{text}");
    }
    // Months apart are no one range: not the last (or first) month alone, so the filter is asked.
    for text in [
        "Read etc.csv, keep rows from October and December 2026, write out.csv",
        "ETC.csv から2026年10月と12月の利用分を残して out.csv に保存",
    ] {
        let r = read_instruction(text);
        let Some(Step::Filter { conditions, .. }) = r.steps.first() else { panic!("{text}: {:?}", r.steps) };
        assert!(conditions.is_empty(), "{text}: {conditions:?}");
    }
}

#[test]
fn the_top_n_of_an_entity_by_a_total_totals_it_first() {
    let r = read_instruction("top 3 customers by total Invoice Total in sales.csv, highest first -> top_customers.csv");
    assert_eq!(ops(&r), ["aggregate", "sort"], "{:?}", r.steps);
    let Step::Aggregate { by, aggregations } = &r.steps[0] else { panic!() };
    assert_eq!(by, &["customer"]);
    assert_eq!((aggregations[0].op, aggregations[0].field.as_deref()), ("sum", Some("invoice total")));
    assert!(matches!(&r.steps[1], Step::Sort { by: Some(b), descending: true, limit: Some(3), .. } if b == "total"));
    assert_eq!(r.outputs[0].path.as_deref(), Some("top_customers.csv"), "an arrow points at the output");
    // Rows are not an entity: the top 5 invoices are sorted, not totalled.
    let r = read_instruction("Give me the top 5 invoices by total amount from invoices.csv as top.csv");
    assert!(!r.steps.iter().any(|s| matches!(s, Step::Aggregate { .. })), "{:?}", r.steps);
    let r = read_instruction("得意先別の売上合計の上位3社を売上.csvから出して、上位.csvに保存");
    assert_eq!(ops(&r), ["aggregate", "sort"], "{:?}", r.steps);
}

#[test]
fn keys_named_per_table_and_the_columns_a_lookup_brings_are_read() {
    let r = read_instruction(
        "Which receipts in receipts.xlsx don't match any invoice in ledger.csv? The receipt's Invoice Ref should be the ledger's Invoice Number. Save them to open.csv",
    );
    let Some(Step::Join { key: None, side_keys, .. }) = r.steps.first() else { panic!("{:?}", r.steps) };
    assert_eq!(
        side_keys,
        &[("receipt".to_owned(), "Invoice Ref".to_owned()), ("ledger".to_owned(), "Invoice Number".to_owned())]
    );
    let r = read_instruction(
        "Add the supplier name and payment terms from suppliers.csv onto each bill in bills.csv, matching on vendor_id, and save named.xlsx",
    );
    let Some(Step::Join { keep_all_of, bring, .. }) = r.steps.first() else { panic!("{:?}", r.steps) };
    assert_eq!(keep_all_of.as_deref(), Some("bills.csv"));
    assert_eq!(bring, &["supplier name", "payment term"], "the words as said; bound to the columns with the files");
    let r = read_instruction(
        "仕入伝票.csvの各伝票に、仕入先マスタ.xlsxの取引先名と支払条件を付けて（仕入先コードで照合）、結果.xlsxに保存",
    );
    let Some(Step::Join { keep_all_of, bring, .. }) = r.steps.first() else { panic!("{:?}", r.steps) };
    assert_eq!(keep_all_of.as_deref(), Some("仕入伝票.csv"));
    assert_eq!(bring, &["取引先名", "支払条件"]);
}

#[test]
fn an_order_after_a_superlative_is_no_maximum_and_a_comparison_in_a_writing_clause_filters() {
    let r = read_instruction("Total the amount per vendor in bills.csv, largest first, and save totals.csv");
    assert!(
        !r.steps
            .iter()
            .any(|s| matches!(s, Step::Aggregate { aggregations, .. } if aggregations.iter().any(|a| a.op == "max"))),
        "{:?}",
        r.steps
    );
    let r = read_instruction("Read expenses.csv and write the rows over 50000 to large.csv");
    assert_eq!(ops(&r), ["filter"], "{:?}", r.steps);
}

#[test]
fn columns_chosen_with_their_count_and_new_names_are_read() {
    let r = read_instruction(
        "給与振込.csvから営業部の人だけを残して、列は社員番号・氏名・支給額の3つに絞ってください。見出しはそれぞれemployee_id、name、amountに変えて、bank_upload.csvに出してください。",
    );
    assert_eq!(r.columns, ["社員番号", "氏名", "支給額"]);
    assert_eq!(r.renamed, ["employee_id", "name", "amount"]);
    let r = read_instruction(
        "From staff.csv I only need the columns id, full_name and salary; rename them to ID, Name, Pay and save pay.csv",
    );
    assert_eq!(r.columns, ["id", "full_name", "salary"]);
    assert_eq!(r.renamed, ["ID", "Name", "Pay"]);
    // 「列は A、B、C の3つで」: the columns, counted, with no verb after them.
    let r = read_instruction(
        "売上明細.csv から東京支店の行だけ残してください。列は 日付、得意先、金額 の3つでお願いします。東京.csv に保存。",
    );
    assert_eq!(r.columns, ["日付", "得意先", "金額"]);
    // A list of values narrowed to is no list of columns.
    let r = read_instruction("売上.csvを東京・大阪・名古屋の3つに絞って保存");
    assert!(r.columns.is_empty(), "{:?}", r.columns);
}

#[test]
fn totals_per_month_compute_the_month_and_groups_said_apart_from_their_totals_are_read_together() {
    let r = read_instruction(
        "For each month (written like 2026-07), could you give me how many sales there were and the total of 金額? Save it as monthly.xlsx.",
    );
    assert_eq!(ops(&r), ["compute", "aggregate"], "{:?}", r.steps);
    assert!(matches!(&r.steps[0], Step::Compute { operation: "month", of, .. } if of == &["date"]));
    let Step::Aggregate { by, aggregations } = &r.steps[1] else { panic!() };
    assert_eq!(by, &["month"]);
    assert_eq!(aggregations.iter().map(|a| a.op).collect::<Vec<_>>(), ["count", "sum"]);
    let r = read_instruction("売上.csvを月ごとに金額を合計して、月別.csvに保存");
    assert_eq!(ops(&r), ["compute", "aggregate"], "{:?}", r.steps);
}

#[test]
fn a_japanese_value_kept_alone_is_a_condition_whose_column_the_data_gives() {
    let r = read_instruction("給与振込.csvから営業部の人だけを残して、bank.csvに出して");
    let Some(Step::Filter { conditions, .. }) = r.steps.first() else { panic!("{:?}", r.steps) };
    assert_eq!(conditions.len(), 1);
    assert_eq!(
        (conditions[0].field.as_deref(), conditions[0].operator, &conditions[0].value),
        (None, "eq", &json!("営業部"))
    );
    // Words that keep no value: 「片方だけでなく」, 「今月のものだけ」 (a month, read as such or asked).
    for text in ["重複しているものは片方だけでなく全部出して、結果.xlsxに", "請求書だけ出して、結果.csvに保存"]
    {
        let r = read_instruction(text);
        let kept = filter_conditions(&r);
        assert!(kept.iter().all(|c| c.value != json!("片方") && c.value != json!("請求書")), "{text}: {kept:?}");
    }
}

#[test]
fn each_persons_average_per_day_groups_by_the_person_and_is_saved_where_it_says() {
    let r = read_instruction(
        "In timesheet.csv each line is one day's work. For October only, what's each person's average hours per day? One line per person, saved as oct.csv.",
    );
    let aggregate = r.steps.iter().find_map(|s| match s {
        Step::Aggregate { by, aggregations } => Some((by.clone(), aggregations[0].op)),
        _ => None,
    });
    assert_eq!(aggregate, Some((vec!["person".to_owned()], "avg")), "{:?}", r.steps);
    assert!(!r.steps.iter().any(|s| matches!(s, Step::Duplicates { .. })), "one line per person is what totals give");
    assert_eq!(r.outputs[0].path.as_deref(), Some("oct.csv"));
    assert_eq!(r.sources[0].path.as_deref(), Some("timesheet.csv"));
}

#[test]
fn a_column_whose_value_depends_on_a_condition_is_a_label_not_a_filter() {
    let r = read_instruction(
        "Hi! Could you go through ar_open_items.csv and add a column called Aging? It should say Overdue when the due date is before October 31, 2026, and Open otherwise (so anything due on the 31st itself is still Open). Please save it as ar_aging_flags.csv. Thanks!",
    );
    assert_eq!(ops(&r), ["label"], "{:?}", r.steps);
    let Step::Label { name, cases, otherwise } = &r.steps[0] else { panic!() };
    assert_eq!(name, "Aging");
    assert_eq!(otherwise.as_deref(), Some("Open"));
    assert_eq!(cases.len(), 1);
    assert_eq!(cases[0].1, "Overdue");
    assert_eq!(
        cases[0].0,
        [Condition { field: Some("due date".into()), operator: "lt", value: json!("2026-10-31"), value2: None }]
    );
}

#[test]
fn a_japanese_label_reads_its_cases_and_what_is_left() {
    let r = read_instruction(
        "支払申請.xlsx の各行に「承認区分」という列を追加してください。金額が10万円以上なら「要承認」、それ以外は「不要」と入れてもらえれば大丈夫です。結果は 支払申請_承認区分.csv で保存をお願いします。",
    );
    assert_eq!(ops(&r), ["label"], "{:?}", r.steps);
    let Step::Label { name, cases, otherwise } = &r.steps[0] else { panic!() };
    assert_eq!(name, "承認区分");
    assert_eq!(otherwise.as_deref(), Some("不要"));
    assert_eq!(cases[0].1, "要承認");
    assert_eq!(
        cases[0].0,
        [Condition { field: Some("金額".into()), operator: "gte", value: json!(100000), value2: None }]
    );
    let r = read_instruction(
        "Read sales.csv and mark it High if the amount is over 1,000, otherwise Low. Save to flagged.csv",
    );
    let Step::Label { cases, otherwise, .. } = &r.steps[0] else { panic!("{:?}", r.steps) };
    assert_eq!((cases[0].1.as_str(), otherwise.as_deref()), ("High", Some("Low")));
    assert_eq!(cases[0].0[0].operator, "gt");
    // Without a second value or a case of its own, a condition is a filter as before.
    assert_eq!(ops(&read_instruction("Keep the rows if the amount is over 1,000 and save to big.csv")), ["filter"]);
}

#[test]
fn dates_said_in_full_are_compared_and_a_year_is_never_guessed() {
    let conditions = |text: &str| {
        let r = read_instruction(text);
        r.steps
            .iter()
            .flat_map(|s| match s {
                Step::Filter { conditions, .. } => conditions.clone(),
                _ => Vec::new(),
            })
            .map(|c| (c.operator, c.value, c.value2))
            .collect::<Vec<_>>()
    };
    let date = |d: &str| json!(d);
    assert_eq!(
        conditions("Keep the invoices due before October 31, 2026 from ar.csv"),
        [("lt", date("2026-10-31"), None)]
    );
    assert_eq!(
        conditions("Keep the orders in Q3 2026 (July 1 through September 30) from orders.csv"),
        [("between", date("2026-07-01"), Some(date("2026-09-30")))]
    );
    assert_eq!(
        conditions("Keep the rows between 2026-04-01 and 2026-06-30 of ledger.csv"),
        [("between", date("2026-04-01"), Some(date("2026-06-30")))]
    );
    assert_eq!(
        conditions("Keep the payments on or after 1 March 2026 from pay.csv"),
        [("gte", date("2026-03-01"), None)]
    );
    assert!(conditions("Keep the invoices due before October 31 from ar.csv")
        .iter()
        .all(|(_, v, _)| v != &date("2026-10-31")));
    assert_eq!(
        conditions("経費明細.csv から、上期（2026年4月1日〜2026年9月30日）の経費だけを抜き出して"),
        [("between", date("2026-04-01"), Some(date("2026-09-30")))]
    );
    assert_eq!(
        conditions("支払実績.csv から、2026年10月（10/1〜10/31）の支払だけ残して"),
        [("between", date("2026-10-01"), Some(date("2026-10-31")))]
    );
    assert_eq!(conditions("入金日が2026年3月31日より前の行だけ残して"), [("lt", date("2026-03-31"), None)]);
    assert_eq!(
        conditions("売上明細.csv の2026年7月〜9月の売上だけ残して"),
        [("between", date("2026-07-01"), Some(date("2026-09-30")))]
    );
    assert_eq!(
        conditions("Keep the sales from July to September 2026 in sales.csv"),
        [("between", date("2026-07-01"), Some(date("2026-09-30")))]
    );
    assert!(conditions("月は「2026-07」のような形で表示して、売上明細.csv を読んで").is_empty());
}

#[test]
fn a_status_said_after_a_total_keeps_rows_before_they_are_totalled() {
    let r =
        read_instruction("Count the failed runs per month from test_runs.csv, in month order, and save it as f.csv");
    assert_eq!(ops(&r), ["compute", "filter", "aggregate", "sort"], "{:?}", r.steps);
    let Step::Sort { by, descending: false, .. } = &r.steps[3] else { panic!("{:?}", r.steps) };
    assert_eq!(by.as_deref(), Some("month"));
    let r = read_instruction(
        "Please add up net_amount per customer from sales.csv and give me the top three with their totals in top.csv",
    );
    let Some(Step::Aggregate { aggregations, .. }) = r.steps.iter().find(|s| s.name() == "aggregate") else { panic!() };
    assert_eq!(aggregations.len(), 1, "a total that names no column is the one that does: {aggregations:?}");
}

#[test]
fn two_columns_of_a_row_compared_are_a_condition_between_them_not_a_match_of_tables() {
    let r = read_instruction(
        "remittance_check.csv has what we invoiced and what the customer actually paid on each line. Could you pull out only the lines where Paid doesn't match Invoiced? Save them to mismatches.csv",
    );
    assert_eq!(ops(&r), ["filter"], "{:?}", r.steps);
    let Step::Filter { conditions, .. } = &r.steps[0] else { panic!() };
    assert_eq!(
        conditions,
        &[Condition { field: Some("Paid".into()), operator: "ne", value: json!({"column": "Invoiced"}), value2: None }]
    );
    let r =
        read_instruction("入金予定.csv で、実際の入金日が入金予定日と違っている行だけを ずれ.csv に保存してください。");
    let Step::Filter { conditions, .. } = &r.steps[0] else { panic!("{:?}", r.steps) };
    assert_eq!(conditions[0].field.as_deref(), Some("入金日"));
    assert_eq!(conditions[0].value, json!({"column": "入金予定日"}));
}

#[test]
fn a_share_of_a_column_and_a_sum_of_two_are_computed_columns_named_as_said() {
    let r = read_instruction(
        "Hi, for quotes.csv please: (1) add a Tax column that is 10% of Net, (2) add a Gross column, Net plus Tax, and (3) keep only Quote, Client, Net, Tax and Gross. Save it as q.csv",
    );
    let computed: Vec<(String, &str, Vec<String>, Option<f64>)> = r
        .steps
        .iter()
        .filter_map(|s| match s {
            Step::Compute { name, operation, of, value } => Some((name.clone(), *operation, of.clone(), *value)),
            _ => None,
        })
        .collect();
    assert_eq!(
        computed,
        [
            ("Tax".to_owned(), "product", vec!["net".to_owned()], Some(0.1)),
            ("Gross".to_owned(), "sum", vec!["net".to_owned(), "tax".to_owned()], None)
        ]
    );
    assert_eq!(r.columns, ["Quote", "Client", "Net", "Tax", "Gross"]);
    assert!(!read_instruction("just vendor + count, into counts.csv").steps.iter().any(|s| s.name() == "compute"));
    // ①②③ end the items of a list; 税込金額 is the amount with the tax the text adds.
    let r = read_instruction(
        "経費精算.csv について、以下お願いできますか。①金額は税抜なので、消費税（金額の10%）と税込金額の列を追加　②「金額」の列名を「税抜金額」に変更　③列は 精算番号・担当者・税抜金額・消費税・税込金額 の5つだけ残す　出力は 経費精算_税込.csv でお願いします。",
    );
    assert_eq!(ops(&r), ["compute", "compute"], "{:?}", r.steps);
    assert!(
        matches!(&r.steps[1], Step::Compute { name, operation: "sum", of, .. } if name == "税込金額" && of == &["金額", "消費税"])
    );
    assert_eq!(r.columns, ["精算番号", "担当者", "金額", "消費税", "税込金額"]);
    assert_eq!(r.renamed, ["精算番号", "担当者", "税抜金額", "消費税", "税込金額"]);
}

#[test]
fn groups_said_in_one_clause_and_totals_in_the_next_are_one_grouping() {
    let r = read_instruction(
        "出張旅費.csv を部門ごとにまとめて、件数と金額の合計を出してください。合計金額の大きい順に並べて、部門別集計.xlsx に保存してください。",
    );
    let groupings: Vec<&Step> = r.steps.iter().filter(|s| s.name() == "aggregate").collect();
    assert_eq!(groupings.len(), 1, "{:?}", r.steps);
    let Step::Aggregate { by, aggregations } = groupings[0] else { panic!() };
    assert_eq!(by, &["部門"]);
    assert_eq!(aggregations.len(), 2, "{aggregations:?}");
}

#[test]
fn rows_kept_for_having_no_partner_are_not_filtered_again_by_the_state_that_says_so() {
    let r = read_instruction(
        "Quick one: which invoices in invoices.csv don't have any payment at all in payments.csv yet? Match them on invoice_no. Partly paid invoices count as having a payment. Please list those unpaid invoices in unpaid.csv.",
    );
    assert_eq!(ops(&r), ["join"], "{:?}", r.steps);
}

#[test]
fn dates_of_the_rows_totalled_keep_them_and_two_names_joined_by_to_are_the_columns_kept() {
    let r = read_instruction(
        "支払実績.csv から、2026年10月（10/1〜10/31）の支払を取引先ごとに合計して、金額の多い順に上位5社を出してください。取引先名と合計金額だけで結構です。上位.csv で保存をお願いします。",
    );
    assert_eq!(ops(&r), ["filter", "aggregate", "sort"], "{:?}", r.steps);
    assert_eq!(r.columns, ["取引先名", "合計金額"]);
    assert!(read_instruction("入金日が入金予定日と違っている行だけを ずれ.csv に保存").columns.is_empty());
}

#[test]
fn a_lookup_that_drops_rows_without_a_partner_keeps_only_matches_and_a_purchase_order_is_no_sorting() {
    let r = read_instruction(
        "Using vendor_master.csv, please add each vendor's name and country to the purchase order lines in po_lines.xlsx (match on Vendor Code). Drop any PO line whose vendor code isn't in the master. In the output I only need PO Number, Vendor Name, Country and Amount, and please rename Amount to \"PO Amount\". File name: po.xlsx.",
    );
    assert_eq!(ops(&r), ["join"], "{:?}", r.steps);
    assert_eq!(r.columns, ["PO Number", "Vendor Name", "Country", "Amount"]);
    assert_eq!(r.renamed, ["PO Number", "Vendor Name", "Country", "PO Amount"]);
}

#[test]
fn numbers_rounded_to_the_decimals_said() {
    let rounded = |text: &str| {
        read_instruction(text).steps.into_iter().find_map(|s| match s {
            Step::Compute { operation: "round", of, value, .. } => Some((of, value)),
            _ => None,
        })
    };
    assert_eq!(
        rounded("average Days Open per priority from t.csv, and round the averages to 2 decimals. Save a.csv"),
        Some((vec!["averages".to_owned()], Some(2.0)))
    );
    assert_eq!(
        rounded("Total per vendor from p.csv rounded to the nearest dollar into t.csv"),
        Some((vec![], Some(0.0)))
    );
    assert_eq!(
        rounded("部門ごとの平均を出して、平均を小数点以下1桁に丸めてください。結果.csv に保存"),
        Some((vec!["平均".to_owned()], Some(1.0)))
    );
    assert_eq!(rounded("取引先ごとに合計し、円未満を四捨五入して 結果.csv に保存"), Some((vec![], Some(0.0))));
}

#[test]
fn rounding_down_or_up_and_the_place_rounded_at_are_read() {
    let rounded = |text: &str| {
        read_instruction(text).steps.into_iter().find_map(|s| match s {
            Step::Compute { operation: op @ ("round" | "round_down" | "round_up"), of, value, .. } => {
                Some((op, of, value))
            }
            _ => None,
        })
    };
    assert_eq!(
        rounded("Add tax as amount times 0.0725, rounded down to the nearest cent. Save t.csv"),
        Some(("round_down", vec![], Some(2.0)))
    );
    assert_eq!(
        rounded("total hours per person from h.csv, rounded up to whole numbers, into t.csv"),
        Some(("round_up", vec![], Some(0.0)))
    );
    // 「第2位を四捨五入」 rounds at the second decimal: one is kept.
    assert_eq!(
        rounded("モジュールごとの平均実行時間（秒、小数第2位を四捨五入）を t.csv に"),
        Some(("round", vec!["平均実行時間".to_owned()], Some(1.0)))
    );
    assert_eq!(
        rounded("達成率＝実績÷目標×100（小数第1位まで、第2位を四捨五入）を出して a.xlsx に").map(|(op, _, n)| (op, n)),
        Some(("round", Some(1.0)))
    );
    assert_eq!(
        rounded("税込金額は税抜金額×1.1で、1円未満は切り捨ててください。t.csv に保存"),
        Some(("round_down", vec![], Some(0.0)))
    );
    assert_eq!(
        rounded("平均金額は円未満を切り上げて t.csv に"),
        Some(("round_up", vec!["平均金額".to_owned()], Some(0.0)))
    );
    assert_eq!(rounded("金額は10円未満を切り捨てて t.csv に"), None, "tens of yen: no decimals to keep");
    assert_eq!(
        rounded("達成率（小数第２位を四捨五入）を a.csv に").map(|(op, _, n)| (op, n)),
        Some(("round", Some(1.0))),
        "a full-width digit"
    );
}

#[test]
fn one_row_for_each_group_is_what_the_grouping_gives() {
    let r = read_instruction(
        "I need expense_ledger.xlsx totalled by department and category. Just Department, Category and the summed Amount, one row for each department/category combination that appears. Put it in s.csv",
    );
    assert_eq!(ops(&r), ["aggregate"], "{:?}", r.steps);
    let Step::Aggregate { by, aggregations } = &r.steps[0] else { panic!() };
    assert_eq!(by, &["department", "category"]);
    assert_eq!(aggregations.len(), 1);
    assert_eq!(aggregations[0].field.as_deref(), Some("Amount"));
    // Duplicates removed by another key than the groups stay.
    let r = read_instruction(
        "Remove duplicates so there is one row per invoice, then total the amount per customer from a.csv into b.csv",
    );
    assert_eq!(ops(&r), ["dedupe", "aggregate"], "{:?}", r.steps);
}

#[test]
fn the_rows_wanted_and_a_partner_s_presence_are_what_a_one_sided_match_says() {
    let r = read_instruction(
        "請求一覧.csv の中で、入金明細.csv にまだ入金が1件もない請求だけを 未入金請求.csv に出していただけますか。突き合わせは請求番号でお願いします。一部でも入金があるものは対象外で大丈夫です。",
    );
    assert_eq!(ops(&r), ["join"], "{:?}", r.steps);
    assert!(
        matches!(&r.steps[0], Step::Join { unmatched: true, wanted: Some(w), key: Some(k), .. } if w == "請求" && k == "請求番号")
    );
}

#[test]
fn a_list_of_columns_all_the_same_is_the_key_of_duplicates() {
    for text in [
        "二重払いがないか確認したいです。支払明細.csv の中で、支払日・取引先・金額の3つがすべて同じ行があれば、1件目も含めて該当する行を全部 候補.csv に出してください。摘要は違っていても同じものとして扱ってください。",
        // The list in quotes.
        "二重払いになっていないか確認したいです。支払明細.csv で「支払日・取引先・金額」の3つがすべて同じ行が2行以上あるものについて、該当する行をすべて出してください。出力は 候補.xlsx",
    ] {
        let r = read_instruction(text);
        assert!(
            matches!(&r.steps[..], [Step::Duplicates { by, remove: false, .. }] if by == &["支払日", "取引先", "金額"]),
            "{text}: {:?}",
            r.steps
        );
    }
}

#[test]
fn a_lookup_pulled_from_a_master_keeps_every_row_and_brings_what_it_names() {
    let r = read_instruction(
        "売掛金残高.csv に、取引先マスタ.xlsx から担当者と締日を取引先コードで引っ張ってきて、列を追加してください。マスタに載っていない取引先も消さずに残しておいて、その行の担当者と締日は空欄のままで大丈夫です。ファイル名は 売掛金残高_担当者付き.xlsx でお願いします。",
    );
    assert_eq!(ops(&r), ["join"], "{:?}", r.steps);
    let Step::Join { key, keep_all_of, bring, unmatched: false, .. } = &r.steps[0] else { panic!() };
    assert_eq!(key.as_deref(), Some("取引先コード"));
    assert_eq!(keep_all_of.as_deref(), Some("売掛金残高.csv"));
    assert_eq!(bring, &["担当者", "締日"]);
}

#[test]
fn exact_copies_of_another_row_are_removed_whole_and_which_stay_is_no_filter() {
    let r = read_instruction(
        "bug_export.csv came out of the tracker with some rows repeated. Could you remove the rows that are exact copies of another row (keep one copy of each)? If two rows differ in any column, keep both. Save what's left as deduped.csv.",
    );
    assert!(matches!(&r.steps[..], [Step::Duplicates { by, remove: true, .. }] if by.is_empty()), "{:?}", r.steps);
}

#[test]
fn a_label_may_compare_two_columns_and_be_named_after_its_cases() {
    let r = read_instruction(
        "budget.csvに、実績から予算を引いた差額の列と、実績が予算を上回っていれば「超過」、そうでなければ「予算内」と入れる判定の列を追加してください。予実比較.xlsxに出力お願いします。",
    );
    assert_eq!(ops(&r), ["compute", "label"], "{:?}", r.steps);
    assert!(matches!(&r.steps[0], Step::Compute { name, operation: "difference", .. } if name == "差額"));
    let Step::Label { name, cases, otherwise } = &r.steps[1] else { panic!() };
    assert_eq!((name.as_str(), otherwise.as_deref()), ("判定", Some("予算内")));
    assert_eq!(
        cases[0],
        (
            vec![Condition {
                field: Some("実績".into()),
                operator: "gt",
                value: json!({"column": "予算"}),
                value2: None
            }],
            "超過".to_owned()
        )
    );
    let r = read_instruction(
        "Read costs.csv and mark it Over if the actual is greater than the budget, otherwise OK. Save c.csv",
    );
    let Step::Label { cases, .. } = &r.steps[0] else { panic!("{:?}", r.steps) };
    assert_eq!(cases[0].0.len(), 1, "{cases:?}");
    assert_eq!(cases[0].0[0].value, json!({"column": "budget"}));
    assert_eq!(cases[0].0[0].operator, "gt");
}

#[test]
fn fourth_round_phrasings_read_as_said() {
    let r = read_instruction(
        "Using payroll_october.xlsx, give me the number of employees and the total Gross Pay for each department. Leave out anyone whose Status is Terminated. Columns Department, Headcount, Total Gross, saved as d.csv.",
    );
    assert_eq!(ops(&r), ["filter", "aggregate"], "{:?}", r.steps);
    assert_eq!(r.columns, ["Department", "Headcount", "Total Gross"]);
    let r = read_instruction(
        "every transaction in s.csv whose Description mentions a refund. Only keep Date, Order No, Customer and Amount, in that order, and call the Amount column Refund Amount. File name r.csv please.",
    );
    assert_eq!(ops(&r), ["filter"], "{:?}", r.steps);
    let Step::Filter { conditions, .. } = &r.steps[0] else { panic!() };
    assert_eq!(conditions[0].value, json!("refund"));
    assert_eq!(r.renamed, ["Date", "Order No", "Customer", "Refund Amount"]);
    // Two groups left out each on its own; a state column written with its value.
    let r = read_instruction(
        "I need a clean list from fixed_assets.csv: everything except the assets with Status Disposed and the assets that cost less than $2,500. Save it as c.csv.",
    );
    assert_eq!(ops(&r), ["filter", "filter"], "{:?}", r.steps);
    // A state said not to hold, and "ignoring" leaves rows out.
    let r = read_instruction("Count the defects in d.csv that aren't closed yet per Component, ignoring the ones whose Status is Closed, into t.csv");
    assert!(
        r.steps
            .iter()
            .all(|s| !matches!(s, Step::Filter { conditions, exclude: false } if conditions[0].operator == "eq")),
        "{:?}",
        r.steps
    );
    assert!(r.steps.iter().any(|s| matches!(s, Step::Filter { exclude: true, .. })), "{:?}", r.steps);
    let r = read_instruction("Keep the defects that aren't closed yet from d.csv and save o.csv");
    assert!(
        matches!(&r.steps[..], [Step::Filter { conditions, exclude: false }] if conditions[0].operator == "ne"),
        "{:?}",
        r.steps
    );
    // A column named Approval asks nobody; three cases in a row are one label.
    let r = read_instruction(
        "For expense_lines.csv: (1) drop the lines whose Approval is Rejected; (2) add a Size column: High when Amount is over 5k, Medium when it is between 500 and 5k (500 and 5,000 themselves are Medium), Low when it is under 500. Output e.csv.",
    );
    assert_eq!(ops(&r), ["filter", "label"], "{:?}", r.steps);
    let Step::Label { cases, .. } = &r.steps[1] else { panic!() };
    let said: Vec<(&str, Option<&str>)> = cases.iter().map(|(w, t)| (t.as_str(), w[0].field.as_deref())).collect();
    assert_eq!(said, [("High", Some("Amount")), ("Medium", Some("Amount")), ("Low", Some("Amount"))]);
    // A second sort key is read with its own order, and is no grouping.
    let r = read_instruction(
        "Sort sales.csv by Region A to Z, and within each region by Amount from highest to lowest. Save s.xlsx",
    );
    assert!(!r.steps.iter().any(|s| s.name() == "aggregate"), "{:?}", r.steps);
    assert!(
        matches!(&r.steps[..], [Step::Sort { by: Some(by), descending: false, then, .. }]
            if by == "region" && then == &[("amount".to_owned(), true)]),
        "{:?}",
        r.steps
    );
    // A lookup that drops the rows not in the master keeps none whole, and brings what it names.
    let r = read_instruction(
        "請求書一覧.csv の各請求に、取引先マスタ.xlsx から「取引先名」と「支払条件」を取引先コードで引っ張ってきて付けてください。マスタに登録のない取引先コードの請求は、今回は一覧から外してください。出力は 結果.csv でお願いします。",
    );
    assert!(
        matches!(&r.steps[..], [Step::Join { keep_all_of: None, bring, .. }] if bring == &["取引先名", "支払条件"]),
        "{:?}",
        r.steps
    );
}

#[test]
fn a_word_contained_a_count_said_of_duplicates_and_a_share_written_as_a_product() {
    let r = read_instruction(
        "普通預金_明細_11月.csv から、摘要に「返金」という言葉を含む行のうち、入金額が¥5,000以上のものを抜き出して 返金入金.csv に出してください。",
    );
    assert_eq!(ops(&r), ["filter"], "{:?}", r.steps);
    let r = read_instruction(
        "二重払いを防ぎたいので確認させてください。支払依頼_11月.csv の中で、支払先・支払予定日・金額の3つがすべて同じ依頼が2件以上あるものについて、該当する依頼を1件目も含めて全部抜き出して 疑い.csv にしてもらえますか？",
    );
    assert_eq!(ops(&r), ["duplicates"], "{:?}", r.steps);
    let r = read_instruction(
        "仕入明細_11月.csv について、税抜金額が1万円以上の行だけ残して、「消費税額」（税抜金額×10%）と「税込金額」（税抜金額＋消費税額）の2列を追加してください。出力ファイルは 仕入_税額付き.csv です。",
    );
    let computed: Vec<(&str, &str, usize)> = r
        .steps
        .iter()
        .filter_map(|s| match s {
            Step::Compute { name, operation, of, .. } => Some((name.as_str(), *operation, of.len())),
            _ => None,
        })
        .collect();
    assert_eq!(computed, [("消費税額", "product", 1), ("税込金額", "sum", 2)], "{:?}", r.steps);
    let r = read_instruction("every transaction in s.csv whose Description mentions a refund (Refund, refunded, REFUND all count). Save r.csv");
    assert!(r.unplaced.is_empty(), "{:?}", r.unplaced);
}

#[test]
fn a_note_after_the_file_written_does_not_make_it_the_rest() {
    let r = read_instruction(
        "明細.csv から、摘要に「返金」を含む行を抜き出して 返金.csv に出してください（出金側の返金は対象外です）。",
    );
    assert!(!r.outputs[0].rest, "{:?}", r.outputs);
    let r = read_instruction("Keep the approved rows of a.csv in ok.csv and write the rest to other.csv");
    assert!(r.outputs.iter().any(|o| o.rest && o.path.as_deref() == Some("other.csv")), "{:?}", r.outputs);
}

#[test]
fn rows_kept_and_left_out_by_cases_are_filters_not_a_label() {
    let r = read_instruction("売上.csv の金額が10万円以上は残して、5万円未満は除外して 結果.csv に保存");
    assert!(!r.steps.iter().any(|s| s.name() == "label"), "{:?}", r.steps);
}

#[test]
fn a_case_inside_the_brackets_explaining_the_one_before_is_no_case_of_its_own() {
    let r = read_instruction(
        "add a Size column: High when Amount is over 5k (Low when it is under 500, Medium when amount is 10) and Low when it is under 500. Save s.csv",
    );
    let Some(Step::Label { cases, .. }) = r.steps.iter().find(|s| s.name() == "label") else { panic!("{:?}", r.steps) };
    let values: Vec<&str> = cases.iter().map(|(_, then)| then.as_str()).collect();
    assert_eq!(values, ["High", "Low"]);
}

/// The conditions of a filter (the first filter step), or a panic naming the steps read.
fn filter_of(r: &Reading) -> &[Condition] {
    r.steps
        .iter()
        .find_map(|s| match s {
            Step::Filter { conditions, .. } => Some(conditions.as_slice()),
            _ => None,
        })
        .unwrap_or_else(|| panic!("no filter in {:?}", r.steps))
}

#[test]
fn a_condition_written_as_a_formula_is_read() {
    let r = read_instruction("Look at payroll_allocations.csv, Department = Engineering, and save the rows as eng.csv");
    let conditions = filter_of(&r);
    assert!(
        conditions
            .iter()
            .any(|c| c.field.as_deref() == Some("Department") && c.operator == "eq" && c.value == json!("Engineering")),
        "{conditions:?}"
    );
    // "!=" after a comma: the rows whose value is another.
    let r = read_instruction("From tickets.csv, Priority != Low; write open.csv");
    assert!(filter_of(&r).iter().any(|c| c.operator == "ne" && c.value == json!("Low")), "{:?}", r.steps);
}

#[test]
fn a_calendar_quarter_is_its_three_months_and_a_fiscal_one_is_not_guessed() {
    for text in [
        "Total the Q3 2026 claims in claims.csv by Category into q3.csv",
        "Total the claims of the third quarter of 2026 in claims.csv by Category into q3.csv",
        "申請.csv から2026年の第3四半期に提出された申請だけを抜き出して q3.csv に出力",
        "申請.csv から2026年第３四半期の申請だけを抜き出して q3.csv に出力",
    ] {
        let r = read_instruction(text);
        assert!(
            filter_of(&r).iter().any(|c| c.operator == "between"
                && c.value == json!("2026-07-01")
                && c.value2 == Some(json!("2026-09-30"))),
            "{text}: {:?}",
            r.steps
        );
    }
    for text in [
        "Total the fiscal Q3 2026 claims in claims.csv by Category into q3.csv",
        "申請.csv から2026年度第3四半期の申請だけを抜き出して q3.csv に出力",
    ] {
        let r = read_instruction(text);
        let between = r.steps.iter().any(
            |s| matches!(s, Step::Filter { conditions, .. } if conditions.iter().any(|c| c.operator == "between")),
        );
        assert!(!between, "{text}: {:?}", r.steps);
    }
}

#[test]
fn a_pair_the_same_across_rows_is_a_duplicate_check_that_keeps_the_first_one() {
    let r = read_instruction(
        "請求書受付一覧.csv で、取引先と請求書番号の組み合わせが同じ行が2行以上あるものを探して、該当する行を最初の1件も含めて全部 疑い.csv に出して",
    );
    let Some(Step::Duplicates { by, remove: false, .. }) = r.steps.iter().find(|s| s.name() == "duplicates") else {
        panic!("{:?}", r.steps)
    };
    assert_eq!(by, &["取引先", "請求書番号"]);
    // Two columns of one row compared: no duplicate check.
    let r = read_instruction("支払.csv から請求額と支払額が一致する行を抽出して 一致.csv に保存");
    assert!(!r.steps.iter().any(|s| s.name() == "duplicates"), "{:?}", r.steps);
}

#[test]
fn keys_named_per_table_after_the_verb_are_read() {
    let r = read_instruction(
        "Which lines on bank.csv have nothing in ledger.csv? Match the statement's Reference to the ledger's Bank Ref. Save them as open.csv",
    );
    let Some(Step::Join { side_keys, .. }) = r.steps.iter().find(|s| s.name() == "join") else {
        panic!("{:?}", r.steps)
    };
    assert_eq!(
        side_keys,
        &[("statement".to_owned(), "Reference".to_owned()), ("ledger".to_owned(), "Bank Ref".to_owned())]
    );
}

#[test]
fn a_state_said_exactly_and_a_state_of_several_words_left_out_are_read_as_written() {
    let r = read_instruction(
        "Pull every invoice out of invoices.csv and save it as open.xlsx. Only rows whose status is exactly Unpaid; leave the Partially Paid ones out.",
    );
    let filters: Vec<(&Vec<Condition>, bool)> = r
        .steps
        .iter()
        .filter_map(|s| match s {
            Step::Filter { conditions, exclude } => Some((conditions, *exclude)),
            _ => None,
        })
        .collect();
    assert!(
        filters.iter().any(|(cs, exclude)| !exclude && cs.iter().any(|c| c.value == json!("Unpaid"))),
        "{filters:?}"
    );
    assert!(
        filters.iter().any(|(cs, exclude)| *exclude && cs.iter().any(|c| c.value == json!("Partially Paid"))),
        "{filters:?}"
    );
    assert!(filters.iter().all(|(cs, _)| cs.iter().all(|c| c.value != json!("exactly"))), "{filters:?}");
}

#[test]
fn duplicates_said_to_be_whole_rows_have_no_key_whatever_an_example_names() {
    let r = read_instruction(
        "Hi, the payments export (payments.csv) came through with some rows in it more than once. Please remove the duplicate rows, meaning rows that are identical in every column, keep one copy of each, and save the result as payments_clean.csv. Rows that only share some values (e.g. same payee and amount but a different payment_id) are not duplicates.",
    );
    assert_eq!(ops(&r), ["dedupe"], "{:?}", r.steps);
    let Step::Duplicates { by, remove: true, .. } = &r.steps[0] else { panic!("{:?}", r.steps) };
    assert!(by.is_empty(), "{by:?}");
    let r = read_instruction(
        "仕訳データ.csv で同じ行が二重に入ってしまいました。全部の列が完全に一致する行は1行だけ残して重複を削除し、仕訳データ_重複削除.csv で保存してください。（同じ伝票番号でも借方・貸方の別の行は消さないでください）",
    );
    assert_eq!(ops(&r), ["dedupe"], "{:?}", r.steps);
}

#[test]
fn a_lookup_brings_the_column_it_names_and_nothing_moved_over_is_compared() {
    let r = read_instruction(
        "For each claim in expense_claims.csv, look up the employee's cost_center in employees.csv (match on employee_id) and add it as a new column. Keep all the claim columns, but don't bring over name or department. Save as claims_with_cost_center.xlsx.",
    );
    assert_eq!(ops(&r), ["join"], "{:?}", r.steps);
    let Step::Join { key, bring, .. } = &r.steps[0] else { panic!("{:?}", r.steps) };
    assert_eq!((key.as_deref(), bring.as_slice()), (Some("employee_id"), &["cost_center".to_owned()][..]));
}

#[test]
fn rows_whose_key_is_not_in_another_file_are_read_in_both_languages() {
    let r = read_instruction(
        "Give me the rows of bank_statement.csv whose reference doesn't appear anywhere in the reference column of ledger.csv, with all the bank statement columns, as unrecorded.csv.",
    );
    assert_eq!(r.sources.len(), 2, "both files are read: {:?}", r.sources);
    assert!(matches!(&r.steps[..], [Step::Join { unmatched: true, .. }]), "{:?}", r.steps);
    let r = read_instruction(
        "発注一覧.csv の中で、支払実績.csv にまだ発注番号が出てこない発注を抜き出して、未払発注.csv にしてください。",
    );
    assert!(
        matches!(&r.steps[..], [Step::Join { unmatched: true, key: Some(k), .. }] if k == "発注番号"),
        "{:?}",
        r.steps
    );
}

#[test]
fn a_list_of_conditions_one_per_line_is_read_item_by_item() {
    let text = "以下の条件で抽出をお願いします。\n・元データ：請求一覧.csv\n・ステータスが「未入金」のもの（「一部入金」は除く）\n・請求金額が10万円以上（ちょうど100,000円も含む）\n・列は 請求番号、得意先、入金予定日、請求金額 の4列のみ\n・出力ファイル：未入金.xlsx";
    let r = read_instruction(text);
    let Some(Step::Filter { conditions, exclude: false }) = r.steps.first() else { panic!("{:?}", r.steps) };
    assert!(conditions.iter().any(|c| c.operator == "gte" && c.value == json!(100000)), "{conditions:?}");
    assert!(conditions.iter().any(|c| c.value == json!("未入金")), "{conditions:?}");
    assert_eq!(r.columns, ["請求番号", "得意先", "入金予定日", "請求金額"]);
    assert_eq!(normalise("keep the approved\nrows over 100"), "keep the approved rows over 100", "a wrapped line");
}

#[test]
fn the_n_rows_with_the_highest_total_are_a_top_n() {
    let r = read_instruction(
        "- source: sales_lines.csv\n- add up net_amount per customer\n- keep only the 5 customers with the highest total, biggest first\n- save as top5.xlsx",
    );
    assert!(r.steps.iter().any(|s| matches!(s, Step::Sort { limit: Some(5), descending: true, .. })), "{:?}", r.steps);
}

#[test]
fn words_that_only_look_like_a_filter_keep_no_rows() {
    for text in [
        "東京.csv と 大阪.csv を1つの表にまとめてください（縦に連結するだけで、列の追加や変更はなし）。結果.xlsx に出力",
        "二重支払いのチェックをお願いします。支払.csv の中で、取引先コードと請求書番号の組み合わせが同じ行が2件以上あるものについて、該当する行をすべて（1件目も含めて）全列のまま抽出してください。出力：候補.xlsx",
        "経費.csv を部門ごとに金額の合計を出していただけますか。部門別.xlsx に保存",
    ] {
        let r = read_instruction(text);
        assert!(!r.steps.iter().any(|s| matches!(s, Step::Filter { .. })), "{text}: {:?}", r.steps);
    }
}

#[test]
fn states_said_not_to_count_are_left_out_and_count_no_rows() {
    let r = read_instruction(
        "hey, can you grab only the invoices with status Unpaid from invoices.csv (Partially Paid and Void don't count) and sort them by due_date, earliest first? save it as unpaid.xlsx",
    );
    assert_eq!(ops(&r), ["filter", "sort"], "{:?}", r.steps);
    let Step::Filter { conditions, exclude: false } = &r.steps[0] else { panic!("{:?}", r.steps) };
    assert!(conditions.iter().any(|c| c.operator == "eq" && c.value == json!("Unpaid")), "{conditions:?}");
    assert!(conditions.iter().any(|c| c.operator == "ne" && c.value == json!("Partially Paid")), "{conditions:?}");
}

#[test]
fn an_export_named_as_a_noun_is_read_and_every_column_matching_is_the_duplicate_check() {
    let r = read_instruction(
        "The payment export in vendor_payments.csv came out with some lines doubled up. Please remove the duplicate rows, keeping one copy of each. A row only counts as a duplicate if every column matches another row exactly (same payment_id with a different amount is not a duplicate, keep both). Save the result as vendor_payments_dedup.csv.",
    );
    assert_eq!(r.sources.iter().map(|s| s.path.as_deref()).collect::<Vec<_>>(), [Some("vendor_payments.csv")]);
    assert_eq!(r.outputs.len(), 1, "{:?}", r.outputs);
    assert!(matches!(&r.steps[..], [Step::Duplicates { by, remove: true, .. }] if by.is_empty()), "{:?}", r.steps);
}

#[test]
fn the_rows_without_a_match_are_named_by_what_lacks_the_partner() {
    let r = read_instruction(
        "経費申請.csv の社員番号のうち、社員マスタ.csv に存在しないものが混ざっているようです。マスタに社員番号がない申請だけを、申請データの列はすべてそのままで抜き出してください。出力は 未登録.csv でお願いします。",
    );
    assert!(
        matches!(&r.steps[..], [Step::Join { unmatched: true, key: Some(k), wanted: Some(w), .. }] if k == "社員番号" && w == "申請"),
        "{:?}",
        r.steps
    );
}

#[test]
fn a_formula_an_opening_verb_and_a_list_with_plus_are_no_conditions() {
    let r = read_instruction(
        "1. Open dept_budget.csv.\n2. Add a column called variance = actual minus budget.\n3. Keep only the departments that went over budget (variance greater than zero).\n4. Save as over_budget.xlsx.",
    );
    let conditions = filter_conditions(&r);
    assert!(conditions.iter().all(|c| c.value != json!("open") && c.value != json!("actual")), "{conditions:?}");
    let r = read_instruction(
        "for paid_invoices.csv please add a days_to_pay column (paid_date minus invoice_date) and keep only the invoices that took more than 30 days to pay. Keep all the original columns plus days_to_pay. File name: slow.csv",
    );
    assert!(!r.steps.iter().any(|s| matches!(s, Step::Compute { operation: "sum", .. })), "{:?}", r.steps);
}

#[test]
fn columns_named_in_quotes_one_after_another_are_chosen() {
    let r = read_instruction(
        "入金記録.csv から2026年7月〜9月の入金だけを残して、列は「入金日」「取引先」「入金額」の3つに絞ってください。その際「入金額」の列名は「金額」に変更をお願いします。ファイル名は 入金.xlsx で。",
    );
    assert_eq!(r.columns, ["入金日", "取引先", "入金額"]);
    assert!(
        r.steps.iter().all(
            |s| !matches!(s, Step::Filter { conditions, .. } if conditions.iter().any(|c| c.value == json!("入金額")))
        ),
        "{:?}",
        r.steps
    );
}

#[test]
fn a_lookup_said_with_its_key_brings_the_column_it_names() {
    let r = read_instruction(
        "売掛金残高.csv の各行に、取引先マスタ.csv から取引先コードで取引先名を引いて、「取引先名」列を追加してください。保存先は 結果.xlsx です。",
    );
    assert!(matches!(&r.steps[..], [Step::Join { bring, .. }] if bring == &["取引先名"]), "{:?}", r.steps);
    let r = read_instruction("受注.csvの商品コードで商品マスタ.xlsxを引いて、商品名と単価を付けてください。受注明細.xlsxに出力してください。");
    assert!(
        r.steps.iter().all(|s| !matches!(s, Step::Join { bring, .. } if bring.iter().any(|b| b.contains("xlsx")))),
        "{:?}",
        r.steps
    );
}

#[test]
fn the_columns_a_lookup_brings_keep_no_rows_and_the_file_saved_is_written() {
    let r = read_instruction(
        "売上明細.csv の取引先コードをキーにして、取引先マスタ.csv から取引先名を引っ張ってきて列を追加してください。マスタからは取引先名だけ持ってくれば大丈夫です。保存名は 売上明細_取引先名付き.xlsx で。",
    );
    assert_eq!(r.sources.len(), 2, "{:?}", r.sources);
    assert_eq!(r.outputs.iter().map(|o| o.path.as_deref()).collect::<Vec<_>>(), [Some("売上明細_取引先名付き.xlsx")]);
    assert!(!r.steps.iter().any(|s| matches!(s, Step::Filter { .. })), "{:?}", r.steps);
}

#[test]
fn a_computed_column_said_with_brackets_and_a_factor_reads_its_operands() {
    let r = read_instruction(
        "予算実績.csv に「差額」列（実績 − 予算）を追加して、差額の大きい順に並べ替え → 予実差額.xlsx",
    );
    assert!(
        r.steps
            .iter()
            .any(|s| matches!(s, Step::Compute { operation: "difference", of, .. } if of == &["実績", "予算"])),
        "{:?}",
        r.steps
    );
    assert_eq!(r.outputs.iter().map(|o| o.path.as_deref()).collect::<Vec<_>>(), [Some("予実差額.xlsx")]);
    let r = read_instruction("仕入明細.csv に「税込金額」の列を追加してください。計算は 税抜金額 × 1.1 で、1円未満は切り捨てです。結果.csv で保存");
    assert!(
        r.steps.iter().any(|s| matches!(s, Step::Compute { operation: "product", of, value: Some(v), .. } if of == &["税抜金額"] && (*v - 1.1).abs() < 1e-9)),
        "{:?}",
        r.steps
    );
    assert!(!r.steps.iter().any(|s| matches!(s, Step::Filter { .. })), "rounding keeps no rows: {:?}", r.steps);
}

#[test]
fn a_file_read_before_the_words_that_write_leaves_the_output_to_them() {
    let r = read_instruction("支払データ.xlsx の「4月」シートから、取引先コードごとに支払金額を合計してCSVで保存して");
    assert_eq!(r.outputs.len(), 1, "{:?}", r.outputs);
    assert_eq!((r.outputs[0].format, r.outputs[0].path.as_deref()), (OutputFormat::Csv, None));
    assert_eq!(r.sources.len(), 1);
}

#[test]
fn a_code_said_of_a_column_is_a_condition_and_an_aside_not_counted_leaves_rows_out() {
    let r = read_instruction(
        "結合テスト_実施記録.csv、結果がNGのものを担当者別に件数集計。列は担当者とNG件数、NG件数の多い順で 担当者別NG件数.csv に。（保留はNGに数えない）",
    );
    let Some(Step::Filter { conditions, exclude: false }) = r.steps.first() else { panic!("{:?}", r.steps) };
    assert_eq!(conditions[0].field.as_deref(), Some("結果"));
    assert_eq!(conditions[0].value, json!("NG"));
    assert!(r.steps.iter().any(|s| matches!(s, Step::Filter { exclude: true, .. })), "{:?}", r.steps);
    assert_eq!(r.outputs.iter().map(|o| o.path.as_deref()).collect::<Vec<_>>(), [Some("担当者別NG件数.csv")]);
    let r = read_instruction("問い合わせログ inquiries.csv の本文を1件ずつ要約して summary.csv に。");
    assert_eq!(r.outputs.iter().map(|o| o.path.as_deref()).collect::<Vec<_>>(), [Some("summary.csv")]);
}

#[test]
fn a_report_asked_for_with_shite_kudasai_is_written() {
    let r = read_instruction("在庫.xlsx で在庫数が 0 の品目を一覧にして、markdown のレポートにしてください。");
    assert_eq!(r.outputs.iter().map(|o| o.format).collect::<Vec<_>>(), [OutputFormat::Markdown]);
}

#[test]
fn a_week_said_with_its_weekdays_is_a_date_range() {
    let r =
        read_instruction("keep the runs in the week Mon 2026-03-09 to Sun 2026-03-15 from runs.csv and save week.csv");
    let Some(Step::Filter { conditions, .. }) = r.steps.first() else { panic!("{:?}", r.steps) };
    assert!(
        conditions.iter().any(|c| c.operator == "between"
            && c.value == json!("2026-03-09")
            && c.value2.as_ref() == Some(&json!("2026-03-15"))),
        "{conditions:?}"
    );
}

#[test]
fn columns_listed_after_just_or_in_the_order_said_are_chosen() {
    let r = read_instruction(
        "from expenses_march.csv give me every expense of 500 or more that isn't Rejected. just employee, expense_date, category, amount -> big_expenses_march.csv",
    );
    assert_eq!(r.columns, ["employee", "expense_date", "category", "amount"]);
    let r = read_instruction(
        "1. a.csv の各行について金額を出す\n2. 列は 受注番号、行番号、商品コード、金額 の順にする\n3. b.csv で保存",
    );
    assert_eq!(r.columns, ["受注番号", "行番号", "商品コード", "金額"]);
    // 「NG件数の多い順」 is an order of the rows, not the last column of a list.
    let r = read_instruction("記録.csv の NG を担当者別に件数集計。列は担当者とNG件数、NG件数の多い順で 結果.csv に。");
    assert!(!r.columns.iter().any(|c| c.contains("多い")), "{:?}", r.columns);
}

#[test]
fn a_match_of_two_tables_said_again_is_one_match() {
    let r = read_instruction(
        "which lines on the july bank statement have nothing matching in the GL? compare the reference in bank.csv against ref_no in gl.csv, exact match only, don't look at amounts or dates. give me the bank rows with no match, all their columns, in unmatched.csv",
    );
    assert_eq!(ops(&r), ["join"], "{:?}", r.steps);
    assert!(matches!(&r.steps[0], Step::Join { unmatched: true, .. }), "{:?}", r.steps);
}

#[test]
fn sort_keys_after_the_first_are_read_each_with_its_order() {
    let sort = |text: &str| {
        read_instruction(text).steps.into_iter().find_map(|s| match s {
            Step::Sort { by, descending, then, .. } => Some((by, descending, then)),
            _ => None,
        })
    };
    let key = |c: &str, descending: bool| (c.to_owned(), descending);
    assert_eq!(
        sort(
            "Keep all columns, sort by vendor and then by payment date (oldest first), and save as p.xlsx. Read a.csv"
        ),
        Some((Some("vendor".to_owned()), false, vec![key("payment date", false)]))
    );
    assert_eq!(
        sort("From a.csv, sort by amount, largest first, then by date (oldest first) into b.csv"),
        Some((Some("amount".to_owned()), true, vec![key("date", false)])),
        "each key keeps the order said with it"
    );
    assert_eq!(
        sort("固定資産台帳.csv を、並び順は取得年の古い順で、同じ年の中では取得価額の大きい順にお願いします。b.csv で保存"),
        Some((Some("取得年".to_owned()), false, vec![key("取得価額", true)]))
    );
    assert_eq!(
        sort("a.csv の列は case_id・タイトルの2つで、同じ case_id の中では更新日の古い順に並べてください。b.csv に"),
        Some((Some("case_id".to_owned()), false, vec![key("更新日", false)])),
        "a key said within another sorts by that one first"
    );
}

#[test]
fn orders_said_with_ga_ties_broken_rounding_half_up_and_states_an_aside_leaves_out_are_read() {
    let r = read_instruction(
        "Please combine a.csv and b.csv. Sort the combined list by invoice_date (oldest first), and where two invoices share a date, by invoice number. Save c.xlsx",
    );
    let sort = r.steps.iter().find_map(|s| match s {
        Step::Sort { by, then, .. } => Some((by.clone(), then.clone())),
        _ => None,
    });
    assert_eq!(sort, Some((Some("invoice_date".to_owned()), vec![("invoice number".to_owned(), false)])));
    let r = read_instruction("add the total (subtotal * 1.0725, rounded half-up to the cent) from o.csv into t.csv");
    assert!(
        r.steps.iter().any(|s| matches!(s, Step::Compute { operation: "round", value: Some(v), .. } if *v == 2.0)),
        "{:?}",
        r.steps
    );
    let r = read_instruction(
        "請求一覧.csv から未入金のものだけ抜き出して（一部入金・取消・入金済は対象外です）支払期日が早い順に並べて a.xlsx に",
    );
    assert!(r.steps.iter().any(|s| matches!(s, Step::Sort { by: Some(b), .. } if b == "支払期日")), "{:?}", r.steps);
    let filters: Vec<(bool, Vec<&str>)> = r
        .steps
        .iter()
        .filter_map(|s| match s {
            Step::Filter { conditions, exclude } => {
                Some((*exclude, conditions.iter().filter_map(|c| c.value.as_str()).collect()))
            }
            _ => None,
        })
        .collect();
    assert_eq!(filters, [(false, vec!["未入金"]), (true, vec!["取消", "入金済"])], "the aside's states are left out");
}

#[test]
fn an_order_after_the_columns_chosen_is_a_sort_and_a_column_times_a_number_is_computed() {
    let r = read_instruction(
        "Total the amount per vendor from a.xlsx. I just need one row per vendor with the vendor name and the total amount, biggest total first. Please save it as b.csv.",
    );
    assert_eq!(r.columns, ["vendor name", "total amount"]);
    assert!(
        r.steps.iter().any(|s| matches!(s, Step::Sort { by: Some(b), descending: true, .. } if b == "total")),
        "{:?}",
        r.steps
    );
    let r = read_instruction("From staff.csv I only need first name, last name and email. Save s.csv");
    assert_eq!(r.columns, ["first name", "last name", "email"], "a column may start with first or last");
    let r = read_instruction("in o.csv add the total with sales tax (subtotal * 1.0725), output t.csv");
    assert!(
        r.steps.iter().any(|s| matches!(s, Step::Compute { operation: "product", of, value: Some(v), .. }
            if of == &["subtotal"] && *v == 1.0725)),
        "{:?}",
        r.steps
    );
}

#[test]
fn a_name_said_before_its_formula_names_the_column_and_a_list_counted_before_a_comma_is_chosen() {
    let r = read_instruction(
        "見積明細.csv の各行に税込金額を追加してください。税込金額＝税抜金額×1.1、円未満は四捨五入でお願いします。出力する列は品目・数量・税抜金額・税込金額の4つ、ファイル名は m.csv です。",
    );
    assert!(
        r.steps.iter().any(|s| matches!(s, Step::Compute { name, operation: "product", of, .. }
            if name == "税込金額" && of == &["税抜金額"])),
        "{:?}",
        r.steps
    );
    assert_eq!(r.columns, ["品目", "数量", "税抜金額", "税込金額"]);
}

#[test]
fn one_row_per_key_with_duplicates_and_no_total_is_the_removal_not_a_grouping() {
    let r = read_instruction(
        "社員マスタ.csv に、同じ社員番号の行が重複して入ってしまっています。社員番号ごとに1行になるように整理してください。\n重複している場合は、ファイルの下の方にある行を残してください。列はそのままで、s.csv に出力をお願いします。",
    );
    assert_eq!(ops(&r), ["dedupe"], "{:?}", r.steps);
    assert!(matches!(&r.steps[0], Step::Duplicates { keep_last: true, .. }), "the row lower in the file stays");
    // Totals asked per key are a grouping still.
    let r = read_instruction("取引先ごとに1行になるように金額を合計して t.csv に");
    assert_eq!(ops(&r), ["aggregate"], "{:?}", r.steps);
}

#[test]
fn a_form_in_brackets_names_no_column_and_one_row_per_group_with_totals_removes_no_duplicates() {
    let r = read_instruction(
        "For the retro I need failed runs per month from runs.csv. Take the month from run_date (as YYYY-MM), count only rows with status Failed, and give the average duration_sec per month. One row per month: month, average duration. Save as f.csv.",
    );
    assert!(
        r.steps.iter().any(|s| matches!(s, Step::Compute { operation: "month", name, .. } if name != "YYYY")),
        "{:?}",
        r.steps
    );
    assert!(!r.steps.iter().any(|s| s.name() == "dedupe"), "{:?}", r.steps);
    // One row per invoice before totals per customer is a removal still.
    let r = read_instruction("a.csv を請求番号ごとに1行にしてから、取引先ごとに金額を合計して b.csv に");
    assert_eq!(ops(&r), ["dedupe", "aggregate"], "{:?}", r.steps);
}

/// Each filter's left-out flag and its conditions' operators and values.
fn filters_read(r: &Reading) -> Vec<(bool, Vec<(&str, String)>)> {
    r.steps
        .iter()
        .filter_map(|s| match s {
            Step::Filter { conditions, exclude } => Some((
                *exclude,
                // (A condition of several values, `in`, is each of them.)
                conditions
                    .iter()
                    .flat_map(|c| match &c.value {
                        Value::Array(values) => {
                            values.iter().filter_map(|v| Some(("eq", v.as_str()?.to_lowercase()))).collect()
                        }
                        value => value.as_str().map(|v| (c.operator, v.to_lowercase())).into_iter().collect::<Vec<_>>(),
                    })
                    .collect(),
            )),
            _ => None,
        })
        .collect()
}

#[test]
fn states_listed_beside_one_are_left_out_with_it_and_staying_out_leaves_out() {
    let of = |text: &str| {
        let r = read_instruction(text);
        let mut values: Vec<String> = filters_read(&r)
            .into_iter()
            .flat_map(|(exclude, conditions)| {
                conditions
                    .into_iter()
                    .map(move |(op, v)| format!("{}{v}", if (op == "ne") != exclude { "-" } else { "+" }))
            })
            .collect();
        values.sort();
        values
    };
    // In brackets, every item; written as cells are, the capitalised items around the state.
    for text in [
        "Copy po.csv to open.csv; everything else (closed, on hold, cancelled) stays out.",
        "Copy po.csv to open.csv, leaving out Closed, On Hold and Cancelled.",
        "Copy po.csv to open.csv; Closed, On Hold, Cancelled stay out.",
    ] {
        assert_eq!(of(text), ["-cancelled", "-closed", "-on hold"], "{text}");
    }
    // Said not to count, with the rows named after them: left out once, not twice.
    assert_eq!(of("Copy po.csv to open.csv. Cancelled and Closed ones don't count."), ["-cancelled", "-closed"]);
    // A boundary said not to count is no state left out.
    let r = read_instruction("Keep the invoices over 1,000 from a.csv in b.csv; exactly 1,000 doesn't count.");
    assert!(filters_read(&r).iter().all(|(exclude, _)| !exclude), "{:?}", r.steps);
}

#[test]
fn a_value_named_like_an_operation_a_count_in_a_list_of_columns_and_rounding_of_the_totals_are_read() {
    // "Duplicate" written as a cell is, in a list of values: no duplicate check.
    let r = read_instruction(
        "I need the average Hours Spent per Severity in bugs.csv, counting only bugs whose Resolution is Fixed (not Won't Fix, Duplicate or anything else). Save a.csv.",
    );
    assert!(!r.steps.iter().any(|s| matches!(s, Step::Duplicates { .. })), "{:?}", r.steps);
    // "just four columns, in this order: …".
    let r = read_instruction(
        "Make b.xlsx from sales.csv with just four columns, in this order: Region, Sales Rep, Customer, Amount.",
    );
    assert_eq!(r.columns, ["Region", "Sales Rep", "Customer", "Amount"], "{:?}", r.steps);
    // A count said in the grouping's sentence stays beside the totals said after; rounding that
    // names nothing rounds the totals, after them.
    let r = read_instruction(
        "Count only runs with status Failed from runs.csv, and give the average duration_sec, rounded half-up to whole seconds. One row per month: month, number of failures, average duration. Save as c.csv.",
    );
    let aggregate = r.steps.iter().position(|s| matches!(s, Step::Aggregate { .. })).expect("a grouping");
    let Step::Aggregate { aggregations, .. } = &r.steps[aggregate] else { unreachable!() };
    let ops: Vec<&str> = aggregations.iter().map(|a| a.op).collect();
    assert_eq!(ops, ["count", "avg"], "{:?}", r.steps);
    let round = r.steps.iter().position(|s| matches!(s, Step::Compute { operation: "round", .. })).expect("rounding");
    assert!(round > aggregate, "{:?}", r.steps);
    assert!(matches!(&r.steps[round], Step::Compute { value: Some(v), .. } if *v == 0.0), "{:?}", r.steps);
}

#[test]
fn a_month_said_of_the_rows_totalled_keeps_them() {
    let r = read_instruction("交通費精算.csv（7月分）を部署ごとに合計して、多い順に上位3部署だけ a.csv で保存");
    assert!(
        r.steps.iter().any(|s| matches!(s, Step::Filter { conditions, .. }
            if conditions.iter().any(|c| c.operator == MONTH_OF_UNSAID_YEAR && c.value == json!(7)))),
        "{:?}",
        r.steps
    );
}

#[test]
fn rows_that_appear_more_than_once_are_the_duplicate_check_and_the_later_ones_dropped_are_its() {
    let steps = |text: &str| read_instruction(text).steps;
    // "more than once" says how often: no column "once" compared with.
    for text in [
        "List every row in a.csv whose bill_no appears more than once. Save as b.csv.",
        "List every row in a.csv whose bill_no appears more than once. I need all the copies, including the first one, not just the extras. Save as b.csv.",
    ] {
        assert!(
            matches!(&steps(text)[..], [Step::Duplicates { by, remove: false, .. }] if by == &["bill_no"]),
            "{text}: {:?}",
            steps(text)
        );
    }
    let text = "Make a copy of a.csv with one row per vendor_id. Where an ID shows up more than once, keep the first row it appears on and drop the later ones. Save b.csv";
    assert!(matches!(&steps(text)[..], [Step::Duplicates { remove: true, keep_last: false, .. }]), "{:?}", steps(text));
    let text = "From a.csv, pull every payment where the same vendor + invoice number combination shows up on more than one row. Save b.csv";
    assert!(
        matches!(&steps(text)[..], [Step::Duplicates { by, remove: false, .. }] if by == &["vendor", "invoice number"]),
        "{:?}",
        steps(text)
    );
}

#[test]
fn columns_chosen_with_just_are_read() {
    let r = read_instruction("I want one row per vendor ID from a.csv, with just the ID, the vendor name and the payment terms. Write it to b.csv.");
    assert_eq!(r.columns, ["ID", "vendor name", "payment terms"], "{:?}", r.steps);
}

#[test]
fn rows_left_out_in_a_clause_of_their_own_are_left_out() {
    let r = read_instruction(
        "経費精算.csv で部署ごとの経費合計出して、上位3部署だけちょうだい!! 差戻しと却下のやつは入れないで。列は部署と合計金額の2つ、多い順で → a.csv",
    );
    let left_out: Vec<Vec<(&str, String)>> =
        filters_read(&r).into_iter().filter(|(exclude, _)| *exclude).map(|(_, c)| c).collect();
    assert_eq!(left_out, [vec![("eq", "差戻し".to_owned()), ("eq", "却下".to_owned())]], "{:?}", r.steps);
}

#[test]
fn columns_chosen_with_their_new_names_and_the_month_it_is_now_are_read() {
    let r = read_instruction(
        "For the audit:\n- file: journal.csv\n- keep entries where debit is 5,000 or more\n- only 4 columns, renamed: entry_id as Entry, posting_date as Date, account_name as Account, debit as Amount\n- save as out.csv",
    );
    assert_eq!(r.columns, ["entry_id", "posting_date", "account_name", "debit"]);
    assert_eq!(r.renamed, ["Entry", "Date", "Account", "Amount"]);
    let r = read_instruction(
        "The auditors asked for the manual entries we posted last October (we're in November 2026 now, so October 2026). From gl.csv take the rows with Source = Manual and Posting Date in October. Save to b.csv.",
    );
    let conditions: Vec<(&str, String)> = filters_read(&r).into_iter().flat_map(|(_, c)| c).collect();
    assert!(
        !conditions.contains(&("between", "2026-11-01".to_owned())),
        "the month it is now keeps nothing: {conditions:?}"
    );
}

#[test]
fn each_key_once_as_a_single_column_is_that_column_without_duplicates() {
    let r = read_instruction(
        "Look at payroll.csv, Department = Engineering, and give me each Cost Center code once, sorted A to Z, as a single column in out.csv.",
    );
    assert_eq!(r.columns, ["cost center code"], "{:?}", r.steps);
    assert!(r
        .steps
        .iter()
        .any(|s| matches!(s, Step::Duplicates { by, remove: true, .. } if by == &["cost center code"])));
    assert!(r
        .steps
        .iter()
        .any(|s| matches!(s, Step::Sort { by: Some(b), descending: false, .. } if b == "cost center code")));
}

#[test]
fn a_total_named_after_its_word_and_a_count_said_after_it_are_one_grouping() {
    let r = read_instruction(
        "テスト実行結果.csv で、結果が「成功」の行だけを対象に、モジュールごとの平均実行時間（秒、小数第2位を四捨五入して小数第1位まで）と成功件数を出してください。列名は モジュール／平均実行時間秒／件数 でお願いします。→ a.xlsx",
    );
    let groupings: Vec<&Step> = r.steps.iter().filter(|s| matches!(s, Step::Aggregate { .. })).collect();
    let [Step::Aggregate { by, aggregations }] = groupings.as_slice() else { panic!("{:?}", r.steps) };
    assert_eq!(by, &["モジュール"]);
    let totals: Vec<(&str, Option<&str>)> = aggregations.iter().map(|a| (a.op, a.field.as_deref())).collect();
    assert_eq!(totals, [("avg", Some("実行時間")), ("count", None)]);
    assert!(!r.steps.iter().any(|s| matches!(s, Step::Compute { operation: "ratio", .. })), "names, not a ratio");
    // 「金額合計・平均金額」: the next total is not the first's column.
    let r = read_instruction("a.csv を勘定科目ごとに件数・金額合計・平均金額を出して b.csv に");
    assert!(
        r.steps.iter().all(|s| !matches!(s, Step::Aggregate { aggregations, .. }
            if aggregations.iter().any(|a| a.field.as_deref().is_some_and(|f| f.contains('・'))))),
        "{:?}",
        r.steps
    );
}

#[test]
fn the_last_row_for_each_key_in_the_file_is_kept_and_the_files_order_sorts_nothing() {
    let r = read_instruction(
        "addresses.csv gets a new row every time a customer moves, so some customer_ids are in there more than once. I only want the current address per customer, i.e. the LAST row for that customer_id in the file (rows are in the order the changes were made, so don't go by anything else). Save as current.csv",
    );
    assert!(
        matches!(&r.steps[..], [Step::Duplicates { by, remove: true, keep_last: true }] if by == &["customer_id"]),
        "{:?}",
        r.steps
    );
    // "the latest" goes by a date: not read as the file's last row.
    let r = read_instruction("Keep the latest row for each vendor from a.csv in b.csv");
    assert!(!r.steps.iter().any(|s| matches!(s, Step::Duplicates { keep_last: true, .. })), "{:?}", r.steps);
}

#[test]
fn the_first_row_of_each_key_said_over_two_clauses_and_columns_renamed_in_a_list_are_read() {
    let r = read_instruction(
        "取引先マスタ.csv ですが、同じ取引先コードが何行か重複しています。取引先コードごとに、ファイルの中で最初に出てくる行だけを残して、2回目以降の行は削除してください。a.csv として保存してください。",
    );
    assert!(
        matches!(&r.steps[..], [Step::Duplicates { by, remove: true, keep_last: false }] if by == &["取引先コード"]),
        "{:?}",
        r.steps
    );
    let r = read_instruction(
        "po.csv -> POs due in Q3 2026 (delivery_date Jul 1 - Sep 30, both ends in) with a po_total of 2,000 or more. cols: po_number, supplier, delivery_date renamed to Due, po_total renamed to Amount. -> b.csv",
    );
    assert_eq!(r.columns, ["po_number", "supplier", "delivery_date", "po_total"]);
    assert_eq!(r.renamed, ["po_number", "supplier", "Due", "Amount"]);
    let Some(Step::Filter { conditions, .. }) = r.steps.first() else { panic!("{:?}", r.steps) };
    let ranges = conditions.iter().filter(|c| c.operator == "between").count();
    assert_eq!(ranges, 1, "the quarter and its days are one range: {conditions:?}");
}

#[test]
fn a_file_said_last_with_its_particle_is_written_and_two_files_put_together_write_no_report() {
    let r = read_instruction(
        "東京と大阪の売上ファイル（uriage_tokyo.csv と uriage_osaka.csv、列は同じ）を1つにまとめて、11月分だけにしてもらえる？ 並びは日付順で。uriage_zensha.csv で！",
    );
    let sources: Vec<Option<&str>> = r.sources.iter().map(|s| s.path.as_deref()).collect();
    assert_eq!(sources, [Some("uriage_tokyo.csv"), Some("uriage_osaka.csv")]);
    let outputs: Vec<Option<&str>> = r.outputs.iter().map(|o| o.path.as_deref()).collect();
    assert_eq!(outputs, [Some("uriage_zensha.csv")]);
}

#[test]
fn states_said_not_to_in_brackets_are_left_out_and_new_states_are_read() {
    let r = read_instruction("Count the failed runs per month from runs.csv. Only rows with result Failed count (Passed and Skipped don't). Save b.csv");
    let values: Vec<(&str, String)> = filters_read(&r).into_iter().flat_map(|(_, c)| c).collect();
    assert!(
        values.contains(&("ne", "passed".to_owned())) && values.contains(&("ne", "skipped".to_owned())),
        "{values:?}"
    );
    let r = read_instruction("Stack a.csv and b.csv into one file. Drop the Skipped results and save it as c.csv.");
    assert_eq!(filters_read(&r), [(true, vec![("eq", "skipped".to_owned())])], "{:?}", r.steps);
    // "whether it passed": a verb, no state kept.
    let r = read_instruction("On https://shop.example.com check out one product. Just tell me whether it passed.");
    assert!(filters_read(&r).is_empty(), "{:?}", r.steps);
}

#[test]
fn a_column_named_like_a_web_word_is_a_sort_key_not_a_page() {
    let r = read_instruction(
        "Can you stack results_chrome.csv and results_firefox.csv into one file? Drop the Skipped results, sort by test_id and then browser, and save it as all.csv.",
    );
    assert!(!r.steps.iter().any(|s| matches!(s, Step::Browser { .. })), "{:?}", r.steps);
    assert!(
        r.steps.iter().any(|s| matches!(s, Step::Sort { by: Some(b), then, .. } if b == "test_id" && then == &[("browser".to_owned(), false)])),
        "{:?}",
        r.steps
    );
}

#[test]
fn days_between_two_dates_are_a_computed_column_not_a_count() {
    let r = read_instruction(
        "For each invoice in ar.csv, how many days did the customer take to pay? Add a Days to Pay column (Paid Date minus Invoice Date, in calendar days). Save it as days.xlsx.",
    );
    assert_eq!(ops(&r), ["compute"], "{:?}", r.steps);
    let Step::Compute { name, operation, of, .. } = &r.steps[0] else { panic!() };
    assert_eq!((name.as_str(), *operation), ("Days to Pay", "difference"));
    assert_eq!(of, &["paid date", "invoice date"]);
    let r = read_instruction("In paid.csv count the days from invoice_date to paid_date and save days.csv");
    let Step::Compute { operation, of, .. } = &r.steps[0] else { panic!("{:?}", r.steps) };
    assert_eq!((*operation, of.as_slice()), ("difference", &["paid_date".to_owned(), "invoice_date".to_owned()][..]));
    let r = read_instruction("請求.csv の請求日から入金日までの日数を出して 日数.csv に保存");
    let Step::Compute { name, operation, of, .. } = &r.steps[0] else { panic!("{:?}", r.steps) };
    assert_eq!((name.as_str(), *operation), ("日数", "difference"));
    assert_eq!(of, &["入金日", "請求日"]);
}

#[test]
fn a_formula_after_a_name_and_an_equals_sign_names_its_column() {
    let r = read_instruction(
        "In orders.csv add sales_tax = subtotal x 8.25%, plus total = subtotal + sales_tax. Save tax.csv",
    );
    let computed: Vec<(&str, &str, Vec<String>, Option<f64>)> = r
        .steps
        .iter()
        .filter_map(|s| match s {
            Step::Compute { name, operation, of, value } => Some((name.as_str(), *operation, of.clone(), *value)),
            _ => None,
        })
        .collect();
    assert_eq!(
        computed,
        [
            ("sales_tax", "product", vec!["subtotal".to_owned()], Some(0.0825)),
            ("total", "sum", vec!["subtotal".to_owned(), "sales_tax".to_owned()], None),
        ]
    );
    let r = read_instruction(
        "From budget.csv: variance = actual - budget, and variance_pct = variance / budget * 100. Save v.csv",
    );
    let names: Vec<(&str, &str, Option<f64>)> = r
        .steps
        .iter()
        .filter_map(|s| match s {
            Step::Compute { name, operation, value, .. } => Some((name.as_str(), *operation, *value)),
            _ => None,
        })
        .collect();
    assert_eq!(names, [("variance", "difference", None), ("variance_pct", "percent", None)]);
    let r = read_instruction("在庫一覧.csv に 不足数＝発注点−在庫数 の列を追加して 結果.csv に保存");
    let Step::Compute { name, of, .. } = &r.steps[0] else { panic!("{:?}", r.steps) };
    assert_eq!((name.as_str(), of.as_slice()), ("不足数", &["発注点".to_owned(), "在庫数".to_owned()][..]));
    let r = read_instruction("結果.csv に 合格率＝合格数÷実施数×100 を追加して 率.csv に保存");
    let Step::Compute { name, operation, of, value } = &r.steps[0] else { panic!("{:?}", r.steps) };
    assert_eq!((name.as_str(), *operation, *value), ("合格率", "percent", None));
    assert_eq!(of, &["合格数", "実施数"]);
}

#[test]
fn a_column_at_or_below_another_is_a_condition_on_both() {
    for (text, operator) in [
        ("在庫一覧.csv から在庫数が発注点以下の品目を抜き出して 要発注.csv に保存", "lte"),
        ("在庫一覧.csv から在庫数が発注点未満の品目だけ 要発注.csv に保存", "lt"),
        ("From stock.csv keep the items whose on_hand is at or below the reorder_point and save low.csv", "lte"),
        ("From stock.csv keep the items where on_hand is at least the reorder_point and save ok.csv", "gte"),
    ] {
        let r = read_instruction(text);
        let Some(Step::Filter { conditions, .. }) = r.steps.iter().find(|s| matches!(s, Step::Filter { .. })) else {
            panic!("{text}: {:?}", r.steps)
        };
        assert_eq!(conditions.len(), 1, "{text}: {conditions:?}");
        assert_eq!(conditions[0].operator, operator, "{text}");
        assert!(conditions[0].value.get("column").is_some(), "{text}: {conditions:?}");
    }
    let r = read_instruction("売上.csv から金額が百万円以下の行だけ 小口.csv に保存");
    let Step::Filter { conditions, .. } = &r.steps[0] else { panic!("{:?}", r.steps) };
    assert!(conditions.iter().all(|c| c.value.get("column").is_none()), "an amount is no column: {conditions:?}");
}

#[test]
fn a_sheet_in_brackets_after_its_workbook_is_the_sheet() {
    let r = read_instruction(
        "売上明細.csv に 商品マスタ.xlsx（シート「商品」）の商品名を商品コードで紐づけて 結果.csv に保存",
    );
    let sheets: Vec<Option<&str>> = r.sources.iter().map(|s| s.sheet.as_deref()).collect();
    assert!(sheets.contains(&Some("商品")), "{:?}", r.sources);
    let r = read_instruction(
        "From expenses.csv keep amounts of 100 or more. Columns in this order: line_id, employee, amount. Save out.csv",
    );
    assert_eq!(r.columns, ["line_id", "employee", "amount"]);
}

#[test]
fn one_row_per_key_chosen_by_a_date_keeps_the_newest() {
    let r = read_instruction(
        "顧客マスタ.csv に同じ顧客コードが何回も出てくるので整理したいです。顧客コードごとに更新日が一番新しい行を1行だけ残して、それより古い行は削除してください。顧客マスタ_整理済.xlsx に保存をお願いします。",
    );
    assert!(
        matches!(&r.steps[..], [Step::LatestPerKey { by, order_by, newest: true }] if by == &["顧客コード"] && order_by == "更新日"),
        "{:?}",
        r.steps
    );
    let r = read_instruction(
        "From test_runs.csv: for each test_id only its most recent run counts (go by run_at). Of those, list the ones whose result is FAIL. Output latest.csv",
    );
    assert_eq!(ops(&r), ["latest", "filter"], "{:?}", r.steps);
    let Step::LatestPerKey { by, order_by, newest } = &r.steps[0] else { panic!() };
    assert_eq!((by.as_slice(), order_by.as_str(), *newest), (&["test_id".to_owned()][..], "run_at", true));
}

#[test]
fn rows_taken_and_rows_left_out_in_one_sentence_are_two_filters_and_formulas_keep_no_rows() {
    let r = read_instruction(
        "In orders.csv take the rows with ship_state TX, excluding the Cancelled ones, and add sales_tax = subtotal x 8.25%, rounded to the nearest cent, plus total = subtotal + sales_tax. Output order_id, customer, subtotal, sales_tax, total to tx.csv.",
    );
    assert_eq!(ops(&r), ["filter", "filter", "compute", "compute", "compute"], "{:?}", r.steps);
    let Step::Filter { conditions, exclude: false } = &r.steps[0] else { panic!() };
    assert_eq!((conditions[0].field.as_deref(), &conditions[0].value), (Some("ship_state"), &json!("TX")));
    let Step::Filter { conditions, exclude: true } = &r.steps[1] else { panic!() };
    assert_eq!(conditions[0].value, json!("cancelled"));
    assert_eq!(r.columns, ["order_id", "customer", "subtotal", "sales_tax", "total"]);
}

#[test]
fn a_period_said_of_the_dates_and_again_of_a_column_is_one_condition_on_the_column() {
    let r = read_instruction(
        "Total what we paid each vendor on the invoices in ap.csv dated in October 2026 (invoice_date from Oct 1 to Oct 31, 2026, both days included). Save it as paid.csv",
    );
    let Some(Step::Filter { conditions, .. }) = r.steps.iter().find(|s| matches!(s, Step::Filter { .. })) else {
        panic!("{:?}", r.steps)
    };
    assert_eq!(conditions.len(), 1, "{conditions:?}");
    assert_eq!(conditions[0].field.as_deref(), Some("invoice_date"));
}

#[test]
fn the_files_and_columns_counted_in_words_are_no_figures_and_a_count_of_rows_is() {
    let counted = |text: &str| slots::number_words(text).iter().map(|n| n.value).collect::<Vec<_>>();
    assert!(counted("Two AP batch files came in (a.csv and b.csv)").is_empty());
    assert!(counted("Keep all five columns as they are").is_empty());
    assert_eq!(counted("vendors that appear twice in the list"), [2.0]);
    assert_eq!(counted("tests that failed three times"), [3.0]);
}

#[test]
fn columns_listed_with_an_aside_name_the_total_and_the_count_beside_the_grouping() {
    let r = read_instruction(
        "交通費精算.csv から、2026年7月1日〜2026年9月30日の分を月別に集計してください。列は 月（2026-07 のような年-月の形）、合計金額、件数 で、月の古い順にお願いします。ファイル名は 月別.csv です。",
    );
    assert_eq!(r.columns, ["月", "合計金額", "件数"]);
    let Some(Step::Aggregate { by, aggregations }) = r.steps.iter().find(|s| matches!(s, Step::Aggregate { .. }))
    else {
        panic!("{:?}", r.steps)
    };
    assert_eq!(by, &["月"]);
    let totals: Vec<(&str, Option<&str>)> = aggregations.iter().map(|a| (a.op, a.name.as_deref())).collect();
    assert_eq!(totals, [("sum", Some("合計金額")), ("count", Some("件数"))]);
}

#[test]
fn a_total_with_each_key_groups_and_a_value_said_with_only_keeps_it() {
    let r = read_instruction(
        "Need the total we spent with each vendor on Office Supplies only, from expenses.xlsx. Just vendor and total please, into out.csv.",
    );
    assert!(
        matches!(&r.steps[..], [Step::Filter { conditions, exclude: false }, Step::Aggregate { by, .. }]
            if conditions.len() == 1 && conditions[0].value == json!("Office Supplies") && by == &["vendor"]),
        "{:?}",
        r.steps
    );
    let r = read_instruction("Count the visits at each store in visits.csv, save out.csv");
    assert!(matches!(&r.steps[..], [Step::Aggregate { by, .. }] if by == &["store"]), "{:?}", r.steps);
    // A month said with "only" is its dates, not a value of some column.
    let r = read_instruction("Read sales.csv, keep sales for January only, save out.csv");
    let Some(Step::Filter { conditions, .. }) = r.steps.first() else { panic!("{:?}", r.steps) };
    assert_eq!(conditions.len(), 1, "{conditions:?}");
    assert_eq!(conditions[0].operator, MONTH_OF_UNSAID_YEAR);
}

#[test]
fn duplicates_got_rid_of_a_month_labelled_by_example_and_a_file_called_are_read_as_said() {
    // "get rid of the duplicates": the whole row is the key, not a column named "duplicate".
    let r = read_instruction(
        "vendor_list.csv has some rows in it twice. Get rid of the duplicates (keep one of each) and save clean.csv.",
    );
    assert!(matches!(&r.steps[..], [Step::Duplicates { by, remove: true, .. }] if by.is_empty()), "{:?}", r.steps);
    // "Label each month like 2026-01" says how the month is written: no model labels anything.
    let r = read_instruction("Please total up transactions.csv by month. Label each month like 2026-01, and write just the month and the total to monthly_totals.csv.");
    assert_eq!(ops(&r), ["compute", "aggregate"], "{:?}", r.steps);
    // "into a single file called all_sales.csv" writes it; "the … Amount columns" lists Amount.
    let r = read_instruction("Combine north.csv and south.csv into a single file called all_sales.csv. I only need the Date, Rep and Amount columns.");
    assert_eq!(r.sources.len(), 2, "{:?}", r.sources);
    assert_eq!(r.outputs.first().and_then(|o| o.path.as_deref()), Some("all_sales.csv"));
    assert_eq!(r.columns, ["Date", "Rep", "Amount"]);
}

#[test]
fn totals_listed_after_their_key_are_more_totals_of_the_same_grouping() {
    let r = read_instruction(
        "From vendor_invoices.csv, one row per supplier with: supplier, number of invoices, total amount, average invoice amount rounded to 2 decimals. -> spend.xlsx",
    );
    let groupings: Vec<&Step> = r.steps.iter().filter(|s| matches!(s, Step::Aggregate { .. })).collect();
    assert!(
        matches!(groupings[..], [Step::Aggregate { by, aggregations }] if by == &["supplier"] && aggregations.iter().any(|a| a.op == "avg")),
        "{:?}",
        r.steps
    );
}

#[test]
fn an_order_that_is_a_thing_sorts_nothing() {
    for text in [
        "Bring in product_name from products.csv (match on sku) for orders.csv. Keep the order columns as they are. Output: detail.xlsx",
        "Read orders.csv, keep each order's date and customer, save out.csv",
    ] {
        let r = read_instruction(text);
        assert!(!r.steps.iter().any(|s| matches!(s, Step::Sort { .. })), "{text}: {:?}", r.steps);
    }
    let r = read_instruction("Read a.csv, order by date, save b.csv");
    assert!(matches!(&r.steps[..], [Step::Sort { by: Some(by), .. }] if by == "date"), "{:?}", r.steps);
}

#[test]
fn the_latest_per_key_of_a_file_said_to_hold_repeats_keeps_no_state_and_lists_its_columns() {
    let r = read_instruction(
        "People re-register when they want to switch session, so registrations.csv has some people more than once. Keep only each email's latest registration (go by the submitted date and time, not by where the row sits in the file) and write final.csv with session, name, email, company and registration id, sorted by session and then by name.",
    );
    // "has some people more than once" says what the file holds; "the submitted date" is a
    // column of when, no state of the rows.
    assert!(
        matches!(&r.steps[..], [Step::LatestPerKey { by, .. }, Step::Sort { .. }] if by == &["email"]),
        "{:?}",
        r.steps
    );
    assert_eq!(r.columns, ["session", "name", "email", "company", "registration id"]);
}

#[test]
fn a_year_said_alone_keeps_its_days_and_dates_in_an_aside_beside_it_keep_none() {
    for text in [
        "Keep the payments in payments.csv dated in 2026 only (the export has a couple from Dec 2025 / Jan 2027) and save out.csv",
        "payments.csv から2026年中の支払だけ残して out.csv に保存",
        "payments.csv から2026年に支払ったものだけ残して out.csv に保存",
    ] {
        let r = read_instruction(text);
        let Some(Step::Filter { conditions, .. }) = r.steps.first() else { panic!("{text}: {:?}", r.steps) };
        assert_eq!(conditions.len(), 1, "{text}: {conditions:?}");
        assert_eq!((&conditions[0].value, &conditions[0].value2), (&json!("2026-01-01"), &Some(json!("2026-12-31"))), "{text}");
    }
    // A fiscal year, the year a document is for, a month of a year: not the calendar year.
    for text in
        ["Keep rows for FY2026 in a.csv, save b.csv", "2027年分の扶養控除等申告書がまだ出ていない人を 未提出.csv に"]
    {
        let r = read_instruction(text);
        let whole_year = r.steps.iter().any(|s| {
            matches!(s, Step::Filter { conditions, .. } if conditions.iter().any(|c| c.value2.as_ref().and_then(|v| v.as_str()).is_some_and(|v| v.ends_with("-12-31"))))
        });
        assert!(!whole_year, "{text}: {:?}", r.steps);
    }
    // Skipping a state said in an aside still leaves those rows out.
    let r = read_instruction("Keep the rows of a.csv dated in 2026 (skip Void), save b.csv");
    assert!(r.steps.iter().any(|s| matches!(s, Step::Filter { exclude: true, .. })), "{:?}", r.steps);
}

#[test]
fn a_number_taken_from_a_total_and_a_key_said_with_the_match_are_read() {
    let r = read_instruction(
        "Please total the hours per employee_id in timesheet.csv and keep the people with more than 40 hours. Look up their name in staff.csv and add overtime_hours = total minus 40. Output ot.csv",
    );
    let at = |f: fn(&Step) -> bool| r.steps.iter().position(f);
    let compute = at(
        |s| matches!(s, Step::Compute { name, operation: "sum", of, value: Some(v) } if name == "overtime_hours" && of == &["total"] && *v == -40.0),
    );
    let grouping = at(|s| matches!(s, Step::Aggregate { .. }));
    assert!(compute.is_some() && compute > grouping, "the total, after it is made: {:?}", r.steps);
    let r = read_instruction(
        "From payments.csv and w9.csv, the vendors with no W-9 on file (match on vendor id, the names differ) to missing.csv",
    );
    assert!(
        r.steps.iter().any(|s| matches!(s, Step::Join { key: Some(key), unmatched: true, .. } if key == "vendor id")),
        "{:?}",
        r.steps
    );
}

#[test]
fn an_average_said_as_a_total_over_a_count_averages_the_column() {
    let r = read_instruction(
        "受注実績.xlsx（シート「受注」）から、2026年7月〜9月の担当者別の平均受注額で上位3名を出してください。平均受注額＝受注金額の合計÷件数 で、円未満は四捨五入です。列は 担当者、件数、平均受注額 の3列、平均受注額の高い順で 上位3名.csv にお願いします。",
    );
    let Some(Step::Aggregate { aggregations, .. }) = r.steps.iter().find(|s| matches!(s, Step::Aggregate { .. }))
    else {
        panic!("{:?}", r.steps)
    };
    assert!(
        aggregations.iter().any(|a| a.op == "avg"
            && a.field.as_deref() == Some("受注金額")
            && a.name.as_deref() == Some("平均受注額")),
        "{aggregations:?}"
    );
    assert!(!r.steps.iter().any(|s| matches!(s, Step::Compute { operation: "ratio", .. })), "{:?}", r.steps);
}

#[test]
fn rows_said_to_tie_name_the_next_sort_key_and_keep_every_row() {
    for text in [
        "Read p.xlsx. Largest monthly amount first; where two are equal, order them by prepaid ID. Save out.csv",
        "Read p.xlsx. Sort by monthly amount, largest first; if two share an amount, by prepaid ID. Save out.csv",
    ] {
        let r = read_instruction(text);
        assert!(!r.steps.iter().any(|s| matches!(s, Step::Filter { .. })), "{text}: {:?}", r.steps);
        assert!(
            matches!(&r.steps[..], [Step::Sort { by: Some(by), then, descending: true, .. }] if by == "monthly amount" && then == &[("prepaid id".to_owned(), false)]),
            "{text}: {:?}",
            r.steps
        );
    }
}

#[test]
fn a_tie_said_as_the_same_value_is_a_further_sort_key_and_throwing_out_leaves_rows_out() {
    let r = read_instruction(
        "Put a.csv and b.csv together into one list, throw out the Void lines, and sort by invoice_date, earliest first; when the date is the same, order by invoice_no. Save as all.xlsx",
    );
    let sorts: Vec<&Step> = r.steps.iter().filter(|s| matches!(s, Step::Sort { .. })).collect();
    assert!(
        matches!(sorts[..], [Step::Sort { by: Some(by), then, .. }] if by == "invoice_date" && then == &[("invoice_no".to_owned(), false)]),
        "{:?}",
        r.steps
    );
    assert!(r.steps.iter().any(|s| matches!(s, Step::Filter { exclude: true, conditions } if conditions.iter().any(|c| c.value == json!("void")))), "{:?}", r.steps);
    let r = read_instruction(
        "大阪.csv と 名古屋.csv を縦に1つにまとめて、日付の古い順、同じ日付なら伝票番号の昇順で並べて 結果.csv に保存",
    );
    let sorts: Vec<&Step> = r.steps.iter().filter(|s| matches!(s, Step::Sort { .. })).collect();
    assert!(
        matches!(sorts[..], [Step::Sort { by: Some(by), then, .. }] if by == "日付" && then == &[("伝票番号".to_owned(), false)]),
        "{:?}",
        r.steps
    );
}

#[test]
fn the_keys_with_the_most_rows_are_counted_and_a_word_defined_by_values_keeps_them() {
    let r = read_instruction(
        "bugs.xlsx (sheet Bugs - the first row is just the export title, the headers are on row 2). Which 3 components have the most bugs still open? Count as open: status Open, In Progress or Reopened (Closed and Won't Fix are done). top3.csv",
    );
    assert_eq!(ops(&r), ["filter", "aggregate", "sort"], "{:?}", r.steps);
    let Step::Filter { conditions, exclude: false } = &r.steps[0] else { panic!() };
    let values: Vec<(&str, &Value)> =
        conditions.iter().map(|c| (c.field.as_deref().unwrap_or_default(), &c.value)).collect();
    assert_eq!(values, [("status", &json!("Open")), ("status", &json!("In Progress")), ("status", &json!("Reopened"))]);
    let Step::Aggregate { by, aggregations } = &r.steps[1] else { panic!() };
    assert_eq!((by.as_slice(), aggregations[0].op), (&["component".to_owned()][..], "count"));
    assert!(matches!(&r.steps[2], Step::Sort { by: Some(by), descending: true, limit: Some(3), .. } if by == "count"));
    let r = read_instruction(
        "From a.csv, (sheet Bugs - the first row is a title). Paid Date - Invoice Date as days. Save b.csv",
    );
    let computed: Vec<&Vec<String>> = r
        .steps
        .iter()
        .filter_map(|s| match s {
            Step::Compute { of, .. } => Some(of),
            _ => None,
        })
        .collect();
    assert_eq!(
        computed,
        [&vec!["paid date".to_owned(), "invoice date".to_owned()]],
        "a dash before a sentence is no minus"
    );
}

#[test]
fn a_state_and_a_week_said_of_the_rows_counted_keep_them_and_a_word_in_a_column_is_contained() {
    let r = read_instruction(
        "from test_runs.csv, how many Failed runs per module in the week Mon 2026-03-09 to Sun 2026-03-15 (both days included)? columns module, failed_runs -> weekly.csv",
    );
    let Some(Step::Filter { conditions, exclude: false }) =
        r.steps.iter().find(|s| matches!(s, Step::Filter { conditions, .. } if !conditions.is_empty()))
    else {
        panic!("{:?}", r.steps)
    };
    assert!(
        conditions.iter().any(|c| c.operator == "between"
            && c.value == json!("2026-03-09")
            && c.value2 == Some(json!("2026-03-15"))),
        "{conditions:?}"
    );
    assert!(conditions.iter().any(|c| c.value == json!("failed")), "{conditions:?}");
    let r = read_instruction("売上明細.xlsx の取引先ごとの売上金額の合計を出してください。取引先名に「テスト」が入っているものは除外でお願いします。結果.csv に保存");
    assert!(r.steps.iter().any(|s| matches!(s, Step::Filter { conditions, exclude: true } if conditions.iter().any(|c| c.operator == "contains" && c.value == json!("テスト")))), "{:?}", r.steps);
}

#[test]
fn rows_whose_key_is_not_anywhere_in_the_other_file_are_the_unmatched_and_what_is_ignored_keeps_all() {
    let r = read_instruction(
        "reconciling november. which lines in bank_nov.csv have a reference that isn't anywhere in ledger_nov.csv (there's a reference column in both)? just compare the reference codes exactly, ignore amounts and dates. give me date, reference, amount, description for those -> unmatched.csv",
    );
    assert!(
        r.steps.iter().any(|s| matches!(s, Step::Join { key: Some(key), unmatched: true, .. } if key == "reference")),
        "{:?}",
        r.steps
    );
    assert!(!r.steps.iter().any(|s| matches!(s, Step::Filter { .. })), "{:?}", r.steps);
}

#[test]
fn a_row_with_another_of_the_same_values_is_a_duplicate_and_all_of_each_group_are_listed() {
    let r = read_instruction(
        "expense_claims.csv - I think a few people submitted the same receipt twice. Flag every claim where the same employee has another claim with the same expense_date and the same amount (to the cent). I want all the rows in each such group, not just the extra copies, with all the columns as they are. Save to possible_duplicates.csv",
    );
    assert!(
        matches!(&r.steps[..], [Step::Duplicates { by, remove: false, .. }] if by == &["employee", "expense_date", "amount"]),
        "{:?} {:?}",
        r.steps,
        r.unplaced
    );
    assert!(r.unplaced.is_empty(), "{:?}", r.unplaced);
}

#[test]
fn a_value_also_used_by_another_row_is_a_duplicate_of_its_column() {
    let r = read_instruction(
        "Fraud screen on vendor_master.csv: I want every vendor record whose Account Number is also used by at least one other vendor record. Include all the records in each group (not only the later ones) with all columns. Save shared.csv",
    );
    assert!(
        matches!(&r.steps[..], [Step::Duplicates { by, remove: false, .. }] if by == &["account number"]),
        "{:?} {:?}",
        r.steps,
        r.unplaced
    );
}

#[test]
fn a_column_said_to_be_blank_is_a_condition_on_its_empty_cells() {
    for (text, field) in [
        ("From budget.csv: a couple of accounts don't have an actual posted yet (the cell is blank) - leave those out entirely. Save b.csv", "actual"),
        ("In paid.csv skip the ones with no paid_date yet and save p.csv", "paid_date"),
        ("在庫一覧.csv を読んでください。発注点が空欄の品目は廃番なので対象外です。要発注.csv に保存", "発注点"),
    ] {
        let r = read_instruction(text);
        let Some(Step::Filter { conditions, exclude: true }) = r.steps.iter().find(|s| matches!(s, Step::Filter { .. })) else {
            panic!("{text}: {:?}", r.steps)
        };
        assert!(conditions.iter().any(|c| c.field.as_deref() == Some(field) && c.value == json!("")), "{text}: {conditions:?}");
    }
}

#[test]
fn a_label_said_after_its_column_compares_two_columns() {
    let r = read_instruction(
        "From budget.csv add a flag column: \"Over\" if actual is greater than budget, otherwise \"OK\". Save b.csv",
    );
    let Some(Step::Label { name, cases, otherwise }) = r.steps.iter().find(|s| matches!(s, Step::Label { .. })) else {
        panic!("{:?}", r.steps)
    };
    assert_eq!((name.as_str(), otherwise.as_deref()), ("flag", Some("OK")));
    assert_eq!(cases[0].1, "Over");
    assert!(cases[0].0.iter().any(|c| c.operator == "gt" && c.value == json!({"column": "budget"})), "{cases:?}");
    assert!(!r.steps.iter().any(|s| matches!(s, Step::Filter { .. })), "{:?}", r.steps);
}

#[test]
fn an_order_denied_in_an_aside_sorts_nothing() {
    let r =
        read_instruction("From runs.csv keep the FAIL rows (the runners don't hand out ids in time order). Save f.csv");
    assert!(!r.steps.iter().any(|s| matches!(s, Step::Sort { .. })), "{:?}", r.steps);
}

#[test]
fn a_bare_then_with_its_order_is_a_further_sort_key() {
    let r = read_instruction("From runs.csv keep the FAIL rows. Sort by suite A-Z, then test_id A-Z. Output f.csv");
    let sorts: Vec<&Step> = r.steps.iter().filter(|s| matches!(s, Step::Sort { .. })).collect();
    assert!(
        matches!(sorts[..], [Step::Sort { by: Some(by), descending: false, then, .. }] if by == "suite" && then == &[("test_id".to_owned(), false)]),
        "{:?}",
        r.steps
    );
    let r = read_instruction("From runs.csv keep the FAIL rows, then save f.csv");
    assert!(!r.steps.iter().any(|s| matches!(s, Step::Sort { .. })), "{:?}", r.steps);
}

#[test]
fn what_was_paid_each_vendor_is_totalled_per_vendor_and_states_left_out_after_so_are_their_own_filter() {
    let r = read_instruction(
        "Could you total up what we actually paid each vendor on the invoices in ap.csv dated in October 2026? Only status Paid counts, so Unpaid and Void stay out. Save it as paid.csv",
    );
    let Some(Step::Aggregate { by, aggregations }) = r.steps.iter().find(|s| matches!(s, Step::Aggregate { .. }))
    else {
        panic!("{:?}", r.steps)
    };
    assert_eq!((by.as_slice(), aggregations[0].op, &aggregations[0].field), (&["vendor".to_owned()][..], "sum", &None));
    let kept = |exclude: bool| {
        r.steps.iter().any(|s| matches!(s, Step::Filter { conditions, exclude: e } if *e == exclude && conditions.iter().any(|c| c.value == json!("paid"))))
    };
    assert!(kept(false) && !kept(true), "{:?}", r.steps);
}

#[test]
fn a_rounding_said_after_a_formula_rounds_the_column_it_names() {
    let r = read_instruction(
        "部門別売上_上期.csv に2列足してください。達成率＝実績÷目標×100（小数第1位まで、第2位を四捨五入）、差額＝実績−目標。元の列はそのまま残して、売上達成率.xlsx で。",
    );
    let computed = computed(&r);
    assert_eq!(computed, [("達成率", "percent"), ("達成率", "round"), ("差額", "difference")], "{:?}", r.steps);
}

#[test]
fn columns_chosen_that_name_their_totals_are_those_totals() {
    let r = read_instruction(
        "経費明細_11月.xlsx を部門別に集計してほしいです。列は 部門、件数、合計金額、平均金額 の4つで、平均金額は円未満を四捨五入でお願いします。保存先は 部門別.csv です。",
    );
    let Some(Step::Aggregate { by, aggregations }) = r.steps.iter().find(|s| matches!(s, Step::Aggregate { .. }))
    else {
        panic!("{:?}", r.steps)
    };
    assert_eq!(by, &["部門"]);
    let mut totals: Vec<(&str, Option<&str>)> = aggregations.iter().map(|a| (a.op, a.name.as_deref())).collect();
    totals.sort();
    assert_eq!(
        totals,
        [("avg", Some("平均金額")), ("count", Some("件数")), ("sum", Some("合計金額"))],
        "{:?}",
        r.steps
    );
}

#[test]
fn a_label_case_tests_all_its_subject_names() {
    let r = read_instruction(
        "For each invoice in ar.csv add a Days to Pay column (Paid Date minus Invoice Date) and a Payment column that says Late when Days to Pay is more than 30 and On time otherwise. Save it as d.xlsx.",
    );
    let Some(Step::Label { cases, .. }) = r.steps.iter().find(|s| matches!(s, Step::Label { .. })) else {
        panic!("{:?}", r.steps)
    };
    assert_eq!(cases[0].0[0].field.as_deref(), Some("Days to Pay"), "{cases:?}");
}

#[test]
fn a_name_said_before_a_formula_in_brackets_is_its_column_whatever_follows() {
    let r = read_instruction(
        "For each invoice in ar.csv, how many days did the customer take to pay? Add a Days to Pay column (Paid Date minus Invoice Date, in calendar days) and a Payment column that says Late when Days to Pay is more than 30 and On time otherwise. Save it as d.xlsx.",
    );
    assert!(
        r.steps
            .iter()
            .any(|s| matches!(s, Step::Compute { name, operation: "difference", .. } if name == "Days to Pay")),
        "{:?}",
        r.steps
    );
}

#[test]
fn a_rank_column_chosen_ranks_the_rows_by_their_order() {
    let computed = |text: &str| {
        let r = read_instruction(text);
        let sort = r.steps.iter().position(|s| matches!(s, Step::Sort { by: Some(_), .. }));
        let rank = r.steps.iter().position(|s| matches!(s, Step::Compute { operation: "rank" | "rank_ascending", .. }));
        assert!(sort.is_some() && rank > sort, "the rank is computed after the order: {:?}", r.steps);
        match &r.steps[rank.unwrap()] {
            Step::Compute { name, operation, of, .. } => (name.clone(), *operation, of.clone()),
            _ => unreachable!(),
        }
    };
    assert_eq!(
        computed("受注明細.csv の受注を得意先ごとに合計して、合計の大きい順に上位5社を出してください。列は 順位（1〜5）、得意先、受注合計 で 上位5社.csv に。"),
        ("順位".to_owned(), "rank", vec!["受注合計".to_owned()])
    );
    assert_eq!(
        computed("From orders.csv, total amount per customer, top 5 by total. Columns: rank, customer, total. Save as top5.csv"),
        ("rank".to_owned(), "rank", vec!["total".to_owned()])
    );
    assert_eq!(
        computed("From runs.csv, average duration_sec per suite, smallest average first. Columns rank, suite, avg_duration. Save as fastest.csv"),
        ("rank".to_owned(), "rank_ascending", vec!["average".to_owned()])
    );
    let r =
        read_instruction("From staff.csv keep the rows where rank is Senior. Columns name, rank. Save as senior.csv");
    assert!(
        !r.steps.iter().any(|s| matches!(s, Step::Compute { .. })),
        "a rank with no order is the data's: {:?}",
        r.steps
    );
}

#[test]
fn a_grouping_said_as_a_compound_noun_groups_by_the_noun_before_betsu() {
    let grouped =
        |text: &str| match read_instruction(text).steps.into_iter().find(|s| matches!(s, Step::Aggregate { .. })) {
            Some(Step::Aggregate { by, aggregations }) => {
                (by, aggregations.into_iter().map(|a| a.op).collect::<Vec<_>>())
            }
            other => panic!("{other:?}"),
        };
    assert_eq!(grouped("売上.csv の得意先別売上合計を結果.csv に出力。"), (vec!["得意先".to_owned()], vec!["sum"]));
    assert_eq!(grouped("経費.csv の部門別平均金額を出して、結果.csv に保存。"), (vec!["部門".to_owned()], vec!["avg"]));
    let r =
        read_instruction("請求.csv で請求番号が同じ行を全部出してください。取引先が違えば別物扱いです。重複.csv に。");
    assert!(!r.steps.iter().any(|s| matches!(s, Step::Aggregate { .. })), "別物 groups nothing: {:?}", r.steps);
}

#[test]
fn a_condition_naming_its_column_keeps_rows_in_a_clause_that_totals_and_writes() {
    for text in [
        "売上.csv から、受注日が2026年4月1日〜2026年9月30日の行を得意先ごとに合計して結果.csv に出力。",
        "売上.csv から、2026年4月1日〜2026年9月30日の受注を得意先ごとに合計して結果.csv に出力。",
    ] {
        let r = read_instruction(text);
        let kept = r.steps.iter().position(|s| matches!(s, Step::Filter { conditions, exclude: false }
            if conditions.iter().any(|c| c.operator == "between" && c.value == json!("2026-04-01") && c.value2 == Some(json!("2026-09-30")))));
        let totals = r.steps.iter().position(|s| matches!(s, Step::Aggregate { by, .. } if by == &["得意先"]));
        assert!(kept.is_some() && totals > kept, "{text}: {:?}", r.steps);
    }
    let r = read_instruction("受注明細.csv から受注日が2026年4月1日〜2026年9月30日の行を抽出して結果.csv に出力。");
    assert!(
        r.steps
            .iter()
            .any(|s| matches!(s, Step::Filter { conditions, .. } if conditions[0].field.as_deref() == Some("受注日"))),
        "the particle after the file is not the column's: {:?}",
        r.steps
    );
}

#[test]
fn a_sort_key_ordered_by_its_values_as_listed() {
    let orders = |text: &str| read_instruction(text).value_orders;
    let severity =
        |column: &str, values: &[&str]| vec![(column.to_owned(), values.iter().map(|v| v.to_string()).collect())];
    assert_eq!(
        orders("結果.csv で結果が「NG」のものだけ抜き出して、重要度は 高→中→低 の順、同じ重要度の中はテストID順に並べて NG.xlsx で保存。"),
        severity("重要度", &["高", "中", "低"])
    );
    assert_eq!(
        orders("不具合.csv を重要度を「致命的」「重大」「軽微」の順に並べて 一覧.csv に出力。"),
        severity("重要度", &["致命的", "重大", "軽微"])
    );
    assert_eq!(
        orders("bugs.csv: open bugs only, sorted by severity High > Medium > Low, then by id. Save as open.csv"),
        severity("severity", &["High", "Medium", "Low"])
    );
    assert_eq!(
        orders("tickets.csv sorted by status in the order Open, Pending, Closed. Save as t.csv"),
        severity("status", &["Open", "Pending", "Closed"])
    );
    for said in [
        "ar_open.csv -> status Open invoices -> overdue.csv",
        "customer_addresses.csv: the LAST row per customer_id (rows are in the order the changes were made, so don't go by anything else). Save as current.csv",
        "売上.csv の列は 日付、取引先、金額 の順にして 結果.csv に保存。",
    ] {
        assert_eq!(orders(said), [], "{said}");
    }
    let r = read_instruction("bugs.csv: list the open bugs, severity High > Medium > Low. Save as open.csv");
    assert!(
        r.steps.iter().any(|s| matches!(s, Step::Sort { by: Some(b), .. } if b == "severity")),
        "an order of values said alone is the sort: {:?}",
        r.steps
    );
    let r = read_instruction("bugs.csv: sort by id, severity High > Medium > Low. Save as open.csv");
    assert!(
        r.value_orders.is_empty() && r.unplaced.iter().any(|u| u.contains("High > Medium")),
        "an order of values beside a sort by another column is asked about: {:?} {:?}",
        r.steps,
        r.unplaced
    );
}

#[test]
fn a_count_named_with_its_conditions_counts_only_those_rows_of_each_group() {
    let counts =
        |text: &str| match read_instruction(text).steps.into_iter().find(|s| matches!(s, Step::Aggregate { .. })) {
            Some(Step::Aggregate { by, aggregations }) => (
                by,
                aggregations
                    .into_iter()
                    .map(|a| {
                        (
                            a.name.unwrap_or_default(),
                            a.when.into_iter().map(|c| (c.field.unwrap_or_default(), c.value)).collect::<Vec<_>>(),
                        )
                    })
                    .collect::<Vec<_>>(),
            ),
            other => panic!("{other:?}"),
        };
    assert_eq!(
        counts("不具合報告.csv の不具合を月ごとに数えてください。列は 月、件数、重要度高（重要度が「高」の件数。1件もない月は0）の3つで 月別.csv へ出力。"),
        (
            vec!["月".to_owned()],
            vec![("件数".to_owned(), vec![]), ("重要度高".to_owned(), vec![("重要度".to_owned(), json!("高"))])]
        )
    );
    assert_eq!(
        counts("From runs.csv, per suite give runs (the number of runs) and failed (the number of runs with outcome failed). Columns suite, runs, failed. Save as suites.csv"),
        (
            vec!["suite".to_owned()],
            vec![("runs".to_owned(), vec![]), ("failed".to_owned(), vec![("outcome".to_owned(), json!("failed"))])]
        )
    );
    let r = read_instruction("From runs.csv, per suite give runs (the number of runs) and failed (the number of runs with outcome failed). Columns suite, runs, failed. Save as suites.csv");
    assert!(
        !r.steps.iter().any(|s| matches!(s, Step::Filter { .. })),
        "the rows counted by a condition stay: {:?}",
        r.steps
    );
}

#[test]
fn the_days_of_one_month_said_as_a_range_keep_those_dates() {
    for text in [
        "Add VAT to the November invoices in sales.csv (invoice_date 1-30 Nov 2026 only). Save as vat.csv",
        "Add VAT to the invoices in sales.csv with invoice_date Nov 1-30, 2026. Save as vat.csv",
    ] {
        let r = read_instruction(text);
        assert!(
            r.steps.iter().any(
                |s| matches!(s, Step::Filter { conditions, .. } if conditions.iter().any(|c| c.operator == "between"
                && c.value == json!("2026-11-01") && c.value2 == Some(json!("2026-11-30"))))
            ),
            "{text}: {:?}",
            r.steps
        );
    }
}

#[test]
fn a_product_divided_by_a_number_is_times_its_inverse_and_a_dash_in_prose_is_no_minus() {
    let r = read_instruction("sales.csv: vat_amount = net_amount x vat_rate / 100. Save as vat.csv");
    assert!(
        r.steps.iter().any(|s| matches!(s, Step::Compute { name, operation: "product", of, value: Some(v) }
            if name == "vat_amount" && of == &["net_amount", "vat_rate"] && (*v - 0.01).abs() < 1e-12)),
        "{:?}",
        r.steps
    );
    let r = read_instruction("vendor_bank_updates.csv is a log of bank detail changes - several rows per vendor. Keep the latest row per vendor_id. Save as current.csv");
    assert!(!r.steps.iter().any(|s| matches!(s, Step::Compute { operation: "difference", .. })), "{:?}", r.steps);
}

#[test]
fn the_row_with_the_latest_date_of_each_key_said_either_way_round() {
    for text in [
        "vendor_bank_updates.csv: for each vendor_id keep the one row with the latest updated_at and drop the older ones. Save as current.xlsx",
        "vendor_bank_updates.csv: keep the row with the latest updated_at for each vendor_id. Save as current.xlsx",
    ] {
        let r = read_instruction(text);
        assert!(
            r.steps.iter().any(|s| matches!(s, Step::LatestPerKey { by, order_by, newest: true } if by == &["vendor_id"] && order_by == "updated_at")),
            "{text}: {:?}",
            r.steps
        );
    }
}

#[test]
fn days_to_a_date_said_and_days_counting_both_ends_are_computed_and_keep_no_rows() {
    let r = read_instruction(
        "バグ管理.xlsx（シート「課題」、見出しは2行目です）のうち、状態が「完了」「却下」以外のものについて、起票日から2026年11月30日までの経過日数を出してください。経過日数が30日以上のものだけ残して、列は 課題番号、起票日、経過日数 です。経過日数の長い順で 長期.csv に出力。",
    );
    let days = r.steps.iter().position(|s| matches!(s, Step::DaysUntil { name, from, until } if name == "経過日数" && from == "起票日" && until == "2026-11-30"));
    let kept = r.steps.iter().position(|s| matches!(s, Step::Filter { conditions, .. } if conditions.iter().any(|c| c.field.as_deref() == Some("経過日数"))));
    assert!(days.is_some() && kept > days, "{:?}", r.steps);
    let left_out: Vec<(&str, &str)> = r
        .steps
        .iter()
        .flat_map(|s| match s {
            Step::Filter { conditions, exclude: false } => {
                conditions.iter().filter_map(|c| Some((c.operator, c.value.as_str()?))).collect()
            }
            _ => Vec::new(),
        })
        .filter(|(_, v)| !v.is_empty())
        .collect();
    assert!(
        left_out.contains(&("ne", "完了")) && left_out.contains(&("ne", "却下")),
        "以外 leaves each out: {left_out:?}"
    );
    assert!(!r.steps.iter().any(|s| matches!(s, Step::Filter { conditions, .. } if conditions.iter().any(|c| c.value == json!("2026-11-30")))), "the day counted to keeps no rows: {:?}", r.steps);
    assert_eq!(r.columns, ["課題番号", "起票日", "経過日数"], "a list of columns ends at です");
    assert!(
        r.steps.iter().any(|s| matches!(s, Step::Sort { by: Some(b), descending: true, .. } if b == "経過日数")),
        "長い順: {:?}",
        r.steps
    );
    let r = read_instruction(
        "出張申請.csv の日数は出発日から帰着日まで両端を含めた日数（日帰りなら1）です。一覧.csv に出力。",
    );
    assert!(
        r.steps.iter().any(|s| matches!(s, Step::Compute { name, operation: "days_inclusive", of, .. } if name == "日数" && of == &["出発日", "帰着日"])),
        "{:?}",
        r.steps
    );
}

#[test]
fn a_top_n_by_a_column_groups_nothing() {
    let r = read_instruction("From sales.csv, total amount per customer, top 2 by total. Save as top.csv");
    let groupings: Vec<&Vec<String>> = r
        .steps
        .iter()
        .filter_map(|s| match s {
            Step::Aggregate { by, .. } => Some(by),
            _ => None,
        })
        .collect();
    assert_eq!(groupings, [&vec!["customer".to_owned()]], "{:?}", r.steps);
}

#[test]
fn an_amount_with_thousands_and_cents_is_one_number_and_an_aside_names_no_column() {
    let said: Vec<f64> = super::slots::numbers("Wire payments of 10,000.00 or more").iter().map(|n| n.value).collect();
    assert_eq!(said, [10000.0]);
    let conditions = super::conditions::english("the Wire payments (method = Wire) of 10,000.00 or more");
    assert!(
        conditions.iter().any(|c| c.field.is_none() && c.operator == "gte" && c.value == json!(10000)),
        "{conditions:?}"
    );
}

#[test]
fn cases_never_run_are_the_plan_s_rows_whose_key_does_not_show_up_in_the_other_file() {
    let r = read_instruction(
        "Before we sign off release 4.2 I'd like to know which planned test cases were never executed. test_plan.csv is \
         the plan and executions.csv has every execution so far. A case counts as run if its case_id shows up in \
         executions.csv at least once, whatever the result (BLOCKED and FAIL count as run). For the cases that were not \
         run, list case_id, title and owner, sorted by owner A-Z, then by case_id. Output: not_run.csv",
    );
    assert!(
        !r.steps.iter().any(|s| matches!(s, Step::Confirm)),
        "when the work is for asks no approval: {:?}",
        r.steps
    );
    assert!(
        r.steps.iter().any(|s| matches!(s, Step::Join { key: Some(k), unmatched: true, .. } if k == "case_id")),
        "{:?}",
        r.steps
    );
    let read: Vec<Option<&str>> = r.sources.iter().map(|s| s.path.as_deref()).collect();
    assert_eq!(read, [Some("test_plan.csv"), Some("executions.csv")], "a file said twice is read once");
    assert_eq!(r.columns, ["case_id", "title", "owner"]);
    assert!(
        !r.mentioned_words.iter().any(|w| w == "BLOCKED"),
        "values said to count are no condition: {:?}",
        r.mentioned_words
    );
}

#[test]
fn a_key_said_to_appear_in_another_file_s_column_is_that_side_s_key() {
    let r = read_instruction(
        "List the receipts in po_receipts.csv that haven't been invoiced yet: a receipt counts as invoiced if its \
         po_number appears in the po_ref column of ap_invoices.csv. Save as grni.csv",
    );
    let Some(Step::Join { key, unmatched: true, side_keys, .. }) =
        r.steps.iter().find(|s| matches!(s, Step::Join { .. }))
    else {
        panic!("{:?}", r.steps)
    };
    assert_eq!(key.as_deref(), Some("po_number"));
    assert_eq!(side_keys, &[("ap_invoices.csv".to_owned(), "po_ref".to_owned())]);
}

#[test]
fn blank_cells_given_a_value_are_filled_not_kept() {
    let r = read_instruction(
        "release.xlsx, sheet v5.0. need every item that isn't Done yet. where owner is blank write Unassigned. -> open.csv",
    );
    assert!(
        r.steps
            .iter()
            .any(|s| matches!(s, Step::FillBlanks { column, value } if column == "owner" && value == "Unassigned")),
        "{:?}",
        r.steps
    );
    let conditions = filter_conditions(&r);
    assert!(
        !conditions.iter().any(|c| c.value == json!("")),
        "a blank owner is filled, no row kept by it: {conditions:?}"
    );
    let done = |c: &&Condition| c.value.as_str().is_some_and(|v| v.eq_ignore_ascii_case("done"));
    assert!(conditions.iter().any(|c| c.operator == "ne" && done(c)), "{conditions:?}");
    assert_eq!(r.sources[0].sheet.as_deref(), Some("v5.0"), "a sheet's name may hold a dot");
    let r = read_instruction(
        "不具合管理.csvから、重要度が「高」の不具合を起票日の古い順に5件出してください。列は不具合ID、件名、担当者。担当者が空欄のものは「未割当」と入れておいてください。→ 要対応.csv",
    );
    assert!(
        r.steps
            .iter()
            .any(|s| matches!(s, Step::FillBlanks { column, value } if column == "担当者" && value == "未割当")),
        "{:?}",
        r.steps
    );
    assert_eq!(r.columns, ["不具合ID", "件名", "担当者"], "a sentence listing the columns ends at its full stop");
    assert!(
        r.steps.iter().any(|s| matches!(s, Step::Filter { conditions, .. } if conditions.len() == 1 && conditions[0].value == json!("高"))),
        "the rows kept are read from the sentence before the columns: {:?}",
        r.steps
    );
}

#[test]
fn states_said_to_count_keep_no_rows() {
    let r = read_instruction(
        "A case counts as run if its case_id shows up in executions.csv at least once (BLOCKED and FAIL count as run). List the cases of plan.csv that were not run to not_run.csv",
    );
    let blocked = r.steps.iter().any(|s| {
        matches!(s, Step::Filter { conditions, .. } if conditions.iter().any(|c| c.value.as_str().is_some_and(|v| v.eq_ignore_ascii_case("blocked"))))
    });
    assert!(!blocked, "{:?}", r.steps);
}

#[test]
fn a_formula_with_a_bracket_is_two_steps_into_its_column() {
    let computed = |r: &Reading| -> Vec<(String, &'static str, Vec<String>, Option<f64>)> {
        r.steps
            .iter()
            .filter_map(|s| match s {
                Step::Compute { name, operation, of, value } => Some((name.clone(), *operation, of.clone(), *value)),
                _ => None,
            })
            .collect()
    };
    let r = read_instruction(
        "Stack a.csv and b.csv, and add annual_depreciation = (cost - salvage_value) / useful_life_years. Save to out.xlsx",
    );
    let name = "annual_depreciation".to_owned();
    assert_eq!(
        computed(&r),
        [
            (name.clone(), "difference", vec!["cost".to_owned(), "salvage_value".to_owned()], None),
            (name.clone(), "ratio", vec![name.clone(), "useful_life_years".to_owned()], None),
        ]
    );
    let r = read_instruction("台帳.csvに、年間償却額＝（取得価額−残存価額）÷耐用年数 を追加して 結果.csv に出力");
    let name = "年間償却額".to_owned();
    assert_eq!(
        computed(&r),
        [
            (name.clone(), "difference", vec!["取得価額".to_owned(), "残存価額".to_owned()], None),
            (name.clone(), "ratio", vec![name.clone(), "耐用年数".to_owned()], None),
        ]
    );
}

#[test]
fn japanese_text_reads_the_same_with_spaces_around_ascii_words_and_a_tie_has_its_key() {
    let r = read_instruction(
        "test_results.csv で、result が FAIL のものを module ごとに数えて、件数の多い順、同数ならモジュール名のアルファベット順で out.csv へ。",
    );
    let grouped = r.steps.iter().any(|s| matches!(s, Step::Aggregate { by, .. } if by == &["module".to_owned()]));
    assert!(grouped, "{:?}", r.steps);
    let kept = r.steps.iter().any(|s| {
        matches!(s, Step::Filter { conditions, .. } if conditions.iter().any(|c| c.field.as_deref() == Some("result") && c.value == json!("FAIL")))
    });
    assert!(kept, "{:?}", r.steps);
    let tie =
        r.steps.iter().any(|s| matches!(s, Step::Sort { then, .. } if then == &[("モジュール名".to_owned(), false)]));
    assert!(tie, "{:?}", r.steps);
    let r = read_instruction(
        "以下の手順で。\n1. a.csv と b.csv を縦に結合する\n2. 状態が「未着手」の行だけ残す\n3. c.csv として保存する",
    );
    let field = r.steps.iter().find_map(|s| match s {
        Step::Filter { conditions, .. } => conditions.first().and_then(|c| c.field.clone()),
        _ => None,
    });
    assert_eq!(field.as_deref(), Some("状態"), "an item's number is no part of a column: {:?}", r.steps);
}

#[test]
fn rows_kept_and_rows_left_out_in_one_sentence_are_two_filters_and_totals_said_apart_are_the_groupings() {
    let r = read_instruction(
        "claims.csv: November 2026 claims only, and leave out anything with status Rejected. Per category I need the \
         total amount, the number of claims, the average claim (rounded to 2 decimals) and the largest single claim. \
         Columns category, total, claims, average, largest -> out.xlsx",
    );
    let filters: Vec<bool> = r
        .steps
        .iter()
        .filter_map(|s| match s {
            Step::Filter { exclude, .. } => Some(*exclude),
            _ => None,
        })
        .collect();
    assert_eq!(filters, [false, true], "November kept, Rejected left out: {:?}", r.steps);
    let groupings: Vec<(&Vec<String>, Vec<&str>)> = r
        .steps
        .iter()
        .filter_map(|s| match s {
            Step::Aggregate { by, aggregations } => Some((by, aggregations.iter().map(|a| a.op).collect())),
            _ => None,
        })
        .collect();
    assert_eq!(groupings, [(&vec!["category".to_owned()], vec!["sum", "count", "avg", "max"])], "{:?}", r.steps);
}

#[test]
fn a_column_compared_with_another_and_a_column_added_in_the_list_chosen_are_read() {
    let r = read_instruction(
        "inventory.xlsx (the stock count sheet): which items are below their reorder point, i.e. On Hand strictly \
         less than Reorder Point (equal is fine)? Show SKU, On Hand, Reorder Point and a Shortfall column (Reorder \
         Point minus On Hand), largest shortfall first. Put it in reorder.xlsx",
    );
    let kept = r.steps.iter().any(|s| {
        matches!(s, Step::Filter { conditions, exclude: false } if conditions.len() == 1
            && conditions[0].field.as_deref() == Some("On Hand") && conditions[0].operator == "lt"
            && conditions[0].value == json!({"column": "Reorder Point"}))
    });
    assert!(kept, "{:?}", r.steps);
    let added = r.steps.iter().any(|s| {
        matches!(s, Step::Compute { name, operation: "difference", of, .. } if name == "Shortfall"
            && of == &["reorder point".to_owned(), "on hand".to_owned()])
    });
    assert!(added, "{:?}", r.steps);
    assert_eq!(r.columns, ["SKU", "On Hand", "Reorder Point", "Shortfall"]);
    let r = read_instruction("From a.csv keep the rows where amount is over 5, and the rows less than ten. Save b.csv");
    assert!(
        !r.steps.iter().any(|s| matches!(s, Step::Filter { conditions, .. } if conditions.iter().any(|c| c.value.get("column").is_some()))),
        "words not written as columns are compared with no column: {:?}",
        r.steps
    );
}

#[test]
fn rows_without_a_partner_on_a_column_called_so_in_any_case_and_values_listed_after_only() {
    let r = read_instruction(
        "Which requirements have no test case yet? requirements.csv lists them; test_cases.csv has a req_id column \
         for the requirement each case covers. A few ids were typed in lowercase (req-012 means REQ-012). Only Must \
         and Should requirements matter, skip Could. Please give req_id, title, priority in uncovered.xlsx.",
    );
    assert!(r.keys_ignore_case);
    assert!(
        r.steps.iter().any(|s| matches!(s, Step::Join { key: Some(k), unmatched: true, .. } if k == "req_id")),
        "{:?}",
        r.steps
    );
    let kept = r.steps.iter().any(|s| {
        matches!(s, Step::Filter { conditions, exclude: false } if conditions.len() == 1
            && conditions[0].operator == "in" && conditions[0].value == json!(["Must", "Should"]))
    });
    assert!(kept, "{:?}", r.steps);
    let left_out = r.steps.iter().any(|s| {
        matches!(s, Step::Filter { conditions, exclude: true } if conditions.len() == 1 && conditions[0].value == json!("Could"))
    });
    assert!(left_out, "{:?}", r.steps);
    assert_eq!(r.columns, ["req_id", "title", "priority"]);
    assert!(!r.mentioned_words.iter().any(|w| w == "req-012"), "an example keeps no rows: {:?}", r.mentioned_words);
    let r = read_instruction(
        "Could you list the lines on the bank statement (bank.csv) that have no entry with the same reference in our \
         cash ledger (ledger.csv)? Save them in open.csv",
    );
    assert!(!r.keys_ignore_case);
    assert!(
        r.steps.iter().any(|s| matches!(s, Step::Join { key: Some(k), unmatched: true, .. } if k == "reference")),
        "{:?}",
        r.steps
    );
    let r = read_instruction("From a.csv keep only Sales.csv rows. Save b.csv");
    assert!(
        !r.steps.iter().any(|s| matches!(s, Step::Filter { conditions, .. } if !conditions.is_empty())),
        "{:?}",
        r.steps
    );
}

#[test]
fn japanese_keys_said_as_what_is_the_same_and_data_said_in_passing_keep_no_rows() {
    let r = read_instruction(
        "11月の入金消込です。入金予定.csvのうち、入金明細.csvに同じ請求番号の入金がないものを一覧にしてください\
         （明細の請求番号が空欄の行もありますが、それはどれにも一致しない扱いで大丈夫です）。\
         列は請求番号・得意先・金額、入金予定日の早い順で未入金.xlsxに出力してください。",
    );
    assert!(
        r.steps.iter().any(|s| matches!(s, Step::Join { key: Some(k), unmatched: true, .. } if k == "請求番号")),
        "{:?}",
        r.steps
    );
    let blank = r
        .steps
        .iter()
        .any(|s| matches!(s, Step::Filter { conditions, .. } if conditions.iter().any(|c| c.value == json!(""))));
    assert!(!blank, "{:?}", r.steps);
    assert_eq!(r.columns, ["請求番号", "得意先", "金額"], "a list joined by ・ ends at its 、");
    let r = read_instruction(
        "支払明細.csvで、取引先・請求書番号・金額の3項目がすべて同じ行が2行以上あるものについて、該当する行を全部抜き出してください。\
         列はそのままで、二重払い候補.xlsx に出してください。",
    );
    assert!(
        r.steps.iter().any(|s| matches!(s, Step::Duplicates { by, remove: false, .. } if by.len() == 3)),
        "{:?}",
        r.steps
    );
    assert!(r.columns.is_empty(), "the keys of the duplicates are no columns chosen: {:?}", r.columns);
}

#[test]
fn a_word_defined_by_values_the_day_of_an_event_and_an_order_of_the_only_total_are_read() {
    let r = read_instruction(
        "From defects.csv, how many defects are still open per component? Open = status Open, In Progress or \
         Reopened. Only count defects reported before the code freeze on 2026-11-16. Columns component, open_defects; \
         most first, ties alphabetical by component. -> open.csv",
    );
    let kept: Vec<&Condition> = r
        .steps
        .iter()
        .flat_map(|s| match s {
            Step::Filter { conditions, exclude: false } => conditions.iter().collect(),
            _ => Vec::new(),
        })
        .collect();
    let states: Vec<&str> =
        kept.iter().filter(|c| c.field.as_deref() == Some("status")).filter_map(|c| c.value.as_str()).collect();
    assert_eq!(states, ["Open", "In Progress", "Reopened"], "{kept:?}");
    assert!(kept.iter().any(|c| c.operator == "lt" && c.value == json!("2026-11-16")), "{kept:?}");
    assert_eq!(kept.len(), 4, "the definition keeps no rows of its own: {kept:?}");
    assert_eq!(r.columns, ["component", "open_defects"]);
    assert!(
        r.steps.iter().any(|s| matches!(s, Step::Sort { by: Some(by), descending: true, then, .. }
            if by == "open_defects" && then == &[("component".to_owned(), false)])),
        "{:?}",
        r.steps
    );
}

#[test]
fn columns_counted_renamed_from_their_old_names_and_a_key_said_as_a_comparative_are_read() {
    let r = read_instruction(
        "Pull the unpaid invoices from ap.csv due Dec 7 to Dec 13, 2026. I only need four columns, renamed: Vendor \
         (from vendor_name), Invoice (invoice_no), Due (due_date) and Amount (amount), in that order. Earliest due \
         date first; for the same due date put the bigger amount first. Save as due.csv",
    );
    assert_eq!(r.columns, ["vendor_name", "invoice_no", "due_date", "amount"]);
    assert_eq!(r.renamed, ["Vendor", "Invoice", "Due", "Amount"]);
    assert!(
        r.steps
            .iter()
            .any(|s| matches!(s, Step::Sort { then, descending: false, .. } if then == &[("amount".to_owned(), true)])),
        "{:?}",
        r.steps
    );
    let plain = read_instruction("From a.csv list SKU, Description (optional) and Amount (USD). Save b.csv");
    assert!(plain.renamed.is_empty(), "a bracket that names no old column renames nothing: {:?}", plain.renamed);
    let r = read_instruction(
        "From ar.csv keep the invoices with more than $2,500 outstanding (the Outstanding column, not the Amount). \
         I only want two columns, Customer and Outstanding. Save b.csv",
    );
    assert_eq!(r.columns, ["Customer", "Outstanding"]);
    assert!(
        !r.steps.iter().any(|s| matches!(s, Step::Filter { conditions, .. } if conditions.iter().any(|c| c.value.as_str().is_some_and(|v| v.eq_ignore_ascii_case("outstanding"))))),
        "a column called so is no state: {:?}",
        r.steps
    );
    assert!(
        r.steps.iter().any(|s| matches!(s, Step::Filter { conditions, .. } if conditions.iter().any(|c| c.operator == "gt" && c.field.as_deref() == Some("Outstanding")))),
        "the number is of the column called so: {:?}",
        r.steps
    );
}

#[test]
fn japanese_definitions_with_wa_lists_in_order_and_renames_in_asides_are_read() {
    let r = read_instruction(
        "棚卸結果.xlsxで、帳簿数量と実地数量が一致しない品目だけ出して。差異数量は「実地数量−帳簿数量」、差異金額は「差異数量×単価」で計算して、品番・品名・帳簿数量・実地数量・差異数量・差異金額 の順に並べて棚卸差異.csvに保存してください。",
    );
    let computed = computed(&r);
    assert_eq!(computed, [("差異数量", "difference"), ("差異金額", "product")], "{:?}", r.steps);
    assert_eq!(r.columns, ["品番", "品名", "帳簿数量", "実地数量", "差異数量", "差異金額"]);
    assert!(!r.steps.iter().any(|s| matches!(s, Step::Sort { .. })), "a list in order is no sort: {:?}", r.steps);
    assert!(
        read_instruction("売上.csv を日付・金額の順に並べて 結果.csv に保存")
            .steps
            .iter()
            .any(|s| matches!(s, Step::Sort { .. })),
        "two names may be the keys of a sort"
    );
    let r = read_instruction(
        "出張申請.csv を一覧にしてください。列は 申請番号、氏名、精算額（申請の「金額」列をこの名前にしてください）の順で、一覧.xlsx に保存。",
    );
    assert_eq!(r.columns, ["申請番号", "氏名", "金額"]);
    assert_eq!(r.renamed, ["申請番号", "氏名", "精算額"]);
    let r = read_instruction("売上.csv から列は 日付、得意先（元の列名は取引先）、金額 の3つで 結果.csv に保存");
    assert_eq!(r.outputs.first().and_then(|o| o.path.as_deref()), Some("結果.csv"), "the file after the list is read");
    assert_eq!(r.columns, ["日付", "取引先", "金額"]);
    assert_eq!(r.renamed, ["日付", "得意先", "金額"]);
}

#[test]
fn asides_that_keep_rows_and_what_rows_count_in_are_no_conditions() {
    let excluded = |r: &Reading| -> Vec<String> {
        r.steps
            .iter()
            .flat_map(|s| match s {
                Step::Filter { conditions, exclude: true } => conditions.iter().map(|c| c.value.to_string()).collect(),
                _ => Vec::new(),
            })
            .collect()
    };
    let r = read_instruction(
        "経費.csv を部門ごとに集計して。ステータスが「差戻し」のものは除いてください（「申請中」は含めてOKです）。結果.xlsx に保存。",
    );
    assert_eq!(excluded(&r), ["\"差戻し\""], "{:?}", r.steps);
    let r = read_instruction(
        "bug.csv の重要度ごとの件数と平均対応日数を出して。状態が「取り下げ」のものは件数にも平均にも含めないでください（確認待ちは含めてOKです）。a.csv",
    );
    assert_eq!(excluded(&r), ["\"取り下げ\""], "{:?}", r.steps);
    let r = read_instruction("Sum amount per vendor in a.csv (Pending ones still count) to x.csv");
    assert!(!r.steps.iter().any(|s| matches!(s, Step::Filter { .. })), "{:?}", r.steps);
    let negated = "Sum amount per vendor in a.csv (Void doesn't count) to x.csv";
    assert_eq!(without_asides_that_keep(negated), negated, "a negated aside stays");
}

#[test]
fn what_a_file_holds_and_an_order_kept_leave_no_rows_out() {
    let r = read_instruction(
        "po_lines.csv only has SKUs and quantities. Please bring in description and unit_price from price_list.csv (match on sku). Keep the rows in the same order as po_lines.csv and write the result to out.xlsx",
    );
    assert!(!r.steps.iter().any(|s| matches!(s, Step::Filter { .. } | Step::Sort { .. })), "{:?}", r.steps);
    assert!(
        r.steps.iter().any(|s| matches!(s, Step::Join { bring, .. } if bring == &["description", "unit_price"])),
        "'bring in' brings the columns after it: {:?}",
        r.steps
    );
}

#[test]
fn a_top_n_of_groups_is_ordered_by_their_total() {
    let r = read_instruction(
        "Using pay.csv, add up amount per vendor (skip anything with status Voided) and give me the top 5 vendors, highest total first, in top5.csv.",
    );
    let sorts: Vec<&Step> = r.steps.iter().filter(|s| matches!(s, Step::Sort { .. })).collect();
    assert!(
        matches!(sorts.as_slice(), [Step::Sort { by: Some(by), descending: true, limit: Some(5), .. }] if by == "total"),
        "{:?}",
        r.steps
    );
}

#[test]
fn formulas_of_several_signs_are_one_column_and_one_sign_stays_its_operation() {
    let formulas = |text: &str| -> Vec<(String, String)> {
        read_instruction(text)
            .steps
            .into_iter()
            .filter_map(|s| match s {
                Step::Formula { name, formula, .. } => Some((name, formula)),
                _ => None,
            })
            .collect()
    };
    let pair = |n: &str, f: &str| vec![(n.to_owned(), f.to_owned())];
    assert_eq!(
        formulas("経費明細.csv を集計。消費税額＝税込金額×税率÷（100＋税率）で1円未満は切り捨て。a.csv"),
        pair("消費税額", "[税込金額] * [税率] / (100 + [税率])")
    );
    assert_eq!(
        formulas("From a.csv add total = qty times unit price plus shipping and save b.csv"),
        pair("total", "[qty] * [unit price] + [shipping]")
    );
    assert!(
        formulas("From a.csv add gross = qty times unit price times 1.1 and save b.csv").is_empty(),
        "a formula the operations read whole (a product and a factor) stays theirs"
    );
    assert_eq!(
        formulas("a.csv: margin_pct = (revenue - cost) / revenue x 100, rounded to 1 decimal. save b.csv"),
        pair("margin_pct", "([revenue] - [cost]) / [revenue] * 100")
    );
    let r = read_instruction("From a.csv add gap = billed - paid and save b.csv");
    assert!(formulas("From a.csv add gap = billed - paid and save b.csv").is_empty());
    assert!(
        r.steps.iter().any(|s| matches!(s, Step::Compute { operation: "difference", .. })),
        "one sign is its operation: {:?}",
        r.steps
    );
}

#[test]
fn row_columns_said_after_the_totals_are_computed_before_them() {
    let r = read_instruction(
        "経費明細.csv を勘定科目別に集計してください。消費税額＝税込金額×税率÷（100＋税率）で1円未満は切り捨て、税抜金額＝税込金額−消費税額 です。列は 勘定科目、件数、税抜合計 で 結果.csv へ。",
    );
    let at = |wanted: fn(&Step) -> bool| r.steps.iter().position(wanted).unwrap_or(usize::MAX);
    let grouping = at(|s| matches!(s, Step::Aggregate { .. }));
    assert!(at(|s| matches!(s, Step::Formula { .. })) < grouping, "{:?}", r.steps);
    assert!(at(|s| matches!(s, Step::Compute { name, .. } if name == "税抜金額")) < grouping, "{:?}", r.steps);
    assert!(
        matches!(&r.steps[grouping], Step::Aggregate { aggregations, .. } if aggregations.iter().any(|a| a.field.as_deref() == Some("税抜金額"))),
        "the total adds up the column computed last: {:?}",
        r.steps
    );
    let r = read_instruction(
        "Sum revenue and cost per product_line in a.csv, then margin = revenue - cost. Columns: product_line, revenue, cost, margin, sorted by margin from highest to lowest. Save b.csv",
    );
    let grouping = r.steps.iter().position(|s| matches!(s, Step::Aggregate { .. }));
    let margin = r.steps.iter().position(|s| matches!(s, Step::Compute { name, .. } if name == "margin"));
    assert!(grouping.is_some() && margin > grouping, "a difference of totals stays after them: {:?}", r.steps);
    assert!(
        r.steps.iter().any(|s| matches!(s, Step::Sort { descending: true, .. })),
        "'from highest to lowest' is descending: {:?}",
        r.steps
    );
}

#[test]
fn one_row_per_key_and_keys_matching_in_full_are_read_as_said() {
    let r = read_instruction(
        "test_cases_merged.csv has some case_ids more than once. Keep a single row per case_id — whichever comes first in the file — and drop the owner column. Save to unique.csv with case_id, title, component, priority.",
    );
    assert_eq!(r.steps, [Step::Duplicates { by: vec!["case_id".to_owned()], remove: true, keep_last: false }]);
    assert_eq!(r.columns, ["case_id", "title", "component", "priority"], "the columns after the file written");
    let r = read_instruction(
        "得意先マスタ_統合.csv は得意先コードがダブっています。同じ得意先コードの行は、ファイルの上の方にある1行だけを残して、それ以外は削除してください。重複なし.csv に保存。",
    );
    assert_eq!(r.steps, [Step::Duplicates { by: vec!["得意先コード".to_owned()], remove: true, keep_last: false }]);
    let r = read_instruction(
        "仕訳.xlsx に二重計上がないかチェックしたいです。伝票日付・勘定科目・金額・摘要の4つが完全に一致する行が2行以上あるものを全部出してください。候補.xlsx",
    );
    let keys = ["伝票日付", "勘定科目", "金額", "摘要"].map(str::to_owned).to_vec();
    assert_eq!(
        r.steps,
        [Step::Duplicates { by: keys, remove: false, keep_last: false }],
        "the four listed, not every column"
    );
}

#[test]
fn a_key_not_found_in_another_file_and_the_month_of_a_date_said_after_the_grouping_are_read() {
    let r = read_instruction(
        "11月の入金明細（入金明細_11月.csv）のうち、請求一覧.xlsx に同じ請求番号が見当たらないものを洗い出してください。ファイル名は 未照合入金.csv です。",
    );
    assert!(
        r.steps.iter().any(|s| matches!(s, Step::Join { key: Some(k), unmatched: true, .. } if k == "請求番号")),
        "{:?}",
        r.steps
    );
    let r = read_instruction(
        "From sales.csv: one row per region and month, where month is the year and month of order_date written like 2026-10, and net_sales is the sum of net_amount. Save it as out.xlsx.",
    );
    let months: Vec<&Step> = r.steps.iter().filter(|s| matches!(s, Step::Compute { operation: "month", .. })).collect();
    assert!(
        matches!(months.as_slice(), [Step::Compute { of, .. }] if of == &["order_date"]),
        "one month, of the date said, before the grouping: {:?}",
        r.steps
    );
    assert!(matches!(r.steps[0], Step::Compute { operation: "month", .. }), "{:?}", r.steps);
}

#[test]
fn keys_checked_against_a_column_of_another_file_and_what_a_row_counts_as_are_read() {
    let r = read_instruction(
        "Which goods receipts don't have a purchase order behind them? Check each po_number in goods_receipts.csv against the PO Number column of purchase_orders.xlsx; a receipt whose po_number is empty counts as having no PO. Give me receipt_no and amount in out.csv.",
    );
    let sides = vec![
        ("goods_receipts.csv".to_owned(), "po_number".to_owned()),
        ("purchase_orders.xlsx".to_owned(), "PO Number".to_owned()),
    ];
    assert!(
        matches!(r.steps.as_slice(), [Step::Join { unmatched: true, side_keys, .. }] if side_keys == &sides),
        "rows without a partner, each side's key; what a row counts as leaves none out: {:?}",
        r.steps
    );
}

#[test]
fn a_japanese_month_of_a_date_a_combination_of_keys_and_polite_exclusions_are_read() {
    let r = read_instruction(
        "バグ票一覧.csv の起票日から年月を取り出して（2026-10 のような形で）、年月と重要度の組み合わせごとに件数を数えてください。列は 年月・重要度・件数 の3つ、出力ファイルは 件数.csv です。",
    );
    assert_eq!(
        r.steps[0],
        Step::Compute { name: "年月".to_owned(), operation: "month", of: vec!["起票日".to_owned()], value: None }
    );
    assert!(
        matches!(&r.steps[1], Step::Aggregate { by, .. } if by == &["年月", "重要度"]),
        "the columns combined, not 「組み合わせ」: {:?}",
        r.steps
    );
    let r = read_instruction(
        "結合テスト結果.csv を機能ごとに集計してください。結果が「未実施」の行は数に入れません。機能別.csv",
    );
    assert!(
        matches!(&r.steps[0], Step::Filter { exclude: true, conditions } if conditions[0].value == json!("未実施")),
        "{:?}",
        r.steps
    );
}

#[test]
fn new_names_listed_with_their_old_ones_after_and_a_sheet_s_layout_are_read() {
    let r = read_instruction(
        "From ar.xlsx (there are two title lines above the header row), pull every invoice with a Due Date on or before 2026-10-31. Output columns: customer, invoice, balance (taken from Customer, Invoice No and Balance Due). Save it as out.csv.",
    );
    assert_eq!(r.columns, ["Customer", "Invoice No", "Balance Due"]);
    assert_eq!(r.renamed, ["customer", "invoice", "balance"]);
    assert!(
        matches!(r.steps.as_slice(), [Step::Filter { conditions, .. }] if conditions.len() == 1),
        "the layout of the sheet keeps no rows: {:?}",
        r.steps
    );
    let r = read_instruction(
        "From a.csv output columns: customer, invoice (taken from Customer, Invoice No and Date). Save b.csv",
    );
    assert!(r.renamed.is_empty(), "old names that are not as many rename nothing: {:?}", r.renamed);
}

#[test]
fn columns_listed_as_all_the_same_are_the_duplicate_check_s_keys() {
    let r = read_instruction(
        "In payments_nov.csv, find the payments where vendor_id, invoice_no and amount are all the same as on at least one other row, and list every one of those rows, in payment_id order. Output: dup.csv",
    );
    let keys = ["vendor_id", "invoice_no", "amount"].map(str::to_owned).to_vec();
    assert!(
        r.steps.iter().any(|s| matches!(s, Step::Duplicates { by, remove: false, .. } if by == &keys)),
        "{:?}",
        r.steps
    );
    assert!(!r.steps.iter().any(|s| matches!(s, Step::Filter { .. })), "the keys said keep no rows: {:?}", r.steps);
    let r = read_instruction("From a.csv list the invoices where billed and paid are the same. Save b.csv");
    assert!(!r.steps.iter().any(|s| matches!(s, Step::Duplicates { .. })), "two columns of one row: {:?}", r.steps);
}

#[test]
fn japanese_columns_named_before_a_share_a_difference_said_in_words_and_a_rename_with_toiu_are_read() {
    let r = read_instruction(
        "報酬支払一覧.csv のうち、区分が「個人」の支払だけを対象にしてください。「源泉徴収税額」は支払額×10.21%で1円未満は切り捨て、「差引支払額」は支払額から源泉徴収税額を引いた額です。源泉徴収計算.csv に保存。",
    );
    let computed = computed(&r);
    assert_eq!(
        computed,
        [("源泉徴収税額", "product"), ("", "round_down"), ("差引支払額", "difference")],
        "{:?}",
        r.steps
    );
    let r = read_instruction(
        "支払予定表.csv から抜き出してください。出力する列は 支払予定日、支払先、金額 の3つで、この順番にしてください。「取引先名」の列は「支払先」という名前に変えてください。結果.xlsx で保存。",
    );
    assert_eq!(r.columns, ["支払予定日", "取引先名", "金額"]);
    assert_eq!(r.renamed, ["支払予定日", "支払先", "金額"]);
    assert!(
        !r.steps.iter().any(|s| matches!(s, Step::Sort { .. })),
        "「この順番に」 orders the columns: {:?}",
        r.steps
    );
}

#[test]
fn a_bare_total_before_a_grouping_said_in_full_is_that_grouping_and_a_column_s_other_name_keeps_no_rows() {
    let r = read_instruction(
        "受注一覧.xlsx（シート「受注」）の集計をお願いします。\n・状態が「キャンセル」の受注は除く\n・担当者ごとに、受注件数と受注金額の平均を出す\n・列は 担当者、件数、平均受注金額\n・ファイル名：a.csv",
    );
    let groupings: Vec<&Step> = r.steps.iter().filter(|s| matches!(s, Step::Aggregate { .. })).collect();
    assert!(
        matches!(groupings.as_slice(), [Step::Aggregate { by, .. }] if by == &["担当者"]),
        "one grouping: {:?}",
        r.steps
    );
    let r = read_instruction(
        "経費申請.csv のうち、社員一覧.xlsx に載っていない社員番号の申請を未照合として出して 要確認.csv に保存。社員一覧のほうは「社員No」という列名になっています。",
    );
    assert!(
        matches!(r.steps.as_slice(), [Step::Join { key: Some(k), unmatched: true, .. }] if k == "社員番号"),
        "the key said after 「載っていない」; what a file calls a column keeps no rows: {:?}",
        r.steps
    );
}

#[test]
fn a_japanese_formula_with_spaces_is_one_column_and_what_a_column_holds_keeps_no_rows() {
    let r = read_instruction(
        "納品明細.csv に税込金額を追加してください。税込金額は 税抜金額 ×（1 + 税率 ÷ 100）で、税率の列には 10 か 8 が入っています。1円未満は切り捨てです。結果.csv",
    );
    assert!(
        matches!(r.steps.as_slice(), [Step::Formula { name, formula, .. }, Step::Compute { operation: "round_down", .. }]
            if name == "税込金額" && formula == "[税抜金額] * (1 + [税率] / 100)"),
        "{:?}",
        r.steps
    );
    let r =
        read_instruction("テスト.csv をモジュールごとに数えて。列名は モジュール／件数 でお願いします。→ 結果.xlsx");
    assert!(!r.steps.iter().any(|s| matches!(s, Step::Formula { .. })), "a ／ list of names: {:?}", r.steps);
}

#[test]
fn a_japanese_month_or_year_column_named_for_it_is_made_from_its_date() {
    let month = |name: &str, of: &str| Step::Compute {
        name: name.to_owned(),
        operation: "month",
        of: vec![of.to_owned()],
        value: None,
    };
    let r = read_instruction(
        "経費.csv を月別・勘定科目別に集計してもらえますか？\n計上日から「計上月」（2026-04 のような 年-月 の形式）を作って、計上月と勘定科目の組み合わせごとに金額を合計してください。列は 計上月・勘定科目・合計金額 の3つで、月別科目別集計.csv に出してください。",
    );
    assert_eq!(r.steps[0], month("計上月", "計上日"), "{:?}", r.steps);
    assert!(
        matches!(&r.steps[1..], [Step::Aggregate { by, aggregations }]
            if by == &["計上月", "勘定科目"] && aggregations[0].field.as_deref() == Some("金額")),
        "the grouping said in passing is the one said in full: {:?}",
        r.steps
    );
    let r = read_instruction("・計上日から年月（2026-04 の形）を出して、年月×勘定科目ごとに借方金額を合計");
    assert_eq!(r.steps[0], month("年月", "計上日"));
    assert!(
        matches!(&r.steps[1..], [Step::Aggregate { by, .. }] if by == &["年月", "勘定科目"]),
        "× joins the keys, no product: {:?}",
        r.steps
    );
    let r = read_instruction(
        "固定資産台帳.xlsx に、取得日の年（西暦4桁）だけを入れた「取得年」列を追加してください。固定資産.csv で保存してください。",
    );
    assert_eq!(
        r.steps,
        [Step::Compute {
            name: "取得年".to_owned(), operation: "year", of: vec!["取得日".to_owned()], value: None
        }]
    );
    // A name that says neither a month nor a year, with no example beside it, is no date's part.
    let r = read_instruction("計上日から「区分」を作って、区分ごとに金額を合計してください。");
    assert!(!r.steps.iter().any(|s| matches!(s, Step::Compute { operation: "month" | "year", .. })), "{:?}", r.steps);
}

#[test]
fn a_letter_s_greetings_and_signature_are_no_values_and_a_key_s_name_column_is_the_key() {
    let r = read_instruction(
        "経理部 佐藤さん\nお疲れさまです。営業管理課の田中です。\nuriage.xlsx の売上データから、2026年4月分（売上日が4月1日〜4月30日のもの）を得意先ごとに集計した表を作っていただけますでしょうか。区分が「返品」の行は集計から除いてください。\n列は「得意先名」「件数」「売上合計」の3つで、売上合計の大きい順に並べていただけると助かります。ファイルは 得意先別.csv で保存をお願いします。\nよろしくお願いいたします。",
    );
    for name in ["田中", "佐藤", "経理部", "営業管理課"] {
        assert!(!r.value_words.iter().any(|w| w == name), "{name} in {:?}", r.value_words);
    }
    let Some(Step::Aggregate { by, aggregations }) = r.steps.iter().find(|s| matches!(s, Step::Aggregate { .. }))
    else {
        panic!("totals: {:?}", r.steps)
    };
    assert_eq!(by, &["得意先"]);
    assert!(
        aggregations.iter().any(|a| a.op == "count" && a.name.as_deref() == Some("件数")),
        "the count chosen beside 得意先名: {aggregations:?}"
    );
    // 「…の入金消込です」 says the job, not who writes.
    let r = read_instruction("11月の入金消込です。入金予定.csvのうち、入金明細.csvに同じ請求番号の入金がないものを一覧にしてください。未入金.csv");
    assert!(!r.steps.is_empty());
}

#[test]
fn a_question_of_an_amount_with_no_total_read_is_asked_back() {
    let r = read_instruction(
        "How much did the bank charge us in fees each month? In bank.csv the fees are the lines whose Description contains \"fee\". fees.csv",
    );
    assert!(!r.steps.iter().any(|s| matches!(s, Step::Aggregate { .. })));
    assert_eq!(r.unplaced, ["How much did the bank charge us in fees each month"]);
    let r =
        read_instruction("How much did we pay each vendor? Add up amount per vendor from payments.csv into totals.csv");
    assert!(r.unplaced.is_empty(), "{:?}", r.unplaced);
    let r = read_instruction("支払.csv に何件か重複があるので、同じ請求番号の行を1件だけ残して 整理後.csv に保存");
    assert!(r.unplaced.is_empty(), "「何件か」 asks nothing: {:?}", r.unplaced);
    let r = read_instruction("経費.csv の行を見て、旅費交通費は何件ありますか？ 件数.csv に");
    assert!(
        !r.unplaced.is_empty() || r.steps.iter().any(|s| matches!(s, Step::Aggregate { .. })),
        "a question of a count is counted or asked: {:?}",
        r.steps
    );
}

#[test]
fn days_between_two_dates_an_order_of_values_the_source_named_and_rounding_said_last_are_read() {
    let r = read_instruction(
        "解決済みの不具合について、重要度ごとの件数と平均対応日数を出してほしいです。対応日数は 解決日−起票日 の日数（起票した日に解決していれば0日）。平均は小数第1位まで、四捨五入で。重要度の並びは 致命的→高→中→低 の順でお願いします。元ファイルは 不具合一覧.csv、出力は 重要度別対応日数.csv で。",
    );
    assert_eq!(
        r.steps[0],
        Step::Compute {
            name: "対応日数".to_owned(),
            operation: "difference",
            of: vec!["解決日".to_owned(), "起票日".to_owned()],
            value: None
        }
    );
    assert!(
        r.steps.iter().any(|s| matches!(s, Step::Compute { operation: "round", value: Some(v), .. } if *v == 1.0)),
        "「四捨五入で」 said last is the rounding of the clause before: {:?}",
        r.steps
    );
    assert!(r.steps.iter().any(|s| matches!(s, Step::Sort { by: Some(b), .. } if b == "重要度")), "{:?}", r.steps);
    let order = ("重要度".to_owned(), vec!["致命的".to_owned(), "高".to_owned(), "中".to_owned(), "低".to_owned()]);
    assert_eq!(r.value_orders, [order]);
    assert_eq!(r.sources.iter().filter_map(|s| s.path.as_deref()).collect::<Vec<_>>(), ["不具合一覧.csv"]);
    assert_eq!(r.outputs.iter().filter_map(|o| o.path.as_deref()).collect::<Vec<_>>(), ["重要度別対応日数.csv"]);
}

#[test]
fn japanese_columns_listed_with_commas_an_order_said_as_x_jun_and_twice_beside_a_period_are_read() {
    let r = read_instruction(
        "11月分の交通費精算で二重申請っぽいものを洗い出したいです。社員番号・利用日・区間・金額の4つが全部同じ行が2件以上あるものを、最初の1件も含めて全部出してください。列は 申請番号, 氏名, 利用日, 区間, 金額 で、申請番号順。ファイル名は 重複申請候補.csv でお願いします。",
    );
    assert_eq!(r.columns, ["申請番号", "氏名", "利用日", "区間", "金額"]);
    assert!(matches!(&r.steps[0], Step::Duplicates { by, remove: false, .. } if by.len() == 4), "{:?}", r.steps);
    let Some(Step::Filter { conditions, .. }) = r.steps.iter().find(|s| matches!(s, Step::Filter { .. })) else {
        panic!("the month: {:?}", r.steps)
    };
    assert_eq!(conditions.len(), 1, "「2件以上」 is the duplicate check, the month stays: {conditions:?}");
    assert!(r.steps.iter().any(|s| matches!(s, Step::Sort { by: Some(b), descending: false, .. } if b == "申請番号")));
    let r = read_instruction("a.csv から金額が50,000円以上の行を出して b.csv に保存");
    assert!(
        matches!(&r.steps[0], Step::Filter { conditions, .. } if conditions[0].value == json!(50000)),
        "a number's comma stays: {:?}",
        r.steps
    );
}

#[test]
fn keys_said_to_overlap_a_high_to_low_order_columns_one_would_like_and_rows_with_no_partner_are_read() {
    let r = read_instruction(
        "本社と支社でそれぞれ持ってる取引先リストを1本にまとめたいです。取引先_本社.csv を先、取引先_支社.csv を後にして縦につなげて、取引先コードがかぶっているものは最初に出てくる行だけ残してください。列は 取引先コード・取引先名・締日 だけでいいです。ファイル名：統合.csv",
    );
    assert_eq!(
        r.steps,
        [Step::Duplicates { by: vec!["取引先コード".to_owned()], remove: true, keep_last: false }],
        "{:?}",
        r.steps
    );
    assert_eq!(r.outputs.len(), 1, "「1本にまとめ」 puts the tables together, no report: {:?}", r.outputs);
    let r = read_instruction("Sort by annual_depreciation high to low. Save as x.csv");
    assert!(matches!(&r.steps[..], [Step::Sort { by: Some(b), descending: true, .. }] if b == "annual_depreciation"));
    let r = read_instruction(
        "I'd like product, vendor, renewal_date, annual_cost, owner and a monthly_cost column (annual cost / 12, rounded to 2 decimals). Save as x.csv.",
    );
    assert_eq!(r.columns, ["product", "vendor", "renewal_date", "annual_cost", "owner", "monthly_cost"]);
    let r = read_instruction(
        "Give me rep_name, won_total, rate, commission with the biggest commission first. Save to c.xlsx",
    );
    assert_eq!(r.columns, ["rep_name", "won_total", "rate", "commission"]);
    let r = read_instruction("I want a list of the payouts that are not approved. Save to x.csv");
    assert!(r.columns.is_empty(), "no list of names: {:?}", r.columns);
    let r = read_instruction(
        "Which petty cash payouts have no scanned receipt? The log is petty_cash_log.csv and the receipts are in receipts_scanned.csv. Save to missing.csv",
    );
    assert!(
        matches!(&r.steps[..], [Step::Join { key: None, unmatched: true, either_side: false, .. }]),
        "rows with no partner, on a key the data settles: {:?}",
        r.steps
    );
}

#[test]
fn the_date_said_to_decide_a_period_whose_column_and_a_month_said_of_rows_or_of_the_file_are_read() {
    let r = read_instruction(
        "Could you put together our Q1 2026 spend by vendor from ap_bills_2026.xlsx? Use the bill date to decide what's in Q1 (January 1 through March 31, both days included) and leave out any bill whose status is Void.",
    );
    let conditions = filter_conditions(&r);
    assert_eq!(conditions[0].field.as_deref(), Some("bill date"), "{conditions:?}");
    assert_eq!(conditions[1].field.as_deref(), Some("status"), "what 'whose' names: {conditions:?}");
    let r = read_instruction("請求一覧.csv の2026年4月分を、請求日を基準に抜き出して b.csv に保存");
    assert!(matches!(&r.steps[0], Step::Filter { conditions, .. } if conditions[0].field.as_deref() == Some("請求日")));
    // "the October payouts": a month of the rows; a file read named for it says which file.
    let r = read_instruction(
        "List the October payouts in log.csv that have no match in receipts.csv, and save them to missing.csv",
    );
    assert!(
        r.steps
            .iter()
            .any(|s| matches!(s, Step::Filter { conditions, .. } if conditions[0].operator == MONTH_OF_UNSAID_YEAR)),
        "{:?}",
        r.steps
    );
    let r = read_instruction(
        "For the October payroll summary: using payroll_october.xlsx, give me the total per department in out.csv",
    );
    assert!(!r.steps.iter().any(|s| matches!(s, Step::Filter { .. })), "{:?}", r.steps);
    let r = read_instruction("11月分の経費を 経費_11月.csv から部門ごとに合計して 部門別.csv に保存");
    assert!(!r.steps.iter().any(|s| matches!(s, Step::Filter { .. })), "{:?}", r.steps);
}

#[test]
fn an_occasion_a_file_described_in_an_aside_and_rows_kept_anyway_are_no_steps_of_their_own() {
    let r = read_instruction(
        "Traceability check before sign-off: which requirements in requirements.csv have no test case at all in test_cases.csv? Just Req ID, Title and Priority in uncovered.csv, please.",
    );
    assert!(!r.steps.iter().any(|s| matches!(s, Step::Confirm)), "when the work is for: {:?}", r.steps);
    assert!(r.steps.iter().any(|s| matches!(s, Step::Join { unmatched: true, .. })), "{:?}", r.steps);
    assert!(read_instruction("Total amount per vendor from a.csv, then ask for approval before writing b.csv")
        .steps
        .iter()
        .any(|s| matches!(s, Step::Confirm)));
    let r = read_instruction(
        "1. Start from card_transactions_june.csv (one row per transaction). 2. Look up each transaction's cost center in cost_centers.xlsx and bring over the department name and the budget owner. If a cost center isn't in that list, keep the transaction anyway and leave those two blank. 3. Save it as out.csv.",
    );
    assert!(
        matches!(&r.steps[..], [Step::Join { unmatched: false, keep_all_of: Some(kept), .. }] if kept == "transaction"),
        "no removal of duplicates, no filter; every transaction kept: {:?}",
        r.steps
    );
    let r = read_instruction("Remove duplicates from a.csv (one row per invoice) and save b.csv");
    assert!(r.steps.iter().any(|s| matches!(s, Step::Duplicates { remove: true, .. })), "{:?}", r.steps);
}

#[test]
fn totals_said_in_brackets_after_their_columns_are_each_a_total_named_as_the_column() {
    let r = read_instruction(
        "For each product_line I need revenue (sum), cost (sum), margin = revenue - cost. Columns: product_line, revenue, cost, margin. File name x.csv.",
    );
    let Some(Step::Aggregate { by, aggregations }) = r.steps.first() else { panic!("{:?}", r.steps) };
    assert_eq!(by, &["product_line"]);
    let totals: Vec<(&str, Option<&str>, Option<&str>)> =
        aggregations.iter().map(|a| (a.op, a.field.as_deref(), a.name.as_deref())).collect();
    assert_eq!(totals, [("sum", Some("revenue"), Some("revenue")), ("sum", Some("cost"), Some("cost"))]);
    let r = read_instruction("Per suite, give me duration (average) from runs.csv into x.csv");
    assert!(
        matches!(&r.steps[..], [Step::Aggregate { aggregations, .. }] if aggregations[0].op == "avg"),
        "{:?}",
        r.steps
    );
}

#[test]
fn a_column_s_unit_in_brackets_is_no_part_of_its_order() {
    let r = read_instruction(
        "回帰テスト結果.csv で実行に時間がかかっているテストを見直したいので、実行時間（秒）が長い順に上位5件をください。列はテストケースID、テスト名、実行時間（秒）の3つで、遅いテスト上位5.csv に。",
    );
    assert!(
        r.steps
            .iter()
            .any(|s| matches!(s, Step::Sort { by: Some(b), descending: true, limit: Some(5), .. } if b == "実行時間")),
        "{:?}",
        r.steps
    );
    // A longer aside says more than a unit: 「…の順で」 after it orders the columns only.
    let r = read_instruction(
        "出張申請.csv を一覧にしてください。列は 申請番号、出張先、精算額（申請の「金額」列をこの名前にしてください）の順で、一覧.xlsx に保存をお願いします。",
    );
    assert!(!r.steps.iter().any(|s| matches!(s, Step::Sort { .. })), "{:?}", r.steps);
}

#[test]
fn the_column_said_to_make_rows_the_same_is_the_key_of_the_duplicates() {
    let r = read_instruction(
        "取引先一覧_統合前.csv は複数のシステムから取引先を集めたもので、同じ取引先が何度も入っています。登録番号が同じなら同じ取引先とみなして、上から見て最初に出てくる行だけを残し、2回目以降の行は削除してください。社名の書き方が違っていても登録番号が同じなら重複です。結果は 統合後.csv に。",
    );
    assert_eq!(r.steps, [Step::Duplicates { by: vec!["登録番号".to_owned()], remove: true, keep_last: false }]);
}

#[test]
fn a_rate_of_two_defined_counts_is_counted_per_group_then_divided() {
    let r = read_instruction(
        "テスト実行結果.csv をもとに、機能ごとに次の3つを出してください。\n・実行件数（その機能の行数。NGや保留も含む）\n・合格件数（結果がOKの行数）\n・合格率（合格件数 ÷ 実行件数 × 100、小数第1位まで・第2位を四捨五入）\n列名は 機能、実行件数、合格件数、合格率 で、機能別合格率.xlsx に保存してください。",
    );
    assert_eq!(ops(&r), ["aggregate", "compute", "compute"], "{:?}", r.steps);
    let Step::Aggregate { by, aggregations } = &r.steps[0] else { panic!() };
    assert_eq!(by, &["機能"]);
    let counts: Vec<(Option<&str>, usize)> = aggregations.iter().map(|a| (a.name.as_deref(), a.when.len())).collect();
    assert_eq!(counts, [(Some("合格件数"), 1), (Some("実行件数"), 0)]);
    assert_eq!(computed(&r), [("合格率", "percent"), ("合格率", "round")]);
    // The rows left out before counting stay; a count's own value keeps no rows.
    let r = read_instruction(
        "QA summary for the run (run.csv). Skipped tests don't count at all. Per module, count the executed tests (every result except Skipped) and the passed ones (result Passed — Failed and Blocked were executed but did not pass), and work out pass_rate = passed / executed × 100, rounded to one decimal place. Columns module, executed, passed, pass_rate, with the worst pass_rate at the top.",
    );
    assert_eq!(ops(&r), ["filter", "aggregate", "compute", "compute", "sort"], "{:?}", r.steps);
    assert!(filter_conditions(&r).iter().all(|c| c.operator == "ne"), "{:?}", r.steps);
    let Step::Aggregate { by, aggregations } = &r.steps[1] else { panic!() };
    assert_eq!((by.as_slice(), aggregations.len()), (&["module".to_owned()][..], 2));
    // A count the text does not define is not guessed: the reading is left as it was.
    let r = read_instruction("Per module, give runs and failures and fail_rate = failures / runs × 100 from run.csv");
    assert!(!r.steps.iter().any(|s| matches!(s, Step::Aggregate { aggregations, .. } if aggregations.iter().any(|a| a.name.as_deref() == Some("failures") && !a.when.is_empty()))), "{:?}", r.steps);
}

#[test]
fn an_arrow_to_a_file_writes_there() {
    let r = read_instruction("payables over 1M from payables.csv, largest first → over_1m.xlsx");
    assert_eq!(r.outputs.first().and_then(|o| o.path.as_deref()), Some("over_1m.xlsx"));
    let r = read_instruction("支払明細.csv から未払いだけ → 未払い.csv");
    assert_eq!(r.outputs.first().and_then(|o| o.path.as_deref()), Some("未払い.csv"));
    // An arrow inside a sentence that goes on is not this.
    let r = read_instruction("top 3 customers in sales.csv -> top.csv (customer + total only)");
    assert!(r.outputs.iter().any(|o| o.path.as_deref() == Some("top.csv")), "{:?}", r.outputs);
}

#[test]
fn the_files_own_name_before_a_comparison_is_no_column() {
    let r = read_instruction("payables over 1M from payables.csv, largest first. Save as over.xlsx");
    let conditions = filter_conditions(&r);
    assert_eq!(conditions.len(), 1);
    assert_eq!((conditions[0].field.as_deref(), conditions[0].operator), (None, "gt"));
    assert!(matches!(&r.steps[1], Step::Sort { by: None, descending: true, .. }), "{:?}", r.steps);
}

#[test]
fn slowest_first_and_alphabetical_order_name_what_is_sorted() {
    let r = read_instruction(
        "failed tests from run_0312.csv, slowest first — just test_id, suite and duration_s. save as failed.csv",
    );
    assert!(
        matches!(&r.steps[..], [Step::Filter { .. }, Step::Sort { by: Some(by), descending: true, .. }] if by == "duration"),
        "{:?}",
        r.steps
    );
    assert_eq!(r.columns, ["test_id", "suite", "duration_s"]);
    let r = read_instruction(
        "Could you total the amount per department from expenses.csv? Two columns, department and total, departments in alphabetical order, saved as by_department.csv.",
    );
    assert_eq!(r.columns, ["department", "total"]);
    assert!(
        r.steps.iter().any(|s| matches!(s, Step::Sort { by: Some(by), descending: false, .. } if by == "department")),
        "{:?}",
        r.steps
    );
    // A list ends before the file it is written to.
    let r = read_instruction("Closed bugs only in bugs.csv, average days_to_fix per severity. Output two columns, severity and avg_days_to_fix, in fix_time.csv.");
    assert_eq!(r.columns, ["severity", "avg_days_to_fix"]);
}

#[test]
fn who_asks_is_no_value_and_a_state_said_of_the_rows_keeps_them() {
    let r = read_instruction(
        "Hi! Finance wants to know how much each department spent, but only counting expense claims that have been approved. Could you total the amount per department from expenses.csv?",
    );
    assert!(!r.value_words.iter().chain(&r.mentioned_words).any(|w| w == "Finance"), "{:?}", r.value_words);
    let conditions = filter_conditions(&r);
    assert_eq!(conditions.len(), 1, "{:?}", r.steps);
    assert_eq!((conditions[0].operator, conditions[0].value.as_str()), ("eq", Some("approved")));
    // "we paid" is still a verb.
    let r = read_instruction("Total what we paid per vendor from payments.csv");
    assert!(filter_conditions(&r).is_empty(), "{:?}", r.steps);
}

#[test]
fn columns_that_show_up_together_on_more_than_one_row_are_the_duplicates_keys() {
    let r = read_instruction(
        "In ap_entries.csv, list every row where the vendor and invoice_ref together show up on more than one row. Keep all columns and save as dupes.csv.",
    );
    assert!(
        r.steps
            .iter()
            .any(|s| matches!(s, Step::Duplicates { by, remove: false, .. } if by == &["vendor", "invoice_ref"])),
        "{:?}",
        r.steps
    );
}

#[test]
fn a_list_of_columns_follows_its_colon_and_new_names_ask_for_no_total() {
    let r = read_instruction(
        "From orders.xlsx I only need the March 2026 orders, and only three columns: the customer, the order date and the order total. Please call them Customer, Order Date and Total and save it as march.csv.",
    );
    assert_eq!(r.columns, ["customer", "order date", "order total"]);
    assert_eq!(r.renamed, ["Customer", "Order Date", "Total"]);
    assert_eq!(ops(&r), ["filter"], "{:?}", r.steps);
}

#[test]
fn an_order_by_how_far_is_by_the_difference_computed() {
    let r = read_instruction(
        "budget.csv: add a variance column (actual minus budget), keep only the lines where actual is over budget, biggest overspend first. Save as over.csv",
    );
    assert!(
        r.steps.iter().any(|s| matches!(s, Step::Sort { by: Some(by), descending: true, .. } if by == "variance")),
        "{:?}",
        r.steps
    );
}

#[test]
fn a_top_n_of_the_groups_said_before_their_totals_is_the_totals_order() {
    let r = read_instruction(
        "Who were our top 5 customers? Use sales.csv, add up the amount per customer, and list the five biggest totals, highest first, with columns customer and total_sales. Save to top5.xlsx please.",
    );
    assert_eq!(ops(&r), ["aggregate", "sort"], "{:?}", r.steps);
    assert_eq!(r.columns, ["customer", "total_sales"]);
}

#[test]
fn rows_that_should_not_count_are_left_out_and_a_file_rows_came_into_is_read() {
    let r = read_instruction("Give me the sum of net_amount per region from orders.csv. Cancelled orders shouldn't count at all (Pending ones are fine).");
    let conditions = filter_conditions(&r);
    assert_eq!((conditions.len(), conditions[0].operator), (1, "ne"), "{:?}", r.steps);
    let r = read_instruction(
        "Some test cases got pasted into test_cases.xlsx twice. Please remove the rows that are exact duplicates and save the clean list as clean.xlsx.",
    );
    assert_eq!(r.sources.iter().filter_map(|s| s.path.as_deref()).collect::<Vec<_>>(), ["test_cases.xlsx"]);
    assert_eq!(r.outputs.iter().filter_map(|o| o.path.as_deref()).collect::<Vec<_>>(), ["clean.xlsx"]);
}

#[test]
fn japanese_totals_name_their_column_before_the_keys_and_are_sorted_by_as_said() {
    let r = read_instruction(
        "経費明細.xlsxを部門ごとに集計して、金額の合計が大きい順に並べたいです。出力は「部門」と「合計金額」の2列で、部門別経費.xlsxに保存してください。",
    );
    assert_eq!(r.columns, ["部門", "合計金額"]);
    assert!(
        matches!(&r.steps[1], Step::Sort { by: Some(by), descending: true, .. } if by == "合計金額"),
        "{:?}",
        r.steps
    );
    let r = read_instruction(
        "売上明細.csvの売上金額を月ごとに合計してください。月は売上日の年月を「2026-01」の形で。古い月から順に、列は「月」と「売上合計」、ファイルは月別売上.xlsxでお願いします。",
    );
    let Step::Compute { operation: "month", of, .. } = &r.steps[0] else { panic!("{:?}", r.steps) };
    assert_eq!(of, &["売上日"]);
    let Step::Aggregate { aggregations, .. } = &r.steps[1] else { panic!("{:?}", r.steps) };
    assert_eq!(aggregations[0].field.as_deref(), Some("売上金額"));
    assert!(matches!(&r.steps[2], Step::Sort { by: Some(by), descending: false, .. } if by == "月"), "{:?}", r.steps);
    // The rows totalled are no column: 「請求を取引先ごとに合計」.
    let r = read_instruction("請求一覧.csv の請求を取引先ごとに合計して x.csv に出力");
    let Step::Aggregate { aggregations, .. } = &r.steps[0] else { panic!("{:?}", r.steps) };
    assert_eq!(aggregations[0].field, None);
}

#[test]
fn a_japanese_difference_written_with_a_full_width_minus_and_a_number_said_not_to_be() {
    let r = read_instruction(
        "請求.csvと入金.csvを請求書番号で突き合わせて、差額（請求額－入金額）を計算し、差額が0でないものだけを一覧にしてください。入金差異.csvに出力。",
    );
    assert!(
        matches!(&r.steps[0], Step::Join { unmatched: false, .. }),
        "a file's name says nothing of the match: {:?}",
        r.steps
    );
    assert_eq!(computed(&r), [("差額", "difference")]);
    let conditions = filter_conditions(&r);
    assert_eq!((conditions[0].operator, &conditions[0].value), ("ne", &json!(0)));
    // The form 「年-月」 is no difference.
    let r = read_instruction("交通費.csv を月別に集計。列は 月（2026-07 のような年-月の形）、合計金額 で x.csv に");
    assert!(computed(&r).iter().all(|(_, op)| *op != "difference"), "{:?}", r.steps);
    // Rows with not even one partner are the unmatched ones.
    let r = read_instruction(
        "請求一覧.csv の中で、入金明細.csv にまだ入金が1件もない請求だけを 未入金.csv に。突き合わせは請求番号で。",
    );
    assert!(r.steps.iter().any(|s| matches!(s, Step::Join { unmatched: true, .. })), "{:?}", r.steps);
}

#[test]
fn what_is_done_before_a_japanese_sort_key_is_no_part_of_it() {
    let r = read_instruction(
        "経費精算.csvで、社員番号・利用日・金額の3つがすべて同じ行を全部出してください。列は全部残して申請番号順に、候補.csvに保存してください。",
    );
    assert!(r.steps.iter().any(|s| matches!(s, Step::Sort { by: Some(by), .. } if by == "申請番号")), "{:?}", r.steps);
}

#[test]
fn japanese_quoted_values_of_a_column_joined_by_or_keep_any_of_them() {
    let r = read_instruction(
        "不具合管理表.csvで、まだ終わっていない不具合（ステータスが「未対応」または「対応中」）が担当者ごとに何件あるか数えてください。件数の多い順に、列は「担当者」と「件数」で、x.csvに出力してください。",
    );
    let conditions = filter_conditions(&r);
    assert_eq!(conditions.len(), 1, "{:?}", r.steps);
    assert_eq!((conditions[0].field.as_deref(), conditions[0].operator), (Some("ステータス"), "in"));
    assert_eq!(conditions[0].value, json!(["未対応", "対応中"]));
    // Listed before 以外, they are left out.
    let r = read_instruction("請求.csvで、状態が「完了」「却下」以外の行を x.csv に");
    assert!(filter_conditions(&r).iter().all(|c| c.operator == "ne"), "{:?}", r.steps);
}

#[test]
fn the_first_row_per_key_kept_is_no_total_and_tables_put_in_one_file_are_stacked() {
    let r = read_instruction(
        "取引先一覧.xlsxに同じ取引先コードが何回か出てきてしまっています。取引先コードごとに最初の1行だけを残して重複を削除してください。x.xlsxに保存をお願いします。",
    );
    assert_eq!(ops(&r), ["dedupe"], "{:?}", r.steps);
    let r = read_instruction(
        "東京支店と大阪支店から経費ファイル（経費_東京.csv と 経費_大阪.csv、列は同じです）が届いたので、1つのファイルにまとめて日付順に並べてください。全社.csvで保存をお願いします。",
    );
    assert!(r.combine);
    assert!(
        matches!(&r.steps[..], [Step::Sort { by: Some(by), then, .. }] if by == "日付" && then.is_empty()),
        "{:?}",
        r.steps
    );
    // A column named with 項目 keeps it.
    let r = read_instruction(
        "結果.csvから結果がNGのテストだけ取り出して、テストID・テスト項目・備考の3列にしてください。NG.csvに出力。",
    );
    assert_eq!(r.columns, ["テストID", "テスト項目", "備考"]);
}

#[test]
fn a_file_labelled_last_is_written_and_worst_is_the_low_end_of_a_good_measure() {
    let r = read_instruction(
        "QA summary for the run (regression_run.csv). Per module, count the tests. Columns module, executed, passed, pass_rate, with the worst pass_rate at the top. File: pass_rate_by_module.csv",
    );
    assert_eq!(r.outputs.iter().filter_map(|o| o.path.as_deref()).collect::<Vec<_>>(), ["pass_rate_by_module.csv"]);
    assert!(
        r.steps.iter().any(|s| matches!(s, Step::Sort { by: Some(by), descending: false, .. } if by == "pass_rate")),
        "{:?}",
        r.steps
    );
    let r = read_instruction("Give per module the fail_rate, worst fail_rate first. Save x.csv");
    assert!(
        r.steps.iter().any(|s| matches!(s, Step::Sort { by: Some(by), descending: true, .. } if by == "fail_rate")),
        "{:?}",
        r.steps
    );
}

#[test]
fn columns_listed_before_the_list_word_or_in_brackets_after_the_file_written_are_chosen() {
    let r = read_instruction("受注一覧.xlsx から 受注番号・受注日・得意先・金額 の一覧を作って 一覧.csv に保存");
    assert_eq!(r.columns, ["受注番号", "受注日", "得意先", "金額"]);
    // The columns after the file's name, the key's code and name among them: both are the keys,
    // the total is named as chosen and the order of the top follows it.
    let r = read_instruction(
        "売上.csv、担当者ごとの売上合計の上位3人 → top3.csv（担当者コード・担当者名・売上合計、多い順）",
    );
    assert_eq!(r.columns, ["担当者コード", "担当者名", "売上合計"]);
    let Some(Step::Aggregate { by, aggregations }) = r.steps.first() else { panic!("{:?}", r.steps) };
    assert_eq!(by, &["担当者コード", "担当者名"]);
    assert_eq!(aggregations[0].name.as_deref(), Some("売上合計"));
    assert!(
        matches!(&r.steps[1], Step::Sort { by: Some(by), descending: true, limit: Some(3), .. } if by == "売上合計"),
        "{:?}",
        r.steps
    );
    let r = read_instruction(
        "Read orders.csv and total the amount per customer, columns customer_id, customer_name, total_amount, save as t.csv",
    );
    assert_eq!(r.columns, ["customer_id", "customer_name", "total_amount"]);
    let Some(Step::Aggregate { by, aggregations }) = r.steps.first() else { panic!("{:?}", r.steps) };
    assert_eq!(by, &["customer_id", "customer_name"]);
    assert_eq!(aggregations[0].name.as_deref(), Some("total_amount"));
}

#[test]
fn an_age_said_first_orders_by_the_date_and_rows_kept_by_a_word_keep_their_words() {
    let r = read_instruction("Read bank.csv, keep only the withdrawals, newest first, and save as w.csv");
    assert!(
        r.steps.iter().any(|s| matches!(s, Step::Filter { conditions, .. } if conditions.is_empty())),
        "{:?}",
        r.steps
    );
    assert!(
        r.steps.iter().any(|s| matches!(s, Step::Sort { by: Some(by), descending: true, .. } if by == "date")),
        "{:?}",
        r.steps
    );
    assert!(r.value_words.iter().any(|w| w == "withdrawals"), "{:?}", r.value_words);
    // The top of an order kept is no filter.
    let r = read_instruction("経費.csv を部署ごとに合計して、多い順に上位3部署だけ 上位.csv に保存");
    assert!(!r.steps.iter().any(|s| matches!(s, Step::Filter { .. })), "{:?}", r.steps);
}

#[test]
fn people_counted_beside_a_total_and_an_order_by_what_is_measured_are_read() {
    let r = read_instruction(
        "給与.csv から、部門ごとの人数と総支給額の合計を出して、合計の大きい部門から順に並べて 部門別.xlsx で保存",
    );
    let Some(Step::Aggregate { by, aggregations }) = r.steps.first() else { panic!("{:?}", r.steps) };
    assert_eq!(by, &["部門"]);
    let ops: Vec<(&str, Option<&str>)> = aggregations.iter().map(|a| (a.op, a.field.as_deref())).collect();
    assert_eq!(ops, [("count", None), ("sum", Some("総支給額"))]);
    assert!(matches!(&r.steps[1], Step::Sort { by: Some(by), descending: true, .. } if by == "合計"), "{:?}", r.steps);
    // 「人数の合計」 totals a column of that name.
    let r = read_instruction("研修.csv の人数の合計を部署ごとに出して a.csv に保存");
    let Some(Step::Aggregate { aggregations, .. }) = r.steps.first() else { panic!("{:?}", r.steps) };
    assert!(aggregations.iter().all(|a| a.op == "sum"), "{aggregations:?}");
}

#[test]
fn the_most_of_a_thing_counted_the_rows_of_a_build_and_an_alphabetical_listing_are_read() {
    let r = read_instruction(
        "Read test_runs.csv, keep only the runs from build 4812, count the failed tests per suite, most failures first, and save as x.csv with two columns: suite and failed count",
    );
    assert!(
        filter_conditions(&r).iter().any(|c| c.field.as_deref() == Some("build") && c.value == json!(4812)),
        "{:?}",
        r.steps
    );
    assert_eq!(r.columns, ["suite", "failed count"]);
    assert!(
        r.steps.iter().any(|s| matches!(s, Step::Sort { by: Some(by), descending: true, .. } if by == "failed count")),
        "the count, most first: {:?}",
        r.steps
    );
    // "orders from March 2026" is a period, no column.
    let r = read_instruction("Read orders.csv, keep the orders from March 2026 and save as m.csv");
    assert!(!filter_conditions(&r).iter().any(|c| c.field.as_deref() == Some("March")), "{:?}", r.steps);
    let r = read_instruction(
        "Total the cost per asset category, with the number of assets in each category; disposed assets are to be left out. The categories should be listed alphabetically. Read fixed_assets.xlsx and save as c.xlsx.",
    );
    let at = |name: &str| r.steps.iter().position(|s| s.name() == name);
    assert!(at("filter") < at("aggregate"), "the rows left out before the totals: {:?}", r.steps);
    assert!(
        matches!(r.steps.iter().find(|s| s.name() == "aggregate"), Some(Step::Aggregate { by, .. }) if by == &["asset category"]),
        "{:?}",
        r.steps
    );
    assert!(
        r.steps.iter().any(|s| matches!(s, Step::Sort { by: Some(by), descending: false, .. } if by == "category")),
        "{:?}",
        r.steps
    );
    assert!(r.value_words.iter().any(|w| w == "disposed"), "{:?}", r.value_words);
}

#[test]
fn rows_exactly_the_same_appear_once_and_an_arrow_between_steps_ends_a_clause() {
    let r = read_instruction(
        "Combine a.csv and b.csv into one file; rows that are exactly the same should only appear once. Sort by date and save as c.csv",
    );
    assert!(
        r.steps.iter().any(|s| matches!(s, Step::Duplicates { by, remove: true, .. } if by.is_empty())),
        "whole rows, each once: {:?}",
        r.steps
    );
    let r = read_instruction(
        "在庫.csv：在庫が発注点を下回っている品目を抽出→発注数（発注点の2倍から在庫を引いた数）を付けて品番順→発注.csv",
    );
    assert!(
        filter_conditions(&r).iter().any(|c| c.field.as_deref() == Some("在庫") && c.operator == "lt"),
        "{:?}",
        r.steps
    );
    assert!(
        r.steps.iter().any(|s| matches!(s, Step::Formula { name, formula, .. }
            if name == "発注数" && formula == "[発注点] * 2 - [在庫]")),
        "a multiple of a column less another, named before its brackets: {:?}",
        r.steps
    );
    assert!(r.steps.iter().any(|s| matches!(s, Step::Sort { by: Some(by), .. } if by == "品番")), "{:?}", r.steps);
    assert_eq!(r.outputs[0].path.as_deref(), Some("発注.csv"));
}

#[test]
fn a_column_said_by_what_it_holds_the_rows_a_list_is_of_and_a_value_excepted_twice_are_read() {
    let r = read_instruction(
        "I need the bugs from bugs.csv that are critical and not closed yet (any status except Closed). Only the ID, the title and who owns it (the assignee), in that order, oldest report first. Save it as b.csv",
    );
    assert_eq!(r.columns, ["ID", "title", "assignee"]);
    let closed_left_out = |r: &Reading| {
        r.steps.iter().any(|s| match s {
            Step::Filter { exclude, conditions } => {
                let op = if *exclude { "eq" } else { "ne" };
                conditions.iter().all(|c| c.operator == op && c.value == json!("closed"))
            }
            _ => false,
        })
    };
    assert!(closed_left_out(&r), "Closed rows are left out, not the others: {:?}", r.steps);
    let r = read_instruction(
        "I need the bugs from bugs.csv that are critical and not closed yet (any status except Closed; Resolved still counts as not closed for us). Save it as b.csv",
    );
    assert!(closed_left_out(&r), "Closed rows are left out, not the others: {:?}", r.steps);
    // "Leave out the ones that aren't approved" keeps its double negative.
    let r = read_instruction("Read a.csv, leave out the ones whose status isn't approved, and save b.csv");
    assert!(
        !r.steps.iter().any(
            |s| matches!(s, Step::Filter { exclude: true, conditions } if conditions.iter().any(|c| c.operator == "eq"))
        ),
        "{:?}",
        r.steps
    );
    let r = read_instruction(
        "Which requirements have no test case? Use requirements.csv and cases.csv. Just the requirement ID, title and priority of the uncovered ones -> u.csv",
    );
    assert_eq!(r.columns, ["requirement ID", "title", "priority"]);
}

#[test]
fn a_month_named_after_its_date_is_computed_and_rows_put_together_by_a_key_ask_for_no_report() {
    let r = read_instruction(
        "固定資産.xlsx から、取得月ごとにまとめてください。列は 取得月・件数・取得価額合計 で、取得月の順に。保存先：集計.csv",
    );
    assert!(
        r.steps.iter().any(
            |s| matches!(s, Step::Compute { name, operation: "month", of, .. } if name == "取得月" && of == &["取得日"])
        ),
        "{:?}",
        r.steps
    );
    let Some(Step::Aggregate { aggregations, .. }) = r.steps.iter().find(|s| s.name() == "aggregate") else {
        panic!("{:?}", r.steps)
    };
    assert!(
        aggregations.iter().any(|a| a.op == "sum" && a.field.as_deref() == Some("取得価額")),
        "the total its name says: {aggregations:?}"
    );
    assert_eq!(r.outputs.len(), 1, "{:?}", r.outputs);
    // 「年月ごと」 is no date's month; a total's name that says no amount names no column.
    let r = read_instruction("売上.csv を年月ごとに集計して、列は 年月・受注合計 で a.csv に保存");
    assert!(!r.steps.iter().any(|s| matches!(s, Step::Compute { of, .. } if of == &["年日"])), "{:?}", r.steps);
    let r = read_instruction("旅費.csv に税込額（税抜額×1.1、1円未満切り捨て）の列を追加して b.xlsx に保存");
    assert!(
        r.steps.iter().any(|s| matches!(s, Step::Compute { name, operation: "product", .. } if name == "税込額")),
        "named before its brackets: {:?}",
        r.steps
    );
}

#[test]
fn a_verb_that_writes_one_file_reads_the_next_and_a_name_written_as_one_names_its_formula() {
    let r = read_instruction(
        "Make me over.csv: the customers in credit.csv (the Tokyo office's export) whose balance is above their credit limit. I need customer code, customer name, credit limit, balance and over_by (balance minus credit limit), biggest over_by first.",
    );
    assert_eq!(r.sources.iter().filter_map(|s| s.path.as_deref()).collect::<Vec<_>>(), ["credit.csv"]);
    assert_eq!(r.outputs.iter().filter_map(|o| o.path.as_deref()).collect::<Vec<_>>(), ["over.csv"]);
    assert_eq!(r.columns, ["customer code", "customer name", "credit limit", "balance", "over_by"]);
    assert!(
        r.steps.iter().any(|s| matches!(s, Step::Compute { name, operation: "difference", .. } if name == "over_by")),
        "{:?}",
        r.steps
    );
    let r = read_instruction("Give me the rows of bank.csv whose reference is not in ledger.csv, as unrecorded.csv.");
    assert_eq!(r.outputs.iter().filter_map(|o| o.path.as_deref()).collect::<Vec<_>>(), ["unrecorded.csv"]);
}

#[test]
fn what_was_counted_against_the_system_compares_two_columns_and_a_list_ends_with_the_named_formula() {
    let r = read_instruction(
        "Attached is the count sheet (count.xlsx). Could you list the items where what we counted doesn't match the system? For each one I need the SKU, the item description, the system qty, the counted qty and the variance (counted minus system). Save it as v.csv.",
    );
    assert!(!r.steps.iter().any(|s| matches!(s, Step::Join { .. })), "one file, no match of tables: {:?}", r.steps);
    assert!(
        filter_conditions(&r).iter().any(|c| c.field.as_deref() == Some("counted")
            && c.operator == "ne"
            && c.value == json!({ "column": "system" })),
        "{:?}",
        r.steps
    );
    assert_eq!(r.columns, ["SKU", "item description", "system qty", "counted qty", "variance"]);
    assert!(
        r.steps.iter().any(|s| matches!(s, Step::Compute { name, operation: "difference", .. } if name == "variance")),
        "{:?}",
        r.steps
    );
}

#[test]
fn a_screen_named_as_a_column_is_no_page_and_two_columns_both_the_same_are_the_keys() {
    let r = read_instruction(
        "バグ管理表.xlsx で、重複して起票されていそうなものを洗い出したいです。画面と件名がどちらも同じ行が2件以上あるものについて、最初の起票分も含めてその全行を出してください。→ 重複候補.csv",
    );
    assert!(!r.steps.iter().any(|s| matches!(s, Step::Browser { .. })), "{:?}", r.steps);
    assert!(
        matches!(r.steps.as_slice(), [Step::Duplicates { by, remove: false, .. }] if by == &["画面", "件名"]),
        "{:?}",
        r.steps
    );
    // A comma ends a clause: 「…csv に、同じ社員番号の行」 pairs no columns.
    let r = read_instruction(
        "社員マスタ.csv に、同じ社員番号の行が重複して入っています。社員番号ごとに1行にしてください。",
    );
    assert!(r.steps.iter().any(|s| matches!(s, Step::Duplicates { by, .. } if by == &["社員番号"])), "{:?}", r.steps);
}

#[test]
fn a_measure_named_after_its_number_and_a_formula_in_brackets_after_a_listed_name() {
    let r = read_instruction(
        "hey, can u pull everyone from payroll.csv who logged more than 10 OT hours? want name, dept, ot hours and ot pay (ot hours x hourly rate x 1.5, rounded to 2 decimals), biggest ot pay first. save as ot.csv thx",
    );
    assert!(
        filter_conditions(&r).iter().any(|c| c.field.as_deref() == Some("ot hours") && c.operator == "gt"),
        "the words after the number name the column, not \"who logged\": {:?}",
        r.steps
    );
    assert!(
        r.steps.iter().any(|s| matches!(s, Step::Formula { name, formula, .. }
            if name == "ot pay" && formula == "[ot hour] * [hourly rate] * 1.5")),
        "the whole bracket, its number too: {:?}",
        r.steps
    );
    assert!(!r.steps.iter().any(|s| matches!(s, Step::Compute { operation: "product", .. })), "{:?}", r.steps);
    assert_eq!(r.columns, ["name", "dept", "ot hours", "ot pay"]);
    // "calendar" says how days are counted, not what.
    let r = read_instruction("keep the bills more than 30 calendar days overdue and save late.csv");
    assert!(filter_conditions(&r).iter().any(|c| c.field.as_deref() == Some("days overdue")), "{:?}", r.steps);
    // A name that is an operand of its formula names no new column.
    let r = read_instruction("From b.csv list the actual and the budget (budget - actual + 100) and save c.csv");
    assert!(!r.steps.iter().any(|s| matches!(s, Step::Formula { name, .. } if name == "budget")), "{:?}", r.steps);
}

#[test]
fn keys_paid_more_than_twice_with_their_count_and_total_listed_after_the_key() {
    let r = read_instruction(
        "Which vendors did we pay more than twice in March 2026? It's all in vendor_payments.csv. Give me the vendor, the number of March payments and the total paid in March, most payments first (if two vendors have the same count, the bigger total first). File: f.csv",
    );
    let [Step::Filter { conditions: month, .. }, Step::Aggregate { by, aggregations }, Step::Filter { conditions: kept, .. }, Step::Sort { by: sorted, descending: true, then, .. }] =
        r.steps.as_slice()
    else {
        panic!("one month kept, totals per vendor, those paid more than twice, sorted: {:?}", r.steps)
    };
    assert_eq!(month.len(), 1, "March said again without its year is the same month: {month:?}");
    assert_eq!(by, &["vendor"]);
    assert!(aggregations.iter().any(|a| a.op == "count"), "{aggregations:?}");
    assert!(
        aggregations
            .iter()
            .any(|a| a.op == "sum" && a.field.as_deref() == Some("amount") && a.name.as_deref() == Some("total_paid")),
        "the total paid is of the amounts, no state \"paid\": {aggregations:?}"
    );
    assert!(kept.iter().any(|c| c.field.as_deref() == Some("count") && c.operator == "gt" && c.value == json!(2)));
    assert_eq!(sorted.as_deref(), Some("count"));
    assert_eq!(then, &[("total".to_owned(), true)], "the tie broken by the bigger total");
}

#[test]
fn the_other_side_of_a_match_is_read_and_two_amounts_not_the_same_are_compared() {
    let r = read_instruction(
        "1. Match each line of bank_march.csv to ledger_march.csv on the reference (ref in the bank file, doc_ref in the ledger).\n2. Keep only the matched pairs where the bank amount and the ledger amount are not the same.\n3. Save as m.csv.",
    );
    let sources: Vec<Option<&str>> = r.sources.iter().map(|s| s.path.as_deref()).collect();
    assert_eq!(sources, [Some("bank_march.csv"), Some("ledger_march.csv")]);
    assert_eq!(r.outputs.iter().map(|o| o.path.as_deref()).collect::<Vec<_>>(), [Some("m.csv")]);
    let Some(Step::Join { side_keys, .. }) = r.steps.first() else { panic!("{:?}", r.steps) };
    assert_eq!(side_keys, &[("bank".to_owned(), "ref".to_owned()), ("ledger".to_owned(), "doc_ref".to_owned())]);
    assert!(
        filter_conditions(&r).iter().any(|c| c.field.as_deref() == Some("bank")
            && c.operator == "ne"
            && c.value == json!({ "column": "ledger" })),
        "{:?}",
        r.steps
    );
}

#[test]
fn a_dash_list_with_a_title_row_aside_next_month_and_columns_is_read_item_by_item() {
    let r = read_instruction(
        "Contracts coming up for renewal:\n- source: contracts.xlsx (the first line of the sheet is a title, the header is on line 2)\n- today is 2026-12-14; I want the contracts whose end date falls next month\n- columns: contract no, vendor, end date, annual value, owner\n- order by end date, and by contract no when two end on the same day\n- output: renewals.xlsx",
    );
    assert_eq!(r.sources.len(), 1);
    assert_eq!(r.sources[0].sheet, None, "\"the sheet is a title\" names no sheet \"is\"");
    assert!(
        !r.steps.iter().any(|s| matches!(s, Step::Duplicates { .. })),
        "the first line of a sheet is no key: {:?}",
        r.steps
    );
    assert!(
        filter_conditions(&r).iter().any(|c| c.field.as_deref() == Some("end date")
            && c.operator == "between"
            && c.value == json!("2027-01-01")
            && c.value2 == Some(json!("2027-01-31"))),
        "next month from the day stated, on the column said before \"falls\": {:?}",
        r.steps
    );
    assert_eq!(
        r.columns,
        ["contract no", "vendor", "end date", "annual value", "owner"],
        "the list ends with its line"
    );
}

#[test]
fn lines_w_o_a_claim_are_the_unmatched_ones_and_any_order_sorts_nothing() {
    let r = read_instruction(
        "card stmt lines w/o an expense claim: card_statement_nov.csv vs expense_claims.csv, match 取引番号 to card_txn_ref (ref only, ignore amounts). keep all the statement columns, any order → unclaimed.csv",
    );
    assert!(matches!(r.steps.as_slice(), [Step::Join { unmatched: true, .. }]), "{:?}", r.steps);
    let r = read_instruction("同じ伝票番号の行を1行にして 結果.csv に保存。順番は問いません");
    assert!(!r.steps.iter().any(|s| matches!(s, Step::Sort { .. })), "{:?}", r.steps);
}

#[test]
fn which_regions_sold_the_most_are_the_top_totals_and_drop_it_in_a_file_writes_it() {
    let r = read_instruction(
        "quick one - which 3 regions sold the most in Q1 (Jan 1 to Mar 31 2026)? use sales_2026.csv, just region + total sales, biggest first, drop it in q1.csv",
    );
    assert!(
        !r.steps.iter().any(|s| matches!(s, Step::Filter { exclude: true, .. })),
        "\"drop it in\" leaves no rows out: {:?}",
        r.steps
    );
    let [Step::Filter { .. }, Step::Aggregate { by, aggregations }, Step::Sort { by: sorted, descending: true, limit: Some(3), .. }] =
        r.steps.as_slice()
    else {
        panic!("the quarter, totals per region, the top 3 once: {:?}", r.steps)
    };
    assert_eq!(by, &["region"]);
    assert_eq!(aggregations[0].field.as_deref(), Some("amount"));
    assert_eq!(sorted.as_deref(), aggregations[0].name.as_deref());
    assert_eq!(r.outputs.iter().map(|o| o.path.as_deref()).collect::<Vec<_>>(), [Some("q1.csv")]);
    // "had the highest total sales": the total of what is measured, even a word rows are called.
    let r = read_instruction("Which three regions had the highest total sales? Use sales.csv and save top.csv");
    assert!(
        matches!(r.steps.as_slice(), [Step::Aggregate { by, aggregations }, Step::Sort { limit: Some(3), descending: true, .. }]
            if by == &["region"] && aggregations[0].field.as_deref() == Some("sales")),
        "{:?}",
        r.steps
    );
}

#[test]
fn japanese_keys_said_only_arrows_between_sort_keys_and_a_topic_totalled_before_its_key() {
    let r = read_instruction(
        "請求一覧.csv の請求書のうち、入金明細.csv に請求番号が出てこないものを一覧にしてください。照合は請求番号だけで、金額は見なくて大丈夫です。未消込一覧.csv でお願いします。",
    );
    assert!(
        matches!(r.steps.as_slice(), [Step::Join { key: Some(key), unmatched: true, .. }] if key == "請求番号"),
        "the key said to be the only one keeps no rows: {:?}",
        r.steps
    );
    let r = read_instruction("交通費.csv の重複を全部出して、並びは社員番号→利用日→Noの順で 結果.csv に保存");
    assert!(
        r.steps.iter().any(|s| matches!(s, Step::Sort { by: Some(by), then, .. }
            if by == "社員番号" && then == &[("利用日".to_owned(), false), ("No".to_owned(), false)])),
        "{:?}",
        r.steps
    );
    let r = read_instruction(
        "11月分の経費精算の集計をお願いします。\n・対象：経費精算.csv のうち、状態が承認済のものだけ\n・部署ごとに件数・合計金額\n・保存先：部署別.csv",
    );
    let totals: Vec<&Step> = r.steps.iter().filter(|s| matches!(s, Step::Aggregate { .. })).collect();
    assert!(matches!(totals.as_slice(), [Step::Aggregate { by, .. }] if by == &["部署"]), "{:?}", r.steps);
}

#[test]
fn a_file_heading_the_text_with_a_colon_is_written_when_nothing_else_is() {
    let r = read_instruction(
        "未受講者.csv：研修対象者.csv の社員のうち、受講記録.csv に記録がない人。列は社員番号・氏名・部署、社員番号順。",
    );
    assert_eq!(r.outputs.iter().map(|o| o.path.as_deref()).collect::<Vec<_>>(), [Some("未受講者.csv")]);
    assert_eq!(r.sources.len(), 2, "{:?}", r.sources);
    // A file heading the text is read when another is written.
    let r = read_instruction("売掛金一覧.csv：期日を過ぎたものを抽出→超過.csv");
    assert_eq!(r.outputs.iter().map(|o| o.path.as_deref()).collect::<Vec<_>>(), [Some("超過.csv")]);
}

#[test]
fn the_latest_version_by_a_date_in_brackets_a_quoted_no_and_the_soonest_first() {
    let r = read_instruction(
        "Hi team - the CRM export (subs.csv) has some subscriptions on several rows because every edit adds a new line. Keep just the latest version of each subscription_id (the row with the newest last_updated), then pull the ones where auto renew is \"no\" - the CSMs need to call those. Give me subscription id, customer, renewal date and ARR, soonest renewal first, as manual.csv. Thanks!",
    );
    let [Step::LatestPerKey { by, order_by, newest: true }, Step::Filter { conditions, exclude: false }, Step::Sort { by: sorted, descending: false, .. }] =
        r.steps.as_slice()
    else {
        panic!("{:?}", r.steps)
    };
    assert_eq!((by.as_slice(), order_by.as_str()), (&["subscription_id".to_owned()][..], "last_updated"));
    assert_eq!(conditions[0].value, json!("no"), "a quoted no is the value, no comparison: {conditions:?}");
    assert_eq!(sorted.as_deref(), Some("renewal"));
    assert!(
        !r.value_words.iter().any(|w| w.eq_ignore_ascii_case("team")),
        "a greeting keeps no rows: {:?}",
        r.value_words
    );
    // "no more than" still compares.
    let r = read_instruction("keep the rows where the amount is no more than 50 and save b.csv");
    assert!(filter_conditions(&r).iter().any(|c| c.operator == "lte"), "{:?}", r.steps);
}

#[test]
fn a_plus_b_combinations_are_the_duplicate_keys_and_then_after_a_sorted_key_is_the_next() {
    let r = read_instruction(
        "2) Find the order_no + sku combinations that were refunded more than once in a.csv.\n3) Write out every return line for those combinations, sorted by order_no then return_id, to b.csv.",
    );
    assert!(
        r.steps.iter().any(|s| matches!(s, Step::Duplicates { by, remove: false, .. } if by == &["order_no", "sku"])),
        "{:?}",
        r.steps
    );
    assert!(
        r.steps.iter().any(|s| matches!(s, Step::Sort { by: Some(by), then, .. }
            if by == "order_no" && then == &[("return_id".to_owned(), false)])),
        "{:?}",
        r.steps
    );
    // A "then" between steps is no sort key.
    let r = read_instruction("Keep the Paid ones then save a.csv to b.csv");
    assert!(!r.steps.iter().any(|s| matches!(s, Step::Sort { .. })), "{:?}", r.steps);
}

#[test]
fn a_step_before_an_arrow_then_the_top_rows_with_their_columns_in_brackets() {
    let r = read_instruction(
        "返品データ.csv、同じ返品番号の行が二重に入ってるので返品番号ごとに1行にしてから、商品別に返品数量を合計→多い順に上位3商品（商品コード・商品名・数量合計）→返品TOP3.xlsx",
    );
    assert!(r.unplaced.is_empty() && r.value_orders.is_empty(), "「合計→多い順」 lists no values: {:?}", r.unplaced);
    assert_eq!(r.columns, ["商品コード", "商品名", "数量合計"]);
    let [Step::Duplicates { .. }, Step::Aggregate { by, aggregations }, Step::Sort { by: sorted, descending: true, limit: Some(3), .. }] =
        r.steps.as_slice()
    else {
        panic!("{:?}", r.steps)
    };
    assert_eq!(by, &["商品コード", "商品名"], "the product by its code and name, as listed");
    assert_eq!(aggregations[0].field.as_deref(), Some("返品数量"));
    assert_eq!(sorted.as_deref(), aggregations[0].name.as_deref());
}

#[test]
fn two_columns_named_before_their_formulas_a_field_before_its_aside_and_a_fiscal_year_order() {
    let r = read_instruction(
        "1. 予算.xlsx と 実績.csv を勘定科目コードで突き合わせる\n2. 差異（実績額−予算額）と消化率（実績額÷予算額×100、小数第1位までで四捨五入）を計算\n3. 差異の大きい順に並べて 超過.xlsx で保存",
    );
    assert!(
        matches!(r.steps.first(), Some(Step::Join { unmatched: false, .. })),
        "a 差異 computed is no unmatched row: {:?}",
        r.steps
    );
    let computed: Vec<(&str, &str)> = r
        .steps
        .iter()
        .filter_map(|s| match s {
            Step::Compute { name, operation, .. } if *operation != "round" => Some((name.as_str(), *operation)),
            _ => None,
        })
        .collect();
    assert_eq!(computed, [("差異", "difference"), ("消化率", "percent")], "{:?}", r.steps);
    let r = read_instruction(
        "売上_前年度.csv と 売上_今年度.csv を月で突き合わせて、前年比（今年度÷前年度×100）が100%未満の月を、4月から年度の順に並べて 前年割れ月.csv に出して",
    );
    assert!(
        filter_conditions(&r).iter().any(|c| c.field.as_deref() == Some("前年比") && c.operator == "lt"),
        "the column named before its aside: {:?}",
        r.steps
    );
    let months: Vec<&str> = r
        .value_orders
        .iter()
        .find(|(c, _)| c == "月")
        .map(|(_, v)| v.iter().map(String::as_str).collect())
        .unwrap_or_default();
    assert_eq!(months.first().copied(), Some("4月"));
    assert_eq!(months.last().copied(), Some("3月"));
    assert_eq!(months.len(), 12);
}

#[test]
fn a_dash_list_in_japanese_a_lookup_by_code_said_after_the_days_kept_and_a_number_key_sort() {
    let r = read_instruction(
        "配送遅延.csv を作成してください。\n- 元データ：出荷実績.xlsx（シート「出荷」）\n- 遅延日数＝配達日−予定日、2日以上遅れたものだけ\n- 業者名は 配送業者.csv から配送業者コードで引く\n- 列：伝票番号、業者名、予定日、配達日、遅延日数\n- 遅延日数の大きい順、同じ日数なら伝票番号順",
    );
    assert_eq!(r.columns, ["伝票番号", "業者名", "予定日", "配達日", "遅延日数"]);
    let [Step::Join { key: Some(key), bring, .. }, Step::Compute { name, operation: "difference", of, .. }, Step::Filter { conditions, .. }, Step::Sort { by: Some(sorted), then, .. }] =
        r.steps.as_slice()
    else {
        panic!("the lookup first, then the days, those late by 2 or more, sorted: {:?}", r.steps)
    };
    assert_eq!((key.as_str(), bring.as_slice()), ("配送業者コード", &["業者名".to_owned()][..]));
    assert_eq!(
        (name.as_str(), of.as_slice()),
        ("遅延日数", &["配達日".to_owned(), "予定日".to_owned()][..]),
        "a list's dash is no minus"
    );
    assert_eq!(conditions[0].field.as_deref(), Some("遅延日数"));
    assert_eq!((sorted.as_str(), then.as_slice()), ("遅延日数", &[("伝票番号".to_owned(), false)][..]));
}

#[test]
fn two_stores_put_together_two_columns_totalled_and_the_oldest_month_first() {
    let r = read_instruction(
        "渋谷店と新宿店の売上日報（売上日報_渋谷店.csv、売上日報_新宿店.csv）をくっつけて、月ごとの売上と客数の合計を出してもらえる？2店舗合算で、月は 2026-10 みたいな形で、古い月から。ファイルは月別売上_2店舗.csv で！",
    );
    assert!(r.combine, "the two files are put one under the other");
    let aggregated: Vec<Option<&str>> = r
        .steps
        .iter()
        .find_map(|s| match s {
            Step::Aggregate { by, aggregations } if by == &["月"] => {
                Some(aggregations.iter().map(|a| a.field.as_deref()).collect())
            }
            _ => None,
        })
        .unwrap_or_default();
    assert_eq!(aggregated, [Some("売上"), Some("客数")], "{:?}", r.steps);
    assert!(
        r.steps.iter().any(|s| matches!(s, Step::Sort { by: Some(by), descending: false, .. } if by == "月")),
        "{:?}",
        r.steps
    );
    // 「件数と金額」: the count is one of its own, not a column totalled.
    let r = read_instruction("経費.csv を部署ごとに件数と金額を集計して 結果.csv");
    let Some(Step::Aggregate { aggregations, .. }) = r.steps.first() else { panic!("{:?}", r.steps) };
    assert_eq!(aggregations.len(), 2, "{aggregations:?}");
    // A lookup that brings columns puts no rows together.
    let r = read_instruction(
        "売上に得意先の情報をくっつけたいです。\n・uriage.csv の各行に、master.csv から 得意先名 と 担当営業 を持ってくる（キーは 得意先コード）\n・→ out.csv",
    );
    assert!(!r.combine, "{:?}", r.steps);
}

#[test]
fn today_less_a_date_counts_days_to_the_day_stated_and_past_it_keeps_those_over_none() {
    let r = read_instruction(
        "売掛金一覧.csv：本日2026/12/10時点で期日を過ぎた未入金分を抽出（期日当日はまだ超過扱いしない）。超過日数＝本日−期日 を追加。列は請求番号・得意先・期日・金額・超過日数、超過日数の長い順→期日超過.csv",
    );
    assert_eq!(
        r.columns,
        ["請求番号", "得意先", "期日", "金額", "超過日数"],
        "「超過日数」 is a column, no filter word"
    );
    let days = r.steps.iter().position(|s| {
        matches!(s, Step::DaysUntil { name, from, until } if name == "超過日数" && from == "期日" && until == "2026-12-10")
    });
    let Some(at) = days else { panic!("{:?}", r.steps) };
    assert!(
        matches!(&r.steps[at + 1], Step::Filter { conditions, .. }
            if conditions.iter().any(|c| c.field.as_deref() == Some("超過日数") && c.operator == "gt" && c.value == json!(0))),
        "the day itself is not past it: {:?}",
        r.steps
    );
    // With no day stated, today is not guessed: the difference stays as said (and is asked).
    let r = read_instruction("売掛金一覧.csv に 超過日数＝本日−期日 を追加して 結果.csv に保存");
    assert!(!r.steps.iter().any(|s| matches!(s, Step::DaysUntil { .. })), "{:?}", r.steps);
}

#[test]
fn a_date_column_written_as_a_name_is_compared_with_a_date_and_an_amount_due_is_none() {
    let r =
        read_instruction("From equipment.csv take every asset whose next_due is on or before 2026-12-21. Save b.csv");
    assert!(
        filter_conditions(&r).iter().any(|c| c.field.as_deref() == Some("next_due") && c.operator == "lte"),
        "{:?}",
        r.steps
    );
    let r = read_instruction(
        "From equipment.csv take the assets due soon, i.e. next_due on or before 2026-12-21. Save b.csv",
    );
    assert!(filter_conditions(&r).iter().any(|c| c.field.as_deref() == Some("next_due")), "{:?}", r.steps);
    let r = read_instruction("From a.csv keep the lines with an amount due before 2026-12-01, save b.csv");
    assert!(!filter_conditions(&r).iter().any(|c| c.field.as_deref() == Some("amount due")), "{:?}", r.steps);
}

#[test]
fn rows_that_were_due_before_a_date_name_no_column_were_due() {
    let r = read_instruction("Please pull the invoices from ar.csv that were due before November 15, 2026. Save b.csv");
    assert!(filter_conditions(&r).iter().any(|c| c.operator == "lt" && c.field.is_none()), "{:?}", r.steps);
}

#[test]
fn two_totals_compared_are_compared_after_the_grouping_that_totals_them() {
    for text in [
        "仕訳帳.xlsx、伝票ごとに借方と貸方の合計が合ってないやつ洗い出して 結果.csv で",
        "取引先ごとに請求額と入金額を合計し、請求額と入金額が一致しない取引先だけ残す",
    ] {
        let r = read_instruction(text);
        let grouping = r.steps.iter().position(|s| matches!(s, Step::Aggregate { .. }));
        let compared = r.steps.iter().position(|s| {
            matches!(s, Step::Filter { conditions, .. }
                if conditions.iter().any(|c| c.operator == "ne" && c.value.get("column").is_some()))
        });
        assert!(matches!((grouping, compared), (Some(g), Some(c)) if c == g + 1), "{text}: {:?}", r.steps);
        let Some(Step::Filter { conditions, .. }) = compared.map(|c| &r.steps[c]) else { unreachable!() };
        assert!(conditions.iter().all(|c| !c.field.as_deref().unwrap_or_default().starts_with('に')), "{conditions:?}");
    }
    // Columns of each row compared still keep rows before they are totalled.
    let r = read_instruction("入金日が入金予定日と違っている行を取引先ごとに件数で数えて");
    assert!(matches!(&r.steps[..], [Step::Filter { .. }, Step::Aggregate { .. }]), "{:?}", r.steps);
}

#[test]
fn rows_of_someone_who_is_not_in_another_file_are_the_unmatched_ones() {
    let r = read_instruction(
        "which seats in seats.csv belong to someone who isn't in staff.csv? match on employee id. need license id, product, employee id and the email it's assigned to. any order, put it in out.csv",
    );
    assert!(matches!(&r.steps[..], [Step::Join { unmatched: true, .. }]), "{:?}", r.steps);
    assert_eq!(r.columns, ["license id", "product", "employee id", "email"]);
    // "if … isn't in the list, leave them blank" keeps every row: no unmatched rows asked for.
    let r = read_instruction(
        "add the supplier name from suppliers.csv onto each bill in bills.csv, match on vendor id; if a bill's vendor id isn't in the supplier list, leave it blank. Output out.csv",
    );
    assert!(matches!(&r.steps[..], [Step::Join { unmatched: false, .. }]), "{:?}", r.steps);
}

#[test]
fn a_column_named_after_the_screen_is_no_page_and_each_column_said_the_same_is_a_key() {
    let r = read_instruction(
        "不具合一覧.csv から同じ画面IDで現象がまったく同じ不具合が2件以上あるものを、まとめずに全件出してほしいです。列は不具合ID・画面ID・現象、画面ID順→起票日順で、再発.csv に出力",
    );
    assert!(!r.steps.iter().any(|s| matches!(s, Step::Browser { .. })), "{:?}", r.steps);
    assert!(
        r.steps.iter().any(|s| matches!(s, Step::Duplicates { by, remove: false, .. } if by == &["画面ID", "現象"])),
        "{:?}",
        r.steps
    );
    assert!(
        r.steps.iter().any(|s| matches!(s, Step::Sort { by: Some(by), then, .. }
            if by == "画面ID" && then.first().is_some_and(|(k, _)| k == "起票日"))),
        "{:?}",
        r.steps
    );
    // A screen itself is still a page to open.
    let r = read_instruction("ポータルの画面で今月の明細をダウンロードして");
    assert!(r.steps.iter().any(|s| matches!(s, Step::Browser { .. })), "{:?}", r.steps);
}

#[test]
fn three_columns_all_the_same_are_the_keys_of_duplicates_and_the_columns_listed_with_the_rows_are_shown() {
    let r = read_instruction(
        "Could you check payments.csv for possible double payments? I'd call it a duplicate when the vendor, the invoice number and the amount are all the same. Please list every payment in those groups with payment id, vendor, invoice no, amount and paid date, ordered by vendor, and save it as dups.csv.",
    );
    assert!(
        r.steps.iter().any(|s| matches!(s, Step::Duplicates { by, remove: false, .. }
            if by == &["vendor", "invoice number", "amount"])),
        "{:?}",
        r.steps
    );
    assert_eq!(r.columns, ["payment id", "vendor", "invoice no", "amount", "paid date"]);
    assert!(!r.steps.iter().any(|s| matches!(s, Step::Filter { .. })), "{:?}", r.steps);
    // The verb of the request is no value of the data ("Check", a payment method).
    assert!(!r.mentioned_words.iter().any(|w| w == "check"), "{:?}", r.mentioned_words);
    // Two columns of one row the same is no duplicate check.
    let r = read_instruction("From a.csv keep the rows where billed and paid are all the same, save b.csv");
    assert!(!r.steps.iter().any(|s| matches!(s, Step::Duplicates { .. })), "{:?}", r.steps);
}

#[test]
fn a_column_named_inside_an_aside_is_the_column_of_its_condition() {
    let r = read_instruction("まだ精算していない（精算状況が「未精算」の）立替金を社員ごとに合計して 結果.csv に");
    assert!(
        filter_conditions(&r).iter().any(|c| c.field.as_deref() == Some("精算状況") && c.value == json!("未精算")),
        "{:?}",
        r.steps
    );
}

#[test]
fn a_column_defined_in_an_aside_is_computed_first_and_a_count_of_times_is_compared() {
    let r = read_instruction(
        "品目別在庫.xlsx をもとに、在庫回転率＝売上原価÷平均在庫（平均在庫は（期首在庫金額＋期末在庫金額）÷2）を計算し、回転率が3回未満の品目を、回転率の低い順に、品目コード・品目名・平均在庫・回転率の列で 結果.csv に",
    );
    let computed: Vec<&str> = r
        .steps
        .iter()
        .filter_map(|s| match s {
            Step::Compute { name, .. } => Some(name.as_str()),
            _ => None,
        })
        .collect();
    assert_eq!(computed.first(), Some(&"平均在庫"), "{:?}", r.steps);
    assert!(computed.contains(&"在庫回転率"), "{:?}", r.steps);
    assert!(
        filter_conditions(&r).iter().any(|c| c.operator == "lt" && c.value == json!(3)),
        "「3回未満」: {:?}",
        r.steps
    );
    assert_eq!(r.columns, ["品目コード", "品目名", "平均在庫", "回転率"]);
}

#[test]
fn a_name_offered_last_is_written_and_most_hours_first_is_by_the_total() {
    let r = read_instruction(
        "can you stack the two weekly timesheets (wk48.csv and wk49.csv), keep the billable time only and total the hours by project? most hours first. billable_hours.csv is fine.",
    );
    let sources: Vec<&str> = r.sources.iter().filter_map(|s| s.path.as_deref()).collect();
    assert_eq!(sources, ["wk48.csv", "wk49.csv"]);
    assert_eq!(r.outputs.first().and_then(|o| o.path.as_deref()), Some("billable_hours.csv"));
    assert!(
        r.steps.iter().any(|s| matches!(s, Step::Sort { by: Some(by), descending: true, .. } if by != "count")),
        "{:?}",
        r.steps
    );
    // How many there are of a noun is still a count.
    let r = read_instruction("count the failures by suite from a.csv, most failures first. save b.csv");
    assert!(r.steps.iter().any(|s| matches!(s, Step::Sort { by: Some(by), .. } if by == "count")), "{:?}", r.steps);
}

#[test]
fn each_keys_most_recent_row_is_kept_by_the_one_column_of_dates() {
    for text in [
        "From orders.csv, take each customer's most recent order. Save a.csv",
        "From orders.csv keep the latest order per customer. Save a.csv",
    ] {
        let r = read_instruction(text);
        assert!(
            matches!(&r.steps[..], [Step::LatestPerKey { by, order_by, newest: true }] if by == &["customer"] && order_by == "date"),
            "{text}: {:?}",
            r.steps
        );
    }
    // An order said per group keeps every row.
    let r = read_instruction("From a.csv sort by date, latest first for each region. Save b.csv");
    assert!(!r.steps.iter().any(|s| matches!(s, Step::LatestPerKey { .. })), "{:?}", r.steps);
}

#[test]
fn months_said_together_are_one_range_and_months_apart_keep_nothing_read() {
    for (text, last) in [("10月・11月", 11), ("10月と11月", 11), ("10月〜12月", 12), ("10月・11月・12月", 12)]
    {
        let r = read_instruction(&format!("出荷実績.csv のうち{text}に出荷した分だけ残して 結果.csv に"));
        assert!(
            filter_conditions(&r)
                .iter()
                .any(|c| c.operator == MONTH_OF_UNSAID_YEAR && c.value == json!(10) && c.value2 == Some(json!(last))),
            "{text}: {:?}",
            r.steps
        );
    }
    let r = read_instruction("出荷実績.csv のうち4月・6月に出荷した分だけ残して 結果.csv に");
    assert!(filter_conditions(&r).is_empty(), "{:?}", r.steps);
    for (text, last) in
        [("in October and November", 11), ("from October to December", 12), ("in October, November and December", 12)]
    {
        let r = read_instruction(&format!("From shipments.csv keep the rows {text}. Save b.csv"));
        assert!(
            filter_conditions(&r)
                .iter()
                .any(|c| c.operator == MONTH_OF_UNSAID_YEAR && c.value == json!(10) && c.value2 == Some(json!(last))),
            "{text}: {:?}",
            r.steps
        );
    }
    for text in ["in April and June", "in April, May and July"] {
        let r = read_instruction(&format!("From shipments.csv keep the rows {text}. Save b.csv"));
        assert!(!filter_conditions(&r).iter().any(|c| c.operator == MONTH_OF_UNSAID_YEAR), "{text}: {:?}", r.steps);
    }
}

#[test]
fn a_tie_break_said_in_brackets_is_the_next_sort_key_and_totals_nothing() {
    let r = read_instruction(
        "total the hours by project from a.csv, most hours first (same total: by project code). save b.csv",
    );
    assert!(
        matches!(&r.steps[..], [Step::Aggregate { by, .. }, Step::Sort { then, .. }]
            if by == &["project"] && then.first().is_some_and(|(k, descending)| k == "project code" && !descending)),
        "{:?}",
        r.steps
    );
    let r = read_instruction("From bugs.csv sort by age, oldest first, same report date by bug id. save b.csv");
    assert!(
        matches!(&r.steps[..], [Step::Sort { then, .. }] if then.first().is_some_and(|(k, _)| k == "bug id")),
        "{:?}",
        r.steps
    );
}

#[test]
fn a_sentence_of_column_names_alone_is_the_columns_chosen_and_a_question_names_a_column() {
    let r = read_instruction(
        "anything where the qty is at or below the reorder point. sku, item name, qty, reorder point and how many to order (par level minus qty), sorted by sku -> reorder_list.csv",
    );
    assert_eq!(r.columns, ["sku", "item name", "qty", "reorder point", "how many to order"]);
    assert!(
        r.steps.iter().any(|s| matches!(s, Step::Compute { name, operation: "difference", of, .. }
            if name == "how many to order" && of == &["par level", "qty"])),
        "{:?}",
        r.steps
    );
    // A list with a verb before it is read as before; names joined with no list are none.
    let r = read_instruction("Acme, Globex and Initech are late. Save the late ones to late.csv");
    assert!(r.columns.is_empty(), "{:?}", r.columns);
}

#[test]
fn states_listed_beside_a_state_kept_are_one_condition_and_values_said_as_alternatives_keep_rows() {
    let r = read_instruction(
        "from bugs.xlsx, open ones only (Open, In Progress or Reopened; not Resolved or Closed), save as t.csv",
    );
    let Step::Filter { conditions, exclude: false } = &r.steps[0] else { panic!("{:?}", r.steps) };
    assert_eq!(conditions.len(), 1, "one condition, a row holds one of the states: {conditions:?}");
    assert_eq!(conditions[0].operator, "in");
    assert_eq!(conditions[0].value, serde_json::json!(["open", "In Progress", "Reopened"]));
    // A bullet of a column and two of its values keeps rows (the data says which column).
    let r = read_instruction("- from bugs.xlsx\n- severity critical or high\n- save as t.csv");
    assert!(matches!(&r.steps[..], [Step::Filter { exclude: false, .. }]), "{:?}", r.steps);
    assert!(r.value_words.iter().any(|w| w == "critical or high"), "{:?}", r.value_words);
}

#[test]
fn days_since_a_date_column_count_to_the_day_stated_and_a_new_name_in_brackets_renames() {
    let r = read_instruction(
        "from bugs.xlsx\n- columns: bug id, title, assignee (call it owner), age in days since it was reported (today = 2026-12-07)\n- save as t.csv",
    );
    assert!(
        r.steps.iter().any(|s| matches!(s, Step::DaysUntil { name, from, until }
            if name == "age in days" && from == "reported" && until == "2026-12-07")),
        "{:?}",
        r.steps
    );
    assert_eq!(r.columns, ["bug id", "title", "assignee", "age in days"]);
    assert_eq!(r.renamed, ["bug id", "title", "owner", "age in days"]);
    // "as of" a day right after counts to it; it keeps no rows.
    let r = read_instruction("From orders.csv, add the days since that order as of 2026-12-01. Save to c.csv");
    assert!(
        r.steps.iter().any(|s| matches!(s, Step::DaysUntil { until, .. } if until == "2026-12-01")),
        "{:?}",
        r.steps
    );
    assert!(!r.steps.iter().any(|s| matches!(s, Step::Filter { .. })), "{:?}", r.steps);
    // Said at length in a list of columns, to "today (Dec 15, 2026)": one column of days.
    let r = read_instruction(
        "From invoices.csv I need the invoice no, freelancer, amount and how many days it has been outstanding since the invoice date, as of today (Dec 15, 2026). File: u.csv",
    );
    assert_eq!(r.columns, ["invoice no", "freelancer", "amount", "days"]);
    assert!(
        r.steps.iter().any(|s| matches!(s, Step::DaysUntil { name, from, until }
            if name == "days" && from == "invoice date" && until == "2026-12-15")),
        "{:?}",
        r.steps
    );
}

#[test]
fn values_said_first_then_next_order_the_rows_before_the_order_said_within_each() {
    let r = read_instruction(
        "- from bugs.xlsx\n- severity critical or high\n- critical first, then high; oldest first within each, same report date by bug id\n- save as t.csv",
    );
    let sort = r.steps.iter().find(|s| matches!(s, Step::Sort { .. })).expect("a sort");
    assert!(
        matches!(sort, Step::Sort { by: Some(by), descending: false, then, .. }
            if by == "severity" && then.first().is_some_and(|(_, descending)| !descending) && then.len() == 2),
        "{sort:?}"
    );
    assert_eq!(r.value_orders, [("severity".to_owned(), vec!["critical".to_owned(), "high".to_owned()])]);
    // Values said first with no column naming them elsewhere are asked about, not guessed.
    let r = read_instruction("from bugs.xlsx, critical first, then high; oldest first within each. Save to t.csv");
    assert!(r.value_orders.is_empty(), "{:?}", r.value_orders);
    // An order by size is no order of values.
    let r = read_instruction("from a.csv, newest first, then oldest. Save to t.csv");
    assert!(r.value_orders.is_empty(), "{:?}", r.value_orders);
}

#[test]
fn a_condition_on_a_column_computed_later_keeps_rows_once_it_is_computed_and_rounded() {
    let r = read_instruction(
        "交際費明細.csv のうち区分が「飲食」のもので、1人あたり金額（金額÷参加人数、円未満切り捨て）が10,000円を超えるものを、伝票番号・日付・1人あたり金額 の列で a.csv に",
    );
    let names: Vec<&str> = r.steps.iter().map(Step::name).collect();
    assert_eq!(names, ["filter", "compute", "compute", "filter"], "{:?}", r.steps);
    assert!(
        matches!(&r.steps[3], Step::Filter { conditions, exclude: false }
            if conditions.len() == 1 && conditions[0].field.as_deref() == Some("1人あたり金額")),
        "{:?}",
        r.steps
    );
    assert!(
        matches!(&r.steps[0], Step::Filter { conditions, .. } if conditions[0].field.as_deref() == Some("区分")),
        "「のうち区分」 is the column 区分: {:?}",
        r.steps
    );
    assert_eq!(r.columns, ["伝票番号", "日付", "1人あたり金額"]);
}

#[test]
fn a_list_of_names_before_wo_and_a_comma_is_the_columns_and_a_key_said_short_is_the_key() {
    let r = read_instruction(
        "経費明細.xlsx の2026年11月分を勘定科目ごとに集計してください。取消の伝票は除いて、科目コード・科目名・件数・合計金額を、合計の多い順（同額なら科目コード順）で 科目別集計.csv にお願いします。",
    );
    assert_eq!(r.columns, ["科目コード", "科目名", "件数", "合計金額"]);
    let Some(Step::Aggregate { by, aggregations }) = r.steps.iter().find(|s| matches!(s, Step::Aggregate { .. }))
    else {
        panic!("{:?}", r.steps)
    };
    assert_eq!(by, &["科目コード", "科目名"], "「勘定科目ごと」 with its code and name chosen");
    let mut totals: Vec<(&str, Option<&str>)> = aggregations.iter().map(|a| (a.op, a.name.as_deref())).collect();
    totals.sort();
    assert_eq!(totals, [("count", Some("件数")), ("sum", Some("合計金額"))]);
}

#[test]
fn four_names_listed_alone_are_the_columns_and_a_bare_then_in_a_sort_is_the_next_key() {
    let r = read_instruction(
        "a.csv -> b.csv. booking id, date, room, organizer, minutes booked (end - start). sort by date, then room, then start time",
    );
    assert_eq!(r.columns, ["booking id", "date", "room", "organizer", "minutes booked"]);
    assert!(
        r.steps.iter().any(|s| matches!(s, Step::Compute { name, .. } if name == "minutes booked")),
        "{:?}",
        r.steps
    );
    assert!(
        r.steps.iter().any(|s| matches!(s, Step::Sort { by: Some(by), then, .. }
            if by == "date" && then == &[("room".to_owned(), false), ("start time".to_owned(), false)])),
        "{:?}",
        r.steps
    );
    // What duplicates share is no list of columns; a step after "then" is no key.
    let r = read_instruction(
        "Check a.csv for claims submitted twice: same employee, same date, same amount. Save to b.csv",
    );
    assert!(r.columns.is_empty(), "{:?}", r.columns);
    let r = read_instruction("Sort a.csv by date, then save it as b.csv");
    assert!(r.steps.iter().all(|s| !matches!(s, Step::Sort { then, .. } if !then.is_empty())), "{:?}", r.steps);
}

#[test]
fn rows_kept_then_skipped_in_one_sentence_are_two_steps_and_a_line_after_a_list_starts_anew() {
    let r = read_instruction(
        "Need the Q3 gain/loss on disposals:\n1. From asset_disposals.xlsx take the disposals dated July 1 to Sept 30, 2026 and skip anything still in draft\n2. NBV = cost minus accumulated depreciation; gain/loss = proceeds minus NBV\n3. Give me asset id, description, disposal date, NBV, proceeds and gain/loss, oldest disposal first (same date -> by asset id)\nSave as q3_disposals.csv",
    );
    // Kept by their dates (the column of "dated" rows is their date's), then drafts left out:
    // not one step leaving out the drafts of the quarter only.
    let filters = filters_read(&r);
    assert_eq!(filters.len(), 2, "{:?}", r.steps);
    assert!(
        matches!(&r.steps[0], Step::Filter { conditions, exclude: false }
            if conditions.len() == 1 && conditions[0].operator == "between" && conditions[0].field.is_none()),
        "{:?}",
        r.steps
    );
    assert_eq!(filters[1], (true, vec![("eq", "draft".to_owned())]));
    assert!(r.steps.iter().any(|s| matches!(s, Step::Compute { name, .. } if name == "gain/loss")), "{:?}", r.steps);
    assert_eq!(r.columns, ["asset id", "description", "disposal date", "NBV", "proceeds", "gain/loss"]);
    assert!(
        r.steps.iter().any(|s| matches!(s, Step::Sort { then, .. } if then == &[("asset id".to_owned(), false)])),
        "{:?}",
        r.steps
    );
    assert_eq!(r.outputs.iter().filter_map(|o| o.path.as_deref()).collect::<Vec<_>>(), ["q3_disposals.csv"]);
    // The same words on one line.
    let r = read_instruction(
        "From a.csv keep the rows from July 1 to Sept 30, 2026 and skip anything still in draft. Save as q.csv",
    );
    assert_eq!(
        filters_read(&r).iter().map(|(exclude, _)| *exclude).collect::<Vec<_>>(),
        [false, true],
        "{:?}",
        r.steps
    );
}

#[test]
fn rows_not_yet_paid_or_never_run_are_those_without_a_partner_and_an_aside_keeps_its_second_part() {
    let r = read_instruction(
        "Which invoices haven't been paid at all yet? Match invoices.csv against payments.csv on the invoice number (a part payment counts as paid, and ignore voided invoices). File: unpaid.csv",
    );
    assert!(matches!(&r.steps[0], Step::Join { unmatched: true, .. }), "{:?}", r.steps);
    assert_eq!(filters_read(&r), [(true, vec![("eq", "voided".to_owned())])], "{:?}", r.steps);
    let r = read_instruction(
        "テストケース.csv のうち、実行ログ.csv に一度も実施記録がないケースを 未実施.csv に出してください。",
    );
    assert!(matches!(&r.steps[0], Step::Join { unmatched: true, .. }), "{:?}", r.steps);
    // Rows without a partner that are to be dropped are not the rows wanted.
    let r = read_instruction(
        "請求書一覧.csv に取引先マスタ.xlsx から取引先名を取引先コードで引っ張ってきてください。マスタに登録のない取引先コードの請求は外してください。出力は 結果.csv で。",
    );
    assert!(r.steps.iter().all(|s| !matches!(s, Step::Join { unmatched: true, .. })), "{:?}", r.steps);
}

#[test]
fn totals_listed_after_their_key_are_one_grouping_and_a_column_of_the_totals_follows_it() {
    let r = read_instruction(
        "- source: bills.xlsx\n- per site: total kWh, total amount, and cost per kWh = total amount / total kWh, rounded to 3 decimals\n- most expensive per kWh first\n- output: q4.xlsx",
    );
    let kinds: Vec<&str> = r.steps.iter().map(Step::name).collect();
    assert_eq!(kinds, ["aggregate", "compute", "compute", "sort"], "{:?}", r.steps);
    assert!(
        matches!(&r.steps[0], Step::Aggregate { by, aggregations } if by == &["site"] && aggregations.len() == 2),
        "{:?}",
        r.steps
    );
    assert!(
        matches!(&r.steps[3], Step::Sort { by: Some(by), descending: true, .. } if by == "cost per kwh"),
        "{:?}",
        r.steps
    );
    let r = read_instruction("Read a.csv, cheapest first. Save b.csv");
    assert!(matches!(&r.steps[0], Step::Sort { by: Some(by), descending: false, .. } if by == "cost"), "{:?}", r.steps);
}

#[test]
fn names_joined_by_nakaguro_before_a_verb_of_output_are_the_columns_and_expired_rows_are_past_the_day() {
    let r = read_instruction(
        "本日（2027年2月10日）時点で有効期限が切れている見積を 見積一覧.csv から洗い出してください。\n見積番号・顧客名・有効期限・経過日数（本日−有効期限）を出して、期限切れ見積.csv に保存してください。",
    );
    assert_eq!(r.columns, ["見積番号", "顧客名", "有効期限", "経過日数"]);
    assert!(
        r.steps.iter().any(|s| matches!(s, Step::Filter { conditions, exclude: false }
            if conditions.iter().any(|c| c.field.as_deref() == Some("経過日数") && c.operator == "gt"))),
        "{:?}",
        r.steps
    );
    // Totals said per a key are not the columns chosen.
    let r = read_instruction(
        "経費.csv について、勘定科目ごとに件数・金額合計・平均金額を出してください。出力は 結果.csv です。",
    );
    assert!(r.columns.is_empty(), "{:?}", r.columns);
}

#[test]
fn a_date_less_the_day_stated_is_the_days_left_to_it() {
    let r = read_instruction(
        "社用車一覧.xlsx から作成してください。\n・基準日は2027年2月1日です。\n・項目は 管理番号・車検満了日・残り日数（満了日−基準日。過ぎているものはマイナス）\nファイル名は 車検.xlsx",
    );
    assert!(
        r.steps.iter().any(|s| matches!(s, Step::DaysAfter { name, day, column }
            if name == "残り日数" && day == "2027-02-01" && column == "満了日")),
        "{:?}",
        r.steps
    );
}

#[test]
fn whose_latest_value_is_a_state_compares_the_column_with_the_state() {
    let r = read_instruction("Read a.csv and drop the ones whose latest event is a return. Save b.csv");
    assert_eq!(filters_read(&r), [(true, vec![("eq", "return".to_owned())])], "{:?}", r.steps);
    assert!(
        matches!(&r.steps[0], Step::Filter { conditions, .. } if conditions[0].field.as_deref() == Some("event")),
        "{:?}",
        r.steps
    );
    // A description after "with a …" is no condition.
    let r = read_instruction(
        "In p.csv find the payments where vendor and amount are the same as on another row. Same invoice with a different amount is a partial payment, not a duplicate. Output: d.csv",
    );
    assert!(
        r.steps
            .iter()
            .all(|s| !matches!(s, Step::Filter { conditions, .. } if conditions.iter().any(|c| c.value == "partial"))),
        "{:?}",
        r.steps
    );
}

#[test]
fn not_yet_returned_is_a_blank_date_and_two_texts_joined_by_a_space_are_one_column() {
    let r = read_instruction(
        "延滞リストをお願いします（今日は2026年12月8日です）。\n・台帳.csv のうち、まだ返却されていなくて返却予定日を過ぎているもの（今日が返却予定日のものは延滞に含めない）\n・列は 貸出番号、備品（備品番号と品名を半角スペースでつなげる）、延滞日数（今日−返却予定日）\n・ファイル名は 延滞.csv",
    );
    assert_eq!(filters_read(&r)[0], (false, vec![("eq", String::new())]), "{:?}", r.steps);
    assert!(
        matches!(&r.steps[0], Step::Filter { conditions, .. } if conditions[0].field.as_deref() == Some("返却日")),
        "{:?}",
        r.steps
    );
    // 延滞 is what the days measure, no state of the rows.
    assert!(
        r.steps
            .iter()
            .all(|s| !matches!(s, Step::Filter { conditions, .. } if conditions.iter().any(|c| c.value == "延滞"))),
        "{:?}",
        r.steps
    );
    assert!(
        r.steps.iter().any(|s| matches!(s, Step::Compute { name, operation: "join", of, .. }
            if name == "備品" && of == &["備品番号", "品名"])),
        "{:?}",
        r.steps
    );
    let r = read_instruction(
        "Read a.csv. Columns: id, full name (first name and last name joined with a space) and city. Save b.csv",
    );
    assert!(
        r.steps.iter().any(|s| matches!(s, Step::Compute { name, operation: "join", .. } if name == "full name")),
        "{:?}",
        r.steps
    );
}

#[test]
fn a_date_said_to_be_due_in_a_month_is_the_period_and_no_value() {
    let r = read_instruction(
        "instruments.csv -> cal_due_march.csv: in-service instruments whose next calibration is due in March 2027 (1st to 31st). cols id, description, location, next due. any order",
    );
    let conditions = filter_conditions(&r);
    assert!(conditions.iter().any(|c| c.operator == "between" && c.value == "2027-03-01"), "{conditions:?}");
    assert!(conditions.iter().all(|c| c.value != "due"), "{conditions:?}");
}

#[test]
fn the_days_between_two_dates_named_by_what_happened_on_them_are_averaged_as_those_days() {
    let r = read_instruction(
        "From applicants.csv: only candidates whose stage is Hired count. For each of them take the days from the date they applied to the date they accepted the offer; then per role give the number of hires and the average of those days, rounded to 1 decimal. Slowest role (highest average) first. Save hire_speed.csv",
    );
    assert!(
        r.steps.iter().any(|s| matches!(s, Step::Compute { name, operation: "difference", of, .. }
            if name == "days" && of == &["accepted offer", "applied"])),
        "{:?}",
        r.steps
    );
    let Some(Step::Aggregate { aggregations, .. }) = r.steps.iter().find(|s| matches!(s, Step::Aggregate { .. }))
    else {
        panic!("{:?}", r.steps)
    };
    assert!(aggregations.iter().any(|a| a.op == "avg" && a.field.as_deref() == Some("day")), "{aggregations:?}");
    // The words in brackets say what the order is by.
    assert!(
        r.steps.iter().any(|s| matches!(s, Step::Sort { by: Some(by), descending: true, .. } if by == "average")),
        "{:?}",
        r.steps
    );
}

#[test]
fn rows_said_twice_are_kept_once_and_groups_with_nothing_done_left_out_keep_the_done_rows() {
    let r = read_instruction(
        "velocity.xlsx - for the sprint review deck. From stories.csv, per team and sprint: how many stories are Done and their total story points. Only Done stories count (In Progress, To Do and Won't Do don't), and a team/sprint with nothing done can be left out. Columns team, sprint, done stories, points.",
    );
    assert_eq!(filters_read(&r), [(false, vec![("eq", "done".to_owned())])], "{:?}", r.steps);
    // The file named first, before the one read from, is the one written.
    assert_eq!(r.sources.len(), 1, "{:?}", r.sources);
    assert_eq!(r.sources[0].path.as_deref(), Some("stories.csv"));
    assert_eq!(r.outputs[0].path.as_deref(), Some("velocity.xlsx"));
    assert_eq!(r.outputs[0].format, OutputFormat::Excel);
    let Some(Step::Aggregate { aggregations, .. }) = r.steps.iter().find(|s| matches!(s, Step::Aggregate { .. }))
    else {
        panic!("{:?}", r.steps)
    };
    // A column listed that names what is counted is the count.
    assert!(
        aggregations.iter().any(|a| a.op == "count" && a.name.as_deref() == Some("done stories")),
        "{aggregations:?}"
    );
    // Two files with nothing said of which is read: both are read.
    let r = read_instruction("a.csv - b.csv: total the amounts per vendor");
    assert!(r.outputs.is_empty() && r.sources.len() == 2, "{:?} {:?}", r.sources, r.outputs);
}

#[test]
fn a_file_before_a_left_arrow_is_written_from_the_one_after_it_and_texts_joined_are_kept_with_the_totals() {
    let r = read_instruction(
        "ポイント失効予定.csv ← ポイント明細.csv\n・基準日 2027/2/15\n・状態「有効」のみ、有効期限が基準日〜2027/3/31（両端含む）のもの\n・顧客ごとにポイントを合計\n・氏名は 姓 と 名 を半角スペースでつないで1列に\n・列：顧客番号、氏名、失効予定ポイント\n・失効予定ポイントの多い順、同点なら顧客番号順",
    );
    assert_eq!(r.sources.len(), 1, "{:?}", r.sources);
    assert_eq!(r.sources[0].path.as_deref(), Some("ポイント明細.csv"));
    assert_eq!(r.outputs[0].path.as_deref(), Some("ポイント失効予定.csv"));
    assert_eq!(r.columns, ["顧客番号", "氏名", "失効予定ポイント"]);
    let conditions = filter_conditions(&r);
    assert!(
        conditions.iter().any(|c| c.field.as_deref() == Some("有効期限")
            && c.operator == "between"
            && c.value == "2027-02-15"
            && c.value2 == Some(json!("2027-03-31"))),
        "{conditions:?}"
    );
    assert_eq!(ops(&r), ["filter", "filter", "compute", "aggregate", "sort"], "{:?}", r.steps);
    let Step::Aggregate { by, .. } = &r.steps[3] else { panic!("{:?}", r.steps) };
    assert_eq!(by, &["顧客", "氏名"]);
    let r = read_instruction("名簿.csv の姓と名を半角スペースでつないで氏名にして、結果.csv に保存");
    assert!(
        r.steps.iter().any(|s| matches!(s, Step::Compute { name, operation: "join", of, .. }
            if name == "氏名" && of == &["姓", "名"])),
        "{:?}",
        r.steps
    );
}

#[test]
fn rows_done_after_a_date_compare_the_dates_and_a_percent_of_a_column_is_named_before_its_sign() {
    let r = read_instruction(
        "paid_invoices_jan.csv -> late_fees.csv\n- only invoices paid after their due date (paid on the due date = on time)\n- days late = paid date - due date\n- fee = 1.5% of the invoice amount, rounded to cents\n- cols: invoice no, customer, due date, paid date, days late, fee",
    );
    let conditions = filter_conditions(&r);
    assert_eq!(conditions.len(), 1, "a term defined in brackets and the verb are no conditions: {conditions:?}");
    assert_eq!(conditions[0].field.as_deref(), Some("paid date"));
    assert_eq!((conditions[0].operator, &conditions[0].value), ("gt", &json!({"column": "due date"})));
    assert!(
        r.steps.iter().any(|s| matches!(s, Step::Compute { name, operation: "product", value: Some(v), .. }
            if name == "fee" && (*v - 0.015).abs() < 1e-12)),
        "{:?}",
        r.steps
    );
    assert!(
        r.steps.iter().any(|s| matches!(s, Step::Compute { operation: "round", value: Some(v), .. } if *v == 2.0)),
        "rounded to cents: {:?}",
        r.steps
    );
}

#[test]
fn files_put_together_are_appended_a_table_looked_in_is_read_and_the_file_needed_is_written() {
    let r = read_instruction(
        "@finops need cloud_spend_by_team.xlsx for the Q4 review. Put cloud_costs_oct.csv and cloud_costs_nov.csv together, look up each account's team in accounts.csv, and total the cost per team per month.",
    );
    let read: Vec<&str> = r.sources.iter().filter_map(|s| s.path.as_deref()).collect();
    assert_eq!(read, ["cloud_costs_oct.csv", "cloud_costs_nov.csv", "accounts.csv"]);
    assert_eq!(r.outputs.len(), 1, "{:?}", r.outputs);
    assert_eq!(r.outputs[0].path.as_deref(), Some("cloud_spend_by_team.xlsx"));
}

#[test]
fn a_column_saying_which_file_each_row_came_from_is_the_source_of_the_rows_put_together() {
    let r = read_instruction(
        "来客記録_本社.csv と 来客記録_工場.csv から、来客をひとつにまとめて 来客一覧.xlsx を作ってください。どちらの拠点の受付か分かるように「拠点」列（本社／工場）を先頭に付け、列は 拠点・受付番号・来訪日・会社名 としてください。来訪時刻は並べ替えに使うだけで、出力には要りません。並びは来訪日・来訪時刻の早い順です。",
    );
    assert!(r.combine);
    assert_eq!(r.source_column, Some(("拠点".to_owned(), vec!["本社".to_owned(), "工場".to_owned()])));
    assert!(!r.steps.iter().any(|s| matches!(s, Step::Compute { .. })), "本社／工場 divides nothing: {:?}", r.steps);
    assert_eq!(r.columns, ["拠点", "受付番号", "来訪日", "会社名"]);
    // Keys listed with ・ are the order's, each the same way; an order of no key said beside is it.
    let sorts: Vec<&Step> = r.steps.iter().filter(|s| matches!(s, Step::Sort { .. })).collect();
    assert!(
        matches!(sorts.as_slice(), [Step::Sort { by: Some(by), descending: false, then, .. }]
            if by == "来訪日" && then == &[("来訪時刻".to_owned(), false)]),
        "{:?}",
        r.steps
    );
    // Columns listed before 「の列」 are no keys of the order said after them.
    let r = read_instruction("在庫.csv の回転率が3未満の品目を、回転率の低い順に、品目コード・品目名・回転率の列で 結果.csv にお願いします。");
    assert!(
        r.steps.iter().any(|s| matches!(s, Step::Sort { by: Some(by), then, .. } if by == "回転率" && then.is_empty())),
        "{:?}",
        r.steps
    );
    // Values no file name holds are the tables in the order said.
    let r = read_instruction(
        "Please combine claims_a.csv and claims_b.csv into all.csv. Add a dealer column that says North or South depending on which file the claim came from. Columns: claim no, dealer, total cost (parts + labor).",
    );
    assert!(r.combine, "{:?}", r.steps);
    assert_eq!(r.source_column, Some(("dealer".to_owned(), vec!["North".to_owned(), "South".to_owned()])));
    assert!(!r.steps.iter().any(|s| matches!(s, Step::Join { .. })), "no lookup: {:?}", r.steps);
    // One sign in a listed column's brackets is its operation.
    assert!(
        r.steps.iter().any(|s| matches!(s, Step::Compute { name, operation: "sum", of, .. }
            if name == "total cost" && of == &["part", "labor"])),
        "{:?}",
        r.steps
    );
    // A file name that holds a value says which table it is, whatever the order said.
    let r = read_instruction(
        "Combine south_claims.csv and north_claims.csv. Add a dealer column that says North or South depending on which file. Save all.csv",
    );
    assert_eq!(r.source_column, Some(("dealer".to_owned(), vec!["South".to_owned(), "North".to_owned()])));
}

#[test]
fn the_busiest_first_is_the_count_and_ties_said_alphabetical_are_the_next_key() {
    let r = read_instruction(
        "Read a.csv, count the signups per session. session + count, busiest first, ties alphabetical by session -> signup_counts.csv",
    );
    assert!(
        r.steps.iter().any(|s| matches!(s, Step::Sort { by: Some(by), descending: true, then, .. }
            if by == "count" && then == &[("session".to_owned(), false)])),
        "{:?}",
        r.steps
    );
    assert!(r.unplaced.is_empty(), "{:?}", r.unplaced);
}

#[test]
fn an_order_said_before_a_tie_in_a_clause_that_writes_is_the_first_key() {
    let r = read_instruction("a.csv を読み、得意先コード順、同じなら計上番号順で b.csv へ。");
    assert!(
        r.steps.iter().any(|s| matches!(s, Step::Sort { by: Some(by), then, .. }
            if by == "得意先コード" && then == &[("計上番号".to_owned(), false)])),
        "{:?}",
        r.steps
    );
    assert!(r.unplaced.is_empty(), "{:?}", r.unplaced);
}

#[test]
fn ties_in_a_columns_order_are_the_next_key_after_the_order_said_first() {
    let r = read_instruction(
        "Give me Test ID and the number of failures from runs.csv, most failures first and ties in Test ID order A to Z. Output f.csv.",
    );
    assert!(
        r.steps.iter().any(|s| matches!(s, Step::Sort { by: Some(by), descending: true, then, .. }
            if by == "count" && then == &[("test id".to_owned(), false)])),
        "{:?}",
        r.steps
    );
    let r =
        read_instruction("a.csv を商品ごとに数量を合計し、数量の多い順、同数なら商品コードの若い順で b.csv に保存。");
    assert!(
        r.steps.iter().any(|s| matches!(s, Step::Sort { then, .. } if then == &[("商品コード".to_owned(), false)])),
        "{:?}",
        r.steps
    );
}

#[test]
fn files_combined_into_one_list_sorted_by_a_column_are_not_matched_on_it() {
    let r = read_instruction("Combine a.csv and b.csv into one list sorted by id, and save it as all.csv");
    assert!(r.combine, "{:?}", r.steps);
    assert!(!r.steps.iter().any(|s| matches!(s, Step::Join { .. })), "{:?}", r.steps);
}

#[test]
fn a_japanese_range_of_days_with_its_weekdays_and_no_space_after_it_keeps_those_days() {
    for text in [
        "不具合一覧.csv のうち、3月第2週（2026/3/9(月)〜3/15(日)、両端の日を含む）に起票されたものについて、重要度ごとの件数を出してください。結果.csv に保存",
        "不具合一覧.csv の 2026/3/9〜3/15に起票されたものだけ残して、結果.csv に保存",
    ] {
        let r = read_instruction(text);
        let conditions = filter_conditions(&r);
        assert!(
            conditions.iter().any(|c| c.operator == "between"
                && c.value == "2026-03-09"
                && c.value2 == Some(json!("2026-03-15"))),
            "{text}: {conditions:?}"
        );
    }
}

#[test]
fn rows_kept_and_a_column_added_in_one_sentence_are_two_steps() {
    let r = read_instruction(
        "in orders.csv take only the orders shipping to CA and add the total with 7.25% sales tax (subtotal * 1.0725). output o.csv",
    );
    assert_eq!(ops(&r), ["filter", "compute"], "{:?}", r.steps);
    assert!(r.value_words.iter().any(|w| w == "CA"), "{:?}", r.value_words);
}

#[test]
fn a_file_needed_is_written_only_when_asked_for_by_a_purpose() {
    let r = read_instruction("I need sales.csv and returns.csv matched on order_id");
    assert!(r.outputs.iter().all(|o| o.path.as_deref() != Some("sales.csv")), "{:?}", r.outputs);
    assert_eq!(r.sources.len(), 2, "both are read: {:?}", r.sources);
}

/// The totals asked for, as (op, column), of the one grouping read.
fn totals_read(r: &Reading) -> Vec<(&'static str, Option<String>)> {
    r.steps
        .iter()
        .find_map(|s| match s {
            Step::Aggregate { aggregations, .. } => {
                Some(aggregations.iter().map(|a| (a.op, a.field.clone())).collect::<Vec<_>>())
            }
            _ => None,
        })
        .unwrap_or_default()
}

#[test]
fn a_total_said_with_its_column_as_one_noun_is_kept_beside_the_count() {
    for text in [
        "経費精算.xlsxを部署別に集計して、合計金額と件数を出してください。部署別集計.csvで保存",
        "経費精算.xlsxの部署ごとに合計金額と件数を出して部署別集計.csvへ",
    ] {
        let r = read_instruction(text);
        assert_eq!(totals_read(&r), [("sum", Some("金額".to_owned())), ("count", None)], "{text}: {:?}", r.steps);
    }
    let r = read_instruction("平均単価と数量の合計を商品別に出して out.csv へ");
    assert_eq!(
        totals_read(&r),
        [("avg", Some("単価".to_owned())), ("sum", Some("数量".to_owned()))],
        "an average listed before a total is no column to total: {:?}",
        r.steps
    );
    let r = read_instruction("合計金額が10万円以上の取引先だけ a.csv から b.csv へ");
    assert_eq!(ops(&r), ["filter"], "a total said as a subject is a column kept by: {:?}", r.steps);
}

#[test]
fn a_total_said_before_the_key_it_is_per_is_kept_with_the_key() {
    for text in [
        "Total the amount and count per department from a.csv into b.csv",
        "Total amount and count per department from a.csv into b.csv",
    ] {
        let r = read_instruction(text);
        assert_eq!(totals_read(&r), [("sum", Some("amount".to_owned())), ("count", None)], "{text}: {:?}", r.steps);
        assert_eq!(ops(&r), ["aggregate"], "{text}: {:?}", r.steps);
    }
    // Past the rows kept and the month added on the way to the grouping.
    let r = read_instruction(
        "Count and total amount of the issued ones (skip Void) per month and reason, from a.csv to b.csv.",
    );
    assert_eq!(totals_read(&r), [("count", None), ("sum", Some("amount".to_owned()))], "{:?}", r.steps);
}

#[test]
fn a_unit_or_a_remark_in_brackets_after_a_column_is_no_part_of_its_name() {
    let r = read_instruction("設備ごとに計画時間と稼働時間（どちらも分）を合計し、a.csv から b.csv へ");
    assert_eq!(
        totals_read(&r),
        [("sum", Some("計画時間".to_owned())), ("sum", Some("稼働時間".to_owned()))],
        "{:?}",
        r.steps
    );
    let r = read_instruction("設備ごとに稼働時間（分）を合計し、a.csv から b.csv へ");
    assert_eq!(totals_read(&r), [("sum", Some("稼働時間".to_owned()))], "{:?}", r.steps);
    let r = read_instruction("取引先ごとに金額（税抜）を合計して a.csv から b.csv へ");
    assert_eq!(totals_read(&r), [("sum", Some("金額(税抜)".to_owned()))], "a name in brackets: {:?}", r.steps);
}

#[test]
fn rounding_said_in_brackets_after_a_formula_rounds_the_column_the_formula_names() {
    for text in [
        "a.csv を読んで、稼働率＝稼働時間合計÷計画時間合計×100（小数第1位まで、四捨五入）を出して b.csv へ",
        "a.csv を読んで、稼働率＝稼働時間合計÷計画時間合計×100（小数第2位を四捨五入）を出して b.csv へ",
    ] {
        let r = read_instruction(text);
        assert!(
            r.steps.iter().any(|s| matches!(s, Step::Compute { name, operation, of, value: Some(d) }
                if name == "稼働率" && *operation == "round" && of == &["稼働率"] && *d == 1.0)),
            "{text}: {:?}",
            r.steps
        );
    }
}

#[test]
fn an_aside_on_which_row_stays_says_no_key_of_a_duplicate() {
    let r = read_instruction(
        "a.csv と b.csv を縦につなげて、取引先コードがかぶっているものは最初に出てくる行だけ残してください（＝a側が優先、同じファイルの中なら上の行）。c.csv へ",
    );
    assert!(
        r.steps.iter().any(|s| matches!(s, Step::Duplicates { by, remove: true, .. } if by == &["取引先コード"])),
        "{:?}",
        r.steps
    );
    let r = read_instruction("a.csv の重複（同じ取引先コード）を削除して b.csv へ");
    assert!(
        r.steps.iter().any(|s| matches!(s, Step::Duplicates { by, .. } if by == &["取引先コード"])),
        "a key said in the aside: {:?}",
        r.steps
    );
    let r = read_instruction("a.csv から取引先コードの重複を削除して b.csv へ");
    assert!(
        r.steps.iter().any(|s| matches!(s, Step::Duplicates { by, .. } if by == &["取引先コード"])),
        "the file read from is no part of the key: {:?}",
        r.steps
    );
}

#[test]
fn a_number_said_with_its_scale_is_that_number() {
    assert_eq!(normalise("revenue of 1 million or more"), "revenue of 1000000 or more");
    assert_eq!(normalise("over 2.5 Million"), "over 2500000");
    assert_eq!(normalise("budget 50k, cap 3 thousand"), "budget 50k, cap 3000");
    assert_eq!(normalise("1.2345 thousand"), "1.2345 thousand", "no whole number: as said");
    for text in [
        "Keep the rows of a.csv where revenue is 1 million or more. Save as b.csv",
        "Only the product lines in a.csv with Revenue of 1 million or more. Save as b.csv",
    ] {
        let r = read_instruction(text);
        let conditions = filter_conditions(&r);
        assert!(
            conditions.iter().any(|c| c.operator == "gte" && c.value == json!(1_000_000)),
            "{text}: {conditions:?}"
        );
    }
}

#[test]
fn a_column_added_with_its_formula_in_brackets_is_that_formula() {
    let r = read_instruction(
        "Only the product lines in a.csv with Revenue of 1 million or more, please. For those, add Gross Margin (Revenue minus COGS) and Margin % (Gross Margin divided by Revenue, times 100, rounded to one decimal). Save as b.xlsx.",
    );
    assert!(
        r.steps
            .iter()
            .any(|s| matches!(s, Step::Compute { name, operation: "difference", .. } if name == "Gross Margin")),
        "{:?}",
        r.steps
    );
    assert!(
        r.steps.iter().any(|s| matches!(s, Step::Formula { name, formula, .. }
            if name == "Margin %" && formula == "[Gross Margin] / [Revenue] * 100")),
        "{:?}",
        r.steps
    );
    let r =
        read_instruction("Read a.csv and add a rate column (total cost / nights, rounded to 2 decimals). Save b.csv");
    assert!(
        r.steps.iter().any(|s| matches!(s, Step::Compute { name, operation: "ratio", .. } if name == "rate")),
        "{:?}",
        r.steps
    );
    // A formula in brackets in a list of columns says how one listed is made; the list stays whole.
    let listed =
        "I need the SKU, the system qty, the counted qty and the variance (counted minus system). Sort by SKU.";
    assert_eq!(shaping::formulas_in_brackets(listed), listed);
    let format = "Take the month from run_date (as YYYY-MM), add the count";
    assert_eq!(shaping::formulas_in_brackets(format), format, "a dash with no spaces is no minus");
}

#[test]
fn whole_months_said_by_their_days_without_a_year_are_months_of_the_year_the_data_has() {
    for text in ["a.csv の 7/1〜9/30 の行だけ b.csv へ", "a.csv の7月1日から9月30日までの行だけ b.csv へ"]
    {
        let r = read_instruction(text);
        let conditions = filter_conditions(&r);
        assert!(
            conditions.iter().any(|c| c.operator == conditions::MONTH_OF_UNSAID_YEAR
                && c.value == json!(7)
                && c.value2 == Some(json!(9))),
            "{text}: {conditions:?}"
        );
    }
    // Days that are no whole months are not read as months.
    let r = read_instruction("a.csv の 7/1〜7/15 の行だけ b.csv へ");
    assert!(filter_conditions(&r).iter().all(|c| c.operator != conditions::MONTH_OF_UNSAID_YEAR), "{:?}", r.steps);
}

#[test]
fn the_things_with_the_most_of_an_amount_are_totalled_before_the_top_is_cut() {
    let r = read_instruction("shukka.csv で、10月の出荷数量が多い商品トップ3を出してください。→ q3.csv");
    assert_eq!(ops(&r), ["filter", "aggregate", "sort"], "{:?}", r.steps);
    assert_eq!(totals_read(&r), [("sum", Some("出荷数量".to_owned()))], "{:?}", r.steps);
    assert!(r.steps.iter().any(|s| matches!(s, Step::Sort { descending: true, limit: Some(3), .. })), "{:?}", r.steps);
    // The ties of the order said again are broken before the top is cut.
    let r = read_instruction(
        "shukka.csv で、7/1〜9/30の出荷数量が多い商品トップ3を出してください。商品コード・商品名・数量合計の3列、数量の多い順、同数なら商品コードの若い順で。→ q3.csv",
    );
    assert!(
        r.steps.iter().any(
            |s| matches!(s, Step::Sort { limit: Some(3), then, .. } if then == &[("商品コード".to_owned(), false)])
        ),
        "{:?}",
        r.steps
    );
    assert_eq!(ops(&r).iter().filter(|o| **o == "sort").count(), 1, "{:?}", r.steps);
    // The rows themselves, an order, and a price that adds up to nothing are no totals.
    for text in [
        "a.csv で金額が大きい取引トップ3を b.csv へ",
        "売上伝票.csvの中から金額の大きい順に上位5件を出して b.csv へ",
        "a.csv で単価が高い商品トップ3を b.csv へ",
    ] {
        let r = read_instruction(text);
        assert!(!ops(&r).contains(&"aggregate"), "{text}: {:?}", r.steps);
    }
}

#[test]
fn columns_listed_with_to_after_retsu_wa_are_the_columns() {
    for text in [
        "a.csv を取引先ごとに合計してください。列は取引先名と合計金額の2つで、b.csv に保存",
        "a.csv を取引先ごとに合計してください。列は取引先名と合計金額で、b.csv に保存",
    ] {
        let r = read_instruction(text);
        assert_eq!(r.columns, ["取引先名", "合計金額"], "{text}");
    }
    let r = read_instruction("a.csv を b.csv に。列は 拠点・受付番号・来訪日 としてください。");
    assert_eq!(r.columns, ["拠点", "受付番号", "来訪日"], "として is no column");
}

#[test]
fn rows_said_to_count_once_lose_their_copies_before_they_are_counted() {
    let r = read_instruction(
        "combine a.csv and b.csv and count the confirmed signups per session (cancelled and waitlisted don't count). if someone signed up for the same session both ways (same email) count them once. session + count -> c.csv",
    );
    assert_eq!(ops(&r), ["filter", "dedupe", "aggregate"], "{:?}", r.steps);
    assert!(
        r.steps.iter().any(|s| matches!(s, Step::Duplicates { by, remove: true, .. } if by == &["session", "email"])),
        "{:?}",
        r.steps
    );
    let conditions = filter_conditions(&r);
    for (operator, value) in [("eq", "confirmed"), ("ne", "cancelled"), ("ne", "waitlisted")] {
        assert!(conditions.iter().any(|c| c.operator == operator && c.value == value), "{value}: {conditions:?}");
    }
    let r = read_instruction("combine a.csv and b.csv, remove duplicates (same email and session), and count the signups per session -> c.csv");
    assert!(
        r.steps.iter().any(|s| matches!(s, Step::Duplicates { by, remove: true, .. } if by == &["email", "session"])),
        "both columns said the same: {:?}",
        r.steps
    );
}

#[test]
fn a_value_said_as_where_the_rows_go_or_are_keeps_them() {
    for (text, value) in [
        ("in orders_june.csv take only the orders shipping to CA and save them to b.csv", "CA"),
        ("list the customers in a.csv based in Germany -> b.csv", "Germany"),
    ] {
        let r = read_instruction(text);
        let conditions = filter_conditions(&r);
        assert!(
            conditions.iter().any(|c| c.field.is_none() && c.operator == "eq" && c.value == value),
            "{text}: {conditions:?}"
        );
    }
}

#[test]
fn a_column_worked_out_as_its_arithmetic_is_that_formula() {
    for (text, name) in [
        (
            "Read a.csv and work out margin % as (revenue - cost) / revenue x 100, rounded to 1 decimal. Save b.csv",
            "margin %",
        ),
        ("Read a.csv and calculate margin_pct as (revenue - cost) / revenue * 100. Save b.csv", "margin_pct"),
    ] {
        let r = read_instruction(text);
        assert!(
            r.steps.iter().any(|s| matches!(s, Step::Formula { name: n, formula, .. }
                if n == name && formula == "([revenue] - [cost]) / [revenue] * 100")),
            "{text}: {:?}",
            r.steps
        );
        assert!(
            !ops(&r).contains(&"compute")
                || r.steps.iter().all(|s| !matches!(s, Step::Compute { operation: "difference", .. })),
            "{:?}",
            r.steps
        );
    }
    let r = read_instruction("Read a.csv and calculate the margin as revenue minus cost. Save b.csv");
    assert!(
        r.steps.iter().any(|s| matches!(s, Step::Compute { name, operation: "difference", of, .. }
            if name == "margin" && of == &["revenue", "cost"])),
        "{:?}",
        r.steps
    );
}

#[test]
fn an_order_said_right_after_sorted_names_its_column() {
    let r = read_instruction(
        "I only want two columns, product and margin_pct, sorted highest margin first. from a.csv to b.csv",
    );
    assert!(
        r.steps.iter().any(|s| matches!(s, Step::Sort { by: Some(by), descending: true, .. } if by == "margin")),
        "{:?}",
        r.steps
    );
}

#[test]
fn how_a_column_is_rounded_is_no_part_of_its_name() {
    assert_eq!(
        slots::english_phrase_after("average invoice amount rounded to 2 decimals", 8).as_deref(),
        Some("invoice amount")
    );
}

#[test]
fn states_said_together_as_alternatives_keep_a_row_in_either() {
    for text in [
        "need spend per supplier out of a.csv. Void invoices don't count; Pending and Approved both do. -> b.xlsx",
        "keep the paid or settled invoices from a.csv -> b.csv",
    ] {
        let r = read_instruction(text);
        let conditions = filter_conditions(&r);
        assert!(
            conditions.iter().any(|c| c.operator == "in" && c.value.as_array().is_some_and(|v| v.len() == 2)),
            "{text}: {conditions:?}"
        );
        assert!(!conditions.iter().any(|c| c.operator == "eq"), "{text}: {conditions:?}");
    }
    // Two states said without an alternative may be of two columns: each stays.
    let r = read_instruction("keep the approved and paid invoices from a.csv -> b.csv");
    assert_eq!(filter_conditions(&r).iter().filter(|c| c.operator == "eq").count(), 2, "{:?}", r.steps);
}

#[test]
fn a_total_named_x_goukei_totals_x_and_rows_pulled_out_are_left_out() {
    let r = read_instruction("弁当注文.csv の部署ごとの注文数と金額合計を出しといて。キャンセルは抜いてね。b.csv へ");
    assert!(
        totals_read(&r).contains(&("sum", Some("金額".to_owned()))),
        "金額合計 is the total of 金額: {:?}",
        r.steps
    );
    assert!(
        r.steps.iter().any(|s| matches!(s, Step::Filter { exclude: true, conditions } if conditions.iter().any(|c| c.value == "キャンセル"))),
        "{:?}",
        r.steps
    );
    let r = read_instruction("a.csv から請求番号と金額を抜き出して b.csv へ");
    assert!(
        !r.steps.iter().any(|s| matches!(s, Step::Filter { exclude: true, .. })),
        "抜き出して keeps: {:?}",
        r.steps
    );
}

#[test]
fn credit_notes_are_rows_not_text_to_read() {
    let r = read_instruction(
        "Can I get a summary of credit notes from credit_notes.csv? Count the notes per reason. Save b.csv",
    );
    assert!(!ops(&r).contains(&"extract"), "{:?}", r.steps);
    let r = read_instruction("Get the order number from the notes column of a.csv into b.csv");
    assert!(ops(&r).contains(&"extract"), "a column of free text is read: {:?}", r.steps);
}

#[test]
fn the_number_of_things_said_with_no_is_a_count() {
    let r = read_instruction("a.csv を社員ごとに対象資格の数と月額手当の合計を出して b.csv へ");
    assert_eq!(totals_read(&r), [("count", None), ("sum", Some("月額手当".to_owned()))], "{:?}", r.steps);
    let r = read_instruction("a.csv の部署ごとの在庫数量を合計して b.csv へ");
    assert_eq!(totals_read(&r), [("sum", Some("在庫数量".to_owned()))], "数量 is a column: {:?}", r.steps);
}

#[test]
fn values_kept_only_beside_others_left_out_are_kept_and_the_key_is_the_one_the_match_verb_follows() {
    let r = read_instruction(
        "2027年1月中（1/1〜1/31）に満期を迎える受取手形の一覧をお願いします。受取手形.csv のうち状態が「保有」のものだけで、割引済・裏書譲渡は除いてください。取引先名は 取引先.csv から取引先コードで引いてください。手形一覧.csv に出力。",
    );
    let filters: Vec<_> = r
        .steps
        .iter()
        .filter_map(|s| match s {
            Step::Filter { conditions, exclude } => Some((conditions, *exclude)),
            _ => None,
        })
        .collect();
    assert!(
        filters.iter().any(|(cs, exclude)| !exclude && cs.iter().any(|c| c.value == json!("保有"))),
        "{:?}",
        r.steps
    );
    assert!(filters.iter().all(|(_, exclude)| !exclude), "{:?}", r.steps);
    let key = r.steps.iter().find_map(|s| match s {
        Step::Join { key, .. } => key.clone(),
        _ => None,
    });
    assert_eq!(key.as_deref(), Some("取引先コード"));
    // What is left out is said of the values left out: those rows go.
    let r = read_instruction("受注.csv のうち、キャンセルのものは除いてください。結果.csv に出力。");
    assert!(r.steps.iter().any(|s| matches!(s, Step::Filter { exclude: true, .. })), "{:?}", r.steps);
}

#[test]
fn rows_said_not_to_be_needed_are_left_out_but_a_column_not_needed_in_the_output_keeps_every_row() {
    let r = read_instruction("在庫.csv を読んで、差異数量が0の品目は要りません。差異.csv に出力。");
    let left_out = r.steps.iter().any(|s| {
        matches!(s, Step::Filter { exclude: true, conditions } if conditions.iter().any(|c| c.field.as_deref() == Some("差異数量")))
    });
    assert!(left_out, "{:?}", r.steps);
    let r = read_instruction(
        "来客.csv を来訪日・来訪時刻の早い順に並べて 来客一覧.csv に出してください。来訪時刻は並べ替えに使うだけで、出力には要りません。",
    );
    assert!(!r.steps.iter().any(|s| matches!(s, Step::Filter { exclude: true, .. })), "{:?}", r.steps);
}

#[test]
fn a_value_outside_a_range_leaves_the_range_out_and_a_file_made_from_another_is_written() {
    let r = read_instruction(
        "excursions_nov.csv from cold_room_log.csv\n- November 2026 readings only (1-30 Nov)\n- temperature outside 2.0-8.0 °C; exactly 2.0 or 8.0 is within range\n- reading time, room, sensor, temp\n- any order",
    );
    assert_eq!(r.outputs.len(), 1);
    assert_eq!(r.outputs[0].path.as_deref(), Some("excursions_nov.csv"));
    assert_eq!(r.sources.len(), 1);
    assert_eq!(r.sources[0].path.as_deref(), Some("cold_room_log.csv"));
    let range_left_out = r.steps.iter().any(|s| {
        matches!(s, Step::Filter { exclude: true, conditions } if conditions.len() == 1
            && conditions[0].operator == "between"
            && conditions[0].field.as_deref() == Some("temperature")
            && conditions[0].value == json!(2) && conditions[0].value2 == Some(json!(8)))
    });
    assert!(range_left_out, "{:?}", r.steps);
    assert!(
        r.steps.iter().any(|s| matches!(s, Step::Filter { exclude: false, conditions } if conditions.iter().any(|c| c.value == json!("2026-11-01")))),
        "{:?}",
        r.steps
    );
    assert_eq!(r.columns, ["reading time", "room", "sensor", "temp"]);
    // Japanese, and a range said to be left out keeps the range.
    let r = read_instruction("測定.csv のうち、温度が2.0〜8.0℃から外れたものを 逸脱.csv に出して");
    let outside = r.steps.iter().any(|s| {
        matches!(s, Step::Filter { exclude: true, conditions } if conditions[0].operator == "between" && conditions[0].field.as_deref() == Some("温度"))
    });
    assert!(outside, "{:?}", r.steps);
    let r = read_instruction("Read log.csv, drop the readings outside 2 to 8 and write kept.csv");
    let kept = r.steps.iter().any(|s| {
        matches!(s, Step::Filter { exclude: false, conditions } if conditions.len() == 1 && conditions[0].operator == "between")
    });
    assert!(kept, "{:?}", r.steps);
}

#[test]
fn ones_said_to_be_out_are_left_out_and_a_tie_broken_by_a_comparative_before_its_key_is_the_next_key() {
    let r = read_instruction(
        "guarantees_expiring_q1.xlsx - from bank_guarantees.csv, the active guarantees that expire from today (4 Dec 2026) up to 31 Mar 2027, both days included. Cancelled ones out. Soonest expiry first; same expiry date -> bigger amount first.",
    );
    assert_eq!(r.outputs[0].path.as_deref(), Some("guarantees_expiring_q1.xlsx"));
    let period = r.steps.iter().any(|s| {
        matches!(s, Step::Filter { exclude: false, conditions } if conditions.iter().any(|c| c.operator == "between"
            && c.value == json!("2026-12-04") && c.value2 == Some(json!("2027-03-31"))))
    });
    assert!(period, "{:?}", r.steps);
    let cancelled_out = r.steps.iter().any(|s| {
        matches!(s, Step::Filter { exclude: true, conditions } if conditions.iter().any(|c| c.value == json!("cancelled")))
    });
    assert!(cancelled_out, "{:?}", r.steps);
    let sort = r.steps.iter().find_map(|s| match s {
        Step::Sort { by, descending, then, .. } => Some((by.clone(), *descending, then.clone())),
        _ => None,
    });
    let (by, descending, then) = sort.expect("a sort");
    assert_eq!((by.as_deref(), descending), (Some("expiry"), false));
    assert_eq!(then, [("amount".to_owned(), true)]);
}

#[test]
fn keys_listed_crossed_or_said_in_full_are_every_key_and_keys_said_short_are_the_ones_said_in_full() {
    let keys = |r: &Reading| -> Vec<Vec<String>> {
        r.steps
            .iter()
            .filter_map(|s| match s {
                Step::Aggregate { by, .. } => Some(by.clone()),
                _ => None,
            })
            .collect()
    };
    let r = read_instruction("売上.csv を部署・担当者ごとに金額を合計して 集計.csv に出して");
    assert_eq!(keys(&r), [["部署", "担当者"]]);
    let r = read_instruction("報告.csv の件数を、月 × 職場（職場コードと職場名）ごとに数えて 件数.csv に出して");
    assert_eq!(keys(&r), [["月", "職場コード", "職場名"]]);
    // Said in passing first (「月別・勘定科目別」), then in full: one grouping, and no month column
    // made for the key said short.
    let r = read_instruction(
        "経費.csv を月別・勘定科目別に集計してください。\n計上日から「計上月」を作って、計上月と勘定科目の組み合わせごとに金額を合計してください。月別集計.csv に出してください。",
    );
    assert_eq!(keys(&r), [["計上月", "勘定科目"]]);
    let months: Vec<&str> = r
        .steps
        .iter()
        .filter_map(|s| match s {
            Step::Compute { name, .. } => Some(name.as_str()),
            _ => None,
        })
        .collect();
    assert_eq!(months, ["計上月"]);
}

#[test]
fn groups_with_at_least_n_rows_compare_a_count_of_their_rows_not_the_total_asked_for() {
    let r = read_instruction(
        "From app_reviews.csv, average rating per app version, only for versions with at least 3 reviews. Write out.csv.",
    );
    let counted = r.steps.iter().any(|s| {
        matches!(s, Step::Aggregate { aggregations, .. } if aggregations.iter().any(|a| a.op == "count" && a.name.as_deref() == Some("reviews"))
            && aggregations.iter().any(|a| a.op == "avg"))
    });
    assert!(counted, "{:?}", r.steps);
    let compared = filter_conditions(&r);
    assert_eq!(compared.len(), 1);
    assert_eq!((compared[0].field.as_deref(), compared[0].operator), (Some("reviews"), "gte"));
    // A number of no rows is compared with the total.
    let r = read_instruction(
        "From sales.csv, average amount per region, only regions with an average of at least 500. Write out.csv.",
    );
    let counts = r
        .steps
        .iter()
        .any(|s| matches!(s, Step::Aggregate { aggregations, .. } if aggregations.iter().any(|a| a.op == "count")));
    assert!(!counts, "{:?}", r.steps);
}

#[test]
fn notes_one_a_line_with_new_names_said_as_equals_and_a_tie_after_an_arrow_are_read() {
    let r = read_instruction(
        "domains_due.xlsx <- domains.xlsx (sheet List)\nskip rows with state Cancelled\ncolumns in this order, named: Domain, Registrar, Renews (Domain = domain_name, Renews = renewal_date)\nsoonest renews first, same day -> domain A-Z",
    );
    assert_eq!(r.columns, ["domain_name", "Registrar", "renewal_date"]);
    assert_eq!(r.renamed, ["Domain", "Registrar", "Renews"]);
    // A name given is no value a row must hold.
    let conditions = filter_conditions(&r);
    assert_eq!(conditions.len(), 1, "{conditions:?}");
    assert_eq!(conditions[0].value, json!("Cancelled"));
    let sort = r.steps.iter().find_map(|s| match s {
        Step::Sort { by, then, .. } => Some((by.clone(), then.clone())),
        _ => None,
    });
    let (by, then) = sort.expect("a sort");
    // "in this order" orders the list, by no column; the tie is broken by the column renamed.
    assert_eq!(by.as_deref(), Some("renewal_date"));
    assert_eq!(then, [("domain_name".to_owned(), false)]);
}

#[test]
fn japanese_averages_of_a_formula_orders_by_what_is_measured_and_quoted_values_kept_are_read() {
    let r = read_instruction(
        "問い合わせ.csv から 2026年11月に受け付けた「完了」の問い合わせだけで、担当者ごとに件数と平均処理日数（完了日 − 受付日 の日数の平均、小数第1位まで・四捨五入）を出して。平均が長い担当者から順に、平均が同じなら件数の多い担当者を上にして。結果.csv に保存",
    );
    // The quoted value is kept, of no column a verb names; 決裁 / 承認 said of data asks for no approval.
    let kept = filter_conditions(&r).into_iter().find(|c| c.value == json!("完了")).expect("完了 kept");
    assert_eq!(kept.field, None);
    assert!(!ops(&r).contains(&"confirm"), "{:?}", ops(&r));
    // The days each row took, then their average per key, rounded after it.
    assert!(computed(&r).contains(&("処理日数", "difference")), "{:?}", r.steps);
    let averaged = r.steps.iter().position(|s| {
        matches!(s, Step::Aggregate { aggregations, .. } if aggregations.iter().any(|a| a.op == "avg" && a.field.as_deref() == Some("処理日数")))
    });
    let rounded = r.steps.iter().position(|s| matches!(s, Step::Compute { operation: "round", .. }));
    assert!(matches!((averaged, rounded), (Some(a), Some(r)) if a < r), "{:?}", r.steps);
    let sort = r.steps.iter().find_map(|s| match s {
        Step::Sort { by, descending, then, .. } => Some((by.clone(), *descending, then.clone())),
        _ => None,
    });
    assert_eq!(sort, Some((Some("平均".to_owned()), true, vec![("件数".to_owned(), true)])));
    let r = read_instruction("稟議一覧.csv から「決裁済」の稟議だけを 決裁済.csv に出して");
    assert!(!ops(&r).contains(&"confirm"), "{:?}", ops(&r));
    // The earliest row of each key.
    let r = read_instruction(
        "申込.csv は受付順ではないので、会員番号ごとに申込日時がいちばん早い1件だけを残して 初回申込.csv に出して",
    );
    assert!(
        matches!(&r.steps[..], [Step::LatestPerKey { by, order_by, newest: false }] if by == &["会員番号"] && order_by == "申込日時"),
        "{:?}",
        r.steps
    );
}

#[test]
fn a_word_for_rows_said_as_a_key_of_a_pair_or_after_then_is_the_column_of_that_name() {
    let r = read_instruction(
        "Check issues.csv for any employee + item combination that shows up more than once and give me all of those rows. Sort by employee id, then item, then issue date, and put it in twice.csv.",
    );
    assert!(
        r.steps.iter().any(|s| matches!(s, Step::Duplicates { by, remove: false, .. } if by == &["employee", "item"])),
        "{:?}",
        r.steps
    );
    let then = r.steps.iter().find_map(|s| match s {
        Step::Sort { then, .. } => Some(then.clone()),
        _ => None,
    });
    assert_eq!(then, Some(vec![("item".to_owned(), false), ("issue date".to_owned(), false)]));
}

#[test]
fn rows_not_yet_in_another_file_put_into_a_workbook_are_unmatched_rows_and_the_writer_is_no_value() {
    let r = read_instruction(
        "人事部で研修を担当している森です。\n受講申込.csv のうち、まだ 受講済み.csv に載っていないものを抜き出していただけますか。列は 社員番号・氏名・講座名 という名前にして、未受講者.xlsx にまとめてください。",
    );
    assert!(!r.mentioned_words.iter().any(|w| w == "森"), "{:?}", r.mentioned_words);
    assert!(!r.combine, "put into the workbook written, no tables put together");
    let join = r.steps.iter().find_map(|s| match s {
        Step::Join { key, unmatched, .. } => Some((key.clone(), *unmatched)),
        _ => None,
    });
    assert_eq!(join, Some((None, true)), "{:?}", r.steps);
    assert_eq!(r.columns, ["社員番号", "氏名", "講座名"]);
}

#[test]
fn rows_said_not_to_count_are_left_out_before_copies_are_found_and_a_count_is_no_text_held() {
    let r = read_instruction(
        "会議室予約.csv で、同じ部屋・同じ日に2件以上予約が入っているものを全部抜き出して 重複.csv に出して。状態が「取消」の予約は数えないで。",
    );
    assert_eq!(ops(&r), ["filter", "duplicates"], "{:?}", r.steps);
    let conditions = filter_conditions(&r);
    assert_eq!(conditions.len(), 1, "{conditions:?}");
    assert_eq!(conditions[0].value, json!("取消"));
}

#[test]
fn a_column_said_in_full_in_brackets_and_dates_in_the_form_shown_are_read() {
    let r = read_instruction(
        "在庫.xlsx から期限切れ間近のリストを作ってください。\n・列は 店舗（店舗名）・商品・数量・期限日 の順、期限日は 2027/03/31 の形式で\n・ファイル名は 間近.csv",
    );
    assert_eq!(r.columns, ["店舗名", "商品", "数量", "期限日"]);
    let last = r.steps.last();
    assert!(
        matches!(last, Some(Step::Compute { name, operation: "date_with_slashes", of, .. }) if name == "期限日" && of == &["期限日"]),
        "{:?}",
        r.steps
    );
    let r = read_instruction(
        "Read checks.csv. I need the check number, payee, amount and the issue date (as YYYY-MM-DD). Write out.csv",
    );
    assert!(
        r.steps.iter().any(|s| matches!(s, Step::Compute { name, operation: "date", .. } if name == "issue date")),
        "{:?}",
        r.steps
    );
}

#[test]
fn one_row_per_key_the_one_with_the_latest_date_typed_in_different_capitals_is_read() {
    let r = read_instruction(
        "members.csv has some people more than once, same email but sometimes typed with different capitals. Keep one row per email, the one with the most recent signed_up, and save it as members_clean.csv.",
    );
    assert!(r.keys_ignore_case);
    assert!(
        matches!(&r.steps[..], [Step::LatestPerKey { by, order_by, newest: true }] if by == &["email"] && order_by == "signed_up"),
        "{:?}",
        r.steps
    );
}

#[test]
fn labelled_lines_the_days_of_a_difference_and_every_date_column_in_the_form_said_are_read() {
    let r = read_instruction(
        "返品記録.csv の各返品について、返金日 − 受付日 の日数を出し、14日を超えているものを一覧にしてください。\n列：返品番号、顧客名、受付日、返金日、日数（日付は YYYY-MM-DD で）\n並び：日数の多い順、同じ日数なら返品番号順\n保存先：返金遅延.csv",
    );
    assert_eq!(r.columns, ["返品番号", "顧客名", "受付日", "返金日", "日数"]);
    assert!(computed(&r).contains(&("日数", "difference")), "{:?}", r.steps);
    let conditions = filter_conditions(&r);
    assert_eq!(conditions.len(), 1, "the form of the dates keeps no rows: {conditions:?}");
    assert_eq!((conditions[0].field.as_deref(), conditions[0].operator), (Some("日数"), "gt"));
    let sort = r.steps.iter().find_map(|s| match s {
        Step::Sort { by, descending, then, .. } => Some((by.clone(), *descending, then.clone())),
        _ => None,
    });
    assert_eq!(sort, Some((Some("日数".to_owned()), true, vec![("返品番号".to_owned(), false)])));
    let rewritten: Vec<&str> = r
        .steps
        .iter()
        .filter_map(|s| match s {
            Step::Compute { name, operation: "date", .. } => Some(name.as_str()),
            _ => None,
        })
        .collect();
    assert_eq!(rewritten, ["受付日", "返金日"]);
}

#[test]
fn rows_another_file_lists_are_left_out_and_zeros_a_spreadsheet_lost_lead_no_top() {
    let r = read_instruction(
        "顧客一覧.csv から、配信停止の申し出があった顧客（停止申出.xlsx の「停止」シート）を除いた顧客を 配信先.csv に出してください。照合は顧客コードでお願いします。停止申出.xlsx のほうはExcelで先頭の0が消えてしまっているものがあります。",
    );
    assert!(r.keys_ignore_leading_zeros);
    assert!(!ops(&r).contains(&"sort"), "a leading zero is no top: {:?}", r.steps);
    assert!(
        r.steps.iter().any(|s| matches!(s, Step::Join { unmatched: true, either_side: false, .. })),
        "{:?}",
        r.steps
    );
    let r = read_instruction("Match staff.csv with leavers.csv on employee_id and write everyone in staff.csv except the people listed in leavers.csv to current.csv. The leading zeros got dropped in leavers.csv.");
    assert!(r.keys_ignore_leading_zeros);
    assert!(r.steps.iter().any(|s| matches!(s, Step::Join { unmatched: true, .. })), "{:?}", r.steps);
}

#[test]
fn rows_said_not_to_be_of_a_period_are_left_out_and_the_period_is_kept() {
    for text in [
        "Read tickets.csv, drop closed tickets and anything not raised in March 2026. Save as open.csv.",
        "Read tickets.csv and keep only the tickets not raised in 2025. Save as open.csv.",
    ] {
        let r = read_instruction(text);
        let periods: Vec<(&Step, &Condition)> = r
            .steps
            .iter()
            .flat_map(|s| match s {
                Step::Filter { conditions, .. } => conditions.iter().map(|c| (s, c)).collect(),
                _ => Vec::new(),
            })
            .filter(|(_, c)| c.operator == "between")
            .collect();
        assert_eq!(periods.len(), 1, "{text}: {:?}", r.steps);
        let (step, _) = periods[0];
        let keeps = matches!(step, Step::Filter { exclude: false, .. });
        assert_eq!(keeps, text.contains("March"), "{text}: {:?}", r.steps);
    }
}

#[test]
fn a_column_saying_which_file_each_row_came_from_is_read_with_its_values_in_brackets() {
    let r = read_instruction(
        "Combine east.csv and west.xlsx with a depot column (East or West) and show depot, part, qty and bin. Save as stock.csv.",
    );
    assert!(r.combine);
    assert_eq!(r.source_column, Some(("depot".to_owned(), vec!["East".to_owned(), "West".to_owned()])));
    assert_eq!(r.columns, ["depot", "part", "qty", "bin"]);
    let r = read_instruction(
        "本店.csv と 支店.xlsx を1つの表にまとめて、店舗（「本店」か「支店」、どちらのファイルの行かで）・伝票番号・売上日・金額 の列にして 売上一覧.csv に出してください。",
    );
    assert!(r.combine);
    assert_eq!(r.source_column, Some(("店舗".to_owned(), vec!["本店".to_owned(), "支店".to_owned()])));
    assert_eq!(r.columns, ["店舗", "伝票番号", "売上日", "金額"]);
}

#[test]
fn a_range_of_days_in_one_month_an_order_with_its_tie_in_brackets_and_order_number_are_read() {
    let r = read_instruction("入館記録.csv から2026年9月1日〜15日に入館した分だけを 9月前半.csv に出してください。");
    let conditions = filter_conditions(&r);
    assert_eq!(conditions.len(), 1, "{conditions:?}");
    assert_eq!(
        (conditions[0].value.as_str(), conditions[0].value2.as_ref()),
        (Some("2026-09-01"), Some(&json!("2026-09-15")))
    );
    let r = read_instruction("入館記録.csv を入館日順（同じ日はカード番号順）で 並べ替え済.csv に出してください。");
    let sort = r.steps.iter().find_map(|s| match s {
        Step::Sort { by, then, .. } => Some((by.clone(), then.clone())),
        _ => None,
    });
    assert_eq!(sort, Some((Some("入館日".to_owned()), vec![("カード番号".to_owned(), false)])));
    let r = read_instruction(
        "From orders.csv, drop cancelled orders, and show order number, customer and total. Newest first; for orders on the same day, by order number. Save as out.csv.",
    );
    assert_eq!(r.columns, ["order number", "customer", "total"]);
    let sort = r.steps.iter().find_map(|s| match s {
        Step::Sort { then, .. } => Some(then.clone()),
        _ => None,
    });
    assert_eq!(sort, Some(vec![("order number".to_owned(), false)]));
}

#[test]
fn one_row_per_thing_said_of_the_files_removes_no_copies_and_a_sheet_named_in_brackets_is_read() {
    let r = read_instruction(
        "Read day.csv and night.xlsx (sheet Week 48 log); both are one row per shift. Put the two together and save as shifts.csv.",
    );
    assert!(!ops(&r).contains(&"dedupe"), "{:?}", r.steps);
    assert_eq!(r.sources[1].sheet.as_deref(), Some("Week 48 log"));
    let r = read_instruction("Read visits.csv and make a copy that has one row per visitor. Save as visitors.csv.");
    assert!(ops(&r).contains(&"dedupe"), "asked for: {:?}", r.steps);
}

#[test]
fn rows_totalled_or_counted_by_their_state_and_period_are_kept_first() {
    let r = read_instruction("From trips.csv, total the approved Q3 2026 trips by team and save team_totals.csv");
    let r2 = read_instruction("From refunds.csv, sum the settled November 2026 refunds per shop and save shops.csv");
    for r in [&r, &r2] {
        assert_eq!(ops(r)[..2], ["filter", "aggregate"], "{:?}", r.steps);
        let total = r.steps.iter().find_map(|s| match s {
            Step::Aggregate { aggregations, .. } => aggregations.first().cloned(),
            _ => None,
        });
        assert_eq!(total.map(|a| (a.op, a.field)), Some(("sum", None)), "the rows said, no column: {:?}", r.steps);
    }
    let conditions = filter_conditions(&r2);
    assert!(conditions.iter().any(|c| c.operator == "eq" && c.value == "settled"), "{conditions:?}");
    assert!(conditions.iter().any(|c| c.operator == "between" && c.value == "2026-11-01"), "{conditions:?}");
    let r =
        read_instruction("How many tickets per queue are still pending or cancelled in tickets.csv? Save queues.csv");
    assert_eq!(ops(&r), ["filter", "aggregate"], "{:?}", r.steps);
    let r = read_instruction("Which orders in orders.csv are not yet shipped? Save pending.csv");
    assert!(filter_conditions(&r).iter().any(|c| c.operator == "ne" && c.value == "shipped"), "{:?}", r.steps);
}

#[test]
fn columns_brought_from_another_file_are_a_lookup_done_before_what_needs_them() {
    let r = read_instruction(
        "From orders.csv, show order id, product name (from products.csv) and the quantity. Save lines.csv",
    );
    assert!(
        r.steps.iter().any(|s| matches!(s, Step::Join { unmatched: false, bring, .. } if bring == &["product name"])),
        "{:?}",
        r.steps
    );
    assert_eq!(r.columns, ["order id", "product name", "quantity"]);
    let r = read_instruction(
        "Add the supplier name and city from suppliers.csv to each line of po_lines.csv and save named.csv",
    );
    assert!(r.steps.iter().any(|s| matches!(s, Step::Join { .. })), "{:?}", r.steps);
    let r = read_instruction(
        "Sum the hours in timesheets.csv per cost centre (cost centre is in staff.csv, match on staff_id) and save cc.csv",
    );
    assert_eq!(ops(&r), ["join", "aggregate"], "the key the totals group by is brought first: {:?}", r.steps);
    // Read from a file, not brought from a second one.
    let r = read_instruction("pull what we need to restock from stock.csv and save restock.csv");
    assert!(!r.steps.iter().any(|s| matches!(s, Step::Join { .. })), "{:?}", r.steps);
}

#[test]
fn a_state_in_brackets_with_its_column_and_names_that_are_all_they_need_are_read() {
    let r = read_instruction(
        "they want every locked device in devices.csv (device_state Locked). serial, owner (as in the file) and site is all they need -> locked.csv",
    );
    let conditions = filter_conditions(&r);
    assert!(
        conditions.iter().any(|c| c.field.as_deref() == Some("device_state") && c.value == "Locked"),
        "{conditions:?}"
    );
    assert_eq!(r.columns, ["serial", "owner", "site"]);
    let r = read_instruction(
        "From claims.csv list the approved claims over 500 with claim no, person and amount, highest first -> big.csv",
    );
    assert_eq!(r.columns, ["claim no", "person", "amount"]);
    assert!(r.steps.iter().any(|s| matches!(s, Step::Sort { by: None, descending: true, .. })), "{:?}", r.steps);
}

#[test]
fn japanese_states_said_of_the_rows_totalled_or_left_out_keep_the_right_rows() {
    // 「承認済の経費を部署ごとに合計」: the state said of the rows totalled keeps them.
    let r = read_instruction("旅費.csv から11月に精算された支払済の旅費を部署ごとに合計して 部署別.csv に出して。");
    assert_eq!(ops(&r)[..2], ["filter", "aggregate"], "{:?}", r.steps);
    assert!(filter_conditions(&r).iter().any(|c| c.operator == "eq" && c.value == "支払済"), "{:?}", r.steps);
    // 「承認済金額の合計」: the amount of the approved rows.
    let r = read_instruction("旅費.csv の社員ごとの精算済金額の合計を 社員別.csv に。");
    assert!(filter_conditions(&r).iter().any(|c| c.operator == "eq" && c.value == "精算済"), "{:?}", r.steps);
    let total = r.steps.iter().find_map(|s| match s {
        Step::Aggregate { aggregations, .. } => aggregations.first().and_then(|a| a.field.clone()),
        _ => None,
    });
    assert_eq!(total.as_deref(), Some("金額"));
    // 「状態が承認済以外」: every other state.
    let r = read_instruction("申請.csv で状態が承認済以外のものを 未承認.csv に出して。");
    assert!(filter_conditions(&r).iter().any(|c| c.operator == "ne" && c.value == "承認済"), "{:?}", r.steps);
    // 「まだ承認されていない申請」 is a state, no approval asked; 「承認されたら」 waits for one.
    let r = read_instruction("申請.csv で、まだ承認されていない申請を 未承認.csv に出して。");
    assert!(!ops(&r).contains(&"confirm"), "{:?}", r.steps);
    let r = read_instruction("申請.csv は部長に承認されたら 結果.csv に保存して。");
    assert!(ops(&r).contains(&"confirm"), "{:?}", r.steps);
    // 「差戻しと申請中を除いた経費の合計」: the states are left out, no column of theirs totalled.
    let r = read_instruction("経費.csv から、差戻しと申請中を除いた経費の合計を費目別に出して 費目別.csv に保存。");
    let Some(Step::Filter { conditions, exclude: true }) = r.steps.first() else { panic!("{:?}", r.steps) };
    assert_eq!(conditions.len(), 2);
    assert!(
        r.steps.iter().any(|s| matches!(s, Step::Aggregate { aggregations, .. } if aggregations[0].field.is_none())),
        "{:?}",
        r.steps
    );
}

#[test]
fn japanese_keys_said_before_an_aside_lookups_in_brackets_and_rows_of_unregistered_codes_are_read() {
    let r =
        read_instruction("出荷.csv を営業所（拠点.csv から拠点コードで引く）ごとに数量を合計して 営業所別.csv へ。");
    assert!(r.steps.iter().any(|s| matches!(s, Step::Aggregate { by, .. } if by == &["営業所"])), "{:?}", r.steps);
    let r = read_instruction("出荷.csv ごとに金額を合計し、拠点名（拠点.csv）も付けて 拠点別.csv に出してください。");
    assert!(r.steps.iter().any(|s| matches!(s, Step::Join { bring, .. } if bring == &["拠点名"])), "{:?}", r.steps);
    let r = read_instruction(
        "出荷.csv から、拠点.csv に登録されていない拠点コードの出荷を抜き出して 未登録.csv に出して。",
    );
    assert!(
        r.steps.iter().any(|s| matches!(s, Step::Join { unmatched: true, wanted: Some(w), .. } if w == "出荷")),
        "{:?}",
        r.steps
    );
}

#[test]
fn a_file_named_alone_at_the_end_is_written_and_rows_going_to_a_file_visit_no_page() {
    // "… Round to whole yen. avg.csv", "… (top3.csv)": the name left alone last is written.
    let r = read_instruction("Per region in sales.csv, what is the median order value? Two decimals. medians.csv");
    assert_eq!(r.sources.len(), 1, "{:?}", r.sources);
    assert_eq!(r.outputs.first().and_then(|o| o.path.as_deref()), Some("medians.csv"));
    let r = read_instruction("Give me the five biggest paid orders in orders.csv (biggest_paid.csv)");
    assert_eq!(r.outputs.first().and_then(|o| o.path.as_deref()), Some("biggest_paid.csv"));
    // "the biggest paid orders": the rows, said with a state; the order is of their measure.
    assert!(
        r.steps.iter().any(|s| matches!(s, Step::Sort { by: None, limit: Some(5), descending: true, .. })),
        "{:?}",
        r.steps
    );
    assert!(r.steps.iter().any(|s| matches!(s, Step::Filter { .. })), "{:?}", r.steps);
    // A file read after another, with words after it, stays read.
    let r = read_instruction("Compare budget.csv with actuals.csv. Write variances.csv");
    assert_eq!(r.sources.len(), 2, "{:?}", r.sources);
    // "Unpaid bills go to chase.csv": rows going to a file, no browser.
    let r = read_instruction("Unpaid bills from bills.csv go to chase.csv, with each tenant's phone from tenants.csv");
    assert!(!ops(&r).contains(&"browser"), "{:?}", r.steps);
    assert_eq!(r.outputs.first().and_then(|o| o.path.as_deref()), Some("chase.csv"));
    assert!(r.steps.iter().any(|s| matches!(s, Step::Join { bring, .. } if bring == &["phone"])), "{:?}", r.steps);
    // "with the supplier's name looked up from vendors.csv": the column, not the verb.
    let r = read_instruction(
        "From purchase_orders.csv keep the open orders, with the supplier's name looked up from vendors.csv. Save open_pos.csv",
    );
    assert!(r.steps.iter().any(|s| matches!(s, Step::Join { bring, .. } if bring == &["name"])), "{:?}", r.steps);
}

#[test]
fn the_slowest_group_first_orders_by_time_and_a_state_of_rows_with_a_lookup_keeps_them() {
    let r = read_instruction(
        "From builds.csv, the average minutes per pipeline, slowest pipeline first. Save pipeline_times.csv",
    );
    assert!(
        r.steps
            .iter()
            .any(|s| matches!(s, Step::Sort { by: Some(by), descending: true, .. } if by == "average_minute")),
        "{:?}",
        r.steps
    );
    // 「未入金の売上を抜き出して…顧客名を顧客.csvから付けて」: a state kept, a name looked up, no
    // rows without a partner.
    let r =
        read_instruction("売上.csv から未入金の売上を抜き出して、顧客名を顧客.csvから付けて 未入金一覧.csv に出力。");
    assert!(
        r.steps.iter().any(|s| matches!(s, Step::Join { unmatched: false, bring, .. } if bring == &["顧客名"])),
        "{:?}",
        r.steps
    );
    assert!(
        r.steps.iter().any(|s| matches!(s, Step::Filter { conditions, exclude: false } if conditions.first().is_some_and(|c| c.value == json!("未入金")))),
        "{:?}",
        r.steps
    );
    // 「取り出して」 keeps rows too.
    let r = read_instruction("問合せ.csv から未対応の問合せを取り出して 未対応.csv に保存。");
    assert!(r.steps.iter().any(|s| matches!(s, Step::Filter { exclude: false, .. })), "{:?}", r.steps);
}

#[test]
fn columns_said_to_differ_with_no_comparison_read_are_asked_and_a_documents_word_in_a_table_reads_no_text() {
    // 「電話番号かメールのどちらかが違う社員」: no step compares the columns, so the words are asked.
    let r = read_instruction(
        "社員_旧.csv と 社員_新.csv を社員番号で突き合わせて、電話番号かメールのどちらかが違う社員を出して 差分.csv に保存。",
    );
    assert!(r.unplaced.iter().any(|u| u.contains("違う")), "{:?} {:?}", r.unplaced, r.steps);
    // 「申請者名の書き方が違っていても」 says what a duplicate is.
    let r = read_instruction("申請.csv で社員番号と日付が同じ申請の重複を削除して 申請_整理.csv に。申請者名の書き方が違っていても同じとみなします。");
    assert!(!r.unplaced.iter().any(|u| u.contains("違って")), "{:?}", r.unplaced);
    // 「契約書類一覧.csv」「書類番号」: a table; 「抜き出して」 keeps rows, no text read by a model.
    let r = read_instruction("契約書類一覧.csv から、状態が未承認の書類を抜き出して 未承認書類.csv に保存。");
    assert!(!ops(&r).contains(&"extract"), "{:?}", r.steps);
    assert!(r.steps.iter().any(|s| matches!(s, Step::Filter { exclude: false, .. })), "{:?}", r.steps);
}

#[test]
fn rows_past_due_as_of_a_day_are_due_before_it() {
    for text in [
        "Which unpaid bills in bills.csv are past their due date as of 2026-12-01? Save late.csv",
        "List the unpaid bills in bills.csv that were overdue on 2026-12-01 into late.csv",
    ] {
        let r = read_instruction(text);
        let Some(Step::Filter { conditions, exclude: false }) = r.steps.first() else {
            panic!("{text}: {:?}", r.steps)
        };
        assert!(
            conditions.iter().any(|c| c.operator == "lt" && c.value == json!("2026-12-01")),
            "{text}: {conditions:?}"
        );
        assert!(!conditions.iter().any(|c| c.value == json!("overdue")), "{text}: {conditions:?}");
    }
    // ("the overdue bills paid on 2026-12-01": the day they were paid.)
    let r = read_instruction("List the overdue bills in bills.csv that were paid on 2026-12-01 into paid_late.csv");
    let Some(Step::Filter { conditions, .. }) = r.steps.first() else { panic!("{:?}", r.steps) };
    assert!(conditions.iter().any(|c| c.operator == "eq" && c.value == json!("2026-12-01")), "{conditions:?}");
}

#[test]
fn a_column_of_dates_past_on_a_day_said_before_it_is_before_that_day() {
    let r = read_instruction("貸出.csv から、2026年12月1日時点で返却期限を過ぎている貸出を 督促.csv に出力");
    let Some(Step::Filter { conditions, .. }) = r.steps.first() else { panic!("{:?}", r.steps) };
    assert!(
        conditions
            .iter()
            .any(|c| c.field.as_deref() == Some("返却期限") && c.operator == "lt" && c.value == json!("2026-12-01")),
        "{conditions:?}"
    );
}

#[test]
fn a_total_of_a_measure_said_with_a_state_totals_the_rows_in_that_state() {
    let r = read_instruction("Give me the total paid amount per customer from invoices.csv as paid.xlsx");
    assert!(
        matches!(r.steps.first(), Some(Step::Filter { conditions, exclude: false }) if conditions.iter().any(|c| c.value == json!("paid"))),
        "{:?}",
        r.steps
    );
    assert!(
        r.steps.iter().any(
            |s| matches!(s, Step::Aggregate { aggregations, .. } if aggregations[0].field.as_deref() == Some("amount"))
        ),
        "{:?}",
        r.steps
    );
    // ("the total invoice amount": no state, the words name the measure.)
    let r = read_instruction("Give me the total invoice amount per customer from invoices.csv as totals.xlsx");
    assert!(!r.steps.iter().any(|s| matches!(s, Step::Filter { .. })), "{:?}", r.steps);
}

#[test]
fn a_count_asked_of_each_member_groups_by_it() {
    let r = read_instruction("How many expenses did each employee submit? expenses.csv -> counts.csv");
    assert!(
        matches!(r.steps.as_slice(), [Step::Aggregate { by, aggregations }] if by == &["employee"] && aggregations[0].op == "count"),
        "{:?}",
        r.steps
    );
}

#[test]
fn a_state_said_between_a_total_and_the_rows_keeps_the_rows_in_it() {
    let r = read_instruction("Total approved expenses per department from expenses.csv into dept_totals.csv");
    assert!(filter_conditions(&r).iter().any(|c| c.value == json!("approved")), "{:?}", r.steps);
    // ("the total paid in March": what was paid, summed; no state.)
    let r = read_instruction("Give me the total paid in March per vendor from payments.csv as paid.csv");
    assert!(!filter_conditions(&r).iter().any(|c| c.value == json!("paid")), "{:?}", r.steps);
}

#[test]
fn the_portion_of_a_value_keeps_the_rows_of_it() {
    let r = read_instruction("売上.csv の確定分について、担当者別に金額を合計して 担当者別.csv にしてください");
    assert!(
        filter_conditions(&r).iter().any(|c| c.field.is_none() && c.operator == "eq" && c.value == json!("確定")),
        "{:?}",
        r.steps
    );
    // (「区分について」: a word of its own, no value kept.)
    let r = read_instruction("経費.csv の経費区分について、区分ごとに金額を合計して 区分別.csv にしてください");
    assert!(!filter_conditions(&r).iter().any(|c| c.value == json!("経費区")), "{:?}", r.steps);
}

#[test]
fn a_measure_ending_like_a_word_of_matching_still_groups() {
    // ("duration" ends in "on", which before "by" matches rows; the word is read whole.)
    let r = read_instruction("Average duration per module in test_runs.csv to durations.csv");
    assert!(matches!(r.steps.as_slice(), [Step::Aggregate { by, .. }] if by == &["module"]), "{:?}", r.steps);
}

#[test]
fn totals_said_after_a_clause_of_their_groups_are_of_those_groups() {
    let r = read_instruction(
        "For each customer in invoices.csv, total the unpaid amount and count the unpaid invoices; write unpaid.xlsx",
    );
    let groupings: Vec<&Step> = r.steps.iter().filter(|s| matches!(s, Step::Aggregate { .. })).collect();
    assert!(
        matches!(groupings.as_slice(), [Step::Aggregate { by, aggregations }] if by == &["customer"] && aggregations.len() == 2),
        "{:?}",
        r.steps
    );
    // (Totals of every row said one after another: one row of both, not a count of the totals.)
    let r =
        read_instruction("From invoices.csv total the unpaid amount and count the unpaid invoices; write unpaid.csv");
    let groupings: Vec<&Step> = r.steps.iter().filter(|s| matches!(s, Step::Aggregate { .. })).collect();
    assert!(
        matches!(groupings.as_slice(), [Step::Aggregate { aggregations, .. }] if aggregations.len() == 2),
        "{:?}",
        r.steps
    );
}

#[test]
fn the_days_from_a_column_to_a_day_written_out_count_to_that_day() {
    let r = read_instruction(
        "Add a days_overdue column to invoices.csv: the days from due_date to 2026-11-30; save aged.csv",
    );
    assert!(
        r.steps
            .iter()
            .any(|s| matches!(s, Step::DaysUntil { from, until, .. } if from == "due_date" && until == "2026-11-30")),
        "{:?}",
        r.steps
    );
}

#[test]
fn an_average_named_as_one_noun_and_asked_for_too_is_one_more_total() {
    let r = read_instruction("経費精算.xlsx を科目ごとに集計し、平均金額（円未満切り捨て）も出して 科目別.csv へ");
    assert!(
        r.steps.iter().any(|s| matches!(s, Step::Aggregate { by, aggregations } if by == &["科目"]
            && aggregations.iter().any(|a| a.op == "avg" && a.field.as_deref() == Some("金額")))),
        "{:?}",
        r.steps
    );
}

#[test]
fn overdue_on_a_day_is_of_the_due_date_and_a_column_with_the_file_is_brought() {
    let r = read_instruction(
        "List unpaid invoices from invoices.csv that were overdue on 2026-11-20, with the customer name from customers.csv, oldest due date first, into overdue.csv",
    );
    assert!(
        filter_conditions(&r)
            .iter()
            .any(|c| c.field.as_deref() == Some("due date") && c.operator == "lt" && c.value == json!("2026-11-20")),
        "{:?}",
        r.steps
    );
    assert!(
        r.steps.iter().any(|s| matches!(s, Step::Join { key: None, bring, .. } if bring == &["customer name"])),
        "{:?}",
        r.steps
    );
}

#[test]
fn japanese_rows_said_the_japanese_way_are_read_as_said() {
    // 「売上.csvから得意先.csvの」: から ends the first name; the second file is 得意先.csv.
    let r = read_instruction("売上.csvから得意先.csvの地域を付けて 地域付き.csv に");
    let read: Vec<Option<&str>> = r.sources.iter().map(|s| s.path.as_deref()).collect();
    assert_eq!(read, [Some("売上.csv"), Some("得意先.csv")], "{:?}", r.sources);
    // 「売上.csvから10万円以上」: から alone names no column.
    let r = read_instruction("売上.csvから10万円以上の伝票を抜き出して 大口.csv に");
    assert!(filter_conditions(&r).iter().all(|c| c.field.is_none()), "{:?}", r.steps);
    // 「…を除いて、残りを」 with one file written: the rows kept.
    let r = read_instruction("売上.csvから状態が取消の伝票を除いて、残りを 有効.csv に保存");
    assert!(r.outputs.iter().all(|o| !o.rest), "{:?}", r.outputs);
    // 「得意先の一覧を重複なしで」: the one column, each value once.
    let r = read_instruction("売上.csvの得意先の一覧を重複なしで 得意先一覧.csv に");
    assert_eq!(r.columns, ["得意先"]);
    assert!(
        r.steps.iter().any(|s| matches!(s, Step::Duplicates { by, remove: true, .. } if by == &["得意先"])),
        "{:?}",
        r.steps
    );
    // 「金額が一番大きい伝票」: the first row of the order.
    let r = read_instruction("売上.csvの金額が一番大きい伝票を 最大.csv に");
    assert!(
        r.steps
            .iter()
            .any(|s| matches!(s, Step::Sort { by: Some(by), descending: true, limit: Some(1), .. } if by == "金額")),
        "{:?}",
        r.steps
    );
}

#[test]
fn japanese_totals_of_the_latest_day_and_of_a_measure_beside_a_count_are_read() {
    let r = read_instruction("売上.csvの得意先ごとに最も新しい日付を出して 最終.csv に");
    assert!(
        r.steps.iter().any(|s| matches!(s, Step::Aggregate { aggregations, .. }
            if aggregations.iter().any(|a| a.op == "max" && a.field.as_deref() == Some("日付")))),
        "{:?}",
        r.steps
    );
    let r = read_instruction("売上.csvの担当者ごとの売上件数と売上金額を出して 担当者.csv に");
    assert!(
        r.steps.iter().any(|s| matches!(s, Step::Aggregate { aggregations, .. }
            if aggregations.iter().any(|a| a.op == "count") && aggregations.iter().any(|a| a.op == "sum" && a.field.as_deref() == Some("売上金額")))),
        "{:?}",
        r.steps
    );
}

#[test]
fn keys_said_equal_are_each_tables_key_and_no_matching_row_is_unmatched() {
    let r = read_instruction(
        "Match bank.csv to invoices.csv on reference = invoice_no and write the bank lines with no matching invoice to unmatched.csv",
    );
    assert!(
        r.steps.iter().any(|s| matches!(s, Step::Join { unmatched: true, side_keys, .. }
            if side_keys == &[("bank.csv".to_owned(), "reference".to_owned()), ("invoices.csv".to_owned(), "invoice_no".to_owned())])),
        "{:?}",
        r.steps
    );
}

#[test]
fn how_often_rows_say_so_is_no_amount_and_a_code_of_the_rows_counted_keeps_them() {
    // 「2回以上NGになった」: a count of runs, no column compared with 2.
    let r = read_instruction("テスト結果.csvで2回以上NGになったテストケースを 不安定.csv に");
    assert!(!filter_conditions(&r).iter().any(|c| c.value == json!(2)), "{:?}", r.steps);
    // 「機能ごとにNGの件数を」: the NG rows, counted per 機能.
    let r = read_instruction("テスト結果.csv の機能ごとにNGの件数を数えて 機能別NG.csv に");
    assert!(filter_conditions(&r).iter().any(|c| c.field.is_none() && c.value == json!("NG")), "{:?}", r.steps);
    assert!(r.steps.iter().any(|s| matches!(s, Step::Aggregate { by, .. } if by == &["機能"])), "{:?}", r.steps);
}

#[test]
fn the_one_group_with_the_highest_total_is_the_top_one_by_its_total() {
    let r = read_instruction("Which category has the highest total in expenses.csv? Write top_category.csv");
    assert!(r.steps.iter().any(|s| matches!(s, Step::Aggregate { by, .. } if by == &["category"])), "{:?}", r.steps);
    assert!(r.steps.iter().any(|s| matches!(s, Step::Sort { descending: true, limit: Some(1), .. })), "{:?}", r.steps);
}

#[test]
fn the_one_that_holds_the_most_of_an_amount_is_the_top_one_by_its_total() {
    let r = read_instruction("Which warehouse holds the most units? Use inventory.csv and write the answer to top.csv");
    assert!(
        r.steps.iter().any(
            |s| matches!(s, Step::Aggregate { by, aggregations } if by == &["warehouse"] && aggregations[0].op == "sum")
        ),
        "{:?}",
        r.steps
    );
    assert!(r.steps.iter().any(|s| matches!(s, Step::Sort { descending: true, limit: Some(1), .. })), "{:?}", r.steps);
}

#[test]
fn the_unique_values_listed_are_one_column_each_value_once() {
    let r = read_instruction("List the unique vendors in payments.csv into vendors.csv");
    assert_eq!(r.steps, [Step::Duplicates { by: vec!["vendor".into()], remove: true, keep_last: false }]);
    assert_eq!(r.columns, ["vendor"]);
    // Said twice, removed once; an order of no column is of that column.
    let r = read_instruction(
        "Remove duplicate item names from inventory.csv and save the unique item names sorted alphabetically to items.csv",
    );
    let removals = r.steps.iter().filter(|s| matches!(s, Step::Duplicates { .. })).count();
    assert_eq!(removals, 1, "{:?}", r.steps);
    assert!(r.steps.iter().any(|s| matches!(s, Step::Sort { by: Some(by), .. } if by == "item name")), "{:?}", r.steps);
    // ("the distinct vendors with their total amount": totals per vendor, no removal.)
    let r =
        read_instruction("List the vendors from payments.csv with their total amount, biggest first, in totals.csv");
    assert!(r.steps.iter().any(|s| matches!(s, Step::Aggregate { by, .. } if by == &["vendor"])), "{:?}", r.steps);
    assert!(!r.steps.iter().any(|s| matches!(s, Step::Join { .. } | Step::Duplicates { .. })), "{:?}", r.steps);
    assert_eq!(r.outputs.len(), 1, "the file after the totals is written");
}

#[test]
fn rows_for_the_same_two_things_are_the_duplicates_of_both() {
    let r = read_instruction("Which payments are for the same vendor and the same amount? Put them in maybe_dupes.csv");
    assert!(
        r.steps.iter().any(|s| matches!(s, Step::Duplicates { by, remove: false, .. } if by == &["vendor", "amount"])),
        "{:?}",
        r.steps
    );
}

#[test]
fn how_much_was_paid_to_each_vendor_is_a_total_of_the_amounts() {
    let r = read_instruction("How much did we pay each vendor? payments.csv, result in paid.xlsx");
    assert!(
        r.steps.iter().any(|s| matches!(s, Step::Aggregate { by, aggregations }
            if by == &["vendor"] && aggregations[0].op == "sum" && aggregations[0].field.as_deref() == Some("amount"))),
        "{:?}",
        r.steps
    );
    assert_eq!(r.outputs.len(), 1, "the result in paid.xlsx is written");
    let r = read_instruction("How many hours did each employee log? timesheets.csv -> hours.csv");
    assert!(
        r.steps.iter().any(|s| matches!(s, Step::Aggregate { by, aggregations }
            if by == &["employee"] && aggregations[0].op == "sum" && aggregations[0].field.as_deref() == Some("hours"))),
        "{:?}",
        r.steps
    );
}

#[test]
fn a_total_said_again_in_other_words_is_one_grouping_and_the_last_file_named_as_is_written() {
    let r = read_instruction(
        "Could you total up the registration fees in regs.csv by department? One line per department with its total, highest total first. Excel please, as fees_by_dept.xlsx.",
    );
    let groupings = r.steps.iter().filter(|s| matches!(s, Step::Aggregate { .. })).count();
    assert_eq!(groupings, 1, "{:?}", r.steps);
    assert_eq!(r.outputs.len(), 1, "{:?}", r.sources);
    let r = read_instruction(
        "Which three warehouses spent the most on forklift repairs this year? Add up repair_cost per warehouse in repairs.csv, keep the top 3, biggest first, and put it in top3.xlsx.",
    );
    assert!(
        matches!(r.steps.as_slice(), [Step::Aggregate { aggregations, .. }, Step::Sort { limit: Some(3), .. }]
            if aggregations[0].field.as_deref() == Some("repair_cost")),
        "{:?}",
        r.steps
    );
    let r = read_instruction(
        "From courier_jobs.csv: one row per month with the month written like 2026-09, the number of jobs and the total charge, in month order. Call it monthly.csv.",
    );
    assert!(
        r.steps
            .iter()
            .any(|s| matches!(s, Step::Aggregate { by, aggregations } if by == &["month"] && aggregations.len() == 2)),
        "{:?}",
        r.steps
    );
}

#[test]
fn the_columns_said_whole_and_the_dearest_first_are_the_cost() {
    let r = read_instruction(
        "From periodicals.csv I only need the title, the publisher and the annual cost, nothing else. Most expensive subscription at the top, please, and save it to short.csv.",
    );
    assert_eq!(r.columns, ["title", "publisher", "annual cost"]);
    assert!(
        r.steps.iter().any(|s| matches!(s, Step::Sort { by: Some(by), descending: true, .. } if by == "cost")),
        "{:?}",
        r.steps
    );
}

#[test]
fn japanese_screens_counted_a_day_done_by_and_title_rows_said_are_read() {
    // 「画面ごとに」 groups by a column; no page is visited.
    let r = read_instruction("UAT指摘一覧.csv で、状態が「未対応」か「対応中」の指摘を画面ごとに数えて 残指摘.csv に");
    assert!(!r.steps.iter().any(|s| matches!(s, Step::Browser { .. })), "{:?}", r.steps);
    assert!(r.steps.iter().any(|s| matches!(s, Step::Aggregate { by, .. } if by == &["画面"])), "{:?}", r.steps);
    // 「…以降に完了した」: the day it was done, 完了日; 完了 is no state.
    let r = read_instruction(
        "今年度（2026年4月1日以降）に完了した修繕工事について、修繕履歴.csv の金額を物件ごとに合計して 結果.csv に",
    );
    assert_eq!(
        filter_of(&r),
        [Condition { field: Some("完了日".into()), operator: "gte", value: json!("2026-04-01"), value2: None }]
    );
}

#[test]
fn japanese_totals_of_each_month_group_by_the_month_but_each_row_groups_nothing() {
    let r = read_instruction("配送.csv について、9月〜11月の各月の本数と金額を合計して 月別.csv に");
    assert!(r.steps.iter().any(|s| matches!(s, Step::Aggregate { by, .. } if by == &["月"])), "{:?}", r.steps);
    let r = read_instruction("支払予定.csv の各発注について、支払予定日 − 受領日 の日数を出して 結果.csv に");
    assert!(!r.steps.iter().any(|s| matches!(s, Step::Aggregate { .. })), "{:?}", r.steps);
}

#[test]
fn a_site_or_a_visit_the_rows_are_about_is_no_web_page() {
    let r = read_instruction(
        "Every active site gets a completed visit each month. The sites are in sites.xlsx and the visit log is visits.csv. List the active sites with no completed visit in sites_missed.csv",
    );
    assert!(!r.steps.iter().any(|s| matches!(s, Step::Browser { .. })), "{:?}", r.steps);
    let r = read_instruction("Visit https://portal.example.com, download the invoices and save them to invoices.csv");
    assert!(r.steps.iter().any(|s| matches!(s, Step::Browser { .. })), "{:?}", r.steps);
}

#[test]
fn japanese_a_state_said_before_the_rows_noun_is_the_value_kept() {
    let r = read_instruction("発注.csv から未納の発注だけを抜き出して 未納.csv に保存");
    assert_eq!(filter_of(&r), [Condition { field: None, operator: "eq", value: json!("未納"), value2: None }]);
    let r = read_instruction("作業.csv から未着手の作業だけを 残作業.csv に");
    assert_eq!(filter_of(&r), [Condition { field: None, operator: "eq", value: json!("未着手"), value2: None }]);
}

#[test]
fn japanese_a_code_counted_and_minutes_compared_keep_their_rows() {
    let r = read_instruction("テスト結果.csv で機能ごとのNG件数を数えて NG件数.csv に");
    assert_eq!(filter_of(&r), [Condition { field: None, operator: "eq", value: json!("NG"), value2: None }]);
    let r = read_instruction("テスト結果.csv で、所要時間が30分以上のテストを一覧にして 長時間.csv に");
    assert_eq!(
        filter_of(&r),
        [Condition { field: Some("所要時間".into()), operator: "gte", value: json!(30), value2: None }]
    );
}

#[test]
fn a_state_said_of_the_rows_totalled_in_a_clause_that_writes_keeps_them() {
    for text in [
        "Give me the total approved expenses per category from expenses.csv, as t.csv",
        "Give me the average approved expense per category from expenses.csv, as avg.csv",
    ] {
        let r = read_instruction(text);
        assert_eq!(
            filter_of(&r),
            [Condition { field: None, operator: "eq", value: json!("approved"), value2: None }],
            "{text}"
        );
    }
}

#[test]
fn japanese_a_state_done_to_the_rows_and_a_file_written_before_an_aside_are_read() {
    let r = read_instruction("売上.csv の確定した売上だけを担当者ごとに合計して 担当者別.xlsx に");
    assert_eq!(filter_of(&r), [Condition { field: None, operator: "eq", value: json!("確定"), value2: None }]);
    let r = read_instruction("売上.csv の得意先ごとの件数と平均金額を出して 得意先別.csv に（取消は除く）");
    assert_eq!(r.sources.len(), 1, "{:?}", r.sources);
    assert_eq!(r.outputs.len(), 1, "{:?}", r.outputs);
}

#[test]
fn the_things_we_paid_the_most_are_the_top_by_their_total() {
    for (text, n) in [
        ("Show me the 2 vendors we paid the most in payments.csv, save top_vendors.csv", 2),
        ("Which vendor did we pay the most? payments.csv -> top.csv", 1),
    ] {
        let r = read_instruction(text);
        assert!(r.steps.iter().any(|s| matches!(s, Step::Aggregate { by, .. } if by == &["vendor"])), "{:?}", r.steps);
        assert!(r.steps.iter().any(|s| matches!(s, Step::Sort { limit: Some(l), .. } if *l == n)), "{:?}", r.steps);
    }
}

#[test]
fn the_things_whose_total_is_compared_are_totalled_first() {
    let r = read_instruction("List the employees whose total amount is more than 40000 in expenses.csv, save big.csv");
    assert!(
        matches!(r.steps.as_slice(), [Step::Aggregate { by, .. }, Step::Filter { .. }] if by == &["employee"]),
        "{:?}",
        r.steps
    );
}

#[test]
fn two_keys_joined_by_a_plus_are_one_grouping_and_any_order_sorts_nothing() {
    let r = read_instruction(
        "How many badges did we issue for each site and reason? The log is badges.csv. One row per site + reason with the count, any order is fine. Save to counts.csv.",
    );
    assert_eq!(ops(&r), ["aggregate"]);
    assert!(matches!(&r.steps[0], Step::Aggregate { by, .. } if by == &["site", "reason"]), "{:?}", r.steps);
}

#[test]
fn a_second_column_said_after_and_before_the_key_is_totalled_alike() {
    let r = read_instruction("Total hours and billable hours per employee from timesheets.csv, save as both.csv");
    let Step::Aggregate { by, aggregations } = &r.steps[0] else { panic!("{:?}", r.steps) };
    assert_eq!(by, &["employee"]);
    let fields: Vec<_> = aggregations.iter().map(|a| (a.op, a.field.as_deref())).collect();
    assert_eq!(fields, [("sum", Some("hour")), ("sum", Some("billable hour"))]);
    // Not a second column: a verb, or another total.
    let r = read_instruction("Sum the amount and count the rows per vendor in a.csv, b.csv");
    let Step::Aggregate { aggregations, .. } = &r.steps[0] else { panic!("{:?}", r.steps) };
    let ops: Vec<_> = aggregations.iter().map(|a| a.op).collect();
    assert_eq!(ops, ["sum", "count"]);
}

#[test]
fn how_many_hours_of_a_kind_per_key_adds_the_hours_up_and_rows_denied_a_word_keep_it_denied() {
    let r = read_instruction("How many non-billable hours per project? timesheets.csv -> nb.csv");
    let Step::Aggregate { aggregations, .. } = &r.steps[0] else { panic!("{:?}", r.steps) };
    assert_eq!(aggregations[0].op, "sum");
    assert_eq!(aggregations[0].field.as_deref(), Some("non-billable hours"));
    let r = read_instruction("From timesheets.csv, list the rows that are not billable, save as nonbill.csv");
    assert_eq!(ops(&r), ["filter"]);
    assert_eq!(r.value_words, ["not billable"]);
    // More than the denial: asked about, not kept by a word.
    let r = read_instruction("From a.csv, list the rows that are not billable and over 5 hours, save as b.csv");
    assert!(!r.value_words.iter().any(|w| w == "not billable"), "{:?}", r.value_words);
}

#[test]
fn a_format_asked_before_a_name_writes_it_and_the_order_they_are_in_sorts_nothing() {
    let r = read_instruction(
        "I need monthly totals of the fees in fees.csv: one row per month (write the month like 2026-09) with the total fee, oldest month first. Excel please, fees_by_month.xlsx.",
    );
    assert_eq!(r.outputs.len(), 1, "{:?}", r.sources);
    assert_eq!(r.outputs[0].path.as_deref(), Some("fees_by_month.xlsx"));
    // "one row per month" is the totals' row, no removal keyed by "the fees" said before.
    assert!(!ops(&r).contains(&"dedupe"), "{:?}", r.steps);
    let r = read_instruction(
        "I only need the loans that have come back (status Returned) out of loans.csv. Keep every column and the order they're in now, and save it as returned.xlsx.",
    );
    assert!(!ops(&r).contains(&"sort"), "{:?}", r.steps);
    let r = read_instruction(
        "Add up the cost per driver from sessions.csv. I just need each driver and their total cost, biggest total first. Save it as by_driver.csv",
    );
    assert_eq!(r.columns, ["driver", "total cost"]);
}

#[test]
fn over_another_column_by_more_than_a_number_compares_the_difference_said() {
    let r = read_instruction(
        "Can you check jobs.csv for invoices that came in more than 250.00 above the quote? I want event, vendor, quote, invoice and the overage (invoice minus quote), biggest overage first. Put it in overages.csv.",
    );
    assert_eq!(computed(&r), [("overage", "difference")]);
    let conditions = filter_conditions(&r);
    assert_eq!(conditions.len(), 1, "{conditions:?}");
    assert_eq!(conditions[0].field.as_deref(), Some("overage"));
    assert_eq!((conditions[0].operator, &conditions[0].value), ("gt", &json!(250)));
}

#[test]
fn the_first_row_for_each_key_said_with_a_removal_again_is_one_removal_by_that_key() {
    let r = read_instruction(
        "In applications.csv, keep only the first application for each employee_id (the earliest submitted; the file is already in the order they came in) and drop the repeats. All columns, saved as first.csv.",
    );
    assert_eq!(ops(&r), ["dedupe"], "{:?}", r.steps);
    assert!(matches!(&r.steps[0], Step::Duplicates { by, remove: true, keep_last: false } if by == &["employee_id"]));
}

#[test]
fn japanese_a_state_inside_a_value_or_a_file_name_and_a_column_named_bunrui_are_no_steps_of_their_own() {
    let r = read_instruction("a.csv から状態が「修理完了」のものだけ抜き出して、修理完了一覧.csv に保存して");
    let values: Vec<&serde_json::Value> = filter_conditions(&r).iter().map(|c| &c.value).collect();
    assert_eq!(values, [&json!("修理完了")]);
    let r =
        read_instruction("遺失物台帳.csv の分類ごとに件数を数えて、件数の多い順に 分類別件数.csv に保存してください。");
    assert!(!ops(&r).contains(&"classify"), "{:?}", r.steps);
    assert!(matches!(&r.steps[0], Step::Aggregate { by, .. } if by == &["分類"]), "{:?}", r.steps);
    // Categories to sort rows into are still a classification.
    let r = read_instruction("問い合わせ.csv の本文を「請求」「解約」「その他」に分類して 結果.csv に");
    assert!(ops(&r).contains(&"classify"), "{:?}", r.steps);
}

#[test]
fn japanese_the_first_one_per_key_with_an_aside_and_rows_with_no_answer_yet() {
    let r = read_instruction(
        "申込.csv に同じ社員の申込が重複して入っているので、社員番号ごとに最初の1件（申込日がいちばん早いもの）だけ残して、後から入ったものは消してください。重複除外.csv に保存お願いします。",
    );
    assert_eq!(ops(&r), ["dedupe"], "{:?}", r.steps);
    let r = read_instruction(
        "研修参加者.csv の人のうち、アンケート回答.csv にまだ回答が入っていない人を出してほしいです。未回答者.csv に保存してください。",
    );
    assert!(r.steps.iter().any(|s| matches!(s, Step::Join { unmatched: true, .. })), "{:?}", r.steps);
}

#[test]
fn the_same_row_order_as_the_file_sorts_nothing_and_a_latin_column_before_jun_sorts_by_it() {
    let r = read_instruction(
        "Quick one: from statement.csv keep only the lines whose status is Disputed and save them to disputed.csv. All the columns, and the same row order as the statement please.",
    );
    assert!(!ops(&r).contains(&"sort"), "{:?}", r.steps);
    let r = read_instruction(
        "整備記録.csv の費用を車両Noごとに合計して、車両No順（C-01から）で 車両別.xlsx に出してください。",
    );
    assert!(
        r.steps.iter().any(|s| matches!(s, Step::Sort { by: Some(by), descending: false, .. } if by == "車両No")),
        "{:?}",
        r.steps
    );
}

#[test]
fn japanese_rows_whose_keys_are_the_same_keep_the_first_said_after_a_check_in_other_words() {
    let r = read_instruction(
        "残業申請.csv に、同じ社員が同じ残業日の分を2回出しているものが混ざっています。社員番号と残業日が同じ行は、ファイルの中で最初に出てくる1行だけ残して 重複除去.csv に保存してください。",
    );
    assert_eq!(ops(&r), ["dedupe"], "{:?}", r.steps);
    assert!(
        matches!(&r.steps[0], Step::Duplicates { by, keep_last: false, .. } if by == &["社員番号", "残業日"]),
        "{:?}",
        r.steps
    );
}

#[test]
fn rows_pulled_into_a_file_or_put_in_one_after_an_aside_naming_another_write_it() {
    for text in [
        "Could you pull the 3 highest winning bids from a.csv into b.csv? Just lot number, item and winning bid.",
        "Copy the rows from a.csv into b.csv",
        "Can you total a.csv by building? I just need each building and its total spend, in an Excel file called b.xlsx.",
        "Which of the hires in a.csv don't have a ticket in t.csv yet? Put those hires (all their columns from a.csv) in b.csv, any order.",
    ] {
        let r = read_instruction(text);
        assert_eq!(r.outputs.len(), 1, "{text}: {:?}", r.sources);
        assert!(r.outputs[0].path.as_deref().is_some_and(|p| p.starts_with("b.")), "{text}: {:?}", r.outputs);
    }
    // A column brought into a file: that file is read.
    let r = read_instruction("Pull the department from employees.csv into expenses.csv");
    assert!(r.outputs.is_empty(), "{:?}", r.outputs);
}

#[test]
fn a_column_named_in_an_aside_after_the_file_is_the_one_totalled_and_slowest_is_that_total() {
    let r = read_instruction(
        "I need the average build time per pipeline from runs.csv (duration_min), rounded to one decimal place. One row per pipeline, slowest pipeline first. Save it as avg.csv.",
    );
    let Step::Aggregate { aggregations, .. } = &r.steps[0] else { panic!("{:?}", r.steps) };
    assert_eq!(aggregations[0].field.as_deref(), Some("duration_min"));
    assert!(
        r.steps
            .iter()
            .any(|s| matches!(s, Step::Sort { by: Some(by), descending: true, .. } if by.contains("duration_min"))),
        "{:?}",
        r.steps
    );
    // A key's column in brackets is no total's.
    let r = read_instruction(
        "budget_transfers.csv -> top.csv. approved transfers only. total amount moved out of each cost center (from_cc), top 3, largest first.",
    );
    let aggregations: Vec<_> = r
        .steps
        .iter()
        .find_map(|s| match s {
            Step::Aggregate { aggregations, .. } => Some(aggregations.clone()),
            _ => None,
        })
        .expect("a grouping");
    assert_eq!(aggregations[0].field.as_deref(), Some("amount moved out"), "not the key, from_cc");
    // "where approved is Yes" compares the column; "approved" is no state besides.
    let r = read_instruction(
        "In refunds.csv, take only the requests where approved is Yes and add up refund_amount per event. Save t.csv",
    );
    assert_eq!(filter_conditions(&r).len(), 1, "{:?}", filter_conditions(&r));
}

#[test]
fn sort_out_is_no_order_and_a_lookup_from_a_sheet_named_in_an_aside_brings_the_column_said() {
    let r = read_instruction(
        "Could you sort out photos.csv the way Dana from marketing wanted it and send it back as clean.xlsx? Thanks!",
    );
    assert!(!ops(&r).contains(&"sort"), "{:?}", r.steps);
    let r = read_instruction(
        "受注残一覧.csv の各行に、得意先マスタ.xlsx（シート「得意先」）から得意先コードで得意先名を引いて列を1つ追加し、結果.csv に保存してください。",
    );
    assert!(r.steps.iter().any(|s| matches!(s, Step::Join { bring, .. } if bring == &["得意先名"])), "{:?}", r.steps);
}

#[test]
fn which_n_things_cost_the_most_or_least_are_the_top_or_bottom_n() {
    let r = read_instruction(
        "Which 3 domains in renewals.csv cost the most to renew? I just need domain and renewal_cost, in top.csv.",
    );
    assert!(r.steps.iter().any(|s| matches!(s, Step::Sort { limit: Some(3), descending: true, .. })), "{:?}", r.steps);
    let r = read_instruction("Which 2 subscriptions in subs.csv cost the least? Save b.csv");
    assert!(r.steps.iter().any(|s| matches!(s, Step::Sort { limit: Some(2), descending: false, .. })), "{:?}", r.steps);
}

#[test]
fn a_column_named_before_the_word_column_and_a_date_form_in_brackets_are_read_as_said() {
    let r = read_instruction(
        "for each row of seats.csv could you add a monthly_cost column = seats x price_per_seat? Save it as cost.xlsx.",
    );
    assert_eq!(computed(&r), [("monthly_cost", "product")]);
    let r = read_instruction(
        "need window cleaning spend per month from invoices.csv -> by_month.csv. columns month (YYYY-MM) and total, months in date order",
    );
    assert!(!r.steps.iter().any(|s| matches!(s, Step::Formula { .. })), "{:?}", r.steps);
    let Some(Step::Aggregate { by, aggregations }) = r.steps.iter().find(|s| matches!(s, Step::Aggregate { .. }))
    else {
        panic!("{:?}", r.steps)
    };
    assert_eq!((by.as_slice(), aggregations[0].op), (["month".to_owned()].as_slice(), "sum"));
    assert!(r.steps.iter().any(|s| matches!(s, Step::Sort { by: Some(by), .. } if by == "month")), "{:?}", r.steps);
    // A name looked up is no measure.
    let r = read_instruction("Show me the department per employee from employees.csv, save d.csv");
    assert!(!ops(&r).contains(&"aggregate"), "{:?}", r.steps);
    // A deadline is no key.
    let r = read_instruction("Need this by EOD please: add up net_amount per customer from a.csv, save b.csv");
    let Some(Step::Aggregate { aggregations, .. }) = r.steps.iter().find(|s| matches!(s, Step::Aggregate { .. }))
    else {
        panic!("{:?}", r.steps)
    };
    assert_eq!(aggregations[0].field.as_deref(), Some("net_amount"));
}

#[test]
fn a_dash_between_clauses_is_no_minus_and_a_total_said_again_shorter_is_one() {
    let r = read_instruction(
        "Please add up the annuity fees in annuities.csv per country - one row per country with its total fee, largest total first. Excel please: totals.xlsx",
    );
    assert!(!r.steps.iter().any(|s| matches!(s, Step::Compute { .. })), "{:?}", r.steps);
    assert_eq!(ops(&r), ["aggregate", "sort"], "{:?}", r.steps);
    let r = read_instruction(
        "could you total the filing fees in visa.csv by destination country? Please leave out the applications that were Withdrawn - everything else counts, Refused ones included, since those fees were still paid. One row per country with its total, countries sorted A to Z. Save as fees.csv.",
    );
    let values: Vec<_> = filter_conditions(&r).iter().map(|c| c.value.clone()).collect();
    assert_eq!(values, [json!("withdrawn")]);
    assert!(matches!(&r.steps[0], Step::Filter { exclude: true, .. }), "{:?}", r.steps);
    assert_eq!(ops(&r), ["filter", "aggregate", "sort"], "{:?}", r.steps);
    assert!(r.steps.iter().any(|s| matches!(s, Step::Sort { by: Some(by), descending: false, .. } if by == "country")));
    // A bullet and a dash before a list of columns stay what they are.
    let r = read_instruction(
        "failed tests from run.csv, slowest first — just test_id, suite and duration_s. save as failed.csv",
    );
    assert_eq!(r.columns, ["test_id", "suite", "duration_s"]);
}

#[test]
fn japanese_columns_as_they_are_choose_none_and_the_first_of_each_combination_is_kept() {
    let r =
        read_instruction("臨時警備発注.csv で金額が10万円以上のものだけ → 10万円以上.csv。列はそのまま、元の順番で。");
    assert!(r.columns.is_empty(), "{:?}", r.columns);
    assert_eq!(ops(&r), ["filter"], "{:?}", r.steps);
    let r = read_instruction(
        "申請.csv に、同じ社員が同じソフトを2回以上申請している行があります。社員番号とソフトウェアの組み合わせごとに最初の申請だけ残して、重複除外.csv に保存してください。",
    );
    assert_eq!(ops(&r), ["dedupe"], "{:?}", r.steps);
    assert!(
        matches!(&r.steps[0], Step::Duplicates { by, keep_last: false, .. } if by == &["社員番号", "ソフトウェア"]),
        "{:?}",
        r.steps
    );
}

#[test]
fn japanese_a_name_left_last_after_the_file_read_is_written() {
    let r = read_instruction("売上.csv の商品ごとの数量の合計を出して、多い順に 商品別.csv");
    assert_eq!(r.outputs.len(), 1, "{:?}", r.sources);
    assert_eq!(r.outputs[0].path.as_deref(), Some("商品別.csv"));
    assert_eq!(r.sources.len(), 1, "{:?}", r.sources);
}

#[test]
fn the_file_the_rows_are_in_right_before_an_arrow_is_read() {
    for text in [
        "Give me the count per category in expenses.csv -> c.csv",
        "Give me the approved expenses in expenses.csv -> a.csv",
    ] {
        let r = read_instruction(text);
        assert_eq!(r.sources.iter().filter_map(|s| s.path.as_deref()).collect::<Vec<_>>(), ["expenses.csv"], "{text}");
        assert_eq!(r.outputs.len(), 1, "{text}: {:?}", r.outputs);
    }
}

#[test]
fn the_same_thing_for_the_same_amount_is_a_duplicate_check_and_a_month_said_after_totals_keeps_their_rows() {
    let r = read_instruction(
        "Find payments to the same vendor for the same amount in payments.csv and list them in dupes.xlsx",
    );
    assert!(
        matches!(&r.steps[..], [Step::Duplicates { by, remove: false, .. }] if by == &["vendor", "amount"]),
        "{:?}",
        r.steps
    );
    let r = read_instruction("How much did we pay each vendor in February? payments.csv -> feb.csv");
    assert_eq!(ops(&r), ["filter", "aggregate"], "{:?}", r.steps);
}

#[test]
fn the_order_the_rows_already_have_sorts_nothing_and_matches_nothing() {
    for text in [
        "Copy a.csv to b.csv, keeping the rows in the order they appear in the file.",
        "Copy a.csv to b.csv; keep the order of the file.",
        "Copy a.csv to b.csv, rows in file order.",
        "a.csv を b.csv にコピーして。行の並びは元ファイルの順で。",
        "a.csv を b.csv にコピーして。元の順で。",
    ] {
        assert!(read_instruction(text).steps.is_empty(), "{text}: {:?}", read_instruction(text).steps);
    }
}

#[test]
fn keys_said_twice_or_as_a_pair_group_once_each() {
    for text in [
        "Add up line_total in a.csv by store and vendor: one row for each store + vendor pair.",
        "Add up line_total in a.csv: one row for each store and vendor pair.",
    ] {
        let r = read_instruction(text);
        assert!(
            matches!(&r.steps[..], [Step::Aggregate { by, .. }] if by == &["store", "vendor"]),
            "{text}: {:?}",
            r.steps
        );
    }
}

#[test]
fn spend_said_before_each_month_totals_it_per_month_in_calendar_order() {
    let r = read_instruction(
        "How much did we spend on charter buses each month? a.csv has one row per booking with its trip_date. \
         I'd like the month and the total cost, in calendar month order, in b.csv.",
    );
    assert_eq!(ops(&r), ["compute", "aggregate", "sort"], "{:?}", r.steps);
    assert!(matches!(&r.steps[2], Step::Sort { by: Some(by), .. } if by == "month"), "{:?}", r.steps);
}

#[test]
fn the_thing_ranked_in_a_file_and_the_rows_a_list_is_for_are_no_columns() {
    let r = read_instruction(
        "Which three works in register.csv have the highest insured_value? Give me piece_id, title, artist and \
         insured_value for just those three, highest value first, in top3.csv.",
    );
    assert!(matches!(&r.steps[0], Step::Aggregate { by, .. } if by == &["work"]), "{:?}", r.steps);
    assert_eq!(r.columns, ["piece_id", "title", "artist", "insured_value"]);
}

#[test]
fn japanese_newest_row_per_key_said_with_its_date_in_an_aside_keeps_one_row_per_key() {
    let r = read_instruction(
        "鍵貸出台帳.csv から、鍵番号ごとに一番新しい記録（貸出日時がいちばん遅いもの）だけを残して 最新.csv に保存してください。",
    );
    assert!(
        matches!(&r.steps[..], [Step::LatestPerKey { by, order_by, newest: true }] if by == &["鍵番号"] && order_by == "貸出日時"),
        "{:?}",
        r.steps
    );
    let r = read_instruction("a.csv から、社員ごとに最も古い行を残して b.csv に。");
    assert!(matches!(&r.steps[..], [Step::LatestPerKey { newest: false, .. }]), "{:?}", r.steps);
}

#[test]
fn japanese_totals_list_the_key_beside_them_and_count_what_is_said_to_be_rows() {
    let r = read_instruction("補助.csv をクラブごとに集計して、クラブ名と補助額の合計を 結果.xlsx に出して。");
    assert!(
        matches!(&r.steps[0], Step::Aggregate { aggregations, .. }
            if aggregations.len() == 1 && aggregations[0].field.as_deref() == Some("補助額")),
        "{:?}",
        r.steps
    );
    let r = read_instruction("当直.csv を拠点ごとに集計して、当直回数（行数）と手当の合計を 結果.csv に。");
    assert!(
        matches!(&r.steps[0], Step::Aggregate { aggregations, .. }
            if aggregations[0].op == "count" && aggregations[0].name.as_deref() == Some("当直回数")),
        "{:?}",
        r.steps
    );
}

#[test]
fn japanese_units_in_brackets_are_part_of_no_formula_and_a_form_shown_keeps_no_month() {
    let r = read_instruction("灯油.csv に金額＝配達量(L)×単価(円/L)の列を足して 結果.csv に保存して。");
    assert!(
        matches!(&r.steps[0], Step::Compute { operation: "product", of, .. } if of == &["配達量", "単価"]),
        "{:?}",
        r.steps
    );
    let r = read_instruction(
        "a.csv の補充日から月を出して、月（「2026年9月」のような形）ごとの請求額の合計を b.csv へ出して。",
    );
    assert_eq!(ops(&r), ["compute", "aggregate"], "{:?}", r.steps);
}

#[test]
fn japanese_files_said_to_be_made_already_are_read_and_title_rows_are_no_top() {
    let r = read_instruction(
        "結果を 解析.xlsx（先頭2行はタイトルと出力日時）にまとめました。重大度が「高」の指摘だけを 高.xlsx に出力してください。",
    );
    assert_eq!(r.sources.iter().filter_map(|s| s.path.as_deref()).collect::<Vec<_>>(), ["解析.xlsx"]);
    assert_eq!(r.outputs.iter().map(|o| o.path.as_deref()).collect::<Vec<_>>(), [Some("高.xlsx")]);
    assert_eq!(ops(&r), ["filter"], "{:?}", r.steps);
    let r = read_instruction(
        "補充代を月ごとにまとめたいです。a.csv の補充日から月を出して、月ごとの請求額の合計を b.csv へ。",
    );
    assert_eq!(r.sources.iter().filter_map(|s| s.path.as_deref()).collect::<Vec<_>>(), ["a.csv"]);
    let r = read_instruction("空調フィルター交換記録（a.csv と b.csv）を1本にまとめて c.csv を作って。");
    assert!(r.steps.is_empty() && r.combine, "{:?}", r.steps);
}

#[test]
fn a_month_shown_as_an_example_is_the_form_months_are_written_in() {
    let r =
        read_instruction("a.csv の補充日から月を出して、月（「2026年9月」のような形）ごとの請求額の合計を b.csv へ。");
    assert_eq!(r.month_form.as_deref(), Some("2026年9月"));
    let r = read_instruction("Total a.csv per month (written like 2026/09) into b.csv.");
    assert_eq!(r.month_form.as_deref(), Some("2026/09"));
    let r = read_instruction("Total a.csv per month (written like 2026-09) into b.csv.");
    assert_eq!(r.month_form, None, "the form months are written in anyway");
}

#[test]
fn japanese_a_column_said_blank_before_what_it_means_keeps_the_blank_rows() {
    let r = read_instruction(
        "図書.csv から、返却予定日が2026/11/30以前なのに返却日が空欄、つまりまだ戻ってきていない本を 延滞.csv にして。",
    );
    let conditions = filter_conditions(&r);
    assert!(conditions.iter().any(|c| c.field.as_deref() == Some("返却日") && c.value == json!("")), "{conditions:?}");
    let r = read_instruction("a.csv の備考は空欄で大丈夫です。金額が1000以上の行を b.csv に");
    assert_eq!(filter_conditions(&r).len(), 1, "{:?}", r.steps);
}

#[test]
fn japanese_scores_renames_provisos_and_one_row_per_key_said_with_nara_read_as_said() {
    let r = read_instruction("a.csv から、合計点が730点以上の人を抜き出して b.csv に。");
    let conditions = filter_conditions(&r);
    assert!(
        conditions.iter().any(|c| c.field.as_deref() == Some("合計点") && c.operator == "gte" && c.value == json!(730)),
        "{conditions:?}"
    );
    let r = read_instruction(
        "出力は 社員番号・氏名・合計 の3列にして、合計の列名だけ「スコア」に変えてください。a.csv から b.csv に",
    );
    assert!(r.unplaced.is_empty(), "{:?}", r.unplaced);
    assert_eq!(r.renamed, ["社員番号", "氏名", "スコア"]);
    let r = read_instruction("a.csv から、ただし現場が「自社ヤード」の行は除いて b.csv に");
    assert_eq!(filter_conditions(&r)[0].field.as_deref(), Some("現場"));
    let r = read_instruction(
        "申込.csv に重複が入っています。電話番号が同じなら同一人物とみなして、いちばん最初に受け付けた1件だけを残して 結果.csv に保存して。",
    );
    assert!(
        matches!(&r.steps[..], [Step::Duplicates { by, remove: true, keep_last: false }] if by == &["電話番号"]),
        "{:?}",
        r.steps
    );
}

#[test]
fn the_n_with_the_lowest_said_without_a_noun_is_a_top_n() {
    let r =
        read_instruction("Take a.csv and give me the three with the lowest condition score, lowest first. File: b.csv");
    assert!(
        matches!(&r.steps[..], [Step::Sort { by: Some(by), descending: false, limit: Some(3), .. }] if by == "condition score"),
        "{:?}",
        r.steps
    );
}

#[test]
fn a_dash_before_a_list_columns_listed_then_only_and_any_order_read_as_said() {
    let r = read_instruction(
        "Please list the custodians with no acknowledgement at all - custodian ID, name and department only, any order is fine. \
         a.csv is everyone, b.csv what came back, match on custodian_id, save c.csv",
    );
    assert!(matches!(&r.steps[..], [Step::Join { unmatched: true, .. }]), "{:?}", r.steps);
    assert_eq!(r.columns, ["custodian ID", "name", "department"]);
    let r = read_instruction("Add a column to a.csv: budget - actual. Save b.csv");
    assert_eq!(computed(&r), [("difference", "difference")], "a dash between two columns subtracts");
}

#[test]
fn verbs_between_a_column_and_its_comparison_a_greeting_dash_and_operand_words_read_as_said() {
    let r = read_instruction(
        "Hi - could you pull every sample from a.csv where the turbidity came back over 4 NTU and save them as b.csv?",
    );
    assert_eq!(ops(&r), ["filter"], "{:?}", r.steps);
    let conditions = filter_conditions(&r);
    assert_eq!(conditions[0].field.as_deref(), Some("turbidity"));
    let r =
        read_instruction("Take a.csv and add one at the end: rooms blocked minus rooms picked up. Save it to b.csv.");
    assert_eq!(ops(&r), ["compute"], "\"blocked\" of \"rooms blocked\" keeps no rows: {:?}", r.steps);
}

#[test]
fn japanese_a_file_named_as_the_output_a_total_said_shorter_and_empty_groups_left_out_read_as_said() {
    let r = read_instruction(
        "運行記録.csv から、ドライバー別に走行距離の合計と運行回数（行の数）を出して、距離の合計が多い順に並べてください。\
         送迎距離.xlsx という名前にしてもらえると助かります。",
    );
    assert_eq!(r.sources.iter().filter_map(|s| s.path.as_deref()).collect::<Vec<_>>(), ["運行記録.csv"]);
    assert_eq!(r.outputs.iter().filter_map(|o| o.path.as_deref()).collect::<Vec<_>>(), ["送迎距離.xlsx"]);
    assert!(
        matches!(&r.steps[..], [Step::Aggregate { aggregations, .. }, Step::Sort { by: Some(by), .. }]
            if aggregations.iter().filter(|a| a.op == "sum").count() == 1 && by == "走行距離合計"),
        "{:?}",
        r.steps
    );
    let r = read_instruction(
        "指摘.csv の是正状況が「是正済」のものを除いて、現場ごとに件数を集計して。残りが0件の現場は載せなくて結構です。結果.csv に保存して。",
    );
    assert_eq!(ops(&r), ["filter", "aggregate"], "{:?}", r.steps);
}

#[test]
fn a_dash_between_a_state_and_a_verb_subtracts_nothing() {
    let r = read_instruction(
        "Total kWh per month in a.xlsx, counting only readings whose source is metered - leave the rest. Save b.csv",
    );
    assert!(!r.steps.iter().any(|s| matches!(s, Step::Compute { operation: "difference", .. })), "{:?}", r.steps);
}

#[test]
fn a_column_saying_which_file_names_the_files_by_their_values() {
    let r = read_instruction(
        "Put riverside_stalls.csv and hilltop_stalls.csv together into one list with a Market column saying Riverside or Hilltop, and keep only the unpaid ones. Save as unpaid.csv",
    );
    assert!(r.combine);
    assert_eq!(r.source_column, Some(("Market".to_owned(), vec!["Riverside".to_owned(), "Hilltop".to_owned()])));
    // Values no file is named after say nothing of the files.
    let r = read_instruction(
        "Put riverside_stalls.csv and hilltop_stalls.csv together with a Status column saying Open or Closed. Save as all.csv",
    );
    assert_eq!(r.source_column, None);
}

#[test]
fn rows_that_go_to_someone_visit_no_page() {
    let r = read_instruction(
        "Finance wants the site details on the payments before they go to the sponsor. For each row of payments.csv, look the site up in sites.csv by site_no and add the site name at the end. Write it to out.csv.",
    );
    assert!(!r.steps.iter().any(|s| matches!(s, Step::Browser { .. })), "{:?}", r.steps);
}

#[test]
fn a_lookup_said_around_its_thing_with_the_order_kept_keeps_every_row() {
    let r = read_instruction(
        "For each row of payments.csv, look the site up in sites.csv by site_no and add the site name at the end. \
         Keep the payments in the order they're listed. Write it to out.csv.",
    );
    assert_eq!(ops(&r), ["join"], "{:?}", r.steps);
    let r = read_instruction(
        "For each row of payments.csv, look the site up in sites.csv by site_no and add the site name and the \
         principal investigator as two extra columns at the end. Write it to out.csv.",
    );
    assert!(
        matches!(&r.steps[..], [Step::Join { bring, .. }] if bring == &["site name", "principal investigator"]),
        "{:?}",
        r.steps
    );
    let r = read_instruction("Read a.csv. Keep the payments in the original order. Write b.csv");
    assert!(r.steps.is_empty(), "{:?}", r.steps);
}

#[test]
fn each_keys_first_row_kept_with_the_order_the_file_has_sorts_nothing() {
    let r = read_instruction(
        "A few runners signed up more than once (race.csv). Please keep only each email address's first registration \
         (the file is already in time order) and drop the later ones. Keep all the columns and the row order as they \
         are, and save it as clean.csv.",
    );
    assert!(
        matches!(&r.steps[..], [Step::Duplicates { by, remove: true, keep_last: false }] if by == &["email address"]),
        "{:?}",
        r.steps
    );
    let r = read_instruction("Read a.csv; the rows are already sorted by date. Total amount per vendor. Save b.csv");
    assert_eq!(ops(&r), ["aggregate"], "{:?}", r.steps);
}

#[test]
fn a_list_of_columns_ends_where_the_saving_starts() {
    let r = read_instruction(
        "Take a.csv. Give me posting id, folio no, guest name, item and amount, and save it as b.csv.",
    );
    assert_eq!(r.columns, ["posting id", "folio no", "guest name", "item", "amount"]);
}

#[test]
fn the_last_word_of_a_name_in_capitals_is_no_value() {
    let r = read_instruction("Runners signed up twice for the Harbor Half. Read race.csv, save clean.csv");
    assert!(!r.mentioned_words.iter().any(|w| w == "Half"), "{:?}", r.mentioned_words);
    assert!(r.mentioned_words.iter().any(|w| w == "Harbor Half"), "{:?}", r.mentioned_words);
}

#[test]
fn days_said_without_their_year_are_days_of_the_year_asked_or_settled() {
    let range = |text: &str| {
        filter_conditions(&read_instruction(text))
            .iter()
            .find(|c| c.operator == "between")
            .map(|c| (c.value.clone(), c.value2.clone()))
    };
    let week = Some((json!("${vars.year}-11-02"), Some(json!("${vars.year}-11-08"))));
    assert_eq!(range("From t.csv, total card tips per server for the week of Nov 2 through Nov 8. Save x.csv"), week);
    assert_eq!(range("t.csv の11月2日から11月8日までの分を、担当者ごとに合計して x.csv に"), week);
    // 「11/2」 alone may be a fraction; 「11/2〜11/8」, two ends of a range, are days.
    assert_eq!(range("t.csv の 11/2〜11/8 の分を x.csv に"), week);
    // Said again with the year elsewhere: one condition, with the year.
    let r = read_instruction(
        "Our Q1 2026 spend by vendor from bills.xlsx (January 1 through March 31, both days included). Save x.csv",
    );
    assert!(filter_conditions(&r).iter().all(|c| !c.value.to_string().contains("vars.year")), "{:?}", r.steps);
}

#[test]
fn the_same_key_said_twice_with_a_verb_between_is_two_keys() {
    let r = read_instruction(
        "From coupons.csv, list every redemption where the same customer email used the same coupon code more than once. Save x.csv",
    );
    assert!(
        matches!(&r.steps[..], [Step::Duplicates { by, remove: false, .. }] if by == &["customer email", "coupon code"]),
        "{:?}",
        r.steps
    );
}

#[test]
fn how_much_each_got_in_a_measure_totals_it_and_its_sibling_left_out_keeps_every_row() {
    let r = read_instruction(
        "From tips.csv, how much did each server get in card tips? Leave the cash tips out of it. Save x.csv",
    );
    assert!(
        matches!(&r.steps[..], [Step::Aggregate { by, aggregations }]
            if by == &["server"] && aggregations[0].field.as_deref() == Some("card tip")),
        "{:?}",
        r.steps
    );
    // Words of rows left out that name no measure still leave rows out.
    let r = read_instruction("From tips.csv, total card tips per server. Leave the cash payments out. Save x.csv");
    assert_eq!(ops(&r), ["filter", "aggregate"], "{:?}", r.steps);
}

#[test]
fn rows_said_then_defined_are_kept_as_the_definition_says() {
    let r = read_instruction(
        "Can you pull the tenants who haven't paid for November yet? In units.csv that's anyone whose paid-through \
         date is before 2026-11-01. Only status Occupied. I need Unit and Tenant, in that order, longest overdue \
         first (earliest paid-through date at the top). File: behind.csv",
    );
    let conditions = filter_conditions(&r);
    assert_eq!(conditions.len(), 2, "no month and no state of 'paid-through': {conditions:?}");
    assert_eq!((conditions[0].field.as_deref(), conditions[0].operator), (Some("paid through date"), "lt"));
    assert_eq!((conditions[1].field.as_deref(), &conditions[1].value), (Some("status"), &json!("Occupied")));
    assert!(
        matches!(r.steps.last(), Some(Step::Sort { by: Some(by), descending: false, .. }) if by == "paid-through date"),
        "{:?}",
        r.steps
    );
    assert_eq!(r.columns, ["Unit", "Tenant"]);
}

#[test]
fn japanese_values_listed_in_order_a_nearest_first_order_both_keys_and_a_blank_said_otherwise_are_read() {
    let r = read_instruction(
        "米.xlsx を等級ごとにまとめてください。等級がまだ付いていない（空欄の）行は除いてください。\
         等級・袋数の合計 の2列で、1等、2等、3等、規格外の順に並べて b.csv に保存をお願いします。",
    );
    assert_eq!(r.value_orders.len(), 1, "{:?}", r.value_orders);
    assert_eq!((r.value_orders[0].0.as_str(), r.value_orders[0].1.len()), ("等級", 4));
    assert!(
        matches!(&r.steps[0], Step::Filter { conditions, exclude: true }
            if conditions[0].field.as_deref() == Some("等級") && conditions[0].value == json!("")),
        "{:?}",
        r.steps
    );
    let r = read_instruction("a.csv の許可番号・許可期限 の2列で、期限の近い順に並べて b.csv に出してください。");
    assert!(
        matches!(r.steps.last(), Some(Step::Sort { by: Some(by), descending: false, .. }) if by == "期限"),
        "{:?}",
        r.steps
    );
    let r = read_instruction("手配.csv で、故人名と斎場の両方が同じ手配が2件以上あるものを全部抜き出して b.csv に");
    assert!(
        matches!(&r.steps[..], [Step::Duplicates { by, remove: false, .. }] if by == &["故人名", "斎場"]),
        "{:?}",
        r.steps
    );
}

#[test]
fn japanese_columns_named_after_what_makes_them_and_a_good_order_said_in_brackets_are_read() {
    let r = read_instruction(
        "スコア.csv の OUT と IN を足したものがグロス、グロスから HC（ハンデ）を引いたものがネットです。\
         氏名・ネット の2列で、ネットの良い順（少ない順）に並べて b.csv に",
    );
    assert!(
        matches!(&r.steps[..], [Step::Formula { name: g, of, .. }, Step::Compute { name: n, operation: "difference", .. }, Step::Sort { by: Some(by), descending: false, .. }]
            if g == "グロス" && of == &["OUT", "IN"] && n == "ネット" && by == "ネット"),
        "{:?}",
        r.steps
    );
    // Which way is good, said nowhere: the words stay as said (and are asked).
    let r = read_instruction("a.csv を点数の良い順に並べて b.csv に");
    assert!(matches!(&r.steps[..], [Step::Sort { by: Some(by), .. }] if by == "点数の良い"), "{:?}", r.steps);
}

#[test]
fn japanese_the_cheapest_row_of_each_key_a_month_of_people_and_work_being_done_are_read() {
    let r = read_instruction(
        "4月の転勤者の引越し見積を比較しています。見積.csv から、社員ごとに一番安い見積を1件ずつ選んでください。\
         社員番号順に並べて 最安.csv に保存してください。",
    );
    assert!(r.unplaced.is_empty(), "{:?}", r.unplaced);
    assert!(
        matches!(&r.steps[..], [Step::LatestPerKey { by, order_by, newest: false }, Step::Sort { .. }]
            if by == &["社員"] && order_by == "見積金額"),
        "no month of the rows, the cheapest per key: {:?}",
        r.steps
    );
    // A month of the rows is still one.
    let r = read_instruction("売上.csv の4月の売上を b.csv に");
    assert_eq!(filter_conditions(&r)[0].operator, conditions::MONTH_OF_UNSAID_YEAR);
}

#[test]
fn a_condition_said_of_what_a_formula_comes_out_as_and_columns_shown_rounded_are_read() {
    let r = read_instruction(
        "From wines.csv: Markup = list price / bottle cost. List only the ones where that comes out over 3, \
         showing bin, wine and the markup rounded to 2 decimals. Save to out.csv.",
    );
    assert!(
        filter_conditions(&r).iter().any(|c| c.field.as_deref() == Some("Markup") && c.operator == "gt"),
        "{:?}",
        r.steps
    );
    assert_eq!(r.columns, ["bin", "wine", "markup"]);
    // A column named like a word of results stays itself.
    let r = read_instruction("Count the runs per month from runs.csv; only rows with result Failed. Save x.csv");
    assert!(!filter_conditions(&r).iter().any(|c| c.field.as_deref() == Some("month")), "{:?}", r.steps);
}

#[test]
fn ignoring_rows_by_what_they_are_leaves_them_out_and_a_percent_operand_and_decimals_said_alone_are_read() {
    for text in [
        "Read runs.csv. Ignore the runs marked Aborted. Save out.csv",
        "From runs.csv, ignore the aborted runs. Save out.csv",
    ] {
        let r = read_instruction(text);
        assert!(matches!(&r.steps[..], [Step::Filter { exclude: true, .. }]), "{text}: rows left out: {:?}", r.steps);
        assert!(r.left_out_words.iter().any(|w| w.eq_ignore_ascii_case("aborted")), "{:?}", r.left_out_words);
    }
    // What a match does not compare leaves no rows out.
    let r = read_instruction("just compare the reference codes exactly, ignore amounts and dates. Save out.csv");
    assert!(!r.steps.iter().any(|s| matches!(s, Step::Filter { .. })), "{:?}", r.steps);
    // "start %" is a percentage column in a formula; "to one decimal" alone rounds it.
    let r = read_instruction("From runs.csv, drain per hour = (start % - end %) / hours, to one decimal. Save out.csv");
    assert!(
        matches!(&r.steps[..], [Step::Formula { of, .. }, Step::Compute { operation: "round", value: Some(v), .. }]
            if of == &["start pct", "end pct", "hour"] && *v == 1.0),
        "{:?}",
        r.steps
    );
}

#[test]
fn a_key_used_by_more_than_one_row_is_a_duplicate_check_and_totals_said_again_with_a_count_join_the_grouping() {
    let r =
        read_instruction("In tags.csv, show me every row whose tag is used by more than one check-in. Save out.csv");
    assert!(
        matches!(&r.steps[..], [Step::Duplicates { by, remove: false, .. }] if by == &["tag"]),
        "no condition 'tag is used': {:?}",
        r.steps
    );
    // The top of the keys listed with their totals groups by the keys, not by "top".
    let r = read_instruction(
        "From lessons.csv, give me the top 3 instructors with their total hours and number of lessons. Save out.csv",
    );
    assert!(
        matches!(&r.steps[0], Step::Aggregate { by, aggregations } if by == &["instructor"] && aggregations.len() == 2),
        "{:?}",
        r.steps
    );
    // "per instructor, and the number of lessons": a measure, no second key.
    let r =
        read_instruction("From lessons.csv, add up the hours per instructor, and the number of lessons. Save out.csv");
    assert!(matches!(&r.steps[..], [Step::Aggregate { by, .. }] if by == &["instructor"]), "{:?}", r.steps);
    // More of the totals said after the order: one grouping, the total said again once.
    let r = read_instruction(
        "From lessons.csv, add up the lesson hours per instructor. Give me the top 3 instructors by hours, most \
         first, with their total hours and number of lessons taught. Save out.csv",
    );
    assert!(
        matches!(&r.steps[..], [Step::Aggregate { by, aggregations }, Step::Sort { limit: Some(3), .. }]
            if by == &["instructor"] && aggregations.iter().map(|a| a.op).collect::<Vec<_>>() == ["sum", "count"]),
        "never a total of the totals: {:?}",
        r.steps
    );
    // Values taken alike keep no rows and are no words to ask about.
    let r = read_instruction(
        "From lessons.csv, add up the hours per instructor (private and group lessons together). Save out.csv",
    );
    assert!(!r.mentioned_words.iter().any(|w| w.eq_ignore_ascii_case("private")), "{:?}", r.mentioned_words);
}

#[test]
fn months_in_order_sort_by_month_a_capitalised_formula_is_no_new_name_and_a_limit_either_way_is_both_sides() {
    let r = read_instruction("From bills.csv, total the amount per month, months in order, into out.csv");
    assert!(
        r.steps.iter().any(|s| matches!(s, Step::Sort { by: Some(by), descending: false, .. } if by == "month")),
        "{:?}",
        r.steps
    );
    // "Drift = sensor_c - reference_c" works out a column; "Host = common_name" names one.
    let r = read_instruction("From checks.csv: Drift = sensor_c - reference_c. Save out.csv");
    assert!(
        matches!(&r.steps[..], [Step::Compute { name, operation: "difference", of, .. }]
            if name == "Drift" && of == &["sensor_c", "reference_c"]),
        "{:?}",
        r.steps
    );
    assert_eq!(
        words::renamed_one_by_one("Columns: Host = common_name, Drift = sensor_c - reference_c", Language::En),
        [("common_name".to_owned(), "Host".to_owned())]
    );
    // "more than 0.5 either way": the rows outside -0.5 to 0.5.
    let r =
        read_instruction("From checks.csv, list the checks where the drift is more than 0.5 either way. Save out.csv");
    assert!(
        matches!(&r.steps[..], [Step::Filter { conditions, exclude: true }]
            if conditions[0].operator == "between" && conditions[0].value == -0.5 && conditions[0].value2 == Some(serde_json::json!(0.5))),
        "{:?}",
        r.steps
    );
}

#[test]
fn a_value_with_a_hyphen_is_no_formula_and_a_column_equal_to_a_value_in_brackets_is_a_condition() {
    for text in [
        "From bookings.csv, leave out the no-shows (Status = No-show). Save out.csv",
        "From bookings.csv, leave out the cancellations (Status = No-show). Save out.csv",
    ] {
        let r = read_instruction(text);
        assert!(
            matches!(&r.steps[..], [Step::Filter { conditions, exclude: true }]
                if conditions[0].field.as_deref() == Some("Status") && conditions[0].value == "No-show"),
            "{text}: {:?}",
            r.steps
        );
    }
    // A minus between two columns' names is still one.
    let r = read_instruction("From pnl.csv, margin = revenue-cost. Save out.csv");
    assert!(matches!(&r.steps[..], [Step::Compute { operation: "difference", .. }]), "{:?}", r.steps);
}

#[test]
fn japanese_rows_not_in_another_file_a_name_with_kana_and_words_of_another_player_are_read() {
    for text in [
        "a.csv の患者さまのうち、b.csv にまだ予約が入っていない方を抜き出して c.csv に。突き合わせは患者番号で。",
        "a.csv のうち、b.csv に載っていない患者を抜き出して c.csv に。突き合わせは患者番号で。",
        "a.csv の患者のうち、b.csv に予約がない人を抜き出して c.csv に。突き合わせは患者番号で。",
    ] {
        let r = read_instruction(text);
        assert!(r.steps.iter().any(|s| matches!(s, Step::Join { unmatched: true, .. })), "{text}: {:?}", r.steps);
    }
    // Rows without a partner said to stay are no rows wanted for it.
    let r = read_instruction(
        "売掛金残高.csv に、取引先マスタ.xlsx から担当者を取引先コードで引っ張ってきて、列を追加してください。\
         マスタに載っていない取引先も消さずに残しておいてください。売掛金残高_担当者付き.xlsx で。",
    );
    assert!(!r.steps.iter().any(|s| matches!(s, Step::Join { unmatched: true, .. })), "{:?}", r.steps);
    // 「該当の方だけ」 keeps the rows the other words find; a file's name may hold a particle's kana.
    let r = read_instruction(
        "a.csv のうち、b.csv にまだ予約が入っていない方へはがきを送るので、該当の方だけ抜き出して リコールはがき送付先.csv に保存。突き合わせは患者番号で。",
    );
    assert!(!r.steps.iter().any(|s| matches!(s, Step::Filter { .. })), "{:?}", r.steps);
    assert_eq!(r.outputs[0].path.as_deref(), Some("リコールはがき送付先.csv"));
    // 「道場が違えば別の選手」: another player, no group.
    let r = read_instruction("同姓同名でも道場が違えば別の選手です。a.csv の重複している行を b.csv に。");
    assert!(!r.steps.iter().any(|s| matches!(s, Step::Aggregate { .. })), "{:?}", r.steps);
    // A duplicate check made late takes the count said of it: no filter on a count.
    let r = read_instruction(
        "同じ電話番号で2回以上交換している人がいました。a.csv から、電話番号ごとに最初の1件（受付番号がいちばん若いもの）だけを残して b.csv に保存",
    );
    assert!(matches!(&r.steps[..], [Step::Duplicates { remove: true, .. }]), "{:?}", r.steps);
}

#[test]
fn a_match_on_two_keys_together_is_asked_and_a_spaced_japanese_formula_names_its_column() {
    for text in [
        "a.csv の各行に、b.xlsx から単価を引いてきて c.csv に。単価は焼成方法とサイズ区分の両方で決まります。",
        "a.csv に b.xlsx の単価を焼成方法とサイズ区分で引いて c.csv に",
        "Look up the rate for each job in a.csv from rates.csv (the rate depends on both grade and size). Save c.csv",
    ] {
        let r = read_instruction(text);
        assert!(!r.unplaced.is_empty(), "{text}: never one key of the two: {:?}", r.steps);
    }
    let r = read_instruction("a.csv の申込番号ごとに 焼成料 = 点数 × 単価 を計算して b.csv に");
    assert!(
        r.steps.iter().any(|s| matches!(s, Step::Compute { name, operation: "product", .. } if name == "焼成料")),
        "{:?}",
        r.steps
    );
}

#[test]
fn a_date_said_after_dated_and_its_spaces_is_read_without_a_panic() {
    let r = read_instruction(
        "From laundry.csv, which 3 machines took in the most in November (collections dated in November 2026)? \
         Save top.csv",
    );
    assert!(filter_conditions(&r).iter().any(|c| c.operator == "between" && c.value == "2026-11-01"), "{:?}", r.steps);
    // A day in brackets is no subtraction.
    let r = read_instruction("Copy the rows (dated 2026-11-03) of a.csv to b.csv");
    assert!(!r.steps.iter().any(|s| matches!(s, Step::Formula { .. })), "{:?}", r.steps);
}

#[test]
fn a_japanese_column_chosen_beside_named_totals_that_names_no_amount_goes_with_the_key() {
    let r = read_instruction(
        "競書_採点記録.csv を生徒ごとにまとめてください。生徒名・学年・提出回数・最高点・最低点 の列で、最高点の高い順に 生徒別.csv へ。",
    );
    assert!(
        matches!(&r.steps[0], Step::Aggregate { by, aggregations }
            if by == &["生徒名", "学年"] && aggregations.iter().map(|a| a.op).collect::<Vec<_>>() == ["count", "max", "min"]),
        "学年 is never a total: {:?}",
        r.steps
    );
}

#[test]
fn months_in_calendar_order_sort_by_month() {
    let r = read_instruction("From orders.csv, count the orders per month, months in calendar order. Save out.csv");
    assert!(
        r.steps.iter().any(|s| matches!(s, Step::Sort { by: Some(by), descending: false, .. } if by == "month")),
        "{:?}",
        r.steps
    );
}

#[test]
fn japanese_blanks_said_of_any_rows_and_days_of_a_range_said_with_slashes_are_conditions() {
    for text in [
        "a.csv で、入金日が空欄の予約を抜き出して b.csv に",
        "七五三撮影予約.csv で、入金日が空欄になっている（まだ入金が確認できていない）予約を、撮影日順に出してください。b.csv に保存。",
    ] {
        let r = read_instruction(text);
        assert!(
            filter_conditions(&r).iter().any(|c| c.field.as_deref() == Some("入金日") && c.value == ""),
            "{text}: {:?}",
            r.steps
        );
    }
    // What a result may hold keeps no rows.
    assert!(read_instruction("返品.csv の備考は空欄のままで大丈夫です。b.csv に").steps.is_empty());
    let r = read_instruction("a.csv から受取日が 12/29〜12/31（29日と31日も入れる）の予約だけ出して b.csv で");
    assert!(
        filter_conditions(&r).iter().any(|c| c.operator == "between"
            && c.value == "${vars.year}-12-29"
            && c.value2 == Some(serde_json::json!("${vars.year}-12-31"))),
        "{:?}",
        r.steps
    );
    // One such day alone may be a fraction.
    assert!(read_instruction("a.csv の 1/2 の行を b.csv に").steps.is_empty());
}

#[test]
fn a_measure_said_as_high_or_low_that_no_total_reads_is_asked() {
    let r = read_instruction(
        "From scores.csv, for each bowler I need the number of games bowled, their average score rounded to 1 \
         decimal place, and their high game. Save out.csv",
    );
    assert!(r.unplaced.iter().any(|u| u == "their high game"), "{:?} {:?}", r.unplaced, r.steps);
}

#[test]
fn a_japanese_column_of_the_source_unquoted_whole_rows_of_the_same_content_and_including_words_are_read() {
    let r = read_instruction("中央.csv と 北地区.csv を縦につなげて、館名 の列（中央／北地区）を追加して b.csv に");
    assert_eq!(r.source_column, Some(("館名".to_owned(), vec!["中央".to_owned(), "北地区".to_owned()])));
    assert!(r.steps.is_empty(), "the values listed divide nothing: {:?}", r.steps);
    let r = read_instruction(
        "つなげたら同じ人が二重に入ってしまいました。名簿.csv で全く同じ内容の行は1行にしてください。団員番号は 012 のように頭の0も含めてそのまま、団員番号順に並べて b.csv に保存してください。",
    );
    assert!(
        matches!(&r.steps[..], [Step::Duplicates { by, remove: true, .. }, Step::Sort { .. }] if by.is_empty()),
        "whole rows, no filter of 「頭の0も」: {:?}",
        r.steps
    );
}

#[test]
fn two_columns_compared_in_plain_words_keep_the_rows_that_differ_when_one_table_is_read() {
    let compared = |r: &Reading| -> Vec<(String, &'static str, Value)> {
        r.steps
            .iter()
            .flat_map(|s| match s {
                Step::Filter { conditions, .. } => conditions.clone(),
                _ => Vec::new(),
            })
            .map(|c| (c.field.unwrap_or_default(), c.operator, c.value))
            .collect()
    };
    let r = read_instruction(
        "Compare the physical count with the register balance in register.csv and list only the lines that don't agree, with the difference (physical count minus register balance). Save as variances.csv.",
    );
    assert!(!r.steps.iter().any(|s| matches!(s, Step::Join { .. })), "{:?}", r.steps);
    assert_eq!(compared(&r), [("physical count".to_owned(), "ne", json!({ "column": "register balance" }))]);
    assert_eq!(computed(&r), [("difference", "difference")]);
    let r = read_instruction(
        "In register.csv list the lines where the physical count doesn't match the register balance. Save as out.csv.",
    );
    assert!(!r.steps.iter().any(|s| matches!(s, Step::Join { .. })), "{:?}", r.steps);
    assert_eq!(compared(&r), [("physical count".to_owned(), "ne", json!({ "column": "register balance" }))]);
    let r = read_instruction("payments.csv の請求額と入金額を比較して、一致しない行だけを 差異.csv に出力して");
    assert_eq!(compared(&r), [("請求額".to_owned(), "ne", json!({ "column": "入金額" }))]);
    // Two tables read: the words match them.
    let r = read_instruction("Compare the amounts in bank.csv with the ledger in ledger.csv and list the rows that don't match. Save as out.csv.");
    assert!(r.steps.iter().any(|s| matches!(s, Step::Join { .. })), "{:?}", r.steps);
    // Compared, with no rows said to differ: nothing kept by the comparison.
    let r = read_instruction("Compare the budget with the actual in spend.csv and add the difference (actual minus budget). Save as out.csv.");
    assert!(compared(&r).is_empty(), "{:?}", r.steps);
}

#[test]
fn a_total_said_again_in_a_list_of_measures_is_the_next_measure_not_a_new_total() {
    for text in [
        "Roll up sales.csv by production: one line per show with its total tickets and total revenue. Save as out.csv.",
        "Roll up sales.csv by production, with its total tickets and total revenue. Save as out.csv.",
    ] {
        let r = read_instruction(text);
        let [Step::Aggregate { by, aggregations }] = r.steps.as_slice() else { panic!("{text}: {:?}", r.steps) };
        assert_eq!(by, &["production"], "{text}");
        let fields: Vec<_> = aggregations.iter().map(|a| (a.op, a.field.as_deref())).collect();
        assert_eq!(fields, [("sum", Some("ticket")), ("sum", Some("revenue"))], "{text}");
    }
    // "and total the amounts": the verb, a step of its own.
    let r = read_instruction("Keep the paid rows of sales.csv and total the amounts per region. Save as out.csv.");
    assert!(r.steps.iter().any(|s| matches!(s, Step::Filter { .. })), "{:?}", r.steps);
    assert!(r.steps.iter().any(|s| matches!(s, Step::Aggregate { by, .. } if by == &["region"])), "{:?}", r.steps);
}

#[test]
fn keys_named_per_file_in_quotes_match_the_two_files_and_put_no_rows_together() {
    let r = read_instruction(
        "欠席連絡.csv の「連絡番号」と 振替予約.csv の「元連絡番号」で突き合わせて、振替予約がない欠席を 未予約.csv に出力して",
    );
    assert!(!r.combine, "「突き合わせて」 matches rows; it appends none");
    let Some(Step::Join { unmatched, side_keys, .. }) = r.steps.first() else { panic!("{:?}", r.steps) };
    assert!(*unmatched, "「振替予約がない欠席」: the rows without a partner");
    assert_eq!(
        side_keys,
        &[("欠席連絡.csv".to_owned(), "連絡番号".to_owned()), ("振替予約.csv".to_owned(), "元連絡番号".to_owned())]
    );
    // The day said with no year, compared: a day of no year the data settles.
    let r = read_instruction("本日（12/10）時点で、振替期限が今日以降の欠席連絡を 欠席.csv から 一覧.csv に出力して");
    let Some(Step::Filter { conditions, .. }) = r.steps.first() else { panic!("{:?}", r.steps) };
    assert_eq!(conditions[0].field.as_deref(), Some("振替期限"));
    assert_eq!((conditions[0].operator, &conditions[0].value), ("gte", &json!(format!("{YEAR_VAR}-12-10"))));
}

#[test]
fn days_of_one_month_said_once_are_a_range_of_days() {
    for (text, from, to) in [
        ("Total the fare in bookings.csv per route for sailings from 1 to 14 December (both days included). Save as out.csv.", "${vars.year}-12-01", "${vars.year}-12-14"),
        ("Total the fare in bookings.csv per route for sailings 1-14 Dec 2026. Save as out.csv.", "2026-12-01", "2026-12-14"),
        ("Total the fare in bookings.csv per route for sailings between 3 and 9 November 2026. Save as out.csv.", "2026-11-03", "2026-11-09"),
        ("Total the fare in bookings.csv per route for sailings from December 1 to 14. Save as out.csv.", "${vars.year}-12-01", "${vars.year}-12-14"),
        ("Total the fare in bookings.csv per route for sailings Dec 1-14, 2026, biggest first. Save as out.csv.", "2026-12-01", "2026-12-14"),
    ] {
        let r = read_instruction(text);
        let Some(Step::Filter { conditions, .. }) = r.steps.first() else { panic!("{text}: {:?}", r.steps) };
        assert_eq!((conditions[0].operator, &conditions[0].value, &conditions[0].value2), ("between", &json!(from), &Some(json!(to))), "{text}");
    }
    assert_eq!(
        dates::days_of_one_month_in_full("from 14 to 1 December"),
        "from 14 to 1 December",
        "no range runs back"
    );
    assert_eq!(
        dates::days_of_one_month_in_full("sailings Dec 1-14, biggest first"),
        "sailings 1 Dec to 14 Dec, biggest first",
        "the words after stay as said"
    );
    assert_eq!(dates::days_of_one_month_in_full("Dec 1-14, 2026."), "1 Dec 2026 to 14 Dec 2026.");
}

#[test]
fn measures_listed_are_each_read_and_a_list_of_the_columns_wanted_restates_the_totals() {
    type Totals = Vec<(&'static str, Option<String>)>;
    let aggregations = |r: &Reading| -> Vec<(Vec<String>, Totals)> {
        r.steps
            .iter()
            .filter_map(|s| match s {
                Step::Aggregate { by, aggregations } => {
                    Some((by.clone(), aggregations.iter().map(|a| (a.op, a.field.clone())).collect()))
                }
                _ => None,
            })
            .collect()
    };
    let r = read_instruction(
        "From crashes.csv, ignore the beta channel. Per firmware give me the number of reports, the average uptime and the minimum uptime. Save as out.csv.",
    );
    assert!(matches!(r.steps.first(), Some(Step::Filter { exclude: true, .. })), "{:?}", r.steps);
    assert!(r.left_out_words.iter().any(|w| w == "beta"), "{:?}", r.left_out_words);
    assert_eq!(
        aggregations(&r),
        [(
            vec!["firmware".to_owned()],
            vec![("count", None), ("avg", Some("uptime".to_owned())), ("min", Some("uptime".to_owned()))]
        )]
    );
    let r = read_instruction(
        "Total the vehicle fares in bookings.csv per route. I'd like route, number of vehicles and total fare, biggest total first. Save as out.csv.",
    );
    assert_eq!(
        aggregations(&r),
        [(vec!["route".to_owned()], vec![("sum", Some("vehicle fare".to_owned())), ("count", None)])]
    );
}

#[test]
fn a_month_said_of_a_column_of_the_one_file_read_keeps_its_rows_whatever_the_file_is_named() {
    let month_kept = |r: &Reading| {
        r.steps.iter().any(|s| {
            matches!(s, Step::Filter { conditions, .. } if conditions.iter().any(|c| c.operator == MONTH_OF_UNSAID_YEAR))
        })
    };
    let r = read_instruction(
        "食材発注_11月締め.csv は10/31と12/1の分も入っているので、発注日が11月のものだけにして、店舗ごとに金額を合計して 集計.csv に出力してください。",
    );
    assert!(month_kept(&r), "{:?}", r.steps);
    // The month a file is named for, said of no column: which file, no rows kept.
    let r =
        read_instruction("11月分の交通費を 交通費精算_11月.csv から社員ごとに合計して 集計.csv に出力してください。");
    assert!(!month_kept(&r), "{:?}", r.steps);
}

#[test]
fn a_bare_total_in_the_columns_listed_after_a_grouping_is_the_grouping_s() {
    let r = read_instruction(
        "In sales.csv, give me per month (like 2026-10) the number of lines and their total amount. Month, lines, total, in month order, to by_month.csv.",
    );
    let totals: Vec<&Step> = r.steps.iter().filter(|s| matches!(s, Step::Aggregate { .. })).collect();
    let [Step::Aggregate { by, aggregations }] = totals.as_slice() else { panic!("{:?}", r.steps) };
    assert_eq!(by, &["month"]);
    assert_eq!(
        aggregations.iter().map(|a| (a.op, a.field.as_deref())).collect::<Vec<_>>(),
        [("count", None), ("sum", Some("amount"))]
    );
}

#[test]
fn an_amount_at_a_price_per_unit_is_its_formula_and_the_top_said_with_no_key_takes_the_order_said_later() {
    let r = read_instruction(
        "From log.csv, the 3 food trucks that used the kitchen the most in November 2026: total Hours per truck, and the cost at $32.40 an hour. Biggest hours first. Save as out.csv.",
    );
    assert!(
        r.steps.iter().any(|s| matches!(s, Step::Compute { name, operation: "product", value: Some(v), .. } if name == "cost" && (*v - 32.4).abs() < 1e-9)),
        "{:?}",
        r.steps
    );
    let sorts: Vec<&Step> = r.steps.iter().filter(|s| matches!(s, Step::Sort { .. })).collect();
    let [Step::Sort { by: Some(by), descending: true, limit: Some(3), .. }] = sorts.as_slice() else {
        panic!("{:?}", r.steps)
    };
    assert_eq!(by, "hour");
    assert!(matches!(r.steps.last(), Some(Step::Sort { .. })), "the top is cut after the totals: {:?}", r.steps);
    assert_eq!(shaping::prices_per_unit_as_formulas("add a fee at 1,250 per night"), "add fee = nights times 1250");
    assert_eq!(shaping::prices_per_unit_as_formulas("arrive at 9 per the plan"), "arrive at 9 per the plan");
}

#[test]
fn keys_named_per_file_in_a_bracket_may_be_two_words_each() {
    let r = read_instruction(
        "Which lines on bank_statement_oct.csv don't have a matching entry in cash_book_oct.csv? Match on the reference number (Reference in the bank file, Ref No in the cash book). Put those bank lines in unreconciled_bank.csv.",
    );
    let Some(Step::Join { side_keys, unmatched: true, .. }) = r.steps.first() else { panic!("{:?}", r.steps) };
    assert_eq!(
        side_keys,
        &[("bank".to_owned(), "Reference".to_owned()), ("cash book".to_owned(), "Ref No".to_owned())]
    );
}

#[test]
fn japanese_rows_taken_then_rows_left_out_and_totals_listed_with_no_particle_are_each_read() {
    let r = read_instruction(
        "回数券販売.csv のうち、2026年9月〜11月の販売日の行を対象に、区分が「返金」の行は除いてください。月ごとに 件数（行数）・枚数合計・金額合計 を出して 回数券_月別.csv に保存",
    );
    let filters: Vec<(bool, &'static str)> = r
        .steps
        .iter()
        .filter_map(|s| match s {
            Step::Filter { conditions, exclude } => Some((*exclude, conditions[0].operator)),
            _ => None,
        })
        .collect();
    assert_eq!(filters, [(false, "between"), (true, "eq")], "the period kept, the refunds left out: {:?}", r.steps);
    let Some(Step::Aggregate { aggregations, .. }) = r.steps.iter().find(|s| matches!(s, Step::Aggregate { .. }))
    else {
        panic!("{:?}", r.steps)
    };
    let said: Vec<_> = aggregations.iter().map(|a| (a.op, a.field.as_deref())).collect();
    assert_eq!(said, [("count", None), ("sum", Some("枚数")), ("sum", Some("金額"))]);
    // 「当直回数（行数）」: a count of rows, named as said.
    let r = read_instruction(
        "当直実績.csv を拠点ごとに集計してください。当直回数（行数）と手当の合計の両方が欲しいです。出力は 集計.csv",
    );
    let Some(Step::Aggregate { aggregations, .. }) = r.steps.iter().find(|s| matches!(s, Step::Aggregate { .. }))
    else {
        panic!("{:?}", r.steps)
    };
    assert!(aggregations.iter().any(|a| a.op == "count"), "{aggregations:?}");
    assert!(!aggregations.iter().any(|a| a.field.as_deref().is_some_and(|f| f.contains("回数"))), "{aggregations:?}");
}

#[test]
fn japanese_whole_rows_the_same_kept_once_are_duplicates_removed() {
    let r = read_instruction(
        "顧問先_東京.csv と 顧問先_横浜.csv を縦につなげて、全項目がまったく同じ行は1行だけ残してください。事業所名が同じでも顧問先コードが違えば別の顧問先です。顧問先コード順で 統合.csv に保存してください。",
    );
    assert!(r.combine);
    assert!(
        r.steps.iter().any(|s| matches!(s, Step::Duplicates { by, remove: true, .. } if by.is_empty())),
        "{:?}",
        r.steps
    );
    assert!(!r.steps.iter().any(|s| matches!(s, Step::Sort { limit: Some(1), .. })), "no top 1: {:?}", r.steps);
}

#[test]
fn totals_said_right_after_one_line_per_month_are_the_month_s() {
    let r = read_instruction(
        "From donations_log.csv leave out the Rejected ones, and give me one line per month: the month written like 2026-09, how many donations, and the total est_value. Oldest month first, save as by_month.csv.",
    );
    assert!(!r.steps.iter().any(|s| matches!(s, Step::Duplicates { .. })), "no row removed: {:?}", r.steps);
    assert!(computed(&r).contains(&("month", "month")), "{:?}", r.steps);
    let Some(Step::Aggregate { by, aggregations }) = r.steps.iter().find(|s| matches!(s, Step::Aggregate { .. }))
    else {
        panic!("{:?}", r.steps)
    };
    assert_eq!(by, &["month"]);
    assert_eq!(aggregations.len(), 2, "{aggregations:?}");
}
