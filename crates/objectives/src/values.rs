//! Values as steps write them without quotes: the part of "order 1042" that the field's label
//! does not already say, a date written relative to the run's day ("next Friday", 「来月末」) in
//! the form the field takes, and a bound of a search ("under 20 euros").

use time::{Date, Duration, Month, Weekday};

use crate::text::{fold, is_japanese, stem, words};

/// The part of an unquoted `value` the field's `label` does not already say: "order 1042" for
/// the field "Order number" is "1042", 「伝票番号 5531」 for 「伝票番号」 is "5531", "the code
/// 7F3K" for "Code" is "7F3K". Leading words the label holds are dropped, with the articles among
/// them; something always remains, and articles alone are never dropped ("the Smiths").
pub fn beyond_label(value: &str, label: &str) -> String {
    let label_words = words(label);
    let said = |token: &str| {
        let token_words = words(token);
        !token_words.is_empty()
            && token_words.iter().all(|w| {
                label_words.iter().any(|l| {
                    l == w
                        || stem(l) == stem(w)
                        || (w.chars().any(is_japanese) && (l.contains(w.as_str()) || w.contains(l.as_str())))
                })
            })
    };
    let article = |token: &str| ARTICLES.contains(&fold(token).as_str());
    let tokens: Vec<&str> = value.split_whitespace().collect();
    let kept = tokens.iter().position(|t| !said(t) && !article(t)).unwrap_or(tokens.len());
    if kept == tokens.len() || !tokens[..kept].iter().any(|t| said(t)) {
        return value.trim().to_owned();
    }
    tokens[kept..].join(" ")
}

/// Words before a value that name nothing of it ("the code 7F3K", "your order 1042").
const ARTICLES: &[&str] = &["the", "a", "an", "my", "your", "our", "this", "that", "its"];

/// A date written relative to `today` (or in full), if `text` is nothing but one: today,
/// tomorrow, "next Friday" (the first Friday after today), "this Friday", "in 3 days",
/// "2 weeks from now", "end of next month", 2026-03-15, "15 March 2026", 明日, 来週の金曜日,
/// 来月末, 3日後, 2026年3月15日.
pub fn date_in(text: &str, today: Date) -> Option<Date> {
    let folded = fold(text);
    let t = folded.trim().trim_end_matches(['.', '。']).trim_start_matches("on ").trim();
    let t = t.strip_prefix("the ").unwrap_or(t);
    match t {
        "today" | "今日" | "本日" => return Some(today),
        "tomorrow" | "明日" | "あした" => return today.next_day(),
        "the day after tomorrow" | "day after tomorrow" | "明後日" | "あさって" => {
            return today.checked_add(Duration::days(2))
        }
        "yesterday" | "昨日" => return today.previous_day(),
        "next week" | "来週" => return today.checked_add(Duration::weeks(1)),
        "next month" | "来月" => return add_months(today, 1, false),
        "end of the month" | "end of this month" | "月末" | "今月末" => return add_months(today, 0, true),
        "end of next month" | "来月末" => return add_months(today, 1, true),
        _ => {}
    }
    // 来週の金曜日: that day of the next week (weeks start on Monday).
    if let Some((weekday, _)) = t.strip_prefix("来週の").or_else(|| t.strip_prefix("来週")).and_then(weekday_phrase)
    {
        let monday = today.checked_add(Duration::days(7 - i64::from(today.weekday().number_days_from_monday())))?;
        return monday.checked_add(Duration::days(i64::from(weekday.number_days_from_monday())));
    }
    if let Some(day) = weekday_phrase(t) {
        let (weekday, next) = day;
        let mut date = if next { today.next_day()? } else { today };
        while date.weekday() != weekday {
            date = date.next_day()?;
        }
        return Some(date);
    }
    if let Some(date) = offset_phrase(t, today) {
        return Some(date);
    }
    absolute(t)
}

/// "next friday", "friday", "this friday", 来週の金曜日, 次の金曜日, 金曜日: the weekday, and
/// whether today is excluded. 来週 means the next week's day (Monday-based).
fn weekday_phrase(t: &str) -> Option<(Weekday, bool)> {
    const DAYS: [(&str, &str, Weekday); 7] = [
        ("monday", "月曜", Weekday::Monday),
        ("tuesday", "火曜", Weekday::Tuesday),
        ("wednesday", "水曜", Weekday::Wednesday),
        ("thursday", "木曜", Weekday::Thursday),
        ("friday", "金曜", Weekday::Friday),
        ("saturday", "土曜", Weekday::Saturday),
        ("sunday", "日曜", Weekday::Sunday),
    ];
    let (rest, next) = match t.strip_prefix("next ").or_else(|| t.strip_prefix("次の")) {
        Some(rest) => (rest, true),
        None => (t.strip_prefix("this ").or_else(|| t.strip_prefix("今週の")).unwrap_or(t), false),
    };
    let rest = rest.trim_end_matches("日").trim();
    DAYS.iter().find(|(en, ja, _)| rest == *en || rest == *ja).map(|(_, _, day)| (*day, next))
}

/// "in 3 days", "3 days from now", "in 2 weeks", 3日後, 2週間後.
fn offset_phrase(t: &str, today: Date) -> Option<Date> {
    let t = t.strip_prefix("in ").unwrap_or(t).trim_end_matches(" from now").trim_end_matches(" from today");
    let digits: String = t.chars().take_while(char::is_ascii_digit).collect();
    let n: i64 = digits.parse().ok()?;
    let unit = t[digits.len()..].trim();
    let days = match unit {
        "day" | "days" | "日後" => n,
        "week" | "weeks" | "週間後" => n.checked_mul(7)?,
        "month" | "months" | "か月後" | "ヶ月後" | "カ月後" => {
            return add_months(today, u32::try_from(n).ok()?, false)
        }
        _ => return None,
    };
    today.checked_add(Duration::days(days))
}

/// `months` after `date`'s month: the same day (the month's last when it has fewer), or the
/// month's last day when `end`.
fn add_months(date: Date, months: u32, end: bool) -> Option<Date> {
    let index = date.year() * 12 + i32::from(u8::from(date.month())) - 1 + i32::try_from(months).ok()?;
    let (year, month) = (index.div_euclid(12), Month::try_from(u8::try_from(index.rem_euclid(12) + 1).ok()?).ok()?);
    let last = month.length(year);
    Date::from_calendar_date(year, month, if end { last } else { date.day().min(last) }).ok()
}

/// A date written in full: 2026-03-15, 2026/3/15, 2026年3月15日, "15 March 2026", "March 15, 2026".
fn absolute(t: &str) -> Option<Date> {
    let numbers: Vec<u32> =
        t.split(|c: char| !c.is_ascii_digit()).filter(|s| !s.is_empty()).filter_map(|s| s.parse().ok()).collect();
    let month_name = MONTHS.iter().position(|m| t.split(|c: char| !c.is_alphabetic()).any(|w| w == *m || w == &m[..3]));
    let only_date_words = t.split(|c: char| !c.is_alphanumeric()).filter(|w| !w.is_empty()).all(|w| {
        w.chars().all(|c| c.is_ascii_digit())
            || MONTHS.iter().any(|m| w == *m || w == &m[..3])
            || w.ends_with(['年', '月', '日'])
    });
    if !only_date_words {
        return None;
    }
    let (year, month, day) = match (month_name, numbers.as_slice()) {
        (Some(m), [a, b]) if *a > 31 => (*a, m as u32 + 1, *b),
        (Some(m), [a, b]) => (*b, m as u32 + 1, *a),
        (None, [y, m, d]) if *y > 31 => (*y, *m, *d),
        _ => return None,
    };
    let month = Month::try_from(u8::try_from(month).ok()?).ok()?;
    Date::from_calendar_date(i32::try_from(year).ok()?, month, u8::try_from(day).ok()?).ok()
}

/// The months' English names, in order.
pub(crate) use planwright_block::text::ENGLISH_MONTHS as MONTHS;

/// `date` as the field wants it: the format its name or placeholder shows (MM/DD/YYYY,
/// DD/MM/YYYY, DD.MM.YYYY, YYYY/MM/DD), else YYYY-MM-DD, what a date input takes.
pub fn date_for_field(date: Date, field: &str) -> String {
    let (y, m, d) = (date.year(), u8::from(date.month()), date.day());
    let shown = fold(field);
    if shown.contains("mm/dd/yyyy") {
        format!("{m:02}/{d:02}/{y}")
    } else if shown.contains("dd/mm/yyyy") {
        format!("{d:02}/{m:02}/{y}")
    } else if shown.contains("dd.mm.yyyy") {
        format!("{d:02}.{m:02}.{y}")
    } else if shown.contains("yyyy/mm/dd") {
        format!("{y}/{m:02}/{d:02}")
    } else {
        format!("{y}-{m:02}-{d:02}")
    }
}

/// The run's day: today where the run happens (UTC when the local offset cannot be read).
pub fn today() -> Date {
    time::OffsetDateTime::now_local().unwrap_or_else(|_| time::OffsetDateTime::now_utc()).date()
}

/// A search's upper bound: "red widgets under 20 euros" → ("red widgets", "20").
pub fn upper_bound(query: &str) -> Option<(String, String)> {
    let lower = query.to_ascii_lowercase();
    for marker in [" under ", " below ", " less than ", " cheaper than ", " up to ", " at most ", " max ", " maximum "]
    {
        let Some(i) = lower.find(marker) else { continue };
        let amount_part = query[i + marker.len()..].trim();
        let amount: String = amount_part
            .trim_start_matches(['€', '$', '£', '¥'])
            .chars()
            .take_while(|c| c.is_ascii_digit() || matches!(c, '.' | ','))
            .collect();
        let amount = amount.trim_end_matches(['.', ',']).to_owned();
        let unit = amount_part.trim_start_matches(['€', '$', '£', '¥'])[amount.len()..].trim().to_ascii_lowercase();
        let currency = unit.is_empty()
            || ["euro", "euros", "eur", "dollar", "dollars", "usd", "yen", "jpy", "pound", "pounds", "gbp", "円"]
                .contains(&unit.as_str());
        let what = query[..i].trim();
        if !amount.is_empty() && currency && !what.is_empty() {
            return Some((what.to_owned(), amount));
        }
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;
    use time::macros::date;

    #[test]
    fn the_value_is_what_the_label_does_not_say() {
        let cases = [
            ("order 1042", "Order number", "1042"),
            ("customer 88213", "Customer ID", "88213"),
            ("伝票番号 5531", "伝票番号", "5531"),
            ("Tailspin Toys", "Customer", "Tailspin Toys"),
            ("order", "Order number", "order"),
            ("orders 7 and 8", "Order", "7 and 8"),
            ("the code 7F3K", "Code", "7F3K"),
            ("your order 1042", "Order number", "1042"),
            ("the Smiths", "Name", "the Smiths"),
            ("the code", "Code", "the code"),
        ];
        for (value, label, expected) in cases {
            assert_eq!(beyond_label(value, label), expected, "{value} for {label}");
        }
    }

    #[test]
    fn dates_are_read_relative_to_the_runs_day() {
        // A Saturday.
        let today = date!(2026 - 11 - 28);
        let cases = [
            ("today", Some(date!(2026 - 11 - 28))),
            ("tomorrow", Some(date!(2026 - 11 - 29))),
            ("next Friday", Some(date!(2026 - 12 - 04))),
            ("next Saturday", Some(date!(2026 - 12 - 05))),
            ("this Saturday", Some(date!(2026 - 11 - 28))),
            ("in 3 days", Some(date!(2026 - 12 - 01))),
            ("2 weeks from now", Some(date!(2026 - 12 - 12))),
            ("end of next month", Some(date!(2026 - 12 - 31))),
            ("来月末", Some(date!(2026 - 12 - 31))),
            ("明日", Some(date!(2026 - 11 - 29))),
            ("来週の金曜日", Some(date!(2026 - 12 - 04))),
            ("3日後", Some(date!(2026 - 12 - 01))),
            ("2026年3月15日", Some(date!(2026 - 03 - 15))),
            ("15 March 2026", Some(date!(2026 - 03 - 15))),
            ("March 15, 2026", Some(date!(2026 - 03 - 15))),
            ("2026-03-15", Some(date!(2026 - 03 - 15))),
            ("order 1042", None),
            ("Friday market", None),
            ("2026-02-30", None),
        ];
        for (text, expected) in cases {
            assert_eq!(date_in(text, today), expected, "{text}");
        }
        assert_eq!(date_in("end of next month", date!(2027 - 01 - 31)), Some(date!(2027 - 02 - 28)));
        assert_eq!(date_in("next month", date!(2027 - 01 - 31)), Some(date!(2027 - 02 - 28)));
    }

    #[test]
    fn a_date_takes_the_form_its_field_shows() {
        let day = date!(2026 - 12 - 04);
        assert_eq!(date_for_field(day, "Delivery date"), "2026-12-04");
        assert_eq!(date_for_field(day, "Due (MM/DD/YYYY)"), "12/04/2026");
        assert_eq!(date_for_field(day, "Fällig am (DD.MM.YYYY)"), "04.12.2026");
        assert_eq!(date_for_field(day, "日付 (YYYY/MM/DD)"), "2026/12/04");
    }

    #[test]
    fn a_search_bound_is_its_own_value() {
        assert_eq!(upper_bound("red widgets under 20 euros"), Some(("red widgets".into(), "20".into())));
        assert_eq!(upper_bound("lamps below $35.50"), Some(("lamps".into(), "35.50".into())));
        assert_eq!(upper_bound("books under the bed"), None);
        assert_eq!(upper_bound("order 1042"), None);
    }
}
