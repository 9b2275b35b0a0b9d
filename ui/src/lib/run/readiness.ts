// The run check's view model: what the Run tab shows before a run starts (vars as typed fields,
// secrets with where their value is kept, the files the plan reads, a model and a browser when
// steps need them) and whether the run may start. Pure; the component only renders it.
import type { RunReadiness } from '../api/types/RunReadiness';
import type { RunVar } from '../api/types/RunVar';
import type { SecretStatus } from '../api/types/SecretStatus';
import type { ReadinessProblem } from '../api/types/ReadinessProblem';
import type { JsonValue as Json } from '../api/types/serde_json/JsonValue';

/** How a var is edited. */
export type VarField = 'boolean' | 'number' | 'integer' | 'file' | 'json' | 'text';

export function varField(v: RunVar): VarField {
  if (v.file) return 'file';
  const ty = v.type.replace(/\s*\|\s*null$/, '');
  if (ty === 'boolean') return 'boolean';
  if (ty === 'integer') return 'integer';
  if (ty === 'number') return 'number';
  if (ty.startsWith('array') || ty.startsWith('object')) return 'json';
  return 'text';
}

/** The text a field starts with: the value the run would use. */
export function varText(v: RunVar): string {
  return valueText(v.value);
}

/**
 * The text of the value the plan itself gives a var (its default), whatever the check was given:
 * what "the plan's values" puts back after the last run's were filled in.
 */
export function planVarText(v: RunVar): string {
  return valueText(v.default);
}

function valueText(value: Json): string {
  if (value === null) return '';
  if (typeof value === 'string') return value;
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  return JSON.stringify(value, null, 2);
}

export type Parsed = { ok: true; value: Json } | { ok: false; error: 'notNumber' | 'notInteger' | 'badJson' };

/**
 * The typed value of a field's text, or why it is not one. (A number input bound with Svelte gives
 * a number, or null when empty, rather than its text.)
 */
export function parseVar(field: VarField, input: string | number | null | undefined): Parsed {
  const raw = input === null || input === undefined ? '' : String(input);
  const text = raw.trim();
  switch (field) {
    case 'boolean':
      return { ok: true, value: text === 'true' };
    case 'number':
    case 'integer': {
      if (text === '') return { ok: true, value: null };
      const n = Number(text);
      if (Number.isNaN(n)) return { ok: false, error: 'notNumber' };
      if (field === 'integer' && !Number.isInteger(n)) return { ok: false, error: 'notInteger' };
      return { ok: true, value: n };
    }
    case 'json':
      if (text === '') return { ok: true, value: null };
      try {
        return { ok: true, value: JSON.parse(text) as Json };
      } catch {
        return { ok: false, error: 'badJson' };
      }
    default:
      return { ok: true, value: raw };
  }
}

/** The vars to send, typed; with the fields whose text is not a value of their type. */
export function collectVars(
  vars: RunVar[],
  texts: Record<string, string | number | null>,
): { values: Record<string, Json>; errors: Record<string, Parsed & { ok: false }> } {
  const values: Record<string, Json> = {};
  const errors: Record<string, Parsed & { ok: false }> = {};
  for (const v of vars) {
    const parsed = parseVar(varField(v), texts[v.name] ?? varText(v));
    if (parsed.ok) values[v.name] = parsed.value;
    else errors[v.name] = parsed;
  }
  return { values, errors };
}

/** Where a secret's value is kept, as the list says it. */
export type SecretState = 'environment' | 'keyring' | 'file' | 'missing';

export function secretState(s: SecretStatus): SecretState {
  return s.where ?? 'missing';
}

/** Counts for the check's summary line: how many items hold, out of how many. */
export function tally(r: RunReadiness): { ok: number; total: number } {
  const items = [
    ...r.vars.map((v) => !v.missing),
    ...r.secrets.map((s) => s.where !== undefined && s.where !== null),
    ...r.files.map((f) => f.present),
    ...(r.model ? [r.model.ok] : []),
    ...(r.browser ? [r.browser.ok] : []),
  ];
  return { ok: items.filter(Boolean).length, total: items.length };
}

/** The i18n key of a problem (its parameter is `subject`). */
export function problemKey(p: ReadinessProblem): `readiness.problem.${ReadinessProblem['code']}` {
  return `readiness.problem.${p.code}`;
}
