//! Key names as Playwright spells them (`Enter`, `Control+A`) → DevTools key events.

use serde_json::{json, Value};

use crate::error::BrowserError;

/// The `Input.dispatchKeyEvent` parameters to press and release `combo`, in order.
pub(crate) fn key_events(combo: &str) -> Result<Vec<Value>, BrowserError> {
    let parts: Vec<&str> = combo.split('+').collect();
    let (key, modifiers_named) = match parts.split_last() {
        // `+` itself, or `Control++`.
        Some((last, rest)) if last.is_empty() && !rest.is_empty() => ("+", &rest[..rest.len() - 1]),
        Some((last, rest)) => (*last, rest),
        None => return Err(unknown(combo)),
    };
    let mut modifiers = 0;
    for name in modifiers_named {
        modifiers |= match *name {
            "Alt" => 1,
            "Control" | "Ctrl" => 2,
            "Meta" | "Command" => 4,
            "Shift" => 8,
            _ => return Err(unknown(combo)),
        };
    }
    let (key, code, key_code, text): (String, String, i64, Option<String>) = match key {
        "Enter" => ("Enter".into(), "Enter".into(), 13, Some("\r".into())),
        "Tab" => ("Tab".into(), "Tab".into(), 9, None),
        "Escape" => ("Escape".into(), "Escape".into(), 27, None),
        "Backspace" => ("Backspace".into(), "Backspace".into(), 8, None),
        "Delete" => ("Delete".into(), "Delete".into(), 46, None),
        "Space" | " " => (" ".into(), "Space".into(), 32, Some(" ".into())),
        "ArrowUp" => ("ArrowUp".into(), "ArrowUp".into(), 38, None),
        "ArrowDown" => ("ArrowDown".into(), "ArrowDown".into(), 40, None),
        "ArrowLeft" => ("ArrowLeft".into(), "ArrowLeft".into(), 37, None),
        "ArrowRight" => ("ArrowRight".into(), "ArrowRight".into(), 39, None),
        "Home" => ("Home".into(), "Home".into(), 36, None),
        "End" => ("End".into(), "End".into(), 35, None),
        "PageUp" => ("PageUp".into(), "PageUp".into(), 33, None),
        "PageDown" => ("PageDown".into(), "PageDown".into(), 34, None),
        single if single.chars().count() == 1 => {
            let c = single.chars().next().unwrap_or(' ');
            let upper = c.to_ascii_uppercase();
            let code = if c.is_ascii_alphabetic() {
                format!("Key{upper}")
            } else if c.is_ascii_digit() {
                format!("Digit{c}")
            } else {
                String::new()
            };
            let key_code = if c.is_ascii_alphanumeric() { upper as i64 } else { 0 };
            // With Control, Alt or Meta held a letter is a shortcut, not text.
            let text = (modifiers & 0b111 == 0).then(|| single.to_owned());
            (single.to_owned(), code, key_code, text)
        }
        _ => return Err(unknown(combo)),
    };
    let mut down = json!({
        "type": if text.is_some() { "keyDown" } else { "rawKeyDown" },
        "key": key, "code": code, "windowsVirtualKeyCode": key_code, "modifiers": modifiers,
    });
    if let Some(text) = &text {
        down["text"] = json!(text);
        down["unmodifiedText"] = json!(text);
    }
    let up =
        json!({"type": "keyUp", "key": key, "code": code, "windowsVirtualKeyCode": key_code, "modifiers": modifiers});
    Ok(vec![down, up])
}

fn unknown(combo: &str) -> BrowserError {
    BrowserError::Input(format!(
        "unknown key {combo:?}: use a single character or one of Enter, Tab, Escape, Backspace, Delete, Space, \
         ArrowUp, ArrowDown, ArrowLeft, ArrowRight, Home, End, PageUp, PageDown, with Control+, Alt+, Shift+ or Meta+ \
         in front"
    ))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn keys_and_combinations() {
        let enter = key_events("Enter").unwrap();
        assert_eq!(enter[0]["text"], "\r");
        assert_eq!(enter[1]["type"], "keyUp");
        let select_all = key_events("Control+a").unwrap();
        assert_eq!(select_all[0]["modifiers"], 2);
        assert_eq!(select_all[0]["code"], "KeyA");
        assert!(select_all[0].get("text").is_none());
        assert_eq!(key_events("Shift+Tab").unwrap()[0]["modifiers"], 8);
        assert_eq!(key_events("+").unwrap()[0]["key"], "+");
        assert!(key_events("Hyper+x").is_err());
        assert!(key_events("F13").is_err());
    }
}
