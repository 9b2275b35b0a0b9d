// A generation's progress as the Design tab lists it: one row per stage reached, the last one
// under way until the result comes.
import type { GenerationStep } from '../api/types/GenerationStep';
import type { MessageKey } from '../i18n/en';

export interface ProgressRow {
  id: string;
  key: MessageKey;
  params: Record<string, number>;
  state: 'done' | 'active';
}

function row(step: GenerationStep): Omit<ProgressRow, 'state'> {
  switch (step.stage) {
    case 'documents':
      return { id: 'documents', key: 'generate.step.documents', params: { read: step.read, of: step.of } };
    case 'repairing':
      return { id: `repair-${step.round}`, key: 'generate.step.repairing', params: { round: step.round } };
    default:
      return { id: step.stage, key: `generate.step.${step.stage}`, params: {} };
  }
}

/** The rows for the steps seen so far; `finished` once the result (or the end) came. */
export function progressRows(steps: GenerationStep[], finished: boolean): ProgressRow[] {
  const rows: Omit<ProgressRow, 'state'>[] = [];
  for (const step of steps) {
    const next = row(step);
    const seen = rows.findIndex((r) => r.id === next.id);
    // A repeated stage (documents read, validation after a repair) updates its row.
    if (seen >= 0) rows[seen] = next;
    else rows.push(next);
  }
  return rows.map((r, i) => ({ ...r, state: !finished && i === rows.length - 1 ? 'active' : 'done' }));
}
