import { describe, expect, it } from 'vitest';
import type { AttemptView } from '../api/types/AttemptView';
import { lineDiff, roundViews } from './repairDiff';

const attempt = (n: number, errors: number, extra: Partial<AttemptView> = {}): AttemptView => ({
  number: n,
  by: n === 1 ? 'offline' : 'offline repair',
  errors,
  repairs: [],
  text: '',
  changes: [],
  fixed: [],
  findings: [],
  ...extra,
});

describe('the repair review', () => {
  it('diffs a node line by line', () => {
    const before = 'id: write\nblock: report.writ\nin: {format: csv}\n';
    const after = 'id: write\nblock: report.write\nin: {format: csv}\n';
    expect(lineDiff(before, after)).toEqual([
      { kind: 'same', text: 'id: write' },
      { kind: 'removed', text: 'block: report.writ' },
      { kind: 'added', text: 'block: report.write' },
      { kind: 'same', text: 'in: {format: csv}' },
    ]);
  });

  it('shows an added or removed node whole', () => {
    expect(lineDiff(null, 'id: a\nblock: b\n').map((l) => l.kind)).toEqual(['added', 'added']);
    expect(lineDiff('id: a\n', null)).toEqual([{ kind: 'removed', text: 'id: a' }]);
  });

  it('makes one view per repair round with the errors before and after and what it fixed', () => {
    const rounds = roundViews([
      attempt(1, 2),
      attempt(2, 0, {
        fixed: ['unknown block report.writ'],
        repairs: ['renamed report.writ to report.write'],
        changes: [{ node: 'write', change: 'changed', fields: ['block'], before: 'block: report.writ\n', after: 'block: report.write\n' }],
      }),
    ]);
    expect(rounds).toHaveLength(1);
    expect(rounds[0]).toMatchObject({ number: 2, round: 1, errorsBefore: 2, errors: 0, fixed: ['unknown block report.writ'] });
    expect(rounds[0]!.nodes[0]!.lines.map((l) => l.kind)).toEqual(['removed', 'added']);
    expect(roundViews([attempt(1, 0)])).toEqual([]);
  });
});
