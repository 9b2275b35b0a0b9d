//! Sharing a character budget among documents.

/// Shares `budget` among items of these lengths fairly: short items keep all they have, long
/// ones get equal shares of what is left (water-filling), so what one does not use goes to the
/// others. The shares never add up to more than `budget`, and never exceed an item's length.
pub fn share_budget(lengths: &[usize], budget: usize) -> Vec<usize> {
    let mut allowance = vec![0usize; lengths.len()];
    let mut order: Vec<usize> = (0..lengths.len()).collect();
    order.sort_by_key(|&i| lengths[i]);
    let mut left = budget;
    for (done, &i) in order.iter().enumerate() {
        let share = left / (order.len() - done);
        allowance[i] = lengths[i].min(share);
        left -= allowance[i];
    }
    allowance
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn short_items_keep_theirs_and_long_ones_share_the_rest() {
        assert_eq!(share_budget(&[5, 100, 100], 105), vec![5, 50, 50]);
        assert_eq!(share_budget(&[10, 20], 100), vec![10, 20]);
        assert_eq!(share_budget(&[], 100), Vec::<usize>::new());
        assert_eq!(share_budget(&[7, 7, 7], 10), vec![3, 3, 4]);
    }
}
