// Lists and objects edited as small tables instead of JSON: a list of objects as rows under
// columns (`transforms.filter`'s conditions), a list of plain values as one column
// (`group_by_agg`'s keys), an object as name/value pairs (a locator, HTTP headers). The columns
// come from the port's type (`array(object(field: string, op: string))`) and from the keys the
// value already has. A value a table cannot show (nested lists or objects, an expression)
// is left to the JSON field.
import type { PortInfo } from '../api/types/PortInfo';
import type { JsonValue as Json } from '../api/types/serde_json/JsonValue';

/** A type as the catalog writes it, read into its parts. */
interface TypeTree {
  base: string;
  items?: TypeTree;
  props?: { name: string; type: TypeTree }[];
}

/** Reads `array(object(a: string, b: number | null))`; null when it is not that grammar. */
export function readType(text: string): TypeTree | null {
  let at = 0;
  const skip = () => {
    while (text[at] === ' ') at++;
  };
  const word = () => {
    skip();
    const m = /^[A-Za-z_][\w.-]*/.exec(text.slice(at));
    if (!m) return null;
    at += m[0].length;
    return m[0];
  };
  const one = (): TypeTree | null => {
    const base = word();
    if (!base) return null;
    skip();
    if (text[at] !== '(') return { base };
    at++;
    if (base === 'array') {
      const items = union();
      skip();
      if (!items || text[at] !== ')') return null;
      at++;
      return { base, items };
    }
    const props: { name: string; type: TypeTree }[] = [];
    for (;;) {
      const name = word();
      skip();
      if (!name || text[at] !== ':') return null;
      at++;
      const type = union();
      if (!type) return null;
      props.push({ name, type });
      skip();
      if (text[at] === ',') {
        at++;
        continue;
      }
      if (text[at] !== ')') return null;
      at++;
      return { base, props };
    }
  };
  // A union is read as its one member other than null; a real union is `any` to a table.
  const union = (): TypeTree | null => {
    const members: TypeTree[] = [];
    for (;;) {
      const t = one();
      if (!t) return null;
      members.push(t);
      skip();
      if (text[at] !== '|') break;
      at++;
    }
    const real = members.filter((m) => m.base !== 'null');
    return real.length === 1 ? real[0]! : { base: 'any' };
  };
  const tree = union();
  skip();
  return tree && at === text.length ? tree : null;
}

const SCALARS = new Set(['string', 'integer', 'number', 'boolean', 'file', 'any']);

export interface Column {
  name: string;
  /** The declared type (`any` for keys only the value has). */
  type: string;
  /** Declared by the port's type: its name cannot be changed or removed. */
  declared: boolean;
  /** The declared field's help and list of values, when the catalog gives them. */
  field?: PortInfo;
}

/** How a port's value is shown as a table. */
export type TableShape =
  | { kind: 'rows'; columns: Column[] }
  | { kind: 'list'; type: string }
  | { kind: 'fields'; fields: Column[]; open: boolean };

const isScalar = (v: Json | undefined) => v === null || v === undefined || typeof v !== 'object';

/** The table a port holding `value` is edited with, or null for the JSON field. */
export function tableShape(port: Pick<PortInfo, 'type' | 'fields'>, value: Json | undefined): TableShape | null {
  const tree = readType(port.type);
  if (!tree) return null;
  const empty = value === undefined || value === null;
  if (tree.base === 'array' && tree.items) {
    const rows = empty ? [] : value;
    if (!Array.isArray(rows)) return null;
    if (SCALARS.has(tree.items.base)) {
      return rows.every((r) => isScalar(r)) ? { kind: 'list', type: tree.items.base } : null;
    }
    if (tree.items.base !== 'object') return null;
    if (!rows.every((r) => r !== null && typeof r === 'object' && !Array.isArray(r) && Object.values(r).every(isScalar))) return null;
    const declared = columnsOf(tree.items, port.fields);
    if (declared === null) return null;
    const extra = [...new Set(rows.flatMap((r) => Object.keys(r as Record<string, Json>)))].filter((k) => !declared.some((c) => c.name === k));
    const columns = [...declared, ...extra.map((name) => ({ name, type: 'any', declared: false }))];
    return columns.length > 0 ? { kind: 'rows', columns } : null;
  }
  if (tree.base === 'object') {
    const fields = empty ? {} : value;
    if (typeof fields !== 'object' || Array.isArray(fields) || !Object.values(fields).every(isScalar)) return null;
    const declared = columnsOf(tree, port.fields);
    if (declared === null) return null;
    const extra = Object.keys(fields).filter((k) => !declared.some((c) => c.name === k));
    return {
      kind: 'fields',
      fields: [...declared, ...extra.map((name) => ({ name, type: 'any', declared: false }))],
      open: declared.length === 0,
    };
  }
  return null;
}

/**
 * The declared plain properties as columns: one a cell cannot hold (an aggregation's `when` list)
 * is no column, and a value that has it is left to the JSON field. Null when no declared
 * property is plain.
 */
function columnsOf(tree: TypeTree, fields: PortInfo[] = []): Column[] | null {
  const all = tree.props ?? [];
  const props = all.filter((p) => SCALARS.has(p.type.base));
  if (all.length > 0 && props.length === 0) return null;
  return props.map((p) => ({ name: p.name, type: p.type.base, declared: true, field: fields.find((f) => f.name === p.name) }));
}

/** What a cell shows for a value. */
export function cellText(v: Json | undefined): string {
  return v === undefined || v === null ? '' : String(v);
}

export type Cell = { ok: true; value: Json | undefined } | { ok: false; error: 'notNumber' | 'notInteger' | 'notBoolean' };

/**
 * A cell's text as its value: empty is no value; a declared type is kept (a number column takes
 * numbers only); an undeclared column reads `true`, `false` and plain numbers as such (not `007`,
 * which stays text) and everything else, `${…}` references included, as text.
 */
export function cellValue(type: string, raw: string): Cell {
  const text = raw.trim();
  if (text === '') return { ok: true, value: undefined };
  if (type === 'string' || type === 'file' || /^\$\{[^{}]+\}$/.test(text)) return { ok: true, value: type === 'string' || type === 'file' ? raw : text };
  const number = /^-?(0|[1-9]\d*)(\.\d+)?([eE][+-]?\d+)?$/.test(text) ? Number(text) : null;
  if (type === 'integer') return number !== null && Number.isInteger(number) ? { ok: true, value: number } : { ok: false, error: 'notInteger' };
  if (type === 'number') return number !== null ? { ok: true, value: number } : { ok: false, error: 'notNumber' };
  const bool = text === 'true' ? true : text === 'false' ? false : null;
  if (type === 'boolean') return bool !== null ? { ok: true, value: bool } : { ok: false, error: 'notBoolean' };
  return { ok: true, value: bool ?? number ?? raw };
}

/** Rows of cell texts (one row per item; a list's rows have one cell) as the port's value. */
export function tableValue(shape: TableShape, rows: string[][]): { ok: true; value: Json } | { ok: false; row: number; column: number; error: string } {
  if (shape.kind === 'list') {
    const out: Json[] = [];
    for (const [r, row] of rows.entries()) {
      const cell = cellValue(shape.type, row[0] ?? '');
      if (!cell.ok) return { ok: false, row: r, column: 0, error: cell.error };
      if (cell.value !== undefined) out.push(cell.value);
    }
    return { ok: true, value: out };
  }
  const columns = shape.kind === 'rows' ? shape.columns : shape.fields;
  const objectOf = (row: string[], r: number) => {
    const o: Record<string, Json> = {};
    for (const [c, column] of columns.entries()) {
      const cell = cellValue(column.type, row[c] ?? '');
      if (!cell.ok) return { ok: false as const, row: r, column: c, error: cell.error };
      if (cell.value !== undefined) o[column.name] = cell.value;
    }
    return { ok: true as const, value: o };
  };
  if (shape.kind === 'fields') return objectOf(rows[0] ?? [], 0);
  const out: Json[] = [];
  for (const [r, row] of rows.entries()) {
    if (row.every((c) => c.trim() === '')) continue;
    const o = objectOf(row, r);
    if (!o.ok) return o;
    out.push(o.value);
  }
  return { ok: true, value: out };
}

/** A value as rows of cell texts under the shape's columns. */
export function tableRows(shape: TableShape, value: Json | undefined): string[][] {
  if (shape.kind === 'list') return Array.isArray(value) ? value.map((v) => [cellText(v)]) : [];
  const columns = shape.kind === 'rows' ? shape.columns : shape.fields;
  const row = (o: Json) => columns.map((c) => cellText((o as Record<string, Json>)?.[c.name]));
  if (shape.kind === 'fields') return [row(value && typeof value === 'object' ? value : {})];
  return Array.isArray(value) ? value.map(row) : [];
}
