//! Property: whatever events are recorded (any text, any node path, across resumes), SQLite and
//! the JSONL log give back exactly the events `record` returned, numbered 1..n.

use crate::common;

use common::*;
use planwright_runs::{ArtifactKind, EventKind, FormRequest, InputRequest, LogLevel, Progress, RunStatus, RunStore};
use proptest::prelude::*;
use serde_json::{json, Value};

fn node() -> impl Strategy<Value = String> {
    prop_oneof![
        "[a-z][a-z0-9_]{0,8}",
        ("[a-z]{1,6}", 0u32..50, "[a-z]{1,6}").prop_map(|(l, i, n)| format!("{l}[{i}]/{n}")),
        ("[a-z]{1,6}", "[a-z]{1,6}").prop_map(|(c, n)| format!("{c}/{n}")),
    ]
}

fn value() -> impl Strategy<Value = Value> {
    let leaf = prop_oneof![
        Just(Value::Null),
        any::<bool>().prop_map(Value::from),
        any::<i64>().prop_map(Value::from),
        any::<u64>().prop_map(Value::from),
        // Floats with short decimal forms (serde_json without `float_roundtrip` may be 1 ULP off on others).
        (-1_000_000i64..1_000_000).prop_map(|i| Value::from(i as f64 / 8.0)),
        any::<String>().prop_map(Value::from),
    ];
    leaf.prop_recursive(3, 24, 4, |inner| {
        prop_oneof![
            prop::collection::vec(inner.clone(), 0..4).prop_map(Value::from),
            prop::collection::btree_map("[a-z\"\n ]{0,6}", inner, 0..4).prop_map(|m| json!(m)),
        ]
    })
}

fn kind() -> impl Strategy<Value = EventKind> {
    prop_oneof![
        (node(), 1u32..5, value()).prop_map(|(node, attempt, inputs)| EventKind::NodeStarted { node, attempt, inputs }),
        (node(), any::<u64>(), 1u32..5, value()).prop_map(|(node, elapsed_ms, attempts, outputs)| {
            EventKind::NodeFinished { node, elapsed_ms, attempts, outputs }
        }),
        (node(), any::<String>()).prop_map(|(node, reason)| EventKind::NodeSkipped { node, reason, said: None }),
        (node(), any::<String>(), any::<bool>(), any::<bool>()).prop_map(|(node, error, timed_out, continued)| {
            EventKind::NodeFailed {
                node,
                elapsed_ms: 1,
                attempts: 1,
                error,
                timed_out,
                continued,
                said: None,
                outputs: None,
            }
        }),
        (node(), any::<String>(), value()).prop_map(|(node, message, context)| EventKind::InputRequested {
            node,
            request: InputRequest::Collect(FormRequest { message, requirements: Vec::new(), context }),
        }),
        (node(), any::<u64>(), any::<u64>(), any::<String>()).prop_map(|(node, done, total, unit)| {
            EventKind::Progress { node, progress: Progress::Items { done, total, unit } }
        }),
        (prop::option::of(node()), any::<String>()).prop_map(|(node, message)| EventKind::Log {
            node,
            level: LogLevel::Warn,
            message,
            said: None,
        }),
        (node(), any::<String>(), any::<u64>()).prop_map(|(node, path, bytes)| EventKind::Artifact {
            node,
            path,
            kind: ArtifactKind::Report,
            bytes
        }),
        (node(), value(), prop::option::of(any::<String>()), any::<u64>()).prop_map(
            |(node, messages, response, input_tokens)| EventKind::ModelCall {
                node,
                tier: "fast".into(),
                provider: "openai".into(),
                model: "gpt".into(),
                messages,
                error: response.is_none().then(|| "refused".to_owned()),
                response,
                input_tokens,
                output_tokens: 7,
                latency_ms: 12,
            }
        ),
    ]
}

/// 24 cases (each case opens a store on disk) unless `PROPTEST_CASES` asks for another number.
fn config() -> ProptestConfig {
    let cases = std::env::var("PROPTEST_CASES").ok().and_then(|c| c.parse().ok()).unwrap_or(24);
    ProptestConfig::with_cases(cases)
}

proptest! {
    #![proptest_config(config())]

    #[test]
    fn recorded_events_read_back_identically(
        before in prop::collection::vec(kind(), 0..20),
        after in prop::collection::vec(kind(), 0..20),
        outputs in prop::collection::btree_map(node(), value(), 0..4),
    ) {
        let (_dir, home) = temp_home();
        let store = RunStore::open(&home).unwrap();
        let rec = store.begin("r", "plan", "id: plan", None).unwrap();
        let mut returned = Vec::new();
        for kind in before {
            returned.push(rec.record(kind).unwrap());
        }
        for (node, value) in &outputs {
            let full = object(json!({"value": value}));
            returned.push(rec.finish_node(node, 1, 1, &full, Value::Null).unwrap());
        }
        drop(rec);
        let rec = store.resume("r").unwrap();
        for kind in after {
            returned.push(rec.record(kind).unwrap());
        }
        returned.push(rec.record(run_finished(RunStatus::Failed, Default::default())).unwrap());

        assert_dense(&returned);
        prop_assert_eq!(&store.events("r").unwrap(), &returned);
        prop_assert_eq!(&read_jsonl(&home.run_log("plan", "r")), &returned);
        let stored = store.finished_outputs("r").unwrap();
        prop_assert_eq!(stored.len(), outputs.len());
        for (node, value) in &outputs {
            prop_assert_eq!(&stored[node]["value"], value);
        }
    }
}
