//! Splits source text into tokens, each with the character offset where it starts.

use planwright_plan::reference::Reference;
use serde_json::{Number, Value};

use crate::{value, ExprError};

/// The words that are keywords; they are lower-case only.
const KEYWORDS: [&str; 7] = ["and", "or", "not", "in", "true", "false", "null"];

#[derive(Debug, Clone, PartialEq)]
pub(crate) enum Tok {
    Number(Number),
    Str(String),
    Ref(Reference),
    /// A name that is not a keyword: only `len` means something, as a function.
    Ident(String),
    True,
    False,
    Null,
    And,
    Or,
    Not,
    In,
    LParen,
    RParen,
    LBracket,
    RBracket,
    Comma,
    Eq,
    Ne,
    Lt,
    Le,
    Gt,
    Ge,
    End,
}

impl Tok {
    /// How the token is named in messages: "`and`", "number `3`", "the end of the expression".
    pub(crate) fn describe(&self) -> String {
        let symbol = match self {
            Tok::Number(number) => return format!("number `{number}`"),
            Tok::Str(text) => return value::describe(&Value::String(text.clone())),
            Tok::Ref(reference) => return format!("`{reference}`"),
            Tok::Ident(name) => return format!("`{name}`"),
            Tok::End => return "the end of the expression".to_owned(),
            Tok::True => "true",
            Tok::False => "false",
            Tok::Null => "null",
            Tok::And => "and",
            Tok::Or => "or",
            Tok::Not => "not",
            Tok::In => "in",
            Tok::LParen => "(",
            Tok::RParen => ")",
            Tok::LBracket => "[",
            Tok::RBracket => "]",
            Tok::Comma => ",",
            Tok::Eq => "==",
            Tok::Ne => "!=",
            Tok::Lt => "<",
            Tok::Le => "<=",
            Tok::Gt => ">",
            Tok::Ge => ">=",
        };
        format!("`{symbol}`")
    }
}

#[derive(Debug, Clone, PartialEq)]
pub(crate) struct Token {
    pub kind: Tok,
    /// Character offset of the token's first character.
    pub offset: usize,
}

/// Advice for a name that is a keyword written with capitals (`AND`, `True`).
pub(crate) fn keyword_hint(name: &str) -> Option<String> {
    let lower = name.to_lowercase();
    (lower != name && KEYWORDS.contains(&lower.as_str())).then(|| format!("keywords are lower-case: write `{lower}`"))
}

/// The tokens of `chars`, without a final end token.
pub(crate) fn lex(chars: &[char]) -> Result<Vec<Token>, ExprError> {
    let mut lexer = Lexer { chars, pos: 0 };
    let mut tokens = Vec::new();
    while let Some(token) = lexer.next_token()? {
        tokens.push(token);
    }
    Ok(tokens)
}

struct Lexer<'a> {
    chars: &'a [char],
    pos: usize,
}

impl Lexer<'_> {
    fn peek(&self, ahead: usize) -> Option<char> {
        self.chars.get(self.pos + ahead).copied()
    }

    /// Consumes `width` characters and yields `kind`.
    fn take(&mut self, width: usize, kind: Tok) -> Tok {
        self.pos += width;
        kind
    }

    fn next_token(&mut self) -> Result<Option<Token>, ExprError> {
        while self.peek(0).is_some_and(char::is_whitespace) {
            self.pos += 1;
        }
        let offset = self.pos;
        let Some(c) = self.peek(0) else {
            return Ok(None);
        };
        let two_char = self.peek(1) == Some('=');
        let kind = match c {
            '(' => self.take(1, Tok::LParen),
            ')' => self.take(1, Tok::RParen),
            '[' => self.take(1, Tok::LBracket),
            ']' => self.take(1, Tok::RBracket),
            ',' => self.take(1, Tok::Comma),
            '=' if two_char => self.take(2, Tok::Eq),
            '!' if two_char => self.take(2, Tok::Ne),
            '<' if two_char => self.take(2, Tok::Le),
            '>' if two_char => self.take(2, Tok::Ge),
            '<' => self.take(1, Tok::Lt),
            '>' => self.take(1, Tok::Gt),
            '\'' | '"' => self.string(c)?,
            '$' => self.reference()?,
            '-' | '0'..='9' => self.number()?,
            _ if c.is_alphabetic() || c == '_' => self.word(),
            _ => return Err(unexpected(c, offset)),
        };
        Ok(Some(Token { kind, offset }))
    }

    fn string(&mut self, quote: char) -> Result<Tok, ExprError> {
        let start = self.pos;
        self.pos += 1;
        let mut text = String::new();
        loop {
            let Some(c) = self.peek(0) else {
                return Err(
                    ExprError::at(start, "unterminated string starting").hint(format!("add the closing `{quote}`"))
                );
            };
            self.pos += 1;
            if c == quote {
                return Ok(Tok::Str(text));
            }
            if c != '\\' {
                text.push(c);
                continue;
            }
            match self.peek(0) {
                Some('n') => text.push('\n'),
                Some('t') => text.push('\t'),
                Some(escaped @ ('\'' | '"' | '\\')) => text.push(escaped),
                Some(other) => {
                    return Err(ExprError::at(
                        self.pos - 1,
                        format!("unknown escape `\\{}` in a string", other.escape_debug()),
                    )
                    .hint(r#"the escapes are \' \" \\ \n and \t"#));
                }
                // A backslash at the very end: reported as the missing closing quote.
                None => continue,
            }
            self.pos += 1;
        }
    }

    fn reference(&mut self) -> Result<Tok, ExprError> {
        let start = self.pos;
        if self.peek(1) != Some('{') {
            return Err(unexpected('$', start));
        }
        let inner: String = self.chars.iter().skip(start + 2).take_while(|&&c| c != '}').collect();
        self.pos = start + 2 + inner.chars().count();
        if self.peek(0) != Some('}') {
            return Err(ExprError::at(start, "unterminated reference starting").hint("close `${` with `}`"));
        }
        self.pos += 1;
        Reference::parse(&inner)
            .map(Tok::Ref)
            .map_err(|error| ExprError::at(start, "invalid reference").hint(error.message))
    }

    fn number(&mut self) -> Result<Tok, ExprError> {
        let start = self.pos;
        if self.peek(0) == Some('-') {
            self.pos += 1;
            if !self.peek(0).is_some_and(|c| c.is_ascii_digit()) {
                return Err(ExprError::at(start, "expected digits after `-`")
                    .hint("`-` only starts a negative number; there is no arithmetic"));
            }
        }
        self.skip_digits();
        let decimal = self.peek(0) == Some('.');
        if decimal {
            self.pos += 1;
            if !self.peek(0).is_some_and(|c| c.is_ascii_digit()) {
                return Err(ExprError::at(self.pos, "expected digits after the decimal point"));
            }
            self.skip_digits();
        }
        let text: String = self.chars.iter().skip(start).take(self.pos - start).collect();
        // Integers stay exact (i64, then u64); decimals and larger integers become f64.
        let integer = if decimal {
            None
        } else {
            text.parse::<i64>().ok().map(Number::from).or_else(|| text.parse::<u64>().ok().map(Number::from))
        };
        integer
            .or_else(|| text.parse::<f64>().ok().and_then(Number::from_f64))
            .map(Tok::Number)
            .ok_or_else(|| ExprError::at(start, format!("number `{text}` is too large")))
    }

    fn skip_digits(&mut self) {
        while self.peek(0).is_some_and(|c| c.is_ascii_digit()) {
            self.pos += 1;
        }
    }

    fn word(&mut self) -> Tok {
        let word: String = self.chars.iter().skip(self.pos).take_while(|c| c.is_alphanumeric() || **c == '_').collect();
        self.pos += word.chars().count();
        match word.as_str() {
            "and" => Tok::And,
            "or" => Tok::Or,
            "not" => Tok::Not,
            "in" => Tok::In,
            "true" => Tok::True,
            "false" => Tok::False,
            "null" => Tok::Null,
            _ => Tok::Ident(word),
        }
    }
}

/// A character that starts no token, with advice for the usual mistakes.
fn unexpected(c: char, offset: usize) -> ExprError {
    let error = ExprError::at(offset, format!("unexpected character `{}`", c.escape_debug()));
    match c {
        '=' => error.hint("write `==` to compare"),
        '!' => error.hint("write `!=` for \"not equal\" or `not` before a condition"),
        '&' => error.hint("write `and`"),
        '|' => error.hint("write `or`"),
        '$' | '{' | '}' => error.hint("references are written `${vars.name}`"),
        _ => error,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn kinds(source: &str) -> Vec<Tok> {
        let chars: Vec<char> = source.chars().collect();
        lex(&chars).unwrap().into_iter().map(|token| token.kind).collect()
    }

    #[test]
    fn keywords_are_whole_lower_case_words() {
        assert_eq!(
            kinds("android or_else notin NOT not"),
            vec![
                Tok::Ident("android".into()),
                Tok::Ident("or_else".into()),
                Tok::Ident("notin".into()),
                Tok::Ident("NOT".into()),
                Tok::Not
            ]
        );
        assert_eq!(keyword_hint("NOT").as_deref(), Some("keywords are lower-case: write `not`"));
        assert_eq!(keyword_hint("length"), None);
    }

    #[test]
    fn operators_need_no_spaces() {
        assert_eq!(
            kinds("(1<=2)!=[3>-4]"),
            vec![
                Tok::LParen,
                Tok::Number(1.into()),
                Tok::Le,
                Tok::Number(2.into()),
                Tok::RParen,
                Tok::Ne,
                Tok::LBracket,
                Tok::Number(3.into()),
                Tok::Gt,
                Tok::Number((-4).into()),
                Tok::RBracket,
            ]
        );
    }

    #[test]
    fn offsets_count_characters() {
        let chars: Vec<char> = "'請求書' == x".chars().collect();
        let offsets: Vec<usize> = lex(&chars).unwrap().iter().map(|token| token.offset).collect();
        assert_eq!(offsets, vec![0, 6, 9]);
    }

    #[test]
    fn numbers_keep_integers_exact() {
        assert_eq!(kinds("18446744073709551615"), vec![Tok::Number(u64::MAX.into())]);
        assert_eq!(kinds("-2.50"), vec![Tok::Number(Number::from_f64(-2.5).unwrap())]);
        assert_eq!(kinds("1e3"), vec![Tok::Number(1.into()), Tok::Ident("e3".into())]);
    }
}
