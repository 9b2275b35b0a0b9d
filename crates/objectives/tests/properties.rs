//! The checklist splitter and the step parser read any text without a panic, and never add a
//! step: every objective is text that was in the steps.

use planwright_objectives::checklist::split_steps;
use planwright_objectives::intent::parse_step;
use planwright_objectives::page::Page;
use planwright_objectives::text::{fold, quoted, words};
use proptest::prelude::*;

/// Text made of what steps are made of: markers, quotes, placeholders, both scripts.
fn step_text() -> impl Strategy<Value = String> {
    let pieces = prop::sample::select(vec![
        "1. ",
        "2) ",
        "①",
        "・",
        "- ",
        "手順3:",
        "Step 4: ",
        "\n",
        " ",
        "、",
        "。",
        "「",
        "」",
        "\"",
        "'",
        "{{",
        "}}",
        "{{PORTAL_USER}}",
        "Sign in",
        "with",
        "as the",
        "in the",
        "and",
        "then",
        "Click",
        "Check that",
        "Note",
        "を",
        "に",
        "で",
        "押す",
        "選んで",
        "入力する",
        "確認する",
        "ことを",
        "ログインする",
        "ダウンロード",
        "ｆｕｌｌ",
        "Ｗｉｄｔｈ",
        "1,280",
        "2024-04-15",
        "x",
        "é",
        "🔍",
        "\t",
        "[ ]",
        ",",
        ".",
        "(",
        ")",
    ]);
    prop::collection::vec(pieces, 0..40).prop_map(|p| p.concat())
}

proptest! {
    #[test]
    fn the_splitter_never_panics_and_adds_nothing(text in step_text()) {
        let folded = fold(&text);
        for objective in split_steps(&text) {
            prop_assert!(!objective.trim().is_empty());
            for word in words(&objective) {
                prop_assert!(folded.contains(&word), "{word:?} is not in {text:?}");
            }
        }
    }

    #[test]
    fn the_splitter_reads_any_unicode(text in "\\PC{0,300}") {
        let _ = split_steps(&text);
    }

    #[test]
    fn the_step_parser_never_panics(text in step_text()) {
        for intent in parse_step(&text) {
            let _ = intent.describe();
        }
    }

    #[test]
    fn the_step_parser_reads_any_unicode(text in "\\PC{0,200}") {
        let _ = parse_step(&text);
        let _ = quoted(&text);
    }

    #[test]
    fn any_snapshot_text_reads_as_a_page(text in "\\PC{0,400}") {
        let page = Page::parse("u", &text);
        for i in 0..page.nodes.len() {
            prop_assert!(page.ancestors(i).count() <= page.nodes.len());
        }
    }
}
