//! The single-file report formats and how a file name chooses one.

use std::path::Path;

use crate::{ReportError, ReportOptions, RunRecord};

/// A report written as one file.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Format {
    Junit,
    Html,
}

impl Format {
    /// The format a file's extension names: `.xml` JUnit, `.html` or `.htm` HTML (any case).
    pub fn for_path(path: &Path) -> Result<Format, ReportError> {
        let extension = path.extension().and_then(|e| e.to_str()).map(str::to_ascii_lowercase);
        match extension.as_deref() {
            Some("xml") => Ok(Format::Junit),
            Some("html" | "htm") => Ok(Format::Html),
            _ => Err(ReportError::UnknownFormat { path: path.to_path_buf() }),
        }
    }

    /// The report of `run` in this format; the HTML page for the reader `options` describes
    /// (JUnit XML is for tools: English, times in UTC).
    pub fn render(self, run: &RunRecord, options: &ReportOptions) -> String {
        match self {
            Format::Junit => crate::junit(run),
            Format::Html => crate::html(run, options),
        }
    }

    pub fn extension(self) -> &'static str {
        match self {
            Format::Junit => "xml",
            Format::Html => "html",
        }
    }

    pub fn media_type(self) -> &'static str {
        match self {
            Format::Junit => "application/xml",
            Format::Html => "text/html",
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_extension_chooses_the_format_and_another_is_refused_naming_the_known_ones() {
        assert_eq!(Format::for_path(Path::new("out/junit.xml")).unwrap(), Format::Junit);
        assert_eq!(Format::for_path(Path::new("Report.HTML")).unwrap(), Format::Html);
        assert_eq!(Format::for_path(Path::new("r.htm")).unwrap(), Format::Html);
        for refused in ["report.pdf", "report", "dir.xml/report.json"] {
            let error = Format::for_path(Path::new(refused)).unwrap_err().to_string();
            assert!(error.contains(".xml") && error.contains(".html") && error.starts_with(refused), "{error}");
        }
    }
}
