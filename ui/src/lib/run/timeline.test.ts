import { describe, expect, it } from 'vitest';
import { recorded } from './fixtures/recorded';
import { applyEvent, initialRunState, replay } from './reducer';
import { objectiveRef, passScores, timeline, type TimelineEntry } from './timeline';

const kinds = (entries: TimelineEntry[]) => entries.map((e) => e.kind);

describe('the planning history of a run that was satisfied', () => {
  const entries = timeline(replay(recorded('portal-recovery')).nodes.download_statement!.objectives!);

  it('reads the plan, the checks, the pass, its satisfaction and the end, in order', () => {
    expect(kinds(entries)).toEqual(['plan', 'pass', 'reflection', 'reflection', 'evaluated', 'reflection', 'finished']);
    const plan = entries.find((e) => e.kind === 'plan')!;
    if (plan.kind !== 'plan') throw new Error('no plan');
    expect(plan.mainObjective).toBe('Download the October 2026 statement (3 steps in all)');
    expect(plan.successCriteria).toHaveLength(3);
    expect(plan.subtasks).toBe(3);
    expect(plan.madeBy).toBe('offline');
    expect(entries.find((e) => e.kind === 'finished')).toMatchObject({ satisfied: true, satisfaction: 1 });
  });

  it('folds away routine checks: all-well checks and the pass’s own reflection', () => {
    expect(entries.filter((e) => e.routine).map((e) => (e.kind === 'reflection' ? e.trigger : e.kind))).toEqual(['interval', 'interval', 'iteration']);
    const check = entries.find((e) => e.kind === 'reflection')!;
    expect(check).toMatchObject({ trigger: 'interval', actions: 3, status: 'success', objective: { number: 1 } });
  });

  it('gives each pass its satisfaction', () => {
    expect(passScores(entries)).toEqual([{ iteration: 1, satisfaction: 1, satisfied: true }]);
  });
});

describe('revisions and passes', () => {
  const entries = timeline(replay(recorded('shop-revisions')).nodes.export!.objectives!);

  it('shows each revision with the execution plan before and after', () => {
    const revisions = entries.filter((e) => e.kind === 'revision');
    expect(revisions.map((r) => r.number)).toEqual([1, 2, 3]);
    const first = revisions[0]!;
    expect(first.changes).toHaveLength(1);
    expect(first.changes[0]).toMatchObject({
      objective: { number: 2, description: 'Click the Export button' },
      kind: 'wait_added',
      approach: 'wait_for_page',
      before: ['click Export'],
      after: ['wait for the page to settle (up to 10 s), then look again', 'click Export'],
    });
  });

  it('reads a failed attempt’s reflection as not routine', () => {
    const failed = entries.find((e) => e.kind === 'reflection' && e.trigger === 'error')!;
    expect(failed).toMatchObject({ routine: false, status: 'failure', attempt: 1, objective: { number: 2 } });
  });

  it('has the continuation plan of pass 2 and each pass’s satisfaction', () => {
    const plans = entries.filter((e) => e.kind === 'plan');
    expect(plans.map((p) => p.iteration)).toEqual([1, 2]);
    expect(plans[1]!.failedApproaches.length).toBeGreaterThan(0);
    expect(passScores(entries)).toEqual([
      { iteration: 1, satisfaction: 0.4, satisfied: false },
      { iteration: 2, satisfaction: 0.4, satisfied: false },
    ]);
    expect(entries[entries.length - 1]).toMatchObject({ kind: 'finished', satisfied: false, choice: null });
  });
});

describe('an escalation and the person’s choices', () => {
  const o = replay(recorded('shop-escalation')).nodes.export!.objectives!;
  const entries = timeline(o);

  it('shows the escalation, the analysis asked for, the second question and the accepted partial result', () => {
    const tail = entries.filter((e) => ['escalated', 'answered', 'finished', 'restart'].includes(e.kind));
    expect(tail.map((e) => (e.kind === 'answered' ? `answered:${e.choice}` : e.kind))).toEqual([
      'escalated',
      'restart',
      'escalated',
      'answered:technical_analysis',
      'escalated',
      'restart',
      'escalated',
      'answered:technical_analysis',
      'escalated',
      'answered:accept_partial',
      'finished',
    ]);
    const again = tail.filter((e) => e.kind === 'escalated').pop()!;
    expect(again).toMatchObject({ satisfaction: 0.4, choices: ['more_detail', 'alternative_approach', 'accept_partial', 'cancel'] });
    expect(again.kind === 'escalated' && again.analysis).toMatch(/analysis-2\.md$/);
    expect(tail[tail.length - 1]).toMatchObject({ kind: 'finished', choice: 'accept_partial', satisfied: false });
  });

  it('closes the escalation once answered', () => {
    expect(o.escalation).toBeNull();
  });

  it('keeps the person’s detail with their choice, once (the answer and the task event say the same)', () => {
    let s = initialRunState(['export']);
    const events = recorded('shop-escalation').filter((e) => e.seq <= 22);
    for (const e of events) s = applyEvent(s, e);
    expect(s.nodes.export!.objectives!.escalation).not.toBeNull();
    const base = { schema: 4, run_id: events[0]!.run_id, at: '2026-11-27T04:45:30.000Z' };
    s = applyEvent(s, { ...base, seq: 23, type: 'input_received', node: 'export', answer: { choice: 'more_detail', detail: 'Click "Add to cart" on the red widget' } });
    s = applyEvent(s, {
      ...base,
      seq: 24,
      type: 'progress',
      node: 'export',
      progress: { kind: 'task', change: 'answered', iteration: 1, max_iterations: 1, satisfaction: null, report: null, choice: 'more_detail' },
    });
    const answers = timeline(s.nodes.export!.objectives!).filter((e) => e.kind === 'answered');
    expect(answers).toEqual([expect.objectContaining({ choice: 'more_detail', detail: 'Click "Add to cart" on the red widget' })]);
  });
});

describe('a run stopped while the person is asked', () => {
  it('no longer shows the node as asking', () => {
    let s = initialRunState(['export']);
    const events = recorded('shop-escalation').filter((e) => e.seq <= 22);
    for (const e of events) s = applyEvent(s, e);
    expect(s.nodes.export!.objectives!.escalation).not.toBeNull();
    const base = { schema: 4, run_id: events[0]!.run_id, at: '2026-11-27T04:45:30.000Z' };
    s = applyEvent(s, { ...base, seq: 23, type: 'node_failed', node: 'export', error: 'the run was stopped', elapsed_ms: 10, attempts: 1, timed_out: false, continued: false });
    expect(s.nodes.export!.objectives!.escalation).toBeNull();
  });
});

describe('objectiveRef', () => {
  it('names an objective by its number, whatever recovery steps stand before it', () => {
    const o = replay(recorded('portal-recovery')).nodes.download_statement!.objectives!;
    expect(o.steps.some((s) => s.step_type === 'recovery')).toBe(true);
    expect(objectiveRef(o.steps, 3)).toEqual({ number: 3, description: 'Download the October 2026 statement' });
    expect(objectiveRef(o.steps, 1)).toEqual({ number: 1, description: 'Sign in with {{PORTAL_USER}} / {{PORTAL_PASSWORD}}' });
    expect(objectiveRef(o.steps, null)).toBeNull();
    expect(objectiveRef(o.steps, 0)).toBeNull();
    expect(objectiveRef(o.steps, 42)).toBeNull();
  });
});
