import { describe, expect, it } from 'vitest';
import type { Event as RunEvent } from '../api/types/Event';

/** An event without its envelope (`schema`, `run_id`, `seq`, `at`), one variant at a time. */
type RunEventBody = RunEvent extends infer E ? (E extends unknown ? Omit<E, 'schema' | 'run_id' | 'seq' | 'at'> : never) : never;
import {
  applyEvent,
  graphIdOf,
  graphStatuses,
  initialRunState,
  isFinished,
  pendingInputs,
  progress,
  replay,
  settle,
  shownNodeStatus,
  withoutQuestions,
} from './reducer';

let seq = 0;
function ev(body: RunEventBody, at = '2025-03-14T09:26:53.000Z'): RunEvent {
  seq += 1;
  return { schema: 1, run_id: 'r1', seq, at, ...body } as RunEvent;
}

function script(): RunEvent[] {
  seq = 0;
  return [
    ev({ type: 'run_started', plan_id: 'p', plan_version: '1', plan_path: null, vars: { month: '2025-03' }, workdir: '/w', resumed_after: null }),
    ev({ type: 'node_started', node: 'read', attempt: 1, inputs: { path: 'a.csv' } }, '2025-03-14T09:26:53.000Z'),
    ev({ type: 'log', node: 'read', level: 'info', message: 'reading' }),
    ev({ type: 'node_finished', node: 'read', elapsed_ms: 41, attempts: 1, outputs: { rows: 2 } }),
    ev({ type: 'node_started', node: 'fetch', attempt: 1, inputs: {} }),
    ev({ type: 'node_retried', node: 'fetch', attempt: 1, error: 'HTTP 503', backoff_ms: 10 }),
    ev({ type: 'node_started', node: 'fetch', attempt: 2, inputs: {} }),
    ev({ type: 'node_failed', node: 'fetch', elapsed_ms: 300, attempts: 2, error: 'HTTP 503', timed_out: false, continued: true }),
    ev({ type: 'node_skipped', node: 'save', reason: 'when is false' }),
    ev({ type: 'log', node: null, level: 'warn', message: 'engine says' }),
    ev({ type: 'run_finished', status: 'failed', counts: { succeeded: 1, failed: 1, skipped: 1, retried: 1, model_calls: 0, input_tokens: 0, output_tokens: 0, not_passed: 0 }, elapsed_ms: 500, reason: 'fetch failed' }),
  ];
}

describe('applyEvent', () => {
  it('starts with the plan nodes pending', () => {
    const s = initialRunState(['read', 'save']);
    expect(s.order).toEqual(['read', 'save']);
    expect(s.nodes.read!.status).toBe('pending');
    expect(isFinished(s)).toBe(false);
  });

  it('follows nodes through their states', () => {
    const events = script();
    let s = initialRunState(['read', 'fetch', 'save']);
    s = applyEvent(s, events[0]!);
    expect(s.status).toBe('running');
    expect(s.planId).toBe('p');
    expect(s.vars).toEqual({ month: '2025-03' });
    s = applyEvent(s, events[1]!);
    expect(s.nodes.read!.status).toBe('running');
    expect(s.nodes.read!.startedAt).toBe(Date.parse('2025-03-14T09:26:53.000Z'));
    s = applyEvent(s, events[2]!);
    expect(s.nodes.read!.logs.map((l) => l.message)).toEqual(['reading']);
    s = applyEvent(s, events[3]!);
    expect(s.nodes.read).toMatchObject({ status: 'done', elapsedMs: 41, outputs: { rows: 2 } });
    s = applyEvent(applyEvent(s, events[4]!), events[5]!);
    expect(s.nodes.fetch).toMatchObject({ status: 'retrying', error: 'HTTP 503' });
    s = applyEvent(s, events[6]!);
    expect(s.nodes.fetch).toMatchObject({ status: 'running', attempt: 2 });
    s = applyEvent(s, events[7]!);
    expect(s.nodes.fetch).toMatchObject({ status: 'failed', continued: true, attempt: 2 });
  });

  it('does not change the state it is given', () => {
    const events = script();
    const s0 = initialRunState(['read']);
    const frozen = JSON.stringify(s0);
    applyEvent(s0, events[0]!);
    applyEvent(s0, events[1]!);
    expect(JSON.stringify(s0)).toBe(frozen);
  });

  it('ignores events already applied (replay then live overlap)', () => {
    const events = script();
    const once = replay(events);
    const twice = events.reduce(applyEvent, once);
    expect(twice).toBe(once);
  });

  it('replays a finished run to its final state', () => {
    const s = replay(script(), ['read', 'fetch', 'save']);
    expect(s.status).toBe('failed');
    expect(s.reason).toBe('fetch failed');
    expect(s.nodes.save).toMatchObject({ status: 'skipped', reason: 'when is false' });
    expect(s.logs.map((l) => l.message)).toEqual(['engine says']);
    expect(progress(s)).toEqual({ done: 3, total: 3 });
    expect(isFinished(s)).toBe(true);
    expect(s.lastSeq).toBe(11);
  });

  it('replays events given out of order', () => {
    const events = script().reverse();
    expect(replay(events).status).toBe('failed');
  });

  it('adds nodes it had not seen, in order (loop iterations)', () => {
    seq = 0;
    const s = replay([
      ev({ type: 'node_started', node: 'each[0]/x', attempt: 1, inputs: {} }),
      ev({ type: 'node_started', node: 'each[1]/x', attempt: 1, inputs: {} }),
      ev({ type: 'node_finished', node: 'each[0]/x', elapsed_ms: 1, attempts: 1, outputs: {} }),
    ], ['each']);
    expect(s.order).toEqual(['each', 'each[0]/x', 'each[1]/x']);
    expect(graphStatuses(s)['each/x']).toBe('running');
  });

  it('asks for input and resumes on the answer', () => {
    seq = 0;
    let s = replay([
      ev({ type: 'run_started', plan_id: 'p', plan_version: '1', plan_path: null, vars: {}, workdir: '/w', resumed_after: null }),
      ev({ type: 'node_started', node: 'approve', attempt: 1, inputs: {} }),
      ev({ type: 'input_requested', node: 'approve', request: { mode: 'confirm', message: 'Save?', options: {} } }),
    ]);
    expect(s.nodes.approve!.status).toBe('waiting');
    expect(pendingInputs(s).map((n) => n.path)).toEqual(['approve']);
    s = applyEvent(s, ev({ type: 'input_received', node: 'approve', answer: { approved: true } }));
    expect(s.nodes.approve).toMatchObject({ status: 'running', request: null, answer: { approved: true } });
    expect(pendingInputs(s)).toEqual([]);
  });

  it('answers only the question a resumed run asks again, not the one it recorded before', () => {
    seq = 0;
    const recorded = replay([
      ev({ type: 'run_started', plan_id: 'p', plan_version: '1', plan_path: null, vars: {}, workdir: '/w', resumed_after: null }),
      ev({ type: 'node_started', node: 'approve', attempt: 1, inputs: {} }),
      ev({ type: 'input_requested', node: 'approve', request: { mode: 'confirm', message: 'Save?', options: {} } }),
    ]);
    const resumed = withoutQuestions(recorded);
    expect(pendingInputs(resumed)).toEqual([]);
    expect(resumed.nodes.approve!.status).toBe('waiting');
    const askedAgain = applyEvent(resumed, ev({ type: 'input_requested', node: 'approve', request: { mode: 'confirm', message: 'Save?', options: {} } }));
    expect(pendingInputs(askedAgain).map((n) => n.path)).toEqual(['approve']);
  });

  it('marks nodes in flight as interrupted when the run stops', () => {
    seq = 0;
    const s = replay([
      ev({ type: 'run_started', plan_id: 'p', plan_version: '1', plan_path: null, vars: {}, workdir: '/w', resumed_after: null }),
      ev({ type: 'node_started', node: 'slow', attempt: 1, inputs: {} }),
      ev({ type: 'run_finished', status: 'stopped', counts: { succeeded: 0, failed: 0, skipped: 0, retried: 0, model_calls: 0, input_tokens: 0, output_tokens: 0, not_passed: 0 }, elapsed_ms: 9, reason: 'stopped by the user' }),
    ]);
    expect(s.status).toBe('stopped');
    expect(s.nodes.slow).toMatchObject({ status: 'pending', interrupted: true });
  });

  it('keeps a waiting node waiting when the run pauses for input', () => {
    seq = 0;
    const s = replay([
      ev({ type: 'input_requested', node: 'ask', request: { mode: 'inquire', message: 'Why?', requirements: [], context: null } }),
      ev({ type: 'run_finished', status: 'waiting_for_input', counts: { succeeded: 0, failed: 0, skipped: 0, retried: 0, model_calls: 0, input_tokens: 0, output_tokens: 0, not_passed: 0 }, elapsed_ms: 9, reason: null }),
    ]);
    expect(s.nodes.ask!.status).toBe('waiting');
  });

  it('ignores unknown event types', () => {
    const s = initialRunState();
    const next = applyEvent(s, { schema: 1, run_id: 'r', seq: 1, at: '', type: 'something_new' } as unknown as RunEvent);
    expect(next.lastSeq).toBe(1);
    expect(next.nodes).toEqual({});
  });

  it('counts model calls and artifacts per node', () => {
    seq = 0;
    const s = replay([
      ev({ type: 'model_call', node: 'c', tier: 'fast', provider: 'offline', model: 'm', messages: [], response: '{}', error: null, input_tokens: 1, output_tokens: 1, latency_ms: 1 }),
      ev({ type: 'artifact', node: 'c', path: '/o.xlsx', kind: 'file', bytes: 10 }),
    ]);
    expect(s.nodes.c!.modelCalls).toBe(1);
    expect(s.nodes.c!.artifacts).toEqual([{ path: '/o.xlsx', kind: 'file', bytes: 10 }]);
  });
});

describe('objectives', () => {
  type Status = 'pending' | 'in_progress' | 'completed' | 'failed' | 'skipped';
  const step = (index: number, description: string, status: Status, type: 'objective' | 'recovery' = 'objective', parent: number | null = null) => ({
    index,
    description,
    step_type: type,
    status,
    execution_plan: [],
    parent_index: parent,
    blocking_reason: type === 'recovery' ? 'dialog "We value your privacy"' : null,
    completion_evidence: null,
    attempts: status === 'pending' ? 0 : 1,
    elapsed_ms: 0,
    model_calls: 0,
    input_tokens: 0,
    output_tokens: 0,
    decided_by: null,
    approach: null,
    iteration: status === 'pending' ? 0 : 1,
    screenshot: null,
  });
  const objective = (change: string, s: ReturnType<typeof step>, completed: number, extra: object = {}) =>
    ev({ type: 'progress', node: 'portal', progress: { kind: 'objective', change, step: s, action: null, steps: null, completed, total: 3, ...extra } } as RunEventBody);

  it('follows the checklist with a recovery step inserted and the counts of objectives only', () => {
    seq = 0;
    const planned = [step(0, 'Sign in', 'pending'), step(1, 'Open Statements', 'pending'), step(2, 'Download October', 'pending')];
    const s = replay([
      objective('planned', planned[0]!, 0, { steps: planned }),
      objective('started', step(0, 'Sign in', 'in_progress'), 0),
      objective('completed', step(0, 'Sign in', 'completed'), 1),
      objective('started', step(1, 'Open Statements', 'in_progress'), 1),
      objective('recovery_inserted', step(2, 'Close the banner', 'pending', 'recovery', 1), 1),
      objective('action_executed', step(2, 'Close the banner', 'in_progress', 'recovery', 1), 1, {
        action: { action: 'click button "Reject non-essential"', tool_name: 'click', locator: 'getByRole("button", { name: "Reject non-essential" })', result: 'done', timestamp: 't' },
      }),
      objective('completed', step(2, 'Close the banner', 'completed', 'recovery', 1), 1),
      objective('completed', step(1, 'Open Statements', 'completed'), 2),
    ]);
    const o = s.nodes.portal!.objectives!;
    expect(o.steps.map((x) => [x.index, x.description, x.status])).toEqual([
      [0, 'Sign in', 'completed'],
      [1, 'Open Statements', 'completed'],
      [2, 'Close the banner', 'completed'],
      [3, 'Download October', 'pending'],
    ]);
    expect([o.completed, o.total]).toEqual([2, 3]);
    expect(o.lastAction).toBe('click button "Reject non-essential"');
  });

  it('keeps the requests an action started and its effect', () => {
    seq = 0;
    const send = {
      action: 'click button "Send message"',
      tool_name: 'click',
      locator: null,
      result: 'done',
      succeeded: true,
      timestamp: 't',
      requests: [{ method: 'POST', url: '/api/answer', status: 200 }],
      effect: 'effectful',
    };
    const s = replay([
      objective('planned', step(0, 'Send the message', 'pending'), 0, { steps: [step(0, 'Send the message', 'pending')] }),
      objective('action_executed', step(0, 'Send the message', 'in_progress'), 0, { action: send }),
      objective('action_executed', step(0, 'Send the message', 'in_progress'), 0, {
        action: { ...send, result: 'not repeated: it was already done once', succeeded: false, requests: [], effect: 'not_repeated' },
      }),
    ]);
    const actions = s.nodes.portal!.objectives!.actions[0]!;
    expect(actions.map((a) => [a.effect, a.requests])).toEqual([
      ['effectful', [{ method: 'POST', url: '/api/answer', status: 200 }]],
      ['not_repeated', []],
    ]);
  });

  it('leaves progress of other kinds alone', () => {
    seq = 0;
    const s = replay([ev({ type: 'progress', node: 'read', progress: { kind: 'items', done: 1, total: 3, unit: 'documents' } })]);
    expect(s.nodes.read?.objectives ?? null).toBeNull();
  });
});

describe('interrupted nodes', () => {
  it('says a node cut short by the end of the run was interrupted, not pending', () => {
    seq = 0;
    const s = replay([
      ev({ type: 'run_started', plan_id: 'p', plan_version: '1', plan_path: null, vars: {}, workdir: '/w', resumed_after: null }),
      ev({ type: 'node_started', node: 'portal', attempt: 1, inputs: {} }),
      ev({ type: 'run_finished', status: 'stopped', counts: { succeeded: 0, failed: 0, skipped: 0, retried: 0, model_calls: 0, input_tokens: 0, output_tokens: 0, not_passed: 0 }, elapsed_ms: 5, reason: 'stopped by the user' }),
    ], ['portal', 'save']);
    expect(shownNodeStatus(s.nodes.portal!)).toBe('interrupted');
    expect(shownNodeStatus(s.nodes.save!)).toBe('pending');
  });

  it('settles a record without run_finished with the status its summary gives', () => {
    seq = 0;
    const open = replay([
      ev({ type: 'run_started', plan_id: 'p', plan_version: '1', plan_path: null, vars: {}, workdir: '/w', resumed_after: null }),
      ev({ type: 'node_started', node: 'portal', attempt: 1, inputs: {} }),
    ]);
    expect(open.status).toBe('running');
    const s = settle(open, 'interrupted');
    expect(s.status).toBe('interrupted');
    expect(shownNodeStatus(s.nodes.portal!)).toBe('interrupted');
    expect(settle(open, 'running')).toMatchObject({ status: 'running' });
  });
});

describe('graphIdOf', () => {
  it('strips loops and calls', () => {
    expect(graphIdOf('read')).toBe('read');
    expect(graphIdOf('each[3]/extract')).toBe('each/extract');
    expect(graphIdOf('outer[2]/inner[0]/fetch')).toBe('outer/inner/fetch');
    expect(graphIdOf('each[2]')).toBe('each');
  });
});
