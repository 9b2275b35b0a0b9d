//! Semantics: values, operators, short-circuiting, and what each evaluation error says.

use planwright_expr::{compile, compile_condition, EvalError};
use planwright_plan::reference::Reference;
use serde_json::{json, Value};

/// Resolves `${vars.x}` and `${node.a.b}` from `values` keyed "vars.x", "node.a.b"; anything
/// else fails like an unknown variable.
fn from(values: Value) -> impl FnMut(&Reference) -> Result<Value, String> {
    move |reference| {
        let key = std::iter::once(reference.root_name()).chain(reference.path.iter().map(String::as_str));
        let key = key.collect::<Vec<_>>().join(".");
        values.get(&key).cloned().ok_or_else(|| format!("no value named `{key}`"))
    }
}

fn eval_with(source: &str, values: Value) -> Result<Value, EvalError> {
    compile(source).unwrap().eval(&mut from(values))
}

fn eval(source: &str) -> Value {
    eval_with(source, json!({})).unwrap_or_else(|error| panic!("`{source}`: {error}"))
}

fn eval_error(source: &str, values: Value) -> String {
    match eval_with(source, values) {
        Ok(value) => panic!("`{source}` gave {value}"),
        Err(error) => error.message,
    }
}

fn assert_words(message: &str, words: &[&str]) {
    for word in words {
        assert!(message.contains(word), "`{word}` missing from: {message}");
    }
}

#[test]
fn literals_evaluate_to_json() {
    assert_eq!(eval("-12"), json!(-12));
    assert_eq!(eval("2.5"), json!(2.5));
    assert_eq!(eval("'a\\'b\\n'"), json!("a'b\n"));
    assert_eq!(eval("null"), json!(null));
    assert_eq!(eval("[1, 'x', [true], null,]"), json!([1, "x", [true], null]));
    assert_eq!(eval_with("${vars.x}", json!({"vars.x": {"a": [1]}})), Ok(json!({"a": [1]})));
}

#[test]
fn precedence_is_or_and_not_comparison() {
    // `and` binds tighter than `or`: true or (false and false).
    assert_eq!(eval("true or false and false"), json!(true));
    assert_eq!(eval("(true or false) and false"), json!(false));
    // `not` binds looser than comparisons: not (1 == 2); `(not 1) == 2` would be an error.
    assert_eq!(eval("not 1 == 2"), json!(true));
    assert_eq!(eval("not 'a' in ['a']"), json!(false));
    // `not` binds tighter than `and`: (not false) and false.
    assert_eq!(eval("not false and false"), json!(false));
    assert_eq!(eval("not not true"), json!(true));
}

#[test]
fn equality_is_deep_and_numeric() {
    assert_eq!(eval("1 == 1.0"), json!(true));
    assert_eq!(eval("[1, [2, []]] == [1.0, [2.0, []]]"), json!(true));
    assert_eq!(
        eval_with("${vars.o} == ${vars.p}", json!({"vars.o": {"a": [1, 2]}, "vars.p": {"a": [1.0, 2]}})),
        Ok(json!(true))
    );
    assert_eq!(
        eval_with("${vars.o} != ${vars.p}", json!({"vars.o": {"a": 1}, "vars.p": {"a": 1, "b": 2}})),
        Ok(json!(true))
    );
    assert_eq!(eval("'1' == 1"), json!(false));
    assert_eq!(eval("null != false"), json!(true));
    assert_eq!(eval("'請求書' == \"請求書\""), json!(true));
}

#[test]
fn ordering_works_on_numbers_and_strings_only() {
    assert_eq!(eval("2 < 10"), json!(true));
    assert_eq!(eval("-1.5 >= -2"), json!(true));
    assert_eq!(eval("3 <= 3.0"), json!(true));
    assert_eq!(eval("'10' < '9'"), json!(true), "strings compare by code point");
    assert_eq!(eval("'Z' < 'a' and 'a' < 'é'"), json!(true));
    assert_eq!(eval("'abc' > 'ab'"), json!(true));

    let message = eval_error("'abc' < 3", json!({}));
    assert_eq!(
        message,
        "cannot compare string \"abc\" with number 3 using `<`; `<` compares two numbers or two strings"
    );
    let message = eval_error("${vars.n} >= null", json!({"vars.n": "x".repeat(500)}));
    assert_words(&message, &["cannot compare string \"xxxx", "…", "from `${vars.n}`", "with null", "using `>=`"]);
    assert!(message.len() < 200, "{message}");
    assert_words(&eval_error("[1] > [0]", json!({})), &["list [1]", "list [0]", "`>`"]);
    assert_words(&eval_error("true <= false", json!({})), &["boolean true", "boolean false"]);
}

#[test]
fn membership_in_lists_strings_and_objects() {
    assert_eq!(eval("1 in [0, 1.0]"), json!(true));
    assert_eq!(eval("[1] in [[1.0], 2]"), json!(true));
    assert_eq!(eval("3 not in [1, 2]"), json!(true));
    assert_eq!(eval("'voice' in 'invoice'"), json!(true));
    assert_eq!(eval("'' in ''"), json!(true));
    assert_eq!(eval("'書' not in '請求書'"), json!(false));
    assert_eq!(eval_with("'a' in ${vars.o}", json!({"vars.o": {"a": null}})), Ok(json!(true)));
    assert_eq!(eval_with("'b' not in ${vars.o}", json!({"vars.o": {"a": null}})), Ok(json!(true)));

    assert_words(
        &eval_error("1 in 123", json!({})),
        &["`in` needs a list, string or object on the right", "number 123"],
    );
    assert_words(&eval_error("1 not in null", json!({})), &["`not in` needs a list, string or object", "got null"]);
    assert_words(
        &eval_error("1 in 'a1'", json!({})),
        &["`in` with a string on the right", "substring", "got number 1"],
    );
    assert_words(
        &eval_error("1 in ${vars.o}", json!({"vars.o": {"1": true}})),
        &["`in` with an object on the right", "a key", "needs a string on the left", "got number 1"],
    );
}

#[test]
fn boolean_operators_take_booleans_only() {
    assert_eq!(eval("true and true and false"), json!(false));
    assert_eq!(eval("false or false or true"), json!(true));
    assert_words(&eval_error("1 and true", json!({})), &["`and` needs true or false", "got number 1"]);
    assert_words(&eval_error("false or 'yes'", json!({})), &["`or` needs true or false", "got string \"yes\""]);
    assert_words(
        &eval_error("not ${vars.s}", json!({"vars.s": ""})),
        &["`not` needs true or false", "string \"\" from `${vars.s}`"],
    );
    assert_words(&eval_error("true and null", json!({})), &["`and`", "got null"]);
}

#[test]
fn and_or_short_circuit_without_resolving_the_rest() {
    for (source, expected) in [
        ("${vars.f} and ${vars.t}", false),
        ("${vars.t} or ${vars.f}", true),
        ("${vars.f} and (${vars.t} or ${vars.t})", false),
        ("${vars.t} or ${vars.missing} == 1", true),
        ("${vars.f} and 'not a boolean'", false),
    ] {
        let mut calls = Vec::new();
        let mut resolve = |reference: &Reference| {
            calls.push(reference.to_string());
            Ok(json!(reference.path.first().is_some_and(|name| name == "t")))
        };
        assert_eq!(compile(source).unwrap().eval_bool(&mut resolve), Ok(expected), "{source}");
        assert_eq!(calls.len(), 1, "`{source}` resolved {calls:?}");
    }
    // Without a decisive operand every operand is evaluated, in order.
    let mut calls = Vec::new();
    let mut resolve = |reference: &Reference| {
        calls.push(reference.to_string());
        Ok(json!(true))
    };
    assert_eq!(compile("${vars.a} and ${vars.b} and ${vars.c}").unwrap().eval_bool(&mut resolve), Ok(true));
    assert_eq!(calls, ["${vars.a}", "${vars.b}", "${vars.c}"]);
}

#[test]
fn len_counts_characters_items_and_keys() {
    assert_eq!(eval("len('請求書')"), json!(3));
    assert_eq!(eval("len([1, [2, 3]])"), json!(2));
    assert_eq!(eval("len('')"), json!(0));
    assert_eq!(eval_with("len(${vars.o})", json!({"vars.o": {"a": 1, "b": 2}})), Ok(json!(2)));
    assert_eq!(eval("len([]) == 0 and len('ab') > 1"), json!(true));
    assert_eq!(eval_error("len(3)", json!({})), "`len` takes a string, list or object, got number 3");
    assert_words(
        &eval_error("len(${vars.b})", json!({"vars.b": true})),
        &["`len` takes", "got boolean true from `${vars.b}`"],
    );
}

#[test]
fn unresolved_references_are_errors_naming_the_reference() {
    let message = eval_error("${vars.month} == '2024-05'", json!({}));
    assert_eq!(message, "cannot resolve `${vars.month}`: no value named `vars.month`");
    assert_words(&eval_error("[1, ${x.out}]", json!({})), &["`${x.out}`", "no value named `x.out`"]);
}

#[test]
fn conditions_never_treat_values_as_truthy() {
    let condition = compile_condition("${vars.x}").unwrap();
    for value in [json!(1), json!("true"), json!([true]), json!({}), json!(null)] {
        let error = condition.eval_bool(&mut from(json!({"vars.x": value.clone()}))).unwrap_err();
        assert_words(&error.message, &["the condition must be true or false", "from `${vars.x}`"]);
    }
    assert_eq!(condition.eval_bool(&mut from(json!({"vars.x": false}))), Ok(false));
    // An evaluation error is an error, never a true condition.
    assert!(compile_condition("${vars.missing} == 1 or true").unwrap().eval_bool(&mut from(json!({}))).is_err());
    let error = compile("1").unwrap().eval_bool(&mut from(json!({}))).unwrap_err();
    assert_eq!(error.to_string(), "the condition must be true or false, got number 1");
}

#[test]
fn compiled_expressions_are_reusable_values() {
    let expr = compile("${vars.n} > 2").unwrap();
    let copy = expr.clone();
    assert_eq!(expr, copy);
    assert_ne!(expr, compile("${vars.n} > 3").unwrap());
    assert_eq!(copy.eval_bool(&mut from(json!({"vars.n": 3}))), Ok(true));
    assert_eq!(expr.eval_bool(&mut from(json!({"vars.n": 1}))), Ok(false));
}
