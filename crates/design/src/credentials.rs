//! Credentials an instruction spells out ("log in as acme with password hunter2", 「パスワードは
//! s3cret」): each value is replaced by a `{{NAME}}` placeholder before anything else reads the
//! text, so the value reaches neither the plan, nor a model, nor the metrics. The plan declares
//! the names; the values are set where secrets live (the key store), never in a plan.

use std::fmt;
use std::sync::LazyLock;

use regex::Regex;

/// A credential found in an instruction. Its value is kept only to redact it from what leaves
/// the process; `Debug` never shows it.
#[derive(Clone, PartialEq, Eq)]
pub struct SpelledSecret {
    pub name: String,
    value: String,
}

impl SpelledSecret {
    pub fn value(&self) -> &str {
        &self.value
    }
}

impl fmt::Debug for SpelledSecret {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("SpelledSecret").field("name", &self.name).field("value", &"***").finish()
    }
}

/// The instruction with every spelled-out credential replaced, and what was replaced.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Redacted {
    pub text: String,
    pub secrets: Vec<SpelledSecret>,
}

pub const USER: &str = "LOGIN_USER";
pub const PASSWORD: &str = "LOGIN_PASSWORD";
pub const TOKEN: &str = "API_TOKEN";

struct Pattern {
    name: &'static str,
    regex: Regex,
}

fn pattern(name: &'static str, regex: &str) -> Pattern {
    Pattern { name, regex: Regex::new(regex).expect("credential pattern") }
}

/// Values: quoted, or a run of printable ASCII without spaces (passwords seldom hold Japanese).
const VALUE: &str = r#"(?:"(?P<q1>[^"]{1,128})"|'(?P<q2>[^']{1,128})'|「(?P<q3>[^」]{1,128})」|(?P<v>[!-~]{1,128}))"#;

static PATTERNS: LazyLock<Vec<Pattern>> = LazyLock::new(|| {
    vec![
        pattern(
            PASSWORD,
            &format!(r"(?i)\b(?:password|passwd|passcode|pwd|pw|pass)\b\s*(?:is|:|：|=|＝|of)?\s*{VALUE}"),
        ),
        pattern(PASSWORD, &format!(r"(?:パスワード|暗証番号)\s*(?:は|:|：|=|＝|を)?\s*{VALUE}")),
        pattern(
            TOKEN,
            &format!(
                r"(?i)\b(?:api[ _-]?key|api[ _-]?token|access[ _-]?token|bearer[ _-]?token|token|secret|app(?:lication)?[ _-]?id)\b\s*(?:is|:|=)?\s*{VALUE}"
            ),
        ),
        pattern(
            TOKEN,
            &format!(
                r"(?i)(?:apiキー|api キー|トークン|アクセストークン|アプリケーションid|アプリid)\s*(?:は|:|：|=|＝)?\s*{VALUE}"
            ),
        ),
        pattern(USER, &format!(r"(?i)\b(?:log ?in|logs in|sign in|signs in)\s+as\s+{VALUE}")),
        pattern(USER, &format!(r"(?i)\b(?:username|user name|user id|login id|login name)\b\s*(?:is|:|=)?\s*{VALUE}")),
        pattern(USER, &format!(r"(?i)\b(?:user|login|account|e-?mail)\b\s*(?:is|:|=)\s*{VALUE}")),
        pattern(
            USER,
            &format!(r"(?i)(?:ユーザー名|ユーザ名|ユーザーid|ユーザid|ログインid)\s*(?:は|:|：|=|＝|を)?\s*{VALUE}"),
        ),
        pattern(USER, &format!(r"(?i)(?:^|[\s、。（(/／])(?:id|アカウント)\s*(?:は|:|：|=|＝)\s*{VALUE}")),
    ]
});

/// Words after "user", "login" or "token" that are not a value ("the user enters", "login page").
const NOT_VALUES: &[&str] = &[
    "the",
    "a",
    "an",
    "and",
    "with",
    "to",
    "in",
    "page",
    "form",
    "screen",
    "button",
    "as",
    "for",
    "is",
    "of",
    "on",
    "enters",
    "name",
    "field",
    "then",
    "it",
    "this",
    "that",
    "into",
    "from",
    "at",
    "by",
    "via",
    "using",
    "id",
    "data",
    "list",
    "account",
    "accounts",
    "details",
    "info",
    "information",
    "credentials",
    "its",
    "their",
    "your",
    "my",
    "our",
    "must",
    "should",
];

/// Replaces the credentials `instruction` spells out with `{{NAME}}` placeholders.
pub fn redact_instruction(instruction: &str) -> Redacted {
    let mut text = instruction.to_owned();
    let mut secrets: Vec<SpelledSecret> = Vec::new();
    for p in PATTERNS.iter() {
        // Each replacement changes offsets; search again until nothing is left.
        for _ in 0..16 {
            let Some(found) = p.regex.captures(&text).and_then(|c| {
                let m = ["q1", "q2", "q3", "v"].iter().find_map(|n| c.name(n))?;
                let value = m.as_str().trim_end_matches(['.', ',', ';', ':', ')', '。', '、']);
                let plausible = !value.is_empty()
                    && !value.starts_with("{{")
                    && !NOT_VALUES.contains(&value.to_lowercase().as_str())
                    && (p.name != TOKEN || value.len() >= 6);
                plausible.then(|| (m.start(), m.start() + value.len(), value.to_owned()))
            }) else {
                break;
            };
            let (start, end, value) = found;
            let name = secrets
                .iter()
                .find(|s| s.value == value)
                .map_or_else(|| unique_name(&secrets, p.name), |s| s.name.clone());
            if !secrets.iter().any(|s| s.name == name) {
                secrets.push(SpelledSecret { name: name.clone(), value: value.clone() });
            }
            text.replace_range(start..end, &format!("{{{{{name}}}}}"));
            // Quotes around the value go with it.
            text = text.replace(&format!("\"{{{{{name}}}}}\""), &format!("{{{{{name}}}}}"));
            text = text.replace(&format!("'{{{{{name}}}}}'"), &format!("{{{{{name}}}}}"));
            text = text.replace(&format!("「{{{{{name}}}}}」"), &format!("{{{{{name}}}}}"));
        }
    }
    // The same value written again elsewhere goes too.
    for secret in &secrets {
        text = replace_value(&text, &secret.value, &secret.name);
    }
    Redacted { text, secrets }
}

static PLACEHOLDER: LazyLock<Regex> =
    LazyLock::new(|| Regex::new(r"\{\{[A-Za-z0-9_]+\}\}").expect("placeholder pattern"));

/// `text` with `value` replaced by `{{name}}` outside the placeholders already in it (a value
/// like `D` also occurs inside `{{LOGIN_PASSWORD}}`).
pub(crate) fn replace_value(text: &str, value: &str, name: &str) -> String {
    if value.is_empty() {
        return text.to_owned();
    }
    let placeholder = format!("{{{{{name}}}}}");
    let mut out = String::with_capacity(text.len());
    let mut last = 0;
    for m in PLACEHOLDER.find_iter(text) {
        out.push_str(&text[last..m.start()].replace(value, &placeholder));
        out.push_str(m.as_str());
        last = m.end();
    }
    out.push_str(&text[last..].replace(value, &placeholder));
    out
}

fn unique_name(secrets: &[SpelledSecret], base: &str) -> String {
    if !secrets.iter().any(|s| s.name == base) {
        return base.to_owned();
    }
    (2..).map(|n| format!("{base}_{n}")).find(|n| !secrets.iter().any(|s| &s.name == n)).expect("a free name")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_spelled_out_login_becomes_placeholders() {
        let r = redact_instruction(
            "Open https://portal.example.com, log in as acme with password hunter2 and download the statement",
        );
        assert!(!r.text.contains("hunter2") && !r.text.contains("acme"), "{}", r.text);
        assert!(r.text.contains("{{LOGIN_USER}}") && r.text.contains("{{LOGIN_PASSWORD}}"), "{}", r.text);
        let names: Vec<&str> = r.secrets.iter().map(|s| s.name.as_str()).collect();
        assert_eq!(names, [PASSWORD, USER]);
        assert!(!format!("{r:?}").contains("hunter2"));
    }

    #[test]
    fn japanese_credentials_are_found() {
        let r = redact_instruction("ユーザー名 taro、パスワードはs3cret!でログインし、APIキー abcdef123456 を使う");
        for value in ["taro", "s3cret!", "abcdef123456"] {
            assert!(!r.text.contains(value), "{value} left in {}", r.text);
        }
        assert_eq!(r.secrets.len(), 3);
    }

    #[test]
    fn full_width_separators_and_application_ids_are_found() {
        let r = redact_instruction(
            "ポータルにログイン（ID：acme01／PW：Sanko7788）して、アプリケーションIDは KJ8x2mQp9Lr です",
        );
        for value in ["acme01", "Sanko7788", "KJ8x2mQp9Lr"] {
            assert!(!r.text.contains(value), "{value} left in {}", r.text);
        }
        let names: Vec<&str> = r.secrets.iter().map(|s| s.name.as_str()).collect();
        assert_eq!(names, [PASSWORD, TOKEN, USER]);
    }

    #[test]
    fn ordinary_words_are_not_taken_for_values() {
        for text in [
            "Ask the user for the month",
            "Open the login page and click Submit",
            "Check the token count",
            "match on account number",
            "取引先IDで突き合わせる",
        ] {
            let r = redact_instruction(text);
            assert!(r.secrets.is_empty(), "{text}: {:?} → {}", r.secrets, r.text);
        }
    }
}
