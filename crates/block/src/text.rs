//! Text as people type it: full-width and half-width forms folded to one.

/// The months' English names, in order, in lower case (a date's month as people write it).
pub const ENGLISH_MONTHS: [&str; 12] = [
    "january",
    "february",
    "march",
    "april",
    "may",
    "june",
    "july",
    "august",
    "september",
    "october",
    "november",
    "december",
];

/// Folds full-width ASCII (`ＩＮＶ－０１`) to ASCII, the ideographic space to a space, and
/// half-width katakana (`ﾔﾏﾀﾞ`, common in bank statements) to full-width (`ヤマダ`).
pub fn fold_width(text: &str) -> String {
    const HALF_KANA: &str = "。「」、・ヲァィゥェォャュョッーアイウエオカキクケコサシスセソタチツテトナニヌネノ\
                             ハヒフヘホマミムメモヤユヨラリルレロワン゛゜";
    const VOICEABLE: &str = "カキクケコサシスセソタチツテトハヒフヘホ";
    const SEMI_VOICEABLE: &str = "ハヒフヘホ";
    let mut out = String::with_capacity(text.len());
    let mut chars = text.chars().peekable();
    while let Some(c) = chars.next() {
        match c {
            '\u{3000}' => out.push(' '),
            '\u{FF01}'..='\u{FF5E}' => out.push(char::from_u32(c as u32 - 0xFEE0).unwrap_or(c)),
            '\u{FF61}'..='\u{FF9F}' => {
                let full = HALF_KANA.chars().nth((c as u32 - 0xFF61) as usize).unwrap_or(c);
                match chars.peek() {
                    Some('\u{FF9E}') if VOICEABLE.contains(full) => {
                        chars.next();
                        out.push(char::from_u32(full as u32 + 1).unwrap_or(full));
                    }
                    Some('\u{FF9E}') if full == 'ウ' => {
                        chars.next();
                        out.push('ヴ');
                    }
                    Some('\u{FF9F}') if SEMI_VOICEABLE.contains(full) => {
                        chars.next();
                        out.push(char::from_u32(full as u32 + 2).unwrap_or(full));
                    }
                    _ => out.push(full),
                }
            }
            _ => out.push(c),
        }
    }
    out
}
