//! The one reading of numbers written as text, for numbers people type into a form and numbers
//! cells hold (CSV files, sheets, web tables): `transforms.*` compare and add up with it, and a
//! person's answer to a `number` field is read with it — the studio's form checks the same
//! forms before sending (`ui/src/lib/run/requirements.ts`, kept in step by the shared cases in
//! `tests/numbers.json`).
//!
//! A text is a number when, after full-width characters are folded to ASCII (`１２００` →
//! `1200`, `，` `．` `－` `＋` `￥`) and surrounding spaces are trimmed, it is
//! - an optional sign: `-`, `+`, or `△` / `▲` (Japanese accounting's minus),
//! - an optional currency mark before the digits: `¥` `$` `€` `£` (the sign may stand before or
//!   after it), or `円` after them,
//! - digits, optionally grouped by commas in threes (`1,200`, `12,345,678`; `1,20` is not a
//!   number), optionally a decimal point and at least one digit after it.
//!
//! It is *not* a number when it has a leading zero (`00123`, `0401`: codes stay codes), more
//! than 15 integer digits (account and card numbers, which would lose precision), an exponent
//! (`1e5`, product codes like `12E4`), an underscore (`1_000`), a percent sign, or accounting
//! parentheses (`(1,200)`).

use crate::text::fold_width;

/// A number read from text, with the number of decimals it was written with (so that sums of
/// amounts like `0.1 + 0.2` come out as `0.3`).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Num {
    pub value: f64,
    pub scale: u8,
}

/// At most this many decimals are kept.
pub const MAX_SCALE: u8 = 12;

/// Parses numeric-looking text: `"1,200"`, `" 132000 "`, `"１２００"`, `"¥1,200"`, `"1,200円"`,
/// `"△500"`, `"-12.5"`. Codes with leading zeros and anything else are `None`.
pub fn parse_number(text: &str) -> Option<Num> {
    let folded = fold_number_chars(text);
    let mut t = folded.trim();
    let mut negative = false;
    let mut signed = false;
    if let Some((minus, rest)) = strip_sign(t) {
        (negative, signed, t) = (minus, true, rest);
    }
    if let Some(c) = t.chars().next() {
        if matches!(c, '¥' | '$' | '€' | '£') {
            t = t[c.len_utf8()..].trim_start();
            if !signed {
                if let Some((minus, rest)) = strip_sign(t) {
                    (negative, t) = (minus, rest);
                }
            }
        }
    }
    if let Some(rest) = t.strip_suffix('円') {
        t = rest.trim_end();
    }
    let (int, frac) = match t.split_once('.') {
        Some((int, frac)) => (int, Some(frac)),
        None => (t, None),
    };
    if let Some(frac) = frac {
        if frac.is_empty() || !frac.bytes().all(|b| b.is_ascii_digit()) {
            return None;
        }
    }
    let digits: String = if int.contains(',') {
        let mut groups = int.split(',');
        let first = groups.next()?;
        if first.is_empty() || first.len() > 3 || !first.bytes().all(|b| b.is_ascii_digit()) {
            return None;
        }
        let mut digits = first.to_string();
        for group in groups {
            if group.len() != 3 || !group.bytes().all(|b| b.is_ascii_digit()) {
                return None;
            }
            digits.push_str(group);
        }
        digits
    } else {
        if int.is_empty() || !int.bytes().all(|b| b.is_ascii_digit()) {
            return None;
        }
        int.to_string()
    };
    if (digits.len() > 1 && digits.starts_with('0')) || digits.len() > 15 {
        return None;
    }
    let literal = match frac {
        Some(frac) => format!("{digits}.{frac}"),
        None => digits,
    };
    let value: f64 = literal.parse().ok()?;
    let scale = frac.map_or(0, |f| f.len().min(MAX_SCALE as usize) as u8);
    Some(Num { value: if negative { -value } else { value }, scale })
}

/// A leading sign: whether it means minus, and the rest.
fn strip_sign(t: &str) -> Option<(bool, &str)> {
    let c = t.chars().next()?;
    matches!(c, '-' | '+' | '△' | '▲').then(|| (c != '+', t[c.len_utf8()..].trim_start()))
}

/// [`fold_width`] plus the marks numbers are written with (`￥`, `−`).
fn fold_number_chars(text: &str) -> String {
    fold_width(text)
        .chars()
        .map(|c| match c {
            '\u{FFE5}' => '¥',
            '\u{2212}' | '\u{2010}' | '\u{2011}' => '-',
            '\u{00A0}' => ' ',
            other => other,
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_forms_people_write() {
        assert_eq!(parse_number("1,200"), Some(Num { value: 1200.0, scale: 0 }));
        assert_eq!(parse_number(" ¥1,200 "), Some(Num { value: 1200.0, scale: 0 }));
        assert_eq!(parse_number("１，２００円"), Some(Num { value: 1200.0, scale: 0 }));
        assert_eq!(parse_number("△500"), Some(Num { value: -500.0, scale: 0 }));
        assert_eq!(parse_number("-12.50"), Some(Num { value: -12.5, scale: 2 }));
        for text in ["1e5", "1_000", "1,00", "00123", "(1,200)", "5%", "", "1234567890123456", "."] {
            assert_eq!(parse_number(text), None, "{text:?}");
        }
    }
}
