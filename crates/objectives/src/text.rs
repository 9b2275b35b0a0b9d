//! Text as steps and pages write it: folded for comparison (NFKC, lower case, dashes and spaces
//! made one), quoted phrases found, and words — English words, and for Japanese the runs of
//! kanji, katakana and Latin letters that carry meaning (hiragana runs are grammar).

use unicode_normalization::UnicodeNormalization;

/// `text` folded for comparison: NFKC (full-width letters and digits become ASCII), lower case,
/// every dash and minus as `-`, every run of white space as one space, trimmed.
pub fn fold(text: &str) -> String {
    // NFKC leaves ASCII as it is, and no dash it maps is ASCII: English text skips it (a step of
    // a few hundred kilobytes is folded on every look at the page).
    if text.is_ascii() {
        return fold_chars(text.chars(), text.len());
    }
    fold_chars(text.nfkc(), text.len())
}

/// [`fold`] of `chars`, already in NFKC, into a string of `capacity` bytes to start with.
fn fold_chars(chars: impl Iterator<Item = char>, capacity: usize) -> String {
    let mut out = String::with_capacity(capacity);
    let mut space = false;
    for c in chars {
        let c = match c {
            '\u{2010}'..='\u{2015}' | '\u{2212}' | '\u{30FC}' if c != '\u{30FC}' => '-',
            c => c,
        };
        if c.is_whitespace() {
            space = !out.is_empty();
            continue;
        }
        if space {
            out.push(' ');
            space = false;
        }
        out.extend(c.to_lowercase());
    }
    out
}

/// The quotation marks a step may put around a name or a value, opening → closing.
const QUOTES: &[(char, char)] =
    &[('「', '」'), ('『', '』'), ('"', '"'), ('“', '”'), ('‘', '’'), ('＂', '＂'), ('\'', '\'')];

/// A quoted phrase of a step: its text and where it stands (byte offsets of the marks).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Quoted {
    pub text: String,
    pub start: usize,
    pub end: usize,
}

/// The quoted phrases of `text`, in order. An apostrophe inside a word (`don't`, `customer's`)
/// is not a quote; a quote never closed is text.
pub fn quoted(text: &str) -> Vec<Quoted> {
    let mut found = Vec::new();
    let mut chars = text.char_indices().peekable();
    let mut previous: Option<char> = None;
    while let Some((start, c)) = chars.next() {
        let Some(&(_, close)) = QUOTES.iter().find(|(open, _)| *open == c) else {
            previous = Some(c);
            continue;
        };
        // `'` opens only at a word's start, so that apostrophes stay text.
        if c == '\'' && previous.is_some_and(char::is_alphanumeric) {
            previous = Some(c);
            continue;
        }
        let rest = &text[start + c.len_utf8()..];
        let end = rest.char_indices().find(|&(i, d)| {
            d == close && (close != '\'' || !rest[i + d.len_utf8()..].chars().next().is_some_and(char::is_alphanumeric))
        });
        match end {
            Some((i, d)) if !rest[..i].trim().is_empty() => {
                let end = start + c.len_utf8() + i + d.len_utf8();
                found.push(Quoted { text: rest[..i].trim().to_owned(), start, end });
                while chars.peek().is_some_and(|&(j, _)| j < end) {
                    chars.next();
                }
                previous = Some(d);
            }
            _ => previous = Some(c),
        }
    }
    found
}

/// `text` with its quoted phrases replaced by `replacement` (each its own), so that words
/// inside quotes are not read as the step's own words.
pub fn without_quotes(text: &str, quoted: &[Quoted], replacement: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let mut at = 0;
    for q in quoted {
        out.push_str(&text[at..q.start]);
        out.push_str(replacement);
        at = q.end;
    }
    out.push_str(&text[at..]);
    out
}

/// Whether `c` is written in a Japanese script (kana, kanji, the iteration and long marks).
pub fn is_japanese(c: char) -> bool {
    matches!(c, '\u{3040}'..='\u{30FF}' | '\u{3400}'..='\u{4DBF}' | '\u{4E00}'..='\u{9FFF}' | '\u{F900}'..='\u{FAFF}' | '々' | '〆')
}

fn is_hiragana(c: char) -> bool {
    matches!(c, '\u{3040}'..='\u{309F}')
}

/// The words of `text`, folded: English words (letters, digits and the `.`, `@`, `-`, `:`, `/`
/// inside them, so an email, a time or a code stays one word), and Japanese runs of kanji,
/// katakana or Latin letters; hiragana separates (it is mostly grammar: を, に, で, する).
pub fn words(text: &str) -> Vec<String> {
    let folded = fold(text);
    let mut out = Vec::new();
    let mut word = String::new();
    let flush = |word: &mut String, out: &mut Vec<String>| {
        let trimmed = word.trim_matches(|c: char| matches!(c, '.' | '-' | ':' | '/' | '@'));
        if !trimmed.is_empty() {
            out.push(trimmed.to_owned());
        }
        word.clear();
    };
    let mut last_japanese = false;
    let mut chars = folded.chars().peekable();
    while let Some(c) = chars.next() {
        // 12,400: a thousands separator keeps an amount one word.
        if c == ',' && word.ends_with(|d: char| d.is_ascii_digit()) && chars.peek().is_some_and(char::is_ascii_digit) {
            word.push(c);
            continue;
        }
        let japanese = is_japanese(c) && !is_hiragana(c);
        if c.is_alphanumeric() && !is_hiragana(c) {
            // A change of script is a word boundary (`csvダウンロード` → csv, ダウンロード).
            if !word.is_empty() && japanese != last_japanese {
                flush(&mut word, &mut out);
            }
            word.push(c);
            last_japanese = japanese;
        } else if matches!(c, '.' | '@' | '-' | ':' | '/' | '_' | '\'') && !word.is_empty() && !last_japanese {
            word.push(c);
        } else {
            flush(&mut word, &mut out);
        }
    }
    flush(&mut word, &mut out);
    out
}

/// Whether the folded `haystack` holds the folded `needle` as whole words (Latin) or as a run
/// of characters (Japanese, which has no spaces).
pub fn contains_phrase(haystack: &str, needle: &str) -> bool {
    contains_folded(&fold(haystack), &fold(needle))
}

/// [`contains_phrase`] of texts already folded: a caller that has folded a long text once
/// checks many phrases against it without folding it again for each.
pub fn contains_folded(haystack: &str, needle: &str) -> bool {
    if needle.is_empty() {
        return false;
    }
    let mut from = 0;
    while let Some(i) = haystack[from..].find(needle) {
        let start = from + i;
        let end = start + needle.len();
        let before = haystack[..start].chars().next_back();
        let after = haystack[end..].chars().next();
        let bounded = |c: Option<char>, edge: Option<char>| {
            c.is_none_or(|c| !c.is_alphanumeric() || is_japanese(c) || edge.is_some_and(is_japanese))
        };
        if bounded(before, needle.chars().next()) && bounded(after, needle.chars().next_back()) {
            return true;
        }
        from = start + needle.chars().next().map_or(1, char::len_utf8);
    }
    false
}

/// English words that say nothing about which element is meant.
const STOP_WORDS: &[&str] = &[
    "a", "an", "the", "to", "of", "in", "on", "at", "for", "and", "or", "with", "by", "from", "into", "onto", "as",
    "is", "are", "be", "it", "its", "this", "that", "these", "those", "then", "please", "your", "my", "our", "me",
    "you", "i", "we", "us", "page", "screen", "there", "so", "all", "any", "some", "up",
];

/// The words of `text` that can tell elements apart: [`words`] without English filler.
pub fn content_words(text: &str) -> Vec<String> {
    words(text).into_iter().filter(|w| !STOP_WORDS.contains(&w.as_str())).collect()
}

/// How much of `name`'s words the step's `words` hold, 0 to 1: each of the name's content words
/// found among them counts 1; a Japanese word found inside a longer one (or holding a shorter
/// one) counts by how much of it is shared (申請 in 申請履歴: a half). A name with no content
/// words scores 0.
pub fn coverage(name: &str, words: &[String]) -> f64 {
    let name_words = content_words(name);
    if name_words.is_empty() {
        return 0.0;
    }
    let found: f64 = name_words
        .iter()
        .map(|n| {
            words
                .iter()
                .map(|w| {
                    if w == n || stem(w) == stem(n) {
                        1.0
                    } else if !n.chars().any(is_japanese) {
                        0.0
                    } else if w.contains(n.as_str()) {
                        n.chars().count() as f64 / w.chars().count() as f64
                    } else if n.contains(w.as_str()) {
                        w.chars().count() as f64 / n.chars().count() as f64
                    } else {
                        0.0
                    }
                })
                .fold(0.0, f64::max)
        })
        .sum();
    found / name_words.len() as f64
}

/// An English word without its plural or verb ending, so that `statements` meets `statement`
/// and `notifications` meets `notification`.
pub fn stem(word: &str) -> &str {
    for suffix in ["ies", "es", "s", "ing", "ed"] {
        if let Some(base) = word.strip_suffix(suffix) {
            if base.len() >= 3 && word.is_ascii() {
                return base;
            }
        }
    }
    word
}

#[cfg(test)]
mod tests {
    use super::*;

    proptest::proptest! {
        #[test]
        fn ascii_text_folds_as_its_nfkc_does(text in "[ -~\t\n\r]{0,80}", other in "\\PC{0,20}") {
            proptest::prop_assert_eq!(fold(&text), fold_chars(text.nfkc(), 0));
            proptest::prop_assert_eq!(fold(&other), fold_chars(other.nfkc(), 0));
        }
    }

    #[test]
    fn folding_makes_widths_cases_dashes_and_spaces_one() {
        assert_eq!(fold("  Ｔｕｅｓｄａｙ  17 November,\t8:00–12:00 "), "tuesday 17 november, 8:00-12:00");
        assert_eq!(fold("ＣＳＶダウンロード"), "csvダウンロード");
        assert_eq!(fold("データー"), "データー", "the long vowel mark is not a dash");
    }

    #[test]
    fn quotes_of_both_languages_are_found_and_apostrophes_are_not_quotes() {
        let text = "対象月で「2024年4月」を選んで「表示」を押す";
        let found: Vec<String> = quoted(text).into_iter().map(|q| q.text).collect();
        assert_eq!(found, ["2024年4月", "表示"]);
        let found: Vec<String> =
            quoted("Check that the page says \"Welcome back\"").into_iter().map(|q| q.text).collect();
        assert_eq!(found, ["Welcome back"]);
        assert!(quoted("Open the customer's account and don't save").is_empty());
        let found: Vec<String> = quoted("Click 'Save draft' now").into_iter().map(|q| q.text).collect();
        assert_eq!(found, ["Save draft"]);
        assert!(quoted("a \"never closed quote").is_empty());
        assert_eq!(without_quotes(text, &quoted(text), "Q"), "対象月でQを選んでQを押す");
    }

    #[test]
    fn words_keep_codes_emails_and_times_whole_and_split_japanese_at_grammar() {
        assert_eq!(
            words("Check that order SO-20436 is in the list"),
            ["check", "that", "order", "so-20436", "is", "in", "the", "list"]
        );
        assert_eq!(words("Enter dana.okafor@example.com."), ["enter", "dana.okafor@example.com"]);
        assert_eq!(words("Approve 12,400, then 3"), ["approve", "12,400", "then", "3"]);
        assert_eq!(words("メニューの取引明細を開く"), ["メニュー", "取引明細", "開"]);
        assert_eq!(words("CSVダウンロードを押す"), ["csv", "ダウンロード", "押"]);
        assert_eq!(content_words("Open the Statements page"), ["open", "statements"]);
    }

    #[test]
    fn phrases_match_whole_words_in_latin_and_runs_in_japanese() {
        assert!(contains_phrase("Add the Blue widget to the cart", "blue widget"));
        assert!(!contains_phrase("Add the Bluetooth widget", "blue"));
        assert!(contains_phrase("お知らせの年末年始の休業について", "年末年始"));
        assert!(!contains_phrase("anything", ""));
    }

    #[test]
    fn coverage_counts_the_names_words_the_step_holds() {
        let step = words("Add the Blue widget to the cart");
        assert_eq!(coverage("Add to cart", &step), 1.0);
        assert_eq!(coverage("Buy now", &step), 0.0);
        assert!((coverage("Remove from cart", &step) - 0.5).abs() < 1e-9);
        assert_eq!(coverage("Statements", &words("Go to the statement page")), 1.0);
        assert_eq!(coverage("取引明細", &words("メニューの「取引明細」を開く")), 1.0);
        assert_eq!(coverage("申請する", &words("申請履歴を開き")), 0.5, "申請 is half of 申請履歴");
    }
}
