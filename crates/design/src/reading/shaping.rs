//! Operations that shape a table, each read from one clause: find or remove duplicates, sort
//! and keep the top N, add a computed column. English patterns match lower-cased text; Japanese
//! ones match the clause as written.

use std::sync::LazyLock;

use regex::Regex;

use super::slots::{self, english_phrase_after};
use super::{words, Aggregation, Step};
use planwright_formula::Formula;

fn re(pattern: &str) -> Regex {
    Regex::new(pattern).expect("shaping pattern")
}

static EN_DUPLICATE: LazyLock<Regex> = LazyLock::new(|| {
    re(
        r"\b(the same [a-z_]+(?: [a-z_]+)?,? (?:and|for|with|at) (?:the )?same|(?:more than one|two or more|several|multiple) [a-z_]+ (?:for|on|with|in|at|of) the same|duplicates?|duplicated|repeated|repeats|double[- ](payments?|entr(y|ies)|billing|charges?|bookings?|claims?|counted)|[a-z]+ed twice|twice|more than once|(?:on|in|across) more than one (?:row|line|record|entry)|exact cop(?:y|ies)|cop(?:y|ies) of (?:an)?other (?:row|line|entry|record)s?|identical (?:rows|lines|entries|records|copies)|(?:rows|lines|entries|records) that are (?:exactly |completely )?(?:the same|identical)|(?:has|have|with) (?:an)?other [a-z]+ (?:with|on|for) the same|also used by (?:at least one |an|some )?other|(?:used|shared|given|assigned|handed out|issued) (?:by|to|on|for|with) (?:more than one|two or more|several|multiple))\b",
    )
});
static EN_REMOVE: LazyLock<Regex> = LazyLock::new(|| {
    re(
        r"\b(remove|removing|drop|dropping|delete|deleting|eliminate|get rid of|clean|de-?dup(e|licate)?[sd]?|de-?duplicat(e|ed|ing)|without (the )?duplicates|unique|distinct|only once|once each|just once|one (row|line|entry|record) (per|for each))\b",
    )
});
/// Deduplicating without the word "duplicate": "one row per invoice", "each customer only once".
static EN_DEDUPE_ALONE: LazyLock<Regex> = LazyLock::new(|| {
    re(
        r"\b(de-?dup(e|licate)?[sd]?|de-?duplicat(e|ed|ing)|one (row|line|entry|record) (per|for each)|(only|just) once|(only|just) (appear|show up|be listed|be kept|stay|remain) once|(appear|show up|be listed|be kept) (only|just) once|once each|each (?:[\w-]+ ){1,3}once|count(?:ed)? (?:them|it|those|each(?: one)?) (?:only )?once)\b",
    )
});
/// "the LAST row for that customer_id in the file", "the first line per invoice", "keep only the
/// first application for each employee_id": one row per key, the one the words say by its place
/// in the file ("the latest" goes by a date: not this).
static EN_ROW_PER_KEY: LazyLock<Regex> = LazyLock::new(|| {
    re(
        r"\bthe (?P<which>last|first) (?:row|line|record|entry|one) (?:for|per|of) (?:each |every |that |the |a )?(?P<key>[a-z_][\w]*(?: [a-z_][\w]*)?)|\b(?:keep|leave) (?:only |just )?(?:a single|one|just one|only one) (?:row|line|record|entry) (?:for|per|of) (?:each |every )?(?P<key2>[a-z_][\w]*)\b[^.;]{0,40}?\b(?P<which2>first|last)\b|\b(?:keep|leave) (?:only |just )?the (?P<which3>last|first) [a-z_]+ (?:for|per|of) (?:each|every) (?P<key3>[a-z_][\w]*)\b|\b(?:keep|leave) (?:only |just )?(?:each|every) (?P<key4>[a-z_][\w]*(?: [a-z_][\w]*)?)'s (?P<which4>first|last) [a-z_]+",
    )
});
/// "give me each Cost Center code once": the key said between.
static EN_EACH_ONCE: LazyLock<Regex> = LazyLock::new(|| re(r"\beach ((?:[\w-]+ ){1,3})once\b"));
static EN_REPEATING_KEY: LazyLock<Regex> = LazyLock::new(|| {
    re(
        r"\b(?:whose|where(?: the)?|with the same|if the) (?P<k>[a-z_][\w ]{0,20}?|[a-z_][\w ]{0,20}?(?:,\s*(?:the )?[a-z_][\w ]{0,20}?)*,? and (?:the )?[a-z_][\w]{0,20}(?: together| both| combined)?) (?:appears|occurs|shows up|is repeated|is used|is also used|also appears|comes up|repeats|show up|appear|occur|are repeated|come up|repeat)\b",
    )
});
static EN_SAME: LazyLock<Regex> = LazyLock::new(|| {
    re(
        r"\bsame ([a-z0-9_][\w -]{0,30}?)(?:\s*(?:,|\band\b|\bfor\b|\bwith\b|\bor\b|\bon\b|\bin\b|\bbut\b|\bat\b|\bto\b|\bthe same\b|\b(?:claimed|paid|billed|charged|submitted|entered|booked|spent|received|sent|made|has|have|had|was|were|is|are|appears?|twice|both|either|still|counts?|should|would|will|can|must|used|uses|redeemed|ordered|bought|placed|applied|registered|more than|again|multiple|several)\b|\(|\)|:|\?|—|-\s|;|\.\s|\.$|$))",
    )
});
/// "(same email and session)": two columns the same, said with "and" and nothing after.
static EN_SAME_AND: LazyLock<Regex> = LazyLock::new(|| {
    re(
        r"\bsame ([a-z0-9_]+(?: [a-z0-9_]+)?) and (?:the )?(?:same )?([a-z0-9_]+(?: [a-z0-9_]+)?)\s*(?:\)|,|;|\?|\.(?:\s|$)|$)",
    )
});
/// "the same vendor + invoice number combination", "the same vendor/invoice pair".
static EN_SAME_PAIR: LazyLock<Regex> = LazyLock::new(|| {
    re(r"\bsame ([a-z0-9_][\w ]{0,30}?)\s*(?:\+|&|/)\s*([a-z0-9_][\w ]{0,30}?)\s+(?:combination|combo|pair)\b")
});
/// "where vendor_id, invoice_no and amount are all the same as on another row", "when the vendor,
/// the invoice number and the amount are all the same": the columns listed, then said the same
/// as another row's, or three or more all the same (not "where billed and paid are the same",
/// two columns of one row).
pub(super) static EN_SAME_LIST: LazyLock<Regex> = LazyLock::new(|| {
    re(
        r"\b(?:where|whose|with|when|if)\s+(?:the\s+)?(?P<list>[a-z_][\w]*(?: [a-z_][\w]*)?(?:,\s*[a-z_][\w]*(?: [a-z_][\w]*)?)*,?\s+and\s+[a-z_][\w]*(?: [a-z_][\w]*)?)\s+(?:are|is)\s+(?:all\s+)?(?:the\s+)?(?:same|identical|equal)\s+(?:as\s+(?:on|in|for)?\s*(?:at least\s+)?(?:one\s+)?(?:an)?other|across)\b|\b(?:where|whose|with|when|if)\s+(?:the\s+)?(?P<list3>[a-z_][\w]*(?: [a-z_][\w]*)?(?:,\s*(?:the\s+)?[a-z_][\w]*(?: [a-z_][\w]*)?)+,?\s+and\s+(?:the\s+)?[a-z_][\w]*(?: [a-z_][\w]*)?)\s+(?:are|is)\s+all\s+(?:the\s+)?(?:same|identical|equal)\b",
    )
});
/// The columns of an [`EN_SAME_LIST`].
fn en_same_list(lower: &str) -> Vec<String> {
    EN_SAME_LIST
        .captures(lower)
        .and_then(|c| c.name("list").or(c.name("list3")))
        .map(|list| {
            let items = slots::list_items(list.as_str());
            items.iter().filter_map(|item| en_column(item.trim().trim_start_matches("the ").trim())).collect()
        })
        .unwrap_or_default()
}
/// "any combination of vendor_id and amount", "the order_no + sku combinations".
static EN_COMBINATION: LazyLock<Regex> = LazyLock::new(|| {
    re(
        r"\bcombinations? of (?:the )?(?P<a>[a-z_][\w ]{0,30}?) and (?:the )?(?P<b>[a-z_][\w]{0,30})\b|\b(?P<a2>[a-z_][\w]*)\s*(?:\+|&|/|\band\b)\s*(?P<b2>[a-z_][\w]*) (?:combinations?|combos?|pairs?)\b",
    )
});
static EN_KEY: LazyLock<Regex> =
    LazyLock::new(|| re(r"\b(?:by|on|per|of|based on|using|for each|keyed on|with the same) (?:the |their |its )?"));
pub(super) static EN_KEEP_LAST: LazyLock<Regex> =
    LazyLock::new(|| re(r"\bkeep(ing)? (only )?(the )?(last|latest|most recent|newest)\b"));

static EN_SORT: LazyLock<Regex> =
    LazyLock::new(|| re(r"\b(sort|sorted|sorting|order|ordered|rank|ranked|ranking|arrange|arranged)\b"));
/// "order number", "the order columns", "order's date": the words after an order that is a thing
/// (one order of many), not a sorting; "the order they're in now": the order kept.
static ORDER_AS_A_THING: LazyLock<Regex> = LazyLock::new(|| {
    re(
        r"^(?:'s\b|\s*(?:lines?|numbers?|no|ids?|dates?|totals?|columns?|fields?|rows?|amounts?|values?|status|details?|data|items?|files?|sheets?|headers?|refs?|references?|quantity|qty|form|book|entry|entries|history|value)|\s+(?:they|it|the\s+\w+|these|those)(?:'re|'s|\s+are|\s+is|\s+were|\s+was|\s+came)\s+(?:in|listed|now|already)\b)",
    )
});
/// An order said without a sort word: "from the biggest total down", "largest amount first",
/// "from oldest to newest". `what` is the measured noun, when one is said.
static EN_ORDER_PHRASE: LazyLock<Regex> = LazyLock::new(|| {
    re(
        r"\bfrom (?:the )?(?P<sup>largest|biggest|highest|greatest|most|smallest|lowest|least|oldest|newest|latest|earliest)(?: (?P<what>[a-z_][\w]*(?: [a-z_][\w]*)?))? (?:down(?:wards?)?|up(?:wards?)?|to (?:the )?\w+)\b|\b(?P<sup2>largest|biggest|highest|greatest|smallest|lowest|oldest|newest|latest|earliest|soonest|nearest|slowest|fastest|quickest|worst|best|most|fewest|cheapest|busiest|quietest)(?: (?P<what2>[a-z_][\w-]*(?: [a-z_][\w]*)?|(?:expensive|costly) per [a-z_][\w]*))?(?: is| are| comes?)? (?:first|at the top|on top)\b",
    )
});
/// Duplicates said to be whole rows ("identical in every column", 「全部の列が完全に一致する行」):
/// no column is their key, whatever an example names ("same payee and amount … are not").
pub static WHOLE_ROW_DUPLICATES: LazyLock<Regex> = LazyLock::new(|| {
    re(
        r"\b(?:identical|the same|match(?:es|ing)?|same values?) (?:in|on|across) (?:every|all|each)(?: the)? (?:columns?|fields?)\b|\b(?:every|all|each) (?:columns?|fields?) (?:is |are )?(?:identical|the same|match(?:es)?)\b|\bexact (?:cop(?:y|ies)|duplicates?)\b|\bfully identical\b|\b(?:rows|lines|entries|records) that are (?:exactly|completely) (?:the same|identical)\b|(?:全部|全て|すべて|全)の(?:列|項目)が(?:まったく|全く|完全に)?(?:一致|同じ)|全(?:列|項目)(?:が)?(?:まったく|全く|完全に)?(?:一致|同じ)|完全に(?:一致|同じ)(?:する|の)?行|(?:まったく|全く|完全に)同じ(?:内容の)?行",
    )
});

/// Where `lower` says an order without a sort word ("largest total first", "from the biggest
/// total down"): its words name no total or maximum.
pub fn order_phrases(lower: &str) -> Vec<std::ops::Range<usize>> {
    EN_ORDER_PHRASE.find_iter(lower).map(|m| m.range()).collect()
}

/// "in month order", "in order of amount", "in date order".
static EN_IN_ORDER: LazyLock<Regex> = LazyLock::new(|| {
    re(
        r"\bin (?:the )?(?P<what>[a-z_][\w]*(?: [a-z_][\w]*)?) order\b|\bin order of (?:the )?(?P<what2>[a-z_][\w]*(?: [a-z_][\w]*)?)|\b(?P<noun>[a-z_]+) (?:should be |are |is |to be |must be )?(?:listed|sorted|ordered|shown|arranged|put) (?P<what3>alphabetically|a to z|a-z|from a to z)\b|\b(?P<what4>[a-z_]+s) in order\s*(?:$|[,.;)]|and\b|into\b|to\b|in\b|please\b)",
    )
});
static EN_TOP: LazyLock<Regex> = LazyLock::new(|| {
    re(
        r"\b(?:top|first|(?P<bottom>bottom|last))\s+(?P<n>\d{1,4}|two|three|four|five|six|seven|eight|nine|ten|twelve|fifteen|twenty|fifty|hundred)\b|\b(?P<n2>\d{1,4}|one|two|three|four|five|six|seven|eight|nine|ten|twelve|fifteen|twenty|fifty|hundred)\s+(?P<sup>largest|biggest|highest|greatest|most expensive|smallest|lowest|cheapest|oldest|newest|latest|earliest|most recent)\b|\b(?P<sup2>largest|biggest|highest|greatest|smallest|lowest)\s+(?P<n3>\d{1,4}|one|two|three|four|five|six|seven|eight|nine|ten|twenty)\b|\bthe\s+(?P<n4>\d{1,4}|two|three|four|five|six|seven|eight|nine|ten|twelve|fifteen|twenty)\s+(?:[a-z_]+\s+)?with\s+the\s+(?P<sup3>largest|biggest|highest|greatest|most|smallest|lowest|fewest|least)\b|\b(?:which|the)\s+(?P<n5>\d{1,4}|two|three|four|five|six|seven|eight|nine|ten)\s+[a-z_]+\b[^.?;]{0,50}?\b(?:cost|costs|paid|spent|earned|sold|took|take|used|use|owe|owed)\s+(?:us\s+)?(?:(?:the\s+)?[a-z_]+\s+){0,3}?the\s+(?P<sup4>most|least)\b",
    )
});
pub(super) static EN_DESCENDING: LazyLock<Regex> = LazyLock::new(|| {
    re(
        r"\b(descending|desc|largest|biggest|highest|greatest|most expensive|top|newest|latest|most recent|slowest|busiest|high(est)? to low(est)?|big to small|large to small|from (the )?(largest|highest|biggest|newest)|z-a|z to a)\b",
    )
});
/// An order said as a range, "from highest to lowest", "newest to oldest": the first word says it.
static EN_ORDER_RANGE: LazyLock<Regex> = LazyLock::new(|| {
    re(
        r"\b(?P<from>highest|largest|biggest|newest|latest|lowest|smallest|oldest|earliest) to (?:the )?(?:highest|largest|biggest|newest|latest|lowest|smallest|oldest|earliest)\b",
    )
});
pub(super) static EN_ASCENDING: LazyLock<Regex> = LazyLock::new(|| {
    re(
        r"\b(ascending|asc|smallest|lowest|cheapest|oldest|earliest|soonest|nearest|fastest|quickest|quietest|low(est)? to high(est)?|small to large|from (the )?(smallest|lowest|oldest|earliest)|bottom|a-z|a to z|alphabetical(ly)?)\b",
    )
});
static EN_DIFFERENCE: LazyLock<Regex> = LazyLock::new(|| {
    re(
        r"\b(?:difference between|gap between|variance between) (?:the )?(?P<a>[\w ]{1,30}?) and (?:the )?(?P<b>[\w ]{1,30}?)(?:\s*(?:,|\bas\b|\bin\b|\binto\b|\bcalled\b|\bnamed\b|\bfor\b|\bthen\b|\band\b|\(|$))|\b(?P<c>[a-z_][\w]*(?: [a-z_][\w]*)?) (?:minus|-|−|less) (?P<article>the )?(?P<d>[a-z_][\w]*(?: [a-z_][\w]*)?)\b|\bsubtract (?:the )?(?P<e>[\w ]{1,30}?) from (?:the )?(?P<f>[\w ]{1,30}?)(?:\s*(?:,|\bas\b|\bin\b|\binto\b|\bcalled\b|\bthen\b|\band\b|\(|$))",
    )
});
static EN_PRODUCT: LazyLock<Regex> = LazyLock::new(|| {
    re(
        r"\b(?P<a>[a-z_][\w]*(?: [a-z_][\w]*)?) (?:times|multiplied by|x|×|\*) (?:the )?(?P<b>[a-z_][\w]*(?: [a-z_][\w]*)?)\b",
    )
});
static EN_RATIO: LazyLock<Regex> = LazyLock::new(|| {
    re(
        r"\b(?P<a>[a-z_][\w]*(?: [a-z_][\w]*)?) divided by (?:the )?(?P<b>[a-z_][\w]*(?: [a-z_][\w]*)?)\b|\bratio of (?:the )?(?P<c>[\w ]{1,30}?) to (?:the )?(?P<d>[\w ]{1,30}?)(?:\s*(?:,|\bas\b|\bin\b|\bcalled\b|\bthen\b|\band\b|$))",
    )
});
static EN_MONTH_OF: LazyLock<Regex> = LazyLock::new(|| {
    re(r"\b(?P<part>month|year) (?:of|from) (?:the |each |every )?(?P<a>[a-z_][\w]*(?: [a-z_][\w]*)?)\b")
});
static EN_TIMES_NUMBER: LazyLock<Regex> = LazyLock::new(|| {
    re(r"\b(?P<a>[a-z_][\w]*(?: [a-z_][\w]*)?) (?:times|multiplied by|x|×|\*) (?P<n>\d+(?:\.\d+)?)\b")
});
static EN_NAMED: LazyLock<Regex> = LazyLock::new(|| {
    re(
        r#"\b(?:as|called|named|column|into)\s+(?:a |an |the )?(?:new )?(?:column )?(?:called |named )?["'“]?(?P<name>[a-z_][\w]*(?: [a-z_][\w]*)?)["'”]?"#,
    )
});

/// Words that ask for something to be found or shown ("find", 「探して」), as opposed to a
/// sentence telling what happened.
/// "… has some people", "there are a few rows": what a file holds, said before its duplicates.
static EN_HAS_SOME: LazyLock<Regex> = LazyLock::new(|| {
    re(
        r"\b(?:has|have|had|contains|contain|includes|include|there are|there're|there were|got)\s+(?:some|a few|several|many|a couple of|multiple)\b[^.;:]*$",
    )
});
static EN_ASKS: LazyLock<Regex> = LazyLock::new(|| {
    re(
        r"\b(find|finds|list|lists|show|check|flag|identify|spot|look for|detect|give me|report|extract|pull|keep|get|highlight|mark|need|want|see|possible|suspect|suspected|potential|put|save|write|export)\b",
    )
});
/// Words that ask for the duplicates (「…同じ行が2行以上あるものについて、」 says the rows the
/// next piece asks for).
static JA_ASKS: LazyLock<Regex> = LazyLock::new(|| {
    re(
        r"探|確認|チェック|洗い出|抽出|一覧|リスト|見つけ|出して|出力|残して|残す|表示|教えて|知りたい|疑い|可能性|かもしれない|ないか|(?:もの|行)について|拾|ある(?:もの|行)を",
    )
});
static JA_DUPLICATE: LazyLock<Regex> = LazyLock::new(|| {
    re(
        r"重複|二重|ダブ|だぶ|がかぶっ|がかぶる|が被っ|が被る|2回|二回|２回|同じ.{1,20}?(で|かつ|・|、|に|と).{0,4}(?:まったく|全く|完全に)?同じ",
    )
});
static JA_REMOVE: LazyLock<Regex> = LazyLock::new(|| {
    re(
        r"重複(を|は|分を|分は|した行を|している行を|行を|データを)?(除|削除|排除|取り除|消|なく|無く|省|まとめ)|重複削除|重複排除|重複なし|重複無し|一意|ユニーク|1件(だけ|のみ)?(に|を残)|１件(だけ|のみ)?(に|を残)|一件(だけ|のみ)?(に|を残)|1行(だけ|のみ)?に|[1１一]行(だけ|のみ)?(を)?残(し|す)て?削除|最初の1件|最初に(出てくる|出る|ある)行(だけ|のみ)(を)?残|(上|先)の(方の)?行(だけ|のみ)(を)?残",
    )
});
/// 「同じ行が2行以上」「複数件ある」: rows that share their values with others.
static JA_SEVERAL: LazyLock<Regex> = LazyLock::new(|| re(r"(?:2|２|二)\s*(?:行|件|回)以上|複数"));
pub(super) static JA_KEEP_LAST: LazyLock<Regex> =
    LazyLock::new(|| re(r"最後の|最新の|後の方|後のもの|新しい方|下の方|下にある|後から追加"));
static JA_SAME_PAIR: LazyLock<Regex> = LazyLock::new(|| {
    re(
        r"(?P<a>[^、。をがはでと\s「」・]{1,16})(?:と|・|、)(?P<b>[^、。をがはでと\s「」・]{1,16}?)(?:の組み合わせ|の両方|のどちらも|の2つ|の二つ)?が(?:どちらも|両方(?:とも)?|ともに|いずれも)?(?:同じ|一致|重複|等しい)",
    )
});
/// The columns of 「支払日・取引先・金額の3つ」, without the count closing the list.
fn same_list(list: &str) -> Vec<String> {
    let list = super::words::JA_LIST_COUNT.find(list).map_or(list, |m| &list[..m.start()]);
    slots::list_items(list).iter().filter_map(|n| ja_column(n)).collect()
}

/// Words for the rows themselves, never a duplicate's key (「同じ行」「同じもの」).
const JA_NOT_KEYS: &[&str] = &["支払", "データ", "行", "もの", "件", "明細"];
/// 「支払日・取引先・金額の3つがすべて同じ」: three or more columns the same.
static JA_SAME_LIST: LazyLock<Regex> = LazyLock::new(|| {
    re(
        r"「?(?P<list>[^、。をがはでと\s「」・]{1,16}(?:・[^、。をがはでと\s「」・]{1,16}){2,})」?(?:の(?:\d+|[一二三四五六七八九十]+)つ|の組み合わせ)?(?:が|は)(?:すべて|全て|全部|いずれも)?(?:完全に|まったく|全く)?(?:同じ|一致|重複|等しい)",
    )
});
static JA_SAME_EACH: LazyLock<Regex> = LazyLock::new(|| {
    re(
        r"同じ(?P<a>[^、。をがはでと\s「」・]{1,16}?)(?:で|かつ|・|、|の|に|へ|を|が|から)|(?P<b>[^、。をがはでと\s「」・]{1,16})が(?:まったく|全く|完全に)?同じ",
    )
});
/// 「同じ取引先で同じ金額」「同じ画面IDで現象がまったく同じ」: each column said the same, before
/// or after the word.
fn same_each(text: &str) -> Vec<String> {
    JA_SAME_EACH.captures_iter(text).filter_map(|c| ja_column(c.name("a").or(c.name("b"))?.as_str())).collect()
}
/// 「登録番号が同じなら同じ取引先とみなして」「コードが同じであれば重複」.
static JA_SAME_IF: LazyLock<Regex> = LazyLock::new(|| {
    re(
        r"(?P<a>[^、。をがはでと\s「」・]{1,16})が(?:同じ|一致する|一致して(?:いる|いれば))(?:なら|であれば|場合は?|ときは?)",
    )
});
static JA_KEY_OF: LazyLock<Regex> = LazyLock::new(|| {
    re(
        r"(?P<a>[^、。をがはでと\s「」・]{1,16})(?:の|が)(?:重複|ダブ|かぶっ|かぶる|被っ|被る)|(?P<b>[^、。をがはでと\s「」・]{1,16})(?:ごと|単位|毎)に(?:(?:最初の|最後の|先頭の|最新の)(?:1|１|一)(?:件|行)|(?:1|１|一)件)",
    )
});

/// (「経過日数の長い順、同じ日数なら…」: an order said with its adjective alone sorts too.)
static JA_SORT: LazyLock<Regex> = LazyLock::new(|| {
    re(
        r"並べ替|並び替|並べ|ソート|順に|順で|順番に|降順|昇順|い順|[\p{Han}\p{Katakana}ーA-Za-z0-9]順\s*$|[\p{Han}\p{Katakana}ーA-Za-z0-9]順(?:、|・|\s*[（(])|(?:古い|新しい|大きい|小さい|多い|少ない|高い|低い|早い|遅い)[\p{Han}\p{Katakana}ー]{1,6}から\s*$",
    )
});
static JA_TOP: LazyLock<Regex> = LazyLock::new(|| {
    re(
        r"(?:上位|トップ|先頭の?|最初の)\s*(?P<n>\d{1,4}|[０-９]{1,4}|[一二三四五六七八九十]{1,3})|(?:順に|から|順で)\s*(?P<n2>\d{1,4}|[０-９]{1,4}|[一二三四五六七八九十]{1,3})\s*(?:件|社|名|行|つ|位)|(?P<n3>\d{1,4}|[０-９]{1,4}|[一二三四五六七八九十]{1,3})\s*(?:件|社|名|行)(?:だけ|のみ)?(?:を)?(?:残|抽出|出|取り出|選)",
    )
});
static JA_ORDER_COLUMN: LazyLock<Regex> = LazyLock::new(|| {
    re(
        r"(?P<a>[^、。をがはでと\s「」・()（）]{1,16})(?:の(?:大きい|多い|高い|小さい|少ない|低い|新しい|古い|早い|遅い|長い|短い|近い|遠い)?|が(?:大きい|多い|高い|小さい|少ない|低い|新しい|古い|早い|遅い|長い|短い|近い|遠い))(?:順|降順|昇順)|(?P<d>[^、。をがはでと\s「」・()（）]{1,16})が(?:大きい|多い|高い|小さい|少ない|低い|新しい|古い|早い|遅い|長い|短い|近い|遠い)[\p{Han}\p{Katakana}ー]{1,8}から(?:順|並べ)|(?P<b>[^、。をがはでと\s「」・()（）]{1,16})(?:で|を)(?:並べ|並び|ソート|降順|昇順)|(?P<c>[^、。をがはでと\s「」・()（）]{1,16})順",
    )
});
// (「期限の近い順」: the nearest day first; 「遠い順」 the furthest.)
static JA_DESCENDING: LazyLock<Regex> =
    LazyLock::new(|| re(r"降順|大きい|多い|高い|新しい|上位|トップ|遅い|長い|遠い"));
static JA_ASCENDING: LazyLock<Regex> = LazyLock::new(|| re(r"昇順|小さい|少ない|低い|古い|早い|短い|近い"));
static JA_DIFFERENCE: LazyLock<Regex> = LazyLock::new(|| {
    re(
        r"(?P<a>[^、。をがはでと\s「」・]{1,16})と(?P<b>[^、。をがはでと\s「」・]{1,16})の(?:差|差額|差分|差異)|(?P<c>[^、。をがはでと\s「」・]{1,16})から(?P<d>[^、。をがはでと\s「」・]{1,16})を(?:差し引|引)(?:いた|いて|き|く)?(?:値|もの)?|(?P<e>[^、。をがはでと\s「」・−－.\-]{1,16})(?:\s*[−－]\s*|\s+-\s+)(?P<f>[^、。をがはでと\s「」・.()（）]{1,16})",
    )
});
/// 「日数は」 right before what it is.
static JA_NAME_BEFORE: LazyLock<Regex> = LazyLock::new(|| re(r"(?P<name>[\p{Han}\p{Katakana}ー]{1,12})は\s*$"));
pub(super) static JA_DAYS_BETWEEN: LazyLock<Regex> = LazyLock::new(|| {
    re(
        r"(?P<a>[^、。をがはでと\s「」・]{1,16})から(?P<b>[^、。をがはでと\s「」・]{1,16})まで(?:の)?(?P<both>両端を含めた|両端を含む|両端含む|両端を含んだ)?(?P<noun>(?:経過)?日数)",
    )
});
static JA_PRODUCT: LazyLock<Regex> = LazyLock::new(|| {
    re(
        r"(?P<a>[^、。をがはでと\s「」・×＊*]{1,16})\s*[×＊*]\s*(?P<b>[^、。をがはでと\s「」・()（）]{1,16})|(?P<c>[^、。をがはでと\s「」・]{1,16})に(?P<d>[^、。をがはでと\s「」・]{1,16})を(?:掛け|かけ|乗じ)",
    )
});
static JA_RATIO: LazyLock<Regex> = LazyLock::new(|| {
    re(
        r"(?P<a>[^、。をがはでと\s「」・÷/／]{1,16})\s*[÷/／]\s*(?P<b>[^、。をがはでと\s「」・()（）]{1,16})|(?P<c>[^、。をがはでと\s「」・]{1,16})を(?P<d>[^、。をがはでと\s「」・]{1,16})で割",
    )
});
static JA_NAMED: LazyLock<Regex> = LazyLock::new(|| {
    re(
        r"「(?P<a>[^」]{1,20})」|(?P<b>[^、。をがはでと\s「」・]{1,16}?)(?:という|の)?(?:列|欄|項目)(?:を|に|として|と、|と)|(?P<c>[^、。をがはでと\s「」・]{1,16})として",
    )
});

/// A count as a person writes it: digits (full-width too), or an English or Japanese number word
/// up to what a top N names, and how often ("twice").
pub(crate) fn number(word: &str) -> Option<u64> {
    let folded: String = word
        .chars()
        .map(|c| if ('０'..='９').contains(&c) { char::from(b'0' + (c as u32 - '０' as u32) as u8) } else { c })
        .collect();
    if let Ok(n) = folded.parse() {
        return Some(n);
    }
    Some(match folded.as_str() {
        "one" | "一" => 1,
        "two" | "twice" | "二" => 2,
        "three" | "thrice" | "三" => 3,
        "four" | "四" => 4,
        "five" | "五" => 5,
        "six" | "六" => 6,
        "seven" | "七" => 7,
        "eight" | "八" => 8,
        "nine" | "九" => 9,
        "ten" | "十" => 10,
        "eleven" => 11,
        "twelve" | "十二" => 12,
        "fifteen" | "十五" => 15,
        "twenty" | "二十" => 20,
        "thirty" | "三十" => 30,
        "fifty" | "五十" => 50,
        "hundred" => 100,
        _ => return None,
    })
}

/// A column named in English: trimmed of articles and a trailing "column", singular.
pub(super) fn en_column(phrase: &str) -> Option<String> {
    let mut words: Vec<&str> =
        phrase.split_whitespace().filter(|w| !matches!(*w, "the" | "a" | "an" | "their" | "its" | "each")).collect();
    // "the month of each date in YYYY-MM form": the column's name ends before a preposition
    // (one that starts it is part of it: "On Hand").
    if let Some(cut) = words.iter().skip(1).position(|w| {
        matches!(
            *w,
            "in" | "as" | "to" | "into" | "for" | "from" | "with" | "and" | "on" | "showing" | "called" | "named"
                // "the month of order_date written like 2026-10".
                | "written" | "formatted" | "like"
                // "sort by annual_depreciation high to low".
                | "high" | "low" | "highest" | "lowest" | "largest" | "smallest" | "biggest" | "newest" | "oldest"
                | "descending" | "ascending"
        )
    }) {
        words.truncate(cut + 1);
    }
    while words.last().is_some_and(|w| matches!(*w, "column" | "columns" | "field" | "fields" | "value" | "values")) {
        words.pop();
    }
    let last = words.pop()?;
    words.push(last);
    let text = words.join(" ");
    let text = text.trim_matches(|c: char| !(c.is_alphanumeric() || c == '_'));
    if text.is_empty() || slots::is_row_noun(text) || text.chars().all(|c| c.is_ascii_digit()) {
        return None;
    }
    Some(slots::singular(text))
}

/// A column where the words can only name one (a key of a pair, "then item" of an order): a
/// word for rows ("item", "entry") is then the column of that name.
pub(super) fn en_key_column(phrase: &str) -> Option<String> {
    en_column(phrase).or_else(|| {
        let word = phrase.trim().trim_start_matches("the ").trim();
        (slots::is_row_noun(word) && !word.contains(' ')).then(|| slots::singular(word))
    })
}

/// A column named in Japanese: trimmed of a trailing 列/欄 and particles.
pub(super) fn ja_column(noun: &str) -> Option<String> {
    // 「在庫金額(在庫数×単価)」, 「差異=実績−予算」: the first operand after the bracket or the
    // equals sign (a second one is cut at its bracket by the caller).
    let noun = noun.rsplit(['(', '=', '＝']).next().unwrap_or(noun).trim_end_matches(')');
    let noun = ["の列", "列", "欄", "項目", "カラム"].iter().fold(noun.trim(), |n, s| n.strip_suffix(s).unwrap_or(n));
    // (「単価)の列」: the bracket closes before the column word.)
    let noun = noun.trim_end_matches(')');
    // (「a.csv から取引先コードの重複」: what is read from comes before から.)
    let noun = noun.rsplit("から").next().unwrap_or(noun);
    let noun = noun.trim_start_matches(['の', 'を', 'が', 'は', 'で', 'と', 'も']).trim();
    (!noun.is_empty() && !noun.chars().all(|c| c.is_ascii_digit())).then(|| noun.to_owned())
}

/// The shaping operations of one clause, each with its offset in the clause.
pub fn of_clause(clause: &str, language: super::Language) -> Vec<(usize, Step)> {
    match language {
        super::Language::En => english(clause),
        super::Language::Ja => japanese(clause),
    }
}

/// The shaping operations of one English clause, each with its offset in the clause.
fn english(clause: &str) -> Vec<(usize, Step)> {
    let lower = clause.to_ascii_lowercase();
    let mut steps = Vec::new();
    if let Some(step) = english_duplicates(clause, &lower) {
        steps.push(step);
    }
    if let Some(step) = english_sort(clause, &lower) {
        steps.push(step);
    }
    steps.extend(english_compute(clause, &lower));
    steps.extend(joined_texts(clause));
    steps.extend(super::rounding::english(clause));
    steps
}

/// 「備品（備品番号と品名を半角スペースでつなげる）」「氏名は 姓 と 名 を半角スペースでつないで」
/// 「姓と名を半角スペースでつないで氏名に」, "full name (first name and last name joined with a
/// space)": a column of two texts joined by a space.
static JOINED_TEXTS: LazyLock<Regex> = LazyLock::new(|| {
    re(
        r"(?P<name>[\p{Han}\p{Katakana}ーA-Za-z0-9_]{1,20})\s*(?:[（(]|は|を)\s*(?P<a>[\p{Han}\p{Katakana}ーA-Za-z0-9_]{1,20})\s*と\s*(?P<b>[\p{Han}\p{Katakana}ーA-Za-z0-9_]{1,20})\s*を(?:半角|全角)?(?:スペース|空白)(?:で|を挟んで|をはさんで)(?:つなげ|つない|繋げ|繋い|結合|連結)|(?P<a2>[\p{Han}\p{Katakana}ーA-Za-z0-9_]{1,20})\s*と\s*(?P<b2>[\p{Han}\p{Katakana}ーA-Za-z0-9_]{1,20})\s*を(?:半角|全角)?(?:スペース|空白)(?:で|を挟んで|をはさんで)(?:つなげ|つない|繋げ|繋い|結合|連結)(?:て|で)?\s*(?P<name2>[\p{Han}\p{Katakana}ーA-Za-z0-9_]{1,20})(?:に|と|として|という)|(?i)\b(?P<en>[a-z_]\w*(?: [a-z_]\w*){0,2})\s*\((?P<ea>[a-z_]\w*(?: [a-z_]\w*){0,2}) and (?P<eb>[a-z_]\w*(?: [a-z_]\w*){0,2}),? joined (?:with|by) a space\)",
    )
});

fn joined_texts(clause: &str) -> Vec<(usize, Step)> {
    JOINED_TEXTS
        .captures_iter(clause)
        .filter_map(|c| {
            let name = c.name("name").or(c.name("name2")).or(c.name("en"))?.as_str().to_owned();
            let of = vec![
                c.name("a").or(c.name("a2")).or(c.name("ea"))?.as_str().to_owned(),
                c.name("b").or(c.name("b2")).or(c.name("eb"))?.as_str().to_owned(),
            ];
            Some((c.get(0)?.start(), Step::Compute { name, operation: "join", of, value: None }))
        })
        .collect()
}

/// "list the unique vendors", "save the distinct item names": each value of that column once.
static EN_DISTINCT_LISTED: LazyLock<Regex> = LazyLock::new(|| {
    re(
        r"\b(?:list|show|give me|get|save|write|export|pull|extract|find|put|output)\s+(?:out\s+)?(?:the\s+|all\s+(?:the\s+)?|each\s+|every\s+)?(?:unique|distinct|different)\s+(?P<k>[a-z_]\w*(?: [a-z_]\w*)?)",
    )
});
static TOTAL_SAID: LazyLock<Regex> =
    LazyLock::new(|| re(r"\b(?:total|totals|sum|count|average|mean|how many|how much|number of)\b"));
/// "duplicate item names", "duplicated invoice numbers": the column whose values repeat, a name
/// that keys a thing (a payment that is duplicated is a row, no column).
static EN_DUPLICATED_KEY: LazyLock<Regex> = LazyLock::new(|| {
    re(
        r"\bduplicate[sd]?\s+(?P<k>(?:[a-z_]\w*\s+)?(?:names?|numbers?|nos?|ids?|codes?|emails?|e-mails?|email addresses|addresses|references?|refs?|skus?|titles?|keys?))\b",
    )
});

/// The column listed with each value once ("list the unique vendors in payments.csv"), when
/// the words name one and not the rows themselves.
pub fn distinct_listed(lower: &str) -> Option<(std::ops::Range<usize>, String)> {
    // ("the distinct vendors with their total amount": one row per vendor of totals, a grouping.)
    if TOTAL_SAID.is_match(lower) {
        return None;
    }
    let c = EN_DISTINCT_LISTED.captures(lower)?;
    let k = c.name("k")?;
    let said = k.as_str().trim_end_matches(" in").trim_end_matches(" from").trim_end_matches(" of");
    let key = en_column(said)?;
    let noun = slots::singular(said.rsplit(' ').next().unwrap_or(said));
    (!slots::is_row_noun(&noun) && !slots::is_row_noun(said)).then(|| (k.start()..k.start() + said.len(), key))
}

fn english_duplicates(clause: &str, lower: &str) -> Option<(usize, Step)> {
    if let Some((said, key)) = distinct_listed(lower) {
        return Some((said.start, Step::Duplicates { by: vec![key], remove: true, keep_last: false }));
    }
    if let Some(c) = EN_ROW_PER_KEY.captures(lower) {
        // ("keep a single row per case_id — whichever comes first in the file": the key, then which.)
        let key = ["key", "key2", "key3", "key4"].iter().find_map(|n| c.name(n)).map_or("", |m| m.as_str());
        let key = key.trim_end_matches(" in").to_owned();
        // "the first line of the sheet is a title": a place in the file, no key.
        let a_place = key.split(' ').next().is_some_and(|w| {
            ["sheet", "file", "page", "workbook", "spreadsheet", "export", "report", "document", "table"].contains(&w)
        });
        if let Some(key) = en_column(&key).filter(|_| !a_place) {
            let keep_last = ["which", "which2", "which3", "which4"]
                .iter()
                .find_map(|n| c.name(n))
                .is_some_and(|w| w.as_str() == "last");
            let at = c.get(0).expect("match").start();
            return Some((at, Step::Duplicates { by: vec![key], remove: true, keep_last }));
        }
    }
    let found =
        EN_DUPLICATE.find(lower).or_else(|| EN_DEDUPE_ALONE.find(lower)).or_else(|| EN_SAME_LIST.find(lower))?;
    if written_as_a_value(clause, found.range()) {
        return None;
    }
    // "card_transactions_june.csv (one row per transaction)": how the file is, no removal.
    let open = lower[..found.start()].rfind('(');
    let describes = open.is_some_and(|at| {
        let inside = &lower[at + 1..];
        let inside = &inside[..inside.find(')').unwrap_or(inside.len())];
        inside.trim_start().starts_with(found.as_str()) && inside.split_whitespace().count() <= 6
    });
    // "both are one row per shift with hours", "the export has one line per change": how the
    // files are (not "the result is one row per vendor", what is asked).
    let before: Vec<&str> = lower[..found.start()].split_whitespace().rev().take(5).collect();
    let said_of_the_files = found.as_str().starts_with("one ")
        && before.first().is_some_and(|w| {
            matches!(*w, "is" | "are" | "has" | "have" | "holds" | "hold" | "contains" | "contain" | "lists")
                || w.ends_with("'s")
                || w.ends_with("'re")
        })
        && !before.iter().any(|w| {
            ["output", "result", "report", "summary", "final", "answer", "sheet", "tab", "copy", "version", "new"]
                .iter()
                .any(|o| w.starts_with(o))
                || ["make", "want", "need", "give", "should", "must", "could", "create", "produce"].contains(w)
        });
    if describes || said_of_the_files {
        return None;
    }
    let remove = EN_REMOVE.is_match(lower) && !lower.contains("find") && !lower.contains("list")
        || EN_DEDUPE_ALONE.is_match(lower);
    // "Some invoices were entered twice." tells what happened; it asks for nothing. So does
    // "registrations.csv has some people more than once" (whatever "when they want …" before).
    let described = EN_HAS_SOME.find(&lower[..found.start()]).is_some_and(|m| found.start() - m.end() < 40)
        && !EN_ASKS.is_match(&lower[found.end()..]);
    // ("Which payments are for the same vendor and the same amount?": a question asks.)
    let asked = EN_ASKS.is_match(lower)
        || found.as_str().starts_with("the same")
            && ["which", "what"].iter().any(|w| lower.trim_start().starts_with(w));
    if !remove && (described || !asked) {
        return None;
    }
    let mut by: Vec<String> = match EN_SAME_PAIR.captures(lower) {
        Some(pair) => [&pair[1], &pair[2]].into_iter().filter_map(en_column).collect(),
        None if EN_SAME_LIST.is_match(lower) => en_same_list(lower),
        None => EN_SAME_AND
            .captures(lower)
            .map(|c| [&c[1], &c[2]].into_iter().filter_map(en_column).collect())
            .unwrap_or_else(|| EN_SAME.captures_iter(lower).filter_map(|c| en_column(&c[1])).collect()),
    };
    // ("each transaction only once": the rows, no key.)
    let each_once = EN_EACH_ONCE
        .captures(lower)
        .map(|c| c[1].trim().trim_end_matches(" only").trim_end_matches(" just").to_owned());
    if let Some(key) = each_once.and_then(|phrase| en_column(&phrase)) {
        by.push(key);
    }
    // "every row whose bill_no appears more than once": the column that repeats.
    // ("where the vendor and invoice_ref together show up on more than one row": both.)
    if let Some(keys) = EN_REPEATING_KEY.captures(lower) {
        let said = keys["k"].trim();
        let said = ["together", "both", "combined"].iter().fold(said, |k, w| k.strip_suffix(w).unwrap_or(k).trim());
        by.extend(slots::list_items(said).iter().filter_map(|k| en_column(k.trim().trim_start_matches("the "))));
    }
    // "remove duplicate item names": the names.
    if let Some(key) = EN_DUPLICATED_KEY.captures(lower).and_then(|c| en_column(&c["k"])).filter(|_| by.is_empty()) {
        by.push(key);
    }
    if by.is_empty() {
        // "duplicates by invoice number", "one row per customer". (The key of "one row per month"
        // is said after it: not "of the fees" before.)
        let from = if found.as_str().starts_with("one ") { found.start() } else { 0 };
        for m in EN_KEY.find_iter(&lower[from..]) {
            let after = from + m.end();
            if let Some(phrase) = english_phrase_after(clause, after).and_then(|p| en_column(&p.to_ascii_lowercase())) {
                if !by.contains(&phrase) {
                    by.push(phrase);
                }
            }
        }
    }
    // "exact copies of another row": the whole row is the key; "every one of those rows": the
    // rows found.
    // ("get rid of the duplicates": the word after "of" is the duplicates themselves.)
    let said_of_rows = |b: &String| {
        ["another ", "other ", "those ", "these "].iter().any(|w| b.starts_with(w))
            || b == "each other"
            || EN_DUPLICATE.find(b).is_some_and(|m| m.range() == (0..b.len()))
    };
    by.retain(|b| !said_of_rows(b));
    by.dedup();
    let keep_last = EN_KEEP_LAST.is_match(lower);
    Some((found.start(), Step::Duplicates { by, remove, keep_last }))
}

/// "bugs whose Resolution is Fixed (not Won't Fix, Duplicate or anything else)": the word is
/// written as a cell is, capitalised inside a sentence, in a list or after "is" or "not" — a
/// value of the data, not an operation.
fn written_as_a_value(clause: &str, range: std::ops::Range<usize>) -> bool {
    let before = clause[..range.start].trim_end();
    let capitalised = clause[range].starts_with(|c: char| c.is_ascii_uppercase());
    let previous = before.rsplit(' ').next().unwrap_or_default().to_ascii_lowercase();
    let listed = previous.ends_with(',') || ["is", "not", "or", "and", "as", "marked"].contains(&previous.as_str());
    let bracketed = before.rfind('(').is_some_and(|open| !before[open..].contains(')'));
    capitalised && !before.is_empty() && !before.ends_with(['.', ':', ';']) && (listed || bracketed)
}

fn english_sort(clause: &str, lower: &str) -> Option<(usize, Step)> {
    let top = EN_TOP.captures(lower);
    // "purchase order lines", "order number": an order that is a thing, not a sorting.
    let sort = EN_SORT.find_iter(lower).find(|m| {
        let before = lower[..m.start()].trim_end();
        // "(the runners don't hand out ids in time order)": how something is, said in an aside.
        let denied = super::PARENTHESES.find_iter(lower).any(|p| {
            p.range().contains(&m.start())
                && [" don't ", " doesn't ", " do not ", " does not ", " not ", " isn't ", " aren't "]
                    .iter()
                    .any(|w| p.as_str().contains(w))
        });
        // ("sort out the file the way Dana wanted": put right, no order.)
        let put_right = m.as_str() == "sort" && lower[m.end()..].starts_with(" out");
        let noun = denied
            || put_right
            || m.as_str() == "order"
                && (before.ends_with("purchase")
                    || [
                        "in that",
                        "in this",
                        "in the same",
                        "in the given",
                        "in the listed",
                        "are in the",
                        "is in the",
                        // ("same columns, same order as the file": the order kept, no sort.)
                        "same",
                        "original",
                        "existing",
                        "current",
                        "file's",
                        // ("the same row order as the statement": the order kept.)
                        "same row",
                        "same line",
                        "original row",
                        // ("with the count, any order is fine": no order asked.)
                        "any",
                    ]
                    .iter()
                    .any(|w| before.ends_with(w))
                    || ORDER_AS_A_THING.is_match(&lower[m.end()..]));
        !noun
    });
    let phrase = EN_ORDER_PHRASE.captures(lower);
    let at = match (&top, sort) {
        (Some(c), Some(s)) => c.get(0).map_or(s.start(), |m| m.start().min(s.start())),
        (Some(c), None) => c.get(0)?.start(),
        // ("most failures first and ties in Test ID order": the order said first.)
        (None, Some(s)) => phrase.as_ref().and_then(|p| p.get(0)).map_or(s.start(), |p| p.start().min(s.start())),
        // ("The categories should be listed alphabetically": an order said by its adverb.)
        (None, None) => match &phrase {
            Some(p) => p.get(0)?.start(),
            None => EN_IN_ORDER.captures(lower).filter(|c| c.name("what3").is_some())?.get(0)?.start(),
        },
    };
    let limit = top
        .as_ref()
        .and_then(|c| c.name("n").or(c.name("n2")).or(c.name("n3")).or(c.name("n4")).or(c.name("n5")))
        .and_then(|m| number(m.as_str()));
    let superlative = top
        .as_ref()
        .and_then(|c| c.name("sup").or(c.name("sup2")).or(c.name("sup3")).or(c.name("sup4")))
        .map(|m| m.as_str().to_owned());
    // ("which 2 subscriptions cost the least": the bottom of the order.)
    let bottom = top
        .as_ref()
        .is_some_and(|c| c.name("bottom").is_some() || c.name("sup4").is_some_and(|s| s.as_str() == "least"));
    // The column after "by"; else, after a superlative, the measured noun ("largest balances").
    // The column after "by" of "sort by", or of "the top 5 invoices by amount".
    let after_sort = sort.map_or_else(|| top.as_ref().and_then(|c| c.get(0)).map_or(0, |m| m.end()), |s| s.end());
    let by = lower[after_sort..]
        .find("by ")
        .filter(|i| sort.is_some() || lower[after_sort..after_sort + i].split_whitespace().count() <= 2)
        .and_then(|i| english_phrase_after(clause, after_sort + i + 3))
        .and_then(|p| en_column(without_order(&p.to_ascii_lowercase())))
        .or_else(|| {
            let c = EN_IN_ORDER.captures(lower)?;
            // ("months in order": the rows' noun, one of each, in its own order.)
            if let Some(noun) = c.name("what4") {
                let not_rows =
                    ["columns", "fields", "things", "rows", "lines", "records", "entries", "results", "items"];
                return (!not_rows.contains(&noun.as_str()))
                    .then(|| en_column(&slots::singular(noun.as_str())))
                    .flatten();
            }
            let what = c.name("what").or(c.name("what2")).or(c.name("what3"))?;
            match what.as_str() {
                // "departments in alphabetical order": the rows' noun is the column.
                "alphabetical" | "alphabetic" | "alphabetically" | "a to z" | "a-z" | "from a to z" => {
                    let noun = match c.name("noun") {
                        Some(noun) => noun.as_str(),
                        None => lower[..c.get(0)?.start()].split_whitespace().next_back()?,
                    };
                    en_column(&slots::singular(noun))
                }
                // ("months in calendar order": the rows' noun when it is one of time.)
                "chronological" | "calendar" | "time" => {
                    let noun = lower[..c.get(0)?.start()].split_whitespace().next_back().map(slots::singular);
                    match noun.as_deref() {
                        Some(unit @ ("month" | "week" | "day" | "year" | "quarter" | "date")) => Some(unit.to_owned()),
                        _ => Some("date".to_owned()),
                    }
                }
                "ascending" | "descending" | "reverse" | "numerical" | "numeric" => None,
                // ("columns in this order: …": the order of a list, no column.)
                "this" | "that" | "same" | "following" | "given" | "listed" | "any" | "which" | "what" => None,
                other => en_column(other),
            }
        })
        .or_else(|| {
            let m = top.as_ref()?.get(0)?;
            let phrase = english_phrase_after(clause, m.end())?.to_ascii_lowercase();
            // "the three largest approved expenses": the rows, said with a word of which ones,
            // name no column.
            match phrase.rsplit_once(' ') {
                Some((_, rows)) if slots::is_row_noun(rows) => None,
                _ => en_column(&phrase),
            }
        })
        // The phrase names the column only when it is the whole of the order: in "sort so the
        // biggest supplier is on top" the supplier is the row, not what is measured.
        .or_else(|| {
            // ("sorted highest margin first": the phrase right after the word of sorting is the order.)
            let right_after = |p: &regex::Captures| {
                sort.zip(p.get(0))
                    .is_some_and(|(s, p)| lower.get(s.end()..p.start()).is_some_and(|gap| gap.trim().is_empty()))
            };
            let phrase = phrase.as_ref().filter(|p| (sort.is_none() || right_after(p)) && top.is_none())?;
            let what = phrase.name("what").or(phrase.name("what2"))?.as_str();
            // "slowest suite first": the suite is what is slow, its time what is measured (below).
            let sup = phrase.name("sup").or(phrase.name("sup2")).map(|m| m.as_str());
            let of_time = ["time", "duration", "second", "minute", "hour", "day"].iter().any(|t| what.contains(t));
            if matches!(sup, Some("slowest" | "fastest" | "quickest")) && !of_time {
                return None;
            }
            // "most expensive first", "most expensive per kWh first": what is dear is the cost
            // (per that unit).
            // ("most expensive subscription at the top": the row that is dear, its cost.)
            match what.strip_prefix("expensive").or_else(|| what.strip_prefix("costly")) {
                Some(per) if per.trim_start().starts_with("per ") => Some(format!("cost{per}")),
                Some(_) => Some("cost".to_owned()),
                None => en_column(what),
            }
        })
        // "cheapest first": the cost.
        .or_else(|| {
            let sup = phrase.as_ref()?.name("sup2")?.as_str();
            (sup == "cheapest").then(|| "cost".to_owned())
        })
        // "failed tests, slowest first": what is slow is the time each took; "withdrawals, oldest
        // first": what is old is the date (the one column of dates, bound with the data).
        .or_else(|| {
            let phrase = phrase.as_ref()?;
            let sup = phrase.name("sup2").or(phrase.name("sup"))?;
            match sup.as_str() {
                "slowest" | "fastest" | "quickest" => Some("duration".to_owned()),
                "oldest" | "newest" | "latest" | "earliest" => Some("date".to_owned()),
                _ => None,
            }
        });
    // "most failures first", "fewest bugs first": how many there are of them, the count ("most
    // hours first" is a measure's total).
    // ("busiest first", "quietest first": how many rows a group has.)
    let busy =
        phrase.as_ref().and_then(|p| p.name("sup2")).is_some_and(|s| matches!(s.as_str(), "busiest" | "quietest"));
    let many = phrase.as_ref().and_then(|p| Some((p.name("sup2")?.as_str(), p.name("what2")?.as_str()))).filter(
        |(sup, what)| {
            let noun = what.rsplit(' ').next().unwrap_or(what);
            matches!(*sup, "most" | "fewest")
                && noun.ends_with('s')
                && !noun.ends_with("ss")
                && !noun.ends_with("us")
                && !super::TIME_UNITS.contains(&noun)
        },
    );
    let by = if many.is_some() || busy {
        Some(Aggregation { op: "count", field: None, name: None, when: Vec::new() }.result_name(super::Language::En))
    } else {
        by
    };
    // "sort by amount, largest first, then by date (oldest first)": the first key's order is
    // said before the next key.
    let said = &lower[..super::sort_keys::first_key_end(lower, super::Language::En)];
    // ("from highest to lowest" says both words; the first is where it starts.)
    let said = &EN_ORDER_RANGE.replace_all(said, "$from");
    let descending = match (EN_DESCENDING.is_match(said), EN_ASCENDING.is_match(said)) {
        (true, false) => true,
        (false, true) => false,
        _ => limit.is_some() && !bottom && superlative.as_deref().is_none_or(|s| !EN_ASCENDING.is_match(s)),
    };
    // "the worst pass_rate at the top": worst is the lowest of what is good to have, the
    // highest of what is not (a fail rate, a delay); best the other way.
    let judged =
        phrase.as_ref().and_then(|p| p.name("sup2")).map(|s| s.as_str()).filter(|s| matches!(*s, "worst" | "best"));
    let descending = match judged {
        Some(said) => {
            let measure = phrase.as_ref().and_then(|p| p.name("what2")).map_or("", |m| m.as_str());
            let bad = ["fail", "error", "defect", "bug", "delay", "overdue", "late", "cost", "variance", "over"]
                .iter()
                .any(|w| measure.contains(w));
            (said == "worst") == bad
        }
        None => descending,
    };
    // ("most first", "fewest bugs first": the most at the top.)
    let most =
        phrase.as_ref().and_then(|p| p.name("sup2")).map(|s| s.as_str()).filter(|s| matches!(*s, "most" | "fewest"));
    let descending = most.map_or(descending, |sup| sup == "most");
    Some((at, Step::Sort { by, descending, limit, then: Vec::new() }))
}

/// A sort key's words without the order said after the column ("suite a-z", "amount desc").
pub(super) fn without_order(phrase: &str) -> &str {
    match phrase.rsplit_once(' ') {
        Some((name, last)) if EN_ASCENDING.is_match(last) || EN_DESCENDING.is_match(last) => name,
        _ => phrase,
    }
}

/// "add a Variance column (Actual minus Budget)": the new column's name before its formula.
static EN_ADD_NAMED: LazyLock<Regex> = LazyLock::new(|| {
    re(
        r"\b(?:(?:add|adds|adding|insert|create|make)\s+(?:a |an |the )?|(?:and|plus|with|also)\s+(?:a |an ))(?:new )?(?P<name>[a-z_][\w]*(?: [a-z_][\w]*){0,3}?)\s+column\b",
    )
});

/// "10% of Net", "8 percent of the amount": a share of a column.
static EN_PERCENT_OF: LazyLock<Regex> = LazyLock::new(|| {
    re(
        r"\b(?P<p>\d+(?:\.\d+)?)\s*(?:%|percent|per cent) of (?:the |each |every )?(?P<a>[a-z_][\w]*(?: [a-z_][\w]*)?)\b",
    )
});
/// "Net plus Tax", "the sum of net and tax" (not "vendor + count", a list).
static EN_SUM: LazyLock<Regex> = LazyLock::new(|| {
    re(
        r"\b(?P<a>[a-z_][\w]*(?: [a-z_][\w]*)?) plus (?:the )?(?P<b>[a-z_][\w]*(?: [a-z_][\w]*)?)\b|\bsum of (?:the )?(?P<c>[a-z_][\w]*(?: [a-z_][\w]*)?) and (?:the )?(?P<d>[a-z_][\w]*(?: [a-z_][\w]*)?)\b",
    )
});

/// "total = subtotal + sales_tax", "sales_tax = subtotal x 8.25%", "rate = passed / run * 100":
/// a column named, then its formula.
static EN_ASSIGNED: LazyLock<Regex> = LazyLock::new(|| {
    re(
        r"(?P<name>[a-z_][\w]*(?:/[a-z_][\w]*)?(?: [a-z_][\w]*){0,3}?(?: ?%)?)\s*=\s*(?:the )?(?P<a>[a-z_][\w]*(?: [a-z_][\w]*)?)(?:\s*(?P<op>[-+*/×÷−])\s*|\s+(?P<word>x|plus|minus|times|divided by|multiplied by|less)\s+)(?:the )?(?:(?P<n>\d+(?:\.\d+)?)\s*(?P<pct>%|percent\b)?|(?P<b>[a-z_][\w]*(?: [a-z_][\w]*)?))(?:\s*[*×]\s*|\s+(?:x|times)\s+)?(?P<k>\d+(?:\.\d+)?)?(?:\s*(?:/|÷|divided by)\s*(?P<div>\d+(?:\.\d+)?))?",
    )
});
/// "annual_depreciation = (cost - salvage_value) / useful_life_years": a bracket of two columns,
/// then an operation with a column or a number.
static EN_BRACKETED: LazyLock<Regex> = LazyLock::new(|| {
    re(
        r"(?P<name>[a-z_][\w]*(?: [a-z_][\w]*){0,3}?(?: ?%)?)\s*=\s*\(\s*(?P<a>[a-z_][\w]*)\s*(?P<op1>[-+*/×÷−])\s*(?P<b>[a-z_][\w]*)\s*\)\s*(?P<op2>[-+*/×÷−])\s*(?:(?P<n>\d+(?:\.\d+)?)\b|(?P<c>[a-z_][\w]*))",
    )
});
/// 「年間償却額＝（取得価額−残存価額）÷耐用年数」 (brackets and signs as NFKC leaves them).
static JA_BRACKETED: LazyLock<Regex> = LazyLock::new(|| {
    re(
        r"(?P<name>[^\s、。をがはでと「」・=()]{1,16})\s*=\s*\(\s*(?P<a>[^\s()、。=+*/×÷−-]{1,20}?)\s*(?P<op1>[-+*/×÷−])\s*(?P<b>[^\s()、。=+*/×÷−-]{1,20}?)\s*\)\s*(?P<op2>[-+*/×÷−])\s*(?:(?P<n>\d+(?:\.\d+)?)|(?P<c>[^\s()、。=でをとにの]{1,20}))",
    )
});

/// "add Gross Margin (Revenue minus COGS) and Margin % (Gross Margin divided by Revenue, times 100,
/// rounded to one decimal)": a column named, then its formula in brackets, is the formula said
/// with `=` ("Margin % = Gross Margin divided by Revenue times 100, rounded to one decimal").
pub fn formulas_in_brackets(text: &str) -> String {
    let mut out = String::new();
    let mut copied = 0;
    // Where the last formula rewritten ends: "and" or a comma goes on from one ("add A (…) and
    // B (…)"); in a list of columns ("customer name, balance and over_by (balance minus credit
    // limit)") the bracket says how a column listed is made, and the list stays whole.
    let mut chained: Option<usize> = None;
    for c in EN_FORMULA_IN_BRACKETS.captures_iter(text) {
        let whole = c.get(0).expect("match");
        // (", add Gross Margin (": the words that lead to a name are no part of it.)
        let mut name = c["name"].trim();
        let mut leads = vec![c["lead"].trim().to_ascii_lowercase()];
        while let Some((first, rest)) = name.split_once(' ') {
            if !EN_LEAD_WORDS.contains(&first.to_ascii_lowercase().as_str()) {
                break;
            }
            leads.push(first.to_ascii_lowercase());
            name = rest.trim_start();
        }
        let lead_said = &text[whole.start()..whole.start() + c["lead"].len() + (c["name"].trim().len() - name.len())];
        // Said as a column added ("add a rate column (…)"), or the next of such columns.
        let added = leads.iter().any(|w| EN_ADDING_WORDS.contains(&w.as_str()));
        let goes_on = chained.is_some_and(|end| !text[end..whole.start()].contains(['.', '!', '?', '\n']));
        if !added && !goes_on {
            continue;
        }
        // ("margin_pct as (revenue - cost) / revenue": the bracket is part of a formula.)
        let after = text[whole.end()..].trim_start();
        let goes_on_as_formula = after.starts_with(['/', '*', '×', '÷', '+', '-', '−'])
            || ["x ", "times ", "divided ", "minus ", "plus "].iter().any(|w| after.starts_with(w));
        if goes_on_as_formula || name.ends_with(" as") {
            continue;
        }
        let body = EN_COMMA_BEFORE_A_FACTOR.replace_all(&c["body"], " $op ");
        let (formula, rest) = body.split_once([',', ';']).unwrap_or((&body, ""));
        if !EN_ARITHMETIC.is_match(formula) || name.eq_ignore_ascii_case("column") {
            continue;
        }
        // ("1 decimal": how it is rounded, said short.)
        let rest = EN_DECIMALS_SHORT.replace_all(rest, " rounded to $n decimal");
        let rest = if rest.trim().is_empty() { String::new() } else { format!(",{rest}") };
        out.push_str(&text[copied..whole.start()]);
        out.push_str(&format!("{lead_said}{name} = {}{rest}", formula.trim()));
        copied = whole.end();
        chained = Some(whole.end());
    }
    out.push_str(&text[copied..]);
    out
}

/// "the cost at $32.40 an hour", "a fee at 1.50 per item": an amount at a price per unit.
static EN_AT_A_PRICE_PER_UNIT: LazyLock<Regex> = LazyLock::new(|| {
    re(
        r"(?i)\b(?:(?:the|a|an|their|its)\s+)?(?P<name>cost|costs|charge|charges|fee|fees|price|amount|pay|bill|value|reimbursement)\s+at\s+[$€£¥]?\s?(?P<n>\d[\d,]*(?:\.\d+)?)\s*(?:per|an?|each|/)\s*(?P<unit>hour|hr|mile|km|night|day|item|unit|piece|kg|page|word|head|person|ticket|minute|seat|visit|session)s?\b",
    )
});

/// `text` with an amount said at a price per unit written as its formula: "cost = hours times
/// 32.40", which the formulas read (the unit said is the column counted).
pub fn prices_per_unit_as_formulas(text: &str) -> String {
    EN_AT_A_PRICE_PER_UNIT
        .replace_all(text, |c: &regex::Captures| {
            let unit = &c["unit"];
            let units = if matches!(unit.to_ascii_lowercase().as_str(), "km" | "kg" | "hr") {
                unit.to_owned()
            } else {
                format!("{unit}s")
            };
            format!("{} = {units} times {}", &c["name"], c["n"].replace(',', ""))
        })
        .into_owned()
}

/// "work out margin % as (revenue - cost) / revenue x 100", "calculate the margin as revenue
/// minus cost": a column named after a verb of working out, then "as" and its arithmetic, is the
/// formula said with `=`. (The words between, "for each product in product_pnl.csv", say
/// which rows: they stay, before it.)
pub fn formulas_said_as(text: &str) -> String {
    EN_FORMULA_SAID_AS
        .replace_all(text, |c: &regex::Captures| {
            let formula = c["formula"].trim();
            let plain = formula.replace(['(', ')'], " ");
            if !EN_ARITHMETIC.is_match(&plain) {
                return c[0].to_owned();
            }
            let rows = c.name("rows").map_or(String::new(), |r| format!("{} ", r.as_str().trim()));
            format!("{} {rows}{} = {formula}", c["verb"].trim_end(), c["name"].trim())
        })
        .into_owned()
}

/// A verb of working out, a name of one to three words (and a `%`), maybe the rows it is for,
/// "as", and what follows up to a comma, a full stop or the end.
static EN_FORMULA_SAID_AS: LazyLock<Regex> = LazyLock::new(|| {
    re(
        r"(?i)(?P<verb>\b(?:work out|calculate|compute|figure out|add)\s+)(?:the\s+|a\s+)?(?P<name>[a-z_][\w]*(?: [a-z_][\w]*){0,2}?(?:\s?%)?)\s+(?P<rows>(?:for (?:each|every) [a-z_]+\s+)?(?:in [\w.-]+\.(?:csv|xlsx|xls)\s+)?)as\s+(?P<formula>[^,;.]+(?:\.\d[^,;.]*)*)",
    )
});

/// Words that lead to a column's name ("add a", "and the").
const EN_LEAD_WORDS: &[&str] = &[
    "add",
    "and",
    "plus",
    "with",
    "also",
    "a",
    "an",
    "the",
    "new",
    "then",
    "include",
    "including",
    "show",
    "compute",
    "calculate",
];

/// Of [`EN_LEAD_WORDS`], those that say a column is added.
const EN_ADDING_WORDS: &[&str] =
    &["add", "plus", "with", "also", "new", "include", "including", "show", "compute", "calculate"];

/// A name of one to three words (and a `%`), then a bracket; the words before the name that are
/// no part of it ("add a", "and") kept apart.
static EN_FORMULA_IN_BRACKETS: LazyLock<Regex> = LazyLock::new(|| {
    re(
        r"(?i)(?P<lead>(?:^|\b(?:add|and|plus|with|also|a|an|the|new|then|include|including|show|compute|calculate)\s+|[,:;]\s*))(?P<name>[a-z_][\w]*(?: [a-z_][\w]*){0,2}?(?:\s?%)?)(?: column)?\s*\((?P<body>[^()]{3,120})\)",
    )
});
/// Arithmetic only: numbers and names of up to three words, each pair joined by a sign ("Revenue
/// minus COGS", "total cost / nights"; not "sheet Invoices - note there's a title line", nor
/// "as YYYY-MM", where a dash or a slash with no spaces is no sign).
static EN_ARITHMETIC: LazyLock<Regex> = LazyLock::new(|| {
    let operand = r"(?:\d+(?:\.\d+)?%?|[a-z_][\w]*(?: [a-z_][\w]*){0,2})";
    re(&format!(
        r"(?i)^\s*{operand}(?:\s*[+*×÷]\s*{operand}|\s+(?:[-/−]|x|minus|plus|times|divided by|multiplied by|less)\s+{operand})+\s*$"
    ))
});
/// "divided by Revenue, times 100": a factor said after a comma is still of the formula.
static EN_COMMA_BEFORE_A_FACTOR: LazyLock<Regex> =
    LazyLock::new(|| re(r"(?i)\s*,\s*(?P<op>times|x|×|multiplied by)\s+"));
/// ", 1 decimal", ", 2 dp": the rounding said short.
static EN_DECIMALS_SHORT: LazyLock<Regex> = LazyLock::new(|| re(r"(?i)^\s*(?P<n>\d)\s*(?:decimals?|dp)\b"));

/// "margin_pct = (revenue - cost) / revenue x 100": a column named, then its arithmetic, up to a
/// comma, a verb or the end.
static EN_FORMULA: LazyLock<Regex> = LazyLock::new(|| {
    re(
        r"(?P<name>[a-z_][\w]*(?: [a-z_][\w]*){0,3}?(?: ?%)?)\s*=\s*(?P<expr>(?:[^,;=.]|\.\d)+?)\s*(?:[,;]|\.(?:\s|$)|$|\b(?:and|then|rounded|round|sorted|sort|save|write|put)\b)",
    )
});
/// 「消費税額=税込金額×税率÷(100+税率)で」: the same in Japanese, up to で, a 、 or the end.
static JA_FORMULA: LazyLock<Regex> = LazyLock::new(|| {
    re(
        r"(?P<name>[^\s、。をがはでと「」・=]{1,16})\s*=\s*(?P<expr>[^\s、。をがはと「」・=]{3,80}?)(?:で|とし|です|、|。|$)",
    )
});
/// Signs written as words: "revenue minus cost", "hours times rate".
static EN_SIGN_WORDS: LazyLock<Regex> =
    LazyLock::new(|| re(r"\s+(?P<w>minus|plus|times|multiplied by|divided by|less)\s+"));

/// Formulas of more than one sign, each as one column ([`Step::Formula`]); a formula of one
/// sign is read as the operation it is (`difference`, `ratio` …) elsewhere.
fn written_formulas(clause: &str, language: super::Language) -> Vec<(usize, Step)> {
    let lower = clause.to_ascii_lowercase();
    let pattern = match language {
        super::Language::En => &*EN_FORMULA,
        super::Language::Ja => &*JA_FORMULA,
    };
    pattern
        .captures_iter(&lower)
        .filter_map(|c| {
            let name = match language {
                super::Language::En => assigned_name(clause, c.name("name")?.range())?,
                super::Language::Ja => ja_column(&clause[c.name("name")?.range()])?,
            };
            let at = c.get(0)?.start();
            let expr = &clause[c.name("expr")?.range()];
            // (「グロス=OUT+IN」: a sum of one sign of two columns named, which no other Japanese
            // reading takes; not 「実施数＝合格＋不合格の件数」, a sum of counts.)
            let one_sum = language == super::Language::Ja
                && expr.chars().filter(|c| "+＋".contains(*c)).count() == 1
                && !expr.contains(['-', '−', '－', '*', '×', '/', '÷'])
                && expr.split(['+', '＋']).all(|operand| !operand.contains('の') && !operand.trim().ends_with('数'));
            Some((at, formula_step(name, expr, language, if one_sum { 1 } else { 2 })?))
        })
        .collect()
}

/// A column `name` computed by the formula `said`, when it has `signs` signs or more and each
/// operand is a column's name as the text writes one.
fn formula_step(name: String, said: &str, language: super::Language, signs: usize) -> Option<Step> {
    // ("the issue date (as YYYY-MM-DD)", "month (YYYY-MM)": the form of a date, no arithmetic.)
    // ("the rows (dated 2026-11-03)": a day, no subtraction.)
    static DATE_FORM: LazyLock<Regex> =
        LazyLock::new(|| re(r"(?i)\b(?:yyyy|yy)\s*[-/]\s*mm(?:\s*[-/]\s*dd)?\b|\b\d{4}-\d{1,2}-\d{1,2}\b"));
    if DATE_FORM.is_match(said) {
        return None;
    }
    // ("(start % - end %) / hours": a percentage column said by its sign.)
    static PERCENT_OPERAND: LazyLock<Regex> = LazyLock::new(|| re(r"(?i)(?P<word>[a-z_])\s*%"));
    let said = with_signs(said);
    let said = PERCENT_OPERAND.replace_all(&said, "${word} pct");
    let formula = Formula::parse_written(&said).ok().filter(|f| f.signs() >= signs)?;
    // (An operand is a column even when its name is a word for rows: "invoice minus quote".)
    let column = |name: &str| match language {
        super::Language::En => en_key_column(name.trim_start_matches("the ")),
        super::Language::Ja => ja_column(name),
    };
    if formula.columns().iter().any(|c| column(c).is_none()) {
        return None;
    }
    let formula = formula.renamed(&column);
    let of = formula.columns().into_iter().map(str::to_owned).collect();
    Some(Step::Formula { name, formula: formula.to_string(), of })
}

/// `said` with its sign words ("minus", "divided by") written as signs.
fn with_signs(said: &str) -> std::borrow::Cow<'_, str> {
    EN_SIGN_WORDS.replace_all(said, |w: &regex::Captures| {
        let sign = match &w["w"] {
            "minus" | "less" => " - ",
            "plus" => " + ",
            "divided by" => " / ",
            _ => " * ",
        };
        sign.to_owned()
    })
}

/// "… ot hours and ot pay (ot hours x hourly rate x 1.5, rounded …)", "…, total cost (parts +
/// labor)": a formula in brackets right after the name of a column listed (after a comma, "and"
/// or "the", or opening a clause of the list), with the span of the bracket's formula.
fn bracketed_formulas(clause: &str) -> Vec<(std::ops::Range<usize>, Step)> {
    let lower = clause.to_ascii_lowercase();
    EN_NAMED_THEN_FORMULA
        .captures_iter(&lower)
        .filter_map(|c| {
            let name = c.name("name")?;
            let expr = c.name("expr")?;
            let named = clause[name.range()].to_owned();
            let named = ["the ", "a ", "an "]
                .iter()
                .find_map(|article| named.strip_prefix(article))
                .map_or(named.clone(), str::to_owned);
            let said = &clause[expr.range()];
            // ("the cancellations (Status = No-show)": a bracket that names its own column says no
            // formula of the name before it.)
            if said.contains('=') {
                return None;
            }
            // ("total cost (parts + labor)": one sign in a list's brackets is one operation, which
            // knows dates and clock times.)
            let step = formula_step(named.clone(), said, super::Language::En, 2).or_else(|| {
                let Step::Formula { of, .. } = formula_step(named.clone(), said, super::Language::En, 1)? else {
                    return None;
                };
                if of.len() != 2 {
                    return None;
                }
                let signed = with_signs(said);
                let sign = signed.chars().find(|c| "+-−/÷*×".contains(*c));
                let operation = sign.and_then(|c| arithmetic(c.encode_utf8(&mut [0; 4]))).unwrap_or("product");
                Some(Step::Compute { name: named, operation, of, value: None })
            })?;
            // "over budget (actual - budget - 100)" names no column: a name is no operand of its own formula.
            match &step {
                Step::Formula { name, of, .. } if of.iter().any(|o| o.eq_ignore_ascii_case(name)) => None,
                _ => Some((expr.range(), step)),
            }
        })
        .collect()
}
static EN_NAMED_THEN_FORMULA: LazyLock<Regex> = LazyLock::new(|| {
    re(
        r"(?:^|,|\band|\bthe|\bplus|\bwant|\bneed|\bwith|:)\s*(?P<name>[a-z][a-z_]*(?: [a-z][a-z_]*)?)\s*\((?P<expr>[^(),;]{3,80}?)\s*[,;)]",
    )
});

/// The steps of `found`, and each formula whose column they compute with fewer signs than it has
/// (they read only part of it, "(revenue - cost) / revenue" of "… x 100") in place of theirs; a
/// formula they read whole ("variance / budget * 100" as a percent) stays theirs.
fn with_formulas(found: Vec<(usize, Step)>, formulas: Vec<(usize, Step)>) -> Vec<(usize, Step)> {
    let covered = |wanted: &str| -> usize {
        found
            .iter()
            .map(|(_, s)| match s {
                Step::Compute { name, operation: "percent", .. } if name == wanted => 2,
                Step::Compute { name, of, value, .. } if name == wanted && !of.is_empty() => {
                    of.len() - 1 + usize::from(value.is_some())
                }
                _ => 0,
            })
            .sum()
    };
    let replaced: Vec<(usize, Step)> = formulas
        .into_iter()
        .filter(|(_, s)| match s {
            Step::Formula { name, formula, .. } => Formula::parse(formula).is_ok_and(|f| f.signs() != covered(name)),
            _ => false,
        })
        .collect();
    let names: Vec<String> = replaced
        .iter()
        .filter_map(|(_, s)| match s {
            Step::Formula { name, .. } => Some(name.clone()),
            _ => None,
        })
        .collect();
    let mut steps: Vec<(usize, Step)> = found
        .into_iter()
        .filter(|(_, s)| !matches!(s, Step::Compute { name, .. } if names.contains(name)))
        .chain(replaced)
        .collect();
    steps.sort_by_key(|(at, _)| *at);
    steps
}

/// The operation of an arithmetic sign.
fn arithmetic(sign: &str) -> Option<&'static str> {
    Some(match sign {
        "-" | "−" => "difference",
        "+" => "sum",
        "*" | "×" => "product",
        "/" | "÷" => "ratio",
        _ => return None,
    })
}

/// A formula with a bracket as two steps into its column: the bracket, then the rest with it
/// ("(cost - salvage_value) / useful_life_years").
fn bracketed(clause: &str, language: super::Language) -> Vec<(usize, Step)> {
    // (A name with underscores is a column's as written: `useful_life_years`.)
    let (pattern, column): (&Regex, fn(&str) -> Option<String>) = match language {
        super::Language::En => (&EN_BRACKETED, |t| if t.contains('_') { Some(t.to_owned()) } else { en_column(t) }),
        super::Language::Ja => (&JA_BRACKETED, ja_column),
    };
    let lower = clause.to_ascii_lowercase();
    let Some(c) = pattern.captures(&lower) else { return Vec::new() };
    // (`lower` keeps the offsets of `clause`; names are taken as written.)
    let said = |group: &str| c.name(group).map_or("", |m| &clause[m.range()]);
    let name = match language {
        super::Language::En => c.name("name").and_then(|n| assigned_name(clause, n.range())),
        super::Language::Ja => ja_column(said("name")),
    };
    let (Some(name), Some(a), Some(b), Some(first), Some(then)) =
        (name, column(said("a")), column(said("b")), arithmetic(&c["op1"]), arithmetic(&c["op2"]))
    else {
        return Vec::new();
    };
    let with = c.name("c").and_then(|_| column(said("c")));
    let number = c.name("n").and_then(|n| n.as_str().parse::<f64>().ok());
    let second = match (with, number) {
        (Some(other), None) => {
            Step::Compute { name: name.clone(), operation: then, of: vec![name.clone(), other], value: None }
        }
        (None, Some(n)) => {
            Step::Compute { name: name.clone(), operation: then, of: vec![name.clone()], value: Some(n) }
        }
        _ => return Vec::new(),
    };
    let at = c.get(0).map_or(0, |m| m.start());
    vec![(at, Step::Compute { name, operation: first, of: vec![a, b], value: None }), (at + 1, second)]
}

/// "age in days since it was reported", "the days since that order as of 2026-12-01", "how many
/// days it has been waiting since the request date".
static EN_DAYS_SINCE: LazyLock<Regex> = LazyLock::new(|| {
    re(
        r"\b(?P<name>(?:[a-z_]+ ){0,5}?(?:days?|age)(?: [a-z_']+){0,4}?) since (?:the |that |its |their |it was |they were |it's been |each )?(?P<col>[a-z_]+(?: [a-z_]+)?)(?: (?:as of|as at|up to|until) (?P<date>[^,;()]{6,30}))?\s*(?:[,;.()]|$| and | with | sorted| ordered| longest| oldest| newest| biggest| most)",
    )
});

/// The days since a date column, as said: "amount and how many days it has been outstanding
/// since the invoice date, as of …".
pub(super) struct DaysSince {
    /// Where the words that say it start (a name's words before it included).
    pub at: usize,
    /// The words a list of columns names as one column: from the name's own words to the column,
    /// or to the day said after it.
    pub said: std::ops::Range<usize>,
    /// The new column's name ("age in days"; "days" for a name said at length).
    pub name: String,
    /// The date column counted from, as the text calls it.
    pub from: String,
    /// The day counted to when said right after (`YYYY-MM-DD`); else the day the text states.
    pub until: Option<String>,
}

/// The days since a date column said in `lower` (ASCII lower case, so offsets hold for the text).
pub(super) fn days_since(lower: &str) -> Option<DaysSince> {
    if !lower.contains(" since ") {
        return None;
    }
    let c = EN_DAYS_SINCE.captures(lower)?;
    let said_name = c.name("name")?;
    let own = own_words(said_name.as_str()).trim_start_matches("the ");
    let words = own.trim();
    // ("how many days it has been waiting": a name of a few words, else the days.)
    let name = match words.split_whitespace().count() {
        1..=3 if !words.starts_with("how ") => words.to_owned(),
        _ => "days".to_owned(),
    };
    let col = c["col"].trim();
    // "since it was reported": the date of the verb's column (`reported`), as the data may call it.
    let from = en_column(col).unwrap_or_else(|| col.to_owned());
    // ("as of today": the day the text states, read elsewhere.)
    let until = c.name("date").and_then(|date| Some(super::dates::dates(date.as_str()).first()?.value.clone()));
    let said = said_name.end() - own.len()..c.name("date").or(c.name("col"))?.end();
    Some(DaysSince { at: c.get(0)?.start(), said, name, from, until })
}

/// The words of a name after any "and" or "or" ("amount and how many days" → "how many days").
fn own_words(name: &str) -> &str {
    [" and ", " or "]
        .iter()
        .filter_map(|w| name.rfind(w).map(|at| at + w.len()))
        .max()
        .map_or(name, |at| &name[at..])
        .trim_start_matches("and ")
}

/// Where `clause` says the days since a date column to a day said right after ("as of …").
pub(super) fn days_since_span(clause: &str) -> Option<std::ops::Range<usize>> {
    let days = days_since(&clause.to_ascii_lowercase())?;
    days.until.map(|_| days.said)
}

/// "the days from invoice_date to paid_date", "number of days between A and B", "the days from
/// the date they applied to the date they accepted the offer" (a date named by what happened on
/// it: `va`, `vb`).
static EN_DAYS_BETWEEN: LazyLock<Regex> = LazyLock::new(|| {
    re(
        r"\b(?:(?:the )?number of )?(?:calendar )?days (?:from|between) (?:the )?(?:(?:date|day) (?:when |that |on which )?(?:they|he|she|it|we|you) (?P<va>[a-z_]+(?: (?:the |an? |their |its )?[a-z_]+)?)|(?P<a>[a-z_][\w]*(?: [a-z_][\w]*)?)) (?:to|and|until|till) (?:the )?(?:(?:date|day) (?:when |that |on which )?(?:they|he|she|it|we|you) (?P<vb>[a-z_]+(?: (?:the |an? |their |its )?[a-z_]+)?)|(?P<b>[a-z_][\w]*(?: [a-z_][\w]*)?))\b",
    )
});

/// "days from due_date to 2026-11-30", "the number of days between invoice_date and November 30,
/// 2026": from a column of dates to a day written out.
static EN_DAYS_TO_A_DAY: LazyLock<Regex> = LazyLock::new(|| {
    re(
        r"\b(?:(?:the )?number of )?(?:calendar )?days (?:from|between|since) (?:the |each |its |their )?(?P<a>[a-z_][\w]*(?: [a-z_][\w]*)?) (?:to|and|until|till|through|up to) (?P<day>\d{4}[-/]\d{1,2}[-/]\d{1,2}|[a-z]{3,9}\.? \d{1,2}(?:st|nd|rd|th)?,? \d{4}|\d{1,2}(?:st|nd|rd|th)? [a-z]{3,9}\.? \d{4})\b",
    )
});

/// 「不足数＝発注点−在庫数」「金額=数量×単価」: a column named, then its formula.
static JA_ASSIGNED: LazyLock<Regex> = LazyLock::new(|| {
    re(
        r"[^\s、。をがはでと「」・=＝]{1,16}\s*[=＝]\s*[^\s、。をがはでと「」・]{0,30}?[−－×÷＋+/／*＊][^\s、。をがはでと「」・]{1,30}",
    )
});

/// 「差異数量は「実地数量−帳簿数量」」「金額は数量×単価で計算」「差引支払額」は支払額から源泉徴収
/// 税額を引いた額: a column defined by a formula with は (or を) instead of ＝ (unquoted, not with
/// ／, which lists names: 「列名は モジュール／件数 で」).
static JA_DEFINED: LazyLock<Regex> = LazyLock::new(|| {
    re(
        r"「?(?P<name>[^\s、。をがはでと「」・=]{1,16})」?(?:は|を)\s*(?:「(?P<quoted>[^「」=]{1,40}?[−×÷+/*][^「」=]{1,40})」|(?P<bare>[^\s、。をがはでと「」・=][^、。をがはでと「」・=]{0,29}?[−×÷+*][^、。をがはでと「」・=]{1,30}?)(?:で|です|とし|とする|、|。)|(?P<a>[^\s、。をがはでと「」・=]{1,16})から(?P<b>[^\s、。をがはでと「」・=]{1,16})を(?:差し)?引いた(?:額|金額|値|数)?)",
    )
});

static JA_TWO_NAMED_FORMULAS: LazyLock<Regex> = LazyLock::new(|| {
    re(
        r"(?P<n1>[\p{Han}\p{Katakana}ーA-Za-z0-9_]{1,12})[（(](?P<e1>[^（）()、,]{1,40}?[−×÷＋+/*－][^（）()、,]{1,40}?)(?P<r1>[、,][^（）()]{1,30})?[）)]と(?P<n2>[\p{Han}\p{Katakana}ーA-Za-z0-9_]{1,12})[（(](?P<e2>[^（）()、,]{1,40}?[−×÷＋+/*－][^（）()、,]{1,40}?)(?P<r2>[、,][^（）()]{1,30})?[）)]",
    )
});

/// 「在庫回転率=売上原価÷平均在庫(平均在庫は(期首在庫金額+期末在庫金額)÷2)」: a column the formula
/// uses, defined in an aside after it.
static JA_DEFINED_IN_ASIDE: LazyLock<Regex> = LazyLock::new(|| {
    re(
        r"(?P<formula>[\p{Han}\p{Katakana}ーA-Za-z0-9_]{1,12}[=＝][^（）()、。]{1,40}?)[（(](?P<name>[\p{Han}\p{Katakana}ーA-Za-z0-9_]{1,12})は(?P<def>(?:[^（）()、。]|[（(][^（）()、。]{1,40}[）)]){1,60}?)[）)]",
    )
});

/// 「平均決裁日数（決裁日 − 申請日 の日数の平均、小数第1位まで）」: an average said with the formula of
/// what is averaged in brackets is the average of a column that formula makes
/// (「決裁日数の平均(小数第1位まで)(決裁日数=決裁日 − 申請日)」).
pub(super) fn averages_of_a_formula(text: &str) -> String {
    static AVERAGE_OF_A_FORMULA: LazyLock<Regex> = LazyLock::new(|| {
        re(
            r"平均(?P<name>[\p{Han}\p{Katakana}ー]{1,12})[（(](?P<formula>[^（）()、。]{1,40}?[−\-ー－+＋×÷*/][^（）()、。]{1,40}?)\s*の(?:日数の|値の|差の)?平均(?P<rest>[^（）()]{0,40})[）)]",
        )
    });
    AVERAGE_OF_A_FORMULA
        .replace_all(text, |c: &regex::Captures| {
            let name = &c["name"];
            // (As NFKC leaves the text: ASCII brackets and equals sign. What else the aside says,
            // 「小数第1位まで」, is said of the average.)
            let rest = c["rest"].trim_start_matches(['、', ',']).trim();
            let rest = if rest.is_empty() { String::new() } else { format!("({rest})") };
            format!("{name}の平均{rest}({name}={})", c["formula"].trim())
        })
        .into_owned()
}

static JA_MADE_THEN_NAMED: LazyLock<Regex> = LazyLock::new(|| {
    re(
        r"(?P<a>[^\s、。をがはでとの.「」・（）()]{1,16})(?:と|から)(?P<b>[^\s、。をがはでとの.「」・（）()]{1,16})(?:[（(][^）)]{1,12}[）)])?を(?:(?:足し|加え|合計し)た(?:もの|値|数|合計)(?:が|を)(?P<sum>[^\s、。をがはでと「」・（）()]{1,16}?)|(?:引い|差し引い)た(?:もの|値|数|差)(?:が|を)(?P<less>[^\s、。をがはでと「」・（）()]{1,16}?))(?P<end>です|とします|とする|になります|、|。|$)",
    )
});

/// Japanese text with each column defined by は and a formula written as the formula that
/// names it (「差異数量は「実地数量−帳簿数量」」 → 「差異数量=実地数量−帳簿数量」), so it is read as
/// one; a column defined in an aside after the formula that uses it is defined first.
pub(super) fn definitions_as_formulas(text: &str) -> String {
    // 「OUTとINを足したものがグロス、グロスからHC（ハンデ）を引いたものがネット」: the column named
    // after what makes it.
    let text = &*JA_MADE_THEN_NAMED.replace_all(text, |c: &regex::Captures| {
        let (name, sign) = match (c.name("sum"), c.name("less")) {
            (Some(name), _) => (name.as_str(), "+"),
            (_, Some(name)) => (name.as_str(), "−"),
            _ => return c[0].to_owned(),
        };
        format!("{name}={}{sign}{}{}", &c["a"], &c["b"], &c["end"])
    });
    let text = &*JA_DEFINED_IN_ASIDE
        .replace_all(text, |c: &regex::Captures| format!("{}={}、{}", &c["name"], c["def"].trim(), &c["formula"]));
    // 「差異（実績額−予算額）と消化率（実績額÷予算額×100、小数第1位まで）を計算」: two columns, each
    // named before its formula in brackets, are two formulas (an aside after one stays its own).
    let text = &*JA_TWO_NAMED_FORMULAS.replace_all(text, |c: &regex::Captures| {
        let aside =
            |g: &str| c.name(g).map_or(String::new(), |r| format!("、{}", r.as_str().trim_start_matches(['、', ','])));
        format!("{}={}{}、{}={}{}", &c["n1"], &c["e1"], aside("r1"), &c["n2"], &c["e2"], aside("r2"))
    });
    JA_DEFINED
        .replace_all(text, |c: &regex::Captures| {
            let whole = c.get(0).expect("match");
            // 「差引支払額」は支払額から源泉徴収税額を引いた額: a difference.
            if let (Some(a), Some(b)) = (c.name("a"), c.name("b")) {
                return format!("{}={}−{}", &c["name"], a.as_str(), b.as_str());
            }
            let formula = c.name("quoted").or(c.name("bare")).expect("a formula");
            // (「…を請求額−入金額Read ァ.csvで」: a formula names no file; the words stay as said.)
            if !slots::file_spans(formula.as_str()).is_empty() {
                return whole.as_str().to_owned();
            }
            // (「で計算」 after a bare formula stays; a quoted one ends at its bracket. Spaces set
            // around the signs, 「税抜金額 ×（1 + 税率 ÷ 100）」, are no part of it.)
            let tail = c.name("bare").map_or("", |b| &text[b.end()..whole.end()]);
            let formula: String = formula.as_str().split_whitespace().collect();
            format!("{}={formula}{tail}", &c["name"])
        })
        .into_owned()
}

/// `text` with the formulas that name a column ("total = subtotal + sales_tax") blanked, at the
/// same offsets: they compute a column, they neither total nor keep rows.
pub fn without_formulas(text: &str, language: super::Language) -> String {
    let pattern = match language {
        super::Language::En => &*EN_ASSIGNED,
        super::Language::Ja => &*JA_ASSIGNED,
    };
    let bracket = match language {
        super::Language::En => &*EN_BRACKETED,
        super::Language::Ja => &*JA_BRACKETED,
    };
    let lower = text.to_ascii_lowercase();
    let mut blanked = text.to_owned();
    let assigned = pattern.captures_iter(&lower).filter(|c| !a_word_with_a_hyphen(text, c)).filter_map(|c| c.get(0));
    for m in bracket.find_iter(&lower).chain(assigned) {
        blanked.replace_range(m.range(), &" ".repeat(m.len()));
    }
    blanked
}

/// Whether the minus of a formula of [`EN_ASSIGNED`] is the hyphen of one word ("Status =
/// No-show", "= non-billable"), not a sign ("revenue-cost" is one).
fn a_word_with_a_hyphen(text: &str, c: &regex::Captures) -> bool {
    let (Some(sign), Some(a)) = (c.name("op"), c.name("a")) else { return false };
    let (before, after) = (&text[a.start()..sign.start()], &text[sign.end()..]);
    let capitalised =
        before.starts_with(|ch: char| ch.is_ascii_uppercase()) && before[1..].chars().all(|ch| ch.is_ascii_lowercase());
    sign.as_str() == "-"
        && before.ends_with(|ch: char| ch.is_ascii_alphabetic())
        && after.starts_with(|ch: char| ch.is_ascii_lowercase())
        && (capitalised
            || ["no", "non", "re", "e", "co", "pre", "self"].contains(&before.to_ascii_lowercase().as_str()))
}

/// The name a formula assigns: the words before its sign after the last verb ("and add
/// sales_tax =" names sales_tax).
fn assigned_name(clause: &str, said: std::ops::Range<usize>) -> Option<String> {
    let mut name_words: Vec<&str> = clause[said].split_whitespace().collect();
    // ("add a monthly_cost column = seats x price": the word for a column ends no name.)
    while name_words.len() > 1
        && name_words.last().is_some_and(|w| ["column", "field"].contains(&w.to_ascii_lowercase().as_str()))
    {
        name_words.pop();
    }
    let filler = |w: &&str| {
        matches!(
            w.to_ascii_lowercase().as_str(),
            "add"
                | "plus"
                | "and"
                | "then"
                | "also"
                | "with"
                | "a"
                | "an"
                | "the"
                | "new"
                | "compute"
                | "calculate"
                | "column"
                | "where"
                | "so"
                | "please"
                | "out"
                | "called"
                | "named"
                | "as"
                | "each"
                | "every"
        )
    };
    let from = name_words.iter().rposition(filler).map_or(0, |at| at + 1);
    let name = name_words[from..].join(" ");
    (!name.is_empty()).then_some(name)
}

/// One formula of [`EN_ASSIGNED`] as a computed column, or `None` when it is none the block
/// computes ("a / 5").
fn english_assigned(clause: &str, c: &regex::Captures) -> Option<(usize, Step)> {
    let whole = c.get(0)?;
    let name = assigned_name(clause, c.name("name")?.range())?;
    // (An operand is a column even when its name is a word for rows: "invoice minus quote".)
    let a = en_key_column(&c["a"])?;
    let op = c.name("op").or(c.name("word")).map_or("", |m| m.as_str());
    let number = c.name("n").and_then(|n| n.as_str().parse::<f64>().ok());
    let number = number.map(|n| if c.name("pct").is_some() { n / 100.0 } else { n });
    let times = c.name("k").and_then(|k| k.as_str().parse::<f64>().ok());
    // "net_amount x vat_rate / 100": a product divided by a number is times its inverse.
    let divided = c.name("div").and_then(|d| d.as_str().parse::<f64>().ok()).filter(|d| *d != 0.0);
    let times = match (times, divided) {
        (times, Some(d)) => Some(times.unwrap_or(1.0) / d),
        (times, None) => times,
    };
    let b = c.name("b").and_then(|b| en_key_column(b.as_str()));
    let (operation, of, value) = match (op, b, number) {
        ("-" | "−" | "minus" | "less", Some(b), None) => ("difference", vec![a, b], None),
        ("+" | "plus", Some(b), None) => ("sum", vec![a, b], None),
        ("+" | "plus", None, Some(n)) => ("sum", vec![a], Some(n)),
        // "overtime_hours = total minus 40": the number taken away, added negated.
        ("-" | "−" | "minus" | "less", None, Some(n)) if times.is_none() => ("sum", vec![a], Some(-n)),
        ("*" | "×" | "x" | "times" | "multiplied by", Some(b), None) => ("product", vec![a, b], times),
        ("*" | "×" | "x" | "times" | "multiplied by", None, Some(n)) => {
            ("product", vec![a], Some(n * times.unwrap_or(1.0)))
        }
        ("/" | "÷" | "divided by", Some(b), None) if times.is_none() => ("ratio", vec![a, b], None),
        ("/" | "÷" | "divided by", Some(b), None) if times == Some(100.0) => ("percent", vec![a, b], None),
        _ => return None,
    };
    let at = c.name("a").map_or(whole.start(), |m| m.start());
    Some((at, Step::Compute { name, operation, of, value }))
}

/// The computed columns of an English clause: a share ("a Tax column that is 10% of Net"), and
/// a formula said after it ("a Gross column, Net plus Tax").
fn english_compute(clause: &str, lower: &str) -> Vec<(usize, Step)> {
    let mut formulas = written_formulas(clause, super::Language::En);
    let in_brackets = bracketed_formulas(clause);
    let mut found = english_operations(clause, lower);
    // An operation read inside a bracket's formula is part of it.
    found.retain(|(at, _)| !in_brackets.iter().any(|(span, _)| span.contains(at)));
    let (operations, in_brackets): (Vec<_>, Vec<_>) =
        in_brackets.into_iter().partition(|(_, step)| matches!(step, Step::Compute { .. }));
    found.extend(operations.into_iter().map(|(span, step)| (span.start, step)));
    formulas.extend(in_brackets.into_iter().map(|(span, step)| (span.start, step)));
    with_formulas(found, formulas)
}

/// The computed columns of an English clause, each one operation.
fn english_operations(clause: &str, lower: &str) -> Vec<(usize, Step)> {
    // "variance = actual - budget, and variance_pct = variance / budget * 100": each formula
    // names its column.
    let bracketed = bracketed(clause, super::Language::En);
    if !bracketed.is_empty() {
        return bracketed;
    }
    let assigned: Vec<(usize, Step)> = EN_ASSIGNED
        .captures_iter(lower)
        .filter(|c| !a_word_with_a_hyphen(clause, c))
        .filter_map(|c| english_assigned(clause, &c))
        .collect();
    if !assigned.is_empty() {
        return assigned;
    }
    let mut found = Vec::new();
    let mut from = 0;
    if let Some(c) = EN_PERCENT_OF.captures(lower) {
        let m = c.get(0).expect("match");
        if let (Ok(percent), Some(column)) = (c["p"].parse::<f64>(), en_column(&c["a"])) {
            // ("fee = 1.5% of the invoice amount": the name before the sign.)
            let assigned = || {
                let before = lower[..m.start()].trim_end().strip_suffix('=')?.trim_end();
                let start =
                    before.rfind(|c: char| !(c.is_ascii_alphanumeric() || c == ' ' || c == '_')).map_or(0, |i| i + 1);
                let name = clause[start..before.len()].trim();
                // ("Add fee = …": the verb is no part of the name.)
                let verb = ["add ", "compute ", "calculate ", "work out ", "show ", "with "]
                    .iter()
                    .find(|v| name.to_ascii_lowercase().starts_with(*v))
                    .map_or(0, |v| v.len());
                let name = name[verb..].trim();
                (!name.is_empty() && name.split(' ').count() <= 3).then(|| name.to_owned())
            };
            let name = column_name(clause, lower, m.end()).or_else(assigned).unwrap_or_else(|| "share".to_owned());
            let of = vec![column];
            found.push((m.start(), Step::Compute { name, operation: "product", of, value: Some(percent / 100.0) }));
            from = m.end();
        }
    }
    found.extend(english_formula(&clause[from..], &lower[from..]).map(|(at, step)| (from + at, step)));
    found
}

/// The name said for a column computed up to `after`: "… as gap", "… called Tax", or "add a Tax
/// column …" before it; as written (`lower` has the offsets of `clause`).
fn column_name(clause: &str, lower: &str, after: usize) -> Option<String> {
    EN_NAMED
        .captures(&lower[after..])
        .and_then(|c| c.name("name"))
        .map(|m| clause[after + m.start()..after + m.end()].trim().to_owned())
        .or_else(|| {
            let before = EN_ADD_NAMED.captures_iter(&lower[..after]).last()?;
            before.name("name").map(|m| clause[m.range()].trim().to_owned())
        })
        .filter(|n| !slots::is_row_noun(&n.to_ascii_lowercase()))
        // "(as YYYY-MM)" says a form, not a name.
        .filter(|n| !n.chars().all(|c| matches!(c.to_ascii_lowercase(), 'y' | 'm' | 'd' | '-' | '/')))
}

/// "Add a Days to Pay column (Paid Date minus Invoice Date)": the name said right before the
/// formula's bracket or colon, which words after the formula may not override.
fn named_before(clause: &str, lower: &str, start: usize) -> Option<String> {
    let before = lower[..start].trim_end();
    let before = before.strip_suffix('(').or_else(|| before.strip_suffix(':'))?.trim_end();
    let added = EN_ADD_NAMED.captures_iter(before).last().and_then(|c| {
        let whole = c.get(0)?;
        (whole.end() == before.len()).then(|| c.name("name").map(|m| clause[m.range()].trim().to_owned())).flatten()
    });
    // "… and how many to order (par level minus qty)": a column named by what it answers.
    static QUESTION_NAMED: LazyLock<Regex> = LazyLock::new(|| re(r"\bhow (?:many|much|long)(?: [a-z]+){1,3}$"));
    let question = || QUESTION_NAMED.find(before).map(|m| clause[m.range()].to_owned());
    // "… balance and over_by (balance minus credit limit)", "… and the variance (counted minus
    // system)": a name written as one, or a noun said with "the", right before.
    // "… organizer, minutes booked (end - start)": the last item of a list, named before it.
    let listed = || {
        let (_, item) = before.rsplit_once(", ")?;
        let item = item.rsplit_once(" and ").map_or(item, |(_, last)| last).trim_start_matches("and ").trim();
        let words = item.split(' ').count();
        let plain = (1..=3).contains(&words) && item.chars().all(|c| c.is_ascii_alphabetic() || c == ' ' || c == '_');
        plain.then(|| clause[before.len() - item.len()..before.len()].to_owned())
    };
    added
        .or_else(question)
        .or_else(|| {
            let word = before.rsplit([' ', ',']).next()?;
            let at = before.len() - word.len();
            let one_name = word.contains('_') && word.chars().all(|c| c.is_ascii_alphanumeric() || c == '_');
            let noun = before[..at].trim_end().ends_with(" the") && word.chars().all(|c| c.is_ascii_alphabetic());
            (one_name || noun).then(|| clause[at..before.len()].to_owned())
        })
        .or_else(listed)
}

/// A column computed by a formula: a difference, ratio, product or sum of two columns, or the
/// month or year of a date.
fn english_formula(clause: &str, lower: &str) -> Option<(usize, Step)> {
    let name = |after: usize| column_name(clause, lower, after);
    // "age in days since it was reported", "the days since that order as of 2026-12-01": the
    // days from the date of a column to the day the text states (or says right after).
    if let Some(DaysSince { at, name, from, until, .. }) = days_since(lower) {
        let step = match until {
            Some(until) => Step::DaysUntil { name, from, until },
            None => Step::Compute { name, operation: "difference", of: vec!["today".to_owned(), from], value: None },
        };
        return Some((at, step));
    }
    // "days from due_date to 2026-11-30": the days from the date of a column to a day said.
    if let Some(c) = EN_DAYS_TO_A_DAY.captures(lower) {
        let until = super::dates::dates(&c["day"]).first().map(|d| d.value.clone());
        if let (Some(from), Some(until)) = (en_column(&c["a"]), until) {
            let m = c.get(0)?;
            let name = name(m.end()).unwrap_or_else(|| "days".to_owned());
            return Some((m.start(), Step::DaysUntil { name, from, until }));
        }
    }
    // "count the days from invoice_date to paid_date": the later date minus the earlier.
    if let Some(c) = EN_DAYS_BETWEEN.captures(lower) {
        let operand =
            |column: &str, verb: &str| c.name(column).or_else(|| c.name(verb)).and_then(|w| en_column(w.as_str()));
        let of = vec![operand("b", "vb")?, operand("a", "va")?];
        let m = c.get(0)?;
        let name = name(m.end()).unwrap_or_else(|| "days".to_owned());
        return Some((m.start(), Step::Compute { name, operation: "difference", of, value: None }));
    }
    // "(sheet Bugs - the first row is just a title)": a dash before a sentence, no minus.
    // ("with no acknowledgement at all - custodian ID, name …": words that end a phrase, no
    // column, before a dash that opens a list.)
    let after_a_phrase = |c: &regex::Captures| {
        c.name("c").is_some_and(|a| {
            let words: Vec<&str> = a.as_str().split(' ').collect();
            [
                "at", "in", "on", "of", "for", "to", "by", "with", "from", "hi", "hello", "hey", "thanks", "fyi", "ok",
                "is", "are", "was", "were",
            ]
            .contains(&words[0])
                || ["all", "too", "now", "please", "anyway", "though", "either", "yet", "again", "etc"]
                    .contains(words.last().unwrap_or(&""))
        })
    };
    let dash = |c: &regex::Captures| {
        let minus = c.name("c").map_or("", |a| lower[a.end()..].trim_start());
        minus.starts_with('-')
            && (c.name("article").is_some()
                || after_a_phrase(c)
                || c.name("d").is_some_and(|d| {
                    matches!(
                        d.as_str().split(' ').next(),
                        Some(
                            "it" | "i"
                                | "leave"
                                | "keep"
                                | "drop"
                                | "skip"
                                | "ignore"
                                | "exclude"
                                | "could"
                                | "can"
                                | "would"
                                | "we"
                                | "they"
                                | "this"
                                | "that"
                                | "these"
                                | "those"
                                | "note"
                                | "just"
                                | "please"
                                | "a"
                                | "an"
                                // "a log of bank detail changes - several rows per vendor"
                                | "several"
                                | "some"
                                | "many"
                                | "each"
                                | "every"
                                | "all"
                                | "no"
                                | "not"
                                | "only"
                                | "so"
                                | "and"
                                | "but"
                                | "which"
                                | "there"
                                | "our"
                                | "my"
                                | "your"
                                | "their"
                                | "if"
                                | "when"
                        )
                    )
                }))
    };
    // "On Hand less than Reorder Point" compares; it subtracts nothing.
    let less_than = |c: &regex::Captures| c.name("d").is_some_and(|d| d.as_str().starts_with("than "));
    if let Some(c) = EN_DIFFERENCE.captures_iter(lower).find(|c| !dash(c) && !less_than(c)) {
        let (a, b) = match (c.name("a"), c.name("c"), c.name("e")) {
            (Some(a), _, _) => (a.as_str(), c.name("b")?.as_str()),
            (_, Some(x), _) => (x.as_str(), c.name("d")?.as_str()),
            (_, _, Some(y)) => (c.name("f")?.as_str(), y.as_str()),
            _ => return None,
        };
        let of = vec![en_column(a)?, en_column(b)?];
        let m = c.get(0)?;
        // The name follows the last operand ("… and paid as gap"): the match may have taken its "as".
        let last = ["b", "d", "f"].iter().filter_map(|g| c.name(g)).map(|g| g.end()).max().unwrap_or(m.end());
        let name =
            named_before(clause, lower, m.start()).or_else(|| name(last)).unwrap_or_else(|| "difference".to_owned());
        return Some((m.start(), Step::Compute { name, operation: "difference", of, value: None }));
    }
    for (pattern, op, default) in
        [(&*EN_RATIO, "ratio", "ratio"), (&*EN_PRODUCT, "product", "total"), (&*EN_SUM, "sum", "total")]
    {
        if let Some(c) = pattern.captures(lower) {
            let a = c.name("a").or(c.name("c"))?.as_str();
            let b = c.name("b").or(c.name("d"))?.as_str();
            // "all the original columns plus days_to_pay": columns listed, not added up.
            if ["columns", "fields"].iter().any(|w| a.ends_with(w)) {
                continue;
            }
            let of = vec![en_column(a)?, en_column(b)?];
            let m = c.get(0)?;
            let last = ["b", "d"].iter().filter_map(|g| c.name(g)).map(|g| g.end()).max().unwrap_or(m.end());
            let name =
                named_before(clause, lower, m.start()).or_else(|| name(last)).unwrap_or_else(|| default.to_owned());
            return Some((m.start(), Step::Compute { name, operation: op, of, value: None }));
        }
    }
    // "subtotal * 1.0725", "net times 1.1": a column times a number.
    if let Some(c) = EN_TIMES_NUMBER.captures(lower) {
        if let (Some(a), Ok(factor)) = (en_column(&c["a"]), c["n"].parse::<f64>()) {
            let m = c.get(0)?;
            let name = name(m.end()).unwrap_or_else(|| "total".to_owned());
            return Some((m.start(), Step::Compute { name, operation: "product", of: vec![a], value: Some(factor) }));
        }
    }
    let c = EN_MONTH_OF.captures(lower)?;
    let part = c.name("part")?.as_str();
    let of = vec![en_column(&c["a"])?];
    let m = c.get(0)?;
    let op = if part == "year" { "year" } else { "month" };
    let name = name(m.end()).unwrap_or_else(|| op.to_owned());
    Some((m.start(), Step::Compute { name, operation: op, of, value: None }))
}

/// The columns the whole text says must be the same ("same employee, same date", 「同じ取引先で
/// 同じ金額」), in its order.
static EN_TOP_BY_TOTAL: LazyLock<Regex> = LazyLock::new(|| {
    re(
        r"\b(?:top|biggest|largest)\s+(?P<n>\d{1,4}|two|three|four|five|six|seven|eight|nine|ten|twenty)\s+(?P<entity>[a-z][\w]*(?: [a-z][\w]*)?)\s+by\s+(?:their\s+|the\s+)?(?:total|sum of|combined|overall)\s+(?:the\s+)?(?P<measure>[a-z][\w]*(?: [a-z][\w]*)?)|\b(?:which|what|the|top)\s+(?P<n2>\d{1,4}|two|three|four|five|six|seven|eight|nine|ten|twenty)\s+(?P<entity2>[a-z][\w]*(?: [a-z][\w]*)?)\s+(?:(?:we|you|they)\s+)?(?:sold|spent|earned|billed|made|generated|brought in|paid)\s+(?:the\s+)?most\b|\b(?:which|what|the|top)\s+(?P<n3>\d{1,4}|two|three|four|five|six|seven|eight|nine|ten|twenty)\s+(?P<entity3>[a-z][\w]*(?: [a-z][\w]*)?)\s+(?:have|has|had|with)\s+the\s+(?:highest|largest|biggest)\s+(?:total\s+)?(?P<measure3>[a-z][\w]*(?: [a-z][\w]*)?)|\b(?:which|what)\s+(?P<entity4>[a-z][\w]*)\s+(?:has|had|have)\s+the\s+(?:highest|largest|biggest)\s+total(?:\s+(?P<measure4>[a-z][\w]*))?|\b(?:which|what)\s+(?P<entity5>[a-z][\w]*)\s+(?:has|had|have|holds|held|stores|keeps|carries|sold|spent|earned|billed|logged|worked|booked|ordered|bought|received|shipped)\s+the\s+most\s+(?P<measure5>[a-z][\w]*)|\b(?:which|what)\s+(?P<entity6>[a-z][\w]*)\s+did\s+(?:we|you|they)\s+pay\s+the\s+most\b",
    )
});
static EN_TOP_BY_COUNT: LazyLock<Regex> = LazyLock::new(|| {
    re(
        r"\b(?:which|what|the|top)\s+(?P<n>\d{1,4}|two|three|four|five|six|seven|eight|nine|ten|twenty)\s+(?P<entity>[a-z][\w]*(?: [a-z][\w]*)?)\s+(?:have|has|had|with|got|get|saw)\s+the\s+most\s+[a-z]",
    )
});
static JA_TOP_BY_TOTAL: LazyLock<Regex> = LazyLock::new(|| {
    re(
        r"(?P<entity>[^\s、。をがはのでと「」]{1,10}?)(?:別|ごと)の(?P<measure>[^\s、。をがはのでと「」]{1,10}?)合計(?:の|が)?(?:大きい|多い)?(?:順に)?上位(?P<n>\d{1,4})",
    )
});

/// 「出荷数量が多い商品トップ3」「売上の大きい得意先上位5社」: the things with the most of an amount
/// the rows add up to.
static JA_TOP_BY_AMOUNT: LazyLock<Regex> = LazyLock::new(|| {
    re(
        r"(?P<measure>[^\s、。をがはのでと「」]{1,10}?)(?:が|の)(?:多い|大きい|高い)(?:順に)?(?P<entity>[^\s、。をがはのでと「」]{1,10}?)(?:トップ|上位|ベスト)\s*(?P<n>\d{1,4})",
    )
});
/// Rows themselves, never a thing the rows add up for (「金額が大きい取引トップ3」).
/// Ends of the names of amounts that rows add up to (not 単価, 率).
const AMOUNTS_ADDED: &[&str] = &["数量", "個数", "件数", "金額", "額", "売上", "時間", "本数", "台数", "数"];

/// "top 3 customers by total sales", 「得意先別の売上合計の上位3社」: the entity's totals, the
/// largest first, the first `n` kept. A row noun ("top 5 invoices by amount") totals nothing.
pub fn top_by_total(clause: &str, language: super::Language) -> Option<Vec<(usize, Step)>> {
    let lower = clause.to_ascii_lowercase();
    // "Which 3 components have the most bugs still open?": the rows counted per key.
    if let Some(c) = EN_TOP_BY_COUNT.captures(&lower).filter(|_| language == super::Language::En) {
        let entity = slots::singular(c["entity"].trim());
        if !slots::is_row_noun(&entity) {
            let (at, n) = (c.get(0)?.start(), number(&c["n"])?);
            let count = Aggregation { op: "count", field: None, name: None, when: Vec::new() };
            let by = Some(count.result_name(language));
            return Some(vec![
                (at, Step::Aggregate { by: vec![entity], aggregations: vec![count] }),
                (at + 1, Step::Sort { by, descending: true, limit: Some(n), then: Vec::new() }),
            ]);
        }
    }
    let (c, entity, measure, total) = match language {
        super::Language::En => {
            let c = EN_TOP_BY_TOTAL.captures(&lower)?;
            let entity = ["entity", "entity2", "entity3", "entity4", "entity5", "entity6"]
                .iter()
                .find_map(|n| c.name(n))?
                .as_str();
            // ("the 2 vendors we paid the most", "which three works in register.csv": the subject,
            // or the word before the file, is no part of the thing.)
            let entity = [" we", " you", " they", " in", " from", " of"]
                .iter()
                .find_map(|w| entity.strip_suffix(w))
                .unwrap_or(entity);
            let entity = slots::singular(entity.trim());
            if slots::is_row_noun(&entity) {
                return None;
            }
            // "which 3 regions sold the most": the amounts sold.
            // ("the highest total sales": what is measured, a noun the rows may be called too.)
            // ("which category has the highest total in expenses.csv": the one with the highest total
            // of the amounts.)
            let measure4 =
                c.name("measure4").filter(|m| !["in", "of", "from", "for", "on", "at"].contains(&m.as_str()));
            // ("which warehouse holds the most units": the units each holds, added up.)
            let measure = match (c.name("measure"), c.name("measure3").or(measure4).or(c.name("measure5"))) {
                (Some(m), _) => en_column(m.as_str())?,
                (None, Some(m)) => en_column(m.as_str()).unwrap_or_else(|| m.as_str().to_owned()),
                (None, None) => "amount".to_owned(),
            };
            (c, entity, measure, "total")
        }
        super::Language::Ja => {
            let c = JA_TOP_BY_TOTAL.captures(clause).or_else(|| {
                JA_TOP_BY_AMOUNT.captures(clause).filter(|c| {
                    // (「金額が大きい取引トップ3」: the rows themselves; 「単価が高い商品」: no amount to add up.)
                    // (「金額の大きい順に上位5件」: an order, no thing named.)
                    !super::words::JA_ROW_NOUNS.contains(&&c["entity"])
                        && !c["entity"].contains('順')
                        && AMOUNTS_ADDED.iter().any(|a| c["measure"].ends_with(a))
                })
            })?;
            let (entity, measure) = (ja_column(&c["entity"])?, ja_column(&c["measure"])?);
            (c, entity, measure, "合計")
        }
    };
    let at = c.get(0)?.start();
    // ("which category has the highest total": the one.)
    let n = match c.name("n").or(c.name("n2")).or(c.name("n3")) {
        Some(n) => number(n.as_str())?,
        None if ["entity4", "entity5", "entity6"].iter().any(|n| c.name(n).is_some()) => 1,
        None => return None,
    };
    let aggregation = Aggregation { op: "sum", field: Some(measure), name: Some(total.to_owned()), when: Vec::new() };
    Some(vec![
        (at, Step::Aggregate { by: vec![entity], aggregations: vec![aggregation] }),
        (at + 1, Step::Sort { by: Some(total.to_owned()), descending: true, limit: Some(n), then: Vec::new() }),
    ])
}

static EN_BROUGHT: LazyLock<Regex> = LazyLock::new(|| {
    let from_a_file = super::words::FROM_A_FILE_IN_BRACKETS;
    re(&format!(
        r"\b(?:add|adds|bring|brings|copy|pull|look up|fill in|attach|carry)(?:\s+(?:in|over|across|along))?\s+(?:the\s+|their\s+|its\s+)?(?P<cols>[\w ,&'-]+?)\s+(?:from|out of)\b|\blook up\s+(?:the\s+|each\s+|every\s+|their\s+|its\s+)?(?:[a-z]+'s\s+)?(?P<cols2>[\w ,&-]+?)\s+in\s+(?:the\s+)?[\w-]+\.(?:csv|xlsx|xls|tsv)\b|(?:^|[,:;]\s*|\band\s+|\bwith\s+|\bshow\s+)(?:the\s+)?(?P<cols3>[a-z][\w ]{{0,30}}?)\s*{from_a_file}|(?:^|\(|[,;]\s*)(?:the\s+)?(?P<cols4>[a-z][\w ]{{0,30}}?)\s+(?:is|are|comes?|lives?)\s+(?:only\s+)?(?:in|from)\s+(?:the\s+)?[\w-]+\.(?:csv|xlsx|xls|tsv)\b|\b(?:with|along with|including|plus)\s+(?:their\s+|its\s+|(?:the\s+|each\s+)?[a-z_]+['’]s\s+|the\s+)(?P<cols5>[\w ,&-]+?)\s+(?:(?:looked up|taken|pulled|brought|copied)\s+)?(?:from|in)\s+(?:the\s+)?[\w-]+\.(?:csv|xlsx|xls|tsv)\b|\b(?:add|adds|adding|append)\s+(?:the\s+)?(?P<cols6>[\w ,&'-]+?)\s+as\s+(?:two|three|four|\d|new|extra|additional)(?:\s+(?:new|extra|additional))?\s+columns\b",
    ))
});
static JA_BROUGHT: LazyLock<Regex> = LazyLock::new(|| {
    re(
        r"\.(?:csv|xlsx|xls|tsv)\s*(?:[（(][^）)]{0,30}[）)])?\s*(?:の|から)(?P<cols>[^をが、。]{1,40}?)を[^、。]{0,30}?(?:付け|付与|追加|転記|持ってく|持って来|持ってき|引っ張|引いて|引き|引く)|(?P<cols2>[^\s、。をがはでと「」・]{1,20})は\s*[^\s、。]+?\.(?:csv|xlsx|xls|tsv)\s*から[^、。]{0,30}?で(?:引く|引いて|引き|取得|参照)|(?P<cols3>[^\s、。をがはでと「」・（(]{1,20})\s*[（(]\s*[^\s（()）]+\.(?:csv|xlsx|xls|tsv)\s*(?:から|の)?\s*[）)]\s*(?:も|を)?\s*(?:付け|つけ|付与|追加|加え|持って|持ってき|引)|(?P<cols4>[^\s、。をがはでの「」]{1,20})(?:を|も)\s*[^\s、。をがは]+?\.(?:csv|xlsx|xls|tsv)\s*(?:から|より)\s*(?:付け|つけ|付与|追加|加え|持って|持ってき|引っ張|引いて|転記)",
    )
});

/// The columns a lookup brings ("add the supplier name and payment terms from suppliers.csv",
/// "customer name (from customers.csv)", "(region is in customers.csv)",
/// 「社員.csvの部署と役職を付けて」「マスタ.xlsx から担当者と締日を引っ張ってきて」「得意先名（得意先.csv）も付け
/// て」「マスタ.xlsx（シート「得意先」）から得意先コードで得意先名を引いて」); empty when the text names none.
pub fn brought_columns(text: &str, language: super::Language) -> Vec<String> {
    match language {
        super::Language::En => {
            let lower = text.to_ascii_lowercase();
            let Some(c) = en_brought(&lower) else { return Vec::new() };
            // "look up the employee's cost_center in employees.csv".
            let cols = ["cols", "cols2", "cols3", "cols4", "cols5", "cols6"].iter().find_map(|n| c.name(n));
            let Some(cols) = cols else { return Vec::new() };
            cols.as_str()
                .split([',', '&'])
                .flat_map(|part| part.split(" and "))
                .filter_map(|part| en_column(part.trim()))
                .collect()
        }
        super::Language::Ja => {
            // 「取引先コードで取引先名を引いて」: the key comes before で; 「受注.csvの商品コードで
            // 商品マスタ.xlsxを引いて」 brings no column of its own (the table is the one used).
            let Some(cols) = JA_BROUGHT
                .captures_iter(text)
                .map(|c| {
                    // (「業者名は 配送業者.csv から配送業者コードで引く」: the column, then the table.)
                    let cols =
                        ["cols", "cols2", "cols3", "cols4"].iter().find_map(|n| c.name(n)).map_or("", |m| m.as_str());
                    cols.rsplit('で').next().unwrap_or_default().to_owned()
                })
                // (「受注.csv の各行に金額（数量×単価）の列を追加」 adds a column of its own.)
                .find(|cols| !cols.contains(['.', '(', '（', '×', '*']))
            else {
                return Vec::new();
            };
            cols.split(['と', '、', '・']).map(|c| c.trim_matches(['「', '」'])).filter_map(ja_column).collect()
        }
    }
}

/// Where a clause says columns are brought from a file it names ("add the customer name and
/// region from customers.csv", "region is in customers.csv", 「得意先名（得意先.csv）も付けて」): a
/// lookup.
pub fn brought_from_a_file(clause: &str, language: super::Language) -> Option<usize> {
    if language == super::Language::Ja {
        return JA_BROUGHT.find(clause).map(|m| m.start());
    }
    let lower = clause.to_ascii_lowercase();
    let c = en_brought(&lower)?;
    let whole = c.get(0)?;
    // ("pull what we need from inventory.csv", "copy the rows from x.csv": what is read.)
    // ("add up net_amount per customer from sales.csv": a total.)
    let reads = ["pull", "copy", "add up", "add together"].iter().any(|verb| whole.as_str().starts_with(verb));
    let from_a_file = ["cols2", "cols4", "cols5"].iter().any(|name| c.name(name).is_some())
        || FILE_AFTER.is_match(&lower[whole.end()..]);
    (from_a_file && !reads).then_some(whole.start())
}

/// The words that bring columns from a file; "with their total amount … in totals.csv" is a
/// total written to that file, nothing brought.
fn en_brought(lower: &str) -> Option<regex::Captures<'_>> {
    // ("look up each transaction's cost center in cost_centers.xlsx and bring over the department":
    // what is looked up by is the key; the columns are what is brought after it.)
    // ("… in employees.csv and add it as a new column": the one looked up is what is added.)
    static BROUGHT_AFTER: LazyLock<Regex> = LazyLock::new(|| {
        re(
            r"\b(?P<not>don't\s+|do not\s+|not\s+|never\s+)?(?:bring|pull|carry|copy|add|attach)(?:\s+(?:over|in|across|along|back))?\s+(?:the\s+|their\s+|its\s+)?(?P<what>[a-z]+)",
        )
    });
    let brought_after = |rest: &str| {
        let sentence = rest.split(['.', ';', '?', '!']).next().unwrap_or_default();
        BROUGHT_AFTER
            .captures_iter(sentence)
            .any(|c| c.name("not").is_none() && !["it", "them", "this", "that", "these", "those"].contains(&&c["what"]))
    };
    let mut found = EN_BROUGHT.captures_iter(lower);
    let c = found.next()?;
    let looked_up_by =
        |c: &regex::Captures| c.name("cols2").is_some() && c.get(0).is_some_and(|m| brought_after(&lower[m.end()..]));
    let c = if looked_up_by(&c) { found.next()? } else { c };
    let a_total = c.name("cols5").is_some_and(|cols| TOTAL_SAID.is_match(cols.as_str()));
    (!a_total).then_some(c)
}

/// A file's name right after the words that bring columns from it.
static FILE_AFTER: LazyLock<Regex> = LazyLock::new(|| re(r"^\s*(?:the\s+)?[\w-]+\.(?:csv|tsv|xlsx|xls)\b"));

pub fn same_keys(text: &str, language: super::Language) -> Vec<String> {
    let lower = text.to_ascii_lowercase();
    let mut keys: Vec<String> = match language {
        super::Language::En if EN_SAME_LIST.is_match(&lower) => en_same_list(&lower),
        super::Language::En => EN_SAME
            .captures_iter(&lower)
            .filter_map(|c| en_column(&c[1]))
            .chain(
                EN_COMBINATION
                    .captures_iter(&lower)
                    .filter_map(|c| Some((c.name("a").or(c.name("a2"))?, c.name("b").or(c.name("b2"))?)))
                    .flat_map(|(a, b)| [en_key_column(a.as_str()), en_key_column(b.as_str())])
                    .flatten(),
            )
            .collect(),
        super::Language::Ja => {
            // (Over the whole text 、 ends a clause: it joins no pair.)
            let pair = JA_SAME_PAIR.captures_iter(text).find(|c| !c[0].contains('、'));
            match (JA_SAME_IF.captures(text), JA_SAME_LIST.captures(text), pair) {
                // 「登録番号が同じなら同じ取引先とみなして」: the column said to make rows the same.
                (Some(c), _, _) => ja_column(&c["a"]).into_iter().collect(),
                (None, Some(c), _) => same_list(&c["list"]),
                // 「画面と件名がどちらも同じ行」.
                (None, None, Some(c)) => [&c["a"], &c["b"]]
                    .into_iter()
                    .filter_map(|n| ja_column(n.trim_start_matches("同じ").trim_end_matches("の組み合わせ")))
                    .collect(),
                (None, None, None) => same_each(text),
            }
        }
    };
    keys.retain(|k| !JA_NOT_KEYS.contains(&k.as_str()));
    let mut seen = std::collections::HashSet::new();
    keys.retain(|k| seen.insert(k.clone()));
    keys
}

/// 「起票日から年月を取り出して」「受注日の年月を出して」: the month (or year) of a date as a column.
/// 「起票日から年月を取り出して」「計上日から「計上月」（2026-04 のような形）を作って」
/// 「取得日の年（西暦4桁）だけを入れた「取得年」列を追加」.
static JA_MONTH_OF: LazyLock<Regex> = LazyLock::new(|| {
    re(
        r"(?P<a>[^\s、。をがはでと「」・()（）]{1,16})(?:から|の)(?:(?P<part>年月|月|年)|「(?P<name>[^」]{1,12})」)(?P<aside>（[^）]{0,40}）|\([^)]{0,40}\))?(?:(?:だけ)?を|の列を|列を)?(?:取り出|出し|出す|抜き出|求め|計算|作|追加)",
    )
});
static JA_PART_PUT_IN: LazyLock<Regex> = LazyLock::new(|| {
    re(
        r"(?P<a>[^\s、。をがはでと「」・()（）]{1,16})の(?P<part>年月|月|年)(?P<aside>（[^）]{0,40}）|\([^)]{0,40}\))?(?:だけ)?を(?:入れ|記入し|表示し|出し)た「(?P<name>[^」]{1,12})」(?:の)?列",
    )
});
/// 「月は売上日の年月を「2026-01」の形で」: the month column said to be the month of a date.
static JA_MONTH_IS: LazyLock<Regex> = LazyLock::new(|| {
    re(r"(?P<name>年月|月|年)は\s*(?P<a>[^\s、。をがはでと「」・()（）]{1,16})の(?P<part>年月|月|年)(?:を|で|[、。]|$)")
});
static YEAR_AND_MONTH_SHOWN: LazyLock<Regex> = LazyLock::new(|| re(r"年-?月|年月|\d{4}-\d{2}\b|yyyy-mm"));

/// The month or year of a date column made into a column, and where it is said: the part
/// said (年月, 月, 年), or read from the new column's name (計上月, 取得年) or the example beside
/// it (「2026-04 のような 年-月 の形式」).
fn japanese_month_or_year(clause: &str) -> Option<(usize, Step)> {
    let c = JA_MONTH_OF
        .captures(clause)
        .or_else(|| JA_PART_PUT_IN.captures(clause))
        .or_else(|| JA_MONTH_IS.captures(clause))?;
    let name = c.name("name").map(|n| n.as_str().trim().to_owned());
    let aside = c.name("aside").map_or("", |a| a.as_str());
    let part = match (c.name("part").map(|p| p.as_str()), name.as_deref()) {
        (Some(part), _) => part.to_owned(),
        (None, Some(n)) if n.ends_with('月') || YEAR_AND_MONTH_SHOWN.is_match(aside) => "月".to_owned(),
        (None, Some(n)) if n.ends_with('年') => "年".to_owned(),
        _ => return None,
    };
    let of = ja_column(&c["a"])?;
    let operation = if part == "年" { "year" } else { "month" };
    let at = c.get(0).map_or(0, |m| m.start());
    Some((at, Step::Compute { name: name.unwrap_or(part), operation, of: vec![of], value: None }))
}

/// The shaping operations of one Japanese clause, each with its offset in the clause.
fn japanese(clause: &str) -> Vec<(usize, Step)> {
    let mut steps = Vec::new();
    steps.extend(joined_texts(clause));
    steps.extend(japanese_month_or_year(clause));
    if let Some(step) = japanese_duplicates(clause) {
        steps.push(step);
    }
    if let Some(step) = japanese_sort(clause).or_else(|| japanese_the_one_most(clause)) {
        steps.push(step);
    }
    let bracketed = bracketed(clause, super::Language::Ja);
    if !bracketed.is_empty() {
        steps.extend(bracketed);
        steps.extend(super::rounding::japanese(clause));
        return steps;
    }
    // 「金額＝配達量(L)×単価(円/L)」: a unit in brackets is part of no operand and no sign; the
    // operand is bound by its name before it (blanked to the same length, so offsets hold).
    let clause = &UNIT_OF_A_COLUMN
        .replace_all(clause, |c: &regex::Captures| format!("{}{}", &c["name"], " ".repeat(c["unit"].len())))
        .into_owned();
    let formulas = written_formulas(clause, super::Language::Ja);
    if !formulas.is_empty() {
        steps.extend(with_formulas(each_assigned(clause), formulas));
        steps.extend(super::rounding::japanese(clause));
        return steps;
    }
    let shares = japanese_share(clause);
    // 「達成率＝実績÷目標×100、差額＝実績−目標」: each formula that names its column, on its own.
    if shares.is_empty() && JA_ASSIGNED.find_iter(clause).count() > 1 {
        steps.extend(each_assigned(clause));
    } else if shares.is_empty() {
        steps.extend(japanese_compute(clause));
    }
    steps.extend(shares);
    steps.extend(super::rounding::japanese(clause));
    steps
}

/// The column each formula of `clause` that names its column computes, read on its own.
fn each_assigned(clause: &str) -> Vec<(usize, Step)> {
    JA_ASSIGNED
        .find_iter(clause)
        .flat_map(|m| japanese_compute(m.as_str()).map(|(at, step)| (m.start() + at, step)))
        .collect()
}

/// 「取引先コードごとに、ファイルの中で最初に出てくる行だけを残して」「社員番号と残業日が同じ行は、
/// 最初に出てくる1行だけ残して」「電話番号が同じなら…いちばん最初に受け付けた1件だけを残して」: one
/// row per key, the first
/// (or the last) of the file.
static JA_ROW_PER_KEY: LazyLock<Regex> = LazyLock::new(|| {
    re(
        r"(?P<key>[^\s、。をがはでと「」・（）()]{1,20})ごとに[^。]{0,30}?(?P<which>最初|一番上|先頭|最後|一番下|末尾)(?:に出てくる|に出る|にある|の)?(?:[1１一]行|[1１一]件|行)(?:[（(][^）)]{0,40}[）)])?(?:だけ|のみ)?を?残|同じ(?P<key2>[^\s、。をがはでと「」・（）()]{1,20}?)の(?:行|データ|レコード)は[、\s]?[^。]{0,20}?(?P<which2>最初|一番上|先頭|上の方|上|最後|一番下|末尾|下の方|下)(?:に出てくる|に出る|にある|の)?(?:[1１一]行|[1１一]件|行)(?:だけ|のみ)?を?残|(?P<keys3>[^\s、。をがはで「」（）()]{1,40}?)が同じ(?:(?:行|データ|レコード|もの)は|なら|場合は?|ときは?)[、\s]?[^。]{0,30}?(?P<which3>最初|一番上|先頭|上の方|上|最後|一番下|末尾|下の方|下)(?:に出てくる|に出る|にある|の|に[^、。]{1,8}?た)?(?:[1１一]行|[1１一]件|行)(?:だけ|のみ)?を?残|(?P<keys4>[^\s、。をがはで「」（）()]{1,40}?)の組み合わせごとに[^。]{0,30}?(?P<which4>最初|一番上|先頭|最後|一番下|末尾)(?:に出てくる|に出る|にある|の)?(?:[1１一]行|[1１一]件|行|[\p{Han}\p{Katakana}ー]{1,6})(?:だけ|のみ)?を?残",
    )
});

/// 「顧客コードごとに更新日が一番新しい行を残して」「メールアドレスごとに受付日時がいちばん早い1件だけ」:
/// one row per key, the newest (or oldest) by a date.
static JA_NEWEST_PER_KEY: LazyLock<Regex> = LazyLock::new(|| {
    re(
        r"(?P<key>[^\s、。をがはでと「」・（）()]{1,20})ごとに[、\s]?(?P<date>[^\s、。をがはでと「」・（）()]{1,16})(?:が|の)(?:一番|最も|いちばん)?(?P<which>新しい|最新の?|古い|早い|遅い)(?:日付の)?(?:行|もの|データ|レコード|1件|1行)",
    )
});
/// 「社員ごとに一番安い見積を1件ずつ」「取引先ごとに最も高い請求を1件」: the row of each key whose
/// amount is least (or most).
static JA_CHEAPEST_PER_KEY: LazyLock<Regex> = LazyLock::new(|| {
    re(
        r"(?P<key>[^\s、。をがはでと「」・（）()]{1,20})ごとに[、\s]?(?:一番|最も|いちばん)(?P<which>安い|高い)(?P<thing>[^\s、。をがはでと「」・（）()]{1,12}?)(?:を|の)?\s*(?:1件|1行|一件|ひとつ|1つ)",
    )
});
/// 「鍵番号ごとに一番新しい記録（貸出日時がいちばん遅いもの）だけを残して」「社員ごとに最新の行だけ」:
/// one row per key, the newest (or oldest), the date said in an aside or not at all.
static JA_NEWEST_ROW_PER_KEY: LazyLock<Regex> = LazyLock::new(|| {
    re(
        r"(?P<key>[^\s、。をがはでと「」・（）()]{1,20})ごとに[、\s]?(?:一番|最も|いちばん)?(?P<which>新しい|最新の?|古い|最古の?)(?:記録|行|もの|データ|レコード|1件|1行|履歴|明細)(?:\s*[（(](?P<date>[^\s、。をがはでと「」・（）()]{1,16})が(?:一番|最も|いちばん)?(?P<which2>新しい|最新の?|遅い|古い|早い)(?:もの|行|1件|1行)?[）)])?",
    )
});
/// "for each test_id only its most recent run counts (go by run_at …)", "keep the latest row per
/// customer by updated_at", "for each vendor_id keep the one row with the latest updated_at",
/// "the latest version of each id (the row with the newest last_updated)", "one row per email, the
/// one with the most recent updated_at".
static EN_NEWEST_PER_KEY: LazyLock<Regex> = LazyLock::new(|| {
    re(
        r"\b(?:for each|for every|per) (?P<key>[a-z_][\w]*(?: [a-z_][\w]*)??),? (?:only |keep )*(?:its|their|the) (?P<which>most recent|latest|newest|oldest|earliest)\b[^.;]*?\b(?:by|go by|going by|based on|according to) (?:the )?(?P<date>[a-z_][\w]*)|\b(?:the|its|their) (?P<which2>most recent|latest|newest|oldest|earliest) (?:row|line|record|entry|run|one|version) (?:for|per|of) (?:each |every )?(?P<key2>[a-z_][\w]*(?: [a-z_][\w]*)?)[^.;]*?\b(?:by|go by|going by|based on|according to|with the (?:most recent|latest|newest|oldest|earliest)) (?:the )?(?P<date2>[a-z_][\w]*)|\b(?:for each|for every|per) (?P<key3>[a-z_][\w]*),? (?:only )?(?:keep|take|pick)(?: only)? (?:the |its )?(?:one |single )?(?:row|line|record|entry|version) with the (?P<which3>most recent|latest|newest|oldest|earliest) (?P<date3>[a-z_][\w]*)|\b(?:keep|take|pick)(?: only)? (?:the |its )?(?:one |single )?(?:row|line|record|entry|version) with the (?P<which4>most recent|latest|newest|oldest|earliest) (?P<date4>[a-z_][\w]*) (?:for|per|of) (?:each |every )?(?P<key4>[a-z_][\w]*)|\b(?:each|every) (?P<key5>[a-z_][\w]*(?: [a-z_][\w]*)?)'s (?P<which5>most recent|latest|newest|last|oldest|earliest) (?P<noun5>[a-z_]+)|\b(?:the )?(?P<which6>most recent|latest|newest|last|oldest|earliest) (?P<noun6>[a-z_]+) (?:per|for each|for every|of each|of every) (?P<key6>[a-z_][\w]*(?: [a-z_][\w]*)?)|\bone (?:row|line|record|entry) (?:per|for each|for every) (?P<key7>[a-z_][\w]*),? (?:(?:keeping |keep )?the one|the row|the line|the record) with the (?P<which7>most recent|latest|newest|oldest|earliest) (?P<date7>[a-z_][\w]*)",
    )
});

/// The row of each key a date chooses, as the text says it.
pub(super) struct NewestPerKey {
    pub key: String,
    pub date: String,
    pub newest: bool,
    /// Said with no date column ("each customer's most recent order"): by the data's one column
    /// of dates, and the words read as an order of no column are this.
    pub by_the_date: bool,
}

/// The key, the date column and whether the newest row of each key is kept, when the text keeps
/// one row per key chosen by a date.
pub(super) fn newest_per_key(text: &str, language: super::Language) -> Option<NewestPerKey> {
    let (c, lower);
    match language {
        super::Language::Ja => {
            // (「受付日時がいちばん早い1件」: the earliest, 「いちばん遅い」 the latest.)
            let newest = |which: &str| which.starts_with(['新', '遅']) || which.starts_with("最新");
            if let Some(c) = JA_NEWEST_PER_KEY.captures(text) {
                return Some(NewestPerKey {
                    key: c["key"].to_owned(),
                    date: c["date"].to_owned(),
                    newest: newest(&c["which"]),
                    by_the_date: false,
                });
            }
            // (「社員ごとに一番安い見積を1件ずつ」: the row of each key with the least amount.)
            if let Some(c) = JA_CHEAPEST_PER_KEY.captures(text) {
                let thing = &c["thing"];
                let amount = if ["額", "金", "価格", "料", "単価", "費"].iter().any(|w| thing.ends_with(w)) {
                    thing.to_owned()
                } else {
                    format!("{thing}金額")
                };
                return Some(NewestPerKey {
                    key: c["key"].to_owned(),
                    date: amount,
                    newest: &c["which"] == "高い",
                    by_the_date: false,
                });
            }
            // (「一番新しい記録（貸出日時がいちばん遅いもの）」: the date in the aside; with none, by
            // the data's one column of dates.)
            let c = JA_NEWEST_ROW_PER_KEY.captures(text)?;
            let which = c.name("which2").map_or(&c["which"], |m| m.as_str());
            return Some(NewestPerKey {
                key: c["key"].to_owned(),
                date: c.name("date").map_or("日付", |m| m.as_str()).to_owned(),
                newest: newest(which),
                by_the_date: c.name("date").is_none(),
            });
        }
        super::Language::En => {
            lower = text.to_ascii_lowercase();
            // ("sort by date, latest first for each region" is an order.)
            let row = |c: &regex::Captures| {
                c.name("noun5")
                    .or(c.name("noun6"))
                    .is_none_or(|n| !matches!(n.as_str(), "first" | "last" | "one" | "ones"))
            };
            c = EN_NEWEST_PER_KEY.captures_iter(&lower).find(row)?;
        }
    }
    let which =
        ["which", "which2", "which3", "which4", "which5", "which6", "which7"].iter().find_map(|g| c.name(g))?.as_str();
    let key = ["key", "key2", "key3", "key4", "key5", "key6", "key7"].iter().find_map(|g| c.name(g))?.as_str();
    // ("the latest order per customer in orders.csv": the key, not the words after it.)
    let key = en_column(key.trim_end_matches(" in").trim_end_matches(" on"))?;
    // ("each customer's most recent order": by the data's one column of dates.)
    let said = ["date", "date2", "date3", "date4", "date7"].iter().find_map(|g| c.name(g));
    let date = said.map_or("date", |m| m.as_str()).to_owned();
    Some(NewestPerKey { key, date, newest: !matches!(which, "oldest" | "earliest"), by_the_date: said.is_none() })
}

/// The removal of duplicates a sentence says over its clauses (「取引先コードごとに、…最初に出てくる
/// 行だけを残して」), if any.
pub(super) fn japanese_row_per_key(text: &str) -> Option<(Step, &str)> {
    let c = JA_ROW_PER_KEY.captures(text)?;
    // (「同じ得意先コードの行は、ファイルの上の方にある1行だけを残して」: the key, then which.)
    let which = ["which", "which2", "which3", "which4"].iter().find_map(|n| c.name(n)).map_or("", |m| m.as_str());
    let keep_last = matches!(which, "最後" | "一番下" | "末尾" | "下の方" | "下");
    // (「社員番号と残業日が同じ行は、…最初に出てくる1行だけ残して」「社員番号とソフトウェアの組み合わせ
    // ごとに最初の申請だけ残して」: the keys listed.)
    if let Some(keys) = c.name("keys3").or(c.name("keys4")) {
        let by: Vec<String> = keys.as_str().split(['と', '・', '、']).filter_map(ja_column).collect();
        return (!by.is_empty()).then_some((Step::Duplicates { by, remove: true, keep_last }, c.get(0)?.as_str()));
    }
    let key = c.name("key").or(c.name("key2")).map_or("", |m| m.as_str());
    Some((Step::Duplicates { by: vec![key.to_owned()], remove: true, keep_last }, c.get(0)?.as_str()))
}

fn japanese_duplicates(clause: &str) -> Option<(usize, Step)> {
    // 「取引先と請求書番号の組み合わせが同じ行が2行以上」: a pair the same across rows; 「請求額と
    // 支払額が一致する行」 compares two columns of one row and is no duplicate.
    let pair_across_rows = || {
        JA_SAME_PAIR
            .find(clause)
            .filter(|m| m.as_str().contains("の組み合わせ") || JA_SEVERAL.is_match(&clause[m.end()..]))
    };
    // 「全項目がまったく同じ行は1行だけ残して」: whole rows the same, one kept; no other word of
    // duplicates said.
    static ONE_KEPT: LazyLock<Regex> =
        LazyLock::new(|| re(r"(?:1|１|一)(?:行|件|つ)(?:だけ|のみ)?(?:残|に(?:まとめ|する|して))"));
    if let Some(m) = WHOLE_ROW_DUPLICATES.find(clause).filter(|_| ONE_KEPT.is_match(clause)) {
        return Some((m.start(), Step::Duplicates { by: Vec::new(), remove: true, keep_last: false }));
    }
    let found = JA_DUPLICATE
        .find(clause)
        .or_else(|| JA_REMOVE.find(clause))
        .or_else(|| JA_SAME_LIST.find(clause))
        .or_else(pair_across_rows)?;
    // 「最初の1件も含めて全部」 keeps the first one with the others: nothing removed.
    // (「重複（同じ取引先コード）を削除」: said around an aside.)
    let plain = super::PARENTHESES.replace_all(clause, "");
    let remove = JA_REMOVE.find_iter(&plain).any(|m| !plain[m.end()..].starts_with("も含"));
    // 「同じ伝票が二重に取り込まれてしまいました」 tells what happened; it asks for nothing.
    if !remove && !JA_ASKS.is_match(clause) {
        return None;
    }
    // (「（＝本社側が優先、同じファイルの中なら上の行）」: an aside says which row stays, not what
    // makes rows the same; 「重複（同じ取引先コード）を削除」 says the key in one.)
    let asides = super::PARENTHESES.find_iter(clause).map(|m| m.range());
    let mut by = japanese_duplicate_keys(&slots::blanked(clause, asides));
    if by.is_empty() {
        by = japanese_duplicate_keys(clause);
    }
    by.dedup();
    Some((found.start(), Step::Duplicates { by, remove, keep_last: JA_KEEP_LAST.is_match(clause) }))
}

/// The columns that make rows of a Japanese clause the same (「登録番号が同じなら」「支払日・取引先・
/// 金額の3つがすべて同じ」「取引先コードがかぶっている」).
fn japanese_duplicate_keys(clause: &str) -> Vec<String> {
    let mut by: Vec<String> = Vec::new();
    // 「登録番号が同じなら同じ取引先とみなして」: the column said to make rows the same.
    if let Some(c) = JA_SAME_IF.captures(clause) {
        by.extend(ja_column(&c["a"]));
    }
    // 「支払日・取引先・金額の3つがすべて同じ行」: a list of any length.
    if let Some(c) = JA_SAME_LIST.captures(clause).filter(|_| by.is_empty()) {
        by.extend(same_list(&c["list"]));
    }
    if let Some(c) = JA_SAME_PAIR.captures(clause).filter(|_| by.is_empty()) {
        by.extend(
            [&c["a"], &c["b"]]
                .into_iter()
                .filter_map(|n| ja_column(n.trim_start_matches("同じ").trim_end_matches("の組み合わせ"))),
        );
    }
    if by.is_empty() {
        by.extend(same_each(clause));
    }
    if by.is_empty() {
        if let Some(c) = JA_KEY_OF.captures(clause) {
            by.extend(c.name("a").or(c.name("b")).and_then(|m| ja_column(m.as_str())));
        }
    }
    by.retain(|b| !JA_NOT_KEYS.contains(&b.as_str()));
    by
}

/// 「(秒)」「(円)」: a column's unit in brackets, short.
static UNIT_IN_BRACKETS: LazyLock<Regex> = LazyLock::new(|| re(r"[(（][^()（）]{1,4}[)）]"));
/// 「(L)」「(円/L)」「（kg）」「(秒)」 right after a name: the unit of a column.
static UNIT_OF_A_COLUMN: LazyLock<Regex> = LazyLock::new(|| {
    re(
        r"(?P<name>[^\s、。()（）])(?P<unit>[(（](?:[円LｌＬ％%秒分個本枚件人回㎏℃]|(?i:kg|km|ml|kwh)|時間|[/／]){1,4}[)）])",
    )
});

/// 「金額が一番大きい伝票」「入社日が最も古い社員」: the one row first in that order.
fn japanese_the_one_most(clause: &str) -> Option<(usize, Step)> {
    static THE_ONE_MOST: LazyLock<Regex> = LazyLock::new(|| {
        re(
            r"(?P<column>[\p{Han}\p{Katakana}ーA-Za-z0-9_]{1,20})\s*(?:が|の)\s*(?:一番|いちばん|最も|もっとも)\s*(?P<most>大きい|高い|多い|長い|新しい|遅い|小さい|低い|少ない|短い|古い|早い)",
        )
    });
    // (「金額（数量×単価）が一番大きい」: the aside says how the column is made.)
    let clause = super::PARENTHESES.replace_all(clause, |c: &regex::Captures| " ".repeat(c[0].len()));
    let c = THE_ONE_MOST.captures(&clause)?;
    let descending = JA_DESCENDING.is_match(&c["most"]);
    let by = Some(c["column"].to_owned());
    // (At the words' end: after the column's formula, said in the aside.)
    Some((c.get(0)?.end(), Step::Sort { by, descending, limit: Some(1), then: Vec::new() }))
}

fn japanese_sort(clause: &str) -> Option<(usize, Step)> {
    // 「以下の手順で」 asks for no order, nor 「（列は…）この順番にして」, nor 「行の並びも元ファイルの順で」,
    // the order the rows have (same length, so offsets hold).
    let clause =
        &["手順", "この順", "その順", "上記の順", "記載の順", "ファイルの順", "データの順", "元の順", "もとの順"]
            .iter()
            .fold(clause.to_owned(), |text, said| text.replace(said, &said.replace('順', "続")));
    // 「最初の1件も含めて全部」 keeps the first one with the rest: no top.
    // (「先頭の0が消えて」: a leading zero, no top of none.)
    // (「先頭2行はタイトルと出力日時」: what the rows above the header hold, no top.)
    static TITLE_ROWS: LazyLock<Regex> = LazyLock::new(|| {
        re(r"^\s*(?:は|が)[^、。）)]{0,12}?(?:タイトル|表題|見出し|空行|空白|注記|注意書き|説明|出力日|作成日)")
    });
    let top = JA_TOP.captures(clause).filter(|c| {
        let after = &clause[c.get(0).map_or(0, |m| m.end())..];
        let none = c.name("n").or(c.name("n2")).or(c.name("n3")).is_some_and(|n| number(n.as_str()) == Some(0));
        !none
            && !after.trim_start_matches(['件', '行']).starts_with("も含")
            && !TITLE_ROWS.is_match(after.trim_start_matches(['件', '行']))
    });
    let sort = JA_SORT.find(clause);
    let at = match (&top, sort) {
        (Some(c), Some(s)) => c.get(0).map_or(s.start(), |m| m.start().min(s.start())),
        (Some(c), None) => c.get(0)?.start(),
        (None, Some(s)) => s.start(),
        (None, None) => return None,
    };
    let limit =
        top.as_ref().and_then(|c| c.name("n").or(c.name("n2")).or(c.name("n3"))).and_then(|m| number(m.as_str()));
    let key_end = super::sort_keys::first_key_end(clause, super::Language::Ja);
    let said = &clause[..key_end];
    // 「実行時間(秒)が長い順に」: the unit in brackets is part of no order word; the column is
    // bound by its name before it.
    let said = &UNIT_IN_BRACKETS.replace_all(said, "");
    // 「並び順は取得年の古い順で」: 「並び順」 names the order, not its column.
    let by = JA_ORDER_COLUMN.captures_iter(said).find_map(|c| {
        // (「平均が長い部署から順に」: what is measured, before が; the rows after it.)
        let name = c.name("a").or(c.name("d")).or(c.name("b")).or(c.name("c"))?.as_str();
        // (「並び:日数の多い順」: the line's label is no part of the key.)
        let name = name.rsplit([':', '：']).next().unwrap_or(name);
        // 「列は全部残して申請番号順に」: what is done before the key is no part of it.
        let name = name.rsplit_once("して").or_else(|| name.rsplit_once('て')).map_or(name, |(_, key)| key);
        // 「古い月から順に」: the key between the order's adjective and から.
        let name = name.strip_suffix("から").unwrap_or(name);
        const ADJECTIVES: [&str; 16] = [
            "古い",
            "新しい",
            "大きい",
            "小さい",
            "多い",
            "少ない",
            "高い",
            "低い",
            "早い",
            "遅い",
            "長い",
            "短い",
            "近い",
            "遠い",
            "良い",
            "悪い",
        ];
        // (「ネットの良い順（少ない順）」: which way is good is said in the brackets; said nowhere,
        // 「点数の良い順」 is left as said, and asked.)
        let raw = &clause[..key_end];
        let way_said = JA_DESCENDING.is_match(raw) || JA_ASCENDING.is_match(raw);
        let adjectives = &ADJECTIVES[..if way_said { 16 } else { 14 }];
        let name = adjectives
            .iter()
            .find_map(|adjective| name.strip_prefix(adjective).filter(|key| !key.is_empty()))
            .unwrap_or(name);
        // 「合計の大きい部門から順に」: what is measured, before its adjective (the rows after it).
        let name = adjectives
            .iter()
            .find_map(|adjective| {
                let (measured, _) = name.split_once(adjective)?;
                measured.strip_suffix(['の', 'が']).filter(|m| !m.is_empty())
            })
            .unwrap_or(name);
        ja_column(name).filter(|n| {
            !matches!(
                n.as_str(),
                "大きい"
                    | "多い"
                    | "高い"
                    | "小さい"
                    | "少ない"
                    | "低い"
                    | "新しい"
                    | "古い"
                    | "長い"
                    | "短い"
                    | "近い"
                    | "遠い"
            ) && !n.starts_with("並び")
                && !n.starts_with("並べ")
        })
    });
    // 「古い月から」: the key between the order's adjective and から.
    let by = by.or_else(|| JA_ADJECTIVE_KEY_FROM.captures(said).and_then(|c| ja_column(&c["key"])));
    // (「良い順(少ない順)」: the way said in brackets, when the words before say none.)
    let way =
        if JA_DESCENDING.is_match(said) || JA_ASCENDING.is_match(said) { said.as_ref() } else { &clause[..key_end] };
    let descending = match (JA_DESCENDING.is_match(way), JA_ASCENDING.is_match(way)) {
        (true, false) => true,
        (false, true) => false,
        _ => limit.is_some(),
    };
    // 「来訪日・来訪時刻の早い順」: keys listed with ・, the first first, each the same way.
    static LISTED_KEYS: LazyLock<Regex> = LazyLock::new(|| {
        re(
            r"(?P<list>[\p{Han}\p{Katakana}ーA-Za-z0-9_々]+(?:・[\p{Han}\p{Katakana}ーA-Za-z0-9_々]+)+)(?:の\s*(?:早い|遅い|古い|新しい|大きい|小さい|多い|少ない|高い|低い|若い)\s*)?順",
        )
    });
    let listed = by.as_deref().and_then(|key| {
        let list =
            LISTED_KEYS.captures_iter(said).map(|c| c["list"].to_owned()).find(|l| l.ends_with(&format!("・{key}")))?;
        Some(list.split('・').map(str::to_owned).collect::<Vec<_>>())
    });
    let (by, then) = match listed {
        Some(keys) => (Some(keys[0].clone()), keys[1..].iter().map(|k| (k.clone(), descending)).collect()),
        None => (by, Vec::new()),
    };
    Some((at, Step::Sort { by, descending, limit, then }))
}

static JA_ADJECTIVE_KEY_FROM: LazyLock<Regex> = LazyLock::new(|| {
    re(
        r"(?:古い|新しい|大きい|小さい|多い|少ない|高い|低い|早い|遅い|長い|短い|近い|遠い)(?P<key>[\p{Han}\p{Katakana}ー]{1,6})から",
    )
});

/// 「金額の10%」「消費税（金額の10%）」: a share of a column.
static JA_PERCENT_OF: LazyLock<Regex> = LazyLock::new(|| {
    re(
        r"(?:「?(?P<name>[^\s、。をがはでと「」・（(]{1,16})」?\s*[（(])?(?P<a>[^\s、。をがはでと「」・（()）×*]{1,16})\s*(?:の|×|\*)\s*(?P<p>\d+(?:\.\d+)?)\s*(?:%|％|パーセント)",
    )
});
/// 「「税込金額」（税抜金額＋消費税額）」: a column and the two it adds up.
static JA_SUM: LazyLock<Regex> = LazyLock::new(|| {
    re(
        r"「?(?P<name>[^\s、。をがはでと「」・（(]{1,16})」?\s*[（(](?P<a>[^\s、。をがはでと「」・（()）+]{1,16})\s*\+\s*(?P<b>[^\s、。をがはでと「」・（()）+]{1,16})[）)]",
    )
});
/// 「税込金額」: the amount with its tax, when the tax is a column the text adds.
static JA_WITH_TAX: LazyLock<Regex> = LazyLock::new(|| re(r"税込(?:金額|額|価格|合計)?"));

/// 「消費税（金額の10%）と税込金額の列を追加」: the tax as a share of the amount, and the amount
/// with it when the text names that too.
fn japanese_share(clause: &str) -> Vec<(usize, Step)> {
    let Some(c) = JA_PERCENT_OF.captures(clause) else { return Vec::new() };
    let (Some(base), Ok(percent)) = (ja_column(&c["a"]), c["p"].parse::<f64>()) else { return Vec::new() };
    let m = c.get(0).expect("match");
    let named_after = JA_NAMED
        .captures(&clause[m.end()..])
        .and_then(|n| n.name("a").or(n.name("b")).or(n.name("c")).map(|x| x.as_str().to_owned()))
        .and_then(|n| ja_column(&n));
    // 「源泉徴収税額=支払額×10.21%」: the name said before the formula.
    let named_before = c["a"].split_once(['=', '＝']).and_then(|(name, _)| ja_column(name));
    let name = c
        .name("name")
        .and_then(|n| ja_column(n.as_str()))
        .or(named_before)
        .or(named_after)
        .unwrap_or_else(|| "金額".to_owned());
    let mut steps = vec![(
        m.start(),
        Step::Compute {
            name: name.clone(),
            operation: "product",
            of: vec![base.clone()],
            value: Some(percent / 100.0),
        },
    )];
    if let Some(c) = JA_SUM.captures(&clause[m.end()..]) {
        let at = m.end() + c.get(0).expect("match").start();
        let of: Vec<String> = [&c["a"], &c["b"]].iter().filter_map(|n| ja_column(n)).collect();
        if let (Some(sum), 2) = (ja_column(&c["name"]), of.len()) {
            steps.push((at, Step::Compute { name: sum, operation: "sum", of, value: None }));
            return steps;
        }
    }
    if let Some(with_tax) = JA_WITH_TAX.find(&clause[m.end()..]).filter(|_| name.contains('税')) {
        let of = vec![base, name];
        steps.push((
            m.end() + with_tax.start(),
            Step::Compute { name: with_tax.as_str().to_owned(), operation: "sum", of, value: None },
        ));
    }
    steps
}

/// A particle that ends the words before a noun: 「在庫一覧に発注数」.
fn is_particle(ch: char) -> bool {
    matches!(ch, 'に' | 'を' | 'が' | 'は' | 'で' | 'と' | 'の' | 'へ' | 'も')
}

fn japanese_compute(clause: &str) -> Option<(usize, Step)> {
    // 「列名は モジュール／平均実行時間秒／件数 で」: names listed, nothing computed.
    if words::names_columns(clause) {
        return None;
    }
    let name = |after: usize| {
        JA_NAMED
            .captures(&clause[after..])
            .and_then(|c| c.name("a").or(c.name("b")).or(c.name("c")).map(|m| m.as_str().to_owned()))
            .and_then(|n| ja_column(&n))
    };
    // 「実績−予算(マイナスはマイナスのまま)」: an aside after the second operand.
    // (「解決日−起票日 の日数」: the days of the difference, not a column 「起票日の日数」.)
    let pair = |c: &regex::Captures, a: &str, b: &str| {
        let second = c.name(b)?.as_str();
        let second = second.split('(').next().unwrap_or(second);
        let second = ["の日数", "の差", "の差額"].iter().find_map(|s| second.strip_suffix(s)).unwrap_or(second);
        Some((ja_column(c.name(a)?.as_str())?, ja_column(second)?))
    };
    // 「不足数＝発注点−在庫数」「税込金額＝税抜金額×1.1」: the name said before the formula.
    let said_before = |c: &regex::Captures| {
        let first = ["a", "c", "e"].iter().find_map(|g| c.name(g))?;
        first.as_str().split_once(['=', '＝']).and_then(|(name, _)| ja_column(name))
    };
    // 「請求日から入金日までの日数」: the later date minus the earlier; 「起票日から2026年11月30日
    // までの経過日数」: to the day said; 「日数は出発日から帰着日まで両端を含めた日数」: both ends.
    if let Some(c) = JA_DAYS_BETWEEN.captures(clause) {
        let m = c.get(0)?;
        let name = JA_NAME_BEFORE
            .captures(&clause[..m.start()])
            .and_then(|n| ja_column(&n["name"]))
            .or_else(|| name(m.end()))
            .unwrap_or_else(|| c["noun"].to_owned());
        if let [until] = super::dates::dates(&c["b"]).as_slice() {
            let from = ja_column(&c["a"])?;
            return Some((m.start(), Step::DaysUntil { name, from, until: until.value.clone() }));
        }
        let (a, b) = pair(&c, "a", "b")?;
        if c.name("both").is_some() {
            return Some((m.start(), Step::Compute { name, operation: "days_inclusive", of: vec![a, b], value: None }));
        }
        return Some((m.start(), Step::Compute { name, operation: "difference", of: vec![b, a], value: None }));
    }
    let noun_ending = |text: &str| {
        let start = text
            .char_indices()
            .rev()
            .take_while(|(_, ch)| (ch.is_alphanumeric() || *ch == 'ー' || *ch == '_') && !is_particle(*ch))
            .last()
            .map(|(i, _)| i)?;
        ja_column(&text[start..])
    };
    // 「発注数（発注点の2倍から在庫を引いた数）」「税込額（税抜額×1.1）」: the name the brackets are after.
    let bracketed = |c: &regex::Captures| {
        // (The first operand's words may start at the name: 「に発注数(発注点の2倍」.)
        let first = ["a", "c", "e"].iter().find_map(|g| c.name(g))?;
        if let Some((name, _)) = first.as_str().split_once(['(', '（']) {
            return noun_ending(name);
        }
        noun_ending(clause[..c.get(0)?.start()].trim_end().strip_suffix(['（', '('])?)
    };
    if let Some(c) = JA_DIFFERENCE.captures(clause) {
        let (a, b) = pair(&c, "a", "b").or_else(|| pair(&c, "c", "d")).or_else(|| pair(&c, "e", "f"))?;
        let m = c.get(0)?;
        // (「支払予定日 − 受領日 の日数を出し」: the days between, named so.)
        let second = ["b", "d", "f"].iter().find_map(|g| c.name(g)).map_or("", |s| s.as_str());
        let days = second.trim_end().ends_with("の日数") || clause[m.end()..].trim_start().starts_with("の日数");
        let name = said_before(&c)
            .or_else(|| bracketed(&c))
            .or_else(|| name(m.end()))
            .unwrap_or_else(|| if days { "日数" } else { "差額" }.to_owned());
        // 「発注点の2倍から在庫を引いた数」: a multiple of a column, less another.
        let multiple = |x: &str| {
            let (column, times) = x.strip_suffix('倍')?.rsplit_once('の')?;
            Some((ja_column(column)?, times.parse::<f64>().ok()?))
        };
        let written = match (multiple(&a), multiple(&b)) {
            (Some((x, n)), None) => Some(format!("{x} * {n} - {b}")),
            (None, Some((y, n))) => Some(format!("{a} - {y} * {n}")),
            _ => None,
        };
        if let Some(formula) = written.and_then(|w| Formula::parse_written(&w).ok()) {
            let of = formula.columns().into_iter().map(str::to_owned).collect();
            return Some((m.start(), Step::Formula { name, formula: formula.to_string(), of }));
        }
        return Some((m.start(), Step::Compute { name, operation: "difference", of: vec![a, b], value: None }));
    }
    for (pattern, op, default) in [(&*JA_RATIO, "ratio", "比率"), (&*JA_PRODUCT, "product", "金額")] {
        if let Some(c) = pattern.captures(clause) {
            let (a, b) = pair(&c, "a", "b").or_else(|| pair(&c, "c", "d"))?;
            // 「3/1〜3/31」 is a date, not 3 divided by 1.
            if a.ends_with(|ch: char| ch.is_numeric()) && b.starts_with(|ch: char| ch.is_numeric()) {
                continue;
            }
            let m = c.get(0)?;
            // 「年月×勘定科目ごとに」: the keys of a grouping, not a product.
            if op == "product" && (b.ends_with('ご') || clause[m.end()..].starts_with(['別', '毎'])) {
                continue;
            }
            let name = said_before(&c)
                .or_else(|| bracketed(&c))
                .or_else(|| name(m.end()))
                .unwrap_or_else(|| default.to_owned());
            // 「税抜金額 × 1.1」: a column times a number.
            if let (Ok(factor), "product") = (b.parse::<f64>(), op) {
                return Some((m.start(), Step::Compute { name, operation: op, of: vec![a], value: Some(factor) }));
            }
            // 「合格数÷実施数×100」: a percentage.
            let times = |b: &str| {
                b.split_once(['×', '＊', '*']).map(|(b, k)| (b.trim().to_owned(), k.trim().parse::<f64>().ok()))
            };
            if let (Some((b, Some(100.0))), "ratio") = (times(&b), op) {
                return Some((m.start(), Step::Compute { name, operation: "percent", of: vec![a, b], value: None }));
            }
            return Some((m.start(), Step::Compute { name, operation: op, of: vec![a, b], value: None }));
        }
    }
    None
}
