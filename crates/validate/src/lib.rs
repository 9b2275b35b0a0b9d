//! Plan validation and dry-run.
//!
//! `validate_plan` checks a plan against the block catalog and the plans it calls: node kinds,
//! block inputs and outputs, every `${...}` reference (nested anywhere) for scope, alias, path
//! and type, expressions, loop bodies with their scope, subflows, cycles and browser order. Each
//! problem is a [`Finding`] with a stable code. `dry_run` adds a symbolic run over sample values
//! and an estimate of the work. This crate reads plans; it never runs a block.

mod advice;
mod check;
mod columns;
mod dry_run;
mod order;
mod shapes;
mod subflow;
mod template;

use planwright_catalog::Catalog;
use planwright_plan::{Code, Finding, LoadedPlan, Plan};

pub use columns::{InputFiles, InputTable, NoFiles};
pub use dry_run::{dry_run, dry_run_validated, DryRun, Estimate, Step, StepKind};
pub use order::{Edge, EdgeKind, GraphAnalysis};
pub use subflow::{NoPlans, PlanSource};
pub use template::validate_template;

/// The outcome of validating a plan.
#[derive(Debug, Clone)]
pub struct Validation {
    /// Errors first, then warnings; each in document order.
    pub findings: Vec<Finding>,
    /// The plan's execution structure; `order` is empty when there is a cycle.
    pub analysis: GraphAnalysis,
    /// The first rows of the input files the plan's read steps name, by node id, as
    /// [`InputFiles`] read them: the dry-run shows the first five instead of the block's
    /// example.
    pub input_rows: std::collections::HashMap<String, Vec<serde_json::Value>>,
    /// The columns there are where a step names a column, by the field's JSON pointer
    /// (`/graph/2/in/by/0`): the choices for that field, when the table's columns are known.
    pub columns_at: std::collections::BTreeMap<String, Vec<planwright_plan::Column>>,
    /// The columns of each table a step gives, where they are known, by the reference to it
    /// (`totals.rows`): what the run's table will have.
    pub tables: std::collections::BTreeMap<String, Vec<planwright_plan::Column>>,
}

impl Validation {
    pub fn errors(&self) -> impl Iterator<Item = &Finding> {
        self.findings.iter().filter(|f| f.is_error())
    }

    pub fn warnings(&self) -> impl Iterator<Item = &Finding> {
        self.findings.iter().filter(|f| !f.is_error())
    }

    pub fn is_valid(&self) -> bool {
        self.errors().next().is_none()
    }
}

/// Validates a plan model. Findings carry JSON pointers; `validate_loaded` also fills in node,
/// field, line and column. The columns of input files are not known ([`NoFiles`]).
pub fn validate_plan(plan: &Plan, catalog: &Catalog, plans: &dyn PlanSource) -> Validation {
    validate_plan_with_files(plan, catalog, plans, &NoFiles)
}

/// [`validate_plan`], with the columns of the input files `files` can read (the work folder's):
/// a column a step names that the file does not have is then reported too.
pub fn validate_plan_with_files(
    plan: &Plan,
    catalog: &Catalog,
    plans: &dyn PlanSource,
    files: &dyn InputFiles,
) -> Validation {
    let _span = tracing::debug_span!("validate_plan", plan = %plan.id, nodes = plan.graph.len()).entered();
    let mut children = subflow::Children::new(plans, catalog, &plan.id);
    let report = check::validate_with(plan, catalog, &mut children);
    let mut findings = report.findings;
    if plan.graph.is_empty() {
        findings.push(
            Finding::error(Code::EmptyPlan, "/graph", "this plan does nothing: it has no steps")
                .hint("add the steps that read, change and write what the job needs, or describe the job again"),
        );
    }
    let columns = columns::check_columns(plan, catalog, &report.analysis.order, files);
    findings.extend(columns.findings);
    sort_findings(&mut findings);
    Validation {
        findings,
        analysis: report.analysis,
        input_rows: columns.input_rows,
        columns_at: columns.columns_at,
        tables: columns.tables,
    }
}

/// Validates a loaded plan file: the loader's shape findings, then (when the document could be
/// read into the model) every semantic rule, all located in the file.
pub fn validate_loaded(loaded: &LoadedPlan, catalog: &Catalog, plans: &dyn PlanSource) -> Validation {
    validate_loaded_with_files(loaded, catalog, plans, &NoFiles)
}

/// [`validate_loaded`], with the columns of the input files `files` can read.
pub fn validate_loaded_with_files(
    loaded: &LoadedPlan,
    catalog: &Catalog,
    plans: &dyn PlanSource,
    files: &dyn InputFiles,
) -> Validation {
    let mut validation = match &loaded.plan {
        Some(plan) => validate_plan_with_files(plan, catalog, plans, files),
        None => Validation {
            findings: Vec::new(),
            analysis: GraphAnalysis::default(),
            input_rows: Default::default(),
            columns_at: Default::default(),
            tables: Default::default(),
        },
    };
    // A node whose kind is unclear because of a misspelled key (`blok:`) is one mistake: the
    // unknown key says it, with "did you mean"; the unclear kind would only repeat it.
    let misspelled: Vec<&str> = loaded
        .findings
        .iter()
        .filter(|f| f.code == Code::UnknownKey)
        .filter_map(|f| f.path.rsplit_once('/').map(|(node, _)| node))
        .collect();
    validation.findings.retain(|f| !(f.code == Code::AmbiguousNodeType && misspelled.contains(&f.path.as_str())));
    validation.findings.extend(loaded.findings.iter().cloned());
    loaded.annotate(&mut validation.findings);
    sort_findings(&mut validation.findings);
    validation.findings.dedup();
    validation
}

fn sort_findings(findings: &mut [Finding]) {
    findings.sort_by(|a, b| (a.severity, a.line, &a.path, a.code).cmp(&(b.severity, b.line, &b.path, b.code)));
}
