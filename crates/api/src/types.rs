//! The request and response types of the studio's operations, as the UI sees them. Each is
//! exported to TypeScript (`ui/src/lib/api/types/`, see [`crate::export_types`]).
//!
//! Types of other crates travel as they are when they derive `TS` there (`planwright-runs`'s
//! events, behind its `ts` feature); the validator's findings and dry-run steps are mirrored
//! here with a `From` conversion, so that the plan and validate crates stay free of UI concerns.

use std::collections::BTreeMap;

pub use planwright_validate::{Estimate, Step, StepKind};
use serde::{Deserialize, Serialize};
use serde_json::{Map, Value};
use ts_rs::TS;

pub use planwright_runs::{Counts, Event, EventKind, RunStatus, RunSummary};

/// A block of the catalog, as the catalog view and the editor's completion show it.
#[derive(Debug, Clone, Serialize, Deserialize, TS)]
pub struct BlockInfo {
    pub id: String,
    pub version: String,
    pub category: String,
    pub title: Localized,
    pub description: Localized,
    pub tags: LocalizedList,
    pub inputs: Vec<PortInfo>,
    pub outputs: Vec<PortInfo>,
    /// `browser` when the block drives the run's browser.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub resource: Option<String>,
}

#[derive(Debug, Clone, Serialize, Deserialize, TS)]
pub struct Localized {
    pub en: String,
    pub ja: String,
}

#[derive(Debug, Clone, Serialize, Deserialize, TS)]
pub struct LocalizedList {
    pub en: Vec<String>,
    pub ja: Vec<String>,
}

#[derive(Debug, Clone, Serialize, Deserialize, TS)]
pub struct PortInfo {
    pub name: String,
    /// The type as the specs write it: `string`, `array<object>`, `string | null` …
    #[serde(rename = "type")]
    #[ts(rename = "type")]
    pub ty: String,
    pub required: bool,
    #[serde(skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub default: Option<Value>,
    pub description: Localized,
    /// The allowed values, when the port is an enumeration (the inspector offers a list).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub options: Option<Vec<Value>>,
    /// The declared properties of an object, or of each item of a list of objects: the columns
    /// the inspector's table shows, with their help and their lists of values.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    #[ts(as = "Option<Vec<PortInfo>>", optional)]
    pub fields: Vec<PortInfo>,
}

#[derive(Debug, Clone, Serialize, Deserialize, TS)]
pub struct SearchRequest {
    pub query: String,
    #[serde(default)]
    #[ts(optional)]
    pub top_k: Option<usize>,
}

#[derive(Debug, Clone, Serialize, Deserialize, TS)]
pub struct SearchHit {
    pub id: String,
    pub score: f64,
    pub category: String,
    /// The matched query words and the fields they were found in, best first.
    pub why: Vec<String>,
}

#[derive(Debug, Clone, Serialize, Deserialize, TS)]
pub struct SearchResponse {
    pub hits: Vec<SearchHit>,
    /// `bm25` or `hybrid`.
    pub method: String,
    pub warnings: Vec<String>,
}

/// A plan's text, for validate, dry-run, graph and register.
#[derive(Debug, Clone, Serialize, Deserialize, TS)]
pub struct PlanText {
    pub text: String,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, TS)]
#[serde(rename_all = "snake_case")]
pub enum Severity {
    Error,
    Warning,
}

/// One problem in a plan, as `planwright validate --format json` writes it.
#[derive(Debug, Clone, Serialize, Deserialize, TS)]
pub struct Finding {
    /// The stable code (`unknown_block`, `bad_reference` …).
    pub code: String,
    pub severity: Severity,
    pub node: Option<String>,
    pub field: Option<String>,
    pub message: String,
    pub hint: Option<String>,
    pub candidates: Vec<String>,
    /// JSON pointer into the document.
    pub path: String,
    /// 1-based.
    pub line: Option<u32>,
    pub column: Option<u32>,
}

impl From<&planwright_plan::Finding> for Finding {
    fn from(finding: &planwright_plan::Finding) -> Finding {
        Finding {
            code: finding.code.as_str().to_owned(),
            severity: if finding.is_error() { Severity::Error } else { Severity::Warning },
            node: finding.node.clone(),
            field: finding.field.clone(),
            message: finding.message.clone(),
            hint: finding.hint.clone(),
            candidates: finding.candidates.clone(),
            path: finding.path.clone(),
            line: finding.line,
            column: finding.column,
        }
    }
}

#[derive(Debug, Clone, Serialize, Deserialize, TS)]
pub struct ValidateResponse {
    pub valid: bool,
    /// Errors first, then warnings, each in document order.
    pub findings: Vec<Finding>,
}

#[derive(Debug, Clone, Serialize, Deserialize, TS)]
pub struct DryRunResponse {
    pub valid: bool,
    pub findings: Vec<Finding>,
    /// Node ids of the plan's own graph, level by level (empty when invalid).
    pub order: Vec<Vec<String>>,
    /// Every step, loop bodies and called plans included (empty when invalid).
    pub steps: Vec<Step>,
    pub estimate: Option<Estimate>,
    /// The columns there are where a step names one, by node and field (`totals/by/0`,
    /// `keep/conditions/1/field`): the choices the inspector offers there. Only where the
    /// table's columns are known (from the work folder's files and the steps before).
    pub columns: BTreeMap<String, Vec<String>>,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, TS)]
#[serde(rename_all = "snake_case")]
pub enum GraphNodeKind {
    Block,
    Loop,
    Call,
}

#[derive(Debug, Clone, Serialize, Deserialize, TS)]
pub struct GraphNode {
    /// The node's path: `id`, inside a loop body `loop/inner`.
    pub id: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub block: Option<String>,
    pub kind: GraphNodeKind,
    /// The loop node whose body holds this node.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub parent: Option<String>,
    /// 1-based line of the node in the text.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub line: Option<u32>,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, TS)]
#[serde(rename_all = "snake_case")]
pub enum GraphEdgeKind {
    /// A `${node.alias}` reference in the target's inputs, condition or loop input.
    Data,
    /// The target lists the source in `after`.
    After,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, TS)]
pub struct GraphEdge {
    pub from: String,
    pub to: String,
    pub kind: GraphEdgeKind,
}

#[derive(Debug, Clone, Serialize, Deserialize, TS)]
pub struct PlanGraph {
    pub nodes: Vec<GraphNode>,
    pub edges: Vec<GraphEdge>,
}

#[derive(Debug, Clone, Serialize, Deserialize, TS)]
pub struct RegisterResponse {
    /// The file name under `designs/`.
    pub file: String,
    /// The absolute path.
    pub path: String,
    /// The identical text was already registered; nothing was written.
    pub already_registered: bool,
}

#[derive(Debug, Clone, Serialize, Deserialize, TS)]
pub struct DesignInfo {
    /// The path under the workspace's `designs/`: `invoice_202503141200.yaml`,
    /// `templates/finance/monthly.yaml`.
    pub file: String,
    pub plan_id: String,
    pub version: String,
    /// The plan's description, when it has one.
    pub title: Option<String>,
    /// From a registration's name (`yyyymmddHHMM`, the registering machine's local time):
    /// `2025-03-14T09:26`. None for examples and templates.
    pub registered_at: Option<String>,
    pub template: bool,
    /// Set when the file does not load as a plan: what is wrong (it is listed all the same, so
    /// that nothing is silently left out). `plan_id` is then the file's name and `version` empty.
    pub problem: Option<String>,
}

#[derive(Debug, Clone, Serialize, Deserialize, TS)]
pub struct DesignText {
    pub file: String,
    pub text: String,
}

/// `delete_draft`'s answer: the draft (and its design session) is gone.
#[derive(Debug, Clone, Serialize, Deserialize, TS)]
pub struct DraftDeleted {
    pub name: String,
}

#[derive(Debug, Clone, Serialize, Deserialize, TS)]
pub struct DraftInfo {
    pub name: String,
    pub updated_at: String,
}

#[derive(Debug, Clone, Serialize, Deserialize, TS)]
pub struct DraftText {
    pub name: String,
    pub text: String,
    pub updated_at: String,
    /// The design session kept with it (`save_design_session`), when there is one.
    pub session: Option<crate::design::DesignSession>,
}

/// Which plan to run: a file under `designs/`, or a text.
#[derive(Debug, Clone, Serialize, Deserialize, TS)]
#[serde(untagged)]
pub enum PlanChoice {
    File { file: String },
    Text { text: String },
}

#[derive(Debug, Clone, Serialize, Deserialize, TS)]
pub struct StartRunRequest {
    pub plan: PlanChoice,
    /// Values replacing the plan's var defaults.
    #[serde(default)]
    pub vars: Map<String, Value>,
}

/// What a run needs before it starts, and what of it is missing (`check_run`): one list for the
/// person to complete, so that nothing fails for want of it once the run is going.
#[derive(Debug, Clone, Default, Serialize, Deserialize, TS)]
pub struct RunReadiness {
    /// Nothing is missing: the run may start.
    pub ready: bool,
    pub plan_id: String,
    /// The folder the run reads and writes its files in (absolute).
    pub work_folder: String,
    /// The plan's vars in order, with the value the run would use.
    pub vars: Vec<RunVar>,
    /// The plan's secrets, and where each value would come from; never a value.
    pub secrets: Vec<SecretStatus>,
    /// The files the plan's steps read from the work folder.
    pub files: Vec<InputFile>,
    /// Present when a step needs a language model.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub model: Option<NeedCheck>,
    /// Present when a step drives the browser.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub browser: Option<NeedCheck>,
    /// Everything that stops the run, in the order above.
    pub problems: Vec<ReadinessProblem>,
}

/// A var as the run check shows it: typed and described by the block input it fills.
#[derive(Debug, Clone, Serialize, Deserialize, TS)]
pub struct RunVar {
    pub name: String,
    /// The value the run would use: the one given, else the plan's default.
    pub value: Value,
    pub default: Value,
    /// The type of the input it fills (`string`, `integer`, `file` …), else of its default.
    #[serde(rename = "type")]
    #[ts(rename = "type")]
    pub ty: String,
    /// A path of a file in the work folder: the studio offers a file chooser.
    pub file: bool,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub description: Option<Localized>,
    /// No value: neither given nor a default.
    pub missing: bool,
}

/// A plan secret and where its value comes from (`None`: nowhere yet). Never the value.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, TS)]
pub struct SecretStatus {
    pub name: String,
    #[serde(rename = "where", default, skip_serializing_if = "Option::is_none")]
    #[ts(rename = "where", optional)]
    pub place: Option<KeyPlace>,
}

/// `set_secret`'s body: the value to store.
#[derive(Clone, Serialize, Deserialize, TS)]
pub struct SecretValue {
    pub value: String,
}

/// A file a step reads, and whether it is in the work folder.
#[derive(Debug, Clone, Serialize, Deserialize, TS)]
pub struct InputFile {
    pub node: String,
    pub input: String,
    /// As the plan (or the var) gives it, relative to the work folder.
    pub path: String,
    pub present: bool,
    /// The var that names the file, when the plan takes it from one (else the path is written
    /// in the step, and changed there).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub var: Option<String>,
    /// For a file that is not there: files of the work folder the person may have meant.
    #[serde(default)]
    pub meant: Vec<String>,
}

/// Whether something a run needs is there, and if not, what is wrong.
#[derive(Debug, Clone, Serialize, Deserialize, TS)]
pub struct NeedCheck {
    pub ok: bool,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub detail: Option<String>,
}

/// One thing that stops a run: a code and its subject for the person's language, and the
/// sentence in English for logs and the command line.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, TS)]
pub struct ReadinessProblem {
    pub code: ReadinessCode,
    /// The var, secret or file concerned; for the model and the browser, what is wrong.
    pub subject: String,
    pub message: String,
}

impl ReadinessProblem {
    pub(crate) fn new(code: ReadinessCode, subject: &str, message: String) -> ReadinessProblem {
        ReadinessProblem { code, subject: subject.to_owned(), message }
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, TS)]
#[serde(rename_all = "snake_case")]
pub enum ReadinessCode {
    VarMissing,
    SecretMissing,
    FileMissing,
    ModelMissing,
    BrowserMissing,
}

/// What a run produced (`run_results`): the values its last nodes gave, and the files it wrote.
#[derive(Debug, Clone, Serialize, Deserialize, TS)]
pub struct RunResults {
    pub values: Vec<ResultValue>,
    pub files: Vec<ResultFile>,
}

/// One output of one of the run's last nodes.
#[derive(Debug, Clone, Serialize, Deserialize, TS)]
pub struct ResultValue {
    pub node: String,
    pub alias: String,
    /// The value; a list cut to its first rows (`rows` says how many there are).
    pub value: Value,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub rows: Option<usize>,
}

/// A file the run wrote, with a preview.
#[derive(Debug, Clone, Serialize, Deserialize, TS)]
pub struct ResultFile {
    pub node: String,
    pub name: String,
    /// As recorded (absolute): what `run_artifact` reads.
    pub path: String,
    /// Relative to the workspace when it is in it.
    pub shown_path: String,
    /// A report the plan writes (rather than a data file).
    pub report: bool,
    pub bytes: u64,
    pub media_type: String,
    pub preview: FilePreview,
}

#[derive(Debug, Clone, Serialize, Deserialize, TS)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum FilePreview {
    /// CSV or a workbook's first sheet: the header row, the first rows, and how many there are.
    Table {
        #[serde(default, skip_serializing_if = "Option::is_none")]
        #[ts(optional)]
        sheet: Option<String>,
        columns: Vec<String>,
        rows: Vec<Vec<String>>,
        total_rows: usize,
    },
    Text {
        text: String,
        markdown: bool,
        truncated: bool,
    },
    Json {
        value: Value,
    },
    /// Shown from `run_artifact`.
    Image,
    None {
        reason: String,
    },
}

#[derive(Debug, Clone, Serialize, Deserialize, TS)]
pub struct StartRunResponse {
    pub run_id: String,
}

#[derive(Debug, Clone, Serialize, Deserialize, TS)]
pub struct StopRunResponse {
    pub stopping: bool,
}

/// `run_events`: the events after sequence number `after` (0: all).
#[derive(Debug, Clone, Copy, Default, Serialize, Deserialize, TS)]
pub struct EventsAfter {
    #[serde(default)]
    #[ts(as = "Option<u64>", optional)]
    pub after: u64,
}

/// `edit_plan`: an edit of a plan's text, made on the parsed document so that the rest of the
/// text — comments, formatting — stays as written.
#[derive(Debug, Clone, Serialize, Deserialize, TS)]
pub struct PlanEditRequest {
    pub text: String,
    pub edit: PlanEdit,
}

#[derive(Debug, Clone, Serialize, Deserialize, TS)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum PlanEdit {
    /// A node for the catalog's block `block`: an id not used yet, its required inputs (their
    /// defaults, else empty for the person to fill: each empty one is a finding until it is),
    /// its outputs bound to aliases not used yet; appended to the graph.
    AddBlock { block: String },
    /// A graph item as given, appended to the graph.
    InsertNode { node: Value },
    /// Input `input` of node `node` (a path: `each/inner`) set to `value`.
    SetInput { node: String, input: String, value: Value },
    /// Var `name` set to `value`.
    SetVar { name: String, value: Value },
}

#[derive(Debug, Clone, Serialize, Deserialize, TS)]
pub struct PlanEdited {
    pub text: String,
    /// Where the change begins, in UTF-16 code units (a JavaScript string's index).
    pub at: usize,
    /// The node added (`add_block`, `insert_node`), by its id.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub node: Option<String>,
}

#[derive(Debug, Clone, Serialize, Deserialize, TS)]
pub struct AnswerRequest {
    /// The node path of the `input_requested` event.
    pub node: String,
    pub answer: planwright_runs::InputAnswer,
}

#[derive(Debug, Clone, Serialize, Deserialize, TS)]
pub struct AnswerResponse {
    pub accepted: bool,
}

/// Which of a run's artifacts to read: its path as the run recorded it.
#[derive(Debug, Clone, Default, Serialize, Deserialize, TS)]
pub struct ArtifactRequest {
    pub path: String,
}

/// `run_table`: a page of a table one of the run's nodes gave, beyond the results' preview.
#[derive(Debug, Clone, Default, Serialize, Deserialize, TS)]
pub struct TableRequest {
    pub node: String,
    pub alias: String,
    /// The page's first row, from 0.
    #[serde(default)]
    pub offset: usize,
    /// Rows on the page: 100 when not given, at most 1,000.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub limit: Option<usize>,
}

/// Rows of a table a run gave, from `offset`.
#[derive(Debug, Clone, Serialize, Deserialize, TS)]
pub struct TablePage {
    /// The table's columns, in order (a table without rows has them too).
    pub columns: Vec<String>,
    /// Each row an object of its cells, masked as the run's record is.
    pub rows: Vec<Value>,
    pub offset: usize,
    /// How many rows the table has.
    pub total: usize,
}

/// `open_artifact`: a file a run wrote, to open with the system's application for its kind, or
/// to show in its folder.
#[derive(Debug, Clone, Serialize, Deserialize, TS)]
pub struct OpenArtifactRequest {
    pub path: String,
    /// Open the folder that holds the file (in the file manager) instead of the file.
    pub folder: bool,
}

/// The work folder and the files in it, relative to it (`data/payments.csv`).
#[derive(Debug, Clone, Serialize, Deserialize, TS)]
pub struct WorkFiles {
    /// The work folder's absolute path.
    pub folder: String,
    pub files: Vec<String>,
    /// The folder holds more files than are listed.
    pub truncated: bool,
}

/// What `open_artifact` handed to the system: the file or its folder.
#[derive(Debug, Clone, Serialize, Deserialize, TS)]
pub struct ArtifactOpened {
    pub opened: String,
}

/// A run's artifact: what it is and its bytes, Base64-encoded.
#[derive(Debug, Clone, Serialize, Deserialize, TS)]
pub struct ArtifactData {
    pub path: String,
    /// `image/png`, `text/markdown`, `application/x-ndjson`, `text/html` …
    pub media_type: String,
    pub bytes: usize,
    pub base64: String,
}

#[derive(Debug, Clone, Default, Serialize, Deserialize, TS)]
pub struct RunFilter {
    #[serde(default)]
    #[ts(optional)]
    pub status: Option<RunStatus>,
    #[serde(default)]
    #[ts(optional)]
    pub plan_id: Option<String>,
    #[serde(default)]
    #[ts(optional)]
    pub limit: Option<usize>,
}

#[derive(Debug, Clone, Serialize, TS)]
pub struct RunDetail {
    pub summary: RunSummary,
    pub plan_text: String,
    pub events: Vec<Event>,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize, TS)]
#[serde(rename_all = "snake_case")]
pub enum Locale {
    #[default]
    System,
    En,
    Ja,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize, TS)]
#[serde(rename_all = "snake_case")]
pub enum Theme {
    #[default]
    System,
    Light,
    Dark,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, TS)]
pub struct StudioSettings {
    pub workspace: String,
    pub browser_path: Option<String>,
    pub locale: Locale,
    pub theme: Theme,
    pub models: ModelSettings,
    /// The objective runner's planning and task loop (`planning:` in `settings.yaml`).
    pub planning: planwright_objectives::planning::PlanningSettings,
    /// Why the planning settings on file could not be read (the defaults are shown instead).
    #[ts(optional)]
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub planning_problem: Option<String>,
}

/// `openai`, `azure`, `compatible` (any OpenAI-compatible server) or `offline`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, TS)]
#[serde(rename_all = "snake_case")]
pub enum ProviderChoice {
    Openai,
    Azure,
    Compatible,
    Offline,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, TS)]
pub struct TierChoice {
    pub model: String,
    pub temperature: f32,
    pub max_tokens: u32,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, TS)]
pub struct TierChoices {
    pub creative: TierChoice,
    pub fast: TierChoice,
    pub evaluator: TierChoice,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, TS)]
pub struct ModelSettings {
    pub provider: ProviderChoice,
    pub base_url: Option<String>,
    pub azure_endpoint: Option<String>,
    pub azure_api_version: Option<String>,
    pub tiers: TierChoices,
    pub embedding_model: Option<String>,
    /// Where the provider's key is; ignored by `save_settings` (use `set_api_key`).
    #[serde(default)]
    #[ts(as = "Option<KeyStatus>", optional)]
    pub key: KeyStatus,
    /// A problem with the settings as they stand (a provider without its key …), in plain words.
    #[serde(default)]
    #[ts(optional)]
    pub problem: Option<String>,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, TS)]
#[serde(rename_all = "snake_case")]
pub enum KeyPlace {
    Keyring,
    File,
    Environment,
}

/// Whether the provider's API key is there; never the key.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize, TS)]
pub struct KeyStatus {
    pub stored: bool,
    /// `sk-…abcd`: enough to recognise the key, never enough to use it.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub hint: Option<String>,
    #[serde(rename = "where", skip_serializing_if = "Option::is_none")]
    #[ts(rename = "where", optional)]
    pub place: Option<KeyPlace>,
}

#[derive(Debug, Clone, Serialize, Deserialize, TS)]
pub struct SetKeyRequest {
    /// `openai` (also used by `compatible` servers) or `azure`.
    pub provider: ProviderChoice,
    pub key: String,
}

/// One thing runs need from the machine (`planwright doctor`): what was found, or what is
/// wrong and what to do.
#[derive(Debug, Clone, Serialize, Deserialize, TS)]
pub struct SystemCheck {
    /// `browser`, `data home` or `workspace`.
    pub part: String,
    pub ok: bool,
    /// What was found (a path), or what is wrong.
    pub detail: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub fix: Option<String>,
}

impl SystemCheck {
    pub(crate) fn ok(part: &str, detail: String) -> SystemCheck {
        SystemCheck { part: part.into(), ok: true, detail, fix: None }
    }

    pub(crate) fn failed(part: &str, detail: String, fix: &str) -> SystemCheck {
        SystemCheck { part: part.into(), ok: false, detail, fix: (!fix.is_empty()).then(|| fix.to_owned()) }
    }
}

/// What `planwright doctor --format json` prints.
#[derive(Debug, Clone, Serialize, Deserialize, TS)]
pub struct ModelCheck {
    pub ok: bool,
    pub offline: bool,
    pub provider: Option<String>,
    pub settings_file: String,
    /// Settings that could not be read (then there are no checks).
    pub problem: Option<String>,
    pub checks: Vec<PartCheck>,
}

#[derive(Debug, Clone, Serialize, Deserialize, TS)]
pub struct PartCheck {
    /// `creative`, `fast`, `evaluator` or `embeddings`.
    pub part: String,
    pub model: String,
    pub ok: bool,
    pub answered_by: Option<String>,
    #[ts(type = "number | null")]
    pub latency_ms: Option<u64>,
    pub problem: Option<String>,
    pub fix: Option<String>,
}

/// A field of an answer that was refused, and why.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, TS)]
pub struct FieldProblem {
    pub field: String,
    /// In English.
    pub message: String,
    /// The same, coded for the studio's language (`run.said.<key>`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional = nullable)]
    pub said: Option<planwright_runs::RunMessage>,
}
