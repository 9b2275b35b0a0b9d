//! "Did you mean": the closest valid names to a wrong one.

/// Up to three candidates closest to `wrong`, best first; only those close enough to be a
/// plausible typo or synonym (shared prefix, substring, or a small edit distance).
pub fn closest<'a, I>(wrong: &str, candidates: I) -> Vec<String>
where
    I: IntoIterator<Item = &'a str>,
{
    let wrong_lower = wrong.to_lowercase();
    let mut scored: Vec<(f64, &str)> = candidates
        .into_iter()
        .filter(|c| *c != wrong)
        .filter_map(|candidate| {
            let lower = candidate.to_lowercase();
            let mut score = strsim::jaro_winkler(&wrong_lower, &lower);
            if !wrong_lower.is_empty() && (lower.contains(&wrong_lower) || wrong_lower.contains(&lower)) {
                // One name inside the other: a strong hint when they are of similar length
                // (`excel.read` / `excel.read_data`), a weak one otherwise (`retry` /
                // `retry_backoff_ms` should not beat `retries`).
                let (short, long) = (wrong_lower.len().min(lower.len()), wrong_lower.len().max(lower.len()));
                score = score.max(0.8 + 0.2 * short as f64 / long as f64);
            }
            (score >= 0.75).then_some((score, candidate))
        })
        .collect();
    scored.sort_by(|a, b| b.0.total_cmp(&a.0).then_with(|| a.1.cmp(b.1)));
    scored.dedup_by(|a, b| a.1 == b.1);
    // Names far behind the best are noise next to it ("filtr" → filter, not join or pick).
    let best = scored.first().map_or(0.0, |s| s.0);
    scored.into_iter().take_while(|s| s.0 >= best - 0.05).take(3).map(|(_, c)| c.to_owned()).collect()
}

/// "; did you mean `a`?" or "" when there is nothing close.
pub fn did_you_mean(candidates: &[String]) -> String {
    match candidates {
        [] => String::new(),
        [one] => format!("; did you mean `{one}`?"),
        many => format!("; did you mean {}?", many.iter().map(|c| format!("`{c}`")).collect::<Vec<_>>().join(" or ")),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn typos_find_their_name() {
        assert_eq!(closest("blok", ["block", "body", "after"]), vec!["block"]);
        assert_eq!(closest("excel.read", ["excel.read_data", "excel.write", "file.read_csv"])[0], "excel.read_data");
        assert_eq!(
            closest("transforms.filtr", ["transforms.filter", "transforms.join", "transforms.pick"]),
            vec!["transforms.filter"]
        );
        assert_eq!(closest("retry", ["retry_backoff_ms", "retries", "timeout_ms"])[0], "retries");
    }

    #[test]
    fn unrelated_names_find_nothing() {
        assert!(closest("zzzz", ["block", "when"]).is_empty());
    }

    #[test]
    fn message_lists_candidates() {
        assert_eq!(did_you_mean(&["a".into()]), "; did you mean `a`?");
        assert_eq!(did_you_mean(&["a".into(), "b".into()]), "; did you mean `a` or `b`?");
        assert_eq!(did_you_mean(&[]), "");
    }
}
