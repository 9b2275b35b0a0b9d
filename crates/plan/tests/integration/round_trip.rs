//! YAML → model → YAML keeps the meaning: any plan the model can hold, written out by serde and
//! loaded back, is the same plan, and the schema accepts it.

use indexmap::IndexMap;
use planwright_plan::*;
use proptest::collection::{btree_map, vec};
use proptest::option;
use proptest::prelude::*;
use serde_json::Value;

fn identifier() -> impl Strategy<Value = String> {
    "[a-z_][a-z0-9_-]{0,12}"
}

fn json_value() -> impl Strategy<Value = Value> {
    let leaf = prop_oneof![
        Just(Value::Null),
        any::<bool>().prop_map(Value::Bool),
        any::<i64>().prop_map(Value::from),
        (-1e12f64..1e12).prop_map(Value::from),
        any::<String>().prop_map(Value::String),
        "\\$\\{(vars|n[0-9])\\.[a-z]{1,5}\\}".prop_map(Value::String),
    ];
    leaf.prop_recursive(3, 24, 4, |inner| {
        prop_oneof![
            vec(inner.clone(), 0..4).prop_map(Value::Array),
            btree_map("[a-zA-Z0-9 _.請求]{1,8}", inner, 0..4).prop_map(|m| Value::Object(m.into_iter().collect())),
        ]
    })
}

fn policy() -> impl Strategy<Value = Policy> {
    (
        option::of(prop_oneof![Just(OnError::Halt), Just(OnError::Continue), Just(OnError::Retry)]),
        option::of(0u32..5),
        option::of(0u64..10_000),
        option::of(1u64..100_000),
        option::of(1u32..16),
        option::of(prop_oneof![Just(OnUnanswered::Wait), Just(OnUnanswered::Fail)]),
    )
        .prop_map(|(on_error, retries, retry_backoff_ms, timeout_ms, max_concurrency, on_unanswered)| Policy {
            on_error,
            retries,
            retry_backoff_ms,
            timeout_ms,
            max_concurrency,
            on_unanswered,
        })
}

fn map_of<V: std::fmt::Debug>(values: impl Strategy<Value = V>) -> impl Strategy<Value = IndexMap<String, V>> {
    vec((identifier(), values), 0..4).prop_map(|pairs| pairs.into_iter().collect())
}

fn node(depth: u32) -> BoxedStrategy<Node> {
    let leaf = (
        identifier(),
        option::of(any::<String>()),
        option::of("[a-z]{1,6}\\.[a-z_]{1,8}(@1\\.0\\.0)?"),
        map_of(json_value()),
        map_of(identifier()),
        vec(identifier(), 0..3),
        option::of(any::<String>().prop_map(|expr| Condition { expr })),
        option::of(policy()),
    )
        .prop_map(|(id, description, block, inputs, out, after, when, policy)| Node {
            id,
            description,
            block,
            inputs,
            out,
            after,
            when,
            policy,
            ..Node::default()
        })
        .boxed();
    if depth == 0 {
        return leaf;
    }
    let looping = (
        leaf.clone(),
        option::of((json_value(), identifier(), option::of(identifier()), option::of(1u32..8)).prop_map(
            |(input, item_var, index_var, max_concurrency)| Foreach { input, item_var, index_var, max_concurrency },
        )),
        option::of(
            (any::<String>(), 1u32..50)
                .prop_map(|(expr, max_iterations)| While { condition: Condition { expr }, max_iterations }),
        ),
        vec(node(depth - 1), 0..3),
        option::of(prop_oneof![Just(NodeKind::Loop), Just(NodeKind::Subflow)]),
        option::of((identifier(), map_of(json_value())).prop_map(|(plan_id, inputs)| Call { plan_id, inputs })),
    )
        .prop_map(|(base, foreach, while_, graph, kind, call)| Node {
            foreach,
            while_,
            body: Some(Body { plan: BodyPlan { description: None, policy: None, graph } }),
            kind,
            call,
            ..base
        });
    prop_oneof![leaf, looping].boxed()
}

fn plan() -> impl Strategy<Value = Plan> {
    (
        "[a-z0-9][a-z0-9_-]{0,20}",
        (0u32..5, 0u32..20, 0u32..100),
        option::of(any::<String>()),
        map_of(json_value()),
        vec("[A-Z][A-Z0-9_]{0,10}", 0..3),
        option::of(policy()),
        option::of(vec(identifier(), 0..3).prop_map(|layout| Ui { layout })),
        vec(node(2), 0..5),
    )
        .prop_map(|(id, (major, minor, patch), description, vars, secrets, policy, ui, graph)| Plan {
            api_version: API_VERSION.to_owned(),
            id,
            version: format!("{major}.{minor}.{patch}"),
            description,
            vars,
            secrets,
            policy,
            ui,
            graph,
        })
}

proptest! {
    #[test]
    fn written_plans_load_back_unchanged(plan in plan()) {
        let yaml = serde_yaml::to_string(&plan).unwrap();
        let loaded = load_plan(&yaml).unwrap_or_else(|e| panic!("{e}\n{yaml}"));
        prop_assert!(loaded.findings.is_empty(), "{:?}\n{yaml}", loaded.findings);
        prop_assert_eq!(loaded.plan.as_ref(), Some(&plan));
        let again = serde_yaml::to_string(loaded.plan.as_ref().unwrap()).unwrap();
        prop_assert_eq!(again, yaml);
    }
}
