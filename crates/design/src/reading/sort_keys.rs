//! Sort keys after the first: "sort by vendor and then by payment date (oldest first)", "by
//! region, and within each region by amount", 「取得年の古い順で、同じ年の中では取得価額の大きい順」.
//! Each is read with its own order. A key said after no sort, or whose column cannot be read,
//! is left to be asked about. A key may be ordered by its values as listed ("severity High >
//! Medium > Low", 「重要度は 高→中→低 の順」), not as they spell.

use std::ops::Range;
use std::sync::LazyLock;

use regex::Regex;

use super::slots::{clause_end, english_phrase_after};
use super::Language;

fn re(pattern: &str) -> Regex {
    Regex::new(pattern).expect("sort key pattern")
}

/// A sort key said after the first.
#[derive(Debug, Clone, PartialEq)]
pub struct FurtherKey {
    /// Where the text says it, to its clause's end.
    pub range: Range<usize>,
    /// Its column, `None` when the words do not name one.
    pub column: Option<String>,
    pub descending: bool,
    /// What the first key is said to be ("within each region", 「同じ年の中では」).
    pub within: Option<String>,
}

/// "then by", "and then by", "and then", "and by", "within each region, by", "where two invoices share a
/// date, by", "when the date is the same, order by", "ties broken by", "if two have the same
/// count, the bigger total first", "for orders on the same date, by" (lower-cased text).
pub static EN_FURTHER: LazyLock<Regex> = LazyLock::new(|| {
    re(
        r"\b(?:(?:and |, )?then by|and then|and by|within (?:each|every|the same) (?P<within>[a-z_]+(?: [a-z_]+)?),? (?:sorted |sort )?by|(?:and )?(?:where|when|if) [a-z ]{0,30}?(?:share|have the same|are tied|tie)(?: an?| the)? (?P<shared>[a-z_]+(?: [a-z_]+)?),? by|(?:and )?(?:where|when|if) [a-z ]{0,30}?(?:share|have the same|are tied|tie)(?: an?| the)? (?P<shared_then>[a-z_]+(?: [a-z_]+)?),|(?:and )?(?:where|when|if) (?:the |their )?(?P<same>[a-z_]+(?: [a-z_]+)?) (?:is|are) the same,? (?:then )?(?:order(?:ed)? |sort(?:ed)? |go )?by|(?:and )?(?:where|when|if) (?:any )?(?:two|both|they|those|some) (?:of them |rows |are |is )?(?:are |is )?(?:equal|the same|tied|level),? (?:then )?(?:order(?:ed)? |sort(?:ed)? |put |rank(?:ed)? |list(?:ed)? |go )?(?:them |those )?by|ties? (?:broken |sorted |alphabetical(?:ly)? |a-z )?by|ties? in|(?:and |; )?for (?:the )?same (?P<same2>[a-z_]+(?: [a-z_]+)?),? (?:put|sort|order|show|list|rank)(?: them)?(?: by)?|(?:and |; )?for (?:[a-z]+ )?(?:on|with|of|from) the same (?P<same4>[a-z_]+(?: [a-z_]+)?),? (?:then )?by|(?:\s\(|;\s*|,\s*)(?:same|equal|tied) (?P<same3>[a-z_]+(?: [a-z_]+)?)\s*(?:(?:[:,]|->|→)?\s*(?:then )?by|(?:[:,]|->|→)\s*(?:then )?(?:the )?(?P<way_first>bigger|biggest|larger|largest|higher|highest|smaller|smallest|lower|lowest|newer|newest|older|oldest|earlier|earliest|later|latest)\b|(?:->|→)\s*(?:then )?)|(?P<bare>, then)|(?P<after_key> then))\s+",
    )
});
/// "… sorted by order_no": the words before a bare "then" that makes it the next key.
static SORTED_BY_ONE_KEY: LazyLock<Regex> = LazyLock::new(|| {
    re(
        r"\b(?:sort|sorted|order|ordered|rank|ranked|arrange|arranged)\s+by\s+(?:the\s+)?[a-z_][\w]*(?:\s+[a-z_][\w]*)?$",
    )
});
/// "sort by date, then room": the sentence so far sorts.
static SORT_SENTENCE: LazyLock<Regex> = LazyLock::new(|| {
    re(r"\b(?:sort|sorted|order|ordered|rank|ranked|arrange|arranged)\s+(?:them\s+|it\s+)?by\s+[^.;:!?\n]*$")
});
/// A verb that starts the next step ("…, then save it"), no key.
static STEP_VERB: LazyLock<Regex> = LazyLock::new(|| {
    re(
        r"^(?:save|write|export|put|email|send|give|keep|filter|add|remove|drop|total|sum|count|group|take|show|list|output|store|upload|copy)\b",
    )
});
/// "the bigger amount first", "older ones first": a key said as a comparative and "first".
static EN_COMPARATIVE_FIRST: LazyLock<Regex> = LazyLock::new(|| {
    re(
        r"^\s*(?:the\s+)?(?P<way>bigger|larger|higher|smaller|lower|newer|older|earlier|later)\s+(?P<column>[a-z_][\w]*(?: [a-z_][\w]*)?)\s+first\b",
    )
});
/// 「同じ年の中では取得価額の大きい順」「同じ case_id は更新日順」; a tie of the first key:
/// 「同数ならモジュール名のアルファベット順」「同額の場合は取引先コード順」.
static JA_FURTHER: LazyLock<Regex> = LazyLock::new(|| {
    re(
        r"(?:同じ\s*(?P<within>[^、。\s()（）がをにはで]{1,16}?)\s*(?:の中|の間|内|どうし)?|(?:同数|同額|同点|同値|同率|同順位|同件数|同じ)(?:の場合|の時|のとき|場合)?)\s*(?:では|は|で|なら)\s*、?\s*(?P<key>[^、。\s()（）]{1,20}?)\s*の?\s*(?P<way>古い|新しい|早い|遅い|大きい|小さい|多い|少ない|高い|低い|長い|短い|若い|昇|降)?\s*(?:(?:アルファベット|五十音|abc|ABC)?\s*順|[\p{Han}\p{Katakana}ー]{0,8}(?:の?もの|の?方|の?ほう)?を?(?:上|先|前)に)",
    )
});
static JA_DESCENDING_WAY: LazyLock<Regex> = LazyLock::new(|| re(r"新しい|遅い|大きい|多い|高い|長い|降"));

/// The sort keys the text says after a first one, in order.
pub fn further_keys(text: &str, language: Language) -> Vec<FurtherKey> {
    match language {
        Language::En => english(text),
        Language::Ja => japanese(text),
    }
}

/// Where the words of the first key's order end: before "then by" or 「同じ…では」.
pub fn first_key_end(clause: &str, language: Language) -> usize {
    let found = match language {
        Language::En => EN_FURTHER.find(&clause.to_ascii_lowercase()).map(|m| m.start()),
        Language::Ja => JA_FURTHER.find(clause).map(|m| m.start()),
    };
    found.unwrap_or(clause.len())
}

fn english(text: &str) -> Vec<FurtherKey> {
    let lower = text.to_ascii_lowercase();
    EN_FURTHER
        .captures_iter(&lower)
        .filter_map(|c| {
            let m = c.get(0)?;
            let end = clause_end(&lower, m.end());
            // "test_id A-Z": the order said after the column is not part of its name.
            // ("ties in Test ID order A to Z": the word "order" is no part of it either.)
            let column = english_phrase_after(text, m.end()).and_then(|p| {
                let p = p.to_ascii_lowercase();
                let p = super::shaping::without_order(&p);
                // ("-> bigger amount first": the way said before the key, "first" after it.)
                let p = p.strip_suffix(" order").or_else(|| p.strip_suffix(" first")).unwrap_or(p);
                // ("then item": after the word that adds a key, a word for rows is its column.)
                super::shaping::en_key_column(p)
            });
            let window = &lower[m.end()..end];
            // "from highest to lowest": the first order word says it.
            let first = |words: &Regex| words.find(window).map_or(usize::MAX, |m| m.start());
            // ", then test_id A-Z": a bare "then" is a key only with its order said, or in the
            // sentence of a sort ("sort by date, then room, then start time") before a noun.
            let in_a_sort = SORT_SENTENCE.is_match(&lower[..m.start()]) && !STEP_VERB.is_match(window.trim_start());
            if c.name("bare").is_some()
                && first(&super::shaping::EN_DESCENDING).min(first(&super::shaping::EN_ASCENDING)) == usize::MAX
                && !in_a_sort
            {
                return None;
            }
            let descending = first(&super::shaping::EN_DESCENDING) < first(&super::shaping::EN_ASCENDING);
            // "put the bigger amount first": the column between the comparative and "first".
            let comparative = EN_COMPARATIVE_FIRST.captures(window);
            // "sorted by order_no then return_id": a bare "then" right after the first key.
            if c.name("after_key").is_some() && !SORTED_BY_ONE_KEY.is_match(&lower[..m.start()]) {
                return None;
            }
            // "if two vendors have the same count, …": a key only when a comparative follows.
            if c.name("shared_then").is_some() && comparative.is_none() {
                return None;
            }
            // ("; same expiry date -> bigger amount first": the comparative said before the key.)
            let way_first = c.name("way_first").map(|w| {
                matches!(w.as_str(), "bigger" | "biggest" | "larger" | "largest" | "higher" | "highest" | "newer")
                    || matches!(w.as_str(), "newest" | "later" | "latest")
            });
            let (column, descending) = match &comparative {
                _ if way_first.is_some() => (column, way_first == Some(true)),
                Some(said) => (
                    super::shaping::en_column(&said["column"]),
                    matches!(&said["way"], "bigger" | "larger" | "higher" | "newer" | "later"),
                ),
                None => (column, descending),
            };
            let within = ["within", "shared", "shared_then", "same", "same2", "same3", "same4"]
                .iter()
                .find_map(|g| c.name(g))
                .map(|w| w.as_str().to_owned());
            Some(FurtherKey { range: m.start()..end, column, descending, within })
        })
        .collect()
}

fn japanese(text: &str) -> Vec<FurtherKey> {
    JA_FURTHER
        .captures_iter(text)
        .filter_map(|c| {
            let m = c.get(0)?;
            let column = super::shaping::ja_column(&c["key"]);
            let descending = c.name("way").is_some_and(|w| JA_DESCENDING_WAY.is_match(w.as_str()));
            let within = c.name("within").and_then(|w| super::shaping::ja_column(w.as_str()));
            Some(FurtherKey { range: m.start()..clause_end(text, m.end()), column, descending, within })
        })
        .collect()
}

/// A column's values in the order wanted, as the text lists them.
#[derive(Debug, Clone, PartialEq)]
pub struct ValueOrder {
    /// What the text says, column and values.
    pub said: String,
    /// Where the values are listed.
    pub listed_at: Range<usize>,
    pub column: String,
    pub values: Vec<String>,
}

/// The values a list of them joins with arrows or `>`: 「高→中→低」, "High > Medium > Low".
const ARROWED: &str =
    r"「?[^、。,;\s→＞>⇒「」()（）]{1,16}」?(?:\s*(?:→|＞|>|⇒|->)\s*「?[^、。,;\s→＞>⇒「」()（）]{1,16}」?)+";

/// 「重要度は 高→中→低 の順」「重要度を「高」「中」「低」の順に」「重要度の並びは 致命的→高→中→低 の順」.
static JA_VALUE_ORDER: LazyLock<Regex> = LazyLock::new(|| {
    re(&format!(
        r"(?P<column>[\p{{Han}}\p{{Katakana}}ーA-Za-z_]{{1,12}})\s*(?:の\s*(?:並び順|並び|順番|順序|並べ方)\s*)?(?:は|を|が|の)\s*(?:(?P<arrowed>{ARROWED})|(?P<quoted>(?:「[^」]{{1,16}}」\s*[・、]?\s*){{2,}}))\s*の?\s*順"
    ))
});
/// A value of an English list of them: one or two words.
const EN_VALUE: &str = r"[a-z][a-z0-9_]*(?: [a-z][a-z0-9_]*)?";

/// "severity High > Medium > Low", "by priority (High -> Medium -> Low)", "sort by status in the
/// order Open, Pending, Closed".
static EN_VALUE_ORDER: LazyLock<Regex> = LazyLock::new(|| {
    re(&format!(
        r"(?i)\b(?:(?:sorted|sort|ordered|order|by|then)\s+)*(?P<column>[a-z_]+)\s*(?::|\()?\s*(?:(?P<arrowed>{EN_VALUE}(?:\s(?:>|→)\s{EN_VALUE})+)|in the order (?P<listed>{EN_VALUE}(?:, {EN_VALUE})+(?:,? (?:or|and|then) {EN_VALUE})?))"
    ))
});

/// "critical first, then high": values said in their order, with no column; the column is the
/// one they are said of elsewhere ("severity critical or high").
static EN_VALUES_FIRST: LazyLock<Regex> = LazyLock::new(|| {
    re(
        r"(?i)\b(?P<a>[a-z][a-z0-9_]*(?: [a-z][a-z0-9_]*)?) first,? (?:and )?then (?P<b>[a-z][a-z0-9_]*(?: [a-z][a-z0-9_]*)?)\s*(?:[;.,)\n]|$)",
    )
});
/// Words that order by size or time ("oldest first"), no values of a column.
static EN_ORDER_WORD: LazyLock<Regex> = LazyLock::new(|| {
    re(
        r"(?i)\b(?:[a-z]+est|most|least|more|less|fewer|bigger|larger|higher|lower|smaller|newer|older|earlier|later|latest|recent|ascending|descending|alphabetical|the rest|rest|others|everything else|by)\b",
    )
});

/// "critical first, then high" with the column named where the values are said together
/// ("severity critical or high"): an order by the values; none when no column names them.
fn values_said_first(text: &str) -> Option<ValueOrder> {
    let c = EN_VALUES_FIRST.captures(text)?;
    let (a, b) = (c.name("a")?, c.name("b")?);
    if EN_ORDER_WORD.is_match(a.as_str()) || EN_ORDER_WORD.is_match(b.as_str()) {
        return None;
    }
    let together = re(&format!(
        r"(?i)\b(?P<column>[a-z_]+)\s*(?::|=|is|of)?\s+{}\s*(?:,|or|and|/)\s*{}\b",
        regex::escape(a.as_str()),
        regex::escape(b.as_str())
    ));
    let column = together.captures(text)?["column"].to_owned();
    let said = c.get(0)?;
    Some(ValueOrder {
        said: said.as_str().to_owned(),
        listed_at: a.start()..b.end(),
        column,
        values: vec![a.as_str().to_owned(), b.as_str().to_owned()],
    })
}

/// 「1等、2等、3等、規格外の順に」: three values or more listed with 、 and no column, each short
/// and no phrase of its own.
static JA_VALUES_LISTED: LazyLock<Regex> = LazyLock::new(|| {
    re(
        r"(?P<listed>[^、。,;\s「」()（）のでてにをはがと]{1,8}(?:、[^、。,;\s「」()（）のでてにをはがと]{1,8}){2,})\s*の\s*順",
    )
});
/// The one grouping key said (「等級ごとに」「等級別に」).
static JA_GROUPED_BY: LazyLock<Regex> =
    LazyLock::new(|| re(r"(?P<column>[\p{Han}\p{Katakana}ーA-Za-z_]{1,12})(?:ごと|別)(?:に|の)"));

/// 「等級ごとにまとめて…1等、2等、3等、規格外の順に」: values listed in their order, of the one
/// column the rows are grouped by.
fn japanese_values_listed_of_the_groups(text: &str) -> Option<ValueOrder> {
    let c = JA_VALUES_LISTED.captures(text)?;
    let listed = c.name("listed")?;
    let mut keys = JA_GROUPED_BY.captures_iter(text).map(|k| k["column"].to_owned());
    let column = keys.next()?;
    if keys.any(|other| other != column) {
        return None;
    }
    Some(ValueOrder {
        said: c.get(0)?.as_str().to_owned(),
        listed_at: listed.range(),
        column,
        values: listed.as_str().split('、').map(str::to_owned).collect(),
    })
}

/// 「4月から年度の順に」「4月始まりの年度順」: months in a fiscal year's order, from the month said.
static JA_FISCAL_ORDER: LazyLock<Regex> = LazyLock::new(|| {
    re(r"(?P<m>1[0-2]|[1-9])\s*月\s*(?:から|始まり|スタート)\s*の?\s*(?:会計)?年度\s*の?\s*(?:順番|順)")
});

/// The months of a year from `first`, as 「4月」… 「3月」, the order a fiscal year said so keeps.
fn fiscal_months(text: &str) -> Option<ValueOrder> {
    let c = JA_FISCAL_ORDER.captures(text)?;
    let first: u32 = c["m"].parse().ok()?;
    let values = (0..12).map(|i| format!("{}月", (first - 1 + i) % 12 + 1)).collect();
    let said = c.get(0)?;
    Some(ValueOrder { said: said.as_str().to_owned(), listed_at: said.range(), column: "月".to_owned(), values })
}

/// The columns the text orders by their values, and the values in order.
pub fn value_orders(text: &str, language: Language) -> Vec<ValueOrder> {
    if language == Language::Ja {
        if let Some(fiscal) = fiscal_months(text) {
            return vec![fiscal];
        }
    }
    if language == Language::En {
        if let Some(first) = values_said_first(text) {
            return vec![first];
        }
    }
    if language == Language::Ja {
        if let Some(listed) = japanese_values_listed_of_the_groups(text) {
            return vec![listed];
        }
    }
    let pattern = match language {
        Language::En => &*EN_VALUE_ORDER,
        Language::Ja => &*JA_VALUE_ORDER,
    };
    pattern
        .captures_iter(text)
        .filter_map(|c| {
            let said = c.get(0)?.as_str().to_owned();
            let column = c["column"].to_owned();
            if ["列", "項目", "カラム", "columns", "column", "order"].contains(&column.to_lowercase().as_str()) {
                return None;
            }
            let listed = c.name("arrowed").or(c.name("quoted")).or(c.name("listed"))?;
            let values: Vec<String> = listed
                .as_str()
                .replace("->", "→")
                .split(['→', '＞', '>', '⇒', '」', ',', '、', '・'])
                .map(|v| {
                    let v = v.trim();
                    let v = ["or ", "and ", "then "].iter().fold(v, |v, w| v.strip_prefix(w).unwrap_or(v));
                    v.trim_start_matches('「').trim().to_owned()
                })
                .filter(|v| !v.is_empty())
                .collect();
            // 「返品数量を合計→多い順」: a step, then an order by size; no values in order.
            let by_size = values.last().is_some_and(|v| {
                ["多い", "少ない", "大きい", "小さい", "高い", "低い", "新しい", "古い", "長い", "短い"]
                    .iter()
                    .any(|w| v.ends_with(w))
            });
            (values.len() >= 2 && !by_size).then(|| ValueOrder { said, listed_at: listed.range(), column, values })
        })
        .collect()
}

/// The text with the values of each order blanked (same length), so that no other reading
/// takes them for a comparison ("High > Medium") or part of a column's name.
pub fn without_listed_values(text: &str, orders: &[ValueOrder]) -> String {
    super::slots::blanked(text, orders.iter().map(|o| o.listed_at.clone()))
}
