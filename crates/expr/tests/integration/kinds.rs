//! Static kind checks: each rule, both severities, silence about unknown kinds, and agreement
//! with what evaluation really does.

use planwright_expr::{compile, Kind, KindProblem};
use planwright_plan::reference::Reference;

/// Kinds by reference text without `${}`: "approve.approved" and so on; anything else Unknown.
fn kinds_from<'a>(known: &'a [(&'a str, Kind)]) -> impl FnMut(&Reference) -> Kind + 'a {
    move |reference| {
        let text = reference.to_string();
        let name = &text[2..text.len() - 1];
        known.iter().find(|(known, _)| *known == name).map_or(Kind::Unknown, |(_, kind)| *kind)
    }
}

fn problems(source: &str, known: &[(&str, Kind)]) -> Vec<KindProblem> {
    compile(source).unwrap_or_else(|error| panic!("`{source}`: {error}")).check_kinds(&mut kinds_from(known))
}

/// The one problem of `source`, which must have the given severity and contain every word.
fn problem(source: &str, known: &[(&str, Kind)], fails: bool, words: &[&str]) {
    let found = problems(source, known);
    assert_eq!(found.len(), 1, "`{source}`: {found:#?}");
    let KindProblem { message, fails: found_fails } = &found[0];
    assert_eq!(*found_fails, fails, "`{source}`: {message}");
    for word in words {
        assert!(message.contains(word), "`{word}` missing from: {message}");
    }
}

fn fine(source: &str, known: &[(&str, Kind)]) {
    let found = problems(source, known);
    assert!(found.is_empty(), "`{source}`: {found:#?}");
}

const APPROVED: (&str, Kind) = ("approve.approved", Kind::Boolean);
const COUNT: (&str, Kind) = ("vars.count", Kind::Number);
const NAME: (&str, Kind) = ("vars.name", Kind::String);
const ITEMS: (&str, Kind) = ("fetch.items", Kind::List);
const MAP: (&str, Kind) = ("fetch.map", Kind::Object);
const NOTHING: (&str, Kind) = ("vars.nothing", Kind::Null);
const ALL: &[(&str, Kind)] = &[APPROVED, COUNT, NAME, ITEMS, MAP, NOTHING];

#[test]
fn equality_of_different_kinds_is_a_warning_with_the_fixed_answer() {
    problem(
        "${approve.approved} == 'yes'",
        ALL,
        false,
        &[
            "`${approve.approved}` (a boolean)",
            "`'yes'` (a string)",
            "`==`",
            "always false",
            "never equal",
            "e.g. `${approve.approved} == true`",
        ],
    );
    problem("'yes' != ${approve.approved}", ALL, false, &["always true", "`!=`", "e.g. `true != ${approve.approved}`"]);
    problem("${vars.count} == '3'", ALL, false, &["(a number)", "(a string)", "e.g. `${vars.count} == 3`"]);
    problem("${vars.name} == 3", ALL, false, &["e.g. `${vars.name} == '3'`"]);
    problem(
        "${fetch.items} != ${fetch.map}",
        ALL,
        false,
        &["`${fetch.items}` (a list)", "`${fetch.map}` (an object)", "always true", "same kind"],
    );
    problem("${vars.name} == ['a', 'b']", ALL, false, &["(a list)", "write `in`, e.g. `${vars.name} in ['a', 'b']`"]);
    problem(
        "len(${vars.name}) == '2'",
        ALL,
        false,
        &["`len(${vars.name})` (a number)", "e.g. `len(${vars.name}) == 2`"],
    );
    problem(
        "(${vars.count} > 1) == 'true'",
        ALL,
        false,
        &["`${vars.count} > 1` (a boolean)", "e.g. `(${vars.count} > 1) == true`"],
    );
}

#[test]
fn equality_of_same_kinds_or_with_null_or_unknown_is_fine() {
    for source in [
        "${vars.count} == 2.5",
        "${vars.count} != len(${fetch.items})",
        "${vars.name} == 'x'",
        "${approve.approved} == false",
        "${fetch.items} == [1, 'a']",
        "${fetch.map} == ${fetch.map}",
        "${vars.count} == null",
        "null != ${approve.approved}",
        "${vars.nothing} == 'x'",
        "${vars.other} == 'x'",
        "${vars.other} != ${approve.approved}",
    ] {
        fine(source, ALL);
    }
}

#[test]
fn ordering_needs_two_numbers_or_two_strings() {
    problem(
        "${approve.approved} > 1",
        ALL,
        true,
        &[
            "`${approve.approved}` (a boolean)",
            "`1` (a number)",
            "`>` orders two numbers or two strings",
            "fails at run time",
            "e.g. `${approve.approved} == true`",
        ],
    );
    problem("${fetch.items} >= 2", ALL, true, &["(a list)", "e.g. `len(${fetch.items}) >= 2`"]);
    problem("3 < ${fetch.map}", ALL, true, &["(an object)", "e.g. `3 < len(${fetch.map})`"]);
    problem(
        "${vars.count} < '10'",
        ALL,
        true,
        &["(a number)", "(a string)", "without quotes, e.g. `${vars.count} < 10`"],
    );
    problem("${vars.count} <= ${vars.name}", ALL, true, &["both sides numbers or both strings"]);
    problem("${vars.name} < null", ALL, true, &["`null`", "null cannot be ordered"]);
    problem("${vars.nothing} > 0", ALL, true, &["`${vars.nothing}` (null)"]);
    // A side that can never be ordered fails whatever the other, unknown side is.
    problem("${vars.other} < true", ALL, true, &["`${vars.other}` with `true` (a boolean)", "in place of `true`"]);
    for source in [
        "${vars.count} > 1",
        "len(${vars.name}) <= ${vars.count}",
        "${vars.name} >= 'm'",
        "${vars.other} < 'm'",
        "${vars.other} > ${vars.count}",
        "${vars.other} > ${vars.another}",
    ] {
        fine(source, ALL);
    }
}

#[test]
fn membership_needs_a_list_or_a_string_or_object_searched_with_a_string() {
    problem(
        "'a' in ${vars.count}",
        ALL,
        true,
        &["`in` needs a list, a string or an object on the right", "`${vars.count}` (a number)", "use `==`"],
    );
    problem("${vars.other} not in true", ALL, true, &["`not in`", "use `!=`"]);
    problem(
        "1 in ${vars.name}",
        ALL,
        true,
        &["looks for a substring", "`1` (a number)", "`${vars.name}` (a string)", "e.g. `'1' in ${vars.name}`"],
    );
    problem("${vars.count} not in ${fetch.map}", ALL, true, &["looks for a key", "(a number)", "(an object)"]);
    problem("['a', 'b'] in ${vars.name}", ALL, true, &["swap the sides: `${vars.name} in ['a', 'b']`"]);
    for source in [
        "${vars.name} in ${fetch.map}",
        "'ab' in ${vars.name}",
        "${approve.approved} in ${fetch.items}",
        "${vars.count} in ${vars.other}",
        "${vars.other} in ${vars.name}",
        "${vars.other} in ${fetch.map}",
        "${fetch.map} in [${fetch.map}]",
        "null in ['a']",
        "${vars.nothing} in [1]",
    ] {
        fine(source, ALL);
    }
}

#[test]
fn membership_in_a_list_literal_without_an_item_of_the_same_kind_is_fixed() {
    problem(
        "${approve.approved} in ['yes', 'no']",
        ALL,
        false,
        &[
            "always false",
            "`${approve.approved}` (a boolean)",
            "`['yes', 'no']` (a list of strings)",
            "e.g. `${approve.approved} in [true]`",
        ],
    );
    problem(
        "${vars.count} not in ['1', '2']",
        ALL,
        false,
        &["always true", "`not in`", "e.g. `${vars.count} not in [1, 2]`"],
    );
    problem(
        "${vars.name} in [1, true]",
        ALL,
        false,
        &["a list of numbers and booleans", "e.g. `${vars.name} in ['1', 'true']`"],
    );
    problem("${vars.other} in []", ALL, false, &["always false", "empty"]);
    problem("${vars.count} not in []", ALL, false, &["always true", "e.g. `${vars.count} not in [1, 2]`"]);
    for source in [
        "${vars.name} in ['a', 1]",
        "${vars.count} in [1.5, 'x']",
        "${vars.name} in [${vars.other}, 1]",
        "${vars.name} in [null, 1]",
        "${vars.other} in [1, 'a']",
        "${fetch.items} in [[1], 2]",
        "(${vars.count} > 1) in [true]",
    ] {
        fine(source, ALL);
    }
}

#[test]
fn logic_operands_and_the_condition_must_be_booleans() {
    problem(
        "${vars.name} and ${approve.approved}",
        ALL,
        true,
        &[
            "`and` needs true or false",
            "`${vars.name}` is a string",
            "`${vars.name} and ${approve.approved}` fails at run time",
            "e.g. `${vars.name} == 'done'`",
        ],
    );
    problem("${approve.approved} or ${vars.count}", ALL, true, &["`or`", "is a number", "e.g. `${vars.count} > 0`"]);
    problem(
        "not ${fetch.items}",
        ALL,
        true,
        &["`not` needs true or false", "is a list", "e.g. `len(${fetch.items}) > 0`"],
    );
    problem("not ${vars.nothing}", ALL, true, &["is null", "always null"]);
    problem("${approve.approved} and 'yes'", ALL, true, &["`'yes'` is a string", "write a comparison there"]);
    problem("len(${vars.name}) or true", ALL, true, &["`len(${vars.name})` is a number"]);
    problem(
        "${fetch.map}",
        ALL,
        true,
        &["a condition must be true or false", "`${fetch.map}` is an object", "e.g. `len(${fetch.map}) > 0`"],
    );
    assert_eq!(problems("${vars.name} or ${vars.count}", ALL).len(), 2);
    for source in [
        "${approve.approved}",
        "${approve.approved} and not ${approve.approved}",
        "${vars.count} > 1 or ${vars.name} in ['a'] and not (${vars.name} == 'b')",
        "${vars.other} and ${vars.another} or not ${vars.third}",
        "${vars.other}",
        "true",
    ] {
        fine(source, ALL);
    }
}

#[test]
fn len_needs_a_string_list_or_object() {
    problem(
        "len(${vars.count}) > 0",
        ALL,
        true,
        &["`len` takes a string, a list or an object", "`${vars.count}` is a number", "`len(${vars.count})` fails"],
    );
    problem("len(${approve.approved}) == 1", ALL, true, &["is a boolean"]);
    problem("len(${vars.nothing}) == 1", ALL, true, &["is null"]);
    problem("len(1 == 1) == 1", ALL, true, &["`1 == 1` is a boolean"]);
    for source in [
        "len(${vars.name}) > 0",
        "len(${fetch.items}) > 0",
        "len(${fetch.map}) > 0",
        "len([1, 2]) == 2",
        "len(${vars.other}) > 0",
        "len('abc') == 3",
    ] {
        fine(source, ALL);
    }
}

#[test]
fn nested_expressions_are_checked_at_every_level() {
    let source = "not (${a.x} > 1 and ${b.y} == 'x')";
    fine(source, &[]);
    fine(source, &[("a.x", Kind::Number), ("b.y", Kind::String)]);
    problem(source, &[("a.x", Kind::Boolean)], true, &["`${a.x} > 1` fails", "`${a.x}` (a boolean)"]);
    problem(source, &[("b.y", Kind::Boolean)], false, &["`${b.y} == 'x'` is always false"]);
    let both = problems(source, &[("a.x", Kind::Boolean), ("b.y", Kind::Number)]);
    let severities: Vec<bool> = both.iter().map(|problem| problem.fails).collect();
    assert_eq!(severities, vec![true, false], "{both:#?}");

    // A problem inside does not make the result unknown or wrong: `len` still gives a number,
    // and a failing comparison still counts as a boolean.
    problem("len(${vars.count}) > 0 and true", ALL, true, &["`len` takes"]);
    problem("not (${approve.approved} < 1)", ALL, true, &["orders two numbers"]);
    problem("[${approve.approved} > 1] == [true]", ALL, true, &["`${approve.approved} > 1` fails"]);
    // `${vars.name}` and `1` for `and`, `2` for `len`, and `len(2)` for `or`.
    assert_eq!(problems("(${vars.name} and 1) or len(2)", ALL).len(), 4);
}

#[test]
fn nothing_is_reported_about_unknown_kinds() {
    for source in [
        "${a.x} == 'yes'",
        "'yes' != ${a.x}",
        "[1] == ${a.x}",
        "${a.x} > 1",
        "1 <= ${a.x}",
        "${a.x} < ${b.y}",
        "${a.x} in ${b.y}",
        "1 in ${b.y}",
        "${a.x} in [1, 'a']",
        "${a.x} and ${b.y} or not ${c.z}",
        "len(${a.x}) > 0",
        "${a.x}",
        "not (${a.x} > 1 and ${b.y} == 'x')",
    ] {
        fine(source, &[]);
    }
}

#[test]
fn result_kind_is_inferred_bottom_up() {
    let kind = |source: &str| compile(source).unwrap().result_kind(&mut kinds_from(ALL));
    assert_eq!(kind("${vars.name}"), Kind::String);
    assert_eq!(kind("${vars.other}"), Kind::Unknown);
    assert_eq!(kind("len(${vars.other})"), Kind::Number);
    assert_eq!(kind("[${vars.other}]"), Kind::List);
    assert_eq!(kind("'a'"), Kind::String);
    assert_eq!(kind("null"), Kind::Null);
    assert_eq!(kind("2.5"), Kind::Number);
    assert_eq!(kind("${vars.other} in ${vars.other}"), Kind::Boolean);
    assert_eq!(kind("${vars.other} or ${vars.other}"), Kind::Boolean);
    assert_eq!(kind("not ${vars.name}"), Kind::Boolean);
    assert_eq!(kind("(${vars.count})"), Kind::Number);
}

#[test]
fn kind_of_is_asked_once_per_reference_in_source_order() {
    let expr = compile("${a.x} in [${b.y}, len(${c.z})] and ${a.x} > ${d.w}").unwrap();
    let mut asked = Vec::new();
    expr.check_kinds(&mut |reference| {
        asked.push(reference.to_string());
        Kind::Unknown
    });
    let expected: Vec<String> = expr.references().map(ToString::to_string).collect();
    assert_eq!(asked, expected);
}

#[test]
fn kinds_have_names() {
    let names: Vec<String> =
        [Kind::String, Kind::Number, Kind::Boolean, Kind::Null, Kind::List, Kind::Object, Kind::Unknown]
            .iter()
            .map(ToString::to_string)
            .collect();
    assert_eq!(names, ["string", "number", "boolean", "null", "list", "object", "unknown"]);
    assert_eq!(Kind::of(&serde_json::json!({"a": 1})), Kind::Object);
    assert_eq!(Kind::of(&serde_json::json!([1])), Kind::List);
}
