// The one transport switch of the studio (docs/studio-api.md): inside the Tauri desktop app every
// operation is a Tauri command (`invoke(operation, args)`) and run events come through a Tauri
// `Channel`; in a browser the same operations are HTTP routes of `planwright serve` (same origin,
// the token is already a cookie) and run events come over a WebSocket.
//
// Tauri argument convention: an operation with a body takes it as `request`; path and query
// parameters are named arguments in camelCase (`runId`, `file`, `name`, `query`), which is how
// Tauri maps the Rust parameters `run_id`, `file`, `name`, `query`.

// Every request and response type comes from `./types/`, generated from the Rust types (ts-rs).
import type { AnswerRequest } from './types/AnswerRequest';
import type { AnswerResponse } from './types/AnswerResponse';
import type { ApiError as ApiErrorBody } from './types/ApiError';
import type { BlockInfo } from './types/BlockInfo';
import type { DesignInfo } from './types/DesignInfo';
import type { DesignText } from './types/DesignText';
import type { DraftInfo } from './types/DraftInfo';
import type { DraftText } from './types/DraftText';
import type { DryRunResponse } from './types/DryRunResponse';
import type { ErrorCode } from './types/ErrorCode';
import type { Event } from './types/Event';
import type { FieldProblem } from './types/FieldProblem';
import type { Finding } from './types/Finding';
import type { KeyStatus } from './types/KeyStatus';
import type { ModelCheck } from './types/ModelCheck';
import type { PlanGraph } from './types/PlanGraph';
import type { PlanText } from './types/PlanText';
import type { RegisterResponse } from './types/RegisterResponse';
import type { RunDetail } from './types/RunDetail';
import type { RunFilter } from './types/RunFilter';
import type { RunSummary } from './types/RunSummary';
import type { SearchRequest } from './types/SearchRequest';
import type { SearchResponse } from './types/SearchResponse';
import type { SetKeyRequest } from './types/SetKeyRequest';
import type { StartRunRequest } from './types/StartRunRequest';
import type { StartRunResponse } from './types/StartRunResponse';
import type { StopRunResponse } from './types/StopRunResponse';
import type { StudioSettings } from './types/StudioSettings';
import type { ValidateResponse } from './types/ValidateResponse';

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

  constructor(code: ApiErrorCode, message: string, hint?: string | null, fields: FieldProblem[] = [], findings: Finding[] = []) {
    super(message);
    this.name = 'ApiError';
    this.code = code;
    this.hint = hint ?? null;
    this.fields = fields;
    this.findings = findings;
  }
}

const CODES: readonly string[] = [
  'not_found',
  'invalid_input',
  'conflict',
  'unavailable',
  'internal',
  'unauthorized',
  'forbidden',
] satisfies ApiErrorCode[];

function isCode(c: unknown): c is ApiErrorCode {
  return typeof c === 'string' && CODES.includes(c);
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
      return new ApiError(code, o.message, typeof o.hint === 'string' ? o.hint : null, fields, findings);
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

export type Operation =
  | 'catalog'
  | 'search_blocks'
  | 'validate'
  | 'dry_run'
  | 'plan_graph'
  | 'register'
  | 'list_designs'
  | 'open_design'
  | 'list_drafts'
  | 'open_draft'
  | 'save_draft'
  | 'start_run'
  | 'stop_run'
  | 'answer_input'
  | 'list_runs'
  | 'run_detail'
  | 'get_settings'
  | 'save_settings'
  | 'set_api_key'
  | 'check_models';

/** A call: the operation, its path/query parameters and its body. */
export interface Call {
  op: Operation;
  params?: Record<string, string | number | null | undefined>;
  body?: unknown;
}

export interface HttpRoute {
  method: 'GET' | 'POST' | 'PUT';
  path: string;
  body?: unknown;
}

const enc = encodeURIComponent;

/** The HTTP route of a call, as docs/studio-api.md lists them. */
export function httpRoute(call: Call): HttpRoute {
  const p = call.params ?? {};
  const s = (k: string) => enc(String(p[k] ?? ''));
  switch (call.op) {
    case 'catalog':
      return { method: 'GET', path: '/api/catalog' };
    case 'search_blocks':
      return { method: 'POST', path: '/api/blocks/search', body: call.body };
    case 'validate':
      return { method: 'POST', path: '/api/validate', body: call.body };
    case 'dry_run':
      return { method: 'POST', path: '/api/dry-run', body: call.body };
    case 'plan_graph':
      return { method: 'POST', path: '/api/graph', body: call.body };
    case 'register':
      return { method: 'POST', path: '/api/register', body: call.body };
    case 'list_designs':
      return { method: 'GET', path: '/api/designs' };
    case 'open_design':
      // `{*file}`: a design may sit in a folder (`templates/finance/x.yaml`); keep its slashes.
      return { method: 'GET', path: `/api/designs/${String(p.file ?? '').split('/').map(enc).join('/')}` };
    case 'list_drafts':
      return { method: 'GET', path: '/api/drafts' };
    case 'open_draft':
      return { method: 'GET', path: `/api/drafts/${s('name')}` };
    case 'save_draft':
      return { method: 'PUT', path: `/api/drafts/${s('name')}`, body: call.body };
    case 'start_run':
      return { method: 'POST', path: '/api/runs', body: call.body };
    case 'stop_run':
      return { method: 'POST', path: `/api/runs/${s('run_id')}/stop` };
    case 'answer_input':
      return { method: 'POST', path: `/api/runs/${s('run_id')}/answer`, body: call.body };
    case 'list_runs': {
      const q = new URLSearchParams();
      for (const k of ['status', 'plan_id', 'limit']) {
        const v = p[k];
        if (v !== undefined && v !== null && v !== '') q.set(k, String(v));
      }
      const qs = q.toString();
      return { method: 'GET', path: `/api/runs${qs ? `?${qs}` : ''}` };
    }
    case 'run_detail':
      return { method: 'GET', path: `/api/runs/${s('run_id')}` };
    case 'get_settings':
      return { method: 'GET', path: '/api/settings' };
    case 'save_settings':
      return { method: 'PUT', path: '/api/settings', body: call.body };
    case 'set_api_key':
      return { method: 'PUT', path: '/api/settings/key', body: call.body };
    case 'check_models':
      return { method: 'POST', path: '/api/settings/check' };
  }
}

/** The arguments of the Tauri command for a call (see the convention at the top). */
export function tauriArgs(call: Call): Record<string, unknown> {
  const args: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(call.params ?? {})) {
    if (v === undefined || v === null || v === '') continue;
    args[camel(k)] = v;
  }
  if (call.body !== undefined) args.request = call.body;
  return args;
}

function camel(k: string): string {
  return k.replace(/_([a-z])/g, (_, c: string) => c.toUpperCase());
}

/** The run-events WebSocket URL for a page served from `location`. */
export function eventsUrl(loc: { protocol: string; host: string }, runId: string, after: number): string {
  const proto = loc.protocol === 'https:' ? 'wss:' : 'ws:';
  return `${proto}//${loc.host}/api/runs/${enc(runId)}/events?after=${after}`;
}

// ---- transports ---------------------------------------------------------------------------

export type Unsubscribe = () => void;

export interface WatchHandlers {
  onEvent: (event: Event) => void;
  /** The stream ended (after `run_finished`, or the connection closed). */
  onEnd?: () => void;
  onError?: (error: ApiError) => void;
}

export interface Transport {
  readonly kind: TransportKind;
  call<T>(call: Call): Promise<T>;
  watch(runId: string, after: number, handlers: WatchHandlers): Unsubscribe;
}

export function httpTransport(fetchImpl: typeof fetch = (...a) => fetch(...a)): Transport {
  return {
    kind: 'http',
    async call<T>(call: Call): Promise<T> {
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
      return data as T;
    },
    watch(runId, after, handlers) {
      let closed = false;
      let finished = false;
      const ws = new WebSocket(eventsUrl(window.location, runId, after));
      ws.onmessage = (m) => {
        try {
          const event = JSON.parse(String(m.data)) as Event;
          handlers.onEvent(event);
          if (event.type === 'run_finished') finished = true;
        } catch {
          // A message that is not an event is ignored (docs/events.md: readers ignore what they don't know).
        }
      };
      ws.onerror = () => {
        if (!closed && !finished) {
          handlers.onError?.(new ApiError('unavailable', 'The live event stream was interrupted.', 'Open the run again from the history to see it.'));
        }
      };
      ws.onclose = () => {
        if (!closed) handlers.onEnd?.();
      };
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
    async call<T>(call: Call): Promise<T> {
      const { invoke } = await core;
      try {
        return await invoke<T>(call.op, tauriArgs(call));
      } catch (e) {
        throw toApiError(e);
      }
    },
    watch(runId, after, handlers) {
      let closed = false;
      void core.then(({ Channel, invoke }) => {
        if (closed) return;
        const channel = new Channel<Event>();
        channel.onmessage = (event) => {
          if (closed) return;
          handlers.onEvent(event);
          if (event.type === 'run_finished') handlers.onEnd?.();
        };
        invoke('run_events', { runId, after, onEvent: channel }).catch((e: unknown) => {
          if (!closed) handlers.onError?.(toApiError(e));
        });
      });
      return () => {
        closed = true;
      };
    },
  };
}

// ---- the typed client ---------------------------------------------------------------------

export function createApi(transport: Transport) {
  const call = <T>(c: Call) => transport.call<T>(c);
  return {
    transport: transport.kind,
    catalog: () => call<BlockInfo[]>({ op: 'catalog' }),
    searchBlocks: (req: SearchRequest) => call<SearchResponse>({ op: 'search_blocks', body: req }),
    validate: (text: string) => call<ValidateResponse>({ op: 'validate', body: { text } satisfies PlanText }),
    dryRun: (text: string) => call<DryRunResponse>({ op: 'dry_run', body: { text } satisfies PlanText }),
    planGraph: (text: string) => call<PlanGraph>({ op: 'plan_graph', body: { text } satisfies PlanText }),
    register: (text: string) => call<RegisterResponse>({ op: 'register', body: { text } satisfies PlanText }),
    listDesigns: () => call<DesignInfo[]>({ op: 'list_designs' }),
    openDesign: (file: string) => call<DesignText>({ op: 'open_design', params: { file } }),
    listDrafts: () => call<DraftInfo[]>({ op: 'list_drafts' }),
    openDraft: (name: string) => call<DraftText>({ op: 'open_draft', params: { name } }),
    saveDraft: (name: string, text: string) =>
      call<DraftInfo>({ op: 'save_draft', params: { name }, body: { text } satisfies PlanText }),
    startRun: (req: StartRunRequest) => call<StartRunResponse>({ op: 'start_run', body: req }),
    stopRun: (runId: string) => call<StopRunResponse>({ op: 'stop_run', params: { run_id: runId } }),
    answerInput: (runId: string, req: AnswerRequest) =>
      call<AnswerResponse>({ op: 'answer_input', params: { run_id: runId }, body: req }),
    listRuns: (q: RunFilter = {}) =>
      call<RunSummary[]>({ op: 'list_runs', params: { status: q.status, plan_id: q.plan_id, limit: q.limit } }),
    runDetail: (runId: string) => call<RunDetail>({ op: 'run_detail', params: { run_id: runId } }),
    watchRun: (runId: string, after: number, handlers: WatchHandlers) => transport.watch(runId, after, handlers),
    getSettings: () => call<StudioSettings>({ op: 'get_settings' }),
    /** `models.key` and `models.problem` are ignored by the server; `saveSettingsBody` drops them. */
    saveSettings: (s: StudioSettings) => call<StudioSettings>({ op: 'save_settings', body: saveSettingsBody(s) }),
    setApiKey: (req: SetKeyRequest) => call<KeyStatus>({ op: 'set_api_key', body: req }),
    checkModels: () => call<ModelCheck>({ op: 'check_models' }),
  };
}

export type Api = ReturnType<typeof createApi>;

/** The settings as `save_settings` takes them: without the read-only `models.key` and `models.problem`. */
export function saveSettingsBody(s: StudioSettings): StudioSettings {
  const { key: _key, problem: _problem, ...models } = s.models;
  return { ...s, models };
}

/** The client every component uses. */
export const api: Api = createApi(transportKind() === 'tauri' ? tauriTransport() : httpTransport());
