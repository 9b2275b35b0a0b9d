//! What an answer does to a plan: the value it fills in, and requirements moved to a form the
//! plan shows when it runs (seed 002's run-time chat option).

use planwright_catalog::Catalog;
use planwright_design::{answer_value, ask_at_run_time, DesignRequirement, Language, Target};
use planwright_plan::Plan;
use planwright_runs::{FieldType, Requirement};
use planwright_validate::{validate_plan, NoPlans};
use serde_json::json;

const PLAN: &str = r#"
apiVersion: planwright/v1
id: big_rows
version: 1.0.0
vars:
  input_file: null
  input_file_2: other.csv
graph:
  - id: read
    block: file.read_csv
    in: {path: "${vars.input_file}"}
    out: {rows: rows}
  - id: keep
    block: transforms.filter
    in:
      items: "${read.rows}"
      conditions: [{field: amount, operator: gt, value: 100}]
    out: {filtered: big}
  - id: write
    block: report.write
    in: {data: "${keep.big}", format: csv, path: "${vars.input_file_2}"}
"#;

fn requirement(id: &str, field: FieldType, target: Target) -> DesignRequirement {
    DesignRequirement {
        requirement: Requirement {
            id: id.into(),
            field,
            label: Some(format!("Label of {id}")),
            description: None,
            options: Vec::new(),
            required: true,
            accept: None,
            hint: None,
            validation: None,
        },
        target,
    }
}

fn plan() -> Plan {
    serde_yaml::from_str(PLAN).unwrap()
}

#[test]
fn a_schema_choice_becomes_its_schema_and_other_answers_stay_as_they_are() {
    let mut schema = requirement("output_schema", FieldType::Enum, Target::Var { name: "output_schema".into() });
    schema.requirement.options = planwright_design::requirements::SCHEMA_TEMPLATES.map(String::from).to_vec();
    let value = answer_value(&schema, &json!("yes_no"));
    assert_eq!(value["properties"]["items"]["items"]["properties"]["answer"]["type"], "boolean", "{value}");
    assert_eq!(answer_value(&schema, &json!("not a template")), json!("not a template"));
    let file = requirement("input_file", FieldType::File, Target::Var { name: "input_file".into() });
    assert_eq!(answer_value(&file, &json!("yes_no")), json!("yes_no"), "only a schema choice is mapped");
}

#[test]
fn requirements_moved_to_run_time_are_asked_by_a_form_at_the_head_of_the_plan() {
    let catalog = Catalog::bundled().unwrap();
    let mut plan = plan();
    let chosen = [
        requirement("input_file", FieldType::File, Target::Var { name: "input_file".into() }),
        requirement(
            "keep.conditions",
            FieldType::Table,
            Target::Input { node: "keep".into(), field: "conditions".into() },
        ),
        requirement("LOGIN_PASSWORD", FieldType::Text, Target::Secret { name: "LOGIN_PASSWORD".into() }),
    ];
    let node = ask_at_run_time(&mut plan, &chosen, Language::Ja).expect("something to ask");
    assert_eq!(node, "ask_at_run_time");
    let head = &plan.graph[0];
    assert_eq!((head.id.as_str(), head.block.as_deref()), ("ask_at_run_time", Some("ui.interactive_input")));
    let fields: Vec<&str> =
        head.inputs["requirements"].as_array().unwrap().iter().map(|f| f["id"].as_str().unwrap()).collect();
    assert_eq!(fields, ["input_file", "keep_conditions"], "one path segment each; a secret is never asked");
    assert!(head.inputs["message"].as_str().unwrap().contains("実行する前に"), "asked in the plan's language");
    let read = plan.graph.iter().find(|n| n.id == "read").unwrap();
    assert_eq!(read.inputs["path"], "${ask_at_run_time.collected_data.input_file}");
    let keep = plan.graph.iter().find(|n| n.id == "keep").unwrap();
    assert_eq!(keep.inputs["conditions"], "${ask_at_run_time.collected_data.keep_conditions}");
    let write = plan.graph.iter().find(|n| n.id == "write").unwrap();
    assert_eq!(write.inputs["path"], "${vars.input_file_2}", "a var whose name only starts the same is left");
    assert!(!plan.vars.contains_key("input_file") && plan.vars.contains_key("input_file_2"));
    let errors: Vec<String> = validate_plan(&plan, &catalog, &NoPlans).errors().map(|f| f.message.clone()).collect();
    assert!(errors.is_empty(), "{errors:?}");

    // Asked again: a second form of its own.
    let again = [requirement("input_file_2", FieldType::File, Target::Var { name: "input_file_2".into() })];
    assert_eq!(ask_at_run_time(&mut plan, &again, Language::En).as_deref(), Some("ask_at_run_time_2"));
}

#[test]
fn secrets_alone_are_nothing_to_ask_at_run_time() {
    let mut plan = plan();
    let before = plan.clone();
    let secret = [requirement("PW", FieldType::Text, Target::Secret { name: "PW".into() })];
    assert_eq!(ask_at_run_time(&mut plan, &secret, Language::En), None);
    assert_eq!(plan, before);
}
