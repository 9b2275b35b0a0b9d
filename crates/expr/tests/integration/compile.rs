//! Syntax: what compiles, and what each compile error says and where.

use planwright_expr::{compile, compile_condition, ExprError};

fn error(source: &str) -> ExprError {
    match compile(source) {
        Ok(expr) => panic!("`{source}` compiled to {expr:?}"),
        Err(error) => error,
    }
}

/// Asserts the error's offset, that the message names it, and that it contains every key word.
fn assert_error(source: &str, offset: usize, words: &[&str]) {
    let error = error(source);
    assert_eq!(error.offset, offset, "offset for `{source}`: {}", error.message);
    assert!(error.message.contains(&format!("at character {offset}")), "{}", error.message);
    for word in words {
        assert!(error.message.contains(word), "`{word}` missing from: {}", error.message);
    }
}

#[test]
fn the_whole_language_compiles() {
    for source in [
        "true",
        "${vars.month} == '2024-05'",
        "${read.rows.0.請求書番号} != \"\"",
        "not ${vars.done} and (${vars.count} >= 3 or ${vars.force})",
        "${vars.status} in ['done', 'sent',]",
        "'@' not in ${vars.email}",
        "len(${vars.items}) > 0",
        "len([1, [2, 3], []]) == 3",
        "-1.5 < 0 and -7 <= -7",
        "null == ${env.HOME}",
        "'it\\'s \"fine\"\\n\\t\\\\' == \"it's \\\"fine\\\"\\n\\t\\\\\"",
        "(((true)))",
        "\n\t ${ vars.x }\n==\t1 ",
        "[]",
    ] {
        if let Err(error) = compile(source) {
            panic!("`{source}`: {error}");
        }
    }
}

#[test]
fn source_and_references_are_kept_in_order() {
    let expr = compile("${b.out} == ${vars.a} or len(${env.X}) in [${secrets.K}, ${vars.a}]").unwrap();
    assert_eq!(expr.source(), "${b.out} == ${vars.a} or len(${env.X}) in [${secrets.K}, ${vars.a}]");
    let references: Vec<String> = expr.references().map(ToString::to_string).collect();
    assert_eq!(references, ["${b.out}", "${vars.a}", "${env.X}", "${secrets.K}", "${vars.a}"]);
    assert_eq!(compile("true").unwrap().references().count(), 0);
}

#[test]
fn missing_operands_name_the_operator_before_them() {
    assert_error("${vars.a} and", 13, &["expected an operand after `and`", "end of the expression"]);
    assert_error("${vars.a} or )", 13, &["expected an operand after `or`", "found `)`"]);
    assert_error("1 == and", 5, &["expected an operand after `==`", "found `and`"]);
    assert_error("[1, ,]", 4, &["expected an operand after `,`", "found `,`"]);
    assert_error("1 == not true", 5, &["after `==`", "found `not`", "parentheses"]);
    assert_error("and true", 0, &["expected an expression", "found `and`"]);
    assert_error("   ", 3, &["empty expression"]);
}

#[test]
fn offsets_are_characters_not_bytes() {
    assert_error("'請求書' ==", 8, &["expected an operand after `==`", "end of the expression"]);
    assert_error("'請求書' == 'abc", 9, &["unterminated string starting"]);
    assert_error("'請求書' == ${vars.x", 9, &["unterminated reference"]);
    assert_error("'請求書' ≠ 1", 6, &["unexpected character `≠`"]);
}

#[test]
fn literals_report_what_is_wrong() {
    assert_error("1 == 'abc", 5, &["unterminated string starting", "closing `'`"]);
    assert_error("\"abc\\", 0, &["unterminated string starting", "closing `\"`"]);
    assert_error("'a\\qb'", 2, &["unknown escape `\\q`", "\\n"]);
    assert_error("1 == -x", 5, &["expected digits after `-`", "no arithmetic"]);
    assert_error("1. == 1", 2, &["expected digits after the decimal point"]);
    assert_error(&"9".repeat(400), 0, &["too large"]);
    assert_error("1 = 1", 2, &["unexpected character `=`", "`==`"]);
    assert_error("true && false", 5, &["unexpected character `&`", "`and`"]);
    assert_error("!true", 0, &["unexpected character `!`", "`not`"]);
    assert_error("$vars.x == 1", 0, &["unexpected character `$`", "${vars.name}"]);
}

#[test]
fn references_are_checked_while_compiling() {
    assert_error("1 == ${vars}", 5, &["invalid reference", "names no variable"]);
    assert_error("${}", 0, &["invalid reference", "empty reference"]);
    assert_error("${secrets.A.b} == 1", 0, &["invalid reference", "one name"]);
}

#[test]
fn names_other_than_len_are_rejected() {
    assert_error("length(${vars.x}) > 1", 0, &["unknown function `length`", "available: `len`"]);
    assert_error("done == true", 0, &["unknown name `done`", "quotes", "${vars.name}"]);
    assert_error("len == 1", 0, &["unknown name `len`", "`len(...)`"]);
    assert_error("len() == 1", 4, &["`len` needs one argument"]);
    assert_error("len('a', 'b') == 1", 7, &["`len` takes one argument", "`,`"]);
    assert_error("android", 0, &["unknown name `android`"]);
}

#[test]
fn keywords_are_lower_case_only() {
    assert_error("True", 0, &["unknown name `True`", "write `true`"]);
    assert_error("${vars.a} AND ${vars.b}", 10, &["expected an operator", "found `AND`", "write `and`"]);
    assert_error("NOT(true)", 0, &["unknown function `NOT`", "write `not`"]);
}

#[test]
fn comparisons_do_not_chain() {
    assert_error("1 < 2 < 3", 6, &["comparisons do not chain", "`<` follows `<`", "and"]);
    assert_error("1 == 1 not in [true]", 7, &["comparisons do not chain", "`not in` follows `==`"]);
    assert!(compile("(1 < 2) == true").is_ok());
}

#[test]
fn unbalanced_brackets_say_which_one() {
    assert_error("(1 == 1", 7, &["expected `)` to close the `(` at character 0", "end of the expression"]);
    assert_error("1 == 1)", 6, &["unmatched `)`"]);
    assert_error("[1 2]", 3, &["expected `,` or `]` in the list opened at character 0", "number `2`"]);
    assert_error("len(1 2)", 6, &["expected `)` to close the `(` at character 3"]);
    assert_error("1 2", 2, &["expected an operator", "`not in`", "or the end of the expression", "found number `2`"]);
    assert_error("1 not 2", 2, &["expected an operator", "found `not`"]);
}

#[test]
fn length_and_depth_are_limited() {
    assert!(compile(&format!("{}true", " ".repeat(4092))).is_ok());
    assert_error(&format!("{}true", " ".repeat(4093)), 4096, &["4096 characters"]);
    assert_error(&"x".repeat(1_000_000), 4096, &["4096 characters"]);

    let nest = |open: &str, close: &str, depth: usize| format!("{}true{}", open.repeat(depth), close.repeat(depth));
    for (open, close, levels) in [("(", ")", 1), ("[", "]", 1), ("not ", "", 1), ("len(", ")", 1), ("(not [", "])", 3)]
    {
        let deepest = compile(&nest(open, close, 64 / levels)).unwrap();
        // Evaluating the deepest tree recurses as far as allowed; the result itself does not matter.
        let _ = deepest.eval(&mut |_| Ok(serde_json::json!(true)));
        let error = error(&nest(open, close, 64 / levels + 1));
        assert!(error.message.contains("limit of 64 levels"), "{}", error.message);
    }
    // Beyond the limit the parser stops at the first level too many, however deep the input goes.
    assert_error(&"(".repeat(4000), 64, &["nesting deeper than the limit"]);
    // Long flat chains are not nesting.
    assert!(compile(&vec!["true"; 400].join(" and ")).is_ok());
    assert!(compile(&format!("[{}]", vec!["1"; 2000].join(","))).is_ok());
}

#[test]
fn conditions_must_be_able_to_be_boolean() {
    for (source, found) in [
        ("3", "number 3"),
        (" 'yes'", "string \"yes\""),
        ("(null)", "null"),
        ("[true]", "a list"),
        ("len(${vars.items})", "`len(...)`"),
    ] {
        let error = compile_condition(source).unwrap_err();
        assert!(error.message.contains("expected a condition"), "{}", error.message);
        assert!(error.message.contains(found), "{}", error.message);
        assert_eq!(error.offset, source.len() - source.trim_start().len());
        assert!(compile(source).is_ok());
    }
    for source in ["true", "${vars.flag}", "len(${vars.items}) > 0", "not ${vars.x}", "1 in [1] or false"] {
        assert!(compile_condition(source).is_ok(), "{source}");
    }
    assert_eq!(compile_condition("1 ==").unwrap_err(), compile("1 ==").unwrap_err());
}

#[test]
fn errors_display_their_message() {
    let error = error("1 <");
    assert_eq!(error.to_string(), error.message);
}
