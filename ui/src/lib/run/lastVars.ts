// The values a person gave a plan's variables the last time they started it, kept per plan id in
// this studio's local storage, so that the next run of the plan (or of its next version) offers
// them again. Secrets are never vars; they are kept by the secret store, never here.
import type { RunVar } from '../api/types/RunVar';
import { planVarText } from './readiness';

const KEY = 'planwright.lastVars';
/** Plans whose values are kept; the least recently started go first. */
const MAX_PLANS = 50;

type Kept = Record<string, Record<string, string>>;

function readKept(storage: Storage): Kept {
  try {
    const parsed: unknown = JSON.parse(storage.getItem(KEY) ?? '{}');
    return parsed && typeof parsed === 'object' && !Array.isArray(parsed) ? (parsed as Kept) : {};
  } catch {
    return {};
  }
}

/** Keeps the texts a run of `planId` started with. */
export function keepVars(planId: string, texts: Record<string, string>, storage: Storage = localStorage): void {
  const kept = readKept(storage);
  delete kept[planId];
  kept[planId] = Object.fromEntries(Object.entries(texts).filter(([, v]) => typeof v === 'string'));
  const plans = Object.keys(kept);
  for (const old of plans.slice(0, Math.max(0, plans.length - MAX_PLANS))) delete kept[old];
  try {
    storage.setItem(KEY, JSON.stringify(kept));
  } catch {
    // A full or refused storage only loses the offer; the run itself is unaffected.
  }
}

/**
 * The last run's texts of the vars the plan still has, where they differ from what the plan
 * would use: what the run check fills in, and says it did.
 */
export function lastVars(planId: string, vars: RunVar[], storage: Storage = localStorage): Record<string, string> {
  const kept = readKept(storage)[planId] ?? {};
  const offered: Record<string, string> = {};
  for (const v of vars) {
    const last = kept[v.name];
    if (typeof last === 'string' && last !== planVarText(v)) offered[v.name] = last;
  }
  return offered;
}
