//! What is done about what stands in an objective's way: dialogs and banners taken out of
//! the way as recovery steps, and the approaches and the person's answers that change how the
//! next attempt goes — never one that would undo an earlier objective's work.

use super::*;
use planwright_runs::objective::Tool;

impl Runner<'_> {
    /// Whether objective `index` may be approached this way: opening its page again must not undo
    /// what an earlier objective did there.
    pub(crate) fn may_take(&self, index: usize, approach: Approach) -> bool {
        if approach != Approach::ReloadPage || !self.reload_would_undo(index) {
            return true;
        }
        let objective = self.progress.objective_number(index);
        let text = format!(
            "objective {objective}: opening its page again would undo what the objectives before it did there              (a ticked option, a typed value); not reopened"
        );
        self.ctx.log(LogLevel::Info, text);
        false
    }

    /// Whether opening objective `index`'s page again would undo what an earlier objective did
    /// on it — a value typed, an option ticked or chosen — that no effect seen since has saved.
    pub(super) fn reload_would_undo(&self, index: usize) -> bool {
        let page = |url: &str| url.split(['?', '#']).next().unwrap_or_default().to_owned();
        let Some(here) = self.start_urls.get(&index).map(|url| page(url)) else { return false };
        let changed = |step: &ObjectiveStep| {
            step.executed_actions
                .iter()
                .any(|a| a.succeeded && matches!(a.tool_name, Tool::Fill | Tool::Check | Tool::Select))
        };
        self.progress
            .objectives_only()
            .filter(|s| s.index < index && s.status == StepStatus::Completed)
            .collect::<Vec<_>>()
            .into_iter()
            .rev()
            .take_while(|s| !self.effects.seen_for(s.index))
            .any(|s| changed(s) && self.start_urls.get(&s.index).is_some_and(|url| page(url) == here))
    }

    /// The person looked and says objective `index`'s effect happened: it is done, with their
    /// word as its evidence.
    pub(crate) fn confirm_done(&mut self, index: usize) -> Result<(), BlockError> {
        let said = self.effects.last(index).map_or_else(String::new, |done| format!("{}; ", done.unknown()));
        self.progress.reopen();
        self.progress.current_step_index = index;
        self.progress.start_current().map_err(|e| BlockError::failed(e.to_string()))?;
        self.progress
            .complete_current(format!("{said}the person checked and confirmed it was done"))
            .map_err(|e| BlockError::failed(e.to_string()))?;
        self.failures.remove(&index);
        self.emit(ObjectiveChange::Completed, None);
        Ok(())
    }

    /// The person asks for objective `index`'s effect again: it may be done once more.
    pub(crate) fn allow_again(&mut self, index: usize) {
        self.effects.allow_again(index);
    }

    /// Takes out of the way every dialog or banner the objective is not about, each as a
    /// recovery step; whether there was one.
    pub(super) async fn clear_blockers(&mut self, parent: usize, intents: &[Intent]) -> Result<Cleared, Failure> {
        let mut any = false;
        for _ in 0..3 {
            let snapshot = self.snapshot_text().await?;
            let page = Page::parse("", &snapshot);
            let Some(blocker) = recovery::blockers(&page, intents).into_iter().next() else {
                return Ok(Cleared { any, snapshot });
            };
            let Some((button, why)) = recovery::dismiss_button(&page, blocker.node) else {
                return Err(Failure::retry(
                    FailureKind::Blocked,
                    format!("{} is in the way and has no button that closes it", blocker.described),
                ));
            };
            let locator = recovery::locator_in(&page, button);
            let op = Op::Click { locator, downloads: false };
            let blocking = if blocker.name.is_empty() {
                Named::words(&blocker.described)
            } else {
                Named { words: blocker.described.clone(), role: blocker.role.clone(), name: blocker.name.clone() }
            };
            let choice = Named::element(&page.nodes[button].role, &page.nodes[button].name);
            self.recover(parent, &blocking, &choice, why, op, &blocker.described).await?;
            any = true;
        }
        Ok(Cleared { any, snapshot: self.snapshot_text().await? })
    }

    /// A cover the snapshot does not name (a backdrop): Escape, as a recovery step.
    pub(super) async fn escape_cover(&mut self, parent: usize, covering: &str) -> Result<(), Failure> {
        let op = Op::Press { locator: None, key: "Escape".into() };
        let (blocking, choice) = (Named::words(covering), Named::key("Escape"));
        self.recover(parent, &blocking, &choice, "closes an overlay without choosing anything on it", op, covering)
            .await
    }

    /// One recovery step: inserted after the objective, carried out, judged by the blocker
    /// going away, then back to the objective. A recovery that fails fails the attempt.
    pub(super) async fn recover(
        &mut self,
        parent: usize,
        blocking: &Named,
        choice: &Named,
        why: &str,
        op: Op,
        gone_check: &str,
    ) -> Result<(), Failure> {
        let (b, c) = (&blocking.words, &choice.words);
        let description = format!("Close {b} ({c})");
        self.progress.insert_recovery_step(parent, &description, b, vec![op.describe()]);
        self.progress.advance();
        let (blocking_role, blocking_name) = (blocking.role.clone(), blocking.name.clone());
        let (choice_role, choice_name) = (choice.role.clone(), choice.name.clone());
        self.progress.objective_steps[self.progress.current_step_index].said.description_said =
            Some(RunMessage::RecoveryClose {
                blocking_role: blocking_role.clone(),
                blocking: blocking_name.clone(),
                choice_role: choice_role.clone(),
                choice: choice_name.clone(),
            });
        self.emit(ObjectiveChange::RecoveryInserted, None);
        let objective = self.progress.objective_number(parent);
        let text = format!("recovery for objective {objective}: {b} is in the way; pressing {c}, which {why}");
        let said = RunMessage::RecoveryStarted {
            objective: objective as u64,
            blocking_role: blocking_role.clone(),
            blocking: blocking_name.clone(),
            choice_role: choice_role.clone(),
            choice: choice_name.clone(),
        };
        self.ctx.log(LogLevel::Info, Reason::said(said, text));
        let acted = self.act(&op).await;
        let gone = match &acted {
            Ok(_) => {
                let snapshot = self.snapshot_text().await?;
                !snapshot.lines().any(|l| l.trim_start().trim_start_matches("- ").starts_with(gone_check))
            }
            Err(_) => false,
        };
        let step = self.progress.current_step_index;
        self.progress.objective_steps[step].attempts = 1;
        let outcome = if gone {
            self.progress
                .complete_current(format!("{b} went away after pressing {c}, which {why}"))
                .map_err(|e| Failure::retry(FailureKind::Blocked, e.to_string()))?;
            self.progress.objective_steps[step].said.evidence_said = Some(RunMessage::BlockerGone {
                blocking_role,
                blocking: blocking_name,
                choice_role,
                choice: choice_name,
            });
            self.emit(ObjectiveChange::Completed, None);
            Ok(())
        } else {
            let reason = match acted {
                Err(failure) => failure.reason,
                Ok(_) => format!("{b} was still there after pressing {c}"),
            };
            self.progress.fail_current(&reason).map_err(|e| Failure::retry(FailureKind::Blocked, e.to_string()))?;
            self.progress.objective_steps[step].said.evidence_said = Some(RunMessage::BlockerStayed {
                blocking_role,
                blocking: blocking_name,
                choice_role,
                choice: choice_name,
            });
            self.emit(ObjectiveChange::Failed, None);
            Err(Failure::retry(FailureKind::Blocked, format!("the recovery failed: {reason}")))
        };
        self.write_log(parent, 1, DecidedBy::Offline, std::slice::from_ref(&op), &[], outcome.is_ok(), &description);
        self.progress.return_to_parent();
        self.emit(ObjectiveChange::Started, None);
        outcome
    }
}

/// Something a recovery step names: its English words, and its role and name for the studio's
/// language (the role `key`: a key of the keyboard; `words`: words said as they are).
pub(super) struct Named {
    words: String,
    role: String,
    name: String,
}

impl Named {
    fn element(role: &str, name: &str) -> Named {
        Named { words: format!("{role} \"{name}\""), role: role.to_owned(), name: name.to_owned() }
    }

    fn key(key: &str) -> Named {
        Named { words: format!("the {key} key"), role: "key".to_owned(), name: key.to_owned() }
    }

    fn words(words: &str) -> Named {
        Named { words: words.to_owned(), role: "words".to_owned(), name: words.to_owned() }
    }
}
