//! Templates composed into plans (seed 002 §4) and the requirements a generated plan asks
//! (§7), with the shipped templates and the bundled catalog.

use std::path::Path;

use indexmap::IndexMap;
use planwright_catalog::Catalog;
use planwright_design::{build_requirements, compose, DesignEngine, DesignRequest, Language, Target};
use planwright_designs::{Designs, TemplateSpec};
use planwright_plan::Plan;
use planwright_retrieval::Retriever;
use planwright_runs::FieldType;
use planwright_validate::{validate_plan, NoPlans};
use serde_json::{json, Value};
use tokio_util::sync::CancellationToken;

fn library() -> Vec<TemplateSpec> {
    let designs = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../designs");
    Designs::new(designs).templates().unwrap().into_iter().map(|f| f.spec.unwrap()).collect()
}

fn template(id: &str) -> TemplateSpec {
    library().into_iter().find(|t| t.id == id).unwrap_or_else(|| panic!("template {id}"))
}

fn plan(yaml: &str) -> Plan {
    serde_yaml::from_str(yaml).unwrap()
}

const READ_PAYMENTS: &str = r#"
apiVersion: planwright/v1
id: check_payments
version: 1.0.0
graph:
  - id: read
    block: file.read_csv
    in: {path: payments.csv}
    out: {rows: payments}
"#;

#[test]
fn an_import_binds_to_an_earlier_output_and_node_ids_are_prefixed() {
    let mut plan = plan(READ_PAYMENTS);
    let composed = compose(&mut plan, &template("duplicate_payment_check"), &IndexMap::new()).unwrap();
    assert_eq!(composed.bindings["payments"], "${read.payments}");
    assert!(composed.unbound.is_empty());
    assert_eq!(composed.node_ids, ["duplicate_payment_check_find_duplicates", "duplicate_payment_check_by_payee"]);
    // References inside the snippet follow the new ids; the import reads the plan's node.
    let count = &plan.graph[1];
    assert_eq!(count.inputs["items"], json!("${read.payments}"));
    assert_eq!(plan.graph[2].inputs["items"], json!("${duplicate_payment_check_find_duplicates.suspects}"));
    assert_eq!(composed.exports["duplicate_payments"], "${duplicate_payment_check_by_payee.duplicate_payments}");
    // The template's var defaults join the plan's vars; the result validates.
    assert_eq!(plan.vars["payee_column"], json!("支払先"));
    let catalog = Catalog::bundled().unwrap();
    let validation = validate_plan(&plan, &catalog, &NoPlans);
    assert!(validation.is_valid(), "{:?}", validation.findings);
}

#[test]
fn an_unbound_import_becomes_a_var_asked_for() {
    let mut plan = plan("apiVersion: planwright/v1\nid: empty\nversion: 1.0.0\ngraph: []\n");
    let composed = compose(&mut plan, &template("duplicate_payment_check"), &IndexMap::new()).unwrap();
    assert_eq!(composed.unbound, ["payments"]);
    assert_eq!(plan.vars["payments"], Value::Null);
    assert_eq!(plan.graph[0].inputs["items"], json!("${vars.payments}"));
    let catalog = Catalog::bundled().unwrap();
    let findings = validate_plan(&plan, &catalog, &NoPlans).findings;
    let asked = build_requirements(&plan, &findings, &catalog, Language::En);
    assert!(asked.iter().any(|r| r.target == Target::Var { name: "payments".into() }), "{asked:?}");
}

#[test]
fn an_explicit_binding_wins_over_a_plan_var_of_the_same_name() {
    let mut plan = plan(READ_PAYMENTS);
    plan.vars.insert("payments".into(), json!("somewhere.csv"));
    let bindings = IndexMap::from([("payments".to_owned(), "${read.payments}".to_owned())]);
    let composed = compose(&mut plan, &template("duplicate_payment_check"), &bindings).unwrap();
    assert_eq!(composed.bindings["payments"], "${read.payments}");
    let mut other = self::plan(READ_PAYMENTS);
    other.vars.insert("payments".into(), json!("somewhere.csv"));
    let composed = compose(&mut other, &template("duplicate_payment_check"), &IndexMap::new()).unwrap();
    assert_eq!(
        composed.bindings["payments"], "${vars.payments}",
        "a plan var of the import's name comes before an output alias"
    );
}

#[test]
fn clashing_vars_and_node_ids_are_conflicts_for_the_person() {
    let mut plan = plan(READ_PAYMENTS);
    plan.vars.insert("amount_column".into(), json!("Amount"));
    let template = template("duplicate_payment_check");
    compose(&mut plan, &template, &IndexMap::new()).unwrap();
    let again = compose(&mut plan, &template, &IndexMap::new()).unwrap();
    let messages: Vec<&str> = again.conflicts.iter().map(|c| c.message.as_str()).collect();
    assert!(messages.iter().any(|m| m.contains("amount_column") && m.contains("plan's value is kept")), "{messages:?}");
    assert!(
        messages.iter().any(|m| m.contains("already has a node `duplicate_payment_check_find_duplicates`")),
        "{messages:?}"
    );
    assert_eq!(plan.vars["amount_column"], json!("Amount"));
    // The second copy's ids do not collide with the first's.
    let mut ids: Vec<&str> = plan.graph.iter().map(|n| n.id.as_str()).collect();
    let count = ids.len();
    ids.sort();
    ids.dedup();
    assert_eq!(ids.len(), count);
    assert!(again.conflicts.iter().all(|c| !c.hint.is_empty()));
}

#[test]
fn every_shipped_template_composes_into_an_empty_plan_and_validates() {
    let catalog = Catalog::bundled().unwrap();
    for template in library() {
        let mut plan = plan("apiVersion: planwright/v1\nid: empty\nversion: 1.0.0\ngraph: []\n");
        let composed = compose(&mut plan, &template, &IndexMap::new()).unwrap();
        assert_eq!(composed.unbound.len(), template.imports.len(), "{}", template.id);
        let errors: Vec<String> =
            validate_plan(&plan, &catalog, &NoPlans).errors().map(|f| format!("{} {}", f.path, f.message)).collect();
        assert!(errors.is_empty(), "{}: {errors:?}", template.id);
    }
}

async fn generate(instruction: &str, answers: IndexMap<String, Value>) -> planwright_design::GeneratedPlan {
    let catalog = Catalog::bundled().unwrap();
    let retriever = Retriever::for_catalog(&catalog, None);
    let library = library();
    let engine = DesignEngine {
        catalog: &catalog,
        retriever: &retriever,
        library: &library,
        model: None,
        metrics: None,
        files: None,
        trial: None,
    };
    let request = DesignRequest { instruction: instruction.into(), answers, ..DesignRequest::default() };
    engine.generate(&request, &CancellationToken::new()).await.unwrap()
}

#[tokio::test]
async fn open_values_are_asked_in_the_instructions_language_and_answers_fill_them() {
    let generated =
        generate("取引先マスタと請求書一覧を取引先コードで突き合わせ、結果をCSVに出力する", IndexMap::new()).await;
    assert!(generated.valid, "{:?}", generated.findings);
    let asked: Vec<_> = generated.requirements.iter().filter(|r| r.asked()).collect();
    assert!(!asked.is_empty());
    for r in &asked {
        let label = r.requirement.label.as_deref().unwrap_or_default();
        assert!(label.chars().any(|c| ('\u{3040}'..='\u{9fff}').contains(&c)), "a Japanese label: {label}");
    }
    // Both files are asked for as files the reading block accepts.
    let files: Vec<_> = asked.iter().filter(|r| r.requirement.field == FieldType::File).collect();
    assert_eq!(files.len(), 2, "{asked:?}");
    let Target::Var { name } = &files[0].target else { panic!("{:?}", files[0].target) };

    let answers = IndexMap::from([(name.clone(), json!("torihikisaki.csv"))]);
    let again = generate("取引先マスタと請求書一覧を取引先コードで突き合わせ、結果をCSVに出力する", answers).await;
    assert_eq!(again.plan.vars[name.as_str()], json!("torihikisaki.csv"));
    assert!(
        !again.requirements.iter().any(|r| r.target == Target::Var { name: name.clone() }),
        "an answered value is not asked again"
    );
}

#[tokio::test]
async fn a_model_step_without_a_format_offers_schema_templates_and_a_browser_task_asks_a_url() {
    let generated = generate(
        "Pull the important fields out of the scanned contracts and save them as contracts.xlsx",
        IndexMap::new(),
    )
    .await;
    let schema = generated
        .requirements
        .iter()
        .find(|r| r.target == Target::Var { name: "output_schema".into() })
        .expect("the answer format asked");
    assert!(matches!(schema.requirement.field, FieldType::Enum | FieldType::Select), "{:?}", schema.requirement.field);
    assert!(schema.requirement.options.contains(&"extraction".to_owned()));
    let answered = generate(
        "Pull the important fields out of the scanned contracts and save them as contracts.xlsx",
        IndexMap::from([("output_schema".to_owned(), json!("extraction"))]),
    )
    .await;
    let step = answered.plan.graph.iter().find(|n| n.block.as_deref() == Some("ai.process_llm")).unwrap();
    assert!(
        step.inputs["output_schema"].is_object(),
        "the chosen schema is written into the node: {:?}",
        step.inputs["output_schema"]
    );

    let browser = generate("Log in to the supplier portal and download this month's statement", IndexMap::new()).await;
    let url = browser
        .requirements
        .iter()
        .find(|r| r.target == Target::Var { name: "start_url".into() })
        .expect("the start URL asked");
    assert!(format!("{:?}", url.requirement).to_lowercase().contains("url"), "{:?}", url.requirement);
}

#[tokio::test]
async fn a_pinned_block_the_design_does_not_use_is_named_in_the_reasoning() {
    let catalog = Catalog::bundled().unwrap();
    let retriever = Retriever::for_catalog(&catalog, None);
    let library = library();
    let engine = DesignEngine {
        catalog: &catalog,
        retriever: &retriever,
        library: &library,
        model: None,
        metrics: None,
        files: None,
        trial: None,
    };
    let request = DesignRequest {
        instruction: "Read expenses.csv and write the rows over 50000 to large.csv".into(),
        pinned: vec!["file.read_csv".into(), "excel.write".into()],
        ..DesignRequest::default()
    };
    let generated = engine.generate(&request, &CancellationToken::new()).await.unwrap();
    assert!(generated.candidates.iter().any(|h| h.id == "excel.write"), "a pin is always a candidate");
    let said: Vec<&String> = generated.reasoning.iter().filter(|l| l.starts_with("Pinned but not used")).collect();
    assert_eq!(said.len(), 1, "{:?}", generated.reasoning);
    assert!(said[0].contains("excel.write") && !said[0].contains("file.read_csv"), "{said:?}");
}

#[tokio::test]
async fn a_password_in_an_answer_to_what_the_job_is_is_kept_out_of_the_design() {
    let refused = generate("do the monthly thing", IndexMap::new()).await;
    assert!(refused.refused, "{:?}", refused.requirements);
    let answers = IndexMap::from([
        ("instruction.read".to_owned(), Value::from("payments.csv")),
        (
            "instruction.do".to_owned(),
            Value::from("log in to https://portal.example.com with user admin and password Hunter2-canary and download the invoices"),
        ),
        ("instruction.write".to_owned(), Value::from("invoices.xlsx")),
    ]);
    let generated = generate("do the monthly thing", answers).await;
    assert!(!generated.refused);
    let everything = serde_json::to_string(&generated).unwrap() + &generated.to_yaml().unwrap();
    assert!(
        !everything.contains("Hunter2-canary"),
        "the password stays out of the plan, the reasoning and the origins"
    );
    assert!(generated.plan.secrets.iter().any(|s| s == "LOGIN_PASSWORD"), "{:?}", generated.plan.secrets);
}
