//! Dates said in full and compared: "before October 31, 2026", "from July 1 through September
//! 30" (in a clause that says 2026), "between 2026-04-01 and 2026-09-30", 「2026年4月1日〜2026年
//! 9月30日」, 「10/1〜10/31」, 「2026年10月31日より前」. A day whose year the text does not say
//! ("Nov 2 through Nov 8", 「11月2日」, 「12/29〜12/31」; not 「11/2」 alone, which may be a
//! fraction) is a day of `${vars.year}`, which the data settles or the person answers: no year is
//! guessed.

use std::ops::Range;
use std::sync::LazyLock;

use regex::Regex;
use serde_json::Value;

use super::Condition;

/// Whether the month and day at `range` (「12/29」) is one end of a range of two such:
/// 「12/29〜12/31」.
fn in_a_range_of_days(clause: &str, range: Range<usize>) -> bool {
    static AFTER: LazyLock<Regex> =
        LazyLock::new(|| re(r"^\s*(?:~|〜|～|から)\s*(?:1[0-2]|0?[1-9])/\d{1,2}(?:[^\d/]|$)"));
    static BEFORE: LazyLock<Regex> =
        LazyLock::new(|| re(r"(?:^|[^\d/])(?:1[0-2]|0?[1-9])/\d{1,2}\s*(?:~|〜|～|から)\s*$"));
    AFTER.is_match(&clause[range.end..]) || BEFORE.is_match(&clause[..range.start])
}

/// The year of a day said without one, settled later (`${vars.year}-11-02`).
pub(crate) const YEAR_VAR: &str = "${vars.year}";

fn re(pattern: &str) -> Regex {
    Regex::new(pattern).expect("date pattern")
}

const EN_MONTHS: &str = "January|February|March|April|May|June|July|August|September|October|November|December|Jan|Feb|Mar|Apr|Jun|Jul|Aug|Sept|Sep|Oct|Nov|Dec";

/// "from 1 to 14 December", "1-14 Dec 2026", "December 1-14", "between Nov 3 and 9, 2026": days
/// of one month said once.
static EN_DAYS_OF_ONE_MONTH: LazyLock<Regex> = LazyLock::new(|| {
    re(&format!(
        r"(?i)\b(?P<d1>[0-3]?\d)(?:st|nd|rd|th)?\s*(?P<c>-|–|to|through|thru|until|and)\s*(?P<d2>[0-3]?\d)(?:st|nd|rd|th)?\s+(?P<m>{EN_MONTHS})\b\.?(?:,?\s+(?P<y>(?:19|20|21)\d\d)\b)?|\b(?P<m2>{EN_MONTHS})\.?\s+(?P<e1>[0-3]?\d)(?:st|nd|rd|th)?\s*(?P<c2>-|–|to|through|thru|until|and)\s*(?P<e2>[0-3]?\d)(?:st|nd|rd|th)?\b(?P<rest>\s*(?:,\s*)?(?:(?:19|20|21)\d\d\b)?)"
    ))
});

/// `text` with the days of one month said once written out in full, each with its month (and
/// year): "from 1 December to 14 December", which the dates read.
pub fn days_of_one_month_in_full(text: &str) -> String {
    EN_DAYS_OF_ONE_MONTH
        .replace_all(text, |c: &regex::Captures| {
            let whole = &c[0];
            let day = |name: &str| c.name(name).and_then(|d| d.as_str().parse::<u32>().ok());
            let (d1, d2, month, connector) = match (day("d1"), day("d2"), day("e1"), day("e2")) {
                (Some(a), Some(b), _, _) => (a, b, &c["m"], &c["c"]),
                (_, _, Some(a), Some(b)) => (a, b, &c["m2"], &c["c2"]),
                _ => return whole.to_owned(),
            };
            // ("Dec 1-14, 2026": the year after the second day is both days'; "Dec 1-14, biggest
            // first": the words after stay as said.)
            let rest = c.name("rest").map_or("", |r| r.as_str());
            let year_after = rest.trim_matches(|ch: char| ch == ',' || ch.is_whitespace());
            let (year, rest) = match c.name("y").map(|y| y.as_str()) {
                Some(y) => (y, rest),
                None if !year_after.is_empty() => (year_after, ""),
                None => ("", rest),
            };
            let year = if year.is_empty() { String::new() } else { format!(" {year}") };
            // ("from 14 to 1 December": no range runs back.)
            if !(1..=31).contains(&d1) || !(1..=31).contains(&d2) || d1 >= d2 || month_number(month).is_none() {
                return whole.to_owned();
            }
            let connector = if matches!(connector, "-" | "–") { "to" } else { connector };
            format!("{d1} {month}{year} {connector} {d2} {month}{year}{rest}")
        })
        .into_owned()
}

/// 2026-10-31, 2026/10/31, 2026年10月31日.
static YEAR_FIRST: LazyLock<Regex> = LazyLock::new(|| {
    re(r"(?:^|[^\d])(?P<y>(?:19|20|21)\d\d)\s*(?:[-/.]|年)\s*(?P<m>\d{1,2})\s*(?:[-/.]|月)\s*(?P<d>\d{1,2})日?")
});
/// October 31, 2026; Oct 31st 2026; 31 October 2026; October 31 (a year from the clause).
static EN_NAMED: LazyLock<Regex> = LazyLock::new(|| {
    re(&format!(
        r"(?i:\b(?P<m>{EN_MONTHS})\.?\s+(?P<d>\d{{1,2}})(?:st|nd|rd|th)?\b(?:,?\s+(?P<y>(?:19|20|21)\d\d)\b)?|\b(?P<d2>\d{{1,2}})(?:st|nd|rd|th)?\s+(?:of\s+)?(?P<m2>{EN_MONTHS})\.?\b(?:,?\s+(?P<y2>(?:19|20|21)\d\d)\b)?)"
    ))
});
/// The days of one month: "1-30 Nov 2026", "Nov 1-15, 2026", "1st to 15th of November 2026".
static EN_DAYS_OF_A_MONTH: LazyLock<Regex> = LazyLock::new(|| {
    re(&format!(
        r"(?i:\b(?P<d1>\d{{1,2}})(?:st|nd|rd|th)?\s*(?:-|–|to|through)\s*(?P<d2>\d{{1,2}})(?:st|nd|rd|th)?\s+(?:of\s+)?(?P<m>{EN_MONTHS})\.?,?\s+(?P<y>(?:19|20|21)\d\d)\b|\b(?P<m2>{EN_MONTHS})\.?\s+(?P<e1>\d{{1,2}})(?:st|nd|rd|th)?\s*(?:-|–|to|through)\s*(?P<e2>\d{{1,2}})(?:st|nd|rd|th)?,?\s+(?P<y2>(?:19|20|21)\d\d)\b)"
    ))
});
/// 10月31日, 10/31 (a year from the clause).
static MONTH_DAY: LazyLock<Regex> =
    // (An ASCII boundary after the day: 「3/15に」 ends the date at に.)
    LazyLock::new(|| {
        re(r"(?:^|[^\d年/.\-])(?P<m>1[0-2]|0?[1-9])\s*(?:月\s*(?P<d>\d{1,2})\s*日|/(?P<d2>\d{1,2})(?-u:\b))")
    });
static YEAR: LazyLock<Regex> = LazyLock::new(|| re(r"(?:19|20|21)\d\d"));

/// A date the text says, as `YYYY-MM-DD`, and where.
#[derive(Debug, Clone, PartialEq)]
pub struct SaidDate {
    pub value: String,
    pub range: Range<usize>,
}

/// The dates of `clause`, in its order.
pub fn dates(clause: &str) -> Vec<SaidDate> {
    let mut found: Vec<SaidDate> = Vec::new();
    let overlaps =
        |found: &[SaidDate], r: &Range<usize>| found.iter().any(|d| d.range.start < r.end && r.start < d.range.end);
    for c in YEAR_FIRST.captures_iter(clause) {
        let range = c.name("y").expect("a year").start()..c.get(0).expect("match").end();
        if clause[range.end..].starts_with(|ch: char| ch.is_ascii_digit()) {
            continue;
        }
        if let Some(value) = ymd(&c["y"], &c["m"], &c["d"]) {
            found.push(SaidDate { value, range });
        }
    }
    // The two days of a range said with one month: each its date, the dash between them.
    for c in EN_DAYS_OF_A_MONTH.captures_iter(clause) {
        let (Some(month), Some(year)) = (c.name("m").or(c.name("m2")), c.name("y").or(c.name("y2"))) else { continue };
        let (Some(first), Some(last)) = (c.name("d1").or(c.name("e1")), c.name("d2").or(c.name("e2"))) else {
            continue;
        };
        let Some(month) = month_number(month.as_str()) else { continue };
        let whole = c.get(0).expect("match");
        let days = [(first, whole.start()..first.end()), (last, last.start()..whole.end())];
        let said: Option<Vec<SaidDate>> = days
            .into_iter()
            .map(|(day, range)| Some(SaidDate { value: ymd(year.as_str(), &month.to_string(), day.as_str())?, range }))
            .collect();
        if let Some(said) = said.filter(|_| !overlaps(&found, &whole.range())) {
            found.extend(said);
        }
    }
    for c in EN_NAMED.captures_iter(clause) {
        let whole = c.get(0).expect("match");
        let month = c.name("m").or(c.name("m2")).expect("a month");
        // "may 5" is no date; a month's name without a year is one only when capitalised.
        let year = c.name("y").or(c.name("y2")).map(|y| y.as_str().to_owned());
        if year.is_none() && !month.as_str().starts_with(|ch: char| ch.is_ascii_uppercase()) {
            continue;
        }
        let year = year.or_else(|| year_near(clause, whole.start()));
        let month = month_number(month.as_str());
        let day = c.name("d").or(c.name("d2")).expect("a day").as_str();
        let value = match year {
            Some(year) => month.and_then(|m| ymd(&year, &m.to_string(), day)),
            None => month.and_then(|m| day_of_unsaid_year(m, day)),
        };
        if let Some(value) = value {
            if !overlaps(&found, &whole.range()) {
                found.push(SaidDate { value, range: whole.range() });
            }
        }
    }
    for c in MONTH_DAY.captures_iter(clause) {
        let month = c.name("m").expect("a month");
        let end = c.get(0).expect("match").end();
        let range = month.start()..end;
        let day = c.name("d").or(c.name("d2")).expect("a day").as_str();
        let value = match year_near(clause, range.start) {
            Some(year) => ymd(&year, month.as_str(), day),
            // (「11/2」 may be a fraction: only 「11月2日」 is a day without its year, and 「12/29〜12/31」,
            // days at either end of a range.)
            None if c.name("d").is_some() || in_a_range_of_days(clause, range.clone()) => {
                month.as_str().parse().ok().and_then(|m| day_of_unsaid_year(m, day))
            }
            None => None,
        };
        if let Some(value) = value {
            if !overlaps(&found, &range) {
                found.push(SaidDate { value, range });
            }
        }
    }
    // 「2026年11月1日〜30日」: the last day of a range said with the first's month.
    let mut days_after = Vec::new();
    for date in &found {
        let Some(c) = JA_DAY_AFTER_A_RANGE.captures(&clause[date.range.end..]) else { continue };
        let day = c.name("d").expect("a day");
        let range = date.range.end + day.start()..date.range.end + c.get(0).expect("match").end();
        let (Some(year), Some(month)) = (date.value.get(..4), date.value.get(5..7)) else { continue };
        if let Some(value) = ymd(year, month, day.as_str()).filter(|_| clause[..date.range.end].ends_with('日')) {
            days_after.push(SaidDate { value, range });
        }
    }
    for day in days_after {
        if !overlaps(&found, &day.range) {
            found.push(day);
        }
    }
    found.sort_by_key(|d| d.range.start);
    // (「7月1日から9月30日まで」「7/1〜9/30」: whole months said by their days, read as months of the year.)
    if let [first, last] = &found[..] {
        if whole_months_of_an_unsaid_year(&first.value, &last.value) {
            found.clear();
        }
    }
    found
}

/// Whether two days of `${vars.year}` are the first day of a month and the last of the same
/// month or a later one.
fn whole_months_of_an_unsaid_year(first: &str, last: &str) -> bool {
    let month_and_day = |day: &str| -> Option<(u32, u32)> {
        let rest = day.strip_prefix(YEAR_VAR)?.strip_prefix('-')?;
        Some((rest.get(..2)?.parse().ok()?, rest.get(3..)?.parse().ok()?))
    };
    let (Some((m1, d1)), Some((m2, d2))) = (month_and_day(first), month_and_day(last)) else { return false };
    d1 == 1 && m2 >= m1 && ends_a_month(m2, d2)
}

/// Whether `day` is the last day of `month` in some year (February's: the 28th or the 29th).
pub(super) fn ends_a_month(month: u32, day: u32) -> bool {
    match month {
        2 => [28, 29].contains(&day),
        _ => last_day(2025, month) == Some(day),
    }
}

/// 「〜30日」 right after a date: the day a range ends, in the same month.
static JA_DAY_AFTER_A_RANGE: LazyLock<Regex> = LazyLock::new(|| re(r"^\s*(?:~|〜|～|-|–|から)\s*(?P<d>\d{1,2})\s*日"));

/// A day of `${vars.year}` (any day a month may have, the 29th of February included).
fn day_of_unsaid_year(month: u32, day: &str) -> Option<String> {
    // (2024, a leap year: every day any year's month has.)
    ymd("2024", &month.to_string(), day).map(|date| format!("{YEAR_VAR}{}", &date[4..]))
}

fn ymd(year: &str, month: &str, day: &str) -> Option<String> {
    let (year, month, day): (i32, u32, u32) = (year.parse().ok()?, month.parse().ok()?, day.parse().ok()?);
    (1..=last_day(year, month)?).contains(&day).then(|| format!("{year:04}-{month:02}-{day:02}"))
}

/// The last day of a month of a year; `None` for no month.
pub(super) fn last_day(year: i32, month: u32) -> Option<u32> {
    let leap = year % 4 == 0 && (year % 100 != 0 || year % 400 == 0);
    Some(match month {
        2 if leap => 29,
        2 => 28,
        4 | 6 | 9 | 11 => 30,
        1..=12 => 31,
        _ => return None,
    })
}

/// A month's number from its English name or abbreviation ("Sept" → 9).
pub(crate) fn month_number(name: &str) -> Option<u32> {
    const NAMES: [&str; 12] = ["jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec"];
    let lower = name.to_ascii_lowercase();
    NAMES.iter().position(|n| lower.starts_with(n)).map(|i| i as u32 + 1)
}

/// The year the clause says nearest before `at`, else the first after it.
fn year_near(clause: &str, at: usize) -> Option<String> {
    let years: Vec<_> = YEAR
        .find_iter(clause)
        .filter(|m| {
            let before = clause[..m.start()].chars().next_back();
            let after = clause[m.end()..].chars().next();
            !before.is_some_and(|c| c.is_ascii_digit()) && !after.is_some_and(|c| c.is_ascii_digit())
        })
        .collect();
    years
        .iter()
        .rev()
        .find(|m| m.end() <= at)
        .or_else(|| years.iter().find(|m| m.start() >= at))
        .map(|m| m.as_str().to_owned())
}

/// Words before a date and what they compare, longest first.
const EN_BEFORE_DATE: &[(&str, &str)] = &[
    ("on or before", "lte"),
    ("no later than", "lte"),
    ("not later than", "lte"),
    ("up to and including", "lte"),
    ("on or after", "gte"),
    ("no earlier than", "gte"),
    ("not earlier than", "gte"),
    ("earlier than", "lt"),
    ("prior to", "lt"),
    ("older than", "lt"),
    ("later than", "gt"),
    ("newer than", "gt"),
    ("starting", "gte"),
    ("through", "lte"),
    ("before", "lt"),
    ("after", "gt"),
    ("since", "gte"),
    ("until", "lte"),
    ("till", "lte"),
    ("from", "gte"),
    ("as of", "gte"),
    ("by", "lte"),
    ("on", "eq"),
];
/// Words after a date, in Japanese, and what they compare.
const JA_AFTER_DATE: &[(&str, &str)] = &[
    ("より前", "lt"),
    ("よりも前", "lt"),
    ("より後", "gt"),
    ("よりも後", "gt"),
    ("以前", "lte"),
    ("以降", "gte"),
    ("以後", "gte"),
    ("までに", "lte"),
    ("まで", "lte"),
    ("から", "gte"),
    ("前", "lt"),
    ("後", "gt"),
];
/// 「（2026年11月15日）時点で支払期限を過ぎている」: a column of dates past on the day said.
static JA_PAST_AT: LazyLock<Regex> = LazyLock::new(|| {
    re(r"^(?:の)?(?:時点|現在)(?:で|では|の)?\s*、?\s*(?P<column>[^\s、。をがはの]{1,12})(?:を|が)(?:過ぎ|超過|経過)")
});
/// What joins the two dates of a range.
static EN_RANGE_GAP: LazyLock<Regex> = LazyLock::new(|| {
    // "Mon 2026-03-09 to Sun 2026-03-15": a weekday before the second date.
    re(
        r"(?i)^\s*(?:-|–|—|~|〜|to|through|thru|until|till|and|up to|up until|up through)\s*(?:(?:mon|tue|tues|wed|thu|thur|thurs|fri|sat|sun)(?:day)?\.?,?\s*)?$",
    )
});
static JA_RANGE_GAP: LazyLock<Regex> = LazyLock::new(|| re(r"^\s*(?:~|〜|～|-|–|から)\s*$"));

/// The conditions the dates of an English clause say, and the spans they took; `field_before`
/// names the column written before an offset. The words that compare come before the date
/// ("before October 31", "between … and …").
pub fn english(clause: &str, field_before: impl Fn(usize) -> Option<String>) -> (Vec<Condition>, Vec<Range<usize>>) {
    let lower = clause.to_ascii_lowercase();
    let range_span = |first: &SaidDate, last: &SaidDate| {
        let before = lower[..first.range.start].trim_end();
        let start = ["between", "from"].iter().find_map(|w| before.strip_suffix(w)).map_or(first.range.start, str::len);
        start..last.range.end
    };
    let single = |date: &SaidDate| {
        let before = lower[..date.range.start].trim_end();
        let said = EN_BEFORE_DATE.iter().find_map(|(words, operator)| {
            let start = before.strip_suffix(words)?.len();
            (start == 0 || before[..start].ends_with([' ', '('])).then_some((*operator, start))
        });
        // (After "dated", the words said before the date end where `before`, trimmed, ends.)
        let (operator, start) = said.or_else(|| before.ends_with("dated").then_some(("eq", before.len())))?;
        // "before the code freeze on 2026-11-16": the day of an event, compared as the words
        // before the event say.
        let event = (operator == "eq").then(|| {
            let words: Vec<&str> = before[..start].split_whitespace().rev().take(5).collect();
            let said = words.iter().position(|w| matches!(*w, "before" | "after" | "since" | "until"))?;
            let operator = match words[said] {
                "before" => "lt",
                "after" => "gt",
                "since" => "gte",
                _ => "lte",
            };
            let at = before[..start].rfind(words[said]).unwrap_or(start);
            Some((operator, at))
        });
        let (operator, start) = event.flatten().unwrap_or((operator, start));
        // "past their due date as of 2026-11-15", "overdue on 2026-11-15": due before that day.
        // (The word that says so is taken with the date: no state of its own.)
        // ("overdue invoices paid on 2026-11-15": the day they were paid, said of other words.)
        let overdue = ["overdue", "past due", "past their due", "past the due", "past its due"]
            .iter()
            .find_map(|w| before[..start].rfind(w).map(|at| (at, at + w.len())))
            .filter(|(_, end)| matches!(before[*end..start].trim(), "" | "date" | "dates"))
            .map(|(at, _)| at)
            .filter(|_| matches!(operator, "gte" | "eq"));
        // (What is before the day is the due date, whichever other dates the rows have.)
        match overdue {
            Some(said) => Some(("lt", said..date.range.end, Some("due date".to_owned()))),
            None => Some((operator, start..date.range.end, None)),
        }
    };
    compared(clause, &EN_RANGE_GAP, range_span, single, field_before)
}

/// The conditions the dates of a Japanese clause say, and the spans they took; `field_before`
/// names the column written before an offset. The words that compare follow the date
/// (「…より前」「…〜…まで」).
pub fn japanese(clause: &str, field_before: impl Fn(usize) -> Option<String>) -> (Vec<Condition>, Vec<Range<usize>>) {
    let range_span = |first: &SaidDate, last: &SaidDate| {
        let end =
            clause[last.range.end..].strip_prefix("まで").map_or(last.range.end, |rest| clause.len() - rest.len());
        first.range.start..end
    };
    let single = |date: &SaidDate| {
        let after = clause[date.range.end..].trim_start();
        let skipped = clause.len() - date.range.end - after.len();
        // 「2026年11月15日時点で支払期限を過ぎている」: the column named after the day is before it.
        if let Some(c) = JA_PAST_AT.captures(after) {
            let end = date.range.end + skipped + c.get(0).map_or(0, |m| m.end());
            return Some(("lt", date.range.start..end, Some(c["column"].to_owned())));
        }
        JA_AFTER_DATE
            .iter()
            .find(|(words, _)| after.starts_with(words))
            .map(|(words, operator)| (*operator, date.range.start..date.range.end + skipped + words.len(), None))
    };
    compared(clause, &JA_RANGE_GAP, range_span, single, field_before)
}

/// The dates of `clause` compared: two joined by `gap` are a range (`range_span` gives the
/// words it takes), one alone is compared by the words `single` finds around it, or names no
/// condition. The column is the one named before the words.
fn compared(
    clause: &str,
    gap: &Regex,
    range_span: impl Fn(&SaidDate, &SaidDate) -> Range<usize>,
    single: impl Fn(&SaidDate) -> Option<(&'static str, Range<usize>, Option<String>)>,
    field_before: impl Fn(usize) -> Option<String>,
) -> (Vec<Condition>, Vec<Range<usize>>) {
    let (mut conditions, mut spans) = (Vec::new(), Vec::new());
    let found = dates(clause);
    let mut i = 0;
    while i < found.len() {
        let date = &found[i];
        // ("i.e. next_due on or before …": a name written as a column's is the whole of it.)
        let written = |f: String| match f.rsplit_once(' ') {
            Some((_, last)) if last.contains('_') => last.to_owned(),
            _ => f,
        };
        // ("invoices that were due before …": how the rows are, no column's name.)
        let said_of_rows =
            |f: &String| matches!(f.split(' ').next(), Some("were" | "was" | "is" | "are" | "be" | "been" | "being"));
        let field = |at: usize| field_before(at).map(written).filter(|f| is_date_name(f) && !said_of_rows(f));
        let next = found.get(i + 1).filter(|next| gap.is_match(&clause[date.range.end..next.range.start]));
        if let Some(next) = next {
            let span = range_span(date, next);
            conditions.push(Condition {
                field: field(span.start),
                operator: "between",
                value: Value::from(date.value.as_str()),
                value2: Some(Value::from(next.value.as_str())),
            });
            spans.push(span);
            i += 2;
            continue;
        }
        match single(date) {
            Some((operator, span, said)) => {
                let value = Value::from(date.value.as_str());
                let field = said.or_else(|| field(span.start));
                conditions.push(Condition { field, operator, value, value2: None });
                spans.push(span);
            }
            None => spans.push(date.range.clone()),
        }
        i += 1;
    }
    (conditions, spans)
}

/// Whether a column's name says it holds dates: "due date", "paid on", 「入金日」, 「日付」.
fn is_date_name(name: &str) -> bool {
    let lower = name.to_ascii_lowercase();
    lower.contains("date")
        || lower.ends_with("day")
        || lower.ends_with(" on")
        // "next_due", "renewal_due", "deadline", "completed_on" (not "amount due", an amount).
        || lower.ends_with("due") && !["amount", "balance", "total", "sum"].iter().any(|w| lower.contains(w))
        || lower.ends_with("deadline")
        || lower.ends_with("_on")
        || lower.ends_with("_at")
        || name.contains('日')
        || name.contains("期限")
}
