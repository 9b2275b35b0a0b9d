//! What extracting one file gives: its text with what was left out, or why it was skipped.

use serde::{Deserialize, Serialize};

use crate::sniff::Format;

/// One file's extraction.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Outcome {
    Read(Document),
    Skipped(Skip),
}

impl Outcome {
    pub fn name(&self) -> &str {
        match self {
            Outcome::Read(d) => &d.name,
            Outcome::Skipped(s) => &s.name,
        }
    }
}

/// The text read from one file.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Document {
    /// The file name shown to people, e.g. `請求書_202404.pdf`.
    pub name: String,
    /// What the content turned out to be (whatever the extension said).
    pub format: Format,
    pub text: String,
    /// True when part of the file was left out: pages or rows beyond the limits, or text beyond
    /// the character budget.
    pub truncated: bool,
    /// What a person should know, one sentence each: the wrong extension, the pages read of
    /// how many, a page that could not be read, no text layer.
    pub notes: Vec<String>,
    /// How many pages a PDF has (read or not).
    #[serde(default)]
    pub pages: Option<u32>,
    /// How many worksheets a workbook has (read or not).
    #[serde(default)]
    pub sheets: Option<u32>,
}

impl Document {
    pub fn chars(&self) -> usize {
        self.text.chars().count()
    }
}

/// A file that gave no text, and why, in plain words.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Skip {
    pub name: String,
    /// Why, e.g. "encrypted" or "not a valid Word file (zip is truncated or damaged)".
    pub reason: String,
    /// What would let it be read, when something would.
    pub hint: Option<String>,
}

impl Skip {
    /// "statement.pdf: encrypted, skipped; save a copy without a password…"
    pub fn message(&self) -> String {
        match &self.hint {
            Some(hint) => format!("{}: {}, skipped; {hint}", self.name, self.reason),
            None => format!("{}: {}, skipped", self.name, self.reason),
        }
    }
}

/// The reason a reader gives up on a file, before the file's name is attached.
#[derive(Debug)]
pub(crate) struct Unreadable {
    pub reason: String,
    pub hint: Option<String>,
}

impl Unreadable {
    pub fn new(reason: impl Into<String>) -> Self {
        Unreadable { reason: reason.into(), hint: None }
    }

    pub fn hint(mut self, hint: impl Into<String>) -> Self {
        self.hint = Some(hint.into());
        self
    }

    /// The reason and the hint as one sentence, for callers that name the file themselves.
    pub fn sentence(self) -> String {
        match self.hint {
            Some(hint) => format!("{}; {hint}", self.reason),
            None => self.reason,
        }
    }

    pub fn named(self, name: &str) -> Skip {
        Skip { name: name.to_string(), reason: self.reason, hint: self.hint }
    }
}

/// A reader's text before the file's name and format are attached.
#[derive(Debug, Default)]
pub(crate) struct Extracted {
    pub text: String,
    pub truncated: bool,
    pub notes: Vec<String>,
    pub pages: Option<u32>,
    pub sheets: Option<u32>,
}
