//! Carrying out an objective's operations: the precheck, the action with its secret-use and
//! look-alike refusals, the effect ledger asked before and told after, and the record of each
//! action on its step.

use super::*;
use planwright_runs::objective::{ActionEffect, RequestSeen, REQUESTS_KEPT};

impl Runner<'_> {
    /// Carries out operations, a covering dialog or banner taken out of the way (a recovery
    /// step) and the operation tried again once.
    pub(super) async fn carry_out(
        &mut self,
        index: usize,
        ops: &[Op],
        intents: &[Intent],
    ) -> Result<Vec<Acted>, Failure> {
        let mut reports = Vec::with_capacity(ops.len());
        for op in ops {
            if let Some(locator) = op.locator() {
                // The precheck: 0 or several candidates fail the attempt, saying which.
                let found = self.session.resolve(locator).await?;
                if found.len() > 1 {
                    let listed: Vec<String> = found.iter().take(6).map(ToString::to_string).collect();
                    return Err(Failure::retry(
                        FailureKind::Ambiguous,
                        format!("{locator} matches {} elements: {}", found.len(), listed.join("; ")),
                    ));
                }
            }
            let report = self.act_uncovered(index, op, false, intents).await?;
            self.tried.1.push(op.clone());
            reports.push(report);
        }
        Ok(reports)
    }

    /// Carries out one operation; when a dialog or banner that came up covers its target, that
    /// is taken out of the way (a recovery step) and the operation tried again once.
    pub(super) async fn act_uncovered(
        &mut self,
        index: usize,
        op: &Op,
        known_effectful: bool,
        intents: &[Intent],
    ) -> Result<Acted, Failure> {
        match self.act_as(op, known_effectful).await {
            Err(Failure { reason, covered_by: Some(covering), .. }) => {
                self.ctx.log(LogLevel::Info, format!("objective {}: {reason}", self.progress.objective_number(index)));
                if !self.clear_blockers(index, intents).await?.any {
                    self.escape_cover(index, &covering).await?;
                }
                self.act_as(op, known_effectful).await
            }
            other => other,
        }
    }

    /// Carries out one operation and records it on the current step; an effectful one is noted
    /// in the ledger, and one the ledger has for this objective is not carried out again.
    pub(super) async fn act(&mut self, op: &Op) -> Result<Acted, Failure> {
        self.act_as(op, false).await
    }

    async fn act_as(&mut self, op: &Op, known_effectful: bool) -> Result<Acted, Failure> {
        // The evidence of the objective before shows the page before this action.
        self.flush_evidence().await;
        if let Some(refused) = self.refusal(op).await? {
            self.record_refusal(&refused.reason);
            let result = EvidencePart::words(format!("refused: {}", refused.reason));
            self.record_action(op, result, false, ActionEffect::Refused, Vec::new());
            return Err(refused);
        }
        let objective = self.scope.objective;
        let recovering = self.in_recovery();
        if let Some(why) = self.effects.repeat_refusal(objective, &op.describe()).filter(|_| !recovering) {
            let result = EvidencePart::words(format!("not repeated: {why}"));
            self.record_action(op, result, false, ActionEffect::NotRepeated, Vec::new());
            return Err(Failure { reason: why, retriable: false, kind: FailureKind::EffectUnknown, covered_by: None });
        }
        let effect = if recovering {
            Effect::Safe
        } else {
            match self.effect_of(op).await? {
                Effect::Safe if known_effectful => {
                    Effect::Effectful { why: "the action cache kept it as one that changes something".to_owned() }
                }
                effect => effect,
            }
        };
        // What typing changes is read back from the field; anything it brings up (suggestions,
        // a submit button enabled) is waited for by the next action's own checks.
        let options = match op {
            Op::Fill { .. } => ActOptions { settle: Duration::ZERO, ..ActOptions::default() },
            _ => ActOptions::default(),
        };
        let session = Arc::clone(&self.session);
        let downloads_before = session.download_count();
        let result = match op {
            Op::Fill { locator, value } if value.kind == ValueKind::Placeholder => {
                // A placeholder becomes its secret only now (registered for masking first), and
                // goes only into a field that keeps the rule, checked on the very field typed into.
                let text = self.ctx.secrets.fill(&value.value).map_err(|e| Failure::last(e.to_string()))?;
                let name = placeholders_in(&value.value).into_iter().next().unwrap_or_default();
                let scope = &self.scope;
                let refusal = |field: &planwright_browser::Candidate, facts: &planwright_browser::FieldFacts| {
                    secret_use::field_refusal(&scope.step, &name, &field.name, facts, &scope.origin)
                        .or_else(|| (!scope.trusted.contains(&facts.origin)).then(|| untrusted(&name, &facts.origin)))
                };
                match session.fill_where(locator, &text, &options, &refusal).await {
                    Ok(Err(why)) => {
                        self.record_refusal(&why);
                        let result = EvidencePart::words(format!("refused: {why}"));
                        self.record_action(op, result, false, ActionEffect::Refused, Vec::new());
                        return Err(Failure::retry(FailureKind::Refused, why));
                    }
                    other => other.and_then(|filled| filled.map_err(BrowserError::Input)),
                }
            }
            // As written: a placeholder anywhere else was refused above (`secret_use`).
            _ => session.act(op, &options).await,
        };
        // What the record says it did: effectful once the ledger has it; safe when the driver
        // could not carry it out (the ledger has nothing to refuse a repeat with).
        let mut done = (ActionEffect::Safe, Vec::new());
        let (result_text, outcome) = match result {
            Ok(mut report) => {
                if matches!(op, Op::Click { downloads: true, .. }) && report.downloads.is_empty() {
                    report.downloads = session.downloads_after(downloads_before, Duration::from_secs(10)).await?;
                }
                // A download is what a browser task is often for: the run's results list it.
                for download in &report.downloads {
                    self.ctx.artifact(&download.path, ArtifactKind::File);
                }
                self.downloads.extend(report.downloads.iter().cloned());
                // A request that writes makes any action effectful, whatever its control says.
                let effect = match effect {
                    Effect::Safe if !recovering => effects::classify_requests(&report.requests),
                    effect => effect,
                };
                if effect.is_effectful() {
                    let requests = effects::requests_said(&report.requests);
                    self.effects.record(objective, op.describe(), plainly(op), requests);
                    done.0 = ActionEffect::Effectful;
                }
                done.1 = report
                    .requests
                    .iter()
                    .filter(|r| r.is_write() || r.refused())
                    .take(REQUESTS_KEPT)
                    .map(|r| RequestSeen {
                        method: r.method.clone(),
                        url: effects::path_and_query(&r.url),
                        status: r.status,
                        error: r.error.clone(),
                    })
                    .collect();
                match self.read_back(op, &report).await? {
                    Ok(proof) => {
                        // Its requests are the record's own field, not words in the result.
                        let said = proof.clone().unwrap_or_else(|| result_of(&report));
                        self.proofs.extend(proof);
                        (said, Ok(Acted { report, effect }))
                    }
                    Err(reason) => (EvidencePart::words(&reason), Err(Failure::retry(FailureKind::NoEffect, reason))),
                }
            }
            Err(error) => (EvidencePart::words(error.to_string()), Err(Failure::from(error))),
        };
        let action = self.record_action(op, result_text, outcome.is_ok(), done.0, done.1);
        // Every N actions, a look back; the same action doing the same thing again stops the attempt.
        if let Some(planner) = self.planner.as_mut() {
            let looping = planner.after_action(self.ctx, &self.progress, &action, outcome.is_err()).await;
            if looping && outcome.is_ok() {
                return Err(Failure::retry(
                    FailureKind::Loop,
                    format!("{} did the same thing three times in a row", op.describe()),
                ));
            }
        }
        outcome
    }

    /// Whether the current step is a recovery step (its dismissals change nothing in the world).
    pub(super) fn in_recovery(&self) -> bool {
        self.progress
            .objective_steps
            .get(self.progress.current_step_index)
            .is_some_and(|s| s.step_type == StepType::Recovery)
    }

    /// Whether `op` may change the world, from its target's role and name — and, for a name
    /// that says nothing ("OK"), the words around it — decided before it is taken.
    pub(super) async fn effect_of(&self, op: &Op) -> Result<Effect, Failure> {
        let Op::Click { locator, downloads } = op else { return Ok(Effect::Safe) };
        let found = self.session.resolve(locator).await?;
        let Some(target) = found.first() else { return Ok(Effect::Safe) };
        let around = if effects::is_generic(&target.name) {
            self.session.surroundings(target).await.unwrap_or_default()
        } else {
            String::new()
        };
        Ok(effects::classify(&target.role, &target.name, &around, *downloads))
    }

    /// Records an action on the current step, its result and its requests masked.
    pub(super) fn record_action(
        &mut self,
        op: &Op,
        result: EvidencePart,
        succeeded: bool,
        effect: ActionEffect,
        requests: Vec<RequestSeen>,
    ) -> ExecutedAction {
        let requests = requests.into_iter().map(|r| r.masked(|text| self.ctx.secrets.redact(text))).collect();
        let action = ExecutedAction {
            action: op.describe(),
            tool_name: op.tool(),
            locator: op.locator().map(ToString::to_string),
            result: self.ctx.secrets.redact(&result.text),
            result_said: result.said,
            succeeded,
            timestamp: crate::planning::now(),
            requests,
            effect,
        };
        let step = self.progress.current_step_index;
        self.progress.objective_steps[step].executed_actions.push(action.clone());
        self.emit(ObjectiveChange::ActionExecuted, Some(action.clone()));
        action
    }

    /// The record of `op`, carried out last for the current step, says it did not take effect:
    /// `banner` took the click (the ledger forgot it too).
    pub(super) fn withdraw_action(&mut self, op: &Op, banner: &str) {
        let step = self.progress.current_step_index;
        let described = op.describe();
        let taken =
            self.progress.objective_steps[step].executed_actions.iter_mut().rev().find(|a| a.action == described);
        if let Some(action) = taken.filter(|a| a.effect == ActionEffect::Effectful) {
            action.effect = ActionEffect::Safe;
            action.result = self.ctx.secrets.redact(&format!("{} — {banner} may have taken it", action.result));
            // The words now say more than the codes.
            action.result_said.clear();
        }
    }

    /// How the attempt fails when `op` may not be carried out: it names a secret where a secret
    /// never goes ([`secret_use`]; no other approach changes that), or it would press a
    /// look-alike of what the step names ([`lookalike`]). The field a secret is typed into is
    /// checked as it is typed (`act`).
    pub(super) async fn refusal(&self, op: &Op) -> Result<Option<Failure>, Failure> {
        if let Some(why) = secret_use::refusal(op, &self.named()) {
            return Ok(Some(Failure { reason: why, retriable: false, kind: FailureKind::Refused, covered_by: None }));
        }
        Ok(self.look_alike(op).await?.map(|why| Failure::retry(FailureKind::Refused, why)))
    }

    /// The placeholders the objective under way names that the person wrote: a checklist a model
    /// made of prose names no secret the steps did not.
    pub(super) fn named(&self) -> Vec<String> {
        let written = placeholders_in(&self.progress.original_input);
        placeholders_in(&self.scope.step).into_iter().filter(|name| written.contains(name)).collect()
    }

    /// Why an element a locator matches only in part is not the one the step means: its name
    /// adds destructive words the step does not say.
    pub(super) async fn look_alike(&self, op: &Op) -> Result<Option<String>, Failure> {
        let Some(locator) = op.locator().filter(|l| partial_name(l).is_some()) else { return Ok(None) };
        Ok(self.look_alike_among(locator, &self.session.resolve(locator).await?))
    }

    /// Why one of `found`, the elements `locator` matches, only looks like what it names in part.
    pub(super) fn look_alike_among(
        &self,
        locator: &Locator,
        found: &[planwright_browser::Candidate],
    ) -> Option<String> {
        let wanted = partial_name(locator)?;
        let said = format!("{wanted} {}", self.scope.step);
        found.iter().find_map(|candidate| {
            let added = lookalike::added_destruction(&said, &candidate.name);
            (!added.is_empty()).then(|| {
                format!(
                    "{candidate} only looks like \"{wanted}\": its name adds {}, which the step does not say",
                    added.join(", ")
                )
            })
        })
    }

    /// The model's operations with each target it names in part made exact — the role and
    /// whole name of the one element it matches now — so that what is carried out, and kept in
    /// the cache, is that element; a look-alike is refused. A target matching none or several
    /// is left as it is (the precheck fails it, saying which), and so is one with no role a
    /// locator can name (it is carried out, not cached).
    pub(super) async fn exact_targets(&self, ops: Vec<Op>) -> Result<Vec<Op>, Failure> {
        let mut exact = Vec::with_capacity(ops.len());
        for op in ops {
            let found = match op.locator().filter(|l| !is_exact(l)) {
                Some(locator) => self.session.resolve(locator).await?,
                None => Vec::new(),
            };
            if let Some(why) = op.locator().and_then(|locator| self.look_alike_among(locator, &found)) {
                self.record_refusal(&why);
                return Err(Failure::retry(FailureKind::Refused, why));
            }
            exact.push(match found.as_slice() {
                [one] if planwright_browser::is_interactive(&one.role) && !one.name.is_empty() => {
                    let target = Locator::Role { role: one.role.clone(), name: Some(one.name.clone()), exact: true };
                    let target = match op.locator() {
                        Some(Locator::Near { text, .. }) => {
                            Locator::Near { target: Box::new(target), text: text.clone() }
                        }
                        _ => target,
                    };
                    op.with_locator(target)
                }
                _ => op,
            });
        }
        Ok(exact)
    }

    /// Whether operations may be kept in (or replayed from) the cache: every target exact, and
    /// no secret going where the rule forbids.
    pub(super) fn keeps_rule(&self, key: &CacheKey, ops: &[Op]) -> bool {
        let redact = |text: &str| self.ctx.secrets.redact(text);
        ops.iter().all(|op| {
            op.locator().is_none_or(is_exact) && secret_use::sent_refusal(op, &key.placeholders, redact).is_none()
        })
    }

    /// Logs a refused action, coded, in the objective's words.
    pub(super) fn record_refusal(&self, why: &str) {
        let objective = self.progress.objective_number(self.progress.current_step_index);
        let said = RunMessage::ActionRefused { objective: objective as u64, detail: why.to_owned() };
        let text = format!("objective {objective}: refused: {why}");
        self.ctx.log(LogLevel::Warn, Reason::said(said, self.ctx.secrets.redact(&text)));
    }
}
