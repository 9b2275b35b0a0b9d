//! The design engine with a model: a scripted OpenAI-compatible server answers the two stages and
//! the repair rounds through the real client, so the schemas built per request, the corrective
//! re-ask, the repair loop, the diff and the call count are checked as they happen.

use std::path::Path;
use std::sync::Arc;

use planwright_catalog::Catalog;
use planwright_design::{model, DesignEngine, DesignEngineOptions, DesignRequest, GeneratedPlan};
use planwright_designs::{Designs, TemplateSpec};
use planwright_llm::{LlmClient, Prompts, Provenance, Provider, Secret, Settings};
use planwright_llm_replay::{RecordedRequest, ReplayServer, Reply, Script};
use planwright_retrieval::Retriever;
use serde_json::{json, Value};
use tokio_util::sync::CancellationToken;

const INSTRUCTION: &str = "Read expenses.csv, keep the rows where amount is over 100 and write big_expenses.csv";

struct Fixture {
    catalog: Catalog,
    retriever: Retriever,
    library: Vec<TemplateSpec>,
    prompts: Prompts,
}

impl Fixture {
    fn new() -> Fixture {
        let catalog = Catalog::bundled().unwrap();
        let retriever = Retriever::for_catalog(&catalog, None);
        let designs = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../designs");
        let library = Designs::new(designs).templates().unwrap().into_iter().filter_map(|f| f.spec.ok()).collect();
        Fixture { catalog, retriever, library, prompts: Prompts::built_in().unwrap() }
    }

    fn offline(&self) -> DesignEngine<'_> {
        DesignEngine {
            catalog: &self.catalog,
            retriever: &self.retriever,
            library: &self.library,
            model: None,
            metrics: None,
            files: None,
            trial: None,
        }
    }

    fn with_model<'a>(&'a self, server: &ReplayServer, metrics: Option<&Path>) -> DesignEngine<'a> {
        let settings = Settings {
            provider: Some(Provider::OpenAi { base_url: server.base_url(), api_key: Some(Secret::new("test-key")) }),
            max_retries: 0,
            ..Settings::default()
        };
        let client: Arc<dyn LlmClient> = settings.client().unwrap().unwrap();
        DesignEngine {
            catalog: &self.catalog,
            retriever: &self.retriever,
            library: &self.library,
            model: Some((client, &self.prompts)),
            metrics: metrics.map(Path::to_path_buf),
            files: None,
            trial: None,
        }
    }

    /// What a model that designs like the offline designer answers in each stage.
    async fn stage_answers(&self, instruction: &str) -> (Value, Value) {
        let generated = generate(&self.offline(), instruction, DesignEngineOptions::default()).await;
        assert!(generated.valid, "the offline design of {instruction:?} should validate: {:?}", generated.findings);
        model::stage_answers(&generated.plan)
    }
}

async fn generate(engine: &DesignEngine<'_>, instruction: &str, options: DesignEngineOptions) -> GeneratedPlan {
    let request = DesignRequest { instruction: instruction.into(), options, ..DesignRequest::default() };
    engine.generate(&request, &CancellationToken::new()).await.unwrap()
}

/// The JSON schema a request asked its answer to follow.
fn schema_of(request: &RecordedRequest) -> Value {
    request.json().unwrap()["response_format"]["json_schema"]["schema"].clone()
}

fn user_text(request: &RecordedRequest) -> String {
    let body = request.json().unwrap();
    body["messages"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|m| m["role"] == "user")
        .map(|m| m["content"].as_str().unwrap_or_default().to_owned())
        .collect::<Vec<_>>()
        .join("\n")
}

/// The wiring with the filter step reading an output its source does not give (`rowz`): it
/// passes the schema (inputs are any JSON) but not the validator.
fn with_unknown_alias(wiring: &Value) -> Value {
    let mut broken = wiring.clone();
    let graph = broken["graph"].as_array_mut().unwrap();
    let filter = graph.iter_mut().find(|n| n["block"] == "transforms.filter").expect("a filter step");
    let rows = filter["in"]["items"].as_str().unwrap().to_owned();
    assert!(rows.ends_with(".rows}"), "the filter reads rows: {rows}");
    filter["in"]["items"] = Value::from(rows.replace(".rows}", ".rowz}"));
    broken
}

#[tokio::test]
async fn the_two_stages_design_the_plan_each_with_a_schema_built_for_the_request() {
    let fixture = Fixture::new();
    let (skeleton, wiring) = fixture.stage_answers(INSTRUCTION).await;
    let server = ReplayServer::start(Script::in_order([
        Reply::json(&skeleton).usage(900, 120),
        Reply::json(&wiring).usage(1400, 400),
    ]))
    .await;
    let dir = tempfile::tempdir().unwrap();
    let metrics = dir.path().join("design/generations.jsonl");
    let generated =
        generate(&fixture.with_model(&server, Some(&metrics)), INSTRUCTION, DesignEngineOptions::default()).await;

    assert!(matches!(generated.provenance, Provenance::Model { .. }), "{:?}", generated.provenance);
    assert!(generated.valid, "{:?}", generated.findings);
    assert_eq!(generated.attempts.len(), 1);
    assert_eq!(generated.attempts[0].by, planwright_design::AttemptBy::Model);
    let blocks: Vec<&str> = generated.plan.graph.iter().filter_map(|n| n.block.as_deref()).collect();
    assert_eq!(blocks, ["file.read_csv", "transforms.filter", "report.write"]);

    let sent = server.requests();
    assert_eq!(sent.len(), 2, "one call per stage");
    // Stage 1: the block of each step is one of this request's candidates.
    let schema = schema_of(&sent[0]);
    let allowed: Vec<String> =
        serde_json::from_value(schema["properties"]["steps"]["items"]["properties"]["block"]["enum"].clone()).unwrap();
    let candidates: Vec<&str> = generated.candidates.iter().map(|h| h.id.as_str()).collect();
    assert!(allowed.iter().all(|b| candidates.contains(&b.as_str())), "{allowed:?} not all among {candidates:?}");
    assert!(allowed.contains(&"transforms.filter".to_owned()));
    assert!(user_text(&sent[0]).contains("Candidate blocks:"));
    // Stage 2: the skeleton's blocks only, each with its own input keys.
    let defs = schema_of(&sent[1])["$defs"].clone();
    let mut block_defs: Vec<&str> = defs
        .as_object()
        .unwrap()
        .keys()
        .filter(|k| k.starts_with("block_") && *k != "block_node")
        .map(String::as_str)
        .collect();
    block_defs.sort();
    assert_eq!(block_defs, ["block_file_read_csv", "block_report_write", "block_transforms_filter"]);
    let filter_in = &defs["block_transforms_filter"]["properties"]["in"]["properties"];
    assert!(filter_in.get("items").is_some() && filter_in.get("conditions").is_some(), "{filter_in}");
    assert!(user_text(&sent[1]).contains("Skeleton (fixed):"));

    // Every call counted, with its tokens, in the metrics line.
    assert_eq!(generated.metrics.model_calls, 2);
    assert_eq!(generated.metrics.input_tokens, 2300);
    assert_eq!(generated.metrics.output_tokens, 520);
    let line: Value = serde_json::from_str(std::fs::read_to_string(&metrics).unwrap().lines().last().unwrap()).unwrap();
    assert_eq!(line["model_calls"], 2);
    assert_ne!(line["provenance"], "offline");
}

#[test]
fn an_invented_block_cannot_pass_either_schema() {
    let fixture = Fixture::new();
    let blocks = vec!["file.read_csv".to_owned(), "transforms.filter".to_owned()];
    let skeleton = jsonschema::validator_for(&model::skeleton_schema(&blocks)).unwrap();
    let step = |block: &str| json!({ "summary": "", "steps": [{ "id": "s", "block": block, "purpose": "", "repeat": "once" }], "needs_person": false, "open_questions": [] });
    assert!(skeleton.is_valid(&step("transforms.filter")));
    assert!(!skeleton.is_valid(&step("transforms.magic")));
    assert!(!skeleton.is_valid(&step("report.write")), "a real block that is not a candidate is refused too");

    let plan = jsonschema::validator_for(&model::plan_schema(&fixture.catalog, &blocks)).unwrap();
    let node = |block: &str, inputs: Value| json!({ "id": "p", "description": "", "vars": [], "graph": [{ "id": "n", "block": block, "in": inputs, "out": {} }] });
    assert!(plan.is_valid(&node("file.read_csv", json!({ "path": "a.csv" }))));
    assert!(!plan.is_valid(&node("transforms.magic", json!({}))));
    assert!(
        !plan.is_valid(&node("file.read_csv", json!({ "path": "a.csv", "sheet": "x" }))),
        "an input key the block does not declare"
    );

    let llm = jsonschema::validator_for(&model::plan_schema(&fixture.catalog, &["ai.process_llm".to_owned()])).unwrap();
    let step = |inputs: Value| json!({ "id": "p", "description": "", "vars": [], "graph": [{ "id": "n", "block": "ai.process_llm", "in": inputs, "out": {} }] });
    assert!(llm.is_valid(&step(json!({ "instruction": "classify", "output_schema": { "type": "object", "properties": { "c": { "type": "string" } } } }))));
    assert!(!llm.is_valid(&step(json!({ "instruction": "classify", "output_schema": {} }))), "an empty answer format");
    assert!(
        !llm.is_valid(&step(json!({ "output_schema": { "type": "object" , "properties": { "c": {} } } }))),
        "no task"
    );
}

#[tokio::test]
async fn a_model_inventing_a_block_is_asked_once_more_then_the_offline_design_stands_marked() {
    let fixture = Fixture::new();
    let (mut skeleton, _) = fixture.stage_answers(INSTRUCTION).await;
    skeleton["steps"][1]["block"] = Value::from("transforms.magic_filter");
    let server = ReplayServer::start(Script::in_order([Reply::json(&skeleton), Reply::json(&skeleton)])).await;
    let generated = generate(&fixture.with_model(&server, None), INSTRUCTION, DesignEngineOptions::default()).await;

    assert_eq!(server.requests().len(), 2, "the stage and one corrective re-ask, then no more calls");
    assert!(
        user_text(&server.requests()[1]).contains("transforms.magic_filter")
            || server.requests()[1].json().unwrap()["messages"].to_string().contains("transforms.magic_filter")
    );
    assert_eq!(generated.provenance, Provenance::Offline);
    assert!(generated.valid);
    assert!(generated.warnings.iter().any(|w| w.contains("offline design stands")), "{:?}", generated.warnings);
    assert!(generated.reasoning.iter().any(|r| r.contains("offline design")), "{:?}", generated.reasoning);
    assert!(generated.plan.graph.iter().all(|n| n.block.as_deref() != Some("transforms.magic_filter")));
    assert_eq!(generated.metrics.model_calls, 2);
}

#[tokio::test]
async fn a_repair_round_fixes_what_the_validator_found() {
    let fixture = Fixture::new();
    let (skeleton, wiring) = fixture.stage_answers(INSTRUCTION).await;
    let server = ReplayServer::start(Script::in_order([
        Reply::json(&skeleton),
        Reply::json(&with_unknown_alias(&wiring)),
        Reply::json(&wiring),
    ]))
    .await;
    let generated = generate(&fixture.with_model(&server, None), INSTRUCTION, DesignEngineOptions::default()).await;

    assert!(generated.valid, "{:?}", generated.findings);
    let rounds: Vec<(&str, usize)> = generated.attempts.iter().map(|a| (a.by.name(), a.errors)).collect();
    assert_eq!(rounds[0].0, "model");
    assert!(rounds[0].1 >= 1, "the first attempt had errors");
    assert_eq!(rounds[1], ("model repair", 0));
    // The repair saw the finding, its closest valid name and the block's spec.
    let sent = server.requests();
    assert_eq!(sent.len(), 3);
    let repair = user_text(&sent[2]);
    assert!(repair.contains("rowz") && repair.contains("(closest: rows"), "{repair}");
    assert!(repair.contains("transforms.filter (transforms)"), "{repair}");
    // The diff names the node the repair changed.
    let filter = generated.plan.graph.iter().find(|n| n.block.as_deref() == Some("transforms.filter")).unwrap();
    assert!(generated.attempts[1].diff.iter().any(|c| c.node == filter.id), "{:?}", generated.attempts[1].diff);
    assert!(generated.diff.iter().any(|c| c.node == filter.id));
    assert_eq!(generated.metrics.model_calls, 3);
    assert_eq!(generated.metrics.errors_per_attempt, [rounds[0].1, 0]);
}

#[tokio::test]
async fn a_model_that_keeps_failing_leaves_the_best_attempt_with_its_findings() {
    let fixture = Fixture::new();
    let (skeleton, wiring) = fixture.stage_answers(INSTRUCTION).await;
    let broken = with_unknown_alias(&wiring);
    let mut worse = broken.clone();
    worse["graph"].as_array_mut().unwrap().last_mut().unwrap()["in"]["data"] = Value::from("${nowhere.rows}");
    let server = ReplayServer::start(Script::in_order([
        Reply::json(&skeleton),
        Reply::json(&broken),
        Reply::json(&worse),
        Reply::json(&broken),
    ]))
    .await;
    let options = DesignEngineOptions { max_attempts: 2, ..DesignEngineOptions::default() };
    let generated = generate(&fixture.with_model(&server, None), INSTRUCTION, options).await;

    assert!(!generated.valid);
    assert_eq!(generated.attempts.len(), 3, "the design and two repair rounds");
    let errors: Vec<usize> = generated.attempts.iter().map(|a| a.errors).collect();
    assert!(errors[1] > errors[0], "the second attempt is worse: {errors:?}");
    // The best attempt (fewest errors, latest on a tie) is returned with its findings.
    let returned = generated.findings.iter().filter(|f| f.is_error()).count();
    assert_eq!(returned, *errors.iter().min().unwrap());
    assert!(generated.findings.iter().any(|f| f.is_error() && f.message.contains("rowz")), "{:?}", generated.findings);
    assert!(!generated.suggestions.is_empty());
    // The second repair was told what the first one changed.
    let sent = server.requests();
    assert_eq!(sent.len(), 4);
    assert!(user_text(&sent[2]).contains("first repair"));
    assert!(!user_text(&sent[3]).contains("first repair"), "the second round gets the diff of the first");
    assert_eq!(generated.metrics.model_calls, 4);
    assert_eq!(generated.metrics.repair_rounds, 2);
}

#[tokio::test]
async fn a_spelled_out_password_reaches_neither_the_plan_nor_the_model_nor_the_metrics() {
    const CANARY: &str = "hunter2-canary-7731";
    let instruction = format!("Open https://portal.example-supplier.com, log in as acme with password {CANARY} and download this month's statement");
    let fixture = Fixture::new();
    // A model that answers nothing usable: every stage's request is still sent and recorded.
    let server =
        ReplayServer::start(Script::new().always(planwright_llm_replay::Match::chat(), Reply::text("not json"))).await;
    let dir = tempfile::tempdir().unwrap();
    let metrics = dir.path().join("design/generations.jsonl");
    let engine = fixture.with_model(&server, Some(&metrics));
    let request = DesignRequest {
        instruction: instruction.clone(),
        // A reference document that repeats the value is redacted too before it is sent.
        documents: vec![("notes.txt".into(), format!("The portal password is {CANARY}; ask Ken if it expires."))],
        ..DesignRequest::default()
    };
    let generated = engine.generate(&request, &CancellationToken::new()).await.unwrap();

    assert!(generated.valid, "{:?}", generated.findings);
    assert!(generated.plan.secrets.contains(&"LOGIN_PASSWORD".to_owned()), "{:?}", generated.plan.secrets);
    let yaml = serde_yaml::to_string(&generated.plan).unwrap();
    assert!(yaml.contains("{{LOGIN_PASSWORD}}"), "the plan uses the placeholder:\n{yaml}");
    assert!(!yaml.contains(CANARY));
    assert!(!serde_json::to_string(&generated.reasoning).unwrap().contains(CANARY));
    assert!(!format!("{generated:?}").contains(CANARY), "nothing of the result carries the value");
    let sent = server.requests();
    assert!(!sent.is_empty(), "the model was asked");
    for request in &sent {
        let body = &request.body;
        assert!(!body.contains(CANARY), "sent to the model: {body}");
    }
    assert!(sent.iter().any(|r| r.body.contains("{{LOGIN_PASSWORD}}")));
    let line = std::fs::read_to_string(&metrics).unwrap();
    assert!(!line.contains(CANARY));
    assert_eq!(generated.provenance, Provenance::Offline, "the model's unusable answer leaves the offline design");
}
