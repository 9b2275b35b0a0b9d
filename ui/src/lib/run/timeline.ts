// The planning history of a browser node as a timeline: the plan made before acting (its main
// objective and success criteria), reflections, revisions with the execution plans before and
// after, each pass and its satisfaction, an escalation to the person and what they chose. Built
// from the reducer's `history` (the `planning` and `task` progress events and the answers), so
// a live run and a replayed one read the same. Pure.
import type { Approach } from '../api/types/Approach';
import type { MadeBy } from '../api/types/MadeBy';
import type { ReflectionStatus } from '../api/types/ReflectionStatus';
import type { ReflectionTrigger } from '../api/types/ReflectionTrigger';
import type { RunMessage } from '../api/types/RunMessage';
import type { StepState } from '../api/types/StepState';
import type { HistoryItem, ObjectivesState } from './reducer';

/** An objective named in the history: its number as the person wrote it, and its words. */
export interface ObjectiveRef {
  number: number;
  description: string;
}

export interface PlanChangeView {
  objective: ObjectiveRef | null;
  /** `execution_plan_replaced`, `wait_added`, `locator_strategy` (read as text: readers meet kinds they do not know). */
  kind: string;
  approach: Approach;
  description: string;
  descriptionSaid: RunMessage | null;
  before: string[];
  after: string[];
}

interface Base {
  /** Unique within the timeline (the event's seq). */
  id: string;
  at: string;
  /** Routine lines (a check that found all well, a pass's own reflection) hidden unless asked for. */
  routine: boolean;
}

export type TimelineEntry = Base &
  (
    | {
        kind: 'plan';
        /** 1: the plan made before acting; 2, 3 …: a continuation plan for that pass. */
        iteration: number;
        mainObjective: string;
        mainObjectiveSaid: RunMessage | null;
        successCriteria: string[];
        /** Each success criterion coded, criterion by criterion (none: say its words). */
        criteriaSaid: RunMessage[][];
        constraints: string[];
        subtasks: number;
        madeBy: MadeBy;
        /** For a continuation plan: what earlier passes taught. */
        failedApproaches: string[];
        learned: string[];
        personDetail: string | null;
      }
    | {
        kind: 'reflection';
        trigger: ReflectionTrigger;
        objective: ObjectiveRef | null;
        attempt: number | null;
        /** Actions carried out so far in the task. */
        actions: number;
        status: ReflectionStatus;
        evaluation: string;
        /** The evaluation coded piece by piece (none: say its words, a model's). */
        evaluationSaid: RunMessage[];
        revisionNeeded: boolean;
        madeBy: MadeBy;
      }
    | { kind: 'revision'; number: number; reason: string; reasonSaid: RunMessage[]; changes: PlanChangeView[] }
    | { kind: 'pass'; iteration: number; max: number }
    | {
        kind: 'evaluated';
        iteration: number;
        max: number;
        satisfaction: number;
        satisfied: boolean;
        missing: string[];
        assessment: string;
        assessmentSaid: RunMessage | null;
        madeBy: MadeBy;
      }
    | { kind: 'escalated'; iteration: number; max: number; satisfaction: number | null; choices: string[]; analysis: string | null }
    | { kind: 'answered'; choice: string; detail: string | null }
    | { kind: 'finished'; iteration: number; satisfaction: number | null; satisfied: boolean; choice: string | null }
    | { kind: 'restart' }
  );

export type TimelineKind = TimelineEntry['kind'];

/**
 * The objective a planning record names by its number among the person's objectives (1 for the
 * first; recovery steps are not counted, so the number holds when one is inserted).
 */
export function objectiveRef(steps: StepState[], number: number | null): ObjectiveRef | null {
  if (number === null || number < 1) return null;
  const target = steps.filter((s) => s.step_type === 'objective')[number - 1];
  return target ? { number, description: target.description } : null;
}

function entryOf(item: HistoryItem, steps: StepState[], previous: HistoryItem | undefined): TimelineEntry | null {
  const base = { id: String(item.seq), at: item.at, routine: false };
  switch (item.kind) {
    case 'restart':
      return { ...base, kind: 'restart' };
    case 'answer':
      return item.choice === null ? null : { ...base, kind: 'answered', choice: item.choice, detail: item.detail };
    case 'planning': {
      const e = item.entry;
      if (e.type === 'plan') {
        const g = e.plan.goal_understanding;
        const c = e.plan.continuation;
        return {
          ...base,
          kind: 'plan',
          iteration: e.plan.iteration,
          mainObjective: g.main_objective,
          mainObjectiveSaid: g.main_objective_said ?? null,
          successCriteria: g.success_criteria,
          // One criterion per subtask, in order, as the runner writes them.
          criteriaSaid: g.success_criteria.map((_, i) => e.plan.task_decomposition.subtasks[i]?.success_criterion_said ?? []),
          constraints: g.constraints,
          subtasks: e.plan.task_decomposition.subtasks.length,
          madeBy: e.plan.made_by,
          failedApproaches: c?.failed_approaches ?? [],
          learned: c?.learned_constraints ?? [],
          personDetail: c?.person_detail ?? null,
        };
      }
      if (e.type === 'reflection') {
        return {
          ...base,
          // A check that found all well, or a pass's own reflection (its evaluation says the same).
          routine: e.trigger === 'iteration' || (e.status === 'success' && !e.plan_revision_needed),
          kind: 'reflection',
          trigger: e.trigger,
          objective: objectiveRef(steps, e.objective),
          attempt: e.attempt,
          actions: e.actions,
          status: e.status,
          evaluation: e.evaluation,
          evaluationSaid: e.evaluation_said ?? [],
          revisionNeeded: e.plan_revision_needed,
          madeBy: e.made_by,
        };
      }
      return {
        ...base,
        kind: 'revision',
        number: e.number,
        reason: e.reason,
        reasonSaid: e.reason_said ?? [],
        changes: e.changes.map((c) => ({
          objective: objectiveRef(steps, c.objective),
          kind: String(c.kind),
          approach: c.approach,
          description: c.description,
          descriptionSaid: c.description_said ?? null,
          before: c.execution_plan_before,
          after: c.execution_plan_after,
        })),
      };
    }
    case 'task': {
      const t = item.event;
      switch (t.change) {
        case 'iteration_started':
          return { ...base, kind: 'pass', iteration: t.iteration, max: t.max_iterations };
        case 'evaluated':
          if (!t.satisfaction) return null;
          return {
            ...base,
            kind: 'evaluated',
            iteration: t.iteration,
            max: t.max_iterations,
            satisfaction: t.satisfaction.overall_score,
            satisfied: t.satisfaction.completion_recommendation,
            missing: t.satisfaction.missing_aspects,
            assessment: t.satisfaction.quality_assessment,
            assessmentSaid: t.satisfaction.quality_assessment_said ?? null,
            madeBy: t.satisfaction.made_by,
          };
        case 'escalated':
          return {
            ...base,
            kind: 'escalated',
            iteration: t.iteration,
            max: t.max_iterations,
            satisfaction: t.report?.satisfaction ?? t.satisfaction?.overall_score ?? null,
            choices: t.report?.choices ?? [],
            analysis: t.report?.analysis ?? null,
          };
        case 'answered':
          // The person's answer (`input_received`) just before says it, with their detail.
          if (previous?.kind === 'answer' && previous.choice === t.choice) return null;
          return t.choice ? { ...base, kind: 'answered', choice: t.choice, detail: null } : null;
        case 'finished':
          return {
            ...base,
            kind: 'finished',
            iteration: t.iteration,
            satisfaction: t.satisfaction?.overall_score ?? null,
            satisfied: t.satisfaction?.completion_recommendation ?? false,
            choice: t.choice,
          };
        default:
          return null;
      }
    }
  }
}

/** The timeline of a node's planning history, oldest first. */
export function timeline(o: ObjectivesState): TimelineEntry[] {
  const out: TimelineEntry[] = [];
  o.history.forEach((item, i) => {
    const entry = entryOf(item, o.steps, o.history[i - 1]);
    if (entry) out.push(entry);
  });
  return out;
}

/** Each pass's satisfaction, in order (a pass judged twice keeps its last figure). */
export function passScores(entries: TimelineEntry[]): { iteration: number; satisfaction: number; satisfied: boolean }[] {
  const byPass = new Map<number, { iteration: number; satisfaction: number; satisfied: boolean }>();
  for (const e of entries) {
    if (e.kind === 'evaluated') byPass.set(e.iteration, { iteration: e.iteration, satisfaction: e.satisfaction, satisfied: e.satisfied });
  }
  return [...byPass.values()].sort((a, b) => a.iteration - b.iteration);
}
