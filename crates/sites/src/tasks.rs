//! The objective runner's task suite, `objectives/tasks.json`: each task's start page, steps,
//! secrets and what the site server must have recorded when it is done. Shared by the runner's
//! tests and `planwright bench objectives`; `tools/playwright/objectives.mjs` performs the same
//! tasks with known locators.

use std::collections::HashMap;

use serde::Deserialize;
use serde_json::{json, Map, Value};

/// One task of the suite.
#[derive(Debug, Clone, Deserialize)]
pub struct Task {
    pub id: String,
    /// Which family of page it exercises.
    pub family: String,
    pub lang: String,
    /// The start page's path on the main origin.
    pub start: String,
    pub steps: String,
    #[serde(default)]
    pub secrets: HashMap<String, String>,
    /// Whether every objective must pass (false: the impossible task, the false check).
    pub expect_passed: bool,
    /// Events the server must have (`detail` a subset of the recorded one).
    #[serde(default)]
    pub expect_events: Vec<Value>,
    /// Actions the server must not have.
    #[serde(default)]
    pub expect_absent: Vec<String>,
    /// Values the runner must have noted.
    #[serde(default)]
    pub expect_extracted: Map<String, Value>,
    /// A recovery step must have been inserted.
    #[serde(default)]
    pub expect_recovery: bool,
    /// Further inputs of the node (`on_unsatisfied`, `planning` …).
    #[serde(default)]
    pub inputs: Map<String, Value>,
}

/// Every task of the suite, as built into this crate.
pub fn tasks() -> Vec<Task> {
    let text = crate::pages::text("objectives/tasks.json").unwrap_or_default();
    serde_json::from_str(&text).unwrap_or_else(|e| unreachable!("objectives/tasks.json is fixed and reads: {e}"))
}

impl Task {
    /// The start page's path, with `instant=1` in its query when `instant` (the pages skip their
    /// artificial delays).
    pub fn start_path(&self, instant: bool) -> String {
        if !instant {
            return self.start.clone();
        }
        format!("{}{}instant=1", self.start, if self.start.contains('?') { "&" } else { "?" })
    }

    /// A plan of one `browser.run_objectives` node, `task`, that carries the task out from
    /// `start_url` with the task's further inputs; with `model_first` the model decides first
    /// (`decide_first: model`).
    pub fn plan(&self, start_url: &str, model_first: bool) -> String {
        let mut secrets: Vec<&str> = self.secrets.keys().map(String::as_str).collect();
        secrets.sort_unstable();
        let mut inputs = Value::Object(self.inputs.clone());
        inputs["start_url"] = json!(start_url);
        inputs["steps"] = json!(self.steps);
        if model_first {
            inputs["decide_first"] = json!("model");
        }
        let node = json!({
            "id": "task",
            "block": "browser.run_objectives",
            "in": inputs,
            "out": {"report": "report", "passed": "passed", "extracted": "extracted"},
        });
        format!(
            "apiVersion: planwright/v1\nid: {}\nversion: 1.0.0\nsecrets: [{}]\npolicy: {{on_error: continue}}\ngraph:\n  - {node}\n",
            self.id.replace('_', "-"),
            secrets.join(", "),
        )
    }

    /// What the task expected and did not get, in words (empty: it ended as expected), from
    /// the block's outputs (`passed`, `extracted`, the report), the server's state and whether
    /// a recovery step was inserted.
    pub fn mismatches(&self, outputs: &Value, state: &Value, recovered: bool) -> Vec<String> {
        let mut wrong = Vec::new();
        let passed = outputs["passed"].as_bool();
        if passed != Some(self.expect_passed) {
            wrong.push(format!("passed is {passed:?}, expected {}", self.expect_passed));
        }
        let recorded = state["events"].as_array().cloned().unwrap_or_default();
        for expected in &self.expect_events {
            let found = recorded.iter().any(|e| {
                e["action"] == expected["action"]
                    && expected["detail"]
                        .as_object()
                        .is_none_or(|detail| detail.iter().all(|(k, v)| &e["detail"][k] == v))
            });
            if !found {
                wrong.push(format!("the site did not record {expected}"));
            }
        }
        for absent in &self.expect_absent {
            if recorded.iter().any(|e| e["action"] == absent.as_str()) {
                wrong.push(format!("the site recorded {absent}, which must not happen"));
            }
        }
        for (name, value) in &self.expect_extracted {
            if &outputs["extracted"][name] != value {
                wrong.push(format!("extracted.{name} is {}, expected {value}", outputs["extracted"][name]));
            }
        }
        if self.expect_recovery && !recovered {
            wrong.push("no recovery step was inserted".into());
        }
        wrong
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_suite_reads_and_covers_every_family() {
        let tasks = tasks();
        assert!(tasks.len() >= 14);
        assert!(tasks.iter().any(|t| !t.expect_passed), "an impossible task and a false check are in it");
        assert!(tasks.iter().any(|t| t.lang == "ja") && tasks.iter().any(|t| t.lang == "en"));
    }

    #[test]
    fn mismatches_name_what_is_missing() {
        let task = tasks().into_iter().find(|t| t.id == "portal_statement_download").unwrap();
        let wrong = task.mismatches(&serde_json::json!({"passed": false}), &serde_json::json!({"events": []}), false);
        assert!(wrong.iter().any(|w| w.contains("passed is Some(false)")));
        assert!(wrong.iter().any(|w| w.contains("download")));
        assert!(wrong.iter().any(|w| w.contains("recovery")));
    }
}
