//! Cell values as people mean them: numeric-looking text compares and adds up as a number.
//!
//! CSV files, sheets and web tables hand us amounts as text ("1,200", " 132000 ", "１２００",
//! "¥1,200"), dates in several spellings, and labels typed with full-width or half-width
//! characters. `transforms.filter`, `transforms.group_by_agg` and `transforms.join` all look at
//! values through this module, so they agree on what is a number, what is a date and when two
//! texts are the same.
//!
//! **Numbers** ([`number`]). A JSON number is a number; a text is a number when
//! `planwright_block::numbers::parse_number` reads one (the forms are documented there: commas
//! in threes, currency marks, `円`, `△`, full-width digits; no leading zero, exponent or
//! underscore). Other texts compare as text.
//!
//! **Dates** ([`date`]). `YYYY-MM-DD`, `YYYY/MM/DD`, `YYYY.MM.DD` (month and day with one or two
//! digits) and `YYYY年M月D日`, optionally followed by a time `HH:MM[:SS[.fff]]` after a space or
//! `T` (and an optional `Z`); and a day with its month's English name, as US and UK exports write
//! it (`Nov 3, 2026`, `November 3 2026`, `3 Nov 2026`, `Sept. 3, 2026`), without a time. Dates compare in calendar order; when only one side has a time,
//! they compare by the day alone, so `2024-04-30 15:00` is between `2024-04-01` and `2024-04-30`.
//!
//! **Comparison** ([`compare`], [`equals`]). Blank (missing, null or only spaces) equals blank
//! and nothing else; two numbers compare as numbers; two dates as dates; a number or a date
//! against other non-blank text is neither equal nor ordered; `true`/`false` compare with the
//! texts `true`/`false`; other texts compare after folding widths (full-width ASCII and
//! half-width katakana), trimming and ignoring case, as Excel's filter does. Lists and objects
//! are only equal to identical lists and objects.
//!
//! **Keys** ([`key_text`]) for joins and groups: the value as text, trimmed, widths folded, case
//! kept; numbers in their shortest form (`1001`, `1001.0` and `"1001"` are one key); dates as
//! the day they are (`2026/11/5` and `2026-11-05` are one key). Blank keys are no key.

use std::cmp::Ordering;

pub(crate) use planwright_block::inputs::{self as input, describe};
use planwright_block::numbers::MAX_SCALE;
pub(crate) use planwright_block::numbers::{parse_number, Num};
pub(crate) use planwright_block::text::fold_width;
use planwright_block::text::ENGLISH_MONTHS;
use serde_json::{Number, Value};

/// Largest integer a JSON consumer (the studio is JavaScript) reads exactly: 2^53 - 1.
const MAX_SAFE_INTEGER: f64 = 9_007_199_254_740_991.0;

/// The number a value means, if it means one (see the module documentation).
pub(crate) fn number(value: &Value) -> Option<Num> {
    match value {
        Value::Number(n) => json_number(n),
        Value::String(s) => parse_number(s),
        _ => None,
    }
}

/// [`number`] without its scale, which an ordering does not need (finding a JSON number's
/// scale writes it out as text).
fn number_only(value: &Value) -> Option<f64> {
    match value {
        Value::Number(n) => n.as_f64(),
        Value::String(s) => parse_number(s).map(|num| num.value),
        _ => None,
    }
}

fn json_number(n: &Number) -> Option<Num> {
    let value = n.as_f64()?;
    if n.is_i64() || n.is_u64() {
        return Some(Num { value, scale: 0 });
    }
    let text = n.to_string();
    let scale = if text.contains(['e', 'E']) {
        MAX_SCALE
    } else {
        text.split_once('.').map_or(0, |(_, frac)| frac.len().min(MAX_SCALE as usize) as u8)
    };
    Some(Num { value, scale })
}

/// A number as a JSON value: whole numbers (within what JavaScript reads exactly) as integers,
/// others as floats with floating-point noise removed.
pub(crate) fn number_value(value: f64) -> Value {
    if !value.is_finite() {
        return Value::Null;
    }
    if value.fract() == 0.0 && value.abs() <= MAX_SAFE_INTEGER {
        return Value::from(value as i64);
    }
    let clean: f64 = format!("{value:.14e}").parse().unwrap_or(value);
    Number::from_f64(clean).map_or(Value::Null, Value::Number)
}

/// The number `units` × 10^-`scale` as a JSON value: a whole one as an integer, others as the
/// double nearest to it, all its digits kept (where [`number_value`] keeps fifteen: an exact
/// total of amounts in cents can have sixteen).
pub(crate) fn exact_number(units: i128, scale: u8) -> Value {
    let value = units as f64 / 10f64.powi(i32::from(scale));
    if value.fract() == 0.0 {
        return number_value(value);
    }
    Number::from_f64(value).map_or(Value::Null, Value::Number)
}

/// `value` rounded to `scale` decimals (how many the summed numbers were written with).
pub(crate) fn round_to_scale(value: f64, scale: u8) -> f64 {
    let factor = 10f64.powi(i32::from(scale.min(MAX_SCALE)));
    let scaled = value * factor;
    if scaled.abs() < 1e15 {
        scaled.round() / factor
    } else {
        value
    }
}

/// A calendar date with an optional time of day.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Date {
    pub year: i32,
    pub month: u8,
    pub day: u8,
    /// Milliseconds since midnight, when a time was given.
    pub time: Option<u32>,
}

impl Date {
    fn cmp_calendar(&self, other: &Date) -> Ordering {
        let day = (self.year, self.month, self.day).cmp(&(other.year, other.month, other.day));
        match (self.time, other.time) {
            (Some(a), Some(b)) => day.then(a.cmp(&b)),
            _ => day,
        }
    }
}

/// Calendar days from `earlier` to `later` (negative when `later` is before it); `None` for a
/// day the calendar does not have.
pub(crate) fn days_between(earlier: &Date, later: &Date) -> Option<i64> {
    let day = |d: &Date| {
        let month = time::Month::try_from(d.month).ok()?;
        time::Date::from_calendar_date(d.year, month, d.day).ok()
    };
    Some((day(later)? - day(earlier)?).whole_days())
}

/// The date a value means, if it is a text in one of the date spellings.
pub(crate) fn date(value: &Value) -> Option<Date> {
    match value {
        Value::String(s) => parse_date(s),
        _ => None,
    }
}

/// Parses `2024-04-01`, `2024/4/1`, `2024.04.01`, `2024年4月1日`, each optionally with a time.
pub(crate) fn parse_date(text: &str) -> Option<Date> {
    let folded = fold_width(text);
    let t = folded.trim();
    if let Some(date) = english_date(t) {
        return Some(date);
    }
    if t.len() < 8 || !t.as_bytes()[0].is_ascii_digit() {
        return None;
    }
    let (date_part, time_part) = if let Some(pos) = t.find('日') {
        (&t[..pos + '日'.len_utf8()], t[pos + '日'.len_utf8()..].trim_start())
    } else {
        match t.find([' ', 'T']) {
            Some(pos) => (&t[..pos], t[pos + 1..].trim_start()),
            None => (t, ""),
        }
    };
    let (y, m, d) = if date_part.contains('年') {
        let (y, rest) = date_part.split_once('年')?;
        let (m, rest) = rest.split_once('月')?;
        let d = rest.strip_suffix('日')?;
        (y.trim(), m.trim(), d.trim())
    } else {
        let sep = date_part.get(4..)?.chars().next()?;
        if !matches!(sep, '-' | '/' | '.') {
            return None;
        }
        let mut parts = date_part.split(sep);
        let (y, m, d) = (parts.next()?, parts.next()?, parts.next()?);
        if parts.next().is_some() {
            return None;
        }
        (y, m, d)
    };
    let digits =
        |s: &str, min: usize, max: usize| (min..=max).contains(&s.len()) && s.bytes().all(|b| b.is_ascii_digit());
    if !digits(y, 4, 4) || !digits(m, 1, 2) || !digits(d, 1, 2) {
        return None;
    }
    let (year, month, day): (i32, u8, u8) = (y.parse().ok()?, m.parse().ok()?, d.parse().ok()?);
    if !(1..=12).contains(&month) || day == 0 || day > days_in_month(year, month) {
        return None;
    }
    let time = if time_part.is_empty() { None } else { Some(parse_time(time_part)?) };
    Some(Date { year, month, day, time })
}

/// `Nov 3, 2026`, `November 3 2026`, `3 Nov 2026`, `Sept. 3, 2026`: a day with its month's
/// English name (whole or cut to three letters, or `Sept`), its day and a four-digit year.
fn english_date(text: &str) -> Option<Date> {
    let words: Vec<&str> = text.split([' ', ',']).filter(|w| !w.is_empty()).collect();
    let [a, b, y] = words[..] else { return None };
    let month_of = |word: &str| {
        let word = word.trim_end_matches('.').to_ascii_lowercase();
        ENGLISH_MONTHS.iter().position(|m| {
            word.len() >= 3 && (*m == word || m.starts_with(&word) && (word.len() == 3 || word == "sept"))
        })
    };
    let (month, day) = match (month_of(a), month_of(b)) {
        (Some(month), None) => (month, b),
        (None, Some(month)) => (month, a),
        _ => return None,
    };
    let digits =
        |s: &str, min: usize, max: usize| (min..=max).contains(&s.len()) && s.bytes().all(|b| b.is_ascii_digit());
    if !digits(day, 1, 2) || !digits(y, 4, 4) {
        return None;
    }
    let (year, month, day): (i32, u8, u8) = (y.parse().ok()?, u8::try_from(month + 1).ok()?, day.parse().ok()?);
    (day >= 1 && day <= days_in_month(year, month)).then_some(Date { year, month, day, time: None })
}

/// A month written alone (`2026-09`, `2026/9`, `2026年9月`), as its year and month; none for a
/// date, a number or other text.
pub(crate) fn year_month(value: &Value) -> Option<(i32, u8)> {
    let Value::String(text) = value else { return None };
    let folded = fold_width(text);
    let t = folded.trim();
    let (y, m) = match t.strip_suffix('月') {
        Some(rest) => rest.split_once('年')?,
        None => t.split_once(['-', '/', '.'])?,
    };
    let digits =
        |s: &str, min: usize, max: usize| (min..=max).contains(&s.len()) && s.bytes().all(|b| b.is_ascii_digit());
    if !digits(y, 4, 4) || !digits(m, 1, 2) {
        return None;
    }
    let month: u8 = m.parse().ok()?;
    (1..=12).contains(&month).then_some((y.parse().ok()?, month))
}

/// A clock time of a day written alone (`9:00`, `17:30`, `08:15:00`), as milliseconds from
/// midnight; none for a date, a number or text.
pub(crate) fn clock_time(value: &Value) -> Option<u32> {
    let Value::String(text) = value else { return None };
    let folded = fold_width(text);
    let t = folded.trim();
    let millis = parse_time(t).filter(|_| t.contains(':') && !t.ends_with('Z'))?;
    (millis < 24 * 3_600_000).then_some(millis)
}

fn parse_time(text: &str) -> Option<u32> {
    let t = text.strip_suffix('Z').unwrap_or(text);
    let mut parts = t.split(':');
    let (h, m, s) = (parts.next()?, parts.next()?, parts.next());
    if parts.next().is_some() {
        return None;
    }
    let two = |s: &str| (1..=2).contains(&s.len()) && s.bytes().all(|b| b.is_ascii_digit());
    if !two(h) || !two(m) {
        return None;
    }
    let (hour, minute): (u32, u32) = (h.parse().ok()?, m.parse().ok()?);
    let millis = match s {
        None => 0,
        Some(s) => {
            let (whole, frac) = s.split_once('.').unwrap_or((s, ""));
            if !two(whole) || !frac.bytes().all(|b| b.is_ascii_digit()) {
                return None;
            }
            let seconds: u32 = whole.parse().ok()?;
            if seconds > 60 {
                return None;
            }
            let frac_ms: u32 = format!("{frac:0<3}")[..3].parse().ok()?;
            seconds * 1000 + frac_ms
        }
    };
    if hour > 23 || minute > 59 {
        return None;
    }
    Some((hour * 3600 + minute * 60) * 1000 + millis)
}

pub(crate) fn days_in_month(year: i32, month: u8) -> u8 {
    match month {
        1 | 3 | 5 | 7 | 8 | 10 | 12 => 31,
        4 | 6 | 9 | 11 => 30,
        2 if (year % 4 == 0 && year % 100 != 0) || year % 400 == 0 => 29,
        2 => 28,
        _ => 0,
    }
}

/// Missing, null, or text that is only spaces.
pub(crate) fn is_blank(value: &Value) -> bool {
    match value {
        Value::Null => true,
        Value::String(s) => s.trim().is_empty(),
        _ => false,
    }
}

/// Text for comparing labels: widths folded, trimmed, lower case.
pub(crate) fn fold_text(text: &str) -> String {
    fold_width(text).trim().to_lowercase()
}

/// A scalar as people read it: text as is, numbers in their shortest form, `true`/`false`,
/// blank for null; lists and objects as compact JSON.
pub(crate) fn display_text(value: &Value) -> String {
    match value {
        Value::Null => String::new(),
        Value::String(s) => s.clone(),
        Value::Bool(b) => b.to_string(),
        Value::Number(n) => canonical_number(n),
        other => other.to_string(),
    }
}

fn canonical_number(n: &Number) -> String {
    match n.as_f64() {
        Some(f) if !(n.is_i64() || n.is_u64()) && f.fract() == 0.0 && f.abs() <= MAX_SAFE_INTEGER => {
            (f as i64).to_string()
        }
        _ => n.to_string(),
    }
}

/// The key a value is matched or grouped by: trimmed text with widths folded (case kept);
/// `None` for blank values, which match nothing.
pub(crate) fn key_text(value: &Value) -> Option<String> {
    if is_blank(value) {
        return None;
    }
    Some(match value {
        // 「2026/11/5」 and 「2026-11-05」 are one day.
        Value::String(s) => match parse_date(s) {
            Some(Date { year, month, day, time: None }) => format!("{year:04}-{month:02}-{day:02}"),
            _ => fold_width(s).trim().to_string(),
        },
        other => display_text(other),
    })
}

fn as_bool(value: &Value) -> Option<bool> {
    match value {
        Value::Bool(b) => Some(*b),
        Value::String(s) => match s.trim().to_ascii_lowercase().as_str() {
            "true" => Some(true),
            "false" => Some(false),
            _ => None,
        },
        _ => None,
    }
}

/// How `a` compares with `b` as people mean it, or `None` when they cannot be ordered (see the
/// module documentation).
pub(crate) fn compare(a: &Value, b: &Value) -> Option<Ordering> {
    match (is_blank(a), is_blank(b)) {
        (true, true) => return Some(Ordering::Equal),
        (true, false) | (false, true) => return None,
        _ => {}
    }
    match (number_only(a), number_only(b)) {
        (Some(x), Some(y)) => return x.partial_cmp(&y),
        (Some(_), None) | (None, Some(_)) => return None,
        _ => {}
    }
    match (date(a), date(b)) {
        (Some(x), Some(y)) => return Some(x.cmp_calendar(&y)),
        (Some(_), None) | (None, Some(_)) => return None,
        _ => {}
    }
    // 「2026年9月」 before 「2026年10月」: months in the calendar's order, not the text's.
    if let (Some(x), Some(y)) = (year_month(a), year_month(b)) {
        return Some(x.cmp(&y));
    }
    if matches!(a, Value::Bool(_)) || matches!(b, Value::Bool(_)) {
        return match (as_bool(a), as_bool(b)) {
            (Some(x), Some(y)) => Some(x.cmp(&y)),
            _ => None,
        };
    }
    match (a, b) {
        (Value::String(_) | Value::Number(_), Value::String(_) | Value::Number(_)) => {
            Some(fold_text(&display_text(a)).cmp(&fold_text(&display_text(b))))
        }
        _ => (a == b).then_some(Ordering::Equal),
    }
}

/// Whether `a` and `b` are the same value as people mean it.
pub(crate) fn equals(a: &Value, b: &Value) -> bool {
    compare(a, b) == Some(Ordering::Equal)
}

/// Whether `haystack` contains `needle`: a list holding an equal item, or a text containing the
/// other (widths folded, case ignored).
pub(crate) fn contains(haystack: &Value, needle: &Value) -> bool {
    match haystack {
        Value::Array(items) => items.iter().any(|item| equals(item, needle)),
        Value::Null => false,
        Value::Object(_) => false,
        _ => fold_text(&display_text(haystack)).contains(&fold_text(&display_text(needle))),
    }
}

/// Column names in `rows`, in first-seen order.
pub(crate) fn columns_of<'a>(rows: impl IntoIterator<Item = &'a serde_json::Map<String, Value>>) -> Vec<String> {
    let mut seen = std::collections::HashSet::new();
    let mut columns = Vec::new();
    for row in rows {
        for key in row.keys() {
            if seen.insert(key.as_str()) {
                columns.push(key.clone());
            }
        }
    }
    columns
}

/// A message naming the columns there are, and the closest one to `wanted`: one that differs
/// only in spaces, width or case, or else one a couple of characters away.
pub(crate) fn missing_column_hint(wanted: &str, columns: &[String]) -> String {
    if columns.is_empty() {
        return "the rows have no columns".into();
    }
    missing_name_hint(wanted, columns, "the columns")
}

/// Like [`missing_column_hint`], for any names: `what` is how to call them ("its keys").
pub(crate) fn missing_name_hint(wanted: &str, columns: &[String], what: &str) -> String {
    let folded = fold_text(wanted);
    let close = columns.iter().find(|c| fold_text(c) == folded).or_else(|| {
        let limit = (folded.chars().count() / 3).max(1);
        columns
            .iter()
            .map(|c| (edit_distance(&fold_text(c), &folded), c))
            .filter(|(d, _)| *d <= limit)
            .min_by_key(|(d, _)| *d)
            .map(|(_, c)| c)
    });
    let listed = listed_names(columns);
    let more = if columns.len() > 20 { format!(" (and {} more)", columns.len() - 20) } else { String::new() };
    match close {
        Some(c) => format!("did you mean `{c}`? ({what} are: {listed}{more})"),
        None => format!("{what} are: {listed}{more}"),
    }
}

/// The first 20 names, comma-separated: enough to spot a typo, never a wall of text.
pub(crate) fn listed_names(names: &[String]) -> String {
    names.iter().take(20).map(String::as_str).collect::<Vec<_>>().join(", ")
}

/// Levenshtein distance over characters.
fn edit_distance(a: &str, b: &str) -> usize {
    let b: Vec<char> = b.chars().collect();
    let mut previous: Vec<usize> = (0..=b.len()).collect();
    for (i, ca) in a.chars().enumerate() {
        let mut current = vec![i + 1; b.len() + 1];
        for (j, cb) in b.iter().enumerate() {
            current[j + 1] = (previous[j] + usize::from(ca != *cb)).min(previous[j + 1] + 1).min(current[j] + 1);
        }
        previous = current;
    }
    previous[b.len()]
}

#[cfg(test)]
mod tests {
    use std::cmp::Ordering;

    use serde_json::{json, Value};

    use super::*;

    fn num(text: &str) -> Option<f64> {
        parse_number(text).map(|n| n.value)
    }

    #[test]
    fn numeric_looking_text_is_a_number() {
        assert_eq!(num("1200"), Some(1200.0));
        assert_eq!(num("1,200"), Some(1200.0));
        assert_eq!(num(" 132000 "), Some(132000.0));
        assert_eq!(num("12,345,678.50"), Some(12_345_678.5));
        assert_eq!(num("-500"), Some(-500.0));
        assert_eq!(num("+500"), Some(500.0));
        assert_eq!(num("0"), Some(0.0));
        assert_eq!(num("0.25"), Some(0.25));
        // Full-width digits, comma, minus and the ideographic space from Japanese exports.
        assert_eq!(num("１２００"), Some(1200.0));
        assert_eq!(num("１，２００"), Some(1200.0));
        assert_eq!(num("－１２００"), Some(-1200.0));
        assert_eq!(num("\u{3000}１２００\u{3000}"), Some(1200.0));
        // Currency marks and the accounting minus.
        assert_eq!(num("¥1,200"), Some(1200.0));
        assert_eq!(num("￥１，２００"), Some(1200.0));
        assert_eq!(num("1,200円"), Some(1200.0));
        assert_eq!(num("-¥1,200"), Some(-1200.0));
        assert_eq!(num("¥-1,200"), Some(-1200.0));
        assert_eq!(num("$ 12.50"), Some(12.5));
        assert_eq!(num("△1,200"), Some(-1200.0));
        assert_eq!(num("▲500"), Some(-500.0));
    }

    #[test]
    fn codes_and_other_text_are_not_numbers() {
        for text in [
            "00123",
            "0401",
            "1,20",
            "1,2345",
            ",100",
            "1.",
            ".5",
            "1e5",
            "12E4",
            "10%",
            "(1,200)",
            "",
            " ",
            "-",
            "¥",
            "INV-0401",
            "1 200",
            "1.2.3",
            "12345678901234567",
            "2024-04-01",
            "true",
        ] {
            assert_eq!(num(text), None, "{text:?}");
        }
    }

    #[test]
    fn sums_keep_the_decimals_they_were_written_with() {
        assert_eq!(round_to_scale(0.1 + 0.2, 1), 0.3);
        assert_eq!(number_value(264000.0), json!(264000));
        assert_eq!(number_value(0.1 + 0.2), json!(0.3));
        assert_eq!(number_value(f64::NAN), Value::Null);
        assert_eq!(number(&json!(0.25)).unwrap().scale, 2);
        assert_eq!(number(&json!("1,200.5")).unwrap().scale, 1);
    }

    #[test]
    fn dates_in_several_spellings() {
        let d = |s: &str| parse_date(s).map(|d| (d.year, d.month, d.day, d.time));
        assert_eq!(d("2024-04-01"), Some((2024, 4, 1, None)));
        assert_eq!(d("2024/4/1"), Some((2024, 4, 1, None)));
        assert_eq!(d("2024.04.01"), Some((2024, 4, 1, None)));
        assert_eq!(d("2024年4月1日"), Some((2024, 4, 1, None)));
        assert_eq!(d("２０２４－０４－０１"), Some((2024, 4, 1, None)));
        assert_eq!(d("2024-04-01 10:30"), Some((2024, 4, 1, Some(37_800_000))));
        assert_eq!(d("2024-04-01T10:30:15Z"), Some((2024, 4, 1, Some(37_815_000))));
        assert_eq!(d("2024-02-29"), Some((2024, 2, 29, None)));
        assert_eq!(d("Nov 3, 2026"), Some((2026, 11, 3, None)));
        assert_eq!(d("November 3 2026"), Some((2026, 11, 3, None)));
        assert_eq!(d("3 Nov 2026"), Some((2026, 11, 3, None)));
        assert_eq!(d("Sept. 30, 2026"), Some((2026, 9, 30, None)));
        for bad in [
            "2023-02-29",
            "2024-13-01",
            "2024-04-31",
            "24-04-01",
            "2024-04",
            "20240401",
            "2024-04-01x",
            "april",
            "Nov 31, 2026",
            "No 3, 2026",
            "May 3",
            "Novem 3, 2026",
        ] {
            assert_eq!(d(bad), None, "{bad}");
        }
    }

    #[test]
    fn comparison_as_people_mean_it() {
        let cmp = |a: Value, b: Value| compare(&a, &b);
        assert_eq!(cmp(json!("1,200"), json!(1200)), Some(Ordering::Equal));
        assert_eq!(cmp(json!("１２００"), json!("1200")), Some(Ordering::Equal));
        assert_eq!(cmp(json!("9"), json!("10")), Some(Ordering::Less), "numbers, not text order");
        assert_eq!(cmp(json!("2024/4/30"), json!("2024-04-01")), Some(Ordering::Greater));
        assert_eq!(cmp(json!("2024-04-30 15:00"), json!("2024-04-30")), Some(Ordering::Equal), "day precision");
        assert_eq!(cmp(json!("未定"), json!("2024-04-01")), None);
        assert_eq!(cmp(json!("N/A"), json!(100)), None);
        assert_eq!(cmp(json!(null), json!("")), Some(Ordering::Equal));
        assert_eq!(cmp(json!(null), json!(0)), None);
        assert_eq!(cmp(json!("Paid "), json!("paid")), Some(Ordering::Equal));
        assert_eq!(cmp(json!("ﾔﾏﾀﾞ"), json!("ヤマダ")), Some(Ordering::Equal));
        assert_eq!(cmp(json!("ＩＮＶ－０１"), json!("INV-01")), Some(Ordering::Equal));
        assert_eq!(cmp(json!(true), json!("TRUE")), Some(Ordering::Equal));
        assert_eq!(cmp(json!("00123"), json!(123)), None, "a code is not the number");
        assert_eq!(cmp(json!("00123"), json!("00123")), Some(Ordering::Equal));
        assert!(equals(&json!([1, 2]), &json!([1, 2])));
        assert!(!equals(&json!({"a": 1}), &json!({"a": 2})));
    }

    #[test]
    fn width_folding_joins_voiced_marks() {
        assert_eq!(fold_width("ｶﾞｷﾞﾊﾟﾋﾟｳﾞｰ"), "ガギパピヴー");
        assert_eq!(fold_width("ﾌﾘｺﾐ ｶ)ﾔﾏﾀﾞｼﾖｳｼﾞ"), "フリコミ カ)ヤマダシヨウジ");
        assert_eq!(fold_width("ＡＢＣ　１２３"), "ABC 123");
    }

    #[test]
    fn keys_are_trimmed_text() {
        assert_eq!(key_text(&json!(1001)), Some("1001".into()));
        assert_eq!(key_text(&json!(1001.0)), Some("1001".into()));
        assert_eq!(key_text(&json!(" 1001 ")), Some("1001".into()));
        assert_eq!(key_text(&json!("１００１")), Some("1001".into()));
        assert_eq!(key_text(&json!("Inv-1")), Some("Inv-1".into()), "case is kept");
        assert_eq!(key_text(&json!("2026/11/5")), key_text(&json!("2026-11-05")), "one day");
        assert_ne!(key_text(&json!("2026/11/5 10:00")), key_text(&json!("2026-11-05")), "a time is more than a day");
        assert_eq!(key_text(&json!("2024-0001")), Some("2024-0001".into()), "no date");
        assert_eq!(key_text(&json!("  ")), None);
        assert_eq!(key_text(&json!(null)), None);
    }

    #[test]
    fn contains_on_text_and_lists() {
        assert!(contains(&json!("振込 カ）ヤマダシヨウジ"), &json!("ﾔﾏﾀﾞ")));
        assert!(contains(&json!("AMAZON JP"), &json!("amazon")));
        assert!(contains(&json!(["a", "b"]), &json!("b")));
        assert!(!contains(&json!(["a", "b"]), &json!("c")));
        assert!(contains(&json!(123456), &json!(345)));
        assert!(!contains(&json!(null), &json!("x")));
    }
}
