//! Rounding, read from one clause: to how many decimals, which way (to the nearest, down or up)
//! and which column. "round the averages to 2 decimals", "rounded down to the nearest cent",
//! 「平均を小数点以下1桁に丸めて」, 「小数第2位を四捨五入」 (one decimal kept), 「1円未満は切り捨て」.
//! A rounding whose decimals the clause does not say is not read (one down or up is then asked
//! about by the check of the words a plan keeps, `unkept.rs`).

use std::sync::LazyLock;

use regex::Regex;

use super::Step;

fn re(pattern: &str) -> Regex {
    Regex::new(pattern).expect("rounding pattern")
}

/// Which way a number is rounded.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Direction {
    Nearest,
    Down,
    Up,
}

impl Direction {
    /// The operation of a read step a rounding becomes: `round` to the nearest, `round_down`
    /// toward zero, `round_up` away from it.
    pub fn operation(self) -> &'static str {
        match self {
            Direction::Nearest => "round",
            Direction::Down => "round_down",
            Direction::Up => "round_up",
        }
    }

    /// The `rounding` the `round` operation of `transforms.add_columns` takes.
    pub fn block_value(self) -> &'static str {
        match self {
            Direction::Nearest => "nearest",
            Direction::Down => "down",
            Direction::Up => "up",
        }
    }

    /// The direction a rounding operation of a read step stands for.
    pub fn of_operation(operation: &str) -> Option<Direction> {
        [Direction::Nearest, Direction::Down, Direction::Up].into_iter().find(|d| d.operation() == operation)
    }

    /// The direction rounding words say ("rounded down", 「切り捨て」), if they say one.
    pub fn said(words: &str) -> Direction {
        let lower = words.to_ascii_lowercase();
        if words.contains("四捨五入") || lower.contains("half") {
            Direction::Nearest
        } else if lower.contains("down") || lower.contains("truncat") || lower.contains("floor") || words.contains("捨")
        {
            Direction::Down
        } else if lower.contains("up") || lower.contains("ceiling") || words.contains("上") {
            Direction::Up
        } else {
            Direction::Nearest
        }
    }
}

/// "round the averages to 2 decimals", "rounded down to the nearest cent", "truncate to whole
/// dollars", "rounded half-up to whole seconds".
static EN_ROUND: LazyLock<Regex> = LazyLock::new(|| {
    re(
        r"(?i)\b(?P<verb>round(?:ed|ing)?(?: (?:off|up|down|half[- ](?:up|away from zero)))?|truncat(?:e|ed|ing))(?: (?:the|all|each|every|all the) )?(?P<target>[a-z_][\w]*(?: [a-z_][\w]*)?)?(?: (?P<way>down|up))? (?:to|at) (?:(?P<n>\d{1,2}|zero|one|two|three|four) (?:decimal(?: places?|s)?|dp|digits? after the (?:decimal )?point)|the (?:(?:nearest|next) )?(?P<unit>whole number|integer|dollar|euro|yen|cent|penny|second|minute|hour|day|unit)|(?P<whole>whole (?:numbers?|dollars?|euros?|yen|seconds?|minutes?|hours?|days?|units?))|(?P<cents>cents|pennies)\b)",
    )
});

/// A clause that is only the decimals, said after what is worked out: "…, to one decimal", "…, 2 dp".
static EN_DECIMALS_ALONE: LazyLock<Regex> = LazyLock::new(|| {
    re(r"(?i)(?:^|,)\s*(?:(?:to|at)\s+)?(?P<n>\d|zero|one|two|three|four)\s+(?:decimal(?: places?|s)?|dp)\s*[.)]?\s*$")
});

/// The Japanese rounding verbs.
static JA_VERB: LazyLock<Regex> = LazyLock::new(|| re(r"四捨五入|切り捨て|切捨て|切り上げ|切上げ|丸め"));
/// The decimals kept: 「小数点以下2桁に」「小数第1位まで」「小数第1位に」.
static JA_KEEP: LazyLock<Regex> =
    LazyLock::new(|| re(r"(?:小数点以下|小数点|小数)\s*(?:第\s*)?(?P<n>[0-9０-９])\s*(?:位\s*(?:まで|に)|桁)"));
/// The place rounded at, one more than the decimals kept: 「小数第2位を四捨五入」「第3位で切り捨て」.
static JA_AT: LazyLock<Regex> = LazyLock::new(|| re(r"第\s*(?P<n>[1-9１-９])\s*位\s*(?:を|は|で)"));
/// No decimals kept: 「1円未満は」「円未満を」「小数点以下を切り捨て」「整数に」 (not 「10円未満」).
static JA_WHOLE: LazyLock<Regex> = LazyLock::new(|| {
    re(
        r"(?:^|[^0-9０-９])(?P<yen>[1１]?円(?:未満|単位))|小数点以下\s*(?:を|は)?\s*(?:四捨五入|切り?捨て|切り?上げ)|整数",
    )
});
/// What is rounded, said before the rounding: 「平均を小数…」「平均金額は円未満を…」.
static JA_TARGET: LazyLock<Regex> = LazyLock::new(|| {
    re(r"(?P<target>[^\s、。，,をがはでと「」・（）()の][^\s、。，,をがはでと「」・（）()]{0,15})(?:を|は)\s*$")
});
/// What is rounded, named before the brackets the rounding is said in: 「平均（1円未満は四捨五入）」.
static JA_BRACKETED: LazyLock<Regex> = LazyLock::new(|| {
    re(r"(?P<target>[^\s、。，,をがはでと「」・（）()の][^\s、。，,をがはでと「」・（）()]{0,15})\s*[（(][^）)]*$")
});

/// What is rounded, named before the formula the brackets follow: 「稼働率＝稼働時間合計÷計画時間合計×100
/// （小数第1位まで）」.
static JA_FORMULA_BRACKETED: LazyLock<Regex> = LazyLock::new(|| {
    re(
        r"(?P<target>[^\s、。，,をがはでと「」・（）()の=＝][^\s、。，,をがはでと「」・（）()=＝]{0,15})\s*[=＝][^\s、。（）()=＝]{1,60}\s*[（(][^）)]*$",
    )
});

/// The rounding an English clause asks for, with its offset in the clause.
pub fn english(clause: &str) -> Option<(usize, Step)> {
    if let Some(alone) = EN_DECIMALS_ALONE.captures(clause) {
        let n = alone["n"].to_ascii_lowercase();
        let decimals = super::number(&n).or((n == "zero").then_some(0))?;
        return Some((alone.name("n")?.start(), step(Vec::new(), decimals, Direction::Nearest)));
    }
    let c = EN_ROUND.captures(clause)?;
    let decimals = match (c.name("n"), c.name("unit"), c.name("whole")) {
        (Some(n), _, _) => super::number(&n.as_str().to_ascii_lowercase()).or((n.as_str() == "zero").then_some(0))?,
        (_, Some(unit), _) => u64::from(matches!(unit.as_str().to_ascii_lowercase().as_str(), "cent" | "penny")) * 2,
        (_, _, Some(_)) => 0,
        _ if c.name("cents").is_some() => 2,
        _ => return None,
    };
    let target: Vec<String> =
        c.name("target").map(|t| t.as_str().trim().to_owned()).filter(|t| !t.is_empty()).into_iter().collect();
    // "round the net amounts down to 2 decimals": the way may follow what is rounded.
    let words = format!("{} {}", &c["verb"], c.name("way").map_or("", |w| w.as_str()));
    Some((c.get(0)?.start(), step(target, decimals, Direction::said(&words))))
}

/// The rounding a Japanese clause asks for, with its offset in the clause.
pub fn japanese(clause: &str) -> Option<(usize, Step)> {
    let verb = JA_VERB.find(clause)?;
    // 「小数第２位」: a full-width digit is the same digit.
    let digit = |d: char| d.to_digit(10).or_else(|| ('０'..='９').contains(&d).then(|| d as u32 - '０' as u32));
    let kept = |m: regex::Captures| m["n"].chars().next().and_then(digit).map(u64::from);
    let decimals = JA_KEEP
        .captures(clause)
        .and_then(kept)
        .or_else(|| JA_AT.captures(clause).and_then(kept).map(|at| at.saturating_sub(1)))
        .or_else(|| JA_WHOLE.is_match(clause).then_some(0))?;
    // The rounding is said from the first of its words.
    let whole = JA_WHOLE.captures(clause).and_then(|c| c.name("yen").or(c.get(0)));
    let start = [JA_KEEP.find(clause), JA_AT.find(clause), whole]
        .into_iter()
        .flatten()
        .map(|m| m.start())
        .chain([verb.start()])
        .min()
        .unwrap_or(verb.start());
    let before = &clause[..start];
    let target: Vec<String> = JA_TARGET
        .captures(before)
        .or_else(|| JA_FORMULA_BRACKETED.captures(before))
        .or_else(|| JA_BRACKETED.captures(before))
        // 「達成率＝実績÷目標×100（小数第1位まで）」: the column is the name before its formula.
        .map(|c| c["target"].split(['=', '＝']).next().unwrap_or_default().trim().to_owned())
        .filter(|t| !t.is_empty())
        .into_iter()
        .collect();
    Some((start, step(target, decimals, Direction::said(verb.as_str()))))
}

fn step(target: Vec<String>, decimals: u64, direction: Direction) -> Step {
    let name = target.first().cloned().unwrap_or_default();
    Step::Compute { name, operation: direction.operation(), of: target, value: Some(decimals as f64) }
}
