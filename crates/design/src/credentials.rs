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
    regex: Regex,
    /// The capture groups holding values (each made by [`value`]) and the secret each names.
    values: &'static [(&'static str, &'static str)],
    /// Whether a plain word right after the pattern's words is a value ("log in as acme"); when
    /// not, only a value after `:`, `=`, `は`, in quotes or looking like one is taken.
    words_are_values: bool,
}

fn pattern(regex: &str, values: &'static [(&'static str, &'static str)], words_are_values: bool) -> Pattern {
    Pattern { regex: Regex::new(regex).expect("credential pattern"), values, words_are_values }
}

/// A value in the capture groups `{group}_q1` … `{group}_v`: quoted, or a run of printable ASCII
/// without spaces (passwords seldom hold Japanese). `slash` lets the run hold `/`, which a user
/// name before `/ password` must not.
fn value(group: &str, slash: bool) -> String {
    let run = if slash { "[!-~]" } else { "[!-.0-~]" };
    format!(
        r#"(?:"(?P<{group}_q1>[^"]{{1,128}})"|'(?P<{group}_q2>[^']{{1,128}})'|「(?P<{group}_q3>[^」]{{1,128}})」|(?P<{group}_v>{run}{{1,128}}))"#
    )
}

const PASSWORD_AND_USER: &[(&str, &str)] = &[("u", USER), ("p", PASSWORD)];
const ONE_PASSWORD: &[(&str, &str)] = &[("p", PASSWORD)];
const ONE_TOKEN: &[(&str, &str)] = &[("p", TOKEN)];
const ONE_USER: &[(&str, &str)] = &[("p", USER)];

/// The patterns, in the order they are tried. `(?-u:\b)` is an ASCII word's edge, so that a
/// keyword right after Japanese ("のPINは") is one.
static PATTERNS: LazyLock<Vec<Pattern>> = LazyLock::new(|| {
    let (user, any) = (value("u", false), value("p", true));
    let sep = r"(?:is|are|:|：|=|＝|は)";
    let password_word = r"(?:(?-u:\b)(?:password|passwd|passcode|pass|pwd|pw)(?-u:\b)|パスワード)";
    vec![
        // Pairs first: "credentials tk-suzuki / Hunter2!", "user X pass Y", 「ID X／PW Y」.
        pattern(
            &format!(r"(?i)(?:(?-u:\b)credentials?(?-u:\b)|認証情報|ログイン情報)\s*{sep}?\s*{user}\s*[/／]\s*{any}"),
            PASSWORD_AND_USER,
            true,
        ),
        pattern(
            &format!(
                r"(?i)(?:(?-u:\b)(?:log ?in(?: ?id)?|sign ?in|user(?: ?name| ?id)?|id)(?-u:\b)|ユーザー名|ユーザ名|ユーザーid|ユーザid|ログインid|会員id|アカウント)\s*{sep}?\s*{user}(?:\s*[/／]\s*(?:{password_word}\s*{sep}?\s*)?|\s*(?:[、,]|and|と)?\s*(?:the\s+)?{password_word}\s*{sep}?\s*){any}"
            ),
            PASSWORD_AND_USER,
            false,
        ),
        // "The portal password for tk-suzuki is Hunter2!"
        pattern(
            &format!(
                r"(?i)(?-u:\b)(?:password|passwd|passcode|pwd|pin)\s+for\s+(?:user\s+|account\s+)?{user}\s+(?:is|:|=)\s*{any}"
            ),
            PASSWORD_AND_USER,
            false,
        ),
        // "the password for the portal is Hunter2!"
        pattern(
            &format!(
                r"(?i)(?-u:\b)(?:password|passwd|passcode|pwd|pin(?:\s*code)?)\s+(?:for|of|on|to)\s+[^\s:=]+(?:\s+[^\s:=]+){{0,3}}?\s*(?:\sis|:|：|=|＝)\s*{any}"
            ),
            ONE_PASSWORD,
            false,
        ),
        pattern(
            &format!(
                r"(?i)(?-u:\b)(?:password|passwd|passcode|pwd|pw|pin(?:\s*(?:code|number))?)(?-u:\b)\s*(?:{sep}|of)?\s*{any}"
            ),
            ONE_PASSWORD,
            false,
        ),
        // "pass" alone is too common a verb to take what follows without a separator.
        pattern(&format!(r"(?i)(?-u:\b)pass(?-u:\b)\s*(?::|：|=|＝)\s*{any}"), ONE_PASSWORD, false),
        pattern(&format!(r"(?:パスワード|暗証番号)\s*(?:は|:|：|=|＝|を)?\s*{any}"), ONE_PASSWORD, false),
        pattern(
            &format!(
                r"(?i)(?-u:\b)(?:api[ _-]?key|api[ _-]?token|access[ _-]?token|bearer[ _-]?token|bearer|client[ _-]?secret|secret[ _-]?key|token|secret|app(?:lication)?[ _-]?id)(?-u:\b)\s*{sep}?\s*{any}"
            ),
            ONE_TOKEN,
            false,
        ),
        pattern(
            &format!(
                r"(?i)(?:apiキー|api キー|トークン|アクセストークン|アプリケーションid|アプリid)\s*(?:は|:|：|=|＝)?\s*{any}"
            ),
            ONE_TOKEN,
            false,
        ),
        pattern(&format!(r"(?i)(?-u:\b)(?:log ?in|logs in|sign in|signs in)\s+as\s+{any}"), ONE_USER, true),
        pattern(
            &format!(
                r"(?i)(?-u:\b)(?:log ?in|logs in|sign in|signs in)\s+(?:with|using)\s+(?:the\s+)?(?:user(?:name)?\s+|account\s+|e-?mail\s+)?{any}"
            ),
            ONE_USER,
            false,
        ),
        pattern(
            &format!(r"(?i)(?-u:\b)(?:username|user name|user id|login id|login name)(?-u:\b)\s*(?:is|:|=)?\s*{any}"),
            ONE_USER,
            true,
        ),
        // "account = 1234" and "id = 42" are conditions on data far more often than logins.
        pattern(
            &format!(r"(?i)(?-u:\b)(?:(?:user|login|e-?mail)(?-u:\b)\s*(?:is|:|=)|account(?-u:\b)\s*(?:is|:))\s*{any}"),
            ONE_USER,
            false,
        ),
        pattern(&format!(r"(?i)(?-u:\b)user(?-u:\b)\s+{any}"), ONE_USER, false),
        pattern(
            &format!(
                r"(?i)(?:ユーザー名|ユーザ名|ユーザーid|ユーザid|ログインid|会員id)\s*(?:は|:|：|=|＝|を)?\s*{any}"
            ),
            ONE_USER,
            false,
        ),
        pattern(&format!(r"(?i)(?:^|[\s、。（(/／])(?:id|アカウント)\s*(?:は|:|：)\s*{any}"), ONE_USER, false),
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
    "column",
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

/// A file name, which a word after "user" or "token" often is and a credential seldom.
static FILE_NAME: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(r"(?i)^[^@]+\.(?:csv|tsv|txt|xlsx?|pdf|json|md|png|jpe?g|docx?|ya?ml|xml|html?)$")
        .expect("file name pattern")
});

/// "each", "every", "per" or "by" right before a match: the word after it names what rows are
/// grouped by.
static GROUPING_WORD_BEFORE: LazyLock<Regex> =
    LazyLock::new(|| Regex::new(r"(?i)(?-u:\b)(?:each|every|per|by)\s+$").expect("grouping word pattern"));

/// A user info in an address, `https://user:password@host/…`.
static USER_INFO: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(r#"(?i)(?-u:\b)[a-z][a-z0-9+.-]{0,15}://(?P<info>[^\s/?#@"'<>「」]{1,256})@"#)
        .expect("user info pattern")
});

/// Where an address ends, as the reader finds addresses.
static ADDRESS: LazyLock<Regex> =
    LazyLock::new(|| Regex::new(r#"^[^\s"'<>「」『』（）()、。,]+"#).expect("address pattern"));

/// Replaces the credentials `instruction` spells out with `{{NAME}}` placeholders.
pub fn redact_instruction(instruction: &str) -> Redacted {
    let mut redactor = Redactor::default();
    let text = redactor.redact(instruction);
    Redacted { text, secrets: redactor.secrets }
}

/// Finds the credentials of texts that belong together (a design session's instruction, chat and
/// answers), one name per value across them all.
#[derive(Debug, Default)]
pub struct Redactor {
    secrets: Vec<SpelledSecret>,
}

impl Redactor {
    /// `text` with the credentials it spells out, and every value found so far, replaced by
    /// their placeholders.
    pub fn redact(&mut self, text: &str) -> String {
        let mut found = Found { text: text.to_owned(), secrets: std::mem::take(&mut self.secrets) };
        found.user_info();
        for p in PATTERNS.iter() {
            found.pattern(p);
        }
        self.secrets = found.secrets;
        // The same value written again elsewhere goes too.
        self.hide(&found.text)
    }

    /// `text` with every value found so far replaced by its placeholder: a value written alone,
    /// where nothing says it is a credential.
    pub fn hide(&self, text: &str) -> String {
        self.hide_values(text, 1)
    }

    /// [`Redactor::hide`] for the values of at least 4 characters only: for texts that go with
    /// the person's but that the person did not write (a generated plan, a session's own words),
    /// where a shorter value would be every "1" or "ab" in them.
    pub fn hide_distinct(&self, text: &str) -> String {
        self.hide_values(text, 4)
    }

    fn hide_values(&self, text: &str, min_chars: usize) -> String {
        let mut text = text.to_owned();
        for secret in self.secrets.iter().filter(|s| s.value.chars().count() >= min_chars) {
            text = replace_value(&text, &secret.value, &secret.name);
        }
        text
    }

    pub fn secrets(&self) -> &[SpelledSecret] {
        &self.secrets
    }
}

/// The most credentials named apiece in what one redactor reads: past them a value is still
/// replaced where it is spelled out, so that a text holding thousands costs no more than a few.
const MAX_NAMED: usize = 32;

struct Found {
    text: String,
    secrets: Vec<SpelledSecret>,
}

impl Found {
    /// The placeholder of `value`: the name it already has, else a new one from `base`; past
    /// [`MAX_NAMED`], `base` itself.
    fn placeholder(&mut self, value: &str, base: &str) -> String {
        let name = match self.secrets.iter().find(|s| s.value == value) {
            Some(s) => s.name.clone(),
            None if self.secrets.len() >= MAX_NAMED => base.to_owned(),
            None => {
                let name = unique_name(&self.secrets, base);
                self.secrets.push(SpelledSecret { name: name.clone(), value: value.to_owned() });
                name
            }
        };
        format!("{{{{{name}}}}}")
    }

    /// Takes the user info out of each address and names it after the address, so the address
    /// (a browser step's start) holds no credential and the login is still said.
    fn user_info(&mut self) {
        // Built anew rather than edited in place, so that many addresses cost no more than one pass.
        let text = std::mem::take(&mut self.text);
        let mut out = String::with_capacity(text.len());
        let (mut last, mut from) = (0, 0);
        while let Some(c) = USER_INFO.captures_at(&text, from) {
            let (whole, info) = (c.get(0).expect("the match"), c.name("info").expect("the user info"));
            let (user, password) = info.as_str().split_once(':').unwrap_or((info.as_str(), ""));
            let mut said = Vec::new();
            if !user.is_empty() {
                said.push(self.placeholder(user, USER));
            }
            if !password.is_empty() {
                said.push(self.placeholder(password, PASSWORD));
            }
            let rest = &text[whole.end()..];
            let address = ADDRESS.find(rest).map_or(0, |m| m.end());
            let end = whole.end() + rest[..address].trim_end_matches(['.', ';', ':', '!', '?']).len();
            out.push_str(&text[last..info.start()]);
            out.push_str(&text[whole.end()..end]);
            if !said.is_empty() {
                out.push_str(&format!(" ({})", said.join(" / ")));
            }
            (last, from) = (end, end);
        }
        out.push_str(&text[last..]);
        self.text = out;
    }

    /// Replaces every plausible match of `p`, from the start of the text to its end, in one pass.
    fn pattern(&mut self, p: &Pattern) {
        let text = std::mem::take(&mut self.text);
        let mut out = String::with_capacity(text.len());
        let (mut last, mut from) = (0, 0);
        while let Some(c) = p.regex.captures_at(&text, from) {
            let at = c.get(0).expect("the match").start();
            // "For each account: variance = …": the word a grouping is by, no login.
            if GROUPING_WORD_BEFORE.is_match(&text[..at]) {
                from = at + text[at..].chars().next().map_or(1, char::len_utf8);
                continue;
            }
            let spans: Option<Vec<(usize, usize, String, &str)>> = p
                .values
                .iter()
                .map(|&(group, name)| {
                    let quoted = ["q1", "q2", "q3"].iter().find_map(|q| c.name(&format!("{group}_{q}")));
                    let (value, (start, end)) = match quoted {
                        // The quotes go with the value.
                        Some(m) => (m.as_str(), quote_span(&text, m.start(), m.end())),
                        None => {
                            let m = c.name(&format!("{group}_v"))?;
                            let value = m.as_str().trim_end_matches(['.', ',', ';', ':', ')', '。', '、']);
                            (value, (m.start(), m.start() + value.len()))
                        }
                    };
                    let given = quoted.is_some() || p.words_are_values || after_separator(&text[..start]);
                    plausible(value, name, given).then(|| (start, end, value.to_owned(), name))
                })
                .collect();
            let Some(mut spans) = spans else {
                // Not a credential here ("password reset page"); one may follow ("my password is …").
                from = at + text[at..].chars().next().map_or(1, char::len_utf8);
                continue;
            };
            spans.sort_by_key(|s| s.0);
            for (start, end, value, name) in spans {
                out.push_str(&text[last..start]);
                out.push_str(&self.placeholder(&value, name));
                last = end;
            }
            from = last;
        }
        out.push_str(&text[last..]);
        self.text = out;
    }
}

/// The span of a quoted value with its quotes.
fn quote_span(text: &str, start: usize, end: usize) -> (usize, usize) {
    let open = text[..start].chars().next_back().map_or(0, char::len_utf8);
    let close = text[end..].chars().next().map_or(0, char::len_utf8);
    (start - open, end + close)
}

/// Whether a value starts after a separator (`:`, `=`, `は`, `/`) or right after a Japanese word,
/// where no next word of an English sentence can stand.
fn after_separator(before: &str) -> bool {
    before.trim_end().chars().next_back().is_some_and(|c| ":：=＝は/／".contains(c) || !c.is_ascii())
}

/// Whether `value` is taken for the credential `name`: holding no placeholder (a quote around a
/// value found before is a sentence, not a credential), not a common word, a token of some length,
/// and — when nothing but a space stands before it — shaped like a value.
fn plausible(value: &str, name: &str, given: bool) -> bool {
    !value.is_empty()
        && !value.contains("{{")
        && !NOT_VALUES.contains(&value.to_lowercase().as_str())
        && (name != TOKEN || value.chars().count() >= 6)
        && (given || looks_like_a_value(value))
}

/// A digit, a symbol or a capital inside a lower-case word: "Hunter2!", "tk-suzuki", "4321",
/// "hunTer", not "reset", "Page" or "SSO".
fn looks_like_a_value(value: &str) -> bool {
    !FILE_NAME.is_match(value)
        && (value.chars().any(|c| c.is_ascii_digit() || "!#$%&*+?@^~_-".contains(c))
            || (value.chars().skip(1).any(|c| c.is_ascii_uppercase()) && value.chars().any(|c| c.is_ascii_lowercase())))
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
        assert_eq!(names, [USER, PASSWORD, TOKEN]);
    }

    #[test]
    fn ordinary_words_are_not_taken_for_values() {
        for text in [
            "Ask the user for the month",
            "Open the login page and click Submit",
            "Check the token count",
            "match on account number",
            "For each account: variance = actual - budget",
            "per user: the number of logins",
            "取引先IDで突き合わせる",
        ] {
            let r = redact_instruction(text);
            assert!(r.secrets.is_empty(), "{text}: {:?} → {}", r.secrets, r.text);
        }
    }
}
