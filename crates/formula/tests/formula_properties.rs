//! Property tests of the formula parser: any text gives a formula or an error (never a panic),
//! and a formula written back reads as the same formula.

use planwright_formula::{Formula, FormulaError, MAX_DEPTH};
use proptest::prelude::*;

fn column() -> impl Strategy<Value = String> {
    prop_oneof![Just("数量".to_owned()), Just("unit price".to_owned()), Just("税率".to_owned()), "[a-z]{1,6}"]
}

fn term(depth: u32) -> BoxedStrategy<String> {
    let leaf = prop_oneof![
        (0u32..10_000).prop_map(|n| n.to_string()),
        (0u32..1000, 1u32..100).prop_map(|(a, b)| format!("{a}.{b:02}")),
        column().prop_map(|c| format!("[{c}]")),
    ];
    if depth == 0 {
        return leaf.boxed();
    }
    prop_oneof![
        leaf,
        (
            term(depth - 1),
            prop_oneof![Just("+"), Just("-"), Just("*"), Just("/"), Just("×"), Just("÷")],
            term(depth - 1)
        )
            .prop_map(|(a, s, b)| format!("{a} {s} {b}")),
        term(depth - 1).prop_map(|t| format!("({t})")),
        term(depth - 1).prop_map(|t| format!("-{t}")),
    ]
    .boxed()
}

proptest! {
    #[test]
    fn any_text_is_read_or_refused(text in "\\PC{0,80}") {
        let _ = Formula::parse(&text);
        let _ = Formula::parse_written(&text);
    }

    #[test]
    fn a_formula_written_back_reads_the_same(text in term(3)) {
        let formula = Formula::parse(&text).expect("a generated formula reads");
        let again = Formula::parse(&formula.to_string()).expect("written back, it reads");
        prop_assert_eq!(&again, &formula, "{} -> {}", text, formula);
        let cell = |name: &str| Some(name.chars().count() as f64 + 1.5);
        let (a, b) = (formula.evaluate(&cell), again.evaluate(&cell));
        prop_assert!(a == b || a.zip(b).is_some_and(|(a, b)| (a - b).abs() <= 1e-9 * a.abs().max(1.0)));
    }
}

#[test]
fn brackets_nested_too_deep_are_refused() {
    let deep = format!("{}1{}", "(".repeat(MAX_DEPTH + 1), ")".repeat(MAX_DEPTH + 1));
    assert_eq!(Formula::parse(&deep), Err(FormulaError::TooDeep));
    let signs = format!("{}1", "-".repeat(MAX_DEPTH * 10));
    assert_eq!(
        Formula::parse(&signs),
        Err(FormulaError::TooDeep),
        "a long run of signs is refused, not a stack overflow"
    );
}
