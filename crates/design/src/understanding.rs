//! Whether the instruction says what to read, what to do and what to write (issue 27 §4).
//!
//! An instruction the reader turns into no source, no operation and no output ("do the monthly
//! thing", garbage) gets no plan: the engine asks those three things instead. One that names a
//! source and an output but an action the reader could not place ("check them", 「確認して」)
//! gets no copy of its rows either: the engine asks what to do with them. The answers are added
//! to the instruction, which is read again.

use std::sync::LazyLock;

use indexmap::IndexMap;
use planwright_runs::{FieldType, Requirement};
use regex::Regex;
use serde_json::Value;

use crate::reading::{Language, Reading};
use crate::requirements::{DesignRequirement, Target};

/// A part of the job the instruction must say.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Part {
    Read,
    Do,
    Write,
}

impl Part {
    const ALL: [Part; 3] = [Part::Read, Part::Do, Part::Write];

    fn name(self) -> &'static str {
        match self {
            Part::Read => "read",
            Part::Do => "do",
            Part::Write => "write",
        }
    }

    /// The answer's key: `instruction.read`.
    fn id(self) -> String {
        format!("instruction.{}", self.name())
    }
}

/// Actions a person asks for that need an operation: when one is there and the reader placed
/// none, the rows are not simply copied.
static EN_ACTION: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(r"\b(find|check|compare|calculate|compute|flag|identify|spot|detect|verify|validate|analy[sz]e|review|highlight|mark|tally|allocate|split|work out|figure out|look for|clean ?up|clean (?:it|this|them|these|that|everything) up|tidy(?: up)?|tidy (?:it|this|them) up|sort out|fix|suspicious|look(?:s)? (?:odd|off|wrong|strange|weird|fishy)|unusual|anomal\w*|irregular|questionable|(?:do )?the usual|as usual|same as (?:last|before|always|usual|(?:you|we|i) did)|the way we did|the way (?:[a-z]+ ){1,4}(?:wanted|wants|likes|liked|asked for|prefers|preferred)|like last (?:time|month|week|year|quarter)|(?:the same|the way|as) (?:we did |you did |it was )?(?:last|previous) (?:year|time|month|quarter)|divide|assign|(?:put|sort|split|group) (?:them|people|everyone|everybody|the \w+) into (?:teams|groups|pairs|shifts)|nicely|presentable|look (?:nice|good|professional))\b")
        .expect("action pattern")
});
static JA_ACTION: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(
        r"確認|チェック|探し|探して|探す|見つけ|比較|計算|算出|洗い出|特定|検出|分析|按分|割り振|精査|点検|修正|整理|整え|見やすく|いつもの|いつも通り|いつもどおり|例年通り|前回と同じ|(?:去年|昨年|前年|先月|前月|前回)と同じ|同じ感じ|班分け|組分け|グループ分け|チーム分け|振り分け|割り当て|例の|怪しい|あやしい|おかしそう|おかしい|不審|異常|変な|いい感じ|良い感じ|よしなに|うまいこと|適当に|それっぽく|出せる形|使える形|見栄え|体裁",
    )
    .expect("action pattern")
});

/// "recalculate them under the new rules", 「新しい規定で計算し直して」: rules named and not given.
static EN_RULES_NAMED: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(r"\b(?:new|updated|revised|changed|amended)\s+(?:rules?|policy|policies|rates?|fee schedule|pricing|formula|guidelines|criteria|thresholds?|terms)\b")
        .expect("rules named")
});
static JA_RULES_NAMED: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(r"新(?:しい)?(?:規定|ルール|基準|料金表?|料率|単価|レート|計算方法|方式|規則|規程)|改定後の(?:規定|ルール|基準|料金|単価|料率|規程)")
        .expect("rules named")
});

/// Why a part is asked about when the instruction says something of it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Unplaced {
    /// Words of the instruction the engine could not place in a step.
    Words(String),
    /// Tried on the work folder's files, the plan wrote no rows to this file.
    NothingWritten(String),
    /// Tried on the work folder's files, the plan wrote this file with other than the columns
    /// the instruction counts (its words, the file).
    OtherColumns { said: String, file: String },
    /// A condition compares the column with words no row of the data holds (the words, the
    /// column).
    NoSuchValue { value: String, column: String },
    /// The plan writes over this file of the work folder and reads it nowhere.
    OverwritesInput(String),
    /// Tables put one under the other keep columns only some of them have (the columns, the
    /// files), and the plan writes those columns.
    ColumnsOfSomeTables { columns: String, files: String },
}

/// "as a single column", "I only need four columns", 「1列だけ」「列は…の4つ」: the number of
/// columns the output should have, with the words that say it. A column added ("add one column",
/// 「1列追加」) counts nothing written.
pub fn columns_said(text: &str) -> Option<(String, usize)> {
    // ASCII lower case keeps the offsets of `text`.
    let lower = text.to_ascii_lowercase();
    let count = |word: &str| match word.trim() {
        word if word.ends_with("single") => Some(1),
        word => crate::reading::number(word).and_then(|n| usize::try_from(n).ok()),
    };
    for c in COLUMNS_SAID.captures_iter(&lower) {
        let whole = c.get(0)?;
        let before = lower[..whole.start()].trim_end();
        let after = &lower[whole.end()..];
        let added = ["add", "adding", "new", "extra", "another", "more", "insert"].iter().any(|w| before.ends_with(w))
            || after.trim_start().starts_with("追加")
            || after.trim_start().starts_with("を追加")
            || after.trim_start().starts_with("増");
        let number = c.name("n").or(c.name("n2")).or(c.name("n3"))?;
        if let (false, Some(n)) = (added, count(number.as_str()).filter(|n| *n > 0)) {
            return Some((text.get(whole.range())?.trim().to_owned(), n));
        }
    }
    None
}

static COLUMNS_SAID: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(
        r"\b(?P<n>\d{1,2}|a single|single|one|two|three|four|five|six|seven|eight|nine|ten)\s+(?:columns?|cols?)\b|(?P<n2>\d{1,2}|[０-９]|[一二三四五六七八九])\s*列(?:だけ|のみ)|列は[^。]{0,60}?の\s*(?P<n3>\d{1,2}|[０-９]|[一二三四五六七八九])\s*つ",
    )
    .expect("columns said")
});

/// The parts `reading` leaves unsaid, with the words of an action it could not place. Once
/// the person has said what to do (`answered_do`), words left unplaced are not asked again.
pub fn unsaid(reading: &Reading, text: &str, templates: bool, answered_do: bool) -> Vec<(Part, Option<Unplaced>)> {
    let nothing = reading.sources.is_empty() && reading.steps.is_empty() && reading.outputs.is_empty();
    if nothing && !templates {
        return Part::ALL.iter().map(|p| (*p, None)).collect();
    }
    if let Some(clause) = reading.unplaced.first().filter(|_| !templates && !answered_do) {
        return vec![(Part::Do, Some(Unplaced::Words(clause.clone())))];
    }
    // (Named rules the plan computes nothing by would leave the old figures, said as new.)
    let computes = reading.steps.iter().any(|s| matches!(s.name(), "compute" | "aggregate" | "join" | "label"));
    let rules = match reading.language {
        Language::En => EN_RULES_NAMED.find(&text.to_ascii_lowercase()).map(|m| m.as_str().to_owned()),
        Language::Ja => JA_RULES_NAMED.find(text).map(|m| m.as_str().to_owned()),
    };
    if let Some(rules) = rules.filter(|_| !computes && !templates && !answered_do) {
        return vec![(Part::Do, Some(Unplaced::Words(rules)))];
    }
    if reading.steps.is_empty() && reading.columns.is_empty() && !reading.combine && !templates {
        let action = match reading.language {
            Language::En => EN_ACTION.find(&text.to_ascii_lowercase()).map(|m| m.as_str().to_owned()),
            Language::Ja => JA_ACTION.find(text).map(|m| m.as_str().to_owned()),
        };
        if let Some(action) = action {
            return vec![(Part::Do, Some(Unplaced::Words(action)))];
        }
    }
    Vec::new()
}

/// Numbers said in the instruction ("over $1,000", 「30日以上」) that the plan uses nowhere, each
/// with the words around it: a number dropped is a condition or a limit lost, so the engine
/// asks what it is for rather than give a plan that ignores it. Numbers of examples ("e.g.
/// 2026-01") and counts of files or parts are not amounts.
pub fn unused_numbers(text: &str, plan: &planwright_plan::Plan) -> Vec<String> {
    let values = plan_values(plan);
    let mut used: Vec<f64> = values.iter().flat_map(numbers_in).collect();
    // 「2027年分の扶養控除等申告書」: the year a document the plan keeps rows of is for.
    let texts: Vec<&str> = values.iter().filter_map(Value::as_str).filter(|v| v.chars().count() >= 2).collect();
    let year_of_a_value = |after: &str| {
        after
            .strip_prefix("年分の")
            .or_else(|| after.strip_prefix("年度分の"))
            .is_some_and(|rest| texts.iter().any(|v| rest.starts_with(v)))
    };
    // "variance / budget * 100", 「合格数÷実施数×100」: the hundred a percentage is.
    let mut columns =
        plan.graph.iter().flat_map(|n| n.inputs.get("columns").and_then(Value::as_array).into_iter().flatten());
    if columns.any(|c| c.get("op").and_then(Value::as_str) == Some("percent")) {
        used.push(100.0);
    }
    // 「1件もない月は0」: a count of the rows that meet conditions is 0 for a group without them.
    let counts: Vec<&Value> = plan
        .graph
        .iter()
        .flat_map(|n| n.inputs.get("aggregations").and_then(Value::as_array).into_iter().flatten())
        .filter(|a| a.get("op").and_then(Value::as_str) == Some("count"))
        .collect();
    if counts.iter().any(|a| a.get("when").is_some()) {
        used.push(0.0);
    }
    let counted = !counts.is_empty();
    // "the two plants' registers, stacked": the number of tables read.
    let tables_read = plan.graph.iter().filter(|n| crate::reads_a_table(n)).count();
    let duplicates = plan
        .graph
        .iter()
        .any(|n| matches!(n.block.as_deref(), Some("transforms.find_duplicates" | "transforms.remove_duplicates")));
    // ASCII lower case keeps the offsets of `text`.
    let lower = text.to_ascii_lowercase();
    let mut said = crate::reading::slots::numbers(text);
    said.extend(crate::reading::slots::number_words(text));
    said.sort_by_key(|n| n.start);
    // The digits of a file's name ("10月_売上_全社.xlsx") are no figure.
    let files = crate::reading::slots::file_spans(text);
    said.retain(|n| !files.iter().any(|f| f.contains(&n.start)));
    let sheets = crate::reading::sheet_names(text);
    said.retain(|n| !sheets.iter().any(|s| s.contains(&n.start)));
    // The days from the day the text says it is to a date the plan uses, either way.
    let dates = plan_dates(plan);
    let stated = crate::reading::relative::stated_day(text).and_then(|d| calendar_date(&d));
    let days_from_today = |date: &String| Some((calendar_date(date)? - stated?).whole_days().abs());
    // "Today's Oct 14, 2026": the day it is, which the months said are counted from.
    let today = crate::reading::relative::stated_today(text);
    said.retain(|n| !today.as_ref().is_some_and(|t| t.contains(&n.start)));
    said.into_iter()
        // One is a manner, not an amount: "one row per invoice", 「1伝票1行」.
        .filter(|n| {
            // "10% of Net" is used as 0.1.
            let percent =
                ["%", "％", " percent", " per cent", "パーセント"].iter().any(|p| text[n.end..].starts_with(p));
            // "× vat_rate / 100" is used as × 0.01.
            let divisor = ["/", "÷", "divided by"].iter().any(|d| text[..n.start].trim_end().ends_with(d));
            // ("7.25% sales tax (subtotal * 1.0725)": the rate added to one.)
            let same = |u: &f64| {
                (u - n.value).abs() < 1e-9
                    || percent && (u - n.value / 100.0).abs() < 1e-9
                    || percent && (u - (1.0 + n.value / 100.0)).abs() < 1e-9
                    || divisor && n.value != 0.0 && (u * n.value - 1.0).abs() < 1e-9
            };
            n.value != 1.0 && !used.iter().any(same)
        })
        .filter(|n| {
            let before = lower[..n.start].trim_end();
            let after = lower[n.end..].trim_start();
            // Examples ("e.g. 2026-01", 「0012 など」) and the form of a value ("4 digits",
            // 「先頭の0も含めた4桁」) say no amount.
            // 「10 や 8 の数字」 lists some of a column's values, and so does a bracket of numbers
            // alone ("vat_rate is a percentage (20, 5 or 0)").
            let example = ["e.g.", "e.g", "eg", "例:", "例：", "例えば", "for example", "such as", "like", "や"]
                .iter()
                .any(|w| before.ends_with(w))
                || ["など", "等", "とか", "や", "のよう", "みたい"].iter().any(|w| after.starts_with(w))
                // 「10 か 8 が入っています」: one of the values listed.
                || after.strip_prefix('か').is_some_and(|rest| rest.trim_start().starts_with(|c: char| c.is_ascii_digit()))
                || before.strip_suffix('か').is_some_and(|rest| rest.trim_end().ends_with(|c: char| c.is_ascii_digit()))
                || in_a_bracket_of_numbers(text, n.start)
                || in_an_illustrating_bracket(text, n.start)
                // "(so 6.025 becomes 6.03)": a worked example of a rule.
                || before.ends_with("(so")
                || before.ends_with("becomes")
                || after.starts_with("becomes");
            // (「（月は0埋めしない）」: how a value is padded.)
            let form = ["桁", "digit", "character", "文字", "leading", "埋め", "padd"].iter().any(|w| after.starts_with(w))
                || in_a_quoted_example(text, n.start)
                || ["先頭の", "leading", "頭の"].iter().any(|w| before.ends_with(w))
                // 「小数第2位を四捨五入」: the place rounded at (the plan keeps one decimal fewer).
                || before.ends_with('第') && after.starts_with('位');
            // "1099 prep -> vendors_missing_w9.csv": a name the title line starts with (a form's
            // number), no amount.
            let title = before.is_empty() && {
                let line = after.lines().next().unwrap_or_default();
                (line.contains("->") || line.contains('→')) && after.starts_with(|c: char| c.is_alphabetic())
            };
            // (「4月の転勤者」: a month said of people, no period of the rows.)
            let of_people = after.starts_with('月') && crate::reading::JA_OF_PEOPLE.is_match(after);
            if form || title || of_people || year_of_a_value(after) {
                return false;
            }
            // 「件数0の組み合わせは出さなくて大丈夫」, "groups with 0 rows can be left out": groups of
            // no rows, which totals never give.
            let window: String = after.chars().take(24).collect();
            let not_shown = ["出さな", "出さず", "載せな", "載せず", "不要", "いらな", "要りませ", "省", "除", "left out", "omitted", "skipped", "not shown", "don't show", "no need"]
                .iter()
                .any(|w| window.contains(w));
            if n.value == 0.0 && counted && not_shown {
                return false;
            }
            // "for the Dec 9 customer workshop": the day of what the work is for.
            let month_said = before.rsplit(' ').next().is_some_and(|w| crate::reading::month_number(w).is_some());
            let occasion = month_said && {
                let before_month = before.rsplit_once(' ').map_or("", |(b, _)| b);
                ["for the", "for our", "for my", "before the", "ahead of the", "at the"].iter().any(|w| before_month.ends_with(w))
            };
            if occasion {
                return false;
            }
            // 「同じ依頼が2件以上」, "submitted twice", "if two rows differ" of duplicates: the
            // duplicate check itself.
            if n.value == 2.0 && duplicates {
                return false;
            }
            // ("exported some lines two or three times", of duplicates removed: how often rows
            // came, no figure kept.)
            static SOME_TIMES: LazyLock<Regex> = LazyLock::new(|| {
                Regex::new(r"^(?:or\s+(?:\d+|two|three|four|five)\s+)?times\b").expect("some times")
            });
            let times_said = SOME_TIMES.is_match(after.trim_start())
                && (after.trim_start().starts_with("or ") || before.ends_with(" or"));
            if times_said && duplicates {
                return false;
            }
            // (Not "keep the 2 largest" or "the 2 rows": a count of rows is a figure.)
            let counted = after.split_whitespace().next().unwrap_or_default().trim_end_matches(['\'', ',', '.']);
            let of_rows = counted.ends_with("est")
                || matches!(counted, "rows" | "lines" | "items" | "records" | "entries" | "most" | "top");
            if tables_read >= 2 && n.value == tables_read as f64 && !of_rows {
                return false;
            }
            // "Q3 2026", 「第3四半期」: the quarter's months are the plan's dates (its year is
            // checked on its own).
            let quarter = before.ends_with('q') || before.ends_with('第') && after.starts_with("四半期");
            // ("top 5 customers in Q1 … sales_q1.csv": the quarter the file read is of.)
            let file_of_the_quarter = before.ends_with('q')
                && files.iter().any(|f| crate::reading::slots::file_names_quarter(&text[f.clone()], n.value as u32));
            if quarter && (compares_dates(plan) || file_of_the_quarter) {
                return false;
            }
            // 「基準日から60日以内（2027年4月2日まで）」: days from the day stated to a date the plan
            // keeps rows by.
            let days = after.starts_with('日') || after.starts_with("day");
            if days && n.value.fract() == 0.0 && dates.iter().any(|d| days_from_today(d) == Some(n.value.abs() as i64)) {
                return false;
            }
            // "the 24 Nov regression run (regression_run_1124.csv)": the day a file is named for.
            if names_the_day_of_a_file(n.value, before, after, &files.iter().map(|f| &text[f.clone()]).collect::<Vec<_>>()) {
                return false;
            }
            // 「9月から月の順に」: the month an order starts at, no rows kept.
            if after.starts_with('月') && crate::unkept::starts_an_order(&after['月'.len_utf8()..]) {
                return false;
            }
            // 「10月・11月に出荷した分」: a month inside the dates the plan keeps rows between.
            if after.starts_with('月') && month_between_the_dates_kept(plan, n.value) {
                return false;
            }
            // 「11月の入金明細（入金明細_11月.csv）」: the month a file read is named for.
            let month = format!("{}月", n.value);
            if after.starts_with('月') && files.iter().any(|f| text[f.clone()].contains(&month)) {
                return false;
            }
            // "the week 15 export (timesheet_week15.csv)", 「第14週」: the week a file is named for.
            let week = before.ends_with("week") || before.ends_with('第') && after.starts_with('週');
            let of_a_file = |number: u32| {
                let names = [format!("week{number}"), format!("week_{number}"), format!("week-{number}"), format!("{number}週")];
                files.iter().any(|f| names.iter().any(|w| text[f.clone()].to_lowercase().contains(w.as_str())))
            };
            if week && n.value.fract() == 0.0 && of_a_file(n.value as u32) {
                return false;
            }
            // "my homeroom (7B)", "the whole 7th grade": a code or a rank said of people or
            // places, no amount.
            let code = !text[..n.end].ends_with(char::is_whitespace)
                && text[n.end..].starts_with(|c: char| c.is_ascii_uppercase())
                && !text[n.end..].starts_with(['K', 'M']);
            let rank = ["st ", "nd ", "rd ", "th "].iter().any(|o| after.starts_with(o))
                && ["grade", "floor", "place", "class", "period", "shift", "edition", "anniversary", "birthday"]
                    .iter()
                    .any(|w| after[3..].trim_start().starts_with(w));
            if code || rank {
                return false;
            }
            // "with those two figures", 「その2つを」: what was said before, counted again.
            let back = ["those", "these", "the", "both", "その", "この", "上の", "上記の", "以上の"].iter().any(|w| before.ends_with(w))
                && ["figures", "numbers", "columns", "totals", "values", "fields", "things", "measures", "results", "counts", "つ", "列", "項目"]
                    .iter()
                    .any(|w| after.starts_with(w));
            if back {
                return false;
            }
            // "release 4.2", "sprint 14": the name of a version, no amount.
            let last_word = before.rsplit(|c: char| !c.is_ascii_alphanumeric() && c != '.').next().unwrap_or_default();
            if ["release", "version", "sprint", "build", "ver.", "ver", "milestone", "phase"].contains(&last_word) {
                return false;
            }
            // "(1) add a Tax column, (2) …": the number of an item of a list.
            let item = before.ends_with('(') && after.starts_with(')')
                || (before.is_empty() || before.ends_with([':', ';', '.', ','])) && after.starts_with([')', '.']);
            // "two title lines on top, the headers are on row 3", 「3行目が見出し」: where a sheet's
            // header is, which its read finds.
            let layout = SHEET_LAYOUT.is_match(after)
                || SHEET_ROW.is_match(before) && reads_a_sheet(plan)
                || JA_TITLE_ROWS.is_match(before) && after.starts_with('行');
            !example && !item && !layout && !COUNTS.is_match(after) && !restates_a_day(n.value, before, after, plan)
        })
        .map(|n| around(text, n.start, n.end))
        .collect()
}

/// Whether the number at `at` is in brackets that hold numbers and nothing else but commas and
/// "or" / "and": "(20, 5 or 0)".
fn in_a_bracket_of_numbers(text: &str, at: usize) -> bool {
    let (Some(open), Some(close)) = (text[..at].rfind(['(', '（']), text[at..].find([')', '）'])) else {
        return false;
    };
    let inside = &text[open..at + close];
    let inside = inside.trim_start_matches(['(', '（']);
    inside.contains([',', '、'])
        && inside
            .split([',', '、', ' '])
            .filter(|w| !w.is_empty())
            .all(|w| matches!(w, "or" | "and" | "または" | "か") || w.chars().all(|c| c.is_ascii_digit() || c == '.'))
}

/// 「（起票した日に解決していれば0日）」, "(0 if it was paid on the day)", "(so 35.0 means 35%)", "(the export
/// has a couple from Dec 2025)": a bracket that shows what a computed value is in one case, gives
/// an example or says what else the file holds, says no figure of its own.
/// Whether the number at `at` is inside a quoted value shown as an example of a form
/// (「「2026年9月」のような書き方」).
fn in_a_quoted_example(text: &str, at: usize) -> bool {
    let opened = text[..at].rfind('「').is_some_and(|open| !text[open..at].contains('」'));
    opened && text[at..].find('」').is_some_and(|close| crate::reading::slots::shows_a_form(&text[at + close..]))
}

fn in_an_illustrating_bracket(text: &str, at: usize) -> bool {
    let (Some(open), Some(close)) = (text[..at].rfind(['(', '（']), text[at..].find([')', '）'])) else {
        return false;
    };
    let inside = text[open..at + close].to_ascii_lowercase();
    let inside = inside.trim_start_matches(['(', '（']);
    // ("(so 35.0 means 35%)", 「（例：…）」: a worked example of what a column holds.)
    // (「（「2026年9月」のような形）」: the form a value is written in.)
    let example =
        ["so ", "e.g", "i.e", "eg ", "ie ", "for example", "for instance", "例"].iter().any(|w| inside.starts_with(w))
            || ["のような", "のように", "みたいな", "みたいに", "という形", "の形式", "の形で", "の表記"]
                .iter()
                .any(|w| inside.contains(w));
    // ("(the export has a couple from Dec 2025 / Jan 2027)": what else the file holds.)
    let holds = ["has ", "have ", "there are ", "there's ", "includes ", "contains ", "混ざ", "含まれ"]
        .iter()
        .any(|w| inside.contains(w))
        && !["over", "under", "more", "less", "least", "most", "above", "below", "以上", "以下", "超", "未満"]
            .iter()
            .any(|w| inside.contains(w));
    // ("(+0.6 or -0.7 count, exactly +0.5 or -0.5 does not)": values said to count or not.)
    static SAID_TO_COUNT: LazyLock<Regex> = LazyLock::new(|| {
        Regex::new(r"\d\s+(?:count|counts|does not|doesn't|do not|don't|is in|is out)\b").expect("said to count")
    });
    let said_to_count = SAID_TO_COUNT.is_match(inside);
    !inside.contains(['(', '（'])
        && (said_to_count
            || ["れば", "なら", "場合は"].iter().any(|w| inside.contains(w))
            || inside.contains(" if ")
            || example
            || holds)
}

/// The dates (`YYYY-MM-DD`, a time after it or not) the plan's steps hold.
fn plan_dates(plan: &planwright_plan::Plan) -> Vec<String> {
    plan_values(plan)
        .iter()
        .filter_map(Value::as_str)
        .filter_map(|value| value.get(..10))
        .filter(|date| date.as_bytes()[4] == b'-' && date.as_bytes()[7] == b'-')
        .map(str::to_owned)
        .collect()
}

/// `YYYY-MM-DD` as a date of the calendar.
fn calendar_date(text: &str) -> Option<time::Date> {
    let mut parts = text.get(..10)?.split('-').map(str::parse::<i32>);
    let (year, month, day) = (parts.next()?.ok()?, parts.next()?.ok()?, parts.next()?.ok()?);
    let month = time::Month::try_from(u8::try_from(month).ok()?).ok()?;
    time::Date::from_calendar_date(year, month, u8::try_from(day).ok()?).ok()
}

/// Whether a filter of the plan compares with a date (a quarter said is kept by one).
pub(crate) fn compares_dates(plan: &planwright_plan::Plan) -> bool {
    !plan_dates(plan).is_empty()
        || plan_values(plan).iter().filter_map(Value::as_str).any(|value| value.starts_with("${vars.year}-"))
}

/// Whether the number is a day said with its month ("24 Nov", "Nov 24") that a file's name
/// holds as month and day (`run_1124.csv`, `2026-11-24.csv`).
fn names_the_day_of_a_file(day: f64, before: &str, after: &str, files: &[&str]) -> bool {
    if !(1.0..=31.0).contains(&day) || day.fract() != 0.0 {
        return false;
    }
    let word = |text: &str| text.split(|c: char| !c.is_ascii_alphabetic()).find(|w| !w.is_empty()).map(str::to_owned);
    let month = word(after).and_then(|w| crate::reading::month_number(&w)).or_else(|| {
        before.rsplit(|c: char| !c.is_ascii_alphabetic()).find(|w| !w.is_empty()).and_then(crate::reading::month_number)
    });
    let Some(month) = month else { return false };
    let day = day as u32;
    let forms = [format!("{month:02}{day:02}"), format!("{month:02}-{day:02}"), format!("{month:02}_{day:02}")];
    files.iter().any(|f| forms.iter().any(|form| f.contains(form.as_str())))
}

/// 「12月1日〜12月14日（15日より前）」, "through the 14th (before the 15th)": a day said again as
/// the bound of a date the plan compares with — the day before it, or the day itself.
fn restates_a_day(day: f64, before: &str, after: &str, plan: &planwright_plan::Plan) -> bool {
    let english = |s: &str| before.ends_with(s) && ["th", "st", "nd", "rd"].iter().any(|o| after.starts_with(o));
    let day_before = ["日より前", "日未満", "日の前"].iter().any(|w| after.starts_with(w)) || english("before the");
    let the_day = ["日まで", "日以前", "日の分まで"].iter().any(|w| after.starts_with(w))
        || english("until the")
        || english("through the");
    let wanted = match (day_before, the_day) {
        (true, _) => day - 1.0,
        (_, true) => day,
        _ => return false,
    };
    plan_dates(plan).iter().any(|date| date[8..].parse::<f64>().ok() == Some(wanted))
}

/// A number of a sheet's title or header rows: "two title lines", "1 blank row on top",
/// 「2行のタイトル」, 「3行目」.
static SHEET_LAYOUT: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(
        r"^(?:(?:title|header|heading|blank|empty|extra|junk)\s+(?:lines?|rows?)|(?:lines?|rows?)\s+(?:of\s+(?:titles?|headings?)|on\s+top|at\s+the\s+top|above))\b|^(?:行目|行のタイトル|行の見出し|行の表題|行分のタイトル|行(?:分)?(?:は|が)(?:タイトル|表題|見出し|空行|空白))",
    )
    .expect("sheet layout")
});

/// 「上に表題が2行」「タイトルは3行」: the rows above a sheet's header.
static JA_TITLE_ROWS: LazyLock<Regex> =
    LazyLock::new(|| Regex::new(r"(?:表題|タイトル|見出し|題名)(?:行)?(?:が|は)?$").expect("title rows"));

/// "the headers are on row 3", "header row 2": a row of a sheet by its number.
static SHEET_ROW: LazyLock<Regex> = LazyLock::new(|| Regex::new(r"\b(?:on\s+)?(?:row|line)$").expect("sheet row"));

/// Whether the plan reads a workbook's sheet.
fn reads_a_sheet(plan: &planwright_plan::Plan) -> bool {
    plan.graph.iter().any(|n| n.block.as_deref() == Some("excel.read_data"))
}

/// A count of things that are not rows: "2 files", 「3つのファイル」「列は3つ」.
static COUNTS: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(
        r"^(?:[a-z]+ )?(?:files?|parts?|things?|steps?|tasks?|sheets?|tabs?|columns?|exports?|downloads?|lists?|tables?|workbooks?|reports?|sources?|systems?)\b|^(?:つ|個のファイル|ファイル|枚|シート|列|項目|カラム)",
    )
        .expect("counts")
});

/// The file of a read step whose rows no other step uses: the instruction named that file for a
/// reason the plan lost ("which requirements have no test case in test_cases.csv"), so the
/// engine asks rather than give a plan that ignores it.
pub fn unused_source(plan: &planwright_plan::Plan) -> Option<String> {
    let used_by_others = |id: &str| {
        plan.graph.iter().filter(|other| other.id != id).any(|other| {
            let text = serde_json::to_string(other).unwrap_or_default();
            let uses = planwright_plan::reference::scan_references(&text)
                .flatten()
                .any(|r| matches!(&r.root, planwright_plan::Root::Node(node) if node == id));
            uses
        })
    };
    plan.graph.iter().filter(|node| crate::reads_a_table(node)).find(|node| !used_by_others(&node.id)).map(|node| {
        let path = node.inputs.get("path").and_then(Value::as_str).unwrap_or(&node.id);
        // A path given by a var is named by the file the var holds.
        let var = planwright_plan::reference::var_named(path);
        var.and_then(|var| plan.vars.get(&var)?.as_str().map(str::to_owned)).unwrap_or_else(|| path.to_owned())
    })
}

/// A file a write step writes that no read step reads and that `other_data` says is in the
/// work folder with other columns than the step writes: the instruction named data the plan
/// would destroy ("their entries in timesheet.csv" read as the file to write), not the output
/// of an earlier run.
pub fn overwritten_input(
    plan: &planwright_plan::Plan,
    other_data: impl Fn(&planwright_plan::Node, &str) -> bool,
) -> Option<String> {
    let path = |node: &planwright_plan::Node| node.inputs.get("path").and_then(Value::as_str).map(str::to_owned);
    let read: Vec<String> = plan.graph.iter().filter(|node| crate::reads_a_table(node)).filter_map(path).collect();
    plan.graph
        .iter()
        .filter(|node| matches!(node.block.as_deref(), Some("report.write" | "excel.write")))
        .filter_map(|node| Some((node, path(node)?)))
        .find(|(node, written)| !read.contains(written) && other_data(node, written))
        .map(|(_, written)| written)
}

static TOTAL_LISTED: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(r"^(?:and\s+)?(?:the\s+)?(?:number of|count of|total|sum of|average|mean|how many)\b")
        .expect("total listed")
});

/// Lists of three names or more that `column` knows as columns of the data ("the invoice no,
/// client and amount", 「見積番号・顧客名・有効期限」), each as its words and the columns it names.
/// The first name may end a clause ("I need the invoice no") and the last start one ("amount
/// and how many days…"): of those, the words nearest the list are tried.
pub fn column_lists(text: &str, column: impl Fn(&str) -> Option<String>) -> Vec<(String, Vec<String>)> {
    let mut lists = Vec::new();
    for sentence in SENTENCE_END.split(text) {
        // Each part of the sentence with where it stands in it.
        let mut parts: Vec<(usize, &str)> = Vec::new();
        let mut at = 0;
        for separator in LIST_SEPARATOR.find_iter(sentence) {
            parts.push((at, &sentence[at..separator.start()]));
            at = separator.end();
        }
        parts.push((at, &sentence[at..]));
        let mut run: Vec<String> = Vec::new();
        let mut span = 0..0;
        let mut close = |run: &mut Vec<String>, span: &std::ops::Range<usize>| {
            if run.len() >= 3 {
                lists.push((sentence[span.clone()].trim().to_owned(), std::mem::take(run)));
            }
            run.clear();
        };
        for (i, (start, part)) in parts.iter().enumerate() {
            // ("the month, the number of jobs and the total charge": a total made, no column
            // of the data.)
            let a_total = TOTAL_LISTED.is_match(&part.trim().to_ascii_lowercase());
            let named = match run.is_empty() {
                _ if a_total => None,
                true => ends_naming(part, &column),
                false => column(part.trim()).or_else(|| starts_naming(part, &column)),
            };
            match named.filter(|c| !run.contains(c)) {
                Some(found) => {
                    if run.is_empty() {
                        span.start = *start;
                    }
                    run.push(found);
                    span.end = start + part.len();
                }
                None => {
                    close(&mut run, &span);
                    // (This part may start the next list.)
                    if let Some(found) = ends_naming(part, &column).filter(|_| i + 1 < parts.len()) {
                        run.push(found);
                        span = *start..start + part.len();
                    }
                }
            }
        }
        close(&mut run, &span);
    }
    lists
}

/// The column the last words of `part` name (up to three English words; the Japanese noun after
/// its last particle).
fn ends_naming(part: &str, column: &impl Fn(&str) -> Option<String>) -> Option<String> {
    let words: Vec<&str> = part.split_whitespace().collect();
    let english = (1..=words.len().min(3)).rev().find_map(|n| column(&words[words.len() - n..].join(" ")));
    english.or_else(|| {
        let noun: String = part.chars().rev().take_while(|c| !is_particle_or_space(*c)).collect();
        let noun: String = noun.chars().rev().collect();
        (!noun.is_empty() && noun != part).then(|| column(&noun)).flatten()
    })
}

/// The column the first words of `part` name (up to three English words; the Japanese noun before
/// its first particle).
fn starts_naming(part: &str, column: &impl Fn(&str) -> Option<String>) -> Option<String> {
    let words: Vec<&str> = part.split_whitespace().collect();
    let english = (1..=words.len().min(3)).rev().find_map(|n| column(&words[..n].join(" ")));
    english.or_else(|| {
        let noun: String = part.chars().take_while(|c| !is_particle_or_space(*c)).collect();
        (!noun.is_empty() && noun != part).then(|| column(&noun)).flatten()
    })
}

/// Hiragana (the particles that end a Japanese noun), brackets and spaces.
fn is_particle_or_space(c: char) -> bool {
    matches!(c, '\u{3040}'..='\u{309f}' | '（' | '）' | '(' | ')' | '「' | '」') || c.is_whitespace()
}

static SENTENCE_END: LazyLock<Regex> =
    LazyLock::new(|| Regex::new(r"[。!?！？:：;\n]|\.(?:\s|$)").expect("sentence end"));
static LIST_SEPARATOR: LazyLock<Regex> =
    LazyLock::new(|| Regex::new(r"(?i)\s*,\s*(?:and\s+)?|\s+and\s+|、|・|\s*/\s*").expect("list separator"));

/// What a plan's steps and vars hold, value by value (numbers, texts, flags); descriptions (the
/// instruction itself) say nothing done.
pub(crate) fn plan_values(plan: &planwright_plan::Plan) -> Vec<Value> {
    fn walk(value: Value, into: &mut Vec<Value>) {
        match value {
            Value::Array(items) => items.into_iter().for_each(|v| walk(v, into)),
            // Ids and output names are the plan's own words ("filter_rows_2"), not the person's;
            // the digits of a file's name ("top5_customers.xlsx") are no figure it uses.
            Value::Object(map) => map
                .into_iter()
                .filter(|(k, _)| !matches!(k.as_str(), "description" | "id" | "out" | "path"))
                .for_each(|(_, v)| walk(v, into)),
            Value::Null => {}
            scalar => into.push(scalar),
        }
    }
    let mut values = Vec::new();
    walk(serde_json::to_value((&plan.graph, &plan.vars)).unwrap_or_default(), &mut values);
    values
}

/// `${node.port}`: a reference names a node, and a node's id is no figure.
static REFERENCE: LazyLock<Regex> = LazyLock::new(|| Regex::new(r"\$\{[^}]*\}").expect("reference"));

/// The numbers a value holds: itself, or the digits inside a text (a date's year).
fn numbers_in(value: &Value) -> Vec<f64> {
    match value {
        Value::Number(n) => n.as_f64().into_iter().collect(),
        Value::String(s) => REFERENCE
            .replace_all(s, " ")
            .split(|c: char| !(c.is_ascii_digit() || c == '.'))
            .filter_map(|d| d.trim_matches('.').parse::<f64>().ok())
            .collect(),
        _ => Vec::new(),
    }
}

/// Whether `month` lies strictly between the first and the last month of the dates a filter of
/// `plan` compares with (`${vars.year}-10-01` … `${vars.year}-12-01`).
fn month_between_the_dates_kept(plan: &planwright_plan::Plan, month: f64) -> bool {
    static MONTH_OF_A_DATE: LazyLock<Regex> =
        LazyLock::new(|| Regex::new(r"-(\d{2})-\d{2}$").expect("month of a date"));
    let months: Vec<f64> = plan_values(plan)
        .iter()
        .filter_map(Value::as_str)
        .filter_map(|v| MONTH_OF_A_DATE.captures(v)?[1].parse().ok())
        .collect();
    let (Some(first), Some(last)) = (months.iter().copied().reduce(f64::min), months.iter().copied().reduce(f64::max))
    else {
        return false;
    };
    compares_dates(plan) && first < month && month < last
}

/// The words around `start..end`, at most a few on each side.
fn around(text: &str, start: usize, end: usize) -> String {
    let from = text[..start].char_indices().rev().nth(15).map_or(0, |(i, _)| i);
    let to = text[end..].char_indices().nth(12).map_or(text.len(), |(i, _)| end + i);
    // Whole words: "tests failed two or more times", not "ch tests failed two or more tim".
    let in_word = |c: char| c.is_ascii_alphanumeric();
    let from = text[..from].char_indices().rev().find(|(_, c)| !in_word(*c)).map_or(0, |(i, c)| i + c.len_utf8());
    let to = text[to..].find(|c: char| !in_word(c)).map_or(text.len(), |i| to + i);
    text[from..to].trim().to_owned()
}

/// The questions for the unsaid parts, in the instruction's language.
pub fn questions(unsaid: &[(Part, Option<Unplaced>)], language: Language) -> Vec<DesignRequirement> {
    unsaid
        .iter()
        .map(|(part, action)| {
            let (label, hint) = match (part, language) {
                (Part::Read, Language::En) => ("What should it read?", "e.g. payments.csv from the bank"),
                (Part::Read, Language::Ja) => ("何を読み込みますか？", "例：銀行の入金明細.csv"),
                (Part::Do, Language::En) => {
                    ("What should it do with the data?", "e.g. keep the approved rows and total the amount per vendor")
                }
                (Part::Do, Language::Ja) => {
                    ("データをどうしますか？", "例：承認済みの行だけ残し、取引先ごとに金額を合計する")
                }
                (Part::Write, Language::En) => ("What should it write?", "e.g. an Excel file totals.xlsx"),
                (Part::Write, Language::Ja) => ("何を出力しますか？", "例：集計結果.xlsx に出力"),
            };
            let description = action.as_ref().map(|action| match (action, language) {
                (Unplaced::Words(words), Language::En) => format!(
                    "The instruction says \"{words}\", but not in steps the engine can build: say it as steps."
                ),
                (Unplaced::Words(words), Language::Ja) => {
                    format!("指示の「{words}」を、作れる手順として読み取れませんでした。手順として書いてください。")
                }
                (Unplaced::NothingWritten(file), Language::En) => format!(
                    "Tried on the files in the work folder, the plan designed writes no rows to {file}: say which rows to keep and how."
                ),
                (Unplaced::NothingWritten(file), Language::Ja) => format!(
                    "作業フォルダーのファイルで試すと、設計した手順では {file} に1行も出力されません。どの行をどう残すかを書いてください。"
                ),
                (Unplaced::OtherColumns { said, file }, Language::En) => format!(
                    "The instruction says \"{said}\", but tried on the files in the work folder, the plan designed writes other columns to {file}: say which columns to keep and what each holds."
                ),
                (Unplaced::OtherColumns { said, file }, Language::Ja) => format!(
                    "指示には「{said}」とありますが、作業フォルダーのファイルで試すと、設計した手順では {file} に別の列が出力されます。残す列とその中身を書いてください。"
                ),
                (Unplaced::ColumnsOfSomeTables { columns, files }, Language::En) => format!(
                    "{files} are put one under the other, but the columns {columns} are not in all of them, so some rows would have them empty: say which column of each file is which, or which columns to keep."
                ),
                (Unplaced::ColumnsOfSomeTables { columns, files }, Language::Ja) => format!(
                    "{files} を縦につなげますが、列 {columns} はすべてのファイルにはないため、一部の行が空欄になります。それぞれのファイルのどの列が同じものか、または残す列を書いてください。"
                ),
                (Unplaced::NoSuchValue { value, column }, Language::En) => format!(
                    "The plan would compare the column {column} with \"{value}\", and no row of the data holds that: say which value of {column} is meant."
                ),
                (Unplaced::NoSuchValue { value, column }, Language::Ja) => format!(
                    "列「{column}」を「{value}」と比べることになりますが、データにその値の行はありません。{column} のどの値のことかを書いてください。"
                ),
                (Unplaced::OverwritesInput(file), Language::En) => format!(
                    "{file} is already in the work folder, and the plan designed would write over it without reading it: say whether it is data to read, and which file to write."
                ),
                (Unplaced::OverwritesInput(file), Language::Ja) => format!(
                    "{file} は作業フォルダーにすでにあり、設計した手順では読み込まずに上書きしてしまいます。読み込むデータかどうかと、出力するファイルを書いてください。"
                ),
            });
            DesignRequirement {
                requirement: Requirement {
                    id: part.id(),
                    field: FieldType::Text,
                    label: Some(label.to_owned()),
                    description,
                    options: Vec::new(),
                    required: true,
                    accept: None,
                    hint: Some(hint.to_owned()),
                    validation: None,
                },
                target: Target::Instruction { part: part.name().to_owned() },
            }
        })
        .collect()
}

/// The instruction with the answers to its questions added, as sentences of its language.
pub fn with_answers(instruction: &str, answers: &IndexMap<String, Value>, language: Language) -> String {
    let mut text = instruction.trim().to_owned();
    for part in Part::ALL {
        let Some(answer) = answers.get(&part.id()).and_then(Value::as_str).map(str::trim).filter(|a| !a.is_empty())
        else {
            continue;
        };
        let sentence = match (part, language) {
            (Part::Read, Language::En) => format!("Read {answer}."),
            (Part::Read, Language::Ja) => format!("{answer}を読み込む。"),
            (Part::Do, Language::En) => format!("{answer}."),
            (Part::Do, Language::Ja) => format!("{answer}。"),
            (Part::Write, Language::En) => format!("Write the result to {answer}."),
            (Part::Write, Language::Ja) => format!("結果を{answer}に出力する。"),
        };
        let separator = if language == Language::Ja || text.ends_with(['.', '!', '?']) { " " } else { ". " };
        text = format!("{text}{separator}{sentence}");
    }
    text
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;
    use crate::reading::read_instruction;

    /// A plan of the nodes `graph` lists (YAML, one `- {…}` a line), or of none (`"[]"`).
    pub(crate) fn plan(graph: &str) -> planwright_plan::Plan {
        let graph = if graph.trim() == "[]" { " []".to_owned() } else { format!("\n{graph}") };
        serde_yaml::from_str(&format!("apiVersion: planwright/v1\nid: p\nversion: 1.0.0\ngraph:{graph}\n")).unwrap()
    }

    #[test]
    fn lists_of_three_column_names_or_more_are_found_with_their_words() {
        let columns = ["invoice_no", "client", "amount", "status", "見積番号", "顧客名", "有効期限"];
        let column = |words: &str| {
            let folded = words.to_lowercase().replace([' ', '_'], "").replace("no", "number");
            columns
                .iter()
                .find(|c| c.to_lowercase().replace('_', "").replace("no", "number") == folded)
                .map(|c| (*c).to_owned())
        };
        let lists =
            column_lists("Read a.csv. The report should carry invoice no / client / amount. Save out.csv", column);
        assert_eq!(
            lists,
            [(
                "The report should carry invoice no / client / amount".to_owned(),
                vec!["invoice_no".to_owned(), "client".to_owned(), "amount".to_owned()]
            )]
        );
        let lists = column_lists("For each one I need the client, amount and status of it, as of today.", column);
        assert_eq!(lists.first().map(|(_, c)| c.len()), Some(3), "{lists:?}");
        let lists = column_lists("見積一覧.csv から見積番号・顧客名・有効期限を出して", column);
        assert_eq!(
            lists.first().map(|(_, c)| c.clone()),
            Some(vec!["見積番号".to_owned(), "顧客名".to_owned(), "有効期限".to_owned()])
        );
        assert!(column_lists("Read a.csv: client and amount. Save b.csv", column).is_empty(), "two names are no list");
        assert!(column_lists("client, client and amount", column).is_empty(), "a name said twice is one column");
    }

    #[test]
    fn the_number_of_columns_said_is_read_and_a_column_added_is_not() {
        let said = |text: &str| columns_said(text).map(|(_, n)| n);
        assert_eq!(said("give me each Cost Center code once, sorted A to Z, as a single column in cc.csv"), Some(1));
        assert_eq!(said("I only need four columns, renamed: Customer as Client"), Some(4));
        assert_eq!(said("two cols: Component, Open Defects. most first."), Some(2));
        assert_eq!(said("発注先を重複なしで1列だけ、一覧.csv に出して"), Some(1));
        assert_eq!(said("列は 取引先・請求書番号・支払予定日・残高 の4つだけにして"), Some(4));
        assert_eq!(said("列は 日付、得意先、金額 の３つで"), Some(3));
        assert_eq!(said("add one column Tax = Amount * 0.1 and save"), None);
        assert_eq!(said("税額を1列追加して保存"), None);
        assert_eq!(said("total the amount per vendor"), None);
    }

    #[test]
    fn a_file_read_and_used_by_no_step_is_named() {
        let plan = |write_from: &str| {
            let text = format!(
                "apiVersion: planwright/v1\nid: p\nversion: 1.0.0\ngraph:\n\
                 - {{id: read_a, block: file.read_csv, in: {{path: a.csv}}, out: {{rows: rows}}}}\n\
                 - {{id: read_b, block: file.read_csv, in: {{path: '${{vars.b}}'}}, out: {{rows: rows}}}}\n\
                 - {{id: write, block: report.write, in: {{data: '{write_from}', format: csv, path: out.csv}}}}\n\
                 vars: {{b: b.csv}}\n"
            );
            planwright_plan::load_plan(&text).unwrap().plan.unwrap()
        };
        assert_eq!(unused_source(&plan("${read_a.rows}")).as_deref(), Some("b.csv"));
        assert_eq!(unused_source(&plan("${read_b.rows}")).as_deref(), Some("a.csv"));
        assert_eq!(unused_source(&plan("${read_a.rows} ${read_b.rows}")), None);
    }

    #[test]
    fn a_file_of_the_work_folder_written_and_never_read_is_named() {
        let plan = planwright_plan::load_plan(
            "apiVersion: planwright/v1\nid: p\nversion: 1.0.0\ngraph:\n\
             - {id: read, block: file.read_csv, in: {path: rates.csv}, out: {rows: rows}}\n\
             - {id: write, block: report.write, in: {data: '${read.rows}', format: csv, path: timesheet.csv}}\n\
             - {id: again, block: report.write, in: {data: '${read.rows}', format: csv, path: rates.csv}}\n",
        )
        .unwrap()
        .plan
        .unwrap();
        let in_folder =
            |names: &'static [&'static str]| move |_: &planwright_plan::Node, file: &str| names.contains(&file);
        assert_eq!(
            overwritten_input(&plan, in_folder(&["rates.csv", "timesheet.csv"])).as_deref(),
            Some("timesheet.csv")
        );
        assert_eq!(overwritten_input(&plan, in_folder(&["rates.csv"])), None, "a new file, or one the plan reads");
    }

    #[test]
    fn an_instruction_that_says_nothing_asks_all_three() {
        for text in ["do the monthly thing", "\u{1}\u{2} ###", "いつものやつをお願い"] {
            let reading = read_instruction(text);
            let parts: Vec<Part> = unsaid(&reading, text, false, false).into_iter().map(|(p, _)| p).collect();
            assert_eq!(parts, Part::ALL, "{text:?}");
        }
    }

    #[test]
    fn an_action_the_reader_could_not_place_is_asked_not_copied() {
        let text = "Read ledger.csv, check it for anything odd and save the result as review.xlsx";
        let reading = read_instruction(text);
        assert_eq!(unsaid(&reading, text, false, false), [(Part::Do, Some(Unplaced::Words("check".to_owned())))]);
        for (text, said) in [
            (
                "can you do the usual cleanup on monthly_close.csv and send it back the way we did it last month?",
                "do the usual",
            ),
            ("月次.csv をいつものように見やすく整えておいてください", "いつもの"),
            (
                "Could you sort out photos.csv the way Dana from marketing wanted it and send it back as clean.xlsx?",
                "sort out",
            ),
            ("Put photos.csv into clean.xlsx the way Dana wanted it", "the way dana wanted"),
            ("経費一覧.csv、いい感じにまとめて部長に出せる形にしといてもらえますか？", "いい感じ"),
            ("名簿.csv を去年と同じ感じで班分けしておいてください。班分け.csv でお願いします。", "去年と同じ"),
            ("Make teams from roster.csv like last year and save teams.csv", "like last year"),
            ("Read roster.csv, put them into teams and save teams.csv", "put them into teams"),
        ] {
            assert_eq!(
                unsaid(&read_instruction(text), text, false, false),
                [(Part::Do, Some(Unplaced::Words(said.to_owned())))]
            );
        }
        // Rules named and not given: the plan would keep the old figures.
        for (text, said) in [
            (
                "来月からキャンセル料の規定が新しくなるので、予約.csv のキャンセル分を新しい規定で計算し直して、キャンセル料.csv にして",
                "新しい規定",
            ),
            ("Take the cancelled bookings in bookings.csv, apply the new rules and save fees.csv", "new rules"),
        ] {
            assert_eq!(
                unsaid(&read_instruction(text), text, false, false),
                [(Part::Do, Some(Unplaced::Words(said.to_owned())))]
            );
        }
        let given = "Under the new rates, fee = price * 0.2. Read bookings.csv and save fees.csv";
        assert!(unsaid(&read_instruction(given), given, false, false).is_empty(), "the rule is given");
        let copy = "Convert ledger.csv to ledger.xlsx";
        assert!(unsaid(&read_instruction(copy), copy, false, false).is_empty(), "a copy is what it asks for");
    }

    #[test]
    fn the_month_a_file_read_is_named_for_and_values_listed_are_no_figures() {
        let plan = plan("[]");
        // "with those two figures": the measures said before, counted again.
        let back = "Total the honey per apiary and count the hives. One row per apiary with those two figures.";
        assert!(unused_numbers(back, &plan).is_empty(), "{:?}", unused_numbers(back, &plan));
        assert_eq!(unused_numbers("Keep the two largest per apiary", &plan).len(), 1, "a count of rows is a figure");
        // A code or a rank of people is no figure; a day of a month is.
        assert!(unused_numbers("roster.csv is my homeroom (7B), the whole 7th grade", &plan).is_empty());
        assert_eq!(unused_numbers("the slips of 7 B", &plan).len(), 1);
        // Values said to count or not, in brackets, are examples.
        let examples = "Keep the drift over 0.5 either way (+0.6 or -0.7 count, exactly +0.5 does not).";
        assert_eq!(unused_numbers(examples, &plan), ["Keep the drift over 0.5 either way ("], "only the limit");
        assert_eq!(unused_numbers("Keep the rows (only count amounts over 500)", &plan).len(), 1);
        let text = "11月の入金明細（入金明細_11月.csv）のうち、請求一覧.xlsx に同じ請求番号が見当たらないものを出して";
        assert!(unused_numbers(text, &plan).is_empty(), "{:?}", unused_numbers(text, &plan));
        let listed = "税率の列には 10 か 8 が入っています";
        assert!(unused_numbers(listed, &plan).is_empty(), "values listed with か");
        let other = "10月の入金明細（入金明細_11月.csv）のうち…を出して";
        assert_eq!(unused_numbers(other, &plan).len(), 1, "another month than the file's is a figure");
        // The day a file is named for, said with its month; a quarter the file read is of.
        let run = "QA summary for the 24 Nov regression run (regression_run_1124.csv).";
        assert!(unused_numbers(run, &plan).is_empty(), "{:?}", unused_numbers(run, &plan));
        assert_eq!(unused_numbers("the 25 Nov run (regression_run_1124.csv)", &plan).len(), 1);
        assert!(unused_numbers("Which customers bought in Q3? Use sales_q3.csv", &plan).is_empty());
        // The week a file read is named for.
        let weeks = "Combine hours_week14.csv and hours_week15.csv (the week 15 export repeats days of week 14).";
        assert!(unused_numbers(weeks, &plan).is_empty(), "{:?}", unused_numbers(weeks, &plan));
        assert_eq!(unused_numbers("Combine hours_week14.csv with week 16", &plan).len(), 1);
        assert!(unused_numbers("@here for the Dec 9 customer workshop: count the signups", &plan).is_empty());
        // An example in brackets of what a column holds.
        let example = "margin % rounded to 1 decimal (so 35.0 means 35%)";
        assert!(unused_numbers(example, &plan).is_empty(), "{:?}", unused_numbers(example, &plan));
        assert_eq!(unused_numbers("margin % (35 or more)", &plan).len(), 1, "a bracket of a limit is no example");
        let taxed = super::tests::plan(
            "- {id: t, block: transforms.add_columns, in: {items: [], columns: [{as: total, op: product, of: [subtotal], value: 1.0725}]}}",
        );
        assert!(unused_numbers("add the total with 7.25% sales tax (subtotal * 1.0725)", &taxed).is_empty());
        let counts = super::tests::plan(
            "- {id: g, block: transforms.group_by_agg, in: {items: [], by: [重要度], aggregations: [{op: count, as: 件数}]}}",
        );
        let zero = "重要度ごとの件数を出してください。件数0の組み合わせは出さなくて大丈夫です。";
        assert!(unused_numbers(zero, &counts).is_empty(), "{:?}", unused_numbers(zero, &counts));
        assert_eq!(unused_numbers(zero, &plan).len(), 1, "with nothing counted, a figure");
        assert_eq!(unused_numbers("count the signups on Dec 9", &plan).len(), 1, "a day rows are of");
        // The year a document the plan keeps rows of is for.
        let documents = super::tests::plan(
            "- {id: f, block: transforms.filter, in: {items: [], conditions: [{field: 書類, operator: eq, value: 扶養控除等申告書}]}}",
        );
        let text = "2027年分の扶養控除等申告書がまだ出ていない人";
        assert!(unused_numbers(text, &documents).is_empty(), "{:?}", unused_numbers(text, &documents));
        assert_eq!(unused_numbers(text, &plan).len(), 1, "kept by no step: a figure lost");
    }

    #[test]
    fn a_bracket_that_shows_one_case_of_a_computed_value_says_no_figure() {
        let plan = plan("[]");
        let text = "対応日数は 解決日−起票日 の日数（起票した日に解決していれば0日）。";
        assert!(unused_numbers(text, &plan).is_empty(), "{:?}", unused_numbers(text, &plan));
        assert!(unused_numbers("days_late (0 if it was paid on the due date)", &plan).is_empty());
        assert_eq!(unused_numbers("対応日数（解決日−起票日）が5日を超えるもの", &plan).len(), 1, "a limit");
        assert_eq!(unused_numbers("（取得日から数えて3年以内）", &plan).len(), 1, "no case shown");
    }

    #[test]
    fn the_numbers_of_a_list_s_items_are_no_amounts() {
        let plan = plan("[]");
        let text = "for quotes.csv please: (1) add a Tax column, (2) keep only Quote. 3) save it; over 500";
        let unused = unused_numbers(text, &plan);
        assert!(unused.len() == 1 && unused[0].ends_with("over 500"), "{unused:?}");
        let duplicates: planwright_plan::Plan = serde_yaml::from_str(
            "apiVersion: planwright/v1\nid: p\nversion: 1.0.0\ngraph:\n- {id: d, block: transforms.find_duplicates, in: {items: [], by: [a]}}\n",
        )
        .unwrap();
        let text = "支払先・金額の2つが同じ依頼が2件以上あるものを抜き出して";
        assert!(unused_numbers(text, &duplicates).is_empty(), "two or more is the duplicate check");
        assert_eq!(unused_numbers(text, &plan).len(), 1, "without one, it is a number the plan does not use");
        let text = "The till exported some lines two or three times. Drop the repeats.";
        assert!(unused_numbers(text, &duplicates).is_empty(), "how often rows came, of duplicates");
        assert_eq!(unused_numbers(text, &plan).len(), 2, "without them, numbers the plan does not use");
    }

    #[test]
    fn a_count_said_in_words_is_a_figure_the_plan_must_use() {
        let plan = plan(
            "- {id: filter_rows_2, block: transforms.filter, in: {items: '${read.rows}', conditions: [{field: Result, operator: eq, value: Failed}]}}",
        );
        let text = "Which tests failed two or more times in runs.csv? Output repeat.csv";
        let unused = unused_numbers(text, &plan);
        assert!(unused.len() == 1 && unused[0].contains("two or more times"), "{unused:?}");
        assert_eq!(unused_numbers("同じテストが三回以上失敗したもの", &plan).len(), 1);
        assert!(unused_numbers("Two things for runs.csv: keep the failed ones", &plan).is_empty(), "a count of parts");
        assert!(unused_numbers("runs.csv came from two overlapping downloads", &plan).is_empty());
    }

    #[test]
    fn the_zero_of_a_group_without_the_rows_counted_is_the_conditional_count_s() {
        let text = "月ごとに数えて、重要度高（重要度が「高」の件数。1件もない月は0）も出して";
        let counted = |when: &str| {
            plan(&format!(
                "- {{id: g, block: transforms.group_by_agg, in: {{items: [], by: [月], aggregations: [{{op: count, as: 重要度高{when}}}]}}}}"
            ))
        };
        assert!(unused_numbers(text, &counted(", when: [{field: 重要度, operator: eq, value: 高}]")).is_empty());
        assert_eq!(unused_numbers(text, &counted("")).len(), 1, "a count of every row says nothing of the 0");
    }

    #[test]
    fn values_listed_worked_examples_and_a_divisor_used_as_its_inverse_are_no_unused_figures() {
        let none = plan("- {id: w, block: report.write, in: {data: [], format: csv, path: out.csv}}");
        let said =
            "vat_rate is a percentage (20, 5 or 0); round halves up (so 6.025 becomes 6.03). 税率は 10 や 8 の数字です";
        assert!(unused_numbers(said, &none).is_empty(), "{:?}", unused_numbers(said, &none));
        assert_eq!(
            unused_numbers("keep the rows (over 500, please)", &none).len(),
            1,
            "a bracket with words is no list of values"
        );
        let vat = plan(
            "- {id: a, block: transforms.add_columns, in: {items: [], columns: [{as: vat, op: product, of: [net, rate], value: 0.01}]}}",
        );
        assert!(unused_numbers("vat = net x rate / 100", &vat).is_empty());
        assert_eq!(unused_numbers("vat = net x rate / 1000", &vat).len(), 1);
        assert_eq!(
            unused_numbers("keep the rows over 100, vat = net x rate", &vat).len(),
            1,
            "only a divisor is an inverse"
        );
    }

    #[test]
    fn a_sheet_s_title_rows_and_name_the_tables_read_and_the_items_listed_are_no_figures() {
        let sheet = plan("- {id: r, block: excel.read_data, in: {path: a.xlsx, sheet: v5.0}}");
        let said = "a.xlsx, sheet v5.0 (two title lines on top, the headers are on row 3)";
        assert!(unused_numbers(said, &sheet).is_empty(), "{:?}", unused_numbers(said, &sheet));
        assert!(unused_numbers("固定資産台帳.xlsx（上に表題が2行あります）", &sheet).is_empty());
        assert!(unused_numbers("講師謝金.xlsx（シート「12月」、上の2行はタイトル）から", &sheet).is_empty());
        let none = plan("- {id: w, block: report.write, in: {data: [], format: csv, path: out.csv}}");
        assert_eq!(unused_numbers("keep 2 rows", &none).len(), 1);
        let two = plan(
            "- {id: a, block: file.read_csv, in: {path: a.csv}}\n- {id: b, block: file.read_csv, in: {path: b.csv}}",
        );
        assert!(unused_numbers("a.csv and b.csv are the two plants' registers", &two).is_empty());
        assert_eq!(unused_numbers("keep the three largest", &two).len(), 1, "only the number of tables read");
        assert_eq!(unused_numbers("keep the two largest", &two).len(), 1, "a count of rows is a figure");
        assert!(unused_numbers("取引先・請求書番号・金額の3項目がすべて同じ", &none).is_empty());
    }

    #[test]
    fn the_number_of_a_release_is_no_figure() {
        let none = plan("- {id: w, block: report.write, in: {data: [], format: csv, path: out.csv}}");
        assert!(unused_numbers("Before we sign off release 4.2, list the open bugs", &none).is_empty());
        assert_eq!(unused_numbers("list the bugs older than 4.2 days", &none).len(), 1);
    }

    #[test]
    fn the_digits_of_a_file_name_are_no_figure_the_plan_uses() {
        let plan = plan("- {id: w, block: report.write, in: {data: [], format: csv, path: top5_customers.csv}}");
        let unused = unused_numbers("keep only the 5 customers with the highest total; save top5_customers.csv", &plan);
        assert_eq!(unused.len(), 1, "{unused:?}");
    }

    #[test]
    fn the_hundred_of_a_percentage_is_the_percent_column() {
        let percent = plan("- {id: c, block: transforms.add_columns, in: {items: [], columns: [{as: rate, op: percent, of: [passed, runs]}]}}");
        let ratio = plan("- {id: c, block: transforms.add_columns, in: {items: [], columns: [{as: rate, op: ratio, of: [passed, runs]}]}}");
        assert!(unused_numbers("rate = passed / runs * 100", &percent).is_empty());
        assert_eq!(unused_numbers("rate = passed / runs * 100", &ratio).len(), 1);
    }

    #[test]
    fn a_day_said_again_as_a_date_bound_is_no_other_figure() {
        let plan = plan(
            "- {id: f, block: transforms.filter, in: {items: [], conditions: [{field: d, operator: between, value: '2026-12-01', value2: '2026-12-14'}]}}",
        );
        assert!(unused_numbers("支払予定日が2026年12月1日〜12月14日（15日より前）のもの", &plan).is_empty());
        assert!(unused_numbers("due Dec 1 2026 through the 14th (before the 15th)", &plan).is_empty());
        assert_eq!(unused_numbers("2026年12月1日〜12月14日（16日より前）", &plan).len(), 1, "not the bound");
        assert!(unused_numbers("平均は小数第2位を四捨五入して", &plan).is_empty(), "the place rounded at");
    }

    #[test]
    fn the_form_of_a_value_and_its_examples_are_no_figures() {
        let plan = plan("[]");
        let text = "取引先コードは先頭の0も含めた4桁の文字列です（0012 など）。金額が5万円以上";
        let unused = unused_numbers(text, &plan);
        assert!(unused.len() == 1 && unused[0].contains("5万円"), "{unused:?}");
        // A month shown in quotes as the form, and how it is padded.
        let text = "月は「2026年9月」のような書き方（月は0埋めしない）にして、9月から月の順に。金額が5万円以上";
        let unused = unused_numbers(text, &plan);
        assert!(unused.len() == 1 && unused[0].contains("5万円"), "{unused:?}");
    }

    #[test]
    fn an_operation_among_others_the_reader_could_not_place_is_asked_until_answered() {
        for (text, words) in [
            (
                "Read stock.csv, keep the rows with a quantity under 5, tally up each warehouse's shelves and save low.csv",
                "tally up each warehouse's shelves",
            ),
            ("在庫.csvの数量が5未満の行を残し、棚の回転率を計算して、不足.csvに保存", "回転率を計算して"),
        ] {
            let reading = read_instruction(text);
            assert!(!reading.steps.is_empty(), "{text}: the filter is read");
            let unsaid_parts = unsaid(&reading, text, false, false);
            assert_eq!(unsaid_parts.len(), 1, "{text}: {unsaid_parts:?}");
            assert_eq!(unsaid_parts[0].0, Part::Do);
            assert!(
                matches!(&unsaid_parts[0].1, Some(Unplaced::Words(w)) if w.contains(words)),
                "{text}: {unsaid_parts:?}"
            );
            assert!(unsaid(&reading, text, false, true).is_empty(), "{text}: answered, not asked again");
        }
        // A word naming an operation read elsewhere is a reference to it, not a new one.
        let text = "how many orders per customer in orders.csv? just customer + count, into counts.csv";
        assert!(unsaid(&read_instruction(text), text, false, false).is_empty());
    }

    #[test]
    fn answers_become_sentences_read_again() {
        let answers = IndexMap::from([
            ("instruction.read".to_owned(), Value::from("payments.csv")),
            ("instruction.write".to_owned(), Value::from("totals.xlsx")),
        ]);
        let text = with_answers("do the monthly thing", &answers, Language::En);
        assert_eq!(text, "do the monthly thing. Read payments.csv. Write the result to totals.xlsx.");
        let reading = read_instruction(&text);
        assert_eq!(reading.sources.len(), 1);
        assert_eq!(reading.outputs.len(), 1);
    }
}
