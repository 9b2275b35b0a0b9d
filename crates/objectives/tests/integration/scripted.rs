//! The runner's decisions on a scripted page ([`scripted_page::ScriptedPage`]), as table tests:
//! the task loop, the approach a failed attempt takes next, which actions change the world,
//! the rule that one is never repeated on its own, and the person's answers to an escalation.
//! Each row runs the real runner and task loop (`Runner`, `task::run`, the offline planner) with
//! a real `BlockContext` (events kept in memory, a person answering from the row's list, no
//! secrets, a temporary folder), and asserts what the page counted and what the runner recorded.

use crate::scripted_page;

use std::sync::{Arc, Mutex};

use futures::future::BoxFuture;
use planwright_block::{
    BlockContext, BlockError, BlockEvents, BlockSecrets, BrowserSettings, BrowserSlot, HumanInput, Workdir,
};
use planwright_browser::ActOptions;
use planwright_objectives::checklist::split_steps;
use planwright_objectives::driver::PageDriver;
use planwright_objectives::planning::{Planner, PlanningHistory, PlanningSettings};
use planwright_objectives::progress::ObjectiveTransitions;
use planwright_objectives::resolve::Op;
use planwright_objectives::runner::{Decide, Runner, RunnerConfig};
use planwright_objectives::task::{self, Ending, OnUnsatisfied, TaskOutcome, TaskSettings};
use planwright_runs::objective::{ActionEffect, ExecutedAction, ObjectiveProgress, StepState, StepStatus, StepType};
use planwright_runs::planning::{Approach, EscalationChoice, PlanningEntry, TaskChange};
use planwright_runs::{ArtifactKind, InputAnswer, InputRequest, LogLevel, Progress, Reason, RunMessage};
use scripted_page::{Act, Do, Element, Screen, ScriptedPage};
use serde_json::{json, Map};
use tokio_util::sync::CancellationToken;

use EscalationChoice::{DoAgain, ItWasDone};
use StepStatus::{Completed, Failed, Skipped};

/// One row: a page, the steps, the person's answers (escalation choices, in order), the
/// runner's limits, and what must come of it.
struct Case {
    name: &'static str,
    page: ScriptedPage,
    steps: &'static str,
    answers: Vec<&'static str>,
    limits: Limits,
    expect: Expect,
}

#[derive(Clone, Copy)]
struct Limits {
    attempts: u32,
    passes: u32,
    on_unsatisfied: OnUnsatisfied,
}

impl Limits {
    /// The block's defaults: three attempts an objective, three passes, then the person.
    const USUAL: Limits = Limits { attempts: 3, passes: 3, on_unsatisfied: OnUnsatisfied::Ask };

    fn attempts(self, attempts: u32) -> Limits {
        Limits { attempts, ..self }
    }

    fn passes(self, passes: u32) -> Limits {
        Limits { passes, ..self }
    }

    fn reporting(self) -> Limits {
        Limits { on_unsatisfied: OnUnsatisfied::Report, ..self }
    }
}

/// How the task ended.
#[derive(Debug, Clone, PartialEq)]
enum Ended {
    /// The task loop finished as this.
    Finished(TaskOutcome),
    /// The run waits for the person (no answer left).
    Waiting,
}

/// What a row asserts; what it leaves out is not checked.
#[derive(Default)]
struct Expect {
    ended: Option<Ended>,
    /// Every objective's status, in order.
    statuses: Vec<StepStatus>,
    /// How the objective that failed failed (`RunMessage::ObjectiveNotReached`'s kind), with
    /// its number (from 1).
    failed: Option<(usize, &'static str)>,
    /// Words the record of an objective (its evidence, or why it failed) holds, by number.
    recorded: Vec<(usize, &'static str)>,
    /// Words the record of an objective must not hold, by number.
    not_recorded: Vec<(usize, &'static str)>,
    /// Attempts of an objective over the whole run, by number.
    attempts: Vec<(usize, u32)>,
    /// How many times the page saw each element acted on: (role, name, times).
    acted: Vec<(&'static str, &'static str, usize)>,
    /// How many times the server had each effect.
    effects: Vec<(&'static str, usize)>,
    /// Whether each checkbox is ticked when the run ends.
    checked: Vec<(&'static str, bool)>,
    /// The approaches the plan revisions moved to, in order.
    revisions: Option<Vec<Approach>>,
    /// The approach of each objective's last attempt, by number.
    approach: Vec<(usize, Approach)>,
    /// The passes the task loop made.
    passes: Option<u32>,
    /// The choices offered at each escalation, in order.
    escalations: Option<Vec<Vec<EscalationChoice>>>,
    /// What the record says each action of the objectives did to the world, in order: words of
    /// the action, and its effect.
    action_effects: Option<Vec<(&'static str, ActionEffect)>>,
}

/// What a row's run left: the task's ending, and the record it made.
struct Ran {
    ended: Result<Ended, BlockError>,
    /// Every action the objectives (not their recovery steps) recorded, in order, when the task
    /// loop finished.
    actions: Vec<ExecutedAction>,
    passes: Option<u32>,
    steps: Vec<StepState>,
    events: Vec<Progress>,
}

impl Ran {
    fn objective(&self, number: usize) -> &StepState {
        &self.steps[number - 1]
    }

    fn revisions(&self) -> Vec<Approach> {
        self.events
            .iter()
            .filter_map(|p| match p {
                Progress::Planning(event) => match &event.entry {
                    PlanningEntry::Revision { revision, .. } => Some(revision.changes.iter().map(|c| c.approach)),
                    _ => None,
                },
                _ => None,
            })
            .flatten()
            .collect()
    }

    fn escalations(&self) -> Vec<Vec<EscalationChoice>> {
        self.events
            .iter()
            .filter_map(|p| match p {
                Progress::Task(event) if event.change == TaskChange::Escalated => {
                    event.report.as_ref().map(|r| r.choices.clone())
                }
                _ => None,
            })
            .collect()
    }
}

/// What the block reported while it ran, kept in memory.
#[derive(Default)]
struct Recorder {
    progress: Mutex<Vec<Progress>>,
}

impl BlockEvents for Recorder {
    fn log(&self, _node: &str, _level: LogLevel, _message: Reason) {}

    fn artifact(&self, _node: &str, _path: &std::path::Path, _kind: ArtifactKind, _bytes: u64) {}

    fn progress(&self, _node: &str, progress: Progress) {
        self.progress.lock().unwrap().push(progress);
    }
}

/// A person who answers each escalation with the next choice of a list; once the list is spent,
/// no answer comes (the run waits).
struct Person(Mutex<Vec<&'static str>>);

impl HumanInput for Person {
    fn ask<'a>(&'a self, _node: &'a str, _request: InputRequest) -> BoxFuture<'a, Result<InputAnswer, BlockError>> {
        let next = {
            let mut answers = self.0.lock().unwrap();
            (!answers.is_empty()).then(|| answers.remove(0))
        };
        Box::pin(async move {
            let choice = next.ok_or_else(|| BlockError::no_answer("the run waits for the person's decision"))?;
            let mut values = Map::new();
            values.insert("choice".into(), json!(choice));
            Ok(InputAnswer { values, ..InputAnswer::default() })
        })
    }
}

/// No secrets: nothing to reveal, nothing to mask.
struct NoSecrets;

impl BlockSecrets for NoSecrets {
    fn reveal(&self, name: &str) -> Result<String, BlockError> {
        Err(BlockError::not_set_up(format!("secret `{name}` has no value in this test")))
    }

    fn redact(&self, text: &str) -> String {
        text.to_owned()
    }
}

/// Runs a row's steps on its page as the block does: the start page opened, then the task
/// loop with the offline planner.
async fn run(page: Arc<ScriptedPage>, steps: &str, answers: Vec<&'static str>, limits: Limits) -> Ran {
    let dir = tempfile::tempdir().unwrap();
    let recorder = Arc::new(Recorder::default());
    let ctx = BlockContext {
        node: "task".into(),
        workdir: Workdir::new(dir.path()).unwrap(),
        cancel: CancellationToken::new(),
        events: recorder.clone(),
        input: Arc::new(Person(Mutex::new(answers))),
        browser: Arc::new(BrowserSlot::new(BrowserSettings::default())),
        models: None,
        secrets: Arc::new(NoSecrets),
        record_dir: dir.path().join("records"),
        tables: Arc::default(),
    };
    let start = page.address();
    page.act(&Op::Navigate { url: start.clone() }, &ActOptions::default()).await.unwrap();
    let config = RunnerConfig {
        max_attempts: limits.attempts,
        cache: None,
        downloads_dir: dir.path().join("downloads"),
        model: None,
        decide: Decide::OfflineFirst,
    };
    let planner = Planner::new(
        PlanningSettings::default(),
        PlanningHistory::new(dir.path().join("records").join("planning.jsonl")),
        None,
    );
    let progress = ObjectiveProgress::begin(steps, split_steps(steps));
    let runner = Runner::new(&ctx, page, config, progress).with_planner(planner);
    let settings = TaskSettings {
        max_iterations: limits.passes,
        threshold: 0.8,
        on_unsatisfied: limits.on_unsatisfied,
        max_attempts: limits.attempts,
    };
    let outcome = task::run(runner, settings, &start).await;
    let events = recorder.progress.lock().unwrap().clone();
    // Each objective as its last progress event left it (a run that waits has no outcome).
    let mut steps: Vec<StepState> = Vec::new();
    for event in &events {
        if let Progress::Objective(event) = event {
            let step = &event.step;
            if step.step_type != StepType::Objective {
                continue;
            }
            match steps.iter_mut().find(|s| s.index == step.index) {
                Some(kept) => *kept = step.clone(),
                None => steps.push(step.clone()),
            }
        }
    }
    steps.sort_by_key(|s| s.index);
    let actions = match &outcome {
        Ok(outcome) => outcome
            .progress
            .objective_steps
            .iter()
            .filter(|s| s.step_type == StepType::Objective)
            .flat_map(|s| s.executed_actions.iter().cloned())
            .collect(),
        Err(_) => Vec::new(),
    };
    let (ended, passes) = match outcome {
        Ok(outcome) => match outcome.ending {
            Ending::Task(task) => (Ok(Ended::Finished(task.outcome)), Some(task.iterations)),
            Ending::Legacy => panic!("the runner has a planner: the task loop runs"),
        },
        Err(BlockError::NoAnswer(_)) => (Ok(Ended::Waiting), None),
        Err(error) => (Err(error), None),
    };
    Ran { ended, actions, passes, steps, events }
}

/// Runs every row and asserts what it expects, each failure naming its row.
async fn check(cases: Vec<Case>) {
    for case in cases {
        let name = case.name;
        let page = Arc::new(case.page);
        let ran = run(Arc::clone(&page), case.steps, case.answers, case.limits).await;
        let expect = case.expect;
        let said = |ran: &Ran| -> String {
            ran.steps
                .iter()
                .map(|s| format!("[{} {:?} ×{}: {:?}]", s.index + 1, s.status, s.attempts, s.completion_evidence))
                .collect::<Vec<_>>()
                .join(" ")
        };
        let ended = ran.ended.as_ref().unwrap_or_else(|e| panic!("{name}: the task ended in an error: {e}"));
        if let Some(wanted) = &expect.ended {
            assert_eq!(ended, wanted, "{name}: how the task ended; {}", said(&ran));
        }
        if !expect.statuses.is_empty() {
            let statuses: Vec<StepStatus> = ran.steps.iter().map(|s| s.status).collect();
            assert_eq!(statuses, expect.statuses, "{name}: the objectives' statuses; {}", said(&ran));
        }
        if let Some((number, kind)) = expect.failed {
            let step = ran.objective(number);
            assert_eq!(step.status, Failed, "{name}: objective {number} failed; {}", said(&ran));
            match &step.said.evidence_said {
                Some(RunMessage::ObjectiveNotReached { kind: recorded, .. }) => {
                    assert_eq!(recorded, kind, "{name}: how objective {number} failed; {}", said(&ran))
                }
                other => panic!("{name}: objective {number} has no failure recorded ({other:?}); {}", said(&ran)),
            }
        }
        for (number, words) in &expect.recorded {
            let record = ran.objective(*number).completion_evidence.clone().unwrap_or_default();
            assert!(record.contains(words), "{name}: objective {number}'s record holds \"{words}\": {record}");
        }
        for (number, words) in &expect.not_recorded {
            let record = ran.objective(*number).completion_evidence.clone().unwrap_or_default();
            assert!(!record.contains(words), "{name}: objective {number}'s record holds no \"{words}\": {record}");
        }
        for (number, attempts) in &expect.attempts {
            assert_eq!(ran.objective(*number).attempts, *attempts, "{name}: objective {number}'s attempts");
        }
        for (role, element, times) in &expect.acted {
            assert_eq!(page.acted(role, element), *times, "{name}: times {role} \"{element}\" was acted on");
        }
        for (effect, times) in &expect.effects {
            assert_eq!(page.effects(effect), *times, "{name}: times the server had \"{effect}\"");
        }
        if let Some(expected) = &expect.action_effects {
            let recorded: Vec<(String, ActionEffect)> =
                ran.actions.iter().map(|a| (a.action.clone(), a.effect)).collect();
            assert_eq!(recorded.len(), expected.len(), "{name}: the actions recorded: {recorded:?}");
            for ((action, effect), (words, expected)) in recorded.iter().zip(expected) {
                assert!(action.contains(words) && effect == expected, "{name}: the actions recorded: {recorded:?}");
            }
        }
        for (checkbox, ticked) in &expect.checked {
            assert_eq!(page.is_checked("checkbox", checkbox), *ticked, "{name}: whether \"{checkbox}\" is ticked");
        }
        if let Some(revisions) = &expect.revisions {
            assert_eq!(&ran.revisions(), revisions, "{name}: the approaches the plan revisions moved to");
        }
        for (number, approach) in &expect.approach {
            assert_eq!(
                ran.objective(*number).stats.approach,
                Some(*approach),
                "{name}: the approach of objective {number}'s last attempt"
            );
        }
        if let Some(passes) = expect.passes {
            assert_eq!(ran.passes, Some(passes), "{name}: the task loop's passes");
        }
        if let Some(escalations) = &expect.escalations {
            assert_eq!(&ran.escalations(), escalations, "{name}: the choices offered at each escalation");
        }
    }
}

/// A settings page: a choice to tick, and "Save settings" whose effect the page never shows (a
/// toast gone before anyone looked) — the server saves all the same.
fn settings_page() -> ScriptedPage {
    ScriptedPage::new(vec![
        Screen::at("/settings")
            .line("Notification settings")
            .element(Element::new("checkbox", "Email me a weekly summary"))
            .element(Element::new("button", "Save settings"))
            .element(Element::new("link", "Back to dashboard")),
        Screen::at("/dashboard").line("Dashboard").line("3 reports due this week"),
    ])
    .on(Act::Click, "button", "Save settings", vec![Do::effect("settings saved")])
    .on(Act::Click, "link", "Back to dashboard", vec![Do::go_to("/dashboard")])
}

/// A checkout whose card the server declines.
fn declining_checkout() -> ScriptedPage {
    ScriptedPage::new(vec![Screen::at("/checkout")
        .line("Order total: €49.00")
        .element(Element::new("textbox", "Card number").value("4000 0000 0000 0002"))
        .element(Element::new("button", "Pay €49.00"))])
    .on(
        Act::Click,
        "button",
        "Pay €49.00",
        vec![Do::post("/api/pay", 402), Do::effect("payment attempted"), Do::alert("Card declined. Try another card.")],
    )
}

/// A page with one dialog whose words are `around`, and an "OK" in it that closes it and shows
/// `then` (no request: only its surroundings say what it does).
fn dialog_page(dialog: &str, around: &str, then: &str) -> ScriptedPage {
    ScriptedPage::new(vec![Screen::at("/billing")
        .line("Billing")
        .element(Element::new("dialog", dialog))
        .element(Element::new("button", "OK").inside(dialog).around(around))
        .element(Element::new("button", "Cancel").inside(dialog).around(around))])
    .on(Act::Click, "button", "OK", vec![Do::remove(dialog), Do::show(then)])
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_task_loop_ends_each_task_as_its_page_allows() {
    check(vec![
        Case {
            name: "a two-step task is done",
            page: ScriptedPage::new(vec![
                Screen::at("/").line("Acme portal").element(Element::new("link", "Orders")),
                Screen::at("/orders").line("Orders").line("Order 1042 — shipped"),
            ])
            .on(Act::Click, "link", "Orders", vec![Do::go_to("/orders")]),
            steps: "1. Click Orders\n2. Check that \"Order 1042\" is shown",
            answers: vec![],
            limits: Limits::USUAL,
            expect: Expect {
                ended: Some(Ended::Finished(TaskOutcome::Satisfied)),
                statuses: vec![Completed, Completed],
                attempts: vec![(1, 1), (2, 1)],
                acted: vec![("link", "Orders", 1)],
                recorded: vec![(1, "127.0.0.1:9/orders"), (2, "Order 1042")],
                passes: Some(1),
                ..Expect::default()
            },
        },
        Case {
            name: "a check that is not on the still page fails at once, with no second pass",
            page: ScriptedPage::new(vec![Screen::at("/invoice").line("Invoice 7").line("Status: open")]),
            steps: "1. Check that \"Payment received\" is shown",
            answers: vec![],
            limits: Limits::USUAL.reporting(),
            expect: Expect {
                ended: Some(Ended::Finished(TaskOutcome::Reported)),
                statuses: vec![Failed],
                failed: Some((1, "check_failed")),
                recorded: vec![(1, "Payment received")],
                attempts: vec![(1, 1)],
                revisions: Some(vec![]),
                passes: Some(1),
                ..Expect::default()
            },
        },
        Case {
            name: "a step whose control is missing fails, saying what the page offers",
            page: ScriptedPage::new(vec![Screen::at("/statement")
                .line("Statement for October")
                .element(Element::new("button", "Print"))]),
            steps: "1. Click Export to PDF",
            answers: vec![],
            limits: Limits::USUAL.attempts(1).passes(1).reporting(),
            expect: Expect {
                ended: Some(Ended::Finished(TaskOutcome::Reported)),
                statuses: vec![Failed],
                failed: Some((1, "not_found")),
                recorded: vec![(1, "nothing on the page matches"), (1, "button \"Print\"")],
                acted: vec![("button", "Print", 0)],
                ..Expect::default()
            },
        },
    ])
    .await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_failed_attempt_takes_the_approach_that_fits_how_it_failed() {
    check(vec![
        Case {
            name: "no effect: the next attempt waits for the page",
            page: ScriptedPage::new(vec![Screen::at("/sales")
                .line("Sales")
                .element(Element::new("button", "Refresh"))])
            .on_nth(
                Act::Click,
                "button",
                "Refresh",
                2,
                vec![Do::show("Totals: 12 orders"), Do::Add(Element::new("link", "Download totals"))],
            ),
            steps: "1. Click \"Refresh\" to show the totals",
            answers: vec![],
            limits: Limits::USUAL.attempts(2).passes(1).reporting(),
            expect: Expect {
                ended: Some(Ended::Finished(TaskOutcome::Satisfied)),
                statuses: vec![Completed],
                revisions: Some(vec![Approach::WaitForPage]),
                approach: vec![(1, Approach::WaitForPage)],
                attempts: vec![(1, 2)],
                acted: vec![("button", "Refresh", 2)],
                recorded: vec![(1, "Totals: 12 orders")],
                ..Expect::default()
            },
        },
        Case {
            name: "no effect, no attempt left in the pass: the next pass waits for the page",
            page: ScriptedPage::new(vec![Screen::at("/sales")
                .line("Sales")
                .element(Element::new("button", "Refresh"))])
            .on_nth(Act::Click, "button", "Refresh", 2, vec![Do::show("Totals: 12 orders")]),
            steps: "1. Click \"Refresh\" to show the totals",
            answers: vec![],
            limits: Limits::USUAL.attempts(1).passes(2).reporting(),
            expect: Expect {
                ended: Some(Ended::Finished(TaskOutcome::Satisfied)),
                statuses: vec![Completed],
                revisions: Some(vec![]),
                approach: vec![(1, Approach::WaitForPage)],
                passes: Some(2),
                acted: vec![("button", "Refresh", 2)],
                ..Expect::default()
            },
        },
        Case {
            name: "a check failed on a still page: no approach is left, no pass follows",
            page: ScriptedPage::new(vec![Screen::at("/invoice").line("Invoice 7").line("Status: open")]),
            steps: "1. Check that \"Payment received\" is shown",
            answers: vec![],
            limits: Limits::USUAL.reporting(),
            expect: Expect {
                failed: Some((1, "check_failed")),
                revisions: Some(vec![]),
                approach: vec![(1, Approach::AsWritten)],
                passes: Some(1),
                ..Expect::default()
            },
        },
        Case {
            name: "a page's error: no approach is tried, the card is not charged again",
            page: declining_checkout(),
            steps: "1. Click \"Pay €49.00\"",
            answers: vec![],
            limits: Limits::USUAL.reporting(),
            expect: Expect {
                failed: Some((1, "page_error")),
                revisions: Some(vec![]),
                attempts: vec![(1, 1)],
                passes: Some(1),
                acted: vec![("button", "Pay €49.00", 1)],
                effects: vec![("payment attempted", 1)],
                ..Expect::default()
            },
        },
        Case {
            name: "an alert answering a look-up is the page's error",
            page: ScriptedPage::new(vec![Screen::at("/customers")
                .line("Customers")
                .element(Element::new("textbox", "Customer ID").value("88213"))
                .element(Element::new("button", "Look up"))])
            .on(
                Act::Click,
                "button",
                "Look up",
                vec![Do::Dialog { kind: "alert".into(), message: "No customer with that ID.".into(), accepted: true }],
            ),
            steps: "1. Click \"Look up\"",
            answers: vec![],
            limits: Limits::USUAL.reporting(),
            expect: Expect {
                failed: Some((1, "page_error")),
                recorded: vec![(1, "No customer with that ID.")],
                revisions: Some(vec![]),
                acted: vec![("button", "Look up", 1)],
                ..Expect::default()
            },
        },
        Case {
            name: "a field the page marks invalid is the page's error",
            page: ScriptedPage::new(vec![Screen::at("/newsletter")
                .line("Newsletter")
                .element(Element::new("textbox", "Email").value("ada@"))
                .element(Element::new("button", "Subscribe"))])
            .on(
                Act::Click,
                "button",
                "Subscribe",
                vec![Do::Invalid {
                    role: "textbox".into(),
                    name: "Email".into(),
                    message: "Enter a valid email address.".into(),
                }],
            ),
            steps: "1. Click Subscribe",
            answers: vec![],
            limits: Limits::USUAL.reporting(),
            expect: Expect {
                failed: Some((1, "page_error")),
                recorded: vec![(1, "Enter a valid email address.")],
                revisions: Some(vec![]),
                acted: vec![("button", "Subscribe", 1)],
                ..Expect::default()
            },
        },
        Case {
            name: "an effect not seen: no approach is tried, the person decides",
            page: settings_page(),
            steps: "1. Click Save settings",
            answers: vec![],
            limits: Limits::USUAL,
            expect: Expect {
                ended: Some(Ended::Waiting),
                failed: Some((1, "effect_unknown")),
                revisions: Some(vec![]),
                attempts: vec![(1, 1)],
                acted: vec![("button", "Save settings", 1)],
                ..Expect::default()
            },
        },
    ])
    .await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn actions_that_change_the_world_are_told_from_those_that_do_not() {
    check(vec![
        Case {
            name: "\"Send report\" posts: carried out once, counted effectful",
            page: ScriptedPage::new(vec![Screen::at("/reports")
                .line("Monthly report")
                .element(Element::new("button", "Send report"))])
            .on(
                Act::Click,
                "button",
                "Send report",
                vec![Do::post("/api/report", 200), Do::effect("report sent"), Do::show("Report sent to finance.")],
            ),
            steps: "1. Click Send report",
            answers: vec![],
            limits: Limits::USUAL,
            expect: Expect {
                ended: Some(Ended::Finished(TaskOutcome::Satisfied)),
                statuses: vec![Completed],
                acted: vec![("button", "Send report", 1)],
                effects: vec![("report sent", 1)],
                recorded: vec![(1, "the button \"Send report\" pressed once"), (1, "Report sent to finance.")],
                ..Expect::default()
            },
        },
        Case {
            name: "a post the driver learnt of after the click's report: read again, it shows the send was taken",
            page: ScriptedPage::new(vec![Screen::at("/reports")
                .line("Monthly report")
                .element(Element::new("button", "Send report"))])
            .on(
                Act::Click,
                "button",
                "Send report",
                vec![
                    Do::LateRequest { method: "POST".into(), path: "/api/report".into(), status: Some(200) },
                    Do::effect("report sent"),
                ],
            ),
            steps: "1. Click Send report",
            answers: vec![],
            limits: Limits::USUAL,
            expect: Expect {
                ended: Some(Ended::Finished(TaskOutcome::Satisfied)),
                statuses: vec![Completed],
                acted: vec![("button", "Send report", 1)],
                effects: vec![("report sent", 1)],
                recorded: vec![(
                    1,
                    "the button \"Send report\" pressed once, exactly that element (POST /api/report → 200)",
                )],
                ..Expect::default()
            },
        },
        Case {
            name: "a consent banner that takes the click: the click is not counted done, and is made again once",
            page: ScriptedPage::new(vec![Screen::at("/reports")
                .line("Monthly report")
                .element(Element::new("button", "Send report"))])
            .on_nth(
                Act::Click,
                "button",
                "Send report",
                1,
                vec![
                    Do::Add(Element::new("dialog", "Cookie choices")),
                    Do::Add(Element::new("button", "Reject all").inside("Cookie choices")),
                ],
            )
            .on_nth(
                Act::Click,
                "button",
                "Send report",
                2,
                vec![Do::post("/api/report", 200), Do::effect("report sent"), Do::show("Report sent to finance.")],
            )
            .on(Act::Click, "button", "Reject all", vec![Do::remove("Cookie choices")]),
            steps: "1. Click Send report",
            answers: vec![],
            limits: Limits::USUAL,
            expect: Expect {
                ended: Some(Ended::Finished(TaskOutcome::Satisfied)),
                statuses: vec![Completed],
                acted: vec![("button", "Send report", 2), ("button", "Reject all", 1)],
                effects: vec![("report sent", 1)],
                action_effects: Some(vec![
                    ("Send report", ActionEffect::Safe),
                    ("Send report", ActionEffect::Effectful),
                ]),
                ..Expect::default()
            },
        },
        Case {
            name: "送信する in a contact frame: sent once, its confirmation read inside the frame",
            page: ScriptedPage::new(vec![Screen::at("/contact")
                .line("お問い合わせ")
                .element(Element::new("textbox", "お名前").value("山田").in_frame("/contact-frame"))
                .element(Element::new("button", "送信する").in_frame("/contact-frame").around("お名前 送信する"))])
            .on(
                Act::Click,
                "button",
                "送信する",
                vec![
                    Do::post("/api/contact", 200),
                    Do::effect("contact sent"),
                    Do::ShowIn { frame: "/contact-frame".into(), line: "送信しました".into() },
                ],
            ),
            steps: "1. 「送信する」を押す",
            answers: vec![],
            limits: Limits::USUAL,
            expect: Expect {
                statuses: vec![Completed],
                acted: vec![("button", "送信する", 1)],
                effects: vec![("contact sent", 1)],
                recorded: vec![(1, "pressed once"), (1, "送信しました")],
                ..Expect::default()
            },
        },
        Case {
            name: "a link is safe: it opens a page",
            page: ScriptedPage::new(vec![
                Screen::at("/").line("Acme portal").element(Element::new("link", "Reports")),
                Screen::at("/reports").line("Reports"),
            ])
            .on(Act::Click, "link", "Reports", vec![Do::go_to("/reports")]),
            steps: "1. Click Reports",
            answers: vec![],
            limits: Limits::USUAL,
            expect: Expect {
                statuses: vec![Completed],
                recorded: vec![(1, "127.0.0.1:9/reports")],
                not_recorded: vec![(1, "pressed once")],
                ..Expect::default()
            },
        },
        Case {
            name: "a link that shows nothing is tried again: it changed nothing in the world",
            page: ScriptedPage::new(vec![Screen::at("/reports")
                .line("Reports")
                .element(Element::new("link", "Archive"))])
            .on_nth(Act::Click, "link", "Archive", 2, vec![Do::show("Reports of 2025")]),
            steps: "1. Click \"Archive\" to list the old reports",
            answers: vec![],
            limits: Limits::USUAL.attempts(2).passes(1).reporting(),
            expect: Expect {
                statuses: vec![Completed],
                acted: vec![("link", "Archive", 2)],
                not_recorded: vec![(1, "pressed once")],
                ..Expect::default()
            },
        },
        Case {
            name: "\"OK\" in a payment dialog is effectful by its surroundings",
            page: dialog_page("Confirm payment", "Pay €49.00 to Acme Hosting? OK Cancel", "Payment complete"),
            steps: "1. Click OK",
            answers: vec![],
            limits: Limits::USUAL,
            expect: Expect {
                statuses: vec![Completed],
                acted: vec![("button", "OK", 1)],
                recorded: vec![(1, "the button \"OK\" pressed once")],
                ..Expect::default()
            },
        },
        Case {
            name: "\"OK\" in a tip is safe",
            page: dialog_page("Tip of the day", "Press ? to see the shortcuts. OK Cancel", "Shortcuts are on"),
            steps: "1. Click OK",
            answers: vec![],
            limits: Limits::USUAL,
            expect: Expect {
                statuses: vec![Completed],
                acted: vec![("button", "OK", 1)],
                not_recorded: vec![(1, "pressed once")],
                ..Expect::default()
            },
        },
    ])
    .await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_effect_not_seen_is_never_repeated_on_its_own() {
    check(vec![
        Case {
            name: "saved once, then the person is asked: it was done, or do it again",
            page: settings_page(),
            steps: "1. Tick Email me a weekly summary\n2. Click Save settings",
            answers: vec![],
            limits: Limits::USUAL,
            expect: Expect {
                ended: Some(Ended::Waiting),
                statuses: vec![Completed, Failed],
                failed: Some((2, "effect_unknown")),
                recorded: vec![(2, "may have taken effect")],
                acted: vec![("button", "Save settings", 1)],
                effects: vec![("settings saved", 1)],
                escalations: Some(vec![vec![
                    ItWasDone,
                    DoAgain,
                    EscalationChoice::MoreDetail,
                    EscalationChoice::AlternativeApproach,
                    EscalationChoice::AcceptPartial,
                    EscalationChoice::TechnicalAnalysis,
                    EscalationChoice::Cancel,
                ]]),
                ..Expect::default()
            },
        },
        Case {
            name: "a revision after a later action failed does not save again",
            page: ScriptedPage::new(vec![Screen::at("/settings")
                .line("Notification settings")
                .element(Element::new("button", "Save settings"))
                .element(Element::new("button", "Refresh"))])
            .on(
                Act::Click,
                "button",
                "Save settings",
                vec![Do::effect("settings saved"), Do::show("Last saved: 10:42")],
            ),
            steps: "1. Click Save settings, then click \"Refresh\" to show the totals",
            answers: vec![],
            limits: Limits::USUAL,
            expect: Expect {
                ended: Some(Ended::Waiting),
                failed: Some((1, "effect_unknown")),
                recorded: vec![(1, "already done once")],
                revisions: Some(vec![Approach::WaitForPage]),
                attempts: vec![(1, 2)],
                acted: vec![("button", "Save settings", 1), ("button", "Refresh", 1)],
                effects: vec![("settings saved", 1)],
                ..Expect::default()
            },
        },
        Case {
            name: "another pass the person asks for does not save again, nor undo the tick",
            page: settings_page(),
            steps: "1. Tick Email me a weekly summary\n2. Click Save settings",
            answers: vec!["alternative_approach"],
            limits: Limits::USUAL,
            expect: Expect {
                ended: Some(Ended::Waiting),
                statuses: vec![Completed, Failed],
                failed: Some((2, "effect_unknown")),
                approach: vec![(2, Approach::WaitForPage)],
                acted: vec![("button", "Save settings", 1), ("checkbox", "Email me a weekly summary", 1)],
                checked: vec![("Email me a weekly summary", true)],
                effects: vec![("settings saved", 1)],
                ..Expect::default()
            },
        },
    ])
    .await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_persons_answer_to_an_escalation_is_followed() {
    check(vec![
        Case {
            name: "\"it was done\": the next objective follows, the save is not repeated",
            page: settings_page(),
            steps: "1. Click Save settings\n2. Click Back to dashboard",
            answers: vec!["it_was_done"],
            limits: Limits::USUAL,
            expect: Expect {
                ended: Some(Ended::Finished(TaskOutcome::Satisfied)),
                statuses: vec![Completed, Completed],
                recorded: vec![(1, "the person checked and confirmed it was done")],
                acted: vec![("button", "Save settings", 1), ("link", "Back to dashboard", 1)],
                effects: vec![("settings saved", 1)],
                passes: Some(2),
                ..Expect::default()
            },
        },
        Case {
            name: "\"do it again\": saved exactly once more",
            page: settings_page(),
            steps: "1. Click Save settings",
            answers: vec!["do_again"],
            limits: Limits::USUAL,
            expect: Expect {
                ended: Some(Ended::Waiting),
                statuses: vec![Failed],
                failed: Some((1, "effect_unknown")),
                acted: vec![("button", "Save settings", 2)],
                effects: vec![("settings saved", 2)],
                ..Expect::default()
            },
        },
        Case {
            name: "a declined card fails as the page's error, never as evidence",
            page: declining_checkout(),
            steps: "1. Click \"Pay €49.00\"\n2. Check that \"Payment received\" is shown",
            answers: vec!["accept_partial"],
            limits: Limits::USUAL,
            expect: Expect {
                ended: Some(Ended::Finished(TaskOutcome::AcceptedPartial)),
                statuses: vec![Failed, Skipped],
                failed: Some((1, "page_error")),
                recorded: vec![(1, "Card declined. Try another card.")],
                acted: vec![("button", "Pay €49.00", 1)],
                effects: vec![("payment attempted", 1)],
                escalations: Some(vec![vec![
                    EscalationChoice::MoreDetail,
                    EscalationChoice::AlternativeApproach,
                    EscalationChoice::AcceptPartial,
                    EscalationChoice::TechnicalAnalysis,
                    EscalationChoice::Cancel,
                ]]),
                ..Expect::default()
            },
        },
    ])
    .await;
}

/// The scripted page reads and acts as the browser driver does, as far as the runner looks:
/// the snapshot's lines, each kind of locator, and what an action's report says.
#[tokio::test]
async fn the_scripted_page_answers_as_the_driver_does() {
    use planwright_browser::{AnnouncementKind, BrowserError, Locator};
    use planwright_objectives::page::Page;

    let page = dialog_page("Confirm payment", "Pay €49.00 to Acme Hosting? OK Cancel", "Payment complete").on(
        Act::Click,
        "button",
        "Cancel",
        vec![Do::post("/api/cancel", 200), Do::status("Payment cancelled"), Do::go_to("/orders")],
    );
    let snapshot = page.snapshot_text(6_000).await.unwrap();
    let read = Page::parse(&page.url().await.unwrap(), &snapshot);
    let nodes: Vec<(&str, &str, bool)> =
        read.nodes.iter().map(|n| (n.role.as_str(), n.name.as_str(), n.reference.is_some())).collect();
    assert_eq!(
        nodes,
        [("dialog", "Confirm payment", false), ("button", "OK", true), ("button", "Cancel", true)],
        "{snapshot}"
    );
    assert!(read.is_inside(1, 0) && read.is_inside(2, 0), "{snapshot}");

    let role = |name: &str, exact: bool| Locator::Role { role: "button".into(), name: Some(name.into()), exact };
    assert_eq!(page.resolve(&role("  ok ", false)).await.unwrap().len(), 1, "a name in part, any case and spacing");
    assert!(page.resolve(&role("ok", true)).await.unwrap().is_empty(), "an exact name is the whole name");
    let text = Locator::Text { text: "billing".into(), exact: false };
    assert_eq!(page.resolve(&text).await.unwrap().len(), 1, "a line of text");
    let near = Locator::Near { target: Box::new(role("OK", true)), text: "€49.00".into() };
    let ok = page.resolve(&near).await.unwrap();
    assert_eq!(ok.len(), 1, "an element by the words around it");
    assert_eq!(page.surroundings(&ok[0]).await.unwrap(), "Pay €49.00 to Acme Hosting? OK Cancel");
    let by_ref = Locator::Ref { reference: read.nodes[2].reference.clone().unwrap() };
    assert_eq!(page.resolve(&by_ref).await.unwrap()[0].name, "Cancel");
    let any = Locator::Role { role: "button".into(), name: None, exact: false };
    let op = |locator: Locator| Op::Click { locator, downloads: false };
    assert!(matches!(page.act(&op(any), &ActOptions::default()).await, Err(BrowserError::Ambiguous { .. })));
    let missing = op(role("Delete", true));
    assert!(matches!(page.act(&missing, &ActOptions::default()).await, Err(BrowserError::NotFound { .. })));

    let report = page.act(&op(role("Cancel", true)), &ActOptions::default()).await.unwrap();
    assert!(report.navigated && report.url.ends_with("/orders"), "{report:?}");
    assert_eq!(report.requests.len(), 1);
    assert!(report.started_write());
    assert_eq!(report.announced[0].kind, AnnouncementKind::Status);
    assert_eq!(report.disappeared, ["button \"OK\"", "button \"Cancel\""]);
    assert_eq!(page.announced_since(report.acted_at_ms).await.unwrap().len(), 1);
    assert_eq!((page.acted("button", "Cancel"), page.acted("button", "OK")), (1, 0));

    // States, hidden elements, test ids, and a page that says it is loading until a click.
    let page = ScriptedPage::new(vec![Screen::at("/search")
        .loading()
        .line("Loading results…")
        .element(Element::new("checkbox", "In stock only").checked())
        .element(Element::new("button", "Advanced").hidden())
        .element(Element::new("button", "Stop").test_id("stop"))])
    .on(Act::Click, "button", "Stop", vec![Do::Loading(false), Do::Hide("Loading results…".into())]);
    let snapshot = page.snapshot_text(6_000).await.unwrap();
    assert!(snapshot.contains("- checkbox \"In stock only\" [checked] [ref="), "{snapshot}");
    assert!(!snapshot.contains("Advanced"), "a hidden element is not in the snapshot: {snapshot}");
    assert!(page.resolve(&role("Advanced", true)).await.unwrap().is_empty());
    assert!(page.shows_loading().await.unwrap() && page.still_for().await.unwrap().is_zero());
    page.act(&op(Locator::TestId { id: "stop".into() }), &ActOptions::default()).await.unwrap();
    assert!(!page.shows_loading().await.unwrap() && !page.still_for().await.unwrap().is_zero());
    assert!(!page.frame_texts().await.unwrap()[0].text.contains("Loading"));
}
