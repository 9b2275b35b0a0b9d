//! BM25F: BM25 over documents with weighted fields, each field length-normalised on its own.
//!
//! A term's frequency is summed over fields as `Σ weight·tf / (1 − b + b·len/avg_len)` before
//! BM25's saturation, so a term in a block's tags counts more than the same term in its
//! description, and a long description does not outweigh a short title.

use std::collections::HashMap;

/// Where in a block spec a term was found.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Field {
    /// The block id, split on `.` and `_` (`excel.read_data` → excel, read, data).
    Id,
    Title,
    Tags,
    /// Input and output names (a template's imports and exports), split like the id.
    Ports,
    Description,
}

const FIELDS: usize = 5;

impl Field {
    pub const ALL: [Field; FIELDS] = [Field::Id, Field::Title, Field::Tags, Field::Ports, Field::Description];

    pub fn name(self) -> &'static str {
        match self {
            Field::Id => "id",
            Field::Title => "title",
            Field::Tags => "tags",
            Field::Ports => "ports",
            Field::Description => "description",
        }
    }

    /// The id, tags and title are written to say what a block is for; the description also
    /// says what it is not for and mentions neighbours, so it weighs least.
    fn weight(self) -> f64 {
        match self {
            Field::Id => 3.0,
            Field::Tags => 3.0,
            Field::Title => 2.5,
            Field::Ports => 1.5,
            Field::Description => 1.0,
        }
    }

    fn index(self) -> usize {
        self as usize
    }
}

const K1: f64 = 1.2;
const B: f64 = 0.75;

/// A document as the index sees it: the terms of each field, in [`Field::ALL`] order.
pub type FieldTerms = [Vec<String>; FIELDS];

#[derive(Debug, Clone)]
pub struct Bm25Index {
    /// Term → (document, frequency per field) for each document holding it.
    postings: HashMap<String, Vec<(usize, [u32; FIELDS])>>,
    /// Each document's length per field, in terms.
    lengths: Vec<[u32; FIELDS]>,
    average_lengths: [f64; FIELDS],
}

/// A query term found in a document.
#[derive(Debug, Clone, PartialEq)]
pub struct Match {
    pub term: String,
    /// What the term added to the document's score.
    pub contribution: f64,
    /// The fields it was found in, the one that counted most first.
    pub fields: Vec<Field>,
}

/// A document that matched at least one query term.
#[derive(Debug, Clone, PartialEq)]
pub struct Scored {
    pub doc: usize,
    pub score: f64,
    /// Best first.
    pub matches: Vec<Match>,
}

impl Bm25Index {
    pub fn build(documents: &[FieldTerms]) -> Bm25Index {
        let mut postings: HashMap<String, Vec<(usize, [u32; FIELDS])>> = HashMap::new();
        let mut lengths = Vec::with_capacity(documents.len());
        let mut totals = [0u64; FIELDS];
        for (doc, fields) in documents.iter().enumerate() {
            let mut counts: HashMap<&str, [u32; FIELDS]> = HashMap::new();
            let mut length = [0u32; FIELDS];
            for (f, terms) in fields.iter().enumerate() {
                length[f] = u32::try_from(terms.len()).unwrap_or(u32::MAX);
                totals[f] += terms.len() as u64;
                for term in terms {
                    counts.entry(term).or_default()[f] += 1;
                }
            }
            for (term, tf) in counts {
                postings.entry(term.to_owned()).or_default().push((doc, tf));
            }
            lengths.push(length);
        }
        let n = documents.len().max(1) as f64;
        let average_lengths = totals.map(|t| (t as f64 / n).max(1.0));
        Bm25Index { postings, lengths, average_lengths }
    }

    /// Every document matching at least one of `terms`, best first (ties by document order).
    /// What a term adds is multiplied by its weight; a term given twice counts once, at its
    /// highest weight.
    pub fn search(&self, terms: &[(String, f64)]) -> Vec<Scored> {
        let n = self.lengths.len() as f64;
        let mut unique: Vec<(&String, f64)> = Vec::with_capacity(terms.len());
        for (term, weight) in terms {
            match unique.iter_mut().find(|(t, _)| *t == term) {
                Some(seen) => seen.1 = seen.1.max(*weight),
                None => unique.push((term, *weight)),
            }
        }
        unique.sort_by(|a, b| a.0.cmp(b.0));
        let mut scored: HashMap<usize, Scored> = HashMap::new();
        for (term, weight) in unique {
            let Some(postings) = self.postings.get(term) else { continue };
            let df = postings.len() as f64;
            let idf = (1.0 + (n - df + 0.5) / (df + 0.5)).ln();
            for (doc, tf) in postings {
                let mut per_field: Vec<(f64, Field)> = Field::ALL
                    .iter()
                    .filter(|f| tf[f.index()] > 0)
                    .map(|&f| {
                        let i = f.index();
                        let norm = 1.0 - B + B * f64::from(self.lengths[*doc][i]) / self.average_lengths[i];
                        (f.weight() * f64::from(tf[i]) / norm, f)
                    })
                    .collect();
                let weighted: f64 = per_field.iter().map(|(w, _)| w).sum();
                let contribution = weight * idf * weighted * (K1 + 1.0) / (weighted + K1);
                per_field.sort_by(|a, b| b.0.total_cmp(&a.0));
                let entry = scored.entry(*doc).or_insert_with(|| Scored { doc: *doc, score: 0.0, matches: Vec::new() });
                entry.score += contribution;
                entry.matches.push(Match {
                    term: term.clone(),
                    contribution,
                    fields: per_field.into_iter().map(|(_, f)| f).collect(),
                });
            }
        }
        let mut scored: Vec<Scored> = scored.into_values().collect();
        for s in &mut scored {
            s.matches.sort_by(|a, b| b.contribution.total_cmp(&a.contribution).then_with(|| a.term.cmp(&b.term)));
        }
        scored.sort_by(|a, b| b.score.total_cmp(&a.score).then(a.doc.cmp(&b.doc)));
        scored
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn doc(id: &[&str], description: &[&str]) -> FieldTerms {
        let v = |s: &[&str]| s.iter().map(|t| t.to_string()).collect::<Vec<_>>();
        [v(id), Vec::new(), Vec::new(), Vec::new(), v(description)]
    }

    fn terms(t: &[&str]) -> Vec<(String, f64)> {
        t.iter().map(|s| (s.to_string(), 1.0)).collect()
    }

    #[test]
    fn only_matching_documents_are_returned_best_first() {
        let index = Bm25Index::build(&[
            doc(&["excel"], &["read", "sheet"]),
            doc(&["csv"], &["read", "file"]),
            doc(&["http"], &["call", "api"]),
        ]);
        let hits = index.search(&terms(&["excel", "read"]));
        assert_eq!(hits.iter().map(|h| h.doc).collect::<Vec<_>>(), [0, 1]);
        assert_eq!(hits[0].matches[0].term, "excel");
        assert_eq!(hits[0].matches[0].fields, [Field::Id]);
    }

    #[test]
    fn a_term_in_a_heavier_field_scores_higher() {
        let index = Bm25Index::build(&[doc(&[], &["excel"]), doc(&["excel"], &[]), doc(&["x"], &["y"])]);
        let hits = index.search(&terms(&["excel"]));
        assert_eq!(hits[0].doc, 1);
        assert!(hits[0].score > hits[1].score);
    }

    #[test]
    fn repeated_query_terms_count_once() {
        let index = Bm25Index::build(&[doc(&["excel"], &[]), doc(&["csv"], &[])]);
        assert_eq!(index.search(&terms(&["excel"])), index.search(&terms(&["excel", "excel"])));
    }

    #[test]
    fn a_weight_scales_what_a_term_adds_and_a_repeat_keeps_the_highest() {
        let index = Bm25Index::build(&[doc(&["excel"], &[]), doc(&["csv"], &[])]);
        let plain = index.search(&terms(&["excel"]))[0].score;
        let half = index.search(&[("excel".into(), 0.5)])[0].score;
        assert!((half - plain * 0.5).abs() < 1e-9);
        assert_eq!(index.search(&[("excel".into(), 0.5), ("excel".into(), 1.0)])[0].score, plain);
    }

    #[test]
    fn an_empty_index_finds_nothing() {
        assert!(Bm25Index::build(&[]).search(&terms(&["x"])).is_empty());
    }
}
