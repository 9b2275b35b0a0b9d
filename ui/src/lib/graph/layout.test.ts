import { describe, expect, it } from 'vitest';
import type { PlanGraph } from '../api/types/PlanGraph';
import { assignLayers, countCrossings, layoutGraph, orderLayers, SIZES } from './layout';

const chain: PlanGraph = {
  nodes: [
    { id: 'read', kind: 'block', block: 'excel.read_data' },
    { id: 'totals', kind: 'block', block: 'transforms.group_by_agg' },
    { id: 'approve', kind: 'block', block: 'ui.confirmation' },
    { id: 'write', kind: 'block', block: 'excel.write' },
    { id: 'note', kind: 'block', block: 'report.write' },
  ],
  edges: [
    { from: 'read', to: 'totals', kind: 'data' },
    { from: 'totals', to: 'approve', kind: 'data' },
    { from: 'read', to: 'approve', kind: 'data' },
    { from: 'approve', to: 'write', kind: 'data' },
    { from: 'approve', to: 'note', kind: 'after' },
  ],
};

const overlap = (a: { x: number; y: number; w: number; h: number }, b: typeof a) =>
  a.x < b.x + b.w && b.x < a.x + a.w && a.y < b.y + b.h && b.y < a.y + a.h;

describe('assignLayers', () => {
  it('puts each node below everything it depends on (longest path)', () => {
    const l = assignLayers(['a', 'b', 'c'], [['a', 'b'], ['b', 'c'], ['a', 'c']]);
    expect([l.get('a'), l.get('b'), l.get('c')]).toEqual([0, 1, 2]);
  });

  it('survives cycles and self loops', () => {
    const l = assignLayers(['a', 'b'], [['a', 'b'], ['b', 'a'], ['a', 'a']]);
    expect(l.get('a')).toBe(0);
    expect(l.get('b')).toBe(1);
  });
});

describe('orderLayers', () => {
  it('reduces crossings by following the parents', () => {
    const o = orderLayers([['a', 'b'], ['y', 'x']], [['a', 'x'], ['b', 'y']]);
    expect(o[1]).toEqual(['x', 'y']);
  });

  it('counts crossings between consecutive layers', () => {
    expect(countCrossings([['a', 'b'], ['x', 'y']], [['a', 'y'], ['b', 'x']])).toBe(1);
    expect(countCrossings([['a', 'b'], ['x', 'y']], [['a', 'x'], ['b', 'y'], ['a', 'b']])).toBe(0);
  });

  it('reorders the layer above too, and never ends with more crossings than it was given', () => {
    // y's parents a and c straddle x's parent b: only moving b aside uncrosses c–y and b–x.
    const layers = [['a', 'b', 'c'], ['y', 'x']];
    const edges: [string, string][] = [['a', 'y'], ['c', 'y'], ['b', 'x']];
    expect(countCrossings(layers, edges)).toBe(1);
    expect(countCrossings(orderLayers(layers, edges), edges)).toBe(0);
    // A complete bipartite pair crosses once in every order: the given order stays.
    const mesh: [string, string][] = [['p', 'r'], ['p', 's'], ['q', 'r'], ['q', 's']];
    expect(orderLayers([['p', 'q'], ['r', 's']], mesh)).toEqual([['p', 'q'], ['r', 's']]);
  });
});

describe('layoutGraph', () => {
  it('places dependants lower and nodes of a layer side by side without overlap', () => {
    const l = layoutGraph(chain);
    const at = Object.fromEntries(l.nodes.map((n) => [n.id, n]));
    expect(at.read!.y).toBeLessThan(at.totals!.y);
    expect(at.totals!.y).toBeLessThan(at.approve!.y);
    expect(at.write!.y).toBe(at.note!.y);
    for (const a of l.nodes) for (const b of l.nodes) if (a !== b) expect(overlap(a, b), `${a.id}/${b.id}`).toBe(false);
    for (const n of l.nodes) {
      expect(n.x + n.w).toBeLessThanOrEqual(l.width);
      expect(n.y + n.h).toBeLessThanOrEqual(l.height);
    }
    expect(l.edges).toHaveLength(5);
    expect(l.edges.find((e) => e.to === 'note')!.kind).toBe('after');
    for (const e of l.edges) expect(e.path).toMatch(/^M[\d.]+,[\d.]+ C/);
  });

  it('routes an edge that skips a layer beside the nodes of that layer, not through them', () => {
    const l = layoutGraph(chain);
    const at = Object.fromEntries(l.nodes.map((n) => [n.id, n]));
    const long = l.edges.find((e) => e.from === 'read' && e.to === 'approve')!;
    expect(long.via).toHaveLength(1);
    const lane = long.via[0]!;
    const totals = at.totals!;
    expect(lane.top).toBeLessThanOrEqual(totals.y);
    expect(lane.bottom).toBeGreaterThanOrEqual(totals.y + totals.h);
    expect(lane.x < totals.x || lane.x > totals.x + totals.w, `lane at ${lane.x}, totals ${totals.x}–${totals.x + totals.w}`).toBe(true);
    expect(long.path).toMatch(/ C[^L]+ L[\d.]+,[\d.]+ C/);
    expect(l.edges.find((e) => e.from === 'read' && e.to === 'totals')!.via).toEqual([]);
  });

  it('routes long edges inside a loop body within the loop', () => {
    const g: PlanGraph = {
      nodes: [
        { id: 'each', kind: 'loop' },
        { id: 'a', kind: 'block', block: 'x.a', parent: 'each' },
        { id: 'b', kind: 'block', block: 'x.b', parent: 'each' },
        { id: 'c', kind: 'block', block: 'x.c', parent: 'each' },
      ],
      edges: [
        { from: 'a', to: 'b', kind: 'data' },
        { from: 'b', to: 'c', kind: 'data' },
        { from: 'a', to: 'c', kind: 'data' },
      ],
    };
    const l = layoutGraph(g);
    const each = l.nodes.find((n) => n.id === 'each')!;
    const b = l.nodes.find((n) => n.id === 'b')!;
    const [lane] = l.edges.find((e) => e.from === 'a' && e.to === 'c')!.via;
    expect(lane).toBeDefined();
    expect(lane!.x).toBeGreaterThan(each.x);
    expect(lane!.x).toBeLessThan(each.x + each.w);
    expect(lane!.x < b.x || lane!.x > b.x + b.w).toBe(true);
  });

  it('draws loop bodies inside their loop', () => {
    const g: PlanGraph = {
      nodes: [
        { id: 'list', kind: 'block', block: 'x.list' },
        { id: 'each', kind: 'loop' },
        { id: 'extract', kind: 'block', block: 'pdf.extract', parent: 'each' },
        { id: 'check', kind: 'block', block: 'x.check', parent: 'each' },
        { id: 'save', kind: 'block', block: 'x.save' },
      ],
      edges: [
        { from: 'list', to: 'each', kind: 'data' },
        { from: 'extract', to: 'check', kind: 'data' },
        { from: 'list', to: 'extract', kind: 'data' },
        { from: 'each', to: 'save', kind: 'data' },
      ],
    };
    const l = layoutGraph(g);
    const at = Object.fromEntries(l.nodes.map((n) => [n.id, n]));
    const each = at.each!;
    expect(each.group).toBe(true);
    for (const id of ['extract', 'check']) {
      const n = at[id]!;
      expect(n.depth).toBe(1);
      expect(n.x).toBeGreaterThanOrEqual(each.x);
      expect(n.y).toBeGreaterThanOrEqual(each.y + SIZES.header);
      expect(n.x + n.w).toBeLessThanOrEqual(each.x + each.w);
      expect(n.y + n.h).toBeLessThanOrEqual(each.y + each.h);
    }
    expect(at.extract!.y).toBeLessThan(at.check!.y);
    expect(at.list!.y + at.list!.h).toBeLessThanOrEqual(each.y);
    expect(at.save!.y).toBeGreaterThanOrEqual(each.y + each.h);
    // The group comes before its members (drawn underneath).
    expect(l.nodes.findIndex((n) => n.id === 'each')).toBeLessThan(l.nodes.findIndex((n) => n.id === 'extract'));
    expect(l.edges.some((e) => e.from === 'list' && e.to === 'extract')).toBe(true);
  });

  it('draws an edge leaving a loop from the bottom of its box, not down through its body', () => {
    const g: PlanGraph = {
      nodes: [
        { id: 'each', kind: 'loop' },
        { id: 'each/a', kind: 'block', block: 'x.a', parent: 'each' },
        { id: 'each/b', kind: 'block', block: 'x.b', parent: 'each' },
        { id: 'save', kind: 'block', block: 'x.save' },
      ],
      edges: [
        { from: 'each/a', to: 'each/b', kind: 'data' },
        { from: 'each', to: 'save', kind: 'data' },
      ],
    };
    const l = layoutGraph(g);
    const each = l.nodes.find((n) => n.id === 'each')!;
    const start = l.edges.find((e) => e.from === 'each')!.path.match(/^M([\d.]+),([\d.]+)/)!;
    expect(Number(start[2])).toBe(each.y + each.h);
  });

  it('brings an edge from outside a loop to a later body node down a lane beside the nodes above it', () => {
    const g: PlanGraph = {
      nodes: [
        { id: 'rates', kind: 'block', block: 'x.rates' },
        { id: 'each', kind: 'loop' },
        { id: 'each/read', kind: 'block', block: 'x.read', parent: 'each' },
        { id: 'each/check', kind: 'block', block: 'x.check', parent: 'each' },
        { id: 'each/convert', kind: 'block', block: 'x.convert', parent: 'each' },
      ],
      edges: [
        { from: 'rates', to: 'each', kind: 'data' },
        { from: 'each/read', to: 'each/check', kind: 'data' },
        { from: 'each/check', to: 'each/convert', kind: 'data' },
        { from: 'rates', to: 'each/convert', kind: 'data' },
      ],
    };
    const l = layoutGraph(g);
    const at = Object.fromEntries(l.nodes.map((n) => [n.id, n]));
    const entry = l.edges.find((e) => e.from === 'rates' && e.to === 'each/convert')!;
    expect(entry.via).toHaveLength(2);
    for (const [lane, id] of [[entry.via[0]!, 'each/read'], [entry.via[1]!, 'each/check']] as const) {
      const n = at[id]!;
      expect(lane.x > at.each!.x && lane.x < at.each!.x + at.each!.w).toBe(true);
      expect(lane.x < n.x || lane.x > n.x + n.w, `lane at ${lane.x}, ${id} ${n.x}–${n.x + n.w}`).toBe(true);
      expect(lane.top).toBeLessThanOrEqual(n.y);
      expect(lane.bottom).toBeGreaterThanOrEqual(n.y + n.h);
    }
    for (const a of l.nodes) for (const b of l.nodes) if (a !== b && a.depth === b.depth) expect(overlap(a, b), `${a.id}/${b.id}`).toBe(false);
  });

  it('copes with an empty graph, unknown edge ends, a parent cycle and duplicate ids', () => {
    expect(layoutGraph({ nodes: [], edges: [] }).nodes).toEqual([]);
    const l = layoutGraph({
      nodes: [
        { id: 'a', kind: 'loop', parent: 'b' },
        { id: 'b', kind: 'loop', parent: 'a' },
        { id: 'c', kind: 'block' },
        { id: 'c', kind: 'block' },
      ],
      edges: [{ from: 'c', to: 'ghost', kind: 'data' }],
    });
    expect(l.nodes.map((n) => n.id)).toEqual(['c']);
    expect(l.edges).toEqual([]);
  });
});
