// Tolerant readers for answers whose shape the CLI and the API write slightly differently
// (`planwright validate --format json` writes `errors` + `warnings`; the API contract `findings`).

import type { DryRunResponse, DryRunStep, Finding, ValidateResponse } from './contract';

type Loose = Record<string, unknown>;

export function findingsOf(raw: Loose): Finding[] {
  if (Array.isArray(raw.findings)) return raw.findings as Finding[];
  const errors = Array.isArray(raw.errors) ? (raw.errors as Finding[]) : [];
  const warnings = Array.isArray(raw.warnings) ? (raw.warnings as Finding[]) : [];
  return [...errors, ...warnings];
}

export function normalizeValidate(raw: unknown): ValidateResponse {
  const o = (raw ?? {}) as Loose;
  const findings = findingsOf(o);
  const valid = typeof o.valid === 'boolean' ? o.valid : !findings.some((f) => f.severity === 'error');
  return { valid, findings };
}

/** `order` as levels of node ids, `steps` as the per-node detail, whichever shape came. */
export function normalizeDryRun(raw: unknown): DryRunResponse {
  const o = (raw ?? {}) as Loose;
  const { valid, findings } = normalizeValidate(o);
  let steps: DryRunStep[] = Array.isArray(o.steps) ? (o.steps as DryRunStep[]) : [];
  let order: string[][] = [];
  const rawOrder = Array.isArray(o.order) ? (o.order as unknown[]) : [];
  if (rawOrder.every((l) => Array.isArray(l))) {
    order = rawOrder.map((l) => (l as unknown[]).map(String));
  } else {
    // The CLI's shape: one object per node with its `level`.
    const objs = rawOrder.filter((s): s is DryRunStep => !!s && typeof s === 'object' && 'id' in s);
    if (steps.length === 0) steps = objs;
    for (const s of objs) {
      const level = typeof s.level === 'number' ? s.level : 0;
      while (order.length <= level) order.push([]);
      order[level]!.push(s.id);
    }
  }
  const estimate = (o.estimate && typeof o.estimate === 'object' ? o.estimate : null) as DryRunResponse['estimate'];
  return { valid, findings, order, steps, estimate };
}
