//! Months said relative to a day the instruction states: "Today's Oct 14, 2026 … last month's
//! refunds", 「今日 2026/11/05 … 先月分の経費」. The text is read with the month written out
//! ("September 2026", 「2026年10月」); with no day stated, "last month" is left as said (and
//! asked about, never guessed from the clock).

use std::sync::LazyLock;

use regex::Regex;

use super::conditions::month_name;
use super::dates::month_number;

/// "today is Oct 14, 2026", "Today's 2026-10-14", "(today: 14 October 2026)", "(today = 2026-12-07)".
static EN_TODAY: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(
        r"(?i)\btoday(?:'s| is|:|\s*=|\s*\()\s*(?:the\s+)?(?:(?P<m>[a-z]{3,9})\.?\s+(?P<d>\d{1,2})(?:st|nd|rd|th)?,?\s+(?P<y>\d{4})|(?P<d2>\d{1,2})(?:st|nd|rd|th)?\s+(?P<m2>[a-z]{3,9}),?\s+(?P<y2>\d{4})|(?P<y3>\d{4})[-/](?P<m3>\d{1,2})[-/](?P<d3>\d{1,2}))",
    )
    .expect("today")
});
/// 「今日 2026/11/05」「本日は2026年11月5日」「今日は 2026-11-05」「本日（2026年12月3日）」「基準日は2027年2月1日」.
static JA_TODAY: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(r"(?:今日|本日|基準日)(?:は|が|:)?[ \t]*[(（]?[ \t]*(?P<y>\d{4})[ \t]*[/年\-][ \t]*(?P<m>\d{1,2})[ \t]*[/月\-][ \t]*(?P<d>\d{1,2})[ \t]*日?[ \t]*[)）]?")
        .expect("today")
});
/// 「本日（12/10）時点で」: the day said with no year (settled from the data, as a day said so is).
static JA_TODAY_NO_YEAR: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(r"(?:今日|本日|基準日)(?:は|が|:)?[ \t]*[(（]?[ \t]*(?P<m>\d{1,2})[ \t]*[/月][ \t]*(?P<d>\d{1,2})[ \t]*日?[ \t]*[)）]?")
        .expect("today with no year")
});
/// 「期限が今日以降」「本日より前」, once the day is said as 「今日」: the day it is, compared.
static JA_COMPARED_WITH_TODAY: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(r"(?:今日|本日|基準日)(?:当日)?(?P<op>以降|以前|より後|より前|より先|まで)")
        .expect("compared with today")
});
/// "on or after today", "before today", once the day is said as "today".
static EN_COMPARED_WITH_TODAY: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(r"(?i)\b(?P<op>on or after|on or before|after|before|later than|earlier than)\s+today\b")
        .expect("compared with today")
});
static JA_RANGE_FROM_TODAY: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(r"(?:今日|本日|基準日)(?:当日)?(?P<to>[ \t]*(?:〜|～|~|から)[ \t]*\d{4}[/年\-])")
        .expect("a range from today")
});
/// "from today (4 Dec 2026) up to 31 Mar 2027", once the day is said as "today".
static EN_RANGE_FROM_TODAY: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(r"(?i)\b(?P<from>from|between)\s+today\s*\)?(?P<to>,?\s*(?:-|–|to|through|thru|until|till|up to|up until|and)\s)")
        .expect("a range from today")
});
static EN_LAST_MONTH: LazyLock<Regex> =
    LazyLock::new(|| Regex::new(r"(?i)\b(?:last|previous|the previous|the past) month(?:'s)?\b").expect("last month"));
static JA_LAST_MONTH: LazyLock<Regex> = LazyLock::new(|| Regex::new(r"先月|前月").expect("last month"));
static EN_NEXT_MONTH: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(r"(?i)\b(?:next|the next|the coming|the following) month(?:'s)?\b").expect("next month")
});
static JA_NEXT_MONTH: LazyLock<Regex> = LazyLock::new(|| Regex::new(r"来月|翌月").expect("next month"));
static EN_THIS_MONTH: LazyLock<Regex> =
    LazyLock::new(|| Regex::new(r"(?i)\b(?:this|the current) month(?:'s)?\b").expect("this month"));
static JA_THIS_MONTH: LazyLock<Regex> = LazyLock::new(|| Regex::new(r"今月|当月").expect("this month"));
/// The year, month and day the text says it is, if it says one.
fn today(text: &str) -> Option<(i32, u32, u32)> {
    let (year, month, day) = if let Some(c) = EN_TODAY.captures(text) {
        match (c.name("y"), c.name("y2"), c.name("y3")) {
            (Some(y), _, _) => (y.as_str().to_owned(), month_number(&c["m"])?, c["d"].to_owned()),
            (_, Some(y), _) => (y.as_str().to_owned(), month_number(&c["m2"])?, c["d2"].to_owned()),
            (_, _, Some(y)) => (y.as_str().to_owned(), c["m3"].parse().ok()?, c["d3"].to_owned()),
            _ => return None,
        }
    } else {
        let c = JA_TODAY.captures(text)?;
        (c["y"].to_owned(), c["m"].parse().ok()?, c["d"].to_owned())
    };
    let (year, day): (i32, u32) = (year.parse().ok()?, day.parse().ok()?);
    ((1..=12).contains(&month) && (1..=31).contains(&day)).then_some((year, month, day))
}

/// The day the text says it is, as `YYYY-MM-DD` ("today is 2026-12-07", 「本日2026/12/10時点で」):
/// what days are counted to.
pub fn stated_day(text: &str) -> Option<String> {
    today(text).map(|(year, month, day)| format!("{year:04}-{month:02}-{day:02}"))
}

/// Where the text states the day it is ("Today's Oct 14, 2026"): its figures are no amounts.
pub fn stated_today(text: &str) -> Option<std::ops::Range<usize>> {
    EN_TODAY.find(text).or_else(|| JA_TODAY.find(text)).map(|m| m.range())
}

/// `text` with "last month" (「先月」), "this month" and "next month" (「来月」) written as the
/// month they are from the day it states, and the day itself said as "today" (it keeps no rows).
pub fn months_written_out(text: &str) -> String {
    let Some((year, month, day)) = today(text) else { return day_without_its_year_compared(text) };
    let mut text = EN_TODAY.replace_all(text, "today").into_owned();
    text = JA_TODAY.replace_all(&text, "今日").into_owned();
    // 「振替期限が今日以降」, "due on or after today": the day itself compared.
    text = JA_COMPARED_WITH_TODAY.replace_all(&text, format!("{year}年{month}月{day}日$op").as_str()).into_owned();
    text =
        EN_COMPARED_WITH_TODAY.replace_all(&text, format!("$op {year:04}-{month:02}-{day:02}").as_str()).into_owned();
    // 「有効期限が基準日〜2027/3/31」: a range from the day stated, written as that day.
    text = JA_RANGE_FROM_TODAY.replace_all(&text, format!("{year}/{month}/{day}$to").as_str()).into_owned();
    text =
        EN_RANGE_FROM_TODAY.replace_all(&text, format!("$from {year:04}-{month:02}-{day:02}$to").as_str()).into_owned();
    for (english_words, japanese_words, (year, month)) in [
        (&*EN_LAST_MONTH, &*JA_LAST_MONTH, if month == 1 { (year - 1, 12) } else { (year, month - 1) }),
        (&*EN_THIS_MONTH, &*JA_THIS_MONTH, (year, month)),
        (&*EN_NEXT_MONTH, &*JA_NEXT_MONTH, if month == 12 { (year + 1, 1) } else { (year, month + 1) }),
    ] {
        text = outside_file_names(&text, english_words, &format!("{} {year}", month_name(month)));
        text = outside_file_names(&text, japanese_words, &format!("{year}年{month}月"));
    }
    text
}

/// 「本日（12/10）時点で、振替期限が今日以降」: with the day said and no year, the day compared is
/// written as a day of no year (「12月10日以降」), which the data settles; no month is written out.
fn day_without_its_year_compared(text: &str) -> String {
    let Some(c) = JA_TODAY_NO_YEAR.captures(text) else { return text.to_owned() };
    let (Ok(month), Ok(day)) = (c["m"].parse::<u32>(), c["d"].parse::<u32>()) else { return text.to_owned() };
    if !(1..=12).contains(&month) || !(1..=31).contains(&day) || !JA_COMPARED_WITH_TODAY.is_match(text) {
        return text.to_owned();
    }
    let text = JA_TODAY_NO_YEAR.replace_all(text, "今日");
    JA_COMPARED_WITH_TODAY.replace_all(&text, format!("{month}月{day}日$op").as_str()).into_owned()
}

/// `text` with what `pattern` finds written as `with`, except in a file's name: 「→ 先月出金.csv」
/// is the name to write, not a month.
fn outside_file_names(text: &str, pattern: &Regex, with: &str) -> String {
    let files: Vec<std::ops::Range<usize>> =
        super::slots::file_names(text).into_iter().map(|f| f.at..f.at + f.name.len()).collect();
    pattern
        .replace_all(text, |c: &regex::Captures| {
            let at = c.get(0).map_or(0, |m| m.start());
            if files.iter().any(|f| f.contains(&at)) {
                c[0].to_owned()
            } else {
                with.to_owned()
            }
        })
        .into_owned()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn last_month_is_the_month_before_the_day_the_text_states() {
        assert_eq!(
            months_written_out("Today's Oct 14, 2026. Pull last month's refunds"),
            "today. Pull September 2026 refunds"
        );
        assert_eq!(
            months_written_out("今日 2026/11/05 なんだけど、先月分の経費"),
            "今日なんだけど、2026年10月分の経費"
        );
        assert_eq!(months_written_out("today is 2027-01-03; last month"), "today; December 2026");
        assert_eq!(months_written_out("today is 2026-12-14; ends next month"), "today; ends January 2027");
        assert_eq!(months_written_out("今日は2026/11/05。今月と来月"), "今日。2026年11月と2026年12月");
        assert_eq!(months_written_out("本日（2026年12月3日）時点で、先月分"), "今日時点で、2026年11月分");
        assert_eq!(
            months_written_out("今日は2026年4月10日です。先月分の出金だけ → 先月出金.csv"),
            "今日です。2026年3月分の出金だけ → 先月出金.csv",
            "a file's name is kept as written"
        );
        assert_eq!(months_written_out("Pull last month's refunds"), "Pull last month's refunds", "no day stated");
        assert_eq!(
            months_written_out("・基準日 2027/2/15\n・状態「有効」のみ"),
            "・今日\n・状態「有効」のみ",
            "the line ends where it did"
        );
        assert_eq!(
            months_written_out("the ones that expire from today (4 Dec 2026) up to 31 Mar 2027, both included"),
            "the ones that expire from 2026-12-04 up to 31 Mar 2027, both included"
        );
        assert_eq!(
            months_written_out("本日（2026/12/10）時点で、振替期限が今日以降のもの"),
            "今日時点で、振替期限が2026年12月10日以降のもの"
        );
        assert_eq!(
            months_written_out("本日（12/10）時点で、振替期限が今日以降のもの"),
            "今日時点で、振替期限が12月10日以降のもの",
            "a day of no year, settled from the data"
        );
        assert_eq!(
            months_written_out("本日（12/10）時点の一覧"),
            "本日（12/10）時点の一覧",
            "nothing compared with it"
        );
        assert_eq!(
            months_written_out("Today is 2026-12-07. Permits that expire on or after today"),
            "today. Permits that expire on or after 2026-12-07"
        );
        assert_eq!(
            months_written_out("基準日 2027/2/15。有効期限が基準日〜2027/3/31のもの"),
            "今日。有効期限が2027/2/15〜2027/3/31のもの"
        );
    }
}
