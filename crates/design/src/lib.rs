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
mod column_alignment;
mod column_words;
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
pub mod trial;
pub mod understanding;
mod unkept;

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

/// The var (and requirement) of the one table a plan reads when the instruction names no file.
const INPUT_FILE: &str = "input_file";

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
    /// Tries a plan on the work folder's files before it is given (`None`: not tried).
    pub trial: Option<&'a dyn trial::TrialRun>,
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

    /// The one data file of the work folder, when the offline plan leaves the file to read open
    /// and nothing else the folder holds could be meant (the studio's upload, a folder of one
    /// export).
    fn only_data_file(&self, plan: &Plan, request: &DesignRequest) -> Option<String> {
        let open = plan.vars.get(INPUT_FILE).is_some_and(Value::is_null);
        if !open || request.answers.contains_key(INPUT_FILE) {
            return None;
        }
        let files = self.files?.data_files();
        match files.as_slice() {
            [only] => Some(only.clone()),
            _ => None,
        }
    }

    /// The stages one after the other: the instruction read and the candidate blocks found,
    /// the offline design (or the questions instead of a plan), the model's design, the words
    /// bound to the data, the words used nowhere asked about, validation and repair, the result.
    async fn generate_inner(
        &self,
        request: &DesignRequest,
        cancel: &CancellationToken,
        progress: &(dyn Fn(DesignStage) + Sync),
    ) -> Result<GeneratedPlan, DesignError> {
        let started = Instant::now();
        let read = self.read(request, cancel, progress).await?;
        progress(DesignStage::Offline);
        let design_offline = |answers: &IndexMap<String, Value>| {
            offline::design(
                &read.reading,
                self.catalog,
                if read.composing { &read.templates } else { &[] },
                &request.options,
                offline::DesignInputs { secrets: &read.secrets, answers, files: self.files },
            )
        };
        let mut offline = design_offline(&request.answers);
        // The file to read left open, in a folder of one data file: that file, as if answered
        // (the answer picks the read block by its extension), before any model is asked.
        let answered;
        let request = match self.only_data_file(&offline.plan, request) {
            Some(file) => {
                let mut with_file = request.clone();
                with_file.answers.insert(INPUT_FILE.to_owned(), Value::from(file.as_str()));
                answered = with_file;
                offline = design_offline(&answered.answers);
                offline.notes.insert(0, DesignNote::OnlyDataFile { file });
                &answered
            }
            None => request,
        };
        let mut draft = Draft::offline(request, &read, &offline);
        let calls = Arc::new(CallCounter::default());
        let recorded: Option<(RecordedClient, &Prompts)> = self.model.as_ref().map(|(client, prompts)| {
            let redact: Arc<dyn Redact> = Arc::new(SecretValues(
                read.redacted.secrets.iter().map(|s| (s.value().to_owned(), s.name.clone())).collect(),
            ));
            (RecordedClient::new(client.clone(), calls.clone(), redact), *prompts)
        });
        let designer = recorded.as_ref().map(|(client, prompts)| model::ModelDesigner {
            client,
            prompts,
            catalog: self.catalog,
            options: &request.options,
            cancel,
            progress,
        });
        // In llm-only mode the model sees no template, in design or in repair.
        let shown_templates: &[TemplateSpec] =
            if request.apply_mode == ApplyMode::LlmOnly { &[] } else { &read.templates };
        if let Some(designer) = designer.as_ref().filter(|_| !draft.refused()) {
            self.draft_by_model(&mut draft, designer, request, &read, shown_templates, &offline).await;
        }
        apply_input_answers(&mut draft.plan, &request.answers);
        draft.bound = self.bind_to_data(&mut draft, request, &read);
        refuse_words_used_nowhere(&mut draft, request, &read);
        if draft.plan.description.is_none() {
            draft.plan.description = Some(read.redacted.text.chars().take(500).collect());
        }
        let refused = draft.refused();
        let repairing = Repairing {
            designer: designer.as_ref().filter(|_| matches!(draft.provenance, Provenance::Model { .. }) && !refused),
            templates: shown_templates,
            secrets: &read.secrets,
            rounds: if refused { 0 } else { request.options.max_attempts },
            cancel,
            progress,
        };
        let plan = std::mem::take(&mut draft.plan);
        let mut rounds = self.validate_and_repair(plan, draft.first_by, &repairing, &mut draft.warnings).await;
        self.refuse_plans_that_lose_the_job(&mut draft, &mut rounds, request).await;
        // Cancelled (a model call cut short reads as a failed one): nothing stands, nothing is recorded.
        if cancel.is_cancelled() {
            return Err(DesignError::Cancelled);
        }
        let spent = Spent {
            model_calls: calls.calls.load(Ordering::Relaxed),
            input_tokens: calls.input.load(Ordering::Relaxed),
            output_tokens: calls.output.load(Ordering::Relaxed),
            started,
        };
        Ok(self.result(request, &read, &offline, draft, rounds, spent))
    }

    /// The instruction read, the catalog's candidate blocks ranked for it, the templates to use.
    async fn read(
        &self,
        request: &DesignRequest,
        cancel: &CancellationToken,
        progress: &(dyn Fn(DesignStage) + Sync),
    ) -> Result<Read, DesignError> {
        let (redacted, reading) = read_request(request)?;
        let secrets = redacted.secrets.iter().map(|s| s.name.clone()).collect();
        progress(DesignStage::Candidates);
        let search = SearchOptions { top_k: request.options.topk_per_category, pinned: request.pinned.clone() };
        let found = self.retriever.search(&redacted.text, &search, cancel).await?;
        let (templates, fitted) = self.templates_for(request, &redacted.text, &reading);
        Ok(Read {
            redacted,
            reading,
            secrets,
            candidates: found.hits,
            search_warnings: found.warnings,
            templates,
            fitted,
            composing: request.apply_mode == ApplyMode::Compose,
        })
    }

    /// The model's design in place of the offline one (composed templates kept); the offline
    /// one stands when the model's cannot be used.
    async fn draft_by_model(
        &self,
        draft: &mut Draft,
        designer: &model::ModelDesigner<'_>,
        request: &DesignRequest,
        read: &Read,
        shown_templates: &[TemplateSpec],
        offline: &offline::Designed,
    ) {
        let client = designer.client;
        let allowed = self.offered_blocks(&read.candidates, &read.templates, request);
        let documents = planwright_documents::documents_for_prompt(&request.documents, request.options.max_docs_chars);
        let input = model::ModelInput {
            instruction: &read.redacted.text,
            documents: &documents,
            blocks: &allowed,
            templates: shown_templates,
            secrets: &read.secrets,
        };
        match designer.design(&input).await {
            Ok((mut designed, summary)) => {
                if read.composing {
                    merge_composed(&mut designed, offline);
                }
                draft.plan = designed;
                draft.provenance = Provenance::Model {
                    provider: client.provider(),
                    model: client.model(planwright_llm::Tier::Creative),
                };
                draft.first_by = AttemptBy::Model;
                if !summary.is_empty() {
                    draft.notes.insert(0, DesignNote::ModelSummary { text: summary });
                }
            }
            Err(e) => {
                draft.warnings.push(format!("the model's design could not be used ({e}); the offline design stands"));
                draft.notes.push(DesignNote::ModelAnswerUnusable);
            }
        }
    }

    /// The words bound to the real columns of the work folder's files, the model's plan too; a
    /// column asked before and answered (the chat, `--answers`) is the person's choice.
    fn bind_to_data(&self, draft: &mut Draft, request: &DesignRequest, read: &Read) -> Bound {
        let Some(files) = self.files else { return Bound::default() };
        let binding = binding::bind_columns(
            &mut draft.plan,
            self.catalog,
            files,
            &read.reading.value_words,
            &read.reading.left_out_words,
            &read.reading.mentioned_words,
            &read.reading.column_aliases,
        );
        draft.notes.extend(binding.notes);
        let mut questions = binding.questions;
        questions.retain(|question| {
            let answer = request.answers.get(&question.var).filter(|a| !a.is_null() && a.as_str() != Some(""));
            if let Some(answer) = answer {
                draft.plan.vars.insert(question.var.clone(), answer.clone());
            }
            answer.is_none()
        });
        Bound {
            questions,
            columns: binding.bound,
            unused_values: binding.unused_values,
            absent_values: binding.absent_values,
            whole_months: binding.whole_months,
        }
    }

    /// What the engine returns: the best attempt, its questions, notes and metrics.
    fn result(
        &self,
        request: &DesignRequest,
        read: &Read,
        offline: &offline::Designed,
        mut draft: Draft,
        rounds: Rounds,
        spent: Spent,
    ) -> GeneratedPlan {
        let language = read.reading.language;
        let Rounds { attempts, best: (plan, findings), dry_ms } = rounds;
        let refused = draft.refused();
        let valid = findings.iter().all(|f| !f.is_error()) && !refused;
        let requirements = if refused {
            understanding::questions(&draft.unsaid, language)
        } else {
            let mut requirements = build_requirements(&plan, &findings, self.catalog, language);
            requirements::offer_columns(&mut requirements, &draft.bound.questions, language);
            requirements
        };
        draft.notes.extend(pinned_but_unused(&request.pinned, &plan));
        let suggestions = suggestions(refused, valid, read.templates.is_empty(), language);
        let mut conflicts = offline.conflicts.clone();
        conflicts.dedup();
        let templates_used: Vec<String> = match request.apply_mode {
            ApplyMode::Compose => offline.composed.iter().map(|c| c.template.clone()).collect(),
            ApplyMode::Hint if matches!(draft.provenance, Provenance::Model { .. }) => {
                read.templates.iter().map(|t| t.id.clone()).collect()
            }
            _ => Vec::new(),
        };
        let metrics = GenerationMetrics {
            at: now_rfc3339(),
            language: language.code().into(),
            provenance: match &draft.provenance {
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
            duration_ms: spent.started.elapsed().as_secs_f64() * 1000.0,
            blocks: blocks_of(&plan),
            templates: templates_used.clone(),
            model_calls: spent.model_calls,
            input_tokens: spent.input_tokens,
            output_tokens: spent.output_tokens,
        };
        if let Some(path) = &self.metrics {
            if let Err(e) = metrics::append(path, &metrics) {
                draft.warnings.push(format!("the metrics line could not be written to {}: {e}", path.display()));
            }
        }
        let origins = origins::origins(&plan, &read.redacted.text, &draft.bound.columns, &request.answers);
        // From the first attempt's plan (attempt 1 is always made).
        let diff = attempts.first().map(|first| diff_plans(&first.plan, &plan)).unwrap_or_default();
        GeneratedPlan {
            origins,
            diff,
            plan,
            reasoning: draft.notes.iter().map(|note| note.text(language)).collect(),
            notes: draft.notes,
            provenance: draft.provenance,
            candidates: read.candidates.clone(),
            templates_used,
            requirements,
            findings,
            attempts,
            conflicts,
            warnings: draft.warnings,
            suggestions,
            valid,
            refused,
            language,
            metrics,
        }
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

    /// A plan valid with nothing left to ask that still loses the job is asked about, not given:
    /// one that reads a file no step uses, or one that — tried on the work folder's files, where
    /// the caller can try it — writes no rows from files that have some, or other columns than
    /// the instruction counts.
    async fn refuse_plans_that_lose_the_job(&self, draft: &mut Draft, rounds: &mut Rounds, request: &DesignRequest) {
        let (plan, findings) = &rounds.best;
        let asks_nothing = draft.bound.questions.is_empty() && !plan.vars.values().any(Value::is_null);
        let valid = !findings.iter().any(Finding::is_error);
        if draft.refused() || !asks_nothing || !valid || request.answers.contains_key("instruction.do") {
            return;
        }
        let overwritten = self
            .files
            .and_then(|files| {
                understanding::overwritten_input(plan, |node, file| other_data(plan, self.catalog, files, node, file))
            })
            .map(understanding::Unplaced::OverwritesInput);
        let unused = understanding::unused_source(plan).map(understanding::Unplaced::Words);
        let unchosen = self.files.and_then(|files| columns_listed_but_not_read(plan, self.catalog, files, request));
        let holes = self.files.and_then(|files| column_alignment::columns_apart_written(plan, files)).map(
            |(columns, files)| understanding::Unplaced::ColumnsOfSomeTables {
                columns: columns.join(", "),
                files: files.join(", "),
            },
        );
        let lost = match (unused.or(overwritten).or(unchosen).or(holes), self.trial) {
            (Some(lost), _) => Some(lost),
            (None, Some(trial)) => trial.try_plan(plan).await.and_then(|tried| {
                let other_columns = || {
                    let (said, columns) = understanding::columns_said(&request.instruction)?;
                    let file = tried.other_columns_than(columns)?.to_owned();
                    Some(understanding::Unplaced::OtherColumns { said, file })
                };
                tried
                    .nothing_written()
                    .map(|file| understanding::Unplaced::NothingWritten(file.to_owned()))
                    .or_else(other_columns)
            }),
            (None, None) => None,
        };
        if let Some(lost) = lost {
            tracing::debug!(plan = %serde_yaml::to_string(plan).unwrap_or_default(), "a plan that loses the job, withheld");
            draft.refuse(vec![(understanding::Part::Do, Some(lost))]);
            rounds.best.0.graph.clear();
            rounds.best.0.ui = None;
        }
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

/// A list of columns the instruction names ("the invoice no, freelancer, amount and …") that the
/// plan did not read: beside a plan that chooses no columns and writes more than those (every
/// column would be written), or with a column listed that the plan uses nowhere and does not
/// write (a list read in part). The words of the list and the file, to ask about. (A list the
/// plan uses as keys — "same vendor, amount and date" — is read.)
fn columns_listed_but_not_read(
    plan: &Plan,
    catalog: &Catalog,
    files: &dyn InputFiles,
    request: &DesignRequest,
) -> Option<understanding::Unplaced> {
    let chooses =
        |n: &Node| matches!(n.block.as_deref(), Some("transforms.select_columns" | "transforms.group_by_agg"));
    let chosen = plan.graph.iter().any(chooses);
    let validation = validate_plan_with_files(plan, catalog, &NoPlans, files);
    let used: Vec<String> =
        understanding::plan_values(plan).iter().filter_map(Value::as_str).map(str::to_owned).collect();
    // Every column of every table the plan reads or makes.
    let mut known: Vec<planwright_plan::Column> = Vec::new();
    for column in validation.tables.values().flatten() {
        if !known.iter().any(|k| k.name == column.name) {
            known.push(column.clone());
        }
    }
    for node in plan.graph.iter().filter(|n| matches!(n.block.as_deref(), Some("report.write" | "excel.write"))) {
        let Some(written) = table_written(node).and_then(|r| validation.tables.get(r)) else { continue };
        let is_written = |column: &String| written.iter().any(|c| &c.name == column);
        // (A word is the column written before any other of that name: 「金額」 is the 出荷金額
        // written, not the 請求金額 of the file matched.)
        let lists = understanding::column_lists(&request.instruction, |words| {
            binding::choose(words, written).or_else(|| binding::choose(words, &known))
        });
        // (A formula names its columns in brackets: `[qty] * [price]` uses both.)
        let uses = |column: &String| used.iter().any(|u| u == column || u.contains(&format!("[{column}]")));
        let unread = lists.into_iter().find(|(_, columns)| {
            let all_written = !chosen && written.iter().any(|c| !columns.contains(&c.name));
            let keys = columns.iter().all(uses);
            let lost = columns.iter().any(|c| !is_written(c) && !uses(c));
            all_written && !keys || lost
        });
        if let Some((said, _)) = unread {
            let file = node.inputs.get("path").and_then(Value::as_str).unwrap_or_default().to_owned();
            return Some(understanding::Unplaced::OtherColumns { said, file });
        }
    }
    None
}

/// The reference (`choose_columns.chosen`) to the table a write step writes: `data` of
/// report.write, the first sheet of excel.write.
fn table_written(node: &Node) -> Option<&str> {
    let data = node.inputs.get("data").or_else(|| node.inputs.get("sheets")?.as_object()?.values().next());
    data.and_then(Value::as_str)?.strip_prefix("${")?.strip_suffix('}')
}

/// Whether `file`, which the write step `node` writes, is in the work folder with other columns
/// than the step writes there (as the plan check predicts them): data, not an earlier run's
/// output. Not known (no such file, columns not predicted): not other data.
fn other_data(plan: &Plan, catalog: &Catalog, files: &dyn InputFiles, node: &Node, file: &str) -> bool {
    let inputs = IndexMap::from([("path".to_owned(), Value::from(file))]);
    let block = if file.to_ascii_lowercase().ends_with(".csv") { "file.read_csv" } else { "excel.read_data" };
    let Some(there) = files.columns(block, &inputs) else { return false };
    let Some(reference) = table_written(node) else { return false };
    let validation = validate_plan_with_files(plan, catalog, &NoPlans, files);
    let Some(written) = validation.tables.get(reference) else { return false };
    let names = |columns: &[planwright_plan::Column]| {
        let mut names: Vec<String> = columns.iter().map(|c| c.name.clone()).collect();
        names.sort();
        names
    };
    names(&there.columns) != names(written)
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

/// The instruction as read, with what the catalog and the templates offer for it.
struct Read {
    redacted: credentials::Redacted,
    reading: Reading,
    /// The secrets' names (their values are never in the plan).
    secrets: Vec<String>,
    candidates: Vec<Hit>,
    /// What the search could not do (embeddings unavailable …).
    search_warnings: Vec<String>,
    templates: Vec<TemplateSpec>,
    /// The templates fitted to the instruction's own words, by id.
    fitted: Vec<String>,
    composing: bool,
}

/// A design in progress: the plan so far, and what was said of it.
struct Draft {
    plan: Plan,
    notes: Vec<DesignNote>,
    warnings: Vec<String>,
    /// What the instruction leaves out (what to read, do or write; a word used nowhere): when
    /// any, no plan but these questions.
    unsaid: Vec<(understanding::Part, Option<understanding::Unplaced>)>,
    provenance: Provenance,
    first_by: AttemptBy,
    /// Its words bound to the work folder's data.
    bound: Bound,
}

impl Draft {
    /// The offline design, or — when the instruction does not say what to read, do or write —
    /// no plan.
    fn offline(request: &DesignRequest, read: &Read, offline: &offline::Designed) -> Draft {
        let unsaid = understanding::unsaid(
            &read.reading,
            &read.redacted.text,
            read.composing && !read.templates.is_empty(),
            request.answers.contains_key("instruction.do"),
        );
        let mut notes = offline.notes.clone();
        if !read.fitted.is_empty() {
            notes.push(DesignNote::TemplatesFit { templates: read.fitted.join(", ") });
        }
        let mut draft = Draft {
            plan: offline.plan.clone(),
            notes,
            warnings: read.search_warnings.clone(),
            unsaid: Vec::new(),
            provenance: Provenance::Offline,
            first_by: AttemptBy::Offline,
            bound: Bound::default(),
        };
        if !unsaid.is_empty() {
            draft.refuse(unsaid);
        }
        draft
    }

    fn refused(&self) -> bool {
        !self.unsaid.is_empty()
    }

    /// No plan, but the questions for `unsaid`.
    fn refuse(&mut self, unsaid: Vec<(understanding::Part, Option<understanding::Unplaced>)>) {
        self.unsaid = unsaid;
        self.plan.graph.clear();
        self.plan.ui = None;
    }
}

/// The plan's words bound to the data: the columns still to ask about, those bound, and the
/// values of the data the instruction names but the plan does not use.
#[derive(Default)]
struct Bound {
    questions: Vec<binding::ColumnQuestion>,
    columns: Vec<String>,
    unused_values: Vec<String>,
    absent_values: Vec<(String, String)>,
    whole_months: Vec<u32>,
}

/// What one generation cost: the model's calls and tokens, and when it started.
struct Spent {
    model_calls: u32,
    input_tokens: u64,
    output_tokens: u64,
    started: Instant,
}

/// A number, a value of the data, an order or a kind of total said and kept nowhere is a
/// condition or a limit lost, and a plan that writes nothing loses the result: asked, not
/// dropped — when nothing else is asked (an open question is anyway).
fn refuse_words_used_nowhere(draft: &mut Draft, request: &DesignRequest, read: &Read) {
    let asks_nothing = draft.bound.questions.is_empty() && !draft.plan.vars.values().any(Value::is_null);
    let answered_do = request.answers.contains_key("instruction.do");
    if !asks_nothing || draft.refused() || answered_do || !read.templates.is_empty() {
        return;
    }
    let text = &read.redacted.text;
    let unused = understanding::unused_numbers(text, &draft.plan)
        .into_iter()
        .chain(draft.bound.unused_values.iter().cloned())
        .chain(unkept::unkept_order(text, &draft.plan))
        .chain(unkept::unkept_total(text, &draft.plan))
        .chain(unkept::unkept_once(text, &draft.plan))
        .chain(unkept::unkept_latest(text, &draft.plan))
        .chain(unkept::unkept_added_column(text, &draft.plan))
        .chain(unkept::unkept_share(text, &draft.plan))
        .chain(unkept::unkept_rounding(text, &draft.plan))
        .chain(unkept::unkept_period(text, &draft.plan, &draft.bound.whole_months))
        .chain(unkept::unkept_month(text, &draft.plan))
        .chain(unkept::unkept_exclusion(text, &draft.plan))
        .chain(unkept::unkept_blank(text, &draft.plan))
        .chain(unkept::unkept_comparison(text, &draft.plan))
        .chain(unkept::unkept_sign(text, &draft.plan))
        .chain(unkept::unkept_pick(text, &draft.plan))
        .chain(unkept::unkept_change(text, &draft.plan))
        .chain(unkept::key_grouped_twice(&draft.plan))
        .next();
    let absent = draft.bound.absent_values.first().cloned();
    if let Some((value, column)) = absent {
        draft.refuse(vec![(understanding::Part::Do, Some(understanding::Unplaced::NoSuchValue { value, column }))]);
    } else if let Some(phrase) = unused {
        draft.refuse(vec![(understanding::Part::Do, Some(understanding::Unplaced::Words(phrase)))]);
    } else if unkept::writes_nothing(&draft.plan) {
        draft.refuse(vec![(understanding::Part::Write, None)]);
    }
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
    tracing::debug!(steps = ?reading.steps, "the instruction as read");
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

/// Whether `node` reads a table from a file (a CSV or a workbook's sheet).
pub(crate) fn reads_a_table(node: &Node) -> bool {
    matches!(node.block.as_deref(), Some("file.read_csv" | "excel.read_data"))
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
