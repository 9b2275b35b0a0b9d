//! Kind checks of the comparison operators: `==`, `!=`, the orderings, `in` and `not in`.

use std::fmt;

use serde_json::Value;

use super::advice::{convert, example, examples, is_literal, len_of, shown};
use super::{Checker, Kind};
use crate::parser::{CmpOp, Node};
use crate::show::show;

impl Checker<'_, '_> {
    pub(super) fn compare(&mut self, whole: &Node, left: &Node, op: CmpOp, right: &Node) {
        let left = Side { node: left, kind: self.kind(left) };
        // The items of a list literal on the right, for membership tests.
        let items: Option<Vec<Kind>> = match right {
            Node::List(items) => Some(items.iter().map(|item| self.kind(item)).collect()),
            _ => None,
        };
        let right = Side {
            node: right,
            kind: match items {
                Some(_) => Kind::List,
                None => self.kind(right),
            },
        };
        match op {
            CmpOp::Eq | CmpOp::Ne => self.equality(whole, left, op, right),
            CmpOp::Lt | CmpOp::Le | CmpOp::Gt | CmpOp::Ge => self.order(whole, left, op, right),
            CmpOp::In | CmpOp::NotIn => self.membership(whole, left, op, right, items.as_deref()),
        }
    }

    /// `==` and `!=` never fail; between two different known kinds (null aside) the answer is fixed.
    fn equality(&mut self, whole: &Node, left: Side<'_>, op: CmpOp, right: Side<'_>) {
        let (a, b) = (left.kind, right.kind);
        if !a.known() || !b.known() || a == b || a == Kind::Null || b == Kind::Null {
            return;
        }
        let fix = match (is_literal(left.node), is_literal(right.node)) {
            (false, true) => replace_literal(left, op, right, false),
            (true, false) => replace_literal(right, op, left, true),
            _ => "compare values of the same kind (or with null)".to_owned(),
        };
        self.report(
            false,
            format!(
                "`{}` is always {}: `{}` compares {left} with {right}, and values of different kinds are never equal; {fix}",
                show(whole),
                op == CmpOp::Ne,
                op.symbol(),
            ),
        );
    }

    /// `<`, `<=`, `>`, `>=` order two numbers or two strings and fail on anything else.
    fn order(&mut self, whole: &Node, left: Side<'_>, op: CmpOp, right: Side<'_>) {
        let orderable = |kind| matches!(kind, Kind::Number | Kind::String | Kind::Unknown);
        let unorderable = [left, right].into_iter().find(|side| !orderable(side.kind));
        let mismatched = left.kind.known() && right.kind.known() && left.kind != right.kind;
        let fix = match unorderable {
            Some(side) if is_literal(side.node) && side.kind != Kind::Null => {
                format!("put a number or a string in place of `{}`", show(side.node))
            }
            Some(side) => match side.kind {
                Kind::Boolean => format!(
                    "test a boolean with `==`, e.g. `{}`",
                    shown(side.node.clone(), CmpOp::Eq, Node::Literal(true.into()))
                ),
                Kind::List | Kind::Object => {
                    let sized = |s: Side<'_>| {
                        if std::ptr::eq(s.node, side.node) {
                            len_of(s.node)
                        } else {
                            s.node.clone()
                        }
                    };
                    format!("compare its size, e.g. `{}`", shown(sized(left), op, sized(right)))
                }
                _ => "null cannot be ordered: compare with it using `==` or `!=`".to_owned(),
            },
            None if mismatched => {
                let unquoted = |s: Side<'_>| convert(s.node, Kind::Number);
                match (unquoted(left), unquoted(right)) {
                    (Some(number), _) => {
                        format!("write the number without quotes, e.g. `{}`", shown(number, op, right.node.clone()))
                    }
                    (_, Some(number)) => {
                        format!("write the number without quotes, e.g. `{}`", shown(left.node.clone(), op, number))
                    }
                    _ => "make both sides numbers or both strings".to_owned(),
                }
            }
            None => return,
        };
        self.report(
            true,
            format!(
                "`{}` fails at run time: `{}` orders two numbers or two strings, but it compares {left} with {right}; {fix}",
                show(whole),
                op.symbol(),
            ),
        );
    }

    /// `in` and `not in` look for an item of a list, a substring of a string or a key of an object.
    /// `items` are the kinds of the items when the right side is a list literal.
    fn membership(&mut self, whole: &Node, needle: Side<'_>, op: CmpOp, haystack: Side<'_>, items: Option<&[Kind]>) {
        let symbol = op.symbol();
        let (looks_for, fix) = match (haystack.kind, items) {
            (Kind::List, Some(items)) => return self.list_membership(whole, needle, op, haystack.node, items),
            (Kind::Unknown | Kind::List, _) => return,
            (Kind::String | Kind::Object, _) if !needle.kind.known() || needle.kind == Kind::String => {
                return;
            }
            (Kind::String | Kind::Object, _) => {
                let looks_for = match haystack.kind {
                    Kind::String => "a string on the right looks for a substring",
                    _ => "an object on the right looks for a key",
                };
                let fix = match (convert(needle.node, Kind::String), needle.node) {
                    (Some(quoted), _) => format!("quote it, e.g. `{}`", shown(quoted, op, haystack.node.clone())),
                    (None, Node::List(_)) => format!(
                        "to test whether `{}` is one of the listed values, swap the sides: `{}`",
                        show(haystack.node),
                        shown(haystack.node.clone(), op, needle.node.clone())
                    ),
                    _ => "put a string on the left".to_owned(),
                };
                (format!("with {looks_for}, so it needs a string on the left"), fix)
            }
            _ => {
                let equality = if op == CmpOp::In { "==" } else { "!=" };
                (
                    "needs a list, a string or an object on the right".to_owned(),
                    format!("to test equality use `{equality}`; to test membership put a list, string or object on the right"),
                )
            }
        };
        self.report(
            true,
            format!(
                "`{}` fails at run time: `{symbol}` {looks_for}, but it compares {needle} with {haystack}; {fix}",
                show(whole),
            ),
        );
    }

    /// Membership in a list literal is fixed when no item can equal the left side.
    fn list_membership(&mut self, whole: &Node, needle: Side<'_>, op: CmpOp, list: &Node, item_kinds: &[Kind]) {
        let Node::List(items) = list else {
            return;
        };
        let always = op == CmpOp::NotIn;
        if items.is_empty() {
            return self.report(
                false,
                format!(
                    "`{}` is always {always}: `{}` looks in the list `[]`, which is empty; list the values to look for, e.g. `{}`",
                    show(whole),
                    op.symbol(),
                    shown(needle.node.clone(), op, Node::List(examples(needle.kind)))
                ),
            );
        }
        if !needle.kind.known() || needle.kind == Kind::Null {
            return;
        }
        let mut kinds: Vec<Kind> = Vec::new();
        for &kind in item_kinds {
            if !kind.known() || kind == Kind::Null || kind == needle.kind {
                return;
            }
            if !kinds.contains(&kind) {
                kinds.push(kind);
            }
        }
        let listed: Vec<&str> = kinds.iter().map(|kind| kind.plural()).collect();
        let converted: Option<Vec<Node>> = items.iter().map(|item| convert(item, needle.kind)).collect();
        let example = converted.map(Node::List).or_else(|| example(needle.kind).map(|item| Node::List(vec![item])));
        let fix = match example {
            Some(list) => {
                format!("list {} instead, e.g. `{}`", needle.kind.plural(), shown(needle.node.clone(), op, list))
            }
            None => format!("list {} instead", needle.kind.plural()),
        };
        self.report(
            false,
            format!(
                "`{}` is always {always}: `{}` compares {needle} with each item of `{}` (a list of {}), and values of different kinds are never equal; {fix}",
                show(whole),
                op.symbol(),
                show(list),
                listed.join(" and "),
            ),
        );
    }
}

/// An operand of a comparison and its kind, displayed as "`${a.b}` (a boolean)".
#[derive(Clone, Copy)]
struct Side<'n> {
    node: &'n Node,
    kind: Kind,
}

impl fmt::Display for Side<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "`{}`", show(self.node))?;
        match (self.node, self.kind) {
            (Node::Literal(Value::Null), _) | (_, Kind::Unknown) => Ok(()),
            (_, kind) => write!(f, " ({})", kind.described()),
        }
    }
}

/// Advice for `==`/`!=` between `kept` and the literal `literal`: a literal of `kept`'s kind.
fn replace_literal(kept: Side<'_>, op: CmpOp, literal: Side<'_>, literal_first: bool) -> String {
    if let Node::List(_) = literal.node {
        if !literal_first {
            let membership = if op == CmpOp::Eq { CmpOp::In } else { CmpOp::NotIn };
            return format!(
                "to test membership write `{}`, e.g. `{}`",
                membership.symbol(),
                shown(kept.node.clone(), membership, literal.node.clone())
            );
        }
    }
    let wanted = kept.kind;
    let Some(replacement) = convert(literal.node, wanted).or_else(|| example(wanted)) else {
        return format!("compare with {} instead", wanted.described());
    };
    let fixed = if literal_first {
        shown(replacement, op, kept.node.clone())
    } else {
        shown(kept.node.clone(), op, replacement)
    };
    format!("compare with {} instead, e.g. `{fixed}`", wanted.described())
}
