//! Cutting an instruction into clauses: one operation's words and values each, mostly.
//!
//! Sentences end at `.` `?` `!` `。` `;` and line ends; clauses at commas, `、`, "then" and an "and"
//! followed by a verb. A piece that names no operation (a list item: "date and total" after
//! "extract the invoice number,") joins its neighbour — the clause before in English, where
//! verbs come first, the one after in Japanese, where they come last.

use std::sync::LazyLock;

use regex::Regex;

use super::words::Lexicon;
use super::Language;

/// A clause and its byte offset in the instruction.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Clause {
    pub text: String,
    pub start: usize,
    /// Whether a sentence starts here: an English fragment joins the clause before only
    /// within its sentence.
    sentence_start: bool,
}

static EN_SEPARATOR: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(r"(?i)[;\n]|[.?!]\s|[.?!]$|,\s*(?:and\s+then\s+|then\s+|and\s+)?|\s+(?:and\s+)?then\s+|\s+and\s+(?P<verb>read|load|open|keep|filter|exclude|drop|remove|skip|discard|omit|total|sum|count|group|match|reconcile|join|merge|classify|categori[sz]e|extract|summari[sz]e|ask|confirm|approve|call|post|send|poll|wait|log|click|download|write|save|export|output|create|generate|produce|put|store|list|flag|take|get|pull|add|compute|calculate|sort|round|rename|combine|append|stack)\b")
        .expect("separator")
});
static EN_EXCLUSION_START: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(r"^(?:but\s+)?(?:please\s+)?(?:excluding|except(?:\s+for)?|not counting|leaving out|leave out|ignoring|ignore|skip|skipping)\s").expect("exclusion")
});
/// "so Unpaid and Void stay out", "and Drafts don't count": values, as written, then what is
/// done with them (not "so leave those out", said of the piece before).
static EN_LEAVES_OUT_ALONE: LazyLock<Regex> =
    LazyLock::new(|| Regex::new(r"^(?:so|and|but|while)\s+[A-Z]").expect("leaves out"));
/// A letter's greetings and sign-off, and who writes it: 「経理部 佐藤さん」「お疲れさまです」
/// 「営業管理課の田中です」「経理担当の小野です」「よろしくお願いいたします」. Words of none of them are
/// the job's.
static JA_PLEASANTRY: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(
        r"^(?:(?:[^\s、。]{0,12}\s*[\p{Han}\p{Katakana}ー]{1,6}\s*(?:さん|様|さま|殿|各位)|(?:いつも)?お(?:疲れ|つかれ)(?:さま|様)です|(?:いつも)?お世話になって(?:おります|います)|(?:以上、?)?(?:どうぞ|何卒)?よろしく(?:お願い|おねがい)(?:いたします|致します|します|申し上げます)|以上(?:です|になります)?|[^\sはをがで、。]{0,12}(?:部|課|室|係|チーム|グループ|センター|支店|営業所)の[\p{Han}\p{Katakana}ー]{1,5}です|[^\s、。]{0,20}担当の[\p{Han}\p{Katakana}ー]{1,5}(?:です|と申します))[。！!]?\s*)+$",
    )
    .expect("pleasantry")
});
/// Who writes, said with what they do: 「総務部で損害保険を担当している小野です」 (its verb, している, asks
/// for nothing).
static JA_WHO_WRITES: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(r"^[^、。]{0,30}を担当(?:している|しております|しています|する)[\p{Han}\p{Katakana}ー]{1,5}(?:です|と申します)[。！!]?\s*$")
        .expect("who writes")
});
/// 「…の行を対象に」「…を対象として」: the rows a piece says are the ones worked on.
static JA_TAKEN_AS_THE_ROWS: LazyLock<Regex> =
    LazyLock::new(|| Regex::new(r"を対象(?:に|として|とし)$").expect("taken as the rows"));
/// A piece that only says how to round: 「四捨五入で」「1円未満は切り捨て」.
static JA_ROUNDING_ALONE: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(r"^[^、。]{0,12}(?:四捨五入|切り捨て|切捨て|切り上げ|切上げ)[^、。]{0,8}$").expect("rounding alone")
});
/// (「抽出→発注数を付けて→発注リスト.csv」: an arrow between steps ends one; not 「高→中→低」, values in
/// order, which [`value_arrow`] keeps whole.)
static JA_SEPARATOR: LazyLock<Regex> = LazyLock::new(|| Regex::new(r"[。;?!\n]|、|\.\s|→").expect("separator"));

pub fn split(text: &str, language: Language, lexicon: &Lexicon) -> Vec<Clause> {
    let separator = match language {
        Language::En => &*EN_SEPARATOR,
        Language::Ja => &*JA_SEPARATOR,
    };
    let mut pieces: Vec<Clause> = Vec::new();
    let mut start = 0;
    let mut sentence_start = true;
    for c in separator.captures_iter(text) {
        let m = c.get(0).expect("match");
        if m.as_str().starts_with('.') && ends_with_abbreviation(&text[..m.start()])
            || m.as_str() == "→" && value_arrow(text, m.start(), m.end())
            || m.as_str().starts_with([',', '、']) && within_brackets(text, m.start())
            || c.name("verb").is_some_and(|v| a_measure_listed(&text[start..m.start()], v.as_str(), &text[v.end()..]))
        {
            continue;
        }
        push(&mut pieces, text, start, m.start(), sentence_start);
        sentence_start = m.as_str().starts_with(['.', '?', '!', ';', '\n', '。']);
        // "… and write …": the verb starts the next clause.
        start = c.name("verb").map_or(m.end(), |v| v.start());
    }
    push(&mut pieces, text, start, text.len(), sentence_start);
    join_fragments(pieces, language, lexicon, text)
}

/// "with its total tickets and total revenue": the next of the measures listed, a noun after
/// "total" (not "… and total the amounts", the verb).
fn a_measure_listed(before: &str, verb: &str, after: &str) -> bool {
    static MEASURE_BEFORE: LazyLock<Regex> = LazyLock::new(|| {
        Regex::new(r"(?i)\b(?:total|average|sum|number of|count of)\s+[a-z_][\w-]*(?:\s+[a-z_][\w-]*)?\s*$")
            .expect("a measure before")
    });
    let next = after.split_whitespace().next().unwrap_or_default().to_ascii_lowercase();
    let verb_object =
        ["the", "them", "it", "up", "by", "per", "all", "each", "those", "these", "their", "its", "every"];
    matches!(verb.to_ascii_lowercase().as_str(), "total" | "sum" | "count")
        && !next.is_empty()
        && !verb_object.contains(&next.as_str())
        && MEASURE_BEFORE.is_match(before)
}

/// Whether the comma at `at` stands in a short aside in brackets (「×100（小数第1位まで、四捨五入）」,
/// "(parts + labor, rounded)"): the aside is one piece with what it is said of.
fn within_brackets(text: &str, at: usize) -> bool {
    let before = &text[..at];
    let Some(open) = before.rfind(['(', '（']) else { return false };
    if before[open..].contains([')', '）']) {
        return false;
    }
    let after = &text[at..];
    let close = after.find([')', '）']);
    let next_open = after.find(['(', '（']);
    // (An aside that is a formula, 「合格率（合格件数 ÷ 実行件数 × 100、小数第1位まで）」, is read as
    // one where it is named, comma and all.)
    let formula = |t: &str| t.contains(['÷', '×', '*', '=', '+', '−']) || t.contains(" / ");
    close.is_some_and(|c| next_open.is_none_or(|o| c < o) && after[..c].chars().count() <= 30 && !formula(&after[..c]))
        && before[open..].chars().count() <= 30
        && !formula(&before[open..])
}

/// Whether the arrow at `start..end` joins two short words (values in order, 「高→中→低」, a
/// rename 「旧コード→新コード」) rather than two steps.
fn value_arrow(text: &str, start: usize, end: usize) -> bool {
    let word_end = |c: char| c.is_whitespace() || "、。,()（）→「」".contains(c);
    let before = text[..start].chars().rev().take_while(|c| !word_end(*c)).count();
    let after = text[end..].chars().take_while(|c| !word_end(*c)).count();
    // (「返品数量を合計→多い順に」: a word with its particle, an object, is a step.)
    let object =
        text[..start].trim_end().ends_with(['を', 'で', 'て']) || JA_STEP_BEFORE_ARROW.is_match(&text[..start]);
    before <= 8 && after <= 8 && !object
}

/// 「…を合計」「…を抽出」 just before an arrow: a step done, then the next.
static JA_STEP_BEFORE_ARROW: LazyLock<Regex> =
    LazyLock::new(|| Regex::new(r"を[\p{Han}\p{Katakana}ー]{1,6}$").expect("step before arrow"));

/// The instruction's sentences, each as a clause.
pub fn sentences(text: &str) -> Vec<Clause> {
    static END: LazyLock<Regex> = LazyLock::new(|| Regex::new(r"[.?!]\s|[.?!]$|[。？！\n]").expect("sentence end"));
    let mut pieces = Vec::new();
    let mut start = 0;
    for m in END.find_iter(text) {
        if m.as_str().starts_with('.') && ends_with_abbreviation(&text[..m.start()]) {
            continue;
        }
        push(&mut pieces, text, start, m.start(), true);
        start = m.end();
    }
    push(&mut pieces, text, start, text.len(), true);
    pieces
}

/// "e.g. 2026-01", "Acme Co. Ltd", "invoice No. 12": a full stop that ends a word, not a sentence.
fn ends_with_abbreviation(before: &str) -> bool {
    const ABBREVIATIONS: &[&str] = &[
        "e.g", "i.e", "etc", "eg", "ie", "inc", "ltd", "co", "corp", "no", "nos", "vs", "approx", "mr", "ms", "mrs",
        "dr", "st", "dept", "ref",
    ];
    let word = before.rsplit(|c: char| !(c.is_alphanumeric() || c == '.')).next().unwrap_or("");
    ABBREVIATIONS.iter().any(|a| word.eq_ignore_ascii_case(a))
}

fn push(pieces: &mut Vec<Clause>, text: &str, start: usize, end: usize, sentence_start: bool) {
    let piece = &text[start..end];
    let trimmed = piece.trim();
    if !trimmed.is_empty() {
        let offset = start + (piece.len() - piece.trim_start().len());
        pieces.push(Clause { text: trimmed.to_owned(), start: offset, sentence_start });
    }
}

fn join_fragments(pieces: Vec<Clause>, language: Language, lexicon: &Lexicon, text: &str) -> Vec<Clause> {
    let names_operation = |c: &Clause| {
        let lower = c.text.to_ascii_lowercase();
        // 「差戻しと却下のやつは入れないで」: leaving rows out is an operation too.
        // (Not an aside's: 「「未入金」のもの（「一部入金」は除く）」 is said of the next piece's rows.)
        // Only with the values it leaves out said in it.
        let leaves_out = language == Language::Ja
            && lexicon.exclude.is_match(&super::PARENTHESES.replace_all(&lower, ""))
            && super::conditions::japanese(&c.text)
                .iter()
                .any(|condition| condition.operator == "eq" && condition.value.as_str().is_some_and(|v| !v.is_empty()));
        // "take the TX rows, excluding the Cancelled ones": what is left out is a filter of its own.
        // So is a piece that leaves rows out in words of its own ("so Unpaid and Void stay out").
        let excludes = language == Language::En
            && (EN_EXCLUSION_START.is_match(&lower)
                || lexicon.exclude.is_match(&lower) && EN_LEAVES_OUT_ALONE.is_match(&c.text));
        // (「9月〜11月の販売日の行を対象に、区分が「返金」の行は除いて」: the rows taken are kept, apart
        // from those the next piece leaves out.)
        let taken = language == Language::Ja && JA_TAKEN_AS_THE_ROWS.is_match(c.text.trim_end());
        lexicon.verb.is_match(&lower) || lexicon.operation.is_match(&lower) || leaves_out || excludes || taken
    };
    let mut clauses: Vec<Clause> = Vec::new();
    match language {
        Language::En => {
            for piece in pieces {
                match clauses.last_mut() {
                    Some(previous) if !names_operation(&piece) && !piece.sentence_start => {
                        let end = piece.start + piece.text.len();
                        previous.text = text[previous.start..end].to_owned();
                    }
                    _ => clauses.push(piece),
                }
            }
        }
        Language::Ja => {
            // Pieces naming no operation join the next that does: where the first of them starts,
            // and whether it starts a sentence.
            let mut pending: Option<(usize, bool)> = None;
            let mut pieces = pieces.into_iter().peekable();
            while let Some(piece) = pieces.next() {
                let pleasantry = !names_operation(&piece) && JA_PLEASANTRY.is_match(&piece.text);
                if pending.is_none() && (pleasantry || JA_WHO_WRITES.is_match(&piece.text)) {
                    continue;
                }
                // 「平均は小数第1位まで、四捨五入で。」: how the clause before rounds, said last in its
                // sentence, is of that clause, not of the next sentence.
                let ends_sentence = pieces.peek().is_none_or(|next| next.sentence_start);
                if let (None, false, true, Some(previous)) =
                    (pending, piece.sentence_start, ends_sentence, clauses.last_mut())
                {
                    if !names_operation(&piece) && JA_ROUNDING_ALONE.is_match(&piece.text) {
                        previous.text = text[previous.start..piece.start + piece.text.len()].to_owned();
                        continue;
                    }
                }
                let first = pending.take().unwrap_or((piece.start, piece.sentence_start));
                let (start, end) = (first.0, piece.start + piece.text.len());
                let merged = Clause { text: text[start..end].to_owned(), start, sentence_start: piece.sentence_start };
                if names_operation(&piece) {
                    clauses.push(merged);
                } else {
                    pending = Some(first);
                }
            }
            // The last pieces: their own sentence (「…出してください。列は A、B。」), else the end
            // of the last clause.
            if let Some((start, sentence)) = pending {
                match clauses.last_mut() {
                    Some(previous) if !sentence => previous.text = text[previous.start..].trim_end().to_owned(),
                    _ => clauses.push(Clause { text: text[start..].trim().to_owned(), start, sentence_start: true }),
                }
            }
        }
    }
    clauses
}
