//! The bounds every extraction keeps to.

use std::time::Duration;

use serde::{Deserialize, Serialize};

/// How much of a file is read, and how long and how large it may be.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Limits {
    /// PDF pages read, from the first.
    pub max_pages: u32,
    /// Spreadsheet rows read per sheet, from the top of the used range.
    pub max_rows: u32,
    /// Spreadsheet columns read per sheet, from the left of the used range.
    pub max_columns: u32,
    /// Read every sheet of a workbook, not only the first.
    pub all_sheets: bool,
    /// Characters over all files together (one file never gives more than this either).
    pub max_chars: usize,
    /// Files larger than this are skipped unread.
    pub max_file_bytes: u64,
    /// What the parts of a Word or Excel file may inflate to, together; a zip bomb stops here.
    pub max_unzipped_bytes: u64,
    /// How long one file may take before it is given up.
    pub deadline: Duration,
    /// The worker process's address-space limit (Unix), so that a decompression bomb the
    /// zip check cannot see (a PDF stream) ends that process, not the program.
    pub worker_memory_bytes: u64,
}

impl Default for Limits {
    fn default() -> Self {
        Limits {
            max_pages: 20,
            max_rows: 200,
            max_columns: 30,
            all_sheets: false,
            max_chars: 100_000,
            max_file_bytes: 200 * 1024 * 1024,
            max_unzipped_bytes: 512 * 1024 * 1024,
            deadline: Duration::from_secs(20),
            worker_memory_bytes: 4 * 1024 * 1024 * 1024,
        }
    }
}
