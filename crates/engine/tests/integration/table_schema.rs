//! The validator's column flow predicts the run's tables: for generated ledgers and generated
//! chains of table steps (each naming columns the validator says are there), every table a step
//! gives has exactly the columns, in order, that the validator said it would, and none of its
//! cells contradicts the kind the validator gave the column. A plan the validator passes runs.

use crate::support;

use std::path::PathBuf;
use std::sync::Arc;

use indexmap::IndexMap;
use planwright_catalog::Catalog;
use planwright_engine::{BrowserSettings, NoAnswers, RunOptions, RunRequest, SecretSource};
use planwright_plan::{load_plan, Column, ColumnKind};
use planwright_runs::RunStatus;
use planwright_validate::{validate_loaded_with_files, InputFiles, InputTable, NoPlans};
use proptest::prelude::*;
use serde_json::{json, Value};
use tokio_util::sync::CancellationToken;

/// The work folder's files, read as the studio and `planwright validate` read them.
struct WorkFolder(PathBuf);

impl InputFiles for WorkFolder {
    fn columns(&self, block: &str, inputs: &IndexMap<String, Value>) -> Option<InputTable> {
        let inputs: serde_json::Map<String, Value> = inputs.iter().map(|(k, v)| (k.clone(), v.clone())).collect();
        let table = planwright_blocks::input_table(block, &inputs, &self.0).ok()??;
        let file = inputs.get("path")?.as_str()?.to_owned();
        Some(InputTable { file, columns: table.columns, rows: table.rows, complete: table.complete })
    }
}

struct NoSecrets;

impl SecretSource for NoSecrets {
    fn secret(&self, _name: &str) -> Option<String> {
        None
    }
}

/// A ledger: status, amount (plain, with decimals, written with a yen sign, or blank), date
/// (or blank), department.
fn ledger() -> impl Strategy<Value = String> {
    let status = prop::sample::select(vec!["approved", "pending", "Approved", ""]);
    let amount = prop_oneof![
        (0i64..5000).prop_map(|n| n.to_string()),
        (0i64..500_000).prop_map(|n| format!("{}.{:02}", n / 100, n % 100)),
        (0i64..50).prop_map(|n| format!("\"¥{},200\"", n + 1)),
        Just(String::new()),
    ];
    let date = prop_oneof![(1u32..29).prop_map(|d| format!("2026-04-{d:02}")), Just(String::new())];
    let dept = prop::sample::select(vec!["経理", "Sales", "IT", ""]);
    prop::collection::vec((status, amount, date, dept), 0..20).prop_map(|rows| {
        let mut text = String::from("status,amount,date,dept\n");
        for (status, amount, date, dept) in rows {
            text.push_str(&format!("{status},{amount},{date},{dept}\n"));
        }
        text
    })
}

/// What a generated step does, and which of the columns there are it names.
#[derive(Debug, Clone)]
struct StepChoice {
    kind: u8,
    first: usize,
    second: usize,
    flag: bool,
}

fn step() -> impl Strategy<Value = StepChoice> {
    (0u8..8, 0usize..8, 0usize..8, any::<bool>()).prop_map(|(kind, first, second, flag)| StepChoice {
        kind,
        first,
        second,
        flag,
    })
}

/// Step `id` of kind `choice`, reading the table `from` whose columns are `columns`; the output
/// it is read by next.
fn step_node(id: &str, choice: &StepChoice, from: &str, columns: &[Column]) -> (Value, &'static str) {
    let items = format!("${{{from}}}");
    let first = &columns[choice.first % columns.len()].name;
    let second = &columns[choice.second % columns.len()].name;
    match choice.kind {
        0 => (
            json!({"id": id, "block": "transforms.filter", "in": {"items": items, "conditions": [{"field": first, "operator": "ne", "value": "pending"}]}, "out": {"filtered": "rows"}}),
            "rows",
        ),
        1 => {
            let by = json!([{"column": first, "order": if choice.flag { "desc" } else { "asc" }}]);
            let limit = if choice.flag { json!(3) } else { Value::Null };
            (
                json!({"id": id, "block": "transforms.sort", "in": {"items": items, "by": by, "limit": limit}, "out": {"rows": "rows"}}),
                "rows",
            )
        }
        2 => (
            json!({"id": id, "block": "transforms.remove_duplicates", "in": {"items": items, "by": [first]}, "out": {"rows": "rows"}}),
            "rows",
        ),
        3 => {
            let out = if choice.flag { "groups" } else { "rows" };
            (
                json!({"id": id, "block": "transforms.find_duplicates", "in": {"items": items, "by": [first]}, "out": {out: "rows"}}),
                "rows",
            )
        }
        4 => {
            let chosen =
                if first == second { json!([first]) } else { json!([first, {"column": second, "as": "renamed"}]) };
            (
                json!({"id": id, "block": "transforms.select_columns", "in": {"items": items, "columns": chosen}, "out": {"rows": "rows"}}),
                "rows",
            )
        }
        5 => {
            let added = json!([
                {"as": "difference", "op": "difference", "of": [first, second]},
                {"as": "month", "op": "month", "of": [second]},
                {"as": "same", "op": "equal", "of": [first, second]},
                {"as": "both", "op": "join", "of": [first, second]},
            ]);
            (
                json!({"id": id, "block": "transforms.add_columns", "in": {"items": items, "columns": added}, "out": {"rows": "rows"}}),
                "rows",
            )
        }
        6 => {
            let aggregations = json!([{"field": second, "op": "sum", "as": "total"}, {"op": "count", "as": "count"}]);
            let by = if choice.flag { json!([first]) } else { json!([]) };
            (
                json!({"id": id, "block": "transforms.group_by_agg", "in": {"items": items, "by": by, "aggregations": aggregations}, "out": {"rows": "rows"}}),
                "rows",
            )
        }
        _ => {
            let strategy = ["inner", "left", "left_only", "outer"][choice.second % 4];
            let right_key =
                if ["status", "amount", "date", "dept"].contains(&first.as_str()) { first.as_str() } else { "dept" };
            (
                json!({"id": id, "block": "transforms.join", "in": {"left": items, "right": "${read.rows}", "left_key": first, "right_key": right_key, "strategy": strategy}, "out": {"rows": "rows"}}),
                "rows",
            )
        }
    }
}

fn plan_text(graph: &[Value]) -> String {
    serde_json::to_string(&json!({"apiVersion": "planwright/v1", "id": "columns", "version": "1.0.0", "graph": graph}))
        .unwrap()
}

/// Whether the run's `cells` of a column agree with the kind the validator `predicted`: a cell
/// the prediction rules out is a contradiction; a column with no value contradicts nothing.
fn agrees(predicted: ColumnKind, cells: &[&Value]) -> bool {
    let actual = planwright_blocks::kind_of(cells.iter().copied());
    match predicted {
        ColumnKind::Number | ColumnKind::Date | ColumnKind::Time | ColumnKind::Boolean => {
            actual == predicted || actual == ColumnKind::Unknown
        }
        _ => true,
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 40, ..ProptestConfig::default() })]

    #[test]
    fn the_validator_predicts_the_columns_of_every_table_the_run_gives(text in ledger(), steps in prop::collection::vec(step(), 1..5)) {
        // Every table of the run is recorded with its columns (a table file), however small.
        std::env::set_var("PLANWRIGHT_TABLE_FILE_ROWS", "0");
        let f = support::fixture();
        std::fs::write(f.workdir.path().join("ledger.csv"), &text).unwrap();
        let catalog = Catalog::bundled().unwrap();
        let files = WorkFolder(f.workdir.path().to_owned());
        let validate = |graph: &[Value]| {
            let loaded = load_plan(&plan_text(graph)).unwrap();
            validate_loaded_with_files(&loaded, &catalog, &NoPlans, &files)
        };

        let mut graph = vec![json!({"id": "read", "block": "file.read_csv", "in": {"path": "ledger.csv"}, "out": {"rows": "rows"}})];
        let mut last = "read.rows".to_owned();
        for (n, choice) in steps.iter().enumerate() {
            let validation = validate(&graph);
            let Some(columns) = validation.tables.get(&last).filter(|c| !c.is_empty()) else { break };
            let id = format!("step{n}");
            let (node, alias) = step_node(&id, choice, &last, columns);
            graph.push(node);
            last = format!("{id}.{alias}");
        }
        let validation = validate(&graph);
        prop_assume!(validation.is_valid());

        let runtime = tokio::runtime::Builder::new_multi_thread().worker_threads(2).enable_all().build().unwrap();
        let run = runtime.block_on(async {
            let request = RunRequest { plan_text: plan_text(&graph), plan_path: None, vars: Default::default() };
            let options = RunOptions {
                workdir: f.workdir.path().to_owned(),
                secrets: Arc::new(NoSecrets),
                answers: Arc::new(NoAnswers),
                stop: CancellationToken::new(),
                events: None,
                browser: BrowserSettings::default(),
                models: None,
            };
            f.engine.run(&f.store, request, options).await.unwrap()
        });
        prop_assert_eq!(run.status, RunStatus::Succeeded, "a plan the validator passes runs: {:?}\n{}", run.reason, plan_text(&graph));

        let stored = f.store.finished_outputs(&run.run_id).unwrap();
        for (reference, predicted) in &validation.tables {
            let (node, alias) = reference.split_once('.').unwrap();
            let output = &stored[node][alias];
            // A table is recorded with its columns and its first rows; rows (a group's) as rows.
            let (names, rows): (Vec<String>, Vec<Value>) = match output {
                Value::Object(record) => (
                    serde_json::from_value(record["columns"].clone()).unwrap(),
                    record["preview"].as_array().cloned().unwrap_or_default(),
                ),
                Value::Array(rows) if !rows.is_empty() => {
                    (rows[0].as_object().unwrap().keys().cloned().collect(), rows.clone())
                }
                _ => continue,
            };
            let expected: Vec<&String> = predicted.iter().map(|c| &c.name).collect();
            prop_assert_eq!(names.iter().collect::<Vec<_>>(), expected, "the columns of `{}`\n{}", reference, plan_text(&graph));
            for column in predicted {
                let cells: Vec<&Value> = rows.iter().filter_map(|row| row.get(&column.name)).collect();
                prop_assert!(
                    agrees(column.kind, &cells),
                    "`{}` of `{}` was said to be {:?}: {:?}\n{}", column.name, reference, column.kind, cells, plan_text(&graph)
                );
            }
        }
    }
}
