//! Finding a secret's value in text however a page, a server or a block wrote it: as it is, in
//! upper or lower case, reversed, percent-encoded (`%20` or `+` for a space, either case of hex),
//! as HTML entities (named, decimal, hex), with JSON string escapes, or in base64 (standard or
//! URL-safe, padded or not, alone or inside a longer encoded text such as `user:password`).
//!
//! The text forms are matched character by character — each character of the secret may be
//! written plainly or in any of those escapes — rather than listed, so that every mixture an
//! encoder produces (`encodeURIComponent` keeps `!`, a form encodes it) is found without a list
//! of encoders to keep up to date.

/// Secrets shorter than this (in characters) are found only exactly as they are: re-cased or
/// encoded, a one- to three-character value would match ordinary words and numbers everywhere.
const MIN_LOOSE_CHARS: usize = 4;

/// Reversed and base64 forms look like unrelated text; below this they would match it.
const MIN_DERIVED_CHARS: usize = 6;

/// A base64 form is read in 6-bit characters; a secret starts at one of three byte offsets of a
/// longer encoded text, and the characters that hold only its bits differ for each.
const BASE64_OFFSETS: usize = 3;

const STANDARD: &[u8; 64] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
const URL_SAFE: &[u8; 64] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";

/// One secret value and the forms it is masked in, worked out once when it is registered.
#[derive(Debug)]
pub(crate) struct Secret {
    value: String,
    /// The value's characters, forward and (long enough) reversed, matched loosely; empty for a
    /// short value, which is matched exactly.
    loose: Vec<Vec<char>>,
    /// Base64 forms, longest first.
    base64: Vec<String>,
}

impl Secret {
    pub(crate) fn new(value: String) -> Secret {
        let chars: Vec<char> = value.chars().collect();
        let mut loose = Vec::new();
        let mut base64 = Vec::new();
        if chars.len() >= MIN_LOOSE_CHARS {
            loose.push(chars.clone());
        }
        if chars.len() >= MIN_DERIVED_CHARS {
            let reversed: Vec<char> = chars.iter().rev().copied().collect();
            if reversed != chars {
                loose.push(reversed);
            }
            base64 = base64_forms(value.as_bytes());
        }
        Secret { value, loose, base64 }
    }

    pub(crate) fn value(&self) -> &str {
        &self.value
    }

    /// `text` with every form of the value replaced by `***`.
    pub(crate) fn mask(&self, text: &str) -> String {
        if self.loose.is_empty() {
            return text.replace(self.value.as_str(), "***");
        }
        let mut text = self.base64.iter().fold(text.to_owned(), |text, form| text.replace(form.as_str(), "***"));
        for form in &self.loose {
            text = replace_loose(&text, form);
        }
        text
    }
}

/// `text` with every loose match of `form` replaced by `***`.
fn replace_loose(text: &str, form: &[char]) -> String {
    let mut out = String::new();
    let mut copied = 0;
    let mut at = 0;
    // Most places start nothing: an ASCII byte that is neither the first character (in either
    // case) nor the start of an escape is passed over without a closer look.
    let first = form.first().copied().filter(char::is_ascii);
    let passed = |byte: u8| {
        first.is_some_and(|first| {
            byte.is_ascii() && !byte.eq_ignore_ascii_case(&(first as u8)) && !b"+%&\\".contains(&byte)
        })
    };
    while at < text.len() {
        if passed(text.as_bytes()[at]) {
            at += 1;
        } else if let Some(len) = match_at(&text[at..], form) {
            out.push_str(&text[copied..at]);
            out.push_str("***");
            at += len;
            copied = at;
        } else {
            at += text[at..].chars().next().map_or(1, char::len_utf8);
        }
    }
    if copied == 0 {
        return text.to_owned();
    }
    out.push_str(&text[copied..]);
    out
}

/// The length in bytes of the longest writing of `form` at the start of `text`. Every way the
/// characters so far can be written is followed at once (a `&` may be the character itself or
/// start `&amp;`), so no input makes this backtrack.
fn match_at(text: &str, form: &[char]) -> Option<usize> {
    let (first, rest) = form.split_first()?;
    let mut ends: Vec<usize> = written_as(text, *first).into_iter().flatten().collect();
    for &c in rest {
        let mut next: Vec<usize> = Vec::with_capacity(ends.len());
        for &end in &ends {
            for len in written_as(&text[end..], c).into_iter().flatten() {
                if !next.contains(&(end + len)) {
                    next.push(end + len);
                }
            }
        }
        if next.is_empty() {
            return None;
        }
        ends = next;
    }
    ends.into_iter().max()
}

/// The lengths in bytes of the ways `c` is written at the start of `text`: plainly, and
/// escaped (`+` for a space, `%XX`, an HTML entity, a JSON escape), in either case.
fn written_as(text: &str, c: char) -> [Option<usize>; 2] {
    let Some(first) = text.chars().next() else { return [None, None] };
    let same = |written: char| written == c || written.to_lowercase().eq(c.to_lowercase());
    let plain = same(first).then_some(first.len_utf8());
    let escaped = escape_at(text).filter(|(written, _)| same(*written)).map(|(_, len)| len);
    [plain, escaped]
}

/// The character an escape at the start of `text` stands for, and the escape's length in bytes.
fn escape_at(text: &str) -> Option<(char, usize)> {
    match text.as_bytes().first()? {
        b'+' => Some((' ', 1)),
        b'%' => percent_decoded(text.as_bytes()),
        b'&' => html_entity(&text[1..]).map(|(c, len)| (c, len + 1)),
        b'\\' => json_escape(text.as_bytes()),
        _ => None,
    }
}

/// A character's UTF-8 bytes as `%XX` each.
fn percent_decoded(text: &[u8]) -> Option<(char, usize)> {
    let byte = |i: usize| -> Option<u8> {
        let escape = text.get(i * 3..i * 3 + 3)?;
        (escape[0] == b'%').then(|| hex(&escape[1..]))?.map(|n| n as u8)
    };
    let lead = byte(0)?;
    let len = match lead {
        0x00..=0x7f => 1,
        0xc0..=0xdf => 2,
        0xe0..=0xef => 3,
        0xf0..=0xf7 => 4,
        _ => return None,
    };
    let bytes: Vec<u8> = (0..len).map(byte).collect::<Option<_>>()?;
    let c = std::str::from_utf8(&bytes).ok()?.chars().next()?;
    Some((c, len * 3))
}

/// An HTML entity after its `&`: `#33;`, `#x21;`, or a name of the characters HTML escapes by
/// name (in any case: a page may upper-case escaped text).
fn html_entity(text: &str) -> Option<(char, usize)> {
    let end = text.bytes().take(10).position(|b| b == b';')?;
    let body = &text[..end];
    let c = if let Some(digits) = body.strip_prefix("#x").or_else(|| body.strip_prefix("#X")) {
        char::from_u32(hex(digits.as_bytes())?)?
    } else if let Some(digits) = body.strip_prefix('#') {
        if !digits.bytes().all(|b| b.is_ascii_digit()) {
            return None;
        }
        char::from_u32(digits.parse().ok()?)?
    } else {
        match body.to_ascii_lowercase().as_str() {
            "amp" => '&',
            "lt" => '<',
            "gt" => '>',
            "quot" => '"',
            "apos" => '\'',
            "nbsp" => '\u{a0}',
            _ => return None,
        }
    };
    Some((c, end + 1))
}

/// A JSON string escape: `\"`, `\\`, `\/`, `\n` and the like, or `\uXXXX` (a surrogate pair
/// beyond the basic plane).
fn json_escape(text: &[u8]) -> Option<(char, usize)> {
    let short = match text.get(1)? {
        b'"' => '"',
        b'\\' => '\\',
        b'/' => '/',
        b'n' => '\n',
        b't' => '\t',
        b'r' => '\r',
        b'b' => '\u{8}',
        b'f' => '\u{c}',
        b'u' => {
            let unit = |i: usize| -> Option<u16> {
                let escape = text.get(i * 6..i * 6 + 6)?;
                (&escape[..2] == b"\\u").then(|| hex(&escape[2..]))?.map(|n| n as u16)
            };
            let first = unit(0)?;
            if let Some(Ok(c)) = char::decode_utf16([first]).next() {
                return Some((c, 6));
            }
            let c = char::decode_utf16([first, unit(1)?]).next()?.ok()?;
            return Some((c, 12));
        }
        _ => return None,
    };
    Some((short, 2))
}

/// Hex digits (either case) as a number; `None` for anything else or more than 8 digits.
fn hex(digits: &[u8]) -> Option<u32> {
    if digits.is_empty() || digits.len() > 8 {
        return None;
    }
    digits.iter().try_fold(0u32, |n, &d| Some(n * 16 + (d as char).to_digit(16)?))
}

/// The value's base64 forms in both alphabets, longest first: the whole encoding with and
/// without padding, and for each offset it may sit at inside a longer encoded text, the
/// characters made of its bits alone.
fn base64_forms(bytes: &[u8]) -> Vec<String> {
    let mut forms = Vec::new();
    for alphabet in [STANDARD, URL_SAFE] {
        let whole = encode_base64(bytes, alphabet);
        let padding = (3 - bytes.len() % 3) % 3;
        forms.push(format!("{whole}{}", "=".repeat(padding)));
        forms.push(whole);
        for offset in 0..BASE64_OFFSETS {
            let mut shifted = vec![0u8; offset];
            shifted.extend_from_slice(bytes);
            let encoded = encode_base64(&shifted, alphabet);
            // Character i holds bits 6i..6i+6: only those wholly within the value's bits.
            let start = (8 * offset).div_ceil(6);
            let end = 8 * shifted.len() / 6;
            forms.push(encoded[start..end].to_owned());
        }
    }
    forms.sort_by_key(|form| std::cmp::Reverse(form.len()));
    forms.dedup();
    forms.retain(|form| form.len() >= MIN_DERIVED_CHARS);
    forms
}

/// Base64 without padding.
fn encode_base64(bytes: &[u8], alphabet: &[u8; 64]) -> String {
    let mut out = String::with_capacity(bytes.len().div_ceil(3) * 4);
    for chunk in bytes.chunks(3) {
        let n = chunk.iter().enumerate().fold(0u32, |n, (i, &b)| n | (b as u32) << (16 - 8 * i));
        for i in 0..=chunk.len() {
            out.push(alphabet[(n >> (18 - 6 * i) & 63) as usize] as char);
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A canary with a space, characters every encoder escapes, a non-ASCII letter and `/`.
    const CANARY: &str = "Pa ss!w@rd&1<é\"/";

    fn masked(secret: &str, written: &str) -> String {
        Secret::new(secret.to_owned()).mask(&format!("before {written} after"))
    }

    #[test]
    fn each_encoding_of_the_canary_is_masked() {
        let forms = [
            ("exact", CANARY),
            ("form encoding", "Pa+ss%21w%40rd%261%3C%C3%A9%22%2F"),
            ("percent encoding, %20", "Pa%20ss%21w%40rd%261%3C%C3%A9%22%2F"),
            ("encodeURIComponent", "Pa%20ss!w%40rd%261%3C%C3%A9%22%2F"),
            ("lower-case percent encoding", "pa%20ss%21w%40rd%261%3c%c3%a9%22%2f"),
            ("HTML named entities", "Pa ss!w@rd&amp;1&lt;é&quot;/"),
            ("HTML decimal entities", "Pa ss&#33;w&#64;rd&#38;1&#60;&#233;&#34;&#47;"),
            ("HTML hex entities", "Pa ss&#x21;w&#x40;rd&#x26;1&#x3C;&#xE9;&#x22;&#x2F;"),
            ("JSON escapes", "Pa ss!w@rd&1<\\u00e9\\\"\\/"),
            ("JSON ASCII escapes", "Pa ss!w@rd\\u00261\\u003C\\u00E9\\\"/"),
            ("upper case", "PA SS!W@RD&1<É\"/"),
            ("lower case", "pa ss!w@rd&1<é\"/"),
            ("reversed", "/\"é<1&dr@w!ss aP"),
            ("upper case, form encoded", "PA+SS%21W%40RD%261%3C%C3%89%22%2F"),
            ("base64", "UGEgc3Mhd0ByZCYxPMOpIi8="),
            ("base64 without padding", "UGEgc3Mhd0ByZCYxPMOpIi8"),
            ("base64 of user:password", "dGstc3V6dWtpOlBhIHNzIXdAcmQmMTzDqSIv"),
        ];
        for (what, written) in forms {
            let masked = masked(CANARY, written);
            assert!(masked.starts_with("before ") && masked.ends_with(" after"), "{what}: {masked}");
            let kept = &masked["before ".len()..masked.len() - " after".len()];
            // A base64 form inside a longer encoded text keeps what encodes the text around it.
            if what == "base64 of user:password" {
                assert!(kept.starts_with("dGstc3V6dWtpOl") && kept.contains("***"), "{what}: {masked}");
                assert!(!kept.contains("cmQmMTzDqSIv"), "{what}: {masked}");
            } else {
                assert_eq!(kept, "***", "{what}: {written} was not masked whole");
            }
        }
    }

    #[test]
    fn url_safe_base64_is_masked_in_both_alphabets() {
        // `>?>` encodes to `Pj8+` / `Pj8-`: the two alphabets differ.
        let secret = "tok>?>en>?>";
        for written in ["dG9rPj8+ZW4+Pz4=", "dG9rPj8-ZW4-Pz4", "dG9rPj8-ZW4-Pz4="] {
            assert_eq!(masked(secret, written), "before *** after", "{written}");
        }
    }

    #[test]
    fn text_that_only_resembles_the_secret_is_kept() {
        for near in ["Pa ss!w@rd&2<é\"/", "Pa ss%21w%40rd%262", "Pa ss&am;1", "Pa ss!w@rd&#38"] {
            let text = format!("before {near} after");
            assert_eq!(Secret::new(CANARY.to_owned()).mask(&text), text);
        }
    }

    #[test]
    fn a_short_secret_is_masked_exactly_as_it_is() {
        assert_eq!(masked("a+b", "a+b"), "before *** after");
        // Re-cased or encoded, three characters would match ordinary text.
        for other in ["A+B", "a%2Bb", "b+a"] {
            assert_eq!(masked("a+b", other), format!("before {other} after"));
        }
        // Reversed and base64 forms start at six characters.
        assert_eq!(masked("abcd", "ABCD"), "before *** after");
        assert_eq!(masked("abcd", "dcba"), "before dcba after");
    }

    #[test]
    fn a_secret_holding_an_escape_character_is_found_either_way() {
        // `&` plain or `&amp;`, `%` plain or `%25`: both ways are followed, not the first that fits.
        for written in ["x&amp;y%z1", "x&y%25z1", "x&#38;y%z1"] {
            assert_eq!(masked("x&y%z1", written), "before *** after", "{written}");
        }
    }

    #[test]
    fn hostile_text_is_scanned_without_backtracking() {
        let secret = "&&&&&&&&&&&&&&&&&&&&&&&&x";
        let text = "&amp;".repeat(10_000);
        assert_eq!(Secret::new(secret.to_owned()).mask(&text), text);
    }
}
