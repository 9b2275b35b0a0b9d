//! `steps.jsonl`: one line per attempt at an objective, as seed 004's log has it —
//! `stepNumber`, `originalInstruction`, `decision` (method, selector), `result`, `timestamp`,
//! `metadataPresent`, `metadataMissing`, `metadataKeys` — with placeholders only, never values
//! (every line passes the run's masking before it is written).

use std::io::Write;
use std::path::{Path, PathBuf};

use planwright_runs::objective::Tool;
use serde::Serialize;

/// One attempt.
#[derive(Debug, Clone, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct StepLine {
    /// The objective's number, from 1 (a recovery step carries its objective's).
    pub step_number: usize,
    pub original_instruction: String,
    pub attempt: u32,
    /// `objective` or `recovery`.
    pub step_type: &'static str,
    /// Who chose the actions: `offline`, `cache` or `model`.
    pub decided_by: &'static str,
    pub decision: Vec<Decision>,
    pub result: StepResult,
    pub timestamp: String,
    /// Whether the step's reading had hints to go on (a target, a value, a role).
    pub metadata_present: bool,
    pub metadata_missing: bool,
    pub metadata_keys: Vec<String>,
}

/// One operation chosen: the seed's method and selector, and the operation.
#[derive(Debug, Clone, Serialize)]
pub struct Decision {
    pub method: String,
    pub selector: serde_json::Value,
    pub action: String,
}

#[derive(Debug, Clone, Serialize)]
pub struct StepResult {
    pub success: bool,
    /// The evidence, or why the attempt failed.
    pub note: String,
}

/// The log file of one node's run of objectives.
pub struct StepLog {
    path: PathBuf,
}

impl StepLog {
    pub fn new(dir: &Path) -> StepLog {
        StepLog { path: dir.join("steps.jsonl") }
    }

    pub fn path(&self) -> &Path {
        &self.path
    }

    /// Whether an earlier attempt at this node wrote here (a retry or a resume starts over).
    pub fn exists(&self) -> bool {
        self.path.metadata().is_ok_and(|m| m.len() > 0)
    }

    /// Appends `line`, after `redact` has masked it and its long texts are cut to a summary; a
    /// log that cannot be written is reported by the caller, not fatal to the run.
    pub fn append(&self, line: &StepLine, redact: &dyn Fn(&str) -> String) -> std::io::Result<()> {
        if let Some(dir) = self.path.parent() {
            planwright_fs::private_dir(dir)?;
        }
        let value = serde_json::to_value(line).map_err(std::io::Error::other)?;
        let json = crate::planning::history::masked(value, redact).to_string();
        let mut file = std::fs::OpenOptions::new().create(true).append(true).open(&self.path)?;
        planwright_fs::make_private(&self.path)?;
        writeln!(file, "{json}")
    }
}

/// The seed's `method` and `selector` for a locator.
pub fn decision_of(locator: Option<&planwright_browser::Locator>, tool: Tool) -> Decision {
    use planwright_browser::Locator;
    let (method, selector) = match locator {
        Some(Locator::Role { role, name, .. }) => ("getByRole", serde_json::json!({"role": role, "name": name})),
        Some(Locator::Text { text, .. }) => ("getByText", serde_json::json!({"text": text})),
        Some(Locator::TestId { id }) => ("getByTestId", serde_json::json!({"testId": id})),
        Some(Locator::Ref { reference }) => ("ref", serde_json::json!({"ref": reference})),
        Some(Locator::Near { target, text }) => {
            let inner = decision_of(Some(target), tool);
            return Decision {
                method: inner.method,
                selector: serde_json::json!({"of": inner.selector, "near": text}),
                action: tool.name().to_owned(),
            };
        }
        None => ("none", serde_json::Value::Null),
    };
    Decision { method: method.to_owned(), selector, action: tool.name().to_owned() }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lines_are_appended_masked_with_the_seeds_keys() {
        let dir = tempfile::tempdir().unwrap();
        let log = StepLog::new(&dir.path().join("node"));
        assert!(!log.exists());
        let line = StepLine {
            step_number: 1,
            original_instruction: "Sign in with {{U}} / {{P}}".into(),
            attempt: 1,
            step_type: "objective",
            decided_by: "offline",
            decision: vec![decision_of(
                Some(&planwright_browser::Locator::Role {
                    role: "button".into(),
                    name: Some("Sign in".into()),
                    exact: true,
                }),
                Tool::Click,
            )],
            result: StepResult { success: false, note: "the page echoed hunter2".into() },
            timestamp: "2026-11-25T00:00:00Z".into(),
            metadata_present: true,
            metadata_missing: false,
            metadata_keys: vec!["action".into(), "target".into()],
        };
        log.append(&line, &|text| text.replace("hunter2", "***")).unwrap();
        log.append(&line, &|text| text.replace("hunter2", "***")).unwrap();
        let written = std::fs::read_to_string(log.path()).unwrap();
        assert_eq!(written.lines().count(), 2);
        assert!(!written.contains("hunter2"));
        let first: serde_json::Value = serde_json::from_str(written.lines().next().unwrap()).unwrap();
        for key in [
            "stepNumber",
            "originalInstruction",
            "decision",
            "result",
            "timestamp",
            "metadataPresent",
            "metadataMissing",
            "metadataKeys",
        ] {
            assert!(first.get(key).is_some(), "{key} in {first}");
        }
        assert_eq!(first["decision"][0]["method"], "getByRole");
        assert_eq!(first["decision"][0]["selector"]["name"], "Sign in");
        assert!(log.exists());
    }
}
