//! The one error type of every operation: a stable code, a sentence for a person, and what
//! would fix it. Never a secret's value, never an API key.

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
    /// `answer_input`: what is wrong with each field of a refused answer.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    #[ts(as = "Option<Vec<FieldProblem>>", optional)]
    pub fields: Vec<FieldProblem>,
    /// `register`, `start_run`: the plan's errors.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    #[ts(as = "Option<Vec<Finding>>", optional)]
    pub findings: Vec<Finding>,
    /// `start_run`: what the run check found missing. (Boxed: every operation returns this type,
    /// and it stays small.)
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(as = "Option<Vec<ReadinessProblem>>", optional)]
    pub readiness: Option<Box<[ReadinessProblem]>>,
}

impl ApiError {
    pub fn new(code: ErrorCode, message: impl Into<String>) -> ApiError {
        ApiError {
            code,
            message: message.into(),
            hint: None,
            fields: Vec::new(),
            findings: Vec::new(),
            readiness: None,
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
                .with_hint("pick a run from the run history (list_runs)");
        }
        ApiError::internal(format!("the run store: {error}"))
            .with_hint("check that the data folder (PLANWRIGHT_HOME) is writable and not full")
    }
}
