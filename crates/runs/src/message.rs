//! The run's messages as codes with parameters: the engine's own (a timeout, a skip, a halt …) and
//! the common block errors (an input left out, a path outside the work directory …). An event
//! carries its English text for the command line and the record, and beside it the same message
//! as a [`RunMessage`], which the studio says in the person's language (`ui/src/lib/i18n`, key
//! `run.said.<key>`). Free text from outside (an HTTP body, a page's message) stays a parameter,
//! never translated.

use std::fmt;

use serde::{Deserialize, Serialize};

/// A message of the run with its parameters. Serialized as `{"key": "<snake_case>", "params":
/// {…}}` (no `params` for a message without any).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
#[serde(tag = "key", content = "params", rename_all = "snake_case")]
pub enum RunMessage {
    /// An attempt ran past its policy's `timeout_ms`; its work was cancelled.
    TimedOut { ms: u64 },
    /// A loop ran past its policy's `timeout_ms`; its iterations were cancelled.
    LoopTimedOut { ms: u64 },
    /// Skipped: a node it reads was skipped.
    DependencySkipped { dependency: String },
    /// Skipped: its `when` is false.
    ConditionFalse { condition: String },
    /// Its `when` could not be evaluated (the evaluator's English reason in `detail`).
    ConditionUnreadable { detail: String },
    /// The run halted: this node failed (its own failure event says why).
    NodeHalted { node: String },
    /// Nodes failed under `on_error: continue`, and the run went on past them.
    FailuresContinued { failed: u64 },
    /// Stopped from outside before the end.
    StoppedBeforeEnd,
    /// A node waits for an answer nobody can give now: the fields it wants.
    WaitsForAnswer { node: String, wanted: String },
    /// As [`RunMessage::WaitsForAnswer`], and the policy says `on_unanswered: fail`.
    NobodyAnswered { node: String, wanted: String },
    /// An answer was refused (the fields and why, in English, in `fields`); the question stays.
    AnswerRefused { fields: String },
    /// The catalog has no such block.
    UnknownBlock { block: String },
    /// The block is in the catalog but not in this build.
    BlockNotBuilt { block: String },
    /// `foreach.input` is not a list.
    ForeachNotList,
    /// A `call` names a plan that is not registered.
    CalledPlanNotFound { plan: String },
    /// A called plan cannot be read, or is invalid (the reason in `detail`).
    CalledPlanInvalid { plan: String, detail: String },
    /// A secret has no value.
    SecretNotSet { name: String },
    /// A block asked for a secret its plan does not declare (a page, a model or a data value
    /// naming `{{NAME}}`): refused, whatever the environment holds.
    SecretNotDeclared { name: String },
    /// A block input is left out.
    InputMissing { input: String },
    /// A block input is not text.
    InputNotText { input: String },
    /// A block input is not `true` or `false`.
    InputNotBoolean { input: String },
    /// A block input is not a whole number.
    InputNotInteger { input: String },
    /// A block input is not a list.
    InputNotList { input: String },
    /// A path input is empty.
    PathEmpty { input: String },
    /// A path input leads outside the run's work directory.
    PathOutsideWorkdir { input: String, path: String, workdir: String },
    /// The file a path input names is not in the work directory (the files that are there, in
    /// the English text).
    FileMissing { input: String, path: String },
    /// The path names a folder, not a file.
    FileIsFolder { input: String, path: String },
    /// The file is larger than a block reads.
    FileTooLarge { input: String, path: String, mb: u64, max_mb: u64 },
    /// An HTTP request got no complete answer in time.
    HttpTimedOut { method: String, url: String, seconds: String },
    /// An HTTP request was answered with an error status (the body, in the English text).
    HttpRefused { method: String, url: String, status: u16 },
    /// An HTTP request got no answer: the connection failed or broke (why, in the English text).
    HttpFailed { method: String, url: String },
    /// A block that needs a language model ran with none configured.
    ModelNotConfigured { block: String },
    /// A file cannot be opened or read (the system's reason, in the English text).
    FileUnreadable { path: String },
    /// A file cannot be written (the system's reason, in the English text).
    FileUnwritable { path: String },
    /// A CSV file is not well formed at a line.
    CsvUnreadableAt { line: u64 },
    /// A CSV file cannot be read (why, in the English text).
    CsvUnreadable,
    /// A file is not an Excel workbook this can read, or is protected (how to fix it, in the
    /// English text).
    WorkbookUnreadable { path: String },
    /// A workbook has no sheet of that name.
    SheetMissing { path: String, sheet: String, sheets: String },
    /// No row has the column an input names (the closest names, in the English text).
    ColumnMissing { input: String, column: String, columns: String },
    /// No row has a column a filter's condition `condition` (on `field`) names.
    ConditionColumnMissing { condition: u64, field: String, column: String, columns: String },
    /// No row has the column aggregation `aggregation` of a grouping reads.
    AggregationColumnMissing { aggregation: u64, column: String, columns: String },
    /// A dotted path leads to an object without that key (`keys`: the first 20 it has).
    KeyMissing { path: String, key: String, keys: String },
    /// A dotted path leads to a list of `count` items without that item.
    ItemMissing { path: String, item: String, count: u64 },
    /// No Chromium could be found to start.
    BrowserNotInstalled,
    /// The browser could not be started or reached.
    BrowserNotStarted,
    /// The browser closed or crashed during a step.
    BrowserClosed,
    /// The browser did not answer in time.
    BrowserNotAnswering { ms: u64 },
    /// A page could not be loaded (Chromium's reason, in the English text).
    PageNotOpened { url: String },
    /// Nothing on the page matches a locator.
    ElementNotFound { locator: String, waited_ms: u64 },
    /// More than one element matches a locator where one is needed.
    ElementAmbiguous { locator: String, count: u64 },
    /// The element is there but not ready for the action (why, in the English text).
    ElementNotReady { locator: String, action: String, waited_ms: u64 },
    /// Another element covers the one the action is meant for.
    ElementCovered { locator: String, action: String, covering: String },
    /// A wait for something on the page ran out of time.
    PageWaitTimedOut { what: String, waited_ms: u64 },
    /// A screenshot was asked for with no page open.
    NoPageOpen { path: String },
    /// The model's answer did not fit the output schema, even when asked once more.
    ModelAnswerInvalid,
    /// The call to the model's provider failed: refused, unavailable, too slow or unreadable
    /// (which, in the English text).
    ModelCallFailed { provider: String },
    /// A block refused its inputs, in words of its own (in the English text): said for a block
    /// error that has no code of its own.
    BlockInputInvalid { block: String },
    /// A block's work failed, in words of its own (in the English text).
    BlockFailed { block: String },
    /// Something a block needs is not set up, in words of its own (in the English text).
    BlockNotSetUp { block: String },
    /// A block could not go on without an answer, in words of its own (in the English text).
    BlockNoAnswer { block: String },
    /// Log: a filter kept some of the rows.
    RowsKept { kept: u64, total: u64 },
    /// Log: rows grouped.
    RowsGrouped { rows: u64, groups: u64 },
    /// Log: rows left out by a filter because their `field` cannot be compared with `value`.
    RowsNotComparable { field: String, value: String, count: u64 },
    /// Log: values of `field` left out of an aggregation (`op`) as they are not numbers.
    ValuesNotNumbers { op: String, field: String, count: u64 },
    /// Log: join keys found in more than one row of a `side` (`left` or `right`).
    KeysRepeated { side: String, count: u64, keys: String },
    /// Log: what a join matched.
    RowsJoined { strategy: String, matched: u64, left_only: u64, right_only: u64 },
    /// Log: a browser action done (`element` is empty for none; `dialogs` answered meanwhile;
    /// `new_tab` followed; `still_busy` when the page had not settled).
    BrowserActed {
        action: String,
        element: String,
        url: String,
        ms: u64,
        dialogs: u64,
        new_tab: bool,
        still_busy: bool,
    },
    /// Log: rows read from a table on a page (which table, in the English text).
    TableExtracted { url: String, rows: u64, columns: u64, headers: String, ms: u64 },
    /// Log: a table on the page had no rows after waiting for them.
    TableEmpty { url: String, seconds: u64 },
    /// Log: a screenshot saved (of what, in the English text).
    ScreenshotSaved { url: String, path: String, bytes: u64, ms: u64 },
    /// Log: the run's browser started.
    BrowserStarted { executable: String, headed: bool },
    /// Log: attached to a running browser.
    BrowserAttached { address: String },
    /// Log: rows read from a CSV file.
    CsvRead { path: String, rows: u64, columns: u64 },
    /// Log: rows read from a sheet of a workbook.
    SheetRead { path: String, sheet: String, rows: u64, columns: u64 },
    /// Log: a workbook written.
    WorkbookWritten { path: String, rows: u64, sheets: u64 },
    /// Log: a sheet name Excel does not allow was changed.
    SheetRenamed { given: String, written: String },
    /// Log: texts longer than an Excel cell holds were cut.
    CellsCut { count: u64, max: u64 },
    /// Log: a report written, as `format` (`markdown`, `json`, `csv`).
    ReportWritten { format: String, path: String },
    /// Log: a file's name ends in another kind's extension (`kind`: `png`, `csv`, `markdown`…).
    FileNameMismatch { path: String, kind: String, ext: String },
    /// Log: a file's name has no extension to say its kind.
    FileNameWithoutExtension { path: String, kind: String },
    /// Log: texts read from documents.
    TextsRead { characters: u64, files: u64 },
    /// Log: an HTTP request answered, with its status.
    HttpAnswered { method: String, url: String, status: u16, ms: u64 },
    /// Log: an HTTP request ended without an answer: `cancelled`, `timed_out` or `failed`.
    HttpEnded { method: String, url: String, how: String, ms: u64 },
    /// Log: the model's first answer broke the output schema; its corrected one is used.
    ModelAnswerCorrected,
    /// Log: the run's browser was lost and a new one starts.
    BrowserLost { reason: String },
    /// Log: a browser task's objectives start, from a page.
    ObjectivesStarted { count: u64, url: String },
    /// Log: a browser task ended: its objectives completed of all; the task loop's `outcome`
    /// (`satisfied`, `accepted_partial`, `reported`, or `none` without the loop) after `passes`
    /// with `percent` satisfaction; steps replayed from the action cache; model calls.
    ObjectivesEnded {
        completed: u64,
        total: u64,
        outcome: String,
        passes: u64,
        percent: u64,
        replayed: u64,
        model_calls: u64,
    },
    /// Log: an attempt at an objective failed (the runner's English words in `reason`).
    ObjectiveAttemptFailed { objective: u64, attempt: u64, reason: String },
    /// Log: an action of an objective was refused: it would move a secret where a secret never
    /// goes, or press a look-alike of the control the step names (`detail`: the runner's
    /// English words, placeholders only).
    ActionRefused { objective: u64, detail: String },
    /// Log: a recovery step: `blocking` is in the way of an objective, and `choice` is pressed.
    /// In the recovery messages an element is a role and a name (`blocking_role`, `blocking`):
    /// the role `key` is a key of the keyboard, `words` a name said as it is.
    RecoveryStarted {
        objective: u64,
        #[serde(default = "said_as_written")]
        blocking_role: String,
        blocking: String,
        #[serde(default = "said_as_written")]
        choice_role: String,
        choice: String,
    },
    /// Log: the page was blank, so no screenshot was kept as an objective's evidence.
    EvidenceBlank { objective: u64 },
    /// Log: the screenshot taken when step `step` was judged done was saved as `path` in the
    /// work folder (`browser.run_objectives`' `evidence`).
    EvidenceSaved { step: u64, path: String },
    /// Log: step `step` was not done, so `path` was not written: its screenshot would show no
    /// evidence of it (the failure's own screenshot stays in the run record).
    EvidenceNotSaved { step: u64, path: String },
    /// Log: an earlier attempt did not finish the objectives; they start over.
    ObjectivesStartOver,
    /// A recovery step's description: close what is in the way by pressing `choice`.
    RecoveryClose {
        #[serde(default = "said_as_written")]
        blocking_role: String,
        blocking: String,
        #[serde(default = "said_as_written")]
        choice_role: String,
        choice: String,
    },
    /// A recovery step's evidence: what was in the way went away.
    BlockerGone {
        #[serde(default = "said_as_written")]
        blocking_role: String,
        blocking: String,
        #[serde(default = "said_as_written")]
        choice_role: String,
        choice: String,
    },
    /// A recovery step's failure: what was in the way stayed (or the press failed; why, in the
    /// English text).
    BlockerStayed {
        #[serde(default = "said_as_written")]
        blocking_role: String,
        blocking: String,
        #[serde(default = "said_as_written")]
        choice_role: String,
        choice: String,
    },
    /// An objective's failure, by the kind of its last attempt's (`not_found`, `ambiguous`,
    /// `no_effect`, `check_failed`, `blocked`, `loop`, `browser`, `model`, `refused`, `final`), after
    /// `attempts`; the runner's words in the English text.
    ObjectiveNotReached { kind: String, attempts: u64 },
    /// Evidence: what a check looked for is shown. In the evidence messages `role` and `name`
    /// name an element; `role` is `text` for text on the page.
    ProofShown { role: String, name: String },
    /// Evidence: what a check says should not be there is not (`texts`, quoted).
    ProofNotShown { texts: String },
    /// Evidence: the value the page shows for `label`, kept as the run's value `name`.
    ProofNoted { label: String, value: String, name: String },
    /// Evidence: a field holds what was typed into it, a placeholder's value (`value` is the
    /// placeholder, never the value) of `chars` characters.
    ProofFieldHoldsPlaceholder { role: String, name: String, value: String, chars: u64 },
    /// Evidence: a field holds what was typed into it.
    ProofFieldHolds { role: String, name: String, value: String },
    /// Evidence: a list shows the option chosen.
    ProofFieldShows { role: String, name: String, value: String },
    /// Evidence: a checkbox or a switch is on or off, as asked.
    ProofFieldSwitched { role: String, name: String, on: bool },
    /// Evidence: an action that changes the world was done once (what it brought about follows).
    ProofPressedOnce { role: String, name: String },
    /// Evidence: an action was done once on exactly the element the step names, the server took
    /// its requests (`requests`, when `sent`), and the step asks for nothing more.
    ProofPressedExactly { role: String, name: String, requests: String, sent: bool },
    /// Evidence: the page is now at `url` (its `title`, when `titled`).
    ProofNowAt { url: String, title: String, titled: bool },
    /// Evidence: a new tab opened at `url`.
    ProofNewTab { url: String },
    /// Evidence: the page asked `message` in a dialog, answered as `accepted` says.
    ProofPageAsked { message: String, accepted: bool },
    /// Evidence: new lines the page shows (`lines`, quoted).
    ProofPageShows { lines: String },
    /// Evidence: what the page announced (a toast, a status; `alert` for an alert), quoted.
    ProofPageAnnounced { lines: String, alert: bool },
    /// Evidence: a file was downloaded.
    ProofDownloaded { file: String, bytes: u64 },
    /// Evidence: the pointer is over the element the step names.
    ProofPointerOver,
    /// A plan's main objective: the last step that acts, of `steps` in all.
    PlanMainObjective { step: String, steps: u64 },
    /// A pass's evaluation: `done` of `total` objectives done with evidence from the page;
    /// `unmet_high` high-priority requirements not met.
    ObjectivesDoneWithEvidence { done: u64, total: u64, unmet_high: u64 },
    /// Criterion: the page at `url` is open.
    CriterionPageOpen { url: String },
    /// Criterion: the page `target` leads to is shown.
    CriterionLeadsTo { target: String },
    /// Criterion: clicking `target` saves a file.
    CriterionSavesFile { target: String },
    /// Criterion: the page changes after `target` is clicked.
    CriterionPageChanges { target: String },
    /// Criterion: the field `field` holds `value`.
    CriterionFieldHolds { field: String, value: String },
    /// Criterion: the field typed into holds `value`.
    CriterionTyped { value: String },
    /// Criterion: `field` shows the option `value`.
    CriterionFieldShows { field: String, value: String },
    /// Criterion: the option `value` is chosen.
    CriterionChosen { value: String },
    /// Criterion: `target` is on or off.
    CriterionSwitched { target: String, on: bool },
    /// Criterion: results for `query` are shown.
    CriterionResultsShown { query: String },
    /// Criterion: the sign-in is accepted and the page moves on.
    CriterionSignedIn,
    /// Criterion: a file is downloaded (`target`).
    CriterionFileDownloaded { target: String },
    /// Criterion: `what` (quoted) is shown, or with `negated`, is not.
    CriterionShown { what: String, negated: bool },
    /// Criterion: the value for `label` is read from the page and kept as `name`.
    CriterionNoted { label: String, name: String },
    /// Criterion: the page scrolls.
    CriterionScrolls,
    /// Criterion: `target` is closed.
    CriterionClosed { target: String },
    /// Criterion: the page before is shown.
    CriterionBack,
    /// An action's result: carried out, with no change the page shows yet.
    ActionDone,
    /// A look back at a failed attempt: `done` of the `total` things its objective asks for were
    /// done before it failed.
    ReflectionDoneBefore { done: u64, total: u64 },
    /// A look back at a failed attempt: the page was at rest then (looking again the same way
    /// would see the same), or still changing.
    ReflectionPage { at_rest: bool },
    /// A look back at a failed attempt: the approach said after it ([`RunMessage::ApproachDescribed`])
    /// is tried next, not yet tried on this objective.
    ReflectionNext,
    /// A look back at a failed attempt: no attempt is left in the pass; the task loop decides.
    ReflectionNoAttemptLeft,
    /// A look back at a failed attempt: no approach not yet tried fits the failure.
    ReflectionNoOtherApproach,
    /// A look back every few actions: `done` of `total` objectives done; `outcome` is `loop` (the
    /// same action did the same each time), `unseen` (some showed no change yet) or `visible`.
    ReflectionInterval { done: u64, total: u64, outcome: String },
    /// A look back after pass `pass`: the request satisfied to `percent` %, done at `threshold` %.
    ReflectionPass { pass: u64, percent: u64, threshold: u64 },
    /// How an objective is approached (`Approach`'s snake_case name): a revision's change, the
    /// approach tried next.
    ApproachDescribed { approach: String },
    /// An answer's field: required and left empty.
    AnswerRequired,
    /// An answer's approval: approve or reject is required.
    AnswerApprovalRequired,
    /// An answer's field must be text.
    AnswerNotText,
    /// An answer's field is not a number.
    AnswerNotNumber { text: String },
    /// An answer's field must be yes or no.
    AnswerNotYesNo,
    /// An answer's field is not one of its options.
    AnswerNotAnOption { text: String, options: String },
    /// An answer's field must be a file path.
    AnswerNotAPath,
    /// An answer's file is not of a type the question accepts.
    AnswerFileTypeRefused { path: String, accepted: String },
    /// An answer's table must be a list of rows.
    AnswerNotRows,
    /// A row of an answer's table is not an object of column to value.
    AnswerRowNotObject { row: u64 },
    /// An answer's field does not match the plan's format (a regular expression).
    AnswerFormatMismatch { text: String, pattern: String },
    /// The plan's format for the field is not a valid regular expression.
    AnswerPatternInvalid { pattern: String },
    /// An answer names a field the question does not ask for.
    AnswerUnknownField { known: String },
    /// The answer as a whole is not an object of field to value.
    AnswerNotAnObject,
    /// An answer's file is not in the work folder.
    AnswerFileMissing { path: String },
    /// An answer's file path leads outside the work folder.
    AnswerPathOutside { path: String },
}

/// A message as the engine passes it on: the English text, and the same as a [`RunMessage`]
/// when it is one the studio says in the person's language.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Reason {
    pub text: String,
    /// Boxed: a block's error carries a `Reason`, and every block result stays small.
    pub said: Option<Box<RunMessage>>,
    /// What a block produced before it failed (the objective runner's report of objectives it
    /// could not complete): recorded with the failure and, under `on_error: continue`, what
    /// dependants read instead of null.
    pub outputs: Option<Box<serde_json::Map<String, serde_json::Value>>>,
}

impl Reason {
    /// `text`, coded as `said`.
    pub fn said(said: RunMessage, text: impl Into<String>) -> Reason {
        Reason { text: text.into(), said: Some(Box::new(said)), outputs: None }
    }

    /// The same failure, with what the block produced before it failed.
    pub fn with_outputs(self, outputs: serde_json::Map<String, serde_json::Value>) -> Reason {
        Reason { outputs: Some(Box::new(outputs)), ..self }
    }

    /// The text and the code, unboxed, as an event holds them.
    pub fn into_parts(self) -> (String, Option<RunMessage>) {
        (self.text, self.said.map(|said| *said))
    }
}

impl From<String> for Reason {
    fn from(text: String) -> Reason {
        Reason { text, said: None, outputs: None }
    }
}

impl From<&str> for Reason {
    fn from(text: &str) -> Reason {
        Reason { text: text.to_owned(), said: None, outputs: None }
    }
}

impl fmt::Display for Reason {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.text)
    }
}

/// The role of an element named before recovery messages kept roles: its words, as written.
fn said_as_written() -> String {
    "words".to_owned()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_recovery_message_recorded_before_roles_reads_as_its_words() {
        let old = serde_json::json!({"key": "blocker_gone", "params": {"blocking": "dialog \"Cookies\"", "choice": "button \"OK\""}});
        let said: RunMessage = serde_json::from_value(old).unwrap();
        assert_eq!(
            said,
            RunMessage::BlockerGone {
                blocking_role: "words".into(),
                blocking: "dialog \"Cookies\"".into(),
                choice_role: "words".into(),
                choice: "button \"OK\"".into(),
            }
        );
    }

    #[test]
    fn a_message_is_its_key_and_params() {
        let json = serde_json::to_value(RunMessage::TimedOut { ms: 3000 }).unwrap();
        assert_eq!(json, serde_json::json!({"key": "timed_out", "params": {"ms": 3000}}));
        let json = serde_json::to_value(RunMessage::StoppedBeforeEnd).unwrap();
        assert_eq!(json, serde_json::json!({"key": "stopped_before_end"}));
        let back: RunMessage = serde_json::from_value(serde_json::json!({"key": "stopped_before_end"})).unwrap();
        assert_eq!(back, RunMessage::StoppedBeforeEnd);
    }
    #[test]
    fn an_event_carries_its_code_and_an_old_one_without_reads_as_none() {
        let failed = crate::EventKind::NodeFailed {
            node: "fetch".into(),
            elapsed_ms: 300,
            attempts: 2,
            error: "timed out after 300 ms (policy timeout_ms); its work was cancelled".into(),
            timed_out: true,
            continued: false,
            said: Some(RunMessage::TimedOut { ms: 300 }),
            outputs: None,
        };
        let json = serde_json::to_value(&failed).unwrap();
        assert_eq!(json["said"], serde_json::json!({"key": "timed_out", "params": {"ms": 300}}));
        assert_eq!(serde_json::from_value::<crate::EventKind>(json).unwrap(), failed);
        // Schema 4 and before: no `said`.
        let old = r#"{"schema":4,"run_id":"r","seq":3,"at":"2026-11-27T04:48:00.731Z","type":"node_skipped","node":"save","reason":"its condition `x` is false"}"#;
        let event: crate::Event = serde_json::from_str(old).unwrap();
        assert_eq!(
            event.kind,
            crate::EventKind::NodeSkipped {
                node: "save".into(),
                reason: "its condition `x` is false".into(),
                said: None
            }
        );
        let old = r#"{"schema":4,"run_id":"r","seq":4,"at":"2026-11-27T04:48:00.731Z","type":"log","node":null,"level":"warn","message":"m"}"#;
        assert!(matches!(
            serde_json::from_str::<crate::Event>(old).unwrap().kind,
            crate::EventKind::Log { said: None, .. }
        ));
    }
}
