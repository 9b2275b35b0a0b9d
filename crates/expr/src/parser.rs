//! Recursive descent over the tokens, one function per precedence level. Recursion only happens
//! through nesting (parentheses, lists, `not`, `len(...)`), which is capped at [`MAX_DEPTH`], so
//! the stack stays small whatever the input.

use planwright_plan::reference::Reference;
use serde_json::Value;

use crate::lexer::{keyword_hint, Tok, Token};
use crate::ExprError;

/// Deepest accepted nesting of parentheses, lists, `not` and `len(...)`.
const MAX_DEPTH: usize = 64;

/// The operators that compare two operands.
const OPERATORS: &str = "`and`, `or`, `==`, `!=`, `<`, `<=`, `>`, `>=`, `in`, `not in`";

/// A compiled expression tree. `and` and `or` keep all operands of a chain in one node, so the
/// tree is never deeper than the nesting of the source.
#[derive(Debug, Clone, PartialEq)]
pub(crate) enum Node {
    Literal(Value),
    List(Vec<Node>),
    Ref(Reference),
    Not(Box<Node>),
    And(Vec<Node>),
    Or(Vec<Node>),
    Compare(Box<Node>, CmpOp, Box<Node>),
    Len(Box<Node>),
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum CmpOp {
    Eq,
    Ne,
    Lt,
    Le,
    Gt,
    Ge,
    In,
    NotIn,
}

impl CmpOp {
    pub(crate) fn symbol(self) -> &'static str {
        match self {
            CmpOp::Eq => "==",
            CmpOp::Ne => "!=",
            CmpOp::Lt => "<",
            CmpOp::Le => "<=",
            CmpOp::Gt => ">",
            CmpOp::Ge => ">=",
            CmpOp::In => "in",
            CmpOp::NotIn => "not in",
        }
    }
}

/// Parses all of `tokens`; `end` is the character offset just past the source.
pub(crate) fn parse(tokens: Vec<Token>, end: usize) -> Result<Node, ExprError> {
    let mut parser = Parser { tokens, end: Token { kind: Tok::End, offset: end }, pos: 0, depth: 0 };
    let root = parser.or()?;
    match &parser.peek().kind {
        Tok::End => Ok(root),
        Tok::RParen => Err(parser.found("unmatched `)`").hint("remove it or add the `(` it closes")),
        _ => Err(parser.expected(&format!("an operator ({OPERATORS}) or the end of the expression"))),
    }
}

struct Parser {
    tokens: Vec<Token>,
    /// Returned by `peek` past the last token.
    end: Token,
    pos: usize,
    depth: usize,
}

impl Parser {
    fn peek(&self) -> &Token {
        self.tokens.get(self.pos).unwrap_or(&self.end)
    }

    fn previous(&self) -> Option<&Token> {
        self.pos.checked_sub(1).and_then(|pos| self.tokens.get(pos))
    }

    /// Consumes the next token if it is `kind`.
    fn eat(&mut self, kind: &Tok) -> bool {
        let found = self.peek().kind == *kind;
        if found {
            self.pos += 1;
        }
        found
    }

    /// An error at the next token: "`what` at character N".
    fn found(&self, what: &str) -> ExprError {
        ExprError::at(self.peek().offset, what)
    }

    /// "expected X, found Y at character N", with advice when Y is a capitalised keyword.
    fn expected(&self, what: &str) -> ExprError {
        let found = self.peek();
        let error = self.found(&format!("expected {what}, found {}", found.kind.describe()));
        let hint = match &found.kind {
            Tok::Ident(name) => keyword_hint(name),
            _ => None,
        };
        match hint {
            Some(hint) => error.hint(hint),
            None => error,
        }
    }

    /// Runs `parse` one nesting level deeper, refusing to go beyond [`MAX_DEPTH`].
    fn nested<T>(
        &mut self,
        offset: usize,
        parse: impl FnOnce(&mut Self) -> Result<T, ExprError>,
    ) -> Result<T, ExprError> {
        if self.depth >= MAX_DEPTH {
            return Err(ExprError::at(
                offset,
                format!("nesting deeper than the limit of {MAX_DEPTH} levels (parentheses, lists, `not`, `len(...)`)"),
            )
            .hint("simplify it"));
        }
        self.depth += 1;
        let result = parse(self);
        self.depth -= 1;
        result
    }

    fn or(&mut self) -> Result<Node, ExprError> {
        self.chain(&Tok::Or, Self::and, Node::Or)
    }

    fn and(&mut self) -> Result<Node, ExprError> {
        self.chain(&Tok::And, Self::not, Node::And)
    }

    /// `operand (op operand)*` as one n-ary node, or the single operand.
    fn chain(
        &mut self,
        op: &Tok,
        operand: fn(&mut Self) -> Result<Node, ExprError>,
        build: fn(Vec<Node>) -> Node,
    ) -> Result<Node, ExprError> {
        let first = operand(self)?;
        if self.peek().kind != *op {
            return Ok(first);
        }
        let mut operands = vec![first];
        while self.eat(op) {
            operands.push(operand(self)?);
        }
        Ok(build(operands))
    }

    fn not(&mut self) -> Result<Node, ExprError> {
        let offset = self.peek().offset;
        if !self.eat(&Tok::Not) {
            return self.comparison();
        }
        self.nested(offset, |parser| Ok(Node::Not(Box::new(parser.not()?))))
    }

    fn comparison(&mut self) -> Result<Node, ExprError> {
        let left = self.primary()?;
        let Some((op, width)) = self.comparison_operator() else {
            return Ok(left);
        };
        self.pos += width;
        let right = self.primary()?;
        if let Some((next, _)) = self.comparison_operator() {
            return Err(self
                .found(&format!("comparisons do not chain: `{}` follows `{}`", next.symbol(), op.symbol()))
                .hint("join two comparisons with `and`, e.g. `a < b and b < c`"));
        }
        Ok(Node::Compare(Box::new(left), op, Box::new(right)))
    }

    /// The comparison operator at the next token and how many tokens it spans.
    fn comparison_operator(&self) -> Option<(CmpOp, usize)> {
        let op = match self.peek().kind {
            Tok::Eq => CmpOp::Eq,
            Tok::Ne => CmpOp::Ne,
            Tok::Lt => CmpOp::Lt,
            Tok::Le => CmpOp::Le,
            Tok::Gt => CmpOp::Gt,
            Tok::Ge => CmpOp::Ge,
            Tok::In => CmpOp::In,
            Tok::Not if self.tokens.get(self.pos + 1).is_some_and(|token| token.kind == Tok::In) => {
                return Some((CmpOp::NotIn, 2));
            }
            _ => return None,
        };
        Some((op, 1))
    }

    fn primary(&mut self) -> Result<Node, ExprError> {
        let Token { kind, offset } = self.peek().clone();
        let node = match kind {
            Tok::Number(number) => Node::Literal(Value::Number(number)),
            Tok::Str(text) => Node::Literal(Value::String(text)),
            Tok::True => Node::Literal(Value::Bool(true)),
            Tok::False => Node::Literal(Value::Bool(false)),
            Tok::Null => Node::Literal(Value::Null),
            Tok::Ref(reference) => Node::Ref(reference),
            Tok::LParen => {
                self.pos += 1;
                return self.nested(offset, |parser| {
                    let inner = parser.or()?;
                    parser.close(offset)?;
                    Ok(inner)
                });
            }
            Tok::LBracket => {
                self.pos += 1;
                return self.nested(offset, |parser| parser.list(offset));
            }
            Tok::Ident(name) => {
                self.pos += 1;
                return self.call(&name, offset);
            }
            _ => return Err(self.missing_operand()),
        };
        self.pos += 1;
        Ok(node)
    }

    fn missing_operand(&self) -> ExprError {
        let found = self.peek();
        let Some(previous) = self.previous() else {
            return match found.kind {
                Tok::End => self.found("empty expression").hint("write a condition, e.g. `${vars.count} > 0`"),
                _ => self.expected("an expression"),
            };
        };
        let error = self.expected(&format!("an operand after {}", previous.kind.describe()));
        match found.kind {
            Tok::Not => error.hint("put a `not ...` operand in parentheses"),
            _ => error,
        }
    }

    /// Consumes the `)` that closes the `(` at `open`.
    fn close(&mut self, open: usize) -> Result<(), ExprError> {
        if self.eat(&Tok::RParen) {
            return Ok(());
        }
        Err(self.expected(&format!("`)` to close the `(` at character {open}")))
    }

    /// The rest of a list literal whose `[` at `open` is consumed.
    fn list(&mut self, open: usize) -> Result<Node, ExprError> {
        let mut items = Vec::new();
        loop {
            if self.eat(&Tok::RBracket) {
                return Ok(Node::List(items));
            }
            items.push(self.or()?);
            if self.eat(&Tok::RBracket) {
                return Ok(Node::List(items));
            }
            if !self.eat(&Tok::Comma) {
                return Err(self.expected(&format!("`,` or `]` in the list opened at character {open}")));
            }
        }
    }

    /// A name at `offset`, already consumed: only `len(...)` is valid.
    fn call(&mut self, name: &str, offset: usize) -> Result<Node, ExprError> {
        let open = self.peek().offset;
        if !self.eat(&Tok::LParen) {
            let error = ExprError::at(offset, format!("unknown name `{name}`"));
            return Err(match keyword_hint(name) {
                Some(hint) => error.hint(hint),
                None if name == "len" => error.hint("`len` is a function: write `len(...)`"),
                None => error.hint(format!(
                    "text needs quotes ('{name}') and references are written `${{vars.name}}` or `${{node.alias}}`"
                )),
            });
        }
        if name != "len" {
            let error = ExprError::at(offset, format!("unknown function `{name}`")).hint("available: `len`");
            return Err(match keyword_hint(name) {
                Some(hint) => error.hint(hint),
                None => error,
            });
        }
        self.nested(open, |parser| {
            if parser.peek().kind == Tok::RParen {
                return Err(parser.found("`len` needs one argument, found none"));
            }
            let argument = parser.or()?;
            if parser.peek().kind == Tok::Comma {
                return Err(parser.found("`len` takes one argument, found a second one after `,`"));
            }
            parser.close(open)?;
            Ok(Node::Len(Box::new(argument)))
        })
    }
}
