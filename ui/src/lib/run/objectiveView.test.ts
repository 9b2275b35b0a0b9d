import { describe, expect, it } from 'vitest';
import { sayRun } from '../i18n/said';
import { format } from '../i18n/messages';
import { recorded } from './fixtures/recorded';
import type { Event as RunEvent } from '../api/types/Event';
import type { StepState } from '../api/types/StepState';
import { actionGroups, actionParts, effectShown, nodeActive, notPassed, objectivesSummary, objectiveViews, requestShown, runNotPassed } from './objectiveView';
import { applyEvent, applyObjective, emptyObjectives, initialRunState, replay, settle, type ObjectivesState, type TrackedAction } from './reducer';

function step(index: number, description: string, patch: Partial<StepState> = {}): StepState {
  return {
    index,
    description,
    step_type: 'objective',
    status: 'pending',
    execution_plan: [],
    parent_index: null,
    blocking_reason: null,
    completion_evidence: null,
    attempts: 0,
    elapsed_ms: 0,
    model_calls: 0,
    input_tokens: 0,
    output_tokens: 0,
    decided_by: null,
    approach: null,
    iteration: 0,
    screenshot: null,
    ...patch,
  };
}

describe('the objectives of a recorded run', () => {
  const run = replay(recorded('portal-recovery'));
  const node = run.nodes.download_statement!;
  const o = node.objectives!;

  it('nests the cookie banner recovery under the objective it was taken for', () => {
    const views = objectiveViews(o, nodeActive(node));
    expect(views.map((v) => [v.number, v.description, v.status])).toEqual([
      [1, 'Sign in with {{PORTAL_USER}} / {{PORTAL_PASSWORD}}', 'completed'],
      [2, 'Open the Statements page', 'completed'],
      [3, 'Download the October 2026 statement', 'completed'],
    ]);
    expect(views[2]!.recoveries).toHaveLength(1);
    expect(views[2]!.recoveries[0]).toMatchObject({
      description: 'Close dialog "We value your privacy" (button "Reject non-essential")',
      blockingReason: 'dialog "We value your privacy"',
      status: 'completed',
    });
    expect(views[0]!.recoveries).toEqual([]);
  });

  it('keeps each step its evidence, screenshot, time, who decided and actions with their locators', () => {
    const [first, , third] = objectiveViews(o, false);
    expect(first!.evidence).toContain('now at http://127.0.0.1:8700/objectives/portal/home.html');
    expect(first!.screenshot).toMatch(/evidence\/01-completed\.png$/);
    expect(first!.elapsedMs).toBeGreaterThan(0);
    expect(first!.decidedBy).toBe('offline');
    expect(first!.approach).toBeNull();
    expect(first!.actions.map((a) => a.tool_name)).toEqual(['fill', 'fill', 'click']);
    expect(first!.actions[0]!.locator).toBe('getByRole("textbox", { name: "Username", exact: true })');
    expect(third!.recoveries[0]!.actions.map((a) => a.locator)).toEqual(['getByRole("button", { name: "Reject non-essential", exact: true })']);
    expect(third!.evidence).toBe('downloaded statement-2026-10.csv (431 bytes)');
  });

  it('says 3/3 with nothing current once done', () => {
    const s = objectivesSummary(o, objectiveViews(o, false));
    expect(s).toMatchObject({ completed: 3, total: 3, fraction: 1, failed: 0, interrupted: 0, currentNumber: null, pass: 1, maxPasses: 3, satisfaction: 1 });
  });

  it('follows the run live: the current objective, then the recovery inside it', () => {
    const events = recorded('portal-recovery');
    let state = initialRunState(['download_statement']);
    const at = (seq: number) => {
      for (const e of events) if (e.seq <= seq) state = applyEvent(state, e);
      const n = state.nodes.download_statement!;
      return { n, views: objectiveViews(n.objectives!, nodeActive(n)) };
    };
    let { n, views } = at(12);
    expect(views[0]!.current).toBe(true);
    expect(views[0]!.active).toBe(true);
    expect(objectivesSummary(n.objectives!, views).currentNumber).toBe(1);
    ({ n, views } = at(25));
    // The recovery is the step in progress; its objective is the active one.
    expect(views[2]!.current).toBe(false);
    expect(views[2]!.active).toBe(true);
    expect(views[2]!.recoveries[0]!.current).toBe(true);
    expect(objectivesSummary(n.objectives!, views)).toMatchObject({ completed: 2, total: 3, currentNumber: 3 });
  });

  it('runs the clock of the step in progress', () => {
    const events = recorded('portal-recovery').filter((e) => e.seq <= 9);
    const n = replay(events).nodes.download_statement!;
    const started = Date.parse(events[events.length - 1]!.at);
    const views = objectiveViews(n.objectives!, true, started + 2500);
    expect(views[0]!.elapsedMs).toBe(2500);
    expect(objectiveViews(n.objectives!, true, null)[0]!.elapsedMs).toBe(0);
  });
});

describe('a run stopped mid-objective', () => {
  it('shows the step in progress as interrupted, not done', () => {
    const events = recorded('portal-recovery').filter((e) => e.seq <= 18);
    const stopped: RunEvent = {
      schema: 4,
      run_id: events[0]!.run_id,
      seq: 19,
      at: '2026-11-27T04:44:11.600Z',
      type: 'run_finished',
      status: 'stopped',
      counts: { succeeded: 0, failed: 0, skipped: 0, retried: 0, model_calls: 0, input_tokens: 0, output_tokens: 0, not_passed: 0 },
      elapsed_ms: 3000,
      reason: 'stopped by the user',
    };
    const n = replay([...events, stopped]).nodes.download_statement!;
    expect(n.interrupted).toBe(true);
    const views = objectiveViews(n.objectives!, nodeActive(n), Date.now());
    expect(views.map((v) => v.status)).toEqual(['completed', 'interrupted', 'pending']);
    expect(views[1]!.current).toBe(false);
    const s = objectivesSummary(n.objectives!, views);
    expect(s).toMatchObject({ completed: 1, interrupted: 1, currentNumber: null });
  });

  it('shows a killed run the same once its record says interrupted', () => {
    const events = recorded('portal-recovery').filter((e) => e.seq <= 18);
    const n = settle(replay(events), 'interrupted').nodes.download_statement!;
    expect(objectiveViews(n.objectives!, nodeActive(n)).map((v) => v.status)).toEqual(['completed', 'interrupted', 'pending']);
  });
});

describe('passes and approaches', () => {
  const o = replay(recorded('shop-revisions')).nodes.export!.objectives!;

  it('shows the approach when not as written, the pass past the first, and the attempts', () => {
    const [, second] = objectiveViews(o, false);
    expect(second).toMatchObject({ status: 'failed', approach: 'reload_page', pass: 2, attempts: 4 });
    expect(second!.failure).toContain('nothing on the page matches "Export"');
    expect(second!.evidence).toBeNull();
  });

  it('groups a step’s actions by attempt and pass', () => {
    const [first, second] = objectiveViews(o, false);
    expect(actionGroups(first!.actions).map((g) => [g.attempt, g.pass, g.actions.length])).toEqual([[1, 1, 2]]);
    expect(actionGroups(second!.actions).map((g) => [g.attempt, g.pass])).toEqual([[4, 2]]);
  });

  it('counts passes and the request’s satisfaction', () => {
    expect(objectivesSummary(o, objectiveViews(o, false))).toMatchObject({ completed: 1, total: 2, failed: 1, pass: 2, maxPasses: 3, satisfaction: 0.4 });
  });
});

describe('a replay from the action cache', () => {
  it('marks the step decided by the cache', () => {
    const o = replay(recorded('shop-escalation')).nodes.export!.objectives!;
    expect(objectiveViews(o, false)[0]!.decidedBy).toBe('cache');
  });
});

describe('objectiveViews', () => {
  const planned = (steps: StepState[]): ObjectivesState =>
    applyObjective(emptyObjectives(), { change: 'planned', step: steps[0]!, action: null, steps, completed: 0, total: steps.filter((s) => s.step_type === 'objective').length });

  it('keeps the codes of the runner\'s own words: a recovery\'s description, a failure by its kind', () => {
    const close = { key: 'recovery_close', params: { blocking_role: 'dialog', blocking: 'Cookies', choice_role: 'button', choice: 'Accept' } } as const;
    const notReached = { key: 'objective_not_reached', params: { kind: 'check_failed', attempts: 2 } } as const;
    const o = planned([
      step(0, 'Open the statement', { status: 'failed', completion_evidence: '"October" not on the page after 5.0 s (after 2 attempts)', evidence_said: notReached }),
      step(1, 'Close dialog "Cookies" (Accept)', { step_type: 'recovery', parent_index: 0, status: 'completed', description_said: close }),
    ]);
    const [view] = objectiveViews(o, false);
    expect(view!.failure).toBe('"October" not on the page after 5.0 s (after 2 attempts)');
    expect(view!.evidenceSaid).toEqual(notReached);
    expect(view!.recoveries[0]!.descriptionSaid).toEqual(close);
    expect(view!.recoveries[0]!.blocking).toEqual({ role: 'dialog', name: 'Cookies' });
    expect(format('ja', 'objectives.element', view!.recoveries[0]!.blocking!)).toBe('ダイアログ「Cookies」');
    expect(sayRun('ja', view!.failure!, view!.evidenceSaid)).toBe('2 回試しても達成できませんでした: 確認する内容がページにありません。');
    expect(sayRun('en', view!.failure!, view!.evidenceSaid)).toBe(view!.failure);
    expect(sayRun('ja', view!.recoveries[0]!.description, view!.recoveries[0]!.descriptionSaid)).toBe('ダイアログ「Cookies」を閉じる（「Accept」ボタン）');
    expect(sayRun('en', view!.recoveries[0]!.description, view!.recoveries[0]!.descriptionSaid)).toBe('Close dialog "Cookies" (button "Accept")');
  });

  it('puts a recovery whose parent is unknown under the objective before it', () => {
    const o = planned([step(0, 'A', { status: 'completed' }), step(1, 'fix', { step_type: 'recovery', parent_index: null }), step(2, 'B')]);
    const views = objectiveViews(o, true);
    expect(views.map((v) => [v.number, v.recoveries.map((r) => r.description)])).toEqual([
      [1, ['fix']],
      [2, []],
    ]);
  });

  it('inserts a recovery in the middle and moves the indexes and parents after it', () => {
    let o = planned([step(0, 'A'), step(1, 'B'), step(2, 'C')]);
    o = applyObjective(o, { change: 'started', step: step(0, 'A', { status: 'in_progress', attempts: 1, iteration: 1 }), action: null, steps: null, completed: 0, total: 3 });
    o = applyObjective(o, {
      change: 'recovery_inserted',
      step: step(1, 'Close the banner', { step_type: 'recovery', status: 'in_progress', parent_index: 0, blocking_reason: 'banner' }),
      action: null,
      steps: null,
      completed: 0,
      total: 3,
    });
    expect(o.steps.map((s) => [s.index, s.description])).toEqual([
      [0, 'A'],
      [1, 'Close the banner'],
      [2, 'B'],
      [3, 'C'],
    ]);
    expect(o.current).toBe(1);
    expect(o.actions).toHaveLength(4);
    const views = objectiveViews(o, true);
    expect(views.map((v) => v.number)).toEqual([1, 2, 3]);
    expect(views[0]!.recoveries[0]!.current).toBe(true);
    expect(views[0]!.active).toBe(true);
  });
});

describe('actionParts', () => {
  const a = (action: string, locator: string | null): Pick<TrackedAction, 'action' | 'locator'> => ({ action, locator });

  it('splits the words around the locator', () => {
    expect(actionParts(a('fill getByRole("textbox", { name: "Username" }) with {{USER}}', 'getByRole("textbox", { name: "Username" })'))).toEqual({
      before: 'fill',
      locator: 'getByRole("textbox", { name: "Username" })',
      after: 'with {{USER}}',
    });
  });

  it('keeps the words whole when there is no locator, or they do not quote it', () => {
    expect(actionParts(a('navigate to /home', null))).toEqual({ before: 'navigate to /home', locator: null, after: '' });
    expect(actionParts(a('press Enter', 'getByRole("textbox")'))).toEqual({ before: 'press Enter', locator: 'getByRole("textbox")', after: '' });
  });
});

describe('what an action started and did to the world', () => {
  it('shows each request with its answer: a status, refused from 400, a failure, or none yet', () => {
    const r = (status: number | null, error: string | null = null) => ({ method: 'POST', url: '/api/answer?form=contact', status, error });
    expect(requestShown(r(200))).toEqual({ call: 'POST /api/answer?form=contact', answer: { kind: 'status', status: 200, refused: false } });
    expect(requestShown(r(402)).answer).toEqual({ kind: 'status', status: 402, refused: true });
    expect(requestShown(r(null, 'net::ERR_CONNECTION_REFUSED')).answer).toEqual({ kind: 'failed', error: 'net::ERR_CONNECTION_REFUSED' });
    expect(requestShown(r(null)).answer).toEqual({ kind: 'pending' });
    expect(requestShown({ method: 'PUT', url: '/api/slow', status: null }).answer).toEqual({ kind: 'pending' });
  });

  it('badges what may have changed something, was not repeated or was refused, never what was safe', () => {
    expect(effectShown({ effect: 'effectful' })).toBe('effectful');
    expect(effectShown({ effect: 'not_repeated' })).toBe('not_repeated');
    expect(effectShown({ effect: 'refused' })).toBe('refused');
    expect(effectShown({ effect: 'safe' })).toBeNull();
  });

  it('reads an action recorded before requests and effects were kept as safe, with no requests', () => {
    const [first] = objectiveViews(replay(recorded('portal-recovery')).nodes.download_statement!.objectives!, false);
    expect(first!.actions.map((a) => [a.tool_name, a.effect, a.requests])).toEqual([
      ['fill', 'safe', []],
      ['fill', 'safe', []],
      ['click', 'safe', []],
    ]);
  });
});

describe('whether a node that ran to its end passed', () => {
  it('passes with its request satisfied, not with a partial result accepted', () => {
    expect(notPassed(replay(recorded('portal-recovery')).nodes.download_statement!)).toBe(false);
    expect(notPassed(replay(recorded('shop-escalation')).nodes.export!)).toBe(true);
  });

  it('is not judged before the node is done', () => {
    let s = initialRunState(['export']);
    for (const e of recorded('shop-escalation').filter((e) => e.seq <= 22)) s = applyEvent(s, e);
    expect(notPassed(s.nodes.export!)).toBe(false);
  });
});

describe('a run in the history', () => {
  const counts = { succeeded: 2, failed: 0, skipped: 0, retried: 0, model_calls: 0, input_tokens: 0, output_tokens: 0, not_passed: 1 };

  it('that succeeded with a step not passed says so, and only then', () => {
    expect(runNotPassed({ status: 'succeeded', counts })).toBe(true);
    expect(runNotPassed({ status: 'succeeded', counts: { ...counts, not_passed: 0 } })).toBe(false);
    expect(runNotPassed({ status: 'failed', counts })).toBe(false);
  });
});

