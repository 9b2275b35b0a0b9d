// Client-side checks of a person's answer to an `input_requested` form, mirroring the engine's
// (crates/block/src/answers.rs): required, type, options, accept, validation.regex. The server
// checks again and its per-field errors are shown at the field too.
import type { JsonValue as Json } from '../api/types/serde_json/JsonValue';
import type { ConfirmRequest, InputAnswer, InputRequest, Requirement } from './inputRequest';
import type { MessageKey } from '../i18n/en';

export interface FieldProblem {
  key: MessageKey;
  params?: Record<string, string>;
}

/** What the form holds: text for most fields, `'true'`/`'false'`/`''` for booleans. */
export type FormValues = Record<string, string>;

export function isConfirm(request: InputRequest): request is InputRequest & { mode: 'confirm' } & ConfirmRequest {
  return request.mode === 'confirm';
}

export function requirementsOf(request: InputRequest): Requirement[] {
  return isConfirm(request) ? [] : request.requirements;
}

/** Whether the request asks for an approve / reject decision. */
export function asksApproval(request: InputRequest): boolean {
  return request.mode === 'confirm' || request.mode === 'mixed';
}

/** Whether it is a single free-text question (`inquire` without requirements). */
export function asksResponse(request: InputRequest): boolean {
  return request.mode === 'inquire' && requirementsOf(request).length === 0;
}

const FULL_WIDTH = /[\uFF01-\uFF5E]/g;

/**
 * A number as people write it, read by the same rules as the engine's one parser
 * (crates/block/src/numbers.rs; the shared cases in crates/block/tests/numbers.json keep the two
 * in step): an optional sign (`-`, `+`, `△`, `▲`), an optional currency mark (`¥ $ € £`, or `円`
 * after), digits grouped by commas in threes or not at all, an optional decimal part; full-width
 * characters folded first. No leading zero, exponent, underscore or more than 15 integer digits.
 */
export function parseNumber(text: string): number | null {
  let t = text
    .replace(FULL_WIDTH, (c) => String.fromCharCode(c.charCodeAt(0) - 0xfee0))
    .replace(/\u3000|\u00A0/g, ' ')
    .replace(/\uFFE5/g, '¥')
    .replace(/[\u2212\u2010\u2011]/g, '-')
    .trim();
  let negative = false;
  let signed = false;
  const sign = (s: string): [boolean, string] | null => {
    const c = s.charAt(0);
    return c === '-' || c === '+' || c === '△' || c === '▲' ? [c !== '+', s.slice(1).trimStart()] : null;
  };
  const first = sign(t);
  if (first) [negative, t, signed] = [first[0], first[1], true];
  if (/^[¥$€£]/.test(t)) {
    t = t.slice(1).trimStart();
    const second = signed ? null : sign(t);
    if (second) [negative, t] = second;
  }
  if (t.endsWith('円')) t = t.slice(0, -1).trimEnd();
  const m = /^(\d{1,3}(?:,\d{3})+|\d+)(?:\.(\d+))?$/.exec(t);
  if (!m) return null;
  const digits = m[1]!.replace(/,/g, '');
  if ((digits.length > 1 && digits.startsWith('0')) || digits.length > 15) return null;
  const value = Number(m[2] === undefined ? digits : `${digits}.${m[2]}`);
  return negative ? -value : value;
}


/** Rows typed as a JSON list of objects, or as CSV with a header line. */
export function parseTable(text: string): Record<string, Json>[] | null {
  const t = text.trim();
  if (t.startsWith('[')) {
    try {
      const v = JSON.parse(t) as unknown;
      if (Array.isArray(v) && v.every((r) => r && typeof r === 'object' && !Array.isArray(r))) return v as Record<string, Json>[];
    } catch {
      /* not JSON */
    }
    return null;
  }
  const lines = t.split(/\r?\n/).filter((l) => l.trim() !== '');
  if (lines.length < 1) return null;
  const split = (l: string) => (l.includes('\t') ? l.split('\t') : l.split(',')).map((c) => c.trim());
  const header = split(lines[0]!);
  if (header.some((h) => h === '')) return null;
  return lines.slice(1).map((l) => {
    const cells = split(l);
    const row: Record<string, Json> = {};
    header.forEach((h, i) => (row[h] = cells[i] ?? ''));
    return row;
  });
}

function extensionOk(path: string, accept: string): boolean {
  const exts = accept
    .split(',')
    .map((e) => e.trim().toLowerCase())
    .filter(Boolean)
    .map((e) => (e.startsWith('.') ? e : `.${e}`));
  return exts.length === 0 || exts.some((e) => path.toLowerCase().endsWith(e));
}

function regexOk(pattern: string, text: string): boolean {
  let re: RegExp;
  try {
    re = new RegExp(`^(?:${pattern})$`, 'u');
  } catch {
    return true; // The server reports a pattern it cannot read.
  }
  return re.test(text);
}

/** Checks one field; returns its normalised value or a problem. `required` may be lifted (mixed + reject). */
export function checkField(
  req: Requirement,
  raw: string | undefined,
  required = req.required === true,
): { value: Json; problem: FieldProblem | null } {
  const text = (raw ?? '').trim();
  if (text === '') return { value: null, problem: required ? { key: 'input.required' } : null };
  let value: Json = text;
  switch (req.type) {
    case 'number': {
      const n = parseNumber(text);
      if (n === null) return { value: null, problem: { key: 'input.notNumber' } };
      value = n;
      break;
    }
    case 'boolean':
      if (text !== 'true' && text !== 'false') return { value: null, problem: { key: 'input.notOption' } };
      value = text === 'true';
      break;
    case 'select':
    case 'enum': {
      const options = (req.options ?? []).map(String);
      if (options.length > 0 && !options.includes(text)) return { value: null, problem: { key: 'input.notOption' } };
      break;
    }
    case 'file':
      if (req.accept && !extensionOk(text, req.accept)) {
        return { value: null, problem: { key: 'input.badExtension', params: { accept: req.accept } } };
      }
      break;
    case 'table': {
      const rows = parseTable(text);
      if (rows === null) return { value: null, problem: { key: 'input.badTable' } };
      value = rows;
      break;
    }
    default:
      value = raw ?? '';
  }
  const pattern = req.validation?.regex;
  if (pattern && req.type !== 'table' && req.type !== 'boolean' && !regexOk(pattern, text)) {
    return { value: null, problem: { key: 'input.badFormat', params: { pattern } } };
  }
  return { value, problem: null };
}

export interface Draft {
  values: FormValues;
  comment: string;
  response: string;
  /** The decision for confirm / mixed; null until a button is pressed. */
  approved: boolean | null;
}

export interface Checked {
  answer: InputAnswer;
  problems: Record<string, FieldProblem>;
  ok: boolean;
}

/** The answer to send, or the problems to show at each field (`approved`, `comment`, `response` included). */
export function buildAnswer(request: InputRequest, draft: Draft): Checked {
  const answer: InputAnswer = {};
  const problems: Record<string, FieldProblem> = {};
  const rejecting = request.mode === 'mixed' && draft.approved === false;
  for (const req of requirementsOf(request)) {
    const { value, problem } = checkField(req, draft.values[req.id], req.required === true && !rejecting);
    if (problem) problems[req.id] = problem;
    else answer[req.id] = value;
  }
  if (asksApproval(request)) {
    if (draft.approved === null) problems.approved = { key: 'input.required' };
    else answer.approved = draft.approved;
  }
  const commentRequired = isConfirm(request) && request.options.comment_required === true;
  if (draft.comment.trim() !== '') answer.comment = draft.comment;
  else if (commentRequired) problems.comment = { key: 'input.required' };
  if (asksResponse(request)) {
    if (draft.response.trim() === '') problems.response = { key: 'input.required' };
    else answer.response = draft.response;
  }
  return { answer, problems, ok: Object.keys(problems).length === 0 };
}

export function emptyDraft(request: InputRequest): Draft {
  const values: FormValues = {};
  for (const r of requirementsOf(request)) values[r.id] = '';
  return { values, comment: '', response: '', approved: null };
}
