//! A plan tried on the work folder's files before it is given. The design engine does not run
//! plans; a caller that can (the studio, the command line) tries one for it, on copies.

use std::future::Future;
use std::pin::Pin;

use planwright_plan::Plan;

/// What a plan did when tried: how many rows it read and what it wrote.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Trial {
    pub rows_read: usize,
    /// What each writing step wrote.
    pub written: Vec<Written>,
}

/// A file a plan wrote when tried.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Written {
    pub file: String,
    pub rows: usize,
    /// The columns of its table (of its first row); `None` for a workbook of several sheets.
    pub columns: Option<usize>,
}

impl Trial {
    /// The first file written empty from files that have rows: the plan kept nothing of them.
    pub fn nothing_written(&self) -> Option<&str> {
        let empty = self.written.iter().find(|w| w.rows == 0);
        empty.filter(|_| self.rows_read > 0).map(|w| w.file.as_str())
    }

    /// The first file written with rows of other than `columns` columns.
    pub fn other_columns_than(&self, columns: usize) -> Option<&str> {
        let other = self.written.iter().find(|w| w.rows > 0 && w.columns.is_some_and(|c| c != columns));
        other.map(|w| w.file.as_str())
    }
}

/// Tries a plan on the work folder's files, with no answers.
pub trait TrialRun: Sync {
    /// `None` when the plan was not tried (it does more than read, shape and write tables; a
    /// file it reads is not there) or the trial failed.
    fn try_plan<'a>(&'a self, plan: &'a Plan) -> Pin<Box<dyn Future<Output = Option<Trial>> + Send + 'a>>;
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_file_written_empty_from_rows_read_is_named_and_an_empty_input_is_not() {
        assert_eq!(trial(3, &[("all.csv", 3), ("big.csv", 0)]).nothing_written(), Some("big.csv"));
        assert_eq!(trial(3, &[("big.csv", 1)]).nothing_written(), None);
        assert_eq!(trial(0, &[("big.csv", 0)]).nothing_written(), None, "nothing to keep: nothing lost");
    }

    #[test]
    fn a_file_written_with_other_columns_than_said_is_named() {
        assert_eq!(trial(3, &[("list.csv", 3)]).other_columns_than(1), Some("list.csv"));
        assert_eq!(trial(3, &[("list.csv", 3)]).other_columns_than(4), None);
        assert_eq!(trial(3, &[("list.csv", 0)]).other_columns_than(1), None, "no rows: no columns to count");
    }

    /// A trial that read `rows_read` rows and wrote each file with its rows, in four columns.
    fn trial(rows_read: usize, written: &[(&str, usize)]) -> Trial {
        Trial {
            rows_read,
            written: written
                .iter()
                .map(|(file, rows)| Written { file: file.to_string(), rows: *rows, columns: Some(4) })
                .collect(),
        }
    }
}
