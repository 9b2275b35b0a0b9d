//! The objective runner's task suite, `objectives/tasks.json`, and its held-out part,
//! `objectives/heldout.json` (written before the runner was tuned on the rest, and reported
//! apart): each task's start page, steps, secrets and what the site server must have recorded
//! when it is done — and how many times. Shared by the runner's tests and `planwright bench
//! objectives`; `tools/playwright/objectives.mjs` performs the same tasks with known locators.

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
    /// Events the server must have (`detail` a subset of the recorded one); with `"times": N`,
    /// exactly N of them (an effect the task asks for once, done once).
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
    /// What the runner cannot read yet that this task needs, when it cannot: the suite then
    /// holds it only to ending honestly (never a success it did not earn, never an effect
    /// repeated) until the gap is closed and this is removed.
    #[serde(default)]
    pub gap: Option<String>,
    /// From `heldout.json`: never tuned on, reported apart.
    #[serde(skip)]
    pub held_out: bool,
}

/// Every task of the suite, as built into this crate: `tasks.json`, then the held-out part.
pub fn tasks() -> Vec<Task> {
    let mut tasks = read("objectives/tasks.json");
    tasks.extend(read("objectives/heldout.json").into_iter().map(|task| Task { held_out: true, ..task }));
    tasks
}

fn read(path: &str) -> Vec<Task> {
    let text = crate::pages::text(path).unwrap_or_else(|| "[]".into());
    serde_json::from_str(&text).unwrap_or_else(|e| unreachable!("{path} is fixed and reads: {e}"))
}

impl Task {
    /// A task written for one test: `steps` from `start`, expected to pass, nothing else
    /// expected (set the rest with struct update syntax).
    pub fn new(id: &str, start: &str, steps: &str) -> Task {
        Task {
            id: id.into(),
            family: "test".into(),
            lang: "en".into(),
            start: start.into(),
            steps: steps.into(),
            secrets: HashMap::new(),
            expect_passed: true,
            expect_events: Vec::new(),
            expect_absent: Vec::new(),
            expect_extracted: Map::new(),
            expect_recovery: false,
            inputs: Map::new(),
            gap: None,
            held_out: false,
        }
    }

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
            let found = matching(&recorded, expected);
            match expected["times"].as_u64() {
                _ if found == 0 => wrong.push(format!("the site did not record {expected}")),
                Some(times) if found != times => {
                    wrong.push(format!("the site recorded {expected} {found} times, expected {times}"))
                }
                _ => {}
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

    /// Whether the runner said the task passed although it did not end as expected (`wrong`,
    /// from [`Task::mismatches`]): a success it did not earn, the worst outcome.
    pub fn false_success(&self, outputs: &Value, wrong: &[String]) -> bool {
        outputs["passed"] == true && !wrong.is_empty()
    }

    /// How many times the site recorded an effect beyond what the task asks (`times`): an
    /// effect repeated — a form sent twice, a payment made twice. Must be 0.
    pub fn repeated_effects(&self, state: &Value) -> u64 {
        let recorded = state["events"].as_array().cloned().unwrap_or_default();
        self.expect_events
            .iter()
            .filter_map(|expected| Some(matching(&recorded, expected).saturating_sub(expected["times"].as_u64()?)))
            .sum()
    }
}

/// How many of `recorded` are the `expected` event: its action, and its `detail` a subset.
fn matching(recorded: &[Value], expected: &Value) -> u64 {
    recorded
        .iter()
        .filter(|e| {
            e["action"] == expected["action"]
                && expected["detail"].as_object().is_none_or(|detail| detail.iter().all(|(k, v)| &e["detail"][k] == v))
        })
        .count() as u64
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

    #[test]
    fn an_effect_recorded_more_often_than_asked_is_a_mismatch_and_a_repeat() {
        let mut task = tasks().into_iter().find(|t| t.id == "portal_statement_download").unwrap();
        task.expect_events = vec![json!({"action": "contact", "detail": {"name": "Ada"}, "times": 1})];
        task.expect_recovery = false;
        let sent = json!({"action": "contact", "detail": {"name": "Ada", "message_length": 5}});
        let twice = json!({"events": [sent, sent, {"action": "contact", "detail": {"name": "Bob"}}]});
        let wrong = task.mismatches(&json!({"passed": true}), &twice, false);
        assert_eq!(wrong.len(), 1, "{wrong:?}");
        assert!(wrong[0].contains("2 times, expected 1"), "{wrong:?}");
        assert_eq!(task.repeated_effects(&twice), 1);
        let once = json!({"events": [sent]});
        assert!(task.mismatches(&json!({"passed": true}), &once, false).is_empty());
        assert_eq!(task.repeated_effects(&once), 0);
    }
}
