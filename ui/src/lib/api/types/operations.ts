// Generated from crates/api/src/operations.rs (planwright_api::operations_typescript); do not edit.
import type { AnswerRequest } from './AnswerRequest';
import type { AnswerResponse } from './AnswerResponse';
import type { AnswersApplied } from './AnswersApplied';
import type { ApplyAnswersRequest } from './ApplyAnswersRequest';
import type { ArtifactData } from './ArtifactData';
import type { ArtifactOpened } from './ArtifactOpened';
import type { ArtifactRequest } from './ArtifactRequest';
import type { AskAtRunTimeRequest } from './AskAtRunTimeRequest';
import type { AskedAtRunTime } from './AskedAtRunTime';
import type { BlockInfo } from './BlockInfo';
import type { CandidatesRequest } from './CandidatesRequest';
import type { CandidatesResponse } from './CandidatesResponse';
import type { DesignInfo } from './DesignInfo';
import type { DesignMetrics } from './DesignMetrics';
import type { DesignSession } from './DesignSession';
import type { DesignText } from './DesignText';
import type { DocumentInfo } from './DocumentInfo';
import type { DocumentUpload } from './DocumentUpload';
import type { DraftDeleted } from './DraftDeleted';
import type { DraftInfo } from './DraftInfo';
import type { DraftText } from './DraftText';
import type { DryRunResponse } from './DryRunResponse';
import type { Event } from './Event';
import type { EventsAfter } from './EventsAfter';
import type { GenerateRequest } from './GenerateRequest';
import type { GenerationEvent } from './GenerationEvent';
import type { GenerationStarted } from './GenerationStarted';
import type { KeyStatus } from './KeyStatus';
import type { ModelCheck } from './ModelCheck';
import type { OpenArtifactRequest } from './OpenArtifactRequest';
import type { PlanEditRequest } from './PlanEditRequest';
import type { PlanEdited } from './PlanEdited';
import type { PlanGraph } from './PlanGraph';
import type { PlanText } from './PlanText';
import type { RegisterResponse } from './RegisterResponse';
import type { ReportFile } from './ReportFile';
import type { ReportRequest } from './ReportRequest';
import type { RunDetail } from './RunDetail';
import type { RunFilter } from './RunFilter';
import type { RunReadiness } from './RunReadiness';
import type { RunResults } from './RunResults';
import type { RunSummary } from './RunSummary';
import type { SearchRequest } from './SearchRequest';
import type { SearchResponse } from './SearchResponse';
import type { SecretStatus } from './SecretStatus';
import type { SecretValue } from './SecretValue';
import type { SetKeyRequest } from './SetKeyRequest';
import type { StartRunRequest } from './StartRunRequest';
import type { StartRunResponse } from './StartRunResponse';
import type { StopRunResponse } from './StopRunResponse';
import type { StreamCancelled } from './StreamCancelled';
import type { StudioSettings } from './StudioSettings';
import type { TablePage } from './TablePage';
import type { TableRequest } from './TableRequest';
import type { TemplateInfo } from './TemplateInfo';
import type { ValidateResponse } from './ValidateResponse';
import type { WorkFiles } from './WorkFiles';

/** Each operation's kind, HTTP route and arguments (path segment, query or JSON body). */
export const OPERATIONS = {
  catalog: { kind: 'call', method: 'GET', path: '/api/catalog', args: [] },
  search_blocks: { kind: 'call', method: 'POST', path: '/api/blocks/search', args: [{ kind: 'body', name: 'request' }] },
  validate: { kind: 'call', method: 'POST', path: '/api/validate', args: [{ kind: 'body', name: 'request' }] },
  dry_run: { kind: 'call', method: 'POST', path: '/api/dry-run', args: [{ kind: 'body', name: 'request' }] },
  plan_graph: { kind: 'call', method: 'POST', path: '/api/graph', args: [{ kind: 'body', name: 'request' }] },
  edit_plan: { kind: 'call', method: 'POST', path: '/api/plan/edit', args: [{ kind: 'body', name: 'request' }] },
  register: { kind: 'call', method: 'POST', path: '/api/register', args: [{ kind: 'body', name: 'request' }] },
  list_designs: { kind: 'call', method: 'GET', path: '/api/designs', args: [] },
  open_design: { kind: 'call', method: 'GET', path: '/api/designs/{*file}', args: [{ kind: 'path', name: 'file' }] },
  list_drafts: { kind: 'call', method: 'GET', path: '/api/drafts', args: [] },
  open_draft: { kind: 'call', method: 'GET', path: '/api/drafts/{name}', args: [{ kind: 'path', name: 'name' }] },
  save_draft: { kind: 'call', method: 'PUT', path: '/api/drafts/{name}', args: [{ kind: 'path', name: 'name' }, { kind: 'body', name: 'request' }] },
  delete_draft: { kind: 'call', method: 'DELETE', path: '/api/drafts/{name}', args: [{ kind: 'path', name: 'name' }] },
  save_design_session: { kind: 'call', method: 'PUT', path: '/api/drafts/{name}/session', args: [{ kind: 'path', name: 'name' }, { kind: 'body', name: 'request' }] },
  list_templates: { kind: 'call', method: 'GET', path: '/api/templates', args: [] },
  design_candidates: { kind: 'call', method: 'POST', path: '/api/design/candidates', args: [{ kind: 'body', name: 'request' }] },
  upload_document: { kind: 'call', method: 'POST', path: '/api/documents', args: [{ kind: 'body', name: 'request' }] },
  start_generation: { kind: 'call', method: 'POST', path: '/api/design/generations', args: [{ kind: 'body', name: 'request' }] },
  generation_events: { kind: 'stream', method: 'GET', path: '/api/design/generations/{generation}', args: [{ kind: 'path', name: 'generation' }] },
  apply_answers: { kind: 'call', method: 'POST', path: '/api/design/answers', args: [{ kind: 'body', name: 'request' }] },
  ask_at_run_time: { kind: 'call', method: 'POST', path: '/api/design/ask-at-run-time', args: [{ kind: 'body', name: 'request' }] },
  design_metrics: { kind: 'call', method: 'GET', path: '/api/design/metrics', args: [] },
  check_run: { kind: 'call', method: 'POST', path: '/api/runs/check', args: [{ kind: 'body', name: 'request' }] },
  start_run: { kind: 'call', method: 'POST', path: '/api/runs', args: [{ kind: 'body', name: 'request' }] },
  resume_run: { kind: 'call', method: 'POST', path: '/api/runs/{run_id}/resume', args: [{ kind: 'path', name: 'run_id' }] },
  stop_run: { kind: 'call', method: 'POST', path: '/api/runs/{run_id}/stop', args: [{ kind: 'path', name: 'run_id' }] },
  answer_input: { kind: 'call', method: 'POST', path: '/api/runs/{run_id}/answer', args: [{ kind: 'path', name: 'run_id' }, { kind: 'body', name: 'request' }] },
  list_runs: { kind: 'call', method: 'GET', path: '/api/runs', args: [{ kind: 'query', name: 'filter' }] },
  run_detail: { kind: 'call', method: 'GET', path: '/api/runs/{run_id}', args: [{ kind: 'path', name: 'run_id' }] },
  run_results: { kind: 'call', method: 'GET', path: '/api/runs/{run_id}/results', args: [{ kind: 'path', name: 'run_id' }] },
  run_artifact: { kind: 'call', method: 'GET', path: '/api/runs/{run_id}/artifact', args: [{ kind: 'path', name: 'run_id' }, { kind: 'query', name: 'request' }] },
  run_table: { kind: 'call', method: 'GET', path: '/api/runs/{run_id}/table', args: [{ kind: 'path', name: 'run_id' }, { kind: 'query', name: 'request' }] },
  open_artifact: { kind: 'call', method: 'POST', path: '/api/runs/{run_id}/artifact/open', args: [{ kind: 'path', name: 'run_id' }, { kind: 'body', name: 'request' }] },
  list_work_files: { kind: 'call', method: 'GET', path: '/api/work-folder/files', args: [] },
  open_work_folder: { kind: 'call', method: 'POST', path: '/api/work-folder/open', args: [] },
  run_report: { kind: 'call', method: 'GET', path: '/api/runs/{run_id}/report', args: [{ kind: 'path', name: 'run_id' }, { kind: 'query', name: 'request' }] },
  run_events: { kind: 'stream', method: 'GET', path: '/api/runs/{run_id}/events', args: [{ kind: 'path', name: 'run_id' }, { kind: 'query', name: 'after' }] },
  cancel_stream: { kind: 'call', method: 'POST', path: '/api/streams/{stream}/cancel', args: [{ kind: 'path', name: 'stream' }] },
  get_settings: { kind: 'call', method: 'GET', path: '/api/settings', args: [] },
  save_settings: { kind: 'call', method: 'PUT', path: '/api/settings', args: [{ kind: 'body', name: 'request' }] },
  set_api_key: { kind: 'call', method: 'PUT', path: '/api/settings/key', args: [{ kind: 'body', name: 'request' }] },
  check_models: { kind: 'call', method: 'POST', path: '/api/settings/check', args: [] },
  set_secret: { kind: 'call', method: 'PUT', path: '/api/secrets/{name}', args: [{ kind: 'path', name: 'name' }, { kind: 'body', name: 'request' }] },
  forget_secret: { kind: 'call', method: 'DELETE', path: '/api/secrets/{name}', args: [{ kind: 'path', name: 'name' }] },
} as const;

export type OperationName = keyof typeof OPERATIONS;

/** Each operation's arguments by name, and its answer (for a stream: each item). */
export interface Operations {
  catalog: { args: {}; answer: Array<BlockInfo> };
  search_blocks: { args: { request: SearchRequest }; answer: SearchResponse };
  validate: { args: { request: PlanText }; answer: ValidateResponse };
  dry_run: { args: { request: PlanText }; answer: DryRunResponse };
  plan_graph: { args: { request: PlanText }; answer: PlanGraph };
  edit_plan: { args: { request: PlanEditRequest }; answer: PlanEdited };
  register: { args: { request: PlanText }; answer: RegisterResponse };
  list_designs: { args: {}; answer: Array<DesignInfo> };
  open_design: { args: { file: string }; answer: DesignText };
  list_drafts: { args: {}; answer: Array<DraftInfo> };
  open_draft: { args: { name: string }; answer: DraftText };
  save_draft: { args: { name: string; request: PlanText }; answer: DraftInfo };
  delete_draft: { args: { name: string }; answer: DraftDeleted };
  save_design_session: { args: { name: string; request: DesignSession }; answer: DesignSession };
  list_templates: { args: {}; answer: Array<TemplateInfo> };
  design_candidates: { args: { request: CandidatesRequest }; answer: CandidatesResponse };
  upload_document: { args: { request: DocumentUpload }; answer: DocumentInfo };
  start_generation: { args: { request: GenerateRequest }; answer: GenerationStarted };
  generation_events: { args: { generation: string }; answer: GenerationEvent };
  apply_answers: { args: { request: ApplyAnswersRequest }; answer: AnswersApplied };
  ask_at_run_time: { args: { request: AskAtRunTimeRequest }; answer: AskedAtRunTime };
  design_metrics: { args: {}; answer: DesignMetrics };
  check_run: { args: { request: StartRunRequest }; answer: RunReadiness };
  start_run: { args: { request: StartRunRequest }; answer: StartRunResponse };
  resume_run: { args: { run_id: string }; answer: StartRunResponse };
  stop_run: { args: { run_id: string }; answer: StopRunResponse };
  answer_input: { args: { run_id: string; request: AnswerRequest }; answer: AnswerResponse };
  list_runs: { args: { filter: RunFilter }; answer: Array<RunSummary> };
  run_detail: { args: { run_id: string }; answer: RunDetail };
  run_results: { args: { run_id: string }; answer: RunResults };
  run_artifact: { args: { run_id: string; request: ArtifactRequest }; answer: ArtifactData };
  run_table: { args: { run_id: string; request: TableRequest }; answer: TablePage };
  open_artifact: { args: { run_id: string; request: OpenArtifactRequest }; answer: ArtifactOpened };
  list_work_files: { args: {}; answer: WorkFiles };
  open_work_folder: { args: {}; answer: ArtifactOpened };
  run_report: { args: { run_id: string; request: ReportRequest }; answer: ReportFile };
  run_events: { args: { run_id: string; after: EventsAfter }; answer: Event };
  cancel_stream: { args: { stream: string }; answer: StreamCancelled };
  get_settings: { args: {}; answer: StudioSettings };
  save_settings: { args: { request: StudioSettings }; answer: StudioSettings };
  set_api_key: { args: { request: SetKeyRequest }; answer: KeyStatus };
  check_models: { args: {}; answer: ModelCheck };
  set_secret: { args: { name: string; request: SecretValue }; answer: SecretStatus };
  forget_secret: { args: { name: string }; answer: SecretStatus };
}
