//! Plan ids, registration stamps and the file names made of them.

use time::OffsetDateTime;

/// The longest plan id, in characters (every character of a valid id is one byte).
pub(crate) const MAX_ID_LEN: usize = 64;

/// Length of a stamp, `yyyymmddHHMM`.
pub(crate) const STAMP_LEN: usize = 12;

/// Extension of plan files, registered or not.
pub(crate) const EXTENSION: &str = ".yaml";

/// Checks `id` against `^[a-z0-9][a-z0-9_-]*$` and the length limit; on failure, says why.
pub(crate) fn check_id(id: &str) -> Result<(), &'static str> {
    let Some(first) = id.bytes().next() else {
        return Err("it is empty");
    };
    if id.len() > MAX_ID_LEN {
        return Err("it is longer than 64 characters");
    }
    if id.contains('\0') {
        return Err("it contains a NUL character");
    }
    if id.contains(['/', '\\']) {
        return Err("it contains a path separator");
    }
    if !(first.is_ascii_lowercase() || first.is_ascii_digit()) {
        return Err("it must start with a lower-case letter or a digit");
    }
    if !id.bytes().all(|b| b.is_ascii_lowercase() || b.is_ascii_digit() || b == b'_' || b == b'-') {
        return Err("it may contain only lower-case letters, digits, `_` and `-`");
    }
    Ok(())
}

/// Whether `id` is a valid plan id.
pub(crate) fn is_valid_id(id: &str) -> bool {
    check_id(id).is_ok()
}

/// `<plan_id>_<yyyymmddHHMM>.yaml` → `(plan_id, stamp)`. The stamp is what follows the last `_`
/// and must be exactly 12 digits, so ids may themselves contain `_` and digits.
pub(crate) fn parse_registered_name(name: &str) -> Option<(&str, &str)> {
    let stem = name.strip_suffix(EXTENSION)?;
    let (id, stamp) = stem.rsplit_once('_')?;
    let stamp_ok = stamp.len() == STAMP_LEN && stamp.bytes().all(|b| b.is_ascii_digit());
    (stamp_ok && is_valid_id(id)).then_some((id, stamp))
}

/// `<plan_id>_<stamp>.yaml`.
pub(crate) fn registered_name(id: &str, stamp: &str) -> String {
    format!("{id}_{stamp}{EXTENSION}")
}

/// `now` as `yyyymmddHHMM`, in `now`'s own offset; `None` for years outside 0000–9999.
pub(crate) fn stamp(now: OffsetDateTime) -> Option<String> {
    let year = now.year();
    if !(0..=9999).contains(&year) {
        return None;
    }
    let stamp = format!("{year:04}{:02}{:02}{:02}{:02}", u8::from(now.month()), now.day(), now.hour(), now.minute());
    (stamp.len() == STAMP_LEN).then_some(stamp)
}

/// An id as shown in a message: escaped, and cut short when it is long.
pub(crate) fn shown(id: &str) -> String {
    const SHOWN_CHARS: usize = 80;
    if id.chars().count() > SHOWN_CHARS {
        let cut: String = id.chars().take(SHOWN_CHARS).collect();
        format!("{cut:?}… ({} characters)", id.chars().count())
    } else {
        format!("{id:?}")
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use time::macros::datetime;

    #[test]
    fn ids() {
        for good in ["a", "0", "invoice_dupes", "a-b_c9", &"x".repeat(64)] {
            assert_eq!(check_id(good), Ok(()), "{good}");
        }
        for bad in ["", "_a", "-a", "A", "aB", "a/b", "../x", "/abs", "a\0b", "a.b", "a b", "é", &"x".repeat(65)] {
            assert!(check_id(bad).is_err(), "{bad:?}");
        }
    }

    #[test]
    fn registered_names() {
        assert_eq!(parse_registered_name("a_1_202601010000.yaml"), Some(("a_1", "202601010000")));
        assert_eq!(parse_registered_name("invoice_dupes_202611221430.yaml"), Some(("invoice_dupes", "202611221430")));
        assert_eq!(parse_registered_name("2024_202611221430.yaml"), Some(("2024", "202611221430")));
        for bad in [
            "a.yaml",
            "a_20260101000.yaml",
            "a_2026010100000.yaml",
            "a_202601010000.yml",
            "_202601010000.yaml",
            "A_202601010000.yaml",
            "a_202601010000.yaml.tmp",
            "a_20260101000x.yaml",
        ] {
            assert_eq!(parse_registered_name(bad), None, "{bad}");
        }
    }

    #[test]
    fn stamps() {
        assert_eq!(stamp(datetime!(2026-11-22 14:30:59 UTC)).as_deref(), Some("202611221430"));
        assert_eq!(stamp(datetime!(0005-01-02 03:04 UTC)).as_deref(), Some("000501020304"));
        assert_eq!(stamp(datetime!(-0001-01-01 00:00 UTC)), None);
    }

    #[test]
    fn long_ids_are_cut_short_in_messages() {
        assert!(shown(&"x".repeat(1000)).contains("1000 characters"));
        assert_eq!(shown("a\0"), "\"a\\0\"");
    }
}
