//! Every operation of the studio API, listed once. `planwright serve`'s routes, the desktop
//! app's Tauri commands and their handler list, and the UI's table of routes and argument names
//! (`ui/src/lib/api/types/operations.ts`, written by [`operations_typescript`]) are all made
//! from this list, so an operation cannot be in one transport and missing from another.
//!
//! Each line: the kind (`call`: one answer; `stream`: answers until the end, see
//! [`crate::Watch`]), the name — the `Studio` method and the Tauri command — the HTTP method and
//! route, the arguments in the method's order, each a `path` segment of the route, the `query`
//! string read into a type, or the JSON `body` (last), and the answer's type.

/// Calls `$callback!` with the list of operations (see the module documentation).
#[macro_export]
macro_rules! studio_operations {
    ($callback:ident) => {
        $callback! {
            call catalog GET "/api/catalog" () -> Vec<$crate::BlockInfo>;
            call search_blocks POST "/api/blocks/search" (body request: $crate::SearchRequest) -> $crate::SearchResponse;
            call validate POST "/api/validate" (body request: $crate::PlanText) -> $crate::ValidateResponse;
            call dry_run POST "/api/dry-run" (body request: $crate::PlanText) -> $crate::DryRunResponse;
            call plan_graph POST "/api/graph" (body request: $crate::PlanText) -> $crate::PlanGraph;
            call edit_plan POST "/api/plan/edit" (body request: $crate::PlanEditRequest) -> $crate::PlanEdited;
            call register POST "/api/register" (body request: $crate::PlanText) -> $crate::RegisterResponse;
            call list_designs GET "/api/designs" () -> Vec<$crate::DesignInfo>;
            call open_design GET "/api/designs/{*file}" (path file: String) -> $crate::DesignText;
            call list_drafts GET "/api/drafts" () -> Vec<$crate::DraftInfo>;
            call open_draft GET "/api/drafts/{name}" (path name: String) -> $crate::DraftText;
            call save_draft PUT "/api/drafts/{name}" (path name: String, body request: $crate::PlanText) -> $crate::DraftInfo;
            call delete_draft DELETE "/api/drafts/{name}" (path name: String) -> $crate::DraftDeleted;
            call save_design_session PUT "/api/drafts/{name}/session" (path name: String, body request: $crate::DesignSession) -> $crate::DesignSession;
            call list_templates GET "/api/templates" () -> Vec<$crate::TemplateInfo>;
            call design_candidates POST "/api/design/candidates" (body request: $crate::CandidatesRequest) -> $crate::CandidatesResponse;
            call upload_document POST "/api/documents" (body request: $crate::DocumentUpload) -> $crate::DocumentInfo;
            call start_generation POST "/api/design/generations" (body request: $crate::GenerateRequest) -> $crate::GenerationStarted;
            stream generation_events GET "/api/design/generations/{generation}" (path generation: String) -> $crate::GenerationEvent;
            call apply_answers POST "/api/design/answers" (body request: $crate::ApplyAnswersRequest) -> $crate::AnswersApplied;
            call ask_at_run_time POST "/api/design/ask-at-run-time" (body request: $crate::AskAtRunTimeRequest) -> $crate::AskedAtRunTime;
            call design_metrics GET "/api/design/metrics" () -> $crate::DesignMetrics;
            call check_run POST "/api/runs/check" (body request: $crate::StartRunRequest) -> $crate::RunReadiness;
            call start_run POST "/api/runs" (body request: $crate::StartRunRequest) -> $crate::StartRunResponse;
            call resume_run POST "/api/runs/{run_id}/resume" (path run_id: String) -> $crate::StartRunResponse;
            call stop_run POST "/api/runs/{run_id}/stop" (path run_id: String) -> $crate::StopRunResponse;
            call answer_input POST "/api/runs/{run_id}/answer" (path run_id: String, body request: $crate::AnswerRequest) -> $crate::AnswerResponse;
            call list_runs GET "/api/runs" (query filter: $crate::RunFilter) -> Vec<$crate::RunSummary>;
            call run_detail GET "/api/runs/{run_id}" (path run_id: String) -> $crate::RunDetail;
            call run_results GET "/api/runs/{run_id}/results" (path run_id: String) -> $crate::RunResults;
            call run_artifact GET "/api/runs/{run_id}/artifact" (path run_id: String, query request: $crate::ArtifactRequest) -> $crate::ArtifactData;
            call run_table GET "/api/runs/{run_id}/table" (path run_id: String, query request: $crate::TableRequest) -> $crate::TablePage;
            call open_artifact POST "/api/runs/{run_id}/artifact/open" (path run_id: String, body request: $crate::OpenArtifactRequest) -> $crate::ArtifactOpened;
            call list_work_files GET "/api/work-folder/files" () -> $crate::WorkFiles;
            call open_work_folder POST "/api/work-folder/open" () -> $crate::ArtifactOpened;
            call run_report GET "/api/runs/{run_id}/report" (path run_id: String, query request: $crate::ReportRequest) -> $crate::ReportFile;
            stream run_events GET "/api/runs/{run_id}/events" (path run_id: String, query after: $crate::EventsAfter) -> $crate::Event;
            call cancel_stream POST "/api/streams/{stream}/cancel" (path stream: String) -> $crate::StreamCancelled;
            call get_settings GET "/api/settings" () -> $crate::StudioSettings;
            call save_settings PUT "/api/settings" (body request: $crate::StudioSettings) -> $crate::StudioSettings;
            call set_api_key PUT "/api/settings/key" (body request: $crate::SetKeyRequest) -> $crate::KeyStatus;
            call check_models POST "/api/settings/check" () -> $crate::ModelCheck;
            call set_secret PUT "/api/secrets/{name}" (path name: String, body request: $crate::SecretValue) -> $crate::SecretStatus;
            call forget_secret DELETE "/api/secrets/{name}" (path name: String) -> $crate::SecretStatus;
        }
    };
}

/// One operation as the TypeScript table describes it.
struct Operation {
    kind: &'static str,
    name: &'static str,
    method: &'static str,
    path: &'static str,
    args: Vec<(&'static str, &'static str, String)>,
    answer: String,
}

macro_rules! describe {
    ($( $kind:ident $name:ident $method:ident $path:literal ( $( $ak:ident $arg:ident : $ty:ty ),* ) -> $answer:ty ; )*) => {
        fn operations(config: &ts_rs::Config) -> Vec<Operation> {
            vec![$( Operation {
                kind: stringify!($kind),
                name: stringify!($name),
                method: stringify!($method),
                path: $path,
                args: vec![$( (stringify!($ak), stringify!($arg), <$ty as ts_rs::TS>::name(config)) ),*],
                answer: <$answer as ts_rs::TS>::name(config),
            } ),*]
        }
    };
}

studio_operations!(describe);

/// The UI's table of operations (`ui/src/lib/api/types/operations.ts`): for each, its kind, HTTP
/// method, route and arguments, and the TypeScript types of its arguments and answer.
pub(crate) fn operations_typescript() -> String {
    let config = ts_rs::Config::new().with_large_int("number");
    let operations = operations(&config);
    let mut types: Vec<String> = Vec::new();
    let mut note = |ts: &str| {
        for word in ts.split(|c: char| !c.is_alphanumeric()) {
            let named = word.chars().next().is_some_and(char::is_uppercase) && !matches!(word, "Array" | "Record");
            if named && !types.iter().any(|t| t == word) {
                types.push(word.to_owned());
            }
        }
    };
    for operation in &operations {
        note(&operation.answer);
        operation.args.iter().for_each(|(_, _, ts)| note(ts));
    }
    types.sort();
    let mut out = String::from(
        "// Generated from crates/api/src/operations.rs (planwright_api::operations_typescript); do not edit.\n",
    );
    for ty in &types {
        out.push_str(&format!("import type {{ {ty} }} from './{ty}';\n"));
    }
    out.push_str("\n/** Each operation's kind, HTTP route and arguments (path segment, query or JSON body). */\nexport const OPERATIONS = {\n");
    for op in &operations {
        let args: Vec<String> =
            op.args.iter().map(|(kind, name, _)| format!("{{ kind: '{kind}', name: '{name}' }}")).collect();
        out.push_str(&format!(
            "  {}: {{ kind: '{}', method: '{}', path: '{}', args: [{}] }},\n",
            op.name,
            op.kind,
            op.method,
            op.path,
            args.join(", ")
        ));
    }
    out.push_str("} as const;\n\nexport type OperationName = keyof typeof OPERATIONS;\n\n");
    out.push_str("/** Each operation's arguments by name, and its answer (for a stream: each item). */\nexport interface Operations {\n");
    for op in &operations {
        let args: Vec<String> = op.args.iter().map(|(_, name, ts)| format!("{name}: {ts}")).collect();
        let args = if args.is_empty() { "{}".to_owned() } else { format!("{{ {} }}", args.join("; ")) };
        out.push_str(&format!("  {}: {{ args: {args}; answer: {} }};\n", op.name, op.answer));
    }
    out.push_str("}\n");
    out
}
