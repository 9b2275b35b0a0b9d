//! Text → search terms, the same for block specs and queries, in English and Japanese.
//!
//! Text is NFKC-normalised (full-width ASCII and half-width katakana become their usual forms)
//! and lowercased, then cut into runs of one script:
//! - Latin and other alphabetic or numeric runs are words: English stop words are dropped,
//!   single letters too, and the rest is stemmed (Snowball English) so "invoices", "invoicing"
//!   and "invoiced" meet.
//! - Kanji, katakana and hangul runs become overlapping character bigrams, or the character
//!   itself for a run of one. Japanese has no spaces and no dictionary ships with us; bigrams
//!   match compounds written differently (請求書一覧 / 請求書の一覧) without one, and cutting at
//!   script changes keeps okurigana out: 読み込む and 読み込んで both give 読, 込.
//! - Hiragana runs are dropped: in business Japanese they are particles and inflections
//!   (を, して, ください), which would make every block match every query.

use std::sync::OnceLock;

use rust_stemmers::{Algorithm, Stemmer};
use unicode_normalization::UnicodeNormalization;

/// One search term and the text it came from (shown in a result's `why`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Token {
    /// What is indexed and matched: a stem, a CJK bigram or a single CJK character.
    pub term: String,
    /// The normalised word or characters it came from.
    pub surface: String,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Script {
    /// Letters and digits outside the CJK scripts.
    Word,
    Kanji,
    Katakana,
    Hiragana,
    Hangul,
    /// Anything else: spaces, punctuation, symbols. Separates terms.
    Other,
}

fn script(c: char) -> Script {
    match c {
        // The prolonged sound mark belongs to the katakana word it lengthens (データ).
        '\u{30A0}'..='\u{30FF}' | '\u{31F0}'..='\u{31FF}' => Script::Katakana,
        '\u{3040}'..='\u{309F}' => Script::Hiragana,
        // 々 repeats the kanji before it (各々, 人々).
        '\u{3005}' | '\u{3007}' | '\u{3400}'..='\u{4DBF}' | '\u{4E00}'..='\u{9FFF}' | '\u{F900}'..='\u{FAFF}' => {
            Script::Kanji
        }
        '\u{20000}'..='\u{3FFFF}' => Script::Kanji,
        '\u{1100}'..='\u{11FF}' | '\u{3130}'..='\u{318F}' | '\u{AC00}'..='\u{D7AF}' => Script::Hangul,
        c if c.is_alphanumeric() => Script::Word,
        _ => Script::Other,
    }
}

/// Common English words that say nothing about which block fits.
const STOP_WORDS: &[&str] = &[
    "a", "about", "after", "all", "also", "an", "and", "any", "are", "as", "at", "be", "been", "before", "but", "by",
    "can", "could", "do", "does", "each", "every", "for", "from", "get", "give", "had", "has", "have", "he", "her",
    "here", "him", "his", "how", "i", "if", "in", "into", "is", "it", "its", "just", "let", "like", "make", "me",
    "more", "my", "need", "no", "not", "now", "of", "on", "one", "only", "or", "other", "our", "out", "please", "put",
    "same", "she", "should", "so", "some", "such", "than", "that", "the", "their", "them", "then", "there", "these",
    "they", "this", "those", "to", "up", "us", "use", "using", "very", "want", "was", "we", "were", "what", "when",
    "where", "which", "while", "who", "will", "with", "would", "you", "your",
];

fn is_stop_word(word: &str) -> bool {
    STOP_WORDS.binary_search(&word).is_ok()
}

fn stemmer() -> &'static Stemmer {
    static STEMMER: OnceLock<Stemmer> = OnceLock::new();
    STEMMER.get_or_init(|| Stemmer::create(Algorithm::English))
}

/// The search terms of `text`, in order; a term may repeat.
pub fn tokenize(text: &str) -> Vec<Token> {
    let normalised: String = text.nfkc().flat_map(char::to_lowercase).collect();
    let mut tokens = Vec::new();
    let mut run = String::new();
    let mut run_script = Script::Other;
    for c in normalised.chars() {
        let s = script(c);
        if s != run_script {
            emit(&run, run_script, &mut tokens);
            run.clear();
            run_script = s;
        }
        run.push(c);
    }
    emit(&run, run_script, &mut tokens);
    tokens
}

fn emit(run: &str, script: Script, tokens: &mut Vec<Token>) {
    match script {
        Script::Word => {
            let single_letter = run.chars().count() == 1 && !run.chars().all(|c| c.is_numeric());
            if single_letter || is_stop_word(run) {
                return;
            }
            let term = stemmer().stem(run).into_owned();
            // The stemmer never empties a word today; the guard keeps "terms are non-empty" true
            // whatever a future version does.
            let term = if term.is_empty() { run.to_owned() } else { term };
            tokens.push(Token { term, surface: run.to_owned() });
        }
        Script::Kanji | Script::Katakana | Script::Hangul => {
            let chars: Vec<char> = run.chars().collect();
            if chars.len() == 1 {
                tokens.push(Token { term: run.to_owned(), surface: run.to_owned() });
            }
            for pair in chars.windows(2) {
                let bigram: String = pair.iter().collect();
                tokens.push(Token { term: bigram.clone(), surface: bigram });
            }
        }
        Script::Hiragana | Script::Other => {}
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn terms(text: &str) -> Vec<String> {
        tokenize(text).into_iter().map(|t| t.term).collect()
    }

    #[test]
    fn stop_words_are_sorted_for_binary_search() {
        assert!(STOP_WORDS.windows(2).all(|w| w[0] < w[1]));
    }

    #[test]
    fn english_is_lowercased_stemmed_and_stripped_of_stop_words() {
        assert_eq!(terms("Read the Invoices"), ["read", "invoic"]);
        assert_eq!(terms("invoicing, invoiced; invoice"), ["invoic", "invoic", "invoic"]);
        assert_eq!(terms("excel.read_data"), ["excel", "read", "data"]);
    }

    #[test]
    fn full_width_ascii_and_half_width_katakana_are_normalised() {
        assert_eq!(terms("ＣＳＶ"), ["csv"]);
        assert_eq!(terms("ｴｸｾﾙ"), terms("エクセル"));
    }

    #[test]
    fn cjk_runs_become_bigrams_split_at_script_changes() {
        assert_eq!(terms("請求書"), ["請求", "求書"]);
        assert_eq!(terms("読み込む"), ["読", "込"]);
        assert_eq!(terms("エクセルを読む"), ["エク", "クセ", "セル", "読"]);
        assert_eq!(terms("請求書PDF"), ["請求", "求書", "pdf"]);
    }

    #[test]
    fn hiragana_only_text_has_no_terms() {
        assert!(terms("これをしてください").is_empty());
    }

    #[test]
    fn numbers_are_kept_single_letters_are_not() {
        assert_eq!(terms("a 5 x 100"), ["5", "100"]);
    }
}
