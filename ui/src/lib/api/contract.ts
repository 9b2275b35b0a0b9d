// The request and response types of the studio API, written by hand from docs/studio-api.md
// until the ts-rs generated types appear in `./types/`. Keep it in step with that page.

export type Json = null | boolean | number | string | Json[] | { [key: string]: Json };

export interface Localized {
  en: string;
  ja: string;
}

export interface ApiErrorBody {
  code: 'not_found' | 'invalid_input' | 'conflict' | 'unavailable' | 'internal' | string;
  message: string;
  hint?: string | null;
  fields?: FieldError[];
  findings?: Finding[];
}

// ---- catalog -------------------------------------------------------------------------------

export interface PortInfo {
  name: string;
  type: string;
  required: boolean;
  default?: Json;
  description: Localized;
}

export interface BlockInfo {
  id: string;
  category: string;
  title: Localized;
  description: Localized;
  tags: { en: string[]; ja: string[] };
  inputs: PortInfo[];
  outputs: PortInfo[];
  resource?: string | null;
}

export interface SearchBlocksRequest {
  query: string;
  top_k?: number | null;
}

export interface SearchHit {
  id: string;
  score: number;
  category: string;
  /** The matched query words and the fields they were found in, best first. */
  why: string[];
}

export interface SearchBlocksResponse {
  hits: SearchHit[];
  method: 'bm25' | 'hybrid';
  warnings: string[];
}

// ---- validate / dry-run / graph / register -------------------------------------------------

export interface PlanTextRequest {
  text: string;
}

export type Severity = 'error' | 'warning' | string;

export interface Finding {
  code: string;
  severity: Severity;
  node?: string | null;
  field?: string | null;
  message: string;
  hint?: string | null;
  candidates: string[];
  path: string;
  line?: number | null;
  column?: number | null;
}

export interface ValidateResponse {
  valid: boolean;
  findings: Finding[];
}

export interface DryRunStep {
  id: string;
  level?: number;
  depth?: number;
  kind?: string;
  what?: string;
  depends_on?: string[];
  inputs?: Json;
  outputs?: Json;
  runs?: number;
  [key: string]: unknown;
}

export interface DryRunEstimate {
  node_runs?: number;
  model_calls?: number;
  browser_objectives?: number;
  exact?: boolean;
  notes?: string[];
  [key: string]: unknown;
}

export interface DryRunResponse {
  valid: boolean;
  findings: Finding[];
  order: string[][];
  steps: DryRunStep[];
  estimate: DryRunEstimate | null;
}

export interface GraphNode {
  /** The node's path: `id`, inside a loop body `loop/inner`. */
  id: string;
  block?: string | null;
  kind: 'block' | 'loop' | 'call';
  parent?: string | null;
  line?: number | null;
}

export interface GraphEdge {
  from: string;
  to: string;
  kind: 'data' | 'after';
}

export interface PlanGraph {
  nodes: GraphNode[];
  edges: GraphEdge[];
}

export interface RegisterResponse {
  file: string;
  path: string;
  already_registered: boolean;
}

// ---- designs and drafts --------------------------------------------------------------------

export interface DesignInfo {
  file: string;
  plan_id: string;
  version: string;
  title?: string | null;
  registered_at?: string | null;
  template: boolean;
}

export interface DesignText {
  file: string;
  text: string;
}

export interface DraftInfo {
  name: string;
  updated_at: string;
}

export interface DraftText {
  name: string;
  text: string;
  updated_at: string;
}

// ---- runs ----------------------------------------------------------------------------------

export type PlanRef = { file: string } | { text: string };

export interface StartRunRequest {
  plan: PlanRef;
  vars: Record<string, Json>;
}

export interface StartRunResponse {
  run_id: string;
}

export interface StopRunResponse {
  stopping: boolean;
}

export interface AnswerInputRequest {
  node: string;
  answer: Json;
}

export interface AnswerInputResponse {
  accepted: boolean;
}

export interface FieldError {
  field: string;
  message: string;
}

export type RunStatus = 'running' | 'succeeded' | 'failed' | 'stopped' | 'waiting_for_input' | 'interrupted';

export interface RunCounts {
  succeeded: number;
  failed: number;
  skipped: number;
  retried: number;
  model_calls?: number;
  input_tokens?: number;
  output_tokens?: number;
}

export interface RunSummary {
  run_id: string;
  plan_id: string;
  status: RunStatus;
  started_at: string;
  finished_at?: string | null;
  counts: RunCounts;
}

export interface ListRunsQuery {
  status?: RunStatus | null;
  plan_id?: string | null;
  limit?: number | null;
}

export interface RunDetail {
  summary: RunSummary;
  plan_text: string;
  events: RunEvent[];
}

// Events as in docs/events.md: the envelope, then `type` and its fields.
export interface EventEnvelope {
  schema: number;
  run_id: string;
  seq: number;
  at: string;
}

export type RunEventBody =
  | {
      type: 'run_started';
      plan_id: string;
      plan_version: string;
      plan_path: string | null;
      vars: Record<string, Json>;
      workdir: string;
      resumed_after: number | null;
    }
  | { type: 'run_finished'; status: RunStatus; counts: RunCounts; elapsed_ms: number; reason: string | null }
  | { type: 'node_started'; node: string; attempt: number; inputs: Json }
  | { type: 'node_finished'; node: string; elapsed_ms: number; attempts: number; outputs: Json }
  | { type: 'node_skipped'; node: string; reason: string }
  | {
      type: 'node_failed';
      node: string;
      elapsed_ms: number;
      attempts: number;
      error: string;
      timed_out: boolean;
      continued: boolean;
    }
  | { type: 'node_retried'; node: string; attempt: number; error: string; backoff_ms: number }
  | { type: 'input_requested'; node: string; request: InputRequest }
  | { type: 'input_received'; node: string; answer: Json }
  | { type: 'log'; node: string | null; level: 'debug' | 'info' | 'warn' | 'error'; message: string }
  | { type: 'artifact'; node: string; path: string; kind: 'file' | 'screenshot' | 'report'; bytes: number }
  | {
      type: 'model_call';
      node: string;
      tier: string;
      provider: string;
      model: string;
      messages: Json;
      response: string | null;
      error: string | null;
      input_tokens: number;
      output_tokens: number;
      latency_ms: number;
    };

export type RunEvent = EventEnvelope & RunEventBody;

// ---- human input (the Requirement model of `ui.interactive_input`) ------------------------

export type RequirementType = 'text' | 'select' | 'boolean' | 'number' | 'file' | 'table' | 'enum' | 'date' | string;

export interface Requirement {
  id: string;
  type: RequirementType;
  label?: string | null;
  description?: string | null;
  options?: string[] | null;
  required?: boolean | null;
  accept?: string | null;
  hint?: string | null;
  validation?: { regex?: string | null } | null;
}

export interface FormRequest {
  mode: 'collect' | 'mixed' | 'inquire';
  message: string;
  requirements: Requirement[];
  context?: Json;
}

export interface ConfirmRequest {
  mode: 'confirm';
  message: string;
  options: { approve_label?: string; reject_label?: string; comment_required?: boolean; [k: string]: Json | undefined };
  context?: Json;
}

export type InputRequest = FormRequest | ConfirmRequest;

// ---- settings ------------------------------------------------------------------------------

export interface TierSettings {
  model: string;
  temperature: number;
  max_tokens: number;
}

export interface KeyInfo {
  stored: boolean;
  hint?: string | null;
  where?: 'keyring' | 'file' | 'environment' | null;
}

export type Provider = 'openai' | 'azure' | 'compatible' | 'offline';

export interface ModelSettings {
  provider: Provider;
  base_url?: string | null;
  azure_endpoint?: string | null;
  azure_api_version?: string | null;
  tiers: { creative: TierSettings; fast: TierSettings; evaluator: TierSettings };
  embedding_model?: string | null;
  key?: KeyInfo;
  /** A problem with the settings as they stand, in plain words. */
  problem?: string | null;
}

export type Locale = 'system' | 'en' | 'ja';
export type Theme = 'system' | 'light' | 'dark';

export interface StudioSettings {
  workspace: string;
  browser_path?: string | null;
  locale: Locale;
  theme: Theme;
  models: ModelSettings;
}

/** `save_settings` takes the settings without `models.key`. */
export type SaveSettingsRequest = Omit<StudioSettings, 'models'> & { models: Omit<ModelSettings, 'key' | 'problem'> };

export interface SetApiKeyRequest {
  provider: Provider;
  key: string;
}

export interface SetApiKeyResponse {
  stored: boolean;
  hint: string;
  where: 'keyring' | 'file' | 'environment';
}

/** What `planwright doctor --format json` prints. */
export interface DoctorCheck {
  /** `creative`, `fast`, `evaluator` or `embeddings`. */
  part: string;
  model: string;
  ok: boolean;
  answered_by?: string | null;
  latency_ms?: number | null;
  problem?: string | null;
  fix?: string | null;
}

export interface CheckModelsResponse {
  ok: boolean;
  offline?: boolean;
  provider?: string | null;
  settings_file?: string;
  problem?: string | null;
  checks: DoctorCheck[];
  [key: string]: unknown;
}
