// The Design tab's library: one entry per plan with its registered versions under it (newest
// first), the state of the text in the editor (a draft, registered, or changed since it was
// registered), and the name a draft is kept under (the plan's id, once it has one).
import type { DesignInfo } from '../api/types/DesignInfo';

export interface PlanEntry {
  planId: string;
  /** Newest first: the first is the one a click opens. */
  versions: DesignInfo[];
}

/** Registered plans grouped by id, ids in order; files that are no plan come last, one each. */
export function groupDesigns(designs: DesignInfo[]): PlanEntry[] {
  const byId = new Map<string, DesignInfo[]>();
  const broken: PlanEntry[] = [];
  for (const d of designs) {
    if (d.template) continue;
    if (d.problem) {
      broken.push({ planId: d.plan_id || d.file, versions: [d] });
      continue;
    }
    byId.set(d.plan_id, [...(byId.get(d.plan_id) ?? []), d]);
  }
  // File names end in the registration stamp (yyyymmddHHMM), so the later name is the newer.
  const newestFirst = (a: DesignInfo, b: DesignInfo) => (b.registered_at ?? b.file).localeCompare(a.registered_at ?? a.file) || b.file.localeCompare(a.file);
  const entries = [...byId.entries()].sort(([a], [b]) => a.localeCompare(b)).map(([planId, versions]) => ({ planId, versions: versions.sort(newestFirst) }));
  return [...entries, ...broken];
}

export type Lifecycle = 'draft' | 'registered' | 'changed';

/** Where the text in the editor stands: never registered, as registered, or changed since. */
export function lifecycle(text: string, registered: string | null): Lifecycle {
  if (registered === null) return 'draft';
  return text === registered ? 'registered' : 'changed';
}

/**
 * The draft name for a text: an untitled draft takes its plan's id once it has one (and no other
 * draft has that name); any other name stays.
 */
export function draftNameFor(current: string, id: string | null, taken: string[]): string {
  if (!current.startsWith('untitled_') || !id || id === 'new_plan') return current;
  const wanted = `${id}.yaml`;
  return taken.includes(wanted) ? current : wanted;
}
