//! Ordering one graph: dependency edges → cycles, browser order, topological levels.

use std::collections::BTreeMap;

use planwright_plan::{Code, Finding};

use crate::shapes::GraphShape;

/// Why one node waits for another.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub enum EdgeKind {
    /// It reads the other's outputs: in `in`, `when`, `foreach`, `while`, `call` or, for a loop,
    /// anywhere in its body.
    Data,
    /// Its `after` names the other.
    After,
    /// Both act on the run's one browser, which takes them in graph order.
    Browser,
}

/// `to` waits for `from` (node indexes of one graph).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Edge {
    pub from: usize,
    pub to: usize,
    pub kind: EdgeKind,
}

/// The execution structure of one graph.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct GraphAnalysis {
    /// Node indexes in an order that respects every dependency: by level, then by position.
    /// Empty when the graph has a cycle.
    pub order: Vec<usize>,
    /// Level of each node: 0 for nodes that depend on nothing, else 1 + the deepest dependency.
    pub levels: Vec<usize>,
    /// Indexes each node depends on (data references, `after`, browser order).
    pub dependencies: Vec<Vec<usize>>,
    /// Every dependency with its kind, one per pair of nodes (data before `after` before
    /// browser order), in the order found.
    pub edges: Vec<Edge>,
    /// The analysis of each loop node's body, by the loop node's index.
    pub bodies: BTreeMap<usize, GraphAnalysis>,
}

impl GraphAnalysis {
    /// The nodes whose outputs `node` reads: a skipped one skips it too (an `after` or the
    /// browser's order only orders).
    pub fn data_dependencies(&self, node: usize) -> impl Iterator<Item = usize> + '_ {
        self.edges.iter().filter(move |e| e.to == node && e.kind == EdgeKind::Data).map(|e| e.from)
    }
}

/// Orders the graph. Data edges come from references and `after`; nodes that act on the browser
/// are also chained in graph order, since they share one session.
pub fn analyse(
    shape: &GraphShape<'_>,
    found: Vec<Edge>,
    pointer: &str,
    bodies: BTreeMap<usize, GraphAnalysis>,
    findings: &mut Vec<Finding>,
) -> GraphAnalysis {
    let count = shape.nodes.len();
    let id = |i: usize| -> String {
        let id = &shape.nodes[i].node.id;
        if id.is_empty() {
            format!("graph[{i}]")
        } else {
            id.clone()
        }
    };
    let mut edges: Vec<Edge> = Vec::with_capacity(found.len());
    for edge in found {
        match edges.iter_mut().find(|e| (e.from, e.to) == (edge.from, edge.to)) {
            Some(known) => known.kind = known.kind.min(edge.kind),
            None => edges.push(edge),
        }
    }
    let mut dependencies: Vec<Vec<usize>> = vec![Vec::new(); count];
    for edge in &edges {
        if !dependencies[edge.to].contains(&edge.from) {
            dependencies[edge.to].push(edge.from);
        }
    }
    let mut in_cycles = vec![false; count];
    while let Some(mut cycle) = find_cycle(&dependencies, &in_cycles) {
        // Start the circle at its first node in the file.
        let first = cycle.iter().enumerate().min_by_key(|(_, &node)| node).map_or(0, |(i, _)| i);
        cycle.rotate_left(first);
        let names: Vec<String> = cycle.iter().chain(cycle.first()).map(|&i| format!("`{}`", id(i))).collect();
        findings.push(
            Finding::error(
                Code::Cycle,
                format!("{pointer}/graph/{}", cycle[0]),
                format!("these nodes depend on each other in a circle: {}", names.join(" → ")),
            )
            .hint("remove one of the references or `after` entries so that the steps can run in some order")
            .candidates(cycle.iter().map(|&i| id(i)).collect()),
        );
        // Look for other cycles among the remaining nodes.
        for &i in &cycle {
            in_cycles[i] = true;
        }
    }
    if in_cycles.contains(&true) {
        return GraphAnalysis { order: Vec::new(), levels: vec![0; count], dependencies, edges, bodies };
    }
    let browser: Vec<usize> = (0..count).filter(|&i| shape.nodes[i].browser).collect();
    let mut with_browser = dependencies.clone();
    for pair in browser.windows(2) {
        if !with_browser[pair[1]].contains(&pair[0]) {
            with_browser[pair[1]].push(pair[0]);
        }
    }
    if let Some(cycle) = find_cycle(&with_browser, &in_cycles) {
        let steps: Vec<String> =
            cycle.iter().filter(|&&i| shape.nodes[i].browser).map(|&i| format!("`{}`", id(i))).collect();
        findings.push(
            Finding::error(
                Code::BrowserOrderConflict,
                format!("{pointer}/graph/{}", cycle[0]),
                format!("browser steps run in the order they appear in the graph, but the data between {} needs another order", steps.join(" and ")),
            )
            .hint("move the browser nodes so that each comes after the nodes whose outputs it uses"),
        );
    } else {
        dependencies = with_browser;
        for pair in browser.windows(2) {
            if !edges.iter().any(|e| (e.from, e.to) == (pair[0], pair[1])) {
                edges.push(Edge { from: pair[0], to: pair[1], kind: EdgeKind::Browser });
            }
        }
    }
    let levels = levels(&dependencies);
    let mut order: Vec<usize> = (0..count).collect();
    order.sort_by_key(|&i| (levels[i], i));
    GraphAnalysis { order, levels, dependencies, edges, bodies }
}

/// A cycle as node indexes in dependency order, if there is one among the nodes not
/// `excluded`. Iterative: graphs may be large.
fn find_cycle(dependencies: &[Vec<usize>], excluded: &[bool]) -> Option<Vec<usize>> {
    #[derive(Clone, Copy, PartialEq)]
    enum Mark {
        New,
        Open,
        Done,
    }
    let mut marks: Vec<Mark> = excluded.iter().map(|&x| if x { Mark::Done } else { Mark::New }).collect();
    for start in 0..dependencies.len() {
        if marks[start] != Mark::New {
            continue;
        }
        // (node, next dependency to look at)
        let mut stack = vec![(start, 0usize)];
        marks[start] = Mark::Open;
        while let Some(&mut (node, ref mut next)) = stack.last_mut() {
            if let Some(&dep) = dependencies[node].get(*next) {
                *next += 1;
                match marks[dep] {
                    Mark::New => {
                        marks[dep] = Mark::Open;
                        stack.push((dep, 0));
                    }
                    Mark::Open => {
                        let from = stack.iter().position(|&(n, _)| n == dep).unwrap_or(0);
                        // The stack runs from dependants to dependencies; report in run order.
                        let mut cycle: Vec<usize> = stack[from..].iter().map(|&(n, _)| n).collect();
                        cycle.reverse();
                        return Some(cycle);
                    }
                    Mark::Done => {}
                }
            } else {
                marks[node] = Mark::Done;
                stack.pop();
            }
        }
    }
    None
}

/// Longest-path levels of an acyclic graph, without recursion.
fn levels(dependencies: &[Vec<usize>]) -> Vec<usize> {
    let count = dependencies.len();
    let mut dependants: Vec<Vec<usize>> = vec![Vec::new(); count];
    let mut waiting: Vec<usize> = dependencies.iter().map(Vec::len).collect();
    for (node, deps) in dependencies.iter().enumerate() {
        for &dep in deps {
            dependants[dep].push(node);
        }
    }
    let mut levels = vec![0; count];
    let mut ready: Vec<usize> = (0..count).filter(|&i| waiting[i] == 0).collect();
    while let Some(node) = ready.pop() {
        for &next in &dependants[node] {
            levels[next] = levels[next].max(levels[node] + 1);
            waiting[next] -= 1;
            if waiting[next] == 0 {
                ready.push(next);
            }
        }
    }
    levels
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn cycles_are_found_in_run_order() {
        // 0 depends on 2, 2 on 1, 1 on 0: runs 0 → 1 → 2 → 0.
        let deps = vec![vec![2], vec![0], vec![1]];
        let cycle = find_cycle(&deps, &[false; 3]).unwrap();
        assert_eq!(cycle.len(), 3);
        for (i, &node) in cycle.iter().enumerate() {
            let next = cycle[(i + 1) % cycle.len()];
            assert!(deps[next].contains(&node), "{cycle:?}");
        }
    }

    #[test]
    fn self_dependency_is_a_cycle() {
        assert_eq!(find_cycle(&[vec![0]], &[false]), Some(vec![0]));
    }

    #[test]
    fn excluded_nodes_hide_their_cycle() {
        // Two cycles: 0 ↔ 1 and 2 ↔ 3.
        let deps = vec![vec![1], vec![0], vec![3], vec![2]];
        let first = find_cycle(&deps, &[false; 4]).unwrap();
        let mut excluded = [false; 4];
        first.iter().for_each(|&i| excluded[i] = true);
        let second = find_cycle(&deps, &excluded).unwrap();
        assert!(first.iter().all(|i| !second.contains(i)));
        second.iter().for_each(|&i| excluded[i] = true);
        assert_eq!(find_cycle(&deps, &excluded), None);
    }

    #[test]
    fn levels_are_longest_paths() {
        // 2 depends on 0 and 1; 1 on 0.
        assert_eq!(levels(&[vec![], vec![0], vec![0, 1]]), vec![0, 1, 2]);
    }

    #[test]
    fn long_chains_need_no_recursion() {
        let deps: Vec<Vec<usize>> = (0..200_000).map(|i| if i == 0 { vec![] } else { vec![i - 1] }).collect();
        assert!(find_cycle(&deps, &vec![false; deps.len()]).is_none());
        assert_eq!(levels(&deps)[199_999], 199_999);
    }
}
