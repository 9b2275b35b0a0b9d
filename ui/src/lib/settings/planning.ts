// The planning settings of the Settings tab: each number field's bounds (as the engine checks
// them in `settings.yaml`) and what is wrong with a value before it is saved.
import type { PlanningSettings } from '../api/types/PlanningSettings';
import type { MessageKey } from '../i18n/en';

export type PlanningNumberField =
  | 'max_subtasks'
  | 'reflection.trigger_interval'
  | 'revision.max_revisions'
  | 'task_loop.max_iterations'
  | 'task_loop.satisfaction_threshold';

export interface Bounds {
  min: number;
  max: number;
  step: number;
  integer: boolean;
}

export const PLANNING_BOUNDS: Record<PlanningNumberField, Bounds> = {
  max_subtasks: { min: 1, max: 1000, step: 1, integer: true },
  'reflection.trigger_interval': { min: 0, max: 1000, step: 1, integer: true },
  'revision.max_revisions': { min: 0, max: 10, step: 1, integer: true },
  'task_loop.max_iterations': { min: 1, max: 10, step: 1, integer: true },
  'task_loop.satisfaction_threshold': { min: 0, max: 1, step: 0.05, integer: false },
};

/** The value of a number field (a number input left empty binds `null`). */
export function planningNumber(p: PlanningSettings, field: PlanningNumberField): number | null {
  const v: unknown =
    field === 'max_subtasks'
      ? p.max_subtasks
      : field === 'reflection.trigger_interval'
        ? p.reflection.trigger_interval
        : field === 'revision.max_revisions'
          ? p.revision.max_revisions
          : field === 'task_loop.max_iterations'
            ? p.task_loop.max_iterations
            : p.task_loop.satisfaction_threshold;
  return typeof v === 'number' && Number.isFinite(v) ? v : null;
}

export interface FieldProblem {
  key: MessageKey;
  params: Record<string, string | number>;
}

/** What is wrong with each number field, by field; empty when the settings can be saved. */
export function planningProblems(p: PlanningSettings): Partial<Record<PlanningNumberField, FieldProblem>> {
  const out: Partial<Record<PlanningNumberField, FieldProblem>> = {};
  for (const field of Object.keys(PLANNING_BOUNDS) as PlanningNumberField[]) {
    const b = PLANNING_BOUNDS[field];
    const v = planningNumber(p, field);
    if (v === null) out[field] = { key: 'planning.problem.required', params: {} };
    else if (b.integer && !Number.isInteger(v)) out[field] = { key: 'planning.problem.integer', params: {} };
    else if (v < b.min || v > b.max) out[field] = { key: 'planning.problem.range', params: { min: b.min, max: b.max } };
  }
  return out;
}

/** The history folder as saved: an empty or blank text is "beside each run's log" (`null`). */
export function historyDirectory(text: string): string | null {
  const t = text.trim();
  return t === '' ? null : t;
}
