// The node inspector's view model: a node's inputs as form fields of their types, and the values
// it may take from elsewhere in the plan (the outputs of the nodes before it, the vars, a loop's
// item), each with its type and whether it fits. Reading the plan text is done here; every edit
// is made in Rust on the parsed document (`api.editPlan`), never by rewriting the text here.
import { isMap, isSeq, parse, parseDocument, type Node as YamlNode } from 'yaml';
import type { BlockInfo } from '../api/types/BlockInfo';
import type { PortInfo } from '../api/types/PortInfo';
import type { Step } from '../api/types/Step';
import type { JsonValue as Json } from '../api/types/serde_json/JsonValue';
import { parseVar, type Parsed } from '../run/readiness';
import { valueLine } from './fills';

export interface PlanNode {
  id: string;
  block?: string;
  in?: Record<string, Json>;
  out?: Record<string, string>;
  foreach?: { input?: Json; item_var?: string; index_var?: string };
  body?: { plan?: { graph?: PlanNode[] } };
}

interface PlanDoc {
  vars?: Record<string, Json>;
  graph?: PlanNode[];
}

function readPlan(text: string): PlanDoc | null {
  try {
    const doc = parse(text) as unknown;
    return doc && typeof doc === 'object' && !Array.isArray(doc) ? (doc as PlanDoc) : null;
  } catch {
    return null;
  }
}

const graphOf = (nodes: unknown): PlanNode[] => (Array.isArray(nodes) ? nodes.filter((n): n is PlanNode => !!n && typeof n === 'object' && typeof (n as PlanNode).id === 'string') : []);

/** The node at `path` (`id`, or `loop/inner` inside a loop's body), with the levels around it. */
function locate(doc: PlanDoc, path: string): { node: PlanNode; levels: { graph: PlanNode[]; index: number }[] } | null {
  let graph = graphOf(doc.graph);
  const levels: { graph: PlanNode[]; index: number }[] = [];
  const parts = path.split('/');
  for (let i = 0; i < parts.length; i++) {
    const index = graph.findIndex((n) => n.id === parts[i]);
    if (index < 0) return null;
    levels.push({ graph, index });
    const node = graph[index]!;
    if (i === parts.length - 1) return { node, levels };
    graph = graphOf(node.body?.plan?.graph);
  }
  return null;
}

/** The node at `path` as written, or null. */
export function findNode(text: string, path: string): PlanNode | null {
  const doc = readPlan(text);
  return doc ? (locate(doc, path)?.node ?? null) : null;
}

/**
 * The node still to inspect after the text changed: `path` while the text has it, or while the
 * text cannot be read (the inspector says so until it is mended); none once the text reads
 * without it (a plan pasted over, the node renamed or deleted).
 */
export function stillInspected(text: string, path: string | null): string | null {
  const doc = path === null ? null : readPlan(text);
  if (path === null || doc === null) return path;
  return locate(doc, path) ? path : null;
}

/**
 * The node the editor's cursor is in: its path (`id`, or `loop/inner` inside a loop's body), the
 * innermost node whose entry in a `graph:` list holds `offset`; null outside every node or when
 * the text cannot be read.
 */
export function nodeAt(text: string, offset: number): string | null {
  let doc;
  try {
    doc = parseDocument(text);
  } catch {
    return null;
  }
  if (doc.errors.length > 0) return null;
  const within = (n: YamlNode | null | undefined) => !!n?.range && n.range[0] <= offset && offset <= n.range[1];
  let path: string | null = null;
  let graph: unknown = isMap(doc.contents) ? doc.contents.get('graph', true) : undefined;
  while (isSeq(graph)) {
    const entry = graph.items.find((item) => isMap(item) && within(item));
    if (!isMap(entry)) break;
    const id = entry.get('id');
    if (typeof id !== 'string') break;
    path = path ? `${path}/${id}` : id;
    const body = entry.get('body', true);
    const plan = isMap(body) ? body.get('plan', true) : undefined;
    graph = isMap(plan) ? plan.get('graph', true) : undefined;
  }
  return path;
}

export type FieldKind = 'text' | 'number' | 'integer' | 'boolean' | 'select' | 'file' | 'json';

/** The form field an input is edited with, from its port. */
export function fieldKind(port: PortInfo): FieldKind {
  if (port.options && port.options.length > 0) return 'select';
  const types = port.type.split('|').map((t) => t.trim()).filter((t) => t !== 'null');
  const ty = types.length === 1 ? types[0]! : 'any';
  if (ty === 'boolean') return 'boolean';
  if (ty === 'integer') return 'integer';
  if (ty === 'number') return 'number';
  if (ty === 'file') return 'file';
  if (ty === 'string') return 'text';
  return 'json';
}

/** A `${…}` reference written as the whole value. */
export function wholeReference(v: Json | undefined): string | null {
  return typeof v === 'string' && /^\$\{[^{}]+\}$/.test(v.trim()) ? v.trim() : null;
}

/** The text a field shows for a value. */
export function valueText(kind: FieldKind, v: Json | undefined): string {
  if (v === undefined || v === null) return '';
  if (kind === 'json' || typeof v === 'object') return JSON.stringify(v, null, 2);
  return String(v);
}

export type FieldValue = Parsed;

/** A field's text as the value to set: `parseVar`'s reading, except that a number or JSON field left empty is refused, and a list's option keeps the spec's type. */
export function fieldValue(kind: FieldKind, raw: string, options: Json[] = []): FieldValue {
  if (kind === 'select') return { ok: true, value: options.find((o) => String(o) === raw) ?? raw };
  if (raw.trim() === '' && (kind === 'number' || kind === 'integer')) return { ok: false, error: 'notNumber' };
  if (raw.trim() === '' && kind === 'json') return { ok: false, error: 'badJson' };
  return parseVar(kind, raw);
}

export interface Choice {
  /** `${node.alias}`, `${vars.name}` or a loop's `${vars.item}`. */
  reference: string;
  /** Where it comes from: a node id, `vars`, or the loop. */
  from: string;
  type: string;
  /** Where its sample value is: a dry-run step's output, the first item of a loop's input, or a var's value. */
  sample: { step: string; alias: string } | { loop: string; index: boolean } | { value: Json };
}

/**
 * What the node at `path` may read: the outputs of the nodes before it at its level and the
 * levels around it (a loop body sees what came before its loop), the plan's vars, and the item
 * (and index) of each loop it is in.
 */
export function choicesFor(text: string, path: string, catalog: Map<string, BlockInfo>): Choice[] {
  const doc = readPlan(text);
  const found = doc ? locate(doc, path) : null;
  if (!doc || !found) return [];
  const choices: Choice[] = [];
  // The dry-run names a step inside a loop's body `loop/inner`.
  const stepOf = (depth: number, id: string) => [...path.split('/').slice(0, depth), id].join('/');
  for (const [depth, { graph, index }] of found.levels.entries()) {
    for (const node of graph.slice(0, index)) {
      const block = node.block ? catalog.get(node.block.split('@')[0]!) : undefined;
      for (const [key, alias] of Object.entries(node.out ?? {})) {
        if (typeof alias !== 'string') continue;
        const port = block?.outputs.find((o) => o.name === key);
        choices.push({ reference: `\${${node.id}.${alias}}`, from: node.id, type: port?.type ?? 'any', sample: { step: stepOf(depth, node.id), alias } });
      }
    }
  }
  for (const [depth, { graph, index }] of found.levels.slice(0, -1).entries()) {
    const loop = graph[index]!.foreach;
    const step = stepOf(depth, graph[index]!.id);
    if (loop) {
      choices.push({ reference: `\${vars.${loop.item_var ?? 'item'}}`, from: graph[index]!.id, type: 'any', sample: { loop: step, index: false } });
      if (loop.index_var) choices.push({ reference: `\${vars.${loop.index_var}}`, from: graph[index]!.id, type: 'integer', sample: { loop: step, index: true } });
    }
  }
  for (const [name, value] of Object.entries(doc.vars ?? {})) {
    choices.push({ reference: `\${vars.${name}}`, from: 'vars', type: jsonType(value), sample: { value } });
  }
  return choices;
}

/** A choice's sample value from a dry-run's steps (a var's from the plan), or undefined. */
export function sampleOf(choice: Choice, steps: readonly Step[]): Json | undefined {
  const where = choice.sample;
  if ('value' in where) return where.value;
  if ('step' in where) return steps.find((s) => s.id === where.step)?.outputs[where.alias];
  if (where.index) return 0;
  const items = steps.find((s) => s.id === where.loop)?.inputs['foreach.input'];
  return Array.isArray(items) ? items[0] : undefined;
}

/** A value in one short line: compact JSON (text quoted), cut with an ellipsis as `valueLine` cuts. */
export function shortSample(v: Json, max = 60): string {
  return valueLine(JSON.stringify(v) ?? 'null', max);
}

function jsonType(v: Json): string {
  if (v === null) return 'any';
  if (Array.isArray(v)) return 'array';
  if (typeof v === 'object') return 'object';
  if (typeof v === 'number') return Number.isInteger(v) ? 'integer' : 'number';
  return typeof v;
}

/** `array(object)` → `array`; `string | null` → [`string`]. */
function bases(type: string): string[] {
  return type
    .split('|')
    .map((t) => t.trim().replace(/[(<].*$/, ''))
    .filter((t) => t !== '' && t !== 'null');
}

/** Whether a value of type `given` may fill an input of type `wanted`; if not, why. */
export function fits(wanted: string, given: string): { ok: true } | { ok: false; wanted: string; given: string } {
  const w = bases(wanted);
  const g = bases(given);
  if (w.length === 0 || g.length === 0 || w.includes('any') || g.includes('any')) return { ok: true };
  const accepts = (want: string, have: string) =>
    want === have || (want === 'number' && have === 'integer') || (want === 'file' && have === 'string') || (want === 'string' && have === 'file');
  return g.every((have) => w.some((want) => accepts(want, have))) ? { ok: true } : { ok: false, wanted, given };
}

/**
 * The input of a new node to bind to the selected node's output, and that output: the first
 * required input (else any) whose type an output of the selected node fits.
 */
export function connection(
  newBlock: BlockInfo,
  selected: PlanNode,
  catalog: Map<string, BlockInfo>,
): { input: string; reference: string } | null {
  const from = selected.block ? catalog.get(selected.block.split('@')[0]!) : undefined;
  if (!from) return null;
  const outputs = Object.entries(selected.out ?? {}).map(([key, alias]) => ({ alias, type: from.outputs.find((o) => o.name === key)?.type ?? 'any' }));
  const inputs = [...newBlock.inputs.filter((i) => i.required), ...newBlock.inputs.filter((i) => !i.required)];
  for (const input of inputs) {
    const out = outputs.find((o) => fits(input.type, o.type).ok && bases(o.type).every((b) => b !== 'any'));
    if (out) return { input: input.name, reference: `\${${selected.id}.${out.alias}}` };
  }
  return null;
}

/**
 * The columns a field that names a column may choose from, as the dry-run found them at
 * `node/port` (a scalar input), `node/port/row` (a list) or `node/port/row/column` (a table
 * cell); a row the plan does not have yet takes the first row's.
 */
export function columnChoices(columns: Record<string, string[]>, node: string, port: string, row?: number, column?: string): string[] | undefined {
  const key = (r: number | undefined) => [node, port, ...(r === undefined ? [] : [String(r)]), ...(column === undefined ? [] : [column])].join('/');
  return columns[key(row)] ?? (row === undefined ? undefined : columns[key(0)]);
}
