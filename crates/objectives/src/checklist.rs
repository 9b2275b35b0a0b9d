//! From the steps as a person wrote them to the checklist of objectives: one objective a step,
//! with the numbering, bullets and ordinals taken off and nothing added. A line that says two
//! things ("Choose April and press Show") stays one objective: its execution plan has two
//! actions.
//!
//! Markers recognised at the start of a line (and, on a single line, before each step:
//! "1. Log in 2. Open Statements"): `1.` `1)` `(1)` `1:` `１．` `Step 1:` `手順1:` `ステップ1` `①`–`⑳`
//! `・` `-` `*` `•` `●` `○` `■` `□` `▪` `◦` `[ ]` `[x]` `- [ ]`, and the ordinals `First,`
//! `Then,` `Next,` `Finally,` `まず` `次に` `最後に`. Lines without a marker continue the step
//! before them when the others have markers (a step wrapped over two lines); when no line has
//! one, each line is a step.

use std::sync::OnceLock;

use regex::Regex;

/// The objectives of `steps`, in order.
pub fn split_steps(steps: &str) -> Vec<String> {
    let lines: Vec<&str> = steps.lines().map(str::trim).filter(|l| !l.is_empty()).collect();
    let marked: Vec<Option<String>> = lines.iter().map(|l| strip_marker(l)).collect();
    let any_marked = marked.iter().any(Option::is_some);
    let mut objectives: Vec<String> = Vec::new();
    for (line, stripped) in lines.iter().zip(marked) {
        match stripped {
            Some(text) => objectives.extend(split_inline(&text)),
            // A wrapped line continues its step.
            None if any_marked && !objectives.is_empty() => {
                if let Some(last) = objectives.last_mut() {
                    last.push(' ');
                    last.push_str(line);
                }
            }
            None => objectives.extend(split_inline(line)),
        }
    }
    objectives.into_iter().map(|o| o.trim().to_owned()).filter(|o| !o.is_empty()).collect()
}

fn marker() -> &'static Regex {
    static MARKER: OnceLock<Regex> = OnceLock::new();
    MARKER.get_or_init(|| {
        Regex::new(
            r"(?xi)^\s*(?:
                - \s* \[ \s* [x ]? \s* \]                     # - [ ] task list
              | \[ \s* [x ]? \s* \]                           # [ ] checklist
              | (?:step|手順|ステップ) \s* [0-9０-９]+ \s* [:：.．)）]?   # Step 1: / 手順1:
              | \( \s* [0-9０-９]{1,3} \s* \)                  # (1)
              | [0-9０-９]{1,3} \s* [.．)）:：、]               # 1. 1) 1: １．
              | [①-⑳]
              | [・\-*•●○■□▪◦]
              | (?:first(?:ly)?|then|next|after\ that|finally|lastly) \s* ,
              | (?:まず|次に|その後|最後に) [、,]?
            )\s*",
        )
        .unwrap_or_else(|e| unreachable!("the marker pattern is fixed: {e}"))
    })
}

/// The line without its marker, or `None` when it has none.
fn strip_marker(line: &str) -> Option<String> {
    let found = marker().find(line)?;
    let rest = &line[found.end()..];
    // `1.5 kg`, `1,280`, `2024-04-15`: a number, not a marker.
    let numeric = found.as_str().trim().starts_with(|c: char| c.is_ascii_digit() || ('０'..='９').contains(&c));
    if numeric && rest.starts_with(|c: char| c.is_ascii_digit() || ('０'..='９').contains(&c)) {
        return None;
    }
    Some(rest.trim().to_owned()).filter(|t| !t.is_empty())
}

/// One line that numbers several steps ("1. Log in 2. Open Statements 3. Download"): split
/// where the numbers go on 2, 3… in order. Anything else stays whole.
fn split_inline(line: &str) -> Vec<String> {
    static NUMBERED: OnceLock<Regex> = OnceLock::new();
    let numbered = NUMBERED.get_or_init(|| {
        Regex::new(r"(?:(?:^|\s)([0-9]{1,2})[.)]\s|([②-⑳]))")
            .unwrap_or_else(|e| unreachable!("the inline pattern is fixed: {e}"))
    });
    let mut cuts = Vec::new();
    let mut expected = 2u32;
    for found in numbered.captures_iter(line) {
        let number = match (found.get(1), found.get(2)) {
            (Some(digits), _) => digits.as_str().parse::<u32>().ok(),
            (_, Some(circled)) => circled.as_str().chars().next().map(|c| c as u32 - '①' as u32 + 1),
            _ => None,
        };
        if number == Some(expected) {
            let whole = found.get(0).map_or(0, |m| m.start());
            cuts.push((whole, found.get(0).map_or(0, |m| m.end())));
            expected += 1;
        }
    }
    if cuts.is_empty() {
        return vec![line.to_owned()];
    }
    let mut parts = Vec::with_capacity(cuts.len() + 1);
    let mut from = 0;
    for (start, end) in cuts {
        parts.push(line[from..start].trim().to_owned());
        from = end;
    }
    parts.push(line[from..].trim().to_owned());
    parts.into_iter().filter(|p| !p.is_empty()).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn numbered_lines_lose_their_numbers_and_nothing_is_added() {
        let steps = "1. Sign in with {{PORTAL_USER}} / {{PORTAL_PASSWORD}}\n2. Open the Statements page\n3. Download the October statement\n";
        assert_eq!(
            split_steps(steps),
            [
                "Sign in with {{PORTAL_USER}} / {{PORTAL_PASSWORD}}",
                "Open the Statements page",
                "Download the October statement"
            ]
        );
    }

    #[test]
    fn every_marker_of_both_languages_is_taken_off() {
        let cases = [
            ("1) Go to Statements", "Go to Statements"),
            ("(2) Go to Statements", "Go to Statements"),
            ("３．明細を開く", "明細を開く"),
            ("手順1: 種別に「交通費」を選ぶ", "種別に「交通費」を選ぶ"),
            ("手順１：種別に「交通費」を選ぶ", "種別に「交通費」を選ぶ"),
            ("ステップ2 ログインする", "ログインする"),
            ("Step 3: Click Save", "Click Save"),
            ("①「お知らせ」を開く", "「お知らせ」を開く"),
            ("・ログインする", "ログインする"),
            ("- Click Save", "Click Save"),
            ("* Click Save", "Click Save"),
            ("• Click Save", "Click Save"),
            ("- [ ] Click Save", "Click Save"),
            ("[x] Click Save", "Click Save"),
            ("Then, click Save", "click Save"),
            ("Finally, click Save", "click Save"),
            ("次に「保存」を押す", "「保存」を押す"),
            ("最後に、ログアウトする", "ログアウトする"),
        ];
        for (line, want) in cases {
            assert_eq!(split_steps(line), [want], "{line}");
        }
    }

    #[test]
    fn values_that_look_like_numbers_are_not_markers() {
        assert_eq!(split_steps("1,280 を金額に入力する"), ["1,280 を金額に入力する"]);
        assert_eq!(split_steps("1.5 kg を入力する"), ["1.5 kg を入力する"]);
        assert_eq!(split_steps("2024-04-15 を日付に入力する"), ["2024-04-15 を日付に入力する"]);
    }

    #[test]
    fn unmarked_lines_are_steps_of_their_own_and_wrapped_lines_continue() {
        assert_eq!(split_steps("Log in\n\nOpen Statements\n"), ["Log in", "Open Statements"]);
        let wrapped = "1. Write \"My October statement lists invoice NW-88416 twice.\n   Please send a corrected copy.\" in the Message box\n2. Send the message";
        assert_eq!(
            split_steps(wrapped),
            [
                "Write \"My October statement lists invoice NW-88416 twice. Please send a corrected copy.\" in the Message box",
                "Send the message"
            ]
        );
    }

    #[test]
    fn one_line_numbering_several_steps_is_split_in_order() {
        assert_eq!(
            split_steps("1. Chrome起動 2. yahoo.co.jp入力 3. 星マーククリック"),
            ["Chrome起動", "yahoo.co.jp入力", "星マーククリック"]
        );
        assert_eq!(split_steps("①ログインする②明細を開く"), ["ログインする", "明細を開く"]);
        // Numbers out of order are text.
        assert_eq!(split_steps("1. Enter 3. as the quantity"), ["Enter 3. as the quantity"]);
    }

    #[test]
    fn a_compound_line_stays_one_objective() {
        assert_eq!(
            split_steps("3. 対象月で「2024年4月」を選んで「表示」を押す"),
            ["対象月で「2024年4月」を選んで「表示」を押す"]
        );
    }
}
