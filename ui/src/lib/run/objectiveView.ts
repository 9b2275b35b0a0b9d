// What the live objective view shows of a browser node, from the reducer's `ObjectivesState`:
// the objectives as the person wrote them, each with the recovery steps taken for it nested
// inside, its actions, evidence, screenshot, time and tokens; and the "2/3" summary. Pure: the
// components only draw it. A live run and a replayed one go through the same functions.
import type { ActionEffect } from '../api/types/ActionEffect';
import type { Approach } from '../api/types/Approach';
import type { DecidedBy } from '../api/types/DecidedBy';
import type { EvidencePart } from '../api/types/EvidencePart';
import type { RequestSeen } from '../api/types/RequestSeen';
import type { RunMessage } from '../api/types/RunMessage';
import type { RunSummary } from '../api/types/RunSummary';
import type { StepState } from '../api/types/StepState';
import type { StepStatus } from '../api/types/StepStatus';
import type { NodeState, ObjectivesState, TrackedAction } from './reducer';

/** A step's state as shown: the engine's, or `interrupted` when the run ended during it. */
export type ShownStatus = StepStatus | 'interrupted';

export interface StepView {
  /** Its position in the progress (recoveries included). */
  index: number;
  description: string;
  status: ShownStatus;
  /** The step being worked on now. */
  current: boolean;
  attempts: number;
  /** The task loop's pass it was last worked in (1 for the first). */
  pass: number;
  /** How its last attempt approached it, when not as written. */
  approach: Approach | null;
  decidedBy: DecidedBy | null;
  /** What the page showed that proves it (completed), or why not (failed). */
  evidence: string | null;
  failure: string | null;
  /** `description` and the evidence or failure coded, when the runner said them in its own words. */
  descriptionSaid: RunMessage | null;
  evidenceSaid: RunMessage | null;
  /** A completed step's evidence piece by piece, each coded where the runner wrote it. */
  evidenceParts: EvidencePart[];
  /** The evidence screenshot, an artifact path. */
  screenshot: string | null;
  /** Time spent, a running clock while it is in progress. */
  elapsedMs: number;
  modelCalls: number;
  inputTokens: number;
  outputTokens: number;
  /** The actions chosen (in words), and those carried out. */
  plan: string[];
  actions: TrackedAction[];
}

export interface RecoveryView extends StepView {
  /** What was in the way. */
  blockingReason: string | null;
  /** What was in the way by its role and name, when the runner coded it (`blockingReason` in words). */
  blocking: { role: string; name: string } | null;
}

export interface ObjectiveView extends StepView {
  /** 1, 2, 3 … as the person numbered the steps. */
  number: number;
  recoveries: RecoveryView[];
  /** It or one of its recovery steps is being worked on now. */
  active: boolean;
}

export interface ObjectivesSummary {
  completed: number;
  total: number;
  /** completed / total, 0 when there is nothing to do. */
  fraction: number;
  failed: number;
  interrupted: number;
  /** The number of the objective being worked on, when one is. */
  currentNumber: number | null;
  /** The task loop's pass under way and the most it may take (0: not known). */
  pass: number;
  maxPasses: number;
  /** The request's satisfaction after the last pass judged, 0–1. */
  satisfaction: number | null;
  /** Whether it met the threshold. */
  satisfied: boolean;
  /** Waiting for the person's decision. */
  escalated: boolean;
}

/** Whether the node is still at work (its steps in progress are really in progress). */
export function nodeActive(node: Pick<NodeState, 'status'>): boolean {
  return node.status === 'running' || node.status === 'retrying' || node.status === 'waiting';
}

/**
 * The step being worked on: the one the last event put in progress, or else the last step in
 * progress (an objective stays in progress while a recovery step for it runs).
 */
export function currentIndex(o: ObjectivesState): number | null {
  if (o.current !== null && o.steps[o.current]?.status === 'in_progress') return o.current;
  for (let i = o.steps.length - 1; i >= 0; i--) if (o.steps[i]!.status === 'in_progress') return i;
  return null;
}

function stepView(o: ObjectivesState, s: StepState, active: boolean, now: number | null, current: number | null): StepView {
  const inProgress = s.status === 'in_progress';
  const started = o.startedAt[s.index] ?? null;
  const running = inProgress && active && started !== null && now !== null ? Math.max(0, now - started) : 0;
  const completed = s.status === 'completed';
  return {
    index: s.index,
    description: s.description,
    status: inProgress && !active ? 'interrupted' : s.status,
    current: inProgress && active && s.index === current,
    attempts: s.attempts,
    pass: s.iteration,
    approach: s.approach && s.approach !== 'as_written' ? s.approach : null,
    decidedBy: s.decided_by,
    evidence: completed ? s.completion_evidence : null,
    failure: s.status === 'failed' ? s.completion_evidence : null,
    descriptionSaid: s.description_said ?? null,
    evidenceSaid: s.evidence_said ?? null,
    evidenceParts: completed ? (s.evidence_parts ?? []) : [],
    screenshot: s.screenshot,
    elapsedMs: s.elapsed_ms + running,
    modelCalls: s.model_calls,
    inputTokens: s.input_tokens,
    outputTokens: s.output_tokens,
    plan: s.execution_plan,
    actions: o.actions[s.index] ?? [],
  };
}

/**
 * The objectives, each with its recovery steps nested (a recovery goes under its
 * `parent_index`; one whose parent is unknown under the objective before it).
 * `active`: the node is still at work — otherwise a step left in progress was interrupted.
 * `now` (ms since the epoch) runs the clock of the step in progress.
 */
export function objectiveViews(o: ObjectivesState, active: boolean, now: number | null = null): ObjectiveView[] {
  const out: ObjectiveView[] = [];
  const byIndex = new Map<number, ObjectiveView>();
  const current = currentIndex(o);
  for (const s of o.steps) {
    if (s.step_type !== 'objective') continue;
    const view: ObjectiveView = { ...stepView(o, s, active, now, current), number: out.length + 1, recoveries: [], active: false };
    out.push(view);
    byIndex.set(s.index, view);
  }
  let previous: ObjectiveView | null = null;
  for (const s of o.steps) {
    if (s.step_type === 'objective') {
      previous = byIndex.get(s.index) ?? previous;
      continue;
    }
    const parent = (s.parent_index !== null ? byIndex.get(s.parent_index) : undefined) ?? previous ?? out[0];
    if (!parent) continue;
    parent.recoveries.push({ ...stepView(o, s, active, now, current), blockingReason: s.blocking_reason, blocking: blockingOf(s) });
  }
  for (const v of out) v.active = v.current || v.recoveries.some((r) => r.current);
  return out;
}

export function objectivesSummary(o: ObjectivesState, views: ObjectiveView[]): ObjectivesSummary {
  const total = o.total || views.length;
  const completed = Math.min(o.completed, total);
  return {
    completed,
    total,
    fraction: total > 0 ? completed / total : 0,
    failed: views.filter((v) => v.status === 'failed').length,
    interrupted: views.filter((v) => v.status === 'interrupted' || v.recoveries.some((r) => r.status === 'interrupted')).length,
    currentNumber: views.find((v) => v.active)?.number ?? null,
    pass: o.iteration,
    // Passes the person asked for come on top of the ones allowed.
    maxPasses: Math.max(o.maxIterations, o.iteration),
    satisfaction: o.satisfaction,
    satisfied: o.satisfied === true,
    escalated: o.escalation !== null,
  };
}

export interface ActionGroup {
  attempt: number;
  pass: number;
  actions: TrackedAction[];
}

/** A step's actions by attempt (and pass), in order: one group when there was one attempt. */
export function actionGroups(actions: TrackedAction[]): ActionGroup[] {
  const groups: ActionGroup[] = [];
  for (const a of actions) {
    const last = groups[groups.length - 1];
    if (last && last.attempt === a.attempt && last.pass === a.iteration) last.actions.push(a);
    else groups.push({ attempt: a.attempt, pass: a.iteration, actions: [a] });
  }
  return groups;
}

/**
 * An action's words around its locator: `fill getByRole(…) with {{USER}}` →
 * `{before: 'fill', locator: 'getByRole(…)', after: 'with {{USER}}'}`; without a locator (or one
 * the words do not quote) everything is `before`.
 */
export function actionParts(a: Pick<TrackedAction, 'action' | 'locator'>): { before: string; locator: string | null; after: string } {
  const at = a.locator ? a.action.indexOf(a.locator) : -1;
  if (!a.locator || at < 0) return { before: a.action, locator: a.locator ?? null, after: '' };
  return { before: a.action.slice(0, at).trim(), locator: a.locator, after: a.action.slice(at + a.locator.length).trim() };
}

/** What an action did to the world, when it is worth a badge: anything but safe. */
export function effectShown(a: Pick<TrackedAction, 'effect'>): Exclude<ActionEffect, 'safe'> | null {
  return a.effect === 'safe' ? null : a.effect;
}

/** How a request an action started was answered: a status (refused when 4xx or 5xx), a failure, or not yet. */
export type RequestAnswer = { kind: 'status'; status: number; refused: boolean } | { kind: 'failed'; error: string } | { kind: 'pending' };

/** A request as the view shows it: `POST /api/answer` and how it was answered. */
export function requestShown(r: RequestSeen): { call: string; answer: RequestAnswer } {
  const call = `${r.method} ${r.url}`;
  if (r.status !== null) return { call, answer: { kind: 'status', status: r.status, refused: r.status >= 400 } };
  if (r.error) return { call, answer: { kind: 'failed', error: r.error } };
  return { call, answer: { kind: 'pending' } };
}

/**
 * A browser node that ran to its end without passing: an objective not done (reported as it was)
 * or the request judged unsatisfied. Read from the objectives and the task loop's last judgement,
 * not from the node's outputs, which carry only what the plan names in `out`.
 */
export function notPassed(node: Pick<NodeState, 'status' | 'objectives'>): boolean {
  const o = node.objectives;
  if (node.status !== 'done' || o === null) return false;
  if (o.satisfied !== null) return !o.satisfied;
  return o.steps.some((s) => s.step_type === 'objective' && s.status !== 'completed');
}

/**
 * A run the history lists as succeeded whose steps did not all pass (a browser step's objectives
 * unmet, the partial result accepted): its line says so rather than "succeeded".
 */
export function runNotPassed(r: Pick<RunSummary, 'status' | 'counts'>): boolean {
  return r.status === 'succeeded' && r.counts.not_passed > 0;
}

/** The element a recovery step took out of the way, as its coded description names it. */
function blockingOf(s: StepState): { role: string; name: string } | null {
  const said = s.description_said;
  return said?.key === 'recovery_close' && said.params.blocking_role ? { role: said.params.blocking_role, name: said.params.blocking } : null;
}
