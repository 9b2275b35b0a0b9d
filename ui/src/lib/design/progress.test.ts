import { describe, expect, it } from 'vitest';
import { progressRows } from './progress';

describe('generation progress', () => {
  it('lists each stage once, the last under way until the end', () => {
    const steps = [
      { stage: 'documents' as const, read: 0, of: 1 },
      { stage: 'documents' as const, read: 1, of: 1 },
      { stage: 'candidates' as const },
      { stage: 'offline' as const },
      { stage: 'validating' as const },
      { stage: 'repairing' as const, round: 1 },
    ];
    const rows = progressRows(steps, false);
    expect(rows.map((r) => [r.id, r.state])).toEqual([
      ['documents', 'done'],
      ['candidates', 'done'],
      ['offline', 'done'],
      ['validating', 'done'],
      ['repair-1', 'active'],
    ]);
    expect(rows[0]!.params).toEqual({ read: 1, of: 1 });
    expect(progressRows(steps, true).every((r) => r.state === 'done')).toBe(true);
  });
});
