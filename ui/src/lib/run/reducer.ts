// The run state, built from events by one pure reducer: the same for a live run (events from the
// stream) and for a recorded one (`run_detail`'s events replayed).
import type { Counts } from '../api/types/Counts';
import type { Event } from '../api/types/Event';
import type { ExecutedAction } from '../api/types/ExecutedAction';
import type { ObjectiveEvent } from '../api/types/ObjectiveEvent';
import type { PlanningEntry } from '../api/types/PlanningEntry';
import type { SituationReport } from '../api/types/SituationReport';
import type { TaskEvent } from '../api/types/TaskEvent';
import type { RunMessage } from '../api/types/RunMessage';
import type { RunStatus } from '../api/types/RunStatus';
import type { StepState } from '../api/types/StepState';
import type { JsonValue as Json } from '../api/types/serde_json/JsonValue';
import type { InputRequest } from './inputRequest';

export type NodeStatus = 'pending' | 'running' | 'done' | 'skipped' | 'failed' | 'retrying' | 'waiting';

export interface LogLine {
  seq: number;
  at: string;
  level: string;
  message: string;
  /** The line as a code with parameters, when the engine wrote it (`i18n/said.ts` says it). */
  said: RunMessage | null;
  node: string | null;
}

export interface NodeState {
  path: string;
  status: NodeStatus;
  attempt: number;
  /** When the first attempt started (ms since the epoch), for the running clock. */
  startedAt: number | null;
  elapsedMs: number | null;
  inputs: Json | null;
  outputs: Json | null;
  /** The last attempt's error and why it was skipped, in English, each with its code when it has one. */
  error: string | null;
  errorSaid: RunMessage | null;
  reason: string | null;
  reasonSaid: RunMessage | null;
  timedOut: boolean;
  continued: boolean;
  logs: LogLine[];
  artifacts: { path: string; kind: string; bytes: number }[];
  modelCalls: number;
  request: InputRequest | null;
  answer: Json | null;
  /** It was in flight when the run ended (neither a success nor a failure). */
  interrupted: boolean;
  /** A run of browser objectives: every step (recovery steps in place) and the "2/3". */
  objectives: ObjectivesState | null;
}

/** An action carried out for a step, with the attempt and the pass it belonged to. */
export interface TrackedAction extends ExecutedAction {
  attempt: number;
  iteration: number;
}

/**
 * One line of a browser node's planning history and task loop, in the order recorded: the
 * planning entries (plan, reflection, revision), the task loop's changes (passes, evaluations,
 * escalations), the person's answers to an escalation, and a restart (a resumed node starts over).
 */
export type HistoryItem =
  | { kind: 'planning'; seq: number; at: string; entry: PlanningEntry }
  | { kind: 'task'; seq: number; at: string; event: TaskEvent }
  | { kind: 'answer'; seq: number; at: string; choice: string | null; detail: string | null }
  | { kind: 'restart'; seq: number; at: string };

export interface ObjectivesState {
  steps: StepState[];
  /** The actions carried out for each step, by the step's position (they move with it). */
  actions: TrackedAction[][];
  /** When each step was last started (ms since the epoch), by position, for a running clock. */
  startedAt: (number | null)[];
  completed: number;
  total: number;
  /** The step in progress, by index. */
  current: number | null;
  /** The last action carried out, in words. */
  lastAction: string | null;
  /** Plans, reflections, revisions, passes, escalations and answers, in order. */
  history: HistoryItem[];
  /** The task loop's pass under way (0 before the first) and how many it may take (0: unknown). */
  iteration: number;
  maxIterations: number;
  /** The request's satisfaction (0–1) after the last pass judged, when one was. */
  satisfaction: number | null;
  /** Whether that satisfaction met the node's threshold (which settings can change). */
  satisfied: boolean | null;
  /** The escalation waiting for the person's choice, while one does. */
  escalation: SituationReport | null;
}

/** Where an event was recorded (its `seq` and `at`), for the history. */
export interface EventStamp {
  seq: number;
  at: string;
}

export function emptyObjectives(): ObjectivesState {
  return {
    steps: [],
    actions: [],
    startedAt: [],
    completed: 0,
    total: 0,
    current: null,
    lastAction: null,
    history: [],
    iteration: 0,
    maxIterations: 0,
    satisfaction: null,
    satisfied: null,
    escalation: null,
  };
}

export interface RunState {
  runId: string | null;
  planId: string | null;
  status: RunStatus | null;
  lastSeq: number;
  startedAt: string | null;
  finishedAt: string | null;
  elapsedMs: number | null;
  /** Why the run ended so, in English, and as a code with parameters when it has one. */
  reason: string | null;
  reasonSaid: RunMessage | null;
  counts: Counts | null;
  vars: Record<string, Json>;
  /** Node paths in the order they were first seen (graph nodes first, when given). */
  order: string[];
  nodes: Record<string, NodeState>;
  /** Log lines of the engine (`node: null`). */
  logs: LogLine[];
}

export function emptyNode(path: string): NodeState {
  return {
    path,
    status: 'pending',
    attempt: 0,
    startedAt: null,
    elapsedMs: null,
    inputs: null,
    outputs: null,
    error: null,
    errorSaid: null,
    reason: null,
    reasonSaid: null,
    timedOut: false,
    continued: false,
    logs: [],
    artifacts: [],
    modelCalls: 0,
    request: null,
    answer: null,
    interrupted: false,
    objectives: null,
  };
}

/** The objectives after one `objective` progress event. */
export function applyObjective(state: ObjectivesState | null, event: ObjectiveEvent, stamp: EventStamp = { seq: 0, at: '' }): ObjectivesState {
  const base = state ?? emptyObjectives();
  let steps = [...base.steps];
  let actions = [...base.actions];
  let startedAt = [...base.startedAt];
  let history = base.history;
  const at = time(stamp.at);
  if (event.change === 'planned' && event.steps) {
    // Planned again (a resumed node starts over): the steps anew, the history kept.
    if (base.steps.length > 0) history = [...history, { kind: 'restart', seq: stamp.seq, at: stamp.at }];
    steps = [...event.steps];
    actions = steps.map(() => []);
    startedAt = steps.map(() => null);
  } else if (event.change === 'recovery_inserted') {
    // Inserted after the step in progress: the indexes after it move up by one, parents too.
    const pos = Math.min(event.step.index, steps.length);
    steps.splice(pos, 0, event.step);
    actions.splice(pos, 0, []);
    startedAt.splice(pos, 0, event.step.status === 'in_progress' ? at : null);
    steps = steps.map((s, i) => ({
      ...s,
      index: i,
      parent_index: s.parent_index !== null && s.parent_index >= pos && i !== pos ? s.parent_index + 1 : s.parent_index,
    }));
  } else {
    const i = event.step.index;
    while (steps.length <= i) {
      steps.push(event.step);
      actions.push([]);
      startedAt.push(null);
    }
    steps[i] = event.step;
    if (event.change === 'started') startedAt[i] = at;
    if (event.action) {
      // Records written before an action's requests and effect were kept have neither.
      const { requests = [], effect = 'safe' } = event.action as Partial<ExecutedAction>;
      actions[i] = [...(actions[i] ?? []), { ...event.action, requests, effect, attempt: event.step.attempts, iteration: event.step.iteration }];
      // A recovery step is carried out without a `started` event: its clock starts at its first action.
      if ((startedAt[i] ?? null) === null) startedAt[i] = at;
    }
  }
  const index = event.change === 'planned' ? null : Math.min(event.step.index, steps.length - 1);
  return {
    ...base,
    steps,
    actions,
    startedAt,
    history,
    completed: event.completed,
    total: event.total,
    current:
      index === null ? null : event.step.status === 'in_progress' ? index : base.current === index ? null : base.current,
    lastAction: event.action ? event.action.action : event.change === 'started' ? null : base.lastAction,
  };
}

/** The objectives after a `planning` progress event: one more line of history. */
export function applyPlanning(state: ObjectivesState | null, entry: PlanningEntry, stamp: EventStamp): ObjectivesState {
  const base = state ?? emptyObjectives();
  return { ...base, history: [...base.history, { kind: 'planning', seq: stamp.seq, at: stamp.at, entry }] };
}

/** The objectives after a `task` progress event: the pass, the satisfaction, an escalation. */
export function applyTask(state: ObjectivesState | null, event: TaskEvent, stamp: EventStamp): ObjectivesState {
  const base = state ?? emptyObjectives();
  const next: ObjectivesState = {
    ...base,
    history: [...base.history, { kind: 'task', seq: stamp.seq, at: stamp.at, event }],
    iteration: event.iteration,
    maxIterations: event.max_iterations,
  };
  if (event.satisfaction) {
    next.satisfaction = event.satisfaction.overall_score;
    next.satisfied = event.satisfaction.completion_recommendation;
  }
  if (event.change === 'escalated') next.escalation = event.report;
  else next.escalation = null;
  return next;
}

/** The person's answer to an escalation (`{choice, detail}`), as a line of the history. */
export function applyAnswer(state: ObjectivesState, answer: Json, stamp: EventStamp): ObjectivesState {
  if (answer === null || typeof answer !== 'object' || Array.isArray(answer)) return state;
  const choice = typeof answer.choice === 'string' ? answer.choice : null;
  const detail = typeof answer.detail === 'string' && answer.detail.trim() !== '' ? answer.detail : null;
  if (choice === null) return state;
  return { ...state, history: [...state.history, { kind: 'answer', seq: stamp.seq, at: stamp.at, choice, detail }] };
}

/** The state before any event; `nodeIds` (the plan's top-level nodes) start as pending. */
export function initialRunState(nodeIds: string[] = []): RunState {
  const nodes: Record<string, NodeState> = {};
  for (const id of nodeIds) nodes[id] = emptyNode(id);
  return {
    runId: null,
    planId: null,
    status: null,
    lastSeq: 0,
    startedAt: null,
    finishedAt: null,
    elapsedMs: null,
    reason: null,
    reasonSaid: null,
    counts: null,
    vars: {},
    order: [...nodeIds],
    nodes,
    logs: [],
  };
}

function time(at: string): number | null {
  const ms = Date.parse(at);
  return Number.isNaN(ms) ? null : ms;
}

/** Applies one event. Events at or before `lastSeq` are ignored (replay then live may overlap). */
export function applyEvent(state: RunState, event: Event): RunState {
  if (event.seq <= state.lastSeq) return state;
  const next: RunState = { ...state, lastSeq: event.seq };
  if (event.run_id && !next.runId) next.runId = event.run_id;

  const node = (path: string, f: (n: NodeState) => Partial<NodeState>) => {
    const had = next.nodes[path];
    const current = had ?? emptyNode(path);
    next.nodes = { ...next.nodes, [path]: { ...current, ...f(current) } };
    if (!had) next.order = [...next.order, path];
  };

  switch (event.type) {
    case 'run_started':
      next.planId = event.plan_id;
      next.status = 'running';
      // `vars` is a `JsonValue` in the generated type; the engine always writes an object.
      next.vars = event.vars !== null && typeof event.vars === 'object' && !Array.isArray(event.vars) ? event.vars : {};
      next.finishedAt = null;
      next.reason = null;
      next.reasonSaid = null;
      next.counts = null;
      next.elapsedMs = null;
      if (!next.startedAt || event.resumed_after === null) next.startedAt = event.at;
      break;
    case 'run_finished': {
      next.status = event.status;
      next.counts = event.counts;
      next.elapsedMs = event.elapsed_ms;
      next.reason = event.reason;
      next.reasonSaid = event.said ?? null;
      next.finishedAt = event.at;
      next.nodes = cutShort(next.nodes, event.status);
      break;
    }
    case 'node_started':
      node(event.node, (n) => ({
        status: 'running',
        attempt: event.attempt,
        startedAt: event.attempt <= 1 || n.startedAt === null ? time(event.at) : n.startedAt,
        inputs: event.inputs,
        elapsedMs: null,
        error: event.attempt <= 1 ? null : n.error,
        errorSaid: event.attempt <= 1 ? null : n.errorSaid,
        interrupted: false,
      }));
      break;
    case 'node_finished':
      node(event.node, (n) => ({
        status: 'done',
        objectives: askingNoMore(n.objectives),
        elapsedMs: event.elapsed_ms,
        attempt: event.attempts,
        outputs: event.outputs,
        error: null,
        errorSaid: null,
        request: null,
      }));
      break;
    case 'node_skipped':
      node(event.node, () => ({ status: 'skipped', reason: event.reason, reasonSaid: event.said ?? null }));
      break;
    case 'node_failed':
      node(event.node, (n) => ({
        status: 'failed',
        objectives: askingNoMore(n.objectives),
        elapsedMs: event.elapsed_ms,
        attempt: event.attempts,
        error: event.error,
        errorSaid: event.said ?? null,
        timedOut: event.timed_out,
        continued: event.continued,
        request: null,
      }));
      break;
    case 'node_retried':
      node(event.node, () => ({ status: 'retrying', attempt: event.attempt, error: event.error, errorSaid: event.said ?? null }));
      break;
    case 'input_requested':
      node(event.node, () => ({ status: 'waiting', request: event.request }));
      break;
    case 'input_received':
      node(event.node, (n) => ({
        status: n.status === 'waiting' ? 'running' : n.status,
        request: null,
        answer: event.answer,
        // An answer to an escalation goes into the objectives' history, with what was chosen.
        objectives: n.objectives && n.objectives.escalation ? applyAnswer(n.objectives, event.answer, event) : n.objectives,
      }));
      break;
    case 'log': {
      const line: LogLine = { seq: event.seq, at: event.at, level: event.level, message: event.message, said: event.said ?? null, node: event.node };
      if (event.node) node(event.node, (n) => ({ logs: [...n.logs, line] }));
      else next.logs = [...next.logs, line];
      break;
    }
    case 'artifact':
      node(event.node, (n) => ({ artifacts: [...n.artifacts, { path: event.path, kind: event.kind, bytes: event.bytes }] }));
      break;
    case 'model_call':
      node(event.node, (n) => ({ modelCalls: n.modelCalls + 1 }));
      break;
    case 'progress':
      if (event.progress.kind === 'objective') {
        const objective = event.progress;
        node(event.node, (n) => ({ objectives: applyObjective(n.objectives, objective, event) }));
      } else if (event.progress.kind === 'planning') {
        const entry = event.progress.entry;
        node(event.node, (n) => ({ objectives: applyPlanning(n.objectives, entry, event) }));
      } else if (event.progress.kind === 'task') {
        const task = event.progress;
        node(event.node, (n) => ({ objectives: applyTask(n.objectives, task, event) }));
      }
      break;
    default:
      // Unknown event types are ignored (docs/events.md).
      break;
  }
  return next;
}

/** A node that ended (or was cut short) while the person was asked is no longer asking. */
function askingNoMore(o: ObjectivesState | null): ObjectivesState | null {
  return o && o.escalation ? { ...o, escalation: null } : o;
}

/** Nodes still in flight when a run ended were cancelled: neither done nor failed. */
function cutShort(nodes: Record<string, NodeState>, status: RunStatus): Record<string, NodeState> {
  const out = { ...nodes };
  for (const [path, n] of Object.entries(out)) {
    if (n.status === 'running' || n.status === 'retrying' || (n.status === 'waiting' && status !== 'waiting_for_input')) {
      out[path] = { ...n, status: 'pending', interrupted: true, objectives: askingNoMore(n.objectives) };
    }
  }
  return out;
}

/**
 * A replayed run whose record ends without `run_finished` (the process was killed, or the run
 * waits for input nobody gives now): the status its summary gives, and what was in flight
 * marked as cut short. A run still `running` is left as it is.
 */
export function settle(state: RunState, status: RunStatus): RunState {
  if (status === 'running') return { ...state, status: state.status ?? 'running' };
  return { ...state, status, nodes: cutShort(state.nodes, status) };
}

export function replay(events: Event[], nodeIds: string[] = []): RunState {
  return [...events].sort((a, b) => a.seq - b.seq).reduce(applyEvent, initialRunState(nodeIds));
}

/**
 * The graph node (as `plan_graph` names it) a path executes: iterations dropped,
 * `each[3]/extract` → `each/extract`, `outer[2]/inner[0]/fetch` → `outer/inner/fetch`.
 */
export function graphIdOf(path: string): string {
  return path.replace(/\[\d+\]/g, '');
}

const rank: Record<NodeStatus, number> = { failed: 6, waiting: 5, retrying: 4, running: 3, pending: 2, skipped: 1, done: 0 };

/**
 * The status to draw on a graph node: its own, or, when it ran many times (a loop body), the
 * most pressing of its executions (failed > waiting > retrying > running > pending > skipped > done).
 */
export function graphStatuses(state: RunState): Record<string, NodeStatus> {
  const out: Record<string, NodeStatus> = {};
  for (const n of Object.values(state.nodes)) {
    const id = graphIdOf(n.path);
    const prev = out[id];
    if (prev === undefined || rank[n.status] > rank[prev]) out[id] = n.status;
  }
  return out;
}

/** A node's state as shown: its status, or `interrupted` when the run ended while it was in flight. */
export type ShownNodeStatus = NodeStatus | 'interrupted';

export function shownNodeStatus(n: Pick<NodeState, 'status' | 'interrupted'>): ShownNodeStatus {
  return n.interrupted && n.status === 'pending' ? 'interrupted' : n.status;
}

/** Nodes waiting for a person's answer. */
/**
 * The run as it is resumed: a question it asked before is asked again by the resumed run, and
 * only that one can be answered (an answer to the recorded one would reach no run yet).
 */
export function withoutQuestions(state: RunState): RunState {
  const nodes = Object.fromEntries(Object.entries(state.nodes).map(([path, n]) => [path, n.request ? { ...n, request: null } : n]));
  return { ...state, nodes };
}

export function pendingInputs(state: RunState): NodeState[] {
  return state.order.map((p) => state.nodes[p]!).filter((n) => n && n.status === 'waiting' && n.request);
}

export function progress(state: RunState): { done: number; total: number } {
  const all = Object.values(state.nodes);
  return {
    done: all.filter((n) => n.status === 'done' || n.status === 'skipped' || n.status === 'failed').length,
    total: all.length,
  };
}

export function isFinished(state: RunState): boolean {
  return state.status !== null && state.status !== 'running';
}
