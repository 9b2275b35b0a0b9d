//! Words of the instruction that a plan must keep and can be checked against it: an order
//! ("most failures first", 「金額の大きい順」), a kind of total ("the average", 「件数」), rounding
//! down or up, and a result at all. A plan that sorts the other way, sums where the person asked
//! for an average or writes nothing would be a plausible wrong answer; the engine asks instead
//! (issue 27 §4).

use std::sync::LazyLock;

use regex::Regex;
use serde_json::Value;

/// A column a grouping names twice: two words of the text bound to one column (「職場コード」
/// and 「職場名」 both to 職場), so one of them is not that column and its groups are not the
/// ones asked for.
pub fn key_grouped_twice(plan: &planwright_plan::Plan) -> Option<String> {
    plan.graph
        .iter()
        .filter(|node| node.block.as_deref() == Some("transforms.group_by_agg"))
        .filter_map(|node| node.inputs.get("by").and_then(Value::as_array))
        .find_map(|by| {
            let keys: Vec<&str> = by.iter().filter_map(Value::as_str).collect();
            keys.iter().enumerate().find(|(i, key)| keys[..*i].contains(key)).map(|(_, key)| (*key).to_owned())
        })
}

/// An order the text asks for that no sort of the plan gives, as the text says it.
pub fn unkept_order(text: &str, plan: &planwright_plan::Plan) -> Option<String> {
    let lower = text.to_ascii_lowercase();
    let orders: Vec<&str> = sorts(plan).collect();
    let directed = [(&*DESCENDING, "desc"), (&*ASCENDING, "asc")].into_iter().find_map(|(words, order)| {
        let said = words.find(&lower)?;
        (!orders.contains(&order)).then(|| text[said.range()].to_owned())
    });
    // "with the worst pass_rate at the top", 「並べ替えて」: an order of some way, and no sort.
    directed.or_else(|| ORDER_SAID.find(&lower).filter(|_| orders.is_empty()).map(|said| text[said.range()].to_owned()))
}

static ORDER_SAID: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(r"\b(?:sort(?:ed)?|order(?:ed)?|rank(?:ed)?) by\b|\b[a-z]+est (?:\(?[a-z_]+\)? ){0,3}first\b|\b(?:worst|best|most|least|highest|lowest|biggest|smallest|largest|newest|oldest) [a-z_]+(?: [a-z_]+)? (?:at the top|on top)\b|並べ替え|並び替え|ソート")
        .expect("order said")
});

/// A kind of total the text asks for (an average, a count) that no step of the plan computes,
/// as the text says it.
pub fn unkept_total(text: &str, plan: &planwright_plan::Plan) -> Option<String> {
    let lower = text.to_ascii_lowercase();
    let ops: Vec<String> = totals(plan).collect();
    let counted = ops.iter().any(|op| op == "count") || counts_rows(plan);
    // (「平均在庫=(期首在庫金額+期末在庫金額)÷2」: a column the plan names, no average of rows.)
    let plan_text = serde_json::to_string(&plan.graph).unwrap_or_default();
    let names_a_column = |m: &regex::Match| {
        let noun = |c: &char| matches!(c, '\u{4e00}'..='\u{9fff}' | '\u{30a1}'..='\u{30fa}' | 'ー');
        let before: String =
            lower[..m.start()].chars().rev().take_while(noun).collect::<Vec<_>>().into_iter().rev().collect();
        let after: String = lower[m.end()..].chars().take_while(noun).collect();
        let word = format!("{before}{}{after}", m.as_str());
        // ("how many to order (par level minus qty)": an English column named by the words.)
        let named_from_here = plan_text.match_indices(&format!("\"{}", m.as_str())).any(|(at, _)| {
            let name = plan_text[at + 1..].split('"').next().unwrap_or_default().to_lowercase();
            name.len() > m.len() && lower[m.start()..].starts_with(&name)
        });
        word != m.as_str() && plan_text.contains(&format!("\"{word}\"")) || named_from_here
    };
    let said = AVERAGE.find_iter(&lower).find(|m| !names_a_column(m));
    if let Some(said) = said.filter(|_| !ops.iter().any(|op| op == "avg")) {
        return Some(text[said.range()].to_owned());
    }
    // ("We count the vaccine fridge every week": what people do, no count asked.)
    let done_by_people = |m: &regex::Match| {
        let before = lower[..m.start()].trim_end();
        ["we", "i", "they", "you", "people", "staff", "someone"].iter().any(|w| {
            before.strip_suffix(w).is_some_and(|rest| rest.is_empty() || rest.ends_with(|c: char| !c.is_alphanumeric()))
        })
    };
    let count = COUNT
        .captures_iter(&lower)
        .filter(|c| c.name("measure").is_none())
        .find_map(|c| c.get(0).filter(|m| !names_a_column(m) && !done_by_people(m)))
        .filter(|_| !counted);
    // 「部署別に合計金額と件数を」 read as a count alone: a plan that groups, totals nothing and
    // was asked for a total drops it. (One that does not group totals nothing it could lose:
    // "total cost (parts + labor)" is a column of each row.)
    let grouped = ops.iter().any(|op| op != "sum") && !ops.iter().any(|op| op == "sum");
    let a_count =
        |m: &regex::Match| ["number", "count", "件数", "人数", "回数"].iter().any(|w| m.as_str().ends_with(w));
    // (「実施件数（OKとNGの合計）」: an aside that says how a column is made.)
    let in_brackets = |m: &regex::Match| {
        let before = &lower[..m.start()];
        let opened = before.rfind(['(', '（']);
        opened.is_some_and(|o| !before[o..].contains([')', '）']))
    };
    // (「平均受注額＝受注金額の合計÷件数」: a total divided in a formula says how an average is made.)
    let divided = |m: &regex::Match| {
        let after = lower[m.end()..].trim_start();
        ["÷", "/", "divided"].iter().any(|w| after.starts_with(w))
    };
    let sum = SUM
        .find_iter(&lower)
        .find(|m| !a_count(m) && !in_brackets(m) && !divided(m) && !names_a_column(m))
        .filter(|_| grouped);
    // "the total we spent with each vendor" and a plan that groups nothing: every row written
    // where one total per key was asked for.
    let groups = plan.graph.iter().any(|node| node.block.as_deref() == Some("transforms.group_by_agg"));
    let per_key = TOTAL_PER_KEY
        .captures_iter(&lower)
        .find(|c| !crate::reading::slots::is_row_noun(&c["key"]) && !in_brackets(&c.get(0).expect("match")))
        .filter(|_| !groups)
        .map(|c| c.get(0).expect("match"));
    count.or(sum).or(per_key).map(|said| text[said.range()].to_owned())
}

/// A total said of each of something: "the total we spent with each vendor", "total hours per
/// person".
static TOTAL_PER_KEY: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(
        r"\b(?:total|totals|sum|subtotals?|add up)\b(?: [a-z_']+){0,4}? (?:per|for each|for every|with each|to each|from each|on each|at each|in each|by each) (?P<key>[a-z_]+)",
    )
    .expect("total per key")
});

/// Rows said to count once ("if someone signed up both ways, count them once", 「重複は1件として」,
/// "remove the duplicates") where no step of the plan removes or finds duplicates, as the text
/// says it: every copy would be counted or written.
pub fn unkept_once(text: &str, plan: &planwright_plan::Plan) -> Option<String> {
    const DUPLICATE_STEPS: [&str; 2] = ["transforms.remove_duplicates", "transforms.find_duplicates"];
    let handled = plan.graph.iter().any(|node| node.block.as_deref().is_some_and(|b| DUPLICATE_STEPS.contains(&b)));
    if handled {
        return None;
    }
    let lower = text.to_ascii_lowercase();
    ONCE.find(&lower).map(|said| text[said.range()].to_owned())
}

static ONCE: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(
        r"\b(?:count(?:ed|ing)? (?:them|it|those|each(?: one)?|that person|him|her) (?:only )?once|(?:only|just) (?:be )?(?:counted|listed|kept|shown) once|(?:de-?dup(?:e|licate)[sd]?|de-?duplicat\w+|double[- ]count\w*|remove (?:the |any )?duplicates?)\b)|重複を(?:除|削除|排除|取り除|消|なく)|(?:1|１|一)(?:回|件|人|度)(?:だけ|のみ|として)(?:数え|カウント|扱)",
    )
    .expect("once")
});

/// The latest of something said ("which tests failed in the latest run", 「前回の実行で失敗したテスト」)
/// where no step of the plan orders, keeps one row of each or takes a maximum, as the text says
/// it: the rows of every run would be written as the latest one's.
pub fn unkept_latest(text: &str, plan: &planwright_plan::Plan) -> Option<String> {
    const PICKS_ONE: [&str; 3] = ["transforms.sort", "transforms.remove_duplicates", "transforms.find_duplicates"];
    let picks = plan.graph.iter().any(|node| node.block.as_deref().is_some_and(|b| PICKS_ONE.contains(&b)));
    if picks || totals(plan).any(|op| op == "max" || op == "min") {
        return None;
    }
    let lower = text.to_ascii_lowercase();
    LATEST.captures_iter(&lower).find_map(|c| {
        let noun = c.name("noun").map_or("", |n| n.as_str());
        // ("the latest month", "newest first": a period or an order, read as such.)
        const NO_ONE_OF_MANY: [&str; 11] =
            ["first", "month", "week", "year", "quarter", "day", "days", "business", "working", "fiscal", "to"];
        (!NO_ONE_OF_MANY.contains(&noun)).then(|| text[c.get(0).expect("match").range()].to_owned())
    })
}

static LATEST: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(
        r"\b(?:latest|most recent|newest) (?P<noun>[a-z_]+)\b|\b(?:last|previous|prior) (?:run|build|batch|import|upload|export|release|version|sprint|cycle|snapshot|load|sync|test run|execution)\b|(?:最新|直近|前回|最後)の(?:回|実行|ビルド|バッチ|取込|取り込み|リリース|版|バージョン|テスト|スプリント)",
    )
    .expect("latest")
});

/// A column said to be added ("add a days_overdue column", 「経過日数の列を追加して」) where no step
/// of the plan makes a column, as the text says it: the table would be written without it.
pub fn unkept_added_column(text: &str, plan: &planwright_plan::Plan) -> Option<String> {
    const KEEPS_COLUMNS: [&str; 10] = [
        "file.read_csv",
        "excel.read_data",
        "transforms.filter",
        "transforms.sort",
        "transforms.pick",
        "transforms.remove_duplicates",
        "transforms.select_columns",
        "transforms.append",
        "report.write",
        "excel.write",
    ];
    let keeps = plan.graph.iter().all(|node| node.block.as_deref().is_some_and(|b| KEEPS_COLUMNS.contains(&b)));
    if !keeps || !plan.graph.iter().any(crate::reads_a_table) {
        return None;
    }
    // ("add a Route column saying North or South": the column that tells which table a row came from.)
    let tells_the_table = |name: &str| {
        plan.graph.iter().any(|node| node.inputs.get("source_column").and_then(Value::as_str) == Some(name))
    };
    let lower = text.to_ascii_lowercase();
    COLUMN_ADDED
        .find_iter(&lower)
        .map(|m| &text[m.range()])
        .find(|said| !said.split_whitespace().any(tells_the_table))
        .map(str::to_owned)
}

static COLUMN_ADDED: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(
        r"\badd(?:ing|s)? (?:a |an |one |two |three |new |extra )*(?:[\w-]+ ){0,3}columns?\b|\b(?:new|extra) columns?\b|(?:列|欄|項目)を?(?:追加|足し|足す|加え|加える|付け|付ける|つけ|つける|設け|作)",
    )
    .expect("column added")
});

/// A share of the whole said ("each rep's share of the total", 「構成比も出して」) where no step
/// divides one amount by another, as the text says it: the column would be missing.
pub fn unkept_share(text: &str, plan: &planwright_plan::Plan) -> Option<String> {
    // (A column of a ratio or a percent, or a formula that divides; not a "/" of a path or a date.)
    let divides = |column: &Value| {
        matches!(column.get("op").and_then(Value::as_str), Some("ratio" | "percent" | "share"))
            || column.get("formula").and_then(Value::as_str).is_some_and(|f| f.contains(['/', '÷']))
    };
    let computed = plan
        .graph
        .iter()
        .filter(|node| node.block.as_deref() == Some("transforms.add_columns"))
        .flat_map(|node| node.inputs.get("columns").and_then(Value::as_array).into_iter().flatten())
        .any(divides);
    if computed {
        return None;
    }
    let lower = text.to_ascii_lowercase();
    SHARE_SAID.find(&lower).map(|m| text[m.range()].to_owned())
}

static SHARE_SAID: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(
        r"\b(?:share|percentage|percent|proportion|%) of (?:the |all |our )?(?:total|whole|overall|grand total|sum)\b|構成比|占める割合|全体に占め|シェア",
    )
    .expect("share said")
});

/// Rounding down or up the text asks for ("rounded down", 「1円未満は切り捨て」) that no step of
/// the plan does that way, as the text says it: rounding to the nearest instead would give a
/// plausible wrong amount.
/// Rounding said where no step rounds at all ("rounded half-up to whole seconds") is asked
/// about too: the amounts would be written unrounded.
pub fn unkept_rounding(text: &str, plan: &planwright_plan::Plan) -> Option<String> {
    let lower = text.to_ascii_lowercase();
    let rounds: Vec<&Value> = plan
        .graph
        .iter()
        .filter(|node| node.block.as_deref() == Some("transforms.add_columns"))
        .filter_map(|node| node.inputs.get("columns")?.as_array())
        .flatten()
        .filter(|column| column.get("op").and_then(Value::as_str) == Some("round"))
        .collect();
    // "halves rounded up", "round half up": to the nearest, a half away from zero.
    let of_halves =
        |m: &regex::Match| ["halves ", "half ", "0.5 ", ".5 "].iter().any(|h| lower[..m.start()].ends_with(h));
    if let Some(said) = DIRECTED_ROUNDING.find_iter(&lower).find(|m| !of_halves(m)) {
        let words = &text[said.range()];
        let wanted = crate::reading::rounding::Direction::said(words).block_value();
        let kept = rounds.iter().any(|column| column.get("rounding").and_then(Value::as_str) == Some(wanted));
        return (!kept).then(|| words.to_owned());
    }
    let said = ROUNDING.find(&lower).filter(|_| rounds.is_empty())?;
    Some(text[said.range()].to_owned())
}

/// Whether the words after a month say an order starts at it (「4月から年度の順に」「9月から月の
/// 順に」「9月から順に」): no rows kept.
pub fn starts_an_order(after: &str) -> bool {
    let after = after.trim_start();
    ["から年度", "からの年度", "から会計年度", "始まり", "スタート"].iter().any(|w| after.starts_with(w))
        || after.strip_prefix("から").is_some_and(|rest| rest.chars().take(6).collect::<String>().contains('順'))
}

/// A period said ("Q3", "last month", "October", 「第3四半期」, 「先月」, 「10月」) that no filter of
/// the plan keeps rows by, as the text says it: the plan would use every date's rows. ("This
/// month", 「今月の支払データ」, mostly says which file, not which rows.) (Not a file's name,
/// 「予算実績_2026上期.csv」, nor what the work is for, "for the Q3 pack".)
///
/// A month by its name is kept, too, by a file read (not the one written) named for it
/// (`expenses_oct.csv`, 「入金明細_11月.csv」) or by the data, when every date of a column of the
/// first table read falls in it (`whole_months`).
pub fn unkept_period(text: &str, plan: &planwright_plan::Plan, whole_months: &[u32]) -> Option<String> {
    // Said of a table's rows ("download this month's statement" keeps no rows of one).
    if !plan.graph.iter().any(crate::reads_a_table) {
        return None;
    }
    let files = crate::reading::slots::file_spans(text);
    let lower = text.to_ascii_lowercase();
    let outside_files = |m: &regex::Match| {
        let purpose = ["for the ", "for our ", "for my "].iter().any(|w| lower[..m.start()].ends_with(w));
        !purpose && !files.iter().any(|f| f.contains(&m.start()) || f.contains(&(m.end() - 1)))
    };
    let read: Vec<&str> = plan
        .graph
        .iter()
        .filter(|n| crate::reads_a_table(n))
        .filter_map(|n| n.inputs.get("path").and_then(Value::as_str))
        .collect();
    let month_kept = |m: &regex::Match| {
        let Some(month) = month_number(m.as_str()) else { return false };
        whole_months.contains(&month) || read.iter().any(|file| crate::reading::slots::file_names_month(file, month))
    };
    // (「…のうち11月」: the month, not the character before it.)
    let month = || {
        let said = MONTH.find_iter(text).find(|m| {
            let after = &text[m.end()..];
            // (「月（「2026年9月」のような形）」: the form of a month shown.)
            let shown = crate::reading::slots::shows_a_form(after);
            // (「4月の転勤者」: a month said of people, no period of the rows.)
            let of_people = crate::reading::JA_OF_PEOPLE.is_match(after);
            outside_files(m) && !month_kept(m) && !starts_an_order(after) && !shown && !of_people
        })?;
        Some(said.as_str().trim_start_matches(|c: char| !c.is_ascii_alphanumeric()))
    };
    // ("top 5 customers in Q1 … sales_q1.csv": the quarter the file read is of.)
    let quarter_kept = |m: &regex::Match| {
        let quarter = m.as_str().strip_prefix(['q', 'Q']).and_then(|q| q.parse::<u32>().ok());
        quarter.is_some_and(|q| read.iter().any(|file| crate::reading::slots::file_names_quarter(file, q)))
    };
    // (「前年比」「前年割れ」「前年度売上」: a comparison with last year, or its columns, keep no rows.)
    let compared = |m: &regex::Match| {
        ["前年", "昨年"].contains(&m.as_str()) && text[m.end()..].starts_with(['比', '割', '度', '同', '対'])
    };
    let said = PERIOD
        .find_iter(text)
        .find(|m| outside_files(m) && !quarter_kept(m) && !compared(m))
        .map(|m| m.as_str())
        .or_else(month)?;
    (!crate::understanding::compares_dates(plan)).then(|| said.to_owned())
}

/// Rows said to be left out ("skip the Void ones", 「私用は除いてください」) where no step of the plan
/// leaves any row out (no filter, match, duplicate check or pick), as the text says it: every row
/// would be written or totalled.
pub fn unkept_exclusion(text: &str, plan: &planwright_plan::Plan) -> Option<String> {
    const LEAVE_OUT: [&str; 5] = [
        "transforms.filter",
        "transforms.join",
        "transforms.remove_duplicates",
        "transforms.find_duplicates",
        "transforms.pick",
    ];
    let leaves_out = plan.graph.iter().any(|node| node.block.as_deref().is_some_and(|b| LEAVE_OUT.contains(&b)));
    if leaves_out || !plan.graph.iter().any(crate::reads_a_table) {
        return None;
    }
    let lower = text.to_ascii_lowercase();
    // (「それ以外は「不要」」: otherwise, of a value written, no rows left out.)
    let otherwise = |m: &regex::Match| {
        m.as_str() == "以外" && ["それ", "これ", "上記", "その"].iter().any(|w| lower[..m.start()].ends_with(w))
    };
    LEFT_OUT_SAID.find_iter(&lower).find(|m| !otherwise(m)).map(|m| text[m.range()].to_owned())
}

/// A column said to be blank ("where the returned date is empty", 「返却日が空欄」) where no step of
/// the plan tests for a blank cell or fills one, as the text says it: the rows with a value
/// would be kept as well. (Not a blank left in the result: "leave those two blank",
/// 「空欄のままで大丈夫」; nor a blank key of a match, which matches nothing: "a receipt whose
/// po_number is empty counts as having no PO".)
pub fn unkept_blank(text: &str, plan: &planwright_plan::Plan) -> Option<String> {
    let matches = plan.graph.iter().any(|n| n.block.as_deref() == Some("transforms.join"));
    if matches || !plan.graph.iter().any(crate::reads_a_table) {
        return None;
    }
    let plan_text = serde_json::to_string(&plan.graph).unwrap_or_default();
    let tests_blanks = ["\"value\":\"\"", "is_empty", "not_empty", "\"op\":\"fill\"", "\"blank\"", "\"empty\""]
        .iter()
        .any(|k| plan_text.contains(k));
    if tests_blanks {
        return None;
    }
    let lower = text.to_ascii_lowercase();
    BLANK_SAID
        .find_iter(&lower)
        .find(|m| !BLANK_KEPT_AFTER.is_match(&lower[m.end()..]))
        .map(|m| text[m.range()].to_owned())
}

static BLANK_SAID: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(r"\b(?:is|are|was|were|still) (?:blank|empty)\b|(?:が|は)(?:空欄|空白|未入力|ブランク)")
        .expect("blank said")
});
/// 「空欄のままで大丈夫」「空白でも構いません」: a blank the result may hold.
static BLANK_KEPT_AFTER: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(r"^\s*(?:のまま|でも|で(?:大丈夫|構いません|かまいません|いい|よい|ok|問題)|になります|になる|にな(?:って)?しま)").expect("blank kept")
});

/// A comparison said ("below their reorder level", "more than the budget", 「予算を超えた」)
/// where no step of the plan compares anything (no condition of a filter, of a join or of a
/// count), as the text says it: the rows it would keep are all kept. (A number compared is the
/// unused number's check.)
pub fn unkept_comparison(text: &str, plan: &planwright_plan::Plan) -> Option<String> {
    let plan_text = serde_json::to_string(&plan.graph).unwrap_or_default();
    // (A column of formulas that compares, `qty < reorder_level`, compares too.)
    let compares = ["\"operator\"", "\"conditions\"", "\"when\"", ">", "<"].iter().any(|k| plan_text.contains(k))
        || plan.graph.iter().any(|node| node.block.as_deref().is_some_and(|b| COMPARING.contains(&b)));
    if compares || !plan.graph.iter().any(crate::reads_a_table) {
        return None;
    }
    let lower = text.to_ascii_lowercase();
    // ("more than once": a count of copies, the duplicate check's.)
    let copies = |m: &regex::Match| {
        let after = lower[m.end()..].trim_start();
        ["once", "one ", "twice", "1 "].iter().any(|w| after.starts_with(w))
    };
    // ("a title line above the column headers": where a sheet's header is, which its read finds.)
    let layout = |m: &regex::Match| {
        const ENDS: [char; 7] = ['.', ';', '!', '?', '\n', '(', ')'];
        let start = lower[..m.start()].rfind(ENDS).map_or(0, |i| i + 1);
        let end = lower[m.end()..].find(ENDS).map_or(lower.len(), |i| m.end() + i);
        crate::reading::SHEET_LAYOUT_SAID.is_match(&lower[start..end])
    };
    COMPARISON_SAID.find_iter(&lower).find(|m| !copies(m) && !layout(m)).map(|m| text[m.range()].to_owned())
}

/// Blocks that compare values of rows whatever their settings say.
const COMPARING: [&str; 6] = [
    "transforms.filter",
    "transforms.join",
    "transforms.pick",
    "transforms.compare",
    "transforms.remove_duplicates",
    "transforms.find_duplicates",
];

static COMPARISON_SAID: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(
        r"\b(?:below|above|exceed(?:s|ed|ing)?|more than|less than|fewer than|greater than|higher than|lower than|bigger than|smaller than|at least|at most|no more than|(?:over|under) (?:the |their |its |our )?(?:[a-z_]+ )?(?:level|limit|budget|threshold|target|minimum|maximum|quota|cap|plan|estimate|forecast))\b|(?:を|が)(?:超え|上回|下回)|より(?:多い|少ない|大きい|小さい|高い|低い|長い|短い)|に(?:満たない|届かない)",
    )
    .expect("comparison said")
});

/// A sign said to be turned ("total_fees as a positive number", 「符号を反転して」) where no
/// step of the plan turns one, as the text says it: the totals would keep the sign of the data.
pub fn unkept_sign(text: &str, plan: &planwright_plan::Plan) -> Option<String> {
    let plan_text = serde_json::to_string(&plan.graph).unwrap_or_default();
    if ["\"-[", "\"-(", "* -1", "*-1", "abs"].iter().any(|k| plan_text.contains(k)) {
        return None;
    }
    let lower = text.to_ascii_lowercase();
    SIGN_SAID.find(&lower).map(|m| text[m.range()].to_owned())
}

static SIGN_SAID: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(
        r"\b(?:as (?:a )?positive (?:numbers?|values?|amounts?|figures?)|absolute values?|without (?:the |a )?minus(?: sign)?|(?:flip|reverse|invert) (?:the |its |their )?signs?)\b|符号を(?:反転|逆|取|外)|正の(?:数|値)で|プラスの(?:数|値)で|絶対値",
    )
    .expect("sign said")
});

/// Words that leave rows out.
static LEFT_OUT_SAID: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(
        r"\b(?:exclude|excluding|skip|skipping|leave out|leaving out|leave (?:the |any |all )?[a-z]+ (?:ones |rows )?out|ignore|ignoring|don't count|do not count|doesn't count|does not count|filter out|weed out|throw out)\b|除いて|除く|除外|抜いて|以外|対象外|含めない|含めず|外して",
    )
    .expect("left out said")
});

/// Rows said to be picked ("pick out the ones that …", "the people who are late", "per the credit
/// policy", "which warehouse holds the most", "the top 5", 「基準に引っかかる媒体を抜き出して」
/// 「遅れている人を出して」「一番多い」) where the plan only copies the
/// table (no step of any kind between reading and writing, whatever kind of file it writes), as
/// the text says it: every row would be written as if each were picked.
pub fn unkept_pick(text: &str, plan: &planwright_plan::Plan) -> Option<String> {
    said_of_a_copy(&PICK_SAID, text, plan)
}

/// Values said to change ("reprice with the new tiers", "apply the 3% increase", 「単価を改定して」
/// 「新料金を適用して」) where the plan only copies the table, as the text says it: the rows would
/// be written unchanged as if repriced.
pub fn unkept_change(text: &str, plan: &planwright_plan::Plan) -> Option<String> {
    said_of_a_copy(&CHANGE_SAID, text, plan)
}

/// What `said` matches in the text, when the plan reads a table and has no step of any kind
/// between reading and writing.
fn said_of_a_copy(said: &Regex, text: &str, plan: &planwright_plan::Plan) -> Option<String> {
    let transforms = plan.graph.iter().any(|node| node.block.as_deref().is_some_and(|b| b.starts_with("transforms.")));
    if transforms || !plan.graph.iter().any(crate::reads_a_table) {
        return None;
    }
    let lower = text.to_ascii_lowercase();
    said.find(&lower).map(|m| text[m.range()].to_owned())
}

static CHANGE_SAID: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(
        r"\b(?:re-?pric(?:e|es|ed|ing)|re-?calculat(?:e|es|ed|ing)|recomput(?:e|es|ed|ing)|revalu(?:e|es|ed|ing)|mark(?:s|ed|ing)? (?:up|down)|apply(?:ing)? (?:the |our |a |an )?(?:new |updated |revised |latest |current |agreed )?(?:[a-z%0-9.-]+ ){0,2}(?:tiers?|rates?|prices?|pricing|discounts?|markups?|surcharges?|fees?|increases?|uplifts?|raises?)|(?:raise|increase|lower|reduce|cut|adjust)(?:s|d|ing)? (?:the |all |every |each |our )?(?:[a-z_]+ )?(?:prices?|rates?|fees?|costs?|salar(?:y|ies)|wages?|amounts?)|(?:re-?do|re-?work|update|refresh|revise)(?:s|d|ing)? (?:[^.]|\.[a-z0-9]){0,60}?\bwith (?:the |our )?(?:new|updated|revised|latest|changed) [a-z]+)\b|改定|再計算|値上げ|値下げ|(?:単価|価格|料金|金額|給与|手当|報酬)を(?:見直|変更|更新|引き上げ|引き下げ|上げ|下げ)|(?:料金|単価|価格|レート|税率|割引|掛け率|掛率|料率|ルール|基準|表)を適用",
    )
    .expect("change said")
});

static PICK_SAID: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(
        r"\b(?:(?:pick|pull|single|fish) (?:out|up)|(?:that|which|who) (?:meet|match|fail|break|trip|hit|exceed)s?|criteria|rules? we (?:agreed|set|decided)|(?:per|according to|following|as per|in line with|based on) (?:the |our |company |usual |standard |current )*(?:[a-z-]+ )?(?:policy|policies|rules|guidelines?|procedure|sop)|(?:people|ones|rows|lines|records|entries|items|employees|customers|staff|anyone|everyone|those)\s+(?:of\s+\S+\s+)?(?:who|that|which|whose)|(?:which|what) [a-z_]+(?: [a-z_]+){0,3} (?:the )?(?:most|highest|lowest|largest|biggest|smallest|least|fewest|best|worst)|(?:top|bottom) (?:\d+|three|five|ten)|(?:for|with|on|by|have|has|share) the same)\b|一番|最も|上位|のうち|の中から|下位|トップ\s*\d|ワースト|抜き出|抽出|絞り込|絞って|引っかか|該当する|当てはまる|満たす|満たさない|基準に|(?:規定|規程|ルール|方針|ポリシー|マニュアル)(?:に従って|に沿って|どおり|通り|に基づいて)|(?:ている|ていない|てる|た|ない|い)(?:人|者|もの|行|分|件|方|社員|取引先|顧客)(?:を|だけ|のみ)",
    )
    .expect("pick said")
});

/// A month said ("October and November", 「10月と11月」) that the plan's filters on dates all leave
/// out, as the text says it: a range read short (the plan keeps October alone). Months said of a
/// day the rows are measured from ("as of 1 December", 「12月4日時点」) keep no rows; a file's
/// name is no period either. Filters open on one side keep some day of every month.
pub fn unkept_month(text: &str, plan: &planwright_plan::Plan) -> Option<String> {
    let kept = months_kept(plan)?;
    let files = crate::reading::slots::file_spans(text);
    let lower = text.to_ascii_lowercase();
    let said = MONTH.find_iter(text).find(|m| {
        let in_a_file = files.iter().any(|f| f.contains(&m.start()) || f.contains(&(m.end() - 1)));
        // (「今日は2026年4月10日」: the year said before the month is part of the day; the match
        // starts at the character before the month's digits.)
        let start = m.as_str().find(|c: char| c.is_ascii_alphanumeric()).map_or(m.start(), |at| m.start() + at);
        let before = JA_YEAR_BEFORE.replace(lower[..start].trim_end(), "");
        let after = &lower[m.end()..];
        let a_day_measured_from = AS_OF.is_match(&before)
            || JA_TODAY_BEFORE.is_match(&before)
            || NOW_AFTER.is_match(after)
            || JA_DAY_OF_REFERENCE.is_match(after)
            || ["for the", "for our", "for my"].iter().any(|w| before.ends_with(w));
        let month = month_number(m.as_str());
        // (「4月の転勤者」: a month said of people, no period of the rows.)
        let of_people = crate::reading::JA_OF_PEOPLE.is_match(&text[m.end()..]);
        !in_a_file && !a_day_measured_from && !of_people && month.is_some_and(|month| !kept.contains(&month))
    })?;
    Some(said.as_str().trim_start_matches(|c: char| !c.is_ascii_alphanumeric()).to_owned())
}

static JA_YEAR_BEFORE: LazyLock<Regex> = LazyLock::new(|| Regex::new(r"\d{4}\s*年\s*$").expect("year before"));
/// 「今日は」「本日は」「基準日：」: the day of reference said before its date.
static JA_TODAY_BEFORE: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(r"(?:今日|本日|現在|基準日|集計日|作成日|締め日|締日)\s*(?:は|が|：|:|＝|=)?\s*[（(]?\s*$")
        .expect("today before")
});
/// "(we're in November 2026 now)": the month it is, keeping no rows.
static NOW_AFTER: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(r"^\s*(?:\d{1,2}(?:st|nd|rd|th)?,?\s*)?(?:\d{4}\s*)?(?:now|right now|currently)\b").expect("now after")
});

/// "as of", "today is", "until", "due": a day said to measure from, or a deadline.
static AS_OF: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(r"\b(?:as of|as at|today is|today's date is|it is|it's|now is|we're in|we are in|dated|on or before|by|until|till|due|since|after|before|from|starting|effective)\s*(?:the\s*)?(?:\d{1,2}(?:st|nd|rd|th)?\s*)?$")
        .expect("as of")
});
/// 「12月4日時点」「12月1日現在」「12月末締め」: a day of reference, keeping no rows.
static JA_DAY_OF_REFERENCE: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(r"^\s*(?:\d{1,2}\s*日\s*)?(?:末\s*)?(?:時点|現在|基準|締め|付け|付|以降|以前|から|まで|より|に|期限|〆)")
        .expect("day of reference")
});

/// The months (1–12) some day of which a filter of the plan keeps by its dates; none when no
/// filter compares dates, or when one keeps some day of every month (open on one side, or a
/// year or more).
fn months_kept(plan: &planwright_plan::Plan) -> Option<std::collections::BTreeSet<u32>> {
    let mut kept = std::collections::BTreeSet::new();
    let mut any = false;
    for node in plan.graph.iter().filter(|n| n.block.as_deref() == Some("transforms.filter")) {
        let Some(conditions) = node.inputs.get("conditions").and_then(Value::as_array) else { continue };
        let (mut from, mut to) = (None, None);
        for c in conditions {
            let date = |key: &str| c.get(key).and_then(Value::as_str).and_then(year_month_day);
            match c.get("operator").and_then(Value::as_str) {
                Some("between") => (from, to) = (date("value").or(from), date("value2").or(to)),
                Some("gte" | "gt") => from = date("value").or(from),
                Some("lte") => to = date("value").or(to),
                Some("lt") => to = date("value").map(last_kept_before).or(to),
                _ => {}
            }
        }
        match (from, to) {
            (None, None) => continue,
            (Some((y1, m1, _)), Some((y2, m2, _))) => {
                any = true;
                let span = (y2.unwrap_or(0) - y1.unwrap_or(0)) * 12 + m2 as i32 - m1 as i32;
                if !(0..11).contains(&span) {
                    return None;
                }
                kept.extend((0..=span as u32).map(|i| (m1 - 1 + i) % 12 + 1));
            }
            _ => return None,
        }
    }
    any.then_some(kept)
}

/// The last day kept by "before this day": the month before, when the day is a month's first
/// (「< 2026-04-01」 keeps March); the day's own month otherwise.
fn last_kept_before((year, month, day): (Option<i32>, u32, u32)) -> (Option<i32>, u32, u32) {
    match (day, month) {
        (1, 1) => (year.map(|y| y - 1), 12, 31),
        (1, _) => (year, month - 1, 31),
        _ => (year, month, day),
    }
}

/// `2026-10-01` or `${vars.year}-10-01`: its year (when written), month and day.
fn year_month_day(text: &str) -> Option<(Option<i32>, u32, u32)> {
    let (year, rest) = match text.strip_prefix("${vars.year}-") {
        Some(rest) => (None, rest),
        None => (Some(text.get(..4)?.parse().ok()?), text.get(5..)?),
    };
    let month: u32 = rest.get(..2)?.parse().ok()?;
    let day: u32 = rest.get(3..5)?.parse().ok()?;
    (1..=12).contains(&month).then_some((year, month, day))
}

static PERIOD: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(r"(?i)\bq[1-4]\b|\b(?:first|second|third|fourth|1st|2nd|3rd|4th) quarter\b|\bh[12]\b|\b(?:last|previous) (?:month|quarter|year)\b|第\s*[1-4１-４一二三四]\s*四半期|上期|下期|上半期|下半期|先月|前月|昨年|前年")
        .expect("period")
});

/// A month by its name, as it is written ("October", 「10月」): case kept, so that "may" and
/// "march" are verbs.
static MONTH: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(r"\b(?:January|February|March|April|May|June|July|August|September|October|November|December)\b|(?:^|[^0-9])(?:[1-9]|1[0-2])月")
        .expect("month")
});

/// The month (1–12) a `MONTH` match names.
fn month_number(said: &str) -> Option<u32> {
    let said = said.trim_start_matches(|c: char| !c.is_ascii_alphanumeric());
    match said.strip_suffix('月') {
        Some(number) => number.parse().ok(),
        None => crate::reading::month_number(said),
    }
}

static DIRECTED_ROUNDING: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(
        r"\b(?:round(?:ed|ing)? (?:down|up)|truncat(?:e|ed|ing)|floor|ceiling)\b|切り捨て|切捨て|切り上げ|切上げ",
    )
    .expect("directed rounding")
});

/// Rounding of any way: "round the averages", "rounded half-up", 「四捨五入」 (not "round trip",
/// "year-round").
static ROUNDING: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(
        r"(?:^|[^-\w])round(?:ed|ing)? (?:off|half|to|at|the|all|each|every|them|it|those|these)\b|四捨五入|丸め",
    )
    .expect("rounding")
});

/// Whether the plan only reads and shapes tables: nothing it does leaves the run (no file
/// written, no call, no page, no person), so an instruction that names any result is not done.
pub fn writes_nothing(plan: &planwright_plan::Plan) -> bool {
    const READS: [&str; 2] = ["file.read_csv", "excel.read_data"];
    let keeps_to_itself =
        |block: &str| READS.contains(&block) || block.starts_with("transforms.") || block == "file.extract_texts";
    !plan.graph.is_empty() && plan.graph.iter().all(|node| node.block.as_deref().is_some_and(keeps_to_itself))
}

/// The orders (`asc`, `desc`) of every key of every sort in the plan.
fn sorts(plan: &planwright_plan::Plan) -> impl Iterator<Item = &str> {
    plan.graph
        .iter()
        .filter(|node| node.block.as_deref() == Some("transforms.sort"))
        .flat_map(|node| node.inputs.get("by").and_then(Value::as_array).into_iter().flatten())
        .map(|key| key.get("order").and_then(Value::as_str).unwrap_or("asc"))
}

/// The aggregate functions of every grouping in the plan.
fn totals(plan: &planwright_plan::Plan) -> impl Iterator<Item = String> + '_ {
    plan.graph
        .iter()
        .filter(|node| node.block.as_deref() == Some("transforms.group_by_agg"))
        .flat_map(|node| node.inputs.get("aggregations").and_then(Value::as_array).into_iter().flatten())
        .filter_map(|a| a.get("op").and_then(Value::as_str))
        .map(|op| match op {
            "average" | "mean" => "avg".to_owned(),
            op => op.to_owned(),
        })
}

/// Steps that count rows of their own: a duplicate check says how many copies there are.
fn counts_rows(plan: &planwright_plan::Plan) -> bool {
    plan.graph.iter().any(|node| node.block.as_deref() == Some("transforms.find_duplicates"))
}

static DESCENDING: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(
        r"\b(?:descending|highest first|largest first|biggest first|greatest first|newest first|latest first|most recent first|(?:most|highest|largest|biggest) [a-z]+(?: [a-z_]+){0,3} first|highest to lowest|largest to smallest|biggest to smallest|most to least|high to low|z to a)\b|降順|大きい順|多い順|高い順|新しい順|長い順|遅い順|大きいもの(?:から|順)|多いもの(?:から|順)",
    )
    .expect("descending")
});

static ASCENDING: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(
        r"\b(?:ascending|lowest first|smallest first|oldest first|earliest first|(?:fewest|lowest|smallest|least) [a-z]+(?: [a-z_]+){0,3} first|lowest to highest|smallest to largest|least to most|low to high|a to z|alphabetical(?:ly)?|chronological(?:ly)?)\b|昇順|小さい順|少ない順|低い順|古い順|短い順|早い順|日付の?順|五十音順",
    )
    .expect("ascending")
});

static AVERAGE: LazyLock<Regex> = LazyLock::new(|| Regex::new(r"\b(?:average|mean|avg)\b|平均").expect("average"));

/// A total of a column ("total", "sum", 「合計」); not a count said so ("the total number of
/// tickets", 「合計件数」).
static SUM: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(r"\b(?:total|totals|totaled|totalled|sum|summed|add up|added up|subtotals?)\b(?: (?:number|count)\b)?|合計(?:件数|人数|回数)?|総額|小計")
        .expect("sum")
});

static COUNT: LazyLock<Regex> = LazyLock::new(|| {
    // "how many days did it take", "how many non-billable hours" ask a measure of each row
    // (`measure`), no count; 「何件か重複して」 is "some", no count.
    let units = crate::reading::TIME_UNITS.join("|");
    Regex::new(&format!(
        r"\b(?:how many|number of|count of|count the|count how)\b(?P<measure>(?: [a-z][\w-]*)? (?:{units})\b)?|件数|何件(?:[^かも]|$)|回数|人数"
    ))
    .expect("count")
});

#[cfg(test)]
mod tests {
    use super::*;
    use crate::understanding::tests::plan;

    #[test]
    fn rows_said_to_be_left_out_are_left_out_by_some_step() {
        let writes = plan(
            "- {id: r, block: file.read_csv, in: {path: a.csv}}\n- {id: w, block: report.write, in: {data: '${r.rows}', format: csv, path: b.csv}}\n",
        );
        let filters = plan(
            "- {id: r, block: file.read_csv, in: {path: a.csv}}\n- {id: f, block: transforms.filter, in: {items: '${r.rows}', conditions: []}}\n",
        );
        assert_eq!(unkept_exclusion("区分が「私用」のものは除いてください", &writes).as_deref(), Some("除いて"));
        assert_eq!(unkept_exclusion("Copy a.csv, skip the Void ones", &writes).as_deref(), Some("skip"));
        assert_eq!(unkept_exclusion("Copy a.csv, skip the Void ones", &filters), None);
        assert_eq!(unkept_exclusion("10万円以上なら「要承認」、それ以外は「不要」", &writes), None, "otherwise");
    }

    #[test]
    fn a_column_said_to_be_added_is_made_by_some_step() {
        let copies = plan(
            "- {id: r, block: file.read_csv, in: {path: a.csv}}\n- {id: w, block: report.write, in: {data: '${r.rows}', format: csv, path: b.csv}}\n",
        );
        let adds = plan(
            "- {id: r, block: file.read_csv, in: {path: a.csv}}\n- {id: c, block: transforms.add_columns, in: {items: '${r.rows}', columns: []}}\n",
        );
        let text = "Add a days_overdue column to invoices.csv: the days past due; save aged.csv";
        assert_eq!(unkept_added_column(text, &copies).as_deref(), Some("Add a days_overdue column"));
        assert_eq!(unkept_added_column(text, &adds), None);
        assert_eq!(unkept_added_column("請求書.csv に経過日数の列を追加して", &copies).as_deref(), Some("列を追加"));
        assert_eq!(unkept_added_column("Copy a.csv to b.csv", &copies), None);
    }

    #[test]
    fn a_share_said_is_divided_by_some_step() {
        let totals = plan(
            "- {id: r, block: file.read_csv, in: {path: a.csv}}\n- {id: t, block: transforms.group_by_agg, in: {items: '${r.rows}', by: [rep], aggregations: [{field: amount, op: sum}]}}\n",
        );
        let shares = plan(
            "- {id: r, block: file.read_csv, in: {path: a.csv}}\n- {id: c, block: transforms.add_columns, in: {items: '${r.rows}', columns: [{as: share, op: percent, of: [a, b]}]}}\n",
        );
        let text = "売上.csvから担当者ごとに金額を合計し、構成比も出して 構成比.csv に";
        assert_eq!(unkept_share(text, &totals).as_deref(), Some("構成比"));
        assert_eq!(unkept_share(text, &shares), None);
        let formula = plan(
            "- {id: r, block: file.read_csv, in: {path: data/a.csv}}\n- {id: c, block: transforms.add_columns, in: {items: '${r.rows}', columns: [{as: share, op: formula, formula: 'a / b'}]}}\n",
        );
        assert_eq!(unkept_share(text, &formula), None);
        let in_a_folder = plan(
            "- {id: r, block: file.read_csv, in: {path: data/a.csv}}\n- {id: t, block: transforms.group_by_agg, in: {items: '${r.rows}', by: [rep], aggregations: []}}\n",
        );
        assert_eq!(unkept_share(text, &in_a_folder).as_deref(), Some("構成比"), "a path's / divides nothing");
        assert_eq!(
            unkept_share("each rep's share of the total in a.csv", &totals).as_deref(),
            Some("share of the total")
        );
    }

    #[test]
    fn the_latest_said_is_taken_by_some_step() {
        let filters = plan(
            "- {id: r, block: file.read_csv, in: {path: a.csv}}\n- {id: f, block: transforms.filter, in: {items: '${r.rows}', conditions: []}}\n",
        );
        let sorts = plan(
            "- {id: r, block: file.read_csv, in: {path: a.csv}}\n- {id: s, block: transforms.sort, in: {items: '${r.rows}', by: [run_date]}}\n",
        );
        let text = "Which tests failed in the latest run? test_runs.csv -> latest_failures.csv";
        assert_eq!(unkept_latest(text, &filters).as_deref(), Some("latest run"));
        assert_eq!(unkept_latest(text, &sorts), None);
        assert_eq!(unkept_latest("前回の実行で失敗したテストを a.csv から", &filters).as_deref(), Some("前回の実行"));
        // ("the latest month", "newest first", "last name": a period, an order, a column.)
        assert_eq!(unkept_latest("totals for the latest month, newest first, with last name", &filters), None);
    }

    #[test]
    fn rows_said_to_be_picked_are_picked_by_some_step() {
        let copies = plan(
            "- {id: r, block: file.read_csv, in: {path: a.csv}}\n- {id: w, block: report.write, in: {data: '${r.rows}', format: csv, path: b.csv}}\n",
        );
        let filters = plan(
            "- {id: r, block: file.read_csv, in: {path: a.csv}}\n- {id: f, block: transforms.filter, in: {items: '${r.rows}', conditions: []}}\n",
        );
        let vague = "広告.csv から、先週決めた基準に引っかかる媒体を抜き出して 見直し.csv にしてください";
        assert_eq!(unkept_pick(vague, &copies).as_deref(), Some("基準に"));
        assert_eq!(unkept_pick(vague, &filters), None);
        let english = "From ads.csv, pull out the channels that fail our usual rules into review.csv";
        assert_eq!(unkept_pick(english, &copies).as_deref(), Some("pull out"));
        assert_eq!(unkept_pick("Convert a.csv to b.xlsx", &copies), None, "a copy asked for");
        assert_eq!(unkept_pick("a.csv をそのまま Excel にして", &copies), None);
        // A rule referred to and not given: which rows it keeps is not known.
        let policy = "Go through ar.csv and build the hold list per the credit policy; save it as hold.csv";
        assert_eq!(unkept_pick(policy, &copies).as_deref(), Some("per the credit policy"));
        assert_eq!(
            unkept_pick("売掛金.csv から社内規定に従って対象を 保留.csv に", &copies).as_deref(),
            Some("規定に従って")
        );
        let late = "From trips.csv put the people who are late in chase.xlsx";
        assert_eq!(unkept_pick(late, &copies).as_deref(), Some("people who"), "some rows said, any file written");
        assert_eq!(
            unkept_pick("出張.csv から遅れている人を 督促.csv に出して", &copies).as_deref(),
            Some("ている人を")
        );
        // The one with the most of something: every row copied picks none.
        let most = "Which warehouse holds the most units? Use stock.csv and write the answer to top.csv";
        assert_eq!(unkept_pick(most, &copies).as_deref(), Some("Which warehouse holds the most"));
        assert_eq!(unkept_pick("在庫.csv で一番在庫が多い倉庫を 結果.csv に", &copies).as_deref(), Some("一番"));
        let rows_of = "List the rows of timesheets.csv that are not billable and save them to out.csv";
        assert_eq!(unkept_pick(rows_of, &copies).as_deref(), Some("rows of timesheets.csv that"));
        // 「…のうち」: some of the rows, whatever follows.
        let among = "保守契約一覧.csv のうち年末で切れる契約を、更新した形にして 更新後.csv に";
        assert_eq!(unkept_pick(among, &copies).as_deref(), Some("のうち"));
    }

    #[test]
    fn a_count_people_do_is_no_count_asked() {
        let copies = plan(
            "- {id: r, block: file.read_csv, in: {path: a.csv}}\n- {id: s, block: transforms.sort, in: {items: '${r.rows}', by: [vaccine]}}\n",
        );
        let said = "We count the vaccine fridge every week. From a.csv keep the latest per vaccine into b.csv";
        assert_eq!(unkept_total(said, &copies), None);
        assert_eq!(
            unkept_total("Count the rows of a.csv per vaccine into b.csv", &copies).as_deref(),
            Some("Count the")
        );
    }

    #[test]
    fn some_said_as_nanken_ka_is_no_count() {
        assert!(COUNT.is_match("何件あるか数えて"));
        assert!(!COUNT.is_match("同じ方からの申込が何件か重複して入っています"));
    }

    #[test]
    fn a_column_said_to_be_blank_is_tested_by_some_step() {
        let filters = plan(
            "- {id: r, block: file.read_csv, in: {path: a.csv}}\n- {id: f, block: transforms.filter, in: {items: '${r.rows}', conditions: [{field: due, operator: lte, value: '2026-11-30'}]}}\n",
        );
        let blanks = plan(
            "- {id: r, block: file.read_csv, in: {path: a.csv}}\n- {id: f, block: transforms.filter, in: {items: '${r.rows}', conditions: [{field: returned, operator: eq, value: ''}]}}\n",
        );
        let said = "図書.csv から返却予定日が11/30以前なのに返却日が空欄の本を 延滞.csv に";
        assert_eq!(unkept_blank(said, &filters).as_deref(), Some("が空欄"));
        assert_eq!(unkept_blank(said, &blanks), None);
        assert_eq!(
            unkept_blank("Books in a.csv whose returned date is empty, into b.csv", &filters).as_deref(),
            Some("is empty")
        );
        assert_eq!(
            unkept_blank("a.csv の備考が空欄のままで大丈夫です。b.csv に", &filters),
            None,
            "a blank the result may hold"
        );
    }

    #[test]
    fn values_said_to_change_are_changed_by_some_step() {
        let copies = plan(
            "- {id: r, block: file.read_csv, in: {path: a.csv}}\n- {id: w, block: report.write, in: {data: '${r.rows}', format: csv, path: b.csv}}\n",
        );
        let computes = plan(
            "- {id: r, block: file.read_csv, in: {path: a.csv}}\n- {id: c, block: transforms.compute, in: {items: '${r.rows}'}}\n",
        );
        let reprice =
            "Please reprice kits.csv using the new volume tiers procurement signed off on, save it as kits_2027.csv";
        assert_eq!(unkept_change(reprice, &copies).as_deref(), Some("reprice"));
        assert_eq!(unkept_change(reprice, &computes), None);
        let increase = "Apply the 3% increase to rates.csv and write rates_new.csv";
        assert_eq!(unkept_change(increase, &copies).as_deref(), Some("Apply the 3% increase"));
        assert_eq!(unkept_change("単価表.csv の単価を改定して 新単価表.csv に", &copies).as_deref(), Some("改定"));
        assert_eq!(unkept_change("料金.csv に新料金表を適用して 結果.csv に", &copies).as_deref(), Some("表を適用"));
        let redo =
            "Could you redo rota.csv with the new intervals the department sent over and save it as rota_2027.csv?";
        assert_eq!(unkept_change(redo, &copies).as_deref(), Some("redo rota.csv with the new intervals"));
        assert_eq!(unkept_change(redo, &computes), None);
        assert_eq!(unkept_change("Convert prices.csv to prices.xlsx, keep the rates as they are", &copies), None);
        assert_eq!(unkept_change("料金.csv をそのまま Excel にして", &copies), None);
    }

    #[test]
    fn a_sign_said_to_be_turned_is_turned_by_some_step() {
        let totals = plan(
            "- {id: r, block: file.read_csv, in: {path: a.csv}}\n- {id: g, block: transforms.group_by_agg, in: {items: '${r.rows}', by: [month], aggregations: [{field: Amount, op: sum, as: total}]}}\n",
        );
        let negated = plan(
            "- {id: r, block: file.read_csv, in: {path: a.csv}}\n- {id: c, block: transforms.add_columns, in: {items: '${r.rows}', columns: [{name: fees, formula: '-[total]'}]}}\n",
        );
        let said = "Give me month and total_fees as a positive number. fees.csv";
        assert_eq!(unkept_sign(said, &totals).as_deref(), Some("as a positive number"));
        assert_eq!(unkept_sign(said, &negated), None);
        assert_eq!(unkept_sign("手数料は符号を反転して 手数料.csv に", &totals).as_deref(), Some("符号を反転"));
        assert_eq!(unkept_sign("Total the positive amounts per month", &totals), None, "a filter's word");
    }

    #[test]
    fn a_comparison_said_is_made_by_some_step() {
        let copies = plan(
            "- {id: r, block: file.read_csv, in: {path: a.csv}}\n- {id: g, block: transforms.group_by_agg, in: {items: '${r.rows}', by: [warehouse], aggregations: [{op: count, as: n}]}}\n",
        );
        let filters = plan(
            "- {id: r, block: file.read_csv, in: {path: a.csv}}\n- {id: f, block: transforms.filter, in: {items: '${r.rows}', conditions: []}}\n",
        );
        let said = "How many items does each warehouse have below their reorder level? stock.csv -> below.csv";
        assert_eq!(unkept_comparison(said, &copies).as_deref(), Some("below"));
        assert_eq!(unkept_comparison(said, &filters), None);
        assert_eq!(unkept_comparison("List vendors paid more than once", &copies), None, "copies counted");
        assert_eq!(unkept_comparison("予算を超えた部署の数を出して", &copies).as_deref(), Some("を超え"));
        // Where a sheet's header is compares nothing.
        let layout =
            "scores.xlsx (sheet \"Scores\" - there's a title line above the column headers). Count per bowler.";
        assert_eq!(unkept_comparison(layout, &copies), None);
    }

    #[test]
    fn a_grouping_that_names_one_column_twice_is_asked_about() {
        let grouping = |by: &str| {
            plan(&format!(
                "- {{id: g, block: transforms.group_by_agg, in: {{items: [], by: {by}, aggregations: [{{op: count, as: 件数}}]}}}}\n"
            ))
        };
        assert_eq!(key_grouped_twice(&grouping("[月, 職場, 職場]")).as_deref(), Some("職場"));
        assert_eq!(key_grouped_twice(&grouping("[月, 職場コード, 職場]")), None);
    }

    #[test]
    fn a_month_said_is_kept_by_some_filter_on_dates() {
        let october = plan(
            "- {id: f, block: transforms.filter, in: {items: [], conditions: [{field: 利用日, operator: between, value: '2026-10-01', value2: '2026-10-31'}]}}\n",
        );
        let autumn = plan(
            "- {id: f, block: transforms.filter, in: {items: [], conditions: [{field: d, operator: gte, value: '${vars.year}-10-01'}, {field: d, operator: lt, value: '${vars.year}-12-01'}]}}\n",
        );
        let since = plan(
            "- {id: f, block: transforms.filter, in: {items: [], conditions: [{field: d, operator: gte, value: '2026-10-01'}]}}\n",
        );
        let text = "ETC利用明細.csv から2026年10月と11月の利用分を出して";
        assert_eq!(unkept_month(text, &october).as_deref(), Some("11月"), "a range read short");
        assert_eq!(unkept_month(text, &autumn), None);
        assert_eq!(unkept_month(text, &since), None, "open on one side: some day of every month");
        assert_eq!(unkept_month("rows of October and November", &october).as_deref(), Some("November"));
        // Days of reference and files keep no rows; a plan that compares no dates is another check's.
        assert_eq!(unkept_month("今日は2026年12月1日です。10月分を出して", &october), None);
        assert_eq!(unkept_month("October rows (we're in November 2026 now)", &october), None);
        assert_eq!(unkept_month("the October rows as of December 1", &october), None);
        assert_eq!(unkept_month("売上_11月.csv の10月分", &october), None);
        assert_eq!(unkept_month(text, &plan("- {id: r, block: file.read_csv, in: {path: a.csv}}\n")), None);
    }

    #[test]
    fn an_order_said_is_kept_by_a_sort_that_way() {
        let ascending =
            plan("- {id: s, block: transforms.sort, in: {items: [], by: [{column: Test ID, order: asc}]}}\n");
        let descending =
            plan("- {id: s, block: transforms.sort, in: {items: [], by: [{column: Failures, order: desc}]}}\n");
        let text = "Give me the count per test, most failures first.";
        assert_eq!(unkept_order(text, &ascending).as_deref(), Some("most failures first"));
        assert_eq!(unkept_order(text, &descending), None);
        assert_eq!(unkept_order("金額の大きい順に並べて", &ascending).as_deref(), Some("大きい順"));
        assert_eq!(unkept_order("古い順に並べて", &ascending), None);
        assert_eq!(unkept_order("Keep the paid invoices", &descending), None, "no order said, none asked");
        // An order of no word for its way, where nothing is sorted.
        let unsorted = plan("- {id: r, block: file.read_csv, in: {path: a.csv}}\n");
        let worst = "Columns module, pass_rate, with the worst pass_rate at the top. File: out.csv";
        assert_eq!(unkept_order(worst, &unsorted).as_deref(), Some("worst pass_rate at the top"));
        assert_eq!(unkept_order(worst, &ascending), None);
        assert_eq!(unkept_order("結果を部門で並べ替えて", &unsorted).as_deref(), Some("並べ替え"));
        // Words after the superlative ("most expensive per kWh first"), one the order cannot tell
        // the way of ("costliest per unit first"), a Japanese length.
        let said = "most expensive per kWh first";
        assert_eq!(unkept_order(said, &ascending).as_deref(), Some(said));
        assert_eq!(unkept_order("costliest per unit first", &unsorted).as_deref(), Some("costliest per unit first"));
        assert_eq!(unkept_order("costliest per unit first", &ascending), None, "sorted some way");
        assert_eq!(
            unkept_order("Slowest role (highest average) first.", &unsorted).as_deref(),
            Some("Slowest role (highest average) first"),
            "an aside in brackets"
        );
        assert_eq!(unkept_order("経過日数の長い順", &ascending).as_deref(), Some("長い順"));
    }

    #[test]
    fn rounding_down_or_up_is_kept_only_by_a_step_rounding_that_way() {
        let rounding = |way: &str| {
            plan(&format!(
                "- {{id: r, block: transforms.add_columns, in: {{items: [], columns: [{{as: tax, op: round, of: [tax]{way}}}]}}}}\n"
            ))
        };
        let (nearest, down) = (rounding(""), rounding(", rounding: down"));
        let text = "計算は 税抜金額 × 1.1 で、1円未満は切り捨てです";
        assert_eq!(unkept_rounding(text, &nearest).as_deref(), Some("切り捨て"));
        assert_eq!(unkept_rounding(text, &down), None);
        assert_eq!(unkept_rounding("Amounts rounded up to the cent", &down).as_deref(), Some("rounded up"));
        assert_eq!(unkept_rounding("rounded to 1 decimal, half up", &nearest), None);
        assert_eq!(unkept_rounding("rounded to 2 decimal places with halves rounded up", &nearest), None);
        // Rounding of any way where no step rounds.
        let none = plan("- {id: s, block: transforms.sort, in: {items: [], by: [{column: a, order: asc}]}}\n");
        let said = "the average duration, rounded half-up to whole seconds";
        assert_eq!(unkept_rounding(said, &none).as_deref(), Some(" rounded half"));
        assert_eq!(unkept_rounding(said, &nearest), None);
        assert_eq!(unkept_rounding("平均は四捨五入して", &none).as_deref(), Some("四捨五入"));
        assert_eq!(unkept_rounding("the year-round totals and a round trip", &none), None);
    }

    #[test]
    fn a_period_said_is_kept_only_by_a_plan_that_compares_dates() {
        let none = plan(
            "- {id: r, block: file.read_csv, in: {path: a.csv}}\n- {id: s, block: transforms.sort, in: {items: '${r.rows}', by: [{column: a, order: desc}], limit: 3}}\n",
        );
        let dated = plan(
            "- {id: f, block: transforms.filter, in: {items: [], conditions: [{field: d, operator: between, value: '2026-07-01', value2: '2026-09-30'}]}}\n",
        );
        let text = "shukka.csv で、第3四半期（7/1〜9/30）の出荷数量が多い商品トップ3を出して";
        assert_eq!(unkept_period(text, &none, &[]).as_deref(), Some("第3四半期"));
        assert_eq!(unkept_period(text, &dated, &[]), None);
        assert_eq!(
            unkept_period("Total ledger.xlsx by department for the Q3 pack", &none, &[]),
            None,
            "what it is for"
        );
        assert_eq!(unkept_period("予算実績_2026上期.csv に差額列を追加", &none, &[]), None, "a file's name");
        assert_eq!(unkept_period("a.csv から先月の返金を抜き出して", &none, &[]).as_deref(), Some("先月"));
        assert_eq!(unkept_period("keep last month's refunds", &dated, &[]), None);
        assert_eq!(unkept_period("今月の支払データ 支払.csv のうち50万円以上", &none, &[]), None, "which file");
        // A quarter a file read is named for says which file.
        let of_q1 = plan(
            "- {id: r, block: file.read_csv, in: {path: sales_q1.csv}}\n- {id: s, block: transforms.sort, in: {items: '${r.rows}', by: [{column: a, order: desc}], limit: 5}}\n",
        );
        assert_eq!(unkept_period("Who were our top 5 customers in Q1? Use sales_q1.csv", &of_q1, &[]), None);
        assert_eq!(
            unkept_period("Who were our top 5 customers in Q2? Use sales_q1.csv", &of_q1, &[]).as_deref(),
            Some("Q2")
        );
    }

    #[test]
    fn a_month_by_its_name_is_kept_by_a_date_filter_a_file_named_for_it_or_data_all_in_it() {
        let none = plan(
            "- {id: r, block: file.read_csv, in: {path: a.csv}}\n- {id: s, block: transforms.sort, in: {items: '${r.rows}', by: [{column: a, order: desc}]}}\n",
        );
        let text = "Which October petty cash payouts in log.csv have no receipt? I want voucher, amount -> out.csv";
        assert_eq!(unkept_period(text, &none, &[]).as_deref(), Some("October"));
        assert_eq!(unkept_period(text, &none, &[10]), None, "every date of the data is in October");
        assert_eq!(unkept_period(text, &none, &[11]).as_deref(), Some("October"));
        let reading = |file: &str| {
            plan(&format!(
                "- {{id: r, block: file.read_csv, in: {{path: '{file}'}}}}\n- {{id: s, block: transforms.sort, in: {{items: '${{r.rows}}', by: [{{column: a, order: desc}}]}}}}\n"
            ))
        };
        let named = "I need the October expense claims in one list. expenses_oct.csv";
        assert_eq!(unkept_period(named, &reading("expenses_oct.csv"), &[]), None, "the file is the month's");
        assert_eq!(unkept_period(text, &reading("log.csv"), &[]).as_deref(), Some("October"), "out.csv is written");
        assert_eq!(
            unkept_period("11月の入金明細（入金明細_11月.csv）のうち", &reading("入金明細_11月.csv"), &[]),
            None
        );
        assert_eq!(unkept_period("入金明細.csv のうち11月分だけ", &none, &[]).as_deref(), Some("11月"));
        assert_eq!(unkept_period("入金明細.csv のうち11月分だけ", &none, &[1]).as_deref(), Some("11月"), "not 1月");
        assert_eq!(unkept_period("sales_2026-04.csv: the April orders", &reading("sales_2026-04.csv"), &[]), None);
        let summary = reading("summary.csv");
        assert_eq!(unkept_period("summary.csv: the March orders", &summary, &[]).as_deref(), Some("March"), "not mar");
        assert_eq!(unkept_period("You may sort log.csv by date", &none, &[]), None, "a verb");
    }

    #[test]
    fn a_plan_that_only_reads_and_shapes_writes_nothing() {
        let shapes = plan(
            "- {id: r, block: file.read_csv, in: {path: a.csv}}\n- {id: s, block: transforms.sort, in: {items: '${r.rows}', by: [date]}}\n",
        );
        let writes = plan(
            "- {id: r, block: file.read_csv, in: {path: a.csv}}\n- {id: w, block: report.write, in: {data: '${r.rows}', format: csv, path: b.csv}}\n",
        );
        assert!(writes_nothing(&shapes));
        assert!(!writes_nothing(&writes));
    }

    #[test]
    fn an_average_or_a_count_said_is_computed_by_the_plan() {
        let sums = plan(
            "- {id: g, block: transforms.group_by_agg, in: {items: [], by: [dept], aggregations: [{column: hours, op: sum, as: total}]}}\n",
        );
        let averages = plan(
            "- {id: g, block: transforms.group_by_agg, in: {items: [], by: [dept], aggregations: [{column: hours, op: avg, as: mean}]}}\n",
        );
        assert_eq!(unkept_total("the average hours per dept", &sums).as_deref(), Some("average"));
        assert_eq!(unkept_total("the average hours per dept", &averages), None);
        assert_eq!(unkept_total("部門別の件数を出して", &sums).as_deref(), Some("件数"));
        assert_eq!(unkept_total("the total hours per dept", &sums), None);
        let averages_counted = plan(
            "- {id: g, block: transforms.group_by_agg, in: {items: [], by: [dept], aggregations: [{column: amount, op: avg, as: mean}, {op: count, as: n}]}}\n",
        );
        assert_eq!(
            unkept_total("平均＝金額の合計÷件数、部門ごとに", &averages_counted),
            None,
            "a total divided in a formula"
        );
        assert_eq!(unkept_total("部門ごとの金額の合計と平均", &averages_counted).as_deref(), Some("合計"));
        // Totals of each key, and a plan that groups nothing: every row would be written.
        let rows = plan("- {id: f, block: transforms.filter, in: {items: [], conditions: []}}\n");
        let said = "Need the total we spent with each vendor on Office Supplies only";
        assert_eq!(unkept_total(said, &rows).as_deref(), Some("total we spent with each vendor"));
        assert_eq!(unkept_total(said, &sums), None);
        assert_eq!(unkept_total("add a total for each row", &rows), None, "a column of each row");
        // 「平均在庫」 a column the plan computes is no average of rows; 「平均」 alone still is.
        let computed = plan(
            "- {id: a, block: transforms.add_columns, in: {items: [], columns: [{as: 平均在庫, op: sum, of: [期首, 期末]}]}}\n",
        );
        assert_eq!(unkept_total("平均在庫＝（期首＋期末）÷2、品目・平均在庫・回転率の列で", &computed), None);
        assert_eq!(unkept_total("部門ごとの平均を出して", &computed).as_deref(), Some("平均"));
        // "how many to order (par level minus qty)": a column the plan computes, no count of rows.
        let named = plan(
            "- {id: a, block: transforms.add_columns, in: {items: [], columns: [{as: how many to order, op: difference, of: [par, qty]}]}}\n",
        );
        assert_eq!(unkept_total("sku and how many to order (par level minus qty)", &named), None);
        assert_eq!(unkept_total("how many skus to order", &named).as_deref(), Some("how many"));
        // A total asked for where the plan groups and only counts.
        let counts = plan(
            "- {id: g, block: transforms.group_by_agg, in: {items: [], by: [部署], aggregations: [{op: count, as: 件数}]}}\n",
        );
        assert_eq!(unkept_total("部署別に集計して、合計金額と件数を出して", &counts).as_deref(), Some("合計"));
        assert_eq!(unkept_total("the total amount and count per department", &counts).as_deref(), Some("total"));
        assert_eq!(unkept_total("the total number of tickets per team", &counts), None, "a count said so");
        assert_eq!(unkept_total("部署別の合計件数", &counts), None, "a count said so");
        assert_eq!(unkept_total("機能ごとに実施件数（OKとNGの合計）を", &counts), None, "an aside on a column");
        assert_eq!(unkept_total("the total hours and count per dept", &sums), None, "a plan that totals");
    }

    #[test]
    fn rows_said_to_count_once_are_kept_once_by_the_plan() {
        let counts = plan(
            "- {id: g, block: transforms.group_by_agg, in: {items: [], by: [session], aggregations: [{op: count, as: n}]}}\n",
        );
        let deduped = plan("- {id: d, block: transforms.remove_duplicates, in: {items: [], by: [email, session]}}\n");
        let said = "if someone signed up for the same session both ways (same email) count them once";
        assert_eq!(unkept_once(said, &counts).as_deref(), Some("count them once"));
        assert_eq!(unkept_once(said, &deduped), None);
        assert_eq!(unkept_once("同じメールアドレスは1件として数えて", &counts).as_deref(), Some("1件として数え"));
        assert_eq!(unkept_once("count the signups per session", &counts), None, "nothing said of copies");
        assert_eq!(unkept_once("they sign in once a month", &counts), None);
    }
}
