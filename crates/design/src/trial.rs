//! A plan tried on the work folder's files before it is given. The design engine does not run
//! plans; a caller that can (the studio, the command line) tries one for it, on copies.

use std::future::Future;
use std::pin::Pin;

use planwright_plan::Plan;

/// What a plan did when tried: how many rows it read and, for each file it wrote, how many rows.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Trial {
    pub rows_read: usize,
    /// The file each writing step wrote, with its rows.
    pub written: Vec<(String, usize)>,
}

impl Trial {
    /// The first file written empty from files that have rows: the plan kept nothing of them.
    pub fn nothing_written(&self) -> Option<&str> {
        let empty = self.written.iter().find(|(_, rows)| *rows == 0);
        empty.filter(|_| self.rows_read > 0).map(|(file, _)| file.as_str())
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
        let trial = |rows_read, written: &[(&str, usize)]| Trial {
            rows_read,
            written: written.iter().map(|(file, rows)| (file.to_string(), *rows)).collect(),
        };
        assert_eq!(trial(3, &[("all.csv", 3), ("big.csv", 0)]).nothing_written(), Some("big.csv"));
        assert_eq!(trial(3, &[("big.csv", 1)]).nothing_written(), None);
        assert_eq!(trial(0, &[("big.csv", 0)]).nothing_written(), None, "nothing to keep: nothing lost");
    }
}
