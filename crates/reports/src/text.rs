//! Text as the reports write it: cleaned of what XML refuses, escaped for markup, times and
//! durations for people.

use std::borrow::Cow;

use time::format_description::well_known::Rfc3339;
use time::OffsetDateTime;

/// `text` without control characters other than tab and newline: XML 1.0 refuses them and they
/// say nothing on a page. A record's text is untrusted and may hold any of them.
pub(crate) fn clean(text: &str) -> Cow<'_, str> {
    if text.chars().any(refused) {
        Cow::Owned(text.chars().filter(|c| !refused(*c)).collect())
    } else {
        Cow::Borrowed(text)
    }
}

fn refused(c: char) -> bool {
    (c.is_control() && c != '\n' && c != '\t') || c == '\u{fffe}' || c == '\u{ffff}'
}

/// `text` cleaned and escaped for HTML text and attribute values alike.
pub(crate) fn escape(text: &str) -> String {
    quick_xml::escape::escape(clean(text).as_ref()).into_owned()
}

/// A duration for people: `850 ms`, `6.2 s`, `2 min 05 s`.
pub(crate) fn duration(ms: u64) -> String {
    match ms {
        0..=999 => format!("{ms} ms"),
        1_000..=59_999 => format!("{:.1} s", ms as f64 / 1000.0),
        _ => format!("{} min {:02} s", ms / 60_000, (ms % 60_000) / 1000),
    }
}

/// Seconds with milliseconds, as JUnit's `time` attributes take them.
pub(crate) fn seconds(ms: u64) -> String {
    format!("{:.3}", ms as f64 / 1000.0)
}

/// An RFC 3339 time as milliseconds since the epoch, as Allure's `start` and `stop` take them.
pub(crate) fn epoch_ms(at: &str) -> Option<i64> {
    let parsed = OffsetDateTime::parse(at, &Rfc3339).ok()?;
    i64::try_from(parsed.unix_timestamp_nanos() / 1_000_000).ok()
}

/// A value's name as the record spells it (`waiting_for_input`, `offline`).
pub(crate) fn record_name(value: &impl serde::Serialize) -> String {
    serde_json::to_value(value).ok().and_then(|v| v.as_str().map(str::to_owned)).unwrap_or_default()
}

/// `1 objective`, `3 objectives`, `2 retries`, `2 passes`: the reports' own words, whose
/// plurals follow these two rules.
pub(crate) fn plural(count: usize, word: &str) -> String {
    if count == 1 {
        return format!("1 {word}");
    }
    match (word.strip_suffix('y'), word.ends_with('s')) {
        (Some(stem), _) => format!("{count} {stem}ies"),
        (None, true) => format!("{count} {word}es"),
        (None, false) => format!("{count} {word}s"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn control_characters_go_and_markup_is_escaped() {
        assert_eq!(clean("a\u{0}b\u{1b}[31mc\td\ne\u{ffff}"), "ab[31mc\td\ne");
        assert!(matches!(clean("plain"), Cow::Borrowed(_)));
        assert_eq!(
            escape("<img src=x onerror=\"alert('1')\">&"),
            "&lt;img src=x onerror=&quot;alert(&apos;1&apos;)&quot;&gt;&amp;"
        );
    }

    #[test]
    fn times_and_durations_read_for_people_and_tools() {
        assert_eq!(duration(850), "850 ms");
        assert_eq!(duration(6_245), "6.2 s");
        assert_eq!(duration(125_000), "2 min 05 s");
        assert_eq!(seconds(6_245), "6.245");
        assert_eq!(epoch_ms("1970-01-01T00:00:01.500Z"), Some(1_500));
        assert_eq!(epoch_ms("2026-11-27T04:44:02.477926761Z"), Some(1_795_754_642_477));
        assert_eq!(epoch_ms("yesterday"), None);
        assert_eq!(plural(1, "objective"), "1 objective");
        assert_eq!(record_name(&planwright_runs::RunStatus::WaitingForInput), "waiting_for_input");
        assert_eq!(plural(3, "objective"), "3 objectives");
        assert_eq!((plural(2, "retry"), plural(0, "pass")), ("2 retries".to_owned(), "0 passes".to_owned()));
    }
}
