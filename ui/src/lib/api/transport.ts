// The one transport switch of the studio (docs/studio-api.md): inside the Tauri desktop app every
// operation is a Tauri command (`invoke(operation, args)`) and a stream's items come through a
// Tauri `Channel`; in a browser the same operations are HTTP routes of `planwright serve` (same
// origin, the token is already a cookie) and a stream's items come over a WebSocket. Operations,
// routes and argument names come from ./types/operations.ts, generated from the Rust list.

// Every request and response type comes from `./types/`, generated from the Rust types (ts-rs).
import type { AnswerRequest } from './types/AnswerRequest';
import type { ApplyAnswersRequest } from './types/ApplyAnswersRequest';
import type { AskAtRunTimeRequest } from './types/AskAtRunTimeRequest';
import type { CandidatesRequest } from './types/CandidatesRequest';
import type { DesignSession } from './types/DesignSession';
import type { DocumentUpload } from './types/DocumentUpload';
import type { GenerateRequest } from './types/GenerateRequest';
import type { GenerationEvent } from './types/GenerationEvent';
import type { ApiError as ApiErrorBody } from './types/ApiError';
import type { ApiMessage } from './types/ApiMessage';
import type { ErrorCode } from './types/ErrorCode';
import type { Event } from './types/Event';
import type { FieldProblem } from './types/FieldProblem';
import type { Finding } from './types/Finding';
import { OPERATIONS, type OperationName, type Operations } from './types/operations';
import type { PlanEditRequest } from './types/PlanEditRequest';
import type { ReportFormat } from './types/ReportFormat';
import type { RunFilter } from './types/RunFilter';
import type { SearchRequest } from './types/SearchRequest';
import type { SetKeyRequest } from './types/SetKeyRequest';
import type { StartRunRequest } from './types/StartRunRequest';
import type { StudioSettings } from './types/StudioSettings';
import type { TableRequest } from './types/TableRequest';

/**
 * The codes an error can carry: the API's own (`ErrorCode`), plus `unauthorized` / `forbidden`
 * that the security layer of `planwright serve` answers with (401/403, not an API type).
 */
export type ApiErrorCode = ErrorCode | 'unauthorized' | 'forbidden';

/** An error of the API in plain words: `code` stable, `message` for a person, `hint` what fixes it. */
export class ApiError extends Error {
  readonly code: ApiErrorCode;
  readonly hint: string | null;
  /** Per-field errors of `answer_input` (400 `{fields: [...]}`), when given. */
  readonly fields: FieldProblem[];
  /** The plan's errors (`register`, `start_run`), when given. */
  readonly findings: Finding[];
  /** The message and hint as a code with parameters, to say in the person's language (`i18n/said.ts`). */
  readonly said: ApiMessage | null;

  constructor(
    code: ApiErrorCode,
    message: string,
    hint?: string | null,
    fields: FieldProblem[] = [],
    findings: Finding[] = [],
    said: ApiMessage | null = null,
  ) {
    super(message);
    this.name = 'ApiError';
    this.code = code;
    this.hint = hint ?? null;
    this.fields = fields;
    this.findings = findings;
    this.said = said;
  }
}

/** Every `ApiErrorCode`. */
export const API_ERROR_CODES: readonly string[] = [
  'not_found',
  'invalid_input',
  'conflict',
  'unavailable',
  'internal',
  'unauthorized',
  'forbidden',
] satisfies ApiErrorCode[];

function isCode(c: unknown): c is ApiErrorCode {
  return typeof c === 'string' && API_ERROR_CODES.includes(c);
}

/**
 * Turns whatever a transport threw or answered with into an `ApiError`. This stays tolerant on
 * purpose: besides the API's `ApiError` body it meets the security layer's `{code, message}`,
 * a proxy's or a crashed server's non-JSON answer, Tauri rejecting with a string (or a JSON
 * string), and `fetch`'s own `TypeError`s — none of which the generated types describe.
 */
export function toApiError(raw: unknown, status?: number): ApiError {
  if (raw instanceof ApiError) return raw;
  if (raw && typeof raw === 'object') {
    const o = raw as Partial<Record<keyof ApiErrorBody, unknown>>;
    const fields = Array.isArray(o.fields)
      ? (o.fields as unknown[]).filter(
          (f): f is FieldProblem =>
            !!f && typeof f === 'object' && typeof (f as FieldProblem).field === 'string' && typeof (f as FieldProblem).message === 'string',
        )
      : [];
    if (typeof o.message === 'string') {
      const code = isCode(o.code) ? o.code : codeForStatus(status);
      const findings = Array.isArray(o.findings) ? (o.findings as Finding[]) : [];
      // A code the UI does not know (a newer server) is shown as the English message.
      const said = o.said && typeof o.said === 'object' && typeof (o.said as ApiMessage).key === 'string' ? (o.said as ApiMessage) : null;
      return new ApiError(code, o.message, typeof o.hint === 'string' ? o.hint : null, fields, findings, said);
    }
    if (fields.length > 0) {
      return new ApiError('invalid_input', fields.map((f) => `${f.field}: ${f.message}`).join('; '), null, fields);
    }
    if (raw instanceof Error) return new ApiError('unavailable', raw.message);
  }
  if (typeof raw === 'string' && raw.trim() !== '') {
    // Tauri may reject with a JSON string.
    try {
      return toApiError(JSON.parse(raw), status);
    } catch {
      return new ApiError(codeForStatus(status), raw);
    }
  }
  return new ApiError(codeForStatus(status), status ? `The studio server answered ${status}.` : 'Something went wrong.');
}

function codeForStatus(status?: number): ApiErrorCode {
  switch (status) {
    case 400:
    case 422:
      return 'invalid_input';
    case 401:
      return 'unauthorized';
    case 403:
      return 'forbidden';
    case 404:
      return 'not_found';
    case 409:
      return 'conflict';
    case 503:
    case undefined:
      return 'unavailable';
    default:
      return 'internal';
  }
}

// ---- transport selection ------------------------------------------------------------------

export type TransportKind = 'tauri' | 'http';

/** `tauri` when the page runs inside the Tauri web view, `http` otherwise. */
export function transportKind(win: unknown = typeof window === 'undefined' ? undefined : window): TransportKind {
  return win && typeof win === 'object' && '__TAURI_INTERNALS__' in win && (win as Record<string, unknown>).__TAURI_INTERNALS__
    ? 'tauri'
    : 'http';
}

// ---- routes -------------------------------------------------------------------------------

// Every operation, its route and its arguments come from one list in Rust
// (crates/api/src/operations.rs), generated into ./types/operations.ts: the HTTP route, the
// Tauri command's arguments and the argument and answer types cannot drift from the server.
export type Operation = OperationName;

/** A call: the operation and its arguments by name (`run_id`, `file`, `filter`, `request` …). */
export interface Call<K extends OperationName = OperationName> {
  op: K;
  args: Operations[K]['args'];
}

export interface HttpRoute {
  method: 'GET' | 'POST' | 'PUT' | 'DELETE';
  path: string;
  body?: unknown;
}

const enc = encodeURIComponent;

/** The HTTP route of a call: path arguments in the route, a query argument's fields in the query string, the body as JSON. */
export function httpRoute<K extends OperationName>(call: Call<K>): HttpRoute {
  const spec = OPERATIONS[call.op];
  const args = call.args as Record<string, unknown>;
  let path: string = spec.path;
  const query = new URLSearchParams();
  let body: unknown = undefined;
  for (const arg of spec.args as readonly { kind: 'path' | 'query' | 'body'; name: string }[]) {
    const value = args[arg.name];
    if (arg.kind === 'path') {
      // `{*file}`: a design may sit in a folder (`templates/finance/x.yaml`); keep its slashes.
      path = path
        .replace(`{*${arg.name}}`, String(value ?? '').split('/').map(enc).join('/'))
        .replace(`{${arg.name}}`, enc(String(value ?? '')));
    } else if (arg.kind === 'query') {
      for (const [k, v] of Object.entries((value ?? {}) as Record<string, unknown>)) {
        if (v !== undefined && v !== null && v !== '') query.set(k, String(v));
      }
    } else {
      body = value;
    }
  }
  const qs = query.toString();
  const route: HttpRoute = { method: spec.method, path: qs ? `${path}?${qs}` : path };
  if (body !== undefined) route.body = body;
  return route;
}

/** The arguments of the Tauri command for a call: the operation's arguments, named in camelCase. */
export function tauriArgs<K extends OperationName>(call: Call<K>): Record<string, unknown> {
  const args: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(call.args as Record<string, unknown>)) {
    if (v !== undefined) args[camel(k)] = v;
  }
  return args;
}

function camel(k: string): string {
  return k.replace(/_([a-z])/g, (_, c: string) => c.toUpperCase());
}

/** The WebSocket URL of a stream (`kind: 'stream'`) for a page served from `location`, named `stream` for `cancel_stream`. */
export function streamUrl<K extends OperationName>(loc: { protocol: string; host: string }, call: Call<K>, stream: string): string {
  const proto = loc.protocol === 'https:' ? 'wss:' : 'ws:';
  const route = httpRoute(call);
  const sep = route.path.includes('?') ? '&' : '?';
  return `${proto}//${loc.host}${route.path}${sep}stream=${enc(stream)}`;
}

// ---- transports ---------------------------------------------------------------------------

export type Unsubscribe = () => void;

export interface WatchHandlers<T = Event> {
  onEvent: (item: T) => void;
  /** The stream ended (its work ended, or the connection closed). */
  onEnd?: () => void;
  onError?: (error: ApiError) => void;
}

export interface Transport {
  readonly kind: TransportKind;
  call<K extends OperationName>(call: Call<K>): Promise<Operations[K]['answer']>;
  /** Follows a streaming operation; the returned function ends it (`cancel_stream`). */
  watch<K extends OperationName>(call: Call<K>, handlers: WatchHandlers<Operations[K]['answer']>): Unsubscribe;
}

/** A name for a new stream, unique in this page. */
function streamName(): string {
  return `s-${Date.now().toString(36)}-${Math.random().toString(36).slice(2, 10)}`;
}

export function httpTransport(fetchImpl: typeof fetch = (...a) => fetch(...a)): Transport {
  return {
    kind: 'http',
    async call<K extends OperationName>(call: Call<K>): Promise<Operations[K]['answer']> {
      const route = httpRoute(call);
      let res: Response;
      try {
        res = await fetchImpl(route.path, {
          method: route.method,
          credentials: 'same-origin',
          headers: route.body !== undefined ? { 'content-type': 'application/json' } : undefined,
          body: route.body !== undefined ? JSON.stringify(route.body) : undefined,
        });
      } catch {
        throw new ApiError(
          'unavailable',
          'The studio server does not answer.',
          'Check that `planwright serve` is still running, then reload the page.',
        );
      }
      const text = await res.text();
      let data: unknown = undefined;
      if (text !== '') {
        try {
          data = JSON.parse(text);
        } catch {
          data = text;
        }
      }
      if (!res.ok) {
        if (res.status === 401) {
          throw new ApiError(
            'unauthorized',
            'This page is not signed in to the studio server.',
            'Open the address `planwright serve` printed (the one with ?token=…).',
          );
        }
        throw toApiError(data, res.status);
      }
      return data as Operations[K]['answer'];
    },
    watch(call, handlers) {
      let closed = false;
      const ws = new WebSocket(streamUrl(window.location, call, streamName()));
      ws.onmessage = (m) => {
        try {
          handlers.onEvent(JSON.parse(String(m.data)));
        } catch {
          // A message that is not JSON is ignored (docs/events.md: readers ignore what they don't know).
        }
      };
      ws.onerror = () => {
        if (!closed) {
          handlers.onError?.(new ApiError('unavailable', 'The live stream was interrupted.', 'Open it again to see the rest.'));
        }
      };
      ws.onclose = () => {
        if (!closed) handlers.onEnd?.();
      };
      // Closing the socket ends the stream on the server.
      return () => {
        closed = true;
        ws.close();
      };
    },
  };
}

export function tauriTransport(): Transport {
  const core = import('@tauri-apps/api/core');
  return {
    kind: 'tauri',
    async call<K extends OperationName>(call: Call<K>): Promise<Operations[K]['answer']> {
      const { invoke } = await core;
      try {
        return await invoke<Operations[K]['answer']>(call.op, tauriArgs(call));
      } catch (e) {
        throw toApiError(e);
      }
    },
    watch(call, handlers) {
      let closed = false;
      const stream = streamName();
      void core.then(({ Channel, invoke }) => {
        if (closed) return;
        const channel = new Channel<Operations[typeof call.op]['answer']>();
        channel.onmessage = (item) => {
          if (!closed) handlers.onEvent(item);
        };
        invoke(call.op, { ...tauriArgs(call), stream, onEvent: channel })
          .then(() => {
            if (!closed) handlers.onEnd?.();
          })
          .catch((e: unknown) => {
            if (!closed) handlers.onError?.(toApiError(e));
          });
      });
      // The command ends with the stream: `cancel_stream` ends it now.
      return () => {
        closed = true;
        void core.then(({ invoke }) => invoke('cancel_stream', { stream }).catch(() => undefined));
      };
    },
  };
}

// ---- the typed client ---------------------------------------------------------------------

export function createApi(transport: Transport) {
  const call = <K extends OperationName>(op: K, args: Operations[K]['args']) => transport.call<K>({ op, args });
  return {
    transport: transport.kind,
    catalog: () => call('catalog', {}),
    searchBlocks: (request: SearchRequest) => call('search_blocks', { request }),
    validate: (text: string) => call('validate', { request: { text } }),
    dryRun: (text: string) => call('dry_run', { request: { text } }),
    planGraph: (text: string) => call('plan_graph', { request: { text } }),
    editPlan: (request: PlanEditRequest) => call('edit_plan', { request }),
    register: (text: string) => call('register', { request: { text } }),
    listDesigns: () => call('list_designs', {}),
    openDesign: (file: string) => call('open_design', { file }),
    listDrafts: () => call('list_drafts', {}),
    openDraft: (name: string) => call('open_draft', { name }),
    saveDraft: (name: string, text: string) => call('save_draft', { name, request: { text } }),
    deleteDraft: (name: string) => call('delete_draft', { name }),
    saveDesignSession: (name: string, session: DesignSession) => call('save_design_session', { name, request: session }),
    listTemplates: () => call('list_templates', {}),
    designCandidates: (request: CandidatesRequest) => call('design_candidates', { request }),
    uploadDocument: (request: DocumentUpload) => call('upload_document', { request }),
    startGeneration: (request: GenerateRequest) => call('start_generation', { request }),
    /** A started generation's steps, then its result (`done`) or why it failed; ending the watch cancels it. */
    watchGeneration: (generation: string, handlers: WatchHandlers<GenerationEvent>) =>
      transport.watch({ op: 'generation_events', args: { generation } }, handlers),
    applyAnswers: (request: ApplyAnswersRequest) => call('apply_answers', { request }),
    askAtRunTime: (request: AskAtRunTimeRequest) => call('ask_at_run_time', { request }),
    designMetrics: () => call('design_metrics', {}),
    /** What a run needs (vars, secrets, input files, a model, a browser) and what of it is missing. */
    checkRun: (request: StartRunRequest) => call('check_run', { request }),
    startRun: (request: StartRunRequest) => call('start_run', { request }),
    /** Continues an interrupted, stopped, failed or waiting run (one started from the command line too). */
    resumeRun: (runId: string) => call('resume_run', { run_id: runId }),
    stopRun: (runId: string) => call('stop_run', { run_id: runId }),
    answerInput: (runId: string, request: AnswerRequest) => call('answer_input', { run_id: runId, request }),
    listRuns: (filter: RunFilter = {}) => call('list_runs', { filter }),
    runDetail: (runId: string) => call('run_detail', { run_id: runId }),
    /** What the run produced: its last nodes' values and the files it wrote, with previews. */
    runResults: (runId: string) => call('run_results', { run_id: runId }),
    /** A file the run recorded in an `artifact` event (evidence screenshots, analyses, the planning history). */
    runArtifact: (runId: string, path: string) => call('run_artifact', { run_id: runId, request: { path } }),
    /** A page of a table a node of the run gave: beyond the results' first rows, read on demand. */
    runTable: (runId: string, request: TableRequest) => call('run_table', { run_id: runId, request }),
    /** Opens a file the run wrote with the system's application for it, or (`folder`) shows its folder. */
    openArtifact: (runId: string, path: string, folder: boolean) => call('open_artifact', { run_id: runId, request: { path, folder } }),
    /** The work folder and the files in it, relative to it (the run check's picker and its "did you mean"). */
    listWorkFiles: () => call('list_work_files', {}),
    /** Opens the work folder in the system's file manager. */
    openWorkFolder: () => call('open_work_folder', {}),
    /** A finished run's report: one self-contained HTML page, or JUnit XML (a test case per objective). */
    /** A run's report; the HTML page in `lang`, its times in the person's time zone (the browser's). */
    runReport: (runId: string, format: ReportFormat, lang: string) =>
      call('run_report', { run_id: runId, request: { format, lang, time_zone: Intl.DateTimeFormat().resolvedOptions().timeZone } }),
    /** The run's events after `after`: recorded ones, then live ones until `run_finished`. */
    watchRun: (runId: string, after: number, handlers: WatchHandlers) =>
      transport.watch({ op: 'run_events', args: { run_id: runId, after: { after } } }, handlers),
    getSettings: () => call('get_settings', {}),
    /** `models.key` and `models.problem` are ignored by the server; `saveSettingsBody` drops them. */
    saveSettings: (s: StudioSettings) => call('save_settings', { request: saveSettingsBody(s) }),
    setApiKey: (request: SetKeyRequest) => call('set_api_key', { request }),
    checkModels: () => call('check_models', {}),
    /** Stores a plan secret's value (keyring, else the private key file); the answer never holds it. */
    setSecret: (name: string, value: string) => call('set_secret', { name, request: { value } }),
    forgetSecret: (name: string) => call('forget_secret', { name }),
  };
}

export type Api = ReturnType<typeof createApi>;

/**
 * The settings as `save_settings` takes them: without the read-only `models.key`,
 * `models.problem` and `planning_problem` (the planning settings themselves are sent).
 */
export function saveSettingsBody(s: StudioSettings): StudioSettings {
  const { key: _key, problem: _problem, ...models } = s.models;
  const { planning_problem: _planningProblem, ...rest } = s;
  return { ...rest, models };
}

/** The client every component uses. */
export const api: Api = createApi(transportKind() === 'tauri' ? tauriTransport() : httpTransport());
