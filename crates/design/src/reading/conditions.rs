//! Conditions and aggregations as people write them: "approved rows of 100 or more", "whose
//! status is paid", 「金額が10万円以上」, 「取引先ごとに合計」.

use std::sync::LazyLock;

use regex::Regex;
use serde_json::{json, Value};

use super::dates::{self, month_number};
use super::slots::{self, english_field_before, english_phrase_after, japanese_noun_before, number_value};
use super::words::{JA_ROW_NOUNS, TIME_UNITS};
use super::{Aggregation, Condition, Language};

fn re(pattern: &str) -> Regex {
    Regex::new(pattern).expect("condition pattern")
}

/// Operator words right before a number, longest first.
const EN_BEFORE: &[(&str, &str)] = &[
    ("not less than", "gte"),
    ("no less than", "gte"),
    ("not more than", "lte"),
    ("no more than", "lte"),
    ("does not exceed", "lte"),
    ("greater than or equal to", "gte"),
    ("less than or equal to", "lte"),
    ("at least", "gte"),
    ("minimum of", "gte"),
    ("at most", "lte"),
    ("up to", "lte"),
    ("maximum of", "lte"),
    ("more than", "gt"),
    ("greater than", "gt"),
    ("higher than", "gt"),
    ("larger than", "gt"),
    ("bigger than", "gt"),
    ("exceeding", "gt"),
    ("exceeds", "gt"),
    ("exceed", "gt"),
    ("over", "gt"),
    ("above", "gt"),
    ("less than", "lt"),
    ("lower than", "lt"),
    ("smaller than", "lt"),
    ("fewer than", "lt"),
    ("under", "lt"),
    ("below", "lt"),
    ("equal to", "eq"),
    ("equals", "eq"),
    (">=", "gte"),
    ("<=", "lte"),
    ("=>", "gte"),
    ("=<", "lte"),
    ("!=", "ne"),
    (">", "gt"),
    ("<", "lt"),
    ("=", "eq"),
];
/// Operator words right after a number.
static EN_AFTER: LazyLock<Regex> = LazyLock::new(|| {
    re(
        r"^\s*(?:yen|円|dollars?|usd|eur|euros?|jpy|days?|%)?\s*(or more|or above|or greater|or higher|or over|and above|and over|and up|or less|or below|or fewer|or lower|or under|and below|and under|\+)",
    )
});
static EN_BETWEEN: LazyLock<Regex> = LazyLock::new(|| re(r"(?i)\bbetween\s+\S+\s+and\s+\S+"));
static EN_IS: LazyLock<Regex> = LazyLock::new(|| {
    re(
        r#"(?i)\b(?P<kw>where|whose|with|if|when|and)\s+(?:the\s+)?(?:(?:latest|last|current|most recent|newest)\s+)?(?P<field>[\p{L}_][\w ]{0,30}?)\s+(?P<op>is not|isn't|is|=|==|equals|is equal to|!=|<>)\s+(?:(?:exactly|precisely|literally|strictly|just|still|set to|marked as|marked)\s+|(?P<article>(?-i:a|an))\s+)?(?P<value>"[^"]+"|'[^']+'|\d[\d,]*(?:\.\d+)?|[\w-]+)"#,
    )
});
/// "…csv, Department = Engineering, and …": a condition written as a formula, with no word
/// before it — only the signs, which no sentence uses otherwise.
static EN_EQUALS: LazyLock<Regex> = LazyLock::new(|| {
    re(
        r#"(?:^|[,;(:])\s*(?P<field>[\p{L}_][\w ]{0,30}?)\s*(?P<op>==|=|!=|<>)\s*(?P<value>"[^"]+"|'[^']+'|\d[\d,]*(?:\.\d+)?|[\w-]+)"#,
    )
});
static EN_STATUS: LazyLock<Regex> = LazyLock::new(|| {
    re(
        r"(?i)\b(approved|unapproved|unpaid|paid|pending|rejected|overdue|cancell?ed|completed|failed|outstanding|draft|submitted|settled|unsettled|open|closed|skipped|passed|void|voided|resolved|reopened|shipped|delivered|archived|expired|disputed|blocked|done|finished|confirmed|unconfirmed|waitlisted|accepted|declined|refunded|returned|active|inactive|verified|unverified|waived|suspended|terminated|enrolled|attended|withdrawn)\b",
    )
});
/// Whether a word is a state rows are in ("approved", "paid"), as the conditions read one.
pub(super) fn is_state_word(word: &str) -> bool {
    EN_STATUS.find(word).is_some_and(|m| m.range() == (0..word.len()))
}
/// Words that make states said together alternatives: "both do", "either", "or".
static EN_ALTERNATIVES: LazyLock<Regex> = LazyLock::new(|| re(r"(?i)\b(?:both|either|or)\b"));
/// The words before a state that say it of the rows: "that have been", "which were", "that are".
static EN_RELATIVE_STATE: LazyLock<Regex> = LazyLock::new(|| {
    re(r"\b(?:that|which)\s+(?:(?:have|has|had)\s+(?:already\s+)?been|are|is|were|was)(?:\s+already)?$")
});
static EN_CONTAINS: LazyLock<Regex> = LazyLock::new(|| {
    re(
        r#"(?i)\b(?:contains?|containing|includes?|including|mentions?|mentioning)\s+(?:the\s+(?:word|text)\s+|an?\s+|the\s+)?(?P<value>"[^"]+"|'[^']+'|[\w-]+)"#,
    )
});

/// "the assets with Status Disposed", "lines with approval Rejected", "the rows with ship_state
/// TX": a state column (or a column named as code names it) and its value, written as a cell
/// would be.
static EN_WITH_STATE: LazyLock<Regex> = LazyLock::new(|| {
    re(
        r#"(?i:\bwith (?:a |the |an )?)(?P<field>(?i:[a-z_]*(?:status|state|approval|result|priority|stage|type|category))|[a-z][a-z0-9]*_[a-z0-9_]+)\s+(?:of\s+)?["'“]?(?P<value>[A-Z][\w-]*)["'”]?"#,
    )
});

/// Rows named by a column and a value with a digit in it: "the runs from build 4812", "lines of
/// batch B-77", "orders for store 12", "tests failed in run R2".
static EN_FROM_NAMED: LazyLock<Regex> = LazyLock::new(|| {
    re(
        r"(?i)\b(?:runs|rows|lines|entries|records|tests|orders|items|ones|transactions|results)(?: [a-z]+ed)? (?:from|of|in|for) (?:the )?(?P<field>[a-z][a-z_]{1,20}) (?P<value>[a-z]{0,3}-?\d[\w-]*)\b",
    )
});

/// "shipping to CA", "based in Germany", "assigned to Maria": a value written as a cell would
/// be (a code in capitals, or a name), after a word that says where the rows go or are.
static EN_PLACED: LazyLock<Regex> = LazyLock::new(|| {
    re(
        r"\b(?:shipping|shipped|ships|going|sent|delivered|located|based|living|assigned|registered|headquartered) (?:to|in|at|from) (?:the )?(?P<value>[A-Z][A-Za-z0-9-]*(?: [A-Z][A-Za-z0-9-]*)?)\b",
    )
});

/// "spent on Office Supplies only", "for Tokyo only": a value written as a cell would be (a name),
/// kept alone.
static EN_VALUE_ONLY: LazyLock<Regex> = LazyLock::new(|| {
    re(r"\b(?:on|for|in|of|at|with|to|from)\s+(?:the\s+)?(?P<value>[A-Z][\w&-]*(?:\s+[A-Z][\w&-]*){0,3})\s+only\b")
});

/// A measure named after its number: "more than 30 *days overdue*", "over 5 *years old*", "more
/// than 10 *OT hours*". The words name the column (`days_overdue`, `years_old`, `ot_hours`); a
/// unit alone ("over 30 days") does too when nothing before the number names one.
static EN_UNIT_AFTER: LazyLock<Regex> = LazyLock::new(|| {
    re(
        r"(?i)^\s*(?:(?P<kind>[a-z]+)\s+)??(?P<unit>days?|weeks?|months?|years?|hours?|hrs|minutes?|units?|items?|pieces?|pcs)\b(?:\s+(?P<state>overdue|late|old|past due|outstanding|in arrears|delinquent|open|unpaid|in stock|on hand|worked|of service))?",
    )
});
/// Words before a unit that say how it is counted, not what: "30 calendar days".
const UNIT_COUNTED_AS: &[&str] =
    &["calendar", "business", "working", "full", "whole", "straight", "consecutive", "more", "the", "and", "or", "of"];
/// The operator of a condition that a value is over another column ("over budget",
/// 「予算をオーバー」), said with no number. It is never written into a plan: the reader turns it
/// into a condition on a difference the instruction computes, or drops it and the filter is asked.
pub const OVER_COLUMN: &str = "over_column";
static EN_OVER_COLUMN: LazyLock<Regex> = LazyLock::new(|| {
    re(
        r"(?i)\b(?:over|above|exceed(?:s|ing|ed)?|more than|greater than|higher than|in excess of)\s+(?:the\s+|their\s+|its\s+)?(?P<x>[a-z_]+)\b",
    )
});
/// "more than 250.00 above the quote", "by more than $50 over budget": over another column by
/// more than a number (not a percentage, which is of the column).
static EN_OVER_COLUMN_BY: LazyLock<Regex> = LazyLock::new(|| {
    re(
        r"\b(?:by\s+)?(?:more than|over)\s+(?:[$€£¥]\s*)?(?P<n>\d[\d,]*(?:\.\d+)?)(?:\s*(?:dollars|yen|euros?|usd|jpy|eur))?\s+(?:above|over|higher than|more than|greater than|beyond)\s+(?:the\s+|their\s+|its\s+)?(?P<x>[a-z_]+)\b",
    )
});
static JA_OVER_COLUMN: LazyLock<Regex> = LazyLock::new(|| {
    re(r"(?P<x>[^\s、。をがはのにで「」\d０-９円件日%万千]{1,12}?)(?:を|より)?(?:オーバー|超過|超え|上回|越え)")
});

/// The operator of a condition that a value lies outside a range, both ends inside it ("outside
/// 2.0-8.0 °C", 「2.0〜8.0℃の範囲外」). It is never written into a plan: the reader makes it a
/// filter of its own that leaves the range's rows out ([`super::passes::outside_ranges_apart`]).
pub const OUTSIDE: &str = "outside";
static EN_OUTSIDE: LazyLock<Regex> = LazyLock::new(|| {
    re(
        r"(?i)\b(?:outside(?:\s+of)?|out\s+of|not\s+between|not\s+within|falls?\s+outside(?:\s+of)?)\s+(?:the\s+)?(?:(?:allowed|permitted|acceptable|normal|target)\s+)?(?:range\s+(?:of\s+)?)?(?:[$€£¥]\s*)?(?P<a>-?\d+(?:\.\d+)?)\s*(?:°\s*[cf]\b|%|[a-z]{1,3}\b)?\s*(?:-|–|~|to|and|through)\s*(?:[$€£¥]\s*)?(?P<b>-?\d+(?:\.\d+)?)",
    )
});
static JA_OUTSIDE: LazyLock<Regex> = LazyLock::new(|| {
    re(
        r"(?P<a>-?\d+(?:\.\d+)?)\s*(?:℃|°\s*[CF]|度|%|％|mm|円|個|kg)?\s*(?:〜|～|~|-|－|から)\s*(?P<b>-?\d+(?:\.\d+)?)\s*(?:℃|°\s*[CF]|度|%|％|mm|円|個|kg)?\s*(?:の)?(?:範囲外|範囲の外|範囲を外れ|範囲から外れ|範囲を逸脱|から外れ|を外れ|を逸脱)",
    )
});

/// "either way", "in either direction", "ignoring the sign": a limit on both sides of zero.
static EN_EITHER_WAY: LazyLock<Regex> = LazyLock::new(|| {
    re(
        r"\b(?:either way|in either direction|either direction|up or down|over or under|above or below|plus or minus|in absolute (?:value|terms)|ignoring the sign|whatever the sign|either sign)\b",
    )
});

/// "temperature outside 2.0-8.0 °C", 「温度が2〜8℃の範囲外」: the column and the range it leaves.
fn outside_a_range(clause: &str, language: Language) -> Option<(Condition, std::ops::Range<usize>)> {
    let c = match language {
        Language::En => EN_OUTSIDE.captures(clause),
        Language::Ja => JA_OUTSIDE.captures(clause),
    }?;
    let whole = c.get(0).expect("match");
    let (a, b): (f64, f64) = (c["a"].parse().ok()?, c["b"].parse().ok()?);
    let field = match language {
        Language::En => english_field_before(clause, whole.start()),
        Language::Ja => ja_field_before(clause, whole.start()),
    };
    let (low, high) = if a <= b { (a, b) } else { (b, a) };
    let condition = Condition { field, operator: OUTSIDE, value: number_value(low), value2: Some(number_value(high)) };
    Some((condition, whole.range()))
}

/// "(account_status Enabled)", "(status = Open)": a column named as a file writes it (one word, with
/// an underscore) and a capitalised value, alone in brackets.
static EN_COLUMN_AND_VALUE_IN_BRACKETS: LazyLock<Regex> = LazyLock::new(|| {
    re(
        r"\(\s*(?P<field>[a-z][a-z0-9]*_[a-z0-9_]+)\s*(?:=|:|is)?\s*(?P<value>[A-Z][A-Za-z0-9-]*)\s*\)|\(\s*(?P<field2>[A-Za-z][A-Za-z0-9_]*(?: [A-Za-z][A-Za-z0-9_]*)?)\s*=\s*(?P<value2>[A-Z][A-Za-z0-9-]*)\s*\)",
    )
});

/// "only status Occupied", "just priority P1": a column that names a kind of thing, then one of
/// its values as a cell writes it.
static EN_KIND_AND_VALUE: LazyLock<Regex> = LazyLock::new(|| {
    re(
        r"\b(?:[Oo]nly|[Jj]ust)\s+(?:the\s+)?(?P<field>status|state|stage|type|category|priority|tier|grade|level|region)\s+(?:is\s+|=\s*)?(?P<value>[A-Z][A-Za-z0-9-]*)\b",
    )
});

/// "not dated in", "not from", "aren't within": a period said of the rows it does not hold.
static EN_NOT_OF_THE_PERIOD: LazyLock<Regex> = LazyLock::new(|| {
    re(
        r"\b(?:not|n't)\s+(?:(?:dated|made|placed|raised|issued|booked|received|sent|paid|created|logged|filed)\s+)?(?:in|from|within|during|between)\s+(?:the\s+)?(?:(?:month|period|year|quarter|week)\s+(?:of\s+)?)?(?:[a-z]+\s+)?\d{1,4}\b",
    )
});

/// A month said without its year (「4月分」, "for April"); `value` is its number. The designer
/// writes it as a range of dates in `${vars.year}`, which the data settles or the person answers.
pub const MONTH_OF_UNSAID_YEAR: &str = "month_of_unsaid_year";
/// "for April", "in March", "April's", "the October payouts": a month's name, capitalised (so
/// "may" is no month).
static EN_MONTH_ALONE: LazyLock<Regex> = LazyLock::new(|| {
    re(
        r"\b(?:in|for|during|of|from|In|For|During)\s+(?:the\s+month\s+of\s+)?(?P<m>January|February|March|April|May|June|July|August|September|October|November|December|Jan|Feb|Mar|Apr|Jun|Jul|Aug|Sept?|Oct|Nov|Dec)\b|\b(?P<m2>January|February|March|April|June|July|August|September|October|November|December)'s\b|\b(?:the|which|all|any|every|only)\s+(?P<m3>January|February|March|April|June|July|August|September|October|November|December)\s+[a-z]",
    )
});
/// "October and November", "October, November and December", "from October to December":
/// months said together, without a year.
static EN_MONTHS_TOGETHER: LazyLock<Regex> = LazyLock::new(|| {
    re(
        r"\b(?P<a>January|February|March|April|May|June|July|August|September|October|November|December)(?:,\s*(?:January|February|March|April|May|June|July|August|September|October|November|December))*,?\s+(?P<sep>and|or|to|through|thru|-|–)\s+(?P<b>January|February|March|April|May|June|July|August|September|October|November|December)\b",
    )
});
/// 「4月分」「4月の」: a month not after a year (「2026年4月」) or a day (「3/1」).
static JA_MONTH_ALONE: LazyLock<Regex> =
    LazyLock::new(|| re(r"(?:^|[^\d０-９年/／.\-])(?P<m>1[0-2]|[1-9])\s*月(?:分|中|の|に|だけ|のみ)"));
/// The last of months said together (`listed`, in the order said; none or one: a month alone)
/// as a condition's `value2`, when they run on — each the month after the one before
/// (「10月・11月・12月」), or a range forwards ("October to December") — else `None`: months apart
/// (「4月・6月」) are no one range, and nothing is kept by them (asked).
fn months_run_on(listed: &[u32], range: bool) -> Option<Option<Value>> {
    match listed {
        [first, .., last] => {
            let one_after_another = listed.windows(2).all(|w| w[1] == w[0] + 1);
            ((range || one_after_another) && last > first).then(|| Some(Value::from(*last)))
        }
        _ => Some(None),
    }
}

/// What follows a month said of people (its digits, or its 月): 「月の転勤者」「月入社の社員」.
pub(crate) static JA_OF_PEOPLE: LazyLock<Regex> =
    LazyLock::new(|| re(r"^(?:\s*月)?\s*(?:の)?[\p{Han}\p{Katakana}ー]{0,4}(?:者|社員|職員|入社|採用|着任|転勤)"));
/// 「7/1〜9/30」「7月1日から9月30日まで」: days with no year before them (not 「2026/7/1〜」).
static JA_DAYS_WITHOUT_YEAR: LazyLock<Regex> = LazyLock::new(|| {
    re(
        r"(?:^|[^\d０-９年/／.\-])(?P<m1>1[0-2]|[1-9])\s*(?:/|／|月)\s*(?P<d1>[0-3]?\d)\s*日?\s*(?:〜|~|～|から|-|－)\s*(?P<m2>1[0-2]|[1-9])\s*(?:/|／|月)\s*(?P<d2>[0-3]?\d)(?:\s*日)?(?:[^\d/／]|$)",
    )
});

/// The span, first and last month of a day range without its year that covers whole months
/// (from a first day to a last: 「7/1〜9/30」, February ending on the 28th or 29th); `None` for
/// any other range, whose year a month cannot settle.
fn japanese_whole_months_of_days(clause: &str) -> Option<(std::ops::Range<usize>, u32, u32)> {
    let c = JA_DAYS_WITHOUT_YEAR.captures(clause)?;
    let number = |g: &str| c[g].parse::<u32>().ok();
    let (m1, d1, m2, d2) = (number("m1")?, number("d1")?, number("m2")?, number("d2")?);
    (d1 == 1 && super::dates::ends_a_month(m2, d2) && m2 >= m1)
        .then(|| (c.name("m1").expect("m1").start()..c.name("d2").expect("d2").end(), m1, m2))
}

/// A month's number with its 月, in a list of months.
static MONTH_NUMBER: LazyLock<Regex> = LazyLock::new(|| re(r"(?:1[0-2]|[1-9])\s*月"));
/// 「10月・11月」「10月〜11月」「10月・11月・12月」: months said together, without their year.
static JA_MONTHS_TOGETHER: LazyLock<Regex> = LazyLock::new(|| {
    re(
        r"(?:^|[^\d０-９年/／.\-])(?P<a>1[0-2]|[1-9])\s*月(?:\s*(?:・|、|と)\s*(?:1[0-2]|[1-9])\s*月)*\s*(?P<sep>・|、|と|〜|~|～|から|-|－|―)\s*(?P<b>1[0-2]|[1-9])\s*月",
    )
});

/// A number of times: "more than 1 time", "3 times".
static EN_TIMES: LazyLock<Regex> = LazyLock::new(|| re(r"^\s*times?\b"));
/// "in March 2026", "for Apr 2026".
static EN_MONTH: LazyLock<Regex> = LazyLock::new(|| {
    re(
        r"(?i)\b(?P<m>january|february|march|april|may|june|july|august|september|october|november|december|jan|feb|mar|apr|jun|jul|aug|sept|sep|oct|nov|dec)\.?,?\s+(?P<y>\d{4})\b|\b(?P<y2>\d{4})-(?P<m2>\d{1,2})\b(?:-\d)?",
    )
});
/// 「2026年7月〜9月」「2026年7月から2026年9月まで」: the months from the first to the last.
static JA_MONTH_RANGE: LazyLock<Regex> = LazyLock::new(|| {
    re(
        r"(?P<y>\d{4})\s*年\s*(?P<m>\d{1,2})\s*月\s*(?:~|〜|～|-|から)\s*(?:(?P<y2>\d{4})\s*年\s*)?(?P<m2>\d{1,2})\s*月(?:まで)?",
    )
});
/// 「2026年10月と11月」「2026年10月・11月・12月」「2026年12月と2027年1月」: months listed, their year
/// said before the first.
static JA_MONTHS_LISTED: LazyLock<Regex> = LazyLock::new(|| {
    re(
        r"\d{4}\s*年\s*(?:1[0-2]|0?[1-9])\s*月(?:\s*(?:・|、|と|および|及び|,)\s*(?:\d{4}\s*年\s*)?(?:1[0-2]|0?[1-9])\s*月)+",
    )
});
/// A month in a list, with its year when one is said before it.
static JA_MONTH_OF_LIST: LazyLock<Regex> = LazyLock::new(|| re(r"(?:(?P<y>\d{4})\s*年\s*)?(?P<m>1[0-2]|0?[1-9])\s*月"));
/// "dated in 2026", "calendar year 2026": a year said alone (not "FY2026", whose first month
/// is the company's, nor "2026-03" or "2026 Q3").
static EN_YEAR_ALONE: LazyLock<Regex> = LazyLock::new(|| {
    re(
        r"(?i)\b(?:(?:in|during|within|throughout)\s+(?:the\s+)?(?:calendar\s+)?(?:year\s+)?|calendar\s+(?:year\s+)?)(?P<y>(?:19|20)\d{2})\b(?P<after>\s*(?:[-/]\s*\d|q[1-4]|h[12]|fy))?",
    )
});
/// 「2026年中」「2026年に支払った」: a year said alone, of when the rows happened (not 「2026年度」,
/// a fiscal year, nor 「2027年分の申告書」, the year a document is for).
static JA_YEAR_ALONE: LazyLock<Regex> = LazyLock::new(|| {
    re(
        r"(?P<y>\d{4})\s*年\s*(?:中|内|の間|の1年間|に(?:支払|支給|発生|計上|購入|受|出|入|売|発注|請求|申請|実施|作成|登録|更新|契約))",
    )
});

/// A year said alone, as the days from its first to its last, and where.
fn year_alone(clause: &str, language: Language) -> Option<(Value, Value, std::ops::Range<usize>)> {
    let c = match language {
        Language::En => EN_YEAR_ALONE.captures_iter(clause).find(|c| c.name("after").is_none())?,
        Language::Ja => JA_YEAR_ALONE.captures(clause)?,
    };
    let (first, _) = month_range(&c["y"], 1)?;
    let (_, last) = month_range(&c["y"], 12)?;
    Some((first, last, c.get(0)?.range()))
}

/// "July to September 2026", "from July through September 2026".
static EN_MONTH_RANGE: LazyLock<Regex> = LazyLock::new(|| {
    re(
        r"(?i)\b(?P<m>january|february|march|april|may|june|july|august|september|october|november|december|jan|feb|mar|apr|jun|jul|aug|sept|sep|oct|nov|dec)\.?(?:\s+(?P<y>\d{4}))?\s*(?:-|–|to|through|thru|until|till)\s*(?P<m2>january|february|march|april|may|june|july|august|september|october|november|december|jan|feb|mar|apr|jun|jul|aug|sept|sep|oct|nov|dec)\.?,?\s+(?P<y2>\d{4})\b",
    )
});

/// "Q3 2026", "2026 Q3", "the third quarter of 2026": a calendar quarter. A fiscal one ("FY26
/// Q3", "fiscal Q3 2026") starts in a month the words do not say, so it is not read.
static EN_QUARTER: LazyLock<Regex> = LazyLock::new(|| {
    re(
        r"(?i)\b(?:q(?P<q>[1-4])|(?P<qw>first|second|third|fourth|1st|2nd|3rd|4th)\s+quarter)\s*(?:of\s+|,\s*)?(?P<y>(?:19|20|21)\d\d)\b|\b(?P<y2>(?:19|20|21)\d\d)\s*[-/ ]?\s*q(?P<q2>[1-4])\b",
    )
});
/// 「2026年の第3四半期」「2026年第3四半期」: a calendar quarter (「2026年度第3四半期」, a fiscal
/// one, does not match: its first month is the company's).
static JA_QUARTER: LazyLock<Regex> = LazyLock::new(|| re(r"(?P<y>\d{4})\s*年\s*の?\s*第\s*(?P<q>[1-4１-４])\s*四半期"));

/// A calendar quarter the clause says, as its first and last month, and where.
fn quarter_said(clause: &str, language: Language) -> Option<(String, u32, u32, std::ops::Range<usize>)> {
    let (c, quarter) = match language {
        Language::En => {
            let c = EN_QUARTER.captures(clause)?;
            let before = clause[..c.get(0)?.start()].to_ascii_lowercase();
            if before.trim_end().ends_with("fiscal") || before.trim_end().ends_with("fy") {
                return None;
            }
            let quarter = match (c.name("q").or(c.name("q2")), c.name("qw")) {
                (Some(q), _) => q.as_str().parse().ok()?,
                (None, Some(w)) => match w.as_str().to_ascii_lowercase().as_str() {
                    "first" | "1st" => 1,
                    "second" | "2nd" => 2,
                    "third" | "3rd" => 3,
                    _ => 4,
                },
                (None, None) => return None,
            };
            (c, quarter)
        }
        Language::Ja => {
            let c = JA_QUARTER.captures(clause)?;
            let quarter = u32::try_from(super::number(&c["q"])?).ok()?;
            (c, quarter)
        }
    };
    let year = c.name("y").or(c.name("y2"))?.as_str().to_owned();
    Some((year, quarter * 3 - 2, quarter * 3, c.get(0)?.range()))
}

/// The months of a range said as two months: from the first day of the first to the last day
/// of the last, when they are in order.
fn month_span(y: &str, m: u32, y2: &str, m2: u32) -> Option<(Value, Value)> {
    let (first, _) = month_range(y, m)?;
    let (_, last) = month_range(y2, m2)?;
    (first.as_str() < last.as_str()).then_some((first, last))
}

/// Months listed with their year ("October and November 2026", 「2026年10月と11月」): the months
/// from the first to the last when each is the month after the one before, and where the list
/// stands; months apart (「10月と12月」) are no one range, so the list keeps nothing (asked) rather
/// than the one month a reading of its year would keep.
fn months_listed(clause: &str, language: Language) -> Option<(Option<Condition>, std::ops::Range<usize>)> {
    let (whole, months): (_, Vec<(i32, u32)>) = match language {
        Language::En => {
            let t = EN_MONTHS_TOGETHER.captures(clause)?;
            let whole = t.get(0)?;
            let after = &clause[whole.end()..];
            let year_text = after.trim_start_matches(['.', ',', ' ']);
            let digits = year_text.chars().take_while(char::is_ascii_digit).count();
            if digits != 4 || matches!(&t["sep"], "to" | "through" | "thru" | "-" | "–") {
                return None;
            }
            let year: i32 = year_text[..4].parse().ok()?;
            let months = whole.as_str().split(|c: char| !c.is_ascii_alphabetic()).filter_map(month_number);
            let end = whole.end() + (after.len() - year_text.len()) + 4;
            (whole.start()..end, months.map(|m| (year, m)).collect())
        }
        Language::Ja => {
            let whole = JA_MONTHS_LISTED.find(clause)?;
            let mut year = 0;
            let mut months = Vec::new();
            for c in JA_MONTH_OF_LIST.captures_iter(whole.as_str()) {
                if let Some(y) = c.name("y") {
                    year = y.as_str().parse().ok()?;
                }
                months.push((year, c["m"].parse().ok()?));
            }
            (whole.range(), months)
        }
    };
    let index = |(y, m): (i32, u32)| y * 12 + m as i32;
    let run_on = months.windows(2).all(|w| index(w[1]) == index(w[0]) + 1);
    let (&(y, m), &(y2, m2)) = (months.first()?, months.last()?);
    let condition =
        run_on.then(|| month_span(&y.to_string(), m, &y2.to_string(), m2)).flatten().map(|(from, to)| Condition {
            field: date_field_before(clause, whole.start, language),
            operator: "between",
            value: from,
            value2: Some(to),
        });
    Some((condition, whole))
}

/// A range of months the clause says, as a condition on a date column (none for months listed
/// apart), and where.
fn month_range_said(clause: &str, language: Language) -> Option<(Option<Condition>, std::ops::Range<usize>)> {
    if let Some((year, first, last, range)) = quarter_said(clause, language) {
        let (from, to) = month_span(&year, first, &year, last)?;
        let field = date_field_before(clause, range.start, language);
        return Some((Some(Condition { field, operator: "between", value: from, value2: Some(to) }), range));
    }
    if let Some(listed) = months_listed(clause, language) {
        return Some(listed);
    }
    let range = match language {
        Language::En => EN_MONTH_RANGE.captures(clause),
        Language::Ja => JA_MONTH_RANGE.captures(clause),
    };
    if range.is_none() {
        let (from, to, range) = year_alone(clause, language)?;
        let field = date_field_before(clause, range.start, language);
        return Some((Some(Condition { field, operator: "between", value: from, value2: Some(to) }), range));
    }
    let (c, months) = match language {
        Language::En => {
            let c = EN_MONTH_RANGE.captures(clause)?;
            let months = (month_number(&c["m"])?, month_number(&c["m2"])?);
            (c, months)
        }
        Language::Ja => {
            let c = JA_MONTH_RANGE.captures(clause)?;
            let months = (c["m"].parse().ok()?, c["m2"].parse().ok()?);
            (c, months)
        }
    };
    let whole = c.get(0)?;
    let y2 = c.name("y2").map(|y| y.as_str());
    let y = c.name("y").map(|y| y.as_str());
    let (first, last) = month_span(y.or(y2)?, months.0, y2.or(y)?, months.1)?;
    let field = date_field_before(clause, whole.start(), language);
    Some((Some(Condition { field, operator: "between", value: first, value2: Some(last) }), whole.range()))
}

/// The date column named just before `at` ("Submitted date", 「発注日」), if the words there name one.
fn date_field_before(clause: &str, at: usize, language: Language) -> Option<String> {
    match language {
        Language::En => english_field_before(clause, at),
        Language::Ja => ja_field_before(clause, at),
    }
    .filter(|f| f.to_ascii_lowercase().contains("date") || f.contains('日'))
}

/// 「2026年3月」「2026/3」.
static JA_MONTH: LazyLock<Regex> =
    LazyLock::new(|| re(r"(?P<y>\d{4})\s*[年/／]\s*(?P<m>\d{1,2})\s*月?(?:分|中|の間)?"));

/// The first and last day of a month written out: a `between` on dates.
fn month_range(year: &str, month: u32) -> Option<(Value, Value)> {
    let year: i32 = year.parse().ok()?;
    if !(1900..=2200).contains(&year) {
        return None;
    }
    let last = dates::last_day(year, month)?;
    Some((Value::from(format!("{year:04}-{month:02}-01")), Value::from(format!("{year:04}-{month:02}-{last:02}"))))
}

/// A month's English name: 4 → "April".
pub fn month_name(month: u32) -> &'static str {
    const NAMES: [&str; 12] = [
        "January",
        "February",
        "March",
        "April",
        "May",
        "June",
        "July",
        "August",
        "September",
        "October",
        "November",
        "December",
    ];
    NAMES.get(month.wrapping_sub(1) as usize).copied().unwrap_or_default()
}

/// A month the clause names, as a condition on a date column ("dated in March 2026").
fn english_month(clause: &str) -> Option<(Condition, std::ops::Range<usize>)> {
    let c = EN_MONTH.captures(clause)?;
    let whole = c.get(0)?;
    let (year, month) = match (c.name("m"), c.name("y"), c.name("y2"), c.name("m2")) {
        (Some(m), Some(y), _, _) => (y.as_str(), month_number(m.as_str())?),
        (_, _, Some(y), Some(m)) if !whole.as_str().ends_with(|c: char| c.is_ascii_digit()) || whole.len() <= 7 => {
            (y.as_str(), m.as_str().parse().ok()?)
        }
        _ => return None,
    };
    let (first, last) = month_range(year, month)?;
    let before = clause[..whole.start()].trim_end().to_ascii_lowercase();
    // "(e.g. 2026-01)" shows a form; it keeps no month.
    if ["e.g.", "e.g", "eg", "like", "such as", "for example", "(", "as in"].iter().any(|w| before.ends_with(w)) {
        return None;
    }
    // "(we're in November 2026 now, so October 2026)": the month it is now, which keeps no rows.
    let now = ["we're in", "we are in", "it's", "it is", "today is", "currently", "as of", "it's now", "now in"];
    if now.iter().any(|w| before.ends_with(w)) {
        return None;
    }
    let before = ["in", "during", "for", "of", "from", "on"].iter().fold(before.as_str(), |b, w| {
        b.strip_suffix(w).filter(|rest| rest.is_empty() || rest.ends_with(' ')).map_or(b, str::trim_end)
    });
    let field = if before.ends_with("dated") {
        Some("date".to_owned())
    } else {
        english_field_before(clause, before.len()).filter(|f| f.to_ascii_lowercase().contains("date"))
    };
    Some((Condition { field, operator: "between", value: first, value2: Some(last) }, whole.range()))
}

/// The conditions a clause says on dates, between two columns and over a range of months, and
/// the spans they take: the clause's other readings leave those words alone.
fn spanned(clause: &str, language: Language) -> (Vec<Condition>, Vec<std::ops::Range<usize>>) {
    let (mut conditions, mut spans) = match language {
        Language::En => dates::english(clause, |end| english_field_before(clause, end)),
        Language::Ja => dates::japanese(clause, |end| ja_field_before(clause, end)),
    };
    let compared = compared_columns(clause, language).into_iter().map(|(c, range)| (Some(c), range));
    let outside = outside_a_range(clause, language).map(|(c, range)| (Some(c), range));
    for (condition, range) in compared.chain(month_range_said(clause, language)).chain(outside) {
        conditions.extend(condition);
        spans.push(range);
    }
    // "dated in 2026 only (the export has a couple from Dec 2025 / Jan 2027)": the dates of an
    // aside beside a period read outside it say what else the file holds; they keep no rows.
    let asides: Vec<std::ops::Range<usize>> = super::PARENTHESES.find_iter(clause).map(|m| m.range()).collect();
    let outside = spans.iter().any(|s| !asides.iter().any(|a| a.contains(&s.start)));
    if outside {
        let months = [&*EN_MONTH, &*JA_MONTH, &*EN_MONTH_ALONE, &*JA_MONTH_ALONE];
        let dates_aside = months.iter().flat_map(|m| m.find_iter(clause)).map(|m| m.range());
        let dates_aside: Vec<_> = dates_aside.filter(|d| asides.iter().any(|a| a.contains(&d.start))).collect();
        spans.extend(dates_aside);
    }
    (conditions, spans)
}

/// The conditions of an English clause.
pub fn english(clause: &str) -> Vec<Condition> {
    // "the days since that order as of 2026-12-01" counts days; it keeps no rows.
    let counted = super::shaping::days_since_span(clause).map(|span| slots::blanked(clause, [span]));
    let clause = counted.as_deref().unwrap_or(clause);
    let lower = clause.to_ascii_lowercase();
    let (mut conditions, taken_spans) = spanned(clause, Language::En);
    let taken = |range: std::ops::Range<usize>| taken_spans.iter().any(|s| s.start < range.end && range.start < s.end);
    let month = english_month(clause).filter(|(_, range)| !taken(range.clone()));
    let in_month =
        |start: usize| month.as_ref().is_some_and(|(_, range)| range.contains(&start)) || taken(start..start + 1);
    if let Some((condition, _)) = &month {
        conditions.push(condition.clone());
    } else if let Some(c) = EN_MONTH_ALONE.captures(clause).filter(|c| !taken(c.get(0).expect("match").range())) {
        let name = c.name("m").or(c.name("m2")).or(c.name("m3")).expect("a month");
        let year_after =
            clause[name.end()..].trim_start_matches([',', ' ', '.']).starts_with(|ch: char| ch.is_ascii_digit());
        // "in October and November", "from October to December": the months from the first said
        // to the last, when they run on (months apart keep nothing read, and are asked).
        let together = EN_MONTHS_TOGETHER.captures(clause).filter(|t| t.get(0).expect("match").start() == name.start());
        let range = together.as_ref().is_some_and(|t| matches!(&t["sep"], "to" | "through" | "thru" | "-" | "–"));
        let listed: Vec<u32> = together.as_ref().map_or_else(Vec::new, |t| {
            t[0].split(|c: char| !c.is_ascii_alphabetic()).filter_map(month_number).collect()
        });
        let year_after = year_after
            || together.as_ref().is_some_and(|t| {
                clause[t.get(0).expect("match").end()..]
                    .trim_start_matches([',', ' ', '.'])
                    .starts_with(|ch: char| ch.is_ascii_digit())
            });
        if let (false, Some(month)) = (year_after, month_number(name.as_str())) {
            let field = english_field_before(clause, c.get(0).expect("match").start())
                .filter(|f| f.to_ascii_lowercase().contains("date"));
            if let Some(value2) = months_run_on(&listed, range) {
                conditions.push(Condition { field, operator: MONTH_OF_UNSAID_YEAR, value: Value::from(month), value2 });
            }
        }
    }
    let between = EN_BETWEEN.find(&lower).filter(|b| !taken(b.range()));
    let numbers = slots::numbers(clause);
    // Spans read as a measure's name ("days overdue"): their status words are not statuses.
    let mut measured: Vec<std::ops::Range<usize>> = Vec::new();
    if let Some(b) = between {
        let inside: Vec<_> = numbers.iter().filter(|n| n.start >= b.start() && n.end <= b.end()).collect();
        if inside.len() == 2 {
            conditions.push(Condition {
                field: english_field_before(clause, b.start()),
                operator: "between",
                value: number_value(inside[0].value),
                value2: Some(number_value(inside[1].value)),
            });
        }
    }
    // "invoices that came in more than 250.00 above the quote": a difference with a column over
    // a number.
    let over_by = EN_OVER_COLUMN_BY.captures(&lower).filter(|c| !taken(c.get(0).expect("match").range()));
    if let Some(c) = &over_by {
        let by = c["n"].replace(',', "").parse::<f64>().ok().map(number_value);
        conditions.push(Condition { field: None, operator: OVER_COLUMN, value: Value::from(&c["x"]), value2: by });
    }
    let in_over_by = |start: usize| over_by.as_ref().is_some_and(|c| c.get(0).expect("match").range().contains(&start));
    for number in &numbers {
        if between.is_some_and(|b| number.start >= b.start() && number.end <= b.end())
            || in_month(number.start)
            || in_over_by(number.start)
        {
            continue;
        }
        let before = lower[..number.start].trim_end();
        // "appears more than 1 time" counts rows, it names no column; "fee = 1.5% of the amount"
        // computes one.
        let after = lower[number.end..].trim_start();
        if EN_TIMES.is_match(&lower[number.end..]) || ["% of ", "percent of "].iter().any(|w| after.starts_with(w)) {
            continue;
        }
        let found = EN_BEFORE.iter().find(|(words, _)| {
            before.ends_with(words) && (words.starts_with(['<', '>', '=', '!']) || boundary_before(before, words))
        });
        let (operator, field_end) = match found {
            Some((words, operator)) => (*operator, before.len() - words.len()),
            None => match EN_AFTER.captures(&lower[number.end..]) {
                Some(c) => {
                    let words = c.get(1).map_or("", |m| m.as_str());
                    let operator = if words.contains("more")
                        || words.contains("above")
                        || words.contains("greater")
                        || words.contains("higher")
                        || words.contains("over")
                        || words.contains("up")
                        || words == "+"
                    {
                        "gte"
                    } else {
                        "lte"
                    };
                    (operator, number.start)
                }
                None => continue,
            },
        };
        let before_field = english_field_before(clause, field_end).filter(|f| !EN_STATUS.is_match(f));
        let measure = EN_UNIT_AFTER.captures(&clause[number.end..]);
        let measure = measure.map(|m| {
            let kind = m.name("kind").map(|k| k.as_str().to_ascii_lowercase());
            let kind = kind.filter(|k| !UNIT_COUNTED_AS.contains(&k.as_str()));
            (m.get(0).expect("match").end(), kind, m["unit"].to_ascii_lowercase(), m.name("state").map(|s| s.as_str()))
        });
        let field = match measure {
            Some((end, _, unit, Some(state))) => {
                measured.push(number.end..number.end + end);
                Some(format!("{unit} {}", state.to_ascii_lowercase()))
            }
            // "more than 10 OT hours": the words after the number say what is measured.
            Some((_, Some(kind), unit, None)) => Some(format!("{kind} {unit}")),
            Some((_, None, unit, None)) if before_field.is_none() => Some(unit),
            _ => before_field,
        };
        conditions.push(Condition { field, operator, value: number_value(number.value), value2: None });
    }
    let mut said: Vec<std::ops::Range<usize>> = Vec::new();
    for c in EN_IS.captures_iter(clause).chain(EN_EQUALS.captures_iter(clause)) {
        let range = c.get(0).expect("match").range();
        if taken(range.clone()) || said.iter().any(|r| r.start < range.end && range.start < r.end) {
            continue;
        }
        said.push(range);
        // "a column called variance = actual minus budget": a formula, no condition.
        let rest = clause[c.get(0).expect("match").end()..].trim_start().to_ascii_lowercase();
        // (A quoted value is no operand; "… is "no" - the CSMs need to call those": a dash
        // before a sentence.)
        let aside = rest.strip_prefix("- ").is_some_and(|after| {
            ["the ", "it ", "this ", "that ", "these ", "those ", "we ", "i ", "they ", "so ", "and ", "but "]
                .iter()
                .any(|w| after.starts_with(w))
        });
        // "whose latest event is a return": the value after its article; not "with a different
        // amount is a partial payment", a description.
        if c.name("article").is_some()
            && !matches!(c.name("kw").map(|k| k.as_str().to_ascii_lowercase()).as_deref(), Some("whose" | "where"))
        {
            continue;
        }
        let quoted = c["value"].starts_with(['"', '\'']);
        if !quoted
            && !aside
            && [
                "minus ",
                "plus ",
                "times ",
                "divided ",
                "multiplied ",
                "- ",
                "+ ",
                "* ",
                "/ ",
                "× ",
                "% of ",
                "percent of ",
            ]
            .iter()
            .any(|w| rest.starts_with(w))
        {
            continue;
        }
        let value = unquote(&c["value"]);
        let field = c["field"].trim().trim_start_matches("the ");
        // "and leave out any bill whose status is Void": the column is what "whose" names.
        let field = [" whose ", " where ", " with "]
            .iter()
            .filter_map(|w| field.to_ascii_lowercase().rfind(w).map(|at| at + w.len()))
            .max()
            .map_or(field, |at| field[at..].trim_start_matches("the "))
            .to_owned();
        // ("where the amount is no more than 50": a comparison; "auto renew is "no"", "is No
        // and …": the value no.)
        let value_at = c.name("value").map_or(0, |v| v.start());
        let compares = !quoted
            && (starts_comparison(&value) && !value.eq_ignore_ascii_case("no")
                || EN_BEFORE.iter().any(|(words, _)| lower[value_at..].starts_with(words) && words.contains(' ')));
        if slots::is_row_noun(&value) || slots::is_row_noun(&field) || compares {
            continue;
        }
        // "(paid on the due date = on time)": a term defined, no column of that many words.
        if field.split_whitespace().count() > 3 {
            continue;
        }
        // "whose Account Number is also used by another": how it is, not what it holds.
        let adverb = ["also", "always", "never", "often", "usually", "sometimes", "already"];
        if adverb.contains(&value.to_ascii_lowercase().as_str()) {
            continue;
        }
        // "whose tag is used by more than one check-in": what is done with it (a duplicate key).
        let done = ["used", "shared", "given", "assigned", "issued"];
        if !quoted
            && done.contains(&value.to_ascii_lowercase().as_str())
            && ["by ", "to ", "on ", "for ", "with ", "in ", "more "].iter().any(|w| rest.starts_with(w))
        {
            continue;
        }
        // "whose next calibration is due in March 2027": when a date falls (read as the period),
        // not a value the column holds.
        let of_a_date = ["due", "scheduled", "planned", "set", "booked", "expiring", "ending", "starting"];
        if !quoted
            && of_a_date.contains(&value.to_ascii_lowercase().as_str())
            && ["in ", "on ", "by ", "before ", "after ", "between ", "within ", "from ", "during "]
                .iter()
                .any(|w| rest.starts_with(w))
        {
            continue;
        }
        let negated = matches!(c["op"].to_ascii_lowercase().as_str(), "is not" | "isn't" | "!=" | "<>");
        // "where the amount is 0": a number compared for equality (other comparisons are read above).
        let value = match value.replace(',', "").parse::<f64>() {
            Ok(n) if conditions.iter().any(|c| c.value == number_value(n)) => continue,
            Ok(n) => number_value(n),
            Err(_) => Value::from(value),
        };
        conditions.push(Condition {
            field: Some(field),
            operator: if negated { "ne" } else { "eq" },
            value,
            value2: None,
        });
    }
    // "flag it 'over' if actual is over budget, otherwise 'ok'": a label's condition, no filter.
    let labels = ["otherwise", "else ", " then ", "flag", "mark", "label"].iter().any(|w| lower.contains(w));
    for c in EN_OVER_COLUMN.captures_iter(clause) {
        let x = &c["x"];
        // "don't bring over name or department", "carry over the balance": a move, no comparison.
        let moved = lower[..c.get(0).expect("match").start()].trim_end().rsplit(' ').next().is_some_and(|w| {
            ["bring", "brought", "carry", "carried", "copy", "copied", "move", "moved", "pull", "take", "hand", "come"]
                .contains(&w)
        });
        if moved {
            continue;
        }
        // "more than once" says how often, not a column to compare with.
        let how_often = ["once", "twice", "thrice", "one", "two", "three"].contains(&x.to_ascii_lowercase().as_str());
        if !x.chars().any(|ch| ch.is_ascii_digit())
            && !slots::is_row_noun(x)
            && conditions.is_empty()
            && !labels
            && !how_often
        {
            conditions.push(over_column(x));
        }
    }
    for c in EN_WITH_STATE.captures_iter(clause) {
        if !taken(c.get(0).expect("match").range()) {
            let value = Value::from(&c["value"]);
            conditions.push(Condition { field: Some(c["field"].to_owned()), operator: "eq", value, value2: None });
        }
    }
    for c in EN_FROM_NAMED.captures_iter(clause) {
        let field = c["field"].to_ascii_lowercase();
        // "rows from March 2026", "runs of week 14 2026": a period, read as dates.
        let period = super::dates::month_number(&field).is_some()
            || ["week", "month", "year", "quarter", "day", "fy", "page", "line", "row", "q"].contains(&field.as_str());
        if period || taken(c.get(0).expect("match").range()) {
            continue;
        }
        let value = c["value"].parse::<f64>().map_or_else(|_| Value::from(&c["value"]), number_value);
        conditions.push(Condition { field: Some(c["field"].to_owned()), operator: "eq", value, value2: None });
    }
    // "the orders shipping to CA", "customers based in Germany", "spent on Office Supplies only":
    // a value of some column, said as where the rows go or are, or alone (the column is the one
    // whose values hold it, or asked).
    for c in EN_PLACED.captures_iter(clause).chain(EN_VALUE_ONLY.captures_iter(clause)) {
        let value = c.name("value").expect("value");
        // ("for January only": a month, read as the dates it holds.)
        let month = month_number(value.as_str()).is_some();
        if taken(value.range()) || month || slots::is_row_noun(&value.as_str().to_ascii_lowercase()) {
            continue;
        }
        conditions.push(Condition { field: None, operator: "eq", value: Value::from(value.as_str()), value2: None });
    }
    for c in EN_FILLED.captures_iter(clause) {
        let field = c.name("field").or(c.name("f2")).map(|m| slots::singular(m.as_str().trim()));
        if field.as_deref().is_some_and(slots::is_row_noun) {
            continue;
        }
        conditions.push(Condition { field, operator: "ne", value: Value::from(""), value2: None });
    }
    for c in EN_BLANK.captures_iter(clause) {
        let field = c.name("field").or(c.name("f2")).or(c.name("f3")).map(|m| slots::singular(m.as_str().trim()));
        if field.as_deref().is_some_and(|f| slots::is_row_noun(f) || f == "cell") {
            continue;
        }
        conditions.push(Condition { field, operator: "eq", value: Value::from(""), value2: None });
    }
    for c in EN_CONTAINS.captures_iter(clause) {
        let whole = c.get(0).expect("match");
        // "all the copies, including the first one": which rows, not a text in them.
        let rows = ["first", "last", "one", "ones", "all", "both", "extras", "copies", "original", "originals"];
        if rows.contains(&c["value"].to_ascii_lowercase().as_str()) {
            continue;
        }
        let field = english_field_before(clause, whole.start());
        conditions.push(Condition {
            field,
            operator: "contains",
            value: Value::from(unquote(&c["value"])),
            value2: None,
        });
    }
    for m in EN_STATUS.find_iter(clause) {
        if measured.iter().any(|span| span.contains(&m.start())) || taken(m.range()) {
            continue;
        }
        let word = m.as_str();
        // "Done" is a state as a cell is written; "when done" is not.
        if matches!(word, "done" | "finished") {
            continue;
        }
        // "submitted twice" says how often, not which status; "we paid", "whether it passed" are
        // verbs.
        let after = clause[m.end()..].trim_start().to_ascii_lowercase();
        let before = clause[..m.start()].trim_end().to_ascii_lowercase();
        let how_often = ["twice", "more than once", "again", "two times"].iter().any(|w| after.contains(w));
        // "(BLOCKED and FAIL count as run)": states said to count with the rest keep no rows.
        let said_to_count = super::words::SAID_TO_COUNT
            .find(&after)
            .is_some_and(|c| c.start() <= 24 && !after[..c.start()].contains(['.', ';', ')']));
        // ("claims that have been approved", "invoices which were paid": the rows' state.)
        let of_the_rows = EN_RELATIVE_STATE.is_match(&before);
        // ("since those fees were still paid": the verb of a reason, past an adverb.)
        let before_adverb = ["still", "already", "also"]
            .iter()
            .find_map(|adverb| before.strip_suffix(adverb).map(str::trim_end))
            .unwrap_or(&before);
        let verb = !of_the_rows
            && ["we", "i", "they", "you", "he", "she", "it", "who", "was", "were", "been", "had", "have"]
                .iter()
                .any(|w| before_adverb.ends_with(&format!(" {w}")) || before_adverb == *w);
        // "what the customer actually paid": the verb of a relative clause; "1. Open x.csv" at
        // the start of a clause: a verb.
        let what = before.split_whitespace().rev().take(4).any(|w| w == "what")
            || word.eq_ignore_ascii_case("open")
                && before.trim_start_matches(|c: char| c.is_ascii_digit() || ".)-* ".contains(c)).is_empty();
        // "more than $2,500 outstanding (the Outstanding column …)": a column's name, no state;
        // "go by the submitted date and time": a column of when.
        let when = ["date", "time", "timestamp", "day", "at", "on"]
            .iter()
            .any(|w| after.strip_prefix(w).is_some_and(|rest| !rest.starts_with(|c: char| c.is_ascii_alphanumeric())));
        // ("the earliest submitted;": the time it was, an order; no state. Not "the latest
        // approved budget", the latest of the approved ones.)
        let ordered_by = ["earliest", "latest", "most recently", "newest", "oldest"]
            .iter()
            .any(|w| before.ends_with(&format!(" {w}")) || before == *w)
            && (after.is_empty() || after.starts_with([';', ',', '.', ')']) || after.starts_with("one"));
        // ("whose paid-through date is …": a word of a compound, the column's name.)
        let compound = clause[m.end()..].starts_with('-') || clause[..m.start()].ends_with('-');
        let a_column = before.ends_with(|ch: char| ch.is_ascii_digit())
            || compound
            || lower.contains(&format!("the {} column", word.to_ascii_lowercase()))
            || when && before.ends_with("the")
            || ordered_by;
        // "the total paid in March": what was paid, summed; no state of the rows ("total
        // approved expenses": the rows named after it are in that state).
        let rows_after =
            after.split_whitespace().next().is_some_and(|w| w.len() > 3 && w.ends_with('s') && slots::is_row_noun(w));
        let summed = (word.eq_ignore_ascii_case("paid") || word.to_ascii_lowercase().ends_with("ed"))
            && ["total", "sum", "amount"].iter().any(|w| before.ends_with(&format!(" {w}")) || before == *w)
            && !rows_after;
        if how_often || verb || what || said_to_count || a_column || summed {
            continue;
        }
        // ("invoices paid after their due date": the verb of the dates compared; "where approved
        // is Yes": the column compared.)
        let dated = format!("{} date", word.to_ascii_lowercase());
        if conditions.iter().any(|c| {
            compares_with(c, word)
                || c.value.get("column").is_some() && c.field.as_deref() == Some(dated.as_str())
                || c.field.as_deref().is_some_and(|f| f.eq_ignore_ascii_case(word))
                    && c.value.as_str().is_some_and(|v| YES_OR_NO.contains(&v.to_ascii_lowercase().as_str()))
        }) {
            continue;
        }
        // "defects that aren't closed yet": every other state; "(Partially Paid and Void don't
        // count)": the states said not to count.
        // ("not fully paid", "isn't completely shipped": the negation before an adverb.)
        let unqualified = ["fully", "completely", "entirely", "totally", "yet"]
            .iter()
            .find_map(|adverb| before.strip_suffix(adverb).map(str::trim_end))
            .unwrap_or(&before);
        let negated =
            ["not", "n't", "never"].iter().any(|w| unqualified.ends_with(w)) || EN_NOT_COUNTED.is_match(&after);
        // "leave the Partially Paid ones out": a state written as a cell is, in several words.
        let value = capitalised_phrase(clause, m.range()).unwrap_or_else(|| word.to_ascii_lowercase());
        let operator = if negated { "ne" } else { "eq" };
        // "(closed, on hold, partially received, cancelled)": the states listed beside it too.
        let values: Vec<String> = std::iter::once(value)
            .chain(listed_beside(clause, m.range()))
            .filter(|value| !conditions.iter().any(|c| compares_with(c, value)))
            .collect();
        match values.as_slice() {
            // "open ones only (Open, In Progress or Reopened)": a row holds one of the states
            // kept; each left out is a condition of its own.
            [_, _, ..] if !negated => {
                let mut values = values;
                values.dedup_by(|a, b| a.eq_ignore_ascii_case(b));
                conditions.push(Condition { field: None, operator: "in", value: json!(values), value2: None });
            }
            _ => conditions.extend(values.into_iter().map(|value| Condition {
                field: None,
                operator,
                value: Value::from(value),
                value2: None,
            })),
        }
    }
    // "Pending and Approved both do", "paid or settled": states of the rows kept, said together
    // as alternatives, are one of them (a row holds one state; both at once keeps none).
    let kept_states: Vec<usize> = (0..conditions.len())
        .filter(|&i| {
            let c = &conditions[i];
            c.field.is_none() && c.operator == "eq" && c.value.as_str().is_some_and(|v| EN_STATUS.is_match(v))
        })
        .collect();
    if kept_states.len() >= 2 && EN_ALTERNATIVES.is_match(&lower) {
        let values: Vec<Value> = kept_states.iter().map(|&i| conditions[i].value.clone()).collect();
        let first = kept_states[0];
        for &i in kept_states.iter().skip(1).rev() {
            conditions.remove(i);
        }
        conditions[first] = Condition { field: None, operator: "in", value: Value::Array(values), value2: None };
    }
    // "more than $2,500 outstanding (the Outstanding column, not the Amount)": the word after the
    // number is the column compared, when the text calls it one.
    let compared: Vec<usize> = (0..conditions.len())
        .filter(|&i| {
            conditions[i].field.is_none()
                && conditions[i].value.is_number()
                && matches!(conditions[i].operator, "gt" | "gte" | "lt" | "lte")
        })
        .collect();
    if let ([only], Some(c)) = (compared.as_slice(), EN_NUMBER_OF_A_COLUMN.captures(clause)) {
        let called = format!("the {} column", c["word"].to_ascii_lowercase());
        if let Some(at) = lower.find(&called) {
            conditions[*only].field = Some(clause[at + 4..at + called.len() - 7].to_owned());
        }
    }
    // "Only Must and Should requirements matter", "skip Could": values written as cells are,
    // right after the word that keeps or leaves out rows (the filter's exclusion says which).
    if conditions.is_empty() {
        for c in EN_VALUES_KEPT.captures_iter(clause) {
            let values = c.name("values").expect("values");
            // ("only Sales.csv" names a file.)
            let after = &clause[values.end()..];
            if after.starts_with('.') && after[1..].starts_with(|ch: char| ch.is_alphanumeric()) {
                continue;
            }
            // Listed together, they are values of one column: a row holds one of them.
            let listed: Vec<&str> = EN_LIST_SEPARATOR
                .split(values.as_str())
                .map(str::trim)
                .filter(|v| !v.is_empty() && !NOT_VALUES.contains(v))
                .collect();
            match listed.as_slice() {
                [] => {}
                [one] => {
                    conditions.push(Condition { field: None, operator: "eq", value: Value::from(*one), value2: None })
                }
                several => {
                    conditions.push(Condition { field: None, operator: "in", value: json!(several), value2: None })
                }
            }
        }
    }
    // "every enabled account (account_status Enabled)": a column written as the file names it, and
    // its value, in brackets.
    for c in EN_COLUMN_AND_VALUE_IN_BRACKETS.captures_iter(clause).chain(EN_KIND_AND_VALUE.captures_iter(clause)) {
        let (Some(field), Some(value)) = (c.name("field").or(c.name("field2")), c.name("value").or(c.name("value2")))
        else {
            continue;
        };
        let (field, value) = (field.as_str().to_owned(), value.as_str());
        if !conditions.iter().any(|k| k.field.as_deref() == Some(field.as_str())) {
            conditions.push(Condition { field: Some(field), operator: "eq", value: Value::from(value), value2: None });
        }
    }
    // "a drift of more than 0.5 either way": beyond the number on both sides of zero.
    if EN_EITHER_WAY.is_match(&lower) {
        for c in conditions.iter_mut() {
            let Some(v) = c.value.as_f64().filter(|v| *v > 0.0) else { continue };
            let range = (number_value(-v), Some(number_value(v)));
            match c.operator {
                "gt" => (c.operator, c.value, c.value2) = (OUTSIDE, range.0, range.1),
                "lte" => (c.operator, c.value, c.value2) = ("between", range.0, range.1),
                _ => {}
            }
        }
    }
    // "anything not dated in January 2027", "orders not from March": the rows outside the period.
    if EN_NOT_OF_THE_PERIOD.is_match(&lower) {
        for c in conditions.iter_mut().filter(|c| c.operator == "between" && super::of_a_period(c)) {
            c.operator = OUTSIDE;
        }
    }
    distinct(conditions)
}

/// Whether `condition` compares with `value` already, alone or as one of its values.
pub(super) fn compares_with(condition: &Condition, value: &str) -> bool {
    let same = |v: &Value| v.as_str().is_some_and(|v| v.eq_ignore_ascii_case(value));
    same(&condition.value) || condition.value.as_array().is_some_and(|values| values.iter().any(same))
}

/// A number compared, then the word of what it counts: "more than $2,500 outstanding".
static EN_NUMBER_OF_A_COLUMN: LazyLock<Regex> = LazyLock::new(|| {
    re(
        r"(?i)\b(?:more than|over|above|at least|less than|under|below|at most)\s+[$€£¥]?\d[\d,]*(?:\.\d+)?\s+(?P<word>[a-z_][\w]*)",
    )
});
/// Values capitalised as cells are, listed right after "only", "skip" and the like.
static EN_VALUES_KEPT: LazyLock<Regex> = LazyLock::new(|| {
    re(
        r"\b(?i:only|just|skip|skipping|exclude|excluding|except|leave out|leaving out|ignore|ignoring)\s+(?:(?i:the)\s+)?(?P<values>[A-Z][\w-]*(?:(?:,\s*|,?\s+(?:and|or)\s+)[A-Z][\w-]*)*)\b(?:\s*$|[\s,.;:)])",
    )
});
/// Capitalised words that are no value: "only I", "skip The …".
const NOT_VALUES: &[&str] = &["I", "The", "A", "An", "This", "That", "These", "Those", "We", "You", "It"];

/// The other items of the list that the state at `range` is an item of: all of a list in
/// brackets ("(closed, on hold, partially received, cancelled)"), or, for a state written as a
/// cell is, the items around it written so too ("leaving out Closed, On Hold and Cancelled").
/// Items are one to three words of letters.
fn listed_beside(clause: &str, range: std::ops::Range<usize>) -> Vec<String> {
    fn value(item: &str) -> bool {
        let words = item.split_whitespace().count();
        (1..=3).contains(&words) && item.chars().all(|c| c.is_alphabetic() || c == ' ' || c == '-')
    }
    fn cell(item: &str) -> Option<&str> {
        let item = item.trim().trim_end_matches(['.', ';', ':']);
        (value(item) && item.split_whitespace().all(|w| w.starts_with(char::is_uppercase))).then_some(item)
    }
    let word = &clause[range.clone()];
    let open = clause[..range.start].rfind('(');
    let close = clause[range.end..].find(')').map(|i| range.end + i);
    if let (Some(open), Some(close)) = (open, close) {
        let inside = &clause[open + 1..close];
        let items: Vec<&str> = EN_LIST_SEPARATOR.split(inside).map(str::trim).filter(|i| !i.is_empty()).collect();
        if inside.contains(['(', ')']) || items.len() < 2 || !items.iter().all(|i| value(i)) {
            return Vec::new();
        }
        return items.into_iter().filter(|i| !i.eq_ignore_ascii_case(word)).map(str::to_owned).collect();
    }
    if !word.starts_with(|c: char| c.is_ascii_uppercase()) {
        return Vec::new();
    }
    let before = EN_LIST_SEPARATOR.split(&clause[..range.start]).collect::<Vec<_>>();
    let after = EN_LIST_SEPARATOR.split(&clause[range.end..]).collect::<Vec<_>>();
    // Only a word that ends an item before it, and begins one after it, is in a list.
    if before.len() < 2 && after.len() < 2 || !after[0].is_empty() && !before.last().is_some_and(|b| b.is_empty()) {
        return Vec::new();
    }
    let mut items: Vec<String> = Vec::new();
    if after[0].is_empty() {
        items.extend(after[1..].iter().map_while(|i| cell(i)).map(str::to_owned));
    }
    if before.last().is_some_and(|b| b.is_empty()) {
        let earlier = before[..before.len() - 1].iter().rev().map_while(|i| cell(i)).map(str::to_owned);
        items.extend(earlier);
    }
    items
}

static EN_LIST_SEPARATOR: LazyLock<Regex> = LazyLock::new(|| re(r"(?i)\s*,\s*(?:and\s+|or\s+)?|\s+(?:and|or)\s+"));

/// Words after states that leave them out: "(Partially Paid and Void don't count)", "Closed
/// ones don't count".
static EN_NOT_COUNTED: LazyLock<Regex> = LazyLock::new(|| {
    re(
        r"^(?:(?:and|or|,)\s*[a-z][\w-]*(?: [a-z][\w-]*)?\s*)*(?:(?:ones|rows|lines|[a-z]+s)\s+)?(?:don'?t|do not|doesn'?t|does not|shouldn'?t|should not|mustn'?t|must not|won'?t|will not|can'?t|cannot)(?: count\b|\s*[).;]|$)|^(?:(?:and|or|,)\s*[a-z][\w-]*(?: [a-z][\w-]*)?\s*)*(?:are|is) (?:excluded|not included)\b",
    )
});

/// The capitalised words around a capitalised word at `range` ("Partially Paid", "Paid In
/// Full"), when there are any besides it.
fn capitalised_phrase(clause: &str, range: std::ops::Range<usize>) -> Option<String> {
    let capital = |w: &&str| w.trim_start_matches(['(', '"', '\'']).starts_with(|c: char| c.is_ascii_uppercase());
    if !capital(&&clause[range.clone()]) {
        return None;
    }
    // Nearest first.
    let spaced = clause[range.end..].starts_with(' ');
    // A comma ends a list's item ("Closed, On Hold, Cancelled").
    let in_item = |w: &&str| capital(w) && !w.ends_with(',');
    let mut before: Vec<&str> = clause[..range.start].split(' ').rev().skip(1).take_while(in_item).take(2).collect();
    // The first word of a sentence is capitalised for the sentence ("Leave Partially Paid out").
    if before.len() == clause[..range.start].split_whitespace().count() {
        before.pop();
    }
    let after = clause[range.end..]
        .split(' ')
        .take_while(|_| spaced)
        .skip(1)
        .take_while(|w| capital(w) && w.chars().all(|c| c.is_alphanumeric() || c == '-'))
        .take(2);
    let words: Vec<&str> = before
        .into_iter()
        .rev()
        .map(|w| w.trim_start_matches(['(', '"', '\'']))
        .chain([&clause[range]])
        .chain(after)
        .collect();
    (words.len() > 1).then(|| words.join(" "))
}

/// "where Paid doesn't match Invoiced", "rows whose paid amount differs from the invoiced
/// amount", "where the bank amount and the ledger amount are not the same", 「入金日が入金予定日と
/// 違っている行」: two columns of a row compared.
static EN_COLUMNS_DIFFER: LazyLock<Regex> = LazyLock::new(|| {
    re(
        r"(?i)\b(?:where|whose|when|if|with)\s+(?:the\s+|what\s+(?:we|i|they|you|the [a-z]+)\s+)?(?P<a>[a-z_][\w]*(?: [a-z_][\w]*){0,2}?)\s+(?:doesn't|does not|don't|do not|didn't|did not)\s+(?:match|equal|agree with)\s+(?:the\s+|what\s+(?:the\s+)?)?(?P<b>[a-z_][\w]*(?: [a-z_][\w]*)?)|\b(?:where|whose|when|if|with)\s+(?:the\s+)?(?P<c>[a-z_][\w]*(?: [a-z_][\w]*){0,2}?)\s+(?:differs? from|is different from|is not equal to|isn't equal to|is not the same as|isn't the same as|!=|<>|≠)\s+(?:the\s+)?(?P<d>[a-z_][\w]*(?: [a-z_][\w]*)?)|\b(?:where|whose|when|if|with)\s+(?:the\s+)?(?P<e>[a-z_][\w]*(?: [a-z_][\w]*)?)\s+and\s+(?:the\s+)?(?P<f>[a-z_][\w]*(?: [a-z_][\w]*)?)\s+(?P<both>are not the same|aren't the same|are different|differ|don't match|do not match|don't agree|do not agree)\b",
    )
});
/// 「実績が予算を上回って」「実績が予算より多い」, "actual is greater than budget": one column
/// above or below another.
static JA_COLUMN_ABOVE: LazyLock<Regex> = LazyLock::new(|| {
    re(
        r"(?P<a>[^\s、。をがはのと「」（）():]{1,16})が(?P<b>[^\s、。をがはのと「」（）():\d]{1,16}?)(?:(?:を|より)(?P<op>上回|超え|超過|下回|大き|多|小さ|少な)|(?P<op2>以下|以上|未満))",
    )
});
static EN_COLUMN_ABOVE: LazyLock<Regex> = LazyLock::new(|| {
    re(
        r"(?i)\b(?:(?:if|when|where|whose)\s+)?(?:the\s+)?(?P<a>[a-z_][\w]*(?: [a-z_][\w]*)?)\s+(?:(?P<is>(?:is|are)\s+)?(?:strictly\s+)?(?P<op>(?:less|lower|smaller|fewer) than or equal to|(?:greater|more|higher|larger) than or equal to|at or below|at or above|at most|at least|no more than|no less than|no higher than|no lower than|greater than|more than|higher than|larger than|above|bigger than|less than|lower than|smaller than|below)|(?P<op2><=|>=|=<|=>|≤|≥|<|>))\s+(?:(?:the|their|its)\s+)?(?P<b>[a-z_][\w]*(?: [a-z_][\w]*)?)\b",
    )
});
static JA_COLUMNS_DIFFER: LazyLock<Regex> = LazyLock::new(|| {
    re(
        r"(?P<a>[^\s、。をがはのと「」（）()]{1,16})が(?P<b>[^\s、。をがはのと「」（）()]{1,16})と(?:違|異な|一致しな|一致していな|一致してな|合わな|合っていな|合ってな|揃わな|揃っていな|揃ってな|ずれ|食い違)|(?P<c>[^\s、。をがはのと「」（）()]{1,16})と(?P<d>[^\s、。をがはのと「」（）()]{1,16})(?:の(?:合計|金額|額|値|数字))?が(?:違|異な|一致しな|一致していな|一致してな|合わな|合っていな|合ってな|揃わな|揃っていな|揃ってな|ずれ|食い違)",
    )
});

/// The columns a clause compares with each other, as conditions whose value is `{column: …}`,
/// and where each is said.
pub fn compared_columns(clause: &str, language: Language) -> Vec<(Condition, std::ops::Range<usize>)> {
    let pattern = match language {
        Language::En => &*EN_COLUMNS_DIFFER,
        Language::Ja => &*JA_COLUMNS_DIFFER,
    };
    let clean = |name: &str| compared_name(name, language);
    let above = match language {
        Language::En => &*EN_COLUMN_ABOVE,
        Language::Ja => &*JA_COLUMN_ABOVE,
    };
    let differ = pattern.captures_iter(clause).map(|c| (c, "ne"));
    let ordered = above.captures_iter(clause).map(|c| {
        let op = c.name("op").or(c.name("op2")).map_or("", |m| m.as_str()).to_ascii_lowercase();
        (c, column_operator(&op))
    });
    let mut compared: Vec<(Condition, std::ops::Range<usize>)> = Vec::new();
    // "invoices paid after their due date": the date of what was done, against another date.
    if language == Language::En {
        for c in EN_DONE_AFTER_A_DATE.captures_iter(clause) {
            let operator = match c["op"].to_ascii_lowercase().as_str() {
                "after" | "later than" => "gt",
                "on or after" => "gte",
                "on or before" => "lte",
                _ => "lt",
            };
            let field = format!("{} date", c["verb"].to_ascii_lowercase());
            let value = serde_json::json!({ "column": c["b"].to_ascii_lowercase() });
            compared.push((
                Condition { field: Some(field), operator, value, value2: None },
                c.get(0).expect("match").range(),
            ));
        }
    }
    differ
        .chain(ordered)
        .filter_map(|(c, operator)| {
            let a = c.name("a").or(c.name("c")).or(c.name("e"))?.as_str();
            // ("actual is greater than budget": the "is" is no part of the name; "A and B are not
            // the same" compares two things said.)
            let (a, is_said) = match a.rsplit_once(' ') {
                Some((name, "is" | "are")) => (name, true),
                _ => (a, c.name("is").is_some() || c.name("both").is_some()),
            };
            let b = c.name("b").or(c.name("d")).or(c.name("f"))?.as_str();
            let a_said = a;
            let (a, b) = (clean(a), clean(b));
            // "which items are below …" asks of rows; it names no column.
            let asks = ["which ", "what ", "that ", "those ", "these ", "who "]
                .iter()
                .any(|w| a.to_lowercase().starts_with(w));
            let names_rows = |n: &str| asks || slots::is_row_noun(n) || JA_ROW_NOUNS.contains(&n);
            // 「百万円以下」 is an amount, not a column.
            let number = |n: &str| {
                n.replace(',', "").parse::<f64>().is_ok()
                    || n.chars().any(|ch| ch.is_ascii_digit())
                    || n.chars().all(|ch| "〇一二三四五六七八九十百千万億円件個人%".contains(ch))
            };
            if a.is_empty() || b.is_empty() || names_rows(&a) || names_rows(&b) || number(&b) {
                return None;
            }
            // "On Hand strictly less than Reorder Point": with no "is", only names written as
            // columns are (capitalised, or with underscores).
            let written_as_column =
                |name: &str| name.split(' ').all(|w| w.contains('_') || w.starts_with(char::is_uppercase));
            // ("where what we counted doesn't match the system": the words say what each column is.)
            let said_as_what = c.get(0).is_some_and(|m| m.as_str().to_lowercase().contains(" what "));
            let plain_words = language == Language::En && !is_said && !said_as_what && c.name("op2").is_none();
            let b_said = c.name("b").map_or("", |m| m.as_str());
            if plain_words && !(written_as_column(a_said) && written_as_column(b_said)) {
                return None;
            }
            let value = serde_json::json!({ "column": b });
            Some((Condition { field: Some(a), operator, value, value2: None }, c.get(0)?.range()))
        })
        .chain(compared)
        .collect()
}

/// The name of a column compared, as said: "the paid amount column" is `paid`.
fn compared_name(name: &str, language: Language) -> String {
    let name = name.trim().trim_start_matches("実際の").trim();
    match language {
        Language::En => slots::singular(name.trim_end_matches(" column").trim_end_matches(" amount").trim()),
        // (「伝票ごとに借方と…」: the particle before is no part of the name.)
        Language::Ja => name.strip_prefix(['に', 'で', 'へ']).unwrap_or(name).to_owned(),
    }
}

/// "where the physical count doesn't match the register balance", "compare the invoiced amount
/// with the paid amount … the rows that differ", 「請求額と入金額を比較して、一致しない行」: two
/// columns compared in plain words, which may as well name two tables matched; read only where
/// one table is read.
static EN_PLAIN_COLUMNS_DIFFER: LazyLock<Regex> = LazyLock::new(|| {
    re(
        r"(?i)\b(?:where|whose|when|if)\s+(?:the\s+)?(?P<a>[a-z_]\w*(?: [a-z_]\w*){0,2}?)\s+(?:doesn't|does not|don't|do not|didn't|did not)\s+(?:match|equal|agree with)\s+(?:the\s+)?(?P<b>[a-z_]\w*(?: [a-z_]\w*)?)|\bcompare\s+(?:the\s+)?(?P<c>[a-z_]\w*(?: [a-z_]\w*){0,2}?)\s+(?:with|to|against|and)\s+(?:the\s+)?(?P<d>[a-z_]\w*(?: [a-z_]\w*)?)",
    )
});
static JA_COLUMNS_COMPARED: LazyLock<Regex> = LazyLock::new(|| {
    re(
        r"(?P<c>[^\s、。をがはのと「」（）()]{1,16})と(?P<d>[^\s、。をがはのと「」（）()]{1,16})を(?:比較|照合|突き合わせ|突合|見比べ|比べ)",
    )
});
/// The words that keep the rows whose columns compared are not the same.
static ROWS_THAT_DIFFER: LazyLock<Regex> = LazyLock::new(|| {
    re(
        r"(?i)\b(?:don't|do not|doesn't|does not|didn't|did not)\s+(?:agree|match)\b|\bdiffer(?:s|ing)?\b|\bdifferent\b|\bmismatch|\bdiscrepanc|\bnot the same\b|\bdisagree|一致しな|一致していな|違う|違って|異な|差がある|差異がある|差異のある|差のある|合わな|合っていな|ずれ|食い違",
    )
});

/// Two columns of the one table read said to be compared, and the rows that differ kept, as the
/// condition that keeps them (`{field: a, operator: ne, value: {column: b}}`).
pub fn columns_compared_in_words(text: &str, language: Language) -> Option<Condition> {
    let pattern = match language {
        Language::En => &*EN_PLAIN_COLUMNS_DIFFER,
        Language::Ja => &*JA_COLUMNS_COMPARED,
    };
    let c = pattern.captures(text)?;
    // ("compare the count with the balance": the rows kept are those that differ, said apart.)
    if c.name("c").is_some() && !ROWS_THAT_DIFFER.is_match(text) {
        return None;
    }
    let stop = ["in", "on", "of", "for", "from", "at", "and", "so", "then"];
    let trimmed = |m: regex::Match| {
        let said = m.as_str();
        let said = said.rsplit_once(' ').filter(|(_, last)| stop.contains(&last.to_ascii_lowercase().as_str()));
        compared_name(said.map_or(m.as_str(), |(name, _)| name), language)
    };
    let a = trimmed(c.name("a").or(c.name("c"))?);
    let b = trimmed(c.name("b").or(c.name("d"))?);
    let names_rows = |n: &str| slots::is_row_noun(n) || JA_ROW_NOUNS.contains(&n);
    if a.is_empty() || b.is_empty() || a == b || names_rows(&a) || names_rows(&b) {
        return None;
    }
    Some(Condition { field: Some(a), operator: "ne", value: json!({ "column": b }), value2: None })
}

static EN_DONE_AFTER_A_DATE: LazyLock<Regex> = LazyLock::new(|| {
    re(
        r"(?i)\b(?P<verb>paid|delivered|shipped|returned|submitted|closed|received|completed|filed|resolved|finished|signed)\s+(?P<op>on or after|on or before|after|later than|before|earlier than)\s+(?:the|their|its)\s+(?P<b>[a-z_]+(?: [a-z_]+)? date|[a-z_]+_date|deadline)\b",
    )
});

/// The operator of one column compared with another, from the words between them: "at or
/// below" is `lte`, 「以上」 `gte`, "above" `gt`.
fn column_operator(op: &str) -> &'static str {
    let below = [
        "下回",
        "小さ",
        "少な",
        "未満",
        "以下",
        "less",
        "lower",
        "smaller",
        "fewer",
        "below",
        "at most",
        "no more",
        "no higher",
        "<",
        "≤",
    ]
    .iter()
    .any(|w| op.contains(w))
        && !["no less", "no lower"].iter().any(|w| op.contains(w));
    let or_equal = [
        "以下",
        "以上",
        "or equal",
        "at or",
        "at most",
        "at least",
        "no more",
        "no less",
        "no higher",
        "no lower",
        "<=",
        ">=",
        "=<",
        "=>",
        "≤",
        "≥",
    ]
    .iter()
    .any(|w| op.contains(w));
    match (below, or_equal) {
        (true, true) => "lte",
        (true, false) => "lt",
        (false, true) => "gte",
        (false, false) => "gt",
    }
}

/// The conditions, each once: 「2026年10月（10/1〜10/31）」 says one range twice.
fn distinct(mut conditions: Vec<Condition>) -> Vec<Condition> {
    // "in Q3 2026 (delivery_date Jul 1 - Sep 30)": a range said again of no column is the one said
    // of a column; so is one said of the dates in general ("dated in October 2026 (invoice_date
    // from Oct 1 to Oct 31)").
    let of_a_column = |c: &Condition| {
        c.field.as_deref().is_some_and(|f| !matches!(f.to_lowercase().as_str(), "date" | "dated" | "day" | "日付"))
    };
    let named = conditions.clone();
    conditions.retain(|c| {
        of_a_column(c)
            || !named
                .iter()
                .any(|n| of_a_column(n) && n.operator == c.operator && n.value == c.value && n.value2 == c.value2)
    });
    let mut seen: Vec<Condition> = Vec::new();
    conditions.retain(|c| {
        let new = !seen.contains(c);
        if new {
            seen.push(c.clone());
        }
        new
    });
    conditions
}

/// "amount is over 100": the word after "is" starts a comparison read with its number above.
fn starts_comparison(word: &str) -> bool {
    let word = word.to_ascii_lowercase();
    word == "between" || EN_BEFORE.iter().any(|(words, _)| words.split(' ').next() == Some(word.as_str()))
}

fn boundary_before(text: &str, words: &str) -> bool {
    let start = text.len() - words.len();
    text[..start].chars().next_back().is_none_or(|c| !c.is_alphanumeric())
}

fn unquote(value: &str) -> String {
    value.trim_matches(['"', '\'', '「', '」']).to_owned()
}

/// The counters a Japanese number may carry before the word that compares it (「730点以上」
/// 「5万円以外」); a comparison of size takes units of measure too (「3kg以上」).
const JA_COUNTERS: &str = "円|千円|万円|件|日|%|個|人|名|回|時間|点|台|本|枚|歳|ポイント";

static JA_AFTER: LazyLock<Regex> = LazyLock::new(|| {
    re(&format!(
        r"^\s*(?:{JA_COUNTERS}|ドル|分|秒|kg|km|L)?\s*(以上|以下|未満|を超え|超え|超過|超|より大き|より多|を上回|より小さ|より少な|を下回)"
    ))
});
static JA_EQUAL_AFTER: LazyLock<Regex> =
    LazyLock::new(|| re(&format!(r"^\s*(?:{JA_COUNTERS})?\s*(?:の|で|と|に|以外|じゃない)")));
static JA_ONE_ROW_PER_KEY: LazyLock<Regex> = LazyLock::new(|| {
    re(
        r"(?:ごと|単位|毎)に(?:最初の|最後の|先頭の|最新の|一番上の)?\s*(?:1|１|一)\s*(?:件|行)(?:だけ|のみ)?(?:を|に)?(?:残|して)",
    )
});
static JA_NOT_EQUAL_AFTER: LazyLock<Regex> =
    LazyLock::new(|| re(&format!(r"^\s*(?:{JA_COUNTERS})?\s*(?:で(?:は)?ない|じゃない|以外|と(?:は)?異なる|と違う)")));
static JA_BETWEEN: LazyLock<Regex> = LazyLock::new(|| re(r"(?:円)?\s*(?:~|から)\s*"));
static JA_STATUS: LazyLock<Regex> = LazyLock::new(|| {
    re(
        r"承認済み|承認済|未承認|未払い|未払|支払済み|支払済|未入金|入金済み|入金済|未処理|処理済み|処理済|未完了|完了|保留|却下|差し戻し|差戻し|差戻|否認|申請中|承認待ち|取消|キャンセル|延滞|期限切れ|未精算|精算済|未対応|対応済み|対応済|未発送|発送済み|発送済|未出荷|出荷済み|出荷済|未納|納品済み|納品済",
    )
});
static JA_QUOTED_EQ: LazyLock<Regex> = LazyLock::new(|| {
    re(
        r"(?P<field>[^\s、。をがはのに「」・]{1,16})(?:(?:が|は|=)「(?P<value>[^」]{1,30})」(?:の|で|と|に|である)|「(?P<v2>[^」]{1,30})」の)",
    )
});
/// 「出金のあった行」「備考が入っている行」: a column that has a value.
static JA_FILLED: LazyLock<Regex> = LazyLock::new(|| {
    re(
        r"(?P<field>[^\s、。をがはのに「」]{1,16})(?:の|が)(?:あった|ある|あるもの|入っている|入力されている|記入されている)(?:行|もの|データ|明細|分)",
    )
});
/// "where the memo is blank", "accounts that don't have an actual posted yet", "ones with no
/// paid_date yet": a column with no value.
static EN_BLANK: LazyLock<Regex> = LazyLock::new(|| {
    re(
        r"(?i)\b(?:where|whose|with|when|if) (?:the )?(?P<field>[a-z_][\w ]{0,20}?) (?:is|are) (?:blank|empty|missing)\b|\b(?:don'?t|do not|doesn'?t|does not) have (?:an?|any) (?P<f2>[a-z_]\w*) (?:posted|entered|recorded|filled in|filled|set) yet\b|\bwith no (?P<f3>[a-z_]\w*)(?: date| value)? yet\b",
    )
});
/// 「発注点が空欄の品目」「返却日が空欄、つまり…」「等級がまだ付いていない（空欄の）行」: a column
/// with no value (not 「空欄のままで大丈夫」, what a result may hold).
static JA_BLANK: LazyLock<Regex> = LazyLock::new(|| {
    re(
        r"(?P<field>[^\s、。をがはのに「」]{1,16})(?:が|は)(?:(?:空欄|空白|未入力|ブランク)(?:(?:の|に?なっている)\s*(?:[（(][^（）()]{0,30}[）)])?\s*(?:行|もの|品目|データ|明細|分|レコード|取引|件|[\p{Han}\p{Katakana}ー]{1,8}(?:を|だけ|のみ|は|、))|(?P<joined>、|で|なのに|かつ))|(?:まだ)?(?:付いて|ついて|入って|入力されて|記入されて|埋まって)(?:いない|ない)\s*(?:[（(](?:空欄|空白)の?[）)])?\s*(?:行|もの|品目|データ|明細|分|レコード|取引|件))",
    )
});
/// "rows with a withdrawal", "where the memo is not empty".
static EN_FILLED: LazyLock<Regex> = LazyLock::new(|| {
    re(
        r"(?i)\b(?:rows|lines|entries|ones|records|transactions) (?:with|that have|having) (?:a|an|some) (?P<field>[a-z_]+)\b|\b(?:where|whose|with) (?:the )?(?P<f2>[a-z_][\w ]{0,20}?) (?:is not|isn't) (?:empty|blank)\b",
    )
});
/// 「2件以上」「3回」: a number of rows or times.
static COUNT_OF_ROWS: LazyLock<Regex> = LazyLock::new(|| re(r"^\s*\d+\s*(?:件|回|行|人|名|個)"));
static JA_CONTAINS: LazyLock<Regex> = LazyLock::new(|| {
    re(
        r"(?P<field>[^\s、。をがはのに「」]{1,16})に「?(?P<value>[^」をが\s、]{1,20})」?(?:という(?:言葉|文字|語|単語|文字列))?(?:を|が)?(?:含|入って|入った)",
    )
});
fn over_column(column: &str) -> Condition {
    Condition { field: None, operator: OVER_COLUMN, value: Value::from(column), value2: None }
}

/// The conditions of a Japanese clause.
pub fn japanese(clause: &str) -> Vec<Condition> {
    // 「起票日から2026年11月30日までの経過日数」 counts days; it keeps no rows.
    let counted = super::shaping::JA_DAYS_BETWEEN.replace_all(clause, |c: &regex::Captures| " ".repeat(c[0].len()));
    let mut conditions = japanese_unmasked(&counted);
    // 「ステータスが「未対応」または「対応中」の」: any of the values quoted, of the column named.
    for c in JA_ANY_OF_QUOTED.captures_iter(&counted) {
        let values: Vec<String> = slots::quoted(&c["list"]).into_iter().map(|(value, _)| value).collect();
        if values.len() < 2 || c["after"].starts_with("以外") || c["after"].starts_with("を除") {
            continue;
        }
        conditions.retain(|k| !k.value.as_str().is_some_and(|v| values.iter().any(|q| q == v)));
        let field = Some(c["field"].to_owned());
        conditions.push(Condition { field, operator: "in", value: Value::from(values), value2: None });
    }
    // 「状態が「完了」「却下」以外」: every value listed before 以外 is left out.
    for other in JA_OTHER_THAN.find_iter(&counted) {
        for condition in conditions.iter_mut().filter(|c| c.operator == "eq") {
            let quoted = condition.value.as_str().map(|v| format!("「{v}」"));
            if quoted.is_some_and(|q| other.as_str().contains(&q)) {
                condition.operator = "ne";
            }
        }
    }
    // 「2026年4月1日以降に完了した工事」: the day compared is the day it was done (完了日), and
    // what was done is no state.
    if let Some(c) = JA_DATED_BY_ITS_VERB.captures(&counted) {
        let done = c["x"].to_owned();
        conditions.retain(|k| !(k.field.is_none() && k.operator == "eq" && k.value.as_str() == Some(done.as_str())));
        for condition in conditions.iter_mut().filter(|k| k.field.is_none() && super::is_date(&k.value)) {
            condition.field = Some(format!("{done}日"));
        }
    }
    // 「まだ精算していない（精算状況が「未精算」の）」: the column is named inside the aside.
    for condition in &mut conditions {
        let inside = condition.field.as_deref().and_then(|f| f.rsplit_once(['(', '（'])).map(|(_, after)| after.trim());
        if let Some(inside) = inside.filter(|f| !f.is_empty()).map(str::to_owned) {
            condition.field = Some(inside);
        }
    }
    conditions
}

/// 「まだ返却されていなくて」 of a clause that keeps rows: the rows whose date of it (返却日) is blank —
/// where nothing else says what the rows hold (「まだ精算していない（精算状況が「未精算」の）」 names its
/// column). (Not of a label's cases: 「…は「返却済」」 is said of them.)
pub fn japanese_not_yet_done(clause: &str, conditions: &mut Vec<Condition>) {
    if !conditions.iter().all(|c| c.field.is_none() && c.operator == "eq") {
        return;
    }
    if let Some(c) = JA_NOT_YET_DONE.captures(clause) {
        conditions.retain(|k| k.value.as_str().is_some_and(|v| !c[0].contains(v)));
        let field = Some(format!("{}日", &c["x"]));
        conditions.push(Condition { field, operator: "eq", value: Value::from(""), value2: None });
    }
}

/// 「…以降に完了した」「…までに納品された」: a day compared, then what was done on it.
static JA_DATED_BY_ITS_VERB: LazyLock<Regex> = LazyLock::new(|| {
    re(
        r"(?:以降|以後|以前|までに|まで|から|より前|より後)(?:[）)])?\s*に\s*(?P<x>\p{Han}{2,4})(?:した|された|済み|済の|済)",
    )
});

/// 「まだ返却されていない」「まだ入金されていなくて」: a thing not done yet, whose date is not filled in.
static JA_NOT_YET_DONE: LazyLock<Regex> =
    LazyLock::new(|| re(r"まだ(?P<x>\p{Han}{2,4})(?:されて|して)(?:い)?な(?:い|く)"));

/// Quoted values listed before 以外: 「「完了」「却下」以外」.
static JA_ANY_OF_QUOTED: LazyLock<Regex> = LazyLock::new(|| {
    re(
        r"(?P<field>[\p{Han}\p{Katakana}ーA-Za-z0-9_]{1,16})(?:が|は)\s*(?P<list>「[^」]{1,20}」(?:\s*(?:または|又は|もしくは|か|・|、|と|や)\s*「[^」]{1,20}」)+)(?:の(?:いずれか|どちらか|どれか))?(?P<after>[^。]{0,4})",
    )
});
static JA_OTHER_THAN: LazyLock<Regex> = LazyLock::new(|| re(r"(?:「[^」]{1,20}」\s*[・、と]?\s*)+以外"));

fn japanese_unmasked(clause: &str) -> Vec<Condition> {
    let (mut conditions, taken_spans) = spanned(clause, Language::Ja);
    let taken = |range: std::ops::Range<usize>| taken_spans.iter().any(|s| s.start < range.end && range.start < s.end);
    let numbers = slots::numbers(clause);
    let mut used: Vec<bool> = numbers.iter().map(|n| taken(n.start..n.end)).collect();
    // (「月（「2026年9月」のような形）ごとの」: the form of a month shown, no month kept.)
    let month = JA_MONTH.captures(clause).filter(|c| {
        let whole = c.get(0).expect("match");
        !taken(whole.range()) && !slots::shows_a_form(&clause[whole.end()..])
    });
    if let Some(c) = month {
        let whole = c.get(0).expect("match");
        if let Some((first, last)) = c["m"].parse().ok().and_then(|m| month_range(&c["y"], m)) {
            for (n, number) in numbers.iter().enumerate() {
                used[n] |= whole.range().contains(&number.start);
            }
            let field = ja_field_before(clause, whole.start()).filter(|f| f.contains('日'));
            conditions.push(Condition { field, operator: "between", value: first, value2: Some(last) });
        }
    } else if let Some((whole, first, last)) = japanese_whole_months_of_days(clause).filter(|(w, ..)| !taken(w.clone()))
    {
        // 「第3四半期（7/1〜9/30）」: whole months said by their days, without the year.
        for (n, number) in numbers.iter().enumerate() {
            used[n] |= whole.contains(&number.start);
        }
        let field = ja_field_before(clause, whole.start).filter(|f| f.contains('日'));
        let value2 = (last > first).then(|| Value::from(last));
        conditions.push(Condition { field, operator: MONTH_OF_UNSAID_YEAR, value: Value::from(first), value2 });
    } else if let Some(c) = JA_MONTH_ALONE
        .captures(clause)
        .filter(|c| !taken(c.get(0).expect("match").range()))
        // (「4月の転勤者」「4月入社の社員」: a month said of people, no period of the rows.)
        .filter(|c| !JA_OF_PEOPLE.is_match(&clause[c.name("m").expect("a month").end()..]))
    {
        let m = c.name("m").expect("a month");
        // 「10月・11月に出荷した分」: the months from the first said to the last, when they run on;
        // months apart (「4月・6月」) are no one range, and nothing is kept by them (asked).
        let together =
            JA_MONTHS_TOGETHER.captures(clause).filter(|t| t.get(0).expect("match").range().contains(&m.start()));
        let first = together.as_ref().map_or(m, |t| t.name("a").expect("a month"));
        for (n, number) in numbers.iter().enumerate() {
            used[n] |= number.start == m.start() || number.start == first.start();
        }
        let month: u32 = first.as_str().parse().expect("digits");
        let range = matches!(together.as_ref().map(|t| &t["sep"]), Some("〜" | "~" | "～" | "から" | "-" | "－" | "―"));
        let listed: Vec<u32> = together.as_ref().map_or_else(Vec::new, |t| {
            MONTH_NUMBER
                .find_iter(&t[0])
                .filter_map(|m| m.as_str().trim_end_matches('月').trim().parse().ok())
                .collect()
        });
        let field = ja_field_before(clause, first.start()).filter(|f| f.contains('日'));
        if let Some(value2) = months_run_on(&listed, range) {
            conditions.push(Condition { field, operator: MONTH_OF_UNSAID_YEAR, value: Value::from(month), value2 });
        }
    }
    for i in 0..numbers.len() {
        if used[i] {
            continue;
        }
        let number = numbers[i];
        // 「1万円〜5万円」「1万から5万まで」
        if let Some(next) = numbers.get(i + 1) {
            let gap = &clause[number.end..next.start];
            if JA_BETWEEN.find(gap).is_some_and(|m| m.start() == 0 && m.end() == gap.len()) {
                used[i + 1] = true;
                conditions.push(Condition {
                    field: ja_field_before(clause, number.start),
                    operator: "between",
                    value: number_value(number.value),
                    value2: Some(number_value(next.value)),
                });
                continue;
            }
        }
        let Some(c) = JA_AFTER.captures(&clause[number.end..]) else {
            // 「在庫数が 0 の品目」: a column equal to a number.
            let before = clause[..number.start].trim_end();
            if (before.ends_with('が') || before.ends_with('=')) && JA_EQUAL_AFTER.is_match(&clause[number.end..]) {
                // 「差額が0でないもの」「0以外」: any other number.
                let other = JA_NOT_EQUAL_AFTER.is_match(&clause[number.end..]);
                conditions.push(Condition {
                    field: ja_field_before(clause, number.start),
                    operator: if other { "ne" } else { "eq" },
                    value: number_value(number.value),
                    value2: None,
                });
            }
            continue;
        };
        let operator = match &c[1] {
            "以上" => "gte",
            "以下" => "lte",
            "未満" | "より小さ" | "より少な" | "を下回" => "lt",
            _ => "gt",
        };
        // 「2回以上NGになったテストケース」: how often rows say so, no column's amount (「回数が2回
        // 以上」 names its column).
        let field = ja_field_before(clause, number.start);
        if field.is_none() && c[0].trim_start().starts_with('回') {
            continue;
        }
        conditions.push(Condition { field, operator, value: number_value(number.value), value2: None });
    }
    // 「結果がNGのもの」「区分がA の行」: a code in Latin letters said of a column.
    for c in JA_CODE_EQ.captures_iter(clause) {
        if !taken(c.get(0).expect("match").range()) && !JA_ROW_NOUNS.contains(&&c["field"]) {
            let value = Value::from(&c["value"]);
            conditions.push(Condition { field: Some(c["field"].to_owned()), operator: "eq", value, value2: None });
        }
    }
    // 「機能ごとにNGの件数を」「NGのものを数えて」: a code in capitals said of the rows counted.
    if conditions.is_empty() {
        if let Some(v) = JA_CODE_OF_ROWS.captures(clause).and_then(|c| c.name("value")) {
            conditions.push(Condition { field: None, operator: "eq", value: Value::from(v.as_str()), value2: None });
        }
    }
    for c in JA_QUOTED_EQ.captures_iter(clause) {
        // 「重要度「高」の不具合」: a column's name right before its quoted value.
        let value = c.name("value").or(c.name("v2")).expect("a value");
        // 「月は「2026-07」のような形で」 shows a form; it keeps no rows.
        let after = &clause[value.end() + "」".len()..];
        if slots::shows_a_form(&clause[value.end()..]) {
            continue;
        }
        if ["から", "まで", "より", "など", "列", "列名"].contains(&&c["field"]) {
            continue;
        }
        // 「「入金額」の列名は」 names a column; 「「支払日・支払先・金額」の3つ」 lists columns.
        let names_a_column = c.name("v2").is_some()
            && (["列", "項目", "カラム"].iter().any(|w| after.trim_start_matches('の').starts_with(w))
                || value.as_str().contains(['・', '、']));
        if names_a_column {
            continue;
        }
        conditions.push(Condition {
            field: Some(c["field"].to_owned()).filter(|f| !a_verb_of_the_rows(f)),
            operator: "eq",
            value: Value::from(value.as_str()),
            value2: None,
        });
    }
    // 「同じ環境・同じ利用日に2件以上予約が入っている」: a count of rows said, no text a cell holds.
    let counted = |said: &str| COUNT_OF_ROWS.is_match(said);
    for c in JA_CONTAINS.captures_iter(clause) {
        // (「012 のように頭の0も含めて」: including it too, no text a cell holds.)
        if counted(&c["value"]) || c["value"].ends_with('も') {
            continue;
        }
        conditions.push(Condition {
            field: Some(c["field"].to_owned()),
            operator: "contains",
            value: Value::from(&c["value"]),
            value2: None,
        });
    }
    for c in JA_BLANK.captures_iter(clause) {
        // 「請求番号が空欄の行もありますが」: what the data holds, said in passing.
        let after = &clause[c.get(0).expect("match").end()..];
        if after.starts_with("もあ") || after.starts_with("がある") || after.starts_with("があり") {
            continue;
        }
        // (「返却日が空欄、つまりまだ戻っていない本」: a condition joined to the rows it keeps; not
        // 「空欄で大丈夫です」, what a result may hold.)
        let fine = ["大丈夫", "構いません", "かまいません", "いい", "よい", "良い", "OK", "問題"];
        if c.name("joined").is_some() && fine.iter().any(|w| after.trim_start_matches(['、', ' ']).starts_with(w)) {
            continue;
        }
        conditions.push(Condition {
            field: Some(c["field"].to_owned()),
            operator: "eq",
            value: Value::from(""),
            value2: None,
        });
    }
    for c in JA_FILLED.captures_iter(clause) {
        if counted(&c["field"]) {
            continue;
        }
        let field =
            ["から", "より", "まで", "で"].iter().fold(&c["field"], |f, p| f.strip_prefix(p).unwrap_or(f)).trim();
        if !field.is_empty() {
            conditions.push(Condition {
                field: Some(field.to_owned()),
                operator: "ne",
                value: Value::from(""),
                value2: None,
            });
        }
    }
    // (「状態が「修理完了」のもの … 修理完了一覧.csv に」: 完了 inside a value read, or inside a
    // file's name, is no state of its own.)
    let files = slots::file_spans(clause);
    let values: Vec<String> = conditions.iter().filter_map(|c| c.value.as_str().map(str::to_owned)).collect();
    let inside_a_value = |m: &regex::Match| {
        values.iter().any(|v| {
            clause
                .match_indices(v.as_str())
                .any(|(at, _)| at <= m.start() && m.end() <= at + v.len() && v.len() > m.len())
        })
    };
    for m in JA_STATUS.find_iter(clause) {
        let in_a_file = files.iter().any(|f| f.contains(&m.start()));
        if conditions.iter().any(|c| c.value.as_str() == Some(m.as_str())) || in_a_file || inside_a_value(&m) {
            continue;
        }
        let field = ja_field_before(clause, m.start()).filter(|_| {
            let before = clause[..m.start()].trim_end();
            before.ends_with('が') || before.ends_with('は') || before.ends_with('=')
        });
        // 「状態が承認済以外」「完了でない」: every other state.
        let operator = if JA_NOT_EQUAL_AFTER.is_match(&clause[m.end()..]) { "ne" } else { "eq" };
        conditions.push(Condition { field, operator, value: Value::from(m.as_str()), value2: None });
    }
    // 「上回っていれば「超過」」: a condition of a label, not of the rows kept.
    let labels = ["れば", "なら", "場合は", "そうでなければ", "それ以外は"].iter().any(|w| clause.contains(w));
    if conditions.is_empty() && !labels {
        if let Some(x) = JA_OVER_COLUMN.captures(clause).and_then(|c| c.name("x")) {
            let after_number = clause[..x.start()].chars().next_back().is_some_and(char::is_numeric);
            if !after_number && !JA_ROW_NOUNS.contains(&x.as_str()) {
                conditions.push(over_column(x.as_str()));
            }
        }
    }
    // 「「決裁済」の稟議だけ」: the value quoted, not what the rows are.
    if conditions.is_empty() {
        if let Some(v) = JA_QUOTED_ONLY.captures(clause).and_then(|c| c.name("v")) {
            conditions.push(Condition { field: None, operator: "eq", value: Value::from(v.as_str()), value2: None });
        }
    }
    // 「営業部の人だけ」「確定分について」: a value kept, its column the one whose values hold it
    // (bound with the data).
    if conditions.is_empty() {
        if let Some(v) = JA_ONLY_VALUE.captures(clause).and_then(|c| c.name("v").or_else(|| c.name("portion"))) {
            // (「確定分だけ」: the rows of 確定; not 「区分」「按分」「半分」, words of their own.)
            const OF_ITS_OWN: [char; 14] =
                ['区', '配', '按', '部', '半', '処', '成', '自', '身', '余', '気', '等', '多', '十'];
            let value = match v.as_str().strip_suffix('分') {
                Some(of) if of.chars().count() >= 2 && !of.ends_with(OF_ITS_OWN) => of,
                _ => v.as_str(),
            };
            // 「未納の発注だけ」「承認済の経費だけ」: the state said before the rows' noun.
            // (「確定した売上だけ」: the state done to them.)
            let done_before = clause[..v.start()]
                .strip_suffix("した")
                .and_then(|before| japanese_noun_before(before, before.len()))
                .filter(|s| s.chars().all(|c| matches!(c, '\u{4e00}'..='\u{9fff}')) && s.chars().count() == 2);
            let state_before = clause[..v.start()]
                .strip_suffix('の')
                .and_then(|before| japanese_noun_before(before, before.len()))
                .map(|s| {
                    ["から", "より", "で"]
                        .iter()
                        .fold(s.clone(), |s, p| s.strip_prefix(p).map_or(s.clone(), str::to_owned))
                })
                .filter(|s| s.starts_with('未') || ["済", "済み", "中", "完了", "確定"].iter().any(|e| s.ends_with(e)));
            let value = state_before.as_deref().or(done_before.as_deref()).unwrap_or(value);
            let relative = [
                "今月", "先月", "前月", "当月", "今年", "昨年", "今週", "先週", "今日", "昨日", "最新", "最後", "片方",
                "両方", "一方", "他方", "全部", "全件", "一部",
                // (「該当の方だけ」: the rows the other words find.)
                "該当", "上記",
            ];
            // 「上位3部署だけ」: the rows a top N keeps, named by what they are.
            let counted = clause[..v.start()].chars().next_back().is_some_and(char::is_numeric);
            if !counted
                && !JA_ROW_NOUNS.contains(&value)
                && !relative.contains(&value)
                && slots::is_japanese_noun(value)
            {
                conditions.push(Condition { field: None, operator: "eq", value: Value::from(value), value2: None });
            }
        }
    }
    // 「日付は YYYY-MM-DD で」: the form dates are written in, not which rows.
    conditions.retain(|c| {
        !c.value.as_str().is_some_and(|v| {
            let v = v.to_ascii_uppercase();
            ["YYYY-MM-DD", "YYYY/MM/DD", "YYYY-MM", "YYYY/MM"].contains(&v.as_str())
        })
    });
    // 「1円未満は切り捨て」: how to round, not which rows.
    for c in JA_ROUNDING.captures_iter(clause) {
        let unit: f64 = c["n"].parse().unwrap_or(f64::NAN);
        conditions.retain(|k| !(k.operator == "lt" && k.value.as_f64() == Some(unit)));
    }
    // 「受注明細.csv から受注日が…」: the particle after a file's name is not the column's.
    for condition in &mut conditions {
        if let Some(field) = &mut condition.field {
            if let Some(rest) =
                ["から", "より", "うち"].iter().find_map(|p| field.strip_prefix(p)).filter(|r| !r.is_empty())
            {
                *field = rest.to_owned();
            }
        }
    }
    distinct(conditions)
}

static JA_CODE_OF_ROWS: LazyLock<Regex> =
    LazyLock::new(|| re(r"(?:^|[^A-Za-z0-9_.])(?P<value>[A-Z]{2,5})(?:の(?:件数|もの|行|ケース|テスト)|件数)"));
static JA_CODE_EQ: LazyLock<Regex> = LazyLock::new(|| {
    re(
        r"(?P<field>[\p{Han}\p{Katakana}ー]{1,12}|[A-Za-z_][A-Za-z0-9_]{0,30})(?:が|は)\s*(?P<value>[A-Za-z][A-Za-z0-9_-]{0,15})\s*(?:の|で|に(?:なった|なっている))(?:もの|行|データ|分|件|明細|案件|テスト)?",
    )
});
static JA_ROUNDING: LazyLock<Regex> =
    LazyLock::new(|| re(r"(?P<n>\d+)\s*円?未満(?:は|を)?(?:切り捨て|切捨て|切り上げ|切上げ|四捨五入)"));
static JA_QUOTED_ONLY: LazyLock<Regex> =
    LazyLock::new(|| re(r"「(?P<v>[^「」、。]{1,20})」の?[\p{Han}\p{Katakana}ー々]{0,8}(?:だけ|のみ)"));
static JA_ONLY_VALUE: LazyLock<Regex> = LazyLock::new(|| {
    re(
        r"(?P<v>[\p{Han}\p{Katakana}ー々A-Za-z]{2,16})(?:の(?:人|方|社員|もの|行|分|データ|明細|取引|案件))?(?:だけ|のみ)|(?P<portion>[\p{Han}\p{Katakana}ー々]{2,8})分(?:について|を対象|に限)",
    )
});

/// The column named before a value: `金額が` → `金額`; none for words that name rows.
fn ja_field_before(clause: &str, end: usize) -> Option<String> {
    let before = clause[..end].trim_end_matches([' ', 'が', 'は', 'の', 'で', ':', '=', '¥', '$']);
    // 「前年比（今年度÷前年度×100）が100%未満」: the column named before its aside.
    let before = match before.strip_suffix(['）', ')']) {
        Some(inner) => inner.rfind(['（', '(']).map_or(before, |open| &inner[..open]),
        None => before,
    };
    japanese_noun_before(before, before.len())
        .filter(|noun| !JA_ROW_NOUNS.contains(&noun.as_str()) && !a_verb_of_the_rows(noun))
}

/// 「11月に申請された「決裁済」の稟議」: a verb said of the rows, which names no column.
fn a_verb_of_the_rows(word: &str) -> bool {
    // (「された」「受け付けた」「する」「している」: た or る after kana ends a verb, no name.)
    let mut last = word.chars().rev();
    matches!((last.next(), last.next()), (Some('た' | 'る'), Some('\u{3041}'..='\u{309f}')))
}

static EN_AGG: LazyLock<Regex> = LazyLock::new(|| {
    re(
        r"(?i)\b(total|totals|totall?ed|totall?ing|sum|sums|summed|summing|subtotal|subtotals|add up|count|counts|number of|how many|how much|average|mean|maximum|max|highest|largest|minimum|min|lowest|smallest)\b",
    )
});
static EN_BY: LazyLock<Regex> = LazyLock::new(|| {
    re(
        r"(?i)\b(per|by|for each|for every|in each|(?:with|to|from|on|at|across|did|does|do|has|have|had) (?:each|every)|grouped by|group by|broken down by|split by|(?:paid|pay|spent|spend|billed|bill|charged|charge|owed|owe|sold|sell|invoiced|invoice)(?: (?:on|for|to|in)(?: [a-z-]+){1,3})? each)\s+",
    )
});

fn en_op(word: &str) -> &'static str {
    match word.to_ascii_lowercase().as_str() {
        "count" | "counts" | "number of" | "how many" => "count",
        "how much" => "sum",
        "average" | "mean" => "avg",
        "maximum" | "max" | "highest" | "largest" => "max",
        "minimum" | "min" | "lowest" | "smallest" => "min",
        _ => "sum",
    }
}

/// The grouping and aggregations of an English clause, and where the first is.
static EN_EACH_OWN: LazyLock<Regex> = LazyLock::new(|| re(r"\b(?:each|every)\s+([a-z][\w]*)'s\b"));
static EN_TOP_BEFORE_BY: LazyLock<Regex> =
    LazyLock::new(|| re(r"\b(?:top|bottom|first|last|largest|biggest|smallest)(?:\s+\w+){1,3}$"));

/// "with their total hours and number of lessons", "plus the number of lessons": measures said
/// on their own after the totals, more of them.
pub static MORE_OF_THE_TOTALS: LazyLock<Regex> = LazyLock::new(|| {
    re(
        r"^\s*(?:with (?:their|its|each one's)|along with (?:the|their|its)|plus (?:the|their|its)|and also (?:the|their|its)|including (?:the|their|its)|include (?:the|their|its))\s",
    )
});

/// "… did each employee log": a question of each thing's own amount.
static HOW_MANY_EACH: LazyLock<Regex> = LazyLock::new(|| re(r"^(?:did|do|does|has|have|had)\s+(?:each|every)\b"));

/// Words that start a question's verb ("how much did we pay"), no column.
const AUXILIARIES: &[&str] = &["did", "do", "does", "have", "has", "had", "was", "were", "is", "are", "we", "they"];

/// Verbs of money moved, said after "total" for the amounts moved: "the total paid".
const MONEY_MOVED: &[&str] = &["paid", "spent", "billed", "invoiced", "charged", "received", "owed", "refunded"];

/// "List the vendors from payments.csv with their total amount": the things listed, each with
/// its total.
static EN_LISTED_WITH_THEIR_TOTAL: LazyLock<Regex> = LazyLock::new(|| {
    re(
        r"(?i)\b(?:list|show|give me|return|report|each|every)\s+(?:the\s+|each\s+|every\s+|all\s+(?:the\s+)?)?(?:(?:top|bottom|first|last)\s+(?:\d+|two|three|four|five|six|seven|eight|nine|ten)\s+)?(?P<key>[a-z_][\w]*)\b[^.;]{0,60}?\bwith\s+(?:their|its)\s+(?:total|sum|combined)\b",
    )
});

/// "Give me the vendor, …" right before a clause of totals: the key, listed first.
static EN_KEY_LISTED_BEFORE: LazyLock<Regex> = LazyLock::new(|| {
    re(
        r"(?i)\b(?:give me|list|show|show me|want|need|return|report)\s+(?:the\s+|each\s+)?(?P<key>[a-z_][\w]*(?: [a-z_][\w]*)?)\s*,\s*$",
    )
});

/// "For each customer in invoices.csv, total …": the groups said in a clause of their own right
/// before the totals.
static EN_EACH_SAID_BEFORE: LazyLock<Regex> = LazyLock::new(|| {
    re(
        r"(?i)(?:^|[.;:]\s*)(?:for|in) (?:each|every) (?P<key>[a-z_][\w]*(?: [a-z_][\w]*)?)(?:\s+(?:in|from|of)\s+(?:the\s+)?[\w.-]+\.(?:csv|xlsx|xls|tsv))?\s*,\s*$",
    )
});

/// "One row per month with the month written like 2026-09, the number of jobs and …": the
/// groups said before the totals listed.
static EN_ONE_ROW_PER_SAID_BEFORE: LazyLock<Regex> = LazyLock::new(|| {
    re(r"(?i)(?:^|[.;:]\s*)one (?:row|line|entry) (?:per|for each|for every|a) (?P<key>[a-z_][\w]*)\b[^.;:]*,\s*$")
});

static EN_SLASHED_PAIR: LazyLock<Regex> =
    LazyLock::new(|| re(r"^\s*(?:the\s+)?(?P<a>[a-z_][\w]*)\s*[/+&]\s*(?P<b>[a-z_][\w]*)\b"));

/// "store and vendor pair", "site and reason combination": two columns said as one group; the
/// last of them without the word for the group.
fn without_pair_word(key: &str) -> &str {
    [" pair", " pairs", " combination", " combinations", " combo"]
        .iter()
        .find_map(|w| key.strip_suffix(w))
        .unwrap_or(key)
}

/// `before` is the instruction up to the clause: "Give me the vendor, the number of payments
/// and the total paid" lists the key of the totals there.
pub fn english_aggregate(clause: &str, before: &str) -> Option<(Vec<String>, Vec<Aggregation>, usize)> {
    let lower = clause.to_ascii_lowercase();
    let listed_before = EN_KEY_LISTED_BEFORE
        .captures(before)
        .or_else(|| EN_EACH_SAID_BEFORE.captures(before))
        .or_else(|| EN_ONE_ROW_PER_SAID_BEFORE.captures(before))
        .and_then(|c| c.name("key"));
    let listed_before = listed_before.map(|k| k.as_str().to_owned()).filter(|k| !slots::is_row_noun(k));
    let mut by: Vec<String> = listed_before.into_iter().collect();
    let mut first = None;
    if let Some(c) = EN_LISTED_WITH_THEIR_TOTAL.captures(&lower).filter(|_| by.is_empty()) {
        let key = slots::singular(&c["key"]);
        if !slots::is_row_noun(&key) {
            first = c.get(0).map(|m| m.start());
            by.push(key);
        }
    }
    for m in EN_BY.find_iter(&lower) {
        let before = lower[..m.start()].trim_end();
        // "the top 5 invoices by amount" ranks rows by a column; it groups nothing. (The word
        // before, whole: "duration per module" is no "on".)
        let previous = before.rsplit(|c: char| !c.is_ascii_alphanumeric()).next().unwrap_or_default();
        if ["sorted", "ordered", "match", "matching", "matched", "reconcile", "join", "joined", "merge", "on"]
            .contains(&previous)
            || EN_TOP_BEFORE_BY.is_match(before)
        {
            continue;
        }
        // "for each department/category combination", "one row per site + reason": two columns,
        // one group.
        if let Some(c) = EN_SLASHED_PAIR.captures(&lower[m.end()..]) {
            first.get_or_insert(m.start());
            let at = m.end();
            by.extend(
                ["a", "b"].iter().filter_map(|g| c.name(g)).map(|g| clause[at + g.start()..at + g.end()].to_owned()),
            );
            continue;
        }
        // "how many expenses did each employee submit": the verb of the question ends the key.
        let asked_of_each = ["did", "does", "do", "has", "have", "had"].iter().any(|w| m.as_str().starts_with(w));
        let phrase = english_phrase_after(clause, m.end()).map(|phrase| match phrase.rsplit_once(' ') {
            Some((key, _verb)) if asked_of_each => key.to_owned(),
            _ => phrase,
        });
        if let Some(phrase) = phrase {
            // "every claim in each duplicate group": the groups of a duplicate check, not a total.
            let group_word = phrase.to_ascii_lowercase().ends_with("group") || phrase.eq_ignore_ascii_case("pair");
            if slots::is_row_noun(&phrase) || phrase.chars().all(|c| c.is_ascii_digit()) || group_word {
                continue;
            }
            first.get_or_insert(m.start());
            let pair = phrase.contains(" and ");
            for part in phrase.split(" and ") {
                by.push(if pair { without_pair_word(part) } else { part }.to_owned());
            }
            // "by department and month"
            let rest = &lower[m.end()..];
            if let Some(and) = rest.find(" and ") {
                // ("per instructor, and the number of lessons": a measure, no second key.)
                let a_measure = [
                    "the number of ",
                    "number of ",
                    "the count",
                    "the total",
                    "total ",
                    "how many",
                    "the average",
                    "average ",
                ]
                .iter()
                .any(|w| rest[and + 5..].starts_with(w));
                if rest[..and].split_whitespace().count() <= 3 && !a_measure {
                    if let Some(second) = english_phrase_after(clause, m.end() + and + 5) {
                        // ("per employee … and add their department": a verb, no key.)
                        let second_lower = second.to_ascii_lowercase();
                        let first_word = second_lower.split(' ').next().unwrap_or_default();
                        let a_verb = super::words::EN.verb.is_match(&second_lower)
                            || ["add", "include", "bring", "show", "attach", "append", "look", "use"]
                                .contains(&first_word);
                        if !slots::is_row_noun(&second) && !a_verb {
                            by.push(without_pair_word(&second).to_owned());
                        }
                    }
                }
            }
        }
    }
    // "per asset category, … in each category": the same key said again, shorter.
    let said_longer = |k: &String, by: &[String]| {
        by.iter()
            .any(|other| other.len() > k.len() && other.to_lowercase().ends_with(&format!(" {}", k.to_lowercase())))
    };
    let all = by.clone();
    by.retain(|k| !said_longer(k, &all));
    // ("by store and vendor: one row for each store + vendor pair": the keys said twice.)
    let mut said = std::collections::HashSet::new();
    by.retain(|k| said.insert(k.to_lowercase()));
    // "each person's average hours": a group said with a possessive.
    if let Some(c) = EN_EACH_OWN.captures(&lower) {
        let who = slots::singular(&c[1]);
        if !slots::is_row_noun(&who) && !by.contains(&who) {
            first = Some(
                first.map_or(c.get(0).expect("match").start(), |f: usize| f.min(c.get(0).expect("match").start())),
            );
            by.push(who);
        }
    }
    // "average hours per day" per person: a rate, when something else is the group.
    if by.len() > 1 {
        by.retain(|b| !matches!(b.as_str(), "day" | "hour"));
    }
    let mut aggregations: Vec<Aggregation> = Vec::new();
    let orders = super::shaping::order_phrases(&lower);
    for m in EN_AGG.find_iter(&lower).filter(|m| !orders.iter().any(|o| o.contains(&m.start()))) {
        let op = en_op(m.as_str());
        // ("How much did the bank charge us in fees each month?": what is measured and its sign
        // are not said; a question of each vendor's amounts is.)
        if m.as_str().eq_ignore_ascii_case("how much") && by.is_empty() {
            continue;
        }
        // "Total the amounts", not "invoice_date and total out of every PDF".
        let next = lower[m.end()..].split_whitespace().next().unwrap_or_default();
        // "highest first", "largest to smallest": an order, not a maximum.
        let previous = lower[..m.start()].split_whitespace().next_back().unwrap_or_default();
        if matches!(op, "max" | "min")
            && (matches!(next, "first" | "to" | "down" | "on" | "at" | "up") || matches!(previous, "to" | "from"))
        {
            continue;
        }
        // "Only count tickets whose Status is Closed" says which rows count, not a count;
        // "(Partially Paid and Void don't count)", "refunds count too" say which rows qualify.
        let qualifies = ["don't", "dont", "not", "doesn't", "also", "still", "all"].contains(&previous)
            || matches!(next, "too" | "as" | "either")
            || lower[m.end()..].trim_start().starts_with([')', '.', ';']) && previous != "the";
        if op == "count" && (lower[..m.start()].trim_end().ends_with("only") || next == "only" || qualifies) {
            continue;
        }
        // "how many days did the customer take to pay": a measure of each row, no count of rows.
        // ("how many non-billable hours": the unit after one word that says which.)
        let said_after = lower[m.end()..].trim_start().trim_start_matches("the ");
        let mut after_words = said_after.split_whitespace();
        let measured = match (after_words.next(), after_words.next()) {
            (Some(first), Some(unit)) if !TIME_UNITS.contains(&first) && TIME_UNITS.contains(&unit) => {
                Some(&said_after[..first.len() + 1 + unit.len()])
            }
            (first, _) => first,
        };
        let unit_said = |said: &str| said.rsplit(' ').next().is_some_and(|unit| TIME_UNITS.contains(&unit));
        if op == "count" && measured.is_some_and(unit_said) {
            // ("how many hours did each employee log", "how many non-billable hours per
            // project": the hours of each, added up.)
            let after_unit = said_after[measured.map_or(0, str::len)..].trim_start();
            let asked_of_each =
                HOW_MANY_EACH.is_match(after_unit) || EN_BY.find(after_unit).is_some_and(|b| b.start() == 0);
            if let Some(unit) =
                measured.filter(|_| !by.is_empty() && asked_of_each && m.as_str().eq_ignore_ascii_case("how many"))
            {
                let field = Some(unit.to_owned());
                if !aggregations.iter().any(|a| a.op == "sum" && a.field == field) {
                    first = Some(first.map_or(m.start(), |f: usize| f.min(m.start())));
                    aggregations.push(Aggregation { op: "sum", field, name: None, when: Vec::new() });
                }
            }
            continue;
        }
        let starts_clause = lower[..m.start()].split_whitespace().count() <= 1
            && !matches!(next, "out" | "of" | "in" | "on" | "and" | "or" | "is" | "was" | "to" | "amount" | "amounts");
        let starts_clause =
            starts_clause || (lower[..m.start()].trim().is_empty() && matches!(next, "amount" | "amounts"));
        // ("…, most first, with their total hours and number of lessons": more of the totals said before.)
        let starts_clause = starts_clause
            || MORE_OF_THE_TOTALS.is_match(&lower[..m.start()]) && lower[..m.start()].split_whitespace().count() <= 6;
        // ("the average uptime and the minimum uptime": the next measure of a list read.)
        static LIST_GOES_ON: LazyLock<Regex> = LazyLock::new(|| re(r"(?:,|\band)\s+(?:(?:the|their|its)\s+)?$"));
        let starts_clause = starts_clause || !aggregations.is_empty() && LIST_GOES_ON.is_match(&lower[..m.start()]);
        if by.is_empty() && !starts_clause {
            continue;
        }
        let mut after = m.end();
        // ("the average uptime": a word that starts with "up" is no "total up".)
        for skip in [" up", " of", " the"] {
            let rest = &lower[after..];
            if rest.starts_with(skip) && !rest[skip.len()..].starts_with(|c: char| c.is_alphanumeric() || c == '_') {
                after += skip.len();
            }
        }
        // "total up what we paid": a clause, not a column.
        let clause_word = |f: &String| {
            matches!(f.split(' ').next(), Some("what" | "how" | "which" | "who" | "where" | "whatever" | "everything"))
        };
        // ("total the approved claims", "the approved October 2026 claims": the rows said with
        // what keeps them, no column.)
        const ROWS: [&str; 14] = [
            "rows",
            "lines",
            "records",
            "entries",
            "items",
            "invoices",
            "payments",
            "expenses",
            "transactions",
            "orders",
            "claims",
            "receipts",
            "bills",
            "deposits",
        ];
        // ("the approved Q3 trips": a plural noun after the words is the rows, unless it is what
        // is measured, "the overtime hours".)
        const MEASURES: [&str; 16] = [
            "hours",
            "days",
            "minutes",
            "seconds",
            "units",
            "amounts",
            "costs",
            "fees",
            "points",
            "totals",
            "miles",
            "pieces",
            "quantities",
            "values",
            "prices",
            "taxes",
        ];
        let names_rows = |word: &str| {
            ROWS.contains(&word)
                || ROWS.iter().any(|rows| rows.strip_suffix('s') == Some(word))
                || word.len() > 3 && word.ends_with('s') && !word.ends_with("ss") && !MEASURES.contains(&word)
        };
        let rows_said = |f: &String| {
            let ends_in_rows =
                f.rsplit(' ').next().is_some_and(|last| f.contains(' ') && names_rows(&last.to_ascii_lowercase()));
            let rest = lower[after..].trim_start().strip_prefix(f.to_ascii_lowercase().as_str()).unwrap_or_default();
            let next = rest.split_whitespace().next().unwrap_or_default();
            ends_in_rows || names_rows(next.trim_matches(|c: char| !c.is_alphanumeric()))
        };
        let field = english_phrase_after(clause, after)
            .filter(|f| !slots::is_row_noun(f) && !by.contains(f) && !EN_AGG.is_match(f) && !clause_word(f))
            .filter(|f| !rows_said(f))
            .filter(|_| op != "count");
        // "how much did we pay each vendor": the amounts paid.
        let asked_how_much = m.as_str().eq_ignore_ascii_case("how much");
        let field = match field {
            Some(f) if asked_how_much && f.split(' ').next().is_some_and(|w| AUXILIARIES.contains(&w)) => None,
            field => field,
        };
        // "how much did each server get in card tips": the amounts said after the verb.
        static GOT_IN: LazyLock<Regex> = LazyLock::new(|| {
            re(
                r"\b(?:get|got|earn|earned|receive|received|make|made|take|took|bring|brought)\s+in\s+(?:the\s+)?([a-z_][\w]*(?:\s+[a-z_][\w]*)?)",
            )
        });
        let got_in = || {
            let c = GOT_IN.captures(&lower[after..])?;
            english_phrase_after(clause, after + c.get(1)?.start())
        };
        let field = field.or_else(|| asked_how_much.then(got_in).flatten());
        let field = field.or_else(|| asked_how_much.then(|| "amount".to_owned()));
        // "the total paid", "total spent": the amounts paid, the total named as said.
        let (field, name) = match field {
            Some(f) if op == "sum" && MONEY_MOVED.contains(&f.to_ascii_lowercase().as_str()) => {
                (Some("amount".to_owned()), Some(format!("total_{}", f.to_ascii_lowercase())))
            }
            field => (field, None),
        };
        // "total hours and billable hours per employee": a second column said after "and",
        // before the key, totalled alike.
        let second = field.as_ref().filter(|_| name.is_none()).and_then(|_| {
            let rest = &lower[after..];
            let and = rest.find(" and ").filter(|&at| {
                rest[..at].split_whitespace().count() <= 3 && !rest[..at].contains([',', '.', ';', ':', '('])
            })?;
            let second = english_phrase_after(clause, after + and + 5)?;
            let second_lower = second.to_ascii_lowercase();
            let said_at = after + and + 5 + rest[and + 5..].find(second_lower.split(' ').next()?)?;
            let after_second = lower[said_at..].split_whitespace().skip(second.split(' ').count()).collect::<Vec<_>>();
            let key_follows =
                EN_BY.find(&after_second.join(" ")).is_some_and(|b| b.start() == 0) || after_second.is_empty();
            let a_column = !slots::is_row_noun(&second)
                && !by.contains(&second)
                && !EN_AGG.is_match(&second)
                && !clause_word(&second)
                && !super::words::EN.verb.is_match(&second_lower);
            (key_follows && a_column).then_some(second)
        });
        for field in std::iter::once(field).chain(second.map(Some)) {
            if !aggregations.iter().any(|a| a.op == op && a.field == field) {
                first = Some(first.map_or(m.start(), |f: usize| f.min(m.start())));
                aggregations.push(Aggregation { op, field, name: name.clone(), when: Vec::new() });
            }
        }
    }
    // "revenue (sum), cost (sum)": each column totalled as itself.
    for c in EN_TOTAL_IN_BRACKETS.captures_iter(&lower) {
        let op = match &c["op"] {
            "average" | "avg" | "mean" => "avg",
            "count" => "count",
            "max" | "maximum" => "max",
            "min" | "minimum" => "min",
            _ => "sum",
        };
        let whole = c.get(0).expect("match");
        let field = clause[c.name("field").expect("field").range()].to_owned();
        if !by.contains(&field) && !aggregations.iter().any(|a| a.field.as_ref() == Some(&field)) {
            first = Some(first.map_or(whole.start(), |f: usize| f.min(whole.start())));
            aggregations.push(Aggregation { op, field: Some(field.clone()), name: Some(field), when: Vec::new() });
        }
    }
    // "What is the stock value (units times unit_cost) per warehouse?": a measure asked of each
    // group, added up.
    if let Some(c) = EN_WHAT_IS_PER.captures(&lower).filter(|_| aggregations.is_empty() && !by.is_empty()) {
        let measure = c.name("x").expect("measure");
        let field = clause[measure.range()].trim().to_owned();
        // (A measure: made by the formula in the aside, or named as one — not "the department
        // per employee", a lookup, nor "this by EOD".)
        let made = c.name("made").is_some();
        let last = field.rsplit(' ').next().unwrap_or_default().to_ascii_lowercase();
        let a_measure = made || MEASURE_WORDS.contains(&last.trim_end_matches('s'));
        if a_measure && !by.contains(&field) && !slots::is_row_noun(&field) {
            first = Some(first.map_or(measure.start(), |f: usize| f.min(measure.start())));
            aggregations.push(Aggregation { op: "sum", field: Some(field), name: None, when: Vec::new() });
        }
    }
    if aggregations.is_empty() && by.is_empty() {
        return None;
    }
    if aggregations.is_empty() {
        if !lower.contains("group") {
            return None;
        }
        aggregations.push(Aggregation { op: "count", field: None, name: None, when: Vec::new() });
    }
    // "the average build time per pipeline from runs.csv (duration_min)": the one column named
    // in an aside is the column of the one total said in words.
    // (Said after the file or the words of the total; not "each cost center (from_cc)", a key.)
    let mut measured = aggregations.iter_mut().filter(|a| a.field.is_some());
    if let (Some(only), None) = (measured.next(), measured.next()) {
        let said = only.field.clone().unwrap_or_default().to_ascii_lowercase();
        let named_aside: Vec<&str> = EN_COLUMN_IN_ASIDE
            .captures_iter(&lower)
            .filter_map(|c| c.get(1))
            .filter(|m| {
                // (The file's name is blanked here: a run of spaces.)
                let before = &lower[..m.start() - 1];
                before.ends_with("   ") || before.trim_end().ends_with(&said)
            })
            .map(|m| &clause[m.range()])
            .collect();
        if let ([column], false) = (named_aside.as_slice(), said.contains('_')) {
            only.field = Some((*column).to_owned());
        }
    }
    Some((by, without_unnamed_repeats(aggregations), first.unwrap_or(0)))
}

/// The values of a column of yes and no, folded.
const YES_OR_NO: [&str; 6] = ["yes", "no", "y", "n", "true", "false"];

/// The last words of a measure that adds up (singular): "spend", "stock value", "hours".
const MEASURE_WORDS: [&str; 20] = [
    "spend", "spending", "cost", "value", "amount", "total", "fee", "revenue", "sale", "profit", "quantity", "qty",
    "hour", "minute", "unit", "mile", "payment", "charge", "expense", "income",
];

/// "(duration_min)": a column's name, alone in brackets.
static EN_COLUMN_IN_ASIDE: LazyLock<Regex> = LazyLock::new(|| re(r"\(([a-z][a-z0-9]*_[a-z0-9_]+)\)"));

/// "add up net_amount per customer … with their totals": a total that names no column is the
/// one that does.
fn without_unnamed_repeats(mut aggregations: Vec<Aggregation>) -> Vec<Aggregation> {
    let named: Vec<&'static str> = aggregations.iter().filter(|a| a.field.is_some()).map(|a| a.op).collect();
    aggregations.retain(|a| a.field.is_some() || a.op == "count" || !named.contains(&a.op));
    aggregations
}

/// 「得意先ごとに」「部門別の」, and 別 before the total it groups by (「得意先別受注合計」
/// 「部門別平均金額」; not 「月別売上」 alone, nor 別物).
static JA_BY: LazyLock<Regex> = LazyLock::new(|| {
    re(r"ごと|毎に|毎の|別に|別の|別で|単位で|別集計|別[\p{Han}\p{Katakana}ー]{0,8}?(?:合計|総額|小計|平均|件数)")
});
static JA_EACH: LazyLock<Regex> = LazyLock::new(|| re(r"各(?P<k>[\p{Han}\p{Katakana}ー]{1,8}?)の"));
static JA_AGG: LazyLock<Regex> = LazyLock::new(|| {
    re(
        r"(?P<pre>を|の)?(?P<op>合計|総額|小計|集計|件数|人数|平均|最大|最高|最小|最低|カウント|数え|数|最も新しい|最新の|最も古い|最古の)(?P<post>し|する|して|を出|を求|を計算|と|、|を|$)?",
    )
});

/// 「合計金額と」「平均単価を」「平均金額（円未満切り捨て）も」: a total and the column it is of,
/// said as one noun in a list or as what is asked for.
static JA_TOTAL_OF_NAMED: LazyLock<Regex> =
    LazyLock::new(|| re(r"^(?:合計|総額|平均|最大|最小)[\p{Han}\p{Katakana}ー]{2,8}(?:と|・|、|を|も|[（(]|$)"));

/// "what is the stock value (units times unit_cost) per warehouse", "what's the spend for each
/// vendor", "need window cleaning spend per month": a measure asked of each group, at the start
/// of a question or a request.
static EN_WHAT_IS_PER: LazyLock<Regex> = LazyLock::new(|| {
    re(
        r"^\s*(?:so\s+|and\s+)?(?:what(?:'s|\s+is|\s+was|\s+are|\s+were)|(?:i\s+|we\s+)?need|give\s+me|show\s+me)\s+(?:the\s+|our\s+)?(?P<x>[a-z_][a-z0-9_]*(?: [a-z_][a-z0-9_]*){0,2})\s*(?P<made>\([^)]{1,60}\)\s*)?(?:per|for each|for every|in each|by)\s",
    )
});

/// "revenue (sum)", "duration (average)": a column and the total of it said in brackets.
static EN_TOTAL_IN_BRACKETS: LazyLock<Regex> = LazyLock::new(|| {
    re(r"\b(?P<field>[a-z_][a-z0-9_]*)\s*\((?P<op>sum|total|average|avg|mean|count|max|maximum|min|minimum)\)")
});

/// The grouping and aggregations of a Japanese clause, and where the first is.
pub fn japanese_aggregate(clause: &str) -> Option<(Vec<String>, Vec<Aggregation>, usize)> {
    let mut by = Vec::new();
    let mut first = None;
    // Where the first key is said: 「売上金額を月ごとに合計」 names the column totalled before it.
    let mut keys_at = None;
    for m in JA_BY.find_iter(clause) {
        // 「担当者（得意先.csv から得意先コードで引く）ごとに」: the key is said before its aside.
        let said = clause[..m.start()].trim_end();
        let key_end = match said.strip_suffix(['）', ')']) {
            Some(inside) => inside.rfind(['（', '(']).unwrap_or(m.start()),
            None => m.start(),
        };
        let Some(noun) = japanese_noun_before(clause, key_end) else { continue };
        if ["個", "特", "区", "種", "性", "性別"].contains(&noun.as_str()) && m.as_str().starts_with('別') {
            continue;
        }
        // (「道場が違えば別の選手」: another one, after a verb of condition; no key.)
        if m.as_str().starts_with('別') && noun.ends_with(['ば', 'ら', 'て', 'た']) {
            continue;
        }
        first.get_or_insert(m.start());
        keys_at.get_or_insert(key_end.saturating_sub(noun.len()));
        // 「年月と重要度の組み合わせごとに」: the columns combined.
        if ["組み合わせ", "組合せ", "組み合せ"].contains(&noun.as_str()) {
            let before = clause[..key_end - noun.len()].trim_end_matches('の');
            let start = before
                .char_indices()
                .rev()
                .find(|(_, c)| "、。をはがで".contains(*c))
                .map_or(0, |(i, c)| i + c.len_utf8());
            by.extend(before[start..].split(['と', '・']).map(str::trim).filter(|k| !k.is_empty()).map(str::to_owned));
            continue;
        }
        // 「部署・担当者ごとに」: the keys listed before the last, each after its 「・」.
        // (Only names said as they are: a name read past an aside has no place to go back from.)
        let mut rest = clause[..key_end].strip_suffix(noun.as_str());
        let mut listed = vec![noun.replace('×', "・")];
        while let Some(before) = rest.and_then(|r| r.strip_suffix('・')) {
            let Some(earlier) = japanese_noun_before(clause, before.len()) else { break };
            rest = before.strip_suffix(earlier.as_str());
            // (「月別・勘定科目別」: each key may say 別 itself.)
            let earlier = ["別", "ごと", "毎"].iter().find_map(|w| earlier.strip_suffix(w)).unwrap_or(&earlier);
            listed.insert(0, earlier.to_owned());
        }
        // 「年月×勘定科目ごとに」: × joins the keys.
        by.extend(listed.iter().flat_map(|noun| slots::list_items(noun)));
    }
    // 「9月〜11月の各月の本数と金額を合計」: each month's totals.
    if let Some(c) = JA_EACH.captures(clause).filter(|_| by.is_empty()) {
        let totalled = c.get(0).is_some_and(|m| JA_AGG.is_match(&clause[m.end()..]));
        let rows = ["自", "種", "位", "人", "行", "列", "件"].contains(&&c["k"]) || JA_ROW_NOUNS.contains(&&c["k"]);
        if totalled && !rows {
            first.get_or_insert(c.get(0).map_or(0, |m| m.start()));
            by.push(c["k"].to_owned());
        }
    }
    let mut aggregations: Vec<Aggregation> = Vec::new();
    for c in JA_AGG.captures_iter(clause) {
        let whole = c.get(0).expect("match");
        let op_text = &c["op"];
        // 「対象資格の数と」: the number of things, a count (not 「数量」, nor 「件数の数」's own word).
        if op_text == "数" && (c.name("pre").is_none_or(|p| p.as_str() != "の") || c.name("post").is_none()) {
            continue;
        }
        // 「合計金額と件数を出して」「平均単価を」: the total of the column named right after, in a list.
        let named_after =
            c.name("post").is_none() && JA_TOTAL_OF_NAMED.is_match(&clause[c.name("op").expect("op").start()..]);
        let verb = c.name("pre").is_some() || c.name("post").is_some() || !by.is_empty() || named_after;
        // (「部門ごとの人数と総支給額の合計」 counts the people; 「人数の合計」 totals a column.)
        if !verb || op_text == "人数" && c.name("post").is_none() {
            continue;
        }
        let op = match op_text {
            "件数" | "人数" | "カウント" | "数え" | "数" => "count",
            "平均" => "avg",
            "最大" | "最高" | "最も新しい" | "最新の" => "max",
            "最小" | "最低" | "最も古い" | "最古の" => "min",
            _ => "sum",
        };
        // 「得意先ごとに最も新しい日付」「最新の受注日」: the latest of a date (not 「最新の1件」, a row).
        let of_a_day = ["最も新しい", "最新の", "最も古い", "最古の"].contains(&op_text);
        // 「「金額」を合計」: a quoted column right before the verb.
        let quoted = c.name("pre").and_then(|pre| {
            let before = clause[..pre.start()].trim_end().trim_end_matches(['を', 'の']).trim_end();
            let inner = before.strip_suffix('」')?;
            inner.rfind('「').map(|open| inner[open + '「'.len_utf8()..].to_owned())
        });
        // 「モジュールごとの平均実行時間」「取引先ごとに合計金額を」: the column named right after.
        let after = (c.name("post").is_none() && (!by.is_empty() || named_after))
            .then(|| {
                clause[c.name("op").expect("op").end()..]
                    .chars()
                    .take_while(|ch| matches!(ch, '\u{4e00}'..='\u{9fff}' | '\u{30a0}'..='\u{30ff}') && *ch != '・')
                    .collect::<String>()
            })
            .filter(|run| run.chars().count() >= 2);
        // 「枚数合計・金額合計を出して」: the column said right before, with no particle, in a list.
        let glued = || {
            let op = c.name("op").expect("op");
            let before = clause[..op.start()].chars().next_back()?;
            let noun_char = matches!(before, '\u{4e00}'..='\u{9fff}' | '\u{30a0}'..='\u{30ff}');
            let noun = japanese_noun_before(clause, op.start()).filter(|_| c.name("pre").is_none() && noun_char)?;
            // (「件数（行数）・枚数合計」: the one item before the total, not the list.)
            let noun = noun.rsplit(['・', '、', '）', ')']).next().unwrap_or(&noun).to_owned();
            let listed_before =
                clause[..op.start()].strip_suffix(noun.as_str()).is_some_and(|b| b.ends_with(['・', '、', 'と']));
            let listed_after = clause[op.end()..].starts_with(['・', '、', 'と']);
            (listed_before || listed_after).then_some(noun)
        };
        let field = quoted
            .or_else(|| c.name("pre").and_then(|pre| japanese_noun_before(clause, pre.start())))
            .or(after)
            .or_else(glued)
            // (「金額（数量×単価）の合計」: the column, not the formula that says how it is made;
            // 「金額（税抜）」 is a name.)
            .map(|noun| match noun.strip_suffix([')', '）']).and_then(|n| n.split_once(['(', '（'])) {
                Some((name, formula)) if !name.is_empty() && formula.contains(['×', '÷', '＋', '−', '*', '/', '+']) => {
                    name.to_owned()
                }
                _ => noun,
            })
            .map(|noun| JA_BY.split(&noun).next().unwrap_or_default().to_owned())
            .filter(|noun| !noun.is_empty() && !by.contains(noun) && !JA_ROW_NOUNS.contains(&noun.as_str()))
            .filter(|_| op != "count");
        // 「件数と金額を集計」: 集計 of 金額 is a sum; the count is its own.
        if op_text == "集計" && aggregations.iter().any(|a| a.op == "count") && field.is_none() {
            continue;
        }
        if of_a_day
            && !field.as_deref().is_some_and(|f| f.ends_with('日') || f.ends_with("日付") || f.ends_with("日時"))
        {
            continue;
        }
        if !aggregations.iter().any(|a| a.op == op && a.field == field) {
            first = Some(first.map_or(whole.start(), |f: usize| f.min(whole.start())));
            aggregations.push(Aggregation { op, field, name: None, when: Vec::new() });
        }
    }
    // 「件数と金額を集計」
    if let Some(i) = aggregations.iter().position(|a| a.op == "sum" && a.field.is_none()) {
        // Not the と of ごと: 「仕入先ごとに合計した一覧を」 names no column.
        if let Some(m) = clause.match_indices('と').map(|(m, _)| m).find(|&m| !clause[..m].ends_with('ご')) {
            let after = &clause[m + "と".len()..];
            if let Some(end) = after.find("を") {
                let noun = after[..end].trim();
                // (「差戻しと申請中を除いた経費の合計」: states left out, no column totalled.)
                let left_out = ["除", "外", "抜", "残"].iter().any(|w| after[end + "を".len()..].starts_with(w));
                if slots::is_japanese_noun(noun)
                    && !JA_ROW_NOUNS.contains(&noun)
                    && !left_out
                    && !JA_STATUS.is_match(noun)
                {
                    // (「注文数と金額合計を」: the total of 金額, named as said.)
                    match noun.strip_suffix("合計").filter(|column| column.chars().count() >= 2) {
                        Some(column) => {
                            aggregations[i].field = Some(column.to_owned());
                            aggregations[i].name = Some(noun.to_owned());
                        }
                        None => aggregations[i].field = Some(noun.to_owned()),
                    }
                }
            }
        }
    }
    // 「売上と客数の合計」「売上・客数を合計」: each column listed is totalled.
    let listed_before: Vec<(usize, Aggregation)> = aggregations
        .iter()
        .enumerate()
        .filter(|(_, a)| a.op == "sum")
        .filter_map(|(i, a)| {
            let field = a.field.as_deref()?;
            let at = clause.find(field)?;
            let before = clause[..at].strip_suffix('と').or_else(|| clause[..at].strip_suffix('・'))?;
            let other = japanese_noun_before(before, before.len())?;
            // (「件数（行数）・枚数合計」: what an aside says of the count is no column.)
            let other = match other.strip_suffix(['）', ')']).and_then(|o| o.rsplit_once(['（', '('])) {
                Some((said, _)) if !said.is_empty() => said.to_owned(),
                _ => other,
            };
            // (「当直回数（行数）と手当の合計」: a count of rows, said by its aside.)
            if rows_counted_aside(before) {
                return Some((i, Aggregation { op: "count", field: None, name: Some(other), when: Vec::new() }));
            }
            // (「件数と金額を集計」: the count is one of its own.)
            // (「平均単価と数量の合計」: the average is one of its own too.)
            let a_total = ["件数", "人数", "回数", "合計", "平均", "最大", "最小"].iter().any(|w| other.ends_with(w))
                || other == "数"
                || ["合計", "総額", "平均", "最大", "最小"].iter().any(|w| other.starts_with(w));
            let named =
                !other.is_empty() && !a_total && !by.contains(&other) && !JA_ROW_NOUNS.contains(&other.as_str());
            let said = aggregations.iter().any(|a| a.field.as_deref() == Some(other.as_str()));
            (named && !said && !before.ends_with('ご'))
                .then(|| (i, Aggregation { op: "sum", field: Some(other), name: None, when: Vec::new() }))
        })
        .collect();
    for (i, aggregation) in listed_before.into_iter().rev() {
        if !(aggregation.op == "count" && aggregations.iter().any(|a| a.op == "count")) {
            aggregations.insert(i, aggregation);
        }
    }
    let before_keys = keys_at.and_then(|at| clause.get(..at)).map(str::trim_end).filter(|b| b.ends_with('を'));
    if let Some(before) = before_keys {
        // (「請求を取引先ごとに合計」: the rows, not a column; a column totalled names an amount.)
        const AMOUNTS: &[&str] = &["額", "金", "数", "量", "高", "時間", "料", "代", "価", "値", "点"];
        let field = japanese_noun_before(clause, before.len() - 'を'.len_utf8()).filter(|noun| {
            !by.contains(noun) && !JA_ROW_NOUNS.contains(&noun.as_str()) && AMOUNTS.iter().any(|a| noun.ends_with(a))
        });
        for a in aggregations.iter_mut().filter(|a| a.field.is_none() && a.op != "count") {
            a.field.clone_from(&field);
        }
    }
    // 「担当者ごとの売上件数と売上金額を出して」: a measure listed beside a count, with no word of
    // a total of its own, is totalled.
    if !by.is_empty() && aggregations.iter().all(|a| a.op == "count") {
        if let Some(c) = JA_COUNT_AND_MEASURE.captures(clause) {
            let measure = c.name("m").or(c.name("m2")).map(|m| m.as_str().to_owned());
            aggregations.push(Aggregation { op: "sum", field: measure, name: None, when: Vec::new() });
        }
    }
    // 「取引先コードごとに最初の1行だけを残して」: one row per key kept, nothing totalled.
    if aggregations.is_empty() && JA_ONE_ROW_PER_KEY.is_match(clause) {
        return None;
    }
    if aggregations.is_empty() && by.is_empty() {
        return None;
    }
    if aggregations.is_empty() {
        aggregations.push(Aggregation { op: "sum", field: None, name: None, when: Vec::new() });
    }
    Some((by, without_unnamed_repeats(aggregations), first.unwrap_or(0)))
}

/// Whether `before` ends with a name said to be the number of rows: 「当直回数（行数）」.
fn rows_counted_aside(before: &str) -> bool {
    ["（行数）", "(行数)", "（件数）", "(件数)"].iter().any(|aside| before.ends_with(aside))
}

/// 「売上件数と売上金額」「金額と件数」: a count and a measure listed together.
static JA_COUNT_AND_MEASURE: LazyLock<Regex> = LazyLock::new(|| {
    re(
        r"(?:件数|人数|回数)\s*(?:と|・)\s*(?P<m>[\p{Han}\p{Katakana}ー]{0,8}(?:金額|額|時間|数量))\s*(?:を|の|、|$)|(?:^|[のをごと、])(?P<m2>[\p{Han}\p{Katakana}ー]{0,8}(?:金額|額|時間|数量))\s*(?:と|・)\s*[\p{Han}\p{Katakana}ー]{0,6}(?:件数|人数|回数)",
    )
});

static EN_UNTIL: LazyLock<Regex> = LazyLock::new(|| {
    re(
        r#"(?i)\buntil\s+(?:the\s+|its\s+)?(?:(?P<field>[a-z_][\w ]{0,20}?)\s+(?:is|becomes|equals|=|turns)\s+)?(?:it\s+is\s+)?(?P<value>"[^"]+"|'[^']+'|[\w-]+)"#,
    )
});
static JA_UNTIL: LazyLock<Regex> = LazyLock::new(|| {
    re(
        r"(?:(?P<field>[^\s、。をがはの]{1,16})(?:が|は))?「?(?P<value>[^\s、。「」をがはの]{1,16}?)」?(?:に|と)?(?:なる|する|終わる)まで",
    )
});

/// The condition a polling loop waits for ("until the status is done", 「ステータスがdoneになるまで」).
pub fn until(clause: &str, language: Language) -> Condition {
    let found = match language {
        Language::En => EN_UNTIL.captures(clause),
        Language::Ja => JA_UNTIL.captures(clause),
    };
    let (field, value) = match found {
        Some(c) => (c.name("field").map(|m| m.as_str().trim().to_owned()), unquote(&c["value"])),
        None => (None, String::new()),
    };
    let value = match value.as_str() {
        "" | "it" | "完了" | "done" | "complete" | "completed" | "finished" | "ready" => {
            if value.is_empty() || value == "it" {
                "done".to_owned()
            } else {
                value
            }
        }
        _ => value,
    };
    Condition { field, operator: "eq", value: Value::from(value), value2: None }
}
