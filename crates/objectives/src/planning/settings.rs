//! Seed 001's planning settings (and seed 003's task loop): the `planning:` section of
//! `settings.yaml` under the data home, which the studio's Settings tab edits; a node's inputs
//! override them for that node. With `enabled: false` the runner is the seed 004 loop alone
//! (legacy mode): no plan, no reflection, no revision, one pass, no escalation.
//!
//! ```yaml
//! planning:
//!   enabled: true                 # false: legacy mode
//!   strategy: chain_of_thought    # or direct: a model plans without writing its reasoning
//!   max_subtasks: 100             # more objectives than this in one node are refused
//!   decomposition_level: moderate # coarse | moderate | fine: how detailed execution plans are
//!   reflection:
//!     enabled: true
//!     trigger_on_error: true      # reflect on every failed attempt
//!     trigger_interval: 3         # and every N actions (0: never)
//!   revision:
//!     max_revisions: 3            # per node run
//!   history:
//!     storage_type: jsonl
//!     directory: null             # null: beside the run's log; else a folder (relative: to the data home)
//!   task_loop:
//!     max_iterations: 3           # passes over the task before the person decides
//!     satisfaction_threshold: 0.8 # done at this score
//! ```

use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};

/// The settings file's name under the data home (shared with the model settings).
pub const SETTINGS_FILE: &str = "settings.yaml";
/// The section of that file these settings are.
const SECTION: &str = "planning";

/// The planning layer's settings.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
#[serde(deny_unknown_fields, default)]
pub struct PlanningSettings {
    pub enabled: bool,
    pub strategy: Strategy,
    pub max_subtasks: u32,
    pub decomposition_level: DecompositionLevel,
    pub reflection: ReflectionSettings,
    pub revision: RevisionSettings,
    pub history: HistorySettings,
    pub task_loop: TaskLoopSettings,
}

impl Default for PlanningSettings {
    fn default() -> PlanningSettings {
        PlanningSettings {
            enabled: true,
            strategy: Strategy::ChainOfThought,
            max_subtasks: 100,
            decomposition_level: DecompositionLevel::Moderate,
            reflection: ReflectionSettings::default(),
            revision: RevisionSettings::default(),
            history: HistorySettings::default(),
            task_loop: TaskLoopSettings::default(),
        }
    }
}

/// How a model is asked to plan.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
#[serde(rename_all = "snake_case")]
pub enum Strategy {
    /// The reasoning written out before the subtasks.
    ChainOfThought,
    /// The subtasks alone (fewer tokens).
    Direct,
}

/// How detailed the execution plans written in the plan are.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
#[serde(rename_all = "snake_case")]
pub enum DecompositionLevel {
    /// The objective as written.
    Coarse,
    /// One line per thing the objective asks for.
    Moderate,
    /// Each of those and how it will be judged.
    Fine,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
#[serde(deny_unknown_fields, default)]
pub struct ReflectionSettings {
    pub enabled: bool,
    pub trigger_on_error: bool,
    /// Every this many actions (0: never).
    pub trigger_interval: u32,
}

impl Default for ReflectionSettings {
    fn default() -> ReflectionSettings {
        ReflectionSettings { enabled: true, trigger_on_error: true, trigger_interval: 3 }
    }
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
#[serde(deny_unknown_fields, default)]
pub struct RevisionSettings {
    pub max_revisions: u32,
}

impl Default for RevisionSettings {
    fn default() -> RevisionSettings {
        RevisionSettings { max_revisions: 3 }
    }
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
#[serde(deny_unknown_fields, default)]
pub struct HistorySettings {
    /// `jsonl`, the one kind there is.
    pub storage_type: StorageType,
    /// Where the history files go; `None`: each beside its run's log, in the node's record folder.
    pub directory: Option<String>,
}

impl Default for HistorySettings {
    fn default() -> HistorySettings {
        HistorySettings { storage_type: StorageType::Jsonl, directory: None }
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
#[serde(rename_all = "snake_case")]
pub enum StorageType {
    Jsonl,
}

/// Seed 003's task loop.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
#[serde(deny_unknown_fields, default)]
pub struct TaskLoopSettings {
    /// Passes over the task before the person decides.
    pub max_iterations: u32,
    /// The request is satisfied at this score (0 – 1).
    pub satisfaction_threshold: f64,
}

impl Default for TaskLoopSettings {
    fn default() -> TaskLoopSettings {
        TaskLoopSettings { max_iterations: 3, satisfaction_threshold: 0.8 }
    }
}

/// A planning setting that cannot be used: where, what is wrong, and how to fix it.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum PlanningSettingsError {
    #[error("{}: `planning.{key}`: {problem}; {fix}", .path.display())]
    Invalid { path: PathBuf, key: String, problem: String, fix: String },
    #[error("cannot read {}: {message}", .path.display())]
    Read { path: PathBuf, message: String },
    #[error("cannot write {}: {message}", .path.display())]
    Write { path: PathBuf, message: String },
}

/// The bounds each number must keep, with the fix a message gives.
const BOUNDS: &[(&str, u32, u32)] = &[
    ("max_subtasks", 1, 1000),
    ("reflection.trigger_interval", 0, 1000),
    ("revision.max_revisions", 0, 10),
    ("task_loop.max_iterations", 1, 10),
];

impl PlanningSettings {
    /// The settings in `settings.yaml` under `data_home` (the defaults where it has none).
    pub fn load(data_home: &Path) -> Result<PlanningSettings, PlanningSettingsError> {
        let path = data_home.join(SETTINGS_FILE);
        let document = read_document(&path)?;
        let Some(section) = document.get(SECTION).filter(|v| !v.is_null()) else {
            return Ok(PlanningSettings::default());
        };
        let settings: PlanningSettings = serde_path_to_error::deserialize(section.clone()).map_err(|e| {
            let key = e.path().to_string();
            let problem = e.inner().to_string();
            let fix = if problem.contains("unknown field") {
                "the keys are enabled, strategy, max_subtasks, decomposition_level, reflection.{enabled, \
                 trigger_on_error, trigger_interval}, revision.max_revisions, history.{storage_type, directory}, \
                 task_loop.{max_iterations, satisfaction_threshold}"
                    .to_owned()
            } else {
                "see the planning settings in docs/plan-format.md for each key's type".to_owned()
            };
            PlanningSettingsError::Invalid { path: path.clone(), key, problem, fix }
        })?;
        settings.check(&path)?;
        Ok(settings)
    }

    /// Writes these settings as the `planning:` section of `settings.yaml`, leaving every other
    /// section as it was (atomically, readable by its owner alone).
    pub fn save(&self, data_home: &Path) -> Result<PathBuf, PlanningSettingsError> {
        let path = data_home.join(SETTINGS_FILE);
        self.check(&path)?;
        let write_error = |message: String| PlanningSettingsError::Write { path: path.clone(), message };
        let mut document = read_document(&path)?;
        let section = serde_yaml::to_value(self).map_err(|e| write_error(e.to_string()))?;
        match &mut document {
            serde_yaml::Value::Mapping(map) => {
                map.insert(SECTION.into(), section);
            }
            other => {
                let mut map = serde_yaml::Mapping::new();
                map.insert(SECTION.into(), section);
                *other = serde_yaml::Value::Mapping(map);
            }
        }
        let text = serde_yaml::to_string(&document).map_err(|e| write_error(e.to_string()))?;
        planwright_fs::private_dir(data_home).map_err(|e| write_error(e.to_string()))?;
        planwright_fs::write_atomically(&path, text.as_bytes(), planwright_fs::Access::Private)
            .map_err(|e| write_error(e.to_string()))?;
        Ok(path)
    }

    /// Every number within its bounds.
    pub fn check(&self, path: &Path) -> Result<(), PlanningSettingsError> {
        let values = [
            self.max_subtasks,
            self.reflection.trigger_interval,
            self.revision.max_revisions,
            self.task_loop.max_iterations,
        ];
        for ((key, low, high), value) in BOUNDS.iter().zip(values) {
            if !(*low..=*high).contains(&value) {
                return Err(PlanningSettingsError::Invalid {
                    path: path.to_path_buf(),
                    key: (*key).to_owned(),
                    problem: format!("{value} is out of range"),
                    fix: format!("give a whole number from {low} to {high}"),
                });
            }
        }
        let threshold = self.task_loop.satisfaction_threshold;
        if !(0.0..=1.0).contains(&threshold) || threshold.is_nan() {
            return Err(PlanningSettingsError::Invalid {
                path: path.to_path_buf(),
                key: "task_loop.satisfaction_threshold".into(),
                problem: format!("{threshold} is out of range"),
                fix: "give a score from 0 to 1, e.g. 0.8".into(),
            });
        }
        Ok(())
    }

    /// Where a node's history goes: `record_dir/planning.jsonl`, or in the folder the settings
    /// name (relative to `data_home`), one file per run and node.
    pub fn history_path(&self, record_dir: &Path, data_home: Option<&Path>) -> PathBuf {
        let Some(directory) = self.history.directory.as_deref().filter(|d| !d.trim().is_empty()) else {
            return record_dir.join(planwright_runs::planning::PLANNING_HISTORY_FILE);
        };
        let directory = Path::new(directory);
        let folder = match (directory.is_absolute(), data_home) {
            (false, Some(home)) => home.join(directory),
            _ => directory.to_path_buf(),
        };
        // The record folder is `runs/<plan>/<run>/<node>`: the run and the node name the file.
        let name = |p: Option<&Path>| p.and_then(Path::file_name).map(|n| n.to_string_lossy().into_owned());
        let run = name(record_dir.parent()).unwrap_or_else(|| "run".into());
        let node = name(Some(record_dir)).unwrap_or_else(|| "node".into());
        folder.join(format!("{run}-{node}.jsonl"))
    }
}

/// `settings.yaml` as a YAML document (an empty mapping when there is none).
fn read_document(path: &Path) -> Result<serde_yaml::Value, PlanningSettingsError> {
    let text = match std::fs::read_to_string(path) {
        Ok(text) => text,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => String::new(),
        Err(e) => return Err(PlanningSettingsError::Read { path: path.to_path_buf(), message: e.to_string() }),
    };
    if text.trim().is_empty() {
        return Ok(serde_yaml::Value::Mapping(serde_yaml::Mapping::new()));
    }
    serde_yaml::from_str(&text)
        .map_err(|e| PlanningSettingsError::Read { path: path.to_path_buf(), message: e.to_string() })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn no_file_gives_the_defaults_of_seed_001() {
        let home = tempfile::tempdir().unwrap();
        let settings = PlanningSettings::load(home.path()).unwrap();
        assert!(settings.enabled && settings.reflection.enabled && settings.reflection.trigger_on_error);
        assert_eq!(settings.reflection.trigger_interval, 3);
        assert_eq!(settings.revision.max_revisions, 3);
        assert_eq!(settings.max_subtasks, 100);
        assert_eq!(settings.task_loop.max_iterations, 3);
        assert_eq!(settings.task_loop.satisfaction_threshold, 0.8);
    }

    #[test]
    fn saving_keeps_the_model_settings_and_reads_back() {
        let home = tempfile::tempdir().unwrap();
        std::fs::write(home.path().join(SETTINGS_FILE), "provider: compatible\nbase_url: http://localhost:11434/v1\n")
            .unwrap();
        let settings = PlanningSettings {
            enabled: false,
            reflection: ReflectionSettings { trigger_interval: 5, ..ReflectionSettings::default() },
            ..PlanningSettings::default()
        };
        settings.save(home.path()).unwrap();
        assert_eq!(PlanningSettings::load(home.path()).unwrap(), settings);
        let text = std::fs::read_to_string(home.path().join(SETTINGS_FILE)).unwrap();
        assert!(text.contains("base_url: http://localhost:11434/v1"), "{text}");
    }

    #[test]
    fn a_bad_value_names_its_key_and_the_fix() {
        let home = tempfile::tempdir().unwrap();
        for (yaml, key, fix) in [
            ("planning:\n  revision:\n    max_revisions: 40\n", "revision.max_revisions", "0 to 10"),
            ("planning:\n  reflection:\n    every: 3\n", "reflection", "the keys are"),
            (
                "planning:\n  task_loop:\n    satisfaction_threshold: 1.5\n",
                "task_loop.satisfaction_threshold",
                "0 to 1",
            ),
            ("planning:\n  enabled: maybe\n", "enabled", "docs/plan-format.md"),
        ] {
            std::fs::write(home.path().join(SETTINGS_FILE), yaml).unwrap();
            let error = PlanningSettings::load(home.path()).unwrap_err().to_string();
            assert!(error.contains(&format!("`planning.{key}")) && error.contains(fix), "{yaml}: {error}");
        }
    }

    #[test]
    fn the_history_goes_beside_the_run_log_unless_a_folder_is_named() {
        let record = Path::new("/home/x/runs/portal/0195-run/download");
        let mut settings = PlanningSettings::default();
        assert_eq!(settings.history_path(record, None), record.join("planning.jsonl"));
        settings.history.directory = Some("planning_history".into());
        assert_eq!(
            settings.history_path(record, Some(Path::new("/home/x"))),
            Path::new("/home/x/planning_history/0195-run-download.jsonl")
        );
    }
}
