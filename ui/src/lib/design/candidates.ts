// The candidate blocks of an instruction: grouped by category for the list, and the person's
// pins (a pinned block is always a candidate and is offered to the design).
import type { CandidateHit } from '../api/types/CandidateHit';

export interface CandidateGroup {
  category: string;
  hits: CandidateHit[];
}

/** Hits by category, categories in the order of their best hit; pinned hits first in each. */
export function groupByCategory(hits: CandidateHit[], pinned: readonly string[]): CandidateGroup[] {
  const groups: CandidateGroup[] = [];
  for (const hit of hits) {
    const marked = { ...hit, pinned: pinned.includes(hit.id) };
    const group = groups.find((g) => g.category === hit.category);
    if (group) group.hits.push(marked);
    else groups.push({ category: hit.category, hits: [marked] });
  }
  for (const g of groups) g.hits.sort((a, b) => Number(b.pinned) - Number(a.pinned));
  return groups;
}

/** The pins with `id` added or taken away. */
export function togglePin(pinned: readonly string[], id: string): string[] {
  return pinned.includes(id) ? pinned.filter((p) => p !== id) : [...pinned, id];
}

/**
 * Why a block is suggested, in words a person reads: the words of theirs it matched (`xlsx
 * (tags, description)` → `xlsx`), and "a similar meaning" for a match by meaning. The search's
 * own form (fields, scores) stays in the element's title, one hover away.
 */
export function matchedWords(why: readonly string[], similarMeaning: string): string[] {
  const words = why.map((w) => (/^meaning \(cosine [\d.]+\)$/.test(w) ? similarMeaning : w.replace(/\s*\([^()]*\)$/, '')));
  return [...new Set(words)];
}
