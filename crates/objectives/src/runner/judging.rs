//! Judging an intent by what the page now shows: the evidence of actions (a download, a new
//! page, a field read back, what appeared in any frame or was announced), a page's error, an
//! effect not seen, and the checks and notes a step asks for.

use planwright_browser::RequestRecord;

use super::*;

impl Runner<'_> {
    /// The words an error the page shows may be expected in: the objective under way and the
    /// one after it (a check that the error shows). An error a later step expects after a
    /// correction is still an error here.
    pub(super) fn expected_here(&self) -> String {
        let next = self.next_objective(self.scope.objective).map(|s| s.description.as_str()).unwrap_or_default();
        format!("{}\n{next}", self.scope.step)
    }

    /// A failure that reads the page as it is: final when the page is at rest (another
    /// attempt, with no model to think again, would see the same), else worth another attempt.
    pub(super) async fn settled(&self, kind: FailureKind, reason: String) -> Result<Failure, Failure> {
        let retriable = !judge::at_rest(&*self.session).await?;
        Ok(Failure { reason, retriable, kind, covered_by: None })
    }

    /// Judges one intent by what the page shows now.
    pub(super) async fn judge_intent(
        &mut self,
        intent: &Intent,
        ops: &[Op],
        acted: &[Acted],
        before: &PageText,
    ) -> Result<Verdict, Failure> {
        let read = |judged: Result<Vec<EvidencePart>, String>| match judged {
            Ok(proof) => Verdict::Done(proof),
            Err(reason) => Verdict::NotDone(reason),
        };
        match &intent.action {
            Action::Verify { expected, negated, role } => {
                Ok(read(judge::verify(&*self.session, expected, *negated, *role, self.waits.check).await?))
            }
            Action::Note { label, name } => Ok(match judge::note(&*self.session, label, self.waits.check).await? {
                Ok(value) => {
                    self.extracted.insert(name.clone(), Value::String(value.clone()));
                    Verdict::Done(vec![EvidencePart::coded(
                        format!("\"{label}\" is \"{value}\", kept as {name}"),
                        vec![RunMessage::ProofNoted { label: label.clone(), value, name: name.clone() }],
                    )])
                }
                Err(reason) => Verdict::NotDone(reason),
            }),
            Action::Wait => {
                let expected = if intent.names.is_empty() { vec![intent.phrase.clone()] } else { intent.names.clone() };
                Ok(read(judge::verify(&*self.session, &expected, false, None, self.waits.check).await?))
            }
            _ => self.judge_actions(intent, ops, acted, before).await,
        }
    }

    /// The evidence of actions: a download, a new page, fields holding what was typed, what
    /// appeared — waiting a moment for a page that renders after the action. A page's error is
    /// never evidence; an effectful action whose effect is not seen is `Unknown`; a plain click
    /// on exactly the right element needs no visible change.
    pub(super) async fn judge_actions(
        &mut self,
        intent: &Intent,
        ops: &[Op],
        acted: &[Acted],
        before: &PageText,
    ) -> Result<Verdict, Failure> {
        // Fills, choices and checks were read back as they were made.
        let mut proofs: Vec<EvidencePart> = std::mem::take(&mut self.proofs);
        let effectful = acted.iter().any(|a| a.effect.is_effectful());
        // An alert answers the action; a confirm or a prompt asks a question first.
        let dialogs = acted.iter().flat_map(|a| &a.report.dialogs).filter(|d| d.kind == "alert");
        if let Some(error) = effects::page_error(dialogs.map(|d| d.message.as_str()), &self.expected_here()) {
            let op = ops.last().map(plainly).unwrap_or_default();
            return Ok(self.page_error(&op, error));
        }
        let last_act = ops
            .iter()
            .zip(acted)
            .rfind(|(op, _)| matches!(op, Op::Click { .. } | Op::Press { .. } | Op::Navigate { .. } | Op::Back));
        if let Some((op, last)) = last_act {
            // A consent banner that came up just as the click was made may have taken it: with no
            // request written and no page opened, nothing happened, and the next attempt closes it
            // and clicks again.
            let landed = last.report.started_write() || last.report.navigated || last.report.opened_tab;
            if matches!(op, Op::Click { .. }) && !landed {
                if let Some(banner) = self.banner_arrived(intent, before).await? {
                    if last.effect.is_effectful() {
                        self.effects.withdraw(self.scope.objective);
                        self.withdraw_action(op, &banner);
                    }
                    let reason =
                        format!("{banner} came up as {} was carried out and may have taken the click", op.describe());
                    return Ok(Verdict::TakenBy { banner, reason });
                }
            }
            let wants_download = matches!(op, Op::Click { downloads: true, .. }) || intent.action == Action::Download;
            let downloaded: Vec<&Download> = acted.iter().flat_map(|a| &a.report.downloads).collect();
            let change = match downloaded.first() {
                Some(file) => Some(EvidencePart::coded(
                    format!("downloaded {} ({} bytes)", file.file_name, file.bytes),
                    vec![RunMessage::ProofDownloaded { file: file.file_name.clone(), bytes: file.bytes }],
                )),
                None if wants_download => return Ok(Verdict::NotDone(format!("{} began no download", op.describe()))),
                None => match self.change_after(&last.report, before, &target_texts(intent)).await? {
                    Seen::Change(change) => Some(change),
                    Seen::Error(error) => return Ok(self.page_error(&plainly(op), error)),
                    Seen::Nothing => None,
                },
            };
            // With nothing seen, an effect's requests are read again: an answer that came while
            // the page was watched is known now.
            let requests = match change {
                None if effectful => self.requests_now(acted),
                _ => acted.iter().flat_map(|a| a.report.requests.iter().cloned()).collect(),
            };
            match change {
                Some(change) if effectful => {
                    self.effects.seen(self.scope.objective, &change.text);
                    proofs.push(pressed_once(op, change));
                }
                Some(change) => proofs.push(change),
                // A plain click whose requests the server took is done: exactly that, once.
                None if self.plain_step(intent) && (!effectful || effects::answered(&requests)) => {
                    let requests = effects::requests_said(&requests);
                    let sent = if requests.is_empty() { String::new() } else { format!(" ({requests})") };
                    if effectful {
                        self.effects.seen(self.scope.objective, &requests);
                    }
                    proofs.push(EvidencePart::coded(
                        format!(
                            "{} pressed once, exactly that element{sent}; the step asks for nothing more",
                            plainly(op)
                        ),
                        element_of(op)
                            .map(|(role, name)| RunMessage::ProofPressedExactly {
                                role,
                                name,
                                sent: !requests.is_empty(),
                                requests,
                            })
                            .into_iter()
                            .collect(),
                    ))
                }
                None if effectful => {
                    self.effects.answered_since(self.scope.objective, effects::requests_said(&requests));
                    return Ok(Verdict::Unknown(self.unknown_effect()));
                }
                None if matches!(op, Op::Press { .. }) => {
                    proofs.push(EvidencePart::words(format!("{} done", op.describe())))
                }
                None => return Ok(Verdict::NotDone(format!("nothing on the page changed after: {}", op.describe()))),
            }
        }
        if intent.action == Action::Hover {
            proofs.push(EvidencePart::coded("the pointer is over it", vec![RunMessage::ProofPointerOver]));
        }
        Ok(if proofs.is_empty() { Verdict::NotDone("no action was carried out".into()) } else { Verdict::Done(proofs) })
    }

    /// A consent banner on the page now that was not before the action (`before`), if any.
    pub(super) async fn banner_arrived(&self, intent: &Intent, before: &PageText) -> Result<Option<String>, Failure> {
        let page = Page::parse("", &self.snapshot_text().await?);
        Ok(recovery::blockers(&page, std::slice::from_ref(intent))
            .into_iter()
            .map(|b| (page.nodes[b.node].name.clone(), b.described))
            .find(|(name, _)| recovery::is_consent(name) && !before.text.contains(name.as_str()))
            .map(|(_, described)| described))
    }

    /// The verdict when the page answered `op` with `error`: tried once more only when the
    /// error says another try may help.
    pub(super) fn page_error(&mut self, op: &str, error: String) -> Verdict {
        let retry = effects::retry_may_help(&error) && self.effects.retry_after_error(self.scope.objective);
        Verdict::PageError { text: format!("the page answered \"{error}\" to {op}"), retry }
    }

    /// The requests the actions carried out started, as they stand now, read again from the
    /// page: an answer that came after an action's report is in them, and so is a request whose
    /// start the driver learnt of only after the report (on a loaded machine, DevTools' events
    /// can come later than the page settled by its looks).
    pub(super) fn requests_now(&self, acted: &[Acted]) -> Vec<RequestRecord> {
        let now = acted.first().map(|first| self.session.requests_since(first.report.acted_at_ms)).unwrap_or_default();
        // The driven page is another tab than the one acted on: its reports are what is known.
        if now.is_empty() {
            return acted.iter().flat_map(|a| a.report.requests.iter().cloned()).collect();
        }
        now
    }

    /// What is known of the objective's effect that was not seen, and what the person may do.
    pub(super) fn unknown_effect(&self) -> String {
        let known = self
            .effects
            .last(self.scope.objective)
            .map_or_else(|| "an action that may change the world showed no effect".to_owned(), |done| done.unknown());
        format!("{known}. Check on the site, then tell me to continue or to do it again")
    }

    /// Whether `intent` is a plain click, press or choice: the step says nothing of what should
    /// follow, so exactly the right element acted on is the objective done.
    pub(super) fn plain_step(&self, intent: &Intent) -> bool {
        matches!(intent.action, Action::Click | Action::Choose { .. } | Action::Check { .. })
            && !effects::states_outcome(&self.scope.step)
    }

    /// What a fill, a choice or a check left in its field, read back at once: the proof, or why
    /// the field does not hold what was asked. Other operations are judged with their intent.
    pub(super) async fn read_back(
        &self,
        op: &Op,
        report: &ActionReport,
    ) -> Result<Result<Option<EvidencePart>, String>, Failure> {
        let field = match (op, &report.element) {
            (Op::Fill { .. } | Op::Select { .. } | Op::Check { .. }, Some(field)) => field,
            _ => return Ok(Ok(None)),
        };
        let name = format!("{} \"{}\"", field.role, field.name);
        let (role, element) = (field.role.clone(), field.name.clone());
        Ok(match op {
            Op::Fill { value, .. } => {
                let held = self.session.field_value(field).await?;
                let wanted = match value.kind {
                    ValueKind::Placeholder => self.ctx.secrets.fill(&value.value).unwrap_or_default(),
                    ValueKind::Literal => value.value.clone(),
                };
                // A field that formats what is typed ("1280" shown as "1,280") still holds it.
                let same = held == wanted || held.replace([',', ' '], "") == wanted.replace([',', ' '], "");
                match (same, value.kind) {
                    (false, _) => Err(format!("{name} does not hold what was typed")),
                    (true, ValueKind::Placeholder) => {
                        let chars = held.chars().count();
                        Ok(Some(EvidencePart::coded(
                            format!("{name} holds {} ({chars} characters)", value.value),
                            vec![RunMessage::ProofFieldHoldsPlaceholder {
                                role,
                                name: element,
                                value: value.value.clone(),
                                chars: chars as u64,
                            }],
                        )))
                    }
                    (true, ValueKind::Literal) => Ok(Some(EvidencePart::coded(
                        format!("{name} holds \"{held}\""),
                        vec![RunMessage::ProofFieldHolds { role, name: element, value: held }],
                    ))),
                }
            }
            Op::Select { option, .. } => {
                let held = self.session.field_value(field).await?;
                if crate::text::fold(&held).contains(&crate::text::fold(option)) {
                    Ok(Some(EvidencePart::coded(
                        format!("{name} shows \"{held}\""),
                        vec![RunMessage::ProofFieldShows { role, name: element, value: held }],
                    )))
                } else {
                    Err(format!("{name} shows \"{held}\", not \"{option}\""))
                }
            }
            Op::Check { on, .. } => Ok(Some(EvidencePart::coded(
                format!("{name} is {}", if *on { "on" } else { "off" }),
                vec![RunMessage::ProofFieldSwitched { role, name: element, on: *on }],
            ))),
            _ => Ok(None),
        })
    }

    /// What changed after an action, from its report and the page's text, waiting a moment for
    /// a page that renders late. What the step named as its target (`target`) showing up is not
    /// an effect of acting on it (a control drawn late is not what clicking something else
    /// brought about), nor is a line that keeps changing on its own (a clock, a countdown, a
    /// score); an error the page shows is `Seen::Error`.
    pub(super) async fn change_after(
        &self,
        report: &ActionReport,
        before: &PageText,
        target: &[String],
    ) -> Result<Seen, Failure> {
        if report.opened_tab {
            return Ok(Seen::Change(EvidencePart::coded(
                format!("a new tab opened at {}", report.url),
                vec![RunMessage::ProofNewTab { url: report.url.clone() }],
            )));
        }
        if report.navigated && report.url != report.url_before {
            let title = self.session.title().await.unwrap_or_default();
            return Ok(Seen::Change(EvidencePart::coded(
                format!(
                    "now at {}{}",
                    report.url,
                    if title.is_empty() { String::new() } else { format!(" (\"{title}\")") }
                ),
                vec![RunMessage::ProofNowAt { url: report.url.clone(), titled: !title.is_empty(), title }],
            )));
        }
        if let Some(dialog) = report.dialogs.first() {
            return Ok(Seen::Change(EvidencePart::coded(
                format!(
                    "the page asked \"{}\" ({})",
                    dialog.message,
                    if dialog.accepted { "accepted" } else { "declined" }
                ),
                vec![RunMessage::ProofPageAsked { message: dialog.message.clone(), accepted: dialog.accepted }],
            )));
        }
        let started = Instant::now();
        // A request still unanswered is waited for: its answer is the effect (a slow order).
        let wait = if effects::pending(&report.requests) { Patience::PATIENT.bound } else { self.waits.effect };
        if let Some(seen) = self.answer_of(report, &report.announced) {
            return Ok(seen);
        }
        // Lines seen changing on their own, by their shape with the numbers taken out.
        let mut restless: Vec<String> = Vec::new();
        let mut backoff = Backoff::new();
        loop {
            // A "Loading…" is not what the action brought about: what follows it is. Asked before
            // and after the page is read, so that loading that ends or starts meanwhile counts.
            let loading_before = self.session.shows_loading().await?;
            // What changes on its own is asked for before and after the page is read: a banner
            // that turns in between shows one of the two texts.
            let mut own = self.session.changing_on_its_own(epoch_ms()).await?;
            let now = PageText::capture(&*self.session).await?;
            own.extend(self.session.changing_on_its_own(epoch_ms()).await?);
            let lines: Vec<String> = now
                .new_lines(before)
                .into_iter()
                .filter(|line| {
                    !target.contains(&crate::text::fold(line))
                        && !restless.contains(&judge::shape(line))
                        && !own.iter().any(|o| !o.is_empty() && line.starts_with(o.as_str()))
                })
                .collect();
            let loading = !lines.is_empty()
                && started.elapsed() < wait
                && (loading_before || self.session.shows_loading().await?);
            if loading {
                backoff.pause(started + wait).await;
                continue;
            }
            if let Some(error) = effects::page_error(lines.iter().map(String::as_str), &self.expected_here()) {
                return Ok(Seen::Error(error));
            }
            // A toast or a status that came (and perhaps went) since the action.
            if started.elapsed() > MOMENT {
                let announced = self.session.announced_since(report.acted_at_ms).await?;
                if let Some(seen) = self.answer_of(report, &announced) {
                    return Ok(seen);
                }
            }
            // Lines that only changed their numbers may be a clock or a countdown: looked at
            // again a moment later, one that changed again on its own is not the action's doing.
            if !lines.is_empty() && lines.iter().all(|line| before.has_shape_of(line)) {
                tokio::time::sleep(SELF_CHANGE).await;
                let again = PageText::capture(&*self.session).await?;
                let moved: Vec<&String> = lines.iter().filter(|line| !again.has_line(line)).collect();
                if !moved.is_empty() {
                    restless.extend(moved.into_iter().map(|line| judge::shape(line)));
                    continue;
                }
            }
            if !lines.is_empty() {
                let quoted = judge::quote_lines(&lines);
                return Ok(Seen::Change(EvidencePart::coded(
                    format!("the page now shows {quoted}"),
                    vec![RunMessage::ProofPageShows { lines: quoted }],
                )));
            }
            if now.url != before.url {
                return Ok(Seen::Change(EvidencePart::coded(
                    format!("now at {}", now.url),
                    vec![RunMessage::ProofNowAt { url: now.url.clone(), title: String::new(), titled: false }],
                )));
            }
            if !report.appeared.is_empty() || !report.disappeared.is_empty() {
                let mut said = Vec::new();
                if !report.appeared.is_empty() {
                    said.push(format!(
                        "{} appeared",
                        report.appeared.iter().take(2).cloned().collect::<Vec<_>>().join(", ")
                    ));
                }
                if !report.disappeared.is_empty() {
                    said.push(format!(
                        "{} went away",
                        report.disappeared.iter().take(2).cloned().collect::<Vec<_>>().join(", ")
                    ));
                }
                return Ok(Seen::Change(EvidencePart::words(said.join("; "))));
            }
            if started.elapsed() >= wait {
                return Ok(Seen::Nothing);
            }
            backoff.pause(started + wait).await;
        }
    }

    /// What the page and the server answered an action with, beyond its text: an error (an
    /// alert, a field the page marked invalid, a request refused with a 4xx or 5xx) before a
    /// status or a toast the page announced. `None` when they said nothing.
    pub(super) fn answer_of(&self, report: &ActionReport, announced: &[Announcement]) -> Option<Seen> {
        let expected = &self.expected_here();
        // A field the page marked invalid is an error whatever its words, unless a step checks
        // for one (or quotes its message).
        let steps = crate::text::fold(expected);
        let unexpected = |message: &str| {
            !effects::expects_error(expected) && (message.is_empty() || !steps.contains(&crate::text::fold(message)))
        };
        if let Some(field) = report.invalid_fields.iter().find(|f| unexpected(&f.message)) {
            let message = if field.message.is_empty() { "it is invalid" } else { field.message.as_str() };
            return Some(Seen::Error(format!("{} \"{}\": {message}", field.role, field.name)));
        }
        // A region that was already ticking before the action (a countdown) says nothing of it,
        // and a "Loading…" is not what it brought about: what follows is.
        let announced: Vec<&Announcement> =
            announced.iter().filter(|a| !a.ongoing && !effects::is_loading_text(&a.text)).collect();
        // A toast or a status is an error when it reads as one; an alert unless it reads as a
        // success (sites announce success in `role=alert` too, and a validation message in it
        // need not say "error").
        let texts: Vec<&str> = announced.iter().map(|a| a.text.trim()).filter(|t| !t.is_empty()).collect();
        if let Some(error) = effects::page_error(texts.iter().copied(), expected) {
            return Some(Seen::Error(error));
        }
        let unexpected_alert = announced.iter().find(|a| {
            a.kind == AnnouncementKind::Alert
                && !a.text.trim().is_empty()
                && !effects::is_success_text(&a.text)
                && unexpected(&a.text)
        });
        if let Some(alert) = unexpected_alert {
            return Some(Seen::Error(alert.text.trim().to_owned()));
        }
        if let Some(refused) = report.requests.iter().find(|r| r.refused()) {
            let said = effects::requests_said(std::slice::from_ref(refused));
            return Some(Seen::Error(format!("the server refused it ({said})")));
        }
        let alert = announced.iter().any(|a| a.kind == AnnouncementKind::Alert);
        let lines: Vec<String> = texts.iter().map(|t| (*t).to_owned()).collect();
        (!lines.is_empty()).then(|| {
            let what = if alert { "the page alerted" } else { "the page announced" };
            let quoted = judge::quote_lines(&lines);
            Seen::Change(EvidencePart::coded(
                format!("{what} {quoted}"),
                vec![RunMessage::ProofPageAnnounced { lines: quoted, alert }],
            ))
        })
    }
}

/// Now, in milliseconds since the Unix epoch (the page's clock is the machine's).
fn epoch_ms() -> u64 {
    let since = std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).unwrap_or_default();
    u64::try_from(since.as_millis()).unwrap_or(u64::MAX)
}
