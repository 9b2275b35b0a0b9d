//! `planwright runs show`'s planning history: for each runner node, its history file read back
//! (the latest plan's main objective and subtasks, the reflections, the revisions). The file is
//! the node's `report.planning_history` output, else its `.jsonl` artifact; one that cannot be
//! read is said, not fatal.

use std::fmt::Write;
use std::path::Path;

use planwright_objectives::planning::history::{latest_plan, revisions, PlanningHistory};
use planwright_reports::RunRecord;
use planwright_runs::planning::{PlanningEntry, ReflectionStatus, ReflectionTrigger};

/// The planning history of every runner node of `record`, as text.
pub fn text(record: &RunRecord) -> String {
    let mut out = String::new();
    for node in record.nodes.iter().filter(|n| n.objectives.is_some() || n.planning_history.is_some()) {
        let Some(path) = &node.planning_history else {
            let _ = writeln!(out, "planning of {}: no history (planning was off)", node.path);
            continue;
        };
        let _ = writeln!(out, "planning of {} ({path}):", node.path);
        match PlanningHistory::read(Path::new(path)) {
            Ok(entries) => history(&mut out, &entries),
            Err(error) => {
                let _ = writeln!(out, "  {error}");
            }
        }
    }
    out
}

fn history(out: &mut String, entries: &[PlanningEntry]) {
    match latest_plan(entries) {
        Some(plan) => {
            let _ = writeln!(out, "  plan (pass {}): {}", plan.iteration, plan.goal_understanding.main_objective);
            for (number, subtask) in plan.task_decomposition.subtasks.iter().enumerate() {
                let _ = writeln!(
                    out,
                    "    {}. {} — done when {}",
                    number + 1,
                    subtask.description,
                    subtask.success_criterion
                );
            }
        }
        None => {
            let _ = writeln!(out, "  no plan written");
        }
    }
    let reflections: Vec<_> = entries
        .iter()
        .filter_map(|e| match e {
            PlanningEntry::Reflection { reflection, .. } => Some(reflection),
            _ => None,
        })
        .collect();
    let _ = writeln!(out, "  reflections: {}", reflections.len());
    for reflection in reflections {
        let trigger = match reflection.trigger {
            ReflectionTrigger::Error => "failed attempt",
            ReflectionTrigger::Interval => "interval",
            ReflectionTrigger::Iteration => "end of pass",
        };
        let status = match reflection.status {
            ReflectionStatus::Success => "success",
            ReflectionStatus::Failure => "failure",
            ReflectionStatus::Partial => "partial",
        };
        let _ = writeln!(out, "    - {trigger}, {status}: {}", reflection.evaluation);
    }
    let revisions = revisions(entries);
    let _ = writeln!(out, "  revisions: {}", revisions.len());
    for revision in revisions {
        let _ = writeln!(out, "    {}. {}", revision.number, revision.reason);
        for change in &revision.changes {
            let _ = writeln!(out, "       step {}: {}", change.objective, change.description);
        }
    }
}
