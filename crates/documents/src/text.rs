//! Plain text files: decoding UTF-8 and the Japanese legacy encodings files from Japanese
//! systems still use (Shift_JIS/cp932, EUC-JP).

use encoding_rs::{Encoding, EUC_JP, SHIFT_JIS};

/// Text in UTF-8, or Shift_JIS, or EUC-JP, whichever decodes without a bad byte (a BOM decides
/// first); as a last resort UTF-8 with `�` for what does not decode.
///
/// Shift_JIS wins a tie with EUC-JP because it is what Windows and Japanese banks and
/// accounting systems write (encoding_rs's Shift_JIS decoder is Windows-31J, with the NEC and
/// IBM extensions).
pub fn decode_text(bytes: &[u8]) -> String {
    decode_strict(bytes).unwrap_or_else(|| String::from_utf8_lossy(bytes).into_owned())
}

/// Like [`decode_text`], but `None` when no encoding decodes every byte.
pub(crate) fn decode_strict(bytes: &[u8]) -> Option<String> {
    if let Some((encoding, bom)) = Encoding::for_bom(bytes) {
        return encoding.decode_without_bom_handling_and_without_replacement(&bytes[bom..]).map(|t| t.into_owned());
    }
    if let Ok(text) = std::str::from_utf8(bytes) {
        return Some(text.to_string());
    }
    let sjis = SHIFT_JIS.decode_without_bom_handling_and_without_replacement(bytes);
    let euc = EUC_JP.decode_without_bom_handling_and_without_replacement(bytes);
    match (sjis, euc) {
        // Many EUC-JP byte pairs are valid Shift_JIS too, read as half-width katakana and
        // private-use characters, which real text hardly has: the reading with fewer wins.
        (Some(sjis), Some(euc)) if odd_chars(&euc) < odd_chars(&sjis) => Some(euc.into_owned()),
        (Some(sjis), _) => Some(sjis.into_owned()),
        (None, euc) => euc.map(|t| t.into_owned()),
    }
}

/// Half-width katakana and private-use characters.
fn odd_chars(text: &str) -> usize {
    text.chars().filter(|c| matches!(c, '\u{FF61}'..='\u{FF9F}' | '\u{E000}'..='\u{F8FF}')).count()
}

/// Whether decoded text reads as text: no NUL and few other control characters. Random bytes
/// sometimes decode as Shift_JIS; they are full of controls, which real text files are not.
pub(crate) fn looks_like_text(text: &str) -> bool {
    let mut controls = 0usize;
    let mut total = 0usize;
    for c in text.chars() {
        total += 1;
        if c == '\0' {
            return false;
        }
        if c.is_control() && !matches!(c, '\n' | '\r' | '\t' | '\u{000C}') {
            controls += 1;
        }
    }
    // One control character in a hundred is already far from any real text file.
    controls * 100 <= total
}

/// The text of a text file, line ends made `\n`.
pub(crate) fn read(bytes: &[u8]) -> String {
    let text = decode_text(bytes);
    let text = text.strip_prefix('\u{FEFF}').unwrap_or(&text);
    text.replace("\r\n", "\n")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn decodes_shift_jis_and_euc_jp() {
        let (sjis, _, _) = SHIFT_JIS.encode("取引先,金額\n山田商事,1000\n");
        assert_eq!(decode_text(&sjis), "取引先,金額\n山田商事,1000\n");
        let (euc, _, _) = EUC_JP.encode("請求書の確認");
        assert_eq!(decode_strict(&euc).as_deref(), Some("請求書の確認"));
        assert_eq!(read(b"\xEF\xBB\xBFa\r\nb"), "a\nb");
    }

    #[test]
    fn binary_is_not_text() {
        assert!(!looks_like_text("a\0b"));
        assert!(!looks_like_text("\u{1}\u{2}\u{3}abc"));
        assert!(looks_like_text("請求書\n\tamount: 1\n"));
    }
}
