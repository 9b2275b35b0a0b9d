//! The columns of a table as a plan's steps see them: names and kinds. The checker predicts them
//! along the plan's edges; the readers report them from the files in the work folder.

use serde::{Deserialize, Serialize};

/// What the values of a column are. A column is `Number`, `Date` or `Time` when every non-blank value
/// reads as one (amounts written "¥1,200" or "1,200" included), `Text` when one does not.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum ColumnKind {
    Text,
    Number,
    Date,
    /// Clock times of a day alone (`9:00`, `17:30`): a difference of two is minutes.
    Time,
    Boolean,
    /// Not known (no value seen, or values of several kinds from a source that does not say).
    Unknown,
}

impl ColumnKind {
    /// The kind in words, for findings.
    pub fn as_str(self) -> &'static str {
        match self {
            ColumnKind::Text => "text",
            ColumnKind::Number => "number",
            ColumnKind::Date => "date",
            ColumnKind::Time => "time of day",
            ColumnKind::Boolean => "true/false",
            ColumnKind::Unknown => "unknown",
        }
    }
}

/// One column: its name as the table writes it, and its kind.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Column {
    pub name: String,
    pub kind: ColumnKind,
}
