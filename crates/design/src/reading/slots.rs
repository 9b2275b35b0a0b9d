//! The values an instruction spells out: file names, URLs, numbers (`10万円`, `1,000`, `5k`),
//! quoted words, and the names of columns around a word.

use std::sync::LazyLock;

use regex::Regex;

use super::Language;

/// A file name with an extension the blocks read or write, anywhere in the text.
static FILE: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(r"(?i)[\p{L}\p{N}_\-./]*[\p{L}\p{N}_\-]\.(csv|tsv|txt|xlsx|xlsm|xls|pdf|docx|md|json|png)")
        .expect("file pattern")
});
static URL: LazyLock<Regex> =
    LazyLock::new(|| Regex::new(r#"https?://[^\s"'<>「」『』（）()、。,]+"#).expect("url pattern"));
/// A number as people write amounts: `1,000`, `1.5`, `10万`, `5千`, `3億`, `5k`, `2m`.
static NUMBER: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(r"(?i)(?:[¥$€£]\s*)?(\d{1,3}(?:,\d{3})+(?:\.\d+)?|\d+(?:\.\d+)?)\s*(万|千|百万|億|k\b|m\b)?")
        .expect("number pattern")
});
static QUOTED: LazyLock<Regex> =
    LazyLock::new(|| Regex::new(r#""([^"]{1,60})"|'([^']{1,60})'|「([^」]{1,60})」|“([^”]{1,60})”"#).expect("quoted"));

/// A file the instruction names, where it was found (byte offset).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FileName {
    pub name: String,
    pub extension: String,
    pub at: usize,
}

impl FileName {
    /// Whether the file is a table (CSV, TSV or a workbook), not a document.
    pub fn is_table(&self) -> bool {
        matches!(self.extension.as_str(), "csv" | "tsv" | "xlsx" | "xlsm" | "xls")
    }
}

pub fn file_names(text: &str) -> Vec<FileName> {
    FILE.find_iter(text)
        // `a.csvx` is no file of ours; `data.csvを` is (Japanese needs no space after a name).
        .filter(|m| !text[m.end()..].starts_with(|c: char| c.is_ascii_alphanumeric() || c == '_'))
        .filter(|m| !in_url(text, m.start(), m.end()))
        .flat_map(|m| split_names(text, m.start(), m.end()))
        .collect()
}

/// The file names in `text[start..end]`, one match of [`FILE`]: 「請求データ.csvの得意先コードを
/// 得意先マスタ.xlsx」 is two, the second from after the last particle before it.
fn split_names(text: &str, start: usize, end: usize) -> Vec<FileName> {
    const EXTENSIONS: [&str; 10] = ["csv", "tsv", "txt", "xlsx", "xlsm", "xls", "pdf", "docx", "md", "json"];
    let found = &text[start..end];
    // Where an earlier name ends inside the match: its extension followed by Japanese.
    let inner = found.char_indices().filter(|(_, c)| *c == '.').find_map(|(i, _)| {
        let rest = found[i + 1..].to_ascii_lowercase();
        EXTENSIONS
            .iter()
            .find(|e| rest.starts_with(*e) && rest[e.len()..].starts_with(|n: char| !n.is_ascii()))
            .map(|e| i + 1 + e.len())
    });
    let Some(split) = inner else {
        return name_at(text, start, end).into_iter().collect();
    };
    let mut names: Vec<FileName> = name_at(text, start, start + split).into_iter().collect();
    names.extend(split_names(text, start + split, end));
    names
}

/// Where each file name of `text` stands (its byte range).
pub fn file_spans(text: &str) -> Vec<std::ops::Range<usize>> {
    file_names(text).iter().map(|f| f.at..f.at + f.name.len()).collect()
}

/// `text` with every file name replaced by spaces of the same length (offsets stay valid).
pub fn without_file_names(text: &str) -> String {
    let mut masked = text.to_owned();
    for span in file_spans(text) {
        if masked.is_char_boundary(span.start) && masked.is_char_boundary(span.end) {
            masked.replace_range(span.clone(), &" ".repeat(span.len()));
        }
    }
    masked
}

/// The name in `text[start..end]`, without the sentence before it (「フォルダのdata.csv」;
/// 「承認済み.csv」 keeps its kana).
fn name_at(text: &str, start: usize, end: usize) -> Option<FileName> {
    let found = &text[start..end];
    // A particle or a verb's て ends the sentence before a name (「数えて件数.csv」); の and
    // the rest may be part of a Japanese name (「売上の明細.xlsx」) unless an ASCII name follows.
    // (「リコールはがき送付先.csv」: a kana of a word, the hiragana after it going on with the word.)
    let hiragana_after =
        |i: usize, c: char| found[i + c.len_utf8()..].starts_with(|n: char| ('ぁ'..='ゖ').contains(&n));
    let cut = found.char_indices().rfind(|(i, c)| {
        matches!(c, 'を' | 'は' | 'が' | 'に' | 'で' | 'へ' | 'や' | 'と' | 'て') && !hiragana_after(*i, *c)
            || matches!(c, 'の' | 'も' | 'ら')
                && found[i + c.len_utf8()..].starts_with(|n: char| n.is_ascii_alphanumeric())
            // (「売上.csvから得意先.csvの」: から ends the name before.)
            || *c == 'ら' && found[..*i].ends_with('か')
    });
    let start = start + cut.map_or(0, |(i, c)| i + c.len_utf8());
    let name = text[start..end].trim_start_matches(['.', '/']).to_owned();
    let extension = name.rsplit('.').next().unwrap_or_default().to_ascii_lowercase();
    (name.len() > extension.len() + 1).then_some(FileName { name, extension, at: start })
}

/// Whether `start..end` is part of a URL (the whitespace-delimited word holding it has `://`).
fn in_url(text: &str, start: usize, end: usize) -> bool {
    // The whitespace before the word may be wider than a byte (a no-break space).
    let word_start =
        text[..start].char_indices().rev().find(|(_, c)| c.is_whitespace()).map_or(0, |(i, c)| i + c.len_utf8());
    let word_end = text[end..].find(char::is_whitespace).map_or(text.len(), |i| end + i);
    text[word_start..word_end].contains("://")
}

/// URLs, with their offsets; a trailing `.` or `)` is not part of one.
pub fn urls(text: &str) -> Vec<(String, usize)> {
    URL.find_iter(text)
        .map(|m| (m.as_str().trim_end_matches(['.', ')', ',', ';', ':']).to_owned(), m.start()))
        .collect()
}

/// A number found in text, its value and where it is.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Number {
    pub value: f64,
    pub start: usize,
    pub end: usize,
}

pub fn numbers(text: &str) -> Vec<Number> {
    NUMBER
        .captures_iter(text)
        .filter_map(|c| {
            let whole = c.get(0)?;
            let digits = c.get(1)?.as_str().replace(',', "");
            let mut value: f64 = digits.parse().ok()?;
            value *= match c.get(2).map(|m| m.as_str().to_ascii_lowercase()) {
                Some(unit) if unit == "万" => 10_000.0,
                Some(unit) if unit == "千" || unit == "k" => 1_000.0,
                Some(unit) if unit == "百万" || unit == "m" => 1_000_000.0,
                Some(unit) if unit == "億" => 100_000_000.0,
                _ => 1.0,
            };
            // Part of a file name, a date or a URL: not an amount.
            let next = text[whole.end()..].chars().next();
            let prev = text[..whole.start()].chars().next_back();
            if matches!(next, Some('.' | '-' | '/' | '_')) && c.get(2).is_none()
                || matches!(prev, Some('-' | '/' | '_' | '.'))
                || prev.is_some_and(|p| p.is_ascii_alphabetic())
            {
                return None;
            }
            value.is_finite().then_some(Number { value, start: whole.start(), end: whole.end() })
        })
        .collect()
}

/// Small counts said in words ("two or more times", "at least three", "twice", 「二回以上」),
/// with their offsets: a figure like any other, though no digit says it. Not a situation ("where
/// two invoices share a date") or the files a job reads ("the two files").
pub fn number_words(text: &str) -> Vec<Number> {
    NUMBER_WORD
        .captures_iter(text)
        .filter(|c| {
            let whole = c.get(0).map_or(0..0, |m| m.range());
            let before = text[..whole.start].trim_end().to_ascii_lowercase();
            let situation = ["where", "when", "if", "whenever"].iter().any(|w| before.ends_with(w));
            // "twice in the list" counts no lists: the words between describe what is counted.
            let files = NUMBER_WORD_FILES.captures(&text[whole.end..]).is_some_and(|f| {
                f["between"].split_whitespace().all(|w| {
                    !matches!(
                        w.to_ascii_lowercase().as_str(),
                        "in" | "on"
                            | "of"
                            | "the"
                            | "a"
                            | "an"
                            | "from"
                            | "to"
                            | "for"
                            | "per"
                            | "across"
                            | "both"
                            | "each"
                    )
                })
            });
            !situation && !files
        })
        .filter_map(|c| {
            let m = c.name("en").or(c.name("ja"))?;
            let value = super::number(&m.as_str().to_ascii_lowercase())?;
            Some(Number { value: value as f64, start: m.start(), end: m.end() })
        })
        .collect()
}

static NUMBER_WORD: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(
        r"(?i)\b(?P<en>two|twice|three|thrice|four|five|six|seven|eight|nine|ten|eleven|twelve|fifteen|twenty|thirty|fifty|hundred)\b|(?P<ja>[二三四五六七八九十])(?:回|件|度|人|日|か月|ヶ月|カ月)",
    )
    .expect("number words")
});

/// What a job reads, counted after the number: "two files", "three CSV exports", "Two AP batch
/// files"; and the columns a table has ("all five columns", counted by their own check).
static NUMBER_WORD_FILES: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(r"(?i)^\s+(?P<between>(?:\w+\s+){0,3}?)(?:files?|tables?|sheets?|workbooks?|csvs?|exports?|lists?|reports?|columns?|cols?|fields?)\b")
        .expect("files counted")
});

/// A number as a plan writes it: an integer when it is one.
pub fn number_value(value: f64) -> serde_json::Value {
    if value.fract() == 0.0 && value.abs() < 9.0e15 {
        serde_json::Value::from(value as i64)
    } else {
        serde_json::Value::from(value)
    }
}

/// Words in quotes (`"paid"`, `「未払い」`), with their offsets.
pub fn quoted(text: &str) -> Vec<(String, usize)> {
    QUOTED
        .captures_iter(text)
        .filter_map(|c| {
            let m = (1..=4).find_map(|i| c.get(i))?;
            Some((m.as_str().trim().to_owned(), c.get(0)?.start()))
        })
        .collect()
}

/// Words that name what the rows are, not a column: "keep the invoices over 100" compares an
/// amount, not a column called invoices.
const ROW_NOUNS: &[&str] = &[
    "row",
    "rows",
    "line",
    "lines",
    "record",
    "records",
    "entry",
    "entries",
    "item",
    "items",
    "invoice",
    "invoices",
    "payment",
    "payments",
    "expense",
    "expenses",
    "transaction",
    "transactions",
    "order",
    "orders",
    "one",
    "ones",
    "data",
    "those",
    "them",
    "it",
    "claims",
    "claim",
    "receipts",
    "bills",
    "sales",
    "deposits",
    "the",
    "a",
    "an",
    "with",
    "where",
    "whose",
    "that",
    "which",
    "is",
    "are",
    "of",
    "and",
    "or",
    "keep",
    "only",
    "all",
    "any",
    "each",
    "in",
    "for",
    "to",
    "than",
    "be",
    "has",
    "have",
    "value",
    "values",
];

pub fn is_row_noun(word: &str) -> bool {
    ROW_NOUNS.contains(&word.to_ascii_lowercase().as_str())
}

/// The English words right before `end` that can name a column: at most three, stopping at a
/// word that names rows or joins phrases ("the approved invoices whose amount" → `amount`).
pub fn english_field_before(text: &str, end: usize) -> Option<String> {
    // "the Wire payments (method = Wire) of 10,000.00": an aside says more of the rows, it is
    // no column's name.
    let before = super::PARENTHESES.replace_all(&text[..end], " ");
    let words: Vec<&str> =
        before.split(|c: char| !(c.is_alphanumeric() || c == '_')).filter(|w| !w.is_empty()).collect();
    // "the disposals dated July 1 to Sept 30": the rows, dated; the column is their date's.
    if words.last().is_some_and(|w| w.eq_ignore_ascii_case("dated")) {
        return None;
    }
    let mut picked: Vec<&str> = Vec::new();
    for word in words.iter().rev() {
        if picked.is_empty() && CONNECTORS.contains(&word.to_ascii_lowercase().as_str()) {
            continue;
        }
        if is_row_noun(word) || word.chars().all(|c| c.is_ascii_digit()) || picked.len() == 3 {
            break;
        }
        if is_verb_like(word) {
            break;
        }
        picked.push(word);
    }
    picked.reverse();
    (!picked.is_empty()).then(|| picked.join(" "))
}

/// Words between a column and its value: "amount *of* 100", "total *is* over", "end date
/// *falls in* January 2027", "turbidity *came back* over 4".
const CONNECTORS: &[&str] = &[
    "of",
    "is",
    "are",
    "be",
    "was",
    "at",
    "to",
    "than",
    "value",
    "falls",
    "fall",
    "lands",
    "land",
    "in",
    "within",
    "back",
    "came",
    "comes",
    "come",
    "measured",
    "measures",
    "tested",
    "recorded",
    "registered",
    "showed",
    "shows",
    "reached",
    "went",
    "goes",
    "got",
];

fn is_verb_like(word: &str) -> bool {
    matches!(
        word.to_ascii_lowercase().as_str(),
        "filter"
            | "took"
            | "take"
            | "takes"
            | "lasted"
            | "waited"
            | "needed"
            | "select"
            | "drop"
            | "remove"
            | "exclude"
            | "read"
            | "load"
            | "sum"
            | "count"
            | "by"
            | "per"
            | "on"
            | "at"
            | "not"
            | "no"
            | "over"
            | "under"
            | "above"
            | "below"
            | "more"
            | "less"
            | "least"
            | "most"
            | "greater"
            | "exceeds"
            | "exceed"
            | "exceeding"
            | "equal"
            | "equals"
    )
}

/// The English noun phrase starting at `start`: words up to a joining word or punctuation, at
/// most three, plural made singular ("departments" → `department`).
pub fn english_phrase_after(text: &str, start: usize) -> Option<String> {
    let mut picked: Vec<String> = Vec::new();
    // (A line break ends a word as a space does: "asset id)\nSave as …".)
    for word in text[start..].split_whitespace() {
        // "month (written like 2026-07)": what is in brackets says more about it, it is not its name.
        if word.starts_with(['(', '（']) {
            break;
        }
        let clean: String = word.chars().filter(|c| c.is_alphanumeric() || *c == '_' || *c == '-').collect();
        let lower = clean.to_ascii_lowercase();
        if clean.is_empty() || STOP_AFTER.contains(&lower.as_str()) || picked.len() == 3 {
            break;
        }
        if matches!(lower.as_str(), "the" | "a" | "an" | "each" | "every" | "those" | "these") && picked.is_empty() {
            continue;
        }
        picked.push(clean);
        if word.ends_with([',', '.', ';', ':', ')']) {
            break;
        }
    }
    let last = picked.pop()?;
    picked.push(singular(&last));
    Some(picked.join(" "))
}

const STOP_AFTER: &[&str] = &[
    "and",
    "then",
    "to",
    "into",
    "in",
    "as",
    "with",
    "from",
    "for",
    "of",
    "on",
    "where",
    "whose",
    "which",
    "that",
    "and",
    "or",
    "write",
    "save",
    "export",
    "output",
    "keep",
    "only",
    "is",
    "are",
    "over",
    "above",
    "under",
    "below",
    "using",
    "by",
    "per",
    "at",
    "than",
    "if",
    "when",
    "before",
    "after",
    "so",
    "but",
    "sorted",
    "in",
    "against",
    // "per suite give runs and …": a verb after the phrase ends it.
    "give",
    "show",
    "list",
    "return",
    "plus",
    "including",
    // "per category I need …", "On Hand strictly less than": who asks, and how a comparison is.
    "i",
    "we",
    "you",
    "they",
    "please",
    "need",
    "want",
    "strictly",
    // "average invoice amount rounded to 2 decimals": how it is rounded is no part of its name.
    "rounded",
    "rounding",
    "truncated",
];

/// English plural to singular, for the common endings of column names.
pub fn singular(word: &str) -> String {
    let lower = word.to_ascii_lowercase();
    // (Words one and many alike.)
    if ["species", "series", "news", "status", "analysis", "basis"].iter().any(|w| lower.ends_with(w)) {
        return word.to_owned();
    }
    if lower.ends_with("ies") && word.len() > 4 {
        format!("{}y", &word[..word.len() - 3])
    } else if lower.ends_with("sses") || lower.ends_with("xes") || lower.ends_with("ches") || lower.ends_with("shes") {
        word[..word.len() - 2].to_owned()
    } else if lower.ends_with('s') && !lower.ends_with("ss") && !lower.ends_with("us") && word.len() > 3 {
        word[..word.len() - 1].to_owned()
    } else {
        word.to_owned()
    }
}

/// Japanese particles and punctuation that end a noun going backwards from a word.
const JA_BOUNDARY: &[char] = &[
    'を', 'が', 'は', 'の', 'で', 'に', 'と', 'も', 'へ', 'や', '、', '。', ' ', '　', '「', '」', '(', ')', '（',
    '）', ',', '.', '・', 'て', 'し', 'た', 'り',
];

/// The Japanese noun right before byte offset `end` (`取引先ごと` at `ごと` → `取引先`): characters
/// back to a particle, at most 16.
pub fn japanese_noun_before(text: &str, end: usize) -> Option<String> {
    // 「稼働時間（分）を」「計画時間と稼働時間（どちらも分）を」: the name before an aside that
    // gives its unit or a remark; 「金額（税抜）を」 names the column with its brackets.
    if let Some((open, inside)) = aside_before(&text[..end]) {
        let base = japanese_noun_before(text, open)?;
        let remark =
            inside.chars().any(|c| matches!(c, '\u{3041}'..='\u{309f}')) || ASIDE_UNITS.contains(&inside.trim());
        return Some(if remark { base } else { format!("{base}{}", &text[open..end].trim_end()) });
    }
    let noun: String = text[..end].chars().rev().take_while(|c| !JA_BOUNDARY.contains(c)).take(16).collect();
    let noun: String = noun.chars().rev().collect();
    // 「売上.csvから10万円以上」: a particle alone is no noun.
    if ["から", "より", "まで"].contains(&noun.trim()) {
        return None;
    }
    // 「1人あたり金額」: an amount per unit is one name (its り would end it).
    let before = text[..end - noun.len()].trim_end_matches(' ');
    let per_unit = ["あたり", "当たり"]
        .iter()
        .any(|w| before.ends_with(w))
        .then(|| {
            // (The counter and its number are a few characters back.)
            let from = before.char_indices().rev().nth(8).map_or(0, |(i, _)| i);
            PER_UNIT_BEFORE.find(&before[from..])
        })
        .flatten();
    let noun = match per_unit {
        Some(m) if !noun.trim().is_empty() => format!("{}{}", m.as_str(), noun.trim()),
        _ => noun,
    };
    let noun = noun.trim();
    (!noun.is_empty() && !noun.chars().all(|c| c.is_ascii_digit())).then(|| noun.to_owned())
}

/// Units said in brackets after a column's name: 「稼働時間（分）」 is 稼働時間.
const ASIDE_UNITS: &[&str] = &[
    "分", "秒", "時間", "日", "円", "千円", "万円", "ドル", "件", "人", "個", "回", "台", "%", "％", "kg", "km", "L",
    "h", "min",
];

/// Where a bracketed aside that `text` ends with opens (「稼働時間（分）」 → at （), and what it
/// holds: a short one, with no brackets inside.
fn aside_before(text: &str) -> Option<(usize, &str)> {
    let trimmed = text.trim_end();
    let closing = trimmed.strip_suffix('）').or_else(|| trimmed.strip_suffix(')'))?;
    let open = closing.rfind(['（', '('])?;
    let inside = &closing[open + closing[open..].chars().next()?.len_utf8()..];
    (inside.chars().count() <= 12 && !inside.contains(['（', '(', ')', '）']) && open > 0).then_some((open, inside))
}

/// 「1人あたり」「一件当たり」 at the end of a text: a column's name goes on after it.
static PER_UNIT_BEFORE: LazyLock<Regex> =
    LazyLock::new(|| Regex::new(&format!("{PER_UNIT}$")).expect("per unit before"));

/// A number, its counter and 「あたり」: 「1人あたり」「一件当たり」.
const PER_UNIT: &str =
    r"(?:[0-9０-９]+|[一二三四五六七八九十])(?:人|件|日|台|個|回|名|社|時間|か月|ヶ月|カ月)(?:あたり|当たり)";

/// Whether `text` names an amount per unit (「1人あたり金額」): its digits are no number compared.
pub fn per_unit_name(text: &str) -> bool {
    PER_UNIT_NAME.is_match(text)
}

static PER_UNIT_NAME: LazyLock<Regex> =
    LazyLock::new(|| Regex::new(&format!(r"^{PER_UNIT}[\p{{Han}}\p{{Katakana}}ー]+$")).expect("per unit name"));

/// Whether `text` can be a Japanese noun (a column's name): not empty, at most 16 characters,
/// not starting with a particle and holding no verb ending (「に合計した一覧」 is a phrase).
pub fn is_japanese_noun(text: &str) -> bool {
    const PARTICLES: [char; 9] = ['に', 'を', 'が', 'は', 'で', 'と', 'の', 'へ', 'も'];
    const VERB_ENDINGS: [&str; 8] = ["した", "して", "する", "され", "ごと", "ている", "てい", "しい"];
    !text.is_empty()
        && text.chars().count() <= 16
        && !text.starts_with(PARTICLES)
        && !VERB_ENDINGS.iter().any(|e| text.contains(e))
}

/// The Japanese noun right after byte offset `start`, up to a particle.
pub fn japanese_noun_after(text: &str, start: usize) -> Option<String> {
    let noun: String = text[start..].chars().take_while(|c| !JA_BOUNDARY.contains(c)).take(16).collect();
    let noun = noun.trim();
    (!noun.is_empty()).then(|| noun.to_owned())
}

/// `text` with each range blanked (same length), so that no other reading takes what they say.
pub fn blanked(text: &str, ranges: impl IntoIterator<Item = std::ops::Range<usize>>) -> String {
    let mut blanked = text.to_owned();
    for range in ranges {
        let spaces = " ".repeat(range.len());
        blanked.replace_range(range, &spaces);
    }
    blanked
}

/// Where the clause said from `from` ends: its next comma, semicolon, line break or full stop
/// that ends a sentence (not one in a file name or a value such as "N/A."), in either script.
pub fn clause_end(text: &str, from: usize) -> usize {
    let rest = &text[from..];
    let stop = rest.find([',', ';', '、', '。', '\n']).unwrap_or(rest.len());
    let sentence = rest.find(". ").or_else(|| rest.strip_suffix('.').map(str::len)).unwrap_or(rest.len());
    from + stop.min(sentence)
}

/// A list written `A, B and C`, `A・B・C`, `A、B、C` or `A/B`: its items, trimmed.
static SLASH_BETWEEN_LETTERS: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(r"(?P<a>\b[A-Za-z]\w*)/(?P<b>[A-Za-z]\w*)(?P<end>\s*,|\s*$|\s+and\b|\s+or\b)")
        .expect("slash between letters")
});

pub fn list_items(text: &str) -> Vec<String> {
    // ("…, proceeds and gain/loss" is one name, an item of its own; "each department/category
    // combination" and 「A/B」 list them.)
    let unified = SLASH_BETWEEN_LETTERS.replace_all(text, "${a}\u{1}${b}${end}");
    let unified = unified
        .replace(" and ", ",")
        .replace(" or ", ",")
        .replace(['・', '、', '/', '／', '及'], ",")
        .replace('\u{1}', "/");
    unified
        .split(',')
        .map(|s| s.trim().trim_start_matches("the ").trim_start_matches("および").trim_start_matches("と").trim())
        .map(|s| s.trim_end_matches(['と', 'や']).trim().to_owned())
        .filter(|s| !s.is_empty() && s.chars().count() <= 40)
        .collect()
}

/// An identifier for a var or a node made of `words` (`Invoice No.` → `invoice_no`); `None`
/// when nothing ASCII is left (Japanese words name vars by role instead).
pub fn identifier(words: &str) -> Option<String> {
    let mut id = String::new();
    for c in words.chars() {
        if c.is_ascii_alphanumeric() {
            id.push(c.to_ascii_lowercase());
        } else if !id.ends_with('_') && !id.is_empty() {
            id.push('_');
        }
    }
    let id = id.trim_matches('_').chars().take(40).collect::<String>();
    let id = id.trim_end_matches('_').to_owned();
    match id.chars().next() {
        Some(c) if c.is_ascii_alphabetic() => Some(id),
        Some(_) => Some(format!("n_{id}")),
        None => None,
    }
}

/// Whether the words after a value say it shows how something is written (「」のような形」
/// 「」みたいに」「」形式で」): an example, which keeps no rows.
pub fn shows_a_form(after: &str) -> bool {
    let after = after.trim_start_matches(['」', '』', ' ']);
    ["のよう", "みたい", "形式", "形で", "の形", "という形", "のかたち"].iter().any(|w| after.starts_with(w))
}

/// The words of a clause that may be values in the data: English words of three letters or
/// more that name no rows and are no common word; Japanese runs of kanji or katakana.
pub fn value_words(clause: &str, language: Language) -> Vec<String> {
    const COMMON: &[&str] = &[
        "the", "and", "for", "from", "with", "that", "this", "those", "these", "only", "every", "each", "all", "any",
        "keep", "need", "want", "please", "save", "them", "their", "dated", "over", "under", "more", "less", "than",
        "which", "where", "whose", "are", "was", "were", "not", "also", "just", "into", "out", "list", "give",
        // ("Keep all the existing columns" of a table with an element `Columns`: the table's own
        // words.)
        "column", "columns", "field", "fields", "header", "headers",
    ];
    let mut words = Vec::new();
    match language {
        Language::En => {
            // Single words and runs of two or three ("Sarah Kim"), a value being a whole cell.
            let tokens: Vec<&str> = clause
                .split_whitespace()
                .map(|w| w.trim_matches(|c: char| !(c.is_alphanumeric() || c == '&')))
                .filter(|w| !w.is_empty())
                .collect();
            // "NG", "HR", "R2": a code in capitals is a value however short.
            let code = |w: &str| {
                w.len() == 2
                    && w.starts_with(|c: char| c.is_ascii_uppercase())
                    && w.chars().all(|c| c.is_ascii_uppercase() || c.is_ascii_digit())
            };
            let plain = |w: &str| {
                let lower = w.to_ascii_lowercase();
                (w.chars().count() >= 3 || code(w))
                    && w.chars().any(char::is_alphabetic)
                    && !COMMON.contains(&lower.as_str())
                    && !is_row_noun(&lower)
                    && !is_row_noun(&singular(&lower))
            };
            // A value of several words may begin or end with a short one ("On Hold").
            let edge = |w: &str| {
                let lower = w.to_ascii_lowercase();
                w.chars().count() >= 2 && w.chars().all(char::is_alphabetic) && !COMMON.contains(&lower.as_str())
            };
            // "could you check payments.csv", "please review …": the verb a request starts with
            // (in lower case) says what to do, not a value ("Check" of a payment method).
            let requested = |at: usize| {
                let before = |back: usize| at.checked_sub(back).map(|i| tokens[i].to_ascii_lowercase());
                tokens[at].starts_with(|c: char| c.is_ascii_lowercase())
                    && (before(1).is_some_and(|w| ["please", "pls", "kindly"].contains(&w.as_str()))
                        || before(1).as_deref() == Some("you")
                            && before(2).is_some_and(|w| ["could", "can", "would", "will"].contains(&w.as_str())))
            };
            // "signed up for the Harbor Half": the last word of a name in capitals after "the" is
            // part of the name, whatever a column holds.
            let capital = |w: &str| w.starts_with(|c: char| c.is_ascii_uppercase());
            let ends_a_name =
                |at: usize| at >= 2 && capital(tokens[at]) && capital(tokens[at - 1]) && tokens[at - 2] == "the";
            for n in 1..=3 {
                for (at, run) in tokens.windows(n).enumerate() {
                    if requested(at) || n == 1 && ends_a_name(at) {
                        continue;
                    }
                    let ends = if n == 1 { plain(run[0]) } else { edge(run[0]) && edge(run[n - 1]) };
                    if ends && (plain(run[0]) || plain(run[n - 1])) {
                        words.push(run.join(" "));
                    }
                }
            }
        }
        Language::Ja => {
            // Runs of kanji or katakana, and of Latin letters and digits with a letter (「NG」).
            words.extend(
                without_file_names(clause)
                    .split(|c: char| !c.is_ascii_alphanumeric())
                    .filter(|w| w.len() >= 2 && w.chars().any(|c| c.is_ascii_alphabetic()))
                    .map(str::to_owned),
            );
            let mut run = String::new();
            for c in clause.chars().chain(std::iter::once(' ')) {
                let kanji_or_katakana = matches!(c, '\u{4e00}'..='\u{9fff}' | '\u{30a0}'..='\u{30ff}');
                if kanji_or_katakana {
                    run.push(c);
                } else {
                    // (「確定分」: the rows of a value, 確定.)
                    if let Some(value) = run.strip_suffix('分').filter(|v| v.chars().count() >= 2) {
                        words.push(value.to_owned());
                    }
                    if run.chars().count() >= 2 {
                        words.push(std::mem::take(&mut run));
                    }
                    run.clear();
                }
            }
        }
    }
    words
}

/// Whether a file's name says `month`: its name or first three letters as a word
/// (`expenses_oct.csv`), 「11月」, or a year and the month (`sales_2026-04.csv`, `202604`).
pub fn file_names_month(file: &str, month: u32) -> bool {
    let lower = file.to_ascii_lowercase();
    let name = super::month_name(month).to_ascii_lowercase();
    let words = lower.split(|c: char| !c.is_ascii_alphabetic());
    let named = words.into_iter().any(|w| w == name || name.get(..3) == Some(w) || (month == 9 && w == "sept"));
    let digits_before = |at: usize| lower[..at].chars().next_back().is_some_and(|c| c.is_ascii_digit());
    let japanese = lower.match_indices(&format!("{month}月")).any(|(at, _)| !digits_before(at));
    let numbered = YEAR_AND_MONTH.captures_iter(&lower).any(|c| c["m"].parse() == Ok(month));
    named || japanese || numbered
}

/// Whether a file's name is of quarter `quarter` (1–4): `sales_q1.csv`, `2026Q3_orders.xlsx`.
pub fn file_names_quarter(file: &str, quarter: u32) -> bool {
    let lower = file.to_ascii_lowercase();
    let q = format!("q{quarter}");
    let letter = |c: Option<char>| c.is_some_and(|c| c.is_ascii_alphabetic());
    let digit = |c: Option<char>| c.is_some_and(|c| c.is_ascii_digit());
    lower
        .match_indices(&q)
        .any(|(at, _)| !letter(lower[..at].chars().next_back()) && !digit(lower[at + q.len()..].chars().next()))
}

/// A year and its month in a file's name: `sales_2026-04.csv`, `202604`.
static YEAR_AND_MONTH: LazyLock<Regex> =
    LazyLock::new(|| Regex::new(r"(?:19|20)\d\d[-_]?(?P<m>0[1-9]|1[0-2])(?:[^0-9]|$)").expect("year and month"));

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn plurals_are_made_singular_but_words_one_and_many_alike_stay() {
        assert_eq!(singular("categories"), "category");
        assert_eq!(singular("invoices"), "invoice");
        assert_eq!(singular("species"), "species");
        assert_eq!(singular("series"), "series");
    }

    #[test]
    fn a_files_quarter_is_a_q_and_its_digit_alone() {
        assert!(file_names_quarter("sales_q1.csv", 1));
        assert!(file_names_quarter("2026Q3_orders.xlsx", 3));
        assert!(!file_names_quarter("sales_q1.csv", 3));
        assert!(!file_names_quarter("faq12.csv", 1));
        assert!(!file_names_quarter("techq1.csv", 1));
    }

    #[test]
    fn counts_said_in_words_are_figures_but_not_a_situation_or_the_files_read() {
        let values = |text: &str| number_words(text).iter().map(|n| n.value).collect::<Vec<_>>();
        assert_eq!(values("tests that failed two or more times"), [2.0]);
        assert_eq!(values("the top three customers"), [3.0]);
        assert!(values("where two invoices share a date, by invoice number").is_empty());
        assert!(values("Please combine the two CSV files into one").is_empty());
        assert_eq!(values("NGが三回以上のもの"), [3.0]);
    }

    #[test]
    fn amounts_are_read_as_people_write_them() {
        let values: Vec<f64> = numbers("over 1,000 and 10万円 or 5k, ¥2.5, 3億").iter().map(|n| n.value).collect();
        assert_eq!(values, [1000.0, 100000.0, 5000.0, 2.5, 300000000.0]);
        assert!(numbers("file_2024.csv dated 2024-04-01").is_empty());
    }

    #[test]
    fn japanese_names_run_together_are_told_apart() {
        let names = |text: &str| file_names(text).into_iter().map(|f| f.name).collect::<Vec<_>>();
        assert_eq!(
            names("請求データ.csvの得意先コードを得意先マスタ.xlsxで照合"),
            ["請求データ.csv", "得意先マスタ.xlsx"]
        );
        assert_eq!(names("受注.csvの商品コードで商品マスタ.xlsxと突き合わせ"), ["受注.csv", "商品マスタ.xlsx"]);
        assert_eq!(names("フォルダのdata.csvを読み、売上の明細.xlsxに保存"), ["data.csv", "売上の明細.xlsx"]);
        assert_eq!(names("請求書管理.csvの状態ごとの件数を数えて件数.csvに出して"), ["請求書管理.csv", "件数.csv"]);
        assert_eq!(names("件数を数えて結果.csvに出して"), ["結果.csv"]);
    }

    #[test]
    fn file_names_and_urls_are_found_apart() {
        let files = file_names("Read 経理/入金_2024.csv and https://example.com/a.csv, write out.xlsx.");
        let names: Vec<&str> = files.iter().map(|f| f.name.as_str()).collect();
        assert_eq!(names, ["経理/入金_2024.csv", "out.xlsx"]);
        assert_eq!(urls("open https://example.com/login.")[0].0, "https://example.com/login");
    }

    #[test]
    fn nouns_are_taken_around_a_word() {
        let text = "取引先ごとに合計";
        assert_eq!(japanese_noun_before(text, text.find("ごと").unwrap()).as_deref(), Some("取引先"));
        assert_eq!(english_field_before("rows whose total amount", 23).as_deref(), Some("total amount"));
        assert_eq!(english_phrase_after("per departments and write", 4).as_deref(), Some("department"));
        assert_eq!(identifier("Invoice No."), Some("invoice_no".into()));
        assert_eq!(identifier("取引先"), None);
        assert_eq!(list_items("invoice number, date and total"), ["invoice number", "date", "total"]);
    }
}
