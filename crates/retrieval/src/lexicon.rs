//! The bilingual lexicon of operations (`lexicon.yaml`): ordinary words for what a block does,
//! in English and Japanese, mapped to the catalog's own words. A query that uses one of them is
//! also searched for those words, at [`WEIGHT`]: BM25 alone cannot know that "keep only the rows
//! where…" or 「…を超える行だけを残す」 mean a filter when neither says "filter".

use std::sync::OnceLock;

use serde::Deserialize;
use unicode_normalization::UnicodeNormalization;

use crate::tokenize::{tokenize, Token};

const BUNDLED: &str = include_str!("../lexicon.yaml");

/// How much a word the lexicon adds counts against a word of the query itself.
pub const WEIGHT: f64 = 1.0;

#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
struct Entry {
    means: Vec<String>,
    #[serde(default)]
    en: Vec<String>,
    #[serde(default)]
    ja: Vec<String>,
}

/// One English phrase as words to match in order.
#[derive(Debug, Clone)]
enum Word {
    Exact(String),
    Prefix(String),
    Any,
}

#[derive(Debug, Clone)]
struct Concept {
    /// The search terms of `means`, and the words themselves for a result's `why`.
    terms: Vec<Token>,
    means: String,
    english: Vec<(String, Vec<Word>)>,
    japanese: Vec<String>,
}

/// The lexicon, parsed.
#[derive(Debug, Clone, Default)]
pub struct Lexicon {
    concepts: Vec<Concept>,
}

/// A term a query gains from the lexicon.
#[derive(Debug, Clone, PartialEq)]
pub struct Expansion {
    pub token: Token,
    pub weight: f64,
}

impl Lexicon {
    /// The lexicon shipped with the crate (an unreadable one is an empty lexicon and a warning:
    /// the ranking gets worse, the search still works).
    pub fn bundled() -> &'static Lexicon {
        static LEXICON: OnceLock<Lexicon> = OnceLock::new();
        LEXICON.get_or_init(|| {
            Lexicon::parse(BUNDLED).unwrap_or_else(|error| {
                tracing::warn!(%error, "the bundled lexicon does not read; searching without it");
                Lexicon::default()
            })
        })
    }

    pub fn parse(text: &str) -> Result<Lexicon, serde_yaml::Error> {
        let entries: Vec<Entry> = serde_yaml::from_str(text)?;
        let concepts = entries
            .into_iter()
            .map(|entry| Concept {
                terms: entry.means.iter().flat_map(|m| tokenize(m)).collect(),
                means: entry.means.join(", "),
                english: entry.en.iter().map(|p| (p.clone(), phrase(p))).filter(|(_, w)| !w.is_empty()).collect(),
                japanese: entry.ja.iter().map(|p| normalise(p)).filter(|p| !p.is_empty()).collect(),
            })
            .collect();
        Ok(Lexicon { concepts })
    }

    /// The terms `query` gains: the `means` of every concept one of whose phrases it uses, each
    /// term once, with the phrase that brought it in as its surface.
    pub fn expand(&self, query: &str) -> Vec<Expansion> {
        let text = normalise(query);
        let words: Vec<&str> = text.split(|c: char| !c.is_alphanumeric()).filter(|w| !w.is_empty()).collect();
        let mut out: Vec<Expansion> = Vec::new();
        for concept in &self.concepts {
            let found = concept
                .japanese
                .iter()
                .find(|p| text.contains(p.as_str()))
                .cloned()
                .or_else(|| concept.english.iter().find(|(_, w)| contains(&words, w)).map(|(p, _)| p.clone()));
            let Some(phrase) = found else { continue };
            for term in &concept.terms {
                if out.iter().all(|e| e.token.term != term.term) {
                    out.push(Expansion {
                        token: Token {
                            term: term.term.clone(), surface: format!("\"{phrase}\" → {}", concept.means)
                        },
                        weight: WEIGHT,
                    });
                }
            }
        }
        out
    }
}

fn normalise(text: &str) -> String {
    text.nfkc().flat_map(char::to_lowercase).collect()
}

fn phrase(text: &str) -> Vec<Word> {
    normalise(text)
        .split(|c: char| !(c.is_alphanumeric() || c == '*' || c == '_'))
        .filter(|w| !w.is_empty())
        .map(|w| match w {
            "_" => Word::Any,
            w if w.len() > 1 && w.ends_with('*') => Word::Prefix(w.trim_end_matches('*').to_owned()),
            w => Word::Exact(w.to_owned()),
        })
        .collect()
}

/// Whether `pattern` occurs in `words`, word after word.
fn contains(words: &[&str], pattern: &[Word]) -> bool {
    if pattern.is_empty() || pattern.len() > words.len() {
        return false;
    }
    words.windows(pattern.len()).any(|window| {
        window.iter().zip(pattern).all(|(word, p)| match p {
            Word::Exact(e) => word == e,
            Word::Prefix(prefix) => word.starts_with(prefix.as_str()),
            Word::Any => true,
        })
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn added(lexicon: &Lexicon, query: &str) -> Vec<String> {
        lexicon.expand(query).into_iter().map(|e| e.token.term).collect()
    }

    #[test]
    fn the_bundled_lexicon_reads_and_every_concept_means_something() {
        let lexicon = Lexicon::parse(BUNDLED).unwrap();
        assert!(lexicon.concepts.len() >= 15);
        for concept in &lexicon.concepts {
            assert!(!concept.terms.is_empty(), "{}", concept.means);
            assert!(!concept.english.is_empty() && !concept.japanese.is_empty(), "{}", concept.means);
        }
    }

    #[test]
    fn phrases_match_whole_words_in_order_with_prefixes_and_gaps() {
        let lexicon = Lexicon::parse(
            "- means: [filter]\n  en: [keep only, exclud*, where _ is]\n  ja: [だけ]\n- means: [join]\n  en: [match*]\n",
        )
        .unwrap();
        assert_eq!(added(&lexicon, "Keep only the approved rows"), ["filter"]);
        assert_eq!(added(&lexicon, "Excluding test accounts"), ["filter"]);
        assert_eq!(added(&lexicon, "where the status is open"), Vec::<String>::new());
        assert_eq!(added(&lexicon, "where status is open"), ["filter"]);
        assert_eq!(added(&lexicon, "金額が10万円を超える行だけを残す"), ["filter"]);
        // Whole words: "keeping" is not "keep", "rematch" is not "match…".
        assert!(added(&lexicon, "keeping only a few; rematch").is_empty());
        assert_eq!(added(&lexicon, "Match the lists, keep only the rest"), ["filter", "join"]);
    }

    #[test]
    fn the_phrase_that_brought_a_term_is_its_surface() {
        let lexicon = Lexicon::parse("- means: [filter]\n  en: [keep only]\n").unwrap();
        let expansion = &lexicon.expand("keep only these")[0];
        assert_eq!(expansion.token.surface, "\"keep only\" → filter");
        assert_eq!(expansion.weight, WEIGHT);
    }
}
