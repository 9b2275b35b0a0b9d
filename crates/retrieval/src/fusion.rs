//! Reciprocal rank fusion: merging rankings whose scores are not comparable (BM25 sums and
//! cosine similarities) by rank alone, `Σ 1 / (k + rank)` with ranks from 1.

/// The constant of Cormack, Clarke and Büttcher (2009); it damps the lead of a first place so
/// that a document ranked well by both lists beats one ranked first by only one.
pub const RRF_K: f64 = 60.0;

/// Fuses rankings of document numbers (each best first) into one, best first. Ties keep the
/// order in which documents first appear, earlier rankings first.
pub fn reciprocal_rank_fusion(rankings: &[&[usize]]) -> Vec<(usize, f64)> {
    let mut fused: Vec<(usize, f64)> = Vec::new();
    for ranking in rankings {
        for (rank, &doc) in ranking.iter().enumerate() {
            let share = 1.0 / (RRF_K + rank as f64 + 1.0);
            match fused.iter_mut().find(|(d, _)| *d == doc) {
                Some((_, score)) => *score += share,
                None => fused.push((doc, share)),
            }
        }
    }
    // A stable sort keeps first-appearance order among equal scores.
    fused.sort_by(|a, b| b.1.total_cmp(&a.1));
    fused
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_document_both_lists_like_beats_one_first_in_only_one() {
        let fused = reciprocal_rank_fusion(&[&[1, 2, 3], &[4, 2, 5]]);
        let order: Vec<usize> = fused.iter().map(|(d, _)| *d).collect();
        assert_eq!(order, [2, 1, 4, 3, 5]);
        assert!((fused[0].1 - 2.0 / 62.0).abs() < 1e-12);
    }

    #[test]
    fn ties_keep_first_appearance_order() {
        let fused = reciprocal_rank_fusion(&[&[7], &[3]]);
        assert_eq!(fused.iter().map(|(d, _)| *d).collect::<Vec<_>>(), [7, 3]);
    }
}
