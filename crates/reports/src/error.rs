//! What can go wrong writing a report: a file name whose format is unknown, a file that cannot
//! be written. Reading the record never fails (what is missing is said in the report).

use std::path::PathBuf;

#[derive(Debug, thiserror::Error)]
pub enum ReportError {
    #[error(
        "{}: the report's format follows its extension: .xml (JUnit), .html or .htm (HTML)",
        .path.display()
    )]
    UnknownFormat { path: PathBuf },
    #[error("cannot write {}: {source}", .path.display())]
    Write { path: PathBuf, source: std::io::Error },
}
