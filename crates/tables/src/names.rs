//! Column names as a table keeps them: every one present and unique.

/// Names made unique in order: an empty one becomes `column_N` (its position), a repeated one
/// gets `_2`, `_3` … (`amount`, `amount_2`).
pub fn unique_names(names: impl IntoIterator<Item = String>) -> Vec<String> {
    let mut out: Vec<String> = Vec::new();
    for (i, name) in names.into_iter().enumerate() {
        let base = if name.is_empty() { format!("column_{}", i + 1) } else { name };
        let unique = unique_name(&base, &out);
        out.push(unique);
    }
    out
}

/// `base`, or the first of `base_2`, `base_3` … that `taken` does not hold.
pub(crate) fn unique_name(base: &str, taken: &[String]) -> String {
    if !taken.iter().any(|t| t == base) {
        return base.to_string();
    }
    (2..).map(|n| format!("{base}_{n}")).find(|c| !taken.iter().any(|t| t == c)).unwrap_or_default()
}
