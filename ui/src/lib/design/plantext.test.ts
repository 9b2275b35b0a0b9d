import { describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { parse } from 'yaml';
import { planId, STARTER_PLAN, STARTER_PLAN_JA, starterPlan } from './plantext';

describe('plan text', () => {
  it('reads the plan id', () => {
    expect(planId('apiVersion: planwright/v1\nid: monthly\n')).toBe('monthly');
    expect(planId('graph: []')).toBeNull();
  });
});

describe('the new-plan template in Japanese', () => {
  it('is the same plan with its words in Japanese', () => {
    const en = parse(STARTER_PLAN) as { graph: { id: string; block: string; in: Record<string, unknown> }[] };
    const ja = parse(STARTER_PLAN_JA) as typeof en;
    expect(ja.graph.map((n) => [n.id, n.block, Object.keys(n.in)])).toEqual(en.graph.map((n) => [n.id, n.block, Object.keys(n.in)]));
    expect(STARTER_PLAN_JA).toMatch(/置き換えてください/);
    expect(starterPlan('ja')).toBe(STARTER_PLAN_JA);
    expect(starterPlan('en')).toBe(STARTER_PLAN);
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
});
