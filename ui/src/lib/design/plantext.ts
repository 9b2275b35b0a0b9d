// Small pure helpers on a plan's YAML text: block snippets, their insertion, the plan's vars.
import { parse } from 'yaml';
import type { BlockInfo } from '../api/types/BlockInfo';
import type { JsonValue as Json } from '../api/types/serde_json/JsonValue';

/**
 * The text a new plan starts from. It must validate, so a new user does not start with an error:
 * docs/plan-format.md section 3 requires `apiVersion`, `id`, `version` and a `graph` list; one
 * `report.write` node (its required inputs `data` and `path` given) makes it a plan that runs and
 * shows where steps go. (A bare `graph:` is null, not a list: `invalid_type`.)
 */
export const STARTER_PLAN = `apiVersion: planwright/v1
id: new_plan
version: 0.1.0
description: What this automation does, in a sentence.
graph:
  - id: write_report
    description: A first step to replace with your own; it writes a small report.
    block: report.write
    in:
      data: {message: Replace this step with the first step of your automation.}
      format: markdown
      path: out/new_plan.md
`;

/** A node id for a block not used yet in the text: `read_data`, `read_data_2` … */
export function suggestId(block: Pick<BlockInfo, 'id'>, text: string): string {
  const base = (block.id.split('.').pop() ?? 'step').replace(/[^A-Za-z0-9_-]/g, '_') || 'step';
  const used = new Set([...text.matchAll(/^\s*(?:-\s+)?id:\s*["']?([A-Za-z0-9_-]+)/gm)].map((m) => m[1]));
  if (!used.has(base)) return base;
  for (let i = 2; ; i++) if (!used.has(`${base}_${i}`)) return `${base}_${i}`;
}

function scalar(v: Json | undefined): string {
  if (v === undefined || v === null) return '';
  if (typeof v === 'string') return /^[\w./-]*$/.test(v) && v !== '' ? v : JSON.stringify(v);
  return JSON.stringify(v);
}

/** A graph item for the block: its required inputs to fill, its outputs bound to aliases. */
export function blockSnippet(block: Pick<BlockInfo, 'id' | 'inputs' | 'outputs'>, id: string): string {
  const lines = [`  - id: ${id}`, `    block: ${block.id}`];
  const required = block.inputs.filter((p) => p.required);
  if (required.length) {
    lines.push('    in:');
    for (const p of required) lines.push(`      ${p.name}: ${scalar(p.default)}`.trimEnd());
  }
  if (block.outputs.length) {
    lines.push(`    out: {${block.outputs.map((o) => `${o.name}: ${o.name}`).join(', ')}}`);
  }
  return lines.join('\n') + '\n';
}

/**
 * Inserts a graph item at the end of the `graph:` section (adding one when there is none).
 * Returns the new text and the offset of the inserted item.
 */
export function insertIntoGraph(text: string, snippet: string): { text: string; at: number } {
  const lines = text.split('\n');
  const start = lines.findIndex((l) => /^graph:\s*(#.*)?$/.test(l));
  if (start < 0) {
    const sep = text === '' || text.endsWith('\n') ? '' : '\n';
    const head = `${text}${sep}graph:\n`;
    return { text: head + snippet, at: head.length };
  }
  // The section ends at the next top-level key (or the end); trailing blank lines stay after it.
  let end = lines.length;
  for (let i = start + 1; i < lines.length; i++) {
    if (/^[^\s#-]/.test(lines[i]!)) {
      end = i;
      break;
    }
  }
  while (end > start + 1 && lines[end - 1]!.trim() === '') end--;
  const head = `${lines.slice(0, end).join('\n')}\n`;
  const restLines = lines.slice(end);
  let rest = restLines.join('\n');
  if (rest !== '' && restLines[0]!.trim() !== '') rest = `\n${rest}`;
  const blank = end > start + 1 ? '\n' : '';
  return { text: head + blank + snippet + rest, at: head.length + blank.length };
}

export interface PlanVar {
  name: string;
  value: Json;
}

/** The plan's `vars` with their defaults, in order; none when the text does not parse. */
export function planVars(text: string): PlanVar[] {
  let doc: unknown;
  try {
    doc = parse(text);
  } catch {
    return [];
  }
  const vars = doc && typeof doc === 'object' ? (doc as Record<string, unknown>).vars : null;
  if (!vars || typeof vars !== 'object' || Array.isArray(vars)) return [];
  return Object.entries(vars as Record<string, Json>).map(([name, value]) => ({ name, value }));
}

/** The `id` of the plan, when it can be read. */
export function planId(text: string): string | null {
  const m = /^id:\s*["']?([A-Za-z0-9_.-]+)/m.exec(text);
  return m ? m[1]! : null;
}
