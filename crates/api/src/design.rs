//! The Design tab's operations over the design engine (`planwright-design`): the templates to
//! pick from, the candidate blocks of an instruction, a generation streamed stage by stage (and
//! cancelled), answers filled into the plan, requirements moved to run time, and the history of
//! generations.
//!
//! A generation is two operations, as a run is: `start_generation` takes the request (a JSON
//! body, checked at once) and names it; `generation_events` runs it and streams its stages, so
//! the work belongs to the stream — closing it or `cancel_stream` stops the engine.

use std::sync::Mutex;

use indexmap::IndexMap;
use planwright_design::diff::ChangeKind;
use planwright_design::{
    answer_value, ask_at_run_time, metrics, ApplyMode, DesignEngine, DesignEngineOptions, DesignRequest,
    DesignRequirement, DesignStage, GeneratedPlan, GenerationMetrics, Language, MetricsSummary, Target,
};
use planwright_designs::{Designs, TemplateSpec};
use planwright_plan::{edit, load_plan};
use planwright_retrieval::SearchOptions;
use serde::{Deserialize, Serialize};
use serde_json::{Map, Value};
use tokio_util::sync::CancellationToken;
use ts_rs::TS;

use crate::documents::{read_documents, DocumentInfo};
use crate::error::{ApiError, ApiMessage};
use crate::streams::Watch;
use crate::types::{Finding, Localized, LocalizedList};
use crate::Studio;

/// Generations asked for and not yet followed; the oldest goes when more wait.
const MAX_PENDING: usize = 16;

/// How many recent generations `design_metrics` lists.
const RECENT_GENERATIONS: usize = 20;

/// Generations started and waiting for their stream, by name, and how many were started.
#[derive(Default)]
pub(crate) struct PendingGenerations {
    waiting: Mutex<Vec<(String, GenerateRequest)>>,
    started: std::sync::atomic::AtomicU64,
}

/// One template of the workspace's `designs/templates/`.
#[derive(Debug, Clone, Serialize, Deserialize, TS)]
pub struct TemplateInfo {
    pub id: String,
    /// Under `designs/`: `templates/finance/bank_reconciliation.yaml`.
    pub file: String,
    /// The folder under `templates/`: `finance`.
    pub category: String,
    pub title: Localized,
    pub description: Localized,
    pub tags: LocalizedList,
    pub imports: Vec<TemplatePortInfo>,
    pub exports: Vec<TemplatePortInfo>,
    pub secrets: Vec<String>,
    pub nodes: Vec<String>,
    /// Set when the file does not load as a template: what is wrong.
    pub problem: Option<String>,
}

#[derive(Debug, Clone, Serialize, Deserialize, TS)]
pub struct TemplatePortInfo {
    pub name: String,
    #[serde(rename = "type")]
    pub type_name: String,
    pub description: Localized,
}

/// What to rank the catalog's blocks for.
#[derive(Debug, Clone, Serialize, Deserialize, TS)]
pub struct CandidatesRequest {
    pub instruction: String,
    /// Blocks the person pinned: always among the answers.
    #[serde(default)]
    pub pinned: Vec<String>,
}

#[derive(Debug, Clone, Serialize, Deserialize, TS)]
pub struct CandidateHit {
    pub id: String,
    pub score: f64,
    pub category: String,
    /// Why it ranked: the matched words and where they were found, best first.
    pub why: Vec<String>,
    pub pinned: bool,
}

#[derive(Debug, Clone, Serialize, Deserialize, TS)]
pub struct CandidatesResponse {
    pub hits: Vec<CandidateHit>,
    /// `bm25` or `hybrid`.
    pub method: String,
    pub warnings: Vec<String>,
}

/// How the chosen templates shape the plan.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize, TS)]
#[serde(rename_all = "kebab-case")]
pub enum TemplateMode {
    /// Inserted as they are, ids prefixed with the template's.
    #[default]
    Compose,
    /// Examples for a model; nothing inserted as is.
    Hint,
    /// Not used.
    LlmOnly,
}

/// One generation: what the person wrote, added and chose.
#[derive(Debug, Clone, Serialize, Deserialize, TS)]
pub struct GenerateRequest {
    pub instruction: String,
    /// Documents by the name `upload_document` answered with.
    #[serde(default)]
    pub documents: Vec<String>,
    /// Template ids.
    #[serde(default)]
    pub templates: Vec<String>,
    #[serde(default)]
    pub apply_mode: TemplateMode,
    #[serde(default)]
    pub pinned: Vec<String>,
    /// Answers given in the requirements chat, by requirement id.
    #[serde(default)]
    pub answers: Map<String, Value>,
}

#[derive(Debug, Clone, Serialize, Deserialize, TS)]
pub struct GenerationStarted {
    /// Follow it with `generation_events`.
    pub generation: String,
}

/// Where a generation is.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, TS)]
#[serde(tag = "stage", rename_all = "snake_case")]
pub enum GenerationStep {
    /// Reading the documents: `read` of `of` done.
    Documents {
        read: u32,
        of: u32,
    },
    Candidates,
    Offline,
    /// The model's stage 1.
    Skeleton,
    /// The model's stage 2.
    Wiring,
    Validating,
    Repairing {
        round: u32,
    },
}

/// What `generation_events` streams: steps, then the result or the failure.
#[derive(Debug, Clone, Serialize, Deserialize, TS)]
#[serde(tag = "type", rename_all = "snake_case")]
pub enum GenerationEvent {
    Progress { step: GenerationStep },
    Done { result: Box<GenerationResult> },
    Failed { error: ApiError },
}

/// A generated plan and everything the Design tab shows around it.
#[derive(Debug, Clone, Serialize, Deserialize, TS)]
pub struct GenerationResult {
    /// The plan's YAML, headed by who designed it.
    pub text: String,
    /// The instruction as the engine read it: a spelled-out credential replaced by its
    /// placeholder (`{{LOGIN_PASSWORD}}`), so the Design tab keeps no secret's value.
    pub instruction: String,
    pub plan_id: String,
    pub valid: bool,
    /// The instruction does not say what to read, do or write: `text` is no plan, and
    /// `requirements` are the questions whose answers complete the instruction.
    pub refused: bool,
    /// `the offline designer`, or the model and its provider.
    pub designed_by: String,
    pub offline: bool,
    /// How it was designed, in the instruction's language.
    pub reasoning: Vec<String>,
    /// The same, coded: the studio says each in the person's language (`design.said.<key>`).
    pub notes: Vec<planwright_design::DesignNote>,
    pub candidates: Vec<CandidateHit>,
    pub templates_used: Vec<String>,
    pub requirements: Vec<DesignRequirement>,
    pub findings: Vec<Finding>,
    /// The first design, then each repair round.
    pub attempts: Vec<AttemptView>,
    /// What composing the templates could not settle.
    pub conflicts: Vec<String>,
    pub warnings: Vec<String>,
    pub suggestions: Vec<String>,
    /// `en` or `ja`: the instruction's.
    pub language: String,
    /// The documents as this generation read them.
    pub documents: Vec<DocumentInfo>,
    pub metrics: GenerationMetrics,
}

/// One attempt, with the plan it gave (to go back to) and what it changed.
#[derive(Debug, Clone, Serialize, Deserialize, TS)]
pub struct AttemptView {
    pub number: u32,
    /// `offline`, `model`, `offline repair` or `model repair`.
    pub by: String,
    pub errors: u32,
    /// What a rule-based repair did, one sentence each.
    pub repairs: Vec<String>,
    pub text: String,
    pub changes: Vec<NodeChangeView>,
    /// The errors of the attempt before that this one no longer has.
    pub fixed: Vec<String>,
    pub findings: Vec<Finding>,
}

/// One node's change from the attempt before, with the node's YAML on each side.
#[derive(Debug, Clone, Serialize, Deserialize, TS)]
pub struct NodeChangeView {
    /// A node id, or `(plan)` for vars and secrets.
    pub node: String,
    pub change: ChangeKind,
    pub fields: Vec<String>,
    pub before: Option<String>,
    pub after: Option<String>,
}

/// Answers to fill into a plan's text.
#[derive(Debug, Clone, Serialize, Deserialize, TS)]
pub struct ApplyAnswersRequest {
    pub text: String,
    pub requirements: Vec<DesignRequirement>,
    pub answers: Map<String, Value>,
}

#[derive(Debug, Clone, Serialize, Deserialize, TS)]
pub struct AnswersApplied {
    pub text: String,
    /// What each answer filled: `vars.NAME` or `NODE.FIELD`.
    pub filled: Vec<String>,
}

/// Requirements to ask when the plan runs instead of now.
#[derive(Debug, Clone, Serialize, Deserialize, TS)]
pub struct AskAtRunTimeRequest {
    pub text: String,
    pub requirements: Vec<DesignRequirement>,
    /// `en` or `ja`: the language the question is asked in.
    pub language: String,
}

#[derive(Debug, Clone, Serialize, Deserialize, TS)]
pub struct AskedAtRunTime {
    pub text: String,
    /// The `ui.interactive_input` node added at the head of the plan.
    pub node: String,
}

/// What the Design tab keeps with a draft.
#[derive(Debug, Clone, Serialize, Deserialize, TS)]
pub struct DesignSession {
    pub instruction: String,
    pub documents: Vec<DocumentInfo>,
    /// Template ids.
    pub templates: Vec<String>,
    pub apply_mode: TemplateMode,
    pub pinned: Vec<String>,
    /// Answers given in the requirements chat, by requirement id.
    pub answers: Map<String, Value>,
    /// Requirements moved to run time (`ask_at_run_time`): no longer asked in the chat.
    #[serde(default)]
    pub at_run_time: Vec<String>,
    pub chat: Vec<ChatMessage>,
    /// The latest generation.
    pub generation: Option<GenerationResult>,
}

impl DesignSession {
    /// The session with each credential its person spelled out — in the instruction, the chat or
    /// an answer — replaced by its placeholder, there and wherever else in the session its value
    /// stands (the generation's plan and attempts, a message that repeats it alone).
    pub(crate) fn without_credentials(mut self) -> Result<DesignSession, ApiError> {
        let mut redactor = planwright_design::credentials::Redactor::default();
        self.instruction = redactor.redact(&self.instruction);
        for message in &mut self.chat {
            message.text = redactor.redact(&message.text);
        }
        for answer in self.answers.values_mut() {
            each_string(answer, &mut |text| *text = redactor.redact(text));
        }
        if let Some(generation) = &mut self.generation {
            generation.instruction = redactor.redact(&generation.instruction);
        }
        if redactor.secrets().is_empty() {
            return Ok(self);
        }
        let unreadable = |e: serde_json::Error| ApiError::internal(format!("the design session: {e}"));
        let mut session = serde_json::to_value(&self).map_err(unreadable)?;
        each_string(&mut session, &mut |text| *text = redactor.hide_distinct(text));
        // A value that is also one of the session's own words (an author, a mode) would leave it
        // unreadable: then the session keeps what the instruction, chat and answers were scrubbed to.
        Ok(serde_json::from_value(session).unwrap_or(self))
    }
}

/// Calls `change` on every string in `value`, at any depth (a session read from JSON is at most
/// 128 levels deep).
fn each_string(value: &mut Value, change: &mut dyn FnMut(&mut String)) {
    match value {
        Value::String(text) => change(text),
        Value::Array(items) => items.iter_mut().for_each(|item| each_string(item, change)),
        Value::Object(fields) => fields.values_mut().for_each(|field| each_string(field, change)),
        _ => {}
    }
}

/// One line of the requirements chat.
#[derive(Debug, Clone, Serialize, Deserialize, TS)]
pub struct ChatMessage {
    pub from: ChatAuthor,
    pub text: String,
    /// The requirement asked or answered.
    pub requirement: Option<String>,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, TS)]
#[serde(rename_all = "snake_case")]
pub enum ChatAuthor {
    Studio,
    Person,
}

/// The design engine's history (`design/generations.jsonl` under the data home).
#[derive(Debug, Clone, Serialize, TS)]
pub struct DesignMetrics {
    pub summary: MetricsSummary,
    /// The latest generations, newest first.
    pub recent: Vec<GenerationMetrics>,
}

impl Studio {
    /// The workspace's templates, each with what it needs and gives.
    pub async fn list_templates(&self) -> Result<Vec<TemplateInfo>, ApiError> {
        Ok(self
            .template_files()
            .await?
            .into_iter()
            .map(|f| match f.spec {
                Ok(spec) => template_info(&spec, f.file, f.category),
                Err(problem) => TemplateInfo {
                    id: f.file.rsplit('/').next().unwrap_or(&f.file).trim_end_matches(".yaml").to_owned(),
                    file: f.file,
                    category: f.category,
                    title: Localized { en: String::new(), ja: String::new() },
                    description: Localized { en: String::new(), ja: String::new() },
                    tags: LocalizedList { en: Vec::new(), ja: Vec::new() },
                    imports: Vec::new(),
                    exports: Vec::new(),
                    secrets: Vec::new(),
                    nodes: Vec::new(),
                    problem: Some(problem),
                },
            })
            .collect())
    }

    /// The blocks the design engine would consider for `instruction`, per category, as it ranks
    /// them (a spelled-out credential is never searched for).
    pub async fn design_candidates(&self, request: CandidatesRequest) -> Result<CandidatesResponse, ApiError> {
        let (retriever, mut warnings) = self.retriever(&self.model_services().await);
        let redacted = planwright_design::redact_instruction(request.instruction.trim());
        if redacted.text.trim().is_empty() {
            return Ok(CandidatesResponse { hits: Vec::new(), method: "bm25".into(), warnings });
        }
        let options =
            SearchOptions { top_k: DesignEngineOptions::default().topk_per_category, pinned: request.pinned.clone() };
        let found = retriever
            .search(&redacted.text, &options, &CancellationToken::new())
            .await
            .map_err(|e| ApiError::invalid(e.to_string()))?;
        warnings.extend(found.warnings);
        Ok(CandidatesResponse {
            hits: found.hits.into_iter().map(|h| candidate(h, &request.pinned)).collect(),
            method: found.method.name().to_owned(),
            warnings,
        })
    }

    /// Checks a generation's request and keeps it for `generation_events`.
    pub async fn start_generation(&self, request: GenerateRequest) -> Result<GenerationStarted, ApiError> {
        if request.instruction.trim().is_empty() {
            return Err(ApiError::invalid("the instruction is empty")
                .with_hint("describe the job in a sentence or two: what to read, what to do, what to write")
                .saying(ApiMessage::InstructionEmpty));
        }
        self.document_paths(&request.documents)?;
        let library = self.template_library().await?;
        for id in &request.templates {
            if !library.iter().any(|t| &t.id == id) {
                return Err(ApiError::not_found(format!("there is no template {id:?} in designs/templates"))
                    .with_hint("pick one from the template gallery")
                    .saying(ApiMessage::TemplateNotFound { id: id.clone() }));
            }
        }
        let pending = &self.inner.generations;
        let generation =
            format!("generation-{}", pending.started.fetch_add(1, std::sync::atomic::Ordering::Relaxed) + 1);
        let mut pending = pending.waiting.lock().unwrap_or_else(|e| e.into_inner());
        if pending.len() >= MAX_PENDING {
            pending.remove(0);
        }
        pending.push((generation.clone(), request));
        Ok(GenerationStarted { generation })
    }

    /// Runs a started generation, streaming its steps, then its result (or why it failed).
    pub async fn generation_events(&self, generation: String) -> Result<Watch<GenerationEvent>, ApiError> {
        let request = {
            let mut pending = self.inner.generations.waiting.lock().unwrap_or_else(|e| e.into_inner());
            let at = pending.iter().position(|(name, _)| *name == generation).ok_or_else(|| {
                ApiError::not_found(format!("there is no generation {generation:?} waiting"))
                    .with_hint("start it again with start_generation; each is followed once")
                    .saying(ApiMessage::GenerationNotFound { generation: generation.clone() })
            })?;
            pending.remove(at).1
        };
        let (sender, watch) = Watch::channel();
        let studio = self.clone();
        let span = tracing::info_span!("design.studio_generation", generation = %generation);
        tokio::spawn(tracing::Instrument::instrument(
            async move {
                let cancel = sender.cancel.clone();
                let (steps, mut step_items) = tokio::sync::mpsc::unbounded_channel();
                let work = studio.generate(request, cancel.clone(), steps);
                tokio::pin!(work);
                let outcome = loop {
                    tokio::select! {
                        outcome = &mut work => break outcome,
                        Some(step) = step_items.recv() => {
                            if !sender.send(GenerationEvent::Progress { step }).await {
                                cancel.cancel();
                            }
                        }
                    }
                };
                while let Ok(step) = step_items.try_recv() {
                    sender.send(GenerationEvent::Progress { step }).await;
                }
                let event = match outcome {
                    Ok(result) => GenerationEvent::Done { result: Box::new(result) },
                    Err(error) => GenerationEvent::Failed { error },
                };
                if !cancel.is_cancelled() {
                    sender.send(event).await;
                }
            },
            span,
        ));
        Ok(watch)
    }

    async fn generate(
        &self,
        request: GenerateRequest,
        cancel: CancellationToken,
        steps: tokio::sync::mpsc::UnboundedSender<GenerationStep>,
    ) -> Result<GenerationResult, ApiError> {
        let paths = self.document_paths(&request.documents)?;
        let of = u32::try_from(paths.len()).unwrap_or(u32::MAX);
        if of > 0 {
            let _ = steps.send(GenerationStep::Documents { read: 0, of });
        }
        let read = tokio::task::spawn_blocking(move || read_documents(&paths))
            .await
            .map_err(|e| ApiError::internal(format!("reading the documents stopped: {e}")))?;
        if of > 0 {
            let _ = steps.send(GenerationStep::Documents { read: of, of });
        }
        let documents: Vec<DocumentInfo> = read.iter().map(|(info, _)| info.clone()).collect();
        let texts: Vec<(String, String)> =
            read.into_iter().filter(|(info, _)| info.skipped.is_none()).map(|(info, text)| (info.name, text)).collect();
        let library = self.template_library().await?;
        let templates: Vec<TemplateSpec> =
            request.templates.iter().filter_map(|id| library.iter().find(|t| &t.id == id).cloned()).collect();
        let services = self.model_services().await;
        let (retriever, _) = self.retriever(&services);
        let prompts = planwright_llm::Prompts::built_in()
            .map_err(|e| ApiError::internal(format!("the built-in prompts: {e}")))?;
        let files = crate::WorkFolderFiles::new(self.workspace());
        let trial = crate::WorkFolderTrial::new(self.workspace(), self.inner.catalog.clone());
        let engine = DesignEngine {
            catalog: &self.inner.catalog,
            retriever: &retriever,
            library: &library,
            model: services.client().map(|c| (c, &prompts)),
            metrics: Some(metrics::metrics_file(self.data_home())),
            files: Some(&files),
            trial: Some(&trial),
        };
        let instruction = planwright_design::redact_instruction(request.instruction.trim()).text;
        let design = DesignRequest {
            instruction: request.instruction,
            documents: texts,
            templates,
            apply_mode: match request.apply_mode {
                TemplateMode::Compose => ApplyMode::Compose,
                TemplateMode::Hint => ApplyMode::Hint,
                TemplateMode::LlmOnly => ApplyMode::LlmOnly,
            },
            pinned: request.pinned.clone(),
            answers: request.answers.into_iter().collect::<IndexMap<_, _>>(),
            options: DesignEngineOptions::default(),
        };
        let progress = |stage: DesignStage| {
            let _ = steps.send(match stage {
                DesignStage::Candidates => GenerationStep::Candidates,
                DesignStage::Offline => GenerationStep::Offline,
                DesignStage::Skeleton => GenerationStep::Skeleton,
                DesignStage::Wiring => GenerationStep::Wiring,
                DesignStage::Validating => GenerationStep::Validating,
                DesignStage::Repairing { round } => GenerationStep::Repairing { round },
            });
        };
        let generated = engine.generate_with_progress(&design, &cancel, &progress).await.map_err(|e| {
            ApiError::invalid(e.to_string())
                .with_hint("change the instruction and generate again")
                .saying(ApiMessage::GenerationRefused { detail: e.to_string() })
        })?;
        result(generated, instruction, documents, &request.pinned)
    }

    /// Fills each answered requirement into the text — a var's value or a node's input — keeping
    /// the rest of the text (comments, formatting, edits) as it is.
    pub async fn apply_answers(&self, request: ApplyAnswersRequest) -> Result<AnswersApplied, ApiError> {
        let mut text = request.text;
        let mut filled = Vec::new();
        for requirement in &request.requirements {
            let Some(answer) = request.answers.get(&requirement.requirement.id) else { continue };
            if answer.is_null() || answer.as_str().is_some_and(|s| s.trim().is_empty()) {
                continue;
            }
            let value = answer_value(requirement, answer);
            let (edited, what) = match &requirement.target {
                Target::Var { name } => (edit::set_var(&text, name, &value), format!("vars.{name}")),
                Target::Input { node, field } => {
                    (edit::set_input(&text, node, field, &value), format!("{node}.{field}"))
                }
                // A secret is set in the key store; what the job is goes into the instruction.
                Target::Secret { .. } | Target::Instruction { .. } => continue,
            };
            text = edited
                .map_err(|e| {
                    ApiError::invalid(format!(
                        "the answer to {:?} cannot be filled in: {e}",
                        requirement.requirement.label
                    ))
                    .with_hint("generate the plan again, or fill the value in the editor")
                    .saying(ApiMessage::AnswerNotFilled {
                        label: requirement
                            .requirement
                            .label
                            .clone()
                            .unwrap_or_else(|| requirement.requirement.id.clone()),
                        detail: e.to_string(),
                    })
                })?
                .text;
            filled.push(what);
        }
        Ok(AnswersApplied { text, filled })
    }

    /// Moves `requirements` to run time: a `ui.interactive_input` node at the head of the plan
    /// asks them, and what they filled reads its answers.
    pub async fn ask_at_run_time(&self, request: AskAtRunTimeRequest) -> Result<AskedAtRunTime, ApiError> {
        let loaded = load_plan(&request.text).map_err(|e| {
            ApiError::invalid(format!("the plan cannot be read: {e}"))
                .with_hint("fix the YAML at that line first")
                .saying(ApiMessage::PlanUnreadable { detail: e.to_string() })
        })?;
        let mut plan = loaded.plan.ok_or_else(|| {
            ApiError::invalid("the text is not a plan yet")
                .with_hint("fix the findings at the top of the plan first")
                .saying(ApiMessage::NotAPlan)
        })?;
        let language = if request.language == "ja" { Language::Ja } else { Language::En };
        let node = ask_at_run_time(&mut plan, &request.requirements, language).ok_or_else(|| {
            ApiError::invalid("none of these can be asked at run time")
                .with_hint("secrets are set in Settings or asked by the run itself; choose other questions")
                .saying(ApiMessage::NothingToAskAtRunTime)
        })?;
        let text = serde_yaml::to_string(&plan).map_err(|e| ApiError::internal(format!("writing the plan: {e}")))?;
        Ok(AskedAtRunTime { text, node })
    }

    /// The design engine's figures over every generation, and the latest ones.
    pub async fn design_metrics(&self) -> Result<DesignMetrics, ApiError> {
        let path = metrics::metrics_file(self.data_home());
        let (summary, mut recent) = tokio::task::spawn_blocking(move || metrics::history(&path, RECENT_GENERATIONS))
            .await
            .map_err(|e| ApiError::internal(format!("reading the generation history stopped: {e}")))?
            .map_err(|e| ApiError::internal(format!("cannot read the generation history: {e}")))?;
        recent.reverse();
        Ok(DesignMetrics { summary, recent })
    }

    /// Every template of the workspace that loads.
    async fn template_library(&self) -> Result<Vec<TemplateSpec>, ApiError> {
        Ok(self.template_files().await?.into_iter().filter_map(|f| f.spec.ok()).collect())
    }

    /// The files of `designs/templates/`, each loaded or with what is wrong.
    async fn template_files(&self) -> Result<Vec<planwright_designs::TemplateFile>, ApiError> {
        let designs = Designs::new(self.designs_dir());
        tokio::task::spawn_blocking(move || designs.templates())
            .await
            .map_err(|e| ApiError::internal(format!("listing templates stopped: {e}")))?
            .map_err(|e| ApiError::internal(format!("cannot list the templates: {e}")))
    }
}

fn to_yaml<T: Serialize + ?Sized>(value: &T) -> String {
    serde_yaml::to_string(value).unwrap_or_default()
}

fn candidate(hit: planwright_retrieval::Hit, pinned: &[String]) -> CandidateHit {
    CandidateHit {
        pinned: pinned.contains(&hit.id),
        id: hit.id,
        score: hit.score,
        category: hit.category,
        why: hit.why,
    }
}

fn template_info(spec: &TemplateSpec, file: String, category: String) -> TemplateInfo {
    let ports = |ports: &std::collections::BTreeMap<String, planwright_designs::TemplatePort>| {
        ports
            .iter()
            .map(|(name, port)| TemplatePortInfo {
                name: name.clone(),
                type_name: port.type_name.clone(),
                description: Localized { en: port.description.en.clone(), ja: port.description.ja.clone() },
            })
            .collect()
    };
    TemplateInfo {
        id: spec.id.clone(),
        file,
        category,
        title: Localized { en: spec.title.en.clone(), ja: spec.title.ja.clone() },
        description: Localized { en: spec.description.en.clone(), ja: spec.description.ja.clone() },
        tags: LocalizedList { en: spec.tags.en.clone(), ja: spec.tags.ja.clone() },
        imports: ports(&spec.imports),
        exports: ports(&spec.exports),
        secrets: spec.secrets.clone(),
        nodes: spec.node_ids(),
        problem: None,
    }
}

fn result(
    generated: GeneratedPlan,
    instruction: String,
    documents: Vec<DocumentInfo>,
    pinned: &[String],
) -> Result<GenerationResult, ApiError> {
    let text = generated.to_yaml().map_err(|e| ApiError::internal(format!("writing the plan: {e}")))?;
    let mut attempts: Vec<AttemptView> = Vec::with_capacity(generated.attempts.len());
    let mut previous: Option<&planwright_design::Attempt> = None;
    for attempt in &generated.attempts {
        let node_yaml = |plan: &planwright_plan::Plan, id: &str| -> Option<String> {
            if id == "(plan)" {
                let vars = serde_json::json!({ "vars": plan.vars, "secrets": plan.secrets });
                return Some(to_yaml(&vars));
            }
            planwright_design::nodes_and_bodies(plan).find(|n| n.id == id).map(to_yaml)
        };
        let changes = attempt
            .diff
            .iter()
            .map(|change| NodeChangeView {
                node: change.node.clone(),
                change: change.change,
                fields: change.fields.clone(),
                before: previous.and_then(|p| node_yaml(&p.plan, &change.node)),
                after: node_yaml(&attempt.plan, &change.node),
            })
            .collect();
        let errors_of = |a: &planwright_design::Attempt| -> Vec<String> {
            a.findings.iter().filter(|f| f.is_error()).map(|f| f.message.clone()).collect()
        };
        let now = errors_of(attempt);
        let fixed =
            previous.map(|p| errors_of(p).into_iter().filter(|m| !now.contains(m)).collect()).unwrap_or_default();
        attempts.push(AttemptView {
            number: attempt.number,
            by: attempt.by.name().to_owned(),
            errors: u32::try_from(attempt.errors).unwrap_or(u32::MAX),
            repairs: attempt.repairs.clone(),
            text: to_yaml(&attempt.plan),
            changes,
            fixed,
            findings: attempt.findings.iter().map(Finding::from).collect(),
        });
        previous = Some(attempt);
    }
    Ok(GenerationResult {
        instruction,
        plan_id: generated.plan.id.clone(),
        valid: generated.valid,
        refused: generated.refused,
        designed_by: generated.designed_by(),
        offline: matches!(generated.provenance, planwright_llm::Provenance::Offline),
        reasoning: generated.reasoning,
        notes: generated.notes,
        candidates: generated.candidates.into_iter().map(|h| candidate(h, pinned)).collect(),
        templates_used: generated.templates_used,
        requirements: generated.requirements,
        findings: generated.findings.iter().map(Finding::from).collect(),
        attempts,
        conflicts: generated.conflicts.iter().map(|c| format!("{}: {} — {}", c.template, c.message, c.hint)).collect(),
        warnings: generated.warnings,
        suggestions: generated.suggestions,
        language: generated.language.code().to_owned(),
        documents,
        metrics: generated.metrics,
        text,
    })
}
