//! Seed 001's `PlanningHistoryStore`: a runner node's plans, reflections and revisions as JSONL,
//! one [`PlanningEntry`] a line, every line masked before it is written; read back by the studio
//! and `planwright runs show` (the latest plan, the revisions).

use std::io::Write;
use std::path::{Path, PathBuf};

use planwright_runs::planning::{PlanningEntry, Revision, TaskPlan};

/// The history file of one node's run.
pub struct PlanningHistory {
    path: PathBuf,
}

/// A history file that cannot be read back.
#[derive(Debug, thiserror::Error)]
pub enum HistoryError {
    #[error("cannot read {}: {source}", .path.display())]
    Read { path: PathBuf, source: std::io::Error },
    #[error("{}: line {line}: {message}; the file is written by the objective runner, one JSON object a line", .path.display())]
    Line { path: PathBuf, line: usize, message: String },
}

/// The most history lines read back (a node writes a few dozen).
const MAX_LINES: usize = 100_000;

impl PlanningHistory {
    pub fn new(path: PathBuf) -> PlanningHistory {
        PlanningHistory { path }
    }

    pub fn path(&self) -> &Path {
        &self.path
    }

    /// Appends `entry`, masked by `redact`; a history that cannot be written is reported by the
    /// caller, not fatal to the run.
    pub fn append(&self, entry: &PlanningEntry, redact: &dyn Fn(&str) -> String) -> std::io::Result<()> {
        if let Some(dir) = self.path.parent() {
            planwright_fs::private_dir(dir)?;
        }
        // Each string is masked before it is serialised: in the JSON text a secret with a quote,
        // a backslash or a control character in it is escaped and would not be found.
        let value = masked(serde_json::to_value(entry).map_err(std::io::Error::other)?, redact);
        let json = serde_json::to_string(&value).map_err(std::io::Error::other)?;
        let mut file = std::fs::OpenOptions::new().create(true).append(true).open(&self.path)?;
        planwright_fs::make_private(&self.path)?;
        writeln!(file, "{json}")
    }

    /// Every entry, in the order written.
    pub fn read(path: &Path) -> Result<Vec<PlanningEntry>, HistoryError> {
        let text = std::fs::read_to_string(path).map_err(|source| HistoryError::Read { path: path.into(), source })?;
        let mut entries = Vec::new();
        for (number, line) in text.lines().enumerate().take(MAX_LINES) {
            if line.trim().is_empty() {
                continue;
            }
            let entry = serde_json::from_str(line).map_err(|e| HistoryError::Line {
                path: path.into(),
                line: number + 1,
                message: e.to_string(),
            })?;
            entries.push(entry);
        }
        Ok(entries)
    }
}

/// `value` with every string and key passed through `redact`, then its long texts kept as a
/// summary (`planwright_runs::bounded`: the whole text is in the node's outputs).
pub(crate) fn masked(value: serde_json::Value, redact: &dyn Fn(&str) -> String) -> serde_json::Value {
    use serde_json::Value;
    match value {
        Value::String(text) => Value::String(planwright_runs::bounded(&redact(&text))),
        Value::Array(items) => Value::Array(items.into_iter().map(|v| masked(v, redact)).collect()),
        Value::Object(map) => Value::Object(
            map.into_iter().map(|(k, v)| (planwright_runs::bounded(&redact(&k)), masked(v, redact))).collect(),
        ),
        other => other,
    }
}

/// The plan in force: the last one written (a continuation plan after the first).
pub fn latest_plan(entries: &[PlanningEntry]) -> Option<&TaskPlan> {
    entries.iter().rev().find_map(|e| match e {
        PlanningEntry::Plan { plan, .. } => Some(plan),
        _ => None,
    })
}

/// The revisions, in order.
pub fn revisions(entries: &[PlanningEntry]) -> Vec<&Revision> {
    entries
        .iter()
        .filter_map(|e| match e {
            PlanningEntry::Revision { revision, .. } => Some(revision),
            _ => None,
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use planwright_runs::planning::*;

    fn plan(iteration: u32) -> TaskPlan {
        TaskPlan {
            iteration,
            goal_understanding: GoalUnderstanding {
                main_objective: "Download the October statement".into(),
                main_objective_said: None,
                success_criteria: vec!["a file is downloaded".into()],
                constraints: vec![],
            },
            task_decomposition: TaskDecomposition { reasoning: String::new(), subtasks: vec![] },
            action_plan: ActionPlan { execution_order: vec![], actions: vec![] },
            requirements: vec![],
            continuation: None,
            made_by: MadeBy::Offline,
        }
    }

    #[test]
    fn entries_read_back_in_order_with_the_latest_plan_and_the_revisions() {
        let dir = tempfile::tempdir().unwrap();
        let history = PlanningHistory::new(dir.path().join("node").join("planning.jsonl"));
        let revision =
            Revision { number: 1, reason: "objective 2 failed".into(), reason_said: vec![], changes: vec![] };
        let keep = |t: &str| t.replace("hunter2", "***");
        history.append(&PlanningEntry::Plan { timestamp: "t1".into(), plan: plan(1) }, &keep).unwrap();
        history.append(&PlanningEntry::Revision { timestamp: "t2".into(), revision: revision.clone() }, &keep).unwrap();
        let mut second = plan(2);
        second.goal_understanding.constraints.push("typed hunter2".into());
        history.append(&PlanningEntry::Plan { timestamp: "t3".into(), plan: second }, &keep).unwrap();
        let entries = PlanningHistory::read(history.path()).unwrap();
        assert_eq!(entries.len(), 3);
        assert_eq!(latest_plan(&entries).unwrap().iteration, 2);
        assert_eq!(latest_plan(&entries).unwrap().goal_understanding.constraints, vec!["typed ***".to_owned()]);
        assert_eq!(revisions(&entries), vec![&revision]);
        let text = std::fs::read_to_string(history.path()).unwrap();
        assert!(text.lines().all(|l| l.starts_with("{\"type\":")), "{text}");
    }

    #[test]
    fn a_secret_with_a_quote_and_a_backslash_is_masked_too() {
        let dir = tempfile::tempdir().unwrap();
        let history = PlanningHistory::new(dir.path().join("planning.jsonl"));
        let secret = "p\"ss\\w0rd";
        let keep = |t: &str| t.replace(secret, "***");
        let mut entry = plan(1);
        entry.goal_understanding.constraints.push(format!("typed {secret} in the password box"));
        history.append(&PlanningEntry::Plan { timestamp: "t1".into(), plan: entry }, &keep).unwrap();
        let text = std::fs::read_to_string(history.path()).unwrap();
        assert!(!text.contains("w0rd"), "{text}");
        let entries = PlanningHistory::read(history.path()).unwrap();
        assert_eq!(
            latest_plan(&entries).unwrap().goal_understanding.constraints,
            vec!["typed *** in the password box"]
        );
    }

    #[test]
    fn a_broken_line_is_named() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("planning.jsonl");
        std::fs::write(&path, "{\"type\":\"plan\"\n").unwrap();
        let error = PlanningHistory::read(&path).unwrap_err().to_string();
        assert!(error.contains("line 1"), "{error}");
    }
}
