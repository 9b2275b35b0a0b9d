// A layered (top-to-bottom) layout of a plan graph, loop and call bodies drawn as groups around
// their nodes. Pure: the graph in, boxes and edge paths out.
import type { GraphEdge } from '../api/types/GraphEdge';
import type { GraphNode } from '../api/types/GraphNode';
import type { PlanGraph } from '../api/types/PlanGraph';

export interface LaidNode {
  id: string;
  kind: GraphNode['kind'];
  block: string | null;
  line: number | null;
  x: number;
  y: number;
  w: number;
  h: number;
  /** A loop or call with a body drawn inside its box. */
  group: boolean;
  depth: number;
}

/** Where an edge crosses a layer between its ends: a lane of its own, beside that layer's nodes. */
export interface Waypoint {
  x: number;
  top: number;
  bottom: number;
}

export interface LaidEdge {
  from: string;
  to: string;
  kind: GraphEdge['kind'];
  path: string;
  via: Waypoint[];
}

export interface Layout {
  width: number;
  height: number;
  nodes: LaidNode[];
  edges: LaidEdge[];
}

export const SIZES = {
  /** Three lines: the node's id, its block's title in the person's language, the block's id. */
  nodeH: 60,
  minW: 120,
  maxW: 260,
  charW: 7.2,
  /** The block id's monospace characters, a little narrower. */
  monoW: 6.7,
  /** A full-width (Japanese) character of the title. */
  wideW: 11.5,
  gapX: 28,
  gapY: 44,
  pad: 14,
  header: 26,
  margin: 16,
  /** The width a long edge takes in each layer it crosses. */
  lane: 8,
};

/** How wide `text` is drawn at the title's size: full-width characters take about twice as much. */
export function textWidth(text: string, narrow: number = SIZES.charW): number {
  let w = 0;
  for (const c of text) w += c.charCodeAt(0) > 0x2e7f ? SIZES.wideW : narrow;
  return w;
}

/** A node wide enough for its id, title and block, within the bounds. */
export function nodeWidth(n: Pick<GraphNode, 'id' | 'block'>, title = ''): number {
  const text = Math.max(textWidth(n.id), textWidth(title, SIZES.charW * 0.9), (n.block ?? '').length * SIZES.monoW);
  return Math.round(Math.min(SIZES.maxW, Math.max(SIZES.minW, text + 28)));
}

interface Box {
  w: number;
  h: number;
  /** Positions of the scope's nodes (and their descendants) relative to the box. */
  place: Map<string, { x: number; y: number; w: number; h: number }>;
  /** For each edge between two nodes of a scope (or of scopes inside) that skips layers, keyed
   * `from\0to`: its lanes through the layers between, relative to the box. */
  routes: Map<string, Waypoint[]>;
}

const routeKey = (from: string, to: string) => `${from}\u0000${to}`;
/** The route key of an edge from outside the group `scope` to a node in its body. */
const entryKey = (scope: string, from: string, to: string) => `\u0002${scope}\u0000${from}\u0000${to}`;

/** Layers by longest path from the sources; edges closing a cycle are ignored. */
export function assignLayers(ids: string[], edges: [string, string][]): Map<string, number> {
  const out = new Map<string, string[]>();
  for (const id of ids) out.set(id, []);
  for (const [a, b] of edges) if (out.has(a) && out.has(b) && a !== b) out.get(a)!.push(b);
  // Drop back edges found by a depth-first search, in the given order (stable).
  const state = new Map<string, 0 | 1 | 2>();
  const dag = new Map<string, string[]>();
  for (const id of ids) dag.set(id, []);
  const visit = (id: string) => {
    state.set(id, 1);
    for (const to of out.get(id)!) {
      const s = state.get(to) ?? 0;
      if (s === 1) continue; // back edge
      dag.get(id)!.push(to);
      if (s === 0) visit(to);
    }
    state.set(id, 2);
  };
  for (const id of ids) if ((state.get(id) ?? 0) === 0) visit(id);
  const indeg = new Map<string, number>(ids.map((i) => [i, 0]));
  for (const tos of dag.values()) for (const t of tos) indeg.set(t, indeg.get(t)! + 1);
  const layer = new Map<string, number>(ids.map((i) => [i, 0]));
  const queue = ids.filter((i) => indeg.get(i) === 0);
  while (queue.length) {
    const id = queue.shift()!;
    for (const t of dag.get(id)!) {
      layer.set(t, Math.max(layer.get(t)!, layer.get(id)! + 1));
      indeg.set(t, indeg.get(t)! - 1);
      if (indeg.get(t) === 0) queue.push(t);
    }
  }
  return layer;
}

/** Crossings between the edges that join consecutive layers, for the layers in this order. */
export function countCrossings(layers: string[][], edges: [string, string][]): number {
  const at = new Map<string, [number, number]>();
  layers.forEach((layer, l) => layer.forEach((id, i) => at.set(id, [l, i])));
  const between: [number, number][][] = layers.map(() => []);
  for (const [a, b] of edges) {
    const pa = at.get(a);
    const pb = at.get(b);
    if (pa && pb && pb[0] === pa[0] + 1) between[pa[0]]!.push([pa[1], pb[1]]);
  }
  let crossings = 0;
  for (const es of between)
    for (let i = 0; i < es.length; i++)
      for (let j = i + 1; j < es.length; j++) if ((es[i]![0] - es[j]![0]) * (es[i]![1] - es[j]![1]) < 0) crossings++;
  return crossings;
}

/**
 * Orders each layer to cross few edges: sweeps down and up sorting by the barycentre of the
 * neighbours in the layer before, then swaps neighbours in a layer while that crosses fewer
 * edges (transposition); the order with the fewest crossings seen is kept (the given one if
 * nothing does better).
 */
export function orderLayers(layers: string[][], edges: [string, string][]): string[][] {
  const result = layers.map((l) => [...l]);
  const preds = new Map<string, string[]>();
  const succs = new Map<string, string[]>();
  for (const [a, b] of edges) {
    (preds.get(b) ?? preds.set(b, []).get(b)!).push(a);
    (succs.get(a) ?? succs.set(a, []).get(a)!).push(b);
  }
  const sortBy = (layer: string[], ref: string[], nb: Map<string, string[]>) => {
    const pos = new Map(ref.map((id, i) => [id, i]));
    const score = new Map<string, number>();
    layer.forEach((id, i) => {
      const ps = (nb.get(id) ?? []).map((p) => pos.get(p)).filter((p): p is number => p !== undefined);
      score.set(id, ps.length ? ps.reduce((a, b) => a + b, 0) / ps.length : i);
    });
    const index = new Map(layer.map((id, i) => [id, i]));
    return [...layer].sort((a, b) => score.get(a)! - score.get(b)! || index.get(a)! - index.get(b)!);
  };
  /** Crossings between the edges of `u` and of `v` to the layer `ref` when `u` comes first. */
  const pairCrossings = (u: string, v: string, ref: Map<string, number> | null, nb: Map<string, string[]>) => {
    if (!ref) return 0;
    let c = 0;
    for (const p of nb.get(u) ?? []) {
      const pu = ref.get(p);
      if (pu === undefined) continue;
      for (const q of nb.get(v) ?? []) {
        const pv = ref.get(q);
        if (pv !== undefined && pu > pv) c++;
      }
    }
    return c;
  };
  const transpose = (order: string[][]) => {
    for (let round = 0; round < 4; round++) {
      let improved = false;
      for (let l = 0; l < order.length; l++) {
        const layer = order[l]!;
        const above = l > 0 ? new Map(order[l - 1]!.map((id, i) => [id, i])) : null;
        const below = l + 1 < order.length ? new Map(order[l + 1]!.map((id, i) => [id, i])) : null;
        for (let i = 0; i + 1 < layer.length; i++) {
          const [u, v] = [layer[i]!, layer[i + 1]!];
          const now = pairCrossings(u, v, above, preds) + pairCrossings(u, v, below, succs);
          const swapped = pairCrossings(v, u, above, preds) + pairCrossings(v, u, below, succs);
          if (swapped < now) {
            [layer[i], layer[i + 1]] = [v, u];
            improved = true;
          }
        }
      }
      if (!improved) break;
    }
  };
  let best = result.map((l) => [...l]);
  let fewest = countCrossings(best, edges);
  for (let sweep = 0; sweep < 8 && fewest > 0; sweep++) {
    for (let i = 1; i < result.length; i++) result[i] = sortBy(result[i]!, result[i - 1]!, preds);
    for (let i = result.length - 2; i >= 0; i--) result[i] = sortBy(result[i]!, result[i + 1]!, succs);
    transpose(result);
    const crossings = countCrossings(result, edges);
    if (crossings < fewest) {
      fewest = crossings;
      best = result.map((l) => [...l]);
    } else if (sweep >= 3) break;
  }
  return best;
}

/** Lays the graph out; `titleOf` gives a block's title, which widens its nodes to fit it. */
export function layoutGraph(graph: PlanGraph, titleOf: (block: string) => string = () => ''): Layout {
  const byId = new Map<string, GraphNode>();
  for (const n of graph.nodes) if (!byId.has(n.id)) byId.set(n.id, n);
  const parentOf = (id: string): string | null => {
    const p = byId.get(id)?.parent ?? null;
    return p && byId.has(p) && p !== id ? p : null;
  };
  const children = new Map<string | null, string[]>();
  for (const n of byId.values()) {
    const p = parentOf(n.id);
    (children.get(p) ?? children.set(p, []).get(p)!).push(n.id);
  }
  const depthOf = (id: string): number => {
    let d = 0;
    const seen = new Set<string>();
    for (let p = parentOf(id); p && !seen.has(p); p = parentOf(p)) {
      seen.add(p);
      d++;
    }
    return d;
  };
  /** The ancestor-or-self of `id` that is a direct child of `scope`, if any. */
  const childOfScope = (id: string, scope: string | null): string | null => {
    let cur: string | null = id;
    const seen = new Set<string>();
    while (cur && !seen.has(cur)) {
      seen.add(cur);
      const p = parentOf(cur);
      if (p === scope) return cur;
      cur = p;
    }
    return null;
  };

  /** The route key of an edge: its ends as the children of the innermost scope holding both. */
  const scopePair = (from: string, to: string): string => {
    const seen = new Set<string | null>();
    let scope = parentOf(from);
    while (!seen.has(scope)) {
      seen.add(scope);
      const a = childOfScope(from, scope);
      const b = childOfScope(to, scope);
      if (a && b && a !== b) return routeKey(a, b);
      if (scope === null) break;
      scope = parentOf(scope);
    }
    return '';
  };

  const visiting = new Set<string>();
  const layoutScope = (scope: string | null): Box => {
    const ids = children.get(scope) ?? [];
    const sizes = new Map<string, Box | null>();
    for (const id of ids) {
      if ((children.get(id)?.length ?? 0) > 0 && !visiting.has(id)) {
        visiting.add(id);
        sizes.set(id, layoutScope(id));
        visiting.delete(id);
      } else sizes.set(id, null);
    }
    const dims = (id: string) => {
      const inner = sizes.get(id);
      const node = byId.get(id)!;
      const own = nodeWidth(node, node.block ? titleOf(node.block) : '');
      if (!inner) return { w: own, h: SIZES.nodeH };
      return { w: Math.max(own, inner.w + 2 * SIZES.pad), h: inner.h + SIZES.header + 2 * SIZES.pad };
    };
    const scopeEdges: [string, string][] = [];
    const seen = new Set<string>();
    for (const e of graph.edges) {
      const a = childOfScope(e.from, scope);
      const b = childOfScope(e.to, scope);
      if (!a || !b || a === b) continue;
      const k = `${a}\u0000${b}`;
      if (!seen.has(k)) {
        seen.add(k);
        scopeEdges.push([a, b]);
      }
    }
    const layerOf = assignLayers(ids, scopeEdges);
    const layers: string[][] = [];
    for (const id of ids) {
      const l = layerOf.get(id) ?? 0;
      while (layers.length <= l) layers.push([]);
      layers[l]!.push(id);
    }
    // An edge skipping layers gets a lane (a virtual node) in each layer between, ordered with
    // the real nodes, so that it passes beside them rather than through them.
    const lanes = new Map<string, string[]>();
    const orderingEdges: [string, string][] = [];
    for (const [a, b] of scopeEdges) {
      const from = layerOf.get(a) ?? 0;
      const to = layerOf.get(b) ?? 0;
      if (to - from < 2) {
        orderingEdges.push([a, b]);
        continue;
      }
      const chain = [a];
      for (let l = from + 1; l < to; l++) {
        const lane = `\u0001${routeKey(a, b)}\u0000${l}`;
        layers[l]!.push(lane);
        chain.push(lane);
      }
      chain.push(b);
      for (let i = 1; i < chain.length; i++) orderingEdges.push([chain[i - 1]!, chain[i]!]);
      lanes.set(routeKey(a, b), chain.slice(1, -1));
    }
    // An edge from outside this group to a member below its first layer enters at the top of the
    // body and goes down lanes of its own beside the members above its end.
    if (scope !== null) {
      const entered = new Set<string>();
      for (const e of graph.edges) {
        const b = childOfScope(e.to, scope);
        const to = b === null ? 0 : (layerOf.get(b) ?? 0);
        const key = entryKey(scope, e.from, e.to);
        if (!b || to < 1 || childOfScope(e.from, scope) !== null || entered.has(key)) continue;
        entered.add(key);
        const chain: string[] = [];
        for (let l = 0; l < to; l++) {
          const lane = `\u0001${key}\u0000${l}`;
          layers[l]!.push(lane);
          if (chain.length) orderingEdges.push([chain[chain.length - 1]!, lane]);
          chain.push(lane);
        }
        orderingEdges.push([chain[chain.length - 1]!, b]);
        lanes.set(key, chain);
      }
    }
    const isLane = (id: string) => id.startsWith('\u0001');
    const ordered = orderLayers(layers, orderingEdges);
    const rows = ordered.map((row) => {
      const ds = row.map((id) => (isLane(id) ? { w: SIZES.lane, h: 0 } : dims(id)));
      return {
        row,
        ds,
        w: ds.reduce((s, d) => s + d.w, 0) + Math.max(0, row.length - 1) * SIZES.gapX,
        h: Math.max(0, ...ds.map((d) => d.h)),
      };
    });
    const width = Math.max(0, ...rows.map((r) => r.w));
    const place = new Map<string, { x: number; y: number; w: number; h: number }>();
    const routes = new Map<string, Waypoint[]>();
    const laneAt = new Map<string, Waypoint>();
    let y = 0;
    for (const r of rows) {
      let x = (width - r.w) / 2;
      r.row.forEach((id, i) => {
        const d = r.ds[i]!;
        if (isLane(id)) {
          laneAt.set(id, { x: x + d.w / 2, top: y, bottom: y + r.h });
          x += d.w + SIZES.gapX;
          return;
        }
        const top = y + (r.h - d.h) / 2;
        place.set(id, { x, y: top, w: d.w, h: d.h });
        const inner = sizes.get(id);
        if (inner) {
          const ox = x + (d.w - inner.w) / 2;
          const oy = top + SIZES.header + SIZES.pad;
          for (const [cid, p] of inner.place) place.set(cid, { ...p, x: p.x + ox, y: p.y + oy });
          for (const [key, via] of inner.routes) {
            routes.set(key, via.map((w) => ({ x: w.x + ox, top: w.top + oy, bottom: w.bottom + oy })));
          }
        }
        x += d.w + SIZES.gapX;
      });
      y += r.h + SIZES.gapY;
    }
    for (const [key, chain] of lanes) routes.set(key, chain.map((lane) => laneAt.get(lane)!));
    const height = rows.length ? y - SIZES.gapY : 0;
    return { w: width, h: height, place, routes };
  };

  const root = layoutScope(null);
  const m = SIZES.margin;
  const nodes: LaidNode[] = [];
  for (const n of byId.values()) {
    const p = root.place.get(n.id);
    if (!p) continue;
    nodes.push({
      id: n.id,
      kind: n.kind,
      block: n.block ?? null,
      line: n.line ?? null,
      x: p.x + m,
      y: p.y + m,
      w: p.w,
      h: p.h,
      group: (children.get(n.id)?.length ?? 0) > 0,
      depth: depthOf(n.id),
    });
  }
  // Groups first so their members draw on top.
  nodes.sort((a, b) => a.depth - b.depth || Number(b.group) - Number(a.group));
  const at = new Map(nodes.map((n) => [n.id, n]));
  const edges: LaidEdge[] = [];
  const seenEdges = new Set<string>();
  for (const e of graph.edges) {
    const a = at.get(e.from);
    const b = at.get(e.to);
    const key = `${e.from}\u0000${e.to}\u0000${e.kind}`;
    if (!a || !b || a === b || seenEdges.has(key)) continue;
    seenEdges.add(key);
    // Lanes in the scope holding both ends, then into each group around `to` that `from` is outside.
    const groups: string[] = [];
    const seenGroups = new Set<string>();
    for (let p = parentOf(e.to); p && !seenGroups.has(p); p = parentOf(p)) {
      seenGroups.add(p);
      if (childOfScope(e.from, p) === null) groups.unshift(p);
    }
    const via = [root.routes.get(scopePair(e.from, e.to)) ?? [], ...groups.map((g) => root.routes.get(entryKey(g, e.from, e.to)) ?? [])]
      .flat()
      .map((w) => ({ x: w.x + m, top: w.top + m, bottom: w.bottom + m }));
    edges.push({ from: e.from, to: e.to, kind: e.kind, path: edgePath(a, b, via), via });
  }
  return { width: root.w + 2 * m, height: root.h + 2 * m, nodes, edges };
}

/** A curve from the bottom of `a` to the top of `b` through the lanes `via` (or side to side
 * when `b` is not below). */
export function edgePath(a: LaidNode, b: LaidNode, via: Waypoint[] = []): string {
  const r = (v: number) => Math.round(v * 10) / 10;
  const sx = a.x + a.w / 2;
  const tx = b.x + b.w / 2;
  const aHeader = a.group ? SIZES.header : a.h;
  // From a group to a node inside it: from under its header; to anywhere else: from its bottom,
  // not down through its members.
  const inside = b.x >= a.x && b.x + b.w <= a.x + a.w && b.y >= a.y && b.y + b.h <= a.y + a.h;
  const sy = a.y + (a.group && inside ? aHeader : a.h);
  const ty = b.y;
  if (ty > sy) {
    const curve = (x0: number, y0: number, x1: number, y1: number) => {
      const dy = Math.max(8, (y1 - y0) / 2);
      return ` C${r(x0)},${r(y0 + dy)} ${r(x1)},${r(y1 - dy)} ${r(x1)},${r(y1)}`;
    };
    let path = `M${r(sx)},${r(sy)}`;
    let [x, y] = [sx, sy];
    for (const w of via) {
      path += curve(x, y, w.x, w.top);
      if (w.bottom > w.top) path += ` L${r(w.x)},${r(w.bottom)}`;
      [x, y] = [w.x, w.bottom];
    }
    return path + curve(x, y, tx, ty);
  }
  // Not below (a cycle, or an edge into an enclosing group): go around on the right.
  const sx2 = a.x + a.w;
  const sy2 = a.y + aHeader / 2;
  const tx2 = b.x + b.w;
  const ty2 = b.y + (b.group ? SIZES.header / 2 : b.h / 2);
  const out = Math.max(sx2, tx2) + 30;
  return `M${r(sx2)},${r(sy2)} C${r(out)},${r(sy2)} ${r(out)},${r(ty2)} ${r(tx2)},${r(ty2)}`;
}
