import { describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { parse } from 'yaml';
import { blockSnippet, insertIntoGraph, planId, planVars, STARTER_PLAN, suggestId } from './plantext';

const block = {
  id: 'excel.read_data',
  inputs: [
    { name: 'path', type: 'string', required: true, description: { en: '', ja: '' } },
    { name: 'sheet', type: 'string', required: false, description: { en: '', ja: '' } },
    { name: 'header_row', type: 'integer', required: true, default: 1, description: { en: '', ja: '' } },
  ],
  outputs: [{ name: 'rows', type: 'array', required: true, description: { en: '', ja: '' } }],
};

describe('snippets', () => {
  it('suggests an unused id', () => {
    expect(suggestId(block, 'graph:\n  - id: other\n')).toBe('read_data');
    expect(suggestId(block, 'graph:\n  - id: read_data\n  - id: read_data_2\n')).toBe('read_data_3');
  });

  it('writes the required inputs and binds the outputs', () => {
    expect(blockSnippet(block, 'read')).toBe(
      '  - id: read\n    block: excel.read_data\n    in:\n      path:\n      header_row: 1\n    out: {rows: rows}\n',
    );
  });

  it('inserts at the end of the graph section, before a later top-level key', () => {
    const text = 'id: p\ngraph:\n  - id: a\n    block: x.y\n\nui:\n  layout: [a]\n';
    const r = insertIntoGraph(text, '  - id: b\n    block: x.z\n');
    expect(r.text).toBe('id: p\ngraph:\n  - id: a\n    block: x.y\n\n  - id: b\n    block: x.z\n\nui:\n  layout: [a]\n');
    expect(r.text.slice(r.at).startsWith('  - id: b')).toBe(true);
  });

  it('inserts at the end when the graph is last', () => {
    const r = insertIntoGraph('id: p\ngraph:\n  - id: a\n', '  - id: b\n');
    expect(r.text).toBe('id: p\ngraph:\n  - id: a\n\n  - id: b\n');
  });

  it('adds a graph section when there is none', () => {
    expect(insertIntoGraph('id: p', '  - id: b\n').text).toBe('id: p\ngraph:\n  - id: b\n');
    expect(insertIntoGraph('', '  - id: b\n').text).toBe('graph:\n  - id: b\n');
  });

  it('fills an empty graph section', () => {
    expect(insertIntoGraph('id: p\ngraph:\n', '  - id: b\n').text).toBe('id: p\ngraph:\n  - id: b\n');
  });
});

describe('plan text', () => {
  it('reads vars in order', () => {
    expect(planVars('vars:\n  month: "2024-04"\n  n: 3\n  ok: true\ngraph: []\n')).toEqual([
      { name: 'month', value: '2024-04' },
      { name: 'n', value: 3 },
      { name: 'ok', value: true },
    ]);
    expect(planVars('vars: [1]')).toEqual([]);
    expect(planVars(': : :\n  - [')).toEqual([]);
  });

  it('reads the plan id', () => {
    expect(planId('apiVersion: planwright/v1\nid: monthly\n')).toBe('monthly');
    expect(planId('graph: []')).toBeNull();
  });
});

describe('the new-plan template', () => {
  // The server validates; without it, check what docs/plan-format.md requires, and the block's spec.
  type Node = { id: string; block: string; in: Record<string, unknown> };
  const doc = parse(STARTER_PLAN) as { apiVersion: string; id: string; version: string; graph: Node[] };

  it('has the required top-level fields and a graph list with a node', () => {
    expect(doc.apiVersion).toBe('planwright/v1');
    expect(doc.id).toMatch(/^[a-z0-9][a-z0-9_-]*$/);
    expect(doc.version).toMatch(/^\d+\.\d+\.\d+/);
    expect(Array.isArray(doc.graph)).toBe(true);
    expect(doc.graph).toHaveLength(1);
    expect(planId(STARTER_PLAN)).toBe('new_plan');
  });

  it('gives the block every required input, with allowed values', () => {
    const node = doc.graph[0]!;
    const spec = parse(readFileSync(new URL(`../../../../block_specs/report/${node.block}.yaml`, import.meta.url), 'utf8')) as {
      id: string;
      inputs: Record<string, { required?: boolean; enum?: unknown[] }>;
    };
    expect(spec.id).toBe(node.block);
    for (const [name, port] of Object.entries(spec.inputs)) {
      if (port.required) expect(node.in, name).toHaveProperty(name);
      if (port.enum && name in node.in) expect(port.enum, name).toContain(node.in[name]);
    }
    for (const name of Object.keys(node.in)) expect(Object.keys(spec.inputs)).toContain(name);
  });

  it('takes a block from the catalog at the end of its graph', () => {
    const { text } = insertIntoGraph(STARTER_PLAN, blockSnippet(block, 'read_data'));
    const after = parse(text) as { graph: { id: string }[] };
    expect(after.graph.map((n) => n.id)).toEqual(['write_report', 'read_data']);
  });
});
