//! Look-alike controls: "Click Save" on a page holding "Save and delete all records" must not
//! press it. A control matched only in part (its name holds the step's words and more) is never
//! chosen when what it adds are words of destruction the step does not say — delete, remove,
//! all, 削除, 全て … — whoever chose it: the offline resolver, a model's non-exact locator or a
//! cached one.

use crate::text::{fold, words};

/// Words that make a control do more than, or the opposite of, what a shorter name says.
const DESTRUCTIVE: &[&str] = &[
    "delete",
    "deletes",
    "deleting",
    "remove",
    "removes",
    "erase",
    "destroy",
    "purge",
    "wipe",
    "clear",
    "reset",
    "discard",
    "drop",
    "all",
    "everything",
    "every",
    "permanently",
    "forever",
    "revoke",
    "terminate",
    "unsubscribe",
    "overwrite",
    "format",
];

/// The same in Japanese, found as substrings (Japanese has no spaces between words).
const DESTRUCTIVE_JA: &[&str] = &[
    "削除",
    "消去",
    "全て",
    "すべて",
    "全部",
    "一括",
    "破棄",
    "初期化",
    "リセット",
    "解約",
    "退会",
    "取り消",
    "上書き",
];

/// The destructive words `name` adds to what `wanted` says; empty when it adds none (or when
/// `name` is `wanted` itself).
pub fn added_destruction(wanted: &str, name: &str) -> Vec<String> {
    let (wanted_folded, name_folded) = (fold(wanted), fold(name));
    if wanted_folded == name_folded {
        return Vec::new();
    }
    let wanted_words = words(wanted);
    let mut added: Vec<String> =
        words(name).into_iter().filter(|w| DESTRUCTIVE.contains(&w.as_str()) && !wanted_words.contains(w)).collect();
    added.extend(
        DESTRUCTIVE_JA
            .iter()
            .filter(|w| name_folded.contains(*w) && !wanted_folded.contains(*w))
            .map(|w| (*w).to_owned()),
    );
    added.dedup();
    added
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_longer_name_that_destroys_more_is_a_look_alike() {
        assert_eq!(added_destruction("Save", "Save and delete all records"), ["delete", "all"]);
        assert_eq!(added_destruction("保存", "保存して全て削除"), ["削除", "全て"]);
        assert!(added_destruction("Save", "Save changes").is_empty());
        assert!(added_destruction("Delete all records", "Delete all records now").is_empty());
        assert!(added_destruction("Save and delete all records", "Save and delete all records").is_empty());
        assert!(added_destruction("削除する", "削除").is_empty());
    }
}
