// Graph layout: the studio's hand-written layered layout (src/lib/graph/layout.ts) against two
// layout libraries, @dagrejs/dagre and elkjs (ELK Layered), on the example plans and on generated
// 100-node plans. Not part of `npm test`; run it with
//
//   cd ui && npm run bench:graph
//
// With GRAPH_BASELINE=<git revision>, layout.ts as it was at that revision is measured too, in the
// same run (`GRAPH_BASELINE=HEAD npm run bench:graph` before committing a change to it; docs/benchmarks.md names the revision its figures compare with).
// GRAPH_LAYOUTS=hand-written,elk measures only those (the ratios need hand-written).
//
// Every layout gets the same node sizes (nodeWidth with the block's English title, SIZES.nodeH),
// the same gaps (SIZES.gapX between nodes, SIZES.gapY between layers) and the same room for a
// loop's header, so that what differs is only where the nodes and edges go. Measured on each
// drawing, edges taken as drawn (the hand layout's curves flattened, the libraries' polylines):
// crossings between edges that share no end, edges passing through a node that is not theirs,
// overlapping boxes (must be 0), members outside their loop's box or over its header, total edge
// length, width × height, and the scale at which "fit" shows the graph in a 960 px panel (fit
// scales to the panel's width). Times are medians of several layouts of the same graph.
import { graphlib, layout as dagreLayout } from '@dagrejs/dagre';
import ELK from 'elkjs/lib/elk.bundled.js';
import type { ElkExtendedEdge, ElkNode } from 'elkjs/lib/elk-api';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { it } from 'vitest';
import type { GraphEdge } from '../src/lib/api/types/GraphEdge';
import type { GraphNode } from '../src/lib/api/types/GraphNode';
import type { PlanGraph } from '../src/lib/api/types/PlanGraph';
import { layoutGraph, nodeWidth, SIZES } from '../src/lib/graph/layout';

type Pt = [number, number];
interface Box {
  id: string;
  x: number;
  y: number;
  w: number;
  h: number;
  group: boolean;
}
interface Drawing {
  width: number;
  height: number;
  boxes: Box[];
  edges: { from: string; to: string; points: Pt[] }[];
}
interface Case {
  name: string;
  graph: PlanGraph;
  titles: Record<string, string>;
}

const PANEL = 960;
const HEADER = SIZES.header + SIZES.pad;

// ---------------------------------------------------------------- the plans

const fixtures = JSON.parse(readFileSync(join(import.meta.dirname, 'fixtures', 'example-graphs.json'), 'utf8')) as {
  titles: Record<string, string>;
  plans: { name: string; graph: PlanGraph }[];
};
const BLOCKS = Object.keys(fixtures.titles);

/** A small seeded generator (mulberry32), so that every run lays out the same plans. */
function random(seed: number) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

function generated(shape: 'chain' | 'fan' | 'random' | 'loops', n: number, seed: number): PlanGraph {
  const rnd = random(seed);
  const pick = <T>(xs: T[]) => xs[Math.floor(rnd() * xs.length)]!;
  const nodes: GraphNode[] = [];
  const edges: GraphEdge[] = [];
  const block = (id: string, parent?: string): GraphNode => ({ id, kind: 'block', block: pick(BLOCKS), ...(parent ? { parent } : {}) });
  const edge = (from: string, to: string, kind: GraphEdge['kind'] = 'data') => edges.push({ from, to, kind });
  if (shape === 'chain') {
    // Each step reads the one before; every seventh also reads one three steps back.
    for (let i = 0; i < n; i++) {
      nodes.push(block(`step_${i}`));
      if (i > 0) edge(`step_${i - 1}`, `step_${i}`);
      if (i >= 3 && i % 7 === 0) edge(`step_${i - 3}`, `step_${i}`);
    }
  } else if (shape === 'fan') {
    // One read fanned out to n − 2 independent steps, all joined by one write.
    nodes.push(block('read'));
    for (let i = 0; i < n - 2; i++) {
      nodes.push(block(`check_${i}`));
      edge('read', `check_${i}`);
      edge(`check_${i}`, 'write');
    }
    nodes.push(block('write'));
  } else if (shape === 'random') {
    // Each step reads one or two of the eight steps before it (a plan reads what it just made),
    // now and then one far back; a tenth of the steps have an `after`.
    for (let i = 0; i < n; i++) {
      nodes.push(block(`step_${i}`));
      if (i === 0) continue;
      const reads = new Set<number>();
      const k = rnd() < 0.45 ? 2 : 1;
      while (reads.size < Math.min(k, i)) reads.add(rnd() < 0.1 ? Math.floor(rnd() * i) : Math.max(0, i - 1 - Math.floor(rnd() * 8)));
      for (const r of reads) edge(`step_${r}`, `step_${i}`);
      if (rnd() < 0.1 && i > 2) edge(`step_${Math.floor(rnd() * (i - 1))}`, `step_${i}`, 'after');
    }
  } else {
    // Outer steps in a chain; every eighth step a loop whose body (3–6 nodes, a chain with a
    // branch) reads the loop's input, one outer node, and feeds the next step through the loop.
    let count = 0;
    let prev: string | null = null;
    let i = 0;
    while (count < n) {
      const id = `step_${i++}`;
      if (i % 8 === 0 && n - count > 4) {
        nodes.push({ id, kind: 'loop' });
        count++;
        if (prev) edge(prev, id);
        const size = Math.min(n - count, 3 + Math.floor(rnd() * 4));
        let last: string | null = null;
        for (let j = 0; j < size; j++) {
          const inner = `${id}/body_${j}`;
          nodes.push(block(inner, id));
          count++;
          if (last) edge(last, inner);
          if (j === 2) edge(`${id}/body_0`, inner);
          last = inner;
        }
        if (prev) edge(prev, `${id}/body_0`);
        const outer = nodes.filter((x) => !x.parent && x.kind === 'block');
        if (outer.length > 2) edge(pick(outer.slice(0, -1)).id, `${id}/body_${size - 1}`);
      } else {
        nodes.push(block(id));
        count++;
        if (prev) edge(prev, id);
        if (rnd() < 0.2) {
          const earlier = nodes.filter((x) => !x.parent && x.id !== id && x.id !== prev);
          if (earlier.length) edge(pick(earlier).id, id);
        }
      }
      prev = id;
    }
  }
  return { nodes, edges };
}

const cases: Case[] = [
  ...fixtures.plans.map((p) => ({ name: p.name, graph: p.graph, titles: fixtures.titles })),
  { name: 'generated chain (100)', graph: generated('chain', 100, 1), titles: fixtures.titles },
  { name: 'generated fan-out/fan-in (100)', graph: generated('fan', 100, 2), titles: fixtures.titles },
  { name: 'generated random DAG (100, seed 3)', graph: generated('random', 100, 3), titles: fixtures.titles },
  { name: 'generated random DAG (100, seed 4)', graph: generated('random', 100, 4), titles: fixtures.titles },
  { name: 'generated loops with bodies (100)', graph: generated('loops', 100, 5), titles: fixtures.titles },
];

// ---------------------------------------------------------------- the three layouts

const parents = (g: PlanGraph) => {
  const ids = new Set(g.nodes.map((n) => n.id));
  return new Map(g.nodes.map((n) => [n.id, n.parent && ids.has(n.parent) ? n.parent : null] as const));
};
const leafSize = (n: GraphNode, titles: Record<string, string>) => ({ w: nodeWidth(n, n.block ? titles[n.block] ?? '' : ''), h: SIZES.nodeH });

/** Points along an SVG path of M, L and C commands (the curves cut into 12 pieces). */
function flatten(path: string): Pt[] {
  const nums = (s: string) => s.trim().split(/[ ,]+/).map(Number);
  const out: Pt[] = [];
  for (const [, cmd, args] of path.matchAll(/([MLC])([^MLC]*)/g)) {
    const v = nums(args!);
    if (cmd === 'M' || cmd === 'L') out.push([v[0]!, v[1]!]);
    else {
      const [x0, y0] = out[out.length - 1]!;
      const [x1, y1, x2, y2, x3, y3] = v as [number, number, number, number, number, number];
      for (let i = 1; i <= 12; i++) {
        const t = i / 12;
        const u = 1 - t;
        out.push([
          u * u * u * x0 + 3 * u * u * t * x1 + 3 * u * t * t * x2 + t * t * t * x3,
          u * u * u * y0 + 3 * u * u * t * y1 + 3 * u * t * t * y2 + t * t * t * y3,
        ]);
      }
    }
  }
  return out;
}

function handWritten(c: Case, lay: typeof layoutGraph = layoutGraph): Drawing {
  const l = lay(c.graph, (b) => c.titles[b] ?? '');
  return {
    width: l.width,
    height: l.height,
    boxes: l.nodes.map((n) => ({ id: n.id, x: n.x, y: n.y, w: n.w, h: n.h, group: n.group })),
    edges: l.edges.map((e) => ({ from: e.from, to: e.to, points: flatten(e.path) })),
  };
}

/**
 * dagre: loops as clusters. dagre cannot take an edge whose end is a cluster (its ranking fails
 * on it), so an edge into a loop goes to the loop's first body nodes and one out of it leaves
 * from its last — the drawing then shows those edges, not the plan's.
 */
function dagre(c: Case): Drawing {
  const parentOf = parents(c.graph);
  const groups = new Set([...parentOf.values()].filter((p): p is string => !!p));
  const g = new graphlib.Graph({ compound: true });
  g.setGraph({ rankdir: 'TB', nodesep: SIZES.gapX, ranksep: SIZES.gapY, edgesep: SIZES.lane, marginx: SIZES.margin, marginy: SIZES.margin });
  g.setDefaultEdgeLabel(() => ({}));
  for (const n of c.graph.nodes) {
    if (groups.has(n.id)) g.setNode(n.id, { width: 0, height: 0, paddingTop: HEADER });
    else {
      const s = leafSize(n, c.titles);
      g.setNode(n.id, { width: s.w, height: s.h });
    }
  }
  for (const n of c.graph.nodes) if (parentOf.get(n.id)) g.setParent(n.id, parentOf.get(n.id)!);
  const members = (id: string) => c.graph.nodes.filter((n) => parentOf.get(n.id) === id).map((n) => n.id);
  const inner = (id: string, end: 'first' | 'last'): string[] => {
    if (!groups.has(id)) return [id];
    const ms = new Set(members(id));
    const ends = [...ms].filter((m) => !c.graph.edges.some((e) => (end === 'first' ? e.to === m && ms.has(e.from) : e.from === m && ms.has(e.to))));
    return ends.flatMap((m) => inner(m, end));
  };
  for (const e of c.graph.edges) for (const a of inner(e.from, 'last')) for (const b of inner(e.to, 'first')) if (a !== b) g.setEdge(a, b);
  dagreLayout(g);
  const gl = g.graph();
  return {
    width: gl.width ?? 0,
    height: gl.height ?? 0,
    boxes: c.graph.nodes.map((n) => {
      const d = g.node(n.id);
      return { id: n.id, x: d.x! - d.width / 2, y: d.y! - d.height / 2, w: d.width, h: d.height, group: groups.has(n.id) };
    }),
    edges: g.edges().map((e) => ({ from: e.v, to: e.w, points: (g.edge(e).points ?? []).map((p: { x: number; y: number }) => [p.x, p.y] as Pt) })),
  };
}

const elk = new ELK();
/** ELK Layered: loops as hierarchical nodes laid out with their surroundings, edges orthogonal. */
async function elkLayered(c: Case): Promise<Drawing> {
  const parentOf = parents(c.graph);
  const groups = new Set([...parentOf.values()].filter((p): p is string => !!p));
  const made = new Map<string, ElkNode>();
  const root: ElkNode = {
    id: '\u0000root',
    layoutOptions: {
      'elk.algorithm': 'layered',
      'elk.direction': 'DOWN',
      'elk.hierarchyHandling': 'INCLUDE_CHILDREN',
      'elk.spacing.nodeNode': String(SIZES.gapX),
      'elk.layered.spacing.nodeNodeBetweenLayers': String(SIZES.gapY),
      'elk.spacing.edgeNode': String(SIZES.lane),
      'elk.spacing.edgeEdge': String(SIZES.lane),
      'elk.padding': `[top=${SIZES.margin},left=${SIZES.margin},bottom=${SIZES.margin},right=${SIZES.margin}]`,
      'elk.json.edgeCoords': 'ROOT',
      'elk.json.shapeCoords': 'ROOT',
    },
    children: [],
    edges: [],
  };
  for (const n of c.graph.nodes) {
    const s = leafSize(n, c.titles);
    const node: ElkNode = groups.has(n.id)
      ? {
          id: n.id,
          children: [],
          layoutOptions: {
            'elk.padding': `[top=${HEADER},left=${SIZES.pad},bottom=${SIZES.pad},right=${SIZES.pad}]`,
            'elk.nodeSize.constraints': 'MINIMUM_SIZE',
            'elk.nodeSize.minimum': `(${s.w},${SIZES.nodeH})`,
          },
        }
      : { id: n.id, width: s.w, height: s.h };
    made.set(n.id, node);
  }
  for (const n of c.graph.nodes) (parentOf.get(n.id) ? made.get(parentOf.get(n.id)!)! : root).children!.push(made.get(n.id)!);
  root.edges = c.graph.edges.map((e, i): ElkExtendedEdge => ({ id: `e${i}`, sources: [e.from], targets: [e.to] }));
  const out = await elk.layout(root);
  const boxes: Box[] = [];
  const walk = (n: ElkNode) => {
    for (const ch of n.children ?? []) {
      boxes.push({ id: ch.id, x: ch.x!, y: ch.y!, w: ch.width!, h: ch.height!, group: groups.has(ch.id) });
      walk(ch);
    }
  };
  walk(out);
  const edges: Drawing['edges'] = [];
  const collect = (n: ElkNode) => {
    for (const e of n.edges ?? []) {
      for (const s of e.sections ?? [])
        edges.push({ from: e.sources[0]!, to: e.targets[0]!, points: [s.startPoint, ...(s.bendPoints ?? []), s.endPoint].map((p) => [p.x, p.y] as Pt) });
    }
    for (const ch of n.children ?? []) collect(ch);
  };
  collect(out);
  return { width: out.width!, height: out.height!, boxes, edges };
}

// ---------------------------------------------------------------- what a reader sees

function cross(p: Pt, q: Pt, r: Pt, s: Pt): boolean {
  const d = (a: Pt, b: Pt, c: Pt) => (b[0] - a[0]) * (c[1] - a[1]) - (b[1] - a[1]) * (c[0] - a[0]);
  const d1 = d(r, s, p);
  const d2 = d(r, s, q);
  const d3 = d(p, q, r);
  const d4 = d(p, q, s);
  return ((d1 > 0 && d2 < 0) || (d1 < 0 && d2 > 0)) && ((d3 > 0 && d4 < 0) || (d3 < 0 && d4 > 0));
}

/** Whether segment p–q passes through the inside of `b` (shrunk by 2 px, so touching is not). */
function throughBox(p: Pt, q: Pt, b: Box): boolean {
  const [x0, y0, x1, y1] = [b.x + 2, b.y + 2, b.x + b.w - 2, b.y + b.h - 2];
  // Liang–Barsky clipping.
  let t0 = 0;
  let t1 = 1;
  const dx = q[0] - p[0];
  const dy = q[1] - p[1];
  for (const [pp, qq] of [
    [-dx, p[0] - x0],
    [dx, x1 - p[0]],
    [-dy, p[1] - y0],
    [dy, y1 - p[1]],
  ] as const) {
    if (pp === 0) {
      if (qq < 0) return false;
    } else {
      const t = qq / pp;
      if (pp < 0) t0 = Math.max(t0, t);
      else t1 = Math.min(t1, t);
    }
  }
  return t0 < t1;
}

interface Figures {
  crossings: number;
  throughNodes: number;
  overlaps: number;
  outsideGroup: number;
  length: number;
  width: number;
  height: number;
  fit: number;
  ms: number;
}

function measure(c: Case, d: Drawing, ms: number): Figures {
  const parentOf = parents(c.graph);
  const ancestors = (id: string) => {
    const out = new Set<string>();
    for (let p = parentOf.get(id) ?? null; p && !out.has(p); p = parentOf.get(p) ?? null) out.add(p);
    return out;
  };
  const at = new Map(d.boxes.map((b) => [b.id, b]));
  let crossings = 0;
  const segs = d.edges.map((e) => e.points.slice(1).map((p, i) => [e.points[i]!, p] as const));
  for (let i = 0; i < d.edges.length; i++)
    for (let j = i + 1; j < d.edges.length; j++) {
      const [a, b] = [d.edges[i]!, d.edges[j]!];
      if (a.from === b.from || a.from === b.to || a.to === b.from || a.to === b.to) continue;
      for (const [p, q] of segs[i]!) for (const [r, s] of segs[j]!) if (cross(p, q, r, s)) crossings++;
    }
  let throughNodes = 0;
  for (let i = 0; i < d.edges.length; i++) {
    const e = d.edges[i]!;
    const own = new Set([e.from, e.to, ...ancestors(e.from), ...ancestors(e.to)]);
    for (const b of d.boxes) {
      if (own.has(b.id)) continue;
      if (segs[i]!.some(([p, q]) => throughBox(p, q, b))) throughNodes++;
    }
  }
  let overlaps = 0;
  for (let i = 0; i < d.boxes.length; i++)
    for (let j = i + 1; j < d.boxes.length; j++) {
      const [a, b] = [d.boxes[i]!, d.boxes[j]!];
      if (ancestors(a.id).has(b.id) || ancestors(b.id).has(a.id)) continue;
      if (a.x < b.x + b.w - 0.5 && b.x < a.x + a.w - 0.5 && a.y < b.y + b.h - 0.5 && b.y < a.y + a.h - 0.5) overlaps++;
    }
  let outsideGroup = 0;
  for (const b of d.boxes) {
    const p = parentOf.get(b.id);
    const g = p ? at.get(p) : undefined;
    if (g && (b.x < g.x - 0.5 || b.x + b.w > g.x + g.w + 0.5 || b.y < g.y + SIZES.header - 0.5 || b.y + b.h > g.y + g.h + 0.5)) outsideGroup++;
  }
  const length = d.edges.reduce((s, e) => s + e.points.slice(1).reduce((t, p, i) => t + Math.hypot(p[0] - e.points[i]![0], p[1] - e.points[i]![1]), 0), 0);
  return { crossings, throughNodes, overlaps, outsideGroup, length, width: d.width, height: d.height, fit: Math.min(1, PANEL / d.width), ms };
}

async function timed(run: () => Drawing | Promise<Drawing>, repeat: number): Promise<[Drawing, number]> {
  let d = await run();
  for (let i = 0; i < 3; i++) d = await run(); // warm up
  const times: number[] = [];
  for (let i = 0; i < repeat; i++) {
    const t = performance.now();
    d = await run();
    times.push(performance.now() - t);
  }
  times.sort((a, b) => a - b);
  return [d, times[Math.floor(times.length / 2)]!];
}

// ---------------------------------------------------------------- the run

const baseline = process.env.GRAPH_BASELINE;
let before: typeof layoutGraph | null = null;
if (baseline) {
  const file = join(mkdtempSync(join(tmpdir(), 'graph-baseline-')), 'layout.ts');
  writeFileSync(file, execFileSync('git', ['show', `${baseline}:ui/src/lib/graph/layout.ts`], { encoding: 'utf8' }));
  before = ((await import(/* @vite-ignore */ file)) as { layoutGraph: typeof layoutGraph }).layoutGraph;
}

const LAYOUTS: [string, (c: Case) => Drawing | Promise<Drawing>][] = [
  ['hand-written', (c) => handWritten(c)],
  ...(before ? [[`hand-written at ${baseline}`, (c: Case) => handWritten(c, before)] as [string, (c: Case) => Drawing]] : []),
  ['dagre', (c) => dagre(c)],
  ['elk', (c) => elkLayered(c)],
];
const only = process.env.GRAPH_LAYOUTS?.split(',');
if (only) LAYOUTS.splice(0, LAYOUTS.length, ...LAYOUTS.filter(([name]) => name === 'hand-written' || only.some((o) => name.startsWith(o))));

it('measures the graph layouts', { timeout: 600_000 }, async () => {
  const rows: string[] = [];
  const totals = new Map<string, { examples: Figures[]; generated: Figures[] }>(LAYOUTS.map(([n]) => [n, { examples: [], generated: [] }]));
  const f0 = (v: number) => v.toFixed(0);
  rows.push('| plan | nodes / edges | layout | crossings | edges through a node | overlaps | outside loop | edge length | width × height | fit scale | ms (median) |');
  rows.push('|---|---:|---|---:|---:|---:|---:|---:|---:|---:|---:|');
  for (const c of cases) {
    const big = c.graph.nodes.length >= 50;
    for (const [name, run] of LAYOUTS) {
      const [d, ms] = await timed(() => run(c), big ? 9 : 21);
      const f = measure(c, d, ms);
      totals.get(name)![big ? 'generated' : 'examples'].push(f);
      rows.push(
        `| ${c.name} | ${c.graph.nodes.length} / ${c.graph.edges.length} | ${name} | ${f.crossings} | ${f.throughNodes} | ${f.overlaps} | ${f.outsideGroup} | ${f0(f.length)} | ${f0(f.width)} × ${f0(f.height)} | ${f.fit.toFixed(2)} | ${f.ms.toFixed(2)} |`,
      );
    }
  }
  // Sums over each set, and each library as a ratio to the hand-written layout.
  const sum = (fs: Figures[], k: keyof Figures) => fs.reduce((s, f) => s + f[k], 0);
  const summary: string[] = [
    '| set | layout | crossings | edges through a node | overlaps | outside loop | edge length | area (Mpx²) | ms (sum of medians) |',
    '|---|---|---:|---:|---:|---:|---:|---:|---:|',
  ];
  for (const set of ['examples', 'generated'] as const) {
    const base = totals.get('hand-written')![set];
    const area = (fs: Figures[]) => fs.reduce((s, f) => s + f.width * f.height, 0) / 1e6;
    const ratio = (v: number, b: number) => (b === 0 ? (v === 0 ? '' : ' (hand: 0)') : ` (${(v / b).toFixed(2)}×)`);
    for (const [name] of LAYOUTS) {
      const fs = totals.get(name)![set];
      const cell = (k: keyof Figures, digits = 0) => `${sum(fs, k).toFixed(digits)}${name === 'hand-written' ? '' : ratio(sum(fs, k), sum(base, k))}`;
      summary.push(
        `| ${set === 'examples' ? `${fixtures.plans.length} examples` : `${cases.length - fixtures.plans.length} generated (100 nodes)`} | ${name} | ${cell('crossings')} | ${cell('throughNodes')} | ${cell('overlaps')} | ${cell('outsideGroup')} | ${cell('length')} | ${area(fs).toFixed(2)}${name === 'hand-written' ? '' : ratio(area(fs), area(base))} | ${cell('ms', 2)} |`,
      );
    }
  }
  console.log(['', ...rows, '', ...summary, ''].join('\n'));
});
