//! `run_report`: a run's report — the self-contained HTML page or JUnit XML — written from its
//! record by `planwright-reports`, for the studio's run page to offer as a download.

use planwright_reports::{Format, ReportOptions, RunRecord};
use serde::{Deserialize, Serialize};
use ts_rs::TS;

use crate::{ApiError, Studio};

/// Which report of a run (`?format=html` or `?format=junit`; HTML when not said), and for whom:
/// the HTML page in `lang` (`en`, `ja`) with times in `time_zone` (an IANA name such as
/// `Asia/Tokyo`); English and UTC when not said.
#[derive(Debug, Clone, Default, Serialize, Deserialize, TS)]
pub struct ReportRequest {
    #[serde(default)]
    pub format: ReportFormat,
    #[serde(default)]
    #[ts(optional)]
    pub lang: Option<String>,
    #[serde(default)]
    #[ts(optional)]
    pub time_zone: Option<String>,
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
        let options =
            ReportOptions::new(request.lang.as_deref().unwrap_or("en"), request.time_zone.as_deref().unwrap_or("UTC"))
                .map_err(|why| ApiError::invalid(format!("time_zone: {why}")))?;
        tokio::task::spawn_blocking(move || {
            let record = RunRecord::read(&store, &run_id)?;
            Ok(ReportFile {
                file_name: format!("{}_{run_id}.{}", record.plan_id, format.extension()),
                media_type: format.media_type().to_owned(),
                text: format.render(&record, &options),
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

        let junit = studio
            .run_report(run_id.clone(), ReportRequest { format: ReportFormat::Junit, ..Default::default() })
            .await
            .unwrap();
        assert_eq!(junit.file_name, format!("nightly_{run_id}.xml"));
        assert_eq!(junit.media_type, "application/xml");
        assert!(junit.text.contains("<failure message=\"no &lt;file&gt;\""), "{}", junit.text);
        let page = studio.run_report(run_id.clone(), ReportRequest::default()).await.unwrap();
        assert_eq!((page.file_name, page.media_type.as_str()), (format!("nightly_{run_id}.html"), "text/html"));
        assert!(page.text.contains("Run failed"));
        // For a person in Japan: in Japanese, times in their zone.
        let japanese =
            ReportRequest { lang: Some("ja".into()), time_zone: Some("Asia/Tokyo".into()), ..Default::default() };
        let page = studio.run_report(run_id.clone(), japanese).await.unwrap();
        assert!(page.text.contains("<html lang=\"ja\">") && page.text.contains("実行：失敗"), "{}", page.text);
        assert!(page.text.contains("時刻は Asia/Tokyo です"), "{}", page.text);
        let elsewhere = ReportRequest { time_zone: Some("Atlantis/Capital".into()), ..Default::default() };
        let refused = studio.run_report(run_id.clone(), elsewhere).await.unwrap_err();
        assert_eq!(refused.code, crate::ErrorCode::InvalidInput);
        assert!(refused.message.contains("time_zone") && refused.message.contains("Atlantis/Capital"), "{refused:?}");
        let missing = studio.run_report("nope".into(), ReportRequest::default()).await.unwrap_err();
        assert_eq!(missing.code, crate::ErrorCode::NotFound);
    }
}
