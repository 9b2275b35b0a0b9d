//! The one error type of every operation: a stable code, a sentence for a person, and what
//! would fix it — in English, for logs and the command line, and for the errors the studio shows,
//! the same as an [`ApiMessage`] with its parameters, which the UI says in the person's language.
//! Never a secret's value, never an API key.

use serde::{Deserialize, Serialize};
use ts_rs::TS;

use crate::types::{FieldProblem, Finding, ReadinessProblem};

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, TS)]
#[serde(rename_all = "snake_case")]
pub enum ErrorCode {
    /// No such design, draft, run or pending question.
    NotFound,
    /// The request cannot be done as asked (an invalid plan, a refused answer, a bad name).
    InvalidInput,
    /// It clashes with what is there (a registration name taken by another text).
    Conflict,
    /// Something outside is missing or broken (the keyring, the model settings).
    Unavailable,
    /// A fault of ours or of the machine (a disk error, the run store).
    Internal,
}

#[derive(Debug, Clone, Serialize, Deserialize, TS, thiserror::Error)]
#[error("{message}")]
pub struct ApiError {
    pub code: ErrorCode,
    pub message: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub hint: Option<String>,
    /// `answer_input`: what is wrong with each field of a refused answer. (A boxed slice, so that
    /// the type every operation returns stays small.)
    #[serde(default, skip_serializing_if = "<[_]>::is_empty")]
    #[ts(as = "Option<Vec<FieldProblem>>", optional)]
    pub fields: Box<[FieldProblem]>,
    /// `register`, `start_run`: the plan's errors.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    #[ts(as = "Option<Vec<Finding>>", optional)]
    pub findings: Vec<Finding>,
    /// `start_run`: what the run check found missing. (Boxed: every operation returns this type,
    /// and it stays small.)
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(as = "Option<Vec<ReadinessProblem>>", optional)]
    pub readiness: Option<Box<[ReadinessProblem]>>,
    /// The message and its hint as a code with parameters, for the UI to say in the person's
    /// language (`ui/src/lib/i18n`, key `api.said.<key>`); absent for the rarer faults, which are
    /// shown as `message` and `hint`. (Boxed, as `readiness` is.)
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(as = "Option<ApiMessage>", optional)]
    pub said: Option<Box<ApiMessage>>,
}

/// What an [`ApiError`] says, as a code with parameters: the message and what would fix it in
/// one. Serialized as `{"key": "<snake_case>", "params": {…}}` (no `params` for a message without
/// any). Parameters are names, paths and numbers, or English text from elsewhere (`detail`),
/// never translated.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, TS)]
#[serde(tag = "key", content = "params", rename_all = "snake_case")]
pub enum ApiMessage {
    RunNotFound {
        run_id: String,
    },
    RunStoreFailed {
        detail: String,
    },
    WorkspaceFileFailed {
        path: String,
        detail: String,
    },
    NoHomeFolder,
    NotAPlanFileName {
        name: String,
        max: u64,
    },
    LinkOutsideWorkspace {
        name: String,
    },
    NotThere {
        name: String,
    },
    DraftNameHasFolder {
        name: String,
    },
    PlanUnreadable {
        detail: String,
    },
    NotAPlan,
    NotRegisteredErrors {
        count: u64,
    },
    RegistrationNameTaken {
        path: String,
    },
    UnknownBlock {
        block: String,
    },
    EditRefused {
        detail: String,
    },
    InstructionEmpty,
    TemplateNotFound {
        id: String,
    },
    GenerationNotFound {
        generation: String,
    },
    GenerationRefused {
        detail: String,
    },
    AnswerNotFilled {
        label: String,
        detail: String,
    },
    NothingToAskAtRunTime,
    RunNotReady,
    NotStartedErrors {
        count: u64,
    },
    UnknownVar {
        name: String,
    },
    SecretsMissing {
        names: String,
    },
    NotResumable {
        run_id: String,
        detail: String,
    },
    RunGoingOn {
        run_id: String,
    },
    RunNotGoingOn {
        run_id: String,
    },
    NotWaitingForAnswer {
        run_id: String,
        node: String,
    },
    AnswerRefused,
    ArtifactNotRecorded {
        path: String,
    },
    ArtifactMissing {
        path: String,
    },
    ArtifactRefused {
        path: String,
        detail: String,
    },
    TableNotKept {
        node: String,
        alias: String,
    },
    TableUnreadable {
        node: String,
        detail: String,
    },
    /// The system's own words (an exit status) stay in the English message, for whoever debugs it.
    OpenFailed {
        path: String,
    },
    SecretValueEmpty {
        name: String,
    },
    NotASecretName {
        name: String,
    },
    KeysFileUnreadable {
        path: String,
    },
    SettingsFileUnreadable {
        path: String,
        detail: String,
    },
    SettingsNotSaved {
        detail: String,
    },
    WorkspaceNotAbsolute {
        workspace: String,
    },
    PlanningValueRefused {
        detail: String,
    },
    ApiKeyMalformed,
    OfflineNeedsNoKey,
    BaseUrlMissing {
        example: String,
    },
    AzureEndpointMissing {
        example: String,
    },
    TierIncomplete {
        tier: String,
    },
    DocumentNotBase64 {
        name: String,
    },
    DocumentTooLarge {
        name: String,
        mb: u64,
        max_mb: u64,
    },
    DocumentNotFound {
        name: String,
    },
    DocumentNameRefused {
        name: String,
    },
    DocumentNameTooLong {
        name: String,
        bytes: u64,
        max_bytes: u64,
    },
    DocumentKindRefused {
        name: String,
        extensions: String,
    },
    DocumentNameExhausted {
        name: String,
    },
    BodyTooSlow,
    BodyNotJson,
    BodyInvalidJson {
        detail: String,
    },
    BodyWrongShape {
        detail: String,
    },
    BodyTooLarge,
    BodyUnreadable {
        detail: String,
    },
    AddressUnreadable {
        detail: String,
    },
    QueryUnreadable {
        detail: String,
    },
}

impl ApiError {
    pub fn new(code: ErrorCode, message: impl Into<String>) -> ApiError {
        ApiError {
            code,
            message: message.into(),
            hint: None,
            fields: Box::default(),
            findings: Vec::new(),
            readiness: None,
            said: None,
        }
    }

    pub fn not_found(message: impl Into<String>) -> ApiError {
        ApiError::new(ErrorCode::NotFound, message)
    }

    pub fn invalid(message: impl Into<String>) -> ApiError {
        ApiError::new(ErrorCode::InvalidInput, message)
    }

    pub fn internal(message: impl Into<String>) -> ApiError {
        ApiError::new(ErrorCode::Internal, message)
    }

    pub fn with_hint(mut self, hint: impl Into<String>) -> ApiError {
        self.hint = Some(hint.into());
        self
    }

    /// The same error as `said`, for the UI to say in the person's language.
    pub fn saying(mut self, said: ApiMessage) -> ApiError {
        self.said = Some(Box::new(said));
        self
    }

    /// The HTTP status this error travels with.
    pub fn status(&self) -> u16 {
        match self.code {
            ErrorCode::NotFound => 404,
            ErrorCode::InvalidInput => 400,
            ErrorCode::Conflict => 409,
            ErrorCode::Unavailable => 503,
            ErrorCode::Internal => 500,
        }
    }
}

impl From<planwright_runs::StoreError> for ApiError {
    fn from(error: planwright_runs::StoreError) -> ApiError {
        if let planwright_runs::StoreError::NotFound { run_id, .. } = &error {
            return ApiError::not_found(format!("there is no run {run_id}"))
                .with_hint("pick a run from the run history (list_runs)")
                .saying(ApiMessage::RunNotFound { run_id: run_id.clone() });
        }
        if let planwright_runs::StoreError::Active { run_id, .. } = &error {
            return ApiError::new(ErrorCode::Conflict, error.to_string())
                .with_hint("wait for the run to end, or stop it where it runs, then resume it")
                .saying(ApiMessage::NotResumable { run_id: run_id.clone(), detail: error.to_string() });
        }
        ApiError::internal(format!("the run store: {error}"))
            .with_hint("check that the data folder (PLANWRIGHT_HOME) is writable and not full")
            .saying(ApiMessage::RunStoreFailed { detail: error.to_string() })
    }
}
