//! The design engine: an instruction (English or Japanese), reference documents and templates
//! to a validated, self-repaired plan, with what it still needs to know (seed 002).
//!
//! ```text
//! instruction ─credentials→{{NAME}}─▶ reading (offline) ─▶ offline design ─┐
//!                  │                                   templates composed  │
//!                  └─▶ retrieval (Top-K candidates) ─▶ model: skeleton → wiring (when configured)
//!                                                                          ▼
//!                       validate + dry-run ─▶ repair rounds (model, or rules offline) ─▶ best attempt
//!                                                                          ▼
//!                      requirements (build_requirements) · diff · metrics line (JSONL)
//! ```
//!
//! Offline first: with no model the rule-based reader and designer give the plan; with one, the
//! two structured stages do, and a model that fails leaves the offline plan standing, marked as
//! such. Knows the catalog, templates, validation, retrieval and the model port; nothing of
//! runs' execution or any UI.

pub mod answers;
pub mod binding;
pub mod compose;
pub mod credentials;
pub mod diff;
pub mod eval;
pub mod jobs;
pub mod metrics;
pub mod model;
pub mod notes;
pub mod offline;
pub mod options;
pub mod origins;
pub mod reading;
pub mod repair;
pub mod requirements;
pub mod understanding;

use std::path::PathBuf;
use std::sync::atomic::{AtomicU32, AtomicU64, Ordering};
use std::sync::Arc;
use std::time::Instant;

use indexmap::IndexMap;
use planwright_catalog::Catalog;
use planwright_designs::TemplateSpec;
use planwright_llm::{LlmClient, ModelCall, ModelCallSink, Prompts, Provenance, RecordedClient, Redact};
use planwright_plan::{Finding, Node, Plan};
use planwright_retrieval::{Hit, RetrievalError, Retriever, SearchOptions};
use planwright_validate::{dry_run_validated, validate_plan_with_files, InputFiles, NoFiles, NoPlans};
use serde::Serialize;
use serde_json::Value;
use tokio_util::sync::CancellationToken;
use tracing::Instrument;

pub use answers::{answer_value, ask_at_run_time};
pub use compose::{compose, Composed, Conflict};
pub use credentials::redact_instruction;
pub use diff::{diff_plans, NodeChange};
pub use metrics::{GenerationMetrics, MetricsSummary};
pub use notes::DesignNote;
pub use options::{ApplyMode, DesignEngineOptions};
pub use reading::{read_instruction, Language, Reading};
pub use requirements::{build_requirements, DesignRequirement, Target};

/// Input the engine cannot work with; the message names it and what would fix it.
#[derive(Debug, thiserror::Error)]
pub enum DesignError {
    #[error("the instruction is empty: say what the automation should do")]
    EmptyInstruction,
    #[error(
        "the instruction is {chars} characters; at most {max} are read — shorten it or put the detail in a document"
    )]
    InstructionTooLong { chars: usize, max: usize },
    #[error("{0}")]
    Retrieval(#[from] RetrievalError),
    #[error("the generation was cancelled")]
    Cancelled,
}

/// The most characters of instruction the engine reads.
pub const MAX_INSTRUCTION_CHARS: usize = 20_000;

/// One request to design a plan.
#[derive(Debug, Clone, Default)]
pub struct DesignRequest {
    pub instruction: String,
    /// Reference documents already extracted: (name, text).
    pub documents: Vec<(String, String)>,
    /// The templates the person picked.
    pub templates: Vec<TemplateSpec>,
    pub apply_mode: ApplyMode,
    /// Blocks the person pinned from the candidates.
    pub pinned: Vec<String>,
    /// Answers to requirements asked before, by requirement id.
    pub answers: IndexMap<String, Value>,
    pub options: DesignEngineOptions,
}

/// What the engine works with, built once by the caller.
pub struct DesignEngine<'a> {
    pub catalog: &'a Catalog,
    pub retriever: &'a Retriever,
    /// Every template of the designs folder, for finding the ones that fit an instruction.
    pub library: &'a [TemplateSpec],
    /// The model, when one is configured, with the prompts.
    pub model: Option<(Arc<dyn LlmClient>, &'a Prompts)>,
    /// Where the metrics line goes (`None`: not recorded).
    pub metrics: Option<PathBuf>,
    /// The work folder's input files (the studio's workspace, `--workdir`): a plan is checked
    /// against their real columns. `None`: no file is known.
    pub files: Option<&'a (dyn InputFiles + Sync)>,
}

/// One attempt: the first design, then each repair round.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Attempt {
    pub number: u32,
    pub by: AttemptBy,
    pub errors: usize,
    /// What a rule-based repair changed.
    pub repairs: Vec<String>,
    /// What changed from the attempt before, node by node.
    pub diff: Vec<NodeChange>,
    /// The plan this attempt gave, for a person going back to it (the studio's repair review).
    #[serde(skip)]
    pub plan: Plan,
    /// Its findings, errors first.
    #[serde(skip)]
    pub findings: Vec<Finding>,
}

/// Who made an attempt.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub enum AttemptBy {
    #[serde(rename = "offline")]
    Offline,
    #[serde(rename = "model")]
    Model,
    #[serde(rename = "offline repair")]
    OfflineRepair,
    #[serde(rename = "model repair")]
    ModelRepair,
}

impl AttemptBy {
    /// As the studio and the command line say it: `offline`, `model repair` ….
    pub fn name(self) -> &'static str {
        match self {
            AttemptBy::Offline => "offline",
            AttemptBy::Model => "model",
            AttemptBy::OfflineRepair => "offline repair",
            AttemptBy::ModelRepair => "model repair",
        }
    }
}

/// Where a generation is, as [`DesignEngine::generate_with_progress`] reports it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(tag = "stage", rename_all = "snake_case")]
pub enum DesignStage {
    /// Ranking the catalog's blocks for the instruction.
    Candidates,
    /// The offline designer reading the instruction and composing templates.
    Offline,
    /// The model's stage 1: the steps and their blocks.
    Skeleton,
    /// The model's stage 2: the inputs wired.
    Wiring,
    /// Validation and dry-run of an attempt.
    Validating,
    /// A repair round (1, 2 …).
    Repairing { round: u32 },
}

/// The result (seed 002's `GeneratedPlan`, with what the seed asks to show around it).
#[derive(Debug, Clone, Serialize)]
pub struct GeneratedPlan {
    pub plan: Plan,
    /// How it was designed, one line per decision, in the instruction's language.
    pub reasoning: Vec<String>,
    /// The same as codes with parameters, for the studio to say in the person's language.
    pub notes: Vec<DesignNote>,
    pub provenance: Provenance,
    /// The Top-K candidate blocks, with why.
    pub candidates: Vec<Hit>,
    pub templates_used: Vec<String>,
    pub requirements: Vec<DesignRequirement>,
    /// The returned plan's findings (errors first).
    pub findings: Vec<Finding>,
    pub attempts: Vec<Attempt>,
    /// From the first attempt to the returned plan.
    pub diff: Vec<NodeChange>,
    pub conflicts: Vec<Conflict>,
    /// What went wrong without stopping the design (a model that failed, a template that
    /// could not be composed).
    pub warnings: Vec<String>,
    /// What to do when the plan is not valid.
    pub suggestions: Vec<String>,
    pub valid: bool,
    /// The instruction does not say what to read, do or write: no plan, only the questions
    /// (`requirements`) whose answers complete it.
    pub refused: bool,
    /// Where each value of the plan came from: the words, the data, an answer or a default.
    pub origins: Vec<origins::ValueOrigin>,
    pub language: Language,
    pub metrics: GenerationMetrics,
}

impl GeneratedPlan {
    /// Who designed it, for a person: `the offline designer`, or `MODEL (PROVIDER)`.
    pub fn designed_by(&self) -> String {
        match &self.provenance {
            Provenance::Offline => "the offline designer".to_owned(),
            Provenance::Model { provider, model } => format!("{model} ({provider})"),
        }
    }

    /// The plan as YAML, headed by a comment saying who designed it and whether it is valid.
    pub fn to_yaml(&self) -> Result<String, serde_yaml::Error> {
        let mut text = format!("# Generated by the Planwright design engine with {}.\n", self.designed_by());
        if !self.valid {
            let errors = self.findings.iter().filter(|f| f.is_error()).count();
            text.push_str(&format!("# Not valid yet: {errors} error(s); see the findings.\n"));
        }
        text.push_str(&serde_yaml::to_string(&self.plan)?);
        Ok(text)
    }
}

impl DesignEngine<'_> {
    /// Designs a plan for `request`. Fails only on unusable input; a plan that does not validate
    /// is a result (`valid: false`) with its findings.
    pub async fn generate(
        &self,
        request: &DesignRequest,
        cancel: &CancellationToken,
    ) -> Result<GeneratedPlan, DesignError> {
        self.generate_with_progress(request, cancel, &|_| {}).await
    }

    /// [`DesignEngine::generate`], telling `progress` each stage as it starts.
    pub async fn generate_with_progress(
        &self,
        request: &DesignRequest,
        cancel: &CancellationToken,
        progress: &(dyn Fn(DesignStage) + Sync),
    ) -> Result<GeneratedPlan, DesignError> {
        let span =
            tracing::info_span!("design.generate", mode = request.apply_mode.name(), valid = tracing::field::Empty);
        async {
            let generated = self.generate_inner(request, cancel, progress).await?;
            tracing::Span::current().record("valid", generated.valid);
            Ok(generated)
        }
        .instrument(span)
        .await
    }

    async fn generate_inner(
        &self,
        request: &DesignRequest,
        cancel: &CancellationToken,
        progress: &(dyn Fn(DesignStage) + Sync),
    ) -> Result<GeneratedPlan, DesignError> {
        let started = Instant::now();
        let options = &request.options;
        let (redacted, reading) = read_request(request)?;
        let secrets: Vec<String> = redacted.secrets.iter().map(|s| s.name.clone()).collect();
        let language = reading.language;
        progress(DesignStage::Candidates);
        let search = SearchOptions { top_k: options.topk_per_category, pinned: request.pinned.clone() };
        let found = self.retriever.search(&redacted.text, &search, cancel).await?;
        let mut warnings = found.warnings.clone();
        let candidates = found.hits;

        let (templates, fitted) = self.templates_for(request, &redacted.text, &reading);
        let composing = request.apply_mode == ApplyMode::Compose;
        progress(DesignStage::Offline);
        let offline = offline::design(
            &reading,
            self.catalog,
            if composing { &templates } else { &[] },
            options,
            &secrets,
            &request.answers,
        );
        // An instruction that does not say what to read, do or write gets questions, no plan.
        let mut unsaid = understanding::unsaid(
            &reading,
            &redacted.text,
            composing && !templates.is_empty(),
            request.answers.contains_key("instruction.do"),
        );
        let mut refused = !unsaid.is_empty();
        let mut notes = offline.notes.clone();
        if !fitted.is_empty() {
            notes.push(DesignNote::TemplatesFit { templates: fitted.join(", ") });
        }
        let calls = Arc::new(CallCounter::default());
        let mut provenance = Provenance::Offline;
        let mut plan = offline.plan.clone();
        if refused {
            plan.graph.clear();
            plan.ui = None;
        }
        let mut first_by = AttemptBy::Offline;
        let recorded: Option<(RecordedClient, &Prompts)> = self.model.as_ref().map(|(client, prompts)| {
            let redact: Arc<dyn Redact> = Arc::new(SecretValues(
                redacted.secrets.iter().map(|s| (s.value().to_owned(), s.name.clone())).collect(),
            ));
            (RecordedClient::new(client.clone(), calls.clone(), redact), *prompts)
        });
        let designer = recorded.as_ref().map(|(client, prompts)| model::ModelDesigner {
            client,
            prompts,
            catalog: self.catalog,
            options,
            cancel,
            progress,
        });
        // In llm-only mode the model sees no template, in design or in repair.
        let shown_templates: &[TemplateSpec] = if request.apply_mode == ApplyMode::LlmOnly { &[] } else { &templates };
        if let Some(designer) = designer.as_ref().filter(|_| !refused) {
            let client = designer.client;
            let allowed = self.offered_blocks(&candidates, &templates, request);
            let documents = planwright_documents::documents_for_prompt(&request.documents, options.max_docs_chars);
            let input = model::ModelInput {
                instruction: &redacted.text,
                documents: &documents,
                blocks: &allowed,
                templates: shown_templates,
                secrets: &secrets,
            };
            match designer.design(&input).await {
                Ok((mut designed, summary)) => {
                    if composing {
                        merge_composed(&mut designed, &offline);
                    }
                    plan = designed;
                    provenance = Provenance::Model {
                        provider: client.provider(),
                        model: client.model(planwright_llm::Tier::Creative),
                    };
                    first_by = AttemptBy::Model;
                    if !summary.is_empty() {
                        notes.insert(0, DesignNote::ModelSummary { text: summary });
                    }
                }
                Err(e) => {
                    warnings.push(format!("the model's design could not be used ({e}); the offline design stands"));
                    notes.push(DesignNote::ModelAnswerUnusable);
                }
            }
        }

        apply_input_answers(&mut plan, &request.answers);
        // The words bound to the real columns of the work folder's files, the model's plan too.
        let (mut column_questions, bound, unused_values) = match self.files {
            Some(files) => {
                let binding = binding::bind_columns(
                    &mut plan,
                    self.catalog,
                    files,
                    &reading.value_words,
                    &reading.mentioned_words,
                );
                notes.extend(binding.notes);
                (binding.questions, binding.bound, binding.unused_values)
            }
            None => (Vec::new(), Vec::new(), Vec::new()),
        };
        // A column asked before and answered (the chat, `--answers`) is the person's choice.
        column_questions.retain(|question| {
            let answer = request.answers.get(&question.var).filter(|a| !a.is_null() && a.as_str() != Some(""));
            if let Some(answer) = answer {
                plan.vars.insert(question.var.clone(), answer.clone());
            }
            answer.is_none()
        });
        // A number, or a value of the data, said and used nowhere is a condition or a limit
        // lost: asked, not dropped — when nothing else is asked (an open question is anyway).
        let asks_nothing = column_questions.is_empty() && !plan.vars.values().any(Value::is_null);
        let checks_use =
            asks_nothing && !refused && !request.answers.contains_key("instruction.do") && templates.is_empty();
        let unused = understanding::unused_numbers(&redacted.text, &plan).into_iter().chain(unused_values).next();
        if let Some(phrase) = unused.filter(|_| checks_use) {
            unsaid = vec![(understanding::Part::Do, Some(phrase.clone()))];
            refused = true;
            plan.graph.clear();
            plan.ui = None;
        }
        if plan.description.is_none() {
            plan.description = Some(redacted.text.chars().take(500).collect());
        }
        let first = plan.clone();
        let repairing = Repairing {
            designer: designer.as_ref().filter(|_| matches!(provenance, Provenance::Model { .. }) && !refused),
            templates: shown_templates,
            secrets: &secrets,
            rounds: if refused { 0 } else { options.max_attempts },
            cancel,
            progress,
        };
        let Rounds { attempts, best, dry_ms } =
            self.validate_and_repair(plan, first_by, &repairing, &mut warnings).await;
        let errors = |f: &[Finding]| f.iter().filter(|f| f.is_error()).count();
        // Cancelled (a model call cut short reads as a failed one): nothing stands, nothing is recorded.
        if cancel.is_cancelled() {
            return Err(DesignError::Cancelled);
        }
        let (plan, findings) = best;
        let valid = errors(&findings) == 0 && !refused;
        let requirements = if refused {
            understanding::questions(&unsaid, language)
        } else {
            let mut requirements = build_requirements(&plan, &findings, self.catalog, language);
            requirements::offer_columns(&mut requirements, &column_questions, language);
            requirements
        };
        notes.extend(pinned_but_unused(&request.pinned, &plan));
        let suggestions = suggestions(refused, valid, templates.is_empty(), language);
        let mut conflicts = offline.conflicts.clone();
        conflicts.dedup();
        let templates_used: Vec<String> = match request.apply_mode {
            ApplyMode::Compose => offline.composed.iter().map(|c| c.template.clone()).collect(),
            ApplyMode::Hint if matches!(provenance, Provenance::Model { .. }) => {
                templates.iter().map(|t| t.id.clone()).collect()
            }
            _ => Vec::new(),
        };
        let metrics = GenerationMetrics {
            at: now_rfc3339(),
            language: language.code().into(),
            provenance: match &provenance {
                Provenance::Offline => "offline".into(),
                Provenance::Model { model, .. } => model.clone(),
            },
            apply_mode: request.apply_mode.name().into(),
            attempts: attempts.len() as u32,
            errors_per_attempt: attempts.iter().map(|a| a.errors).collect(),
            repair_rounds: attempts.len() as u32 - 1,
            valid,
            requirements: requirements.iter().filter(|r| r.asked()).count(),
            dry_run_ms: dry_ms,
            duration_ms: started.elapsed().as_secs_f64() * 1000.0,
            blocks: blocks_of(&plan),
            templates: templates_used.clone(),
            model_calls: calls.calls.load(Ordering::Relaxed),
            input_tokens: calls.input.load(Ordering::Relaxed),
            output_tokens: calls.output.load(Ordering::Relaxed),
        };
        if let Some(path) = &self.metrics {
            if let Err(e) = metrics::append(path, &metrics) {
                warnings.push(format!("the metrics line could not be written to {}: {e}", path.display()));
            }
        }
        let origins = origins::origins(&plan, &redacted.text, &bound, &request.answers);
        Ok(GeneratedPlan {
            origins,
            diff: diff_plans(&first, &plan),
            plan,
            reasoning: notes.iter().map(|note| note.text(language)).collect(),
            notes,
            provenance,
            candidates,
            templates_used,
            requirements,
            findings,
            attempts,
            conflicts,
            warnings,
            suggestions,
            valid,
            refused,
            language,
            metrics,
        })
    }

    /// Validates the first design, then repairs it round by round (the model's repair when the
    /// model designed it, else the rules') until it has no error or nothing more is repaired.
    async fn validate_and_repair(
        &self,
        mut plan: Plan,
        first_by: AttemptBy,
        repairing: &Repairing<'_>,
        warnings: &mut Vec<String>,
    ) -> Rounds {
        let errors = |f: &[Finding]| f.iter().filter(|f| f.is_error()).count();
        let mut dry_ms = 0.0;
        let mut check = |plan: &Plan| {
            let t = Instant::now();
            let findings = self.check(plan);
            dry_ms += t.elapsed().as_secs_f64() * 1000.0;
            findings
        };
        (repairing.progress)(DesignStage::Validating);
        let mut findings = check(&plan);
        let mut attempts = vec![Attempt {
            number: 1,
            by: first_by,
            errors: errors(&findings),
            repairs: Vec::new(),
            diff: Vec::new(),
            plan: plan.clone(),
            findings: findings.clone(),
        }];
        let mut best = (plan.clone(), findings.clone());
        for round in 1..=repairing.rounds {
            if errors(&findings) == 0 || repairing.cancel.is_cancelled() {
                break;
            }
            (repairing.progress)(DesignStage::Repairing { round });
            let before = plan.clone();
            let mut repairs = Vec::new();
            let mut by = AttemptBy::OfflineRepair;
            let mut repaired_by_model = false;
            if let Some(designer) = repairing.designer {
                let diff_text = match attempts.last() {
                    Some(previous) if round > 1 => diff::describe(&previous.diff),
                    _ => "first repair".to_owned(),
                };
                match designer.repair(&plan, &findings, &diff_text, repairing.templates, repairing.secrets).await {
                    Ok(repaired) => {
                        plan = repaired;
                        by = AttemptBy::ModelRepair;
                        repaired_by_model = true;
                    }
                    Err(e) => {
                        warnings.push(format!("repair round {round}: the model's answer could not be used ({e})"))
                    }
                }
            }
            if !repaired_by_model {
                repairs = repair::repair_offline(&mut plan, &findings);
                if repairs.is_empty() {
                    break;
                }
            }
            (repairing.progress)(DesignStage::Validating);
            findings = check(&plan);
            attempts.push(Attempt {
                number: round + 1,
                by,
                errors: errors(&findings),
                repairs,
                diff: diff_plans(&before, &plan),
                plan: plan.clone(),
                findings: findings.clone(),
            });
            if errors(&findings) <= errors(&best.1) {
                best = (plan.clone(), findings.clone());
            }
        }
        Rounds { attempts, best, dry_ms }
    }

    /// The blocks the model may use: the candidates, the templates' blocks (unless the model is
    /// to design without them), the pinned ones; each in the catalog, once.
    fn offered_blocks(&self, candidates: &[Hit], templates: &[TemplateSpec], request: &DesignRequest) -> Vec<String> {
        let mut allowed: Vec<String> = candidates.iter().map(|h| h.id.clone()).collect();
        if request.apply_mode != ApplyMode::LlmOnly {
            allowed.extend(model::template_blocks(templates));
        }
        allowed.extend(request.pinned.iter().cloned());
        allowed.retain(|b| self.catalog.get(b).is_some());
        allowed.sort();
        allowed.dedup();
        allowed
    }

    /// A plan's findings, errors first: validated against the work folder's files, then
    /// dry-run.
    fn check(&self, plan: &Plan) -> Vec<Finding> {
        let files: &dyn InputFiles = match self.files {
            Some(files) => files,
            None => &NoFiles,
        };
        let validation = validate_plan_with_files(plan, self.catalog, &NoPlans, files);
        located(plan, dry_run_validated(plan, self.catalog, &NoPlans, validation).validation.findings)
    }

    /// The templates to use: those picked, else (composing, when the reader found no operation
    /// of its own to build) the one whose own words the instruction uses ("duplicate payment",
    /// 「二重支払い」) — a fitted one is named.
    fn templates_for(
        &self,
        request: &DesignRequest,
        text: &str,
        reading: &Reading,
    ) -> (Vec<TemplateSpec>, Vec<String>) {
        let builds = !reading.steps.is_empty() || reading.combine || !reading.columns.is_empty();
        if !request.templates.is_empty() || request.apply_mode != ApplyMode::Compose || builds {
            return (request.templates.clone(), Vec::new());
        }
        let lower = reading::normalise(text).to_lowercase();
        let fitted: Vec<TemplateSpec> = self
            .library
            .iter()
            .filter(|t| {
                let en = t.tags.en.iter().filter(|tag| tag.split_whitespace().count() >= 2);
                let ja = t.tags.ja.iter().filter(|tag| tag.chars().count() >= 4);
                en.chain(ja).any(|tag| lower.contains(&tag.to_lowercase()))
            })
            .take(1)
            .cloned()
            .collect();
        let names = fitted.iter().map(|t| t.id.clone()).collect();
        (fitted, names)
    }
}

/// The composed templates' nodes and vars added to a model's plan that left them out.
/// What the repair rounds work with.
struct Repairing<'a> {
    /// The model, when it designed the plan (it then repairs it too).
    designer: Option<&'a model::ModelDesigner<'a>>,
    /// The templates the model is shown.
    templates: &'a [TemplateSpec],
    secrets: &'a [String],
    /// At most this many rounds.
    rounds: u32,
    cancel: &'a CancellationToken,
    progress: &'a (dyn Fn(DesignStage) + Sync),
}

/// The attempts, the best of them (fewest errors, the later on a tie) and the time spent
/// validating and dry-running.
struct Rounds {
    attempts: Vec<Attempt>,
    best: (Plan, Vec<Finding>),
    dry_ms: f64,
}

/// The instruction as the engine reads it: checked, completed with the answers to what the job
/// is (what to read, do, write), its spelled-out credentials replaced by placeholders.
fn read_request(request: &DesignRequest) -> Result<(credentials::Redacted, Reading), DesignError> {
    let trimmed = request.instruction.trim();
    if trimmed.is_empty() {
        return Err(DesignError::EmptyInstruction);
    }
    let chars = trimmed.chars().count();
    if chars > MAX_INSTRUCTION_CHARS {
        return Err(DesignError::InstructionTooLong { chars, max: MAX_INSTRUCTION_CHARS });
    }
    let asked_in = Language::of(&reading::normalise(trimmed));
    let instruction = understanding::with_answers(trimmed, &request.answers, asked_in);
    let redacted = redact_instruction(&instruction);
    let reading = read_instruction(&redacted.text);
    Ok((redacted, reading))
}

/// A pin offers a block to the design; the offline designer builds from the instruction's
/// steps, so a pinned block it did not use is said, not silently dropped.
fn pinned_but_unused(pinned: &[String], plan: &Plan) -> Option<DesignNote> {
    let used = blocks_of(plan);
    let unused: Vec<&str> = pinned.iter().map(String::as_str).filter(|b| !used.iter().any(|u| u == b)).collect();
    (!unused.is_empty()).then(|| DesignNote::PinnedUnused { blocks: unused.join(", ") })
}

/// What to do next when the plan is refused or not valid.
fn suggestions(refused: bool, valid: bool, no_templates: bool, language: Language) -> Vec<String> {
    let mut suggestions = Vec::new();
    if refused {
        suggestions.push(language.pick(
            "Say what to read, what to do with it and what to write, then generate again.",
            "何を読み込み、どう処理し、何を出力するかを答えてから、もう一度生成してください。",
        ));
    } else if !valid {
        suggestions.push(language.pick(
            "Answer the open questions in the design chat, then generate again.",
            "デザインチャットで不足している項目に答えてから、もう一度生成してください。",
        ));
        if no_templates {
            suggestions.push(language.pick(
                "Pick a template close to this job (planwright templates list) and generate again.",
                "この業務に近いテンプレートを選んで（planwright templates list）もう一度生成してください。",
            ));
        }
    }
    suggestions.into_iter().map(str::to_owned).collect()
}

fn merge_composed(plan: &mut Plan, offline: &offline::Designed) {
    for composed in &offline.composed {
        for id in &composed.node_ids {
            if plan.graph.iter().any(|n| &n.id == id) {
                continue;
            }
            if let Some(node) = offline.plan.graph.iter().find(|n| &n.id == id) {
                plan.graph.push(node.clone());
            }
        }
    }
    for (name, value) in &offline.plan.vars {
        plan.vars.entry(name.clone()).or_insert_with(|| value.clone());
    }
}

/// Answers that fill one node's input (`read_input.sheet`) rather than a var.
fn apply_input_answers(plan: &mut Plan, answers: &IndexMap<String, Value>) {
    for (id, value) in answers {
        let Some((node, field)) = id.split_once('.') else { continue };
        if value.is_null() || value.as_str().is_some_and(str::is_empty) {
            continue;
        }
        if let Some(n) = plan.graph.iter_mut().find(|n| n.id == node) {
            n.inputs.insert(field.to_owned(), value.clone());
        }
    }
}

/// Findings with the node and field their pointer leads to, for the person, the repair rules
/// and the model (the validator of a plan model gives pointers only).
fn located(plan: &Plan, mut findings: Vec<Finding>) -> Vec<Finding> {
    let Ok(document) = serde_json::to_value(plan) else { return findings };
    for finding in &mut findings {
        let (node, field) = planwright_plan::locate::describe_pointer(&document, &finding.path);
        finding.node = finding.node.take().or(node);
        finding.field = finding.field.take().or(field);
    }
    findings
}

/// The plan's nodes, then those of its loops' bodies.
pub fn nodes_and_bodies(plan: &Plan) -> impl Iterator<Item = &Node> {
    plan.graph.iter().chain(plan.graph.iter().flat_map(|n| n.body_graph()))
}

/// The distinct blocks a plan uses, sorted.
pub(crate) fn blocks_of(plan: &Plan) -> Vec<String> {
    let mut blocks: Vec<String> = nodes_and_bodies(plan).filter_map(|n| n.block.clone()).collect();
    blocks.sort();
    blocks.dedup();
    blocks
}

fn now_rfc3339() -> String {
    time::OffsetDateTime::now_utc().format(&time::format_description::well_known::Rfc3339).unwrap_or_default()
}

/// Counts the model calls of one generation and their tokens.
#[derive(Default)]
struct CallCounter {
    calls: AtomicU32,
    input: AtomicU64,
    output: AtomicU64,
}

impl ModelCallSink for CallCounter {
    fn record(&self, call: ModelCall) {
        self.calls.fetch_add(1, Ordering::Relaxed);
        self.input.fetch_add(call.usage.input_tokens, Ordering::Relaxed);
        self.output.fetch_add(call.usage.output_tokens, Ordering::Relaxed);
    }
}

/// The instruction's credential values, replaced by their placeholders in anything sent to a
/// model (the instruction itself is already free of them; documents may not be).
struct SecretValues(Vec<(String, String)>);

impl Redact for SecretValues {
    fn redact(&self, text: &str) -> String {
        let mut text = text.to_owned();
        for (value, name) in &self.0 {
            text = credentials::replace_value(&text, value, name);
        }
        text
    }
}
