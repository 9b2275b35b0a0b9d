//! One Tauri command per operation of `docs/studio-api.md`, each a call of the
//! `planwright_api::Studio` function of the same name. Argument names follow the UI's transport
//! (`ui/src/lib/api/transport.ts`): a body is `request`; path and query parameters are named
//! (`file`, `name`, `run_id` …, camelCase on the JavaScript side).

use planwright_api::{
    AnswerRequest, AnswerResponse, ApiError, BlockInfo, DesignInfo, DesignText, DraftInfo, DraftText, DryRunResponse,
    Event, KeyStatus, ModelCheck, PlanGraph, PlanText, RegisterResponse, RunDetail, RunFilter, RunStatus, RunSummary,
    SearchRequest, SearchResponse, SetKeyRequest, StartRunRequest, StartRunResponse, StopRunResponse, Studio,
    StudioSettings, ValidateResponse,
};
use tauri::ipc::Channel;
use tauri::State;

type Answer<T> = Result<T, ApiError>;

#[tauri::command]
pub async fn catalog(studio: State<'_, Studio>) -> Answer<Vec<BlockInfo>> {
    studio.catalog().await
}

#[tauri::command]
pub async fn search_blocks(studio: State<'_, Studio>, request: SearchRequest) -> Answer<SearchResponse> {
    studio.search_blocks(request).await
}

#[tauri::command]
pub async fn validate(studio: State<'_, Studio>, request: PlanText) -> Answer<ValidateResponse> {
    studio.validate(&request.text).await
}

#[tauri::command]
pub async fn dry_run(studio: State<'_, Studio>, request: PlanText) -> Answer<DryRunResponse> {
    studio.dry_run(&request.text).await
}

#[tauri::command]
pub async fn plan_graph(studio: State<'_, Studio>, request: PlanText) -> Answer<PlanGraph> {
    studio.plan_graph(&request.text).await
}

#[tauri::command]
pub async fn register(studio: State<'_, Studio>, request: PlanText) -> Answer<RegisterResponse> {
    studio.register(&request.text).await
}

#[tauri::command]
pub async fn list_designs(studio: State<'_, Studio>) -> Answer<Vec<DesignInfo>> {
    studio.list_designs().await
}

#[tauri::command]
pub async fn open_design(studio: State<'_, Studio>, file: String) -> Answer<DesignText> {
    studio.open_design(&file).await
}

#[tauri::command]
pub async fn list_drafts(studio: State<'_, Studio>) -> Answer<Vec<DraftInfo>> {
    studio.list_drafts().await
}

#[tauri::command]
pub async fn open_draft(studio: State<'_, Studio>, name: String) -> Answer<DraftText> {
    studio.open_draft(&name).await
}

#[tauri::command]
pub async fn save_draft(studio: State<'_, Studio>, name: String, request: PlanText) -> Answer<DraftInfo> {
    studio.save_draft(&name, &request.text).await
}

#[tauri::command]
pub async fn start_run(studio: State<'_, Studio>, request: StartRunRequest) -> Answer<StartRunResponse> {
    studio.start_run(request).await
}

#[tauri::command]
pub async fn stop_run(studio: State<'_, Studio>, run_id: String) -> Answer<StopRunResponse> {
    studio.stop_run(&run_id).await
}

#[tauri::command]
pub async fn answer_input(studio: State<'_, Studio>, run_id: String, request: AnswerRequest) -> Answer<AnswerResponse> {
    studio.answer_input(&run_id, request).await
}

#[tauri::command]
pub async fn list_runs(
    studio: State<'_, Studio>,
    status: Option<RunStatus>,
    plan_id: Option<String>,
    limit: Option<usize>,
) -> Answer<Vec<RunSummary>> {
    studio.list_runs(RunFilter { status, plan_id, limit }).await
}

#[tauri::command]
pub async fn run_detail(studio: State<'_, Studio>, run_id: String) -> Answer<RunDetail> {
    studio.run_detail(&run_id).await
}

/// `run_events`: the run's events after `after` — recorded, then live until `run_finished` —
/// each sent through the UI's channel (`Studio::watch_run`). Ends with the stream, or when the
/// channel is gone.
#[tauri::command]
pub async fn run_events(studio: State<'_, Studio>, run_id: String, after: u64, on_event: Channel<Event>) -> Answer<()> {
    let mut watch = studio.watch_run(&run_id, after).await?;
    while let Some(event) = watch.next().await {
        if on_event.send(event).is_err() {
            break;
        }
    }
    Ok(())
}

#[tauri::command]
pub async fn get_settings(studio: State<'_, Studio>) -> Answer<StudioSettings> {
    studio.get_settings().await
}

#[tauri::command]
pub async fn save_settings(studio: State<'_, Studio>, request: StudioSettings) -> Answer<StudioSettings> {
    studio.save_settings(request).await
}

#[tauri::command]
pub async fn set_api_key(studio: State<'_, Studio>, request: SetKeyRequest) -> Answer<KeyStatus> {
    studio.set_api_key(request).await
}

#[tauri::command]
pub async fn check_models(studio: State<'_, Studio>) -> Answer<ModelCheck> {
    studio.check_models().await
}
