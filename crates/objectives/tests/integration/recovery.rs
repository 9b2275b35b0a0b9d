//! Recovery steps where banners hide: a consent banner in a shadow root, one in a frame, and a
//! dialog that comes up in the middle of an objective (late banners are in the task suite: the
//! portal's comes up while its statements load) — each got out of the way
//! with the choice that keeps the person's privacy, recorded as a recovery step of the
//! objective it blocked, and the objective then reached.

use crate::support;

use support::{run_task, Task};

fn task(start: &str, steps: &str, expect: serde_json::Value) -> Task {
    Task {
        expect_events: vec![expect],
        expect_absent: vec!["ad_backdrop_click".into()],
        expect_recovery: true,
        ..Task::new(&format!("recovery{}", start.len()), start, steps)
    }
}

#[tokio::test]
async fn banners_in_a_shadow_root_a_frame_and_over_the_page_are_declined_and_the_objective_goes_on() {
    let cases = [
        task(
            "/cookies-shadow.html?instant=1",
            "1. Open Home Kitchen",
            serde_json::json!({"action": "cookies", "detail": {"choice": "reject"}}),
        ),
        task(
            "/cookies-iframe.html?instant=1",
            "1. Open Trailhead",
            serde_json::json!({"action": "cookies", "detail": {"choice": "reject"}}),
        ),
        // A chat invitation covers the page the moment the subject is typed: in the middle of
        // the objective, between its two actions.
        task(
            "/objectives/helpdesk/ticket.html",
            "1. Type Printer jammed in the Subject field and click Send ticket",
            serde_json::json!({"action": "ticket", "detail": {"subject": "Printer jammed"}}),
        ),
    ];
    for case in cases {
        let run = run_task(&case, false, tempfile::tempdir().unwrap(), None).await;
        assert!(run.mismatches(&case).is_empty(), "{}: {:?} {}", case.start, run.mismatches(&case), run.notes());
        let progress = &run.outputs["report"]["progress"]["objective_steps"];
        let recovery = progress.as_array().unwrap().iter().find(|s| s["step_type"] == "recovery").unwrap();
        assert_eq!(recovery["status"], "completed", "{recovery}");
        assert!(recovery["blocking_reason"].as_str().unwrap().starts_with("dialog"), "{recovery}");
        // The runner's own words about it, coded for the studio's language.
        assert_eq!(recovery["description_said"]["key"], "recovery_close", "{recovery}");
        assert_eq!(recovery["evidence_said"]["key"], "blocker_gone", "{recovery}");
        // The element by its role and name, which the studio names in Japanese (ダイアログ「…」).
        let params = &recovery["evidence_said"]["params"];
        assert_eq!(params["blocking_role"], "dialog", "{recovery}");
        assert_eq!(
            format!("dialog \"{}\"", params["blocking"].as_str().unwrap()),
            recovery["blocking_reason"].as_str().unwrap(),
            "{recovery}"
        );
        assert_eq!(params["choice_role"], "button", "{recovery}");
        assert!(recovery["parent_index"].is_number());
        assert_eq!(run.outputs["report"]["summary"], format!("{0}/{0} objectives", case.steps.lines().count()));
        if case.start.contains("helpdesk") {
            assert_eq!(run.state["events"][0]["detail"]["choice"], "no", "the invitation was declined, not taken up");
        }
    }
}
