//! [`Secret`]: an API key that never shows itself.

use std::fmt;

/// An API key. Its `Debug` and `Display` print `<redacted>`, it has no `Serialize`, so it cannot
/// reach a log, an error message or a file the program writes; only [`Secret::expose`] gives the
/// value, for the one header that carries it.
#[derive(Clone, PartialEq, Eq)]
pub struct Secret(String);

impl Secret {
    pub fn new(value: impl Into<String>) -> Secret {
        Secret(value.into())
    }

    pub fn expose(&self) -> &str {
        &self.0
    }
}

impl fmt::Debug for Secret {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("<redacted>")
    }
}

impl fmt::Display for Secret {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("<redacted>")
    }
}
