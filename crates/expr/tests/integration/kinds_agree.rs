//! The kind checks agree with evaluation: whatever evaluation rejects is reported as failing,
//! what is reported as failing is rejected (where no `and`/`or` may skip it), and a warning's
//! fixed answer is the answer.

use planwright_expr::{compile, Expr, Kind, KindProblem};
use planwright_plan::reference::Reference;
use proptest::prelude::*;
use proptest::sample::select;
use serde_json::Value;

const NAMES: [&str; 3] = ["${vars.a}", "${vars.b}", "${n.out.0}"];

/// Expressions that compile, of any shape and operand kinds; `logic` allows `and` and `or`.
fn expression(logic: bool) -> impl Strategy<Value = String> {
    let leaf = select(
        &[
            "${vars.a}",
            "${vars.b}",
            "${n.out.0}",
            "1",
            "-0.5",
            "'s'",
            "'1'",
            "''",
            "true",
            "false",
            "null",
            "[]",
            "['s', 1]",
        ][..],
    )
    .prop_map(str::to_owned);
    let operators: &'static [&'static str] = if logic {
        &["and", "or", "==", "!=", "<", "<=", ">", ">=", "in", "not in"]
    } else {
        &["==", "!=", "<", "<=", ">", ">=", "in", "not in"]
    };
    leaf.prop_recursive(4, 24, 3, move |inner| {
        prop_oneof![
            (inner.clone(), select(operators), inner.clone()).prop_map(|(a, op, b)| format!("({a} {op} {b})")),
            inner.clone().prop_map(|a| format!("(not {a})")),
            inner.clone().prop_map(|a| format!("len({a})")),
            prop::collection::vec(inner, 0..3).prop_map(|items| format!("[{}]", items.join(", "))),
        ]
    })
}

/// One operator applied to leaves: where most of the rules are decided.
fn operation() -> impl Strategy<Value = String> {
    let leaf = select(
        &["${vars.a}", "${vars.b}", "${n.out.0}", "1", "'s'", "'1'", "true", "null", "[]", "['s', 1]", "[true]"][..],
    );
    let operator = select(&["and", "or", "==", "!=", "<", "<=", ">", ">=", "in", "not in"][..]);
    prop_oneof![
        (leaf.clone(), operator, leaf.clone()).prop_map(|(a, op, b)| format!("{a} {op} {b}")),
        leaf.clone().prop_map(|a| format!("not {a}")),
        leaf.clone().prop_map(|a| format!("len({a}) > 0")),
        leaf.prop_map(str::to_owned),
    ]
}

fn json() -> impl Strategy<Value = Value> {
    let leaf = prop_oneof![
        Just(Value::Null),
        any::<bool>().prop_map(Value::from),
        (-3i64..3).prop_map(Value::from),
        select(&["", "s", "1", "ab"][..]).prop_map(Value::from),
    ];
    leaf.prop_recursive(2, 8, 3, |inner| {
        prop_oneof![
            prop::collection::vec(inner.clone(), 0..3).prop_map(Value::Array),
            prop::collection::vec((select(&["s", "1"][..]), inner), 0..3)
                .prop_map(|entries| { Value::Object(entries.into_iter().map(|(k, v)| (k.to_owned(), v)).collect(),) }),
        ]
    })
}

fn value_of<'v>(values: &'v [Value; 3], reference: &Reference) -> &'v Value {
    let text = reference.to_string();
    &values[NAMES.iter().position(|name| *name == text).unwrap()]
}

fn eval_bool(expr: &Expr, values: &[Value; 3]) -> Result<bool, String> {
    expr.eval_bool(&mut |reference| Ok(value_of(values, reference).clone())).map_err(|error| error.message)
}

fn eval(source: &str, values: &[Value; 3]) -> Option<Value> {
    let expr = compile(source).ok()?;
    expr.eval(&mut |reference| Ok(value_of(values, reference).clone())).ok()
}

fn check(expr: &Expr, values: &[Value; 3], known: bool) -> Vec<KindProblem> {
    expr.check_kinds(&mut |reference| match known {
        true => Kind::of(value_of(values, reference)),
        false => Kind::Unknown,
    })
}

/// Every warning "`sub` is always X" holds: `sub`, evaluated alone, gives X (unless it fails).
fn warnings_hold(problems: &[KindProblem], values: &[Value; 3]) -> Result<(), TestCaseError> {
    for problem in problems.iter().filter(|problem| !problem.fails) {
        let rest = problem.message.strip_prefix('`').unwrap();
        let (sub, claim) = rest.split_once("` is always ").unwrap();
        let claimed = claim.starts_with("true");
        prop_assert!(claimed || claim.starts_with("false"), "{}", problem.message);
        // A shortened sub-expression does not compile and is skipped.
        if let Some(answer) = eval(sub, values) {
            prop_assert_eq!(answer, Value::Bool(claimed), "{}", problem.message);
        }
    }
    Ok(())
}

proptest! {
    #[test]
    fn with_known_kinds_evaluation_fails_exactly_when_reported(
        source in expression(true),
        values in [json(), json(), json()],
    ) {
        let expr = compile(&source).unwrap();
        let problems = check(&expr, &values, true);
        let reported = problems.iter().any(|problem| problem.fails);
        if let Err(message) = eval_bool(&expr, &values) {
            prop_assert!(reported, "`{}` failed with {:?}: {}", source, values, message);
        } else if !source.contains(" and ") && !source.contains(" or ") {
            prop_assert!(!reported, "`{}` with {:?}: {:#?}", source, values, problems);
        }
        warnings_hold(&problems, &values)?;
    }

    #[test]
    fn single_operations_fail_exactly_when_reported(
        source in operation(),
        values in [json(), json(), json()],
    ) {
        let expr = compile(&source).unwrap();
        let problems = check(&expr, &values, true);
        let reported = problems.iter().any(|problem| problem.fails);
        let result = eval_bool(&expr, &values);
        let short_circuit = source.contains(" and ") || source.contains(" or ");
        if !short_circuit || result.is_err() {
            prop_assert_eq!(reported, result.is_err(), "`{}` with {:?}: {:#?}", source, values, problems);
        }
        warnings_hold(&problems, &values)?;
        if check(&expr, &values, false).iter().any(|problem| problem.fails) && !short_circuit {
            prop_assert!(result.is_err(), "`{}` with {:?}", source, values);
        }
    }

    #[test]
    fn reported_failures_fail_without_and_or(
        source in expression(false),
        values in [json(), json(), json()],
    ) {
        let expr = compile(&source).unwrap();
        for known in [true, false] {
            let problems = check(&expr, &values, known);
            if problems.iter().any(|problem| problem.fails) {
                prop_assert!(eval_bool(&expr, &values).is_err(), "`{}` with {:?}: {:#?}", source, values, problems);
            }
            warnings_hold(&problems, &values)?;
        }
    }

    #[test]
    fn unknown_kinds_report_only_what_holds_for_any_value(
        source in expression(true),
        values in [json(), json(), json()],
    ) {
        let expr = compile(&source).unwrap();
        let unknown = check(&expr, &values, false);
        warnings_hold(&unknown, &values)?;
        // Knowing more never reports less.
        let known = check(&expr, &values, true);
        prop_assert!(known.len() >= unknown.len(), "`{}`: {:#?} then {:#?}", source, unknown, known);
    }
}
