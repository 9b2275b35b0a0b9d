// The run state, built from events by one pure reducer: the same for a live run (events from the
// stream) and for a recorded one (`run_detail`'s events replayed).
import type { Counts } from '../api/types/Counts';
import type { Event } from '../api/types/Event';
import type { ObjectiveEvent } from '../api/types/ObjectiveEvent';
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
  error: string | null;
  reason: string | null;
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

export interface ObjectivesState {
  steps: StepState[];
  completed: number;
  total: number;
  /** The step in progress, by index. */
  current: number | null;
  /** The last action carried out, in words. */
  lastAction: string | null;
}

export interface RunState {
  runId: string | null;
  planId: string | null;
  status: RunStatus | null;
  lastSeq: number;
  startedAt: string | null;
  finishedAt: string | null;
  elapsedMs: number | null;
  reason: string | null;
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
    reason: null,
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
export function applyObjective(state: ObjectivesState | null, event: ObjectiveEvent): ObjectivesState {
  const base: ObjectivesState = state ?? { steps: [], completed: 0, total: 0, current: null, lastAction: null };
  let steps = [...base.steps];
  if (event.change === 'planned' && event.steps) {
    steps = [...event.steps];
  } else if (event.change === 'recovery_inserted') {
    // Inserted after the step in progress: the indexes after it move up by one.
    steps.splice(event.step.index, 0, event.step);
    steps = steps.map((s, i) => ({
      ...s,
      index: i,
      parent_index: s.parent_index !== null && s.parent_index >= event.step.index && i !== event.step.index ? s.parent_index + 1 : s.parent_index,
    }));
  } else {
    steps[event.step.index] = event.step;
  }
  return {
    steps,
    completed: event.completed,
    total: event.total,
    current: event.step.status === 'in_progress' ? event.step.index : base.current,
    lastAction: event.action ? event.action.action : event.change === 'started' ? null : base.lastAction,
  };
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
      next.counts = null;
      next.elapsedMs = null;
      if (!next.startedAt || event.resumed_after === null) next.startedAt = event.at;
      break;
    case 'run_finished': {
      next.status = event.status;
      next.counts = event.counts;
      next.elapsedMs = event.elapsed_ms;
      next.reason = event.reason;
      next.finishedAt = event.at;
      // Nodes still in flight were cancelled: neither done nor failed.
      const nodes = { ...next.nodes };
      for (const [path, n] of Object.entries(nodes)) {
        if (n.status === 'running' || n.status === 'retrying') {
          nodes[path] = { ...n, status: 'pending', interrupted: true };
        } else if (n.status === 'waiting' && event.status !== 'waiting_for_input') {
          nodes[path] = { ...n, status: 'pending', interrupted: true };
        }
      }
      next.nodes = nodes;
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
        interrupted: false,
      }));
      break;
    case 'node_finished':
      node(event.node, () => ({
        status: 'done',
        elapsedMs: event.elapsed_ms,
        attempt: event.attempts,
        outputs: event.outputs,
        error: null,
        request: null,
      }));
      break;
    case 'node_skipped':
      node(event.node, () => ({ status: 'skipped', reason: event.reason }));
      break;
    case 'node_failed':
      node(event.node, () => ({
        status: 'failed',
        elapsedMs: event.elapsed_ms,
        attempt: event.attempts,
        error: event.error,
        timedOut: event.timed_out,
        continued: event.continued,
        request: null,
      }));
      break;
    case 'node_retried':
      node(event.node, () => ({ status: 'retrying', attempt: event.attempt, error: event.error }));
      break;
    case 'input_requested':
      node(event.node, () => ({ status: 'waiting', request: event.request }));
      break;
    case 'input_received':
      node(event.node, (n) => ({ status: n.status === 'waiting' ? 'running' : n.status, request: null, answer: event.answer }));
      break;
    case 'log': {
      const line: LogLine = { seq: event.seq, at: event.at, level: event.level, message: event.message, node: event.node };
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
        node(event.node, (n) => ({ objectives: applyObjective(n.objectives, objective) }));
      }
      break;
    default:
      // Unknown event types are ignored (docs/events.md).
      break;
  }
  return next;
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

/** Nodes waiting for a person's answer. */
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
