// The repair review's view model: for each repair round, what it fixed and, node by node, the
// node's YAML before and after as a line diff (jsdiff's `diffLines`).
import { diffLines } from 'diff';
import type { AttemptView } from '../api/types/AttemptView';
import type { ChangeKind } from '../api/types/ChangeKind';

export interface DiffLine {
  kind: 'same' | 'added' | 'removed';
  text: string;
}

/** The lines of `before` → `after` (either missing: all added or all removed). */
export function lineDiff(before: string | null, after: string | null): DiffLine[] {
  const lines: DiffLine[] = [];
  for (const part of diffLines(before ?? '', after ?? '')) {
    const kind = part.added ? 'added' : part.removed ? 'removed' : 'same';
    for (const text of part.value.replace(/\n$/, '').split('\n')) lines.push({ kind, text });
  }
  return lines.filter((l, i, all) => !(all.length === 1 && l.text === ''));
}

export interface NodeDiff {
  node: string;
  change: ChangeKind;
  fields: string[];
  lines: DiffLine[];
}

export interface RoundView {
  /** The attempt's number: 2 for the first repair round. */
  number: number;
  round: number;
  by: string;
  errorsBefore: number;
  errors: number;
  fixed: string[];
  repairs: string[];
  nodes: NodeDiff[];
}

/** Each repair round (every attempt after the first), with its node diffs. */
export function roundViews(attempts: AttemptView[]): RoundView[] {
  return attempts.slice(1).map((a, i) => ({
    number: a.number,
    round: i + 1,
    by: a.by,
    errorsBefore: attempts[i]!.errors,
    errors: a.errors,
    fixed: a.fixed,
    repairs: a.repairs,
    nodes: a.changes.map((c) => ({ node: c.node, change: c.change, fields: c.fields, lines: lineDiff(c.before, c.after) })),
  }));
}
