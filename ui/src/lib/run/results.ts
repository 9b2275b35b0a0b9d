// A finished run's results as the Run tab opens on them: each value of the plan's last nodes
// shown for what it is (a figure, a text, rows as a table), the files written with what the
// person asked for first, and the size of each.
import type { JsonValue as Json } from '../api/types/serde_json/JsonValue';
import type { ResultFile } from '../api/types/ResultFile';
import type { ResultValue } from '../api/types/ResultValue';
import { catalogs, type Lang } from '../i18n/messages';
import { formatNumber } from './format';

export type ValueView =
  | { kind: 'figure'; text: string }
  | { kind: 'text'; text: string }
  | { kind: 'table'; columns: string[]; rows: string[][]; total: number }
  | { kind: 'list'; items: string[]; total: number }
  | { kind: 'fields'; fields: [string, string][] }
  | { kind: 'json'; text: string };

/**
 * Whether the run wrote the file into the work folder (the server shows its path relative to
 * it), not into its own record in the data home (a browser task's planning history, an analysis).
 */
export function writtenToWorkFolder(f: Pick<ResultFile, 'shown_path'>): boolean {
  return !/^(\/|[A-Za-z]:[\\/]|\\\\)/.test(f.shown_path);
}

/** The files as listed: those in the work folder first, what the plan is for; then the run's own records. */
export function filesInOrder(files: ResultFile[]): ResultFile[] {
  return [...files.filter(writtenToWorkFolder), ...files.filter((f) => !writtenToWorkFolder(f))];
}

/** A cell's text: strings as they are, true and false as yes and no in the person's language, numbers as written, the rest as JSON. */
export function cellText(v: Json | undefined, lang: Lang): string {
  if (v === undefined || v === null) return '';
  if (typeof v === 'string') return v;
  if (typeof v === 'boolean') return catalogs[lang][v ? 'common.yes' : 'common.no'];
  if (typeof v === 'number') return String(v);
  return JSON.stringify(v);
}

const isRecord = (v: Json): v is { [key: string]: Json } => v !== null && typeof v === 'object' && !Array.isArray(v);

export function valueView(r: ResultValue, lang: Lang): ValueView {
  const v = r.value;
  if (typeof v === 'number') return { kind: 'figure', text: formatNumber(v, lang) };
  if (typeof v === 'boolean' || v === null) return { kind: 'figure', text: cellText(v, lang) || '—' };
  if (typeof v === 'string') return v.length <= 40 && !v.includes('\n') ? { kind: 'figure', text: v } : { kind: 'text', text: v };
  if (Array.isArray(v)) {
    const total = r.rows ?? v.length;
    if (v.length > 0 && v.every(isRecord)) {
      const columns = [...new Set(v.flatMap((row) => Object.keys(row)))];
      return { kind: 'table', columns, rows: v.map((row) => columns.map((c) => cellText(row[c], lang))), total };
    }
    return { kind: 'list', items: v.map((x) => cellText(x, lang)), total };
  }
  // A small record of plain values reads as its fields; anything deeper as JSON.
  const plain = (x: Json) => x === null || typeof x !== 'object' || (Array.isArray(x) && x.every((i) => i === null || typeof i !== 'object'));
  const entries = Object.entries(v);
  if (entries.length > 0 && entries.length <= 12 && entries.every(([, x]) => plain(x))) {
    return { kind: 'fields', fields: entries.map(([k, x]) => [k, Array.isArray(x) ? x.map((i) => cellText(i, lang)).join(', ') : cellText(x, lang)]) };
  }
  return { kind: 'json', text: JSON.stringify(v, null, 2) };
}

/** `1.2 MB`, `340 B`: a file's size for people. */
export function formatBytes(bytes: number, lang: Lang): string {
  const units = ['B', 'KB', 'MB', 'GB'];
  let n = bytes;
  let unit = 0;
  while (n >= 1024 && unit < units.length - 1) {
    n /= 1024;
    unit++;
  }
  const digits = unit === 0 || n >= 10 ? 0 : 1;
  return `${new Intl.NumberFormat(lang === 'ja' ? 'ja-JP' : 'en-US', { maximumFractionDigits: digits }).format(n)} ${units[unit]}`;
}
