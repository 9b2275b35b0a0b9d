//! The loop of seed 004 around the progress of seed 000: for each objective, see the page,
//! get what blocks it out of the way (recovery steps), decide the actions — replayed from the
//! cache, resolved offline, or asked of the model — check each target before acting, act, and
//! judge the objective by what the page now shows. At most `max_attempts` attempts an
//! objective, each knowing what failed before. A pass stops at the first objective that fails.
//!
//! With the planning layer ([`crate::planning::Planner`]) each failed attempt is reflected on
//! and may revise how the next one approaches the objective ([`Approach`]); without it (legacy
//! mode) the loop is seed 004's alone. The task loop ([`crate::task`]) runs passes.
//!
//! By role: this file holds the attempt — the objective's loop, the offline path, the model's,
//! the cache's replay; `act` carries operations out (refusals, the effect ledger), `judging`
//! judges them by the page, `recover` deals with what stands in the way, `record` keeps what an
//! objective leaves behind (plan, screenshots, events, `steps.jsonl`).

use std::collections::BTreeMap;
use std::path::PathBuf;
use std::sync::Arc;
use std::time::{Duration, Instant};

use planwright_block::{BlockContext, BlockError};
use planwright_browser::{
    ActOptions, ActionReport, Announcement, AnnouncementKind, Backoff, BrowserError, Download, Locator,
};
use planwright_runs::objective::{
    DecidedBy, EvidencePart, ExecutedAction, ObjectiveChange, ObjectiveEvent, ObjectiveProgress, ObjectiveStep,
    StepState, StepStatus, StepType,
};
use planwright_runs::planning::Approach;
use planwright_runs::{ArtifactKind, LogLevel, Progress, Reason, RunMessage};
use serde_json::{Map, Value};
use tracing::Instrument;

use crate::cache::{origin, ActionCache, CacheKey, Cached};
use crate::driver::PageDriver;
use crate::effects::{self, Effect, EffectLedger};
use crate::evidence;
use crate::intent::{parse_step, Action, Intent};
use crate::judge::{self, PageText, Patience, MOMENT};
use crate::model::{ModelHelp, ModelPlan};
use crate::page::Page;
use crate::planning::offline::is_action;
use crate::planning::{AttemptReport, FailureKind, Planner};
use crate::progress::ObjectiveTransitions;
use crate::recovery;
use crate::resolve::{resolve, Op, ValueKind};
use crate::steplog::{decision_of, StepLine, StepLog, StepResult};
use crate::{lookalike, secret_use};

mod act;
mod judging;
mod record;
mod recover;

/// How long a line that changed only its numbers is watched for changing again on its own.
const SELF_CHANGE: Duration = Duration::from_millis(1100);
/// How long a cached target may take to appear before the cache is set aside.
const CACHED_TARGET: Duration = Duration::from_secs(3);
/// The most times the page is scrolled looking for a target (`scroll_to_find`).
const MAX_SCROLLS: u32 = 12;

/// How long an attempt waits for the page, by its approach.
#[derive(Debug, Clone, Copy)]
struct Waits {
    /// For a target still rendering before it is called missing.
    late_content: Patience,
    /// For a click to show its effect (a client-side timer renders results).
    effect: Duration,
    /// For what a check or a note looks for.
    check: Patience,
}

impl Waits {
    const USUAL: Waits = Waits {
        late_content: Patience { bound: Duration::from_secs(5), stop_when_still: true },
        effect: Duration::from_millis(2500),
        check: Patience::CHECK,
    };
    /// A waiting step a revision added.
    const PATIENT: Waits =
        Waits { late_content: Patience::PATIENT, effect: Duration::from_secs(6), check: Patience::PATIENT };
}

/// What the runner is given.
pub struct RunnerConfig {
    /// Attempts an objective, at least 1.
    pub max_attempts: u32,
    pub cache: Option<Arc<ActionCache>>,
    /// Where downloads are saved (inside the work directory).
    pub downloads_dir: PathBuf,
    /// The model, when one is configured (already recording every call).
    pub model: Option<Arc<ModelHelp>>,
    /// Who decides first when a model is configured.
    pub decide: Decide,
}

/// Who decides an objective's actions when a model is configured.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Decide {
    /// The offline resolver, with no token; the model where it finds no target.
    #[default]
    OfflineFirst,
    /// The model for every action (checks and notes are still read from the page).
    ModelFirst,
}

/// What a run of objectives produced.
pub struct RunOutcome {
    pub progress: ObjectiveProgress,
    /// How the task ended (see [`crate::task`]).
    pub ending: crate::task::Ending,
    pub extracted: Map<String, Value>,
    pub downloads: Vec<Download>,
    /// Objectives whose actions were replayed from the cache.
    pub replayed: usize,
    /// Evidence screenshots, by step index.
    pub screenshots: Vec<(usize, PathBuf)>,
    /// Model calls the run made.
    pub model_calls: usize,
}

/// Why an attempt failed, how, and whether another attempt the same way could change it.
struct Failure {
    reason: String,
    retriable: bool,
    kind: FailureKind,
    /// What covered the target, when another element took the action (a recovery may help).
    covered_by: Option<String>,
}

impl Failure {
    fn retry(kind: FailureKind, reason: impl Into<String>) -> Failure {
        Failure { reason: reason.into(), retriable: true, kind, covered_by: None }
    }

    fn last(reason: impl Into<String>) -> Failure {
        Failure { reason: reason.into(), retriable: false, kind: FailureKind::Final, covered_by: None }
    }
}

impl Verdict {
    /// How a verdict other than done fails the attempt: an action that changed nothing may be
    /// tried again; an effect not seen never is; a page's error only when it says so.
    fn failure(self) -> Result<Vec<EvidencePart>, Failure> {
        match self {
            Verdict::Done(proof) => Ok(proof),
            Verdict::NotDone(reason) => Err(Failure::retry(FailureKind::NoEffect, reason)),
            Verdict::TakenBy { banner, reason } => {
                Err(Failure { reason, retriable: true, kind: FailureKind::NoEffect, covered_by: Some(banner) })
            }
            Verdict::Unknown(reason) => {
                Err(Failure { reason, retriable: false, kind: FailureKind::EffectUnknown, covered_by: None })
            }
            Verdict::PageError { text, retry } => {
                Err(Failure { reason: text, retriable: retry, kind: FailureKind::PageError, covered_by: None })
            }
        }
    }
}

impl From<BrowserError> for Failure {
    fn from(error: BrowserError) -> Failure {
        let retriable =
            !matches!(error, BrowserError::Closed(_) | BrowserError::NotInstalled { .. } | BrowserError::Launch(_));
        let kind = if retriable { FailureKind::Browser } else { FailureKind::Final };
        let covered_by = match &error {
            BrowserError::Covered { covering, .. } => Some(covering.to_string()),
            _ => None,
        };
        Failure { reason: error.to_string(), retriable, kind, covered_by }
    }
}

/// An operation carried out: the driver's report, and whether it may have changed the world.
struct Acted {
    report: ActionReport,
    effect: Effect,
}

/// What the page showed of an intent after its operations.
enum Verdict {
    /// Done, with the evidence.
    Done(Vec<EvidencePart>),
    /// Not done (a check not on the page, an action that changed nothing): why.
    NotDone(String),
    /// Not done because a consent banner came up as the click was made and took it: the
    /// actions were right, and are made again once the banner is answered.
    TakenBy { banner: String, reason: String },
    /// An effectful action whose effect was not seen: never repeated on its own.
    Unknown(String),
    /// The page answered with an error; `retry` when it says another try may help.
    PageError { text: String, retry: bool },
}

/// What an action brought about on the page.
enum Seen {
    Change(EvidencePart),
    /// The page answered with an error (its text).
    Error(String),
    Nothing,
}

/// Whether blockers were taken out of the way, and the page's snapshot after.
struct Cleared {
    any: bool,
    snapshot: String,
}

/// What a successful attempt did.
struct Done {
    evidence: Vec<EvidencePart>,
    ops: Vec<Op>,
    decided_by: DecidedBy,
}

pub struct Runner<'a> {
    ctx: &'a BlockContext,
    session: Arc<dyn PageDriver>,
    config: RunnerConfig,
    progress: ObjectiveProgress,
    log: StepLog,
    extracted: Map<String, Value>,
    downloads: Vec<Download>,
    replayed: usize,
    screenshots: Vec<(usize, PathBuf)>,
    /// What fills, choices and checks showed right after they were made (a later click may
    /// take their page away), for the judgement of their intent.
    proofs: Vec<EvidencePart>,
    /// Who decided the attempt under way, and the operations it carried out (for the log).
    tried: (DecidedBy, Vec<Op>),
    /// An evidence screenshot being taken while the next objective is read and planned; it is
    /// waited for before anything acts on the page again.
    pending_evidence: Option<(usize, EvidenceShot)>,
    /// The planning layer; `None` in legacy mode.
    pub(crate) planner: Option<Planner>,
    /// The approach each objective's next attempt takes, when not as written (a revision, a
    /// continuation plan, the person's choice).
    approaches: BTreeMap<usize, Approach>,
    /// The detail the person gave for an objective (`person_detail`).
    details: BTreeMap<usize, String>,
    /// Where each objective's first attempt began (`reload_page` opens it again).
    start_urls: BTreeMap<usize, String>,
    /// The last failed attempt of each objective.
    pub(crate) failures: BTreeMap<usize, AttemptReport>,
    /// The pass of the task loop under way (1 for the first).
    iteration: u32,
    /// The waits of the attempt under way.
    waits: Waits,
    /// Things the attempt under way asked for that were done.
    intents_done: usize,
    /// The objective under way, as secrets and look-alikes are judged against it.
    scope: ActionScope,
    /// The effectful actions carried out so far, per objective: none is repeated on its own.
    effects: EffectLedger,
    /// How many the objective under way had when its attempt began.
    effects_before: usize,
}

/// What an action of the objective under way is checked against ([`secret_use`],
/// [`lookalike`]): the objective's words (the placeholders and fields it names) and the origin
/// of the page it started on.
#[derive(Default)]
struct ActionScope {
    /// The objective's index in the progress.
    objective: usize,
    step: String,
    origin: String,
    /// The sites a secret may be typed on: the one the block opened first, and those an
    /// objective reached from the person's own words (the offline resolver's actions) —
    /// never one only a model's decision or a page's link led to.
    trusted: std::collections::BTreeSet<String>,
}

/// A screenshot under way: where it was saved, `None` for a blank page, or why it failed.
type EvidenceShot = tokio::task::JoinHandle<Result<Option<PathBuf>, String>>;

impl<'a> Runner<'a> {
    pub fn new(
        ctx: &'a BlockContext,
        session: Arc<dyn PageDriver>,
        config: RunnerConfig,
        progress: ObjectiveProgress,
    ) -> Runner<'a> {
        Runner {
            log: StepLog::new(&ctx.record_dir),
            ctx,
            session,
            config,
            progress,
            extracted: Map::new(),
            downloads: Vec::new(),
            replayed: 0,
            screenshots: Vec::new(),
            proofs: Vec::new(),
            tried: (DecidedBy::Offline, Vec::new()),
            pending_evidence: None,
            planner: None,
            approaches: BTreeMap::new(),
            details: BTreeMap::new(),
            start_urls: BTreeMap::new(),
            failures: BTreeMap::new(),
            iteration: 1,
            waits: Waits::USUAL,
            intents_done: 0,
            scope: ActionScope::default(),
            effects: EffectLedger::default(),
            effects_before: 0,
        }
    }

    /// With the planning layer (not legacy mode).
    pub fn with_planner(mut self, planner: Planner) -> Runner<'a> {
        self.planner = Some(planner);
        self
    }

    pub fn ctx(&self) -> &'a BlockContext {
        self.ctx
    }

    pub fn progress(&self) -> &ObjectiveProgress {
        &self.progress
    }

    pub(crate) fn progress_mut(&mut self) -> &mut ObjectiveProgress {
        &mut self.progress
    }

    pub fn session(&self) -> &Arc<dyn PageDriver> {
        &self.session
    }

    pub fn model(&self) -> Option<&Arc<ModelHelp>> {
        self.config.model.as_ref()
    }

    /// Seed 004's loop alone (legacy mode): every objective in turn, stopping at the first that
    /// fails (the rest skipped).
    pub async fn run(mut self) -> Result<RunOutcome, BlockError> {
        self.announce();
        self.pass().await?;
        self.skip_rest();
        Ok(self.finish(crate::task::Ending::Legacy).await)
    }

    /// Reports the objectives, all pending (an earlier attempt of the node said so).
    pub(crate) fn announce(&mut self) {
        if self.log.exists() {
            let text =
                "an earlier attempt of this node did not finish its objectives: they start over from the first, on \
                        a fresh page";
            self.ctx.log(LogLevel::Info, Reason::said(RunMessage::ObjectivesStartOver, text));
        }
        self.progress.current_step_index = 0;
        self.emit(ObjectiveChange::Planned, None);
    }

    /// One pass: the objectives from the current one on, in turn, until one fails (it stays
    /// failed, those after it pending). Whether every objective is now completed.
    pub(crate) async fn pass(&mut self) -> Result<bool, BlockError> {
        if self.progress.objective_steps.is_empty() {
            return Ok(true);
        }
        loop {
            let index = self.progress.current_step_index;
            // One the person confirmed done since the pass was planned is not done again.
            if self.progress.objective_steps[index].status == StepStatus::Completed {
                if !self.progress.advance() {
                    return Ok(self.progress.all_completed());
                }
                continue;
            }
            let span = tracing::info_span!("objective", number = self.progress.objective_number(index), iteration = self.iteration, description = %self.progress.objective_steps[index].description);
            let achieved = self.objective(index).instrument(span).await?;
            if !achieved {
                return Ok(false);
            }
            if !self.progress.advance() {
                return Ok(self.progress.all_completed());
            }
        }
    }

    /// A pass of the task loop begins (1 for the first).
    pub(crate) fn start_pass(&mut self, iteration: u32) {
        self.iteration = iteration;
    }

    /// Objective `index`'s next attempt takes `approach` (a continuation plan, the person's
    /// choice).
    pub(crate) fn take_approach(&mut self, index: usize, approach: Approach) {
        self.approaches.insert(index, approach);
    }

    /// The person's detail for objective `index`, which its next attempt carries out.
    pub(crate) fn give_detail(&mut self, index: usize, detail: String) {
        self.details.insert(index, detail);
    }

    /// Every objective still pending is skipped (the task ends with them not reached).
    pub(crate) fn skip_rest(&mut self) {
        for skipped in self.progress.skip_pending() {
            self.progress.current_step_index = skipped;
            self.emit(ObjectiveChange::Skipped, None);
        }
    }

    /// The first objective not completed (the one a new pass starts from), if any.
    pub(crate) fn first_open(&self) -> Option<usize> {
        self.progress.objectives_only().find(|s| s.status != StepStatus::Completed).map(|s| s.index)
    }

    pub(crate) async fn finish(mut self, ending: crate::task::Ending) -> RunOutcome {
        self.flush_evidence().await;
        self.outcome(ending)
    }

    fn outcome(self, ending: crate::task::Ending) -> RunOutcome {
        RunOutcome {
            ending,
            model_calls: self.config.model.as_ref().map_or(0, |m| m.calls()),
            progress: self.progress,
            extracted: self.extracted,
            downloads: self.downloads,
            replayed: self.replayed,
            screenshots: self.screenshots,
        }
    }

    fn check_cancel(&self) -> Result<(), BlockError> {
        if self.ctx.cancel.is_cancelled() {
            Err(BlockError::Cancelled)
        } else {
            Ok(())
        }
    }

    /// One objective, attempt after attempt; whether it was achieved.
    async fn objective(&mut self, index: usize) -> Result<bool, BlockError> {
        let description = self.progress.objective_steps[index].description.clone();
        let written = parse_step(&description);
        if !self.approaches.contains_key(&index) {
            self.progress.objective_steps[index].execution_plan = written.iter().map(Intent::describe).collect();
        }
        if self.progress.objective_steps[index].status == StepStatus::Pending {
            self.progress.start_current().map_err(|e| BlockError::failed(e.to_string()))?;
        }
        let mut failures: Vec<String> = Vec::new();
        let mut last_kind = FailureKind::Final;
        // The cache is replayed only by the first attempt of the first pass, as written, and by
        // the attempts after one whose actions something covered.
        let mut use_cache = self.progress.objective_steps[index].attempts == 0;
        let max_attempts = self.config.max_attempts.max(1);
        for in_pass in 1..=max_attempts {
            self.check_cancel()?;
            let approach = self.approaches.get(&index).copied().unwrap_or(Approach::AsWritten);
            let intents = self.intents_for(index, approach, &written);
            let attempt = {
                let step = &mut self.progress.objective_steps[index];
                step.attempts += 1;
                step.stats.approach = Some(approach);
                step.stats.iteration = self.iteration;
                step.attempts
            };
            self.emit(ObjectiveChange::Started, None);
            let started = Instant::now();
            let spent = self.config.model.as_ref().map(|m| m.spent()).unwrap_or_default();
            self.waits = if approach == Approach::WaitForPage { Waits::PATIENT } else { Waits::USUAL };
            let result = self
                .attempt(
                    index,
                    &description,
                    &intents,
                    &failures,
                    // Waiting for the page first carries out the same actions.
                    use_cache && matches!(approach, Approach::AsWritten | Approach::WaitForPage),
                    approach,
                )
                .await;
            self.check_cancel()?;
            let outcome = match result {
                Ok(done) => {
                    // A site the person's own words led to may take their secrets; one a model
                    // or a page led to may not (`secret_use`).
                    if done.decided_by == DecidedBy::Offline {
                        if let Ok(url) = self.session.url().await {
                            self.scope.trusted.insert(origin(&url));
                        }
                    }
                    self.attempt_done(index, attempt, &intents, done)?;
                    None
                }
                Err(failure) => {
                    let last_in_pass = in_pass == max_attempts;
                    let report = self.attempt_failed(index, attempt, approach, &failure, &intents, last_in_pass).await;
                    failures.push(failure.reason.clone());
                    last_kind = failure.kind;
                    // Something that covered the actions says nothing against them.
                    use_cache &= failure.covered_by.is_some();
                    Some((failure, report, intents))
                }
            };
            let revised = match (&outcome, self.planner.as_mut()) {
                (Some((_, report, intents)), Some(planner)) => {
                    planner.after_failure(self.ctx, &mut self.progress, report, intents).await
                }
                _ => None,
            };
            self.add_stats(index, started, spent);
            let Some((failure, ..)) = outcome else {
                self.keep_screenshot(index, "completed").await;
                self.emit(ObjectiveChange::Completed, None);
                return Ok(true);
            };
            if let Some(next) = revised.filter(|next| self.may_take(index, *next)) {
                self.approaches.insert(index, next);
                continue;
            }
            if !failure.retriable {
                break;
            }
        }
        let reason = failures.last().cloned().unwrap_or_else(|| "it was not reached".into());
        let attempts = self.progress.objective_steps[index].attempts;
        let note = format!("{reason} (after {attempts} attempt{})", if attempts == 1 { "" } else { "s" });
        self.progress.fail_current(&note).map_err(|e| BlockError::failed(e.to_string()))?;
        self.progress.objective_steps[index].said.evidence_said =
            Some(RunMessage::ObjectiveNotReached { kind: last_kind.name().to_owned(), attempts: u64::from(attempts) });
        self.keep_screenshot(index, "failed").await;
        self.emit(ObjectiveChange::Failed, None);
        Ok(false)
    }

    /// An attempt reached its objective: logged, the step completed with its evidence.
    fn attempt_done(&mut self, index: usize, attempt: u32, intents: &[Intent], done: Done) -> Result<(), BlockError> {
        let evidence = EvidencePart::joined(&done.evidence);
        self.write_log(index, attempt, done.decided_by, &done.ops, intents, true, &evidence);
        self.progress.complete_current(&evidence).map_err(|e| BlockError::failed(e.to_string()))?;
        self.progress.objective_steps[index].said.evidence_parts = done.evidence;
        self.progress.objective_steps[index].stats.decided_by = Some(done.decided_by);
        self.approaches.remove(&index);
        self.failures.remove(&index);
        Ok(())
    }

    /// An attempt failed: logged, and what the planning layer reflects on.
    async fn attempt_failed(
        &mut self,
        index: usize,
        attempt: u32,
        approach: Approach,
        failure: &Failure,
        intents: &[Intent],
        last_in_pass: bool,
    ) -> AttemptReport {
        let (decided_by, ops) = std::mem::replace(&mut self.tried, (DecidedBy::Offline, Vec::new()));
        self.progress.objective_steps[index].stats.decided_by = Some(decided_by);
        self.write_log(index, attempt, decided_by, &ops, intents, false, &failure.reason);
        let objective = self.progress.objective_number(index);
        let text = format!("objective {objective} attempt {attempt}: {}", failure.reason);
        let said = RunMessage::ObjectiveAttemptFailed {
            objective: objective as u64,
            attempt: attempt as u64,
            reason: failure.reason.clone(),
        };
        self.ctx.log(LogLevel::Warn, Reason::said(said, text));
        let report = AttemptReport {
            objective: index,
            attempt,
            approach,
            kind: failure.kind,
            reason: failure.reason.clone(),
            intents_done: self.intents_done,
            intents_total: intents.len(),
            at_rest: !failure.retriable || judge::at_rest(&*self.session).await.unwrap_or(false),
            model_decided: decided_by == DecidedBy::Model,
            more_below: failure.kind == FailureKind::NotFound && !self.at_bottom().await.unwrap_or(true),
            last_in_pass,
        };
        self.failures.insert(index, report.clone());
        report
    }

    /// The things an attempt asks for: the objective as written, or — with the person's detail —
    /// the detail's steps, then the objective's own actions of a kind the detail does not do
    /// (a detail that opens a tab first still leaves the download to do), then its checks and
    /// notes. A detail that stands in for a download must still download.
    fn intents_for(&self, index: usize, approach: Approach, written: &[Intent]) -> Vec<Intent> {
        let (Approach::PersonDetail, Some(detail)) = (approach, self.details.get(&index)) else {
            return written.to_vec();
        };
        let mut intents: Vec<Intent> =
            crate::checklist::split_steps(detail).iter().flat_map(|step| parse_step(step)).collect();
        let kinds: Vec<_> = intents.iter().map(action_kind).collect();
        intents.extend(written.iter().filter(|i| is_action(i) && !kinds.contains(&action_kind(i))).cloned());
        let downloads = |i: &Intent| i.downloads || matches!(i.action, Action::Download);
        if written.iter().any(downloads) && !intents.iter().any(downloads) {
            if let Some(last) = intents.iter_mut().rev().find(|i| matches!(i.action, Action::Click)) {
                last.downloads = true;
            }
        }
        intents.extend(written.iter().filter(|i| !is_action(i)).cloned());
        intents
    }

    /// Adds an attempt's time and model use to its step's figures.
    fn add_stats(&mut self, index: usize, started: Instant, before: crate::model::Spent) {
        let spent = self.config.model.as_ref().map(|m| m.spent() - before).unwrap_or_default();
        let stats = &mut self.progress.objective_steps[index].stats;
        stats.elapsed_ms += started.elapsed().as_millis() as u64;
        stats.model_calls += spent.calls as u32;
        stats.input_tokens += spent.input_tokens;
        stats.output_tokens += spent.output_tokens;
    }

    /// One attempt: the cache first, then the offline resolver intent by intent, then the
    /// model for what the resolver could not do — as the approach asks.
    async fn attempt(
        &mut self,
        index: usize,
        description: &str,
        intents: &[Intent],
        failures: &[String],
        use_cache: bool,
        approach: Approach,
    ) -> Result<Done, Failure> {
        self.proofs.clear();
        self.intents_done = 0;
        self.effects_before = self.effects.count(index);
        self.tried = (DecidedBy::Offline, Vec::new());
        if let Some(planner) = self.planner.as_mut() {
            planner.attempt_started();
        }
        self.prepare(index, approach).await?;
        let started_on = origin(self.start_urls.get(&index).map(String::as_str).unwrap_or_default());
        if self.scope.trusted.is_empty() {
            self.scope.trusted.insert(started_on.clone());
        }
        self.scope.objective = index;
        self.scope.step = description.to_owned();
        self.scope.origin = started_on;
        self.clear_blockers(index, intents).await?;
        // A token in the address is a secret's value: the key keeps `***` in its place.
        let start_url = self.ctx.secrets.redact(&self.session.url().await?);
        let key = CacheKey::new(description, &start_url, placeholders_in(description));
        if use_cache {
            if let Some(done) = self.replay(index, &key, intents).await? {
                return Ok(done);
            }
        }
        let mut ops = Vec::new();
        let mut evidence = Vec::new();
        for (at, intent) in intents.iter().enumerate() {
            let model_first = (self.config.decide == Decide::ModelFirst || approach == Approach::ModelDecides)
                && self.config.model.is_some();
            let unresolved = if model_first && is_action(intent) {
                (FailureKind::NotFound, "the model decides first".to_owned())
            } else {
                match self.resolve_intent(index, intent, &intents[at..], approach).await? {
                    Ok((planned, before)) => {
                        let planned =
                            if approach == Approach::TextLocator { self.by_text(planned).await? } else { planned };
                        let acted = self.carry_out(index, &planned, intents).await?;
                        match self.judge_intent(intent, &planned, &acted, &before).await? {
                            // A check of a page at rest reads the same on another attempt.
                            Verdict::NotDone(reason) if !is_action(intent) => {
                                return Err(self.settled(FailureKind::CheckFailed, reason).await?)
                            }
                            verdict => evidence.extend(verdict.failure()?),
                        }
                        self.intents_done += 1;
                        ops.extend(planned);
                        continue;
                    }
                    Err(unresolved) => unresolved,
                }
            };
            // The resolver could not (or the model comes first): the model, when there is one,
            // decides the rest of the objective.
            let Some(model) = self.config.model.clone() else {
                return Err(self.settled(unresolved.0, unresolved.1).await?);
            };
            let unresolved = unresolved.1;
            let (proof, planned) =
                self.decide_with_model(&model, index, description, &intents[at..], failures, &unresolved).await?;
            evidence.extend(proof);
            ops.extend(planned);
            return self.done(&key, evidence, ops, DecidedBy::Model);
        }
        self.done(&key, evidence, ops, DecidedBy::Offline)
    }

    /// What an approach does before the attempt looks at the page: the objective's page opened
    /// again, or the page let settle.
    async fn prepare(&mut self, index: usize, approach: Approach) -> Result<(), Failure> {
        match approach {
            Approach::ReloadPage => {
                let url = match self.start_urls.get(&index) {
                    Some(url) => url.clone(),
                    None => self.session.url().await?,
                };
                self.act(&Op::Navigate { url }).await?;
            }
            Approach::WaitForPage => {
                let deadline = Instant::now() + Patience::PATIENT.bound;
                let mut backoff = Backoff::new();
                while Instant::now() < deadline && !judge::at_rest(&*self.session).await? {
                    backoff.pause(deadline).await;
                }
            }
            _ => {}
        }
        if !self.start_urls.contains_key(&index) {
            let url = self.session.url().await?;
            self.start_urls.insert(index, url);
        }
        Ok(())
    }

    /// The operations with each target found by its visible text instead of its role, where
    /// that text names exactly one element (`text_locator`).
    async fn by_text(&self, ops: Vec<Op>) -> Result<Vec<Op>, Failure> {
        let mut changed = Vec::with_capacity(ops.len());
        for op in ops {
            let text = match &op {
                Op::Click { locator: Locator::Role { name: Some(name), .. }, .. }
                | Op::Hover { locator: Locator::Role { name: Some(name), .. } } => {
                    Some(Locator::Text { text: name.clone(), exact: true })
                }
                _ => None,
            };
            let unique = match &text {
                Some(locator) => self.session.resolve(locator).await?.len() == 1,
                None => false,
            };
            changed.push(match (op, text) {
                (Op::Click { downloads, .. }, Some(locator)) if unique => Op::Click { locator, downloads },
                (Op::Hover { .. }, Some(locator)) if unique => Op::Hover { locator },
                (op, _) => op,
            });
        }
        Ok(changed)
    }

    /// The rest of an objective decided by the model: the actions from the page's snapshot,
    /// carried out, and judged — by the page for checks and notes, by the evaluator for the rest.
    async fn decide_with_model(
        &mut self,
        model: &ModelHelp,
        index: usize,
        description: &str,
        rest: &[Intent],
        failures: &[String],
        unresolved: &str,
    ) -> Result<(Vec<EvidencePart>, Vec<Op>), Failure> {
        let checklist: Vec<String> = self.progress.objectives_only().map(|s| s.description.clone()).collect();
        let mut seen = failures.to_vec();
        seen.push(format!("the offline resolver: {unresolved}"));
        self.clear_blockers(index, rest).await?;
        let snapshot = self.ctx.secrets.redact(&self.model_snapshot().await?);
        self.tried.0 = DecidedBy::Model;
        let placeholders = placeholders_in(description);
        let plan = model
            .decide(description, &checklist, index, &snapshot, &seen, &placeholders, &self.ctx.cancel)
            .await
            .map_err(|e| Failure {
                reason: e.to_string(),
                retriable: e.retriable(),
                kind: FailureKind::Model,
                covered_by: None,
            })?;
        let planned = match plan {
            ModelPlan::Act(planned) => planned,
            ModelPlan::TargetNotFound(why) => {
                return Err(Failure::retry(FailureKind::NotFound, format!("the model found no target: {why}")))
            }
        };
        // A decision that would move a secret is refused whole, before any of it is done.
        let (named, redact) = (self.named(), |text: &str| self.ctx.secrets.redact(text));
        if let Some(why) = planned.iter().find_map(|op| secret_use::sent_refusal(op, &named, redact)) {
            self.record_refusal(&why);
            return Err(Failure::retry(FailureKind::Model, format!("the model's actions were refused: {why}")));
        }
        let planned = self.exact_targets(planned).await?;
        let before = PageText::capture(&*self.session).await?;
        self.set_plan(index, &planned);
        let acted = self.carry_out(index, &planned, rest).await?;
        // A banner that came up while the actions ran is not part of what is judged; a dialog
        // the next objective is about is left for it.
        let mut keep = rest.to_vec();
        keep.extend(self.next_objective(index).map(|s| parse_step(&s.description)).unwrap_or_default());
        self.clear_blockers(index, &keep).await?;
        if rest.iter().all(|i| matches!(i.action, Action::Verify { .. } | Action::Note { .. })) {
            let mut proofs = Vec::new();
            for intent in rest {
                match self.judge_intent(intent, &[], &[], &before).await?.failure() {
                    Ok(proof) => proofs.extend(proof),
                    Err(failure) => return Err(Failure::retry(FailureKind::CheckFailed, failure.reason)),
                }
            }
            return Ok((proofs, planned));
        }
        // The page's own error answers the actions before any model judges them.
        let new_lines = PageText::capture(&*self.session).await?.new_lines(&before);
        let dialogs = acted.iter().flat_map(|a| &a.report.dialogs).filter(|d| d.kind == "alert");
        let dialogs = dialogs.map(|d| d.message.as_str());
        let effectful = acted.iter().any(|a| a.effect.is_effectful());
        if let Some(error) =
            effects::page_error(dialogs.chain(new_lines.iter().map(String::as_str)), &self.expected_here())
        {
            let op = planned.last().map(plainly).unwrap_or_default();
            // A page's error is always a failure (`Verdict::failure`).
            self.page_error(&op, error).failure()?;
        }
        let after = self.snapshot_text().await?;
        let done: Vec<String> = planned
            .iter()
            .zip(&acted)
            .map(|(op, a)| format!("{} → {}", op.describe(), result_of(&a.report).text))
            .collect();
        let judged =
            model.judge(description, &done, &self.ctx.secrets.redact(&after), &self.ctx.cancel).await.map_err(|e| {
                Failure { reason: e.to_string(), retriable: e.retriable(), kind: FailureKind::Model, covered_by: None }
            })?;
        match judged {
            (true, proof) => {
                if effectful {
                    self.effects.seen(index, &proof);
                }
                // The model's own words.
                Ok((vec![EvidencePart::words(proof)], planned))
            }
            // Another attempt would do the effect again: the person checks first.
            (false, why) if effectful => Err(Failure {
                reason: format!("the model judged it not done ({why}); {}", self.unknown_effect()),
                retriable: false,
                kind: FailureKind::EffectUnknown,
                covered_by: None,
            }),
            (false, why) => Err(Failure::retry(FailureKind::NoEffect, format!("the model judged it not done: {why}"))),
        }
    }

    /// The objective after `index`, whose own dialog must not be taken for a blocker.
    fn next_objective(&self, index: usize) -> Option<&ObjectiveStep> {
        self.progress.objective_steps.iter().skip(index + 1).find(|s| s.step_type == StepType::Objective)
    }

    /// The snapshot a model is shown: elements that share a role and name (six "Download"
    /// links) each with what surrounds it, so that the model can say which it means.
    async fn model_snapshot(&self) -> Result<String, Failure> {
        let snapshot = self.snapshot_text().await?;
        let page = Page::parse("", &snapshot);
        let mut lines: Vec<String> = snapshot.lines().map(str::to_owned).collect();
        let mut node = 0;
        for line in &mut lines {
            let trimmed = line.trim_start();
            if !trimmed.starts_with("- ") || trimmed.starts_with("- /") || trimmed.starts_with("- text:") {
                continue;
            }
            let Some(element) = page.nodes.get(node) else { break };
            node += 1;
            let (Some(reference), false) = (&element.reference, element.name.is_empty()) else { continue };
            if page.named(&element.role, &element.name) < 2 {
                continue;
            }
            let found = self.session.resolve(&Locator::Ref { reference: reference.clone() }).await?;
            if let Some(candidate) = found.first() {
                let around = self.session.surroundings(candidate).await.unwrap_or_default();
                if !around.is_empty() {
                    line.push_str(&format!(
                        " (in: {})",
                        serde_json::to_string(&around.chars().take(120).collect::<String>()).unwrap_or_default()
                    ));
                }
            }
        }
        Ok(lines.join("\n"))
    }

    fn done(
        &self,
        key: &CacheKey,
        evidence: Vec<EvidencePart>,
        ops: Vec<Op>,
        decided_by: DecidedBy,
    ) -> Result<Done, Failure> {
        self.effect_asked_done(&key.objective)?;
        if let Some(cache) = self.config.cache.as_ref().filter(|_| self.keeps_rule(key, &ops)) {
            let objective = self.scope.objective;
            let effectful: Vec<usize> =
                (0..ops.len()).filter(|&i| self.effects.has(objective, &ops[i].describe())).collect();
            if let Err(error) = cache.put(key, &ops, &effectful) {
                self.ctx.log(LogLevel::Warn, format!("{error}; the next run decides again"));
            }
        }
        Ok(Done { evidence, ops, decided_by })
    }

    /// A step that asks for an effect ("send", 「送信する」) is not done by actions none of which
    /// had one (a choice made, the send never pressed) — unless an earlier attempt's effect was
    /// seen.
    fn effect_asked_done(&self, step: &str) -> Result<(), Failure> {
        // A check that something was sent asks for nothing to be done.
        if !parse_step(step).iter().any(is_action) {
            return Ok(());
        }
        let Some(verb) = effects::asks_for_effect(step) else { return Ok(()) };
        let objective = self.scope.objective;
        if self.effects.count(objective) > self.effects_before || self.effects.seen_for(objective) {
            return Ok(());
        }
        Err(Failure::retry(
            FailureKind::NoEffect,
            format!("the step asks to {verb}, and nothing that does was carried out"),
        ))
    }

    /// Replays the cached operations of an objective, each target checked first; `None` when
    /// there are none or one no longer resolves to exactly one element (then the objective is
    /// resolved again and the cache updated).
    async fn replay(&mut self, index: usize, key: &CacheKey, intents: &[Intent]) -> Result<Option<Done>, Failure> {
        let Some(cache) = self.config.cache.clone() else { return Ok(None) };
        let Cached { ops, effectful } = match cache.get(key) {
            Ok(Some(cached)) => cached,
            Ok(None) => return Ok(None),
            Err(error) => {
                self.ctx.log(LogLevel::Warn, format!("{error}; deciding without it"));
                return Ok(None);
            }
        };
        // Checked again at replay: an entry written before the rule, or by hand, is dropped.
        if !self.keeps_rule(key, &ops) {
            self.record_refusal(&format!("the cached actions of \"{}\" break the rule; forgotten", key.objective));
            let _ = cache.forget(key);
            return Ok(None);
        }
        let before = PageText::capture(&*self.session).await?;
        self.tried.0 = DecidedBy::Cache;
        self.set_plan(index, &ops);
        let mut acted = Vec::new();
        for (at, op) in ops.iter().enumerate() {
            let looked = Instant::now();
            if let Some(locator) = op.locator() {
                if !self.exactly_one(locator, CACHED_TARGET).await? {
                    self.ctx.log(
                        LogLevel::Info,
                        format!(
                            "objective {}: the cached target {locator} is no longer one element; deciding again",
                            self.progress.objective_number(index)
                        ),
                    );
                    return Ok(None);
                }
            }
            // A banner that came up since the attempt began (after an action, or while the
            // target rendered) is got out of the way first.
            if at > 0 || looked.elapsed() > MOMENT {
                self.clear_blockers(index, intents).await?;
            }
            // Kept as effectful, it is one whatever its control says now (its request wrote).
            match self.act_uncovered(index, op, effectful.contains(&at), intents).await {
                Ok(done) => acted.push(done),
                Err(refused) if refused.kind == FailureKind::Refused => {
                    let _ = cache.forget(key);
                    return Err(refused);
                }
                Err(failure) => return Err(failure),
            }
            self.tried.1.push(op.clone());
        }
        // Judged as any attempt: by what the page shows.
        let mut evidence = Vec::new();
        let mut at = 0;
        for intent in intents {
            let count = ops_for(intent, &ops[at..]);
            let verdict = self.judge_intent(intent, &ops[at..at + count], &acted[at..at + count], &before).await?;
            at += count;
            match verdict.failure() {
                Ok(proof) => evidence.extend(proof),
                Err(mut failure) => {
                    if failure.covered_by.is_none() {
                        let _ = cache.forget(key);
                    }
                    if failure.kind == FailureKind::NoEffect {
                        failure.reason = format!("the cached actions did not reach it: {}", failure.reason);
                    }
                    return Err(failure);
                }
            }
        }
        if let Err(failure) = self.effect_asked_done(&key.objective) {
            let _ = cache.forget(key);
            return Err(failure);
        }
        let _ = cache.replayed(key);
        self.replayed += 1;
        Ok(Some(Done { evidence, ops, decided_by: DecidedBy::Cache }))
    }

    /// Whether `locator` names exactly one element, waiting up to `wait` for it to appear.
    async fn exactly_one(&self, locator: &Locator, wait: Duration) -> Result<bool, Failure> {
        let deadline = Instant::now() + wait;
        let mut backoff = Backoff::new();
        loop {
            let count = self.session.resolve(locator).await?.len();
            if count == 1 {
                return Ok(true);
            }
            if count > 1 || Instant::now() >= deadline {
                return Ok(false);
            }
            backoff.pause(deadline).await;
        }
    }

    /// Resolves one intent against the page as it is now, waiting a little for a page still
    /// rendering (and, to `scroll_to_find`, scrolling down to bring it in); the operations and
    /// the page text before them, or how and why not.
    async fn resolve_intent(
        &mut self,
        index: usize,
        intent: &Intent,
        remaining: &[Intent],
        approach: Approach,
    ) -> Result<Result<(Vec<Op>, PageText), (FailureKind, String)>, Failure> {
        let mut started = Instant::now();
        let mut backoff = Backoff::new();
        let mut scrolls = 0;
        loop {
            // The snapshot taken to look for blockers is the page as it is now.
            let snapshot = self.clear_blockers(index, remaining).await?.snapshot;
            let page = Page::parse(&self.session.url().await?, &snapshot);
            match resolve(&*self.session, &page, intent).await {
                Ok(ops) => {
                    if !ops.is_empty() {
                        self.set_plan(index, &ops);
                    }
                    return Ok(Ok((ops, PageText::capture(&*self.session).await?)));
                }
                Err(unresolved) => {
                    let waited = started.elapsed();
                    if judge::waited_enough(&*self.session, waited, self.waits.late_content).await? {
                        // Partial matches that cannot be told apart may give way to the whole
                        // one further down: scrolling goes on while there is more below.
                        let scrollable =
                            approach == Approach::ScrollToFind && scrolls < MAX_SCROLLS && !self.at_bottom().await?;
                        if !scrollable {
                            let kind =
                                if unresolved.ambiguous { FailureKind::Ambiguous } else { FailureKind::NotFound };
                            let reason = match scrolls {
                                0 => unresolved.reason,
                                n => format!("{} (after scrolling down {n} times)", unresolved.reason),
                            };
                            return Ok(Err((kind, reason)));
                        }
                        scrolls += 1;
                        self.act(&Op::Scroll { down: true }).await?;
                        started = Instant::now();
                        backoff = Backoff::new();
                        continue;
                    }
                    backoff.pause(started + self.waits.late_content.bound).await;
                }
            }
        }
    }

    /// Whether the page is scrolled to its end.
    async fn at_bottom(&self) -> Result<bool, Failure> {
        Ok(self.session.at_bottom().await?)
    }

    /// The page's interactive snapshot as it is now, secrets masked, for a written analysis.
    pub(crate) async fn snapshot_for_analysis(&self) -> String {
        match self.snapshot_text().await {
            Ok(text) => self.ctx.secrets.redact(&text),
            Err(error) => format!("(the page could not be read: {error})"),
        }
    }

    async fn snapshot_text(&self) -> Result<String, BrowserError> {
        self.session.snapshot_text(6_000).await
    }
}

/// How many of `ops` (from the start) belong to `intent`, as the resolver makes them.
fn ops_for(intent: &Intent, ops: &[Op]) -> usize {
    let wanted = match &intent.action {
        Action::Verify { .. } | Action::Note { .. } | Action::Wait => 0,
        Action::Fill(pairs) => pairs.len(),
        Action::Search { .. } => 2,
        Action::Login { user, password } => usize::from(user.is_some()) + usize::from(password.is_some()) + 1,
        _ => 1,
    };
    wanted.min(ops.len())
}

/// The texts a step names its target with, folded.
fn target_texts(intent: &Intent) -> Vec<String> {
    intent.names.iter().chain([&intent.phrase]).map(|t| crate::text::fold(t)).filter(|t| !t.is_empty()).collect()
}

/// What an action did, in a few words, as its record says it: coded where the runner's words say all of it
/// (the elements that came and went are the page's, in their own words).
fn result_of(report: &ActionReport) -> EvidencePart {
    if let Some(file) = report.downloads.first() {
        return EvidencePart::coded(
            format!("downloaded {}", file.file_name),
            vec![RunMessage::ProofDownloaded { file: file.file_name.clone(), bytes: file.bytes }],
        );
    }
    if report.opened_tab {
        return EvidencePart::coded(
            format!("opened a tab at {}", report.url),
            vec![RunMessage::ProofNewTab { url: report.url.clone() }],
        );
    }
    if report.navigated && report.url != report.url_before {
        return EvidencePart::coded(
            format!("navigated to {}", report.url),
            vec![RunMessage::ProofNowAt { url: report.url.clone(), titled: false, title: String::new() }],
        );
    }
    let mut said = Vec::new();
    if !report.appeared.is_empty() {
        said.push(format!("{} appeared", report.appeared.iter().take(2).cloned().collect::<Vec<_>>().join(", ")));
    }
    if !report.disappeared.is_empty() {
        said.push(format!("{} went away", report.disappeared.iter().take(2).cloned().collect::<Vec<_>>().join(", ")));
    }
    if said.is_empty() {
        EvidencePart::coded("done", vec![RunMessage::ActionDone])
    } else {
        EvidencePart::words(said.join("; "))
    }
}

/// Why a secret is not typed on a site the objective reached only by a model's decision or a
/// page's link.
fn untrusted(name: &str, origin: &str) -> String {
    format!(
        "{{{{{name}}}}} would go to {origin}, a site only a model's decision or a page's link led to; a secret is typed \
         only on the site the run started on or one the steps' own words lead to"
    )
}

/// An operation's target in the person's words: `the button "Send report"`.
fn plainly(op: &Op) -> String {
    match element_of(op) {
        Some((role, text)) if role == "text" => format!("\"{text}\""),
        Some((role, name)) => format!("the {role} \"{name}\""),
        None => op.describe(),
    }
}

/// The element an operation acts on as a role and a name (the role `text`: text on the page),
/// when its locator names one.
fn element_of(op: &Op) -> Option<(String, String)> {
    let mut locator = op.locator();
    while let Some(Locator::Near { target, .. }) = locator {
        locator = Some(target);
    }
    match locator {
        Some(Locator::Role { role, name: Some(name), .. }) => Some((role.clone(), name.clone())),
        Some(Locator::Text { text, .. }) => Some(("text".to_owned(), text.clone())),
        _ => None,
    }
}

/// The evidence of an action done once and what it brought about; coded when both are.
fn pressed_once(op: &Op, change: EvidencePart) -> EvidencePart {
    let text = format!("{} pressed once: {}", plainly(op), change.text);
    match element_of(op).filter(|_| !change.said.is_empty()) {
        Some((role, name)) => {
            let mut said = vec![RunMessage::ProofPressedOnce { role, name }];
            said.extend(change.said);
            EvidencePart::coded(text, said)
        }
        None => EvidencePart::words(text),
    }
}

/// Whether a locator names its element whole: a ref, a test id, or an exact role name or text.
fn is_exact(locator: &Locator) -> bool {
    match locator {
        Locator::Role { name: Some(_), exact, .. } | Locator::Text { exact, .. } => *exact,
        Locator::TestId { .. } | Locator::Ref { .. } => true,
        // "Any button" is no element of its own to keep or replay.
        Locator::Role { name: None, .. } => false,
        Locator::Near { target, .. } => is_exact(target),
    }
}

/// The name or text a locator matches in part, if it does.
fn partial_name(locator: &Locator) -> Option<&str> {
    match locator {
        Locator::Role { name: Some(name), exact: false, .. } | Locator::Text { text: name, exact: false } => Some(name),
        Locator::Near { target, .. } => partial_name(target),
        _ => None,
    }
}

/// The placeholder names a text uses.
pub fn placeholders_in(text: &str) -> Vec<String> {
    planwright_plan::reference::placeholders(text).into_iter().map(str::to_owned).collect()
}

/// What kind of thing an intent does, a download counted as the click it is.
fn action_kind(intent: &Intent) -> std::mem::Discriminant<Action> {
    match intent.action {
        Action::Download => std::mem::discriminant(&Action::Click),
        ref action => std::mem::discriminant(action),
    }
}
