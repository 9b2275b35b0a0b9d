//! Subflows: finding the plan a `call` names, validating it once, and what the caller may use
//! of it (its output aliases and their types, its vars).

use std::collections::HashMap;
use std::path::PathBuf;
use std::sync::Arc;

use indexmap::IndexMap;
use planwright_catalog::{Catalog, Type};
use planwright_designs::{Designs, Resolution};
use planwright_plan::{Finding, Plan};

use crate::check::validate_with;

/// Where `call.plan_id` is looked up. The designs folder is the real one; tests and the studio
/// may supply others.
pub trait PlanSource {
    fn resolve(&self, plan_ref: &str) -> Resolution;
}

impl PlanSource for Designs {
    fn resolve(&self, plan_ref: &str) -> Resolution {
        Designs::resolve(self, plan_ref)
    }
}

/// A plan source that knows no plans.
pub struct NoPlans;

impl PlanSource for NoPlans {
    fn resolve(&self, _: &str) -> Resolution {
        Resolution::NotFound { candidates: Vec::new() }
    }
}

/// A called plan, validated.
#[derive(Debug)]
pub struct Child {
    pub plan: Arc<Plan>,
    pub path: PathBuf,
    /// Aliases of its top-level nodes and their types.
    pub outputs: IndexMap<String, Type>,
    /// Aliases given by more than one of its top-level nodes.
    pub ambiguous: Vec<String>,
    pub browser: bool,
    /// Its own errors (and those of plans it calls), as found.
    pub errors: Vec<Finding>,
}

/// Why a called plan could not be used.
#[derive(Debug, Clone)]
pub enum ChildProblem {
    NotFound {
        candidates: Vec<String>,
    },
    Unreadable {
        path: PathBuf,
        message: String,
    },
    /// The chain of plan ids that leads back to a plan already being validated.
    Cycle(Vec<String>),
    TooDeep,
}

/// Calls nested deeper than this are refused (and are a sign of a mistake).
const MAX_DEPTH: usize = 16;

/// Resolves and validates called plans, each once per validation.
pub struct Children<'a> {
    source: &'a dyn PlanSource,
    catalog: &'a Catalog,
    resolved: HashMap<String, Result<Arc<Child>, ChildProblem>>,
    /// Plan ids being validated, outermost first.
    stack: Vec<String>,
}

impl<'a> Children<'a> {
    pub fn new(source: &'a dyn PlanSource, catalog: &'a Catalog, root_id: &str) -> Children<'a> {
        Children { source, catalog, resolved: HashMap::new(), stack: vec![root_id.to_owned()] }
    }

    /// The validated plan `plan_ref` names, or why it cannot be used.
    pub fn resolve(&mut self, plan_ref: &str) -> Result<Arc<Child>, ChildProblem> {
        if let Some(done) = self.resolved.get(plan_ref) {
            return done.clone();
        }
        let outcome = self.load(plan_ref);
        // A cycle depends on the path that reached it, so it is not remembered.
        if !matches!(outcome, Err(ChildProblem::Cycle(_))) {
            self.resolved.insert(plan_ref.to_owned(), outcome.clone());
        }
        outcome
    }

    fn load(&mut self, plan_ref: &str) -> Result<Arc<Child>, ChildProblem> {
        let (plan, path) = match self.source.resolve(plan_ref) {
            Resolution::Found { plan, path } => (plan, path),
            Resolution::NotFound { candidates } => return Err(ChildProblem::NotFound { candidates }),
            Resolution::Unreadable { path, message } => return Err(ChildProblem::Unreadable { path, message }),
        };
        if self.stack.contains(&plan.id) {
            let mut chain = self.stack.clone();
            chain.push(plan.id.clone());
            return Err(ChildProblem::Cycle(chain));
        }
        if self.stack.len() >= MAX_DEPTH {
            return Err(ChildProblem::TooDeep);
        }
        self.stack.push(plan.id.clone());
        let report = validate_with(&plan, self.catalog, self);
        self.stack.pop();
        Ok(Arc::new(Child {
            outputs: report.outputs,
            ambiguous: report.ambiguous,
            browser: report.browser,
            errors: report.findings.into_iter().filter(Finding::is_error).collect(),
            plan,
            path,
        }))
    }
}
