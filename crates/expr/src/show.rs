//! A compiled tree written back as expression text, for messages: `${a.b} == 'x'`, `len(${l}) > 0`.

use std::fmt::Write;

use serde_json::Value;

use crate::parser::Node;

/// Characters of expression text shown in a message.
const SHOWN_CHARS: usize = 80;

/// Binding strength of each level of the grammar, loosest first.
const OR: u8 = 1;
const AND: u8 = 2;
const NOT: u8 = 3;
const COMPARISON: u8 = 4;
const PRIMARY: u8 = 5;

/// `node` as source text, cut to about [`SHOWN_CHARS`] characters.
pub(crate) fn show(node: &Node) -> String {
    let mut out = String::new();
    write(node, 0, &mut out);
    if out.chars().count() <= SHOWN_CHARS {
        return out;
    }
    let mut cut: String = out.chars().take(SHOWN_CHARS - 1).collect();
    cut.push('…');
    cut
}

fn level(node: &Node) -> u8 {
    match node {
        Node::Or(_) => OR,
        Node::And(_) => AND,
        Node::Not(_) => NOT,
        Node::Compare(..) => COMPARISON,
        Node::Literal(_) | Node::List(_) | Node::Ref(_) | Node::Len(_) => PRIMARY,
    }
}

/// Writes `node`, in parentheses if it binds more loosely than `min` allows there.
fn write(node: &Node, min: u8, out: &mut String) {
    let parenthesised = level(node) < min;
    if parenthesised {
        out.push('(');
    }
    match node {
        Node::Literal(Value::String(text)) => quote(text, out),
        Node::Literal(value) => out.push_str(&value.to_string()),
        Node::Ref(reference) => {
            let _ = write!(out, "{reference}");
        }
        Node::List(items) => {
            out.push('[');
            join(items, ", ", 0, out);
            out.push(']');
        }
        Node::Not(operand) => {
            out.push_str("not ");
            write(operand, NOT, out);
        }
        Node::And(operands) => join(operands, " and ", NOT, out),
        Node::Or(operands) => join(operands, " or ", AND, out),
        Node::Compare(left, op, right) => {
            write(left, PRIMARY, out);
            let _ = write!(out, " {} ", op.symbol());
            write(right, PRIMARY, out);
        }
        Node::Len(argument) => {
            out.push_str("len(");
            write(argument, 0, out);
            out.push(')');
        }
    }
    if parenthesised {
        out.push(')');
    }
}

fn join(nodes: &[Node], separator: &str, min: u8, out: &mut String) {
    for (index, node) in nodes.iter().enumerate() {
        if index > 0 {
            out.push_str(separator);
        }
        write(node, min, out);
    }
}

/// A string literal in single quotes, with the lexer's escapes.
fn quote(text: &str, out: &mut String) {
    out.push('\'');
    for c in text.chars() {
        match c {
            '\'' => out.push_str("\\'"),
            '\\' => out.push_str("\\\\"),
            '\n' => out.push_str("\\n"),
            '\t' => out.push_str("\\t"),
            _ => out.push(c),
        }
    }
    out.push('\'');
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::compile;

    fn shown(source: &str) -> String {
        show(&compile(source).unwrap().root)
    }

    #[test]
    fn text_round_trips_with_needed_parentheses_only() {
        for source in [
            "${vars.a} == 'x'",
            "not (${vars.a} > 1 and ${vars.b} == 'x')",
            "(${vars.a} or ${vars.b}) and not ${vars.c}",
            "${vars.a} or ${vars.b} and ${vars.c}",
            "(${vars.a} == 1) == true",
            "len([1, 'a\\'b\\n', null, [true]]) >= 2.5",
            "${vars.a} not in ['x'] or not not false",
        ] {
            assert_eq!(shown(source), source);
        }
        assert_eq!(shown("((${vars.a}))"), "${vars.a}");
        assert_eq!(shown("${vars.a} or (${vars.b} or ${vars.c})"), "${vars.a} or (${vars.b} or ${vars.c})");
    }

    #[test]
    fn long_text_is_shortened() {
        let source = format!("'{}' == ${{vars.a}}", "請".repeat(200));
        let text = shown(&source);
        assert_eq!(text.chars().count(), SHOWN_CHARS);
        assert!(text.ends_with('…'));
    }
}
