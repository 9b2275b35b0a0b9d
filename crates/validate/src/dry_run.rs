//! The dry-run: a symbolic run of a valid plan. Each node's outputs are sample values (the
//! spec's examples where present, else values of the declared type); references are resolved
//! against them; the work a real run would do is counted.

use std::collections::HashMap;

use planwright_catalog::{BlockSpec, Catalog, Lookup, Type};
use planwright_designs::Resolution;
use planwright_plan::reference::{escape_pointer, with_token, Part};
use planwright_plan::{Code, Finding, Node, NodeRole, Plan, Reference, Root, Template};
use serde::{Deserialize, Serialize};
use serde_json::{Map, Value};

use crate::order::GraphAnalysis;
use crate::{validate_plan, PlanSource, Validation};

/// One step of the dry-run, in execution order.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub struct Step {
    /// Node id; inside a loop body `loop/inner`, inside a called plan `call/inner`.
    pub id: String,
    /// Topological level within its graph (0 = depends on nothing).
    pub level: usize,
    /// How deep in loop bodies and called plans the step is (0 = the plan itself).
    pub depth: usize,
    /// A block, a loop or a called plan (`subflow`).
    pub kind: StepKind,
    /// The block id, the called plan id, or `foreach`/`while`.
    pub what: String,
    /// Ids of the nodes of the same graph this one waits for.
    pub depends_on: Vec<String>,
    /// Inputs with references resolved against sample values; secrets and environment
    /// variables are shown by name only.
    pub inputs: Map<String, Value>,
    /// Alias → sample value.
    pub outputs: Map<String, Value>,
    /// How many times the step runs per run of its graph, when known.
    pub runs: Option<u64>,
}

#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
#[serde(rename_all = "snake_case")]
pub enum StepKind {
    #[default]
    Block,
    Loop,
    Subflow,
}

/// What a run of the plan costs, counting every loop iteration.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub struct Estimate {
    /// Node executions.
    pub node_runs: u64,
    /// Model calls, at most (when a model is configured; offline runs make none).
    pub model_calls: u64,
    pub browser_objectives: u64,
    /// False when some count depends on data known only at run time.
    pub exact: bool,
    /// Where the estimate assumed something.
    pub notes: Vec<String>,
}

#[derive(Debug, Clone)]
pub struct DryRun {
    pub validation: Validation,
    pub steps: Vec<Step>,
    pub estimate: Estimate,
}

/// How many of an input file's first rows a read step's sample shows.
const SHOWN_ROWS: usize = 5;

/// Validates `plan`, then, when it is valid, runs it symbolically.
pub fn dry_run(plan: &Plan, catalog: &Catalog, plans: &dyn PlanSource) -> DryRun {
    let validation = validate_plan(plan, catalog, plans);
    dry_run_validated(plan, catalog, plans, validation)
}

/// The symbolic run of a plan already validated (`validation` is its result).
pub fn dry_run_validated(plan: &Plan, catalog: &Catalog, plans: &dyn PlanSource, mut validation: Validation) -> DryRun {
    let _span = tracing::debug_span!("dry_run", plan = %plan.id).entered();
    let input_rows = std::mem::take(&mut validation.input_rows);
    let mut runner = Runner {
        report: true,
        input_rows: &input_rows,
        catalog,
        plans,
        steps: Vec::new(),
        estimate: Estimate { exact: true, ..Estimate::default() },
        findings: Vec::new(),
    };
    if validation.is_valid() {
        let vars: Map<String, Value> = plan.vars.iter().map(|(k, v)| (k.clone(), v.clone())).collect();
        let frame = Frame { vars, sample_vars: Vec::new(), outputs: HashMap::new(), order: Vec::new(), parent: None };
        runner.run_graph(
            &plan.graph,
            &validation.analysis,
            &frame,
            &Context { prefix: String::new(), pointer: String::new(), depth: 0, multiplier: 1 },
        );
    }
    let known: std::collections::HashSet<(String, Code)> =
        validation.findings.iter().map(|f| (f.path.clone(), f.code)).collect();
    validation.findings.extend(runner.findings.into_iter().filter(|f| !known.contains(&(f.path.clone(), f.code))));
    DryRun { validation, steps: runner.steps, estimate: runner.estimate }
}

/// Sample values visible at one graph level.
struct Frame<'a> {
    vars: Map<String, Value>,
    /// Vars whose values come from sample outputs (a loop item from a node's output).
    sample_vars: Vec<String>,
    /// Node id → alias → sample value.
    outputs: HashMap<String, Map<String, Value>>,
    /// Node ids in the order they ran.
    order: Vec<String>,
    parent: Option<&'a Frame<'a>>,
}

impl Frame<'_> {
    /// The var's value, and whether it comes from sample outputs.
    fn var(&self, name: &str) -> Option<(&Value, bool)> {
        match self.vars.get(name) {
            Some(value) => Some((value, self.sample_vars.iter().any(|v| v == name))),
            None => self.parent.and_then(|p| p.var(name)),
        }
    }

    fn output(&self, node: &str, alias: &str) -> Option<&Value> {
        match self.outputs.get(node) {
            Some(outputs) => outputs.get(alias),
            None => self.parent.and_then(|p| p.output(node, alias)),
        }
    }
}

struct Context {
    /// `loop/` for steps inside a loop body.
    prefix: String,
    /// JSON pointer of the graph's container.
    pointer: String,
    depth: usize,
    /// Runs of this graph per run of the plan.
    multiplier: u64,
}

struct Runner<'a> {
    /// False while running a called plan: its findings belong to its own file.
    report: bool,
    /// The first rows of the files the plan's top-level read steps name, by node id.
    input_rows: &'a HashMap<String, Vec<Value>>,
    catalog: &'a Catalog,
    plans: &'a dyn PlanSource,
    steps: Vec<Step>,
    estimate: Estimate,
    findings: Vec<Finding>,
}

/// A resolved value and whether it came from sample outputs (then its size says nothing about
/// a real run).
struct Resolved {
    value: Value,
    from_samples: bool,
}

impl Runner<'_> {
    fn run_graph(
        &mut self,
        graph: &[Node],
        analysis: &GraphAnalysis,
        frame: &Frame<'_>,
        ctx: &Context,
    ) -> Map<String, Value> {
        let mut frame = Frame {
            vars: Map::new(),
            sample_vars: Vec::new(),
            outputs: HashMap::new(),
            order: Vec::new(),
            parent: Some(frame),
        };
        for &index in &analysis.order {
            let node = &graph[index];
            let pointer = format!("{}/graph/{index}", ctx.pointer);
            let mut step = Step {
                id: format!("{}{}", ctx.prefix, node.id),
                level: analysis.levels.get(index).copied().unwrap_or(0),
                depth: ctx.depth,
                kind: StepKind::Block,
                what: String::new(),
                depends_on: analysis
                    .dependencies
                    .get(index)
                    .into_iter()
                    .flatten()
                    .map(|&d| graph[d].id.clone())
                    .collect(),
                inputs: Map::new(),
                outputs: Map::new(),
                runs: Some(ctx.multiplier),
            };
            self.estimate.node_runs += ctx.multiplier;
            // The step goes in before the steps of its body or called plan: hold its place.
            let position = self.steps.len();
            self.steps.push(Step::default());
            let mut outputs = match node.role() {
                Some(NodeRole::Block(block)) => match self.catalog.lookup(block) {
                    Lookup::Found(spec) => self.run_block(node, spec, &frame, &pointer, ctx, &mut step),
                    _ => Map::new(),
                },
                Some(NodeRole::Loop) => {
                    let body = analysis.bodies.get(&index).cloned().unwrap_or_default();
                    self.run_loop(node, &body, &frame, &pointer, ctx, &mut step)
                }
                Some(NodeRole::Subflow) => self.run_subflow(node, &frame, &pointer, ctx, &mut step),
                None => Map::new(),
            };
            step.outputs = node
                .out
                .iter()
                .map(|(key, alias)| (alias.clone(), outputs.remove(key).unwrap_or(Value::Null)))
                .collect();
            frame.outputs.insert(node.id.clone(), step.outputs.clone());
            frame.order.push(node.id.clone());
            self.steps[position] = step;
        }
        // What a loop collects: every alias of its body, the first node's value on duplicates.
        let mut aliases = Map::new();
        for id in &frame.order {
            for (alias, value) in frame.outputs.remove(id).into_iter().flatten() {
                aliases.entry(alias).or_insert(value);
            }
        }
        aliases
    }

    fn run_block(
        &mut self,
        node: &Node,
        spec: &BlockSpec,
        frame: &Frame<'_>,
        pointer: &str,
        ctx: &Context,
        step: &mut Step,
    ) -> Map<String, Value> {
        step.what = spec.id.clone();
        // Objectives counted on the whole text (the step shows it shortened); `None` when the
        // text comes from sample outputs and says nothing of the run.
        let mut objectives_counted: Option<u64> = Some(0);
        for (name, value) in &node.inputs {
            let at = format!("{pointer}/in/{}", escape_pointer(name));
            let resolved = self.resolve(value, frame, &at);
            // Only values known before the run are checked: sample outputs are examples.
            if let (Some(port), false, true) = (spec.inputs.get(name), resolved.from_samples, self.report) {
                let expected = port.ty();
                if !expected.admits(&resolved.value) {
                    let actual = Type::of_value(&resolved.value);
                    self.findings.push(
                        Finding::warning(
                            Code::TypeMismatch,
                            at,
                            format!("input `{name}` of `{}` would receive {actual} where it takes {expected}", spec.id),
                        )
                        .hint("check the value against the block's input"),
                    );
                }
            }
            if spec.work.browser_objectives_from.as_deref() == Some(name.as_str()) {
                objectives_counted =
                    (!resolved.from_samples).then(|| count_objectives(resolved.value.as_str().unwrap_or_default()));
            }
            step.inputs.insert(name.clone(), shorten(resolved.value));
        }
        let counted = objectives_counted.unwrap_or_else(|| {
            self.note(format!(
                "`{}`: the number of browser objectives depends on run-time text; counted as 1",
                step.id
            ));
            1
        });
        let objectives = u64::from(spec.work.browser_objectives) + counted;
        self.estimate.browser_objectives += objectives * ctx.multiplier;
        self.estimate.model_calls += (u64::from(spec.work.model_calls)
            + objectives * u64::from(spec.work.model_calls_per_objective))
            * ctx.multiplier;
        // A top-level read step whose file is in the work folder shows the file's first rows.
        let file_rows = self.input_rows.get(&node.id).filter(|_| ctx.depth == 0 && ctx.prefix.is_empty());
        node.out
            .keys()
            .map(|key| {
                let sample = match file_rows.filter(|_| key == "rows") {
                    Some(rows) => Value::Array(rows.iter().take(SHOWN_ROWS).cloned().collect()),
                    None => spec.example_output(key).cloned().unwrap_or_else(|| {
                        spec.outputs.get(key).map_or(Value::Null, |p| p.ty().sample(&format!("{}.{key}", node.id)))
                    }),
                };
                (key.clone(), sample)
            })
            .collect()
    }

    fn run_loop(
        &mut self,
        node: &Node,
        body: &GraphAnalysis,
        frame: &Frame<'_>,
        pointer: &str,
        ctx: &Context,
        step: &mut Step,
    ) -> Map<String, Value> {
        step.kind = StepKind::Loop;
        let mut vars = Map::new();
        let mut sample_vars = Vec::new();
        let iterations = if let Some(foreach) = &node.foreach {
            step.what = "foreach".into();
            let resolved = self.resolve(&foreach.input, frame, &format!("{pointer}/foreach/input"));
            let items = resolved.value.as_array().cloned().unwrap_or_default();
            vars.insert(foreach.item_var.clone(), items.first().cloned().unwrap_or(Value::Null));
            if let Some(index_var) = &foreach.index_var {
                vars.insert(index_var.clone(), Value::from(0));
            }
            step.inputs.insert("foreach.input".into(), shorten(resolved.value.clone()));
            if resolved.from_samples {
                sample_vars.push(foreach.item_var.clone());
                self.note(format!(
                    "`{}`: the number of items is known only at run time; its body is counted once per run",
                    step.id
                ));
                1
            } else {
                items.len() as u64
            }
        } else if let Some(while_) = &node.while_ {
            step.what = "while".into();
            self.note(format!(
                "`{}`: counted at its max_iterations ({}), an upper bound",
                step.id, while_.max_iterations
            ));
            u64::from(while_.max_iterations)
        } else {
            0
        };
        step.runs = Some(ctx.multiplier);
        let inner = Frame { vars, sample_vars, outputs: HashMap::new(), order: Vec::new(), parent: Some(frame) };
        let body_ctx = Context {
            prefix: format!("{}{}/", ctx.prefix, node.id),
            pointer: format!("{pointer}/body/plan"),
            depth: ctx.depth + 1,
            multiplier: ctx.multiplier * iterations,
        };
        let collected = self.run_graph(node.body_graph(), body, &inner, &body_ctx);
        let mut outputs = Map::new();
        outputs.insert(
            "collect".into(),
            Value::Array(if iterations == 0 { Vec::new() } else { vec![Value::Object(collected)] }),
        );
        outputs
    }

    fn run_subflow(
        &mut self,
        node: &Node,
        frame: &Frame<'_>,
        pointer: &str,
        ctx: &Context,
        step: &mut Step,
    ) -> Map<String, Value> {
        step.kind = StepKind::Subflow;
        let Some(call) = &node.call else { return Map::new() };
        step.what = call.plan_id.clone();
        let mut vars = Map::new();
        let mut sample_vars = Vec::new();
        for (name, value) in &call.inputs {
            let resolved = self.resolve(value, frame, &format!("{pointer}/call/inputs/{}", escape_pointer(name)));
            if resolved.from_samples {
                sample_vars.push(name.clone());
            }
            step.inputs.insert(name.clone(), shorten(resolved.value.clone()));
            vars.insert(name.clone(), resolved.value);
        }
        let Resolution::Found { plan: child, .. } = self.plans.resolve(&call.plan_id) else { return Map::new() };
        if ctx.depth >= 16 {
            return Map::new();
        }
        for (name, default) in &child.vars {
            vars.entry(name.clone()).or_insert_with(|| default.clone());
        }
        let analysis = validate_plan(&child, self.catalog, self.plans).analysis;
        let root = Frame { vars, sample_vars, outputs: HashMap::new(), order: Vec::new(), parent: None };
        let child_ctx = Context {
            prefix: format!("{}{}/", ctx.prefix, node.id),
            pointer: String::new(),
            depth: ctx.depth + 1,
            multiplier: ctx.multiplier,
        };
        let report = std::mem::replace(&mut self.report, false);
        let outputs = self.run_graph(&child.graph, &analysis, &root, &child_ctx);
        self.report = report;
        outputs
    }

    fn resolve(&mut self, value: &Value, frame: &Frame<'_>, pointer: &str) -> Resolved {
        let mut from_samples = false;
        let mut pointer = pointer.to_owned();
        let value = self.resolve_value(value, frame, &mut pointer, &mut from_samples);
        Resolved { value, from_samples }
    }

    /// `pointer` is one buffer extended and cut back per nested value: a finding needs it
    /// rarely, every value passes through here.
    fn resolve_value(
        &mut self,
        value: &Value,
        frame: &Frame<'_>,
        pointer: &mut String,
        from_samples: &mut bool,
    ) -> Value {
        match value {
            Value::String(text) if !text.contains("${") => Value::String(text.clone()),
            Value::String(text) => match Template::parse(text) {
                Ok(Template::Literal(text)) => Value::String(text),
                Ok(Template::Single(reference)) => self.lookup(&reference, frame, pointer, from_samples),
                Ok(Template::Mixed(parts)) => Value::String(
                    parts
                        .iter()
                        .map(|part| match part {
                            Part::Text(text) => text.clone(),
                            Part::Ref(reference) => match self.lookup(reference, frame, pointer, from_samples) {
                                Value::String(s) => s,
                                other => other.to_string(),
                            },
                        })
                        .collect(),
                ),
                Err(_) => Value::Null,
            },
            Value::Array(items) => Value::Array(
                items
                    .iter()
                    .enumerate()
                    .map(|(i, item)| {
                        with_token(pointer, &i.to_string(), |p| self.resolve_value(item, frame, p, from_samples))
                    })
                    .collect(),
            ),
            Value::Object(map) => Value::Object(
                map.iter()
                    .map(|(k, item)| {
                        (k.clone(), with_token(pointer, k, |p| self.resolve_value(item, frame, p, from_samples)))
                    })
                    .collect(),
            ),
            literal => literal.clone(),
        }
    }

    fn lookup(&mut self, reference: &Reference, frame: &Frame<'_>, pointer: &str, from_samples: &mut bool) -> Value {
        let name = reference.path[0].as_str();
        let (start, rest, sample) = match &reference.root {
            Root::Secrets => return Value::String(format!("<secret {name}>")),
            Root::Env => return Value::String(format!("<env {name}>")),
            Root::Vars => match frame.var(name) {
                Some((value, sample)) => (Some(value), &reference.path[1..], sample),
                None => (None, &reference.path[1..], false),
            },
            Root::Node(id) => (frame.output(id, name), &reference.path[1..], true),
        };
        *from_samples |= sample;
        let mut current = start.cloned().unwrap_or(Value::Null);
        for segment in rest {
            let next = match &current {
                Value::Object(map) => map.get(segment).cloned(),
                Value::Array(items) => segment.parse::<usize>().ok().and_then(|i| items.get(i).cloned()),
                _ => None,
            };
            match next {
                Some(value) => current = value,
                // Sample outputs are examples, not the data a run will see: a field they lack
                // may well be there. Show where the value would come from instead.
                None if sample => {
                    return Value::String(format!(
                        "<{}>",
                        reference.to_string().trim_start_matches("${").trim_end_matches('}')
                    ))
                }
                None => {
                    if self.report {
                        let found = match &current {
                            Value::Object(map) => {
                                format!("it has {}", map.keys().map(String::as_str).collect::<Vec<_>>().join(", "))
                            }
                            Value::Array(items) => format!("it has {} item(s)", items.len()),
                            other => format!("it is {other}"),
                        };
                        self.findings.push(
                            Finding::warning(
                                Code::UnresolvedPath,
                                pointer.to_owned(),
                                format!("`{reference}`: the value has no `{segment}` ({found})"),
                            )
                            .hint("the run fails here unless the value is given differently at run time (`--var`)"),
                        );
                    }
                    return Value::Null;
                }
            }
        }
        current
    }

    fn note(&mut self, note: String) {
        self.estimate.exact = false;
        self.estimate.notes.push(note);
    }
}

/// One objective per non-empty line of natural-language steps.
fn count_objectives(text: &str) -> u64 {
    text.lines().filter(|line| !line.trim().is_empty()).count() as u64
}

/// Long strings are cut for display; the dry-run shows the shape of values, not their bulk.
fn shorten(value: Value) -> Value {
    const MAX: usize = 200;
    match value {
        Value::String(s) if s.chars().count() > MAX => {
            Value::String(format!("{}… ({} chars)", s.chars().take(MAX).collect::<String>(), s.chars().count()))
        }
        Value::Array(items) => Value::Array(items.into_iter().map(shorten).collect()),
        Value::Object(map) => Value::Object(map.into_iter().map(|(k, v)| (k, shorten(v))).collect()),
        other => other,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use planwright_plan::load_plan;

    #[test]
    fn objectives_are_counted_on_the_whole_steps_text() {
        let steps: String =
            (1..=8).map(|i| format!("{i}. {}\n", "open the statements page and check it ".repeat(8))).collect();
        let plan = format!(
            "apiVersion: planwright/v1\nid: long_steps\nversion: 1.0.0\ngraph:\n  - id: run\n    block: browser.run_objectives\n    in:\n      start_url: https://portal.example.com\n      steps: {}\n",
            serde_json::to_string(&steps).unwrap()
        );
        let plan = load_plan(&plan).unwrap().plan.unwrap();
        let catalog = Catalog::bundled().unwrap();
        let run = dry_run(&plan, &catalog, &crate::NoPlans);
        assert!(run.validation.is_valid(), "{:?}", run.validation.findings);
        assert_eq!(run.estimate.browser_objectives, 8);
        let per_objective = catalog.get("browser.run_objectives").unwrap().work.model_calls_per_objective;
        assert_eq!(run.estimate.model_calls, 8 * u64::from(per_objective));
        assert!(run.estimate.exact);
    }
}
