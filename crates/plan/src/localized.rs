//! Text in English and Japanese: block specs, templates and the studio carry both.

use serde::{Deserialize, Serialize};

/// Text in English and Japanese. Our users write instructions in both; retrieval and the studio
/// read both.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Localized<T> {
    pub en: T,
    pub ja: T,
}
