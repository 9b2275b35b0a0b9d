//! Runs started by the studio go on inside its process: each live run has a stop token, a
//! broadcast of its events for watchers, and the questions it waits on, which `answer_input`
//! answers. Finished runs are read from the run store.

use std::collections::{HashMap, HashSet};
use std::sync::{Arc, Mutex};

use futures::future::BoxFuture;
use futures::FutureExt;
use planwright_block::{validate_answer, FieldError};
use planwright_engine::{AnswerSource, BrowserSettings, Engine, EngineError, RunOptions, RunRequest};
use planwright_runs::{Event, EventKind, InputRequest};
use serde_json::Value;
use tokio::sync::{broadcast, mpsc, oneshot};
use tokio_util::sync::CancellationToken;
use tracing::Instrument;

use crate::error::{ApiError, ApiMessage};
use crate::streams::Watch;
use crate::types::*;
use crate::Studio;

/// How many events a slow watcher may fall behind before it re-reads them from the store.
const BROADCAST_CAPACITY: usize = 1024;
/// How long an answer waits for a live run to ask the question it answers (a resumed run asks
/// its recorded question again as it goes on).
const ANSWER_WAIT: std::time::Duration = std::time::Duration::from_secs(5);

/// The runs going on in this process, by run id, and those being resumed: from the call until
/// the run goes on (or fails to start), a second resume of the run is refused as a conflict
/// instead of racing the first to the run's lock.
#[derive(Default)]
pub(crate) struct LiveRuns {
    runs: Mutex<HashMap<String, LiveRun>>,
    resuming: Mutex<HashSet<String>>,
}

#[derive(Clone)]
struct LiveRun {
    stop: CancellationToken,
    events: broadcast::Sender<Event>,
    questions: Arc<Questions>,
}

impl LiveRuns {
    fn get(&self, run_id: &str) -> Option<LiveRun> {
        self.runs.lock().unwrap_or_else(|e| e.into_inner()).get(run_id).cloned()
    }

    /// The right to resume `run_id`, or `None` while it is going on or being resumed here.
    fn claim_resume(&self, run_id: &str) -> Option<Resuming<'_>> {
        // Under the runs' lock: a resume that has just gone on is seen as going on.
        let runs = self.runs.lock().unwrap_or_else(|e| e.into_inner());
        let mut resuming = self.resuming.lock().unwrap_or_else(|e| e.into_inner());
        (!runs.contains_key(run_id) && resuming.insert(run_id.to_owned()))
            .then(|| Resuming { live: self, run_id: run_id.to_owned() })
    }
}

/// A resume under way; dropping it lets the run be resumed again.
struct Resuming<'a> {
    live: &'a LiveRuns,
    run_id: String,
}

impl Drop for Resuming<'_> {
    fn drop(&mut self) {
        self.live.resuming.lock().unwrap_or_else(|e| e.into_inner()).remove(&self.run_id);
    }
}

/// A question waiting for its answer: what was asked, and where the answer goes.
struct Question {
    request: InputRequest,
    answer: oneshot::Sender<Value>,
}

/// The human-input bridge: a block's question is parked here until `answer_input` supplies an
/// answer (or the run is stopped).
struct Questions {
    waiting: Mutex<HashMap<String, Question>>,
    stop: CancellationToken,
}

impl AnswerSource for Questions {
    fn answer<'a>(
        &'a self,
        node: &'a str,
        request: &'a InputRequest,
        _errors: &'a [FieldError],
    ) -> BoxFuture<'a, Option<Value>> {
        async move {
            let (sender, receiver) = oneshot::channel();
            self.waiting
                .lock()
                .unwrap_or_else(|e| e.into_inner())
                .insert(node.to_owned(), Question { request: request.clone(), answer: sender });
            let answer = tokio::select! {
                answer = receiver => answer.ok(),
                () = self.stop.cancelled() => None,
            };
            self.waiting.lock().unwrap_or_else(|e| e.into_inner()).remove(node);
            answer
        }
        .boxed()
    }
}

/// The events of one run, recorded ones first, then live ones until `run_finished`.
struct RunWatch {
    backlog: std::collections::VecDeque<Event>,
    live: Option<broadcast::Receiver<Event>>,
    last_seq: u64,
    finished: bool,
    studio: Studio,
    run_id: String,
}

impl RunWatch {
    /// The next event; `None` after `run_finished`, or when a run that is not going on has no
    /// more recorded events.
    async fn next(&mut self) -> Option<Event> {
        loop {
            if self.finished {
                return None;
            }
            if let Some(event) = self.backlog.pop_front() {
                if event.seq <= self.last_seq {
                    continue;
                }
                return Some(self.seen(event));
            }
            let live = self.live.as_mut()?;
            match live.recv().await {
                Ok(event) if event.seq <= self.last_seq => continue,
                Ok(event) => return Some(self.seen(event)),
                Err(broadcast::error::RecvError::Lagged(_)) => {
                    // Fell behind: what was missed is in the store.
                    let events = self.studio.inner.store.events(&self.run_id).unwrap_or_default();
                    self.backlog.extend(events.into_iter().filter(|e| e.seq > self.last_seq));
                }
                Err(broadcast::error::RecvError::Closed) => {
                    // The run ended: anything not yet seen is in the store.
                    self.live = None;
                    let events = self.studio.inner.store.events(&self.run_id).unwrap_or_default();
                    self.backlog.extend(events.into_iter().filter(|e| e.seq > self.last_seq));
                }
            }
        }
    }

    fn seen(&mut self, event: Event) -> Event {
        self.last_seq = event.seq;
        self.finished = matches!(event.kind, EventKind::RunFinished { .. });
        event
    }
}

impl Studio {
    /// Validates the plan and starts it; the run goes on in this process and its events stream
    /// through [`Studio::run_events`]. Nothing starts — no browser, no model call — unless
    /// [`Studio::check_run`] finds nothing missing; a plan that does not validate is refused with
    /// its findings.
    pub async fn start_run(&self, request: StartRunRequest) -> Result<StartRunResponse, ApiError> {
        let (plan_text, plan_path) = self.plan_of(&request.plan).await?;
        // A plan the check cannot read goes on to the engine, which names why with its findings.
        let readiness = self.check_run(request.clone()).await.unwrap_or_default();
        if !readiness.problems.is_empty() {
            let said: Vec<&str> = readiness.problems.iter().map(|p| p.message.as_str()).collect();
            let mut error = ApiError::invalid(format!("the run was not started: {}", said.join("; ")))
                .with_hint("open the run check, give what is missing, then start again")
                .saying(ApiMessage::RunNotReady);
            error.readiness = Some(readiness.problems.into_boxed_slice());
            return Err(error);
        }
        let run = RunRequest { plan_text: plan_text.clone(), plan_path, vars: request.vars };
        self.launch(&plan_text, move |engine, store, options| async move { engine.run(&store, run, options).await })
            .await
    }

    /// Continues an interrupted, stopped, failed or waiting run — one started here or from the
    /// command line — as `planwright resume` does: finished nodes keep their outputs, answers
    /// given are reused, and a question still open is asked here.
    /// Resuming a run that is going on — here, being resumed here, or recorded by another process
    /// — is a conflict (409).
    pub async fn resume_run(&self, run_id: String) -> Result<StartRunResponse, ApiError> {
        let Some(_resuming) = self.claim_resume_once_ended(&run_id).await else {
            return Err(ApiError::new(crate::ErrorCode::Conflict, format!("run {run_id} is going on in this studio"))
                .with_hint("answer or stop it; a run is resumed once it has ended")
                .saying(ApiMessage::RunGoingOn { run_id }));
        };
        let summary = self.inner.store.summary(&run_id)?;
        if summary.status == planwright_runs::RunStatus::Running {
            // Recorded by another process: the conflict the engine would meet at the run's lock.
            let lock = self.inner.store.home().run_lock(&summary.plan_id, &run_id);
            return Err(planwright_runs::StoreError::Active { run_id, lock, pid: None }.into());
        }
        let (plan_text, _) = self.inner.store.plan(&run_id)?;
        self.launch(
            &plan_text,
            move |engine, store, options| async move { engine.resume(&store, &run_id, options).await },
        )
        .await
    }

    /// The right to resume `run_id`. A run whose record has ended is over here a moment later,
    /// once its last events have reached this studio's watchers: that moment is waited for (at
    /// most about a second), so a resume asked for as soon as `run_finished` is read is not
    /// refused as going on.
    async fn claim_resume_once_ended(&self, run_id: &str) -> Option<Resuming<'_>> {
        const TRIES: u32 = 50;
        for _ in 0..TRIES {
            if let Some(claim) = self.inner.live.claim_resume(run_id) {
                return Some(claim);
            }
            let ended = self.inner.store.summary(run_id).is_ok_and(|s| s.status != planwright_runs::RunStatus::Running);
            let being_resumed = self.inner.live.resuming.lock().unwrap_or_else(|e| e.into_inner()).contains(run_id);
            if !ended || being_resumed {
                return None;
            }
            tokio::time::sleep(std::time::Duration::from_millis(20)).await;
        }
        None
    }

    /// Sets a run going in this process — its secrets, model, browser, stop token and the bridge
    /// for its questions — and returns once its first event names it (an engine error before
    /// that is the answer).
    async fn launch<F, Fut>(&self, plan_text: &str, drive: F) -> Result<StartRunResponse, ApiError>
    where
        F: FnOnce(Engine, planwright_runs::RunStore, RunOptions) -> Fut + Send + 'static,
        Fut: std::future::Future<Output = Result<planwright_engine::RunOutcome, EngineError>> + Send + 'static,
    {
        let services = self.model_services().await;
        if let Some(problem) = services.problem() {
            tracing::warn!(%problem, "AI steps will fail");
        }
        let secrets = {
            let studio = self.clone();
            let names =
                planwright_plan::load_plan(plan_text).ok().and_then(|l| l.plan).map(|p| p.secrets).unwrap_or_default();
            tokio::task::spawn_blocking(move || studio.run_secrets(&names))
                .await
                .map_err(|e| ApiError::internal(format!("reading the secrets stopped: {e}")))?
        };
        let models = services.client();
        let browser_path = crate::settings::read_studio_file(self.data_home()).ok().and_then(|f| f.browser_path);
        let mut browser = BrowserSettings::from_env();
        if let Some(path) = browser_path {
            browser.executable = Some(path.into());
        }
        let stop = CancellationToken::new();
        let questions = Arc::new(Questions { waiting: Mutex::new(HashMap::new()), stop: stop.clone() });
        let (sender, mut receiver) = mpsc::unbounded_channel::<Event>();
        let options = RunOptions {
            workdir: self.workspace(),
            secrets: Arc::new(secrets),
            answers: questions.clone(),
            stop: stop.clone(),
            events: Some(sender),
            browser,
            models,
        };
        let engine = self.engine();
        let store = self.inner.store.clone();
        let handle = tokio::spawn(drive(engine, store, options));
        // The first event names the run; none means the run could not start.
        let Some(first) = receiver.recv().await else {
            return Err(match handle.await {
                Ok(Err(error)) => engine_error(error),
                Ok(Ok(_)) => ApiError::internal("the run ended without a record"),
                Err(error) => ApiError::internal(format!("the run stopped unexpectedly: {error}")),
            });
        };
        let run_id = first.run_id.clone();
        let (events, _) = broadcast::channel(BROADCAST_CAPACITY);
        self.inner
            .live
            .runs
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .insert(run_id.clone(), LiveRun { stop, events: events.clone(), questions });
        let response = StartRunResponse { run_id: run_id.clone() };
        let studio = self.clone();
        let span = tracing::info_span!("studio_run", run_id = %run_id);
        tokio::spawn(
            async move {
                let _ = events.send(first);
                while let Some(event) = receiver.recv().await {
                    if matches!(event.kind, EventKind::RunFinished { .. }) {
                        // Over for every caller before anyone hears so: a stop or an answer sent
                        // after `run_finished` is refused (404), never taken by a run that is gone.
                        studio.forget_live(&run_id);
                    }
                    let _ = events.send(event);
                }
                match handle.await {
                    Ok(Ok(outcome)) => tracing::info!(status = ?outcome.status, "run ended"),
                    Ok(Err(error)) => tracing::warn!(%error, "run ended with an error"),
                    Err(error) => tracing::error!(%error, "run task failed"),
                }
                studio.forget_live(&run_id);
            }
            .instrument(span),
        );
        Ok(response)
    }

    /// The text of the plan a run is asked for, and its file when it is a registered design.
    pub(crate) async fn plan_of(&self, plan: &PlanChoice) -> Result<(String, Option<std::path::PathBuf>), ApiError> {
        Ok(match plan {
            PlanChoice::Text { text } => (text.clone(), None),
            PlanChoice::File { file } => {
                let design = self.open_design(file.clone()).await?;
                (design.text, Some(self.designs_dir().join(file)))
            }
        })
    }

    /// Asks a live run to stop; it ends within about a second with a consistent record.
    pub async fn stop_run(&self, run_id: String) -> Result<StopRunResponse, ApiError> {
        let run_id = run_id.as_str();
        let live = self.live(run_id)?;
        tracing::info!(run_id, "stop requested");
        live.stop.cancel();
        Ok(StopRunResponse { stopping: true })
    }

    /// Answers a question a live run waits on. An answer the request refuses gets per-field
    /// errors (`fields`), and the question stays open.
    pub async fn answer_input(&self, run_id: String, request: AnswerRequest) -> Result<AnswerResponse, ApiError> {
        let run_id = run_id.as_str();
        let live = self.live(run_id)?;
        // A resumed run asks its recorded question again moments after it goes on: an answer
        // given to the question as recorded waits a little for it.
        let asked_by = std::time::Instant::now() + ANSWER_WAIT;
        while std::time::Instant::now() < asked_by
            && !live.questions.waiting.lock().unwrap_or_else(|e| e.into_inner()).contains_key(&request.node)
        {
            tokio::time::sleep(std::time::Duration::from_millis(50)).await;
        }
        let mut waiting = live.questions.waiting.lock().unwrap_or_else(|e| e.into_inner());
        let Some(question) = waiting.get(&request.node) else {
            return Err(ApiError::not_found(format!(
                "run {run_id} is not waiting for an answer from `{}`",
                request.node
            ))
            .with_hint("answer the node named in the latest input_requested event")
            .saying(ApiMessage::NotWaitingForAnswer { run_id: run_id.to_owned(), node: request.node.clone() }));
        };
        let answer = serde_json::to_value(&request.answer).map_err(|e| ApiError::internal(e.to_string()))?;
        if let Err(refused) = validate_answer(&question.request, &answer) {
            let mut error = ApiError::invalid("the answer was refused: fix the fields named")
                .with_hint(refused.iter().map(|f| format!("{}: {}", f.field, f.message)).collect::<Vec<_>>().join("; "))
                .saying(ApiMessage::AnswerRefused);
            error.fields = refused
                .into_iter()
                .map(|f| FieldProblem { field: f.field, message: f.message, said: f.said })
                .collect();
            return Err(error);
        }
        let question = waiting.remove(&request.node).expect("looked up above under the same lock");
        drop(waiting);
        tracing::info!(run_id, node = %request.node, "answer given");
        // The engine checks the answer again (files named must exist) and asks again if needed.
        let accepted = question.answer.send(answer).is_ok();
        Ok(AnswerResponse { accepted })
    }

    /// Recorded runs, newest first, filtered.
    pub async fn list_runs(&self, filter: RunFilter) -> Result<Vec<RunSummary>, ApiError> {
        let runs = self.inner.store.list()?;
        let limit = filter.limit.unwrap_or(usize::MAX);
        Ok(runs
            .into_iter()
            .filter(|r| filter.status.is_none_or(|s| r.status == s))
            .filter(|r| filter.plan_id.as_deref().is_none_or(|p| r.plan_id == p))
            .take(limit)
            .collect())
    }

    /// A run's summary, plan text and every recorded event.
    pub async fn run_detail(&self, run_id: String) -> Result<RunDetail, ApiError> {
        let run_id = run_id.as_str();
        let summary = self.inner.store.summary(run_id)?;
        let (plan_text, _) = self.inner.store.plan(run_id)?;
        let events = self.inner.store.events(run_id)?;
        Ok(RunDetail { summary, plan_text, events })
    }

    /// One of the run's artifacts (an evidence screenshot, a report, a planning history), read
    /// for the studio to show. Only a file the run recorded as its artifact is read, and only
    /// up to [`MAX_ARTIFACT_BYTES`].
    pub async fn run_artifact(&self, run_id: String, request: ArtifactRequest) -> Result<ArtifactData, ApiError> {
        self.recorded_artifact(&run_id, &request.path)?;
        let path = std::path::PathBuf::from(&request.path);
        let bytes = tokio::task::spawn_blocking(move || read_artifact(&path))
            .await
            .map_err(|e| ApiError::internal(format!("reading the artifact stopped: {e}")))?
            .map_err(|e| match e {
                ArtifactRead::Io(e) => ApiError::not_found(format!("{}: {e}", request.path))
                    .with_hint("the file may have been moved or deleted since the run")
                    .saying(ApiMessage::ArtifactMissing { path: request.path.clone() }),
                ArtifactRead::Refused(why) => ApiError::invalid(format!("{}: {why}", request.path))
                    .with_hint("open the file from the run's folder instead")
                    .saying(ApiMessage::ArtifactRefused { path: request.path.clone(), detail: why.clone() }),
            })?;
        use base64::Engine as _;
        Ok(ArtifactData {
            media_type: media_type(&request.path).to_owned(),
            bytes: bytes.len(),
            base64: base64::engine::general_purpose::STANDARD.encode(&bytes),
            path: request.path,
        })
    }

    /// The run's events after `after.after` (0: all): the recorded ones, then live ones until
    /// `run_finished`. Cancelling the stream stops the watching, not the run.
    pub async fn run_events(&self, run_id: String, after: EventsAfter) -> Result<Watch<Event>, ApiError> {
        // Subscribe before reading the record: nothing falls between the two.
        let live = self.inner.live.get(&run_id).map(|run| run.events.subscribe());
        let recorded = self.inner.store.events(&run_id)?;
        let mut run = RunWatch {
            backlog: recorded.into_iter().filter(|e| e.seq > after.after).collect(),
            live,
            last_seq: after.after,
            finished: false,
            studio: self.clone(),
            run_id,
        };
        let (sender, watch) = Watch::channel();
        tokio::spawn(async move {
            while let Some(event) = run.next().await {
                if !sender.send(event).await {
                    break;
                }
            }
        });
        Ok(watch)
    }

    fn forget_live(&self, run_id: &str) {
        self.inner.live.runs.lock().unwrap_or_else(|e| e.into_inner()).remove(run_id);
    }

    fn live(&self, run_id: &str) -> Result<LiveRun, ApiError> {
        self.inner.live.get(run_id).ok_or_else(|| {
            ApiError::not_found(format!("run {run_id} is not going on in this studio"))
                .with_hint("it has ended or was started elsewhere; its record is in the run history")
                .saying(ApiMessage::RunNotGoingOn { run_id: run_id.to_owned() })
        })
    }
}

fn engine_error(error: EngineError) -> ApiError {
    match error {
        EngineError::Invalid(findings) => {
            let mut api = ApiError::invalid(error_message(findings.len()))
                .with_hint("validate the plan to see every finding with its line")
                .saying(ApiMessage::NotStartedErrors { count: findings.len() as u64 });
            api.findings = findings.iter().map(Finding::from).collect();
            api
        }
        EngineError::Load(ref load) => {
            let said = ApiMessage::PlanUnreadable { detail: load.to_string() };
            ApiError::invalid(error.to_string()).saying(said)
        }
        EngineError::UnknownVar(ref name, _) => {
            let said = ApiMessage::UnknownVar { name: name.clone() };
            ApiError::invalid(error.to_string()).saying(said)
        }
        EngineError::MissingSecrets(ref names) => {
            let said = ApiMessage::SecretsMissing { names: names.join(", ") };
            ApiError::invalid(error.to_string()).saying(said)
        }
        EngineError::NotResumable(ref run_id, ref detail) => {
            let said = ApiMessage::NotResumable { run_id: run_id.clone(), detail: detail.clone() };
            ApiError::invalid(error.to_string()).saying(said)
        }
        // The run check names missing vars before a run can start; this is its last guard.
        error @ (EngineError::Workdir(..) | EngineError::MissingVars(..) | EngineError::TableFileRows(..)) => {
            ApiError::invalid(error.to_string())
        }
        EngineError::Store(error) => error.into(),
        // The record's own folder could not take or give back a table (a full disk, a file
        // changed since): as the store's errors.
        error @ (EngineError::TableFile(..) | EngineError::TableSource(..)) => ApiError::internal(error.to_string()),
    }
}

fn error_message(errors: usize) -> String {
    format!("the plan is invalid ({errors} error(s)) and was not started")
}

/// The largest artifact the studio reads.
pub const MAX_ARTIFACT_BYTES: u64 = 20 * 1024 * 1024;

/// A file's media type, by its extension.
pub(crate) fn media_type(path: &str) -> &'static str {
    match std::path::Path::new(path).extension().and_then(|e| e.to_str()).map(str::to_ascii_lowercase).as_deref() {
        Some("png") => "image/png",
        Some("jpg" | "jpeg") => "image/jpeg",
        Some("md") => "text/markdown",
        Some("jsonl") => "application/x-ndjson",
        Some("json") => "application/json",
        Some("html") => "text/html",
        Some("csv") => "text/csv",
        Some("txt") => "text/plain",
        Some("xlsx") => "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet",
        _ => "application/octet-stream",
    }
}

/// Why an artifact was not read.
enum ArtifactRead {
    Io(std::io::Error),
    Refused(String),
}

/// A recorded artifact's bytes: a regular file only (a link is not followed, a pipe or device
/// never read), at most [`MAX_ARTIFACT_BYTES`] even if it grows while it is read.
fn read_artifact(path: &std::path::Path) -> Result<Vec<u8>, ArtifactRead> {
    use std::io::Read;
    let kind = std::fs::symlink_metadata(path).map_err(ArtifactRead::Io)?.file_type();
    if !kind.is_file() {
        return Err(ArtifactRead::Refused("it is not a regular file".to_owned()));
    }
    let file = std::fs::File::open(path).map_err(ArtifactRead::Io)?;
    let mut bytes = Vec::new();
    file.take(MAX_ARTIFACT_BYTES + 1).read_to_end(&mut bytes).map_err(ArtifactRead::Io)?;
    if bytes.len() as u64 > MAX_ARTIFACT_BYTES {
        return Err(ArtifactRead::Refused(format!("it is over the {MAX_ARTIFACT_BYTES} bytes the studio shows")));
    }
    Ok(bytes)
}
