//! Hostile input: compiling and evaluating never panic, and errors stay within the source.

use planwright_expr::{compile, compile_condition, Expr};
use planwright_plan::reference::Reference;
use proptest::prelude::*;
use proptest::sample::select;
use serde_json::Value;

/// Pieces of the language, valid and broken, to be glued together in any order.
const TOKENS: &[&str] = &[
    "${vars.a}",
    "${node.x.0}",
    "${env.A}",
    "${",
    "}",
    "$",
    "and",
    "or",
    "not",
    "in",
    "not in",
    "(",
    ")",
    "[",
    "]",
    ",",
    "==",
    "!=",
    "<",
    "<=",
    ">",
    ">=",
    "=",
    "!",
    "'x'",
    "\"y\"",
    "'請求書'",
    "'",
    "\"",
    "\\",
    "1",
    "-2.5",
    "-",
    ".",
    "0",
    "true",
    "false",
    "null",
    "len(",
    "len",
    "length(",
    "AND",
    "android",
];

fn token_soup() -> impl Strategy<Value = String> {
    prop::collection::vec((select(TOKENS), select(&["", " ", "\n"][..])), 0..40)
        .prop_map(|pieces| pieces.into_iter().map(|(token, space)| format!("{token}{space}")).collect())
}

/// Expressions that compile, of any shape and operand types.
fn expression() -> impl Strategy<Value = String> {
    let leaf =
        select(&["${vars.a}", "${vars.b}", "${n.out.0}", "1", "-0.5", "'s'", "''", "true", "false", "null", "[]"][..])
            .prop_map(str::to_owned);
    leaf.prop_recursive(5, 40, 4, |inner| {
        let operator = select(&["and", "or", "==", "!=", "<", "<=", ">", ">=", "in", "not in"][..]);
        prop_oneof![
            (inner.clone(), operator, inner.clone()).prop_map(|(a, op, b)| format!("({a} {op} {b})")),
            inner.clone().prop_map(|a| format!("(not {a})")),
            inner.clone().prop_map(|a| format!("len({a})")),
            prop::collection::vec(inner, 0..4).prop_map(|items| format!("[{}]", items.join(", "))),
        ]
    })
}

fn json() -> impl Strategy<Value = Value> {
    let leaf = prop_oneof![
        Just(Value::Null),
        any::<bool>().prop_map(Value::from),
        any::<i64>().prop_map(Value::from),
        any::<u64>().prop_map(Value::from),
        any::<f64>().prop_map(Value::from),
        ".{0,60}".prop_map(Value::from),
    ];
    leaf.prop_recursive(4, 40, 6, |inner| {
        prop_oneof![
            prop::collection::vec(inner.clone(), 0..6).prop_map(Value::Array),
            prop::collection::vec(("[a-c]{0,2}", inner), 0..6)
                .prop_map(|entries| Value::Object(entries.into_iter().collect())),
        ]
    })
}

/// Evaluates with a resolver that hands out `values` in turn, `None` being a resolution failure.
fn check_eval(expr: &Expr, values: &[Option<Value>]) -> Result<(), TestCaseError> {
    let resolver = || {
        let mut next = values.iter().cycle();
        move |_: &Reference| next.next().cloned().flatten().ok_or_else(|| "unavailable".to_owned())
    };
    let value = expr.eval(&mut resolver());
    let boolean = expr.eval_bool(&mut resolver());
    // eval_bool is eval plus a type check; both see the same values in the same order.
    match (value, boolean) {
        (Ok(Value::Bool(a)), Ok(b)) => prop_assert_eq!(a, b),
        (Ok(_), result) => prop_assert!(result.is_err()),
        (Err(a), result) => prop_assert_eq!(Err(a), result),
    }
    Ok(())
}

fn assert_offset_within(source: &str, result: Result<Expr, planwright_expr::ExprError>) -> Result<(), TestCaseError> {
    if let Err(error) = result {
        prop_assert!(error.offset <= source.chars().count(), "{} for {:?}", error.message, source);
        prop_assert!(error.message.contains(&format!("at character {}", error.offset)), "{}", error.message);
    }
    Ok(())
}

proptest! {
    #[test]
    fn compile_never_panics_on_any_text(source in ".*") {
        assert_offset_within(&source, compile(&source))?;
        assert_offset_within(&source, compile_condition(&source))?;
    }

    #[test]
    fn compile_never_panics_on_language_tokens(source in token_soup(), values in prop::collection::vec(prop::option::of(json()), 1..5)) {
        assert_offset_within(&source, compile(&source))?;
        if let Ok(expr) = compile(&source) {
            check_eval(&expr, &values)?;
        }
    }

    #[test]
    fn generated_expressions_compile_and_evaluate_without_panic(
        source in expression(),
        values in prop::collection::vec(prop::option::of(json()), 1..5),
    ) {
        let expr = compile(&source).map_err(|error| TestCaseError::fail(format!("{source}: {error}")))?;
        check_eval(&expr, &values)?;
        if let Ok(condition) = compile_condition(&source) {
            check_eval(&condition, &values)?;
        }
    }

    #[test]
    fn deep_nesting_never_overflows(depth in 0usize..200, kind in 0usize..4) {
        let (open, close) = [("(", ")"), ("[", "]"), ("not ", ""), ("len(", ")")][kind];
        let source = format!("{}${{vars.a}}{}", open.repeat(depth), close.repeat(depth));
        prop_assert_eq!(compile(&source).is_ok(), depth <= 64);
    }
}
