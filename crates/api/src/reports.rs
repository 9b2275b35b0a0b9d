//! `run_report`: a run's report — the self-contained HTML page or JUnit XML — written from its
//! record by `planwright-reports`, for the studio's run page to offer as a download.

use planwright_reports::{Format, RunRecord};
use serde::{Deserialize, Serialize};
use ts_rs::TS;

use crate::{ApiError, Studio};

/// Which report of a run (`?format=html` or `?format=junit`; HTML when not said).
#[derive(Debug, Clone, Copy, Default, Serialize, Deserialize, TS)]
pub struct ReportRequest {
    #[serde(default)]
    pub format: ReportFormat,
}

#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize, TS)]
#[serde(rename_all = "snake_case")]
pub enum ReportFormat {
    /// One self-contained page: the objectives with their evidence and screenshots.
    #[default]
    Html,
    /// JUnit XML: a test case per objective.
    Junit,
}

/// A report, ready to be saved under `file_name`.
#[derive(Debug, Clone, Serialize, Deserialize, TS)]
pub struct ReportFile {
    /// `<plan_id>_<run_id>.html` or `.xml`.
    pub file_name: String,
    /// `text/html` or `application/xml`.
    pub media_type: String,
    pub text: String,
}

impl Studio {
    /// The report of run `run_id` in the format asked, from the plan text and events the store
    /// holds (the screenshots the record names are read, so it runs off the async threads).
    pub async fn run_report(&self, run_id: String, request: ReportRequest) -> Result<ReportFile, ApiError> {
        let store = self.inner.store.clone();
        let format = match request.format {
            ReportFormat::Html => Format::Html,
            ReportFormat::Junit => Format::Junit,
        };
        tokio::task::spawn_blocking(move || {
            let record = RunRecord::read(&store, &run_id)?;
            Ok(ReportFile {
                file_name: format!("{}_{run_id}.{}", record.plan_id, format.extension()),
                media_type: format.media_type().to_owned(),
                text: format.render(&record),
            })
        })
        .await
        .map_err(|e| ApiError::internal(format!("writing the report stopped: {e}")))?
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use planwright_runs::{DataHome, EventKind, RunStatus, RunStore};

    #[tokio::test]
    async fn a_recorded_run_reads_back_as_either_report_and_an_unknown_run_is_not_found() {
        let home = tempfile::tempdir().unwrap();
        let workspace = tempfile::tempdir().unwrap();
        let data_home = DataHome::at(home.path());
        let store = RunStore::open(&data_home).unwrap();
        let plan = "apiVersion: planwright/v1\nid: nightly\nversion: 1.0.0\ngraph: []\n";
        let run_id = planwright_runs::new_run_id();
        let recorder = store.begin(&run_id, "nightly", plan, None).unwrap();
        recorder
            .record(EventKind::NodeFailed {
                node: "read".into(),
                elapsed_ms: 4,
                attempts: 1,
                error: "no <file>".into(),
                timed_out: false,
                continued: false,
                said: None,
                outputs: None,
            })
            .unwrap();
        recorder
            .record(EventKind::RunFinished {
                status: RunStatus::Failed,
                counts: Default::default(),
                elapsed_ms: 4,
                reason: None,
                said: None,
            })
            .unwrap();
        drop(recorder);
        let studio = Studio::open(crate::StudioConfig {
            workspace: Some(workspace.path().to_path_buf()),
            data_home: Some(data_home),
            ..Default::default()
        })
        .unwrap();

        let junit = studio.run_report(run_id.clone(), ReportRequest { format: ReportFormat::Junit }).await.unwrap();
        assert_eq!(junit.file_name, format!("nightly_{run_id}.xml"));
        assert_eq!(junit.media_type, "application/xml");
        assert!(junit.text.contains("<failure message=\"no &lt;file&gt;\""), "{}", junit.text);
        let page = studio.run_report(run_id.clone(), ReportRequest::default()).await.unwrap();
        assert_eq!((page.file_name, page.media_type.as_str()), (format!("nightly_{run_id}.html"), "text/html"));
        assert!(page.text.contains("Run failed"));
        let missing = studio.run_report("nope".into(), ReportRequest::default()).await.unwrap_err();
        assert_eq!(missing.code, crate::ErrorCode::NotFound);
    }
}
