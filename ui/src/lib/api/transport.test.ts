import { describe, expect, it } from 'vitest';
import { ApiError, createApi, httpRoute, httpTransport, saveSettingsBody, streamUrl, tauriArgs, toApiError, transportKind } from './transport';
import type { StudioSettings } from './types/StudioSettings';

describe('transport selection', () => {
  it('uses Tauri only inside the Tauri web view', () => {
    expect(transportKind({ __TAURI_INTERNALS__: {} })).toBe('tauri');
    expect(transportKind({})).toBe('http');
    expect(transportKind({ __TAURI_INTERNALS__: undefined })).toBe('http');
    expect(transportKind(undefined)).toBe('http');
  });
});

describe('routes', () => {
  it('maps operations to the documented HTTP routes', () => {
    expect(httpRoute({ op: 'validate', args: { request: { text: 'x' } } })).toEqual({ method: 'POST', path: '/api/validate', body: { text: 'x' } });
    expect(httpRoute({ op: 'dry_run', args: { request: { text: '' } } }).path).toBe('/api/dry-run');
    expect(httpRoute({ op: 'plan_graph', args: { request: { text: '' } } }).path).toBe('/api/graph');
    expect(httpRoute({ op: 'search_blocks', args: { request: { query: 'x' } } }).path).toBe('/api/blocks/search');
    expect(httpRoute({ op: 'open_design', args: { file: 'a b.yaml' } }).path).toBe('/api/designs/a%20b.yaml');
    expect(httpRoute({ op: 'open_design', args: { file: 'templates/経理/x.yaml' } }).path).toBe(
      '/api/designs/templates/%E7%B5%8C%E7%90%86/x.yaml',
    );
    expect(httpRoute({ op: 'save_draft', args: { name: 'x', request: { text: '' } } })).toMatchObject({ method: 'PUT', path: '/api/drafts/x' });
    expect(httpRoute({ op: 'stop_run', args: { run_id: 'r1' } })).toEqual({ method: 'POST', path: '/api/runs/r1/stop' });
    expect(httpRoute({ op: 'answer_input', args: { run_id: 'r1', request: { node: 'n', answer: {} } } }).path).toBe('/api/runs/r1/answer');
    expect(httpRoute({ op: 'list_runs', args: { filter: { status: 'failed', plan_id: undefined, limit: 50 } } }).path).toBe(
      '/api/runs?status=failed&limit=50',
    );
    expect(httpRoute({ op: 'list_runs', args: { filter: {} } }).path).toBe('/api/runs');
    expect(httpRoute({ op: 'check_models', args: {} })).toEqual({ method: 'POST', path: '/api/settings/check' });
    expect(httpRoute({ op: 'run_artifact', args: { run_id: 'r1', request: { path: '/h/runs/p/r1/n/evidence/01 done.png' } } })).toEqual({
      method: 'GET',
      path: '/api/runs/r1/artifact?path=%2Fh%2Fruns%2Fp%2Fr1%2Fn%2Fevidence%2F01+done.png',
    });
    expect(httpRoute({ op: 'run_report', args: { run_id: 'r1', request: { format: 'junit' } } })).toEqual({
      method: 'GET',
      path: '/api/runs/r1/report?format=junit',
    });
    expect(httpRoute({ op: 'run_report', args: { run_id: 'r1', request: { format: 'html', lang: 'ja', time_zone: 'Asia/Tokyo' } } }).path).toBe(
      '/api/runs/r1/report?format=html&lang=ja&time_zone=Asia%2FTokyo',
    );
  });

  it('passes Tauri arguments by name, in camelCase', () => {
    expect(tauriArgs({ op: 'answer_input', args: { run_id: 'r1', request: { node: 'n', answer: {} } } })).toEqual({
      runId: 'r1',
      request: { node: 'n', answer: {} },
    });
    expect(tauriArgs({ op: 'list_runs', args: { filter: { limit: 5 } } })).toEqual({ filter: { limit: 5 } });
    expect(tauriArgs({ op: 'catalog', args: {} })).toEqual({});
  });

  it('builds a stream\'s WebSocket URL with its name', () => {
    const call = { op: 'run_events', args: { run_id: 'r1', after: { after: 7 } } } as const;
    expect(streamUrl({ protocol: 'http:', host: '127.0.0.1:4000' }, call, 's1')).toBe(
      'ws://127.0.0.1:4000/api/runs/r1/events?after=7&stream=s1',
    );
    expect(streamUrl({ protocol: 'https:', host: 'h' }, { op: 'run_events', args: { run_id: 'r', after: {} } }, 's2')).toBe(
      'wss://h/api/runs/r/events?stream=s2',
    );
  });
});

describe('errors', () => {
  it('keeps code, message, hint and per-field errors', () => {
    const e = toApiError({ code: 'invalid_input', message: 'bad', hint: 'fix it', fields: [{ field: 'a', message: 'm' }] }, 400);
    expect(e).toBeInstanceOf(ApiError);
    expect([e.code, e.message, e.hint]).toEqual(['invalid_input', 'bad', 'fix it']);
    expect(e.fields).toEqual([{ field: 'a', message: 'm' }]);
  });

  it('reads a body of only per-field errors', () => {
    const e = toApiError({ fields: [{ field: 'month', message: 'required' }] }, 400);
    expect(e.code).toBe('invalid_input');
    expect(e.fields).toHaveLength(1);
  });

  it('reads JSON strings (Tauri) and plain text', () => {
    expect(toApiError('{"code":"not_found","message":"no such plan"}').code).toBe('not_found');
    expect(toApiError('boom', 500)).toMatchObject({ code: 'internal', message: 'boom' });
    expect(toApiError(undefined, 404).code).toBe('not_found');
  });
});

describe('http transport', () => {
  const fakeFetch = (status: number, body: unknown, seen: { url?: string; init?: RequestInit } = {}) =>
    (async (url: string | URL | Request, init?: RequestInit) => {
      seen.url = String(url);
      seen.init = init;
      return new Response(body === undefined ? '' : JSON.stringify(body), { status });
    }) as typeof fetch;

  it('sends JSON and returns the answer', async () => {
    const seen: { url?: string; init?: RequestInit } = {};
    const api = createApi(httpTransport(fakeFetch(200, { valid: true, findings: [] }, seen)));
    await expect(api.validate('id: x')).resolves.toEqual({ valid: true, findings: [] });
    expect(seen.url).toBe('/api/validate');
    expect(seen.init?.method).toBe('POST');
    expect(seen.init?.body).toBe('{"text":"id: x"}');
  });

  it('turns error answers into ApiError', async () => {
    const api = createApi(httpTransport(fakeFetch(404, { code: 'not_found', message: 'no design a.yaml', hint: 'see the list' })));
    await expect(api.openDesign('a.yaml')).rejects.toMatchObject({ code: 'not_found', hint: 'see the list' });
  });

  it('explains a 401 in plain words', async () => {
    const api = createApi(httpTransport(fakeFetch(401, undefined)));
    await expect(api.catalog()).rejects.toMatchObject({ code: 'unauthorized' });
  });

  it('explains a server that does not answer', async () => {
    const api = createApi(httpTransport((async () => { throw new TypeError('Failed to fetch'); }) as typeof fetch));
    await expect(api.listRuns()).rejects.toMatchObject({ code: 'unavailable' });
  });
});

describe('save_settings', () => {
  it('sends the settings without the read-only key status and problem', () => {
    const tier = { model: 'm', temperature: 0.2, max_tokens: 100 };
    const settings: StudioSettings = {
      workspace: '/w',
      browser_path: null,
      locale: 'ja',
      theme: 'dark',
      models: {
        provider: 'openai',
        base_url: null,
        azure_endpoint: null,
        azure_api_version: null,
        tiers: { creative: tier, fast: tier, evaluator: tier },
        embedding_model: null,
        key: { stored: true, hint: 'sk-…abcd', where: 'keyring' },
        problem: 'none really',
      },
      planning: {
        enabled: true,
        strategy: 'chain_of_thought',
        max_subtasks: 20,
        decomposition_level: 'moderate',
        reflection: { enabled: true, trigger_on_error: true, trigger_interval: 3 },
        revision: { max_revisions: 3 },
        history: { storage_type: 'jsonl', directory: null },
        task_loop: { max_iterations: 3, satisfaction_threshold: 0.8 },
      },
      planning_problem: 'settings.yaml: planning.revision.max_revisions: 99 is over 10',
    };
    const body = saveSettingsBody(settings);
    expect(body).not.toHaveProperty('planning_problem');
    expect(body.planning.task_loop).toEqual({ max_iterations: 3, satisfaction_threshold: 0.8 });
    expect(body.models).not.toHaveProperty('key');
    expect(body.models).not.toHaveProperty('problem');
    expect(body.models.provider).toBe('openai');
    expect(settings.models.key?.stored).toBe(true);
  });
});

describe('error codes', () => {
  it('keeps the security layer codes and falls back to the status for unknown ones', () => {
    expect(toApiError({ code: 'forbidden', message: 'bad origin' }, 403).code).toBe('forbidden');
    expect(toApiError({ code: 'something_new', message: 'x' }, 409).code).toBe('conflict');
  });
});
