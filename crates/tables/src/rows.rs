//! The one rule for which cells of a CSV file are numbers, and the rows a table stands for.

use serde_json::{Number, Value};

/// A cell read as a plain number: `-?digits(.digits)?` once trimmed, no leading zero, at most
/// 15 digits in all (so that a double holds it exactly).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Plain<'a> {
    /// The trimmed cell, sign included.
    pub text: &'a str,
    /// How many digits follow the point; `None` when there is no point.
    pub decimals: Option<u8>,
}

pub(crate) fn read_plain(cell: &str) -> Option<Plain<'_>> {
    let text = cell.trim();
    let unsigned = text.strip_prefix('-').unwrap_or(text);
    let (int, frac) = match unsigned.split_once('.') {
        Some((int, frac)) => (int, Some(frac)),
        None => (unsigned, None),
    };
    let all_digits = |s: &str| !s.is_empty() && s.bytes().all(|b| b.is_ascii_digit());
    if !all_digits(int) || (int.len() > 1 && int.starts_with('0')) || frac.is_some_and(|f| !all_digits(f)) {
        return None;
    }
    if int.len() + frac.map_or(0, str::len) > 15 {
        return None;
    }
    Some(Plain { text, decimals: frac.map(|f| f.len() as u8) })
}

/// What `file.read_csv` turns into a number: the cell, trimmed, is `-?digits(.digits)?` with no
/// leading zero and at most 15 digits — a whole number as an integer, others as a double.
/// Anything else (including `1,200`) stays text; the transforms still read such text as a
/// number.
pub fn plain_number(cell: &str) -> Option<Value> {
    let plain = read_plain(cell)?;
    match plain.decimals {
        None => plain.text.parse::<i64>().ok().map(Value::from),
        Some(_) => plain.text.parse::<f64>().ok().and_then(Number::from_f64).map(Value::Number),
    }
}

/// The cell a decimal column holds, as [`plain_number`] reads its text: `units` / 10^`scale`,
/// both exact in a double (at most 15 digits), so their quotient is the double the text rounds
/// to.
pub(crate) fn decimal_value(units: i128, scale: u8) -> Value {
    let value = units as f64 / 10f64.powi(i32::from(scale));
    Number::from_f64(value).map_or(Value::Null, Value::Number)
}

/// `units` / 10^`scale` written as a plain number (`-12.50`), as [`plain_number`] reads it.
pub(crate) fn decimal_text(units: i128, scale: u8) -> String {
    let sign = if units < 0 { "-" } else { "" };
    let digits = format!("{:0>width$}", units.unsigned_abs(), width = usize::from(scale) + 1);
    let (int, frac) = digits.split_at(digits.len() - usize::from(scale));
    if frac.is_empty() {
        format!("{sign}{int}")
    } else {
        format!("{sign}{int}.{frac}")
    }
}

/// The first day of the days a date column counts (Arrow's `Date32`: days since 1970-01-01).
const EPOCH: jiff::civil::Date = jiff::civil::date(1970, 1, 1);

/// The days since 1970-01-01 of `cell` when it is a calendar date written `YYYY-MM-DD`, exactly
/// as a date column gives it back ([`date_text`]); `None` for any other text.
pub(crate) fn read_date(cell: &str) -> Option<i32> {
    let b = cell.as_bytes();
    let shaped = b.len() == 10
        && b[4] == b'-'
        && b[7] == b'-'
        && b.iter().enumerate().all(|(i, c)| i == 4 || i == 7 || c.is_ascii_digit());
    if !shaped {
        return None;
    }
    let date: jiff::civil::Date = cell.parse().ok()?;
    i32::try_from(date.duration_since(EPOCH).as_secs() / 86_400).ok()
}

/// A date column's cell, `YYYY-MM-DD`, from its days since 1970-01-01.
pub(crate) fn date_text(days: i32) -> String {
    EPOCH
        .checked_add(jiff::SignedDuration::from_secs(i64::from(days) * 86_400))
        .map(|date| date.to_string())
        .unwrap_or_default()
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    #[test]
    fn plain_numbers_for_csv() {
        assert_eq!(plain_number("132000"), Some(json!(132000)));
        assert_eq!(plain_number(" -5 "), Some(json!(-5)));
        assert_eq!(plain_number("12.5"), Some(json!(12.5)));
        assert_eq!(plain_number("0"), Some(json!(0)));
        for text in ["00123", "1,200", "¥100", "", "1e3", "1234567890123456", "2024-04-01", "+5"] {
            assert_eq!(plain_number(text), None, "{text:?}");
        }
    }

    #[test]
    fn a_decimal_cell_is_the_double_its_text_reads_as() {
        for (units, scale, text) in [(1250, 2, "12.50"), (-1, 1, "-0.1"), (999_999_999_999_999, 3, "999999999999.999")]
        {
            assert_eq!(decimal_value(units, scale), plain_number(text).unwrap(), "{text}");
            assert_eq!(decimal_text(units, scale), text);
        }
    }
}
