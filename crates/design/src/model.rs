//! Generation with a model (seed 002 §5, §6): stage 1 the skeleton, stage 2 the wiring, then
//! repair rounds — each a structured call whose schema is built for this request, so that the
//! answer cannot name a block outside the candidates, an input or output key its block does
//! not declare, or an `ai.process_llm` step without an answer format and a task.

use std::fmt::Write as _;

use planwright_catalog::spec::BlockSpec;
use planwright_catalog::Catalog;
use planwright_designs::TemplateSpec;
use planwright_llm::{structured, ChatRequest, LlmClient, Prompts, StructuredError, Tier};
use planwright_plan::{Finding, Node, Plan, API_VERSION, IDENTIFIER_PATTERN};
use serde_json::{json, Map, Value};
use tokio_util::sync::CancellationToken;
use tracing::Instrument;

use crate::options::DesignEngineOptions;

pub const SKELETON: &str = "design_skeleton";
pub const WIRING: &str = "design_wiring";
pub const REPAIR: &str = "design_repair";

/// What the model sees of a request.
pub struct ModelInput<'a> {
    /// Credentials already replaced by placeholders.
    pub instruction: &'a str,
    /// Normalised, within the options' budget (or "no documents provided").
    pub documents: &'a str,
    /// Block ids the model may use: the candidates, pinned blocks and the templates' blocks.
    pub blocks: &'a [String],
    pub templates: &'a [TemplateSpec],
    pub secrets: &'a [String],
}

/// A model's stage failed; the exchanges made are counted all the same by the recording client.
#[derive(Debug, thiserror::Error)]
pub enum ModelDesignError {
    #[error("{0}")]
    Call(#[from] StructuredError),
    #[error("prompt: {0}")]
    Prompt(#[from] planwright_llm::PromptError),
}

pub struct ModelDesigner<'a> {
    pub client: &'a dyn LlmClient,
    pub prompts: &'a Prompts,
    pub catalog: &'a Catalog,
    pub options: &'a DesignEngineOptions,
    pub cancel: &'a CancellationToken,
    /// Told when each stage starts.
    pub progress: &'a (dyn Fn(crate::DesignStage) + Sync),
}

impl ModelDesigner<'_> {
    /// Stages 1 and 2: the plan the model designs.
    pub async fn design(&self, input: &ModelInput<'_>) -> Result<(Plan, String), ModelDesignError> {
        (self.progress)(crate::DesignStage::Skeleton);
        let skeleton = self.skeleton(input).instrument(tracing::info_span!("design.skeleton")).await?;
        let steps: Vec<String> = skeleton["steps"]
            .as_array()
            .into_iter()
            .flatten()
            .filter_map(|s| s["block"].as_str().map(str::to_owned))
            .collect();
        let summary = skeleton["summary"].as_str().unwrap_or_default().to_owned();
        // Stage 2 may use the skeleton's blocks (fixed) and nothing else.
        let mut blocks: Vec<String> = Vec::new();
        for block in steps {
            if !blocks.contains(&block) {
                blocks.push(block);
            }
        }
        (self.progress)(crate::DesignStage::Wiring);
        let wired = self.wiring(input, &skeleton, &blocks).instrument(tracing::info_span!("design.wiring")).await?;
        Ok((self.to_plan(&wired, input.secrets), summary))
    }

    async fn skeleton(&self, input: &ModelInput<'_>) -> Result<Value, ModelDesignError> {
        let rendered = self.prompts.render(
            SKELETON,
            &[
                ("instruction", input.instruction),
                ("documents", input.documents),
                ("candidates", &self.describe_blocks(input.blocks, false)),
                ("templates", &describe_templates(input.templates)),
                ("secrets", &secrets_text(input.secrets)),
            ],
        )?;
        let request = ChatRequest::new(Tier::Creative, rendered.messages());
        let answer = structured(
            self.client,
            self.prompts,
            request,
            "plan_skeleton",
            &skeleton_schema(input.blocks),
            self.cancel,
        )
        .await?;
        Ok(answer.value)
    }

    async fn wiring(
        &self,
        input: &ModelInput<'_>,
        skeleton: &Value,
        blocks: &[String],
    ) -> Result<Value, ModelDesignError> {
        let rendered = self.prompts.render(
            WIRING,
            &[
                ("instruction", input.instruction),
                ("documents", input.documents),
                ("skeleton", &serde_json::to_string_pretty(skeleton).unwrap_or_default()),
                ("blocks", &self.describe_blocks(blocks, true)),
                ("templates", &describe_templates(input.templates)),
                ("secrets", &secrets_text(input.secrets)),
            ],
        )?;
        let request = ChatRequest::new(Tier::Creative, rendered.messages());
        let schema = plan_schema(self.catalog, blocks);
        let answer = structured(self.client, self.prompts, request, "plan_wiring", &schema, self.cancel).await?;
        Ok(answer.value)
    }

    /// One repair round: the plan, the errors, the specs of the blocks involved, the templates'
    /// contracts, the diff from the attempt before.
    pub async fn repair(
        &self,
        plan: &Plan,
        findings: &[Finding],
        diff: &str,
        templates: &[TemplateSpec],
        secrets: &[String],
    ) -> Result<Plan, ModelDesignError> {
        let involved: Vec<String> = {
            let mut ids: Vec<String> = Vec::new();
            for node in crate::nodes_and_bodies(plan) {
                let mentioned = findings
                    .iter()
                    .any(|f| f.node.as_deref().is_some_and(|n| n == node.id || n.ends_with(&format!("/{}", node.id))));
                if let (true, Some(block)) = (mentioned, node.block.as_deref()) {
                    if !ids.iter().any(|b| b == block) && self.catalog.get(block).is_some() {
                        ids.push(block.to_owned());
                    }
                }
            }
            ids
        };
        let mut allowed: Vec<String> =
            crate::blocks_of(plan).into_iter().filter(|b| self.catalog.get(b).is_some()).collect();
        for finding in findings {
            allowed.extend(finding.candidates.iter().filter(|c| self.catalog.get(c).is_some()).cloned());
        }
        allowed.sort();
        allowed.dedup();
        if allowed.is_empty() {
            allowed = self.catalog.blocks().map(|b| b.id.clone()).collect();
        }
        let rendered = self.prompts.render(
            REPAIR,
            &[
                ("plan", &serde_json::to_string_pretty(&for_model(plan)).unwrap_or_default()),
                ("findings", &describe_findings(findings)),
                ("specs", &self.describe_blocks(&involved, true)),
                ("templates", &describe_templates(templates)),
                ("diff", diff),
            ],
        )?;
        let request = ChatRequest::new(Tier::Creative, rendered.messages());
        let schema = plan_schema(self.catalog, &allowed);
        let answer = structured(self.client, self.prompts, request, "plan_repair", &schema, self.cancel)
            .instrument(tracing::info_span!("design.repair", findings = findings.len()))
            .await?;
        Ok(self.to_plan(&answer.value, secrets))
    }

    /// The model's answer as a plan: vars from their list, loops' bodies in place, the
    /// options' policy, the instruction's secrets.
    fn to_plan(&self, answer: &Value, secrets: &[String]) -> Plan {
        let vars: Map<String, Value> = answer["vars"]
            .as_array()
            .into_iter()
            .flatten()
            .filter_map(|v| Some((v["name"].as_str()?.to_owned(), v["value"].clone())))
            .collect();
        let graph: Vec<Value> = answer["graph"].as_array().into_iter().flatten().map(node_from_model).collect();
        let layout: Vec<Value> = graph.iter().filter_map(|n| n.get("id").cloned()).collect();
        let plan = json!({
            "apiVersion": API_VERSION,
            "id": answer["id"].as_str().filter(|s| !s.is_empty()).unwrap_or("generated_plan"),
            "version": "1.0.0",
            "description": answer["description"],
            "vars": vars,
            "secrets": secrets,
            "policy": self.options.policy,
            "ui": { "layout": layout },
            "graph": graph,
        });
        serde_json::from_value(plan).unwrap_or_default()
    }

    fn describe_blocks(&self, ids: &[String], full: bool) -> String {
        let mut text = String::new();
        for spec in ids.iter().filter_map(|id| self.catalog.get(id)) {
            describe_block(&mut text, spec, full);
        }
        if text.is_empty() {
            "none".into()
        } else {
            text
        }
    }
}

fn describe_block(text: &mut String, spec: &BlockSpec, full: bool) {
    let inputs: Vec<String> =
        spec.inputs.iter().map(|(k, p)| format!("{k}{}", if p.required { "*" } else { "" })).collect();
    let outputs: Vec<&str> = spec.outputs.keys().map(String::as_str).collect();
    let _ = writeln!(
        text,
        "- {} ({}): in {}; out {} — {}",
        spec.id,
        spec.category,
        inputs.join(", "),
        outputs.join(", "),
        spec.title.en
    );
    if full {
        for (key, port) in &spec.inputs {
            let description = port.description.as_ref().map(|d| d.en().to_owned()).unwrap_or_default();
            let _ = writeln!(text, "    in.{key}{}: {description}", if port.required { " (required)" } else { "" });
        }
        for (key, port) in &spec.outputs {
            let description = port.description.as_ref().map(|d| d.en().to_owned()).unwrap_or_default();
            let _ = writeln!(text, "    out.{key}: {description}");
        }
    }
}

fn describe_templates(templates: &[TemplateSpec]) -> String {
    if templates.is_empty() {
        return "none".into();
    }
    let mut text = String::new();
    for t in templates {
        let imports: Vec<String> = t.imports.iter().map(|(k, p)| format!("{k}: {}", p.type_name)).collect();
        let exports: Vec<String> = t.exports.iter().map(|(k, p)| format!("{k}: {}", p.type_name)).collect();
        let snippet = serde_yaml::to_string(&t.graph_snippet).unwrap_or_default();
        let _ = writeln!(
            text,
            "- {} — {}\n  imports (read as ${{imports.NAME}}): {}\n  exports: {}\n  snippet:\n{}",
            t.id,
            t.description.en,
            imports.join(", "),
            exports.join(", "),
            snippet.lines().map(|l| format!("    {l}")).collect::<Vec<_>>().join("\n")
        );
    }
    text
}

fn secrets_text(secrets: &[String]) -> String {
    if secrets.is_empty() {
        "none".into()
    } else {
        secrets.iter().map(|s| format!("{s} (as ${{secrets.{s}}} or {{{{{s}}}}})")).collect::<Vec<_>>().join("\n")
    }
}

fn describe_findings(findings: &[Finding]) -> String {
    let mut text = String::new();
    for f in findings.iter().filter(|f| f.is_error()) {
        let _ = write!(
            text,
            "- {} at {}{}: {}",
            f.code.as_str(),
            f.node.as_deref().unwrap_or("plan"),
            f.field.as_deref().map(|x| format!(".{x}")).unwrap_or_default(),
            f.message
        );
        if let Some(hint) = &f.hint {
            let _ = write!(text, " — {hint}");
        }
        if !f.candidates.is_empty() {
            let _ = write!(text, " (closest: {})", f.candidates.join(", "));
        }
        text.push('\n');
    }
    text
}

/// A plan as a model would give it in stage 1 (its skeleton) and stage 2 (its wiring): what a
/// scripted model replays in benchmarks and tests.
pub fn stage_answers(plan: &Plan) -> (Value, Value) {
    let steps: Vec<Value> = plan
        .graph
        .iter()
        .filter_map(|n| {
            let (block, repeat) = match (&n.block, n.body_graph().first()) {
                (Some(block), _) => (block.clone(), "once"),
                (None, Some(inner)) => (inner.block.clone()?, if n.while_.is_some() { "while" } else { "foreach" }),
                _ => return None,
            };
            Some(json!({ "id": n.id, "block": block, "purpose": n.description.clone().unwrap_or_default(), "repeat": repeat }))
        })
        .collect();
    let skeleton = json!({
        "summary": plan.description.clone().unwrap_or_default(),
        "steps": steps,
        "needs_person": plan.graph.iter().any(|n| n.block.as_deref().is_some_and(|b| b.starts_with("ui."))),
        "open_questions": [],
    });
    (skeleton, for_model(plan))
}

/// The plan as the model writes it: vars as a list, loop bodies as `body.graph`, `when` and
/// `while.condition` as text.
fn for_model(plan: &Plan) -> Value {
    let vars: Vec<Value> = plan.vars.iter().map(|(k, v)| json!({ "name": k, "value": v })).collect();
    let graph: Vec<Value> = plan.graph.iter().map(node_for_model).collect();
    json!({ "id": plan.id, "description": plan.description, "vars": vars, "graph": graph })
}

/// One node as the model writes it (the inverse of [`node_from_model`]).
fn node_for_model(n: &Node) -> Value {
    let mut node = serde_json::to_value(n).unwrap_or_default();
    if let Some(when) = n.when.as_ref() {
        node["when"] = Value::from(when.expr.as_str());
    }
    if let Some(w) = n.while_.as_ref() {
        node["while"] = json!({ "condition": w.condition.expr, "max_iterations": w.max_iterations });
    }
    if node.get("body").is_some() {
        let graph: Vec<Value> = n.body_graph().iter().map(node_for_model).collect();
        node["body"] = json!({ "graph": graph });
    }
    node
}

/// A node of the model's answer in the plan format.
fn node_from_model(node: &Value) -> Value {
    let mut node = node.clone();
    let Some(map) = node.as_object_mut() else { return node };
    map.retain(|_, v| !v.is_null());
    if let Some(Value::String(expr)) = map.get("when").cloned() {
        map.insert("when".into(), json!({ "expr": expr }));
    }
    if let Some(Value::String(expr)) = map.get("while").and_then(|w| w.get("condition")).cloned() {
        map["while"]["condition"] = json!({ "expr": expr });
    }
    if let Some(body) = map.get("body").cloned() {
        let graph: Vec<Value> = body["graph"].as_array().into_iter().flatten().map(node_from_model).collect();
        map.insert("body".into(), json!({ "plan": { "graph": graph } }));
    }
    node
}

/// Stage 1's schema: steps whose `block` is one of `blocks`.
pub fn skeleton_schema(blocks: &[String]) -> Value {
    json!({
        "type": "object",
        "additionalProperties": false,
        "required": ["summary", "steps", "needs_person", "open_questions"],
        "properties": {
            "summary": { "type": "string" },
            "steps": { "type": "array", "minItems": 1, "maxItems": 24, "items": {
                "type": "object",
                "additionalProperties": false,
                "required": ["id", "block", "purpose", "repeat"],
                "properties": {
                    "id": { "type": "string", "pattern": IDENTIFIER_PATTERN },
                    "block": { "type": "string", "enum": blocks },
                    "purpose": { "type": "string" },
                    "repeat": { "type": "string", "enum": ["once", "foreach", "while"] }
                }
            } },
            "needs_person": { "type": "boolean" },
            "open_questions": { "type": "array", "items": { "type": "string" } }
        }
    })
}

/// Stage 2's (and a repair's) schema: a plan whose nodes are each one of `blocks` with that
/// block's own input and output keys, or a loop over such nodes.
pub fn plan_schema(catalog: &Catalog, blocks: &[String]) -> Value {
    let mut variants: Vec<Value> = Vec::new();
    let mut defs = Map::new();
    for spec in blocks.iter().filter_map(|b| catalog.get(b)) {
        let name = format!("block_{}", spec.id.replace('.', "_"));
        defs.insert(name.clone(), block_node_schema(spec));
        variants.push(json!({ "$ref": format!("#/$defs/{name}") }));
    }
    defs.insert("block_node".into(), json!({ "anyOf": variants }));
    defs.insert(
        "loop_node".into(),
        json!({
            "type": "object",
            "additionalProperties": false,
            "required": ["id", "body"],
            "properties": {
                "id": { "type": "string", "pattern": IDENTIFIER_PATTERN },
                "description": { "type": "string" },
                "foreach": { "type": "object", "additionalProperties": false, "required": ["input", "item_var"], "properties": {
                    "input": { "type": "string" }, "item_var": { "type": "string", "pattern": IDENTIFIER_PATTERN } } },
                "while": { "type": "object", "additionalProperties": false, "required": ["condition", "max_iterations"], "properties": {
                    "condition": { "type": "string" }, "max_iterations": { "type": "integer", "minimum": 1, "maximum": 1000 } } },
                "body": { "type": "object", "additionalProperties": false, "required": ["graph"], "properties": {
                    "graph": { "type": "array", "minItems": 1, "items": { "$ref": "#/$defs/block_node" } } } },
                "out": { "type": "object", "additionalProperties": false, "properties": {
                    "collect": { "type": "string", "pattern": IDENTIFIER_PATTERN } } },
                "when": { "type": "string" }
            }
        }),
    );
    json!({
        "type": "object",
        "additionalProperties": false,
        "required": ["id", "description", "vars", "graph"],
        "properties": {
            "id": { "type": "string", "pattern": "^[a-z0-9][a-z0-9_-]*$", "maxLength": 64 },
            "description": { "type": "string" },
            "vars": { "type": "array", "items": { "type": "object", "additionalProperties": false, "required": ["name", "value"], "properties": {
                "name": { "type": "string", "pattern": IDENTIFIER_PATTERN },
                "value": { "type": ["string", "number", "boolean", "null"] } } } },
            "graph": { "type": "array", "minItems": 1, "items": { "anyOf": [ { "$ref": "#/$defs/block_node" }, { "$ref": "#/$defs/loop_node" } ] } }
        },
        "$defs": defs
    })
}

fn block_node_schema(spec: &BlockSpec) -> Value {
    let inputs: Map<String, Value> = spec.inputs.keys().map(|k| (k.clone(), json!({}))).collect();
    let mut required: Vec<&str> = spec.inputs.iter().filter(|(_, p)| p.required).map(|(k, _)| k.as_str()).collect();
    let mut in_schema = json!({ "type": "object", "additionalProperties": false, "properties": inputs });
    if spec.id == "ai.process_llm" {
        in_schema["properties"]["output_schema"] = json!({ "type": "object", "minProperties": 1 });
        in_schema["anyOf"] = json!([{ "required": ["instruction"] }, { "required": ["prompt"] }]);
        if !required.contains(&"output_schema") {
            required.push("output_schema");
        }
    }
    in_schema["required"] = json!(required);
    let outputs: Map<String, Value> =
        spec.outputs.keys().map(|k| (k.clone(), json!({ "type": "string", "pattern": IDENTIFIER_PATTERN }))).collect();
    json!({
        "type": "object",
        "additionalProperties": false,
        "required": ["id", "block", "in", "out"],
        "properties": {
            "id": { "type": "string", "pattern": IDENTIFIER_PATTERN },
            "block": { "type": "string", "enum": [spec.id] },
            "description": { "type": "string" },
            "in": in_schema,
            "out": { "type": "object", "additionalProperties": false, "properties": outputs },
            "when": { "type": "string" },
            "after": { "type": "array", "items": { "type": "string" } }
        }
    })
}

/// Block ids of the given templates' snippets.
pub fn template_blocks(templates: &[TemplateSpec]) -> Vec<String> {
    let mut ids = Vec::new();
    for t in templates {
        for node in &t.graph_snippet {
            collect_blocks(node, &mut ids);
        }
    }
    ids
}

fn collect_blocks(node: &serde_yaml::Value, ids: &mut Vec<String>) {
    if let Some(block) = node.get("block").and_then(|b| b.as_str()) {
        let block = block.split('@').next().unwrap_or(block).to_owned();
        if !ids.contains(&block) {
            ids.push(block);
        }
    }
    if let Some(graph) =
        node.get("body").and_then(|b| b.get("plan")).and_then(|p| p.get("graph")).and_then(|g| g.as_sequence())
    {
        for inner in graph {
            collect_blocks(inner, ids);
        }
    }
}
