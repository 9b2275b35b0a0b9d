//! The end-to-end evaluation of the design engine (`eval/jobs.yaml`): each job is input files,
//! an instruction and the table the plan must write. A plan is judged by that table, compared
//! by values (column names and order are free; row order only where the job asks for one).
//! Running a plan and reading the file it wrote is the caller's (`planwright bench generate`).

use indexmap::IndexMap;
use serde::Deserialize;
use serde_json::Value;

/// One job.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Job {
    pub id: String,
    /// `en` or `ja`.
    pub language: String,
    /// `heldout` or `blind` (never tuned on), or `tuned`.
    pub part: String,
    pub instruction: String,
    /// The input files by name.
    pub files: IndexMap<String, JobFile>,
    /// The file the plan must write.
    #[serde(default)]
    pub output: Option<String>,
    /// Whether row order counts.
    #[serde(default)]
    pub ordered: bool,
    /// The expected table: a header row (not compared), then the rows.
    #[serde(default)]
    pub expected: Option<Vec<Vec<Value>>>,
    /// `ask`: the job is too vague to do; the engine must ask instead.
    #[serde(default)]
    pub expect: Option<String>,
}

impl Job {
    /// Whether the right answer is a question, not a plan.
    pub fn expects_question(&self) -> bool {
        self.expect.as_deref() == Some("ask")
    }
}

/// An input file: CSV text, or a sheet with optional title rows above its header.
#[derive(Debug, Clone, Deserialize)]
#[serde(untagged)]
pub enum JobFile {
    Text(String),
    Sheet {
        sheet: String,
        #[serde(default)]
        title_rows: Vec<String>,
        rows: Vec<Vec<Value>>,
    },
}

#[derive(Deserialize)]
struct JobSet {
    jobs: Vec<Job>,
}

/// The job files: `jobs.yaml` (its held-out part written before any tuning, then the tuned
/// part), `jobs_tuned_2.yaml` to `jobs_tuned_23.yaml` (more tuned jobs), `jobs_blind.yaml` to
/// `jobs_blind_21.yaml` (written blind by sessions that had not seen the engine, measured unseen,
/// tuned on once opened).
const JOB_FILES: [(&str, &str); 44] = [
    ("jobs.yaml", include_str!("../eval/jobs.yaml")),
    ("jobs_tuned_2.yaml", include_str!("../eval/jobs_tuned_2.yaml")),
    ("jobs_tuned_3.yaml", include_str!("../eval/jobs_tuned_3.yaml")),
    ("jobs_tuned_4.yaml", include_str!("../eval/jobs_tuned_4.yaml")),
    ("jobs_tuned_5.yaml", include_str!("../eval/jobs_tuned_5.yaml")),
    ("jobs_tuned_6.yaml", include_str!("../eval/jobs_tuned_6.yaml")),
    ("jobs_tuned_7.yaml", include_str!("../eval/jobs_tuned_7.yaml")),
    ("jobs_tuned_8.yaml", include_str!("../eval/jobs_tuned_8.yaml")),
    ("jobs_tuned_9.yaml", include_str!("../eval/jobs_tuned_9.yaml")),
    ("jobs_tuned_10.yaml", include_str!("../eval/jobs_tuned_10.yaml")),
    ("jobs_tuned_11.yaml", include_str!("../eval/jobs_tuned_11.yaml")),
    ("jobs_tuned_12.yaml", include_str!("../eval/jobs_tuned_12.yaml")),
    ("jobs_tuned_13.yaml", include_str!("../eval/jobs_tuned_13.yaml")),
    ("jobs_tuned_14.yaml", include_str!("../eval/jobs_tuned_14.yaml")),
    ("jobs_tuned_15.yaml", include_str!("../eval/jobs_tuned_15.yaml")),
    ("jobs_tuned_16.yaml", include_str!("../eval/jobs_tuned_16.yaml")),
    ("jobs_tuned_17.yaml", include_str!("../eval/jobs_tuned_17.yaml")),
    ("jobs_tuned_18.yaml", include_str!("../eval/jobs_tuned_18.yaml")),
    ("jobs_tuned_19.yaml", include_str!("../eval/jobs_tuned_19.yaml")),
    ("jobs_tuned_20.yaml", include_str!("../eval/jobs_tuned_20.yaml")),
    ("jobs_tuned_21.yaml", include_str!("../eval/jobs_tuned_21.yaml")),
    ("jobs_tuned_22.yaml", include_str!("../eval/jobs_tuned_22.yaml")),
    ("jobs_tuned_23.yaml", include_str!("../eval/jobs_tuned_23.yaml")),
    ("jobs_blind.yaml", include_str!("../eval/jobs_blind.yaml")),
    ("jobs_blind_2.yaml", include_str!("../eval/jobs_blind_2.yaml")),
    ("jobs_blind_3.yaml", include_str!("../eval/jobs_blind_3.yaml")),
    ("jobs_blind_4.yaml", include_str!("../eval/jobs_blind_4.yaml")),
    ("jobs_blind_5.yaml", include_str!("../eval/jobs_blind_5.yaml")),
    ("jobs_blind_6.yaml", include_str!("../eval/jobs_blind_6.yaml")),
    ("jobs_blind_7.yaml", include_str!("../eval/jobs_blind_7.yaml")),
    ("jobs_blind_8.yaml", include_str!("../eval/jobs_blind_8.yaml")),
    ("jobs_blind_9.yaml", include_str!("../eval/jobs_blind_9.yaml")),
    ("jobs_blind_10.yaml", include_str!("../eval/jobs_blind_10.yaml")),
    ("jobs_blind_11.yaml", include_str!("../eval/jobs_blind_11.yaml")),
    ("jobs_blind_12.yaml", include_str!("../eval/jobs_blind_12.yaml")),
    ("jobs_blind_13.yaml", include_str!("../eval/jobs_blind_13.yaml")),
    ("jobs_blind_14.yaml", include_str!("../eval/jobs_blind_14.yaml")),
    ("jobs_blind_15.yaml", include_str!("../eval/jobs_blind_15.yaml")),
    ("jobs_blind_16.yaml", include_str!("../eval/jobs_blind_16.yaml")),
    ("jobs_blind_17.yaml", include_str!("../eval/jobs_blind_17.yaml")),
    ("jobs_blind_18.yaml", include_str!("../eval/jobs_blind_18.yaml")),
    ("jobs_blind_19.yaml", include_str!("../eval/jobs_blind_19.yaml")),
    ("jobs_blind_20.yaml", include_str!("../eval/jobs_blind_20.yaml")),
    ("jobs_blind_21.yaml", include_str!("../eval/jobs_blind_21.yaml")),
];

/// Every job of `eval/`, file by file.
pub fn jobs() -> Result<Vec<Job>, JobsError> {
    let mut all = Vec::new();
    for (file, text) in JOB_FILES {
        let set = serde_yaml::from_str::<JobSet>(text).map_err(|source| JobsError { file, source })?;
        all.extend(set.jobs);
    }
    Ok(all)
}

/// A job file that does not parse.
#[derive(Debug, thiserror::Error)]
#[error("crates/design/eval/{file}: {source}")]
pub struct JobsError {
    pub file: &'static str,
    #[source]
    pub source: serde_yaml::Error,
}

/// Whether `written` (rows as the plan wrote them, read back) is `expected` (a header row, then
/// rows of values): the same number of rows, each with the same values, whatever the columns are
/// called and in whatever order they stand; rows in the same order when `ordered`.
pub fn same_table(expected: &[Vec<Value>], written: &[serde_json::Map<String, Value>], ordered: bool) -> bool {
    let want: Vec<Vec<String>> = expected.iter().skip(1).map(|row| cells(row.iter())).collect();
    let got: Vec<Vec<String>> = written.iter().map(|row| cells(row.values())).collect();
    if ordered {
        want == got
    } else {
        let (mut want, mut got) = (want, got);
        want.sort();
        got.sort();
        want == got
    }
}

/// A row's values as comparable text, sorted (column order is free).
fn cells<'a>(values: impl Iterator<Item = &'a Value>) -> Vec<String> {
    let mut cells: Vec<String> = values.map(cell).collect();
    cells.sort();
    cells
}

/// One value as comparable text: numbers by value (`1200`, `1200.0` and `"1,200"` are one),
/// a day by its date (`2026/11/5` and `2026-11-05` are one), a time of day to the minute
/// whether its zero seconds are written or not (a workbook's reader writes them), text
/// trimmed, blank and null alike.
fn cell(value: &Value) -> String {
    if let Some(day) = value.as_str().and_then(day_of) {
        return day;
    }
    let number = match value {
        Value::Number(n) => n.as_f64(),
        Value::String(s) => {
            let t = s.trim().replace(',', "");
            (!t.is_empty() && !t.starts_with('0') || t == "0" || t.starts_with("0."))
                .then(|| t.parse::<f64>().ok())
                .flatten()
        }
        _ => None,
    };
    match (number, value) {
        (Some(n), _) => format!("{:.6}", n),
        (None, Value::Null) => String::new(),
        (None, Value::String(s)) => {
            let s = s.trim();
            let timed = s.len() == 19 && s.as_bytes()[4] == b'-' && matches!(s.as_bytes()[10], b' ' | b'T');
            match s.strip_suffix(":00").filter(|_| timed) {
                Some(minutes) => minutes.replacen('T', " ", 1),
                None => s.to_owned(),
            }
        }
        (None, Value::Bool(b)) => b.to_string(),
        (None, other) => other.to_string(),
    }
}

/// `2026/11/5`, `2026-11-05`, `2026.11.05` as `2026-11-05`; `None` for anything else.
fn day_of(text: &str) -> Option<String> {
    let parts: Vec<&str> = text.trim().split(['/', '-', '.']).collect();
    let [year, month, day] = parts.as_slice() else { return None };
    let all_digits = |p: &str| !p.is_empty() && p.len() <= 4 && p.bytes().all(|b| b.is_ascii_digit());
    if year.len() != 4 || !all_digits(year) || !all_digits(month) || !all_digits(day) {
        return None;
    }
    let (month, day): (u32, u32) = (month.parse().ok()?, day.parse().ok()?);
    ((1..=12).contains(&month) && (1..=31).contains(&day)).then(|| format!("{year}-{month:02}-{day:02}"))
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn rows(value: Value) -> Vec<serde_json::Map<String, Value>> {
        value.as_array().unwrap().iter().map(|r| r.as_object().unwrap().clone()).collect()
    }

    #[test]
    fn the_job_set_loads_with_a_held_out_part_written_first_in_both_languages() {
        let jobs = jobs().expect("the job files parse");
        assert!(jobs.len() >= 80);
        let count = |lang: &str, part: &str| jobs.iter().filter(|j| j.language == lang && j.part == part).count();
        assert!(count("en", "heldout") + count("ja", "heldout") >= 16);
        for part in ["heldout", "tuned", "blind"] {
            assert_eq!(count("en", part), count("ja", part), "{part}: half English, half Japanese");
        }
        let first = serde_yaml::from_str::<JobSet>(JOB_FILES[0].1).unwrap().jobs;
        let first_tuned = first.iter().position(|j| j.part == "tuned").unwrap();
        assert!(first[first_tuned..].iter().all(|j| j.part == "tuned"), "held-out jobs come first");
        let ids: std::collections::HashSet<&str> = jobs.iter().map(|j| j.id.as_str()).collect();
        assert_eq!(ids.len(), jobs.len(), "ids are unique");
        for job in &jobs {
            assert_eq!(job.expects_question(), job.expected.is_none(), "{}", job.id);
            assert!(job.expects_question() || job.output.is_some(), "{}", job.id);
        }
    }

    #[test]
    fn tables_are_compared_by_values_whatever_the_columns_are_called() {
        let expected = vec![
            vec![json!("vendor"), json!("total")],
            vec![json!("Acme"), json!(1200)],
            vec![json!("Blue"), json!(860.5)],
        ];
        let same = rows(json!([{"合計": "1,200", "取引先": "Acme"}, {"取引先": "Blue ", "合計": 860.50}]));
        assert!(same_table(&expected, &same, false));
        assert!(!same_table(&expected, &same[..1], false), "a missing row");
        let reordered = rows(json!([{"v": "Blue", "t": 860.5}, {"v": "Acme", "t": 1200}]));
        assert!(same_table(&expected, &reordered, false));
        assert!(!same_table(&expected, &reordered, true), "order counts when asked for");
        let extra = rows(json!([{"v": "Acme", "t": 1200, "n": 2}, {"v": "Blue", "t": 860.5, "n": 1}]));
        assert!(!same_table(&expected, &extra, false), "an extra column is a different table");
        let wrong = rows(json!([{"v": "Acme", "t": 1200}, {"v": "Blue", "t": 860}]));
        assert!(!same_table(&expected, &wrong, false));
        let updated = vec![vec![json!("updated_at")], vec![json!("2026-09-30 08:55")]];
        assert!(same_table(&updated, &rows(json!([{"u": "2026-09-30 08:55:00"}])), false), "zero seconds or none");
        assert!(!same_table(&updated, &rows(json!([{"u": "2026-09-30 08:55:30"}])), false));
        let code = vec![vec![json!("code")], vec![json!("0401")]];
        assert!(!same_table(&code, &rows(json!([{"code": 401}])), false), "a code with a leading zero is text");
        let day = vec![vec![json!("date")], vec![json!("2026-11-05")]];
        assert!(same_table(&day, &rows(json!([{"d": "2026/11/5"}])), false), "one day however it is written");
        assert!(!same_table(&day, &rows(json!([{"d": "2026/11/6"}])), false));
        assert!(!same_table(&day, &rows(json!([{"d": "2026-11"}])), false), "a month is no day");
    }
}
