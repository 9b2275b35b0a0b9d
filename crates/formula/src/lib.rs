//! Arithmetic over the cells of one row, as a spreadsheet formula reads: `[税込金額] * [税率] /
//! (100 + [税率])`, `([revenue] - [cost]) / [revenue] * 100`.
//!
//! ```text
//! formula := sum
//! sum     := product (("+" | "-") product)*
//! product := unary (("*" | "/") unary)*
//! unary   := "-" unary | primary
//! primary := number "%"? | "[" column "]" | "(" sum ")"
//! ```
//!
//! A column is named in brackets, so a name may hold any character but `]` (「税込金額」, "Unit
//! Cost"). The signs people write are read too: `×`, `÷`, `−`, full-width brackets. `10%` is 0.1.
//! Parsing is bounded (at most [`MAX_CHARS`] characters and [`MAX_DEPTH`] levels of brackets), so
//! hostile input gives an error, never a panic or a stack overflow. [`Formula::parse_written`]
//! reads a formula as a person writes it, columns without brackets ("実地数量−帳簿数量").
//!
//! Must not know tables, blocks or plans: it is handed text and each column's number.

use std::fmt;

/// Longest accepted formula, in characters.
pub const MAX_CHARS: usize = 1000;
/// Deepest nesting of brackets and signs.
pub const MAX_DEPTH: usize = 32;

/// A parsed formula.
#[derive(Debug, Clone, PartialEq)]
pub struct Formula {
    root: Term,
}

#[derive(Debug, Clone, PartialEq)]
enum Term {
    Number(f64),
    Column(String),
    Negative(Box<Term>),
    Binary(Sign, Box<Term>, Box<Term>),
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Sign {
    Plus,
    Minus,
    Times,
    Divide,
}

impl Sign {
    fn symbol(self) -> char {
        match self {
            Sign::Plus => '+',
            Sign::Minus => '-',
            Sign::Times => '*',
            Sign::Divide => '/',
        }
    }

    fn binds_tighter(self) -> bool {
        matches!(self, Sign::Times | Sign::Divide)
    }
}

/// Why a formula could not be read: what is wrong and where (a character offset).
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum FormulaError {
    #[error("the formula is empty; write one like [数量] * [単価]")]
    Empty,
    #[error("the formula is longer than {MAX_CHARS} characters")]
    TooLong,
    #[error("the formula nests brackets or signs deeper than {MAX_DEPTH} levels")]
    TooDeep,
    #[error("at character {at}: expected a number, a [column] or \"(\", found {found}")]
    ExpectedOperand { at: usize, found: String },
    #[error("at character {at}: expected + - * / or the end, found {found}")]
    ExpectedSign { at: usize, found: String },
    #[error("at character {at}: a bracket is opened and not closed")]
    Unclosed { at: usize },
    #[error("at character {at}: a column's name is empty")]
    EmptyColumn { at: usize },
}

impl Formula {
    /// Reads a formula whose columns are in brackets (`[数量] * [単価]`).
    pub fn parse(text: &str) -> Result<Formula, FormulaError> {
        Parser::new(text, false)?.formula()
    }

    /// Reads a formula as a person writes it: any run of characters that is neither a number, a
    /// sign nor a bracket is a column (`実地数量−帳簿数量`, `税込金額×税率÷(100+税率)`), and
    /// `x` between spaces is a times. Bracketed columns are read as in [`Formula::parse`].
    pub fn parse_written(text: &str) -> Result<Formula, FormulaError> {
        Parser::new(text, true)?.formula()
    }

    /// The columns the formula reads, each once, in the order they first appear.
    pub fn columns(&self) -> Vec<&str> {
        let mut found = Vec::new();
        self.root.columns(&mut found);
        found
    }

    /// The same formula with each column named as `rename` says (unchanged where it gives none).
    pub fn renamed(&self, rename: &dyn Fn(&str) -> Option<String>) -> Formula {
        Formula { root: self.root.renamed(rename) }
    }

    /// The value of the formula with each column's number as `cell` gives it: `None` when a
    /// column has no number or a divisor is zero.
    pub fn evaluate(&self, cell: &dyn Fn(&str) -> Option<f64>) -> Option<f64> {
        self.root.evaluate(cell).filter(|v| v.is_finite())
    }

    /// How many signs it has: 1 for `[a] - [b]`, 3 for `[a] * (1 + [b] / 100)`.
    pub fn signs(&self) -> usize {
        self.root.signs()
    }
}

impl Term {
    fn columns<'a>(&'a self, found: &mut Vec<&'a str>) {
        match self {
            Term::Number(_) => {}
            Term::Column(name) => {
                if !found.contains(&name.as_str()) {
                    found.push(name);
                }
            }
            Term::Negative(inner) => inner.columns(found),
            Term::Binary(_, left, right) => {
                left.columns(found);
                right.columns(found);
            }
        }
    }

    fn renamed(&self, rename: &dyn Fn(&str) -> Option<String>) -> Term {
        match self {
            Term::Number(n) => Term::Number(*n),
            Term::Column(name) => Term::Column(rename(name).unwrap_or_else(|| name.clone())),
            Term::Negative(inner) => Term::Negative(Box::new(inner.renamed(rename))),
            Term::Binary(sign, left, right) => {
                Term::Binary(*sign, Box::new(left.renamed(rename)), Box::new(right.renamed(rename)))
            }
        }
    }

    fn evaluate(&self, cell: &dyn Fn(&str) -> Option<f64>) -> Option<f64> {
        Some(match self {
            Term::Number(n) => *n,
            Term::Column(name) => cell(name)?,
            Term::Negative(inner) => -inner.evaluate(cell)?,
            Term::Binary(sign, left, right) => {
                let (a, b) = (left.evaluate(cell)?, right.evaluate(cell)?);
                match sign {
                    Sign::Plus => a + b,
                    Sign::Minus => a - b,
                    Sign::Times => a * b,
                    Sign::Divide if b == 0.0 => return None,
                    Sign::Divide => a / b,
                }
            }
        })
    }

    fn signs(&self) -> usize {
        match self {
            Term::Number(_) | Term::Column(_) => 0,
            Term::Negative(inner) => 1 + inner.signs(),
            Term::Binary(_, left, right) => 1 + left.signs() + right.signs(),
        }
    }

    /// Written with the brackets its reading needs.
    fn show(&self, out: &mut String, parent: Option<(Sign, bool)>) {
        match self {
            Term::Number(n) => out.push_str(&number_text(*n)),
            Term::Column(name) => {
                out.push('[');
                out.push_str(name);
                out.push(']');
            }
            Term::Negative(inner) => {
                out.push('-');
                let bracket = matches!(**inner, Term::Binary(..) | Term::Negative(_));
                if bracket {
                    out.push('(');
                }
                inner.show(out, None);
                if bracket {
                    out.push(')');
                }
            }
            Term::Binary(sign, left, right) => {
                // Brackets where the parent binds tighter, or on its right at the same level (signs
                // are read left to right, so `a - (b - c)` and `a * (b * c)` keep theirs).
                let bracket = parent.is_some_and(|(outer, right_side)| {
                    outer.binds_tighter() && !sign.binds_tighter()
                        || right_side && outer.binds_tighter() == sign.binds_tighter()
                });
                if bracket {
                    out.push('(');
                }
                left.show(out, Some((*sign, false)));
                out.push(' ');
                out.push(sign.symbol());
                out.push(' ');
                right.show(out, Some((*sign, true)));
                if bracket {
                    out.push(')');
                }
            }
        }
    }
}

/// A number as a formula writes it: no exponent, no trailing zeros.
fn number_text(n: f64) -> String {
    let text = format!("{n}");
    if text.contains(['e', 'E']) {
        format!("{n:.12}").trim_end_matches('0').trim_end_matches('.').to_owned()
    } else {
        text
    }
}

impl fmt::Display for Formula {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let mut out = String::new();
        self.root.show(&mut out, None);
        f.write_str(&out)
    }
}

struct Parser {
    chars: Vec<char>,
    at: usize,
    depth: usize,
    written: bool,
}

impl Parser {
    fn new(text: &str, written: bool) -> Result<Parser, FormulaError> {
        if text.chars().count() > MAX_CHARS {
            return Err(FormulaError::TooLong);
        }
        let chars: Vec<char> = text.chars().map(plain_char).collect();
        if chars.iter().all(|c| c.is_whitespace()) {
            return Err(FormulaError::Empty);
        }
        Ok(Parser { chars, at: 0, depth: 0, written })
    }

    fn formula(mut self) -> Result<Formula, FormulaError> {
        let root = self.sum()?;
        self.skip_spaces();
        match self.peek() {
            None => Ok(Formula { root }),
            Some(_) => Err(FormulaError::ExpectedSign { at: self.at, found: self.found() }),
        }
    }

    fn sum(&mut self) -> Result<Term, FormulaError> {
        self.deeper()?;
        let mut left = self.product()?;
        while let Some(sign) = self.sign(&[Sign::Plus, Sign::Minus]) {
            let right = self.product()?;
            left = Term::Binary(sign, Box::new(left), Box::new(right));
        }
        self.depth -= 1;
        Ok(left)
    }

    fn product(&mut self) -> Result<Term, FormulaError> {
        let mut left = self.unary()?;
        while let Some(sign) = self.sign(&[Sign::Times, Sign::Divide]) {
            let right = self.unary()?;
            left = Term::Binary(sign, Box::new(left), Box::new(right));
        }
        Ok(left)
    }

    fn unary(&mut self) -> Result<Term, FormulaError> {
        self.skip_spaces();
        if self.peek() == Some('-') {
            self.at += 1;
            self.deeper()?;
            let inner = self.unary()?;
            self.depth -= 1;
            return Ok(Term::Negative(Box::new(inner)));
        }
        self.primary()
    }

    fn primary(&mut self) -> Result<Term, FormulaError> {
        self.skip_spaces();
        let start = self.at;
        match self.peek() {
            Some('(') => {
                self.at += 1;
                let inner = self.sum()?;
                self.skip_spaces();
                if self.peek() != Some(')') {
                    return Err(FormulaError::Unclosed { at: start });
                }
                self.at += 1;
                Ok(inner)
            }
            Some('[') => {
                self.at += 1;
                let end =
                    self.chars[self.at..].iter().position(|c| *c == ']').ok_or(FormulaError::Unclosed { at: start })?;
                let name: String = self.chars[self.at..self.at + end].iter().collect();
                self.at += end + 1;
                let name = name.trim();
                if name.is_empty() {
                    return Err(FormulaError::EmptyColumn { at: start });
                }
                Ok(Term::Column(name.to_owned()))
            }
            Some(c) if c.is_ascii_digit() || c == '.' => {
                let number = self.number();
                if self.written && self.peek().is_some_and(|c| !c.is_whitespace() && !self.ends_an_operand(c)) {
                    // 「3月売上」: a name that starts with a digit (not "1 + rate", a number).
                    self.at = start;
                    return self.written_column(start);
                }
                number.ok_or_else(|| FormulaError::ExpectedOperand { at: start, found: self.found_at(start) })
            }
            Some(c) if self.written && !self.ends_an_operand(c) => self.written_column(start),
            _ => Err(FormulaError::ExpectedOperand { at: start, found: self.found() }),
        }
    }

    /// A number, `%` after it dividing it by 100.
    fn number(&mut self) -> Option<Term> {
        let start = self.at;
        while self.peek().is_some_and(|c| c.is_ascii_digit() || c == '.' || c == ',') {
            self.at += 1;
        }
        let text: String = self.chars[start..self.at].iter().filter(|c| **c != ',').collect();
        let value: f64 = text.parse().ok()?;
        if self.peek() == Some('%') {
            self.at += 1;
            return Some(Term::Number(value / 100.0));
        }
        Some(Term::Number(value))
    }

    /// A column written without brackets: up to the next sign or bracket (spaces inside kept).
    fn written_column(&mut self, start: usize) -> Result<Term, FormulaError> {
        while let Some(c) = self.peek() {
            if self.ends_an_operand(c) || self.times_word_at(self.at) {
                break;
            }
            self.at += 1;
        }
        let name: String = self.chars[start..self.at].iter().collect();
        let name = name.trim();
        if name.is_empty() {
            return Err(FormulaError::ExpectedOperand { at: start, found: self.found_at(start) });
        }
        Ok(Term::Column(name.to_owned()))
    }

    /// Whether `c` ends an operand: a sign or a bracket.
    fn ends_an_operand(&self, c: char) -> bool {
        matches!(c, '+' | '-' | '*' | '/' | '(' | ')' | '[' | ']' | '%')
    }

    /// " x " between two operands of a written formula: a times.
    fn times_word_at(&self, at: usize) -> bool {
        self.written
            && self.chars.get(at).is_some_and(|c| c.is_whitespace())
            && matches!(self.chars.get(at + 1), Some('x' | 'X'))
            && self.chars.get(at + 2).is_some_and(|c| c.is_whitespace())
    }

    fn sign(&mut self, wanted: &[Sign]) -> Option<Sign> {
        if self.times_word_at(self.at) && wanted.contains(&Sign::Times) {
            self.at += 3;
            return Some(Sign::Times);
        }
        self.skip_spaces();
        let sign = match self.peek()? {
            '+' => Sign::Plus,
            '-' => Sign::Minus,
            '*' => Sign::Times,
            '/' => Sign::Divide,
            _ => return None,
        };
        if !wanted.contains(&sign) {
            return None;
        }
        self.at += 1;
        Some(sign)
    }

    fn deeper(&mut self) -> Result<(), FormulaError> {
        self.depth += 1;
        if self.depth > MAX_DEPTH {
            return Err(FormulaError::TooDeep);
        }
        Ok(())
    }

    fn skip_spaces(&mut self) {
        while self.peek().is_some_and(char::is_whitespace) {
            self.at += 1;
        }
    }

    fn peek(&self) -> Option<char> {
        self.chars.get(self.at).copied()
    }

    fn found(&self) -> String {
        self.found_at(self.at)
    }

    fn found_at(&self, at: usize) -> String {
        match self.chars.get(at) {
            None => "the end".to_owned(),
            Some(_) => format!("{:?}", self.chars[at..].iter().take(12).collect::<String>()),
        }
    }
}

/// The sign or bracket a character is written as elsewhere: `×` is `*`, `（` is `(`.
fn plain_char(c: char) -> char {
    match c {
        '×' | '＊' | '✕' => '*',
        '÷' | '／' => '/',
        '−' | '－' | '–' => '-',
        '＋' => '+',
        '（' => '(',
        '）' => ')',
        '［' => '[',
        '］' => ']',
        '％' => '%',
        '　' => ' ',
        _ => c,
    }
}

#[cfg(test)]
mod tests;
