import { describe, expect, it } from 'vitest';
import type { PlanningSettings } from '../api/types/PlanningSettings';
import { historyDirectory, PLANNING_BOUNDS, planningProblems } from './planning';

function defaults(): PlanningSettings {
  return {
    enabled: true,
    strategy: 'chain_of_thought',
    max_subtasks: 100,
    decomposition_level: 'moderate',
    reflection: { enabled: true, trigger_on_error: true, trigger_interval: 3 },
    revision: { max_revisions: 3 },
    history: { storage_type: 'jsonl', directory: null },
    task_loop: { max_iterations: 3, satisfaction_threshold: 0.8 },
  };
}

describe('planningProblems', () => {
  it('finds nothing wrong with the defaults and the bounds themselves', () => {
    expect(planningProblems(defaults())).toEqual({});
    const low = defaults();
    low.max_subtasks = 1;
    low.reflection.trigger_interval = 0;
    low.revision.max_revisions = 0;
    low.task_loop.max_iterations = 1;
    low.task_loop.satisfaction_threshold = 0;
    expect(planningProblems(low)).toEqual({});
    const high = defaults();
    high.max_subtasks = 1000;
    high.reflection.trigger_interval = 1000;
    high.revision.max_revisions = 10;
    high.task_loop.max_iterations = 10;
    high.task_loop.satisfaction_threshold = 1;
    expect(planningProblems(high)).toEqual({});
  });

  it('says which fields are out of range, not whole, or empty', () => {
    const p = defaults();
    p.revision.max_revisions = 11;
    p.task_loop.max_iterations = 0;
    p.task_loop.satisfaction_threshold = 1.2;
    p.reflection.trigger_interval = 2.5;
    (p as unknown as { max_subtasks: number | null }).max_subtasks = null;
    expect(planningProblems(p)).toEqual({
      'revision.max_revisions': { key: 'planning.problem.range', params: { min: 0, max: 10 } },
      'task_loop.max_iterations': { key: 'planning.problem.range', params: { min: 1, max: 10 } },
      'task_loop.satisfaction_threshold': { key: 'planning.problem.range', params: { min: 0, max: 1 } },
      'reflection.trigger_interval': { key: 'planning.problem.integer', params: {} },
      max_subtasks: { key: 'planning.problem.required', params: {} },
    });
  });

  it('has the bounds the settings file allows', () => {
    expect(PLANNING_BOUNDS['reflection.trigger_interval']).toMatchObject({ min: 0, max: 1000 });
    expect(PLANNING_BOUNDS['revision.max_revisions']).toMatchObject({ min: 0, max: 10 });
    expect(PLANNING_BOUNDS['task_loop.max_iterations']).toMatchObject({ min: 1, max: 10 });
    expect(PLANNING_BOUNDS['task_loop.satisfaction_threshold']).toMatchObject({ min: 0, max: 1, integer: false });
    expect(PLANNING_BOUNDS.max_subtasks).toMatchObject({ min: 1, max: 1000 });
  });
});

describe('historyDirectory', () => {
  it('is null (beside each run’s log) when left empty', () => {
    expect(historyDirectory('')).toBeNull();
    expect(historyDirectory('   ')).toBeNull();
    expect(historyDirectory(' /data/planning ')).toBe('/data/planning');
  });
});
