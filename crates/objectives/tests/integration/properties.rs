//! The checklist splitter and the step parser read any text without a panic, and never add a
//! step: every objective is text that was in the steps. What the planning layer reads from
//! outside — the settings file, a history file, a person's answer to an escalation — is read
//! or refused with a message, never a panic.

use planwright_objectives::checklist::split_steps;
use planwright_objectives::escalation;
use planwright_objectives::intent::parse_step;
use planwright_objectives::page::Page;
use planwright_objectives::planning::{PlanningHistory, PlanningSettings};
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

    #[test]
    fn any_settings_file_is_read_or_refused_by_its_key(text in settings_text()) {
        let home = tempfile::tempdir().unwrap();
        std::fs::write(home.path().join("settings.yaml"), &text).unwrap();
        if let Err(error) = PlanningSettings::load(home.path()) {
            prop_assert!(error.to_string().contains("settings.yaml"), "{error}");
        }
    }

    #[test]
    fn any_history_file_is_read_or_refused_by_its_line(text in "\\PC{0,300}") {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("planning.jsonl");
        std::fs::write(&path, &text).unwrap();
        if let Err(error) = PlanningHistory::read(&path) {
            prop_assert!(error.to_string().contains("planning.jsonl"), "{error}");
        }
    }

    #[test]
    fn any_answer_to_an_escalation_is_a_choice_offered_or_refused(choice in "\\PC{0,20}", detail in "\\PC{0,40}") {
        let report = planwright_runs::planning::SituationReport {
            request: "1. Click Export".into(),
            iterations: 3,
            max_iterations: 3,
            satisfaction: 0.0,
            achieved: vec![],
            missing: vec![],
            tried: vec![],
            choices: vec![planwright_runs::planning::EscalationChoice::MoreDetail, planwright_runs::planning::EscalationChoice::Cancel],
            analysis: None,
        };
        let answer: planwright_runs::InputAnswer =
            serde_json::from_value(serde_json::json!({"choice": choice, "detail": detail})).unwrap();
        if let Ok(read) = escalation::read(&answer, &report) {
            prop_assert!(report.choices.contains(&read.choice()));
        }
    }
}

/// Settings files near the real ones: the planning section's keys with values of every kind.
fn settings_text() -> impl Strategy<Value = String> {
    let pieces = prop::sample::select(vec![
        "planning:\n",
        "  enabled: ",
        "  reflection:\n",
        "    trigger_interval: ",
        "  task_loop:\n",
        "    satisfaction_threshold: ",
        "  revision: {max_revisions: ",
        "}",
        "true",
        "false",
        "3",
        "-1",
        "1.5",
        "1e400",
        "null",
        "~",
        "[",
        "]",
        "\"x\"",
        "\n",
        "  unknown: 1\n",
        "provider: offline\n",
        "&a ",
        "*a",
    ]);
    prop::collection::vec(pieces, 0..30).prop_map(|p| p.concat())
}
