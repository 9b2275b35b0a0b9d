//! The HTML report in the person's language and time zone: its own words (`words/en.json`,
//! `words/ja.json`, filled as the run's coded messages are), times shown in their zone, and the
//! runner's coded messages said in their language (the texts the studio says them with).

use jiff::tz::TimeZone;
use jiff::Timestamp;
use planwright_runs::objective::EvidencePart;
use planwright_runs::said::{fill, Catalog, Lang};
use planwright_runs::RunMessage;
use serde_json::Value;

/// Whom a report is written for: their language and their time zone.
#[derive(Debug, Clone)]
pub struct ReportOptions {
    pub lang: Lang,
    pub zone: TimeZone,
}

impl Default for ReportOptions {
    /// English, times in UTC.
    fn default() -> Self {
        ReportOptions { lang: Lang::En, zone: TimeZone::UTC }
    }
}

impl ReportOptions {
    /// `lang` (`en`, `ja`, a tag such as `ja-JP`; English for another) and the IANA time zone
    /// `zone` (`Asia/Tokyo`); an unknown zone is an error naming it.
    pub fn new(lang: &str, zone: &str) -> Result<ReportOptions, String> {
        let zone = TimeZone::get(zone).map_err(|_| {
            format!("{zone:?} is not a time zone this computer knows (an IANA name such as Asia/Tokyo)")
        })?;
        Ok(ReportOptions { lang: Lang::parse(lang).unwrap_or_default(), zone })
    }

    /// As this computer is set: the language of `LC_ALL`, `LC_MESSAGES` or `LANG` (English
    /// unless Japanese), and its time zone.
    pub fn of_this_computer() -> ReportOptions {
        let lang = ["LC_ALL", "LC_MESSAGES", "LANG"]
            .iter()
            .filter_map(|name| std::env::var(name).ok().filter(|v| !v.is_empty()))
            .next()
            .and_then(|tag| Lang::parse(&tag))
            .unwrap_or_default();
        ReportOptions { lang, zone: TimeZone::system() }
    }
}

static WORDS: Catalog = Catalog::new(include_str!("../words/en.json"), include_str!("../words/ja.json"));

/// The report's words for one reader.
pub(crate) struct Words<'a> {
    pub options: &'a ReportOptions,
}

impl Words<'_> {
    pub fn lang(&self) -> Lang {
        self.options.lang
    }

    /// The words for `key`. Their parameters are put in as they are given: the caller escapes.
    pub fn say(&self, key: &str, params: Value) -> String {
        let text = WORDS.texts(self.lang()).get(key).or_else(|| WORDS.texts(Lang::En).get(key));
        let params = params.as_object().cloned().unwrap_or_default();
        text.map(|t| fill(self.lang(), t, &params)).unwrap_or_else(|| key.to_owned())
    }

    /// `say` without parameters.
    pub fn word(&self, key: &str) -> String {
        self.say(key, Value::Null)
    }

    /// An RFC 3339 time in the reader's zone, `2026-11-27 13:43:59 JST`; the text as it is when
    /// it is not one.
    pub fn when(&self, at: &str) -> String {
        self.zoned(at, "%Y-%m-%d %H:%M:%S %Z").unwrap_or_else(|| at.to_owned())
    }

    /// The time of day of an RFC 3339 time in the reader's zone, `13:43:59`.
    pub fn clock(&self, at: &str) -> String {
        self.zoned(at, "%H:%M:%S").unwrap_or_else(|| at.to_owned())
    }

    fn zoned(&self, at: &str, format: &str) -> Option<String> {
        let instant: Timestamp = at.parse().ok()?;
        Some(instant.to_zoned(self.options.zone.clone()).strftime(format).to_string())
    }

    /// The reader's time zone by name (`Asia/Tokyo`), or its offset when it has none.
    pub fn zone_name(&self) -> String {
        self.options
            .zone
            .iana_name()
            .map(str::to_owned)
            .unwrap_or_else(|| Timestamp::now().to_zoned(self.options.zone.clone()).strftime("UTC%:z").to_string())
    }

    /// A run message in the reader's language, else its English words.
    pub fn message(&self, english: &str, said: Option<&RunMessage>) -> String {
        match (self.lang(), said) {
            (Lang::En, _) | (_, None) => english.to_owned(),
            (lang, Some(said)) => said.say(lang).unwrap_or_else(|| english.to_owned()),
        }
    }

    /// Run messages said one after the other in the reader's language, joined by `separator`;
    /// `english` in English, or when there are none or one has no text (the codes never say
    /// less than the words).
    pub fn all(&self, english: &str, said: &[RunMessage], separator: &str) -> String {
        if self.lang() == Lang::En || said.is_empty() {
            return english.to_owned();
        }
        let said: Option<Vec<String>> = said.iter().map(|s| s.say(self.lang())).collect();
        said.map(|said| said.join(separator)).unwrap_or_else(|| english.to_owned())
    }

    /// A step's evidence piece by piece, each piece the runner coded in the reader's language
    /// (as the studio says it); `english` when there are no pieces.
    pub fn evidence(&self, english: &str, parts: &[EvidencePart]) -> String {
        if self.lang() == Lang::En || parts.is_empty() {
            return english.to_owned();
        }
        let pieces: Vec<String> = parts.iter().map(|part| self.all(&part.text, &part.said, "。")).collect();
        let joined = pieces.join("。");
        if joined.ends_with(['。', '.', '!', '?', '！', '？']) {
            joined
        } else {
            format!("{joined}。")
        }
    }
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    #[test]
    fn both_languages_have_the_same_words_with_the_same_parameters() {
        let params = |text: &str| {
            let mut names: Vec<String> = text
                .split('{')
                .skip(1)
                .filter_map(|rest| rest.split(['}', ',']).next())
                .filter(|name| !name.is_empty() && name.chars().all(|c| c.is_alphanumeric() || c == '_'))
                .map(str::to_owned)
                .collect();
            names.sort();
            names.dedup();
            names
        };
        let en = WORDS.texts(Lang::En);
        let ja = WORDS.texts(Lang::Ja);
        let mut keys: Vec<&String> = en.keys().collect();
        keys.sort();
        let mut ja_keys: Vec<&String> = ja.keys().collect();
        ja_keys.sort();
        assert_eq!(keys, ja_keys);
        for key in keys {
            assert_eq!(params(&en[key]), params(&ja[key]), "{key}");
            assert!(
                ja[key].chars().any(|c| c > '\u{3000}') || ja[key] == en[key],
                "{key} is not in Japanese: {}",
                ja[key]
            );
        }
    }

    #[test]
    fn times_are_in_the_readers_zone_and_words_in_their_language() {
        let options = ReportOptions::new("ja-JP", "Asia/Tokyo").unwrap();
        let words = Words { options: &options };
        assert_eq!(words.when("2026-11-27T04:43:59.5Z"), "2026-11-27 13:43:59 JST");
        assert_eq!(words.clock("2026-11-27T04:43:59Z"), "13:43:59");
        assert_eq!(words.when("yesterday"), "yesterday");
        assert_eq!(words.say("objectives_completed", json!({"done": 2, "total": 3})), "目標 3 件中 2 件完了");
        assert_eq!(words.zone_name(), "Asia/Tokyo");
        let english = ReportOptions::default();
        let words = Words { options: &english };
        assert_eq!(words.when("2026-11-27T04:43:59Z"), "2026-11-27 04:43:59 UTC");
        assert_eq!(words.say("attempts", json!({"n": 1})), "1 attempt");
        let refused = ReportOptions::new("ja", "Mars/Olympus").unwrap_err();
        assert!(refused.contains("Mars/Olympus") && refused.contains("Asia/Tokyo"), "{refused}");
    }
}
