//! What an objective leaves behind: its execution plan, evidence screenshots, progress
//! events and the lines of `steps.jsonl`.

use super::*;

impl Runner<'_> {
    pub(super) fn set_plan(&mut self, index: usize, ops: &[Op]) {
        let plan: Vec<String> = ops.iter().map(Op::describe).collect();
        let step = &mut self.progress.objective_steps[index];
        if step.execution_plan != plan {
            step.execution_plan = plan;
        }
    }

    /// Starts an evidence screenshot of the page as it is now; it completes while the next
    /// objective is read and planned ([`Runner::flush_evidence`]).
    pub(super) async fn keep_screenshot(&mut self, index: usize, what: &str) {
        self.flush_evidence().await;
        let session = Arc::clone(&self.session);
        let dir = self.ctx.record_dir.join("evidence");
        let pass = if self.iteration > 1 { format!("-pass{}", self.iteration) } else { String::new() };
        let name = format!("{:02}-{what}{pass}.png", self.progress.objective_number(index));
        let shot = tokio::spawn(async move { evidence::save(&*session, &dir, &name).await });
        self.pending_evidence = Some((index, shot));
    }

    /// Waits for the evidence screenshot under way, if any, and records it.
    pub(crate) async fn flush_evidence(&mut self) {
        let Some((index, shot)) = self.pending_evidence.take() else { return };
        match shot.await.unwrap_or_else(|e| Err(format!("the screenshot stopped: {e}"))) {
            Ok(Some(path)) => {
                self.ctx.artifact(&path, ArtifactKind::Screenshot);
                if let Some(step) = self.progress.objective_steps.get_mut(index) {
                    step.stats.screenshot = Some(path.display().to_string());
                }
                self.emit_for(index, ObjectiveChange::EvidenceKept, None);
                self.screenshots.retain(|(i, _)| *i != index);
                self.screenshots.push((index, path));
            }
            Ok(None) => {
                let objective = self.progress.objective_number(index);
                let text = format!("objective {objective}: the page was blank, so no screenshot was kept as evidence");
                self.ctx
                    .log(LogLevel::Warn, Reason::said(RunMessage::EvidenceBlank { objective: objective as u64 }, text))
            }
            Err(error) => {
                self.ctx.log(LogLevel::Warn, format!("objective {}: {error}", self.progress.objective_number(index)))
            }
        }
    }

    /// Records a change of the current step as a progress event.
    pub(crate) fn emit(&self, change: ObjectiveChange, action: Option<ExecutedAction>) {
        self.emit_for(self.progress.current_step_index, change, action);
    }

    /// Records a change of step `index` as a progress event.
    pub(super) fn emit_for(&self, index: usize, change: ObjectiveChange, action: Option<ExecutedAction>) {
        let Some(step) = self.progress.objective_steps.get(index) else { return };
        let steps = (change == ObjectiveChange::Planned)
            .then(|| self.progress.objective_steps.iter().map(StepState::from).collect());
        self.ctx.progress(Progress::Objective(Box::new(ObjectiveEvent {
            change,
            step: StepState::from(step),
            action,
            steps,
            completed: self.progress.completed_objectives(),
            total: self.progress.total_objectives(),
        })));
    }

    #[allow(clippy::too_many_arguments)]
    pub(super) fn write_log(
        &self,
        index: usize,
        attempt: u32,
        decided_by: DecidedBy,
        ops: &[Op],
        intents: &[Intent],
        success: bool,
        note: &str,
    ) {
        let step = &self.progress.objective_steps
            [self.progress.current_step_index.min(self.progress.objective_steps.len() - 1)];
        let mut keys = Vec::new();
        for intent in intents {
            keys.push("action".to_owned());
            if !intent.names.is_empty() || !intent.phrase.is_empty() {
                keys.push("target".into());
            }
            if matches!(
                intent.action,
                Action::Fill(_) | Action::Search { .. } | Action::Login { .. } | Action::Choose { .. }
            ) {
                keys.push("value".into());
            }
            if !intent.roles.is_empty() {
                keys.push("role".into());
            }
        }
        keys.dedup();
        let line = StepLine {
            step_number: self.progress.objective_number(index),
            original_instruction: self.progress.objective_steps[index].description.clone(),
            attempt,
            step_type: if step.step_type == StepType::Recovery { "recovery" } else { "objective" },
            decided_by: decided_by.name(),
            decision: ops.iter().map(|op| decision_of(op.locator(), op.tool())).collect(),
            result: StepResult { success, note: note.to_owned() },
            timestamp: crate::planning::now(),
            metadata_present: keys.len() > 1,
            metadata_missing: keys.len() <= 1,
            metadata_keys: keys,
        };
        let redact = |text: &str| self.ctx.secrets.redact(text);
        if let Err(error) = self.log.append(&line, &redact) {
            self.ctx.log(LogLevel::Warn, format!("{}: {error}", self.log.path().display()));
        }
    }
}
