//! No sequence of events makes a report panic or write XML that is not well formed: random
//! events — objective changes at any index, recoveries inserted anywhere, nodes finishing
//! before they start, text with markup and control characters — go through every format.

use planwright_reports::{allure, html, junit, ReportOptions, RunRecord};
use planwright_runs::Event;
use proptest::prelude::*;
use quick_xml::events::Event as Xml;
use serde_json::{json, Value};

fn text() -> impl Strategy<Value = String> {
    prop_oneof![
        Just(String::new()),
        "[a-z <>&\"']{0,12}",
        Just("</testcase><![CDATA[ ]]>".to_owned()),
        Just("\u{0}\u{1b}[31m\u{ffff}".to_owned()),
        Just("/nowhere/shot.png".to_owned()),
    ]
}

fn node() -> impl Strategy<Value = String> {
    prop_oneof![Just("a".to_owned()), Just("loop[1]/b".to_owned()), Just("call/c".to_owned())]
}

fn step() -> impl Strategy<Value = Value> {
    (
        0usize..6,
        text(),
        prop_oneof![Just("objective"), Just("recovery")],
        prop_oneof![Just("pending"), Just("in_progress"), Just("completed"), Just("failed"), Just("skipped")],
        proptest::option::of(0usize..8),
        proptest::option::of(text()),
        proptest::option::of(text()),
    )
        .prop_map(|(index, description, step_type, status, parent, evidence, screenshot)| {
            json!({
                "index": index, "description": description, "step_type": step_type, "status": status,
                "execution_plan": [description], "parent_index": parent, "blocking_reason": evidence,
                "completion_evidence": evidence, "attempts": index, "elapsed_ms": 10, "model_calls": 1,
                "input_tokens": 5, "output_tokens": 2, "decided_by": "model", "approach": "scroll_to_find",
                "iteration": 2, "screenshot": screenshot
            })
        })
}

fn kind() -> impl Strategy<Value = Value> {
    let change = prop_oneof![
        Just("planned"),
        Just("started"),
        Just("action_executed"),
        Just("recovery_inserted"),
        Just("completed"),
        Just("failed"),
        Just("skipped"),
        Just("evidence_kept")
    ];
    prop_oneof![
        (node(), change, step(), proptest::option::of(proptest::collection::vec(step(), 0..5)), text()).prop_map(
            |(node, change, step, steps, action)| json!({"type": "progress", "node": node, "progress": {
                "kind": "objective", "change": change, "step": step, "steps": steps, "completed": 1, "total": 9,
                "action": {"action": action, "tool_name": "click", "locator": action, "result": action, "timestamp": action}
            }})
        ),
        (node(), text()).prop_map(|(node, reason)| json!({"type": "progress", "node": node, "progress": {"kind": "planning", "entry": {
            "type": "revision", "timestamp": reason, "number": 1, "reason": reason,
            "changes": [{"objective": 9, "kind": "wait_added", "approach": "wait_for_page", "description": reason, "execution_plan_before": [], "execution_plan_after": [reason]}]
        }}})),
        (node(), prop_oneof![Just("iteration_started"), Just("evaluated"), Just("escalated"), Just("answered"), Just("finished")]).prop_map(
            |(node, change)| json!({"type": "progress", "node": node, "progress": {"kind": "task", "change": change, "iteration": 1, "max_iterations": 3,
                "satisfaction": null, "report": null, "choice": "accept_partial"}})
        ),
        node().prop_map(|node| json!({"type": "node_started", "node": node, "attempt": 1, "inputs": {}})),
        (node(), text()).prop_map(|(node, history)| json!({"type": "node_finished", "node": node, "elapsed_ms": 3, "attempts": 1,
            "outputs": {"passed": false, "report": {"planning_history": history, "progress": {"objective_steps": [history]}}}})),
        (node(), text()).prop_map(|(node, error)| json!({"type": "node_failed", "node": node, "elapsed_ms": 3, "attempts": 2, "error": error, "timed_out": true, "continued": false})),
        (node(), text()).prop_map(|(node, reason)| json!({"type": "node_skipped", "node": node, "reason": reason})),
        (node(), text()).prop_map(|(node, path)| json!({"type": "artifact", "node": node, "path": path, "kind": "screenshot", "bytes": 1})),
        Just(json!({"type": "run_started", "plan_id": "p<", "plan_version": "1", "plan_path": null, "vars": {}, "workdir": "/", "resumed_after": null})),
        Just(json!({"type": "run_finished", "status": "failed", "counts": {"succeeded": 0, "failed": 1, "skipped": 0, "retried": 0}, "elapsed_ms": 1, "reason": "x"})),
    ]
}

fn events() -> impl Strategy<Value = Vec<Event>> {
    proptest::collection::vec((0u64..40, kind()), 0..40).prop_map(|kinds| {
        kinds
            .into_iter()
            .map(|(seq, kind)| {
                let mut value = json!({"schema": 4, "run_id": "r", "seq": seq, "at": "2026-11-27T04:44:02.000Z"});
                value.as_object_mut().unwrap().extend(kind.as_object().unwrap().clone());
                serde_json::from_value(value).unwrap()
            })
            .collect()
    })
}

fn well_formed(xml: &str) -> Result<(), String> {
    let mut reader = quick_xml::Reader::from_str(xml);
    loop {
        match reader.read_event() {
            Ok(Xml::Eof) => return Ok(()),
            Ok(_) => {}
            Err(error) => return Err(format!("{error} at {}: {xml}", reader.buffer_position())),
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(200))]

    #[test]
    fn every_format_takes_any_event_sequence(events in events(), plan in text()) {
        let record = RunRecord::from_events(plan, &events);
        let xml = junit(&record);
        prop_assert!(well_formed(&xml).is_ok(), "{:?}", well_formed(&xml));
        let page = html(&record, &ReportOptions::default());
        prop_assert!(page.ends_with("</html>\n"));
        let escaped = !page.contains("</testcase>") && !page.contains('\0');
        prop_assert!(escaped, "markup or a control character got through: {}", page);
        let dir = tempfile::tempdir().unwrap();
        allure(&record, dir.path()).unwrap();
    }
}
