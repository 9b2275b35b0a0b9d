//! A run's coded messages in words, English or Japanese, for what is written outside the studio
//! (the HTML report). The texts are `messages/en.json` and `messages/ja.json`, which the studio
//! says them with too (`run.said.<key>`, `ui/src/lib/i18n/runSaid.ts`), in the same small ICU
//! form: `{name}`; `{n, plural, =0 {…} one {# thing} other {# things}}`; `{flag, select, true
//! {…} other {…}}`, a form holding text and `{name}`s.

use std::collections::HashMap;
use std::sync::OnceLock;

use serde_json::{Map, Value};

use crate::RunMessage;

/// A language the run's words are written in.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub enum Lang {
    #[default]
    En,
    Ja,
}

impl Lang {
    /// `en` or `ja` (a tag such as `ja-JP` reads as its language); none for another.
    pub fn parse(code: &str) -> Option<Lang> {
        match code.split(['-', '_']).next().map(str::to_ascii_lowercase).as_deref() {
            Some("en") => Some(Lang::En),
            Some("ja") => Some(Lang::Ja),
            _ => None,
        }
    }

    pub fn code(self) -> &'static str {
        match self {
            Lang::En => "en",
            Lang::Ja => "ja",
        }
    }
}

/// Texts by key in English and Japanese, each read from its JSON object the first time it is
/// asked for.
pub struct Catalog {
    en: &'static str,
    ja: &'static str,
    read: [OnceLock<HashMap<String, String>>; 2],
}

impl Catalog {
    pub const fn new(en: &'static str, ja: &'static str) -> Catalog {
        Catalog { en, ja, read: [OnceLock::new(), OnceLock::new()] }
    }

    /// The texts of `lang`. The files are ours, built in and checked by their tests: one that
    /// is not an object of texts is a mistake of the build, not of anything a person gave.
    pub fn texts(&self, lang: Lang) -> &HashMap<String, String> {
        let (cell, text) = match lang {
            Lang::En => (&self.read[0], self.en),
            Lang::Ja => (&self.read[1], self.ja),
        };
        cell.get_or_init(|| serde_json::from_str(text).expect("a catalog is a JSON object of texts"))
    }
}

static RUN_MESSAGES: Catalog = Catalog::new(include_str!("../messages/en.json"), include_str!("../messages/ja.json"));

impl RunMessage {
    /// This message in `lang`; `None` when the catalog has no text for it.
    pub fn say(&self, lang: Lang) -> Option<String> {
        let coded = serde_json::to_value(self).ok()?;
        let key = coded.get("key")?.as_str()?;
        let text = RUN_MESSAGES.texts(lang).get(key)?;
        let empty = Map::new();
        Some(fill(lang, text, coded.get("params").and_then(Value::as_object).unwrap_or(&empty)))
    }
}

/// Fills `text` with `params` as the studio's `format` does; a placeholder or choice whose
/// parameter is missing is left as written.
pub fn fill(lang: Lang, text: &str, params: &Map<String, Value>) -> String {
    let mut out = String::with_capacity(text.len());
    let mut rest = text;
    while let Some(open) = rest.find('{') {
        out.push_str(&rest[..open]);
        let Some(close) = matching_brace(&rest[open..]).map(|c| open + c) else {
            out.push_str(&rest[open..]);
            return out;
        };
        let inner = &rest[open + 1..close];
        match said(lang, inner, params) {
            Some(said) => out.push_str(&said),
            None => out.push_str(&rest[open..=close]),
        }
        rest = &rest[close + 1..];
    }
    out.push_str(rest);
    out
}

/// Where the brace that closes the one `text` starts with is.
fn matching_brace(text: &str) -> Option<usize> {
    let mut depth = 0usize;
    for (at, c) in text.char_indices() {
        match c {
            '{' => depth += 1,
            '}' => {
                depth = depth.checked_sub(1)?;
                if depth == 0 {
                    return Some(at);
                }
            }
            _ => {}
        }
    }
    None
}

/// A `{…}`'s words: a parameter, or the form a choice picks, filled.
fn said(lang: Lang, inner: &str, params: &Map<String, Value>) -> Option<String> {
    let mut parts = inner.splitn(3, ',');
    let name = parts.next()?.trim();
    let value = params.get(name)?;
    let Some(kind) = parts.next().map(str::trim) else { return Some(shown(value)) };
    let forms = forms(parts.next()?)?;
    let pick = |wanted: &str| forms.iter().find(|(key, _)| *key == wanted).map(|(_, form)| *form);
    let form = match kind {
        "select" => pick(&shown(value)).or_else(|| pick("other"))?.to_owned(),
        "plural" => {
            let n = value.as_f64()?;
            // English has one and other; Japanese only other.
            let category = if lang == Lang::En && n == 1.0 { "one" } else { "other" };
            let form = pick(&format!("={}", shown(value))).or_else(|| pick(category)).or_else(|| pick("other"))?;
            form.replace('#', &shown(value))
        }
        _ => return None,
    };
    Some(fill(lang, &form, params))
}

/// A choice's forms: `key {form}` one after the other.
fn forms(body: &str) -> Option<Vec<(&str, &str)>> {
    let mut forms = Vec::new();
    let mut rest = body.trim_start();
    while !rest.is_empty() {
        let open = rest.find('{')?;
        let close = open + matching_brace(&rest[open..])?;
        forms.push((rest[..open].trim(), &rest[open + 1..close]));
        rest = rest[close + 1..].trim_start();
    }
    Some(forms)
}

/// A parameter as text, as JavaScript's `String(value)` writes it.
fn shown(value: &Value) -> String {
    match value {
        Value::String(text) => text.clone(),
        Value::Number(n) => match n.as_f64() {
            Some(f) if n.is_f64() && f.fract() == 0.0 && f.abs() < 1e15 => format!("{}", f as i64),
            _ => n.to_string(),
        },
        Value::Bool(flag) => flag.to_string(),
        Value::Null => "null".to_owned(),
        other => other.to_string(),
    }
}

#[cfg(test)]
mod tests {
    use proptest::prelude::*;
    use serde_json::json;

    use super::*;

    fn params(value: Value) -> Map<String, Value> {
        value.as_object().cloned().unwrap_or_default()
    }

    #[test]
    fn both_catalogs_have_a_text_for_the_same_codes() {
        let mut en: Vec<&String> = RUN_MESSAGES.texts(Lang::En).keys().collect();
        let mut ja: Vec<&String> = RUN_MESSAGES.texts(Lang::Ja).keys().collect();
        en.sort();
        ja.sort();
        assert_eq!(en, ja);
        assert!(en.len() > 100, "{}", en.len());
    }

    #[test]
    fn says_a_message_as_the_studio_does_in_both_languages() {
        // The same messages and words as the studio's own tests (ui/src/lib/i18n/*.test.ts).
        let ended = RunMessage::ObjectivesEnded {
            completed: 3,
            total: 3,
            outcome: "satisfied".into(),
            passes: 1,
            percent: 100,
            replayed: 2,
            model_calls: 0,
        };
        assert_eq!(
            ended.say(Lang::Ja).unwrap(),
            "目標 3 件中 3 件を完了・1 回のパスで満たされました（100 %）・2 件をアクションキャッシュから再生・モデル呼び出しなし。"
        );
        let reported = RunMessage::ObjectivesEnded {
            completed: 2,
            total: 3,
            outcome: "reported".into(),
            passes: 2,
            percent: 67,
            replayed: 0,
            model_calls: 1,
        };
        assert_eq!(
            reported.say(Lang::En).unwrap(),
            "2 of 3 objectives done; reported after 2 passes (67 % satisfied); 1 model call."
        );
        assert_eq!(
            RunMessage::TimedOut { ms: 3000 }.say(Lang::Ja).unwrap(),
            "3000 ms で時間切れになりました（ステップの timeout_ms）。処理は取り消されました。"
        );
        let pressed = RunMessage::ProofPressedOnce { role: "button".into(), name: "ログイン".into() };
        assert_eq!(pressed.say(Lang::Ja).unwrap(), "「ログイン」ボタンを 1 回だけ押しました");
        assert_eq!(pressed.say(Lang::En).unwrap(), "the button \"ログイン\" pressed once");
    }

    #[test]
    fn a_missing_parameter_or_an_unknown_choice_is_left_as_written() {
        assert_eq!(fill(Lang::En, "{a} and {b}", &params(json!({"a": 1}))), "1 and {b}");
        assert_eq!(fill(Lang::En, "{n, ordinal, one {x}}", &params(json!({"n": 1}))), "{n, ordinal, one {x}}");
        assert_eq!(fill(Lang::En, "open {", &params(json!({}))), "open {");
        assert_eq!(
            fill(Lang::En, "{n, plural, =0 {none} one {# file} other {# files}}", &params(json!({"n": 0}))),
            "none"
        );
        assert_eq!(fill(Lang::Ja, "{n, plural, one {# file} other {# 件}}", &params(json!({"n": 1}))), "1 件");
        assert_eq!(fill(Lang::En, "{x, select, true {yes} other {no}}", &params(json!({"x": false}))), "no");
        assert_eq!(fill(Lang::En, "{f}", &params(json!({"f": 2.0}))), "2");
        assert_eq!(fill(Lang::En, "{f}", &params(json!({"f": 0.5}))), "0.5");
    }

    #[test]
    fn lang_reads_a_language_tag() {
        assert_eq!(Lang::parse("ja-JP"), Some(Lang::Ja));
        assert_eq!(Lang::parse("EN_us"), Some(Lang::En));
        assert_eq!(Lang::parse("fr"), None);
    }

    proptest! {
        #[test]
        fn text_without_braces_is_kept_and_a_parameter_is_put_in_as_it_is(text in "[^{}]{0,80}", s in "[^{}]{0,12}") {
            prop_assert_eq!(fill(Lang::En, &text, &params(json!({"s": s}))), text.clone());
            prop_assert_eq!(fill(Lang::Ja, &format!("{text}{{s}}"), &params(json!({"s": s}))), format!("{text}{s}"));
        }

        #[test]
        fn a_text_of_braces_and_choices_fills_without_a_panic(text in "[{}a-z#=, ]{0,60}") {
            fill(Lang::Ja, &text, &params(json!({"n": 3, "a": "x"})));
        }
    }
}
